/* Queries on placed shapes, whatever their kind. */
#include "shapes/shapes.h"

rc_aabb rc_view_aabb(const rc_shape_view *s) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_circle_aabb(s->u.circle);
    case RC_SHAPE_POLYGON: {
        const rc_convex *p = &s->u.polygon;
        rc_aabb box = {p->vertices[0], p->vertices[0]};
        for (int i = 1; i < p->count; ++i) {
            box.lower = rc_min(box.lower, p->vertices[i]);
            box.upper = rc_max(box.upper, p->vertices[i]);
        }
        return box;
    }
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_segment_aabb(s->u.segment.a, s->u.segment.b);
}


rc_distance_result rc_view_distance(const rc_shape_view *s, rc_vec2 p) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_point_distance_circle(s->u.circle, p);
    case RC_SHAPE_POLYGON:
        return rc_convex_distance(&s->u.polygon, p);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_point_distance_segment(s->u.segment.a, s->u.segment.b, p);
}

bool rc_view_test_point(const rc_shape_view *s, rc_vec2 p) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_distance_squared(p, s->u.circle.center) <= s->u.circle.radius * s->u.circle.radius;
    case RC_SHAPE_POLYGON:
        return rc_convex_test_point(&s->u.polygon, p);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return false;
}

static bool flipped(bool hit, rc_manifold *m) {
    if (hit && m != NULL) {
        m->normal = rc_neg(m->normal);
    }
    return hit;
}

bool rc_view_collide(const rc_shape_view *a, const rc_shape_view *b, rc_manifold *m) {
    switch (a->kind) {
    case RC_SHAPE_CIRCLE:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_circles(a->u.circle, b->u.circle, m);
        case RC_SHAPE_POLYGON:
            return flipped(rc_convex_collide_circle(&b->u.polygon, a->u.circle, m), m);
        case RC_SHAPE_SEGMENT:
            return flipped(rc_collide_segment_circle(b->u.segment.a, b->u.segment.b, a->u.circle, m), m);
        }
        break;
    case RC_SHAPE_POLYGON:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_convex_collide_circle(&a->u.polygon, b->u.circle, m);
        case RC_SHAPE_POLYGON:
            return rc_convex_collide(&a->u.polygon, &b->u.polygon, m);
        case RC_SHAPE_SEGMENT:
            return flipped(rc_segment_collide_convex(b->u.segment.a, b->u.segment.b, &a->u.polygon, m), m);
        }
        break;
    case RC_SHAPE_SEGMENT:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_segment_circle(a->u.segment.a, a->u.segment.b, b->u.circle, m);
        case RC_SHAPE_POLYGON:
            return rc_segment_collide_convex(a->u.segment.a, a->u.segment.b, &b->u.polygon, m);
        case RC_SHAPE_SEGMENT:
            break;
        }
        break;
    }
    return false;
}
