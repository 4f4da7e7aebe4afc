/* Seams: a circle meeting the corner of a static or kinematic polygon where another such shape
 * runs on flat through that corner (boxes laid edge to edge: a floor, a wall of blocks) meets
 * the surface the two make, not the corner. At the corner the manifold's normal points from the
 * vertex to the circle, tilted back against the motion, and a grenade rolling over a floor of
 * boxes hopped up to 0.06 at every seam, reporting an impact each time. Chains are smooth by
 * their ghost vertices; polygons laid side by side have no such links, so the neighbour is
 * looked up in the grid, and only for a contact at a corner. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

typedef struct seam_query {
    const rc_world *world;
    const rc_shape *circle, *polygon; /* the contact's two shapes */
    rc_vec2 corner, toward;           /* the corner, and the contact's normal towards the circle */
    rc_vec2 faces[2];                 /* the normals of the polygon's two faces at the corner */
    float tol;
    rc_vec2 best_normal;
    float best_facing;
} seam_query;

/* A face of `shape` through the corner (within tol), facing the circle: the most facing one. */
static bool face_through_corner(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    seam_query *q = context;
    const rc_shape *s = &q->world->shapes.data[user];
    if (s == q->polygon || s == q->circle || s->sensor || s->body_type == RC_DYNAMIC || s->kind != RC_SHAPE_POLYGON ||
        !rc_shapes_should_pair(q->world, q->circle, s)) {
        return true;
    }
    rc_shape_view v = rc_shape_view_of(q->world, s);
    const rc_convex *p = &v.u.polygon;
    for (int i = 0; i < p->count; ++i) {
        rc_vec2 a = p->vertices[i], b = p->vertices[i + 1 < p->count ? i + 1 : 0];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
        double len = sqrt(ex * ex + ey * ey);
        if (!(len > 0.0)) {
            continue;
        }
        double wx = (double)q->corner.x - a.x, wy = (double)q->corner.y - a.y;
        double off = (ey * wx - ex * wy) / len, along = (ex * wx + ey * wy) / len;
        rc_vec2 n = p->normals[i];
        float facing = rc_dot(n, q->toward);
        /* through the corner (its ends included: two boxes' corners meet there), running on
           from one of the polygon's faces there (the same line: a flat floor, not a wall that
           rises from it), and facing the circle */
        bool runs_on = rc_dot(n, q->faces[0]) > 1.0f - 1e-5f || rc_dot(n, q->faces[1]) > 1.0f - 1e-5f;
        if (runs_on && fabs(off) <= q->tol && along >= -q->tol && along <= len + q->tol && facing > q->best_facing) {
            q->best_facing = facing;
            q->best_normal = p->normals[i];
        }
    }
    return true;
}

/* The corner of polygon view p that the circle touches (its nearest vertex within tol of the
 * touch point), when the normal is none of its two faces'; false otherwise. */
static bool touched_corner(const rc_convex *p, rc_vec2 touch, rc_vec2 toward, float tol, rc_vec2 *corner,
                           rc_vec2 faces[2]) {
    for (int i = 0; i < p->count; ++i) {
        if (rc_distance(p->vertices[i], touch) > tol) {
            continue;
        }
        int before = i > 0 ? i - 1 : p->count - 1;
        faces[0] = p->normals[before];
        faces[1] = p->normals[i];
        bool on_face = rc_dot(faces[0], toward) > 1.0f - 1e-5f || rc_dot(faces[1], toward) > 1.0f - 1e-5f;
        *corner = p->vertices[i];
        return !on_face;
    }
    return false;
}

void rc_smooth_seam(const rc_world *world, const rc_shape *a, const rc_shape *b, rc_collision *m) {
    if (m->count != 1) {
        return;
    }
    bool circle_is_b = b->kind == RC_SHAPE_CIRCLE && a->kind == RC_SHAPE_POLYGON && a->body_type != RC_DYNAMIC;
    bool circle_is_a = a->kind == RC_SHAPE_CIRCLE && b->kind == RC_SHAPE_POLYGON && b->body_type != RC_DYNAMIC;
    if (!circle_is_a && !circle_is_b) {
        return;
    }
    const rc_shape *circle = circle_is_b ? b : a, *polygon = circle_is_b ? a : b;
    rc_vec2 toward = circle_is_b ? m->normal : rc_neg(m->normal);
    rc_vec2 c = circle->circle.center;
    float r = circle->circle.radius;
    rc_vec2 touch = rc_mul_add(c, -(r + m->points[0].separation), toward);
    float scale = rc_maxf(1.0f, rc_maxf(fabsf(touch.x), fabsf(touch.y)));
    float tol = 64.0f * FLT_EPSILON * scale;
    rc_shape_view pv = rc_shape_view_of(world, polygon);
    rc_vec2 corner, faces[2];
    if (!touched_corner(&pv.u.polygon, touch, toward, 4.0f * tol + 1e-4f * r, &corner, faces)) {
        return;
    }
    seam_query q = {world, circle, polygon, corner, toward, {faces[0], faces[1]}, tol, {0.0f, 0.0f}, 0.0f};
    rc_aabb box = {{corner.x - tol, corner.y - tol}, {corner.x + tol, corner.y + tol}};
    rc_world_query_grids(world, box, false, face_through_corner, &q);
    if (q.best_facing <= 0.0f) {
        return; /* a real corner: nothing runs on through it */
    }
    /* the surface the two make: its normal, and the separation along it from the corner */
    rc_vec2 n = q.best_normal;
    float separation = rc_dot(rc_sub(c, corner), n) - r;
    m->normal = circle_is_b ? n : rc_neg(n);
    m->points[0].separation = separation;
    m->points[0].point = rc_mul_add(c, -(r + 0.5f * separation), n);
}
