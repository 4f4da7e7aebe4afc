/* Base transforms and placing a shape's numbers in the world. A local point v lands at
 *     body.position + R(body.angle) * (offset + R(angle) * (scale.x * v.x, scale.y * v.y))
 * evaluated in exactly that order, as the API states it. */
#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

const char *rc_base_make(rc_base_transform in, rc_shape_kind kind, rc_base *out) {
    if (!rc_vec2_is_finite(in.offset) || !rc_is_finite(in.angle) || !rc_vec2_is_finite(in.scale)) {
        return "the base transform has a NaN or infinite value";
    }
    if (in.scale.x == 0.0f || in.scale.y == 0.0f) {
        return "a scale component is zero";
    }
    if ((kind == RC_SHAPE_CIRCLE || kind == RC_SHAPE_CAPSULE) && fabsf(in.scale.x) != fabsf(in.scale.y)) {
        return "a circle's or a capsule's scale must have |scale.x| == |scale.y| (a circle does not become an ellipse)";
    }
    out->offset = in.offset;
    out->q = rc_rot_from_angle(in.angle);
    out->scale = in.scale;
    return NULL;
}

rc_vec2 rc_base_apply(const rc_base *base, rc_vec2 v) {
    rc_vec2 scaled = {base->scale.x * v.x, base->scale.y * v.y};
    return rc_add(base->offset, rc_rotate(base->q, scaled));
}

/* Is the scale a mirror (one negative component)? Then the outline's order flips. */
static bool mirrors(const rc_base *base) { return (base->scale.x < 0.0f) != (base->scale.y < 0.0f); }

/* The unit outward normal of a placed edge a..b: the edge itself turned a quarter (in double),
 * which the placed vertices agree with exactly, while the rounding of its ends turns it by less
 * than 1/1024 rad; else (an edge that placing far from the origin rounded to a few float
 * spacings, or to nothing) the shape's own normal turned by the body, `turned`. */
static rc_vec2 placed_normal(rc_vec2 a, rc_vec2 b, rc_vec2 turned) {
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    float coord = rc_maxf(rc_maxf(fabsf(a.x), fabsf(a.y)), rc_maxf(fabsf(b.x), fabsf(b.y)));
    double rounding = (double)FLT_EPSILON * coord + FLT_MIN; /* the spacing of floats at the ends */
    if (ex == 0.0 || ey == 0.0) {
        /* an edge along an axis (a crate that does not turn: a falling crowd's): the quotients
           below are exactly +-1 and +0 (the differences and their squares are exact in double,
           and so the root), given without the root and the divisions */
        double len = fabs(ex) + fabs(ey);
        if (len > 1024.0 * rounding) {
            return ex == 0.0 ? rc_v2(ey > 0.0 ? 1.0f : -1.0f, 0.0f) : rc_v2(0.0f, ex > 0.0 ? -1.0f : 1.0f);
        }
        return turned;
    }
    double len = sqrt(ex * ex + ey * ey);
    if (len > 1024.0 * rounding) {
        /* unit already (in double): normalising it again moved no float bit but cost a root
           and two divisions per edge of every moved polygon */
        return rc_v2((float)(0.0 + ey / len), (float)(0.0 - ex / len));
    }
    return turned;
}

void rc_base_normals(const rc_base *base, const rc_vec2 *local, int n, rc_vec2 *normals) {
    bool mirror = mirrors(base);
    for (int k = 0; k < n; ++k) {
        /* placed edge k is local edge k, or local edge n - 2 - k reversed under a mirror */
        int i = mirror ? (2 * n - 2 - k) % n : k;
        int j = i + 1 < n ? i + 1 : 0;
        /* the local edge turned a quarter (outward for counter-clockwise), through the inverse
           transpose of the scale, which keeps it outward under a mirror too */
        double mx = ((double)local[j].y - local[i].y) / base->scale.x;
        double my = -((double)local[j].x - local[i].x) / base->scale.y;
        double len = sqrt(mx * mx + my * my);
        double ux = mx / len, uy = my / len;
        double c = base->q.c, s = base->q.s;
        normals[k] = rc_unit_of(c * ux - s * uy, s * ux + c * uy);
    }
}

rc_polygon rc_base_polygon(const rc_base *base, const rc_convex *local) {
    rc_polygon p;
    memset(&p, 0, sizeof p);
    int n = local->count;
    p.count = n;
    bool mirror = mirrors(base);
    rc_vec2 turned[RC_MAX_POLYGON_VERTICES];
    rc_base_normals(base, local->vertices, n, turned);
    for (int k = 0; k < n; ++k) {
        p.vertices[k] = rc_base_apply(base, local->vertices[mirror ? n - 1 - k : k]);
    }
    for (int k = 0; k < n; ++k) {
        p.normals[k] = placed_normal(p.vertices[k], p.vertices[k + 1 < n ? k + 1 : 0], turned[k]);
    }
    p.centroid = rc_base_apply(base, local->centroid);
    return p;
}

const char *rc_base_check_polygon(const rc_base *base, const rc_convex *local) {
    rc_vec2 points[RC_MAX_POLYGON_VERTICES];
    for (int i = 0; i < local->count; ++i) {
        points[i] = rc_base_apply(base, local->vertices[i]);
    }
    rc_polygon made;
    if (rc_make_polygon(points, local->count, &made) != RC_POLYGON_OK || made.count != local->count) {
        return "the base transform flattens the polygon (or takes it beyond float range)";
    }
    return NULL;
}

rc_circle rc_place_circle(const rc_base *base, float local_radius, rc_transform body) {
    rc_circle c;
    c.center = rc_transform_point(body, base->offset);
    c.radius = local_radius * fabsf(base->scale.x);
    return c;
}


void rc_place_polygon(const rc_convex *body, rc_transform xf, rc_vec2 *vertices, rc_vec2 *normals, rc_vec2 *centroid,
                      rc_aabb *box) {
    int n = body->count;
    rc_vec2 lower = {INFINITY, INFINITY}, upper = {-INFINITY, -INFINITY};
    for (int k = 0; k < n; ++k) {
        rc_vec2 v = rc_transform_point(xf, body->vertices[k]);
        vertices[k] = v;
        lower = rc_min(lower, v);
        upper = rc_max(upper, v);
    }
    for (int k = 0; normals != NULL && k < n; ++k) {
        normals[k] = placed_normal(vertices[k], vertices[k + 1 < n ? k + 1 : 0], rc_rotate(xf.q, body->normals[k]));
    }
    *centroid = rc_transform_point(xf, body->centroid);
    box->lower = lower;
    box->upper = upper;
}
