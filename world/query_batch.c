/* Batch casts: many closest-hit rays, spread over the world's task system, each answered
 * exactly as a single cast would be. */
#include "world/world_internal.h"

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

static void cast_range(int32_t start, int32_t end, uint32_t worker, void *context) {
    (void)worker;
    const ray_batch *b = context;
    for (int32_t i = start; i < end; ++i) {
        const rc_ray_input *ray = &b->rays[i];
        if (!rc_cast_closest_trusted(b->world, ray->origin, 0.0f, ray->translation, &b->filter, &b->hits[i])) {
            b->hits[i] = miss_of(ray);
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
