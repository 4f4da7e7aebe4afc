/* world/joint_passes.h: one joint's warm start and solve (joint_solver.c says how), in the
 * arithmetic of the file that includes it: joint_solver.c (float: the passes' own, static) and
 * joint_solver_wide.c (RC_JOINT_WIDE, double: rc_joint_warm_start_wide, rc_joint_solve_wide).
 * Included once by each, never elsewhere: no include guard. */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

/* The wide passes keep both sides of a joint in registers: one function per pass, nothing
 * spilled between the parts of a joint (a side passed by address to a call stays in memory:
 * 8% of the joint grid's step in double; the float passes gain nothing from it). */
#ifdef RC_JOINT_WIDE
#define INLINE inline __attribute__((always_inline))
#else
#define INLINE inline
#endif

/* The arithmetic of the including file: float, or double in the wide one. */
#ifdef RC_JOINT_WIDE
typedef double real;
#define real_sqrt sqrt
#define JOINT_PASS(name) name##_wide
#define JOINT_PASS_LINKAGE /* called from the float build's passes */
#else
typedef float real;
#define real_sqrt sqrtf
#define JOINT_PASS(name) name##_narrow
#define JOINT_PASS_LINKAGE static inline __attribute__((always_inline)) /* into the passes' loops */
#endif

typedef struct rvec2 {
    real x, y;
} rvec2;

static rvec2 rv(real x, real y) { return (rvec2){x, y}; }
static rvec2 rv_of(rc_vec2 v) { return (rvec2){v.x, v.y}; }
static rvec2 radd(rvec2 a, rvec2 b) { return (rvec2){a.x + b.x, a.y + b.y}; }
static rvec2 rsub(rvec2 a, rvec2 b) { return (rvec2){a.x - b.x, a.y - b.y}; }
static rvec2 rscale(real s, rvec2 v) { return (rvec2){s * v.x, s * v.y}; }
static real rdot(rvec2 a, rvec2 b) { return a.x * b.x + a.y * b.y; }
static real rcross(rvec2 a, rvec2 b) { return a.x * b.y - a.y * b.x; }
static rvec2 rrotate(rc_rot q, rc_vec2 v) {
    return (rvec2){(real)q.c * v.x - (real)q.s * v.y, (real)q.s * v.x + (real)q.c * v.y};
}
/* x within [-most, most], as two selects a compiler makes min and max (NaN stays NaN) */
static INLINE real held_within(real x, real most) {
    x = most < x ? most : x;
    return x < -most ? -most : x;
}

/* The accumulated impulses are floats in either build, held within JOINT_MAX_IMPULSE (the float
 * passes: JOINT_NARROW_MAX_IMPULSE): two constraints that fight for ever (a rigid weld pulling a
 * body into a wall that pushes it out) grow theirs every sub-step, and a warm start of a float's
 * largest impulse overflows. */
static rvec2 acc_of(rc_vec2 v) { return (rvec2){v.x, v.y}; }
static float acc_put(real x) {
#ifdef RC_JOINT_WIDE
    const real most = JOINT_MAX_IMPULSE;
#else
    const real most = JOINT_NARROW_MAX_IMPULSE;
#endif
    return (float)held_within(x, most);
}
static rc_vec2 acc_vec(rvec2 v) { return rc_v2(acc_put(v.x), acc_put(v.y)); }

/* One side of a joint as a solve sees it: its motion so far in the step, its velocity, and its
 * solver state when the joint moves it (NULL: read, never written). */
typedef struct side {
    rc_body_state *state;
    float spin_limit;
    rc_rot dq;
    rvec2 dp, v;
    real w;
} side;

static INLINE side load(rc_soft_step *s, int32_t slot, bool moved) {
    side x = {NULL, 0.0f, {1.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
    if (slot < 0) {
        return x; /* a mouse joint's world side */
    }
    const rc_body_state *b = &s->states[slot];
    x.state = moved ? &s->states[slot] : NULL;
    x.spin_limit = s->spin_limits[slot];
    x.dq = b->dq;
    x.dp = rv_of(b->dp);
    x.v = rv_of(b->v);
    x.w = b->w;
    return x;
}

/* A side's velocity as a float solve takes it: each axis within the world's top speed, the spin
 * within its top spin. The passes may push a body far past them within a sub-step (the next
 * integration holds it back), and a float solve's products of such velocities overflow (a rail
 * at the world's top speeds: 1e28 units/s, then NaN); float_holds sizes a joint for velocities
 * within them. (The warm start only adds impulses: it makes no products of velocities.) */
static INLINE void held_speeds(const rc_soft_step *s, side *x) {
    real max = s->max_speed, spin = s->max_spin;
    x->v = rv(held_within(x->v.x, max), held_within(x->v.y, max));
    x->w = held_within(x->w, spin);
}

/* Write a moved side's velocity back (wide: within the world's speeds). */
static INLINE void store(const rc_soft_step *s, const side *x) {
    if (x->state == NULL) {
        return;
    }
#ifdef RC_JOINT_WIDE
    real max = s->max_speed, speed2 = rdot(x->v, x->v);
    rvec2 v = speed2 > max * max ? rscale(max / real_sqrt(speed2), x->v) : x->v;
    x->state->v = rc_v2((float)v.x, (float)v.y);
    x->state->w = (float)held_within(x->w, x->spin_limit);
#else
    (void)s;
    x->state->v = rc_v2(x->v.x, x->v.y);
    x->state->w = x->w;
#endif
}

static INLINE real turn_of(const rc_soft_step *s, int32_t slot) { return slot >= 0 ? s->turns[slot] : 0.0f; }

/* The joint's angle now: b's turn relative to a's, less the reference. */
static INLINE real angle_now(const rc_soft_step *s, const rc_joint_constraint *c) {
    return (real)c->delta_angle + (turn_of(s, c->b) - turn_of(s, c->a));
}

/* K^-1 b for the symmetric K = [k11 k12; k12 k22] whose determinant the caller gives (as a sum
 * of terms >= 0); 0 where K is singular. */
static INLINE rvec2 solve22(real k11, real k12, real k22, real det, rvec2 b) {
    if (!(det > 0.0f)) {
        return rv(0.0f, 0.0f);
    }
    real inv = 1.0f / det;
    return rv(inv * (k22 * b.x - k12 * b.y), inv * (k11 * b.y - k12 * b.x));
}

/* The velocity of b's anchor less a's. */
static INLINE rvec2 relative_velocity(const side *a, rvec2 ra, const side *b, rvec2 rb) {
    rvec2 va = radd(a->v, rv(-a->w * ra.y, a->w * ra.x));
    rvec2 vb = radd(b->v, rv(-b->w * rb.y, b->w * rb.x));
    return rsub(vb, va);
}

static INLINE void apply_point(const rc_joint_constraint *c, side *a, rvec2 ra, side *b, rvec2 rb, rvec2 p) {
    a->v = rsub(a->v, rscale(c->ma, p));
    a->w -= c->ia * rcross(ra, p);
    b->v = radd(b->v, rscale(c->mb, p));
    b->w += c->ib * rcross(rb, p);
}

static INLINE void apply_angular(const rc_joint_constraint *c, side *a, side *b, real impulse) {
    a->w -= c->ia * impulse;
    b->w += c->ib * impulse;
}

/* The bias and the mass and impulse scales of a constraint: soft when solved with bias (or
 * always soft: a spring), rigid when relaxed. */
typedef struct soft_terms {
    real bias, mass_scale, impulse_scale;
} soft_terms;

static INLINE soft_terms soft_terms_of(rc_softness soft, real C, bool on) {
    soft_terms t = {0.0f, 1.0f, 0.0f};
    if (on) {
        t.bias = soft.bias_rate * C;
        t.mass_scale = soft.mass_scale;
        t.impulse_scale = soft.impulse_scale;
    }
    return t;
}

/* A speculative one-sided constraint on a position error C >= 0 with rate cdot and effective
 * mass `mass`: the change of its accumulated impulse (kept >= 0). */
static INLINE real solve_limit(const rc_soft_step *s, const rc_joint_constraint *c, real C, real cdot, real mass,
                          float *accumulated, bool use_bias) {
    soft_terms t = {0.0f, 1.0f, 0.0f};
    if (C > 0.0f) {
        t.bias = C * s->inv_h; /* not there yet: come up to it, no further */
    } else {
        t = soft_terms_of(c->hard, C, use_bias);
    }
    real old = *accumulated;
    real impulse = -mass * t.mass_scale * (cdot + t.bias) - t.impulse_scale * old;
    real next = old + impulse > 0.0f ? old + impulse : 0.0f;
    *accumulated = acc_put(next);
    return next - old;
}

/* A motor's change of impulse towards `speed`, its accumulated impulse held within the maximum. */
static INLINE real solve_motor(rc_joint_constraint *c, real cdot, real speed, real mass) {
    real old = c->motor_impulse, max = c->max_motor_impulse;
    real next = old + mass * (speed - cdot);
    next = next < -max ? -max : (next > max ? max : next);
    c->motor_impulse = acc_put(next);
    return next - old;
}

/* A spring's change of impulse on the error C (along a line, or an angle). */
static INLINE real solve_spring(rc_joint_constraint *c, real C, real cdot, real mass) {
    real impulse = -c->spring.mass_scale * mass * (cdot + c->spring.bias_rate * C) -
                     c->spring.impulse_scale * c->spring_impulse;
    c->spring_impulse = acc_put(c->spring_impulse + impulse);
    return impulse;
}

/* ---- revolute and weld: a point and an angle --------------------------------------------------- */

/* The point constraint: b's anchor on a's, with the softness used with bias. */
static INLINE void solve_point(rc_joint_constraint *c, side *a, side *b, rc_softness soft, bool use_bias) {
    rvec2 ra = rrotate(a->dq, c->anchor_a), rb = rrotate(b->dq, c->anchor_b);
    rvec2 cdot = relative_velocity(a, ra, b, rb);
    /* the separation only where it is pushed out (the relax pass asks nothing of it) */
    rvec2 bias = rv(0.0f, 0.0f);
    real mass_scale = 1.0f, impulse_scale = 0.0f;
    if (use_bias) {
        rvec2 separation = radd(radd(rsub(b->dp, a->dp), rsub(rb, ra)), rv_of(c->delta_center));
        bias = rscale(soft.bias_rate, separation);
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
    }
    real m = (real)c->ma + c->mb, ia = c->ia, ib = c->ib;
    real k11 = m + ra.y * ra.y * ia + rb.y * rb.y * ib;
    real k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    real k22 = m + ra.x * ra.x * ia + rb.x * rb.x * ib;
    real cross = rcross(ra, rb);
    real det = m * m + m * (ia * rdot(ra, ra) + ib * rdot(rb, rb)) + ia * ib * cross * cross;
    rvec2 x = solve22(k11, k12, k22, det, radd(cdot, bias));
    rvec2 impulse = rsub(rscale(-mass_scale, x), rscale(impulse_scale, acc_of(c->linear_impulse)));
    c->linear_impulse = acc_vec(radd(acc_of(c->linear_impulse), impulse));
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
            real angle = angle_now(s, c);
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
        real impulse = -c->axial_mass * t.mass_scale * (b->w - a->w + t.bias) - t.impulse_scale * c->angular_impulse;
        c->angular_impulse = acc_put(c->angular_impulse + impulse);
        apply_angular(c, a, b, impulse);
    }
    solve_point(c, a, b, c->spring, use_bias || c->linear_soft);
}

/* ---- distance: along the line between the anchors ---------------------------------------------- */

typedef struct line_frame {
    rvec2 ra, rb, axis;
    real length, mass; /* the effective mass along the axis */
} line_frame;

static INLINE line_frame distance_frame(const rc_joint_constraint *c, const side *a, const side *b) {
    line_frame f;
    f.ra = rrotate(a->dq, c->anchor_a);
    f.rb = rrotate(b->dq, c->anchor_b);
    rvec2 d = radd(radd(rsub(b->dp, a->dp), rv_of(c->delta_center)), rsub(f.rb, f.ra));
    f.length = real_sqrt(rdot(d, d));
    f.axis = f.length > 0.0f ? rscale(1.0f / f.length, d) : rv(0.0f, 0.0f);
    real cra = rcross(f.ra, f.axis), crb = rcross(f.rb, f.axis);
    real k = (real)c->ma + c->mb + c->ia * cra * cra + c->ib * crb * crb;
    f.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return f;
}

static INLINE real line_rate(const side *a, const side *b, const line_frame *f) {
    return rdot(f->axis, relative_velocity(a, f->ra, b, f->rb));
}

static INLINE void apply_axial(const rc_joint_constraint *c, side *a, side *b, const line_frame *f, real impulse) {
    apply_point(c, a, f->ra, b, f->rb, rscale(impulse, f->axis));
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
        real impulse = -t.mass_scale * f.mass * (line_rate(a, b, &f) + t.bias) - t.impulse_scale * c->linear_impulse.x;
        c->linear_impulse.x = acc_put(c->linear_impulse.x + impulse);
        apply_axial(c, a, b, &f, impulse);
    }
}

/* ---- prismatic: along an axis of a, without turning -------------------------------------------- */

typedef struct axis_frame {
    rvec2 ra, rb, d, axis, perp;
    real a1, a2, s1, s2; /* the arms of the axial and the perpendicular constraint */
    real translation, mass;
} axis_frame;

static INLINE axis_frame prismatic_frame(const rc_joint_constraint *c, const side *a, const side *b) {
    axis_frame f;
    f.ra = rrotate(a->dq, c->anchor_a);
    f.rb = rrotate(b->dq, c->anchor_b);
    f.d = radd(radd(rsub(b->dp, a->dp), rv_of(c->delta_center)), rsub(f.rb, f.ra));
    f.axis = rrotate(a->dq, c->axis_a);
    f.perp = rv(-f.axis.y, f.axis.x);
    f.translation = rdot(f.axis, f.d);
    rvec2 arm = radd(f.d, f.ra);
    f.a1 = rcross(arm, f.axis);
    f.a2 = rcross(f.rb, f.axis);
    f.s1 = rcross(arm, f.perp);
    f.s2 = rcross(f.rb, f.perp);
    real k = (real)c->ma + c->mb + c->ia * f.a1 * f.a1 + c->ib * f.a2 * f.a2;
    f.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return f;
}

static INLINE real axial_rate(const side *a, const side *b, const axis_frame *f) {
    return rdot(f->axis, rsub(b->v, a->v)) + f->a2 * b->w - f->a1 * a->w;
}

static INLINE void apply_prismatic(const rc_joint_constraint *c, side *a, side *b, const axis_frame *f, real axial,
                            real across, real angular) {
    rvec2 p = radd(rscale(axial, f->axis), rscale(across, f->perp));
    a->v = rsub(a->v, rscale(c->ma, p));
    a->w -= c->ia * (axial * f->a1 + across * f->s1 + angular);
    b->v = radd(b->v, rscale(c->mb, p));
    b->w += c->ib * (axial * f->a2 + across * f->s2 + angular);
}

static INLINE void solve_prismatic(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b, bool use_bias) {
    axis_frame f = prismatic_frame(c, a, b);
    if (c->spring_on) {
        apply_prismatic(c, a, b, &f, solve_spring(c, f.translation, axial_rate(a, b, &f), f.mass), 0.0f, 0.0f);
    }
    if (c->enable_motor) {
        apply_prismatic(c, a, b, &f, solve_motor(c, axial_rate(a, b, &f), c->motor_speed, f.mass), 0.0f, 0.0f);
    }
    if (c->enable_limit) {
        real lower = solve_limit(s, c, f.translation - c->lower, axial_rate(a, b, &f), f.mass, &c->lower_impulse,
                                   use_bias);
        apply_prismatic(c, a, b, &f, lower, 0.0f, 0.0f);
        real upper = solve_limit(s, c, c->upper - f.translation, -axial_rate(a, b, &f), f.mass, &c->upper_impulse,
                                   use_bias);
        apply_prismatic(c, a, b, &f, -upper, 0.0f, 0.0f);
    }
    /* across the axis and the angle, together */
    rvec2 cdot = rv(rdot(f.perp, rsub(b->v, a->v)) + f.s2 * b->w - f.s1 * a->w, b->w - a->w);
    soft_terms across = soft_terms_of(c->hard, rdot(f.perp, f.d), use_bias);
    soft_terms turn = soft_terms_of(c->hard, angle_now(s, c), use_bias);
    real m = (real)c->ma + c->mb, ia = c->ia, ib = c->ib;
    real k11 = m + ia * f.s1 * f.s1 + ib * f.s2 * f.s2, k12 = ia * f.s1 + ib * f.s2, k22 = ia + ib;
    real det = m * k22 + ia * ib * (f.s1 - f.s2) * (f.s1 - f.s2);
    rvec2 rhs = rv(cdot.x + across.bias, cdot.y + turn.bias);
    if (k22 == 0.0f) {
        /* neither side can be turned (no inertia; a shapeless body may still spin): the angular
           row is held by nothing and asks for nothing. Asking for the spin anyway wound its
           impulse up by the spin every pass, with no effect, until the body got an inertia and
           the warm start flung it (a fuzz case: 1e26 after a few seconds, then NaN) */
        k22 = 1.0f;
        det = k11;
        rhs.y = 0.0f;
    }
    rvec2 x = solve22(k11, k12, k22, det, rhs);
    rvec2 impulse = rsub(rscale(-across.mass_scale, x), rscale(across.impulse_scale, acc_of(c->linear_impulse)));
    c->linear_impulse = acc_vec(radd(acc_of(c->linear_impulse), impulse));
    apply_prismatic(c, a, b, &f, 0.0f, impulse.x, impulse.y);
}

/* ---- mouse: b's anchor pulled to the target ---------------------------------------------------- */

static INLINE void solve_mouse(rc_joint_constraint *c, side *b) {
    /* a little damping of the spin, so that a dragged body does not whirl */
    real spin = -c->angular.mass_scale * c->axial_mass * b->w - c->angular.impulse_scale * c->angular_impulse;
    c->angular_impulse = acc_put(c->angular_impulse + spin);
    b->w += c->ib * spin;
    rvec2 rb = rrotate(b->dq, c->anchor_b);
    rvec2 cdot = radd(b->v, rv(-b->w * rb.y, b->w * rb.x));
    rvec2 separation = radd(radd(b->dp, rb), rv_of(c->delta_center));
    real mb = c->mb, ib = c->ib;
    real k11 = mb + ib * rb.y * rb.y, k12 = -ib * rb.x * rb.y, k22 = mb + ib * rb.x * rb.x;
    real det = mb * mb + mb * ib * rdot(rb, rb);
    rvec2 x = solve22(k11, k12, k22, det, radd(cdot, rscale(c->spring.bias_rate, separation)));
    rvec2 old = acc_of(c->linear_impulse);
    rvec2 next = rsub(radd(old, rscale(-c->spring.mass_scale, x)), rscale(c->spring.impulse_scale, old));
    real len = real_sqrt(rdot(next, next)), max = c->max_force_impulse;
    if (len > max) {
        next = rscale(max / len, next);
    }
    c->linear_impulse = acc_vec(next);
    rvec2 p = rsub(next, old);
    b->v = radd(b->v, rscale(mb, p));
    b->w += ib * rcross(rb, p);
}

/* ---- the passes --------------------------------------------------------------------------------- */

static INLINE void warm_start(const rc_soft_step *s, rc_joint_constraint *c, side *a, side *b) {
    real axial = (real)c->spring_impulse + c->motor_impulse + c->lower_impulse - c->upper_impulse;
    switch ((rc_joint_type)c->type) {
    case RC_REVOLUTE_JOINT:
    case RC_WELD_JOINT:
        apply_point(c, a, rrotate(a->dq, c->anchor_a), b, rrotate(b->dq, c->anchor_b), acc_of(c->linear_impulse));
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
        rvec2 rb = rrotate(b->dq, c->anchor_b);
        b->v = radd(b->v, rscale(c->mb, acc_of(c->linear_impulse)));
        b->w += c->ib * (rcross(rb, acc_of(c->linear_impulse)) + c->angular_impulse);
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

/* One joint's passes, in this build's arithmetic. */
JOINT_PASS_LINKAGE void JOINT_PASS(rc_joint_warm_start)(rc_soft_step *s, rc_joint_constraint *c) {
    side a = load(s, c->a, c->moves_a), b = load(s, c->b, c->moves_b);
    warm_start(s, c, &a, &b);
    store(s, &a);
    store(s, &b);
}

JOINT_PASS_LINKAGE void JOINT_PASS(rc_joint_solve)(rc_soft_step *s, rc_joint_constraint *c, bool use_bias) {
    side a = load(s, c->a, c->moves_a), b = load(s, c->b, c->moves_b);
#ifndef RC_JOINT_WIDE
    held_speeds(s, &a);
    held_speeds(s, &b);
#endif
    solve(s, c, &a, &b, use_bias);
    store(s, &a);
    store(s, &b);
}

