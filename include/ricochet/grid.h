/* ricochet: grid.h
 * The broadphase on its own: a hierarchical uniform grid of axis-aligned boxes ("proxies"),
 * each carrying a user index. The world uses one internally; a game may use one directly for
 * its own objects.
 *
 * How it works. Proxies live in the cells of a grid level whose cells are at least as large
 * as the proxy, so each proxy sits in at most 2 x 2 cells: level 0 has the base cell size and
 * each level above doubles it. Where a level's proxies fill a fair share of the area they span,
 * its cells are found in a dense window (a plain array over that area, with room to drift);
 * every other cell is found in one hash table keyed by level and cell, so the plane has no
 * bounds and memory follows the occupied cells. rc_grid_optimize refits the windows when many
 * cells have drifted out of them (a level too sparse for a window keeps its cells hashed and
 * is not refitted for that). Queries visit the cells they need on
 * each occupied level; rays walk their cells in exact order (Amanatides-Woo) and stop as soon
 * as the callback has clipped the ray short of the next cell. Every proxy is reported at most
 * once per query, without any per-proxy marks, so queries never write to the grid and may run
 * concurrently from several threads while nothing modifies it.
 *
 * Boxes are closed: boxes that touch overlap, and a ray that touches a box reaches it.
 * Cell coordinates saturate at +-2^30 cells, so astronomically distant boxes share border
 * cells: answers stay correct, only slower.
 *
 * Errors: functions that can fail return false or -1 and change nothing. The grid never
 * aborts on bad input. */
#ifndef RICOCHET_GRID_H
#define RICOCHET_GRID_H

#include "math.h"

RC_EXTERN_C_BEGIN

typedef struct rc_grid rc_grid;

typedef struct rc_grid_def {
    /* Edge length of level-0 cells, in world units. 0 chooses it from the proxies: the power
     * of two above twice the median proxy size, re-chosen (and the grid rebuilt) as the
     * population grows. */
    float cell_size;
    /* Memory source; all NULL means malloc/free. */
    rc_allocator allocator;
    /* Expected number of proxies, to size storage once; optional. */
    int32_t proxy_capacity;
} rc_grid_def;

RC_API rc_grid_def rc_grid_default_def(void);

/* NULL when def is NULL, the cell size is negative or not finite, the capacity negative, or
 * memory runs out. */
RC_API rc_grid *rc_grid_create(const rc_grid_def *def);
RC_API void rc_grid_destroy(rc_grid *grid);

/* Add a box; returns its proxy id (>= 0), or -1 when the box is not valid (NaN, infinite,
 * lower > upper) or memory runs out. The new proxy counts as moved for rc_grid_update_pairs. */
RC_API int32_t rc_grid_insert(rc_grid *grid, rc_aabb box, int32_t user);

/* Give a proxy a new box. The proxy changes cells only when its cell range changes; it
 * always counts as moved for rc_grid_update_pairs. False for a bad id or box, or when memory
 * runs out (the proxy keeps its old box). */
RC_API bool rc_grid_move(rc_grid *grid, int32_t proxy, rc_aabb box);

/* How many proxy-in-cell entries moving the proxy to box would add (0 when it stays in its
 * cells, at most 4). With rc_grid_reserve this lets a caller make a batch of moves that cannot
 * fail: sum the additions, reserve, then move. 0 for a bad id or box. */
RC_API int32_t rc_grid_move_additions(const rc_grid *grid, int32_t proxy, rc_aabb box);

/* Make room so that moves adding up to `additions` entries in total cannot run out of memory.
 * False (and nothing changed) when memory runs out or additions is negative. */
RC_API bool rc_grid_reserve(rc_grid *grid, int32_t additions);

/* Refit the dense cell windows to where the proxies are now, when many have moved out of them
 * (cells outside a window are hashed: correct, but slower to reach), and give memory back
 * once three quarters of the proxies the grid last grew for are removed (proxy ids above the
 * last live one are then forgotten). Call it now and then; the world does once per step.
 * Cheap when nothing needs doing; it allocates when it rebuilds, and if that fails it changes
 * nothing of what queries see (and returns false). */
RC_API bool rc_grid_optimize(rc_grid *grid);

/* Mark a proxy as one that rarely moves (the world's static shapes): its cells then keep a
 * copy of its box, which makes rays and queries over it faster and its moves slower. Proxies
 * start as not static. False for a bad id. */
RC_API bool rc_grid_set_static(rc_grid *grid, int32_t proxy, bool is_static);

/* Remove a proxy; its id may be handed out again by a later insert. False for a bad id. */
RC_API bool rc_grid_remove(rc_grid *grid, int32_t proxy);

RC_API bool rc_grid_is_proxy(const rc_grid *grid, int32_t proxy);
/* The stored box and user index of a live proxy (a zero box and -1 for a bad id). */
RC_API rc_aabb rc_grid_get_box(const rc_grid *grid, int32_t proxy);
RC_API int32_t rc_grid_get_user(const rc_grid *grid, int32_t proxy);
RC_API int32_t rc_grid_proxy_count(const rc_grid *grid);
/* The level-0 cell size in use (the chosen one when automatic). */
RC_API float rc_grid_cell_size(const rc_grid *grid);

/* Return true to go on, false to stop the query. */
typedef bool rc_grid_query_fn(int32_t proxy, int32_t user, void *context);

/* Every proxy whose box overlaps (or touches) box, once each. */
RC_API void rc_grid_query_aabb(const rc_grid *grid, rc_aabb box, rc_grid_query_fn *fn, void *context);
/* Every proxy whose box contains (or has on its boundary) the point, once each. */
RC_API void rc_grid_query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context);

/* Called for each proxy whose box the ray origin + t * translation, 0 <= t <= max_fraction,
 * reaches, at most once per proxy, roughly in order of distance (cell by cell). Return the
 * new max fraction: a value below the current one clips the ray (0 ends the walk once the
 * current cell is done), a value at or above it changes nothing, a negative value stops the
 * walk at once. A proxy whose box the ray misses by no more than a few float roundings (for a
 * static proxy, 1/8192 of a cell) may be offered too: the callback's exact test decides. */
typedef float rc_grid_ray_fn(int32_t proxy, int32_t user, float max_fraction, void *context);

RC_API void rc_grid_cast_ray(const rc_grid *grid, rc_vec2 origin, rc_vec2 translation, float max_fraction,
                             rc_grid_ray_fn *fn, void *context);

/* The same walk for a circle of the given radius swept from origin along translation: every
 * proxy whose box, grown by radius on all sides, the centre's path reaches. */
RC_API void rc_grid_cast_circle(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation,
                                float max_fraction, rc_grid_ray_fn *fn, void *context);

typedef void rc_grid_pair_fn(int32_t proxy_a, int32_t user_a, int32_t proxy_b, int32_t user_b, void *context);

/* Report every pair of proxies with overlapping boxes of which at least one has been
 * inserted or moved since the last call, each pair exactly once, then forget the moves.
 * Pairs of proxies that have not moved are not reported again (keep them yourself, as the
 * world does with its contacts). */
RC_API void rc_grid_update_pairs(rc_grid *grid, rc_grid_pair_fn *fn, void *context);

/* rc_grid_update_pairs in two halves, for a caller that may have to give up in between (and
 * then find the same pairs again): report the pairs without forgetting the moves, then forget
 * them. */
RC_API void rc_grid_find_new_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context);
RC_API void rc_grid_forget_moves(rc_grid *grid);

/* Report every pair of proxies with overlapping boxes, each exactly once. Does not touch the
 * record of moves. */
RC_API void rc_grid_find_all_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context);

/* Statistics for tuning and tests. */
typedef struct rc_grid_stats {
    int32_t proxies;
    int32_t levels_in_use;
    int32_t cells;         /* occupied cells over all levels */
    int32_t entries;       /* proxy-in-cell records */
    size_t bytes;          /* memory held */
    int32_t rebuilds;      /* rebuilds of the cells so far (a new automatic cell size, windows refitted,
                              memory given back) */
} rc_grid_stats;

RC_API rc_grid_stats rc_grid_get_stats(const rc_grid *grid);

/* Visit every occupied cell (level, cell box, number of proxies in it): for debug drawing. The
 * box is within float range: the top level's one cell, home of boxes too large for any other, is
 * the box from (-FLT_MAX, -FLT_MAX) to (FLT_MAX, FLT_MAX), and a cell's edge beyond float range is
 * held at +-FLT_MAX. */
typedef void rc_grid_cell_fn(int32_t level, rc_aabb cell, int32_t count, void *context);
RC_API void rc_grid_for_each_cell(const rc_grid *grid, rc_grid_cell_fn *fn, void *context);

RC_EXTERN_C_END

#endif
