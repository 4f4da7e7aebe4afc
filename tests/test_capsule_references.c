/* Capsules against references (the pure rc_capsule functions and capsule shapes in the world)
 * and the polygon queries, against analytic values and double-precision references.
 *
 * References: a capsule's mass is a rectangle 2r x L and a disk of radius r split at its ends;
 * a ray's first hit on a capsule is the first of its hits on the two end circles and the two
 * sides (the segment moved by r along its normal), solved in double; the distance from a point
 * is its distance to the segment less r. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- double references ------------------------------------------------------------------------- */

typedef struct dvec {
    double x, y;
} dvec;

static dvec dv(rc_vec2 v) { return (dvec){v.x, v.y}; }

/* The first t in [0, 1] at which o + t d meets the capsule, or -1; 0 when o is inside. */
static double ref_ray_capsule(rc_capsule c, rc_vec2 origin, rc_vec2 translation) {
    dvec a = dv(c.center1), b = dv(c.center2), o = dv(origin), d = dv(translation);
    double r = c.radius;
    double ex = b.x - a.x, ey = b.y - a.y, len = sqrt(ex * ex + ey * ey);
    /* inside: distance to the segment below r */
    double u = len > 0.0 ? ((o.x - a.x) * ex + (o.y - a.y) * ey) / (len * len) : 0.0;
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    double qx = a.x + u * ex - o.x, qy = a.y + u * ey - o.y;
    if (qx * qx + qy * qy < r * r) {
        return 0.0;
    }
    double best = -1.0;
    const dvec ends[2] = {a, b};
    for (int k = 0; k < 2; ++k) { /* the end circles */
        double fx = o.x - ends[k].x, fy = o.y - ends[k].y;
        double A = d.x * d.x + d.y * d.y, B = 2.0 * (fx * d.x + fy * d.y), C = fx * fx + fy * fy - r * r;
        double disc = B * B - 4.0 * A * C;
        if (A > 0.0 && disc >= 0.0) {
            double t = (-B - sqrt(disc)) / (2.0 * A);
            if (t >= 0.0 && t <= 1.0 && (best < 0.0 || t < best)) {
                best = t;
            }
        }
    }
    if (len > 0.0) { /* the sides */
        double nx = -ey / len, ny = ex / len;
        for (int side = -1; side <= 1; side += 2) {
            double px = a.x + side * r * nx, py = a.y + side * r * ny;
            double denom = d.x * nx + d.y * ny;
            if (denom == 0.0) {
                continue;
            }
            double t = ((px - o.x) * nx + (py - o.y) * ny) / denom;
            double hx = o.x + t * d.x - a.x, hy = o.y + t * d.y - a.y;
            double along = (hx * ex + hy * ey) / (len * len);
            if (t >= 0.0 && t <= 1.0 && along >= 0.0 && along <= 1.0 && (best < 0.0 || t < best)) {
                best = t;
            }
        }
    }
    return best;
}

/* ---- pure functions ---------------------------------------------------------------------------- */

/* A capsule from (-1, 0) to (1, 0) of radius 0.5, density 2: area pi r^2 + 2 r L = 2.785398;
 * inertia: the rectangle m (L^2 + (2r)^2) / 12 plus the two half disks, each of mass m_h about
 * its centroid d = 4r / (3 pi) from its flat side, moved out to L / 2 + d. Turned and moved,
 * the centre moves with it and the inertia stays. */
START_TEST(capsule_mass_is_the_rectangle_and_the_half_disks) {
    const double pi = 3.14159265358979323846, r = 0.5, L = 2.0, rho = 2.0;
    double m_rect = rho * 2.0 * r * L, m_disk = rho * pi * r * r, d = 4.0 * r / (3.0 * pi);
    double inertia = m_rect * (L * L + 4.0 * r * r) / 12.0 + m_disk * (r * r / 2.0 + L * L / 4.0 + L * d);
    const float angles[3] = {0.0f, 0.7f, 2.0f};
    for (int k = 0; k < 3; ++k) {
        rc_vec2 axis = {cosf(angles[k]), sinf(angles[k])}, at = {3.0f, -2.0f};
        rc_capsule c = {rc_mul_add(at, -1.0f, axis), rc_mul_add(at, 1.0f, axis), 0.5f};
        rc_mass_data md = rc_compute_capsule_mass(c, 2.0f);
        ck_assert_double_eq_tol(md.area, pi * r * r + 2.0 * r * L, 1e-5);
        ck_assert_double_eq_tol(md.mass, m_rect + m_disk, 1e-5);
        ck_assert_double_eq_tol(md.rotational_inertia, inertia, 2e-5 * inertia);
        ck_assert_float_eq_tol(md.center.x, 3.0f, 1e-5f);
        ck_assert_float_eq_tol(md.center.y, -2.0f, 1e-5f);
    }
    /* equal centres: a disk */
    rc_mass_data disk = rc_compute_capsule_mass((rc_capsule){{1, 1}, {1, 1}, 0.5f}, 2.0f);
    ck_assert_double_eq_tol(disk.mass, m_disk, 1e-5);
    ck_assert_double_eq_tol(disk.rotational_inertia, m_disk * r * r / 2.0, 1e-6);
}
END_TEST

START_TEST(capsule_box_holds_the_ends_grown_by_the_radius) {
    rc_aabb b = rc_capsule_aabb((rc_capsule){{0, 0}, {3, 4}, 1.0f});
    ck_assert_float_eq(b.lower.x, -1.0f);
    ck_assert_float_eq(b.lower.y, -1.0f);
    ck_assert_float_eq(b.upper.x, 4.0f);
    ck_assert_float_eq(b.upper.y, 5.0f);
}
END_TEST

/* Rays against random capsules agree with the double reference: hit or miss, t, a unit normal
 * against the ray, the point on the surface; started_inside with t = 0 for origins inside.
 * Cases within a whisker of grazing (where float input rounding decides) are skipped. */
START_TEST(ray_casts_agree_with_the_reference) {
    ws_rng r = {0xca75u};
    rc_tally t;
    rc_tally_init(&t, "ray vs capsule");
    const int cases = rc_test_random_cases(40000);
    int hits = 0, inside = 0;
    for (int i = 0; i < cases; ++i) {
        rc_capsule c = {{ws_range(&r, -5, 5), ws_range(&r, -5, 5)}, {ws_range(&r, -5, 5), ws_range(&r, -5, 5)},
                        ws_range(&r, 0.05, 2.0)};
        if (i % 10 == 0) {
            c.center2 = c.center1; /* a circle */
        }
        rc_vec2 o = {ws_range(&r, -8, 8), ws_range(&r, -8, 8)}, d = {ws_range(&r, -16, 16), ws_range(&r, -16, 16)};
        rc_tally_begin(&t, "capsule (%.9g, %.9g)-(%.9g, %.9g) r %.9g, ray (%.9g, %.9g) + (%.9g, %.9g)",
                       (double)c.center1.x, (double)c.center1.y, (double)c.center2.x, (double)c.center2.y,
                       (double)c.radius, (double)o.x, (double)o.y, (double)d.x, (double)d.y);
        double ref = ref_ray_capsule(c, o, d);
        /* near-grazing: the same ray with the radius 1e-4 larger or smaller decides differently */
        rc_capsule grown = c, shrunk = c;
        grown.radius += 1e-4f;
        shrunk.radius -= 1e-4f;
        if ((ref_ray_capsule(grown, o, d) >= 0.0) != (ref_ray_capsule(shrunk, o, d) >= 0.0)) {
            rc_tally_skip(&t);
            continue;
        }
        rc_ray_hit h;
        bool hit = rc_ray_cast_capsule(c, o, d, &h);
        rc_tally_check(&t, hit == (ref >= 0.0), "hit %d, reference %.9g", hit, ref);
        if (hit && ref >= 0.0) {
            hits += 1;
            inside += h.started_inside;
            double scale = 1e-5 * (1.0 + fabs((double)d.x) + fabs((double)d.y));
            rc_tally_check(&t, fabs((double)h.t - ref) <= scale, "t %.9g, reference %.9g", (double)h.t, ref);
            rc_tally_check(&t, h.started_inside == (ref == 0.0), "started_inside %d", h.started_inside);
            rc_tally_check(&t, fabsf(rc_length(h.normal) - 1.0f) < 1e-5f, "normal not unit");
            if (!h.started_inside) {
                rc_tally_check(&t, rc_dot(h.normal, d) <= 0.0f, "normal along the ray");
                rc_distance_result on = rc_point_distance_capsule(c, h.point);
                rc_tally_check(&t, fabsf(on.distance) < 1e-4f, "point %.6g off the surface", (double)on.distance);
            }
        }
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
    ck_assert_int_gt(hits, cases / 10);
    ck_assert_int_gt(inside, 0);
}
END_TEST

/* A circle of radius R cast at a capsule is a ray cast at the capsule grown by R; its point is
 * on the capsule's own surface, R back from the grown one along the normal. */
START_TEST(circle_casts_are_rays_at_the_grown_capsule) {
    ws_rng r = {0xc1c1eu};
    const int cases = rc_test_random_cases(20000);
    int hits = 0;
    for (int i = 0; i < cases; ++i) {
        rc_capsule c = {{ws_range(&r, -5, 5), ws_range(&r, -5, 5)}, {ws_range(&r, -5, 5), ws_range(&r, -5, 5)},
                        ws_range(&r, 0.05, 2.0)};
        float R = ws_range(&r, 0.01, 1.5);
        rc_vec2 o = {ws_range(&r, -9, 9), ws_range(&r, -9, 9)}, d = {ws_range(&r, -18, 18), ws_range(&r, -18, 18)};
        rc_capsule grown = {c.center1, c.center2, c.radius + R};
        rc_ray_hit hc, hr;
        bool by_circle = rc_circle_cast_capsule(c, o, R, d, &hc), by_ray = rc_ray_cast_capsule(grown, o, d, &hr);
        rc_capsule g2 = grown, s2 = grown;
        g2.radius += 1e-4f;
        s2.radius -= 1e-4f;
        if ((ref_ray_capsule(g2, o, d) >= 0.0) != (ref_ray_capsule(s2, o, d) >= 0.0)) {
            continue; /* grazing */
        }
        EXPECT(by_circle == by_ray, "case %d: circle cast %d, ray at the grown capsule %d", i, by_circle, by_ray);
        if (by_circle && by_ray) {
            hits += 1;
            EXPECT(fabsf(hc.t - hr.t) <= 1e-5f * (1.0f + fabsf(d.x) + fabsf(d.y)), "case %d: t %.9g and %.9g", i,
                   (double)hc.t, (double)hr.t);
            if (!hc.started_inside) {
                rc_distance_result on = rc_point_distance_capsule(c, hc.point);
                EXPECT(fabsf(on.distance) < 1e-4f, "case %d: point %.6g off the capsule", i, (double)on.distance);
            }
        }
    }
    ck_assert_int_gt(hits, cases / 10);
}
END_TEST

/* The signed distance is the distance to the segment less the radius; the normal is unit,
 * points from the nearest point towards p outside, and point + distance * normal = p. */
START_TEST(distance_is_to_the_segment_less_the_radius) {
    ws_rng r = {0xd157u};
    const int cases = rc_test_random_cases(20000);
    for (int i = 0; i < cases; ++i) {
        rc_capsule c = {{ws_range(&r, -5, 5), ws_range(&r, -5, 5)}, {ws_range(&r, -5, 5), ws_range(&r, -5, 5)},
                        ws_range(&r, 0.05, 2.0)};
        rc_vec2 p = {ws_range(&r, -8, 8), ws_range(&r, -8, 8)};
        dvec a = dv(c.center1), b = dv(c.center2), q = dv(p);
        double ex = b.x - a.x, ey = b.y - a.y, ll = ex * ex + ey * ey;
        double u = ll > 0.0 ? ((q.x - a.x) * ex + (q.y - a.y) * ey) / ll : 0.0;
        u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
        double dist = hypot(q.x - a.x - u * ex, q.y - a.y - u * ey) - c.radius;
        rc_distance_result d = rc_point_distance_capsule(c, p);
        EXPECT(fabs((double)d.distance - dist) < 1e-5, "case %d: distance %.9g, reference %.9g", i, (double)d.distance,
               dist);
        EXPECT(fabsf(rc_length(d.normal) - 1.0f) < 1e-5f, "case %d: normal not unit", i);
        rc_vec2 back = rc_mul_add(d.point, d.distance, d.normal);
        EXPECT(rc_distance(back, p) < 1e-4f, "case %d: point + distance * normal is %.6g from p", i,
               (double)rc_distance(back, p));
    }
}
END_TEST

/* ---- capsules in the world ----------------------------------------------------------------------- */

/* A capsule placed by a turned body and a base transform of scale 2: its centres go through
 * both transforms, its radius doubles; bad capsules are refused and change nothing. */
START_TEST(world_capsules_are_placed_and_checked) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(1, 2);
    bd.angle = 1.5707963f;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(1, 0);
    sd.scale = rc_v2(2, 2);
    rc_shape_id s = rc_shape_create_capsule(w, b, &sd, rc_v2(-0.5f, 0), rc_v2(0.5f, 0), 0.25f);
    ck_assert(!rc_shape_id_is_null(s));
    ck_assert_int_eq(rc_shape_get_type(w, s), RC_SHAPE_TYPE_CAPSULE);
    rc_capsule c;
    ck_assert(rc_shape_world_capsule(w, s, &c));
    /* body frame: (1 -+ 1, 0); turned a quarter and moved to (1, 2): (1, 2 + 0) and (1, 2 + 2) */
    ck_assert_float_eq_tol(c.center1.x, 1.0f, 1e-5f);
    ck_assert_float_eq_tol(c.center1.y, 2.0f, 1e-5f);
    ck_assert_float_eq_tol(c.center2.x, 1.0f, 1e-5f);
    ck_assert_float_eq_tol(c.center2.y, 4.0f, 1e-5f);
    ck_assert_float_eq_tol(c.radius, 0.5f, 1e-6f);
    rc_shape_def bad = rc_shape_default_def();
    const struct {
        rc_vec2 c1, c2;
        float radius;
        rc_vec2 scale;
    } refused[] = {{{0, 0}, {0, 0}, 0.2f, {1, 1}},       {{0, 0}, {1, 0}, 0.0f, {1, 1}},
                   {{0, 0}, {1, 0}, -1.0f, {1, 1}},      {{0, 0}, {NAN, 0}, 0.2f, {1, 1}},
                   {{0, 0}, {1, 0}, INFINITY, {1, 1}},   {{0, 0}, {1, 0}, 0.2f, {1, 2}}};
    int32_t shapes_before = rc_world_get_counters(w).shapes;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
        bad.scale = refused[i].scale;
        rc_world_clear_error(w);
        ck_assert(rc_shape_id_is_null(rc_shape_create_capsule(w, b, &bad, refused[i].c1, refused[i].c2, refused[i].radius)));
        ck_assert_msg(strlen(rc_world_last_error(w)) > 0, "case %zu refused without a message", i);
    }
    ck_assert_int_eq(rc_world_get_counters(w).shapes, shapes_before);
    ck_assert(!rc_shape_world_circle(w, s, &(rc_circle){{0, 0}, 0}));
    rc_world_destroy(w);
}
END_TEST

/* A capsule lying on the ground rests on its side (held at zero overlap), level, and sleeps; one set down
 * on its round end tilted by 0.3 rad tips over onto its side (gravity's arm, 0.6 sin 0.3 = 0.18,
 * beats rolling resistance's, 0.2 x 0.3 = 0.06; at a tilt of 0.05 the resistance holds it). */
START_TEST(a_capsule_rests_on_its_side) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_def gd = rc_body_default_def();
    rc_body_id ground = rc_body_create(w, &gd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 20, 0.5f)));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(0, 0.35f);
    rc_body_id lying = rc_body_create(w, &bd);
    rc_shape_def cd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_capsule(w, lying, &cd, rc_v2(-0.6f, 0), rc_v2(0.6f, 0), 0.3f)));
    bd.position = rc_v2(5, 1.0f);
    bd.angle = 1.5707963f + 0.3f;
    rc_body_id standing = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_capsule(w, standing, &cd, rc_v2(-0.6f, 0), rc_v2(0.6f, 0), 0.3f)));
    for (int i = 0; i < 300; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    /* on the ground at zero overlap, less the soft contact's give (below 1e-3) */
    ck_assert_float_eq_tol(rc_body_position(w, lying).y, 0.3f - 5e-4f, 5e-4f);
    ck_assert_float_eq_tol(rc_body_angle(w, lying), 0.0f, 1e-3f);
    ck_assert(!rc_body_is_awake(w, lying));
    float a = fmodf(fabsf(rc_body_angle(w, standing)), 3.14159265f);
    ck_assert_msg(a < 0.02f || a > 3.12f, "the capsule on end did not tip over: angle %.4f", (double)a);
    ck_assert_float_eq_tol(rc_body_position(w, standing).y, 0.3f - 1e-3f, 1e-3f);
    rc_world_destroy(w);
}
END_TEST

/* ---- polygon queries ----------------------------------------------------------------------------- */

static bool count_fn(rc_shape_id shape, rc_body_id body, void *context) {
    (void)body;
    rc_shape_id *found = context;
    found[0] = shape;
    found[1].index += 1; /* the count */
    return true;
}

/* A unit square cast at a static box and a circle: it stops where its face meets the box's
 * (t = (gap) / travel), with the box's face normal; cast the other way it meets the circle at
 * its nearest corner... or face: its right face at x = 0.5 + 10 t reaches the circle's left
 * point at x = 6 - 1 when t = 0.45. Overlaps are exact: a triangle whose box overlaps the
 * circle's but which does not touch it is not reported. */
START_TEST(polygon_casts_and_overlaps_are_exact) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def level_def = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &level_def);
    ck_assert(!rc_body_id_is_null(level));
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(-6, 0);
    rc_shape_id box = rc_shape_create_box(w, level, &sd, 1.0f, 3.0f); /* right face x = -5 */
    sd.offset = rc_v2(6, 0);
    rc_shape_id circle = rc_shape_create_circle(w, level, &sd, 1.0f); /* leftmost x = 5 */
    ck_assert(!rc_shape_id_is_null(box) && !rc_shape_id_is_null(circle));
    rc_polygon square = rc_make_box(0.5f, 0.5f);
    rc_ray_hit hit;
    ck_assert(rc_world_cast_polygon(w, &square, rc_v2(-10, 0), rc_default_query_filter(), &hit));
    ck_assert(rc_shape_id_equals(hit.shape, box));
    ck_assert_float_eq_tol(hit.t, 0.45f, 1e-5f); /* -0.5 - 10 t = -5 */
    ck_assert_float_eq_tol(hit.normal.x, 1.0f, 1e-6f);
    ck_assert_float_eq_tol(hit.normal.y, 0.0f, 1e-6f);
    ck_assert(!hit.started_inside);
    ck_assert(rc_world_cast_polygon(w, &square, rc_v2(10, 0), rc_default_query_filter(), &hit));
    ck_assert(rc_shape_id_equals(hit.shape, circle));
    ck_assert_float_eq_tol(hit.t, 0.45f, 1e-5f);
    ck_assert_float_eq_tol(hit.normal.x, -1.0f, 1e-6f);
    ck_assert_float_eq_tol(hit.point.x, 5.0f, 1e-4f);
    ck_assert(!rc_world_cast_polygon(w, &square, rc_v2(0, 10), rc_default_query_filter(), &hit));
    /* started inside: t = 0, started_inside, the way out */
    rc_polygon inside = rc_make_box(0.2f, 0.2f);
    for (int i = 0; i < inside.count; ++i) {
        inside.vertices[i] = rc_add(inside.vertices[i], rc_v2(-5.1f, 0));
    }
    inside.centroid = rc_add(inside.centroid, rc_v2(-5.1f, 0));
    ck_assert(rc_world_cast_polygon(w, &inside, rc_v2(1, 0), rc_default_query_filter(), &hit));
    ck_assert(hit.started_inside);
    ck_assert_float_eq(hit.t, 0.0f);

    /* a triangle in the circle's box corner: boxes overlap, shapes do not */
    rc_vec2 corner[3] = {{6.8f, 0.8f}, {7.5f, 0.8f}, {7.5f, 1.5f}};
    rc_polygon near_miss;
    ck_assert_int_eq(rc_make_polygon(corner, 3, &near_miss), 0);
    rc_shape_id found[2] = {{0, 0}, {0, 0}};
    ck_assert_int_eq(rc_world_overlap_aabb(w, rc_polygon_aabb(&near_miss), rc_default_query_filter(), NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_polygon(w, &near_miss, rc_default_query_filter(), count_fn, found), 0);
    /* moved to touch it: reported, once */
    rc_vec2 touching[3] = {{6.6f, 0.6f}, {7.5f, 0.6f}, {7.5f, 1.5f}};
    rc_polygon hit_tri;
    ck_assert_int_eq(rc_make_polygon(touching, 3, &hit_tri), 0);
    ck_assert_int_eq(rc_world_overlap_polygon(w, &hit_tri, rc_default_query_filter(), count_fn, found), 1);
    ck_assert(rc_shape_id_equals(found[0], circle));
    /* bad input: refused with -1 / false and a message */
    rc_polygon broken = square;
    broken.vertices[1].x = NAN;
    rc_world_clear_error(w);
    ck_assert_int_eq(rc_world_overlap_polygon(w, &broken, rc_default_query_filter(), NULL, NULL), -1);
    ck_assert(strlen(rc_world_last_error(w)) > 0);
    ck_assert(!rc_world_cast_polygon(w, &broken, rc_v2(1, 0), rc_default_query_filter(), &hit));
    ck_assert(!rc_world_cast_polygon(w, &square, rc_v2(NAN, 0), rc_default_query_filter(), &hit));
    rc_world_destroy(w);
}
END_TEST

static Suite *capsules_suite(void) {
    Suite *s = suite_create("capsule_references");
    TCase *pure = tcase_create("pure");
    tcase_set_timeout(pure, 60);
    tcase_add_test(pure, capsule_mass_is_the_rectangle_and_the_half_disks);
    tcase_add_test(pure, capsule_box_holds_the_ends_grown_by_the_radius);
    tcase_add_test(pure, ray_casts_agree_with_the_reference);
    tcase_add_test(pure, circle_casts_are_rays_at_the_grown_capsule);
    tcase_add_test(pure, distance_is_to_the_segment_less_the_radius);
    suite_add_tcase(s, pure);
    TCase *world = tcase_create("world");
    tcase_set_timeout(world, 60);
    tcase_add_test(world, world_capsules_are_placed_and_checked);
    tcase_add_test(world, a_capsule_rests_on_its_side);
    tcase_add_test(world, polygon_casts_and_overlaps_are_exact);
    suite_add_tcase(s, world);
    return s;
}

int main(void) { return rc_test_run(capsules_suite()); }
