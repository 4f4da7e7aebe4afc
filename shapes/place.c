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
    if (kind == RC_SHAPE_CIRCLE && fabsf(in.scale.x) != fabsf(in.scale.y)) {
        return "a circle's scale must have |scale.x| == |scale.y| (a circle does not become an ellipse)";
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

rc_polygon rc_base_polygon(const rc_base *base, const rc_convex *local) {
    rc_polygon p;
    memset(&p, 0, sizeof p);
    rc_transform identity = RC_TRANSFORM_IDENTITY;
    rc_aabb box;
    p.count = local->count;
    rc_place_polygon(base, local, identity, p.vertices, &p.centroid, &box);
    rc_polygon_compute_normals(&p);
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

void rc_place_polygon(const rc_base *base, const rc_convex *local, rc_transform body, rc_vec2 *vertices,
                      rc_vec2 *centroid, rc_aabb *box) {
    int n = local->count;
    /* mirrored, the order reverses to stay counter-clockwise */
    bool mirror = mirrors(base);
    rc_vec2 lower = {INFINITY, INFINITY}, upper = {-INFINITY, -INFINITY};
    for (int k = 0; k < n; ++k) {
        rc_vec2 v = rc_transform_point(body, rc_base_apply(base, local->vertices[mirror ? n - 1 - k : k]));
        vertices[k] = v;
        lower = rc_min(lower, v);
        upper = rc_max(upper, v);
    }
    *centroid = rc_transform_point(body, rc_base_apply(base, local->centroid));
    box->lower = lower;
    box->upper = upper;
}
