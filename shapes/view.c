/* Queries on placed shapes, whatever their kind. */
#include "shapes/collide.h"
#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

rc_aabb rc_view_aabb(const rc_shape_view *s) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_circle_box(s->u.circle);
    case RC_SHAPE_POLYGON: {
        const rc_convex *p = &s->u.polygon;
        rc_aabb box = {p->vertices[0], p->vertices[0]};
        for (int i = 1; i < p->count; ++i) {
            box.lower = rc_min(box.lower, p->vertices[i]);
            box.upper = rc_max(box.upper, p->vertices[i]);
        }
        return box;
    }
    case RC_SHAPE_CAPSULE:
        return rc_capsule_box(s->u.capsule);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_segment_box(s->u.segment.a, s->u.segment.b);
}


rc_distance_result rc_view_distance(const rc_shape_view *s, rc_vec2 p) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_circle_distance(s->u.circle, p);
    case RC_SHAPE_POLYGON:
        return rc_convex_distance(&s->u.polygon, p);
    case RC_SHAPE_CAPSULE:
        return rc_capsule_distance(s->u.capsule, p);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_segment_distance(s->u.segment.a, s->u.segment.b, p);
}

float rc_view_distance_floor(const rc_shape_view *s, rc_vec2 p) {
    if (s->kind != RC_SHAPE_POLYGON) {
        return -INFINITY;
    }
    /* along any direction n the distance is at least how far p lies beyond the polygon's
       furthest vertex; the edges' normals are the directions that tell. The furthest vertex is
       looked for rather than taken to be the edge's own: a placed short edge's normal may be
       its body-frame normal turned, a little off the line of its rounded ends
       (rc_place_polygon) */
    const rc_convex *polygon = &s->u.polygon;
    int count = polygon->count;
    float sep = -INFINITY, size = rc_maxf(fabsf(p.x), fabsf(p.y));
    for (int i = 0; i < count; ++i) {
        rc_vec2 n = polygon->normals[i];
        float furthest = -INFINITY;
        for (int j = 0; j < count; ++j) {
            furthest = rc_maxf(furthest, rc_dot(n, polygon->vertices[j]));
        }
        sep = rc_maxf(sep, rc_dot(n, p) - furthest);
        size = rc_maxf(size, rc_maxf(fabsf(polygon->vertices[i].x), fabsf(polygon->vertices[i].y)));
    }
    /* the dot products round by a few 1e-7 of the coordinates, and so does the distance: 1e-4
       of their size is a hundred times more */
    return sep - 1.0e-4f * (1.0f + 2.0f * size);
}

bool rc_view_test_point(const rc_shape_view *s, rc_vec2 p) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_distance_squared(p, s->u.circle.center) <= s->u.circle.radius * s->u.circle.radius;
    case RC_SHAPE_POLYGON:
        return rc_convex_test_point(&s->u.polygon, p);
    case RC_SHAPE_CAPSULE:
        return rc_capsule_distance(s->u.capsule, p).distance <= 0.0f;
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

rc_hull rc_view_hull(const rc_shape_view *s) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_hull_circle(s->u.circle.center, s->u.circle.radius);
    case RC_SHAPE_POLYGON:
        return rc_hull_polygon(s->u.polygon.vertices, s->u.polygon.normals, s->u.polygon.count, 0.0f);
    case RC_SHAPE_CAPSULE:
        return rc_hull_capsule(s->u.capsule.center1, s->u.capsule.center2, s->u.capsule.radius);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_hull_capsule(s->u.segment.a, s->u.segment.b, 0.0f);
}

/* A capsule against anything: the hulls' manifold, its overlap as depths. */
static bool collide_hulls(const rc_shape_view *a, const rc_shape_view *b, rc_manifold *m) {
    rc_hull ha = rc_view_hull(a), hb = rc_view_hull(b);
    rc_collision c = rc_collide_hulls(&ha, &hb, 0.0f);
    if (c.count == 0) {
        return false;
    }
    if (m != NULL) {
        memset(m, 0, sizeof *m);
        m->normal = c.normal;
        m->point_count = c.count;
        for (int i = 0; i < c.count; ++i) {
            m->points[i] = c.points[i].point;
            m->depths[i] = c.points[i].separation < 0.0f ? -c.points[i].separation : 0.0f;
            m->depth = m->depths[i] > m->depth ? m->depths[i] : m->depth;
        }
    }
    return true;
}

bool rc_view_collide(const rc_shape_view *a, const rc_shape_view *b, rc_manifold *m) {
    if (a->kind == RC_SHAPE_CAPSULE || b->kind == RC_SHAPE_CAPSULE) {
        return !(a->kind == RC_SHAPE_SEGMENT && b->kind == RC_SHAPE_SEGMENT) && collide_hulls(a, b, m);
    }
    switch (a->kind) {
    case RC_SHAPE_CIRCLE:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_circles(a->u.circle, b->u.circle, m);
        case RC_SHAPE_POLYGON:
            return flipped(rc_convex_collide_circle(&b->u.polygon, a->u.circle, m), m);
        case RC_SHAPE_SEGMENT:
            return flipped(rc_collide_segment_circle(b->u.segment.a, b->u.segment.b, a->u.circle, m), m);
        case RC_SHAPE_CAPSULE:
            break;
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
        case RC_SHAPE_CAPSULE:
            break;
        }
        break;
    case RC_SHAPE_SEGMENT:
        switch (b->kind) {
        case RC_SHAPE_CIRCLE:
            return rc_collide_segment_circle(a->u.segment.a, a->u.segment.b, b->u.circle, m);
        case RC_SHAPE_POLYGON:
            return rc_segment_collide_convex(a->u.segment.a, a->u.segment.b, &b->u.polygon, m);
        case RC_SHAPE_SEGMENT:
        case RC_SHAPE_CAPSULE:
            break;
        }
        break;
    case RC_SHAPE_CAPSULE:
        break;
    }
    return false;
}
