/* The trajectory preview: a body that would be thrown, stepped with the world's own code for
 * gravity, resting contacts and sweeps, against the shapes where they are now. The preview
 * keeps its resting surfaces the way the world keeps contacts (found within the margin at the
 * end of a step, by shape index, with their impulses carried to the next step), so that a lone
 * body in the world follows its preview exactly. */
#include "world/world_internal.h"

#include <string.h>

rc_prediction_def rc_prediction_default_def(void) {
    rc_prediction_def def;
    memset(&def, 0, sizeof def);
    def.density = 1.0f;
    def.point_mass = 1.0f;
    def.friction = 0.6f;
    def.rolling_resistance = 0.2f;
    def.gravity_scale = 1.0f;
    def.max_bounces = 8;
    def.filter = rc_default_filter();
    def.dt = 1.0f / 60.0f;
    def.steps = 60;
    return def;
}

static bool non_negative(float v) { return rc_is_finite(v) && v >= 0.0f; }

static bool check_def(const rc_world *world, const rc_prediction_def *def, const rc_vec2 *positions,
                      const rc_predicted_bounce *bounces, int32_t bounce_capacity, const char *func) {
    if (def == NULL) {
        return rc_fail(world, func, "def is NULL");
    }
    if (!rc_vec2_is_finite(def->position) || !rc_vec2_is_finite(def->velocity) ||
        !rc_is_finite(def->angular_velocity) || !rc_is_finite(def->gravity_scale)) {
        return rc_fail(world, func, "def has a NaN or infinite position, velocity or gravity scale");
    }
    if (!non_negative(def->radius) || !non_negative(def->density) || !non_negative(def->restitution) ||
        !non_negative(def->friction) || !non_negative(def->rolling_resistance) ||
        !non_negative(def->linear_damping) || !non_negative(def->angular_damping)) {
        return rc_fail(world, func, "radius, density, restitution, friction, rolling resistance and damping must be "
                                    "finite and >= 0");
    }
    if (!rc_point_mass_ok(def->point_mass)) {
        return rc_fail(world, func, "def.point_mass %g must be from FLT_MIN (its inverse a float) to RC_MAX_MASS",
                       (double)def->point_mass);
    }
    if (!rc_is_finite(def->dt) || def->dt <= 0.0f || def->dt > RC_MAX_TIME_STEP) {
        return rc_fail(world, func, "def.dt %g must be finite, > 0 and at most RC_MAX_TIME_STEP", (double)def->dt);
    }
    if (!rc_speed_ok(world, def->velocity, def->angular_velocity)) {
        return rc_fail(world, func, "def's velocity is above the world's max_linear_speed or max_angular_speed");
    }
    if (def->radius > 0.0f) {
        rc_mass_data md = rc_compute_circle_mass((rc_circle){{0.0f, 0.0f}, def->radius}, def->density);
        if (!(md.mass <= RC_MAX_MASS) || !(md.rotational_inertia <= RC_MAX_ROTATIONAL_INERTIA)) {
            return rc_fail(world, func, "the circle's mass or rotational inertia (radius %g, density %g) is beyond "
                                        "RC_MAX_MASS or RC_MAX_ROTATIONAL_INERTIA", (double)def->radius,
                           (double)def->density);
        }
    }
    if (def->steps < 0 || def->max_bounces < 0) {
        return rc_fail(world, func, "def.steps %d and def.max_bounces %d must be >= 0", (int)def->steps,
                       (int)def->max_bounces);
    }
    if (positions == NULL && def->steps > 0) {
        return rc_fail(world, func, "positions is NULL");
    }
    if (bounce_capacity < 0 || (bounces == NULL && bounce_capacity > 0)) {
        return rc_fail(world, func, "bounces is NULL with capacity %d, or the capacity is negative",
                       (int)bounce_capacity);
    }
    if (!rc_body_id_is_null(def->ignore_body) && rc_get_body(world, def->ignore_body, func) == NULL) {
        return false;
    }
    rc_circle c = {def->position, def->radius};
    if (!rc_aabb_is_valid(rc_circle_aabb(c)) || !rc_box_in_world(rc_circle_aabb(c))) {
        return rc_fail(world, func, "the body reaches beyond RC_WORLD_LIMIT");
    }
    return true;
}

/* The surfaces a circle rests on, as the world's contacts would have them. */
typedef struct support_list {
    int32_t shapes[RC_MAX_SUPPORTS];
    float impulses[RC_MAX_SUPPORTS][3];
    int32_t count;
} support_list;

typedef struct support_query {
    const rc_world *world;
    const rc_sweeper *sweeper;
    int32_t shapes[2 * RC_MAX_SUPPORTS];
    int32_t count;
} support_query;

static bool support_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    support_query *q = context;
    const rc_shape *shape = &q->world->shapes.data[user];
    /* the world's contacts: static and kinematic shapes it pairs with */
    if (shape->body_type == RC_DYNAMIC || !rc_sweep_sees(q->sweeper, shape) ||
        !rc_shape_faces(shape, q->sweeper->center)) {
        return true;
    }
    rc_distance_result d;
    if (!rc_shape_distance(q->world, shape, q->sweeper->center, &d) ||
        d.distance - q->sweeper->radius > rc_world_margin(q->world, q->sweeper->center)) {
        return true;
    }
    if (q->count < 2 * RC_MAX_SUPPORTS) {
        q->shapes[q->count++] = user;
    } else {
        /* keep the lowest indices, as the world does */
        int32_t worst = 0;
        for (int32_t i = 1; i < q->count; ++i) {
            worst = q->shapes[i] > q->shapes[worst] ? i : worst;
        }
        if (user < q->shapes[worst]) {
            q->shapes[worst] = user;
        }
    }
    return true;
}

static void find_supports(const rc_world *world, const rc_sweeper *s, const rc_constraint *last, int32_t last_count,
                          support_list *out) {
    support_query q;
    q.world = world;
    q.sweeper = s;
    q.count = 0;
    float m = rc_world_margin(world, s->center);
    rc_aabb box = {{s->center.x - s->radius - m, s->center.y - s->radius - m},
                   {s->center.x + s->radius + m, s->center.y + s->radius + m}};
    rc_grid_query_aabb(world->grid, box, support_fn, &q);
    for (int32_t i = 1; i < q.count; ++i) {
        int32_t v = q.shapes[i], j = i - 1;
        for (; j >= 0 && q.shapes[j] > v; --j) {
            q.shapes[j + 1] = q.shapes[j];
        }
        q.shapes[j + 1] = v;
    }
    out->count = q.count < RC_MAX_SUPPORTS ? q.count : RC_MAX_SUPPORTS;
    for (int32_t i = 0; i < out->count; ++i) {
        out->shapes[i] = q.shapes[i];
        out->impulses[i][0] = out->impulses[i][1] = out->impulses[i][2] = 0.0f;
        for (int32_t k = 0; k < last_count; ++k) {
            if (last[k].shape == q.shapes[i]) {
                out->impulses[i][0] = last[k].normal_impulse;
                out->impulses[i][1] = last[k].tangent_impulse;
                out->impulses[i][2] = last[k].rolling_impulse;
            }
        }
    }
}

typedef struct predict_sink {
    const rc_world *world;
    rc_predicted_bounce *bounces;
    int32_t capacity, count, step;
} predict_sink;

static void predict_impact(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach) {
    predict_sink *k = context;
    if (k->count < k->capacity) {
        rc_predicted_bounce *b = &k->bounces[k->count];
        b->step = k->step;
        b->shape = rc_shape_id_of(k->world, shape);
        b->point = point;
        b->normal = normal;
        b->approach_speed = approach;
    }
    k->count++;
}

int32_t rc_world_predict(const rc_world *world, const rc_prediction_def *def, rc_vec2 *positions,
                         rc_predicted_bounce *bounces, int32_t bounce_capacity) {
    static const char *func = "rc_world_predict";
    if (world == NULL) {
        return -1;
    }
    if (!check_def(world, def, positions, bounces, bounce_capacity, func)) {
        return -1;
    }
    /* the body as the world would make it: a disk's mass, or the point mass */
    float inv_mass = 1.0f / def->point_mass, inv_inertia = 0.0f;
    if (def->radius > 0.0f) {
        rc_circle disk = {{0.0f, 0.0f}, def->radius};
        rc_mass_data md = rc_compute_circle_mass(disk, def->density);
        if (md.mass > 0.0f && rc_is_finite(1.0f / md.mass)) { /* as rc_body_update_mass */
            inv_mass = 1.0f / md.mass;
            inv_inertia = md.rotational_inertia > 0.0f && rc_is_finite(1.0f / md.rotational_inertia)
                              ? 1.0f / md.rotational_inertia
                              : 0.0f;
        }
    }
    rc_sweeper s;
    memset(&s, 0, sizeof s);
    s.center = def->position;
    s.velocity = def->velocity;
    s.angular_velocity = def->angular_velocity;
    s.radius = def->radius;
    s.inv_mass = inv_mass;
    s.inv_inertia = inv_inertia;
    s.restitution = def->restitution;
    s.friction = def->friction;
    s.rolling_resistance = def->rolling_resistance;
    s.filter = def->filter;
    s.self_body = rc_body_id_is_null(def->ignore_body) ? -1 : (int32_t)def->ignore_body.index - 1;
    s.max_bounces = def->max_bounces;
    s.sees_dynamic = def->bullet;
    s.rest_shape = -1;
    s.kick = rc_gravity_kick(world, def->gravity_scale, def->dt);

    /* the circle's own material, as the solver reads it from a shape */
    rc_shape material;
    memset(&material, 0, sizeof material);
    material.restitution = def->restitution;
    material.friction = def->friction;
    material.rolling_resistance = def->rolling_resistance;

    support_list supports = {{0}, {{0}}, 0};
    rc_constraint constraints[RC_MAX_SUPPORTS];
    predict_sink k = {world, bounces, bounce_capacity, 0, 0};
    int32_t last_hit_shape = -1, last_hit_step = -2;
    for (int32_t step = 0; step < def->steps; ++step) {
        rc_integrate_velocity(world, &s.velocity, &s.angular_velocity, def->gravity_scale, def->linear_damping,
                              def->angular_damping, def->dt);
        s.bias = rc_v2(0.0f, 0.0f);
        s.held = supports.count > 0;
        int32_t constraint_count = 0;
        if (supports.count > 0) {
            rc_solver_body body = {s.velocity, s.angular_velocity, {0.0f, 0.0f}, 0.0f, inv_mass, inv_inertia, s.kick,
                                   false};
            for (int32_t i = 0; i < supports.count; ++i) {
                rc_constraint *c = &constraints[constraint_count++];
                rc_constraint_init(world, c, &body, 0, s.center, s.radius, &material, -1, supports.shapes[i], def->dt);
                c->contact = -1;
                c->normal_impulse = supports.impulses[i][0];
                c->tangent_impulse = supports.impulses[i][1];
                c->rolling_impulse = supports.impulses[i][2];
            }
            rc_constraints_solve(world, constraints, constraint_count, &body, def->dt);
            k.step = step;
            for (int32_t i = 0; i < constraint_count; ++i) {
                if (constraints[i].approach > 0.0f) {
                    predict_impact(&k, constraints[i].shape, constraints[i].point, constraints[i].normal,
                                   constraints[i].approach);
                }
            }
            s.velocity = body.v;
            s.angular_velocity = body.w;
            s.bias = body.bias_v;
        }
        s.rest_shape = last_hit_step == step - 1 ? last_hit_shape : -1;
        s.supports = supports.shapes;
        s.support_count = supports.count;
        k.step = step;
        rc_sweep_sink sink = {predict_impact, NULL, &k, -1};
        rc_sweep(world, &s, def->dt, &sink);
        rc_clamp_speed(world, &s.velocity, &s.angular_velocity);
        if (sink.last_shape >= 0) {
            last_hit_shape = sink.last_shape;
            last_hit_step = step;
        }
        rc_hold_in_world(&s.center, &s.velocity); /* as the step holds a body */
        positions[step] = s.center;
        if (s.radius > 0.0f) {
            find_supports(world, &s, constraints, constraint_count, &supports);
        }
    }
    return k.count;
}
