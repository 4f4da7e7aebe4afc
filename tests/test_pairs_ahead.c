/* Pairs found in time (world/move.c: proxy_target_ahead). A moved solid shape of a dynamic or
 * kinematic body that is not swept keeps a grid box over where it is and where the step's move
 * would take it in the next step, so that a pair whose shapes may close in the next step is
 * found at this step's end, and its contact's speculative points meet the shapes where they
 * touch. Found only once their grid boxes overlapped, the pair came a step late for bodies
 * closing faster than the boxes' margins: two crates flying head-on at 15 units/s each sank
 * 0.35 into each other (a third of their width) before the contact pushed them out. A grenade
 * looks ahead the same way (world/sweep_step.c: follow_sweep): its sweep meets static and
 * kinematic bodies, dynamic ones only the solver's contacts. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

/* Two crates (half size 0.5, no gravity, no restitution) flying at each other at `speed` each,
 * their gap at the start `gap`: the deepest they overlap along their line in 60 steps. */
static float head_on_overlap(float speed, float gap) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_id b[2];
    for (int i = 0; i < 2; ++i) {
        float x = i == 0 ? -0.5f - 0.5f * gap : 0.5f + 0.5f * gap;
        b[i] = ws_body(w, RC_DYNAMIC, rc_v2(x, 0.0f), 0.0f);
        rc_shape_def sd = rc_shape_default_def();
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b[i], &sd, 0.5f, 0.5f)));
        ck_assert(rc_body_set_linear_velocity(w, b[i], rc_v2(i == 0 ? speed : -speed, 0.0f)));
    }
    float worst = 0.0f;
    for (int step = 0; step < 60; ++step) {
        ck_assert(rc_world_step(w, DT));
        float overlap = 1.0f - (rc_body_position(w, b[1]).x - rc_body_position(w, b[0]).x);
        worst = fmaxf(worst, overlap);
    }
    rc_world_destroy(w);
    return worst;
}

/* At 1 to 15 units/s each (a closing of a twentieth to half a unit a step: slow for their size,
 * so no continuous collision, which meets static and kinematic bodies alone), 40 starting gaps
 * each: measured, the deepest overlap grows from 0.0025 to 0.059, where it was 0.0025 to 0.35
 * (0.085 at 7 units/s each, where the closing first outran the margins). */
START_TEST(crates_flying_head_on_are_met_where_they_touch) {
    float worst_fast = 0.0f;
    for (int s = 0; s < 8; ++s) {
        float speed = 1.0f + 2.0f * (float)s;
        for (int g = 0; g < 40; ++g) {
            float overlap = head_on_overlap(speed, 1.0f + 0.0137f * (float)g);
            /* within the step's closing a speculative contact holds them to a few slops, and
               never beyond an eighth of that closing */
            float bound = 0.02f + 0.125f * 2.0f * speed * DT;
            WS_EXPECT(overlap <= bound, "%g units/s each, gap %g: overlap %g (bound %g)", (double)speed,
                      1.0 + 0.0137 * g, (double)overlap, (double)bound);
            worst_fast = speed == 15.0f ? fmaxf(worst_fast, overlap) : worst_fast;
        }
    }
    printf("[pairs ahead] crates head-on at 15 units/s each: deepest overlap %.4f\n", (double)worst_fast);
}
END_TEST

/* A kinematic plate (1 x 0.2) sliding along the floor into a crate at rest at 6 to 27 units/s
 * (0.1 to 0.45 a step: faster than the margins, slow for the crate's size): the plate pushes
 * the crate ahead of it, and the crate is never found inside it by more than a few slops (the
 * pair found late, it was 0.1 inside at 15 units/s). */
START_TEST(a_kinematic_plate_meets_a_crate_where_it_touches) {
    for (int s = 0; s < 8; ++s) {
        float speed = 6.0f + 3.0f * (float)s;
        rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
        rc_body_id plate = ws_body(w, RC_KINEMATIC, rc_v2(-3.0f, 0.0f), 0.0f);
        rc_shape_def sd = rc_shape_default_def();
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, plate, &sd, 0.1f, 0.5f)));
        ck_assert(rc_body_set_linear_velocity(w, plate, rc_v2(speed, 0.0f)));
        rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.0f), 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.25f, 0.25f)));
        float worst = 0.0f;
        for (int step = 0; step < 40; ++step) {
            ck_assert(rc_world_step(w, DT));
            /* the plate's front face against the crate's back face */
            float overlap = (rc_body_position(w, plate).x + 0.1f) - (rc_body_position(w, crate).x - 0.25f);
            worst = fmaxf(worst, overlap);
        }
        WS_EXPECT(worst <= 0.03f, "plate at %g units/s: the crate %g inside it", (double)speed, (double)worst);
        WS_EXPECT(rc_body_linear_velocity(w, crate).x >= speed - 0.01f, "plate at %g units/s: crate at %g",
                  (double)speed, (double)rc_body_linear_velocity(w, crate).x);
        rc_world_destroy(w);
    }
}
END_TEST

/* A grenade (no gravity, no friction, no restitution) thrown at `speed` along the x axis at a
 * free target at rest 12 units ahead: a crate of 1 (half width 0.5) or a plank 0.1 thick and 2
 * high (half width 0.05). Returns the deepest the grenade's front went past the target's near
 * face over 90 steps; *together: the target's velocity at the end, *grenade the grenade's. */
static float grenade_into_target(float speed, float radius, float half_width, float half_height, float *together,
                                 float *grenade) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.0f;
    rc_body_id target = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, target, &sd, half_width, half_height)));
    rc_body_id g = ws_body(w, RC_DYNAMIC, rc_v2(-12.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, g, &sd, radius)));
    ck_assert_int_eq(rc_body_get_motion(w, g), RC_MOTION_SWEPT_CIRCLE);
    ck_assert(rc_body_set_linear_velocity(w, g, rc_v2(speed, 0.0f)));
    float worst = -INFINITY;
    for (int step = 0; step < 90; ++step) {
        ck_assert(rc_world_step(w, DT));
        float past = (rc_body_position(w, g).x + radius) - (rc_body_position(w, target).x - half_width);
        worst = fmaxf(worst, past);
    }
    *together = rc_body_linear_velocity(w, target).x;
    *grenade = rc_body_linear_velocity(w, g).x;
    rc_world_destroy(w);
    return worst;
}

/* Grenades of radius 0.1 and 0.25 at 10 to 120 units/s (a sixth of a unit to two units a step)
 * into a free crate and a free plank 0.1 thick: each is met where it touches (never more than a
 * slop into the target; measured, at most 0.001) and the two go on together at m v / (m + M)
 * (momentum kept, no bounce). Before grenades looked ahead, one at 20 units/s passed through the
 * plank and one at 60 through the crate without touching either (their boxes never overlapped
 * at a step's end), and slower ones were found 0.2 inside the crate and pushed out. */
START_TEST(grenades_meet_free_props_where_they_touch) {
    const float half_widths[2] = {0.5f, 0.05f}, half_heights[2] = {0.5f, 1.0f}, radii[2] = {0.1f, 0.25f};
    for (int t = 0; t < 2; ++t) {
        for (int r = 0; r < 2; ++r) {
            for (int s = 0; s < 8; ++s) {
                float speed = 10.0f + 15.8f * (float)s, target_v, grenade_v;
                float past = grenade_into_target(speed, radii[r], half_widths[t], half_heights[t], &target_v, &grenade_v);
                double m = 3.14159265358979 * (double)radii[r] * (double)radii[r];
                double big = 4.0 * (double)half_widths[t] * (double)half_heights[t];
                double expect = m * (double)speed / (m + big);
                WS_EXPECT(past <= 0.005f, "radius %g at %g units/s into the %s: %g past its face", (double)radii[r],
                          (double)speed, t == 0 ? "crate" : "plank", (double)past);
                WS_EXPECT(fabs((double)target_v - expect) <= 0.01 * expect && fabs((double)grenade_v - expect) <= 0.01 * expect,
                          "radius %g at %g units/s into the %s: target %g, grenade %g, expected both %g",
                          (double)radii[r], (double)speed, t == 0 ? "crate" : "plank", (double)target_v,
                          (double)grenade_v, expect);
            }
        }
    }
}
END_TEST

/* Two crates of half size `half` (no gravity, friction or restitution) flying face on at each
 * other, a at `va` and b at `vb` along x, 12 units apart: over 60 steps the most they turned
 * and overlapped; *a_v and *b_v their velocities at the end, *crossed whether a ended beyond b. */
static void face_on(float half, float va, float vb, float *turned, float *overlap, float *a_v, float *b_v,
                    bool *crossed) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.0f;
    rc_body_id b[2];
    for (int i = 0; i < 2; ++i) {
        b[i] = ws_body(w, RC_DYNAMIC, rc_v2(i == 0 ? -6.0f : 6.0f, 0.0f), 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b[i], &sd, half, half)));
        ck_assert(rc_body_set_linear_velocity(w, b[i], rc_v2(i == 0 ? va : vb, 0.0f)));
    }
    *turned = 0.0f;
    *overlap = 0.0f;
    for (int step = 0; step < 60; ++step) {
        ck_assert(rc_world_step(w, DT));
        *turned = fmaxf(*turned, fmaxf(fabsf(rc_body_angle(w, b[0])), fabsf(rc_body_angle(w, b[1]))));
        *overlap = fmaxf(*overlap, 2.0f * half - (rc_body_position(w, b[1]).x - rc_body_position(w, b[0]).x));
    }
    *a_v = rc_body_linear_velocity(w, b[0]).x;
    *b_v = rc_body_linear_velocity(w, b[1]).x;
    *crossed = rc_body_position(w, b[0]).x >= rc_body_position(w, b[1]).x;
    rc_world_destroy(w);
}

/* Crates of half size 0.1, 0.25 and 0.5 meeting face on, closing by a sixth of a unit to four
 * units a step (speculative contacts at both points of a face, the pair found a step ahead):
 * they never pass through each other, never turn (at most 0.001 rad) nor overlap (at most
 * 0.005), and go on together at the mean of their velocities (within 2% of the speed), their
 * momentum kept. A two-point contact apart at both points, or meeting at both, is solved as one
 * (contact_solver.c: solve_normal). Point after point, the first point's impulse turned the pair
 * before the second's was found: crates 0.2 wide at 30 to 60 units/s each turned past each
 * other and flew on apart at up to 7.5 units/s; and once the gaps closed, the impact (and the
 * warm start of its impulse in the next sub-step) still turned pairs by up to 2 rad as they
 * met, a corner then up to 0.05 into the other crate. */
START_TEST(crates_meeting_face_on_stop_where_they_touch) {
    const float halves[3] = {0.1f, 0.25f, 0.5f};
    for (int h = 0; h < 3; ++h) {
        for (int s = 0; s < 6; ++s) {
            for (int resting = 0; resting < 2; ++resting) {
                float speed = 10.0f + 10.0f * (float)s;
                float va = resting ? 2.0f * speed : speed, vb = resting ? 0.0f : -speed;
                float turned, overlap, a_v, b_v;
                bool crossed;
                face_on(halves[h], va, vb, &turned, &overlap, &a_v, &b_v, &crossed);
                float mean = 0.5f * (va + vb);
                WS_EXPECT(!crossed && turned <= 1e-3f && overlap <= 0.005f && fabsf(a_v - mean) <= 0.02f * speed &&
                              fabsf(b_v - mean) <= 0.02f * speed && fabsf((a_v + b_v) - (va + vb)) <= 1e-3f * speed,
                          "half %g, %g into %g: crossed %d, velocities %g and %g (expected %g; turned %g rad, "
                          "overlap %g)",
                          (double)halves[h], (double)va, (double)vb, crossed, (double)a_v, (double)b_v, (double)mean,
                          (double)turned, (double)overlap);
            }
        }
    }
}
END_TEST

/* A crate (half size 0.25) thrown face on at a free plank at rest (half width `half_width`, 2
 * high), 5 units away at `speed` (no gravity, friction or restitution): over 60 steps the most
 * either turned, and their velocities along x at the end. */
static void crate_into_plank(float half_width, float speed, float *turned, float *crate_v, float *plank_v) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.0f;
    rc_body_id plank = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, plank, &sd, half_width, 1.0f)));
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(-5.0f - half_width - 0.25f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.25f, 0.25f)));
    ck_assert(rc_body_set_linear_velocity(w, crate, rc_v2(speed, 0.0f)));
    *turned = 0.0f;
    for (int step = 0; step < 60; ++step) {
        ck_assert(rc_world_step(w, DT));
        *turned = fmaxf(*turned, fmaxf(fabsf(rc_body_angle(w, crate)), fabsf(rc_body_angle(w, plank))));
    }
    *crate_v = rc_body_linear_velocity(w, crate).x;
    *plank_v = rc_body_linear_velocity(w, plank).x;
    rc_world_destroy(w);
}

/* A crate thrown face on at a free plank 0.1 to 0.4 thick, at 10 to 60 units/s: neither turns
 * (at most 0.001 rad) and both go on together at m v / (m + M) (within 1%; no restitution).
 * Solved point by point once the gap closed, the impact's impulse (and its warm start in the
 * next sub-step, taken back point by point) left a crate thrown at a plank 0.1 thick at 30
 * units/s spinning at 4.7 rad/s, the plank 1.3 units/s faster than it. */
START_TEST(a_crate_thrown_face_on_at_a_free_plank_does_not_turn) {
    const float half_widths[3] = {0.05f, 0.1f, 0.2f};
    for (int h = 0; h < 3; ++h) {
        for (int v = 0; v < 6; ++v) {
            float speed = 10.0f * (float)(v + 1), turned, crate_v, plank_v;
            crate_into_plank(half_widths[h], speed, &turned, &crate_v, &plank_v);
            double m = 0.25, big = 4.0 * (double)half_widths[h];
            double expect = m * (double)speed / (m + big);
            WS_EXPECT(turned <= 1e-3f && fabs((double)crate_v - expect) <= 0.01 * expect &&
                          fabs((double)plank_v - expect) <= 0.01 * expect,
                      "a crate at %g units/s into a plank %g thick: turned %g rad, crate %g and plank %g units/s "
                      "(expected both %g)",
                      (double)speed, 2.0 * (double)half_widths[h], (double)turned, (double)crate_v, (double)plank_v,
                      expect);
        }
    }
}
END_TEST

/* A kinematic blade (6 long, 0.1 thick) turning at `omega` about its middle, with no gravity,
 * among twelve free crates 0.2 wide (or grenades of radius 0.1) set about it at 0.5 to 0.5 + 11
 * `spacing` from its middle at angles from 0.7 + `phase` on (with `clear`, each turned on until
 * it is clear of the blade's face by more than a crate's reach): over two seconds the deepest
 * any goes into the blade's face along its normal (measured across the blade, away from its
 * tips). */
static float deepest_into_a_blade(float omega, bool grenades, float phase, float spacing, bool clear) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id blade = ws_body(w, RC_KINEMATIC, rc_v2(0.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, blade, &sd, 3.0f, 0.05f)));
    ck_assert(rc_body_set_angular_velocity(w, blade, omega));
    rc_body_id props[12];
    for (int i = 0; i < 12; ++i) {
        float r = 0.5f + spacing * (float)i, a = 0.7f + phase + 0.45f * (float)i;
        while (clear && fabsf(r * sinf(a)) < 0.35f) {
            a += 0.1f;
        }
        props[i] = ws_body(w, RC_DYNAMIC, rc_v2(r * cosf(a), r * sinf(a)), 0.0f);
        rc_shape_id shape = grenades ? rc_shape_create_circle(w, props[i], &sd, 0.1f)
                                     : rc_shape_create_box(w, props[i], &sd, 0.1f, 0.1f);
        ck_assert(!rc_shape_id_is_null(shape));
    }
    float deepest = 0.0f;
    for (int step = 0; step < 120; ++step) {
        ck_assert(rc_world_step(w, DT));
        rc_transform xf = rc_body_transform(w, blade);
        for (int i = 0; i < 12; ++i) {
            rc_vec2 local = rc_inv_transform_point(xf, rc_body_position(w, props[i]));
            float reach = 0.1f; /* a grenade's radius; a crate's half extent across the blade: */
            if (!grenades) {
                float turned = rc_body_angle(w, props[i]) - rc_body_angle(w, blade);
                reach = 0.1f * (fabsf(cosf(turned)) + fabsf(sinf(turned)));
            }
            if (fabsf(local.x) < 2.9f) {
                deepest = fmaxf(deepest, 0.05f + reach - fabsf(local.y));
            }
        }
    }
    rc_world_destroy(w);
    return deepest;
}

/* A turning blade pushes props aside, as its face turns: crates flung out along a blade 6 long
 * turning at 5, 10 and 20 rad/s (its tips at 15, 30 and 60 units/s) stay within 0.025 of its
 * face (measured 0.004, 0.013 and 0.020), grenades within a slop. The normals of contacts with
 * the blade's faces turn with it through the step, and the face's anchor follows the crate's
 * point as it slides (contact_solver.c: turn_normals); held over the step, crates sank 0.048
 * and 0.117 into the blade 0.1 thick. At 20 rad/s they sank 0.11 while the blade's grid box
 * did not look ahead by its turn (move.c: swing_of). */
START_TEST(a_turning_blade_pushes_props_aside) {
    const float omegas[3] = {5.0f, 10.0f, 20.0f};
    for (int i = 0; i < 3; ++i) {
        float crates = deepest_into_a_blade(omegas[i], false, 0.0f, 0.2f, false);
        float grenades = deepest_into_a_blade(omegas[i], true, 0.0f, 0.2f, false);
        printf("[pairs ahead] blade at %g rad/s: crates %.4f into its face at most, grenades %.4f\n", (double)omegas[i],
               (double)crates, (double)grenades);
        WS_EXPECT(crates <= 0.025f && grenades <= 0.005f, "blade at %g rad/s: crates %g into it, grenades %g",
                  (double)omegas[i], (double)crates, (double)grenades);
    }
}
END_TEST

/* A turning kinematic blade meets crates at rest about it with its face, and pushes them from
 * there: over 40 placements each at 5, 10 and 20 rad/s, no crate goes further into the blade
 * than 0.025, 0.04 and 0.08 (measured at most 0.014, 0.023 and 0.043; 0.007, 0.015 and 0.024 on
 * average). The contacts' speculative margin counts the blade's turn (its reach times its spin)
 * and its grid box looks ahead by it. Before, a kinematic body had no reach (rc_body_extents ran
 * for dynamic bodies only) and its box looked ahead by its move alone, so a crate in the blade's
 * way was met once the face was over it: 0.08, 0.11 and 0.15 deep on average, 0.19 at worst,
 * nearly through the blade 0.1 thick. */
START_TEST(crates_at_rest_about_a_turning_blade_meet_its_face) {
    const float omegas[3] = {5.0f, 10.0f, 20.0f}, limits[3] = {0.025f, 0.04f, 0.08f};
    for (int k = 0; k < 3; ++k) {
        float worst = 0.0f, sum = 0.0f;
        for (int placing = 0; placing < 40; ++placing) {
            float deepest = deepest_into_a_blade(omegas[k], false, 0.37f * (float)placing,
                                                 0.2f + 0.0001f * (float)(placing % 7), true);
            WS_EXPECT(deepest <= limits[k], "blade at %g rad/s, placing %d: a crate %g into it", (double)omegas[k],
                      placing, (double)deepest);
            worst = fmaxf(worst, deepest);
            sum += deepest;
        }
        printf("[pairs ahead] crates at rest about a blade at %g rad/s: %.4f into its face at most, %.4f on average\n",
               (double)omegas[k], (double)worst, (double)(sum / 40.0f));
    }
}
END_TEST

/* Props (crates, some with a ball on one end) thrown at 50 to 300 units/s past the end of a
 * kinematic blade turning at up to 20 rad/s, spinning up to 30 rad/s themselves: none comes
 * away faster than 1.5 times the speed it brought (its centre's and its turn's, plus twice the
 * blade's tip speed) in 20 steps over 3,000 throws (measured: never faster than it brought).
 * The contact of a prop passing near the blade's end is speculative, its points far from the
 * prop's centre along the normal; the normal turns with the blade (turn_normals), and the
 * normal mass at each point crosses the turned normal otherwise: the solve kept the mass found
 * for the step's first normal, up to 5.8 times the true one, and each of the restitution's
 * passes threw the prop on 4.8 times faster than the last. Before, 176 of 5,000 throws came
 * away up to 8,500 times too fast (a prop at 200 units/s thrown out at 141,000, turning at
 * the world's top turning speed). */
START_TEST(props_thrown_past_a_turning_blade_come_away_no_faster) {
    ws_rng r = {0x7f4a7c159e3779b9ULL};
    float worst = 0.0f;
    for (int k = 0; k < 3000; ++k) {
        rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
        rc_shape_def sd = rc_shape_default_def();
        sd.friction = ws_range(&r, 0.0, 1.0);
        sd.restitution = ws_range(&r, 0.0, 0.5);
        rc_body_id blade = ws_body(w, RC_KINEMATIC, rc_v2(0.0f, 0.0f), ws_range(&r, 0.0, 6.28));
        float half = ws_range(&r, 0.3, 1.5), thick = ws_range(&r, 0.05, 0.2), spin = ws_range(&r, -20.0, 20.0);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, blade, &sd, half, thick)));
        ck_assert(rc_body_set_angular_velocity(w, blade, spin));
        /* aimed at a point about the blade's end, from a third of a step to two steps away */
        float aim_r = ws_range(&r, 0.5, 1.2) * half, aim_a = ws_range(&r, 0.0, 6.28);
        float dir = ws_range(&r, 0.0, 6.28), speed = ws_range(&r, 50.0, 300.0);
        float back = ws_range(&r, 0.3, 2.0) * speed * DT;
        rc_vec2 from = {aim_r * cosf(aim_a) - back * cosf(dir), aim_r * sinf(aim_a) - back * sinf(dir)};
        rc_body_id prop = ws_body(w, RC_DYNAMIC, from, ws_range(&r, 0.0, 6.28));
        rc_shape_def pd = rc_shape_default_def();
        pd.density = ws_range(&r, 0.1, 3.0);
        pd.friction = ws_range(&r, 0.0, 1.0);
        pd.restitution = ws_range(&r, 0.0, 0.6);
        float s = ws_range(&r, 0.05, 0.4);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, prop, &pd, s, s * ws_range(&r, 0.2, 1.0))));
        if (ws_chance(&r, 0.5)) {
            pd.offset = rc_v2(s, 0.0f);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, prop, &pd, 0.5f * s)));
        }
        float prop_spin = ws_range(&r, -30.0, 30.0);
        ck_assert(rc_body_set_linear_velocity(w, prop, rc_v2(speed * cosf(dir), speed * sinf(dir))));
        ck_assert(rc_body_set_angular_velocity(w, prop, prop_spin));
        float brought = speed + fabsf(prop_spin) * 2.0f * s + 2.0f * fabsf(spin) * hypotf(half, thick);
        for (int step = 0; step < 20; ++step) {
            ck_assert(rc_world_step(w, DT));
            rc_vec2 v = rc_body_linear_velocity(w, prop);
            float ratio = hypotf(v.x, v.y) / brought;
            worst = fmaxf(worst, ratio);
            WS_EXPECT(ratio <= 1.5f, "throw %d, step %d: %g units/s, %g times what it brought", k, step,
                      (double)hypotf(v.x, v.y), (double)ratio);
        }
        rc_world_destroy(w);
    }
    printf("[pairs ahead] 3,000 props thrown past a turning blade's end: at most %.3f of the speed they brought\n",
           (double)worst);
}
END_TEST

/* How a mover gets its speed for a test below: made with it (the body's def), or at rest for
 * three steps and then given it between steps (set, or an impulse at its centre). */
typedef enum speed_given { MADE_WITH_IT, SET_LATER, IMPULSE_LATER } speed_given;

/* A mover (a grenade of radius 0.1, or a crate of half size 0.25) `gap` from a free target at
 * rest (a plank 0.1 thick or a crate of 1, both 2 high), given `speed` towards it (no gravity,
 * friction or restitution). Returns the deepest the mover's front went past the target's near
 * face over 60 steps; *mover_v, *target_v: their velocities along x at the end; *crossed
 * whether the mover ended beyond the target's centre. */
static float given_speed_near(speed_given how, bool grenade, bool plank, float gap, float speed, float *mover_v,
                              float *target_v, bool *crossed) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.0f;
    float half = plank ? 0.05f : 0.5f, reach = grenade ? 0.1f : 0.25f;
    rc_body_id target = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, target, &sd, half, 1.0f)));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(-half - gap - reach, 0.0f);
    bd.linear_velocity = how == MADE_WITH_IT ? rc_v2(speed, 0.0f) : rc_v2(0.0f, 0.0f);
    rc_body_id m = rc_body_create(w, &bd);
    rc_shape_id shape = grenade ? rc_shape_create_circle(w, m, &sd, reach) : rc_shape_create_box(w, m, &sd, reach, reach);
    ck_assert(!rc_shape_id_is_null(shape));
    if (how != MADE_WITH_IT) {
        for (int step = 0; step < 3; ++step) {
            ck_assert(rc_world_step(w, DT));
        }
        ck_assert_float_eq(rc_body_position(w, m).x, bd.position.x); /* (at rest until now) */
        if (how == SET_LATER) {
            ck_assert(rc_body_set_linear_velocity(w, m, rc_v2(speed, 0.0f)));
        } else {
            rc_vec2 impulse = rc_v2(rc_body_mass(w, m) * speed, 0.0f);
            ck_assert(rc_body_apply_linear_impulse(w, m, impulse, rc_body_position(w, m)));
        }
    }
    float worst = -INFINITY;
    for (int step = 0; step < 60; ++step) {
        ck_assert(rc_world_step(w, DT));
        float past = (rc_body_position(w, m).x + reach) - (rc_body_position(w, target).x - half);
        worst = fmaxf(worst, past);
    }
    *mover_v = rc_body_linear_velocity(w, m).x;
    *target_v = rc_body_linear_velocity(w, target).x;
    *crossed = rc_body_position(w, m).x > rc_body_position(w, target).x;
    rc_world_destroy(w);
    return worst;
}

/* A grenade or a crate made, or given its speed between steps, closer to a free plank or crate
 * than its first step takes it (gaps of 0.05 to 0.45 at 20 to 60 units/s: a third of a unit to
 * a unit a step) is met where it touches (never more than a slop into the target) and pushes
 * it on, momentum kept: the step's start looks ahead along the new speed (move.c:
 * rc_look_ahead_at_start). Before, every such mover passed through the plank without touching
 * it (its grid box looked ahead along the speed it had, none, and the pair came at the end of
 * the step it went through in), and went 0.3 into the crate before the contact pushed it out. */
START_TEST(bodies_given_speed_beside_free_props_meet_them) {
    const float gaps[3] = {0.05f, 0.2f, 0.45f}, speeds[3] = {20.0f, 30.0f, 60.0f};
    for (int how = MADE_WITH_IT; how <= IMPULSE_LATER; ++how) {
        for (int kind = 0; kind < 4; ++kind) {
            bool grenade = kind & 1, plank = kind & 2;
            for (int g = 0; g < 3; ++g) {
                for (int v = 0; v < 3; ++v) {
                    float mover_v, target_v;
                    bool crossed;
                    float past = given_speed_near((speed_given)how, grenade, plank, gaps[g], speeds[v], &mover_v,
                                                  &target_v, &crossed);
                    double mm = grenade ? 3.14159265358979 * 0.01 : 0.25, mt = plank ? 0.2 : 2.0;
                    double momentum = mm * (double)mover_v + mt * (double)target_v;
                    double expect = mm * (double)speeds[v];
                    WS_EXPECT(past <= 0.005f && !crossed && target_v > 0.0f &&
                                  fabs(momentum - expect) <= 1e-3 * expect,
                              "speed given %d, %s into a free %s %g away at %g units/s: %g past its face, crossed "
                              "%d, mover %g and target %g units/s (momentum %g, expected %g)",
                              how, grenade ? "grenade" : "crate", plank ? "plank" : "crate", (double)gaps[g],
                              (double)speeds[v], (double)past, crossed, (double)mover_v, (double)target_v, momentum,
                              expect);
                }
            }
        }
    }
}
END_TEST

/* The step's start reads what a speed given between steps left (listed grid moves, flagged
 * contacts), and a snapshot keeps it: a world restored from a snapshot taken between a kick
 * and the step steps on bit for bit as the world it was taken from. A row of crates 0.1 apart,
 * each kicked at the next (set, or an impulse) so that the pairs found at the step's start
 * decide the outcome. */
START_TEST(a_snapshot_between_a_kick_and_the_step_replays_it) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 20.0f, 0.5f)));
    rc_body_id crates[8];
    for (int i = 0; i < 8; ++i) {
        crates[i] = ws_body(w, RC_DYNAMIC, rc_v2(-4.0f + 0.6f * (float)i, 0.25f), 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crates[i], &sd, 0.25f, 0.25f)));
    }
    for (int step = 0; step < 30; ++step) {
        ck_assert(rc_world_step(w, DT));
    }
    for (int i = 0; i < 8; i += 2) {
        ck_assert(rc_body_set_linear_velocity(w, crates[i], rc_v2(25.0f, 3.0f)));
        ck_assert(rc_body_apply_linear_impulse(w, crates[i + 1], rc_v2(-4.0f, 0.5f), rc_v2(0.0f, 0.4f)));
    }
    size_t size = rc_world_snapshot_size(w);
    void *snapshot = malloc(size);
    ck_assert_ptr_nonnull(snapshot);
    ck_assert_uint_eq(rc_world_snapshot(w, snapshot, size), size);
    rc_transform first[8], again[8];
    for (int run = 0; run < 2; ++run) {
        if (run == 1) {
            ck_assert(rc_world_restore(w, snapshot, size));
        }
        for (int step = 0; step < 60; ++step) {
            ck_assert(rc_world_step(w, DT));
        }
        for (int i = 0; i < 8; ++i) {
            (run == 0 ? first : again)[i] = rc_body_transform(w, crates[i]);
        }
    }
    ck_assert_mem_eq(first, again, sizeof first);
    free(snapshot);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pairs_ahead");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, crates_flying_head_on_are_met_where_they_touch);
    tcase_add_test(tc, a_kinematic_plate_meets_a_crate_where_it_touches);
    tcase_add_test(tc, grenades_meet_free_props_where_they_touch);
    tcase_add_test(tc, crates_meeting_face_on_stop_where_they_touch);
    tcase_add_test(tc, a_crate_thrown_face_on_at_a_free_plank_does_not_turn);
    tcase_add_test(tc, a_turning_blade_pushes_props_aside);
    tcase_add_test(tc, crates_at_rest_about_a_turning_blade_meet_its_face);
    tcase_add_test(tc, props_thrown_past_a_turning_blade_come_away_no_faster);
    tcase_add_test(tc, bodies_given_speed_beside_free_props_meet_them);
    tcase_add_test(tc, a_snapshot_between_a_kick_and_the_step_replays_it);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
