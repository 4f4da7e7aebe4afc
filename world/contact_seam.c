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
#include <string.h>

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

/* ---- solids at seams ------------------------------------------------------------------------ */

/* Solids meet the same seams: a crate sliding over a floor of boxes laid edge to edge reached
 * each next box's corner a little sunk into the surface (the soft contact sags), and the
 * narrow phase, looking at that box alone, found its least overlap (or, a little before,
 * speculatively, its largest gap) across the box's side face, which its neighbour covers: the
 * crate was stopped dead and tipped over at the first seam. A face that a neighbour's face
 * covers is no surface; and where a neighbour's face runs on through a corner, the surface is
 * flat there. So the polygon is met as the chain of its faces that are surfaces, each with its
 * neighbour's run-on as its ghost (rc_collide_chain_wall: smooth over flat joints). */

typedef struct solid_seam_query {
    const rc_world *world;
    const rc_shape *polygon, *other;
    rc_vec2 a, b, n; /* a face of the polygon and its outward normal (covered), or the corner a
                        and the face's direction beyond it (run on) */
    rc_vec2 outward; /* (run on) the face's outward normal */
    float tol;
    bool found;
    bool any_filter;    /* neighbours whatever their filters say of `other` (the seam cache's) */
    int32_t found_user; /* the neighbour found */
} solid_seam_query;

/* Shape `user` as placed, when it is another static or kinematic polygon the solid meets (else
 * NULL). */
static const rc_convex *neighbour(const solid_seam_query *q, int32_t user, rc_shape_view *v) {
    const rc_shape *s = &q->world->shapes.data[user];
    if (s == q->polygon || s == q->other || s->sensor || s->body_type == RC_DYNAMIC || s->kind != RC_SHAPE_POLYGON ||
        (q->polygon->body_type == RC_KINEMATIC && s->body != q->polygon->body) ||
        (!q->any_filter && !rc_shapes_should_pair(q->world, q->other, s))) {
        return NULL;
    }
    *v = rc_shape_view_of(q->world, s);
    return &v->u.polygon;
}

/* Does a face of `shape` lie along the face a..b facing it, over all of a..b? */
static bool face_covers(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    solid_seam_query *q = context;
    rc_shape_view v;
    const rc_convex *p = neighbour(q, user, &v);
    if (p == NULL) {
        return true;
    }
    for (int i = 0; i < p->count && !q->found; ++i) {
        rc_vec2 c = p->vertices[i], d = p->vertices[i + 1 < p->count ? i + 1 : 0];
        if (rc_dot(p->normals[i], q->n) > -1.0f + 1e-5f) {
            continue;
        }
        rc_vec2 e = rc_sub(d, c);
        float len = rc_length(e);
        if (!(len > 0.0f)) {
            continue;
        }
        rc_vec2 u = rc_scale(1.0f / len, e);
        float off_a = rc_cross(u, rc_sub(q->a, c)), off_b = rc_cross(u, rc_sub(q->b, c));
        float at_a = rc_dot(u, rc_sub(q->a, c)), at_b = rc_dot(u, rc_sub(q->b, c));
        q->found = fabsf(off_a) <= q->tol && fabsf(off_b) <= q->tol && rc_minf(at_a, at_b) >= -q->tol &&
                   rc_maxf(at_a, at_b) <= len + q->tol;
    }
    q->found_user = q->found ? user : -1;
    return !q->found;
}

/* Does a face of `shape` with the same outward normal run on from the corner a in direction n? */
static bool face_runs_on(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    solid_seam_query *q = context;
    rc_shape_view v;
    const rc_convex *p = neighbour(q, user, &v);
    if (p == NULL) {
        return true;
    }
    rc_vec2 outward = q->outward;
    for (int i = 0; i < p->count && !q->found; ++i) {
        rc_vec2 c = p->vertices[i], d = p->vertices[i + 1 < p->count ? i + 1 : 0];
        if (rc_dot(p->normals[i], outward) < 1.0f - 1e-5f) {
            continue;
        }
        float off = rc_cross(q->n, rc_sub(c, q->a));
        float near = rc_minf(rc_dot(q->n, rc_sub(c, q->a)), rc_dot(q->n, rc_sub(d, q->a)));
        float far = rc_maxf(rc_dot(q->n, rc_sub(c, q->a)), rc_dot(q->n, rc_sub(d, q->a)));
        q->found = fabsf(off) <= q->tol && near <= q->tol && far > q->tol;
    }
    q->found_user = q->found ? user : -1;
    return !q->found;
}

/* Asks fn about the other static polygons near the box of p and r: a static polygon's in the
 * level's grid, a kinematic one's among its own body's shapes (a platform of boxes: they move as
 * one), one by one when they are few (a drum's four walls, whose long faces' boxes would hold a
 * crowd in the moving grid), else in the moving grid (a turning maze of a thousand boxes). */
#define SEAM_FEW_SHAPES 8

static bool ask_around(solid_seam_query *q, rc_vec2 p, rc_vec2 r, rc_grid_query_fn *fn) {
    q->found = false;
    rc_aabb box = {{rc_minf(p.x, r.x) - q->tol, rc_minf(p.y, r.y) - q->tol},
                   {rc_maxf(p.x, r.x) + q->tol, rc_maxf(p.y, r.y) + q->tol}};
    if (q->polygon->body_type == RC_STATIC) {
        rc_grid_query_aabb_trusted(q->world->level_grid, box, true, fn, q);
        return q->found;
    }
    const rc_body *body = &q->world->bodies.data[q->polygon->body];
    int32_t count = 0;
    for (int32_t s = body->first_shape; s >= 0 && count <= SEAM_FEW_SHAPES; s = q->world->shapes.data[s].next_in_body) {
        ++count;
    }
    if (count > SEAM_FEW_SHAPES) {
        rc_world_query_grids(q->world, box, false, fn, q);
        return q->found;
    }
    for (int32_t s = body->first_shape; s >= 0 && !q->found; s = q->world->shapes.data[s].next_in_body) {
        (void)fn(-1, s, q);
    }
    return q->found;
}

/* ask_around's answer through a slot of the seam cache (NULL: none, asked as it is). The slot
 * keeps a neighbour found whatever the filters say (-1: none at all, SEAM_UNKNOWN: not asked
 * yet); the answer for this solid is yes when that neighbour pairs with it, no when there is
 * none, and asked as it is otherwise (another neighbour may): the answers are the ones the grid
 * gives, so the cache changes no result. */
#define SEAM_UNKNOWN (-2)

static bool ask_kept(solid_seam_query *q, int32_t *slot, rc_vec2 p, rc_vec2 r, rc_grid_query_fn *fn) {
    if (slot == NULL) {
        return ask_around(q, p, r, fn);
    }
    if (*slot == SEAM_UNKNOWN) {
        q->any_filter = true;
        *slot = ask_around(q, p, r, fn) ? q->found_user : -1;
        q->any_filter = false;
    }
    if (*slot < 0) {
        return false;
    }
    return rc_shapes_should_pair(q->world, q->other, &q->world->shapes.data[*slot]) || ask_around(q, p, r, fn);
}

/* Does a neighbour's face cover the polygon's face a..b (outward: its normal) whole? */
static bool face_covered(solid_seam_query *q, int32_t *slot, rc_vec2 a, rc_vec2 b, rc_vec2 outward) {
    q->a = a;
    q->b = b;
    q->n = outward;
    return ask_kept(q, slot, a, b, face_covers);
}

/* Does a neighbour's face run on flat through `corner`, beyond the end of the face from `other`
 * (outward: the face's normal)? */
static bool seam_runs_on(solid_seam_query *q, int32_t *slot, rc_vec2 corner, rc_vec2 other, rc_vec2 outward) {
    q->a = corner;
    q->n = rc_normalize(rc_sub(corner, other));
    q->outward = outward;
    return ask_kept(q, slot, corner, corner, face_runs_on);
}

/* The ghost of a face (outward: its normal) beyond its end `corner` (`other`: its other end):
 * where a neighbour's face runs on through the corner, a point on the face's own line (a flat
 * joint); else the polygon's corner there, `fallback`. */
static rc_vec2 ghost_beyond(solid_seam_query *q, int32_t *slot, rc_vec2 corner, rc_vec2 other, rc_vec2 outward,
                            rc_vec2 fallback) {
    return seam_runs_on(q, slot, corner, other, outward) ? rc_add(corner, rc_sub(corner, other)) : fallback;
}

void rc_seam_cache_free(rc_world *world) {
    rc_seam_cache *c = &world->seams;
    rc_map_free(&world->allocator, &c->map);
    rc_mem_free(&world->allocator, c->faces, sizeof(rc_seam_faces) * (size_t)c->capacity);
    memset(c, 0, sizeof *c);
}

/* The cache's entry for a static polygon (emptied first when the level changed), or NULL when
 * there is no memory for it (then the grid is asked every time, as without the cache). Kinematic
 * polygons have none: their neighbours are their own body's few shapes. */
static rc_seam_faces *kept_faces(rc_world *world, const rc_shape *polygon) {
    if (polygon->body_type != RC_STATIC) {
        return NULL;
    }
    rc_seam_cache *c = &world->seams;
    if (c->revision != world->level_revision + 1u) {
        rc_map_clear(&c->map);
        c->count = 0;
        c->revision = world->level_revision + 1u;
    }
    uint64_t key = (uint64_t)(polygon - world->shapes.data);
    int32_t entry = rc_map_get(&c->map, key);
    if (entry >= 0) {
        return &c->faces[entry];
    }
    if (!rc_map_reserve(&world->allocator, &c->map, 1) ||
        !rc_mem_reserve(&world->allocator, (void **)&c->faces, &c->capacity, c->count, c->count + 1,
                        sizeof(rc_seam_faces))) {
        return NULL;
    }
    entry = c->count++;
    rc_seam_faces *f = &c->faces[entry];
    for (int i = 0; i < RC_MAX_POLYGON_VERTICES; ++i) {
        f->covered_by[i] = SEAM_UNKNOWN;
        f->runs_on[i][0] = SEAM_UNKNOWN;
        f->runs_on[i][1] = SEAM_UNKNOWN;
    }
    rc_map_set(&c->map, key, entry);
    return f;
}

bool rc_smooth_solid_seam(rc_world *world, const rc_shape *a, const rc_shape *b, float margin, rc_collision *m) {
    if (m->count == 0 || a->sensor || b->sensor) {
        return false;
    }
    bool polygon_is_a = a->kind == RC_SHAPE_POLYGON && a->body_type != RC_DYNAMIC && b->body_type == RC_DYNAMIC;
    bool polygon_is_b = b->kind == RC_SHAPE_POLYGON && b->body_type != RC_DYNAMIC && a->body_type == RC_DYNAMIC;
    const rc_shape *polygon = polygon_is_a ? a : b, *other = polygon_is_a ? b : a;
    if ((!polygon_is_a && !polygon_is_b) || (other->kind != RC_SHAPE_POLYGON && other->kind != RC_SHAPE_CAPSULE)) {
        return false;
    }
    rc_vec2 toward = polygon_is_a ? m->normal : rc_neg(m->normal); /* from the polygon to the other */
    rc_shape_view pv = rc_shape_view_of(world, polygon);
    const rc_convex *p = &pv.u.polygon;
    if (p->count < 3) {
        return false;
    }
    float reach = 1.0f;
    for (int i = 0; i < p->count; ++i) {
        reach = rc_maxf(reach, rc_maxf(fabsf(p->vertices[i].x), fabsf(p->vertices[i].y)));
    }
    solid_seam_query q = {world,  polygon, other, {0, 0}, {0, 0}, {0, 0}, {0, 0}, 64.0f * FLT_EPSILON * reach,
                          false, false, -1};
    int n = p->count, best = 0;
    for (int i = 1; i < n; ++i) {
        best = rc_dot(p->normals[i], toward) > rc_dot(p->normals[best], toward) ? i : best;
    }
    /* on a face (most contacts: a crate resting on a box or sliding over it) with every point
       away from its ends, or that no neighbour covers: as found (a seam's false face is met
       next to its end: the corner where the surface runs on) */
    bool covered[RC_MAX_POLYGON_VERTICES];
    rc_vec2 best_a = p->vertices[best], best_b = p->vertices[(best + 1) % n];
    bool on_face = rc_dot(p->normals[best], toward) >= 1.0f - 1e-5f;
    if (on_face) {
        float end = margin + 4.0f * world->def.linear_slop;
        bool near_end = false;
        for (int k = 0; k < m->count; ++k) {
            near_end = near_end || rc_distance(m->points[k].point, best_a) <= end ||
                       rc_distance(m->points[k].point, best_b) <= end;
        }
        if (!near_end) {
            return false;
        }
    }
    rc_seam_faces *kept = kept_faces(world, polygon);
    covered[best] = face_covered(&q, kept != NULL ? &kept->covered_by[best] : NULL, best_a, best_b, p->normals[best]);
    if (on_face && !covered[best]) {
        return false;
    }
    rc_hull room;
    rc_hull_view hv = rc_shape_hull_view(world, other, &room);
    rc_hull hull = rc_hull_view_transform(&hv, world->bodies.data[other->body].xf);
    rc_hull_view placed = rc_hull_view_of(&hull);
    rc_vec2 middle = rc_hull_middle(&placed); /* as rc_collide_chain_wall tells the sides */
    /* the faces the solid's middle is in front of, met as walls with their ghosts (a face it is
       behind meets nothing: rc_collide_chain_wall); changed: some such face is covered or runs
       on into a neighbour's, else the polygon is met as it is */
    bool changed = false;
    rc_collision found;
    memset(&found, 0, sizeof found);
    float found_least = -INFINITY;
    for (int i = 0; i < n; ++i) {
        rc_vec2 wa = p->vertices[(i + 1) % n], wb = p->vertices[i];
        if (rc_dot(p->normals[i], rc_sub(middle, wb)) < 0.0f) {
            continue;
        }
        if (i != best) {
            covered[i] = face_covered(&q, kept != NULL ? &kept->covered_by[i] : NULL, wb, wa, p->normals[i]);
        }
        if (covered[i]) {
            changed = true;
            continue;
        }
        /* the face reversed (its outside on the left), with its ghosts */
        rc_vec2 prev = ghost_beyond(&q, kept != NULL ? &kept->runs_on[i][0] : NULL, wa, wb, p->normals[i],
                                    p->vertices[(i + 2) % n]);
        rc_vec2 next = ghost_beyond(&q, kept != NULL ? &kept->runs_on[i][1] : NULL, wb, wa, p->normals[i],
                                    p->vertices[(i + n - 1) % n]);
        changed = changed || !rc_vec2_equal(prev, p->vertices[(i + 2) % n]) ||
                  !rc_vec2_equal(next, p->vertices[(i + n - 1) % n]);
        rc_collision c = rc_collide_chain_wall(prev, wa, wb, next, &hull, margin);
        if (c.count == 0) {
            continue;
        }
        float least = c.points[0].separation;
        for (int k = 1; k < c.count; ++k) {
            least = rc_minf(least, c.points[k].separation);
        }
        if (least > found_least) {
            found_least = least;
            found = c;
            for (int k = 0; k < c.count; ++k) {
                found.points[k].id = (uint16_t)(c.points[k].id ^ (uint16_t)(i << 12));
            }
        }
    }
    if (!changed) {
        return false; /* no seam where it is: a real corner, or faces no neighbour touches */
    }
    if (found.count == 0) {
        /* touching only faces its neighbours cover, from over a neighbour: no contact with this
           one; but a solid whose middle is within the polygon is pushed out by the full overlap */
        bool inside = true;
        for (int i = 0; i < n; ++i) {
            inside = inside && rc_dot(p->normals[i], rc_sub(middle, p->vertices[i])) < 0.0f;
        }
        if (inside) {
            return false;
        }
    }
    /* the walls' normal runs from the polygon to the other */
    found.normal = polygon_is_a ? found.normal : rc_neg(found.normal);
    *m = found;
    return true;
}

/* Does a body moving by `motion` in the step, its points turning by at most `swing` more, slide
 * along a surface of normal n rather than come at it: into it (the swing counted as into it) at
 * most half as far as along it and no deeper than `depth`, or by no more than a slop? (A ratio
 * alone let a capsule thrown at 900 units/s, 4 units into a ceiling of tiles 0.1 thick and 20
 * along it in a step, through: every seam it met was taken for one it slid over.) */
static bool slides_along(const rc_world *world, rc_vec2 motion, float swing, float depth, rc_vec2 n) {
    float into = -rc_dot(motion, n);
    rc_vec2 along = rc_mul_add(motion, into, n);
    into += swing;
    return (into <= 0.5f * rc_length(along) && into <= depth) || into <= world->def.linear_slop;
}

bool rc_seam_hidden(const rc_world *world, const rc_shape *polygon, const rc_shape *other, rc_vec2 point,
                    rc_vec2 outward, rc_vec2 motion, float swing, float depth) {
    if (polygon->kind != RC_SHAPE_POLYGON || polygon->body_type == RC_DYNAMIC) {
        return false;
    }
    rc_shape_view pv = rc_shape_view_of(world, polygon);
    const rc_convex *p = &pv.u.polygon;
    float reach = rc_maxf(1.0f, rc_maxf(fabsf(point.x), fabsf(point.y)));
    float tol = 64.0f * FLT_EPSILON * reach;
    float near = 2.0f * world->def.linear_slop + tol, skin = 4.0f * world->def.linear_slop + tol;
    solid_seam_query q = {world, polygon, other, {0, 0}, {0, 0}, {0, 0}, {0, 0}, tol, false, false, -1};
    int n = p->count;
    for (int i = 0; i < n; ++i) {
        rc_vec2 a = p->vertices[i], b = p->vertices[(i + 1) % n];
        int before = (i + n - 1) % n, after = (i + 2) % n;
        /* at corner a: met from beyond face i - 1's end or face i's start, where a neighbour's
           face runs on flat through it, tilted towards that side, by a body sliding along that
           surface (one that comes at it, a plank struck spinning into a floor of thin boxes,
           is stopped: hidden at every seam it met, it went through) */
        if (rc_distance(a, point) <= near) {
            rc_vec2 from_b = rc_normalize(rc_sub(a, b)), from_before = rc_normalize(rc_sub(a, p->vertices[before]));
            if ((rc_dot(outward, from_b) > 0.0f && slides_along(world, motion, swing, depth, p->normals[i]) &&
                 seam_runs_on(&q, NULL, a, b, p->normals[i])) ||
                (rc_dot(outward, from_before) > 0.0f && slides_along(world, motion, swing, depth, p->normals[before]) &&
                 seam_runs_on(&q, NULL, a, p->vertices[before], p->normals[before]))) {
                return true;
            }
        }
        /* on face i, which a neighbour covers, within a skin of its end where the surface runs
           on over the seam, by a body sliding along that surface (a crate sliding over the floor
           meets the next box's side face just below its top; deeper in, or coming at the
           floor, it meets it as a wall) */
        if (rc_dot(p->normals[i], outward) >= 1.0f - 1e-4f && fabsf(rc_dot(p->normals[i], rc_sub(point, a))) <= near) {
            bool at_a = rc_distance(a, point) <= skin &&
                        slides_along(world, motion, swing, depth, p->normals[before]) &&
                        seam_runs_on(&q, NULL, a, p->vertices[before], p->normals[before]);
            bool at_b = !at_a && rc_distance(b, point) <= skin &&
                        slides_along(world, motion, swing, depth, p->normals[(i + 1) % n]) &&
                        seam_runs_on(&q, NULL, b, p->vertices[after], p->normals[(i + 1) % n]);
            if ((at_a || at_b) && face_covered(&q, NULL, a, b, p->normals[i])) {
                return true;
            }
        }
    }
    return false;
}
