/* shapes/collide.h: what the contact solver asks of geometry. Contact manifolds with feature
 * ids for every pair of solid shapes, closest points and distances between convex shapes
 * (GJK), and the time of impact of two moving shapes. Pure functions on hulls held by the
 * caller; nothing here allocates or knows of bodies.
 *
 * Every solid shape is a hull: 1 to 8 points, the unit outward normals of its edges, and a
 * radius that rounds it. A circle is one point and a radius, a capsule two points and a
 * radius, a polygon 3 to 8 points (radius 0), a chain's wall two points and no radius. The
 * caller puts both hulls of a pair in one frame (the first body's, so that the numbers stay
 * small wherever the bodies are) and reads the manifold in that frame. */
#ifndef RICOCHET_SHAPES_COLLIDE_H
#define RICOCHET_SHAPES_COLLIDE_H

#include "shapes/shapes.h"

typedef struct rc_hull {
    rc_vec2 points[RC_MAX_POLYGON_VERTICES];
    /* normals[i]: edge points[i] -> points[i + 1], outward. A hull of 2 points has the two
       sides of its segment: normals[0] right of points[0] -> points[1], normals[1] = -normals[0]. */
    rc_vec2 normals[RC_MAX_POLYGON_VERTICES];
    int count;
    float radius;
} rc_hull;

/* A hull's numbers where they already are (a polygon's in a pool, or an rc_hull): what the
 * manifold functions read, so that a caller need not copy a hull to ask about it. */
typedef struct rc_hull_view {
    const rc_vec2 *points;
    const rc_vec2 *normals;
    int count;
    float radius;
} rc_hull_view;

static inline rc_hull_view rc_hull_view_of(const rc_hull *h) {
    rc_hull_view v = {h->points, h->normals, h->count, h->radius};
    return v;
}

/* How far a hull reaches past the line through `at` along the unit n: the most of its points'
 * distances along n, plus its radius (> 0: some of it is on n's side). */
static inline float rc_hull_reach(const rc_hull_view *h, rc_vec2 n, rc_vec2 at) {
    float most = rc_dot(n, rc_sub(h->points[0], at));
    for (int i = 1; i < h->count; ++i) {
        most = rc_maxf(most, rc_dot(n, rc_sub(h->points[i], at)));
    }
    return most + h->radius;
}

/* The mean of a hull's points: what rc_collide_chain_wall tells its sides by (behind a wall or
 * over it), and a middle for continuous collision's core. */
static inline rc_vec2 rc_hull_middle(const rc_hull_view *h) {
    rc_vec2 c = h->points[0];
    for (int i = 1; i < h->count; ++i) {
        c = rc_add(c, h->points[i]);
    }
    return rc_scale(1.0f / (float)h->count, c);
}

/* A hull from a circle, a capsule (two centres and a radius), a segment, or a placed convex
 * polygon (its points and normals as they are). */
rc_hull rc_hull_circle(rc_vec2 center, float radius);
rc_hull rc_hull_capsule(rc_vec2 a, rc_vec2 b, float radius);
rc_hull rc_hull_polygon(const rc_vec2 *points, const rc_vec2 *normals, int count, float radius);
/* The hull shrunk by depth on every side: a round hull (a circle, a capsule, a rounded polygon)
 * loses radius first, then a polygon's edges move in along their normals, each corner to where
 * its two moved edges meet. False (out untouched) when depth is not positive and finite or the
 * polygon cannot shrink that far with the same corners (an edge would turn over), or when
 * nothing would be left (a point or a segment with no radius to lose). */
bool rc_hull_inset(const rc_hull *hull, float depth, rc_hull *out);
/* A placed shape's hull, in the world (a segment: its two ends, no radius). */
struct rc_shape_view;
rc_hull rc_view_hull(const struct rc_shape_view *s);
/* The hull moved by a transform (points turned and moved, normals turned). */
rc_hull rc_hull_transform(const rc_hull *hull, rc_transform xf);
/* (Inline: the narrow phase moves one hull of every pair it computes in full; as a call, the
 * rain's step ran 0.4% more instructions.) */
static inline rc_hull rc_hull_view_transform(const rc_hull_view *hull, rc_transform xf) {
    rc_hull h;
    for (int i = 0; i < hull->count; ++i) {
        h.points[i] = rc_transform_point(xf, hull->points[i]);
        h.normals[i] = rc_rotate(xf.q, hull->normals[i]);
    }
    h.count = hull->count;
    h.radius = hull->radius;
    return h;
}

/* A contact point of a manifold. */
typedef struct rc_collision_point {
    rc_vec2 point;     /* midway between the two surfaces */
    float separation;  /* signed distance between the surfaces along the normal: < 0 overlap */
    uint16_t id;       /* which features touch: the same for the same features step after step */
} rc_collision_point;

/* How two hulls A and B touch, or nearly do (speculatively: within `margin`). */
typedef struct rc_collision {
    rc_vec2 normal; /* unit, from A towards B */
    rc_collision_point points[2];
    int count;      /* 0: apart by more than the margin */
} rc_collision;

/* The manifold of A and B, in their common frame: the points whose separation is at most
 * margin (0 for an exact overlap test). Feature ids name the pair of features (edges, vertices)
 * each point comes from, so that a solver can carry its impulses over from the last step. */
rc_collision rc_collide_hulls(const rc_hull *a, const rc_hull *b, float margin);
rc_collision rc_collide_views(const rc_hull_view *a, const rc_hull_view *b, float margin);
/* A separating axis: an edge of A (0 .. count - 1) or of B (RC_AXIS_OF_B + its index); none. */
#define RC_AXIS_OF_B RC_MAX_POLYGON_VERTICES
#define RC_NO_AXIS (-1)
/* rc_collide_views, and for two hulls of 2 points or more that it found further apart than the
 * margin along an edge's line (no points), that edge in *axis (else RC_NO_AXIS). */
rc_collision rc_collide_views_axis(const rc_hull_view *a, const rc_hull_view *b, float margin, int *axis);
/* rc_collide_views_axis, and where its points were clipped against a reference face (two hulls
 * of 2 points or more whose faces meet, or nearly do), that face in *face: an edge of A, or
 * RC_AXIS_OF_B + an edge of B (else RC_NO_AXIS: circles, corners apart, no points). */
rc_collision rc_collide_views_faces(const rc_hull_view *a, const rc_hull_view *b, float margin, int *axis,
                                    int *face);
/* The manifold of A and B clipped against the given face (as rc_collide_views_faces names it),
 * whichever face separates them most now: the same bits as rc_collide_views_faces gives where it
 * names that face, found without its separating-axis tests (a pile's contacts, whose faces stay
 * while their bodies hardly move). No points for circles or a face the hulls do not have. */
rc_collision rc_collide_views_on_face(const rc_hull_view *a, const rc_hull_view *b, int face, float margin);
/* Would rc_collide_views(a, b moved by b_in_a, margin) stop at its separating-axis tests with
 * no points because of this axis? Exact: the same numbers as that function and
 * rc_hull_view_transform, worked out for one edge alone, so true only where it gives no points
 * (a pair's axis from the last step, asked again: a crowd's near pairs, apart, at a tenth of the
 * cost). False for circles and for an axis the hulls do not have. */
bool rc_hulls_apart_on_axis(const rc_hull_view *a, const rc_hull_view *b, rc_transform b_in_a, int axis,
                            float margin);
/* A hull A against a circle B about `center` (in A's frame): what rc_collide_views gives for B
 * as a one-point hull, without that hull built and moved (the narrow phase's grenades against
 * props, a third of a rain's contacts). */
rc_collision rc_collide_hull_circle(const rc_hull_view *a, rc_vec2 center, float radius, float margin);
/* The one contact point of round A (radius ra about q, its core point) and round B (radius rb
 * about c) along the unit normal n from A to B, `distance` apart: halfway between their surfaces,
 * but for the two cases below. Inline: every grenade pair's point (the pit's). */
RC_INLINE rc_vec2 rc_contact_point_between(rc_vec2 q, float ra, rc_vec2 c, float rb, rc_vec2 n, float distance,
                                           bool round_a) {
    rc_vec2 on_a = rc_mul_add(q, ra, n), on_b = rc_mul_add(c, -rb, n);
    if (round_a && (rc_round_inside(ra, rb, distance) || rc_round_inside(rb, ra, distance))) {
        /* one round end far inside a far larger one: the middle of the stretch of the line inside
           both (the smaller one's centre or core point), not halfway between the surfaces, which
           is as far off as the larger radius is long (a fuzz find: a circle inside one of radius
           6e17 got a lever arm that long, whose roundings made spin without end and then NaN). Only
           when A is round about q, a circle or a capsule with a radius (the distance from q is
           then >= 0; a polygon or a wall reaches further behind q than its radius: their points
           stay as they were) */
        return rc_mul_add(q, rc_middle_inside_both(ra, rb, distance), n);
    }
    if (!round_a && rc_round_inside(rb, ra, fabsf(distance))) {
        /* a polygon or a wall far inside a far larger circle (B's centre outside A or in it):
           the point on A's surface nearest B's centre, not halfway to B's far surface, as far
           off as B's radius is long (a fuzz find: a box 1,386 wide around the centre of a circle
           of radius 5.8e17 got a lever arm that long, and its turn became NaN).
           rc_collide_polygon_circle does the same. */
        return on_a;
    }
    return rc_lerp(on_a, on_b, 0.5f);
}
/* The manifold of two circles in one frame (what rc_collide_hulls gives for two one-point
 * hulls, without building them). Where the centres coincide the normal is fallback_turn's x
 * axis, turned only then. The normal is rc_normalize's, not d / |d|: for d of a denormal's
 * length 1 / |d| overflows (a fuzz find: two circles a denormal apart had a NaN normal). Inline,
 * and only the points found are written: most of a grenade pit's contacts are two circles, and
 * a whole manifold cleared and returned from another file was 2% of its instructions. */
RC_INLINE rc_collision rc_collide_circle_pair(rc_vec2 center_a, float radius_a, rc_vec2 center_b, float radius_b,
                                              rc_rot fallback_turn, float margin) {
    rc_collision m;
    m.count = 0;
    m.normal = rc_v2(0.0f, 0.0f);
    rc_vec2 d = rc_sub(center_b, center_a);
    float distance = rc_length(d);
    float separation = distance - radius_a - radius_b;
    if (separation > margin) {
        return m;
    }
    rc_vec2 n = rc_normalize(d);
    if (n.x == 0.0f && n.y == 0.0f) {
        n = rc_rotate(fallback_turn, rc_v2(1.0f, 0.0f));
    }
    m.normal = n;
    m.points[0].point = rc_contact_point_between(center_a, radius_a, center_b, radius_b, n, distance, radius_a > 0.0f);
    m.points[0].separation = separation;
    m.points[0].id = 0;
    m.count = 1;
    return m;
}

/* A wall of a chain against a hull, smooth over the chain's joints: `prev` and `next` are the
 * chain's points before a and after b (equal to a or b at an open end). The wall blocks from its
 * left side only (points left of a -> b; a two-sided wall is asked from the side the hull is
 * on, with its ends swapped); a contact normal that would point out of the cone between the
 * wall's normal and its neighbour's at a convex joint becomes the wall's normal, so that a
 * body sliding over the joint of two walls in line feels one surface (no ghost bump). */
rc_collision rc_collide_chain_wall(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, const rc_hull *hull,
                                   float margin);
/* The same for a hull known to be on the wall's left (its contact with the wall met it there
 * last): one whose centroid has been pressed behind the wall is still met from the left while
 * any of it is there (a small prop squeezed into a floor by a pile on it), and none when it is
 * wholly behind. */
rc_collision rc_collide_chain_wall_held(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, const rc_hull *hull,
                                        float margin);

/* The side of a two-sided chain's wall a -> b (prev and next as for rc_collide_chain_wall) that
 * a point faces: +1 its left, -1 its right. Over the wall or beyond an open end, the side of its
 * line; beyond a joint, the side that bounds the wedge the point is in between this wall and its
 * neighbour. (A plank past the tip of a spike two walls make faces each wall around the tip; by
 * one wall's line it was on the side that faces into the spike, which the neighbour closes: that
 * wall pushed it into the spike, and it sank through.) */
int rc_two_sided_wall_side(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, rc_vec2 p);

/* Is a point (a circle's centre) in the region of a chain's wall, where rc_collide_chain_wall
 * meets a circle with this wall rather than leaving it to a neighbour: over the wall (its ends
 * stretched by slack, a length, against rounding), beyond an open end, or beyond a convex joint
 * within the cone of the two walls' normals? Beyond a flat or concave joint, or outside the cone,
 * the point lies over the neighbour (which answers) or behind it. The wall as for
 * rc_collide_chain_wall, with its free side (or, two-sided, the point's side) on the left. */
bool rc_chain_wall_region(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, rc_vec2 p, float slack);

/* ---- distance and time of impact ------------------------------------------------------------ */

typedef struct rc_hull_distance {
    rc_vec2 point_a, point_b; /* closest points of the hulls' cores (radii left out) */
    rc_vec2 normal;           /* unit, from A to B (arbitrary but unit when the cores overlap) */
    float distance;           /* between the rounded hulls: core distance less both radii; < 0 overlap */
    int iterations;
} rc_hull_distance;

/* The distance between two convex hulls (GJK on their cores, then the radii). */
rc_hull_distance rc_distance_hulls(const rc_hull *a, const rc_hull *b);

/* A hull's motion over a step: its centre of mass from c1 to c2 and its angle from a1 to a2,
 * the hull given in its body frame about local_center. */
typedef struct rc_hull_sweep {
    rc_vec2 local_center;
    rc_vec2 c1, c2;
    float a1, a2;
} rc_hull_sweep;

/* The body transform at fraction t of a sweep. */
rc_transform rc_sweep_transform(const rc_hull_sweep *s, float t);

typedef enum rc_toi_state { RC_TOI_SEPARATED, RC_TOI_HIT, RC_TOI_OVERLAPPED, RC_TOI_FAILED } rc_toi_state;

typedef struct rc_toi {
    rc_toi_state state;
    float t;                  /* fraction of the step */
    rc_vec2 normal, point;    /* at t, in the world: from A to B, and where they meet */
} rc_toi;

/* When two moving hulls first come within `target` of each other over the step (conservative
 * advancement on the distance): RC_TOI_SEPARATED (never within target + tolerance: t = 1),
 * RC_TOI_HIT (at t), RC_TOI_OVERLAPPED (already within target at t = 0), RC_TOI_FAILED (did
 * not converge in its iterations: t is a safe fraction to stop at). */
rc_toi rc_time_of_impact(const rc_hull *a, const rc_hull_sweep *sa, const rc_hull *b, const rc_hull_sweep *sb,
                         float target, float tolerance);

/* A hull moved by translation (no turning) against another: the first fraction t in [0, 1] at
 * which they touch, with the normal (against the motion, from B to the moving A) and the point;
 * false when they never do. Starting in overlap: t = 0, and *inside (when not NULL) true where
 * they overlap by more than the cast's rounding tolerance (less: touching); touching at the start
 * and moving away (as a swept circle): false. */
bool rc_cast_hulls(const rc_hull *moving, rc_vec2 translation, const rc_hull *still, float *t, rc_vec2 *normal,
                   rc_vec2 *point, bool *inside);

#endif
