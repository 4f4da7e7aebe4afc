/* Joints (include/ricochet/joint.h): setters (a joint of the wrong type, bad values: false, a
 * message, the error callback once, the world unchanged and the same as a twin when stepped;
 * good values taking effect) and allocation failure at every allocation of every create, and of
 * a step that wakes a body through a joint. */
#include "support/joint_scenes.h"

static const float bad_floats[] = {NAN, INFINITY, -INFINITY};
#define NBAD ((int)(sizeof bad_floats / sizeof bad_floats[0]))

/* ---- 14. setters ------------------------------------------------------------------------------- */

/* One joint of each type on the fixture's bodies, anchors where they meet. */
static void fx_add_one_of_each(fixture *fx) {
    rc_world *w = fx->w;
    rc_revolute_joint_def rd = rc_revolute_joint_default_def();
    rd.body_a = fx->stat;
    rd.body_b = fx->dyn;
    rd.local_anchor_a = rc_v2(0, 5);
    rc_distance_joint_def dd = rc_distance_joint_default_def();
    dd.body_a = fx->dyn;
    dd.body_b = fx->dyn2;
    dd.length = rc_distance(rc_body_position(w, fx->dyn), rc_body_position(w, fx->dyn2));
    rc_prismatic_joint_def pd = rc_prismatic_joint_default_def();
    pd.body_a = fx->stat2;
    pd.body_b = fx->dyn2;
    pd.local_anchor_a = local_point(w, fx->stat2, rc_body_position(w, fx->dyn2));
    pd.local_axis_a = rc_v2(1, 1);
    rc_weld_joint_def wd = rc_weld_joint_default_def();
    wd.body_a = fx->kin;
    wd.body_b = fx->sleeper;
    wd.local_anchor_b = local_point(w, fx->sleeper, rc_body_position(w, fx->kin)); /* a cantilever */
    rc_mouse_joint_def md = rc_mouse_joint_default_def();
    md.body = fx->dyn;
    md.target = rc_body_position(w, fx->dyn);
    fx->joints[fx->nj++] = rc_joint_create_revolute(w, &rd);
    fx->joints[fx->nj++] = rc_joint_create_distance(w, &dd);
    fx->joints[fx->nj++] = rc_joint_create_prismatic(w, &pd);
    fx->joints[fx->nj++] = rc_joint_create_weld(w, &wd);
    fx->joints[fx->nj++] = rc_joint_create_mouse(w, &md);
    for (int i = 0; i < 5; ++i) {
        ck_assert_msg(!rc_joint_id_is_null(fx->joints[i]), "%s", rc_world_last_error(w));
        ck_assert_int_eq(rc_joint_get_type(w, fx->joints[i]), (rc_joint_type)i);
    }
    /* moving, so that every setting shows: the hinge turns, the slider slides, the rod swings */
    ck_assert(rc_body_set_angular_velocity(w, fx->dyn, 3.0f));
    ck_assert(rc_body_set_linear_velocity(w, fx->dyn2, rc_v2(1.0f, 1.5f)));
    step(w, 2);
}

START_TEST(setters_refuse_wrong_types_and_bad_values) {
    fixture fx, twin;
    fx_init(&fx, false);
    fx_init(&twin, false);
    fx_add_one_of_each(&fx);
    fx_add_one_of_each(&twin);
    rc_world *w = fx.w;
    rc_joint_id rev = fx.joints[0], dist = fx.joints[1], pri = fx.joints[2], weld = fx.joints[3], mouse = fx.joints[4];
    rc_joint_id all[] = {rev, dist, pri, weld, mouse};
    /* every typed function on every joint of another type */
    for (int i = 0; i < 5; ++i) {
        rc_joint_id id = all[i];
        if (i != RC_REVOLUTE_JOINT) {
            REFUSE(&fx, "rc_revolute_joint_angle", rc_revolute_joint_angle(w, id) == 0.0f);
            REFUSE(&fx, "rc_revolute_joint_speed", rc_revolute_joint_speed(w, id) == 0.0f);
            REFUSE(&fx, "rc_revolute_joint_motor_torque", rc_revolute_joint_motor_torque(w, id) == 0.0f);
            REFUSE(&fx, "rc_revolute_joint_set_limits", !rc_revolute_joint_set_limits(w, id, true, -1, 1));
            REFUSE(&fx, "rc_revolute_joint_set_motor", !rc_revolute_joint_set_motor(w, id, true, 1, 1));
            REFUSE(&fx, "rc_revolute_joint_set_spring", !rc_revolute_joint_set_spring(w, id, true, 1, 1));
        }
        if (i != RC_DISTANCE_JOINT) {
            REFUSE(&fx, "rc_distance_joint_current_length", rc_distance_joint_current_length(w, id) == 0.0f);
            REFUSE(&fx, "rc_distance_joint_set_length", !rc_distance_joint_set_length(w, id, 1));
            REFUSE(&fx, "rc_distance_joint_set_limits", !rc_distance_joint_set_limits(w, id, true, 0, 1));
            REFUSE(&fx, "rc_distance_joint_set_spring", !rc_distance_joint_set_spring(w, id, true, 1, 1));
            REFUSE(&fx, "rc_distance_joint_set_motor", !rc_distance_joint_set_motor(w, id, true, 1, 1));
        }
        if (i != RC_PRISMATIC_JOINT) {
            REFUSE(&fx, "rc_prismatic_joint_translation", rc_prismatic_joint_translation(w, id) == 0.0f);
            REFUSE(&fx, "rc_prismatic_joint_speed", rc_prismatic_joint_speed(w, id) == 0.0f);
            REFUSE(&fx, "rc_prismatic_joint_set_limits", !rc_prismatic_joint_set_limits(w, id, true, -1, 1));
            REFUSE(&fx, "rc_prismatic_joint_set_motor", !rc_prismatic_joint_set_motor(w, id, true, 1, 1));
            REFUSE(&fx, "rc_prismatic_joint_set_spring", !rc_prismatic_joint_set_spring(w, id, true, 1, 1));
        }
        if (i != RC_WELD_JOINT) {
            REFUSE(&fx, "rc_weld_joint_set_springs", !rc_weld_joint_set_springs(w, id, 1, 1, 1, 1));
        }
        if (i != RC_MOUSE_JOINT) {
            REFUSE(&fx, "rc_mouse_joint_set_target", !rc_mouse_joint_set_target(w, id, rc_v2(1, 1)));
            REFUSE(&fx, "rc_mouse_joint_target", rc_vec2_equal(rc_mouse_joint_target(w, id), rc_v2(0, 0)));
        }
    }
    /* bad values */
    for (int k = 0; k < NBAD; ++k) {
        float v = bad_floats[k];
        REFUSE(&fx, "rc_revolute_joint_set_limits", !rc_revolute_joint_set_limits(w, rev, true, v, 1));
        REFUSE(&fx, "rc_revolute_joint_set_limits", !rc_revolute_joint_set_limits(w, rev, false, -1, v));
        REFUSE(&fx, "rc_revolute_joint_set_motor", !rc_revolute_joint_set_motor(w, rev, true, v, 1));
        REFUSE(&fx, "rc_revolute_joint_set_motor", !rc_revolute_joint_set_motor(w, rev, false, 1, v));
        REFUSE(&fx, "rc_revolute_joint_set_spring", !rc_revolute_joint_set_spring(w, rev, true, v, 1));
        REFUSE(&fx, "rc_revolute_joint_set_spring", !rc_revolute_joint_set_spring(w, rev, false, 1, v));
        REFUSE(&fx, "rc_distance_joint_set_length", !rc_distance_joint_set_length(w, dist, v));
        REFUSE(&fx, "rc_distance_joint_set_limits", !rc_distance_joint_set_limits(w, dist, true, v, 1));
        REFUSE(&fx, "rc_distance_joint_set_limits", !rc_distance_joint_set_limits(w, dist, false, 0, v));
        REFUSE(&fx, "rc_distance_joint_set_spring", !rc_distance_joint_set_spring(w, dist, true, v, 1));
        REFUSE(&fx, "rc_distance_joint_set_spring", !rc_distance_joint_set_spring(w, dist, true, 1, v));
        REFUSE(&fx, "rc_distance_joint_set_motor", !rc_distance_joint_set_motor(w, dist, true, v, 1));
        REFUSE(&fx, "rc_distance_joint_set_motor", !rc_distance_joint_set_motor(w, dist, true, 1, v));
        REFUSE(&fx, "rc_prismatic_joint_set_limits", !rc_prismatic_joint_set_limits(w, pri, true, v, 1));
        REFUSE(&fx, "rc_prismatic_joint_set_limits", !rc_prismatic_joint_set_limits(w, pri, true, -1, v));
        REFUSE(&fx, "rc_prismatic_joint_set_motor", !rc_prismatic_joint_set_motor(w, pri, true, v, 1));
        REFUSE(&fx, "rc_prismatic_joint_set_motor", !rc_prismatic_joint_set_motor(w, pri, true, 1, v));
        REFUSE(&fx, "rc_prismatic_joint_set_spring", !rc_prismatic_joint_set_spring(w, pri, true, v, 1));
        REFUSE(&fx, "rc_prismatic_joint_set_spring", !rc_prismatic_joint_set_spring(w, pri, true, 1, v));
        for (int arg = 0; arg < 4; ++arg) {
            float s[4] = {0, 2, 0, 2};
            s[arg] = v;
            REFUSE(&fx, "rc_weld_joint_set_springs", !rc_weld_joint_set_springs(w, weld, s[0], s[1], s[2], s[3]));
        }
        REFUSE(&fx, "rc_mouse_joint_set_target", !rc_mouse_joint_set_target(w, mouse, rc_v2(v, 0)));
        REFUSE(&fx, "rc_mouse_joint_set_target", !rc_mouse_joint_set_target(w, mouse, rc_v2(0, v)));
    }
    REFUSE(&fx, "rc_revolute_joint_set_limits", !rc_revolute_joint_set_limits(w, rev, true, 0.5f, 0.25f));
    REFUSE(&fx, "rc_revolute_joint_set_motor", !rc_revolute_joint_set_motor(w, rev, true, 1, -1e-30f));
    REFUSE(&fx, "rc_revolute_joint_set_spring", !rc_revolute_joint_set_spring(w, rev, true, -1, 1));
    REFUSE(&fx, "rc_revolute_joint_set_spring", !rc_revolute_joint_set_spring(w, rev, true, 1, -1));
    REFUSE(&fx, "rc_distance_joint_set_length", !rc_distance_joint_set_length(w, dist, 0.0f));
    REFUSE(&fx, "rc_distance_joint_set_length", !rc_distance_joint_set_length(w, dist, -2.0f));
    REFUSE(&fx, "rc_distance_joint_set_length", !rc_distance_joint_set_length(w, dist, 2.0f * RC_JOINT_MAX_LENGTH));
    REFUSE(&fx, "rc_distance_joint_set_limits", !rc_distance_joint_set_limits(w, dist, true, 2, 1));
    REFUSE(&fx, "rc_distance_joint_set_limits", !rc_distance_joint_set_limits(w, dist, true, -1, 1));
    REFUSE(&fx, "rc_distance_joint_set_limits",
           !rc_distance_joint_set_limits(w, dist, true, 0, 2.0f * RC_JOINT_MAX_LENGTH));
    REFUSE(&fx, "rc_distance_joint_set_spring", !rc_distance_joint_set_spring(w, dist, true, -1, 1));
    REFUSE(&fx, "rc_distance_joint_set_motor", !rc_distance_joint_set_motor(w, dist, true, 1, -1));
    REFUSE(&fx, "rc_prismatic_joint_set_limits", !rc_prismatic_joint_set_limits(w, pri, true, 1, -1));
    REFUSE(&fx, "rc_prismatic_joint_set_motor", !rc_prismatic_joint_set_motor(w, pri, true, 1, -1));
    REFUSE(&fx, "rc_prismatic_joint_set_spring", !rc_prismatic_joint_set_spring(w, pri, true, 1, -1));
    REFUSE(&fx, "rc_weld_joint_set_springs", !rc_weld_joint_set_springs(w, weld, -1, 1, 1, 1));
    REFUSE(&fx, "rc_weld_joint_set_springs", !rc_weld_joint_set_springs(w, weld, 1, 1, 1, -1));
    REFUSE(&fx, "rc_mouse_joint_set_target", !rc_mouse_joint_set_target(w, mouse, rc_v2(0, 2.0f * RC_WORLD_LIMIT)));
    /* and nothing that shows only later */
    fx_same_as_twin(&fx, &twin, 60);
    rc_world_destroy(twin.w);
    /* good values: accepted without a message; what they do is measured in the physics tests */
    rc_world_clear_error(w);
    int calls = fx.errs.calls;
    ck_assert(rc_joint_set_user_data(w, rev, &fx));
    ck_assert_ptr_eq(rc_joint_user_data(w, rev), &fx);
    ck_assert(rc_revolute_joint_set_limits(w, rev, true, -0.5f, -0.5f));
    ck_assert(rc_revolute_joint_set_motor(w, rev, true, -7.0f, 0.0f));
    ck_assert(rc_revolute_joint_set_spring(w, rev, true, 0.0f, 0.0f));
    ck_assert(rc_distance_joint_set_length(w, dist, RC_JOINT_MAX_LENGTH));
    ck_assert(rc_distance_joint_set_limits(w, dist, false, 0.0f, RC_JOINT_MAX_LENGTH));
    ck_assert(rc_mouse_joint_set_target(w, mouse, rc_v2(-3, 4)));
    ck_assert_vec_eq(rc_mouse_joint_target(w, mouse), -3, 4);
    ck_assert(rc_weld_joint_set_springs(w, weld, 0, 0, 0, 0));
    ck_assert_str_eq(rc_world_last_error(w), "");
    ck_assert_int_eq(fx.errs.calls, calls);
    rc_world_destroy(w);
}
END_TEST

/* What the setters do, measured: a revolute's new limits, motor and spring; a rod's new
 * length; a rod turned into a rope and back. A refused setter changes nothing (the body stays
 * asleep, the joint behaves as before). */
START_TEST(setters_take_effect) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id bar = box_body(w, rc_v2(1, 0), 0.0f, 1.0f, 0.1f, 1.0f);
    rc_revolute_joint_def d = rc_revolute_joint_default_def();
    d.body_a = ground;
    d.body_b = bar;
    d.local_anchor_b = rc_v2(-1, 0);
    d.enable_limit = true;
    d.lower_angle = -0.25f;
    d.upper_angle = 0.25f;
    rc_joint_id j = rc_joint_create_revolute(w, &d);
    ck_assert(!rc_joint_id_is_null(j));
    for (int i = 0; i < 300 && rc_body_is_awake(w, bar); ++i) {
        step(w, 1);
    }
    ck_assert(!rc_body_is_awake(w, bar));
    ck_assert_near(rc_revolute_joint_angle(w, j), -0.25, 0.002);
    /* refused: still asleep, and it still rests on its old limit once woken */
    ck_assert(!rc_revolute_joint_set_limits(w, j, true, 0.5f, 0.1f));
    ck_assert(!rc_revolute_joint_set_motor(w, j, true, NAN, 5.0f));
    ck_assert(!rc_revolute_joint_set_spring(w, j, true, -1.0f, 1.0f));
    ck_assert(!rc_body_is_awake(w, bar));
    ck_assert(rc_body_set_awake(w, bar, true));
    step(w, 30);
    ck_assert_near(rc_revolute_joint_angle(w, j), -0.25, 0.002);
    /* new limits: it falls to -0.75 (and wakes to do it) */
    for (int i = 0; i < 300 && rc_body_is_awake(w, bar); ++i) {
        step(w, 1);
    }
    ck_assert(rc_revolute_joint_set_limits(w, j, true, -0.75f, 0.75f));
    ck_assert(rc_body_is_awake(w, bar));
    step(w, 90);
    ck_assert_near(rc_revolute_joint_angle(w, j), -0.75, 0.003);
    /* a motor lifting it at 1 rad/s (ample torque) until the upper limit */
    ck_assert(rc_revolute_joint_set_motor(w, j, true, 1.0f, 10.0f)); /* the weight's torque is 4 */
    step(w, 30);
    ck_assert_near(rc_revolute_joint_speed(w, j), 1.0, 0.01);
    {
        /* half a second at 1 rad/s, less what the motor's first moments at (10 - m g d cos th) / I
           lost while it came up to speed */
        double i_pivot = rc_body_rotational_inertia(w, bar) + rc_body_mass(w, bar);
        double accel = (10.0 - rc_body_mass(w, bar) * G * cos(0.73)) / i_pivot;
        ck_assert_near(rc_revolute_joint_angle(w, j), -0.75 + 0.5 - 0.5 / accel, 0.01);
    }
    step(w, 90);
    ck_assert_near(rc_revolute_joint_angle(w, j), 0.75, 0.003);
    /* no limits, no motor, a 1 Hz spring pulling to 0: the bar settles where
       k theta = -m g d cos theta, k = I_c (2 pi)^2 */
    ck_assert(rc_revolute_joint_set_motor(w, j, false, 0.0f, 0.0f));
    ck_assert(rc_revolute_joint_set_limits(w, j, false, 0.0f, 0.0f));
    ck_assert(rc_revolute_joint_set_spring(w, j, true, 1.0f, 1.0f));
    for (int i = 0; i < 420; ++i) {
        EXPECT(rc_body_set_awake(w, bar, true), "set_awake"); /* kept awake until it has settled fully */
        step(w, 1);
    }
    double m = rc_body_mass(w, bar), k = rc_body_rotational_inertia(w, bar) * 4.0 * PI * PI, th = 0.0;
    for (int it = 0; it < 50; ++it) {
        th = -m * G * 1.0 * cos(th) / k;
    }
    double got = rc_revolute_joint_angle(w, j);
    REPORT("[joints] revolute spring 1 Hz under the bar's weight: rests at %.5f rad, k th = m g d cos th at %.5f "
           "(%+.2f%%)\n",
           got, th, 100.0 * (got - th) / fabs(th));
    ck_assert_near(got, th, 0.005 * fabs(th));
    rc_world_destroy(w);

    /* a rod of 1 holding a weight: set to 2, it hangs at 2; a 0 Hz spring with a limit of 1.5 makes it a
       rope of 1.5; without the spring it is a rod of 2 again */
    w = make_world(rc_v2(0.0f, (float)-G), false);
    ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id weight = box_body(w, rc_v2(0, -1), 0.0f, 0.1f, 0.1f, 1.0f);
    rc_joint_id r = rod(w, ground, rc_v2(0, 0), weight, rc_v2(0, -1));
    step(w, 30);
    ck_assert_near(rc_distance_joint_current_length(w, r), 1.0, 1e-3);
    ck_assert(rc_distance_joint_set_length(w, r, 2.0f));
    step(w, 120);
    double l2 = rc_distance_joint_current_length(w, r);
    ck_assert(rc_distance_joint_set_spring(w, r, true, 0.0f, 0.0f));
    ck_assert(rc_distance_joint_set_limits(w, r, true, 0.0f, 1.5f));
    step(w, 60);
    double l15 = rc_distance_joint_current_length(w, r);
    /* a rope does not push: lifted by hand, it is slack */
    ck_assert(rc_body_set_transform(w, weight, rc_v2(0, -0.5f), 0.0f));
    ck_assert(rc_body_set_linear_velocity(w, weight, rc_v2(0, 0)));
    step(w, 1);
    double slack = rc_distance_joint_current_length(w, r);
    ck_assert(rc_distance_joint_set_spring(w, r, false, 0.0f, 0.0f));
    ck_assert(rc_distance_joint_set_limits(w, r, false, 0.0f, 1.5f));
    step(w, 120);
    double rod_again = rc_distance_joint_current_length(w, r);
    REPORT("[joints] distance setters: length 2 -> %.5f, rope of 1.5 -> %.5f, slack rope lifted to %.4f, rod again "
           "%.5f\n",
           l2, l15, slack, rod_again);
    ck_assert_near(l2, 2.0, 0.005);
    ck_assert_near(l15, 1.5, 0.005);
    ck_assert_msg(slack < 0.6, "the rope pushed the weight back (%g)", slack);
    ck_assert_near(rod_again, 2.0, 0.005);
    /* no rod, no spring, a motor winding it in at 0.5 units/s: a winch */
    ck_assert(rc_distance_joint_set_spring(w, r, true, 0.0f, 0.0f));
    ck_assert(rc_distance_joint_set_motor(w, r, true, -0.5f, 100.0f));
    step(w, 10);
    double l0 = rc_distance_joint_current_length(w, r);
    step(w, 60);
    double wound = l0 - rc_distance_joint_current_length(w, r);
    REPORT("[joints] distance motor at -0.5 units/s: wound in %.5f in 1 s\n", wound);
    ck_assert_near(wound, 0.5, 0.005);
    /* too weak for the weight (0.4 of it): the weight falls at 0.6 g */
    m = rc_body_mass(w, weight);
    ck_assert(rc_distance_joint_set_motor(w, r, true, -0.5f, (float)(0.4 * m * G)));
    ck_assert(rc_body_set_linear_velocity(w, weight, rc_v2(0, 0)));
    step(w, 30);
    ck_assert_near(rc_body_linear_velocity(w, weight).y, -0.6 * G * 0.5, 0.01 * G * 0.5);
    rc_world_destroy(w);
}
END_TEST

/* ---- 15. allocation failure -------------------------------------------------------------------------- */

typedef enum joint_kind { K_REVOLUTE, K_DISTANCE, K_PRISMATIC, K_WELD, K_MOUSE, K_COUNT } joint_kind;

static const char *kind_name[K_COUNT] = {"revolute", "distance", "prismatic", "weld", "mouse"};

static rc_joint_id create_kind(rc_world *w, int kind, rc_body_id a, rc_body_id b) {
    switch (kind) {
    case K_REVOLUTE: {
        rc_revolute_joint_def d = rc_revolute_joint_default_def();
        d.body_a = a;
        d.body_b = b;
        return rc_joint_create_revolute(w, &d);
    }
    case K_DISTANCE: {
        rc_distance_joint_def d = rc_distance_joint_default_def();
        d.body_a = a;
        d.body_b = b;
        return rc_joint_create_distance(w, &d);
    }
    case K_PRISMATIC: {
        rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
        d.body_a = a;
        d.body_b = b;
        return rc_joint_create_prismatic(w, &d);
    }
    case K_WELD: {
        rc_weld_joint_def d = rc_weld_joint_default_def();
        d.body_a = a;
        d.body_b = b;
        return rc_joint_create_weld(w, &d);
    }
    default: {
        rc_mouse_joint_def d = rc_mouse_joint_default_def();
        d.body = b;
        return rc_joint_create_mouse(w, &d);
    }
    }
}

/* A world through the counting allocator with `existing` joints already (a chain of boxes);
 * then the Nth allocation of one more create fails, for N = 1, 2, ... until it succeeds. */
START_TEST(allocation_failure_in_create_changes_nothing) {
    const int existing_counts[] = {0, 1, 7, 8, 16};
    int points_total = 0;
    for (int kind = K_REVOLUTE; kind < K_COUNT; ++kind) {
        for (size_t e = 0; e < sizeof existing_counts / sizeof existing_counts[0]; ++e) {
            int existing = existing_counts[e];
            int failures = 0;
            for (int n = 1;; ++n) {
                ck_assert_int_lt(n, 100);
                ws_counting_alloc ca;
                ws_alloc_init(&ca);
                ws_errors errs;
                memset(&errs, 0, sizeof errs);
                rc_world_def wd = rc_world_default_def();
                wd.allocator = ws_allocator(&ca);
                wd.error_fn = ws_error_fn;
                wd.error_user = &errs;
                rc_world *w = rc_world_create(&wd);
                ck_assert_ptr_nonnull(w);
                rc_body_id bodies[20];
                rc_shape_id shapes[20];
                int nb = 0;
                bodies[nb++] = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
                shapes[0] = add_box(w, bodies[0], rc_v2(0, 0), 0.5f, 0.5f, 1.0f);
                for (int i = 0; i <= existing; ++i) {
                    bodies[nb] = box_body(w, rc_v2((float)(2 * (i + 1)), 0.0f), 0.0f, 0.5f, 0.5f, 1.0f);
                    rc_body_shapes(w, bodies[nb], &shapes[nb], 1);
                    nb++;
                }
                rc_joint_id joints[20];
                for (int i = 0; i < existing; ++i) {
                    joints[i] = create_kind(w, K_REVOLUTE, bodies[i], bodies[i + 1]);
                    ck_assert(!rc_joint_id_is_null(joints[i]));
                }
                ck_assert(rc_world_step(w, DT));
                ws_snapshot before;
                ws_snapshot_take(&before, w, bodies, nb, shapes, nb);
                joint_state js_before[20];
                for (int i = 0; i < existing; ++i) {
                    js_before[i] = joint_state_of(w, joints[i]);
                }
                ca.fail_at = ca.allocations + n;
                rc_joint_id id = create_kind(w, kind, bodies[existing], bodies[existing + 1]);
                bool failed = ca.failures > 0;
                ca.fail_at = 0;
                if (!failed) {
                    ck_assert_msg(!rc_joint_id_is_null(id), "%s: %s", kind_name[kind], rc_world_last_error(w));
                    ck_assert_int_eq(id.index, (uint32_t)existing + 1u);
                    ck_assert_int_eq(rc_world_get_counters(w).joints, existing + 1);
                } else {
                    EXPECT(rc_joint_id_is_null(id), "%s with %d joints, allocation %d failed: a joint was made",
                           kind_name[kind], existing, n);
                    EXPECT(strstr(rc_world_last_error(w), "out of memory") != NULL, "message: %s",
                           rc_world_last_error(w));
                    EXPECT(errs.calls == 1, "the error callback was called %d times", errs.calls);
                    ws_snapshot after;
                    ws_snapshot_take(&after, w, bodies, nb, shapes, nb);
                    char why[600];
                    bool same = ws_snapshot_equal(&before, &after, why, sizeof why);
                    ws_snapshot_free(&after);
                    EXPECT(same, "%s with %d joints, allocation %d failed: the world changed: %s", kind_name[kind],
                           existing, n, why);
                    for (int i = 0; i < existing; ++i) {
                        joint_state now = joint_state_of(w, joints[i]);
                        EXPECT(joint_state_equal(&now, &js_before[i]), "joint %d changed", i);
                    }
                    /* and once memory is back the same call works, in the next slot, and the world steps */
                    rc_joint_id retry = create_kind(w, kind, bodies[existing], bodies[existing + 1]);
                    EXPECT(!rc_joint_id_is_null(retry) && retry.index == (uint32_t)existing + 1u,
                           "the retry failed: %s", rc_world_last_error(w));
                    EXPECT(rc_world_step(w, DT), "step: %s", rc_world_last_error(w));
                    failures++;
                }
                ws_snapshot_free(&before);
                rc_world_destroy(w);
                ck_assert_int_eq(ca.live_blocks, 0);
                ck_assert_msg(ca.bad_frees == 0, "%s", ca.first_bad);
                ws_alloc_release(&ca);
                if (!failed) {
                    break;
                }
            }
            if (existing == 0) {
                /* the first joint of a world reserves its records: it must meet failures */
                ck_assert_int_ge(failures, 1);
            }
            points_total += failures;
        }
    }
    REPORT("[joints] allocation failure: %d failure points over the five creates in worlds with 0, 1, 7, 8, 16 "
           "joints, each refused cleanly\n",
           points_total);
}
END_TEST

/* A step that wakes a sleeping body through a joint, failing at each of its allocations: the
 * body is asleep again and the world as it was. */
START_TEST(allocation_failure_in_a_step_puts_woken_bodies_back_to_sleep) {
    int points = 0;
    for (int n = 1;; ++n) {
        ck_assert_int_lt(n, 200);
        ws_counting_alloc ca;
        ws_alloc_init(&ca);
        rc_world_def wd = rc_world_default_def();
        wd.allocator = ws_allocator(&ca);
        rc_world *w = rc_world_create(&wd);
        rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
        rc_body_id a = box_body(w, rc_v2(0, -1), 0.0f, 0.2f, 0.2f, 1.0f);
        rc_body_id b = box_body(w, rc_v2(0, -2), 0.0f, 0.2f, 0.2f, 1.0f);
        hinge(w, ground, a, rc_v2(0, -0.8f));
        rc_joint_id ab = hinge(w, a, b, rc_v2(0, -1.8f));
        /* a third body falling onto nothing in particular: new pairs and contacts in the step */
        rc_body_id c = box_body(w, rc_v2(5, 0), 0.0f, 0.5f, 0.5f, 1.0f);
        rc_body_id floor = body_at(w, RC_STATIC, rc_v2(5, -1.0f), 0.0f);
        add_box(w, floor, rc_v2(0, 0), 2.0f, 0.48f, 1.0f);
        ck_assert(rc_world_step(w, DT));
        ck_assert(rc_body_set_awake(w, b, false));
        ck_assert(rc_body_set_angular_velocity(w, a, 1.0f));
        rc_body_id bodies[] = {ground, a, b, c, floor};
        ws_snapshot before;
        ws_snapshot_take(&before, w, bodies, 5, NULL, 0);
        joint_state jb = joint_state_of(w, ab);
        ca.fail_at = ca.allocations + n;
        bool ok = rc_world_step(w, DT);
        bool failed = ca.failures > 0;
        ca.fail_at = 0;
        if (!failed) {
            ck_assert(ok);
            ck_assert(rc_body_is_awake(w, b)); /* woken through the joint */
        } else {
            EXPECT(!ok, "allocation %d failed and the step succeeded", n);
            EXPECT(!rc_body_is_awake(w, b), "allocation %d failed: the body the joint woke is awake", n);
            ws_snapshot after;
            ws_snapshot_take(&after, w, bodies, 5, NULL, 0);
            char why[600];
            bool same = ws_snapshot_equal(&before, &after, why, sizeof why);
            ws_snapshot_free(&after);
            EXPECT(same, "allocation %d failed: the world changed: %s", n, why);
            joint_state now = joint_state_of(w, ab);
            EXPECT(joint_state_equal(&now, &jb), "allocation %d failed: the joint changed", n);
            EXPECT(rc_world_step(w, DT), "the retry failed: %s", rc_world_last_error(w));
            points++;
        }
        ws_snapshot_free(&before);
        rc_world_destroy(w);
        ck_assert_int_eq(ca.live_blocks, 0);
        ws_alloc_release(&ca);
        if (!failed) {
            break;
        }
    }
    REPORT("[joints] a step waking a body through a joint: %d allocation points, each failing cleanly\n", points);
}
END_TEST

/* ---- the suite ---------------------------------------------------------------------------------- */

static Suite *joints_suite(void) {
    Suite *s = suite_create("joints_setters");
    TCase *setters = tcase_create("setters");
    tcase_set_timeout(setters, 60);
    tcase_add_test(setters, setters_refuse_wrong_types_and_bad_values);
    tcase_add_test(setters, setters_take_effect);
    tcase_add_test(setters, allocation_failure_in_create_changes_nothing);
    tcase_add_test(setters, allocation_failure_in_a_step_puts_woken_bodies_back_to_sleep);
    suite_add_tcase(s, setters);
    return s;
}

int main(void) { return rc_test_run(joints_suite()); }
