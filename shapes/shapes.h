/* shapes/: the geometry module.
 *
 * Owns: the pure functions of <ricochet/geometry.h> and <ricochet/math.h>, and the shape
 * geometry record the world keeps per shape (rc_shape_geometry): the shape as defined, its
 * base transform (offset, angle, scale), and the data cached from it in the body frame and in
 * the world (vertices, normals, radius, box). Knows nothing of bodies, ids or the world. */
#ifndef RICOCHET_SHAPES_H
#define RICOCHET_SHAPES_H

#include <ricochet/geometry.h>

#include <float.h>

/* Relative tolerance for deciding that two directions are parallel, or a point lies on a
 * line: a few float roundings of the quantities compared. Always multiplied by the size of
 * the inputs at hand, never used bare. */
#define RC_REL_TOL (4.0f * FLT_EPSILON)

typedef enum rc_shape_kind {
    RC_SHAPE_CIRCLE,
    RC_SHAPE_POLYGON,
    RC_SHAPE_SEGMENT, /* one segment of a chain: a two-sided wall */
} rc_shape_kind;

/* A shape's base transform, applied in the body frame: offset + R(angle) * (scale.x * x, scale.y * y). */
typedef struct rc_base_transform {
    rc_vec2 offset;
    float angle;
    rc_vec2 scale;
} rc_base_transform;

typedef struct rc_segment {
    rc_vec2 a, b;
} rc_segment;

/* A shape's geometry at three stages: as defined (local), with its base transform applied
 * (body frame), and placed by its body's transform (world). The world-stage data and box are
 * what every query reads; they are recomputed whenever the body moves or the base transform
 * is set. */
typedef struct rc_shape_geometry {
    rc_shape_kind kind;
    rc_base_transform base;
    union {
        rc_circle circle;
        rc_polygon polygon;
        rc_segment segment;
    } local, body, world;
    rc_aabb aabb; /* world box, tight */
} rc_shape_geometry;

/* Initialise from a definition. Returns NULL on success, else a static message naming what is
 * wrong (scale zero or non-finite, a circle scaled non-uniformly, a polygon that the scale
 * flattens to no area). On failure *g is untouched. The world stage is left for
 * rc_geometry_place. */
const char *rc_geometry_init_circle(rc_shape_geometry *g, float radius, rc_base_transform base);
const char *rc_geometry_init_polygon(rc_shape_geometry *g, const rc_polygon *local, rc_base_transform base);
const char *rc_geometry_init_segment(rc_shape_geometry *g, rc_vec2 a, rc_vec2 b);

/* Replace the base transform; same errors as the init functions, *g untouched on failure.
 * The caller places the shape again afterwards. */
const char *rc_geometry_set_base(rc_shape_geometry *g, rc_base_transform base);

/* Recompute the world stage and box from the body's transform. */
void rc_geometry_place(rc_shape_geometry *g, rc_transform body);

/* Mass properties in the body frame. Segments have none. */
rc_mass_data rc_geometry_mass(const rc_shape_geometry *g, float density);

/* Queries on the world stage. */
bool rc_geometry_ray_cast(const rc_shape_geometry *g, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);
bool rc_geometry_circle_cast(const rc_shape_geometry *g, rc_vec2 origin, float radius, rc_vec2 translation,
                             rc_ray_hit *hit);
rc_distance_result rc_geometry_distance(const rc_shape_geometry *g, rc_vec2 p);
bool rc_geometry_test_point(const rc_shape_geometry *g, rc_vec2 p);
/* The manifold between two placed shapes, normal from a to b. Segment against segment never
 * collides (walls do not touch walls). */
bool rc_geometry_collide(const rc_shape_geometry *a, const rc_shape_geometry *b, rc_manifold *m);

/* Internal helpers shared by the files of this module. */
float rc_polygon_max_extent(const rc_polygon *p);
void rc_polygon_compute_normals(rc_polygon *p);
/* A ray that meets edge `edge` (from v[edge] to v[edge + 1]) at p, right at one of the edge's
 * ends within rounding, passes through that vertex: the two edges there give the same t up to
 * rounding, so rounding must not pick the normal. Returns the outward unit normal of whichever
 * of the two the ray meets more squarely (sign: +1 for counter-clockwise v, -1 for clockwise). */
rc_vec2 rc_vertex_hit_normal(const rc_vec2 *v, int n, float sign, int edge, rc_vec2 normal, rc_vec2 p,
                             rc_vec2 origin, rc_vec2 d);

/* A polygon a public function may take: 3..RC_MAX_POLYGON_VERTICES vertices, all finite. */
bool rc_polygon_input_ok(const rc_polygon *p);
bool rc_circle_input_ok(rc_circle c);

/* The public casts and collisions check their shapes, which costs a pass over the vertices;
 * the world's shapes were checked when they were made, so it calls these unchecked cores. */
bool rc_ray_cast_polygon_core(const rc_polygon *polygon, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);
bool rc_circle_cast_polygon_core(const rc_polygon *shape, rc_vec2 origin, float radius, rc_vec2 translation,
                                 rc_ray_hit *hit);
bool rc_collide_polygon_circle_core(const rc_polygon *a, rc_circle b, rc_manifold *m);
bool rc_collide_polygons_core(const rc_polygon *a, const rc_polygon *b, rc_manifold *m);
bool rc_collide_segment_polygon_core(rc_vec2 a, rc_vec2 b, const rc_polygon *polygon, rc_manifold *m);

#endif
