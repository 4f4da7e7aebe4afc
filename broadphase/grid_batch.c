/* Batches (broadphase.h: rc_grid_begin_batch): inserts and reserves that are undone whole when
 * one of them fails. Removing what a failed change inserted does not leave the grid as it was:
 * the proxy slots' high mark and free list, the moved list, the records' and chunks' high marks
 * and free lists, the hash table's capacity and slots, the size checks and the rebuilds they
 * set off are all state (a snapshot holds them, later ids and answers follow from them). So an
 * open batch notes each insert, each table a growth replaced and each store a rebuild (or the
 * first guess at an automatic cell size) replaced, keeping what was replaced, and an abort takes
 * the inserts back in the reverse order, each exactly (rc_grid_cell_pop: the last entry of each
 * of its cells, the chunks and records it took back where they came from), puts the kept tables
 * and stores back in their turn, and the counts the inserts moved on. The changes themselves
 * are the ones made outside a batch, with the same memory: a batch that succeeds gives the grid
 * the same calls give without one, and holds on to the replaced tables and stores until it ends
 * (a rebuild's old store is given back at the batch's end instead of at once). */
#include "broadphase/grid_internal.h"

#include <assert.h>

bool rc_grid_begin_batch(rc_grid *grid, int32_t inserts) {
    if (!changeable(grid) || grid->journal.open || inserts < 0) {
        return false;
    }
    grid_journal *j = &grid->journal;
    j->undo = j->inline_undo;
    j->capacity = JOURNAL_INLINE;
    j->count = 0;
    /* an entry an insert, and a few for the tables that grow (rc_grid_journal_reserve grows it) */
    j->open = true;
    if (!rc_grid_journal_reserve(grid, inserts + 8)) {
        j->open = false;
        return false;
    }
    j->stores = NULL;
    j->store_count = j->store_capacity = 0;
    j->record_mark = (uint32_t)grid->store.record_high;
    j->chunk_mark = (uint32_t)grid->store.chunk_high;
    j->high = grid->high;
    j->moved_count = grid->moved_count;
    j->next_size_check = grid->next_size_check;
    j->rebuilds = grid->rebuilds;
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        j->bounds[l] = grid->store.levels[l].bounds;
    }
    return true;
}

bool rc_grid_journal_reserve(rc_grid *grid, int32_t n) {
    grid_journal *j = &grid->journal;
    if (!j->open || j->count + (int64_t)n <= j->capacity) {
        return true;
    }
    if (j->count + (int64_t)n > INT32_MAX / 2) {
        return false;
    }
    if (j->undo != j->inline_undo) {
        return rc_mem_reserve(&grid->allocator, (void **)&j->undo, &j->capacity, j->count, j->count + n,
                              sizeof(grid_undo));
    }
    grid_undo *undo = NULL;
    int32_t capacity = 0;
    if (!rc_mem_reserve(&grid->allocator, (void **)&undo, &capacity, 0, j->count + n, sizeof(grid_undo))) {
        return false;
    }
    memcpy(undo, j->undo, sizeof(grid_undo) * (size_t)j->count);
    j->undo = undo;
    j->capacity = capacity;
    return true;
}

bool rc_grid_journal_reserve_store(rc_grid *grid) {
    grid_journal *j = &grid->journal;
    return !j->open || (rc_grid_journal_reserve(grid, 1) &&
                        rc_mem_reserve(&grid->allocator, (void **)&j->stores, &j->store_capacity, j->store_count,
                                       j->store_count + 1, sizeof(grid_kept_store)));
}

static void note(grid_journal *j, grid_undo u) {
    assert(j->count < j->capacity);
    j->undo[j->count++] = u;
}

void rc_grid_journal_insert(rc_grid *grid, int32_t id) {
    if (grid->journal.open) {
        grid_undo u = {UNDO_INSERT, id, {NULL, 0, false}};
        note(&grid->journal, u);
    }
}

void rc_grid_journal_table(rc_grid *grid, grid_table kept) {
    grid_undo u = {UNDO_TABLE, -1, kept};
    note(&grid->journal, u);
}

void rc_grid_journal_store(rc_grid *grid, const grid_store *replaced) {
    grid_journal *j = &grid->journal;
    assert(j->store_count < j->store_capacity);
    grid_kept_store *k = &j->stores[j->store_count];
    k->store = *replaced;
    k->record_mark = j->record_mark;
    k->chunk_mark = j->chunk_mark;
    grid_undo u = {UNDO_STORE, j->store_count++, {NULL, 0, false}};
    note(j, u);
    j->record_mark = (uint32_t)grid->store.record_high;
    j->chunk_mark = (uint32_t)grid->store.chunk_high;
}

/* Give back the journal's own memory: the batch ends either way. */
static void close_journal(rc_grid *grid) {
    grid_journal *j = &grid->journal;
    const rc_allocator *a = &grid->allocator;
    if (j->undo != j->inline_undo) {
        rc_mem_free(a, j->undo, sizeof(grid_undo) * (size_t)j->capacity);
    }
    rc_mem_free(a, j->stores, sizeof(grid_kept_store) * (size_t)j->store_capacity);
    j->undo = NULL;
    j->stores = NULL;
    j->open = false;
}

void rc_grid_end_batch(rc_grid *grid) {
    if (grid == NULL || !grid->journal.open) {
        return;
    }
    const grid_journal *j = &grid->journal;
    const rc_allocator *a = &grid->allocator;
    for (int32_t k = 0; k < j->count; ++k) {
        if (j->undo[k].kind == UNDO_TABLE) {
            rc_mem_free(a, j->undo[k].table.slots, sizeof(grid_slot) * j->undo[k].table.capacity);
        }
    }
    for (int32_t k = 0; k < j->store_count; ++k) {
        rc_grid_store_free(a, &j->stores[k].store);
    }
    close_journal(grid);
}

/* Take back insert `id`, the last one not yet taken back: its entries (the last of each of its
 * cells, in the reverse order of rc_grid_rect_add's), its counts, and its slot (to the high mark
 * when it came from there, else to the free list's head, whose link it held). */
static void undo_insert(rc_grid *grid, int32_t id) {
    const grid_journal *j = &grid->journal;
    grid_proxy *p = &grid->proxies[id];
    cell_rect r = proxy_rect(grid, (uint32_t)id);
    for (int32_t y = r.hy; y >= r.ly; --y) {
        for (int32_t x = r.hx; x >= r.lx; --x) {
            rc_grid_cell_pop(&grid->store, p->level, x, y, j->record_mark, j->chunk_mark);
        }
    }
    rc_grid_level_count(&grid->store, p->level, -1, p->mobile);
    grid->size_bins[size_bin(box_size(grid->spans[id].box))]--;
    grid->live--;
    grid->statics -= p->is_static ? 1 : 0;
    grid->followers -= p->prev_piece >= 0 ? 1 : 0;
    if (grid->moved_count > j->moved_count && grid->moved[grid->moved_count - 1] == id) {
        grid->moved_count--; /* (listed by the insert: a slot listed before stays listed) */
        p->moved = false;
    }
    p->level = -1;
    p->is_static = false;
    p->mobile = false;
    p->prev_piece = -1;
    p->next_piece = -1;
    if (id >= j->high) {
        grid->high--; /* (id is high - 1) */
    } else {
        grid->users[id] = grid->free_list;
        grid->free_list = id;
    }
}

/* The store a rebuild (or a first guess at the cell size) replaced put back, every live proxy's
 * cells as that store places them (as they were: the inserts since have been taken back). */
static void undo_store(rc_grid *grid, int32_t k) {
    grid_journal *j = &grid->journal;
    rc_grid_store_free(&grid->allocator, &grid->store);
    grid->store = j->stores[k].store;
    j->record_mark = j->stores[k].record_mark;
    j->chunk_mark = j->stores[k].chunk_mark;
    for (int32_t id = 0; id < grid->high; ++id) {
        grid_proxy *p = &grid->proxies[id];
        if (p->level >= 0) {
            cell_rect r;
            p->level = (int8_t)place_of(&grid->store, grid->spans[id].box, &r);
            p->lx = r.lx;
            p->ly = r.ly;
            p->wide = (uint8_t)((r.hx > r.lx ? 1 : 0) | (r.hy > r.ly ? 2 : 0));
        }
    }
}

void rc_grid_abort_batch(rc_grid *grid) {
    if (grid == NULL || !grid->journal.open) {
        return;
    }
    const grid_journal *j = &grid->journal;
    for (int32_t k = j->count - 1; k >= 0; --k) {
        const grid_undo *u = &j->undo[k];
        if (u->kind == UNDO_INSERT) {
            undo_insert(grid, u->id);
        } else if (u->kind == UNDO_TABLE) { /* the cells hashed since are gone: the old slots hold the rest */
            rc_mem_free(&grid->allocator, grid->store.table, sizeof(grid_slot) * grid->store.capacity);
            grid->store.table = u->table.slots;
            grid->store.capacity = u->table.capacity;
        } else {
            undo_store(grid, u->id);
        }
    }
    grid->next_size_check = j->next_size_check;
    grid->rebuilds = j->rebuilds;
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        grid->store.levels[l].bounds = j->bounds[l];
    }
    close_journal(grid);
}
