/* shapes/: the geometry module.
 *
 * Owns: the pure functions of <ricochet/geometry.h> and <ricochet/math.h>; base transforms
 * (offset, angle, scale under a body) and placing a shape's numbers in the world; and the
 * queries on placed shapes, which read them through views (rc_shape_view) so that the owner
 * of the numbers (the world) can keep them as compactly as it likes. Allocates nothing and
 * knows nothing of bodies, ids or the world. */
#ifndef RICOCHET_SHAPES_H
#define RICOCHET_SHAPES_H

#include <ricochet/geometry.h>

#include <float.h>

/* Plain comparisons: fmaxf and fminf are library calls unless the compiler may assume no NaN,
 * and everything here has been checked to be finite. */
RC_INLINE float rc_maxf(float a, float b) { return a > b ? a : b; }
RC_INLINE float rc_minf(float a, float b) { return a < b ? a : b; }
/* Is a round end of radius r, its centre distance from that of one of radius big, inside it
 * with the big one over 4,096 times its reach (r + distance)? There the point midway between
 * the surfaces lies far out of the small one, a lever arm of half the big radius whose float
 * roundings (a 1e-7 of it) outgrow a thousandth of the small one: contacts take the middle of
 * the part of the centre line inside both instead (shapes/collide.c, rc_collide_circles). */
RC_INLINE bool rc_round_inside(float big, float r, float distance) {
    return big > distance + r && big * (1.0f / 4096.0f) > distance + r;
}
/* The middle of the stretch of the centre line inside both round ends (radii ra about the first
 * centre, rb about the second, distance apart), from the first centre towards the second. */
RC_INLINE float rc_middle_inside_both(float ra, float rb, float distance) {
    return 0.5f * (rc_maxf(-ra, distance - rb) + rc_minf(ra, distance + rb));
}

/* Relative tolerance for deciding that two directions are parallel, or a point lies on a
 * line: a few float roundings of the quantities compared. Always multiplied by the size of
 * the inputs at hand, never used bare. */
#define RC_REL_TOL (4.0f * FLT_EPSILON)

/* The unit vector along (x, y), computed in double (so vectors whose components overflow or
 * underflow float squares, or are no floats at all, still give one), with +0 for zero
 * components; (0, 0) for a zero or non-finite vector. */
rc_vec2 rc_unit_of(double x, double y);

/* The outward normal where a line along the unit (ux, uy) enters a circle: (cx, cy) is the
 * centre's offset to the line's nearest point, half the half-chord. Built from those two
 * rather than from the entry point minus the centre, which cancels to rounding when the centre
 * is far along the line (a fuzz find: the normal pointed along the line); the offset's
 * rounding along the line is removed, so the normal is against the line by half exactly. */
rc_vec2 rc_line_entry_normal(double cx, double cy, double ux, double uy, double half);

typedef enum rc_shape_kind {
    RC_SHAPE_CIRCLE,
    RC_SHAPE_POLYGON,
    RC_SHAPE_SEGMENT, /* one segment of a chain: a two-sided wall */
    RC_SHAPE_CAPSULE,
} rc_shape_kind;

typedef struct rc_segment {
    rc_vec2 a, b;
} rc_segment;

/* A convex polygon's numbers, held elsewhere: count vertices counter-clockwise and the unit
 * outward normal of each edge (normals[i]: from vertices[i] to vertices[i + 1]). A placed
 * polygon's normals are its local ones turned, not its placed edges turned a quarter: far from
 * the origin the placed vertices round to coarse floats and an edge can round to nothing, while
 * its normal must stay a unit vector. */
typedef struct rc_convex {
    const rc_vec2 *vertices;
    const rc_vec2 *normals;
    int count;
    rc_vec2 centroid;
} rc_convex;

RC_INLINE rc_convex rc_convex_of(const rc_polygon *p) {
    rc_convex c = {p->vertices, p->normals, p->count, p->centroid};
    return c;
}

/* A placed shape, as every query on it reads it. */
typedef struct rc_shape_view {
    rc_shape_kind kind;
    union {
        rc_circle circle;
        rc_convex polygon;
        rc_segment segment;
        rc_capsule capsule;
    } u;
} rc_shape_view;

/* ---- base transforms and placement ---------------------------------------------------------- */

/* A shape's base transform as given: in the body frame a local point v goes to
 * offset + R(angle) * (scale.x * v.x, scale.y * v.y). */
typedef struct rc_base_transform {
    rc_vec2 offset;
    float angle;
    rc_vec2 scale;
} rc_base_transform;

/* The same, ready to apply: the rotation computed once. */
typedef struct rc_base {
    rc_vec2 offset;
    rc_rot q;
    rc_vec2 scale;
} rc_base;

/* Check a base transform for a shape kind and prepare it. NULL on success, else a static
 * message (non-finite values, a zero scale, a circle scaled non-uniformly). */
const char *rc_base_make(rc_base_transform in, rc_shape_kind kind, rc_base *out);

/* Does the polygon keep its area and its vertices under the base transform (no scale so
 * extreme that it flattens the outline)? NULL, or a message. */
const char *rc_base_check_polygon(const rc_base *base, const rc_convex *local);

/* A local point in the body frame, evaluated as the API states it. */
rc_vec2 rc_base_apply(const rc_base *base, rc_vec2 v);

/* A circle about the local origin with local_radius, placed under base and body. */
rc_circle rc_place_circle(const rc_base *base, float local_radius, rc_transform body);

/* The unit outward edge normals of a local polygon (count vertices, counter-clockwise) under
 * the base transform, in the order of its placed edges (reversed when the base mirrors it):
 * each local normal through the inverse transpose of the scale, turned, normalised in double. */
void rc_base_normals(const rc_base *base, const rc_vec2 *local, int n, rc_vec2 *normals);

/* A convex polygon under its base transform, in its body's frame (its vertices in the order
 * they are placed in: counter-clockwise even when the base mirrors it; its normals; its
 * centroid): the numbers placing reads and collisions work in. Only local's vertices and
 * centroid are read. */
rc_polygon rc_base_polygon(const rc_base *base, const rc_convex *local);

/* A polygon in its body's frame placed under the body's transform: world vertices, unless
 * normals is NULL the world normals, the centroid and the box. A normal is the placed edge
 * turned a quarter where the rounding of its ends turns it by less than 1/1024 rad, else the
 * body-frame normal turned (an edge rounded to nothing far from the origin still has one). */
void rc_place_polygon(const rc_convex *body, rc_transform xf, rc_vec2 *vertices, rc_vec2 *normals, rc_vec2 *centroid,
                      rc_aabb *box);

/* ---- queries on placed shapes --------------------------------------------------------------- */

rc_aabb rc_view_aabb(const rc_shape_view *s);
rc_distance_result rc_view_distance(const rc_shape_view *s, rc_vec2 p);
/* A floor under rc_view_distance(s, p).distance, cheaper to work out: for a polygon the furthest
 * p lies outside an edge's line, less an allowance far larger than the roundings of either
 * (1e-4 of the coordinates' size), so that a floor above some d means the distance is above d
 * too. -INFINITY for the other kinds (their distance is cheap: ask it). */
float rc_view_distance_floor(const rc_shape_view *s, rc_vec2 p);
/* Inside or on the boundary; segments have no inside. */
bool rc_view_test_point(const rc_shape_view *s, rc_vec2 p);
/* The manifold between two placed shapes, normal from a to b. Segment against segment never
 * collides (walls do not touch walls). */
bool rc_view_collide(const rc_shape_view *a, const rc_shape_view *b, rc_manifold *m);

/* ---- the cores behind the public functions ---------------------------------------------------- */

/* The public casts and collisions check their shapes, which costs a pass over the vertices;
 * placed shapes were checked when they were made, so the views call these unchecked cores. */
bool rc_convex_ray_cast(const rc_convex *polygon, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);
bool rc_circle_ray_cast(rc_circle circle, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);
bool rc_convex_circle_cast(const rc_convex *shape, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit);
rc_distance_result rc_convex_distance(const rc_convex *polygon, rc_vec2 p);
/* rc_circle_aabb, rc_capsule_aabb, rc_segment_aabb and rc_polygon_aabb of shapes the world made
 * or checked (valid, within range), unchecked: the step places shapes with them. */
static inline rc_aabb rc_circle_box(rc_circle c) {
    rc_aabb box = {{c.center.x - c.radius, c.center.y - c.radius}, {c.center.x + c.radius, c.center.y + c.radius}};
    return box;
}
static inline rc_aabb rc_capsule_box(rc_capsule c) {
    rc_aabb box = {rc_min(c.center1, c.center2), rc_max(c.center1, c.center2)};
    box.lower = rc_v2(box.lower.x - c.radius, box.lower.y - c.radius);
    box.upper = rc_v2(box.upper.x + c.radius, box.upper.y + c.radius);
    return box;
}
static inline rc_aabb rc_segment_box(rc_vec2 a, rc_vec2 b) {
    rc_aabb box = {rc_min(a, b), rc_max(a, b)};
    return box;
}
static inline rc_aabb rc_polygon_box(const rc_polygon *polygon) {
    rc_aabb box = {polygon->vertices[0], polygon->vertices[0]};
    for (int i = 1; i < polygon->count; ++i) {
        box.lower = rc_min(box.lower, polygon->vertices[i]);
        box.upper = rc_max(box.upper, polygon->vertices[i]);
    }
    return box;
}
/* The public mass functions' rules for bad input (geometry.h): a density they take; mass data
 * whose numbers are all floats, or none. */
#define RC_NO_MASS ((rc_mass_data){0.0f, 0.0f, {0.0f, 0.0f}, 0.0f})
static inline bool rc_density_ok(float density) { return rc_is_finite(density) && density >= 0.0f; }
static inline rc_mass_data rc_finite_mass(rc_mass_data m) {
    return rc_is_finite(m.area) && rc_is_finite(m.mass) && rc_is_finite(m.rotational_inertia) ? m : RC_NO_MASS;
}
/* rc_compute_circle_mass, rc_compute_polygon_mass and rc_compute_capsule_mass unchecked: the
 * world checks its shapes, and their masses against RC_MAX_MASS, itself. */
rc_mass_data rc_circle_mass_of(rc_circle circle, float density);
rc_mass_data rc_polygon_mass_of(const rc_polygon *polygon, float density);
rc_mass_data rc_capsule_mass_of(rc_capsule c, float density);
/* rc_point_distance_segment, rc_point_distance_circle and rc_point_distance_capsule of the
 * shapes the world made (finite, within its limit), unchecked and in float as the step has
 * always worked them out (the public functions work in double, for any finite input). */
rc_distance_result rc_segment_distance(rc_vec2 a, rc_vec2 b, rc_vec2 p);
rc_distance_result rc_circle_distance(rc_circle circle, rc_vec2 p);
rc_distance_result rc_capsule_distance(rc_capsule c, rc_vec2 p);
/* The pure functions' answers for bad input (geometry.h): no distance, a distance in double
 * held to float range; and whether the disk about c of radius r (>= 0) lies within float range. */
rc_distance_result rc_no_distance(void);
float rc_float_distance(double d);
bool rc_disk_in_range(rc_vec2 c, float r);
bool rc_convex_test_point(const rc_convex *polygon, rc_vec2 p);
bool rc_convex_collide_circle(const rc_convex *a, rc_circle b, rc_manifold *m);
bool rc_convex_collide(const rc_convex *a, const rc_convex *b, rc_manifold *m);
bool rc_segment_collide_convex(rc_vec2 a, rc_vec2 b, const rc_convex *polygon, rc_manifold *m);

/* ---- helpers shared by the files of this module ---------------------------------------------- */

float rc_convex_max_extent(const rc_convex *p);
/* The farthest vertex from the first: a size that does not change as the polygon moves or
 * turns (the reference-face tolerance of rc_convex_collide, as the narrow phase's). */
float rc_convex_span(const rc_convex *p);
void rc_polygon_compute_normals(rc_polygon *p);
/* A ray that meets edge `edge` (from v[edge] to v[edge + 1]) at p, right at one of the edge's
 * ends within rounding, passes through that vertex: the two edges there give the same t up to
 * rounding, so rounding must not pick the normal. Returns the outward unit normal of whichever
 * of the two the ray meets more squarely (sign: +1 for counter-clockwise v, -1 for clockwise).
 * normals: the edges' unit outward normals when the polygon has them, else NULL (then each
 * edge is turned a quarter). */
/* The unit outward normal of the edge a..b of a counter-clockwise polygon: `stored`, the one the
 * polygon carries, unless rounding of a and b turned the edge more than 1e-6 rad away from it
 * (a polygon a few float spacings across, far from the origin, whose rotated normals no longer
 * describe its rounded edges); then the normal of the edge's own line, against which a ray was
 * found to enter. A ray told it enters an edge gets a normal against it. */
rc_vec2 rc_edge_normal(rc_vec2 a, rc_vec2 b, rc_vec2 stored);
rc_vec2 rc_vertex_hit_normal(const rc_vec2 *v, const rc_vec2 *normals, int n, float sign, int edge, rc_vec2 normal,
                             rc_vec2 p, rc_vec2 origin, rc_vec2 d);

/* The crossing rule for one edge from a to b: does the horizontal ray from p towards +x cross
 * it? Its ends lie on different sides of y = p.y (one strictly above, one on or below) and the
 * crossing lies right of p, compared without dividing by the edge's height; double precision
 * makes the products exact for floats of similar size. rc_point_in_polygon counts these. */
static inline bool rc_ray_crosses_edge(rc_vec2 p, rc_vec2 a, rc_vec2 b) {
    double px = p.x, py = p.y, xi = b.x, yi = b.y, xj = a.x, yj = a.y;
    bool above_i = yi > py, above_j = yj > py;
    if (above_i == above_j) {
        return false;
    }
    /* crossing x > px  <=>  (xj - px) * (yi - yj) - (yj - py) * (xi - xj) has the sign of (yi - yj) */
    double lhs = (xj - px) * (yi - yj) - (yj - py) * (xi - xj);
    return (lhs > 0.0) == above_i;
}

/* A polygon a public function may take: a valid rc_polygon (geometry.h), one rc_make_polygon
 * could give, moved by rc_transform_polygon anywhere. At most 8 x 8 cross products in double. */
bool rc_polygon_input_ok(const rc_polygon *p);
bool rc_circle_input_ok(rc_circle c);
bool rc_capsule_input_ok(rc_capsule c);

/* inline: the sweeps call these once per candidate shape */
static inline bool rc_view_ray_cast(const rc_shape_view *s, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_circle_ray_cast(s->u.circle, origin, translation, hit);
    case RC_SHAPE_POLYGON:
        return rc_convex_ray_cast(&s->u.polygon, origin, translation, hit);
    case RC_SHAPE_CAPSULE:
        return rc_ray_cast_capsule(s->u.capsule, origin, translation, hit);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_ray_segment(origin, translation, s->u.segment.a, s->u.segment.b, hit);
}

static inline bool rc_view_circle_cast(const rc_shape_view *s, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit) {
    switch (s->kind) {
    case RC_SHAPE_CIRCLE:
        return rc_circle_cast_circle(s->u.circle, origin, radius, translation, hit);
    case RC_SHAPE_POLYGON:
        return rc_convex_circle_cast(&s->u.polygon, origin, radius, translation, hit);
    case RC_SHAPE_CAPSULE:
        return rc_circle_cast_capsule(s->u.capsule, origin, radius, translation, hit);
    case RC_SHAPE_SEGMENT:
        break;
    }
    return rc_circle_cast_segment(s->u.segment.a, s->u.segment.b, origin, radius, translation, hit);
}

/* A circle swept against the shape, or a ray when the radius is 0. */
static inline bool rc_view_cast(const rc_shape_view *s, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit) {
    return radius > 0.0f ? rc_view_circle_cast(s, origin, radius, translation, hit)
                         : rc_view_ray_cast(s, origin, translation, hit);
}

#endif
