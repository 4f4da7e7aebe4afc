/* The hierarchical uniform grid. See <ricochet/grid.h> for what it promises.
 *
 * Layout. Proxies are parallel arrays indexed by proxy id: boxes and cell rectangles (read by
 * every query) and the cold bookkeeping. All occupied cells of all levels share one
 * open-addressing hash table keyed by (level, x, y), with linear probing, backward-shift
 * deletion and a load of at most 1/2. A cell holds its first four proxy ids inline (most
 * cells never hold more) and the rest in a chain of fixed-size chunks from a pool with a free
 * list, so memory stops growing once a scene's churn settles.
 *
 * Once per query without marks. A proxy sits in every cell of the rectangle of cells its box
 * touches. A box query reports it only from the cell at the lower-left corner of the overlap
 * of that rectangle and the query's; a ray reports it from the first cell of its walk inside
 * the rectangle, which is the current cell when the previous one is outside (the walk moves
 * monotonically on both axes, so it enters a rectangle once). Both tests are integer
 * comparisons and need no writes.
 *
 * Failure. Adding one proxy to one cell takes at most one table slot and one chunk, so what a
 * change needs is known before it is made: every operation has its memory first and then
 * changes the grid, rc_grid_reserve lets a caller make a batch of moves that cannot fail, and a
 * batch of inserts that fails half way is undone whole (grid_batch.c). */
#include "broadphase/grid_internal.h"

#include <assert.h>

/* ---- creation ------------------------------------------------------------------------------- */

rc_grid_def rc_grid_default_def(void) {
    rc_grid_def def;
    memset(&def, 0, sizeof def);
    return def;
}

rc_grid *rc_grid_create(const rc_grid_def *def) {
    if (def == NULL || !rc_is_finite(def->cell_size) || def->cell_size < 0.0f || def->proxy_capacity < 0) {
        return NULL;
    }
    rc_allocator allocator = rc_mem_resolve(def->allocator);
    rc_grid *grid = rc_mem_alloc(&allocator, sizeof *grid);
    if (grid == NULL) {
        return NULL;
    }
    memset(grid, 0, sizeof *grid);
    atomic_init(&grid->locks, 0);
    grid->allocator = allocator;
    grid->automatic = def->cell_size == 0.0f;
    rc_grid_store_init(&grid->store, grid->automatic ? 1.0f : def->cell_size);
    grid->free_list = -1;
    grid->next_size_check = FIRST_SIZE_CHECK;
    if (def->proxy_capacity > 0 && !rc_grid_reserve_proxies(grid, def->proxy_capacity)) {
        rc_grid_destroy(grid);
        return NULL;
    }
    return grid;
}

/* The arrays that grow and shrink with the proxy slots, together or not at all. */
typedef struct proxy_arrays {
    grid_span *spans;
    grid_proxy *proxies;
    int32_t *users, *moved;
    rc_aabb *befores;
} proxy_arrays;

static void free_proxy_arrays(const rc_allocator *a, const proxy_arrays *p, int32_t capacity) {
    rc_mem_free(a, p->spans, sizeof(grid_span) * (size_t)capacity);
    rc_mem_free(a, p->proxies, sizeof(grid_proxy) * (size_t)capacity);
    rc_mem_free(a, p->users, sizeof(int32_t) * (size_t)capacity);
    rc_mem_free(a, p->moved, sizeof(int32_t) * (size_t)capacity);
    rc_mem_free(a, p->befores, sizeof(rc_aabb) * (size_t)capacity);
}

static proxy_arrays grid_arrays(const rc_grid *grid) {
    proxy_arrays p = {grid->spans, grid->proxies, grid->users, grid->moved, grid->befores};
    return p;
}

/* The grid's proxy arrays moved to new ones of capacity (holding its high slots and its moved
 * list): false, and nothing changed, when memory runs out. */
static bool resize_proxy_arrays(rc_grid *grid, int32_t capacity) {
    const rc_allocator *a = &grid->allocator;
    proxy_arrays n = {rc_mem_alloc(a, sizeof(grid_span) * (size_t)capacity),
                      rc_mem_alloc(a, sizeof(grid_proxy) * (size_t)capacity),
                      rc_mem_alloc(a, sizeof(int32_t) * (size_t)capacity),
                      rc_mem_alloc(a, sizeof(int32_t) * (size_t)capacity),
                      rc_mem_alloc(a, sizeof(rc_aabb) * (size_t)capacity)};
    if (n.spans == NULL || n.proxies == NULL || n.users == NULL || n.moved == NULL || n.befores == NULL) {
        free_proxy_arrays(a, &n, capacity);
        return false;
    }
    if (grid->high > 0) {
        memcpy(n.spans, grid->spans, sizeof(grid_span) * (size_t)grid->high);
        memcpy(n.proxies, grid->proxies, sizeof(grid_proxy) * (size_t)grid->high);
        memcpy(n.users, grid->users, sizeof(int32_t) * (size_t)grid->high);
        memcpy(n.moved, grid->moved, sizeof(int32_t) * (size_t)grid->moved_count);
        memcpy(n.befores, grid->befores, sizeof(rc_aabb) * (size_t)grid->high);
    }
    proxy_arrays old = grid_arrays(grid);
    free_proxy_arrays(a, &old, grid->capacity);
    grid->spans = n.spans;
    grid->proxies = n.proxies;
    grid->users = n.users;
    grid->moved = n.moved;
    grid->befores = n.befores;
    grid->capacity = capacity;
    return true;
}

void rc_grid_destroy(rc_grid *grid) {
    if (!changeable(grid)) {
        return;
    }
    rc_grid_end_batch(grid);
    rc_grid_close_undo(grid, false);
    rc_grid_undo_free_log(grid);
    rc_allocator a = grid->allocator;
    rc_grid_store_free(&a, &grid->store);
    proxy_arrays arrays = grid_arrays(grid);
    free_proxy_arrays(&a, &arrays, grid->capacity);
    rc_mem_free(&a, grid, sizeof *grid);
}

/* Grow the proxy arrays together, or none of them. The moved list is as long as they are, so
 * marking a proxy as moved never allocates. */
bool rc_grid_reserve_proxies(rc_grid *grid, int32_t needed) {
    if (needed <= grid->capacity) {
        return true;
    }
    if (needed > MAX_PROXIES) {
        return false;
    }
    int32_t capacity = grid->capacity > 8 ? grid->capacity + grid->capacity / 2 : 16;
    if (capacity > MAX_PROXIES) {
        capacity = MAX_PROXIES;
    }
    if (capacity < needed) {
        capacity = needed;
    }
    return resize_proxy_arrays(grid, capacity);
}

/* A box that overlaps nothing: the before of a proxy new to the pairs. */
static const rc_aabb NO_BOX = {{FLT_MAX, FLT_MAX}, {-FLT_MAX, -FLT_MAX}};

/* Record a move of proxy id while its box is still the one it had: the first move since the
 * moves were last forgotten keeps that box as the proxy's before. */
static void mark_moved(rc_grid *grid, int32_t id) {
    if (!grid->proxies[id].moved) {
        grid->proxies[id].moved = true;
        grid->moved[grid->moved_count++] = id;
        grid->befores[id] = grid->spans[id].box;
    }
}

/* Record proxy id as new to the pairs: every pair it is in counts as begun. */
static void mark_new(rc_grid *grid, int32_t id) {
    mark_moved(grid, id);
    grid->befores[id] = NO_BOX;
}

/* Rewrite a live proxy's entries in place from what it is now (boxed when static, with the
 * mobile bit when mobile): its cells stay the same. */
static void rewrite_entries(rc_grid *grid, int32_t id) {
    const grid_proxy *p = &grid->proxies[id];
    cell_rect r = proxy_rect(grid, (uint32_t)id);
    rc_grid_rect_refresh(&grid->store, p->level, r, r, entry_id(grid, id), p->is_static ? &grid->spans[id].box : NULL);
}


/* ---- rebuilding: cell size and windows ------------------------------------------------------- */

/* The grid's store replaced by `fresh`: the old one freed, or in a batch kept by its journal
 * (room for that reserved: rc_grid_journal_reserve_store). */
static void replace_store(rc_grid *grid, const grid_store *fresh) {
    if (grid->journal.open) {
        grid_store replaced = grid->store;
        grid->store = *fresh;
        rc_grid_journal_store(grid, &replaced);
    } else {
        rc_grid_store_free(&grid->allocator, &grid->store);
        grid->store = *fresh;
    }
}

/* Cells of twice the size of the boxes of a histogram bin (the power of two above twice the
 * bin's sizes); points (bin 0) get unit cells. Twice, because rays then cross half as many
 * cells while each box still covers one to four: measured best on the ray benchmarks. */
static float cell_size_for_bin(int32_t bin) { return bin == 0 ? 1.0f : power_of_two(bin - SIZE_BINS / 2 + 2); }

/* The cell size for the median proxy. */
static float chosen_cell_size(const rc_grid *grid) {
    int32_t half = (grid->live + 1) / 2, seen = 0;
    for (int32_t b = 0; b < SIZE_BINS; ++b) {
        seen += grid->size_bins[b];
        if (seen >= half) {
            return cell_size_for_bin(b);
        }
    }
    return grid->store.base_size;
}

/* Re-place every proxy with a base cell size and, on each level, a dense window over where its
 * proxies are now (with room to drift) when they are dense enough to fill it. On failure
 * nothing changes. In a batch the store replaced goes to the journal (grid_batch.c), which puts
 * it back if the batch fails. */
static bool rebuild(rc_grid *grid, float base_size) {
    const rc_allocator *a = &grid->allocator;
    if (!rc_grid_journal_reserve_store(grid)) {
        return false;
    }
    grid_store fresh;
    rc_grid_store_init(&fresh, base_size);
    const grid_span *spans = grid->spans; /* (the boxes stay where they are) */
    cell_rect bounds[LEVEL_COUNT];
    int64_t entries[LEVEL_COUNT] = {0};
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level < 0) {
            continue;
        }
        int32_t l = level_for(&fresh, spans[id].box);
        cell_rect r = rect_of(&fresh.levels[l], spans[id].box);
        if (entries[l] == 0) {
            bounds[l] = r;
        } else {
            bounds[l].lx = r.lx < bounds[l].lx ? r.lx : bounds[l].lx;
            bounds[l].ly = r.ly < bounds[l].ly ? r.ly : bounds[l].ly;
            bounds[l].hx = r.hx > bounds[l].hx ? r.hx : bounds[l].hx;
            bounds[l].hy = r.hy > bounds[l].hy ? r.hy : bounds[l].hy;
        }
        entries[l] += rect_cells(r);
    }
    bool ok = true;
    int64_t additions = 0;
    for (int32_t l = 0; l < LEVEL_COUNT && ok; ++l) {
        additions += entries[l];
        if (entries[l] == 0) {
            continue;
        }
        int64_t w = (int64_t)bounds[l].hx - bounds[l].lx + 1, h = (int64_t)bounds[l].hy - bounds[l].ly + 1;
        int64_t mx = w / 8 + 2, my = h / 8 + 2;
        int64_t area = (w + 2 * mx) * (h + 2 * my);
        /* a window costs 4 bytes a cell: worth it where the proxies fill a fair share of it */
        if (area > WINDOW_MAX_CELLS || area > 16 * entries[l] + 4096) {
            continue;
        }
        grid_window *win = &fresh.levels[l].window;
        win->x0 = (int32_t)(bounds[l].lx - mx);
        win->y0 = (int32_t)(bounds[l].ly - my);
        win->w = (int32_t)((w + 2 * mx + 3) & ~(int64_t)3);
        win->h = (int32_t)((h + 2 * my + 3) & ~(int64_t)3);
        win->slots = rc_mem_alloc(a, rc_grid_window_bytes(win));
        if (win->slots == NULL) {
            win->w = win->h = 0;
            ok = false;
        } else {
            memset(win->slots, 0, rc_grid_window_bytes(win));
        }
    }
    /* the hash table takes only what falls outside the windows */
    int64_t outside = 0;
    for (int32_t id = 0; id < grid->high && ok; ++id) {
        if (grid->proxies[id].level < 0) {
            continue;
        }
        int32_t l = level_for(&fresh, spans[id].box);
        const grid_window *win = &fresh.levels[l].window;
        cell_rect r = rect_of(&fresh.levels[l], spans[id].box);
        for (int32_t y = r.ly; y <= r.hy; ++y) {
            for (int32_t x = r.lx; x <= r.hx; ++x) {
                outside += window_slot(win, x, y) == NONE;
            }
        }
    }
    if (!ok || !rc_grid_store_reserve_split(a, &fresh, additions, outside, NULL)) {
        rc_grid_store_free(a, &fresh);
        return false;
    }
    /* Open the window cells in row order first, so that cells next to each other in space sit
       next to each other in memory: a ray walking along a row reads neighbouring records. */
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level >= 0) {
            int32_t l = level_for(&fresh, spans[id].box);
            grid_window *win = &fresh.levels[l].window;
            cell_rect r = rect_of(&fresh.levels[l], spans[id].box);
            for (int32_t y = r.ly; y <= r.hy && win->slots != NULL; ++y) {
                for (int32_t x = r.lx; x <= r.hx; ++x) {
                    uint32_t slot = window_slot(win, x, y);
                    if (slot != NONE) {
                        win->slots[slot] = NONE; /* occupied, record to come */
                    }
                }
            }
        }
    }
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        grid_window *win = &fresh.levels[l].window;
        int64_t tiles_w = win->w >> 2;
        for (int64_t i = 0, n = (int64_t)win->w * win->h; i < n && win->slots != NULL; ++i) {
            if (win->slots[i] == NONE) {
                int64_t tile = i >> 4, within = i & 15;
                int64_t dx = (tile % tiles_w) * 4 + (within & 3), dy = (tile / tiles_w) * 4 + (within >> 2);
                win->slots[i] = 0;
                rc_grid_cell_open(&fresh, l, win->x0 + (int32_t)dx, win->y0 + (int32_t)dy);
            }
        }
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level >= 0) {
            int32_t l = level_for(&fresh, spans[id].box);
            cell_rect r = rect_of(&fresh.levels[l], spans[id].box);
            rc_grid_rect_add(&fresh, l, r, NULL, entry_id(grid, id), grid->proxies[id].is_static ? &spans[id].box : NULL,
                             NULL);
            rc_grid_level_count(&fresh, l, 1, grid->proxies[id].mobile);
            grid->proxies[id].level = (int8_t)l;
            set_proxy_rect(&grid->proxies[id], r);
        }
    }
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        fresh.levels[l].hashed_after_rebuild = fresh.levels[l].hashed;
    }
    replace_store(grid, &fresh);
    grid->rebuilds++;
    return true;
}

/* Have too many cells spilled out of the windows into the hash table: more than an eighth of a
 * level's, and twice what the last rebuild left there? (A level too sparse for a window, a long
 * chain's walls round a large level, keeps all its cells hashed; rebuilding it at every step
 * for that made a 100,000-point level's step 28 ms and a 1,000,000-point one's a second.) */
static bool windows_stale(const grid_store *s) {
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        const grid_level *lv = &s->levels[__builtin_ctzll(used)];
        if (lv->hashed > 64 && lv->hashed > lv->cells / 8 && lv->hashed > 2 * lv->hashed_after_rebuild) {
            return true;
        }
    }
    return false;
}

/* Forget the proxy slots above the last live one (the free list and the moved list keep the
 * order of the rest) and give back the proxy arrays' unused room. */
static void trim_proxies(rc_grid *grid) {
    int32_t high = grid->high;
    while (high > 0 && grid->proxies[high - 1].level < 0) {
        --high;
    }
    int32_t *link = &grid->free_list;
    while (*link >= 0) {
        if (*link >= high) {
            *link = grid->users[*link];
        } else {
            link = &grid->users[*link];
        }
    }
    int32_t kept = 0;
    for (int32_t i = 0; i < grid->moved_count; ++i) {
        if (grid->moved[i] < high) {
            grid->moved[kept++] = grid->moved[i];
        }
    }
    grid->moved_count = kept;
    grid->high = high;
    int32_t capacity = high > 16 ? high : 16;
    if (grid->capacity >= 2 * capacity) {
        (void)resize_proxy_arrays(grid, capacity); /* failing, the arrays stay as large as they were */
    }
}

bool rc_grid_optimize(rc_grid *grid) {
    if (!changeable(grid) || grid->journal.open) {
        return false; /* (after a batch: its journal undoes inserts and reserves alone) */
    }
    if (grid->store.hashed == 0 && !grid->undo.open) {
        rc_grid_undo_free_log(grid); /* (the next open has no table changes to log) */
    }
    grid->peak_live = grid->live > grid->peak_live ? grid->live : grid->peak_live;
    /* give memory back once three quarters of the proxies it was grown for are gone (decided by
       counts only, so the same calls give the same ids whatever the allocator does) */
    if (grid->peak_live >= 256 && grid->live * 4 <= grid->peak_live) {
        grid->peak_live = grid->live;
        trim_proxies(grid);
        return rebuild(grid, grid->store.base_size); /* a store sized for what is left */
    }
    if (!windows_stale(&grid->store)) {
        return true;
    }
    return rebuild(grid, grid->store.base_size);
}

static void maybe_rebuild_after_insert(rc_grid *grid) {
    if (grid->live < grid->next_size_check) {
        return;
    }
    grid->next_size_check *= 2;
    float size = grid->automatic ? chosen_cell_size(grid) : grid->store.base_size;
    if (size != grid->store.base_size || windows_stale(&grid->store)) {
        rebuild(grid, size); /* on failure things simply stay as they are */
    }
}

/* ---- proxies -------------------------------------------------------------------------------- */

/* The first proxy of an automatic grid gives the first guess at the cell size (its store holds
 * no cell): a store for that size, with room for the proxy's entries, takes the old one's place.
 * False, and nothing changed, when memory runs out. */
static bool take_first_size(rc_grid *grid, rc_aabb box) {
    float guess = cell_size_for_bin(size_bin(box_size(box)));
    if (!grid->automatic || grid->live != 0 || grid->store.cells != 0 || guess == grid->store.base_size) {
        return true;
    }
    if (!rc_grid_journal_reserve_store(grid)) {
        return false;
    }
    grid_store fresh;
    rc_grid_store_init(&fresh, guess);
    cell_rect r;
    (void)place_of(&fresh, box, &r);
    if (!rc_grid_store_reserve(&grid->allocator, &fresh, rect_cells(r))) {
        rc_grid_store_free(&grid->allocator, &fresh);
        return false;
    }
    replace_store(grid, &fresh);
    return true;
}

/* rc_grid_store_reserve of the grid's store; in a batch a table the growth replaced goes to the
 * journal (room for that reserved). */
static bool reserve_entries(rc_grid *grid, int64_t additions) {
    grid_table kept;
    memset(&kept, 0, sizeof kept); /* (the reserve fills it only where it grew the table) */
    if (!rc_grid_store_reserve_split(&grid->allocator, &grid->store, additions, additions,
                                     grid->journal.open || grid->undo.open ? &kept : NULL)) {
        return false;
    }
    if (grid->journal.open && kept.replaced) {
        rc_grid_journal_table(grid, kept);
    } else if (kept.replaced) {
        rc_grid_undo_keep_table(grid, kept);
    }
    return true;
}

int32_t rc_grid_insert(rc_grid *grid, rc_aabb box, int32_t user) {
    if (!changeable(grid) || !rc_aabb_is_valid(box)) {
        return -1;
    }
    if ((grid->free_list < 0 && !rc_grid_reserve_proxies(grid, grid->high + 1)) || !rc_grid_journal_reserve(grid, 2) ||
        !take_first_size(grid, box)) {
        return -1;
    }
    cell_rect r;
    int32_t l = place_of(&grid->store, box, &r);
    if (!reserve_entries(grid, rect_cells(r))) {
        return -1;
    }
    int32_t id;
    bool was_moved = false;
    if (grid->free_list >= 0) {
        id = grid->free_list;
        grid->free_list = grid->users[id];
        was_moved = grid->proxies[id].moved; /* still listed from before its removal */
    } else {
        id = grid->high++;
    }
    grid_proxy *p = &grid->proxies[id];
    grid->users[id] = user;
    p->level = (int8_t)l;
    set_proxy_rect(p, r);
    p->moved = was_moved;
    p->is_static = false;
    p->mobile = false;
    p->prev_piece = -1;
    p->next_piece = -1;
    grid->spans[id].box = box;
    rc_grid_rect_add(&grid->store, l, r, NULL, (uint32_t)id, NULL, NULL);
    rc_grid_level_count(&grid->store, l, 1, false);
    grid->size_bins[size_bin(box_size(box))]++;
    grid->live++;
    mark_new(grid, id);
    rc_grid_journal_insert(grid, id);
    maybe_rebuild_after_insert(grid);
    return id;
}

/* The entries a live proxy's move to a valid box adds, and where the box goes (level *l, cells
 * *r). */
static int32_t additions_of_move(const rc_grid *grid, int32_t id, rc_aabb box, int32_t *l, cell_rect *r) {
    *l = place_of(&grid->store, box, r);
    if (*l != grid->proxies[id].level) {
        return (int32_t)rect_cells(*r);
    }
    cell_rect old = proxy_rect(grid, (uint32_t)id);
    return rect_equal(*r, old) ? 0 : (int32_t)rc_grid_rect_additions(*r, &old);
}

int32_t rc_grid_move_additions(const rc_grid *grid, int32_t id, rc_aabb box) {
    if (!is_live(grid, id) || !rc_aabb_is_valid(box)) {
        return 0;
    }
    int32_t l;
    cell_rect r;
    return additions_of_move(grid, id, box, &l, &r);
}

bool rc_grid_reserve(rc_grid *grid, int32_t additions) {
    if (!changeable(grid) || additions < 0 || !rc_grid_journal_reserve(grid, 1)) {
        return false;
    }
    return reserve_entries(grid, additions);
}

/* rc_grid_move of a live proxy to a valid box whose place (level l, cells r) is found; note (when
 * not NULL) gets what it did to the cells. */
static bool move_placed(rc_grid *grid, int32_t id, rc_aabb box, int32_t l, cell_rect r, rc_grid_move_note *note) {
    assert(!grid->journal.open); /* (a batch's journal undoes inserts and reserves alone) */
    grid_proxy *p = &grid->proxies[id];
    grid_span *span = &grid->spans[id];
    int32_t old_level = p->level;
    cell_rect old_rect = proxy_rect(grid, (uint32_t)id);
    const rc_aabb *boxed = p->is_static ? &box : NULL;
    bool changed = l != old_level || !rect_equal(r, old_rect);
    if (changed) {
        const cell_rect *keep_old = l == old_level ? &old_rect : NULL;
        const cell_rect *keep_new = l == old_level ? &r : NULL;
        if (!reserve_entries(grid, rc_grid_rect_additions(r, keep_old))) {
            return false;
        }
        rc_grid_rect_remove(&grid->store, old_level, old_rect, keep_new, (uint32_t)id, note);
        rc_grid_rect_add(&grid->store, l, r, keep_old, entry_id(grid, id), boxed, note);
        if (keep_old != NULL) {
            rc_grid_rect_refresh(&grid->store, l, r, old_rect, entry_id(grid, id), boxed);
        }
        if (l != old_level) {
            rc_grid_level_count(&grid->store, old_level, -1, p->mobile);
            rc_grid_level_count(&grid->store, l, 1, p->mobile);
            p->level = (int8_t)l;
        }
        set_proxy_rect(p, r);
    } else if (boxed != NULL) {
        rc_grid_rect_refresh(&grid->store, l, r, r, entry_id(grid, id), boxed); /* the copies of the box */
    }
    if (note != NULL) {
        note->cells_changed = changed; /* (its box before: the callers') */
    }
    grid->size_bins[size_bin(box_size(span->box))]--;
    grid->size_bins[size_bin(box_size(box))]++;
    mark_moved(grid, id);
    span->box = box;
    return true;
}

/* rc_grid_move of a live proxy (a bad box changes nothing). */
static bool move_live(rc_grid *grid, int32_t id, rc_aabb box, rc_grid_move_note *note) {
    if (!rc_aabb_is_valid(box)) {
        return false;
    }
    cell_rect r;
    int32_t l = place_of(&grid->store, box, &r);
    return move_placed(grid, id, box, l, r, note);
}

bool rc_grid_move(rc_grid *grid, int32_t id, rc_aabb box) {
    return changeable(grid) && is_live(grid, id) && move_live(grid, id, box, NULL);
}

bool rc_grid_move_trusted(rc_grid *grid, int32_t id, rc_aabb box, rc_grid_move_note *note) {
    assert(changeable(grid) && is_live(grid, id));
    note->box = grid->spans[id].box;
    note->cells_changed = false;
    return move_live(grid, id, box, note);
}

int32_t rc_grid_move_in_cells_trusted(rc_grid *grid, int32_t id, rc_aabb box, rc_grid_move_note *note) {
    assert(changeable(grid) && is_live(grid, id));
    note->box = grid->spans[id].box;
    note->cells_changed = false;
    if (!rc_aabb_is_valid(box)) {
        return 0;
    }
    int32_t l;
    cell_rect r;
    int32_t additions = additions_of_move(grid, id, box, &l, &r);
    if (additions == 0) {
        (void)move_placed(grid, id, box, l, r, note); /* (adds no entry: cannot run out of memory) */
    }
    return additions;
}

static void remove_one(rc_grid *grid, int32_t id);

bool rc_grid_remove(rc_grid *grid, int32_t id) {
    if (!changeable(grid) || !is_live(grid, id) || grid->proxies[id].prev_piece >= 0) {
        return false; /* (a proxy of pieces goes by its first piece, whole) */
    }
    for (int32_t piece = id; piece >= 0;) {
        int32_t next = grid->proxies[piece].next_piece;
        remove_one(grid, piece);
        piece = next;
    }
    return true;
}

static void remove_one(rc_grid *grid, int32_t id) {
    assert(!grid->journal.open);
    grid_proxy *p = &grid->proxies[id];
    rc_grid_rect_remove(&grid->store, p->level, proxy_rect(grid, (uint32_t)id), NULL, (uint32_t)id, NULL);
    rc_grid_level_count(&grid->store, p->level, -1, p->mobile);
    grid->size_bins[size_bin(box_size(grid->spans[id].box))]--;
    p->level = -1;
    grid->statics -= p->is_static ? 1 : 0;
    p->is_static = false;
    p->mobile = false;
    grid->followers -= p->prev_piece >= 0 ? 1 : 0;
    p->prev_piece = -1;
    p->next_piece = -1;
    grid->users[id] = grid->free_list; /* p->moved stays: the id may still be in the moved list */
    grid->free_list = id;
    grid->live--;
}

/* The setters below act on a proxy of pieces by its first piece, on every piece. */
static bool whole_proxy(const rc_grid *grid, int32_t proxy) {
    return changeable(grid) && is_live(grid, proxy) && grid->proxies[proxy].prev_piece < 0;
}

bool rc_grid_set_static(rc_grid *grid, int32_t proxy, bool is_static) {
    if (!whole_proxy(grid, proxy)) {
        return false;
    }
    for (int32_t id = proxy; id >= 0; id = grid->proxies[id].next_piece) {
        grid_proxy *p = &grid->proxies[id];
        if (p->is_static != is_static) {
            p->is_static = is_static;
            grid->statics += is_static ? 1 : -1;
            rewrite_entries(grid, id);
        }
    }
    return true;
}

bool rc_grid_touch(rc_grid *grid, int32_t proxy) {
    if (!whole_proxy(grid, proxy)) {
        return false;
    }
    for (int32_t id = proxy; id >= 0; id = grid->proxies[id].next_piece) {
        mark_new(grid, id);
    }
    return true;
}

bool rc_grid_set_mobile(rc_grid *grid, int32_t proxy, bool mobile) {
    if (!whole_proxy(grid, proxy)) {
        return false;
    }
    for (int32_t id = proxy; id >= 0; id = grid->proxies[id].next_piece) {
        grid_proxy *p = &grid->proxies[id];
        if (p->mobile != mobile) {
            rc_grid_level_count(&grid->store, p->level, -1, p->mobile);
            p->mobile = mobile;
            rc_grid_level_count(&grid->store, p->level, 1, p->mobile);
            rewrite_entries(grid, id);
        }
    }
    return true;
}

bool rc_grid_is_proxy(const rc_grid *grid, int32_t proxy) { return is_live(grid, proxy); }

rc_aabb rc_grid_get_box(const rc_grid *grid, int32_t proxy) {
    if (!is_live(grid, proxy)) {
        rc_aabb zero = {{0.0f, 0.0f}, {0.0f, 0.0f}};
        return zero;
    }
    return grid->spans[proxy].box;
}

bool rc_grid_proxies_overlap(const rc_grid *grid, int32_t a, int32_t b) {
    /* (each id checked once: the narrow phase asks this of every contact of every step, and
       checking each twice cost the tumbler a fiftieth of its instructions) */
    bool live_a = is_live(grid, a), live_b = is_live(grid, b);
    if (live_a && live_b && grid->proxies[a].next_piece < 0 && grid->proxies[b].next_piece < 0) {
        return box_overlaps(grid->spans[a].box, grid->spans[b].box);
    }
    rc_aabb zero = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    if (live_a && live_b) {
        if (grid->proxies[a].next_piece >= 0) { /* (pieces of a against all of b) */
            int32_t t = a;
            a = b;
            b = t;
        }
        for (int32_t piece = a; piece >= 0; piece = grid->proxies[piece].next_piece) {
            if (rc_grid_proxy_overlaps_box(grid, b, grid->spans[piece].box)) {
                return true;
            }
        }
        return false;
    }
    return box_overlaps(live_a ? grid->spans[a].box : zero, live_b ? grid->spans[b].box : zero);
}

bool rc_grid_proxies_overlap_trusted(const rc_grid *grid, int32_t a, int32_t b) {
    assert(is_live(grid, a) && is_live(grid, b) && grid->proxies[a].next_piece < 0 && grid->proxies[a].prev_piece < 0 &&
           grid->proxies[b].next_piece < 0 && grid->proxies[b].prev_piece < 0);
    return box_overlaps(grid->spans[a].box, grid->spans[b].box);
}

int32_t rc_grid_get_user(const rc_grid *grid, int32_t proxy) { return is_live(grid, proxy) ? grid->users[proxy] : -1; }

int32_t rc_grid_proxy_count(const rc_grid *grid) { return grid != NULL ? grid->live - grid->followers : 0; }

int32_t rc_grid_moved_count(const rc_grid *grid) { return grid != NULL ? grid->moved_count : 0; }

int32_t rc_grid_moved_proxy(const rc_grid *grid, int32_t k) {
    if (grid == NULL || k < 0 || k >= grid->moved_count) {
        return -1;
    }
    int32_t id = grid->moved[k];
    return is_live(grid, id) ? id : -1;
}

bool rc_grid_mark_moved(rc_grid *grid, int32_t proxy) {
    if (!changeable(grid) || !is_live(grid, proxy)) {
        return false;
    }
    mark_moved(grid, proxy);
    return true;
}

bool rc_grid_may_offer(const rc_grid *grid, bool skip_mobile) {
    return (skip_mobile ? grid->store.fixed_levels : grid->store.used_levels) != 0;
}

float rc_grid_cell_size(const rc_grid *grid) { return grid != NULL ? grid->store.base_size : 0.0f; }

/* ---- inspection ----------------------------------------------------------------------------- */

static bool count_entries(const grid_cell *cell, void *context) {
    *(int32_t *)context += (int32_t)cell_count(cell);
    return true;
}

rc_grid_stats rc_grid_get_stats(const rc_grid *grid) {
    rc_grid_stats st;
    memset(&st, 0, sizeof st);
    if (grid == NULL) {
        return st;
    }
    const grid_store *s = &grid->store;
    st.proxies = grid->live - grid->followers;
    st.rebuilds = grid->rebuilds;
    st.cells = s->cells;
    st.levels_in_use = __builtin_popcountll(s->used_levels);
    st.bytes = sizeof *grid + (size_t)grid->capacity * (sizeof(grid_span) + sizeof(grid_proxy) + 2 * sizeof(int32_t)) +
               (size_t)s->capacity * sizeof(grid_slot) + (size_t)s->record_capacity * sizeof(grid_cell) +
               (size_t)s->chunk_capacity * sizeof(grid_chunk);
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        st.bytes += rc_grid_window_bytes(&s->levels[l].window);
        rc_grid_visit_level(s, l, count_entries, &st.entries);
    }
    return st;
}

typedef struct cell_report {
    const grid_store *store;
    rc_grid_cell_fn *fn;
    void *context;
} cell_report;

/* A cell's edge at index i of a level of cells `size` wide, held within float range (the top
 * level's one cell is infinite: 0 x infinity was a NaN box, drawn as NaN segments). */
static float cell_edge(int64_t i, float size) {
    if (isinf(size)) {
        return i <= 0 ? -FLT_MAX : FLT_MAX;
    }
    double edge = (double)i * (double)size;
    return (float)(edge < -FLT_MAX ? -FLT_MAX : edge > FLT_MAX ? FLT_MAX : edge);
}

static bool report_cell(const grid_cell *c, void *context) {
    const cell_report *r = context;
    float size = r->store->levels[cell_level(c)].size;
    rc_aabb box = {{cell_edge(c->x, size), cell_edge(c->y, size)},
                   {cell_edge((int64_t)c->x + 1, size), cell_edge((int64_t)c->y + 1, size)}};
    r->fn(cell_level(c), box, (int32_t)cell_count(c), r->context);
    return true;
}

void rc_grid_for_each_cell(const rc_grid *grid, rc_grid_cell_fn *fn, void *context) {
    if (grid == NULL || fn == NULL) {
        return;
    }
    cell_report r = {&grid->store, fn, context};
    lock(grid);
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        rc_grid_visit_level(&grid->store, __builtin_ctzll(used), report_cell, &r);
    }
    unlock(grid);
}
