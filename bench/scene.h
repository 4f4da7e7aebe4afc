/* bench/scene.h: the deterministic scenes every engine of the benchmark is fed.
 *
 * One seed, one generator (splitmix64). Each scene draws its shapes from its own stream and its
 * rays from another, both derived from the seed, so every engine (and the driver, which checks
 * the answers) sees exactly the same shapes and rays. Shapes and rays are produced one at a
 * time, never held in an array, so a runner's peak RSS is its engine, not the scene's data.
 *
 * Shapes: half circles of radius uniform in [1, 6], half regular n-gons (n uniform in 3..8) of
 * circumradius uniform in [1, 6], each with a uniform random rotation, centres uniform in the
 * square [-side/2, side/2]^2. Polygon vertices are counter-clockwise. Moving scenes add a
 * velocity of uniform direction and speed uniform in [0, 50].
 *
 * Rays: origin uniform in the same square, direction uniform, length 200.
 *
 * Transformed scenes (rays-transformed): every shape is a unit shape under a transform, as a
 * game places a prop: a regular n-gon of circumradius 1 (or a circle of radius 1) scaled by
 * (sx, sy) = radius * (f1, f2), f uniform in [0.4, 1.6] (circles: both f1), turned by the
 * angle and moved to the centre; world vertices are computed from that in double. Rays are
 * 50-300 units long. ricochet gets the unit shape and the transform (its base transform);
 * the peers get the world vertices. Extra draws come only in these scenes, so the others keep
 * their streams.
 *
 * Bullets (bullet scenes): origin uniform in the same square, redrawn while it lies strictly
 * inside a shape (the exact test below), direction uniform, a fixed speed. A bullet scene
 * shares the salt, and so the shapes, of the ray scene it is built on; its bullets come from a
 * stream of their own.
 */
#ifndef BENCH_SCENE_H
#define BENCH_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_SEED 0x2D2C011DE5EEDULL
#define BENCH_MAX_VERTS 8
#define BENCH_RAY_LENGTH 200.0

typedef enum bench_scene_kind { BENCH_RAYS, BENCH_MOVING, BENCH_BULLETS } bench_scene_kind;

typedef struct bench_scene {
    const char *name; /* "rays-10k", ... */
    bench_scene_kind kind;
    int32_t shape_count;
    double side;          /* the square [-side/2, side/2]^2 */
    int64_t rays;         /* ray scenes: how many timed rays */
    int64_t warmup_rays;  /* ray scenes: untimed rays first (their own stream) */
    int32_t steps;        /* moving and bullet scenes: timed steps */
    int32_t warmup_steps; /* moving scenes: untimed steps first */
    double dt;            /* moving and bullet scenes */
    uint64_t salt;        /* tells the scene's streams apart (a bullet scene shares its ray scene's) */
    int32_t bullets;      /* bullet scenes: how many bullets */
    double bullet_speed;  /* bullet scenes: units/s */
    int32_t max_bounces;  /* bullet scenes: bounces per bullet per step */
    bool transformed;     /* shapes under random non-uniform scales, rays of 50-300 units (above) */
} bench_scene;

/* The scenes of the spec; quick divides rays and steps by 10. */
int bench_scene_count(void);
bench_scene bench_scene_get(int index, bool quick);
/* -1 when no scene has that name. */
int bench_scene_find(const char *name);

typedef struct bench_shape {
    int32_t index; /* 0..shape_count-1, the order of generation */
    int32_t is_polygon;
    int32_t count;                   /* polygon vertex count, 3..8 */
    float x, y;                      /* centre */
    float radius;                    /* circle radius or polygon circumradius */
    float angle;                     /* rotation */
    float local[BENCH_MAX_VERTS][2]; /* polygon vertices about the centre, CCW, already rotated */
    float world[BENCH_MAX_VERTS][2]; /* polygon vertices in the world: (float)(centre + local), CCW */
    float vx, vy;                    /* velocity (moving scenes; drawn in every scene so streams stay aligned) */
    /* transformed scenes: the unit shape (polygon vertices, circle radius 1) and its scale; the
       centre and angle above place it */
    float unit[BENCH_MAX_VERTS][2];
    float scale_x, scale_y;
} bench_shape;

/* splitmix64 */
typedef struct bench_rng {
    uint64_t state;
} bench_rng;

bench_rng bench_rng_make(uint64_t seed, uint64_t stream);
uint64_t bench_rng_next(bench_rng *rng);
double bench_rng_uniform(bench_rng *rng); /* [0, 1) with 53 bits */

/* The shape stream of a scene: call bench_shapes_next shape_count times. */
typedef struct bench_shape_gen {
    const bench_scene *scene;
    bench_rng rng;
    int32_t next;
} bench_shape_gen;

void bench_shapes_begin(bench_shape_gen *gen, const bench_scene *scene);
bool bench_shapes_next(bench_shape_gen *gen, bench_shape *out);

typedef struct bench_ray {
    float ox, oy; /* origin */
    float dx, dy; /* translation: direction * 200 */
} bench_ray;

/* The ray stream of a scene (warmup = true: the separate stream of warm-up rays). */
typedef struct bench_ray_gen {
    const bench_scene *scene;
    bench_rng rng;
} bench_ray_gen;

void bench_rays_begin(bench_ray_gen *gen, const bench_scene *scene, bool warmup);
void bench_rays_next(bench_ray_gen *gen, bench_ray *out, int64_t count);

/* A bullet: where it starts and its velocity. */
typedef struct bench_bullet {
    float x, y;
    float vx, vy;
} bench_bullet;

/* The bullets of a bullet scene, scene->bullets of them into out. Builds (and frees) the
 * inside index below: origins strictly inside a shape are redrawn (with a new direction too).
 * Returns how many draws were redrawn, or -1 when memory ran out. */
int64_t bench_bullets_make(const bench_scene *scene, bench_bullet *out);

/* Strict point-inside tests in double precision against all shapes of a scene, for the driver
 * (to count rays that start inside a shape). Built once, queried per point. */
typedef struct bench_inside_index bench_inside_index;
bench_inside_index *bench_inside_build(const bench_scene *scene);
/* Index of a shape strictly containing (x, y), or -1. */
int32_t bench_inside_find(const bench_inside_index *index, float x, float y);
/* The same for a point in double precision (a position an engine keeps in doubles). */
int32_t bench_inside_find_d(const bench_inside_index *index, double x, double y);
void bench_inside_destroy(bench_inside_index *index);

/* The exact closest hit of a ray over all shapes of the index, by brute force in double
 * precision (for checking disagreements): t, or -1 on a miss; *shape gets the shape index and
 * *chord the length of the ray's chord through that shape (small: a grazing hit). */
double bench_exact_cast(const bench_inside_index *index, const bench_ray *ray, int32_t *shape, double *chord);

/* The same for one shape: true when the ray meets it (t and chord set); on a miss *gap is the
 * distance between the ray's segment and the shape. */
bool bench_exact_shape(const bench_inside_index *index, const bench_ray *ray, int32_t shape, double *t, double *chord,
                       double *gap);

/* One step of a bullet by exact geometry in double precision against the index's shapes: from
 * (x, y) with velocity (vx, vy) it goes to the first surface it meets, stops exactly on it,
 * reflects its velocity about the normal (v - 2 (v.n) n) and goes on for the rest of dt, at
 * most max_bounces bounces (then it stops at its next contact). *last_shape is the shape it
 * last touched (-1: none), never hit again at once (it cannot be: shapes are convex); updated.
 * Returns the bounces. */
int32_t bench_exact_bullet_step(const bench_inside_index *index, double *x, double *y, double *vx, double *vy,
                                double dt, int32_t max_bounces, int32_t *last_shape);

/* The answer of one ray, as every runner writes it. */
typedef struct bench_answer {
    float t; /* fraction of the translation; 1 on a miss */
    uint8_t hit;
    uint8_t inside; /* the engine said the origin was inside (ricochet: started_inside) */
    uint8_t pad[2];
    int32_t shape; /* scene index of the shape hit, -1 on a miss */
} bench_answer;

#ifdef __cplusplus
}
#endif

#endif
