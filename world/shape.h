/* world/shape.h: shapes (shape.c, shape_access.c, chain.c): the 128-byte shape record behind an rc_shape_id, chains' outlines,
 * the polygon pool's block layout, and which shapes pair or a query sees. */
#ifndef RICOCHET_WORLD_SHAPE_H
#define RICOCHET_WORLD_SHAPE_H

#include <ricochet/world.h>

#include "shapes/collide.h"
#include "shapes/shapes.h"

/* A shape: 128 bytes, kept 64-byte aligned so that everything a query reads (kind, flags,
 * filter, body, generation, where its numbers are, a circle's or a segment's placed numbers)
 * sits in the first cache line; the rest is what the world keeps about it. A polygon's numbers
 * (placed and local vertices) live in the world's polygon pool.
 *
 * A chain is one record of kind RC_KIND_CHAIN (its id, its base transform and the defaults of
 * its walls; no proxy, in no body list) and its segments, each a record of kind
 * RC_SHAPE_SEGMENT with its own id and proxy, in the body's list like any shape. The chain's
 * points and the indices of its segments are in world->chains. */
#define RC_KIND_CHAIN 4

typedef struct rc_shape {
    /* first line */
    uint8_t kind;  /* rc_shape_kind, or RC_KIND_CHAIN */
    uint8_t count; /* polygon vertices */
    uint8_t type;  /* rc_shape_type */
    bool in_use, sensor, contact_events, sensor_events;
    bool one_sided;    /* segments: they block only what is on the left of segment[0] -> segment[1] */
    uint8_t body_type; /* its body's type and bullet flag, copied here for the sweeps' filters */
    bool body_bullet;
    bool swept;        /* the solid circle of a swept body: its proxy box is grown by the margin */
    bool absorbs : 1;   /* a swept body that strikes it stops dead there, spent */
    bool pre_solve : 1; /* its contacts and the impacts on it ask the pre-solve callback */
    rc_filter filter;
    int32_t body;
    int32_t proxy; /* -1 for a chain; here, with the box, for the narrow phase's first look */
    union {
        struct {
            union {
                uint32_t poly;      /* polygons: first entry of their block in world->poly_pool */
                float local_radius; /* circles */
            };
            rc_circle circle; /* circles: placed */
        };
        rc_vec2 segment[2]; /* segments: placed ends, the free side (one-sided) on the left */
    };
    rc_aabb aabb; /* placed, tight (a chain: the union of its segments' boxes) */
    /* second line */
    union {
        rc_base base; /* a segment: its chain's record holds it */
        struct {
            rc_vec2 local[2]; /* the ends in the chain's frame (before the base transform), in order */
            int32_t index;    /* segment k of its chain */
        } wall;
    };
    float restitution, friction, rolling_resistance, density;
    uint32_t generation; /* of the id naming it */
    int32_t next_in_body; /* (the head of its contact list is beside the record: world->contact_heads) */
    int32_t chain;        /* chains and segments: index in world->chains; else -1 */
    void *user_data;
} rc_shape;

_Static_assert(sizeof(rc_shape) == 128, "a shape record is two cache lines");

/* A chain's outline: its points in the body frame before the base transform, in the order
 * given (loops: the first point not repeated). Segment k runs from point k to point k + 1 (a
 * loop's last segment back to point 0). */
typedef struct rc_chain {
    rc_vec2 *points;   /* count entries of capacity; then room for capacity segment indices: one
                          block from the world's allocator */
    int32_t *segment_shapes; /* the record of segment k */
    int32_t count, capacity;
    int32_t shape;     /* the chain's record (-1: the slot is free) */
    int32_t segments;
    bool loop;
    bool flipped;    /* placed, the loop runs clockwise: its segments' ends are stored reversed */
} rc_chain;

/* The size of a chain's block (its points and segment indices), as allocated and freed. */
static inline size_t rc_chain_bytes(int32_t capacity) {
    return (sizeof(rc_vec2) + sizeof(int32_t)) * (size_t)capacity;
}

/* A polygon's block in the pool (RC_POLY_BLOCK(n) entries): [0] the placed centroid, [1] the
 * body-frame centroid, [2] the local one; then n each of the placed vertices and normals (what
 * queries read, first), the body-frame vertices and normals (the polygon under its base
 * transform: what placing and collisions read) and the local vertices (before the base
 * transform: what a new base transform is applied to). Blocks of one vertex count share a
 * free list. */
#define RC_POLY_BLOCK(count) (5 * (count) + 3)

/* Where the k-th run of n entries starts in a block. */
static inline size_t rc_poly_run(int k, int n) { return 3u + (size_t)k * (size_t)n; }
static inline rc_convex rc_poly_placed(const rc_vec2 *b, int n) {
    rc_convex c = {b + rc_poly_run(0, n), b + rc_poly_run(1, n), n, b[0]};
    return c;
}
static inline rc_convex rc_poly_body(const rc_vec2 *b, int n) {
    rc_convex c = {b + rc_poly_run(2, n), b + rc_poly_run(3, n), n, b[1]};
    return c;
}
static inline rc_convex rc_poly_local(const rc_vec2 *b, int n) {
    rc_convex c = {b + rc_poly_run(4, n), NULL, n, b[2]};
    return c;
}

/* Take a live shape (not a chain's) out of the world (rc_shape_destroy's work, checked first);
 * body_stays false: its body is being destroyed, so its mass, motion and sleep are left alone. */
void rc_shape_remove(rc_world *world, int32_t index, bool body_stays);

/* Should these two shapes be paired at all (bodies, types, sensors, filters)? */
bool rc_shapes_should_pair(const rc_world *world, const rc_shape *a, const rc_shape *b);
static inline bool rc_filters_collide(rc_filter a, rc_filter b) {
    if (a.group_index == b.group_index && a.group_index != 0) {
        return a.group_index > 0;
    }
    return (a.category_bits & b.mask_bits) != 0 && (b.category_bits & a.mask_bits) != 0;
}

/* Does a query with this filter see the shape? (Sensors are each query's own rule; the filter's
 * ignore_body was checked when the query began.) */
static inline bool rc_query_sees_parts(int32_t body, rc_filter shape_filter, rc_query_filter filter) {
    if (body == (int32_t)filter.ignore_body.index - 1) {
        return false; /* (a null id names index -1: no body) */
    }
    if (filter.group_index != 0 && filter.group_index == shape_filter.group_index) {
        return filter.group_index > 0;
    }
    return (shape_filter.category_bits & filter.mask_bits) != 0 && (filter.category_bits & shape_filter.mask_bits) != 0;
}
static inline bool rc_query_sees(const rc_shape *s, rc_query_filter filter) {
    return rc_query_sees_parts(s->body, s->filter, filter);
}

#endif
