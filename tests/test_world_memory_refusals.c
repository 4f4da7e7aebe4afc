/* Memory: a call refused for lack of memory changes nothing of the world's whole state.
 *
 * base.h and world.h promise that a call that cannot have its memory fails with an error and
 * changes nothing, and snapshot.h that a snapshot is the world's whole state (the grids' free
 * lists, counts, moved lists and hash tables included: they decide later ids and answers). For
 * each call that changes several grid proxies or reserves in the grids (a chain's walls, a
 * body's shapes moved to the other grid, shapes made on bodies with many shapes, a teleport, a
 * bullet flag, a filter that has a chain's walls paired again, a restore), a scene is built
 * with a counting allocator (in several sizes, so that the call meets the arrays at different
 * fills) and the call is made with its 1st, 2nd, ... Nth allocation failing, until it runs
 * without meeting the failure. Each time it is refused, its message must say "out of memory",
 * the full snapshot must be byte for byte the one taken before the call, and the world must then
 * go on as one where the call was never made: the same call made again and three steps give the
 * same snapshot as in a world that made them without the refusal. Before the grid had batches
 * (rc_grid_begin_batch) and reserves that change nothing when they fail, 13 of these 19 cases
 * failed (rc_shape_create_chain and rc_body_set_type inserted proxies one by one and removed
 * them again on a failure; a reserve grew the hash table before the records it could not have).
 * rc_world_step is refused for memory at any of its allocations, after it has moved bodies and
 * their grid boxes and made contacts: in a busy scene and in a crowded, far-flung one, every
 * refusal must leave the snapshot as it was. Before the step took back exactly what it had done,
 * every refusal past its first reserve changed it (the contact slots it had made stayed counted,
 * the solver slots and step moves of the bodies stayed the step's, the proxies it moved back went
 * last in their cells), and the later history differed too.
 *
 * The grid on its own: rc_grid_insert_pieces, rc_grid_reserve and the first insert of an
 * automatic grid refused for memory leave rc_grid_save's bytes as they were (all three failed
 * before); a batch gives the grid that the same calls give outside one, and its abort, wherever
 * an allocation failed, the grid it found. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>
#include <ricochet/snapshot.h>

#include "broadphase/broadphase.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- snapshots as bytes ---------------------------------------------------------------------- */

typedef struct bytes {
    uint8_t *data;
    size_t size;
} bytes;

static bytes world_bytes(const rc_world *w) {
    bytes b = {NULL, rc_world_snapshot_size(w)};
    EXPECT(b.size > 0, "no snapshot size: %s", rc_world_last_error(w));
    b.data = malloc(b.size);
    ck_assert_ptr_nonnull(b.data);
    EXPECT(rc_world_snapshot(w, b.data, b.size) == b.size, "snapshot: %s", rc_world_last_error(w));
    return b;
}

static bytes grid_bytes(const rc_grid *g) {
    rc_bytes counter = rc_bytes_counter();
    rc_grid_save(g, &counter);
    bytes b = {malloc(counter.at + 1), counter.at};
    ck_assert_ptr_nonnull(b.data);
    rc_bytes out = rc_bytes_writer(b.data, b.size);
    rc_grid_save(g, &out);
    EXPECT(!out.failed && out.at == b.size, "grid save");
    return b;
}

/* Where two snapshots first differ (SIZE_MAX: nowhere). */
static size_t first_difference(bytes a, bytes b) {
    size_t n = a.size < b.size ? a.size : b.size;
    for (size_t i = 0; i < n; ++i) {
        if (a.data[i] != b.data[i]) {
            return i;
        }
    }
    return a.size == b.size ? SIZE_MAX : n;
}

/* ---- the cases --------------------------------------------------------------------------------- */

/* What a scene made, for its call (the same ids in every world: the id salt is fixed). */
typedef struct scene {
    int k; /* crates besides: scenes of several sizes, so that the call meets arrays at every fill */
    rc_body_id body[3];
    rc_shape_id shape;
    bytes saved; /* a snapshot to restore */
} scene;

typedef void build_fn(rc_world *w, scene *s);
typedef bool call_fn(rc_world *w, scene *s);

typedef struct refusal_case {
    const char *name;
    build_fn *build;
    call_fn *call;
    int sizes; /* scenes with 0 .. sizes - 1 crates more */
} refusal_case;

static rc_body_id body_at(rc_world *w, rc_body_type type, rc_vec2 p) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    rc_body_id b = rc_body_create(w, &bd);
    EXPECT(!rc_body_id_is_null(b), "body: %s", rc_world_last_error(w));
    return b;
}

static void box_at(rc_world *w, rc_body_id b, rc_vec2 offset, float half) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = offset;
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, half, half)), "box: %s", rc_world_last_error(w));
}

/* A floor and a few crates falling on it: every later step has something to do. */
static void floor_and_crates(rc_world *w, scene *s) {
    s->body[0] = body_at(w, RC_STATIC, rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, s->body[0], &sd, 20.0f, 1.0f)), "floor");
    for (int i = 0; i < 6 + s->k; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(-6.0f + 2.5f * (float)(i % 6), 1.6f + 0.9f * (float)i)), rc_v2(0, 0),
               0.4f);
    }
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}

/* A body of 60 small boxes, 10 x 6. */
static rc_body_id boxes_body(rc_world *w, rc_body_type type, rc_vec2 p) {
    rc_body_id b = body_at(w, type, p);
    for (int i = 0; i < 60; ++i) {
        box_at(w, b, rc_v2((float)(i % 10), (float)(i / 10)), 0.3f);
    }
    return b;
}

static rc_vec2 chain_points[300];

/* An open chain of count points, dx apart, along a wavy line under the floor. */
static bool make_chain(rc_world *w, rc_body_id b, int count, float dx) {
    for (int i = 0; i < count; ++i) {
        chain_points[i] = rc_v2(-30.0f + (float)i * dx, -5.0f + 0.1f * (float)(i % 7));
    }
    rc_shape_def sd = rc_shape_default_def();
    return !rc_shape_id_is_null(rc_shape_create_chain(w, b, &sd, chain_points, count, false));
}

static void build_floor(rc_world *w, scene *s) { floor_and_crates(w, s); }
static bool call_chain_on_level(rc_world *w, scene *s) { return make_chain(w, s->body[0], 300, 0.2f); }
/* walls 12 units long: three pieces each in the level's grid */
static bool call_long_walls_on_level(rc_world *w, scene *s) { return make_chain(w, s->body[0], 40, 12.0f); }

static void build_empty_level(rc_world *w, scene *s) {
    s->body[0] = body_at(w, RC_STATIC, rc_v2(0.0f, 0.0f));
    for (int i = 0; i < 1 + s->k; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(0.0f, 3.0f + 0.9f * (float)i)), rc_v2(0, 0), 0.4f);
    }
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}

static void build_kinematic(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = body_at(w, RC_KINEMATIC, rc_v2(0.0f, 10.0f));
    box_at(w, s->body[1], rc_v2(0, 0), 0.5f);
}
static bool call_chain_on_kinematic(rc_world *w, scene *s) { return make_chain(w, s->body[1], 100, 0.3f); }

static void build_static_boxes(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = boxes_body(w, RC_STATIC, rc_v2(0.0f, 10.0f));
    EXPECT(make_chain(w, s->body[1], 20, 12.0f), "chain");
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}
static void build_static_boxes_only(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = boxes_body(w, RC_STATIC, rc_v2(0.0f, 10.0f));
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}
static bool call_to_dynamic(rc_world *w, scene *s) { return rc_body_set_type(w, s->body[1], RC_DYNAMIC); }
static bool call_to_kinematic(rc_world *w, scene *s) { return rc_body_set_type(w, s->body[1], RC_KINEMATIC); }
static bool call_to_static(rc_world *w, scene *s) { return rc_body_set_type(w, s->body[1], RC_STATIC); }
static bool call_teleport(rc_world *w, scene *s) { return rc_body_set_transform(w, s->body[1], rc_v2(900.0f, -700.0f), 0.3f); }

static void build_kinematic_boxes(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = boxes_body(w, RC_KINEMATIC, rc_v2(0.0f, 10.0f));
    EXPECT(make_chain(w, s->body[1], 20, 12.0f), "chain");
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}

static void build_kinematic_boxes_only(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = boxes_body(w, RC_KINEMATIC, rc_v2(0.0f, 10.0f));
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}

static void build_dynamic_compound(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = boxes_body(w, RC_DYNAMIC, rc_v2(0.0f, 10.0f));
    s->body[2] = body_at(w, RC_DYNAMIC, rc_v2(5.0f, 20.0f));
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}
static bool call_box_on_compound(rc_world *w, scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(4.5f, 7.0f);
    return !rc_shape_id_is_null(rc_shape_create_box(w, s->body[1], &sd, 0.3f, 0.3f));
}
/* the first shape of a body: a swept circle (its proxy grown) */
static bool call_circle_on_empty_body(rc_world *w, scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    return !rc_shape_id_is_null(rc_shape_create_circle(w, s->body[2], &sd, 0.5f));
}
static bool call_box_on_level(rc_world *w, scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(40.0f, 3.0f);
    return !rc_shape_id_is_null(rc_shape_create_box(w, s->body[0], &sd, 30.0f, 2.0f));
}

/* A level whose only shape is gone: the level's grid is empty, with its memory, free lists and
 * table from before; a shape of another size gives its automatic cells another size. */
static void build_emptied_level(rc_world *w, scene *s) {
    build_empty_level(w, s);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id gone = rc_shape_create_box(w, s->body[0], &sd, 0.25f, 0.25f);
    EXPECT(!rc_shape_id_is_null(gone), "box");
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    rc_shape_destroy(w, gone);
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}

static void build_bullet(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    s->body[1] = body_at(w, RC_DYNAMIC, rc_v2(0.0f, 12.0f));
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_circle(w, s->body[1], &sd, 0.3f)), "circle");
    sd.is_sensor = true;
    for (int i = 0; i < 80; ++i) {
        sd.offset = rc_v2((float)(i % 10), (float)(i / 10));
        EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, s->body[1], &sd, 0.4f, 0.4f)), "sensor");
    }
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}
static bool call_bullet(rc_world *w, scene *s) { return rc_body_set_bullet(w, s->body[1], true); }

static void build_level_chain(rc_world *w, scene *s) {
    floor_and_crates(w, s);
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 120; ++i) {
        chain_points[i] = rc_v2(-30.0f + 0.5f * (float)i, -3.0f + 0.2f * (float)(i % 5));
    }
    s->shape = rc_shape_create_chain(w, s->body[0], &sd, chain_points, 120, false);
    EXPECT(!rc_shape_id_is_null(s->shape), "chain");
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
}
static bool call_filter(rc_world *w, scene *s) {
    rc_filter f = rc_default_filter();
    f.category_bits = 2u;
    return rc_shape_set_filter(w, s->shape, f);
}

/* A world saved, then stepped on (with more bodies): the restore goes back. */
static void build_saved(rc_world *w, scene *s, bool frame) {
    floor_and_crates(w, s);
    s->body[1] = boxes_body(w, RC_DYNAMIC, rc_v2(0.0f, 10.0f));
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    s->saved.size = frame ? rc_world_frame_snapshot_size(w) : rc_world_snapshot_size(w);
    s->saved.data = malloc(s->saved.size);
    ck_assert_ptr_nonnull(s->saved.data);
    size_t used = frame ? rc_world_snapshot_frame(w, s->saved.data, s->saved.size)
                        : rc_world_snapshot(w, s->saved.data, s->saved.size);
    EXPECT(used == s->saved.size, "snapshot");
    for (int i = 0; i < 5; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(-3.0f + 1.5f * (float)i, 30.0f)), rc_v2(0, 0), 0.3f);
        EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    }
}
static void build_saved_full(rc_world *w, scene *s) { build_saved(w, s, false); }
static void build_saved_frame(rc_world *w, scene *s) { build_saved(w, s, true); }
static bool call_restore(rc_world *w, scene *s) { return rc_world_restore(w, s->saved.data, s->saved.size); }

static bool call_body(rc_world *w, scene *s) {
    (void)s;
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(0.0f, 40.0f);
    return !rc_body_id_is_null(rc_body_create(w, &bd));
}

/* A busy scene about to step: crates falling onto a floor and a chain, a grenade and a bullet in
 * flight, a kinematic paddle turning through them, and crates just made among the others (the
 * step's new pairs, contacts, islands and events grow its arrays). */
static void build_busy(rc_world *w, scene *s) {
    build_level_chain(w, s);
    rc_body_id paddle = body_at(w, RC_KINEMATIC, rc_v2(-3.0f, 2.5f));
    box_at(w, paddle, rc_v2(0, 0), 0.6f);
    rc_body_set_angular_velocity(w, paddle, 2.0f);
    rc_body_id grenade = body_at(w, RC_DYNAMIC, rc_v2(2.0f, 4.0f));
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_circle(w, grenade, &sd, 0.2f)), "grenade");
    rc_body_set_linear_velocity(w, grenade, rc_v2(-3.0f, -8.0f));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.position = rc_v2(8.0f, 1.5f);
    bd.linear_velocity = rc_v2(-200.0f, 0.0f);
    EXPECT(!rc_body_id_is_null(rc_body_create(w, &bd)), "bullet");
    for (int i = 0; i < 3 + s->k; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(-6.0f + 1.1f * (float)(i % 10), 1.5f + 0.8f * (float)(i / 10))),
               rc_v2(0, 0), 0.4f);
    }
}
/* The busy scene, and more that a step's undoing must put back: a heap of small crates in a
 * few cells (cells of more entries than a record holds: chunks), a group of crates far out,
 * beyond the grid's windows (hashed cells, which a step may add to its table and grow it),
 * crates put to sleep after a step (the scratch the last step gave them), a pendulum on a
 * hinge (joints woken by the step), a sensor, and a kinematic chain sweeping through the heap. */
static void build_crowded(rc_world *w, scene *s) {
    build_busy(w, s);
    for (int i = 0; i < 40; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(2.0f + 0.21f * (float)(i % 8), 1.2f + 0.21f * (float)(i / 8))),
               rc_v2(0, 0), 0.1f);
    }
    rc_body_id far_floor = body_at(w, RC_STATIC, rc_v2(4000.0f, -3000.0f));
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, far_floor, &sd, 10.0f, 0.5f)), "far floor");
    for (int i = 0; i < 4 + s->k; ++i) {
        rc_body_id b = body_at(w, RC_DYNAMIC, rc_v2(3995.0f + 1.3f * (float)(i % 8), -2999.0f + 1.1f * (float)(i / 8)));
        box_at(w, b, rc_v2(0, 0), 0.5f);
        rc_body_set_linear_velocity(w, b, rc_v2(60.0f * (float)(i % 3) - 60.0f, 0.0f)); /* (into other cells) */
    }
    rc_body_id hinge = body_at(w, RC_STATIC, rc_v2(-12.0f, 8.0f));
    rc_body_id bob = body_at(w, RC_DYNAMIC, rc_v2(-10.0f, 8.0f));
    box_at(w, bob, rc_v2(0, 0), 0.3f);
    rc_revolute_joint_def jd = rc_revolute_joint_default_def();
    jd.body_a = hinge;
    jd.body_b = bob;
    jd.local_anchor_b = rc_v2(-2.0f, 0.0f);
    EXPECT(!rc_joint_id_is_null(rc_joint_create_revolute(w, &jd)), "joint: %s", rc_world_last_error(w));
    sd.is_sensor = true;
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, s->body[0], &sd, 3.0f, 3.0f)), "sensor");
    rc_body_id sweeper = body_at(w, RC_KINEMATIC, rc_v2(0.0f, 3.0f));
    sd.is_sensor = false;
    const rc_vec2 line[3] = {{-1.0f, 0.0f}, {0.0f, 0.5f}, {1.0f, 0.0f}};
    EXPECT(!rc_shape_id_is_null(rc_shape_create_chain(w, sweeper, &sd, line, 3, false)), "kinematic chain");
    rc_body_set_linear_velocity(w, sweeper, rc_v2(4.0f, -1.0f));
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    /* crates put to sleep keep the solver slots the last step gave them */
    rc_body_id sleeper = body_at(w, RC_DYNAMIC, rc_v2(-8.0f, 1.5f));
    box_at(w, sleeper, rc_v2(0, 0), 0.4f);
    EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    EXPECT(rc_body_set_awake(w, sleeper, false), "sleep");
    EXPECT(rc_body_set_awake(w, bob, false), "sleep");
}

static bool call_step(rc_world *w, scene *s) {
    (void)s;
    return rc_world_step(w, 1.0f / 60.0f);
}

/* Crates resting on a floor that the game then moves up by 0.05 (their contacts flagged: the
 * step's start finds them again, before anything that may fail), and crates made since (the
 * step's new pairs). A step refused after that first look left the contacts as it had found
 * them again (a crate's depth 0.0001 -> 0.05, the snapshot's contact bytes). The crates made
 * since stand on the floor: their contacts are made after that first look. */
static void build_moved_floor(rc_world *w, scene *s) {
    s->body[0] = body_at(w, RC_STATIC, rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, s->body[0], &sd, 20.0f, 0.5f)), "floor");
    for (int i = 0; i < 6; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(-6.0f + 2.0f * (float)i, 0.9f)), rc_v2(0, 0), 0.4f);
    }
    for (int i = 0; i < 3; ++i) {
        EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    }
    EXPECT(rc_body_set_transform(w, s->body[0], rc_v2(0.0f, 0.05f), 0.0f), "move: %s", rc_world_last_error(w));
    for (int i = 0; i < 20 + 3 * s->k; ++i) {
        box_at(w, body_at(w, RC_DYNAMIC, rc_v2(-19.0f + 0.5f * (float)i, 0.7f)), rc_v2(0, 0), 0.2f);
    }
}

/* A level of chains (a wavy floor and a one-sided loop around it) and boxes, grenades, bullets,
 * jointed props and a kinematic plank, after k steps: a helper's scene, in which a step refused
 * undid a hash table that was not there before it (the bullets' first cells beyond the grid's
 * windows: a null pointer given to memset, which the sanitizers stop at). */
static void build_chained_level(rc_world *w, scene *s) {
    s->body[0] = body_at(w, RC_STATIC, rc_v2(0.0f, 0.0f));
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 300; ++i) {
        chain_points[i] = rc_v2(-60.0f + 0.4f * (float)i, 0.05f * (float)(i % 5) - 1.0f);
    }
    EXPECT(!rc_shape_id_is_null(rc_shape_create_chain(w, s->body[0], &sd, chain_points, 300, false)), "chain");
    const rc_vec2 loop[4] = {{-100, -10}, {100, -10}, {100, 200}, {-100, 200}};
    sd.one_sided = true;
    EXPECT(!rc_shape_id_is_null(rc_shape_create_chain(w, s->body[0], &sd, loop, 4, true)), "loop");
    for (int i = 0; i < 20; ++i) {
        box_at(w, s->body[0], rc_v2(-40.0f + 4.0f * (float)i, 2.0f), 0.2f);
    }
    rc_body_id last = {0u, 0u};
    for (int i = 0; i < 150; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(-30.0f + 0.6f * (float)(i % 100), 3.0f + 0.7f * (float)(i / 100) + 0.7f * (float)(i % 3));
        bd.bullet = i % 17 == 0;
        bd.linear_velocity = bd.bullet ? rc_v2(50.0f, -80.0f) : rc_v2(0.0f, 0.0f);
        rc_body_id b = rc_body_create(w, &bd);
        EXPECT(!rc_body_id_is_null(b), "body: %s", rc_world_last_error(w));
        rc_shape_def pd = rc_shape_default_def();
        if (i % 2 == 0) {
            EXPECT(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &pd, 0.25f)), "circle");
        } else if (!bd.bullet) {
            box_at(w, b, rc_v2(0, 0), 0.2f);
        }
        if (i % 7 == 1 && !rc_body_id_is_null(last)) {
            rc_revolute_joint_def jd = rc_revolute_joint_default_def();
            jd.body_a = last;
            jd.body_b = b;
            EXPECT(!rc_joint_id_is_null(rc_joint_create_revolute(w, &jd)), "joint: %s", rc_world_last_error(w));
        }
        last = b;
    }
    rc_body_id plank = body_at(w, RC_KINEMATIC, rc_v2(0.0f, 10.0f));
    box_at(w, plank, rc_v2(0, 0), 0.3f);
    rc_body_set_linear_velocity(w, plank, rc_v2(0.0f, -1.0f));
    for (int i = 0; i < s->k; ++i) {
        EXPECT(rc_world_step(w, 1.0f / 60.0f), "step");
    }
}

static const refusal_case cases[] = {
    {"rc_world_step", build_busy, call_step, 24},
    {"rc_world_step in a crowded, far-flung scene", build_crowded, call_step, 12},
    {"rc_world_step after the floor under resting crates moved", build_moved_floor, call_step, 6},
    {"rc_world_step in a level of chains, bullets and joints", build_chained_level, call_step, 12},
    {"rc_shape_create_chain on the level", build_floor, call_chain_on_level, 4},
    {"rc_shape_create_chain of long walls on the level", build_floor, call_long_walls_on_level, 4},
    {"rc_shape_create_chain on an empty level", build_empty_level, call_long_walls_on_level, 4},
    {"rc_shape_create_chain on a kinematic body", build_kinematic, call_chain_on_kinematic, 4},
    {"rc_body_set_type static to dynamic", build_static_boxes_only, call_to_dynamic, 4},
    {"rc_body_set_type static to kinematic", build_static_boxes, call_to_kinematic, 4},
    {"rc_body_set_type kinematic to static", build_kinematic_boxes, call_to_static, 4},
    {"rc_body_set_type kinematic to dynamic", build_kinematic_boxes_only, call_to_dynamic, 24},
    {"rc_shape_create_box on a body of 60 boxes", build_dynamic_compound, call_box_on_compound, 24},
    {"rc_shape_create_circle on a body of none", build_dynamic_compound, call_circle_on_empty_body, 24},
    {"rc_shape_create_box on the level", build_floor, call_box_on_level, 24},
    {"rc_shape_create_box on an emptied level", build_emptied_level, call_box_on_level, 24},
    {"rc_body_set_transform of a static body", build_static_boxes, call_teleport, 8},
    {"rc_body_set_transform of a kinematic body", build_kinematic_boxes, call_teleport, 8},
    {"rc_body_set_bullet", build_bullet, call_bullet, 24},
    {"rc_shape_set_filter of a chain", build_level_chain, call_filter, 8},
    {"rc_body_create", build_floor, call_body, 24},
    {"rc_world_restore of a full snapshot", build_saved_full, call_restore, 4},
    {"rc_world_restore of a frame snapshot", build_saved_frame, call_restore, 4},
};

/* ---- the run ----------------------------------------------------------------------------------- */

typedef struct run {
    ws_counting_alloc ca;
    rc_world *w;
    scene s;
} run;

static void run_begin(run *r, const refusal_case *c, int k) {
    memset(r, 0, sizeof *r);
    r->s.k = k;
    ws_alloc_init(&r->ca);
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = 0x5eed0b5eu; /* (by default from the world's address: the ids would differ) */
    wd.allocator = ws_allocator(&r->ca);
    r->w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(r->w);
    c->build(r->w, &r->s);
}

/* The same calls in every world after the one tested: it again, then steps. */
static bytes run_on(run *r, const refusal_case *c) {
    EXPECT(c->call(r->w, &r->s), "%s made again: %s", c->name, rc_world_last_error(r->w));
    for (int i = 0; i < 3; ++i) {
        EXPECT(rc_world_step(r->w, 1.0f / 60.0f), "step");
    }
    return world_bytes(r->w);
}

static void run_end(run *r, const char *name) {
    rc_world_destroy(r->w);
    EXPECT(r->ca.live_bytes == 0 && r->ca.bad_frees == 0, "%s: %lld bytes leaked, %lld bad frees (%s)", name,
           (long long)r->ca.live_bytes, (long long)r->ca.bad_frees, r->ca.first_bad);
    ws_alloc_release(&r->ca);
    free(r->s.saved.data);
}

/* The case's call with its Nth allocation failing, for N = 1, 2, ... until it meets no failure.
 * Returns how many times it was refused; a refusal that changed the world fails the test. */
static int check_case(const refusal_case *c, int k) {
    run ref;
    run_begin(&ref, c, k);
    bytes expected = run_on(&ref, c); /* a world where the call was never refused */
    run_end(&ref, c->name);
    int refused = 0;
    for (int64_t n = 1;; ++n) {
        run r;
        run_begin(&r, c, k);
        bytes before = world_bytes(r.w);
        r.ca.fail_at = r.ca.allocations + n;
        bool ok = c->call(r.w, &r.s);
        bool met = r.ca.failures > 0;
        r.ca.fail_at = 0;
        if (!ok) {
            EXPECT(met, "%s refused without a failing allocation: %s", c->name, rc_world_last_error(r.w));
            EXPECT(strstr(rc_world_last_error(r.w), "out of memory") != NULL, "%s, allocation %lld failing: \"%s\"",
                   c->name, (long long)n, rc_world_last_error(r.w));
            bytes after = world_bytes(r.w);
            size_t at = first_difference(before, after);
            EXPECT(at == SIZE_MAX, "%s (k %d) refused with allocation %lld failing changed the world: snapshot %zu -> %zu "
                   "bytes, first difference at byte %zu", c->name, k, (long long)n, before.size, after.size, at);
            free(after.data);
            bytes later = run_on(&r, c);
            at = first_difference(expected, later);
            EXPECT(at == SIZE_MAX, "%s (k %d) refused with allocation %lld failing: the same calls after it give "
                   "another world (%zu and %zu bytes, first difference at byte %zu)", c->name, k, (long long)n,
                   expected.size, later.size, at);
            free(later.data);
            refused++;
        }
        free(before.data);
        run_end(&r, c->name);
        if (!met) {
            break;
        }
        EXPECT(n < 100000, "runaway");
    }
    free(expected.data);
    return refused;
}

START_TEST(refused_calls_change_nothing) {
    const refusal_case *c = &cases[_i];
    int refused = 0;
    for (int k = 0; k < c->sizes; ++k) {
        refused += check_case(c, k);
    }
    fprintf(stderr, "[refusals] %s: refused %d times, each with the world unchanged\n", c->name, refused);
    EXPECT(refused > 0, "%s was never refused: the case tests nothing", c->name);
}
END_TEST

/* ---- the grid on its own ------------------------------------------------------------------------- */

/* A grid of an automatic cell size with 300 boxes, some far out (hashed cells), 40 removed. */
static rc_grid *busy_grid(ws_counting_alloc *ca) {
    rc_grid_def def = rc_grid_default_def();
    def.allocator = ws_allocator(ca);
    rc_grid *g = rc_grid_create(&def);
    ck_assert_ptr_nonnull(g);
    ws_rng r = {77};
    int32_t ids[300];
    for (int i = 0; i < 300; ++i) {
        float x = ws_range(&r, -50, 50) * (i % 10 == 0 ? 40.0f : 1.0f), y = ws_range(&r, -50, 50), h = ws_range(&r, 0.1, 2);
        ids[i] = rc_grid_insert(g, (rc_aabb){{x - h, y - h}, {x + h, y + h}}, i);
        EXPECT(ids[i] >= 0, "insert");
    }
    for (int i = 0; i < 300; i += 7) {
        EXPECT(rc_grid_remove(g, ids[i]), "remove");
    }
    return g;
}

typedef bool grid_call_fn(rc_grid *g);

/* A long diagonal wall of 1,000 small pieces, far out (hashed cells): its inserts grow the
 * table, the records and the chunks. */
static bool insert_wall(rc_grid *g) {
    static rc_aabb boxes[1000];
    for (int i = 0; i < 1000; ++i) {
        float x = 5000.0f + 1.5f * (float)i;
        boxes[i] = (rc_aabb){{x, 0.5f * x}, {x + 1.5f, 0.5f * (x + 1.5f)}};
    }
    return rc_grid_insert_pieces(g, boxes, 1000, 1000) >= 0;
}
static bool reserve_much(rc_grid *g) { return rc_grid_reserve(g, 5000); }

/* The grid call with its Nth allocation failing until it meets none: each refusal leaves the
 * grid's saved bytes as they were. Returns the refusals. */
static int check_grid_call(rc_grid *(*make)(ws_counting_alloc *), grid_call_fn *call, const char *name) {
    int refused = 0;
    for (int64_t n = 1;; ++n) {
        ws_counting_alloc ca;
        ws_alloc_init(&ca);
        rc_grid *g = make(&ca);
        bytes before = grid_bytes(g);
        ca.fail_at = ca.allocations + n;
        bool ok = call(g);
        bool met = ca.failures > 0;
        ca.fail_at = 0;
        if (!ok) {
            EXPECT(met, "%s refused without a failing allocation", name);
            bytes after = grid_bytes(g);
            size_t at = first_difference(before, after);
            EXPECT(at == SIZE_MAX, "%s refused with allocation %lld failing changed the grid (%zu -> %zu bytes, first "
                   "difference at %zu)", name, (long long)n, before.size, after.size, at);
            free(after.data);
            refused++;
        }
        free(before.data);
        rc_grid_destroy(g);
        EXPECT(ca.live_bytes == 0 && ca.bad_frees == 0, "%s: leaked %lld bytes, %lld bad frees", name,
               (long long)ca.live_bytes, (long long)ca.bad_frees);
        ws_alloc_release(&ca);
        if (!met) {
            break;
        }
    }
    return refused;
}

/* An automatic grid whose proxies are all gone: no cell, but a table, records on free lists and
 * windows from before. */
static rc_grid *emptied_grid(ws_counting_alloc *ca) {
    rc_grid *g = busy_grid(ca);
    for (int32_t id = 0; id < 300; ++id) {
        if (rc_grid_is_proxy(g, id)) {
            EXPECT(rc_grid_remove(g, id), "remove");
        }
    }
    return g;
}
/* a box of another size than the ones before: the first guess at the cell size changes */
static bool insert_giant(rc_grid *g) { return rc_grid_insert(g, (rc_aabb){{0, 0}, {300, 300}}, 7) >= 0; }

typedef struct grid_case {
    const char *name;
    rc_grid *(*make)(ws_counting_alloc *);
    grid_call_fn *call;
} grid_case;

static const grid_case grid_cases[] = {
    {"rc_grid_insert_pieces", busy_grid, insert_wall},
    {"rc_grid_reserve", busy_grid, reserve_much},
    {"rc_grid_insert into an emptied automatic grid", emptied_grid, insert_giant},
};

START_TEST(refused_grid_calls_change_nothing) {
    const grid_case *c = &grid_cases[_i];
    int refused = check_grid_call(c->make, c->call, c->name);
    fprintf(stderr, "[refusals] %s: refused %d times, each with the grid unchanged\n", c->name, refused);
    EXPECT(refused > 0, "%s was never refused", c->name);
}
END_TEST

/* A batch gives the grid that the same calls give outside one (the same saved bytes: counts,
 * table, records, rebuilds at the same size checks); and with its Nth allocation failing, for
 * every N, each insert either succeeds (a rebuild may fail and be done without, as outside a
 * batch) or fails, and then the batch's abort leaves the grid's bytes as the batch found them. */
static bool batch_inserts(rc_grid *g, int count) {
    ws_rng r = {5};
    for (int i = 0; i < count; ++i) {
        float x = ws_range(&r, -80, 80) * (i % 9 == 0 ? 50.0f : 1.0f), y = ws_range(&r, -80, 80), h = ws_range(&r, 4, 12);
        int32_t id = rc_grid_insert(g, (rc_aabb){{x - h, y - h}, {x + h, y + h}}, i);
        if (id < 0) {
            return false;
        }
        if (i % 3 == 0) { /* (undone with the insert) */
            EXPECT(rc_grid_set_static(g, id, true) && rc_grid_set_mobile(g, id, i % 2 == 0), "flags");
        }
    }
    return true;
}

enum { BATCH = 800 }; /* larger boxes: the size checks at 512 and 1024 rebuild for a larger cell size */

/* A reserve and the inserts in a grid made by make, in a batch or not, with the allocation `fail`
 * after the batch began failing (0: none): the grid's bytes after it, and whether the failure
 * was met and the batch aborted. */
static bytes batch_run(rc_grid *(*make)(ws_counting_alloc *), bool batch, int64_t fail, bool *met, bool *aborted) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_grid *g = make(&ca);
    int32_t rebuilds = rc_grid_get_stats(g).rebuilds;
    bytes before = grid_bytes(g);
    EXPECT(!batch || rc_grid_begin_batch(g, BATCH), "begin");
    EXPECT(!batch || !rc_grid_begin_batch(g, 1), "a batch in a batch");
    ca.fail_at = fail > 0 ? ca.allocations + fail : 0;
    bool ok = rc_grid_reserve(g, 3000) && batch_inserts(g, BATCH);
    *met = ca.failures > 0;
    ca.fail_at = 0;
    *aborted = !ok;
    EXPECT(ok || (batch && *met), "an insert failed without a failing allocation");
    if (batch && ok) {
        rc_grid_end_batch(g);
    } else if (batch) {
        rc_grid_abort_batch(g);
    }
    EXPECT(fail > 0 || rc_grid_get_stats(g).rebuilds > rebuilds, "no rebuild: the batch's journal is not put to the test");
    bytes b = grid_bytes(g);
    size_t at = first_difference(before, b);
    EXPECT(ok || at == SIZE_MAX, "the batch aborted with allocation %lld failing left the grid changed (%zu -> %zu "
           "bytes, first difference at %zu)", (long long)fail, before.size, b.size, at);
    free(before.data);
    rc_grid_destroy(g);
    EXPECT(ca.live_bytes == 0 && ca.bad_frees == 0, "leaked %lld bytes, %lld bad frees (%s)", (long long)ca.live_bytes,
           (long long)ca.bad_frees, ca.first_bad);
    ws_alloc_release(&ca);
    return b;
}

START_TEST(a_batch_is_undone_whole) {
    rc_grid *(*makes[2])(ws_counting_alloc *) = {busy_grid, emptied_grid};
    for (int m = 0; m < 2; ++m) {
        bool met, aborted;
        bytes plain = batch_run(makes[m], false, 0, &met, &aborted), batched = batch_run(makes[m], true, 0, &met, &aborted);
        size_t at = first_difference(plain, batched);
        EXPECT(at == SIZE_MAX, "the batch gave another grid (%zu and %zu bytes, first difference at %zu)", plain.size,
               batched.size, at);
        free(plain.data);
        free(batched.data);
        int aborts = 0;
        int64_t fail = 1;
        for (;; ++fail) {
            bytes b = batch_run(makes[m], true, fail, &met, &aborted);
            free(b.data);
            aborts += aborted;
            if (!met) {
                break;
            }
        }
        fprintf(stderr, "[refusals] a batch of a reserve and %d inserts%s: %lld allocations, %d of them failing abort "
                "it\n", BATCH, m == 1 ? " into an emptied grid" : "", (long long)(fail - 1), aborts);
        EXPECT(aborts > 0, "no failing allocation aborted the batch");
    }
}
END_TEST

static Suite *refusals_suite(void) {
    Suite *s = suite_create("world_memory_refusals");
    TCase *t = tcase_create("refusals");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, refused_calls_change_nothing, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_loop_test(t, refused_grid_calls_change_nothing, 0, (int)(sizeof grid_cases / sizeof grid_cases[0]));
    tcase_add_test(t, a_batch_is_undone_whole);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(refusals_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
