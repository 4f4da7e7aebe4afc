/* Speeds a game sets, and impulses, forces and torques it applies to dynamic bodies (world.h):
 * checked, held to the world's speed limits, and kept until the step uses them; and how the
 * step turns gravity, them and damping into velocity for the bodies it does not solve
 * (detection-only and swept ones). */
#include "world/world_internal.h"

/* A kinematic body set moving wakes the sleeping bodies it touches, with their islands: a crate
 * asleep on a still platform would otherwise stay asleep when the platform moves (its contact
 * touches already, and only a contact's beginning wakes a sleeper), and float in the air once
 * the platform has gone. The room for the walk comes first: refused, nothing has changed. */
static bool reserve_kinematic_wakes(rc_world *world, const rc_body *b) {
    return b->type != RC_KINEMATIC || rc_array_reserve(world, world->islands, world->bodies.count);
}

static void wake_what_it_touches(rc_world *world, const rc_body *b) {
    if (rc_body_moving_kinematic(b)) {
        rc_island_wake_touching(world, b, -1); /* room reserved */
    }
}

bool rc_body_set_linear_velocity(rc_world *world, rc_body_id id, rc_vec2 velocity) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(velocity)) {
        return rc_fail(world, __func__, "velocity (%g, %g) is not finite", (double)velocity.x, (double)velocity.y);
    }
    if (!rc_speed_ok(world, velocity, 0.0f)) {
        return rc_fail(world, __func__, "velocity (%g, %g) is above the world's max_linear_speed %g",
                       (double)velocity.x, (double)velocity.y, (double)world->def.max_linear_speed);
    }
    if (b->type == RC_STATIC) {
        return rc_fail(world, __func__, "a static body has no velocity");
    }
    if (!reserve_kinematic_wakes(world, b)) {
        return rc_fail(world, __func__, "out of memory; nothing changed");
    }
    bool changed = velocity.x != b->linear_velocity.x || velocity.y != b->linear_velocity.y;
    b->linear_velocity = velocity;
    if (rc_dot(velocity, velocity) > 0.0f) {
        rc_body_wake(b);
    }
    if (changed) {
        rc_body_list_speed_change(world, b); /* (a platform set to the speed it has each frame: nothing) */
    }
    wake_what_it_touches(world, b);
    return true;
}

bool rc_body_set_angular_velocity(rc_world *world, rc_body_id id, float velocity) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!rc_is_finite(velocity)) {
        return rc_fail(world, __func__, "angular velocity %g is not finite", (double)velocity);
    }
    if (!rc_speed_ok(world, rc_v2(0.0f, 0.0f), velocity)) {
        return rc_fail(world, __func__, "angular velocity %g is above the world's max_angular_speed %g",
                       (double)velocity, (double)world->def.max_angular_speed);
    }
    if (b->type == RC_STATIC) {
        return rc_fail(world, __func__, "a static body has no velocity");
    }
    if (!reserve_kinematic_wakes(world, b)) {
        return rc_fail(world, __func__, "out of memory; nothing changed");
    }
    bool changed = velocity != b->angular_velocity;
    b->angular_velocity = velocity;
    if (velocity != 0.0f) {
        rc_body_wake(b);
    }
    if (changed) {
        rc_body_list_speed_change(world, b);
    }
    wake_what_it_touches(world, b);
    return true;
}


bool rc_body_apply_linear_impulse(rc_world *world, rc_body_id id, rc_vec2 impulse, rc_vec2 point) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(impulse) || !rc_vec2_is_finite(point)) {
        return rc_fail(world, __func__, "impulse or point is not finite");
    }
    if (b->type != RC_DYNAMIC) {
        return rc_fail(world, __func__, "only a dynamic body takes impulses");
    }
    /* in double, held to the speed limits: a huge impulse on a light body overflowed float */
    double vx = b->linear_velocity.x + (double)b->inv_mass * impulse.x;
    double vy = b->linear_velocity.y + (double)b->inv_mass * impulse.y;
    double rx = (double)point.x - b->center.x, ry = (double)point.y - b->center.y;
    double w = b->angular_velocity + (double)b->inv_inertia * (rx * impulse.y - ry * impulse.x);
    rc_limit_velocity(world, vx, vy, w, &b->linear_velocity, &b->angular_velocity);
    rc_body_wake(b);
    rc_body_list_speed_change(world, b);
    return true;
}

void rc_body_list_speed_change(rc_world *world, const rc_body *body) {
    /* its contacts' manifolds looked ahead along the old speed: the step's start finds them
       again (rc_contacts_refresh); a crate kicked at 20 units/s 0.05 from another had no point
       within reach and went 0.28 into it */
    rc_body_flag_contacts(world, body);
    for (int32_t s = body->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->proxy >= 0 && shape->kind != RC_SHAPE_SEGMENT) {
            /* (cannot fail: a live proxy of the moving bodies' grid, not locked between steps) */
            (void)rc_grid_mark_moved(world->grid, shape->proxy);
        }
    }
}

/* A dynamic body that takes forces: refused for others, or with numbers not finite. */
static rc_body *force_target(rc_world *world, rc_body_id id, bool finite, const char *func) {
    rc_body *b = rc_body_for_change(world, id, func);
    if (b == NULL) {
        return NULL;
    }
    if (!finite) {
        rc_fail(world, func, "a value is not finite");
        return NULL;
    }
    if (b->type != RC_DYNAMIC) {
        rc_fail(world, func, "only a dynamic body takes forces and impulses");
        return NULL;
    }
    return b;
}

/* A force at a world point, or (at_center) at the centre of mass; func names the caller in a
 * refusal's message. */
static bool add_force(rc_world *world, rc_body_id id, rc_vec2 force, rc_vec2 point, bool at_center, const char *func) {
    rc_body *b = force_target(world, id, rc_vec2_is_finite(force) && rc_vec2_is_finite(point), func);
    if (b == NULL) {
        return false;
    }
    if (at_center) {
        point = b->center;
    }
    /* the torque about the centre of mass, and both sums, in double: all must stay floats */
    double rx = (double)point.x - b->center.x, ry = (double)point.y - b->center.y;
    double fx = (double)b->force.x + force.x, fy = (double)b->force.y + force.y;
    double t = (double)b->torque + (rx * force.y - ry * force.x);
    if (!(fabs(fx) <= FLT_MAX && fabs(fy) <= FLT_MAX && fabs(t) <= FLT_MAX)) {
        return rc_fail(world, func, "the force or its torque sums beyond float range");
    }
    b->force = rc_v2((float)fx, (float)fy);
    b->torque = (float)t;
    rc_body_wake(b);
    return true;
}

bool rc_body_apply_force(rc_world *world, rc_body_id id, rc_vec2 force, rc_vec2 point) {
    return add_force(world, id, force, point, false, __func__);
}

bool rc_body_apply_force_to_center(rc_world *world, rc_body_id id, rc_vec2 force) {
    return add_force(world, id, force, rc_v2(0.0f, 0.0f), true, __func__);
}

bool rc_body_apply_torque(rc_world *world, rc_body_id id, float torque) {
    rc_body *b = force_target(world, id, rc_is_finite(torque), __func__);
    if (b == NULL) {
        return false;
    }
    double t = (double)b->torque + torque;
    if (!(fabs(t) <= FLT_MAX)) {
        return rc_fail(world, __func__, "the torque sums beyond float range");
    }
    b->torque = (float)t;
    rc_body_wake(b);
    return true;
}

bool rc_body_apply_angular_impulse(rc_world *world, rc_body_id id, float impulse) {
    rc_body *b = force_target(world, id, rc_is_finite(impulse), __func__);
    if (b == NULL) {
        return false;
    }
    rc_limit_velocity(world, b->linear_velocity.x, b->linear_velocity.y,
                      b->angular_velocity + (double)b->inv_inertia * impulse, &b->linear_velocity,
                      &b->angular_velocity);
    rc_body_wake(b);
    rc_body_list_speed_change(world, b);
    return true;
}

/* ---- what the step makes of them ----------------------------------------------------------- */

void rc_integrate_velocity(const rc_world *world, rc_vec2 *v, float *w, float gravity_scale, float linear_damping,
                           float angular_damping, rc_vec2 accel, float spin_accel, float dt) {
    /* in double, then held to the speed limits: a huge gravity scale over a long step went beyond
       float range */
    rc_vec2 g = world->def.gravity;
    double k = (double)dt * gravity_scale;
    double vx = v->x + k * g.x + (double)dt * accel.x, vy = v->y + k * g.y + (double)dt * accel.y;
    double spin = *w + (double)dt * spin_accel;
    /* the implicit form stays stable for any damping and step */
    /* (no damping, the most common case, is a factor of exactly 1 without the divisions) */
    double lin = linear_damping == 0.0f ? 1.0 : 1.0 / (1.0 + (double)dt * linear_damping);
    double ang = angular_damping == 0.0f ? 1.0 : 1.0 / (1.0 + (double)dt * angular_damping);
    rc_limit_velocity(world, vx * lin, vy * lin, spin * ang, v, w);
}

void rc_body_forced_accel(const rc_body *b, rc_vec2 *accel, float *spin_accel) {
    double ax = (double)b->inv_mass * b->force.x, ay = (double)b->inv_mass * b->force.y;
    double aw = (double)b->inv_inertia * b->torque;
    const double max = FLT_MAX;
    *accel = rc_v2((float)(ax > max ? max : (ax < -max ? -max : ax)), (float)(ay > max ? max : (ay < -max ? -max : ay)));
    *spin_accel = (float)(aw > max ? max : (aw < -max ? -max : aw));
}
