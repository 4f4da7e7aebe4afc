/* Shapes: rc_make_polygon (orientation, clean-up, refusals), rc_make_box,
 * rc_make_regular_polygon, rc_transform_polygon, rc_rot_from_angle, mass data, and the shape
 * geometry record of shapes/shapes.h (base transform under the body transform, as API.md
 * states it: world = body.position + R(body.angle) (offset + R(angle) (sx vx, sy vy))). */
#include "shapes/shapes.h"
#include "support/reference.h"
#include "support/testing.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define NaN ((float)NAN)
#define INF ((float)INFINITY)

static const double PI = 3.14159265358979323846;
static const double TOL = 1e-6;

static rc_polygon poisoned_polygon(void) {
    rc_polygon p;
    memset(&p, 0x5a, sizeof p);
    return p;
}

/* The rules geometry.h sets for an rc_polygon: 3..8 vertices, counter-clockwise and strictly
 * convex, normals[i] the unit outward normal of edge i, centroid the area centroid. */
static void assert_polygon_rules(const rc_polygon *p) {
    ck_assert_int_ge(p->count, 3);
    ck_assert_int_le(p->count, RC_MAX_POLYGON_VERTICES);
    double size = 0.0;
    for (int i = 0; i < p->count; ++i) {
        size = fmax(size, ref_dist(ref_from(p->vertices[i]), ref_from(p->centroid)));
    }
    for (int i = 0; i < p->count; ++i) {
        ref_v2 a = ref_from(p->vertices[i]), b = ref_from(p->vertices[(i + 1) % p->count]);
        ref_v2 c = ref_from(p->vertices[(i + 2) % p->count]);
        ck_assert_msg(ref_cross(ref_sub(b, a), ref_sub(c, b)) > 0.0, "turn at vertex %d is not left",
                      (i + 1) % p->count);
        ref_v2 e = ref_sub(b, a);
        ref_v2 n = ref_unit(ref_v(e.y, -e.x));
        ck_assert_msg(ref_dist(ref_from(p->normals[i]), n) <= 4 * FLT_EPSILON,
                      "normals[%d] = (%g, %g), the outward unit normal is (%g, %g)", i, (double)p->normals[i].x,
                      (double)p->normals[i].y, n.x, n.y);
    }
    ref_mass m = ref_polygon_mass(p->vertices, p->count, 1.0);
    ck_assert_msg(ref_dist(ref_from(p->centroid), m.center) <= 1e-6 * (size + ref_len(m.center)),
                  "centroid (%g, %g), reference (%g, %g)", (double)p->centroid.x, (double)p->centroid.y, m.center.x,
                  m.center.y);
}

/* p has exactly the given vertices, in this cyclic order starting anywhere */
static void assert_vertices_cyclic(const rc_polygon *p, const rc_vec2 *want, int n, double tol) {
    ck_assert_int_eq(p->count, n);
    for (int start = 0; start < n; ++start) {
        bool same = true;
        for (int i = 0; i < n && same; ++i) {
            rc_vec2 v = p->vertices[(start + i) % n];
            same = fabs(v.x - want[i].x) <= tol && fabs(v.y - want[i].y) <= tol;
        }
        if (same) {
            return;
        }
    }
    ck_abort_msg("the vertices are not the expected ones in counter-clockwise order");
}

/* ==== rc_make_polygon ======================================================================== */

START_TEST(make_polygon_keeps_ccw) {
    rc_vec2 sq[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    rc_polygon p = poisoned_polygon();
    ck_assert_int_eq(rc_make_polygon(sq, 4, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    assert_vertices_cyclic(&p, sq, 4, 0.0);
    /* edge i runs from vertex i to i + 1: bottom, right, top, left */
    for (int i = 0; i < 4; ++i) {
        if (rc_vec2_equal(p.vertices[i], rc_v2(0, 0))) {
            ck_assert_vec_eq(p.normals[i], 0, -1);
        }
        if (rc_vec2_equal(p.vertices[i], rc_v2(2, 0))) {
            ck_assert_vec_eq(p.normals[i], 1, 0);
        }
    }
    ck_assert_vec_eq(p.centroid, 1, 1);
}
END_TEST

START_TEST(make_polygon_reverses_cw) {
    rc_vec2 cw[4] = {{0, 2}, {2, 2}, {2, 0}, {0, 0}};
    rc_vec2 ccw[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    rc_polygon p = poisoned_polygon();
    ck_assert_int_eq(rc_make_polygon(cw, 4, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    assert_vertices_cyclic(&p, ccw, 4, 0.0);
    /* a clockwise triangle with a slanted edge: (0,0) (0,3) (4,0) becomes (0,0) (4,0) (0,3) and
       the hypotenuse's normal is (3, 4) / 5, outward */
    rc_vec2 tri[3] = {{0, 0}, {0, 3}, {4, 0}};
    rc_vec2 tri_ccw[3] = {{0, 0}, {4, 0}, {0, 3}};
    ck_assert_int_eq(rc_make_polygon(tri, 3, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    assert_vertices_cyclic(&p, tri_ccw, 3, 0.0);
    for (int i = 0; i < 3; ++i) {
        if (rc_vec2_equal(p.vertices[i], rc_v2(4, 0))) {
            ck_assert_vec_near(p.normals[i], 0.6, 0.8, TOL);
        }
    }
    ck_assert_vec_near(p.centroid, 4.0 / 3.0, 1.0, TOL);
}
END_TEST

START_TEST(make_polygon_drops_duplicates_and_collinear) {
    rc_vec2 ccw[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    rc_polygon p = poisoned_polygon();
    /* repeated points, including the first repeated at the end */
    rc_vec2 dup[7] = {{0, 0}, {0, 0}, {2, 0}, {2, 2}, {2, 2}, {0, 2}, {0, 0}};
    ck_assert_int_eq(rc_make_polygon(dup, 7, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    assert_vertices_cyclic(&p, ccw, 4, 0.0);
    /* the midpoint of every edge: 8 points, 4 corners */
    rc_vec2 mid[8] = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}};
    ck_assert_int_eq(rc_make_polygon(mid, 8, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    assert_vertices_cyclic(&p, ccw, 4, 0.0);
    /* the same clockwise, starting on a midpoint */
    rc_vec2 mid_cw[8] = {{1, 0}, {0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}, {2, 1}, {2, 0}};
    ck_assert_int_eq(rc_make_polygon(mid_cw, 8, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    assert_vertices_cyclic(&p, ccw, 4, 0.0);
    /* a vertex off its neighbours' line by 1e-9 of a polygon of size 2: collinear within the
       tolerance, removed */
    rc_vec2 almost[5] = {{0, 0}, {1, 1e-9f}, {2, 0}, {2, 2}, {0, 2}};
    ck_assert_int_eq(rc_make_polygon(almost, 5, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    ck_assert_int_eq(p.count, 4);
    /* but a clear corner stays: (1, -0.01) is 1 % of the size off the line */
    rc_vec2 corner[5] = {{0, 0}, {1, -0.01f}, {2, 0}, {2, 2}, {0, 2}};
    ck_assert_int_eq(rc_make_polygon(corner, 5, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    ck_assert_int_eq(p.count, 5);
}
END_TEST

START_TEST(make_polygon_refuses) {
    rc_polygon p = poisoned_polygon(), untouched = poisoned_polygon();
    rc_vec2 sq[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    ck_assert_int_eq(rc_make_polygon(NULL, 4, &p), RC_POLYGON_NULL_POINTS);
    ck_assert_int_eq(rc_make_polygon(sq, 2, &p), RC_POLYGON_TOO_FEW);
    ck_assert_int_eq(rc_make_polygon(sq, 0, &p), RC_POLYGON_TOO_FEW);
    ck_assert_int_eq(rc_make_polygon(sq, -1, &p), RC_POLYGON_TOO_FEW);
    rc_vec2 nine[9];
    for (int i = 0; i < 9; ++i) {
        nine[i] = rc_v2((float)cos(2 * PI * i / 9), (float)sin(2 * PI * i / 9));
    }
    ck_assert_int_eq(rc_make_polygon(nine, 9, &p), RC_POLYGON_TOO_MANY);
    /* non-finite, in either coordinate of any point */
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 3; ++k) {
            rc_vec2 bad[4];
            memcpy(bad, sq, sizeof bad);
            float v = k == 0 ? NaN : (k == 1 ? INF : -INF);
            if ((i + k) % 2 == 0) {
                bad[i].x = v;
            } else {
                bad[i].y = v;
            }
            ck_assert_int_eq(rc_make_polygon(bad, 4, &p), RC_POLYGON_NOT_FINITE);
        }
    }
    /* degenerate: one point, a line, two distinct points */
    rc_vec2 same[3] = {{1, 1}, {1, 1}, {1, 1}};
    ck_assert_int_eq(rc_make_polygon(same, 3, &p), RC_POLYGON_DEGENERATE);
    rc_vec2 line[4] = {{0, 0}, {1, 1}, {3, 3}, {2, 2}};
    ck_assert_int_eq(rc_make_polygon(line, 4, &p), RC_POLYGON_DEGENERATE);
    rc_vec2 two[4] = {{0, 0}, {1, 0}, {1, 0}, {0, 0}};
    ck_assert_int_eq(rc_make_polygon(two, 4, &p), RC_POLYGON_DEGENERATE);
    /* concave, both windings: an arrow head (2,1) dents the triangle (0,0) (4,0) (2,4) */
    rc_vec2 arrow[4] = {{0, 0}, {2, 1}, {4, 0}, {2, 4}};
    ck_assert_int_eq(rc_make_polygon(arrow, 4, &p), RC_POLYGON_NOT_CONVEX);
    rc_vec2 arrow_cw[4] = {{2, 4}, {4, 0}, {2, 1}, {0, 0}};
    ck_assert_int_eq(rc_make_polygon(arrow_cw, 4, &p), RC_POLYGON_NOT_CONVEX);
    /* an L, and a U */
    rc_vec2 ell[6] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
    ck_assert_int_eq(rc_make_polygon(ell, 6, &p), RC_POLYGON_NOT_CONVEX);
    rc_vec2 u[8] = {{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
    ck_assert_int_eq(rc_make_polygon(u, 8, &p), RC_POLYGON_NOT_CONVEX);
    /* the pentagram: every turn is left, but it winds round twice */
    rc_vec2 star[5];
    for (int i = 0; i < 5; ++i) {
        double a = PI / 2 + 2 * PI * (2 * i % 5) / 5;
        star[i] = rc_v2((float)cos(a), (float)sin(a));
    }
    ck_assert_int_eq(rc_make_polygon(star, 5, &p), RC_POLYGON_NOT_CONVEX);
    /* the square gone round twice */
    rc_vec2 twice[8] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}, {2, 0}, {2, 2}, {0, 2}};
    ck_assert_int_eq(rc_make_polygon(twice, 8, &p), RC_POLYGON_NOT_CONVEX);
    /* a bow tie with area (its two lobes differ): self-intersecting */
    rc_vec2 bow[4] = {{0, 0}, {2, 2}, {2, 0}, {0, 1}};
    ck_assert_int_eq(rc_make_polygon(bow, 4, &p), RC_POLYGON_NOT_CONVEX);
    ck_assert(memcmp(&p, &untouched, sizeof p) == 0); /* refusals leave *out alone */
}
END_TEST

START_TEST(make_polygon_scales) {
    /* relative tolerances: tiny and far-away polygons are fine */
    rc_polygon p = poisoned_polygon();
    const float s = 0x1p-12f;
    rc_vec2 tiny[4] = {{0, 0}, {2 * s, 0}, {2 * s, 2 * s}, {0, 2 * s}};
    ck_assert_int_eq(rc_make_polygon(tiny, 4, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    ck_assert_vec_eq(p.centroid, s, s);
    rc_vec2 far[4] = {{10000, -10000}, {10002, -10000}, {10002, -9998}, {10000, -9998}};
    ck_assert_int_eq(rc_make_polygon(far, 4, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    ck_assert_vec_eq(p.centroid, 10001, -9999);
    /* a thin sliver (aspect 1000:1) is a polygon, not a degenerate one */
    rc_vec2 sliver[3] = {{0, 0}, {1, 0}, {0, 1e-3f}};
    ck_assert_int_eq(rc_make_polygon(sliver, 3, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    /* RC_MAX_POLYGON_VERTICES distinct points is fine */
    rc_vec2 oct[RC_MAX_POLYGON_VERTICES];
    for (int i = 0; i < RC_MAX_POLYGON_VERTICES; ++i) {
        oct[i] = rc_v2((float)cos(2 * PI * i / RC_MAX_POLYGON_VERTICES), (float)sin(2 * PI * i / RC_MAX_POLYGON_VERTICES));
    }
    ck_assert_int_eq(rc_make_polygon(oct, RC_MAX_POLYGON_VERTICES, &p), RC_POLYGON_OK);
    assert_polygon_rules(&p);
    ck_assert_int_eq(p.count, RC_MAX_POLYGON_VERTICES);
}
END_TEST

START_TEST(polygon_error_strings) {
    const rc_polygon_error all[] = {RC_POLYGON_OK,          RC_POLYGON_NULL_POINTS, RC_POLYGON_TOO_FEW,
                                    RC_POLYGON_TOO_MANY,    RC_POLYGON_NOT_FINITE,  RC_POLYGON_DEGENERATE,
                                    RC_POLYGON_NOT_CONVEX};
    const int n = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < n; ++i) {
        const char *s = rc_polygon_error_string(all[i]);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_gt((int)strlen(s), 0);
        for (int j = 0; j < i; ++j) {
            ck_assert_str_ne(s, rc_polygon_error_string(all[j]));
        }
    }
    ck_assert_ptr_nonnull(rc_polygon_error_string((rc_polygon_error)99));
    ck_assert_ptr_nonnull(rc_polygon_error_string((rc_polygon_error)-1));
}
END_TEST

/* ==== boxes, regular polygons, transforms ==================================================== */

START_TEST(make_box) {
    rc_polygon b = rc_make_box(2, 1);
    ck_assert_int_eq(b.count, 4);
    assert_polygon_rules(&b);
    rc_vec2 want[4] = {{-2, -1}, {2, -1}, {2, 1}, {-2, 1}};
    assert_vertices_cyclic(&b, want, 4, 0.0);
    ck_assert_vec_eq(b.centroid, 0, 0);
    /* FLT_MAX and 2^127 are refused since fuzz_geometry found that a box as wide as 2 FLT_MAX
       has edges of infinite length (normals 0, NaN); 2^126 still makes a box of width 2^127 */
    const float bad[][2] = {{0, 1}, {1, 0}, {-1, 1}, {1, -2}, {NaN, 1}, {1, INF}, {INF, INF}, {FLT_MAX, 1},
                            {1, 0x1p127f}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_assert_int_eq(rc_make_box(bad[i][0], bad[i][1]).count, 0);
    }
    b = rc_make_box(0x1p126f, 0x1p126f);
    ck_assert_int_eq(b.count, 4);
    assert_polygon_rules(&b);
}
END_TEST

START_TEST(make_regular_polygon) {
    for (int n = 3; n <= RC_MAX_POLYGON_VERTICES; ++n) {
        const double radius = 2.0, angle = 0.3;
        rc_polygon p = rc_make_regular_polygon(n, (float)radius, (float)angle);
        ck_assert_int_eq(p.count, n);
        assert_polygon_rules(&p);
        /* vertex i at radius (cos, sin)(angle + 2 pi i / n), the first at angle */
        for (int i = 0; i < n; ++i) {
            double a = angle + 2 * PI * i / n;
            ck_assert_vec_near(p.vertices[i], radius * cos(a), radius * sin(a), 4e-6);
        }
        ck_assert_vec_near(p.centroid, 0, 0, 4e-6);
    }
    ck_assert_int_eq(rc_make_regular_polygon(2, 1, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(RC_MAX_POLYGON_VERTICES + 1, 1, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(-3, 1, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(5, 0, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(5, -1, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(5, NaN, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(5, INF, 0).count, 0);
    ck_assert_int_eq(rc_make_regular_polygon(5, 1, NaN).count, 0);
}
END_TEST

START_TEST(transform_polygon) {
    rc_polygon box = rc_make_box(1, 0.5f);
    const double angle = 0.5;
    rc_transform xf = {{3, -2}, rc_rot_from_angle((float)angle)};
    rc_polygon t = rc_transform_polygon(xf, &box);
    ck_assert_int_eq(t.count, 4);
    assert_polygon_rules(&t);
    double c = cos(angle), s = sin(angle);
    for (int i = 0; i < 4; ++i) {
        rc_vec2 v = box.vertices[i], n = box.normals[i];
        ck_assert_vec_near(t.vertices[i], 3 + c * v.x - s * v.y, -2 + s * v.x + c * v.y, 4e-6);
        ck_assert_vec_near(t.normals[i], c * n.x - s * n.y, s * n.x + c * n.y, 4e-7);
    }
    ck_assert_vec_near(t.centroid, 3, -2, 4e-6);
}
END_TEST

/* ==== rotations ============================================================================== */

/* |got - exact| in units of the float ulp at the exact value */
static double ulps(float got, double exact) {
    float r = (float)exact;
    double ulp = (double)nextafterf(fabsf(r), INFINITY) - fabsf(r);
    if (fabs(exact) < FLT_MIN) {
        ulp = FLT_MIN * FLT_EPSILON;
    }
    return fabs((double)got - exact) / ulp;
}

START_TEST(rot_from_angle_accuracy) {
    /* every 5e-5 rad over [-100, 100] (4 million angles), against double cos / sin of the same
       float angle: within 1.5e-7 absolute and one ulp, and unit length within float rounding */
    double worst_abs = 0.0, worst_ulp = 0.0, worst_unit = 0.0;
    for (long i = -2000000; i <= 2000000; ++i) {
        float a = (float)((double)i * 5e-5);
        rc_rot q = rc_rot_from_angle(a);
        double c = cos((double)a), s = sin((double)a);
        worst_abs = fmax(worst_abs, fmax(fabs(q.c - c), fabs(q.s - s)));
        worst_ulp = fmax(worst_ulp, fmax(ulps(q.c, c), ulps(q.s, s)));
        worst_unit = fmax(worst_unit, fabs((double)q.c * q.c + (double)q.s * q.s - 1.0));
    }
    ck_assert_msg(worst_abs <= 1.5e-7, "worst absolute error %g", worst_abs);
    ck_assert_msg(worst_ulp <= 1.0, "worst error %g ulps", worst_ulp);
    ck_assert_msg(worst_unit <= 2.5e-7, "worst |c^2 + s^2 - 1| %g", worst_unit);
    /* up to 1e5, on random angles */
    ref_rng rng = ref_rng_seed(7);
    const int angles = rc_test_random_cases(200000);
    for (int i = 0; i < angles; ++i) {
        float a = (float)ref_rng_uniform(&rng, -1e5, 1e5);
        rc_rot q = rc_rot_from_angle(a);
        double c = cos((double)a), s = sin((double)a);
        ck_assert_msg(fabs(q.c - c) <= 1.5e-7 && fabs(q.s - s) <= 1.5e-7, "angle %a: (%a, %a)", (double)a, (double)q.c,
                      (double)q.s);
        ck_assert_msg(ulps(q.c, c) <= 1.0 && ulps(q.s, s) <= 1.0, "angle %a: (%a, %a)", (double)a, (double)q.c,
                      (double)q.s);
    }
}
END_TEST

START_TEST(rot_from_angle_special_values) {
    rc_rot q = rc_rot_from_angle(0.0f);
    ck_assert(q.c == 1.0f && q.s == 0.0f);
    q = rc_rot_from_angle(-0.0f);
    ck_assert(q.c == 1.0f && q.s == 0.0f);
    /* float pi is 8.74e-8 above pi: sin is -8.74e-8, correctly rounded */
    q = rc_rot_from_angle(RC_PI);
    ck_assert(q.c == -1.0f && q.s == (float)sin((double)RC_PI));
    q = rc_rot_from_angle(0.5f * RC_PI);
    ck_assert(q.s == 1.0f && q.c == (float)cos((double)(0.5f * RC_PI)));
    /* non-finite: the identity */
    const float bad[] = {NaN, INF, -INF};
    for (int i = 0; i < 3; ++i) {
        q = rc_rot_from_angle(bad[i]);
        ck_assert(q.c == 1.0f && q.s == 0.0f);
    }
    /* huge finite angles promise no accuracy, but still a rotation */
    const float huge[] = {1e6f, -3e7f, 1e30f, FLT_MAX, -FLT_MAX};
    for (int i = 0; i < 5; ++i) {
        q = rc_rot_from_angle(huge[i]);
        ck_assert(isfinite(q.c) && isfinite(q.s));
        ck_assert_near((double)q.c * q.c + (double)q.s * q.s, 1.0, 1e-6);
    }
}
END_TEST

/* ==== mass =================================================================================== */

START_TEST(mass_by_hand) {
    /* box 4 x 2, density 3: area 8, mass 24, I = m (w^2 + h^2) / 12 = 24 * 20 / 12 = 40 */
    rc_polygon box = rc_make_box(2, 1);
    rc_mass_data m = rc_compute_polygon_mass(&box, 3);
    ck_assert_near(m.area, 8, 1e-5);
    ck_assert_near(m.mass, 24, 1e-5);
    ck_assert_vec_eq(m.center, 0, 0);
    ck_assert_near(m.rotational_inertia, 40, 1e-4);
    /* right triangle, legs 3 and 3, density 2: area 4.5, mass 9, centroid (1, 1), I about the
       centroid = m (a^2 + b^2) / 18 = 9 */
    rc_vec2 tri[3] = {{0, 0}, {3, 0}, {0, 3}};
    rc_polygon t;
    ck_assert_int_eq(rc_make_polygon(tri, 3, &t), RC_POLYGON_OK);
    m = rc_compute_polygon_mass(&t, 2);
    ck_assert_near(m.area, 4.5, 1e-5);
    ck_assert_near(m.mass, 9, 1e-5);
    ck_assert_vec_near(m.center, 1, 1, 1e-6);
    ck_assert_near(m.rotational_inertia, 9, 1e-4);
    /* regular hexagon of circumradius 2, density 1: area (3 sqrt 3 / 2) R^2 = 6 sqrt 3;
       I = m R^2 (1 + 2 cos^2(pi / 6)) / 6 = (5 / 12) m R^2 = 10 sqrt 3 */
    rc_polygon hex = rc_make_regular_polygon(6, 2, 0);
    m = rc_compute_polygon_mass(&hex, 1);
    ck_assert_near(m.area, 6 * sqrt(3.0), 1e-5);
    ck_assert_near(m.rotational_inertia, 10 * sqrt(3.0), 1e-4);
    ck_assert_vec_near(m.center, 0, 0, 1e-6);
    /* the box moved far away: same area and inertia, centre moved */
    rc_polygon far = rc_transform_polygon((rc_transform){{10000, 5000}, RC_ROT_IDENTITY}, &box);
    m = rc_compute_polygon_mass(&far, 3);
    ck_assert_near(m.area, 8, 1e-4);
    ck_assert_near(m.rotational_inertia, 40, 1e-3);
    ck_assert_vec_eq(m.center, 10000, 5000);
    /* circle radius 2 at (1, -1), density 0.5: area 4 pi, mass 2 pi, I = m r^2 / 2 = 4 pi */
    m = rc_compute_circle_mass((rc_circle){{1, -1}, 2}, 0.5f);
    ck_assert_near(m.area, 4 * PI, 1e-5);
    ck_assert_near(m.mass, 2 * PI, 1e-5);
    ck_assert_vec_eq(m.center, 1, -1);
    ck_assert_near(m.rotational_inertia, 4 * PI, 1e-5);
}
END_TEST

/* ==== base transforms, placement and views ==================================================== */

/* A shape record the way a caller of shapes/ keeps one: the definition, its prepared base
 * transform, and the body-frame and world stages computed with rc_base_* / rc_place_*. The
 * tests below check those functions through it. */
typedef struct test_geom {
    rc_shape_kind kind;
    rc_base_transform base;
    rc_base prepared;
    float radius;
    rc_polygon local;
    rc_segment local_segment;
    struct {
        rc_circle circle;
        rc_polygon polygon;
        rc_segment segment;
    } body, world;
    rc_aabb aabb;
} test_geom;

static test_geom poisoned_geometry(void) {
    test_geom g;
    memset(&g, 0x5a, sizeof g);
    return g;
}

static const char *tg_init_circle(test_geom *g, float radius, rc_base_transform base) {
    if (!rc_is_finite(radius) || radius <= 0.0f) {
        return "radius";
    }
    rc_base prepared;
    const char *error = rc_base_make(base, RC_SHAPE_CIRCLE, &prepared);
    if (error != NULL) {
        return error;
    }
    test_geom next;
    memset(&next, 0, sizeof next);
    next.kind = RC_SHAPE_CIRCLE;
    next.base = base;
    next.prepared = prepared;
    next.radius = radius;
    next.body.circle = rc_place_circle(&prepared, radius, (rc_transform)RC_TRANSFORM_IDENTITY);
    *g = next;
    return NULL;
}

static const char *tg_init_polygon(test_geom *g, const rc_polygon *local, rc_base_transform base) {
    if (local->count < 3) {
        return "empty polygon";
    }
    rc_base prepared;
    const char *error = rc_base_make(base, RC_SHAPE_POLYGON, &prepared);
    rc_convex view = rc_convex_of(local);
    if (error == NULL) {
        error = rc_base_check_polygon(&prepared, &view);
    }
    if (error != NULL) {
        return error;
    }
    test_geom next;
    memset(&next, 0, sizeof next);
    next.kind = RC_SHAPE_POLYGON;
    next.base = base;
    next.prepared = prepared;
    next.local = *local;
    next.body.polygon = rc_base_polygon(&prepared, &view);
    *g = next;
    return NULL;
}

static const char *tg_init_segment(test_geom *g, rc_vec2 a, rc_vec2 b) {
    if (!rc_vec2_is_finite(a) || !rc_vec2_is_finite(b) || rc_vec2_equal(a, b)) {
        return "bad segment";
    }
    test_geom next;
    memset(&next, 0, sizeof next);
    next.kind = RC_SHAPE_SEGMENT;
    next.local_segment = (rc_segment){a, b};
    next.body.segment = next.local_segment;
    *g = next;
    return NULL;
}

static const char *tg_set_base(test_geom *g, rc_base_transform base) {
    return g->kind == RC_SHAPE_CIRCLE ? tg_init_circle(g, g->radius, base) : tg_init_polygon(g, &g->local, base);
}

static void tg_place(test_geom *g, rc_transform body) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        g->world.circle = rc_place_circle(&g->prepared, g->radius, body);
        g->aabb = rc_circle_aabb(g->world.circle);
        break;
    case RC_SHAPE_POLYGON: {
        /* the body-frame polygon (as the world keeps it), placed */
        rc_convex frame = rc_convex_of(&g->body.polygon);
        g->world.polygon = g->body.polygon;
        rc_place_polygon(&frame, body, g->world.polygon.vertices, g->world.polygon.normals,
                         &g->world.polygon.centroid, &g->aabb);
        break;
    }
    case RC_SHAPE_SEGMENT:
        g->world.segment.a = rc_transform_point(body, g->local_segment.a);
        g->world.segment.b = rc_transform_point(body, g->local_segment.b);
        g->aabb = rc_segment_aabb(g->world.segment.a, g->world.segment.b);
        break;
    case RC_SHAPE_CAPSULE:
        break; /* this harness makes no capsules */
    }
}

static rc_mass_data tg_mass(const test_geom *g, float density) {
    if (g->kind == RC_SHAPE_CIRCLE) {
        return rc_compute_circle_mass(g->body.circle, density);
    }
    if (g->kind == RC_SHAPE_POLYGON) {
        return rc_compute_polygon_mass(&g->body.polygon, density);
    }
    rc_mass_data none = {0, 0, {0, 0}, 0};
    return none;
}

static rc_shape_view tg_view(const test_geom *g) {
    rc_shape_view v;
    v.kind = g->kind;
    if (g->kind == RC_SHAPE_CIRCLE) {
        v.u.circle = g->world.circle;
    } else if (g->kind == RC_SHAPE_POLYGON) {
        v.u.polygon = rc_convex_of(&g->world.polygon);
    } else {
        v.u.segment = g->world.segment;
    }
    return v;
}

static bool tg_ray_cast(const test_geom *g, rc_vec2 o, rc_vec2 d, rc_ray_hit *h) {
    rc_shape_view v = tg_view(g);
    return rc_view_ray_cast(&v, o, d, h);
}
static bool tg_circle_cast(const test_geom *g, rc_vec2 o, float r, rc_vec2 d, rc_ray_hit *h) {
    rc_shape_view v = tg_view(g);
    return rc_view_circle_cast(&v, o, r, d, h);
}
static bool tg_test_point(const test_geom *g, rc_vec2 p) {
    rc_shape_view v = tg_view(g);
    return rc_view_test_point(&v, p);
}
static rc_distance_result tg_distance(const test_geom *g, rc_vec2 p) {
    rc_shape_view v = tg_view(g);
    return rc_view_distance(&v, p);
}
static bool tg_collide(const test_geom *a, const test_geom *b, rc_manifold *m) {
    rc_shape_view va = tg_view(a), vb = tg_view(b);
    return rc_view_collide(&va, &vb, m);
}

static rc_base_transform base_of(float ox, float oy, float angle, float sx, float sy) {
    rc_base_transform b = {{ox, oy}, angle, {sx, sy}};
    return b;
}

/* API.md: world = P + R(theta) (offset + R(phi) (sx vx, sy vy)), in double */
static ref_v2 api_transform(rc_vec2 v, rc_base_transform base, ref_v2 body_p, double body_angle) {
    double sx = base.scale.x * (double)v.x, sy = base.scale.y * (double)v.y;
    double cp = cos(base.angle), sp = sin(base.angle);
    double bx = base.offset.x + cp * sx - sp * sy, by = base.offset.y + sp * sx + cp * sy;
    double ct = cos(body_angle), st = sin(body_angle);
    return ref_v(body_p.x + ct * bx - st * by, body_p.y + st * bx + ct * by);
}

/* every vertex of the world polygon is the API transform of some local vertex, and each local
   vertex lands on some world vertex */
static void assert_world_polygon(const test_geom *g, const rc_polygon *local, rc_base_transform base,
                                 ref_v2 body_p, double body_angle, double tol) {
    const rc_polygon *w = &g->world.polygon;
    ck_assert_int_eq(w->count, local->count);
    assert_polygon_rules(w);
    for (int i = 0; i < local->count; ++i) {
        ref_v2 want = api_transform(local->vertices[i], base, body_p, body_angle);
        bool found = false;
        for (int j = 0; j < w->count && !found; ++j) {
            found = ref_dist(ref_from(w->vertices[j]), want) <= tol;
        }
        ck_assert_msg(found, "local vertex %d should land at (%.9g, %.9g)", i, want.x, want.y);
    }
    /* the box is tight: the extremes of the world vertices */
    rc_aabb box = g->aabb;
    ref_v2 lo = {INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY};
    for (int j = 0; j < w->count; ++j) {
        lo = ref_v(fmin(lo.x, w->vertices[j].x), fmin(lo.y, w->vertices[j].y));
        hi = ref_v(fmax(hi.x, w->vertices[j].x), fmax(hi.y, w->vertices[j].y));
    }
    ck_assert(box.lower.x == lo.x && box.lower.y == lo.y && box.upper.x == hi.x && box.upper.y == hi.y);
}

START_TEST(geometry_circle) {
    test_geom g = poisoned_geometry();
    rc_base_transform base = base_of(1, 2, 0.3f, 2, 2);
    ck_assert_ptr_null(tg_init_circle(&g, 1.5f, base));
    ck_assert_int_eq(g.kind, RC_SHAPE_CIRCLE);
    ck_assert(g.base.offset.x == 1 && g.base.offset.y == 2 && g.base.angle == 0.3f && g.base.scale.x == 2);
    /* the centre is the local origin: it lands on the offset; the radius scales by |sx| */
    ck_assert_vec_eq(g.body.circle.center, 1, 2);
    ck_assert_float_eq(g.body.circle.radius, 3.0f);
    /* placed by a body at (10, -5) turned by 90 degrees: the centre goes to (10, -5) + R (1, 2) =
       (10 - 2, -5 + 1) */
    const double body_angle = 0.5 * PI;
    rc_transform body = {{10, -5}, rc_rot_from_angle((float)body_angle)};
    tg_place(&g, body);
    ref_v2 c = api_transform(rc_v2(0, 0), base, ref_v(10, -5), body_angle);
    ck_assert_vec_near(g.world.circle.center, c.x, c.y, 4e-6);
    ck_assert_vec_near(g.world.circle.center, 8, -4, 4e-6);
    ck_assert_float_eq(g.world.circle.radius, 3.0f);
    ck_assert(g.aabb.lower.x == g.world.circle.center.x - 3 && g.aabb.upper.x == g.world.circle.center.x + 3);
    ck_assert(g.aabb.lower.y == g.world.circle.center.y - 3 && g.aabb.upper.y == g.world.circle.center.y + 3);
    /* mass in the body frame: area pi 9, centre at the offset */
    rc_mass_data m = tg_mass(&g, 2);
    ck_assert_near(m.area, 9 * PI, 1e-4);
    ck_assert_vec_eq(m.center, 1, 2);
    /* a mirrored uniform scale is fine: radius |sx| r */
    ck_assert_ptr_null(tg_init_circle(&g, 1.5f, base_of(0, 0, 0, -2, 2)));
    ck_assert_float_eq(g.body.circle.radius, 3.0f);
    ck_assert_ptr_null(tg_init_circle(&g, 1.5f, base_of(0, 0, 0, -0.5f, -0.5f)));
    ck_assert_float_eq(g.body.circle.radius, 0.75f);
}
END_TEST

START_TEST(geometry_circle_refusals) {
    test_geom g = poisoned_geometry(), untouched = poisoned_geometry();
    const rc_base_transform bad[] = {
        base_of(0, 0, 0, 2, 3),      /* non-uniform: would be an ellipse */
        base_of(0, 0, 0, 0, 0),      /* zero */
        base_of(0, 0, 0, 1, 0),      /* zero y */
        base_of(NaN, 0, 0, 1, 1),    /* non-finite offset */
        base_of(0, 0, INF, 1, 1),    /* non-finite angle */
        base_of(0, 0, 0, NaN, NaN),  /* non-finite scale */
        base_of(0, 0, 0, INF, INF),
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const char *msg = tg_init_circle(&g, 1.0f, bad[i]);
        ck_assert_msg(msg != NULL && msg[0] != '\0', "base %zu accepted", i);
        ck_assert_msg(memcmp(&g, &untouched, sizeof g) == 0, "base %zu changed the record", i);
    }
    const float radii[] = {0.0f, -1.0f, NaN, INF};
    for (int i = 0; i < 4; ++i) {
        const char *msg = tg_init_circle(&g, radii[i], base_of(0, 0, 0, 1, 1));
        ck_assert(msg != NULL && msg[0] != '\0');
        ck_assert(memcmp(&g, &untouched, sizeof g) == 0);
    }
    /* set_base refuses the same and keeps the record as it was */
    ck_assert_ptr_null(tg_init_circle(&g, 1.0f, base_of(1, 1, 0, 1, 1)));
    test_geom before = g;
    ck_assert_ptr_nonnull(tg_set_base(&g, base_of(0, 0, 0, 1, 2)));
    ck_assert(memcmp(&g, &before, sizeof g) == 0);
    ck_assert_ptr_nonnull(tg_set_base(&g, base_of(0, NaN, 0, 1, 1)));
    ck_assert(memcmp(&g, &before, sizeof g) == 0);
    /* and accepts a good one */
    ck_assert_ptr_null(tg_set_base(&g, base_of(-1, 0, 0, 3, -3)));
    ck_assert_vec_eq(g.body.circle.center, -1, 0);
    ck_assert_float_eq(g.body.circle.radius, 3.0f);
}
END_TEST

START_TEST(geometry_polygon_composition_order) {
    /* the box 2 x 1 (half extents 1, 0.5) scaled (2, 1) then turned by 90 degrees: scaling first
       makes it 4 x 1, turning makes it 1 wide and 4 tall. (Turning first and scaling after would
       give 2 x 2.) */
    rc_polygon box = rc_make_box(1, 0.5f);
    test_geom g = poisoned_geometry();
    rc_base_transform base = base_of(0, 0, (float)(0.5 * PI), 2, 1);
    ck_assert_ptr_null(tg_init_polygon(&g, &box, base));
    tg_place(&g, RC_TRANSFORM_IDENTITY);
    ck_assert_near(g.aabb.upper.x - g.aabb.lower.x, 1.0, 1e-6);
    ck_assert_near(g.aabb.upper.y - g.aabb.lower.y, 4.0, 1e-6);
    assert_world_polygon(&g, &box, base, ref_v(0, 0), 0.0, 4e-6);
    /* the offset is added after the base rotation, and the body's transform after that: the
       offset (3, 0) under a body turned by 90 degrees at (0, 10) ends at (0, 13) */
    base = base_of(3, 0, 0, 1, 1);
    ck_assert_ptr_null(tg_set_base(&g, base));
    rc_transform body = {{0, 10}, rc_rot_from_angle((float)(0.5 * PI))};
    tg_place(&g, body);
    ck_assert_vec_near(g.world.polygon.centroid, 0, 13, 4e-6);
    assert_world_polygon(&g, &box, base, ref_v(0, 10), 0.5 * PI, 4e-6);
}
END_TEST

START_TEST(geometry_polygon_general) {
    /* a general triangle under a general base and body transform, checked point by point
       against the formula of API.md */
    rc_vec2 tri[3] = {{0, 0}, {2, 0}, {0.5f, 1.5f}};
    rc_polygon local;
    ck_assert_int_eq(rc_make_polygon(tri, 3, &local), RC_POLYGON_OK);
    const rc_base_transform bases[] = {
        base_of(3, -1, 0.5f, 2, 3),
        base_of(-0.25f, 4, -2.0f, 0.5f, 1.25f),
        base_of(0, 0, 0, -1, 1),          /* mirrored in x */
        base_of(1, 1, 0.7f, 1.5f, -0.5f), /* mirrored in y */
        base_of(2, 0, 1.0f, -2, -3),      /* both: a half turn, no mirror */
    };
    const double body_angles[] = {0.0, 1.2, -2.5};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; ++i) {
        test_geom g = poisoned_geometry();
        ck_assert_ptr_null(tg_init_polygon(&g, &local, bases[i]));
        ck_assert_int_eq(g.kind, RC_SHAPE_POLYGON);
        assert_polygon_rules(&g.body.polygon); /* counter-clockwise, outward normals, even mirrored */
        for (int k = 0; k < 3; ++k) {
            ref_v2 p = ref_v(10.0 * k - 7.0, 3.0 * k + 1.0);
            rc_transform body = {ref_to_float(p), rc_rot_from_angle((float)body_angles[k])};
            tg_place(&g, body);
            assert_world_polygon(&g, &local, bases[i], p, body_angles[k], 2e-5);
            /* the area scales by |sx sy| */
            rc_mass_data m = tg_mass(&g, 1);
            double area = 0.5 * 2 * 1.5 * fabs((double)bases[i].scale.x * bases[i].scale.y);
            ck_assert_near(m.area, area, 1e-5 * area);
        }
    }
}
END_TEST

START_TEST(geometry_polygon_refusals) {
    rc_polygon box = rc_make_box(1, 1);
    test_geom g = poisoned_geometry(), untouched = poisoned_geometry();
    const rc_base_transform bad[] = {
        base_of(0, 0, 0, 0, 1),
        base_of(0, 0, 0, 1, 0),
        base_of(0, INF, 0, 1, 1),
        base_of(0, 0, NaN, 1, 1),
        base_of(0, 0, 0, 1, NaN),
        base_of(0, 0, 0, 1e-30f, 1), /* flattened to no area */
        base_of(0, 0, 0, 1e30f, 1e30f), /* beyond float range once applied... or not: see below */
    };
    for (size_t i = 0; i + 1 < sizeof bad / sizeof bad[0]; ++i) {
        const char *msg = tg_init_polygon(&g, &box, bad[i]);
        ck_assert_msg(msg != NULL && msg[0] != '\0', "base %zu accepted", i);
        ck_assert_msg(memcmp(&g, &untouched, sizeof g) == 0, "base %zu changed the record", i);
    }
    /* a scale of 1e30 on a unit box stays finite (1e30 < FLT_MAX): accepted or refused, never a
       record with infinite vertices */
    if (tg_init_polygon(&g, &box, bad[6]) == NULL) {
        for (int i = 0; i < g.body.polygon.count; ++i) {
            ck_assert(rc_vec2_is_finite(g.body.polygon.vertices[i]));
        }
    } else {
        ck_assert(memcmp(&g, &untouched, sizeof g) == 0);
    }
    /* a polygon with count 0 (a refused rc_make_box) is refused */
    g = poisoned_geometry();
    rc_polygon empty = rc_make_box(-1, 1);
    ck_assert_ptr_nonnull(tg_init_polygon(&g, &empty, base_of(0, 0, 0, 1, 1)));
    ck_assert(memcmp(&g, &untouched, sizeof g) == 0);
    /* set_base failure keeps the record */
    ck_assert_ptr_null(tg_init_polygon(&g, &box, base_of(1, 2, 0.1f, 1, 2)));
    test_geom before = g;
    ck_assert_ptr_nonnull(tg_set_base(&g, base_of(0, 0, 0, 0, 2)));
    ck_assert(memcmp(&g, &before, sizeof g) == 0);
}
END_TEST

START_TEST(geometry_segment) {
    test_geom g = poisoned_geometry(), untouched = poisoned_geometry();
    ck_assert_ptr_nonnull(tg_init_segment(&g, rc_v2(1, 1), rc_v2(1, 1)));
    ck_assert_ptr_nonnull(tg_init_segment(&g, rc_v2(NaN, 1), rc_v2(1, 1)));
    ck_assert_ptr_nonnull(tg_init_segment(&g, rc_v2(0, 1), rc_v2(1, INF)));
    ck_assert(memcmp(&g, &untouched, sizeof g) == 0);
    ck_assert_ptr_null(tg_init_segment(&g, rc_v2(-1, 0), rc_v2(3, 2)));
    ck_assert_int_eq(g.kind, RC_SHAPE_SEGMENT);
    /* a body at (5, 5) turned by 180 degrees: (5 + 1, 5 - 0) and (5 - 3, 5 - 2) */
    tg_place(&g, (rc_transform){{5, 5}, rc_rot_from_angle((float)PI)});
    ck_assert_vec_near(g.world.segment.a, 6, 5, 4e-6);
    ck_assert_vec_near(g.world.segment.b, 2, 3, 4e-6);
    ck_assert(g.aabb.lower.x == fminf(g.world.segment.a.x, g.world.segment.b.x));
    ck_assert(g.aabb.upper.y == fmaxf(g.world.segment.a.y, g.world.segment.b.y));
    rc_mass_data m = tg_mass(&g, 1);
    ck_assert(m.area == 0.0f && m.mass == 0.0f);
}
END_TEST

START_TEST(geometry_queries_use_the_world_stage) {
    /* a unit box under base offset (2, 0) and a body at (0, 3): it occupies [1, 3] x [2, 4] */
    rc_polygon box = rc_make_box(1, 1);
    test_geom g = poisoned_geometry();
    ck_assert_ptr_null(tg_init_polygon(&g, &box, base_of(2, 0, 0, 1, 1)));
    tg_place(&g, (rc_transform){{0, 3}, RC_ROT_IDENTITY});
    rc_ray_hit h;
    ck_assert(tg_ray_cast(&g, rc_v2(0, 3), rc_v2(2, 0), &h)); /* x = 1 at t = 1/2 */
    ck_assert(h.t == 0.5f && h.normal.x == -1.0f && h.normal.y == 0.0f);
    ck_assert(tg_test_point(&g, rc_v2(2, 3)));
    ck_assert(tg_test_point(&g, rc_v2(3, 4))); /* corner */
    ck_assert(!tg_test_point(&g, rc_v2(0, 0)));
    rc_distance_result d = tg_distance(&g, rc_v2(2, 6));
    ck_assert_near(d.distance, 2, TOL);
    ck_assert(tg_circle_cast(&g, rc_v2(-2, 3), 0.5f, rc_v2(4, 0), &h)); /* x = 0.5 at t = 5/8 */
    ck_assert_near(h.t, 0.625, TOL);
}
END_TEST

START_TEST(geometry_collide_normal_from_a_to_b) {
    /* circle r = 1 at the origin and the unit box centred at (1, 0): the box's face x = 0.5 is
       0.5 inside the circle; from A to B is +x whichever kind A is */
    test_geom circle = poisoned_geometry(), box = poisoned_geometry(), wall = poisoned_geometry();
    rc_polygon unit = rc_make_box(0.5f, 0.5f);
    ck_assert_ptr_null(tg_init_circle(&circle, 1, base_of(0, 0, 0, 1, 1)));
    ck_assert_ptr_null(tg_init_polygon(&box, &unit, base_of(1, 0, 0, 1, 1)));
    ck_assert_ptr_null(tg_init_segment(&wall, rc_v2(-2, -0.25f), rc_v2(2, -0.25f)));
    tg_place(&circle, RC_TRANSFORM_IDENTITY);
    tg_place(&box, RC_TRANSFORM_IDENTITY);
    tg_place(&wall, RC_TRANSFORM_IDENTITY);
    rc_manifold m;
    ck_assert(tg_collide(&circle, &box, &m));
    ck_assert_vec_eq(m.normal, 1, 0);
    ck_assert_near(m.depth, 0.5, TOL);
    ck_assert(tg_collide(&box, &circle, &m));
    ck_assert_vec_eq(m.normal, -1, 0);
    ck_assert_near(m.depth, 0.5, TOL);
    /* the wall y = -0.25 runs 0.25 below the circle's centre (depth 1 - 0.25) and 0.25 above the
       box's bottom face y = -0.5 (depth 0.25); both lie mostly above it: normal +y from the wall */
    ck_assert(tg_collide(&wall, &circle, &m));
    ck_assert_vec_eq(m.normal, 0, 1);
    ck_assert_near(m.depth, 0.75, TOL);
    ck_assert(tg_collide(&circle, &wall, &m));
    ck_assert_vec_eq(m.normal, 0, -1);
    ck_assert(tg_collide(&wall, &box, &m));
    ck_assert_vec_eq(m.normal, 0, 1);
    ck_assert_near(m.depth, 0.25, TOL);
    ck_assert(tg_collide(&box, &wall, &m));
    ck_assert_vec_eq(m.normal, 0, -1);
    ck_assert(!tg_collide(&wall, &wall, &m)); /* walls do not touch walls */
}
END_TEST

static Suite *shapes_suite(void) {
    Suite *s = suite_create("shapes");
    TCase *tc = tcase_create("make_polygon");
    tcase_add_test(tc, make_polygon_keeps_ccw);
    tcase_add_test(tc, make_polygon_reverses_cw);
    tcase_add_test(tc, make_polygon_drops_duplicates_and_collinear);
    tcase_add_test(tc, make_polygon_refuses);
    tcase_add_test(tc, make_polygon_scales);
    tcase_add_test(tc, polygon_error_strings);
    suite_add_tcase(s, tc);

    tc = tcase_create("constructors");
    tcase_add_test(tc, make_box);
    tcase_add_test(tc, make_regular_polygon);
    tcase_add_test(tc, transform_polygon);
    tcase_add_test(tc, mass_by_hand);
    suite_add_tcase(s, tc);

    tc = tcase_create("rotation");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rot_from_angle_accuracy);
    tcase_add_test(tc, rot_from_angle_special_values);
    suite_add_tcase(s, tc);

    tc = tcase_create("geometry_record");
    tcase_add_test(tc, geometry_circle);
    tcase_add_test(tc, geometry_circle_refusals);
    tcase_add_test(tc, geometry_polygon_composition_order);
    tcase_add_test(tc, geometry_polygon_general);
    tcase_add_test(tc, geometry_polygon_refusals);
    tcase_add_test(tc, geometry_segment);
    tcase_add_test(tc, geometry_queries_use_the_world_stage);
    tcase_add_test(tc, geometry_collide_normal_from_a_to_b);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(shapes_suite()); }
