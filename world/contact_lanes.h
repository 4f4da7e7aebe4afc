/* world/contact_lanes.h: the contact solver's blocks as one width lays them out (the bodies of
 * a block's lanes come in and go out by world/state_lanes.h). Included by world/contact_solver.c
 * alone, at each width: after core/simd.h (four lanes: SSE2, NEON or plain C), core/simd_avx.h
 * (eight) or core/simd_avx512.h (sixteen), whose RC_LANES it takes. Nothing here is seen by
 * another file: the rest of the world knows a block only as lines of memory (solver.h). */
#ifndef RICOCHET_WORLD_CONTACT_LANES_H
#define RICOCHET_WORLD_CONTACT_LANES_H

#include "world/solver.h"

#include <string.h>

typedef struct rc_wide_point {
    rc_w anchor_ax, anchor_ay, anchor_bx, anchor_by;
    rc_w base_separation; /* less the target */
    rc_w normal_mass, tangent_mass;
    rc_w normal_impulse, tangent_impulse, max_normal_impulse;
} rc_wide_point;

/* RC_LANES contacts, lane by lane. What every solve of a block reads comes first, then its
 * points; what only some blocks need (rolling resistance, round sides) and only the
 * restitution pass reads comes last, on lines that a stack of boxes does not load in its
 * passes. */
typedef struct rc_wide_constraint {
    rc_w normal_x, normal_y;
    rc_w inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b;
    rc_w friction, bias_rate, mass_scale, impulse_scale;
    /* the states read (the still state for none), and where the velocities go back (the state
       of a dynamic side, else the sink, never read), as byte offsets from the step's first
       state (state_lanes.h: rc_state_offset) */
    uint32_t a[RC_LANES], b[RC_LANES];
    uint32_t store_a[RC_LANES], store_b[RC_LANES];
    rc_wide_point points[2];
    rc_w rolling, rolling_mass, rolling_impulse;
    rc_w round_a, round_b; /* masks */
    rc_w restitution;
    rc_w relative_velocity[2]; /* per point: the normal velocity before solving */
} rc_wide_constraint;

_Static_assert(RC_LANES <= 16, "a block's flags have room for sixteen lanes");
_Static_assert(_Alignof(rc_wide_constraint) <= 64, "blocks are aligned to 64 bytes");
#ifndef RC_SOLVER_AVX
_Static_assert(RC_LANES == RC_SOLVER_LANES, "the narrow passes have RC_SOLVER_LANES lanes");
_Static_assert(sizeof(rc_wide_constraint) <= RC_SOLVER_BLOCK_BYTES, "a preview's blocks fit on its stack");
#elif defined(RC_SOLVER_AVX512)
_Static_assert(RC_LANES == RC_SOLVER_WIDEST_LANES, "the AVX-512 passes have RC_SOLVER_WIDEST_LANES lanes");
#else
_Static_assert(RC_LANES == RC_SOLVER_WIDE_LANES, "the AVX passes have RC_SOLVER_WIDE_LANES lanes");
#endif

#include "world/state_lanes.h"

#endif
