/* The grid's part of a snapshot (broadphase.h: rc_grid_save, rc_grid_load).
 *
 * What is saved is what decides a later answer or change, at the same places: the order of a
 * query's answers and of the pairs comes from the order of the cell records (a level is visited
 * record by record) and of the entries within a cell; the ids, records and chunks handed out
 * next come from the free lists, in their order; rebuilds come from counts (the grid gives
 * memory back by counts, never by what it holds). So every array keeps its index space, the free
 * lists their links, the hash table its capacity and slots. The room the proxy, record and chunk
 * arrays have beyond their use is not state: it decides only when they grow, and a loaded grid
 * has room for what it holds (a grid made with room for a million proxies saves none of it, and
 * a restored world's snapshot is the bytes restored, whatever room it had grown).
 *
 * Layout, in this order (core/bytes.h: little-endian, each value at its own width):
 *   tag "RGRD"; automatic; proxy high, free list head, live, statics, followers, moved count, next size
 *     check, rebuilds, peak live; the 64 size bins
 *   store: base cell size; used and fixed level bits; cells, hashed; table capacity; records'
 *     high, free head, free count; chunks' likewise
 *   levels: a 64-bit mask of the levels that hold anything, then for each of those its counts
 *     (proxies, fixed, cells, hashed, hashed after the last rebuild) and window (x0, y0, w, h)
 *   proxies 0..high-1: level (-1 free), moved; a live one its cell rectangle, static, mobile,
 *     box, user, the pieces before and after it (-1: none) and (moved) its box before; a free
 *     one its free-list link
 *   the moved list; every chunk's next link (chunks 0..chunk high-1)
 *   records 0..record high-1: meta (0: free, then its free-list link) or x, y, head chunk, the
 *     table slot when the cell lies outside its level's window, and the entries in walk order,
 *     with the quantised box of each boxed one
 * Not saved, because it is a function of what is: each level's cell size (of the base size),
 * the window slots (a record lies inside its level's window or in the table), what free records
 * and chunks held and the unused tails of cells and chunks (never read), locks (0 in a loaded
 * grid: they count running queries).
 *
 * Reading checks everything it will later index through, and more: that the structure is the
 * one the grid's own operations keep (each proxy where its box puts it, each of its entries
 * once in each of its cells and as the grid would write it, the chunks of each cell as many as
 * its count needs, the free lists covering exactly the free slots, the counters equal to what
 * they count). A grid that passes behaves as a grid built by calls does; anything else is
 * refused, so a forged buffer cannot lead a later call outside an array or into a loop. */
#include "broadphase/grid_internal.h"

#define GRID_TAG 0x44524752u /* "RGRD" */
#define MAX_ARRAY (INT32_MAX - 1) /* counts are int32; rc_io_count takes max + 1 */

/* A save or a load in progress. Reading, the marks say what the checks have seen: per proxy,
 * bits 0-3 the cells of its rectangle holding its entry and bit 4 its place in the moved list;
 * per chunk, that a cell's chain or the free list holds it. */
/* An array of a grid being reused, and its size in bytes. */
typedef struct grid_spare {
    void *p;
    size_t bytes;
} grid_spare;

#define SPARE_SLOTS (8 + LEVEL_COUNT)

typedef struct grid_io {
    rc_bytes *b;
    rc_grid *grid;
    uint8_t *proxy_marks, *chunk_marks;
    size_t mark_bytes;
    bool out_of_memory;
    bool without_moves; /* saving: as if the moves had just been forgotten (rc_grid_save_part) */
    /* loading: arrays of a grid given to reuse, taken by the first request of their size */
    grid_spare spares[SPARE_SLOTS];
    int spare_count;
    size_t budget; /* loading: the bytes it may still allocate (LOAD_BYTES_PER_BYTE a byte read) */
} grid_io;

/* What a load may allocate: 64 bytes for each byte of the snapshot, and 16 MiB besides. A grid's
 * arrays hold a few bytes per entry saved (the proxy, record and chunk arrays are loaded with
 * room for what they hold, no more), so only forged counts come near it: the hash table and the
 * windows, whose sizes are saved. */
#define LOAD_BYTES_PER_BYTE 64u
#define LOAD_BYTES_BESIDES ((size_t)16 << 20)

#define MOVED_MARK 16u

/* Bounds on the bytes of a proxy and of a cell with its inline entries (RC_BYTES_RECORD: speed
 * hints, not limits; a longer cell's chunks are checked entry by entry). */
enum { PROXY_BYTES = 96, CELL_BYTES = 128 };

RC_IO bool reading(const grid_io *io) { return io->b->reading; }

/* Reading: refuse the bytes when ok is false. */
RC_IO void expect(grid_io *io, bool ok) {
    if (io->b->reading && !ok) {
        rc_bytes_fail(io->b);
    }
}

/* A link of the store's free lists or chains: NONE or below count. */
RC_IO void io_link(grid_io *io, uint32_t *v, int32_t count) {
    rc_io_u32(io->b, v);
    expect(io, *v == NONE || *v < (uint32_t)count);
}

/* Room for n elements of size bytes: NULL for none, and a note when memory ran out. */
static void *take(grid_io *io, size_t n, size_t size) {
    if (n == 0) {
        return NULL;
    }
    if (n > SIZE_MAX / size || n * size > io->budget) {
        /* more than the bytes read can justify: forged counts (a bit flipped in a capacity
           asked a 6 KB snapshot for 940 MB) */
        rc_bytes_fail(io->b);
        return NULL;
    }
    io->budget -= n * size;
    for (int k = 0; k < io->spare_count; ++k) {
        if (io->spares[k].bytes == n * size) {
            void *p = io->spares[k].p;
            io->spares[k] = io->spares[--io->spare_count];
            return p;
        }
    }
    void *p = rc_mem_alloc(&io->grid->allocator, n * size);
    io->out_of_memory |= p == NULL;
    return p;
}

/* Room for at least *count elements (a growing array: the records, the chunks): the smallest
 * spare that holds them and not more than twice as many (then *count is what it holds: the room
 * a grid that grew kept, so that the step after a restore does not grow it again), or else
 * take's exactly *count. */
static void *take_room(grid_io *io, int32_t *count, size_t size) {
    size_t n = (size_t)*count;
    int best = -1;
    for (int k = 0; k < io->spare_count && n > 0; ++k) {
        size_t bytes = io->spares[k].bytes, held = bytes / size;
        if (bytes % size == 0 && held >= n && held <= 2 * n + 64 && held <= (size_t)INT32_MAX &&
            (best < 0 || bytes < io->spares[best].bytes)) {
            best = k;
        }
    }
    if (best < 0 || n * size > io->budget) {
        return take(io, n, size);
    }
    io->budget -= n * size;
    void *p = io->spares[best].p;
    *count = (int32_t)(io->spares[best].bytes / size);
    io->spares[best] = io->spares[--io->spare_count];
    return p;
}

static void keep_spare(grid_io *io, void *p, size_t bytes) {
    if (p == NULL || bytes == 0) {
        return;
    }
    if (io->spare_count < SPARE_SLOTS) {
        grid_spare spare = {p, bytes};
        io->spares[io->spare_count++] = spare;
    } else {
        rc_mem_free(&io->grid->allocator, p, bytes);
    }
}

/* Every array of the grid to reuse becomes a spare, and the grid's record is given back. */
static void take_spares(grid_io *io, rc_grid *reuse) {
    if (reuse == NULL) {
        return;
    }
    size_t n = (size_t)reuse->capacity;
    keep_spare(io, reuse->spans, n * sizeof(grid_span));
    keep_spare(io, reuse->proxies, n * sizeof(grid_proxy));
    keep_spare(io, reuse->users, n * sizeof(int32_t));
    keep_spare(io, reuse->moved, n * sizeof(int32_t));
    keep_spare(io, reuse->befores, n * sizeof(rc_aabb));
    grid_store *s = &reuse->store;
    keep_spare(io, s->table, sizeof(grid_slot) * s->capacity);
    keep_spare(io, s->records, sizeof(grid_cell) * (size_t)s->record_capacity);
    keep_spare(io, s->chunks, sizeof(grid_chunk) * (size_t)s->chunk_capacity);
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        keep_spare(io, s->levels[l].window.slots, rc_grid_window_bytes(&s->levels[l].window));
    }
    rc_grid_undo_free_log(reuse); /* (scratch, not state) */
    rc_allocator a = reuse->allocator;
    rc_mem_free(&a, reuse, sizeof *reuse);
}

static void free_spares(grid_io *io) {
    for (int k = 0; k < io->spare_count; ++k) {
        rc_mem_free(&io->grid->allocator, io->spares[k].p, io->spares[k].bytes);
    }
    io->spare_count = 0;
}

/* The largest element count of an array that its byte size can hold. */
static int32_t array_limit(size_t size) {
    return SIZE_MAX / 2 / size < (size_t)MAX_ARRAY ? (int32_t)(SIZE_MAX / 2 / size) : MAX_ARRAY;
}

/* ---- counts --------------------------------------------------------------------------------- */


static bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

static void io_grid_counts(grid_io *io) {
    rc_bytes *b = io->b;
    rc_grid *g = io->grid;
    uint32_t tag = GRID_TAG;
    rc_io_u32(b, &tag);
    expect(io, tag == GRID_TAG);
    rc_io_bool(b, &g->automatic);
    rc_io_count(b, &g->high, MAX_PROXIES);
    if (reading(io)) {
        g->capacity = g->high; /* (room is not state: see the top of the file) */
    }
    rc_io_index(b, &g->free_list, g->high, true);
    rc_io_count(b, &g->live, g->high);
    rc_io_count(b, &g->statics, g->live);
    rc_io_count(b, &g->followers, g->live);
    int32_t moved_count = io->without_moves ? 0 : g->moved_count;
    rc_io_count(b, &moved_count, g->high);
    g->moved_count = reading(io) ? moved_count : g->moved_count;
    /* a power of two from 64 on: it doubles as the proxies pass it (and never overflows) */
    rc_io_count(b, &g->next_size_check, 1 << 30);
    expect(io, g->next_size_check >= FIRST_SIZE_CHECK && is_power_of_two((uint64_t)g->next_size_check));
    rc_io_count(b, &g->rebuilds, MAX_ARRAY);
    rc_io_count(b, &g->peak_live, MAX_PROXIES);
    rc_io_words(b, g->size_bins, SIZE_BINS); /* checked against the boxes (check_proxies) */
}

static void io_store_counts(grid_io *io) {
    rc_bytes *b = io->b;
    grid_store *s = &io->grid->store;
    float base = s->base_size;
    rc_io_f32(b, &base);
    if (reading(io)) {
        expect(io, rc_is_finite(base) && base > 0.0f);
        rc_grid_store_init(s, base > 0.0f && rc_is_finite(base) ? base : 1.0f); /* the cell sizes of every level */
    }
    rc_io_u64(b, &s->used_levels);
    rc_io_u64(b, &s->fixed_levels);
    rc_io_count(b, &s->cells, MAX_ARRAY);
    rc_io_count(b, &s->hashed, s->cells);
    /* 0 or a power of two, at most half full (rc_grid_store_reserve_split keeps it so): a probe
       always ends at a free slot */
    rc_io_u32(b, &s->capacity);
    expect(io, (s->capacity == 0 || is_power_of_two(s->capacity)) && s->capacity <= (1u << 30) &&
                   2u * (uint64_t)s->hashed <= s->capacity);
    rc_io_count(b, &s->record_high, array_limit(sizeof(grid_cell)));
    if (reading(io)) {
        s->record_capacity = s->record_high;
    }
    io_link(io, &s->free_record, s->record_high);
    rc_io_count(b, &s->free_records, s->record_high);
    rc_io_count(b, &s->chunk_high, array_limit(sizeof(grid_chunk)));
    if (reading(io)) {
        s->chunk_capacity = s->chunk_high;
    }
    io_link(io, &s->free_chunk, s->chunk_high);
    rc_io_count(b, &s->free_chunks, s->chunk_high);
}

/* ---- levels and windows ----------------------------------------------------------------------- */

static bool level_holds_anything(const grid_level *lv) {
    const grid_window *w = &lv->window;
    return lv->proxies != 0 || lv->fixed != 0 || lv->cells != 0 || lv->hashed != 0 || lv->hashed_after_rebuild != 0 ||
           w->x0 != 0 || w->y0 != 0 || w->w != 0 || w->h != 0;
}

/* A window as rebuild makes them: both sides multiples of 4 rounded up from at least 5 cells
 * whose product is at most WINDOW_MAX_CELLS, and its corner at most a width beyond the
 * saturated cell numbers (every later sum of a corner and a side fits an int32). */
static bool window_is_valid(int32_t x0, int32_t y0, int32_t w, int32_t h) {
    if (w == 0 && h == 0) {
        return true;
    }
    return w >= 8 && h >= 8 && w % 4 == 0 && h % 4 == 0 && ((int64_t)w - 3) * ((int64_t)h - 3) <= WINDOW_MAX_CELLS &&
           x0 >= -CELL_LIMIT - w && x0 <= CELL_LIMIT && y0 >= -CELL_LIMIT - h && y0 <= CELL_LIMIT;
}

/* A level's counts (checked against the proxies and cells once they are read) and window
 * (its slots filled as the records are read). */
static void io_level(grid_io *io, grid_level *lv) {
    rc_bytes *b = io->b;
    rc_io_count(b, &lv->proxies, MAX_PROXIES);
    rc_io_count(b, &lv->fixed, lv->proxies);
    rc_io_count(b, &lv->cells, MAX_ARRAY);
    rc_io_count(b, &lv->hashed, lv->cells);
    rc_io_count(b, &lv->hashed_after_rebuild, 1 << 30); /* windows_stale doubles it */
    grid_window w = lv->window;
    rc_io_i32(b, &w.x0);
    rc_io_i32(b, &w.y0);
    rc_io_i32(b, &w.w);
    rc_io_i32(b, &w.h);
    if (!reading(io) || b->failed) {
        return;
    }
    expect(io, window_is_valid(w.x0, w.y0, w.w, w.h));
    w.slots = b->failed ? NULL : take(io, (size_t)w.w * (size_t)w.h, sizeof(uint32_t));
    if (w.slots == NULL) {
        w.w = w.h = 0; /* no window (or no memory for it: the store frees by w x h) */
    } else {
        memset(w.slots, 0, rc_grid_window_bytes(&w));
    }
    lv->window = w; /* the corner of no window too: it is saved again as it was */
}

static void io_levels(grid_io *io) {
    grid_store *s = &io->grid->store;
    uint64_t mask = 0;
    for (int32_t l = 0; l < LEVEL_COUNT && !reading(io); ++l) {
        mask |= level_holds_anything(&s->levels[l]) ? (uint64_t)1 << l : 0u;
    }
    rc_io_u64(io->b, &mask);
    for (; mask != 0 && !io->b->failed && !io->out_of_memory; mask &= mask - 1) {
        grid_level *lv = &s->levels[__builtin_ctzll(mask)];
        io_level(io, lv);
        expect(io, io->out_of_memory || level_holds_anything(lv)); /* one form for each state */
    }
}

/* ---- proxies -------------------------------------------------------------------------------- */

static bool take_proxy_arrays(grid_io *io) {
    rc_grid *g = io->grid;
    size_t n = (size_t)g->capacity;
    g->spans = take(io, n, sizeof(grid_span));
    g->proxies = take(io, n, sizeof(grid_proxy));
    g->users = take(io, n, sizeof(int32_t));
    g->moved = take(io, n, sizeof(int32_t));
    g->befores = take(io, n, sizeof(rc_aabb));
    if (io->out_of_memory || io->b->failed || n == 0) {
        return !io->out_of_memory && !io->b->failed; /* (failed: past the budget) */
    }
    memset(g->spans, 0, n * sizeof(grid_span));
    memset(g->proxies, 0, n * sizeof(grid_proxy));
    memset(g->users, 0, n * sizeof(int32_t));
    memset(g->moved, 0, n * sizeof(int32_t));
    memset(g->befores, 0, n * sizeof(rc_aabb));
    return true;
}

/* A live proxy read is where the store's place_of puts its box, as every change leaves it. */
static bool proxy_is_placed(const rc_grid *g, int32_t id) {
    const grid_proxy *p = &g->proxies[id];
    rc_aabb box = g->spans[id].box;
    if (!rc_aabb_is_valid(box)) {
        return false;
    }
    cell_rect r;
    int32_t l = place_of(&g->store, box, &r);
    uint8_t wide = (uint8_t)((r.hx > r.lx ? 1 : 0) | (r.hy > r.ly ? 2 : 0));
    return l == p->level && r.lx == p->lx && r.ly == p->ly && wide == p->wide;
}

RC_IO void io_proxy(grid_io *io, int32_t id) {
    rc_bytes *b = io->b;
    rc_grid *g = io->grid;
    grid_proxy *p = &g->proxies[id];
    rc_io_i8(b, &p->level);
    expect(io, p->level >= -1 && p->level < LEVEL_COUNT);
    bool moved = p->moved && !io->without_moves;
    rc_io_bool(b, &moved); /* a free slot's too: it may be in the moved list still */
    p->moved = reading(io) ? moved : p->moved;
    if (p->level < 0) {
        rc_io_index(b, &g->users[id], g->high, true); /* the free list's link */
        if (reading(io)) { /* (a free slot is no piece; a writer changes nothing) */
            p->prev_piece = -1;
            p->next_piece = -1;
        }
        return;
    }
    rc_io_i32(b, &p->lx);
    rc_io_i32(b, &p->ly);
    rc_io_u8(b, &p->wide);
    rc_io_bool(b, &p->is_static);
    rc_io_bool(b, &p->mobile);
    rc_io_aabb(b, &g->spans[id].box);
    rc_io_i32(b, &g->users[id]);
    rc_io_index(b, &p->prev_piece, g->high, true); /* live and linked back: check_pieces */
    rc_io_index(b, &p->next_piece, g->high, true);
    if (moved) {
        rc_io_aabb(b, &g->befores[id]); /* read only while moved (before_of) */
    }
    if (reading(io) && !b->failed) {
        expect(io, proxy_is_placed(g, id));
    }
}

static void io_proxies(grid_io *io) {
    rc_grid *g = io->grid;
    if (reading(io) && !take_proxy_arrays(io)) {
        return;
    }
    /* through a local cursor and a local copy of io that nothing can point at (rc_bytes_local) */
    rc_bytes *outer = io->b, cursor = *outer;
    grid_io local = *io;
    local.b = &cursor;
    for (int32_t id = 0; id < g->high && !cursor.failed; ++id) {
        RC_BYTES_RECORD(&cursor, PROXY_BYTES, io_proxy(&local, id));
    }
    *outer = cursor;
    for (int32_t i = 0; i < g->moved_count && !io->without_moves && !io->b->failed; ++i) {
        rc_io_index(io->b, &g->moved[i], g->high, false);
        if (reading(io) && !io->b->failed) {
            /* listed once, and only while its moved flag is up (check_proxies: all of those) */
            int32_t id = g->moved[i];
            uint8_t *marks = io->proxy_marks; /* (never NULL here: high > 0) */
            bool fresh = marks != NULL && g->proxies[id].moved && !(marks[id] & MOVED_MARK);
            expect(io, fresh);
            if (fresh) {
                marks[id] |= MOVED_MARK;
            }
        }
    }
}

/* ---- cells ---------------------------------------------------------------------------------- */

static bool take_cell_arrays(grid_io *io) {
    grid_store *s = &io->grid->store;
    s->chunks = take_room(io, &s->chunk_capacity, sizeof(grid_chunk));
    s->records = take_room(io, &s->record_capacity, sizeof(grid_cell));
    s->table = take(io, s->capacity, sizeof(grid_slot));
    if (io->out_of_memory || io->b->failed) {
        return false;
    }
    if (s->chunk_high > 0) {
        memset(s->chunks, 0, sizeof(grid_chunk) * (size_t)s->chunk_high);
    }
    if (s->record_high > 0) {
        memset(s->records, 0, sizeof(grid_cell) * (size_t)s->record_high);
    }
    if (s->capacity > 0) {
        memset(s->table, 0, sizeof(grid_slot) * s->capacity);
    }
    return true;
}

/* Reading: is entry raw, at cell c, one the grid would have written there (its proxy live on
 * the cell's level with the cell in its rectangle, not yet met there, with the neighbour and
 * mobile bits it gives, and a box copied only for a static proxy)? */
RC_IO bool entry_is_valid(grid_io *io, const grid_cell *c, uint32_t raw, const uint16_t q[4]) {
    const rc_grid *g = io->grid;
    uint32_t id = raw & ENTRY_ID_MASK;
    if (id >= (uint32_t)g->high || g->proxies[id].level != cell_level(c)) {
        return false;
    }
    const grid_proxy *p = &g->proxies[id];
    cell_rect r = proxy_rect(g, id);
    if (!rect_contains(r, c->x, c->y)) {
        return false;
    }
    uint8_t bit = (uint8_t)(1u << ((c->x - r.lx) + 2 * (c->y - r.ly)));
    if (io->proxy_marks[id] & bit) {
        return false;
    }
    io->proxy_marks[id] |= bit;
    /* the copy of a static proxy's box is a number like any other (not worked out again: that
       was a third of a restore); only a static proxy's entry may hold one */
    (void)q;
    uint32_t expected = entry_of(id | (p->mobile ? ENTRY_MOBILE : 0u), r, c->x, c->y);
    return (raw & ~ENTRY_BOXED) == expected && (p->is_static || (raw & ENTRY_BOXED) == 0u);
}

RC_IO void io_entry(grid_io *io, const grid_cell *c, uint32_t *raw, uint16_t q[4]) {
    rc_io_u32(io->b, raw);
    if (*raw & ENTRY_BOXED) {
        rc_io_halves(io->b, q, 4);
    } else if (reading(io)) {
        memset(q, 0, sizeof(uint16_t) * 4);
    }
    if (reading(io) && !io->b->failed) {
        expect(io, entry_is_valid(io, c, *raw, q));
    }
}

/* A cell's entries in the order every walk reads them (FOR_EACH_ENTRY): inline, then the
 * chunks from the newest. Reading, the chain is followed as its links were read: exactly as
 * many chunks as the count needs, each held by no other cell. */
RC_IO void io_entries(grid_io *io, grid_cell *c) {
    grid_store *s = &io->grid->store;
    uint32_t count = cell_count(c);
    for (uint32_t i = 0; i < count && i < INLINE_ENTRIES && !io->b->failed; ++i) {
        io_entry(io, c, &c->entries[i], c->boxes[i]);
    }
    uint32_t left = count > INLINE_ENTRIES ? count - INLINE_ENTRIES : 0;
    uint32_t k = c->chunk;
    for (uint32_t n = left > 0 ? head_fill(count) : 0; left > 0 && !io->b->failed; n = CHUNK_ENTRIES) {
        if (reading(io)) {
            expect(io, k < (uint32_t)s->chunk_high && !io->chunk_marks[k]);
            if (io->b->failed) {
                return;
            }
            io->chunk_marks[k] = 1;
        }
        for (uint32_t i = 0; i < n && !io->b->failed; ++i) {
            io_entry(io, c, &s->chunks[k].entries[i], s->chunks[k].boxes[i]);
        }
        left -= n;
        k = s->chunks[k].next;
    }
    expect(io, io->b->failed || k == NONE);
}

/* Where a cell is found: its level's window slot (not saved: the cell's place says it), or
 * else its table slot. Reading, each slot may be taken once. */
RC_IO void io_cell_home(grid_io *io, uint32_t record, const grid_cell *c) {
    grid_store *s = &io->grid->store;
    int32_t level = cell_level(c);
    grid_window *w = &s->levels[level].window;
    uint32_t slot = window_slot(w, c->x, c->y);
    if (slot != NONE) {
        if (reading(io)) { /* (a save writes nothing to the grid: queries may run beside it) */
            expect(io, w->slots[slot] == 0);
            w->slots[slot] = record + 1;
        }
        return;
    }
    int32_t at = reading(io) ? 0 : (int32_t)find_hashed(s, level, c->x, c->y);
    rc_io_index(io->b, &at, (int32_t)s->capacity, false);
    if (reading(io) && !io->b->failed) {
        grid_slot *t = &s->table[at];
        expect(io, t->level == 0);
        t->x = c->x;
        t->y = c->y;
        t->level = (uint32_t)level + 1u;
        t->record = record;
    }
}

RC_IO void io_cell(grid_io *io, uint32_t record) {
    rc_bytes *b = io->b;
    grid_store *s = &io->grid->store;
    grid_cell *c = &s->records[record];
    rc_io_u32(b, &c->meta);
    if (c->meta == 0) {
        io_link(io, &c->chunk, s->record_high); /* a free record: its link */
        return;
    }
    rc_io_i32(b, &c->x);
    rc_io_i32(b, &c->y);
    rc_io_u32(b, &c->chunk);
    /* a cell holds each proxy once: at most high entries; a chain only past the inline ones */
    uint32_t count = cell_count(c);
    expect(io, count >= 1 && count <= (uint32_t)io->grid->high && (count > INLINE_ENTRIES) == (c->chunk != NONE));
    if (!b->failed) {
        io_cell_home(io, record, c);
        if (!io->b->failed) {
            io_entries(io, c);
        }
    }
}

static void io_cells(grid_io *io) {
    grid_store *s = &io->grid->store;
    if (reading(io) && !take_cell_arrays(io)) {
        return;
    }
    for (int32_t k = 0; k < s->chunk_high && !io->b->failed; ++k) {
        io_link(io, &s->chunks[k].next, s->chunk_high);
    }
    rc_bytes *outer = io->b, cursor = *outer; /* (as io_proxies) */
    grid_io local = *io;
    local.b = &cursor;
    for (int32_t r = 0; r < s->record_high && !cursor.failed; ++r) {
        RC_BYTES_RECORD(&cursor, CELL_BYTES, io_cell(&local, (uint32_t)r));
    }
    *outer = cursor;
}

/* ---- the checks of the whole ---------------------------------------------------------------- */

/* Proxies of pieces: each link live and linked back, to a piece of the same user; every chain
 * walked from its first piece reaches all its pieces (no loop), as many as counted, with boxes in
 * order (a box query's once-only rule takes it). */
static bool check_pieces(const rc_grid *g) {
    int32_t followers = 0, linked = 0, heads = 0, walked = 0;
    for (int32_t id = 0; id < g->high; ++id) {
        const grid_proxy *p = &g->proxies[id];
        if (p->level < 0 || (p->prev_piece < 0 && p->next_piece < 0)) {
            continue;
        }
        int32_t next = p->next_piece, prev = p->prev_piece;
        if ((next >= 0 && (g->proxies[next].level < 0 || g->proxies[next].prev_piece != id || g->users[next] != g->users[id])) ||
            (prev >= 0 && (g->proxies[prev].level < 0 || g->proxies[prev].next_piece != id))) {
            return false;
        }
        linked++;
        followers += prev >= 0;
        heads += prev < 0;
    }
    for (int32_t id = 0; id < g->high; ++id) {
        const grid_proxy *p = &g->proxies[id];
        if (p->level < 0 || p->prev_piece >= 0 || p->next_piece < 0) {
            continue;
        }
        int32_t count = 0;
        for (int32_t at = id; at >= 0; at = g->proxies[at].next_piece) {
            if (++count > linked) {
                return false;
            }
        }
        walked += count;
        if (!rc_grid_chain_in_order(g, id)) {
            return false;
        }
    }
    return followers == g->followers && walked == linked && linked == heads + followers;
}

/* Proxies: every live one has its entries in all the cells of its rectangle; the free list
 * holds every free slot once; the counts are what they count. */
static bool check_proxies(const grid_io *io) {
    const rc_grid *g = io->grid;
    int32_t live = 0, statics = 0, flagged = 0;
    int32_t bins[SIZE_BINS] = {0};
    for (int32_t id = 0; id < g->high; ++id) {
        const grid_proxy *p = &g->proxies[id];
        flagged += p->moved;
        if (p->level < 0) {
            continue;
        }
        uint8_t cells = (uint8_t)(1u | (p->wide & 1u ? 2u : 0u) | (p->wide & 2u ? 4u : 0u) | (p->wide == 3u ? 8u : 0u));
        if ((io->proxy_marks[id] & 15u) != cells) {
            return false;
        }
        live++;
        statics += p->is_static;
        bins[size_bin(box_size(g->spans[id].box))]++;
    }
    /* a walk of exactly high - live links that ends at -1 meets that many distinct free slots */
    int32_t steps = 0;
    for (int32_t at = g->free_list; at >= 0; at = g->users[at]) {
        if (++steps > g->high - live || g->proxies[at].level >= 0) {
            return false;
        }
    }
    return live == g->live && statics == g->statics && flagged == g->moved_count && steps == g->high - live &&
           memcmp(bins, g->size_bins, sizeof bins) == 0;
}

/* The level counts and bits against the proxies and the cell records. */
static bool check_levels(const rc_grid *g) {
    const grid_store *s = &g->store;
    int32_t proxies[LEVEL_COUNT] = {0}, fixed[LEVEL_COUNT] = {0}, cells[LEVEL_COUNT] = {0}, hashed[LEVEL_COUNT] = {0};
    for (int32_t id = 0; id < g->high; ++id) {
        const grid_proxy *p = &g->proxies[id];
        if (p->level >= 0) {
            proxies[p->level]++;
            fixed[p->level] += !p->mobile;
        }
    }
    int32_t all_cells = 0, all_hashed = 0;
    for (int32_t r = 0; r < s->record_high; ++r) {
        const grid_cell *c = &s->records[r];
        if (c->meta != 0) {
            int32_t l = cell_level(c);
            bool in_table = window_slot(&s->levels[l].window, c->x, c->y) == NONE;
            cells[l]++;
            hashed[l] += in_table;
            all_cells++;
            all_hashed += in_table;
        }
    }
    uint64_t used = 0, with_fixed = 0;
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        const grid_level *lv = &s->levels[l];
        if (lv->proxies != proxies[l] || lv->fixed != fixed[l] || lv->cells != cells[l] || lv->hashed != hashed[l]) {
            return false;
        }
        used |= proxies[l] > 0 ? (uint64_t)1 << l : 0u;
        with_fixed |= fixed[l] > 0 ? (uint64_t)1 << l : 0u;
    }
    return used == s->used_levels && with_fixed == s->fixed_levels && all_cells == s->cells && all_hashed == s->hashed;
}

/* The free records: a walk of exactly free_records links over free records to NONE, and no
 * other free record. The chunks: the free list takes the ones no cell holds, all of them. */
static bool check_free_lists(const grid_io *io) {
    const grid_store *s = &io->grid->store;
    int32_t free_records = 0, steps = 0;
    for (int32_t r = 0; r < s->record_high; ++r) {
        free_records += s->records[r].meta == 0;
    }
    for (uint32_t at = s->free_record; at != NONE; at = s->records[at].chunk) {
        if (++steps > s->free_records || s->records[at].meta != 0) {
            return false;
        }
    }
    if (steps != s->free_records || free_records != s->free_records) {
        return false;
    }
    steps = 0;
    for (uint32_t at = s->free_chunk; at != NONE; at = s->chunks[at].next) {
        if (io->chunk_marks[at]) {
            return false; /* held by a cell, or met before: a loop */
        }
        io->chunk_marks[at] = 1;
        steps++;
    }
    for (int32_t k = 0; k < s->chunk_high; ++k) {
        if (!io->chunk_marks[k]) {
            return false;
        }
    }
    return steps == s->free_chunks;
}

/* Every hashed cell is found from its home slot (no free slot between: the probe reaches it),
 * so no cell is hashed twice. The table is at most half full, so each probe ends. */
static bool check_table(const grid_store *s) {
    for (uint32_t i = 0; i < s->capacity; ++i) {
        const grid_slot *t = &s->table[i];
        if (t->level != 0 && find_hashed(s, (int32_t)t->level - 1, t->x, t->y) != i) {
            return false;
        }
    }
    return true;
}

/* ---- save and load -------------------------------------------------------------------------- */

static void io_grid(grid_io *io) {
    io_grid_counts(io);
    if (!io->b->failed) {
        io_store_counts(io);
    }
    if (!io->b->failed) {
        io_levels(io);
    }
    if (reading(io) && !io->b->failed && !io->out_of_memory) {
        grid_store *s = &io->grid->store;
        io->mark_bytes = (size_t)io->grid->high + (size_t)s->chunk_high + 1; /* never none */
        io->proxy_marks = take(io, io->mark_bytes, 1);
        if (io->proxy_marks != NULL) {
            memset(io->proxy_marks, 0, io->mark_bytes);
            io->chunk_marks = io->proxy_marks + io->grid->high;
        }
    }
    if (!io->b->failed && !io->out_of_memory) {
        io_proxies(io);
    }
    if (!io->b->failed && !io->out_of_memory) {
        io_cells(io);
    }
}

void rc_grid_save(const rc_grid *grid, rc_bytes *out) { rc_grid_save_part(grid, out, true); }

void rc_grid_save_part(const rc_grid *grid, rc_bytes *out, bool moves) {
    if (grid == NULL || out == NULL || out->reading) {
        if (out != NULL) {
            rc_bytes_fail(out);
        }
        return;
    }
    /* writing only reads the grid: the io functions serve both ways, hence the cast */
    grid_io io;
    memset(&io, 0, sizeof io);
    io.b = out;
    io.grid = (rc_grid *)grid;
    io.without_moves = !moves;
    io_grid(&io);
}

rc_grid *rc_grid_load(rc_bytes *in, const rc_allocator *allocator) { return rc_grid_load_reusing(in, allocator, NULL); }

rc_grid *rc_grid_load_reusing(rc_bytes *in, const rc_allocator *allocator, rc_grid *reuse) {
    if (in == NULL || !in->reading) {
        rc_grid_destroy(reuse);
        return NULL;
    }
    rc_allocator a = rc_mem_resolve(allocator != NULL ? *allocator : (rc_allocator){NULL, NULL, NULL});
    rc_grid *grid = rc_mem_alloc(&a, sizeof *grid);
    if (grid == NULL) {
        rc_grid_destroy(reuse);
        return NULL;
    }
    /* every array stays NULL until taken, with its size in the fields rc_grid_destroy frees by:
       a load that stops anywhere gives back exactly what it took */
    memset(grid, 0, sizeof *grid);
    atomic_init(&grid->locks, 0);
    grid->allocator = a;
    grid->free_list = -1;
    rc_grid_store_init(&grid->store, 1.0f);
    grid_io io;
    memset(&io, 0, sizeof io);
    io.b = in;
    io.grid = grid;
    io.budget = (in->size <= (SIZE_MAX - LOAD_BYTES_BESIDES) / LOAD_BYTES_PER_BYTE
                     ? in->size * LOAD_BYTES_PER_BYTE + LOAD_BYTES_BESIDES
                     : SIZE_MAX);
    take_spares(&io, reuse);
    io_grid(&io);
    bool ok = !in->failed && !io.out_of_memory;
    if (ok && !(check_proxies(&io) && check_pieces(grid) && check_levels(grid) && check_free_lists(&io) && check_table(&grid->store))) {
        rc_bytes_fail(in);
        ok = false;
    }
    rc_mem_free(&a, io.proxy_marks, io.mark_bytes);
    free_spares(&io);
    if (!ok) {
        rc_grid_destroy(grid);
        return NULL;
    }
    rc_grid_store_bound_levels(&grid->store);
    return grid;
}
