/* Batch casts: many closest-hit rays, spread over the world's task system, each answered
 * exactly as a single cast would be. */
#include "world/world_internal.h"

#include <float.h>
#include <string.h>

typedef struct ray_batch {
    const rc_world *world;
    const rc_ray_input *rays;
    rc_query_filter filter;
    rc_ray_hit *hits;
} ray_batch;

/* What a batch says for a ray that hits nothing: the whole ray travelled, a unit normal. */
static rc_ray_hit miss_of(const rc_ray_input *ray) {
    rc_ray_hit hit;
    memset(&hit, 0, sizeof hit);
    hit.t = 1.0f;
    hit.point = rc_add(ray->origin, ray->translation);
    rc_vec2 back = rc_normalize(rc_neg(ray->translation));
    hit.normal = back.x == 0.0f && back.y == 0.0f ? rc_v2(0.0f, 1.0f) : back;
    return hit;
}

static void cast_one(const ray_batch *b, int32_t i) {
    const rc_ray_input *ray = &b->rays[i];
    if (!rc_cast_closest_trusted(b->world, ray->origin, 0.0f, ray->translation, &b->filter, &b->hits[i])) {
        b->hits[i] = miss_of(ray);
    }
}

/* A task's rays are cast in the order of their origins along a curve that keeps neighbours
 * together (Morton order of a 64 x 64 grid of buckets over the origins): a ray finds the cells
 * and shapes of the ones before it still in the cache. The buckets are lists linked through the
 * hits themselves (a ray's hit holds the next ray of its bucket until the ray is cast), so the
 * order costs no memory but the heads. Each answer is the single cast's, whatever the order. */
#define BATCH_BITS 6
#define BATCH_SIDE (1 << BATCH_BITS)

static uint32_t spread_bits(uint32_t v) { /* BATCH_BITS bits to every other bit */
    v = (v | (v << 8)) & 0x00ffu;
    v = (v | (v << 4)) & 0x0f0fu;
    v = (v | (v << 2)) & 0x3333u;
    v = (v | (v << 1)) & 0x5555u;
    return v;
}

static void set_link(rc_ray_hit *hit, int32_t next) { memcpy(hit, &next, sizeof next); }
static int32_t link_of(const rc_ray_hit *hit) {
    int32_t next;
    memcpy(&next, hit, sizeof next);
    return next;
}

static void cast_range(int32_t start, int32_t end, uint32_t worker, void *context) {
    (void)worker;
    const ray_batch *b = context;
    if (end <= start) {
        return; /* (a game's task system may hand out an empty range) */
    }
    rc_vec2 lo = b->rays[start].origin, hi = lo;
    for (int32_t i = start + 1; i < end; ++i) {
        lo = rc_min(lo, b->rays[i].origin);
        hi = rc_max(hi, b->rays[i].origin);
    }
    /* (origins spread too little or too far for a float scale: the given order) */
    float sx = (float)BATCH_SIDE / (hi.x - lo.x), sy = (float)BATCH_SIDE / (hi.y - lo.y);
    if (end - start < 2 * BATCH_SIDE || !(sx < FLT_MAX && sy < FLT_MAX && sx > 0.0f && sy > 0.0f)) {
        for (int32_t i = start; i < end; ++i) {
            cast_one(b, i);
        }
        return;
    }
    int32_t head[BATCH_SIDE * BATCH_SIDE];
    memset(head, 0xff, sizeof head); /* -1: empty */
    for (int32_t i = end - 1; i >= start; --i) {
        rc_vec2 o = b->rays[i].origin;
        uint32_t x = (uint32_t)rc_minf((o.x - lo.x) * sx, (float)(BATCH_SIDE - 1));
        uint32_t y = (uint32_t)rc_minf((o.y - lo.y) * sy, (float)(BATCH_SIDE - 1));
        uint32_t k = spread_bits(x) | (spread_bits(y) << 1);
        set_link(&b->hits[i], head[k]);
        head[k] = i;
    }
    for (int32_t k = 0; k < BATCH_SIDE * BATCH_SIDE; ++k) {
        for (int32_t i = head[k]; i >= 0;) {
            int32_t next = link_of(&b->hits[i]);
            if (next >= 0) {
                /* (the next ray and its hit, which holds the link after it, are far away) */
                RC_PREFETCH(&b->rays[next]);
                RC_PREFETCH(&b->hits[next]);
            }
            cast_one(b, i);
            i = next;
        }
    }
}

int32_t rc_world_cast_rays(const rc_world *world, const rc_ray_input *rays, int32_t count, rc_query_filter filter,
                           rc_ray_hit *hits) {
    static const char *func = "rc_world_cast_rays";
    if (world == NULL) {
        return -1;
    }
    if (count < 0 || (count > 0 && (rays == NULL || hits == NULL))) {
        rc_fail(world, func, "count %d is negative, or rays or hits is NULL", (int)count);
        return -1;
    }
    if (!rc_body_id_is_null(filter.ignore_body) && rc_get_body(world, filter.ignore_body, func) == NULL) {
        return -1;
    }
    for (int32_t i = 0; i < count; ++i) {
        if (!rc_vec2_is_finite(rays[i].origin) || !rc_vec2_is_finite(rays[i].translation)) {
            rc_fail(world, func, "ray %d: origin (%g, %g) or translation (%g, %g) is not finite", (int)i,
                    (double)rays[i].origin.x, (double)rays[i].origin.y, (double)rays[i].translation.x,
                    (double)rays[i].translation.y);
            return -1;
        }
    }
    ray_batch b = {world, rays, filter, hits};
    rc_run_task(world, cast_range, count, RC_RAYS_PER_TASK, &b);
    int32_t n = 0;
    for (int32_t i = 0; i < count; ++i) {
        n += rc_shape_id_is_null(hits[i].shape) ? 0 : 1;
    }
    return n;
}
