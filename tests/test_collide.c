/* shapes/collide.h on its own: contact manifolds of hulls (circles, capsules, segments,
 * polygons), smooth chain walls, GJK distance, time of impact and hull casts. Hand-worked cases
 * with exact values, then random pairs against double-precision brute force in the tests
 * (support/reference.h): the distance of two convex hulls is the least distance between a
 * vertex of one and an edge of the other when they are apart; the separating-axis separation
 * in double is a manifold's deepest point when they overlap. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shapes/collide.h"
#include "support/reference.h"
#include "support/testing.h"

static rc_hull box_hull(float hx, float hy, rc_transform xf) {
    rc_polygon p = rc_make_box(hx, hy);
    rc_hull h = rc_hull_polygon(p.vertices, p.normals, p.count, 0.0f);
    return rc_hull_transform(&h, xf);
}

static rc_transform xf_of(float x, float y, float angle) {
    rc_transform xf = {{x, y}, rc_rot_from_angle(angle)};
    return xf;
}

/* ---- hand-worked manifolds ---------------------------------------------------------------------- */

START_TEST(a_box_resting_on_a_box_has_two_points) {
    /* a 1 x 1 box (half 0.5) 0.01 above a 4 x 1 box: normal up, two points at x = +-0.5, midway
       in the gap (y = 0.505), separation 0.01 */
    rc_hull ground = box_hull(2.0f, 0.5f, xf_of(0, 0, 0));
    rc_hull crate = box_hull(0.5f, 0.5f, xf_of(0.25f, 1.01f, 0));
    rc_collision m = rc_collide_hulls(&ground, &crate, 0.02f);
    ck_assert_int_eq(m.count, 2);
    ck_assert_vec_eq(m.normal, 0, 1);
    float xs[2] = {m.points[0].point.x, m.points[1].point.x};
    ck_assert(fminf(xs[0], xs[1]) == -0.25f && fmaxf(xs[0], xs[1]) == 0.75f);
    for (int k = 0; k < 2; ++k) {
        ck_assert_near(m.points[k].point.y, 0.505, 1e-6);
        ck_assert_near(m.points[k].separation, 0.01, 1e-6);
    }
    ck_assert_uint_ne(m.points[0].id, m.points[1].id);
    /* beyond the margin: nothing; the other way round: the normal flips, the ids stay paired */
    ck_assert_int_eq(rc_collide_hulls(&ground, &crate, 0.005f).count, 0);
    rc_collision r = rc_collide_hulls(&crate, &ground, 0.02f);
    ck_assert_int_eq(r.count, 2);
    ck_assert_vec_eq(r.normal, 0, -1);
    /* the same features a little further along: the same ids (a solver carries its impulses) */
    rc_hull moved = box_hull(0.5f, 0.5f, xf_of(0.3f, 1.005f, 0));
    rc_collision m2 = rc_collide_hulls(&ground, &moved, 0.02f);
    ck_assert_int_eq(m2.count, 2);
    for (int k = 0; k < 2; ++k) {
        ck_assert(m2.points[k].id == m.points[0].id || m2.points[k].id == m.points[1].id);
    }
}
END_TEST

/* A box a hair above a long floor, parallel to it, wholly over it: two points, and the floor's
 * normal, at every angle, gap and place along the floor. The nearest points of the two edges are
 * far nearer than the floor is long; the line joining them was taken for the normal, and its
 * rounding tilted it (0.008 rad for a box 0.0003 above a floor 59 long, at angle -0.304): one
 * point at the box's rear corner, which turned a sliding crate over. 400 placements: 115 got one
 * point and a tilted normal before. */
START_TEST(a_box_a_hair_above_a_long_floor_has_two_points_and_the_floors_normal) {
    uint64_t seed = 0x5eedull;
    int off = 0;
    for (int i = 0; i < 400; ++i) {
        float u[4];
        for (int k = 0; k < 4; ++k) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            u[k] = (float)(seed >> 40) / (float)(1ull << 24);
        }
        float angle = -0.4f + 0.8f * u[0], gap = 1e-4f + 4e-3f * u[1], half_length = 20.0f + 20.0f * u[3];
        float along = (half_length - 1.0f) * (2.0f * u[2] - 1.0f);
        rc_rot r = rc_rot_from_angle(angle);
        /* the floor's middle at (19.28, -0.5) in its body's frame, the box over it at along */
        rc_vec2 floor_at = rc_v2(r.c * 19.28f + r.s * 0.5f, r.s * 19.28f - r.c * 0.5f);
        rc_vec2 box_at = rc_v2(r.c * (19.28f + along) - r.s * (0.5f + gap), r.s * (19.28f + along) + r.c * (0.5f + gap));
        rc_hull floor = box_hull(half_length, 0.5f, xf_of(floor_at.x, floor_at.y, angle));
        rc_hull crate = box_hull(0.375f, 0.5f, xf_of(box_at.x, box_at.y, angle));
        rc_collision m = rc_collide_hulls(&floor, &crate, 0.02f);
        rc_vec2 up = rc_v2(-r.s, r.c);
        if (m.count != 2 || rc_dot(m.normal, up) < 1.0f - 1e-6f) {
            ++off;
            if (off <= 3) {
                printf("[collide] angle %.6f gap %.6f along %.4f: %d points, normal off by %.3g\n", (double)angle,
                       (double)gap, (double)along, m.count, (double)acosf(fminf(1.0f, rc_dot(m.normal, up))));
            }
        }
    }
    ck_assert_msg(off == 0, "%d of 400 placements got a tilted normal or one point", off);
}
END_TEST

START_TEST(a_tilted_box_touches_with_one_corner) {
    /* a unit box turned 45 degrees, its lowest corner 0.1 into the ground's top face (y = 0) */
    rc_hull ground = box_hull(5.0f, 1.0f, xf_of(0, -1.0f, 0));
    float half_diag = 0.70710678f;
    rc_hull crate = box_hull(0.5f, 0.5f, xf_of(1.0f, half_diag - 0.1f, 0.78539816f));
    rc_collision m = rc_collide_hulls(&ground, &crate, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_eq(m.normal, 0, 1);
    ck_assert_near(m.points[0].separation, -0.1, 2e-6);
    ck_assert_near(m.points[0].point.x, 1.0, 2e-6);
    ck_assert_near(m.points[0].point.y, -0.05, 2e-6); /* midway: corner at -0.1, face at 0 */
}
END_TEST

START_TEST(circles_and_capsules) {
    /* circle r 1 at the origin, circle r 0.5 at (2, 0): apart by 0.5 */
    rc_hull a = rc_hull_circle(rc_v2(0, 0), 1.0f), b = rc_hull_circle(rc_v2(2, 0), 0.5f);
    rc_collision m = rc_collide_hulls(&a, &b, 1.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_eq(m.normal, 1, 0);
    ck_assert_float_eq(m.points[0].separation, 0.5f);
    ck_assert_vec_eq(m.points[0].point, 1.25, 0); /* midway between x = 1 and x = 1.5 */
    ck_assert_int_eq(rc_collide_hulls(&a, &b, 0.25f).count, 0);
    /* a capsule lying along x (from -2 to 2, radius 0.5) and a circle above its middle */
    rc_hull cap = rc_hull_capsule(rc_v2(-2, 0), rc_v2(2, 0), 0.5f);
    rc_hull ball = rc_hull_circle(rc_v2(1, 1.25f), 0.5f);
    ck_assert_int_eq(rc_collide_hulls(&cap, &ball, 0.2f).count, 0); /* 0.25 apart */
    m = rc_collide_hulls(&cap, &ball, 0.3f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_eq(m.normal, 0, 1);
    ck_assert_float_eq(m.points[0].separation, 0.25f);
    ck_assert_vec_eq(m.points[0].point, 1, 0.625);
    /* beyond the capsule's end: the cap, along the line joining the centres */
    ball = rc_hull_circle(rc_v2(2.0f + 0.6f, 0.8f), 0.5f);
    m = rc_collide_hulls(&cap, &ball, 0.1f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_near(m.normal, 0.6, 0.8, 1e-6);
    ck_assert_near(m.points[0].separation, 0.0, 1e-6);
    /* two capsules side by side, parallel and overlapping in length: two points */
    rc_hull cap2 = rc_hull_capsule(rc_v2(1, 1.1f), rc_v2(3, 1.1f), 0.5f);
    m = rc_collide_hulls(&cap, &cap2, 0.2f);
    ck_assert_int_eq(m.count, 2);
    ck_assert_vec_eq(m.normal, 0, 1);
    for (int k = 0; k < 2; ++k) {
        ck_assert_near(m.points[k].separation, 0.1, 1e-6);
        ck_assert(m.points[k].point.x >= 1.0f - 1e-6f && m.points[k].point.x <= 2.0f + 1e-6f);
    }
    /* end to end on a diagonal: one point between the caps */
    rc_hull cap3 = rc_hull_capsule(rc_v2(2.6f, 0.8f), rc_v2(4.6f, 2.8f), 0.5f);
    m = rc_collide_hulls(&cap, &cap3, 0.1f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_near(m.normal, 0.6, 0.8, 1e-6);
    ck_assert_near(m.points[0].separation, 0.0, 1e-6);
}
END_TEST


/* A round end inside another (fuzz_world, seed 9: a circle of radius 15.6 inside a static one of
 * radius 5.8e17): inside one over 4,096 times its reach, the contact point is the middle of the
 * stretch of the centre line inside both, the smaller one's centre, not halfway between the
 * surfaces (half a million units off below: as far off as the larger radius, a lever arm whose
 * roundings spun the body up to NaN). Other overlaps keep the point halfway between the
 * surfaces. */
START_TEST(a_round_shape_inside_another_touches_at_its_middle) {
    rc_hull big = rc_hull_circle(rc_v2(0, 0), 1.0e6f), small = rc_hull_circle(rc_v2(10, 0), 1.0f);
    rc_collision m = rc_collide_hulls(&big, &small, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert(m.normal.x == 1.0f && m.normal.y == 0.0f);
    ck_assert_float_eq(m.points[0].separation, -999991.0f);
    ck_assert(m.points[0].point.x == 10.0f && m.points[0].point.y == 0.0f);
    rc_manifold pure;
    ck_assert(rc_collide_circles((rc_circle){{0, 0}, 1.0e6f}, (rc_circle){{10, 0}, 1.0f}, &pure));
    ck_assert(pure.points[0].x == 10.0f && pure.points[0].y == 0.0f);
    rc_hull inner = rc_hull_circle(rc_v2(0, 0), 1.0f), outer = rc_hull_circle(rc_v2(10, 0), 1.0e6f);
    m = rc_collide_hulls(&inner, &outer, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert(m.points[0].point.x == 0.0f && m.points[0].point.y == 0.0f);
    rc_hull cap = rc_hull_capsule(rc_v2(-1, 0), rc_v2(1, 0), 0.5f), huge = rc_hull_circle(rc_v2(0, 5), 1.0e6f);
    m = rc_collide_hulls(&cap, &huge, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_float_eq_tol(m.normal.y, 1.0f, 1e-6f);
    ck_assert_float_eq_tol(m.points[0].point.x, 0.0f, 1e-6f);
    ck_assert_float_eq_tol(m.points[0].point.y, 0.0f, 1e-6f);
    /* a box far inside a giant circle (a fuzz find: a lever arm of half the radius, then NaN):
       the point on the box, on the side facing the circle's centre, (0, 1) from the box's
       nearest point (0, 1) towards the centre (0, 5) */
    rc_polygon square = rc_make_box(1.0f, 1.0f);
    rc_hull boxed = rc_hull_polygon(square.vertices, square.normals, square.count, 0.0f);
    m = rc_collide_hulls(&boxed, &huge, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert(m.normal.x == 0.0f && m.normal.y == 1.0f);
    ck_assert(m.points[0].point.x == 0.0f && m.points[0].point.y == 1.0f);
    ck_assert_float_eq(m.points[0].separation, 4.0f - 1.0e6f);
    m = rc_collide_hulls(&huge, &boxed, 0.0f); /* the same contact, the other way round */
    ck_assert(m.count == 1 && m.normal.x == 0.0f && m.normal.y == -1.0f);
    ck_assert(m.points[0].point.x == 0.0f && m.points[0].point.y == 1.0f);
    ck_assert(rc_collide_polygon_circle(&square, (rc_circle){{0, 5}, 1.0e6f}, &pure)); /* the pure function too */
    ck_assert(pure.points[0].x == 0.0f && pure.points[0].y == 1.0f);
    /* a box 2,000 wide around the centre of a circle of radius 1e12: the point on the box */
    rc_polygon wide = rc_make_box(1000.0f, 1000.0f);
    rc_hull around = rc_hull_polygon(wide.vertices, wide.normals, wide.count, 0.0f);
    rc_hull giant = rc_hull_circle(rc_v2(0, 5), 1.0e12f);
    m = rc_collide_hulls(&around, &giant, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert(fabsf(m.points[0].point.x) <= 1000.0f && fabsf(m.points[0].point.y) <= 1000.0f);
    ck_assert(rc_collide_polygon_circle(&wide, (rc_circle){{0, 5}, 1.0e12f}, &pure));
    ck_assert(fabsf(pure.points[0].x) <= 1000.0f && fabsf(pure.points[0].y) <= 1000.0f);
    /* inside one only 9 times its reach: midway between the surfaces, (100 + 9) / 2 */
    rc_hull mid = rc_hull_circle(rc_v2(0, 0), 100.0f);
    m = rc_collide_hulls(&mid, &small, 0.0f);
    ck_assert(m.count == 1 && m.points[0].point.x == 54.5f && m.points[0].point.y == 0.0f);
    rc_hull a = rc_hull_circle(rc_v2(0, 0), 1.0f), b = rc_hull_circle(rc_v2(1.5f, 0), 1.0f);
    m = rc_collide_hulls(&a, &b, 0.0f);
    ck_assert(m.count == 1 && m.points[0].point.x == 0.75f && m.points[0].point.y == 0.0f);
    ck_assert_float_eq(m.points[0].separation, -0.5f);
}
END_TEST

/* A fuzz_world find: two circles whose centres are a denormal (2^-149) apart gave a NaN normal
 * (1 / |d| overflowed). Radii 1/2 and 1/4: overlap 3/4 along +x (the direction from A to B);
 * two circles on one centre take +x; a capsule and a polygon met by a centre a denormal from
 * their core likewise get a unit normal. */
START_TEST(regression_circles_a_denormal_apart) {
    rc_hull a = rc_hull_circle(rc_v2(0, 3), 0.5f), b = rc_hull_circle(rc_v2(0x1p-149f, 3), 0.25f);
    rc_collision m = rc_collide_hulls(&a, &b, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_float_eq(m.normal.x, 1.0f);
    ck_assert_float_eq(m.normal.y, 0.0f);
    ck_assert_float_eq_tol(m.points[0].separation, -0.75f, 1e-6f);
    rc_hull c = rc_hull_circle(rc_v2(0, 3), 0.25f);
    m = rc_collide_hulls(&a, &c, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert(m.normal.x == 1.0f && m.normal.y == 0.0f);
    rc_hull cap = rc_hull_capsule(rc_v2(-1, 0), rc_v2(1, 0), 0.5f), d = rc_hull_circle(rc_v2(0.5f, 0x1p-149f), 0.25f);
    m = rc_collide_hulls(&cap, &d, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_float_eq_tol(rc_length(m.normal), 1.0f, 1e-6f);
    ck_assert_float_eq_tol(fabsf(m.normal.y), 1.0f, 1e-6f);
}
END_TEST

START_TEST(a_box_slides_over_a_chain_joint_without_a_bump) {
    /* a floor of two walls in line, (-4, 0) -> (0, 0) -> (4, 0), free side up; a box resting on
       it slides across the joint: every manifold's normal is straight up and no point is
       deeper than the box's own gap */
    rc_vec2 p0 = {-8, 0}, p1 = {-4, 0}, p2 = {0, 0}, p3 = {4, 0}, p4 = {8, 0};
    int points = 0;
    for (int k = 0; k <= 40; ++k) {
        float x = -1.0f + 0.05f * (float)k;
        rc_hull crate = box_hull(0.5f, 0.5f, xf_of(x, 0.5f - 1e-3f, 0));
        rc_collision walls[2] = {rc_collide_chain_wall(p0, p1, p2, p3, &crate, 0.01f),
                                 rc_collide_chain_wall(p1, p2, p3, p4, &crate, 0.01f)};
        for (int w = 0; w < 2; ++w) {
            for (int i = 0; i < walls[w].count; ++i) {
                ck_assert_msg(walls[w].normal.x == 0.0f && walls[w].normal.y == 1.0f,
                              "x %g wall %d: normal (%g, %g)", (double)x, w, (double)walls[w].normal.x,
                              (double)walls[w].normal.y);
                ck_assert_near(walls[w].points[i].separation, -1e-3, 1e-6);
                points++;
            }
        }
    }
    ck_assert_int_ge(points, 2 * 41);
    /* behind a one-sided wall: nothing */
    rc_hull below = box_hull(0.5f, 0.5f, xf_of(-2, -0.45f, 0));
    ck_assert_int_eq(rc_collide_chain_wall(p0, p1, p2, p3, &below, 0.1f).count, 0);
    /* at a convex corner (a step down at x = 0) the corner is a real vertex: a box beyond the
       edge touching it gets the diagonal normal */
    rc_vec2 q3 = {0, -2};
    rc_hull ball = rc_hull_circle(rc_v2(0.6f, 0.8f), 0.95f);
    rc_collision corner = rc_collide_chain_wall(p1, p1, p2, q3, &ball, 0.1f);
    ck_assert_int_eq(corner.count, 1);
    ck_assert_vec_near(corner.normal, 0.6, 0.8, 1e-6);
    ck_assert_near(corner.points[0].separation, 0.05, 1e-6);
    /* at a flat joint the same ball sees the wall's face: the neighbour holds the rest */
    rc_collision flat = rc_collide_chain_wall(p1, p1, p2, p3, &ball, 0.1f);
    ck_assert(flat.count == 0 || (flat.normal.x == 0.0f && flat.normal.y == 1.0f));
}
END_TEST

/* ---- random pairs against brute force ------------------------------------------------------------ */

/* The distance between two convex polygons in double: 0 when they overlap (by separating axes),
 * else the least distance of a vertex of one to an edge of the other. */
static double ref_convex_distance(const rc_vec2 *a, int na, const rc_vec2 *b, int nb) {
    ref_v2 axis;
    if (ref_sat_separation(a, na, b, nb, &axis) <= 0.0) {
        return 0.0;
    }
    double best = INFINITY;
    for (int side = 0; side < 2; ++side) {
        const rc_vec2 *p = side ? b : a, *q = side ? a : b;
        int np = side ? nb : na, nq = side ? na : nb;
        for (int i = 0; i < np; ++i) {
            for (int j = 0; j < nq; ++j) {
                ref_v2 nearest;
                double d = ref_segment_distance(ref_from(p[i]), ref_from(q[j]), ref_from(q[(j + 1) % nq]), &nearest);
                best = d < best ? d : best;
            }
        }
    }
    return best;
}

START_TEST(random_polygon_pairs_agree_with_brute_force) {
    ref_rng rng = ref_rng_seed(0xC0111DEull + (uint64_t)(unsigned)_i);
    int cases = rc_test_random_cases(20000), overlapping = 0, apart = 0, near = 0;
    double worst_depth = 0.0, worst_distance = 0.0;
    for (int c = 0; c < cases; ++c) {
        double scale = _i == 0 ? 1.0 : (_i == 1 ? 1e3 : 1e-2);
        rc_vec2 va[8], vb[8];
        int na = ref_rng_int(&rng, 3, 8), nb = ref_rng_int(&rng, 3, 8);
        ref_random_convex(&rng, ref_v(0, 0), scale, na, true, va);
        ref_random_convex(&rng, ref_rng_disk(&rng, ref_v(0, 0), 2.5 * scale), scale, nb, true, vb);
        rc_polygon pa, pb;
        if (rc_make_polygon(va, na, &pa) != RC_POLYGON_OK || rc_make_polygon(vb, nb, &pb) != RC_POLYGON_OK) {
            continue;
        }
        rc_hull ha = rc_hull_polygon(pa.vertices, pa.normals, pa.count, 0.0f);
        rc_hull hb = rc_hull_polygon(pb.vertices, pb.normals, pb.count, 0.0f);
        float margin = (float)(0.1 * scale);
        rc_collision m = rc_collide_hulls(&ha, &hb, margin);
        ref_v2 axis;
        double sat = ref_sat_separation(pa.vertices, pa.count, pb.vertices, pb.count, &axis);
        double dist = ref_convex_distance(pa.vertices, pa.count, pb.vertices, pb.count);
        double tol = 2e-5 * scale;
        if (m.count > 0) {
            ck_assert(fabs(sqrt((double)m.normal.x * m.normal.x + (double)m.normal.y * m.normal.y) - 1.0) < 1e-5);
        }
        if (sat <= 0.0) {
            /* overlapping: the deepest point is the separating-axis depth */
            overlapping++;
            ck_assert_msg(m.count > 0, "case %d: overlapping polygons (depth %g) gave no manifold", c, -sat);
            double deepest = fmin(m.points[0].separation, m.count > 1 ? m.points[1].separation : INFINITY);
            /* the reference face may be the other polygon's within the flip tolerance */
            double slack = 1.1e-3 * 2.0 * 2.0 * scale;
            ck_assert_msg(fabs(deepest - sat) <= slack + tol, "case %d: deepest %g, separating axes %g", c, deepest,
                          sat);
            worst_depth = fmax(worst_depth, fabs(deepest - sat));
        } else if (dist <= margin) {
            near++;
            ck_assert_msg(m.count > 0, "case %d: polygons %g apart (margin %g) gave no manifold", c, dist,
                          (double)margin);
            /* the nearer point's separation is the distance, measured along the face when the
               nearest points are across it within a thousandth of a radian (by a size times that) */
            double least = fmin(m.points[0].separation, m.count > 1 ? m.points[1].separation : INFINITY);
            ck_assert_msg(least <= dist + 2e-3 * scale + tol && least >= dist - 2e-3 * scale - tol,
                          "case %d: separation %g, distance %g", c, least, dist);
        } else {
            apart++;
            if (sat > margin + tol) {
                ck_assert_msg(m.count == 0, "case %d: %g apart gave %d points", c, dist, m.count);
            }
        }
        /* GJK: the distance of the two, exact to rounding */
        rc_hull_distance d = rc_distance_hulls(&ha, &hb);
        double err = fabs(fmax(d.distance, 0.0) - dist);
        worst_distance = fmax(worst_distance, err);
        ck_assert_msg(err <= 4e-6 * scale + 1e-6 * dist, "case %d: GJK %g, brute force %g", c, (double)d.distance,
                      dist);
    }
    fprintf(stderr, "[collide] scale %d: %d overlapping, %d near, %d apart; worst depth error %g, worst distance error %g\n",
            _i, overlapping, near, apart, worst_depth, worst_distance);
    ck_assert(overlapping > cases / 10 && apart > cases / 10 && near > cases / 50);
}
END_TEST

/* ---- the separating axis a pair is asked again ------------------------------------------------ */

/* Hand-worked: two unit boxes side by side, one turned 45 degrees. */
START_TEST(an_apart_pair_names_the_edge_that_separates_it) {
    rc_hull a = box_hull(0.5f, 0.5f, xf_of(0, 0, 0)), b = box_hull(0.5f, 0.5f, xf_of(0, 0, 0));
    rc_hull_view va = rc_hull_view_of(&a), vb = rc_hull_view_of(&b);
    /* B at x = 2: A's edge 1 (normal +x) holds them 1.0 apart, more than A's others and B's */
    rc_hull moved = rc_hull_transform(&b, xf_of(2, 0, 0));
    rc_hull_view vm = rc_hull_view_of(&moved);
    int axis = 99;
    ck_assert_int_eq(rc_collide_views_axis(&va, &vm, 0.1f, &axis).count, 0);
    ck_assert_int_eq(axis, 1);
    /* asked again where B has come to 0.15 apart: still apart on it; at 0.05, not, and the
       full manifold has its two points */
    ck_assert(rc_hulls_apart_on_axis(&va, &vb, xf_of(1.15f, 0.3f, 0), 1, 0.1f));
    ck_assert(!rc_hulls_apart_on_axis(&va, &vb, xf_of(1.05f, 0.3f, 0), 1, 0.1f));
    moved = rc_hull_transform(&b, xf_of(1.05f, 0.3f, 0));
    vm = rc_hull_view_of(&moved);
    ck_assert_int_eq(rc_collide_views(&va, &vm, 0.1f).count, 2);
    /* the edges facing away (A's edge 3, normal -x) or along (edge 0) never hold them apart */
    ck_assert(!rc_hulls_apart_on_axis(&va, &vb, xf_of(2, 0, 0), 3, 0.1f));
    ck_assert(!rc_hulls_apart_on_axis(&va, &vb, xf_of(2, 0, 0), 0, 0.1f));
    /* A turned 45 degrees: its corner reaches 0.7071 towards B at x = 2, whose edge 3 (normal
       -x, at x = 1.5) holds them 0.7929 apart; A's own edges at 45 degrees only 0.2071. With a
       margin of 0.1 A's edges are asked first and one is enough; with 0.3, B's */
    rc_hull diamond = box_hull(0.5f, 0.5f, xf_of(0, 0, 0.78539816f));
    rc_hull_view vd = rc_hull_view_of(&diamond);
    moved = rc_hull_transform(&b, xf_of(2, 0, 0));
    vm = rc_hull_view_of(&moved);
    ck_assert_int_eq(rc_collide_views_axis(&vd, &vm, 0.1f, &axis).count, 0);
    ck_assert(axis >= 0 && axis < 4);
    ck_assert(rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), axis, 0.2f));
    ck_assert(!rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), axis, 0.21f));
    ck_assert_int_eq(rc_collide_views_axis(&vd, &vm, 0.3f, &axis).count, 0);
    ck_assert_int_eq(axis, RC_AXIS_OF_B + 3);
    ck_assert(rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), RC_AXIS_OF_B + 3, 0.3f));
    /* 0.7929 apart: not beyond a margin of 0.8 */
    ck_assert(!rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), RC_AXIS_OF_B + 3, 0.8f));
    ck_assert(rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), RC_AXIS_OF_B + 3, 0.79f));
    /* an axis the hulls do not have, and circles: never */
    ck_assert(!rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), 4, 0.1f));
    ck_assert(!rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), RC_AXIS_OF_B + 4, 0.1f));
    ck_assert(!rc_hulls_apart_on_axis(&vd, &vb, xf_of(2, 0, 0), RC_NO_AXIS, 0.1f));
    rc_hull circle = rc_hull_circle(rc_v2(0, 0), 0.5f);
    rc_hull_view vc = rc_hull_view_of(&circle);
    ck_assert(!rc_hulls_apart_on_axis(&vc, &vb, xf_of(5, 0, 0), 0, 0.1f));
    ck_assert(!rc_hulls_apart_on_axis(&vb, &vc, xf_of(5, 0, 0), 1, 0.1f));
    moved = rc_hull_transform(&circle, xf_of(5, 0, 0));
    vm = rc_hull_view_of(&moved);
    ck_assert_int_eq(rc_collide_views_axis(&vb, &vm, 0.1f, &axis).count, 0);
    ck_assert_int_eq(axis, RC_NO_AXIS);
}
END_TEST

static rc_hull random_hull(ref_rng *rng, double scale) {
    int kind = ref_rng_int(rng, 0, 2);
    if (kind == 0) {
        rc_vec2 p = ref_to_float(ref_rng_disk(rng, ref_v(0, 0), 0.5 * scale));
        rc_vec2 q = ref_to_float(ref_rng_disk(rng, ref_v(0, 0), 0.5 * scale));
        if (p.x == q.x && p.y == q.y) {
            q.x += (float)scale;
        }
        return rc_hull_capsule(p, q, (float)ref_rng_uniform(rng, 0.0, 0.3 * scale));
    }
    rc_vec2 v[8];
    int n = kind == 1 ? 4 : ref_rng_int(rng, 3, 8);
    ref_random_convex(rng, ref_rng_disk(rng, ref_v(0, 0), 0.3 * scale), scale, n, true, v);
    rc_polygon p;
    if (rc_make_polygon(v, n, &p) != RC_POLYGON_OK) {
        p = rc_make_box((float)scale, 0.5f * (float)scale);
    }
    return rc_hull_polygon(p.vertices, p.normals, p.count, 0.0f);
}

/* Any axis asked of any pair, moved a little or a lot since the axis was found: where it says
 * apart, the full manifold has no points. And the axis found is apart where it was found. */
START_TEST(an_axis_says_apart_only_where_the_manifold_is_empty) {
    ref_rng rng = ref_rng_seed(0xA11A5ull + (uint64_t)(unsigned)_i);
    double scale = _i == 0 ? 1.0 : (_i == 1 ? 1e3 : 1e-2);
    int cases = rc_test_random_cases(20000), found = 0, still = 0, asked = 0, said_apart = 0;
    for (int c = 0; c < cases; ++c) {
        rc_hull a = random_hull(&rng, scale), b = random_hull(&rng, scale);
        rc_hull_view va = rc_hull_view_of(&a), vb = rc_hull_view_of(&b);
        ref_v2 at = ref_rng_disk(&rng, ref_v(0, 0), 3.0 * scale);
        float angle = (float)ref_rng_uniform(&rng, -3.2, 3.2);
        rc_transform frame = xf_of((float)at.x, (float)at.y, angle);
        float margin = (float)ref_rng_uniform(&rng, 0.0, 0.2 * scale);
        rc_hull moved = rc_hull_transform(&b, frame);
        rc_hull_view vm = rc_hull_view_of(&moved);
        int axis;
        rc_collision m = rc_collide_views_axis(&va, &vm, margin, &axis);
        if (axis != RC_NO_AXIS) {
            found++;
            ck_assert_int_eq(m.count, 0);
            ck_assert_msg(rc_hulls_apart_on_axis(&va, &vb, frame, axis, margin), "case %d: axis %d found, not apart",
                          c, axis);
        }
        /* the same pair a step later: moved by up to a tenth of its size, turned up to 0.2 rad */
        ref_v2 step = ref_rng_disk(&rng, ref_v(0, 0), 0.1 * scale);
        rc_transform later = xf_of(frame.p.x + (float)step.x, frame.p.y + (float)step.y,
                                   angle + (float)ref_rng_uniform(&rng, -0.2, 0.2));
        rc_hull moved_later = rc_hull_transform(&b, later);
        rc_hull_view vl = rc_hull_view_of(&moved_later);
        int count_later = rc_collide_views(&va, &vl, margin).count;
        if (axis != RC_NO_AXIS && rc_hulls_apart_on_axis(&va, &vb, later, axis, margin)) {
            still++;
        }
        for (int e = -1; e < RC_AXIS_OF_B + 8; ++e) {
            asked++;
            if (rc_hulls_apart_on_axis(&va, &vb, later, e, margin)) {
                said_apart++;
                ck_assert_msg(count_later == 0, "case %d: apart on axis %d, %d points", c, e, count_later);
            }
        }
    }
    fprintf(stderr, "[collide] axes at scale %d: %d found, %d still apart a step later; %d of %d asked apart\n", _i,
            found, still, said_apart, asked);
    ck_assert(found > cases / 4 && still > found / 2 && said_apart > asked / 50);
}
END_TEST

/* rc_collide_hull_circle (the narrow phase's circles against props, found in the hull's frame):
 * by hand against a box (a face, a corner, a centre inside) and a capsule, then random hulls and
 * circles against the distance worked out in double. */
START_TEST(a_hull_against_a_circle_centre) {
    rc_hull box = box_hull(1.0f, 0.5f, xf_of(0, 0, 0));
    rc_hull_view v = rc_hull_view_of(&box);
    /* above the top face: 0.8 - 0.5 - 0.25 apart, the point midway (0.5, 0.525) */
    rc_collision m = rc_collide_hull_circle(&v, rc_v2(0.5f, 0.8f), 0.25f, 0.1f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_eq(m.normal, 0, 1);
    ck_assert_near(m.points[0].separation, 0.05, 1e-6);
    ck_assert_vec_near(m.points[0].point, 0.5, 0.525, 1e-6);
    ck_assert_int_eq(rc_collide_hull_circle(&v, rc_v2(0.5f, 0.8f), 0.25f, 0.04f).count, 0);
    /* off the corner (1, 0.5) by (0.3, 0.4): 0.5 from it, normal (0.6, 0.8), 0.25 apart, the
       point midway between (1, 0.5) and (1.15, 0.7) */
    m = rc_collide_hull_circle(&v, rc_v2(1.3f, 0.9f), 0.25f, 0.3f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_near(m.normal, 0.6, 0.8, 1e-6);
    ck_assert_near(m.points[0].separation, 0.25, 1e-6);
    ck_assert_vec_near(m.points[0].point, 1.075, 0.6, 1e-6);
    /* inside, nearer the right face: pushed out through it, 0.2 + 0.25 deep */
    m = rc_collide_hull_circle(&v, rc_v2(0.8f, 0.1f), 0.25f, 0.0f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_eq(m.normal, 1, 0);
    ck_assert_near(m.points[0].separation, -0.45, 1e-6);
    /* a capsule from (-2, 0) to (2, 0), radius 0.5, and a circle of 0.5 at (1, 1.25) */
    rc_hull cap = rc_hull_capsule(rc_v2(-2, 0), rc_v2(2, 0), 0.5f);
    rc_hull_view cv = rc_hull_view_of(&cap);
    m = rc_collide_hull_circle(&cv, rc_v2(1, 1.25f), 0.5f, 0.3f);
    ck_assert_int_eq(m.count, 1);
    ck_assert_vec_eq(m.normal, 0, 1);
    ck_assert_float_eq(m.points[0].separation, 0.25f);
    ck_assert_vec_eq(m.points[0].point, 1, 0.625);
    /* random hulls and circles against the distance in double (support/reference.h): the
       separation is the centre's signed distance to the hull less both radii, the normal runs
       from the hull's nearest point to the centre, and a circle further than the margin has no
       point */
    ref_rng rng = ref_rng_seed(0xC12C1Eull);
    int touching = 0;
    for (int i = 0; i < 20000; ++i) {
        rc_hull h = random_hull(&rng, 1.0);
        rc_hull_view hv = rc_hull_view_of(&h);
        rc_vec2 c = ref_to_float(ref_rng_disk(&rng, ref_v(0, 0), 1.5));
        float r = (float)ref_rng_uniform(&rng, 0.0, 0.5), margin = (float)ref_rng_uniform(&rng, 0.0, 0.2);
        ref_distance d = h.count == 2 ? ref_distance_segment(ref_from(h.points[0]), ref_from(h.points[1]), ref_from(c))
                                      : ref_distance_polygon(h.points, h.count, ref_from(c));
        double want = d.distance - (double)h.radius - (double)r;
        m = rc_collide_hull_circle(&hv, c, r, margin);
        if (fabs(want - (double)margin) < 1e-5) {
            continue; /* at the margin: either answer */
        }
        ck_assert_int_eq(m.count, want <= (double)margin ? 1 : 0);
        if (m.count == 0) {
            continue;
        }
        ++touching;
        ck_assert_msg(fabs((double)m.points[0].separation - want) < 1e-5, "case %d: separation %.9g, want %.9g", i,
                      (double)m.points[0].separation, want);
        if (d.distance > 1e-3 && (h.count == 2 || d.tie_gap > 1e-3)) {
            ck_assert_vec_near(m.normal, d.normal.x, d.normal.y, 1e-4);
        }
    }
    ck_assert_int_gt(touching, 5000);
}
END_TEST

/* Where the full manifold was clipped against a face, clipping against that face alone gives
 * the same bits: normal, points, separations, ids (the kept faces of a pile's contacts,
 * world/contact_collide.c). Moved on a little, the face alone still gives its own normal and
 * points within the margin. A face the hulls do not have, or a circle, gives none. */
START_TEST(a_kept_face_clips_what_the_full_manifold_did) {
    ref_rng rng = ref_rng_seed(0xFACEull + (uint64_t)(unsigned)_i);
    double scale = _i == 0 ? 1.0 : (_i == 1 ? 1e3 : 1e-2);
    int cases = rc_test_random_cases(20000), faces = 0, of_b = 0;
    for (int c = 0; c < cases; ++c) {
        rc_hull a = random_hull(&rng, scale), b = random_hull(&rng, scale);
        rc_hull_view va = rc_hull_view_of(&a);
        ref_v2 at = ref_rng_disk(&rng, ref_v(0, 0), 1.2 * scale);
        float angle = (float)ref_rng_uniform(&rng, -3.2, 3.2);
        float margin = (float)ref_rng_uniform(&rng, 0.0, 0.2 * scale);
        rc_hull moved = rc_hull_transform(&b, xf_of((float)at.x, (float)at.y, angle));
        rc_hull_view vm = rc_hull_view_of(&moved);
        int axis, face;
        rc_collision full = rc_collide_views_faces(&va, &vm, margin, &axis, &face);
        if (face == RC_NO_AXIS) {
            continue;
        }
        faces++;
        of_b += face >= RC_AXIS_OF_B;
        ck_assert_int_gt(full.count, 0);
        ck_assert_int_eq(axis, RC_NO_AXIS);
        rc_collision on = rc_collide_views_on_face(&va, &vm, face, margin);
        ck_assert_msg(on.count == full.count && on.normal.x == full.normal.x && on.normal.y == full.normal.y,
                      "case %d: face %d: %d points, %d in full", c, face, on.count, full.count);
        for (int k = 0; k < on.count; ++k) {
            ck_assert(on.points[k].point.x == full.points[k].point.x && on.points[k].point.y == full.points[k].point.y);
            ck_assert(on.points[k].separation == full.points[k].separation && on.points[k].id == full.points[k].id);
        }
        /* a step later, the face alone: its own normal, every point within the margin */
        ref_v2 step = ref_rng_disk(&rng, ref_v(0, 0), 0.01 * scale);
        rc_hull later = rc_hull_transform(&b, xf_of((float)(at.x + step.x), (float)(at.y + step.y),
                                                   angle + (float)ref_rng_uniform(&rng, -0.01, 0.01)));
        rc_hull_view vl = rc_hull_view_of(&later);
        rc_collision on_later = rc_collide_views_on_face(&va, &vl, face, margin);
        rc_vec2 n = face < RC_AXIS_OF_B ? va.normals[face] : rc_neg(vl.normals[face - RC_AXIS_OF_B]);
        for (int k = 0; k < on_later.count; ++k) {
            ck_assert(on_later.normal.x == n.x && on_later.normal.y == n.y);
            ck_assert(on_later.points[k].separation <= margin);
        }
        /* faces the hulls do not have */
        if (va.count < RC_AXIS_OF_B) {
            ck_assert_int_eq(rc_collide_views_on_face(&va, &vm, va.count, margin).count, 0);
        }
        ck_assert_int_eq(rc_collide_views_on_face(&va, &vm, RC_AXIS_OF_B + vm.count, margin).count, 0);
        ck_assert_int_eq(rc_collide_views_on_face(&va, &vm, RC_NO_AXIS, margin).count, 0);
    }
    fprintf(stderr, "[collide] kept faces at scale %d: %d of %d cases clipped against a face, %d of them B's\n", _i,
            faces, cases, of_b);
    ck_assert(faces > cases / 5 && of_b > faces / 10);
    /* circles have no faces */
    rc_hull circle = rc_hull_circle(rc_v2(0, 0), 0.5f), box = rc_hull_circle(rc_v2(0.2f, 0), 0.5f);
    rc_hull_view vc = rc_hull_view_of(&circle), vb = rc_hull_view_of(&box);
    ck_assert_int_eq(rc_collide_views_on_face(&vc, &vb, 0, 0.1f).count, 0);
}
END_TEST

START_TEST(distance_of_rounded_hulls) {
    /* capsule (0,0)-(4,0) r 0.5 and a circle at (6, 3) r 1: core distance |(2,3)| = sqrt(13) */
    rc_hull cap = rc_hull_capsule(rc_v2(0, 0), rc_v2(4, 0), 0.5f), ball = rc_hull_circle(rc_v2(6, 3), 1.0f);
    rc_hull_distance d = rc_distance_hulls(&cap, &ball);
    ck_assert_near(d.distance, sqrt(13.0) - 1.5, 1e-6);
    ck_assert_vec_near(d.point_a, 4, 0, 1e-6);
    ck_assert_vec_near(d.point_b, 6, 3, 1e-6);
    ck_assert_vec_near(d.normal, 2.0 / sqrt(13.0), 3.0 / sqrt(13.0), 1e-6);
    /* a box and a capsule crossing it: overlap */
    rc_hull box = box_hull(1.0f, 1.0f, xf_of(2, 0, 0));
    d = rc_distance_hulls(&box, &cap);
    ck_assert(d.distance < 0.0f);
}
END_TEST

/* ---- time of impact and casts ----------------------------------------------------------------------- */

START_TEST(time_of_impact_of_a_box_thrown_at_a_wall) {
    /* a unit box (half 0.5) from x = 0 to x = 20 in one step, turning a quarter; a wall whose
       face is at x = 10.5 (a 0.1-thick box from 10.5 to 10.6): touches when the box's reach
       along x meets it */
    rc_hull crate = box_hull(0.5f, 0.5f, xf_of(0, 0, 0)); /* in its body frame, about its centre */
    rc_hull_sweep sc = {{0, 0}, {0, 0}, {20, 0}, 0.0f, 0.0f};
    rc_hull wall = box_hull(0.05f, 5.0f, xf_of(0, 0, 0));
    rc_hull_sweep sw = {{0, 0}, {10.55f, 0}, {10.55f, 0}, 0.0f, 0.0f};
    rc_toi r = rc_time_of_impact(&crate, &sc, &wall, &sw, 0.0f, 1e-5f);
    ck_assert_int_eq(r.state, RC_TOI_HIT);
    ck_assert_near(r.t, 10.0 / 20.0, 2e-6); /* the face at 10.5 - 0.5 */
    ck_assert_vec_near(r.normal, 1, 0, 1e-5);
    /* turning: the half-diagonal reaches further, so it touches earlier; never after the
       straight case, and within its iterations */
    sc.a2 = 1.5707963f;
    r = rc_time_of_impact(&crate, &sc, &wall, &sw, 0.0f, 1e-5f);
    ck_assert(r.state == RC_TOI_HIT);
    ck_assert(r.t <= 0.5f && r.t >= (10.0 - 0.7072) / 20.0 - 1e-6);
    rc_hull at = rc_hull_transform(&crate, rc_sweep_transform(&sc, r.t));
    rc_hull wall_placed = rc_hull_transform(&wall, rc_sweep_transform(&sw, r.t));
    ck_assert_near(rc_distance_hulls(&at, &wall_placed).distance, 0.0, 2e-5);
    /* moving away: separated, t = 1 */
    rc_hull_sweep away = {{0, 0}, {0, 0}, {-20, 0}, 0.0f, 0.0f};
    ck_assert_int_eq(rc_time_of_impact(&crate, &away, &wall, &sw, 0.0f, 1e-5f).state, RC_TOI_SEPARATED);
}
END_TEST

/* Regression: a point 0.018 from the long side of a wall 400 long and 0.1 thick, turned by
 * 1.709 rad. GJK searched from the closest point of its simplex (a weighted sum of corners 200
 * units out), whose direction was off by more than the wall's thickness subtends: it stopped
 * on the wall's diagonal and said 0.0496 for 0.0055, and a fast plank's time of impact let it
 * through the wall. The reference: the distance to the side, in double. */
START_TEST(regression_distance_to_a_long_thin_wall) {
    rc_vec2 n4[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    rc_vec2 p4[4] = {{-0.05f, -200}, {0.05f, -200}, {0.05f, 200}, {-0.05f, 200}};
    rc_hull wall = rc_hull_polygon(p4, n4, 4, 0.0f);
    rc_transform turned = {{0.0f, 0.0f}, rc_rot_from_angle(1.70898998f)};
    rc_hull placed = rc_hull_transform(&wall, turned);
    rc_hull core = rc_hull_circle(rc_v2(-23.3457088f, -3.17823982f), 0.0125f);
    /* the side nearest the point: from corner 1 to corner 2 as placed, in double */
    double ax = placed.points[1].x, ay = placed.points[1].y, bx = placed.points[2].x, by = placed.points[2].y;
    double ex = bx - ax, ey = by - ay, px = -23.3457088 - ax, py = -3.17823982 - ay;
    double side = fabs(ex * py - ey * px) / sqrt(ex * ex + ey * ey);
    for (int k = 0; k < 4; ++k) { /* the nearest side, whichever corners bound it */
        const rc_vec2 *c = placed.points;
        double fx = c[(k + 1) % 4].x - c[k].x, fy = c[(k + 1) % 4].y - c[k].y;
        double qx = -23.3457088 - c[k].x, qy = -3.17823982 - c[k].y;
        double len = sqrt(fx * fx + fy * fy), t = (qx * fx + qy * fy) / (len * len);
        if (len > 1.0 && t > 0.0 && t < 1.0) {
            side = fmin(side, fabs(fx * qy - fy * qx) / len);
        }
    }
    ck_assert(side < 0.02 && side > 0.015);
    rc_hull_distance d = rc_distance_hulls(&core, &placed);
    ck_assert_msg(fabs((double)d.distance - (side - 0.0125)) < 2e-5, "distance %.7f, reference %.7f",
                  (double)d.distance, side - 0.0125);
    ck_assert_float_eq_tol(fabsf(rc_length(d.normal) - 1.0f), 0.0f, 1e-6f);
}
END_TEST

/* Regression: a thin triangle driven through a two-sided chain wall (its centroid still 0.019
 * on the near side, two corners through) was given the least overlap's normal, out the far
 * side, by the open end's rule: the solver pushed it through. The wall pushes it back out on
 * its centroid's side. */
START_TEST(regression_a_hull_through_a_wall_is_pushed_back) {
    rc_vec2 a = {0.0f, -200.0f}, b = {0.0f, 200.0f};
    rc_vec2 tri[3] = {{-0.17199f, 42.21308f}, {0.11022f, 41.46451f}, {0.11883f, 41.89524f}};
    rc_vec2 normals[3];
    for (int i = 0; i < 3; ++i) {
        rc_vec2 e = rc_sub(tri[(i + 1) % 3], tri[i]);
        normals[i] = rc_normalize(rc_v2(e.y, -e.x));
    }
    rc_hull hull = rc_hull_polygon(tri, normals, 3, 0.0f);
    /* the free side of b..a is +x, where the centroid (0.019) is; open ends both */
    rc_collision m = rc_collide_chain_wall(b, b, a, a, &hull, 0.02f);
    ck_assert_int_gt(m.count, 0);
    ck_assert_float_eq_tol(m.normal.x, 1.0f, 1e-6f);
    ck_assert_float_eq_tol(m.normal.y, 0.0f, 1e-6f);
    for (int i = 0; i < m.count; ++i) {
        ck_assert_float_eq_tol(m.points[i].separation, -0.17199f, 1e-4f); /* the corner through */
    }
}
END_TEST

/* Overlapping random polygons (boxes among them, up to 1.5 in size) placed and turned at
 * random: the same reference face wherever the pair is (its normal turned with it). The
 * tolerance within which the first hull's face is kept came from a bounding box, which grows
 * as a box turns: the world's narrow phase (in a body's frame) and the pure functions (in the
 * world's) chose different faces of a near tie (a box's corner 0.12 deep in an octagon: the
 * box's face at depth 0.1264 in one, the octagon's at 0.1228 in the other). With that
 * tolerance 5 of these 13,207 overlapping pairs changed face as they moved; now none. */
START_TEST(regression_the_reference_face_does_not_depend_on_the_frame) {
    ref_rng rng = ref_rng_seed(0xFACE5ull);
    int cases = rc_test_random_cases(20000), overlapping = 0, changed = 0;
    for (int c = 0; c < cases; ++c) {
        rc_vec2 va[8], vb[8];
        int na = ref_rng_int(&rng, 3, 8), nb = ref_rng_int(&rng, 3, 8);
        ref_random_convex(&rng, ref_v(0, 0), 1.0, na, true, va);
        ref_random_convex(&rng, ref_rng_disk(&rng, ref_v(0, 0), 1.5), 1.0, nb, true, vb);
        rc_polygon pa, pb;
        if (ref_rng_bool(&rng)) {
            pa = rc_make_box((float)ref_rng_uniform(&rng, 0.2, 1.5), (float)ref_rng_uniform(&rng, 0.2, 1.5));
        } else if (rc_make_polygon(va, na, &pa) != RC_POLYGON_OK) {
            continue;
        }
        if (rc_make_polygon(vb, nb, &pb) != RC_POLYGON_OK) {
            continue;
        }
        rc_hull ha = rc_hull_polygon(pa.vertices, pa.normals, pa.count, 0.0f);
        rc_hull hb = rc_hull_polygon(pb.vertices, pb.normals, pb.count, 0.0f);
        rc_collision here = rc_collide_hulls(&ha, &hb, 0.0f);
        if (here.count == 0 || fminf(here.points[0].separation, here.points[1].separation) > -1e-3f) {
            continue;
        }
        overlapping++;
        rc_transform xf = {{(float)ref_rng_uniform(&rng, -30, 30), (float)ref_rng_uniform(&rng, -30, 30)},
                           rc_rot_from_angle((float)ref_rng_uniform(&rng, -3.14159, 3.14159))};
        rc_hull ma = rc_hull_transform(&ha, xf), mb = rc_hull_transform(&hb, xf);
        rc_collision there = rc_collide_hulls(&ma, &mb, 0.0f);
        rc_vec2 back = rc_inv_rotate(xf.q, there.normal);
        if (there.count == 0 || rc_dot(back, here.normal) < 0.9999f) {
            float sep_here = -here.points[0].separation, sep_there = there.count ? -there.points[0].separation : 0.0f;
            changed++;
            fprintf(stderr, "case %d: normal (%g, %g) here, (%g, %g) there; depths %g, %g\n", c,
                    (double)here.normal.x, (double)here.normal.y, (double)back.x, (double)back.y, (double)sep_here,
                    (double)sep_there);
        }
    }
    fprintf(stderr, "[collide] %d overlapping pairs moved and turned, %d changed face\n", overlapping, changed);
    ck_assert(overlapping > cases / 4);
    ck_assert_int_eq(changed, 0);
}
END_TEST

START_TEST(a_hull_cast_along_a_translation) {
    /* a circle r 0.5 from (0, 0) by (10, 0) at a box whose left face is at x = 5: t = 4.5 / 10 */
    rc_hull ball = rc_hull_circle(rc_v2(0, 0), 0.5f);
    rc_hull box = box_hull(1.0f, 1.0f, xf_of(6, 0, 0));
    float t;
    rc_vec2 n, p;
    ck_assert(rc_cast_hulls(&ball, rc_v2(10, 0), &box, &t, &n, &p, NULL));
    ck_assert_near(t, 0.45, 1e-5);
    ck_assert_vec_near(n, -1, 0, 1e-6);
    ck_assert_vec_near(p, 5, 0, 1e-5);
    /* a box cast down onto a rotated box: the corner first */
    rc_hull crate = box_hull(0.5f, 0.5f, xf_of(0, 5, 0));
    rc_hull diamond = box_hull(1.0f, 1.0f, xf_of(0, 0, 0.78539816f));
    ck_assert(rc_cast_hulls(&crate, rc_v2(0, -10), &diamond, &t, &n, &p, NULL));
    ck_assert_near(t, (4.5 - 1.41421356) / 10.0, 1e-5);
    ck_assert_vec_near(n, 0, 1, 1e-4);
    /* missing to the side */
    ck_assert(!rc_cast_hulls(&ball, rc_v2(0, 10), &box, &t, &n, &p, NULL));
}
END_TEST

/* A hull shrunk by a depth: a box's edges move in (each corner along its diagonal), a round hull
 * loses radius first, and what cannot shrink that far says so and leaves out alone. */
START_TEST(a_hull_inset_by_a_depth) {
    rc_polygon box = rc_make_box(2.0f, 1.0f);
    rc_hull h = rc_hull_polygon(box.vertices, box.normals, box.count, 0.0f), out;
    ck_assert(rc_hull_inset(&h, 0.25f, &out));
    ck_assert_int_eq(out.count, 4);
    ck_assert_float_eq(out.radius, 0.0f);
    for (int i = 0; i < 4; ++i) {
        ck_assert_float_eq_tol(fabsf(out.points[i].x), 1.75f, 1e-6f);
        ck_assert_float_eq_tol(fabsf(out.points[i].y), 0.75f, 1e-6f);
        ck_assert(out.points[i].x * box.vertices[i].x > 0.0f && out.points[i].y * box.vertices[i].y > 0.0f);
        ck_assert(out.normals[i].x == h.normals[i].x && out.normals[i].y == h.normals[i].y);
    }
    /* rounded: radius 0.1 goes first, the other 0.15 from the edges */
    h.radius = 0.1f;
    ck_assert(rc_hull_inset(&h, 0.25f, &out));
    ck_assert_float_eq(out.radius, 0.0f);
    ck_assert_float_eq_tol(fabsf(out.points[0].x), 1.85f, 1e-6f);
    ck_assert_float_eq_tol(fabsf(out.points[0].y), 0.85f, 1e-6f);
    /* a circle and a capsule keep their centres and lose radius */
    rc_hull c = rc_hull_circle(rc_v2(1, 2), 0.5f);
    ck_assert(rc_hull_inset(&c, 0.2f, &out));
    ck_assert_float_eq_tol(out.radius, 0.3f, 1e-7f);
    ck_assert(out.points[0].x == 1.0f && out.points[0].y == 2.0f);
    rc_hull cap = rc_hull_capsule(rc_v2(-1, 0), rc_v2(1, 0), 0.5f);
    ck_assert(rc_hull_inset(&cap, 0.5f - 0x1p-10f, &out));
    ck_assert_float_eq_tol(out.radius, 0x1p-10f, 1e-9f);
    /* refused, out untouched: deeper than a round hull's radius, a box's half height, or no depth */
    rc_hull keep = out;
    ck_assert(!rc_hull_inset(&c, 0.5f, &out));
    ck_assert(!rc_hull_inset(&cap, 0.6f, &out));
    h.radius = 0.0f;
    ck_assert(!rc_hull_inset(&h, 1.0f, &out)); /* the short edges would vanish */
    ck_assert(!rc_hull_inset(&h, 0.0f, &out));
    ck_assert(!rc_hull_inset(&h, NAN, &out));
    ck_assert(!rc_hull_inset(&h, INFINITY, &out));
    ck_assert(memcmp(&keep, &out, sizeof out) == 0);
    /* a triangle shrinks to a similar one about its incentre: a right triangle with legs 3 and 4
       has inradius 1; inset by 0.5 its legs are 1.5 and 2 */
    rc_vec2 pts[3] = {{0, 0}, {4, 0}, {0, 3}};
    rc_polygon tri;
    ck_assert(rc_make_polygon(pts, 3, &tri) == RC_POLYGON_OK);
    rc_hull t = rc_hull_polygon(tri.vertices, tri.normals, tri.count, 0.0f);
    ck_assert(rc_hull_inset(&t, 0.5f, &out));
    float xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        xmin = fminf(xmin, out.points[i].x), xmax = fmaxf(xmax, out.points[i].x);
        ymin = fminf(ymin, out.points[i].y), ymax = fmaxf(ymax, out.points[i].y);
    }
    ck_assert_float_eq_tol(xmin, 0.5f, 1e-6f);
    ck_assert_float_eq_tol(ymin, 0.5f, 1e-6f);
    ck_assert_float_eq_tol(xmax - xmin, 2.0f, 1e-5f);
    ck_assert_float_eq_tol(ymax - ymin, 1.5f, 1e-5f);
    ck_assert(!rc_hull_inset(&t, 1.0f, &out)); /* to its incentre: nothing left */
}
END_TEST

int main(void) {
    Suite *s = suite_create("collide");
    TCase *t = tcase_create("manifolds");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, a_box_resting_on_a_box_has_two_points);
    tcase_add_test(t, a_box_a_hair_above_a_long_floor_has_two_points_and_the_floors_normal);
    tcase_add_test(t, a_tilted_box_touches_with_one_corner);
    tcase_add_test(t, circles_and_capsules);
    tcase_add_test(t, a_hull_against_a_circle_centre);
    tcase_add_test(t, regression_circles_a_denormal_apart);
    tcase_add_test(t, a_round_shape_inside_another_touches_at_its_middle);
    tcase_add_test(t, a_box_slides_over_a_chain_joint_without_a_bump);
    tcase_add_loop_test(t, random_polygon_pairs_agree_with_brute_force, 0, 3);
    tcase_add_test(t, an_apart_pair_names_the_edge_that_separates_it);
    tcase_add_loop_test(t, an_axis_says_apart_only_where_the_manifold_is_empty, 0, 3);
    tcase_add_loop_test(t, a_kept_face_clips_what_the_full_manifold_did, 0, 3);
    tcase_add_test(t, distance_of_rounded_hulls);
    tcase_add_test(t, time_of_impact_of_a_box_thrown_at_a_wall);
    tcase_add_test(t, a_hull_cast_along_a_translation);
    tcase_add_test(t, regression_distance_to_a_long_thin_wall);
    tcase_add_test(t, regression_a_hull_through_a_wall_is_pushed_back);
    tcase_add_test(t, regression_the_reference_face_does_not_depend_on_the_frame);
    tcase_add_test(t, a_hull_inset_by_a_depth);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
