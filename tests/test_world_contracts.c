/* Contracts under abuse: what game code may do inside the callbacks the library makes (queries,
 * debug draw, the error callback, the grid's own queries), ids of another world, a slot's
 * generation wrapping, and refused queries on several threads at once (this suite is the one
 * .ci/tsan runs under ThreadSanitizer).
 *
 * The rule under test (world.h, "Callbacks"): while a callback runs, the world is locked and
 * every call that changes it is refused with an error that says so; queries still answer. A
 * game collects what it found and changes the world after the query returns. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "core/id_pool.h"
#include "core/memory.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- a small scene ---------------------------------------------------------------------------- */

#define CRATES 40

typedef struct scene {
    rc_world *world;
    ws_errors errors;
    rc_body_id ground, crates[CRATES], kinematic, bullet;
    rc_shape_id ground_box, crate_shapes[CRATES], chain, capsule;
    rc_body_id all_bodies[CRATES + 2];
    rc_shape_id all_shapes[CRATES + 3];
} scene;

static void scene_make_with(scene *s, rc_allocator allocator) {
    memset(s, 0, sizeof *s);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = allocator;
    wd.error_fn = ws_error_fn;
    wd.error_user = &s->errors;
    s->world = rc_world_create(&wd);
    ck_assert_ptr_nonnull(s->world);
    rc_body_def bd = rc_body_default_def();
    s->ground = rc_body_create(s->world, &bd);
    rc_shape_def sd = rc_shape_default_def();
    s->ground_box = rc_shape_create_box(s->world, s->ground, &sd, 50.0f, 1.0f);
    bd.type = RC_KINEMATIC;
    bd.position = rc_v2(0.0f, 20.0f);
    s->kinematic = rc_body_create(s->world, &bd);
    rc_vec2 outline[4] = {{-3, 0}, {3, 0}, {3, 2}, {-3, 2}};
    s->chain = rc_shape_create_chain(s->world, s->kinematic, &sd, outline, 4, true);
    bd.type = RC_DYNAMIC;
    for (int i = 0; i < CRATES; ++i) {
        bd.position = rc_v2(-10.0f + 0.5f * (float)i, 1.6f + (float)(i % 3));
        s->crates[i] = rc_body_create(s->world, &bd);
        s->crate_shapes[i] = rc_shape_create_circle(s->world, s->crates[i], &sd, 0.5f);
        ck_assert(!rc_shape_id_is_null(s->crate_shapes[i]));
        s->all_bodies[i] = s->crates[i];
        s->all_shapes[i] = s->crate_shapes[i];
    }
    s->all_bodies[CRATES] = s->ground;
    s->all_bodies[CRATES + 1] = s->kinematic;
    s->all_shapes[CRATES] = s->ground_box;
    s->all_shapes[CRATES + 1] = s->chain;
    /* a capsule lying on the ground (drawn by the capsule callbacks) */
    sd.offset = rc_v2(15.0f, 1.5f);
    s->capsule = rc_shape_create_capsule(s->world, s->ground, &sd, rc_v2(-1, 0), rc_v2(1, 0), 0.5f);
    ck_assert(!rc_shape_id_is_null(s->capsule));
    s->all_shapes[CRATES + 2] = s->capsule;
    /* a point bullet (drawn as a point), flying clear of everything */
    bd.bullet = true;
    bd.position = rc_v2(0.0f, 40.0f);
    bd.linear_velocity = rc_v2(30.0f, 0.0f);
    bd.gravity_scale = 0.0f;
    s->bullet = rc_body_create(s->world, &bd);
    ck_assert(rc_world_step(s->world, 1.0f / 60.0f));
}

static void scene_make(scene *s) { scene_make_with(s, (rc_allocator){NULL, NULL, NULL}); }

static void scene_snapshot(const scene *s, ws_snapshot *snap) {
    ws_snapshot_take(snap, s->world, s->all_bodies, CRATES + 2, s->all_shapes, CRATES + 3);
}

/* ---- every call that changes a world --------------------------------------------------------- */

/* Each makes one change to the scene's world and says whether it was accepted. */
typedef bool change_fn(scene *s);

static bool ch_step(scene *s) { return rc_world_step(s->world, 1.0f / 60.0f); }
static bool ch_gravity(scene *s) { return rc_world_set_gravity(s->world, rc_v2(0, -3)); }
static bool ch_body_create(scene *s) {
    rc_body_def bd = rc_body_default_def();
    return !rc_body_id_is_null(rc_body_create(s->world, &bd));
}
static bool ch_body_destroy(scene *s) {
    rc_body_destroy(s->world, s->crates[0]);
    return !rc_body_is_valid(s->world, s->crates[0]);
}
static bool ch_transform(scene *s) { return rc_body_set_transform(s->world, s->crates[1], rc_v2(5, 9), 0.5f); }
static bool ch_velocity(scene *s) { return rc_body_set_linear_velocity(s->world, s->crates[1], rc_v2(1, 0)); }
static bool ch_spin(scene *s) { return rc_body_set_angular_velocity(s->world, s->crates[1], 2.0f); }
static bool ch_type(scene *s) { return rc_body_set_type(s->world, s->crates[2], RC_KINEMATIC); }
static bool ch_gravity_scale(scene *s) { return rc_body_set_gravity_scale(s->world, s->crates[1], 0.5f); }
static bool ch_linear_damping(scene *s) { return rc_body_set_linear_damping(s->world, s->crates[1], 0.5f); }
static bool ch_angular_damping(scene *s) { return rc_body_set_angular_damping(s->world, s->crates[1], 0.5f); }
static bool ch_bullet(scene *s) { return rc_body_set_bullet(s->world, s->crates[1], true); }
static bool ch_bounces(scene *s) { return rc_body_set_max_bounces(s->world, s->crates[1], 3); }
static bool ch_response(scene *s) { return rc_body_set_enable_response(s->world, s->crates[1], false); }
static bool ch_point_filter(scene *s) {
    rc_filter f = rc_default_filter();
    f.group_index = -4;
    return rc_body_set_point_filter(s->world, s->crates[1], f);
}
static bool ch_awake(scene *s) { return rc_body_set_awake(s->world, s->crates[1], false); }
static bool ch_body_user(scene *s) { return rc_body_set_user_data(s->world, s->crates[1], s); }
static bool ch_impulse(scene *s) {
    return rc_body_apply_linear_impulse(s->world, s->crates[1], rc_v2(0, 5), rc_body_position(s->world, s->crates[1]));
}
static bool ch_circle(scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    return !rc_shape_id_is_null(rc_shape_create_circle(s->world, s->ground, &sd, 1.0f));
}
static bool ch_polygon(scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    return !rc_shape_id_is_null(rc_shape_create_polygon(s->world, s->ground, &sd, tri, 3));
}
static bool ch_box(scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    return !rc_shape_id_is_null(rc_shape_create_box(s->world, s->ground, &sd, 1.0f, 1.0f));
}
static bool ch_chain(scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 line[2] = {{-5, -5}, {5, -5}};
    return !rc_shape_id_is_null(rc_shape_create_chain(s->world, s->ground, &sd, line, 2, false));
}
static bool ch_capsule(scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    return !rc_shape_id_is_null(rc_shape_create_capsule(s->world, s->ground, &sd, rc_v2(0, 5), rc_v2(2, 5), 0.5f));
}
static bool ch_force(scene *s) {
    return rc_body_apply_force(s->world, s->crates[1], rc_v2(0, 5), rc_body_position(s->world, s->crates[1]));
}
static bool ch_force_center(scene *s) { return rc_body_apply_force_to_center(s->world, s->crates[1], rc_v2(1, 0)); }
static bool ch_torque(scene *s) { return rc_body_apply_torque(s->world, s->crates[1], 2.0f); }
static bool ch_angular_impulse(scene *s) { return rc_body_apply_angular_impulse(s->world, s->crates[1], 0.5f); }
static bool ch_mass_data(scene *s) {
    rc_mass_data m = {0.0f, 2.0f, {0.0f, 0.0f}, 0.5f};
    return rc_body_set_mass_data(s->world, s->crates[1], m);
}
static bool ch_shape_destroy(scene *s) {
    rc_shape_destroy(s->world, s->crate_shapes[3]);
    return !rc_shape_is_valid(s->world, s->crate_shapes[3]);
}
static bool ch_base(scene *s) {
    return rc_shape_set_base_transform(s->world, s->crate_shapes[4], rc_v2(0.1f, 0), 0.0f, rc_v2(2, 2));
}
static bool ch_restitution(scene *s) { return rc_shape_set_restitution(s->world, s->crate_shapes[4], 0.5f); }
static bool ch_friction(scene *s) { return rc_shape_set_friction(s->world, s->crate_shapes[4], 0.1f); }
static bool ch_density(scene *s) { return rc_shape_set_density(s->world, s->crate_shapes[4], 3.0f); }
static bool ch_filter(scene *s) {
    rc_filter f = rc_default_filter();
    f.category_bits = 2;
    return rc_shape_set_filter(s->world, s->crate_shapes[4], f);
}
static bool ch_shape_user(scene *s) { return rc_shape_set_user_data(s->world, s->crate_shapes[4], s); }
static bool ch_world_destroy(scene *s) {
    rc_world_destroy(s->world); /* refused while locked: the world must still answer afterwards */
    return false;
}

typedef struct change {
    const char *name;
    change_fn *fn;
} change;

static const change changes[] = {
    {"rc_world_step", ch_step},
    {"rc_world_set_gravity", ch_gravity},
    {"rc_body_create", ch_body_create},
    {"rc_body_destroy", ch_body_destroy},
    {"rc_body_set_transform", ch_transform},
    {"rc_body_set_linear_velocity", ch_velocity},
    {"rc_body_set_angular_velocity", ch_spin},
    {"rc_body_set_type", ch_type},
    {"rc_body_set_gravity_scale", ch_gravity_scale},
    {"rc_body_set_linear_damping", ch_linear_damping},
    {"rc_body_set_angular_damping", ch_angular_damping},
    {"rc_body_set_bullet", ch_bullet},
    {"rc_body_set_max_bounces", ch_bounces},
    {"rc_body_set_enable_response", ch_response},
    {"rc_body_set_point_filter", ch_point_filter},
    {"rc_body_set_awake", ch_awake},
    {"rc_body_set_user_data", ch_body_user},
    {"rc_body_apply_linear_impulse", ch_impulse},
    {"rc_body_apply_force", ch_force},
    {"rc_body_apply_force_to_center", ch_force_center},
    {"rc_body_apply_torque", ch_torque},
    {"rc_body_apply_angular_impulse", ch_angular_impulse},
    {"rc_body_set_mass_data", ch_mass_data},
    {"rc_shape_create_circle", ch_circle},
    {"rc_shape_create_polygon", ch_polygon},
    {"rc_shape_create_box", ch_box},
    {"rc_shape_create_chain", ch_chain},
    {"rc_shape_create_capsule", ch_capsule},
    {"rc_shape_destroy", ch_shape_destroy},
    {"rc_shape_set_base_transform", ch_base},
    {"rc_shape_set_restitution", ch_restitution},
    {"rc_shape_set_friction", ch_friction},
    {"rc_shape_set_density", ch_density},
    {"rc_shape_set_filter", ch_filter},
    {"rc_shape_set_user_data", ch_shape_user},
    {"rc_world_destroy", ch_world_destroy},
};
#define CHANGE_COUNT ((int)(sizeof changes / sizeof changes[0]))

/* ---- trying every change from inside a callback ------------------------------------------------ */

typedef struct attempt {
    scene *s;
    int calls;       /* callback invocations */
    int refused;     /* changes refused with a "locked" message */
    int accepted;    /* changes that went through: each is a failure */
    char first_bad[300];
    int error_calls; /* error callback calls seen during the attempts */
} attempt;

/* Tried on the first invocation only (later ones just count). */
static void try_every_change(attempt *a) {
    if (a->calls++ > 0) {
        return;
    }
    scene *s = a->s;
    for (int k = 0; k < CHANGE_COUNT; ++k) {
        int errors_before = s->errors.calls;
        bool ok = changes[k].fn(s);
        const char *msg = rc_world_last_error(s->world);
        bool locked = strstr(msg, "locked") != NULL && strstr(msg, changes[k].name) != NULL;
        if (ok || !locked) {
            a->accepted++;
            if (a->first_bad[0] == '\0') {
                snprintf(a->first_bad, sizeof a->first_bad, "%s: accepted %d, message \"%s\"", changes[k].name, ok,
                         msg);
            }
        } else {
            a->refused++;
        }
        a->error_calls += s->errors.calls - errors_before;
    }
}

static bool overlap_try(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    try_every_change(context);
    return true;
}

static float cast_try(const rc_ray_hit *hit, void *context) {
    (void)hit;
    try_every_change(context);
    return 1.0f;
}

static void draw_polygon_try(const rc_vec2 *p, int32_t n, rc_color c, void *context) {
    (void)p, (void)n, (void)c;
    try_every_change(context);
}
static void draw_circle_try(rc_vec2 center, float r, rc_color c, void *context) {
    (void)center, (void)r, (void)c;
    try_every_change(context);
}
static void draw_solid_circle_try(rc_vec2 center, float r, rc_vec2 axis, rc_color c, void *context) {
    (void)center, (void)r, (void)axis, (void)c;
    try_every_change(context);
}
static void draw_capsule_try(rc_vec2 p, rc_vec2 q, float r, rc_color c, void *context) {
    (void)p, (void)q, (void)r, (void)c;
    try_every_change(context);
}
static void draw_segment_try(rc_vec2 p, rc_vec2 q, rc_color c, void *context) {
    (void)p, (void)q, (void)c;
    try_every_change(context);
}
static void draw_point_try(rc_vec2 p, float size, rc_color c, void *context) {
    (void)p, (void)size, (void)c;
    try_every_change(context);
}
static void draw_transform_try(rc_transform xf, void *context) {
    (void)xf;
    try_every_change(context);
}
static void draw_text_try(rc_vec2 p, const char *text, rc_color c, void *context) {
    (void)p, (void)text, (void)c;
    try_every_change(context);
}

enum {
    CB_OVERLAP_AABB,
    CB_OVERLAP_POINT,
    CB_OVERLAP_CIRCLE,
    CB_CAST_RAY_ALL,
    CB_CAST_CIRCLE_ALL,
    CB_OVERLAP_POLYGON,
    CB_DRAW_CAPSULE,
    CB_DRAW_SOLID_CAPSULE,
    CB_DRAW_POLYGON,
    CB_DRAW_SOLID_POLYGON,
    CB_DRAW_CIRCLE,
    CB_DRAW_SOLID_CIRCLE,
    CB_DRAW_SEGMENT,
    CB_DRAW_POINT,
    CB_DRAW_TRANSFORM,
    CB_DRAW_TEXT,
    CB_COUNT
};

static const char *callback_names[CB_COUNT] = {
    "overlap_aabb", "overlap_point", "overlap_circle", "cast_ray_all", "cast_circle_all", "overlap_polygon",
    "draw_capsule", "draw_solid_capsule", "draw_polygon",
    "draw_solid_polygon", "draw_circle", "draw_solid_circle", "draw_segment", "draw_point", "draw_transform",
    "draw_text"};

/* Run the query or draw of kind `cb` with the trying callback; true when the library reported
 * success. */
static bool run_callback_kind(int cb, attempt *a) {
    const rc_world *w = a->s->world;
    rc_query_filter f = rc_default_query_filter();
    rc_vec2 crate = rc_body_position(w, a->s->crates[5]);
    switch (cb) {
    case CB_OVERLAP_AABB:
        return rc_world_overlap_aabb(w, (rc_aabb){{-20, -5}, {20, 25}}, f, overlap_try, a) > 0;
    case CB_OVERLAP_POINT:
        return rc_world_overlap_point(w, crate, f, overlap_try, a) > 0;
    case CB_OVERLAP_CIRCLE:
        return rc_world_overlap_circle(w, crate, 3.0f, f, overlap_try, a) > 0;
    case CB_CAST_RAY_ALL:
        return rc_world_cast_ray_all(w, rc_v2(-30, crate.y), rc_v2(60, 0), f, cast_try, a);
    case CB_CAST_CIRCLE_ALL:
        return rc_world_cast_circle_all(w, rc_v2(-30, crate.y), 0.3f, rc_v2(60, 0), f, cast_try, a);
    case CB_OVERLAP_POLYGON: {
        rc_polygon box = rc_make_box(3.0f, 3.0f);
        rc_transform xf = {crate, RC_ROT_IDENTITY};
        box = rc_transform_polygon(xf, &box);
        return rc_world_overlap_polygon(w, &box, f, overlap_try, a) > 0;
    }
    default:
        break;
    }
    rc_debug_draw d = rc_default_debug_draw();
    d.flags = RC_DRAW_ALL;
    d.context = a;
    switch (cb) {
    case CB_DRAW_CAPSULE: d.draw_capsule = draw_capsule_try; break;
    case CB_DRAW_SOLID_CAPSULE: d.draw_solid_capsule = draw_capsule_try; break;
    case CB_DRAW_POLYGON: d.draw_polygon = draw_polygon_try; break;
    case CB_DRAW_SOLID_POLYGON: d.draw_solid_polygon = draw_polygon_try; break;
    case CB_DRAW_CIRCLE: d.draw_circle = draw_circle_try; break;
    case CB_DRAW_SOLID_CIRCLE: d.draw_solid_circle = draw_solid_circle_try; break;
    case CB_DRAW_SEGMENT: d.draw_segment = draw_segment_try; break;
    case CB_DRAW_POINT: d.draw_point = draw_point_try; break;
    case CB_DRAW_TRANSFORM: d.draw_transform = draw_transform_try; break;
    default: d.draw_text = draw_text_try; break;
    }
    return rc_world_draw(w, &d);
}

START_TEST(every_change_is_refused_inside_every_callback) {
    int cb = _i;
    scene s;
    scene_make(&s);
    ws_snapshot before, after;
    scene_snapshot(&s, &before);
    attempt a;
    memset(&a, 0, sizeof a);
    a.s = &s;
    ck_assert_msg(run_callback_kind(cb, &a), "%s reported failure", callback_names[cb]);
    ck_assert_msg(a.calls > 0, "%s never called its callback", callback_names[cb]);
    ck_assert_msg(a.accepted == 0, "inside %s: %d changes not refused as locked; first: %s", callback_names[cb],
                  a.accepted, a.first_bad);
    ck_assert_int_eq(a.refused, CHANGE_COUNT);
    ck_assert_int_eq(a.error_calls, CHANGE_COUNT); /* one error callback per refusal */
    scene_snapshot(&s, &after);
    char why[600];
    ck_assert_msg(ws_snapshot_equal(&before, &after, why, sizeof why), "inside %s the world changed: %s",
                  callback_names[cb], why);
    ws_snapshot_free(&after);
    /* unlocked again: every change goes through now */
    for (int k = 0; k < CHANGE_COUNT - 1; ++k) {
        ck_assert_msg(changes[k].fn(&s), "after %s, %s was refused: %s", callback_names[cb], changes[k].name,
                      rc_world_last_error(s.world));
    }
    ws_snapshot_free(&before);
    rc_world_destroy(s.world);
}
END_TEST

/* The game's allocator hooks run in the middle of the world's changes (a body array growing):
 * the world is locked while they run, and every change a hook tries is refused as in a callback
 * (before, a body made from the hook moved the array that the shape being made was writing to:
 * a use after free; a step from it tripped the grid's assertions). The change that called the
 * hook then goes on and is made. */
typedef struct hook_attempt {
    attempt a;
    bool armed;
} hook_attempt;

static void *trying_alloc(size_t size, size_t align, void *user) {
    hook_attempt *h = user;
    if (h->armed) {
        h->armed = false;
        try_every_change(&h->a);
    }
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void trying_free(void *ptr, size_t size, void *user) {
    hook_attempt *h = user;
    (void)size;
    if (h->armed) {
        h->armed = false;
        try_every_change(&h->a);
    }
    free(ptr);
}

START_TEST(every_change_is_refused_inside_the_allocator_hooks) {
    for (int which = 0; which < 2; ++which) {
        static hook_attempt h;
        memset(&h, 0, sizeof h);
        scene s;
        scene_make_with(&s, (rc_allocator){trying_alloc, trying_free, &h});
        h.a.s = &s;
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        rc_body_id made[300], doomed[300];
        int count = 0;
        for (int i = 0; i < 300 && which == 1; ++i) {
            bd.position = rc_v2((float)i, 80.0f);
            doomed[i] = rc_body_create(s.world, &bd);
        }
        h.armed = true;
        /* bodies made until the arrays grow (alloc), or destroyed until memory is given back */
        for (int i = 0; i < 300 && h.a.calls == 0; ++i) {
            if (which == 0) {
                bd.position = rc_v2((float)i, 60.0f);
                made[count] = rc_body_create(s.world, &bd);
                ck_assert(!rc_body_id_is_null(made[count]));
                count++;
            } else {
                rc_body_destroy(s.world, doomed[i]);
                ck_assert(rc_world_step(s.world, 1.0f / 60.0f));
            }
        }
        ck_assert_msg(h.a.calls > 0, "the %s hook was never called", which == 0 ? "alloc" : "free");
        ck_assert_msg(h.a.accepted == 0, "inside the %s hook: %d changes not refused as locked; first: %s",
                      which == 0 ? "alloc" : "free", h.a.accepted, h.a.first_bad);
        ck_assert_int_eq(h.a.refused, CHANGE_COUNT);
        /* unlocked again, and whole */
        ck_assert(rc_world_step(s.world, 1.0f / 60.0f));
        for (int i = 0; i < count; ++i) {
            ck_assert(rc_body_is_valid(s.world, made[i]));
        }
        ck_assert(!rc_body_id_is_null(rc_body_create(s.world, &bd)));
        rc_world_destroy(s.world);
    }
}
END_TEST

/* The case: a grenade's blast destroys what it finds. The bodies reported are refused
 * inside the callback (with a message saying why), the query still reports every one, and
 * destroying them after the query returns works. */
typedef struct blast {
    rc_world *world;
    rc_body_id found[64];
    int count, refused;
    bool create_many;
} blast;

static bool blast_fn(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    blast *b = context;
    rc_body_destroy(b->world, body);
    b->refused += rc_body_is_valid(b->world, body) && strstr(rc_world_last_error(b->world), "locked") != NULL;
    /* destroying every body, not just this one */
    for (int i = 0; i < b->count; ++i) {
        rc_body_destroy(b->world, b->found[i]);
    }
    if (b->create_many) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        for (int i = 0; i < 2000; ++i) {
            ck_assert(rc_body_id_is_null(rc_body_create(b->world, &bd)));
        }
    }
    b->found[b->count++] = body;
    return true;
}

START_TEST(a_blast_destroys_what_it_found_after_the_query) {
    scene s;
    scene_make(&s);
    blast b;
    memset(&b, 0, sizeof b);
    b.world = s.world;
    b.create_many = true;
    rc_world_counters c0 = rc_world_get_counters(s.world);
    int32_t n = rc_world_overlap_circle(s.world, rc_v2(0, 0), 100.0f, rc_default_query_filter(), blast_fn, &b);
    ck_assert_int_eq(n, CRATES + 1 + 4 + 1); /* the crates, the ground box, the chain's four walls, the capsule */
    ck_assert_int_eq(b.count, n);
    ck_assert_int_eq(b.refused, n);
    rc_world_counters c1 = rc_world_get_counters(s.world);
    ck_assert_int_eq(c1.bodies, c0.bodies);
    ck_assert_int_eq(c1.shapes, c0.shapes);
    for (int i = 0; i < b.count; ++i) {
        rc_body_destroy(s.world, b.found[i]); /* a body with several shapes is named more than once */
    }
    ck_assert_int_eq(rc_world_get_counters(s.world).bodies, 1); /* the point bullet: no shape */
    ck_assert(rc_world_step(s.world, 1.0f / 60.0f));
    rc_world_destroy(s.world);
}
END_TEST

/* Queries answer inside callbacks (only changes are refused), the same as outside. */
typedef struct nested {
    const rc_world *world;
    rc_ray_hit outside;
    int checked, different;
} nested;

static bool nested_fn(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    nested *n = context;
    rc_ray_hit h;
    bool hit = rc_world_cast_ray(n->world, rc_v2(-30, 0.5f), rc_v2(60, 0), &h);
    n->checked++;
    const rc_ray_hit *o = &n->outside;
    n->different += !hit || h.t != o->t || h.point.x != o->point.x || h.point.y != o->point.y ||
                    h.normal.x != o->normal.x || h.normal.y != o->normal.y || h.started_inside != o->started_inside ||
                    !rc_shape_id_equals(h.shape, o->shape) || !rc_body_id_equals(h.body, o->body);
    return true;
}

START_TEST(queries_answer_inside_callbacks) {
    scene s;
    scene_make(&s);
    nested n;
    memset(&n, 0, sizeof n);
    n.world = s.world;
    memset(&n.outside, 0, sizeof n.outside);
    ck_assert(rc_world_cast_ray(s.world, rc_v2(-30, 0.5f), rc_v2(60, 0), &n.outside));
    ck_assert(rc_world_overlap_aabb(s.world, (rc_aabb){{-20, -5}, {20, 25}}, rc_default_query_filter(), nested_fn, &n) >
              0);
    ck_assert(n.checked > 0);
    ck_assert_int_eq(n.different, 0);
    rc_world_destroy(s.world);
}
END_TEST

/* The error callback: it may query the world; a change it tries is refused without replacing
 * the message it was given and without calling it again (no recursion). */
typedef struct error_probe {
    rc_world *world;
    rc_body_id body;
    int calls;
    bool change_refused, query_answered;
    char message[256];
} error_probe;

static void probing_error_fn(const char *message, void *user) {
    error_probe *p = user;
    p->calls++;
    snprintf(p->message, sizeof p->message, "%s", message);
    rc_body_destroy(p->world, p->body);
    p->change_refused = rc_body_is_valid(p->world, p->body);
    rc_body_set_transform(p->world, RC_NULL_BODY_ID, rc_v2(0, 0), 0.0f); /* refused twice over */
    p->query_answered = rc_body_position(p->world, p->body).y == 7.0f;
    /* the message it was handed is unchanged */
    if (strcmp(message, p->message) != 0) {
        p->message[0] = '\0';
    }
}

START_TEST(the_error_callback_is_called_once_and_cannot_change_the_world) {
    error_probe p;
    memset(&p, 0, sizeof p);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = probing_error_fn;
    wd.error_user = &p;
    p.world = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    bd.position = rc_v2(3, 7);
    p.body = rc_body_create(p.world, &bd);
    ck_assert(!rc_world_step(p.world, -1.0f));
    ck_assert_int_eq(p.calls, 1);
    ck_assert(p.change_refused);
    ck_assert(p.query_answered);
    ck_assert_str_eq(p.message, "rc_world_step: dt -1 must be finite and > 0");
    ck_assert_str_eq(rc_world_last_error(p.world), p.message);
    /* unlocked afterwards */
    rc_body_destroy(p.world, p.body);
    ck_assert(!rc_body_is_valid(p.world, p.body));
    ck_assert_int_eq(p.calls, 1);
    rc_world_destroy(p.world);
}
END_TEST

/* ---- the grid on its own ------------------------------------------------------------------------ */

typedef struct grid_probe {
    rc_grid *grid;
    int32_t other;
    int calls, accepted;
} grid_probe;

static void grid_try_changes(grid_probe *p) {
    if (p->calls++ > 0) {
        return;
    }
    rc_aabb box = {{100, 100}, {101, 101}};
    p->accepted += rc_grid_insert(p->grid, box, 7) >= 0;
    p->accepted += rc_grid_move(p->grid, p->other, box);
    p->accepted += rc_grid_remove(p->grid, p->other);
    p->accepted += rc_grid_reserve(p->grid, 10);
    p->accepted += rc_grid_set_static(p->grid, p->other, true);
    rc_grid_forget_moves(p->grid);
    rc_grid_update_pairs(p->grid, NULL, NULL);
    p->accepted += rc_grid_optimize(p->grid);
    rc_grid_destroy(p->grid); /* refused: the grid must still answer below */
}

static bool grid_query_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy, (void)user;
    grid_try_changes(context);
    return true;
}
static float grid_ray_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy, (void)user;
    grid_try_changes(context);
    return max_fraction;
}
static void grid_pair_fn(int32_t pa, int32_t ua, int32_t pb, int32_t ub, void *context) {
    (void)pa, (void)ua, (void)pb, (void)ub;
    grid_try_changes(context);
}
static void grid_cell_fn(int32_t level, rc_aabb cell, int32_t count, void *context) {
    (void)level, (void)cell, (void)count;
    grid_try_changes(context);
}

START_TEST(grid_changes_are_refused_inside_its_callbacks) {
    for (int kind = 0; kind < 7; ++kind) {
        rc_grid_def gd = rc_grid_default_def();
        gd.cell_size = 1.0f;
        grid_probe p;
        memset(&p, 0, sizeof p);
        p.grid = rc_grid_create(&gd);
        int32_t first = rc_grid_insert(p.grid, (rc_aabb){{0, 0}, {1, 1}}, 1);
        p.other = rc_grid_insert(p.grid, (rc_aabb){{0.5f, 0.5f}, {2, 2}}, 2);
        ck_assert(first >= 0 && p.other >= 0);
        rc_grid_stats before = rc_grid_get_stats(p.grid);
        switch (kind) {
        case 0: rc_grid_query_aabb(p.grid, (rc_aabb){{-1, -1}, {3, 3}}, grid_query_fn, &p); break;
        case 1: rc_grid_query_point(p.grid, rc_v2(0.75f, 0.75f), grid_query_fn, &p); break;
        case 2: rc_grid_cast_ray(p.grid, rc_v2(-1, 0.75f), rc_v2(5, 0), 1.0f, grid_ray_fn, &p); break;
        case 3: rc_grid_cast_circle(p.grid, rc_v2(-1, 0.75f), 0.2f, rc_v2(5, 0), 1.0f, grid_ray_fn, &p); break;
        case 4: rc_grid_update_pairs(p.grid, grid_pair_fn, &p); break;
        case 5: rc_grid_find_all_pairs(p.grid, grid_pair_fn, &p); break;
        default: rc_grid_for_each_cell(p.grid, grid_cell_fn, &p); break;
        }
        ck_assert_msg(p.calls > 0, "query %d never called back", kind);
        ck_assert_msg(p.accepted == 0, "query %d: %d changes went through inside its callback", kind, p.accepted);
        rc_grid_stats after = rc_grid_get_stats(p.grid);
        ck_assert_int_eq(after.proxies, 2);
        ck_assert_int_eq(after.entries, before.entries);
        ck_assert(rc_grid_is_proxy(p.grid, p.other));
        rc_aabb kept = rc_grid_get_box(p.grid, p.other);
        ck_assert(kept.lower.x == 0.5f && kept.upper.x == 2.0f);
        /* unlocked afterwards */
        ck_assert(rc_grid_move(p.grid, p.other, (rc_aabb){{100, 100}, {101, 101}}));
        ck_assert(rc_grid_remove(p.grid, first));
        rc_grid_destroy(p.grid);
    }
}
END_TEST

/* ---- ids of another world ---------------------------------------------------------------------- */

START_TEST(ids_of_another_world_are_refused) {
    ws_errors ea, eb;
    memset(&ea, 0, sizeof ea);
    memset(&eb, 0, sizeof eb);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = ws_error_fn;
    wd.error_user = &ea;
    rc_world *a = rc_world_create(&wd);
    wd.error_user = &eb;
    rc_world *b = rc_world_create(&wd);
    enum { N = 300 };
    rc_body_id ba[N], bb[N];
    rc_shape_id sa[N], sb[N];
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < N; ++i) {
        bd.position = rc_v2((float)i * 3.0f, 0.0f);
        ba[i] = rc_body_create(a, &bd);
        bb[i] = rc_body_create(b, &bd);
        sa[i] = rc_shape_create_circle(a, ba[i], &sd, 1.0f);
        sb[i] = rc_shape_create_circle(b, bb[i], &sd, 1.0f);
        /* the same calls made in both: the same slots, other generations */
        ck_assert_uint_eq(ba[i].index, bb[i].index);
        ck_assert_uint_ne(ba[i].generation, bb[i].generation);
    }
    /* churn some slots so that generations have moved on */
    for (int i = 0; i < N; i += 3) {
        rc_body_destroy(b, bb[i]);
        bb[i] = rc_body_create(b, &bd);
        sb[i] = rc_shape_create_circle(b, bb[i], &sd, 1.0f);
    }
    ws_snapshot before, after;
    ws_snapshot_take(&before, b, bb, N, sb, N);
    int errors = eb.calls;
    for (int i = 0; i < N; ++i) {
        ck_assert(!rc_body_is_valid(b, ba[i]));
        ck_assert(!rc_shape_is_valid(b, sa[i]));
        rc_body_destroy(b, ba[i]);
        ck_assert_msg(strstr(rc_world_last_error(b), "not from this world") != NULL, "%s", rc_world_last_error(b));
        ck_assert(!rc_body_set_transform(b, ba[i], rc_v2(0, 0), 0.0f));
        ck_assert(!rc_body_set_linear_velocity(b, ba[i], rc_v2(1, 1)));
        ck_assert(rc_vec2_is_finite(rc_body_position(b, ba[i])));
        ck_assert(!rc_shape_set_friction(b, sa[i], 0.0f));
        ck_assert(!rc_shape_set_filter(b, sa[i], rc_default_filter()));
        rc_shape_destroy(b, sa[i]);
    }
    ck_assert_int_eq(eb.calls - errors, 7 * N);
    ck_assert_int_eq(ea.calls, 0);
    ws_snapshot_take(&after, b, bb, N, sb, N);
    char why[600];
    ck_assert_msg(ws_snapshot_equal(&before, &after, why, sizeof why), "foreign ids changed world b: %s", why);
    ck_assert_int_eq(rc_world_get_counters(b).bodies, N);
    ws_snapshot_free(&before);
    ws_snapshot_free(&after);
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

/* A level reloaded: a world destroyed and the next made, which the allocator puts at the same
 * address (a hook that hands the same block back, as malloc does). The old world's ids are
 * refused by the new one. Before, the default salt came from the address alone: every old id
 * named the new world's body in its slot. */
static unsigned char world_block[1u << 16] __attribute__((aligned(64)));
static void *same_block_alloc(size_t size, size_t align, void *user) {
    int *handed = user;
    if (*handed == 0 && size <= sizeof world_block) {
        *handed = 1; /* the first: the world's own record, in the same block each time */
        return world_block;
    }
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void same_block_free(void *ptr, size_t size, void *user) {
    (void)size;
    int *handed = user;
    if (ptr == (void *)world_block) {
        *handed = 0;
    } else {
        free(ptr);
    }
}

START_TEST(ids_of_a_world_destroyed_are_refused_by_the_next_at_its_address) {
    int handed = 0;
    rc_world_def wd = rc_world_default_def();
    wd.allocator = (rc_allocator){same_block_alloc, same_block_free, &handed};
    rc_body_def bd = rc_body_default_def();
    int accepted = 0;
    for (int reload = 0; reload < 20; ++reload) {
        rc_world *a = rc_world_create(&wd);
        ck_assert_ptr_eq(a, (void *)world_block);
        rc_body_id old = rc_body_create(a, &bd);
        ck_assert(!rc_body_id_is_null(old));
        rc_world_destroy(a);
        rc_world *b = rc_world_create(&wd);
        ck_assert_ptr_eq(b, (void *)world_block);
        ck_assert(!rc_body_id_is_null(rc_body_create(b, &bd)));
        accepted += rc_body_is_valid(b, old);
        rc_world_destroy(b);
    }
    ck_assert_msg(accepted == 0, "%d of 20 reloaded worlds took the ids of the world before", accepted);
}
END_TEST

/* With the same id_salt, the same calls give the same ids (what replays and lockstep peers
 * need); with another salt, other generations. */
START_TEST(one_salt_gives_the_same_ids) {
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = 12345u;
    rc_world *a = rc_world_create(&wd), *b = rc_world_create(&wd);
    wd.id_salt = 12346u;
    rc_world *c = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    for (int i = 0; i < 50; ++i) {
        rc_body_id ia = rc_body_create(a, &bd), ib = rc_body_create(b, &bd), ic = rc_body_create(c, &bd);
        ck_assert(rc_body_id_equals(ia, ib));
        ck_assert(!rc_body_id_equals(ia, ic));
        if (i % 2 == 0) {
            rc_body_destroy(a, ia);
            rc_body_destroy(b, ib);
            rc_body_destroy(c, ic);
        }
    }
    rc_world_destroy(a);
    rc_world_destroy(b);
    rc_world_destroy(c);
}
END_TEST

/* A stale id never becomes valid again: each reuse of a slot shows a new generation, and a
 * slot whose count would wrap is retired instead. */
START_TEST(stale_ids_stay_stale_through_many_reuses) {
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    enum { REUSES = 20000 };
    static rc_body_id old[REUSES];
    for (int i = 0; i < REUSES; ++i) {
        old[i] = rc_body_create(w, &bd);
        ck_assert_uint_eq(old[i].index, 1u); /* one slot, reused each time */
        rc_body_destroy(w, old[i]);
    }
    rc_body_id now = rc_body_create(w, &bd);
    for (int i = 0; i < REUSES; ++i) {
        ck_assert(!rc_body_id_equals(old[i], now));
        ck_assert(!rc_body_is_valid(w, old[i]));
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_slot_is_retired_before_its_count_wraps) {
    rc_allocator al = rc_mem_resolve((rc_allocator){NULL, NULL, NULL});
    const rc_allocator *a = &al;
    rc_id_pool pool;
    memset(&pool, 0, sizeof pool);
    ck_assert(rc_id_pool_reserve(a, &pool, 2));
    int32_t s0 = rc_id_pool_take(&pool), s1 = rc_id_pool_take(&pool);
    ck_assert_int_eq(s0, 0);
    ck_assert_int_eq(s1, 1);
    pool.counts[s0] = RC_ID_COUNT_LAST - 2u; /* as if given back 2^32 - 3 times */
    uint32_t seen[3];
    seen[0] = rc_id_generation(rc_id_pool_count(&pool, s0), 77u);
    rc_id_pool_give(&pool, s0);
    ck_assert_int_eq(rc_id_pool_take(&pool), s0); /* count LAST - 1: still usable */
    seen[1] = rc_id_generation(rc_id_pool_count(&pool, s0), 77u);
    ck_assert_uint_ne(seen[0], seen[1]);
    rc_id_pool_give(&pool, s0); /* count LAST: retired, never handed out again */
    ck_assert_int_eq(pool.retired, 1);
    ck_assert_int_eq(rc_id_pool_live(&pool), 1);
    ck_assert(rc_id_pool_reserve(a, &pool, 1));
    int32_t next = rc_id_pool_take(&pool);
    ck_assert_int_eq(next, 2);
    /* a trim above a retired slot keeps it (nothing could start beyond its count) */
    rc_id_pool_give(&pool, next);
    rc_id_pool_give(&pool, s1);
    rc_id_pool_trim(&pool, 0);
    ck_assert_int_eq(pool.next, 3);
    /* a trim of slots that are all free: new slots start beyond every count they had */
    rc_id_pool p2;
    memset(&p2, 0, sizeof p2);
    ck_assert(rc_id_pool_reserve(a, &p2, 4));
    for (int i = 0; i < 4; ++i) {
        ck_assert_int_eq(rc_id_pool_take(&p2), i);
    }
    p2.counts[3] = 1000u;
    uint32_t old_gen = rc_id_generation(1000u, 5u);
    rc_id_pool_give(&p2, 3);
    rc_id_pool_give(&p2, 2);
    rc_id_pool_trim(&p2, 2);
    ck_assert_int_eq(p2.next, 2);
    ck_assert_int_eq(p2.free_count, 0);
    ck_assert_int_eq(rc_id_pool_take(&p2), 2);
    ck_assert_uint_eq(rc_id_pool_count(&p2, 2), 1002u);
    ck_assert_uint_ne(rc_id_generation(rc_id_pool_count(&p2, 2), 5u), old_gen);
    rc_id_pool_free(a, &pool);
    rc_id_pool_free(a, &p2);
}
END_TEST

/* ---- refused queries on several threads -------------------------------------------------------- */

#define THREADS 4
#define ROUNDS 4000

typedef struct thread_job {
    const rc_world *world;
    rc_body_id stale, live;
    int index;
    int wrong_answers, wrong_messages;
    atomic_int *error_calls;
} thread_job;

static void counting_error_fn(const char *message, void *user) {
    (void)message;
    atomic_fetch_add((atomic_int *)user, 1);
}

static void *thread_main(void *arg) {
    thread_job *j = arg;
    char expected[64];
    snprintf(expected, sizeof expected, "radius -%d", j->index + 1);
    for (int r = 0; r < ROUNDS; ++r) {
        /* a valid query: the ground's top face at y = 1 */
        rc_ray_hit h;
        if (!rc_world_cast_ray(j->world, rc_v2((float)j->index, 10), rc_v2(0, -20), &h) || h.point.y != 1.0f ||
            h.normal.y != 1.0f) {
            j->wrong_answers++;
        }
        /* refused: a negative radius that names this thread, then a stale id */
        if (rc_world_cast_circle(j->world, rc_v2(0, 5), -(float)(j->index + 1), rc_v2(1, 0), &h) ||
            strstr(rc_world_last_error(j->world), expected) == NULL) {
            j->wrong_messages++;
        }
        rc_vec2 p = rc_body_position(j->world, j->stale);
        if (p.x != 0.0f || strstr(rc_world_last_error(j->world), "names no live body") == NULL) {
            j->wrong_messages++;
        }
        if (rc_body_position(j->world, j->live).y != 5.0f) {
            j->wrong_answers++;
        }
    }
    return NULL;
}

START_TEST(refused_queries_on_several_threads_keep_their_own_messages) {
    atomic_int error_calls;
    atomic_init(&error_calls, 0);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = counting_error_fn;
    wd.error_user = &error_calls;
    rc_world *w = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    rc_body_id ground = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_create_box(w, ground, &sd, 50.0f, 1.0f);
    rc_body_id stale = rc_body_create(w, &bd);
    rc_body_destroy(w, stale);
    bd.position = rc_v2(0, 5);
    rc_body_id live = rc_body_create(w, &bd);
    rc_world_clear_error(w);
    pthread_t threads[THREADS];
    thread_job jobs[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        jobs[i] = (thread_job){w, stale, live, i, 0, 0, &error_calls};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; ++i) {
        pthread_join(threads[i], NULL);
        ck_assert_int_eq(jobs[i].wrong_answers, 0);
        ck_assert_int_eq(jobs[i].wrong_messages, 0);
    }
    ck_assert_int_eq(atomic_load(&error_calls), THREADS * ROUNDS * 2);
    /* the refusals on other threads left no message for this one */
    ck_assert_str_eq(rc_world_last_error(w), "");
    rc_world_destroy(w);
}
END_TEST

/* A thread's messages are per world: a refusal in one world is not seen in another. */
START_TEST(messages_are_kept_per_world) {
    rc_world_def wd = rc_world_default_def();
    rc_world *a = rc_world_create(&wd), *b = rc_world_create(&wd);
    ck_assert(!rc_world_step(a, 0.0f));
    ck_assert_str_eq(rc_world_last_error(b), "");
    ck_assert(!rc_world_step(b, -2.0f));
    ck_assert_str_eq(rc_world_last_error(a), "rc_world_step: dt 0 must be finite and > 0");
    ck_assert_str_eq(rc_world_last_error(b), "rc_world_step: dt -2 must be finite and > 0");
    rc_world_clear_error(a);
    ck_assert_str_eq(rc_world_last_error(a), "");
    ck_assert_str_eq(rc_world_last_error(b), "rc_world_step: dt -2 must be finite and > 0");
    rc_world_destroy(a);
    rc_world *c = rc_world_create(&wd); /* a new world (maybe at a's address) starts clean */
    ck_assert_str_eq(rc_world_last_error(c), "");
    rc_world_destroy(b);
    rc_world_destroy(c);
}
END_TEST

int main(void) {
    Suite *suite = suite_create("world contracts");
    TCase *callbacks = tcase_create("callbacks");
    tcase_set_timeout(callbacks, 60);
    tcase_add_loop_test(callbacks, every_change_is_refused_inside_every_callback, 0, CB_COUNT);
    tcase_add_test(callbacks, every_change_is_refused_inside_the_allocator_hooks);
    tcase_add_test(callbacks, a_blast_destroys_what_it_found_after_the_query);
    tcase_add_test(callbacks, queries_answer_inside_callbacks);
    tcase_add_test(callbacks, the_error_callback_is_called_once_and_cannot_change_the_world);
    tcase_add_test(callbacks, grid_changes_are_refused_inside_its_callbacks);
    suite_add_tcase(suite, callbacks);
    TCase *ids = tcase_create("ids");
    tcase_add_test(ids, ids_of_another_world_are_refused);
    tcase_add_test(ids, one_salt_gives_the_same_ids);
    tcase_add_test(ids, ids_of_a_world_destroyed_are_refused_by_the_next_at_its_address);
    tcase_add_test(ids, stale_ids_stay_stale_through_many_reuses);
    tcase_add_test(ids, a_slot_is_retired_before_its_count_wraps);
    suite_add_tcase(suite, ids);
    TCase *threads = tcase_create("threads");
    tcase_set_timeout(threads, 120);
    tcase_add_test(threads, refused_queries_on_several_threads_keep_their_own_messages);
    tcase_add_test(threads, messages_are_kept_per_world);
    suite_add_tcase(suite, threads);
    return rc_test_run(suite);
}
