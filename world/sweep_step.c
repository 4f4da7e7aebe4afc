/* The step's sweeps (step.h: rc_sweep_bodies): grenades, then bullets, each moved by rc_sweep
 * (projectile.c) against the world as the step left it.
 *
 * A pass (the grenades, then the bullets; one pass when the swept bodies are all of one kind)
 * runs in three parts:
 *   1. every sweep of the pass on its own. What a sweep reads of the world, no other sweep of
 *      the pass changes, but for the velocities of the bodies sweeps push (dynamic bodies that
 *      respond): a sweep that read one is done again in part 2. With a task system the sweeps
 *      run here on its workers, their impacts kept aside (the game's pre-solve callback, when
 *      there is one, is asked from the step's own thread: then nothing runs ahead);
 *   2. in index order, each body's impacts are reported, the bodies it struck pushed and its
 *      state written back. A sweep that read a pushable body's velocity, or made more impacts
 *      than are kept aside, is done again here, in its turn, against the pushes before it;
 *   3. in index order, the pass's shapes are placed where their bodies end and their grid
 *      boxes follow.
 * Without a task system part 2 does every sweep in its turn; a sweep then sees what it would
 * have seen ahead, so the bits do not depend on the task system or its worker count. */
#include "world/world_internal.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* ---- reporting to the world ----------------------------------------------------------------- */

typedef struct step_sink {
    rc_world *world;
    int32_t body;
    float h; /* the sub-step */
} step_sink;

static void step_impact(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach, int32_t bounce,
                        bool spent) {
    step_sink *k = context;
    rc_world *world = k->world;
    if (!rc_array_reserve(world, world->impacts, world->impacts.count + 1)) {
        world->step_failed = true;
        return;
    }
    rc_impact_event e;
    memset(&e, 0, sizeof e); /* no uninitialised padding in what the game reads */
    e.projectile = rc_body_id_of(world, k->body);
    e.shape = rc_shape_id_of(world, shape);
    e.point = point;
    e.normal = normal;
    e.approach_speed = approach;
    e.bounce = bounce;
    e.spent = spent;
    world->impacts.data[world->impacts.count++] = e;
}

static void step_push(void *context, int32_t body, double px, double py, double angular) {
    step_sink *k = context;
    rc_world *world = k->world;
    rc_body *b = &world->bodies.data[body];
    if (!b->awake) {
        /* woken in this step with its island (what rests on it, what it is jointed to: they
           sleep together); the undo log (as long as the bodies) takes them back on failure */
        world->wakes_undone = true;
        rc_wake_island(world, body);
        world->wakes_undone = false;
    }
    rc_pushed_velocity(world, b, k->h, &b->linear_velocity, &b->angular_velocity, px, py, angular);
}

/* ---- one sweep -------------------------------------------------------------------------------- */

/* A free body's velocities at the step's end: the exact kick of gravity and damping over the
 * step (from the velocity it started with: the solver's states are its own), not the sub-steps'
 * sum of it. */
static inline void free_velocity(const rc_world *world, const rc_body *b, rc_vec2 accel, float spin_accel, float dt,
                                 rc_vec2 *v, float *w) {
    *v = b->linear_velocity;
    *w = b->angular_velocity;
    rc_integrate_velocity(world, v, w, b->gravity_scale, b->linear_damping, b->angular_damping, accel, spin_accel, dt);
}

/* The sweeper of a swept body at the step's start; reads the world only. A swept body the
 * solver held (some contact pushed on it) moves along the solver's path; otherwise along the
 * chord of its parabola, its velocity the start's plus gravity's kick (exact, as the
 * preview's). */
static void sweeper_of(const rc_world *world, int32_t index, float dt, rc_sweeper *s) {
    const rc_body *b = &world->bodies.data[index];
    memset(s, 0, sizeof *s);
    if (b->motion == RC_MOTION_SWEPT_CIRCLE) {
        const rc_shape *cs = &world->shapes.data[b->swept_shape];
        s->center = cs->circle.center;
        s->radius = cs->circle.radius;
        s->restitution = cs->restitution;
        s->friction = cs->friction;
        s->rolling_resistance = cs->rolling_resistance;
        s->filter = cs->filter;
    } else {
        s->center = b->center;
        s->filter = b->point_filter;
    }
    rc_vec2 accel;
    float spin_accel;
    rc_body_accel(b, &accel, &spin_accel);
    s->kick = rc_force_kick(world, b, accel, dt); /* an applied force bends the path as gravity does */
    s->angle = b->angle;
    s->inv_mass = b->inv_mass;
    s->inv_inertia = b->inv_inertia;
    s->self_body = index;
    s->max_bounces = b->max_bounces;
    s->step_bounces = b->step_bounces;
    s->bounces_left = b->bounces_left;
    s->bounces_made = b->bounces_made;
    s->sees_dynamic = b->bullet;
    s->sees_motion = true;
    s->self_shape = b->motion == RC_MOTION_SWEPT_CIRCLE ? b->swept_shape : -1;
    s->rest_shape = b->last_hit_step == rc_world_previous_step(world) ? b->last_hit_shape : -1;
    s->velocity = b->linear_velocity;
    s->angular_velocity = b->angular_velocity;
    if (b->solver_slot >= 0) {
        const rc_body_state *st = &world->states.data[b->solver_slot];
        s->supports = &world->support_shapes.data[(size_t)b->solver_slot * RC_MAX_SUPPORTS];
        s->support_count = world->support_counts.data[b->solver_slot];
        /* the pairs the pre-solve cancelled for this step: the sweep passes through them too */
        s->skipped_count = world->cancelled_counts.data[b->solver_slot];
        if (s->skipped_count > 0) { /* (rare: a call less for every other sweep) */
            memcpy(s->skipped, &world->cancelled_shapes.data[(size_t)b->solver_slot * RC_MAX_SKIPPED],
                   sizeof(int32_t) * (size_t)s->skipped_count);
        }
        s->held = world->held.data[b->solver_slot] != 0;
        if (s->held) {
            s->path = st->dp;
            s->turn = world->turns.data[b->solver_slot];
            s->velocity = st->v;
            s->angular_velocity = st->w;
        }
    }
    if (!s->held) {
        free_velocity(world, b, accel, spin_accel, dt, &s->velocity, &s->angular_velocity);
    }
}

/* What a sweep leaves of its sweeper: all that is written back to the body. */
static void keep_outcome(const rc_sweeper *s, int32_t last_shape, rc_sweep_ahead *out) {
    out->center = s->center;
    out->velocity = s->velocity;
    out->angle = s->angle;
    out->angular_velocity = s->angular_velocity;
    out->bounces_left = s->bounces_left;
    out->bounces_made = s->bounces_made;
    out->last_shape = last_shape;
}

/* Write a sweep's outcome back to its body (its shapes follow in part 3). */
static void finish_sweep(rc_world *world, int32_t index, const rc_sweep_ahead *o) {
    rc_body *b = &world->bodies.data[index];
    rc_vec2 circle_offset = {0.0f, 0.0f}; /* from the circle's centre to the centre of mass */
    if (b->motion == RC_MOTION_SWEPT_CIRCLE) {
        circle_offset = rc_sub(b->center, world->shapes.data[b->swept_shape].circle.center);
    }
    b->bounces_left = o->bounces_left;
    b->bounces_made = o->bounces_made;
    if (o->last_shape >= 0) {
        b->last_hit_shape = o->last_shape;
        b->last_hit_step = world->steps;
    }
    rc_vec2 velocity = o->velocity;
    float angular_velocity = o->angular_velocity;
    rc_clamp_speed(world, &velocity, &angular_velocity); /* bounces with restitution above 1 */
    b->linear_velocity = velocity;
    b->angular_velocity = angular_velocity;
    rc_vec2 before = b->center;
    float angle_before = b->angle;
    rc_rot q_before = b->xf.q;
    b->angle = o->angle;
    if (b->angle != angle_before) {
        b->xf.q = rc_rot_from_angle(b->angle);
    }
    b->center = rc_add(o->center, circle_offset);
    rc_hold_in_world(&b->center, &b->linear_velocity);
    bool held = rc_hold_body_in_world(world, b);
    if (!held) {
        /* as move.c: it stays where it was, stopped */
        b->center = before;
        b->angle = angle_before;
        b->xf.q = q_before;
        b->linear_velocity = rc_v2(0.0f, 0.0f);
        b->angular_velocity = 0.0f;
    }
    b->moved = b->angle != angle_before || !rc_vec2_equal(before, b->center);
    /* a grenade's circle, which bullets swept after it meet along its chord (its turn about its
       own centre changes nothing they meet) */
    b->step_move = rc_sub(b->center, before);
    b->step_turn = 0.0f;
    if (held) {
        b->xf.p = rc_body_origin_at(b->center, b->xf.q, b->local_center).p;
    }
}

/* A sweep's outcome where nothing is met: the body ends at center with these velocities and
 * angle, its bounces as they were, no impact. */
static void clear_outcome(const rc_body *b, rc_vec2 center, rc_vec2 velocity, float angle, float angular_velocity,
                          rc_sweep_ahead *out) {
    out->center = center;
    out->velocity = velocity;
    out->angle = angle;
    out->angular_velocity = angular_velocity;
    out->bounces_left = b->bounces_left;
    out->bounces_made = b->bounces_made;
    out->last_shape = -1;
    out->impact_count = 0;
}

/* The outcome of a free grenade's sweep (the solver did not hold it: one falling, or thrown
 * through the air) when its path is one the cast could not stop (rc_grenade_path_is_clear):
 * what rc_sweep makes of a first cast that finds nothing (sweep_free: the chord of its parabola
 * over the whole step, the velocity with the step's kick, the turn at its spin), in the same
 * operations. A falling crowd's sweeps (a cast
 * through the level for nothing, and the sweeper made for it, were a third of a grenade's step
 * as 2,000 fell into a pit). False when the path is nothing (the sweep looks for what moves onto
 * the body) or may meet something. */
static bool free_outcome(const rc_world *world, const rc_body *b, float dt, rc_sweep_ahead *out) {
    rc_vec2 accel, velocity;
    float spin_accel, spin;
    rc_body_accel(b, &accel, &spin_accel);
    rc_vec2 drift = rc_scale(0.5f, rc_force_kick(world, b, accel, dt));
    free_velocity(world, b, accel, spin_accel, dt, &velocity, &spin);
    const float remaining = 1.0f;
    rc_vec2 v = rc_sub(velocity, rc_scale(remaining, drift));
    rc_vec2 d = rc_mul_add(rc_v2(0.0f, 0.0f), dt * remaining, v);
    const rc_shape *circle = &world->shapes.data[b->swept_shape];
    if ((d.x == 0.0f && d.y == 0.0f) ||
        !rc_grenade_path_is_clear(world, (int32_t)(b - world->bodies.data), b->swept_shape, circle->circle.center,
                                  circle->circle.radius, d)) {
        return false;
    }
    clear_outcome(b, rc_add(circle->circle.center, d), velocity, b->angle + dt * spin, spin, out);
    return true;
}

/* A body's sweep's outcome where its path can meet nothing, without making the whole sweeper:
 * a held body's when the solver's path is nothing or one the cast could not stop (what rc_sweep
 * makes of it: the solver's path, velocity and turn; most sweeps of a grenade pile, where a
 * sweeper made and cast for nothing was half of their cost), or a free grenade's (free_outcome).
 * False where it is swept. */
static bool clear_path_outcome(const rc_world *world, int32_t index, float dt, rc_sweep_ahead *out) {
    const rc_body *b = &world->bodies.data[index];
    int32_t slot = b->solver_slot;
    bool circle = b->motion == RC_MOTION_SWEPT_CIRCLE;
    if (slot < 0) {
        return false;
    }
    if (world->held.data[slot] == 0) {
        return circle && !b->bullet && free_outcome(world, b, dt, out);
    }
    rc_vec2 center = circle ? world->shapes.data[b->swept_shape].circle.center : b->center;
    rc_vec2 d = world->states.data[slot].dp;
    if (d.x != 0.0f || d.y != 0.0f) {
        if (!circle || b->bullet ||
            !rc_grenade_path_is_clear(world, index, b->swept_shape, center,
                                      world->shapes.data[b->swept_shape].circle.radius, d)) {
            return false;
        }
        center = rc_add(center, d);
    } else if (b->bullet || (world->moved_kinematic_count > 0 &&
                             !rc_moved_kinematics_stay_apart(world, b->swept_shape, center,
                                                             world->shapes.data[b->swept_shape].circle.radius, d))) {
        /* at rest, where a kinematic body may move onto it, or a bullet, whose sweep meets the
           dynamic bodies that move onto it (their contact no longer holds them off a step
           ahead: contact_collide.c's bullet_sweep_meets): swept (sweep_held) */
        return false;
    }
    const rc_body_state *st = &world->states.data[slot];
    clear_outcome(b, center, st->v, b->angle + world->turns.data[slot], st->w, out);
    return true;
}

#ifndef NDEBUG
static void ignore_impact(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach, int32_t bounce,
                          bool spent) {
    (void)context;
    (void)shape;
    (void)point;
    (void)normal;
    (void)approach;
    (void)bounce;
    (void)spent;
    assert(false); /* a clear path meets nothing */
}

static void ignore_push(void *context, int32_t body, double px, double py, double angular) {
    (void)context;
    (void)body;
    (void)px;
    (void)py;
    (void)angular;
    assert(false);
}

/* Equal, or both NaN (a forged snapshot's numbers are not checked, and a NaN goes on as NaN). */
static bool same_value(float a, float b) { return a == b || (isnan(a) && isnan(b)); }
static bool same_vec2(rc_vec2 a, rc_vec2 b) { return same_value(a.x, b.x) && same_value(a.y, b.y); }

/* Debug builds check the outcome against the full sweep (whose first cast must find nothing). */
static void check_clear_path(const rc_world *world, int32_t index, float dt, const rc_sweep_ahead *o) {
    rc_sweeper s;
    sweeper_of(world, index, dt, &s);
    rc_sweep_sink sink = {ignore_impact, ignore_push, NULL, -1};
    rc_sweep(world, &s, dt, &sink);
    assert(same_vec2(s.center, o->center) && same_vec2(s.velocity, o->velocity) && same_value(s.angle, o->angle) &&
           same_value(s.angular_velocity, o->angular_velocity) && s.bounces_left == o->bounces_left &&
           s.bounces_made == o->bounces_made && sink.last_shape == o->last_shape);
}
#endif

/* The sweep of a body in its turn: its impacts reported and what it strikes pushed at once. */
static void sweep_in_turn(rc_world *world, int32_t index, float dt) {
    rc_sweep_ahead clear;
    if (clear_path_outcome(world, index, dt, &clear)) {
#ifndef NDEBUG
        check_clear_path(world, index, dt, &clear);
#endif
        finish_sweep(world, index, &clear);
        return;
    }
    rc_sweeper s;
    sweeper_of(world, index, dt, &s);
    step_sink k = {world, index, rc_sub_step(world, dt)};
    rc_sweep_sink sink = {step_impact, step_push, &k, -1};
    rc_sweep(world, &s, dt, &sink);
    rc_sweep_ahead o;
    keep_outcome(&s, sink.last_shape, &o);
    finish_sweep(world, index, &o);
}

/* The shapes of a swept body where it ends the step, and their grid boxes (their moves were
 * reserved: they cannot fail; a grid box covers at most 2 x 2 cells of its level, however long).
 * A grenade's solid circle looks a step ahead, along the velocity it leaves with (after its
 * bounces), as the solver's props do (rc_proxy_target_ahead): it meets dynamic bodies in
 * the solver alone, whose speculative contacts need their pair at the end of the step before
 * the one in which they close. Found only once the boxes overlapped at a step's end, a grenade
 * at 20 units/s passed through a free plank 0.1 thick, and one at 60 through a free crate of 1,
 * without touching either. A bullet does not look ahead: its sweep meets every body. */
static void follow_sweep(rc_world *world, int32_t index, float dt) {
    const rc_body *b = &world->bodies.data[index];
    bool met_later = world->swept_bullets > 0 && !b->bullet;
    rc_vec2 ahead = rc_scale(dt, b->linear_velocity);
    for (int32_t sh = b->first_shape; sh >= 0; sh = world->shapes.data[sh].next_in_body) {
        rc_shape *shape = &world->shapes.data[sh];
        /* (a shape that covers its motion is a grenade's: it looks ahead too) */
        bool covers_motion = met_later && !shape->sensor, looks_ahead = rc_shape_looks_ahead(b, shape);
        /* (the box it leaves is read only when its grid box is to cover the motion) */
        rc_aabb was = covers_motion ? rc_shape_proxy_box(world, shape) : shape->aabb;
        rc_shape_place(world, shape, b->xf);
        rc_aabb target;
        if (covers_motion) {
            if (rc_motion_proxy_target(world, shape, was, b->center, 0.0f, ahead, 0.0f, &target)) {
                rc_step_move_proxy(world, shape, target);
            }
        } else if (looks_ahead) {
            if (rc_proxy_target_ahead(world, shape, rc_shape_proxy_box(world, shape), ahead, 0.0f, &target)) {
                rc_step_move_proxy(world, shape, target);
            }
        } else if (!rc_shape_proxy_fits(world, shape)) {
            rc_step_move_proxy(world, shape, rc_shape_fat_box(world, shape));
        }
    }
}

/* ---- sweeps ahead, on the task system ------------------------------------------------------------ */

/* A sweep ahead keeps its impacts aside; a push means it struck a pushable body, which it read
 * (it is done again in its turn). */
static void ahead_impact(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach, int32_t bounce,
                         bool spent) {
    rc_sweep_ahead *a = context;
    if (a->impact_count < 0) {
        return;
    }
    if (a->impact_count == RC_IMPACTS_AHEAD) {
        a->impact_count = -1;
        return;
    }
    rc_kept_impact *e = &a->impacts[a->impact_count++];
    e->shape = shape;
    e->point = point;
    e->normal = normal;
    e->approach = approach;
    e->bounce = bounce;
    e->spent = spent;
}

static void ahead_push(void *context, int32_t body, double px, double py, double angular) {
    (void)body;
    (void)px;
    (void)py;
    (void)angular;
    ((rc_sweep_ahead *)context)->impact_count = -1;
}

typedef struct sweep_task {
    const rc_world *world;
    const int32_t *bodies;
    rc_sweep_ahead *ahead;
    float dt;
} sweep_task;

static void sweep_range(int32_t start, int32_t end, uint32_t worker_index, void *context) {
    (void)worker_index;
    const sweep_task *t = context;
    for (int32_t i = start; i < end; ++i) {
        rc_sweep_ahead *a = &t->ahead[i];
        if (clear_path_outcome(t->world, t->bodies[i], t->dt, a)) {
            continue;
        }
        rc_sweeper s;
        sweeper_of(t->world, t->bodies[i], t->dt, &s);
        a->impact_count = 0;
        rc_sweep_sink sink = {ahead_impact, ahead_push, a, -1};
        rc_sweep(t->world, &s, t->dt, &sink);
        if (s.read_pushable) {
            a->impact_count = -1;
        }
        keep_outcome(&s, sink.last_shape, a);
    }
}

/* Part 2 after sweeps ran ahead: each in its turn takes what was kept, or is done again. */
static void take_ahead(rc_world *world, const int32_t *bodies, const rc_sweep_ahead *ahead, int32_t count, float dt) {
    for (int32_t i = 0; i < count && !world->step_failed; ++i) {
        const rc_sweep_ahead *a = &ahead[i];
        if (a->impact_count < 0) {
            sweep_in_turn(world, bodies[i], dt);
            continue;
        }
        step_sink k = {world, bodies[i], rc_sub_step(world, dt)};
        for (int32_t e = 0; e < a->impact_count; ++e) {
            const rc_kept_impact *m = &a->impacts[e];
            step_impact(&k, m->shape, m->point, m->normal, m->approach, m->bounce, m->spent);
        }
        finish_sweep(world, bodies[i], a);
    }
}

/* Sweeps per task range: a sweep is a few microseconds, so smaller ranges only add handing out. */
#define RC_SWEEPS_PER_TASK 32

/* Can the sweeps of a pass run ahead: a task system with workers, sweeps enough to share, no
 * pre-solve callback to ask from other threads, and room kept aside for their outcomes? */
static bool can_run_ahead(rc_world *world, int32_t count) {
    return world->def.enqueue_task != NULL && world->def.worker_count > 1 && count > RC_SWEEPS_PER_TASK &&
           world->pre_solve_fn == NULL && rc_array_reserve(world, world->sweeps_ahead, count);
}

/* One pass: its bodies listed in index order in world->sweep_list. */
static void sweep_pass(rc_world *world, int32_t count, float dt) {
    const int32_t *bodies = world->sweep_list.data;
    if (can_run_ahead(world, count)) {
        sweep_task t = {world, bodies, world->sweeps_ahead.data, dt};
        rc_run_task(world, sweep_range, count, RC_SWEEPS_PER_TASK, &t);
        take_ahead(world, bodies, world->sweeps_ahead.data, count, dt);
    } else {
        for (int32_t i = 0; i < count && !world->step_failed; ++i) {
            sweep_in_turn(world, bodies[i], dt);
        }
    }
    for (int32_t i = 0; i < count && !world->step_failed; ++i) {
        follow_sweep(world, bodies[i], dt);
    }
}

void rc_sweep_bodies(rc_world *world, float dt) {
    /* the turns of the few kinematic bodies that moved, once for every grenade that asks
       (rc_grenade_path_is_clear) */
    for (int32_t k = 0; k < world->moved_kinematic_count && k < RC_FEW_KINEMATICS; ++k) {
        rc_moved_kinematic *m = &world->moved_kinematics[k];
        m->back = rc_rot_from_angle(world->bodies.data[m->body].step_turn);
    }
    /* grenades first: bullets then strike them along their motion (bodies the sweeps wake are
       not swept in this step). One pass when the swept bodies are all of one kind. */
    bool mixed = world->swept_bullets != 0 && world->swept_bullets != world->swept_count;
    for (int pass = 0; pass < (mixed ? 2 : 1) && !world->step_failed; ++pass) {
        int32_t count = 0;
        for (int32_t k = 0; k < world->swept_count; ++k) {
            int32_t index = world->moving.data[k];
            if (!mixed || world->bodies.data[index].bullet == (pass == 1)) {
                world->sweep_list.data[count++] = index;
            }
        }
        sweep_pass(world, count, dt);
    }
}
