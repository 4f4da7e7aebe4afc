/* The pure distance, mass and box functions, which have no error value, on bad input and on
 * finite input at the ends of float range (geometry.h, "Bad input").
 *
 * Before, they took any input as given: a NULL polygon crashed rc_point_distance_polygon, a
 * polygon of 0 or 9 vertices was read out of bounds, a NaN or infinite point gave NaN
 * distances and zero normals, a negative density or radius gave a negative mass; and finite
 * input overflowed in float: a point at (3e38, 3e38) was reported at distance 0 from the unit
 * box (on its boundary), one at 3e38 from a circle at -3e38 got a NaN normal, a segment 6e38
 * away an infinite distance, a circle of radius 1e20 an infinite mass; rc_transform_polygon read
 * and wrote past the vertices for a count above the most, and made NaN polygons of bad
 * transforms. Now bad input gives the
 * answer of no shape, and every answer to finite input is finite, with a unit normal, and the
 * distance of a double-precision reference (held to FLT_MAX). */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static bool no_distance(rc_distance_result r) {
    return r.point.x == 0.0f && r.point.y == 0.0f && r.normal.x == 1.0f && r.normal.y == 0.0f && r.distance == FLT_MAX;
}

static bool no_mass(rc_mass_data m) {
    return m.area == 0.0f && m.mass == 0.0f && m.center.x == 0.0f && m.center.y == 0.0f && m.rotational_inertia == 0.0f;
}

static bool no_box(rc_aabb b) { return b.lower.x == 0.0f && b.lower.y == 0.0f && b.upper.x == 0.0f && b.upper.y == 0.0f; }

/* A finite answer with a unit normal. */
static bool sane(rc_distance_result r) {
    float nn = r.normal.x * r.normal.x + r.normal.y * r.normal.y;
    return isfinite(r.point.x) && isfinite(r.point.y) && isfinite(r.distance) && fabsf(nn - 1.0f) < 1e-6f;
}

START_TEST(bad_input_gives_the_answer_of_no_shape) {
    const float nan = NAN, inf = INFINITY;
    const rc_vec2 p = {1.0f, 2.0f}, bad_points[] = {{nan, 0}, {0, nan}, {inf, 0}, {0, -inf}};
    const rc_circle circle = {{0, 0}, 1}, bad_circles[] = {{{nan, 0}, 1}, {{0, inf}, 1}, {{0, 0}, nan},
                                                          {{0, 0}, -1}, {{0, 0}, inf}, {{3e38f, 0}, 1e38f}};
    const rc_capsule capsule = {{0, 0}, {1, 0}, 0.5f};
    const rc_capsule bad_capsules[] = {{{nan, 0}, {1, 0}, 1}, {{0, 0}, {1, inf}, 1}, {{0, 0}, {1, 0}, -0.5f},
                                       {{0, 0}, {1, 0}, nan}, {{0, -3e38f}, {0, 0}, 1e38f}};
    const float bad_densities[] = {nan, inf, -inf, -1.0f};
    for (size_t i = 0; i < sizeof bad_points / sizeof bad_points[0]; ++i) {
        rc_vec2 q = bad_points[i];
        EXPECT(no_distance(rc_point_distance_circle(circle, q)), "circle, point %zu", i);
        EXPECT(no_distance(rc_point_distance_capsule(capsule, q)), "capsule, point %zu", i);
        EXPECT(no_distance(rc_point_distance_segment(q, p, p)) && no_distance(rc_point_distance_segment(p, q, p)) &&
                   no_distance(rc_point_distance_segment(p, p, q)),
               "segment, point %zu", i);
        rc_polygon box = rc_make_box(1, 1);
        EXPECT(no_distance(rc_point_distance_polygon(&box, q)), "polygon, point %zu", i);
        EXPECT(no_box(rc_segment_aabb(q, p)) && no_box(rc_segment_aabb(p, q)), "segment box, point %zu", i);
    }
    for (size_t i = 0; i < sizeof bad_circles / sizeof bad_circles[0]; ++i) {
        EXPECT(no_distance(rc_point_distance_circle(bad_circles[i], p)), "circle %zu", i);
        EXPECT(no_mass(rc_compute_circle_mass(bad_circles[i], 1.0f)), "circle %zu mass", i);
        EXPECT(no_box(rc_circle_aabb(bad_circles[i])), "circle %zu box", i);
    }
    for (size_t i = 0; i < sizeof bad_capsules / sizeof bad_capsules[0]; ++i) {
        EXPECT(no_distance(rc_point_distance_capsule(bad_capsules[i], p)), "capsule %zu", i);
        EXPECT(no_mass(rc_compute_capsule_mass(bad_capsules[i], 1.0f)), "capsule %zu mass", i);
        EXPECT(no_box(rc_capsule_aabb(bad_capsules[i])), "capsule %zu box", i);
    }
    /* polygons: none; too few or too many vertices (the ninth read past the array); clockwise;
       a vertex that is not finite; inward normals; a centroid outside */
    rc_polygon polygons[7];
    for (int k = 0; k < 7; ++k) {
        polygons[k] = rc_make_box(1, 1);
    }
    polygons[0].count = 0;
    polygons[1].count = 2;
    polygons[2].count = RC_MAX_POLYGON_VERTICES + 1;
    for (int i = 0; i < 4; ++i) {
        polygons[3].vertices[i] = rc_make_box(1, 1).vertices[3 - i];
    }
    polygons[4].vertices[2].x = nan;
    for (int i = 0; i < 4; ++i) {
        polygons[5].normals[i] = rc_neg(polygons[5].normals[i]);
    }
    polygons[6].centroid = rc_v2(5, 5);
    EXPECT(no_distance(rc_point_distance_polygon(NULL, p)) && no_mass(rc_compute_polygon_mass(NULL, 1.0f)) &&
               no_box(rc_polygon_aabb(NULL)),
           "NULL polygon");
    for (int k = 0; k < 7; ++k) {
        EXPECT(no_distance(rc_point_distance_polygon(&polygons[k], p)), "polygon %d", k);
        EXPECT(no_mass(rc_compute_polygon_mass(&polygons[k], 1.0f)), "polygon %d mass", k);
        EXPECT(no_box(rc_polygon_aabb(&polygons[k])), "polygon %d box", k);
    }
    rc_polygon box = rc_make_box(1, 1);
    for (size_t i = 0; i < sizeof bad_densities / sizeof bad_densities[0]; ++i) {
        float d = bad_densities[i];
        EXPECT(no_mass(rc_compute_circle_mass(circle, d)) && no_mass(rc_compute_capsule_mass(capsule, d)) &&
                   no_mass(rc_compute_polygon_mass(&box, d)),
               "density %zu", i);
    }
    /* masses that are no floats: a circle of radius 1e20 (area 3e40) */
    EXPECT(no_mass(rc_compute_circle_mass((rc_circle){{0, 0}, 1e20f}, 1.0f)), "a mass beyond float range");
    /* and good input is answered: a density of 0 is an area without mass */
    rc_mass_data m = rc_compute_polygon_mass(&box, 0.0f);
    EXPECT(m.area == 4.0f && m.mass == 0.0f, "density 0: area %g mass %g", (double)m.area, (double)m.mass);
}
END_TEST

static bool no_polygon(const rc_polygon *p) {
    static const rc_polygon zero;
    return memcmp(p, &zero, sizeof zero) == 0;
}

/* rc_transform_polygon read past the vertices for a count above RC_MAX_POLYGON_VERTICES (and
 * wrote past them: its copy is on the stack), crashed on NULL, and gave NaN vertices or
 * stretched normals for a bad transform. */
START_TEST(a_bad_move_gives_no_polygon) {
    rc_polygon box = rc_make_box(1, 1), too_many = box, negative = box, not_finite = box;
    too_many.count = RC_MAX_POLYGON_VERTICES + 1;
    negative.count = -1;
    not_finite.vertices[1].y = INFINITY;
    rc_transform ok = {{2, 3}, rc_rot_from_angle(0.5f)};
    rc_transform bad[] = {{{NAN, 0}, {1, 0}}, {{0, INFINITY}, {1, 0}}, {{0, 0}, {2, 0}}, {{0, 0}, {0, 0}},
                          {{0, 0}, {NAN, 0}}};
    rc_polygon out = rc_transform_polygon(ok, NULL);
    EXPECT(no_polygon(&out), "NULL");
    out = rc_transform_polygon(ok, &too_many);
    EXPECT(no_polygon(&out), "count above the most");
    out = rc_transform_polygon(ok, &negative);
    EXPECT(no_polygon(&out), "negative count");
    out = rc_transform_polygon(ok, &not_finite);
    EXPECT(no_polygon(&out), "a vertex not finite");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        out = rc_transform_polygon(bad[i], &box);
        EXPECT(no_polygon(&out), "transform %zu", i);
    }
    /* a box 2e37 wide moved to x = 3.35e38: its right side would be at 3.45e38, no float */
    rc_polygon wide = rc_make_box(1e37f, 1.0f);
    out = rc_transform_polygon((rc_transform){{3.35e38f, 0}, {1, 0}}, &wide);
    EXPECT(no_polygon(&out), "moved out of float range");
    /* a good move: each vertex where the transform puts it, the polygon valid */
    out = rc_transform_polygon(ok, &box);
    for (int i = 0; i < 4; ++i) {
        rc_vec2 want = rc_transform_point(ok, box.vertices[i]);
        EXPECT(out.count == 4 && out.vertices[i].x == want.x && out.vertices[i].y == want.y, "vertex %d", i);
    }
    EXPECT(!no_distance(rc_point_distance_polygon(&out, rc_v2(0, 0))), "the moved box is valid");
}
END_TEST

/* The cases that overflowed, worked out by hand. */
START_TEST(finite_input_far_out_gives_finite_answers) {
    /* 6e38 from a circle at -3e38: beyond float range, so FLT_MAX, along +x from its right side */
    rc_distance_result r = rc_point_distance_circle((rc_circle){{-3e38f, 0}, 1}, rc_v2(3e38f, 0));
    EXPECT(r.distance == FLT_MAX && r.normal.x == 1.0f && r.normal.y == 0.0f && r.point.x == -3e38f + 1.0f &&
               r.point.y == 0.0f,
           "circle: (%g, %g) n (%g, %g) d %g", (double)r.point.x, (double)r.point.y, (double)r.normal.x,
           (double)r.normal.y, (double)r.distance);
    /* (3e38, 3e38) from the unit box: its corner (1, 1), along the diagonal, 4.2e38 away: FLT_MAX
       (it was reported on the boundary, at distance 0) */
    rc_polygon box = rc_make_box(1, 1);
    r = rc_point_distance_polygon(&box, rc_v2(3e38f, 3e38f));
    EXPECT(r.distance == FLT_MAX && r.point.x == 1.0f && r.point.y == 1.0f && fabsf(r.normal.x - 0.70710678f) < 1e-7f &&
               fabsf(r.normal.y - 0.70710678f) < 1e-7f,
           "box: (%g, %g) n (%g, %g) d %g", (double)r.point.x, (double)r.point.y, (double)r.normal.x,
           (double)r.normal.y, (double)r.distance);
    /* (3e38, 0.5): over the right side, 3e38 - 1 away (that is 3e38 in float) */
    r = rc_point_distance_polygon(&box, rc_v2(3e38f, 0.5f));
    EXPECT(r.distance == 3e38f && r.point.x == 1.0f && r.point.y == 0.5f && r.normal.x == 1.0f && r.normal.y == 0.0f,
           "box side: (%g, %g) d %g", (double)r.point.x, (double)r.point.y, (double)r.distance);
    /* a segment 6e38 away */
    r = rc_point_distance_segment(rc_v2(-3e38f, 0), rc_v2(-3e38f, 1), rc_v2(3e38f, 0));
    EXPECT(r.distance == FLT_MAX && r.point.x == -3e38f && r.point.y == 0.0f && r.normal.x == 1.0f,
           "segment: d %g", (double)r.distance);
    /* a capsule along x from -3e38 to 3e38, radius 1, and p 3e38 above its middle */
    r = rc_point_distance_capsule((rc_capsule){{-3e38f, 0}, {3e38f, 0}, 1}, rc_v2(0, 3e38f));
    EXPECT(r.distance == 3e38f && r.point.x == 0.0f && r.point.y == 1.0f && r.normal.y == 1.0f,
           "capsule: (%g, %g) d %g", (double)r.point.x, (double)r.point.y, (double)r.distance);
}
END_TEST

/* Brute force in double: the distance from p to a convex polygon's boundary, signed (negative
 * inside): outside, the least distance to its edges; inside, less the least distance to their
 * lines. */
static double reference_polygon_distance(const rc_polygon *poly, rc_vec2 p) {
    double best = INFINITY, line = INFINITY;
    bool inside = true;
    for (int i = 0; i < poly->count; ++i) {
        rc_vec2 a = poly->vertices[i], b = poly->vertices[(i + 1) % poly->count];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y, wx = (double)p.x - a.x, wy = (double)p.y - a.y;
        double len = sqrt(ex * ex + ey * ey);
        double t = fmax(0.0, fmin(1.0, (wx * ex + wy * ey) / (len * len)));
        double dx = wx - t * ex, dy = wy - t * ey;
        best = fmin(best, sqrt(dx * dx + dy * dy));
        double side = (ey * wx - ex * wy) / len; /* > 0: outside this edge */
        inside = inside && side <= 0.0;
        line = fmin(line, -side);
    }
    return inside ? -line : best;
}

START_TEST(random_far_queries_agree_with_double) {
    ws_rng rng = {0x5eedfa4u};
    int cases = rc_test_random_cases(20000), polygons = 0;
    for (int k = 0; k < cases; ++k) {
        /* a shape somewhere from the origin out to 1e30, of a size from a ten thousandth of its
           distance from the origin up to that distance (at least 1e-3: floats must be able to
           draw it there), and a point up to 3e38 away in a random direction (or near the shape) */
        float scale = powf(10.0f, (float)ws_range(&rng, 0.0, 30.0));
        rc_vec2 c = {(float)ws_range(&rng, -1, 1) * scale, (float)ws_range(&rng, -1, 1) * scale};
        float size = fmaxf(1e-3f, scale * powf(10.0f, (float)ws_range(&rng, -4.0, 0.0)));
        double reach = ws_chance(&rng, 0.5) ? 3e38 * ws_uniform(&rng) : size * ws_range(&rng, 0.0, 3.0);
        double angle = ws_range(&rng, 0.0, 6.283185307179586);
        rc_vec2 p = {(float)fmax(-3.4e38, fmin(3.4e38, c.x + reach * cos(angle))),
                     (float)fmax(-3.4e38, fmin(3.4e38, c.y + reach * sin(angle)))};
        rc_polygon poly = rc_make_regular_polygon(3 + k % 6, size, 0.0f);
        poly = rc_transform_polygon((rc_transform){c, rc_rot_from_angle((float)angle)}, &poly);
        rc_circle circle = {c, size};
        double dx = (double)p.x - c.x, dy = (double)p.y - c.y;
        double want[2] = {sqrt(dx * dx + dy * dy) - size, reference_polygon_distance(&poly, p)};
        rc_distance_result got[2] = {rc_point_distance_circle(circle, p), rc_point_distance_polygon(&poly, p)};
        bool valid[2] = {true, !no_distance(got[1])};
        polygons += valid[1];
        for (int s = 0; s < 2; ++s) {
            if (!valid[s]) {
                continue; /* (a polygon moved far out may round out of the rules: refused as bad input) */
            }
            double w = fmax(-FLT_MAX, fmin(FLT_MAX, want[s]));
            /* the float inputs' own rounding: of the shape's coordinates and size */
            double tol = 1e-6 * fabs(w) + 4e-7 * (fabs((double)c.x) + fabs((double)c.y) + size);
            EXPECT(sane(got[s]) && fabs(got[s].distance - w) <= tol,
                   "case %d shape %d: distance %.9g, reference %.9g (point (%g, %g), centre (%g, %g), size %g)", k, s,
                   (double)got[s].distance, w, (double)p.x, (double)p.y, (double)c.x, (double)c.y, (double)size);
        }
    }
    fprintf(stderr, "[no answer] %d random queries; %d of the polygons valid where they were moved\n", cases, polygons);
    EXPECT(polygons >= cases * 9 / 10, "only %d of %d polygons were valid: the test tests little", polygons, cases);
}
END_TEST

int main(void) {
    Suite *s = suite_create("geometry_no_answer");
    TCase *t = tcase_create("no_answer");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, bad_input_gives_the_answer_of_no_shape);
    tcase_add_test(t, finite_input_far_out_gives_finite_answers);
    tcase_add_test(t, a_bad_move_gives_no_polygon);
    tcase_add_test(t, random_far_queries_agree_with_double);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
