/* tests/support/reference.h: an independent reference for the geometry module.
 *
 * Everything here is written from the mathematical definitions, in double precision, on the
 * exact float inputs the library receives. It shares no code with shapes/: the functions
 * under test are compared against these, never against themselves. Also here: a small
 * deterministic random number generator (splitmix64) and the random polygon generators the
 * randomized suites use, so that every run with the same seed sees the same cases.
 *
 * Conventions: a polygon is an array of rc_vec2 in either winding; outward normals are
 * computed from its signed area. Rays are origin + t * translation over 0 <= t <= 1. */
#ifndef RICOCHET_TESTS_REFERENCE_H
#define RICOCHET_TESTS_REFERENCE_H

#include <ricochet/ricochet.h>

#include <stdbool.h>
#include <stdint.h>

/* ---- double vectors ------------------------------------------------------------------------ */

typedef struct ref_v2 {
    double x, y;
} ref_v2;

ref_v2 ref_v(double x, double y);
ref_v2 ref_from(rc_vec2 v);
ref_v2 ref_add(ref_v2 a, ref_v2 b);
ref_v2 ref_sub(ref_v2 a, ref_v2 b);
ref_v2 ref_scale(double s, ref_v2 a);
ref_v2 ref_mad(ref_v2 a, double s, ref_v2 b); /* a + s * b */
double ref_dot(ref_v2 a, ref_v2 b);
double ref_cross(ref_v2 a, ref_v2 b);
double ref_len(ref_v2 a);
double ref_dist(ref_v2 a, ref_v2 b);
ref_v2 ref_unit(ref_v2 a); /* (0, 0) for a zero vector */

/* ---- answers --------------------------------------------------------------------------------- */

typedef struct ref_hit {
    bool hit;
    double t;
    ref_v2 point;
    ref_v2 normal;
    bool started_inside;
} ref_hit;

typedef struct ref_clip {
    bool hit;
    double t_near, t_far;
    ref_v2 n_near, n_far;
} ref_clip;

typedef struct ref_distance {
    double distance; /* signed, negative inside a solid shape */
    ref_v2 point;    /* nearest boundary point */
    ref_v2 normal;   /* outward normal there (towards p when outside) */
    double tie_gap;  /* for polygons: the gap between the nearest and the second nearest edge (a
                        small gap means the nearest edge, and so the normal, is ambiguous) */
} ref_distance;

typedef struct ref_mass {
    double area, mass;
    ref_v2 center;
    double inertia; /* about the centre of mass */
} ref_mass;

/* ---- polygons -------------------------------------------------------------------------------- */

/* Twice the signed area by the shoelace formula about v[0]: positive for counter-clockwise. */
double ref_signed_area2(const rc_vec2 *v, int n);
/* Unit outward normal of the edge v[i] -> v[(i + 1) % n], for either winding. */
ref_v2 ref_edge_normal(const rc_vec2 *v, int n, int i);
/* Winding number of the closed outline around p (nonzero: inside). p must not lie on the
 * outline; use ref_boundary_distance to keep away from it. */
int ref_winding_number(ref_v2 p, const rc_vec2 *v, int n);
/* Distance from p to the nearest point of the outline. */
double ref_boundary_distance(ref_v2 p, const rc_vec2 *v, int n);
/* Distance from p to the segment a..b, and the nearest point on it. */
double ref_segment_distance(ref_v2 p, ref_v2 a, ref_v2 b, ref_v2 *nearest);
/* Distance from p to the infinite line through a and b (a != b). */
double ref_line_distance(ref_v2 p, ref_v2 a, ref_v2 b);

/* ---- the queries ----------------------------------------------------------------------------- */

/* Ray against the segment a..b by the parametric solve o + t d = a + s (b - a); parallel lines
 * (exactly, in double) and degenerate segments or rays give no hit. *sin_angle (may be NULL)
 * receives |sin| of the angle between the ray and the segment. */
ref_hit ref_ray_segment(ref_v2 o, ref_v2 d, ref_v2 a, ref_v2 b, double *sin_angle);

/* Ray against a simple polygon in either winding, by brute force: every edge crossing of the
 * ray's infinite line, the inside test by winding number. Outside origin: the first entering
 * crossing with 0 <= t <= 1. Inside origin: t = 0, started_inside, the normal of the last
 * entering crossing behind the origin. The origin must not be on the boundary. */
ref_hit ref_ray_polygon(ref_v2 o, ref_v2 d, const rc_vec2 *v, int n);

/* Cyrus-Beck clipping of a..b against a convex polygon of either winding. */
ref_clip ref_clip_convex(ref_v2 a, ref_v2 b, const rc_vec2 *v, int n);

/* Ray against the closed disk by the quadratic |o + t d - c|^2 = r^2, both roots. */
ref_hit ref_ray_circle(ref_v2 o, ref_v2 d, ref_v2 c, double r);

/* The point of a..b nearest to p: the clamped projection. */
ref_v2 ref_nearest_on_segment(ref_v2 a, ref_v2 b, ref_v2 p);

/* Signed distance of p to a solid convex or concave polygon, or to a circle / segment. */
ref_distance ref_distance_polygon(const rc_vec2 *v, int n, ref_v2 p);
ref_distance ref_distance_circle(ref_v2 c, double r, ref_v2 p);
ref_distance ref_distance_segment(ref_v2 a, ref_v2 b, ref_v2 p);

/* A circle of radius r swept from o along d against a convex polygon (v, n, either winding), or
 * against the capsule around a..b when n == 2 (n == 1: a point). Brute force over the pieces of
 * the rounded shape: every edge pushed out by r along its outward normal and the circle of
 * radius r round every vertex; the entry of the ray's line into their union is the smallest
 * entering root over all pieces. t, normal and point (the touched point of the shape) follow
 * geometry.h; started_inside when the signed distance at o is below r. */
ref_hit ref_circle_cast(const rc_vec2 *v, int n, ref_v2 o, double r, ref_v2 d);

/* The same sweep by a second method: golden-section search for the minimum of the (convex)
 * signed distance along the sweep and bisection for the first time it reaches r. Only t and
 * hit / started_inside are meaningful. *min_distance (may be NULL) receives that minimum, as
 * ref_sweep_min_distance gives it. */
ref_hit ref_circle_cast_bisect(const rc_vec2 *v, int n, ref_v2 o, double r, ref_v2 d, double *min_distance);

/* The smallest distance from the set (polygon n >= 3 signed, segment n == 2, point n == 1) to the
 * centre of a circle swept from o along d, over the whole sweep 0 <= t <= 1: how close the
 * sweep comes to grazing. */
double ref_sweep_min_distance(const rc_vec2 *v, int n, ref_v2 o, ref_v2 d);

/* Separating-axis separation of two convex vertex sets (either winding; n == 2 is a segment,
 * whose two sides are both axes): the largest gap min(B . u) - max(A . u) over every edge
 * normal u of both sets, in both directions. Positive: apart by at least that much; negative:
 * overlapping, -separation is the penetration depth. *axis (may be NULL) receives the unit
 * axis, oriented from A towards B. */
double ref_sat_separation(const rc_vec2 *a, int na, const rc_vec2 *b, int nb, ref_v2 *axis);

/* Penetration of B into A along the unit direction u: max(A . u) - min(B . u). Moving B by
 * that much along u makes their projections on u just touch. */
double ref_overlap_along(const rc_vec2 *a, int na, const rc_vec2 *b, int nb, ref_v2 u);

/* Mass properties of a uniform polygon (either winding) by triangulation about v[0]. */
ref_mass ref_polygon_mass(const rc_vec2 *v, int n, double density);

/* ---- random numbers -------------------------------------------------------------------------- */

typedef struct ref_rng {
    uint64_t state;
} ref_rng;

ref_rng ref_rng_seed(uint64_t seed);
uint64_t ref_rng_next(ref_rng *rng);           /* splitmix64 */
double ref_rng_uniform(ref_rng *rng, double lo, double hi); /* [lo, hi) */
int ref_rng_int(ref_rng *rng, int lo, int hi);  /* lo..hi inclusive */
bool ref_rng_bool(ref_rng *rng);
/* A point uniformly in the disk of the given centre and radius. */
ref_v2 ref_rng_disk(ref_rng *rng, ref_v2 center, double radius);
rc_vec2 ref_to_float(ref_v2 v);

/* A random convex polygon with n vertices (3..8): random angles (kept apart) on an ellipse of
 * semi-axes between 0.3 and 1 times size, randomly rotated, centred on center, rounded to
 * float and checked strictly convex in double. Counter-clockwise when ccw, else clockwise. */
void ref_random_convex(ref_rng *rng, ref_v2 center, double size, int n, bool ccw, rc_vec2 *out);

/* A random simple, star-shaped (usually concave) polygon with n vertices (n >= 3): sorted
 * angles kept apart, each at a random radius between 0.25 and 1 times size from center. */
void ref_random_star(ref_rng *rng, ref_v2 center, double size, int n, bool ccw, rc_vec2 *out);

/* ---- comparison helpers ---------------------------------------------------------------------- */

/* Largest |coordinate| among the points: the magnitude that float rounding is relative to. */
double ref_max_abs(const rc_vec2 *v, int n);

#endif
