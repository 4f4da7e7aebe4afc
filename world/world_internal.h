/* world/: the world.
 *
 * Owns: bodies and shapes (slot arrays behind the public ids, their slots and generations
 * from core/id_pool), the broadphase grid (one proxy per shape), contacts (one per overlapping shape pair
 * the broadphase reports, kept in a hash map and in per-shape lists), the step, the event
 * buffers, queries, and the last-error message. Calls shapes/ for geometry and broadphase/
 * for candidates; neither knows the world exists. */
#ifndef RICOCHET_WORLD_INTERNAL_H
#define RICOCHET_WORLD_INTERNAL_H

#include <ricochet/world.h>

#include <math.h>
#include <stdatomic.h>

#include "broadphase/broadphase.h"
#include "core/id_pool.h"
#include "core/map.h"
#include "core/memory.h"
#include "shapes/collide.h"
#include "shapes/shapes.h"
#include "world/solver.h"

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
    float min_extent, max_extent; /* of its solid shapes about the centre of mass: how fast is fast (continuous.c) */
    int32_t max_bounces;
    int32_t first_shape; /* shape index, -1 when none */
    uint32_t generation; /* of the id naming it (rc_world_generation) */
    uint8_t type;        /* rc_body_type */
    uint8_t motion;      /* rc_body_motion, from the type, the flags and the shapes */
    bool in_use, bullet, awake, enable_sleep, fixed_rotation, enable_response;
    bool moved;          /* moved in the current step */
    bool custom_mass;    /* the game set its mass data (until its shapes or type change) */
    rc_vec2 force;       /* applied since the last step (rc_body_apply_force), cleared by the step */
    float torque;
    float point_mass;
    rc_filter point_filter;
    int32_t swept_shape;    /* RC_MOTION_SWEPT_CIRCLE: the circle; else -1 */
    int32_t last_hit_shape; /* the shape of its latest impact (-1: none) and the step it was in */
    int32_t last_hit_step;
    int32_t solver_slot;    /* step scratch: its place among the solver's bodies, -1 when none */
    void *user_data;
} rc_body;

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
    rc_filter filter;
    int32_t body;
    uint32_t generation;
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
    int32_t proxy;         /* -1 for a chain */
    int32_t first_contact; /* head of this shape's contact list (-1: none) */
    int32_t next_in_body;
    int32_t chain;         /* chains and segments: index in world->chains; else -1 */
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

/* A contact sits in the lists of both its shapes: edge k links it in the list of shape[k]. */
typedef struct rc_contact_edge {
    int32_t prev, next;
} rc_contact_edge;

/* A point of a contact's manifold, as the solver keeps it from step to step. */
typedef struct rc_contact_point {
    rc_vec2 point;              /* in the world, midway between the surfaces */
    rc_vec2 anchor_a, anchor_b; /* from each body's centre of mass to the point */
    float separation;           /* signed: < 0 overlap */
    float normal_impulse, tangent_impulse; /* the solver's, per sub-step: the next solve starts there */
    float approach;             /* the normal speed it was made with (> 0 closing), for events */
    uint16_t id;                /* the features it comes from (rc_collide_hulls) */
} rc_contact_point;

typedef struct rc_contact {
    int32_t shape[2]; /* shape indices, shape[0] < shape[1] */
    rc_contact_edge edge[2];
    rc_manifold manifold; /* the events' view of the points that touch */
    rc_vec2 normal;       /* unit, from shape[0] towards shape[1] */
    rc_contact_point points[2];
    int32_t point_count;  /* within the contact margin: speculative ones too */
    float rolling_impulse;
    bool in_use, touching, sensor;
    bool flagged; /* look at it in the next step even if its bodies are still */
} rc_contact;

/* ---- swept bodies (projectile.c) --------------------------------------------------------------- */

/* At most this many surfaces hold one swept body (the first by shape index): impacts against
 * them while resting are not reported. */
#define RC_MAX_SUPPORTS 8

/* A body being swept: what the sweep reads and changes, apart from the world. */
typedef struct rc_sweeper {
    rc_vec2 center, velocity;
    float angle, angular_velocity;
    rc_vec2 path; /* held: the solver's motion for the step (its push-out included), swept first */
    float turn;   /* held: the solver's turn for the step */
    rc_vec2 kick; /* the gravity this step added to its velocity */
    float radius; /* 0: a point */
    float inv_mass, inv_inertia;
    float restitution, friction, rolling_resistance; /* its own; a point takes the surface's */
    rc_filter filter;
    int32_t self_body; /* never struck; -1: none */
    int32_t max_bounces;
    bool sees_dynamic; /* bullets: struck dynamic bodies that are not bullets */
    int32_t rest_shape; /* the shape it last struck in its previous step (-1: none) */
    const int32_t *supports; /* shapes holding it at the step's start (resting, not struck) */
    int32_t support_count;
    bool held; /* contacts held it this step: it moves along the solver's path, not a parabola */
} rc_sweeper;

/* What a sweep tells its caller. */
typedef struct rc_sweep_sink {
    /* a bounce or a stop: approach > 0 */
    void (*impact)(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach);
    /* the opposite impulse (px, py) on a struck dynamic body at a world point: in double, since
       with masses far from 1 it may be beyond float range while the velocity it gives is not */
    void (*push)(void *context, int32_t body, double px, double py, rc_vec2 point);
    void *context;
    int32_t last_shape; /* out: the shape of the last impact, -1 when none */
} rc_sweep_sink;

/* What the step may have to put back if it runs out of memory half way: only what changes
 * before that point (velocities, then positions). The rotation is rc_rot_from_angle(angle)
 * at every moment, so the angle brings it back. */
typedef struct rc_body_undo {
    int32_t body;
    rc_vec2 position, center, linear_velocity;
    float angle, angular_velocity;
    float sleep_time;
    bool awake;
    int32_t last_hit_shape, last_hit_step;
} rc_body_undo;

/* A proxy's grid box before the step moved it. */
typedef struct rc_proxy_undo {
    int32_t proxy;
    rc_aabb box;
} rc_proxy_undo;

/* Per-body step scratch for islands of touching bodies and for waking them. */
typedef struct rc_island_node {
    int32_t parent;
    float rest_time; /* an island root: the least sleep time of its bodies */
    int32_t next;    /* a stack of bodies to wake */
} rc_island_node;

struct rc_world {
    /* every allocation goes through `allocator`, which counts the bytes held and passes the
       call on to the game's allocator (its hook, or malloc) */
    rc_allocator allocator;
    rc_allocator user_allocator;
    size_t bytes_held;
    rc_world_def def;
    rc_grid *grid;
    /* callbacks running (queries, debug draw, the error callback): while > 0 every call that
       changes the world is refused. Atomic: queries on several threads count at once. */
    atomic_int locks;
    uint32_t id_salt; /* mixed into every id's generation: ids of other worlds are refused */

    /* slots and generation counts: the arrays' counts are the pools' high-water marks */
    RC_ARRAY(rc_body) bodies;
    rc_id_pool body_ids;
    RC_ARRAY(rc_shape) shapes;
    rc_id_pool shape_ids;
    RC_ARRAY(rc_vec2) poly_pool;
    RC_ARRAY(rc_chain) chains;
    rc_id_pool chain_ids;
    uint32_t poly_free[RC_MAX_POLYGON_VERTICES + 1]; /* by vertex count; UINT32_MAX when empty */
    RC_ARRAY(rc_contact) contacts;
    rc_id_pool contact_ids;
    rc_map contact_map; /* pair key -> contact index */

    RC_ARRAY(rc_contact_begin_event) contact_begin;
    RC_ARRAY(rc_contact_end_event) contact_end;
    RC_ARRAY(rc_sensor_event) sensor_begin;
    RC_ARRAY(rc_sensor_event) sensor_end;
    /* how many of each list the last step published; older entries are dropped next step */
    int32_t published[4];

    RC_ARRAY(rc_impact_event) impacts;
    int32_t published_impacts;

    /* step scratch, sized with the body array so the step never grows it */
    RC_ARRAY(rc_body_undo) undo; /* the awake movable bodies, in index order; then bodies woken by the sweeps */
    RC_ARRAY(rc_island_node) islands;
    RC_ARRAY(int32_t) moving; /* swept bodies from the front, bodies moved by velocity from the back */
    int32_t swept_count, free_start;
    int32_t swept_bullets, swept_shapes; /* among the swept: bullets, and their shapes */
    /* the solver's bodies (dynamic ones that respond, kinematic ones), in index order */
    RC_ARRAY(int32_t) solver_owner;
    RC_ARRAY(rc_body_state) states;   /* one more than the solver's bodies: the still state */
    RC_ARRAY(uint32_t) colors;        /* per state: the colours its constraints took */
    RC_ARRAY(int32_t) constraint_order;
    RC_ARRAY(rc_wide_constraint) blocks;
    RC_ARRAY(rc_vec2) kicks;         /* gravity and applied force per sub-step */
    RC_ARRAY(float) spin_kicks;      /* applied torque per sub-step */
    RC_ARRAY(rc_body_move_event) moves; /* this step's moved bodies (rc_world_body_move_events) */
    int32_t published_moves;
    RC_ARRAY(float) linear_damping;  /* per sub-step */
    RC_ARRAY(float) angular_damping;
    RC_ARRAY(float) spin_limits; /* per solver state: the fastest it may turn (rad/s) */
    RC_ARRAY(rc_contact_constraint) constraints;
    RC_ARRAY(int32_t) support_shapes; /* per solver body: RC_MAX_SUPPORTS shapes holding it */
    RC_ARRAY(int32_t) support_counts;
    RC_ARRAY(uint8_t) held;           /* per solver body: some contact pushed on it this step */
    bool step_failed;
    RC_ARRAY(int32_t) deferred;  /* shapes whose grid move adds cells: moved after a reserve */
    RC_ARRAY(rc_proxy_undo) proxy_undo; /* the grid boxes the step changed, to put back if it fails */
    RC_ARRAY(int32_t) new_contacts;
    bool pair_failed;

    int32_t steps;
    float contact_dt; /* the step's length while its contacts are refreshed (0 outside a step) */
    /* giving memory back (compact.c): the most slots in use since it was last done */
    int32_t peak_bodies, peak_shapes, peak_contacts, peak_chains;
    int32_t poly_used; /* entries of poly_pool in live blocks */
};

/* ---- shared inside world/ ------------------------------------------------------------------- */

/* Record a refused call: formats "func: message" into the calling thread's record for this
 * world (nothing in the world is written, so refused queries on several threads do not race)
 * and calls the error callback with the world locked (unless this thread is inside it
 * already); returns false so that callers can `return rc_fail(...)`. */
bool rc_fail(const rc_world *world, const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The world lock: callbacks into game code run between these, and every call that changes the
 * world first asks rc_world_for_change, which refuses it while any callback runs. */
static inline void rc_world_lock(const rc_world *world) {
    atomic_fetch_add_explicit(&((rc_world *)world)->locks, 1, memory_order_relaxed);
}
static inline void rc_world_unlock(const rc_world *world) {
    atomic_fetch_sub_explicit(&((rc_world *)world)->locks, 1, memory_order_relaxed);
}
static inline bool rc_world_is_locked(const rc_world *world) {
    return atomic_load_explicit(&((rc_world *)world)->locks, memory_order_relaxed) > 0;
}
/* The world, or NULL (after recording why) when it is NULL or locked. */
rc_world *rc_world_for_change(rc_world *world, const char *func);
/* rc_get_body / rc_get_shape for a call that changes the world: also refused while locked. */
rc_body *rc_body_for_change(rc_world *world, rc_body_id id, const char *func);
rc_shape *rc_shape_for_change(rc_world *world, rc_shape_id id, const char *func);

/* The body or shape behind an id, or NULL after recording why not. */
rc_body *rc_get_body(const rc_world *world, rc_body_id id, const char *func);
rc_shape *rc_get_shape(const rc_world *world, rc_shape_id id, const char *func);
static inline rc_body_id rc_body_id_of(const rc_world *world, int32_t index) {
    rc_body_id id = {(uint32_t)index + 1u, world->bodies.data[index].generation};
    return id;
}
static inline rc_shape_id rc_shape_id_of(const rc_world *world, int32_t index) {
    rc_shape_id id = {(uint32_t)index + 1u, world->shapes.data[index].generation};
    return id;
}
/* The generation of a slot's id now that it is handed out. */
static inline uint32_t rc_world_generation(const rc_world *world, const rc_id_pool *pool, int32_t slot) {
    return rc_id_generation(rc_id_pool_count(pool, slot), world->id_salt);
}

/* Shape internals. */
/* The placed geometry of a shape (inline: every candidate of a query or sweep asks for it). */
static inline rc_shape_view rc_shape_view_of(const rc_world *world, const rc_shape *s) {
    rc_shape_view v = {RC_SHAPE_CIRCLE, {{{0.0f, 0.0f}, 0.0f}}}; /* every byte set: the union is read by kind */
    v.kind = (rc_shape_kind)s->kind;
    if (s->kind == RC_SHAPE_CAPSULE) {
        const rc_vec2 *placed = world->poly_pool.data + s->poly + rc_poly_run(0, 2);
        v.u.capsule.center1 = placed[0];
        v.u.capsule.center2 = placed[1];
        v.u.capsule.radius = s->circle.radius;
    } else if (s->kind == RC_SHAPE_POLYGON) {
        v.u.polygon = rc_poly_placed(world->poly_pool.data + s->poly, s->count);
    } else if (s->kind == RC_SHAPE_SEGMENT) {
        v.u.segment.a = s->segment[0];
        v.u.segment.b = s->segment[1];
    } else {
        v.u.circle = s->circle;
    }
    return v;
}

/* Does the shape block something whose centre is at p? A one-sided segment blocks only what is
 * strictly on its free (left) side; every other shape blocks everything. */
static inline bool rc_shape_faces(const rc_shape *s, rc_vec2 p) {
    if (!s->one_sided || s->kind != RC_SHAPE_SEGMENT) {
        return true;
    }
    rc_vec2 a = s->segment[0], b = s->segment[1];
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) > 0.0f;
}
/* The shape's polygon as defined, before the base transform (vertices and centroid only). */
rc_convex rc_shape_local(const rc_world *world, const rc_shape *shape);
/* A shape def's checks (materials) and its base transform. */
bool rc_shape_def_ok(rc_world *world, const rc_shape_def *def, const char *func);
rc_base_transform rc_shape_def_base(const rc_shape_def *def);

/* Chains (chain.c). chain_shape is the index of a chain's record. */
/* A wall's ends in its body's frame, ordered so that its free side is on the left, and the
 * chain's points before and after it in that order (its own end where an open chain ends). */
void rc_segment_wall(const rc_world *world, const rc_shape *s, rc_vec2 *prev, rc_vec2 *a, rc_vec2 *b, rc_vec2 *next);
void rc_segment_place(rc_world *world, rc_shape *segment, rc_transform body);
rc_aabb rc_segment_box_at(const rc_world *world, const rc_shape *segment, rc_transform body);
/* After the body's shapes were placed or its type changed: its chains' boxes and types. */
void rc_body_refresh_chains(rc_world *world, const rc_body *body);
void rc_chain_destroy(rc_world *world, int32_t chain_shape);
/* The records a setter on shape index s changes: s itself, or a chain's record and its
 * segments' (the k-th of n). */
int32_t rc_setter_records(const rc_world *world, int32_t s);
int32_t rc_setter_record(const rc_world *world, int32_t s, int32_t k);
/* The distance from p to a shape (rc_view_distance), and whether the shape is the one that
 * touches p: false for a chain's wall whose nearest point to p is a joint its neighbour holds
 * (circles roll over the joints of a flat floor as over one floor). */
bool rc_shape_distance(const rc_world *world, const rc_shape *s, rc_vec2 p, rc_distance_result *d);
/* Inside the loop by the crossing rule (false for an open chain). */
bool rc_chain_contains(const rc_world *world, int32_t chain_shape, rc_vec2 p);
/* Place the shape under a body transform: its numbers and box. */
void rc_shape_place(rc_world *world, rc_shape *shape, rc_transform body);
/* The box the shape would have under a body transform, without placing it. */
rc_aabb rc_shape_box_at(const rc_world *world, const rc_shape *shape, rc_transform body);
rc_mass_data rc_shape_mass(const rc_world *world, const rc_shape *shape);

/* Within the world's reach (RC_WORLD_LIMIT): a point, or a box. NaN is not. */
static inline bool rc_in_world(rc_vec2 p) {
    return p.x >= -RC_WORLD_LIMIT && p.x <= RC_WORLD_LIMIT && p.y >= -RC_WORLD_LIMIT && p.y <= RC_WORLD_LIMIT;
}
static inline bool rc_box_in_world(rc_aabb b) { return rc_in_world(b.lower) && rc_in_world(b.upper); }
/* A body that would move past RC_WORLD_LIMIT stops at the edge: its centre held there and its
 * velocity along that axis dropped (nothing in a game goes that far; the world's numbers must
 * stay in range whatever happens). */
static inline void rc_hold_in_world(rc_vec2 *center, rc_vec2 *velocity) {
    if (!(center->x >= -RC_WORLD_LIMIT && center->x <= RC_WORLD_LIMIT)) {
        center->x = center->x > 0.0f ? RC_WORLD_LIMIT : -RC_WORLD_LIMIT;
        velocity->x = 0.0f;
    }
    if (!(center->y >= -RC_WORLD_LIMIT && center->y <= RC_WORLD_LIMIT)) {
        center->y = center->y > 0.0f ? RC_WORLD_LIMIT : -RC_WORLD_LIMIT;
        velocity->y = 0.0f;
    }
}

/* Body internals. */
/* A point mass the step can divide by: finite, and at least FLT_MIN so that its inverse is a
 * float (a denormal one gave an infinite inverse mass, and a bullet's position turned NaN). */
static inline bool rc_point_mass_ok(float mass) { return mass >= FLT_MIN && mass <= RC_MAX_MASS; }
/* Would the body's mass and rotational inertia about its centre of mass, were it dynamic, stay
 * within RC_MAX_MASS and RC_MAX_ROTATIONAL_INERTIA with a shape of mass data `extra` added (in
 * place of shape `replaced`, when that is >= 0)? extra may be NULL. */
bool rc_body_mass_fits(const rc_world *world, const rc_body *b, const rc_mass_data *extra, int32_t replaced);
/* Mixing two shapes' materials: friction as the square root of the product, taken as the
 * product of the roots so that it never overflows (an infinite friction times a zero impulse
 * made NaN); a rolling resistance times a radius held to FLT_MAX likewise. */
static inline float rc_mix_friction(float a, float b) { return sqrtf(a) * sqrtf(b); }
static inline float rc_rolling_torque_arm(float resistance, float radius) {
    float r = resistance * radius;
    return r < FLT_MAX ? r : FLT_MAX;
}

/* A velocity within the world's speed limits (what a game may set). */
static inline bool rc_speed_ok(const rc_world *world, rc_vec2 v, float w) {
    return rc_length(v) <= world->def.max_linear_speed && w <= world->def.max_angular_speed &&
           w >= -world->def.max_angular_speed;
}
/* A velocity computed in double (an impulse on a very light body), held to the world's speed
 * limits before it becomes float (which could otherwise overflow). */
static inline void rc_limit_velocity(const rc_world *world, double vx, double vy, double w, rc_vec2 *v, float *wf) {
    double speed = sqrt(vx * vx + vy * vy), max = world->def.max_linear_speed, wmax = world->def.max_angular_speed;
    if (speed > max) {
        vx *= max / speed;
        vy *= max / speed;
    }
    *v = rc_v2((float)vx, (float)vy);
    *wf = (float)(w > wmax ? wmax : (w < -wmax ? -wmax : w));
}
/* The velocity gravity adds over dt to a body of this gravity scale, in double and held to the
 * speed limit (a huge gravity or scale over a long step is beyond float range). */
static inline rc_vec2 rc_gravity_kick(const rc_world *world, float gravity_scale, float dt) {
    double k = (double)dt * gravity_scale;
    rc_vec2 v;
    float w;
    rc_limit_velocity(world, k * world->def.gravity.x, k * world->def.gravity.y, 0.0, &v, &w);
    return v;
}
/* The fastest a body moves, and turns, after any step (rc_world_def's limits): a restitution
 * above 1 or a huge velocity set by the game never runs a body out of float range. */
static inline void rc_clamp_speed(const rc_world *world, rc_vec2 *v, float *w) {
    float max = world->def.max_linear_speed, v2 = rc_dot(*v, *v);
    if (!(v2 <= max * max)) {
        float scale = max / rc_length(*v);
        *v = rc_scale(rc_is_finite(scale) ? scale : 0.0f, *v);
    }
    float wmax = world->def.max_angular_speed;
    *w = *w > wmax ? wmax : (*w < -wmax ? -wmax : *w);
}
void rc_body_update_mass(rc_world *world, rc_body *body); /* also the motion (what the step does with it) */
/* The box a shape's proxy has: its own, grown by the contact margin for a swept circle so that
 * the broadphase reports surfaces it rests near. */
rc_aabb rc_shape_proxy_box(const rc_world *world, const rc_shape *shape);
/* The grid keeps a moving shape's proxy box larger by a fat margin (twenty linear slops), and
 * moves it only once the shape's proxy box leaves it: a body at rest or moving little changes
 * nothing in the grid and makes no new pairs. Static shapes' grid boxes are their proxy boxes
 * exactly. */
static inline float rc_world_fat_margin(const rc_world *world) { return 20.0f * world->def.linear_slop; }
rc_aabb rc_shape_fat_box(const rc_world *world, const rc_shape *shape);
/* Does the proxy's box in the grid still hold the shape's proxy box (equal it, static)? */
bool rc_shape_proxy_fits(const rc_world *world, const rc_shape *shape);
/* If not, give the proxy the shape's fat box (reserved by the caller). */
void rc_shape_refit_proxy(rc_world *world, const rc_shape *shape);
/* The gap a swept body keeps from surfaces near p: contact_skin, or four to eight float
 * spacings at p's coordinates where those are coarser (from about 200 units out at the default
 * skin), so that a body stopped short of a surface is short of it after rounding too. */
static inline float rc_world_skin(const rc_world *world, rc_vec2 p) {
    float ax = p.x < 0.0f ? -p.x : p.x, ay = p.y < 0.0f ? -p.y : p.y;
    return rc_maxf(world->def.contact_skin, 4.0f * FLT_EPSILON * rc_maxf(ax, ay));
}

/* A swept circle within four skins of a surface rests on it: the solver holds it one skin off. */
static inline float rc_world_margin(const rc_world *world, rc_vec2 p) { return 4.0f * rc_world_skin(world, p); }
/* How far apart the solver looks at a solid pair (speculatively: it may close that gap in a
 * step, no more): four linear slops, or a swept circle's margin where that is larger. A swept
 * circle's margin alone let grenades in a pile meet only once they overlapped, and jostle. */
static inline float rc_speculative_margin(const rc_world *world, rc_vec2 p) {
    return rc_maxf(4.0f * world->def.linear_slop, rc_world_margin(world, p));
}
void rc_body_place_shapes(rc_world *world, rc_body *body); /* geometry and grid, after a teleport */
/* A change of shapes or flags can make another shape the body's swept circle (whose proxy box
 * is grown): room for the two proxies to move, then move them (and flag their contacts). */
bool rc_body_reserve_swept_change(rc_world *world);
/* Copy the body's type and bullet flag into its shapes (after either changed). */
void rc_body_sync_shapes(rc_world *world, const rc_body *body);
void rc_body_refresh_swept(rc_world *world, rc_body *body, int32_t old_swept);
/* Could the body be a bullet with one more shape (solid or not, circle or not) on it? */
bool rc_body_can_be_bullet(const rc_world *world, const rc_body *body, bool adding_solid, bool adding_circle);
void rc_body_wake(rc_body *body);
rc_transform rc_body_origin_from_center(rc_vec2 center, float angle, rc_vec2 local_center);

/* Should these two shapes be paired at all (bodies, types, sensors, filters)? */
bool rc_shapes_should_pair(const rc_world *world, const rc_shape *a, const rc_shape *b);
static inline bool rc_filters_collide(rc_filter a, rc_filter b) {
    if (a.group_index == b.group_index && a.group_index != 0) {
        return a.group_index > 0;
    }
    return (a.category_bits & b.mask_bits) != 0 && (b.category_bits & a.mask_bits) != 0;
}

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
/* At the step's start: contacts flagged since the last step (a teleport, a new shape or
 * filter) get their manifolds where the bodies are now, so the solver does not read stale
 * ones. Events stay with rc_contacts_update. */
void rc_contacts_refresh(rc_world *world);
void rc_contacts_update(rc_world *world);

/* Continuous collision (continuous.c): a solid body that moved from (c1, a1) to where it is
 * now, fast for its size, is brought back to its first touch of a static or kinematic shape
 * on the way (time of impact), so that it cannot pass through walls. */
void rc_continuous(rc_world *world, rc_body *body, rc_vec2 c1, float a1);
/* The body's min_extent and max_extent, from its solid shapes (after its mass is updated). */
void rc_body_extents(const rc_world *world, rc_body *body);

/* The solver's sub-step for a step of dt (0 for a denormal dt cut in sub-steps: then nothing
 * moves, as nothing could in so short a step). */
static inline float rc_sub_step(const rc_world *world, float dt) { return dt / (float)world->def.sub_steps; }
/* The soft step's settings from the world's definition, for a step of dt (step.c); the caller
 * fills in the arrays. */
void rc_soft_step_setup(const rc_world *world, rc_soft_step *step, float dt);
/* The solver's blocks for the constraints (world->blocks, aligned for the lanes); false when
 * out of memory. */
bool rc_reserve_blocks(rc_world *world, int32_t count);

/* Sleep (island.c): bodies slow for the world's sleep time fall asleep together with
 * everything that touches them (an island). */
void rc_update_sleep(rc_world *world, float dt);

/* Swept bodies (projectile.c). Gravity and damping as the step applies them. */
void rc_integrate_velocity(const rc_world *world, rc_vec2 *v, float *w, float gravity_scale, float linear_damping,
                           float angular_damping, rc_vec2 accel, float spin_accel, float dt);
/* The accelerations a body's applied force and torque give it (0 for none), in double then
 * held within float range. */
void rc_body_accel(const rc_body *b, rc_vec2 *accel, float *spin_accel);
void rc_sweep(const rc_world *world, rc_sweeper *sweeper, float dt, rc_sweep_sink *sink);
/* Is a shape something the sweeper strikes? */
/* Does a query with this filter see the shape? (Sensors are each query's own rule.) */
static inline bool rc_query_sees(const rc_shape *s, rc_query_filter filter) {
    return (s->filter.category_bits & filter.mask_bits) != 0 && (filter.category_bits & s->filter.mask_bits) != 0;
}

static inline bool rc_sweep_sees(const rc_sweeper *s, const rc_shape *shape) {
    if (shape->sensor || shape->body == s->self_body) {
        return false;
    }
    if (shape->body_type == RC_DYNAMIC && (!s->sees_dynamic || shape->body_bullet)) {
        return false;
    }
    return rc_filters_collide(s->filter, shape->filter);
}

/* ---- the narrow phase and the solver's view of contacts (contact.c) ---------------------------- */

/* A shape's hull in its body's frame (a chain's wall: its ends, no radius). */
rc_hull rc_shape_hull(const rc_world *world, const rc_shape *s);
/* How near two shapes' manifold looks (speculatively): a swept circle's contact margin, or the
 * world's speculative distance (four linear slops); 0 for a sensor. */
float rc_contact_margin(const rc_world *world, const rc_shape *a, const rc_shape *b);
/* The manifold of hull ha (of shape a, its body at xa) against hull hb (of shape b, its body at
 * xb), in the world: normal from a to b. Either shape may be NULL for a hull of no shape (a
 * body being previewed). Chain walls are smooth over their joints and one-sided walls let
 * through what is behind them; two walls never touch. */
rc_collision rc_collide_pair(const rc_world *world, const rc_shape *a, const rc_hull *ha, rc_transform xa,
                            const rc_shape *b, const rc_hull *hb, rc_transform xb, float margin);
/* Materials of a pair: friction (square root of the product), restitution (the larger),
 * rolling torque arm (the larger of resistance times radius, for round shapes). */
float rc_pair_friction(const rc_shape *a, const rc_shape *b);
float rc_pair_restitution(const rc_shape *a, const rc_shape *b);
float rc_pair_rolling(const rc_shape *a, float radius_a, const rc_shape *b, float radius_b);
/* A shape's radius for rolling resistance: a circle's (or a capsule's), 0 for flat shapes. */
float rc_shape_round_radius(const rc_shape *s);
/* A constraint's normal, points (anchors, separations, the impulses to start from) and rolling
 * impulse, from a contact's. */
void rc_constraint_load(rc_contact_constraint *k, rc_vec2 normal, const rc_contact_point *points, int32_t count,
                        float rolling_impulse);
/* A constraint's friction, restitution, rolling arm and target separation, from the shapes of
 * its two sides (first: its first point). */
void rc_constraint_materials(const rc_world *world, rc_contact_constraint *k, const rc_shape *a, const rc_shape *b,
                             const rc_contact_point *first);
/* After the solve: the first point of a constraint that met its bodies approaching at least at
 * the restitution threshold and pushed (a bounce: an impact for a swept body), and that speed;
 * -1 when none. */
int32_t rc_constraint_bounce(const rc_world *world, const rc_contact_constraint *k, float *approach);
/* Did it push at all (a normal impulse at some point)? */
/* A slow first touch (a grenade set down gently): a point of a contact that did not touch at the
 * step's start (and whose shape the body did not rest on) that pushed while approaching; the
 * point that approached fastest, or -1. */
int32_t rc_constraint_first_touch(const rc_contact_constraint *k, bool touched_before, float *approach);
bool rc_constraint_pushed(const rc_contact_constraint *k);
/* Recompute a contact's manifold where its bodies are now (carrying impulses over by feature
 * id) and say whether it touches. */
bool rc_contact_collide(rc_world *world, int32_t contact);

/* Give back memory that is no longer needed, at the end of a step (compact.c): the slot arrays
 * once three quarters of their peak use is gone (slots above the last live one are forgotten),
 * scratch and event arrays four times larger than their use, the polygon pool, the grid. Only
 * counts decide what is done, never the allocator: a failed allocation keeps the larger array
 * and changes nothing else. */
void rc_world_give_back_memory(rc_world *world);

#define rc_array_shrink(world, array, keep)                                                                            \
    rc_mem_shrink_aligned(&(world)->allocator, (void **)&(array).data, &(array).capacity, (array).count, (keep),     \
                          sizeof(*(array).data), 16)

/* Events between steps. */
void rc_events_begin_step(rc_world *world);
void rc_events_end_step(rc_world *world);

#endif
