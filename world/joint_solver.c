/* Joints in the soft step (world/joint.h): each joint's constraint is made at the step's start
 * (anchors, the centres' offset, the angle, the softness), warm started and solved before the
 * contacts in each sub-step, one joint after another in the order of their slots (so that the
 * result depends only on the calls that made them). The rigid parts are soft constraints as
 * stiff as the step allows, pushed out only in the solve with bias and relaxed without it, as
 * the contacts are; limits are speculative (a limit not yet reached lets the body come up to it
 * in this sub-step, no further); springs and motors as in Box2D v3. Each side's state is read
 * into a copy and written back only when that side is moved by the joint. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

/* A side the joint moves is its state itself; one it does not (static, kinematic, not in the
 * solver) is a copy, so that nothing is written to it (not even a zero's sign). */
typedef rc_body_state side;

static side *side_of(rc_soft_step *s, int32_t slot, bool moved, side *copy) {
    if (moved) {
        return &s->states[slot];
    }
    static const rc_body_state still = {{0.0f, 0.0f}, 0.0f, 0.0f, {0.0f, 0.0f}, {1.0f, 0.0f}};
    *copy = slot >= 0 ? s->states[slot] : still;
    return copy;
}

static float turn_of(const rc_soft_step *s, int32_t slot) { return slot >= 0 ? s->turns[slot] : 0.0f; }

static rc_vec2 solve22(float a11, float a12, float a22, rc_vec2 b) {
    float det = a11 * a22 - a12 * a12;
    if (det != 0.0f) {
        det = 1.0f / det;
    }
    return rc_v2(det * (a22 * b.x - a12 * b.y), det * (a11 * b.y - a12 * b.x));
}

/* The velocity of b's anchor less a's. */
static rc_vec2 relative_velocity(const side *a, rc_vec2 ra, const side *b, rc_vec2 rb) {
    rc_vec2 va = rc_add(a->v, rc_v2(-a->w * ra.y, a->w * ra.x));
    rc_vec2 vb = rc_add(b->v, rc_v2(-b->w * rb.y, b->w * rb.x));
    return rc_sub(vb, va);
}

static void apply_point(const rc_joint_constraint *c, side *a, rc_vec2 ra, side *b, rc_vec2 rb, rc_vec2 p) {
    a->v = rc_mul_add(a->v, -c->ma, p);
    a->w -= c->ia * rc_cross(ra, p);
    b->v = rc_mul_add(b->v, c->mb, p);
    b->w += c->ib * rc_cross(rb, p);
}

/* The joint's angle now: b's turn relative to a's, less the reference. */
static float angle_now(const rc_soft_step *s, const rc_joint_constraint *c) {
    return c->delta_angle + (turn_of(s, c->b) - turn_of(s, c->a));
}

/* A speculative one-sided constraint on a position error C >= 0 with rate Cdot and effective
 * mass `mass`: the change of its accumulated impulse (kept >= 0). */
static float solve_limit(const rc_soft_step *s, const rc_joint_constraint *c, float C, float cdot, float mass,
                         float *accumulated, bool use_bias) {
    float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
    if (C > 0.0f) {
        bias = C * s->inv_h; /* not there yet: come up to it, no further */
    } else if (use_bias) {
        bias = c->hard.bias_rate * C;
        mass_scale = c->hard.mass_scale;
        impulse_scale = c->hard.impulse_scale;
    }
    float impulse = -mass * mass_scale * (cdot + bias) - impulse_scale * *accumulated;
    float next = rc_maxf(*accumulated + impulse, 0.0f);
    impulse = next - *accumulated;
    *accumulated = next;
    return impulse;
}

/* A motor's change of impulse towards `speed`, its accumulated impulse held within the maximum. */
static float solve_motor(const rc_joint_constraint *c, float cdot, float speed, float mass) {
    float impulse = mass * (speed - cdot);
    float old = c->motor_impulse, max = c->max_motor_impulse;
    float next = old + impulse;
    next = next < -max ? -max : (next > max ? max : next);
    ((rc_joint_constraint *)c)->motor_impulse = next;
    return next - old;
}

/* ---- revolute and weld: a point and an angle --------------------------------------------------- */

/* The point constraint: b's anchor on a's. soft: the softness used with bias. */
static void solve_point(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, rc_softness soft,
                        bool use_bias) {
    (void)s;
    rc_vec2 ra = rc_rotate(a->dq, c->anchor_a), rb = rc_rotate(b->dq, c->anchor_b);
    rc_vec2 cdot = relative_velocity(a, ra, b, rb);
    rc_vec2 bias = {0.0f, 0.0f};
    float mass_scale = 1.0f, impulse_scale = 0.0f;
    if (use_bias) {
        rc_vec2 separation = rc_add(rc_add(rc_sub(b->dp, a->dp), rc_sub(rb, ra)), c->delta_center);
        bias = rc_scale(soft.bias_rate, separation);
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
    }
    float m = c->ma + c->mb;
    float k11 = m + ra.y * ra.y * c->ia + rb.y * rb.y * c->ib;
    float k12 = -ra.y * ra.x * c->ia - rb.y * rb.x * c->ib;
    float k22 = m + ra.x * ra.x * c->ia + rb.x * rb.x * c->ib;
    rc_vec2 x = solve22(k11, k12, k22, rc_add(cdot, bias));
    rc_vec2 impulse = rc_sub(rc_scale(-mass_scale, x), rc_scale(impulse_scale, c->linear_impulse));
    c->linear_impulse = rc_add(c->linear_impulse, impulse);
    apply_point(c, a, ra, b, rb, impulse);
}

static void solve_revolute(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    bool turns = c->ia + c->ib > 0.0f;
    if (turns && c->spring_on) {
        float C = angle_now(s, c);
        float cdot = b->w - a->w;
        float impulse = -c->spring.mass_scale * c->axial_mass * (cdot + c->spring.bias_rate * C) -
                        c->spring.impulse_scale * c->spring_impulse;
        c->spring_impulse += impulse;
        a->w -= c->ia * impulse;
        b->w += c->ib * impulse;
    }
    if (turns && c->enable_motor) {
        float impulse = solve_motor(c, b->w - a->w, c->motor_speed, c->axial_mass);
        a->w -= c->ia * impulse;
        b->w += c->ib * impulse;
    }
    if (turns && c->enable_limit) {
        float angle = angle_now(s, c);
        float lower = solve_limit(s, c, angle - c->lower, b->w - a->w, c->axial_mass, &c->lower_impulse, use_bias);
        a->w -= c->ia * lower;
        b->w += c->ib * lower;
        float upper = solve_limit(s, c, c->upper - angle, a->w - b->w, c->axial_mass, &c->upper_impulse, use_bias);
        a->w += c->ia * upper;
        b->w -= c->ib * upper;
    }
    solve_point(s, c, a, b, c->hard, use_bias);
}

static void solve_weld(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    if (c->ia + c->ib > 0.0f) {
        float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
        if (use_bias || c->angular_soft) {
            bias = c->angular.bias_rate * angle_now(s, c);
            mass_scale = c->angular.mass_scale;
            impulse_scale = c->angular.impulse_scale;
        }
        float cdot = b->w - a->w;
        float impulse = -c->axial_mass * mass_scale * (cdot + bias) - impulse_scale * c->angular_impulse;
        c->angular_impulse += impulse;
        a->w -= c->ia * impulse;
        b->w += c->ib * impulse;
    }
    solve_point(s, c, a, b, c->spring, use_bias || c->linear_soft);
}

/* ---- distance: along the line between the anchors ---------------------------------------------- */

typedef struct line_frame {
    rc_vec2 ra, rb, axis;
    float length, mass; /* the effective mass along the axis */
} line_frame;

static line_frame distance_frame(const rc_joint_constraint *c, const side *a, const side *b) {
    line_frame f;
    f.ra = rc_rotate(a->dq, c->anchor_a);
    f.rb = rc_rotate(b->dq, c->anchor_b);
    rc_vec2 d = rc_add(rc_add(rc_sub(b->dp, a->dp), c->delta_center), rc_sub(f.rb, f.ra));
    f.length = rc_length(d);
    f.axis = f.length > 0.0f ? rc_scale(1.0f / f.length, d) : rc_v2(0.0f, 0.0f);
    float cra = rc_cross(f.ra, f.axis), crb = rc_cross(f.rb, f.axis);
    float k = c->ma + c->mb + c->ia * cra * cra + c->ib * crb * crb;
    f.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return f;
}

static void apply_axial(const rc_joint_constraint *c, side *a, side *b, const line_frame *f, float impulse) {
    apply_point(c, a, f->ra, b, f->rb, rc_scale(impulse, f->axis));
}

static void solve_distance(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    line_frame f = distance_frame(c, a, b);
    if (c->spring_on) {
        float C = f.length - c->length;
        float cdot = rc_dot(f.axis, relative_velocity(a, f.ra, b, f.rb));
        float impulse = -c->spring.mass_scale * f.mass * (cdot + c->spring.bias_rate * C) -
                        c->spring.impulse_scale * c->spring_impulse;
        c->spring_impulse += impulse;
        apply_axial(c, a, b, &f, impulse);
    }
    if (c->enable_motor) {
        float cdot = rc_dot(f.axis, relative_velocity(a, f.ra, b, f.rb));
        apply_axial(c, a, b, &f, solve_motor(c, cdot, c->motor_speed, f.mass));
    }
    if (c->enable_limit) {
        float cdot = rc_dot(f.axis, relative_velocity(a, f.ra, b, f.rb));
        float lower = solve_limit(s, c, f.length - c->lower, cdot, f.mass, &c->lower_impulse, use_bias);
        apply_axial(c, a, b, &f, lower);
        cdot = rc_dot(f.axis, relative_velocity(a, f.ra, b, f.rb));
        float upper = solve_limit(s, c, c->upper - f.length, -cdot, f.mass, &c->upper_impulse, use_bias);
        apply_axial(c, a, b, &f, -upper);
    }
    if (!c->enable_spring) {
        /* a rod: the length held, as stiff as the step allows */
        float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
        if (use_bias) {
            bias = c->hard.bias_rate * (f.length - c->length);
            mass_scale = c->hard.mass_scale;
            impulse_scale = c->hard.impulse_scale;
        }
        float cdot = rc_dot(f.axis, relative_velocity(a, f.ra, b, f.rb));
        float impulse = -mass_scale * f.mass * (cdot + bias) - impulse_scale * c->linear_impulse.x;
        c->linear_impulse.x += impulse;
        apply_axial(c, a, b, &f, impulse);
    }
}

/* ---- prismatic: along an axis of a, without turning -------------------------------------------- */

typedef struct axis_frame {
    rc_vec2 ra, rb, d, axis, perp;
    float a1, a2, s1, s2; /* the arms of the axial and the perpendicular constraint */
    float translation, mass;
} axis_frame;

static axis_frame prismatic_frame(const rc_joint_constraint *c, const side *a, const side *b) {
    axis_frame f;
    f.ra = rc_rotate(a->dq, c->anchor_a);
    f.rb = rc_rotate(b->dq, c->anchor_b);
    f.d = rc_add(rc_add(rc_sub(b->dp, a->dp), c->delta_center), rc_sub(f.rb, f.ra));
    f.axis = rc_rotate(a->dq, c->axis_a);
    f.perp = rc_left_perp(f.axis);
    f.translation = rc_dot(f.axis, f.d);
    rc_vec2 arm = rc_add(f.d, f.ra);
    f.a1 = rc_cross(arm, f.axis);
    f.a2 = rc_cross(f.rb, f.axis);
    f.s1 = rc_cross(arm, f.perp);
    f.s2 = rc_cross(f.rb, f.perp);
    float k = c->ma + c->mb + c->ia * f.a1 * f.a1 + c->ib * f.a2 * f.a2;
    f.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return f;
}

static float axial_rate(const side *a, const side *b, const axis_frame *f) {
    return rc_dot(f->axis, rc_sub(b->v, a->v)) + f->a2 * b->w - f->a1 * a->w;
}

static void apply_prismatic(const rc_joint_constraint *c, side *a, side *b, const axis_frame *f, float axial,
                            float across, float angular) {
    rc_vec2 p = rc_add(rc_scale(axial, f->axis), rc_scale(across, f->perp));
    float la = axial * f->a1 + across * f->s1 + angular;
    float lb = axial * f->a2 + across * f->s2 + angular;
    a->v = rc_mul_add(a->v, -c->ma, p);
    a->w -= c->ia * la;
    b->v = rc_mul_add(b->v, c->mb, p);
    b->w += c->ib * lb;
}

static void solve_prismatic(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    axis_frame f = prismatic_frame(c, a, b);
    if (c->spring_on) {
        float impulse = -c->spring.mass_scale * f.mass * (axial_rate(a, b, &f) + c->spring.bias_rate * f.translation) -
                        c->spring.impulse_scale * c->spring_impulse;
        c->spring_impulse += impulse;
        apply_prismatic(c, a, b, &f, impulse, 0.0f, 0.0f);
    }
    if (c->enable_motor) {
        apply_prismatic(c, a, b, &f, solve_motor(c, axial_rate(a, b, &f), c->motor_speed, f.mass), 0.0f, 0.0f);
    }
    if (c->enable_limit) {
        float lower = solve_limit(s, c, f.translation - c->lower, axial_rate(a, b, &f), f.mass, &c->lower_impulse,
                                  use_bias);
        apply_prismatic(c, a, b, &f, lower, 0.0f, 0.0f);
        float upper = solve_limit(s, c, c->upper - f.translation, -axial_rate(a, b, &f), f.mass, &c->upper_impulse,
                                  use_bias);
        apply_prismatic(c, a, b, &f, -upper, 0.0f, 0.0f);
    }
    /* across the axis and the angle, together */
    rc_vec2 cdot = {rc_dot(f.perp, rc_sub(b->v, a->v)) + f.s2 * b->w - f.s1 * a->w, b->w - a->w};
    rc_vec2 bias = {0.0f, 0.0f};
    float mass_scale = 1.0f, impulse_scale = 0.0f;
    if (use_bias) {
        bias = rc_scale(c->hard.bias_rate, rc_v2(rc_dot(f.perp, f.d), angle_now(s, c)));
        mass_scale = c->hard.mass_scale;
        impulse_scale = c->hard.impulse_scale;
    }
    float k11 = c->ma + c->mb + c->ia * f.s1 * f.s1 + c->ib * f.s2 * f.s2;
    float k12 = c->ia * f.s1 + c->ib * f.s2;
    float k22 = c->ia + c->ib;
    if (k22 == 0.0f) {
        k22 = 1.0f; /* neither turns: the angular row is held by nothing and asks for nothing */
    }
    rc_vec2 x = solve22(k11, k12, k22, rc_add(cdot, bias));
    rc_vec2 impulse = rc_sub(rc_scale(-mass_scale, x), rc_scale(impulse_scale, c->linear_impulse));
    c->linear_impulse = rc_add(c->linear_impulse, impulse);
    apply_prismatic(c, a, b, &f, 0.0f, impulse.x, impulse.y);
}

/* ---- mouse: b's anchor pulled to the target ---------------------------------------------------- */

static void solve_mouse(rc_joint_constraint *c, side *b) {
    /* a little damping of the spin, so that a dragged body does not whirl */
    float impulse = -c->angular.mass_scale * c->axial_mass * b->w - c->angular.impulse_scale * c->angular_impulse;
    c->angular_impulse += impulse;
    b->w += c->ib * impulse;
    rc_vec2 rb = rc_rotate(b->dq, c->anchor_b);
    rc_vec2 cdot = rc_add(b->v, rc_v2(-b->w * rb.y, b->w * rb.x));
    rc_vec2 separation = rc_add(rc_add(b->dp, rb), c->delta_center);
    rc_vec2 bias = rc_scale(c->spring.bias_rate, separation);
    float k11 = c->mb + c->ib * rb.y * rb.y;
    float k12 = -c->ib * rb.x * rb.y;
    float k22 = c->mb + c->ib * rb.x * rb.x;
    rc_vec2 x = solve22(k11, k12, k22, rc_add(cdot, bias));
    rc_vec2 step = rc_sub(rc_scale(-c->spring.mass_scale, x), rc_scale(c->spring.impulse_scale, c->linear_impulse));
    rc_vec2 old = c->linear_impulse;
    rc_vec2 next = rc_add(old, step);
    float max = c->max_force_impulse;
    float len = rc_length(next);
    if (len > max) {
        next = rc_scale(max / len, next);
    }
    c->linear_impulse = next;
    rc_vec2 p = rc_sub(next, old);
    b->v = rc_mul_add(b->v, c->mb, p);
    b->w += c->ib * rc_cross(rb, p);
}

/* ---- the passes --------------------------------------------------------------------------------- */

void rc_joints_warm_start(rc_soft_step *s) {
    for (int32_t k = 0; k < s->joint_count; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        side copy_a, copy_b;
        side *pa = side_of(s, c->a, c->moves_a, &copy_a), *pb = side_of(s, c->b, c->moves_b, &copy_b);
        switch ((rc_joint_type)c->type) {
        case RC_REVOLUTE_JOINT:
        case RC_WELD_JOINT: {
            rc_vec2 ra = rc_rotate(pa->dq, c->anchor_a), rb = rc_rotate(pb->dq, c->anchor_b);
            float axial = c->type == RC_WELD_JOINT ? c->angular_impulse
                                          : c->spring_impulse + c->motor_impulse + c->lower_impulse - c->upper_impulse;
            apply_point(c, pa, ra, pb, rb, c->linear_impulse);
            pa->w -= c->ia * axial;
            pb->w += c->ib * axial;
            break;
        }
        case RC_DISTANCE_JOINT: {
            line_frame f = distance_frame(c, pa, pb);
            apply_axial(c, pa, pb, &f,
                        c->linear_impulse.x + c->spring_impulse + c->motor_impulse + c->lower_impulse - c->upper_impulse);
            break;
        }
        case RC_PRISMATIC_JOINT: {
            axis_frame f = prismatic_frame(c, pa, pb);
            apply_prismatic(c, pa, pb, &f, c->spring_impulse + c->motor_impulse + c->lower_impulse - c->upper_impulse,
                            c->linear_impulse.x, c->linear_impulse.y);
            break;
        }
        case RC_MOUSE_JOINT: {
            rc_vec2 rb = rc_rotate(pb->dq, c->anchor_b);
            pb->v = rc_mul_add(pb->v, c->mb, c->linear_impulse);
            pb->w += c->ib * (rc_cross(rb, c->linear_impulse) + c->angular_impulse);
            break;
        }
        }
    }
}

void rc_joints_solve(rc_soft_step *s, bool use_bias) {
    for (int32_t k = 0; k < s->joint_count; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        side copy_a, copy_b;
        side *pa = side_of(s, c->a, c->moves_a, &copy_a), *pb = side_of(s, c->b, c->moves_b, &copy_b);
        switch ((rc_joint_type)c->type) {
        case RC_REVOLUTE_JOINT:
            solve_revolute(s, c, pa, pb, use_bias);
            break;
        case RC_WELD_JOINT:
            solve_weld(s, c, pa, pb, use_bias);
            break;
        case RC_DISTANCE_JOINT:
            solve_distance(s, c, pa, pb, use_bias);
            break;
        case RC_PRISMATIC_JOINT:
            solve_prismatic(s, c, pa, pb, use_bias);
            break;
        case RC_MOUSE_JOINT:
            solve_mouse(c, pb);
            break;
        }
    }
}
