/* World queries: rays and swept circles through the grid's walk, overlaps through its box and
 * point queries; the exact tests come from shapes/. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

rc_query_filter rc_default_query_filter(void) {
    rc_query_filter f = {UINT32_MAX, UINT32_MAX, 0, {0u, 0u}};
    return f;
}

/* Is the filter's ignore_body null or a live body of this world? Else the query is refused. */
static bool filter_ok(const rc_world *world, const rc_query_filter *filter, const char *func) {
    return filter == NULL || rc_body_id_is_null(filter->ignore_body) || rc_get_body(world, filter->ignore_body, func) != NULL;
}


/* ---- casts ------------------------------------------------------------------------------------ */

typedef struct cast_context {
    const rc_world *world;
    rc_vec2 origin, translation;
    float radius; /* 0 for rays */
    bool filtered; /* the unfiltered casts see every shape but sensors */
    rc_query_filter filter;
    /* closest mode */
    rc_ray_hit best;
    int32_t best_index;
    int32_t last_user; /* the shape the last offer named (a wall's pieces: rc_world_cast_grids) */
    const rc_cast_record *best_record; /* the best's record when the lean copy gave it, else NULL */
    /* callback mode */
    rc_cast_fn *fn;
    void *user;
} cast_context;

static bool cast_shape(const cast_context *c, int32_t index, rc_ray_hit *hit) {
    const rc_shape *s = &c->world->shapes.data[index];
    if (s->sensor || (c->filtered && !rc_query_sees(s, c->filter)) || !rc_shape_faces(s, c->origin)) {
        return false;
    }
    rc_shape_view v = rc_shape_view_of(c->world, s);
    return rc_view_cast(&v, c->origin, c->radius, c->translation, hit);
}

/* The ids of a hit, filled only for the hits that are kept (they live in colder memory). */
static void name_hit(const rc_world *world, int32_t index, rc_ray_hit *hit) {
    hit->shape = rc_shape_id_of(world, index);
    hit->body = rc_body_id_of(world, world->shapes.data[index].body);
}

/* The closest-hit test of one shape the walk reached: the walk's new end. */
static inline float closest_test(cast_context *c, int32_t user, float max_fraction) {
    if (user == c->last_user) {
        return max_fraction; /* the next piece of a wall: rc_world_cast_grids */
    }
    c->last_user = user;
    rc_ray_hit hit;
    if (!cast_shape(c, user, &hit) || hit.t > max_fraction) {
        return max_fraction;
    }
    if (c->best_index < 0 || hit.t < c->best.t || (hit.t == c->best.t && user < c->best_index)) {
        c->best = hit;
        c->best_index = user;
        c->best_record = NULL;
    }
    return c->best.t;
}

static float closest_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    return closest_test(context, user, max_fraction);
}

/* closest_test on a level shape's cast record (level_lean.h): the same checks and the same
 * exact test on the same numbers. The walk's last offer is kept as the record's offset. */
static float lean_closest_fn(int32_t offset, float max_fraction, void *context) {
    cast_context *c = context;
    if (offset == c->last_user) {
        return max_fraction; /* the next piece of a wall */
    }
    c->last_user = offset;
    const rc_cast_record *r = rc_cast_record_at(&c->world->level_lean, offset);
    if ((c->filtered && !rc_query_sees_parts(r->body, r->filter, c->filter)) ||
        (r->one_sided && !rc_segment_faces(rc_cast_record_data(r)[0], rc_cast_record_data(r)[1], c->origin))) {
        return max_fraction;
    }
    rc_shape_view v = rc_cast_record_view(r);
    rc_ray_hit hit;
    if (!rc_view_cast(&v, c->origin, c->radius, c->translation, &hit) || hit.t > max_fraction) {
        return max_fraction;
    }
    if (c->best_index < 0 || hit.t < c->best.t || (hit.t == c->best.t && r->shape < c->best_index)) {
        c->best = hit;
        c->best_index = r->shape;
        c->best_record = r;
    }
    return c->best.t;
}

/* A ray or swept circle through the level's lean copy (the levels it holds), the level grid's
 * other levels, then the grid of the shapes that move: rc_world_cast_grids' walk, each shape the
 * same test. */
static void cast_lean(const rc_world *world, const rc_level_lean *lean, cast_context *c) {
    float max_t = 1.0f;
    uint64_t left = rc_grid_lean_cast(&lean->cells, c->origin, c->radius, c->translation, &max_t, lean_closest_fn, c);
    c->last_user = -1; /* (shape indices from here) */
    if (left != 0) {
        rc_grid_cast_levels(world->level_grid, left, c->origin, c->radius, c->translation, max_t, false, closest_fn, c);
        max_t = c->best_index >= 0 ? c->best.t : max_t;
    }
    if (rc_grid_may_offer(world->grid, false)) {
        rc_grid_cast_trusted(world->grid, c->origin, c->radius, c->translation, max_t, false, closest_fn, c);
    }
}

static bool cast_inputs_ok(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                           const char *func) {
    if (world == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation)) {
        return rc_fail(world, func, "origin (%g, %g) or translation (%g, %g) is not finite", (double)origin.x,
                       (double)origin.y, (double)translation.x, (double)translation.y);
    }
    if (!rc_is_finite(radius) || radius < 0.0f) {
        return rc_fail(world, func, "radius %g must be finite and >= 0", (double)radius);
    }
    return true;
}

/* filter NULL: every shape but sensors. */
static bool cast_closest(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                         const rc_query_filter *filter, rc_ray_hit *hit, const char *func) {
    if (!cast_inputs_ok(world, origin, radius, translation, func) || !filter_ok(world, filter, func)) {
        return false;
    }
    return rc_cast_closest_trusted(world, origin, radius, translation, filter, hit);
}

bool rc_cast_closest_trusted(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                             const rc_query_filter *filter, rc_ray_hit *hit) {
    cast_context c;
    c.world = world;
    c.origin = origin;
    c.translation = translation;
    c.radius = radius;
    c.fn = NULL;
    c.user = NULL;
    c.filtered = filter != NULL;
    c.filter = filter != NULL ? *filter : rc_default_query_filter();
    c.best_index = -1;
    c.best_record = NULL;
    c.last_user = -1;
    const rc_level_lean *lean = rc_fresh_level_lean(world);
    if (lean != NULL) {
        cast_lean(world, lean, &c);
    } else {
        rc_world_cast_grids(world, origin, radius, translation, 1.0f, false, closest_fn, &c);
    }
    if (c.best_index < 0) {
        return false;
    }
    if (hit != NULL) {
        *hit = c.best;
        if (c.best_record != NULL) {
            /* (the ids from the record: the shape's and body's records stay unread) */
            hit->shape.index = (uint32_t)c.best_index + 1u;
            hit->shape.generation = c.best_record->shape_generation;
            hit->body.index = (uint32_t)c.best_record->body + 1u;
            hit->body.generation = c.best_record->body_generation;
        } else {
            name_hit(world, c.best_index, hit);
        }
    }
    return true;
}

bool rc_world_cast_ray(const rc_world *world, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    return cast_closest(world, origin, 0.0f, translation, NULL, hit, __func__);
}

bool rc_world_cast_ray_filtered(const rc_world *world, rc_vec2 origin, rc_vec2 translation, rc_query_filter filter,
                                rc_ray_hit *hit) {
    return cast_closest(world, origin, 0.0f, translation, &filter, hit, __func__);
}

bool rc_world_cast_circle(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit) {
    return cast_closest(world, origin, radius, translation, NULL, hit, __func__);
}

bool rc_world_cast_circle_filtered(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                                   rc_query_filter filter, rc_ray_hit *hit) {
    return cast_closest(world, origin, radius, translation, &filter, hit, __func__);
}

static float each_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    cast_context *c = context;
    rc_ray_hit hit;
    if (!cast_shape(c, user, &hit) || hit.t > max_fraction) {
        return max_fraction;
    }
    /* a long wall of the level is offered by each of its pieces the cast reaches: the one whose
       box holds the wall's point nearest the hit reports it (a circle that starts on the wall
       hits at its centre; the cast reaches that point's piece either way) */
    const rc_shape *s = &c->world->shapes.data[user];
    if (s->kind == RC_SHAPE_SEGMENT && s->body_type == RC_STATIC) {
        rc_vec2 on = rc_nearest_point_on_segment(s->segment[0], s->segment[1], hit.point);
        if (!rc_grid_piece_holds_first(c->world->level_grid, proxy, on)) {
            return max_fraction;
        }
    }
    name_hit(c->world, user, &hit);
    float r = c->fn(&hit, c->user);
    if (r < 0.0f) {
        return max_fraction; /* ignore this hit */
    }
    if (r == 0.0f) {
        return -1.0f; /* stop */
    }
    return r < max_fraction ? r : max_fraction;
}

static bool cast_each(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                      rc_query_filter filter, rc_cast_fn *fn, void *user, const char *func) {
    if (!cast_inputs_ok(world, origin, radius, translation, func) || !filter_ok(world, &filter, func)) {
        return false;
    }
    if (fn == NULL) {
        return rc_fail(world, func, "fn is NULL");
    }
    cast_context c;
    memset(&c, 0, sizeof c);
    c.world = world;
    c.origin = origin;
    c.translation = translation;
    c.radius = radius;
    c.filtered = true;
    c.filter = filter;
    c.fn = fn;
    c.user = user;
    /* fn may query the world; anything it tries to change is refused until the walk is done */
    rc_world_lock(world);
    rc_world_cast_grids(world, origin, radius, translation, 1.0f, false, each_fn, &c);
    rc_world_unlock(world);
    return true;
}

bool rc_world_cast_ray_all(const rc_world *world, rc_vec2 origin, rc_vec2 translation, rc_query_filter filter,
                           rc_cast_fn *fn, void *context) {
    return cast_each(world, origin, 0.0f, translation, filter, fn, context, __func__);
}

bool rc_world_cast_circle_all(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                              rc_query_filter filter, rc_cast_fn *fn, void *context) {
    return cast_each(world, origin, radius, translation, filter, fn, context, __func__);
}

/* ---- a polygon swept through the world ------------------------------------------------------ */

typedef struct polygon_cast {
    const rc_world *world;
    rc_hull moving;       /* the polygon where it starts, in the world */
    rc_vec2 centroid, translation;
    rc_query_filter filter;
    rc_ray_hit best;
    int32_t best_index;
    int32_t last_user; /* the shape the last offer named (a wall's pieces: rc_world_cast_grids) */
} polygon_cast;

/* The polygon's first touch of one shape along the translation. */
static bool polygon_hits(const polygon_cast *c, int32_t index, rc_ray_hit *hit) {
    const rc_shape *s = &c->world->shapes.data[index];
    if (s->sensor || !rc_query_sees(s, c->filter) || !rc_shape_faces(s, c->centroid)) {
        return false;
    }
    rc_shape_view v = rc_shape_view_of(c->world, s);
    rc_hull still = rc_view_hull(&v);
    float t;
    rc_vec2 normal, point;
    bool inside;
    if (!rc_cast_hulls(&c->moving, c->translation, &still, &t, &normal, &point, &inside)) {
        return false;
    }
    memset(hit, 0, sizeof *hit);
    hit->t = t;
    hit->normal = normal;
    hit->point = point;
    if (inside) {
        /* overlapping from the start (beyond the cast's rounding): the way out is the manifold's
           normal, or the cast's separating axis where the manifold has none */
        rc_collision m = rc_collide_hulls(&still, &c->moving, 0.0f);
        hit->started_inside = true;
        hit->normal = m.count > 0 ? m.normal : normal;
        hit->point = c->centroid;
    }
    return true;
}

static float polygon_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    polygon_cast *c = context;
    if (user == c->last_user) {
        return max_fraction; /* the next piece of a wall: rc_world_cast_grids */
    }
    c->last_user = user;
    rc_ray_hit hit;
    if (!polygon_hits(c, user, &hit) || hit.t > max_fraction) {
        return max_fraction;
    }
    if (c->best_index < 0 || hit.t < c->best.t || (hit.t == c->best.t && user < c->best_index)) {
        c->best = hit;
        c->best_index = user;
    }
    return c->best.t;
}

/* What rc_polygon_input_ok refuses (geometry.h, rc_polygon). */
#define BAD_POLYGON                                                                                                    \
    "the polygon is NULL or not one rc_make_polygon gives: 3 to %d finite vertices, strictly convex and "              \
    "counter-clockwise, each normal its edge's unit outward one, the centroid inside"

bool rc_world_cast_polygon(const rc_world *world, const rc_polygon *polygon, rc_vec2 translation,
                           rc_query_filter filter, rc_ray_hit *hit) {
    if (world == NULL) {
        return false;
    }
    if (!rc_polygon_input_ok(polygon)) {
        return rc_fail(world, __func__, BAD_POLYGON, RC_MAX_POLYGON_VERTICES);
    }
    if (!rc_vec2_is_finite(translation)) {
        return rc_fail(world, __func__, "translation (%g, %g) is not finite", (double)translation.x,
                       (double)translation.y);
    }
    if (!filter_ok(world, &filter, __func__)) {
        return false;
    }
    rc_aabb box = rc_polygon_box(polygon);
    rc_aabb end = {rc_add(box.lower, translation), rc_add(box.upper, translation)};
    if (!rc_box_in_world(box) || !rc_box_in_world(end)) {
        return rc_fail(world, __func__, "the polygon or its sweep reaches beyond RC_WORLD_LIMIT");
    }
    if (translation.x == 0.0f && translation.y == 0.0f) {
        return false; /* a sweep of no length meets nothing, as a ray of none */
    }
    polygon_cast c;
    c.world = world;
    c.moving = rc_hull_polygon(polygon->vertices, polygon->normals, polygon->count, 0.0f);
    c.centroid = polygon->centroid;
    c.translation = translation;
    c.filter = filter;
    c.best_index = -1;
    c.last_user = -1;
    /* the grid walks a circle round the polygon from its centroid */
    float reach = 0.0f;
    for (int i = 0; i < polygon->count; ++i) {
        reach = rc_maxf(reach, rc_length(rc_sub(polygon->vertices[i], polygon->centroid)));
    }
    rc_world_cast_grids(world, polygon->centroid, reach, translation, 1.0f, false, polygon_fn, &c);
    if (c.best_index < 0) {
        return false;
    }
    if (hit != NULL) {
        *hit = c.best;
        name_hit(world, c.best_index, hit);
    }
    return true;
}

/* ---- overlaps --------------------------------------------------------------------------------- */

typedef enum overlap_kind { OVERLAP_BOX, OVERLAP_POINT, OVERLAP_CIRCLE, OVERLAP_POLYGON } overlap_kind;

typedef struct overlap_context {
    const rc_world *world;
    overlap_kind kind;
    rc_vec2 point; /* point, or circle centre */
    rc_aabb box;   /* box queries */
    float radius;
    rc_hull polygon; /* polygon queries */
    rc_query_filter filter;
    rc_overlap_fn *fn;
    void *user;
    int32_t count;
} overlap_context;

static bool overlap_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    overlap_context *c = context;
    const rc_shape *s = &c->world->shapes.data[user];
    if (!rc_query_sees(s, c->filter)) {
        return true;
    }
    if (c->kind == OVERLAP_BOX && !rc_aabb_overlaps(s->aabb, c->box)) {
        return true; /* a swept circle's proxy is a little larger than its box */
    }
    if (c->kind == OVERLAP_POLYGON) {
        rc_shape_view v = rc_shape_view_of(c->world, s);
        rc_hull h = rc_view_hull(&v);
        if (rc_collide_hulls(&c->polygon, &h, 0.0f).count == 0) {
            return true;
        }
    } else if (c->kind != OVERLAP_BOX) {
        rc_shape_view v = rc_shape_view_of(c->world, s);
        if (c->kind == OVERLAP_POINT ? !rc_view_test_point(&v, c->point)
                                     : rc_view_distance(&v, c->point).distance > c->radius) {
            return true;
        }
    }
    c->count++;
    if (c->fn == NULL) {
        return true;
    }
    return c->fn(rc_shape_id_of(c->world, user), rc_body_id_of(c->world, s->body), c->user);
}

static overlap_context overlap_start(const rc_world *world, overlap_kind kind, rc_query_filter filter,
                                     rc_overlap_fn *fn, void *user) {
    overlap_context c;
    memset(&c, 0, sizeof c);
    c.world = world;
    c.kind = kind;
    c.filter = filter;
    c.fn = fn;
    c.user = user;
    return c;
}

/* The shapes near the box through the grid, each through the game's fn with the world locked:
 * fn may query the world; anything it tries to change is refused until the query is done. */
static int32_t overlap_run(overlap_context *c, rc_aabb box) {
    if (c->fn != NULL) {
        rc_world_lock(c->world);
    }
    if (c->kind == OVERLAP_POINT) {
        rc_world_query_point_grids(c->world, box.lower, overlap_fn, c);
    } else {
        rc_world_query_grids(c->world, box, false, overlap_fn, c);
    }
    if (c->fn != NULL) {
        rc_world_unlock(c->world);
    }
    return c->count;
}

int32_t rc_world_overlap_aabb(const rc_world *world, rc_aabb box, rc_query_filter filter, rc_overlap_fn *fn,
                              void *context) {
    if (world == NULL) {
        return -1;
    }
    if (!rc_aabb_is_valid(box)) {
        return rc_fail(world, __func__, "the box is not finite or has lower > upper"), -1;
    }
    if (!filter_ok(world, &filter, __func__)) {
        return -1;
    }
    overlap_context c = overlap_start(world, OVERLAP_BOX, filter, fn, context);
    c.box = box;
    return overlap_run(&c, box);
}

int32_t rc_world_overlap_point(const rc_world *world, rc_vec2 point, rc_query_filter filter, rc_overlap_fn *fn,
                               void *context) {
    if (world == NULL) {
        return -1;
    }
    if (!rc_vec2_is_finite(point)) {
        return rc_fail(world, __func__, "the point is not finite"), -1;
    }
    if (!filter_ok(world, &filter, __func__)) {
        return -1;
    }
    overlap_context c = overlap_start(world, OVERLAP_POINT, filter, fn, context);
    c.point = point;
    rc_aabb box = {point, point};
    return overlap_run(&c, box);
}

int32_t rc_world_overlap_circle(const rc_world *world, rc_vec2 center, float radius, rc_query_filter filter,
                                rc_overlap_fn *fn, void *context) {
    if (world == NULL) {
        return -1;
    }
    if (!rc_vec2_is_finite(center) || !rc_is_finite(radius) || radius < 0.0f) {
        return rc_fail(world, __func__, "the centre is not finite or the radius %g is not finite and >= 0",
                       (double)radius),
               -1;
    }
    if (!filter_ok(world, &filter, __func__)) {
        return -1;
    }
    overlap_context c = overlap_start(world, OVERLAP_CIRCLE, filter, fn, context);
    c.point = center;
    c.radius = radius;
    rc_circle disk = {center, radius};
    rc_aabb box = rc_circle_box(disk);
    if (!rc_aabb_is_valid(box)) {
        return rc_fail(world, __func__, "the circle reaches beyond float range"), -1;
    }
    return overlap_run(&c, box);
}

int32_t rc_world_overlap_polygon(const rc_world *world, const rc_polygon *polygon, rc_query_filter filter,
                                 rc_overlap_fn *fn, void *context) {
    if (world == NULL) {
        return -1;
    }
    if (!rc_polygon_input_ok(polygon)) {
        return rc_fail(world, __func__, BAD_POLYGON, RC_MAX_POLYGON_VERTICES), -1;
    }
    rc_aabb box = rc_polygon_box(polygon);
    if (!rc_box_in_world(box)) {
        return rc_fail(world, __func__, "the polygon reaches beyond RC_WORLD_LIMIT"), -1;
    }
    if (!filter_ok(world, &filter, __func__)) {
        return -1;
    }
    overlap_context c = overlap_start(world, OVERLAP_POLYGON, filter, fn, context);
    c.polygon = rc_hull_polygon(polygon->vertices, polygon->normals, polygon->count, 0.0f);
    return overlap_run(&c, box);
}
