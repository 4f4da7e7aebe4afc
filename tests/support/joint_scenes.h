/* tests/support/joint_scenes.h: what the joint suites (tests/test_joints_*.c) share: small
 * scenes of bodies and joints, gaps and periods measured, and the fixture for refused calls
 * (a world, its joints, their state read through the public API, and a twin that never saw the
 * refused calls). Header-only, for the Check suites. */
#ifndef RICOCHET_TESTS_JOINT_SCENES_H
#define RICOCHET_TESTS_JOINT_SCENES_H

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* A measured value, printed at once (a failing test's process ends without flushing stdout). */
#define REPORT(...)                                                                                                    \
    do {                                                                                                               \
        printf(__VA_ARGS__);                                                                                           \
        fflush(stdout);                                                                                                \
    } while (0)

static const float DT = 1.0f / 60.0f;
static const double PI = 3.14159265358979323846;
static const double G = 10.0;

/* ---- scenes ----------------------------------------------------------------------------------- */

static inline rc_world *make_world(rc_vec2 gravity, bool sleep) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = gravity;
    wd.enable_sleep = sleep;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

static inline rc_body_id body_at(rc_world *w, rc_body_type type, rc_vec2 p, float angle) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.angle = angle;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert_msg(!rc_body_id_is_null(b), "%s", rc_world_last_error(w));
    return b;
}

static inline rc_shape_id add_box(rc_world *w, rc_body_id b, rc_vec2 offset, float hx, float hy, float density) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = offset;
    sd.density = density;
    rc_shape_id s = rc_shape_create_box(w, b, &sd, hx, hy);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

static inline rc_body_id box_body(rc_world *w, rc_vec2 p, float angle, float hx, float hy, float density) {
    rc_body_id b = body_at(w, RC_DYNAMIC, p, angle);
    add_box(w, b, rc_v2(0, 0), hx, hy, density);
    return b;
}

static inline rc_body_id circle_body(rc_world *w, rc_vec2 p, float r, float density) {
    rc_body_id b = body_at(w, RC_DYNAMIC, p, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.density = density;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, r)));
    return b;
}

static inline rc_vec2 local_point(const rc_world *w, rc_body_id b, rc_vec2 p) {
    return rc_inv_transform_point(rc_body_transform(w, b), p);
}

static inline rc_vec2 world_point(const rc_world *w, rc_body_id b, rc_vec2 local) {
    return rc_transform_point(rc_body_transform(w, b), local);
}

/* The two anchors of a joint in the world, through the public getters only. */
static inline float joint_gap(const rc_world *w, rc_joint_id j) {
    rc_vec2 a = world_point(w, rc_joint_body_a(w, j), rc_joint_local_anchor_a(w, j));
    rc_vec2 b = world_point(w, rc_joint_body_b(w, j), rc_joint_local_anchor_b(w, j));
    return rc_distance(a, b);
}

static inline rc_joint_id hinge(rc_world *w, rc_body_id a, rc_body_id b, rc_vec2 at) {
    rc_revolute_joint_def d = rc_revolute_joint_default_def();
    d.body_a = a;
    d.body_b = b;
    d.local_anchor_a = local_point(w, a, at);
    d.local_anchor_b = local_point(w, b, at);
    rc_joint_id j = rc_joint_create_revolute(w, &d);
    ck_assert_msg(!rc_joint_id_is_null(j), "%s", rc_world_last_error(w));
    return j;
}

static inline rc_joint_id rod(rc_world *w, rc_body_id a, rc_vec2 at_a, rc_body_id b, rc_vec2 at_b) {
    rc_distance_joint_def d = rc_distance_joint_default_def();
    d.body_a = a;
    d.body_b = b;
    d.local_anchor_a = local_point(w, a, at_a);
    d.local_anchor_b = local_point(w, b, at_b);
    d.length = rc_distance(at_a, at_b);
    rc_joint_id j = rc_joint_create_distance(w, &d);
    ck_assert_msg(!rc_joint_id_is_null(j), "%s", rc_world_last_error(w));
    return j;
}

static inline void step(rc_world *w, int n) {
    for (int i = 0; i < n; ++i) {
        EXPECT(rc_world_step(w, DT), "step failed: %s", rc_world_last_error(w));
    }
}

/* Zero crossings of a signal sampled at the end of each step, interpolated linearly. */
typedef struct crossings {
    int n;
    double t[64];
    bool have;
    double prev_t, prev_v;
} crossings;

static inline void crossing_add(crossings *c, double t, double v) {
    if (c->have && ((c->prev_v < 0.0) != (v < 0.0)) && c->n < 64) {
        c->t[c->n++] = c->prev_t + (t - c->prev_t) * c->prev_v / (c->prev_v - v);
    }
    c->have = true;
    c->prev_t = t;
    c->prev_v = v;
}

/* Two crossings a period. */
static inline double crossing_period(const crossings *c) {
    ck_assert_int_ge(c->n, 3);
    return 2.0 * (c->t[c->n - 1] - c->t[0]) / (double)(c->n - 1);
}

/* The period of a pendulum of small-amplitude period t0 swinging th either side. */
static inline double finite_amplitude(double t0, double th) {
    return t0 * (1.0 + th * th / 16.0 + 11.0 * th * th * th * th / 3072.0);
}

/* ---- joint state through the public API, for "nothing changed" -------------------------------------- */

typedef struct joint_state {
    bool valid;
    rc_joint_type type;
    rc_body_id a, b;
    rc_vec2 anchor_a, anchor_b, force, target;
    float torque, value, rate;
    bool collide;
    void *user_data;
} joint_state;

static inline joint_state joint_state_of(const rc_world *w, rc_joint_id j) {
    joint_state s;
    memset(&s, 0, sizeof s);
    s.valid = rc_joint_is_valid(w, j);
    if (!s.valid) {
        return s;
    }
    s.type = rc_joint_get_type(w, j);
    s.a = rc_joint_body_a(w, j);
    s.b = rc_joint_body_b(w, j);
    s.anchor_a = rc_joint_local_anchor_a(w, j);
    s.anchor_b = rc_joint_local_anchor_b(w, j);
    s.force = rc_joint_reaction_force(w, j);
    s.torque = rc_joint_reaction_torque(w, j);
    s.collide = rc_joint_collide_connected(w, j);
    s.user_data = rc_joint_user_data(w, j);
    switch (s.type) {
    case RC_REVOLUTE_JOINT:
        s.value = rc_revolute_joint_angle(w, j);
        s.rate = rc_revolute_joint_speed(w, j);
        break;
    case RC_DISTANCE_JOINT:
        s.value = rc_distance_joint_current_length(w, j);
        break;
    case RC_PRISMATIC_JOINT:
        s.value = rc_prismatic_joint_translation(w, j);
        s.rate = rc_prismatic_joint_speed(w, j);
        break;
    case RC_MOUSE_JOINT:
        s.target = rc_mouse_joint_target(w, j);
        break;
    case RC_WELD_JOINT:
        break;
    }
    return s;
}

/* Bit for bit (a float compared by its bytes: -0 is not 0). */
#define SAME_BITS(x, y) (memcmp(&(x), &(y), sizeof(x)) == 0)

static inline bool joint_state_equal(const joint_state *x, const joint_state *y) {
    return x->valid == y->valid && x->type == y->type && rc_body_id_equals(x->a, y->a) && rc_body_id_equals(x->b, y->b) &&
           SAME_BITS(x->anchor_a, y->anchor_a) && SAME_BITS(x->anchor_b, y->anchor_b) && SAME_BITS(x->force, y->force) &&
           SAME_BITS(x->target, y->target) && SAME_BITS(x->torque, y->torque) && SAME_BITS(x->value, y->value) &&
           SAME_BITS(x->rate, y->rate) && x->collide == y->collide && x->user_data == y->user_data;
}

/* ---- the fixture for refused calls ------------------------------------------------------------------ */

#define FX_JOINTS 8

typedef struct fixture {
    rc_world *w;
    ws_errors errs;
    rc_body_id bodies[12];
    int nb;
    rc_shape_id shapes[12];
    int ns;
    rc_joint_id joints[FX_JOINTS];
    int nj;
    rc_body_id stat, stat2, kin, dyn, dyn2, sleeper, stale;
} fixture;

static inline rc_body_id fx_body(fixture *fx, rc_body_type type, rc_vec2 p) {
    rc_body_id b = body_at(fx->w, type, p, 0.0f);
    fx->bodies[fx->nb++] = b;
    if (type != RC_STATIC || fx->nb == 1) {
        fx->shapes[fx->ns++] = add_box(fx->w, b, rc_v2(0, 0), 0.5f, 0.5f, 1.0f);
    }
    return b;
}

/* A world without joints (with_joint: one hinge) with bodies of each kind, stepped once. Its
 * ids are salted alike every time, so that a twin built by the same calls has the same ids. */
static inline void fx_init(fixture *fx, bool with_joint) {
    memset(fx, 0, sizeof *fx);
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = 0x5eedu;
    wd.error_fn = ws_error_fn;
    wd.error_user = &fx->errs;
    fx->w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(fx->w);
    fx->stat = fx_body(fx, RC_STATIC, rc_v2(0, -5));
    fx->stat2 = fx_body(fx, RC_STATIC, rc_v2(10, -5));
    fx->kin = fx_body(fx, RC_KINEMATIC, rc_v2(-10, 0));
    fx->dyn = fx_body(fx, RC_DYNAMIC, rc_v2(0, 0));
    fx->dyn2 = fx_body(fx, RC_DYNAMIC, rc_v2(3, 0));
    fx->sleeper = fx_body(fx, RC_DYNAMIC, rc_v2(-5, 0));
    ck_assert(rc_body_set_awake(fx->w, fx->sleeper, false));
    fx->stale = body_at(fx->w, RC_DYNAMIC, rc_v2(20, 0), 0.0f);
    rc_body_destroy(fx->w, fx->stale);
    fx->bodies[fx->nb++] = fx->stale;
    if (with_joint) {
        fx->joints[fx->nj++] = hinge(fx->w, fx->stat, fx->dyn, rc_v2(0, 0));
    }
    ck_assert(rc_world_step(fx->w, DT));
    ck_assert_int_eq(fx->errs.calls, 0);
}

typedef struct fx_snap {
    ws_snapshot world;
    joint_state joints[FX_JOINTS];
} fx_snap;

static inline void fx_take(fixture *fx, fx_snap *s) {
    ws_snapshot_take(&s->world, fx->w, fx->bodies, fx->nb, fx->shapes, fx->ns);
    memset(s->joints, 0, sizeof s->joints);
    for (int i = 0; i < fx->nj; ++i) {
        s->joints[i] = joint_state_of(fx->w, fx->joints[i]);
    }
}

static inline void check_refused(fixture *fx, fx_snap *before, int calls_before, bool error_value, const char *fname,
                          const char *expr, int line) {
    EXPECT(error_value, "line %d: %s did not return its error value", line, expr);
    const char *msg = rc_world_last_error(fx->w);
    EXPECT(msg[0] != '\0', "line %d: %s left no message", line, expr);
    EXPECT(strstr(msg, fname) != NULL, "line %d: %s: message \"%s\" does not name %s", line, expr, msg, fname);
    EXPECT(fx->errs.calls == calls_before + 1, "line %d: %s: the error callback was called %d times", line, expr,
           fx->errs.calls - calls_before);
    fx_snap after;
    fx_take(fx, &after);
    char why[600];
    bool same = ws_snapshot_equal(&before->world, &after.world, why, sizeof why);
    ws_snapshot_free(&after.world);
    EXPECT(same, "line %d: %s changed the world: %s", line, expr, why);
    for (int i = 0; i < fx->nj; ++i) {
        EXPECT(joint_state_equal(&before->joints[i], &after.joints[i]), "line %d: %s changed joint %d", line, expr, i);
    }
}

#define REFUSE(fx, fname, expr)                                                                                        \
    do {                                                                                                               \
        rc_world_clear_error((fx)->w);                                                                                 \
        fx_snap before_;                                                                                               \
        fx_take((fx), &before_);                                                                                       \
        int calls_ = (fx)->errs.calls;                                                                                 \
        bool value_ = (expr);                                                                                          \
        check_refused((fx), &before_, calls_, value_, (fname), #expr, __LINE__);                                       \
        ws_snapshot_free(&before_.world);                                                                              \
    } while (0)

#define REFUSE_ID(fx, fname, expr) REFUSE(fx, fname, rc_joint_id_is_null(expr))

/* The fixture's world against its twin, built by the same calls but for the refused ones:
 * stepped alike, they stay the same bit for bit (a refused call that wrote a setting no getter
 * shows, or a pair of bodies kept apart, would part them). */
static inline void fx_same_as_twin(fixture *fx, fixture *twin, int steps) {
    ck_assert_int_eq(fx->nb, twin->nb);
    ck_assert_int_eq(fx->nj, twin->nj);
    for (int i = 0; i < steps; ++i) {
        step(fx->w, 1);
        step(twin->w, 1);
    }
    fx_snap a, b;
    fx_take(fx, &a);
    fx_take(twin, &b);
    char why[600];
    bool same = ws_snapshot_equal(&a.world, &b.world, why, sizeof why);
    ws_snapshot_free(&a.world);
    ws_snapshot_free(&b.world);
    ck_assert_msg(same, "the world of the refused calls parted from its twin: %s", why);
    for (int i = 0; i < fx->nj; ++i) {
        ck_assert_msg(joint_state_equal(&a.joints[i], &b.joints[i]), "joint %d parted from its twin", i);
    }
}


#endif
