/* The seed algorithms, rebuilt without their flaws: ray against segment and against any
 * simple polygon (articles 000/001), Cyrus-Beck clipping and the convex point test (002),
 * ray against circle with both roots (003), the divide-free crossing rule and the nearest
 * point on a segment (004). */
#include "shapes/shapes.h"

#include <math.h>

static void set_hit(rc_ray_hit *hit, float t, rc_vec2 point, rc_vec2 normal, bool started_inside) {
    if (hit != NULL) {
        hit->t = t;
        hit->point = point;
        hit->normal = normal;
        hit->started_inside = started_inside;
        hit->shape = RC_NULL_SHAPE_ID;
        hit->body = RC_NULL_BODY_ID;
    }
}

static float clamp01(float t) { return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t); }

static bool points_finite(const rc_vec2 *v, int n) {
    for (int i = 0; i < n; ++i) {
        if (!rc_vec2_is_finite(v[i])) {
            return false;
        }
    }
    return true;
}

/* Is the polygon's width and height a float? One wider than FLT_MAX has edges that are no
 * floats (their directions overflow): rc_make_polygon refuses such an outline, and the point
 * array functions treat it as bad input. */
static bool extent_finite(const rc_vec2 *v, int n) {
    rc_vec2 lower = v[0], upper = v[0];
    for (int i = 1; i < n; ++i) {
        lower = rc_min(lower, v[i]);
        upper = rc_max(upper, v[i]);
    }
    return rc_vec2_is_finite(rc_sub(upper, lower));
}

/* Twice the signed area, in double: positive for counter-clockwise. Taken about v[0] so that
 * polygons far from the origin keep their precision. */
static double signed_area2(const rc_vec2 *v, int n) {
    double sum = 0.0;
    double x0 = v[0].x, y0 = v[0].y;
    for (int i = 1; i + 1 < n; ++i) {
        double ax = v[i].x - x0, ay = v[i].y - y0;
        double bx = v[i + 1].x - x0, by = v[i + 1].y - y0;
        sum += ax * by - ay * bx;
    }
    return sum;
}

rc_vec2 rc_edge_normal(rc_vec2 a, rc_vec2 b, rc_vec2 stored) {
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double len = sqrt(ex * ex + ey * ey);
    if (!(len > 0.0) || !(len < INFINITY)) {
        return stored;
    }
    double nx = ey / len, ny = -ex / len;
    /* the stored normal is the edge's line to float rounding (6e-8 rad) whenever the edge is a
       few thousand float spacings long: only a rounded-away edge fails this */
    double cross = (double)stored.x * ny - (double)stored.y * nx;
    double dot = (double)stored.x * nx + (double)stored.y * ny;
    if (dot > 0.0 && fabs(cross) <= 1.0e-6) {
        return stored;
    }
    return rc_unit_of(nx, ny);
}

rc_vec2 rc_vertex_hit_normal(const rc_vec2 *v, const rc_vec2 *normals, int n, float sign, int edge, rc_vec2 normal,
                             rc_vec2 p, rc_vec2 origin, rc_vec2 d) {
    int next = edge + 1 < n ? edge + 1 : 0;
    /* a couple of roundings of the coordinates involved, magnified where the ray meets an edge
       at a glancing angle (t, and so p, moves by the rounding over the sine of that angle);
       the sine is bounded below so that this stays a matter of rounding */
    float scale = rc_maxf(rc_maxf(fabsf(origin.x), fabsf(origin.y)), rc_maxf(fabsf(v[edge].x), fabsf(v[edge].y))) +
                  rc_maxf(fabsf(p.x - origin.x), fabsf(p.y - origin.y));
    float reach = 2.0f * FLT_EPSILON * scale * 1024.0f;
    float d0 = rc_distance_squared(p, v[edge]), d1 = rc_distance_squared(p, v[next]);
    if (rc_minf(d0, d1) > reach * reach) {
        return normal; /* nowhere near a vertex: the common case, decided without a square root */
    }
    float dlen = rc_length(d);
    float facing = rc_dot(normal, d);
    /* of the two ends within tolerance, the nearer one is the vertex the ray went through */
    rc_vec2 chosen = normal;
    float nearest = INFINITY;
    for (int end_vertex = 0; end_vertex < 2; ++end_vertex) {
        /* the other edge at this end: the one before the edge, or the one after */
        int from = end_vertex == 0 ? (edge > 0 ? edge - 1 : n - 1) : next;
        int to = end_vertex == 0 ? edge : (next + 1 < n ? next + 1 : 0);
        rc_vec2 other;
        if (normals != NULL) {
            other = rc_edge_normal(v[from], v[to], normals[from]);
        } else {
            rc_vec2 e = rc_sub(v[to], v[from]);
            if (rc_length(e) == 0.0f) {
                continue;
            }
            other = rc_scale(sign, rc_normalize(rc_right_perp(e)));
        }
        if (dlen == 0.0f) {
            continue;
        }
        float other_facing = rc_dot(other, d);
        float sine = rc_maxf(rc_minf(fabsf(facing), fabsf(other_facing)) / dlen, 1.0f / 1024.0f);
        float tol = 2.0f * FLT_EPSILON * scale / sine;
        float dist = sqrtf(end_vertex == 0 ? d0 : d1);
        if (dist <= tol && dist < nearest) {
            nearest = dist;
            chosen = other_facing < facing ? other : normal;
        }
    }
    return chosen;
}

bool rc_ray_segment(rc_vec2 origin, rc_vec2 translation, rc_vec2 a, rc_vec2 b, rc_ray_hit *hit) {
    if (!rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) || !rc_vec2_is_finite(a) ||
        !rc_vec2_is_finite(b)) {
        return false;
    }
    /* In double: differences and cross products of floats near the ends of their range
       overflowed (t NaN) or underflowed in float. */
    double dx = translation.x, dy = translation.y;
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double dlen = sqrt(dx * dx + dy * dy);
    double elen = sqrt(ex * ex + ey * ey);
    if (dlen == 0.0 || elen == 0.0) {
        return false;
    }
    /* origin + t d = a + s e; crossing both sides with e and with d gives t and s */
    double denom = dx * ey - dy * ex;
    if (fabs(denom) <= (double)RC_REL_TOL * dlen * elen) {
        return false; /* parallel: a wall with no thickness is not hit edge-on */
    }
    double wx = (double)a.x - origin.x, wy = (double)a.y - origin.y;
    double tn = wx * ey - wy * ex;
    double sn = wx * dy - wy * dx;
    if (denom < 0.0) {
        denom = -denom;
        tn = -tn;
        sn = -sn;
    }
    /* compare before dividing: both fractions must lie in [0, 1] */
    if (tn < 0.0 || tn > denom || sn < 0.0 || sn > denom) {
        return false;
    }
    float t = clamp01((float)(tn / denom));
    rc_vec2 n = rc_v2((float)(ey / elen), (float)((0.0 - ex) / elen)); /* e turned right (no -0) */
    if (ey * dx - ex * dy > 0.0) {
        n = rc_neg(n);
    }
    set_hit(hit, t, rc_mul_add(origin, t, translation), n, false);
    return true;
}

bool rc_point_in_polygon(rc_vec2 p, const rc_vec2 *v, int n) {
    if (v == NULL || n < 3 || !rc_vec2_is_finite(p) || !points_finite(v, n)) {
        return false;
    }
    /* count the edges that cross the horizontal ray from p towards +x */
    bool inside = false;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        inside ^= rc_ray_crosses_edge(p, v[j], v[i]);
    }
    return inside;
}

bool rc_point_in_convex(rc_vec2 p, const rc_vec2 *v, int n) {
    if (v == NULL || n < 3 || !rc_vec2_is_finite(p) || !points_finite(v, n)) {
        return false;
    }
    double area = signed_area2(v, n);
    if (area == 0.0) {
        return false;
    }
    double sign = area > 0.0 ? 1.0 : -1.0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        double ex = (double)v[i].x - v[j].x, ey = (double)v[i].y - v[j].y;
        double wx = (double)p.x - v[j].x, wy = (double)p.y - v[j].y;
        if (sign * (ex * wy - ey * wx) < 0.0) {
            return false;
        }
    }
    return true;
}

rc_vec2 rc_nearest_point_on_segment(rc_vec2 a, rc_vec2 b, rc_vec2 p) {
    /* In double: the products of float differences neither overflow (a segment longer than
       about 1e19 made them infinite, and s NaN) nor underflow (one shorter than about 1e-19
       made them 0, which picked an end wrongly). */
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    /* the two dot products of the seed: projections measured from each end */
    double from_a = ((double)p.x - a.x) * ex + ((double)p.y - a.y) * ey;
    if (!(from_a > 0.0)) { /* NaN too: a degenerate segment gives a whatever p is */
        return a;
    }
    double from_b = ((double)b.x - p.x) * ex + ((double)b.y - p.y) * ey;
    if (!(from_b > 0.0)) {
        return b;
    }
    double s = from_a / (from_a + from_b);
    return rc_v2((float)(a.x + s * ex), (float)(a.y + s * ey));
}

bool rc_ray_circle(rc_vec2 origin, rc_vec2 translation, rc_vec2 center, float radius, rc_ray_hit *hit) {
    if (!rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) || !rc_vec2_is_finite(center) ||
        !rc_is_finite(radius) || radius < 0.0f) {
        return false;
    }
    rc_circle circle = {center, radius};
    return rc_circle_ray_cast(circle, origin, translation, hit);
}

bool rc_circle_ray_cast(rc_circle circle, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    /* In double: the squares of float lengths neither overflow (a radius or a distance above
       about 1e19 made them infinite, and t NaN) nor underflow. */
    double dx = translation.x, dy = translation.y;
    double len = sqrt(dx * dx + dy * dy);
    if (len == 0.0) {
        return false;
    }
    double ux = dx / len, uy = dy / len;
    double mx = (double)origin.x - circle.center.x, my = (double)origin.y - circle.center.y;
    double radius = circle.radius;
    /* s: distance along the ray to the point nearest the centre. Measuring the chord from there
       (rather than solving the quadratic in t directly) avoids cancellation. */
    double s = -(mx * ux + my * uy);
    double cx = mx + s * ux, cy = my + s * uy;
    double h2 = cx * cx + cy * cy;
    double rr = radius * radius;
    double mm = mx * mx + my * my;
    rc_vec2 back = rc_v2((float)-ux, (float)-uy);
    if (mm < rr) {
        /* started inside: the line came in through the first root, behind the origin */
        double half = sqrt(rr - h2 > 0.0 ? rr - h2 : 0.0);
        rc_vec2 n = rc_line_entry_normal(cx, cy, ux, uy, half);
        if (n.x == 0.0f && n.y == 0.0f) {
            n = back;
        }
        set_hit(hit, 0.0f, origin, n, true);
        return true;
    }
    if (h2 > rr) {
        return false;
    }
    double half = sqrt(rr - h2);
    double enter = s - half;
    if (enter < 0.0) {
        /* The origin is on or outside the circle, so the chord lies wholly ahead or wholly
           behind. Ahead (s > 0) with a negative entry is rounding at an origin on the circle. */
        if (s <= 0.0) {
            return false;
        }
        enter = 0.0;
    }
    if (enter > len) {
        return false;
    }
    float t = clamp01((float)(enter / len));
    /* the origin on the circle: its offset is the normal; else the chord's entry point */
    rc_vec2 n = enter == 0.0 ? rc_unit_of(mx, my) : rc_line_entry_normal(cx, cy, ux, uy, half);
    if (n.x == 0.0f && n.y == 0.0f) {
        n = back; /* radius 0: a point hit head-on */
    }
    set_hit(hit, t, rc_mul_add(origin, t, translation), n, false);
    return true;
}

bool rc_clip_segment_convex(rc_vec2 a, rc_vec2 b, const rc_vec2 *v, int n, rc_clip *clip) {
    if (v == NULL || n < 3 || !rc_vec2_is_finite(a) || !rc_vec2_is_finite(b) || !points_finite(v, n) ||
        !extent_finite(v, n)) {
        return false;
    }
    rc_vec2 d = rc_sub(b, a);
    /* A segment longer than FLT_MAX: work along half of it (d_scale: fractions of d per
       fraction of the segment), since b - a is no float. */
    float d_scale = 1.0f;
    if (!rc_vec2_is_finite(d)) {
        d = rc_sub(rc_scale(0.5f, b), rc_scale(0.5f, a));
        d_scale = 0.5f;
    }
    float dlen = rc_length(d);
    if (dlen == 0.0f) {
        return false;
    }
    double area = signed_area2(v, n);
    if (area == 0.0) {
        return false;
    }
    float sign = area > 0.0 ? 1.0f : -1.0f;
    /* Where the infinite line enters and leaves, and through which edges; the segment's part
       is that interval cut to [0, 1]. */
    float line_in = -INFINITY, line_out = INFINITY;
    float in_facing = 0.0f, out_facing = 0.0f;
    rc_vec2 n_out = rc_normalize(d), n_in = rc_neg(n_out);
    int in_edge = -1; /* index of the first vertex of the entering edge */
    for (int i = 0, j = n - 1; i < n; j = i++) {
        rc_vec2 e = rc_sub(v[i], v[j]);
        float elen = rc_length(e);
        if (elen == 0.0f) {
            continue; /* repeated vertex */
        }
        rc_vec2 normal = rc_scale(sign, rc_normalize(rc_right_perp(e)));
        /* dist >= 0: a is on the inner side of this edge's line */
        float dist = rc_dot(normal, rc_sub(v[j], a));
        float facing = rc_dot(normal, d);
        if (fabsf(facing) <= RC_REL_TOL * dlen) {
            if (dist < 0.0f) {
                return false; /* parallel and outside: the line never enters */
            }
            continue;
        }
        float tc = dist / facing;
        if (facing < 0.0f) {
            /* entering; at a vertex keep the edge met more squarely */
            if (tc > line_in || (tc == line_in && facing < in_facing)) {
                line_in = tc;
                in_facing = facing;
                n_in = normal;
                in_edge = j;
            }
        } else if (tc < line_out || (tc == line_out && facing > out_facing)) {
            line_out = tc;
            out_facing = facing;
            n_out = normal;
        }
    }
    float seg_in = d_scale * line_in, seg_out = d_scale * line_out; /* as fractions of the segment */
    float t_near = seg_in > 0.0f ? seg_in : 0.0f;
    float t_far = seg_out < 1.0f ? seg_out : 1.0f;
    if (t_near > t_far) {
        return false;
    }
    if (clip != NULL && in_edge >= 0 && rc_is_finite(line_in)) {
        n_in = rc_vertex_hit_normal(v, NULL, n, sign, in_edge, n_in, rc_mul_add(a, line_in, d), a, d);
    }
    if (clip != NULL) {
        clip->t_near = t_near;
        clip->t_far = t_far;
        clip->n_near = n_in;
        clip->n_far = n_out;
    }
    return true;
}

/* ---- ray against any simple polygon ------------------------------------------------------- */

bool rc_ray_polygon(rc_vec2 origin, rc_vec2 translation, const rc_vec2 *v, int n, rc_ray_hit *hit) {
    if (v == NULL || n < 3 || !rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) || !points_finite(v, n) ||
        !extent_finite(v, n)) {
        return false;
    }
    rc_vec2 d = translation;
    float dlen = rc_length(d);
    if (dlen == 0.0f) {
        return false;
    }
    double area = signed_area2(v, n);
    if (area == 0.0) {
        return false;
    }
    float sign = area > 0.0 ? 1.0f : -1.0f;

    /* The size of the numbers in play sets the tolerance for "on the boundary" and "at t = 0". */
    float extent = 0.0f;
    for (int i = 0; i < n; ++i) {
        rc_vec2 r = rc_sub(v[i], origin);
        extent = rc_maxf(extent, rc_maxf(fabsf(r.x), fabsf(r.y)));
    }
    float tol_len = RC_REL_TOL * extent + RC_REL_TOL * dlen; /* (the sum may be beyond float range) */
    float tol_t = tol_len / dlen;

    /* One pass over the edges collects: the first entering crossing from t = 0 on (the hit),
       the first strictly ahead (the hit when a start on the boundary leaves at once), the last
       entering crossing behind (the normal for a start inside), the first crossing of any kind
       ahead (to classify a start on the boundary), and the boundary edges through the origin. */
    typedef struct candidate {
        float t, facing;
        rc_vec2 normal;
        int edge; /* its first vertex */
    } candidate;
    candidate from_zero = {INFINITY, 0.0f, {0.0f, 0.0f}, -1};
    candidate ahead = from_zero;
    candidate behind = {-INFINITY, 0.0f, rc_neg(rc_normalize(d)), -1};
    candidate boundary = {0.0f, INFINITY, {0.0f, 0.0f}, -1};
    float first_event = INFINITY;
    bool on_boundary = false;

    for (int i = 0, j = n - 1; i < n; j = i++) {
        rc_vec2 a = v[j];
        rc_vec2 e = rc_sub(v[i], a);
        float elen = rc_length(e);
        if (elen == 0.0f) {
            continue;
        }
        rc_vec2 normal = rc_scale(sign, rc_normalize(rc_right_perp(e)));
        float facing = rc_dot(normal, d);

        if (rc_distance(rc_nearest_point_on_segment(a, v[i], origin), origin) <= tol_len) {
            on_boundary = true;
            if (facing < boundary.facing) {
                boundary.facing = facing;
                boundary.normal = normal;
            }
        }

        /* crossings in double: the products of long rays and edges overflow in float (t came
           out 0 for a polygon and a ray of 2^127) */
        double denom = (double)d.x * e.y - (double)d.y * e.x;
        if (fabs(denom) <= (double)RC_REL_TOL * dlen * elen) {
            continue; /* parallel: the edges at its ends report any touch */
        }
        double wx = (double)a.x - origin.x, wy = (double)a.y - origin.y;
        float t = (float)((wx * e.y - wy * e.x) / denom);
        float s = (float)((wx * d.y - wy * d.x) / denom);
        if (s < 0.0f || s > 1.0f) {
            continue;
        }
        if (t > tol_t && t < first_event) {
            first_event = t;
        }
        if (facing >= 0.0f) {
            continue; /* leaving the polygon here */
        }
        /* at a vertex two edges give the same t: keep the one met more squarely */
        if (t >= -tol_t && (t < from_zero.t || (t == from_zero.t && facing < from_zero.facing))) {
            from_zero = (candidate){t, facing, normal, j};
        }
        if (t > tol_t && (t < ahead.t || (t == ahead.t && facing < ahead.facing))) {
            ahead = (candidate){t, facing, normal, j};
        }
        if (t < -tol_t && (t > behind.t || (t == behind.t && facing < behind.facing))) {
            behind = (candidate){t, facing, normal, j};
        }
    }

    candidate best = from_zero;
    if (on_boundary) {
        /* Does the ray go into the polygon (or along its boundary) from here? Nothing is
           crossed before the next event, so one sample halfway there decides. */
        float tm = 0.5f * (first_event < 1.0f ? first_event : 1.0f);
        rc_vec2 pm = rc_mul_add(origin, tm, d);
        bool goes_in = rc_point_in_polygon(pm, v, n);
        for (int i = 0, j = n - 1; i < n && !goes_in; j = i++) {
            goes_in = rc_distance(rc_nearest_point_on_segment(v[j], v[i], pm), pm) <= tol_len;
        }
        /* A ray shorter than the tolerance stays within it of the boundary wherever it goes:
           then the edges through the origin decide. Going in (or along), it faces against
           one of them (or along it); facing out of all of them, it leaves at once. */
        if (goes_in && boundary.facing <= RC_REL_TOL * dlen) {
            set_hit(hit, 0.0f, origin, boundary.normal, false);
            return true;
        }
        best = ahead; /* leaving at once: only a later entry counts */
    } else if (rc_point_in_polygon(origin, v, n)) {
        set_hit(hit, 0.0f, origin, behind.normal, true);
        return true;
    }

    if (best.t > 1.0f) {
        return false;
    }
    float t = clamp01(best.t);
    rc_vec2 point = rc_mul_add(origin, t, d);
    rc_vec2 normal = rc_vertex_hit_normal(v, NULL, n, sign, best.edge, best.normal, rc_mul_add(origin, best.t, d), origin, d);
    set_hit(hit, t, point, normal, false);
    return true;
}
