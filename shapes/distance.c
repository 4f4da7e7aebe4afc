/* Nearest boundary points and signed distances. */
#include "shapes/shapes.h"

#include <math.h>

rc_distance_result rc_point_distance_circle(rc_circle circle, rc_vec2 p) {
    rc_distance_result r;
    rc_vec2 rel = rc_sub(p, circle.center);
    float len = rc_length(rel);
    /* at the exact centre every direction is nearest; take +x */
    r.normal = len > 0.0f ? rc_normalize(rel) : rc_v2(1.0f, 0.0f);
    r.point = rc_mul_add(circle.center, circle.radius, r.normal);
    r.distance = len - circle.radius;
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
            r.distance = (float)fabs(side);
            r.point = rc_v2((float)(p.x - side * n.x), (float)(p.y - side * n.y));
            return r;
        }
    }
    double rx = (double)p.x - r.point.x, ry = (double)p.y - r.point.y;
    double len = sqrt(rx * rx + ry * ry);
    r.distance = (float)len;
    if (len > 0.0) {
        r.normal = rc_unit_of(rx, ry);
    } else if (ex == 0.0 && ey == 0.0) {
        r.normal = rc_v2(1.0f, 0.0f);
    } else {
        r.normal = rc_unit_of(0.0 - ey, ex); /* the left perpendicular of a -> b */
    }
    return r;
}

rc_distance_result rc_point_distance_polygon(const rc_polygon *polygon, rc_vec2 p) {
    rc_convex view = rc_convex_of(polygon);
    return rc_convex_distance(&view, p);
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
        rc_vec2 a = polygon->vertices[i];
        rc_vec2 n = polygon->normals[i];
        float sep = rc_dot(n, rc_sub(p, a));
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
        rc_vec2 a = polygon->vertices[best_edge];
        rc_vec2 n = polygon->normals[best_edge];
        r.distance = rc_dot(n, rc_sub(p, a));
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
       a vertex is exactly on both of its edges: cross(e, e) and cross(e, 0) are 0 */
    for (int i = 0, j = polygon->count - 1; i < polygon->count; j = i++) {
        rc_vec2 e = rc_sub(polygon->vertices[i], polygon->vertices[j]);
        if (rc_cross(e, rc_sub(p, polygon->vertices[j])) < 0.0f) {
            return false;
        }
    }
    return true;
}
