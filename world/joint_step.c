/* Joints in the step (world/joint.h): waking what a joint ties to an awake body, the step's
 * constraints made from the joints, and their impulses kept once the step cannot fail. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

/* An awake body that can move the joint's other side: a dynamic body, or a kinematic body that
 * moves (a kinematic body never sleeps: one at rest holds what hangs from it as a static body
 * does, and lets it sleep, as island.c lets it). */
static bool moves(const rc_body *b) {
    if (!b->awake) {
        return false;
    }
    if (b->type == RC_KINEMATIC) {
        return b->linear_velocity.x != 0.0f || b->linear_velocity.y != 0.0f || b->angular_velocity != 0.0f;
    }
    return b->type == RC_DYNAMIC;
}

/* Wake the sleeping dynamic body `start` and every sleeping dynamic body jointed to it, and to
 * those, through the bodies' lists of joints (a chain woken at either end wakes whole, in one
 * step); each is noted once in joint_woken, which is also the walk's queue. */
static void wake_jointed(rc_world *world, int32_t start) {
    rc_body *first = &world->bodies.data[start];
    rc_joint_wake w0 = {start, first->sleep_time};
    world->joint_woken.data[world->joint_woken.count++] = w0;
    rc_body_wake(first);
    for (int32_t k = world->joint_woken.count - 1; k < world->joint_woken.count; ++k) {
        int32_t body = world->joint_woken.data[k].body;
        for (int32_t ji = world->bodies.data[body].first_joint; ji >= 0;) {
            const rc_joint *j = &world->joints.data[ji];
            int side = j->edge[0].body == body ? 0 : 1;
            int32_t other = j->edge[1 - side].body;
            rc_body *ob = other >= 0 ? &world->bodies.data[other] : NULL;
            if (ob != NULL && ob->type == RC_DYNAMIC && !ob->awake) {
                rc_joint_wake w = {other, ob->sleep_time};
                world->joint_woken.data[world->joint_woken.count++] = w;
                rc_body_wake(ob);
            }
            ji = j->edge[side].next;
        }
    }
}

void rc_joints_wake(rc_world *world) {
    /* (room: a body is woken once, reached by a joint from an awake one: at most a body a joint) */
    world->joint_woken.count = 0;
    for (int32_t i = 0; i < world->joints.count; ++i) {
        const rc_joint *j = &world->joints.data[i];
        if (!j->in_use || j->edge[0].body < 0) {
            continue;
        }
        const rc_body *a = &world->bodies.data[j->edge[0].body], *b = &world->bodies.data[j->edge[1].body];
        if (moves(a) && b->type == RC_DYNAMIC && !b->awake) {
            wake_jointed(world, j->edge[1].body);
        } else if (moves(b) && a->type == RC_DYNAMIC && !a->awake) {
            wake_jointed(world, j->edge[0].body);
        }
    }
}

void rc_joints_unwake(rc_world *world) {
    if (world->joint_woken.count > 0) {
        rc_islands_split(world);
    }
    for (int32_t k = world->joint_woken.count - 1; k >= 0; --k) {
        rc_body *b = &world->bodies.data[world->joint_woken.data[k].body];
        b->awake = false;
        b->sleep_time = world->joint_woken.data[k].sleep_time;
    }
    world->joint_woken.count = 0;
}

/* A side of a joint as the solver sees it: its slot, whether the joint moves it, its centre,
 * angle and anchor from the centre. */
typedef struct joint_side {
    int32_t slot;
    float m, i;
    rc_vec2 center, anchor;
    float angle;
    rc_rot q;
} joint_side;

static inline __attribute__((always_inline)) joint_side side_of(const rc_world *world, const rc_joint *j, int k) {
    joint_side x = {-1, 0.0f, 0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, {1.0f, 0.0f}};
    int32_t body = j->edge[k].body;
    if (body < 0) {
        x.center = j->target; /* a mouse joint's world side */
        return x;
    }
    const rc_body *b = &world->bodies.data[body];
    x.slot = world->body_slots.data[body];
    if (b->type == RC_DYNAMIC && x.slot >= 0) {
        x.m = b->inv_mass;
        x.i = b->inv_inertia;
    }
    x.center = b->center;
    x.angle = b->angle;
    x.q = b->xf.q;
    x.anchor = rc_rotate(b->xf.q, rc_sub(j->local_anchor[k], b->local_center));
    return x;
}

/* Box2D v3's soft constraint coefficients, in double and at their limits where the float
 * formula overflows: a spring of any stiffness is at most the rigid constraint (the whole error
 * pushed out in one sub-step: a bias rate of 1/h), any damping at least holds still, and a
 * sub-step of no time pushes nothing. */
static rc_softness joint_soft(double hertz, double damping_ratio, const rc_soft_step *step) {
    rc_softness s = {0.0f, 1.0f, 0.0f};
    if (!(hertz > 0.0)) {
        return s;
    }
    double h = step->h, omega = 2.0 * 3.14159265358979323846 * hertz;
    double a1 = 2.0 * damping_ratio + h * omega;
    double a2 = h * omega * a1;
    double a3 = 1.0 / (1.0 + a2);
    double rate = a1 > 0.0 ? omega / a1 : 0.0;
    s.bias_rate = (float)(rate < step->inv_h ? rate : step->inv_h);
    s.mass_scale = (float)(a2 * a3);
    s.impulse_scale = (float)a3;
    return s;
}

typedef struct dvec2 {
    double x, y;
} dvec2;

static dvec2 dvec_of(rc_vec2 v) { return (dvec2){v.x, v.y}; }
static rc_vec2 vec_within(dvec2 v) { return rc_v2(rc_float_within(v.x), rc_float_within(v.y)); }

/* Sizes within which a joint's float solve (joint_solver.c) can neither overflow nor lose
 * precision a game would see: inverse masses and inertias 0 or within [2^-20, 2^20], arms from
 * the centres within 2^16 units and the centres' offset within 2^24, bias rates within 2^20 per
 * second, the angle within 2^16 radians, limits, lengths and speeds within 2^40 (the largest
 * product, ia ib (ra x rb)^2 in the point's determinant, stays below 2^110 even after a step at
 * the world's top speed), and a 2x2 mass that is well conditioned: its condition number is
 * about 1 + (ia |ra|^2 + ib |rb|^2) / (ma + mb), the arms squared over the radii of gyration
 * squared, and a float solve loses that many times its 6e-8 (a rail 10,000 units from a
 * disc's centre: 2e8, nothing left). Up to 2^10 (an arm of 20 gyration radii; a chain link's
 * is 1.7, a door's hinge 2) floats keep 1e-4 of the impulse. The solves take velocities held
 * within the world's top speeds (joint_passes.h), and the carried impulses must be within
 * JOINT_NARROW_MAX_IMPULSE. Any joint beyond is solved in double. */
static bool narrow_mass(float m) { return m == 0.0f || (m >= 0x1p-20f && m <= 0x1p20f); }
static bool within(float x, float limit) { return x >= -limit && x <= limit; }
static bool within2(rc_vec2 v, float limit) { return within(v.x, limit) && within(v.y, limit); }

static bool well_conditioned(const rc_joint_constraint *c) {
    if (c->type == RC_DISTANCE_JOINT) {
        return true; /* one row: no 2x2 solve */
    }
    double m = (double)c->ma + c->mb;
    double ra2 = (double)c->anchor_a.x * c->anchor_a.x + (double)c->anchor_a.y * c->anchor_a.y;
    double rb2 = (double)c->anchor_b.x * c->anchor_b.x + (double)c->anchor_b.y * c->anchor_b.y;
    if (c->type == RC_PRISMATIC_JOINT) {
        /* a's arm reaches b's anchor along the rail: (|ra| + |d|)^2 <= 2 (|ra|^2 + |d|^2) */
        rc_vec2 d = rc_add(c->delta_center, rc_sub(c->anchor_b, c->anchor_a));
        ra2 = 2.0 * (ra2 + (double)d.x * d.x + (double)d.y * d.y);
    }
    return m > 0.0 && c->ia * ra2 + c->ib * rb2 <= 0x1p10 * m;
}

/* The carried impulses a float warm start can apply (JOINT_NARROW_MAX_IMPULSE). */
static bool narrow_impulses(const rc_joint_constraint *c) {
    const float most = JOINT_NARROW_MAX_IMPULSE;
    return within2(c->linear_impulse, most) && within(c->angular_impulse, most) &&
           within(c->spring_impulse, most) && within(c->motor_impulse, most) && within(c->lower_impulse, most) &&
           within(c->upper_impulse, most);
}

static bool float_holds(const rc_joint_constraint *c, const rc_soft_step *step) {
    const float arm = 0x1p16f, span = 0x1p24f, rate = 0x1p20f, size = 0x1p40f;
    return narrow_mass(c->ma) && narrow_mass(c->mb) && narrow_mass(c->ia) && narrow_mass(c->ib) &&
           within2(c->anchor_a, arm) && within2(c->anchor_b, arm) && within2(c->delta_center, span) &&
           step->inv_h <= rate && c->hard.bias_rate <= rate && c->spring.bias_rate <= rate &&
           c->angular.bias_rate <= rate && fabs(c->delta_angle) <= 65536.0 &&
           within(c->lower, size) && within(c->upper, size) && within(c->length, size) &&
           within(c->motor_speed, size) && narrow_impulses(c) && well_conditioned(c);
}

/* A joint's side as the colouring sees it: its solver slot when the joint moves it, else -1. */
static int32_t moved_slot(const rc_world *world, const rc_joint *j, int k) {
    int32_t body = j->edge[k].body;
    if (body < 0) {
        return -1; /* a mouse joint's world side */
    }
    const rc_body *b = &world->bodies.data[body];
    int32_t slot = world->body_slots.data[body];
    return b->type == RC_DYNAMIC && slot >= 0 && (b->inv_mass > 0.0f || b->inv_inertia > 0.0f) ? slot : -1;
}

/* The first colour that neither moved side has yet (the sides take it), or RC_JOINT_COLORS when
 * they have them all. */
static int32_t joint_color(uint32_t *used, int32_t a, int32_t b) {
    int32_t color = rc_first_free_color((a >= 0 ? used[a] : 0u) | (b >= 0 ? used[b] : 0u), 0, RC_JOINT_COLORS);
    if (color == RC_JOINT_COLORS) {
        return color;
    }
    if (a >= 0) {
        used[a] |= 1u << color;
    }
    if (b >= 0) {
        used[b] |= 1u << color;
    }
    return color;
}

/* Each joint's colour in world->joint_colors (-1: not in the step: nothing it could move), in
 * the order of the slots; first[c]: where colour c's constraints start. Returns the count. */
static int32_t color_joints(rc_world *world, const rc_soft_step *step, int32_t first[RC_JOINT_COLORS + 1]) {
    uint32_t *used = step->colors; /* (the contacts' colouring clears it again) */
    /* (a world of no joints clears nothing: most of them) */
    for (int32_t slot = 0; world->joints.count > 0 && slot < step->state_count; ++slot) {
        used[slot] = 0u;
    }
    int32_t count[RC_JOINT_COLORS + 1] = {0};
    for (int32_t i = 0; i < world->joints.count; ++i) {
        const rc_joint *j = &world->joints.data[i];
        int32_t color = -1;
        if (j->in_use) {
            int32_t a = moved_slot(world, j, 0), b = moved_slot(world, j, 1);
            if (a >= 0 || b >= 0) {
                color = joint_color(used, a, b);
                count[color]++;
            }
        }
        world->joint_colors.data[i] = color;
    }
    int32_t n = 0;
    for (int32_t c = 0; c <= RC_JOINT_COLORS; ++c) {
        first[c] = n;
        n += count[c];
    }
    return n;
}

/* Each colour's plain revolute joints first (within a colour the order changes no result), and
 * where the colours and their blocks start. */
static void plain_first(rc_world *world, const int32_t start[RC_JOINT_COLORS + 1]) {
    rc_joint_runs *runs = &world->joint_runs;
    rc_joint_constraint *c = world->joint_constraints.data;
    int32_t blocks = 0;
    for (int32_t k = 0; k < RC_JOINT_COLORS; ++k) {
        int32_t plain = start[k];
        for (int32_t i = start[k]; i < start[k + 1]; ++i) {
            if (world->joint_lanes && rc_joint_is_plain(&c[i])) {
                if (i != plain) {
                    rc_joint_constraint t = c[plain];
                    c[plain] = c[i];
                    c[i] = t;
                }
                plain++;
            }
        }
        runs->start[k] = start[k];
        runs->plain[k] = plain - start[k];
        runs->block_start[k] = blocks;
        blocks += (runs->plain[k] + RC_JOINT_LANES - 1) / RC_JOINT_LANES;
    }
    runs->block_start[RC_JOINT_COLORS] = blocks;
    runs->start[RC_JOINT_COLORS] = start[RC_JOINT_COLORS];
    runs->start[RC_JOINT_COLORS + 1] = world->joint_constraints.count;
}

void rc_joints_prepare(rc_world *world, const rc_soft_step *step) {
    int32_t start[RC_JOINT_COLORS + 1], next[RC_JOINT_COLORS + 1];
    world->joint_constraints.count = color_joints(world, step, start);
    memcpy(next, start, sizeof next);
    double h = step->h;
    rc_softness hard = joint_soft(JOINT_HARD_STIFFNESS * (double)step->contact_hertz, JOINT_HARD_DAMPING, step);
    for (int32_t i = 0; i < world->joints.count; ++i) {
        int32_t color = world->joint_colors.data[i];
        if (color < 0) {
            continue; /* not in use, or nothing it could move this step (asleep, static, detection only) */
        }
        const rc_joint *j = &world->joints.data[i];
        joint_side a = side_of(world, j, 0), b = side_of(world, j, 1);
        /* (every field is set below: no clearing first, which wrote each constraint twice) */
        rc_joint_constraint *c = &world->joint_constraints.data[next[color]++];
        c->index = i;
        c->type = j->type;
        c->enable_limit = j->enable_limit;
        c->enable_motor = j->enable_motor;
        c->enable_spring = j->enable_spring;
        c->spring_on = j->enable_spring && j->hertz > 0.0f;
        c->linear_soft = j->hertz > 0.0f;
        c->angular_soft = j->angular_hertz > 0.0f;
        c->lower = j->lower;
        c->upper = j->upper;
        c->length = j->length;
        c->motor_speed = j->motor_speed;
        c->max_force_impulse = rc_float_within(j->max_force * h);
        c->a = a.slot;
        c->b = b.slot;
        c->moves_a = a.m > 0.0f || a.i > 0.0f;
        c->moves_b = b.m > 0.0f || b.i > 0.0f;
        c->ma = a.m;
        c->ia = a.i;
        c->mb = b.m;
        c->ib = b.i;
        c->anchor_a = a.anchor;
        c->anchor_b = b.anchor;
        c->delta_center = rc_sub(b.center, a.center);
        c->delta_angle = (double)rc_joint_turn(b.angle, a.angle) - j->reference_angle;
        c->axis_a = rc_rotate(a.q, j->local_axis_a);
        float k = c->ia + c->ib;
        c->axial_mass = k > 0.0f ? 1.0f / k : 0.0f;
        c->hard = hard;
        rc_softness rigid = {0.0f, 1.0f, 0.0f};
        c->spring = j->hertz > 0.0f ? joint_soft(j->hertz, j->damping_ratio, step) : rigid;
        c->angular = j->angular_hertz > 0.0f ? joint_soft(j->angular_hertz, j->angular_damping_ratio, step) : rigid;
        if (j->type == RC_WELD_JOINT) {
            c->spring = j->hertz > 0.0f ? c->spring : hard;
            c->angular = j->angular_hertz > 0.0f ? c->angular : hard;
        } else if (j->type == RC_MOUSE_JOINT) {
            c->angular = joint_soft(MOUSE_SPIN_HERTZ, MOUSE_SPIN_DAMPING, step);
        }
        c->max_motor_impulse = rc_float_within(j->max_motor * h);
        c->linear_impulse = j->linear_impulse;
        c->angular_impulse = j->angular_impulse;
        c->spring_impulse = j->spring_impulse;
        c->motor_impulse = j->motor_impulse;
        c->lower_impulse = j->lower_impulse;
        c->upper_impulse = j->upper_impulse;
        c->wide = !float_holds(c, step);
    }
    plain_first(world, start);
}

void rc_joints_mark_held(rc_world *world, uint8_t *held) {
    for (int32_t k = 0; k < world->joint_constraints.count; ++k) {
        const rc_joint_constraint *c = &world->joint_constraints.data[k];
        if (c->a >= 0 && (c->ma > 0.0f || c->ia > 0.0f)) {
            held[c->a] = 1;
        }
        if (c->b >= 0 && (c->mb > 0.0f || c->ib > 0.0f)) {
            held[c->b] = 1;
        }
    }
}

/* The force and torque on b of the last sub-step's impulses (within the float range). */
static void reaction(const rc_world *world, const rc_joint_constraint *c, double inv_h, rc_joint *j) {
    double axial = (double)c->spring_impulse + c->motor_impulse + c->lower_impulse - c->upper_impulse;
    dvec2 force = {inv_h * c->linear_impulse.x, inv_h * c->linear_impulse.y};
    double torque = 0.0;
    switch ((rc_joint_type)j->type) {
    case RC_REVOLUTE_JOINT:
        torque = inv_h * axial;
        break;
    case RC_WELD_JOINT:
    case RC_MOUSE_JOINT:
        torque = inv_h * c->angular_impulse;
        break;
    case RC_DISTANCE_JOINT: {
        const rc_body *a = &world->bodies.data[j->edge[0].body], *b = &world->bodies.data[j->edge[1].body];
        dvec2 d = dvec_of(rc_sub(rc_transform_point(b->xf, j->local_anchor[1]),
                                    rc_transform_point(a->xf, j->local_anchor[0])));
        double len = sqrt(d.x * d.x + d.y * d.y), along = len > 0.0 ? inv_h * (c->linear_impulse.x + axial) / len : 0.0;
        force = (dvec2){along * d.x, along * d.y};
        break;
    }
    case RC_PRISMATIC_JOINT: {
        const rc_body *a = &world->bodies.data[j->edge[0].body];
        rc_vec2 axis = rc_rotate(a->xf.q, j->local_axis_a);
        double along = inv_h * axial, across = inv_h * c->linear_impulse.x;
        force = (dvec2){along * axis.x - across * axis.y, along * axis.y + across * axis.x};
        torque = inv_h * c->linear_impulse.y;
        break;
    }
    }
    j->reaction_force = vec_within(force);
    j->reaction_torque = rc_float_within(torque);
}

void rc_joints_commit(rc_world *world, float h) {
    double inv_h = h > 0.0f ? 1.0 / h : 0.0;
    for (int32_t i = 0; i < world->joints.count; ++i) {
        rc_joint *j = &world->joints.data[i];
        j->reaction_force = rc_v2(0.0f, 0.0f);
        j->reaction_torque = 0.0f;
    }
    for (int32_t k = 0; k < world->joint_constraints.count; ++k) {
        const rc_joint_constraint *c = &world->joint_constraints.data[k];
        rc_joint *j = &world->joints.data[c->index];
        j->linear_impulse = c->linear_impulse;
        j->angular_impulse = c->angular_impulse;
        j->spring_impulse = c->spring_impulse;
        j->motor_impulse = c->motor_impulse;
        j->lower_impulse = c->lower_impulse;
        j->upper_impulse = c->upper_impulse;
        reaction(world, c, inv_h, j);
    }
    world->joint_woken.count = 0;
}
