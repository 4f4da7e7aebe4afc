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
} rc_body_undo;

/* A proxy's grid box before the step moved it. */
typedef struct rc_proxy_undo {
    int32_t proxy;
    rc_aabb box;
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
    int32_t parent;
    float rest_time; /* an island root: the least sleep time of its bodies */
    int32_t next;    /* a stack of bodies to wake */
} rc_island_node;

/* Continuous collision (continuous.c): a solid body that moved from (c1, a1) to where it is
 * now, fast for its size, is brought back to its first touch of a static or kinematic shape
 * on the way (time of impact), so that it cannot pass through walls. */
void rc_continuous(rc_world *world, rc_body *body, rc_vec2 c1, float a1);

/* Moving the bodies that are not swept (move.c), before the sweeps: kinematic and
 * detection-only ones (pass 0), then the solver's dynamic ones (pass 1). Each moved body keeps
 * its move and turn (step_move, step_turn); its shapes' grid boxes cover the whole motion where a
 * sweep may meet them. Returns how many grid entries the deferred moves add. */
int32_t rc_move_bodies(rc_world *world, float dt, int pass);
/* The deferred grid moves, once there is room for them and for their undoing; false when out of
 * memory (the moves made so far are in the undo log). */
bool rc_move_deferred(rc_world *world, int32_t additions);
/* Give a shape's proxy a new grid box, the old one logged for undoing (move.c). */
void rc_step_move_proxy(rc_world *world, const rc_shape *shape, rc_aabb box);
/* The box that holds a box's motion from `before` to `after` while its body turns by `turn`
 * about `center` (where it ends). */
rc_aabb rc_motion_box(rc_aabb before, rc_aabb after, rc_vec2 center, float turn);
/* Where a moved shape's proxy goes when sweeps may meet it: a fat box over its whole motion
 * from its proxy box before the move (`before`), turning by `turn` about `center`. Returns
 * false when its box in the grid already holds that motion. */
bool rc_motion_proxy_target(const rc_world *world, const rc_shape *shape, rc_aabb before, rc_vec2 center, float turn,
                            rc_aabb *target);

/* The soft step's settings from the world's definition, for a step of dt (step.c); the caller
 * fills in the arrays. */
void rc_soft_step_setup(const rc_world *world, rc_soft_step *step, float dt);
/* The solver's blocks for the constraints (world->blocks, aligned for the lanes); false when
 * out of memory. */
bool rc_reserve_blocks(rc_world *world, int32_t count);

/* Sleep (island.c): bodies slow for the world's sleep time fall asleep together with
 * everything that touches them (an island). */
void rc_update_sleep(rc_world *world, float dt);

#endif
