/* world/: the world.
 *
 * Owns: bodies and shapes (slot arrays with free lists and generations behind the public
 * ids), the broadphase grid (one proxy per shape), contacts (one per overlapping shape pair
 * the broadphase reports, kept in a hash map and in per-shape lists), the step, the event
 * buffers, queries, and the last-error message. Calls shapes/ for geometry and broadphase/
 * for candidates; neither knows the world exists. */
#ifndef RICOCHET_WORLD_INTERNAL_H
#define RICOCHET_WORLD_INTERNAL_H

#include <ricochet/world.h>

#include "broadphase/broadphase.h"
#include "core/map.h"
#include "core/memory.h"
#include "shapes/shapes.h"

/* A growable array of plain structs whose memory comes from the world's allocator. */
#define RC_ARRAY(type)                                                                                                 \
    struct {                                                                                                           \
        type *data;                                                                                                    \
        int32_t count, capacity;                                                                                       \
    }

#define rc_array_reserve(world, array, needed)                                                                         \
    rc_mem_reserve(&(world)->allocator, (void **)&(array).data, &(array).capacity, (array).count, (needed),          \
                   sizeof(*(array).data))

#define rc_array_reserve_aligned(world, array, needed, align)                                                          \
    rc_mem_reserve_aligned(&(world)->allocator, (void **)&(array).data, &(array).capacity, (array).count, (needed),  \
                           sizeof(*(array).data), (align))

#define rc_array_free(world, array)                                                                                    \
    (rc_mem_free(&(world)->allocator, (array).data, sizeof(*(array).data) * (size_t)(array).capacity),               \
     (array).data = NULL, (array).count = 0, (array).capacity = 0)

typedef struct rc_body {
    rc_transform xf;       /* of the body origin; xf.q is always rc_rot_from_angle(angle) */
    rc_vec2 center;        /* centre of mass in the world */
    rc_vec2 local_center;  /* centre of mass in the body frame */
    float angle;
    rc_vec2 linear_velocity; /* of the centre of mass */
    float angular_velocity;
    float mass, inv_mass, inertia, inv_inertia; /* inertia about the centre of mass */
    float linear_damping, angular_damping, gravity_scale;
    float sleep_time;
    int32_t max_bounces;
    int32_t first_shape; /* shape index, -1 when none; the free list's link while the slot is free */
    uint32_t generation;
    uint8_t type;        /* rc_body_type */
    bool in_use, bullet, awake, enable_sleep, fixed_rotation;
    bool moved;          /* moved in the current step */
    void *user_data;
} rc_body;

/* A shape: 128 bytes, kept 64-byte aligned so that everything a query reads (kind, flags,
 * filter, body, generation, where its numbers are, a circle's placed numbers) sits in the
 * first cache line; the rest is what the world keeps about it. A polygon's numbers (placed
 * and local vertices) live in the world's polygon pool. */
typedef struct rc_shape {
    /* first line */
    uint8_t kind;  /* rc_shape_kind */
    uint8_t count; /* polygon vertices */
    uint8_t type;  /* rc_shape_type */
    bool in_use, sensor, contact_events, sensor_events, one_sided;
    rc_filter filter;
    int32_t body;
    uint32_t generation;
    uint32_t poly;    /* polygons: first entry of their block in world->poly_pool */
    rc_circle circle; /* circles: placed */
    rc_aabb aabb;     /* placed, tight */
    /* second line */
    rc_base base;
    float local_radius; /* circles */
    float restitution, friction, rolling_resistance, density;
    int32_t proxy;
    int32_t first_contact; /* head of this shape's contact list (-1: none); the free list's
                              link while the slot is free */
    int32_t next_in_body;
    void *user_data;
} rc_shape;

/* A polygon's block in the pool: the placed and local centroids, then the placed and local
 * vertices, so that a query's first line holds the centroid and the first vertices. Blocks of
 * one vertex count share a free list. */
#define RC_POLY_BLOCK(count) (2 * (count) + 2)

/* A contact sits in the lists of both its shapes: edge k links it in the list of shape[k]. */
typedef struct rc_contact_edge {
    int32_t prev, next;
} rc_contact_edge;

typedef struct rc_contact {
    int32_t shape[2]; /* shape indices, shape[0] < shape[1] */
    rc_contact_edge edge[2];
    rc_manifold manifold;
    int32_t next_free;
    bool in_use, touching, sensor;
    bool flagged; /* look at it in the next step even if its bodies are still */
} rc_contact;

/* What the step may have to put back if it runs out of memory half way: only what changes
 * before that point (velocities, then positions). The rotation is rc_rot_from_angle(angle)
 * at every moment, so the angle brings it back. */
typedef struct rc_body_undo {
    int32_t body;
    rc_vec2 position, center, linear_velocity;
    float angle, angular_velocity;
} rc_body_undo;

struct rc_world {
    rc_allocator allocator;
    rc_world_def def;
    rc_grid *grid;

    RC_ARRAY(rc_body) bodies;
    int32_t body_free, body_live;
    RC_ARRAY(rc_shape) shapes;
    int32_t shape_free, shape_live;
    RC_ARRAY(rc_vec2) poly_pool;
    uint32_t poly_free[RC_MAX_POLYGON_VERTICES + 1]; /* by vertex count; UINT32_MAX when empty */
    RC_ARRAY(rc_contact) contacts;
    int32_t contact_free, contact_live;
    rc_map contact_map; /* pair key -> contact index */

    RC_ARRAY(rc_contact_begin_event) contact_begin;
    RC_ARRAY(rc_contact_end_event) contact_end;
    RC_ARRAY(rc_sensor_event) sensor_begin;
    RC_ARRAY(rc_sensor_event) sensor_end;
    /* how many of each list the last step published; older entries are dropped next step */
    int32_t published[4];

    /* step scratch, sized with the body array so the step never grows it */
    RC_ARRAY(rc_body_undo) undo; /* the awake movable bodies, in index order */
    RC_ARRAY(int32_t) deferred;  /* shapes whose grid move adds cells: moved after a reserve */
    RC_ARRAY(int32_t) new_contacts;
    bool pair_failed;

    int32_t steps;
    char last_error[256];
};

/* ---- shared inside world/ ------------------------------------------------------------------- */

/* Record a refused call: formats "func: message", calls the error callback; returns false so
 * that callers can `return rc_fail(...)`. Works on a const world (the message buffer is the
 * one thing a refused query writes). */
bool rc_fail(const rc_world *world, const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The body or shape behind an id, or NULL after recording why not. */
rc_body *rc_get_body(const rc_world *world, rc_body_id id, const char *func);
rc_shape *rc_get_shape(const rc_world *world, rc_shape_id id, const char *func);
rc_body_id rc_body_id_of(const rc_world *world, int32_t index);
rc_shape_id rc_shape_id_of(const rc_world *world, int32_t index);

/* Shape internals. */
rc_shape_view rc_shape_view_of(const rc_world *world, const rc_shape *shape);
/* The shape's local polygon (numbers as defined, before the base transform). */
rc_convex rc_shape_local(const rc_world *world, const rc_shape *shape);
/* Place the shape under a body transform: its numbers and box. */
void rc_shape_place(rc_world *world, rc_shape *shape, rc_transform body);
/* The box the shape would have under a body transform, without placing it. */
rc_aabb rc_shape_box_at(const rc_world *world, const rc_shape *shape, rc_transform body);
rc_mass_data rc_shape_mass(const rc_world *world, const rc_shape *shape);

/* Body internals. */
void rc_body_update_mass(rc_world *world, rc_body *body);
void rc_body_place_shapes(rc_world *world, rc_body *body); /* geometry and grid, after a teleport */
void rc_body_wake(rc_body *body);
rc_transform rc_body_origin_from_center(rc_vec2 center, float angle, rc_vec2 local_center);

/* Should these two shapes be paired at all (bodies, types, sensors, filters)? */
bool rc_shapes_should_pair(const rc_world *world, const rc_shape *a, const rc_shape *b);
bool rc_filters_collide(rc_filter a, rc_filter b);

/* Contacts. */
bool rc_contact_reserve(rc_world *world, int32_t extra);
int32_t rc_contact_create(rc_world *world, int32_t shape_a, int32_t shape_b); /* needs rc_contact_reserve */
void rc_contact_destroy(rc_world *world, int32_t contact, bool emit_end);
void rc_shape_destroy_contacts(rc_world *world, int32_t shape);
/* Something about the shape or body changed outside the step (a teleport, a filter, a type):
 * its contacts are looked at in the next step even if no body there is awake. */
void rc_shape_flag_contacts(rc_world *world, int32_t shape);
void rc_body_flag_contacts(rc_world *world, const rc_body *body);
bool rc_contacts_reserve_events(rc_world *world);
void rc_contacts_update(rc_world *world);

/* Events between steps. */
void rc_events_begin_step(rc_world *world);
void rc_events_end_step(rc_world *world);

#endif
