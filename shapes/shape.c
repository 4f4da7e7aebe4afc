/* The shape geometry record: a shape as defined, under its base transform, under its body. */
#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

static const char *check_base(rc_base_transform base) {
    if (!rc_vec2_is_finite(base.offset) || !rc_is_finite(base.angle) || !rc_vec2_is_finite(base.scale)) {
        return "the base transform has a NaN or infinite value";
    }
    if (base.scale.x == 0.0f || base.scale.y == 0.0f) {
        return "a scale component is zero";
    }
    return NULL;
}

/* offset + R(angle) * (scale.x * v.x, scale.y * v.y), in that order, as the API states it. */
static rc_vec2 apply_base(rc_base_transform base, rc_rot q, rc_vec2 v) {
    rc_vec2 scaled = {base.scale.x * v.x, base.scale.y * v.y};
    return rc_add(base.offset, rc_rotate(q, scaled));
}

/* Compute the body stage of g from its local stage under base; NULL or an error message. */
static const char *build_body_stage(rc_shape_geometry *g, rc_base_transform base) {
    const char *error = check_base(base);
    if (error != NULL) {
        return error;
    }
    rc_rot q = rc_rot_from_angle(base.angle);
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        if (fabsf(base.scale.x) != fabsf(base.scale.y)) {
            return "a circle's scale must have |scale.x| == |scale.y| (a circle does not become an ellipse)";
        } else {
            float radius = g->local.circle.radius * fabsf(base.scale.x);
            if (!(radius > 0.0f) || !rc_is_finite(radius)) {
                return "the scaled radius is zero or too large for a float";
            }
            g->body.circle.center = apply_base(base, q, g->local.circle.center);
            g->body.circle.radius = radius;
        }
        break;
    case RC_SHAPE_POLYGON: {
        rc_vec2 points[RC_MAX_POLYGON_VERTICES];
        for (int i = 0; i < g->local.polygon.count; ++i) {
            points[i] = apply_base(base, q, g->local.polygon.vertices[i]);
        }
        /* a mirroring scale reverses the winding; rc_make_polygon turns it back */
        rc_polygon made;
        rc_polygon_error pe = rc_make_polygon(points, g->local.polygon.count, &made);
        if (pe != RC_POLYGON_OK) {
            return "the base transform leaves the polygon without area or beyond float range";
        }
        g->body.polygon = made;
        break;
    }
    case RC_SHAPE_SEGMENT: {
        rc_vec2 a = apply_base(base, q, g->local.segment.a);
        rc_vec2 b = apply_base(base, q, g->local.segment.b);
        if (!rc_vec2_is_finite(a) || !rc_vec2_is_finite(b) || rc_vec2_equal(a, b)) {
            return "the base transform collapses the segment or takes it beyond float range";
        }
        g->body.segment.a = a;
        g->body.segment.b = b;
        break;
    }
    }
    g->base = base;
    return NULL;
}

const char *rc_geometry_init_circle(rc_shape_geometry *g, float radius, rc_base_transform base) {
    if (!rc_is_finite(radius) || radius <= 0.0f) {
        return "a circle's radius must be finite and greater than zero";
    }
    rc_shape_geometry next;
    memset(&next, 0, sizeof next);
    next.kind = RC_SHAPE_CIRCLE;
    next.local.circle.center = rc_v2(0.0f, 0.0f);
    next.local.circle.radius = radius;
    const char *error = build_body_stage(&next, base);
    if (error == NULL) {
        *g = next;
    }
    return error;
}

const char *rc_geometry_init_polygon(rc_shape_geometry *g, const rc_polygon *local, rc_base_transform base) {
    rc_shape_geometry next;
    memset(&next, 0, sizeof next);
    next.kind = RC_SHAPE_POLYGON;
    next.local.polygon = *local;
    const char *error = build_body_stage(&next, base);
    if (error == NULL) {
        *g = next;
    }
    return error;
}

const char *rc_geometry_init_segment(rc_shape_geometry *g, rc_vec2 a, rc_vec2 b) {
    if (!rc_vec2_is_finite(a) || !rc_vec2_is_finite(b)) {
        return "a segment end has a NaN or infinite coordinate";
    }
    if (rc_vec2_equal(a, b)) {
        return "a segment's two ends are the same point";
    }
    rc_shape_geometry next;
    memset(&next, 0, sizeof next);
    next.kind = RC_SHAPE_SEGMENT;
    next.local.segment.a = a;
    next.local.segment.b = b;
    rc_base_transform identity = {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
    const char *error = build_body_stage(&next, identity);
    if (error == NULL) {
        *g = next;
    }
    return error;
}

const char *rc_geometry_set_base(rc_shape_geometry *g, rc_base_transform base) {
    rc_shape_geometry next = *g;
    const char *error = build_body_stage(&next, base);
    if (error == NULL) {
        *g = next;
    }
    return error;
}

void rc_geometry_place(rc_shape_geometry *g, rc_transform body) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        g->world.circle.center = rc_transform_point(body, g->body.circle.center);
        g->world.circle.radius = g->body.circle.radius;
        g->aabb = rc_circle_aabb(g->world.circle);
        break;
    case RC_SHAPE_POLYGON:
        g->world.polygon = rc_transform_polygon(body, &g->body.polygon);
        g->aabb = rc_polygon_aabb(&g->world.polygon);
        break;
    case RC_SHAPE_SEGMENT:
        g->world.segment.a = rc_transform_point(body, g->body.segment.a);
        g->world.segment.b = rc_transform_point(body, g->body.segment.b);
        g->aabb = rc_segment_aabb(g->world.segment.a, g->world.segment.b);
        break;
    }
}

rc_mass_data rc_geometry_mass(const rc_shape_geometry *g, float density) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_compute_circle_mass(g->body.circle, density);
    case RC_SHAPE_POLYGON:
        return rc_compute_polygon_mass(&g->body.polygon, density);
    case RC_SHAPE_SEGMENT:
        break;
    }
    rc_mass_data none = {0.0f, 0.0f, {0.0f, 0.0f}, 0.0f};
    return none;
}

bool rc_geometry_ray_cast(const rc_shape_geometry *g, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_ray_circle(origin, translation, g->world.circle.center, g->world.circle.radius, hit);
    case RC_SHAPE_POLYGON:
        return rc_ray_cast_polygon_core(&g->world.polygon, origin, translation, hit);
    case RC_SHAPE_SEGMENT:
        return rc_ray_segment(origin, translation, g->world.segment.a, g->world.segment.b, hit);
    }
    return false;
}

bool rc_geometry_circle_cast(const rc_shape_geometry *g, rc_vec2 origin, float radius, rc_vec2 translation,
                             rc_ray_hit *hit) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_circle_cast_circle(g->world.circle, origin, radius, translation, hit);
    case RC_SHAPE_POLYGON:
        return rc_circle_cast_polygon_core(&g->world.polygon, origin, radius, translation, hit);
    case RC_SHAPE_SEGMENT:
        return rc_circle_cast_segment(g->world.segment.a, g->world.segment.b, origin, radius, translation, hit);
    }
    return false;
}

rc_distance_result rc_geometry_distance(const rc_shape_geometry *g, rc_vec2 p) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_point_distance_circle(g->world.circle, p);
    case RC_SHAPE_POLYGON:
        return rc_point_distance_polygon(&g->world.polygon, p);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_point_distance_segment(g->world.segment.a, g->world.segment.b, p);
}

bool rc_geometry_test_point(const rc_shape_geometry *g, rc_vec2 p) {
    switch (g->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_distance_squared(p, g->world.circle.center) <= g->world.circle.radius * g->world.circle.radius;
    case RC_SHAPE_POLYGON: {
        /* left of every edge, measured with the edge itself rather than its stored normal, so
           that a vertex is exactly on both of its edges: cross(e, e) and cross(e, 0) are 0 */
        const rc_polygon *poly = &g->world.polygon;
        for (int i = 0, j = poly->count - 1; i < poly->count; j = i++) {
            rc_vec2 e = rc_sub(poly->vertices[i], poly->vertices[j]);
            if (rc_cross(e, rc_sub(p, poly->vertices[j])) < 0.0f) {
                return false;
            }
        }
        return true;
    }
    case RC_SHAPE_SEGMENT:
        break;
    }
    return false;
}

static void flip_manifold(rc_manifold *m) {
    if (m != NULL) {
        m->normal = rc_neg(m->normal);
    }
}

bool rc_geometry_collide(const rc_shape_geometry *a, const rc_shape_geometry *b, rc_manifold *m) {
    bool hit = false;
    switch (a->kind) {
    case RC_SHAPE_CIRCLE:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_circles(a->world.circle, b->world.circle, m);
        case RC_SHAPE_POLYGON:
            hit = rc_collide_polygon_circle_core(&b->world.polygon, a->world.circle, m);
            break;
        case RC_SHAPE_SEGMENT:
            hit = rc_collide_segment_circle(b->world.segment.a, b->world.segment.b, a->world.circle, m);
            break;
        }
        break;
    case RC_SHAPE_POLYGON:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_polygon_circle_core(&a->world.polygon, b->world.circle, m);
        case RC_SHAPE_POLYGON:
            return rc_collide_polygons_core(&a->world.polygon, &b->world.polygon, m);
        case RC_SHAPE_SEGMENT:
            hit = rc_collide_segment_polygon_core(b->world.segment.a, b->world.segment.b, &a->world.polygon, m);
            break;
        }
        break;
    case RC_SHAPE_SEGMENT:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_segment_circle(a->world.segment.a, a->world.segment.b, b->world.circle, m);
        case RC_SHAPE_POLYGON:
            return rc_collide_segment_polygon_core(a->world.segment.a, a->world.segment.b, &b->world.polygon, m);
        case RC_SHAPE_SEGMENT:
            return false;
        }
        break;
    }
    if (hit) {
        flip_manifold(m);
    }
    return hit;
}
