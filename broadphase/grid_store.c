/* The grid's cell store: cells in dense windows and a hash table, their entries inline and in
 * chunks, and the per-level counts. See grid.c for the layout. */
#include "broadphase/grid_internal.h"

/* ---- cell store ----------------------------------------------------------------------------- */

void rc_grid_store_init(grid_store *s, float base_size) {
    memset(s, 0, sizeof *s);
    s->base_size = base_size;
    float size = base_size;
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        /* the top level is one infinite cell: the home of boxes too large for any other */
        s->levels[l].size = l + 1 < LEVEL_COUNT ? size : INFINITY;
        s->levels[l].inv = 1.0f / s->levels[l].size; /* 0 for infinite cells: all in cell (0, 0) */
        size *= 2.0f;
    }
    s->free_chunk = NONE;
    s->free_record = NONE;
}

size_t rc_grid_window_bytes(const grid_window *w) { return sizeof(uint32_t) * (size_t)w->w * (size_t)w->h; }

void rc_grid_store_free(const rc_allocator *a, grid_store *s) {
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        rc_mem_free(a, s->levels[l].window.slots, rc_grid_window_bytes(&s->levels[l].window));
    }
    rc_mem_free(a, s->table, sizeof(grid_slot) * s->capacity);
    rc_mem_free(a, s->records, sizeof(grid_cell) * (size_t)s->record_capacity);
    rc_mem_free(a, s->chunks, sizeof(grid_chunk) * (size_t)s->chunk_capacity);
    rc_grid_store_init(s, s->base_size);
}

/* The records and chunks arrays with room for `additions` more of each (room is not state). */
static bool reserve_cells(const rc_allocator *a, grid_store *s, int64_t additions) {
    if ((int64_t)s->free_records + (s->record_capacity - s->record_high) < additions &&
        !rc_mem_reserve(a, (void **)&s->records, &s->record_capacity, s->record_high,
                        s->record_high + (int32_t)additions - s->free_records, sizeof(grid_cell))) {
        return false;
    }
    if ((int64_t)s->free_chunks + (s->chunk_capacity - s->chunk_high) < additions &&
        !rc_mem_reserve(a, (void **)&s->chunks, &s->chunk_capacity, s->chunk_high,
                        s->chunk_high + (int32_t)additions - s->free_chunks, sizeof(grid_chunk))) {
        return false;
    }
    return true;
}

/* Room for `additions` more proxy-in-cell entries, of which `hashed` may fall outside the
 * windows: each may open a cell (a record, and a table slot if hashed) and take a chunk. A larger
 * table is had first and put in place last: its capacity and slots are state (a snapshot holds
 * them), the arrays' room is not, so a reserve that fails changes nothing. */
bool rc_grid_store_reserve_split(const rc_allocator *a, grid_store *s, int64_t additions, int64_t hashed,
                                 grid_table *kept) {
    if (kept != NULL) {
        kept->replaced = false;
    }
    if (additions > INT32_MAX / 4) {
        return false;
    }
    uint64_t needed = 2u * ((uint64_t)s->hashed + (uint64_t)hashed), capacity = 0;
    grid_slot *table = NULL;
    if (hashed > 0 && needed > s->capacity) {
        capacity = s->capacity ? s->capacity : 64;
        while (capacity < needed) {
            capacity *= 2;
        }
        if (capacity > (1u << 30)) {
            return false;
        }
        table = rc_mem_alloc(a, sizeof(grid_slot) * capacity);
        if (table == NULL) {
            return false;
        }
    }
    if (!reserve_cells(a, s, additions)) {
        rc_mem_free(a, table, sizeof(grid_slot) * capacity);
        return false;
    }
    if (table == NULL) {
        return true;
    }
    memset(table, 0, sizeof(grid_slot) * capacity);
    uint32_t mask = (uint32_t)capacity - 1;
    for (uint32_t i = 0; i < s->capacity; ++i) {
        const grid_slot *t = &s->table[i];
        if (t->level == 0) {
            continue;
        }
        uint32_t j = cell_hash((int32_t)t->level - 1, t->x, t->y) & mask;
        while (table[j].level != 0) {
            j = (j + 1) & mask;
        }
        table[j] = *t;
    }
    if (kept != NULL) {
        grid_table old = {s->table, s->capacity, true};
        *kept = old;
    } else {
        rc_mem_free(a, s->table, sizeof(grid_slot) * s->capacity);
    }
    s->table = table;
    s->capacity = (uint32_t)capacity;
    s->table_log = NULL; /* (open undoable moves keep the replaced table whole: kept) */
    return true;
}

/* The same when any of them may fall outside the windows. */
bool rc_grid_store_reserve(const rc_allocator *a, grid_store *s, int64_t additions) {
    return rc_grid_store_reserve_split(a, s, additions, additions, NULL);
}

static uint32_t chunk_take(grid_store *s) {
    uint32_t c = s->free_chunk;
    if (c != NONE) {
        s->free_chunk = s->chunks[c].next;
        s->free_chunks--;
        return c;
    }
    return (uint32_t)s->chunk_high++;
}

static void chunk_give(grid_store *s, uint32_t c) {
    s->chunks[c].next = s->free_chunk;
    s->free_chunk = c;
    s->free_chunks++;
}

static uint32_t record_take(grid_store *s) {
    uint32_t r = s->free_record;
    if (r != NONE) {
        s->free_record = s->records[r].chunk;
        s->free_records--;
        return r;
    }
    return (uint32_t)s->record_high++;
}

static void record_give(grid_store *s, uint32_t r) {
    s->records[r].meta = 0;
    s->records[r].chunk = s->free_record;
    s->free_record = r;
    s->free_records++;
}

/* A level's bounds (grid_level) made to hold cell (x, y): that cell alone when it is the first. */
static void bound_cell(cell_rect *b, bool first, int32_t x, int32_t y) {
    if (first) {
        *b = (cell_rect){x, y, x, y};
        return;
    }
    b->lx = x < b->lx ? x : b->lx;
    b->ly = y < b->ly ? y : b->ly;
    b->hx = x > b->hx ? x : b->hx;
    b->hy = y > b->hy ? y : b->hy;
}

/* The cell (level, x, y), opened if it is not occupied yet; the room was reserved. */
/* Table slot `at` about to change while undoable moves are open: as it was, logged (grid_undo.c). */
static inline void log_slot(grid_store *s, uint32_t at) {
    grid_table_log *log = s->table_log;
    if (log == NULL || log->copied) {
        return;
    }
    if (log->count < log->capacity) {
        grid_slot_change c = {at, s->table[at]};
        log->changes[log->count++] = c;
    } else {
        memcpy(log->copy, s->table, sizeof(grid_slot) * s->capacity);
        log->copied = true;
    }
}

grid_cell *rc_grid_cell_open(grid_store *s, int32_t level, int32_t x, int32_t y) {
    grid_level *lv = &s->levels[level];
    uint32_t slot = window_slot(&lv->window, x, y);
    grid_cell *c;
    if (slot != NONE) {
        uint32_t r = lv->window.slots[slot];
        if (r != 0) {
            return &s->records[r - 1];
        }
        r = record_take(s);
        lv->window.slots[slot] = r + 1;
        c = &s->records[r];
    } else {
        uint32_t i = lv->hashed > 0 ? find_hashed(s, level, x, y) : NONE;
        if (i != NONE) {
            return &s->records[s->table[i].record];
        }
        uint32_t mask = s->capacity - 1;
        i = cell_hash(level, x, y) & mask;
        while (s->table[i].level != 0) {
            i = (i + 1) & mask;
        }
        log_slot(s, i);
        uint32_t r = record_take(s);
        s->table[i].x = x;
        s->table[i].y = y;
        s->table[i].level = (uint32_t)level + 1u;
        s->table[i].record = r;
        c = &s->records[r];
        s->hashed++;
        lv->hashed++;
    }
    c->x = x;
    c->y = y;
    c->meta = (uint32_t)level;
    c->chunk = NONE;
    bound_cell(&lv->bounds, lv->cells == 0, x, y);
    s->cells++;
    lv->cells++;
    return c;
}

void rc_grid_store_bound_levels(grid_store *s) {
    int32_t seen[LEVEL_COUNT] = {0};
    for (int32_t i = 0; i < s->record_high; ++i) {
        const grid_cell *c = &s->records[i];
        if (c->meta == 0) {
            continue;
        }
        int32_t l = cell_level(c);
        bound_cell(&s->levels[l].bounds, seen[l]++ == 0, c->x, c->y);
    }
}

/* Add an entry (with its neighbour and boxed bits) and its quantised box. */
static void cell_add(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry, const uint16_t q[4]) {
    grid_cell *c = rc_grid_cell_open(s, level, x, y);
    uint32_t count = cell_count(c);
    uint32_t *slot;
    uint16_t *box;
    if (count < INLINE_ENTRIES) {
        slot = &c->entries[count];
        box = c->boxes[count];
    } else if (count == INLINE_ENTRIES || head_fill(count) == CHUNK_ENTRIES) {
        uint32_t k = chunk_take(s);
        s->chunks[k].next = c->chunk;
        c->chunk = k;
        slot = &s->chunks[k].entries[0];
        box = s->chunks[k].boxes[0];
    } else {
        slot = &s->chunks[c->chunk].entries[head_fill(count)];
        box = s->chunks[c->chunk].boxes[head_fill(count)];
    }
    *slot = entry;
    memcpy(box, q, sizeof(uint16_t) * 4);
    c->meta += 1u << 6;
}

static void table_delete(grid_store *s, uint32_t slot) {
    uint32_t mask = s->capacity - 1;
    uint32_t hole = slot;
    log_slot(s, hole);
    s->table[hole].level = 0;
    uint32_t j = hole;
    for (;;) {
        j = (j + 1) & mask;
        grid_slot *t = &s->table[j];
        if (t->level == 0) {
            break;
        }
        uint32_t home = cell_hash((int32_t)t->level - 1, t->x, t->y) & mask;
        /* the slot at j may stay only if its home lies cyclically in (hole, j] */
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            log_slot(s, j);
            s->table[hole] = *t;
            t->level = 0;
            hole = j;
        }
    }
}

/* Drop cell c's last entry (c is record r, at window slot `slot` or hash slot `table_slot` of
 * its level): the head chunk it emptied and, when it was the cell's only entry, the record and
 * its slot go. A chunk or record at or above the marks goes back to the high mark (undoing a
 * journal's batch: it was the last taken from there), any other to its free list. */
static void cell_drop_last(grid_store *s, grid_level *lv, grid_cell *c, uint32_t r, uint32_t slot,
                           uint32_t table_slot, uint32_t record_mark, uint32_t chunk_mark) {
    uint32_t count = cell_count(c);
    if (count > INLINE_ENTRIES && head_fill(count) == 1) { /* its chunk held it alone */
        uint32_t k = c->chunk;
        c->chunk = s->chunks[k].next;
        if (k >= chunk_mark) {
            s->chunk_high--; /* (the last taken from there: k is chunk_high - 1) */
        } else {
            chunk_give(s, k);
        }
    }
    c->meta -= 1u << 6;
    if (count > 1) {
        return;
    }
    s->cells--;
    lv->cells--;
    if (slot != NONE) {
        lv->window.slots[slot] = 0;
    } else {
        s->hashed--;
        lv->hashed--;
        table_delete(s, table_slot); /* (popped, the cells after it in its run were there before it) */
    }
    if (r >= record_mark) {
        s->record_high--;
    } else {
        record_give(s, r);
    }
}

/* Where a cell's last entry (count >= 1) and its quantised box are. */
static void cell_last(grid_store *s, grid_cell *c, uint32_t **entry, uint16_t **box) {
    uint32_t count = cell_count(c);
    if (count <= INLINE_ENTRIES) {
        *entry = &c->entries[count - 1];
        *box = c->boxes[count - 1];
    } else {
        *entry = &s->chunks[c->chunk].entries[head_fill(count) - 1];
        *box = s->chunks[c->chunk].boxes[head_fill(count) - 1];
    }
}

/* Remove proxy `entry` (an id) from a cell; *hole_chunk and *hole_slot (when not NULL) get where
 * it was (the chunk, NONE for the cell's own entries, and the slot there). */
static void cell_remove(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry, uint32_t *hole_chunk,
                        uint8_t *hole_slot) {
    grid_level *lv = &s->levels[level];
    uint32_t slot = window_slot(&lv->window, x, y);
    uint32_t table_slot = NONE, r;
    if (slot != NONE) {
        if (lv->window.slots[slot] == 0) {
            return;
        }
        r = lv->window.slots[slot] - 1;
    } else {
        table_slot = find_hashed(s, level, x, y);
        if (table_slot == NONE) {
            return;
        }
        r = s->table[table_slot].record;
    }
    grid_cell *c = &s->records[r];
    uint32_t count = cell_count(c);
    /* the last entry fills the hole */
    uint32_t *last, *hole = NULL;
    uint16_t *last_box, *hole_box = NULL;
    cell_last(s, c, &last, &last_box);
    uint32_t at_chunk = NONE, at_slot = 0;
    for (uint32_t i = 0; i < count && i < INLINE_ENTRIES && hole == NULL; ++i) {
        if ((c->entries[i] & ENTRY_ID_MASK) == entry) {
            hole = &c->entries[i];
            hole_box = c->boxes[i];
            at_slot = i;
        }
    }
    for (uint32_t k = c->chunk, n = count > INLINE_ENTRIES ? head_fill(count) : 0; k != NONE && hole == NULL;
         k = s->chunks[k].next, n = CHUNK_ENTRIES) {
        for (uint32_t i = 0; i < n; ++i) {
            if ((s->chunks[k].entries[i] & ENTRY_ID_MASK) == entry) {
                hole = &s->chunks[k].entries[i];
                hole_box = s->chunks[k].boxes[i];
                at_chunk = k;
                at_slot = i;
                break;
            }
        }
    }
    if (hole == NULL) {
        return;
    }
    if (hole_chunk != NULL) {
        *hole_chunk = at_chunk;
        *hole_slot = (uint8_t)at_slot;
    }
    *hole = *last;
    memmove(hole_box, last_box, sizeof(uint16_t) * 4);
    cell_drop_last(s, lv, c, r, slot, table_slot, NONE, NONE);
}

void rc_grid_cell_pop(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t record_mark, uint32_t chunk_mark) {
    grid_level *lv = &s->levels[level];
    uint32_t slot = window_slot(&lv->window, x, y), table_slot = NONE, r;
    if (slot != NONE) {
        r = lv->window.slots[slot] - 1;
    } else {
        table_slot = find_hashed(s, level, x, y);
        r = s->table[table_slot].record;
    }
    cell_drop_last(s, lv, &s->records[r], r, slot, table_slot, record_mark, chunk_mark);
}

void rc_grid_rect_add(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t id, const rc_aabb *box,
                      rc_grid_move_note *note) {
    uint32_t k = 0;
    if (note != NULL) {
        note->from_high = 0;
    }
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                uint16_t q[4];
                uint32_t entry = rc_grid_make_entry(s, level, id, r, box, x, y, q);
                int32_t record_high = s->record_high, chunk_high = s->chunk_high;
                cell_add(s, level, x, y, entry, q);
                if (note != NULL) { /* (where the cell's record and the entry's chunk came from) */
                    uint32_t from_high = (s->record_high != record_high ? 1u : 0u) | (s->chunk_high != chunk_high ? 2u : 0u);
                    note->from_high = (uint8_t)(note->from_high | from_high << (2 * k++));
                }
            }
        }
    }
}

void rc_grid_cell_put_back(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry, const uint16_t q[4],
                           uint32_t hole_chunk, uint32_t hole_slot) {
    cell_add(s, level, x, y, entry, q);
    grid_cell *c = (grid_cell *)cell_lookup(s, level, x, y);
    uint32_t *last;
    uint16_t *last_box;
    cell_last(s, c, &last, &last_box);
    uint32_t *hole = hole_chunk == NONE ? &c->entries[hole_slot] : &s->chunks[hole_chunk].entries[hole_slot];
    uint16_t *hole_box = hole_chunk == NONE ? c->boxes[hole_slot] : s->chunks[hole_chunk].boxes[hole_slot];
    if (hole != last) {
        uint32_t moved = *hole;
        uint16_t moved_box[4];
        memcpy(moved_box, hole_box, sizeof moved_box);
        *hole = *last;
        memcpy(hole_box, last_box, sizeof moved_box);
        *last = moved;
        memcpy(last_box, moved_box, sizeof moved_box);
    }
}

/* The proxy's rectangle is now r (or its box changed, or whether it is boxed or mobile) and it
 * stays in the cells of r inside kept: rewrite its entries there. box NULL: not boxed; id with
 * the mobile bit when it is mobile. */
void rc_grid_rect_refresh(grid_store *s, int32_t level, cell_rect r, cell_rect kept, uint32_t id, const rc_aabb *box) {
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (!rect_contains(kept, x, y)) {
                continue;
            }
            grid_cell *c = (grid_cell *)cell_lookup(s, level, x, y);
            uint32_t count = c != NULL ? cell_count(c) : 0;
            uint16_t q[4];
            uint32_t entry = rc_grid_make_entry(s, level, id, r, box, x, y, q);
            for (uint32_t i = 0; i < count && i < INLINE_ENTRIES; ++i) {
                if ((c->entries[i] & ENTRY_ID_MASK) == (id & ENTRY_ID_MASK)) {
                    c->entries[i] = entry;
                    memcpy(c->boxes[i], q, sizeof q);
                }
            }
            for (uint32_t k = count > INLINE_ENTRIES ? c->chunk : NONE, n = count > INLINE_ENTRIES ? head_fill(count) : 0;
                 k != NONE; k = s->chunks[k].next, n = CHUNK_ENTRIES) {
                for (uint32_t i = 0; i < n; ++i) {
                    if ((s->chunks[k].entries[i] & ENTRY_ID_MASK) == (id & ENTRY_ID_MASK)) {
                        s->chunks[k].entries[i] = entry;
                        memcpy(s->chunks[k].boxes[i], q, sizeof q);
                    }
                }
            }
        }
    }
}

void rc_grid_rect_remove(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t entry,
                         rc_grid_move_note *note) {
    uint32_t k = 0;
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                cell_remove(s, level, x, y, entry, note != NULL ? &note->hole_chunk[k] : NULL,
                            note != NULL ? &note->hole_slot[k] : NULL);
                ++k;
            }
        }
    }
}

/* How many cells of r lie outside skip (all of them when skip is NULL). */
int64_t rc_grid_rect_additions(cell_rect r, const cell_rect *skip) {
    int64_t n = rect_cells(r);
    if (skip != NULL) {
        int64_t ox = (int64_t)(r.hx < skip->hx ? r.hx : skip->hx) - max_i32(r.lx, skip->lx) + 1;
        int64_t oy = (int64_t)(r.hy < skip->hy ? r.hy : skip->hy) - max_i32(r.ly, skip->ly) + 1;
        if (ox > 0 && oy > 0) {
            n -= ox * oy;
        }
    }
    return n;
}

static void set_level_bit(uint64_t *bits, int32_t level_index, bool set) {
    if (set) {
        *bits |= (uint64_t)1 << level_index;
    } else {
        *bits &= ~((uint64_t)1 << level_index);
    }
}

/* A level gains or loses delta proxies, mobile or not. */
void rc_grid_level_count(grid_store *s, int32_t level_index, int32_t delta, bool mobile) {
    grid_level *level = &s->levels[level_index];
    level->proxies += delta;
    level->fixed += mobile ? 0 : delta;
    set_level_bit(&s->used_levels, level_index, level->proxies > 0);
    set_level_bit(&s->fixed_levels, level_index, level->fixed > 0);
}

/* Visit every occupied cell of one level, windowed and hashed; false if fn stopped. */

bool rc_grid_visit_level(const grid_store *s, int32_t level, cell_visit_fn *fn, void *context) {
    for (int32_t i = 0; i < s->record_high; ++i) {
        const grid_cell *c = &s->records[i];
        if (c->meta != 0 && cell_level(c) == level && !fn(c, context)) {
            return false;
        }
    }
    return true;
}
