/* Solids over seams: crates, capsules and compound props sliding over floors of static boxes
 * laid edge to edge (a tile map) meet one flat surface, as over one long box or a chain; a real
 * step still blocks them, and a crate sunk into the tiles is still pushed out of them.
 *
 * Expected values: a frictionless crate keeps its speed exactly (x = x0 + v t); with friction
 * on a slope it follows the analytic s = v0 t + a t^2 / 2 with a = -g sin(ramp) - mu g cos(ramp)
 * while it slides forward. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float DT = 1.0f / 60.0f;

typedef enum prop_kind { PROP_BOX, PROP_CAPSULE, PROP_NARROW_BOX, PROP_LOW_BOX } prop_kind;

/* A floor of `count` boxes `tile` wide and 1 deep laid edge to edge, its top at y = 0 in the
 * frame of a static body turned by ramp, the first box's left face at x = -10; or one box as
 * long (tiled false). The highest box (index step_at, or -1 for none) stands `rise` higher. */
static rc_body_id tile_floor(rc_world *w, float ramp, float tile, int count, bool tiled, float mu, int step_at,
                             float rise) {
    rc_body_def bd = rc_body_default_def();
    bd.angle = ramp;
    rc_body_id g = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = mu;
    if (!tiled) {
        sd.offset = rc_v2(-10.0f + 0.5f * tile * (float)count, -0.5f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, g, &sd, 0.5f * tile * (float)count, 0.5f)));
        return g;
    }
    for (int i = 0; i < count; ++i) {
        float top = i == step_at ? rise : 0.0f;
        sd.offset = rc_v2(-10.0f + tile * ((float)i + 0.5f), 0.5f * (top - 1.0f));
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, g, &sd, 0.5f * tile, 0.5f * (1.0f + top))));
    }
    return g;
}

/* A prop resting on the floor's top at `along` (in the floor's frame), sent along it at speed. */
static rc_body_id prop(rc_world *w, prop_kind kind, float ramp, float along, float speed, float mu) {
    rc_rot r = rc_rot_from_angle(ramp);
    rc_vec2 local = rc_v2(along, 0.5f); /* every kind reaches 0.5 below its origin */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(r.c * local.x - r.s * local.y, r.s * local.x + r.c * local.y);
    bd.angle = ramp;
    bd.linear_velocity = rc_v2(r.c * speed, r.s * speed);
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = mu;
    rc_shape_id s = RC_NULL_SHAPE_ID;
    switch (kind) {
    case PROP_BOX:
        s = rc_shape_create_box(w, b, &sd, 0.5f, 0.5f);
        break;
    case PROP_CAPSULE:
        s = rc_shape_create_capsule(w, b, &sd, rc_v2(-0.4f, 0.0f), rc_v2(0.4f, 0.0f), 0.5f);
        break;
    case PROP_NARROW_BOX:
        s = rc_shape_create_box(w, b, &sd, 0.25f, 0.5f);
        break;
    case PROP_LOW_BOX: /* a flat crate below its body's origin: its centre of mass is off it */
        sd.offset = rc_v2(0.0f, -0.2f);
        s = rc_shape_create_box(w, b, &sd, 0.6f, 0.3f);
        break;
    }
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return b;
}

/* Where a body's origin is along and above the floor of angle ramp. */
static rc_vec2 in_floor_frame(const rc_world *w, rc_body_id b, float ramp) {
    rc_rot r = rc_rot_from_angle(ramp);
    rc_vec2 p = rc_body_position(w, b);
    return rc_v2(r.c * p.x + r.s * p.y, -r.s * p.x + r.c * p.y);
}

/* ---- the seams -------------------------------------------------------------------------------- */

/* A frictionless prop sliding at 8 units/s over a floor of unit boxes keeps its speed, its angle
 * and its height exactly: x = -8 + 8 t, as over one long box. Before, a crate struck the next
 * box's side face at the first seam, stopped, and tipped over (angle 3.4, slowed to 0.15);
 * a capsule hopped (1.9 units/s up) and lost half its speed. */
START_TEST(a_prop_slides_over_boxes_laid_edge_to_edge_as_over_one_box) {
    const prop_kind kinds[4] = {PROP_BOX, PROP_CAPSULE, PROP_NARROW_BOX, PROP_LOW_BOX};
    for (int k = 0; k < 4; ++k) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        tile_floor(w, 0.0f, 1.0f, 60, true, 0.0f, -1, 0.0f);
        rc_body_id b = prop(w, kinds[k], 0.0f, -8.0f, 8.0f, 0.0f);
        float lift = 0.0f, turn = 0.0f, slowest = INFINITY;
        for (int i = 0; i < 300; ++i) {
            ck_assert(rc_world_step(w, DT));
            rc_vec2 v = rc_body_linear_velocity(w, b);
            lift = fmaxf(lift, fabsf(v.y));
            turn = fmaxf(turn, fabsf(rc_body_angle(w, b)));
            slowest = fminf(slowest, v.x);
        }
        rc_vec2 p = rc_body_position(w, b);
        printf("[seams] prop %d over unit boxes: x %.4f (32 expected) y %.5f, slowest %.4f, |vy| <= %.4f, |angle| <= "
               "%.5f\n",
               k, (double)p.x, (double)p.y, (double)slowest, (double)lift, (double)turn);
        EXPECT(fabsf(p.x - 32.0f) < 1e-3f, "prop %d ends at x %.5f, not -8 + 8 x 5 = 32", k, (double)p.x);
        EXPECT(slowest > 8.0f - 1e-3f, "prop %d slowed to %.4f", k, (double)slowest);
        EXPECT(turn < 1e-3f, "prop %d turned by %.4f", k, (double)turn);
        EXPECT(fabsf(p.y - 0.5f) < 2e-3f, "prop %d ends at height %.5f", k, (double)p.y);
        rc_world_destroy(w);
    }
}
END_TEST

/* 120 slides with friction over tile floors on slopes (tiles 0.3 to 2 wide, ramps of up to 0.35
 * rad either way, speeds 4 to 25 units/s, friction up to 0.3: below what tips a unit crate),
 * each against the analytic distance while it slides forward, and against no turn at all.
 * Before, all 120 were off by more than the tolerance (a crate stopped and tumbled at a seam),
 * and 72 with the narrow phase's half of the fix alone (a fast capsule was held back at each seam
 * by continuous collision and fell 20% short). */
START_TEST(props_slide_over_tiled_slopes_as_the_analytic_slide) {
    ws_rng rng = {0x5ea15ull};
    int off = 0;
    for (int trial = 0; trial < 120; ++trial) {
        float ramp = ws_range(&rng, -0.35, 0.35), tile = ws_range(&rng, 0.3, 2.0), mu = ws_range(&rng, 0.0, 0.3);
        float speed = ws_range(&rng, 4.0, 25.0);
        prop_kind kind = (prop_kind)(trial % 4);
        /* along the floor: a = -g sin(ramp) - mu g cos(ramp); slide for as long as it moves
           forward with room to spare and stays on the floor (60 long) */
        double a = -10.0 * sin((double)ramp) - (double)mu * 10.0 * cos((double)ramp);
        double t_stop = a < 0.0 ? -(double)speed / a : 1e9;
        double t_end = fmin(fmin(0.8 * t_stop, 3.0), 40.0 / (double)speed);
        int steps = (int)(t_end / (double)DT);
        double t = (double)steps * (double)DT;
        double expected = -8.0 + (double)speed * t + 0.5 * a * t * t;
        rc_world *w = ws_make_world(rc_v2(0, -10));
        tile_floor(w, ramp, tile, (int)(62.0f / tile), true, mu, -1, 0.0f);
        rc_body_id b = prop(w, kind, ramp, -8.0f, speed, mu);
        float turn = 0.0f;
        for (int i = 0; i < steps; ++i) {
            ck_assert(rc_world_step(w, DT));
            turn = fmaxf(turn, fabsf(rc_body_angle(w, b) - ramp));
        }
        rc_vec2 at = in_floor_frame(w, b, ramp);
        double miss = fabs((double)at.x - expected);
        if (miss > 0.01 * fabs(expected + 8.0) + 0.05 || turn > 0.01f) {
            ++off;
            printf("[seams] trial %d kind %d ramp %.4f tile %.4f mu %.3f speed %.3f: along %.4f, expected %.4f; turn "
                   "%.4f\n",
                   trial, (int)kind, (double)ramp, (double)tile, (double)mu, (double)speed, (double)at.x, expected,
                   (double)turn);
        }
        rc_world_destroy(w);
    }
    ck_assert_msg(off == 0, "%d of 120 slides left the analytic slide", off);
}
END_TEST

/* A step is still a step: the box eight tiles along stands 0.1 higher, and a frictionless crate
 * sliding at 2 units/s is stopped by its face (the lower 1 of which the tile before covers, the
 * upper 0.1 not): its front corner never gets past the step's face at x = -2 (it tips forward on the step's
 * corner, as it should with the step below its centre of mass, and rocks back), and it ends on
 * the lower floor. The same crate passes over the tiles' seams before it untouched. */
START_TEST(a_step_in_the_tiles_still_stops_a_crate) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    tile_floor(w, 0.0f, 1.0f, 20, true, 0.0f, 8, 0.1f);
    rc_body_id b = prop(w, PROP_BOX, 0.0f, -6.0f, 2.0f, 0.0f);
    float furthest = -INFINITY;
    for (int i = 0; i < 240; ++i) {
        ck_assert(rc_world_step(w, DT));
        /* its front face, from its lower corner up */
        rc_transform xf = rc_body_transform(w, b);
        furthest = fmaxf(furthest, rc_transform_point(xf, rc_v2(0.5f, -0.5f)).x);
        if (i == 90) { /* before the step: seams passed at full speed */
            ck_assert_float_eq_tol(rc_body_linear_velocity(w, b).x, 2.0f, 1e-3f);
        }
    }
    rc_vec2 p = rc_body_position(w, b);
    printf("[seams] crate at a step 0.1 high: its front corner at most at x %.4f (the step's face at -2), ends at (%.4f, "
           "%.4f)\n",
           (double)furthest,
           (double)p.x, (double)p.y);
    ck_assert_msg(furthest < -2.0f + 0.01f, "the crate's front corner got to x %.4f, past the step's face",
                  (double)furthest);
    ck_assert_float_eq_tol(p.y, 0.5f, 0.01f);
    rc_world_destroy(w);
}
END_TEST

/* A crate sunk 0.3 into the tiles across a seam is pushed out of both boxes and rests on top:
 * the covered faces it starts against do not hold it in. */
START_TEST(a_crate_sunk_into_the_tiles_is_pushed_out_on_top) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    tile_floor(w, 0.0f, 1.0f, 20, true, 0.6f, -1, 0.0f);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(0.0f, 0.2f); /* across the seam at x = 0 */
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    rc_vec2 p = rc_body_position(w, b);
    ck_assert_msg(fabsf(p.y - 0.5f) < 0.01f && fabsf(p.x) < 0.01f && fabsf(rc_body_angle(w, b)) < 1e-3f,
                  "the crate ends at (%.4f, %.4f) angle %.4f", (double)p.x, (double)p.y, (double)rc_body_angle(w, b));
    rc_world_destroy(w);
}
END_TEST

/* A thin plank standing on its end over a chain floor by a joint, its foot through the floor by
 * up to its thickness and its centre above the next wall (planks 0.3 to 1 long and 0.02 to 0.08
 * thick, leaning 0.5 to 1.4 rad, the foot within 0.15 of the joint, falling at up to 6 units/s
 * and sliding at up to 1, one- and two-sided floors alike): none of 2,000 ever has its centre
 * below the floor in a second (its weight on it). Its least overlap with the wall its foot is
 * through points along the plank, back past the joint; that wall left it to its neighbour, which
 * the plank did not touch, and 38 of 2,000 fell through (rc_collide_chain_wall: the foot is now
 * clipped against the wall it is through). The first was a plank in a crowd falling through a
 * room's floor. */
START_TEST(planks_standing_by_a_joint_never_fall_through_the_floor) {
    ws_rng rng = {0x91a2b3c4ull};
    int through = 0;
    for (int k = 0; k < 2000; ++k) {
        rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
        rc_body_id ground = ws_static_body(w);
        rc_shape_def sd = rc_shape_default_def();
        sd.one_sided = k % 2 == 1;
        rc_vec2 floor[4] = {{-2.5f, 0.0f}, {-1.25f, 0.0f}, {0.0f, 0.0f}, {1.25f, 0.0f}};
        ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, floor, 4, false)));
        float len = ws_range(&rng, 0.3, 1.0), thick = ws_range(&rng, 0.02, 0.08);
        float lean = ws_range(&rng, 0.5, 1.4) * (ws_chance(&rng, 0.5) ? 1.0f : -1.0f);
        float foot_x = ws_range(&rng, -0.15, 0.15), depth = ws_range(&rng, 0.0, 1.0) * thick;
        rc_vec2 up = {cosf(lean), sinf(lean)};
        if (up.y < 0.0f) {
            up = rc_neg(up);
        }
        rc_vec2 center = {foot_x + 0.5f * len * up.x, -depth + 0.5f * len * up.y};
        rc_body_id plank = ws_body(w, RC_DYNAMIC, center, atan2f(up.y, up.x));
        rc_shape_def pd = rc_shape_default_def();
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, plank, &pd, 0.5f * len, 0.5f * thick)));
        ck_assert(rc_body_set_linear_velocity(w, plank, rc_v2(ws_range(&rng, -1.0, 1.0), ws_range(&rng, -6.0, 0.0))));
        float lowest = INFINITY;
        for (int step = 0; step < 60; ++step) {
            ck_assert(rc_world_step(w, DT));
            lowest = fminf(lowest, rc_body_world_center(w, plank).y);
        }
        through += lowest < 0.0f;
        EXPECT(lowest >= 0.0f, "plank %d (%s floor): %.2f x %.3f leaning %.2f rad, foot at %.3f %.3f deep: centre down to %.3f",
               k, sd.one_sided ? "one-sided" : "two-sided", (double)len, (double)thick, (double)lean, (double)foot_x,
               (double)depth, (double)lowest);
        rc_world_destroy(w);
    }
    printf("[seams] 2,000 planks standing through a chain floor by a joint: %d through\n", through);
}
END_TEST

/* Fast props thrown at a floor of thin boxes (0.1 thick, 0.05 to 1.5 wide) laid edge to edge:
 * crates, capsules and planks 4 long, at 50 to 1,000 units/s, spinning at up to 60 rad/s, from
 * any downward direction: none of 6,000 ends below the floor (12,000 tried). The seams that
 * continuous collision passes for a sliding crate are walls to these: when it passed them for any
 * body, 3 of these 6,000 went through (planks; in another run a box struck spinning at 181
 * rad/s met a seam's corner). */
START_TEST(fast_props_never_pass_through_a_floor_of_thin_boxes) {
    ws_rng rng = {0x7417ull};
    int through = 0;
    for (int t = 0; t < 6000; ++t) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        rc_body_id g = ws_static_body(w);
        rc_shape_def sd = rc_shape_default_def();
        float tile = ws_range(&rng, 0.05, 1.5);
        int n = (int)(40.0f / tile);
        for (int i = 0; i < n; ++i) {
            sd.offset = rc_v2(-20.0f + tile * ((float)i + 0.5f), -0.05f);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, g, &sd, 0.5f * tile, 0.05f)));
        }
        float speed = ws_range(&rng, 50.0, 1000.0), dir = ws_range(&rng, -2.8, -0.35);
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(ws_range(&rng, -3.0, 3.0), ws_range(&rng, 2.2, 5.0));
        bd.angle = ws_range(&rng, 0.0, 6.28);
        bd.angular_velocity = ws_range(&rng, -60.0, 60.0);
        bd.linear_velocity = rc_v2(speed * cosf(dir), speed * sinf(dir));
        rc_body_id b = rc_body_create(w, &bd);
        rc_shape_def pd = rc_shape_default_def();
        switch (t % 3) {
        case 0:
            rc_shape_create_box(w, b, &pd, ws_range(&rng, 0.1, 0.6), ws_range(&rng, 0.05, 0.6));
            break;
        case 1:
            rc_shape_create_capsule(w, b, &pd, rc_v2(-0.4f, 0), rc_v2(0.4f, 0), ws_range(&rng, 0.05, 0.3));
            break;
        default:
            rc_shape_create_box(w, b, &pd, 2.0f, 0.05f); /* a plank */
            break;
        }
        for (int i = 0; i < 30; ++i) {
            ck_assert(rc_world_step(w, DT));
        }
        rc_vec2 c = rc_body_world_center(w, b);
        if (c.y < -0.1f && fabsf(c.x) < 19.0f) {
            ++through;
            printf("[seams] throw %d (kind %d, tiles %.3f wide, %.0f units/s) ends at (%.3f, %.3f)\n", t, t % 3,
                   (double)tile, (double)speed, (double)c.x, (double)c.y);
        }
        rc_world_destroy(w);
    }
    ck_assert_msg(through == 0, "%d of 6,000 throws went through the floor", through);
}
END_TEST

/* Props thrown so hard at a ceiling of thin tiles (60 boxes 1 x 0.1 edge to edge, y = -0.05 to
 * 0.05, in a world with no gravity) that they go 20 along it and 4 into it in a step of 1/30 s,
 * spinning at the solver's cap, stay below it: a capsule at 903 units/s (a helper's throw, which
 * went through: the seams it met, every one, were taken for seams it slid over, 4 into a wall
 * 0.1 thick counting as a slide against 20 along it), and 2,000 random convex polygons and
 * capsules at 300 to 1,000 units/s, 0.2 to 1.1 rad off the ceiling's normal, spinning at up to
 * 100 rad/s (before: 8 of them through). */
static bool stays_below_the_tiles(rc_vec2 p, float angle, rc_vec2 v, float spin, const rc_vec2 *points, int count,
                                  float radius) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id ceiling = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 60; ++i) {
        sd.offset = rc_v2(-29.5f + (float)i, 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ceiling, &sd, 0.5f, 0.05f)));
    }
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = p;
    bd.angle = angle;
    bd.linear_velocity = v;
    bd.angular_velocity = spin;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def pd = rc_shape_default_def();
    if (count > 0) {
        ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, b, &pd, points, count)));
    } else {
        ck_assert(!rc_shape_id_is_null(rc_shape_create_capsule(w, b, &pd, rc_v2(-0.5f, 0), rc_v2(0.5f, 0), radius)));
    }
    bool below = true;
    for (int i = 0; i < 3 && below; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 30.0f));
        rc_vec2 c = rc_body_world_center(w, b);
        below = !(c.y > 0.0f && fabsf(c.x) < 29.0f);
    }
    rc_world_destroy(w);
    return below;
}

START_TEST(props_thrown_along_a_ceiling_of_tiles_never_pass_through_it) {
    EXPECT(stays_below_the_tiles(rc_v2(2.06408071f, -3.15362549f), 2.93097782f, rc_v2(711.142456f, 557.25647f),
                                 8.08062935f, NULL, 0, 0.2f),
           "the capsule thrown at 903 units/s went through the tiles");
    ws_rng rng = {0x5ea3ull};
    int through = 0, cases = rc_test_random_cases(2000);
    for (int t = 0; t < cases; ++t) {
        rc_vec2 points[RC_MAX_POLYGON_VERTICES];
        int count = t % 2 == 0 ? ws_random_convex(&rng, ws_range(&rng, 0.15, 0.6), points) : 0;
        float speed = ws_range(&rng, 300.0, 1000.0), off = ws_range(&rng, 0.2, 1.1) * (ws_chance(&rng, 0.5) ? 1 : -1);
        rc_vec2 v = {speed * sinf(off), speed * cosf(off)};
        rc_vec2 p = {ws_range(&rng, -10.0, 10.0), -ws_range(&rng, 1.5, 6.0)};
        float spin = ws_range(&rng, -100.0, 100.0), angle = ws_range(&rng, 0.0, 6.28);
        if (!stays_below_the_tiles(p, angle, v, spin, points, count, ws_range(&rng, 0.05, 0.3))) {
            ++through;
            printf("[seams] throw %d (%s, %.0f units/s) went through the ceiling of tiles\n", t,
                   count > 0 ? "polygon" : "capsule", (double)speed);
        }
    }
    EXPECT(through == 0, "%d of %d throws went through the ceiling of tiles", through, cases);
}
END_TEST

/* Step `steps` times: how fast the body rose or fell at most, and its slowest along x. */
static void slide(rc_world *w, rc_body_id b, int steps, float *lift, float *slowest) {
    *lift = 0.0f;
    *slowest = INFINITY;
    for (int i = 0; i < steps; ++i) {
        ck_assert(rc_world_step(w, DT));
        rc_vec2 v = rc_body_linear_velocity(w, b);
        *lift = fmaxf(*lift, fabsf(v.y));
        *slowest = fminf(*slowest, v.x);
    }
}

/* Props of other filters over the same seams, and the level changed under them (the level's seams
 * are kept while it stays as it is: test_seam_cache checks those answers against the grid's). On
 * a frictionless floor of unit boxes whose tiles from x = 2 on are of category 2:
 *   - crate A, whose mask leaves out category 2, slides flat to x = 2 and falls off tile 11
 *     (the tiles after it are not there for it);
 *   - crate B, which meets every tile, slides after it over the same seams exactly as over one
 *     box, x = -8 + 8 t;
 *   - tile 12 is taken away (crate C crosses the gap) and made again: crate D slides over as
 *     over one box, as B did. */
START_TEST(kept_seams_follow_the_props_filter_and_the_levels_changes) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_def gd = rc_body_default_def();
    rc_body_id g = rc_body_create(w, &gd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.0f;
    rc_shape_id tiles[60];
    for (int i = 0; i < 60; ++i) {
        sd.filter.category_bits = i < 12 ? 1u : 2u;
        sd.offset = rc_v2(-10.0f + (float)i + 0.5f, -0.5f);
        tiles[i] = rc_shape_create_box(w, g, &sd, 0.5f, 0.5f);
        ck_assert(!rc_shape_id_is_null(tiles[i]));
    }
    rc_body_id a = prop(w, PROP_BOX, 0.0f, -8.0f, 8.0f, 0.0f);
    rc_shape_id a_shape;
    ck_assert_int_eq(rc_body_shapes(w, a, &a_shape, 1), 1);
    rc_filter only_first = rc_default_filter();
    only_first.mask_bits = 1u;
    ck_assert(rc_shape_set_filter(w, a_shape, only_first));
    /* A: flat and at speed up to x = 2 (t = 1.25 s), then over the edge and down */
    for (int i = 0; i < 60; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    rc_vec2 pa = rc_body_position(w, a);
    EXPECT(fabsf(pa.x - 0.0f) < 1e-3f && fabsf(pa.y - 0.5f) < 2e-3f, "A at (%.5f, %.5f) after 1 s, not (0, 0.5)",
           (double)pa.x, (double)pa.y);
    for (int i = 0; i < 60; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    pa = rc_body_position(w, a);
    EXPECT(pa.y < 0.0f, "A at (%.4f, %.4f) 2 s in: it did not fall off the last tile it meets", (double)pa.x,
           (double)pa.y);
    /* B: after A, over the seam A met as a corner */
    rc_body_id b = prop(w, PROP_BOX, 0.0f, -8.0f, 8.0f, 0.0f);
    float lift, slowest;
    slide(w, b, 180, &lift, &slowest); /* 3 s: to x = 16 */
    rc_vec2 pb = rc_body_position(w, b);
    printf("[seams] kept seams: A falls to (%.3f, %.3f); B at (%.5f, %.5f), slowest %.4f, |vy| <= %.5f\n", (double)pa.x,
           (double)pa.y, (double)pb.x, (double)pb.y, (double)slowest, (double)lift);
    EXPECT(fabsf(pb.x - 16.0f) < 1e-3f, "B ends at x %.5f, not -8 + 8 x 3 = 16", (double)pb.x);
    EXPECT(slowest > 8.0f - 1e-3f && lift < 1e-3f, "B slowed to %.4f or rose at %.4f at a seam", (double)slowest,
           (double)lift);
    rc_body_destroy(w, a);
    rc_body_destroy(w, b);
    /* the level changes: tile 12 goes, and crate C crosses the gap (the seams by it are worked
       out: tile 11's and tile 13's faces there are covered by nothing) */
    rc_shape_destroy(w, tiles[12]);
    rc_body_id c = prop(w, PROP_BOX, 0.0f, -8.0f, 8.0f, 0.0f);
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    rc_body_destroy(w, c);
    /* it changes back: the gap filled, crate D slides over as over one box */
    sd.filter = rc_default_filter();
    sd.offset = rc_v2(2.5f, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, g, &sd, 0.5f, 0.5f)));
    rc_body_id d = prop(w, PROP_BOX, 0.0f, -8.0f, 8.0f, 0.0f);
    slide(w, d, 180, &lift, &slowest);
    rc_vec2 pd = rc_body_position(w, d);
    printf("[seams] kept seams: D over the filled gap at (%.5f, %.5f), slowest %.4f, |vy| <= %.5f\n", (double)pd.x,
           (double)pd.y, (double)slowest, (double)lift);
    EXPECT(fabsf(pd.x - 16.0f) < 1e-3f && slowest > 8.0f - 1e-3f && lift < 1e-3f,
           "D ends at x %.5f (16 expected), slowed to %.4f, rose at %.4f: a seam of the level as it was", (double)pd.x,
           (double)slowest, (double)lift);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("solid seams");
    TCase *seams = tcase_create("seams");
    tcase_set_timeout(seams, 120);
    tcase_add_test(seams, a_prop_slides_over_boxes_laid_edge_to_edge_as_over_one_box);
    tcase_add_test(seams, props_slide_over_tiled_slopes_as_the_analytic_slide);
    tcase_add_test(seams, a_step_in_the_tiles_still_stops_a_crate);
    tcase_add_test(seams, a_crate_sunk_into_the_tiles_is_pushed_out_on_top);
    tcase_add_test(seams, fast_props_never_pass_through_a_floor_of_thin_boxes);
    tcase_add_test(seams, props_thrown_along_a_ceiling_of_tiles_never_pass_through_it);
    tcase_add_test(seams, planks_standing_by_a_joint_never_fall_through_the_floor);
    tcase_add_test(seams, kept_seams_follow_the_props_filter_and_the_levels_changes);
    suite_add_tcase(s, seams);
    return rc_test_run(s);
}
