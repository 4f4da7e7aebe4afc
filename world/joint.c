/* Joints: the records behind rc_joint_id, made and destroyed with their bodies' lists and the
 * map of body pairs that may not collide (world/joint.h). Every def is checked whole before
 * anything is reserved, and everything is reserved before anything is written, so a refused
 * or failed call changes nothing. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

static bool finite_non_negative(float v) { return rc_is_finite(v) && v >= 0.0f; }

rc_revolute_joint_def rc_revolute_joint_default_def(void) {
    rc_revolute_joint_def def;
    memset(&def, 0, sizeof def);
    return def;
}

rc_distance_joint_def rc_distance_joint_default_def(void) {
    rc_distance_joint_def def;
    memset(&def, 0, sizeof def);
    def.length = 1.0f;
    def.max_length = RC_JOINT_MAX_LENGTH;
    return def;
}

rc_prismatic_joint_def rc_prismatic_joint_default_def(void) {
    rc_prismatic_joint_def def;
    memset(&def, 0, sizeof def);
    def.local_axis_a = rc_v2(1.0f, 0.0f);
    return def;
}

rc_weld_joint_def rc_weld_joint_default_def(void) {
    rc_weld_joint_def def;
    memset(&def, 0, sizeof def);
    def.linear_damping_ratio = 2.0f;
    def.angular_damping_ratio = 2.0f;
    return def;
}

rc_mouse_joint_def rc_mouse_joint_default_def(void) {
    rc_mouse_joint_def def;
    memset(&def, 0, sizeof def);
    def.hertz = 5.0f;
    def.damping_ratio = 0.7f;
    def.max_force = 1000.0f;
    return def;
}

/* ---- lookups ---------------------------------------------------------------------------------- */

rc_joint *rc_get_joint(const rc_world *world, rc_joint_id id, const char *func) {
    if (world == NULL) {
        return NULL;
    }
    if (rc_joint_id_is_null(id)) {
        rc_fail(world, func, "the joint id is null");
        return NULL;
    }
    /* (index 0 with another generation is not null: it names nothing, and index - 1 wraps) */
    if (id.index == 0 || id.index > (uint32_t)world->joints.count || !world->joints.data[id.index - 1].in_use ||
        world->joints.data[id.index - 1].generation != id.generation) {
        rc_fail(world, func, "joint id {%u, %u} names no live joint (destroyed, or not from this world)", id.index,
                id.generation);
        return NULL;
    }
    return &world->joints.data[id.index - 1];
}

rc_joint *rc_joint_for_change(rc_world *world, rc_joint_id id, const char *func) {
    if (rc_world_for_change(world, func) == NULL) {
        return NULL;
    }
    return rc_get_joint(world, id, func);
}

rc_joint *rc_typed_joint(const rc_world *world, rc_joint_id id, rc_joint_type type, bool change, const char *func) {
    rc_joint *j = change ? rc_joint_for_change((rc_world *)world, id, func) : rc_get_joint(world, id, func);
    if (j != NULL && j->type != (uint8_t)type) {
        rc_fail(world, func, "joint {%u, %u} is of another type (%d)", id.index, id.generation, (int)j->type);
        return NULL;
    }
    return j;
}

bool rc_joint_is_valid(const rc_world *world, rc_joint_id id) {
    if (world == NULL || id.index == 0 || id.index > (uint32_t)world->joints.count) {
        return false;
    }
    const rc_joint *j = &world->joints.data[id.index - 1];
    return j->in_use && j->generation == id.generation;
}

static rc_joint_id joint_id_of(const rc_world *world, int32_t index) {
    rc_joint_id id = {(uint32_t)index + 1u, world->joints.data[index].generation};
    return id;
}

/* ---- making and destroying --------------------------------------------------------------------- */

/* What every def shares, checked: the bodies (b_index, a_index: -1 for none) and the anchors. */
typedef struct joint_common {
    int32_t a, b;
    rc_vec2 anchor_a, anchor_b;
    bool collide_connected;
    void *user_data;
} joint_common;

static bool common_ok(rc_world *world, rc_body_id body_a, rc_body_id body_b, rc_vec2 anchor_a, rc_vec2 anchor_b,
                      const char *func, joint_common *out) {
    const rc_body *a = rc_get_body(world, body_a, func);
    if (a == NULL) {
        return false;
    }
    const rc_body *b = rc_get_body(world, body_b, func);
    if (b == NULL) {
        return false;
    }
    if (a == b) {
        rc_fail(world, func, "body_a and body_b are the same body {%u, %u}", body_a.index, body_a.generation);
        return false;
    }
    if (a->type != RC_DYNAMIC && b->type != RC_DYNAMIC) {
        rc_fail(world, func, "neither body is dynamic: a joint between two bodies without mass moves nothing");
        return false;
    }
    if (!rc_vec2_is_finite(anchor_a) || !rc_vec2_is_finite(anchor_b) || !rc_in_world(anchor_a) ||
        !rc_in_world(anchor_b)) {
        rc_fail(world, func, "an anchor is NaN, infinite or beyond RC_WORLD_LIMIT");
        return false;
    }
    out->a = (int32_t)body_a.index - 1;
    out->b = (int32_t)body_b.index - 1;
    out->anchor_a = anchor_a;
    out->anchor_b = anchor_b;
    return true;
}

bool rc_joint_spring_ok(rc_world *world, float hertz, float damping_ratio, const char *func) {
    if (!finite_non_negative(hertz) || !finite_non_negative(damping_ratio)) {
        return rc_fail(world, func, "the spring's hertz %g and damping ratio %g must be finite and >= 0",
                       (double)hertz, (double)damping_ratio);
    }
    return true;
}

bool rc_joint_motor_ok(rc_world *world, float speed, float max, const char *func) {
    if (!rc_is_finite(speed) || !finite_non_negative(max)) {
        return rc_fail(world, func, "the motor's speed %g must be finite and its maximum %g finite and >= 0",
                       (double)speed, (double)max);
    }
    return true;
}

bool rc_joint_range_ok(rc_world *world, float lower, float upper, const char *what, const char *func) {
    if (!rc_is_finite(lower) || !rc_is_finite(upper) || lower > upper) {
        return rc_fail(world, func, "the %s limits %g .. %g must be finite, lower <= upper", what, (double)lower,
                       (double)upper);
    }
    return true;
}

static void link_edge(rc_world *world, int32_t joint, int side) {
    rc_joint *j = &world->joints.data[joint];
    int32_t body = j->edge[side].body;
    if (body < 0) {
        return;
    }
    rc_body *b = &world->bodies.data[body];
    j->edge[side].prev = -1;
    j->edge[side].next = b->first_joint;
    if (b->first_joint >= 0) {
        rc_joint *head = &world->joints.data[b->first_joint];
        head->edge[head->edge[0].body == body ? 0 : 1].prev = joint;
    }
    b->first_joint = joint;
}

static void unlink_edge(rc_world *world, int32_t joint, int side) {
    rc_joint *j = &world->joints.data[joint];
    int32_t body = j->edge[side].body;
    if (body < 0) {
        return;
    }
    int32_t prev = j->edge[side].prev, next = j->edge[side].next;
    if (prev >= 0) {
        rc_joint *p = &world->joints.data[prev];
        p->edge[p->edge[0].body == body ? 0 : 1].next = next;
    } else {
        world->bodies.data[body].first_joint = next;
    }
    if (next >= 0) {
        rc_joint *n = &world->joints.data[next];
        n->edge[n->edge[0].body == body ? 0 : 1].prev = prev;
    }
}

/* Room for one more joint (and its pair in the map when it keeps its bodies apart). */
static bool reserve_joint(rc_world *world, bool keeps_apart, const char *func) {
    if (!rc_array_reserve(world, world->joints, world->joints.count + 1) ||
        !rc_id_pool_reserve(&world->allocator, &world->joint_ids, 1) ||
        !rc_array_reserve(world, world->joint_constraints, rc_id_pool_live(&world->joint_ids) + 1) ||
        !rc_array_reserve(world, world->joint_woken, rc_id_pool_live(&world->joint_ids) + 1) ||
        !rc_array_reserve(world, world->joint_colors, world->joints.count + 1) ||
        (keeps_apart && !rc_map_reserve(&world->allocator, &world->joint_pairs, 1))) {
        return rc_fail(world, func, "out of memory");
    }
    return true;
}

/* Take a slot for a joint of `type` between the common part's bodies (reserved before). */
static rc_joint *add_joint(rc_world *world, rc_joint_type type, const joint_common *c, int32_t *index_out) {
    int32_t index = rc_id_pool_take(&world->joint_ids);
    if (index == world->joints.count) {
        world->joints.count++;
    }
    rc_joint *j = &world->joints.data[index];
    memset(j, 0, sizeof *j);
    j->in_use = true;
    j->type = (uint8_t)type;
    j->generation = rc_world_generation(world, &world->joint_ids, index);
    j->edge[0].body = c->a;
    j->edge[1].body = c->b;
    j->local_anchor[0] = c->anchor_a;
    j->local_anchor[1] = c->anchor_b;
    j->collide_connected = c->collide_connected;
    j->user_data = c->user_data;
    link_edge(world, index, 0);
    link_edge(world, index, 1);
    if (c->a >= 0) {
        rc_body_wake(&world->bodies.data[c->a]);
    }
    rc_body_wake(&world->bodies.data[c->b]);
    if (!c->collide_connected && c->a >= 0) {
        uint64_t key = rc_body_pair_key(c->a, c->b);
        int32_t n = rc_map_get(&world->joint_pairs, key);
        rc_map_set(&world->joint_pairs, key, n < 0 ? 1 : n + 1);
        /* their contacts end at the next step (with end events) */
        rc_body_flag_contacts(world, &world->bodies.data[c->a]);
        rc_body_flag_contacts(world, &world->bodies.data[c->b]);
    }
    *index_out = index;
    return j;
}

/* A create's first checks: the world open to change, a def. */
static bool def_given(rc_world *world, const void *def, const char *func) {
    if (rc_world_for_change(world, func) == NULL) {
        return false;
    }
    if (def == NULL) {
        rc_fail(world, func, "def is NULL");
        return false;
    }
    return true;
}

/* What revolute, prismatic and distance joints share: a limit, a motor, a spring. */
typedef struct joint_drive {
    bool enable_limit;
    float lower, upper;
    bool enable_motor;
    float motor_speed, max_motor;
    bool enable_spring;
    float hertz, damping_ratio;
} joint_drive;

static void set_drive(rc_joint *j, joint_drive d) {
    j->enable_limit = d.enable_limit;
    j->lower = d.lower;
    j->upper = d.upper;
    j->enable_motor = d.enable_motor;
    j->motor_speed = d.motor_speed;
    j->max_motor = d.max_motor;
    j->enable_spring = d.enable_spring;
    j->hertz = d.hertz;
    j->damping_ratio = d.damping_ratio;
}

static float body_angle(const rc_world *world, int32_t body) {
    return body >= 0 ? world->bodies.data[body].angle : 0.0f;
}

rc_joint_id rc_joint_create_revolute(rc_world *world, const rc_revolute_joint_def *def) {
    static const char *func = "rc_joint_create_revolute";
    joint_common c = {-1, -1, {0.0f, 0.0f}, {0.0f, 0.0f}, false, NULL};
    if (!def_given(world, def, func)) {
        return RC_NULL_JOINT_ID;
    }
    if (!common_ok(world, def->body_a, def->body_b, def->local_anchor_a, def->local_anchor_b, func, &c) ||
        !rc_joint_range_ok(world, def->lower_angle, def->upper_angle, "angle", func) ||
        !rc_joint_motor_ok(world, def->motor_speed, def->max_motor_torque, func) ||
        !rc_joint_spring_ok(world, def->hertz, def->damping_ratio, func) ||
        !reserve_joint(world, !def->collide_connected, func)) {
        return RC_NULL_JOINT_ID;
    }
    c.collide_connected = def->collide_connected;
    c.user_data = def->user_data;
    int32_t index;
    rc_joint *j = add_joint(world, RC_REVOLUTE_JOINT, &c, &index);
    j->reference_angle = rc_joint_turn(body_angle(world, c.b), body_angle(world, c.a));
    set_drive(j, (joint_drive){def->enable_limit, def->lower_angle, def->upper_angle, def->enable_motor, def->motor_speed,
                               def->max_motor_torque, def->enable_spring, def->hertz, def->damping_ratio});
    return joint_id_of(world, index);
}

rc_joint_id rc_joint_create_distance(rc_world *world, const rc_distance_joint_def *def) {
    static const char *func = "rc_joint_create_distance";
    joint_common c = {-1, -1, {0.0f, 0.0f}, {0.0f, 0.0f}, false, NULL};
    if (!def_given(world, def, func)) {
        return RC_NULL_JOINT_ID;
    }
    if (!common_ok(world, def->body_a, def->body_b, def->local_anchor_a, def->local_anchor_b, func, &c)) {
        return RC_NULL_JOINT_ID;
    }
    if (!rc_is_finite(def->length) || !(def->length > 0.0f) || def->length > RC_JOINT_MAX_LENGTH) {
        rc_fail(world, func, "def.length %g must be above 0 and at most RC_JOINT_MAX_LENGTH", (double)def->length);
        return RC_NULL_JOINT_ID;
    }
    if (!rc_joint_range_ok(world, def->min_length, def->max_length, "length", func)) {
        return RC_NULL_JOINT_ID;
    }
    if (def->min_length < 0.0f || def->max_length > RC_JOINT_MAX_LENGTH) {
        rc_fail(world, func, "the length limits %g .. %g must be within 0 .. RC_JOINT_MAX_LENGTH",
                (double)def->min_length, (double)def->max_length);
        return RC_NULL_JOINT_ID;
    }
    if (!rc_joint_motor_ok(world, def->motor_speed, def->max_motor_force, func) ||
        !rc_joint_spring_ok(world, def->hertz, def->damping_ratio, func) ||
        !reserve_joint(world, !def->collide_connected, func)) {
        return RC_NULL_JOINT_ID;
    }
    c.collide_connected = def->collide_connected;
    c.user_data = def->user_data;
    int32_t index;
    rc_joint *j = add_joint(world, RC_DISTANCE_JOINT, &c, &index);
    j->length = def->length;
    set_drive(j, (joint_drive){def->enable_limit, def->min_length, def->max_length, def->enable_motor, def->motor_speed,
                               def->max_motor_force, def->enable_spring, def->hertz, def->damping_ratio});
    return joint_id_of(world, index);
}

rc_joint_id rc_joint_create_prismatic(rc_world *world, const rc_prismatic_joint_def *def) {
    static const char *func = "rc_joint_create_prismatic";
    joint_common c = {-1, -1, {0.0f, 0.0f}, {0.0f, 0.0f}, false, NULL};
    if (!def_given(world, def, func)) {
        return RC_NULL_JOINT_ID;
    }
    if (!common_ok(world, def->body_a, def->body_b, def->local_anchor_a, def->local_anchor_b, func, &c)) {
        return RC_NULL_JOINT_ID;
    }
    rc_vec2 axis = def->local_axis_a;
    double len = sqrt((double)axis.x * axis.x + (double)axis.y * axis.y);
    if (!rc_vec2_is_finite(axis) || !(len > 0.0) || !(len < INFINITY)) {
        rc_fail(world, func, "def.local_axis_a (%g, %g) must be finite and not zero", (double)axis.x, (double)axis.y);
        return RC_NULL_JOINT_ID;
    }
    if (!rc_joint_range_ok(world, def->lower_translation, def->upper_translation, "translation", func) ||
        !rc_joint_motor_ok(world, def->motor_speed, def->max_motor_force, func) ||
        !rc_joint_spring_ok(world, def->hertz, def->damping_ratio, func) ||
        !reserve_joint(world, !def->collide_connected, func)) {
        return RC_NULL_JOINT_ID;
    }
    c.collide_connected = def->collide_connected;
    c.user_data = def->user_data;
    int32_t index;
    rc_joint *j = add_joint(world, RC_PRISMATIC_JOINT, &c, &index);
    j->local_axis_a = rc_v2((float)(axis.x / len), (float)(axis.y / len));
    j->reference_angle = rc_joint_turn(body_angle(world, c.b), body_angle(world, c.a));
    set_drive(j, (joint_drive){def->enable_limit, def->lower_translation, def->upper_translation, def->enable_motor,
                               def->motor_speed, def->max_motor_force, def->enable_spring, def->hertz,
                               def->damping_ratio});
    return joint_id_of(world, index);
}

rc_joint_id rc_joint_create_weld(rc_world *world, const rc_weld_joint_def *def) {
    static const char *func = "rc_joint_create_weld";
    joint_common c = {-1, -1, {0.0f, 0.0f}, {0.0f, 0.0f}, false, NULL};
    if (!def_given(world, def, func)) {
        return RC_NULL_JOINT_ID;
    }
    if (!common_ok(world, def->body_a, def->body_b, def->local_anchor_a, def->local_anchor_b, func, &c)) {
        return RC_NULL_JOINT_ID;
    }
    if (!rc_is_finite(def->reference_angle)) {
        rc_fail(world, func, "def.reference_angle is not finite");
        return RC_NULL_JOINT_ID;
    }
    if (!rc_joint_spring_ok(world, def->linear_hertz, def->linear_damping_ratio, func) ||
        !rc_joint_spring_ok(world, def->angular_hertz, def->angular_damping_ratio, func) ||
        !reserve_joint(world, !def->collide_connected, func)) {
        return RC_NULL_JOINT_ID;
    }
    c.collide_connected = def->collide_connected;
    c.user_data = def->user_data;
    int32_t index;
    rc_joint *j = add_joint(world, RC_WELD_JOINT, &c, &index);
    j->reference_angle = def->reference_angle;
    j->hertz = def->linear_hertz;
    j->damping_ratio = def->linear_damping_ratio;
    j->angular_hertz = def->angular_hertz;
    j->angular_damping_ratio = def->angular_damping_ratio;
    return joint_id_of(world, index);
}

rc_joint_id rc_joint_create_mouse(rc_world *world, const rc_mouse_joint_def *def) {
    static const char *func = "rc_joint_create_mouse";
    if (!def_given(world, def, func)) {
        return RC_NULL_JOINT_ID;
    }
    const rc_body *body = rc_get_body(world, def->body, func);
    if (body == NULL) {
        return RC_NULL_JOINT_ID;
    }
    if (body->type != RC_DYNAMIC) {
        rc_fail(world, func, "the body must be dynamic");
        return RC_NULL_JOINT_ID;
    }
    if (!rc_vec2_is_finite(def->target) || !rc_in_world(def->target)) {
        rc_fail(world, func, "def.target is NaN, infinite or beyond RC_WORLD_LIMIT");
        return RC_NULL_JOINT_ID;
    }
    if (!rc_is_finite(def->hertz) || !(def->hertz > 0.0f) || !finite_non_negative(def->damping_ratio) ||
        !finite_non_negative(def->max_force)) {
        rc_fail(world, func, "def.hertz %g must be finite and > 0, damping_ratio %g and max_force %g finite and >= 0",
                (double)def->hertz, (double)def->damping_ratio, (double)def->max_force);
        return RC_NULL_JOINT_ID;
    }
    if (!reserve_joint(world, false, func)) {
        return RC_NULL_JOINT_ID;
    }
    joint_common c = {-1, (int32_t)def->body.index - 1, {0.0f, 0.0f}, rc_inv_transform_point(body->xf, def->target),
                      true, def->user_data};
    int32_t index;
    rc_joint *j = add_joint(world, RC_MOUSE_JOINT, &c, &index);
    j->target = def->target;
    j->hertz = def->hertz;
    j->damping_ratio = def->damping_ratio;
    j->max_force = def->max_force;
    return joint_id_of(world, index);
}

/* Remove the joint (its edges, its pair); wakes its bodies. */
static void remove_joint(rc_world *world, int32_t index) {
    rc_joint *j = &world->joints.data[index];
    rc_islands_split(world);
    unlink_edge(world, index, 0);
    unlink_edge(world, index, 1);
    for (int side = 0; side < 2; ++side) {
        if (j->edge[side].body >= 0) {
            rc_body_wake(&world->bodies.data[j->edge[side].body]);
        }
    }
    if (!j->collide_connected && j->edge[0].body >= 0) {
        uint64_t key = rc_body_pair_key(j->edge[0].body, j->edge[1].body);
        int32_t n = rc_map_get(&world->joint_pairs, key);
        if (n > 1) {
            rc_map_set(&world->joint_pairs, key, n - 1);
        } else {
            rc_map_remove(&world->joint_pairs, key);
        }
    }
    j->in_use = false;
    rc_id_pool_give(&world->joint_ids, index);
}

/* The shapes of the body with fewer of them, whose pairs the broadphase reports again once the
 * two may collide. */
static int32_t refind_body(const rc_world *world, const rc_joint *j) {
    int32_t count[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
        const rc_body *b = &world->bodies.data[j->edge[side].body];
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            count[side]++;
        }
    }
    return count[0] <= count[1] ? 0 : 1;
}

void rc_joint_destroy(rc_world *world, rc_joint_id id) {
    static const char *func = "rc_joint_destroy";
    rc_joint *j = rc_joint_for_change(world, id, func);
    if (j == NULL) {
        return;
    }
    int32_t index = (int32_t)id.index - 1;
    /* bodies kept apart by it may collide again: their overlapping shapes must pair anew */
    bool pairs_again = !j->collide_connected && j->edge[0].body >= 0 &&
                       rc_map_get(&world->joint_pairs, rc_body_pair_key(j->edge[0].body, j->edge[1].body)) == 1;
    int32_t body = -1, shapes = 0;
    if (pairs_again) {
        body = j->edge[refind_body(world, j)].body;
        for (int32_t s = world->bodies.data[body].first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            shapes++;
        }
        if (!rc_grid_reserve(rc_grid_for_type(world, world->bodies.data[body].type), 4 * shapes)) {
            rc_fail(world, func, "out of memory");
            return;
        }
    }
    remove_joint(world, index);
    if (body >= 0) {
        for (int32_t s = world->bodies.data[body].first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            if (world->shapes.data[s].proxy >= 0) {
                rc_shape_refind_pairs(world, &world->shapes.data[s]);
            }
        }
    }
}

void rc_body_destroy_joints(rc_world *world, int32_t body) {
    /* the body goes with its shapes and contacts: no pair needs finding again */
    while (world->bodies.data[body].first_joint >= 0) {
        remove_joint(world, world->bodies.data[body].first_joint);
    }
}

bool rc_joints_allow_collision(const rc_world *world, int32_t body_a, int32_t body_b) {
    return world->joint_pairs.count == 0 || rc_map_get(&world->joint_pairs, rc_body_pair_key(body_a, body_b)) < 0;
}

bool rc_joints_relink(rc_world *world) {
    rc_map_clear(&world->joint_pairs);
    /* room for every record marked in use (a restore relinks before it checks the id pool's
       count against them: a forged count of 0 left the map with no slots) */
    if (!rc_map_reserve(&world->allocator, &world->joint_pairs, world->joints.count)) {
        return false;
    }
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        world->bodies.data[i].first_joint = -1;
    }
    for (int32_t i = world->joints.count - 1; i >= 0; --i) {
        rc_joint *j = &world->joints.data[i];
        if (!j->in_use) {
            continue;
        }
        link_edge(world, i, 0);
        link_edge(world, i, 1);
        if (!j->collide_connected && j->edge[0].body >= 0) {
            uint64_t key = rc_body_pair_key(j->edge[0].body, j->edge[1].body);
            int32_t n = rc_map_get(&world->joint_pairs, key);
            rc_map_set(&world->joint_pairs, key, n < 0 ? 1 : n + 1);
        }
    }
    return true;
}
