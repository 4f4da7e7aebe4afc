/* Soft contact constraints (the "soft step" of Erin Catto's Solver2D), one contact at a time:
 * non-penetration with a soft push-out, Coulomb friction per point, rolling resistance,
 * restitution. Anchors are fixed relative to each centre of mass over the step; the separation
 * is kept current from the bodies' motion so far. */
#include "world/solver.h"

#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

RC_INLINE rc_vec2 cross_sv(float w, rc_vec2 r) { return rc_v2(-w * r.y, w * r.x); }

rc_softness rc_make_soft(float hertz, float damping_ratio, float h) {
    rc_softness s = {0.0f, 1.0f, 0.0f};
    if (hertz == 0.0f) {
        return s;
    }
    float omega = 2.0f * 3.14159265358979f * hertz;
    float a1 = 2.0f * damping_ratio + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = a3;
    return s;
}

/* A body that does not move: zero velocity, no motion. */
static const rc_body_state still = {{0.0f, 0.0f}, 0.0f, 0.0f, {0.0f, 0.0f}, {1.0f, 0.0f}};

static rc_body_state load(const rc_solver_step *s, int32_t index) { return index >= 0 ? s->states[index] : still; }

static void save(rc_solver_step *s, int32_t index, const rc_body_state *state) {
    if (index >= 0) {
        s->states[index] = *state;
    }
}

void rc_contacts_prepare(rc_solver_step *s) {
    float hertz = s->contact_hertz;
    rc_softness soft = rc_make_soft(hertz, s->contact_damping_ratio, s->h);
    /* against something that does not move, the contact is stiffer: only one side gives */
    rc_softness soft_static = rc_make_soft(2.0f * hertz, s->contact_damping_ratio, s->h);
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        rc_contact_constraint *c = &s->constraints[i];
        float ma = c->inv_mass_a, ia = c->inv_inertia_a, mb = c->inv_mass_b, ib = c->inv_inertia_b;
        c->softness = (ma == 0.0f || mb == 0.0f) ? soft_static : soft;
        if (c->rigid) {
            /* pushed out at the soft rate but with the full mass: at rest the contact cancels
               the approach exactly and the separation stays at the target (a soft one sags by
               gravity over the stiffness squared) */
            c->softness.mass_scale = 1.0f;
            c->softness.impulse_scale = 0.0f;
        }
        rc_body_state sa = load(s, c->a), sb = load(s, c->b);
        rc_vec2 n = c->normal, t = rc_right_perp(n);
        for (int32_t k = 0; k < c->point_count; ++k) {
            rc_constraint_point *p = &c->points[k];
            rc_vec2 ra = p->anchor_a, rb = p->anchor_b;
            float rna = rc_cross(ra, n), rnb = rc_cross(rb, n);
            float kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
            p->normal_mass = kn > 0.0f ? 1.0f / kn : 0.0f;
            float rta = rc_cross(ra, t), rtb = rc_cross(rb, t);
            float kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
            p->tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
            rc_vec2 va = rc_add(sa.v, cross_sv(sa.w, ra)), vb = rc_add(sb.v, cross_sv(sb.w, rb));
            p->relative_velocity = rc_dot(n, rc_sub(vb, va));
            p->max_normal_impulse = 0.0f;
        }
        float kr = ia + ib;
        c->rolling_mass = kr > 0.0f ? 1.0f / kr : 0.0f;
    }
}

static void apply(rc_body_state *a, rc_body_state *b, const rc_contact_constraint *c, rc_vec2 ra, rc_vec2 rb,
                  rc_vec2 p) {
    a->v = rc_mul_add(a->v, -c->inv_mass_a, p);
    a->w -= c->inv_inertia_a * rc_cross(ra, p);
    b->v = rc_mul_add(b->v, c->inv_mass_b, p);
    b->w += c->inv_inertia_b * rc_cross(rb, p);
}

void rc_contacts_warm_start(rc_solver_step *s) {
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        rc_contact_constraint *c = &s->constraints[i];
        rc_body_state a = load(s, c->a), b = load(s, c->b);
        rc_vec2 n = c->normal, t = rc_right_perp(n);
        for (int32_t k = 0; k < c->point_count; ++k) {
            const rc_constraint_point *p = &c->points[k];
            rc_vec2 impulse = rc_add(rc_scale(p->normal_impulse, n), rc_scale(p->tangent_impulse, t));
            apply(&a, &b, c, p->anchor_a, p->anchor_b, impulse);
        }
        a.w -= c->inv_inertia_a * c->rolling_impulse;
        b.w += c->inv_inertia_b * c->rolling_impulse;
        save(s, c->a, &a);
        save(s, c->b, &b);
    }
}

void rc_contacts_solve(rc_solver_step *s, bool use_bias) {
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        rc_contact_constraint *c = &s->constraints[i];
        rc_body_state a = load(s, c->a), b = load(s, c->b);
        rc_vec2 n = c->normal, t = rc_right_perp(n);
        rc_vec2 dp = rc_sub(b.dp, a.dp);
        float total = 0.0f;
        for (int32_t k = 0; k < c->point_count; ++k) {
            rc_constraint_point *p = &c->points[k];
            rc_vec2 ra = p->anchor_a, rb = p->anchor_b;
            /* the separation now: the anchors turned by the turns so far, moved by the moves (a
               circle's point facing the contact stays where it is however the circle turns:
               turning it made a rolling circle's contact seem to lift off, and it sank) */
            rc_vec2 turned_a = c->round_a ? ra : rc_rotate(a.dq, ra), turned_b = c->round_b ? rb : rc_rotate(b.dq, rb);
            rc_vec2 d = rc_add(dp, rc_sub(turned_b, turned_a));
            float sep = rc_dot(d, n) + p->base_separation - c->target;
            float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
            if (sep > 0.0f) {
                bias = sep * s->inv_h; /* apart: it may close the gap, no more (speculative) */
            } else if (use_bias) {
                bias = rc_maxf(c->softness.bias_rate * sep, -s->max_push_speed);
                mass_scale = c->softness.mass_scale;
                impulse_scale = c->softness.impulse_scale;
            }
            rc_vec2 dv = rc_sub(rc_add(b.v, cross_sv(b.w, rb)), rc_add(a.v, cross_sv(a.w, ra)));
            float vn = rc_dot(dv, n);
            float impulse = -p->normal_mass * mass_scale * (vn + bias) - impulse_scale * p->normal_impulse;
            float next = rc_maxf(p->normal_impulse + impulse, 0.0f);
            impulse = next - p->normal_impulse;
            p->normal_impulse = next;
            p->max_normal_impulse = rc_maxf(p->max_normal_impulse, impulse);
            total += next;
            apply(&a, &b, c, ra, rb, rc_scale(impulse, n));
        }
        /* rolling resistance before friction: friction then keeps a rolling body rolling */
        if (c->rolling > 0.0f) {
            float impulse = -c->rolling_mass * (b.w - a.w);
            float limit = c->rolling * total;
            float next = rc_maxf(-limit, rc_minf(c->rolling_impulse + impulse, limit));
            impulse = next - c->rolling_impulse;
            c->rolling_impulse = next;
            a.w -= c->inv_inertia_a * impulse;
            b.w += c->inv_inertia_b * impulse;
        }
        for (int32_t k = 0; k < c->point_count; ++k) {
            rc_constraint_point *p = &c->points[k];
            rc_vec2 ra = p->anchor_a, rb = p->anchor_b;
            rc_vec2 dv = rc_sub(rc_add(b.v, cross_sv(b.w, rb)), rc_add(a.v, cross_sv(a.w, ra)));
            float impulse = -p->tangent_mass * rc_dot(dv, t);
            float limit = c->friction * p->normal_impulse;
            float next = rc_maxf(-limit, rc_minf(p->tangent_impulse + impulse, limit));
            impulse = next - p->tangent_impulse;
            p->tangent_impulse = next;
            apply(&a, &b, c, ra, rb, rc_scale(impulse, t));
        }
        save(s, c->a, &a);
        save(s, c->b, &b);
    }
}

void rc_contacts_restitution(rc_solver_step *s) {
    float threshold = s->restitution_threshold;
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        rc_contact_constraint *c = &s->constraints[i];
        if (c->restitution == 0.0f) {
            continue;
        }
        rc_body_state a = load(s, c->a), b = load(s, c->b);
        rc_vec2 n = c->normal;
        for (int32_t k = 0; k < c->point_count; ++k) {
            rc_constraint_point *p = &c->points[k];
            /* only where the contact was approaching fast enough, and pushed */
            if (p->relative_velocity > -threshold || p->max_normal_impulse == 0.0f) {
                continue;
            }
            rc_vec2 ra = p->anchor_a, rb = p->anchor_b;
            rc_vec2 dv = rc_sub(rc_add(b.v, cross_sv(b.w, rb)), rc_add(a.v, cross_sv(a.w, ra)));
            float vn = rc_dot(dv, n);
            float rebound = rc_minf(c->restitution * -p->relative_velocity, s->max_rebound);
            float impulse = -p->normal_mass * (vn - rebound);
            float next = rc_maxf(p->normal_impulse + impulse, 0.0f);
            impulse = next - p->normal_impulse;
            p->normal_impulse = next;
            p->max_normal_impulse = rc_maxf(p->max_normal_impulse, impulse);
            apply(&a, &b, c, ra, rb, rc_scale(impulse, n));
        }
        save(s, c->a, &a);
        save(s, c->b, &b);
    }
}

/* ---- the soft step ---------------------------------------------------------------------------- */

static rc_rot integrate_rotation(rc_rot q, float angle) {
    float c = q.c - angle * q.s, s = q.s + angle * q.c;
    float len = sqrtf(c * c + s * s);
    float inv = len > 0.0f ? 1.0f / len : 0.0f;
    rc_rot r = {c * inv, s * inv};
    return r;
}

static void integrate_velocities(rc_soft_step *s) {
    float max2 = s->max_speed * s->max_speed;
    for (int32_t i = 0; i < s->state_count; ++i) {
        rc_body_state *b = &s->solve.states[i];
        rc_vec2 v = rc_scale(s->linear_damping[i], rc_add(b->v, s->gravity_kicks[i]));
        float w = s->angular_damping[i] * b->w;
        if (rc_dot(v, v) > max2) {
            v = rc_scale(s->max_speed / rc_length(v), v);
        }
        b->v = v;
        b->w = rc_maxf(-s->max_spin, rc_minf(w, s->max_spin));
    }
}

static void integrate_positions(rc_soft_step *s) {
    float h = s->solve.h;
    for (int32_t i = 0; i < s->state_count; ++i) {
        rc_body_state *b = &s->solve.states[i];
        b->dp = rc_mul_add(b->dp, h, b->v);
        b->dq = integrate_rotation(b->dq, h * b->w);
        b->dangle += h * b->w;
    }
}

void rc_solve_soft_step(rc_soft_step *s) {
    rc_contacts_prepare(&s->solve);
    for (int32_t k = 0; k < s->sub_steps; ++k) {
        integrate_velocities(s);
        rc_contacts_warm_start(&s->solve);
        rc_contacts_solve(&s->solve, true);
        integrate_positions(s);
        rc_contacts_solve(&s->solve, false);
    }
    rc_contacts_restitution(&s->solve);
}
