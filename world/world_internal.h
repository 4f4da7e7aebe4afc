/* world/: the world.
 *
 * This header owns the world record (struct rc_world: the slot arrays behind the public ids,
 * their id pools from core/id_pool, the broadphase grid with one proxy per shape, the event
 * buffers, the step's scratch) and what every file of world/ shares about it: the lock, the
 * last-error record, id lookups, placed shape views and the world's tolerances. Each subsystem
 * has its own header with its records and functions: body.h, shape.h, chain.h (chains and long
 * walls), contact.h (and the narrow phase), solver.h (the soft step), projectile.h (sweeps),
 * step.h (undo, continuous collision, sleep). The world calls shapes/ for geometry and broadphase/ for candidates;
 * neither knows the world exists. */
#ifndef RICOCHET_WORLD_INTERNAL_H
#define RICOCHET_WORLD_INTERNAL_H

#include <ricochet/world.h>

#include <math.h>
#include <string.h>
#include <stdatomic.h>

#include "broadphase/broadphase.h"
#include "core/id_pool.h"
#include "core/map.h"
#include "core/memory.h"
#include "shapes/collide.h"
#include "shapes/shapes.h"
#include "world/body.h"
#include "world/chain.h"
#include "world/contact.h"
#include "world/joint.h"
#include "world/level_lean.h"
#include "world/projectile.h"
#include "world/shape.h"
#include "world/solver.h"
#include "world/step.h"

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

struct rc_world {
    /* every allocation goes through `allocator`, which counts the bytes held (tally.held) and
       passes the call on to the game's allocator (tally.inner: its hook, or malloc) */
    rc_allocator allocator;
    rc_mem_tally tally;
    rc_world_def def;
    /* the broadphase: the shapes of kinematic and dynamic bodies in grid, the level's (static
       bodies' shapes) in level_grid, which changes only when the level does (and by its moves,
       which the step forgets), so that a frame snapshot leaves it out with the rest of the level */
    rc_grid *grid;
    rc_grid *level_grid;
    /* callbacks running (queries, debug draw, the error callback): while > 0 every call that
       changes the world is refused. Atomic: queries on several threads count at once. */
    atomic_int locks;
    uint32_t id_salt; /* mixed into every id's generation: ids of other worlds are refused */

    /* slots and generation counts: the arrays' counts are the pools' high-water marks */
    RC_ARRAY(rc_body) bodies;
    RC_ARRAY(rc_body_mass_sums) body_masses; /* per body: its shapes' mass (body.h), sized with the bodies */
    rc_id_pool body_ids;
    RC_ARRAY(rc_shape) shapes;
    /* per shape slot (as many as shapes): the first contact of the shape's list, -1 for none.
       Beside the records, not in them: a frame snapshot writes and a restore reads every level
       shape's list head, and one record line a shape for 4 bytes was a tenth of a rollback */
    RC_ARRAY(int32_t) contact_heads;
    rc_id_pool shape_ids;
    RC_ARRAY(rc_vec2) poly_pool;
    RC_ARRAY(rc_chain) chains;
    rc_id_pool chain_ids;
    uint32_t poly_free[RC_MAX_POLYGON_VERTICES + 1]; /* by vertex count; UINT32_MAX when empty */
    RC_ARRAY(rc_contact) contacts;
    rc_id_pool contact_ids;
    rc_map contact_map; /* pair key -> contact index */
    rc_seam_cache seams; /* the level's seams as solids met them (contact_seam.c) */
    RC_ARRAY(rc_joint) joints;
    rc_id_pool joint_ids;
    rc_map joint_pairs; /* body pair key (rc_body_pair_key) -> joints between them with collide_connected false */

    RC_ARRAY(rc_contact_begin_event) contact_begin;
    RC_ARRAY(rc_contact_end_event) contact_end;
    RC_ARRAY(rc_sensor_event) sensor_begin;
    RC_ARRAY(rc_sensor_event) sensor_end;
    /* how many of each list the last step published; older entries are dropped next step */
    int32_t published[4];

    RC_ARRAY(rc_impact_event) impacts;
    int32_t published_impacts;

    /* step scratch, sized with the body array so the step never grows it */
    RC_ARRAY(rc_body_scratch) scratch_undo; /* the bodies not in the step whose scratch it cleared */
    /* the flagged contacts as they were before the step's refresh (rc_contacts_refresh), and
       where, for a step that fails to put back (sized by the flagged contacts at its start) */
    RC_ARRAY(rc_contact) refresh_undo;
    RC_ARRAY(int32_t) refresh_undo_at;
    RC_ARRAY(rc_body_undo) undo; /* the awake movable bodies, in index order; then bodies woken by the sweeps */
    RC_ARRAY(rc_island_node) islands; /* count: the bodies' (what a move of the array keeps) */
    RC_ARRAY(int32_t) moving; /* swept bodies from the front, bodies moved by velocity from the back */
    int32_t swept_count, free_start;
    int32_t swept_bullets, swept_shapes; /* among the swept: bullets, and their shapes */
    /* the kinematic bodies continuous collision meets (continuous.c): how many the world holds
       (start_step), and the first RC_FEW_KINEMATICS of those that moved in this step's first
       pass of moves, with their motion over the step worked out once (kinematic_frames: their
       start and end frames, made at the first fast body's look) */
    int32_t kinematic_bodies, moved_kinematic_count;
    rc_moved_kinematic moved_kinematics[RC_FEW_KINEMATICS];
    /* the solver's bodies (dynamic ones that respond, kinematic ones), in index order */
    RC_ARRAY(int32_t) solver_owner;
    /* per body, for the walks over every contact (most of a large level's contacts sleep): its
       solver slot this step (-1: none), and whether it is active (awake, not static; kept up
       to date as the step wakes bodies) */
    RC_ARRAY(int32_t) body_slots;
    RC_ARRAY(uint8_t) body_active;
    RC_ARRAY(uint64_t) contact_marks; /* a bit per contact: the walks of few awake bodies (contact_walk.c) */
    RC_ARRAY(int32_t) sweep_list;     /* the swept bodies of a pass of the sweeps (sweep_step.c) */
    RC_ARRAY(rc_sweep_ahead) sweeps_ahead; /* per body of a pass: its sweep run ahead on the task system */
    RC_ARRAY(rc_body_state) states;   /* two more than the solver's bodies: the still state and the sink */
    RC_ARRAY(uint32_t) colors;        /* per state: the colours its constraints took */
    RC_ARRAY(int32_t) constraint_order;
    /* per contact slot (count: the slots at the last gathering): its constraint, or -1 (gather.c);
       the step's look at each contact hands it the constraint's impulses (contact.c:
       commit_impulses, which sets each entry it reads back to -1) */
    RC_ARRAY(int32_t) contact_constraint;
    int32_t contact_constraint_set; /* its entries not -1 */
    int32_t swept_constraints;      /* the gathered constraints with a swept side */
    RC_ARRAY(rc_gather_entry) gather_entries; /* gathering the constraints: found, then sorted */
    RC_ARRAY(int32_t) gather_starts;            /* per solver body: where its constraints start */
    /* what the last gathering found (gather.c), kept while it still holds: its sorted entries
       after the found ones, and the solver's bodies it was found for; and whether the
       constraints' colours are still those of all of them (the last colouring's, when nothing
       was left out) */
    uint32_t contact_set_revision; /* bumped when a contact is made or ended, gets or loses its
                                      points, or a body changes its type or response */
    uint32_t gathered_revision;
    int32_t gathered_count, gathered_live; /* (gather_kept, colors_kept: below) */
    RC_ARRAY(int32_t) gathered_owners;
    /* the contacts whose bump of the revision came since the last gathering (made, ended, given
       or robbed of their points: rc_contact_set_changed), for the next to mend its kept list
       from rather than look at every contact again; set_changes_full: one did not fit (its
       room is reserved at each gathering, never while it logs), or a body changed (the flag
       is below, with the step's others) */
    RC_ARRAY(int32_t) set_changes;
    RC_ARRAY(rc_solver_line) blocks; /* the solver's blocks (rc_solver_block_lines of them) */
    RC_ARRAY(uint32_t) block_flags;  /* per block: RC_BLOCK_* (solver.h) */
    int32_t solver_lanes;            /* contacts to a block: rc_solver_widest_lanes at creation
                                        (the tests may ask for RC_SOLVER_LANES: the same bits) */
    rc_joint_runs joint_runs;        /* the step's joints colour by colour (75 int32_t: with
                                        solver_lanes, a whole number of 8-byte words) */
    RC_ARRAY(rc_vec2) kicks;         /* gravity and applied force per sub-step */
    RC_ARRAY(float) spin_kicks;      /* applied torque per sub-step */
    RC_ARRAY(float) turns;           /* the solver's turn of each of its bodies so far in the step */
    RC_ARRAY(rc_body_move_event) moves; /* this step's moved bodies (rc_world_body_move_events) */
    int32_t published_moves;
    RC_ARRAY(float) linear_damping;  /* per sub-step */
    RC_ARRAY(float) angular_damping;
    RC_ARRAY(float) spin_limits; /* per solver state: the fastest it may turn (rad/s) */
    RC_ARRAY(rc_contact_constraint) constraints;
    RC_ARRAY(rc_turning_constraint) turning; /* of the constraints, those whose normals turn (gather.c) */
    RC_ARRAY(rc_joint_constraint) joint_constraints; /* the step's joints in the solver */
    RC_ARRAY(rc_joint_wake) joint_woken;             /* bodies rc_joints_wake woke this step */
    RC_ARRAY(int32_t) joint_colors;                  /* the step's scratch, a joint slot each: its
                                                        colour (rc_joints_prepare) */
    RC_ARRAY(rc_solver_line) joint_blocks;           /* their blocks (rc_joint_block_lines) */
    RC_ARRAY(int32_t) support_shapes; /* per solver body: RC_MAX_SUPPORTS shapes holding it */
    RC_ARRAY(int32_t) support_counts;
    RC_ARRAY(int32_t) cancelled_shapes; /* per solver body: RC_MAX_SKIPPED shapes whose contact the pre-solve cancelled */
    RC_ARRAY(int32_t) cancelled_counts;
    rc_pre_solve_fn *pre_solve_fn; /* the game's (NULL: none) and its context */
    void *pre_solve_context;
    RC_ARRAY(uint8_t) held;           /* per solver body: some contact pushed on it this step */
    bool step_failed;
    bool kinematic_frames; /* moved_kinematics' frames are made (continuous.c) */
    bool marking_wakes; /* the update walks marked contacts: a body it wakes marks its own */
    bool wakes_undone;  /* the sweeps run: a body woken now is logged for the step's undoing */
    bool gather_kept, colors_kept; /* (gather.c: with gathered_revision above) */
    bool joint_lanes; /* plain revolute joints in blocks (true; the tests turn it off to compare bits) */
    RC_ARRAY(rc_deferred_move) deferred; /* grid moves that add cells: made after a reserve */
    RC_ARRAY(rc_proxy_undo) proxy_undo; /* the grid boxes the step changed, to put back if it fails */
    int32_t moves_listed; /* the grid's moved list at the step's start (changes since the last step) */
    uint32_t island_epoch; /* counts what may have split an island (rc_islands_split, island.c) */
    RC_ARRAY(int32_t) new_contacts;
    rc_contact_mark contacts_at_start; /* the contact slots before the step made new_contacts */
    bool pair_failed;
    bool extents_stale;    /* some body's extents are (rc_bodies_refresh_extents) */
    bool set_changes_full; /* (set_changes above) */
    bool gather_mended;    /* the last gathering mended its kept list (for the tests) */

    int32_t steps;
    float contact_dt; /* the step's length while its contacts are refreshed (0 outside a step) */
    /* step scratch (step.c: rc_force_kick): the kick of gravity alone on a body of gravity scale
       1 with no force of its own (most bodies) over the sub-step and over the step, worked out at
       the step's start; kick_times[k] is 0 where none is kept (a step of 0 kicks nothing) */
    float kick_times[2];
    rc_vec2 plain_kicks[2];
    bool contacts_flagged; /* some contact may be flagged: rc_contacts_update has not seen it yet */
    /* giving memory back (compact.c): the most slots in use since it was last done */
    int32_t peak_bodies, peak_shapes, peak_contacts, peak_chains;
    int32_t poly_used; /* entries of poly_pool in live blocks */
    /* snapshot.c: the records the last restore replaced, kept for the next one to read into
       (rollback restores every frame: no allocation then), and the steps since; given back
       once restores stop (compact.c) */
    int32_t steps_since_restore;
    struct rc_world *spare;
    /* (a spare's) the level_revision + 1 of its world's level, whose records it holds at their
       slots as the world does: the world's old records after a restore over its own level (0:
       not known to). The next such restore reads into it without copying the level again. */
    uint64_t held_level;
    int64_t sleep_walks; /* island walks the sleep has made (island.c; for the tests) */
    /* the level (world/snapshot.h): how many times it changed, and the checksum of its snapshot
       section kept for a revision (kept_revision = revision + 1; 0: none kept). Atomic: snapshots
       (queries) on several threads may keep it at once, each the same value. */
    uint64_t level_revision;
    /* the level's lean copy for closest-hit casts (level_lean.h); lean_off: none is made (the
       tests set it, to compare the two walks) */
    rc_level_lean level_lean;
    bool lean_off;
    /* the level's slots, for restores over the world's own level (world/snapshot.h; NULL: none) */
    struct rc_level_index *level_index;
    _Atomic(uint64_t) level_kept_revision;
    _Atomic(uint64_t) level_kept_checksum;
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

/* The level (static bodies, the shapes and chains on them: world/snapshot.h) may have changed:
 * the checksum the world keeps of it for frame snapshots is stale. rc_body_for_change and
 * rc_shape_for_change call it for a static body and a shape on one; making a static body, making
 * a body static and moving the polygon pool's blocks call it too. */
static inline void rc_level_changed(rc_world *world) { world->level_revision++; }

/* Contact `contact` was made or ended, or got or lost its points: the contact set changed
 * (gather.c keeps it), and the next gathering looks at this contact again. */
static inline void rc_contact_set_changed(rc_world *world, int32_t contact) {
    world->contact_set_revision++;
    if (world->set_changes.count < world->set_changes.capacity) {
        world->set_changes.data[world->set_changes.count++] = contact;
    } else {
        world->set_changes_full = true;
    }
}
/* A body's type or response changed: which of its contacts the solver takes may change, and the
 * next gathering looks at every contact. */
static inline void rc_contact_set_changed_all(rc_world *world) {
    world->contact_set_revision++;
    world->set_changes_full = true;
}

/* A contact's point count. Whether it has points is what the solver's gathering keeps
 * (gather.c): a change of that is a change of the contact set. */
static inline void rc_contact_set_point_count(rc_world *world, rc_contact *c, int32_t n) {
    if ((c->point_count > 0) != (n > 0)) {
        rc_contact_set_changed(world, (int32_t)(c - world->contacts.data));
    }
    c->point_count = n;
}

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
static inline bool rc_segment_faces(rc_vec2 a, rc_vec2 b, rc_vec2 p) {
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) > 0.0f;
}
static inline bool rc_shape_faces(const rc_shape *s, rc_vec2 p) {
    return !s->one_sided || s->kind != RC_SHAPE_SEGMENT || rc_segment_faces(s->segment[0], s->segment[1], p);
}
/* The shape's polygon as defined, before the base transform (vertices and centroid only). */
rc_convex rc_shape_local(const rc_world *world, const rc_shape *shape);
/* A shape def's checks (materials) and its base transform. */
bool rc_shape_def_ok(rc_world *world, const rc_shape_def *def, const char *func);
rc_base_transform rc_shape_def_base(const rc_shape_def *def);

/* The pre-solve callback (pre_solve.c): ask it about a hit, with the world locked (false: the
 * hit is cancelled; a restitution or friction it set that is not finite and >= 0 is refused and
 * put back); and about a contact about to become constraint k between shape_a and shape_b
 * (-1 with `preview`: the previewed body), when either asks for it, giving k the materials it
 * set. */
bool rc_ask_pre_solve(const rc_world *world, rc_pre_solve *hit);

/* The closest hit of a ray (radius 0) or swept circle, its inputs already checked (finite, the
 * filter's ignore_body null or live; filter NULL: every shape but sensors): what
 * rc_world_cast_ray_filtered and its kin answer (query.c). */
bool rc_cast_closest_trusted(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                             const rc_query_filter *filter, rc_ray_hit *hit);

/* Run task over items 0 .. count - 1 on the world's task system (task.c): on the calling
 * thread, as one range with worker 0, when the world has none, one worker, or no more than
 * min_range items. The world is locked meanwhile. */
void rc_run_task(const rc_world *world, rc_task_fn *task, int32_t count, int32_t min_range, void *context);
bool rc_pre_solve_constraint(const rc_world *world, rc_contact_constraint *k, int32_t shape_a, int32_t shape_b,
                             const rc_contact_point *points, int32_t point_count, rc_vec2 normal,
                             const rc_sweeper *preview);
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
/* Within a moving body's reach (RC_BODY_REACH) of its position, in its frame: a point, or a
 * box (a shape placed at RC_TRANSFORM_IDENTITY). NaN is not. */
static inline bool rc_in_body_reach(rc_vec2 p) {
    return p.x >= -RC_BODY_REACH && p.x <= RC_BODY_REACH && p.y >= -RC_BODY_REACH && p.y <= RC_BODY_REACH;
}
static inline bool rc_box_in_body_reach(rc_aabb b) { return rc_in_body_reach(b.lower) && rc_in_body_reach(b.upper); }
#define RC_BEYOND_BODY_REACH                                                                                           \
    "a shape or the centre of mass of a moving body would lie beyond RC_BODY_REACH of its position"
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
/* Beyond the centre: a body's centre of mass as held, its origin and its shapes as placed
 * must all lie within the limit, and its turn swings the origin and the shapes about the
 * centre (a centre of mass set 1e18 from the origin carried the origin out to 2e18 in half a
 * turn). Within RC_HOLD_QUICK of the origin on both axes the centre keeps them all within it:
 * each lies within 2 sqrt(2) RC_BODY_REACH (0.71 RC_WORLD_LIMIT) of the centre, so within 0.96
 * RC_WORLD_LIMIT of the origin, far more than rounding from the edge. Only a body beyond it (no
 * game goes there) has its shapes' boxes worked out again to look. */
#define RC_HOLD_QUICK (0.25f * RC_WORLD_LIMIT)
static inline bool rc_hold_is_quick(rc_vec2 center) {
    return fabsf(center.x) <= RC_HOLD_QUICK && fabsf(center.y) <= RC_HOLD_QUICK;
}
/* One axis of rc_shift_into_world. */
static inline bool rc_shift_axis_into_world(float lower, float upper, float *center, float *velocity) {
    if (upper > RC_WORLD_LIMIT) {
        float back = upper - RC_WORLD_LIMIT;
        if (lower - back < -RC_WORLD_LIMIT) {
            return false;
        }
        *center -= back;
        *velocity = 0.0f;
    } else if (lower < -RC_WORLD_LIMIT) {
        float on = -RC_WORLD_LIMIT - lower;
        if (upper + on > RC_WORLD_LIMIT) {
            return false;
        }
        *center += on;
        *velocity = 0.0f;
    }
    return true;
}
/* Move a body's centre back along each axis by as much as `box` (its numbers: centre, origin,
 * shapes as placed) reaches past the limit, and drop its velocity along that axis; false when
 * the box is wider than the world along an axis (then no move brings it back). The caller
 * places the body again and looks (the new numbers round afresh). */
static inline bool rc_shift_into_world(rc_aabb box, rc_vec2 *center, rc_vec2 *velocity) {
    return rc_shift_axis_into_world(box.lower.x, box.upper.x, &center->x, &velocity->x) &&
           rc_shift_axis_into_world(box.lower.y, box.upper.y, &center->y, &velocity->y);
}
/* How many times a hold shifts a body and looks again before it gives up (and the body stays
 * where it was): one shift brings it back but for a rounding, a second for that. */
#define RC_HOLD_TRIES 2
/* A swept circle of this radius about *center held within the limit (rc_world_predict's, as
 * rc_hold_body_in_world holds a body of that circle alone): false when it could not be. (Its
 * box is looked at whatever the centre: a preview's radius need not be within RC_BODY_REACH.
 * Where the body's quick test passes, the box is within and both leave the centre as it is.) */
static inline bool rc_hold_circle_in_world(rc_vec2 *center, rc_vec2 *velocity, float radius) {
    for (int k = 0;; ++k) {
        rc_aabb box = rc_circle_box((rc_circle){*center, radius}); /* (holds the centre too) */
        if (rc_box_in_world(box)) {
            return true;
        }
        if (k == RC_HOLD_TRIES || !rc_shift_into_world(box, center, velocity)) {
            return false;
        }
    }
}
/* The same for a body: its centre, origin and shapes placed at its centre and angle, and moved
 * back as a whole; false when it could not be (the caller leaves it where it was). Its origin
 * (xf.p) is for the caller to set from the centre (rc_body_origin_at). */
bool rc_hold_body_in_world(const rc_world *world, rc_body *body);

/* Body internals. */
/* A point mass the step can divide by: finite, and at least FLT_MIN so that its inverse is a
 * float (a denormal one gave an infinite inverse mass, and a bullet's position turned NaN). */
static inline bool rc_point_mass_ok(float mass) { return mass >= FLT_MIN && mass <= RC_MAX_MASS; }
/* A shape of a dynamic body weighs something unless its density is 0: density times area at
 * least FLT_MIN. (A polygon of no area in float, say 1e-30 across, passed rc_make_polygon's
 * test, relative to its size, and its body fell back to its point mass; a 3e-20 box weighed a
 * denormal 3.6e-39.) */
static inline bool rc_shape_mass_weighs(float density, rc_mass_data md) {
    return density == 0.0f || md.mass >= FLT_MIN;
}
#define RC_SHAPE_WEIGHS_NOTHING                                                                                        \
    "a shape on a dynamic body must have an area (its density times its area at least FLT_MIN), or density 0"
/* Do all the body's solid shapes weigh something (rc_shape_mass_weighs), as a dynamic body's must? */
bool rc_body_shapes_weigh(const rc_world *world, const rc_body *b);
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
    double s2 = vx * vx + vy * vy, max = world->def.max_linear_speed, wmax = world->def.max_angular_speed;
    /* (well below the limit, the common case, without the square root: the same answer) */
    if (!(s2 <= 0.98 * max * max)) {
        double speed = sqrt(s2);
        if (speed > max) {
            vx *= max / speed;
            vy *= max / speed;
        }
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
/* The grid keeps a moving shape's proxy box larger by a fat margin (six linear slops: more than
 * the four of a contact's speculative reach at rest), and moves it only once the shape's proxy box
 * leaves it: a body at rest or moving little changes nothing in the grid and makes no new pairs.
 * A solid shape's grid box covers where the step's move would take it next too
 * (move.c: rc_proxy_target_ahead): the margin need not cover motion (it was ten slops, and pairs still
 * came late for bodies closing faster than that). Static shapes' grid boxes are their proxy
 * boxes exactly. */
static inline float rc_world_fat_margin(const rc_world *world) { return 6.0f * world->def.linear_slop; }
rc_aabb rc_shape_fat_box(const rc_world *world, const rc_shape *shape);
/* Does the proxy's box in the grid still hold the shape's proxy box (equal it, static)? */
bool rc_shape_proxy_fits(const rc_world *world, const rc_shape *shape);
/* If not, give the proxy the shape's fat box (reserved by the caller). */
void rc_shape_refit_proxy(rc_world *world, const rc_shape *shape);
/* The step's constraints from the contacts (gather.c), in world->constraints; false when out
 * of memory (nothing else changed). */
bool rc_gather_constraints(rc_world *world);
/* Was every contact the last gathering found made a constraint (none a swept body's strike or
 * cancelled by the pre-solve callback)? Then the constraints are the kept list's, whole. */
static inline bool rc_gather_all_made(const rc_world *world) {
    return world->gather_kept && world->constraints.count == world->gathered_count;
}
/* The next gathering looks at every contact again (the world's records were replaced). */
void rc_gather_forget(rc_world *world);
/* A shape's material, filter or base transform changed outside the step: its body's island and
 * the sleeping bodies touching it wake (rc_island_wake_changed; a chain's record or segment: what
 * touches any shape of its body). Room for the walks reserved by the caller (world->islands). */
void rc_shape_wake_changed(rc_world *world, int32_t shape);
/* Refit the proxy and have the next step's pair finding look at all its pairs again, even if its
 * box stays: what a pairing rule refused (a filter, a body type) may pair now. */
void rc_shape_refind_pairs(rc_world *world, const rc_shape *shape);
/* Tell the grid what a proxy's body type makes it: static (its cells keep copies of its box
 * for faster queries: static shapes rarely move) and mobile (a dynamic body's: the sweeps of
 * grenades, which strike only the static and kinematic world, skip it unread). */
void rc_proxy_follow_body_type(rc_world *world, int32_t proxy, rc_body_type type);
/* The grid holding the proxies of a body of the given type's shapes: the level's for a static
 * body, the other for the rest. */
static inline rc_grid *rc_grid_for_type(const rc_world *world, rc_body_type type) {
    return type == RC_STATIC ? world->level_grid : world->grid;
}
static inline rc_grid *rc_shape_grid(const rc_world *world, const rc_shape *s) {
    return rc_grid_for_type(world, (rc_body_type)s->body_type);
}
/* After the level grid changed (a proxy made, moved or gone): refit its windows and give back its
 * memory now, as the step does for the other grid, so that the level grid stays as the level
 * left it until the level changes again (the step never rebuilds it). */
static inline void rc_level_grid_settle(rc_world *world) { (void)rc_grid_optimize(world->level_grid); }
/* The cell size of the world's broadphase (rc_world_counters.cell_size; a scale for searches):
 * the level grid's, or the other's while the level has no shapes. */
float rc_world_cell_size(const rc_world *world);
/* grids.c: the two grids asked as one, the level's first (see there). A box that is not valid
 * finds nothing; the casts' arguments are rc_grid_cast_trusted's. A cast offers a long wall of
 * the level once for each of its pieces it reaches, often one after another: a callback whose
 * answer depends on the shape alone (the closest-hit casts, the sweeps) skips an offer naming
 * the shape it was offered last, which would repeat its test and its answer (a ray along a
 * wall of 256 pieces tested it 256 times). */
void rc_world_query_grids(const rc_world *world, rc_aabb box, bool skip_mobile, rc_grid_query_fn *fn, void *context);
void rc_world_query_point_grids(const rc_world *world, rc_vec2 point, rc_grid_query_fn *fn, void *context);
/* The grid changes of one call that makes proxies in a batch on each grid (rc_grid_begin_batch;
 * the counts: how many inserts to expect, a long wall's pieces one each): a call that refuses
 * when one of them fails aborts both batches (rc_world_abort_grid_batches), which puts the grids
 * back as they were to the byte; one that goes on ends them before it moves or removes a proxy
 * (rc_world_end_grid_batches). False, with nothing changed, when memory runs out. */
bool rc_world_begin_grid_batches(rc_world *world, int32_t level_inserts, int32_t inserts);
void rc_world_abort_grid_batches(rc_world *world);
void rc_world_end_grid_batches(rc_world *world);
/* level_lean.c: make the level's lean copy again if the level changed since it was made (the
 * step does, first); memory running out leaves none, and casts walk the grids. */
void rc_level_lean_refresh(rc_world *world);
void rc_level_lean_free(rc_world *world);
/* The lean copy, or NULL when the level changed since it was made. */
static inline const rc_level_lean *rc_fresh_level_lean(const rc_world *world) {
    return world->level_lean.revision == world->level_revision + 1u ? &world->level_lean : NULL;
}
void rc_world_cast_grids(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                         bool skip_mobile, rc_grid_ray_fn *fn, void *context);
/* Do the grid boxes of two shapes' proxies overlap (in whichever grids they are)? */
bool rc_world_proxies_overlap(const rc_world *world, const rc_shape *a, const rc_shape *b);
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

/* The number of the step before the current one (world->steps counts steps taken and wraps
 * after 2^31 of them, 414 days at 60 Hz: unsigned arithmetic, never an overflow). */
static inline int32_t rc_world_previous_step(const rc_world *world) { return (int32_t)((uint32_t)world->steps - 1u); }

/* The solver's sub-step for a step of dt (0 for a denormal dt cut in sub-steps: then nothing
 * moves, as nothing could in so short a step). */
static inline float rc_sub_step(const rc_world *world, float dt) { return dt / (float)world->def.sub_steps; }

/* Constraints from contacts (the step's gathering and the preview share these). Inline: the
 * gathering makes one per touching contact every step, and as calls into contact.c they cost
 * the quick large pyramid 1.3% of its instructions. */
/* Materials of a pair: friction (square root of the product), restitution (the larger),
 * rolling torque arm (the larger of resistance times radius, for round shapes). */
static inline float rc_pair_friction(const rc_shape *a, const rc_shape *b) {
    return rc_mix_friction(a->friction, b->friction);
}
static inline float rc_pair_restitution(const rc_shape *a, const rc_shape *b) {
    return rc_maxf(a->restitution, b->restitution);
}
/* A shape's radius for rolling resistance: a circle's (or a capsule's), 0 for flat shapes. */
static inline float rc_shape_round_radius(const rc_shape *s) {
    return s->kind == RC_SHAPE_CIRCLE || s->kind == RC_SHAPE_CAPSULE ? s->circle.radius : 0.0f;
}
static inline float rc_pair_rolling(const rc_shape *a, float radius_a, const rc_shape *b, float radius_b) {
    return rc_maxf(rc_rolling_torque_arm(a->rolling_resistance, radius_a),
                   rc_rolling_torque_arm(b->rolling_resistance, radius_b));
}
/* A constraint's normal, points (anchors, separations, the impulses to start from) and rolling
 * impulse, from a contact's. */
static inline void rc_constraint_load(rc_contact_constraint *k, rc_vec2 normal, const rc_contact_point *points,
                                      int32_t count, float rolling_impulse) {
    k->normal = normal;
    k->rolling_impulse = rolling_impulse;
    k->point_count = count;
    for (int32_t i = 0; i < count; ++i) {
        const rc_contact_point *p = &points[i];
        rc_constraint_point *q = &k->points[i];
        q->anchor_a = p->anchor_a;
        q->anchor_b = p->anchor_b;
        q->base_separation = p->separation - rc_dot(rc_sub(p->anchor_b, p->anchor_a), normal);
        q->normal_impulse = p->normal_impulse;
        q->tangent_impulse = p->tangent_impulse;
    }
}
/* Sleep's remembered blockers (island.c): something may have split an island or taken a body
 * out of one (a touching contact ended or went, a joint went, a body went, changed type or fell
 * asleep, a snapshot was restored), so the blockers remembered before it are forgotten. */
void rc_islands_forget(rc_world *world); /* every blocker forgotten (island.c) */
static inline void rc_islands_split(rc_world *world) {
    if (++world->island_epoch == 0u) {
        rc_islands_forget(world); /* (wrapped: an epoch of 2^32 splits ago would look current) */
    }
}
/* A body's island node as a new body's (no blocker remembered). */
static inline void rc_island_node_init(rc_world *world, int32_t body) {
    world->islands.data[body].blocker = -1;
    world->islands.data[body].blocker_epoch = 0;
}

/* The velocity gravity and the applied force add over a time h (step.h): for a body with gravity
 * alone at scale 1, over the step's sub-step or the step, what the step's start worked out
 * (kick_times, plain_kicks). Inline: asked for every body that moves, every step. */
static inline rc_vec2 rc_force_kick(const rc_world *world, const rc_body *b, rc_vec2 accel, float h) {
    uint64_t accel_bits;
    memcpy(&accel_bits, &accel, sizeof accel_bits);
    if (b->gravity_scale == 1.0f && accel_bits == 0u && h > 0.0f) {
        /* (gravity alone: kept at the step's start, two thirds of this work for most bodies) */
        for (int k = 0; k < 2; ++k) {
            if (world->kick_times[k] == h) {
                return world->plain_kicks[k];
            }
        }
    }
    return rc_kick_of(world, b->gravity_scale, accel, h);
}

/* Could a contact be a strike at all (rc_contact_is_swept_strike): one side a swept circle, the
 * other static or kinematic? Inline: the gathering asks it of every constraint. */
static inline bool rc_contact_may_strike(const rc_world *world, const rc_contact *c) {
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    return a->swept != b->swept && (a->swept ? b : a)->body_type != RC_DYNAMIC;
}

/* A constraint's friction, restitution, rolling arm and target separation, from the shapes of
 * its two sides (first: its first point). */
static inline void rc_constraint_materials(const rc_world *world, rc_contact_constraint *k, const rc_shape *a,
                                           const rc_shape *b, const rc_contact_point *first) {
    k->friction = rc_pair_friction(a, b);
    k->restitution = rc_pair_restitution(a, b);
    k->rolling = rc_pair_rolling(a, rc_shape_round_radius(a), b, rc_shape_round_radius(b));
    /* a swept body rests a skin off a surface, as its sweeps stop; solid bodies are held at
       zero overlap (Box2D v3's target: held a slop deep, every contact of a stack had a slop
       of give in which it held nothing firmly, and a pyramid of 100 rows sank 1.25 and
       sheared sideways for seconds instead of 0.73 and standing). On the static and kinematic
       world the swept body's contact is rigid (exactly a skin off); against other dynamic
       bodies (a pile of grenades) it stays soft: rigid contacts there fought each other and
       the pile never came to rest */
    bool swept = a->swept || b->swept;
    k->rigid = swept && (a->body_type != RC_DYNAMIC || b->body_type != RC_DYNAMIC);
    k->round_a = a->kind == RC_SHAPE_CIRCLE;
    k->round_b = b->kind == RC_SHAPE_CIRCLE;
    k->swept_a = a->swept;
    k->swept_b = b->swept;
    k->target = swept ? rc_world_skin(world, first->point) : 0.0f;
}

/* Give back memory that is no longer needed, at the end of a step (compact.c): the slot arrays
 * once three quarters of their peak use is gone (slots above the last live one are forgotten),
 * scratch and event arrays four times larger than their use, the polygon pool, the grid. Only
 * counts decide what is done, never the allocator: a failed allocation keeps the larger array
 * and changes nothing else. */
void rc_world_give_back_memory(rc_world *world);

#define rc_array_shrink(world, array, keep) rc_array_shrink_aligned(world, array, keep, 16)
#define rc_array_shrink_aligned(world, array, keep, align)                                                             \
    rc_mem_shrink_aligned(&(world)->allocator, (void **)&(array).data, &(array).capacity, (array).count, (keep),     \
                          sizeof(*(array).data), (align))

/* Do the world's records link up (validate.c)? Every live body, shape, chain and contact names
 * live records of the right kind, its lists end and hold only what belongs in them, and the id
 * pools hand out exactly the live slots with the generations the records carry. seen: zeroed
 * scratch of a byte per record of the largest array (bodies, shapes, chains, contacts), zero
 * again on return. For restore (a snapshot's links) and for tests. */
bool rc_world_links_valid(const rc_world *world, uint8_t *seen);
/* The same with the level's records (the slots lv gives: its world's level, whose records these
 * are) taken as valid but for their contact lists: their generations are checked against the
 * pools, their bodies' lists are not walked (lv NULL: every record is looked at). */
bool rc_world_links_valid_beside(const rc_world *world, uint8_t *seen, const struct rc_level_index *lv);
/* Does every live body's level_contacts (body.h) count its contacts with static and kinematic
 * bodies, and its kinematic_contacts those with kinematic bodies (a dynamic body's; 0 for the
 * others), but for a count that reached UINT8_MAX? */
bool rc_world_level_counts_valid(const rc_world *world);

/* The world's arrays of persistent records, beside its grid, id pools and contact map: what a
 * snapshot holds, what rc_world_free_records gives back and what a restore swaps in. */
#define RC_WORLD_RECORD_ARRAYS(X)                                                                                      \
    X(bodies) X(shapes) X(contact_heads) X(poly_pool) X(chains) X(contacts) X(contact_begin) X(contact_end)         \
    X(sensor_begin) X(sensor_end) X(impacts) X(moves) X(joints)

/* Give back the world's persistent records (world.c): the grid, the id pools, bodies, shapes,
 * the polygon pool, chains with their blocks, contacts and their map, the event arrays (what a
 * snapshot holds). The world's own record and its step scratch stay. */
void rc_world_free_records(rc_world *world);
/* Give back the records the last restore replaced (snapshot.c). */
void rc_world_free_spare(rc_world *world);
/* Give back the index of the level's slots (snapshot_level.c). */
void rc_level_index_free(rc_world *world);

/* The key of an unordered pair of body indices: as a contact's of its shapes. */
static inline uint64_t rc_body_pair_key(int32_t a, int32_t b) { return rc_contact_key(a, b); }

/* Events between steps. */
void rc_events_begin_step(rc_world *world);
void rc_events_end_step(rc_world *world);

#endif
