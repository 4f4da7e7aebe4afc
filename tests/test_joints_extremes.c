/* Joints at the ends of what joint.h accepts: anchors far from the centres (pixel units, and to
 * the edge of the world), bodies of the least and the most mass, springs of any stiffness and
 * damping, limits out of reach, bodies at angles near FLT_MAX, a step of a denormal dt. Each
 * was a fuzz_world finding (NaN or a body flung away); the joint must do what it does at
 * ordinary sizes, to the float resolution at that size, and nothing may become NaN or infinite.
 * Expected values are worked out by hand: where the anchor must end (a line, a point), what is
 * conserved (momentum, angular momentum), where a limit out of reach drives a body (the world's
 * speed limits). */
#include "support/joint_scenes.h"
#include "world/joint.h"
#include "world/solver.h"

/* Every public number of a body and a joint is finite. */
static void expect_finite(const rc_world *w, rc_body_id b, rc_joint_id j) {
    rc_vec2 p = rc_body_position(w, b), v = rc_body_linear_velocity(w, b);
    rc_vec2 f = rc_joint_reaction_force(w, j);
    float values[8] = {p.x, p.y, rc_body_angle(w, b), v.x, v.y, rc_body_angular_velocity(w, b), f.x, f.y};
    for (int i = 0; i < 8; ++i) {
        EXPECT(isfinite(values[i]), "value %d is %g", i, (double)values[i]);
    }
    EXPECT(isfinite(rc_joint_reaction_torque(w, j)), "reaction torque %g", (double)rc_joint_reaction_torque(w, j));
}

/* ---- anchors far from the centres ------------------------------------------------------------- */

/* A disc (radius 1) at (0, arm - 4) moving at (100, 0) on a rail of the static ground along x
 * through the ground's anchor (arm, arm); the disc's anchor is (arm, 0) in its frame, so the rail
 * pulls its centre up to y = arm and holds its angle at 0; gravity is along -y, across the rail:
 * along it nothing acts and the disc keeps its 100 units/s. With the 2x2 solve across the rail
 * written as k11 k22 - k12^2 in floats, an arm of 1,000 lost the determinant to cancellation
 * (the disc was flung 1e11 units) and one of 10,000 made it 0 (the rail held nothing). The answer
 * must be as good as the floats at that size: the centre within 1e-6 of the arm (plus 1e-3) of
 * the rail. */
START_TEST(far_anchors_hold_a_rail) {
    const float arms[6] = {10.0f, 100.0f, 1000.0f, 10000.0f, 100000.0f, 1000000.0f};
    for (int k = 0; k < 6; ++k) {
        float arm = arms[k];
        rc_world *w = make_world(rc_v2(0, -10), false);
        rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
        rc_body_id disc = circle_body(w, rc_v2(0, arm - 4.0f), 1.0f, 1.0f);
        ck_assert(rc_body_set_linear_velocity(w, disc, rc_v2(100, 0)));
        rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
        d.body_a = ground;
        d.body_b = disc;
        d.local_anchor_a = rc_v2(arm, arm);
        d.local_anchor_b = rc_v2(arm, 0);
        rc_joint_id j = rc_joint_create_prismatic(w, &d);
        ck_assert(!rc_joint_id_is_null(j));
        step(w, 120);
        rc_vec2 p = rc_body_position(w, disc), v = rc_body_linear_velocity(w, disc);
        REPORT("rail at arm %g: centre (%g, %g) off the rail %.3g, v (%g, %g), angle %g\n", (double)arm, (double)p.x,
               (double)p.y, (double)(p.y - arm), (double)v.x, (double)v.y, (double)rc_body_angle(w, disc));
        expect_finite(w, disc, j);
        EXPECT(fabsf(p.y - arm) <= 1.0e-6f * arm + 1.0e-3f, "arm %g: the centre is %g off the rail", (double)arm,
               (double)(p.y - arm));
        EXPECT(fabsf(v.x - 100.0f) <= 1.0e-3f * 100.0f, "arm %g: along the rail v.x %g, not 100", (double)arm,
               (double)v.x);
        EXPECT(fabsf(rc_body_angle(w, disc)) <= 1.0e-4f, "arm %g: angle %g", (double)arm,
               (double)rc_body_angle(w, disc));
        rc_world_destroy(w);
    }
}
END_TEST

/* Two boxes (2 x 2, density 1: mass 4 each) at (-D, 0) and (D, 0) hinged at the origin, each
 * anchor D from its centre, no gravity, moving at (0, 50) and (0, -50): they turn about the
 * hinge as one rigid bar. Nothing outside acts: the total momentum stays 0 and the angular
 * momentum about the origin stays -2 * 4 * 50 * D (the spins start at 0 and stay equal). The
 * soft hinge yields in proportion to the centripetal load v^2 / D it holds (1.7e-3 at D = 100,
 * where the load is 25: a bound of 2e-4 s^2 times the load) plus the float resolution at D. */
START_TEST(far_anchors_between_two_moving_bodies) {
    const float spans[3] = {100.0f, 1000.0f, 10000.0f};
    for (int k = 0; k < 3; ++k) {
        float D = spans[k];
        rc_world *w = make_world(rc_v2(0, 0), false);
        rc_body_id a = box_body(w, rc_v2(-D, 0), 0.0f, 1.0f, 1.0f, 1.0f);
        rc_body_id b = box_body(w, rc_v2(D, 0), 0.0f, 1.0f, 1.0f, 1.0f);
        ck_assert(rc_body_set_linear_velocity(w, a, rc_v2(0, 50)));
        ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(0, -50)));
        rc_joint_id j = hinge(w, a, b, rc_v2(0, 0));
        step(w, 60);
        double L = 0.0, px = 0.0, py = 0.0;
        rc_body_id both[2] = {a, b};
        for (int i = 0; i < 2; ++i) {
            rc_vec2 p = rc_body_position(w, both[i]), v = rc_body_linear_velocity(w, both[i]);
            double m = rc_body_mass(w, both[i]), I = rc_body_rotational_inertia(w, both[i]);
            L += m * ((double)p.x * v.y - (double)p.y * v.x) + I * rc_body_angular_velocity(w, both[i]);
            px += m * v.x;
            py += m * v.y;
        }
        double L0 = -2.0 * 4.0 * 50.0 * D;
        REPORT("bar of span %g: hinge gap %.3g, angular momentum %.9g (start %.9g), momentum (%.3g, %.3g)\n",
               (double)D, (double)joint_gap(w, j), L, L0, px, py);
        expect_finite(w, b, j);
        float load = 50.0f * 50.0f / D; /* the centripetal acceleration the hinge holds */
        EXPECT(joint_gap(w, j) <= 2.0e-4f * load + 1.0e-6f * D, "span %g: the hinge opened %g", (double)D,
               (double)joint_gap(w, j));
        EXPECT(fabs(L - L0) <= 1.0e-3 * fabs(L0), "span %g: angular momentum %.9g, not %.9g", (double)D, L, L0);
        EXPECT(fabs(px) <= 1.0e-2 && fabs(py) <= 1.0e-2, "span %g: momentum (%g, %g)", (double)D, px, py);
        rc_world_destroy(w);
    }
}
END_TEST

/* Anchors at the edge of the world (1e18 from a centre), and a body of density 1e-20 (a mass of
 * 4e-20, inverse inertia about 1e20) on a rail 100 from its centre: the products of the effective
 * mass overflowed a float (det infinite, 0 * inf). Finite, and the light body ends on its rail. */
START_TEST(edge_of_the_world_and_a_feather) {
    rc_world *w = make_world(rc_v2(0, -10), false);
    rc_body_id a = box_body(w, rc_v2(0, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_body_id b = box_body(w, rc_v2(1, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_revolute_joint_def r = rc_revolute_joint_default_def();
    r.body_a = a;
    r.body_b = b;
    r.local_anchor_a = rc_v2(1.0e18f, 0);
    rc_joint_id j = rc_joint_create_revolute(w, &r);
    ck_assert(!rc_joint_id_is_null(j));
    step(w, 10);
    expect_finite(w, a, j);
    expect_finite(w, b, j);
    rc_world_destroy(w);

    w = make_world(rc_v2(0, -10), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id feather = box_body(w, rc_v2(0, 4), 0.0f, 0.5f, 0.5f, 1.0e-20f);
    rc_prismatic_joint_def p = rc_prismatic_joint_default_def();
    p.body_a = ground;
    p.body_b = feather;
    p.local_anchor_a = rc_v2(100, 100);
    p.local_anchor_b = rc_v2(100, 0);
    j = rc_joint_create_prismatic(w, &p);
    ck_assert(!rc_joint_id_is_null(j));
    step(w, 60);
    rc_vec2 at = rc_body_position(w, feather);
    REPORT("feather on a rail 100 up: centre (%g, %g)\n", (double)at.x, (double)at.y);
    expect_finite(w, feather, j);
    EXPECT(fabsf(at.y - 100.0f) <= 1.0e-3f && fabsf(at.x) <= 1.0e-3f, "the feather is at (%g, %g), not (0, 100)",
           (double)at.x, (double)at.y);
    rc_world_destroy(w);
}
END_TEST

/* ---- springs of any stiffness and damping ----------------------------------------------------- */

/* A pendulum: a static pivot at the origin, a box at (1, 0) on a distance joint of length 1
 * whose spring is hertz (damping ratio zeta), released under gravity. A spring of 1e30 Hz or
 * FLT_MAX Hz is as stiff as the step allows (the rod): the length stays 1; a damping ratio of
 * FLT_MAX holds the length's rate at 0 and pushes nothing back: the length drifts as a
 * velocity constraint's does (0.04 in 2 s at 60 Hz: a bound of 0.1). Before, the softness
 * overflowed (omega or a1 infinite: NaN). */
static float pendulum_worst_stretch(float hertz, float zeta) {
    rc_world *w = make_world(rc_v2(0, -10), false);
    rc_body_id pivot = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id bob = box_body(w, rc_v2(1, 0), 0.0f, 0.1f, 0.1f, 1.0f);
    rc_distance_joint_def d = rc_distance_joint_default_def();
    d.body_a = pivot;
    d.body_b = bob;
    d.length = 1.0f;
    d.enable_spring = true;
    d.hertz = hertz;
    d.damping_ratio = zeta;
    rc_joint_id j = rc_joint_create_distance(w, &d);
    ck_assert(!rc_joint_id_is_null(j));
    float worst = 0.0f;
    for (int i = 0; i < 120; ++i) {
        step(w, 1);
        expect_finite(w, bob, j);
        worst = fmaxf(worst, fabsf(rc_distance_joint_current_length(w, j) - 1.0f));
    }
    rc_world_destroy(w);
    return worst;
}

START_TEST(springs_of_any_stiffness_and_damping) {
    float stiff = pendulum_worst_stretch(1.0e30f, 1.0f), stiffest = pendulum_worst_stretch(FLT_MAX, 0.0f);
    float damped = pendulum_worst_stretch(1.0f, FLT_MAX), soft = pendulum_worst_stretch(1.0f, 0.0f);
    REPORT("pendulum stretch: 1e30 Hz %.3g, FLT_MAX Hz undamped %.3g, 1 Hz damping FLT_MAX %.3g, 1 Hz undamped %.3g\n",
           (double)stiff, (double)stiffest, (double)damped, (double)soft);
    EXPECT(stiff <= 1.0e-3f && stiffest <= 1.0e-3f, "a stiff spring stretched %g and %g", (double)stiff,
           (double)stiffest);
    EXPECT(damped <= 0.1f, "an infinitely damped spring stretched %g", (double)damped);
    EXPECT(soft > 0.1f, "a 1 Hz spring under gravity must stretch (%g)", (double)soft); /* the check can fail */
}
END_TEST

/* A mouse joint of 1e30 Hz that grabs a box (mass 1) at (1, 0) by the point (2, 0), then is
 * moved to (3, 0), with a force large enough: the grabbed point reaches the target (a rigid
 * pull), the box's centre (2, 0); a weld of 1e30 Hz (angular) and FLT_MAX Hz (linear) holds a
 * beam out from a wall as the rigid weld does. */
START_TEST(stiff_mouse_and_weld) {
    rc_world *w = make_world(rc_v2(0, 0), false);
    rc_body_id box = box_body(w, rc_v2(1, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_mouse_joint_def m = rc_mouse_joint_default_def();
    m.body = box;
    m.target = rc_v2(2, 0);
    m.hertz = 1.0e30f;
    m.max_force = 1.0e6f;
    rc_joint_id j = rc_joint_create_mouse(w, &m);
    ck_assert(!rc_joint_id_is_null(j));
    ck_assert(rc_mouse_joint_set_target(w, j, rc_v2(3, 0)));
    step(w, 30);
    rc_vec2 p = rc_body_position(w, box);
    REPORT("mouse at 1e30 Hz: the box at (%g, %g)\n", (double)p.x, (double)p.y);
    expect_finite(w, box, j);
    EXPECT(fabsf(p.x - 2.0f) <= 1.0e-3f && fabsf(p.y) <= 1.0e-3f, "the box is at (%g, %g), not (2, 0)", (double)p.x,
           (double)p.y);
    rc_world_destroy(w);

    w = make_world(rc_v2(0, -10), false);
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id beam = box_body(w, rc_v2(1, 0), 0.0f, 1.0f, 0.1f, 1.0f);
    rc_weld_joint_def wd = rc_weld_joint_default_def();
    wd.body_a = wall;
    wd.body_b = beam;
    wd.local_anchor_b = rc_v2(-1, 0);
    wd.angular_hertz = 1.0e30f;
    wd.linear_hertz = FLT_MAX;
    j = rc_joint_create_weld(w, &wd);
    ck_assert(!rc_joint_id_is_null(j));
    step(w, 60);
    REPORT("weld at 1e30 Hz: the beam's angle %g, centre (%g, %g)\n", (double)rc_body_angle(w, beam),
           (double)rc_body_position(w, beam).x, (double)rc_body_position(w, beam).y);
    expect_finite(w, beam, j);
    EXPECT(fabsf(rc_body_angle(w, beam)) <= 1.0e-2f, "the beam sags to %g", (double)rc_body_angle(w, beam));
    rc_world_destroy(w);
}
END_TEST

/* A step of dt = 1e-45 (accepted: finite and > 0) with an undamped spring: the sub-step is 0
 * and the softness's bias rate omega / (h omega) was infinite. Nothing moves in no time: the
 * positions are those before the step, and everything stays finite. */
START_TEST(a_denormal_step) {
    rc_world *w = make_world(rc_v2(0, -10), false);
    rc_body_id box = box_body(w, rc_v2(1, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_mouse_joint_def m = rc_mouse_joint_default_def();
    m.body = box;
    m.target = rc_v2(2, 0);
    m.hertz = 5.0f;
    m.damping_ratio = 0.0f;
    rc_joint_id j = rc_joint_create_mouse(w, &m);
    ck_assert(rc_world_step(w, 1.0e-45f));
    expect_finite(w, box, j);
    ck_assert_vec_eq(rc_body_position(w, box), 1, 0);
    ck_assert(rc_body_angle(w, box) == 0.0f);
    rc_world_destroy(w);

    w = make_world(rc_v2(0, -10), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    box = box_body(w, rc_v2(1, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    ck_assert(rc_body_set_angular_velocity(w, box, 1.0f));
    rc_revolute_joint_def r = rc_revolute_joint_default_def();
    r.body_a = ground;
    r.body_b = box;
    r.local_anchor_a = rc_v2(0.5f, 0);
    r.local_anchor_b = rc_v2(-0.5f, 0);
    r.enable_spring = true;
    r.hertz = 5.0f;
    r.damping_ratio = 0.0f;
    j = rc_joint_create_revolute(w, &r);
    ck_assert(rc_world_step(w, 1.0e-45f));
    expect_finite(w, box, j);
    ck_assert_vec_eq(rc_body_position(w, box), 1, 0);
    rc_world_destroy(w);
}
END_TEST

/* ---- limits out of reach and angles near FLT_MAX --------------------------------------------- */

/* A box on a rail along x of the static ground, its limits [FLT_MAX, FLT_MAX]: the limit pulls
 * it along +x as fast as the world lets anything move (bias = rate * FLT_MAX overflowed to an
 * infinite impulse): after a step it moves at exactly max_linear_speed along the rail. A hinge
 * whose limits are [-FLT_MAX, -FLT_MAX] turns its box clockwise as fast as the box may turn. */
START_TEST(limits_out_of_reach) {
    rc_world *w = make_world(rc_v2(0, 0), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id box = box_body(w, rc_v2(1, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_prismatic_joint_def p = rc_prismatic_joint_default_def();
    p.body_a = ground;
    p.body_b = box;
    p.enable_limit = true;
    p.lower_translation = FLT_MAX;
    p.upper_translation = FLT_MAX;
    rc_joint_id j = rc_joint_create_prismatic(w, &p);
    ck_assert(!rc_joint_id_is_null(j));
    step(w, 1);
    rc_vec2 v = rc_body_linear_velocity(w, box);
    REPORT("rail limit at FLT_MAX: v (%g, %g), reaction (%g, %g)\n", (double)v.x, (double)v.y,
           (double)rc_joint_reaction_force(w, j).x, (double)rc_joint_reaction_force(w, j).y);
    expect_finite(w, box, j);
    EXPECT(v.x == rc_world_default_def().max_linear_speed && v.y == 0.0f, "v (%g, %g)", (double)v.x, (double)v.y);
    rc_world_destroy(w);

    w = make_world(rc_v2(0, 0), false);
    ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    box = box_body(w, rc_v2(1, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_revolute_joint_def r = rc_revolute_joint_default_def();
    r.body_a = ground;
    r.body_b = box;
    r.local_anchor_a = rc_v2(1, 0);
    r.enable_limit = true;
    r.lower_angle = -FLT_MAX;
    r.upper_angle = -FLT_MAX;
    j = rc_joint_create_revolute(w, &r);
    ck_assert(!rc_joint_id_is_null(j));
    step(w, 2);
    float spin = rc_body_angular_velocity(w, box);
    REPORT("hinge limit at -FLT_MAX: spin %g, angle %g\n", (double)spin, (double)rc_revolute_joint_angle(w, j));
    expect_finite(w, box, j);
    EXPECT(spin < -100.0f, "the box turns at %g rad/s", (double)spin);
    EXPECT(rc_revolute_joint_angle(w, j) < 0.0f, "the joint angle %g", (double)rc_revolute_joint_angle(w, j));
    rc_world_destroy(w);
}
END_TEST

/* Bodies at angles -FLT_MAX and FLT_MAX (accepted: finite): angle_b - angle_a overflowed a float
 * (the reference angle infinite, the joint's angle NaN). Made, read and stepped: finite. */
START_TEST(bodies_at_angles_near_flt_max) {
    rc_world *w = make_world(rc_v2(0, -10), false);
    rc_body_id a = body_at(w, RC_STATIC, rc_v2(0, 0), -FLT_MAX);
    rc_body_id b = box_body(w, rc_v2(1, 0), FLT_MAX, 0.5f, 0.5f, 1.0f);
    rc_revolute_joint_def r = rc_revolute_joint_default_def();
    r.body_a = a;
    r.body_b = b;
    r.enable_spring = true;
    r.hertz = 1.0f;
    rc_joint_id j = rc_joint_create_revolute(w, &r);
    ck_assert(!rc_joint_id_is_null(j));
    EXPECT(isfinite(rc_revolute_joint_angle(w, j)), "angle %g", (double)rc_revolute_joint_angle(w, j));
    step(w, 5);
    expect_finite(w, b, j);
    EXPECT(isfinite(rc_revolute_joint_angle(w, j)), "angle %g", (double)rc_revolute_joint_angle(w, j));
    rc_weld_joint_def wd = rc_weld_joint_default_def();
    wd.body_a = a;
    wd.body_b = b;
    wd.reference_angle = -FLT_MAX;
    rc_joint_id weld = rc_joint_create_weld(w, &wd);
    ck_assert(!rc_joint_id_is_null(weld));
    step(w, 5);
    expect_finite(w, b, weld);
    rc_world_destroy(w);
}
END_TEST

/* A hinge made between bodies at any angles is at angle 0 exactly (joint.h), also where the
 * bodies' angles differ by more bits than a float holds: 8 - 0.001 is 7.99899999995 in double,
 * 7.999 as a float; measuring the angle in double against a float reference gave -4.8e-8
 * (fuzz_world, seeds 2 and 3: "a new hinge at angle -9.5e-07"). */
START_TEST(a_new_hinge_is_at_zero) {
    const float pairs[5][2] = {{8.0f, 0.001f}, {-3.3f, 1000.7f}, {1.0e6f, -1.0e-3f}, {FLT_MAX, -FLT_MAX}, {0.1f, 0.2f}};
    for (int k = 0; k < 5; ++k) {
        rc_world *w = make_world(rc_v2(0, -10), false);
        rc_body_id a = body_at(w, RC_STATIC, rc_v2(0, 0), pairs[k][1]);
        rc_body_id b = box_body(w, rc_v2(1, 0), pairs[k][0], 0.5f, 0.5f, 1.0f);
        rc_revolute_joint_def r = rc_revolute_joint_default_def();
        r.body_a = a;
        r.body_b = b;
        rc_joint_id j = rc_joint_create_revolute(w, &r);
        ck_assert(!rc_joint_id_is_null(j));
        EXPECT(rc_revolute_joint_angle(w, j) == 0.0f, "bodies at %g and %g: a new hinge at angle %g",
               (double)pairs[k][0], (double)pairs[k][1], (double)rc_revolute_joint_angle(w, j));
        rc_world_destroy(w);
    }
}
END_TEST

/* A rail on a kinematic body turning at 1,000 rad/s, its anchor 1,000 units out (the rail's
 * point sweeps at 1e6 units/s), with a limit and a motor, holding a body of no shapes (mass 1,
 * it does not turn): the joint asks the body for more than the world's max_linear_speed. The
 * sub-steps moved its position by that: 1e9 units in three steps of 1/60 s, and over steps of
 * up to a minute the separation the next sub-step saw grew 1e4-fold a sub-step until it
 * overflowed (fuzz_world, seed 2). No body moves further in a step than max_linear_speed times
 * dt, and everything stays finite. */
START_TEST(a_rail_on_a_spinning_kinematic_body) {
    const float dts[3] = {1.0f / 60.0f, 15.0f, 60.0f};
    const float top = rc_world_default_def().max_linear_speed;
    for (int k = 0; k < 3; ++k) {
        rc_world *w = make_world(rc_v2(0, -10), false);
        rc_body_id body = body_at(w, RC_DYNAMIC, rc_v2(0.125f, 15.625f), 0.0f);
        ck_assert(rc_body_set_linear_velocity(w, body, rc_v2(10.375f, 14.375f)));
        ck_assert(rc_body_set_angular_velocity(w, body, 14.375f));
        rc_body_id spinner = body_at(w, RC_KINEMATIC, rc_v2(0, -4.625f), -15.125f);
        ck_assert(rc_body_set_angular_velocity(w, spinner, 1000.0f));
        ck_assert(rc_body_set_linear_velocity(w, spinner, rc_v2(-1.375f, 0)));
        rc_prismatic_joint_def p = rc_prismatic_joint_default_def();
        p.body_a = spinner;
        p.body_b = body;
        p.local_anchor_a = rc_v2(1000, 0);
        p.local_anchor_b = rc_v2(14.375f, 5.625f);
        p.enable_limit = true;
        p.enable_motor = true;
        p.max_motor_force = 14.375f;
        rc_joint_id j = rc_joint_create_prismatic(w, &p);
        ck_assert(!rc_joint_id_is_null(j));
        double worst = 0.0; /* the longest move in a step over what the speed limit allows */
        for (int i = 0; i < 6; ++i) {
            float dt = i < 3 ? 1.0f / 60.0f : dts[k];
            rc_vec2 before = rc_body_position(w, body);
            ck_assert(rc_world_step(w, dt));
            expect_finite(w, body, j);
            rc_vec2 after = rc_body_position(w, body);
            worst = fmax(worst, hypot((double)after.x - before.x, (double)after.y - before.y) / ((double)top * dt));
        }
        REPORT("rail on a spinner, then steps of %g s: the body at (%g, %g), moved at most %.6f of the speed limit\n",
               (double)dts[k], (double)rc_body_position(w, body).x, (double)rc_body_position(w, body).y, worst);
        EXPECT(worst <= 1.0 + 1.0e-5, "a step moved the body %g times what max_linear_speed allows", worst);
        rc_world_destroy(w);
    }
}
END_TEST

/* A disc (radius 0.25, a swept circle) welded at its centre to the centre of a static box
 * [-0.5, 0.5]^2 it starts 3 above. With collide_connected false (the default) the two do not
 * collide, so the weld pulls the disc into the box, to its anchor (0, 0) (a box-shaped body
 * always went there); the disc's sweep struck the box all the same and the disc hung at its top,
 * 0.7501 up, for ever. With collide_connected true the two fight for ever, the weld as stiff as a
 * float can say (FLT_MAX Hz): each sub-step adds to both accumulated impulses, and the weld's
 * reached FLT_MAX and its warm start made the disc infinite (fuzz_world, seed 2); impulses are
 * held within JOINT_MAX_IMPULSE, through steps of 1/60 s and of a minute. */
static rc_world *welded_disc_over_a_box(bool collide, rc_body_id *disc, rc_joint_id *joint) {
    rc_world *w = make_world(rc_v2(0, -10), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    add_box(w, ground, rc_v2(0, 0), 0.5f, 0.5f, 1.0f);
    *disc = circle_body(w, rc_v2(0, 3), 0.25f, 1.0f);
    ck_assert(rc_body_set_linear_velocity(w, *disc, rc_v2(1, 0)));
    rc_weld_joint_def d = rc_weld_joint_default_def();
    d.body_a = ground;
    d.body_b = *disc;
    d.linear_hertz = collide ? FLT_MAX : 0.0f;
    d.linear_damping_ratio = 8.0f;
    d.angular_hertz = 0.125f;
    d.angular_damping_ratio = 12.0f;
    d.collide_connected = collide;
    *joint = rc_joint_create_weld(w, &d);
    ck_assert(!rc_joint_id_is_null(*joint));
    return w;
}

START_TEST(a_welded_disc_and_its_box) {
    rc_body_id disc;
    rc_joint_id j;
    rc_world *w = welded_disc_over_a_box(false, &disc, &j);
    step(w, 60);
    rc_vec2 p = rc_body_position(w, disc);
    REPORT("disc welded into a box it does not collide with: at (%g, %g) after 1 s\n", (double)p.x, (double)p.y);
    EXPECT(fabsf(p.x) <= 1.0e-4f && fabsf(p.y) <= 1.0e-4f, "the disc is at (%g, %g), not (0, 0)", (double)p.x,
           (double)p.y);
    rc_world_destroy(w);

    const float dts[2] = {1.0f / 60.0f, 60.0f};
    for (int k = 0; k < 2; ++k) {
        w = welded_disc_over_a_box(true, &disc, &j);
        for (int i = 0; i < 600; ++i) {
            ck_assert(rc_world_step(w, i < 300 ? 1.0f / 60.0f : dts[k]));
            expect_finite(w, disc, j);
        }
        p = rc_body_position(w, disc);
        REPORT("disc welded into a box it collides with, steps of %g s: at (%g, %g), reaction (%g, %g)\n",
               (double)dts[k], (double)p.x, (double)p.y, (double)rc_joint_reaction_force(w, j).x,
               (double)rc_joint_reaction_force(w, j).y);
        EXPECT(p.y >= 0.7f, "the disc went into the box it collides with: (%g, %g)", (double)p.x, (double)p.y);
        rc_world_destroy(w);
    }
}
END_TEST

/* A crate (1 x 1, mass 1) dragged by a strong mouse joint (5 Hz, at most 10,000) into a wall with
 * no gravity: it comes to rest against the wall, held by a pull of 987 x 3.5 = 3,454 that its
 * contacts balance step after step from their carried impulses. It sinks 0.030 into the wall
 * (the contacts' give) and stays still. When the contacts' carried impulses were held to what a
 * body's contacts alone may need (the warm start's share, which leaves out joints) the crate
 * sank 0.044. */
START_TEST(a_crate_dragged_into_a_wall_keeps_its_contacts_warm_start) {
    rc_world *w = make_world(rc_v2(0, 0), false);
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(5.5f, 0), 0.0f);
    add_box(w, wall, rc_v2(0, 0), 0.5f, 5.0f, 1.0f);
    rc_body_id crate = box_body(w, rc_v2(0, 0), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_mouse_joint_def d = rc_mouse_joint_default_def();
    d.body = crate;
    d.target = rc_v2(0, 0);
    d.max_force = 10000.0f;
    rc_joint_id j = rc_joint_create_mouse(w, &d);
    ck_assert(rc_joint_is_valid(w, j));
    ck_assert(rc_mouse_joint_set_target(w, j, rc_v2(8, 0)));
    float deepest = 0.0f, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 300; ++i) {
        ck_assert(rc_world_step(w, DT));
        float x = rc_body_position(w, crate).x;
        deepest = fmaxf(deepest, x + 0.5f - 5.0f);
        if (i >= 240) {
            lo = fminf(lo, x);
            hi = fmaxf(hi, x);
        }
    }
    printf("[joints] a crate dragged into a wall: %.4f deep at most, still within %.2g\n", (double)deepest,
           (double)(hi - lo));
    ck_assert_msg(deepest < 0.035f, "the crate sank %.4f into the wall", (double)deepest);
    ck_assert_msg(hi - lo < 1e-4f, "the crate moves by %g at rest", (double)(hi - lo));
    rc_world_destroy(w);
}
END_TEST

/* A body with no shape (no inertia: nothing can turn it, and nothing stops its turning either)
 * spinning at 2 rad/s on a rail of the static ground, with no gravity. The rail's angular row can
 * do nothing for it: the reaction torque is exactly 0 and the spin stays exactly 2 rad/s. The
 * row asked for the spin anyway and wound its impulse up by the spin in every pass, with no
 * effect (the reaction torque read 4.6e5 N m after 2 s) until the body got an inertia: then the
 * warm start flung it (fuzz_world, seed 22: 1e26 after a few such steps, then NaN). Once a disc
 * (radius 0.5) is added, the rail holds the disc's angle: it turns the disc back by the 4 rad it
 * turned (a soft correction, about 70% of what is left each step) and, as every rigid row's
 * relax pass does, leaves it no spin at the end of a step; the disc stays at the anchor. */
START_TEST(a_rail_asks_no_turn_of_a_body_that_cannot_turn) {
    rc_world *w = make_world(rc_v2(0, 0), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id body = body_at(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    ck_assert(rc_body_set_angular_velocity(w, body, 2.0f));
    rc_prismatic_joint_def d = rc_prismatic_joint_default_def();
    d.body_a = ground;
    d.body_b = body;
    rc_joint_id j = rc_joint_create_prismatic(w, &d);
    ck_assert(!rc_joint_id_is_null(j));
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, DT));
        EXPECT(rc_joint_reaction_torque(w, j) == 0.0f, "step %d: reaction torque %g on a body that cannot turn", i,
               (double)rc_joint_reaction_torque(w, j));
        EXPECT(rc_body_angular_velocity(w, body) == 2.0f, "step %d: spin %g", i,
               (double)rc_body_angular_velocity(w, body));
    }
    EXPECT(fabsf(rc_body_angle(w, body) - 4.0f) <= 1.0e-4f, "turned %g in 2 s, not 4", (double)rc_body_angle(w, body));
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, body, &sd, 0.5f)));
    float fastest = 0.0f;
    for (int i = 0; i < 60; ++i) {
        ck_assert(rc_world_step(w, DT));
        expect_finite(w, body, j);
        fastest = fmaxf(fastest, fabsf(rc_body_angular_velocity(w, body)));
    }
    rc_vec2 p = rc_body_position(w, body);
    REPORT("a rail and a body that could not turn: then a disc, spinning at most %g rad/s, at (%g, %g), turned %g\n",
           (double)fastest, (double)p.x, (double)p.y, (double)rc_body_angle(w, body));
    EXPECT(fastest <= 1.0e-3f, "the rail left the disc spinning at %g rad/s", (double)fastest);
    EXPECT(fabsf(rc_body_angle(w, body)) <= 1.0e-3f, "the rail left the disc turned by %g",
           (double)rc_body_angle(w, body));
    EXPECT(fabsf(p.x) <= 1.0e-3f && fabsf(p.y) <= 1.0e-3f, "the disc left its place: (%g, %g)", (double)p.x,
           (double)p.y);
    rc_world_destroy(w);
}
END_TEST

/* One float solve of a hinge (world/joint.h's passes), on velocities far past the world's top
 * speeds, as the joints before it in a pass may leave a body (fuzz_world, seed 22: 4e28 units/s
 * and 3.4e32 rad/s within a sub-step, then NaN in the next joint's products). The solve takes
 * them held within the top speeds: its result is bit for bit the result of the same solve on
 * velocities at the top speeds, and finite. Two discs (inverse mass 1, inverse inertia 2) hinged
 * by anchors 1,000 from their centres (a product of 3e38 rad/s and that arm is infinite). The
 * hinge is plain (rc_joint_is_plain): solved alone (the joints no colour took) or in a block of
 * four lanes (colour 0), the same bits either way. */
typedef struct hinge_room {
    _Alignas(64) rc_solver_line lines[16]; /* (blocks are aligned as the world's) */
    rc_joint_runs runs;
} hinge_room;

static void hinge_step(rc_soft_step *s, rc_joint_constraint *c, rc_body_state st[4], float spin_limits[4],
                       float turns[4], hinge_room *room, bool lanes) {
    memset(s, 0, sizeof *s);
    memset(c, 0, sizeof *c);
    c->type = RC_REVOLUTE_JOINT;
    c->a = 0;
    c->b = 1;
    c->moves_a = c->moves_b = true;
    c->ma = c->mb = 1.0f;
    c->ia = c->ib = 2.0f;
    c->anchor_a = rc_v2(1000.0f, 0.0f);
    c->anchor_b = rc_v2(-1000.0f, 0.0f);
    c->delta_center = rc_v2(2000.0f, 0.0f);
    c->hard = (rc_softness){60.0f, 0.9f, 0.1f};
    c->spring = c->angular = (rc_softness){0.0f, 1.0f, 0.0f};
    s->states = st;
    s->state_count = 2;
    s->joints = c;
    s->joint_count = 1;
    s->spin_limits = spin_limits;
    s->turns = turns;
    s->sub_steps = 4;
    s->h = 1.0f / 240.0f;
    s->inv_h = 240.0f;
    s->max_speed = 1.0e6f;
    s->max_spin = 1.0e5f;
    ck_assert(rc_joint_is_plain(c));
    ck_assert_int_le(rc_joint_block_lines(1), 16);
    memset(room, 0, sizeof *room);
    for (int k = lanes ? 1 : RC_JOINT_COLORS + 1; k < RC_JOINT_COLORS + 2; ++k) {
        room->runs.start[k] = 1; /* colour 0 holds it, or the joints no colour took */
    }
    room->runs.plain[0] = lanes ? 1 : 0;
    for (int k = 1; k <= RC_JOINT_COLORS; ++k) {
        room->runs.block_start[k] = lanes ? 1 : 0;
    }
    s->joint_runs = &room->runs;
    s->joint_blocks = room->lines;
}

/* The hinge's solve, packed into its block first and its impulse back after when in lanes. */
static void hinge_solve(rc_soft_step *s, bool lanes, bool use_bias) {
    if (lanes) {
        rc_joints_pack(s);
    }
    rc_joints_solve(s, use_bias);
    if (lanes) {
        rc_joints_unpack(s);
    }
}

START_TEST(a_float_solve_takes_velocities_within_the_top_speeds) {
    const float top = 1.0e6f, spin = 1.0e5f;
    const float fast[3] = {2.0e6f, 4.0e28f, FLT_MAX};
    rc_body_state alone_v[2];
    rc_vec2 alone_impulse = {0.0f, 0.0f};
    for (int k = 0; k < 3; ++k) {
        for (int bias = 0; bias < 2; ++bias) {
          for (int lanes = 0; lanes < 2; ++lanes) {
            rc_body_state far[4], held[4];
            memset(far, 0, sizeof far);
            far[0].v = rc_v2(fast[k], -fast[k]);
            far[0].w = fast[k];
            far[1].v = rc_v2(-fast[k], 0.5f);
            far[1].w = -fast[k];
            for (int i = 0; i < 4; ++i) {
                far[i].dq = (rc_rot){1.0f, 0.0f};
            }
            memcpy(held, far, sizeof far);
            held[0].v = rc_v2(top, -top);
            held[0].w = spin;
            held[1].v = rc_v2(-top, 0.5f);
            held[1].w = -spin;
            float limits[4] = {spin, spin, spin, spin}, turns_far[4] = {0}, turns_held[4] = {0};
            rc_soft_step sf, sh;
            rc_joint_constraint cf, ch;
            static hinge_room room_far, room_held;
            hinge_step(&sf, &cf, far, limits, turns_far, &room_far, lanes != 0);
            hinge_step(&sh, &ch, held, limits, turns_held, &room_held, lanes != 0);
            hinge_solve(&sf, lanes != 0, bias != 0);
            hinge_solve(&sh, lanes != 0, bias != 0);
            ck_assert(!cf.wide);
            for (int i = 0; i < 2; ++i) {
                EXPECT(isfinite(far[i].v.x) && isfinite(far[i].v.y) && isfinite(far[i].w),
                       "speed %g, bias %d: side %d (%g, %g) %g", (double)fast[k], bias, i, (double)far[i].v.x,
                       (double)far[i].v.y, (double)far[i].w);
                EXPECT(memcmp(&far[i].v, &held[i].v, sizeof far[i].v) == 0 && memcmp(&far[i].w, &held[i].w, 4) == 0,
                       "speed %g, bias %d: side %d (%g, %g) %g, at the top speeds (%g, %g) %g", (double)fast[k], bias,
                       i, (double)far[i].v.x, (double)far[i].v.y, (double)far[i].w, (double)held[i].v.x,
                       (double)held[i].v.y, (double)held[i].w);
            }
            EXPECT(memcmp(&cf.linear_impulse, &ch.linear_impulse, sizeof cf.linear_impulse) == 0,
                   "speed %g, bias %d: impulse (%g, %g), at the top speeds (%g, %g)", (double)fast[k], bias,
                   (double)cf.linear_impulse.x, (double)cf.linear_impulse.y, (double)ch.linear_impulse.x,
                   (double)ch.linear_impulse.y);
            /* the block's lanes give the bits the joint alone gets */
            if (lanes == 0) {
                memcpy(alone_v, far, sizeof alone_v);
                alone_impulse = cf.linear_impulse;
            } else {
                /* (velocities and impulse: a block's scatter leaves w in the spare, never read) */
                bool same = memcmp(&alone_impulse, &cf.linear_impulse, sizeof alone_impulse) == 0;
                for (int i = 0; i < 2; ++i) {
                    same = same && memcmp(&alone_v[i].v, &far[i].v, sizeof far[i].v) == 0 &&
                           memcmp(&alone_v[i].w, &far[i].w, sizeof far[i].w) == 0;
                }
                EXPECT(same,
                       "speed %g, bias %d: in a block (%g, %g) %g, alone (%g, %g) %g", (double)fast[k], bias,
                       (double)far[0].v.x, (double)far[0].v.y, (double)far[0].w, (double)alone_v[0].v.x,
                       (double)alone_v[0].v.y, (double)alone_v[0].w);
            }
          }
        }
    }
}
END_TEST

static Suite *extremes_suite(void) {
    Suite *s = suite_create("joints_extremes");
    TCase *tc = tcase_create("extremes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, far_anchors_hold_a_rail);
    tcase_add_test(tc, far_anchors_between_two_moving_bodies);
    tcase_add_test(tc, edge_of_the_world_and_a_feather);
    tcase_add_test(tc, springs_of_any_stiffness_and_damping);
    tcase_add_test(tc, stiff_mouse_and_weld);
    tcase_add_test(tc, a_denormal_step);
    tcase_add_test(tc, limits_out_of_reach);
    tcase_add_test(tc, bodies_at_angles_near_flt_max);
    tcase_add_test(tc, a_new_hinge_is_at_zero);
    tcase_add_test(tc, a_rail_on_a_spinning_kinematic_body);
    tcase_add_test(tc, a_welded_disc_and_its_box);
    tcase_add_test(tc, a_crate_dragged_into_a_wall_keeps_its_contacts_warm_start);
    tcase_add_test(tc, a_rail_asks_no_turn_of_a_body_that_cannot_turn);
    tcase_add_test(tc, a_float_solve_takes_velocities_within_the_top_speeds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(extremes_suite()); }
