/* broadphase/grid_lean.h: a grid's cells copied compact, for closest-hit casts.
 *
 * Owns: one read-only copy of the cells of a grid that changes seldom (a world's level): per
 * level, the rectangle of its occupied cells (whether the grid keeps them in a window or hashes
 * them), the entries of each cell one after another, each with its proxy's box and user and the
 * bits saying which neighbouring cells the proxy also covers. A level twice as coarse as a copied
 * one is listed in that one's cells (one walk for both). A ray walks them with no callback
 * chain, no chunk lists and no box decoding: rc_grid_lean_cast is inline, and the caller's test
 * (a static function passed as fn) is inlined into its loop.
 *
 * The copy answers as the grid's own walk does (rc_grid_cast_trusted): a ray's cells in the
 * order of the grid's window walk, a short swept circle's box of cells, the same rule that
 * offers a proxy once per level, boxes reached with the same margin. A level it does not hold
 * (mobile proxies, or spread too thin), and a cast it leaves to the grid (a ray from far outside
 * a level, a long swept circle), is told back to the caller, who walks those levels in the grid
 * (rc_grid_cast_levels). The copy is the grid's as it was when built: whoever builds it builds
 * it again after changing the grid (the world: when its level changes, at a later step). */
#ifndef RICOCHET_BROADPHASE_GRID_LEAN_H
#define RICOCHET_BROADPHASE_GRID_LEAN_H

#include "broadphase/broadphase.h"
#include "core/memory.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* which neighbouring cells the entry's proxy also covers (a walk that came from one of them
   was offered the proxy there) */
#define RC_LEAN_LEFT 1u
#define RC_LEAN_RIGHT 2u
#define RC_LEAN_DOWN 4u
#define RC_LEAN_UP 8u

typedef struct rc_lean_entry {
    rc_aabb box;    /* the proxy's box */
    int32_t user;
    uint32_t sides; /* RC_LEAN_* */
} rc_lean_entry;

/* One level of the grid: the cells of its window (x0, y0, w x h: every occupied cell of the
 * level, and of the level merged into it), row by row; the entries of the cell in slot s are
 * entries[starts[s]] to entries[starts[s + 1] - 1]. */
typedef struct rc_lean_level {
    uint64_t covers; /* bit l: the proxies of grid level l are here (a level twice as coarse
                        may be merged into the one below it: one walk for both) */
    float size, inv;
    int32_t x0, y0, w, h;
    uint32_t *starts; /* w * h + 1 */
    rc_lean_entry *entries;
    uint32_t entry_count;
} rc_lean_level;

typedef struct rc_grid_lean {
    uint64_t held;   /* bit l: level l is copied (into one of levels[], in order of l) */
    uint64_t others; /* bit l: level l holds proxies and is not copied */
    int32_t count;
    rc_lean_level *levels;
} rc_grid_lean;

/* The copy of the grid's levels that can be copied, its memory from a. False when memory runs
 * out (lean is then empty: held and others 0). A grid whose proxies are all on levels that
 * cannot be copied gives a copy that holds nothing (others says which). */
bool rc_grid_lean_build(const rc_grid *grid, const rc_allocator *a, rc_grid_lean *lean);
/* Give back a copy's memory (an empty one too); it is empty afterwards. */
void rc_grid_lean_free(const rc_allocator *a, rc_grid_lean *lean);

/* rc_grid_cast_trusted over the levels in `levels` alone (the others a lean copy told back). */
void rc_grid_cast_levels(const rc_grid *grid, uint64_t levels, rc_vec2 origin, float radius, rc_vec2 translation,
                         float max_fraction, bool skip_mobile, rc_grid_ray_fn *fn, void *context);

/* The caller's test of a proxy the ray reaches: the ray's new end (max_t, or less where it
 * hit). It may not stop the walk. */
typedef float rc_lean_fn(int32_t user, float max_t, void *context);

/* ---- the walk ---------------------------------------------------------------------------------- */

typedef struct rc_lean_ray {
    rc_vec2 origin, translation;
    rc_vec2 inv;  /* 1 / translation per axis (0 where its reciprocal overflows) */
    float margin; /* as the grid's walk: a few roundings at the size of the coordinates met */
} rc_lean_ray;

/* One axis of the slab test: narrow [t0, t1] to where the ray is between lo and hi on it (its
 * reciprocal inv; 0: it does not move along the axis, and o must lie between). False when the
 * ray never is. */
static inline bool rc_lean_slab(float lo, float hi, float o, float inv, float *t0, float *t1) {
    if (inv == 0.0f) {
        return !(o < lo || o > hi);
    }
    float a = (lo - o) * inv, c = (hi - o) * inv;
    float near = c < a ? c : a, far = c > a ? c : a;
    *t0 = near > *t0 ? near : *t0;
    *t1 = far < *t1 ? far : *t1;
    return true;
}

/* Does the ray reach the box (grown by its margin) before max_t? The grid's walk_reaches_box. */
static inline bool rc_lean_reaches(const rc_lean_ray *r, rc_aabb b, float max_t) {
    float m = r->margin;
    float t0 = 0.0f, t1 = max_t;
    return rc_lean_slab(b.lower.x - m, b.upper.x + m, r->origin.x, r->inv.x, &t0, &t1) &&
           rc_lean_slab(b.lower.y - m, b.upper.y + m, r->origin.y, r->inv.y, &t0, &t1) && t0 <= t1;
}

/* A cast's reciprocals and margin, as the grid's walk sets them up (cast_levels): a component
 * whose reciprocal overflows moves the ray by nothing; the margin is the radius and a few
 * roundings at the size of the coordinates the cast meets (max_t: how far it may go). */
static inline rc_lean_ray rc_lean_ray_of(rc_vec2 origin, float radius, rc_vec2 translation, float max_t) {
    rc_lean_ray r;
    r.origin = origin;
    r.translation = translation;
    float ix = translation.x != 0.0f ? 1.0f / translation.x : 0.0f;
    float iy = translation.y != 0.0f ? 1.0f / translation.y : 0.0f;
    r.inv.x = fabsf(ix) <= FLT_MAX ? ix : 0.0f;
    r.inv.y = fabsf(iy) <= FLT_MAX ? iy : 0.0f;
    float ax = fabsf(origin.x), ay = fabsf(origin.y), dx = fabsf(translation.x), dy = fabsf(translation.y);
    float size = (ay > ax ? ay : ax) + max_t * (dy > dx ? dy : dx);
    r.margin = radius + 4.0f * FLT_EPSILON * (size + radius);
    return r;
}

/* One axis of a ray's cell walk (the lean walk's and the grid's ray_walk_window): the step along
 * it (-1, 0 or 1) and its reciprocal in cell units (1 / translation scaled by the cell size). A
 * component whose reciprocal overflowed, or that moves less than a float's width of a cell, moves
 * the walk by nothing (as in the slab tests). */
static inline void rc_lean_axis(float inv, float size, int32_t *step, float *inv_cells) {
    int32_t s = inv > 0.0f ? 1 : (inv < 0.0f ? -1 : 0);
    float d = s != 0 ? inv * size : 0.0f;
    if (!(fabsf(d) <= FLT_MAX)) {
        s = 0;
        d = 0.0f;
    }
    *step = s;
    *inv_cells = d;
}

/* Where a walk from cell c (at o, in cell units) along an axis meets the next boundary: the ray
 * parameter, INFINITY when it does not move along the axis. */
static inline float rc_lean_first_boundary(int32_t c, int32_t step, float o, float inv_cells) {
    return step != 0 ? ((float)(c + (step > 0)) - o) * inv_cells : INFINITY;
}

/* floor of a float well inside the int32_t range (inside a window), with no branch and no call
 * (the grid's cell_coord there) */
static inline int32_t rc_lean_floor(float v) {
    int32_t i = (int32_t)v;
    return i - (int32_t)(v < (float)i);
}

/* Is cell (x, y) in the level's window (else it is empty)? */
static inline bool rc_lean_inside(const rc_lean_level *lv, int32_t x, int32_t y) {
    return (uint32_t)(x - lv->x0) < (uint32_t)lv->w && (uint32_t)(y - lv->y0) < (uint32_t)lv->h;
}

static inline const uint32_t *rc_lean_start(const rc_lean_level *lv, int32_t x, int32_t y) {
    return lv->starts + (size_t)(uint32_t)(y - lv->y0) * (size_t)lv->w + (size_t)(uint32_t)(x - lv->x0);
}

/* Are the cell coordinates of these cell-unit numbers exact and far from overflowing? */
static inline bool rc_lean_in_range(float lo_x, float lo_y, float hi_x, float hi_y) {
    const float limit = 536870912.0f; /* 2^29 */
    return lo_x > -limit && lo_y > -limit && hi_x < limit && hi_y < limit;
}

/* Offer the entries of the cell whose entries start at `start` that a walk which came from the
 * neighbours in `seen` (RC_LEAN_*) was not offered there, if it still reaches their boxes. */
static inline __attribute__((always_inline)) void rc_lean_offer_cell(const rc_lean_level *lv, const uint32_t *start,
                                                                     uint32_t seen, const rc_lean_ray *r,
                                                                     float *max_t, rc_lean_fn *fn, void *context) {
    for (uint32_t i = start[0], end = start[1]; i < end; ++i) {
        const rc_lean_entry *e = &lv->entries[i];
        if (!(e->sides & seen) && rc_lean_reaches(r, e->box, *max_t)) {
            float next = fn(e->user, *max_t, context);
            *max_t = next < *max_t ? next : *max_t;
        }
    }
}

/* A ray's walk through a level's cells (the grid's cell_stepper and stepper_setup): the cell it
 * is in, the ray parameter at the next vertical and horizontal boundaries, the neighbour it came
 * from, and how many more cells it may step through. */
typedef struct rc_lean_stepper {
    int32_t cx, cy, sx, sy, ahead_x, ahead_y;
    uint32_t from_x, from_y, came_from;
    float ox, oy, inv_dx, inv_dy, tx, ty;
    int64_t steps;
} rc_lean_stepper;

/* The cell after this one: along x when its boundary comes first. One step with no branch (the
 * grid's stepper_advance): which axis comes first is a coin toss for a diagonal ray. */
static inline bool rc_lean_next_x(const rc_lean_stepper *w) { return w->tx <= w->ty; }

static inline void rc_lean_step(rc_lean_stepper *w, bool next_x) {
    w->cx += next_x ? w->sx : 0;
    w->cy += next_x ? 0 : w->sy;
    float nx = ((float)(w->cx + w->ahead_x) - w->ox) * w->inv_dx, ny = ((float)(w->cy + w->ahead_y) - w->oy) * w->inv_dy;
    w->tx = next_x ? nx : w->tx;
    w->ty = next_x ? w->ty : ny;
    w->came_from = next_x ? w->from_x : w->from_y;
}

/* Is the walk over: its last cell stepped through, or the next boundary beyond the ray's end? */
static inline bool rc_lean_done(rc_lean_stepper *w, float max_t) {
    return --w->steps <= 0 || (w->tx <= w->ty ? w->tx : w->ty) > max_t;
}

/* The walk of a ray that stays two cells inside the window, and so does the cell after its last
 * (asked for ahead): no cell's bounds checked, and the slot moves with the cell, by sx along x
 * and by a row along y (checked and worked out at every cell, a ray took 4% longer on rays-10k). */
static inline __attribute__((always_inline)) void rc_lean_walk_inside(const rc_lean_level *lv, rc_lean_stepper *w,
                                                                      const rc_lean_ray *r, float *max_t,
                                                                      rc_lean_fn *fn, void *context) {
    const uint32_t *start = rc_lean_start(lv, w->cx, w->cy);
    ptrdiff_t step_y = (ptrdiff_t)w->sy * lv->w;
    for (;;) {
        /* ask for the next cell's entries while this one's are tested */
        bool next_x = rc_lean_next_x(w);
        __builtin_prefetch(&lv->entries[(start + (next_x ? w->sx : step_y))[0]]);
        rc_lean_offer_cell(lv, start, w->came_from, r, max_t, fn, context);
        if (rc_lean_done(w, *max_t)) {
            return;
        }
        start += next_x ? w->sx : step_y;
        rc_lean_step(w, next_x);
    }
}

/* The walk of a ray that may leave the window: the cells outside it are empty and only stepped
 * over. */
static inline __attribute__((always_inline)) void rc_lean_walk_checked(const rc_lean_level *lv, rc_lean_stepper *w,
                                                                       const rc_lean_ray *r, float *max_t,
                                                                       rc_lean_fn *fn, void *context) {
    for (;;) {
        bool next_x = rc_lean_next_x(w);
        int32_t nx_cell = w->cx + (next_x ? w->sx : 0), ny_cell = w->cy + (next_x ? 0 : w->sy);
        if (rc_lean_inside(lv, nx_cell, ny_cell)) {
            __builtin_prefetch(&lv->entries[rc_lean_start(lv, nx_cell, ny_cell)[0]]);
        }
        if (rc_lean_inside(lv, w->cx, w->cy)) {
            rc_lean_offer_cell(lv, rc_lean_start(lv, w->cx, w->cy), w->came_from, r, max_t, fn, context);
        }
        if (rc_lean_done(w, *max_t)) {
            return;
        }
        rc_lean_step(w, next_x);
    }
}

/* The walk of one held level, as the grid's ray_walk_window (its cells in order, a proxy offered
 * from the first of its cells the walk enters): the cells outside the window are empty and only
 * stepped over. False for a ray the walk would step too far for (far outside the window, or
 * coordinates past the cells' range): the grid's walk takes the level then. */
static inline __attribute__((always_inline)) bool rc_lean_walk_level(const rc_lean_level *lv, const rc_lean_ray *r,
                                                                     float *max_t, rc_lean_fn *fn, void *context) {
    float inv = lv->inv;
    rc_lean_stepper w;
    w.ox = r->origin.x * inv;
    w.oy = r->origin.y * inv;
    float ex = w.ox + *max_t * (r->translation.x * inv), ey = w.oy + *max_t * (r->translation.y * inv);
    float lo_x = w.ox < ex ? w.ox : ex, hi_x = w.ox < ex ? ex : w.ox;
    float lo_y = w.oy < ey ? w.oy : ey, hi_y = w.oy < ey ? ey : w.oy;
    if (!rc_lean_in_range(lo_x, lo_y, hi_x, hi_y)) {
        return false;
    }
    w.cx = rc_lean_floor(w.ox);
    w.cy = rc_lean_floor(w.oy);
    int32_t end_x = rc_lean_floor(ex), end_y = rc_lean_floor(ey);
    w.steps = (int64_t)abs(end_x - w.cx) + (int64_t)abs(end_y - w.cy) + 2;
    if (w.steps > 4 * ((int64_t)lv->w + lv->h) + 64) {
        return false; /* (a long way through cells that are mostly outside) */
    }
    rc_lean_axis(r->inv.x, lv->size, &w.sx, &w.inv_dx);
    rc_lean_axis(r->inv.y, lv->size, &w.sy, &w.inv_dy);
    w.ahead_x = w.sx > 0;
    w.ahead_y = w.sy > 0;
    w.from_x = w.sx > 0 ? RC_LEAN_LEFT : RC_LEAN_RIGHT;
    w.from_y = w.sy > 0 ? RC_LEAN_DOWN : RC_LEAN_UP;
    w.tx = rc_lean_first_boundary(w.cx, w.sx, w.ox, w.inv_dx);
    w.ty = rc_lean_first_boundary(w.cy, w.sy, w.oy, w.inv_dy);
    w.came_from = 0;
    if (lo_x >= (float)lv->x0 + 2.0f && lo_y >= (float)lv->y0 + 2.0f &&
        hi_x < (float)((int64_t)lv->x0 + lv->w) - 3.0f && hi_y < (float)((int64_t)lv->y0 + lv->h) - 3.0f) {
        rc_lean_walk_inside(lv, &w, r, max_t, fn, context);
    } else {
        rc_lean_walk_checked(lv, &w, r, max_t, fn, context);
    }
    return true;
}

/* A short swept circle on one held level, as the grid's walk takes it (ray_walk_level): the
 * cells of its swept box grown by the margin (those in the window: the rest are empty), each
 * proxy offered from the lowest cell of the box it is in, when that box holds no more cells than
 * the walk's first window. False when it holds more (a long sweep: the grid's walk of strips
 * takes the level). */
static inline __attribute__((always_inline)) bool rc_lean_sweep_level(const rc_lean_level *lv, const rc_lean_ray *r,
                                                                      float radius, float *max_t, rc_lean_fn *fn,
                                                                      void *context) {
    float inv = lv->inv;
    float ox = r->origin.x * inv, oy = r->origin.y * inv;
    float ex = ox + *max_t * (r->translation.x * inv), ey = oy + *max_t * (r->translation.y * inv);
    float m = r->margin * inv + 0.01f;
    float lo_x = (ox < ex ? ox : ex) - m, hi_x = (ox < ex ? ex : ox) + m;
    float lo_y = (oy < ey ? oy : ey) - m, hi_y = (oy < ey ? ey : oy) + m;
    float reach = radius * inv;
    /* (reach >= 0, as the grid's walk asks: a radius of -inf, which a forged snapshot's swept
       body can carry, passed reach < 2^20, and its conversion to int32_t was undefined; found
       by fuzz_snapshot. The grid's walk takes such a cast.) */
    if (!rc_lean_in_range(lo_x, lo_y, hi_x, hi_y) || !(reach >= 0.0f && reach < 1048576.0f)) {
        return false;
    }
    int32_t k = (int32_t)reach;
    k += (float)k < reach; /* ceil: the cells of the walk's window either side of its line */
    int32_t lx = rc_lean_floor(lo_x), ly = rc_lean_floor(lo_y), hx = rc_lean_floor(hi_x), hy = rc_lean_floor(hi_y);
    int64_t width = 2 * (int64_t)k + 1;
    if (((int64_t)hx - lx + 1) * ((int64_t)hy - ly + 1) > width * width) {
        return false;
    }
    /* the part in the window (a proxy's cells all are: none goes on past its edge) */
    int32_t wx = lx > lv->x0 ? lx : lv->x0, wy = ly > lv->y0 ? ly : lv->y0;
    int32_t whx = hx < lv->x0 + lv->w - 1 ? hx : lv->x0 + lv->w - 1, why = hy < lv->y0 + lv->h - 1 ? hy : lv->y0 + lv->h - 1;
    for (int32_t y = wy; y <= why; ++y) {
        const uint32_t *start = rc_lean_start(lv, wx, y);
        for (int32_t x = wx; x <= whx; ++x, ++start) {
            /* a proxy whose box goes on left of (or below) the box's edge was offered there */
            uint32_t seen = (x > wx ? RC_LEAN_LEFT : 0u) | (y > wy ? RC_LEAN_DOWN : 0u);
            rc_lean_offer_cell(lv, start, seen, r, max_t, fn, context);
        }
    }
    return true;
}

/* A ray or a swept circle (origin and translation finite, radius >= 0 and finite, max_t in
 * [0, 1]) through the held levels, clipped at *max_t, which fn shortens. Returns the grid's
 * levels the caller still has to walk: the levels not held, and those the copy leaves to the
 * grid for this cast (see rc_lean_walk_level and rc_lean_sweep_level). */
static inline __attribute__((always_inline)) uint64_t rc_grid_lean_cast(const rc_grid_lean *lean, rc_vec2 origin,
                                                                        float radius, rc_vec2 translation,
                                                                        float *max_t, rc_lean_fn *fn, void *context) {
    rc_lean_ray r = rc_lean_ray_of(origin, radius, translation, *max_t);
    uint64_t left = lean->others;
    for (int32_t k = 0; k < lean->count; ++k) {
        bool done = radius == 0.0f ? rc_lean_walk_level(&lean->levels[k], &r, max_t, fn, context)
                                   : rc_lean_sweep_level(&lean->levels[k], &r, radius, max_t, fn, context);
        if (!done) {
            left |= lean->levels[k].covers;
        }
    }
    return left;
}

#endif
