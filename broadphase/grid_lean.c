/* broadphase/grid_lean.c: building a grid's compact copy for closest-hit casts (grid_lean.h).
 *
 * A copied level's window is the rectangle of its occupied cells, whether the grid keeps them in
 * a window of its own or hashed (a level of a few large walls, too sparse for the grid's window,
 * is a handful of cells here): every cell outside it is empty, which is what lets the walk pass
 * over the cells outside instead of handing the ray back. */
#include "broadphase/grid_lean.h"

#include "broadphase/grid_internal.h"

/* A copied level's window may hold at most this many cells per occupied one, and this many
 * besides; a level spread thinner (a few walls far apart) is left to the grid's walk. */
#define SPARE_CELLS_PER_CELL 4
#define SPARE_CELLS 1024
#define MAX_SIDE (1 << 20)

static uint32_t sides_of(uint32_t raw) {
    return ((raw & ENTRY_LEFT) ? RC_LEAN_LEFT : 0u) | ((raw & ENTRY_RIGHT) ? RC_LEAN_RIGHT : 0u) |
           ((raw & ENTRY_DOWN) ? RC_LEAN_DOWN : 0u) | ((raw & ENTRY_UP) ? RC_LEAN_UP : 0u);
}

static size_t starts_bytes(const rc_lean_level *lv) { return sizeof(uint32_t) * ((size_t)lv->w * (size_t)lv->h + 1u); }

/* ---- a level's extent ------------------------------------------------------------------------ */

typedef struct extent {
    cell_rect rect;
    int64_t cells;
} extent;

static bool extend(const grid_cell *cell, void *context) {
    extent *e = context;
    if (e->cells++ == 0) {
        e->rect = (cell_rect){cell->x, cell->y, cell->x, cell->y};
    } else {
        e->rect.lx = cell->x < e->rect.lx ? cell->x : e->rect.lx;
        e->rect.ly = cell->y < e->rect.ly ? cell->y : e->rect.ly;
        e->rect.hx = cell->x > e->rect.hx ? cell->x : e->rect.hx;
        e->rect.hy = cell->y > e->rect.hy ? cell->y : e->rect.hy;
    }
    return true;
}

/* Can level l be copied at all: no proxy on it is mobile (a cast that skips mobile proxies could
 * not tell them) and its cells are finite (not the top level's one infinite cell)? */
static bool copyable(const grid_store *s, int32_t l) {
    const grid_level *lv = &s->levels[l];
    return lv->proxies == lv->fixed && lv->size < INFINITY;
}

/* The rectangle of level l's occupied cells, when they are not spread too thin for a window of
 * their own. */
static bool dense_window(const grid_store *s, int32_t l, cell_rect *rect) {
    extent e = {{0, 0, -1, -1}, 0};
    (void)rc_grid_visit_level(s, l, extend, &e);
    int64_t w = (int64_t)e.rect.hx - e.rect.lx + 1, h = (int64_t)e.rect.hy - e.rect.ly + 1;
    if (e.cells == 0 || w > MAX_SIDE || h > MAX_SIDE || w * h > SPARE_CELLS_PER_CELL * e.cells + SPARE_CELLS ||
        w * h >= (int64_t)UINT32_MAX) {
        return false;
    }
    *rect = e.rect;
    return true;
}

/* A level merged into a finer one (its home) has its proxies listed in the home's cells: the
 * rectangle of home cells a proxy's box covers. */
static cell_rect home_rect(const grid_store *s, int32_t home, rc_aabb box) { return rect_of(&s->levels[home], box); }

typedef struct merge_check {
    const rc_grid *grid;
    int32_t home;
    cell_rect window;
    bool ok;
} merge_check;

static bool check_merge(const grid_cell *cell, void *context) {
    merge_check *m = context;
    const grid_store *s = &m->grid->store;
    FOR_EACH_ENTRY(s, cell, raw, qb, {
        cell_rect r = home_rect(s, m->home, m->grid->spans[raw & ENTRY_ID_MASK].box);
        m->ok = m->ok && r.lx >= m->window.lx && r.ly >= m->window.ly && r.hx <= m->window.hx &&
                r.hy <= m->window.hy && r.hx - r.lx <= 2 && r.hy - r.ly <= 2;
    });
    return m->ok;
}

/* Can level l be merged into home (the next finer level copied, its window `window`)? Its cells
 * are twice the home's, so each of its proxies covers at most 3 x 3 home cells; all of them must
 * lie in the home's window. */
static bool mergeable(const rc_grid *grid, int32_t home, cell_rect window, int32_t l) {
    const grid_store *s = &grid->store;
    if (l != home + 1 || !(s->levels[l].size == 2.0f * s->levels[home].size)) {
        return false;
    }
    merge_check m = {grid, home, window, true};
    (void)rc_grid_visit_level(s, l, check_merge, &m);
    return m.ok;
}

/* ---- filling a level ------------------------------------------------------------------------- */

static uint32_t slot_of(const rc_lean_level *lv, int32_t x, int32_t y) {
    return (uint32_t)(y - lv->y0) * (uint32_t)lv->w + (uint32_t)(x - lv->x0);
}

/* One pass over what a lean level holds. count: add up each slot's entries in starts; else place
 * them, starts serving as cursors. */
typedef struct fill_pass {
    const rc_grid *grid;
    int32_t home;
    rc_lean_level *lv;
    bool count;
} fill_pass;

static void put(fill_pass *p, uint32_t slot, uint32_t id, uint32_t sides) {
    rc_lean_level *lv = p->lv;
    if (p->count) {
        lv->starts[slot]++;
        return;
    }
    rc_lean_entry *e = &lv->entries[lv->starts[slot]++];
    e->box = p->grid->spans[id].box;
    e->user = p->grid->users[id];
    e->sides = sides;
}

/* The home level's cells, their entries as the grid holds them. */
static bool put_home_cell(const grid_cell *cell, void *context) {
    fill_pass *p = context;
    uint32_t slot = slot_of(p->lv, cell->x, cell->y);
    FOR_EACH_ENTRY(&p->grid->store, cell, raw, qb, { put(p, slot, raw & ENTRY_ID_MASK, sides_of(raw)); });
    return true;
}

/* A merged level's proxies (each once, from its lowest cell there) in every home cell they cover. */
static bool put_merged_cell(const grid_cell *cell, void *context) {
    fill_pass *p = context;
    const grid_store *s = &p->grid->store;
    FOR_EACH_ENTRY(s, cell, raw, qb, {
        if (raw & (ENTRY_LEFT | ENTRY_DOWN)) {
            continue; /* (each proxy from its lowest cell) */
        }
        uint32_t id = raw & ENTRY_ID_MASK;
        cell_rect hr = home_rect(s, p->home, p->grid->spans[id].box);
        for (int32_t y = hr.ly; y <= hr.hy; ++y) {
            for (int32_t x = hr.lx; x <= hr.hx; ++x) {
                put(p, slot_of(p->lv, x, y), id, sides_of(entry_of(0u, hr, x, y)));
            }
        }
    });
    return true;
}

static void pass(const rc_grid *grid, int32_t home, uint64_t merged, rc_lean_level *lv, bool count) {
    fill_pass p = {grid, home, lv, count};
    (void)rc_grid_visit_level(&grid->store, home, put_home_cell, &p);
    for (uint64_t m = merged; m != 0; m &= m - 1) {
        (void)rc_grid_visit_level(&grid->store, __builtin_ctzll(m), put_merged_cell, &p);
    }
}

/* A lean level of grid level home (its occupied cells in window) with the levels in merged. */
static bool fill_level(const rc_grid *grid, int32_t home, cell_rect window, uint64_t merged, const rc_allocator *a,
                       rc_lean_level *lv) {
    const grid_store *s = &grid->store;
    lv->size = s->levels[home].size;
    lv->inv = s->levels[home].inv;
    lv->x0 = window.lx;
    lv->y0 = window.ly;
    lv->w = window.hx - window.lx + 1;
    lv->h = window.hy - window.ly + 1;
    lv->covers = (1ull << home) | merged;
    lv->starts = rc_mem_alloc(a, starts_bytes(lv));
    if (lv->starts == NULL) {
        return false;
    }
    size_t slots = (size_t)lv->w * (size_t)lv->h;
    memset(lv->starts, 0, sizeof(uint32_t) * (slots + 1u));
    pass(grid, home, merged, lv, true);
    uint64_t total = 0;
    for (size_t k = 0; k <= slots; ++k) {
        uint32_t n = lv->starts[k];
        lv->starts[k] = (uint32_t)total;
        total += n;
        if (total >= UINT32_MAX) {
            return false;
        }
    }
    lv->entries = rc_mem_alloc(a, sizeof(rc_lean_entry) * (size_t)(total > 0 ? total : 1u));
    if (lv->entries == NULL) {
        return false;
    }
    lv->entry_count = (uint32_t)(total > 0 ? total : 1u);
    pass(grid, home, merged, lv, false);
    /* each start went on to the next one's: back by one slot */
    memmove(lv->starts + 1, lv->starts, sizeof(uint32_t) * slots);
    lv->starts[0] = 0;
    return true;
}

static void free_level(const rc_allocator *a, rc_lean_level *lv) {
    if (lv->starts != NULL) {
        rc_mem_free(a, lv->starts, starts_bytes(lv));
    }
    rc_mem_free(a, lv->entries, sizeof(rc_lean_entry) * (size_t)lv->entry_count);
}

void rc_grid_lean_free(const rc_allocator *a, rc_grid_lean *lean) {
    for (int32_t k = 0; k < lean->count; ++k) {
        free_level(a, &lean->levels[k]);
    }
    rc_mem_free(a, lean->levels, sizeof(rc_lean_level) * (size_t)lean->count);
    memset(lean, 0, sizeof *lean);
}

bool rc_grid_lean_build(const rc_grid *grid, const rc_allocator *a, rc_grid_lean *lean) {
    memset(lean, 0, sizeof *lean);
    const grid_store *s = &grid->store;
    /* the copied levels, each its own home or merged into the one below it */
    int32_t homes[LEVEL_COUNT];
    cell_rect windows[LEVEL_COUNT];
    uint64_t merged[LEVEL_COUNT];
    int32_t count = 0;
    uint64_t held = 0;
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        if (!copyable(s, l)) {
            continue;
        }
        /* merged first: a level of a few large props spread over the home's window is too thin
           for a window of its own, but it needs none there (left to the grid, every ray walked
           it there too: rays-transformed's largest props, 371 against 272 ns a ray) */
        if (count > 0 && merged[count - 1] == 0 && mergeable(grid, homes[count - 1], windows[count - 1], l)) {
            held |= 1ull << l;
            merged[count - 1] |= 1ull << l;
            continue;
        }
        cell_rect window;
        if (!dense_window(s, l, &window)) {
            continue;
        }
        held |= 1ull << l;
        homes[count] = l;
        windows[count] = window;
        merged[count] = 0;
        ++count;
    }
    lean->others = s->used_levels & ~held;
    if (count == 0) {
        return true;
    }
    rc_lean_level *levels = rc_mem_alloc(a, sizeof(rc_lean_level) * (size_t)count);
    if (levels == NULL) {
        return false;
    }
    memset(levels, 0, sizeof(rc_lean_level) * (size_t)count);
    lean->levels = levels;
    lean->count = count;
    for (int32_t k = 0; k < count; ++k) {
        if (!fill_level(grid, homes[k], windows[k], merged[k], a, &levels[k])) {
            rc_grid_lean_free(a, lean);
            return false;
        }
    }
    lean->held = held;
    return true;
}
