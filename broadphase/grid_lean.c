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

/* The starts of level l's cells (counts, then their running sums); false when there are more
 * entries than a copy counts. */
static bool count_entries(const grid_store *s, int32_t l, rc_lean_level *lv) {
    const grid_window *win = &s->levels[l].window;
    uint64_t total = 0;
    uint32_t k = 0;
    for (uint32_t y = 0; y < (uint32_t)win->h; ++y) {
        for (uint32_t x = 0; x < (uint32_t)win->w; ++x, ++k) {
            lv->starts[k] = (uint32_t)total;
            uint32_t r = win->slots[tile_slot(win, x, y)];
            total += r != 0 ? cell_count(&s->records[r - 1]) : 0u;
            if (total >= UINT32_MAX) {
                return false;
            }
        }
    }
    lv->starts[k] = (uint32_t)total;
    lv->entry_count = (uint32_t)total;
    return true;
}

static void fill_entries(const rc_grid *grid, int32_t l, rc_lean_level *lv) {
    const grid_store *s = &grid->store;
    const grid_window *win = &s->levels[l].window;
    for (uint32_t k = 0, n = (uint32_t)win->w * (uint32_t)win->h; k < n; ++k) {
        uint32_t r = win->slots[tile_slot(win, k % (uint32_t)win->w, k / (uint32_t)win->w)];
        if (r == 0) {
            continue;
        }
        uint32_t at = lv->starts[k];
        const grid_cell *cell = &s->records[r - 1];
        FOR_EACH_ENTRY(s, cell, raw, qb, {
            uint32_t id = raw & ENTRY_ID_MASK;
            rc_lean_entry *e = &lv->entries[at++];
            e->box = grid->spans[id].box;
            e->user = grid->users[id];
            e->sides = sides_of(raw);
        });
    }
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

size_t rc_grid_lean_bytes(const rc_grid_lean *lean) {
    size_t bytes = sizeof(rc_lean_level) * (size_t)lean->count;
    for (int32_t k = 0; k < lean->count; ++k) {
        bytes += starts_bytes(&lean->levels[k]) + sizeof(rc_lean_entry) * (size_t)lean->levels[k].entry_count;
    }
    return bytes;
}

bool rc_grid_lean_build(const rc_grid *grid, const rc_allocator *a, rc_grid_lean *lean) {
    memset(lean, 0, sizeof *lean);
    const grid_store *s = &grid->store;
    uint64_t held = 0;
    int32_t count = 0;
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        if (copyable(s, l)) {
            held |= 1ull << l;
            ++count;
        }
    }
    if (count == 0) {
        lean->others = s->used_levels;
        return true;
    }
    rc_lean_level *levels = rc_mem_alloc(a, sizeof(rc_lean_level) * (size_t)count);
    if (levels == NULL) {
        return false;
    }
    memset(levels, 0, sizeof(rc_lean_level) * (size_t)count);
    lean->levels = levels;
    lean->count = count;
    int32_t k = 0;
    for (uint64_t h = held; h != 0; h &= h - 1, ++k) {
        int32_t l = __builtin_ctzll(h);
        const grid_window *win = &s->levels[l].window;
        rc_lean_level *lv = &levels[k];
        lv->size = s->levels[l].size;
        lv->inv = s->levels[l].inv;
        lv->x0 = win->x0;
        lv->y0 = win->y0;
        lv->w = win->w;
        lv->h = win->h;
        lv->starts = rc_mem_alloc(a, starts_bytes(lv));
        if (lv->starts == NULL || !count_entries(s, l, lv)) {
            lv->entry_count = 0;
            rc_grid_lean_free(a, lean);
            return false;
        }
        lv->entries = rc_mem_alloc(a, sizeof(rc_lean_entry) * (size_t)lv->entry_count);
        if (lv->entries == NULL && lv->entry_count > 0) {
            lv->entry_count = 0;
            rc_grid_lean_free(a, lean);
            return false;
        }
        fill_entries(grid, l, lv);
    }
    lean->held = held;
    lean->others = s->used_levels & ~held;
    return true;
}
