/* Undoable moves (broadphase.h: rc_grid_open_undo): the world's step moves proxies and may then
 * run out of memory, and a step that fails must leave the grid as it found it, every byte
 * rc_grid_save writes (the order of a cell's entries, the free lists of records and chunks, the
 * hash table's slots): the ids and answers that follow come from them. A move back by the box
 * alone (as rc_grid_move) put the proxy's entry last in each cell it had left, and a record or
 * chunk back on a free list that had come from the high mark. So each move notes what it did to
 * the cells (rc_grid_move_note): where its entry was in each cell it left, and where each cell
 * and chunk it took came from; rc_grid_move_back reverses it, the moves in the reverse order.
 * What the notes do not say is kept from the open: the levels' bounds (grown as cells open), the
 * table's changes if it held any cell (a hashed cell closed and opened again may probe to another
 * slot), and the table itself if a growth replaced it. */
#include "broadphase/grid_internal.h"

#include <assert.h>

/* The log's room: for a step's changes of the table (twice what ran it out, once it did), and a
 * copy of the whole table for when it runs out all the same. False when memory runs out. */
static bool reserve_log(rc_grid *grid) {
    grid_table_log *log = &grid->undo.log;
    const rc_allocator *a = &grid->allocator;
    int32_t capacity = log->capacity == 0 ? 64 : (log->copied ? 2 * log->capacity : log->capacity);
    if (capacity > log->capacity) {
        grid_slot_change *changes = rc_mem_alloc(a, sizeof(grid_slot_change) * (size_t)capacity);
        if (changes == NULL) {
            return false;
        }
        rc_mem_free(a, log->changes, sizeof(grid_slot_change) * (size_t)log->capacity);
        log->changes = changes;
        log->capacity = capacity;
    }
    if (log->copy_capacity < grid->store.capacity) {
        grid_slot *copy = rc_mem_alloc(a, sizeof(grid_slot) * grid->store.capacity);
        if (copy == NULL) {
            return false;
        }
        rc_mem_free(a, log->copy, sizeof(grid_slot) * log->copy_capacity);
        log->copy = copy;
        log->copy_capacity = grid->store.capacity;
    }
    log->count = 0;
    log->copied = false;
    return true;
}

bool rc_grid_open_undo(rc_grid *grid) {
    grid_undo_state *u = &grid->undo;
    grid_store *s = &grid->store;
    assert(!u->open && !grid->journal.open);
    /* a table that holds no cell holds none again once the moves are taken back; one that does
       may have its cells in other slots (a cell closed and opened again probes afresh): its
       changes are logged (most steps change a few slots, and a copy of a table of thousands at
       every step cost a tumbler 2% of its instructions) */
    u->table_held_cells = s->hashed > 0;
    if (u->table_held_cells) {
        if (!reserve_log(grid)) {
            return false;
        }
        s->table_log = &u->log;
    }
    memset(&u->kept, 0, sizeof u->kept);
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        u->bounds[l] = s->levels[l].bounds;
    }
    u->open = true;
    return true;
}

void rc_grid_undo_keep_table(rc_grid *grid, grid_table kept) {
    grid_undo_state *u = &grid->undo;
    if (u->open && !u->kept.replaced) {
        u->kept = kept; /* the table the open found */
    } else {
        rc_mem_free(&grid->allocator, kept.slots, sizeof(grid_slot) * kept.capacity);
    }
}

void rc_grid_undo_free_log(rc_grid *grid) {
    grid_table_log *log = &grid->undo.log;
    rc_mem_free(&grid->allocator, log->changes, sizeof(grid_slot_change) * (size_t)log->capacity);
    rc_mem_free(&grid->allocator, log->copy, sizeof(grid_slot) * log->copy_capacity);
    memset(log, 0, sizeof *log);
}

void rc_grid_move_back(rc_grid *grid, int32_t id, const rc_grid_move_note *note) {
    grid_store *s = &grid->store;
    grid_proxy *p = &grid->proxies[id];
    grid_span *span = &grid->spans[id];
    const rc_aabb *boxed = p->is_static ? &note->box : NULL;
    int32_t level = p->level;
    cell_rect rect = proxy_rect(grid, (uint32_t)id);
    if (note->cells_changed) {
        cell_rect old_rect;
        int32_t old_level = place_of(s, note->box, &old_rect); /* (the cell sizes have not changed) */
        const cell_rect *keep_old = level == old_level ? &old_rect : NULL;
        const cell_rect *keep_new = level == old_level ? &rect : NULL;
        if (level != old_level) {
            rc_grid_level_count(s, level, -1, p->mobile);
            rc_grid_level_count(s, old_level, 1, p->mobile);
            p->level = (int8_t)old_level;
        }
        set_proxy_rect(p, old_rect);
        if (keep_old != NULL) {
            rc_grid_rect_refresh(s, old_level, old_rect, rect, entry_id(grid, id), boxed);
        }
        /* the cells it entered, each its entry last, in the reverse of rc_grid_rect_add's order */
        int32_t k = (int32_t)rc_grid_rect_additions(rect, keep_old);
        for (int32_t y = rect.hy; y >= rect.ly; --y) {
            for (int32_t x = rect.hx; x >= rect.lx; --x) {
                if (keep_old == NULL || !rect_contains(*keep_old, x, y)) {
                    --k;
                    uint32_t record_mark = note->from_high >> (2 * k) & 1u ? 0u : NONE;
                    uint32_t chunk_mark = note->from_high >> (2 * k + 1) & 1u ? 0u : NONE;
                    rc_grid_cell_pop(s, level, x, y, record_mark, chunk_mark);
                }
            }
        }
        /* the cells it left, its entry back where it was, in the reverse of rc_grid_rect_remove's */
        k = (int32_t)rc_grid_rect_additions(old_rect, keep_new);
        for (int32_t y = old_rect.hy; y >= old_rect.ly; --y) {
            for (int32_t x = old_rect.hx; x >= old_rect.lx; --x) {
                if (keep_new == NULL || !rect_contains(*keep_new, x, y)) {
                    --k;
                    uint16_t q[4];
                    uint32_t entry = rc_grid_make_entry(s, old_level, entry_id(grid, id), old_rect, boxed, x, y, q);
                    rc_grid_cell_put_back(s, old_level, x, y, entry, q, note->hole_chunk[k], note->hole_slot[k]);
                }
            }
        }
    } else if (boxed != NULL) {
        rc_grid_rect_refresh(s, level, rect, rect, entry_id(grid, id), boxed);
    }
    grid->size_bins[size_bin(box_size(span->box))]--;
    grid->size_bins[size_bin(box_size(note->box))]++;
    span->box = note->box;
}

void rc_grid_close_undo(rc_grid *grid, bool undone) {
    grid_undo_state *u = &grid->undo;
    if (!u->open) {
        return;
    }
    grid_store *s = &grid->store;
    grid_table_log *log = &u->log;
    if (undone) {
        if (u->kept.replaced) { /* (its slots as they were when it was replaced, when it was logged) */
            rc_mem_free(&grid->allocator, s->table, sizeof(grid_slot) * s->capacity);
            s->table = u->kept.slots;
            s->capacity = u->kept.capacity;
            u->kept.replaced = false;
            if (!u->table_held_cells && s->table != NULL) {
                memset(s->table, 0, sizeof(grid_slot) * s->capacity); /* (cells hashed since are gone) */
            }
        }
        if (u->table_held_cells) {
            if (log->copied) {
                memcpy(s->table, log->copy, sizeof(grid_slot) * s->capacity);
            }
            for (int32_t k = log->count - 1; k >= 0; --k) {
                s->table[log->changes[k].at] = log->changes[k].was;
            }
        }
        for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
            s->levels[l].bounds = u->bounds[l];
        }
    } else if (u->kept.replaced) {
        rc_mem_free(&grid->allocator, u->kept.slots, sizeof(grid_slot) * u->kept.capacity);
        u->kept.replaced = false;
    }
    s->table_log = NULL;
    u->open = false;
}
