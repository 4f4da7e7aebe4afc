/* The step. Everything that may need memory is reserved before anything moves; the one part
 * that cannot be reserved ahead, contacts for the pairs the broadphase finds, is undone
 * together with the motion if it runs out, so a failed step leaves the world as it was. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

static void integrate_velocities(rc_world *world, float dt) {
    rc_vec2 g = world->def.gravity;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        rc_body *b = &world->bodies.data[i];
        if (!b->in_use || b->type != RC_DYNAMIC || !b->awake) {
            continue;
        }
        rc_vec2 v = rc_mul_add(b->linear_velocity, dt * b->gravity_scale, g);
        /* the implicit form stays stable for any damping and step */
        v = rc_scale(1.0f / (1.0f + dt * b->linear_damping), v);
        b->linear_velocity = v;
        b->angular_velocity *= 1.0f / (1.0f + dt * b->angular_damping);
    }
}

static void save_undo(rc_world *world) {
    world->undo.count = 0;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        const rc_body *b = &world->bodies.data[i];
        if (!b->in_use || b->type == RC_STATIC || !b->awake) {
            continue;
        }
        rc_body_undo u = {i, b->xf.p, b->center, b->linear_velocity, b->angle, b->angular_velocity};
        world->undo.data[world->undo.count++] = u;
    }
}

/* Move the awake bodies (those in the undo log) by their velocities and place their shapes.
 * A shape that stays in its grid cells (most do, most steps) is moved in the grid at once,
 * which cannot fail; the others wait in the deferred list. Returns how many grid entries the
 * deferred moves add. */
static int32_t integrate_positions(rc_world *world, float dt) {
    int32_t additions = 0;
    world->deferred.count = 0;
    for (int32_t k = 0; k < world->undo.count; ++k) {
        rc_body *b = &world->bodies.data[world->undo.data[k].body];
        b->moved = b->linear_velocity.x != 0.0f || b->linear_velocity.y != 0.0f || b->angular_velocity != 0.0f;
        if (!b->moved) {
            continue;
        }
        b->center = rc_mul_add(b->center, dt, b->linear_velocity);
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
    }
    return additions;
}

/* Put the moved bodies back where they were (the undo log) and their shapes with them. */
static void undo_motion(rc_world *world) {
    for (int32_t k = 0; k < world->undo.count; ++k) {
        const rc_body_undo *u = &world->undo.data[k];
        rc_body *b = &world->bodies.data[u->body];
        b->xf.p = u->position;
        b->xf.q = rc_rot_from_angle(u->angle);
        b->center = u->center;
        b->linear_velocity = u->linear_velocity;
        b->angle = u->angle;
        b->angular_velocity = u->angular_velocity;
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

static void update_sleep(rc_world *world, float dt) {
    const rc_world_def *def = &world->def;
    float lin2 = def->sleep_linear_speed * def->sleep_linear_speed;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        rc_body *b = &world->bodies.data[i];
        if (!b->in_use || b->type != RC_DYNAMIC || !b->awake) {
            continue;
        }
        if (!def->enable_sleep || !b->enable_sleep || rc_dot(b->linear_velocity, b->linear_velocity) > lin2 ||
            fabsf(b->angular_velocity) > def->sleep_angular_speed) {
            b->sleep_time = 0.0f;
            continue;
        }
        b->sleep_time += dt;
        if (b->sleep_time >= def->sleep_time) {
            b->awake = false;
            b->linear_velocity = rc_v2(0.0f, 0.0f);
            b->angular_velocity = 0.0f;
        }
    }
}

bool rc_world_step(rc_world *world, float dt) {
    if (world == NULL) {
        return false;
    }
    if (!rc_is_finite(dt) || dt <= 0.0f) {
        return rc_fail(world, __func__, "dt %g must be finite and > 0", (double)dt);
    }
    save_undo(world);
    integrate_velocities(world, dt);
    int32_t additions = integrate_positions(world, dt);

    /* the broadphase: reserve both the deferred moves and their undoing, then move */
    world->new_contacts.count = 0;
    world->pair_failed = false;
    bool ok = rc_grid_reserve(world->grid, 2 * additions);
    if (ok) {
        for (int32_t k = 0; k < world->deferred.count; ++k) {
            const rc_shape *shape = &world->shapes.data[world->deferred.data[k]];
            rc_grid_move(world->grid, shape->proxy, shape->aabb);
        }
        rc_grid_update_pairs(world->grid, collect_pair, world);
        ok = !world->pair_failed;
    }
    /* every contact, new ones included, changes at most once: room for that many events */
    if (!ok || !rc_contacts_reserve_events(world)) {
        for (int32_t k = world->new_contacts.count - 1; k >= 0; --k) {
            rc_contact_destroy(world, world->new_contacts.data[k], false);
        }
        undo_motion(world);
        return rc_fail(world, __func__, "out of memory; the world is as it was before the step");
    }
    rc_events_begin_step(world);
    rc_contacts_update(world);
    update_sleep(world, dt);
    /* refit the grid's dense windows if bodies drifted out of them; failing changes nothing */
    rc_grid_optimize(world->grid);
    rc_events_end_step(world);
    world->steps++;
    return true;
}
