/* Joints in the soft step (world/joint.h): each joint's constraint is made at the step's start
 * (anchors, the centres' offset, the angle, the softness), warm started and solved before the
 * contacts in each sub-step, one joint after another in the order of their slots (so that the
 * result depends only on the calls that made them). The rigid parts are soft constraints as
 * stiff as the step allows, pushed out only in the solve with bias and relaxed without it, as
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

/* The passes over every joint, in the order of their slots: in float where the joint's sizes
 * allow it (rc_joints_prepare says), in double where they do not. */
void rc_joints_warm_start(rc_soft_step *s) {
    for (int32_t k = 0; k < s->joint_count; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        if (c->wide) {
            rc_joint_warm_start_wide(s, c);
        } else {
            rc_joint_warm_start_narrow(s, c);
        }
    }
}

void rc_joints_solve(rc_soft_step *s, bool use_bias) {
    for (int32_t k = 0; k < s->joint_count; ++k) {
        rc_joint_constraint *c = &s->joints[k];
        if (c->wide) {
            rc_joint_solve_wide(s, c, use_bias);
        } else {
            rc_joint_solve_narrow(s, c, use_bias);
        }
    }
}
