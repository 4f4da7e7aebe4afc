/* demo: the picture `make demo` writes. A level of sectors, crates and pillars, with props
 * standing in it (a pyramid of crates, a tower with a plank and barrels on it); a burst of
 * bullets fired from the left room ricochets through it (each bullet five times in its life,
 * then it stops dead where it strikes; the tower's crates are sandbags that stop it at once)
 * and knocks props over, a volley of
 * grenades is thrown from the top, bounces off them, rolls and comes to rest, and a character
 * walks from room to room with the mover. Joints hang in it for the projectiles to push: a lamp on
 * a chain, a rope bridge, a door sprung shut under the ceiling's notch. After a fixed number of frames it draws the level through the debug draw, the bullet
 * paths with each ricochet point and its surface normal, the grenade arcs with their bounces,
 * the walker's path, and writes a PNG. Every run writes the same bytes.
 *
 *   demo [--frames N] [--out FILE] [--expect-hash HEX]
 *
 * With --expect-hash it exits 1 unless the image's FNV-1a 64 hash is HEX (the test of the
 * image's determinism; the expected value of the test's run is in samples/demo_test.hash). */
#include <ricochet/ricochet.h>

#include "canvas.h"
#include "level.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    BULLETS = 18,
    GRENADES = 12,
    MAX_PATH = 2048,
    MAX_MARKS = 1024,
    BULLET_RICOCHETS = 5,           /* a bullet's bounce budget: it stops dead, spent, at its next hit */
    BULLET_LIFETIME = 4 * 60,       /* or this many frames */
    GRENADE_INTERVAL = 8,           /* frames between two throws */
    WIDTH = 1280,
    HEIGHT = 760
};

static const float DT = 1.0f / 60.0f;

typedef struct path {
    rc_vec2 points[MAX_PATH];
    int count;
} path;

typedef struct mark {
    rc_vec2 point, normal;
} mark;

typedef struct projectile {
    rc_body_id body;
    path trail;
    int bounces;
    int born;    /* frame */
    bool alive;
    bool spent;  /* stopped dead: its budget made, or at a shape that absorbs it */
} projectile;

typedef struct demo {
    rc_world *world;
    rc_shape_id outline;
    projectile bullets[BULLETS];
    projectile grenades[GRENADES];
    int grenades_thrown;
    mark ricochets[MAX_MARKS];
    int ricochet_count;
    mark bounces[MAX_MARKS];
    int bounce_count;
    int impacts;
    path walker;
    rc_vec2 walker_at;
    int waypoint;
    int props;
    int joints;
} demo;

static const rc_vec2 WALKER_ROUTE[] = {{4, 30}, {6, 20}, {17, 14}, {31, 13}, {40, 13}, {50, 6}, {60, 15}};
static const float WALKER_RADIUS = 0.7f, WALKER_SPEED = 9.0f;

static void path_add(path *p, rc_vec2 v) {
    if (p->count < MAX_PATH) {
        p->points[p->count++] = v;
    }
}

/* A fan of directions without sines: (1 - t^2, 2t) / (1 + t^2) turns by 2 atan(t), so evenly
 * spaced t give a fan from -2 atan(0.25) to 2 atan(1.1) (about -28 to 96 degrees). */
static rc_vec2 fan_direction(int i, int count) {
    float t = -0.25f + 1.35f * (float)i / (float)(count - 1);
    float q = 1.0f + t * t;
    return rc_v2((1.0f - t * t) / q, 2.0f * t / q);
}

static bool fire_bullets(demo *d) {
    const rc_vec2 gun = {5, 9};
    for (int i = 0; i < BULLETS; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.bullet = true;
        bd.gravity_scale = 0.0f;
        bd.max_bounces = 4;
        bd.bounce_budget = BULLET_RICOCHETS;
        bd.position = gun;
        bd.linear_velocity = rc_scale(70.0f, fan_direction(i, BULLETS));
        projectile *b = &d->bullets[i];
        b->body = rc_body_create(d->world, &bd);
        rc_shape_def sd = rc_shape_default_def();
        sd.restitution = 0.9f;
        sd.friction = 0.0f;
        if (rc_shape_id_is_null(rc_shape_create_circle(d->world, b->body, &sd, 0.08f))) {
            return false;
        }
        b->alive = true;
        b->spent = false;
        b->born = 0;
        path_add(&b->trail, gun);
    }
    return true;
}

static bool throw_grenade(demo *d, int frame) {
    int i = d->grenades_thrown++;
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(38.0f + 1.5f * (float)(i % 4), 32.0f);
    /* alternately left over the partition and right into the ramp room, faster each time */
    float speed = 6.0f + 1.1f * (float)i;
    bd.linear_velocity = i % 2 == 0 ? rc_v2(-speed, 2.0f) : rc_v2(0.6f * speed, 4.0f);
    projectile *g = &d->grenades[i];
    g->body = rc_body_create(d->world, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.45f;
    sd.friction = 0.6f;
    sd.density = 2.0f;
    if (rc_shape_id_is_null(rc_shape_create_circle(d->world, g->body, &sd, 0.45f))) {
        return false;
    }
    g->alive = true;
    g->born = frame;
    path_add(&g->trail, bd.position);
    return true;
}

/* Props: dynamic bodies the solver stacks, that bullets and grenades push. A pyramid of 15
 * crates on the floor of the right room; in the left room a tower of three crates with a plank
 * across it and two barrels (capsules) on end. Returns the number made, or -1. */
static int place_props(demo *d) {
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    int made = 0;
    for (int row = 0; row < 5; ++row) {
        for (int i = 0; i < 5 - row; ++i) {
            rc_body_def bd = rc_body_default_def();
            bd.type = RC_DYNAMIC;
            bd.position = rc_v2(37.5f + 0.5f * (float)row + (float)i, 0.5f + (float)row);
            rc_body_id b = rc_body_create(d->world, &bd);
            made += !rc_shape_id_is_null(rc_shape_create_box(d->world, b, &sd, 0.5f, 0.5f));
        }
    }
    rc_shape_def sandbag = sd;
    sandbag.absorbs_projectiles = true; /* the tower's crates are sandbags: a bullet stops in them */
    for (int i = 0; i < 3; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(19.0f, 0.6f + 1.2f * (float)i);
        rc_body_id b = rc_body_create(d->world, &bd);
        made += !rc_shape_id_is_null(rc_shape_create_box(d->world, b, &sandbag, 0.6f, 0.6f));
    }
    rc_body_def plank = rc_body_default_def();
    plank.type = RC_DYNAMIC;
    plank.position = rc_v2(19.0f, 3.75f);
    rc_body_id p = rc_body_create(d->world, &plank);
    made += !rc_shape_id_is_null(rc_shape_create_box(d->world, p, &sd, 2.4f, 0.15f));
    for (int i = 0; i < 2; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(17.2f + 3.6f * (float)i, 4.6f);
        rc_body_id b = rc_body_create(d->world, &bd);
        made += !rc_shape_id_is_null(rc_shape_create_capsule(d->world, b, &sd, rc_v2(0, -0.35f), rc_v2(0, 0.35f), 0.35f));
    }
    return made == 15 + 3 + 1 + 2 ? made : -1;
}

static projectile *find(projectile *list, int count, rc_body_id body) {
    for (int i = 0; i < count; ++i) {
        if (list[i].alive && rc_body_id_equals(list[i].body, body)) {
            return &list[i];
        }
    }
    return NULL;
}

static void record_impacts(demo *d) {
    const rc_impact_event *events = NULL;
    int count = rc_world_impact_events(d->world, &events);
    d->impacts += count;
    for (int i = 0; i < count; ++i) {
        const rc_impact_event *e = &events[i];
        projectile *b = find(d->bullets, BULLETS, e->projectile);
        if (b != NULL) {
            /* the path bends at the ricochet: it goes in before the position at the step's end */
            path_add(&b->trail, e->point);
            b->bounces += e->bounce > 0 ? 1 : 0;
            b->spent = b->spent || e->spent;
            if (d->ricochet_count < MAX_MARKS) {
                d->ricochets[d->ricochet_count++] = (mark){e->point, e->normal};
            }
            continue;
        }
        projectile *g = find(d->grenades, GRENADES, e->projectile);
        if (g != NULL) {
            path_add(&g->trail, e->point);
            if (d->bounce_count < MAX_MARKS) {
                d->bounces[d->bounce_count++] = (mark){e->point, e->normal};
            }
        }
    }
}

static void advance_walker(demo *d) {
    int last = (int)(sizeof WALKER_ROUTE / sizeof WALKER_ROUTE[0]) - 1;
    if (d->waypoint > last) {
        return;
    }
    rc_vec2 to = rc_sub(WALKER_ROUTE[d->waypoint], d->walker_at);
    float left = rc_length(to), step = WALKER_SPEED * DT;
    rc_vec2 delta = left <= step ? to : rc_scale(step / left, to);
    d->walker_at = rc_world_move_circle(d->world, d->walker_at, WALKER_RADIUS, delta);
    path_add(&d->walker, d->walker_at);
    if (rc_distance(d->walker_at, WALKER_ROUTE[d->waypoint]) < 0.05f) {
        d->waypoint += 1;
    }
}

static void after_step(demo *d, int frame) {
    record_impacts(d);
    for (int i = 0; i < BULLETS; ++i) {
        projectile *b = &d->bullets[i];
        if (!b->alive) {
            continue;
        }
        path_add(&b->trail, rc_body_position(d->world, b->body));
        if (b->spent || frame - b->born >= BULLET_LIFETIME) {
            rc_body_destroy(d->world, b->body); /* spent, or flown long enough */
            b->alive = false;
        }
    }
    for (int i = 0; i < d->grenades_thrown; ++i) {
        projectile *g = &d->grenades[i];
        if (rc_body_is_awake(d->world, g->body)) {
            path_add(&g->trail, rc_body_position(d->world, g->body));
        }
    }
}

/* ---- the picture ------------------------------------------------------------------------------ */

static void draw_path(canvas *c, const path *p, float width, rc_color color, float alpha) {
    for (int i = 1; i < p->count; ++i) {
        canvas_line(c, p->points[i - 1], p->points[i], width, color, alpha);
    }
}

static void draw_legend_item(canvas *c, int *x, int y, rc_color color, const char *text) {
    canvas_fill_rect(c, *x, y, 14, 14, color, 1.0f);
    *x = canvas_text(c, *x + 20, y, text, 2, 0xd0d6de) + 24;
}

static bool render(demo *d, int frames, int grenades_at_rest, const char *out) {
    canvas c;
    if (!canvas_init(&c, WIDTH, HEIGHT)) {
        return false;
    }
    canvas_clear(&c, 0x11141a);
    /* the level, with room above it for the title and below it for the legend */
    canvas_set_view(&c, (rc_aabb){{-1.0f, -3.5f}, {65.0f, 37.5f}}, 8.0f);
    canvas_fill_polygon(&c, LEVEL_OUTLINE, LEVEL_OUTLINE_COUNT, 0x1b212b, 1.0f);

    rc_debug_draw dd = canvas_debug_draw(&c);
    dd.use_bounds = true;
    dd.bounds = c.view;
    dd.normal_length = 1.0f; /* one-sided walls show a tick half a unit long on their free side */

    for (int i = 0; i < GRENADES; ++i) {
        const path *p = &d->grenades[i].trail;
        for (int k = 0; k < p->count; k += 2) {
            canvas_point(&c, p->points[k], 3.0f, 0xf39c12, 0.75f);
        }
    }
    for (int i = 0; i < BULLETS; ++i) {
        draw_path(&c, &d->bullets[i].trail, 1.3f, 0xf7dc6f, 0.6f);
    }
    draw_path(&c, &d->walker, 2.5f, 0x48c9b0, 0.9f);

    dd.flags = RC_DRAW_SHAPES | RC_DRAW_SLEEP | RC_DRAW_JOINTS;
    rc_world_draw(d->world, &dd);
    /* the walker where it stands, drawn like a body */
    canvas_fill_circle(&c, d->walker_at, WALKER_RADIUS, 0x1e6f61, 1.0f);
    canvas_circle(&c, d->walker_at, WALKER_RADIUS, 1.5f, 0x48c9b0, 1.0f);

    for (int i = 0; i < d->bounce_count; ++i) {
        canvas_point(&c, d->bounces[i].point, 5.0f, 0xe67e22, 1.0f);
    }
    for (int i = 0; i < d->ricochet_count; ++i) {
        const mark *m = &d->ricochets[i];
        canvas_line(&c, m->point, rc_add(m->point, rc_scale(1.4f, m->normal)), 1.5f, 0xecf0f1, 0.9f);
        canvas_point(&c, m->point, 6.0f, 0xff3b30, 1.0f);
    }

    char line[160];
    canvas_text(&c, 16, 12, "ricochet", 3, 0xffffff);
    snprintf(line, sizeof line,
             "%d bullets, %d ricochets - %d grenades, %d at rest - %d props, %d joints - %d steps of 1/60 s", BULLETS,
             d->ricochet_count, d->grenades_thrown, grenades_at_rest, d->props, d->joints, frames);
    canvas_text(&c, 176, 16, line, 2, 0xd0d6de);
    int x = 16, y = HEIGHT - 28;
    draw_legend_item(&c, &x, y, 0xf7dc6f, "bullet paths");
    draw_legend_item(&c, &x, y, 0xff3b30, "ricochets + normals");
    draw_legend_item(&c, &x, y, 0xf39c12, "grenade arcs");
    draw_legend_item(&c, &x, y, RC_COLOR_SLEEPING, "at rest");
    draw_legend_item(&c, &x, y, 0x48c9b0, "walker (mover)");

    bool ok = canvas_write_png(&c, out);
    canvas_free(&c);
    return ok;
}

/* ---- main ------------------------------------------------------------------------------------- */

static double seconds_now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void) {
    fprintf(stderr, "usage: demo [--frames N] [--out FILE] [--expect-hash HEX]\n");
    return 2;
}

int main(int argc, char **argv) {
    int frames = 600;
    const char *out = "ricochet-demo.png";
    const char *expect = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            char *end = NULL;
            long n = strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 1 || n > 100000) {
                return usage();
            }
            frames = (int)n;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--expect-hash") == 0 && i + 1 < argc) {
            expect = argv[++i];
        } else {
            return usage();
        }
    }

    static demo d; /* large: the paths */
    rc_world_def world_def = rc_world_default_def();
    world_def.gravity = rc_v2(0.0f, -20.0f);
    d.world = rc_world_create(&world_def);
    if (d.world == NULL || !level_build(d.world, &d.outline) || (d.props = place_props(&d)) < 0 ||
        (d.joints = level_place_joints(d.world, rc_shape_body(d.world, d.outline))) < 0 ||
        !fire_bullets(&d)) {
        fprintf(stderr, "demo: could not build the level: %s\n", d.world ? rc_world_last_error(d.world) : "no world");
        return 1;
    }
    d.walker_at = WALKER_ROUTE[0];
    path_add(&d.walker, d.walker_at);

    double stepping = 0.0;
    int max_bodies = 0;
    for (int frame = 1; frame <= frames; ++frame) {
        if (d.grenades_thrown < GRENADES && frame % GRENADE_INTERVAL == 1 && !throw_grenade(&d, frame)) {
            fprintf(stderr, "demo: could not throw a grenade: %s\n", rc_world_last_error(d.world));
            return 1;
        }
        double t0 = seconds_now();
        if (!rc_world_step(d.world, DT)) {
            fprintf(stderr, "demo: step failed: %s\n", rc_world_last_error(d.world));
            return 1;
        }
        stepping += seconds_now() - t0;
        rc_world_counters counters = rc_world_get_counters(d.world);
        max_bodies = counters.bodies > max_bodies ? counters.bodies : max_bodies;
        after_step(&d, frame);
        advance_walker(&d);
    }
    int at_rest = 0;
    for (int i = 0; i < d.grenades_thrown; ++i) {
        at_rest += !rc_body_is_awake(d.world, d.grenades[i].body);
    }

    if (!render(&d, frames, at_rest, out)) {
        fprintf(stderr, "demo: could not write %s\n", out);
        return 1;
    }
    char where[PATH_MAX];
    const char *shown = realpath(out, where) != NULL ? where : out;
    printf("ricochet demo: wrote %s (%dx%d)\n", shown, WIDTH, HEIGHT);
    printf("  steps %d of 1/60 s, bodies up to %d, %d impacts (%d bullet ricochets, %d grenade bounces)\n", frames,
           max_bodies, d.impacts, d.ricochet_count, d.bounce_count);
    printf("  grenades at rest %d of %d, walker reached waypoint %d of %d\n", at_rest, d.grenades_thrown, d.waypoint,
           (int)(sizeof WALKER_ROUTE / sizeof WALKER_ROUTE[0]));
    printf("  %.3f ms per step on average (this machine, this build)\n", 1000.0 * stepping / frames);
    rc_world_destroy(d.world);

    uint64_t hash = 0;
    if (!canvas_hash_file(out, &hash)) {
        fprintf(stderr, "demo: could not read back %s\n", out);
        return 1;
    }
    printf("  image hash %016" PRIx64 "\n", hash);
    if (expect != NULL) {
        uint64_t want = strtoull(expect, NULL, 16);
        if (want != hash) {
            fprintf(stderr, "demo: image hash %016" PRIx64 " differs from the expected %s\n", hash, expect);
            return 1;
        }
        printf("  matches the expected hash\n");
    }
    return 0;
}
