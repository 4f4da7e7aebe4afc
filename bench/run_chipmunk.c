/* bench/run_chipmunk.c: Chipmunk2D 7 runners, default bounding-box tree and spatial hash.
 *
 * Ray scenes: every shape on the space's static body, then cpSpaceReindexStatic (the manual's
 * call after changing static shapes). The bbtree configuration also runs cpBBTreeOptimize on
 * the static tree (a top-down rebuild, public API of cpSpatialIndex.h; the tree is reached
 * through chipmunk_structs.h) unless --no-cp-optimize. Rays: cpSpaceSegmentQueryFirst with
 * radius 0 and CP_SHAPE_FILTER_ALL.
 *
 * cpSpaceUseSpatialHash replaces BOTH of the space's indexes (static and dynamic) with spatial
 * hashes of the given cell size and table size (the runner checks this at run time and says
 * so in its description), so the spatial-hash configuration answers the static ray scenes
 * from a spatial hash too.
 *
 * Moving scenes: one body per shape (mass 1, moment of a disk), sensor shapes, no gravity,
 * default iterations; cpSpaceStep.
 *
 * Bullet scenes: the static shapes as in the ray scenes (elasticity 1, friction 0), one
 * cpSpaceStep (untimed), and no Chipmunk bodies for the bullets: the loop a user writes by hand.
 * Each step, for each bullet: cpSpaceSegmentQueryFirst from its position to position +
 * velocity * remaining time; on a hit it moves to the hit point backed off BULLET_BACKOFF along
 * the normal, its velocity is reflected about the normal (v - 2 (v.n) n) and it goes on for the
 * remaining time, at most max_bounces bounces per step (then it stops at the contact for the
 * rest of the step). Positions and velocities in cpVect (double). */
#include "bench.h"

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_private.h> /* the space's indexes and arbiter cache, for checks and counts */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* How far a bullet stops off the surface it hit, along the surface normal. */
#define BULLET_BACKOFF 1e-4

typedef struct cp_ctx {
    cpSpace *space;
    cpBody **bodies; /* moving scenes */
    int32_t count;
    /* bullet scenes: the bullets, kept by the user, not by Chipmunk */
    cpVect *bullet_pos, *bullet_vel;
    int32_t max_bounces;
    int64_t step_bounces, bounces, limit_hits, steps;
} cp_ctx;

static double cp_hash_dim(const bench_config *cfg) {
    /* The manual: "Setting dim to the average collision shape size is likely to give the best
     * performance". Shapes have radius (or circumradius) uniform in [1, 6]: mean diameter 7. */
    return cfg->hash_dim > 0.0 ? cfg->hash_dim : 7.0;
}

static int cp_hash_count(const bench_config *cfg, int32_t shapes) {
    /* The manual: "Setting count to ~10x the number of objects in the space is probably a good
     * starting point." */
    int mul = cfg->hash_count_mul > 0 ? cfg->hash_count_mul : 10;
    return mul * shapes;
}

/* Which kind of index the space uses, checked against fresh instances of each kind. */
static const char *cp_index_kind(cpSpatialIndex *index) {
    static const char *names[2] = {"bbtree", "spatial hash"};
    cpSpatialIndex *tree = cpBBTreeNew(NULL, NULL);
    cpSpatialIndex *hash = cpSpaceHashNew(1.0, 16, NULL, NULL);
    const char *name = "unknown";
    if (index->klass == tree->klass) {
        name = names[0];
    } else if (index->klass == hash->klass) {
        name = names[1];
    }
    cpSpatialIndexFree(tree);
    cpSpatialIndexFree(hash);
    return name;
}

static cpShape *cp_make_shape(cpBody *body, const bench_shape *s, bool world_coords) {
    if (!s->is_polygon) {
        cpVect offset = world_coords ? cpv(s->x, s->y) : cpvzero;
        return cpCircleShapeNew(body, s->radius, offset);
    }
    cpVect v[BENCH_MAX_VERTS];
    for (int k = 0; k < s->count; ++k) {
        v[k] = world_coords ? cpv(s->world[k][0], s->world[k][1]) : cpv(s->local[k][0], s->local[k][1]);
    }
    /* Counter-clockwise convex input, as cpPolyShapeNewRaw expects; no rounding radius. */
    return cpPolyShapeNewRaw(body, s->count, v, 0.0);
}

static void *cp_build_static(const bench_scene *scene, const bench_config *cfg, bool hash, bool bouncy, char *desc,
                             size_t desc_size) {
    cp_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    c->space = cpSpaceNew();
    if (hash) {
        cpSpaceUseSpatialHash(c->space, cp_hash_dim(cfg), cp_hash_count(cfg, scene->shape_count));
    }
    cpBody *ground = cpSpaceGetStaticBody(c->space);
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        cpShape *shape = cp_make_shape(ground, &s, true);
        cpShapeSetUserData(shape, (cpDataPointer)(intptr_t)s.index);
        if (bouncy) {
            cpShapeSetElasticity(shape, 1.0);
            cpShapeSetFriction(shape, 0.0);
        }
        cpSpaceAddShape(c->space, shape);
    }
    cpSpaceReindexStatic(c->space);
    bool optimized = false;
    if (!hash && cfg->cp_optimize) {
        cpBBTreeOptimize(c->space->staticShapes);
        optimized = true;
    }
    if (hash) {
        snprintf(desc, desc_size,
                 "cpSpaceUseSpatialHash(dim %.3g, count %d = %d x shapes); static index: %s (checked); "
                 "cpSpaceReindexStatic",
                 cp_hash_dim(cfg), cp_hash_count(cfg, scene->shape_count),
                 cp_hash_count(cfg, scene->shape_count) / scene->shape_count, cp_index_kind(c->space->staticShapes));
    } else {
        snprintf(desc, desc_size, "default space; static index: %s (checked); cpSpaceReindexStatic%s",
                 cp_index_kind(c->space->staticShapes), optimized ? " + cpBBTreeOptimize" : "");
    }
    return c;
}

static void *cp_build_static_tree(const bench_scene *scene, const bench_config *cfg, char *desc, size_t n) {
    return cp_build_static(scene, cfg, false, false, desc, n);
}
static void *cp_build_static_hash(const bench_scene *scene, const bench_config *cfg, char *desc, size_t n) {
    return cp_build_static(scene, cfg, true, false, desc, n);
}

static void cp_cast(void *ctx, const bench_ray *rays, int32_t count, bench_answer *out, uint64_t *handles) {
    cpSpace *space = ((cp_ctx *)ctx)->space;
    for (int32_t i = 0; i < count; ++i) {
        cpVect a = cpv(rays[i].ox, rays[i].oy);
        cpVect b = cpv((cpFloat)rays[i].ox + (cpFloat)rays[i].dx, (cpFloat)rays[i].oy + (cpFloat)rays[i].dy);
        cpSegmentQueryInfo info;
        cpShape *shape = cpSpaceSegmentQueryFirst(space, a, b, 0.0, CP_SHAPE_FILTER_ALL, &info);
        out[i].hit = shape != NULL;
        out[i].t = shape ? (float)info.alpha : 1.0f;
        out[i].inside = shape != NULL && info.alpha == 0.0;
        handles[i] = (uint64_t)(uintptr_t)shape;
    }
}

static void cp_resolve(void *ctx, bench_answer *out, const uint64_t *handles, int32_t count) {
    (void)ctx;
    for (int32_t i = 0; i < count; ++i) {
        out[i].shape = out[i].hit ? (int32_t)(intptr_t)cpShapeGetUserData((cpShape *)(uintptr_t)handles[i]) : -1;
    }
}

static void *cp_build_moving(const bench_scene *scene, const bench_config *cfg, bool hash, char *desc,
                             size_t desc_size) {
    cp_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    c->bodies = malloc(sizeof(cpBody *) * (size_t)scene->shape_count);
    if (!c->bodies) {
        free(c);
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    c->count = scene->shape_count;
    c->space = cpSpaceNew();
    cpSpaceSetGravity(c->space, cpvzero);
    if (hash) {
        cpSpaceUseSpatialHash(c->space, cp_hash_dim(cfg), cp_hash_count(cfg, scene->shape_count));
    }
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        cpBody *body = cpSpaceAddBody(c->space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0.0, s.radius, cpvzero)));
        cpBodySetPosition(body, cpv(s.x, s.y));
        cpBodySetVelocity(body, cpv(s.vx, s.vy));
        cpShape *shape = cp_make_shape(body, &s, false);
        cpShapeSetSensor(shape, cpTrue);
        cpShapeSetUserData(shape, (cpDataPointer)(intptr_t)s.index);
        cpSpaceAddShape(c->space, shape);
        c->bodies[s.index] = body;
    }
    if (hash) {
        snprintf(desc, desc_size,
                 "cpSpaceUseSpatialHash(dim %.3g, count %d = %d x shapes); dynamic index: %s (checked)",
                 cp_hash_dim(cfg), cp_hash_count(cfg, scene->shape_count),
                 cp_hash_count(cfg, scene->shape_count) / scene->shape_count, cp_index_kind(c->space->dynamicShapes));
    } else {
        snprintf(desc, desc_size, "default space; dynamic index: %s (checked); %d iterations, sleep off (default)",
                 cp_index_kind(c->space->dynamicShapes), cpSpaceGetIterations(c->space));
    }
    return c;
}

static void *cp_build_moving_tree(const bench_scene *scene, const bench_config *cfg, char *desc, size_t n) {
    return cp_build_moving(scene, cfg, false, desc, n);
}
static void *cp_build_moving_hash(const bench_scene *scene, const bench_config *cfg, char *desc, size_t n) {
    return cp_build_moving(scene, cfg, true, desc, n);
}

/* ---- bullets ------------------------------------------------------------------------------------ */

static void cp_destroy(void *ctx);

static void *cp_build_bullets(const bench_scene *scene, const bench_config *cfg, const bench_bullet *bullets,
                              bool hash, char *desc, size_t desc_size) {
    char index_desc[512];
    cp_ctx *c = cp_build_static(scene, cfg, hash, true, index_desc, sizeof index_desc);
    if (!c) {
        snprintf(desc, desc_size, "%s", index_desc);
        return NULL;
    }
    /* the untimed step of the static scenes, with the shapes alone */
    cpSpaceStep(c->space, scene->dt);
    c->count = scene->bullets;
    c->max_bounces = scene->max_bounces;
    c->bullet_pos = malloc(sizeof(cpVect) * (size_t)scene->bullets);
    c->bullet_vel = malloc(sizeof(cpVect) * (size_t)scene->bullets);
    if (!c->bullet_pos || !c->bullet_vel) {
        cp_destroy(c);
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    for (int32_t i = 0; i < scene->bullets; ++i) {
        c->bullet_pos[i] = cpv(bullets[i].x, bullets[i].y);
        c->bullet_vel[i] = cpv(bullets[i].vx, bullets[i].vy);
    }
    snprintf(desc, desc_size,
             "%s; shapes with elasticity 1, friction 0; one untimed cpSpaceStep; no bodies for the bullets: a "
             "hand-written loop per bullet of cpSpaceSegmentQueryFirst (radius 0, CP_SHAPE_FILTER_ALL) from its "
             "position over velocity * remaining time, moving to the hit point backed off %g along the normal, "
             "reflecting v - 2 (v.n) n, at most %d bounces per step (then stopping at the contact); positions and "
             "velocities in double; the loop is timed, no cpSpaceStep",
             index_desc, BULLET_BACKOFF, (int)scene->max_bounces);
    return c;
}

static void *cp_build_bullets_tree(const bench_scene *scene, const bench_config *cfg, const bench_bullet *bullets,
                                   char *desc, size_t n) {
    return cp_build_bullets(scene, cfg, bullets, false, desc, n);
}
static void *cp_build_bullets_hash(const bench_scene *scene, const bench_config *cfg, const bench_bullet *bullets,
                                   char *desc, size_t n) {
    return cp_build_bullets(scene, cfg, bullets, true, desc, n);
}

/* One step of every bullet: the loop a user of Chipmunk writes for bouncing bullets. */
static void cp_bullets_step(cp_ctx *c, cpFloat dt) {
    cpSpace *space = c->space;
    const int max_bounces = c->max_bounces;
    int64_t bounces = 0, limit_hits = 0;
    for (int32_t i = 0; i < c->count; ++i) {
        cpVect p = c->bullet_pos[i], v = c->bullet_vel[i];
        cpFloat remaining = dt;
        for (int n = 0;; ++n) {
            cpVect end = cpvadd(p, cpvmult(v, remaining));
            cpSegmentQueryInfo info;
            if (!cpSpaceSegmentQueryFirst(space, p, end, 0.0, CP_SHAPE_FILTER_ALL, &info)) {
                p = end;
                break;
            }
            p = cpvadd(info.point, cpvmult(info.normal, BULLET_BACKOFF));
            remaining *= 1.0 - info.alpha;
            if (n == max_bounces) {
                break; /* stopped at the contact for the rest of the step */
            }
            cpFloat vn = cpvdot(v, info.normal);
            v = cpvsub(v, cpvmult(info.normal, 2.0 * vn));
            ++bounces;
            limit_hits += n + 1 == max_bounces;
        }
        c->bullet_pos[i] = p;
        c->bullet_vel[i] = v;
    }
    c->step_bounces = bounces;
    c->bounces += bounces;
    c->limit_hits += limit_hits;
    c->steps++;
}

static int64_t cp_bullet_bounces(void *ctx) { return ((cp_ctx *)ctx)->step_bounces; }

static bool cp_bullet_velocity(void *ctx, int32_t i, double *vx, double *vy) {
    cp_ctx *c = ctx;
    if (!c->bullet_vel || i < 0 || i >= c->count) {
        return false;
    }
    *vx = c->bullet_vel[i].x;
    *vy = c->bullet_vel[i].y;
    return true;
}

static void cp_bullet_note(void *ctx, char *note, size_t note_size) {
    cp_ctx *c = ctx;
    snprintf(note, note_size,
             "bounces = reflections counted by the loop, %lld over %lld steps; %lld times a bullet made %d bounces "
             "in one step (its limit)",
             (long long)c->bounces, (long long)c->steps, (long long)c->limit_hits, (int)c->max_bounces);
}

static bool cp_step(void *ctx, float dt) {
    cp_ctx *c = ctx;
    if (c->bullet_pos) {
        cp_bullets_step(c, dt);
        return true;
    }
    cpSpaceStep(c->space, dt);
    return true;
}

typedef struct cp_count {
    cpTimestamp stamp;
    int64_t touching, cached;
} cp_count;

static void cp_count_arbiter(void *elt, void *data) {
    const cpArbiter *arb = elt;
    cp_count *n = data;
    n->cached++;
    /* cpArbiterUpdate stamps an arbiter in every step where the narrow phase finds contact,
     * sensor pairs included. */
    n->touching += arb->stamp == n->stamp;
}

static int64_t cp_count_step(void *ctx, float dt, char *note, size_t note_size) {
    cp_ctx *c = ctx;
    cpSpaceStep(c->space, dt);
    cp_count n = {c->space->stamp, 0, 0};
    cpHashSetEach(c->space->cachedArbiters, cp_count_arbiter, &n);
    snprintf(note, note_size, "arbiters the narrow phase touched in one extra step (%lld arbiters cached)",
             (long long)n.cached);
    return n.touching;
}

static bool cp_position(void *ctx, int32_t i, double *x, double *y) {
    cp_ctx *c = ctx;
    if (c->bullet_pos) {
        if (i < 0 || i >= c->count) {
            return false;
        }
        *x = c->bullet_pos[i].x;
        *y = c->bullet_pos[i].y;
        return true;
    }
    if (!c->bodies || i < 0 || i >= c->count) {
        return false;
    }
    cpVect p = cpBodyGetPosition(c->bodies[i]);
    *x = p.x;
    *y = p.y;
    return true;
}

static void cp_destroy_shape(cpBody *body, cpShape *shape, void *data) {
    (void)body;
    cpSpaceRemoveShape((cpSpace *)data, shape);
    cpShapeFree(shape);
}

static void cp_destroy_body(cpBody *body, void *data) {
    cpBodyEachShape(body, cp_destroy_shape, data);
    if (body != cpSpaceGetStaticBody((cpSpace *)data)) {
        cpSpaceRemoveBody((cpSpace *)data, body);
        cpBodyFree(body);
    }
}

static void cp_destroy(void *ctx) {
    cp_ctx *c = ctx;
    if (!c) {
        return;
    }
    /* Shapes and bodies are freed by hand, as Chipmunk leaves them to the caller. */
    cpBodyEachShape(cpSpaceGetStaticBody(c->space), cp_destroy_shape, c->space);
    if (c->bodies) {
        for (int32_t i = 0; i < c->count; ++i) {
            cp_destroy_body(c->bodies[i], c->space);
        }
    }
    cpSpaceFree(c->space);
    free(c->bodies);
    free(c->bullet_pos);
    free(c->bullet_vel);
    free(c);
}

static const char *cp_version(void) { return cpVersionString; }

const bench_runner bench_runner_chipmunk_bbtree = {
    .name = "chipmunk-bbtree",
    .version = cp_version,
    .build_static = cp_build_static_tree,
    .cast = cp_cast,
    .resolve = cp_resolve,
    .build_moving = cp_build_moving_tree,
    .step = cp_step,
    .count_step = cp_count_step,
    .position = cp_position,
    .destroy = cp_destroy,
    .build_bullets = cp_build_bullets_tree,
    .bullet_bounces = cp_bullet_bounces,
    .bullet_velocity = cp_bullet_velocity,
    .bullet_note = cp_bullet_note,
};

const bench_runner bench_runner_chipmunk_hash = {
    .name = "chipmunk-hash",
    .version = cp_version,
    .build_static = cp_build_static_hash,
    .cast = cp_cast,
    .resolve = cp_resolve,
    .build_moving = cp_build_moving_hash,
    .step = cp_step,
    .count_step = cp_count_step,
    .position = cp_position,
    .destroy = cp_destroy,
    .build_bullets = cp_build_bullets_hash,
    .bullet_bounces = cp_bullet_bounces,
    .bullet_velocity = cp_bullet_velocity,
    .bullet_note = cp_bullet_note,
};
