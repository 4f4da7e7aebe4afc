/* Joints in the soft step (world/joint.h): each joint's constraint is made at the step's start
 * (anchors, the centres' offset, the angle, the softness), warm started and solved before the
 * contacts in each sub-step, colour by colour (rc_joints_prepare gives each joint, in the order
 * of their slots, the first colour neither of the bodies it moves has yet, so that the result
 * depends only on the calls that made them; those that find none come last, one after another
 * in the order of their slots). Within a colour no two joints move the same body: the order
 * there changes no result, and a colour's plain revolute joints (no spring, motor or limit: a
 * net, a chain of hinges, a ragdoll's loose joints) are solved four at a time in blocks, with
 * lane by lane the operations a joint alone gets (the same bits). Solved one after another in
 * the order of their slots, each joint waited for the one before to write their shared body
 * back: the joint grid of bench_solver took 1.4 times Box2D v3's time. The rigid parts are
 * soft constraints as stiff as the step allows, pushed out only in the solve with bias and relaxed without it, as
 * the contacts are; limits are speculative (a limit not yet reached lets the body come up to it
 * in this sub-step, no further); springs and motors as in Box2D v3.
 *
 * Float, and double where it must be. A joint's numbers span anchors across the world (to 2^60
 * units from the centre), inverse masses from 1/RC_MAX_MASS to 1/FLT_MIN, frequencies to
 * FLT_MAX: their products overflow a float. The passes (joint_passes.h) are built twice:
 * here, in float, and in joint_solver_wide.c (RC_JOINT_WIDE), in double; rc_joints_prepare
 * marks each joint whose sizes a float cannot hold `wide` (joint_step.c says which), and the
 * passes solve it in double. Either way the 2x2 solves use determinants written as sums of terms >= 0 (as
 * k11 k22 - k12^2, cancellation ruined them once an anchor was a thousand units from its
 * centre), and each solve reads the two sides' velocities once and writes them back once. A
 * float joint's sizes keep its numbers finite for velocities within the world's top speeds, and
 * its solves take the velocities held within them (the joints before it in the pass may have
 * pushed a body past them); a wide one's velocities go back held within the world's speed
 * limits (what the next sub-step's integration does anyway), so that whatever a joint is asked
 * stays finite. A side the joint does not move (static, kinematic, not in the
 * solver) is read and never written. */
#include "world/joint_passes.h"

#include "core/simd.h"
#include "world/state_lanes.h"

/* ---- plain revolute joints, four at a time ------------------------------------------------------ */

/* RC_JOINT_LANES plain revolute joints of one colour (rc_joint_is_plain), lane by lane: what
 * their point constraint reads. The passes below do, lane by lane, the float operations of
 * joint_passes.h's for such a joint, in the same order (no operation fused), so that a joint
 * has the same bits in a block as alone, on every instruction set. */
typedef struct joint_block {
    /* byte offsets of the states (state_lanes.h: rc_state_offset): read, the still state for a
       side out of the solver; written, the sink for a side not moved */
    uint32_t a[RC_LANES], b[RC_LANES];
    uint32_t store_a[RC_LANES], store_b[RC_LANES];
    rc_w ma, mb, ia, ib;
    rc_w anchor_ax, anchor_ay, anchor_bx, anchor_by;
    rc_w delta_x, delta_y;
    rc_w bias_rate, mass_scale, impulse_scale; /* the rigid softness */
    rc_w impulse_x, impulse_y;                 /* the accumulated linear impulse */
} joint_block;

_Static_assert(RC_LANES == RC_JOINT_LANES, "the joints' blocks have the lanes of core/simd.h");

static joint_block *blocks_of(const rc_soft_step *s) { return (joint_block *)(void *)s->joint_blocks; }

int32_t rc_joint_block_lines(int32_t blocks) {
    size_t bytes = sizeof(joint_block) * (size_t)blocks;
    return (int32_t)((bytes + sizeof(rc_solver_line) - 1u) / sizeof(rc_solver_line));
}

bool rc_joint_is_plain(const rc_joint_constraint *c) {
    /* (an axial impulse left from a feature turned off would be warm started: none, to the bit) */
    uint32_t bits[4];
    memcpy(&bits[0], &c->spring_impulse, sizeof bits[0]);
    memcpy(&bits[1], &c->motor_impulse, sizeof bits[1]);
    memcpy(&bits[2], &c->lower_impulse, sizeof bits[2]);
    memcpy(&bits[3], &c->upper_impulse, sizeof bits[3]);
    return c->type == RC_REVOLUTE_JOINT && !c->wide && !c->spring_on && !c->enable_motor && !c->enable_limit &&
           (bits[0] | bits[1] | bits[2] | bits[3]) == 0u;
}

static void pack_lane(rc_soft_step *s, joint_block *x, int lane, const rc_joint_constraint *c) {
    uint32_t still = rc_state_offset(s->state_count), sink = rc_state_offset(s->state_count + 1);
    x->a[lane] = c != NULL && c->a >= 0 ? rc_state_offset(c->a) : still;
    x->b[lane] = c != NULL && c->b >= 0 ? rc_state_offset(c->b) : still;
    x->store_a[lane] = c != NULL && c->moves_a ? rc_state_offset(c->a) : sink;
    x->store_b[lane] = c != NULL && c->moves_b ? rc_state_offset(c->b) : sink;
    static const rc_joint_constraint none; /* an empty lane: no mass, no arm, nothing to push */
    const rc_joint_constraint *j = c != NULL ? c : &none;
    RC_LANE(x->ma, lane) = j->ma;
    RC_LANE(x->mb, lane) = j->mb;
    RC_LANE(x->ia, lane) = j->ia;
    RC_LANE(x->ib, lane) = j->ib;
    RC_LANE(x->anchor_ax, lane) = j->anchor_a.x;
    RC_LANE(x->anchor_ay, lane) = j->anchor_a.y;
    RC_LANE(x->anchor_bx, lane) = j->anchor_b.x;
    RC_LANE(x->anchor_by, lane) = j->anchor_b.y;
    RC_LANE(x->delta_x, lane) = j->delta_center.x;
    RC_LANE(x->delta_y, lane) = j->delta_center.y;
    RC_LANE(x->bias_rate, lane) = j->hard.bias_rate;
    RC_LANE(x->mass_scale, lane) = j->hard.mass_scale;
    RC_LANE(x->impulse_scale, lane) = j->hard.impulse_scale;
    RC_LANE(x->impulse_x, lane) = j->linear_impulse.x;
    RC_LANE(x->impulse_y, lane) = j->linear_impulse.y;
}

void rc_joints_pack(rc_soft_step *s) {
    const rc_joint_runs *r = s->joint_runs;
    for (int32_t k = 0; k < RC_JOINT_COLORS; ++k) {
        for (int32_t n = 0; n < r->plain[k]; n += RC_LANES) {
            joint_block *x = &blocks_of(s)[r->block_start[k] + n / RC_LANES];
            for (int lane = 0; lane < RC_LANES; ++lane) {
                bool filled = n + lane < r->plain[k];
                pack_lane(s, x, lane, filled ? &s->joints[r->start[k] + n + lane] : NULL);
            }
        }
    }
}

void rc_joints_unpack(rc_soft_step *s) {
    const rc_joint_runs *r = s->joint_runs;
    for (int32_t k = 0; k < RC_JOINT_COLORS; ++k) {
        for (int32_t n = 0; n < r->plain[k]; ++n) {
            const joint_block *x = &blocks_of(s)[r->block_start[k] + n / RC_LANES];
            rc_joint_constraint *c = &s->joints[r->start[k] + n];
            c->linear_impulse = rc_v2(RC_LANE(x->impulse_x, n % RC_LANES), RC_LANE(x->impulse_y, n % RC_LANES));
        }
    }
}

/* held_within, lane by lane: most < x ? most : x, then x < -most ? -most : x (NaN stays NaN) */
static inline rc_w lanes_within(rc_w x, rc_w most) { return rc_w_max(rc_w_neg(most), rc_w_min(most, x)); }

/* rrotate: a side's turn so far applied to its anchor */
static inline void lanes_rotate(const wide_body *q, rc_w x, rc_w y, rc_w *rx, rc_w *ry) {
    *rx = rc_w_sub(rc_w_mul(q->qc, x), rc_w_mul(q->qs, y));
    *ry = rc_w_add(rc_w_mul(q->qs, x), rc_w_mul(q->qc, y));
}

/* apply_point: the impulse (px, py) at the anchors */
static inline void lanes_apply_point(const joint_block *x, wide_body *a, rc_w rax, rc_w ray, wide_body *b, rc_w rbx,
                                     rc_w rby, rc_w px, rc_w py) {
    a->vx = rc_w_sub(a->vx, rc_w_mul(x->ma, px));
    a->vy = rc_w_sub(a->vy, rc_w_mul(x->ma, py));
    a->w = rc_w_sub(a->w, rc_w_mul(x->ia, rc_w_sub(rc_w_mul(rax, py), rc_w_mul(ray, px))));
    b->vx = rc_w_add(b->vx, rc_w_mul(x->mb, px));
    b->vy = rc_w_add(b->vy, rc_w_mul(x->mb, py));
    b->w = rc_w_add(b->w, rc_w_mul(x->ib, rc_w_sub(rc_w_mul(rbx, py), rc_w_mul(rby, px))));
}

/* warm_start for a plain revolute joint: the carried impulse, and an axial one of +0 */
static void warm_start_block(rc_soft_step *s, joint_block *x) {
    wide_body a = gather(s->states, x->a), b = gather(s->states, x->b);
    rc_w rax, ray, rbx, rby, zero = rc_w_zero();
    lanes_rotate(&a, x->anchor_ax, x->anchor_ay, &rax, &ray);
    lanes_rotate(&b, x->anchor_bx, x->anchor_by, &rbx, &rby);
    lanes_apply_point(x, &a, rax, ray, &b, rbx, rby, x->impulse_x, x->impulse_y);
    a.w = rc_w_sub(a.w, rc_w_mul(x->ia, zero));
    b.w = rc_w_add(b.w, rc_w_mul(x->ib, zero));
    scatter(s->states, x->store_a, &a);
    scatter(s->states, x->store_b, &b);
}

/* held_speeds, then solve_point with the rigid softness (solve_revolute with no feature) */
static void solve_block(const rc_soft_step *s, joint_block *x, bool use_bias) {
    wide_body a = gather(s->states, x->a), b = gather(s->states, x->b);
    rc_w max = rc_w_set(s->max_speed), spin = rc_w_set(s->max_spin), zero = rc_w_zero();
    wide_body *sides[2] = {&a, &b};
    for (int k = 0; k < 2; ++k) {
        sides[k]->vx = lanes_within(sides[k]->vx, max);
        sides[k]->vy = lanes_within(sides[k]->vy, max);
        sides[k]->w = lanes_within(sides[k]->w, spin);
    }
    rc_w rax, ray, rbx, rby;
    lanes_rotate(&a, x->anchor_ax, x->anchor_ay, &rax, &ray);
    lanes_rotate(&b, x->anchor_bx, x->anchor_by, &rbx, &rby);
    rc_w vax = rc_w_add(a.vx, rc_w_mul(rc_w_neg(a.w), ray)), vay = rc_w_add(a.vy, rc_w_mul(a.w, rax));
    rc_w vbx = rc_w_add(b.vx, rc_w_mul(rc_w_neg(b.w), rby)), vby = rc_w_add(b.vy, rc_w_mul(b.w, rbx));
    rc_w cdx = rc_w_sub(vbx, vax), cdy = rc_w_sub(vby, vay);
    rc_w biasx = zero, biasy = zero, mass_scale = rc_w_set(1.0f), impulse_scale = zero;
    if (use_bias) {
        rc_w sx = rc_w_add(rc_w_add(rc_w_sub(b.dpx, a.dpx), rc_w_sub(rbx, rax)), x->delta_x);
        rc_w sy = rc_w_add(rc_w_add(rc_w_sub(b.dpy, a.dpy), rc_w_sub(rby, ray)), x->delta_y);
        biasx = rc_w_mul(x->bias_rate, sx);
        biasy = rc_w_mul(x->bias_rate, sy);
        mass_scale = x->mass_scale;
        impulse_scale = x->impulse_scale;
    }
    rc_w m = rc_w_add(x->ma, x->mb);
    rc_w k11 = rc_w_add(rc_w_add(m, rc_w_mul(rc_w_mul(ray, ray), x->ia)), rc_w_mul(rc_w_mul(rby, rby), x->ib));
    rc_w k12 = rc_w_sub(rc_w_mul(rc_w_mul(rc_w_neg(ray), rax), x->ia), rc_w_mul(rc_w_mul(rby, rbx), x->ib));
    rc_w k22 = rc_w_add(rc_w_add(m, rc_w_mul(rc_w_mul(rax, rax), x->ia)), rc_w_mul(rc_w_mul(rbx, rbx), x->ib));
    rc_w cross = rc_w_sub(rc_w_mul(rax, rby), rc_w_mul(ray, rbx));
    rc_w dot_a = rc_w_add(rc_w_mul(rax, rax), rc_w_mul(ray, ray));
    rc_w dot_b = rc_w_add(rc_w_mul(rbx, rbx), rc_w_mul(rby, rby));
    rc_w det = rc_w_add(rc_w_add(rc_w_mul(m, m), rc_w_mul(m, rc_w_add(rc_w_mul(x->ia, dot_a), rc_w_mul(x->ib, dot_b)))),
                        rc_w_mul(rc_w_mul(rc_w_mul(x->ia, x->ib), cross), cross));
    /* solve22: K^-1 (cdot + bias), 0 where K is singular (an empty lane) */
    rc_w bx = rc_w_add(cdx, biasx), by = rc_w_add(cdy, biasy);
    rc_w solvable = rc_w_gt(det, zero), inv = rc_w_div(rc_w_set(1.0f), det);
    rc_w xx = rc_w_mul(inv, rc_w_sub(rc_w_mul(k22, bx), rc_w_mul(k12, by)));
    rc_w xy = rc_w_mul(inv, rc_w_sub(rc_w_mul(k11, by), rc_w_mul(k12, bx)));
    xx = rc_w_select(solvable, xx, zero);
    xy = rc_w_select(solvable, xy, zero);
    rc_w neg_scale = rc_w_neg(mass_scale);
    rc_w px = rc_w_sub(rc_w_mul(neg_scale, xx), rc_w_mul(impulse_scale, x->impulse_x));
    rc_w py = rc_w_sub(rc_w_mul(neg_scale, xy), rc_w_mul(impulse_scale, x->impulse_y));
    rc_w most = rc_w_set(JOINT_NARROW_MAX_IMPULSE);
    x->impulse_x = lanes_within(rc_w_add(x->impulse_x, px), most);
    x->impulse_y = lanes_within(rc_w_add(x->impulse_y, py), most);
    lanes_apply_point(x, &a, rax, ray, &b, rbx, rby, px, py);
    scatter(s->states, x->store_a, &a);
    scatter(s->states, x->store_b, &b);
}

/* ---- the passes ----------------------------------------------------------------------------------- */

/* Joints [from, to) one after another: in float where the joint's sizes allow it
 * (rc_joints_prepare says), in double where they do not. */
static void warm_start_alone(rc_soft_step *s, int32_t from, int32_t to) {
    for (int32_t k = from; k < to; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        if (c->wide) {
            rc_joint_warm_start_wide(s, c);
        } else {
            rc_joint_warm_start_narrow(s, c);
        }
    }
}

static void solve_alone(rc_soft_step *s, int32_t from, int32_t to, bool use_bias) {
    for (int32_t k = from; k < to; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        if (c->wide) {
            rc_joint_solve_wide(s, c, use_bias);
        } else {
            rc_joint_solve_narrow(s, c, use_bias);
        }
    }
}

/* Colour by colour, each colour's blocks and then its other joints; then the joints no colour
 * took, in the order of their slots. */
void rc_joints_warm_start(rc_soft_step *s) {
    const rc_joint_runs *r = s->joint_runs;
    for (int32_t k = 0; k < RC_JOINT_COLORS; ++k) {
        for (int32_t b = r->block_start[k]; b < r->block_start[k + 1]; ++b) {
            warm_start_block(s, &blocks_of(s)[b]);
        }
        warm_start_alone(s, r->start[k] + r->plain[k], r->start[k + 1]);
    }
    warm_start_alone(s, r->start[RC_JOINT_COLORS], r->start[RC_JOINT_COLORS + 1]);
}

void rc_joints_solve(rc_soft_step *s, bool use_bias) {
    const rc_joint_runs *r = s->joint_runs;
    for (int32_t k = 0; k < RC_JOINT_COLORS; ++k) {
        for (int32_t b = r->block_start[k]; b < r->block_start[k + 1]; ++b) {
            solve_block(s, &blocks_of(s)[b], use_bias);
        }
        solve_alone(s, r->start[k] + r->plain[k], r->start[k + 1], use_bias);
    }
    solve_alone(s, r->start[RC_JOINT_COLORS], r->start[RC_JOINT_COLORS + 1], use_bias);
}
