/* ricochet: geometry.h
 * Pure geometry: shapes passed by value or const pointer, answers written to the caller's
 * structs, no allocation, no state. Everything the world does to shapes is built from these.
 *
 * Conventions shared by every function here
 * -----------------------------------------
 * Rays. A ray is the segment origin + t * translation, 0 <= t <= 1. A hit reports the
 * fraction t, the world point and the unit normal of the surface, pointing out of the shape
 * and against the ray (dot(normal, translation) <= 0).
 *  - Shapes are closed sets: a ray that only touches a shape (tangent to a circle, through a
 *    corner, running along an edge) hits it where it first touches.
 *  - A ray whose origin lies strictly inside a solid shape hits it at t = 0 with
 *    started_inside set; the point is the origin and the normal is that of the surface the
 *    ray's line entered through before the origin (so it still points against the ray).
 *  - A ray whose origin lies exactly on the boundary hits at t = 0 when it goes into the shape
 *    or along its boundary, and does not hit there when it leaves the shape at once.
 *  - A ray through a vertex is one hit, with the normal of the edge it meets more squarely.
 *  - A ray of zero length, or with any non-finite input, hits nothing (the functions return
 *    false). NULL output pointers are allowed where noted and refused elsewhere.
 * Polygons passed as point arrays may be in either winding; one wider or taller than FLT_MAX
 * (its edges are no floats) is bad input, as rc_make_polygon refuses it: rays and clips meet
 * nothing. Parallel and near-parallel cases are decided with tolerances scaled to the size of
 * the inputs, never a fixed epsilon.
 * Bad input. The distance, mass and box functions have no error value. Given a point that is
 * not finite, a circle or capsule whose centres or radius are not finite, whose radius is
 * negative or which reaches beyond float range (its box's coordinates would be no floats), a
 * polygon that is not valid (NULL, or outside the rules of rc_polygon below) or a density that
 * is not finite or is negative, they give the answer of no shape: a distance result with point
 * (0, 0), normal (1, 0) and distance FLT_MAX; mass data all zero; the box (0, 0)-(0, 0). Mass
 * data that would not be floats (a circle of radius 1e20) are no mass either. Any other input
 * is answered in float range: a distance beyond it (a point at 3e38 from a shape at -3e38) is
 * FLT_MAX, with the nearest point and the unit normal as ever (the distances work in double).
 */
#ifndef RICOCHET_GEOMETRY_H
#define RICOCHET_GEOMETRY_H

#include "id.h"
#include "math.h"

RC_EXTERN_C_BEGIN

/* The answer of a ray or sweep. shape and body are set by world queries only and are null ids
 * from the pure functions here. */
typedef struct rc_ray_hit {
    float t;             /* fraction of the translation, 0..1 */
    rc_vec2 point;       /* world point of the hit */
    rc_vec2 normal;      /* unit surface normal at the hit, pointing against the ray */
    bool started_inside; /* the origin was inside the shape: t == 0 */
    rc_shape_id shape;   /* world queries only */
    rc_body_id body;     /* world queries only */
} rc_ray_hit;

/* The part of a segment a..b inside a convex polygon: a + t * (b - a) for t_near <= t <= t_far. */
typedef struct rc_clip {
    float t_near, t_far;
    rc_vec2 n_near; /* outward normal of the edge the segment's line enters through */
    rc_vec2 n_far;  /* outward normal of the edge the segment's line leaves through */
} rc_clip;

/* ---- the seed functions ----------------------------------------------------------------- */

/* Ray against the segment a..b, a two-sided wall with no thickness. Hits where the ray
 * crosses or touches the closed segment (a crossing through an endpoint counts); a ray
 * parallel to the segment, including one running along it, does not hit it, and neither does
 * a degenerate segment (a == b). The normal is the segment's unit perpendicular on the side
 * the ray comes from. hit may be NULL. */
RC_API bool rc_ray_segment(rc_vec2 origin, rc_vec2 translation, rc_vec2 a, rc_vec2 b, rc_ray_hit *hit);

/* Ray against any simple polygon v[0..n-1] (convex or concave, either winding, n >= 3): the
 * first point where the ray enters it, with the outward normal of the edge entered. A ray
 * starting inside hits at t = 0 with started_inside. Polygons that intersect themselves give
 * an answer by the crossing rule but no promise. hit may be NULL. */
RC_API bool rc_ray_polygon(rc_vec2 origin, rc_vec2 translation, const rc_vec2 *v, int n, rc_ray_hit *hit);

/* Cyrus-Beck clipping of the segment a..b against the closed convex polygon v[0..n-1]
 * (either winding, n >= 3). Returns true and fills clip when the segment and the polygon share
 * at least one point. t_near is 0 when a is inside or on the boundary, t_far is 1 when b is.
 * n_near and n_far are always unit vectors: the outward normals of the edges through which
 * the infinite line through a and b enters and leaves the polygon (for a start inside, the
 * edge the line crossed before a). A segment of zero length clips to nothing. The result for
 * a polygon that is not convex is meaningless but safe. clip may be NULL. */
RC_API bool rc_clip_segment_convex(rc_vec2 a, rc_vec2 b, const rc_vec2 *v, int n, rc_clip *clip);

/* Ray against the closed disk of the given centre and radius, both roots of the quadratic
 * considered: a ray starting inside hits at t = 0 with started_inside; a ray that ends inside
 * or passes through hits where it enters; a tangent ray hits at the touching point. A
 * negative or non-finite radius hits nothing; radius 0 is a point. hit may be NULL. */
RC_API bool rc_ray_circle(rc_vec2 origin, rc_vec2 translation, rc_vec2 center, float radius, rc_ray_hit *hit);

/* Is p inside the closed convex polygon v[0..n-1] (either winding, n >= 3)? Points on the
 * boundary are inside. */
RC_API bool rc_point_in_convex(rc_vec2 p, const rc_vec2 *v, int n);

/* Is p inside the simple polygon v[0..n-1] (any shape, either winding, n >= 3)? Decided by the
 * crossing rule without a division (Graphics Gems IV), evaluated in double precision; a point
 * exactly on the boundary may be classed either way (use rc_point_in_convex or a distance
 * when the boundary matters). */
RC_API bool rc_point_in_polygon(rc_vec2 p, const rc_vec2 *v, int n);

/* The point of the segment a..b nearest to p. A degenerate segment (a == b) gives a. */
RC_API rc_vec2 rc_nearest_point_on_segment(rc_vec2 a, rc_vec2 b, rc_vec2 p);

/* ---- shapes by value ---------------------------------------------------------------------- */

typedef struct rc_circle {
    rc_vec2 center;
    float radius;
} rc_circle;

/* A convex polygon: count vertices in counter-clockwise order, each edge's unit outward normal
 * (normals[i] belongs to the edge from vertices[i] to vertices[i + 1]) and the centroid.
 * Build one with rc_make_polygon, rc_make_box or rc_make_regular_polygon, and move it with
 * rc_transform_polygon; a hand-filled polygon must keep the same rules. A valid polygon has
 *  - 3 to RC_MAX_POLYGON_VERTICES vertices, all finite, its width and height finite;
 *  - strict convexity in counter-clockwise order: every vertex strictly left of the line of
 *    every edge it is not on, decided in double as rc_make_polygon decides (so no repeated or
 *    collinear vertices, no clockwise order, no bow-tie);
 *  - each normal a unit vector (to 1/1000 in its square) and its edge's outward perpendicular
 *    but for rounding: within 32 FLT_EPSILON times (1 + the largest vertex coordinate over the
 *    edge's length), never more than 60 degrees off. That covers the rounding of a made polygon
 *    moved anywhere (a box 1 across at 1e5 rounds its edges by up to 0.01 rad); a polygon only a
 *    few float spacings across where it lies can round out of these rules;
 *  - the centroid finite and inside, outside no edge by more than 32 FLT_EPSILON times the
 *    largest vertex coordinate.
 * The casts, distances and manifolds read the vertices, normals and centroid as given (their
 * hits report them), so the casts and manifolds here and the world's polygon queries refuse any
 * other one: they return false (or -1) as for bad input; rc_point_distance_polygon,
 * rc_compute_polygon_mass and rc_polygon_aabb give the answer of no shape (see "Bad input" at
 * the top). */
typedef struct rc_polygon {
    rc_vec2 vertices[RC_MAX_POLYGON_VERTICES];
    rc_vec2 normals[RC_MAX_POLYGON_VERTICES];
    rc_vec2 centroid;
    int count;
} rc_polygon;

/* Why rc_make_polygon refused its input. */
typedef enum rc_polygon_error {
    RC_POLYGON_OK = 0,
    RC_POLYGON_NULL_POINTS,  /* points is NULL */
    RC_POLYGON_TOO_FEW,      /* fewer than 3 points */
    RC_POLYGON_TOO_MANY,     /* more than RC_MAX_POLYGON_VERTICES points */
    RC_POLYGON_NOT_FINITE,   /* a coordinate is NaN or infinite */
    RC_POLYGON_DEGENERATE,   /* fewer than 3 distinct, non-collinear points, or no area */
    RC_POLYGON_NOT_CONVEX,   /* the outline turns both ways, or winds round more than once */
} rc_polygon_error;

/* A sentence describing the error, for messages. Never NULL. */
RC_API const char *rc_polygon_error_string(rc_polygon_error error);

/* Build a convex polygon from an outline in either winding. Clockwise input is reversed,
 * repeated points are dropped and vertices that lie on the line of their neighbours (within a
 * tolerance relative to the polygon's size) are removed. Input that is concave, self-
 * intersecting, non-finite, without area, or has fewer than 3 or more than
 * RC_MAX_POLYGON_VERTICES points is refused: the return value says why and *out is untouched. */
RC_API rc_polygon_error rc_make_polygon(const rc_vec2 *points, int count, rc_polygon *out);

/* An axis-aligned box of the given half extents centred on the origin. Half extents must be
 * positive and at most FLT_MAX / 2 (so that the box's edges are floats); otherwise a polygon
 * with count 0 is returned. */
RC_API rc_polygon rc_make_box(float half_width, float half_height);

/* The regular polygon with count vertices (3..RC_MAX_POLYGON_VERTICES) on a circle of the given
 * radius about the origin, rotated by angle; the first vertex is at angle. Bad input gives a
 * polygon with count 0. */
RC_API rc_polygon rc_make_regular_polygon(int count, float radius, float angle);

/* The polygon moved by a rigid transform. Bad input gives a polygon with count 0 (all zero):
 * polygon NULL or its count outside 0..RC_MAX_POLYGON_VERTICES, a position that is not finite,
 * a rotation that is not a unit (c, s) within 1e-5 (it would stretch the polygon), or a
 * polygon whose numbers are not finite or would leave float range where it is moved to. */
RC_API rc_polygon rc_transform_polygon(rc_transform xf, const rc_polygon *polygon);

/* A capsule (a stadium): the points within radius of the segment center1..center2. Radius 0
 * is the segment itself; equal centres make a circle. */
typedef struct rc_capsule {
    rc_vec2 center1, center2;
    float radius;
} rc_capsule;

/* Mass properties of a shape of uniform density (mass per unit area). */
typedef struct rc_mass_data {
    float area;
    float mass;
    rc_vec2 center;           /* centre of mass */
    float rotational_inertia; /* about the centre of mass */
} rc_mass_data;

RC_API rc_mass_data rc_compute_circle_mass(rc_circle circle, float density);
RC_API rc_mass_data rc_compute_polygon_mass(const rc_polygon *polygon, float density);
/* A rectangle 2 radius wide along the segment and two half disks: centre at the segment's
 * middle, rotational inertia about it. */
RC_API rc_mass_data rc_compute_capsule_mass(rc_capsule capsule, float density);

RC_API rc_aabb rc_circle_aabb(rc_circle circle);
RC_API rc_aabb rc_polygon_aabb(const rc_polygon *polygon);
RC_API rc_aabb rc_segment_aabb(rc_vec2 a, rc_vec2 b);
RC_API rc_aabb rc_capsule_aabb(rc_capsule capsule);

/* ---- casts against shapes ------------------------------------------------------------------ */

/* A ray against a convex polygon (its precomputed normals make this faster than
 * rc_ray_polygon). hit may be NULL. */
RC_API bool rc_ray_cast_polygon(const rc_polygon *polygon, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);

/* A circle of the given radius swept from origin (its centre) along translation, against a
 * shape: exactly a ray against the shape rounded by the radius. t is the fraction of the
 * centre's translation; point is where the moving circle touches the shape, on the shape's
 * surface; normal is the shape's outward normal there. If the circle overlaps the shape at
 * the start, the hit is t = 0 with started_inside and point = origin. radius 0 is a ray.
 * hit may be NULL. */
RC_API bool rc_circle_cast_circle(rc_circle shape, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit);
RC_API bool rc_circle_cast_polygon(const rc_polygon *shape, rc_vec2 origin, float radius, rc_vec2 translation,
                                   rc_ray_hit *hit);
/* Against the segment a..b, which the sweep treats as a capsule of the given radius. A
 * degenerate segment is a point. */
RC_API bool rc_circle_cast_segment(rc_vec2 a, rc_vec2 b, rc_vec2 origin, float radius, rc_vec2 translation,
                                   rc_ray_hit *hit);
/* Against a capsule: the point is on the capsule's rounded surface. False for a capsule with a
 * centre or radius that is not finite, a negative radius, or radii whose sum is not finite. */
RC_API bool rc_circle_cast_capsule(rc_capsule shape, rc_vec2 origin, float radius, rc_vec2 translation,
                                   rc_ray_hit *hit);
/* A ray against a capsule (rc_circle_cast_capsule with radius 0). hit may be NULL. */
RC_API bool rc_ray_cast_capsule(rc_capsule capsule, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);

/* ---- distance ------------------------------------------------------------------------------ */

/* The nearest point of a shape's boundary to a query point. */
typedef struct rc_distance_result {
    rc_vec2 point;  /* nearest point on the boundary (on the segment, for segments) */
    rc_vec2 normal; /* unit: the shape's outward normal there, pointing towards the query
                       point when it is outside */
    float distance; /* signed: negative inside a solid shape; never negative for a segment */
} rc_distance_result;

RC_API rc_distance_result rc_point_distance_circle(rc_circle circle, rc_vec2 p);
RC_API rc_distance_result rc_point_distance_polygon(const rc_polygon *polygon, rc_vec2 p);
/* For a segment the normal is the direction from the nearest point to p, or the segment's left
 * perpendicular when p lies on it. */
RC_API rc_distance_result rc_point_distance_segment(rc_vec2 a, rc_vec2 b, rc_vec2 p);
/* Signed: negative inside the capsule; the normal as for the segment between its centres. */
RC_API rc_distance_result rc_point_distance_capsule(rc_capsule capsule, rc_vec2 p);

/* ---- overlap: contact manifolds ----------------------------------------------------------- */

/* How two shapes A and B overlap. Touching counts as overlapping with depth 0. */
typedef struct rc_manifold {
    rc_vec2 normal;    /* unit, from A towards B: moving B along it separates them */
    rc_vec2 points[2]; /* world contact points, midway between the two surfaces (a circle far
                          inside one over 4,096 times its size: its centre, the middle of the
                          part of the centre line inside both; a polygon or segment inside a
                          circle over 4,096 times its distance from the circle's centre: the
                          point of its surface nearest that centre) */
    float depths[2];   /* penetration at each point, >= 0 */
    int point_count;   /* 0 when the shapes are apart, else 1 or 2 */
    float depth;       /* the larger of depths[], 0 when apart */
} rc_manifold;

/* Each returns true when the shapes overlap or touch and then fills *m (m may be NULL). */
RC_API bool rc_collide_circles(rc_circle a, rc_circle b, rc_manifold *m);
RC_API bool rc_collide_polygon_circle(const rc_polygon *a, rc_circle b, rc_manifold *m);
/* Separating axes over both polygons' edge normals; up to two contact points by clipping the
 * incident edge against the reference edge. */
RC_API bool rc_collide_polygons(const rc_polygon *a, const rc_polygon *b, rc_manifold *m);
/* A circle against the segment a..b (a two-sided wall). The normal points from the segment to
 * the circle. */
RC_API bool rc_collide_segment_circle(rc_vec2 a, rc_vec2 b, rc_circle circle, rc_manifold *m);
/* A convex polygon against the segment a..b (a two-sided wall), by separating axes with the
 * segment as a polygon of two vertices. The normal points from the segment to the polygon. */
RC_API bool rc_collide_segment_polygon(rc_vec2 a, rc_vec2 b, const rc_polygon *polygon, rc_manifold *m);

RC_EXTERN_C_END

#endif
