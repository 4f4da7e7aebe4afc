/* Forces, torques, angular impulses, custom mass data and move events, against the integrator's
 * arithmetic: with no gravity, a force F on a body of mass m for one step of dt adds dt F / m to
 * its velocity (sub-step by sub-step: h F / m, sub_steps times), a torque T adds dt T / I, an
 * angular impulse J adds J / I at once. The test body is a 1 x 1 box of density 2: mass 2,
 * rotational inertia m (w^2 + h^2) / 12 = 1/3. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

static rc_body_id crate(rc_world *w, rc_vec2 p) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = p;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.density = 2.0f;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    return b;
}

/* A force on the centre for ten steps: v = 10 dt F / m; applied once, it acts for one step
 * only (used up). At an offset point it also turns the body: r x F. */
START_TEST(forces_act_for_one_step_at_their_point) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = crate(w, rc_v2(0, 0));
    ck_assert_float_eq_tol(rc_body_mass(w, b), 2.0f, 1e-6f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b), 1.0f / 3.0f, 1e-6f);
    for (int i = 0; i < 10; ++i) {
        ck_assert(rc_body_apply_force_to_center(w, b, rc_v2(4, 0)));
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert_double_eq_tol(rc_body_linear_velocity(w, b).x, 10.0 * DT * 4.0 / 2.0, 1e-5);
    ck_assert_float_eq(rc_body_linear_velocity(w, b).y, 0.0f);
    ck_assert_float_eq(rc_body_angular_velocity(w, b), 0.0f);
    float v = rc_body_linear_velocity(w, b).x;
    ck_assert(rc_world_step(w, DT)); /* no force this step: the velocity stays */
    ck_assert_float_eq(rc_body_linear_velocity(w, b).x, v);

    rc_body_id c = crate(w, rc_v2(10, 0));
    /* (0, 3) at one unit right of the centre: a torque of 3 as well */
    ck_assert(rc_body_apply_force(w, c, rc_v2(0, 3), rc_v2(11, 0)));
    ck_assert(rc_body_apply_force(w, c, rc_v2(0, 3), rc_v2(11, 0))); /* they add up */
    ck_assert(rc_world_step(w, DT));
    ck_assert_double_eq_tol(rc_body_linear_velocity(w, c).y, DT * 6.0 / 2.0, 1e-6);
    ck_assert_double_eq_tol(rc_body_angular_velocity(w, c), DT * 6.0 * 3.0, 1e-5);
    rc_world_destroy(w);
}
END_TEST

/* A torque turns it by dt T / I in a step; an angular impulse by J / I at once. Both wake a
 * sleeping body. */
START_TEST(torques_and_angular_impulses) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = crate(w, rc_v2(0, 0));
    ck_assert(rc_body_apply_torque(w, b, 2.0f));
    ck_assert(rc_world_step(w, DT));
    ck_assert_double_eq_tol(rc_body_angular_velocity(w, b), DT * 2.0 * 3.0, 1e-5);
    rc_body_id c = crate(w, rc_v2(5, 0));
    ck_assert(rc_body_set_awake(w, c, false));
    ck_assert(rc_body_apply_angular_impulse(w, c, 0.5f));
    ck_assert(rc_body_is_awake(w, c));
    ck_assert_double_eq_tol(rc_body_angular_velocity(w, c), 1.5, 1e-5);
    rc_body_id d = crate(w, rc_v2(10, 0));
    ck_assert(rc_body_set_awake(w, d, false));
    ck_assert(rc_body_apply_torque(w, d, 1.0f));
    ck_assert(rc_body_is_awake(w, d));
    rc_world_destroy(w);
}
END_TEST

/* Refused: non-finite values, static bodies, bad ids; each with a message, nothing changed. */
START_TEST(bad_forces_are_refused) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id b = crate(w, rc_v2(0, 0));
    rc_body_def sd = rc_body_default_def();
    rc_body_id wall = rc_body_create(w, &sd);
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        rc_world_clear_error(w);
        ck_assert(!rc_body_apply_force(w, b, rc_v2(bad[i], 0), rc_v2(0, 0)));
        ck_assert(strlen(rc_world_last_error(w)) > 0);
        ck_assert(!rc_body_apply_force(w, b, rc_v2(1, 0), rc_v2(0, bad[i])));
        ck_assert(!rc_body_apply_force_to_center(w, b, rc_v2(0, bad[i])));
        ck_assert(!rc_body_apply_torque(w, b, bad[i]));
        ck_assert(!rc_body_apply_angular_impulse(w, b, bad[i]));
    }
    /* sums that would leave float range */
    ck_assert(rc_body_apply_torque(w, b, FLT_MAX));
    ck_assert(!rc_body_apply_torque(w, b, FLT_MAX));
    rc_world_clear_error(w);
    ck_assert(!rc_body_apply_force_to_center(w, wall, rc_v2(1, 0)));
    ck_assert(strlen(rc_world_last_error(w)) > 0);
    ck_assert(!rc_body_apply_torque(w, wall, 1.0f));
    ck_assert(!rc_body_apply_force_to_center(w, (rc_body_id){77, 3}, rc_v2(1, 0)));
    rc_world_destroy(w);
}
END_TEST

/* Custom mass data: read back as set; the centre of mass moves without changing the motion;
 * a force then gives dt F / m with the new mass; bad values and static bodies are refused;
 * adding a shape computes it from the shapes again. */
START_TEST(custom_mass_data) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = crate(w, rc_v2(3, 4));
    rc_mass_data md = rc_body_mass_data(w, b);
    ck_assert_float_eq_tol(md.mass, 2.0f, 1e-6f);
    ck_assert_float_eq_tol(md.area, 1.0f, 1e-6f);
    ck_assert_float_eq_tol(md.rotational_inertia, 1.0f / 3.0f, 1e-6f);
    ck_assert_float_eq_tol(md.center.x, 0.0f, 1e-6f);
    rc_mass_data custom = {0.0f, 5.0f, {0.5f, 0.0f}, 3.0f};
    ck_assert(rc_body_set_mass_data(w, b, custom));
    rc_mass_data got = rc_body_mass_data(w, b);
    ck_assert_float_eq(got.mass, 5.0f);
    ck_assert_float_eq(got.rotational_inertia, 3.0f);
    ck_assert_float_eq(got.center.x, 0.5f);
    ck_assert_float_eq_tol(rc_body_world_center(w, b).x, 3.5f, 1e-6f);
    ck_assert_float_eq(rc_body_position(w, b).x, 3.0f); /* the body origin did not move */
    ck_assert(rc_body_apply_force_to_center(w, b, rc_v2(10, 0)));
    ck_assert(rc_world_step(w, DT));
    ck_assert_double_eq_tol(rc_body_linear_velocity(w, b).x, DT * 10.0 / 5.0, 1e-6);
    const rc_mass_data refused[] = {{0, 0.0f, {0, 0}, 1.0f},      {0, -1.0f, {0, 0}, 1.0f}, {0, NAN, {0, 0}, 1.0f},
                                    {0, 1.0f, {0, 0}, -1.0f},     {0, 1.0f, {0, 0}, INFINITY},
                                    {0, 1.0f, {NAN, 0}, 1.0f},    {0, 2e20f, {0, 0}, 1.0f}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
        rc_world_clear_error(w);
        ck_assert_msg(!rc_body_set_mass_data(w, b, refused[i]), "case %zu accepted", i);
        ck_assert(strlen(rc_world_last_error(w)) > 0);
        ck_assert_float_eq(rc_body_mass_data(w, b).mass, 5.0f);
    }
    rc_body_def sd = rc_body_default_def();
    rc_body_id wall = rc_body_create(w, &sd);
    ck_assert(!rc_body_set_mass_data(w, wall, custom));
    /* a new shape: the mass from the shapes again (two boxes of density 1: 1 + 1) */
    rc_shape_def more = rc_shape_default_def();
    more.offset = rc_v2(1, 0);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &more, 0.5f, 0.5f)));
    ck_assert_float_eq_tol(rc_body_mass(w, b), 3.0f, 1e-5f);
    rc_world_destroy(w);
}
END_TEST

/* Move events: a body that moved is listed once with its transform; a static body and a
 * sleeping one are not; the step a body falls asleep in lists it with fell_asleep. */
START_TEST(move_events_list_what_moved) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_def gd = rc_body_default_def();
    rc_body_id ground = rc_body_create(w, &gd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 10, 0.5f)));
    rc_body_id falling = crate(w, rc_v2(0, 3));
    rc_body_id resting = crate(w, rc_v2(5, 0.5f));
    const rc_body_move_event *ev = NULL;
    ck_assert_int_eq(rc_world_body_move_events(w, &ev), 0);
    ck_assert(rc_world_step(w, DT));
    int n = rc_world_body_move_events(w, &ev);
    bool saw_falling = false;
    for (int i = 0; i < n; ++i) {
        ck_assert(!rc_body_id_equals(ev[i].body, ground));
        if (rc_body_id_equals(ev[i].body, falling)) {
            ck_assert(!saw_falling);
            saw_falling = true;
            rc_transform xf = rc_body_transform(w, falling);
            ck_assert_float_eq(ev[i].transform.p.y, xf.p.y);
            ck_assert(ev[i].transform.p.y < 3.0f);
            ck_assert(!ev[i].fell_asleep);
        }
    }
    ck_assert(saw_falling);
    int asleep_events = 0, later_events = 0;
    bool asleep = false;
    for (int step = 0; step < 240; ++step) {
        ck_assert(rc_world_step(w, DT));
        n = rc_world_body_move_events(w, &ev);
        for (int i = 0; i < n; ++i) {
            if (rc_body_id_equals(ev[i].body, resting)) {
                later_events += asleep;
                asleep_events += ev[i].fell_asleep;
            }
        }
        asleep = asleep || !rc_body_is_awake(w, resting);
    }
    ck_assert(asleep);
    ck_assert_int_eq(asleep_events, 1);
    ck_assert_int_eq(later_events, 0);
    ck_assert_int_eq(rc_world_body_move_events(NULL, &ev), -1);
    ck_assert_int_eq(rc_world_body_move_events(w, NULL), -1);
    rc_world_destroy(w);
}
END_TEST

static Suite *forces_suite(void) {
    Suite *s = suite_create("forces");
    TCase *t = tcase_create("forces");
    tcase_add_test(t, forces_act_for_one_step_at_their_point);
    tcase_add_test(t, torques_and_angular_impulses);
    tcase_add_test(t, bad_forces_are_refused);
    tcase_add_test(t, custom_mass_data);
    tcase_add_test(t, move_events_list_what_moved);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return rc_test_run(forces_suite()); }
