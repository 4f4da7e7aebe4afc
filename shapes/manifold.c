/* Contact manifolds: circle/circle, polygon/circle, segment/circle, and polygons (and a
 * segment taken as a two-sided polygon of two vertices) by separating axes and clipping. */
#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

static void one_point(rc_manifold *m, rc_vec2 normal, rc_vec2 on_a, rc_vec2 on_b, float depth) {
    if (m == NULL) {
        return;
    }
    memset(m, 0, sizeof *m);
    m->normal = normal;
    m->points[0] = rc_lerp(on_a, on_b, 0.5f);
    m->depths[0] = depth > 0.0f ? depth : 0.0f;
    m->depth = m->depths[0];
    m->point_count = 1;
}

bool rc_collide_circles(rc_circle a, rc_circle b, rc_manifold *m) {
    if (!rc_circle_input_ok(a) || !rc_circle_input_ok(b)) {
        return false;
    }
    rc_vec2 d = rc_sub(b.center, a.center);
    float dist = rc_length(d);
    float reach = a.radius + b.radius;
    if (dist > reach) {
        return false;
    }
    /* concentric circles: any direction separates them; take +x */
    rc_vec2 n = dist > 0.0f ? rc_normalize(d) : rc_v2(1.0f, 0.0f);
    one_point(m, n, rc_mul_add(a.center, a.radius, n), rc_mul_add(b.center, -b.radius, n), reach - dist);
    if (m != NULL && (rc_round_inside(a.radius, b.radius, dist) || rc_round_inside(b.radius, a.radius, dist))) {
        /* one far inside a far larger one: the middle of the stretch of the centre line inside
           both (the smaller one's centre), not halfway between the surfaces, as far off as the
           larger radius (the world's contacts do the same: shapes/collide.c) */
        m->points[0] = rc_mul_add(a.center, rc_middle_inside_both(a.radius, b.radius, dist), n);
    }
    return true;
}

static bool collide_with_distance(rc_distance_result dist, rc_circle b, rc_manifold *m) {
    if (dist.distance > b.radius) {
        return false;
    }
    one_point(m, dist.normal, dist.point, rc_mul_add(b.center, -b.radius, dist.normal), b.radius - dist.distance);
    if (m != NULL && rc_round_inside(b.radius, 0.0f, fabsf(dist.distance))) {
        /* far inside a far larger circle: the point on the polygon or segment, not halfway to the
           circle's far surface (as the world's contacts: shapes/collide.c) */
        m->points[0] = dist.point;
    }
    return true;
}

bool rc_convex_collide_circle(const rc_convex *a, rc_circle b, rc_manifold *m) {
    return collide_with_distance(rc_convex_distance(a, b.center), b, m);
}

bool rc_collide_polygon_circle(const rc_polygon *a, rc_circle b, rc_manifold *m) {
    if (!rc_polygon_input_ok(a) || !rc_circle_input_ok(b)) {
        return false;
    }
    rc_convex view = rc_convex_of(a);
    return rc_convex_collide_circle(&view, b, m);
}

bool rc_collide_segment_circle(rc_vec2 a, rc_vec2 b, rc_circle circle, rc_manifold *m) {
    if (!rc_vec2_is_finite(a) || !rc_vec2_is_finite(b) || !rc_circle_input_ok(circle)) {
        return false;
    }
    return collide_with_distance(rc_segment_distance(a, b, circle.center), circle, m);
}

/* The largest separation of b from a's edge lines, and which edge gives it. */
static float max_separation(const rc_convex *a, const rc_convex *b, int *edge) {
    float best = -INFINITY;
    *edge = 0;
    for (int i = 0; i < a->count; ++i) {
        rc_vec2 n = a->normals[i];
        rc_vec2 v = a->vertices[i];
        float least = INFINITY;
        for (int j = 0; j < b->count; ++j) {
            float s = rc_dot(n, rc_sub(b->vertices[j], v));
            least = s < least ? s : least;
        }
        if (least > best) {
            best = least;
            *edge = i;
        }
    }
    return best;
}

/* Keep the part of the segment p[0]..p[1] where dot(n, x) <= offset. */
static int clip_to_plane(rc_vec2 out[2], const rc_vec2 in[2], rc_vec2 n, float offset) {
    int count = 0;
    float d0 = rc_dot(n, in[0]) - offset;
    float d1 = rc_dot(n, in[1]) - offset;
    if (d0 <= 0.0f) {
        out[count++] = in[0];
    }
    if (d1 <= 0.0f) {
        out[count++] = in[1];
    }
    if (d0 * d1 < 0.0f) {
        out[count++] = rc_lerp(in[0], in[1], d0 / (d0 - d1));
    }
    return count;
}

/* Polygons here may have count 2: a segment as a two-sided polygon. */
bool rc_convex_collide(const rc_convex *a, const rc_convex *b, rc_manifold *m) {
    int edge_a, edge_b;
    float sep_a = max_separation(a, b, &edge_a);
    if (sep_a > 0.0f) {
        return false;
    }
    float sep_b = max_separation(b, a, &edge_b);
    if (sep_b > 0.0f) {
        return false;
    }
    if (m == NULL) {
        return true;
    }
    /* Prefer a's edge as the reference unless b's is clearly better, so that a resting
       contact does not flicker between the two. */
    float size = rc_maxf(rc_convex_span(a), rc_convex_span(b));
    bool flip = sep_b > sep_a + 1.0e-3f * size;
    const rc_convex *ref = flip ? b : a;
    const rc_convex *inc = flip ? a : b;
    int e = flip ? edge_b : edge_a;
    rc_vec2 ref_n = ref->normals[e];
    rc_vec2 v1 = ref->vertices[e];
    rc_vec2 v2 = ref->vertices[e + 1 < ref->count ? e + 1 : 0];

    /* the incident edge: the one of inc facing most against the reference normal */
    int ie = 0;
    float least = INFINITY;
    for (int i = 0; i < inc->count; ++i) {
        float f = rc_dot(inc->normals[i], ref_n);
        if (f < least) {
            least = f;
            ie = i;
        }
    }
    rc_vec2 incident[2] = {inc->vertices[ie], inc->vertices[ie + 1 < inc->count ? ie + 1 : 0]};

    rc_vec2 tangent = rc_left_perp(ref_n); /* along the edge, from v1 towards v2 */
    rc_vec2 clipped1[3], clipped2[3];
    int n1 = clip_to_plane(clipped1, incident, rc_neg(tangent), -rc_dot(tangent, v1));
    int n2 = n1 >= 2 ? clip_to_plane(clipped2, clipped1, tangent, rc_dot(tangent, v2)) : 0;

    memset(m, 0, sizeof *m);
    m->normal = flip ? rc_neg(ref_n) : ref_n;
    for (int i = 0; i < n2 && i < 2; ++i) {
        float sep = rc_dot(ref_n, rc_sub(clipped2[i], v1));
        if (sep <= 0.0f) {
            m->points[m->point_count] = rc_mul_add(clipped2[i], -0.5f * sep, ref_n);
            m->depths[m->point_count] = -sep;
            m->point_count++;
        }
    }
    if (m->point_count == 0) {
        /* rounding lost both clipped points of a touching pair: the deepest incident vertex */
        rc_vec2 p = incident[0];
        float sep = rc_dot(ref_n, rc_sub(incident[0], v1));
        float sep1 = rc_dot(ref_n, rc_sub(incident[1], v1));
        if (sep1 < sep) {
            p = incident[1];
            sep = sep1;
        }
        m->points[0] = rc_mul_add(p, -0.5f * sep, ref_n);
        m->depths[0] = sep < 0.0f ? -sep : 0.0f;
        m->point_count = 1;
    }
    m->depth = m->depths[0];
    if (m->point_count == 2 && m->depths[1] > m->depth) {
        m->depth = m->depths[1];
    }
    return true;
}

bool rc_collide_polygons(const rc_polygon *a, const rc_polygon *b, rc_manifold *m) {
    if (!rc_polygon_input_ok(a) || !rc_polygon_input_ok(b)) {
        return false;
    }
    rc_convex va = rc_convex_of(a), vb = rc_convex_of(b);
    return rc_convex_collide(&va, &vb, m);
}

/* The segment a..b taken as a polygon of two vertices whose two edges face opposite ways. */
bool rc_segment_collide_convex(rc_vec2 a, rc_vec2 b, const rc_convex *polygon, rc_manifold *m) {
    if (rc_vec2_equal(a, b)) {
        return false;
    }
    rc_vec2 vertices[2] = {a, b};
    rc_vec2 n = rc_normalize(rc_right_perp(rc_sub(b, a)));
    if (n.x == 0.0f && n.y == 0.0f) {
        return false; /* too short to have a direction in float */
    }
    rc_vec2 normals[2] = {n, rc_neg(n)};
    rc_convex seg = {vertices, normals, 2, rc_lerp(a, b, 0.5f)};
    return rc_convex_collide(&seg, polygon, m);
}

bool rc_collide_segment_polygon(rc_vec2 a, rc_vec2 b, const rc_polygon *polygon, rc_manifold *m) {
    if (!rc_polygon_input_ok(polygon) || !rc_vec2_is_finite(a) || !rc_vec2_is_finite(b)) {
        return false;
    }
    rc_convex view = rc_convex_of(polygon);
    return rc_segment_collide_convex(a, b, &view, m);
}
