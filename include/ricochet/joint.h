/* ricochet: joint.h
 * Joints connect two bodies (or a body and a point of the world, for the mouse joint) on the
 * contact solver: a hinged door (revolute), a rod, spring or rope (distance), a sliding gate
 * (prismatic), welded debris (weld), a body dragged by the mouse (mouse).
 *
 * Every joint is solved in each sub-step of the soft step, before the contacts (so that a
 * contact sees where the joints hold the bodies), warm started from the last step's impulses.
 * Its hard parts (a hinge's point, a weld, a prismatic's axis, a rigid distance) are soft
 * constraints as stiff as the step allows (twice the world's contact_hertz as the step caps it,
 * world.h; heavily damped): a chain of links does not stretch visibly and never explodes.
 * Springs, motors and limits are solved as Box2D v3 solves them (Erin Catto, "Solver2D").
 *
 * Bodies. A joint connects body_a and body_b, two live bodies of the world, not the same, not
 * both without mass (static or kinematic: there would be nothing to move). It acts only on a
 * dynamic body that responds (enable_response) and is in the solver: a static or kinematic
 * side is an immovable one (a kinematic side moves the joint with its motion). A jointed body
 * and what it is jointed to sleep and wake together (one island); making a joint, or
 * destroying one, wakes both bodies. A swept body (a grenade, a bullet) that is jointed moves
 * as the solver moves it, like a swept body held by a contact. Destroying a body destroys its
 * joints (no event: the game that destroys a body knows its joints).
 *
 * Anchors. local_anchor_a and local_anchor_b are points in each body's own frame (from the
 * body origin, not the centre of mass), as rc_body_transform places them. The joint holds
 * them together (revolute, weld), at a distance (distance), or on a line (prismatic).
 *
 * Angles. A revolute joint's angle is the turn of body_b relative to body_a since the joint
 * was made (0 then), counter-clockwise positive, unbounded (a wheel that turns twice is at
 * 4 pi); its limits bound that angle. A prismatic joint holds the bodies' relative angle where
 * it was when the joint was made (where neither body can be turned, having no rotational
 * inertia, it asks no torque: its reaction torque is 0). A weld holds angle_b - angle_a at
 * reference_angle.
 *
 * Collisions. With collide_connected false (the default) the shapes of the two bodies do not
 * collide with each other while the joint exists: no contact, no events (a hinge's door
 * overlaps its frame). Two joints between the same bodies: they collide only if every joint
 * between them lets them.
 *
 * Forces. rc_joint_reaction_force and rc_joint_reaction_torque give what the joint applied to
 * body_b in the last step's last sub-step (newtons and newton-metres in the world's units), so
 * that a game can break a joint over a threshold.
 *
 * Sizes. Any value a def or setter accepts keeps every body finite: anchors anywhere within
 * RC_WORLD_LIMIT (pixel units: arms of thousands of units hold as well as arms of one), masses
 * from FLT_MIN to RC_MAX_MASS, any finite frequency, damping ratio, limit, speed and maximum (a
 * joint whose sizes a float cannot hold, or whose arms reach far beyond its bodies' radii of
 * gyration, is solved in double precision). A spring stiffer than a sub-step can resolve is the rigid
 * constraint; a joint never moves a body faster than the world's max_linear_speed and
 * max_angular_speed (a limit far out of reach drives its body at those speeds); reaction forces
 * and torques are held within +-FLT_MAX. Bodies whose angles differ by more than FLT_MAX (about
 * 3.4e38 rad) have a revolute angle that is finite but not exact.
 *
 * Errors. Every function validates its input: a bad def (a stale, foreign or null body, the
 * same body twice, two bodies without mass, a value that is not finite, a negative length,
 * frequency, damping ratio or maximum force or torque, lower above upper) returns the null id
 * (a setter: false), records a message (rc_world_last_error) and changes nothing. A joint
 * function on a stale or foreign id does the same. Joints cannot be made or destroyed while
 * the world is locked (during a step's callbacks). Allocation failure leaves the world as it
 * was. */
#ifndef RICOCHET_JOINT_H
#define RICOCHET_JOINT_H

#include "base.h"
#include "id.h"
#include "math.h"

RC_EXTERN_C_BEGIN

typedef struct rc_world rc_world;

/* A joint handle, generation-checked as body and shape ids are (id.h). {0, 0} is null. */
typedef struct rc_joint_id {
    uint32_t index, generation;
} rc_joint_id;

#define RC_NULL_JOINT_ID ((rc_joint_id){0u, 0u})

/* The longest distance joint, and the most its limits reach (1e15 units: squares stay floats). */
#define RC_JOINT_MAX_LENGTH 1.0e15f

RC_INLINE bool rc_joint_id_is_null(rc_joint_id id) { return id.index == 0u && id.generation == 0u; }
RC_INLINE bool rc_joint_id_equals(rc_joint_id a, rc_joint_id b) {
    return a.index == b.index && a.generation == b.generation;
}

typedef enum rc_joint_type {
    RC_REVOLUTE_JOINT,
    RC_DISTANCE_JOINT,
    RC_PRISMATIC_JOINT,
    RC_WELD_JOINT,
    RC_MOUSE_JOINT
} rc_joint_type;

/* A hinge: the two anchors held at one point, body_b turning freely about it relative to
 * body_a, within limits, driven by a motor, or pulled back to angle 0 by a spring. */
typedef struct rc_revolute_joint_def {
    rc_body_id body_a, body_b;
    rc_vec2 local_anchor_a, local_anchor_b; /* default (0, 0) */
    bool enable_limit;                      /* default false */
    float lower_angle, upper_angle;         /* radians, lower <= upper; default 0, 0 */
    bool enable_motor;                      /* default false */
    float motor_speed;                      /* rad/s the motor drives angle at */
    float max_motor_torque;                 /* >= 0; default 0 */
    bool enable_spring;                     /* default false */
    float hertz;                            /* the spring's frequency, >= 0 (0: no spring force) */
    float damping_ratio;                    /* >= 0 */
    bool collide_connected;                 /* default false */
    void *user_data;
} rc_revolute_joint_def;

/* A rod, a spring or a rope between the anchors. enable_spring false: a rigid rod of length.
 * enable_spring true: a spring of rest length `length` and frequency hertz (0: no spring
 * force: with a limit, a rope or a slack chain). enable_limit: the distance is held within
 * [min_length, max_length] whatever the spring does. enable_motor: drives the distance's rate
 * of change to motor_speed with at most max_motor_force. */
typedef struct rc_distance_joint_def {
    rc_body_id body_a, body_b;
    rc_vec2 local_anchor_a, local_anchor_b;
    float length;                  /* > 0, at most RC_JOINT_MAX_LENGTH; default 1 */
    bool enable_limit;             /* default false */
    float min_length, max_length;  /* 0 <= min <= max <= RC_JOINT_MAX_LENGTH; default 0 and the most */
    bool enable_spring;            /* default false */
    float hertz, damping_ratio;    /* >= 0 */
    bool enable_motor;             /* default false */
    float max_motor_force;         /* >= 0 */
    float motor_speed;             /* units/s, positive lengthens */
    bool collide_connected;
    void *user_data;
} rc_distance_joint_def;

/* A slider: body_b moves relative to body_a along local_axis_a (in body_a's frame) through
 * the anchor, without turning relative to it; its translation (0 when the anchors coincide)
 * within limits, driven by a motor, or pulled back to 0 by a spring. */
typedef struct rc_prismatic_joint_def {
    rc_body_id body_a, body_b;
    rc_vec2 local_anchor_a, local_anchor_b;
    rc_vec2 local_axis_a;                      /* not zero (normalised here); default (1, 0) */
    bool enable_limit;
    float lower_translation, upper_translation; /* lower <= upper */
    bool enable_motor;
    float motor_speed;                         /* units/s along the axis */
    float max_motor_force;                     /* >= 0 */
    bool enable_spring;
    float hertz, damping_ratio;                /* >= 0 */
    bool collide_connected;
    void *user_data;
} rc_prismatic_joint_def;

/* The anchors held together and angle_b - angle_a held at reference_angle: rigid where a
 * frequency is 0 (as stiff as the step allows), a spring where it is above 0. */
typedef struct rc_weld_joint_def {
    rc_body_id body_a, body_b;
    rc_vec2 local_anchor_a, local_anchor_b;
    float reference_angle;                            /* radians; default 0 */
    float linear_hertz, angular_hertz;                /* >= 0; default 0 (rigid) */
    float linear_damping_ratio, angular_damping_ratio; /* >= 0; default 2 */
    bool collide_connected;
    void *user_data;
} rc_weld_joint_def;

/* Drags the point of `body` under `target` (where it is when the joint is made) towards the
 * target as a spring of frequency hertz, with at most max_force, damping the body's spin a
 * little so that it does not whirl. For the mouse in samples and editors. */
typedef struct rc_mouse_joint_def {
    rc_body_id body;        /* a dynamic body */
    rc_vec2 target;         /* in the world */
    float hertz;            /* > 0; default 5 */
    float damping_ratio;    /* >= 0; default 0.7 */
    float max_force;        /* >= 0; default 1000 (a few hundred times the body's weight is usual) */
    void *user_data;
} rc_mouse_joint_def;

RC_API rc_revolute_joint_def rc_revolute_joint_default_def(void);
RC_API rc_distance_joint_def rc_distance_joint_default_def(void);
RC_API rc_prismatic_joint_def rc_prismatic_joint_default_def(void);
RC_API rc_weld_joint_def rc_weld_joint_default_def(void);
RC_API rc_mouse_joint_def rc_mouse_joint_default_def(void);

/* A new joint, or the null id (with the last error) on bad input or when memory runs out. */
RC_API rc_joint_id rc_joint_create_revolute(rc_world *world, const rc_revolute_joint_def *def);
RC_API rc_joint_id rc_joint_create_distance(rc_world *world, const rc_distance_joint_def *def);
RC_API rc_joint_id rc_joint_create_prismatic(rc_world *world, const rc_prismatic_joint_def *def);
RC_API rc_joint_id rc_joint_create_weld(rc_world *world, const rc_weld_joint_def *def);
RC_API rc_joint_id rc_joint_create_mouse(rc_world *world, const rc_mouse_joint_def *def);

/* Destroys the joint and wakes its bodies. A stale or foreign id records an error and does
 * nothing. */
RC_API void rc_joint_destroy(rc_world *world, rc_joint_id joint);

/* True when the id names a live joint of this world. Never records an error. */
RC_API bool rc_joint_is_valid(const rc_world *world, rc_joint_id joint);

/* What every joint has. On a stale id: RC_REVOLUTE_JOINT, the null body, zero, NULL, false. A
 * mouse joint's body_a is the null body and its body_b its body. */
RC_API rc_joint_type rc_joint_get_type(const rc_world *world, rc_joint_id joint);
RC_API rc_body_id rc_joint_body_a(const rc_world *world, rc_joint_id joint);
RC_API rc_body_id rc_joint_body_b(const rc_world *world, rc_joint_id joint);
RC_API rc_vec2 rc_joint_local_anchor_a(const rc_world *world, rc_joint_id joint);
RC_API rc_vec2 rc_joint_local_anchor_b(const rc_world *world, rc_joint_id joint);
RC_API bool rc_joint_collide_connected(const rc_world *world, rc_joint_id joint);
RC_API void *rc_joint_user_data(const rc_world *world, rc_joint_id joint);
RC_API bool rc_joint_set_user_data(rc_world *world, rc_joint_id joint, void *user_data);
/* The force (newtons in the world's units) and torque the joint applied to body_b in the last
 * sub-step of the last step; body_a had the opposite. Zero before the first step. */
RC_API rc_vec2 rc_joint_reaction_force(const rc_world *world, rc_joint_id joint);
RC_API float rc_joint_reaction_torque(const rc_world *world, rc_joint_id joint);

/* Revolute joints: the angle (see Angles above) and its rate, and what a game changes. Each
 * setter wakes the bodies; false (with the last error) on a joint of another type, a stale id
 * or a bad value (lower > upper, not finite, negative torque, frequency or ratio). */
RC_API float rc_revolute_joint_angle(const rc_world *world, rc_joint_id joint);
RC_API float rc_revolute_joint_speed(const rc_world *world, rc_joint_id joint);
RC_API float rc_revolute_joint_motor_torque(const rc_world *world, rc_joint_id joint); /* last step's */
RC_API bool rc_revolute_joint_set_limits(rc_world *world, rc_joint_id joint, bool enable, float lower, float upper);
RC_API bool rc_revolute_joint_set_motor(rc_world *world, rc_joint_id joint, bool enable, float speed,
                                        float max_torque);
RC_API bool rc_revolute_joint_set_spring(rc_world *world, rc_joint_id joint, bool enable, float hertz,
                                         float damping_ratio);

/* Distance joints: the current length between the anchors, and what a game changes. */
RC_API float rc_distance_joint_current_length(const rc_world *world, rc_joint_id joint);
RC_API bool rc_distance_joint_set_length(rc_world *world, rc_joint_id joint, float length);
RC_API bool rc_distance_joint_set_limits(rc_world *world, rc_joint_id joint, bool enable, float min_length,
                                         float max_length);
RC_API bool rc_distance_joint_set_spring(rc_world *world, rc_joint_id joint, bool enable, float hertz,
                                         float damping_ratio);
RC_API bool rc_distance_joint_set_motor(rc_world *world, rc_joint_id joint, bool enable, float speed,
                                        float max_force);

/* Prismatic joints: the translation along the axis and its rate, and what a game changes. */
RC_API float rc_prismatic_joint_translation(const rc_world *world, rc_joint_id joint);
RC_API float rc_prismatic_joint_speed(const rc_world *world, rc_joint_id joint);
RC_API bool rc_prismatic_joint_set_limits(rc_world *world, rc_joint_id joint, bool enable, float lower,
                                          float upper);
RC_API bool rc_prismatic_joint_set_motor(rc_world *world, rc_joint_id joint, bool enable, float speed,
                                         float max_force);
RC_API bool rc_prismatic_joint_set_spring(rc_world *world, rc_joint_id joint, bool enable, float hertz,
                                          float damping_ratio);

/* Weld joints: the springs (0 hertz: rigid). */
RC_API bool rc_weld_joint_set_springs(rc_world *world, rc_joint_id joint, float linear_hertz,
                                      float linear_damping_ratio, float angular_hertz, float angular_damping_ratio);

/* Mouse joints: move the target (wakes the body); the target now. */
RC_API bool rc_mouse_joint_set_target(rc_world *world, rc_joint_id joint, rc_vec2 target);
RC_API rc_vec2 rc_mouse_joint_target(const rc_world *world, rc_joint_id joint);

RC_EXTERN_C_END

#endif
