/* Soft contact constraints (the "soft step" of Erin Catto's Solver2D), four contacts at a
 * time, or eight, or sixteen: non-penetration with a soft push-out, rolling resistance, Coulomb
 * friction per point, restitution. Anchors are fixed relative to each centre of mass over the
 * step; the separation is kept current from the bodies' motion so far. Everything per contact is
 * computed in the lanes of core/simd.h, so one contact's numbers are the same whatever shares
 * its block.
 *
 * This file is compiled three times: as itself, with the lanes of core/simd.h (SSE2, NEON or
 * plain C); as world/contact_solver_avx.c, with RC_SOLVER_AVX defined and the eight lanes of
 * core/simd_avx.h, on x86-64 builds that can compile AVX (CMake defines
 * RICOCHET_SOLVER_AVX_BUILT for the library then); and as world/contact_solver_avx512.c, with
 * RC_SOLVER_AVX and RC_SOLVER_AVX512 defined and the sixteen lanes of core/simd_avx512.h
 * (RICOCHET_SOLVER_AVX512_BUILT). The packing and the passes are the same code at every
 * width; rc_solve_soft_step (solver_width.c) runs the width the step asks for (s->lanes). */
#ifdef RC_SOLVER_AVX512
#include "core/simd_avx512.h"
#define SOFT_STEP_AT_WIDTH rc_solve_soft_step_avx512
#elif defined(RC_SOLVER_AVX)
#include "core/simd_avx.h"
#define SOFT_STEP_AT_WIDTH rc_solve_soft_step_avx
#else
#include "core/simd.h"
#define SOFT_STEP_AT_WIDTH rc_solve_soft_step_narrow
#endif

#include "world/solver.h"
#include "world/joint.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "world/contact_lanes.h"
#include "world/contact_integrate.h"
#include "world/contact_block.h"

/* The step's blocks as this width lays them out. */
static inline rc_wide_constraint *blocks_of(const rc_soft_step *s) { return (rc_wide_constraint *)(void *)s->blocks; }

#ifndef RC_SOLVER_AVX
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
#endif

/* ---- packing ------------------------------------------------------------------------------- */

static inline void set_lane(rc_w *w, int lane, float value) { RC_LANE(*w, lane) = value; }

/* A lane of a mask: all ones when set. */
static inline void set_lane_mask(rc_w *w, int lane, bool set) {
    uint32_t bits = set ? 0xffffffffu : 0u;
    memcpy(&RC_LANE(*w, lane), &bits, sizeof bits);
}

static inline float min_of(float a, float b) { return a < b ? a : b; }

/* How much of its carried impulses a moving side may be given back (warm_start_shares). */
static inline float share_of(const rc_soft_step *s, int32_t index, float inv_mass) {
    return index >= 0 && inv_mass > 0.0f ? s->states[index].spare : 1.0f;
}

static inline float warm_start_share(const rc_soft_step *s, const rc_contact_constraint *c) {
    return min_of(share_of(s, c->a, c->inv_mass_a), share_of(s, c->b, c->inv_mass_b));
}

/* The warm start must not throw a body. The impulses carried over balance each other where a
 * body is held from several sides; when one side's goes (a crate squeezed between a door and a
 * wall passes the wall's middle, and the wall's normal flips), the rest, grown to hold the
 * squeeze (80 a point for a crate of mass 1), threw it at 170 units/s within the first
 * sub-step, and the solve that took it back passed it on to the crate beyond (44 units/s from
 * a door closing at 3). A body's carried impulses together may change its velocity by at most
 * what contacts can need of it in a sub-step: to stop it, to hold it against gravity and its
 * applied force (twice, for slack), and to push it out; past that, all of its contacts carry
 * over that share of their impulses (each contact the smaller share of its two bodies). In a
 * stack or a steady squeeze the impulses balance, and nothing changes.
 * pack_lane adds each contact's carried impulses into its bodies' dp (zero at the step's start);
 * here each body's share goes into its state's spare (which nothing reads before the first
 * scatter) and dp back to zero. True when some body's share is less than whole. */
static bool warm_start_shares(rc_soft_step *s) {
    /* a jointed body keeps all of its contacts' warm start: its joints' carried impulses may
       balance them (a crate dragged by the mouse into a wall), and they are not counted here */
    for (int32_t k = 0; k < s->joint_count; ++k) {
        const rc_joint_constraint *j = &s->joints[k];
        if (j->a >= 0) {
            s->states[j->a].dp = rc_v2(0.0f, 0.0f);
        }
        if (j->b >= 0) {
            s->states[j->b].dp = rc_v2(0.0f, 0.0f);
        }
    }
    float push2 = s->max_push_speed * s->max_push_speed;
    bool held = false;
    for (int32_t i = 0; i < s->state_count; ++i) {
        rc_body_state *b = &s->states[i];
        float kick2 = rc_dot(b->dp, b->dp);
        b->spare = 1.0f;
        if (!(kick2 <= push2)) { /* (most bodies: a pile's carry balances to gravity's kick) */
            float most = rc_length(b->v) + 2.0f * rc_length(s->gravity_kicks[i]) + s->max_push_speed;
            float kick = sqrtf(kick2);
            b->spare = kick > most ? most / kick : 1.0f; /* (NaN: prepare_point dropped it) */
            held = held || b->spare < 1.0f;
        }
        b->dp = rc_v2(0.0f, 0.0f);
    }
    return held;
}

/* A packed lane's carried impulses scaled by its contact's share (held < 1). */
static void hold_lane(rc_wide_constraint *w, int lane, float held) {
    for (int k = 0; k < 2; ++k) {
        RC_LANE(w->points[k].normal_impulse, lane) *= held;
        RC_LANE(w->points[k].tangent_impulse, lane) *= held;
    }
    RC_LANE(w->rolling_impulse, lane) *= held;
}

/* A point's inverse masses along the normal n and along its right perp, at anchors ra and rb
 * (0 where the point has no mass), into its lane; returns its mass's inverse along n. */
static float set_point_masses(rc_wide_point *w, int lane, float ma, float ia, float mb, float ib, rc_vec2 ra,
                              rc_vec2 rb, rc_vec2 n) {
    rc_vec2 t = rc_right_perp(n);
    float rna = rc_cross(ra, n), rnb = rc_cross(rb, n);
    float kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
    float rta = rc_cross(ra, t), rtb = rc_cross(rb, t);
    float kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
    set_lane(&w->normal_mass, lane, kn > 0.0f ? 1.0f / kn : 0.0f);
    set_lane(&w->tangent_mass, lane, kt > 0.0f ? 1.0f / kt : 0.0f);
    return kn;
}

/* A lane's numbers from a constraint: masses at the anchors, softness, the normal velocity
 * before solving, the impulses to start from. */
static void prepare_point(const rc_soft_step *s, const rc_contact_constraint *c, const rc_body_state *sa,
                          const rc_body_state *sb, int k, rc_wide_constraint *wc, int lane, float *scale,
                          rc_vec2 *carried) {
    const rc_constraint_point *p = &c->points[k];
    rc_wide_point *w = &wc->points[k];
    float ma = c->inv_mass_a, ia = c->inv_inertia_a, mb = c->inv_mass_b, ib = c->inv_inertia_b;
    rc_vec2 n = c->normal, t = rc_right_perp(n);
    rc_vec2 ra = p->anchor_a, rb = p->anchor_b;
    float kn = set_point_masses(w, lane, ma, ia, mb, ib, ra, rb, n);
    rc_vec2 va = rc_add(sa->v, rc_v2(-sa->w * ra.y, sa->w * ra.x));
    rc_vec2 vb = rc_add(sb->v, rc_v2(-sb->w * rb.y, sb->w * rb.x));
    set_lane(&w->anchor_ax, lane, ra.x);
    set_lane(&w->anchor_ay, lane, ra.y);
    set_lane(&w->anchor_bx, lane, rb.x);
    set_lane(&w->anchor_by, lane, rb.y);
    set_lane(&w->base_separation, lane, p->base_separation - c->target);
    set_lane(&wc->relative_velocity[k], lane, rc_dot(n, rc_sub(vb, va)));
    /* the impulses carried over from the last step (the warm start): a normal impulse at most
       one that alone would change the pair's normal velocity by twice the world's top speed,
       which no contact needs, and the friction with it scaled as it is. In a jam of bodies of
       wildly different masses the passes do not converge, and what each step left over grew
       step after step (by 1e8 in 100 steps) until it was beyond float range, and velocities,
       turns and angles became infinite, then NaN. *scale: the normal impulse's, 1 when whole */
    float most = kn > 0.0f ? 2.0f * s->max_speed / kn : 0.0f;
    float pn = p->normal_impulse, pt = p->tangent_impulse;
    if (pn > most) {
        *scale = rc_is_finite(pn) ? min_of(*scale, most / pn) : 0.0f;
        pt = rc_is_finite(pn) && rc_is_finite(pt) ? pt * (most / pn) : 0.0f;
        pn = most;
    }
    set_lane(&w->normal_impulse, lane, pn);
    set_lane(&w->tangent_impulse, lane, pt);
    set_lane(&w->max_normal_impulse, lane, 0.0f);
    /* (along n, and its right perp) */
    *carried = rc_add(*carried, rc_v2(pn * n.x + pt * t.x, pn * n.y + pt * t.y));
}

/* An empty lane, or the missing second point of a one-point contact: no mass, so no impulse;
 * apart by 1, so its speculative bias stays finite. */
static void empty_point(rc_wide_constraint *wc, int k, int lane) {
    rc_wide_point *w = &wc->points[k];
    set_lane(&w->anchor_ax, lane, 0.0f);
    set_lane(&w->anchor_ay, lane, 0.0f);
    set_lane(&w->anchor_bx, lane, 0.0f);
    set_lane(&w->anchor_by, lane, 0.0f);
    set_lane(&w->base_separation, lane, 1.0f);
    set_lane(&wc->relative_velocity[k], lane, 0.0f);
    set_lane(&w->normal_mass, lane, 0.0f);
    set_lane(&w->tangent_mass, lane, 0.0f);
    set_lane(&w->normal_impulse, lane, 0.0f);
    set_lane(&w->tangent_impulse, lane, 0.0f);
    set_lane(&w->max_normal_impulse, lane, 0.0f);
}

static void pack_lane(const rc_soft_step *s, int32_t index, rc_wide_constraint *w, uint32_t *flags, int lane,
                      rc_softness soft, rc_softness soft_static) {
    const rc_contact_constraint *c = &s->constraints[index];
    float ma = c->inv_mass_a, ia = c->inv_inertia_a, mb = c->inv_mass_b, ib = c->inv_inertia_b;
    rc_softness sf = (ma == 0.0f || mb == 0.0f) ? soft_static : soft;
    if (c->rigid) {
        /* pushed out at the stiff rate but with the full mass: at rest the contact cancels the
           approach exactly and the separation stays at the target (a soft one sags by gravity
           over the stiffness squared) */
        sf = soft_static;
        sf.mass_scale = 1.0f;
        sf.impulse_scale = 0.0f;
    }
    /* a side with no state reads the still state */
    int32_t read_a = c->a >= 0 ? c->a : s->state_count, read_b = c->b >= 0 ? c->b : s->state_count;
    const rc_body_state *sa = &s->states[read_a], *sb = &s->states[read_b];
    uint32_t sink = rc_state_offset(s->state_count + 1);
    w->a[lane] = rc_state_offset(read_a);
    w->b[lane] = rc_state_offset(read_b);
    w->store_a[lane] = c->a >= 0 && ma > 0.0f ? rc_state_offset(c->a) : sink;
    w->store_b[lane] = c->b >= 0 && mb > 0.0f ? rc_state_offset(c->b) : sink;
    set_lane(&w->normal_x, lane, c->normal.x);
    set_lane(&w->normal_y, lane, c->normal.y);
    set_lane(&w->inv_mass_a, lane, ma);
    set_lane(&w->inv_inertia_a, lane, ia);
    set_lane(&w->inv_mass_b, lane, mb);
    set_lane(&w->inv_inertia_b, lane, ib);
    set_lane(&w->friction, lane, c->friction);
    set_lane(&w->restitution, lane, c->restitution);
    set_lane(&w->rolling, lane, c->rolling);
    float kr = ia + ib;
    set_lane(&w->rolling_mass, lane, kr > 0.0f ? 1.0f / kr : 0.0f);
    *flags |= (c->restitution > 0.0f ? RC_BLOCK_BOUNCY : 0u) | (c->round_a || c->round_b ? RC_BLOCK_ROUND : 0u) |
              (c->point_count > 1 ? RC_BLOCK_TWO_POINTS : 0u) | (c->rolling > 0.0f ? RC_BLOCK_ROLLING : 0u) |
              RC_BLOCK_FILLED << (unsigned)lane;
    set_lane_mask(&w->round_a, lane, c->round_a);
    set_lane_mask(&w->round_b, lane, c->round_b);
    set_lane(&w->bias_rate, lane, sf.bias_rate);
    set_lane(&w->mass_scale, lane, sf.mass_scale);
    set_lane(&w->impulse_scale, lane, sf.impulse_scale);
    /* the warm start's normal impulses held (prepare_point): the rolling one with them */
    float scale = 1.0f;
    rc_vec2 carried = {0.0f, 0.0f};
    for (int k = 0; k < 2; ++k) {
        if (k < c->point_count) {
            prepare_point(s, c, sa, sb, k, w, lane, &scale, &carried);
        } else {
            empty_point(w, k, lane);
        }
    }
    set_lane(&w->rolling_impulse, lane, scale < 1.0f ? scale * c->rolling_impulse : c->rolling_impulse);
    /* what they would give its bodies (warm_start_shares) */
    if (c->a >= 0 && ma > 0.0f) {
        s->states[c->a].dp = rc_mul_add(s->states[c->a].dp, -ma, carried);
    }
    if (c->b >= 0 && mb > 0.0f) {
        s->states[c->b].dp = rc_mul_add(s->states[c->b].dp, mb, carried);
    }
}

/* A lane no constraint was packed into: nothing to solve, the still state on both sides. */
static void empty_lane(rc_wide_constraint *w, int lane, uint32_t still) {
    rc_w *lanes[] = {&w->normal_x, &w->normal_y, &w->inv_mass_a, &w->inv_inertia_a, &w->inv_mass_b,
                     &w->inv_inertia_b, &w->friction, &w->restitution, &w->rolling, &w->rolling_mass,
                     &w->rolling_impulse, &w->bias_rate, &w->mass_scale, &w->impulse_scale, &w->round_a, &w->round_b};
    for (size_t f = 0; f < sizeof lanes / sizeof lanes[0]; ++f) {
        set_lane(lanes[f], lane, 0.0f);
    }
    w->a[lane] = still;
    w->b[lane] = still;
    w->store_a[lane] = still + (uint32_t)sizeof(rc_body_state); /* the sink */
    w->store_b[lane] = still + (uint32_t)sizeof(rc_body_state);
    empty_point(w, 0, lane);
    empty_point(w, 1, lane);
}

/* The block and lane of constraint i (rc_solver_runs). */
static int32_t block_of(const rc_soft_step *s, int32_t i, int *lane) {
    int32_t slot = s->order[i];
    *lane = slot % RC_LANES;
    return slot / RC_LANES;
}

/* The blocks: each run's constraints in their order, four to a block; then the ones no colour
 * took, one to a block (contact_color.c gave each its block and lane). The blocks are filled
 * constraint by constraint in the constraints' order: read in block order, the constraints were
 * all over memory (a cache miss per constraint in a scene of 60,000; and filled block after
 * block with the constraints asked for ahead, many pyramids were 4% slower). A packed lane is
 * written whole; only the lanes left over (a run's last block) are cleared after: clearing
 * every block first wrote each twice (1.9 MB a step for the large pyramid). */
static void pack(rc_soft_step *s) {
    rc_softness soft = rc_make_soft(s->contact_hertz, s->contact_damping_ratio, s->h);
    /* against something that does not move, the contact is stiffer: only one side gives */
    rc_softness soft_static = rc_make_soft(2.0f * s->contact_hertz, s->contact_damping_ratio, s->h);
    if (s->block_count > 0) { /* (no blocks: the flags may be NULL) */
        memset(s->block_flags, 0, sizeof *s->block_flags * (size_t)s->block_count);
    }
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        int lane;
        int32_t block = block_of(s, i, &lane);
        pack_lane(s, i, &blocks_of(s)[block], &s->block_flags[block], lane, soft, soft_static);
    }
    const unsigned full = ((1u << RC_LANES) - 1u) * RC_BLOCK_FILLED;
    for (int32_t i = 0; i < s->block_count; ++i) {
        for (int lane = 0; (s->block_flags[i] & full) != full && lane < RC_LANES; ++lane) {
            if (!(s->block_flags[i] & RC_BLOCK_FILLED << (unsigned)lane)) {
                empty_lane(&blocks_of(s)[i], lane, rc_state_offset(s->state_count));
            }
        }
    }
    if (warm_start_shares(s)) { /* (rare: a squeeze let go) */
        for (int32_t i = 0; i < s->constraint_count; ++i) {
            float held = warm_start_share(s, &s->constraints[i]);
            if (held < 1.0f) {
                int lane;
                int32_t block = block_of(s, i, &lane);
                hold_lane(&blocks_of(s)[block], lane, held);
            }
        }
    }
}

/* ---- the passes ------------------------------------------------------------------------------ */

/* The points a pass visits in a block: the second only where some lane has one. A lane's
 * missing second point has no mass and no impulse, so visiting it changes nothing (a zero's
 * sign at most): a block of one-point contacts skips it. */
static inline int points_of(const rc_soft_step *s, int32_t block) {
    return s->block_flags[block] & RC_BLOCK_TWO_POINTS ? 2 : 1;
}

static void warm_start(rc_soft_step *s) {
    /* read once: the scatters' stores may alias *s, which the loop would read again */
    rc_body_state *states = s->states;
    rc_wide_constraint *blocks = blocks_of(s);
    const uint32_t *block_flags = s->block_flags;
    for (int32_t i = 0, count = s->block_count; i < count; ++i) {
        rc_wide_constraint *c = &blocks[i];
        wide_body a = gather(states, c->a), b = gather(states, c->b);
        rc_w tx = c->normal_y, ty = rc_w_sub(rc_w_zero(), c->normal_x); /* right perp */
        int points = block_flags[i] & RC_BLOCK_TWO_POINTS ? 2 : 1;
        for (int k = 0; k < points; ++k) {
            const rc_wide_point *p = &c->points[k];
            rc_w px = rc_w_add(rc_w_mul(p->normal_impulse, c->normal_x), rc_w_mul(p->tangent_impulse, tx));
            rc_w py = rc_w_add(rc_w_mul(p->normal_impulse, c->normal_y), rc_w_mul(p->tangent_impulse, ty));
            apply(c, &a, &b, p->anchor_ax, p->anchor_ay, p->anchor_bx, p->anchor_by, px, py);
        }
        if (block_flags[i] & RC_BLOCK_ROLLING) {
            a.w = rc_w_sub(a.w, rc_w_mul(c->inv_inertia_a, c->rolling_impulse));
            b.w = rc_w_add(b.w, rc_w_mul(c->inv_inertia_b, c->rolling_impulse));
        }
        scatter(states, c->store_a, &a);
        scatter(states, c->store_b, &b);
    }
}

/* An anchor turned by the body's turn so far, unless the side is round. any_round: some lane
 * of the block is round (a block of boxes skips the selects: a select with no lane set gives
 * the turned anchor, so the answer is the same either way). */
static inline void turned(bool any_round, rc_w round, const wide_body *body, rc_w rx, rc_w ry, rc_w *ox, rc_w *oy) {
    rc_w x = rc_w_sub(rc_w_mul(body->qc, rx), rc_w_mul(body->qs, ry));
    rc_w y = rc_w_add(rc_w_mul(body->qs, rx), rc_w_mul(body->qc, ry));
    if (any_round) {
        x = rc_w_select(round, rx, x);
        y = rc_w_select(round, ry, y);
    }
    *ox = x;
    *oy = y;
}

static inline void solve_normal(const rc_soft_step *s, rc_wide_constraint *c, wide_body *a, wide_body *b,
                                bool use_bias, bool any_round, int points, rc_w *total) {
    rc_w dpx = rc_w_sub(b->dpx, a->dpx), dpy = rc_w_sub(b->dpy, a->dpy);
    rc_w zero = rc_w_zero(), one = rc_w_set(1.0f), inv_h = rc_w_set(s->inv_h);
    rc_w max_push = rc_w_set(-s->max_push_speed);
    /* the separations now (the impulses below change velocities only): the anchors turned by
       the turns so far, moved by the moves (a circle's point facing the contact stays where it
       is however the circle turns: turning it made a rolling circle's contact seem to lift
       off, and it sank) */
    rc_w sep[2];
    for (int k = 0; k < points; ++k) {
        const rc_wide_point *p = &c->points[k];
        rc_w tax, tay, tbx, tby;
        turned(any_round, c->round_a, a, p->anchor_ax, p->anchor_ay, &tax, &tay);
        turned(any_round, c->round_b, b, p->anchor_bx, p->anchor_by, &tbx, &tby);
        rc_w dx = rc_w_add(dpx, rc_w_sub(tbx, tax)), dy = rc_w_add(dpy, rc_w_sub(tby, tay));
        sep[k] = rc_w_add(dot(dx, dy, c->normal_x, c->normal_y), p->base_separation);
    }
    /* A two-point contact is solved as one (both points' impulses at once) where point after
       point would turn the pair: one point's impulse turns it before the other's is found, and
       a pass is too few to even it out.
       - Apart at both points by more than the touching distance (a crate closing face on with
         another), and closing faster than the gaps allow or holding an impulse: each point
         closes no faster than its gap allows. Crates 0.2 wide meeting head on at 30 to 60
         units/s each turned past each other and flew on apart.
       - Touching at both (or overlapping by no more than that distance) and moving along the
         normal faster than the push-out speed at both, either way: the impact itself, and the
         warm start of its impulse in the next sub-step (which the points then take back). Crates
         meeting head on turned up to 2 rad as they met, and a crate thrown face on at a free
         plank left it spinning at 4.7 rad/s.
       Resting contacts (slow at their points) are solved point by point, as Box2D v3 does. */
    rc_w together = zero, vn_first = zero;
    if (points == 2) {
        rc_w dvx, dvy;
        relative_velocity(a, b, &c->points[0], &dvx, &dvy);
        vn_first = dot(dvx, dvy, c->normal_x, c->normal_y); /* (the points' loop reads it: the block's lanes are its own) */
        rc_w apart = rc_w_set(s->touching_distance), deep = rc_w_set(-s->touching_distance);
        rc_w push_squared = rc_w_set(s->max_push_speed * s->max_push_speed);
        rc_w far = mask_and(rc_w_gt(sep[0], apart), rc_w_gt(sep[1], apart));
        rc_w close = mask_and(rc_w_gt(sep[0], deep), rc_w_gt(sep[1], deep));
        rc_w fast = mask_and(close, rc_w_gt(rc_w_mul(vn_first, vn_first), push_squared));
        /* (the second point only where the first may call for the block: a pile at rest skips it) */
        if (rc_w_any(rc_w_or(far, fast))) {
            relative_velocity(a, b, &c->points[1], &dvx, &dvy);
            rc_w vn = dot(dvx, dvy, c->normal_x, c->normal_y);
            rc_w target[2];
            for (int k = 0; k < 2; ++k) {
                target[k] = rc_w_sub(zero, rc_w_mul(rc_w_max(sep[k], zero), inv_h));
            }
            rc_w acts = rc_w_or(rc_w_or(rc_w_gt(target[0], vn_first), rc_w_gt(target[1], vn)),
                                rc_w_or(rc_w_gt(c->points[0].normal_impulse, zero),
                                        rc_w_gt(c->points[1].normal_impulse, zero)));
            fast = mask_and(fast, rc_w_gt(rc_w_mul(vn, vn), push_squared));
            rc_w as_one = rc_w_or(mask_and(far, acts), fast);
            if (rc_w_any(as_one)) {
                normal_block kb;
                rc_w solvable = normal_block_of(c, &kb);
                together = block_normal(c, a, b, &kb, target, mask_and(as_one, solvable));
            }
        }
    }
    /* the lanes the block left to the points (all of them in most blocks) */
    bool alone_only = points == 1 || !rc_w_any(together);
    rc_w alone = alone_only ? zero : rc_w_select(together, zero, rc_w_ge(one, zero));
    *total = zero;
    for (int k = 0; k < points; ++k) {
        rc_wide_point *p = &c->points[k];
        /* apart: it may close the gap, no more (speculative); overlapping: pushed out softly */
        rc_w is_apart = rc_w_gt(sep[k], zero);
        rc_w bias = rc_w_mul(sep[k], inv_h), mass_scale = one, impulse_scale = zero;
        if (use_bias) {
            rc_w push = rc_w_max(rc_w_mul(c->bias_rate, sep[k]), max_push);
            bias = rc_w_select(is_apart, bias, push);
            mass_scale = rc_w_select(is_apart, one, c->mass_scale);
            impulse_scale = rc_w_select(is_apart, zero, c->impulse_scale);
        } else {
            bias = rc_w_select(is_apart, bias, zero);
        }
        rc_w vn = vn_first;
        if (points == 1 || k == 1) {
            rc_w dvx, dvy;
            relative_velocity(a, b, p, &dvx, &dvy);
            vn = dot(dvx, dvy, c->normal_x, c->normal_y);
        }
        rc_w impulse = rc_w_sub(rc_w_mul(rc_w_sub(zero, rc_w_mul(p->normal_mass, mass_scale)), rc_w_add(vn, bias)),
                                rc_w_mul(impulse_scale, p->normal_impulse));
        rc_w next = rc_w_max(rc_w_add(p->normal_impulse, impulse), zero);
        impulse = rc_w_sub(next, p->normal_impulse);
        if (alone_only) {
            p->normal_impulse = next;
            p->max_normal_impulse = rc_w_max(p->max_normal_impulse, impulse);
            apply(c, a, b, p->anchor_ax, p->anchor_ay, p->anchor_bx, p->anchor_by, rc_w_mul(impulse, c->normal_x),
                  rc_w_mul(impulse, c->normal_y));
        } else {
            apply_normal_where(c, p, a, b, alone, impulse, next); /* (the block's lanes are solved) */
        }
        *total = rc_w_add(*total, p->normal_impulse);
    }
}

static void solve_rolling(rc_wide_constraint *c, wide_body *a, wide_body *b, rc_w total) {
    rc_w impulse = rc_w_sub(rc_w_zero(), rc_w_mul(c->rolling_mass, rc_w_sub(b->w, a->w)));
    rc_w limit = rc_w_mul(c->rolling, total);
    rc_w next = rc_w_max(rc_w_sub(rc_w_zero(), limit), rc_w_min(rc_w_add(c->rolling_impulse, impulse), limit));
    impulse = rc_w_sub(next, c->rolling_impulse);
    c->rolling_impulse = next;
    a->w = rc_w_sub(a->w, rc_w_mul(c->inv_inertia_a, impulse));
    b->w = rc_w_add(b->w, rc_w_mul(c->inv_inertia_b, impulse));
}

/* A point's friction: the accumulated tangent impulse that stops its sliding (along t), within
 * friction times its normal impulse. */
static inline rc_w friction_next(const rc_wide_constraint *c, const wide_body *a, const wide_body *b,
                                 const rc_wide_point *p, rc_w tx, rc_w ty) {
    rc_w dvx, dvy;
    relative_velocity(a, b, p, &dvx, &dvy);
    rc_w impulse = rc_w_sub(rc_w_zero(), rc_w_mul(p->tangent_mass, dot(dvx, dvy, tx, ty)));
    rc_w limit = rc_w_mul(c->friction, p->normal_impulse);
    return rc_w_max(rc_w_sub(rc_w_zero(), limit), rc_w_min(rc_w_add(p->tangent_impulse, impulse), limit));
}

static inline void solve_friction(rc_wide_constraint *c, wide_body *a, wide_body *b, int points) {
    rc_w tx = c->normal_y, ty = rc_w_sub(rc_w_zero(), c->normal_x);
    for (int k = 0; k < points; ++k) {
        rc_wide_point *p = &c->points[k];
        rc_w next = friction_next(c, a, b, p, tx, ty);
        rc_w impulse = rc_w_sub(next, p->tangent_impulse);
        p->tangent_impulse = next;
        apply(c, a, b, p->anchor_ax, p->anchor_ay, p->anchor_bx, p->anchor_by, rc_w_mul(impulse, tx),
              rc_w_mul(impulse, ty));
    }
}

/* One block: the normal points, rolling resistance, then friction (rolling before friction:
 * friction then keeps a rolling body rolling). Inlined into solve's four copies, each with its
 * round and points fixed. A block with no rolling resistance skips it (its lanes' impulses
 * would stay 0: a zero's sign at most), and with it the line that holds it. */
static inline __attribute__((always_inline)) void solve_block(const rc_soft_step *s, rc_body_state *states,
                                                              rc_wide_constraint *c, uint32_t flags, bool use_bias,
                                                              bool any_round, int points) {
    wide_body a = gather(states, c->a), b = gather(states, c->b);
    rc_w total;
    solve_normal(s, c, &a, &b, use_bias, any_round, points, &total);
    if (flags & RC_BLOCK_ROLLING) {
        solve_rolling(c, &a, &b, total);
    }
    solve_friction(c, &a, &b, points);
    scatter(states, c->store_a, &a);
    scatter(states, c->store_b, &b);
}

static void solve(rc_soft_step *s, bool use_bias) {
    /* read once: the scatters' stores may alias *s, which the loop would read again */
    rc_body_state *states = s->states;
    rc_wide_constraint *blocks = blocks_of(s);
    const uint32_t *block_flags = s->block_flags;
    for (int32_t i = 0, count = s->block_count; i < count; ++i) {
        rc_wide_constraint *c = &blocks[i];
        /* four copies: a block with no round side (a crate stack's) skips the selects of the
           turned anchors, a block of one-point contacts (a grenade pile's) the second point */
        uint32_t flags = block_flags[i];
        if (flags & RC_BLOCK_TWO_POINTS) {
            if (flags & RC_BLOCK_ROUND) {
                solve_block(s, states, c, flags, use_bias, true, 2);
            } else {
                solve_block(s, states, c, flags, use_bias, false, 2);
            }
        } else if (flags & RC_BLOCK_ROUND) {
            solve_block(s, states, c, flags, use_bias, true, 1);
        } else {
            solve_block(s, states, c, flags, use_bias, false, 1);
        }
    }
}

/* Friction again where mask is set, within friction times the normal impulses as restitution
 * left them. */
static void friction_where(rc_wide_constraint *c, wide_body *a, wide_body *b, rc_w mask) {
    rc_w tx = c->normal_y, ty = rc_w_sub(rc_w_zero(), c->normal_x);
    for (int k = 0; k < 2; ++k) {
        rc_wide_point *p = &c->points[k];
        rc_w next = friction_next(c, a, b, p, tx, ty);
        rc_w impulse = rc_w_sub(next, p->tangent_impulse);
        p->tangent_impulse = rc_w_select(mask, next, p->tangent_impulse);
        apply_where(c, p, a, b, mask, rc_w_mul(impulse, tx), rc_w_mul(impulse, ty));
    }
}

/* How many times a two-point contact's restitution and its friction are solved in turn. */
#define RESTITUTION_ROUNDS 4

/* Restitution, once after the sub-steps: each point that approached faster than the threshold
 * and was pushed leaves at e times the speed it approached with at the step's start (the
 * normal velocity before solving, at the same anchors), within max_rebound; the accumulated
 * impulse stays >= 0.
 *
 * A contact with two such points is solved as one 2 x 2 system (Box2D 2.4's block solver): the
 * accumulated impulses x >= 0 for which each point's normal velocity is its target where
 * x > 0, and at least its target where x = 0 (the four cases: both push, only the first, only
 * the second, neither). Solved one point after the other, the first point's impulse turned the
 * body and the second's corrected for it, moving the first away from its target: a box dropped
 * flat rebounded with 3.3 rad/s of spin and 78% of its height, a capsule with 2 rad/s and 114%
 * of it (more energy than it fell with). Solved together, a flat drop leaves with both points
 * at the target, without spin. Friction is solved again in turn with it (RESTITUTION_ROUNDS,
 * the restitution last), within friction times the normal impulses restitution leaves: a box
 * landing on one corner and turning onto the other within the step kept the sideways speed the
 * first corner's friction gave it while both corners were sent back up as fast as they came,
 * and left with more energy than it fell with.
 * A contact with one such point, or whose two points act nearly as one (the system's condition
 * over 1000: points one behind the other along the normal, or a body that does not turn), or in
 * the rare case that rounding leaves the four cases none, is solved point by point as before. */
static void restitution(rc_soft_step *s) {
    rc_body_state *states = s->states; /* (read once: the scatters' stores may alias *s) */
    rc_w zero = rc_w_zero(), threshold = rc_w_set(-s->restitution_threshold), max_rebound = rc_w_set(s->max_rebound);
    for (int32_t i = 0; i < s->block_count; ++i) {
        rc_wide_constraint *c = &blocks_of(s)[i];
        if (!(s->block_flags[i] & RC_BLOCK_BOUNCY)) {
            continue; /* no lane would be active: nothing would change (a crate stack's blocks) */
        }
        rc_w active[2], rebound[2];
        for (int k = 0; k < 2; ++k) {
            const rc_wide_point *p = &c->points[k];
            /* only where the contact was approaching fast enough, and pushed */
            active[k] = rc_w_gt(threshold, c->relative_velocity[k]);
            active[k] = mask_and(rc_w_gt(p->max_normal_impulse, zero), active[k]);
            active[k] = mask_and(rc_w_gt(c->restitution, zero), active[k]);
        }
        if (!rc_w_any(rc_w_or(active[0], active[1]))) {
            continue; /* no lane bounces (a pile of grenades at rest): every lane would stay */
        }
        wide_body a = gather(states, c->a), b = gather(states, c->b);
        for (int k = 0; k < 2; ++k) {
            rebound[k] = rc_w_min(rc_w_mul(c->restitution, rc_w_sub(zero, c->relative_velocity[k])), max_rebound);
        }
        rc_w solved = zero;
        if (rc_w_any(mask_and(active[0], active[1]))) { /* (one-point contacts, a grenade's, never) */
            normal_block k;
            rc_w solvable = normal_block_of(c, &k);
            rc_w both = mask_and(mask_and(active[0], active[1]), solvable);
            solved = block_normal(c, &a, &b, &k, rebound, both);
            for (int round = 1; round < RESTITUTION_ROUNDS; ++round) {
                friction_where(c, &a, &b, solved);
                (void)block_normal(c, &a, &b, &k, rebound, solved);
            }
        }
        /* the rest point by point */
        for (int j = 0; j < points_of(s, i); ++j) {
            rc_wide_point *p = &c->points[j];
            rc_w alone = rc_w_select(solved, zero, active[j]);
            rc_w dvx, dvy;
            relative_velocity(&a, &b, p, &dvx, &dvy);
            rc_w v = dot(dvx, dvy, c->normal_x, c->normal_y);
            rc_w impulse = rc_w_mul(rc_w_sub(zero, p->normal_mass), rc_w_sub(v, rebound[j]));
            rc_w next = rc_w_max(rc_w_add(p->normal_impulse, impulse), zero);
            impulse = rc_w_sub(next, p->normal_impulse);
            apply_normal_where(c, p, &a, &b, alone, impulse, next);
        }
        scatter(states, c->store_a, &a);
        scatter(states, c->store_b, &b);
    }
}

/* The impulses back into the constraints, with what restitution and the caller read. */
static void store(rc_soft_step *s) {
    /* constraint by constraint, in their order (as pack filled the blocks): the writes go
       through memory in order, the reads jump between blocks */
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        rc_contact_constraint *k = &s->constraints[i];
        int lane;
        const rc_wide_constraint *c = &blocks_of(s)[block_of(s, i, &lane)];
        k->rolling_impulse = RC_LANE(c->rolling_impulse, lane);
        for (int j = 0; j < k->point_count; ++j) {
            k->points[j].normal_impulse = RC_LANE(c->points[j].normal_impulse, lane);
            k->points[j].tangent_impulse = RC_LANE(c->points[j].tangent_impulse, lane);
            k->points[j].max_normal_impulse = RC_LANE(c->points[j].max_normal_impulse, lane);
            k->points[j].relative_velocity = RC_LANE(c->relative_velocity[j], lane);
        }
        if (s->pushed != NULL && rc_constraint_pushed(k)) {
            if (k->a >= 0) {
                s->pushed[k->a] = 1;
            }
            if (k->b >= 0) {
                s->pushed[k->b] = 1;
            }
        }
    }
}

static inline rc_vec2 lane_vec(rc_w x, rc_w y, int lane) { return rc_v2(RC_LANE(x, lane), RC_LANE(y, lane)); }

/* The normals that are a turning kinematic body's face (rc_turning_constraint), turned with it
 * over a sub-step, and their points with them. Held over the step, a blade turning at 10 rad/s
 * let crates sliding out along it sink up to 0.12 into it, half its thickness and more.
 * - A point's separation is measured from the face as it turns: the solve's separation is the
 *   anchors' difference along the normal plus the base, which holds the centres' difference
 *   along the normal (rc_constraint_load): it follows the normal's turn.
 * - The face's anchor follows the other body's point as it slides along the face: the solve's
 *   velocities read the anchors as they were at the step's start, and the face's point under a
 *   crate sliding out along a blade moves faster the further out it is. The base changes by as
 *   much as the separation would, so the separation now is unchanged.
 * (n + turn h x n, normalised: the turn to within its cube, a few millionths of a radian a
 * sub-step at 20 rad/s.) */
static void turn_normals(rc_soft_step *s) {
    rc_wide_constraint *blocks = blocks_of(s);
    for (int32_t i = 0; i < s->turning_count; ++i) {
        const rc_turning_constraint *turning = &s->turning[i];
        const rc_contact_constraint *k = &s->constraints[turning->constraint];
        int lane;
        rc_wide_constraint *c = &blocks[block_of(s, turning->constraint, &lane)];
        float t = turning->turn * s->h, nx = RC_LANE(c->normal_x, lane), ny = RC_LANE(c->normal_y, lane);
        float scale = 1.0f / sqrtf(1.0f + t * t);
        rc_vec2 was = {nx, ny}, n = {(nx - t * ny) * scale, (ny + t * nx) * scale};
        RC_LANE(c->normal_x, lane) = n.x;
        RC_LANE(c->normal_y, lane) = n.y;
        const rc_body_state *sa = state_at(s->states, c->a[lane]), *sb = state_at(s->states, c->b[lane]);
        rc_vec2 moved = rc_sub(sb->dp, sa->dp); /* b's move less a's */
        for (int p = 0; p < k->point_count; ++p) {
            rc_wide_point *q = &c->points[p];
            float base = RC_LANE(q->base_separation, lane) + rc_dot(turning->apart, rc_sub(n, was));
            rc_vec2 ra = lane_vec(q->anchor_ax, q->anchor_ay, lane), rb = lane_vec(q->anchor_bx, q->anchor_by, lane);
            if (turning->side == 0) {
                /* a's anchor under b's point: b's centre from a's, and b's anchor as turned */
                rc_vec2 at = rc_add(rc_add(turning->apart, moved), k->round_b ? rb : rc_rotate(sb->dq, rb));
                base += rc_dot(rc_sub(rc_rotate(sa->dq, at), rc_rotate(sa->dq, ra)), n);
                RC_LANE(q->anchor_ax, lane) = at.x;
                RC_LANE(q->anchor_ay, lane) = at.y;
            } else {
                rc_vec2 at = rc_add(rc_sub(rc_neg(turning->apart), moved), k->round_a ? ra : rc_rotate(sa->dq, ra));
                base -= rc_dot(rc_sub(rc_rotate(sb->dq, at), rc_rotate(sb->dq, rb)), n);
                RC_LANE(q->anchor_bx, lane) = at.x;
                RC_LANE(q->anchor_by, lane) = at.y;
            }
            RC_LANE(q->base_separation, lane) = base;
            /* the masses along the turned normal: the other body's anchor crosses it otherwise
               than it crossed the normal they were found for, and a solve with the old masses
               overshot (a crate at 200 units/s past a blade's end, its anchor 1.8 from its
               centre along the normal: 5.8 times its mass along the turned one, and each of the
               restitution's passes threw it 4.8 times faster, to 141,000 units/s) */
            (void)set_point_masses(q, lane, k->inv_mass_a, k->inv_inertia_a, k->inv_mass_b, k->inv_inertia_b,
                                   lane_vec(q->anchor_ax, q->anchor_ay, lane), lane_vec(q->anchor_bx, q->anchor_by, lane),
                                   n);
        }
    }
}

/* ---- the soft step ---------------------------------------------------------------------------- */

/* The soft step at this file's width (s->lanes is RC_LANES). */
void SOFT_STEP_AT_WIDTH(rc_soft_step *s) {
    assert(s->lanes == RC_LANES);
    rc_body_state still = {{0.0f, 0.0f}, 0.0f, 0.0f, {0.0f, 0.0f}, {1.0f, 0.0f}};
    s->states[s->state_count] = still;
    s->states[s->state_count + 1] = still; /* the sink: written, never read */
    pack(s);
    if (s->joint_count > 0) {
        rc_joints_pack(s);
    }
    for (int32_t k = 0; k < s->sub_steps; ++k) {
        integrate_velocities(s);
        if (s->joint_count > 0) {
            rc_joints_warm_start(s);
        }
        warm_start(s);
        if (s->joint_count > 0) {
            rc_joints_solve(s, true);
        }
        solve(s, true);
        integrate_positions(s);
        if (s->turning_count > 0) {
            turn_normals(s); /* (where the turned faces now are, for the relax and the next sub-step) */
        }
        if (s->joint_count > 0) {
            rc_joints_solve(s, false);
        }
        solve(s, false);
    }
    restitution(s);
    store(s);
    if (s->joint_count > 0) {
        rc_joints_unpack(s);
    }
}

#ifdef RC_SOLVER_AVX512
size_t rc_solver_widest_block_bytes(void) { return sizeof(rc_wide_constraint); }
#elif defined(RC_SOLVER_AVX)
size_t rc_solver_wide_block_bytes(void) { return sizeof(rc_wide_constraint); }
#else
size_t rc_solver_narrow_block_bytes(void) { return sizeof(rc_wide_constraint); }
#endif
