/* The pure capsule functions of geometry.h: rc_compute_capsule_mass, rc_capsule_aabb,
 * rc_ray_cast_capsule, rc_circle_cast_capsule, rc_point_distance_capsule.
 *
 * Expected values are worked out by hand (exact where the inputs are on a binary lattice) or
 * come from references written here in double precision on the exact float inputs, sharing no
 * code with the library:
 *  - mass: m = density (pi r^2 + 2 r L); the inertia about the centre by integrating
 *    x^2 + y^2 over the stadium in closed form (rectangle, two half disks), itself checked
 *    against a Simpson quadrature;
 *  - casts: the capsule (grown by the moving circle's radius) as the union of a rectangle and
 *    two disks, the line's entry into it as the least entry over the pieces (the union is
 *    convex); checked against a second method, golden-section search for the least distance
 *    along the sweep and bisection for the first touch, before either is trusted;
 *  - distance: the clamped projection onto the segment.
 * Randomized cases (fixed seeds) run in three scenes (unit size near the origin, 1e4 away, and
 * 1e-3 in size) with rays aimed along the flat sides, starting inside, zero-length capsules
 * (circles) and radius 0 (segments). A case is skipped, counted and reported only when the
 * sweep starts, ends or grazes within a rounding band of the surface. */
#include "support/reference.h"
#include "support/testing.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define EPS ((double)FLT_EPSILON)
#define PI_D 3.14159265358979323846
#define TOL 1e-6

enum { CASES = 3000 };

/* ---- mass ------------------------------------------------------------------------------------ */

/* The stadium of half length h and radius r about its centre: the rectangle 2h x 2r gives
 * 4 r h^3 / 3 + 4 h r^3 / 3 per density; each half disk, integrated in slices x = h + s,
 * 2 w (s + h)^2 + 2 w^3 / 3 with w = sqrt(r^2 - s^2), gives pi r^4 / 4 + 4 h r^3 / 3 + pi h^2 r^2 / 2. */
static double stadium_inertia(double h, double r, double density) {
    double rect = 4.0 * r * h * h * h / 3.0 + 4.0 * h * r * r * r / 3.0;
    double caps = 2.0 * (PI_D * r * r * r * r / 4.0 + 4.0 * h * r * r * r / 3.0 + PI_D * h * h * r * r / 2.0);
    return density * (rect + caps);
}

/* The same integral by Simpson's rule over x in [-(h + r), h + r], each slice's y integral in
 * closed form: a check of the formula above. */
static double stadium_inertia_simpson(double h, double r, int n) {
    double a = -(h + r), step = 2.0 * (h + r) / n, sum = 0.0;
    for (int i = 0; i <= n; ++i) {
        double x = a + step * i, s = fabs(x) > h ? fabs(x) - h : 0.0;
        double w = sqrt(fmax(r * r - s * s, 0.0));
        double f = 2.0 * w * x * x + 2.0 * w * w * w / 3.0;
        sum += (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0)) * f;
    }
    return sum * step / 3.0;
}

static double rel_err(double got, double want) { return fabs(got - want) / fmax(fabs(want), 1e-300); }

START_TEST(mass_formula_checked_by_quadrature) {
    const double cases[][2] = {{1.0, 1.0}, {0.0, 1.0}, {3.0, 0.25}, {0.1, 2.0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        double h = cases[k][0], r = cases[k][1];
        double q = stadium_inertia_simpson(h, r, 400000);
        ck_assert_msg(rel_err(q, stadium_inertia(h, r, 1.0)) < 1e-7, "h %g r %g: quadrature %.12g formula %.12g", h, r,
                      q, stadium_inertia(h, r, 1.0));
    }
}
END_TEST

START_TEST(mass_of_a_capsule_by_hand) {
    /* centres 2 apart, radius 1, density 2: area pi + 4, mass 2 pi + 8; inertia
       2 (4/3 + 4 + pi / 2 + pi) about (0, 0) */
    rc_capsule c = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 1.0f};
    rc_mass_data m = rc_compute_capsule_mass(c, 2.0f);
    ck_assert_float_eq(m.area, (float)(PI_D + 4.0));
    ck_assert_float_eq(m.mass, (float)(2.0 * PI_D + 8.0));
    ck_assert_float_eq(m.rotational_inertia, (float)(2.0 * (4.0 / 3.0 + 4.0 + 1.5 * PI_D)));
    ck_assert_vec_eq(m.center, 0, 0);
    /* the same turned and moved: centre at the middle (3, 4), the same numbers */
    rc_capsule d = {{3.0f, 3.0f}, {3.0f, 5.0f}, 1.0f};
    rc_mass_data n = rc_compute_capsule_mass(d, 2.0f);
    ck_assert_vec_eq(n.center, 3, 4);
    ck_assert_float_eq(n.mass, m.mass);
    ck_assert_float_eq(n.rotational_inertia, m.rotational_inertia);
    /* equal centres: the disk (mass pi r^2 density, inertia m r^2 / 2), as rc_compute_circle_mass */
    rc_capsule disk = {{0.5f, -2.0f}, {0.5f, -2.0f}, 1.5f};
    rc_mass_data dm = rc_compute_capsule_mass(disk, 3.0f);
    rc_mass_data cm = rc_compute_circle_mass((rc_circle){{0.5f, -2.0f}, 1.5f}, 3.0f);
    ck_assert(rel_err(dm.mass, 3.0 * PI_D * 2.25) < 1e-7);
    ck_assert(rel_err(dm.rotational_inertia, 0.5 * 3.0 * PI_D * 2.25 * 2.25) < 1e-7);
    ck_assert(rel_err(dm.mass, cm.mass) < 1e-7 && rel_err(dm.rotational_inertia, cm.rotational_inertia) < 1e-6);
    ck_assert_vec_eq(dm.center, 0.5f, -2.0f);
    /* radius 0: a segment has no area and no mass */
    rc_mass_data sm = rc_compute_capsule_mass((rc_capsule){{0, 0}, {4, 0}, 0.0f}, 5.0f);
    ck_assert(sm.area == 0.0f && sm.mass == 0.0f && sm.rotational_inertia == 0.0f);
    ck_assert_vec_eq(sm.center, 2, 0);
    /* density 0: an area but no mass */
    rc_mass_data zm = rc_compute_capsule_mass(c, 0.0f);
    ck_assert_float_eq(zm.area, (float)(PI_D + 4.0));
    ck_assert(zm.mass == 0.0f && zm.rotational_inertia == 0.0f);
    /* a long thin capsule whose inertia is beyond float range: 1e20 long, radius 1e-3, density 1
       has a mass of 2e17 but an inertia of about 1.7e56: no float, so the answer is no mass
       (geometry.h: the answer for a shape whose mass data are no floats), not an infinite one */
    double r = (double)1e-3f;
    rc_mass_data lm = rc_compute_capsule_mass((rc_capsule){{-5e19f, 0.0f}, {5e19f, 0.0f}, 1e-3f}, 1.0f);
    ck_assert(lm.area == 0.0f && lm.mass == 0.0f && lm.rotational_inertia == 0.0f);
    ck_assert(lm.center.x == 0.0f && lm.center.y == 0.0f);
    /* 1e12 long: its length squared (1e24) overflows no double, its inertia is 1.7e32 */
    lm = rc_compute_capsule_mass((rc_capsule){{-5e11f, 0.0f}, {5e11f, 0.0f}, 1e-3f}, 1.0f);
    ck_assert(rel_err(lm.mass, PI_D * r * r + 2.0 * r * 1e12) < 1e-6 && rel_err(lm.area, lm.mass) < 1e-6);
    ck_assert(rel_err(lm.rotational_inertia, stadium_inertia(5e11, r, 1.0)) < 1e-6);
}
END_TEST

START_TEST(mass_random_against_the_closed_form) {
    ref_rng rng = ref_rng_seed(0xca95017e);
    int n = rc_test_random_cases(2000);
    for (int k = 0; k < n; ++k) {
        double size = pow(10.0, ref_rng_uniform(&rng, -3.0, 3.0));
        rc_vec2 c1 = ref_to_float(ref_v(ref_rng_uniform(&rng, -10, 10) * size, ref_rng_uniform(&rng, -10, 10) * size));
        rc_vec2 c2 = ref_to_float(ref_rng_disk(&rng, ref_from(c1), 3.0 * size));
        if (k % 10 == 0) {
            c2 = c1;
        }
        float radius = (float)(size * ref_rng_uniform(&rng, 0.01, 2.0));
        float density = (float)ref_rng_uniform(&rng, 0.01, 100.0);
        rc_mass_data m = rc_compute_capsule_mass((rc_capsule){c1, c2, radius}, density);
        double L = ref_dist(ref_from(c1), ref_from(c2)), r = radius, rho = density;
        double area = PI_D * r * r + 2.0 * r * L;
        double inertia = stadium_inertia(0.5 * L, r, rho);
        ref_v2 mid = ref_scale(0.5, ref_add(ref_from(c1), ref_from(c2)));
        /* float results of double sums: a few roundings */
        ck_assert_msg(rel_err(m.area, area) < 1e-6 && rel_err(m.mass, rho * area) < 1e-6 &&
                          rel_err(m.rotational_inertia, inertia) < 1e-6,
                      "case %d: c1 {%a,%a} c2 {%a,%a} r %a density %a: area %.9g/%.9g mass %.9g/%.9g inertia "
                      "%.9g/%.9g",
                      k, (double)c1.x, (double)c1.y, (double)c2.x, (double)c2.y, (double)radius, (double)density,
                      (double)m.area, area, (double)m.mass, rho * area, (double)m.rotational_inertia, inertia);
        ck_assert(ref_dist(ref_from(m.center), mid) <= 4.0 * EPS * (fabs(mid.x) + fabs(mid.y) + L));
    }
}
END_TEST

START_TEST(aabb_by_hand) {
    rc_aabb b = rc_capsule_aabb((rc_capsule){{1.0f, -2.0f}, {-3.0f, 4.0f}, 0.5f});
    ck_assert_vec_eq(b.lower, -3.5f, -2.5f);
    ck_assert_vec_eq(b.upper, 1.5f, 4.5f);
    b = rc_capsule_aabb((rc_capsule){{2.0f, 7.0f}, {2.0f, 7.0f}, 0.25f}); /* a circle */
    ck_assert_vec_eq(b.lower, 1.75f, 6.75f);
    ck_assert_vec_eq(b.upper, 2.25f, 7.25f);
    b = rc_capsule_aabb((rc_capsule){{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.0f}); /* a segment */
    ck_assert_vec_eq(b.lower, -1, 0);
    ck_assert_vec_eq(b.upper, 1, 0);
    /* tight: the rounded ends of a slanted capsule reach exactly r beyond each centre */
    b = rc_capsule_aabb((rc_capsule){{10000.0f, 10000.0f}, {10003.0f, 10004.0f}, 2.0f});
    ck_assert_vec_eq(b.lower, 9998, 9998);
    ck_assert_vec_eq(b.upper, 10005, 10006);
}
END_TEST

/* ---- the reference sweep ------------------------------------------------------------------------ */

typedef struct ref_capsule {
    ref_v2 a, b;
    double r; /* the capsule's radius */
} ref_capsule;

static ref_v2 nearest_on(ref_capsule c, ref_v2 p) {
    ref_v2 e = ref_sub(c.b, c.a);
    double ee = ref_dot(e, e);
    double s = ee > 0.0 ? ref_dot(ref_sub(p, c.a), e) / ee : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    return ref_mad(c.a, s, e);
}

static double seg_dist(ref_capsule c, ref_v2 p) { return ref_dist(p, nearest_on(c, p)); }

/* Entry of the line o + t d into the disk of radius rr about c: false when it misses. */
static bool disk_entry(ref_v2 o, ref_v2 d, ref_v2 c, double rr, double *t) {
    ref_v2 m = ref_sub(o, c);
    double A = ref_dot(d, d), B = ref_dot(m, d), C = ref_dot(m, m) - rr * rr;
    double disc = B * B - A * C;
    if (disc < 0.0) {
        return false;
    }
    *t = (-B - sqrt(disc)) / A;
    return true;
}

/* Entry of the line into the rectangle {0 <= u <= L, |v| <= rr} of the segment's frame. */
static bool slab_entry(ref_v2 o, ref_v2 d, ref_capsule c, double rr, double *t) {
    ref_v2 e = ref_sub(c.b, c.a);
    double L = ref_len(e);
    if (L == 0.0) {
        return false;
    }
    ref_v2 u = ref_scale(1.0 / L, e), v = ref_v(-u.y, u.x), m = ref_sub(o, c.a);
    double lo = -INFINITY, hi = INFINITY;
    double p[2] = {ref_dot(m, u), ref_dot(m, v)}, q[2] = {ref_dot(d, u), ref_dot(d, v)};
    double min[2] = {0.0, -rr}, max[2] = {L, rr};
    for (int k = 0; k < 2; ++k) {
        if (q[k] == 0.0) {
            if (p[k] < min[k] || p[k] > max[k]) {
                return false;
            }
            continue;
        }
        double t0 = (min[k] - p[k]) / q[k], t1 = (max[k] - p[k]) / q[k];
        lo = fmax(lo, fmin(t0, t1));
        hi = fmin(hi, fmax(t0, t1));
    }
    if (lo > hi) {
        return false;
    }
    *t = lo;
    return true;
}

/* A circle of radius rc swept from o along d against the capsule (rc = 0: a ray), by the pieces:
 * the line's entry into the grown capsule over all t, the answer by geometry.h's rules. */
static ref_hit sweep_pieces(ref_capsule c, ref_v2 o, double rc, ref_v2 d) {
    ref_hit h;
    memset(&h, 0, sizeof h);
    double reach = c.r + rc, best = INFINITY, t;
    if (disk_entry(o, d, c.a, reach, &t)) {
        best = fmin(best, t);
    }
    if (disk_entry(o, d, c.b, reach, &t)) {
        best = fmin(best, t);
    }
    if (slab_entry(o, d, c, reach, &t)) {
        best = fmin(best, t);
    }
    if (best == INFINITY) {
        return h;
    }
    ref_v2 entry = ref_mad(o, best, d), near = nearest_on(c, entry);
    ref_v2 normal = ref_unit(ref_sub(entry, near));
    if (seg_dist(c, o) < reach) {
        h.hit = h.started_inside = true;
        h.t = 0.0;
        h.point = o;
        h.normal = normal;
        return h;
    }
    if (best < 0.0 || best > 1.0) {
        return h;
    }
    h.hit = true;
    h.t = best;
    h.normal = normal;
    h.point = ref_mad(near, c.r, normal);
    return h;
}

/* The same sweep by sampling: the least distance along the sweep by golden-section search (the
 * distance to a convex set is convex along a line), then bisection for the first touch. */
static ref_hit sweep_search(ref_capsule c, ref_v2 o, double rc, ref_v2 d, double *min_distance) {
    ref_hit h;
    memset(&h, 0, sizeof h);
    double reach = c.r + rc;
    double lo = 0.0, hi = 1.0, g = 0.5 * (sqrt(5.0) - 1.0);
    for (int i = 0; i < 200 && hi - lo > 1e-17; ++i) {
        double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
        if (seg_dist(c, ref_mad(o, x1, d)) < seg_dist(c, ref_mad(o, x2, d))) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    double tmin = 0.5 * (lo + hi);
    *min_distance = fmin(seg_dist(c, ref_mad(o, tmin, d)), fmin(seg_dist(c, o), seg_dist(c, ref_add(o, d))));
    if (seg_dist(c, o) < reach) {
        h.hit = h.started_inside = true;
        return h;
    }
    if (*min_distance > reach) {
        return h;
    }
    lo = 0.0;
    hi = seg_dist(c, ref_add(o, d)) <= reach && seg_dist(c, ref_mad(o, tmin, d)) > reach ? 1.0 : tmin;
    for (int i = 0; i < 200; ++i) {
        double mid = 0.5 * (lo + hi);
        if (seg_dist(c, ref_mad(o, mid, d)) <= reach) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    h.hit = true;
    h.t = hi;
    return h;
}

/* ---- hand-worked casts ------------------------------------------------------------------------- */

START_TEST(ray_cast_by_hand) {
    const rc_capsule c = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 1.0f};
    rc_ray_hit h = rc_test_poisoned_hit();
    /* along the axis: the cap's tip (-2, 0) at t = 3 / 10 */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(-5, 0), rc_v2(10, 0), &h));
    ck_assert_hit(h, 0.3f, -2, 0, -1, 0, false);
    /* down onto the flat side: (0, 1) at t = 4 / 10 */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0, 5), rc_v2(0, -10), &h));
    ck_assert_hit(h, 0.4f, 0, 1, 0, 1, false);
    /* up onto the other flat side, from the right of centre */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0.75f, -3), rc_v2(0, 4), &h));
    ck_assert_hit(h, 0.5f, 0.75f, -1, 0, -1, false);
    /* grazing the flat side from outside (parallel to it): first touch where the left cap's
       circle meets the line y = 1, (-1, 1), at t = 4 / 10 */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(-5, 1), rc_v2(10, 0), &h));
    ck_assert_hit(h, 0.4f, -1, 1, 0, 1, false);
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(-5, 1.0f + 0x1p-20f), rc_v2(10, 0), NULL));
    /* the cap off its tip: the line y = 0.6 meets the circle round (1, 0) at x = 1.8 (0.8^2 +
       0.6^2 = 1), going -x from (5, 0.6): t = 3.2 / 8, normal (0.8, 0.6) */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(5, 0.6f), rc_v2(-8, 0), &h));
    ck_assert_hit_near(h, 0.4, 1.8, 0.6, 0.8, 0.6, false);
    /* rotated a quarter turn about (3, 3): the tip (3, 5) from above */
    rc_capsule up = {{3.0f, 2.0f}, {3.0f, 4.0f}, 1.0f};
    ck_assert(rc_ray_cast_capsule(up, rc_v2(3, 9), rc_v2(0, -8), &h));
    ck_assert_hit(h, 0.5f, 3, 5, 0, 1, false);
    /* diagonal onto the cap at 45 degrees: the circle round (1, 0) entered at (1 + 1/sqrt2, 1/sqrt2) */
    double s2 = sqrt(0.5);
    ck_assert(rc_ray_cast_capsule(c, rc_v2(4, 3), rc_v2(-4, -4), &h));
    ck_assert_hit_near(h, (3.0 - s2) / 4.0, 1.0 + s2, s2, s2, s2, false);
    /* ends short, points away, passes by */
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(-5, 0), rc_v2(2.99f, 0), NULL));
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(-5, 0), rc_v2(-10, 0), NULL));
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(-5, 2), rc_v2(10, 0), NULL));
    /* the answer is the same without a hit to fill */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(-5, 0), rc_v2(10, 0), NULL));
}
END_TEST

START_TEST(ray_cast_inside_and_on_the_boundary) {
    const rc_capsule c = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 1.0f};
    rc_ray_hit h = rc_test_poisoned_hit();
    /* inside: t = 0, the origin, the normal where the ray's line came in (behind the origin) */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0, 0.5f), rc_v2(0, 1), &h));
    ck_assert_hit(h, 0.0f, 0, 0.5f, 0, -1, true); /* came up through the bottom */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0.5f, 0), rc_v2(-3, 0), &h));
    ck_assert_hit(h, 0.0f, 0.5f, 0, 1, 0, true); /* came in through the right tip */
    /* through the left cap: the line y = 0.5 entered at x = -1 - sqrt(3) / 2 */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0, 0.5f), rc_v2(1, 0), &h));
    ck_assert_hit_near(h, 0.0, 0, 0.5, -sqrt(0.75), 0.5, true);
    /* on the centre segment itself */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0.25f, 0), rc_v2(0, -2), &h));
    ck_assert_hit(h, 0.0f, 0.25f, 0, 0, 1, true);
    /* on the boundary: going in hits at t = 0 (not inside), going out does not */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(0, 1), rc_v2(0, -1), &h));
    ck_assert_hit(h, 0.0f, 0, 1, 0, 1, false);
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(0, 1), rc_v2(0, 1), NULL));
    ck_assert(rc_ray_cast_capsule(c, rc_v2(-2, 0), rc_v2(1, 0), &h));
    ck_assert_hit(h, 0.0f, -2, 0, -1, 0, false);
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(-2, 0), rc_v2(-1, 0), NULL));
    /* on the tip going along its tangent touches there */
    ck_assert(rc_ray_cast_capsule(c, rc_v2(-2, 0), rc_v2(0, 1), &h));
    ck_assert_hit(h, 0.0f, -2, 0, -1, 0, false);
}
END_TEST

START_TEST(ray_cast_degenerate_capsules) {
    rc_ray_hit h = rc_test_poisoned_hit();
    /* equal centres: the circle of radius 2 about (1, 1), as rc_ray_circle */
    rc_capsule disk = {{1.0f, 1.0f}, {1.0f, 1.0f}, 2.0f};
    ck_assert(rc_ray_cast_capsule(disk, rc_v2(-5, 1), rc_v2(10, 0), &h));
    ck_assert_hit(h, 0.4f, -1, 1, -1, 0, false);
    ck_assert(rc_ray_cast_capsule(disk, rc_v2(1, -4), rc_v2(0, 10), &h));
    ck_assert_hit(h, 0.3f, 1, -1, 0, -1, false);
    ck_assert(rc_ray_cast_capsule(disk, rc_v2(1, 1), rc_v2(10, 0), &h)); /* from the centre */
    ck_assert_hit(h, 0.0f, 1, 1, -1, 0, true);
    ck_assert(!rc_ray_cast_capsule(disk, rc_v2(-5, 3.0f + 0x1p-20f), rc_v2(10, 0), NULL));
    /* radius 0: the segment; a crossing hits with the perpendicular facing the ray */
    rc_capsule seg = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.0f};
    ck_assert(rc_ray_cast_capsule(seg, rc_v2(0.5f, 5), rc_v2(0, -10), &h));
    ck_assert_hit(h, 0.5f, 0.5f, 0, 0, 1, false);
    ck_assert(rc_ray_cast_capsule(seg, rc_v2(1, -2), rc_v2(0, 4), &h)); /* through an end */
    ck_assert_hit(h, 0.5f, 1, 0, 0, -1, false);
    ck_assert(!rc_ray_cast_capsule(seg, rc_v2(1.0f + 0x1p-20f, -2), rc_v2(0, 4), NULL));
}
END_TEST

START_TEST(circle_cast_by_hand) {
    const rc_capsule c = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 1.0f};
    rc_ray_hit h = rc_test_poisoned_hit();
    /* radius 1 down onto the flat side: the centre stops at y = 2, t = 3 / 10, touching (0, 1) */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(0, 5), 1.0f, rc_v2(0, -10), &h));
    ck_assert_hit(h, 0.3f, 0, 1, 0, 1, false);
    /* along the axis onto the tip: centre stops at x = -2.5, touching (-2, 0) */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(-6.5f, 0), 0.5f, rc_v2(8, 0), &h));
    ck_assert_hit(h, 0.5f, -2, 0, -1, 0, false);
    /* grazing: the centre line y = 2 touches first above the left centre, (-1, 1) */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(-5, 2), 1.0f, rc_v2(10, 0), &h));
    ck_assert_hit(h, 0.4f, -1, 1, 0, 1, false);
    ck_assert(!rc_circle_cast_capsule(c, rc_v2(-5, 2.0f + 0x1p-20f), 1.0f, rc_v2(10, 0), NULL));
    /* a cap, off the tip: reach 1.25; the line y = 0.75 meets it at x = 2 (1^2 + 0.75^2 =
       1.25^2): t = 2 / 4, normal (0.8, 0.6), the capsule touched at (1.8, 0.6) */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(4, 0.75f), 0.25f, rc_v2(-4, 0), &h));
    ck_assert_hit_near(h, 0.5, 1.8, 0.6, 0.8, 0.6, false);
    /* overlapping at the start: t = 0, the origin, the normal of where the line came in */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(0, 1.5f), 1.0f, rc_v2(0, -1), &h));
    ck_assert_hit(h, 0.0f, 0, 1.5f, 0, 1, true);
    /* touching at the start: moving in hits at t = 0, moving out misses */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(0, 2), 1.0f, rc_v2(0, -1), &h));
    ck_assert_hit(h, 0.0f, 0, 1, 0, 1, false);
    ck_assert(!rc_circle_cast_capsule(c, rc_v2(0, 2), 1.0f, rc_v2(0, 1), NULL));
    /* radius 0 is the ray cast */
    ck_assert(rc_circle_cast_capsule(c, rc_v2(0, 5), 0.0f, rc_v2(0, -10), &h));
    ck_assert_hit(h, 0.4f, 0, 1, 0, 1, false);
    /* a capsule of radius 0 is the segment grown by the moving circle */
    rc_capsule seg = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.0f};
    ck_assert(rc_circle_cast_capsule(seg, rc_v2(-5, 0), 1.0f, rc_v2(8, 0), &h));
    ck_assert_hit(h, 0.375f, -1, 0, -1, 0, false);
    /* far from the origin: the same at (1e4, -1e4) */
    rc_capsule far = {{9999.0f, -10000.0f}, {10001.0f, -10000.0f}, 1.0f};
    ck_assert(rc_circle_cast_capsule(far, rc_v2(10000, -9995), 1.0f, rc_v2(0, -10), &h));
    ck_assert_hit(h, 0.3f, 10000, -9999, 0, 1, false);
}
END_TEST

START_TEST(casts_refuse_bad_input) {
    const rc_capsule c = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 1.0f};
    const float bad[] = {NAN, INFINITY, -INFINITY};
    rc_vec2 o = rc_v2(-5, 0), d = rc_v2(10, 0);
    ck_assert(rc_ray_cast_capsule(c, o, d, NULL) && rc_circle_cast_capsule(c, o, 0.5f, d, NULL));
    for (int k = 0; k < 3; ++k) {
        float x = bad[k];
        rc_capsule b[5] = {c, c, c, c, c};
        b[0].center1.x = x;
        b[1].center1.y = x;
        b[2].center2.x = x;
        b[3].center2.y = x;
        b[4].radius = x;
        for (int i = 0; i < 5; ++i) {
            ck_assert_msg(!rc_ray_cast_capsule(b[i], o, d, NULL) && !rc_circle_cast_capsule(b[i], o, 0.5f, d, NULL),
                          "capsule field %d = %g accepted", i, (double)x);
        }
        ck_assert(!rc_ray_cast_capsule(c, rc_v2(x, 0), d, NULL) && !rc_ray_cast_capsule(c, rc_v2(0, x), d, NULL));
        ck_assert(!rc_ray_cast_capsule(c, o, rc_v2(x, 0), NULL) && !rc_ray_cast_capsule(c, o, rc_v2(0, x), NULL));
        ck_assert(!rc_circle_cast_capsule(c, rc_v2(x, 0), 0.5f, d, NULL));
        ck_assert(!rc_circle_cast_capsule(c, o, 0.5f, rc_v2(x, 1), NULL));
        ck_assert(!rc_circle_cast_capsule(c, o, x, d, NULL));
    }
    /* negative radii, a translation of zero length (even from inside), radii summing past float */
    ck_assert(!rc_ray_cast_capsule((rc_capsule){{-1, 0}, {1, 0}, -1.0f}, o, d, NULL));
    ck_assert(!rc_circle_cast_capsule(c, o, -0.5f, d, NULL));
    ck_assert(!rc_ray_cast_capsule(c, rc_v2(0, 0), rc_v2(0, 0), NULL));
    ck_assert(!rc_circle_cast_capsule(c, rc_v2(0, 0), 0.5f, rc_v2(0, 0), NULL));
    rc_capsule huge = {{0, 0}, {1, 0}, 3e38f};
    ck_assert(!rc_circle_cast_capsule(huge, o, 3e38f, d, NULL));
    /* a refused cast leaves the hit alone */
    rc_ray_hit h = rc_test_poisoned_hit(), p = rc_test_poisoned_hit();
    ck_assert(!rc_ray_cast_capsule((rc_capsule){{NAN, 0}, {1, 0}, 1.0f}, o, d, &h));
    ck_assert(memcmp(&h, &p, sizeof h) == 0);
}
END_TEST

/* ---- randomized casts --------------------------------------------------------------------------- */

typedef struct scene {
    const char *name;
    double offset, size;
    uint64_t seed;
} scene;

static const scene SCENES[] = {
    {"unit", 0.0, 1.0, 0xc4b5001u},
    {"offset 1e4", 1.0e4, 2.0, 0xc4b5002u},
    {"size 1e-3", 0.0, 1.0e-3, 0xc4b5003u},
};

static ref_v2 scene_center(ref_rng *rng, const scene *sc) {
    double sx = ref_rng_bool(rng) ? 1.0 : -1.0, sy = ref_rng_bool(rng) ? 1.0 : -1.0;
    return ref_v(sx * sc->offset + ref_rng_uniform(rng, -3.0, 3.0) * sc->size,
                 sy * sc->offset + ref_rng_uniform(rng, -3.0, 3.0) * sc->size);
}

/* A random capsule of size about L: a tenth circles, the rest at any angle (a tenth of them
 * along an axis). */
static rc_capsule random_capsule(ref_rng *rng, ref_v2 c, double L, int k) {
    double a = k % 10 == 1 ? 0.5 * PI_D * ref_rng_int(rng, 0, 3) : ref_rng_uniform(rng, 0.0, 2.0 * PI_D);
    double h = k % 10 == 0 ? 0.0 : L * ref_rng_uniform(rng, 0.1, 1.5);
    rc_capsule cap;
    cap.center1 = ref_to_float(ref_mad(c, -h, ref_v(cos(a), sin(a))));
    cap.center2 = k % 10 == 0 ? cap.center1 : ref_to_float(ref_mad(c, h, ref_v(cos(a), sin(a))));
    cap.radius = (float)(L * ref_rng_uniform(rng, 0.05, 0.8));
    return cap;
}

/* A sweep start and translation: anywhere near; a sixth aimed along the flat sides (parallel
 * to the axis, at a distance about the reach); a sixth starting at a point inside. */
static void random_sweep(ref_rng *rng, rc_capsule cap, double L, double reach, int k, rc_vec2 *o, rc_vec2 *d) {
    ref_v2 a = ref_from(cap.center1), b = ref_from(cap.center2), mid = ref_scale(0.5, ref_add(a, b));
    ref_v2 axis = ref_unit(ref_sub(b, a));
    if (axis.x == 0.0 && axis.y == 0.0) {
        axis = ref_v(1.0, 0.0);
    }
    double len = ref_rng_uniform(rng, 0.1 * L, 6.0 * L);
    if (k % 6 == 2) {
        double side = reach * ref_rng_uniform(rng, 0.5, 1.5) * (ref_rng_bool(rng) ? 1.0 : -1.0);
        double back = ref_rng_uniform(rng, 1.0, 4.0) * L * (ref_rng_bool(rng) ? 1.0 : -1.0);
        *o = ref_to_float(ref_mad(ref_mad(mid, side, ref_v(-axis.y, axis.x)), back, axis));
        *d = ref_to_float(ref_scale(back > 0.0 ? -len : len, axis));
        return;
    }
    if (k % 6 == 3) {
        double s = ref_rng_uniform(rng, 0.0, 1.0), v = ref_rng_uniform(rng, -0.9, 0.9) * (double)cap.radius;
        *o = ref_to_float(ref_mad(ref_mad(a, s, ref_sub(b, a)), v, ref_v(-axis.y, axis.x)));
    } else {
        *o = ref_to_float(ref_rng_disk(rng, mid, 4.0 * L));
    }
    double ang = ref_rng_uniform(rng, 0.0, 2.0 * PI_D);
    *d = ref_to_float(ref_v(len * cos(ang), len * sin(ang)));
}

static bool is_unit(rc_vec2 n) { return fabs(sqrt((double)n.x * n.x + (double)n.y * n.y) - 1.0) <= 1e-6; }

/* One sweep against both references; false when within the band of grazing (nothing compared). */
static bool compare_cast(rc_tally *t, rc_capsule cap, rc_vec2 o, float radius, rc_vec2 d, bool ray, long *inside,
                         long *hits) {
    ref_capsule c = {ref_from(cap.center1), ref_from(cap.center2), cap.radius};
    ref_v2 O = ref_from(o), D = ref_from(d), E = ref_add(O, D);
    double reach = c.r + radius, dl = ref_len(D);
    double S = fmax(fmax(fabs(O.x), fabs(O.y)), fmax(fmax(fabs(c.a.x), fabs(c.a.y)), fmax(fabs(c.b.x), fabs(c.b.y))));
    double Lx = fmax(dl, fmax(ref_dist(O, c.a), ref_dist(O, c.b))) + reach;
    double band = 16.0 * EPS * S + 64.0 * EPS * Lx, min_distance;
    ref_hit r2 = sweep_search(c, O, radius, D, &min_distance);
    if (fabs(seg_dist(c, O) - reach) < band || fabs(seg_dist(c, E) - reach) < band ||
        fabs(min_distance - reach) < band) {
        return false;
    }
    ref_hit r1 = sweep_pieces(c, O, radius, D);
    ck_assert_msg(r1.hit == r2.hit && r1.started_inside == r2.started_inside &&
                      (!r1.hit || fabs(r1.t - r2.t) * dl <= 1e-9 * (S + Lx)),
                  "the references disagree: %d/%d t %.17g/%.17g | %s", r1.hit, r2.hit, r1.t, r2.t, t->case_inputs);
    rc_ray_hit h = rc_test_poisoned_hit();
    bool got = ray ? rc_ray_cast_capsule(cap, o, d, &h) : rc_circle_cast_capsule(cap, o, radius, d, &h);
    bool again = ray ? rc_ray_cast_capsule(cap, o, d, NULL) : rc_circle_cast_capsule(cap, o, radius, d, NULL);
    rc_tally_check(t, again == got, "answer changes with hit == NULL");
    *inside += r1.started_inside;
    *hits += got;
    if (!rc_tally_check(t, got == r1.hit, "hit %d, reference %d (t %.9g, inside %d)", got, r1.hit, r1.t,
                        r1.started_inside) ||
        !got) {
        return true;
    }
    /* a crossing at cosine c is conditioned by 1 / c; round ends: differences up to Lx long */
    double cosine = fmax(fabs(ref_dot(r1.normal, D)) / dl, 1e-3);
    double tol = 8.0 * EPS * S + 16.0 * EPS * Lx / cosine;
    rc_tally_check(t, h.started_inside == r1.started_inside, "started_inside %d, reference %d", h.started_inside,
                   r1.started_inside);
    rc_tally_check(t, h.t >= 0.0f && h.t <= 1.0f, "t = %.9g outside [0, 1]", (double)h.t);
    rc_tally_near(t, "t * |translation|", h.t * dl, r1.t * dl, tol);
    rc_tally_near(t, "|point - reference|", ref_dist(ref_from(h.point), r1.point), 0.0, tol + 4.0 * EPS * S);
    rc_tally_near(t, "|normal - reference|", ref_dist(ref_from(h.normal), r1.normal), 0.0,
                  1e-5 + 4.0 * tol / reach);
    rc_tally_check(t, is_unit(h.normal), "normal (%.9g, %.9g) not unit", (double)h.normal.x, (double)h.normal.y);
    rc_tally_check(t, ref_dot(ref_from(h.normal), D) <= 1e-6 * dl, "normal not against the sweep");
    rc_tally_check(t, rc_shape_id_is_null(h.shape) && rc_body_id_is_null(h.body), "ids not null");
    if (!ray && radius == 0.0f) {
        rc_ray_hit g;
        bool ray_got = rc_ray_cast_capsule(cap, o, d, &g);
        rc_tally_check(t, ray_got && g.t == h.t && g.normal.x == h.normal.x && g.normal.y == h.normal.y,
                       "radius 0 is not the ray cast");
    }
    return true;
}

static void run_random_casts(int scene_index, bool ray) {
    const scene *sc = &SCENES[scene_index];
    char name[96];
    snprintf(name, sizeof name, "%s [%s]", ray ? "rc_ray_cast_capsule" : "rc_circle_cast_capsule", sc->name);
    rc_tally t;
    rc_tally_init(&t, name);
    ref_rng rng = ref_rng_seed(sc->seed ^ (ray ? 0x100u : 0x200u));
    long inside = 0, hits = 0, compared = 0;
    int n = rc_test_random_cases(CASES);
    for (int k = 0; k < n; ++k) {
        double L = sc->size * ref_rng_uniform(&rng, 0.5, 2.0);
        rc_capsule cap = random_capsule(&rng, scene_center(&rng, sc), L, k);
        float radius = ray || k % 10 == 5 ? 0.0f : (float)(L * ref_rng_uniform(&rng, 0.05, 0.8));
        rc_vec2 o, d;
        random_sweep(&rng, cap, L, (double)cap.radius + radius, k, &o, &d);
        rc_tally_begin(&t, "capsule {%a,%a} {%a,%a} r %a; o {%a,%a} radius %a d {%a,%a}", (double)cap.center1.x,
                       (double)cap.center1.y, (double)cap.center2.x, (double)cap.center2.y, (double)cap.radius,
                       (double)o.x, (double)o.y, (double)radius, (double)d.x, (double)d.y);
        if (!compare_cast(&t, cap, o, radius, d, ray, &inside, &hits)) {
            rc_tally_skip(&t);
            continue;
        }
        ++compared;
        rc_tally_end(&t);
    }
    ck_assert_msg(inside > n / 12 && hits > n / 4, "too few sweeps start inside (%ld) or hit (%ld) of %ld", inside,
                  hits, compared);
    rc_tally_finish(&t);
}

START_TEST(random_ray_casts) { run_random_casts(_i, true); }
END_TEST

START_TEST(random_circle_casts) { run_random_casts(_i, false); }
END_TEST

/* Radius 0: rays across the segment, against the parametric solve (near-parallel rays and
 * crossings near the ends are skipped as ill-conditioned). */
START_TEST(random_rays_against_segments) {
    rc_tally t;
    rc_tally_init(&t, "rc_ray_cast_capsule, radius 0");
    ref_rng rng = ref_rng_seed(0x5e6);
    int n = rc_test_random_cases(CASES);
    for (int k = 0; k < n; ++k) {
        rc_capsule cap = {ref_to_float(ref_rng_disk(&rng, ref_v(0, 0), 2.0)),
                          ref_to_float(ref_rng_disk(&rng, ref_v(0, 0), 2.0)), 0.0f};
        rc_vec2 o = ref_to_float(ref_rng_disk(&rng, ref_v(0, 0), 4.0));
        double ang = ref_rng_uniform(&rng, 0.0, 2.0 * PI_D), len = ref_rng_uniform(&rng, 0.5, 6.0);
        rc_vec2 d = ref_to_float(ref_v(len * cos(ang), len * sin(ang)));
        rc_tally_begin(&t, "segment {%a,%a} {%a,%a}; o {%a,%a} d {%a,%a}", (double)cap.center1.x,
                       (double)cap.center1.y, (double)cap.center2.x, (double)cap.center2.y, (double)o.x, (double)o.y,
                       (double)d.x, (double)d.y);
        double sin_angle = 0.0;
        ref_hit r = ref_ray_segment(ref_from(o), ref_from(d), ref_from(cap.center1), ref_from(cap.center2), &sin_angle);
        /* how far the crossing is from deciding otherwise: the ends of both, and parallel */
        ref_capsule c = {ref_from(cap.center1), ref_from(cap.center2), 0.0};
        ref_v2 O = ref_from(o), E = ref_add(O, ref_from(d));
        double margin = fmin(fmin(seg_dist(c, O), seg_dist(c, E)),
                             fmin(ref_segment_distance(c.a, O, E, NULL), ref_segment_distance(c.b, O, E, NULL)));
        if (sin_angle < 1e-3 || margin < 1e-4) {
            rc_tally_skip(&t);
            continue;
        }
        rc_ray_hit h = rc_test_poisoned_hit();
        bool got = rc_ray_cast_capsule(cap, o, d, &h);
        if (rc_tally_check(&t, got == r.hit, "hit %d, reference %d", got, r.hit) && got) {
            ref_v2 nr = ref_unit(r.normal);
            rc_tally_near(&t, "t", h.t, r.t, 1e-5 / sin_angle);
            rc_tally_near(&t, "|normal - reference|", ref_dist(ref_from(h.normal), nr), 0.0, 1e-5);
            rc_tally_check(&t, !h.started_inside, "a segment has no inside");
        }
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

/* ---- distance ------------------------------------------------------------------------------------- */

START_TEST(point_distance_by_hand) {
    const rc_capsule c = {{-1.0f, 0.0f}, {1.0f, 0.0f}, 1.0f};
    rc_distance_result d = rc_point_distance_capsule(c, rc_v2(0.5f, 3));
    ck_assert_float_eq(d.distance, 2.0f);
    ck_assert_vec_eq(d.point, 0.5f, 1);
    ck_assert_vec_eq(d.normal, 0, 1);
    d = rc_point_distance_capsule(c, rc_v2(4, 4)); /* off the cap: (1, 0) + 5 (0.6, 0.8) */
    ck_assert_near(d.distance, 4.0, TOL);
    ck_assert_vec_near(d.point, 1.6, 0.8, TOL);
    ck_assert_vec_near(d.normal, 0.6, 0.8, TOL);
    d = rc_point_distance_capsule(c, rc_v2(-0.25f, -0.5f)); /* inside: negative */
    ck_assert_float_eq(d.distance, -0.5f);
    ck_assert_vec_eq(d.point, -0.25f, -1);
    ck_assert_vec_eq(d.normal, 0, -1);
    d = rc_point_distance_capsule(c, rc_v2(0.25f, 0)); /* on the segment: its left perpendicular */
    ck_assert_float_eq(d.distance, -1.0f);
    ck_assert_vec_eq(d.normal, 0, 1);
    ck_assert_vec_eq(d.point, 0.25f, 1);
    d = rc_point_distance_capsule(c, rc_v2(-2, 0)); /* on the boundary */
    ck_assert_float_eq(d.distance, 0.0f);
    ck_assert_vec_eq(d.normal, -1, 0);
    /* a circle: from its centre the normal is still a unit vector */
    rc_capsule disk = {{1.0f, 1.0f}, {1.0f, 1.0f}, 2.0f};
    d = rc_point_distance_capsule(disk, rc_v2(1, 1));
    ck_assert_float_eq(d.distance, -2.0f);
    ck_assert(is_unit(d.normal));
    ck_assert_near(ref_dist(ref_from(d.point), ref_v(1, 1)), 2.0, TOL);
    d = rc_point_distance_capsule(disk, rc_v2(1, 4));
    ck_assert_float_eq(d.distance, 1.0f);
    ck_assert_vec_eq(d.point, 1, 3);
}
END_TEST

START_TEST(random_point_distances) {
    ref_rng rng = ref_rng_seed(0xd157);
    int n = rc_test_random_cases(CASES);
    for (int k = 0; k < n; ++k) {
        const scene *sc = &SCENES[k % 3];
        double L = sc->size * ref_rng_uniform(&rng, 0.5, 2.0);
        rc_capsule cap = random_capsule(&rng, scene_center(&rng, sc), L, k);
        ref_capsule c = {ref_from(cap.center1), ref_from(cap.center2), cap.radius};
        ref_v2 mid = ref_scale(0.5, ref_add(c.a, c.b));
        rc_vec2 p = ref_to_float(ref_rng_disk(&rng, mid, 4.0 * L));
        ref_v2 P = ref_from(p), near = nearest_on(c, P);
        double S = fmax(fmax(fabs(P.x), fabs(P.y)), fmax(fabs(mid.x), fabs(mid.y))) + 4.0 * L;
        double tol = 16.0 * EPS * S, dist = ref_dist(P, near);
        rc_distance_result d = rc_point_distance_capsule(cap, p);
        ck_assert_msg(fabs(d.distance - (dist - c.r)) <= tol && is_unit(d.normal),
                      "case %d: capsule {%a,%a} {%a,%a} r %a, p {%a,%a}: distance %.9g, expected %.9g", k,
                      (double)cap.center1.x, (double)cap.center1.y, (double)cap.center2.x, (double)cap.center2.y,
                      (double)cap.radius, (double)p.x, (double)p.y, (double)d.distance, dist - c.r);
        /* the point is on the surface, the normal leads from it towards p (outside) or away */
        ck_assert(fabs(seg_dist(c, ref_from(d.point)) - c.r) <= tol);
        if (dist > 0.01 * L) {
            ref_v2 want = ref_unit(ref_sub(P, near));
            double ntol = 1e-6 + 4.0 * tol / dist;
            ck_assert_msg(ref_dist(ref_from(d.normal), want) <= ntol,
                          "case %d: normal (%.9g, %.9g), expected (%.9g, %.9g)", k, (double)d.normal.x,
                          (double)d.normal.y, want.x, want.y);
            ck_assert(ref_dist(ref_from(d.point), ref_mad(near, c.r, want)) <= tol + ntol * c.r);
        }
    }
}
END_TEST

static Suite *capsule_suite(void) {
    Suite *s = suite_create("capsules");
    TCase *tc = tcase_create("mass");
    tcase_add_test(tc, mass_formula_checked_by_quadrature);
    tcase_add_test(tc, mass_of_a_capsule_by_hand);
    tcase_add_test(tc, mass_random_against_the_closed_form);
    tcase_add_test(tc, aabb_by_hand);
    suite_add_tcase(s, tc);
    tc = tcase_create("casts");
    tcase_add_test(tc, ray_cast_by_hand);
    tcase_add_test(tc, ray_cast_inside_and_on_the_boundary);
    tcase_add_test(tc, ray_cast_degenerate_capsules);
    tcase_add_test(tc, circle_cast_by_hand);
    tcase_add_test(tc, casts_refuse_bad_input);
    tcase_add_loop_test(tc, random_ray_casts, 0, 3);
    tcase_add_loop_test(tc, random_circle_casts, 0, 3);
    tcase_add_test(tc, random_rays_against_segments);
    suite_add_tcase(s, tc);
    tc = tcase_create("distance");
    tcase_add_test(tc, point_distance_by_hand);
    tcase_add_test(tc, random_point_distances);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(capsule_suite()); }
