/* world/grids.c: the world's two grids asked as one. The shapes of static bodies (the level) have
 * a grid of their own, level_grid, which changes only with the level; the shapes of kinematic and
 * dynamic bodies are in grid (world_internal.h). A query asks the level's grid first, then the
 * other, and stops where its callback says stop; a cast walks the level's grid first and the
 * other with what the first clipped it to. */
#include "world/world_internal.h"

typedef struct grids_query {
    rc_grid_query_fn *fn;
    void *context;
    bool stopped;
} grids_query;

static bool grids_query_fn(int32_t proxy, int32_t user, void *context) {
    grids_query *q = context;
    if (!q->fn(proxy, user, q->context)) {
        q->stopped = true;
        return false;
    }
    return true;
}

void rc_world_query_grids(const rc_world *world, rc_aabb box, bool skip_mobile, rc_grid_query_fn *fn, void *context) {
    if (!rc_aabb_is_valid(box)) {
        return;
    }
    bool level = rc_grid_proxy_count(world->level_grid) > 0, others = rc_grid_proxy_count(world->grid) > 0;
    if (!level || !others) { /* one grid to ask: the callback itself, no relay */
        rc_grid_query_aabb_trusted(level ? world->level_grid : world->grid, box, skip_mobile, fn, context);
        return;
    }
    grids_query q = {fn, context, false};
    rc_grid_query_aabb_trusted(world->level_grid, box, skip_mobile, grids_query_fn, &q);
    if (!q.stopped) {
        rc_grid_query_aabb_trusted(world->grid, box, skip_mobile, grids_query_fn, &q);
    }
}

bool rc_world_begin_grid_batches(rc_world *world, int32_t level_inserts, int32_t inserts) {
    if (!rc_grid_begin_batch(world->level_grid, level_inserts)) {
        return false;
    }
    if (!rc_grid_begin_batch(world->grid, inserts)) {
        rc_grid_abort_batch(world->level_grid);
        return false;
    }
    return true;
}

void rc_world_abort_grid_batches(rc_world *world) {
    rc_grid_abort_batch(world->level_grid);
    rc_grid_abort_batch(world->grid);
}

void rc_world_end_grid_batches(rc_world *world) {
    rc_grid_end_batch(world->level_grid);
    rc_grid_end_batch(world->grid);
}

void rc_world_query_point_grids(const rc_world *world, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    grids_query q = {fn, context, false};
    rc_grid_query_point(world->level_grid, point, grids_query_fn, &q);
    if (!q.stopped) {
        rc_grid_query_point(world->grid, point, grids_query_fn, &q);
    }
}

typedef struct grids_cast {
    rc_grid_ray_fn *fn;
    void *context;
    float max_fraction; /* what the callback clipped the cast to so far */
    bool stopped;
} grids_cast;

static float grids_cast_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    grids_cast *c = context;
    float next = c->fn(proxy, user, max_fraction, c->context);
    if (next < 0.0f) {
        c->stopped = true;
    } else if (next < c->max_fraction) {
        c->max_fraction = next;
    }
    return next;
}

void rc_world_cast_grids(const rc_world *world, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                         bool skip_mobile, rc_grid_ray_fn *fn, void *context) {
    bool level = rc_grid_proxy_count(world->level_grid) > 0, others = rc_grid_proxy_count(world->grid) > 0;
    if (!level || !others) { /* one grid to walk: the callback itself, no relay (a ray's hot path) */
        rc_grid_cast_trusted(level ? world->level_grid : world->grid, origin, radius, translation, max_fraction,
                             skip_mobile, fn, context);
        return;
    }
    grids_cast c = {fn, context, max_fraction, false};
    rc_grid_cast_trusted(world->level_grid, origin, radius, translation, max_fraction, skip_mobile, grids_cast_fn, &c);
    if (!c.stopped) {
        rc_grid_cast_trusted(world->grid, origin, radius, translation, c.max_fraction, skip_mobile, grids_cast_fn, &c);
    }
}

bool rc_world_proxies_overlap(const rc_world *world, const rc_shape *a, const rc_shape *b) {
    const rc_grid *ga = rc_shape_grid(world, a), *gb = rc_shape_grid(world, b);
    if (ga == world->grid && gb == world->grid) {
        return rc_grid_proxies_overlap_trusted(ga, a->proxy, b->proxy); /* (no pieces: wall_pieces.c) */
    }
    if (ga == gb) {
        return rc_grid_proxies_overlap(ga, a->proxy, b->proxy);
    }
    /* one of the two is the level's, whose long walls are in pieces: any piece */
    if (ga == world->level_grid) {
        return rc_grid_proxies_overlap_across_trusted(ga, a->proxy, gb, b->proxy);
    }
    return rc_grid_proxies_overlap_across_trusted(gb, b->proxy, ga, a->proxy);
}

