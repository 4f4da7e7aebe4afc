/* ricochet: mover.h
 * The character mover: where a walking circle ends up when it tries to move.
 *
 * A walker is a circle of some radius that is not a body (or whose own body the mover is told
 * to ignore). rc_world_move_circle asks where it ends up when it tries to move by delta: it
 * slides along walls, never comes nearer to any surface than its radius, never moves further
 * than |delta|, and rests still when pushed into a corner. The world is not changed: the game
 * moves its character (or its body, by rc_body_set_transform) to the answer.
 *
 * Units. Positions, radii, deltas, skins and separations in world units.
 *
 * Ownership. Nothing is allocated: the mover works in fixed-size arrays on the stack and
 * writes only the caller's result. It reads the world as it is now (kinematic and dynamic
 * bodies where they stand) and is a query: it may run concurrently with other queries.
 *
 * Errors. As everywhere in ricochet (see world.h): a NULL world, NULL def or result, a radius
 * that is negative or not finite, a position or delta that is not finite, a skin that is
 * negative or not finite, an ignore_body that is not null and names no live body, or a move
 * whose reach is beyond float range is refused: nothing is written, the world's last error
 * says why (a NULL world has nowhere to say it), and the error callback is called.
 *
 * What blocks. Every solid shape of every body (static, kinematic and dynamic) that the
 * filter sees, except the shapes of ignore_body. Sensors never block and are never touched.
 * A one-sided chain wall blocks only a walker whose centre is on its free side.
 *
 * Guarantees, as built
 * --------------------
 * Let r be the radius and skin the clearance: def->skin, or the world's (rc_world_def
 * contact_skin, grown where float spacing at the walker's coordinates is coarser: see
 * rc_world_def.contact_skin), and in either case at least 4 float epsilons of the walker's
 * coordinates plus its radius, so that it always spans a few float spacings of the numbers
 * near the walker.
 *  1. Never further than asked: the lengths of the sub-steps add up to at most |delta|, and
 *     each sub-step's position is rounded to float towards where the sub-step started, so the
 *     walker ends at most |delta| from where it started (exactly, for the floats given). In
 *     open space it ends at position + delta rounded towards position on each axis (at most
 *     one float spacing short of the float sum).
 *  2. Never nearer than the radius: a walker that starts at least r from every blocking
 *     surface ends at least r from every one, up to the rounding of one call (a float spacing
 *     or so of its coordinates, and the rounding of distances to long edges); the skin absorbs
 *     that, and a walker found nearer than r is pushed back out to r + skin by its next move.
 *     The path between the start and the answer keeps the same clearance (no tunnelling,
 *     however long delta is).
 *  3. Moving towards a surface it stops r + skin from it (the skin at the sub-step's start); a
 *     walker within [r, r + skin] of a surface is neither pushed out nor let nearer (no jitter).
 *  4. Sliding: each sub-step goes to the exact point nearest the target p0 + delta (double
 *     precision) among those that keep r + skin from the surfaces it touches, as half-planes:
 *     resting on a flat wall, the walker ends at start + the part of delta along the wall
 *     (and falling onto it from above, at the point of the wall's offset nearest the target,
 *     as if it had landed and slid the rest of the way). Around round pillars and polygon
 *     corners it goes in steps of at most a quarter of the radius of curvature (the pillar's
 *     radius plus r + skin), so that it follows the surface. Where two shapes' faces line up
 *     (to about 1e-6 radians: boxes laid side by side as a floor, on one body or several) the
 *     vertex at the seam is taken as part of the face beside it: the walker slides over the
 *     seam as over one face, without a bump.
 *  5. Resting: pushed into a concave corner of two walls it rests against (within
 *     [r, r + skin] of both), or straight into a wall it rests against, it does not move: the
 *     answer is its position, bit for bit. A sub-step shorter than 8 float epsilons of the
 *     distance still to go (or, after the first sub-step, shorter than skin / 64) ends the move.
 *  6. Gaps: a gap narrower than 2 r always stops it (every point of its path keeps r from both
 *     sides); one wider than 2 (r + skin) lets it through (only the surfaces it touches are
 *     taken as half-planes; the others are swept against exactly, so the tangent lines of the
 *     gap's sides do not close it).
 *  7. Overlapping starts: a walker that starts nearer than r to surfaces is pushed out along
 *     their normals as far as its budget |delta| allows (delta 0 leaves it where it is); one
 *     that is squeezed (no place r + skin from all the surfaces it overlaps) stays where it is.
 *  8. At most RC_MOVER_MAX_SUBSTEPS sub-steps. A sub-step is at most the larger of 2 r and 2
 *     broadphase cells long, doubled after each one that went its full length without meeting
 *     anything new (open space, a long flat wall), up to the size of the walker's coordinates.
 *     A move that would need more sub-steps (winding round many corners in one call) stops
 *     short, safely.
 *  9. It takes into account the RC_MOVER_MAX_PLANES nearest surfaces within reach of a sub-step
 *     and shortens the sub-step so that no other one is within reach: a walker with more than
 *     that many surfaces within r + 2 skin does not move.
 * The answer is the same, bit for bit, for the same world and arguments.
 *
 * Method. A move is a few sub-steps towards the one target p0 + delta. The surfaces within
 * r + 2 skin of the walker (contacts) each give the half-plane of centres that keep r + skin
 * from them (the line supporting the shape across the normal at the walker's nearest point,
 * moved out by r + skin); the walker aims for the point of their intersection nearest the
 * target (solved exactly), and a circle of radius r + skin swept along that segment stops it
 * at the first other surface it would touch, which is a contact at the next sub-step.
 *
 * Known limits. A vertex that really sticks out of the face beside it (a floor tile set a
 * little higher or at a slight angle) is a small step, and the walker rides over it as a
 * circle would, but along the tangent at the vertex: over a step of height h it may rise up
 * to about sqrt(2 r (h + skin)) / 4 above the higher tile (8e-3 for r = 0.5, h = 1e-3 and the
 * default skin) until a push down brings it back. The half-plane of a surface it touches is conservative:
 * sliding round a pillar it drifts off the surface a little at each sub-step (at most 1/32 of
 * the radius of curvature) and comes back at the next. One-sided chain walls seen from
 * behind do not block at all. */
#ifndef RICOCHET_MOVER_H
#define RICOCHET_MOVER_H

#include "world.h"

RC_EXTERN_C_BEGIN

/* Sub-steps of one move, at most. */
#define RC_MOVER_MAX_SUBSTEPS 128
/* Surfaces one sub-step takes into account, at most (the nearest). */
#define RC_MOVER_MAX_PLANES 32
/* Touches reported, at most (the nearest). */
#define RC_MAX_MOVER_TOUCHES 8

/* What to move and how. */
typedef struct rc_mover_def {
    rc_vec2 position;       /* the walker's centre */
    float radius;           /* finite, >= 0 (0: a point) */
    rc_vec2 delta;          /* the move it tries */
    rc_query_filter filter; /* which shapes block it; default rc_default_query_filter() (all) */
    rc_body_id ignore_body; /* a body that never blocks it (the character's own); default null */
    float skin;             /* clearance kept beyond the radius; 0 (default): the world's
                               (rc_world_def.contact_skin, grown at coarse coordinates) */
} rc_mover_def;

/* Zero position, radius and delta, the filter that sees everything, no ignored body, skin 0. */
RC_API rc_mover_def rc_mover_default_def(void);

/* A surface next to the walker where it ends up. */
typedef struct rc_mover_touch {
    rc_shape_id shape;
    rc_body_id body;
    rc_vec2 point;    /* nearest point of the shape's surface to the walker's centre */
    rc_vec2 normal;   /* unit, from the surface towards the walker (the shape's outward normal) */
    float separation; /* distance from the centre to the surface minus the radius (< 0: overlap) */
} rc_mover_touch;

typedef struct rc_mover_result {
    rc_vec2 position;    /* where the walker ends up */
    int32_t touch_count; /* 0..RC_MAX_MOVER_TOUCHES */
    /* The blocking shapes whose surface is within radius + 2 skins of the final position
     * (skin: the larger of the one at the final position and the one of the last sub-step),
     * nearest first (ties by shape id), at most RC_MAX_MOVER_TOUCHES. A touch whose normal
     * points up tells a game its character stands on the ground. */
    rc_mover_touch touches[RC_MAX_MOVER_TOUCHES];
} rc_mover_result;

/* Move a walker of def->radius from def->position by def->delta (see the guarantees above),
 * writing where it ends up and what it touches there into *result. False on bad input (see
 * Errors above): then *result is not written. */
RC_API bool rc_world_move_circle_ex(const rc_world *world, const rc_mover_def *def, rc_mover_result *result);

/* Where a walker of this radius ends up when it tries to move by delta, against every solid
 * shape, with the world's skin. On bad input: position when it is finite, else the zero
 * vector (and the world's last error says why). */
RC_API rc_vec2 rc_world_move_circle(const rc_world *world, rc_vec2 position, float radius, rc_vec2 delta);

RC_EXTERN_C_END

#endif
