/* tests/support/world_support.h: what the world suites (test_world_*.c) share.
 *
 *  - WS_EXPECT: an assertion that only calls into Check when it fails (Check writes a record
 *    for every passing ck_assert, which would dominate loops over thousands of cases);
 *  - a splitmix64 random number generator;
 *  - a counting allocator that checks every free against its allocation (size, pointer) in an
 *    stb_ds hash map and can fail the Nth allocation;
 *  - an error callback that records how often it was called and the last message;
 *  - a snapshot of everything observable about a world through the public API (for the ids
 *    the test tracks), to prove that a refused call changed nothing;
 *  - brute-force pairing and collision of two world shapes through the public pure functions.
 */
#ifndef RICOCHET_TESTS_WORLD_SUPPORT_H
#define RICOCHET_TESTS_WORLD_SUPPORT_H

#include <ricochet/ricochet.h>

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_EXPECT(cond, ...)                                                                                           \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
        }                                                                                                              \
    } while (0)

/* ---- randomness --------------------------------------------------------------------------- */

typedef struct ws_rng {
    uint64_t s;
} ws_rng;

uint64_t ws_next(ws_rng *r);
double ws_uniform(ws_rng *r);                        /* [0, 1) */
float ws_range(ws_rng *r, double lo, double hi);     /* [lo, hi) */
float ws_log_range(ws_rng *r, double lo, double hi); /* log-uniform in [lo, hi) */
int ws_int(ws_rng *r, int lo, int hi);               /* lo..hi inclusive */
bool ws_chance(ws_rng *r, double p);

/* ---- the counting allocator --------------------------------------------------------------- */

typedef struct ws_alloc_entry {
    void *key;    /* the pointer */
    size_t value; /* its size */
} ws_alloc_entry;

typedef struct ws_counting_alloc {
    int64_t allocations; /* alloc calls so far (failed ones included) */
    int64_t allocated_bytes; /* what the calls that succeeded handed out, in all */
    int64_t failures;    /* alloc calls answered with NULL */
    int64_t frees;
    int64_t live_bytes, peak_bytes, live_blocks;
    int64_t fail_at;    /* the allocation number (1-based) that fails; 0: none */
    int64_t fail_from;  /* every allocation from this number on fails; 0: none */
    int64_t bad_frees;  /* frees of unknown pointers or with the wrong size */
    int64_t bad_aligns; /* alignments that are not powers of two <= 64 */
    char first_bad[160];
    ws_alloc_entry *blocks; /* stb_ds hash map pointer -> size */
} ws_counting_alloc;

void ws_alloc_init(ws_counting_alloc *c);
void ws_alloc_release(ws_counting_alloc *c); /* frees the map (and any leaked blocks) */
rc_allocator ws_allocator(ws_counting_alloc *c);

/* ---- the error callback ------------------------------------------------------------------- */

typedef struct ws_errors {
    int calls;
    char last[512];
} ws_errors;

void ws_error_fn(const char *message, void *user); /* user is a ws_errors */

/* ---- snapshots ---------------------------------------------------------------------------- */

typedef struct ws_body_state {
    bool valid;
    rc_body_type type;
    rc_vec2 position, linear_velocity, world_center;
    float angle, angular_velocity, mass, inertia, gravity_scale, linear_damping, angular_damping;
    rc_transform xf;
    bool bullet, awake;
    int32_t max_bounces, shape_count;
    void *user_data;
    rc_shape_id shapes[16];
} ws_body_state;

typedef struct ws_shape_state {
    bool valid;
    rc_body_id body;
    rc_shape_type type;
    rc_aabb aabb;
    rc_circle circle;
    rc_polygon polygon;
    float restitution, friction, density;
    rc_filter filter;
    bool sensor;
    void *user_data;
    int32_t contact_count;
    rc_shape_id contacts[32];
} ws_shape_state;

typedef struct ws_snapshot {
    ws_body_state *bodies; /* stb_ds arrays, one per tracked id */
    ws_shape_state *shapes;
    rc_world_counters counters; /* bytes zeroed: capacity is not state */
    rc_vec2 gravity;
    rc_contact_begin_event *contact_begin;
    rc_contact_end_event *contact_end;
    rc_sensor_event *sensor_begin, *sensor_end;
    rc_impact_event *impacts;
} ws_snapshot;

/* Everything observable about the tracked bodies and shapes, the counters and the event lists.
 * Calls only functions that cannot record an error for these ids (it checks validity first). */
void ws_snapshot_take(ws_snapshot *s, const rc_world *world, const rc_body_id *bodies, int nbodies,
                      const rc_shape_id *shapes, int nshapes);
/* True when equal bit for bit; otherwise why (the first difference) goes into why. */
bool ws_snapshot_equal(const ws_snapshot *a, const ws_snapshot *b, char *why, size_t why_size);
void ws_snapshot_free(ws_snapshot *s);
/* Sort the event lists by shape ids (for comparing worlds whose events came in another order
 * within one step). */
void ws_snapshot_sort_events(ws_snapshot *s);

/* ---- brute force over shapes ------------------------------------------------------------- */

bool ws_filters_collide(rc_filter a, rc_filter b);
bool ws_query_sees(rc_filter shape, rc_query_filter q);
/* The pairing rule of the step: different bodies, not two sensors, at least one dynamic body
 * (or a sensor with a kinematic body), and the filters agree. */
bool ws_shapes_should_pair(const rc_world *world, rc_shape_id a, rc_shape_id b);
/* The manifold of two world shapes by the public rc_collide_* functions, normal from a to b. */
bool ws_collide(const rc_world *world, rc_shape_id a, rc_shape_id b, rc_manifold *m);
/* The signed separation of two solid shapes, in double: their distance apart, or minus the
 * depth of their overlap. */
double ws_separation(const rc_world *world, rc_shape_id a, rc_shape_id b);
/* Should the world list the two as touching? They pair, and their separation (ws_separation)
 * is below 0 when one is a sensor, below the contact margin when one is the circle of a swept
 * body (a grenade or a circle bullet) and the other is solid: four skins, a skin being the
 * larger of contact_skin and 4 FLT_EPSILON times the larger coordinate at the circle's centre
 * (world.h, contact_skin), and below linear_slop for other solid pairs. A chain's wall touches
 * only what is on its free side (one-sided walls, by the mean of the other's points). WS_EITHER where the answer turns on rounding (a separation
 * within 1e-5 of the pair's coordinates of the threshold) or on the smoothing of a chain's
 * joints (a joint as near to the shape as its wall): the reference does not decide those. */
typedef enum ws_touch { WS_APART, WS_TOUCHING, WS_EITHER } ws_touch;
ws_touch ws_touch_state(const rc_world *world, rc_shape_id a, rc_shape_id b, float contact_skin, float linear_slop);
/* Ordering of shape ids as the world orders pairs (by index). */
bool ws_shape_less(rc_shape_id a, rc_shape_id b);
uint64_t ws_shape_key(rc_shape_id id); /* index << 32 | generation */
/* A pair of shapes as a hash key: the lower id (by index) first. */
typedef struct ws_pair {
    uint64_t a, b;
} ws_pair;
ws_pair ws_pair_of(rc_shape_id a, rc_shape_id b);

/* A random convex outline of n points on an ellipse-ish curve of the given size (radius),
 * counter-clockwise or clockwise. Returns the point count written (3..8). */
int ws_random_convex(ws_rng *r, float radius, rc_vec2 *out);


/* ---- small worlds for the projectile and chain suites (Check assertions inside) ---------------- */

rc_world *ws_make_world(rc_vec2 gravity);    /* default def with this gravity */
rc_body_id ws_static_body(rc_world *w);      /* at the origin */
rc_body_id ws_body(rc_world *w, rc_body_type type, rc_vec2 p, float angle); /* a body of no shape there */
rc_body_id ws_point_bullet(rc_world *w, rc_vec2 p, rc_vec2 v, int32_t max_bounces);
/* A dynamic body with one circle (restitution e, friction mu): a grenade, or a circle bullet. */
rc_body_id ws_circle_body(rc_world *w, rc_vec2 p, rc_vec2 v, float r, float e, float mu, bool bullet);

#endif
