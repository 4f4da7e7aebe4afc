/* Every public entry point of world.h (with query.h and events.h) with bad input.
 *
 * For each refused call: the documented error value; a non-empty rc_world_last_error that
 * names the function; the error callback (rc_world_def.error_fn / error_user) called exactly
 * once with the same message; and the world exactly as it was, compared through a snapshot of
 * everything observable (every tracked body and shape, the counters, the current event
 * lists). A NULL world is refused without a crash. Calls that are allowed (FLT_MAX as dt, a ray
 * of zero length, a miss) record no error. */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float bad_floats[] = {NAN, INFINITY, -INFINITY};
#define NBAD ((int)(sizeof bad_floats / sizeof bad_floats[0]))
static const float negatives[] = {-1.0f, -1e-30f, -FLT_MAX};
#define NNEG ((int)(sizeof negatives / sizeof negatives[0]))

/* ---- the fixture: a small world with contacts, sensor overlaps and events ------------------ */

typedef struct fixture {
    rc_world *w;
    ws_errors errs;
    rc_body_id bodies[16];
    int nb;
    rc_shape_id shapes[32];
    int ns;
    rc_body_id stat, dyn, kin, sleeper, stale_body;
    rc_shape_id box, circle, sensor, kin_box, poly, sleeper_box, stale_shape;
} fixture;

static rc_body_id fx_body(fixture *fx, rc_body_type type, rc_vec2 p, rc_vec2 v) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.linear_velocity = v;
    rc_body_id b = rc_body_create(fx->w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    fx->bodies[fx->nb++] = b;
    return b;
}

static rc_shape_id fx_track(fixture *fx, rc_shape_id s) {
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(fx->w));
    fx->shapes[fx->ns++] = s;
    return s;
}

static void fx_init(fixture *fx) {
    memset(fx, 0, sizeof *fx);
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    wd.error_fn = ws_error_fn;
    wd.error_user = &fx->errs;
    fx->w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(fx->w);
    rc_shape_def sd = rc_shape_default_def();
    fx->stat = fx_body(fx, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    fx->box = fx_track(fx, rc_shape_create_box(fx->w, fx->stat, &sd, 1.0f, 1.0f));
    fx->dyn = fx_body(fx, RC_DYNAMIC, rc_v2(-2.0f, 0.25f), rc_v2(1.0f, 0.0f));
    fx->circle = fx_track(fx, rc_shape_create_circle(fx->w, fx->dyn, &sd, 0.5f));
    rc_vec2 pent[5];
    for (int i = 0; i < 5; ++i) {
        pent[i] = rc_v2(0.5f * cosf(1.2566371f * (float)i), 0.5f * sinf(1.2566371f * (float)i));
    }
    sd.offset = rc_v2(0.0f, 3.0f);
    fx->poly = fx_track(fx, rc_shape_create_polygon(fx->w, fx->dyn, &sd, pent, 5));
    sd = rc_shape_default_def();
    sd.is_sensor = true;
    rc_body_id sensor_body = fx_body(fx, RC_STATIC, rc_v2(10, 0), rc_v2(0, 0));
    fx->sensor = fx_track(fx, rc_shape_create_box(fx->w, sensor_body, &sd, 2.0f, 2.0f));
    sd = rc_shape_default_def();
    fx->kin = fx_body(fx, RC_KINEMATIC, rc_v2(6.5f, 0.0f), rc_v2(2.0f, 0.0f));
    fx->kin_box = fx_track(fx, rc_shape_create_box(fx->w, fx->kin, &sd, 0.5f, 0.5f));
    fx->sleeper = fx_body(fx, RC_DYNAMIC, rc_v2(-30, 0), rc_v2(0, 0));
    fx->sleeper_box = fx_track(fx, rc_shape_create_box(fx->w, fx->sleeper, &sd, 0.5f, 0.5f));
    /* stale ids */
    fx->stale_body = fx_body(fx, RC_DYNAMIC, rc_v2(50, 50), rc_v2(0, 0));
    fx->stale_shape = fx_track(fx, rc_shape_create_circle(fx->w, fx->stale_body, &sd, 1.0f));
    rc_body_destroy(fx->w, fx->stale_body);
    /* step until the circle touches the box: x = -2 + n / 8 reaches -1.5 at n = 4; the
       kinematic box enters the sensor box (x from 6.5 by 0.25 a step: its edge 7 + n/4 reaches 8
       at n = 4); the sleeper is asleep after 0.5 s */
    for (int n = 0; n < 4; ++n) {
        ck_assert(rc_world_step(fx->w, 0.125f));
    }
    /* so the current lists hold a contact begin and a sensor begin */
    ck_assert_int_eq(rc_shape_contacts(fx->w, fx->circle, NULL, 0), 1);
    ck_assert_int_eq(rc_world_contact_events(fx->w).begin_count, 1);
    ck_assert_int_eq(rc_world_sensor_events(fx->w).begin_count, 1);
    ck_assert_str_eq(rc_world_last_error(fx->w), "");
    ck_assert_int_eq(fx->errs.calls, 0);
}

static void fx_free(fixture *fx) { rc_world_destroy(fx->w); }

static void fx_snapshot(fixture *fx, ws_snapshot *s) {
    ws_snapshot_take(s, fx->w, fx->bodies, fx->nb, fx->shapes, fx->ns);
}

static void check_refused(fixture *fx, ws_snapshot *before, int calls_before, bool error_value, const char *fname,
                          const char *expr, int line) {
    EXPECT(error_value, "line %d: %s did not return its error value", line, expr);
    const char *msg = rc_world_last_error(fx->w);
    EXPECT(msg != NULL && msg[0] != '\0', "line %d: %s left no message", line, expr);
    EXPECT(strstr(msg, fname) != NULL, "line %d: %s: message \"%s\" does not name %s", line, expr, msg, fname);
    EXPECT(fx->errs.calls == calls_before + 1, "line %d: %s: the error callback was called %d times", line, expr,
           fx->errs.calls - calls_before);
    EXPECT(strcmp(fx->errs.last, msg) == 0, "line %d: %s: the callback got \"%s\", last_error is \"%s\"", line, expr,
           fx->errs.last, msg);
    ws_snapshot after;
    fx_snapshot(fx, &after);
    char why[600];
    bool same = ws_snapshot_equal(before, &after, why, sizeof why);
    ws_snapshot_free(&after);
    EXPECT(same, "line %d: %s changed the world: %s", line, expr, why);
}

/* expr must evaluate to true when the call returned its error value */
#define REFUSE(fx, fname, expr)                                                                                        \
    do {                                                                                                               \
        rc_world_clear_error((fx)->w);                                                                                 \
        ws_snapshot before_;                                                                                           \
        fx_snapshot((fx), &before_);                                                                                   \
        int calls_ = (fx)->errs.calls;                                                                                 \
        bool value_ = (expr);                                                                                          \
        check_refused((fx), &before_, calls_, value_, (fname), #expr, __LINE__);                                       \
        ws_snapshot_free(&before_);                                                                                    \
    } while (0)

/* A call that is not an error: no message, no callback. */
#define NO_ERROR(fx, expr)                                                                                             \
    do {                                                                                                               \
        rc_world_clear_error((fx)->w);                                                                                 \
        int calls_ = (fx)->errs.calls;                                                                                 \
        bool value_ = (expr);                                                                                          \
        EXPECT(value_, "line %d: %s: unexpected result", __LINE__, #expr);                                             \
        EXPECT((fx)->errs.calls == calls_ && rc_world_last_error((fx)->w)[0] == '\0',                                  \
               "line %d: %s recorded an error: %s", __LINE__, #expr, rc_world_last_error((fx)->w));                    \
    } while (0)

static bool aabb_is_zero(rc_aabb b) { return b.lower.x == 0 && b.lower.y == 0 && b.upper.x == 0 && b.upper.y == 0; }

/* ---- rc_world_create / step / gravity ---------------------------------------------------- */

typedef struct field {
    const char *name;
    size_t offset;
    bool non_negative;
} field;

START_TEST(world_create_refuses_bad_defs) {
    ck_assert_ptr_null(rc_world_create(NULL));
    static const field fields[] = {
        {"gravity.x", offsetof(rc_world_def, gravity.x), false},
        {"gravity.y", offsetof(rc_world_def, gravity.y), false},
        {"cell_size", offsetof(rc_world_def, cell_size), true},
        {"sleep_time", offsetof(rc_world_def, sleep_time), true},
        {"sleep_linear_speed", offsetof(rc_world_def, sleep_linear_speed), true},
        {"sleep_angular_speed", offsetof(rc_world_def, sleep_angular_speed), true},
        {"restitution_threshold", offsetof(rc_world_def, restitution_threshold), true},
        {"contact_skin", offsetof(rc_world_def, contact_skin), true},
        {"max_linear_speed", offsetof(rc_world_def, max_linear_speed), true},
        {"max_angular_speed", offsetof(rc_world_def, max_angular_speed), true},
    };
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f) {
        for (int k = 0; k < NBAD + NNEG; ++k) {
            if (k >= NBAD && !fields[f].non_negative) {
                continue;
            }
            rc_world_def wd = rc_world_default_def();
            wd.allocator = ws_allocator(&ca);
            float v = k < NBAD ? bad_floats[k] : negatives[k - NBAD];
            memcpy((char *)&wd + fields[f].offset, &v, sizeof v);
            rc_world *w = rc_world_create(&wd);
            EXPECT(w == NULL, "rc_world_create accepted %s = %g", fields[f].name, (double)v);
        }
    }
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    wd.body_capacity = -1;
    ck_assert_ptr_null(rc_world_create(&wd));
    wd.body_capacity = 0;
    wd.shape_capacity = INT32_MIN;
    ck_assert_ptr_null(rc_world_create(&wd));
    /* beyond the bounds that keep the world's numbers in float range (fuzz_world found each) */
    const struct {
        size_t offset;
        float value;
    } beyond[] = {
        {offsetof(rc_world_def, contact_skin), 2.0e9f},
        {offsetof(rc_world_def, max_linear_speed), 2.0f * RC_MAX_LINEAR_SPEED},
        {offsetof(rc_world_def, max_angular_speed), 2.0f * RC_MAX_ANGULAR_SPEED},
        {offsetof(rc_world_def, max_linear_speed), 0.0f},
        {offsetof(rc_world_def, max_angular_speed), 0.0f},
    };
    for (size_t k = 0; k < sizeof beyond / sizeof beyond[0]; ++k) {
        wd = rc_world_default_def();
        wd.allocator = ws_allocator(&ca);
        memcpy((char *)&wd + beyond[k].offset, &beyond[k].value, sizeof(float));
        EXPECT(rc_world_create(&wd) == NULL, "rc_world_create accepted bound %d = %g", (int)k, (double)beyond[k].value);
    }
    ck_assert_int_eq((int)ca.live_bytes, 0);
    ck_assert_int_eq((int)ca.bad_frees, 0);
    /* allowed extremes */
    wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    wd.cell_size = FLT_MAX;
    wd.gravity = rc_v2(-FLT_MAX, FLT_MAX);
    wd.sleep_time = 0.0f;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_world_destroy(w);
    ck_assert_int_eq((int)ca.live_bytes, 0);
    ws_alloc_release(&ca);
    /* NULL world everywhere in the world section */
    rc_world_destroy(NULL);
    ck_assert_str_eq(rc_world_last_error(NULL), "");
    rc_world_clear_error(NULL);
    ck_assert(!rc_world_step(NULL, 0.1f));
    ck_assert(!rc_world_set_gravity(NULL, rc_v2(0, 0)));
    rc_vec2 g = rc_world_gravity(NULL);
    ck_assert(g.x == 0.0f && g.y == 0.0f);
    rc_world_counters c = rc_world_get_counters(NULL);
    ck_assert(c.bodies == 0 && c.shapes == 0 && c.steps == 0);
    rc_contact_events ce = rc_world_contact_events(NULL);
    ck_assert(ce.begin_count == 0 && ce.end_count == 0);
    rc_sensor_events se = rc_world_sensor_events(NULL);
    ck_assert(se.begin_count == 0 && se.end_count == 0);
}
END_TEST

START_TEST(step_refuses_bad_dt) {
    fixture fx;
    fx_init(&fx);
    /* the fixture's last step had events: they must survive a refused step */
    const float bad_dt[] = {0.0f, -0.0f, -1.0f, -FLT_MIN, NAN, -NAN, INFINITY, -INFINITY, -FLT_MAX};
    for (size_t i = 0; i < sizeof bad_dt / sizeof bad_dt[0]; ++i) {
        REFUSE(&fx, "rc_world_step", !rc_world_step(fx.w, bad_dt[i]));
    }
    REFUSE(&fx, "rc_world_set_gravity", !rc_world_set_gravity(fx.w, rc_v2(NAN, 0)));
    REFUSE(&fx, "rc_world_set_gravity", !rc_world_set_gravity(fx.w, rc_v2(0, INFINITY)));
    REFUSE(&fx, "rc_world_set_gravity", !rc_world_set_gravity(fx.w, rc_v2(-INFINITY, NAN)));
    /* tiny positive steps are steps */
    NO_ERROR(&fx, rc_world_step(fx.w, FLT_TRUE_MIN));
    NO_ERROR(&fx, rc_world_step(fx.w, 1e-30f));
    /* clear_error */
    REFUSE(&fx, "rc_world_step", !rc_world_step(fx.w, -1.0f));
    ck_assert(rc_world_last_error(fx.w)[0] != '\0');
    rc_world_clear_error(fx.w);
    ck_assert_str_eq(rc_world_last_error(fx.w), "");
    fx_free(&fx);
}
END_TEST

static bool world_is_finite(const fixture *fx) {
    const rc_body_id bodies[] = {fx->stat, fx->dyn, fx->kin, fx->sleeper};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; ++i) {
        if (!rc_body_is_valid(fx->w, bodies[i])) {
            continue;
        }
        rc_vec2 p = rc_body_position(fx->w, bodies[i]), v = rc_body_linear_velocity(fx->w, bodies[i]);
        float a = rc_body_angle(fx->w, bodies[i]), w = rc_body_angular_velocity(fx->w, bodies[i]);
        if (!rc_vec2_is_finite(p) || !rc_vec2_is_finite(v) || !rc_is_finite(a) || !rc_is_finite(w)) {
            return false;
        }
    }
    return true;
}

START_TEST(step_refuses_steps_beyond_the_limit) {
    /* Regression: dt >= 1e20 gave -inf positions. Steps longer than RC_MAX_TIME_STEP are
       refused with the world unchanged; a step of exactly the limit is taken, and every number
       stays finite (speeds are held to the world's limits), so the world can still be queried,
       stepped and destroyed. */
    fixture fx;
    fx_init(&fx);
    rc_world_set_gravity(fx.w, rc_v2(0, -10));
    REFUSE(&fx, "rc_world_step", !rc_world_step(fx.w, FLT_MAX));
    REFUSE(&fx, "rc_world_step", !rc_world_step(fx.w, 1e20f));
    REFUSE(&fx, "rc_world_step", !rc_world_step(fx.w, nextafterf(RC_MAX_TIME_STEP, INFINITY)));
    ck_assert(strstr(rc_world_last_error(fx.w), "RC_MAX_TIME_STEP") != NULL);
    for (int k = 0; k < 20; ++k) {
        NO_ERROR(&fx, rc_world_step(fx.w, RC_MAX_TIME_STEP));
        ck_assert_msg(world_is_finite(&fx), "step %d of the longest dt left a body not finite", k);
        ck_assert(rc_length(rc_body_linear_velocity(fx.w, fx.dyn)) <= 1.0e6f);
    }
    rc_world_cast_ray(fx.w, rc_v2(-100, 0), rc_v2(200, 0), NULL);
    rc_world_cast_circle(fx.w, rc_v2(-100, 0), 1.0f, rc_v2(200, 0), NULL);
    rc_query_filter all = rc_default_query_filter();
    rc_world_overlap_aabb(fx.w, (rc_aabb){{-100, -100}, {100, 100}}, all, NULL, NULL);
    rc_world_overlap_point(fx.w, rc_v2(0, 0), all, NULL, NULL);
    rc_world_overlap_circle(fx.w, rc_v2(0, 0), 50.0f, all, NULL, NULL);
    NO_ERROR(&fx, rc_world_step(fx.w, 1.0f / 60.0f));
    rc_body_destroy(fx.w, fx.dyn);
    NO_ERROR(&fx, rc_world_step(fx.w, 1.0f / 60.0f));
    fx_free(&fx);
    /* a world with only static bodies: nothing moves at all */
    fx_init(&fx);
    rc_body_destroy(fx.w, fx.dyn);
    rc_body_destroy(fx.w, fx.kin);
    rc_body_destroy(fx.w, fx.sleeper);
    rc_vec2 p = rc_body_position(fx.w, fx.stat);
    NO_ERROR(&fx, rc_world_step(fx.w, RC_MAX_TIME_STEP));
    ck_assert(rc_vec2_equal(rc_body_position(fx.w, fx.stat), p));
    fx_free(&fx);
}
END_TEST

/* ---- bodies ------------------------------------------------------------------------------- */

static const field body_fields[] = {
    {"position.x", offsetof(rc_body_def, position.x), false},
    {"position.y", offsetof(rc_body_def, position.y), false},
    {"angle", offsetof(rc_body_def, angle), false},
    {"linear_velocity.x", offsetof(rc_body_def, linear_velocity.x), false},
    {"linear_velocity.y", offsetof(rc_body_def, linear_velocity.y), false},
    {"angular_velocity", offsetof(rc_body_def, angular_velocity), false},
    {"linear_damping", offsetof(rc_body_def, linear_damping), true},
    {"angular_damping", offsetof(rc_body_def, angular_damping), true},
    {"gravity_scale", offsetof(rc_body_def, gravity_scale), false},
};

START_TEST(body_create_refuses_bad_defs) {
    fixture fx;
    fx_init(&fx);
    REFUSE(&fx, "rc_body_create", rc_body_id_is_null(rc_body_create(fx.w, NULL)));
    for (size_t f = 0; f < sizeof body_fields / sizeof body_fields[0]; ++f) {
        for (int k = 0; k < NBAD + NNEG; ++k) {
            if (k >= NBAD && !body_fields[f].non_negative) {
                continue;
            }
            for (int type = 0; type < 3; ++type) {
                rc_body_def bd = rc_body_default_def();
                bd.type = (rc_body_type)type;
                float v = k < NBAD ? bad_floats[k] : negatives[k - NBAD];
                memcpy((char *)&bd + body_fields[f].offset, &v, sizeof v);
                REFUSE(&fx, "rc_body_create", rc_body_id_is_null(rc_body_create(fx.w, &bd)));
            }
        }
    }
    const int bad_types[] = {3, -1, 1000, INT_MIN};
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = (rc_body_type)bad_types[i];
        REFUSE(&fx, "rc_body_create", rc_body_id_is_null(rc_body_create(fx.w, &bd)));
    }
    rc_body_def bd = rc_body_default_def();
    bd.max_bounces = -1;
    REFUSE(&fx, "rc_body_create", rc_body_id_is_null(rc_body_create(fx.w, &bd)));
    bd.max_bounces = INT32_MIN;
    REFUSE(&fx, "rc_body_create", rc_body_id_is_null(rc_body_create(fx.w, &bd)));
    /* the NULL world */
    ck_assert(rc_body_id_is_null(rc_body_create(NULL, &bd)));
    fx_free(&fx);
}
END_TEST

typedef struct bad_body_id {
    rc_body_id id;
    const char *what;
} bad_body_id;

static void body_functions_refuse(fixture *fx, rc_body_id id) {
    rc_shape_id ids[4];
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    rc_world *w = fx->w;
    REFUSE(fx, "rc_body_destroy", (rc_body_destroy(w, id), true));
    REFUSE(fx, "rc_body_get_type", rc_body_get_type(w, id) == RC_STATIC);
    REFUSE(fx, "rc_body_position", rc_vec2_equal(rc_body_position(w, id), rc_v2(0, 0)));
    REFUSE(fx, "rc_body_angle", rc_body_angle(w, id) == 0.0f);
    REFUSE(fx, "rc_body_transform", rc_vec2_equal(rc_body_transform(w, id).p, rc_v2(0, 0)));
    REFUSE(fx, "rc_body_linear_velocity", rc_vec2_equal(rc_body_linear_velocity(w, id), rc_v2(0, 0)));
    REFUSE(fx, "rc_body_angular_velocity", rc_body_angular_velocity(w, id) == 0.0f);
    REFUSE(fx, "rc_body_mass", rc_body_mass(w, id) == 0.0f);
    REFUSE(fx, "rc_body_rotational_inertia", rc_body_rotational_inertia(w, id) == 0.0f);
    REFUSE(fx, "rc_body_world_center", rc_vec2_equal(rc_body_world_center(w, id), rc_v2(0, 0)));
    REFUSE(fx, "rc_body_gravity_scale", rc_body_gravity_scale(w, id) == 0.0f);
    REFUSE(fx, "rc_body_linear_damping", rc_body_linear_damping(w, id) == 0.0f);
    REFUSE(fx, "rc_body_angular_damping", rc_body_angular_damping(w, id) == 0.0f);
    REFUSE(fx, "rc_body_is_bullet", !rc_body_is_bullet(w, id));
    REFUSE(fx, "rc_body_max_bounces", rc_body_max_bounces(w, id) == 0);
    REFUSE(fx, "rc_body_is_awake", !rc_body_is_awake(w, id));
    REFUSE(fx, "rc_body_user_data", rc_body_user_data(w, id) == NULL);
    REFUSE(fx, "rc_body_shapes", rc_body_shapes(w, id, ids, 4) == -1);
    REFUSE(fx, "rc_body_set_transform", !rc_body_set_transform(w, id, rc_v2(1, 1), 1.0f));
    REFUSE(fx, "rc_body_set_linear_velocity", !rc_body_set_linear_velocity(w, id, rc_v2(1, 1)));
    REFUSE(fx, "rc_body_set_angular_velocity", !rc_body_set_angular_velocity(w, id, 1.0f));
    REFUSE(fx, "rc_body_set_type", !rc_body_set_type(w, id, RC_DYNAMIC));
    REFUSE(fx, "rc_body_set_gravity_scale", !rc_body_set_gravity_scale(w, id, 2.0f));
    REFUSE(fx, "rc_body_set_linear_damping", !rc_body_set_linear_damping(w, id, 1.0f));
    REFUSE(fx, "rc_body_set_angular_damping", !rc_body_set_angular_damping(w, id, 1.0f));
    REFUSE(fx, "rc_body_set_bullet", !rc_body_set_bullet(w, id, false));
    REFUSE(fx, "rc_body_set_max_bounces", !rc_body_set_max_bounces(w, id, 2));
    REFUSE(fx, "rc_body_set_awake", !rc_body_set_awake(w, id, true));
    REFUSE(fx, "rc_body_set_awake", !rc_body_set_awake(w, id, false));
    REFUSE(fx, "rc_body_set_user_data", !rc_body_set_user_data(w, id, fx));
    REFUSE(fx, "rc_body_apply_linear_impulse", !rc_body_apply_linear_impulse(w, id, rc_v2(1, 0), rc_v2(0, 0)));
    REFUSE(fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, id, &sd, 1.0f)));
    REFUSE(fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, id, &sd, tri, 3)));
    REFUSE(fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(w, id, &sd, 1.0f, 1.0f)));
    ck_assert(!rc_body_is_valid(w, id));
}

static void body_functions_null_world(rc_body_id id) {
    rc_shape_id ids[4];
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    rc_body_destroy(NULL, id);
    ck_assert(!rc_body_is_valid(NULL, id));
    ck_assert(rc_body_get_type(NULL, id) == RC_STATIC);
    ck_assert(rc_vec2_equal(rc_body_position(NULL, id), rc_v2(0, 0)));
    ck_assert(rc_body_angle(NULL, id) == 0.0f);
    ck_assert(rc_vec2_equal(rc_body_transform(NULL, id).p, rc_v2(0, 0)));
    ck_assert(rc_vec2_equal(rc_body_linear_velocity(NULL, id), rc_v2(0, 0)));
    ck_assert(rc_body_angular_velocity(NULL, id) == 0.0f);
    ck_assert(rc_body_mass(NULL, id) == 0.0f);
    ck_assert(rc_body_rotational_inertia(NULL, id) == 0.0f);
    ck_assert(rc_vec2_equal(rc_body_world_center(NULL, id), rc_v2(0, 0)));
    ck_assert(rc_body_gravity_scale(NULL, id) == 0.0f);
    ck_assert(rc_body_linear_damping(NULL, id) == 0.0f);
    ck_assert(rc_body_angular_damping(NULL, id) == 0.0f);
    ck_assert(!rc_body_is_bullet(NULL, id));
    ck_assert(rc_body_max_bounces(NULL, id) == 0);
    ck_assert(!rc_body_is_awake(NULL, id));
    ck_assert(rc_body_user_data(NULL, id) == NULL);
    ck_assert(rc_body_shapes(NULL, id, ids, 4) == -1);
    ck_assert(!rc_body_set_transform(NULL, id, rc_v2(1, 1), 1.0f));
    ck_assert(!rc_body_set_linear_velocity(NULL, id, rc_v2(1, 1)));
    ck_assert(!rc_body_set_angular_velocity(NULL, id, 1.0f));
    ck_assert(!rc_body_set_type(NULL, id, RC_DYNAMIC));
    ck_assert(!rc_body_set_gravity_scale(NULL, id, 2.0f));
    ck_assert(!rc_body_set_linear_damping(NULL, id, 1.0f));
    ck_assert(!rc_body_set_angular_damping(NULL, id, 1.0f));
    ck_assert(!rc_body_set_bullet(NULL, id, false));
    ck_assert(!rc_body_set_max_bounces(NULL, id, 2));
    ck_assert(!rc_body_set_awake(NULL, id, true));
    ck_assert(!rc_body_set_user_data(NULL, id, NULL));
    ck_assert(!rc_body_apply_linear_impulse(NULL, id, rc_v2(1, 0), rc_v2(0, 0)));
    ck_assert(rc_shape_id_is_null(rc_shape_create_circle(NULL, id, &sd, 1.0f)));
    ck_assert(rc_shape_id_is_null(rc_shape_create_polygon(NULL, id, &sd, tri, 3)));
    ck_assert(rc_shape_id_is_null(rc_shape_create_box(NULL, id, &sd, 1.0f, 1.0f)));
}

START_TEST(body_functions_refuse_bad_ids) {
    fixture fx;
    fx_init(&fx);
    rc_body_id live = fx.dyn;
    bad_body_id bad[] = {
        {RC_NULL_BODY_ID, "null"},
        {fx.stale_body, "stale"},
        {{0u, 5u}, "index 0 generation 5"},
        {{999999u, 1u}, "index 999999"},
        {{live.index, live.generation + 1u}, "generation + 1"},
        {{live.index, 0u}, "generation 0"},
        {{UINT32_MAX, UINT32_MAX}, "all ones"},
        {{(uint32_t)INT32_MAX, 1u}, "index 2^31 - 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        body_functions_refuse(&fx, bad[i].id);
        body_functions_null_world(bad[i].id);
    }
    body_functions_null_world(live);
    ck_assert(rc_body_is_valid(fx.w, live));
    /* ids of another world made by the same calls: the same slots, refused all the same */
    fixture other;
    fx_init(&other);
    const rc_body_id foreign[] = {other.stat, other.dyn, other.kin, other.sleeper};
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; ++i) {
        body_functions_refuse(&fx, foreign[i]);
        ck_assert(rc_body_is_valid(other.w, foreign[i]));
    }
    ck_assert_int_eq(other.errs.calls, 0);
    fx_free(&other);
    fx_free(&fx);
}
END_TEST

START_TEST(body_setters_refuse_bad_values) {
    fixture fx;
    fx_init(&fx);
    rc_world *w = fx.w;
    rc_body_id ids[] = {fx.stat, fx.dyn, fx.kin, fx.sleeper};
    for (size_t b = 0; b < sizeof ids / sizeof ids[0]; ++b) {
        rc_body_id id = ids[b];
        for (int k = 0; k < NBAD; ++k) {
            float v = bad_floats[k];
            REFUSE(&fx, "rc_body_set_transform", !rc_body_set_transform(w, id, rc_v2(v, 0), 0.0f));
            REFUSE(&fx, "rc_body_set_transform", !rc_body_set_transform(w, id, rc_v2(0, v), 0.0f));
            REFUSE(&fx, "rc_body_set_transform", !rc_body_set_transform(w, id, rc_v2(0, 0), v));
            REFUSE(&fx, "rc_body_set_linear_velocity", !rc_body_set_linear_velocity(w, id, rc_v2(v, 0)));
            REFUSE(&fx, "rc_body_set_linear_velocity", !rc_body_set_linear_velocity(w, id, rc_v2(0, v)));
            REFUSE(&fx, "rc_body_set_angular_velocity", !rc_body_set_angular_velocity(w, id, v));
            REFUSE(&fx, "rc_body_set_gravity_scale", !rc_body_set_gravity_scale(w, id, v));
            REFUSE(&fx, "rc_body_set_linear_damping", !rc_body_set_linear_damping(w, id, v));
            REFUSE(&fx, "rc_body_set_angular_damping", !rc_body_set_angular_damping(w, id, v));
            REFUSE(&fx, "rc_body_apply_linear_impulse", !rc_body_apply_linear_impulse(w, id, rc_v2(v, 0), rc_v2(0, 0)));
            REFUSE(&fx, "rc_body_apply_linear_impulse", !rc_body_apply_linear_impulse(w, id, rc_v2(0, 1), rc_v2(0, v)));
        }
        for (int k = 0; k < NNEG; ++k) {
            REFUSE(&fx, "rc_body_set_linear_damping", !rc_body_set_linear_damping(w, id, negatives[k]));
            REFUSE(&fx, "rc_body_set_angular_damping", !rc_body_set_angular_damping(w, id, negatives[k]));
        }
        REFUSE(&fx, "rc_body_set_max_bounces", !rc_body_set_max_bounces(w, id, -1));
        REFUSE(&fx, "rc_body_set_max_bounces", !rc_body_set_max_bounces(w, id, INT32_MIN));
        REFUSE(&fx, "rc_body_set_type", !rc_body_set_type(w, id, (rc_body_type)3));
        REFUSE(&fx, "rc_body_set_type", !rc_body_set_type(w, id, (rc_body_type)-1));
        REFUSE(&fx, "rc_body_shapes", rc_body_shapes(w, id, NULL, 2) == -1);
        REFUSE(&fx, "rc_body_shapes", rc_body_shapes(w, id, NULL, -1) == -1);
        rc_shape_id out[2];
        REFUSE(&fx, "rc_body_shapes", rc_body_shapes(w, id, out, -5) == -1);
    }
    /* what a static body cannot do */
    REFUSE(&fx, "rc_body_set_linear_velocity", !rc_body_set_linear_velocity(w, fx.stat, rc_v2(1, 0)));
    REFUSE(&fx, "rc_body_set_angular_velocity", !rc_body_set_angular_velocity(w, fx.stat, 1.0f));
    REFUSE(&fx, "rc_body_set_bullet", !rc_body_set_bullet(w, fx.stat, true));
    REFUSE(&fx, "rc_body_set_bullet", !rc_body_set_bullet(w, fx.kin, true));
    REFUSE(&fx, "rc_body_set_awake", !rc_body_set_awake(w, fx.stat, true));
    REFUSE(&fx, "rc_body_apply_linear_impulse", !rc_body_apply_linear_impulse(w, fx.stat, rc_v2(1, 0), rc_v2(0, 0)));
    REFUSE(&fx, "rc_body_apply_linear_impulse", !rc_body_apply_linear_impulse(w, fx.kin, rc_v2(1, 0), rc_v2(0, 0)));
    fx_free(&fx);
}
END_TEST

/* ---- shapes ---------------------------------------------------------------------------------- */

static const field shape_fields[] = {
    {"offset.x", offsetof(rc_shape_def, offset.x), false},
    {"offset.y", offsetof(rc_shape_def, offset.y), false},
    {"angle", offsetof(rc_shape_def, angle), false},
    {"scale.x", offsetof(rc_shape_def, scale.x), false},
    {"scale.y", offsetof(rc_shape_def, scale.y), false},
    {"restitution", offsetof(rc_shape_def, restitution), true},
    {"friction", offsetof(rc_shape_def, friction), true},
    {"rolling_resistance", offsetof(rc_shape_def, rolling_resistance), true},
    {"density", offsetof(rc_shape_def, density), true},
};

static void create_all_refuse(fixture *fx, rc_body_id body, const rc_shape_def *sd, const char *what) {
    rc_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    (void)what;
    REFUSE(fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(fx->w, body, sd, 1.0f)));
    REFUSE(fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(fx->w, body, sd, tri, 3)));
    REFUSE(fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(fx->w, body, sd, 1.0f, 2.0f)));
}

START_TEST(shape_create_refuses_bad_defs) {
    fixture fx;
    fx_init(&fx);
    rc_body_id bodies[] = {fx.stat, fx.dyn, fx.kin, fx.sleeper};
    for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; ++b) {
        create_all_refuse(&fx, bodies[b], NULL, "NULL def");
        for (size_t f = 0; f < sizeof shape_fields / sizeof shape_fields[0]; ++f) {
            for (int k = 0; k < NBAD + NNEG; ++k) {
                if (k >= NBAD && !shape_fields[f].non_negative) {
                    continue;
                }
                rc_shape_def sd = rc_shape_default_def();
                float v = k < NBAD ? bad_floats[k] : negatives[k - NBAD];
                memcpy((char *)&sd + shape_fields[f].offset, &v, sizeof v);
                create_all_refuse(&fx, bodies[b], &sd, shape_fields[f].name);
            }
        }
        /* zero scale */
        const rc_vec2 zero_scales[] = {{0, 1}, {1, 0}, {0, 0}, {-0.0f, 1}, {1, -0.0f}};
        for (size_t i = 0; i < sizeof zero_scales / sizeof zero_scales[0]; ++i) {
            rc_shape_def sd = rc_shape_default_def();
            sd.scale = zero_scales[i];
            create_all_refuse(&fx, bodies[b], &sd, "zero scale");
        }
    }
    rc_world *w = fx.w;
    rc_body_id body = fx.dyn;
    rc_shape_def sd = rc_shape_default_def();
    /* circles: radius, non-uniform scale */
    const float bad_radii[] = {0.0f, -0.0f, -1.0f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_radii / sizeof bad_radii[0]; ++i) {
        REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, body, &sd, bad_radii[i])));
        REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(w, body, &sd, bad_radii[i], 1.0f)));
        REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(w, body, &sd, 1.0f, bad_radii[i])));
    }
    const rc_vec2 non_uniform[] = {{1, 2}, {2, 1}, {-1, 2}, {1.0f, 1.0000001f}, {3, -2}};
    for (size_t i = 0; i < sizeof non_uniform / sizeof non_uniform[0]; ++i) {
        rc_shape_def cd = rc_shape_default_def();
        cd.scale = non_uniform[i];
        REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, body, &cd, 1.0f)));
    }
    /* scale that makes the radius zero or infinite */
    rc_shape_def tiny = rc_shape_default_def();
    tiny.scale = rc_v2(1e-30f, 1e-30f);
    REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, body, &tiny, 1e-30f)));
    rc_shape_def huge = rc_shape_default_def();
    huge.scale = rc_v2(1e30f, -1e30f);
    REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, body, &huge, 1e30f)));
    /* a shape placed beyond float range, or beyond the world's reach: a body at the edge of the
       world takes no shape that would reach past it */
    rc_shape_def far = rc_shape_default_def();
    far.offset = rc_v2(FLT_MAX, 0.0f);
    ck_assert(rc_body_set_transform(w, fx.sleeper, rc_v2(RC_WORLD_LIMIT, 0.0f), 0.0f));
    ck_assert(rc_body_set_awake(w, fx.sleeper, false));
    REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, fx.sleeper, &far, 1.0f)));
    REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(w, fx.sleeper, &far, 1.0f, 1.0f)));
    rc_shape_def edge = rc_shape_default_def();
    edge.offset = rc_v2(RC_WORLD_LIMIT / 1024.0f, 0.0f); /* the body at the limit: past it */
    REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, fx.sleeper, &edge, 1.0f)));
    /* a radius that reaches past the limit from the origin */
    rc_shape_def plain = rc_shape_default_def();
    REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, body, &plain, FLT_MAX)));
    /* polygons */
    rc_vec2 square[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    rc_vec2 concave[5] = {{0, 0}, {2, 0}, {1, 0.5f}, {2, 2}, {0, 2}};
    rc_vec2 collinear[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    rc_vec2 same[4] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    rc_vec2 bowtie[4] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}};
    rc_vec2 many[9];
    for (int i = 0; i < 9; ++i) {
        many[i] = rc_v2(cosf(0.6981317f * (float)i), sinf(0.6981317f * (float)i));
    }
    rc_vec2 twice[8]; /* winds round twice */
    for (int i = 0; i < 8; ++i) {
        twice[i] = rc_v2(cosf(1.5707964f * (float)i * 1.0f + 0.1f * (float)(i / 4)),
                         sinf(1.5707964f * (float)i + 0.1f * (float)(i / 4)));
    }
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, NULL, 4)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, square, 0)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, square, 2)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, square, -1)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, square, INT_MIN)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, many, 9)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, concave, 5)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, collinear, 4)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, same, 4)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, bowtie, 4)));
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, twice, 8)));
    for (int k = 0; k < NBAD; ++k) {
        for (int i = 0; i < 4; ++i) {
            for (int c = 0; c < 2; ++c) {
                rc_vec2 p[4];
                memcpy(p, square, sizeof p);
                if (c == 0) {
                    p[i].x = bad_floats[k];
                } else {
                    p[i].y = bad_floats[k];
                }
                REFUSE(&fx, "rc_shape_create_polygon",
                       rc_shape_id_is_null(rc_shape_create_polygon(w, body, &sd, p, 4)));
            }
        }
    }
    /* a scale that flattens the polygon to no area */
    rc_shape_def flat = rc_shape_default_def();
    flat.scale = rc_v2(1.0f, 1e-38f);
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(w, body, &flat, square, 4)));
    /* the NULL world */
    ck_assert(rc_shape_id_is_null(rc_shape_create_circle(NULL, body, &sd, 1.0f)));
    ck_assert(rc_shape_id_is_null(rc_shape_create_polygon(NULL, body, &sd, square, 4)));
    ck_assert(rc_shape_id_is_null(rc_shape_create_box(NULL, body, &sd, 1.0f, 1.0f)));
    /* the messages say why: the polygon's refusal mentions what is wrong */
    rc_world_clear_error(w);
    rc_shape_create_polygon(w, body, &sd, concave, 5);
    ck_assert_msg(strlen(rc_world_last_error(w)) > strlen("rc_shape_create_polygon: "), "message \"%s\"",
                  rc_world_last_error(w));
    fx_free(&fx);
}
END_TEST

static void shape_functions_refuse(fixture *fx, rc_shape_id id) {
    rc_world *w = fx->w;
    rc_circle c;
    rc_polygon p;
    rc_shape_id ids[4];
    rc_ray_hit h;
    REFUSE(fx, "rc_shape_destroy", (rc_shape_destroy(w, id), true));
    REFUSE(fx, "rc_shape_body", rc_body_id_is_null(rc_shape_body(w, id)));
    REFUSE(fx, "rc_shape_get_type", rc_shape_get_type(w, id) == RC_SHAPE_TYPE_CIRCLE);
    REFUSE(fx, "rc_shape_aabb", aabb_is_zero(rc_shape_aabb(w, id)));
    REFUSE(fx, "rc_shape_world_circle", !rc_shape_world_circle(w, id, &c));
    REFUSE(fx, "rc_shape_world_polygon", !rc_shape_world_polygon(w, id, &p));
    REFUSE(fx, "rc_shape_restitution", rc_shape_restitution(w, id) == 0.0f);
    REFUSE(fx, "rc_shape_friction", rc_shape_friction(w, id) == 0.0f);
    REFUSE(fx, "rc_shape_density", rc_shape_density(w, id) == 0.0f);
    REFUSE(fx, "rc_shape_filter", rc_shape_filter(w, id).category_bits == 0u);
    REFUSE(fx, "rc_shape_is_sensor", !rc_shape_is_sensor(w, id));
    REFUSE(fx, "rc_shape_user_data", rc_shape_user_data(w, id) == NULL);
    REFUSE(fx, "rc_shape_set_base_transform", !rc_shape_set_base_transform(w, id, rc_v2(0, 0), 0.0f, rc_v2(1, 1)));
    REFUSE(fx, "rc_shape_set_restitution", !rc_shape_set_restitution(w, id, 0.5f));
    REFUSE(fx, "rc_shape_set_friction", !rc_shape_set_friction(w, id, 0.5f));
    REFUSE(fx, "rc_shape_set_density", !rc_shape_set_density(w, id, 0.5f));
    REFUSE(fx, "rc_shape_set_filter", !rc_shape_set_filter(w, id, rc_default_filter()));
    REFUSE(fx, "rc_shape_set_user_data", !rc_shape_set_user_data(w, id, fx));
    REFUSE(fx, "rc_shape_cast_ray", !rc_shape_cast_ray(w, id, rc_v2(-10, 0), rc_v2(20, 0), &h));
    REFUSE(fx, "rc_shape_contacts", rc_shape_contacts(w, id, ids, 4) == -1);
    /* the NULL world */
    rc_shape_destroy(NULL, id);
    ck_assert(!rc_shape_is_valid(NULL, id));
    ck_assert(rc_body_id_is_null(rc_shape_body(NULL, id)));
    ck_assert(rc_shape_get_type(NULL, id) == RC_SHAPE_TYPE_CIRCLE);
    ck_assert(aabb_is_zero(rc_shape_aabb(NULL, id)));
    ck_assert(!rc_shape_world_circle(NULL, id, &c));
    ck_assert(!rc_shape_world_polygon(NULL, id, &p));
    ck_assert(rc_shape_restitution(NULL, id) == 0.0f);
    ck_assert(rc_shape_friction(NULL, id) == 0.0f);
    ck_assert(rc_shape_density(NULL, id) == 0.0f);
    ck_assert(rc_shape_filter(NULL, id).category_bits == 0u);
    ck_assert(!rc_shape_is_sensor(NULL, id));
    ck_assert(rc_shape_user_data(NULL, id) == NULL);
    ck_assert(!rc_shape_set_base_transform(NULL, id, rc_v2(0, 0), 0.0f, rc_v2(1, 1)));
    ck_assert(!rc_shape_set_restitution(NULL, id, 0.5f));
    ck_assert(!rc_shape_set_friction(NULL, id, 0.5f));
    ck_assert(!rc_shape_set_density(NULL, id, 0.5f));
    ck_assert(!rc_shape_set_filter(NULL, id, rc_default_filter()));
    ck_assert(!rc_shape_set_user_data(NULL, id, NULL));
    ck_assert(!rc_shape_cast_ray(NULL, id, rc_v2(-10, 0), rc_v2(20, 0), &h));
    ck_assert(rc_shape_contacts(NULL, id, ids, 4) == -1);
}

START_TEST(shape_functions_refuse_bad_ids) {
    fixture fx;
    fx_init(&fx);
    rc_shape_id live = fx.box;
    rc_shape_id bad[] = {
        RC_NULL_SHAPE_ID,
        fx.stale_shape,
        {0u, 5u},
        {999999u, 1u},
        {live.index, live.generation + 1u},
        {live.index, 0u},
        {UINT32_MAX, UINT32_MAX},
        {(uint32_t)INT32_MAX, 1u},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        shape_functions_refuse(&fx, bad[i]);
    }
    ck_assert(rc_shape_is_valid(fx.w, live));
    fixture other;
    fx_init(&other);
    const rc_shape_id foreign[] = {other.box, other.circle, other.poly, other.sensor, other.kin_box};
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; ++i) {
        shape_functions_refuse(&fx, foreign[i]);
        ck_assert(rc_shape_is_valid(other.w, foreign[i]));
    }
    ck_assert_int_eq(other.errs.calls, 0);
    fx_free(&other);
    fx_free(&fx);
}
END_TEST

/* Changes made from inside a query's callback are refused like any bad call: the error value,
 * one message naming the function and the lock, one error callback, the world unchanged. */
typedef struct inside {
    fixture *fx;
    int calls;
} inside;

static void refuse_changes_inside(inside *in) {
    if (in->calls++ > 0) {
        return;
    }
    fixture *fx = in->fx;
    rc_world *w = fx->w;
    rc_shape_def sd = rc_shape_default_def();
    rc_body_def bd = rc_body_default_def();
    REFUSE(fx, "rc_body_destroy", (rc_body_destroy(w, fx->dyn), rc_body_is_valid(w, fx->dyn)));
    REFUSE(fx, "rc_body_create", rc_body_id_is_null(rc_body_create(w, &bd)));
    REFUSE(fx, "rc_body_set_transform", !rc_body_set_transform(w, fx->dyn, rc_v2(1, 1), 1.0f));
    REFUSE(fx, "rc_body_set_linear_velocity", !rc_body_set_linear_velocity(w, fx->dyn, rc_v2(1, 1)));
    REFUSE(fx, "rc_body_set_type", !rc_body_set_type(w, fx->kin, RC_DYNAMIC));
    REFUSE(fx, "rc_body_apply_linear_impulse", !rc_body_apply_linear_impulse(w, fx->dyn, rc_v2(1, 0), rc_v2(0, 0)));
    REFUSE(fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(w, fx->stat, &sd, 1.0f)));
    REFUSE(fx, "rc_shape_destroy", (rc_shape_destroy(w, fx->box), rc_shape_is_valid(w, fx->box)));
    REFUSE(fx, "rc_shape_set_filter", !rc_shape_set_filter(w, fx->box, rc_default_filter()));
    REFUSE(fx, "rc_world_set_gravity", !rc_world_set_gravity(w, rc_v2(0, -1)));
    REFUSE(fx, "rc_world_step", !rc_world_step(w, 1.0f / 60.0f));
    REFUSE(fx, "rc_world_destroy", (rc_world_destroy(w), rc_body_is_valid(w, fx->stat)));
    EXPECT(strstr(rc_world_last_error(w), "locked") != NULL, "the message does not say the world is locked: %s",
           rc_world_last_error(w));
}

static bool inside_overlap(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape, (void)body;
    refuse_changes_inside(context);
    return true;
}

static float inside_cast(const rc_ray_hit *hit, void *context) {
    (void)hit;
    refuse_changes_inside(context);
    return 1.0f;
}

START_TEST(changes_inside_callbacks_are_refused) {
    fixture fx;
    fx_init(&fx);
    rc_query_filter all = rc_default_query_filter();
    for (int kind = 0; kind < 4; ++kind) {
        inside in = {&fx, 0};
        rc_world_clear_error(fx.w);
        switch (kind) {
        case 0: ck_assert(rc_world_overlap_circle(fx.w, rc_v2(0, 0), 3.0f, all, inside_overlap, &in) > 0); break;
        case 1: ck_assert(rc_world_overlap_aabb(fx.w, (rc_aabb){{-3, -3}, {3, 3}}, all, inside_overlap, &in) > 0); break;
        case 2: ck_assert(rc_world_cast_ray_all(fx.w, rc_v2(-10, 0), rc_v2(20, 0), all, inside_cast, &in)); break;
        default: ck_assert(rc_world_cast_circle_all(fx.w, rc_v2(-10, 0), 0.5f, rc_v2(20, 0), all, inside_cast, &in)); break;
        }
        ck_assert(in.calls > 0);
    }
    /* and outside, the same calls go through */
    ck_assert(rc_body_set_linear_velocity(fx.w, fx.dyn, rc_v2(1, 1)));
    ck_assert(rc_world_step(fx.w, 1.0f / 60.0f));
    fx_free(&fx);
}
END_TEST

START_TEST(shape_setters_refuse_bad_values) {
    fixture fx;
    fx_init(&fx);
    rc_world *w = fx.w;
    rc_shape_id shapes[] = {fx.box, fx.circle, fx.poly, fx.sensor, fx.kin_box, fx.sleeper_box};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        rc_shape_id id = shapes[s];
        for (int k = 0; k < NBAD; ++k) {
            float v = bad_floats[k];
            REFUSE(&fx, "rc_shape_set_base_transform",
                   !rc_shape_set_base_transform(w, id, rc_v2(v, 0), 0.0f, rc_v2(1, 1)));
            REFUSE(&fx, "rc_shape_set_base_transform",
                   !rc_shape_set_base_transform(w, id, rc_v2(0, v), 0.0f, rc_v2(1, 1)));
            REFUSE(&fx, "rc_shape_set_base_transform",
                   !rc_shape_set_base_transform(w, id, rc_v2(0, 0), v, rc_v2(1, 1)));
            REFUSE(&fx, "rc_shape_set_base_transform",
                   !rc_shape_set_base_transform(w, id, rc_v2(0, 0), 0.0f, rc_v2(v, 1)));
            REFUSE(&fx, "rc_shape_set_base_transform",
                   !rc_shape_set_base_transform(w, id, rc_v2(0, 0), 0.0f, rc_v2(1, v)));
            REFUSE(&fx, "rc_shape_set_restitution", !rc_shape_set_restitution(w, id, v));
            REFUSE(&fx, "rc_shape_set_friction", !rc_shape_set_friction(w, id, v));
            REFUSE(&fx, "rc_shape_set_density", !rc_shape_set_density(w, id, v));
            rc_ray_hit h;
            REFUSE(&fx, "rc_shape_cast_ray", !rc_shape_cast_ray(w, id, rc_v2(v, 0), rc_v2(1, 0), &h));
            REFUSE(&fx, "rc_shape_cast_ray", !rc_shape_cast_ray(w, id, rc_v2(0, 0), rc_v2(0, v), &h));
        }
        for (int k = 0; k < NNEG; ++k) {
            REFUSE(&fx, "rc_shape_set_restitution", !rc_shape_set_restitution(w, id, negatives[k]));
            REFUSE(&fx, "rc_shape_set_friction", !rc_shape_set_friction(w, id, negatives[k]));
            REFUSE(&fx, "rc_shape_set_density", !rc_shape_set_density(w, id, negatives[k]));
        }
        REFUSE(&fx, "rc_shape_set_base_transform", !rc_shape_set_base_transform(w, id, rc_v2(0, 0), 0.0f, rc_v2(0, 1)));
        REFUSE(&fx, "rc_shape_set_base_transform", !rc_shape_set_base_transform(w, id, rc_v2(0, 0), 0.0f, rc_v2(1, 0)));
        /* finite values whose placed shape is beyond float range */
        REFUSE(&fx, "rc_shape_set_base_transform",
               !rc_shape_set_base_transform(w, id, rc_v2(FLT_MAX, 0), 0.0f, rc_v2(FLT_MAX, FLT_MAX)));
        REFUSE(&fx, "rc_shape_contacts", rc_shape_contacts(w, id, NULL, 3) == -1);
        REFUSE(&fx, "rc_shape_contacts", rc_shape_contacts(w, id, NULL, -1) == -1);
        rc_shape_id out[2];
        REFUSE(&fx, "rc_shape_contacts", rc_shape_contacts(w, id, out, -1) == -1);
        REFUSE(&fx, "rc_shape_world_circle", !rc_shape_world_circle(w, id, NULL));
        REFUSE(&fx, "rc_shape_world_polygon", !rc_shape_world_polygon(w, id, NULL));
    }
    /* circles: a non-uniform scale; polygons: a flattening scale */
    REFUSE(&fx, "rc_shape_set_base_transform",
           !rc_shape_set_base_transform(w, fx.circle, rc_v2(0, 0), 0.0f, rc_v2(1, 2)));
    /* radius 0.5 times the smallest float rounds to a radius of zero */
    REFUSE(&fx, "rc_shape_set_base_transform",
           !rc_shape_set_base_transform(w, fx.circle, rc_v2(0, 0), 0.0f, rc_v2(FLT_TRUE_MIN, FLT_TRUE_MIN)));
    REFUSE(&fx, "rc_shape_set_base_transform",
           !rc_shape_set_base_transform(w, fx.box, rc_v2(0, 0), 0.0f, rc_v2(1.0f, 1e-38f)));
    /* wrong type */
    rc_circle c;
    rc_polygon p;
    REFUSE(&fx, "rc_shape_world_circle", !rc_shape_world_circle(w, fx.box, &c));
    REFUSE(&fx, "rc_shape_world_polygon", !rc_shape_world_polygon(w, fx.circle, &p));
    fx_free(&fx);
}
END_TEST

/* ---- queries --------------------------------------------------------------------------------- */

static float ignore_fn(const rc_ray_hit *hit, void *context) {
    (void)hit;
    (*(int *)context)++;
    return 1.0f;
}

static bool overlap_count_fn(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    (*(int *)context)++;
    return true;
}

START_TEST(queries_refuse_bad_input) {
    fixture fx;
    fx_init(&fx);
    rc_world *w = fx.w;
    rc_query_filter f = rc_default_query_filter();
    rc_ray_hit h;
    int calls = 0;
    for (int k = 0; k < NBAD; ++k) {
        float v = bad_floats[k];
        const rc_vec2 bad_vecs[] = {{v, 0}, {0, v}, {v, v}};
        for (int i = 0; i < 3; ++i) {
            rc_vec2 b = bad_vecs[i];
            rc_vec2 o = rc_v2(-5, 0), d = rc_v2(10, 0);
            REFUSE(&fx, "rc_world_cast_ray", !rc_world_cast_ray(w, b, d, &h));
            REFUSE(&fx, "rc_world_cast_ray", !rc_world_cast_ray(w, o, b, &h));
            REFUSE(&fx, "rc_world_cast_ray_filtered", !rc_world_cast_ray_filtered(w, b, d, f, &h));
            REFUSE(&fx, "rc_world_cast_ray_filtered", !rc_world_cast_ray_filtered(w, o, b, f, &h));
            REFUSE(&fx, "rc_world_cast_circle", !rc_world_cast_circle(w, b, 0.5f, d, &h));
            REFUSE(&fx, "rc_world_cast_circle", !rc_world_cast_circle(w, o, 0.5f, b, &h));
            REFUSE(&fx, "rc_world_cast_circle_filtered", !rc_world_cast_circle_filtered(w, b, 0.5f, d, f, &h));
            REFUSE(&fx, "rc_world_cast_circle_filtered", !rc_world_cast_circle_filtered(w, o, 0.5f, b, f, &h));
            REFUSE(&fx, "rc_world_cast_ray_all", !rc_world_cast_ray_all(w, b, d, f, ignore_fn, &calls));
            REFUSE(&fx, "rc_world_cast_ray_all", !rc_world_cast_ray_all(w, o, b, f, ignore_fn, &calls));
            REFUSE(&fx, "rc_world_cast_circle_all", !rc_world_cast_circle_all(w, b, 0.5f, d, f, ignore_fn, &calls));
            REFUSE(&fx, "rc_world_cast_circle_all", !rc_world_cast_circle_all(w, o, 0.5f, b, f, ignore_fn, &calls));
            REFUSE(&fx, "rc_world_overlap_point", rc_world_overlap_point(w, b, f, overlap_count_fn, &calls) == -1);
            REFUSE(&fx, "rc_world_overlap_circle",
                   rc_world_overlap_circle(w, b, 1.0f, f, overlap_count_fn, &calls) == -1);
            rc_aabb boxes[] = {{b, rc_v2(1, 1)}, {rc_v2(-1, -1), b}};
            for (int j = 0; j < 2; ++j) {
                REFUSE(&fx, "rc_world_overlap_aabb",
                       rc_world_overlap_aabb(w, boxes[j], f, overlap_count_fn, &calls) == -1);
            }
        }
    }
    const float bad_radii[] = {-1.0f, -1e-30f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_radii / sizeof bad_radii[0]; ++i) {
        float r = bad_radii[i];
        REFUSE(&fx, "rc_world_cast_circle", !rc_world_cast_circle(w, rc_v2(-5, 0), r, rc_v2(10, 0), &h));
        REFUSE(&fx, "rc_world_cast_circle_filtered",
               !rc_world_cast_circle_filtered(w, rc_v2(-5, 0), r, rc_v2(10, 0), f, &h));
        REFUSE(&fx, "rc_world_cast_circle_all",
               !rc_world_cast_circle_all(w, rc_v2(-5, 0), r, rc_v2(10, 0), f, ignore_fn, &calls));
        REFUSE(&fx, "rc_world_overlap_circle", rc_world_overlap_circle(w, rc_v2(0, 0), r, f, NULL, NULL) == -1);
    }
    REFUSE(&fx, "rc_world_cast_ray_all", !rc_world_cast_ray_all(w, rc_v2(-5, 0), rc_v2(10, 0), f, NULL, NULL));
    REFUSE(&fx, "rc_world_cast_circle_all",
           !rc_world_cast_circle_all(w, rc_v2(-5, 0), 0.5f, rc_v2(10, 0), f, NULL, NULL));
    /* boxes with lower > upper */
    REFUSE(&fx, "rc_world_overlap_aabb", rc_world_overlap_aabb(w, (rc_aabb){{1, 0}, {0, 1}}, f, NULL, NULL) == -1);
    REFUSE(&fx, "rc_world_overlap_aabb", rc_world_overlap_aabb(w, (rc_aabb){{0, 1}, {1, 0}}, f, NULL, NULL) == -1);
    /* a disk beyond float range */
    REFUSE(&fx, "rc_world_overlap_circle", rc_world_overlap_circle(w, rc_v2(FLT_MAX, 0), FLT_MAX, f, NULL, NULL) == -1);
    ck_assert_int_eq(calls, 0);
    /* not errors: a miss, a ray of zero length, an empty filter, a degenerate box, radius 0 */
    NO_ERROR(&fx, !rc_world_cast_ray(w, rc_v2(-5, 100), rc_v2(10, 0), &h));
    NO_ERROR(&fx, !rc_world_cast_ray(w, rc_v2(0, 0), rc_v2(0, 0), &h));
    NO_ERROR(&fx, !rc_world_cast_circle(w, rc_v2(0, 0), 0.5f, rc_v2(0, 0), &h) || true);
    NO_ERROR(&fx, !rc_world_cast_ray_filtered(w, rc_v2(-5, 0), rc_v2(10, 0), (rc_query_filter){.category_bits = 0u, .mask_bits = 0u}, &h));
    NO_ERROR(&fx, rc_world_overlap_aabb(w, (rc_aabb){{0.5f, 0.5f}, {0.5f, 0.5f}}, f, NULL, NULL) >= 1);
    NO_ERROR(&fx, rc_world_overlap_circle(w, rc_v2(0, 0), 0.0f, f, NULL, NULL) >= 1);
    NO_ERROR(&fx, rc_world_cast_ray_all(w, rc_v2(-5, 0), rc_v2(10, 0), f, ignore_fn, &calls));
    /* the NULL world */
    ck_assert(!rc_world_cast_ray(NULL, rc_v2(-5, 0), rc_v2(10, 0), &h));
    ck_assert(!rc_world_cast_ray_filtered(NULL, rc_v2(-5, 0), rc_v2(10, 0), f, &h));
    ck_assert(!rc_world_cast_circle(NULL, rc_v2(-5, 0), 0.5f, rc_v2(10, 0), &h));
    ck_assert(!rc_world_cast_circle_filtered(NULL, rc_v2(-5, 0), 0.5f, rc_v2(10, 0), f, &h));
    ck_assert(!rc_world_cast_ray_all(NULL, rc_v2(-5, 0), rc_v2(10, 0), f, ignore_fn, &calls));
    ck_assert(!rc_world_cast_circle_all(NULL, rc_v2(-5, 0), 0.5f, rc_v2(10, 0), f, ignore_fn, &calls));
    ck_assert_int_eq(rc_world_overlap_aabb(NULL, (rc_aabb){{0, 0}, {1, 1}}, f, overlap_count_fn, &calls), -1);
    ck_assert_int_eq(rc_world_overlap_point(NULL, rc_v2(0, 0), f, overlap_count_fn, &calls), -1);
    ck_assert_int_eq(rc_world_overlap_circle(NULL, rc_v2(0, 0), 1.0f, f, overlap_count_fn, &calls), -1);
    fx_free(&fx);
}
END_TEST

START_TEST(events_survive_refused_calls) {
    /* the fixture's last step published a begin event and a sensor begin: after a long list of
       refused calls (each already compared by snapshot) they are still there */
    fixture fx;
    fx_init(&fx);
    rc_contact_events ce = rc_world_contact_events(fx.w);
    rc_sensor_events se = rc_world_sensor_events(fx.w);
    int cb = ce.begin_count, sb = se.begin_count;
    REFUSE(&fx, "rc_world_step", !rc_world_step(fx.w, 0.0f));
    REFUSE(&fx, "rc_shape_destroy", (rc_shape_destroy(fx.w, fx.stale_shape), true));
    REFUSE(&fx, "rc_body_destroy", (rc_body_destroy(fx.w, fx.stale_body), true));
    ce = rc_world_contact_events(fx.w);
    se = rc_world_sensor_events(fx.w);
    ck_assert_int_eq(ce.begin_count, cb);
    ck_assert_int_eq(se.begin_count, sb);
    fx_free(&fx);
}
END_TEST

START_TEST(set_transform_refuses_placing_a_shape_beyond_float_range) {
    /* rc_shape_create_* and rc_shape_set_base_transform refuse a shape whose placed box is not
       finite ("reaches beyond float range"); a teleport that does the same to a shape already
       on the body must be refused too ("false on a bad id or value, nothing changed"):
       otherwise the shape's geometry is infinite while its broadphase proxy keeps the old box. */
    fixture fx;
    fx_init(&fx);
    rc_world *w = fx.w;
    rc_body_def bd = rc_body_default_def();
    rc_body_id b = rc_body_create(w, &bd);
    fx.bodies[fx.nb++] = b;
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0.75f * RC_WORLD_LIMIT, 0.0f);
    rc_shape_id s = fx_track(&fx, rc_shape_create_circle(w, b, &sd, 1.0f));
    ck_assert(rc_aabb_is_valid(rc_shape_aabb(w, s)));
    REFUSE(&fx, "rc_body_set_transform", !rc_body_set_transform(w, b, rc_v2(0.5f * RC_WORLD_LIMIT, 0.0f), 0.0f));
    REFUSE(&fx, "rc_body_set_transform", !rc_body_set_transform(w, b, rc_v2(3e38f, 0.0f), 0.0f));
    /* the body's own position is held to the limit too, shapes or not */
    REFUSE(&fx, "rc_body_set_transform", !rc_body_set_transform(w, fx.dyn, rc_v2(0.0f, -2.0f * RC_WORLD_LIMIT), 0.0f));
    rc_body_def beyond = rc_body_default_def();
    beyond.position = rc_v2(2.0f * RC_WORLD_LIMIT, 0.0f);
    REFUSE(&fx, "rc_body_create", rc_body_id_is_null(rc_body_create(w, &beyond)));
    fx_free(&fx);
}
END_TEST

START_TEST(index_2_pow_31_is_refused_without_undefined_behaviour) {
    /* a forged id with index 2^31: (int32_t)index - 1 overflows inside the id check (UBSan:
       "signed integer overflow: -2147483648 - 1"), which aborts a sanitized build */
    fixture fx;
    fx_init(&fx);
    rc_body_id b = {(uint32_t)INT32_MAX + 1u, 1u};
    rc_shape_id s = {(uint32_t)INT32_MAX + 1u, 1u};
    REFUSE(&fx, "rc_body_position", rc_vec2_equal(rc_body_position(fx.w, b), rc_v2(0, 0)));
    REFUSE(&fx, "rc_shape_body", rc_body_id_is_null(rc_shape_body(fx.w, s)));
    body_functions_refuse(&fx, b);
    shape_functions_refuse(&fx, s);
    fx_free(&fx);
}
END_TEST

static Suite *errors_suite(void) {
    Suite *s = suite_create("world_errors");
    TCase *t = tcase_create("bad input");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, world_create_refuses_bad_defs);
    tcase_add_test(t, step_refuses_bad_dt);
    tcase_add_test(t, step_refuses_steps_beyond_the_limit);
    tcase_add_test(t, body_create_refuses_bad_defs);
    tcase_add_test(t, body_functions_refuse_bad_ids);
    tcase_add_test(t, body_setters_refuse_bad_values);
    tcase_add_test(t, shape_create_refuses_bad_defs);
    tcase_add_test(t, shape_functions_refuse_bad_ids);
    tcase_add_test(t, shape_setters_refuse_bad_values);
    tcase_add_test(t, queries_refuse_bad_input);
    tcase_add_test(t, changes_inside_callbacks_are_refused);
    tcase_add_test(t, events_survive_refused_calls);
    tcase_add_test(t, set_transform_refuses_placing_a_shape_beyond_float_range);
    tcase_add_test(t, index_2_pow_31_is_refused_without_undefined_behaviour);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(errors_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
