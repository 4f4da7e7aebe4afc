/* world/solver.h: the contact solver.
 *
 * Owns: the step's solver arrays (one state per moving body, one constraint per touching or
 * nearly touching contact) and the soft step over them: the step is cut into sub-steps; in
 * each, gravity is applied, the contacts' last impulses are applied again (warm start), the
 * contacts are solved with soft constraints that push overlap out at a bounded rate, positions
 * move, and the contacts are solved again without the push (relax), so that pushing out adds
 * no energy. Then one restitution pass and the impulses are kept for the next step. Contacts
 * are solved in the order of their colours (a colour holds contacts of which no two share a
 * moving body), so that the result does not depend on how a colour's contacts are shared out
 * among workers.
 *
 * Reads bodies and contacts through the arrays the step hands it; knows nothing of shapes. */
#ifndef RICOCHET_WORLD_SOLVER_H
#define RICOCHET_WORLD_SOLVER_H

#include <ricochet/math.h>

#include <stdbool.h>
#include <stdint.h>

/* A moving body as the solver sees it (32 bytes): its velocity, and how far it has moved and
 * turned so far in the step. Static bodies have none: a constraint names them with -1. */
typedef struct rc_body_state {
    rc_vec2 v;
    float w;
    float dangle; /* the turn so far (dq's angle, kept to turn the body exactly at the end) */
    rc_vec2 dp;
    rc_rot dq;
} rc_body_state;

/* The mass of a moving body, per state. */
typedef struct rc_solver_mass {
    float inv_mass, inv_inertia;
} rc_solver_mass;

/* A spring's stiffness and damping for a sub-step of length h (Erin Catto, "Solver2D"): how much
 * of an error to push out per second, and how the constraint's mass and accumulated impulse
 * are scaled to make it soft. hertz 0: rigid. */
typedef struct rc_softness {
    float bias_rate, mass_scale, impulse_scale;
} rc_softness;

rc_softness rc_make_soft(float hertz, float damping_ratio, float h);

typedef struct rc_constraint_point {
    rc_vec2 anchor_a, anchor_b; /* from each centre of mass to the point, in the world */
    float base_separation;      /* separation less the anchors' difference along the normal */
    float relative_velocity;    /* normal velocity before solving (for restitution) */
    float normal_mass, tangent_mass;
    float normal_impulse, tangent_impulse;
    float max_normal_impulse;   /* the largest this step (restitution only where it pushed) */
} rc_constraint_point;

typedef struct rc_contact_constraint {
    int32_t a, b;           /* body states; -1 for a body that does not move */
    rc_vec2 normal;         /* unit, from a towards b */
    float inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b;
    float friction, restitution;
    float rolling;          /* the largest rolling torque per unit of normal impulse (0: none) */
    float rolling_mass, rolling_impulse;
    float target;           /* the separation it holds the two at */
    bool rigid;             /* held at target exactly (a swept body's skin): full mass, no softness */
    bool round_a, round_b;  /* that side is a circle: its surface facing the contact does not turn with it */
    rc_softness softness;
    int32_t point_count;
    rc_constraint_point points[2];
    int32_t contact;        /* the world's contact, or -1 */
} rc_contact_constraint;

/* What one solve of a set of constraints needs besides them. */
typedef struct rc_solver_step {
    rc_body_state *states;
    const rc_solver_mass *masses;
    rc_contact_constraint *constraints;
    int32_t constraint_count;
    float h, inv_h;             /* the sub-step */
    float contact_hertz, contact_damping_ratio;
    float max_push_speed;       /* the fastest overlap is pushed out */
    float restitution_threshold;
    float max_rebound;          /* the fastest a restitution sends a contact apart (a huge restitution
                                   times the approach is beyond float range) */
} rc_solver_step;

/* Per constraint: masses at the anchors, softness, the normal velocity before solving. The
 * points' anchors, base separations and impulses (warm start) are set by the caller. */
void rc_contacts_prepare(rc_solver_step *s);
void rc_contacts_warm_start(rc_solver_step *s);
/* One pass over the constraints: with the push (use_bias) or without it (relax). */
void rc_contacts_solve(rc_solver_step *s, bool use_bias);
void rc_contacts_restitution(rc_solver_step *s);

/* The soft step over all of it: sub_steps sub-steps of integrating velocities (gravity per
 * body: a kick per sub-step), warm start, solve, integrating positions, relax; then
 * restitution. Velocities are held to max_speed and max_spin on the way. */
typedef struct rc_soft_step {
    rc_solver_step solve;
    int32_t state_count;
    const rc_vec2 *gravity_kicks;   /* per state: the velocity gravity adds in a sub-step */
    const float *linear_damping;    /* per state: the factor per sub-step */
    const float *angular_damping;
    int32_t sub_steps;
    float max_speed, max_spin;
} rc_soft_step;

void rc_solve_soft_step(rc_soft_step *s);

#endif
