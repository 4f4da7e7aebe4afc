/* Chains: level outlines made of segments, open or looped. The chain's record holds its id, its
 * base transform and the defaults of its walls; each segment is a shape of its own (its own id,
 * proxy and contacts) in the body's list, so that the grid, the queries, the sweeps and the
 * contacts treat it like any shape. A segment keeps its ends in the chain's frame, so that
 * placing it needs nothing but its chain's base transform. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Far more than a level needs, and small enough that counts stay far from overflow. */
#define MAX_CHAIN_POINTS (1 << 24)

static rc_chain *chain_of(const rc_world *world, const rc_shape *s) { return &world->chains.data[s->chain]; }

static rc_vec2 place(const rc_base *base, rc_transform body, rc_vec2 local) {
    return rc_transform_point(body, rc_base_apply(base, local));
}

/* Point k of the chain (k may be count for a loop: point 0 again). */
static rc_vec2 chain_point(const rc_chain *c, int32_t k) { return c->points[k == c->count ? 0 : k]; }

/* The placed ends of a segment from its ends in the chain's frame, in the order the walls keep
 * them: the free side on the left. */
static void place_ends(const rc_base *base, rc_transform body, const rc_vec2 local[2], bool flipped, rc_vec2 ends[2]) {
    rc_vec2 a = place(base, body, local[0]), b = place(base, body, local[1]);
    ends[0] = flipped ? b : a;
    ends[1] = flipped ? a : b;
}

static rc_aabb ends_box(const rc_vec2 ends[2]) {
    rc_aabb box = {rc_min(ends[0], ends[1]), rc_max(ends[0], ends[1])};
    return box;
}

void rc_segment_place(rc_world *world, rc_shape *s, rc_transform body) {
    const rc_chain *c = chain_of(world, s);
    place_ends(&world->shapes.data[c->shape].base, body, s->wall.local, c->flipped, s->segment);
    s->aabb = ends_box(s->segment);
}

void rc_segment_wall(const rc_world *world, const rc_shape *s, rc_vec2 *prev, rc_vec2 *a, rc_vec2 *b, rc_vec2 *next) {
    const rc_chain *c = chain_of(world, s);
    const rc_base *base = &world->shapes.data[c->shape].base;
    int32_t k = s->wall.index;
    /* chain points k-1, k, k+1, k+2 (an open chain's end repeats its last point) */
    int32_t before = k > 0 ? k - 1 : (c->loop ? c->segments - 1 : k);
    int32_t after = k + 1 < c->segments ? k + 2 : (c->loop ? (k + 2) % c->count : k + 1);
    rc_vec2 p0 = rc_base_apply(base, chain_point(c, before)), p1 = rc_base_apply(base, chain_point(c, k));
    rc_vec2 p2 = rc_base_apply(base, chain_point(c, k + 1)), p3 = rc_base_apply(base, chain_point(c, after));
    /* in the order whose left is the free side */
    *prev = c->flipped ? p3 : p0;
    *a = c->flipped ? p2 : p1;
    *b = c->flipped ? p1 : p2;
    *next = c->flipped ? p0 : p3;
}

bool rc_segment_owns(const rc_world *world, const rc_shape *s, rc_vec2 p) {
    if (s->kind != RC_SHAPE_SEGMENT) {
        return true;
    }
    rc_vec2 prev, a, b, next;
    rc_segment_wall(world, s, &prev, &a, &b, &next);
    rc_transform xf = world->bodies.data[s->body].xf;
    prev = rc_transform_point(xf, prev);
    a = rc_transform_point(xf, a);
    b = rc_transform_point(xf, b);
    next = rc_transform_point(xf, next);
    if (!s->one_sided && rc_two_sided_wall_side(prev, a, b, next, p) < 0) {
        rc_wall_from_behind(&prev, &a, &b, &next); /* two-sided, met from its right */
    }
    float slack = 64.0f * FLT_EPSILON * rc_maxf(1.0f, rc_maxf(fabsf(p.x), fabsf(p.y)));
    return rc_chain_wall_region(prev, a, b, next, p, slack);
}

void rc_segment_ends_at(const rc_world *world, const rc_shape *s, rc_transform body, rc_vec2 ends[2]) {
    const rc_chain *c = chain_of(world, s);
    place_ends(&world->shapes.data[c->shape].base, body, s->wall.local, c->flipped, ends);
}

rc_aabb rc_segment_box_at(const rc_world *world, const rc_shape *s, rc_transform body) {
    const rc_chain *c = chain_of(world, s);
    rc_vec2 ends[2];
    place_ends(&world->shapes.data[c->shape].base, body, s->wall.local, c->flipped, ends);
    return ends_box(ends);
}

static void refresh_box(rc_world *world, int32_t chain_shape) {
    rc_shape *head = &world->shapes.data[chain_shape];
    const rc_chain *c = chain_of(world, head);
    rc_aabb box = world->shapes.data[c->segment_shapes[0]].aabb;
    for (int32_t k = 1; k < c->segments; ++k) {
        box = rc_aabb_union(box, world->shapes.data[c->segment_shapes[k]].aabb);
    }
    head->aabb = box;
}

/* ---- creation -------------------------------------------------------------------------------- */

/* The points without consecutive repeats (a loop: nor its last points equal to the first),
 * welded in place; returns how many are kept. */
static int32_t weld_repeats(rc_vec2 *points, int32_t count, bool loop) {
    int32_t n = 0;
    for (int32_t i = 0; i < count; ++i) {
        if (n == 0 || points[i].x != points[n - 1].x || points[i].y != points[n - 1].y) {
            points[n++] = points[i];
        }
    }
    while (loop && n > 1 && points[n - 1].x == points[0].x && points[n - 1].y == points[0].y) {
        --n;
    }
    return n;
}

/* Twice the signed area of the placed loop, in double precision. */
static double loop_area2(const rc_chain *c, const rc_base *base, rc_transform body) {
    double sum = 0.0;
    rc_vec2 prev = place(base, body, c->points[c->count - 1]);
    for (int32_t k = 0; k < c->count; ++k) {
        rc_vec2 p = place(base, body, c->points[k]);
        sum += (double)prev.x * (double)p.y - (double)p.x * (double)prev.y;
        prev = p;
    }
    return sum;
}

static int32_t chain_slot(rc_world *world) {
    int32_t i = rc_id_pool_take(&world->chain_ids);
    if (i == world->chains.count) {
        world->chains.count++;
    }
    return i;
}

static void chain_release(rc_world *world, int32_t i) {
    rc_chain *c = &world->chains.data[i];
    rc_mem_free(&world->allocator, c->points, rc_chain_bytes(c->capacity));
    c->points = NULL;
    c->segment_shapes = NULL;
    c->count = 0;
    c->capacity = 0; /* the counters add up the blocks of live chains */
    c->shape = -1;
    rc_id_pool_give(&world->chain_ids, i);
}

rc_shape_id rc_shape_create_chain(rc_world *world, rc_body_id body_id, const rc_shape_def *def, const rc_vec2 *points,
                                  int count, bool loop) {
    static const char *func = "rc_shape_create_chain";
    rc_body *body = rc_body_for_change(world, body_id, func);
    if (body == NULL || !rc_shape_def_ok(world, def, func)) {
        return RC_NULL_SHAPE_ID;
    }
    if (body->type == RC_DYNAMIC) {
        rc_fail(world, func, "a chain has no mass: put it on a static or kinematic body");
        return RC_NULL_SHAPE_ID;
    }
    if (def->is_sensor) {
        rc_fail(world, func, "a chain is a wall: it cannot be a sensor");
        return RC_NULL_SHAPE_ID;
    }
    int min_points = loop ? 3 : 2;
    if (points == NULL || count < min_points || count > MAX_CHAIN_POINTS) {
        rc_fail(world, func, "%s needs %d to %d points (points %s, count %d)", loop ? "a loop" : "an open chain",
                min_points, MAX_CHAIN_POINTS, points == NULL ? "NULL" : "given", count);
        return RC_NULL_SHAPE_ID;
    }
    for (int i = 0; i < count; ++i) {
        if (!rc_vec2_is_finite(points[i])) {
            rc_fail(world, func, "point %d (%g, %g) is not finite", i, (double)points[i].x, (double)points[i].y);
            return RC_NULL_SHAPE_ID;
        }
    }
    rc_base base;
    const char *error = rc_base_make(rc_shape_def_base(def), RC_SHAPE_SEGMENT, &base);
    if (error != NULL) {
        rc_fail(world, func, "%s", error);
        return RC_NULL_SHAPE_ID;
    }
    /* the outline, welded, in memory of its own */
    rc_chain c;
    memset(&c, 0, sizeof c);
    c.capacity = count;
    c.points = rc_mem_alloc(&world->allocator, rc_chain_bytes(count));
    if (c.points == NULL) {
        rc_fail(world, func, "out of memory");
        return RC_NULL_SHAPE_ID;
    }
    c.segment_shapes = (int32_t *)(void *)(c.points + count);
    memcpy(c.points, points, sizeof(rc_vec2) * (size_t)count);
    c.count = weld_repeats(c.points, count, loop);
    c.loop = loop;
    c.segments = loop ? c.count : c.count - 1;
    const char *refusal = NULL;
    if (c.count < min_points) {
        refusal = "fewer distinct points than the chain needs once repeats are welded";
    }
    /* every placed segment must have a length and a box within float range */
    for (int32_t k = 0; refusal == NULL && k < c.segments; ++k) {
        rc_vec2 a = place(&base, body->xf, chain_point(&c, k)), b = place(&base, body->xf, chain_point(&c, k + 1));
        if (!rc_in_world(a) || !rc_in_world(b)) {
            refusal = "the chain placed on its body reaches beyond RC_WORLD_LIMIT";
        } else if (body->type != RC_STATIC && (!rc_in_body_reach(rc_base_apply(&base, chain_point(&c, k))) ||
                                               !rc_in_body_reach(rc_base_apply(&base, chain_point(&c, k + 1))))) {
            refusal = RC_BEYOND_BODY_REACH;
        } else if (a.x == b.x && a.y == b.y) {
            refusal = "two neighbouring points land on the same float point once placed";
        }
    }
    double area2 = loop && refusal == NULL ? loop_area2(&c, &base, body->xf) : 0.0;
    if (refusal == NULL && loop && area2 == 0.0) {
        refusal = "a loop must enclose an area (its points are all on one line)";
    }
    c.flipped = area2 < 0.0;
    /* records: free slots first, then new ones at the end of the array */
    int32_t records = c.segments + 1;
    int32_t free_slots = world->shape_ids.free_count;
    int32_t appended = records > free_slots ? records - free_slots : 0;
    if (refusal == NULL &&
        (appended > INT32_MAX / 2 - world->shapes.count ||
         !rc_array_reserve_aligned(world, world->shapes, world->shapes.count + appended, 64) ||
         !rc_array_reserve(world, world->contact_heads, world->shapes.count + appended) ||
         !rc_array_reserve(world, world->deferred, world->shapes.count + appended) ||
         !rc_id_pool_reserve(&world->allocator, &world->shape_ids, records) ||
         !rc_array_reserve(world, world->chains, world->chains.count + 1) ||
         !rc_id_pool_reserve(&world->allocator, &world->chain_ids, 1))) {
        refusal = "out of memory";
    }
    /* the slots the records will take, in order: the chain's, then segment k's */
    int32_t *slots = c.segment_shapes; /* k = 0 .. segments - 1; the chain's own slot apart */
    int32_t head_slot = -1;
    if (refusal == NULL) {
        for (int32_t k = -1; k < c.segments; ++k) {
            int32_t slot = rc_id_pool_peek(&world->shape_ids, k + 1);
            if (k < 0) {
                head_slot = slot;
            } else {
                slots[k] = slot;
            }
        }
    }
    /* the segments' proxies: the last step that can fail (records are written after it), in a
       batch that puts the grid back as it was if one fails (removing the ones made would not:
       the grid's high mark, free lists, moved list and table are state) */
    rc_grid *grid = rc_grid_for_type(world, body->type);
    bool level = body->type == RC_STATIC;
    if (refusal == NULL && !rc_world_begin_grid_batches(world, level ? c.segments : 0, level ? 0 : c.segments)) {
        refusal = "out of memory";
    }
    rc_vec2 ends[2];
    for (int32_t k = 0; refusal == NULL && k < c.segments; ++k) {
        rc_vec2 local[2] = {chain_point(&c, k), chain_point(&c, k + 1)};
        place_ends(&base, body->xf, local, c.flipped, ends);
        int32_t proxy = rc_wall_insert(world, grid, ends, level ? rc_wall_piece_count(world, &base, local) : 1, slots[k]);
        if (proxy < 0) {
            rc_world_abort_grid_batches(world);
            refusal = "out of memory";
            break;
        }
        world->shapes.data[slots[k]].proxy = proxy; /* a free or unused record: only its proxy is written */
        rc_proxy_follow_body_type(world, proxy, body->type);
    }
    if (refusal == NULL) {
        rc_world_end_grid_batches(world);
    }
    if (refusal != NULL) {
        rc_mem_free(&world->allocator, c.points, rc_chain_bytes(count));
        rc_fail(world, func, "%s", refusal);
        return RC_NULL_SHAPE_ID;
    }
    /* from here nothing fails: take the slots (the free ones, then new ones at the end) */
    for (int32_t k = -1; k < c.segments; ++k) {
        int32_t slot = rc_id_pool_take(&world->shape_ids);
        if (slot == world->shapes.count) {
            world->shapes.count++;
            world->contact_heads.count++;
        }
        world->contact_heads.data[slot] = -1;
    }
    int32_t chain_index = chain_slot(world);
    c.shape = head_slot;
    world->chains.data[chain_index] = c;

    rc_shape head;
    memset(&head, 0, sizeof head);
    head.kind = RC_KIND_CHAIN;
    head.type = RC_SHAPE_TYPE_CHAIN;
    head.in_use = true;
    head.contact_events = def->enable_contact_events;
    head.sensor_events = def->enable_sensor_events;
    head.one_sided = def->one_sided;
    head.absorbs = def->absorbs_projectiles;
    head.body_type = body->type;
    head.filter = def->filter;
    head.body = (int32_t)body_id.index - 1;
    head.restitution = def->restitution;
    head.friction = def->friction;
    head.rolling_resistance = def->rolling_resistance;
    head.proxy = -1;
    head.next_in_body = -1;
    head.chain = chain_index;
    for (int32_t k = -1; k < c.segments; ++k) {
        int32_t slot = k < 0 ? head_slot : slots[k];
        rc_shape *s = &world->shapes.data[slot];
        int32_t proxy = s->proxy;
        *s = head;
        s->generation = rc_world_generation(world, &world->shape_ids, slot);
        if (k < 0) {
            s->base = base;
            s->user_data = def->user_data;
            continue;
        }
        s->kind = RC_SHAPE_SEGMENT;
        s->type = RC_SHAPE_TYPE_SEGMENT;
        s->proxy = proxy;
        s->wall.local[0] = chain_point(&c, k);
        s->wall.local[1] = chain_point(&c, k + 1);
        s->wall.index = k;
        rc_segment_place(world, s, body->xf); /* the chain's record, written first, holds the base */
        s->next_in_body = body->first_shape;
        body->first_shape = slot;
    }
    refresh_box(world, head_slot);
    rc_body_update_mass(world, body);
    rc_body_wake(body);
    if (body->type == RC_STATIC) {
        rc_level_grid_settle(world);
    }
    return rc_shape_id_of(world, head_slot);
}

/* ---- destruction ----------------------------------------------------------------------------- */

void rc_chain_destroy(rc_world *world, int32_t chain_shape) {
    rc_shape *head = &world->shapes.data[chain_shape];
    int32_t chain_index = head->chain;
    const rc_chain *c = &world->chains.data[chain_index];
    rc_body *body = &world->bodies.data[head->body];
    /* out of the body's list in one pass (a level body may hold thousands of segments) */
    int32_t *link = &body->first_shape;
    while (*link >= 0) {
        rc_shape *s = &world->shapes.data[*link];
        if (s->kind == RC_SHAPE_SEGMENT && s->chain == chain_index) {
            *link = s->next_in_body;
        } else {
            link = &s->next_in_body;
        }
    }
    for (int32_t k = 0; k < c->segments; ++k) {
        rc_shape_destroy_contacts(world, c->segment_shapes[k]);
        const rc_shape *segment = &world->shapes.data[c->segment_shapes[k]];
        rc_grid_remove(rc_shape_grid(world, segment), segment->proxy);
    }
    /* the records join the free list: the chain's first out, then its segments in order */
    for (int32_t k = c->segments - 1; k >= -1; --k) {
        int32_t slot = k < 0 ? chain_shape : c->segment_shapes[k];
        rc_shape *r = &world->shapes.data[slot];
        r->in_use = false;
        rc_id_pool_give(&world->shape_ids, slot);
    }
    bool level = body->type == RC_STATIC;
    chain_release(world, chain_index);
    rc_body_update_mass(world, body);
    rc_body_wake(body);
    if (level) {
        rc_level_grid_settle(world);
    }
}

/* ---- queries on a chain ------------------------------------------------------------------------ */

bool rc_chain_contains(const rc_world *world, int32_t chain_shape, rc_vec2 p) {
    const rc_shape *head = &world->shapes.data[chain_shape];
    const rc_chain *c = chain_of(world, head);
    if (!c->loop || !rc_aabb_contains_point(head->aabb, p)) {
        return false;
    }
    bool inside = false;
    for (int32_t k = 0; k < c->segments; ++k) {
        const rc_shape *s = &world->shapes.data[c->segment_shapes[k]];
        inside ^= rc_ray_crosses_edge(p, s->segment[0], s->segment[1]); /* either direction: the parity is the same */
    }
    return inside;
}

int32_t rc_world_sectors_at(const rc_world *world, rc_vec2 point, rc_shape_id *ids, int32_t capacity) {
    if (world == NULL) {
        return -1;
    }
    if (!rc_vec2_is_finite(point) || capacity < 0 || (ids == NULL && capacity > 0)) {
        return rc_fail(world, __func__, "point (%g, %g) is not finite, or ids is NULL with capacity %d",
                       (double)point.x, (double)point.y, (int)capacity),
               -1;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < world->chains.count; ++i) {
        const rc_chain *c = &world->chains.data[i];
        if (c->shape < 0 || !c->loop || !rc_chain_contains(world, c->shape, point)) {
            continue;
        }
        if (n < capacity) {
            ids[n] = rc_shape_id_of(world, c->shape);
        }
        ++n;
    }
    return n;
}

bool rc_shape_test_point(const rc_world *world, rc_shape_id id, rc_vec2 p) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(p)) {
        return rc_fail(world, __func__, "p (%g, %g) is not finite", (double)p.x, (double)p.y);
    }
    if (s->kind == RC_KIND_CHAIN) {
        return rc_chain_contains(world, (int32_t)id.index - 1, p);
    }
    rc_shape_view v = rc_shape_view_of(world, s);
    return rc_view_test_point(&v, p);
}

/* ---- getters ----------------------------------------------------------------------------------- */

bool rc_shape_world_segment(const rc_world *world, rc_shape_id id, rc_vec2 *a, rc_vec2 *b) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (a == NULL || b == NULL || s->kind != RC_SHAPE_SEGMENT) {
        return rc_fail(world, __func__, s->kind != RC_SHAPE_SEGMENT ? "the shape is not a chain's segment" : "a or b is NULL");
    }
    bool flipped = chain_of(world, s)->flipped;
    *a = s->segment[flipped ? 1 : 0];
    *b = s->segment[flipped ? 0 : 1];
    return true;
}

rc_shape_id rc_shape_chain(const rc_world *world, rc_shape_id id) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return RC_NULL_SHAPE_ID;
    }
    if (s->chain < 0) {
        rc_fail(world, __func__, "the shape is not a chain or a chain's segment");
        return RC_NULL_SHAPE_ID;
    }
    return rc_shape_id_of(world, chain_of(world, s)->shape);
}

/* The chain's record behind an id of a chain, or NULL after recording why not. */
static const rc_shape *get_chain(const rc_world *world, rc_shape_id id, const char *func) {
    const rc_shape *s = rc_get_shape(world, id, func);
    if (s != NULL && s->kind != RC_KIND_CHAIN) {
        rc_fail(world, func, "the shape is not a chain");
        return NULL;
    }
    return s;
}

int32_t rc_shape_chain_points(const rc_world *world, rc_shape_id id, rc_vec2 *points, int32_t capacity) {
    const rc_shape *s = get_chain(world, id, __func__);
    if (s == NULL) {
        return -1;
    }
    if (capacity < 0 || (points == NULL && capacity > 0)) {
        return rc_fail(world, __func__, "points is NULL with capacity %d, or capacity is negative", (int)capacity), -1;
    }
    const rc_chain *c = chain_of(world, s);
    rc_transform body = world->bodies.data[s->body].xf;
    for (int32_t k = 0; k < c->count && k < capacity; ++k) {
        points[k] = place(&s->base, body, c->points[k]);
    }
    return c->count;
}

int32_t rc_shape_chain_segments(const rc_world *world, rc_shape_id id, rc_shape_id *ids, int32_t capacity) {
    const rc_shape *s = get_chain(world, id, __func__);
    if (s == NULL) {
        return -1;
    }
    if (capacity < 0 || (ids == NULL && capacity > 0)) {
        return rc_fail(world, __func__, "ids is NULL with capacity %d, or capacity is negative", (int)capacity), -1;
    }
    const rc_chain *c = chain_of(world, s);
    for (int32_t k = 0; k < c->segments && k < capacity; ++k) {
        ids[k] = rc_shape_id_of(world, c->segment_shapes[k]);
    }
    return c->segments;
}

bool rc_shape_chain_is_loop(const rc_world *world, rc_shape_id id) {
    const rc_shape *s = get_chain(world, id, __func__);
    return s != NULL && chain_of(world, s)->loop;
}

void rc_body_refresh_chains(rc_world *world, const rc_body *body) {
    /* a chain's first segment stands for it in the body's list */
    for (int32_t s = body->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        const rc_chain *c = shape->kind == RC_SHAPE_SEGMENT ? &world->chains.data[shape->chain] : NULL;
        if (c != NULL && c->segment_shapes[0] == s) {
            refresh_box(world, c->shape);
            world->shapes.data[c->shape].body_type = body->type;
        }
    }
}

int32_t rc_setter_records(const rc_world *world, int32_t s) {
    const rc_shape *shape = &world->shapes.data[s];
    return shape->kind == RC_KIND_CHAIN ? 1 + world->chains.data[shape->chain].segments : 1;
}

int32_t rc_setter_record(const rc_world *world, int32_t s, int32_t k) {
    const rc_shape *shape = &world->shapes.data[s];
    return k == 0 ? s : world->chains.data[shape->chain].segment_shapes[k - 1];
}

/* ---- smooth walls ------------------------------------------------------------------------------ */

bool rc_shape_distance(const rc_world *world, const rc_shape *s, rc_vec2 p, rc_distance_result *out) {
    rc_shape_view v = rc_shape_view_of(world, s);
    *out = rc_view_distance(&v, p);
    if (s->kind != RC_SHAPE_SEGMENT) {
        return true;
    }
    /* Nearest to one of its ends, a wall shares the point with its neighbour: when the
       neighbour is nearer (a flat or concave joint: its face holds p), the neighbour alone
       touches p, so that a circle rolling over a joint meets one flat floor, never the corner
       of the piece it left. At a convex corner both are equally near: the wall that ends
       there (in the chain's order) keeps it. */
    int end = rc_vec2_equal(out->point, s->segment[0]) ? 0 : (rc_vec2_equal(out->point, s->segment[1]) ? 1 : -1);
    if (end < 0) {
        return true;
    }
    const rc_chain *c = chain_of(world, s);
    bool at_start = (end == 1) == c->flipped; /* the end is the chain's point k, not k + 1 */
    int32_t k = s->wall.index + (at_start ? -1 : 1);
    if (c->loop) {
        k = (k + c->segments) % c->segments;
    } else if (k < 0 || k >= c->segments) {
        return true; /* an open chain's end: a real corner */
    }
    const rc_shape *n = &world->shapes.data[c->segment_shapes[k]];
    float dn = rc_segment_distance(n->segment[0], n->segment[1], p).distance;
    return dn > out->distance || (dn == out->distance && !at_start);
}
