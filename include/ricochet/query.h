/* ricochet: query.h
 * Questions to the world: ray, circle and polygon casts (closest and all hits, batches of rays),
 * box, point, circle and polygon overlaps, the sectors that contain a point, and the trajectory
 * preview (rc_world_predict). Part of the world's API: world.h includes it, and its units,
 * ownership, errors, callbacks and threads are world.h's (the functions taking a const
 * rc_world * may run concurrently with each other). */
#ifndef RICOCHET_QUERY_H
#define RICOCHET_QUERY_H

#include "world.h"

RC_EXTERN_C_BEGIN

/* ---- queries -------------------------------------------------------------------------------- */

/* Which shapes a query sees: never the shapes of ignore_body; else, with a group_index that is
 * not 0 and equal to the shape's, the shape is seen when the group is positive and not when it
 * is negative (as two shapes' filters pair: a player's shots pass through the player's own
 * group); else when (shape.category & mask_bits) != 0 and (category_bits & shape.mask) != 0.
 * Sensors are never seen by ray and circle casts. The casts without a filter argument see every
 * shape but sensors. A query whose ignore_body is neither null nor a live body of the world is
 * refused (an error, nothing reported). */
typedef struct rc_query_filter {
    uint32_t category_bits; /* default all */
    uint32_t mask_bits;     /* default all */
    int32_t group_index;    /* default 0: no group */
    rc_body_id ignore_body; /* a body the query never sees (the shooter); default null */
} rc_query_filter;

RC_API rc_query_filter rc_default_query_filter(void);

/* The closest hit along origin + t * translation, 0 <= t <= 1, over all shapes; false on a
 * miss or bad input (a ray of zero length hits nothing). A shape containing the origin is hit
 * at t = 0 with started_inside. Ties at the same fraction go to the lower shape id. hit may be
 * NULL: whether anything is hit, nothing written (here and in rc_world_cast_circle and the
 * filtered forms; a batch's hits may not be NULL).
 *
 * Speed: the step keeps a compact copy of the level (the shapes of static bodies: their cells,
 * and what a cast reads of each shape in one record), which closest-hit rays, swept circles and
 * the step's own sweeps walk instead of the broadphase (about 1.7x faster a ray on a level of
 * 10,000 props). The copy is made by a step after the level changes: at the first step after
 * the level is built, and after a change as soon as the level has stayed the same for a few
 * steps (a level changed at every step is not copied; one changed now and then waits longer
 * after each copy that served only a few steps). Until then the casts walk the broadphase. The
 * answers are the same bits either way. The copy costs 24 bytes per cell a shape covers (most
 * cover 1 to 4) and 48 bytes per shape (a polygon 40 plus 16 a vertex). */
RC_API bool rc_world_cast_ray(const rc_world *world, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit);
RC_API bool rc_world_cast_ray_filtered(const rc_world *world, rc_vec2 origin, rc_vec2 translation,
                                       rc_query_filter filter, rc_ray_hit *hit);

/* A ray of a batch: from origin along translation (t = 0..1). */
typedef struct rc_ray_input {
    rc_vec2 origin, translation;
} rc_ray_input;

/* Many closest-hit rays at once (a shotgun's pellets, a crowd's lines of sight, an AI's sensor
 * fan): hits[i] is exactly what rc_world_cast_ray_filtered gives for rays[i] and filter, bit
 * for bit, whatever the order, the batch size or the task system. A miss has null shape and
 * body ids, t = 1, point at the ray's end, the unit normal against the ray ((0, 1) for a ray of
 * zero length) and started_inside false. The rays are spread over the world's task system
 * (rc_world_def.enqueue_task) in ranges of RC_RAYS_PER_TASK, and each range is cast in the order
 * of the rays' origins along a curve that keeps neighbours together (hits is its scratch until
 * each ray's answer is written): a large batch over a large level finds its cells in the cache
 * (100,000 props, 200,000 rays: 1.9x the loop of single casts). Returns the number of hits, or -1
 * (and the last error; nothing written) on bad input: NULL rays or hits with count > 0, a
 * negative count, a ray that is not finite, a stale ignore_body in the filter. Like every
 * query it may run while other queries run, on any thread. */
RC_API int32_t rc_world_cast_rays(const rc_world *world, const rc_ray_input *rays, int32_t count,
                                  rc_query_filter filter, rc_ray_hit *hits);
#define RC_RAYS_PER_TASK 64

/* A circle of the given radius swept from origin along translation (see geometry.h); the
 * closest hit over all shapes. */
RC_API bool rc_world_cast_circle(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                                 rc_ray_hit *hit);
RC_API bool rc_world_cast_circle_filtered(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                                          rc_query_filter filter, rc_ray_hit *hit);

/* For each shape hit by a cast, roughly nearest first among the level's shapes (those of static
 * bodies), then roughly nearest first among the others (the two are kept in grids of their own);
 * return what the cast should do next:
 * -1 ignores this hit (the cast goes on as before), 0 stops the cast, a fraction in (0, 1)
 * clips the cast to it (only nearer hits follow), 1 goes on without clipping. */
typedef float rc_cast_fn(const rc_ray_hit *hit, void *context);

/* Every shape the ray hits, once each, through fn. False on bad input. */
RC_API bool rc_world_cast_ray_all(const rc_world *world, rc_vec2 origin, rc_vec2 translation, rc_query_filter filter,
                                  rc_cast_fn *fn, void *context);
RC_API bool rc_world_cast_circle_all(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation,
                                     rc_query_filter filter, rc_cast_fn *fn, void *context);

/* A convex polygon (its vertices given in the world where it starts) swept along translation
 * without turning: its first touch of a shape that the filter sees (sensors never), as for a
 * swept circle: t is the fraction of the translation at which it first touches, point where,
 * normal the shape's surface normal there (against the motion). A polygon overlapping a shape
 * at the start hits it at t = 0 with started_inside, the normal the way out and the point the
 * polygon's centroid. Ties go to the lower shape id. False on a miss, a translation of zero
 * length, or bad input (a polygon that rc_make_polygon would not give, see rc_polygon in
 * geometry.h; a translation that is not finite, a sweep beyond RC_WORLD_LIMIT). Touching within
 * float rounding of the shapes' sizes counts as touching. hit may be NULL, as for the rays. */
RC_API bool rc_world_cast_polygon(const rc_world *world, const rc_polygon *polygon, rc_vec2 translation,
                                  rc_query_filter filter, rc_ray_hit *hit);

/* For each shape found by an overlap query; return false to stop. */
typedef bool rc_overlap_fn(rc_shape_id shape, rc_body_id body, void *context);

/* Shapes whose box overlaps the box (a fast, coarse test: the shapes themselves may not). A long
 * wall of a static chain counts by the boxes of its pieces (rc_shape_create_chain), which hug
 * it more closely than its one box. */
RC_API int32_t rc_world_overlap_aabb(const rc_world *world, rc_aabb box, rc_query_filter filter, rc_overlap_fn *fn,
                                     void *context);
/* Shapes containing the point (boundary included; sensors too). */
RC_API int32_t rc_world_overlap_point(const rc_world *world, rc_vec2 point, rc_query_filter filter, rc_overlap_fn *fn,
                                      void *context);
/* Shapes overlapping the disk (an explosion radius); touching counts. */
/* Shapes the convex polygon (in the world) overlaps or touches, exactly (sensors too; a chain's
 * walls from either side). Returns how many; -1 on bad input (a polygon that rc_make_polygon
 * would not give, see rc_polygon in geometry.h, or one beyond RC_WORLD_LIMIT). */
RC_API int32_t rc_world_overlap_polygon(const rc_world *world, const rc_polygon *polygon, rc_query_filter filter,
                                        rc_overlap_fn *fn, void *context);
RC_API int32_t rc_world_overlap_circle(const rc_world *world, rc_vec2 center, float radius, rc_query_filter filter,
                                       rc_overlap_fn *fn, void *context);
/* The overlap queries return how many shapes they reported (fn may be NULL to just count),
 * or -1 on bad input. */

/* ---- trajectory preview ------------------------------------------------------------------------ */

/* A body that would be thrown: what rc_world_predict needs to know about it. */
typedef struct rc_prediction_def {
    rc_vec2 position;          /* its centre when thrown */
    rc_vec2 velocity;          /* units/s */
    float angular_velocity;    /* rad/s */
    float radius;              /* of its circle; 0: a point */
    float density;             /* of the circle: its mass matters against dynamic bodies; default 1 */
    float point_mass;          /* a point's mass; default 1 */
    float restitution;         /* default 0 */
    float friction;            /* default 0.6 */
    float rolling_resistance;  /* default 0.2 */
    float gravity_scale;       /* default 1 */
    float linear_damping, angular_damping;
    bool bullet;               /* a bullet rather than a grenade; default false. The preview strikes dynamic
                                  bodies either way (they stay where they are), so the path is the same */
    int32_t max_bounces;       /* per step; default 8 */
    int32_t bounces_left;      /* of its life (rc_body_bounces_left); -1 (default): no limit */
    rc_filter filter;          /* what it hits; default rc_default_filter() */
    rc_body_id ignore_body;    /* a body it never hits (the thrower); default null */
    float dt;                  /* the step; default 1/60 */
    int32_t steps;             /* how many steps to predict; default 60 */
} rc_prediction_def;

RC_API rc_prediction_def rc_prediction_default_def(void);

/* One bounce of a predicted path. */
typedef struct rc_predicted_bounce {
    int32_t step;          /* 0-based index of the step in which it happens */
    rc_shape_id shape;     /* what it strikes */
    rc_vec2 point, normal;
    float approach_speed;
    int32_t bounce;        /* as rc_impact_event's, counted from the throw */
    bool spent;
} rc_predicted_bounce;

/* The path a body thrown as def describes would take, without changing the world: the same
 * sweep, bounce and resting-contact code as the step, against the shapes as they are now
 * (kinematic bodies are taken as still; dynamic bodies that are not bullets, asleep or awake,
 * are struck and rested on where they are, and do not move: a grenade thrown at a sleeping
 * one stops at it, where the real throw pushes it on; the bounce off one is the step's, and for
 * the rest of that step the preview meets it at the velocity that bounce would give it, as the
 * step does). Writes the
 * centre after each step into positions (def->steps entries) and the first bounce_capacity
 * bounces into bounces (NULL when bounce_capacity is 0). Returns how many bounces the path
 * has, or -1 on bad input (then nothing is written). A body created as def describes (one
 * circle of that radius at its origin, or a point bullet) follows exactly this path while no
 * other body moves near it and it stays awake: the preview does not sleep, so a body that
 * comes to rest and falls asleep (world.h: sleep_linear_speed, sleep_time) stops where the
 * path, slower than the sleep speed by then, goes on creeping (a bullet drifting at 0.04
 * units/s in no gravity sleeps at step 30 at x = 0.02; the path reaches 0.04 at step 60). Set
 * enable_sleep false in its rc_body_def to keep them the same. */
RC_API int32_t rc_world_predict(const rc_world *world, const rc_prediction_def *def, rc_vec2 *positions,
                                rc_predicted_bounce *bounces, int32_t bounce_capacity);

RC_EXTERN_C_END

#endif
