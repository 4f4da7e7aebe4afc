/* The step. Everything that may need memory is reserved before anything moves, or is undone
 * with the motion if it runs out (contacts for the pairs the broadphase finds, impact events),
 * so a failed step leaves the world as it was. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

static bool is_swept(const rc_body *b) { return b->motion != RC_MOTION_FREE; }

static void hold_in_world(rc_body *b) { rc_hold_in_world(&b->center, &b->linear_velocity); }

static void save_undo_of(rc_world *world, int32_t index) {
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
    world->undo.data[world->undo.count++] = u;
}

/* One pass over the bodies: the undo log of the awake movable ones, their velocities
 * integrated (gravity, damping), and the step's lists: swept bodies (in index order, from the
 * front of world->moving) and bodies moved by their velocities (from its back), with the counts
 * later passes need, so that those touch only the bodies they work on. */
static void start_step(rc_world *world, float dt) {
    int32_t *list = world->moving.data;
    int32_t swept = 0, free_end = world->bodies.count, bullets = 0, circles = 0, shapes = 0;
    world->undo.count = 0;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        rc_body *b = &world->bodies.data[i];
        if (!b->in_use || b->type == RC_STATIC || !b->awake) {
            continue;
        }
        save_undo_of(world, i);
        b->solver_slot = -1;
        if (b->type == RC_DYNAMIC) {
            rc_integrate_velocity(world, &b->linear_velocity, &b->angular_velocity, b->gravity_scale,
                                  b->linear_damping, b->angular_damping, dt);
        }
        if (is_swept(b)) {
            list[swept++] = i;
            bullets += b->bullet ? 1 : 0;
            circles += b->motion == RC_MOTION_SWEPT_CIRCLE ? 1 : 0;
            for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
                ++shapes;
            }
        } else {
            list[--free_end] = i;
        }
    }
    world->swept_count = swept;
    world->swept_bullets = bullets;
    world->swept_circles = circles;
    world->swept_shapes = shapes;
    world->free_start = free_end;
}

/* ---- resting contacts ------------------------------------------------------------------------- */

static void sort_by_shape(int32_t *shapes, int32_t *contacts, int32_t n) {
    for (int32_t i = 1; i < n; ++i) {
        int32_t s = shapes[i], c = contacts[i], j = i - 1;
        for (; j >= 0 && shapes[j] > s; --j) {
            shapes[j + 1] = shapes[j];
            contacts[j + 1] = contacts[j];
        }
        shapes[j + 1] = s;
        contacts[j + 1] = c;
    }
}

static void warm_start(rc_constraint *c, const rc_contact *contact) {
    c->normal_impulse = contact->normal_impulse;
    c->tangent_impulse = contact->tangent_impulse;
    c->rolling_impulse = contact->rolling_impulse;
}

/* The swept circles awake now and what holds them: each circle's surfaces (its touching
 * contacts with static and kinematic shapes, by shape index) then its touching contacts with
 * other swept circles (once per pair). The same order as a preview's, so that a lone circle
 * does exactly what its preview did. */
static bool gather_constraints(rc_world *world, float dt) {
    world->solver_bodies.count = 0;
    world->solver_owner.count = 0;
    world->constraints.count = 0;
    int32_t swept = world->swept_circles;
    if (swept == 0) {
        return true;
    }
    if (!rc_array_reserve(world, world->solver_bodies, swept) || !rc_array_reserve(world, world->solver_owner, swept) ||
        !rc_array_reserve(world, world->support_counts, swept) ||
        !rc_array_reserve(world, world->support_shapes, swept * RC_MAX_SUPPORTS)) {
        return false;
    }
    for (int32_t k = 0; k < world->swept_count; ++k) {
        int32_t index = world->moving.data[k];
        rc_body *b = &world->bodies.data[index];
        if (b->motion != RC_MOTION_SWEPT_CIRCLE) {
            continue;
        }
        int32_t slot = world->solver_bodies.count++;
        rc_solver_body sb = {b->linear_velocity, b->angular_velocity, {0.0f, 0.0f}, 0.0f, b->inv_mass, b->inv_inertia,
                             rc_gravity_kick(world, b->gravity_scale, dt), false};
        world->solver_bodies.data[slot] = sb;
        world->solver_owner.data[world->solver_owner.count++] = index;
        b->solver_slot = slot;
    }
    for (int32_t slot = 0; slot < world->solver_bodies.count; ++slot) {
        int32_t index = world->solver_owner.data[slot];
        const rc_body *b = &world->bodies.data[index];
        int32_t circle = b->swept_shape;
        const rc_shape *cs = &world->shapes.data[circle];
        /* surfaces, then other circles, each by shape index: the order of the contact lists
           depends on history, the solver's result must not */
        int32_t shapes[2 * RC_MAX_SUPPORTS], contacts[2 * RC_MAX_SUPPORTS], count = 0;
        int32_t pair_shapes[2 * RC_MAX_SUPPORTS], pair_contacts[2 * RC_MAX_SUPPORTS], pairs = 0;
        for (int32_t ci = cs->first_contact; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            int32_t k = c->shape[0] == circle ? 0 : 1;
            int32_t other = c->shape[1 - k];
            int32_t other_body = world->shapes.data[other].body;
            const rc_body *ob = &world->bodies.data[other_body];
            if (c->touching && !c->sensor) {
                if (ob->type != RC_DYNAMIC) {
                    if (count < 2 * RC_MAX_SUPPORTS) {
                        shapes[count] = other;
                        contacts[count] = ci;
                        ++count;
                    }
                } else if (ob->motion == RC_MOTION_SWEPT_CIRCLE && ob->awake && ob->solver_slot >= 0 &&
                           other_body > index && pairs < 2 * RC_MAX_SUPPORTS) {
                    pair_shapes[pairs] = other;
                    pair_contacts[pairs] = ci;
                    ++pairs;
                }
            }
            ci = c->edge[k].next;
        }
        sort_by_shape(shapes, contacts, count);
        sort_by_shape(pair_shapes, pair_contacts, pairs);
        if (count > RC_MAX_SUPPORTS) {
            count = RC_MAX_SUPPORTS;
        }
        if (!rc_array_reserve(world, world->constraints, world->constraints.count + count + pairs)) {
            return false;
        }
        world->support_counts.data[slot] = count;
        for (int32_t i = 0; i < count; ++i) {
            world->support_shapes.data[slot * RC_MAX_SUPPORTS + i] = shapes[i];
            rc_constraint *con = &world->constraints.data[world->constraints.count++];
            rc_constraint_init(world, con, world->solver_bodies.data, slot, cs->circle.center, cs->circle.radius, cs,
                               -1, shapes[i], dt);
            con->contact = contacts[i];
            warm_start(con, &world->contacts.data[contacts[i]]);
        }
        for (int32_t i = 0; i < pairs; ++i) {
            const rc_body *ob = &world->bodies.data[world->shapes.data[pair_shapes[i]].body];
            rc_constraint *con = &world->constraints.data[world->constraints.count++];
            rc_constraint_init(world, con, world->solver_bodies.data, slot, cs->circle.center, cs->circle.radius, cs,
                               ob->solver_slot, pair_shapes[i], dt);
            con->contact = pair_contacts[i];
            warm_start(con, &world->contacts.data[pair_contacts[i]]);
        }
    }
    return true;
}

/* Solve, then hand the velocities back to the bodies (the push-out velocities stay with the
 * solver bodies until the sweeps use them). */
static void solve_constraints(rc_world *world, float dt) {
    if (world->constraints.count > 0) {
        rc_constraints_solve(world, world->constraints.data, world->constraints.count, world->solver_bodies.data, dt);
    }
    for (int32_t slot = 0; slot < world->solver_bodies.count; ++slot) {
        rc_body *b = &world->bodies.data[world->solver_owner.data[slot]];
        b->linear_velocity = world->solver_bodies.data[slot].v;
        b->angular_velocity = world->solver_bodies.data[slot].w;
    }
}

/* Bounces off what a circle was resting near are impacts like a sweep's. */
static bool report_bounces(rc_world *world) {
    for (int32_t i = 0; i < world->constraints.count; ++i) {
        const rc_constraint *c = &world->constraints.data[i];
        if (c->approach <= 0.0f) {
            continue;
        }
        if (!rc_array_reserve(world, world->impacts, world->impacts.count + 1)) {
            return false;
        }
        rc_impact_event e;
        e.projectile = rc_body_id_of(world, world->solver_owner.data[c->a]);
        e.shape = rc_shape_id_of(world, c->shape);
        e.point = c->point;
        e.normal = c->normal;
        e.approach_speed = c->approach;
        world->impacts.data[world->impacts.count++] = e;
    }
    return true;
}

/* Contacts keep their impulses for the next step's start, once the step cannot fail any more. */
static void commit_constraints(rc_world *world) {
    for (int32_t i = 0; i < world->constraints.count; ++i) {
        const rc_constraint *c = &world->constraints.data[i];
        rc_contact *contact = &world->contacts.data[c->contact];
        contact->normal_impulse = c->normal_impulse;
        contact->tangent_impulse = c->tangent_impulse;
        contact->rolling_impulse = c->rolling_impulse;
    }
}

/* ---- moving ----------------------------------------------------------------------------------- */

/* Move the awake bodies that are not swept by their velocities and place their shapes. A
 * shape that stays in its grid cells (most do, most steps) is moved in the grid at once, which
 * cannot fail; the others wait in the deferred list. Returns how many grid entries the
 * deferred moves add. */
static int32_t integrate_positions(rc_world *world, float dt) {
    int32_t additions = 0;
    world->deferred.count = 0;
    for (int32_t k = world->free_start; k < world->bodies.count; ++k) {
        rc_body *b = &world->bodies.data[world->moving.data[k]];
        rc_clamp_speed(world, &b->linear_velocity, &b->angular_velocity); /* pushed hard by a bullet */
        b->moved = b->linear_velocity.x != 0.0f || b->linear_velocity.y != 0.0f || b->angular_velocity != 0.0f;
        if (!b->moved) {
            continue;
        }
        b->center = rc_mul_add(b->center, dt, b->linear_velocity);
        hold_in_world(b);
        if (b->angular_velocity != 0.0f) {
            b->angle += dt * b->angular_velocity;
            b->xf.q = rc_rot_from_angle(b->angle);
        }
        b->xf.p = rc_sub(b->center, rc_rotate(b->xf.q, b->local_center));
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            rc_shape *shape = &world->shapes.data[s];
            rc_shape_place(world, shape, b->xf);
            int32_t add = rc_grid_move_additions(world->grid, shape->proxy, shape->aabb);
            if (add == 0) {
                rc_grid_move(world->grid, shape->proxy, shape->aabb);
            } else {
                world->deferred.data[world->deferred.count++] = s;
                additions += add;
            }
        }
        if (b->type == RC_KINEMATIC) {
            /* a chain's box is its walls' union: sectors_at looks there first */
            rc_body_refresh_chains(world, b);
        }
    }
    return additions;
}

typedef struct step_sink {
    rc_world *world;
    int32_t body;
} step_sink;

static void step_impact(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach) {
    step_sink *k = context;
    rc_world *world = k->world;
    if (!rc_array_reserve(world, world->impacts, world->impacts.count + 1)) {
        world->step_failed = true;
        return;
    }
    rc_impact_event e;
    e.projectile = rc_body_id_of(world, k->body);
    e.shape = rc_shape_id_of(world, shape);
    e.point = point;
    e.normal = normal;
    e.approach_speed = approach;
    world->impacts.data[world->impacts.count++] = e;
}

static void step_push(void *context, int32_t body, double px, double py, rc_vec2 point) {
    step_sink *k = context;
    rc_world *world = k->world;
    rc_body *b = &world->bodies.data[body];
    if (!b->awake) {
        /* woken in this step: the undo log (as long as the bodies) takes it back on failure */
        save_undo_of(world, body);
        rc_body_wake(b);
        b->solver_slot = -1; /* not among this step's solver bodies */
    }
    double rx = (double)point.x - b->center.x, ry = (double)point.y - b->center.y;
    rc_limit_velocity(world, b->linear_velocity.x + b->inv_mass * px, b->linear_velocity.y + b->inv_mass * py,
                      b->angular_velocity + b->inv_inertia * (rx * py - ry * px), &b->linear_velocity,
                      &b->angular_velocity);
}

static void sweep_body(rc_world *world, int32_t index, float dt) {
    rc_body *b = &world->bodies.data[index];
    rc_sweeper s;
    s.radius = 0.0f;
    s.restitution = s.friction = s.rolling_resistance = 0.0f;
    s.bias = rc_v2(0.0f, 0.0f);
    s.supports = NULL;
    s.support_count = 0;
    s.held = false;
    rc_vec2 circle_offset = {0.0f, 0.0f}; /* from the circle's centre to the centre of mass */
    if (b->motion == RC_MOTION_SWEPT_CIRCLE) {
        const rc_shape *cs = &world->shapes.data[b->swept_shape];
        s.center = cs->circle.center;
        s.radius = cs->circle.radius;
        s.restitution = cs->restitution;
        s.friction = cs->friction;
        s.rolling_resistance = cs->rolling_resistance;
        s.filter = cs->filter;
        circle_offset = rc_sub(b->center, cs->circle.center);
    } else {
        s.center = b->center;
        s.filter = b->point_filter;
    }
    s.velocity = b->linear_velocity;
    s.kick = rc_gravity_kick(world, b->gravity_scale, dt);
    s.angle = b->angle;
    s.angular_velocity = b->angular_velocity;
    s.inv_mass = b->inv_mass;
    s.inv_inertia = b->inv_inertia;
    s.self_body = index;
    s.max_bounces = b->max_bounces;
    s.sees_dynamic = b->bullet;
    s.rest_shape = b->last_hit_step == world->steps - 1 ? b->last_hit_shape : -1;
    if (b->solver_slot >= 0) {
        s.bias = world->solver_bodies.data[b->solver_slot].bias_v;
        s.supports = &world->support_shapes.data[(size_t)b->solver_slot * RC_MAX_SUPPORTS];
        s.support_count = world->support_counts.data[b->solver_slot];
        s.held = world->solver_bodies.data[b->solver_slot].held;
    }
    step_sink k = {world, index};
    rc_sweep_sink sink = {step_impact, step_push, &k, -1};
    rc_sweep(world, &s, dt, &sink);

    b = &world->bodies.data[index];
    if (sink.last_shape >= 0) {
        b->last_hit_shape = sink.last_shape;
        b->last_hit_step = world->steps;
    }
    rc_clamp_speed(world, &s.velocity, &s.angular_velocity); /* bounces with restitution above 1 */
    b->linear_velocity = s.velocity;
    b->angular_velocity = s.angular_velocity;
    bool turned = s.angle != b->angle;
    b->angle = s.angle;
    if (turned) {
        b->xf.q = rc_rot_from_angle(b->angle);
    }
    b->center = rc_add(s.center, circle_offset);
    hold_in_world(b);
    b->xf.p = rc_sub(b->center, rc_rotate(b->xf.q, b->local_center));
    /* moves of swept bodies were reserved: they cannot fail */
    rc_body_place_shapes(world, b);
}

static void sweep_bodies(rc_world *world, float dt) {
    /* grenades first: bullets then strike them where they end the step (bodies the sweeps wake
       are not swept in this step). One pass when the swept bodies are all of one kind. */
    bool mixed = world->swept_bullets != 0 && world->swept_bullets != world->swept_count;
    for (int pass = 0; pass < (mixed ? 2 : 1); ++pass) {
        for (int32_t k = 0; k < world->swept_count && !world->step_failed; ++k) {
            int32_t index = world->moving.data[k];
            if (!mixed || world->bodies.data[index].bullet == (pass == 1)) {
                sweep_body(world, index, dt);
            }
        }
    }
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
        rc_body_place_shapes(world, b);
    }
}

static void collect_pair(int32_t proxy_a, int32_t user_a, int32_t proxy_b, int32_t user_b, void *context) {
    (void)proxy_a;
    (void)proxy_b;
    rc_world *world = context;
    if (world->pair_failed) {
        return;
    }
    /* most pairs of moving bodies are contacts already: look that up before the shapes */
    uint32_t lo = (uint32_t)(user_a < user_b ? user_a : user_b), hi = (uint32_t)(user_a < user_b ? user_b : user_a);
    if (rc_map_get(&world->contact_map, (uint64_t)lo << 32 | hi) >= 0) {
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

/* ---- sleep ------------------------------------------------------------------------------------- */

static int32_t find_root(rc_island_node *nodes, int32_t i) {
    while (nodes[i].parent != i) {
        nodes[i].parent = nodes[nodes[i].parent].parent;
        i = nodes[i].parent;
    }
    return i;
}

/* Bodies that touch fall asleep together: an island of awake dynamic bodies joined by touching
 * contacts sleeps when every one of them has been slow for sleep_time (a pile sleeps as one;
 * one body still rolling keeps its neighbours awake). A moving kinematic body keeps what
 * touches it awake. */
static void update_sleep(rc_world *world, float dt) {
    const rc_world_def *def = &world->def;
    float lin2 = def->sleep_linear_speed * def->sleep_linear_speed;
    bool any_sleepy = false;
    for (int32_t k = 0; k < world->undo.count; ++k) {
        rc_body *b = &world->bodies.data[world->undo.data[k].body];
        if (b->type != RC_DYNAMIC || !b->awake) {
            continue;
        }
        /* still being pushed out of an overlap is not at rest either */
        rc_vec2 push = b->solver_slot >= 0 ? world->solver_bodies.data[b->solver_slot].bias_v : rc_v2(0.0f, 0.0f);
        if (!def->enable_sleep || !b->enable_sleep || rc_dot(b->linear_velocity, b->linear_velocity) > lin2 ||
            fabsf(b->angular_velocity) > def->sleep_angular_speed || rc_dot(push, push) > lin2) {
            b->sleep_time = 0.0f;
            continue;
        }
        b->sleep_time += dt;
        any_sleepy = any_sleepy || b->sleep_time >= def->sleep_time;
    }
    if (!any_sleepy) {
        return;
    }
    rc_island_node *nodes = world->islands.data;
    /* every node, not only the undo list's: a body woken during the step after that list was
       made can be an island's root */
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        nodes[i].parent = i;
        nodes[i].rest_time = INFINITY;
    }
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        const rc_contact *c = &world->contacts.data[i];
        if (!c->in_use || !c->touching || c->sensor) {
            continue;
        }
        int32_t ia = world->shapes.data[c->shape[0]].body, ib = world->shapes.data[c->shape[1]].body;
        rc_body *a = &world->bodies.data[ia], *b = &world->bodies.data[ib];
        if (a->type == RC_KINEMATIC && (a->linear_velocity.x != 0.0f || a->linear_velocity.y != 0.0f ||
                                        a->angular_velocity != 0.0f)) {
            b->sleep_time = 0.0f;
        } else if (b->type == RC_KINEMATIC && (b->linear_velocity.x != 0.0f || b->linear_velocity.y != 0.0f ||
                                               b->angular_velocity != 0.0f)) {
            a->sleep_time = 0.0f;
        }
        if (a->type == RC_DYNAMIC && b->type == RC_DYNAMIC && a->awake && b->awake) {
            int32_t ra = find_root(nodes, ia), rb = find_root(nodes, ib);
            if (ra != rb) {
                nodes[ra < rb ? rb : ra].parent = ra < rb ? ra : rb;
            }
        }
    }
    for (int32_t k = 0; k < world->undo.count; ++k) {
        int32_t i = world->undo.data[k].body;
        const rc_body *b = &world->bodies.data[i];
        if (b->type == RC_DYNAMIC && b->awake) {
            int32_t r = find_root(nodes, i);
            nodes[r].rest_time = rc_minf(nodes[r].rest_time, b->sleep_time);
        }
    }
    for (int32_t k = 0; k < world->undo.count; ++k) {
        int32_t i = world->undo.data[k].body;
        rc_body *b = &world->bodies.data[i];
        if (b->type == RC_DYNAMIC && b->awake && nodes[find_root(nodes, i)].rest_time >= def->sleep_time) {
            b->awake = false;
            b->linear_velocity = rc_v2(0.0f, 0.0f);
            b->angular_velocity = 0.0f;
        }
    }
}

/* ---- the step ---------------------------------------------------------------------------------- */

static bool fail_step(rc_world *world, int32_t impacts_before) {
    for (int32_t k = world->new_contacts.count - 1; k >= 0; --k) {
        rc_contact_destroy(world, world->new_contacts.data[k], false);
    }
    world->new_contacts.count = 0;
    undo_motion(world);
    world->impacts.count = impacts_before;
    return rc_fail(world, "rc_world_step", "out of memory; the world is as it was before the step");
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
    world->pair_failed = false;
    world->step_failed = false;
    if (!rc_array_reserve(world, world->islands, world->bodies.count) ||
        !rc_array_reserve(world, world->moving, world->bodies.count)) {
        return rc_fail(world, __func__, "out of memory; the world is as it was before the step");
    }
    start_step(world, dt);
    if (!gather_constraints(world, dt)) {
        return fail_step(world, impacts_before);
    }
    solve_constraints(world, dt);
    if (!report_bounces(world)) {
        return fail_step(world, impacts_before);
    }
    /* sweeps meet the other bodies where they are at the step's start, then those move: a body
       resting on a rising platform rises with it. Every grid move is reserved with its undoing. */
    /* grid entries the swept bodies' moves may add: four per shape (a proxy covers at most
       2 x 2 cells of its level) */
    int32_t swept = 4 * world->swept_shapes;
    bool ok = rc_grid_reserve(world->grid, 2 * swept);
    if (ok) {
        sweep_bodies(world, dt);
        ok = !world->step_failed;
    }
    if (ok) {
        int32_t additions = integrate_positions(world, dt);
        ok = rc_grid_reserve(world->grid, 2 * additions + swept);
        for (int32_t k = 0; ok && k < world->deferred.count; ++k) {
            const rc_shape *shape = &world->shapes.data[world->deferred.data[k]];
            rc_grid_move(world->grid, shape->proxy, shape->aabb);
        }
    }
    if (ok) {
        rc_grid_find_new_pairs(world->grid, collect_pair, world);
        ok = !world->pair_failed;
    }
    /* every contact, new ones included, changes at most once: room for that many events */
    if (!ok || !rc_contacts_reserve_events(world)) {
        return fail_step(world, impacts_before);
    }
    /* the step cannot fail any more: the pairs are contacts now */
    rc_grid_forget_moves(world->grid);
    commit_constraints(world);
    if (world->published_impacts > 0) {
        int32_t keep = world->impacts.count - world->published_impacts;
        memmove(world->impacts.data, world->impacts.data + world->published_impacts,
                sizeof(rc_impact_event) * (size_t)keep);
        world->impacts.count = keep;
    }
    world->published_impacts = world->impacts.count;
    rc_events_begin_step(world);
    rc_contacts_update(world);
    update_sleep(world, dt);
    /* refit the grid's dense windows if bodies drifted out of them, and give back memory that
       destroyed bodies and shapes left; failing changes nothing */
    rc_grid_optimize(world->grid);
    rc_events_end_step(world);
    rc_world_give_back_memory(world);
    world->steps++;
    return true;
}
