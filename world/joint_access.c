/* What a game reads and changes of its joints (include/ricochet/joint.h). A getter on a stale
 * id records why and returns zero; a setter checks its values whole before it writes and
 * wakes the joint's bodies. */
#include "world/world_internal.h"

#include <math.h>

void rc_joint_wake_bodies(rc_world *world, const rc_joint *j) {
    for (int side = 0; side < 2; ++side) {
        if (j->edge[side].body >= 0) {
            rc_body_wake(&world->bodies.data[j->edge[side].body]);
        }
    }
}

static rc_body_id body_id_or_null(const rc_world *world, int32_t body) {
    return body >= 0 ? rc_body_id_of(world, body) : RC_NULL_BODY_ID;
}

rc_joint_type rc_joint_get_type(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? (rc_joint_type)j->type : RC_REVOLUTE_JOINT;
}

rc_body_id rc_joint_body_a(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? body_id_or_null(world, j->edge[0].body) : RC_NULL_BODY_ID;
}

rc_body_id rc_joint_body_b(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? body_id_or_null(world, j->edge[1].body) : RC_NULL_BODY_ID;
}

rc_vec2 rc_joint_local_anchor_a(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? j->local_anchor[0] : rc_v2(0.0f, 0.0f);
}

rc_vec2 rc_joint_local_anchor_b(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? j->local_anchor[1] : rc_v2(0.0f, 0.0f);
}

bool rc_joint_collide_connected(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL && j->collide_connected;
}

void *rc_joint_user_data(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? j->user_data : NULL;
}

bool rc_joint_set_user_data(rc_world *world, rc_joint_id id, void *user_data) {
    rc_joint *j = rc_joint_for_change(world, id, __func__);
    if (j == NULL) {
        return false;
    }
    j->user_data = user_data;
    return true;
}

rc_vec2 rc_joint_reaction_force(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? j->reaction_force : rc_v2(0.0f, 0.0f);
}

float rc_joint_reaction_torque(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_get_joint(world, id, __func__);
    return j != NULL ? j->reaction_torque : 0.0f;
}

/* ---- where the anchors are now ------------------------------------------------------------------ */

static rc_vec2 anchor_in_world(const rc_world *world, const rc_joint *j, int side) {
    const rc_body *b = &world->bodies.data[j->edge[side].body];
    return rc_transform_point(b->xf, j->local_anchor[side]);
}

/* The velocity of body_b's anchor less body_a's. */
static rc_vec2 anchor_velocity(const rc_world *world, const rc_joint *j) {
    rc_vec2 v[2];
    for (int side = 0; side < 2; ++side) {
        const rc_body *b = &world->bodies.data[j->edge[side].body];
        rc_vec2 r = rc_sub(anchor_in_world(world, j, side), b->center);
        v[side] = rc_add(b->linear_velocity, rc_v2(-b->angular_velocity * r.y, b->angular_velocity * r.x));
    }
    return rc_sub(v[1], v[0]);
}

static float relative_angle(const rc_world *world, const rc_joint *j) {
    float turn = rc_joint_turn(world->bodies.data[j->edge[1].body].angle, world->bodies.data[j->edge[0].body].angle);
    return rc_float_within((double)turn - j->reference_angle);
}

static float relative_spin(const rc_world *world, const rc_joint *j) {
    return world->bodies.data[j->edge[1].body].angular_velocity -
           world->bodies.data[j->edge[0].body].angular_velocity;
}

/* ---- what revolute, prismatic and distance joints share: a limit, a motor, a spring ---------------- */

/* The limits of a joint of `type` (what: what they bound, for the message; within_lengths: also
 * held to 0 .. RC_JOINT_MAX_LENGTH, a distance joint's). Disabled, they hold no impulse. */
static bool set_limits(rc_world *world, rc_joint_id id, rc_joint_type type, bool enable, float lower, float upper,
                       const char *what, bool within_lengths, const char *func) {
    rc_joint *j = rc_typed_joint(world, id, type, true, func);
    if (j == NULL || !rc_joint_range_ok(world, lower, upper, what, func)) {
        return false;
    }
    if (within_lengths && (lower < 0.0f || upper > RC_JOINT_MAX_LENGTH)) {
        return rc_fail(world, func, "the length limits %g .. %g must be within 0 .. RC_JOINT_MAX_LENGTH",
                       (double)lower, (double)upper);
    }
    j->enable_limit = enable;
    j->lower = lower;
    j->upper = upper;
    if (!enable) {
        j->lower_impulse = j->upper_impulse = 0.0f;
    }
    rc_joint_wake_bodies(world, j);
    return true;
}

static bool set_motor(rc_world *world, rc_joint_id id, rc_joint_type type, bool enable, float speed, float max,
                      const char *func) {
    rc_joint *j = rc_typed_joint(world, id, type, true, func);
    if (j == NULL || !rc_joint_motor_ok(world, speed, max, func)) {
        return false;
    }
    j->enable_motor = enable;
    j->motor_speed = speed;
    j->max_motor = max;
    if (!enable) {
        j->motor_impulse = 0.0f;
    }
    rc_joint_wake_bodies(world, j);
    return true;
}

/* A distance joint's spring replaces its rod (or the other way): both impulses start anew. */
static bool set_spring(rc_world *world, rc_joint_id id, rc_joint_type type, bool enable, float hertz,
                       float damping_ratio, const char *func) {
    rc_joint *j = rc_typed_joint(world, id, type, true, func);
    if (j == NULL || !rc_joint_spring_ok(world, hertz, damping_ratio, func)) {
        return false;
    }
    j->enable_spring = enable;
    j->hertz = hertz;
    j->damping_ratio = damping_ratio;
    if (type == RC_DISTANCE_JOINT) {
        j->spring_impulse = 0.0f;
        j->linear_impulse = rc_v2(0.0f, 0.0f);
    } else if (!enable) {
        j->spring_impulse = 0.0f;
    }
    rc_joint_wake_bodies(world, j);
    return true;
}

/* ---- revolute ------------------------------------------------------------------------------------ */

float rc_revolute_joint_angle(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_REVOLUTE_JOINT, false, __func__);
    return j != NULL ? relative_angle(world, j) : 0.0f;
}

float rc_revolute_joint_speed(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_REVOLUTE_JOINT, false, __func__);
    return j != NULL ? relative_spin(world, j) : 0.0f;
}

float rc_revolute_joint_motor_torque(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_REVOLUTE_JOINT, false, __func__);
    if (j == NULL) {
        return 0.0f;
    }
    /* the motor's share of the reaction torque: the same last sub-step */
    float axial = j->spring_impulse + j->motor_impulse + j->lower_impulse - j->upper_impulse;
    return axial != 0.0f ? j->reaction_torque * (j->motor_impulse / axial) : 0.0f;
}

bool rc_revolute_joint_set_limits(rc_world *world, rc_joint_id id, bool enable, float lower, float upper) {
    return set_limits(world, id, RC_REVOLUTE_JOINT, enable, lower, upper, "angle", false, __func__);
}

bool rc_revolute_joint_set_motor(rc_world *world, rc_joint_id id, bool enable, float speed, float max_torque) {
    return set_motor(world, id, RC_REVOLUTE_JOINT, enable, speed, max_torque, __func__);
}

bool rc_revolute_joint_set_spring(rc_world *world, rc_joint_id id, bool enable, float hertz, float damping_ratio) {
    return set_spring(world, id, RC_REVOLUTE_JOINT, enable, hertz, damping_ratio, __func__);
}

/* ---- distance ------------------------------------------------------------------------------------ */

float rc_distance_joint_current_length(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_DISTANCE_JOINT, false, __func__);
    return j != NULL ? rc_length(rc_sub(anchor_in_world(world, j, 1), anchor_in_world(world, j, 0))) : 0.0f;
}

bool rc_distance_joint_set_length(rc_world *world, rc_joint_id id, float length) {
    rc_joint *j = rc_typed_joint(world, id, RC_DISTANCE_JOINT, true, __func__);
    if (j == NULL) {
        return false;
    }
    if (!rc_is_finite(length) || !(length > 0.0f) || length > RC_JOINT_MAX_LENGTH) {
        return rc_fail(world, __func__, "length %g must be above 0 and at most RC_JOINT_MAX_LENGTH", (double)length);
    }
    j->length = length;
    rc_joint_wake_bodies(world, j);
    return true;
}

bool rc_distance_joint_set_limits(rc_world *world, rc_joint_id id, bool enable, float min_length, float max_length) {
    return set_limits(world, id, RC_DISTANCE_JOINT, enable, min_length, max_length, "length", true, __func__);
}

bool rc_distance_joint_set_spring(rc_world *world, rc_joint_id id, bool enable, float hertz, float damping_ratio) {
    return set_spring(world, id, RC_DISTANCE_JOINT, enable, hertz, damping_ratio, __func__);
}

bool rc_distance_joint_set_motor(rc_world *world, rc_joint_id id, bool enable, float speed, float max_force) {
    return set_motor(world, id, RC_DISTANCE_JOINT, enable, speed, max_force, __func__);
}

/* ---- prismatic ----------------------------------------------------------------------------------- */

static rc_vec2 prismatic_axis(const rc_world *world, const rc_joint *j) {
    return rc_rotate(world->bodies.data[j->edge[0].body].xf.q, j->local_axis_a);
}

float rc_prismatic_joint_translation(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_PRISMATIC_JOINT, false, __func__);
    if (j == NULL) {
        return 0.0f;
    }
    return rc_dot(prismatic_axis(world, j), rc_sub(anchor_in_world(world, j, 1), anchor_in_world(world, j, 0)));
}

float rc_prismatic_joint_speed(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_PRISMATIC_JOINT, false, __func__);
    if (j == NULL) {
        return 0.0f;
    }
    /* d/dt of axis . d: the anchors' relative velocity along the axis, and the axis turning with a */
    rc_vec2 axis = prismatic_axis(world, j);
    rc_vec2 d = rc_sub(anchor_in_world(world, j, 1), anchor_in_world(world, j, 0));
    float wa = world->bodies.data[j->edge[0].body].angular_velocity;
    return rc_dot(axis, anchor_velocity(world, j)) + wa * rc_dot(rc_left_perp(axis), d);
}

bool rc_prismatic_joint_set_limits(rc_world *world, rc_joint_id id, bool enable, float lower, float upper) {
    return set_limits(world, id, RC_PRISMATIC_JOINT, enable, lower, upper, "translation", false, __func__);
}

bool rc_prismatic_joint_set_motor(rc_world *world, rc_joint_id id, bool enable, float speed, float max_force) {
    return set_motor(world, id, RC_PRISMATIC_JOINT, enable, speed, max_force, __func__);
}

bool rc_prismatic_joint_set_spring(rc_world *world, rc_joint_id id, bool enable, float hertz, float damping_ratio) {
    return set_spring(world, id, RC_PRISMATIC_JOINT, enable, hertz, damping_ratio, __func__);
}

/* ---- weld and mouse ------------------------------------------------------------------------------ */

bool rc_weld_joint_set_springs(rc_world *world, rc_joint_id id, float linear_hertz, float linear_damping_ratio,
                               float angular_hertz, float angular_damping_ratio) {
    rc_joint *j = rc_typed_joint(world, id, RC_WELD_JOINT, true, __func__);
    if (j == NULL || !rc_joint_spring_ok(world, linear_hertz, linear_damping_ratio, __func__) ||
        !rc_joint_spring_ok(world, angular_hertz, angular_damping_ratio, __func__)) {
        return false;
    }
    j->hertz = linear_hertz;
    j->damping_ratio = linear_damping_ratio;
    j->angular_hertz = angular_hertz;
    j->angular_damping_ratio = angular_damping_ratio;
    rc_joint_wake_bodies(world, j);
    return true;
}

bool rc_mouse_joint_set_target(rc_world *world, rc_joint_id id, rc_vec2 target) {
    rc_joint *j = rc_typed_joint(world, id, RC_MOUSE_JOINT, true, __func__);
    if (j == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(target) || !rc_in_world(target)) {
        return rc_fail(world, __func__, "target (%g, %g) is NaN, infinite or beyond RC_WORLD_LIMIT", (double)target.x,
                       (double)target.y);
    }
    j->target = target;
    rc_joint_wake_bodies(world, j);
    return true;
}

rc_vec2 rc_mouse_joint_target(const rc_world *world, rc_joint_id id) {
    const rc_joint *j = rc_typed_joint(world, id, RC_MOUSE_JOINT, false, __func__);
    return j != NULL ? j->target : rc_v2(0.0f, 0.0f);
}
