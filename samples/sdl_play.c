/* sdl_play: the level of samples/demo in a window, to play with. Built only when SDL2 is
 * installed (libsdl2-dev).
 *
 *   left button     fire bullets from the character towards the mouse (held: 10 a second)
 *   right button    hold to aim a grenade (its predicted path is drawn), release to throw
 *   middle button   drag a prop (a crate, the lamp, a plank of the bridge, the door) with a
 *                   mouse joint
 *   W A S D         walk the character through the sectors with the mover
 *   G B C I Z T J H debug draw: grid cells, boxes, contacts, impacts, sleep colours, body
 *                   frames, joints, the world's counters line
 *   Space           pause          Esc or closing the window: quit
 *
 * Each frame is drawn with the samples' software canvas (the world's debug draw and a few
 * overlays) into an RGBA buffer that is uploaded to a streaming texture. The world steps at a
 * fixed 1/60 s from an accumulator of real time.
 *
 *   sdl_play [--frames N [--screenshot FILE] [--hold SECONDS]]      (N >= 180)
 *
 * With --frames the program plays itself: it pushes mouse and key events into SDL's queue on
 * a script scaled to N frames (walks, fires, throws, and ends aiming a grenade with its path
 * shown), takes exactly one step per frame, writes the last frame as a PNG with --screenshot,
 * keeps the last frame on screen for --hold seconds, and exits 1 unless everything it
 * scripted happened. Frames are paced at 60 a second unless the video driver is SDL's dummy
 * one (SDL_VIDEODRIVER=dummy: no display, as in the test). */
#include <ricochet/ricochet.h>

#include "canvas.h"
#include "level.h"

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    WIDTH = 1280,
    HEIGHT = 760,
    MAX_BULLETS = 64,
    MAX_GRENADES = 24,            /* the oldest goes when one more is thrown */
    TRAIL = 24,                   /* points of a bullet's trail kept for drawing */
    BULLET_RICOCHETS = 5,         /* a bullet's bounce budget: then it stops dead, spent, at its next hit */
    BULLET_LIFETIME = 3 * 60,     /* or after this many steps */
    GRENADE_LIFETIME = 30 * 60,   /* steps */
    FIRE_INTERVAL = 6,            /* steps between two shots while the button is held */
    ARC_STEPS = 150,              /* steps of the predicted path: 2.5 s */
    ARC_BOUNCES = 16,
    CHECK_STEPS = 30
};

enum { CATEGORY_WORLD = 1u, CATEGORY_CHARACTER = 2u, CATEGORY_BULLET = 4u };

static const float DT = 1.0f / 60.0f;
static const float GRAVITY = -20.0f;
static const float WALKER_RADIUS = 0.7f, WALKER_SPEED = 9.0f;
static const float BULLET_RADIUS = 0.08f, BULLET_SPEED = 70.0f;
static const float GRENADE_RADIUS = 0.45f, GRENADE_MAX_SPEED = 40.0f;
static const rc_vec2 WALKER_START = {5.0f, 14.0f};
/* the world box shown: the level with room above for the counters and below for the help */
static const rc_aabb VIEW = {{-1.0f, -3.5f}, {65.0f, 37.5f}};

typedef struct bullet {
    rc_body_id body;
    rc_vec2 trail[TRAIL]; /* a ring: the newest at (trail_head - 1) */
    int trail_head, trail_count;
    int bounces, age;
    bool alive, spent; /* spent: stopped dead (its budget made, or in a shape that absorbs it) */
} bullet;

typedef struct grenade {
    rc_body_id body;
    int age;
    bool alive;
} grenade;

typedef struct play {
    rc_world *world;
    rc_body_id character;
    rc_vec2 walker_at;
    bullet bullets[MAX_BULLETS];
    grenade grenades[MAX_GRENADES];
    int next_bullet, next_grenade;

    /* input, kept from events (not SDL's key state) so that pushed events drive it too */
    bool up, down, left, right;
    bool fire_held, aim_held;
    int fire_cooldown;
    rc_vec2 mouse_px;
    rc_joint_id drag; /* the mouse joint while the middle button holds a body, else null */
    int drags;        /* bodies dragged so far */
    uint32_t flags;
    bool paused;

    /* the predicted path, remade each frame while aiming */
    rc_vec2 arc[ARC_STEPS];
    rc_predicted_bounce arc_bounces[ARC_BOUNCES];
    int arc_bounce_count;
    bool arc_valid;

    /* the newest grenade and where its preview said it would be CHECK_STEPS steps after the
     * throw: that the path drawn is the path taken */
    rc_body_id checked_grenade;
    rc_vec2 checked_at;
    int check_in;
    float arc_error; /* the largest miss so far */
    int arc_checks;

    /* what happened, for the overlay and the scripted run's check */
    int steps, bullets_fired, ricochets, grenades_thrown, arcs_shown, grid_frames;
    float walked;
    double step_seconds;  /* stepping time since the overlay's numbers were last updated */
    int window_steps, window_frames;
    double window_start;
    float step_ms, fps;   /* as shown */
} play;

static double seconds_now(void) { return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency(); }

/* ---- the world -------------------------------------------------------------------------------- */

static rc_filter projectile_filter(uint32_t category) {
    rc_filter f = rc_default_filter();
    f.category_bits = category;
    f.mask_bits = ~(uint32_t)CATEGORY_CHARACTER; /* the thrower is never hit by its own */
    return f;
}

static bool create_world(play *p) {
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, GRAVITY);
    /* Cells the size of what moves (bullets, grenades, the character), so that the grid overlay
     * shows them; the automatic choice follows the median shape, here the level's long walls,
     * which the hierarchical grid puts on its coarser levels anyway. */
    def.cell_size = 2.0f;
    p->world = rc_world_create(&def);
    rc_shape_id outline;
    if (p->world == NULL || !level_build(p->world, &outline) ||
        level_place_joints(p->world, rc_shape_body(p->world, outline)) < 0) {
        return false;
    }
    /* The character is a kinematic body so that the debug draw shows it (frame, box, cells);
     * the mover places it and ignores it. */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_KINEMATIC;
    bd.position = WALKER_START;
    p->character = rc_body_create(p->world, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.filter.category_bits = CATEGORY_CHARACTER;
    p->walker_at = WALKER_START;
    return !rc_shape_id_is_null(rc_shape_create_circle(p->world, p->character, &sd, WALKER_RADIUS));
}

static rc_vec2 mouse_world(const canvas *c, const play *p) {
    return canvas_to_world(c, rc_add(p->mouse_px, rc_v2(0.5f, 0.5f)));
}

static void bullet_trail_add(bullet *b, rc_vec2 v) {
    b->trail[b->trail_head] = v;
    b->trail_head = (b->trail_head + 1) % TRAIL;
    b->trail_count += b->trail_count < TRAIL;
}

static void fire(play *p, rc_vec2 target) {
    rc_vec2 aim = rc_sub(target, p->walker_at);
    float length = rc_length(aim);
    if (!(length > 1e-3f)) {
        return;
    }
    bullet *b = &p->bullets[p->next_bullet];
    p->next_bullet = (p->next_bullet + 1) % MAX_BULLETS;
    if (b->alive) {
        rc_body_destroy(p->world, b->body); /* the oldest makes room */
    }
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.gravity_scale = 0.0f;
    bd.max_bounces = 4;
    bd.bounce_budget = BULLET_RICOCHETS;
    bd.position = p->walker_at; /* inside the walker's clearance: never inside a wall */
    bd.linear_velocity = rc_scale(BULLET_SPEED / length, aim);
    *b = (bullet){.body = rc_body_create(p->world, &bd)};
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.9f;
    sd.friction = 0.0f;
    sd.filter = projectile_filter(CATEGORY_BULLET);
    if (rc_shape_id_is_null(rc_shape_create_circle(p->world, b->body, &sd, BULLET_RADIUS))) {
        rc_body_destroy(p->world, b->body);
        return;
    }
    b->alive = true;
    bullet_trail_add(b, bd.position);
    p->bullets_fired += 1;
}

/* The throw that lands on the mouse: a flight time that grows with the distance, and the
 * velocity whose parabola passes through the target at that time (capped). */
static rc_prediction_def grenade_throw(const play *p, rc_vec2 target) {
    rc_vec2 d = rc_sub(target, p->walker_at);
    float t = 0.35f + rc_length(d) / 28.0f;
    rc_vec2 v = rc_v2(d.x / t, d.y / t - 0.5f * GRAVITY * t);
    float speed = rc_length(v);
    if (speed > GRENADE_MAX_SPEED) {
        v = rc_scale(GRENADE_MAX_SPEED / speed, v);
    }
    rc_prediction_def def = rc_prediction_default_def();
    def.position = p->walker_at;
    def.velocity = v;
    def.radius = GRENADE_RADIUS;
    def.density = 2.0f;
    def.restitution = 0.45f;
    def.friction = 0.6f;
    def.filter = projectile_filter(CATEGORY_WORLD);
    def.dt = DT;
    def.steps = ARC_STEPS;
    return def;
}

static void throw_grenade(play *p, const rc_prediction_def *how) {
    rc_vec2 path[CHECK_STEPS];
    rc_prediction_def preview = *how;
    preview.steps = CHECK_STEPS;
    bool previewed = rc_world_predict(p->world, &preview, path, NULL, 0) >= 0; /* before it exists */
    grenade *g = &p->grenades[p->next_grenade];
    p->next_grenade = (p->next_grenade + 1) % MAX_GRENADES;
    if (g->alive) {
        rc_body_destroy(p->world, g->body);
    }
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = how->position;
    bd.linear_velocity = how->velocity;
    *g = (grenade){.body = rc_body_create(p->world, &bd)};
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = how->restitution;
    sd.friction = how->friction;
    sd.density = how->density;
    sd.filter = how->filter;
    if (rc_shape_id_is_null(rc_shape_create_circle(p->world, g->body, &sd, how->radius))) {
        rc_body_destroy(p->world, g->body);
        return;
    }
    g->alive = true;
    p->grenades_thrown += 1;
    if (previewed) {
        p->checked_grenade = g->body;
        p->checked_at = path[CHECK_STEPS - 1];
        p->check_in = CHECK_STEPS;
    }
}

static void walk(play *p) {
    rc_vec2 dir = rc_v2((float)(p->right - p->left), (float)(p->up - p->down));
    float length = rc_length(dir);
    if (length == 0.0f) {
        return;
    }
    rc_mover_def def = rc_mover_default_def();
    def.position = p->walker_at;
    def.radius = WALKER_RADIUS;
    def.delta = rc_scale(WALKER_SPEED * DT / length, dir);
    def.ignore_body = p->character;
    def.filter.mask_bits = ~(uint32_t)CATEGORY_BULLET; /* bullets whizz past; grenades block */
    rc_mover_result result;
    if (rc_world_move_circle_ex(p->world, &def, &result)) {
        p->walked += rc_distance(p->walker_at, result.position);
        p->walker_at = result.position;
        rc_body_set_transform(p->world, p->character, p->walker_at, 0.0f);
    }
}

static bullet *find_bullet(play *p, rc_body_id body) {
    for (int i = 0; i < MAX_BULLETS; ++i) {
        if (p->bullets[i].alive && rc_body_id_equals(p->bullets[i].body, body)) {
            return &p->bullets[i];
        }
    }
    return NULL;
}

static bool step(play *p, const canvas *c) {
    walk(p);
    if (p->fire_cooldown > 0) {
        p->fire_cooldown -= 1;
    }
    if (p->fire_held && p->fire_cooldown == 0) {
        fire(p, mouse_world(c, p));
        p->fire_cooldown = FIRE_INTERVAL;
    }
    double t0 = seconds_now();
    if (!rc_world_step(p->world, DT)) {
        return false;
    }
    p->step_seconds += seconds_now() - t0;
    p->window_steps += 1;
    p->steps += 1;

    const rc_impact_event *events = NULL;
    int count = rc_world_impact_events(p->world, &events);
    for (int i = 0; i < count; ++i) {
        bullet *b = find_bullet(p, events[i].projectile);
        rc_body_id struck = rc_shape_body(p->world, events[i].shape);
        if (b != NULL && p->check_in > 0 && rc_body_id_equals(struck, p->checked_grenade)) {
            p->check_in = 0; /* shot in flight: the preview did not know */
        }
        if (b != NULL) {
            bullet_trail_add(b, events[i].point); /* the trail bends at the ricochet */
            b->bounces += events[i].bounce > 0 ? 1 : 0;
            b->spent = b->spent || events[i].spent;
            p->ricochets += events[i].bounce > 0 ? 1 : 0;
        }
    }
    for (int i = 0; i < MAX_BULLETS; ++i) {
        bullet *b = &p->bullets[i];
        if (!b->alive) {
            continue;
        }
        bullet_trail_add(b, rc_body_position(p->world, b->body));
        if (++b->age >= BULLET_LIFETIME || b->spent) {
            rc_body_destroy(p->world, b->body); /* spent, or flown long enough */
            b->alive = false;
        }
    }
    if (p->check_in > 0 && --p->check_in == 0 && rc_body_is_valid(p->world, p->checked_grenade)) {
        float miss = rc_distance(rc_body_position(p->world, p->checked_grenade), p->checked_at);
        p->arc_error = miss > p->arc_error ? miss : p->arc_error;
        p->arc_checks += 1;
    }
    for (int i = 0; i < MAX_GRENADES; ++i) {
        grenade *g = &p->grenades[i];
        if (g->alive && ++g->age >= GRENADE_LIFETIME) {
            rc_body_destroy(p->world, g->body);
            g->alive = false;
        }
    }
    return true;
}

/* ---- input ------------------------------------------------------------------------------------ */

static const struct {
    SDL_Scancode key;
    uint32_t flag;
    const char *label;
} TOGGLES[] = {
    {SDL_SCANCODE_G, RC_DRAW_GRID, "G grid"},          {SDL_SCANCODE_B, RC_DRAW_AABBS, "B boxes"},
    {SDL_SCANCODE_C, RC_DRAW_CONTACTS, "C contacts"},  {SDL_SCANCODE_I, RC_DRAW_IMPACTS, "I impacts"},
    {SDL_SCANCODE_Z, RC_DRAW_SLEEP, "Z sleep"},        {SDL_SCANCODE_T, RC_DRAW_TRANSFORMS, "T frames"},
    {SDL_SCANCODE_J, RC_DRAW_JOINTS, "J joints"},     {SDL_SCANCODE_H, RC_DRAW_STATS, "H counters"},
};

/* The dynamic body under the point, if any (the first found). */
typedef struct pick {
    const rc_world *world;
    rc_body_id found;
} pick;

static bool take_dynamic(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    pick *k = context;
    if (rc_body_get_type(k->world, body) != RC_DYNAMIC) {
        return true; /* the level: look on */
    }
    k->found = body;
    return false; /* one is enough */
}

/* The middle button: a mouse joint on the dynamic body under the mouse, moved with the mouse,
 * destroyed on release. */
static void drag(play *p, rc_vec2 at, bool down) {
    if (!down) {
        if (!rc_joint_id_is_null(p->drag)) {
            rc_joint_destroy(p->world, p->drag);
            p->drag = RC_NULL_JOINT_ID;
        }
        return;
    }
    pick k = {p->world, RC_NULL_BODY_ID};
    rc_world_overlap_point(p->world, at, rc_default_query_filter(), take_dynamic, &k);
    rc_body_id body = k.found;
    if (rc_body_id_is_null(body)) {
        return;
    }
    rc_mouse_joint_def md = rc_mouse_joint_default_def();
    md.body = body;
    md.target = at;
    md.hertz = 5.0f;
    md.damping_ratio = 0.7f;
    md.max_force = 1000.0f * rc_body_mass(p->world, body) * -GRAVITY;
    p->drag = rc_joint_create_mouse(p->world, &md);
    p->drags += rc_joint_id_is_null(p->drag) ? 0 : 1;
}

/* False when the program should end. */
static bool handle_event(play *p, const canvas *c, const SDL_Event *e) {
    switch (e->type) {
    case SDL_QUIT:
        return false;
    case SDL_KEYDOWN:
    case SDL_KEYUP: {
        bool down = e->type == SDL_KEYDOWN;
        SDL_Scancode key = e->key.keysym.scancode;
        switch (key) {
        case SDL_SCANCODE_W: p->up = down; break;
        case SDL_SCANCODE_S: p->down = down; break;
        case SDL_SCANCODE_A: p->left = down; break;
        case SDL_SCANCODE_D: p->right = down; break;
        case SDL_SCANCODE_ESCAPE: return !down;
        case SDL_SCANCODE_SPACE:
            p->paused ^= down && !e->key.repeat;
            break;
        default:
            for (size_t i = 0; i < sizeof TOGGLES / sizeof TOGGLES[0]; ++i) {
                if (key == TOGGLES[i].key && down && !e->key.repeat) {
                    p->flags ^= TOGGLES[i].flag;
                }
            }
        }
        return true;
    }
    case SDL_MOUSEMOTION:
        p->mouse_px = rc_v2((float)e->motion.x, (float)e->motion.y);
        if (!rc_joint_id_is_null(p->drag)) {
            rc_mouse_joint_set_target(p->world, p->drag, mouse_world(c, p));
        }
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        bool down = e->type == SDL_MOUSEBUTTONDOWN;
        p->mouse_px = rc_v2((float)e->button.x, (float)e->button.y);
        if (e->button.button == SDL_BUTTON_LEFT) {
            p->fire_held = down;
            if (down) {
                fire(p, mouse_world(c, p)); /* at once; holding repeats from the steps */
                p->fire_cooldown = FIRE_INTERVAL;
            }
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            if (!down && p->aim_held) {
                rc_prediction_def how = grenade_throw(p, mouse_world(c, p));
                throw_grenade(p, &how);
            }
            p->aim_held = down;
        } else if (e->button.button == SDL_BUTTON_MIDDLE) {
            drag(p, mouse_world(c, p), down);
        }
        return true;
    }
    default:
        return true;
    }
}

/* ---- the script of --frames ------------------------------------------------------------------ */

typedef enum action { MOVE, PRESS, RELEASE, KEY_DOWN, KEY_UP } action;

/* At `when` (a fraction of the run's frames): the mouse moves to, or a button is pressed or
 * released at, the world point `at`; or a key goes down or up. */
static const struct {
    float when;
    action what;
    rc_vec2 at;
    int button;
    SDL_Scancode key;
} SCRIPT[] = {
    {0.00f, MOVE, {30, 20}, 0, 0},
    {0.03f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_D},
    {0.05f, PRESS, {40, 13}, SDL_BUTTON_LEFT, 0}, /* a burst through the door */
    {0.12f, RELEASE, {40, 13}, SDL_BUTTON_LEFT, 0},
    {0.15f, PRESS, {25, 4}, SDL_BUTTON_RIGHT, 0}, /* aim at the floor by the pillar... */
    {0.19f, MOVE, {26, 8}, 0, 0},
    {0.22f, RELEASE, {26, 8}, SDL_BUTTON_RIGHT, 0}, /* ...and throw */
    {0.25f, PRESS, {20, 31}, SDL_BUTTON_LEFT, 0},
    {0.26f, RELEASE, {20, 31}, SDL_BUTTON_LEFT, 0},
    {0.30f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_D},
    {0.30f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_W},
    {0.35f, PRESS, {60, 15}, SDL_BUTTON_LEFT, 0},
    {0.40f, RELEASE, {60, 15}, SDL_BUTTON_LEFT, 0},
    {0.42f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_W},
    {0.42f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_A},
    {0.45f, PRESS, {45, 14}, SDL_BUTTON_RIGHT, 0}, /* over the partition */
    {0.48f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_A},
    {0.48f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_S},
    {0.50f, RELEASE, {45, 14}, SDL_BUTTON_RIGHT, 0},
    {0.50f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_G}, /* the grid overlay for a while */
    {0.50f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_G},
    {0.58f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_G},
    {0.58f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_G},
    {0.52f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_S},
    {0.55f, PRESS, {3, 3}, SDL_BUTTON_LEFT, 0},
    {0.56f, RELEASE, {3, 3}, SDL_BUTTON_LEFT, 0},
    {0.60f, PRESS, {8, 26}, SDL_BUTTON_RIGHT, 0},
    {0.63f, RELEASE, {8, 26}, SDL_BUTTON_RIGHT, 0},
    {0.66f, PRESS, {50, 8}, SDL_BUTTON_LEFT, 0},
    {0.70f, RELEASE, {50, 8}, SDL_BUTTON_LEFT, 0},
    {0.72f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_H}, /* the world's counters; body frames for a while */
    {0.72f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_H},
    {0.74f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_T},
    {0.74f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_T},
    {0.80f, KEY_DOWN, {0, 0}, 0, SDL_SCANCODE_T},
    {0.80f, KEY_UP, {0, 0}, 0, SDL_SCANCODE_T},
    {0.78f, PRESS, {36, 30}, SDL_BUTTON_RIGHT, 0}, /* held to the end: the path is shown */
    {0.86f, MOVE, {48, 12}, 0, 0},
    {0.88f, PRESS, {62, 18}, SDL_BUTTON_LEFT, 0}, /* a burst swept across the level */
    {0.91f, MOVE, {50, 6}, 0, 0},
    {0.94f, MOVE, {28, 31}, 0, 0},
    {0.97f, MOVE, {20, 3}, 0, 0},
    {0.99f, RELEASE, {20, 3}, SDL_BUTTON_LEFT, 0},
    {0.02f, PRESS, {37, 30.45f}, SDL_BUTTON_MIDDLE, 0}, /* the lamp dragged aside and let go */
    {0.04f, MOVE, {33, 29}, 0, 0},
    {0.07f, RELEASE, {33, 29}, SDL_BUTTON_MIDDLE, 0},
};

static int scripted_frame(float when, int frames) { return (int)(when * (float)frames); }

/* Pushes this frame's scripted events into SDL's queue, to be read like real input. */
static void push_script(const canvas *c, int frame, int frames) {
    for (size_t i = 0; i < sizeof SCRIPT / sizeof SCRIPT[0]; ++i) {
        if (scripted_frame(SCRIPT[i].when, frames) != frame) {
            continue;
        }
        rc_vec2 px = canvas_to_pixel(c, SCRIPT[i].at);
        SDL_Event e;
        SDL_zero(e);
        switch (SCRIPT[i].what) {
        case MOVE:
            e.type = SDL_MOUSEMOTION;
            e.motion.x = (int)px.x;
            e.motion.y = (int)px.y;
            break;
        case PRESS:
        case RELEASE:
            e.type = SCRIPT[i].what == PRESS ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
            e.button.button = (uint8_t)SCRIPT[i].button;
            e.button.state = SCRIPT[i].what == PRESS ? SDL_PRESSED : SDL_RELEASED;
            e.button.clicks = 1;
            e.button.x = (int)px.x;
            e.button.y = (int)px.y;
            break;
        case KEY_DOWN:
        case KEY_UP:
            e.type = SCRIPT[i].what == KEY_DOWN ? SDL_KEYDOWN : SDL_KEYUP;
            e.key.state = SCRIPT[i].what == KEY_DOWN ? SDL_PRESSED : SDL_RELEASED;
            e.key.keysym.scancode = SCRIPT[i].key;
            e.key.keysym.sym = SDL_GetKeyFromScancode(SCRIPT[i].key);
            break;
        }
        SDL_PushEvent(&e);
    }
}

/* ---- drawing ---------------------------------------------------------------------------------- */

static void draw_arc(canvas *c, const play *p) {
    for (int i = 1; i < ARC_STEPS; ++i) {
        canvas_line(c, p->arc[i - 1], p->arc[i], 1.5f, 0xf39c12, 0.55f);
    }
    for (int i = 0; i < ARC_STEPS; i += 6) {
        canvas_point(c, p->arc[i], 4.0f, 0xf8c471, 1.0f);
    }
    for (int i = 0; i < p->arc_bounce_count && i < ARC_BOUNCES; ++i) {
        const rc_predicted_bounce *b = &p->arc_bounces[i];
        canvas_circle(c, b->point, 0.35f, 1.5f, 0xff3b30, 1.0f);
        canvas_line(c, b->point, rc_add(b->point, rc_scale(1.2f, b->normal)), 1.5f, 0xecf0f1, 0.9f);
    }
    /* where it would be after the whole preview: usually at rest */
    canvas_circle(c, p->arc[ARC_STEPS - 1], GRENADE_RADIUS, 1.5f, 0xf39c12, 1.0f);
}

static void draw_hud(canvas *c, const play *p) {
    rc_world_counters n = rc_world_get_counters(p->world);
    char line[200];
    canvas_text(c, 16, 10, "ricochet", 2, 0xffffff);
    snprintf(line, sizeof line, "bodies %d  awake %d  step %.3f ms  %.0f fps%s", (int)n.bodies, (int)n.awake_bodies,
             (double)p->step_ms, (double)p->fps, p->paused ? "  - paused" : "");
    canvas_text(c, 130, 10, line, 2, 0xd0d6de);

    int y = HEIGHT - 50;
    canvas_text(c, 16, y,
                "left: fire   right: hold to aim, release to throw   middle: drag   WASD: walk   space: pause   esc: quit",
                2, 0xb0b8c4);
    int x = 16;
    y += 22;
    for (size_t i = 0; i < sizeof TOGGLES / sizeof TOGGLES[0]; ++i) {
        bool on = (p->flags & TOGGLES[i].flag) != 0;
        if (on) {
            canvas_fill_rect(c, x - 4, y - 4, canvas_text_width(TOGGLES[i].label, 2) + 8, 22, 0x2e4053, 1.0f);
        }
        x = canvas_text(c, x, y, TOGGLES[i].label, 2, on ? 0xffffff : 0x6c7a89) + 24;
    }
}

/* The background (the level's floor): filling it is most of a frame's drawing, so it is drawn
 * once and copied. */
static void draw_background(canvas *c) {
    canvas_clear(c, 0x11141a);
    canvas_fill_polygon(c, LEVEL_OUTLINE, LEVEL_OUTLINE_COUNT, 0x1b212b, 1.0f);
}

static void render(canvas *c, const uint8_t *background, play *p) {
    memcpy(c->rgba, background, (size_t)c->width * (size_t)c->height * 4);

    for (int i = 0; i < MAX_BULLETS; ++i) {
        const bullet *b = &p->bullets[i];
        if (!b->alive) {
            continue;
        }
        /* oldest to newest, fading in */
        for (int k = 1; k < b->trail_count; ++k) {
            int from = (b->trail_head - b->trail_count + k - 1 + 2 * TRAIL) % TRAIL, to = (from + 1) % TRAIL;
            float alpha = 0.15f + 0.7f * (float)k / (float)b->trail_count;
            canvas_line(c, b->trail[from], b->trail[to], 1.5f, 0xf7dc6f, alpha);
        }
        canvas_point(c, b->trail[(b->trail_head + TRAIL - 1) % TRAIL], 5.0f, 0xfff4c2, 1.0f);
    }

    rc_debug_draw dd = canvas_debug_draw(c);
    dd.flags = p->flags;
    dd.use_bounds = true;
    /* the world's counters line goes at the bounds' top-left corner: below the overlay's */
    dd.bounds = c->view;
    dd.bounds.upper.y = canvas_to_world(c, rc_v2(0.0f, 30.0f)).y;
    dd.bounds.lower.x = canvas_to_world(c, rc_v2(12.0f, 0.0f)).x;
    dd.normal_length = 1.0f;
    rc_world_draw(p->world, &dd);

    rc_vec2 target = mouse_world(c, p);
    canvas_circle(c, p->walker_at, WALKER_RADIUS + 0.15f, 2.0f, 0x48c9b0, 1.0f);
    rc_vec2 aim = rc_sub(target, p->walker_at);
    float length = rc_length(aim);
    if (length > WALKER_RADIUS + 0.3f) {
        rc_vec2 from = rc_add(p->walker_at, rc_scale((WALKER_RADIUS + 0.3f) / length, aim));
        rc_vec2 to = rc_add(p->walker_at, rc_scale((WALKER_RADIUS + 1.5f) / length, aim));
        canvas_line(c, from, to, 2.0f, 0x48c9b0, 1.0f);
    }
    if (p->arc_valid) {
        draw_arc(c, p);
    }
    /* the cursor as a cross hair, for screenshots of windows whose pointer is not captured */
    canvas_line(c, rc_add(target, rc_v2(-0.6f, 0.0f)), rc_add(target, rc_v2(0.6f, 0.0f)), 1.5f, 0xffffff, 0.8f);
    canvas_line(c, rc_add(target, rc_v2(0.0f, -0.6f)), rc_add(target, rc_v2(0.0f, 0.6f)), 1.5f, 0xffffff, 0.8f);
    draw_hud(c, p);
}

static void predict(play *p, const canvas *c) {
    p->arc_valid = false;
    if (!p->aim_held) {
        return;
    }
    rc_prediction_def how = grenade_throw(p, mouse_world(c, p));
    int32_t bounces = rc_world_predict(p->world, &how, p->arc, p->arc_bounces, ARC_BOUNCES);
    if (bounces >= 0) {
        p->arc_bounce_count = bounces;
        p->arc_valid = true;
        p->arcs_shown += 1;
    }
}

/* ---- main ------------------------------------------------------------------------------------- */

static int usage(void) {
    fprintf(stderr, "usage: sdl_play [--frames N [--screenshot FILE] [--hold SECONDS]]\n");
    return 2;
}

typedef struct options {
    int frames; /* 0: play until quit */
    const char *screenshot;
    double hold;
} options;

static bool parse(int argc, char **argv, options *o) {
    *o = (options){0};
    for (int i = 1; i < argc; ++i) {
        char *end = NULL;
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            long n = strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 180 || n > 1000000) { /* the script needs room */
                return false;
            }
            o->frames = (int)n;
        } else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) {
            o->screenshot = argv[++i];
        } else if (strcmp(argv[i], "--hold") == 0 && i + 1 < argc) {
            o->hold = strtod(argv[++i], &end);
            if (*end != '\0' || !(o->hold >= 0.0 && o->hold <= 3600.0)) {
                return false;
            }
        } else {
            return false;
        }
    }
    return o->frames > 0 || (o->screenshot == NULL && o->hold == 0.0);
}

typedef struct video {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
} video;

static void video_close(video *v) {
    if (v->texture != NULL) {
        SDL_DestroyTexture(v->texture);
    }
    if (v->renderer != NULL) {
        SDL_DestroyRenderer(v->renderer);
    }
    if (v->window != NULL) {
        SDL_DestroyWindow(v->window);
    }
    SDL_Quit();
}

static bool video_open(video *v) {
    *v = (video){0};
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        return false;
    }
    v->window = SDL_CreateWindow("ricochet - sdl_play", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, WIDTH, HEIGHT,
                                 SDL_WINDOW_RESIZABLE);
    if (v->window == NULL) {
        return false;
    }
    v->renderer = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (v->renderer == NULL) {
        v->renderer = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_SOFTWARE);
    }
    if (v->renderer == NULL) {
        return false;
    }
    /* mouse coordinates arrive in canvas pixels whatever the window's size */
    SDL_RenderSetLogicalSize(v->renderer, WIDTH, HEIGHT);
    /* ABGR8888 is the byte order R, G, B, A on little-endian machines: the canvas's */
    uint32_t format = SDL_BYTEORDER == SDL_LIL_ENDIAN ? SDL_PIXELFORMAT_ABGR8888 : SDL_PIXELFORMAT_RGBA8888;
    v->texture = SDL_CreateTexture(v->renderer, format, SDL_TEXTUREACCESS_STREAMING, WIDTH, HEIGHT);
    return v->texture != NULL;
}

static void present(video *v, const canvas *c) {
    SDL_UpdateTexture(v->texture, NULL, c->rgba, c->width * 4);
    SDL_RenderClear(v->renderer);
    SDL_RenderCopy(v->renderer, v->texture, NULL, NULL);
    SDL_RenderPresent(v->renderer);
}

/* Sleeps until `period` seconds after `since`. */
static void pace(double since, double period) {
    double left = since + period - seconds_now();
    if (left > 0.001) {
        SDL_Delay((uint32_t)(left * 1000.0));
    }
}

static void update_overlay_numbers(play *p) {
    double now = seconds_now(), span = now - p->window_start;
    p->window_frames += 1;
    if (span < 0.5) {
        return;
    }
    p->fps = (float)(p->window_frames / span);
    if (p->window_steps > 0) {
        p->step_ms = (float)(1000.0 * p->step_seconds / p->window_steps);
    }
    p->window_start = now;
    p->window_frames = p->window_steps = 0;
    p->step_seconds = 0.0;
}

/* The scripted run's check: each thing it scripted happened. */
static bool script_worked(const play *p, int frames) {
    int grenades_alive = 0;
    for (int i = 0; i < MAX_GRENADES; ++i) {
        grenades_alive += p->grenades[i].alive;
    }
    printf("sdl_play: %d steps, %d bullets fired, %d ricochets, %d grenades thrown (%d in the world), "
           "%d frames with a predicted path (%d throws checked against it, largest miss %.2g), "
           "%d with the grid, walked %.1f units\n",
           p->steps, p->bullets_fired, p->ricochets, p->grenades_thrown, grenades_alive, p->arcs_shown,
           p->arc_checks, (double)p->arc_error, p->grid_frames, (double)p->walked);
    const struct {
        bool held;
        const char *what;
    } checks[] = {
        {p->steps == frames, "one step a frame"},
        {p->bullets_fired >= 8, "bullets fired (8 or more)"},
        {p->ricochets >= 1, "bullets ricocheted"},
        {p->grenades_thrown >= 3 && grenades_alive == p->grenades_thrown, "three grenades thrown, all still there"},
        {p->arc_valid && p->arcs_shown > 0, "the predicted path shown, and in the last frame"},
        {p->arc_checks > 0 && p->arc_error < 0.05f, "a thrown grenade on its predicted path"},
        {p->walked > 3.0f, "the character walked"},
        {p->grid_frames > 0 && (p->flags & RC_DRAW_GRID) == 0, "the grid toggled on and off"},
        {(p->flags & RC_DRAW_STATS) != 0, "the counters line toggled on"},
        {p->drags == 1 && rc_joint_id_is_null(p->drag), "the lamp dragged with the mouse and let go"},
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; ++i) {
        if (!checks[i].held) {
            fprintf(stderr, "sdl_play: the scripted run failed: %s\n", checks[i].what);
            ok = false;
        }
    }
    return ok;
}

int main(int argc, char **argv) {
    options opt;
    if (!parse(argc, argv, &opt)) {
        return usage();
    }
    static play p; /* large: the trails and the path */
    canvas c;
    if (!canvas_init(&c, WIDTH, HEIGHT)) {
        fprintf(stderr, "sdl_play: out of memory\n");
        return 1;
    }
    canvas_set_view(&c, VIEW, 8.0f);
    uint8_t *background = malloc((size_t)WIDTH * HEIGHT * 4);
    if (background == NULL) {
        fprintf(stderr, "sdl_play: out of memory\n");
        canvas_free(&c);
        return 1;
    }
    draw_background(&c);
    memcpy(background, c.rgba, (size_t)WIDTH * HEIGHT * 4);
    if (!create_world(&p)) {
        fprintf(stderr, "sdl_play: could not build the level: %s\n",
                p.world != NULL ? rc_world_last_error(p.world) : "no world");
        rc_world_destroy(p.world);
        free(background);
        canvas_free(&c);
        return 1;
    }
    p.flags = RC_DRAW_SHAPES | RC_DRAW_SLEEP | RC_DRAW_IMPACTS | RC_DRAW_JOINTS;
    p.mouse_px = canvas_to_pixel(&c, rc_v2(30.0f, 20.0f));

    video v;
    if (!video_open(&v)) {
        fprintf(stderr, "sdl_play: SDL: %s\n", SDL_GetError());
        video_close(&v);
        rc_world_destroy(p.world);
        free(background);
        canvas_free(&c);
        return 1;
    }
    const char *driver = SDL_GetCurrentVideoDriver();
    bool watched = driver == NULL || strcmp(driver, "dummy") != 0;
    printf("sdl_play: video driver %s, %s\n", driver != NULL ? driver : "?",
           opt.frames > 0 ? "scripted" : "left: fire, right: aim and throw, WASD: walk, Esc: quit");
    fflush(stdout);

    bool running = true, failed = false;
    double last = seconds_now(), accumulator = 0.0;
    p.window_start = last;
    for (int frame = 0; running && (opt.frames == 0 || frame < opt.frames); ++frame) {
        double frame_start = seconds_now();
        if (opt.frames > 0) {
            push_script(&c, frame, opt.frames);
        }
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            running = running && handle_event(&p, &c, &e);
        }
        if (opt.frames > 0) {
            accumulator = DT; /* a scripted run is one step a frame, whatever the clock says */
        } else {
            double elapsed = frame_start - last;
            accumulator += elapsed < 0.25 ? elapsed : 0.25; /* after a stall, slow down rather than spiral */
        }
        last = frame_start;
        while (accumulator >= DT && !(p.paused && opt.frames == 0)) {
            if (!step(&p, &c)) {
                fprintf(stderr, "sdl_play: step failed: %s\n", rc_world_last_error(p.world));
                running = false;
                failed = true;
                break;
            }
            accumulator -= DT;
        }
        if (p.paused) {
            accumulator = 0.0;
        }
        predict(&p, &c);
        p.grid_frames += (p.flags & RC_DRAW_GRID) != 0;
        render(&c, background, &p);
        present(&v, &c);
        update_overlay_numbers(&p);
        if (watched) {
            pace(frame_start, DT);
        }
    }

    if (opt.frames > 0 && !failed) {
        failed = !script_worked(&p, opt.frames);
        if (opt.screenshot != NULL) {
            if (canvas_write_png(&c, opt.screenshot)) {
                printf("sdl_play: wrote %s\n", opt.screenshot);
            } else {
                fprintf(stderr, "sdl_play: could not write %s\n", opt.screenshot);
                failed = true;
            }
        }
        printf("sdl_play: scripted frames done\n");
        fflush(stdout);
        /* keep the last frame on screen (for a screenshot taken from outside), still quittable */
        double until = seconds_now() + opt.hold;
        while (running && seconds_now() < until) {
            SDL_Event e;
            while (SDL_PollEvent(&e)) {
                running = running && e.type != SDL_QUIT &&
                          !(e.type == SDL_KEYDOWN && e.key.keysym.scancode == SDL_SCANCODE_ESCAPE);
            }
            present(&v, &c);
            SDL_Delay(50);
        }
    }

    video_close(&v);
    rc_world_destroy(p.world);
    free(background);
    canvas_free(&c);
    return failed ? 1 : 0;
}
