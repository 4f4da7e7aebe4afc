/* broadphase/grid_internal.h: what the grid's files share (grid.c: proxies, creation, rebuilding
 * and inspection; grid_store.c: the cells and their entries; grid_query.c: box and point
 * queries, rays and swept circles; grid_pairs.c: pair finding, within a grid and across two;
 * grid_snapshot.c: save and load; grid_moves.c: the moves alone; grid_batch.c: batches, changes
 * undone whole when one fails): the layout of the grid and its cells, and the small pieces every
 * walk inlines. See grid.c for how it is laid out and why. */
#ifndef RICOCHET_BROADPHASE_GRID_INTERNAL_H
#define RICOCHET_BROADPHASE_GRID_INTERNAL_H

#include "broadphase/broadphase.h"

#include "core/memory.h"
#include "core/simd.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL_COUNT 64
#define CELL_LIMIT 1073741824 /* 2^30: cell coordinates saturate here */
#define NONE UINT32_MAX
#define INLINE_ENTRIES 4
#define CHUNK_ENTRIES 5
#define QUANTA 16384.0 /* steps of a quantised box per cell */
#define SIZE_BINS 64
#define FIRST_SIZE_CHECK 64
#define WINDOW_MAX_CELLS (1 << 24)

typedef struct cell_rect {
    int32_t lx, ly, hx, hy;
} cell_rect;

/* A proxy's box. The rectangle of cells it covers on its level is rect_of(level, box), the
 * same computation every time, so it is not stored. */
typedef struct grid_span {
    rc_aabb box;
} grid_span;

/* A cell's entry: the proxy id in the low 27 bits, four bits saying which neighbouring cells
 * the proxy's rectangle also covers, and a bit saying the entry holds a copy of the proxy's
 * box. Every rule that reports a proxy once per query needs only the neighbour bits, and the
 * copy (kept for static proxies, quantised to 1/16384 of a cell, rounded outwards) lets a ray
 * turn a proxy away without looking it up. */
#define ENTRY_ID_MASK ((1u << 26) - 1u)
#define ENTRY_MOBILE (1u << 26) /* the proxy is mobile (see rc_grid_set_mobile): casts may skip it unread */
#define ENTRY_BOXED (1u << 27) /* the entry holds the proxy's box (see rc_grid_set_static) */
#define ENTRY_LEFT (1u << 28)
#define ENTRY_RIGHT (1u << 29)
#define ENTRY_DOWN (1u << 30)
#define ENTRY_UP (1u << 31)
#define MAX_PROXIES ((int32_t)ENTRY_ID_MASK)

/* One cache line. A cell with count 0 is free: a free table slot, or a free record whose chunk
 * field links the free list. */
typedef struct grid_cell {
    int32_t x, y;
    uint32_t meta;  /* count << 6 | level */
    uint32_t chunk; /* the chunk holding the newest overflow entries, or NONE */
    uint32_t entries[INLINE_ENTRIES];
    uint16_t boxes[INLINE_ENTRIES][4]; /* quantised boxes of the boxed entries */
} grid_cell;

/* A hash table slot: the record of cell (level, x, y) outside its level's window. */
typedef struct grid_slot {
    int32_t x, y;
    uint32_t level; /* level + 1; 0 marks a free slot */
    uint32_t record;
} grid_slot;

typedef struct grid_chunk {
    uint32_t next;
    uint32_t entries[CHUNK_ENTRIES];
    uint16_t boxes[CHUNK_ENTRIES][4];
} grid_chunk;

/* A dense rectangle of cells on one level, w x h with both multiples of 4: the slot of a cell
 * holds 1 + the index of its record, or 0 for an empty cell. Slots go by 4 x 4 tiles (16
 * slots, one cache line) in row order, so a ray's next cell is usually in the line it is in,
 * whichever way it steps. Cells outside the window live in the hash table. */
typedef struct grid_window {
    int32_t x0, y0, w, h;
    uint32_t *slots;
} grid_window;

typedef struct grid_level {
    float size, inv;
    int32_t proxies;
    int32_t fixed;  /* of which not mobile: a cast that skips mobile proxies skips a level of none */
    int32_t cells;  /* occupied, in the window or hashed */
    int32_t hashed; /* of which in the hash table */
    int32_t hashed_after_rebuild; /* what the last rebuild left hashed (a level too sparse for a
                                     window keeps every cell there: not stale for that) */
    /* while cells > 0, every occupied cell lies within it: set by the first cell opened, grown by
       the next ones, never shrunk as cells close (a level's cells come and go where its proxies
       move; a rebuild or a load makes it tight again). A walk over a rectangle of cells visits
       only the part within it (a crowd falling high above a terrain's level: none of it). */
    cell_rect bounds;
    grid_window window;
} grid_level;

/* Everything that depends on the cell size and the windows; rebuilt whole when they change. */
typedef struct grid_store {
    float base_size;
    uint64_t used_levels;  /* bit l: level l holds proxies */
    uint64_t fixed_levels; /* bit l: level l holds proxies that are not mobile */
    grid_level levels[LEVEL_COUNT];
    int32_t cells;
    /* where the cells outside the windows are: open addressing keyed by (level, x, y) */
    grid_slot *table;
    uint32_t capacity; /* table slots: 0 or a power of two */
    /* open undoable moves (grid_undo.c): the log of the table's changes, or NULL (not state: a
       store saved or rebuilt has none) */
    struct grid_table_log *table_log;
    int32_t hashed;
    /* every occupied cell, windowed or hashed */
    grid_cell *records;
    int32_t record_capacity, record_high;
    uint32_t free_record;
    int32_t free_records;
    /* overflow entries */
    grid_chunk *chunks;
    int32_t chunk_capacity, chunk_high;
    uint32_t free_chunk;
    int32_t free_chunks;
} grid_store;

/* A proxy's bookkeeping, 24 bytes. Its rectangle of cells is kept as its lower-left cell and
 * whether it reaches one further on each axis (a proxy's cells are at least its size, so it
 * covers at most 2 x 2 of them). */
typedef struct grid_proxy {
    int32_t lx, ly; /* lower-left cell of its rectangle */
    int8_t level;  /* -1 while the slot is free */
    uint8_t wide;  /* bit 0: the rectangle is 2 cells wide, bit 1: 2 cells tall */
    bool moved;
    bool is_static; /* its entries hold its box */
    bool mobile;    /* its entries say so (rc_grid_set_mobile) */
    /* a proxy of pieces (rc_grid_insert_pieces, grid_pieces.c): the pieces before and after this
       one, -1 at either end and for a proxy of one piece */
    int32_t prev_piece, next_piece;
} grid_proxy;

/* A hash table's slots and capacity (a batch keeps the table a growth replaced: grid_batch.c). */
typedef struct grid_table {
    grid_slot *slots; /* (NULL for none: capacity 0) */
    uint32_t capacity;
    bool replaced; /* a growth replaced it */
} grid_table;

/* A batch's journal (grid_batch.c): what it did, in order, to be undone whole if it fails. */
typedef enum grid_undo_kind { UNDO_INSERT, UNDO_TABLE, UNDO_STORE } grid_undo_kind;

typedef struct grid_undo {
    grid_undo_kind kind;
    int32_t id;       /* UNDO_INSERT: the proxy; UNDO_STORE: the kept store's index */
    grid_table table; /* UNDO_TABLE: the table a growth replaced */
} grid_undo;

/* A store a batch replaced (a rebuild, a first guess at the cell size), and the marks that were
 * the journal's while it was the grid's. */
typedef struct grid_kept_store {
    grid_store store;
    uint32_t record_mark, chunk_mark;
} grid_kept_store;

#define JOURNAL_INLINE 8 /* entries a journal holds without asking for memory (a shape's batch: 2) */

typedef struct grid_journal {
    bool open;
    grid_undo *undo; /* inline_undo, or memory of its own once that is too small */
    int32_t count, capacity;
    grid_undo inline_undo[JOURNAL_INLINE];
    grid_kept_store *stores;
    int32_t store_count, store_capacity;
    /* the store's record and chunk high marks when it became the grid's (the batch's start or
       its replacement): what an insert took above them came from the high marks */
    uint32_t record_mark, chunk_mark;
    /* the grid as the batch found it */
    int32_t high, moved_count, next_size_check, rebuilds;
    cell_rect bounds[LEVEL_COUNT]; /* (the store's levels' bounds only grow) */
} grid_journal;

/* The changes open undoable moves made to a table that held cells (grid_undo.c): each slot as
 * it was before a change, in order, as far as the log has room; then the whole table, once. */
typedef struct grid_slot_change {
    uint32_t at;
    grid_slot was;
} grid_slot_change;

typedef struct grid_table_log {
    grid_slot_change *changes;
    int32_t count, capacity;
    grid_slot *copy; /* copy_capacity slots */
    uint32_t copy_capacity;
    bool copied;     /* the table as it was when the log ran out of room */
} grid_table_log;

/* Open undoable moves (grid_undo.c): what the moves' notes do not say, kept from the open.
 * Memory kept between opens: the log's. */
typedef struct grid_undo_state {
    bool open;
    bool table_held_cells; /* at the open */
    grid_table kept;       /* the table at the open, kept when a growth replaced it (kept.replaced) */
    grid_table_log log;
    cell_rect bounds[LEVEL_COUNT];
} grid_undo_state;

struct rc_grid {
    rc_allocator allocator;
    /* queries running a caller's callback: while > 0 every change is refused (a callback that
       removed the proxy being reported would pull the cell out from under the walk). Atomic:
       queries on several threads count at once. */
    atomic_int locks;
    bool automatic;
    grid_store store;
    grid_span *spans;
    grid_proxy *proxies;
    int32_t *users;   /* apart from the proxies: queries read only these; the free list's links */
    int32_t *moved;   /* ids moved since the last update_pairs; as long as the proxy arrays */
    rc_aabb *befores; /* per moved proxy: its box when the moves were last forgotten (NO_BOX: new) */
    int32_t capacity; /* of the proxy arrays */
    int32_t high;     /* slots ever handed out */
    int32_t free_list;
    int32_t live;
    int32_t statics; /* live proxies whose entries hold their boxes */
    int32_t followers; /* live pieces after the first of a proxy of pieces (rc_grid_proxy_count: live - followers) */
    int32_t moved_count;
    int32_t size_bins[SIZE_BINS];
    int32_t next_size_check;
    int32_t rebuilds;
    int32_t peak_live; /* the most proxies alive since memory was last given back */
    grid_journal journal; /* an open batch's (grid_batch.c) */
    grid_undo_state undo; /* open undoable moves' (grid_undo.c) */
};

static inline void lock(const rc_grid *grid) { atomic_fetch_add_explicit(&((rc_grid *)grid)->locks, 1, memory_order_relaxed); }
static inline void unlock(const rc_grid *grid) { atomic_fetch_sub_explicit(&((rc_grid *)grid)->locks, 1, memory_order_relaxed); }
/* May the grid change now? (No NULL, no callback running.) */
static inline bool changeable(const rc_grid *grid) {
    return grid != NULL && atomic_load_explicit(&((rc_grid *)grid)->locks, memory_order_relaxed) == 0;
}

/* ---- small pieces ------------------------------------------------------------------------- */

static inline int32_t cell_coord(float v) {
    if (!(v > -(float)CELL_LIMIT)) {
        return -CELL_LIMIT;
    }
    if (v >= (float)CELL_LIMIT) {
        return CELL_LIMIT;
    }
    int32_t i = (int32_t)v;
    /* floor without a branch: the sign of a query's coordinates is a coin toss, and a
       mispredicted branch here cost a ray more than its whole setup */
    return i - (int32_t)(v < (float)i);
}

/* cell_coord of the box's four coordinates on the level. With SSE2 the four go together: the
 * same products, clamped to +-CELL_LIMIT (a NaN to -CELL_LIMIT, as cell_coord does: max_ps
 * returns its second operand for a NaN), truncated, and one less where truncation went up. The
 * same integers as cell_coord's; every grid move, pair scan and box query works out a few of
 * these (3% of a rain's first 270 steps, at about ten instructions a coordinate). */
static inline cell_rect rect_of(const grid_level *level, rc_aabb box) {
#if RC_SIMD_SSE2
    _Static_assert(sizeof(rc_aabb) == 4 * sizeof(float), "rc_aabb is lower.x, lower.y, upper.x, upper.y");
    __m128 v;
    memcpy(&v, &box, sizeof v); /* (one load where the box is in memory, a grid span's) */
    v = _mm_mul_ps(v, _mm_set1_ps(level->inv));
    v = _mm_min_ps(_mm_max_ps(v, _mm_set1_ps(-(float)CELL_LIMIT)), _mm_set1_ps((float)CELL_LIMIT));
    __m128i i = _mm_cvttps_epi32(v);
    i = _mm_add_epi32(i, _mm_castps_si128(_mm_cmplt_ps(v, _mm_cvtepi32_ps(i))));
    int32_t c[4];
    _mm_storeu_si128((__m128i *)(void *)c, i);
    cell_rect r = {c[0], c[1], c[2], c[3]};
#else
    cell_rect r = {cell_coord(box.lower.x * level->inv), cell_coord(box.lower.y * level->inv),
                   cell_coord(box.upper.x * level->inv), cell_coord(box.upper.y * level->inv)};
#endif
    return r;
}

static inline bool rect_contains(cell_rect r, int32_t x, int32_t y) { return r.lx <= x && x <= r.hx && r.ly <= y && y <= r.hy; }

/* The entry of proxy id in cell (x, y) of its rectangle r (id may carry ENTRY_MOBILE). */
static inline uint32_t entry_of(uint32_t id, cell_rect r, int32_t x, int32_t y) {
    return id | (r.lx < x ? ENTRY_LEFT : 0u) | (r.hx > x ? ENTRY_RIGHT : 0u) | (r.ly < y ? ENTRY_DOWN : 0u) |
           (r.hy > y ? ENTRY_UP : 0u);
}

/* The box relative to cell (x, y) of a level with cells of the given size, in 1/16384ths of a
 * cell from one cell below and left of it, rounded outwards by a step more. Computed in double,
 * where box / size - x is exact enough; false when it does not fit (the top level, whose cell
 * is infinite, or coordinates past the saturation of cell numbers). */
static inline bool quantize(rc_aabb b, float size, int32_t x, int32_t y, uint16_t q[4]) {
    if (!(size < INFINITY)) {
        return false;
    }
    const double rel[4] = {(double)b.lower.x / size - x, (double)b.lower.y / size - y,
                           (double)b.upper.x / size - x, (double)b.upper.y / size - y};
    double lo_x = floor((rel[0] + 1.0) * QUANTA) - 1.0, lo_y = floor((rel[1] + 1.0) * QUANTA) - 1.0;
    double hi_x = ceil((rel[2] + 1.0) * QUANTA) + 1.0, hi_y = ceil((rel[3] + 1.0) * QUANTA) + 1.0;
    if (!(lo_x >= 0.0 && lo_y >= 0.0 && hi_x <= 65535.0 && hi_y <= 65535.0)) {
        return false;
    }
    q[0] = (uint16_t)lo_x;
    q[1] = (uint16_t)lo_y;
    q[2] = (uint16_t)hi_x;
    q[3] = (uint16_t)hi_y;
    return true;
}

/* Back to world coordinates (in float; the ray walk's margin covers its roundings). */
static inline rc_aabb dequantize(const uint16_t q[4], float size, int32_t x, int32_t y) {
    const float step = (float)(1.0 / QUANTA);
    float fx = (float)x - 1.0f, fy = (float)y - 1.0f;
    rc_aabb b = {{(fx + step * (float)q[0]) * size, (fy + step * (float)q[1]) * size},
                 {(fx + step * (float)q[2]) * size, (fy + step * (float)q[3]) * size}};
    return b;
}

static inline bool rect_equal(cell_rect a, cell_rect b) { return a.lx == b.lx && a.ly == b.ly && a.hx == b.hx && a.hy == b.hy; }

static inline int64_t rect_cells(cell_rect r) { return ((int64_t)r.hx - r.lx + 1) * ((int64_t)r.hy - r.ly + 1); }

static inline int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

/* Plain comparisons (fmaxf and fminf are library calls unless the compiler may ignore NaNs).
 * Like them, a NaN in b leaves a: the running value is always passed first. */
static inline float max_f(float a, float b) { return b > a ? b : a; }
static inline float min_f(float a, float b) { return b < a ? b : a; }

static inline float box_size(rc_aabb b) { return max_f(b.upper.x - b.lower.x, b.upper.y - b.lower.y); }

/* The level whose cells are at least as large as the box. */
/* The level whose cells are at least as large as the box, and the box's rectangle of cells
 * there. A box as large as a cell covers two of them, never three, unless rounding of the
 * cell numbers says otherwise (cell sizes that are not powers of two): then the next level. */
static inline int32_t place_of(const grid_store *s, rc_aabb box, cell_rect *rect) {
    float size = box_size(box);
    int32_t l = 0;
    while (l + 1 < LEVEL_COUNT && s->levels[l].size < size) {
        ++l;
    }
    for (;;) {
        *rect = rect_of(&s->levels[l], box);
        if (((int64_t)rect->hx - rect->lx <= 1 && (int64_t)rect->hy - rect->ly <= 1) || l + 1 == LEVEL_COUNT) {
            return l;
        }
        ++l;
    }
}

static inline int32_t level_for(const grid_store *s, rc_aabb box) {
    cell_rect r;
    return place_of(s, box, &r);
}

/* floor(log2(size)) shifted into [0, SIZE_BINS): the histogram behind the automatic size. */
static inline int32_t size_bin(float size) {
    if (!(size > 0.0f)) {
        return 0;
    }
    uint32_t bits;
    memcpy(&bits, &size, sizeof bits);
    int32_t e = (int32_t)((bits >> 23) & 0xffu) - 127;
    e += SIZE_BINS / 2;
    return e < 0 ? 0 : (e >= SIZE_BINS ? SIZE_BINS - 1 : e);
}

static inline float power_of_two(int32_t e) {
    float v = 1.0f;
    for (; e > 0; --e) {
        v *= 2.0f;
    }
    for (; e < 0; ++e) {
        v *= 0.5f;
    }
    return v;
}

static inline uint32_t cell_hash(int32_t level, int32_t x, int32_t y) {
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u ^ (uint32_t)level * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

static inline uint32_t cell_count(const grid_cell *c) { return c->meta >> 6; }
static inline int32_t cell_level(const grid_cell *c) { return (int32_t)(c->meta & 63u); }

static inline bool box_overlaps(rc_aabb a, rc_aabb b) { return rc_aabb_overlaps(a, b); }

/* Is id a live proxy of the grid (not NULL, in range, not a free slot)? */
static inline bool is_live(const rc_grid *grid, int32_t id) {
    return grid != NULL && id >= 0 && id < grid->high && grid->proxies[id].level >= 0;
}

/* Are the pieces of the proxy of pieces from first on in order (grid_pieces.c)? */
bool rc_grid_chain_in_order(const rc_grid *grid, int32_t first);

/* Is proxy id a piece after one that overlaps the box too (grid_pieces.c: a box query offers a
 * proxy of pieces from the first piece it overlaps; the ones it overlaps run one after another)? */
static inline bool piece_before_overlaps(const rc_grid *grid, uint32_t id, rc_aabb box) {
    int32_t prev = grid->proxies[id].prev_piece;
    return prev >= 0 && box_overlaps(grid->spans[prev].box, box);
}

/* ---- finding cells -------------------------------------------------------------------------- */

/* The slot of the cell at (dx, dy) from the window's corner, inside it. */
static inline uint32_t tile_slot(const grid_window *w, uint32_t dx, uint32_t dy) {
    return (((dy >> 2) * ((uint32_t)w->w >> 2) + (dx >> 2)) << 4) | ((dy & 3u) << 2) | (dx & 3u);
}

/* The window slot of a cell, or NONE when the cell lies outside the level's window. */
static inline uint32_t window_slot(const grid_window *w, int32_t x, int32_t y) {
    int64_t dx = (int64_t)x - w->x0, dy = (int64_t)y - w->y0;
    if (dx < 0 || dy < 0 || dx >= w->w || dy >= w->h) {
        return NONE;
    }
    return tile_slot(w, (uint32_t)dx, (uint32_t)dy);
}

/* The table slot of a hashed cell, or NONE. */
static inline uint32_t find_hashed(const grid_store *s, int32_t level, int32_t x, int32_t y) {
    if (s->capacity == 0) {
        return NONE;
    }
    uint32_t mask = s->capacity - 1;
    uint32_t i = cell_hash(level, x, y) & mask;
    for (;;) {
        const grid_slot *t = &s->table[i];
        if (t->level == 0) {
            return NONE;
        }
        if (t->x == x && t->y == y && t->level == (uint32_t)level + 1u) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/* The occupied cell (level, x, y), or NULL. */
static inline const grid_cell *cell_lookup(const grid_store *s, int32_t level, int32_t x, int32_t y) {
    const grid_window *w = &s->levels[level].window;
    uint32_t slot = window_slot(w, x, y);
    if (slot != NONE) {
        uint32_t r = w->slots[slot];
        return r != 0 ? &s->records[r - 1] : NULL;
    }
    if (s->levels[level].hashed == 0) {
        return NULL;
    }
    uint32_t i = find_hashed(s, level, x, y);
    return i != NONE ? &s->records[s->table[i].record] : NULL;
}

/* Entries in the newest chunk of a cell holding count entries (count > INLINE_ENTRIES). */
static inline uint32_t head_fill(uint32_t count) { return (count - INLINE_ENTRIES - 1) % CHUNK_ENTRIES + 1; }

/* Run the statements that follow (variadic, so that they may hold commas) for every entry of
 * a cell: raw (the id with its bits: mask with ENTRY_ID_MASK) and box (its quantised box,
 * meaningful when raw has ENTRY_BOXED). */
#define FOR_EACH_ENTRY(store, cell, raw, box, ...)                                                                     \
    do {                                                                                                               \
        uint32_t count_ = cell_count(cell);                                                                            \
        uint32_t inline_ = count_ < INLINE_ENTRIES ? count_ : INLINE_ENTRIES;                                          \
        for (uint32_t i_ = 0; i_ < inline_; ++i_) {                                                                    \
            uint32_t raw = (cell)->entries[i_];                                                                        \
            const uint16_t *box = (cell)->boxes[i_];                                                                   \
            (void)box;                                                                                                 \
            __VA_ARGS__                                                                                                \
        }                                                                                                              \
        uint32_t n_ = count_ > INLINE_ENTRIES ? head_fill(count_) : 0;                                                 \
        for (uint32_t k_ = (cell)->chunk; k_ != NONE; k_ = (store)->chunks[k_].next, n_ = CHUNK_ENTRIES) {             \
            for (uint32_t i_ = 0; i_ < n_; ++i_) {                                                                     \
                uint32_t raw = (store)->chunks[k_].entries[i_];                                                        \
                const uint16_t *box = (store)->chunks[k_].boxes[i_];                                                   \
                (void)box;                                                                                             \
                __VA_ARGS__                                                                                            \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

/* The levels a walk that skips (or not) mobile proxies looks at. */
static inline uint64_t levels_for(const grid_store *s, uint32_t skip) {
    return (skip & ENTRY_MOBILE) != 0u ? s->fixed_levels : s->used_levels;
}

/* What a visit of cells calls for each occupied cell; false stops the visit. */
typedef bool cell_visit_fn(const grid_cell *cell, void *context);

/* A visit of a rectangle of cells reports each proxy once, from the lowest cell of the overlap
 * of the rectangle and the proxy's: a cell on the rectangle's left edge reports the entries whose
 * proxies go on to the left, and one on its bottom edge those that go on down. Worked out once
 * per cell (edges_of), asked per entry (first_in_rect). */
typedef struct rect_edges {
    bool left, bottom;
} rect_edges;

static inline rect_edges edges_of(cell_rect r, const grid_cell *cell) {
    rect_edges e = {r.lx == cell->x, r.ly == cell->y};
    return e;
}

static inline bool first_in_rect(uint32_t raw, rect_edges at) {
    return (!(raw & ENTRY_LEFT) || at.left) && (!(raw & ENTRY_DOWN) || at.bottom);
}

/* The rectangle of cells of a live proxy on its level. */
static inline cell_rect proxy_rect(const rc_grid *grid, uint32_t id) {
    const grid_proxy *p = &grid->proxies[id];
    cell_rect r = {p->lx, p->ly, p->lx + (p->wide & 1), p->ly + ((p->wide >> 1) & 1)};
    return r;
}

static inline void set_proxy_rect(grid_proxy *p, cell_rect r) {
    p->lx = r.lx;
    p->ly = r.ly;
    p->wide = (uint8_t)((r.hx > r.lx ? 1 : 0) | (r.hy > r.ly ? 2 : 0));
}

/* A proxy's id as its entries hold it: with ENTRY_MOBILE when it is mobile. */
static inline uint32_t entry_id(const rc_grid *grid, int32_t id) {
    return (uint32_t)id | (grid->proxies[id].mobile ? ENTRY_MOBILE : 0u);
}

/* ---- shared between the grid's files -------------------------------------------------------- */

/* grid_store.c: the cells, their entries, and the windows and hash table that find them. */
void rc_grid_store_init(grid_store *s, float base_size);
size_t rc_grid_window_bytes(const grid_window *w);
void rc_grid_store_free(const rc_allocator *a, grid_store *s);
/* Room for `additions` more entries, `hashed` of them outside the windows: all the memory had
 * before anything changes (false: nothing changed). A table that grows gives its old slots and
 * capacity to *kept when kept is not NULL (else they are freed; kept->replaced says whether). */
bool rc_grid_store_reserve_split(const rc_allocator *a, grid_store *s, int64_t additions, int64_t hashed,
                                 grid_table *kept);
bool rc_grid_store_reserve(const rc_allocator *a, grid_store *s, int64_t additions);
grid_cell *rc_grid_cell_open(grid_store *s, int32_t level, int32_t x, int32_t y);
/* Take back the last entry added to cell (level, x, y), the one rc_grid_rect_add added last:
 * the chunk it took, and the cell when it opened it, go back where they came from (records and
 * chunks at or above the marks to the high marks, the others to the free lists' heads), so
 * that taking back a batch's entries in the reverse order leaves the store as it was. */
void rc_grid_cell_pop(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t record_mark, uint32_t chunk_mark);
/* Every level's bounds made tight again from its cells (a loaded store: its levels' bounds are
 * not saved). */
void rc_grid_store_bound_levels(grid_store *s);
/* Add the proxy's entries to the cells of r outside skip (box: its box when boxed, else NULL);
 * note, when not NULL, gets where each cell's record and chunk came from (from_high). */
void rc_grid_rect_add(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t id, const rc_aabb *box,
                      rc_grid_move_note *note);
void rc_grid_rect_refresh(grid_store *s, int32_t level, cell_rect r, cell_rect kept, uint32_t id, const rc_aabb *box);
/* Take the proxy's entries out of the cells of r outside skip (each cell's last entry fills the
 * hole); note, when not NULL, gets where each was (hole_chunk, hole_slot). */
void rc_grid_rect_remove(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t entry,
                         rc_grid_move_note *note);
/* Put an entry back into cell (level, x, y) where rc_grid_rect_remove took it from (the cell as
 * that left it): the cell's last entry, which filled the hole, goes back to the end. */
void rc_grid_cell_put_back(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry, const uint16_t q[4],
                           uint32_t hole_chunk, uint32_t hole_slot);
/* The entry and quantised box of a proxy in cell (x, y) of its rectangle r (box NULL: not boxed). */
static inline uint32_t rc_grid_make_entry(const grid_store *s, int32_t level, uint32_t id, cell_rect r,
                                          const rc_aabb *box, int32_t x, int32_t y, uint16_t q[4]) {
    uint32_t entry = entry_of(id, r, x, y);
    memset(q, 0, sizeof(uint16_t) * 4);
    if (box != NULL && quantize(*box, s->levels[level].size, x, y, q)) {
        entry |= ENTRY_BOXED;
    }
    return entry;
}
int64_t rc_grid_rect_additions(cell_rect r, const cell_rect *skip);
void rc_grid_level_count(grid_store *s, int32_t level_index, int32_t delta, bool mobile);
bool rc_grid_visit_level(const grid_store *s, int32_t level, cell_visit_fn *fn, void *context);
/* grid_query.c */
bool rc_grid_visit_rect(const grid_store *s, int32_t level, cell_rect r, cell_visit_fn *fn, void *context);
/* grid.c: the proxy arrays grown to hold `needed` slots (all of them, or none). */
bool rc_grid_reserve_proxies(rc_grid *grid, int32_t needed);
/* grid_batch.c: the journal of an open batch (each a no-op, or true, without one). Room for n
 * more entries, and for a store replaced; false when memory runs out. */
bool rc_grid_journal_reserve(rc_grid *grid, int32_t n);
bool rc_grid_journal_reserve_store(rc_grid *grid);
/* Noted (room reserved): an insert; a table a growth replaced; a store replaced (its record
 * moved into the journal, the grid's store now the one that replaced it). */
void rc_grid_journal_insert(rc_grid *grid, int32_t id);
void rc_grid_journal_table(rc_grid *grid, grid_table kept);
void rc_grid_journal_store(rc_grid *grid, const grid_store *replaced);
/* grid_undo.c: a table a growth replaced while undoable moves are open, kept when it is the
 * open's (else freed). */
void rc_grid_undo_keep_table(rc_grid *grid, grid_table kept);
/* The log's memory kept between opens given back. */
void rc_grid_undo_free_log(rc_grid *grid);

#endif
