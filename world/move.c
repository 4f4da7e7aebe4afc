/* Moving the bodies that are not swept, before the sweeps: kinematic and detection-only bodies by
 * their velocities, then the solver's dynamic bodies by the motion it found (fast ones stopped
 * at their first touch of a static or kinematic body, continuous.c). Each moved body keeps its
 * move and turn for the step (step_move, step_turn), and where a swept body could meet it, its
 * shapes' grid boxes cover their whole motion: the sweeps then meet it anywhere along the way
 * (projectile.c), found by the grid's walk like any shape. */
#include "world/world_internal.h"

#include <math.h>

/* A proxy's grid box changed by the step, the old one logged first (the log has room for every
 * shape: reserve_scratch). */
void rc_step_move_proxy(rc_world *world, const rc_shape *shape, rc_aabb box) {
    rc_proxy_undo *u = &world->proxy_undo.data[world->proxy_undo.count++];
    u->proxy = shape->proxy;
    (void)rc_grid_move_trusted(world->grid, shape->proxy, box, &u->note);
}

rc_aabb rc_motion_box(rc_aabb before, rc_aabb after, rc_vec2 center, float turn) {
    rc_aabb box = rc_aabb_union(before, after);
    if (turn != 0.0f) {
        /* (its corners' reach from the centre: rc_turn_bulge) */
        float rx = rc_maxf(fabsf(after.lower.x - center.x), fabsf(after.upper.x - center.x));
        float ry = rc_maxf(fabsf(after.lower.y - center.y), fabsf(after.upper.y - center.y));
        float bulge = sqrtf(rx * rx + ry * ry) * rc_turn_bulge(turn);
        box.lower = rc_v2(box.lower.x - bulge, box.lower.y - bulge);
        box.upper = rc_v2(box.upper.x + bulge, box.upper.y + bulge);
    }
    return box;
}

/* May a swept body meet this body in this step, so that its grid boxes must cover its motion?
 * Every sweep looks at kinematic bodies, bullets at dynamic ones too (not at other bullets). */
static bool seen_by_sweeps(const rc_world *world, const rc_body *b) {
    if (b->type == RC_KINEMATIC) {
        return world->swept_count > 0;
    }
    return world->swept_bullets > 0 && !b->bullet;
}

static rc_aabb box_ahead(rc_aabb box, rc_vec2 ahead) {
    box.lower = rc_v2(box.lower.x + rc_minf(ahead.x, 0.0f), box.lower.y + rc_minf(ahead.y, 0.0f));
    box.upper = rc_v2(box.upper.x + rc_maxf(ahead.x, 0.0f), box.upper.y + rc_maxf(ahead.y, 0.0f));
    return box;
}

/* Does a moved shape's grid box look one step ahead (rc_proxy_target_ahead): a solid shape of a
 * dynamic or kinematic body that responds (not a sensor), and is not swept? A kinematic chain's
 * walls too: looking no further than their fat boxes, a chain moving at 40 units/s came on a box
 * at rest only once it was over its middle, and passed it (a kinematic box wall held it).
 * (A swept body's shapes follow its sweep: a grenade's look ahead there, sweep_step.c; a
 * bullet's do not, its sweep meets what it strikes in the step, and a pair found a step early
 * made a bullet's contact hold it off the box it was to strike.) */
static bool solid_moves_ahead(const rc_body *b, const rc_shape *shape) {
    return b->type != RC_STATIC && b->motion == RC_MOTION_FREE && b->enable_response && !shape->sensor;
}

/* Where a moved shape's proxy goes: `need` (its box, or its box over its motion) and that box
 * moved on by `ahead` (the step's move, which the next step's is like), grown by the fat margin.
 * Returns false when its box in the grid already holds them. A pair whose shapes may close in
 * the next step is found at this one's end, in time for its contact's speculative points (found
 * only once the boxes overlapped, two crates flying head-on at 15 units/s each sank 0.35 into
 * each other before the contact held them).
 *
 * The fat margin keeps a body that jiggles in place in its grid box. A body that moved further
 * than the margin in the step leaves a box so grown at the next step if it keeps its speed (its
 * box there reaches a move beyond this step's `ahead`): the margin would only make more pairs,
 * each a contact to collide (a tumbler's crowd, all moving: 4.7% of its instructions). Its box is
 * grown by a linear slop only, which covers the change in a falling body's move from one step to
 * the next (g dt^2: 0.0028 at 60 Hz). */
static float target_margin(const rc_world *world, rc_vec2 ahead) {
    float m = rc_world_fat_margin(world);
    return rc_maxf(fabsf(ahead.x), fabsf(ahead.y)) >= m ? world->def.linear_slop : m;
}

/* How far a body's turn over a step carries its shapes' points at most (the chord of the arc is
 * no longer than its reach times the turn), for its grid boxes to look ahead by: a kinematic
 * body's, whose turn the game sets and keeps. Without it a pair with a turning kinematic body
 * came a step late: a blade turning at 5 rad/s met crates at rest by its face only once it was
 * over them, 0.08 deep on average. (A dynamic body's turn changes as it meets things: looking
 * ahead by it changed nothing a spinning plank met, and cost the rain 2%.) */
static float swing_of(const rc_body *b, float turn) {
    return b->type == RC_KINEMATIC ? b->max_extent * fabsf(turn) : 0.0f;
}

bool rc_proxy_target_ahead(const rc_world *world, const rc_shape *shape, rc_aabb need, rc_vec2 ahead, float swing,
                           rc_aabb *target) {
    need = box_ahead(need, ahead);
    if (swing > 0.0f) {
        need.lower = rc_v2(need.lower.x - swing, need.lower.y - swing);
        need.upper = rc_v2(need.upper.x + swing, need.upper.y + swing);
    }
    if (rc_aabb_contains(rc_grid_get_box(world->grid, shape->proxy), need)) {
        return false;
    }
    float m = target_margin(world, ahead);
    target->lower = rc_v2(need.lower.x - m, need.lower.y - m);
    target->upper = rc_v2(need.upper.x + m, need.upper.y + m);
    return true;
}

bool rc_motion_proxy_target(const rc_world *world, const rc_shape *shape, rc_aabb before, rc_vec2 center, float turn,
                            rc_vec2 ahead, float swing, rc_aabb *target) {
    rc_aabb need = rc_motion_box(before, rc_shape_proxy_box(world, shape), center, turn);
    return rc_proxy_target_ahead(world, shape, need, ahead, swing, target);
}

/* The fat box of a shape that detects only (a sensor, a body that does not respond) grown ahead
 * along the body's motion, as far as it goes in AHEAD_STEPS steps: a crowd moving at a steady
 * speed keeps its grid boxes (and cells) for that many steps instead of leaving them at every
 * step (the margin alone is a twentieth of a unit). Solid shapes look one step ahead
 * (rc_proxy_target_ahead), for their pairs' sake: more overlapping boxes among them are more
 * contacts to solve, and a tumbler of props lost more to two steps than the grid saved. */
#define AHEAD_STEPS 2.0f

/* A proxy's move to `target` made at once where it keeps its grid cells (it cannot fail), or
 * left in the deferred list; returns how many grid entries the deferred move adds. */
static int32_t move_or_defer(rc_world *world, int32_t shape, rc_aabb target) {
    const rc_shape *s = &world->shapes.data[shape];
    rc_proxy_undo *u = &world->proxy_undo.data[world->proxy_undo.count];
    int32_t add = rc_grid_move_in_cells_trusted(world->grid, s->proxy, target, &u->note);
    if (add == 0) {
        u->proxy = s->proxy;
        world->proxy_undo.count++;
    } else {
        rc_deferred_move d = {shape, target};
        world->deferred.data[world->deferred.count++] = d;
    }
    return add;
}

/* Place a moved body's shapes. Most stay inside their grid boxes (nothing to do in the grid); of
 * the others, those whose move keeps their grid cells are moved at once, which cannot fail, and
 * the rest wait in the deferred list. Returns how many grid entries the deferred moves add. */
static int32_t place_moved(rc_world *world, rc_body *b, rc_vec2 move, float turn) {
    int32_t additions = 0;
    bool seen = seen_by_sweeps(world, b);
    float swing = swing_of(b, turn);
    b->xf.p = rc_body_origin_at(b->center, b->xf.q, b->local_center).p;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        rc_shape *shape = &world->shapes.data[s];
        rc_aabb target;
        bool solid = solid_moves_ahead(b, shape);
        if (!seen || shape->sensor) {
            rc_shape_place(world, shape, b->xf);
            if (solid) {
                if (!rc_proxy_target_ahead(world, shape, rc_shape_proxy_box(world, shape), move, swing, &target)) {
                    continue;
                }
            } else {
                if (rc_shape_proxy_fits(world, shape)) {
                    continue;
                }
                target = rc_shape_fat_box(world, shape);
                if (shape->sensor || !b->enable_response) {
                    target = box_ahead(target, rc_scale(AHEAD_STEPS, move));
                }
            }
        } else {
            rc_aabb before = rc_shape_proxy_box(world, shape);
            rc_shape_place(world, shape, b->xf);
            rc_vec2 ahead = solid ? move : rc_v2(0.0f, 0.0f);
            if (!rc_motion_proxy_target(world, shape, before, b->center, b->step_turn, ahead, solid ? swing : 0.0f,
                                        &target)) {
                continue;
            }
        }
        additions += move_or_defer(world, s, target);
    }
    if (b->type == RC_KINEMATIC) {
        /* a chain's box is its walls' union: sectors_at looks there first */
        rc_body_refresh_chains(world, b);
    }
    return additions;
}

bool rc_hold_body_in_world(const rc_world *world, rc_body *b) {
    if (rc_hold_is_quick(b->center)) {
        return true;
    }
    for (int k = 0;; ++k) {
        rc_transform xf = rc_body_origin_at(b->center, b->xf.q, b->local_center);
        rc_aabb box = rc_aabb_union((rc_aabb){b->center, b->center}, (rc_aabb){xf.p, xf.p});
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            box = rc_aabb_union(box, rc_shape_box_at(world, &world->shapes.data[s], xf));
        }
        if (rc_box_in_world(box)) {
            return true;
        }
        if (k == RC_HOLD_TRIES || !rc_shift_into_world(box, &b->center, &b->linear_velocity)) {
            return false;
        }
    }
}

static int32_t move_body(rc_world *world, rc_body *b, float dt) {
    rc_vec2 move;
    float turn;
    if (b->solver_slot >= 0 && b->type == RC_DYNAMIC) {
        const rc_body_state *st = &world->states.data[b->solver_slot];
        move = st->dp;
        turn = world->turns.data[b->solver_slot];
    } else {
        rc_clamp_speed(world, &b->linear_velocity, &b->angular_velocity);
        move = rc_scale(dt, b->linear_velocity);
        turn = dt * b->angular_velocity;
    }
    b->moved = move.x != 0.0f || move.y != 0.0f || turn != 0.0f;
    if (!b->moved) {
        return 0;
    }
    rc_vec2 c1 = b->center;
    float a1 = b->angle;
    rc_rot q1 = b->xf.q;
    b->center = rc_add(b->center, move);
    rc_hold_in_world(&b->center, &b->linear_velocity);
    if (turn != 0.0f) {
        b->angle += turn;
        b->xf.q = rc_rot_from_angle(b->angle);
    }
    if (b->type == RC_DYNAMIC && b->enable_response) {
        rc_continuous(world, b, c1, a1, q1, dt);
    }
    if (!rc_hold_body_in_world(world, b)) {
        /* no move keeps it within the world: it stays where it was, stopped (its shapes and
           origin as they were placed) */
        b->center = c1;
        b->angle = a1;
        b->xf.q = q1;
        b->linear_velocity = rc_v2(0.0f, 0.0f);
        b->angular_velocity = 0.0f;
        b->moved = false;
        return 0;
    }
    if (b->type == RC_KINEMATIC) {
        /* (kinematic bodies move in the first pass, before any body continuous collision looks
           at: continuous.c's fast_kinematics) */
        int32_t n = world->moved_kinematic_count++;
        if (n < RC_FEW_KINEMATICS) {
            world->moved_kinematics[n].body = (int32_t)(b - world->bodies.data);
        }
    }
    /* what it did, which the sweeps then meet (held in the world or stopped at a wall, it moved
       less than its velocity says); only sweeps read it, and only of bodies they may meet (the
       record's third cache line: not touched for a crowd that no sweep looks at) */
    rc_vec2 moved = rc_sub(b->center, c1);
    if (seen_by_sweeps(world, b)) {
        b->step_move = moved;
        b->step_turn = b->angle - a1;
    }
    return place_moved(world, b, moved, b->angle - a1);
}

int32_t rc_move_bodies(rc_world *world, float dt, int pass) {
    int32_t additions = 0;
    world->deferred.count = 0;
    for (int32_t k = world->free_start; k < world->bodies.count; ++k) {
        rc_body *b = &world->bodies.data[world->moving.data[k]];
        bool solved = b->solver_slot >= 0 && b->type == RC_DYNAMIC;
        if (solved == (pass == 1)) {
            additions += move_body(world, b, dt);
        }
    }
    return additions;
}

bool rc_shape_looks_ahead(const rc_body *b, const rc_shape *shape) {
    if (b->motion == RC_MOTION_FREE) {
        return solid_moves_ahead(b, shape);
    }
    return !b->bullet && !shape->sensor;
}

int32_t rc_look_ahead_at_start(rc_world *world, float dt) {
    int32_t additions = 0;
    world->deferred.count = 0;
    /* (the shapes made, placed or whose bodies' speeds changed since the last step's end are the
       moved ones: rc_body_list_speed_change) */
    int32_t moved = rc_grid_moved_count(world->grid);
    for (int32_t k = 0; k < moved; ++k) {
        int32_t proxy = rc_grid_moved_proxy(world->grid, k);
        if (proxy < 0) {
            continue;
        }
        int32_t s = rc_grid_get_user(world->grid, proxy);
        const rc_shape *shape = &world->shapes.data[s];
        const rc_body *b = &world->bodies.data[shape->body];
        rc_aabb target;
        if (b->awake && shape->proxy == proxy && rc_shape_looks_ahead(b, shape) &&
            rc_proxy_target_ahead(world, shape, rc_shape_proxy_box(world, shape), rc_scale(dt, b->linear_velocity),
                                  swing_of(b, dt * b->angular_velocity), &target)) {
            additions += move_or_defer(world, s, target);
        }
    }
    return additions;
}

bool rc_move_deferred(rc_world *world, int32_t additions, int32_t made) {
    /* room for the moves, for undoing them, and for undoing the step's earlier moves (whose room
       these moves might otherwise take) */
    if (!rc_grid_reserve(world->grid, 2 * additions + made)) {
        return false;
    }
    for (int32_t k = 0; k < world->deferred.count; ++k) {
        const rc_deferred_move *d = &world->deferred.data[k];
        rc_step_move_proxy(world, &world->shapes.data[d->shape], d->box);
    }
    world->deferred.count = 0;
    return true;
}
