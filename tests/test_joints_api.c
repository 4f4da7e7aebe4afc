/* Joints (include/ricochet/joint.h): the contracts. Destroying bodies and joints, stale, null and
 * foreign ids, every bad def: the null id, a message naming the function, the error callback
 * once, the world unchanged, and stepped on it stays the same as a twin that never saw the call
 * (support/joint_scenes.h's fixture). */
#include "support/joint_scenes.h"

/* ---- 12. destroying bodies and joints, stale and foreign ids ------------------------------------------ */

START_TEST(destroying_a_body_destroys_its_joints) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id a = box_body(w, rc_v2(0, -1), 0.0f, 0.2f, 0.2f, 1.0f);
    rc_body_id b = box_body(w, rc_v2(0, -2), 0.0f, 0.2f, 0.2f, 1.0f);
    rc_body_id c = box_body(w, rc_v2(0, -3), 0.0f, 0.2f, 0.2f, 1.0f);
    rc_joint_id j0 = hinge(w, ground, a, rc_v2(0, 0));
    rc_joint_id j1 = hinge(w, a, b, rc_v2(0, -1));
    rc_joint_id j2 = rod(w, b, rc_v2(0, -2), c, rc_v2(0, -3));
    rc_body_id held = box_body(w, rc_v2(3, 0), 0.0f, 0.2f, 0.2f, 1.0f);
    rc_mouse_joint_def md = rc_mouse_joint_default_def();
    md.body = held;
    md.target = rc_v2(3, 0);
    rc_joint_id mouse = rc_joint_create_mouse(w, &md);
    ck_assert(!rc_joint_id_is_null(mouse));
    ck_assert_int_eq(j0.index, 1);
    ck_assert_int_eq(rc_world_get_counters(w).joints, 4);
    rc_body_destroy(w, held);
    ck_assert(!rc_joint_is_valid(w, mouse));
    ck_assert_int_eq(rc_world_get_counters(w).joints, 3);
    for (int i = 0; i < 200 && rc_body_is_awake(w, c); ++i) {
        step(w, 1);
    }
    ck_assert(!rc_body_is_awake(w, a) && !rc_body_is_awake(w, c));
    rc_body_destroy(w, b);
    ck_assert(rc_joint_is_valid(w, j0));
    ck_assert(!rc_joint_is_valid(w, j1));
    ck_assert(!rc_joint_is_valid(w, j2));
    ck_assert_int_eq(rc_world_get_counters(w).joints, 1);
    /* the bodies it held are awake: c falls */
    ck_assert(rc_body_is_awake(w, a) && rc_body_is_awake(w, c));
    step(w, 30);
    ck_assert_float_lt(rc_body_position(w, c).y, -3.5f);
    ck_assert_near(rc_body_position(w, a).y, -1.0, 0.01);
    /* the stale ids are refused (with a message), the live one still works */
    rc_world_clear_error(w);
    rc_joint_destroy(w, j1);
    ck_assert_ptr_nonnull(strstr(rc_world_last_error(w), "rc_joint_destroy"));
    ck_assert_int_eq(rc_world_get_counters(w).joints, 1);
    rc_world_clear_error(w);
    ck_assert(rc_body_id_is_null(rc_joint_body_a(w, j2)));
    ck_assert_str_ne(rc_world_last_error(w), "");
    /* a new joint reuses a slot under a new generation: the old ids stay stale */
    rc_joint_id again = hinge(w, a, c, rc_body_position(w, c));
    ck_assert(again.index == j1.index || again.index == j2.index);
    ck_assert(!rc_joint_is_valid(w, j1) && !rc_joint_is_valid(w, j2));
    ck_assert(rc_joint_is_valid(w, again));
    rc_world_destroy(w);
}
END_TEST

/* Every joint function on a stale, null or foreign id: its error value, a message naming it,
 * the callback once, nothing changed. */
START_TEST(bad_joint_ids_are_refused) {
    fixture fx;
    fx_init(&fx, true);
    rc_world *w = fx.w;
    rc_joint_id stale = hinge(w, fx.stat, fx.dyn2, rc_v2(3, 0));
    rc_joint_destroy(w, stale);
    ck_assert(!rc_joint_is_valid(w, stale));
    /* a joint of another world, at the same index as a live joint here */
    rc_world *other = make_world(rc_v2(0, 0), true);
    rc_body_id o1 = box_body(other, rc_v2(0, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_body_id o2 = box_body(other, rc_v2(2, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_joint_id foreign = hinge(other, o1, o2, rc_v2(1, 0));
    ck_assert_int_eq(foreign.index, fx.joints[0].index);
    ck_assert(!rc_joint_is_valid(w, foreign));
    rc_joint_id huge = {(uint32_t)INT32_MAX + 1u, 1u};
    /* index 0 with a generation is not the null id, and names nothing: rc_get_joint read the
       record before the first (index - 1 wrapped; found by fuzz_world) */
    rc_joint_id index_zero = {0u, 1u}, index_zero_live = {0u, fx.joints[0].generation};
    rc_joint_id ids[] = {stale, RC_NULL_JOINT_ID, foreign, huge, index_zero, index_zero_live};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; ++k) {
        rc_joint_id id = ids[k];
        ck_assert(!rc_joint_is_valid(w, id));
        REFUSE(&fx, "rc_joint_destroy", (rc_joint_destroy(w, id), true));
        REFUSE(&fx, "rc_joint_get_type", rc_joint_get_type(w, id) == RC_REVOLUTE_JOINT);
        REFUSE(&fx, "rc_joint_body_a", rc_body_id_is_null(rc_joint_body_a(w, id)));
        REFUSE(&fx, "rc_joint_body_b", rc_body_id_is_null(rc_joint_body_b(w, id)));
        REFUSE(&fx, "rc_joint_local_anchor_a", rc_vec2_equal(rc_joint_local_anchor_a(w, id), rc_v2(0, 0)));
        REFUSE(&fx, "rc_joint_local_anchor_b", rc_vec2_equal(rc_joint_local_anchor_b(w, id), rc_v2(0, 0)));
        REFUSE(&fx, "rc_joint_collide_connected", !rc_joint_collide_connected(w, id));
        REFUSE(&fx, "rc_joint_user_data", rc_joint_user_data(w, id) == NULL);
        REFUSE(&fx, "rc_joint_set_user_data", !rc_joint_set_user_data(w, id, &fx));
        REFUSE(&fx, "rc_joint_reaction_force", rc_vec2_equal(rc_joint_reaction_force(w, id), rc_v2(0, 0)));
        REFUSE(&fx, "rc_joint_reaction_torque", rc_joint_reaction_torque(w, id) == 0.0f);
        REFUSE(&fx, "rc_revolute_joint_angle", rc_revolute_joint_angle(w, id) == 0.0f);
        REFUSE(&fx, "rc_revolute_joint_speed", rc_revolute_joint_speed(w, id) == 0.0f);
        REFUSE(&fx, "rc_revolute_joint_motor_torque", rc_revolute_joint_motor_torque(w, id) == 0.0f);
        REFUSE(&fx, "rc_revolute_joint_set_limits", !rc_revolute_joint_set_limits(w, id, true, -1, 1));
        REFUSE(&fx, "rc_revolute_joint_set_motor", !rc_revolute_joint_set_motor(w, id, true, 1, 1));
        REFUSE(&fx, "rc_revolute_joint_set_spring", !rc_revolute_joint_set_spring(w, id, true, 1, 1));
        REFUSE(&fx, "rc_distance_joint_current_length", rc_distance_joint_current_length(w, id) == 0.0f);
        REFUSE(&fx, "rc_distance_joint_set_length", !rc_distance_joint_set_length(w, id, 1));
        REFUSE(&fx, "rc_distance_joint_set_limits", !rc_distance_joint_set_limits(w, id, true, 0, 1));
        REFUSE(&fx, "rc_distance_joint_set_spring", !rc_distance_joint_set_spring(w, id, true, 1, 1));
        REFUSE(&fx, "rc_distance_joint_set_motor", !rc_distance_joint_set_motor(w, id, true, 1, 1));
        REFUSE(&fx, "rc_prismatic_joint_translation", rc_prismatic_joint_translation(w, id) == 0.0f);
        REFUSE(&fx, "rc_prismatic_joint_speed", rc_prismatic_joint_speed(w, id) == 0.0f);
        REFUSE(&fx, "rc_prismatic_joint_set_limits", !rc_prismatic_joint_set_limits(w, id, true, -1, 1));
        REFUSE(&fx, "rc_prismatic_joint_set_motor", !rc_prismatic_joint_set_motor(w, id, true, 1, 1));
        REFUSE(&fx, "rc_prismatic_joint_set_spring", !rc_prismatic_joint_set_spring(w, id, true, 1, 1));
        REFUSE(&fx, "rc_weld_joint_set_springs", !rc_weld_joint_set_springs(w, id, 1, 1, 1, 1));
        REFUSE(&fx, "rc_mouse_joint_set_target", !rc_mouse_joint_set_target(w, id, rc_v2(1, 1)));
        REFUSE(&fx, "rc_mouse_joint_target", rc_vec2_equal(rc_mouse_joint_target(w, id), rc_v2(0, 0)));
    }
    /* the foreign joint is untouched in its own world */
    ck_assert(rc_joint_is_valid(other, foreign));
    rc_world_destroy(other);
    /* a NULL world: no crash, nothing recorded */
    rc_revolute_joint_def d = rc_revolute_joint_default_def();
    d.body_a = fx.stat;
    d.body_b = fx.dyn;
    ck_assert(rc_joint_id_is_null(rc_joint_create_revolute(NULL, &d)));
    rc_joint_destroy(NULL, fx.joints[0]);
    ck_assert(!rc_joint_is_valid(NULL, fx.joints[0]));
    ck_assert(rc_vec2_equal(rc_joint_reaction_force(NULL, fx.joints[0]), rc_v2(0, 0)));
    ck_assert(rc_joint_is_valid(w, fx.joints[0]));
    ck_assert_int_eq(rc_world_get_counters(w).joints, 1);
    rc_world_destroy(w);
}
END_TEST

/* ---- 13. bad defs ------------------------------------------------------------------------------- */

static const float bad_floats[] = {NAN, INFINITY, -INFINITY};
#define NBAD ((int)(sizeof bad_floats / sizeof bad_floats[0]))

/* A pair of bodies no joint may join. */
typedef struct body_case {
    rc_body_id a, b;
} body_case;

START_TEST(bad_defs_are_refused) {
    fixture fx, twin;
    fx_init(&fx, false);
    fx_init(&twin, false);
    rc_world *w = fx.w;
    rc_world *other = make_world(rc_v2(0, 0), true);
    rc_body_id foreign = box_body(other, rc_v2(0, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    body_case bodies[] = {
        {fx.dyn, fx.dyn},         /* the same body twice */
        {fx.stat, fx.stat2},      /* two static bodies */
        {fx.stat, fx.kin},        /* static and kinematic: nothing to move */
        {fx.kin, fx.stat},
        {fx.stat, fx.stale},      /* a destroyed body */
        {fx.stale, fx.dyn},
        {RC_NULL_BODY_ID, fx.dyn}, /* a null body */
        {fx.dyn, RC_NULL_BODY_ID},
        {fx.stat, foreign},       /* a body of another world */
        {foreign, fx.dyn},
    };
    const int nbodies = (int)(sizeof bodies / sizeof bodies[0]);
    rc_vec2 bad_anchors[2 * NBAD + 2];
    int nanchors = 0;
    for (int k = 0; k < NBAD; ++k) {
        bad_anchors[nanchors++] = rc_v2(bad_floats[k], 0.0f);
        bad_anchors[nanchors++] = rc_v2(0.0f, bad_floats[k]);
    }
    bad_anchors[nanchors++] = rc_v2(2.0f * RC_WORLD_LIMIT, 0.0f);
    bad_anchors[nanchors++] = rc_v2(0.0f, -FLT_MAX);

    /* revolute */
    REFUSE_ID(&fx, "rc_joint_create_revolute", rc_joint_create_revolute(w, NULL));
    for (int i = 0; i < nbodies; ++i) {
        rc_revolute_joint_def d = rc_revolute_joint_default_def();
        d.body_a = bodies[i].a;
        d.body_b = bodies[i].b;
        REFUSE_ID(&fx, "rc_joint_create_revolute", rc_joint_create_revolute(w, &d));
    }
    for (int k = 0; k < nanchors; ++k) {
        for (int side = 0; side < 2; ++side) {
            rc_revolute_joint_def d = rc_revolute_joint_default_def();
            d.body_a = fx.stat;
            d.body_b = fx.dyn;
            *(side == 0 ? &d.local_anchor_a : &d.local_anchor_b) = bad_anchors[k];
            REFUSE_ID(&fx, "rc_joint_create_revolute", rc_joint_create_revolute(w, &d));
        }
    }
    for (int k = 0; k < 15; ++k) {
        rc_revolute_joint_def d = rc_revolute_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        switch (k) {
        case 0: d.lower_angle = NAN; break;
        case 1: d.upper_angle = NAN; break;
        case 2: d.lower_angle = -INFINITY; break;
        case 3: d.upper_angle = INFINITY; break;
        case 4: d.lower_angle = 0.5f; d.upper_angle = 0.25f; break;
        case 5: d.lower_angle = 1e-6f; d.upper_angle = 0.0f; break; /* above, by a hair */
        case 6: d.motor_speed = NAN; break;
        case 7: d.motor_speed = INFINITY; break;
        case 8: d.max_motor_torque = -1.0f; break;
        case 9: d.max_motor_torque = NAN; break;
        case 10: d.max_motor_torque = -1e-30f; break;
        case 11: d.hertz = -1.0f; break;
        case 12: d.hertz = NAN; break;
        case 13: d.damping_ratio = -1.0f; break;
        default: d.damping_ratio = INFINITY; break;
        }
        /* a bad value is refused whether or not its feature is enabled */
        d.enable_limit = (k & 1) != 0;
        d.enable_motor = (k & 2) != 0;
        d.enable_spring = (k & 4) != 0;
        REFUSE_ID(&fx, "rc_joint_create_revolute", rc_joint_create_revolute(w, &d));
    }

    /* distance */
    REFUSE_ID(&fx, "rc_joint_create_distance", rc_joint_create_distance(w, NULL));
    for (int i = 0; i < nbodies; ++i) {
        rc_distance_joint_def d = rc_distance_joint_default_def();
        d.body_a = bodies[i].a;
        d.body_b = bodies[i].b;
        REFUSE_ID(&fx, "rc_joint_create_distance", rc_joint_create_distance(w, &d));
    }
    for (int k = 0; k < nanchors; ++k) {
        rc_distance_joint_def d = rc_distance_joint_default_def();
        d.body_a = fx.dyn;
        d.body_b = fx.dyn2;
        *(k & 1 ? &d.local_anchor_a : &d.local_anchor_b) = bad_anchors[k];
        REFUSE_ID(&fx, "rc_joint_create_distance", rc_joint_create_distance(w, &d));
    }
    const float bad_lengths[] = {0.0f, -0.0f, -1.0f, NAN, INFINITY, 2.0f * RC_JOINT_MAX_LENGTH};
    for (size_t k = 0; k < sizeof bad_lengths / sizeof bad_lengths[0]; ++k) {
        rc_distance_joint_def d = rc_distance_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        d.length = bad_lengths[k];
        REFUSE_ID(&fx, "rc_joint_create_distance", rc_joint_create_distance(w, &d));
    }
    for (int k = 0; k < 9; ++k) {
        rc_distance_joint_def d = rc_distance_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        switch (k) {
        case 0: d.min_length = 2.0f; d.max_length = 1.0f; break;
        case 1: d.min_length = -0.5f; break;
        case 2: d.max_length = 2.0f * RC_JOINT_MAX_LENGTH; break;
        case 3: d.min_length = NAN; break;
        case 4: d.hertz = -1.0f; break;
        case 5: d.damping_ratio = NAN; break;
        case 6: d.max_motor_force = -1.0f; break;
        case 7: d.motor_speed = INFINITY; break;
        default: d.max_motor_force = INFINITY; break;
        }
        d.enable_limit = (k & 1) != 0;
        d.enable_spring = (k & 2) != 0;
        REFUSE_ID(&fx, "rc_joint_create_distance", rc_joint_create_distance(w, &d));
    }

    /* prismatic */
    REFUSE_ID(&fx, "rc_joint_create_prismatic", rc_joint_create_prismatic(w, NULL));
    for (int i = 0; i < nbodies; ++i) {
        rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
        d.body_a = bodies[i].a;
        d.body_b = bodies[i].b;
        REFUSE_ID(&fx, "rc_joint_create_prismatic", rc_joint_create_prismatic(w, &d));
    }
    for (int k = 0; k < nanchors; ++k) {
        rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        *(k & 1 ? &d.local_anchor_a : &d.local_anchor_b) = bad_anchors[k];
        REFUSE_ID(&fx, "rc_joint_create_prismatic", rc_joint_create_prismatic(w, &d));
    }
    const rc_vec2 bad_axes[] = {{0.0f, 0.0f}, {-0.0f, 0.0f}, {NAN, 1.0f}, {1.0f, INFINITY}, {-INFINITY, 0.0f}};
    for (size_t k = 0; k < sizeof bad_axes / sizeof bad_axes[0]; ++k) {
        rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        d.local_axis_a = bad_axes[k];
        REFUSE_ID(&fx, "rc_joint_create_prismatic", rc_joint_create_prismatic(w, &d));
    }
    ck_assert_int_eq(rc_world_get_counters(w).joints, 0);
    for (int k = 0; k < 7; ++k) {
        rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        switch (k) {
        case 0: d.lower_translation = 1.0f; d.upper_translation = -1.0f; break;
        case 1: d.lower_translation = -INFINITY; break;
        case 2: d.upper_translation = NAN; break;
        case 3: d.max_motor_force = -2.0f; break;
        case 4: d.motor_speed = NAN; break;
        case 5: d.hertz = -INFINITY; break;
        default: d.damping_ratio = -1.0f; break;
        }
        d.enable_limit = (k & 1) != 0;
        REFUSE_ID(&fx, "rc_joint_create_prismatic", rc_joint_create_prismatic(w, &d));
    }

    /* weld */
    REFUSE_ID(&fx, "rc_joint_create_weld", rc_joint_create_weld(w, NULL));
    for (int i = 0; i < nbodies; ++i) {
        rc_weld_joint_def d = rc_weld_joint_default_def();
        d.body_a = bodies[i].a;
        d.body_b = bodies[i].b;
        REFUSE_ID(&fx, "rc_joint_create_weld", rc_joint_create_weld(w, &d));
    }
    for (int k = 0; k < nanchors; ++k) {
        rc_weld_joint_def d = rc_weld_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        *(k & 1 ? &d.local_anchor_a : &d.local_anchor_b) = bad_anchors[k];
        REFUSE_ID(&fx, "rc_joint_create_weld", rc_joint_create_weld(w, &d));
    }
    for (int k = 0; k < 7; ++k) {
        rc_weld_joint_def d = rc_weld_joint_default_def();
        d.body_a = fx.stat;
        d.body_b = fx.dyn;
        switch (k) {
        case 0: d.reference_angle = NAN; break;
        case 1: d.reference_angle = INFINITY; break;
        case 2: d.linear_hertz = -1.0f; break;
        case 3: d.angular_hertz = NAN; break;
        case 4: d.linear_damping_ratio = -1.0f; break;
        case 5: d.angular_damping_ratio = INFINITY; break;
        default: d.linear_hertz = INFINITY; break;
        }
        REFUSE_ID(&fx, "rc_joint_create_weld", rc_joint_create_weld(w, &d));
    }

    /* mouse */
    REFUSE_ID(&fx, "rc_joint_create_mouse", rc_joint_create_mouse(w, NULL));
    rc_body_id mouse_bodies[] = {fx.stat, fx.kin, fx.stale, RC_NULL_BODY_ID, foreign};
    for (size_t i = 0; i < sizeof mouse_bodies / sizeof mouse_bodies[0]; ++i) {
        rc_mouse_joint_def d = rc_mouse_joint_default_def();
        d.body = mouse_bodies[i];
        REFUSE_ID(&fx, "rc_joint_create_mouse", rc_joint_create_mouse(w, &d));
    }
    for (int k = 0; k < 11; ++k) {
        rc_mouse_joint_def d = rc_mouse_joint_default_def();
        d.body = fx.dyn;
        switch (k) {
        case 0: d.hertz = 0.0f; break;
        case 1: d.hertz = -5.0f; break;
        case 2: d.hertz = NAN; break;
        case 3: d.hertz = INFINITY; break;
        case 4: d.damping_ratio = -0.1f; break;
        case 5: d.damping_ratio = NAN; break;
        case 6: d.max_force = -1.0f; break;
        case 7: d.max_force = INFINITY; break;
        case 8: d.target = rc_v2(NAN, 0.0f); break;
        case 9: d.target = rc_v2(0.0f, -INFINITY); break;
        default: d.target = rc_v2(2.0f * RC_WORLD_LIMIT, 0.0f); break;
        }
        REFUSE_ID(&fx, "rc_joint_create_mouse", rc_joint_create_mouse(w, &d));
    }

    /* nothing was made, and nothing that would show later: the world goes on as its twin */
    ck_assert_int_eq(rc_world_get_counters(w).joints, 0);
    fx_same_as_twin(&fx, &twin, 30);
    rc_world_destroy(twin.w);
    /* the first joint now takes slot 1 */
    rc_world_clear_error(w);
    rc_revolute_joint_def ok = rc_revolute_joint_default_def();
    ok.body_a = fx.kin; /* a kinematic and a sleeping dynamic body: allowed, and wakes it */
    ok.body_b = fx.sleeper;
    rc_joint_id first = rc_joint_create_revolute(w, &ok);
    ck_assert_int_eq(first.index, 1);
    ck_assert_str_eq(rc_world_last_error(w), "");
    ck_assert(rc_body_is_awake(w, fx.sleeper));
    ck_assert_int_eq(rc_world_get_counters(w).joints, 1);
    /* boundary values that are allowed */
    rc_distance_joint_def dd = rc_distance_joint_default_def();
    dd.body_a = fx.dyn;
    dd.body_b = fx.dyn2;
    dd.length = RC_JOINT_MAX_LENGTH;
    dd.min_length = RC_JOINT_MAX_LENGTH;
    dd.max_length = RC_JOINT_MAX_LENGTH;
    ck_assert(!rc_joint_id_is_null(rc_joint_create_distance(w, &dd)));
    rc_revolute_joint_def rd = rc_revolute_joint_default_def();
    rd.body_a = fx.dyn;
    rd.body_b = fx.dyn2;
    rd.lower_angle = rd.upper_angle = 0.5f; /* lower == upper */
    rd.motor_speed = -3.0f;                 /* a negative speed is a direction */
    ck_assert(!rc_joint_id_is_null(rc_joint_create_revolute(w, &rd)));
    rc_mouse_joint_def md = rc_mouse_joint_default_def();
    md.body = fx.sleeper;
    md.max_force = 0.0f;
    md.damping_ratio = 0.0f;
    ck_assert(!rc_joint_id_is_null(rc_joint_create_mouse(w, &md)));
    ck_assert_str_eq(rc_world_last_error(w), "");
    ck_assert_int_eq(rc_world_get_counters(w).joints, 4);
    ck_assert(rc_world_step(w, DT));
    rc_world_destroy(other);
    rc_world_destroy(w);
}
END_TEST

/* ---- the suite ---------------------------------------------------------------------------------- */

static Suite *joints_suite(void) {
    Suite *s = suite_create("joints_api");
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 60);
    tcase_add_test(api, destroying_a_body_destroys_its_joints);
    tcase_add_test(api, bad_joint_ids_are_refused);
    tcase_add_test(api, bad_defs_are_refused);
    suite_add_tcase(s, api);
    return s;
}

int main(void) { return rc_test_run(joints_suite()); }
