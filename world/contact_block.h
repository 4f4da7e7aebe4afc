/* world/contact_block.h: the lane operations of the contact solver's passes (world/contact_solver.c
 * alone includes it, at either width, after world/contact_lanes.h's simd header): impulses at a
 * point's anchors, relative velocities, and a two-point contact's normal impulses solved
 * together (block_normal), which the restitution pass and the speculative solve share. */
#ifndef RICOCHET_WORLD_CONTACT_BLOCK_H
#define RICOCHET_WORLD_CONTACT_BLOCK_H

#include "world/contact_lanes.h"

#include <float.h>

static inline rc_w cross(rc_w ax, rc_w ay, rc_w bx, rc_w by) { return rc_w_sub(rc_w_mul(ax, by), rc_w_mul(ay, bx)); }
static inline rc_w dot(rc_w ax, rc_w ay, rc_w bx, rc_w by) { return rc_w_add(rc_w_mul(ax, bx), rc_w_mul(ay, by)); }

/* Masks: a and b. */
static inline rc_w mask_and(rc_w a, rc_w b) { return rc_w_select(a, b, rc_w_zero()); }

/* The impulse (px, py) at anchors ra, rb: a loses it, b gains it. */
static inline void apply(const rc_wide_constraint *c, wide_body *a, wide_body *b, rc_w rax, rc_w ray, rc_w rbx,
                         rc_w rby, rc_w px, rc_w py) {
    a->vx = rc_w_sub(a->vx, rc_w_mul(c->inv_mass_a, px));
    a->vy = rc_w_sub(a->vy, rc_w_mul(c->inv_mass_a, py));
    a->w = rc_w_sub(a->w, rc_w_mul(c->inv_inertia_a, cross(rax, ray, px, py)));
    b->vx = rc_w_add(b->vx, rc_w_mul(c->inv_mass_b, px));
    b->vy = rc_w_add(b->vy, rc_w_mul(c->inv_mass_b, py));
    b->w = rc_w_add(b->w, rc_w_mul(c->inv_inertia_b, cross(rbx, rby, px, py)));
}

/* The normal velocity of b relative to a at the anchors, split in x and y. */
static inline void relative_velocity(const wide_body *a, const wide_body *b, const rc_wide_point *p, rc_w *dvx,
                                     rc_w *dvy) {
    /* v + w x r = (vx - w ry, vy + w rx) */
    rc_w vax = rc_w_sub(a->vx, rc_w_mul(a->w, p->anchor_ay)), vay = rc_w_add(a->vy, rc_w_mul(a->w, p->anchor_ax));
    rc_w vbx = rc_w_sub(b->vx, rc_w_mul(b->w, p->anchor_by)), vby = rc_w_add(b->vy, rc_w_mul(b->w, p->anchor_bx));
    *dvx = rc_w_sub(vbx, vax);
    *dvy = rc_w_sub(vby, vay);
}

/* The impulse (px, py) at point p's anchors, only where mask is set (apply, lane by lane). */
static inline void apply_where(const rc_wide_constraint *c, const rc_wide_point *p, wide_body *a, wide_body *b,
                               rc_w mask, rc_w px, rc_w py) {
    wide_body na = *a, nb = *b;
    apply(c, &na, &nb, p->anchor_ax, p->anchor_ay, p->anchor_bx, p->anchor_by, px, py);
    a->vx = rc_w_select(mask, na.vx, a->vx);
    a->vy = rc_w_select(mask, na.vy, a->vy);
    a->w = rc_w_select(mask, na.w, a->w);
    b->vx = rc_w_select(mask, nb.vx, b->vx);
    b->vy = rc_w_select(mask, nb.vy, b->vy);
    b->w = rc_w_select(mask, nb.w, b->w);
}

/* The impulse at point p's anchors along the normal, where mask is set: its velocities and
 * accumulated impulse (next) kept, the largest push of the step with them. */
static inline void apply_normal_where(const rc_wide_constraint *c, rc_wide_point *p, wide_body *a, wide_body *b,
                                      rc_w mask, rc_w impulse, rc_w next) {
    p->normal_impulse = rc_w_select(mask, next, p->normal_impulse);
    p->max_normal_impulse = rc_w_select(mask, rc_w_max(p->max_normal_impulse, impulse), p->max_normal_impulse);
    apply_where(c, p, a, b, mask, rc_w_mul(impulse, c->normal_x), rc_w_mul(impulse, c->normal_y));
}

/* A two-point contact's normal system, K x + b >= 0 with x >= 0. */
typedef struct normal_block {
    rc_w k11, k12, k22, inv_det;
} normal_block;

/* The two points together: K, the normal velocities' change per unit of impulse at each (rna,
 * rnb: each point's anchors crossed with the normal). Returns where it can be solved: its
 * condition at most 1000 (so its determinant is > 0) and the determinant's inverse a float. */
static rc_w normal_block_of(const rc_wide_constraint *c, normal_block *k) {
    rc_w rna[2], rnb[2];
    for (int j = 0; j < 2; ++j) {
        const rc_wide_point *p = &c->points[j];
        rna[j] = cross(p->anchor_ax, p->anchor_ay, c->normal_x, c->normal_y);
        rnb[j] = cross(p->anchor_bx, p->anchor_by, c->normal_x, c->normal_y);
    }
    rc_w m = rc_w_add(c->inv_mass_a, c->inv_mass_b);
    k->k11 = rc_w_add(m, rc_w_add(rc_w_mul(c->inv_inertia_a, rc_w_mul(rna[0], rna[0])),
                                  rc_w_mul(c->inv_inertia_b, rc_w_mul(rnb[0], rnb[0]))));
    k->k22 = rc_w_add(m, rc_w_add(rc_w_mul(c->inv_inertia_a, rc_w_mul(rna[1], rna[1])),
                                  rc_w_mul(c->inv_inertia_b, rc_w_mul(rnb[1], rnb[1]))));
    k->k12 = rc_w_add(m, rc_w_add(rc_w_mul(c->inv_inertia_a, rc_w_mul(rna[0], rna[1])),
                                  rc_w_mul(c->inv_inertia_b, rc_w_mul(rnb[0], rnb[1]))));
    rc_w det = rc_w_sub(rc_w_mul(k->k11, k->k22), rc_w_mul(k->k12, k->k12));
    rc_w kmax = rc_w_max(k->k11, k->k22);
    rc_w ok = rc_w_gt(rc_w_mul(rc_w_set(1000.0f), det), rc_w_mul(kmax, kmax));
    k->inv_det = rc_w_zero();
    for (int lane = 0; lane < RC_LANES; ++lane) {
        float d = RC_LANE(det, lane); /* one correctly rounded division a lane, as in every lane */
        RC_LANE(k->inv_det, lane) = d > 0.0f ? 1.0f / d : 0.0f;
    }
    return mask_and(ok, rc_w_gt(rc_w_set(FLT_MAX), k->inv_det)); /* (a det too small to invert) */
}

/* One solve of both points' normal impulses together where mask is set, towards the normal
 * velocities `target` (K x + b >= 0 with x >= 0, x the accumulated impulses: both push, one, or
 * neither): returns where one of the four cases held (and was applied). The restitution's
 * rebound, or a speculative pair's closing no faster than its gaps (solve_normal). */
static rc_w block_normal(rc_wide_constraint *c, wide_body *a, wide_body *b, const normal_block *k,
                              const rc_w target[2], rc_w mask) {
    rc_w zero = rc_w_zero(), vn[2];
    for (int j = 0; j < 2; ++j) {
        rc_w dvx, dvy;
        relative_velocity(a, b, &c->points[j], &dvx, &dvy);
        vn[j] = dot(dvx, dvy, c->normal_x, c->normal_y);
    }
    rc_w a1 = c->points[0].normal_impulse, a2 = c->points[1].normal_impulse;
    /* K x + b: each point's velocity less its target, as a function of the accumulated x */
    rc_w b1 = rc_w_sub(rc_w_sub(vn[0], target[0]), rc_w_add(rc_w_mul(k->k11, a1), rc_w_mul(k->k12, a2)));
    rc_w b2 = rc_w_sub(rc_w_sub(vn[1], target[1]), rc_w_add(rc_w_mul(k->k12, a1), rc_w_mul(k->k22, a2)));
    /* both push: x = -K^-1 b */
    rc_w x1 = rc_w_mul(rc_w_sub(rc_w_mul(k->k12, b2), rc_w_mul(k->k22, b1)), k->inv_det);
    rc_w x2 = rc_w_mul(rc_w_sub(rc_w_mul(k->k12, b1), rc_w_mul(k->k11, b2)), k->inv_det);
    rc_w ok = mask_and(rc_w_ge(x1, zero), rc_w_ge(x2, zero));
    /* only the first: the second leaves at least at its target */
    rc_w y1 = rc_w_mul(rc_w_sub(zero, b1), c->points[0].normal_mass);
    rc_w ok1 = mask_and(rc_w_ge(y1, zero), rc_w_ge(rc_w_add(rc_w_mul(k->k12, y1), b2), zero));
    /* only the second */
    rc_w y2 = rc_w_mul(rc_w_sub(zero, b2), c->points[1].normal_mass);
    rc_w ok2 = mask_and(rc_w_ge(y2, zero), rc_w_ge(rc_w_add(rc_w_mul(k->k12, y2), b1), zero));
    /* neither */
    rc_w ok0 = mask_and(rc_w_ge(b1, zero), rc_w_ge(b2, zero));
    /* the first case that holds, in that order (a comparison with a NaN holds in none) */
    rc_w s1 = rc_w_select(ok0, zero, a1), s2 = rc_w_select(ok0, zero, a2);
    s1 = rc_w_select(ok2, zero, s1);
    s2 = rc_w_select(ok2, y2, s2);
    s1 = rc_w_select(ok1, y1, s1);
    s2 = rc_w_select(ok1, zero, s2);
    s1 = rc_w_select(ok, x1, s1);
    s2 = rc_w_select(ok, x2, s2);
    rc_w solved = mask_and(mask, rc_w_or(rc_w_or(ok, ok1), rc_w_or(ok2, ok0)));
    /* and finite (bodies of extreme masses and materials: point by point then, as before) */
    rc_w most = rc_w_set(FLT_MAX);
    solved = mask_and(solved, mask_and(rc_w_ge(most, s1), rc_w_ge(most, s2)));
    /* both impulses from the same velocities: the first's, then the second's */
    apply_normal_where(c, &c->points[0], a, b, solved, rc_w_sub(s1, a1), s1);
    apply_normal_where(c, &c->points[1], a, b, solved, rc_w_sub(s2, a2), s2);
    return solved;
}

#endif
