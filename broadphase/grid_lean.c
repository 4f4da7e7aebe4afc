/* broadphase/grid_lean.c: building a grid's compact copy for closest-hit rays (grid_lean.h). */
#include "broadphase/grid_lean.h"

#include "broadphase/grid_internal.h"

/* Can level l be copied: a window holds every cell of it, and no proxy on it is mobile (a cast
 * that skips mobile proxies could not tell them)? */
static bool copyable(const grid_store *s, int32_t l) {
    const grid_level *lv = &s->levels[l];
    if (lv->window.slots == NULL || lv->hashed != 0 || lv->proxies != lv->fixed) {
        return false;
    }
    return (uint64_t)lv->window.w * (uint64_t)lv->window.h < UINT32_MAX;
}

static uint32_t sides_of(uint32_t raw) {
    return ((raw & ENTRY_LEFT) ? RC_LEAN_LEFT : 0u) | ((raw & ENTRY_RIGHT) ? RC_LEAN_RIGHT : 0u) |
           ((raw & ENTRY_DOWN) ? RC_LEAN_DOWN : 0u) | ((raw & ENTRY_UP) ? RC_LEAN_UP : 0u);
}

static size_t starts_bytes(const rc_lean_level *lv) { return sizeof(uint32_t) * ((size_t)lv->w * (size_t)lv->h + 1u); }

/* A level merged into a finer one (its home) has its proxies listed in the home's cells: the
 * rectangle of home cells a proxy's box covers. */
static cell_rect home_rect(const grid_store *s, int32_t home, rc_aabb box) { return rect_of(&s->levels[home], box); }

static bool inside_window(const grid_window *w, cell_rect r) {
    return r.lx >= w->x0 && r.ly >= w->y0 && (int64_t)r.hx < (int64_t)w->x0 + w->w && (int64_t)r.hy < (int64_t)w->y0 + w->h;
}

/* Can level l be merged into home (the next finer level copied)? Its cells are twice the home's,
 * so each of its proxies covers at most 3 x 3 home cells; all of them must lie in the home's
 * window. */
static bool mergeable(const rc_grid *grid, int32_t home, int32_t l) {
    const grid_store *s = &grid->store;
    if (l != home + 1 || !(s->levels[l].size == 2.0f * s->levels[home].size)) {
        return false;
    }
    const grid_window *w = &s->levels[l].window, *hw = &s->levels[home].window;
    for (uint32_t k = 0, n = (uint32_t)w->w * (uint32_t)w->h; k < n; ++k) {
        uint32_t r = w->slots[k];
        if (r == 0) {
            continue;
        }
        bool ok = true;
        FOR_EACH_ENTRY(s, &s->records[r - 1], raw, qb, {
            cell_rect hr = home_rect(s, home, grid->spans[raw & ENTRY_ID_MASK].box);
            ok = ok && inside_window(hw, hr) && hr.hx - hr.lx <= 2 && hr.hy - hr.ly <= 2;
        });
        if (!ok) {
            return false;
        }
    }
    return true;
}

static uint32_t slot_of(const rc_lean_level *lv, int32_t x, int32_t y) {
    return (uint32_t)(y - lv->y0) * (uint32_t)lv->w + (uint32_t)(x - lv->x0);
}

/* One pass over what a lean level holds: its home level's entries cell by cell, then each proxy
 * of the levels merged into it (once, from its lowest cell there) in every home cell it covers.
 * count: add up each slot's entries in starts; else place them, starts serving as cursors. */
static void pass(const rc_grid *grid, int32_t home, uint64_t merged, rc_lean_level *lv, bool count) {
    const grid_store *s = &grid->store;
    const grid_window *win = &s->levels[home].window;
    for (uint32_t k = 0, n = (uint32_t)win->w * (uint32_t)win->h; k < n; ++k) {
        uint32_t r = win->slots[tile_slot(win, k % (uint32_t)win->w, k / (uint32_t)win->w)];
        if (r == 0) {
            continue;
        }
        FOR_EACH_ENTRY(s, &s->records[r - 1], raw, qb, {
            if (count) {
                lv->starts[k]++;
            } else {
                uint32_t id = raw & ENTRY_ID_MASK;
                rc_lean_entry *e = &lv->entries[lv->starts[k]++];
                e->box = grid->spans[id].box;
                e->user = grid->users[id];
                e->sides = sides_of(raw);
            }
        });
    }
    for (uint64_t m = merged; m != 0; m &= m - 1) {
        const grid_window *w = &s->levels[__builtin_ctzll(m)].window;
        for (uint32_t k = 0, n = (uint32_t)w->w * (uint32_t)w->h; k < n; ++k) {
            uint32_t r = w->slots[k];
            if (r == 0) {
                continue;
            }
            FOR_EACH_ENTRY(s, &s->records[r - 1], raw, qb, {
                if (raw & (ENTRY_LEFT | ENTRY_DOWN)) {
                    continue; /* (each proxy from its lowest cell) */
                }
                uint32_t id = raw & ENTRY_ID_MASK;
                cell_rect hr = home_rect(s, home, grid->spans[id].box);
                for (int32_t y = hr.ly; y <= hr.hy; ++y) {
                    for (int32_t x = hr.lx; x <= hr.hx; ++x) {
                        uint32_t slot = slot_of(lv, x, y);
                        if (count) {
                            lv->starts[slot]++;
                            continue;
                        }
                        rc_lean_entry *e = &lv->entries[lv->starts[slot]++];
                        e->box = grid->spans[id].box;
                        e->user = grid->users[id];
                        e->sides = sides_of(entry_of(0u, hr, x, y));
                    }
                }
            });
        }
    }
}

/* A lean level of grid level home with the levels in merged: its cells' starts and entries. */
static bool fill_level(const rc_grid *grid, int32_t home, uint64_t merged, const rc_allocator *a, rc_lean_level *lv) {
    const grid_store *s = &grid->store;
    const grid_window *win = &s->levels[home].window;
    lv->size = s->levels[home].size;
    lv->inv = s->levels[home].inv;
    lv->x0 = win->x0;
    lv->y0 = win->y0;
    lv->w = win->w;
    lv->h = win->h;
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
    uint64_t merged[LEVEL_COUNT];
    int32_t count = 0;
    uint64_t held = 0;
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        if (!copyable(s, l)) {
            continue;
        }
        held |= 1ull << l;
        if (count > 0 && merged[count - 1] == 0 && mergeable(grid, homes[count - 1], l)) {
            merged[count - 1] |= 1ull << l;
            continue;
        }
        homes[count] = l;
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
        if (!fill_level(grid, homes[k], merged[k], a, &levels[k])) {
            rc_grid_lean_free(a, lean);
            return false;
        }
    }
    lean->held = held;
    return true;
}
