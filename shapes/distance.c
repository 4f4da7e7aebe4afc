/* Nearest boundary points and signed distances. */
#include "shapes/shapes.h"

#include <float.h>
#include <math.h>

static double edge_separation(rc_vec2 a, rc_vec2 b, rc_vec2 n, rc_vec2 p);

/* The answer for bad input (geometry.h): that of no shape. */
rc_distance_result rc_no_distance(void) {
    rc_distance_result r = {{0.0f, 0.0f}, {1.0f, 0.0f}, FLT_MAX};
    return r;
}

/* A distance worked out in double, held to float range (a point 3e38 from a shape at -3e38 is
 * further than any float). */
float rc_float_distance(double d) { return d > FLT_MAX ? FLT_MAX : (d < -FLT_MAX ? -FLT_MAX : (float)d); }

/* Does the disk about c of radius r lie within float range (its box's coordinates floats)? */
bool rc_disk_in_range(rc_vec2 c, float r) {
    return rc_is_finite(c.x - r) && rc_is_finite(c.x + r) && rc_is_finite(c.y - r) && rc_is_finite(c.y + r);
}

rc_distance_result rc_circle_distance(rc_circle circle, rc_vec2 p) {
    rc_distance_result r;
    rc_vec2 rel = rc_sub(p, circle.center);
    float len = rc_length(rel);
    /* at the exact centre every direction is nearest; take +x */
    r.normal = len > 0.0f ? rc_normalize(rel) : rc_v2(1.0f, 0.0f);
    r.point = rc_mul_add(circle.center, circle.radius, r.normal);
    r.distance = len - circle.radius;
    return r;
}

rc_distance_result rc_point_distance_circle(rc_circle circle, rc_vec2 p) {
    if (!rc_circle_input_ok(circle) || !rc_vec2_is_finite(p) || !rc_disk_in_range(circle.center, circle.radius)) {
        return rc_no_distance();
    }
    /* in double: the difference of far-apart floats, and its square, overflow float */
    double dx = (double)p.x - circle.center.x, dy = (double)p.y - circle.center.y;
    double len = sqrt(dx * dx + dy * dy);
    rc_distance_result r;
    /* at the exact centre every direction is nearest; take +x */
    r.normal = len > 0.0 ? rc_unit_of(dx, dy) : rc_v2(1.0f, 0.0f);
    r.point = rc_v2((float)(circle.center.x + (double)circle.radius * r.normal.x),
                    (float)(circle.center.y + (double)circle.radius * r.normal.y));
    r.distance = rc_float_distance(len - circle.radius);
    return r;
}

rc_vec2 rc_unit_of(double x, double y) {
    double len = sqrt(x * x + y * y);
    if (!(len > 0.0)) {
        return rc_v2(0.0f, 0.0f);
    }
    return rc_v2((float)(0.0 + x / len), (float)(0.0 + y / len));
}

rc_vec2 rc_line_entry_normal(double cx, double cy, double ux, double uy, double half) {
    double along = cx * ux + cy * uy;
    return rc_unit_of(cx - (along + half) * ux, cy - (along + half) * uy);
}

rc_distance_result rc_point_distance_segment(rc_vec2 a, rc_vec2 b, rc_vec2 p) {
    if (!rc_vec2_is_finite(a) || !rc_vec2_is_finite(b) || !rc_vec2_is_finite(p)) {
        return rc_no_distance();
    }
    return rc_segment_distance(a, b, p);
}

rc_distance_result rc_segment_distance(rc_vec2 a, rc_vec2 b, rc_vec2 p) {
    /* Differences in double: those of floats near the ends of their range overflow in float. */
    rc_distance_result r;
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    r.point = rc_nearest_point_on_segment(a, b, p);
    if (!rc_vec2_equal(r.point, a) && !rc_vec2_equal(r.point, b)) {
        /* inside the segment: the distance to its line, and its normal on p's side, exactly */
        rc_vec2 n = rc_unit_of(0.0 - ey, ex);
        double side = n.x * ((double)p.x - a.x) + n.y * ((double)p.y - a.y);
        if (side != 0.0) {
            r.normal = side > 0.0 ? n : rc_neg(n);
            r.distance = rc_float_distance(fabs(side));
            r.point = rc_v2((float)(p.x - side * n.x), (float)(p.y - side * n.y));
            return r;
        }
    }
    double rx = (double)p.x - r.point.x, ry = (double)p.y - r.point.y;
    double len = sqrt(rx * rx + ry * ry);
    r.distance = rc_float_distance(len);
    if (len > 0.0) {
        r.normal = rc_unit_of(rx, ry);
    } else if (ex == 0.0 && ey == 0.0) {
        r.normal = rc_v2(1.0f, 0.0f);
    } else {
        r.normal = rc_unit_of(0.0 - ey, ex); /* the left perpendicular of a -> b */
    }
    return r;
}

/* The nearest point of a valid polygon's boundary to p, all in double (rc_convex_distance's
 * rules, whose float offsets from p overflow for a p near the end of float range): the edge
 * line p is furthest outside of, or least inside of, decides; inside, the nearest point is on
 * that line; outside, it is the nearest point of the edges p is outside of. */
rc_distance_result rc_point_distance_polygon(const rc_polygon *polygon, rc_vec2 p) {
    if (!rc_polygon_input_ok(polygon) || !rc_vec2_is_finite(p)) {
        return rc_no_distance();
    }
    int count = polygon->count;
    const rc_vec2 *v = polygon->vertices;
    double max_sep = -INFINITY;
    int face = 0;
    for (int i = 0; i < count; ++i) {
        double sep = edge_separation(v[i], v[i + 1 < count ? i + 1 : 0], polygon->normals[i], p);
        if (sep > max_sep) {
            max_sep = sep;
            face = i;
        }
    }
    rc_distance_result r;
    r.normal = polygon->normals[face];
    if (max_sep <= 0.0) {
        r.distance = (float)max_sep; /* (inside: no further than the polygon is wide) */
        r.point = rc_v2((float)(p.x - max_sep * r.normal.x), (float)(p.y - max_sep * r.normal.y));
        return r;
    }
    double best = INFINITY, qx = 0.0, qy = 0.0;
    int best_edge = -1; /* the nearest point is inside this edge (not at a vertex) */
    for (int i = 0; i < count; ++i) {
        int j = i + 1 < count ? i + 1 : 0;
        if (!(edge_separation(v[i], v[j], polygon->normals[i], p) > 0.0)) {
            continue; /* (the nearest point lies on an edge p is outside of) */
        }
        double ex = (double)v[j].x - v[i].x, ey = (double)v[j].y - v[i].y;
        double t = (((double)p.x - v[i].x) * ex + ((double)p.y - v[i].y) * ey) / (ex * ex + ey * ey);
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        double x = v[i].x + t * ex, y = v[i].y + t * ey;
        double dd = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y);
        if (dd < best) {
            best = dd;
            qx = t == 0.0 ? v[i].x : (t == 1.0 ? v[j].x : x);
            qy = t == 0.0 ? v[i].y : (t == 1.0 ? v[j].y : y);
            best_edge = t > 0.0 && t < 1.0 ? i : -1;
        }
    }
    if (best_edge >= 0) {
        /* inside an edge: its line gives the distance and the normal, the foot on the edge the
           point (p less the distance along the normal loses the edge's place when p is far) */
        int next = best_edge + 1 < count ? best_edge + 1 : 0;
        r.normal = polygon->normals[best_edge];
        r.distance = rc_float_distance(edge_separation(v[best_edge], v[next], r.normal, p));
        r.point = rc_v2((float)qx, (float)qy);
        return r;
    }
    r.point = rc_v2((float)qx, (float)qy); /* a vertex */
    r.normal = rc_unit_of(p.x - qx, p.y - qy);
    r.distance = rc_float_distance(sqrt(best));
    return r;
}

/* How far p is outside the line of the edge a to b of a counter-clockwise polygon: the edge's
 * own line in double, not its stored normal through a. In float, p - a carried the rounding of
 * a vertex far along a long edge (5e-4 at 10,000), and the normal's rounding (up to 6e-8 rad)
 * moved the line as much there: more than a skin, and a bullet a skin off a wall 20,000 long
 * was taken for inside it and pulled back by up to 3.7 units. */
static double edge_separation(rc_vec2 a, rc_vec2 b, rc_vec2 n, rc_vec2 p) {
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double len = sqrt(ex * ex + ey * ey);
    double wx = (double)p.x - a.x, wy = (double)p.y - a.y;
    if (!(len > 0.0)) {
        return n.x * wx + n.y * wy; /* an edge rounded to nothing: its stored normal */
    }
    return (ey * wx - ex * wy) / len;
}

rc_distance_result rc_convex_distance(const rc_convex *polygon, rc_vec2 p) {
    /* The edge line that p is furthest outside of (or least inside of) decides inside from
       outside; inside, the nearest boundary point lies on that edge; outside, it is the
       nearest point over all edges. */
    int count = polygon->count;
    float max_sep = -INFINITY;
    rc_vec2 face_normal = {0.0f, 0.0f};
    uint32_t facing = 0; /* bit i: p is strictly outside edge i's line */
    for (int i = 0; i < count; ++i) {
        rc_vec2 n = polygon->normals[i];
        float sep = (float)edge_separation(polygon->vertices[i], polygon->vertices[i + 1 < count ? i + 1 : 0], n, p);
        if (sep > 0.0f || i >= 32) {
            facing |= i < 32 ? 1u << i : 0u;
        }
        if (sep > max_sep) {
            max_sep = sep;
            face_normal = n;
        }
    }
    rc_distance_result r;
    if (max_sep <= 0.0f) {
        r.distance = max_sep;
        r.normal = face_normal;
        r.point = rc_mul_add(p, -max_sep, r.normal);
        return r;
    }
    /* Nearest points measured from p: in p's frame the offsets are small numbers computed
       without the rounding of far-away absolute coordinates, so near-ties between edges are
       decided right. */
    float best = INFINITY;
    rc_vec2 best_rel = {0.0f, 0.0f};
    int best_edge = -1; /* the nearest point is inside this edge (not at a vertex) */
    r.normal = face_normal;
    rc_vec2 zero = {0.0f, 0.0f};
    for (int i = 0; i < count; ++i) {
        /* Outside a convex polygon the nearest point lies on an edge that p is outside of. Only
           those compete: far away (a distance of 2^24 sizes), the offsets of the near and the
           far side of the polygon round to the same numbers, and a tie won by the far side put
           p inside by the far side's line. */
        if (i < 32 && (facing & (1u << i)) == 0) {
            continue;
        }
        int j = i + 1 < count ? i + 1 : 0;
        rc_vec2 a = rc_sub(polygon->vertices[i], p), b = rc_sub(polygon->vertices[j], p);
        rc_vec2 q = rc_nearest_point_on_segment(a, b, zero);
        float dd = rc_dot(q, q);
        if (dd < best) {
            best = dd;
            best_rel = q;
            best_edge = rc_vec2_equal(q, a) || rc_vec2_equal(q, b) ? -1 : i;
        }
    }
    if (best_edge >= 0) {
        /* nearest to the inside of an edge: its line gives the distance and the normal exactly,
           where the foot of a long edge carries the rounding of its length (a tilted normal) */
        rc_vec2 n = polygon->normals[best_edge];
        int next = best_edge + 1 < count ? best_edge + 1 : 0;
        r.distance = (float)edge_separation(polygon->vertices[best_edge], polygon->vertices[next], n, p);
        r.normal = n;
        r.point = rc_mul_add(p, -r.distance, n);
        return r;
    }
    r.point = rc_add(p, best_rel);
    rc_vec2 rel = rc_neg(best_rel);
    float len = rc_length(rel);
    r.distance = len;
    if (len > 0.0f) {
        r.normal = rc_normalize(rel);
    }
    return r;
}

bool rc_convex_test_point(const rc_convex *polygon, rc_vec2 p) {
    /* left of every edge, measured with the edge itself rather than its stored normal, so that
       a vertex is exactly on both of its edges: cross(e, e) and cross(e, 0) are 0. In double:
       the differences of floats are exact there, and the products lose nothing that matters.
       In float, a point a skin (1e-4) off the middle of a face 20,000 long measured its cross
       product (about 1) against vertices 10,000 away, with a rounding of about 10: outside was
       taken for inside, and a bullet stopping a skin short of such a wall was pulled back by up
       to 3.7 units. */
    for (int i = 0, j = polygon->count - 1; i < polygon->count; j = i++) {
        const rc_vec2 a = polygon->vertices[j], b = polygon->vertices[i];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
        double wx = (double)p.x - a.x, wy = (double)p.y - a.y;
        if (ex * wy - ey * wx < 0.0) {
            return false;
        }
    }
    return true;
}
