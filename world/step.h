/* world/step.h: the step (step.c, continuous.c, island.c): what it may have to put back when memory runs out
 * half way, the solver's settings, continuous collision and sleep. */
#ifndef RICOCHET_WORLD_STEP_H
#define RICOCHET_WORLD_STEP_H

#include <ricochet/world.h>

#include "shapes/collide.h"
#include "shapes/shapes.h"
#include "world/body.h"
#include "world/shape.h"
#include "world/solver.h"

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
    int32_t bounces_left, bounces_made;
    /* the last step's scratch, which a snapshot holds */
    int32_t solver_slot, step_bounces;
    rc_vec2 step_move;
    float step_turn;
} rc_body_undo;

/* The last step's scratch of a body that is not in this step (asleep, static), put back if the
 * step fails. */
typedef struct rc_body_scratch {
    int32_t body, solver_slot, step_bounces;
} rc_body_scratch;

/* A sweep run ahead on the task system (sweep_step.c): what it leaves of its body, and its
 * impacts, kept aside until its turn. impact_count -1: it is done again in its turn (it read the
 * velocity of a body that sweeps push, or made more impacts than are kept). */
#define RC_IMPACTS_AHEAD 2
typedef struct rc_kept_impact {
    int32_t shape;
    rc_vec2 point, normal;
    float approach;
    int32_t bounce;
    bool spent;
} rc_kept_impact;

typedef struct rc_sweep_ahead {
    rc_vec2 center, velocity;
    float angle, angular_velocity;
    int32_t bounces_left, bounces_made;
    int32_t last_shape;
    int32_t impact_count;
    rc_kept_impact impacts[RC_IMPACTS_AHEAD];
} rc_sweep_ahead;

/* A proxy's move in the step, to take back exactly if the step fails (note.box: its grid box
 * before). */
typedef struct rc_proxy_undo {
    int32_t proxy;
    rc_grid_move_note note;
} rc_proxy_undo;

/* A grid move that adds cells, made once the grid has room (move.c). */
typedef struct rc_deferred_move {
    int32_t shape;
    rc_aabb box;
} rc_deferred_move;

/* A contact gathered as a constraint: sorted by its solver body (slot) and then by key (its
 * shape's index above the other shape's). */
typedef struct rc_gather_entry {
    uint64_t key;
    int32_t contact, slot;
} rc_gather_entry;

/* Per-body step scratch for islands of touching bodies and for waking them. */
typedef struct rc_island_node {
    int32_t walk;    /* which of the step's island walks reached the body (island.c), from 1 */
    int32_t listed;  /* the next body the same walk reached, -1 at the end */
    int32_t next;    /* a stack of bodies to walk or to wake */
    bool in_undo;    /* while islands are walked (island.c): in the step's undo list */
    /* A body that kept this body's island awake when a sleep walk last reached it, and the
       world's island_epoch then (island.c): while no island has been split since, it is still in
       the island, and while it has not rested, the island is not walked again. -1: none. */
    int32_t blocker;
    uint32_t blocker_epoch;
} rc_island_node;

/* A kinematic body that moved in the step, as continuous collision meets it: its index, its
 * motion over the step, and its frames at the step's start and end (rc_sweep_transform of that
 * motion at 0 and 1). While the world holds no more kinematic bodies than RC_FEW_KINEMATICS, all
 * of them moving, a fast body slow in every one's frame has nothing in the grid of moving shapes
 * to look for. */
#define RC_FEW_KINEMATICS 4
typedef struct rc_moved_kinematic {
    int32_t body;
    rc_hull_sweep motion;
    rc_transform start, end;
    rc_rot back; /* its whole turn, as the step's sweeps turn a point at the start back (rc_sweep_bodies) */
} rc_moved_kinematic;

/* rc_continuous's work for a body fast for its size (continuous.c). */
void rc_continuous_fast(rc_world *world, rc_body *body, rc_vec2 c1, float a1, rc_rot q1, float dt);
/* Continuous collision (continuous.c): a solid body that moved from (c1, a1) to where it is
 * now, fast for its size, is brought back to its first touch of a static or kinematic shape
 * on the way (time of impact), so that it cannot pass through walls; a kinematic body it moves
 * slowly against (in that body's frame: dt, the step, gives that body's move) is let be. q1 is
 * its rotation at a1 (its xf.q before the move); its shapes are still placed where it started.
 * (Inline: every moved body asks, and most are slow for their size.) */
static inline void rc_continuous(rc_world *world, rc_body *body, rc_vec2 c1, float a1, rc_rot q1, float dt) {
    if (body->max_extent == 0.0f) {
        return; /* no solid shape (sensors only, or none): nothing of it can meet a wall */
    }
    float reach = rc_length(rc_sub(body->center, c1)) + fabsf(body->angle - a1) * body->max_extent;
    if (!(reach > 0.5f * body->min_extent)) {
        return; /* slow for its size: the contacts see whatever it comes near */
    }
    rc_continuous_fast(world, body, c1, a1, q1, dt);
}

/* Moving the bodies that are not swept (move.c), before the sweeps: kinematic and
 * detection-only ones (pass 0), then the solver's dynamic ones (pass 1). Each moved body keeps
 * its move and turn (step_move, step_turn); its shapes' grid boxes cover the whole motion where a
 * sweep may meet them. Returns how many grid entries the deferred moves add. */
int32_t rc_move_bodies(rc_world *world, float dt, int pass);
/* Does the shape's grid box look a step ahead along its body's velocity: a solid shape of a body
 * the solver moves, or a grenade's solid circle; not a bullet's, whose sweep meets every body
 * (move.c; asked by a moved body's placing, a sweep's end and the step's start alike). */
bool rc_shape_looks_ahead(const rc_body *b, const rc_shape *shape);
/* At a step's start: the grid boxes of the shapes moved since the last step's end (made, placed,
 * or their bodies' speeds changed: rc_body_list_speed_change) looking a step ahead along their
 * bodies' velocities (rc_proxy_target_ahead), as the last step's end left the others. Such a
 * box looked nowhere, or along the speed its body had: a crate made or kicked 0.2 from a free
 * plank at 30 units/s went through it, its pair found at the end of the step it was through in.
 * Moves that keep their grid cells are made (logged for undoing); the rest wait in the deferred
 * list, as rc_move_bodies leaves them. Returns how many grid entries the deferred moves add. */
int32_t rc_look_ahead_at_start(rc_world *world, float dt);
/* The deferred grid moves, once there is room for them, for their undoing and for undoing the
 * step's earlier moves, which added `made` entries; false when out of memory (the moves made so
 * far are in the undo log). */
bool rc_move_deferred(rc_world *world, int32_t additions, int32_t made);
/* Give a shape's proxy a new grid box, the old one logged for undoing (move.c). */
void rc_step_move_proxy(rc_world *world, const rc_shape *shape, rc_aabb box);
/* How far a point at distance 1 from a centre turning by `turn` strays off its chord: r (1 -
 * cos(turn/2)) at the middle, r turn^2 / 8 at most, and twice that covers the whole turn (at most
 * 2 r: across). Times the point's reach. */
static inline float rc_turn_bulge(float turn) { return rc_minf(0.25f * turn * turn, 2.0f); }
/* The box that holds a box's motion from `before` to `after` while its body turns by `turn`
 * about `center` (where it ends). */
rc_aabb rc_motion_box(rc_aabb before, rc_aabb after, rc_vec2 center, float turn);
/* Where a moved shape's proxy goes: `need` (its box, or its box over its motion) and that box
 * moved on by `ahead` (the step's move, which the next step's is like) and grown by `swing` (how
 * far its body's turn in a step carries its shapes: a kinematic body's, likewise; 0 for none),
 * then by the fat margin (by a linear slop when `ahead` is longer than that margin: the box is
 * left at the next step anyway). Returns false when its box in the grid already holds them
 * (move.c). */
bool rc_proxy_target_ahead(const rc_world *world, const rc_shape *shape, rc_aabb need, rc_vec2 ahead, float swing,
                           rc_aabb *target);
/* Where a moved shape's proxy goes when sweeps may meet it: a fat box over its whole motion
 * from its proxy box before the move (`before`), turning by `turn` about `center`, and on by
 * `ahead` and `swing` (rc_proxy_target_ahead; 0 for a shape that does not look ahead). Returns
 * false when its box in the grid already holds that motion. */
bool rc_motion_proxy_target(const rc_world *world, const rc_shape *shape, rc_aabb before, rc_vec2 center, float turn,
                            rc_vec2 ahead, float swing, rc_aabb *target);

/* Helpers of the step (step.c) that the sweeps share: log a body in the undo log (before a
 * change the step may have to put back); the velocity gravity and the applied force add over
 * a time h (within a step only: for a body with gravity alone at scale 1, over the step's
 * sub-step or the step, it is what the step's start worked out for the gravity then); the
 * fastest a body in the solver may turn in a sub-step of h. */
void rc_save_undo(rc_world *world, int32_t index);
/* (rc_force_kick: inline in world_internal.h, its work in rc_kick_of.) */
rc_vec2 rc_kick_of(const rc_world *world, float gravity_scale, rc_vec2 accel, float h);
float rc_spin_limit(const rc_world *world, const rc_body *b, float h);

/* The swept bodies move by their sweeps (sweep_step.c): grenades, then bullets, each in index
 * order, their impacts reported and the bodies they strike pushed in that order; the shapes of
 * each pass follow their bodies once all of its sweeps are done. With a task system, the sweeps
 * run ahead on its workers and the same bits come out (world->step_failed on failure). */
void rc_sweep_bodies(rc_world *world, float dt);

/* The soft step's settings from the world's definition, for a step of dt (step.c); the caller
 * fills in the arrays. */
void rc_soft_step_setup(const rc_world *world, rc_soft_step *step, float dt);
/* The solver's blocks for the constraints (world->blocks, aligned for the lanes); false when
 * out of memory. */
bool rc_reserve_blocks(rc_world *world, int32_t count);

/* Sleep (island.c): bodies slow for the world's sleep time fall asleep together with
 * everything that touches them (an island). */
void rc_update_sleep(rc_world *world, float dt);
/* Is the body at rest: no point of it faster than the world's sleep speed, and turning no faster
 * than its sleep turn (what lets it fall asleep)? */
bool rc_body_at_rest(const rc_world_def *def, const rc_body *b);
/* The walk over a dynamic body's island, the one rule for what sleeps and wakes together: start
 * is visited, then each dynamic body reached from it through touching solid contacts and joints,
 * passing only through bodies whose awake flag is not yet `awake`. visit must leave the body
 * awake as asked (that is how a body is taken once). The walk's stack is world->islands' next
 * fields, which must hold every body. */
typedef void rc_island_visit_fn(rc_world *world, int32_t body, void *context);
void rc_island_walk(rc_world *world, int32_t start, bool awake, rc_island_visit_fn *visit, void *context);
/* Outside the step (rc_body_set_awake): a dynamic body and its island (what touches it, what it
 * is jointed to, and so on through dynamic bodies) woken or put to sleep at once, as they sleep
 * together; a kinematic body is only woken. False when out of memory, nothing changed. */
bool rc_island_set_awake(rc_world *world, int32_t body, bool awake);
/* Outside the step: every sleeping dynamic body that touches one of b's shapes (only_shape's,
 * when it is >= 0) through a touching solid contact is woken with its island. The room for the
 * walks (world->islands, one node per body) must be reserved by the caller, before it changes
 * anything. */
void rc_island_wake_touching(rc_world *world, const rc_body *b, int32_t only_shape);
/* Outside the step, after a change that may set resting bodies moving (a body moved, a shape's
 * friction or restitution changed): a sleeping body is woken (a dynamic one with its island;
 * an awake one keeps its time at rest), and so is what touches it (rc_island_wake_touching), room reserved alike. Without it, a crate
 * asleep on a box that was moved away stayed asleep in the air (a contact that stops touching
 * wakes nobody), and one asleep on a slope made slippery stayed put. */
void rc_island_wake_changed(rc_world *world, rc_body *b, int32_t only_shape);

#endif
