/* bench/run_box2d3.c: the Box2D v3 runner (its C API, found installed: see bench/README.md).
 * No Box2D code is in this repository. It mirrors the Box2D 2.4 runner (run_box2d.cpp) scene for
 * scene; every world is single-threaded (workerCount 1, no task system: Box2D runs its tasks
 * inline) and steps with v3's default 4 sub-steps.
 *
 * Ray scenes: one static body at the origin carrying every shape (given in world coordinates),
 * rays through b2World_CastRayClosest with the default query filter. Like 2.4, v3's closest-hit
 * cast ignores a shape that contains the ray's origin (it drops hits at fraction 0), so inside
 * is never reported.
 *
 * Moving scenes: one dynamic body per shape with a sensor shape (density 1), no gravity. v3
 * computes sensor overlaps at the end of each step for sensors with sensor events enabled
 * (sensors also detect sensors in 3.1), so sensor events are turned on for every shape: that is
 * v3's counterpart of 2.4's sensor contacts, the pair work the scene asks of a peer.
 *
 * Bullet scenes: the static shapes as in the ray scenes (restitution 1, friction 0), one untimed
 * step, then one dynamic body per bullet with isBullet and a circle of radius 0.01 (density 1,
 * restitution 1, friction 0, group index -1 so that bullets never collide with each other), no
 * gravity. Bounces are the contact begin-touch events of each step, v3's own with no per-step cap
 * (as in 2.4): continuous collision stops a bullet at its first impact of a step and the contact
 * begun in the next step reflects it. v3 clamps every body's speed to the world's
 * maximumLinearSpeed (400 units/s by default; 2.4 had a compile-time cap on the translation per
 * step instead): that is a world setting, raised here above the bullets' speed so that v3 flies
 * them as the scene asks. */
#include "bench.h"

#include <box2d/box2d.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef BENCH_BOX2D3_CONFIG
#define BENCH_BOX2D3_CONFIG "build type unknown"
#endif

#define B3_SUBSTEPS 4 /* v3's default, as its manual and samples use */
#define B3_BULLET_RADIUS 0.01f

typedef struct b3_ctx {
    b2WorldId world;
    b2BodyId *bodies;  /* moving scenes: by shape index; bullet scenes: by bullet */
    b2ShapeId *shapes; /* moving scenes: by shape index, to read their sensor overlaps */
    int32_t count;
    int64_t begun; /* bullet scenes: contacts that began touching, in all */
} b3_ctx;

/* A world with no gravity on one worker. */
static b3_ctx *b3_new(float max_speed) {
    b3_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = (b2Vec2){0.0f, 0.0f};
    def.workerCount = 1;
    if (max_speed > 0.0f) {
        def.maximumLinearSpeed = max_speed;
    }
    c->world = b2CreateWorld(&def);
    return c;
}

static void b3_destroy(void *ctx) {
    b3_ctx *c = ctx;
    if (c == NULL) {
        return;
    }
    b2DestroyWorld(c->world);
    free(c->bodies);
    free(c->shapes);
    free(c);
}

/* Room for count bodies (and their shapes when with_shapes). */
static bool b3_reserve(b3_ctx *c, int32_t count, bool with_shapes) {
    c->count = count;
    c->bodies = calloc((size_t)count, sizeof *c->bodies);
    c->shapes = with_shapes ? calloc((size_t)count, sizeof *c->shapes) : NULL;
    return c->bodies != NULL && (!with_shapes || c->shapes != NULL);
}

/* The scene's shape s on body, in world coordinates (on the static body at the origin) or about
 * the centre (on its own body). Polygons go through b2ComputeHull, as v3 asks; false when the
 * hull is rejected. */
static bool b3_add_shape(b2BodyId body, const b2ShapeDef *sd, const bench_shape *s, bool world_coords,
                         b2ShapeId *out) {
    if (!s->is_polygon) {
        b2Circle circle = {{world_coords ? s->x : 0.0f, world_coords ? s->y : 0.0f}, s->radius};
        *out = b2CreateCircleShape(body, sd, &circle);
        return true;
    }
    b2Vec2 points[BENCH_MAX_VERTS];
    for (int k = 0; k < s->count; ++k) {
        const float *v = world_coords ? s->world[k] : s->local[k];
        points[k] = (b2Vec2){v[0], v[1]};
    }
    b2Hull hull = b2ComputeHull(points, s->count);
    if (hull.count == 0) {
        return false;
    }
    b2Polygon polygon = b2MakePolygon(&hull, 0.0f);
    *out = b2CreatePolygonShape(body, sd, &polygon);
    return true;
}

/* Every shape of the scene on one static body at the origin; bouncy: restitution 1, friction 0
 * (the bullet scenes). */
static bool b3_load_static(b3_ctx *c, const bench_scene *scene, bool bouncy, char *desc, size_t desc_size) {
    b2BodyDef bd = b2DefaultBodyDef(); /* static, at the origin */
    b2BodyId ground = b2CreateBody(c->world, &bd);
    b2ShapeDef sd = b2DefaultShapeDef();
    /* Static shapes on one body have nothing to pair with: skip the scan for contacts v3 makes
       when a shape is created (it only slows loading). */
    sd.invokeContactCreation = false;
    if (bouncy) {
        sd.material.restitution = 1.0f;
        sd.material.friction = 0.0f;
    }
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        sd.userData = (void *)(intptr_t)s.index;
        b2ShapeId id;
        if (!b3_add_shape(ground, &sd, &s, true, &id)) {
            snprintf(desc, desc_size, "b2ComputeHull rejected polygon %d", (int)s.index);
            return false;
        }
    }
    return true;
}

static void *b3_build_static(const bench_scene *scene, const bench_config *cfg, char *desc, size_t desc_size) {
    (void)cfg;
    b3_ctx *c = b3_new(0.0f);
    if (c == NULL) {
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    if (!b3_load_static(c, scene, false, desc, desc_size)) {
        b3_destroy(c);
        return NULL;
    }
    snprintf(desc, desc_size,
             "one static body, %d shapes (polygons from b2ComputeHull); b2World_CastRayClosest with the default "
             "query filter; one worker",
             (int)scene->shape_count);
    return c;
}

static void b3_cast(void *ctx, const bench_ray *rays, int32_t count, bench_answer *out, uint64_t *handles) {
    const b3_ctx *c = ctx;
    const b2QueryFilter filter = b2DefaultQueryFilter();
    for (int32_t i = 0; i < count; ++i) {
        const b2Vec2 origin = {rays[i].ox, rays[i].oy}, translation = {rays[i].dx, rays[i].dy};
        const b2RayResult r = b2World_CastRayClosest(c->world, origin, translation, filter);
        out[i].hit = r.hit;
        out[i].t = r.hit ? r.fraction : 1.0f;
        out[i].inside = 0; /* v3 never says: it skips the shape holding the origin */
        handles[i] = r.hit ? b2StoreShapeId(r.shapeId) : 0;
    }
}

static void b3_resolve(void *ctx, bench_answer *out, const uint64_t *handles, int32_t count) {
    (void)ctx;
    for (int32_t i = 0; i < count; ++i) {
        out[i].shape = out[i].hit ? (int32_t)(intptr_t)b2Shape_GetUserData(b2LoadShapeId(handles[i])) : -1;
    }
}

/* One dynamic body at the shape's centre with its velocity, carrying the shape as a sensor. */
static bool b3_add_moving(b3_ctx *c, const bench_shape *s) {
    b2BodyDef bd = b2DefaultBodyDef();
    bd.type = b2_dynamicBody;
    bd.position = (b2Vec2){s->x, s->y};
    bd.linearVelocity = (b2Vec2){s->vx, s->vy};
    b2BodyId body = b2CreateBody(c->world, &bd);
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.isSensor = true;
    sd.enableSensorEvents = true; /* off by default: without it a v3 sensor does no overlap work */
    sd.density = 1.0f;
    sd.userData = (void *)(intptr_t)s->index;
    c->bodies[s->index] = body;
    return b3_add_shape(body, &sd, s, false, &c->shapes[s->index]);
}

static void *b3_build_moving(const bench_scene *scene, const bench_config *cfg, char *desc, size_t desc_size) {
    (void)cfg;
    b3_ctx *c = b3_new(0.0f);
    if (c == NULL || !b3_reserve(c, scene->shape_count, true)) {
        b3_destroy(c);
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        if (!b3_add_moving(c, &s)) {
            snprintf(desc, desc_size, "b2ComputeHull rejected polygon %d", (int)s.index);
            b3_destroy(c);
            return NULL;
        }
    }
    snprintf(desc, desc_size,
             "dynamic bodies with sensor shapes (sensor events on: v3 finds sensor overlaps at the end of each "
             "step); b2World_Step(dt, %d sub-steps); one worker",
             B3_SUBSTEPS);
    return c;
}

static bool b3_step(void *ctx, float dt) {
    b3_ctx *c = ctx;
    b2World_Step(c->world, dt, B3_SUBSTEPS);
    return true;
}

/* Shape i's sensor overlaps with shapes of higher (*above) and lower (*below) index; false when
 * out of memory. */
static bool b3_overlaps_of(const b3_ctx *c, int32_t i, b2ShapeId **buf, int *cap, int64_t *above, int64_t *below) {
    int n = b2Shape_GetSensorCapacity(c->shapes[i]);
    if (n > *cap) {
        b2ShapeId *grown = realloc(*buf, sizeof **buf * (size_t)n);
        if (grown == NULL) {
            return false;
        }
        *buf = grown;
        *cap = n;
    }
    n = b2Shape_GetSensorOverlaps(c->shapes[i], *buf, n);
    for (int k = 0; k < n; ++k) {
        int32_t j = (int32_t)(intptr_t)b2Shape_GetUserData((*buf)[k]);
        *above += j > i;
        *below += j < i;
    }
    return true;
}

/* Every sensor reports what it overlaps, so each pair is seen from both sides: it is counted
 * once, from its lower index (the other side's count goes to the note). */
static int64_t b3_count_step(void *ctx, float dt, char *note, size_t note_size) {
    b3_ctx *c = ctx;
    b2World_Step(c->world, dt, B3_SUBSTEPS);
    b2ShapeId *buf = NULL;
    int cap = 0;
    int64_t above = 0, below = 0;
    for (int32_t i = 0; i < c->count; ++i) {
        if (!b3_overlaps_of(c, i, &buf, &cap, &above, &below)) {
            free(buf);
            snprintf(note, note_size, "out of memory while counting");
            return -1;
        }
    }
    free(buf);
    snprintf(note, note_size,
             "sensor overlaps after one extra step (b2Shape_GetSensorOverlaps), each pair counted from its lower "
             "index (%lld seen from the higher)",
             (long long)below);
    return above;
}

static bool b3_position(void *ctx, int32_t i, double *x, double *y) {
    const b3_ctx *c = ctx;
    if (i < 0 || i >= c->count) {
        return false;
    }
    const b2Vec2 p = b2Body_GetPosition(c->bodies[i]);
    *x = p.x;
    *y = p.y;
    return true;
}

/* Bullet i: a small bouncy circle on a bullet body that never collides with another bullet. */
static void b3_add_bullet(b3_ctx *c, int32_t i, const bench_bullet *b) {
    b2BodyDef bd = b2DefaultBodyDef();
    bd.type = b2_dynamicBody;
    bd.position = (b2Vec2){b->x, b->y};
    bd.linearVelocity = (b2Vec2){b->vx, b->vy};
    bd.isBullet = true;
    bd.gravityScale = 0.0f;
    c->bodies[i] = b2CreateBody(c->world, &bd);
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.density = 1.0f;
    sd.material.restitution = 1.0f;
    sd.material.friction = 0.0f;
    sd.filter.groupIndex = -1;
    sd.enableContactEvents = true; /* off by default; the begin-touch events are the bounces */
    b2Circle circle = {{0.0f, 0.0f}, B3_BULLET_RADIUS};
    b2CreateCircleShape(c->bodies[i], &sd, &circle);
}

static void *b3_build_bullets(const bench_scene *scene, const bench_config *cfg, const bench_bullet *bullets,
                              char *desc, size_t desc_size) {
    (void)cfg;
    /* twice the scene's speed: a bounce never reaches it, so v3 never slows a bullet */
    const float max_speed = (float)(2.0 * scene->bullet_speed);
    b3_ctx *c = b3_new(max_speed);
    if (c == NULL || !b3_reserve(c, scene->bullets, false)) {
        b3_destroy(c);
        snprintf(desc, desc_size, "out of memory");
        return NULL;
    }
    if (!b3_load_static(c, scene, true, desc, desc_size)) {
        b3_destroy(c);
        return NULL;
    }
    b2World_Step(c->world, (float)scene->dt, B3_SUBSTEPS); /* the untimed step with the shapes alone */
    for (int32_t i = 0; i < scene->bullets; ++i) {
        b3_add_bullet(c, i, &bullets[i]);
    }
    snprintf(desc, desc_size,
             "one static body, %d shapes (restitution 1, friction 0), one untimed step; %d dynamic bodies with "
             "isBullet and a circle of radius %g (density 1, restitution 1, friction 0, group index -1: bullets "
             "never collide with each other), no gravity; b2World_Step(dt, %d sub-steps), one worker; bounces = "
             "contact begin-touch events. maximumLinearSpeed raised from v3's default 400 to %.0f units/s (v3 "
             "clamps every body's speed to it). Bounces are v3's own, no cap of %d applied: its continuous "
             "collision stops a bullet at the first impact of a step (the rest of that step's motion is lost) "
             "and the contact that begins in the next step reflects it, so a bounce is counted a step late",
             (int)scene->shape_count, (int)scene->bullets, (double)B3_BULLET_RADIUS, B3_SUBSTEPS, (double)max_speed,
             (int)scene->max_bounces);
    return c;
}

static int64_t b3_bullet_bounces(void *ctx) {
    b3_ctx *c = ctx;
    const b2ContactEvents events = b2World_GetContactEvents(c->world);
    c->begun += events.beginCount;
    return events.beginCount;
}

static bool b3_bullet_velocity(void *ctx, int32_t i, double *vx, double *vy) {
    const b3_ctx *c = ctx;
    if (i < 0 || i >= c->count) {
        return false;
    }
    const b2Vec2 v = b2Body_GetLinearVelocity(c->bodies[i]);
    *vx = v.x;
    *vy = v.y;
    return true;
}

static void b3_bullet_note(void *ctx, char *note, size_t note_size) {
    const b3_ctx *c = ctx;
    int awake = 0;
    for (int32_t i = 0; i < c->count; ++i) {
        awake += b2Body_IsAwake(c->bodies[i]);
    }
    const b2Counters counters = b2World_GetCounters(c->world);
    snprintf(note, note_size,
             "bounces = contact begin-touch events (b2World_GetContactEvents), %lld in all; %d of %d bullets awake "
             "at the end; %d contacts in the world",
             (long long)c->begun, awake, (int)c->count, counters.contactCount);
}

static const char *b3_version(void) {
    static char text[64];
    const b2Version v = b2GetVersion();
    snprintf(text, sizeof text, "Box2D %d.%d.%d (%s, one worker)", v.major, v.minor, v.revision,
             BENCH_BOX2D3_CONFIG);
    return text;
}

const bench_runner bench_runner_box2d3 = {
    .name = "box2d3",
    .version = b3_version,
    .build_static = b3_build_static,
    .cast = b3_cast,
    .resolve = b3_resolve,
    .build_moving = b3_build_moving,
    .step = b3_step,
    .count_step = b3_count_step,
    .position = b3_position,
    .destroy = b3_destroy,
    .build_bullets = b3_build_bullets,
    .bullet_bounces = b3_bullet_bounces,
    .bullet_velocity = b3_bullet_velocity,
    .bullet_note = b3_bullet_note,
};
