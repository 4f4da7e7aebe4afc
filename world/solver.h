/* world/solver.h: the contact solver.
 *
 * Owns: the soft step over one step's solver arrays (one state per moving body, one
 * constraint per touching or nearly touching contact). The step is cut into sub-steps; in
 * each, gravity is applied, the contacts' last impulses are applied again (warm start), the
 * contacts are solved with soft constraints that push overlap out at a bounded rate, positions
 * move, and the contacts are solved again without the push (relax), so that pushing out adds
 * no energy. Then one restitution pass, and the impulses are kept for the next step.
 *
 * Contacts are solved four at a time (core/simd.h), or eight (core/simd_avx.h) where the
 * processor has AVX: they are given colours so that no two of
 * one colour move the same body (the first free one of RC_SOLVER_COLORS colours from where the
 * constraint's rank points, contacts between moving bodies in the first half and contacts with
 * what does not move in the second; a contact that finds none is solved alone, after them),
 * colours are solved in order, and each colour's one-point contacts and its two-point ones
 * are packed into blocks of four (or eight) lanes apart (a block of one-point contacts skips the second
 * point). A lane computes what one contact alone would, with the
 * same operations in every lane and on every machine, so a contact's result does not depend on
 * its lane, its block or the instruction set: a body previewed alone is solved as the world
 * solves it.
 *
 * Reads bodies and contacts through the arrays the caller hands it; knows nothing of shapes. */
#ifndef RICOCHET_WORLD_SOLVER_H
#define RICOCHET_WORLD_SOLVER_H

#include <ricochet/math.h>

#include <stdbool.h>
#include <stdint.h>

/* A body as the solver sees it (32 bytes): its velocity, and how far it has moved and turned
 * so far in the step. The first half is what the passes write back, in one store a lane: the
 * turn's angle is kept apart (rc_soft_step's turns), so that no pass carries it from its
 * gather to its scatter (four registers fewer in the solve, which spilled). */
typedef struct rc_body_state {
    rc_vec2 v;
    float w;
    float spare; /* what the scatters leave there (w again): never read */
    rc_vec2 dp;
    rc_rot dq;
} rc_body_state;

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
    float relative_velocity;    /* out: normal velocity before solving (for restitution) */
    float normal_impulse, tangent_impulse; /* in: where the solve starts (warm start); out: the last sub-step's */
    float max_normal_impulse;   /* out: the largest push of the step (restitution only where it pushed) */
} rc_constraint_point;

/* A contact as the caller hands it over, and gets its impulses back in. */
typedef struct rc_contact_constraint {
    int32_t a, b;           /* body states; -1 for a static body. A side with inv_mass 0 (static
                               or kinematic) is read, never written. */
    rc_vec2 normal;         /* unit, from a towards b */
    float inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b;
    float friction, restitution;
    float rolling;          /* the largest rolling torque per unit of normal impulse (0: none) */
    float rolling_impulse;
    float target;           /* the separation it holds the two at */
    bool rigid;             /* held at target exactly (a swept body's skin): full mass, no softness */
    bool round_a, round_b;  /* that side is a circle: its surface facing the contact does not turn with it */
    bool swept_a, swept_b;  /* that side is a swept shape (its bounces are reported as impacts) */
    bool touched;           /* the caller's: its contact touched at the step's start, or was made
                               touching (no first touch to report; the world's gathering sets it,
                               so that the report after the solve need not read the contact) */
    uint8_t color;          /* set by rc_solver_color (RC_SOLVER_COLORS: none); in the first line
                               with point_count, the two that rc_solver_runs reads */
    int32_t point_count;    /* 1 or 2 */
    rc_constraint_point points[2];
    int32_t contact;        /* the world's contact, or -1 */
    uint32_t rank;          /* where its colour search starts: rc_constraint_rank */
} rc_contact_constraint;

/* A constraint whose normal is the face of a turning kinematic body, and turns with it through
 * the step (world/gather.c: normal_turn; every other normal holds). */
typedef struct rc_turning_constraint {
    int32_t constraint;
    int32_t side;   /* whose face it is: 0 a's, 1 b's */
    float turn;     /* rad/s */
    rc_vec2 apart;  /* b's centre of mass less a's at the step's start */
} rc_turning_constraint;

/* Did it push at all (a normal impulse at some point, or the step's largest push)? (Inline:
 * the soft step's store asks it of every constraint, the preview of its own.) */
static inline bool rc_constraint_pushed(const rc_contact_constraint *k) {
    for (int32_t p = 0; p < k->point_count; ++p) {
        if (k->points[p].normal_impulse > 0.0f || k->points[p].max_normal_impulse > 0.0f) {
            return true;
        }
    }
    return false;
}

/* A scrambled number for a shape index (a bijection: neighbours get unrelated numbers), from
 * which a constraint's colour search starts (rc_solver_color). */
static inline uint32_t rc_scramble(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* A constraint's rank from the indices the caller gives its two sides (the world gives shape
 * indices): the side that does not move in the solver when one does not (a static or
 * kinematic side: a lone body's preview knows only that one), else both. */
static inline uint32_t rc_constraint_rank(int32_t shape_a, bool a_moves, int32_t shape_b, bool b_moves) {
    if (!a_moves) {
        return rc_scramble((uint32_t)shape_a);
    }
    if (!b_moves) {
        return rc_scramble((uint32_t)shape_b);
    }
    return rc_scramble((uint32_t)shape_a ^ rc_scramble((uint32_t)shape_b));
}

/* How many colours contacts are shared among before the rest are solved one by one. */
#define RC_SOLVER_COLORS 24

/* The first of `colors` colours (fewer than 32) from `start` on (wrapping round) that is not in
 * used, or `colors` when all are: the contacts' colouring (contact_color.c) and the joints'
 * (joint_step.c). */
static inline int32_t rc_first_free_color(uint32_t used, int32_t start, int32_t colors) {
    const uint32_t all = (1u << colors) - 1u;
    uint32_t rotated = ((used >> start) | (used << (colors - start))) & all;
    uint32_t open = ~rotated & all;
    if (open == 0u) {
        return colors; /* none: solved alone */
    }
    int32_t k = 0;
    while ((open & 1u) == 0u) {
        open >>= 1;
        ++k;
    }
    int32_t color = start + k;
    return color >= colors ? color - colors : color;
}
/* Runs of constraints packed into blocks apart: each colour's one-point and two-point ones, and
 * the ones no colour took. */
#define RC_SOLVER_RUNS (2 * RC_SOLVER_COLORS + 1)
_Static_assert(RC_SOLVER_COLORS < 256, "a constraint's colour is a byte");

/* A block of contacts packed lane by lane for the passes: RC_SOLVER_LANES of them on every
 * machine, eight where the library was built with its AVX passes and the processor has AVX, or
 * sixteen where it was built with its AVX-512 passes and the processor has AVX-512 F and DQ
 * (rc_solver_widest_lanes). Its layout is the solver's own (contact_solver.c); the caller
 * provides the memory, rc_solver_block_lines lines of 64 bytes aligned to 64. The lane count
 * changes no result: a lane computes what its contact alone would, with the same operations in
 * every lane and on every instruction set. */
#define RC_SOLVER_LANES 4
#define RC_SOLVER_WIDE_LANES 8
#define RC_SOLVER_WIDEST_LANES 16
typedef struct rc_solver_line {
    float f[16];
} rc_solver_line;
/* The widest blocks this processor runs: RC_SOLVER_WIDEST_LANES where the library has its
 * AVX-512 passes and the processor (and its operating system) has AVX-512 F and DQ, else
 * RC_SOLVER_WIDE_LANES where it has its AVX passes and the processor has AVX, else
 * RC_SOLVER_LANES. */
int32_t rc_solver_widest_lanes(void);
/* The 64-byte lines that blocks of contacts, lanes to a block, take. */
int32_t rc_solver_block_lines(int32_t lanes, int32_t blocks);
/* The bytes of one block of RC_SOLVER_LANES lanes are at most this (a preview's blocks on the
 * stack, predict.c; checked in contact_solver.c). */
#define RC_SOLVER_BLOCK_BYTES 768

/* What a block holds, 32 bits per block beside the blocks (rc_soft_step's block_flags): the
 * passes and the packing read and write these without touching the block's last line. */
#define RC_BLOCK_BOUNCY 1u     /* some lane has restitution: the restitution pass looks */
#define RC_BLOCK_ROUND 2u      /* some lane has a round side: the solve turns its anchors by lane */
#define RC_BLOCK_TWO_POINTS 4u /* some lane has two points: the passes visit the second */
#define RC_BLOCK_ROLLING 8u    /* some lane has rolling resistance: the passes apply it */
#define RC_BLOCK_FILLED 16u    /* (shifted by the lane, up to 15) that lane was packed with a constraint */

struct rc_joint_constraint;
struct rc_joint_runs;

/* What one soft step needs. The caller owns every array. */
typedef struct rc_soft_step {
    rc_body_state *states;          /* state_count + 2: the still state, then the sink (both set here) */
    int32_t state_count;
    rc_contact_constraint *constraints;
    int32_t constraint_count;
    struct rc_joint_constraint *joints; /* solved before the contacts in each sub-step (world/joint.h) */
    int32_t joint_count;
    const struct rc_joint_runs *joint_runs; /* where they lie, colour by colour */
    rc_solver_line *joint_blocks;   /* rc_joint_block_lines(...) lines for their blocks, aligned to 64 */
    const rc_vec2 *gravity_kicks;   /* per state: the velocity gravity (and an applied force) adds in a sub-step */
    const float *spin_kicks;        /* per state: the angular velocity an applied torque adds in a sub-step */
    const float *linear_damping;    /* per state: the factor per sub-step */
    const float *angular_damping;
    const float *spin_limits;       /* per state: how fast it may turn, rad/s (at most max_spin) */
    float *turns;                   /* per state: the turn so far, 0 at the start (dq's angle, kept to
                                       turn the body exactly at the end) */
    int32_t sub_steps;
    float h, inv_h;                 /* the sub-step and its inverse */
    float contact_hertz, contact_damping_ratio;
    float max_push_speed;           /* the fastest overlap is pushed out */
    float touching_distance;        /* a two-point contact apart by more than this at both points is
                                       solved as one (the linear slop; contact_solver.c) */
    float restitution_threshold;
    float max_rebound;              /* the fastest a restitution sends a contact apart */
    float max_speed;                /* linear velocities are held within it */
    float max_spin;                 /* and turns, at most this fast (rad/s) */
    /* scratch for the colouring (contact_color.c): per state (colours), per constraint (order) */
    uint32_t *colors;
    int32_t lanes;                  /* contacts to a block: RC_SOLVER_LANES, or wider where
                                       rc_solver_widest_lanes says so (set by the caller
                                       before the colouring) */
    int32_t *order;                 /* per constraint: its block and lane, block * lanes + lane
                                       (each run, contact_color.c: a colour's one-point or
                                       two-point constraints, or the uncoloured, in the
                                       constraints' order, lanes to a block) */
    rc_solver_line *blocks;         /* rc_solver_block_lines(lanes, block_count) lines, aligned to
                                       64 bytes, filled by rc_solve_soft_step */
    uint32_t *block_flags;          /* block_count: each block's RC_BLOCK_* */
    int32_t block_count;            /* set by rc_solver_color (or rc_solver_runs) */
    const rc_turning_constraint *turning; /* the constraints whose normals turn, in the */
    int32_t turning_count;                /* constraints' order (none after rc_soft_step_setup) */
    uint8_t *pushed;                /* per state, or NULL: the store sets it to 1 for both sides of
                                       a constraint that pushed (rc_constraint_pushed), as it
                                       writes the impulses back (a pass of its own read every
                                       constraint again); the caller clears it first */
} rc_soft_step;

/* Colour the constraints (fills order; colors is per-state scratch) and return the number of
 * blocks they pack into: the caller provides that many in blocks before rc_solve_soft_step. */
int32_t rc_solver_color(rc_soft_step *s);
/* Its two halves: give each constraint its colour (each constraint's colour depends on the
 * constraints before it, their bodies and ranks, and nothing else: the same constraints in the
 * same order get the same colours), and sort them into runs by the colours they carry (fills
 * order, returns the blocks, as rc_solver_color). */
void rc_solver_assign_colors(rc_soft_step *s);
int32_t rc_solver_runs(rc_soft_step *s);

/* The soft step over all of it: packs the blocks, then sub_steps sub-steps of integrating
 * velocities (gravity per body: a kick per sub-step), warm start, solve, integrating
 * positions, relax; then restitution, and the impulses back into the constraints. */
void rc_solve_soft_step(rc_soft_step *s);

/* Each width's soft step and the bytes of its block, for rc_solve_soft_step and
 * rc_solver_block_lines (solver_width.c), which choose among them: the four-lane one always,
 * the eight-lane one where RICOCHET_SOLVER_AVX_BUILT (contact_solver_avx.c) and the sixteen-lane
 * one where RICOCHET_SOLVER_AVX512_BUILT (contact_solver_avx512.c). Called by nothing else. */
void rc_solve_soft_step_narrow(rc_soft_step *s);
size_t rc_solver_narrow_block_bytes(void);
void rc_solve_soft_step_avx(rc_soft_step *s);
size_t rc_solver_wide_block_bytes(void);
void rc_solve_soft_step_avx512(rc_soft_step *s);
size_t rc_solver_widest_block_bytes(void);

#endif
