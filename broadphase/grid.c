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
 * change needs is known before it is made: every operation reserves first and then changes
 * the grid, and rc_grid_reserve lets a caller make a batch of moves that cannot fail. */
#include "broadphase/broadphase.h"

#include "core/memory.h"

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

#if defined(__GNUC__) || defined(__clang__)
#define RC_PREFETCH(p) __builtin_prefetch(p)
#else
#define RC_PREFETCH(p) ((void)(p))
#endif

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

/* A proxy's bookkeeping, 12 bytes. Its rectangle of cells is kept as its lower-left cell and
 * whether it reaches one further on each axis (a proxy's cells are at least its size, so it
 * covers at most 2 x 2 of them). */
typedef struct grid_proxy {
    int32_t lx, ly; /* lower-left cell of its rectangle */
    int8_t level;  /* -1 while the slot is free */
    uint8_t wide;  /* bit 0: the rectangle is 2 cells wide, bit 1: 2 cells tall */
    bool moved;
    bool is_static; /* its entries hold its box */
    bool mobile;    /* its entries say so (rc_grid_set_mobile) */
} grid_proxy;

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
    int32_t moved_count;
    int32_t size_bins[SIZE_BINS];
    int32_t next_size_check;
    int32_t rebuilds;
    int32_t peak_live; /* the most proxies alive since memory was last given back */
};

static void lock(const rc_grid *grid) { atomic_fetch_add_explicit(&((rc_grid *)grid)->locks, 1, memory_order_relaxed); }
static void unlock(const rc_grid *grid) { atomic_fetch_sub_explicit(&((rc_grid *)grid)->locks, 1, memory_order_relaxed); }
/* May the grid change now? (No NULL, no callback running.) */
static bool changeable(const rc_grid *grid) {
    return grid != NULL && atomic_load_explicit(&((rc_grid *)grid)->locks, memory_order_relaxed) == 0;
}

/* ---- small pieces ------------------------------------------------------------------------- */

static int32_t cell_coord(float v) {
    if (!(v > -(float)CELL_LIMIT)) {
        return -CELL_LIMIT;
    }
    if (v >= (float)CELL_LIMIT) {
        return CELL_LIMIT;
    }
    int32_t i = (int32_t)v;
    return v < (float)i ? i - 1 : i;
}

static cell_rect rect_of(const grid_level *level, rc_aabb box) {
    cell_rect r = {cell_coord(box.lower.x * level->inv), cell_coord(box.lower.y * level->inv),
                   cell_coord(box.upper.x * level->inv), cell_coord(box.upper.y * level->inv)};
    return r;
}

static bool rect_contains(cell_rect r, int32_t x, int32_t y) { return r.lx <= x && x <= r.hx && r.ly <= y && y <= r.hy; }

/* The entry of proxy id in cell (x, y) of its rectangle r (id may carry ENTRY_MOBILE). */
static uint32_t entry_of(uint32_t id, cell_rect r, int32_t x, int32_t y) {
    return id | (r.lx < x ? ENTRY_LEFT : 0u) | (r.hx > x ? ENTRY_RIGHT : 0u) | (r.ly < y ? ENTRY_DOWN : 0u) |
           (r.hy > y ? ENTRY_UP : 0u);
}

/* The box relative to cell (x, y) of a level with cells of the given size, in 1/16384ths of a
 * cell from one cell below and left of it, rounded outwards by a step more. Computed in double,
 * where box / size - x is exact enough; false when it does not fit (the top level, whose cell
 * is infinite, or coordinates past the saturation of cell numbers). */
static bool quantize(rc_aabb b, float size, int32_t x, int32_t y, uint16_t q[4]) {
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
static rc_aabb dequantize(const uint16_t q[4], float size, int32_t x, int32_t y) {
    const float step = (float)(1.0 / QUANTA);
    float fx = (float)x - 1.0f, fy = (float)y - 1.0f;
    rc_aabb b = {{(fx + step * (float)q[0]) * size, (fy + step * (float)q[1]) * size},
                 {(fx + step * (float)q[2]) * size, (fy + step * (float)q[3]) * size}};
    return b;
}

static bool rect_equal(cell_rect a, cell_rect b) { return a.lx == b.lx && a.ly == b.ly && a.hx == b.hx && a.hy == b.hy; }

static int64_t rect_cells(cell_rect r) { return ((int64_t)r.hx - r.lx + 1) * ((int64_t)r.hy - r.ly + 1); }

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

/* Plain comparisons (fmaxf and fminf are library calls unless the compiler may ignore NaNs).
 * Like them, a NaN in b leaves a: the running value is always passed first. */
static float max_f(float a, float b) { return b > a ? b : a; }
static float min_f(float a, float b) { return b < a ? b : a; }

static float box_size(rc_aabb b) { return max_f(b.upper.x - b.lower.x, b.upper.y - b.lower.y); }

/* The level whose cells are at least as large as the box. */
/* The level whose cells are at least as large as the box, and the box's rectangle of cells
 * there. A box as large as a cell covers two of them, never three, unless rounding of the
 * cell numbers says otherwise (cell sizes that are not powers of two): then the next level. */
static int32_t place_of(const grid_store *s, rc_aabb box, cell_rect *rect) {
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

static int32_t level_for(const grid_store *s, rc_aabb box) {
    cell_rect r;
    return place_of(s, box, &r);
}

/* floor(log2(size)) shifted into [0, SIZE_BINS): the histogram behind the automatic size. */
static int32_t size_bin(float size) {
    if (!(size > 0.0f)) {
        return 0;
    }
    uint32_t bits;
    memcpy(&bits, &size, sizeof bits);
    int32_t e = (int32_t)((bits >> 23) & 0xffu) - 127;
    e += SIZE_BINS / 2;
    return e < 0 ? 0 : (e >= SIZE_BINS ? SIZE_BINS - 1 : e);
}

static float power_of_two(int32_t e) {
    float v = 1.0f;
    for (; e > 0; --e) {
        v *= 2.0f;
    }
    for (; e < 0; ++e) {
        v *= 0.5f;
    }
    return v;
}

static uint32_t cell_hash(int32_t level, int32_t x, int32_t y) {
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u ^ (uint32_t)level * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

static uint32_t cell_count(const grid_cell *c) { return c->meta >> 6; }
static int32_t cell_level(const grid_cell *c) { return (int32_t)(c->meta & 63u); }

static bool box_overlaps(rc_aabb a, rc_aabb b) { return rc_aabb_overlaps(a, b); }

/* ---- cell store ----------------------------------------------------------------------------- */

static void store_init(grid_store *s, float base_size) {
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

static size_t window_bytes(const grid_window *w) { return sizeof(uint32_t) * (size_t)w->w * (size_t)w->h; }

static void store_free(const rc_allocator *a, grid_store *s) {
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        rc_mem_free(a, s->levels[l].window.slots, window_bytes(&s->levels[l].window));
    }
    rc_mem_free(a, s->table, sizeof(grid_slot) * s->capacity);
    rc_mem_free(a, s->records, sizeof(grid_cell) * (size_t)s->record_capacity);
    rc_mem_free(a, s->chunks, sizeof(grid_chunk) * (size_t)s->chunk_capacity);
    store_init(s, s->base_size);
}

/* The slot of the cell at (dx, dy) from the window's corner, inside it. */
static uint32_t tile_slot(const grid_window *w, uint32_t dx, uint32_t dy) {
    return (((dy >> 2) * ((uint32_t)w->w >> 2) + (dx >> 2)) << 4) | ((dy & 3u) << 2) | (dx & 3u);
}

/* The window slot of a cell, or NONE when the cell lies outside the level's window. */
static uint32_t window_slot(const grid_window *w, int32_t x, int32_t y) {
    int64_t dx = (int64_t)x - w->x0, dy = (int64_t)y - w->y0;
    if (dx < 0 || dy < 0 || dx >= w->w || dy >= w->h) {
        return NONE;
    }
    return tile_slot(w, (uint32_t)dx, (uint32_t)dy);
}

/* The table slot of a hashed cell, or NONE. */
static uint32_t find_hashed(const grid_store *s, int32_t level, int32_t x, int32_t y) {
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
static const grid_cell *cell_lookup(const grid_store *s, int32_t level, int32_t x, int32_t y) {
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

/* Room for `additions` more proxy-in-cell entries, of which `hashed` may fall outside the
 * windows: each may open a cell (a record, and a table slot if hashed) and take a chunk. */
static bool store_reserve_split(const rc_allocator *a, grid_store *s, int64_t additions, int64_t hashed) {
    uint64_t needed = 2u * ((uint64_t)s->hashed + (uint64_t)hashed);
    if (hashed > 0 && needed > s->capacity) {
        uint64_t capacity = s->capacity ? s->capacity : 64;
        while (capacity < needed) {
            capacity *= 2;
        }
        if (capacity > (1u << 30)) {
            return false;
        }
        grid_slot *table = rc_mem_alloc(a, sizeof(grid_slot) * capacity);
        if (table == NULL) {
            return false;
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
        rc_mem_free(a, s->table, sizeof(grid_slot) * s->capacity);
        s->table = table;
        s->capacity = (uint32_t)capacity;
    }
    if (additions > INT32_MAX / 4) {
        return false;
    }
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

/* The same when any of them may fall outside the windows. */
static bool store_reserve(const rc_allocator *a, grid_store *s, int64_t additions) {
    return store_reserve_split(a, s, additions, additions);
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

/* Entries in the newest chunk of a cell holding count entries (count > INLINE_ENTRIES). */
static uint32_t head_fill(uint32_t count) { return (count - INLINE_ENTRIES - 1) % CHUNK_ENTRIES + 1; }

/* The cell (level, x, y), opened if it is not occupied yet; the room was reserved. */
static grid_cell *cell_open(grid_store *s, int32_t level, int32_t x, int32_t y) {
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
    s->cells++;
    lv->cells++;
    return c;
}

/* Add an entry (with its neighbour and boxed bits) and its quantised box. */
static void cell_add(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry, const uint16_t q[4]) {
    grid_cell *c = cell_open(s, level, x, y);
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
            s->table[hole] = *t;
            t->level = 0;
            hole = j;
        }
    }
}

/* Remove proxy `entry` (an id) from a cell. */
static void cell_remove(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry) {
    grid_level *lv = &s->levels[level];
    uint32_t slot = window_slot(&lv->window, x, y);
    uint32_t table_slot = NONE;
    grid_cell *c;
    if (slot != NONE) {
        uint32_t r = lv->window.slots[slot];
        if (r == 0) {
            return;
        }
        c = &s->records[r - 1];
    } else {
        table_slot = find_hashed(s, level, x, y);
        if (table_slot == NONE) {
            return;
        }
        c = &s->records[s->table[table_slot].record];
    }
    uint32_t count = cell_count(c);
    /* the last entry fills the hole */
    uint32_t *last, *hole = NULL;
    uint16_t *last_box, *hole_box = NULL;
    if (count <= INLINE_ENTRIES) {
        last = &c->entries[count - 1];
        last_box = c->boxes[count - 1];
    } else {
        last = &s->chunks[c->chunk].entries[head_fill(count) - 1];
        last_box = s->chunks[c->chunk].boxes[head_fill(count) - 1];
    }
    for (uint32_t i = 0; i < count && i < INLINE_ENTRIES && hole == NULL; ++i) {
        if ((c->entries[i] & ENTRY_ID_MASK) == entry) {
            hole = &c->entries[i];
            hole_box = c->boxes[i];
        }
    }
    for (uint32_t k = c->chunk, n = count > INLINE_ENTRIES ? head_fill(count) : 0; k != NONE && hole == NULL;
         k = s->chunks[k].next, n = CHUNK_ENTRIES) {
        for (uint32_t i = 0; i < n; ++i) {
            if ((s->chunks[k].entries[i] & ENTRY_ID_MASK) == entry) {
                hole = &s->chunks[k].entries[i];
                hole_box = s->chunks[k].boxes[i];
                break;
            }
        }
    }
    if (hole == NULL) {
        return;
    }
    *hole = *last;
    memmove(hole_box, last_box, sizeof(uint16_t) * 4);
    if (count > INLINE_ENTRIES && head_fill(count) == 1) {
        uint32_t k = c->chunk;
        c->chunk = s->chunks[k].next;
        chunk_give(s, k);
    }
    c->meta -= 1u << 6;
    if (count > 1) {
        return;
    }
    s->cells--;
    lv->cells--;
    if (slot != NONE) {
        uint32_t r = lv->window.slots[slot] - 1;
        lv->window.slots[slot] = 0;
        record_give(s, r);
    } else {
        record_give(s, s->table[table_slot].record);
        s->hashed--;
        lv->hashed--;
        table_delete(s, table_slot);
    }
}

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

/* The entry and quantised box of a proxy in cell (x, y); box NULL: not boxed. */
static uint32_t make_entry(const grid_store *s, int32_t level, uint32_t id, cell_rect r, const rc_aabb *box, int32_t x,
                           int32_t y, uint16_t q[4]) {
    uint32_t entry = entry_of(id, r, x, y);
    memset(q, 0, sizeof(uint16_t) * 4);
    if (box != NULL && quantize(*box, s->levels[level].size, x, y, q)) {
        entry |= ENTRY_BOXED;
    }
    return entry;
}

static void rect_add(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t id, const rc_aabb *box) {
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                uint16_t q[4];
                uint32_t entry = make_entry(s, level, id, r, box, x, y, q);
                cell_add(s, level, x, y, entry, q);
            }
        }
    }
}

/* The proxy's rectangle is now r (or its box changed, or whether it is boxed or mobile) and it
 * stays in the cells of r inside kept: rewrite its entries there. box NULL: not boxed; id with
 * the mobile bit when it is mobile. */
static void rect_refresh(grid_store *s, int32_t level, cell_rect r, cell_rect kept, uint32_t id, const rc_aabb *box) {
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (!rect_contains(kept, x, y)) {
                continue;
            }
            grid_cell *c = (grid_cell *)cell_lookup(s, level, x, y);
            uint32_t count = c != NULL ? cell_count(c) : 0;
            uint16_t q[4];
            uint32_t entry = make_entry(s, level, id, r, box, x, y, q);
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

static void rect_remove(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t entry) {
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                cell_remove(s, level, x, y, entry);
            }
        }
    }
}

/* How many cells of r lie outside skip (all of them when skip is NULL). */
static int64_t rect_additions(cell_rect r, const cell_rect *skip) {
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
static void level_count(grid_store *s, int32_t level_index, int32_t delta, bool mobile) {
    grid_level *level = &s->levels[level_index];
    level->proxies += delta;
    level->fixed += mobile ? 0 : delta;
    set_level_bit(&s->used_levels, level_index, level->proxies > 0);
    set_level_bit(&s->fixed_levels, level_index, level->fixed > 0);
}

/* The levels a walk that skips (or not) mobile proxies looks at. */
static uint64_t levels_for(const grid_store *s, uint32_t skip) {
    return (skip & ENTRY_MOBILE) != 0u ? s->fixed_levels : s->used_levels;
}

/* Visit every occupied cell of one level, windowed and hashed; false if fn stopped. */
typedef bool cell_visit_fn(const grid_cell *cell, void *context);

static bool visit_level(const grid_store *s, int32_t level, cell_visit_fn *fn, void *context) {
    for (int32_t i = 0; i < s->record_high; ++i) {
        const grid_cell *c = &s->records[i];
        if (c->meta != 0 && cell_level(c) == level && !fn(c, context)) {
            return false;
        }
    }
    return true;
}

/* ---- creation ------------------------------------------------------------------------------- */

static bool reserve_proxies(rc_grid *grid, int32_t needed);

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
    store_init(&grid->store, grid->automatic ? 1.0f : def->cell_size);
    grid->free_list = -1;
    grid->next_size_check = FIRST_SIZE_CHECK;
    if (def->proxy_capacity > 0 && !reserve_proxies(grid, def->proxy_capacity)) {
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
    rc_allocator a = grid->allocator;
    store_free(&a, &grid->store);
    proxy_arrays arrays = grid_arrays(grid);
    free_proxy_arrays(&a, &arrays, grid->capacity);
    rc_mem_free(&a, grid, sizeof *grid);
}

/* Grow the proxy arrays together, or none of them. The moved list is as long as they are, so
 * marking a proxy as moved never allocates. */
static bool reserve_proxies(rc_grid *grid, int32_t needed) {
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

/* A proxy's id as its entries hold it: with ENTRY_MOBILE when it is mobile. */
static uint32_t entry_id(const rc_grid *grid, int32_t id) {
    return (uint32_t)id | (grid->proxies[id].mobile ? ENTRY_MOBILE : 0u);
}

/* The rectangle of cells of a live proxy on its level. */
static cell_rect proxy_rect(const rc_grid *grid, uint32_t id) {
    const grid_proxy *p = &grid->proxies[id];
    cell_rect r = {p->lx, p->ly, p->lx + (p->wide & 1), p->ly + ((p->wide >> 1) & 1)};
    return r;
}

/* Rewrite a live proxy's entries in place from what it is now (boxed when static, with the
 * mobile bit when mobile): its cells stay the same. */
static void rewrite_entries(rc_grid *grid, int32_t id) {
    const grid_proxy *p = &grid->proxies[id];
    cell_rect r = proxy_rect(grid, (uint32_t)id);
    rect_refresh(&grid->store, p->level, r, r, entry_id(grid, id), p->is_static ? &grid->spans[id].box : NULL);
}

static void set_proxy_rect(grid_proxy *p, cell_rect r) {
    p->lx = r.lx;
    p->ly = r.ly;
    p->wide = (uint8_t)((r.hx > r.lx ? 1 : 0) | (r.hy > r.ly ? 2 : 0));
}

static bool is_live(const rc_grid *grid, int32_t id) {
    return grid != NULL && id >= 0 && id < grid->high && grid->proxies[id].level >= 0;
}

/* ---- rebuilding: cell size and windows ------------------------------------------------------- */

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
 * nothing changes. */
static bool rebuild(rc_grid *grid, float base_size) {
    const rc_allocator *a = &grid->allocator;
    grid_store fresh;
    store_init(&fresh, base_size);
    grid_span *spans = rc_mem_alloc(a, sizeof(grid_span) * (size_t)grid->capacity);
    if (spans == NULL && grid->capacity > 0) {
        return false;
    }
    cell_rect bounds[LEVEL_COUNT];
    int64_t entries[LEVEL_COUNT] = {0};
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level < 0) {
            continue;
        }
        int32_t l = level_for(&fresh, grid->spans[id].box);
        cell_rect r = rect_of(&fresh.levels[l], grid->spans[id].box);
        spans[id].box = grid->spans[id].box;
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
        win->slots = rc_mem_alloc(a, window_bytes(win));
        if (win->slots == NULL) {
            win->w = win->h = 0;
            ok = false;
        } else {
            memset(win->slots, 0, window_bytes(win));
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
    if (!ok || !store_reserve_split(a, &fresh, additions, outside)) {
        store_free(a, &fresh);
        rc_mem_free(a, spans, sizeof(grid_span) * (size_t)grid->capacity);
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
                cell_open(&fresh, l, win->x0 + (int32_t)dx, win->y0 + (int32_t)dy);
            }
        }
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level >= 0) {
            int32_t l = level_for(&fresh, spans[id].box);
            cell_rect r = rect_of(&fresh.levels[l], spans[id].box);
            rect_add(&fresh, l, r, NULL, entry_id(grid, id), grid->proxies[id].is_static ? &spans[id].box : NULL);
            level_count(&fresh, l, 1, grid->proxies[id].mobile);
            grid->proxies[id].level = (int8_t)l;
            set_proxy_rect(&grid->proxies[id], r);
        }
    }
    store_free(a, &grid->store);
    rc_mem_free(a, grid->spans, sizeof(grid_span) * (size_t)grid->capacity);
    grid->store = fresh;
    grid->spans = spans;
    grid->rebuilds++;
    return true;
}

/* Have too many cells spilled out of the windows into the hash table? */
static bool windows_stale(const grid_store *s) {
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        const grid_level *lv = &s->levels[__builtin_ctzll(used)];
        if (lv->hashed > 64 && lv->hashed > lv->cells / 8) {
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
    if (!changeable(grid)) {
        return false;
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

int32_t rc_grid_insert(rc_grid *grid, rc_aabb box, int32_t user) {
    if (!changeable(grid) || !rc_aabb_is_valid(box)) {
        return -1;
    }
    if (grid->free_list < 0 && !reserve_proxies(grid, grid->high + 1)) {
        return -1;
    }
    float old_size = grid->store.base_size;
    if (grid->automatic && grid->live == 0 && grid->store.cells == 0) {
        /* the first proxy gives the first guess at the cell size (the store is empty) */
        float guess = cell_size_for_bin(size_bin(box_size(box)));
        if (guess != old_size) {
            store_free(&grid->allocator, &grid->store);
            store_init(&grid->store, guess);
        }
    }
    cell_rect r;
    int32_t l = place_of(&grid->store, box, &r);
    if (!store_reserve(&grid->allocator, &grid->store, rect_cells(r))) {
        if (grid->store.base_size != old_size) {
            store_free(&grid->allocator, &grid->store);
            store_init(&grid->store, old_size);
        }
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
    grid->spans[id].box = box;
    rect_add(&grid->store, l, r, NULL, (uint32_t)id, NULL);
    level_count(&grid->store, l, 1, false);
    grid->size_bins[size_bin(box_size(box))]++;
    grid->live++;
    mark_new(grid, id);
    maybe_rebuild_after_insert(grid);
    return id;
}

int32_t rc_grid_move_additions(const rc_grid *grid, int32_t id, rc_aabb box) {
    if (!is_live(grid, id) || !rc_aabb_is_valid(box)) {
        return 0;
    }
    cell_rect r;
    int32_t l = place_of(&grid->store, box, &r);
    if (l != grid->proxies[id].level) {
        return (int32_t)rect_cells(r);
    }
    cell_rect old = proxy_rect(grid, (uint32_t)id);
    return (int32_t)rect_additions(r, &old);
}

bool rc_grid_reserve(rc_grid *grid, int32_t additions) {
    if (!changeable(grid) || additions < 0) {
        return false;
    }
    return store_reserve(&grid->allocator, &grid->store, additions);
}

bool rc_grid_move(rc_grid *grid, int32_t id, rc_aabb box) {
    if (!changeable(grid) || !is_live(grid, id) || !rc_aabb_is_valid(box)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[id];
    grid_span *span = &grid->spans[id];
    int32_t old_level = p->level;
    cell_rect old_rect = proxy_rect(grid, (uint32_t)id);
    cell_rect r;
    int32_t l = place_of(&grid->store, box, &r);
    const rc_aabb *boxed = p->is_static ? &box : NULL;
    if (l != old_level || !rect_equal(r, old_rect)) {
        const cell_rect *keep_old = l == old_level ? &old_rect : NULL;
        const cell_rect *keep_new = l == old_level ? &r : NULL;
        if (!store_reserve(&grid->allocator, &grid->store, rect_additions(r, keep_old))) {
            return false;
        }
        rect_remove(&grid->store, old_level, old_rect, keep_new, (uint32_t)id);
        rect_add(&grid->store, l, r, keep_old, entry_id(grid, id), boxed);
        if (keep_old != NULL) {
            rect_refresh(&grid->store, l, r, old_rect, entry_id(grid, id), boxed);
        }
        if (l != old_level) {
            level_count(&grid->store, old_level, -1, p->mobile);
            level_count(&grid->store, l, 1, p->mobile);
            p->level = (int8_t)l;
        }
        set_proxy_rect(p, r);
    } else if (boxed != NULL) {
        rect_refresh(&grid->store, l, r, r, entry_id(grid, id), boxed); /* the copies of the box */
    }
    grid->size_bins[size_bin(box_size(span->box))]--;
    grid->size_bins[size_bin(box_size(box))]++;
    mark_moved(grid, id);
    span->box = box;
    return true;
}

bool rc_grid_remove(rc_grid *grid, int32_t id) {
    if (!changeable(grid) || !is_live(grid, id)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[id];
    rect_remove(&grid->store, p->level, proxy_rect(grid, (uint32_t)id), NULL, (uint32_t)id);
    level_count(&grid->store, p->level, -1, p->mobile);
    grid->size_bins[size_bin(box_size(grid->spans[id].box))]--;
    p->level = -1;
    grid->statics -= p->is_static ? 1 : 0;
    p->is_static = false;
    p->mobile = false;
    grid->users[id] = grid->free_list; /* p->moved stays: the id may still be in the moved list */
    grid->free_list = id;
    grid->live--;
    return true;
}

bool rc_grid_set_static(rc_grid *grid, int32_t proxy, bool is_static) {
    if (!changeable(grid) || !is_live(grid, proxy)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[proxy];
    if (p->is_static != is_static) {
        p->is_static = is_static;
        grid->statics += is_static ? 1 : -1;
        rewrite_entries(grid, proxy);
    }
    return true;
}

bool rc_grid_touch(rc_grid *grid, int32_t proxy) {
    if (!changeable(grid) || !is_live(grid, proxy)) {
        return false;
    }
    mark_new(grid, proxy);
    return true;
}

bool rc_grid_set_mobile(rc_grid *grid, int32_t proxy, bool mobile) {
    if (!changeable(grid) || !is_live(grid, proxy)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[proxy];
    if (p->mobile != mobile) {
        level_count(&grid->store, p->level, -1, p->mobile);
        p->mobile = mobile;
        level_count(&grid->store, p->level, 1, p->mobile);
        rewrite_entries(grid, proxy);
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

int32_t rc_grid_get_user(const rc_grid *grid, int32_t proxy) { return is_live(grid, proxy) ? grid->users[proxy] : -1; }

int32_t rc_grid_proxy_count(const rc_grid *grid) { return grid != NULL ? grid->live : 0; }

float rc_grid_cell_size(const rc_grid *grid) { return grid != NULL ? grid->store.base_size : 0.0f; }

/* ---- visiting cells ------------------------------------------------------------------------- */

typedef struct rect_filter {
    cell_rect rect;
    cell_visit_fn *fn;
    void *context;
} rect_filter;

static bool visit_if_inside(const grid_cell *cell, void *context) {
    const rect_filter *f = context;
    return !rect_contains(f->rect, cell->x, cell->y) || f->fn(cell, f->context);
}

/* Visit the occupied cells of rect on a level: by lookup when the rectangle is small, by a
 * sweep over the level when it spans more cells than the level has. False if fn stopped. */
static bool visit_rect(const grid_store *s, int32_t level, cell_rect r, cell_visit_fn *fn, void *context) {
    if (rect_cells(r) > (int64_t)s->levels[level].cells) {
        rect_filter f = {r, fn, context};
        return visit_level(s, level, visit_if_inside, &f);
    }
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            const grid_cell *c = cell_lookup(s, level, x, y);
            if (c != NULL && !fn(c, context)) {
                return false;
            }
        }
    }
    return true;
}

/* ---- box and point queries ------------------------------------------------------------------ */

typedef struct box_query {
    const rc_grid *grid;
    rc_aabb box;
    cell_rect rect;
    uint32_t skip; /* ENTRY_MOBILE: mobile proxies are not offered (nor read); else 0 */
    rc_grid_query_fn *fn;
    void *context;
} box_query;

static bool box_query_cell(const grid_cell *cell, void *context) {
    box_query *q = context;
    const rc_grid *grid = q->grid;
    bool left_edge = q->rect.lx == cell->x, bottom_edge = q->rect.ly == cell->y;
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        /* report from the lower-left cell of the overlap of the two rectangles only */
        if (!(raw & q->skip) && (!(raw & ENTRY_LEFT) || left_edge) && (!(raw & ENTRY_DOWN) || bottom_edge)) {
            uint32_t id = raw & ENTRY_ID_MASK;
            if (box_overlaps(grid->spans[id].box, q->box) && !q->fn((int32_t)id, grid->users[id], q->context)) {
                return false;
            }
        }
    });
    return true;
}

static void query_aabb(const rc_grid *grid, rc_aabb box, uint32_t skip, rc_grid_query_fn *fn, void *context) {
    box_query q = {grid, box, {0, 0, 0, 0}, skip, fn, context};
    for (uint64_t used = levels_for(&grid->store, skip); used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        q.rect = rect_of(&grid->store.levels[l], box);
        if (!visit_rect(&grid->store, l, q.rect, box_query_cell, &q)) {
            return;
        }
    }
}

void rc_grid_query_aabb(const rc_grid *grid, rc_aabb box, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_aabb_is_valid(box)) {
        return;
    }
    lock(grid);
    query_aabb(grid, box, 0u, fn, context);
    unlock(grid);
}

void rc_grid_query_aabb_trusted(const rc_grid *grid, rc_aabb box, bool skip_mobile, rc_grid_query_fn *fn,
                                void *context) {
    lock(grid);
    query_aabb(grid, box, skip_mobile ? ENTRY_MOBILE : 0u, fn, context);
    unlock(grid);
}

static void query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    const grid_store *s = &grid->store;
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        const grid_level *level = &s->levels[l];
        const grid_cell *cell = cell_lookup(s, l, cell_coord(point.x * level->inv), cell_coord(point.y * level->inv));
        if (cell == NULL) {
            continue;
        }
        FOR_EACH_ENTRY(s, cell, raw, qb, {
            uint32_t id = raw & ENTRY_ID_MASK;
            if (rc_aabb_contains_point(grid->spans[id].box, point) &&
                !fn((int32_t)id, grid->users[id], context)) {
                return;
            }
        });
    }
}

void rc_grid_query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(point)) {
        return;
    }
    lock(grid);
    query_point(grid, point, fn, context);
    unlock(grid);
}

/* ---- rays and swept circles ------------------------------------------------------------------ */

/* A ray walk offers every proxy whose box, grown by radius on every side, the segment reaches.
 * On a level with cells of size s it walks the cells of the centre line and looks k =
 * ceil(radius / s) cells to either side: the first cell's (2k+1)^2 window, then at each step
 * the strip of 2k+1 cells the window gains. A proxy is offered from the first walk cell whose
 * window meets its rectangle: the walk cell is inside the rectangle grown by k, the previous
 * one is not. Within a window or strip it is offered from one cell only. */
typedef struct ray_walk {
    const rc_grid *grid;
    rc_vec2 origin, translation;
    rc_vec2 inv; /* 1 / translation per axis (0 where it is 0) */
    float radius;
    float margin; /* radius, plus a few roundings of the coordinates the walk meets */
    float max_t;
    bool stopped;
    uint32_t skip; /* ENTRY_MOBILE: mobile proxies are not offered (nor read); else 0 */
    rc_grid_ray_fn *fn;
    void *context;
} ray_walk;

/* Does origin + t * d, 0 <= t <= max_t, reach the box grown by the walk's margin? The margin
 * covers the radius of a swept circle and a few float roundings at the size of the
 * coordinates involved, so that a touch at a box's very edge is not lost to rounding in this
 * slab test; the callback's exact test decides. */
static bool walk_reaches_box(const ray_walk *w, rc_aabb b) {
    float m = w->margin;
    float t0 = 0.0f, t1 = w->max_t;
    if (w->inv.x != 0.0f) {
        float a = (b.lower.x - m - w->origin.x) * w->inv.x, c = (b.upper.x + m - w->origin.x) * w->inv.x;
        t0 = max_f(t0, min_f(a, c));
        t1 = min_f(t1, max_f(a, c));
    } else if (w->origin.x < b.lower.x - m || w->origin.x > b.upper.x + m) {
        return false;
    }
    if (w->inv.y != 0.0f) {
        float a = (b.lower.y - m - w->origin.y) * w->inv.y, c = (b.upper.y + m - w->origin.y) * w->inv.y;
        t0 = max_f(t0, min_f(a, c));
        t1 = min_f(t1, max_f(a, c));
    } else if (w->origin.y < b.lower.y - m || w->origin.y > b.upper.y + m) {
        return false;
    }
    return t0 <= t1;
}

static void ray_call(ray_walk *w, uint32_t id) {
    float r = w->fn((int32_t)id, w->grid->users[id], w->max_t, w->context);
    if (r < 0.0f) {
        w->stopped = true;
    } else if (r < w->max_t) {
        w->max_t = r;
    }
}

/* Offer an entry of cell (x, y) to the callback if the walk still reaches its box: the copy in
 * the entry when there is one, else the proxy's own. */
static void ray_offer(ray_walk *w, uint32_t raw, const uint16_t *qb, float size, int32_t x, int32_t y) {
    uint32_t id = raw & ENTRY_ID_MASK;
    rc_aabb box = (raw & ENTRY_BOXED) ? dequantize(qb, size, x, y) : w->grid->spans[id].box;
    if (walk_reaches_box(w, box)) {
        ray_call(w, id);
    }
}

static bool ray_scan_cell(const grid_cell *cell, void *context) {
    ray_walk *w = context;
    const grid_store *s = &w->grid->store;
    float size = s->levels[cell_level(cell)].size;
    FOR_EACH_ENTRY(s, cell, raw, qb, {
        /* from the proxy's lowest cell only (and none that the walk skips) */
        if (!(raw & (ENTRY_LEFT | ENTRY_DOWN | w->skip))) {
            ray_offer(w, raw, qb, size, cell->x, cell->y);
            if (w->stopped) {
                return false;
            }
        }
    });
    return true;
}

/* The fallback for walks that would be very long, very wide, or leave the range of cell
 * coordinates: every occupied cell of the level, each proxy from its lowest cell only. */
static bool ray_scan_level(ray_walk *w, int32_t level) { return visit_level(&w->grid->store, level, ray_scan_cell, w); }

static cell_rect grow_rect(cell_rect r, int32_t k) {
    cell_rect g = {r.lx - k, r.ly - k, r.hx + k, r.hy + k};
    return g;
}

/* Ask for the spans of a cell's entries that carry no box of their own (and that the walk does
 * not skip). */
static void prefetch_spans(const rc_grid *grid, const grid_cell *cell, uint32_t skip) {
    for (uint32_t i = 0, n = cell_count(cell); i < n && i < INLINE_ENTRIES; ++i) {
        if (!(cell->entries[i] & (ENTRY_BOXED | skip))) {
            RC_PREFETCH(&grid->spans[cell->entries[i] & ENTRY_ID_MASK]);
        }
    }
}

/* Offer the proxies of the cells in `strip` (a window or the strip a step adds) that the
 * previous walk cell's window did not reach; each once, from the strip's lowest cell in it. */
static bool ray_visit_strip(ray_walk *w, int32_t l, cell_rect strip, bool first, int32_t px, int32_t py, int32_t k) {
    const rc_grid *grid = w->grid;
    const grid_store *s = &grid->store;
    for (int32_t y = strip.ly; y <= strip.hy; ++y) {
        for (int32_t x = strip.lx; x <= strip.hx; ++x) {
            const grid_cell *cell = cell_lookup(s, l, x, y);
            if (cell == NULL) {
                continue;
            }
            /* ask for all the entries' spans at once rather than one miss after another */
            prefetch_spans(grid, cell, w->skip);
            float size = s->levels[l].size;
            FOR_EACH_ENTRY(s, cell, raw, qb, {
                if (raw & w->skip) {
                    continue; /* this entry only: the innermost loop is the entries' */
                }
                cell_rect r = proxy_rect(grid, raw & ENTRY_ID_MASK);
                if (max_i32(r.lx, strip.lx) == x && max_i32(r.ly, strip.ly) == y &&
                    (first || !rect_contains(grow_rect(r, k), px, py))) {
                    ray_offer(w, raw, qb, size, x, y);
                    if (w->stopped) {
                        return false;
                    }
                }
            });
        }
    }
    return true;
}

/* One step of a ray's cell walk in cell units: which boundary comes first, and where. */
typedef struct cell_stepper {
    int32_t cx, cy;
    float tx, ty; /* the ray parameter at the next vertical and horizontal boundaries */
    uint32_t came_from; /* the entry bit of the cell the last step left: which neighbour it was */
} cell_stepper;

typedef struct stepper_setup {
    int32_t sx, sy;
    float ox, oy, inv_dx, inv_dy;
} stepper_setup;

static void stepper_advance(cell_stepper *c, const stepper_setup *u) {
    if (c->tx <= c->ty) {
        c->cx += u->sx;
        c->tx = ((float)(u->sx > 0 ? c->cx + 1 : c->cx) - u->ox) * u->inv_dx;
        c->came_from = u->sx > 0 ? ENTRY_LEFT : ENTRY_RIGHT;
    } else {
        c->cy += u->sy;
        c->ty = ((float)(u->sy > 0 ? c->cy + 1 : c->cy) - u->oy) * u->inv_dy;
        c->came_from = u->sy > 0 ? ENTRY_DOWN : ENTRY_UP;
    }
}

static uint32_t stepper_slot(const grid_window *win, const cell_stepper *c) {
    return tile_slot(win, (uint32_t)(c->cx - win->x0), (uint32_t)(c->cy - win->y0));
}

/* The walk of a ray (radius 0) inside a level's window: no bounds checks, and the rule that
 * offers a proxy once read from the entries' neighbour bits (a proxy was offered already when
 * its rectangle covers the cell the walk came from). */
static bool ray_walk_window(ray_walk *w, int32_t l, int32_t cx, int32_t cy, int64_t steps, float ox, float oy,
                            float dx, float dy) {
    const rc_grid *grid = w->grid;
    const grid_store *s = &grid->store;
    const grid_window *win = &s->levels[l].window;
    stepper_setup u;
    /* a component whose reciprocal overflowed moves the ray by nothing (as in the slab tests) */
    u.sx = w->inv.x > 0.0f ? 1 : (w->inv.x < 0.0f ? -1 : 0);
    u.sy = w->inv.y > 0.0f ? 1 : (w->inv.y < 0.0f ? -1 : 0);
    (void)dx;
    (void)dy;
    u.ox = ox;
    u.oy = oy;
    /* 1 / dx in cell units is the walk's 1 / translation scaled by the cell size */
    u.inv_dx = u.sx != 0 ? w->inv.x * s->levels[l].size : 0.0f;
    u.inv_dy = u.sy != 0 ? w->inv.y * s->levels[l].size : 0.0f;
    if (!(fabsf(u.inv_dx) <= FLT_MAX)) { /* moves less than a float's width of a cell */
        u.sx = 0;
        u.inv_dx = 0.0f;
    }
    if (!(fabsf(u.inv_dy) <= FLT_MAX)) {
        u.sy = 0;
        u.inv_dy = 0.0f;
    }
    cell_stepper c;
    c.cx = cx;
    c.cy = cy;
    c.tx = u.sx > 0 ? ((float)(cx + 1) - ox) * u.inv_dx : (u.sx < 0 ? ((float)cx - ox) * u.inv_dx : INFINITY);
    c.ty = u.sy > 0 ? ((float)(cy + 1) - oy) * u.inv_dy : (u.sy < 0 ? ((float)cy - oy) * u.inv_dy : INFINITY);
    c.came_from = 0; /* the first cell offers everything in it */
    /* A boxed entry's slab test in cell units: its box edge q (in quanta from one cell below
       the cell) is reached at t = ((cx - 1) - ox) / dx + q / (QUANTA dx), a multiply-add from
       per-cell and per-walk constants. The walk's margin, in cells, covers the roundings. */
    const float quantum = (float)(1.0 / QUANTA);
    float kx = u.inv_dx * quantum, ky = u.inv_dy * quantum;
    float margin = w->margin * s->levels[l].inv;
    float mx = margin * fabsf(u.inv_dx), my = margin * fabsf(u.inv_dy);
    for (;;) {
        uint32_t r = win->slots[stepper_slot(win, &c)];
        if (r != 0) {
            const grid_cell *cell = &s->records[r - 1];
            if (grid->statics != grid->live) {
                prefetch_spans(grid, cell, w->skip);
            }
            uint32_t seen = c.came_from | w->skip;
            float bx = ((float)(c.cx - 1) - ox) * u.inv_dx, by = ((float)(c.cy - 1) - oy) * u.inv_dy;
            FOR_EACH_ENTRY(s, cell, raw, qb, {
                if (!(raw & seen)) {
                    uint32_t id = raw & ENTRY_ID_MASK;
                    bool reach;
                    if (!(raw & ENTRY_BOXED)) {
                        reach = walk_reaches_box(w, grid->spans[id].box);
                    } else {
                        float t0 = 0.0f, t1 = w->max_t;
                        if (u.sx != 0) {
                            float a = bx + kx * (float)qb[0], b = bx + kx * (float)qb[2];
                            t0 = max_f(t0, min_f(a, b) - mx);
                            t1 = min_f(t1, max_f(a, b) + mx);
                        } else {
                            float lo = (float)(c.cx - 1) + quantum * (float)qb[0], hi = (float)(c.cx - 1) + quantum * (float)qb[2];
                            t1 = ox < lo - margin || ox > hi + margin ? -1.0f : t1;
                        }
                        if (u.sy != 0) {
                            float a = by + ky * (float)qb[1], b = by + ky * (float)qb[3];
                            t0 = max_f(t0, min_f(a, b) - my);
                            t1 = min_f(t1, max_f(a, b) + my);
                        } else {
                            float lo = (float)(c.cy - 1) + quantum * (float)qb[1], hi = (float)(c.cy - 1) + quantum * (float)qb[3];
                            t1 = oy < lo - margin || oy > hi + margin ? -1.0f : t1;
                        }
                        reach = t0 <= t1;
                    }
                    if (reach) {
                        ray_call(w, id);
                        if (w->stopped) {
                            return false;
                        }
                    }
                }
            });
        }
        if (--steps <= 0 || (c.tx <= c.ty ? c.tx : c.ty) > w->max_t) {
            break;
        }
        stepper_advance(&c, &u);
    }
    return true;
}

static bool ray_walk_level(ray_walk *w, int32_t l) {
    const grid_store *s = &w->grid->store;
    const grid_level *level = &s->levels[l];
    float inv = level->inv;
    const grid_window *win = &level->window;
    if (w->radius == 0.0f && level->hashed == 0 && win->slots != NULL) {
        /* the common case first, with the fewest checks: a ray within the window */
        float ox = w->origin.x * inv, oy = w->origin.y * inv;
        float ex = ox + w->max_t * (w->translation.x * inv), ey = oy + w->max_t * (w->translation.y * inv);
        float lo_x = ox < ex ? ox : ex, hi_x = ox < ex ? ex : ox, lo_y = oy < ey ? oy : ey, hi_y = oy < ey ? ey : oy;
        /* two cells of room each way for rounding and the walk's lookahead */
        if (lo_x >= (float)win->x0 + 2.0f && lo_y >= (float)win->y0 + 2.0f &&
            hi_x < (float)((int64_t)win->x0 + win->w) - 3.0f && hi_y < (float)((int64_t)win->y0 + win->h) - 3.0f) {
            int32_t cx = cell_coord(ox), cy = cell_coord(oy), end_x = cell_coord(ex), end_y = cell_coord(ey);
            int64_t steps = llabs((int64_t)end_x - cx) + llabs((int64_t)end_y - cy) + 2;
            return ray_walk_window(w, l, cx, cy, steps, ox, oy, w->translation.x * inv, w->translation.y * inv);
        }
    }
    /* in cell units, where cell boundaries are the integers */
    float ox = w->origin.x * inv, oy = w->origin.y * inv;
    float dx = w->translation.x * inv, dy = w->translation.y * inv;
    float ex = ox + w->max_t * dx, ey = oy + w->max_t * dy;
    float reach = ceilf(w->radius * inv);
    float limit = 0.5f * (float)CELL_LIMIT; /* 2^29: exact */
    if (!(fabsf(ox) < limit && fabsf(oy) < limit && fabsf(ex) < limit && fabsf(ey) < limit && reach < limit)) {
        return ray_scan_level(w, l);
    }
    int32_t k = (int32_t)reach;
    int32_t cx = cell_coord(ox), cy = cell_coord(oy);
    int32_t end_x = cell_coord(ex), end_y = cell_coord(ey);
    int64_t steps = llabs((int64_t)end_x - cx) + llabs((int64_t)end_y - cy) + 2;
    int64_t width = 2 * (int64_t)k + 1;
    if (width * (steps + width) > 4 * (int64_t)level->cells + 64) {
        return ray_scan_level(w, l);
    }
    /* a ray whose cells all lie in the window and none in the hash table takes the direct
       walk; two more cells each way cover rounding and the walk's lookahead, which may run one
       cell past the last */
    if (k == 0 && level->hashed == 0 && win->slots != NULL) {
        int64_t lx = (int64_t)(cx < end_x ? cx : end_x) - 2, hx = (int64_t)(cx > end_x ? cx : end_x) + 2;
        int64_t ly = (int64_t)(cy < end_y ? cy : end_y) - 2, hy = (int64_t)(cy > end_y ? cy : end_y) + 2;
        if (lx >= win->x0 && ly >= win->y0 && hx < (int64_t)win->x0 + win->w && hy < (int64_t)win->y0 + win->h) {
            return ray_walk_window(w, l, cx, cy, steps, ox, oy, dx, dy);
        }
    }
    int32_t sx = dx > 0.0f ? 1 : (dx < 0.0f ? -1 : 0);
    int32_t sy = dy > 0.0f ? 1 : (dy < 0.0f ? -1 : 0);
    float inv_dx = sx != 0 ? 1.0f / dx : 0.0f;
    float inv_dy = sy != 0 ? 1.0f / dy : 0.0f;
    cell_rect strip = {cx - k, cy - k, cx + k, cy + k};
    if (!ray_visit_strip(w, l, strip, true, cx, cy, k)) {
        return false;
    }
    for (; steps > 0; --steps) {
        /* the ray parameter at the next vertical and horizontal cell boundaries */
        float tx = sx > 0 ? ((float)(cx + 1) - ox) * inv_dx : (sx < 0 ? ((float)cx - ox) * inv_dx : INFINITY);
        float ty = sy > 0 ? ((float)(cy + 1) - oy) * inv_dy : (sy < 0 ? ((float)cy - oy) * inv_dy : INFINITY);
        int32_t px = cx, py = cy;
        if (tx <= ty) {
            if (tx > w->max_t) {
                break;
            }
            cx += sx;
            strip = (cell_rect){cx + sx * k, cy - k, cx + sx * k, cy + k};
        } else {
            if (ty > w->max_t) {
                break;
            }
            cy += sy;
            strip = (cell_rect){cx - k, cy + sy * k, cx + k, cy + sy * k};
        }
        if (!ray_visit_strip(w, l, strip, false, px, py, k)) {
            return false;
        }
    }
    return true;
}

/* The walk itself, for inputs already checked: finite, radius and max_fraction >= 0. */
void rc_grid_cast_trusted(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                          bool skip_mobile, rc_grid_ray_fn *fn, void *context) {
    ray_walk w;
    w.grid = grid;
    w.skip = skip_mobile ? ENTRY_MOBILE : 0u;
    w.origin = origin;
    w.translation = translation;
    /* a component so small that its reciprocal overflows moves the ray by nothing */
    float ix = translation.x != 0.0f ? 1.0f / translation.x : 0.0f;
    float iy = translation.y != 0.0f ? 1.0f / translation.y : 0.0f;
    w.inv.x = fabsf(ix) <= FLT_MAX ? ix : 0.0f;
    w.inv.y = fabsf(iy) <= FLT_MAX ? iy : 0.0f;
    /* the boxes the walk meets lie within the ray's reach of its origin */
    float size = max_f(fabsf(origin.x), fabsf(origin.y)) + max_fraction * max_f(fabsf(translation.x), fabsf(translation.y));
    w.radius = radius;
    w.margin = radius + 4.0f * FLT_EPSILON * (size + radius);
    w.max_t = max_fraction;
    w.stopped = false;
    w.fn = fn;
    w.context = context;
    for (uint64_t used = levels_for(&grid->store, w.skip); used != 0; used &= used - 1) {
        if (!ray_walk_level(&w, __builtin_ctzll(used))) {
            return;
        }
    }
}

static void cast(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                 rc_grid_ray_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) ||
        !rc_is_finite(max_fraction) || max_fraction < 0.0f || !rc_is_finite(radius) || radius < 0.0f) {
        return;
    }
    rc_grid_cast_trusted(grid, origin, radius, translation, max_fraction, false, fn, context);
}

void rc_grid_cast_ray(const rc_grid *grid, rc_vec2 origin, rc_vec2 translation, float max_fraction,
                      rc_grid_ray_fn *fn, void *context) {
    rc_grid_cast_circle(grid, origin, 0.0f, translation, max_fraction, fn, context);
}

void rc_grid_cast_circle(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                         rc_grid_ray_fn *fn, void *context) {
    if (grid == NULL) {
        return;
    }
    lock(grid);
    cast(grid, origin, radius, translation, max_fraction, fn, context);
    unlock(grid);
}

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
 * overlap before (a pair of boxes that overlapped then was reported then)? */
static bool pair_is_news(const rc_grid *grid, bool begun, uint32_t a, uint32_t b) {
    return !begun || !box_overlaps(before_of(grid, a), before_of(grid, b));
}

static bool pair_scan_cell(const grid_cell *cell, void *context) {
    pair_scan *s = context;
    const rc_grid *grid = s->grid;
    uint32_t me = s->id;
    int32_t my_level = grid->proxies[me].level;
    rc_aabb my_box = grid->spans[me].box;
    bool left_edge = s->rect.lx == cell->x, bottom_edge = s->rect.ly == cell->y;
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        uint32_t other = raw & ENTRY_ID_MASK;
        bool skip = other == me;
        if (!skip && (s->all_moved || grid->proxies[other].moved)) {
            /* both moved: the same level reports from the lower id, across levels from the
               finer proxy, whose scan of the coarser levels finds the pair */
            skip = s->finer || (grid->proxies[other].level == my_level && other < me);
        }
        /* from the lower-left cell of the overlap of the two rectangles only */
        if (!skip && (!(raw & ENTRY_LEFT) || left_edge) && (!(raw & ENTRY_DOWN) || bottom_edge) &&
            box_overlaps(my_box, grid->spans[other].box) && pair_is_news(grid, s->begun, me, other)) {
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
        visit_rect(&grid->store, l, s.rect, pair_scan_cell, &s);
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
static void offer_cell_pair(const cell_pairs *c, const local_entry *a, const local_entry *b) {
    if (!(a->moved || b->moved) || (a->raw & b->raw & (ENTRY_LEFT | ENTRY_DOWN)) != 0 ||
        !box_overlaps(a->box, b->box) || !pair_is_news(c->grid, c->begun, a->id, b->id)) {
        return;
    }
    const rc_grid *grid = c->grid;
    uint32_t lo = a->id < b->id ? a->id : b->id, hi = a->id < b->id ? b->id : a->id;
    c->fn((int32_t)lo, grid->users[lo], (int32_t)hi, grid->users[hi], c->context);
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

static void offer_local_pair(const cell_pairs *c, const local_cell *e, int32_t i, int32_t j) {
    uint32_t a = e->raw[i] & ENTRY_ID_MASK, b = e->raw[j] & ENTRY_ID_MASK;
    if (!pair_is_news(c->grid, c->begun, a, b)) {
        return;
    }
    const rc_grid *grid = c->grid;
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    c->fn((int32_t)lo, grid->users[lo], (int32_t)hi, grid->users[hi], c->context);
}

static void small_cell_pairs(const cell_pairs *c, const grid_cell *cell) {
    local_cell e;
    int32_t n = 0;
    uint32_t any_moved = 0;
    FOR_EACH_ENTRY(&c->grid->store, cell, raw, qb, {
        uint32_t id = raw & ENTRY_ID_MASK;
        rc_aabb box = c->grid->spans[id].box;
        e.lx[n] = box.lower.x;
        e.ly[n] = box.lower.y;
        e.ux[n] = box.upper.x;
        e.uy[n] = box.upper.y;
        e.raw[n] = raw;
        e.moved[n] = c->all_moved || c->grid->proxies[id].moved ? 1u : 0u;
        any_moved |= e.moved[n];
        n++;
    });
    if (any_moved == 0) {
        return; /* every pair here was looked at when one of its proxies last moved */
    }
    for (int32_t i = 0; i + 1 < n; ++i) {
        float lx = e.lx[i], ly = e.ly[i], ux = e.ux[i], uy = e.uy[i];
        uint32_t moved = e.moved[i], shared = e.raw[i] & (ENTRY_LEFT | ENTRY_DOWN);
        for (int32_t j = i + 1; j < n; ++j) {
            /* one of the two moved, this is the lower-left cell the two share (not when both
               reach the cell to the left, or below, which they share too), the boxes overlap
               (rc_aabb_overlaps) */
            uint32_t pass = (moved | e.moved[j]) & (uint32_t)((e.raw[j] & shared) == 0u) &
                            (uint32_t)(e.lx[j] <= ux) & (uint32_t)(lx <= e.ux[j]) & (uint32_t)(e.ly[j] <= uy) &
                            (uint32_t)(ly <= e.uy[j]);
            if (pass != 0u) {
                offer_local_pair(c, &e, i, j);
            }
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
    bool left_edge = s->rect.lx == cell->x, bottom_edge = s->rect.ly == cell->y;
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        uint32_t other = raw & ENTRY_ID_MASK;
        if ((me_moved || grid->proxies[other].moved) && (!(raw & ENTRY_LEFT) || left_edge) &&
            (!(raw & ENTRY_DOWN) || bottom_edge) && box_overlaps(my_box, grid->spans[other].box) &&
            pair_is_news(grid, s->begun, me, other)) {
            s->fn((int32_t)me, grid->users[me], (int32_t)other, grid->users[other], s->context);
        }
    });
    return true;
}

static void pairs_cell_by_cell(const rc_grid *grid, bool all_moved, bool begun, rc_grid_pair_fn *fn,
                               void *context) {
    const grid_store *s = &grid->store;
    cell_pairs c = {grid, all_moved, begun, fn, context};
    uint64_t used = s->used_levels;
    for (uint64_t u = used; u != 0; u &= u - 1) {
        visit_level(s, __builtin_ctzll(u), cell_pairs_cell, &c);
    }
    if ((used & (used - 1)) == 0) {
        return; /* one level: no pairs across levels */
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        int32_t own = grid->proxies[id].level;
        if (own < 0) {
            continue;
        }
        pair_scan ps = {grid, (uint32_t)id, proxy_rect(grid, (uint32_t)id), all_moved, false, begun, fn, context};
        uint64_t coarser = own + 1 < LEVEL_COUNT ? used >> (own + 1) : 0;
        for (uint64_t u = coarser; u != 0; u &= u - 1) {
            int32_t l = own + 1 + __builtin_ctzll(u);
            ps.rect = rect_of(&s->levels[l], grid->spans[id].box);
            visit_rect(s, l, ps.rect, coarser_pairs_cell, &ps);
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

void rc_grid_forget_moves(rc_grid *grid) {
    if (!changeable(grid)) {
        return;
    }
    for (int32_t i = 0; i < grid->moved_count; ++i) {
        grid->proxies[grid->moved[i]].moved = false;
    }
    grid->moved_count = 0;
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
    st.proxies = grid->live;
    st.rebuilds = grid->rebuilds;
    st.cells = s->cells;
    st.levels_in_use = __builtin_popcountll(s->used_levels);
    st.bytes = sizeof *grid + (size_t)grid->capacity * (sizeof(grid_span) + sizeof(grid_proxy) + 2 * sizeof(int32_t)) +
               (size_t)s->capacity * sizeof(grid_slot) + (size_t)s->record_capacity * sizeof(grid_cell) +
               (size_t)s->chunk_capacity * sizeof(grid_chunk);
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        st.bytes += window_bytes(&s->levels[l].window);
        visit_level(s, l, count_entries, &st.entries);
    }
    return st;
}

typedef struct cell_report {
    const grid_store *store;
    rc_grid_cell_fn *fn;
    void *context;
} cell_report;

static bool report_cell(const grid_cell *c, void *context) {
    const cell_report *r = context;
    float size = r->store->levels[cell_level(c)].size;
    rc_aabb box = {{(float)c->x * size, (float)c->y * size}, {(float)(c->x + 1) * size, (float)(c->y + 1) * size}};
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
        visit_level(&grid->store, __builtin_ctzll(used), report_cell, &r);
    }
    unlock(grid);
}
