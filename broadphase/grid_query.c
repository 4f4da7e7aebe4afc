/* The grid's box and point queries, and its rays and swept circles (each reports a proxy once,
 * from the first cell it meets it in: see grid.c). */
#include "broadphase/grid_internal.h"
#include "broadphase/grid_lean.h"

#include "core/simd.h"

/* ---- visiting cells ------------------------------------------------------------------------- */

typedef struct rect_filter {
    cell_rect rect;
    cell_visit_fn *fn;
    void *context;
} rect_filter;

static bool visit_if_inside(const grid_cell *cell, void *context) {
    const rect_filter *f = context;
    return !rect_contains(f->rect, cell->x, cell->y) || f->fn(cell, f->context);
}

/* Visit the occupied cells of rect on a level: by lookup when the rectangle is small, by a
 * sweep over the level when it spans more cells than the level has. False if fn stopped. */
bool rc_grid_visit_rect(const grid_store *s, int32_t level, cell_rect r, cell_visit_fn *fn, void *context) {
    /* a scan reads every cell record of every level: only for rects larger than that (a level
       of three cells beside a million-segment level must not scan the million) */
    if (rect_cells(r) > (int64_t)s->record_high) {
        rect_filter f = {r, fn, context};
        return rc_grid_visit_level(s, level, visit_if_inside, &f);
    }
    /* the part of the rectangle within the level's bounds: the same occupied cells in the same
       order, no empty one outside looked up */
    const grid_level *lv = &s->levels[level];
    if (lv->cells == 0) {
        return true;
    }
    int32_t lx = max_i32(r.lx, lv->bounds.lx), ly = max_i32(r.ly, lv->bounds.ly);
    int32_t hx = r.hx < lv->bounds.hx ? r.hx : lv->bounds.hx, hy = r.hy < lv->bounds.hy ? r.hy : lv->bounds.hy;
    for (int32_t y = ly; y <= hy; ++y) {
        for (int32_t x = lx; x <= hx; ++x) {
            const grid_cell *c = cell_lookup(s, level, x, y);
            if (c != NULL && !fn(c, context)) {
                return false;
            }
        }
    }
    return true;
}

/* ---- box and point queries ------------------------------------------------------------------ */

typedef struct box_query {
    const rc_grid *grid;
    rc_aabb box;
    cell_rect rect;
    uint32_t skip; /* ENTRY_MOBILE: mobile proxies are not offered (nor read); else 0 */
    rc_grid_query_fn *fn;
    void *context;
} box_query;

static bool box_query_cell(const grid_cell *cell, void *context) {
    box_query *q = context;
    const rc_grid *grid = q->grid;
    rect_edges at = edges_of(q->rect, cell);
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        if (!(raw & q->skip) && first_in_rect(raw, at)) {
            uint32_t id = raw & ENTRY_ID_MASK;
            if (box_overlaps(grid->spans[id].box, q->box) && !piece_before_overlaps(grid, id, q->box) &&
                !q->fn((int32_t)id, grid->users[id], q->context)) {
                return false;
            }
        }
    });
    return true;
}

static void query_aabb(const rc_grid *grid, rc_aabb box, uint32_t skip, rc_grid_query_fn *fn, void *context) {
    box_query q = {grid, box, {0, 0, 0, 0}, skip, fn, context};
    for (uint64_t used = levels_for(&grid->store, skip); used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        q.rect = rect_of(&grid->store.levels[l], box);
        if (!rc_grid_visit_rect(&grid->store, l, q.rect, box_query_cell, &q)) {
            return;
        }
    }
}

void rc_grid_query_aabb(const rc_grid *grid, rc_aabb box, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_aabb_is_valid(box)) {
        return;
    }
    lock(grid);
    query_aabb(grid, box, 0u, fn, context);
    unlock(grid);
}

void rc_grid_query_aabb_trusted(const rc_grid *grid, rc_aabb box, bool skip_mobile, rc_grid_query_fn *fn,
                                void *context) {
    lock(grid);
    query_aabb(grid, box, skip_mobile ? ENTRY_MOBILE : 0u, fn, context);
    unlock(grid);
}

static void query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    const grid_store *s = &grid->store;
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        const grid_level *level = &s->levels[l];
        const grid_cell *cell = cell_lookup(s, l, cell_coord(point.x * level->inv), cell_coord(point.y * level->inv));
        if (cell == NULL) {
            continue;
        }
        FOR_EACH_ENTRY(s, cell, raw, qb, {
            uint32_t id = raw & ENTRY_ID_MASK;
            if (rc_aabb_contains_point(grid->spans[id].box, point) &&
                !piece_before_overlaps(grid, id, (rc_aabb){point, point}) &&
                !fn((int32_t)id, grid->users[id], context)) {
                return;
            }
        });
    }
}

void rc_grid_query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(point)) {
        return;
    }
    lock(grid);
    query_point(grid, point, fn, context);
    unlock(grid);
}

/* ---- rays and swept circles ------------------------------------------------------------------ */

/* A ray walk offers every proxy whose box, grown by radius on every side, the segment reaches.
 * On a level with cells of size s it walks the cells of the centre line and looks k =
 * ceil(radius / s) cells to either side: the first cell's (2k+1)^2 window, then at each step
 * the strip of 2k+1 cells the window gains. A proxy is offered from the first walk cell whose
 * window meets its rectangle: the walk cell is inside the rectangle grown by k, the previous
 * one is not. Within a window or strip it is offered from one cell only. */
typedef struct ray_walk {
    const rc_grid *grid;
    rc_vec2 origin, translation;
    rc_vec2 inv; /* 1 / translation per axis (0 where it is 0) */
    float radius;
    float margin; /* radius, plus a few roundings of the coordinates the walk meets */
    float max_t;
    bool stopped;
    uint32_t skip; /* ENTRY_MOBILE: mobile proxies are not offered (nor read); else 0 */
    rc_grid_ray_fn *fn;
    void *context;
} ray_walk;

/* Does origin + t * d, 0 <= t <= max_t, reach the box grown by the walk's margin? The margin
 * covers the radius of a swept circle and a few float roundings at the size of the
 * coordinates involved, so that a touch at a box's very edge is not lost to rounding in this
 * slab test; the callback's exact test decides. */
static bool walk_reaches_box(const ray_walk *w, rc_aabb b) {
    float m = w->margin;
    float t0 = 0.0f, t1 = w->max_t;
    if (w->inv.x != 0.0f) {
        float a = (b.lower.x - m - w->origin.x) * w->inv.x, c = (b.upper.x + m - w->origin.x) * w->inv.x;
        t0 = max_f(t0, min_f(a, c));
        t1 = min_f(t1, max_f(a, c));
    } else if (w->origin.x < b.lower.x - m || w->origin.x > b.upper.x + m) {
        return false;
    }
    if (w->inv.y != 0.0f) {
        float a = (b.lower.y - m - w->origin.y) * w->inv.y, c = (b.upper.y + m - w->origin.y) * w->inv.y;
        t0 = max_f(t0, min_f(a, c));
        t1 = min_f(t1, max_f(a, c));
    } else if (w->origin.y < b.lower.y - m || w->origin.y > b.upper.y + m) {
        return false;
    }
    return t0 <= t1;
}

static void ray_call(ray_walk *w, uint32_t id) {
    float r = w->fn((int32_t)id, w->grid->users[id], w->max_t, w->context);
    if (r < 0.0f) {
        w->stopped = true;
    } else if (r < w->max_t) {
        w->max_t = r;
    }
}

/* Offer an entry of cell (x, y) to the callback if the walk still reaches its box: the copy in
 * the entry when there is one, else the proxy's own. */
static void ray_offer(ray_walk *w, uint32_t raw, const uint16_t *qb, float size, int32_t x, int32_t y) {
    uint32_t id = raw & ENTRY_ID_MASK;
    rc_aabb box = (raw & ENTRY_BOXED) ? dequantize(qb, size, x, y) : w->grid->spans[id].box;
    if (walk_reaches_box(w, box)) {
        ray_call(w, id);
    }
}

static bool ray_scan_cell(const grid_cell *cell, void *context) {
    ray_walk *w = context;
    const grid_store *s = &w->grid->store;
    float size = s->levels[cell_level(cell)].size;
    FOR_EACH_ENTRY(s, cell, raw, qb, {
        /* from the proxy's lowest cell only (and none that the walk skips) */
        if (!(raw & (ENTRY_LEFT | ENTRY_DOWN | w->skip))) {
            ray_offer(w, raw, qb, size, cell->x, cell->y);
            if (w->stopped) {
                return false;
            }
        }
    });
    return true;
}

/* The fallback for walks that would be very long, very wide, or leave the range of cell
 * coordinates: every occupied cell of the level, each proxy from its lowest cell only. */
static bool ray_scan_level(ray_walk *w, int32_t level) { return rc_grid_visit_level(&w->grid->store, level, ray_scan_cell, w); }

/* A short swept circle's cells: the rectangle its swept box covers, each proxy offered once,
 * from the lowest cell of the rectangle it is in (as a box query reports it). */
typedef struct ray_rect {
    ray_walk *walk;
    cell_rect rect;
} ray_rect;

static bool ray_rect_cell(const grid_cell *cell, void *context) {
    ray_rect *r = context;
    ray_walk *w = r->walk;
    const grid_store *s = &w->grid->store;
    float size = s->levels[cell_level(cell)].size;
    rect_edges at = edges_of(r->rect, cell);
    FOR_EACH_ENTRY(s, cell, raw, qb, {
        if (!(raw & w->skip) && first_in_rect(raw, at)) {
            ray_offer(w, raw, qb, size, cell->x, cell->y);
            if (w->stopped) {
                return false;
            }
        }
    });
    return true;
}

static cell_rect grow_rect(cell_rect r, int32_t k) {
    cell_rect g = {r.lx - k, r.ly - k, r.hx + k, r.hy + k};
    return g;
}

/* Ask for the spans of a cell's entries that carry no box of their own (and that the walk does
 * not skip). */
static void prefetch_spans(const rc_grid *grid, const grid_cell *cell, uint32_t skip) {
    for (uint32_t i = 0, n = cell_count(cell); i < n && i < INLINE_ENTRIES; ++i) {
        if (!(cell->entries[i] & (ENTRY_BOXED | skip))) {
            RC_PREFETCH(&grid->spans[cell->entries[i] & ENTRY_ID_MASK]);
        }
    }
}

/* Offer the proxies of the cells in `strip` (a window or the strip a step adds) that the
 * previous walk cell's window did not reach; each once, from the strip's lowest cell in it. */
static bool ray_visit_strip(ray_walk *w, int32_t l, cell_rect strip, bool first, int32_t px, int32_t py, int32_t k) {
    const rc_grid *grid = w->grid;
    const grid_store *s = &grid->store;
    for (int32_t y = strip.ly; y <= strip.hy; ++y) {
        for (int32_t x = strip.lx; x <= strip.hx; ++x) {
            const grid_cell *cell = cell_lookup(s, l, x, y);
            if (cell == NULL) {
                continue;
            }
            /* ask for all the entries' spans at once rather than one miss after another */
            prefetch_spans(grid, cell, w->skip);
            float size = s->levels[l].size;
            FOR_EACH_ENTRY(s, cell, raw, qb, {
                if (raw & w->skip) {
                    continue; /* this entry only: the innermost loop is the entries' */
                }
                cell_rect r = proxy_rect(grid, raw & ENTRY_ID_MASK);
                if (max_i32(r.lx, strip.lx) == x && max_i32(r.ly, strip.ly) == y &&
                    (first || !rect_contains(grow_rect(r, k), px, py))) {
                    ray_offer(w, raw, qb, size, x, y);
                    if (w->stopped) {
                        return false;
                    }
                }
            });
        }
    }
    return true;
}

/* One step of a ray's cell walk in cell units: which boundary comes first, and where. */
typedef struct cell_stepper {
    int32_t cx, cy;
    float tx, ty; /* the ray parameter at the next vertical and horizontal boundaries */
    uint32_t came_from; /* the entry bit of the cell the last step left: which neighbour it was */
} cell_stepper;

typedef struct stepper_setup {
    int32_t sx, sy;
    int32_t ahead_x, ahead_y; /* 1 where the step is positive: the next boundary is cell + 1 */
    uint32_t from_x, from_y;  /* the entry bit of the cell a step along each axis leaves */
    float ox, oy, inv_dx, inv_dy;
} stepper_setup;

/* One step, with no branch: which axis comes first is a coin toss for a diagonal ray, and a
 * mispredicted branch per cell cost more than the whole step. Both boundaries are worked out
 * by the same formula as before and the one that moved is kept. */
static inline void stepper_advance(cell_stepper *c, const stepper_setup *u) {
    bool along_x = c->tx <= c->ty;
    int32_t cx = c->cx + (along_x ? u->sx : 0);
    int32_t cy = c->cy + (along_x ? 0 : u->sy);
    float tx = ((float)(cx + u->ahead_x) - u->ox) * u->inv_dx;
    float ty = ((float)(cy + u->ahead_y) - u->oy) * u->inv_dy;
    c->tx = along_x ? tx : c->tx;
    c->ty = along_x ? c->ty : ty;
    c->came_from = along_x ? u->from_x : u->from_y;
    c->cx = cx;
    c->cy = cy;
}

static uint32_t stepper_slot(const grid_window *win, const cell_stepper *c) {
    return tile_slot(win, (uint32_t)(c->cx - win->x0), (uint32_t)(c->cy - win->y0));
}

/* What a window walk keeps for the cell it is in: the slab test of a boxed entry in cell units.
 * A box edge q (in quanta from one cell below the cell) is reached at t = ((cx - 1) - ox) / dx +
 * q / (QUANTA dx), a multiply-add from per-cell (bx, by) and per-walk (kx, ky) constants. The
 * walk's margin, in cells (margin; mx, my along t), covers the roundings. */
typedef struct window_slab {
    float bx, by, kx, ky, mx, my;
    float margin;
} window_slab;

/* The same test for the four inline entries at once (lanes past the count read stale boxes and
 * are not looked at): bit i says entry i's box is reached before it is left, and t0[i] is where
 * it is entered, for the check against max_t when the entry's turn comes (an earlier entry's
 * hit may have shortened the walk). The same operations as slab_reaches, lane by lane; min and
 * max in the same order of operands, so the answers are the same bits. */
static inline uint32_t slab_reaches_4(const window_slab *k, const grid_cell *cell, float t0[INLINE_ENTRIES]) {
    rc_w q[4];
    rc_w_u16_quads(cell->boxes, q);
    rc_w bx = rc_w_set(k->bx), kx = rc_w_set(k->kx), by = rc_w_set(k->by), ky = rc_w_set(k->ky);
    rc_w a = rc_w_add(bx, rc_w_mul(kx, q[0])), b = rc_w_add(bx, rc_w_mul(kx, q[2]));
    rc_w c = rc_w_add(by, rc_w_mul(ky, q[1])), d = rc_w_add(by, rc_w_mul(ky, q[3]));
    rc_w mx = rc_w_set(k->mx), my = rc_w_set(k->my);
    /* max_f(p, q) is q > p ? q : p, rc_w_max(q, p); min_f likewise */
    rc_w lo = rc_w_max(rc_w_sub(rc_w_min(b, a), mx), rc_w_zero());
    lo = rc_w_max(rc_w_sub(rc_w_min(d, c), my), lo);
    rc_w hi = rc_w_min(rc_w_add(rc_w_max(d, c), my), rc_w_add(rc_w_max(b, a), mx));
    rc_w_store(t0, lo);
    return rc_w_le_bits(lo, hi);
}

/* The scalar test of a boxed entry (a ray parallel to an axis, s* == 0 there, looks at its
 * coordinate across that axis instead). slab_reaches_4 is the same test, four entries at once,
 * for a ray that moves along both axes. */
static bool slab_reaches(const window_slab *k, const stepper_setup *u, const cell_stepper *c, const uint16_t *qb,
                         float max_t) {
    float margin = k->margin;
    const float quantum = (float)(1.0 / QUANTA);
    float t0 = 0.0f, t1 = max_t;
    if (u->sx != 0) {
        float a = k->bx + k->kx * (float)qb[0], b = k->bx + k->kx * (float)qb[2];
        t0 = max_f(t0, min_f(a, b) - k->mx);
        t1 = min_f(t1, max_f(a, b) + k->mx);
    } else {
        float lo = (float)(c->cx - 1) + quantum * (float)qb[0], hi = (float)(c->cx - 1) + quantum * (float)qb[2];
        t1 = u->ox < lo - margin || u->ox > hi + margin ? -1.0f : t1;
    }
    if (u->sy != 0) {
        float a = k->by + k->ky * (float)qb[1], b = k->by + k->ky * (float)qb[3];
        t0 = max_f(t0, min_f(a, b) - k->my);
        t1 = min_f(t1, max_f(a, b) + k->my);
    } else {
        float lo = (float)(c->cy - 1) + quantum * (float)qb[1], hi = (float)(c->cy - 1) + quantum * (float)qb[3];
        t1 = u->oy < lo - margin || u->oy > hi + margin ? -1.0f : t1;
    }
    return t0 <= t1;
}

/* Offer the entries of the walk's cell, in their order, that the cell it came from did not
 * hold: boxed ones by their quantised boxes, the others by their proxies' boxes. False when the
 * callback stopped the walk. */
static bool window_offer_cell(ray_walk *w, const grid_cell *cell, const window_slab *k, const stepper_setup *u,
                              const cell_stepper *c) {
    const grid_store *s = &w->grid->store;
    uint32_t seen = c->came_from | w->skip;
    bool diagonal = u->sx != 0 && u->sy != 0;
    float t0[INLINE_ENTRIES];
    uint32_t reach4 = diagonal ? slab_reaches_4(k, cell, t0) : 0u;
    uint32_t slot = 0;
    FOR_EACH_ENTRY(s, cell, raw, qb, {
        uint32_t lane = slot++;
        if (!(raw & seen)) {
            uint32_t id = raw & ENTRY_ID_MASK;
            bool reach;
            if (!(raw & ENTRY_BOXED)) {
                reach = walk_reaches_box(w, w->grid->spans[id].box);
            } else if (diagonal && lane < INLINE_ENTRIES) {
                reach = ((reach4 >> lane) & 1u) != 0u && t0[lane] <= w->max_t;
            } else {
                reach = slab_reaches(k, u, c, qb, w->max_t);
            }
            if (reach) {
                ray_call(w, id);
                if (w->stopped) {
                    return false;
                }
            }
        }
    });
    return true;
}

/* The walk of a ray (radius 0) inside a level's window: no bounds checks, and the rule that
 * offers a proxy once read from the entries' neighbour bits (a proxy was offered already when
 * its rectangle covers the cell the walk came from). */
static bool ray_walk_window(ray_walk *w, int32_t l, int32_t cx, int32_t cy, int64_t steps, float ox, float oy) {
    const rc_grid *grid = w->grid;
    const grid_store *s = &grid->store;
    const grid_window *win = &s->levels[l].window;
    stepper_setup u;
    u.ox = ox;
    u.oy = oy;
    rc_lean_axis(w->inv.x, s->levels[l].size, &u.sx, &u.inv_dx);
    rc_lean_axis(w->inv.y, s->levels[l].size, &u.sy, &u.inv_dy);
    u.ahead_x = u.sx > 0;
    u.ahead_y = u.sy > 0;
    u.from_x = u.sx > 0 ? ENTRY_LEFT : ENTRY_RIGHT;
    u.from_y = u.sy > 0 ? ENTRY_DOWN : ENTRY_UP;
    cell_stepper c;
    c.cx = cx;
    c.cy = cy;
    /* the first boundaries by stepper_advance's formula */
    c.tx = rc_lean_first_boundary(cx, u.sx, ox, u.inv_dx);
    c.ty = rc_lean_first_boundary(cy, u.sy, oy, u.inv_dy);
    c.came_from = 0; /* the first cell offers everything in it */
    const float quantum = (float)(1.0 / QUANTA);
    window_slab k;
    k.margin = w->margin * s->levels[l].inv;
    k.kx = u.inv_dx * quantum;
    k.ky = u.inv_dy * quantum;
    k.mx = k.margin * fabsf(u.inv_dx);
    k.my = k.margin * fabsf(u.inv_dy);
    for (;;) {
        uint32_t r = win->slots[stepper_slot(win, &c)];
        if (r != 0) {
            const grid_cell *cell = &s->records[r - 1];
            if (grid->statics != grid->live) {
                prefetch_spans(grid, cell, w->skip);
            }
            k.bx = ((float)(c.cx - 1) - ox) * u.inv_dx;
            k.by = ((float)(c.cy - 1) - oy) * u.inv_dy;
            if (!window_offer_cell(w, cell, &k, &u, &c)) {
                return false;
            }
        }
        if (--steps <= 0 || (c.tx <= c.ty ? c.tx : c.ty) > w->max_t) {
            break;
        }
        stepper_advance(&c, &u);
    }
    return true;
}

static bool ray_walk_level(ray_walk *w, int32_t l) {
    const grid_store *s = &w->grid->store;
    const grid_level *level = &s->levels[l];
    float inv = level->inv;
    const grid_window *win = &level->window;
    if (w->radius == 0.0f && level->hashed == 0 && win->slots != NULL) {
        /* the common case first, with the fewest checks: a ray within the window */
        float ox = w->origin.x * inv, oy = w->origin.y * inv;
        float ex = ox + w->max_t * (w->translation.x * inv), ey = oy + w->max_t * (w->translation.y * inv);
        float lo_x = ox < ex ? ox : ex, hi_x = ox < ex ? ex : ox, lo_y = oy < ey ? oy : ey, hi_y = oy < ey ? ey : oy;
        /* two cells of room each way for rounding and the walk's lookahead */
        if (lo_x >= (float)win->x0 + 2.0f && lo_y >= (float)win->y0 + 2.0f &&
            hi_x < (float)((int64_t)win->x0 + win->w) - 3.0f && hi_y < (float)((int64_t)win->y0 + win->h) - 3.0f) {
            int32_t cx = cell_coord(ox), cy = cell_coord(oy), end_x = cell_coord(ex), end_y = cell_coord(ey);
            int64_t steps = llabs((int64_t)end_x - cx) + llabs((int64_t)end_y - cy) + 2;
            return ray_walk_window(w, l, cx, cy, steps, ox, oy);
        }
    }
    /* in cell units, where cell boundaries are the integers */
    float ox = w->origin.x * inv, oy = w->origin.y * inv;
    float dx = w->translation.x * inv, dy = w->translation.y * inv;
    float ex = ox + w->max_t * dx, ey = oy + w->max_t * dy;
    float reach = ceilf(w->radius * inv);
    float limit = 0.5f * (float)CELL_LIMIT; /* 2^29: exact */
    /* (reach >= 0: a radius of -inf, which a forged snapshot's swept body once carried, passed
       reach < limit, and its conversion to int32_t was undefined; found by fuzz_snapshot) */
    if (!(fabsf(ox) < limit && fabsf(oy) < limit && fabsf(ex) < limit && fabsf(ey) < limit && reach >= 0.0f &&
          reach < limit)) {
        return ray_scan_level(w, l);
    }
    int32_t k = (int32_t)reach;
    int32_t cx = cell_coord(ox), cy = cell_coord(oy);
    int32_t end_x = cell_coord(ex), end_y = cell_coord(ey);
    int64_t steps = llabs((int64_t)end_x - cx) + llabs((int64_t)end_y - cy) + 2;
    int64_t width = 2 * (int64_t)k + 1;
    if (width * (steps + width) > 4 * (int64_t)w->grid->store.record_high + 64) {
        return ray_scan_level(w, l); /* (which reads every cell record of every level) */
    }
    if (k > 0) {
        /* a swept circle whose swept box covers fewer cells than the walk's first window (a
           grenade at rest in a pile, or small beside the cells of a level of long walls: k is
           1 for any radius up to a cell, and the window 3 x 3) visits just those: they hold
           every box it reaches. The box is grown by the walk's margin and a hundredth of a cell
           for the roundings of cell units */
        float m = w->margin * inv + 0.01f;
        cell_rect r = {cell_coord(min_f(ox, ex) - m), cell_coord(min_f(oy, ey) - m), cell_coord(max_f(ox, ex) + m),
                       cell_coord(max_f(oy, ey) + m)};
        if (rect_cells(r) <= width * width) {
            ray_rect visit = {w, r};
            return rc_grid_visit_rect(s, l, r, ray_rect_cell, &visit);
        }
    }
    /* a ray whose cells all lie in the window and none in the hash table takes the direct
       walk; two more cells each way cover rounding and the walk's lookahead, which may run one
       cell past the last */
    if (k == 0 && level->hashed == 0 && win->slots != NULL) {
        int64_t lx = (int64_t)(cx < end_x ? cx : end_x) - 2, hx = (int64_t)(cx > end_x ? cx : end_x) + 2;
        int64_t ly = (int64_t)(cy < end_y ? cy : end_y) - 2, hy = (int64_t)(cy > end_y ? cy : end_y) + 2;
        if (lx >= win->x0 && ly >= win->y0 && hx < (int64_t)win->x0 + win->w && hy < (int64_t)win->y0 + win->h) {
            return ray_walk_window(w, l, cx, cy, steps, ox, oy);
        }
    }
    int32_t sx = dx > 0.0f ? 1 : (dx < 0.0f ? -1 : 0);
    int32_t sy = dy > 0.0f ? 1 : (dy < 0.0f ? -1 : 0);
    float inv_dx = sx != 0 ? 1.0f / dx : 0.0f;
    float inv_dy = sy != 0 ? 1.0f / dy : 0.0f;
    cell_rect strip = {cx - k, cy - k, cx + k, cy + k};
    if (!ray_visit_strip(w, l, strip, true, cx, cy, k)) {
        return false;
    }
    for (; steps > 0; --steps) {
        /* the ray parameter at the next vertical and horizontal cell boundaries */
        float tx = sx > 0 ? ((float)(cx + 1) - ox) * inv_dx : (sx < 0 ? ((float)cx - ox) * inv_dx : INFINITY);
        float ty = sy > 0 ? ((float)(cy + 1) - oy) * inv_dy : (sy < 0 ? ((float)cy - oy) * inv_dy : INFINITY);
        int32_t px = cx, py = cy;
        if (tx <= ty) {
            if (tx > w->max_t) {
                break;
            }
            cx += sx;
            strip = (cell_rect){cx + sx * k, cy - k, cx + sx * k, cy + k};
        } else {
            if (ty > w->max_t) {
                break;
            }
            cy += sy;
            strip = (cell_rect){cx - k, cy + sy * k, cx + k, cy + sy * k};
        }
        if (!ray_visit_strip(w, l, strip, false, px, py, k)) {
            return false;
        }
    }
    return true;
}

/* The walk itself over the levels in `levels` that hold proxies, for inputs already checked:
 * finite, radius and max_fraction >= 0. */
static void cast_levels(const rc_grid *grid, uint64_t levels, rc_vec2 origin, float radius, rc_vec2 translation,
                        float max_fraction, bool skip_mobile, rc_grid_ray_fn *fn, void *context) {
    ray_walk w;
    w.grid = grid;
    w.skip = skip_mobile ? ENTRY_MOBILE : 0u;
    w.origin = origin;
    w.translation = translation;
    /* (the boxes the walk meets lie within the ray's reach of its origin: the margin's size) */
    rc_lean_ray setup = rc_lean_ray_of(origin, radius, translation, max_fraction);
    w.inv = setup.inv;
    w.radius = radius;
    w.margin = setup.margin;
    w.max_t = max_fraction;
    w.stopped = false;
    w.fn = fn;
    w.context = context;
    for (uint64_t used = levels_for(&grid->store, w.skip) & levels; used != 0; used &= used - 1) {
        if (!ray_walk_level(&w, __builtin_ctzll(used))) {
            return;
        }
    }
}

void rc_grid_cast_trusted(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                          bool skip_mobile, rc_grid_ray_fn *fn, void *context) {
    cast_levels(grid, UINT64_MAX, origin, radius, translation, max_fraction, skip_mobile, fn, context);
}

void rc_grid_cast_levels(const rc_grid *grid, uint64_t levels, rc_vec2 origin, float radius, rc_vec2 translation,
                         float max_fraction, bool skip_mobile, rc_grid_ray_fn *fn, void *context) {
    cast_levels(grid, levels, origin, radius, translation, max_fraction, skip_mobile, fn, context);
}

static void cast(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                 rc_grid_ray_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) ||
        !rc_is_finite(max_fraction) || max_fraction < 0.0f || !rc_is_finite(radius) || radius < 0.0f) {
        return;
    }
    rc_grid_cast_trusted(grid, origin, radius, translation, max_fraction, false, fn, context);
}

void rc_grid_cast_ray(const rc_grid *grid, rc_vec2 origin, rc_vec2 translation, float max_fraction,
                      rc_grid_ray_fn *fn, void *context) {
    rc_grid_cast_circle(grid, origin, 0.0f, translation, max_fraction, fn, context);
}

void rc_grid_cast_circle(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                         rc_grid_ray_fn *fn, void *context) {
    if (grid == NULL) {
        return;
    }
    lock(grid);
    cast(grid, origin, radius, translation, max_fraction, fn, context);
    unlock(grid);
}
