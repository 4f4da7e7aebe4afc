/* world/contact_integrate.h: the soft step's integrations, a sub-step's velocities (gravity's
 * kick, damping, the limits) and positions (the move and turn so far), RC_LANES bodies at a time
 * with the scalar operations lane by lane, and the bodies left over one by one. Included by
 * world/contact_solver.c alone, at either width, after world/contact_lanes.h. */
#ifndef RICOCHET_WORLD_CONTACT_INTEGRATE_H
#define RICOCHET_WORLD_CONTACT_INTEGRATE_H

#include "world/contact_lanes.h"

#include <math.h>

static inline float clamp_to(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

static rc_rot integrate_rotation(rc_rot q, float angle) {
    float c = q.c - angle * q.s, s = q.s + angle * q.c;
    float len = sqrtf(c * c + s * s);
    float inv = len > 0.0f ? 1.0f / len : 0.0f;
    rc_rot r = {c * inv, s * inv};
    return r;
}

/* Body i's velocities in a sub-step: gravity's kick, damping, the speed limits. */
static inline void integrate_velocity(rc_soft_step *s, int32_t i, float max2) {
    rc_body_state *b = &s->states[i];
    rc_vec2 v = rc_scale(s->linear_damping[i], rc_add(b->v, s->gravity_kicks[i]));
    float w = s->angular_damping[i] * (b->w + s->spin_kicks[i]);
    if (rc_dot(v, v) > max2) {
        v = rc_scale(s->max_speed / rc_length(v), v);
    }
    b->v = v;
    b->w = clamp_to(w, -s->spin_limits[i], s->spin_limits[i]);
}

/* x within [lo, hi] lane by lane, as clamp_to: lo where x < lo, else hi where x > hi, else x. */
static inline rc_w clamp_lanes(rc_w x, rc_w lo, rc_w hi) {
    return rc_w_select(rc_w_gt(lo, x), lo, rc_w_select(rc_w_gt(x, hi), hi, x));
}

/* The states from i on, RC_LANES of them, gathered (to: their offsets, where scatter_all puts
 * them back). */
static inline wide_body states_at(rc_soft_step *s, int32_t i, uint32_t to[RC_LANES]) {
    for (int lane = 0; lane < RC_LANES; ++lane) {
        to[lane] = rc_state_offset(i + lane);
    }
    return gather(s->states, to);
}

/* Where a velocity's squared length is over max2 (rc_dot's operations). */
static inline rc_w over_limit(rc_w vx, rc_w vy, rc_w max2) {
    return rc_w_gt(rc_w_add(rc_w_mul(vx, vx), rc_w_mul(vy, vy)), max2);
}

/* Every body's velocities, RC_LANES bodies at a time with integrate_velocity's operations lane by
 * lane (a group with a body faster than the limit, rare: by integrate_velocity itself, whose
 * length takes care of extreme vectors), the bodies left over one by one. */
static void integrate_velocities(rc_soft_step *s) {
    float max2 = s->max_speed * s->max_speed;
    rc_w wide_max2 = rc_w_set(max2);
    int32_t i = 0;
    for (; i + RC_LANES <= s->state_count; i += RC_LANES) {
        uint32_t to[RC_LANES];
        wide_body b = states_at(s, i, to);
        rc_w kx, ky;
        rc_w_load_xy(&s->gravity_kicks[i], &kx, &ky);
        rc_w damping = rc_w_load(&s->linear_damping[i]);
        rc_w vx = rc_w_mul(damping, rc_w_add(b.vx, kx)), vy = rc_w_mul(damping, rc_w_add(b.vy, ky));
        rc_w w = rc_w_mul(rc_w_load(&s->angular_damping[i]), rc_w_add(b.w, rc_w_load(&s->spin_kicks[i])));
        if (rc_w_any(over_limit(vx, vy, wide_max2))) {
            for (int32_t k = i; k < i + RC_LANES; ++k) {
                integrate_velocity(s, k, max2);
            }
            continue;
        }
        rc_w limit = rc_w_load(&s->spin_limits[i]);
        b.vx = vx;
        b.vy = vy;
        b.w = clamp_lanes(w, rc_w_neg(limit), limit);
        scatter_all(s->states, to, &b);
    }
    for (; i < s->state_count; ++i) {
        integrate_velocity(s, i, max2);
    }
}

static inline void integrate_position(rc_soft_step *s, int32_t i, float max2) {
    rc_body_state *b = &s->states[i];
    /* the world's speed limit holds here too: a joint's solve may ask more of a body (a rail
       turning a thousand times a second), and a position moved by that would feed the next
       sub-step a separation that grows without end. The turn is held to the world's turning
       limit (the velocity itself is not: a tiny grenade's friction spins it past the limit
       within a sub-step, which integrate_velocities then holds, and a body's own limit, a
       prop's eighth of a turn a sub-step, is held there only, as in Box2D v3): a grenade jammed in
       a pile whose solve left it turning at 1e9 rad/s turned by millions of radians a step,
       and its angle went beyond float range */
    if (rc_dot(b->v, b->v) > max2) {
        b->v = rc_scale(s->max_speed / rc_length(b->v), b->v);
    }
    float spin = clamp_to(b->w, -s->max_spin, s->max_spin);
    b->dp = rc_mul_add(b->dp, s->h, b->v);
    b->dq = integrate_rotation(b->dq, s->h * spin);
    s->turns[i] += s->h * spin;
}

/* Every body's move and turn, RC_LANES bodies at a time with integrate_position's operations
 * lane by lane (a body faster than the limit, rare: those bodies by integrate_position itself),
 * the bodies left over one by one. */
static void integrate_positions(rc_soft_step *s) {
    float max2 = s->max_speed * s->max_speed;
    rc_w wide_max2 = rc_w_set(max2), h = rc_w_set(s->h), zero = rc_w_zero(), one = rc_w_set(1.0f);
    rc_w most_spin = rc_w_set(s->max_spin), least_spin = rc_w_set(-s->max_spin);
    int32_t i = 0;
    for (; i + RC_LANES <= s->state_count; i += RC_LANES) {
        uint32_t to[RC_LANES];
        wide_body b = states_at(s, i, to);
        if (rc_w_any(over_limit(b.vx, b.vy, wide_max2))) {
            for (int32_t k = i; k < i + RC_LANES; ++k) {
                integrate_position(s, k, max2);
            }
            continue;
        }
        rc_w spin = clamp_lanes(b.w, least_spin, most_spin);
        b.dpx = rc_w_add(b.dpx, rc_w_mul(h, b.vx));
        b.dpy = rc_w_add(b.dpy, rc_w_mul(h, b.vy));
        /* integrate_rotation */
        rc_w angle = rc_w_mul(h, spin);
        rc_w c = rc_w_sub(b.qc, rc_w_mul(angle, b.qs)), sn = rc_w_add(b.qs, rc_w_mul(angle, b.qc));
        rc_w len = rc_w_sqrt(rc_w_add(rc_w_mul(c, c), rc_w_mul(sn, sn)));
        rc_w inv = rc_w_select(rc_w_gt(len, zero), rc_w_div(one, len), zero);
        b.qc = rc_w_mul(c, inv);
        b.qs = rc_w_mul(sn, inv);
        rc_w_store(&s->turns[i], rc_w_add(rc_w_load(&s->turns[i]), angle));
        scatter_all(s->states, to, &b);
    }
    for (; i < s->state_count; ++i) {
        integrate_position(s, i, max2);
    }
}

#endif
