/* bench/run_ricochet.c: the ricochet runner, written against include/ricochet/world.h.
 *
 * Ray scenes: one static body at the origin; circles placed with def.offset, polygons given
 * by their counter-clockwise world vertices (the same float vertices the peers get); cell size
 * automatic (world def cell_size 0); rays through rc_world_cast_ray.
 *
 * Moving scenes: one dynamic body per shape, sensor shapes, gravity zero, defaults otherwise
 * (automatic cell size, sleeping as the world's default); rc_world_step. ricochet-solid: the
 * same bodies with solid shapes, created with enable_response = false (detection only).
 *
 * Bullet scenes: the shapes of the ray scene on one static body (restitution 1, friction 0),
 * one untimed step, then one dynamic body per bullet with no shape (a point bullet: bullet =
 * true, gravity_scale 0, max_bounces from the scene); rc_world_step, and after it (untimed) the
 * step's impact events are counted.
 *
 * RICOCHET_BENCH_WORKERS=N (2..64) lends each world the samples' pthread task system of N
 * workers (the configuration line says so); the default is one thread, as the peers run. */
#include "bench.h"

#include <ricochet/ricochet.h>

#include "task_system.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rc_ctx {
    rc_world *world;
    task_system *tasks; /* NULL: one thread */
    rc_body_id *bodies; /* moving scenes, by shape index */
    int32_t count;
    bool sensors;                     /* moving scenes: shapes are sensors */
    int64_t sensor_begin, sensor_end; /* running totals of sensor events */
    /* bullet scenes: impact events over all steps */
    bool bullets;
    int32_t max_bounces;
    int64_t impacts, slow_impacts, limit_hits, steps;
    float restitution_threshold;
} rc_ctx;

static rc_ctx *rc_ctx_new(const bench_scene *scene, int32_t bodies, char *desc, size_t desc_size) {
    rc_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, 0.0f);
    def.body_capacity = bodies;
    def.shape_capacity = scene->shape_count;
    const char *workers = getenv("RICOCHET_BENCH_WORKERS");
    int n = workers != NULL ? atoi(workers) : 1;
    if (n > 1 && (c->tasks = task_system_create(n)) != NULL) {
        task_system_install(c->tasks, &def);
    }
    c->world = rc_world_create(&def);
    if (!c->world) {
        snprintf(desc, desc_size, "rc_world_create failed");
        task_system_destroy(c->tasks);
        free(c);
        return NULL;
    }
    return c;
}

static rc_shape_id rc_add_shape(rc_world *world, rc_body_id body, const bench_shape *s, bool world_coords,
                                bool sensor, bool bouncy) {
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = sensor;
    if (bouncy) {
        sd.restitution = 1.0f;
        sd.friction = 0.0f;
    }
    sd.user_data = (void *)(intptr_t)s->index;
    if (world_coords && s->scale_x != 0.0f) {
        /* a transformed scene: the unit shape under the base transform */
        sd.offset = rc_v2(s->x, s->y);
        sd.angle = s->angle;
        sd.scale = rc_v2(s->scale_x, s->is_polygon ? s->scale_y : s->scale_x);
        if (!s->is_polygon) {
            return rc_shape_create_circle(world, body, &sd, s->unit[0][0]);
        }
        rc_vec2 u[BENCH_MAX_VERTS];
        for (int k = 0; k < s->count; ++k) {
            u[k] = rc_v2(s->unit[k][0], s->unit[k][1]);
        }
        return rc_shape_create_polygon(world, body, &sd, u, s->count);
    }
    if (!s->is_polygon) {
        sd.offset = world_coords ? rc_v2(s->x, s->y) : rc_v2(0.0f, 0.0f);
        sd.angle = s->angle;
        return rc_shape_create_circle(world, body, &sd, s->radius);
    }
    rc_vec2 v[BENCH_MAX_VERTS];
    for (int k = 0; k < s->count; ++k) {
        v[k] = world_coords ? rc_v2(s->world[k][0], s->world[k][1]) : rc_v2(s->local[k][0], s->local[k][1]);
    }
    return rc_shape_create_polygon(world, body, &sd, v, s->count);
}

static void rc_destroy_ctx(void *ctx);

/* The scene's shapes on one static body. */
static bool rc_add_static_shapes(rc_ctx *c, const bench_scene *scene, bool bouncy, char *desc, size_t desc_size) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_STATIC;
    rc_body_id ground = rc_body_create(c->world, &bd);
    if (rc_body_id_is_null(ground)) {
        snprintf(desc, desc_size, "rc_body_create: %s", rc_world_last_error(c->world));
        return false;
    }
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        rc_shape_id id = rc_add_shape(c->world, ground, &s, true, false, bouncy);
        if (rc_shape_id_is_null(id)) {
            snprintf(desc, desc_size, "shape %d refused: %s", (int)s.index, rc_world_last_error(c->world));
            return false;
        }
    }
    return true;
}

static void *rc_build_static(const bench_scene *scene, const bench_config *cfg, char *desc, size_t desc_size) {
    (void)cfg;
    rc_ctx *c = rc_ctx_new(scene, 1, desc, desc_size);
    if (!c) {
        return NULL;
    }
    if (!rc_add_static_shapes(c, scene, false, desc, desc_size)) {
        rc_destroy_ctx(c);
        return NULL;
    }
    rc_world_counters k = rc_world_get_counters(c->world);
    snprintf(desc, desc_size,
             "one static body, %d shapes; automatic cell size %.3g (%d cells); the world reports %.1f MB; "
             "rc_world_cast_ray",
             (int)k.shapes, (double)k.cell_size, (int)k.broadphase_cells, (double)k.bytes / 1048576.0);
    return c;
}

static void rc_cast(void *ctx, const bench_ray *rays, int32_t count, bench_answer *out, uint64_t *handles) {
    const rc_world *world = ((rc_ctx *)ctx)->world;
    for (int32_t i = 0; i < count; ++i) {
        rc_ray_hit hit;
        bool h = rc_world_cast_ray(world, rc_v2(rays[i].ox, rays[i].oy), rc_v2(rays[i].dx, rays[i].dy), &hit);
        out[i].hit = h;
        out[i].t = h ? hit.t : 1.0f;
        out[i].inside = h && hit.started_inside;
        handles[i] = h ? ((uint64_t)hit.shape.generation << 32 | hit.shape.index) : 0u;
    }
}

static void rc_resolve(void *ctx, bench_answer *out, const uint64_t *handles, int32_t count) {
    const rc_world *world = ((rc_ctx *)ctx)->world;
    for (int32_t i = 0; i < count; ++i) {
        if (!out[i].hit) {
            out[i].shape = -1;
            continue;
        }
        rc_shape_id id = {(uint32_t)(handles[i] & 0xffffffffu), (uint32_t)(handles[i] >> 32)};
        out[i].shape = rc_shape_is_valid(world, id) ? (int32_t)(intptr_t)rc_shape_user_data(world, id) : -2;
    }
}

static void *rc_build_moving(const bench_scene *scene, bool sensors, char *desc, size_t desc_size) {
    rc_ctx *c = rc_ctx_new(scene, scene->shape_count + 1, desc, desc_size);
    if (!c) {
        return NULL;
    }
    c->sensors = sensors;
    c->count = scene->shape_count;
    c->bodies = calloc((size_t)scene->shape_count, sizeof(rc_body_id));
    if (!c->bodies) {
        snprintf(desc, desc_size, "out of memory");
        rc_destroy_ctx(c);
        return NULL;
    }
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(s.x, s.y);
        bd.linear_velocity = rc_v2(s.vx, s.vy);
        if (!sensors) {
            /* solid shapes: detection only, the pair work the peers do for their sensors (a
               dynamic circle would otherwise be a grenade, swept and held apart by the solver) */
            bd.enable_response = false;
        }
        rc_body_id body = rc_body_create(c->world, &bd);
        rc_shape_id id =
            rc_body_id_is_null(body) ? RC_NULL_SHAPE_ID : rc_add_shape(c->world, body, &s, false, sensors, false);
        if (rc_shape_id_is_null(id)) {
            snprintf(desc, desc_size, "body/shape %d refused: %s", (int)s.index, rc_world_last_error(c->world));
            rc_destroy_ctx(c);
            return NULL;
        }
        c->bodies[s.index] = body;
    }
    rc_world_counters k = rc_world_get_counters(c->world);
    if (sensors) {
        snprintf(desc, desc_size,
                 "dynamic bodies, sensor shapes (as specified; ricochet never pairs two sensors, so it finds no "
                 "pairs here); automatic cell size %.3g; rc_world_step",
                 (double)k.cell_size);
    } else {
        snprintf(desc, desc_size,
                 "dynamic bodies, solid shapes, created with enable_response = false (detection only: contacts "
                 "found and reported, not resolved; this is motion, broadphase, pairs, narrow phase manifolds and "
                 "contact events, the pair work the peers do for their sensors); automatic cell size %.3g; "
                 "rc_world_step",
                 (double)k.cell_size);
    }
    return c;
}

static void *rc_build_moving_sensors(const bench_scene *scene, const bench_config *cfg, char *desc, size_t n) {
    (void)cfg;
    return rc_build_moving(scene, true, desc, n);
}

static void *rc_build_moving_solid(const bench_scene *scene, const bench_config *cfg, char *desc, size_t n) {
    (void)cfg;
    return rc_build_moving(scene, false, desc, n);
}

/* ---- bullets ------------------------------------------------------------------------------------ */

static void *rc_build_bullets(const bench_scene *scene, const bench_config *cfg, const bench_bullet *bullets,
                              char *desc, size_t desc_size) {
    (void)cfg;
    rc_ctx *c = rc_ctx_new(scene, scene->bullets + 1, desc, desc_size);
    if (!c) {
        return NULL;
    }
    c->count = scene->bullets;
    c->bullets = true;
    c->max_bounces = scene->max_bounces;
    c->bodies = calloc((size_t)scene->bullets, sizeof(rc_body_id));
    if (!c->bodies) {
        snprintf(desc, desc_size, "out of memory");
        rc_destroy_ctx(c);
        return NULL;
    }
    if (!rc_add_static_shapes(c, scene, true, desc, desc_size)) {
        rc_destroy_ctx(c);
        return NULL;
    }
    /* the untimed step of the static scenes, with the shapes alone */
    if (!rc_world_step(c->world, (float)scene->dt)) {
        snprintf(desc, desc_size, "rc_world_step: %s", rc_world_last_error(c->world));
        rc_destroy_ctx(c);
        return NULL;
    }
    for (int32_t i = 0; i < scene->bullets; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(bullets[i].x, bullets[i].y);
        bd.linear_velocity = rc_v2(bullets[i].vx, bullets[i].vy);
        bd.bullet = true;
        bd.gravity_scale = 0.0f;
        bd.max_bounces = scene->max_bounces;
        bd.user_data = (void *)(intptr_t)i;
        c->bodies[i] = rc_body_create(c->world, &bd);
        if (rc_body_id_is_null(c->bodies[i])) {
            snprintf(desc, desc_size, "bullet %d refused: %s", (int)i, rc_world_last_error(c->world));
            rc_destroy_ctx(c);
            return NULL;
        }
    }
    rc_world_def def = rc_world_default_def();
    c->restitution_threshold = def.restitution_threshold;
    rc_world_counters k = rc_world_get_counters(c->world);
    bool swept = rc_body_get_motion(c->world, c->bodies[0]) == RC_MOTION_SWEPT_POINT;
    const char *motion = swept ? "swept point" : "NOT a swept point";
    snprintf(desc, desc_size,
             "one static body, %d shapes (restitution 1, friction 0), one untimed step; %d point bullets (dynamic "
             "bodies with no shape, bullet = true, gravity_scale 0, max_bounces %d; motion: %s; bullets are swept "
             "against non-bullets only); automatic cell size %.3g; world defaults otherwise (restitution_threshold "
             "%.3g, contact_skin %.3g); rc_world_step; impact events counted after each step, untimed",
             (int)k.shapes, (int)scene->bullets, (int)scene->max_bounces, motion, (double)k.cell_size,
             (double)def.restitution_threshold, (double)def.contact_skin);
    return c;
}

static int64_t rc_bullet_bounces(void *ctx) {
    rc_ctx *c = ctx;
    const rc_impact_event *ev = NULL;
    int n = rc_world_impact_events(c->world, &ev);
    if (n < 0) {
        return -1;
    }
    /* events of one bullet are consecutive (bodies are swept one after the other) */
    rc_body_id run_body = RC_NULL_BODY_ID;
    int32_t run = 0;
    for (int k = 0; k < n; ++k) {
        if (ev[k].approach_speed < c->restitution_threshold) {
            c->slow_impacts++;
        }
        if (run > 0 && ev[k].projectile.index == run_body.index && ev[k].projectile.generation == run_body.generation) {
            ++run;
        } else {
            run_body = ev[k].projectile;
            run = 1;
        }
        if (run == c->max_bounces) {
            c->limit_hits++;
        }
    }
    c->impacts += n;
    c->steps++;
    return n;
}

static bool rc_bullet_velocity(void *ctx, int32_t i, double *vx, double *vy) {
    rc_ctx *c = ctx;
    if (!c->bodies || i < 0 || i >= c->count) {
        return false;
    }
    rc_vec2 v = rc_body_linear_velocity(c->world, c->bodies[i]);
    *vx = v.x;
    *vy = v.y;
    return true;
}

static void rc_bullet_note(void *ctx, char *note, size_t note_size) {
    rc_ctx *c = ctx;
    rc_world_counters k = rc_world_get_counters(c->world);
    snprintf(note, note_size,
             "bounces = impact events (rc_world_impact_events), %lld over %lld steps; %lld of them with an approach "
             "speed below restitution_threshold %.3g (those lose their normal velocity: e = 0); %lld times a bullet "
             "made %d bounces in one step (its limit); %d awake bodies at the end; the world reports %.1f MB",
             (long long)c->impacts, (long long)c->steps, (long long)c->slow_impacts, (double)c->restitution_threshold,
             (long long)c->limit_hits, (int)c->max_bounces, (int)k.awake_bodies, (double)k.bytes / 1048576.0);
}

static bool rc_step_world(void *ctx, float dt) {
    rc_ctx *c = ctx;
    if (!rc_world_step(c->world, dt)) {
        fprintf(stderr, "rc_world_step: %s\n", rc_world_last_error(c->world));
        return false;
    }
    if (c->bullets) {
        return true; /* impact events are counted after the timed step */
    }
    /* Two loads: keeps the running count of sensor overlaps for the pair check. */
    rc_sensor_events ev = rc_world_sensor_events(c->world);
    c->sensor_begin += ev.begin_count;
    c->sensor_end += ev.end_count;
    return true;
}

static int64_t rc_count_step(void *ctx, float dt, char *note, size_t note_size) {
    rc_ctx *c = ctx;
    if (!rc_step_world(c, dt)) {
        return -1;
    }
    rc_world_counters k = rc_world_get_counters(c->world);
    if (c->sensors) {
        snprintf(note, note_size,
                 "sensor begin - end events over all steps (counters after one extra step: contacts %d, touching %d, "
                 "cells %d, cell size %.3g; the world reports %.1f MB)",
                 (int)k.contacts, (int)k.touching_contacts, (int)k.broadphase_cells, (double)k.cell_size,
                 (double)k.bytes / 1048576.0);
        return c->sensor_begin - c->sensor_end;
    }
    snprintf(note, note_size,
             "touching contacts after one extra step (%d contacts in all; %d cells, cell size %.3g; the world "
             "reports %.1f MB)",
             (int)k.contacts, (int)k.broadphase_cells, (double)k.cell_size, (double)k.bytes / 1048576.0);
    return k.touching_contacts;
}

static bool rc_position(void *ctx, int32_t i, double *x, double *y) {
    rc_ctx *c = ctx;
    if (!c->bodies || i < 0 || i >= c->count) {
        return false;
    }
    rc_vec2 p = rc_body_position(c->world, c->bodies[i]);
    *x = p.x;
    *y = p.y;
    return true;
}

static void rc_destroy_ctx(void *ctx) {
    rc_ctx *c = ctx;
    if (!c) {
        return;
    }
    rc_world_destroy(c->world);
    task_system_destroy(c->tasks);
    free(c->bodies);
    free(c);
}

static const char *rc_version(void) {
    static char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", RC_VERSION_MAJOR, RC_VERSION_MINOR, RC_VERSION_PATCH);
    return text;
}

const bench_runner bench_runner_ricochet = {
    .name = "ricochet",
    .version = rc_version,
    .build_static = rc_build_static,
    .cast = rc_cast,
    .resolve = rc_resolve,
    .build_moving = rc_build_moving_sensors,
    .step = rc_step_world,
    .count_step = rc_count_step,
    .position = rc_position,
    .destroy = rc_destroy_ctx,
    .build_bullets = rc_build_bullets,
    .bullet_bounces = rc_bullet_bounces,
    .bullet_velocity = rc_bullet_velocity,
    .bullet_note = rc_bullet_note,
};

/* Moving scenes only: the same bodies with solid shapes. */
const bench_runner bench_runner_ricochet_solid = {
    .name = "ricochet-solid",
    .version = rc_version,
    .build_static = NULL,
    .cast = rc_cast,
    .resolve = rc_resolve,
    .build_moving = rc_build_moving_solid,
    .step = rc_step_world,
    .count_step = rc_count_step,
    .position = rc_position,
    .destroy = rc_destroy_ctx,
};
