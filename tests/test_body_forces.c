/* Forces, torques and angular impulses (rc_body_apply_force, _to_center, _torque,
 * rc_body_apply_angular_impulse), mass data (rc_body_mass_data, rc_body_set_mass_data) and the
 * move events (rc_world_body_move_events).
 *
 * Expected values are derived from the integrators (world/step.c, world/contact_solver.c,
 * world/projectile.c) on numbers chosen so that every operation is exact in float: a body in the
 * contact solver takes, in each of the world's sub-steps h = dt / sub_steps, the kick
 * h (gravity + F / m) on its velocity and then moves by h v; a swept body (a grenade) takes the
 * kick dt (gravity + F / m) and moves along the chord of its parabola, dt (v0 + kick / 2). With
 * dt = 1/8 and 4 sub-steps, F / m = 4 gives v = 0.5 and x = h^2 a (1 + 2 + 3 + 4) = 0.0390625
 * after one step. Refused calls must return false, name the function in rc_world_last_error,
 * call the error callback once and change nothing. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT
#define DT 0.125f

typedef struct fixture {
    rc_world *w;
    ws_errors errs;
    rc_body_id bodies[16];
    rc_shape_id shapes[16];
    int nb, ns;
} fixture;

static void fx_init(fixture *fx, rc_vec2 gravity) {
    memset(fx, 0, sizeof *fx);
    rc_world_def wd = rc_world_default_def();
    wd.gravity = gravity;
    wd.error_fn = ws_error_fn;
    wd.error_user = &fx->errs;
    fx->w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(fx->w);
}

/* A body with a box of the given half extents and density (none for half extent 0). */
static rc_body_id fx_body(fixture *fx, rc_body_type type, rc_vec2 p, float half, float density) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    rc_body_id b = rc_body_create(fx->w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    fx->bodies[fx->nb++] = b;
    if (half > 0.0f) {
        rc_shape_def sd = rc_shape_default_def();
        sd.density = density;
        rc_shape_id s = rc_shape_create_box(fx->w, b, &sd, half, half);
        ck_assert(!rc_shape_id_is_null(s));
        fx->shapes[fx->ns++] = s;
    }
    return b;
}

static void refused(fixture *fx, ws_snapshot *before, int calls, bool value, const char *fname, const char *expr,
                    int line) {
    const char *msg = rc_world_last_error(fx->w);
    EXPECT(value, "line %d: %s was not refused", line, expr);
    EXPECT(strstr(msg, fname) != NULL, "line %d: %s: message \"%s\"", line, expr, msg);
    EXPECT(fx->errs.calls == calls + 1 && strcmp(fx->errs.last, msg) == 0, "line %d: %s: %d error callbacks", line,
           expr, fx->errs.calls - calls);
    ws_snapshot after;
    ws_snapshot_take(&after, fx->w, fx->bodies, fx->nb, fx->shapes, fx->ns);
    char why[600];
    EXPECT(ws_snapshot_equal(before, &after, why, sizeof why), "line %d: %s changed the world: %s", line, expr, why);
    ws_snapshot_free(&after);
}

/* expr is true when the call returned its error value */
#define REFUSE(fx, fname, expr)                                                                                        \
    do {                                                                                                               \
        ws_snapshot before_;                                                                                           \
        ws_snapshot_take(&before_, (fx)->w, (fx)->bodies, (fx)->nb, (fx)->shapes, (fx)->ns);                           \
        rc_world_clear_error((fx)->w);                                                                                 \
        int calls_ = (fx)->errs.calls;                                                                                 \
        bool value_ = (expr);                                                                                          \
        refused((fx), &before_, calls_, value_, (fname), #expr, __LINE__);                                             \
        ws_snapshot_free(&before_);                                                                                    \
    } while (0)

static const rc_mass_data EASY = {0.0f, 2.0f, {0.0f, 0.0f}, 0.5f}; /* mass 2, inertia 0.5 */

/* ---- forces ------------------------------------------------------------------------------------ */

START_TEST(force_to_center_integrates_exactly_and_is_used_up) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_id b = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0), 0.5f, 2.0f); /* mass 2 */
    ck_assert_float_eq(rc_body_mass(fx.w, b), 2.0f);
    /* two pushes add up before the step: (3, 1) + (5, -1) = (8, 0) */
    ck_assert(rc_body_apply_force_to_center(fx.w, b, rc_v2(3, 1)));
    ck_assert(rc_body_apply_force(fx.w, b, rc_v2(5, -1), rc_body_world_center(fx.w, b)));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0.5f, 0);
    ck_assert_vec_eq(rc_body_position(fx.w, b), 0.0390625f, 0);
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), 0.0f);
    /* used up: the next step coasts at 0.5 */
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0.5f, 0);
    ck_assert_vec_eq(rc_body_position(fx.w, b), 0.0390625f + 0.0625f, 0);
    /* a steady push, applied every step: n steps reach v = n dt F / m */
    for (int n = 1; n <= 10; ++n) {
        ck_assert(rc_body_apply_force_to_center(fx.w, b, rc_v2(0, -16)));
        ck_assert(rc_world_step(fx.w, DT));
        ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0.5f, -1.0f * (float)n);
    }
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(force_against_gravity_holds_a_body) {
    fixture fx;
    fx_init(&fx, rc_v2(0, -10));
    rc_body_id b = fx_body(&fx, RC_DYNAMIC, rc_v2(3, 7), 0.5f, 2.0f);
    for (int n = 0; n < 20; ++n) {
        ck_assert(rc_body_apply_force_to_center(fx.w, b, rc_v2(0, 20))); /* m g */
        ck_assert(rc_world_step(fx.w, 1.0f / 60.0f));
    }
    ck_assert_vec_eq(rc_body_position(fx.w, b), 3, 7);
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0, 0);
    ck_assert(rc_world_step(fx.w, 1.0f / 60.0f)); /* without it: falls */
    ck_assert(rc_body_linear_velocity(fx.w, b).y < 0.0f);
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(force_at_a_point_turns_by_r_cross_f) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_id b = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0), 0.5f, 1.0f);
    ck_assert(rc_body_set_mass_data(fx.w, b, EASY));
    /* (0, 4) at 1 to the right of the centre: torque 4, angular acceleration 8; a = (0, 2) */
    ck_assert(rc_body_apply_force(fx.w, b, rc_v2(0, 4), rc_v2(1, 0)));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0, 0.25f);
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), 1.0f);
    /* turned by h^2 alpha (1 + 2 + 3 + 4) = 80 / 1024 */
    ck_assert_float_eq(rc_body_angle(fx.w, b), 0.078125f);
    /* a torque alone: -2 gives -4 rad/s^2, so -0.5 rad/s more in a step */
    ck_assert(rc_body_apply_torque(fx.w, b, -2.0f));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), 0.5f);
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0, 0.25f);
    /* on a turned body with its centre of mass off its origin: a body at (10, 0) turned a
       quarter, centre (1, 0) in its frame, is at (10, 1); (2, 0) at (10, 3) has the arm (0, 2)
       and the torque 0 * 0 - 2 * 2 = -4 */
    rc_body_id c = fx_body(&fx, RC_DYNAMIC, rc_v2(10, 0), 0.5f, 1.0f);
    ck_assert(rc_body_set_transform(fx.w, c, rc_v2(10, 0), 0.5f * RC_PI));
    rc_mass_data off = EASY;
    off.center = rc_v2(1, 0);
    ck_assert(rc_body_set_mass_data(fx.w, c, off));
    ck_assert_vec_near(rc_body_world_center(fx.w, c), 10, 1, 1e-6);
    ck_assert(rc_body_apply_force(fx.w, c, rc_v2(2, 0), rc_v2(10, 3)));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_near(rc_body_angular_velocity(fx.w, c), -1.0, 1e-6);
    ck_assert_near(rc_body_linear_velocity(fx.w, c).x, 0.125, 1e-6); /* the centre's, 1 dt F / m */
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(force_bends_a_grenade_and_a_detection_only_body) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    /* a grenade (one circle) with mass 2: the chord of its parabola, dt (0 + kick / 2) */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(-5, 5);
    rc_body_id g = rc_body_create(fx.w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(fx.w, g, &sd, 0.5f)));
    ck_assert_int_eq(rc_body_get_motion(fx.w, g), RC_MOTION_SWEPT_CIRCLE);
    ck_assert(rc_body_set_mass_data(fx.w, g, EASY));
    ck_assert(rc_body_apply_force_to_center(fx.w, g, rc_v2(8, 0)));
    ck_assert(rc_body_apply_torque(fx.w, g, 1.0f));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, g), 0.5f, 0);
    ck_assert_vec_eq(rc_body_position(fx.w, g), -5.0f + 0.03125f, 5);
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, g), 0.25f);
    ck_assert(rc_world_step(fx.w, DT)); /* used up */
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, g), 0.5f, 0);
    ck_assert_vec_eq(rc_body_position(fx.w, g), -5.0f + 0.03125f + 0.0625f, 5);
    /* a body that only detects: its velocity by the same dt F / m */
    bd.position = rc_v2(5, 5);
    bd.enable_response = false;
    rc_body_id d = rc_body_create(fx.w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(fx.w, d, &sd, 0.5f, 0.5f)));
    ck_assert(rc_body_set_mass_data(fx.w, d, EASY));
    ck_assert(rc_body_apply_force(fx.w, d, rc_v2(0, -8), rc_v2(4, 5))); /* torque 1 * 8 */
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, d), 0, -0.5f);
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, d), 2.0f);
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(angular_impulse_changes_spin_by_j_over_i) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_id b = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0), 0.5f, 2.0f); /* I = 2 (1 + 1) / 12 = 1/3 */
    ck_assert(rc_body_apply_angular_impulse(fx.w, b, 1.0f));
    ck_assert_near(rc_body_angular_velocity(fx.w, b), 3.0, 3e-6);
    ck_assert(rc_body_apply_angular_impulse(fx.w, b, -2.0f));
    ck_assert_near(rc_body_angular_velocity(fx.w, b), -3.0, 6e-6);
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0, 0);
    ck_assert(rc_body_set_mass_data(fx.w, b, EASY));
    ck_assert(rc_body_set_angular_velocity(fx.w, b, 0.0f));
    ck_assert(rc_body_apply_angular_impulse(fx.w, b, 0.75f));
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), 1.5f);
    /* held to the world's speed limit (default 1e5 rad/s) */
    ck_assert(rc_body_apply_angular_impulse(fx.w, b, 1e30f));
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), rc_world_default_def().max_angular_speed);
    /* a body that does not turn (inertia 0) takes none */
    rc_mass_data still = EASY;
    still.rotational_inertia = 0.0f;
    ck_assert(rc_body_set_mass_data(fx.w, b, still));
    ck_assert(rc_body_set_angular_velocity(fx.w, b, 0.0f));
    ck_assert(rc_body_apply_angular_impulse(fx.w, b, 5.0f));
    ck_assert(rc_body_apply_torque(fx.w, b, 5.0f));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), 0.0f);
    ck_assert_float_eq(rc_body_angle(fx.w, b), 0.0f);
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(forces_and_impulses_wake_sleeping_bodies) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    for (int k = 0; k < 4; ++k) {
        rc_body_id b = fx_body(&fx, RC_DYNAMIC, rc_v2(3.0f * (float)k, 0), 0.5f, 1.0f);
        ck_assert(rc_body_set_awake(fx.w, b, false));
        ck_assert(rc_world_step(fx.w, DT));
        ck_assert(!rc_body_is_awake(fx.w, b));
        bool ok = k == 0   ? rc_body_apply_force(fx.w, b, rc_v2(1, 0), rc_v2(0, 1))
                  : k == 1 ? rc_body_apply_force_to_center(fx.w, b, rc_v2(0, 1))
                  : k == 2 ? rc_body_apply_torque(fx.w, b, 1.0f)
                           : rc_body_apply_angular_impulse(fx.w, b, 1.0f);
        ck_assert(ok);
        ck_assert_msg(rc_body_is_awake(fx.w, b), "call %d did not wake the body", k);
    }
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(forces_refuse_bad_input) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_id dyn = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0), 0.5f, 1.0f);
    rc_body_id stat = fx_body(&fx, RC_STATIC, rc_v2(5, 0), 0.5f, 1.0f);
    rc_body_id kin = fx_body(&fx, RC_KINEMATIC, rc_v2(-5, 0), 0.5f, 1.0f);
    rc_body_id stale = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 9), 0.0f, 1.0f);
    rc_body_destroy(fx.w, stale);
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        float x = bad[k];
        REFUSE(&fx, "rc_body_apply_force", !rc_body_apply_force(fx.w, dyn, rc_v2(x, 0), rc_v2(0, 0)));
        REFUSE(&fx, "rc_body_apply_force", !rc_body_apply_force(fx.w, dyn, rc_v2(0, x), rc_v2(0, 0)));
        REFUSE(&fx, "rc_body_apply_force", !rc_body_apply_force(fx.w, dyn, rc_v2(1, 0), rc_v2(x, 0)));
        REFUSE(&fx, "rc_body_apply_force", !rc_body_apply_force(fx.w, dyn, rc_v2(1, 0), rc_v2(0, x)));
        REFUSE(&fx, "rc_body_apply_force_to_center", !rc_body_apply_force_to_center(fx.w, dyn, rc_v2(x, 1)));
        REFUSE(&fx, "rc_body_apply_torque", !rc_body_apply_torque(fx.w, dyn, x));
        REFUSE(&fx, "rc_body_apply_angular_impulse", !rc_body_apply_angular_impulse(fx.w, dyn, x));
    }
    rc_body_id wrong[3] = {stat, kin, stale};
    for (int k = 0; k < 3; ++k) {
        REFUSE(&fx, "rc_body_apply_force", !rc_body_apply_force(fx.w, wrong[k], rc_v2(1, 0), rc_v2(0, 0)));
        REFUSE(&fx, "rc_body_apply_force_to_center", !rc_body_apply_force_to_center(fx.w, wrong[k], rc_v2(1, 0)));
        REFUSE(&fx, "rc_body_apply_torque", !rc_body_apply_torque(fx.w, wrong[k], 1.0f));
        REFUSE(&fx, "rc_body_apply_angular_impulse", !rc_body_apply_angular_impulse(fx.w, wrong[k], 1.0f));
    }
    REFUSE(&fx, "rc_body_apply_torque", !rc_body_apply_torque(fx.w, RC_NULL_BODY_ID, 1.0f));
    ck_assert(!rc_body_apply_force(NULL, dyn, rc_v2(1, 0), rc_v2(0, 0)) && !rc_body_apply_torque(NULL, dyn, 1.0f));
    ck_assert(!rc_body_apply_force_to_center(NULL, dyn, rc_v2(1, 0)) && !rc_body_apply_angular_impulse(NULL, dyn, 1));
    /* sums beyond float range: the second push is refused and the first one stays, as a twin
       body given only the first shows after a step */
    rc_body_id twin = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 30), 0.5f, 1.0f);
    (void)fx_body(&fx, RC_STATIC, rc_v2(5, 30), 0.5f, 1.0f); /* stops it as `stat` stops dyn */
    ck_assert(rc_body_set_mass_data(fx.w, dyn, EASY) && rc_body_set_mass_data(fx.w, twin, EASY));
    ck_assert(rc_body_apply_force_to_center(fx.w, dyn, rc_v2(3e38f, 0)));
    ck_assert(rc_body_apply_force_to_center(fx.w, twin, rc_v2(3e38f, 0)));
    REFUSE(&fx, "rc_body_apply_force_to_center", !rc_body_apply_force_to_center(fx.w, dyn, rc_v2(1e38f, 0)));
    ck_assert(rc_body_apply_torque(fx.w, dyn, -3e38f) && rc_body_apply_torque(fx.w, twin, -3e38f));
    REFUSE(&fx, "rc_body_apply_torque", !rc_body_apply_torque(fx.w, dyn, -1e38f));
    /* a force far off the centre whose torque alone leaves float range */
    REFUSE(&fx, "rc_body_apply_force", !rc_body_apply_force(fx.w, dyn, rc_v2(0, 1e30f), rc_v2(1e10f, 0)));
    ck_assert(rc_world_step(fx.w, 1.0f / 64.0f));
    rc_vec2 v = rc_body_linear_velocity(fx.w, dyn), vt = rc_body_linear_velocity(fx.w, twin);
    ck_assert(v.x == vt.x && v.y == vt.y && rc_body_angular_velocity(fx.w, dyn) == rc_body_angular_velocity(fx.w, twin));
    /* and the speed limits hold (driven at the static box at the speed limit, dyn is brought back
       to its first touch of it almost at once: the velocity the force gave it in the rest of
       the step is taken back, none is left it there; its twin meets a box alike) */
    ck_assert(v.x <= rc_world_default_def().max_linear_speed && v.x >= 0.0f);
    /* a prop turns at most a quarter turn per sub-step in the solver: 0.25 pi / (dt / 4) */
    float quarter_turns = 0.25f * 3.14159265f / ((1.0f / 64.0f) / 4.0f);
    ck_assert_float_eq_tol(rc_body_angular_velocity(fx.w, dyn),
                           -fminf(quarter_turns, rc_world_default_def().max_angular_speed), 1e-3f);
    rc_world_destroy(fx.w);
}
END_TEST

/* ---- mass data ---------------------------------------------------------------------------------- */

static void assert_mass_data(rc_mass_data m, float mass, float cx, float cy, float inertia, float area, int line) {
    ck_assert_msg(fabsf(m.mass - mass) <= 1e-6f * mass && fabsf(m.center.x - cx) <= 1e-6f &&
                      fabsf(m.center.y - cy) <= 1e-6f && fabsf(m.rotational_inertia - inertia) <= 1e-6f * inertia &&
                      fabsf(m.area - area) <= 1e-6f * area,
                  "line %d: mass %.9g centre (%.9g, %.9g) inertia %.9g area %.9g; expected %g (%g, %g) %g %g", line,
                  (double)m.mass, (double)m.center.x, (double)m.center.y, (double)m.rotational_inertia,
                  (double)m.area, (double)mass, (double)cx, (double)cy, (double)inertia, (double)area);
}
#define ASSERT_MASS(m, mass, cx, cy, inertia, area) assert_mass_data((m), (mass), (cx), (cy), (inertia), (area), __LINE__)

START_TEST(mass_data_from_shapes_and_set_by_the_game) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    /* a 2 x 1 box of density 3 centred at (1, 0) in the body frame: mass 6, inertia
       6 (4 + 1) / 12 = 2.5, area 2 */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(4, -2);
    bd.linear_velocity = rc_v2(1, 0);
    bd.angular_velocity = 2.0f;
    rc_body_id b = rc_body_create(fx.w, &bd);
    fx.bodies[fx.nb++] = b;
    rc_shape_def sd = rc_shape_default_def();
    sd.density = 3.0f;
    sd.offset = rc_v2(1, 0);
    fx.shapes[fx.ns++] = rc_shape_create_box(fx.w, b, &sd, 1.0f, 0.5f);
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 6, 1, 0, 2.5f, 2);
    /* set: read back as given (area from the shapes); the centre moved from (1, 0) to (0, 0) in
       the body frame, the velocity of the new centre is v + w x (-1, 0) = (1, -2), so that the
       body moves as before */
    rc_vec2 origin_velocity_before = rc_add(rc_v2(1, 0), rc_v2(0.0f, 2.0f * -1.0f));
    rc_mass_data set = {123.0f, 4.0f, {0.0f, 0.0f}, 0.75f};
    ck_assert(rc_body_set_mass_data(fx.w, b, set));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 4, 0, 0, 0.75f, 2);
    ck_assert_float_eq(rc_body_mass(fx.w, b), 4.0f);
    ck_assert_float_eq(rc_body_rotational_inertia(fx.w, b), 0.75f);
    ck_assert_vec_eq(rc_body_world_center(fx.w, b), 4, -2);
    ck_assert_vec_eq(rc_body_position(fx.w, b), 4, -2);
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 1, -2);
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), origin_velocity_before.x, origin_velocity_before.y);
    ck_assert_float_eq(rc_body_angular_velocity(fx.w, b), 2.0f);
    /* holds through steps, teleports, velocities, flags */
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert(rc_body_set_transform(fx.w, b, rc_v2(0, 0), 0.0f));
    ck_assert(rc_body_set_linear_velocity(fx.w, b, rc_v2(0, 0)));
    ck_assert(rc_body_set_gravity_scale(fx.w, b, 2.0f));
    ck_assert(rc_body_set_enable_response(fx.w, b, false));
    ck_assert(rc_body_set_enable_response(fx.w, b, true));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 4, 0, 0, 0.75f, 2);
    /* until the shapes change: a new shape, a density, a base transform, a destroyed shape, or
       the type */
    sd.offset = rc_v2(-1, 0);
    rc_shape_id second = rc_shape_create_box(fx.w, b, &sd, 1.0f, 0.5f);
    ck_assert(!rc_shape_id_is_null(second));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 12, 0, 0, 2.0f * 2.5f + 12.0f, 4); /* parallel axis: 2 (2.5 + 6 1^2) */
    ck_assert(rc_body_set_mass_data(fx.w, b, set));
    ck_assert(rc_shape_set_density(fx.w, second, 1.0f));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 8, 0.5f, 0, 2.5f + 6.0f * 0.25f + 2.5f / 3.0f + 2.0f * 2.25f, 4);
    ck_assert(rc_body_set_mass_data(fx.w, b, set));
    ck_assert(rc_shape_set_base_transform(fx.w, second, rc_v2(1, 0), 0.0f, rc_v2(1, 1)));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 8, 1, 0, 2.5f + 2.5f / 3.0f, 4);
    ck_assert(rc_body_set_mass_data(fx.w, b, set));
    rc_shape_destroy(fx.w, second);
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 6, 1, 0, 2.5f, 2);
    ck_assert(rc_body_set_mass_data(fx.w, b, set));
    ck_assert(rc_body_set_type(fx.w, b, RC_KINEMATIC) && rc_body_set_type(fx.w, b, RC_DYNAMIC));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 6, 1, 0, 2.5f, 2);
    /* static and kinematic bodies have no mass (their shapes' area is still reported) */
    rc_body_id s = fx_body(&fx, RC_STATIC, rc_v2(0, 10), 0.5f, 1.0f);
    rc_mass_data sm = rc_body_mass_data(fx.w, s);
    ck_assert(sm.mass == 0.0f && sm.rotational_inertia == 0.0f && sm.area == 1.0f);
    rc_world_destroy(fx.w);
}
END_TEST

/* Regression: rc_body_set_enable_response and rc_body_set_bullet recomputed the mass from the
 * shapes, throwing away the mass the game had set, though world.h keeps it "until the body's
 * shapes or type change". */
START_TEST(regression_flags_keep_the_mass_the_game_set) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    rc_body_id b = rc_body_create(fx.w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(fx.w, b, &sd, 0.5f)));
    rc_mass_data set = {0.0f, 4.0f, {0.25f, 0.0f}, 0.75f};
    ck_assert(rc_body_set_mass_data(fx.w, b, set));
    ck_assert(rc_body_set_enable_response(fx.w, b, false));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 4, 0.25f, 0, 0.75f, 0.25f * RC_PI);
    ck_assert_int_eq(rc_body_get_motion(fx.w, b), RC_MOTION_FREE);
    ck_assert(rc_body_set_enable_response(fx.w, b, true));
    ck_assert_int_eq(rc_body_get_motion(fx.w, b), RC_MOTION_SWEPT_CIRCLE);
    ck_assert(rc_body_set_bullet(fx.w, b, true));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 4, 0.25f, 0, 0.75f, 0.25f * RC_PI);
    ck_assert(rc_body_set_bullet(fx.w, b, false));
    ASSERT_MASS(rc_body_mass_data(fx.w, b), 4, 0.25f, 0, 0.75f, 0.25f * RC_PI);
    /* and the step moves it by that mass: F / m = 8 / 4 */
    ck_assert(rc_body_apply_force_to_center(fx.w, b, rc_v2(8, 0)));
    ck_assert(rc_world_step(fx.w, DT));
    ck_assert_vec_eq(rc_body_linear_velocity(fx.w, b), 0.25f, 0);
    rc_world_destroy(fx.w);
}
END_TEST

START_TEST(set_mass_data_refuses_bad_input) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_id dyn = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0), 0.5f, 1.0f);
    rc_body_id stat = fx_body(&fx, RC_STATIC, rc_v2(5, 0), 0.5f, 1.0f);
    rc_body_id kin = fx_body(&fx, RC_KINEMATIC, rc_v2(-5, 0), 0.5f, 1.0f);
    rc_body_id far = fx_body(&fx, RC_DYNAMIC, rc_v2(1e18f, 0), 0.5f, 1.0f);
    const char *fn = "rc_body_set_mass_data";
    const float masses[] = {0.0f, -1.0f, 0.5f * FLT_MIN, 2.0f * RC_MAX_MASS, NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof masses / sizeof masses[0]; ++k) {
        rc_mass_data m = EASY;
        m.mass = masses[k];
        REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, dyn, m));
    }
    const float inertias[] = {-1.0f, -FLT_MIN, 2.0f * RC_MAX_ROTATIONAL_INERTIA, NAN, INFINITY};
    for (size_t k = 0; k < sizeof inertias / sizeof inertias[0]; ++k) {
        rc_mass_data m = EASY;
        m.rotational_inertia = inertias[k];
        REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, dyn, m));
    }
    rc_mass_data m = EASY;
    m.center.x = NAN;
    REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, dyn, m));
    m.center = rc_v2(0, -INFINITY);
    REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, dyn, m));
    m.center = rc_v2(2e17f, 0); /* 1.2e18 in the world: beyond RC_WORLD_LIMIT (within RC_BODY_REACH) */
    REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, far, m));
    REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, stat, EASY));
    REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, kin, EASY));
    REFUSE(&fx, fn, !rc_body_set_mass_data(fx.w, RC_NULL_BODY_ID, EASY));
    REFUSE(&fx, "rc_body_mass_data", rc_body_mass_data(fx.w, RC_NULL_BODY_ID).mass == 0.0f);
    ck_assert(!rc_body_set_mass_data(NULL, dyn, EASY));
    /* the ends of the ranges are taken */
    m = EASY;
    m.mass = FLT_MIN;
    ck_assert(rc_body_set_mass_data(fx.w, dyn, m));
    m.mass = RC_MAX_MASS;
    m.rotational_inertia = RC_MAX_ROTATIONAL_INERTIA;
    ck_assert(rc_body_set_mass_data(fx.w, dyn, m));
    ASSERT_MASS(rc_body_mass_data(fx.w, dyn), RC_MAX_MASS, 0, 0, RC_MAX_ROTATIONAL_INERTIA, 1);
    rc_world_destroy(fx.w);
}
END_TEST

/* A shape with a density on a dynamic body must weigh something: a polygon 1e-30 across (no area
 * in float), or a 3e-20 box (a denormal mass), is refused wherever it would reach a dynamic body,
 * with a message that says why; a static body may hold one, and density 0 stays allowed. */
START_TEST(a_dynamic_body_refuses_shapes_that_weigh_nothing) {
    fixture fx;
    fx_init(&fx, rc_v2(0, 0));
    rc_body_id dyn = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0), 0.5f, 1.0f);
    rc_body_id stat = fx_body(&fx, RC_STATIC, rc_v2(5, 0), 0.0f, 1.0f);
    rc_shape_def sd = rc_shape_default_def();
    const rc_vec2 tiny[3] = {{0.0f, 0.0f}, {1e-30f, 0.0f}, {0.0f, 1e-30f}};
    REFUSE(&fx, "rc_shape_create_polygon", rc_shape_id_is_null(rc_shape_create_polygon(fx.w, dyn, &sd, tiny, 3)));
    ck_assert(strstr(rc_world_last_error(fx.w), "must have an area") != NULL);
    REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(fx.w, dyn, &sd, 1e-30f, 1e-30f)));
    REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(fx.w, dyn, &sd, 3e-20f, 3e-20f)));
    REFUSE(&fx, "rc_shape_create_circle", rc_shape_id_is_null(rc_shape_create_circle(fx.w, dyn, &sd, 1e-30f)));
    rc_shape_def light = sd;
    light.density = 1e-39f; /* a normal area, a denormal mass */
    REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(fx.w, dyn, &light, 1.0f, 1.0f)));
    /* the dynamic body kept its one box: mass 1 (1 x 1 at density 1) */
    ck_assert_float_eq(rc_body_mass_data(fx.w, dyn).mass, 1.0f);
    /* density 0 weighs nothing by choice; a static body holds a weightless box */
    light.density = 0.0f;
    rc_shape_id zero = rc_shape_create_box(fx.w, dyn, &light, 1e-30f, 1e-30f);
    ck_assert(!rc_shape_id_is_null(zero));
    fx.shapes[fx.ns++] = zero;
    rc_shape_id dust = rc_shape_create_box(fx.w, stat, &sd, 1e-30f, 1e-30f);
    ck_assert(!rc_shape_id_is_null(dust));
    fx.shapes[fx.ns++] = dust;
    /* ... which it may not take into a dynamic body, nor be given a density there */
    REFUSE(&fx, "rc_body_set_type", !rc_body_set_type(fx.w, stat, RC_DYNAMIC));
    ck_assert(strstr(rc_world_last_error(fx.w), "must have an area") != NULL);
    REFUSE(&fx, "rc_shape_set_density", !rc_shape_set_density(fx.w, zero, 1.0f));
    REFUSE(&fx, "rc_shape_set_density", !rc_shape_set_density(fx.w, fx.shapes[0], 1e-39f));
    rc_world_destroy(fx.w);
}
END_TEST

/* ---- move events -------------------------------------------------------------------------------- */

START_TEST(move_events_list_what_moved_once_in_body_order) {
    fixture fx;
    fx_init(&fx, rc_v2(0, -10));
    const rc_body_move_event *ev = (const rc_body_move_event *)&fx; /* not NULL: must be written */
    ck_assert_int_eq(rc_world_body_move_events(fx.w, &ev), 0); /* before any step */
    ck_assert_ptr_null(ev);
    int tag[8];
    rc_body_id ground = fx_body(&fx, RC_STATIC, rc_v2(0, -1), 0.0f, 1.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(fx.w, ground, &sd, 50.0f, 1.0f)));
    rc_body_id faller = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 20), 0.5f, 1.0f);
    rc_body_id sleeper = fx_body(&fx, RC_DYNAMIC, rc_v2(10, 20), 0.5f, 1.0f);
    ck_assert(rc_body_set_awake(fx.w, sleeper, false));
    rc_body_id kin = fx_body(&fx, RC_KINEMATIC, rc_v2(-10, 5), 0.5f, 1.0f);
    ck_assert(rc_body_set_linear_velocity(fx.w, kin, rc_v2(1, 0)));
    rc_body_id still_kin = fx_body(&fx, RC_KINEMATIC, rc_v2(-20, 5), 0.5f, 1.0f);
    rc_body_id floater = fx_body(&fx, RC_DYNAMIC, rc_v2(20, 20), 0.5f, 1.0f);
    ck_assert(rc_body_set_gravity_scale(fx.w, floater, 0.0f)); /* awake, but nothing moves it */
    rc_body_id grenade = ws_circle_body(fx.w, rc_v2(30, 20), rc_v2(2, 0), 0.25f, 0.0f, 0.6f, false);
    rc_body_id ids[3] = {faller, kin, grenade};
    for (int i = 0; i < 3; ++i) {
        ck_assert(rc_body_set_user_data(fx.w, ids[i], &tag[i]));
    }
    ck_assert(rc_world_step(fx.w, 1.0f / 60.0f));
    int n = rc_world_body_move_events(fx.w, &ev);
    ck_assert_int_eq(n, 3);
    for (int i = 0; i < 3; ++i) {
        ck_assert_msg(rc_body_id_equals(ev[i].body, ids[i]), "event %d names another body", i);
        rc_transform xf = rc_body_transform(fx.w, ids[i]);
        ck_assert(memcmp(&ev[i].transform, &xf, sizeof xf) == 0);
        ck_assert(ev[i].user_data == &tag[i] && !ev[i].fell_asleep);
    }
    /* the same list until the next step; a refused step changes nothing */
    const rc_body_move_event *again;
    ck_assert(!rc_world_step(fx.w, 0.0f));
    ck_assert_int_eq(rc_world_body_move_events(fx.w, &again), 3);
    ck_assert_ptr_eq(again, ev);
    (void)still_kin;
    /* the faller lands and falls asleep: reported asleep once, then never */
    int asleep_reports = 0, steps = 0;
    ck_assert(rc_body_set_linear_velocity(fx.w, kin, rc_v2(0, 0)));
    ck_assert(rc_body_set_linear_velocity(fx.w, grenade, rc_v2(0, 0)));
    ck_assert(rc_body_set_gravity_scale(fx.w, grenade, 0.0f));
    for (; steps < 600 && rc_body_is_awake(fx.w, faller); ++steps) {
        ck_assert(rc_world_step(fx.w, 1.0f / 60.0f));
        n = rc_world_body_move_events(fx.w, &ev);
        for (int i = 0; i < n; ++i) {
            ck_assert(!rc_body_id_equals(ev[i].body, ground) && !rc_body_id_equals(ev[i].body, sleeper));
            ck_assert(i == 0 || ev[i - 1].body.index < ev[i].body.index); /* body order, once each */
            asleep_reports += ev[i].fell_asleep && rc_body_id_equals(ev[i].body, faller);
        }
    }
    ck_assert_msg(!rc_body_is_awake(fx.w, faller), "the faller never slept");
    ck_assert_int_eq(asleep_reports, 1);
    for (int k = 0; k < 30; ++k) {
        ck_assert(rc_world_step(fx.w, 1.0f / 60.0f));
        n = rc_world_body_move_events(fx.w, &ev);
        for (int i = 0; i < n; ++i) {
            ck_assert(!rc_body_id_equals(ev[i].body, faller));
        }
    }
    /* bad arguments */
    rc_world_clear_error(fx.w);
    ck_assert_int_eq(rc_world_body_move_events(fx.w, NULL), -1);
    ck_assert(strstr(rc_world_last_error(fx.w), "rc_world_body_move_events") != NULL);
    ck_assert_int_eq(rc_world_body_move_events(NULL, &ev), -1);
    rc_world_destroy(fx.w);
}
END_TEST

static Suite *forces_suite(void) {
    Suite *s = suite_create("body_forces");
    TCase *tc = tcase_create("forces");
    tcase_add_test(tc, force_to_center_integrates_exactly_and_is_used_up);
    tcase_add_test(tc, force_against_gravity_holds_a_body);
    tcase_add_test(tc, force_at_a_point_turns_by_r_cross_f);
    tcase_add_test(tc, force_bends_a_grenade_and_a_detection_only_body);
    tcase_add_test(tc, angular_impulse_changes_spin_by_j_over_i);
    tcase_add_test(tc, forces_and_impulses_wake_sleeping_bodies);
    tcase_add_test(tc, forces_refuse_bad_input);
    suite_add_tcase(s, tc);
    tc = tcase_create("mass_data");
    tcase_add_test(tc, mass_data_from_shapes_and_set_by_the_game);
    tcase_add_test(tc, regression_flags_keep_the_mass_the_game_set);
    tcase_add_test(tc, set_mass_data_refuses_bad_input);
    tcase_add_test(tc, a_dynamic_body_refuses_shapes_that_weigh_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("move_events");
    tcase_add_test(tc, move_events_list_what_moved_once_in_body_order);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(forces_suite()); }
