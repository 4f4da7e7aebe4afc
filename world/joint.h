/* world/joint.h: joints (joint.c: the records behind rc_joint_id, their making, checking and
 * undoing; joint_access.c: getters and setters; joint_step.c: waking, the step's constraints and
 * their impulses kept; joint_solver.c and joint_solver_wide.c: the constraints in the soft step,
 * in float and in double, from the passes of joint_passes.h).
 *
 * Owns: the joint records (the world's slot array and id pool hold them), each body's list of
 * its joints (rc_body.first_joint, and the two edges of each joint: rebuilt from the joints
 * after a restore, never saved), the map of body pairs that may not collide (a joint with
 * collide_connected false), and one step's joint constraints.
 *
 * In the step (step.c): rc_joints_wake wakes a sleeping body jointed to an awake one before
 * the step lists its bodies; rc_joints_prepare makes the constraints once the solver's bodies
 * have their slots; the soft step warm starts and solves them before the contacts in each
 * sub-step (solver.h); rc_joints_commit keeps their impulses once the step cannot fail. */
#ifndef RICOCHET_WORLD_JOINT_H
#define RICOCHET_WORLD_JOINT_H

#include <ricochet/joint.h>

#include <float.h>
#include <stdbool.h>
#include <stdint.h>

#include "world/solver.h"

/* One end of a joint in its body's list of joints. */
typedef struct rc_joint_edge {
    int32_t body;       /* the body's index; -1 for a mouse joint's world side */
    int32_t prev, next; /* joint indices in that body's list, -1 at the ends */
} rc_joint_edge;

typedef struct rc_joint {
    bool in_use;
    uint8_t type; /* rc_joint_type */
    bool collide_connected;
    bool enable_limit, enable_motor, enable_spring;
    uint32_t generation;
    rc_joint_edge edge[2]; /* [0]: body_a, [1]: body_b */
    rc_vec2 local_anchor[2]; /* from each body's origin, in its frame */
    rc_vec2 local_axis_a;    /* prismatic: unit, in body_a's frame */
    float reference_angle;   /* the angle_b - angle_a a revolute joint measures from, a prismatic
                                and a weld hold */
    float lower, upper;      /* revolute: angles; prismatic: translations; distance: lengths */
    float length;            /* distance: the rod's, the spring's rest length */
    float motor_speed, max_motor; /* a torque (revolute) or a force */
    float hertz, damping_ratio;   /* the spring (weld, mouse: the linear one) */
    float angular_hertz, angular_damping_ratio; /* weld */
    float max_force;         /* mouse */
    rc_vec2 target;          /* mouse: in the world */
    /* the last step's accumulated impulses (warm start), and what the reaction getters read */
    rc_vec2 linear_impulse;  /* the point (revolute, weld, mouse); prismatic: (across the axis,
                                angular); distance: (along, 0) */
    float angular_impulse;   /* weld, mouse */
    float spring_impulse, motor_impulse, lower_impulse, upper_impulse;
    rc_vec2 reaction_force; /* on body_b in the last step's last sub-step */
    float reaction_torque;
    void *user_data;
} rc_joint;

/* The rigid parts' softness: JOINT_HARD_STIFFNESS times the step's contact frequency, heavily
 * damped; a mouse joint's gentle damping of the dragged body's spin. */
#define JOINT_HARD_STIFFNESS 2.0f
#define JOINT_HARD_DAMPING 2.0f
#define MOUSE_SPIN_HERTZ 0.5f
#define MOUSE_SPIN_DAMPING 0.1f
/* The most an accumulated impulse holds (joint_passes.h says why); times the largest inverse
 * mass a float joint has (2^20, joint_step.c) it stays a float. */
#define JOINT_MAX_IMPULSE 1.0e30f
/* The most a float joint's accumulated impulse holds (and carries into a float step: more, and
 * the joint is solved in double). A float joint's largest warm start term, an inverse inertia of
 * 2^20 times an arm of 2^25 times this, stays below 2^107, and the warm start only sums such
 * terms; a float joint's own impulses stay far below it (2^20 kg times the world's top speed). */
#define JOINT_NARROW_MAX_IMPULSE 0x1p62f

/* A double held within the float range (a joint's numbers that go back to floats). */
static inline float rc_float_within(double x) {
    return x > FLT_MAX ? FLT_MAX : (x < -FLT_MAX ? -FLT_MAX : (float)x);
}

/* Body b's angle less body a's as the joints measure it: the float difference (held within the
 * float range: bodies at angles near +-FLT_MAX), so that a joint made now is at its reference
 * exactly; the reference is then taken from it in double. */
static inline float rc_joint_turn(float angle_b, float angle_a) {
    return rc_float_within((double)angle_b - angle_a);
}

/* Joints are solved colour by colour (joint_step.c): within a colour no two move the same body,
 * so the order within a colour changes no result, and the plain revolute joints of a colour
 * (rc_joint_is_plain) are solved four at a time (joint_solver.c). Those that find no colour
 * free come last, one after another in the order of their slots. */
#define RC_JOINT_COLORS 24
#define RC_JOINT_LANES 4

/* Where the step's joint constraints lie, colour by colour: colour k's are
 * [start[k], start[k + 1]), the first plain[k] of them plain revolute joints, in blocks from
 * block_start[k]; those no colour took are [start[RC_JOINT_COLORS], start[RC_JOINT_COLORS + 1]). */
typedef struct rc_joint_runs {
    int32_t start[RC_JOINT_COLORS + 2];
    int32_t plain[RC_JOINT_COLORS];
    int32_t block_start[RC_JOINT_COLORS + 1];
} rc_joint_runs;

/* A joint in one step's soft step: which solver states it joins, and what the step's start
 * gives it. A side that is not in the solver, or does not move (static, kinematic: inverse
 * mass 0), is never written. */
typedef struct rc_joint_constraint {
    int32_t index;             /* the joint's slot */
    /* the joint's settings the passes read, copied here so that they touch no joint record */
    uint8_t type;              /* rc_joint_type */
    bool enable_limit, enable_motor, enable_spring;
    bool spring_on;            /* a spring with a frequency (revolute, distance, prismatic) */
    bool linear_soft, angular_soft; /* weld: a linear or angular frequency above 0 */
    bool wide;                 /* solved in double: sizes a float cannot hold (joint_step.c) */
    float lower, upper, length, motor_speed;
    float max_force_impulse;   /* mouse: its force over a sub-step */
    int32_t a, b;              /* solver states, -1: a side that is not in the solver */
    bool moves_a, moves_b;     /* the joint moves that side (a dynamic body in the solver) */
    float ma, mb, ia, ib;      /* inverse masses and inertias (0 for a side that is not moved) */
    rc_vec2 anchor_a, anchor_b; /* from each centre of mass to its anchor, in the world, at the start */
    rc_vec2 delta_center;      /* centre of b less centre of a (mouse: less the target), at the start */
    double delta_angle;        /* angle_b - angle_a - reference_angle at the start */
    rc_vec2 axis_a;            /* prismatic: the axis in the world at the start */
    float axial_mass;          /* 1 / (ia + ib), or along the axis (distance, prismatic) */
    rc_softness spring;        /* the spring (weld, mouse: linear) */
    rc_softness angular;       /* weld, mouse: the angular spring */
    rc_softness hard;          /* the rigid parts: as stiff as the step allows */
    float max_motor_impulse;   /* per sub-step */
    rc_vec2 linear_impulse;    /* the accumulated impulses (held within the float range) */
    float angular_impulse, spring_impulse, motor_impulse, lower_impulse, upper_impulse;
} rc_joint_constraint;

/* A body rc_joints_wake woke, and its rest time before. */
typedef struct rc_joint_wake {
    int32_t body;
    float sleep_time;
} rc_joint_wake;

/* The soft step's part (joint_solver.c): the blocks packed at its start, the passes each
 * sub-step, the blocks' impulses back into the constraints at its end. */
void rc_joints_pack(rc_soft_step *s);
void rc_joints_warm_start(rc_soft_step *s);
void rc_joints_solve(rc_soft_step *s, bool use_bias);
void rc_joints_unpack(rc_soft_step *s);
/* Is the joint a revolute joint with no spring, motor or limit (and none of their impulses),
 * in float: solved in the lanes? */
bool rc_joint_is_plain(const rc_joint_constraint *c);
/* The 64-byte lines that `blocks` blocks of joints take. */
int32_t rc_joint_block_lines(int32_t blocks);
/* The most blocks the joints of `joints` slots may need. */
static inline int32_t rc_joint_blocks_for(int32_t joints) { return joints / RC_JOINT_LANES + RC_JOINT_COLORS; }
/* One joint's passes in double (joint_solver_wide.c), for a joint marked wide. */
void rc_joint_warm_start_wide(rc_soft_step *s, rc_joint_constraint *c);
void rc_joint_solve_wide(rc_soft_step *s, rc_joint_constraint *c, bool use_bias);

struct rc_world;
struct rc_body;
/* Wake every sleeping dynamic body jointed to an awake body that moves (before the step lists
 * its bodies), noting each in the world's joint_woken list so that a failed step puts it back
 * to sleep. */
void rc_joints_wake(struct rc_world *world);
/* Put back to sleep what rc_joints_wake woke (a failed step). */
void rc_joints_unwake(struct rc_world *world);
/* The step's joint constraints, once the solver's bodies have slots (their room is reserved
 * with the step's scratch). */
void rc_joints_prepare(struct rc_world *world, const rc_soft_step *step);
/* Keep the step's impulses in the joints (the step cannot fail any more). */
void rc_joints_commit(struct rc_world *world, float h);
/* Mark the solver bodies held by a joint (step.c's held: a swept body follows the solver). */
void rc_joints_mark_held(struct rc_world *world, uint8_t *held);
/* Destroy every joint of the body (rc_body_destroy), waking the other bodies. */
void rc_body_destroy_joints(struct rc_world *world, int32_t body);
/* May the two bodies' shapes collide, as far as joints say? */
bool rc_joints_allow_collision(const struct rc_world *world, int32_t body_a, int32_t body_b);
/* The joint behind an id, or NULL after recording why (for a change: also refused while the
 * world is locked; typed: also a joint of another type). */
rc_joint *rc_get_joint(const struct rc_world *world, rc_joint_id id, const char *func);
rc_joint *rc_joint_for_change(struct rc_world *world, rc_joint_id id, const char *func);
rc_joint *rc_typed_joint(const struct rc_world *world, rc_joint_id id, rc_joint_type type, bool change,
                         const char *func);
/* Checks of a joint's settings, recording why they fail. */
bool rc_joint_spring_ok(struct rc_world *world, float hertz, float damping_ratio, const char *func);
bool rc_joint_motor_ok(struct rc_world *world, float speed, float max, const char *func);
bool rc_joint_range_ok(struct rc_world *world, float lower, float upper, const char *what, const char *func);
/* Wake the joint's bodies (a setter changed it). */
void rc_joint_wake_bodies(struct rc_world *world, const rc_joint *joint);
/* Rebuild each body's list of joints and the pair map from the joint records (after a restore);
 * false when memory runs out for the map. */
bool rc_joints_relink(struct rc_world *world);

#endif
