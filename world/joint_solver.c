/* Joints in the soft step (world/joint.h): each joint's constraint is made at the step's start
 * (anchors, the centres' offset, the angle, the softness), warm started and solved before the
 * contacts in each sub-step, one joint after another in the order of their slots (so that the
 * result depends only on the calls that made them). The rigid parts are soft constraints as
 * stiff as the step allows, pushed out only in the solve with bias and relaxed without it, as
 * the contacts are; limits are speculative (a limit not yet reached lets the body come up to it
 * in this sub-step, no further); springs and motors as in Box2D v3.
 *
 * In double. A joint's numbers span anchors across the world (to 2^60 units from the centre),
 * inverse masses from 1/RC_MAX_MASS to 1/FLT_MIN, frequencies to FLT_MAX: their products
 * overflow a float, and a 2x2 determinant written as k11 k22 - k12^2 loses everything to
 * cancellation once an anchor is a thousand units from its centre. Each solve reads the two
 * sides' velocities into doubles, uses determinants written as sums of terms >= 0, and writes
 * the velocities back held within the world's speed limits (what the next sub-step's
 * integration does anyway), so that whatever a joint is asked stays finite. A side the joint
 * does not move (static, kinematic, not in the solver) is read and never written. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

/* The passes keep both sides of a joint in registers: one function per pass, nothing spilled
 * between the parts of a joint (a side passed by address to a call stays in memory). */
#define INLINE inline __attribute__((always_inline))

typedef rc_dvec2 dvec2;

static dvec2 dv(double x, double y) { return (dvec2){x, y}; }
static dvec2 dv_of(rc_vec2 v) { return (dvec2){v.x, v.y}; }
static dvec2 dadd(dvec2 a, dvec2 b) { return (dvec2){a.x + b.x, a.y + b.y}; }
static dvec2 dsub(dvec2 a, dvec2 b) { return (dvec2){a.x - b.x, a.y - b.y}; }
static dvec2 dscale(double s, dvec2 v) { return (dvec2){s * v.x, s * v.y}; }
static double ddot(dvec2 a, dvec2 b) { return a.x * b.x + a.y * b.y; }
static double dcross(dvec2 a, dvec2 b) { return a.x * b.y - a.y * b.x; }
static dvec2 drotate(rc_rot q, rc_vec2 v) {
    return (dvec2){(double)q.c * v.x - (double)q.s * v.y, (double)q.s * v.x + (double)q.c * v.y};
}

/* One side of a joint as a solve sees it: its motion so far in the step, its velocity, and its
 * solver state when the joint moves it (NULL: read, never written). */
typedef struct side {
    rc_body_state *state;
    float spin_limit;
    rc_rot dq;
    dvec2 dp, v;
    double w;
} side;

static INLINE side load(rc_soft_step *s, int32_t slot, bool moved) {
    side x = {NULL, 0.0f, {1.0f, 0.0f}, {0.0, 0.0}, {0.0, 0.0}, 0.0};
    if (slot < 0) {
        return x; /* a mouse joint's world side */
    }
    const rc_body_state *b = &s->states[slot];
    x.state = moved ? &s->states[slot] : NULL;
    x.spin_limit = s->spin_limits[slot];
    x.dq = b->dq;
    x.dp = dv_of(b->dp);
    x.v = dv_of(b->v);
    x.w = b->w;
    return x;
}

/* Write a moved side's velocity back, within the world's speeds. */
static INLINE void store(const rc_soft_step *s, const side *x) {
    if (x->state == NULL) {
        return;
    }
    double max = s->max_speed, speed2 = ddot(x->v, x->v);
    dvec2 v = speed2 > max * max ? dscale(max / sqrt(speed2), x->v) : x->v;
    double limit = x->spin_limit, w = x->w < -limit ? -limit : (x->w > limit ? limit : x->w);
    x->state->v = rc_v2((float)v.x, (float)v.y);
    x->state->w = (float)w;
}

static INLINE double turn_of(const rc_soft_step *s, int32_t slot) { return slot >= 0 ? s->turns[slot] : 0.0; }

/* The joint's angle now: b's turn relative to a's, less the reference. */
static INLINE double angle_now(const rc_soft_step *s, const rc_joint_constraint *c) {
    return c->delta_angle + (turn_of(s, c->b) - turn_of(s, c->a));
}

/* K^-1 b for the symmetric K = [k11 k12; k12 k22] whose determinant the caller gives (as a sum
 * of terms >= 0); 0 where K is singular. */
static INLINE dvec2 solve22(double k11, double k12, double k22, double det, dvec2 b) {
    if (!(det > 0.0)) {
        return dv(0.0, 0.0);
    }
    double inv = 1.0 / det;
    return dv(inv * (k22 * b.x - k12 * b.y), inv * (k11 * b.y - k12 * b.x));
}

/* The velocity of b's anchor less a's. */
static INLINE dvec2 relative_velocity(const side *a, dvec2 ra, const side *b, dvec2 rb) {
    dvec2 va = dadd(a->v, dv(-a->w * ra.y, a->w * ra.x));
    dvec2 vb = dadd(b->v, dv(-b->w * rb.y, b->w * rb.x));
    return dsub(vb, va);
}

static INLINE void apply_point(const rc_joint_constraint *c, side *a, dvec2 ra, side *b, dvec2 rb, dvec2 p) {
    a->v = dsub(a->v, dscale(c->ma, p));
    a->w -= c->ia * dcross(ra, p);
    b->v = dadd(b->v, dscale(c->mb, p));
    b->w += c->ib * dcross(rb, p);
}

static INLINE void apply_angular(const rc_joint_constraint *c, side *a, side *b, double impulse) {
    a->w -= c->ia * impulse;
    b->w += c->ib * impulse;
}

/* The bias and the mass and impulse scales of a constraint: soft when solved with bias (or
 * always soft: a spring), rigid when relaxed. */
typedef struct soft_terms {
    double bias, mass_scale, impulse_scale;
} soft_terms;

static INLINE soft_terms soft_terms_of(rc_softness soft, double C, bool on) {
    soft_terms t = {0.0, 1.0, 0.0};
    if (on) {
        t.bias = soft.bias_rate * C;
        t.mass_scale = soft.mass_scale;
        t.impulse_scale = soft.impulse_scale;
    }
    return t;
}

/* A speculative one-sided constraint on a position error C >= 0 with rate cdot and effective
 * mass `mass`: the change of its accumulated impulse (kept >= 0). */
static INLINE double solve_limit(const rc_soft_step *s, const rc_joint_constraint *c, double C, double cdot, double mass,
                          double *accumulated, bool use_bias) {
    soft_terms t = {0.0, 1.0, 0.0};
    if (C > 0.0) {
        t.bias = C * s->inv_h; /* not there yet: come up to it, no further */
    } else {
        t = soft_terms_of(c->hard, C, use_bias);
    }
    double impulse = -mass * t.mass_scale * (cdot + t.bias) - t.impulse_scale * *accumulated;
    double next = *accumulated + impulse > 0.0 ? *accumulated + impulse : 0.0;
    impulse = next - *accumulated;
    *accumulated = next;
    return impulse;
}

/* A motor's change of impulse towards `speed`, its accumulated impulse held within the maximum. */
static INLINE double solve_motor(rc_joint_constraint *c, double cdot, double speed, double mass) {
    double old = c->motor_impulse, max = c->max_motor_impulse;
    double next = old + mass * (speed - cdot);
    next = next < -max ? -max : (next > max ? max : next);
    c->motor_impulse = next;
    return next - old;
}

/* A spring's change of impulse on the error C (along a line, or an angle). */
static INLINE double solve_spring(rc_joint_constraint *c, double C, double cdot, double mass) {
    double impulse = -c->spring.mass_scale * mass * (cdot + c->spring.bias_rate * C) -
                     c->spring.impulse_scale * c->spring_impulse;
    c->spring_impulse += impulse;
    return impulse;
}

/* ---- revolute and weld: a point and an angle --------------------------------------------------- */

/* The point constraint: b's anchor on a's, with the softness used with bias. */
static INLINE void solve_point(rc_joint_constraint *c, side *a, side *b, rc_softness soft, bool use_bias) {
    dvec2 ra = drotate(a->dq, c->anchor_a), rb = drotate(b->dq, c->anchor_b);
    dvec2 cdot = relative_velocity(a, ra, b, rb);
    dvec2 separation = dadd(dadd(dsub(b->dp, a->dp), dsub(rb, ra)), dv_of(c->delta_center));
    soft_terms tx = soft_terms_of(soft, separation.x, use_bias), ty = soft_terms_of(soft, separation.y, use_bias);
    double m = (double)c->ma + c->mb, ia = c->ia, ib = c->ib;
    double k11 = m + ra.y * ra.y * ia + rb.y * rb.y * ib;
    double k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    double k22 = m + ra.x * ra.x * ia + rb.x * rb.x * ib;
    double cross = dcross(ra, rb);
    double det = m * m + m * (ia * ddot(ra, ra) + ib * ddot(rb, rb)) + ia * ib * cross * cross;
    dvec2 x = solve22(k11, k12, k22, det, dv(cdot.x + tx.bias, cdot.y + ty.bias));
    dvec2 impulse = dsub(dscale(-tx.mass_scale, x), dscale(tx.impulse_scale, c->linear_impulse));
    c->linear_impulse = dadd(c->linear_impulse, impulse);
    apply_point(c, a, ra, b, rb, impulse);
}

static INLINE void solve_revolute(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    if (c->ia + c->ib > 0.0f) {
        if (c->spring_on) {
            apply_angular(c, a, b, solve_spring(c, angle_now(s, c), b->w - a->w, c->axial_mass));
        }
        if (c->enable_motor) {
            apply_angular(c, a, b, solve_motor(c, b->w - a->w, c->motor_speed, c->axial_mass));
        }
        if (c->enable_limit) {
            double angle = angle_now(s, c);
            apply_angular(c, a, b,
                          solve_limit(s, c, angle - c->lower, b->w - a->w, c->axial_mass, &c->lower_impulse, use_bias));
            apply_angular(c, a, b,
                          -solve_limit(s, c, c->upper - angle, a->w - b->w, c->axial_mass, &c->upper_impulse, use_bias));
        }
    }
    solve_point(c, a, b, c->hard, use_bias);
}

static INLINE void solve_weld(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    if (c->ia + c->ib > 0.0f) {
        soft_terms t = soft_terms_of(c->angular, angle_now(s, c), use_bias || c->angular_soft);
        double impulse = -c->axial_mass * t.mass_scale * (b->w - a->w + t.bias) - t.impulse_scale * c->angular_impulse;
        c->angular_impulse += impulse;
        apply_angular(c, a, b, impulse);
    }
    solve_point(c, a, b, c->spring, use_bias || c->linear_soft);
}

/* ---- distance: along the line between the anchors ---------------------------------------------- */

typedef struct line_frame {
    dvec2 ra, rb, axis;
    double length, mass; /* the effective mass along the axis */
} line_frame;

static INLINE line_frame distance_frame(const rc_joint_constraint *c, const side *a, const side *b) {
    line_frame f;
    f.ra = drotate(a->dq, c->anchor_a);
    f.rb = drotate(b->dq, c->anchor_b);
    dvec2 d = dadd(dadd(dsub(b->dp, a->dp), dv_of(c->delta_center)), dsub(f.rb, f.ra));
    f.length = sqrt(ddot(d, d));
    f.axis = f.length > 0.0 ? dscale(1.0 / f.length, d) : dv(0.0, 0.0);
    double cra = dcross(f.ra, f.axis), crb = dcross(f.rb, f.axis);
    double k = (double)c->ma + c->mb + c->ia * cra * cra + c->ib * crb * crb;
    f.mass = k > 0.0 ? 1.0 / k : 0.0;
    return f;
}

static INLINE double line_rate(const side *a, const side *b, const line_frame *f) {
    return ddot(f->axis, relative_velocity(a, f->ra, b, f->rb));
}

static INLINE void apply_axial(const rc_joint_constraint *c, side *a, side *b, const line_frame *f, double impulse) {
    apply_point(c, a, f->ra, b, f->rb, dscale(impulse, f->axis));
}

static INLINE void solve_distance(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    line_frame f = distance_frame(c, a, b);
    if (c->spring_on) {
        apply_axial(c, a, b, &f, solve_spring(c, f.length - c->length, line_rate(a, b, &f), f.mass));
    }
    if (c->enable_motor) {
        apply_axial(c, a, b, &f, solve_motor(c, line_rate(a, b, &f), c->motor_speed, f.mass));
    }
    if (c->enable_limit) {
        apply_axial(c, a, b, &f,
                    solve_limit(s, c, f.length - c->lower, line_rate(a, b, &f), f.mass, &c->lower_impulse, use_bias));
        apply_axial(c, a, b, &f,
                    -solve_limit(s, c, c->upper - f.length, -line_rate(a, b, &f), f.mass, &c->upper_impulse, use_bias));
    }
    if (!c->enable_spring) {
        /* a rod: the length held, as stiff as the step allows */
        soft_terms t = soft_terms_of(c->hard, f.length - c->length, use_bias);
        double impulse = -t.mass_scale * f.mass * (line_rate(a, b, &f) + t.bias) - t.impulse_scale * c->linear_impulse.x;
        c->linear_impulse.x += impulse;
        apply_axial(c, a, b, &f, impulse);
    }
}

/* ---- prismatic: along an axis of a, without turning -------------------------------------------- */

typedef struct axis_frame {
    dvec2 ra, rb, d, axis, perp;
    double a1, a2, s1, s2; /* the arms of the axial and the perpendicular constraint */
    double translation, mass;
} axis_frame;

static INLINE axis_frame prismatic_frame(const rc_joint_constraint *c, const side *a, const side *b) {
    axis_frame f;
    f.ra = drotate(a->dq, c->anchor_a);
    f.rb = drotate(b->dq, c->anchor_b);
    f.d = dadd(dadd(dsub(b->dp, a->dp), dv_of(c->delta_center)), dsub(f.rb, f.ra));
    f.axis = drotate(a->dq, c->axis_a);
    f.perp = dv(-f.axis.y, f.axis.x);
    f.translation = ddot(f.axis, f.d);
    dvec2 arm = dadd(f.d, f.ra);
    f.a1 = dcross(arm, f.axis);
    f.a2 = dcross(f.rb, f.axis);
    f.s1 = dcross(arm, f.perp);
    f.s2 = dcross(f.rb, f.perp);
    double k = (double)c->ma + c->mb + c->ia * f.a1 * f.a1 + c->ib * f.a2 * f.a2;
    f.mass = k > 0.0 ? 1.0 / k : 0.0;
    return f;
}

static INLINE double axial_rate(const side *a, const side *b, const axis_frame *f) {
    return ddot(f->axis, dsub(b->v, a->v)) + f->a2 * b->w - f->a1 * a->w;
}

static INLINE void apply_prismatic(const rc_joint_constraint *c, side *a, side *b, const axis_frame *f, double axial,
                            double across, double angular) {
    dvec2 p = dadd(dscale(axial, f->axis), dscale(across, f->perp));
    a->v = dsub(a->v, dscale(c->ma, p));
    a->w -= c->ia * (axial * f->a1 + across * f->s1 + angular);
    b->v = dadd(b->v, dscale(c->mb, p));
    b->w += c->ib * (axial * f->a2 + across * f->s2 + angular);
}

static INLINE void solve_prismatic(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    axis_frame f = prismatic_frame(c, a, b);
    if (c->spring_on) {
        apply_prismatic(c, a, b, &f, solve_spring(c, f.translation, axial_rate(a, b, &f), f.mass), 0.0, 0.0);
    }
    if (c->enable_motor) {
        apply_prismatic(c, a, b, &f, solve_motor(c, axial_rate(a, b, &f), c->motor_speed, f.mass), 0.0, 0.0);
    }
    if (c->enable_limit) {
        double lower = solve_limit(s, c, f.translation - c->lower, axial_rate(a, b, &f), f.mass, &c->lower_impulse,
                                   use_bias);
        apply_prismatic(c, a, b, &f, lower, 0.0, 0.0);
        double upper = solve_limit(s, c, c->upper - f.translation, -axial_rate(a, b, &f), f.mass, &c->upper_impulse,
                                   use_bias);
        apply_prismatic(c, a, b, &f, -upper, 0.0, 0.0);
    }
    /* across the axis and the angle, together */
    dvec2 cdot = dv(ddot(f.perp, dsub(b->v, a->v)) + f.s2 * b->w - f.s1 * a->w, b->w - a->w);
    soft_terms across = soft_terms_of(c->hard, ddot(f.perp, f.d), use_bias);
    soft_terms turn = soft_terms_of(c->hard, angle_now(s, c), use_bias);
    double m = (double)c->ma + c->mb, ia = c->ia, ib = c->ib;
    double k11 = m + ia * f.s1 * f.s1 + ib * f.s2 * f.s2, k12 = ia * f.s1 + ib * f.s2, k22 = ia + ib;
    double det = m * k22 + ia * ib * (f.s1 - f.s2) * (f.s1 - f.s2);
    if (k22 == 0.0) {
        k22 = 1.0; /* neither turns: the angular row is held by nothing and asks for nothing */
        det = k11;
    }
    dvec2 x = solve22(k11, k12, k22, det, dv(cdot.x + across.bias, cdot.y + turn.bias));
    dvec2 impulse = dsub(dscale(-across.mass_scale, x), dscale(across.impulse_scale, c->linear_impulse));
    c->linear_impulse = dadd(c->linear_impulse, impulse);
    apply_prismatic(c, a, b, &f, 0.0, impulse.x, impulse.y);
}

/* ---- mouse: b's anchor pulled to the target ---------------------------------------------------- */

static INLINE void solve_mouse(rc_joint_constraint *c, side *b) {
    /* a little damping of the spin, so that a dragged body does not whirl */
    double spin = -c->angular.mass_scale * c->axial_mass * b->w - c->angular.impulse_scale * c->angular_impulse;
    c->angular_impulse += spin;
    b->w += c->ib * spin;
    dvec2 rb = drotate(b->dq, c->anchor_b);
    dvec2 cdot = dadd(b->v, dv(-b->w * rb.y, b->w * rb.x));
    dvec2 separation = dadd(dadd(b->dp, rb), dv_of(c->delta_center));
    double mb = c->mb, ib = c->ib;
    double k11 = mb + ib * rb.y * rb.y, k12 = -ib * rb.x * rb.y, k22 = mb + ib * rb.x * rb.x;
    double det = mb * mb + mb * ib * ddot(rb, rb);
    dvec2 x = solve22(k11, k12, k22, det, dadd(cdot, dscale(c->spring.bias_rate, separation)));
    dvec2 old = c->linear_impulse;
    dvec2 next = dsub(dadd(old, dscale(-c->spring.mass_scale, x)), dscale(c->spring.impulse_scale, old));
    double len = sqrt(ddot(next, next)), max = c->max_force_impulse;
    if (len > max) {
        next = dscale(max / len, next);
    }
    c->linear_impulse = next;
    dvec2 p = dsub(next, old);
    b->v = dadd(b->v, dscale(mb, p));
    b->w += ib * dcross(rb, p);
}

/* ---- the passes --------------------------------------------------------------------------------- */

static INLINE void warm_start(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b) {
    double axial = c->spring_impulse + c->motor_impulse + c->lower_impulse - c->upper_impulse;
    switch ((rc_joint_type)c->type) {
    case RC_REVOLUTE_JOINT:
    case RC_WELD_JOINT:
        apply_point(c, a, drotate(a->dq, c->anchor_a), b, drotate(b->dq, c->anchor_b), c->linear_impulse);
        apply_angular(c, a, b, c->type == RC_WELD_JOINT ? c->angular_impulse : axial);
        break;
    case RC_DISTANCE_JOINT: {
        line_frame f = distance_frame(c, a, b);
        apply_axial(c, a, b, &f, c->linear_impulse.x + axial);
        break;
    }
    case RC_PRISMATIC_JOINT: {
        axis_frame f = prismatic_frame(c, a, b);
        apply_prismatic(c, a, b, &f, axial, c->linear_impulse.x, c->linear_impulse.y);
        break;
    }
    case RC_MOUSE_JOINT: {
        dvec2 rb = drotate(b->dq, c->anchor_b);
        b->v = dadd(b->v, dscale(c->mb, c->linear_impulse));
        b->w += c->ib * (dcross(rb, c->linear_impulse) + c->angular_impulse);
        break;
    }
    }
    (void)s;
}

static INLINE void solve(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    switch ((rc_joint_type)c->type) {
    case RC_REVOLUTE_JOINT:
        solve_revolute(s, c, a, b, use_bias);
        break;
    case RC_WELD_JOINT:
        solve_weld(s, c, a, b, use_bias);
        break;
    case RC_DISTANCE_JOINT:
        solve_distance(s, c, a, b, use_bias);
        break;
    case RC_PRISMATIC_JOINT:
        solve_prismatic(s, c, a, b, use_bias);
        break;
    case RC_MOUSE_JOINT:
        solve_mouse(c, b);
        break;
    }
}

void rc_joints_warm_start(rc_soft_step *s) {
    for (int32_t k = 0; k < s->joint_count; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        side a = load(s, c->a, c->moves_a), b = load(s, c->b, c->moves_b);
        warm_start(s, c, &a, &b);
        store(s, &a);
        store(s, &b);
    }
}

void rc_joints_solve(rc_soft_step *s, bool use_bias) {
    for (int32_t k = 0; k < s->joint_count; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        side a = load(s, c->a, c->moves_a), b = load(s, c->b, c->moves_b);
        solve(s, c, &a, &b, use_bias);
        store(s, &a);
        store(s, &b);
    }
}
