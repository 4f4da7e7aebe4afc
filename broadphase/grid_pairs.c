/* The grid's pair finding: the pairs of moved proxies whose boxes overlap (all of them, or only
 * those that began), cell by cell when most moved, proxy by proxy otherwise; and the pairs that
 * begin between the proxies of two grids (a world's level grid and the other). */
#include "broadphase/grid_internal.h"
#include "core/simd.h"

/* ---- pairs ---------------------------------------------------------------------------------- */

static void find_new_pairs(const rc_grid *grid, bool begun, rc_grid_pair_fn *fn, void *context);

typedef struct pair_scan {
    const rc_grid *grid;
    uint32_t id;
    cell_rect rect; /* of the scanning proxy, on the level being scanned */
    bool all_moved; /* treat every proxy as moved */
    bool finer;     /* scanning a finer level than the proxy's own */
    bool begun;     /* only pairs whose befores did not overlap */
    rc_grid_pair_fn *fn;
    void *context;
} pair_scan;

/* A proxy's box when the moves were last forgotten. */
static rc_aabb before_of(const rc_grid *grid, uint32_t id) {
    return grid->proxies[id].moved ? grid->befores[id] : grid->spans[id].box;
}

/* Is a pair of overlapping proxies to be reported: every one, or only those that did not
 * overlap before (a pair of boxes that overlapped then was reported then)? (Inline: asked of
 * every overlapping pair the scans meet.) */
static inline bool pair_is_news(const rc_grid *grid, bool begun, uint32_t a, uint32_t b) {
    return !begun || !box_overlaps(before_of(grid, a), before_of(grid, b));
}

static bool pair_scan_cell(const grid_cell *cell, void *context) {
    pair_scan *s = context;
    const rc_grid *grid = s->grid;
    uint32_t me = s->id;
    int32_t my_level = grid->proxies[me].level;
    rc_aabb my_box = grid->spans[me].box;
    rect_edges at = edges_of(s->rect, cell);
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        uint32_t other = raw & ENTRY_ID_MASK;
        bool skip = other == me, other_first = other < me;
        if (!skip && (s->all_moved || grid->proxies[other].moved)) {
            /* both moved: the same level reports from the lower id, across levels from the
               finer proxy, whose scan of the coarser levels finds the pair */
            skip = s->finer || (grid->proxies[other].level == my_level && other_first);
        }
        /* from the lower-left cell of the overlap of the two rectangles only */
        if (!skip && first_in_rect(raw, at) && box_overlaps(my_box, grid->spans[other].box) &&
            pair_is_news(grid, s->begun, me, other)) {
            s->fn((int32_t)me, grid->users[me], (int32_t)other, grid->users[other], s->context);
        }
    });
    return true;
}

static void scan_pairs_of(const rc_grid *grid, int32_t id, bool begun, rc_grid_pair_fn *fn, void *context) {
    int32_t own = grid->proxies[id].level;
    pair_scan s = {grid, (uint32_t)id, proxy_rect(grid, (uint32_t)id), false, false, begun, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        s.rect = rect_of(&grid->store.levels[l], grid->spans[id].box);
        s.finer = l < own;
        rc_grid_visit_rect(&grid->store, l, s.rect, pair_scan_cell, &s);
    }
}

/* When most proxies moved, going cell by cell is cheaper than proxy by proxy: each cell's
 * entries are read once and each pair in it looked at once. Pairs within a level come from
 * the cells; pairs across levels from the finer proxy's look at the coarser levels. */
typedef struct cell_pairs {
    const rc_grid *grid;
    bool all_moved;
    bool begun; /* only pairs whose befores did not overlap */
    rc_grid_pair_fn *fn;
    void *context;
} cell_pairs;

/* Walks a cell's entries one by one, for the loops that need two walks at once. */
typedef struct entry_walk {
    const grid_store *store;
    const grid_cell *cell;
    uint32_t index, chunk, in_chunk, chunk_fill;
} entry_walk;

static entry_walk entry_walk_start(const grid_store *s, const grid_cell *cell) {
    uint32_t count = cell_count(cell);
    entry_walk w = {s, cell, 0, cell->chunk, 0, count > INLINE_ENTRIES ? head_fill(count) : 0};
    return w;
}

static bool entry_walk_next(entry_walk *w, uint32_t *id) {
    if (w->index < INLINE_ENTRIES && w->index < cell_count(w->cell)) {
        *id = w->cell->entries[w->index++];
        return true;
    }
    while (w->chunk != NONE && w->in_chunk == w->chunk_fill) {
        w->chunk = w->store->chunks[w->chunk].next;
        w->in_chunk = 0;
        w->chunk_fill = CHUNK_ENTRIES;
    }
    if (w->chunk == NONE) {
        return false;
    }
    *id = w->store->chunks[w->chunk].entries[w->in_chunk++];
    return true;
}

/* A cell entry as the pair loops read it: the proxy's box, id and neighbour bits, and whether
 * it counts as moved. */
typedef struct local_entry {
    rc_aabb box;
    uint32_t raw, id;
    bool moved;
} local_entry;

static local_entry load_entry(const cell_pairs *c, uint32_t raw) {
    uint32_t id = raw & ENTRY_ID_MASK;
    local_entry e = {c->grid->spans[id].box, raw, id, c->all_moved || c->grid->proxies[id].moved};
    return e;
}

/* Report two entries of a cell as a pair if one of them moved, this is the lower-left cell the
 * two share (not when both reach the cell to the left, or below, which they share too), their
 * boxes overlap and the pair is news. */
/* Report a pair of a cell, lower id first, if it is news. */
static void report_if_news(const cell_pairs *c, uint32_t a, uint32_t b) {
    if (!pair_is_news(c->grid, c->begun, a, b)) {
        return;
    }
    const rc_grid *grid = c->grid;
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    c->fn((int32_t)lo, grid->users[lo], (int32_t)hi, grid->users[hi], c->context);
}

static void offer_cell_pair(const cell_pairs *c, const local_entry *a, const local_entry *b) {
    if ((a->moved || b->moved) && (a->raw & b->raw & (ENTRY_LEFT | ENTRY_DOWN)) == 0 &&
        box_overlaps(a->box, b->box)) {
        report_if_news(c, a->id, b->id);
    }
}

/* A cell of at most this many entries is copied once (each pair then costs a few compares, not
 * a walk of the chunk list and two proxy loads); a larger one is walked. */
#define LOCAL_ENTRIES 64

/* A small cell's entries side by side, so that the pair loop tests every pair with a few
 * compares and no branch until a pair passes them all (most do not). */
typedef struct local_cell {
    float lx[LOCAL_ENTRIES], ly[LOCAL_ENTRIES], ux[LOCAL_ENTRIES], uy[LOCAL_ENTRIES];
    uint32_t raw[LOCAL_ENTRIES];
    uint32_t moved[LOCAL_ENTRIES]; /* 1 or 0 */
} local_cell;

/* Does entry i pair with entry j here: this is the lower-left cell the two share (not when both
 * reach the cell to the left, or below, which they share too), and their boxes overlap
 * (rc_aabb_overlaps)? */
static inline bool entries_pair_here(const local_cell *e, int32_t i, int32_t j) {
    /* (all five tests with no branch: most pairs fail one) */
    uint32_t pass = (uint32_t)((e->raw[j] & e->raw[i] & (ENTRY_LEFT | ENTRY_DOWN)) == 0u) &
                    (uint32_t)(e->lx[j] <= e->ux[i]) & (uint32_t)(e->lx[i] <= e->ux[j]) &
                    (uint32_t)(e->ly[j] <= e->uy[i]) & (uint32_t)(e->ly[i] <= e->uy[j]);
    return pass != 0u;
}

/* Entry i's pairs with the entries after it when i moved: every one of them, four at a time
 * while four are left: their boxes' overlap with i's by the same compares (rc_w_le_bits is <=
 * lane by lane), then the rest of the test for those that pass, in the order of j (most pairs
 * fail the boxes). */
static void moved_entry_pairs(const cell_pairs *c, const local_cell *e, int32_t n, int32_t i) {
    float lx = e->lx[i], ly = e->ly[i], ux = e->ux[i], uy = e->uy[i];
    uint32_t shared = e->raw[i] & (ENTRY_LEFT | ENTRY_DOWN);
    int32_t j = i + 1;
    rc_w wlx = rc_w_set(lx), wly = rc_w_set(ly), wux = rc_w_set(ux), wuy = rc_w_set(uy);
    for (; j + RC_LANES <= n; j += RC_LANES) {
        uint32_t overlap = rc_w_le_bits(rc_w_load(&e->lx[j]), wux) & rc_w_le_bits(wlx, rc_w_load(&e->ux[j])) &
                           rc_w_le_bits(rc_w_load(&e->ly[j]), wuy) & rc_w_le_bits(wly, rc_w_load(&e->uy[j]));
        /* the lanes that overlap, lowest first (taken by their bits: testing each bit in turn
           was a branch a lane that the crowd's boxes mispredicted) */
        for (; overlap != 0u; overlap &= overlap - 1u) {
            int32_t k = __builtin_ctz(overlap);
            if ((e->raw[j + k] & shared) == 0u) {
                report_if_news(c, e->raw[i] & ENTRY_ID_MASK, e->raw[j + k] & ENTRY_ID_MASK);
            }
        }
    }
    for (; j < n; ++j) {
        if (entries_pair_here(e, i, j)) {
            report_if_news(c, e->raw[i] & ENTRY_ID_MASK, e->raw[j] & ENTRY_ID_MASK);
        }
    }
}

/* Entry i's pairs when it did not move: with the entries after it that moved (their indices,
 * ascending, in later[0..count)) and no others, in the order of j as above. */
static void still_entry_pairs(const cell_pairs *c, const local_cell *e, int32_t i, const int32_t *later,
                              int32_t count) {
    for (int32_t k = 0; k < count; ++k) {
        if (entries_pair_here(e, i, later[k])) {
            report_if_news(c, e->raw[i] & ENTRY_ID_MASK, e->raw[later[k]] & ENTRY_ID_MASK);
        }
    }
}

/* The pairs of a cell of few entries with at least one of the two moved: each pair once, i
 * before j, in the order of i and then of j. A still entry is tested against the moved ones
 * after it alone (a pile where a few bodies move: three pairs in four of the rain's small cells
 * had neither moved, and were tested for nothing). */
static void small_cell_pairs(const cell_pairs *c, const grid_cell *cell) {
    local_cell e;
    int32_t n = 0, moved_count = 0;
    int32_t moved_at[LOCAL_ENTRIES];
    FOR_EACH_ENTRY(&c->grid->store, cell, raw, qb, {
        uint32_t id = raw & ENTRY_ID_MASK;
        rc_aabb box = c->grid->spans[id].box;
        e.lx[n] = box.lower.x;
        e.ly[n] = box.lower.y;
        e.ux[n] = box.upper.x;
        e.uy[n] = box.upper.y;
        e.raw[n] = raw;
        e.moved[n] = c->all_moved || c->grid->proxies[id].moved ? 1u : 0u;
        moved_at[moved_count] = n;
        moved_count += (int32_t)e.moved[n];
        n++;
    });
    if (moved_count == 0) {
        return; /* every pair here was looked at when one of its proxies last moved */
    }
    for (int32_t i = 0, m = 0; i + 1 < n; ++i) {
        while (m < moved_count && moved_at[m] <= i) {
            ++m;
        }
        if (e.moved[i] != 0u) {
            moved_entry_pairs(c, &e, n, i);
        } else {
            still_entry_pairs(c, &e, i, moved_at + m, moved_count - m);
        }
    }
}

static bool cell_pairs_cell(const grid_cell *cell, void *context) {
    const cell_pairs *c = context;
    if (cell_count(cell) <= LOCAL_ENTRIES) {
        small_cell_pairs(c, cell);
        return true;
    }
    entry_walk outer = entry_walk_start(&c->grid->store, cell);
    uint32_t raw_a;
    while (entry_walk_next(&outer, &raw_a)) {
        local_entry a = load_entry(c, raw_a);
        entry_walk inner = outer; /* the entries after a */
        uint32_t raw_b;
        while (entry_walk_next(&inner, &raw_b)) {
            local_entry b = load_entry(c, raw_b);
            offer_cell_pair(c, &a, &b);
        }
    }
    return true;
}

/* The pairs of one proxy with the proxies of coarser levels, from the finer side. */
static bool coarser_pairs_cell(const grid_cell *cell, void *context) {
    pair_scan *s = context;
    const rc_grid *grid = s->grid;
    uint32_t me = s->id;
    rc_aabb my_box = grid->spans[me].box;
    bool me_moved = s->all_moved || grid->proxies[me].moved;
    rect_edges at = edges_of(s->rect, cell);
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        uint32_t other = raw & ENTRY_ID_MASK;
        if ((me_moved || grid->proxies[other].moved) && first_in_rect(raw, at) &&
            box_overlaps(my_box, grid->spans[other].box) && pair_is_news(grid, s->begun, me, other)) {
            s->fn((int32_t)me, grid->users[me], (int32_t)other, grid->users[other], s->context);
        }
    });
    return true;
}

/* A level of at most this many proxies (a drum's four walls, a pit's sides: long boxes on a
 * coarse level) is listed once per pass (the cell-by-cell pairs, a grid's moved proxies looking
 * into the other grid), and a proxy tests their boxes directly instead of visiting the cells of
 * its box on that level. */
#define FEW_ON_LEVEL 8

typedef struct few_levels {
    uint64_t levels; /* bit l: level l is listed */
    int32_t count[LEVEL_COUNT];
    uint32_t ids[LEVEL_COUNT][FEW_ON_LEVEL]; /* ascending */
    rc_aabb around[LEVEL_COUNT];             /* the union of their boxes: most proxies miss it */
} few_levels;

static void list_few_levels(const rc_grid *grid, few_levels *few) {
    const grid_store *s = &grid->store;
    few->levels = 0;
    int32_t left = 0; /* to be listed: the walk stops when all are (a scene's walls come first) */
    for (uint64_t u = s->used_levels; u != 0; u &= u - 1) {
        int32_t l = __builtin_ctzll(u);
        if (s->levels[l].proxies <= FEW_ON_LEVEL) {
            few->levels |= 1ull << l;
            few->count[l] = 0;
            left += s->levels[l].proxies;
        }
    }
    for (int32_t id = 0; id < grid->high && left > 0; ++id) {
        int32_t l = grid->proxies[id].level;
        if (l >= 0 && (few->levels >> l & 1u) != 0u && few->count[l] < FEW_ON_LEVEL) {
            rc_aabb box = grid->spans[id].box;
            few->around[l] = few->count[l] == 0 ? box : rc_aabb_union(few->around[l], box);
            few->ids[l][few->count[l]++] = (uint32_t)id;
            left--;
        }
    }
}

/* Can a box overlap any proxy of listed level l (most boxes miss the box around them)? */
static inline bool near_few(const few_levels *few, int32_t l, rc_aabb box) {
    return few->count[l] > 0 && box_overlaps(box, few->around[l]);
}

/* The pairs of proxy me with a listed level's proxies: the pairs coarser_pairs_cell finds there,
 * by their boxes alone (two overlapping boxes share a cell). */
static void few_level_pairs(const pair_scan *ps, const few_levels *few, int32_t l) {
    const rc_grid *grid = ps->grid;
    uint32_t me = ps->id;
    rc_aabb my_box = grid->spans[me].box;
    if (!near_few(few, l, my_box)) {
        return;
    }
    bool me_moved = ps->all_moved || grid->proxies[me].moved;
    for (int32_t k = 0; k < few->count[l]; ++k) {
        uint32_t other = few->ids[l][k];
        if ((me_moved || grid->proxies[other].moved) && box_overlaps(my_box, grid->spans[other].box) &&
            pair_is_news(grid, ps->begun, me, other)) {
            ps->fn((int32_t)me, grid->users[me], (int32_t)other, grid->users[other], ps->context);
        }
    }
}

static void pairs_cell_by_cell(const rc_grid *grid, bool all_moved, bool begun, rc_grid_pair_fn *fn,
                               void *context) {
    const grid_store *s = &grid->store;
    cell_pairs c = {grid, all_moved, begun, fn, context};
    uint64_t used = s->used_levels;
    for (uint64_t u = used; u != 0; u &= u - 1) {
        rc_grid_visit_level(s, __builtin_ctzll(u), cell_pairs_cell, &c);
    }
    if ((used & (used - 1)) == 0) {
        return; /* one level: no pairs across levels */
    }
    few_levels few;
    list_few_levels(grid, &few);
    for (int32_t id = 0; id < grid->high; ++id) {
        int32_t own = grid->proxies[id].level;
        if (own < 0) {
            continue;
        }
        pair_scan ps = {grid, (uint32_t)id, proxy_rect(grid, (uint32_t)id), all_moved, false, begun, fn, context};
        uint64_t coarser = own + 1 < LEVEL_COUNT ? used >> (own + 1) : 0;
        for (uint64_t u = coarser; u != 0; u &= u - 1) {
            int32_t l = own + 1 + __builtin_ctzll(u);
            if ((few.levels >> l & 1u) != 0u) {
                few_level_pairs(&ps, &few, l);
                continue;
            }
            ps.rect = rect_of(&s->levels[l], grid->spans[id].box);
            rc_grid_visit_rect(s, l, ps.rect, coarser_pairs_cell, &ps);
        }
    }
}

void rc_grid_find_new_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context) {
    if (grid == NULL || fn == NULL) {
        return;
    }
    lock(grid);
    find_new_pairs(grid, false, fn, context);
    unlock(grid);
}

void rc_grid_find_begun_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context) {
    lock(grid);
    find_new_pairs(grid, true, fn, context);
    unlock(grid);
}

static void find_new_pairs(const rc_grid *grid, bool begun, rc_grid_pair_fn *fn, void *context) {
    if (grid->moved_count >= grid->live / 4) {
        pairs_cell_by_cell(grid, false, begun, fn, context);
    } else {
        for (int32_t i = 0; i < grid->moved_count; ++i) {
            int32_t id = grid->moved[i];
            if (grid->proxies[id].level >= 0) {
                scan_pairs_of(grid, id, begun, fn, context);
            }
        }
    }
}

/* ---- pairs across two grids ---------------------------------------------------------------- */

/* A moved proxy of one grid (mine) looking for its begun pairs in the other. */
typedef struct across_scan {
    const rc_grid *mine, *other;
    const few_levels *few; /* the other grid's levels of few proxies (a terrain's side walls) */
    uint32_t id;
    rc_aabb box, before;
    cell_rect rect;   /* of the box, on the other grid's level being scanned */
    bool mine_first;  /* mine is the grid a of rc_grid_find_begun_pairs_across */
    bool skip_moved;  /* the other grid's moved proxies found this pair already */
    rc_grid_pair_fn *fn;
    void *context;
} across_scan;

/* Report the other grid's proxy `other` with the scanning one if their pair began. */
static inline void offer_across(const across_scan *s, uint32_t other) {
    const rc_grid *o = s->other;
    if (!(s->skip_moved && o->proxies[other].moved) && box_overlaps(s->box, o->spans[other].box) &&
        !box_overlaps(s->before, before_of(o, other))) {
        if (s->mine_first) {
            s->fn((int32_t)s->id, s->mine->users[s->id], (int32_t)other, o->users[other], s->context);
        } else {
            s->fn((int32_t)other, o->users[other], (int32_t)s->id, s->mine->users[s->id], s->context);
        }
    }
}

static bool across_cell(const grid_cell *cell, void *context) {
    const across_scan *s = context;
    rect_edges at = edges_of(s->rect, cell);
    FOR_EACH_ENTRY(&s->other->store, cell, raw, qb, {
        if (first_in_rect(raw, at)) {
            offer_across(s, raw & ENTRY_ID_MASK);
        }
    });
    return true;
}

static void scan_across(across_scan *s) {
    const grid_store *store = &s->other->store;
    for (uint64_t used = store->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        if ((s->few->levels >> l & 1u) != 0u) {
            /* (by their boxes, as few_level_pairs) */
            if (near_few(s->few, l, s->box)) {
                for (int32_t k = 0; k < s->few->count[l]; ++k) {
                    offer_across(s, s->few->ids[l][k]);
                }
            }
            continue;
        }
        s->rect = rect_of(&store->levels[l], s->box);
        rc_grid_visit_rect(store, l, s->rect, across_cell, s);
    }
}

static void moved_across(const rc_grid *mine, const rc_grid *other, bool mine_first, rc_grid_pair_fn *fn, void *context) {
    if (other->live == 0 || mine->moved_count == 0) {
        return;
    }
    few_levels few;
    few.levels = 0;
    if (other->high <= 8 * mine->moved_count) {
        list_few_levels(other, &few); /* (a walk over the other's proxies: worth it for many moves) */
    }
    across_scan s;
    memset(&s, 0, sizeof s);
    s.mine = mine;
    s.other = other;
    s.few = &few;
    s.mine_first = mine_first;
    s.skip_moved = !mine_first;
    s.fn = fn;
    s.context = context;
    for (int32_t i = 0; i < mine->moved_count; ++i) {
        int32_t id = mine->moved[i];
        if (mine->proxies[id].level < 0) {
            continue;
        }
        s.id = (uint32_t)id;
        s.box = mine->spans[id].box;
        s.before = before_of(mine, (uint32_t)id);
        scan_across(&s);
    }
}

void rc_grid_find_begun_pairs_across(const rc_grid *a, const rc_grid *b, rc_grid_pair_fn *fn, void *context) {
    lock(a);
    lock(b);
    moved_across(a, b, true, fn, context);
    moved_across(b, a, false, fn, context); /* (b's moved proxies: not a's moved ones, met above) */
    unlock(b);
    unlock(a);
}

void rc_grid_forget_moves(rc_grid *grid) {
    if (!changeable(grid)) {
        return;
    }
    for (int32_t i = 0; i < grid->moved_count; ++i) {
        grid->proxies[grid->moved[i]].moved = false;
    }
    grid->moved_count = 0;
}

void rc_grid_unlist_moves(rc_grid *grid, int32_t kept) {
    if (!changeable(grid) || kept < 0) {
        return;
    }
    for (int32_t i = kept; i < grid->moved_count; ++i) {
        grid->proxies[grid->moved[i]].moved = false;
    }
    if (kept < grid->moved_count) {
        grid->moved_count = kept;
    }
}

void rc_grid_update_pairs(rc_grid *grid, rc_grid_pair_fn *fn, void *context) {
    if (!changeable(grid)) {
        return;
    }
    rc_grid_find_new_pairs(grid, fn, context);
    rc_grid_forget_moves(grid);
}

void rc_grid_find_all_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context) {
    if (grid == NULL || fn == NULL) {
        return;
    }
    lock(grid);
    pairs_cell_by_cell(grid, true, false, fn, context);
    unlock(grid);
}
