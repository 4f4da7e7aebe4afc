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
    def.bounces_left = -1;
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
        rc_mass_data md = rc_circle_mass_of((rc_circle){{0.0f, 0.0f}, def->radius}, def->density);
        if (!(md.mass <= RC_MAX_MASS) || !(md.rotational_inertia <= RC_MAX_ROTATIONAL_INERTIA)) {
            return rc_fail(world, func, "the circle's mass or rotational inertia (radius %g, density %g) is beyond "
                                        "RC_MAX_MASS or RC_MAX_ROTATIONAL_INERTIA", (double)def->radius,
                           (double)def->density);
        }
    }
    if (def->steps < 0 || def->max_bounces < 0 || def->bounces_left < -1) {
        return rc_fail(world, func, "def.steps %d and def.max_bounces %d must be >= 0, def.bounces_left %d >= -1",
                       (int)def->steps, (int)def->max_bounces, (int)def->bounces_left);
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
    if (!rc_aabb_is_valid(rc_circle_box(c)) || !rc_box_in_world(rc_circle_box(c))) {
        return rc_fail(world, func, "the body reaches beyond RC_WORLD_LIMIT");
    }
    return true;
}

/* The contacts of the previewed circle, as the world would keep them: with every static and
 * kinematic shape whose box meets its box grown by the margin (the grid's pairs), by shape
 * index (the world's order for a body made after those shapes), each with its manifold at the
 * end of the step and the impulses carried over by feature id. */
#define PREVIEW_CONTACTS (2 * RC_MAX_SUPPORTS)

typedef struct preview_contact {
    int32_t shape;
    rc_vec2 normal; /* from the shape to the circle */
    rc_contact_point points[2];
    int32_t point_count;
    float rolling_impulse;
    bool touching; /* within the margin where the circle rests, as the world's contact */
    bool solved;   /* a constraint of this step's solve (not struck by the sweep, nor cancelled) */
} preview_contact;

typedef struct preview_contacts {
    preview_contact items[PREVIEW_CONTACTS];
    int32_t count;
} preview_contacts;

typedef struct contact_query {
    const rc_world *world;
    const rc_sweeper *sweeper;
    int32_t shapes[PREVIEW_CONTACTS];
    int32_t count;
} contact_query;

static bool contact_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    contact_query *q = context;
    const rc_shape *shape = &q->world->shapes.data[user];
    /* the world's contacts as the solver takes them: solid shapes it pairs with and that
       respond (dynamic ones as if they stayed where they are, as the sweep takes them) */
    if (shape->sensor || shape->body_bullet || shape->body == q->sweeper->self_body ||
        !rc_filters_collide(q->sweeper->filter, shape->filter) ||
        !q->world->bodies.data[shape->body].enable_response) {
        return true;
    }
    if (q->count < PREVIEW_CONTACTS) {
        q->shapes[q->count++] = user;
    } else {
        /* keep the lowest indices */
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

static void sort_indices(int32_t *v, int32_t n) {
    for (int32_t i = 1; i < n; ++i) {
        int32_t x = v[i], j = i - 1;
        for (; j >= 0 && v[j] > x; --j) {
            v[j + 1] = v[j];
        }
        v[j + 1] = x;
    }
}

/* The contacts at the end of a step, where the circle is now. */
static void find_contacts(const rc_world *world, const rc_sweeper *s, preview_contacts *contacts) {
    contact_query q;
    q.world = world;
    q.sweeper = s;
    q.count = 0;
    float m = rc_speculative_margin(world, s->center);
    rc_aabb box = {{s->center.x - s->radius - m, s->center.y - s->radius - m},
                   {s->center.x + s->radius + m, s->center.y + s->radius + m}};
    rc_world_query_grids(world, box, false, contact_fn, &q);
    sort_indices(q.shapes, q.count);
    preview_contacts next;
    next.count = 0;
    rc_hull circle = rc_hull_circle(rc_v2(0.0f, 0.0f), s->radius);
    rc_transform xb = {s->center, rc_rot_from_angle(s->angle)};
    for (int32_t i = 0; i < q.count; ++i) {
        const rc_shape *shape = &world->shapes.data[q.shapes[i]];
        const rc_body *body = &world->bodies.data[shape->body];
        rc_collision m2;
        if (shape->kind == RC_SHAPE_CIRCLE) {
            rc_circle moving = {s->center, s->radius};
            m2 = rc_collide_circle_shapes(shape, body, moving, m); /* as the step meets two circles */
        } else {
            rc_hull ha = rc_shape_hull(world, shape);
            m2 = rc_collide_pair(world, shape, &ha, body->xf, NULL, &circle, xb, m);
        }
        if (m2.count == 0) {
            continue;
        }
        const preview_contact *old = NULL;
        for (int32_t k = 0; k < contacts->count; ++k) {
            old = contacts->items[k].shape == q.shapes[i] ? &contacts->items[k] : old;
        }
        preview_contact *c = &next.items[next.count++];
        c->shape = q.shapes[i];
        c->normal = m2.normal;
        c->point_count = m2.count;
        c->rolling_impulse = old != NULL ? old->rolling_impulse : 0.0f;
        float least = INFINITY;
        for (int32_t k = 0; k < m2.count; ++k) {
            least = rc_minf(least, m2.points[k].separation);
        }
        c->touching = least <= rc_world_margin(world, s->center);
        for (int32_t k = 0; k < m2.count; ++k) {
            rc_contact_point *p = &c->points[k];
            memset(p, 0, sizeof *p);
            p->point = m2.points[k].point;
            p->anchor_a = rc_sub(p->point, body->center);
            p->anchor_b = rc_sub(p->point, s->center);
            p->separation = m2.points[k].separation;
            p->id = m2.points[k].id;
            for (int32_t j = 0; old != NULL && j < old->point_count; ++j) {
                if (old->points[j].id == p->id) {
                    p->normal_impulse = old->points[j].normal_impulse;
                    p->tangent_impulse = old->points[j].tangent_impulse;
                }
            }
        }
    }
    *contacts = next;
}

typedef struct predict_sink {
    const rc_world *world;
    rc_predicted_bounce *bounces;
    int32_t capacity, count, step;
} predict_sink;

static void predict_impact(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach, int32_t bounce,
                           bool spent) {
    predict_sink *k = context;
    if (k->count < k->capacity) {
        rc_predicted_bounce *b = &k->bounces[k->count];
        b->step = k->step;
        b->shape = rc_shape_id_of(k->world, shape);
        b->point = point;
        b->normal = normal;
        b->approach_speed = approach;
        b->bounce = bounce;
        b->spent = spent;
    }
    k->count++;
}

/* The world's soft step for the lone circle and its contacts (the shape's side first, as for a
 * body made after every shape it meets): its velocity and the path it is held to; the bounces
 * the solver makes are reported and the impulses kept for the next step. Returns whether some
 * contact pushed on it (held). */
static bool solve_contacts(const rc_world *world, const rc_prediction_def *def, rc_sweeper *s,
                           const rc_shape *material, preview_contacts *contacts, int32_t rest_shape,
                           predict_sink *sink) {
    float h = rc_sub_step(world, def->dt);
    rc_body_state states[3] = {{s->velocity, s->angular_velocity, 0.0f, {0.0f, 0.0f}, {1.0f, 0.0f}}};
    rc_vec2 kick = rc_gravity_kick(world, def->gravity_scale, h);
    float linear = 1.0f / (1.0f + h * def->linear_damping), angular = 1.0f / (1.0f + h * def->angular_damping);
    rc_contact_constraint constraints[PREVIEW_CONTACTS];
    int32_t solved[PREVIEW_CONTACTS], n = 0; /* the contacts solved, as the world gathers them */
    for (int32_t i = 0; i < contacts->count; ++i) {
        preview_contact *c = &contacts->items[i];
        c->solved = false;
        float gap = rc_contact_least_separation(c->points, c->point_count);
        if (rc_swept_strike(world, s->velocity, c->normal, gap, def->dt)) {
            continue; /* the sweep strikes it */
        }
        solved[n] = i;
        rc_contact_constraint *q = &constraints[n++];
        q->a = -1;
        q->b = 0;
        q->inv_mass_a = 0.0f;
        q->inv_inertia_a = 0.0f;
        q->inv_mass_b = s->inv_mass;
        q->inv_inertia_b = s->inv_inertia;
        rc_constraint_materials(world, q, &world->shapes.data[c->shape], material, &c->points[0]);
        if (s->max_bounces == 0 || s->bounces_left == 0 || world->shapes.data[c->shape].absorbs) {
            q->restitution = 0.0f; /* its bounces are used up, or the shape absorbs it, as the world's gathering says */
        }
        if (!rc_pre_solve_constraint(world, q, c->shape, -1, c->points, c->point_count, c->normal, s)) {
            n--; /* cancelled, as the world's gathering does: its sweep passes through it too */
            if (s->skipped_count < RC_MAX_SKIPPED) {
                s->skipped[s->skipped_count++] = c->shape;
            }
            continue;
        }
        rc_constraint_load(q, c->normal, c->points, c->point_count, c->rolling_impulse);
        c->solved = true;
        q->contact = -1;
        q->touched = false; /* (read by the world's report of bounces only) */
        q->rank = rc_constraint_rank(c->shape, false, -1, true); /* as the world ranks it */
    }
    rc_soft_step step;
    rc_soft_step_setup(world, &step, def->dt);
    uint32_t colors[2];
    int32_t order[PREVIEW_CONTACTS];
    /* four lanes: a preview's contacts all share its body, one to a block (the width changes
       no result) */
    _Alignas(64) rc_solver_line blocks[(size_t)PREVIEW_CONTACTS * RC_SOLVER_BLOCK_BYTES / sizeof(rc_solver_line)];
    uint32_t block_flags[PREVIEW_CONTACTS];
    step.states = states;
    step.state_count = 1;
    step.constraints = constraints;
    step.constraint_count = n;
    float spin_kick = 0.0f;
    step.gravity_kicks = &kick;
    step.spin_kicks = &spin_kick;
    float turn = 0.0f;
    step.turns = &turn;
    step.linear_damping = &linear;
    step.angular_damping = &angular;
    float spin_limit = world->def.max_angular_speed; /* a circle */
    step.spin_limits = &spin_limit;
    step.colors = colors;
    step.order = order;
    step.lanes = RC_SOLVER_LANES;
    step.blocks = blocks;
    step.block_flags = block_flags;
    (void)rc_solver_color(&step); /* one block per contact: all share the one body */
    rc_solve_soft_step(&step);
    rc_body_state state = states[0];
    bool held = false;
    for (int32_t i = 0; i < n; ++i) {
        preview_contact *c = &contacts->items[solved[i]];
        const rc_contact_constraint *q = &constraints[i];
        float approach;
        int32_t bounce_p = rc_constraint_bounce(world->def.restitution_threshold, q, &approach);
        int32_t p = bounce_p >= 0 ? bounce_p
                                  : rc_constraint_first_touch(q, c->touching || c->shape == rest_shape, &approach);
        if (p >= 0) {
            int32_t number = 0;
            bool absorbed = world->shapes.data[c->shape].absorbs;
            bool spent = bounce_p >= 0 && (absorbed || s->max_bounces == 0 || s->bounces_left == 0);
            if (spent) {
                /* stopped dead, as the world's report of the solver's bounces does */
                state.v = rc_v2(0.0f, 0.0f);
                state.w = 0.0f;
                s->bounces_left = absorbed ? 0 : s->bounces_left;
            } else if (bounce_p >= 0) {
                number = rc_count_bounce(&s->bounces_left, &s->bounces_made);
                s->step_bounces++;
            }
            predict_impact(sink, c->shape, c->points[p].point, q->normal, approach, number, spent);
        }
        held = held || rc_constraint_pushed(q);
        for (int32_t j = 0; j < c->point_count; ++j) {
            c->points[j].normal_impulse = q->points[j].normal_impulse;
            c->points[j].tangent_impulse = q->points[j].tangent_impulse;
        }
        c->rolling_impulse = q->rolling_impulse;
    }
    if (held) {
        s->path = state.dp;
        s->turn = turn;
        s->velocity = state.v;
        s->angular_velocity = state.w;
    }
    return held;
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
        rc_mass_data md = rc_circle_mass_of(disk, def->density);
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
    s.bounces_left = def->bounces_left;
    /* dynamic bodies, asleep or awake, are where the step meets them: a grenade meets them in
       the solver, a bullet in its sweep; the preview strikes them in its sweep either way (they
       take no impulse and stay where they are), where it used to fly through them (a thrown
       grenade went 1.7 past a sleeping one that the real throw stopped at) */
    s.sees_dynamic = true;
    s.preview = true;
    s.self_shape = -1;
    s.rest_shape = -1;
    s.kick = rc_gravity_kick(world, def->gravity_scale, def->dt);

    /* the circle's own material, as the solver reads it from a shape */
    rc_shape material;
    memset(&material, 0, sizeof material);
    material.kind = RC_SHAPE_CIRCLE;
    material.circle.radius = def->radius;
    material.swept = true;
    material.restitution = def->restitution;
    material.friction = def->friction;
    material.rolling_resistance = def->rolling_resistance;

    preview_contacts contacts;
    contacts.count = 0;
    predict_sink k = {world, bounces, bounce_capacity, 0, 0};
    int32_t last_hit_shape = -1, last_hit_step = -2;
    for (int32_t step = 0; step < def->steps; ++step) {
        k.step = step;
        int32_t supports[RC_MAX_SUPPORTS];
        s.supports = supports;
        s.support_count = 0;
        int32_t rest_shape = last_hit_step == step - 1 ? last_hit_shape : -1;
        s.step_bounces = 0;
        s.skipped_count = 0; /* the pre-solve's cancellations last a step */
        s.held = contacts.count > 0 && solve_contacts(world, def, &s, &material, &contacts, rest_shape, &k);
        /* the shapes whose constraints held it, as the world's gathering keeps them: not those
           the sweep strikes (a slow touch of such a shape is an impact in the step, and the
           preview did not list it) */
        for (int32_t i = 0; i < contacts.count && s.support_count < RC_MAX_SUPPORTS; ++i) {
            if (contacts.items[i].solved) {
                supports[s.support_count++] = contacts.items[i].shape;
            }
        }
        if (!s.held) {
            /* free: the exact kick of gravity and damping over the step */
            rc_integrate_velocity(world, &s.velocity, &s.angular_velocity, def->gravity_scale, def->linear_damping,
                                  def->angular_damping, rc_v2(0.0f, 0.0f), 0.0f, def->dt);
        }
        s.rest_shape = rest_shape;
        rc_vec2 before = s.center;
        rc_sweep_sink sink = {predict_impact, NULL, &k, -1};
        rc_sweep(world, &s, def->dt, &sink);
        rc_clamp_speed(world, &s.velocity, &s.angular_velocity);
        if (sink.last_shape >= 0) {
            last_hit_shape = sink.last_shape;
            last_hit_step = step;
        }
        rc_hold_in_world(&s.center, &s.velocity); /* as the step holds a body */
        if (!rc_hold_circle_in_world(&s.center, &s.velocity, s.radius)) {
            s.center = before;
            s.velocity = rc_v2(0.0f, 0.0f);
            s.angular_velocity = 0.0f;
        }
        positions[step] = s.center;
        if (s.radius > 0.0f) {
            find_contacts(world, &s, &contacts);
        }
    }
    return k.count;
}
