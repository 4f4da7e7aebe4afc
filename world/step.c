/* The step. Everything that may need memory is reserved before anything moves, or is undone
 * with the motion if it runs out (contacts for the pairs the broadphase finds, impact events),
 * so a failed step leaves the world as it was.
 *
 *   1. the bodies that move this step: the solver's (dynamic bodies that respond, kinematic
 *      ones), the swept among them (bullets, grenades), and the rest (detection only);
 *   2. the contacts of the solver's bodies become constraints, and the soft step solves them
 *      (solver.h): every solver body's velocity, and how far it moves and turns;
 *   3. the other solver bodies move as the solver moved them, fast ones stopped at their first
 *      hit of a static or kinematic body (continuous.c); detection-only bodies move by their
 *      velocities (move.c);
 *   4. swept bodies move by their sweeps (exact hits, bounces, impact events) against the
 *      others along their motion in the step (projectile.c);
 *   5. the grid follows, new pairs become contacts, the narrow phase runs (contact and sensor
 *      events), islands at rest fall asleep (island.c), and memory no longer needed goes back. */
#include "world/world_internal.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static bool is_swept(const rc_body *b) { return b->motion != RC_MOTION_FREE; }

void rc_save_undo(rc_world *world, int32_t index) {
    const rc_body *b = &world->bodies.data[index];
    rc_body_undo u;
    u.body = index;
    u.position = b->xf.p;
    u.center = b->center;
    u.linear_velocity = b->linear_velocity;
    u.angle = b->angle;
    u.angular_velocity = b->angular_velocity;
    u.sleep_time = b->sleep_time;
    u.awake = b->awake;
    u.last_hit_shape = b->last_hit_shape;
    u.last_hit_step = b->last_hit_step;
    u.bounces_left = b->bounces_left;
    u.bounces_made = b->bounces_made;
    u.solver_slot = b->solver_slot;
    u.step_bounces = b->step_bounces;
    u.step_move = b->step_move;
    u.step_turn = b->step_turn;
    world->undo.data[world->undo.count++] = u;
}

/* Does the body take part in the contact solver: a dynamic body that responds, or a kinematic
 * one (it pushes)? Not a point bullet with no joint: it has no shape to make contacts with and
 * nothing to be held by, and its sweep reads nothing of the solver (a state of its own was
 * integrated over every sub-step of bullets-10k's 10,000 bullets for nothing). */
static bool in_solver(const rc_body *b) {
    if (b->motion == RC_MOTION_SWEPT_POINT && b->first_joint < 0) {
        return false;
    }
    return b->type == RC_KINEMATIC || (b->type == RC_DYNAMIC && b->enable_response);
}

/* A point bullet asleep is met by nothing: it has no shape, so no contact wakes it, and a body
 * moving onto it passed over it (a door sliding through a spent bullet lying on the floor, which
 * world.h promises pushes it). It wakes for a step where a shape of a body that moves has its
 * grid box over it (a box that looks a step ahead along its body's velocity,
 * rc_shape_looks_ahead, covers where the shape may go in the step): a kinematic body moving or
 * turning, or a dynamic one awake and not at rest (a prop that a point bullet stands on, settling
 * under it, would wake it at every step, and neither would ever sleep). */
typedef struct point_watch {
    const rc_world *world;
    int32_t body;
    bool met;
} point_watch;

static bool point_watch_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    point_watch *w = context;
    const rc_shape *s = &w->world->shapes.data[user];
    const rc_body *other = &w->world->bodies.data[s->body];
    bool moves = rc_body_moving_kinematic(other) ||
                 (other->type == RC_DYNAMIC && other->awake && !rc_body_at_rest(&w->world->def, other));
    if (s->body == w->body || s->sensor || !moves) {
        return true;
    }
    w->met = true;
    return false;
}

static bool sleeping_point_met(const rc_world *world, int32_t index) {
    const rc_body *b = &world->bodies.data[index];
    if (!b->in_use || b->awake || b->type != RC_DYNAMIC || b->motion != RC_MOTION_SWEPT_POINT) {
        return false;
    }
    point_watch w = {world, index, false};
    rc_aabb at = {b->center, b->center};
    rc_grid_query_aabb_trusted(world->grid, at, false, point_watch_fn, &w);
    return w.met;
}

/* The velocity gravity and the applied force add over a time h (a sub-step, or a swept body's
 * step), in double and held to the speed limit. */
rc_vec2 rc_kick_of(const rc_world *world, float gravity_scale, rc_vec2 accel, float h) {
    double k = (double)h * gravity_scale;
    rc_vec2 v;
    float w;
    rc_limit_velocity(world, k * world->def.gravity.x + (double)h * accel.x,
                      k * world->def.gravity.y + (double)h * accel.y, 0.0, &v, &w);
    return v;
}

/* The kicks of gravity alone over the step's sub-step h and over the step dt, for bodies that
 * have nothing but gravity at scale 1 (rc_force_kick gives them these bits: the same sums). */
static void keep_plain_kicks(rc_world *world, float h, float dt) {
    const rc_vec2 none = {0.0f, 0.0f};
    world->kick_times[0] = h;
    world->kick_times[1] = dt;
    world->plain_kicks[0] = rc_kick_of(world, 1.0f, none, h);
    world->plain_kicks[1] = rc_kick_of(world, 1.0f, none, dt);
}

static float spin_kick(const rc_world *world, float spin_accel, float h) {
    double w = (double)h * spin_accel, max = world->def.max_angular_speed;
    return (float)(w > max ? max : (w < -max ? -max : w));
}

/* The fastest a body in the solver may turn: an eighth of a turn (pi/4) per sub-step (as Box2D v3 holds
 * them) for props, so that a plank struck at its end cannot swing its far end through a wall
 * in one step (continuous collision stops a turn only where the body's core would pass); round
 * bodies (every solid shape a circle: wheels, grenades, barrels) roll as fast as the world
 * allows. */
float rc_spin_limit(const rc_world *world, const rc_body *b, float h) {
    float world_limit = world->def.max_angular_speed;
    if (b->type != RC_DYNAMIC) {
        return world_limit; /* a kinematic body turns as the game says */
    }
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (!shape->sensor && shape->kind != RC_SHAPE_CIRCLE) {
            return rc_minf(world_limit, 0.25f * 3.14159265f / h);
        }
    }
    return world_limit;
}

/* One pass over the bodies: the undo log of the awake movable ones; the solver's bodies with
 * their states; and the step's lists: swept bodies (in index order, from the front of
 * world->moving) and bodies moved by their velocities alone (from its back). */
static void start_step(rc_world *world, float dt) {
    int32_t *list = world->moving.data;
    int32_t swept = 0, free_end = world->bodies.count, bullets = 0, shapes = 0;
    float h = rc_sub_step(world, dt);
    keep_plain_kicks(world, h, dt);
    world->undo.count = 0;
    world->scratch_undo.count = 0;
    world->solver_owner.count = 0;
    int32_t *slots = world->body_slots.data;
    uint8_t *active = world->body_active.data;
    int32_t kinematic = 0;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        rc_body *b = &world->bodies.data[i];
        slots[i] = -1;
        kinematic += b->in_use && b->type == RC_KINEMATIC; /* (asleep or awake: continuous.c) */
        active[i] = b->in_use && b->type != RC_STATIC && b->awake;
        if (!active[i] && sleeping_point_met(world, i)) {
            rc_save_undo(world, i); /* (asleep: a step that fails puts it back to sleep) */
            rc_body_wake(b);
            active[i] = 1;
        } else if (active[i]) {
            rc_save_undo(world, i); /* (before the scratch below: a step that fails puts it back) */
        } else if (b->solver_slot != -1 || b->step_bounces != 0) {
            /* (one that fell asleep in the last step still has its scratch, which a snapshot holds) */
            rc_body_scratch kept = {i, b->solver_slot, b->step_bounces};
            world->scratch_undo.data[world->scratch_undo.count++] = kept;
        }
        b->solver_slot = -1; /* asleep or static: none this step, whatever it had */
        b->step_bounces = 0;
        if (!active[i]) {
            continue;
        }
        if (in_solver(b)) {
            int32_t slot = world->solver_owner.count++;
            world->solver_owner.data[slot] = i;
            b->solver_slot = slot;
            slots[i] = slot;
            rc_body_state st = {b->linear_velocity, b->angular_velocity, 0.0f, {0.0f, 0.0f}, {1.0f, 0.0f}};
            world->states.data[slot] = st;
            world->turns.data[slot] = 0.0f;
            bool dynamic = b->type == RC_DYNAMIC;
            rc_vec2 accel;
            float spin_accel;
            rc_body_accel(b, &accel, &spin_accel);
            world->kicks.data[slot] = dynamic ? rc_force_kick(world, b, accel, h) : rc_v2(0.0f, 0.0f);
            world->spin_kicks.data[slot] = dynamic ? spin_kick(world, spin_accel, h) : 0.0f;
            /* (no damping: a factor of exactly 1, without the division) */
            world->linear_damping.data[slot] =
                dynamic && b->linear_damping != 0.0f ? 1.0f / (1.0f + h * b->linear_damping) : 1.0f;
            world->angular_damping.data[slot] =
                dynamic && b->angular_damping != 0.0f ? 1.0f / (1.0f + h * b->angular_damping) : 1.0f;
            world->spin_limits.data[slot] = rc_spin_limit(world, b, h);
            world->support_counts.data[slot] = 0;
            world->cancelled_counts.data[slot] = 0;
        } else if (!is_swept(b)) {
            /* detection only: moved by its velocity, gravity and damping as a sweep's (a point
               bullet's sweep takes them itself) */
            rc_vec2 accel;
            float spin_accel;
            rc_body_accel(b, &accel, &spin_accel);
            rc_integrate_velocity(world, &b->linear_velocity, &b->angular_velocity, b->gravity_scale,
                                  b->linear_damping, b->angular_damping, accel, spin_accel, dt);
        }
        if (is_swept(b)) {
            list[swept++] = i;
            bullets += b->bullet ? 1 : 0;
            for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
                ++shapes;
            }
        } else {
            list[--free_end] = i;
        }
    }
    world->states.count = world->kicks.count = world->spin_kicks.count = world->solver_owner.count;
    world->kinematic_bodies = kinematic;
    world->moved_kinematic_count = 0;
    world->kinematic_frames = false;
    world->swept_count = swept;
    world->swept_bullets = bullets;
    world->swept_shapes = shapes;
    world->free_start = free_end;
}

void rc_soft_step_setup(const rc_world *world, rc_soft_step *step, float dt) {
    const rc_world_def *def = &world->def;
    float h = rc_sub_step(world, dt);
    memset(step, 0, sizeof *step);
    step->lanes = world->solver_lanes;
    step->h = h;
    /* a sub-step of 0 or a denormal has no float inverse: the speculative bias is then 0 (the
       contact holds, nothing moves) or at most FLT_MAX */
    float inv_h = h > 0.0f ? 1.0f / h : 0.0f;
    step->inv_h = rc_is_finite(inv_h) ? inv_h : FLT_MAX;
    /* no stiffer than an eighth of the sub-step rate (as Box2D v3.1): at a quarter, a game
       stepping at 30 Hz solved contacts at 30 Hz (60 against static bodies) in sub-steps of
       1/120 s, too stiff for them, and a 20-row pyramid with 0.05 gaps bobbed at its top by 0.05
       and never slept; a 4x4 crate on a 0.2 box bobbed by 0.004 for good. The cap is rounded
       to a thousandth of a hertz: a float step of 1/60 s is a little longer than 1/60, and
       an eighth of its rate with four sub-steps, 29.999998, would have changed every contact
       of a game at the default 30 Hz. */
    float hertz = def->contact_hertz;
    if (h > 0.0f) {
        double cap = 0.125 / (double)h, rounded = floor(cap * 1000.0 + 0.5) / 1000.0;
        hertz = rc_minf(hertz, (float)(rounded > 0.0 ? rounded : cap)); /* (a step of days: unrounded) */
    }
    step->contact_hertz = hertz;
    step->contact_damping_ratio = def->contact_damping_ratio;
    step->max_push_speed = def->contact_push_speed;
    step->touching_distance = def->linear_slop;
    step->restitution_threshold = def->restitution_threshold;
    step->max_rebound = def->max_linear_speed;
    step->sub_steps = def->sub_steps;
    step->max_speed = def->max_linear_speed;
    step->max_spin = def->max_angular_speed;
}

bool rc_reserve_blocks(rc_world *world, int32_t count) {
    return rc_array_reserve_aligned(world, world->blocks, rc_solver_block_lines(world->solver_lanes, count), 64) &&
           rc_array_reserve(world, world->block_flags, count);
}

#ifndef NDEBUG
/* Debug builds check that kept colours are what colouring gives (the order is scratch here). */
static void check_colors(rc_soft_step *s) {
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        s->order[i] = s->constraints[i].color;
    }
    rc_solver_assign_colors(s);
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        assert(s->constraints[i].color == s->order[i]);
    }
}
#endif

/* Which solver bodies some contact pushed on (a normal impulse at some point): a swept body
 * held so moves along the solver's path; a free one flies its exact parabola. Only the sweeps of
 * this step's swept bodies read it: NULL (not marked) when there are none. The store of the soft
 * step marks the contacts' pushes (rc_soft_step.pushed), the joints' are marked after it. */
static uint8_t *clear_held(rc_world *world) {
    if (world->swept_count == 0) {
        return NULL;
    }
    if (world->solver_owner.count > 0) {
        memset(world->held.data, 0, (size_t)world->solver_owner.count);
    }
    return world->held.data;
}

/* The soft step over the solver's bodies and the gathered constraints. False when the blocks
 * cannot be had (nothing has changed then). */
static bool solve(rc_world *world, float dt) {
    rc_soft_step step;
    rc_soft_step_setup(world, &step, dt);
    step.states = world->states.data;
    step.state_count = world->solver_owner.count;
    step.constraints = world->constraints.data;
    step.constraint_count = world->constraints.count;
    step.turning = world->turning.data;
    step.turning_count = world->turning.count;
    step.gravity_kicks = world->kicks.data;
    step.spin_kicks = world->spin_kicks.data;
    step.turns = world->turns.data;
    step.linear_damping = world->linear_damping.data;
    step.angular_damping = world->angular_damping.data;
    step.spin_limits = world->spin_limits.data;
    step.colors = world->colors.data;
    step.order = world->constraint_order.data;
    step.pushed = clear_held(world);
    rc_joints_prepare(world, &step);
    step.joints = world->joint_constraints.data;
    step.joint_count = world->joint_constraints.count;
    step.joint_runs = &world->joint_runs;
    step.joint_blocks = world->joint_blocks.data;
    /* the colours of the same constraints as the last step's are the same: kept (gather.c) */
    bool all_made = rc_gather_all_made(world), keep = world->colors_kept && all_made;
#ifndef NDEBUG
    if (keep) {
        check_colors(&step);
    }
#endif
    if (!rc_reserve_blocks(world, keep ? rc_solver_runs(&step) : rc_solver_color(&step))) {
        return false;
    }
    world->colors_kept = all_made;
    step.blocks = world->blocks.data;
    step.block_flags = world->block_flags.data;
    rc_solve_soft_step(&step);
    if (step.pushed != NULL) {
        rc_joints_mark_held(world, step.pushed); /* (the contacts' marked by the store) */
    }
    return true;
}

/* Bounces the solver made off what a swept body rested near are impacts like a sweep's, and so
 * is a slow first touch of a shape (a grenade set down gently on a crate). */
static bool report_bounces(rc_world *world) {
    if (world->swept_constraints == 0) {
        return true; /* (a stack of crates: no constraint to read) */
    }
    for (int32_t i = 0; i < world->constraints.count; ++i) {
        const rc_contact_constraint *k = &world->constraints.data[i];
        if (!k->swept_a && !k->swept_b) {
            continue; /* most of a crowd's: nothing to read of its contact and shapes */
        }
        /* a bounce's point, else the point of a first touch (one that pushed while closing),
           which is no first touch where the contact touched already or the side rested on that
           shape: a pile at rest has neither, and its shapes and bodies are not read */
        float approach;
        int32_t bounce_point = rc_constraint_bounce(world->def.restitution_threshold, k, &approach);
        int32_t p = bounce_point >= 0 ? bounce_point : rc_constraint_first_touch(k, k->touched, &approach);
        if (p < 0) {
            continue; /* (a pile at rest: its contacts touched, read from the constraint, which
                         read them at the gathering; reading each contact here again was a cache
                         miss for most constraints of a grenade pile, a fifth of this function) */
        }
        const rc_contact *c = &world->contacts.data[k->contact];
        for (int32_t side = 0; side < 2; ++side) {
            if (!(side == 0 ? k->swept_a : k->swept_b)) {
                continue;
            }
            const rc_shape *s = &world->shapes.data[c->shape[side]];
            rc_body *b = &world->bodies.data[s->body];
            bool rested = b->last_hit_step == rc_world_previous_step(world) && b->last_hit_shape == c->shape[1 - side];
            if (bounce_point < 0 && rested) {
                continue;
            }
            if (!rc_array_reserve(world, world->impacts, world->impacts.count + 1)) {
                return false;
            }
            rc_impact_event e;
            memset(&e, 0, sizeof e); /* no uninitialised padding in what the game reads */
            e.projectile = rc_body_id_of(world, s->body);
            e.shape = rc_shape_id_of(world, c->shape[1 - side]);
            e.point = c->points[p].point;
            e.normal = side == 1 ? k->normal : rc_neg(k->normal); /* towards the projectile */
            e.approach_speed = approach;
            e.spent = false;
            e.bounce = 0; /* a slow first touch */
            const rc_shape *struck = &world->shapes.data[c->shape[1 - side]];
            if (bounce_point >= 0 && (struck->absorbs || !rc_body_can_bounce(b))) {
                /* its bounces were used up, or the shape absorbs it (the contact had no
                   restitution): it stops dead, spent */
                e.spent = true;
                b->bounces_left = struck->absorbs ? 0 : b->bounces_left;
                if (b->solver_slot >= 0) {
                    world->states.data[b->solver_slot].v = rc_v2(0.0f, 0.0f);
                    world->states.data[b->solver_slot].w = 0.0f;
                }
            } else if (bounce_point >= 0) {
                /* a bounce of its life, among this step's (the undo log restores the counts) */
                e.bounce = rc_count_bounce(&b->bounces_left, &b->bounces_made);
                b->step_bounces++;
            }
            world->impacts.data[world->impacts.count++] = e;
        }
    }
    return true;
}

/* The grid boxes as they were before the step, last change first, and the grid's list of moves
 * as far as the step's start: the next step's start looks ahead for the shapes listed
 * (rc_look_ahead_at_start), and one that only the failed step had moved, left listed, then
 * looked ahead where the step tried once did not (a run with a failed allocation differed). */
static void undo_proxy_moves(rc_world *world) {
    for (int32_t k = world->proxy_undo.count - 1; k >= 0; --k) {
        rc_grid_move_back(world->grid, world->proxy_undo.data[k].proxy, &world->proxy_undo.data[k].note);
    }
    world->proxy_undo.count = 0;
    rc_grid_close_undo(world->grid, true);
    rc_grid_unlist_moves(world->grid, world->moves_listed);
}

/* Put the moved bodies back where they were (the undo log) and their shapes with them. */
static void undo_motion(rc_world *world) {
    for (int32_t k = world->undo.count - 1; k >= 0; --k) {
        const rc_body_undo *u = &world->undo.data[k];
        rc_body *b = &world->bodies.data[u->body];
        b->xf.p = u->position;
        b->xf.q = rc_rot_from_angle(u->angle);
        b->center = u->center;
        b->linear_velocity = u->linear_velocity;
        b->angle = u->angle;
        b->angular_velocity = u->angular_velocity;
        b->sleep_time = u->sleep_time;
        b->awake = u->awake;
        b->last_hit_shape = u->last_hit_shape;
        b->last_hit_step = u->last_hit_step;
        b->bounces_left = u->bounces_left;
        b->bounces_made = u->bounces_made;
        b->solver_slot = u->solver_slot;
        b->step_bounces = u->step_bounces;
        b->step_move = u->step_move;
        b->step_turn = u->step_turn;
        b->moved = false;
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            rc_shape_place(world, &world->shapes.data[s], b->xf);
        }
        rc_body_refresh_chains(world, b);
    }
    for (int32_t k = 0; k < world->scratch_undo.count; ++k) {
        const rc_body_scratch *u = &world->scratch_undo.data[k];
        world->bodies.data[u->body].solver_slot = u->solver_slot;
        world->bodies.data[u->body].step_bounces = u->step_bounces;
    }
    undo_proxy_moves(world);
}

static void collect_pair(int32_t proxy_a, int32_t user_a, int32_t proxy_b, int32_t user_b, void *context) {
    (void)proxy_a;
    (void)proxy_b;
    rc_world *world = context;
    if (world->pair_failed) {
        return;
    }
    /* most pairs of moving bodies are contacts already: look that up before the shapes */
    if (rc_map_get(&world->contact_map, rc_contact_key(user_a, user_b)) >= 0) {
        return;
    }
    if (!rc_shapes_should_pair(world, &world->shapes.data[user_a], &world->shapes.data[user_b])) {
        return;
    }
    if (!rc_contact_reserve(world, 1) ||
        !rc_array_reserve(world, world->new_contacts, world->new_contacts.count + 1)) {
        world->pair_failed = true;
        return;
    }
    world->new_contacts.data[world->new_contacts.count++] = rc_contact_create(world, user_a, user_b);
}

/* The pairs that began since the grids' moves were last forgotten, made contacts: within the
 * moving grid, then between it and the level's (two static shapes never pair). False when
 * memory ran out. */
static bool find_begun_pairs(rc_world *world) {
    rc_grid_find_begun_pairs(world->grid, collect_pair, world);
    rc_grid_find_begun_pairs_across(world->grid, world->level_grid, collect_pair, world);
    return !world->pair_failed;
}

/* The pairs that began between steps (shapes made, bodies placed or woken into others, filters
 * changed), made contacts with their manifolds now, so that this step's solve meets them: a
 * crate made resting on a table is held from its first step, as in Box2D v3 (found only at the
 * step's end, it fell for a step first, and a body placed overlapping a wall was pushed out a
 * step late). The step's end finds them again and skips them (they are in the contact map);
 * a step that fails destroys them with the step's other new contacts. */
static bool collide_pending_pairs(rc_world *world) {
    if (rc_grid_moved_count(world->grid) == 0 && rc_grid_moved_count(world->level_grid) == 0) {
        return true;
    }
    if (!find_begun_pairs(world)) {
        return false;
    }
    for (int32_t k = 0; k < world->new_contacts.count; ++k) {
        int32_t i = world->new_contacts.data[k];
        if (!world->contacts.data[i].sensor) {
            /* touching or not is the step end's to say (its begin event); placed there touching,
               it is no first touch of a swept body (a grenade made resting on the floor) */
            world->contacts.data[i].placed = rc_contact_collide(world, i, false);
        }
    }
    return true;
}

/* This step's moved bodies, and those that fell asleep, for rc_world_body_move_events; the
 * forces applied for this step are used up. */
static void list_moves(rc_world *world) {
    world->moves.count = 0;
    for (int32_t k = 0; k < world->undo.count; ++k) {
        rc_body *b = &world->bodies.data[world->undo.data[k].body];
        b->force = rc_v2(0.0f, 0.0f);
        b->torque = 0.0f;
        bool fell_asleep = world->undo.data[k].awake && !b->awake;
        if (b->moved || fell_asleep) {
            rc_body_move_event e = {rc_body_id_of(world, world->undo.data[k].body), b->xf, b->user_data, fell_asleep};
            world->moves.data[world->moves.count++] = e;
        }
        b->moved = false;
    }
    world->published_moves = world->moves.count;
}

int rc_world_body_move_events(const rc_world *world, const rc_body_move_event **events) {
    if (world == NULL) {
        return -1;
    }
    if (events == NULL) {
        return rc_fail(world, __func__, "events is NULL"), -1;
    }
    *events = world->published_moves > 0 ? world->moves.data : NULL;
    return world->published_moves;
}

/* ---- the step ---------------------------------------------------------------------------------- */

/* The step's new contacts gone again (a step that failed). */
static void forget_new_contacts(rc_world *world) {
    world->contact_dt = 0.0f;
    rc_contacts_take_back(world, world->new_contacts.data, world->new_contacts.count, world->contacts_at_start);
    world->new_contacts.count = 0;
}

static bool fail_step(rc_world *world, int32_t impacts_before) {
    forget_new_contacts(world);
    undo_motion(world);
    rc_contacts_refresh_undo(world);
    rc_joints_unwake(world);
    world->impacts.count = impacts_before;
    return rc_fail(world, "rc_world_step", "out of memory; the world is as it was before the step");
}

/* The step's scratch, sized by the bodies: nothing later in the step grows it. */
static bool reserve_scratch(rc_world *world) {
    int32_t n = world->bodies.count;
    if ((uint64_t)n + 2u > UINT32_MAX / sizeof(rc_body_state)) {
        return false; /* the solver's blocks name states by 32-bit byte offsets (state_lanes.h) */
    }
    return rc_array_reserve(world, world->islands, n) && rc_array_reserve(world, world->moving, n) &&
           rc_array_reserve(world, world->scratch_undo, n) &&
           rc_array_reserve(world, world->sweep_list, n) &&
           rc_array_reserve(world, world->solver_owner, n) && rc_array_reserve_aligned(world, world->states, n + 2, 64) &&
           rc_array_reserve(world, world->body_slots, n) && rc_array_reserve(world, world->body_active, n) &&
           rc_array_reserve(world, world->colors, n + 1) && rc_array_reserve(world, world->kicks, n) &&
           rc_array_reserve(world, world->spin_kicks, n) && rc_array_reserve(world, world->turns, n) && rc_array_reserve(world, world->moves, n) &&
           rc_array_reserve(world, world->linear_damping, n) && rc_array_reserve(world, world->angular_damping, n) &&
           rc_array_reserve(world, world->spin_limits, n) &&
           rc_array_reserve(world, world->support_counts, n) && rc_array_reserve(world, world->held, n) &&
           /* (a shape's proxy moves at most twice: looking ahead at the start, then moved) */
           rc_array_reserve(world, world->proxy_undo, 2 * world->shapes.count) &&
           rc_array_reserve(world, world->support_shapes, n * RC_MAX_SUPPORTS) &&
           rc_array_reserve(world, world->cancelled_counts, n) &&
           rc_array_reserve(world, world->cancelled_shapes, n * RC_MAX_SKIPPED) &&
           rc_array_reserve(world, world->joint_constraints, world->joints.count) &&
           rc_array_reserve(world, world->joint_woken, world->joints.count) &&
           rc_array_reserve(world, world->joint_colors, world->joints.count) &&
           rc_array_reserve_aligned(world, world->joint_blocks,
                                    rc_joint_block_lines(rc_joint_blocks_for(world->joints.count)), 64);
}

bool rc_world_step(rc_world *world, float dt) {
    if (rc_world_for_change(world, __func__) == NULL) {
        return false;
    }
    if (!rc_is_finite(dt) || dt <= 0.0f) {
        return rc_fail(world, __func__, "dt %g must be finite and > 0", (double)dt);
    }
    if (dt > RC_MAX_TIME_STEP) {
        return rc_fail(world, __func__, "dt %g is longer than RC_MAX_TIME_STEP (%g s): clamp the frame time",
                       (double)dt, (double)RC_MAX_TIME_STEP);
    }
    /* this step's impacts follow the last step's until it cannot fail */
    int32_t impacts_before = world->impacts.count;
    world->new_contacts.count = 0;
    world->contacts_at_start = rc_contact_mark_now(world);
    world->proxy_undo.count = 0;
    world->moves_listed = rc_grid_moved_count(world->grid);
    world->pair_failed = false;
    world->step_failed = false;
    if (!reserve_scratch(world) || !rc_contacts_reserve_refresh(world) || !rc_grid_open_undo(world->grid)) {
        return rc_fail(world, __func__, "out of memory; the world is as it was before the step");
    }
    rc_bodies_refresh_extents(world); /* (of the bodies whose shapes changed) */
    rc_level_lean_refresh(world); /* (for the sweeps and the casts after the step) */
    world->contact_dt = dt; /* through the step's end, whose contacts look one like it ahead */
    rc_contacts_refresh(world);
    /* boxes that look ahead along the speeds given since the last step, in time for their pairs */
    int32_t moved_additions = rc_look_ahead_at_start(world, dt);
    bool looked = rc_move_deferred(world, moved_additions, 0);
    if (!looked || !collide_pending_pairs(world)) {
        forget_new_contacts(world); /* (nothing else has changed yet but grid boxes and the refresh) */
        undo_proxy_moves(world);
        rc_contacts_refresh_undo(world);
        return rc_fail(world, __func__, "out of memory; the world is as it was before the step");
    }
    rc_joints_wake(world);
    start_step(world, dt);
    if (!rc_gather_constraints(world) || !solve(world, dt)) {
        return fail_step(world, impacts_before);
    }
    /* the solved velocities of the dynamic bodies that are not swept (a swept body's sweep takes
       its own): they are the back of the moving list (start_step), so a grenade pile reads no
       body record here */
    for (int32_t k = world->free_start; k < world->bodies.count; ++k) {
        rc_body *b = &world->bodies.data[world->moving.data[k]];
        if (b->type == RC_DYNAMIC && b->solver_slot >= 0) {
            b->linear_velocity = world->states.data[b->solver_slot].v;
            b->angular_velocity = world->states.data[b->solver_slot].w;
            rc_clamp_speed(world, &b->linear_velocity, &b->angular_velocity); /* after the last impulses */
        }
    }
    if (!report_bounces(world)) {
        return fail_step(world, impacts_before);
    }
    for (int32_t k = 0; k < world->new_contacts.count; ++k) {
        world->contacts.data[world->new_contacts.data[k]].placed = false; /* (read by report_bounces only) */
    }
    /* the bodies that are not swept move first, kinematic ones first so that fast bodies meet
       them where they end the step; then the sweeps meet them along their motion (a grenade
       landing on a rising platform, a bullet beside a turning blade). Every grid move is
       reserved with its undoing. */
    bool ok = true;
    for (int pass = 0; pass < 2 && ok; ++pass) {
        int32_t additions = rc_move_bodies(world, dt, pass);
        ok = rc_move_deferred(world, additions, moved_additions);
        moved_additions += additions;
    }
    /* grid entries the swept bodies' moves may add: four per shape (a proxy covers at most
       2 x 2 cells of its level); room as well to undo every move so far */
    int32_t swept = 4 * world->swept_shapes;
    if (ok) {
        ok = rc_grid_reserve(world->grid, 2 * (swept + moved_additions));
    }
    if (ok) {
        rc_sweep_bodies(world, dt);
        ok = !world->step_failed;
    }
    if (ok) {
        ok = find_begun_pairs(world);
    }
    /* every contact, new ones included, changes at most once: room for that many events */
    if (!ok || !rc_contacts_reserve_events(world)) {
        return fail_step(world, impacts_before);
    }
    /* the step cannot fail any more: the pairs are contacts now */
    rc_grid_close_undo(world->grid, false);
    rc_grid_forget_moves(world->grid);
    rc_grid_forget_moves(world->level_grid);
    /* joints keep their impulses for the next step's start, once the step cannot fail any more;
       contacts are given theirs as the update looks at each (rc_contacts_update) */
    rc_joints_commit(world, rc_sub_step(world, dt));
    if (world->published_impacts > 0) {
        int32_t keep = world->impacts.count - world->published_impacts;
        memmove(world->impacts.data, world->impacts.data + world->published_impacts,
                sizeof(rc_impact_event) * (size_t)keep);
        world->impacts.count = keep;
    }
    world->published_impacts = world->impacts.count;
    rc_events_begin_step(world);
    rc_contacts_update(world);
    world->contact_dt = 0.0f;
    rc_update_sleep(world, dt);
    list_moves(world);
    /* refit the grid's dense windows if bodies drifted out of them, and give back memory that
       destroyed bodies and shapes left; failing changes nothing (the level grid was settled
       when the level last changed: rc_level_grid_settle) */
    rc_grid_optimize(world->grid);
    rc_events_end_step(world);
    rc_world_give_back_memory(world);
    world->steps = (int32_t)((uint32_t)world->steps + 1u); /* wraps after 2^31 steps (414 days at 60 Hz) */
    return true;
}
