/* bench/bench.h: what each engine's runner provides to the driver (bench/main.c).
 *
 * A runner builds a scene in its engine, answers batches of rays or steps the world (moving
 * bodies, or bullets through static shapes), and says in a line how it configured the engine.
 * The driver does the timing (clock_gettime with CLOCK_MONOTONIC around whole batches), so a
 * runner's cast loop holds only the engine's own call and the store of its answer. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_config {
    bool quick;
    double hash_dim;    /* Chipmunk spatial hash cell size; 0 = the default choice */
    int hash_count_mul; /* Chipmunk spatial hash cells = this * shapes; 0 = the default */
    bool cp_optimize;   /* Chipmunk bbtree: cpBBTreeOptimize the static tree after loading */
} bench_config;

typedef struct bench_runner {
    const char *name; /* "ricochet", "ricochet-solid", "box2d3", "box2d", "chipmunk-bbtree", "chipmunk-hash" */
    const char *(*version)(void); /* the engine's version text */

    /* Static ray scenes (NULL: the runner does not take part in them): all shapes on one static body. NULL on failure
     * (message in desc). desc receives one line describing the configuration. */
    void *(*build_static)(const bench_scene *scene, const bench_config *cfg, char *desc, size_t desc_size);
    /* Closest hit of each ray: out[i].t/hit/inside, handles[i] an engine handle of the shape hit. */
    void (*cast)(void *ctx, const bench_ray *rays, int32_t count, bench_answer *out, uint64_t *handles);
    /* Untimed: turn handles into scene shape indices in out[i].shape (-1 for misses). */
    void (*resolve)(void *ctx, bench_answer *out, const uint64_t *handles, int32_t count);

    /* Moving scenes (NULL: not taking part): one dynamic body per shape, sensor shapes, no gravity. */
    void *(*build_moving)(const bench_scene *scene, const bench_config *cfg, char *desc, size_t desc_size);
    bool (*step)(void *ctx, float dt);
    /* Untimed: take one more step and return how many pairs of shapes overlap after it
     * (-1 when the engine cannot tell). note receives how it was counted. */
    int64_t (*count_step)(void *ctx, float dt, char *note, size_t note_size);
    /* Position of the body of shape index i. */
    bool (*position)(void *ctx, int32_t i, double *x, double *y);

    void (*destroy)(void *ctx);

    /* Bullet scenes (NULL: not taking part): the scene's shapes, static, with restitution 1 and
     * friction 0; the engine steps once (untimed) with the shapes alone, as in the ray scenes;
     * then one bullet per entry of bullets (scene->bullets of them): no gravity, at most
     * scene->max_bounces bounces per bullet per step, bullets never hit each other. step
     * advances every bullet by dt and position gives bullet i's position. */
    void *(*build_bullets)(const bench_scene *scene, const bench_config *cfg, const bench_bullet *bullets, char *desc,
                           size_t desc_size);
    /* Untimed, after each step of a bullet scene: the bounces of that step (-1: not counted). */
    int64_t (*bullet_bounces)(void *ctx);
    /* Untimed: velocity of bullet i. */
    bool (*bullet_velocity)(void *ctx, int32_t i, double *vx, double *vy);
    /* Untimed, after the last step: a line on how bounces were counted and anything else to report. */
    void (*bullet_note)(void *ctx, char *note, size_t note_size);
} bench_runner;

/* Each runner file defines its table; NULL-free names, present only when built. */
#ifdef BENCH_HAVE_RICOCHET
extern const bench_runner bench_runner_ricochet;
extern const bench_runner bench_runner_ricochet_solid; /* moving scenes only */
#endif
#ifdef BENCH_HAVE_CHIPMUNK
extern const bench_runner bench_runner_chipmunk_bbtree;
extern const bench_runner bench_runner_chipmunk_hash;
#endif
#ifdef BENCH_HAVE_BOX2D
extern const bench_runner bench_runner_box2d;
#endif
#ifdef BENCH_HAVE_BOX2D3
extern const bench_runner bench_runner_box2d3; /* Box2D v3 (C), compiled apart: see bench/CMakeLists.txt */
#endif

#ifdef __cplusplus
}
#endif

#endif
