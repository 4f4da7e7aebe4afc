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
#include <stdlib.h>
#include <string.h>

#define LEVEL_COUNT 64
#define CELL_LIMIT 1073741824 /* 2^30: cell coordinates saturate here */
#define NONE UINT32_MAX
#define INLINE_ENTRIES 4
#define CHUNK_ENTRIES 7
#define SIZE_BINS 64
#define FIRST_SIZE_CHECK 64

typedef struct cell_rect {
    int32_t lx, ly, hx, hy;
} cell_rect;

/* 32 bytes: a table slot is free when count is 0. */
typedef struct grid_cell {
    int32_t x, y;
    uint32_t meta;  /* count << 6 | level */
    uint32_t chunk; /* the chunk holding the newest overflow entries, or NONE */
    uint32_t entries[INLINE_ENTRIES];
} grid_cell;

typedef struct grid_chunk {
    uint32_t next;
    uint32_t entries[CHUNK_ENTRIES];
} grid_chunk;

typedef struct grid_level {
    float size, inv;
    int32_t proxies;
    int32_t cells;
} grid_level;

/* Everything that depends on the cell size; rebuilt whole when the automatic size changes. */
typedef struct grid_store {
    float base_size;
    uint64_t used_levels; /* bit l: level l holds proxies */
    grid_level levels[LEVEL_COUNT];
    grid_cell *table;
    uint32_t capacity; /* table slots: 0 or a power of two */
    int32_t cells;
    grid_chunk *chunks;
    int32_t chunk_capacity, chunk_high;
    uint32_t free_chunk;
    int32_t free_chunks;
} grid_store;

typedef struct grid_proxy {
    int32_t user;
    int32_t level; /* -1 while the slot is free */
    int32_t next_free;
    int32_t size_bin;
    bool moved;
} grid_proxy;

struct rc_grid {
    rc_allocator allocator;
    bool automatic;
    grid_store store;
    rc_aabb *boxes;
    cell_rect *rects;
    grid_proxy *proxies;
    int32_t *moved; /* ids moved since the last update_pairs; as long as the proxy arrays */
    int32_t capacity; /* of the proxy arrays */
    int32_t high;     /* slots ever handed out */
    int32_t free_list;
    int32_t live;
    int32_t moved_count;
    int32_t size_bins[SIZE_BINS];
    int32_t next_size_check;
    int32_t rebuilds;
};

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

static bool rect_equal(cell_rect a, cell_rect b) { return a.lx == b.lx && a.ly == b.ly && a.hx == b.hx && a.hy == b.hy; }

static int64_t rect_cells(cell_rect r) { return ((int64_t)r.hx - r.lx + 1) * ((int64_t)r.hy - r.ly + 1); }

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

static float box_size(rc_aabb b) { return fmaxf(b.upper.x - b.lower.x, b.upper.y - b.lower.y); }

/* The level whose cells are at least as large as the box. */
static int32_t level_for(const grid_store *s, rc_aabb box) {
    float size = box_size(box);
    int32_t l = 0;
    while (l + 1 < LEVEL_COUNT && s->levels[l].size < size) {
        ++l;
    }
    return l;
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

/* Does origin + t * d, 0 <= t <= max_t, reach the closed box? */
static bool segment_reaches_box(rc_vec2 origin, rc_vec2 d, float max_t, rc_aabb box) {
    float t0 = 0.0f, t1 = max_t;
    if (d.x != 0.0f) {
        float inv = 1.0f / d.x;
        float a = (box.lower.x - origin.x) * inv, b = (box.upper.x - origin.x) * inv;
        t0 = fmaxf(t0, fminf(a, b));
        t1 = fminf(t1, fmaxf(a, b));
    } else if (origin.x < box.lower.x || origin.x > box.upper.x) {
        return false;
    }
    if (d.y != 0.0f) {
        float inv = 1.0f / d.y;
        float a = (box.lower.y - origin.y) * inv, b = (box.upper.y - origin.y) * inv;
        t0 = fmaxf(t0, fminf(a, b));
        t1 = fminf(t1, fmaxf(a, b));
    } else if (origin.y < box.lower.y || origin.y > box.upper.y) {
        return false;
    }
    return t0 <= t1;
}

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
}

static void store_free(const rc_allocator *a, grid_store *s) {
    rc_mem_free(a, s->table, sizeof(grid_cell) * s->capacity);
    rc_mem_free(a, s->chunks, sizeof(grid_chunk) * (size_t)s->chunk_capacity);
    store_init(s, s->base_size);
}

static uint32_t find_cell(const grid_store *s, int32_t level, int32_t x, int32_t y) {
    if (s->capacity == 0) {
        return NONE;
    }
    uint32_t mask = s->capacity - 1;
    uint32_t i = cell_hash(level, x, y) & mask;
    for (;;) {
        const grid_cell *c = &s->table[i];
        if (c->meta == 0) {
            return NONE;
        }
        if (c->x == x && c->y == y && cell_level(c) == level) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/* Room for `additions` more proxy-in-cell entries: each may open a cell and take a chunk. */
static bool store_reserve(const rc_allocator *a, grid_store *s, int64_t additions) {
    uint64_t needed = 2u * ((uint64_t)s->cells + (uint64_t)additions);
    if (needed > s->capacity) {
        uint64_t capacity = s->capacity ? s->capacity : 64;
        while (capacity < needed) {
            capacity *= 2;
        }
        if (capacity > (1u << 30)) {
            return false;
        }
        grid_cell *table = rc_mem_alloc(a, sizeof(grid_cell) * capacity);
        if (table == NULL) {
            return false;
        }
        memset(table, 0, sizeof(grid_cell) * capacity);
        uint32_t mask = (uint32_t)capacity - 1;
        for (uint32_t i = 0; i < s->capacity; ++i) {
            const grid_cell *c = &s->table[i];
            if (c->meta == 0) {
                continue;
            }
            uint32_t j = cell_hash(cell_level(c), c->x, c->y) & mask;
            while (table[j].meta != 0) {
                j = (j + 1) & mask;
            }
            table[j] = *c;
        }
        rc_mem_free(a, s->table, sizeof(grid_cell) * s->capacity);
        s->table = table;
        s->capacity = (uint32_t)capacity;
    }
    int64_t spare = (int64_t)s->free_chunks + (s->chunk_capacity - s->chunk_high);
    if (spare < additions) {
        int64_t want = (int64_t)s->chunk_high + (additions - s->free_chunks);
        if (want > INT32_MAX / 2) {
            return false;
        }
        if (!rc_mem_reserve(a, (void **)&s->chunks, &s->chunk_capacity, s->chunk_high, (int32_t)want,
                            sizeof(grid_chunk))) {
            return false;
        }
    }
    return true;
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

/* Entries in the newest chunk of a cell holding count entries (count > INLINE_ENTRIES). */
static uint32_t head_fill(uint32_t count) { return (count - INLINE_ENTRIES - 1) % CHUNK_ENTRIES + 1; }

/* Add an entry to a cell; the room was reserved. */
static void cell_add(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry) {
    uint32_t slot = find_cell(s, level, x, y);
    grid_cell *c;
    if (slot == NONE) {
        uint32_t mask = s->capacity - 1;
        slot = cell_hash(level, x, y) & mask;
        while (s->table[slot].meta != 0) {
            slot = (slot + 1) & mask;
        }
        c = &s->table[slot];
        c->x = x;
        c->y = y;
        c->meta = (uint32_t)level;
        c->chunk = NONE;
        s->cells++;
        s->levels[level].cells++;
    } else {
        c = &s->table[slot];
    }
    uint32_t count = cell_count(c);
    if (count < INLINE_ENTRIES) {
        c->entries[count] = entry;
    } else if (count == INLINE_ENTRIES || head_fill(count) == CHUNK_ENTRIES) {
        uint32_t k = chunk_take(s);
        s->chunks[k].next = c->chunk;
        s->chunks[k].entries[0] = entry;
        c->chunk = k;
    } else {
        s->chunks[c->chunk].entries[head_fill(count)] = entry;
    }
    c->meta += 1u << 6;
}

static void table_delete(grid_store *s, uint32_t slot) {
    uint32_t mask = s->capacity - 1;
    uint32_t hole = slot;
    s->table[hole].meta = 0;
    uint32_t j = hole;
    for (;;) {
        j = (j + 1) & mask;
        grid_cell *c = &s->table[j];
        if (c->meta == 0) {
            break;
        }
        uint32_t home = cell_hash(cell_level(c), c->x, c->y) & mask;
        /* the cell at j may stay only if its home lies cyclically in (hole, j] */
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            s->table[hole] = *c;
            c->meta = 0;
            hole = j;
        }
    }
}

static void cell_remove(grid_store *s, int32_t level, int32_t x, int32_t y, uint32_t entry) {
    uint32_t slot = find_cell(s, level, x, y);
    if (slot == NONE) {
        return;
    }
    grid_cell *c = &s->table[slot];
    uint32_t count = cell_count(c);
    /* the last entry fills the hole */
    uint32_t *last;
    if (count <= INLINE_ENTRIES) {
        last = &c->entries[count - 1];
    } else {
        last = &s->chunks[c->chunk].entries[head_fill(count) - 1];
    }
    uint32_t *hole = NULL;
    for (uint32_t i = 0; i < count && i < INLINE_ENTRIES && hole == NULL; ++i) {
        if (c->entries[i] == entry) {
            hole = &c->entries[i];
        }
    }
    for (uint32_t k = c->chunk, n = count > INLINE_ENTRIES ? head_fill(count) : 0; k != NONE && hole == NULL;
         k = s->chunks[k].next, n = CHUNK_ENTRIES) {
        for (uint32_t i = 0; i < n; ++i) {
            if (s->chunks[k].entries[i] == entry) {
                hole = &s->chunks[k].entries[i];
                break;
            }
        }
    }
    if (hole == NULL) {
        return;
    }
    *hole = *last;
    if (count > INLINE_ENTRIES && head_fill(count) == 1) {
        uint32_t k = c->chunk;
        c->chunk = s->chunks[k].next;
        chunk_give(s, k);
    }
    c->meta -= 1u << 6;
    if (count == 1) {
        s->cells--;
        s->levels[level].cells--;
        table_delete(s, slot);
    }
}

/* Call fn for every entry of a cell; stop when it returns false. */
#define FOR_EACH_ENTRY(store, cell, id, body)                                                                          \
    do {                                                                                                               \
        uint32_t count_ = cell_count(cell);                                                                            \
        uint32_t inline_ = count_ < INLINE_ENTRIES ? count_ : INLINE_ENTRIES;                                          \
        for (uint32_t i_ = 0; i_ < inline_; ++i_) {                                                                    \
            uint32_t id = (cell)->entries[i_];                                                                         \
            body                                                                                                       \
        }                                                                                                              \
        uint32_t n_ = count_ > INLINE_ENTRIES ? head_fill(count_) : 0;                                                 \
        for (uint32_t k_ = (cell)->chunk; k_ != NONE; k_ = (store)->chunks[k_].next, n_ = CHUNK_ENTRIES) {             \
            for (uint32_t i_ = 0; i_ < n_; ++i_) {                                                                     \
                uint32_t id = (store)->chunks[k_].entries[i_];                                                         \
                body                                                                                                   \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

static void rect_add(grid_store *s, int32_t level, cell_rect r, const cell_rect *skip, uint32_t entry) {
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                cell_add(s, level, x, y, entry);
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

static void level_count(grid_store *s, int32_t level_index, int32_t delta) {
    grid_level *level = &s->levels[level_index];
    level->proxies += delta;
    if (level->proxies > 0) {
        s->used_levels |= (uint64_t)1 << level_index;
    } else {
        s->used_levels &= ~((uint64_t)1 << level_index);
    }
}

/* ---- creation ------------------------------------------------------------------------------- */

rc_grid_def rc_grid_default_def(void) {
    rc_grid_def def;
    memset(&def, 0, sizeof def);
    return def;
}

rc_grid *rc_grid_create(const rc_grid_def *def) {
    if (def == NULL || !rc_is_finite(def->cell_size) || def->cell_size < 0.0f) {
        return NULL;
    }
    rc_allocator allocator = rc_mem_resolve(def->allocator);
    rc_grid *grid = rc_mem_alloc(&allocator, sizeof *grid);
    if (grid == NULL) {
        return NULL;
    }
    memset(grid, 0, sizeof *grid);
    grid->allocator = allocator;
    grid->automatic = def->cell_size == 0.0f;
    store_init(&grid->store, grid->automatic ? 1.0f : def->cell_size);
    grid->free_list = -1;
    grid->next_size_check = FIRST_SIZE_CHECK;
    return grid;
}

static void free_proxy_arrays(const rc_allocator *a, rc_aabb *boxes, cell_rect *rects, grid_proxy *proxies,
                              int32_t *moved, int32_t capacity) {
    rc_mem_free(a, boxes, sizeof(rc_aabb) * (size_t)capacity);
    rc_mem_free(a, rects, sizeof(cell_rect) * (size_t)capacity);
    rc_mem_free(a, proxies, sizeof(grid_proxy) * (size_t)capacity);
    rc_mem_free(a, moved, sizeof(int32_t) * (size_t)capacity);
}

void rc_grid_destroy(rc_grid *grid) {
    if (grid == NULL) {
        return;
    }
    rc_allocator a = grid->allocator;
    store_free(&a, &grid->store);
    free_proxy_arrays(&a, grid->boxes, grid->rects, grid->proxies, grid->moved, grid->capacity);
    rc_mem_free(&a, grid, sizeof *grid);
}

/* Grow the proxy arrays together, or none of them. The moved list is as long as they are, so
 * marking a proxy as moved never allocates. */
static bool reserve_proxies(rc_grid *grid, int32_t needed) {
    if (needed <= grid->capacity) {
        return true;
    }
    if (needed > INT32_MAX / 4) {
        return false;
    }
    int32_t capacity = grid->capacity > 8 ? 2 * grid->capacity : 16;
    if (capacity < needed) {
        capacity = needed;
    }
    const rc_allocator *a = &grid->allocator;
    rc_aabb *boxes = rc_mem_alloc(a, sizeof(rc_aabb) * (size_t)capacity);
    cell_rect *rects = rc_mem_alloc(a, sizeof(cell_rect) * (size_t)capacity);
    grid_proxy *proxies = rc_mem_alloc(a, sizeof(grid_proxy) * (size_t)capacity);
    int32_t *moved = rc_mem_alloc(a, sizeof(int32_t) * (size_t)capacity);
    if (boxes == NULL || rects == NULL || proxies == NULL || moved == NULL) {
        free_proxy_arrays(a, boxes, rects, proxies, moved, capacity);
        return false;
    }
    if (grid->high > 0) {
        memcpy(boxes, grid->boxes, sizeof(rc_aabb) * (size_t)grid->high);
        memcpy(rects, grid->rects, sizeof(cell_rect) * (size_t)grid->high);
        memcpy(proxies, grid->proxies, sizeof(grid_proxy) * (size_t)grid->high);
        memcpy(moved, grid->moved, sizeof(int32_t) * (size_t)grid->moved_count);
    }
    free_proxy_arrays(a, grid->boxes, grid->rects, grid->proxies, grid->moved, grid->capacity);
    grid->boxes = boxes;
    grid->rects = rects;
    grid->proxies = proxies;
    grid->moved = moved;
    grid->capacity = capacity;
    return true;
}

static void mark_moved(rc_grid *grid, int32_t id) {
    if (!grid->proxies[id].moved) {
        grid->proxies[id].moved = true;
        grid->moved[grid->moved_count++] = id;
    }
}

static bool is_live(const rc_grid *grid, int32_t id) {
    return grid != NULL && id >= 0 && id < grid->high && grid->proxies[id].level >= 0;
}

/* ---- automatic cell size -------------------------------------------------------------------- */

/* The power of two above the sizes of a histogram bin; points (bin 0) get unit cells. */
static float cell_size_for_bin(int32_t bin) { return bin == 0 ? 1.0f : power_of_two(bin - SIZE_BINS / 2 + 1); }

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

/* Re-place every proxy with a new base cell size. On failure nothing changes. */
static bool rebuild(rc_grid *grid, float base_size) {
    const rc_allocator *a = &grid->allocator;
    grid_store fresh;
    store_init(&fresh, base_size);
    cell_rect *rects = rc_mem_alloc(a, sizeof(cell_rect) * (size_t)grid->capacity);
    int64_t additions = 0;
    for (int32_t id = 0; id < grid->high && rects != NULL; ++id) {
        if (grid->proxies[id].level >= 0) {
            int32_t l = level_for(&fresh, grid->boxes[id]);
            rects[id] = rect_of(&fresh.levels[l], grid->boxes[id]);
            additions += rect_cells(rects[id]);
        }
    }
    if (rects == NULL || !store_reserve(a, &fresh, additions)) {
        store_free(a, &fresh);
        rc_mem_free(a, rects, sizeof(cell_rect) * (size_t)grid->capacity);
        return false;
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level >= 0) {
            int32_t l = level_for(&fresh, grid->boxes[id]);
            rect_add(&fresh, l, rects[id], NULL, (uint32_t)id);
            level_count(&fresh, l, 1);
            grid->proxies[id].level = l;
        }
    }
    store_free(a, &grid->store);
    rc_mem_free(a, grid->rects, sizeof(cell_rect) * (size_t)grid->capacity);
    grid->store = fresh;
    grid->rects = rects;
    grid->rebuilds++;
    return true;
}

static void maybe_choose_cell_size(rc_grid *grid) {
    if (!grid->automatic || grid->live < grid->next_size_check) {
        return;
    }
    grid->next_size_check *= 2;
    float chosen = chosen_cell_size(grid);
    if (chosen != grid->store.base_size) {
        rebuild(grid, chosen); /* on failure the old size simply stays */
    }
}

/* ---- proxies -------------------------------------------------------------------------------- */

int32_t rc_grid_insert(rc_grid *grid, rc_aabb box, int32_t user) {
    if (grid == NULL || !rc_aabb_is_valid(box)) {
        return -1;
    }
    if (grid->automatic && grid->live == 0 && grid->store.cells == 0) {
        /* the first proxy gives the first guess at the cell size */
        float guess = cell_size_for_bin(size_bin(box_size(box)));
        if (guess != grid->store.base_size) {
            store_free(&grid->allocator, &grid->store);
            store_init(&grid->store, guess);
        }
    }
    if (grid->free_list < 0 && !reserve_proxies(grid, grid->high + 1)) {
        return -1;
    }
    int32_t l = level_for(&grid->store, box);
    cell_rect r = rect_of(&grid->store.levels[l], box);
    if (!store_reserve(&grid->allocator, &grid->store, rect_cells(r))) {
        return -1;
    }
    int32_t id;
    bool was_moved = false;
    if (grid->free_list >= 0) {
        id = grid->free_list;
        grid->free_list = grid->proxies[id].next_free;
        was_moved = grid->proxies[id].moved; /* still listed from before its removal */
    } else {
        id = grid->high++;
    }
    grid_proxy *p = &grid->proxies[id];
    p->user = user;
    p->level = l;
    p->next_free = -1;
    p->size_bin = size_bin(box_size(box));
    p->moved = was_moved;
    grid->boxes[id] = box;
    grid->rects[id] = r;
    rect_add(&grid->store, l, r, NULL, (uint32_t)id);
    level_count(&grid->store, l, 1);
    grid->size_bins[p->size_bin]++;
    grid->live++;
    mark_moved(grid, id);
    maybe_choose_cell_size(grid);
    return id;
}

int32_t rc_grid_move_additions(const rc_grid *grid, int32_t id, rc_aabb box) {
    if (!is_live(grid, id) || !rc_aabb_is_valid(box)) {
        return 0;
    }
    int32_t l = level_for(&grid->store, box);
    cell_rect r = rect_of(&grid->store.levels[l], box);
    if (l != grid->proxies[id].level) {
        return (int32_t)rect_cells(r);
    }
    return (int32_t)rect_additions(r, &grid->rects[id]);
}

bool rc_grid_reserve(rc_grid *grid, int32_t additions) {
    if (grid == NULL || additions < 0) {
        return false;
    }
    return store_reserve(&grid->allocator, &grid->store, additions);
}

bool rc_grid_move(rc_grid *grid, int32_t id, rc_aabb box) {
    if (!is_live(grid, id) || !rc_aabb_is_valid(box)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[id];
    int32_t old_level = p->level;
    cell_rect old_rect = grid->rects[id];
    int32_t l = level_for(&grid->store, box);
    cell_rect r = rect_of(&grid->store.levels[l], box);
    if (l != old_level || !rect_equal(r, old_rect)) {
        const cell_rect *keep_old = l == old_level ? &old_rect : NULL;
        const cell_rect *keep_new = l == old_level ? &r : NULL;
        if (!store_reserve(&grid->allocator, &grid->store, rect_additions(r, keep_old))) {
            return false;
        }
        rect_remove(&grid->store, old_level, old_rect, keep_new, (uint32_t)id);
        rect_add(&grid->store, l, r, keep_old, (uint32_t)id);
        if (l != old_level) {
            level_count(&grid->store, old_level, -1);
            level_count(&grid->store, l, 1);
            p->level = l;
        }
        grid->rects[id] = r;
    }
    grid->boxes[id] = box;
    int32_t bin = size_bin(box_size(box));
    grid->size_bins[p->size_bin]--;
    grid->size_bins[bin]++;
    p->size_bin = bin;
    mark_moved(grid, id);
    return true;
}

bool rc_grid_remove(rc_grid *grid, int32_t id) {
    if (!is_live(grid, id)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[id];
    rect_remove(&grid->store, p->level, grid->rects[id], NULL, (uint32_t)id);
    level_count(&grid->store, p->level, -1);
    grid->size_bins[p->size_bin]--;
    p->level = -1;
    p->user = -1;
    p->next_free = grid->free_list; /* p->moved stays: the id may still be in the moved list */
    grid->free_list = id;
    grid->live--;
    return true;
}

bool rc_grid_is_proxy(const rc_grid *grid, int32_t proxy) { return is_live(grid, proxy); }

rc_aabb rc_grid_get_box(const rc_grid *grid, int32_t proxy) {
    if (!is_live(grid, proxy)) {
        rc_aabb zero = {{0.0f, 0.0f}, {0.0f, 0.0f}};
        return zero;
    }
    return grid->boxes[proxy];
}

int32_t rc_grid_get_user(const rc_grid *grid, int32_t proxy) { return is_live(grid, proxy) ? grid->proxies[proxy].user : -1; }

int32_t rc_grid_proxy_count(const rc_grid *grid) { return grid != NULL ? grid->live : 0; }

float rc_grid_cell_size(const rc_grid *grid) { return grid != NULL ? grid->store.base_size : 0.0f; }

/* ---- visiting cells ------------------------------------------------------------------------- */

typedef bool cell_visit_fn(const grid_cell *cell, void *context);

/* Visit the occupied cells of rect on a level: by lookup when the rectangle is small, by a
 * sweep over the table when it spans more cells than the level has. False if fn stopped. */
static bool visit_rect(const grid_store *s, int32_t level, cell_rect r, cell_visit_fn *fn, void *context) {
    if (rect_cells(r) > (int64_t)s->levels[level].cells) {
        for (uint32_t i = 0; i < s->capacity; ++i) {
            const grid_cell *c = &s->table[i];
            if (c->meta != 0 && cell_level(c) == level && rect_contains(r, c->x, c->y) && !fn(c, context)) {
                return false;
            }
        }
        return true;
    }
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            uint32_t slot = find_cell(s, level, x, y);
            if (slot != NONE && !fn(&s->table[slot], context)) {
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
    rc_grid_query_fn *fn;
    void *context;
} box_query;

static bool box_query_cell(const grid_cell *cell, void *context) {
    box_query *q = context;
    const rc_grid *grid = q->grid;
    FOR_EACH_ENTRY(&grid->store, cell, id, {
        cell_rect r = grid->rects[id];
        /* report from the lower-left cell of the overlap of the two rectangles only */
        if (max_i32(r.lx, q->rect.lx) == cell->x && max_i32(r.ly, q->rect.ly) == cell->y &&
            box_overlaps(grid->boxes[id], q->box) && !q->fn((int32_t)id, grid->proxies[id].user, q->context)) {
            return false;
        }
    });
    return true;
}

void rc_grid_query_aabb(const rc_grid *grid, rc_aabb box, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_aabb_is_valid(box)) {
        return;
    }
    box_query q = {grid, box, {0, 0, 0, 0}, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        q.rect = rect_of(&grid->store.levels[l], box);
        if (!visit_rect(&grid->store, l, q.rect, box_query_cell, &q)) {
            return;
        }
    }
}

void rc_grid_query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(point)) {
        return;
    }
    const grid_store *s = &grid->store;
    for (uint64_t used = s->used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        const grid_level *level = &s->levels[l];
        uint32_t slot = find_cell(s, l, cell_coord(point.x * level->inv), cell_coord(point.y * level->inv));
        if (slot == NONE) {
            continue;
        }
        const grid_cell *cell = &s->table[slot];
        FOR_EACH_ENTRY(s, cell, id, {
            if (rc_aabb_contains_point(grid->boxes[id], point) && !fn((int32_t)id, grid->proxies[id].user, context)) {
                return;
            }
        });
    }
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
    float radius;
    float max_t;
    bool stopped;
    rc_grid_ray_fn *fn;
    void *context;
} ray_walk;

static rc_aabb grow_box(rc_aabb b, float r) {
    rc_aabb g = {{b.lower.x - r, b.lower.y - r}, {b.upper.x + r, b.upper.y + r}};
    return g;
}

/* Offer a proxy to the callback if the walk still reaches its grown box. The box is grown by
 * a further few float roundings of its coordinates so that a touch at its very edge is not
 * lost to rounding in the slab test; the callback's exact test decides. */
static void ray_offer(ray_walk *w, uint32_t id) {
    const rc_grid *grid = w->grid;
    rc_aabb b = grid->boxes[id];
    float size = fmaxf(fmaxf(fabsf(b.lower.x), fabsf(b.upper.x)), fmaxf(fabsf(b.lower.y), fabsf(b.upper.y)));
    float margin = w->radius + 4.0f * FLT_EPSILON * (size + w->radius);
    if (!segment_reaches_box(w->origin, w->translation, w->max_t, grow_box(b, margin))) {
        return;
    }
    float r = w->fn((int32_t)id, grid->proxies[id].user, w->max_t, w->context);
    if (r < 0.0f) {
        w->stopped = true;
    } else if (r < w->max_t) {
        w->max_t = r;
    }
}

/* The fallback for walks that would be very long, very wide, or leave the range of cell
 * coordinates: every occupied cell of the level, each proxy from its lowest cell only. */
static bool ray_scan_level(ray_walk *w, int32_t level) {
    const rc_grid *grid = w->grid;
    const grid_store *s = &grid->store;
    for (uint32_t i = 0; i < s->capacity; ++i) {
        const grid_cell *cell = &s->table[i];
        if (cell->meta == 0 || cell_level(cell) != level) {
            continue;
        }
        FOR_EACH_ENTRY(s, cell, id, {
            cell_rect r = grid->rects[id];
            if (r.lx == cell->x && r.ly == cell->y) {
                ray_offer(w, id);
                if (w->stopped) {
                    return false;
                }
            }
        });
    }
    return true;
}

static cell_rect grow_rect(cell_rect r, int32_t k) {
    cell_rect g = {r.lx - k, r.ly - k, r.hx + k, r.hy + k};
    return g;
}

/* Offer the proxies of the cells in `strip` (a window or the strip a step adds) that the
 * previous walk cell's window did not reach; each once, from the strip's lowest cell in it. */
static bool ray_visit_strip(ray_walk *w, int32_t l, cell_rect strip, bool first, int32_t px, int32_t py, int32_t k) {
    const rc_grid *grid = w->grid;
    const grid_store *s = &grid->store;
    for (int32_t y = strip.ly; y <= strip.hy; ++y) {
        for (int32_t x = strip.lx; x <= strip.hx; ++x) {
            uint32_t slot = find_cell(s, l, x, y);
            if (slot == NONE) {
                continue;
            }
            const grid_cell *cell = &s->table[slot];
            FOR_EACH_ENTRY(s, cell, id, {
                cell_rect r = grid->rects[id];
                if (max_i32(r.lx, strip.lx) == x && max_i32(r.ly, strip.ly) == y &&
                    (first || !rect_contains(grow_rect(r, k), px, py))) {
                    ray_offer(w, id);
                    if (w->stopped) {
                        return false;
                    }
                }
            });
        }
    }
    return true;
}

static bool ray_walk_level(ray_walk *w, int32_t l) {
    const grid_store *s = &w->grid->store;
    const grid_level *level = &s->levels[l];
    float inv = level->inv;
    /* in cell units, where cell boundaries are the integers */
    float ox = w->origin.x * inv, oy = w->origin.y * inv;
    float dx = w->translation.x * inv, dy = w->translation.y * inv;
    float ex = ox + w->max_t * dx, ey = oy + w->max_t * dy;
    float reach = ceilf(w->radius * inv);
    float limit = (float)(CELL_LIMIT / 2);
    if (!(fabsf(ox) < limit && fabsf(oy) < limit && fabsf(ex) < limit && fabsf(ey) < limit && reach < limit)) {
        return ray_scan_level(w, l);
    }
    int32_t k = (int32_t)reach;
    int32_t cx = cell_coord(ox), cy = cell_coord(oy);
    int64_t steps = llabs((int64_t)cell_coord(ex) - cx) + llabs((int64_t)cell_coord(ey) - cy) + 2;
    int64_t width = 2 * (int64_t)k + 1;
    if (width * (steps + width) > 4 * (int64_t)level->cells + 64) {
        return ray_scan_level(w, l);
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

static void cast(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                 rc_grid_ray_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) ||
        !rc_is_finite(max_fraction) || max_fraction < 0.0f || !rc_is_finite(radius) || radius < 0.0f) {
        return;
    }
    ray_walk w = {grid, origin, translation, radius, max_fraction, false, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        if (!ray_walk_level(&w, __builtin_ctzll(used))) {
            return;
        }
    }
}

void rc_grid_cast_ray(const rc_grid *grid, rc_vec2 origin, rc_vec2 translation, float max_fraction,
                      rc_grid_ray_fn *fn, void *context) {
    cast(grid, origin, 0.0f, translation, max_fraction, fn, context);
}

void rc_grid_cast_circle(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                         rc_grid_ray_fn *fn, void *context) {
    cast(grid, origin, radius, translation, max_fraction, fn, context);
}

/* ---- pairs ---------------------------------------------------------------------------------- */

typedef struct pair_scan {
    const rc_grid *grid;
    uint32_t id;
    cell_rect rect; /* of the scanning proxy, on the level being scanned */
    bool all_moved; /* treat every proxy as moved */
    bool finer;     /* scanning a finer level than the proxy's own */
    rc_grid_pair_fn *fn;
    void *context;
} pair_scan;

static bool pair_scan_cell(const grid_cell *cell, void *context) {
    pair_scan *s = context;
    const rc_grid *grid = s->grid;
    uint32_t me = s->id;
    int32_t my_level = grid->proxies[me].level;
    FOR_EACH_ENTRY(&grid->store, cell, other, {
        bool skip = other == me;
        if (!skip && (s->all_moved || grid->proxies[other].moved)) {
            /* both moved: the same level reports from the lower id, across levels from the
               finer proxy, whose scan of the coarser levels finds the pair */
            skip = s->finer || (grid->proxies[other].level == my_level && other < me);
        }
        if (!skip) {
            cell_rect r = grid->rects[other];
            if (max_i32(r.lx, s->rect.lx) == cell->x && max_i32(r.ly, s->rect.ly) == cell->y &&
                box_overlaps(grid->boxes[me], grid->boxes[other])) {
                s->fn((int32_t)me, grid->proxies[me].user, (int32_t)other, grid->proxies[other].user, s->context);
            }
        }
    });
    return true;
}

static void scan_pairs_of(const rc_grid *grid, int32_t id, bool all_moved, rc_grid_pair_fn *fn, void *context) {
    int32_t own = grid->proxies[id].level;
    pair_scan s = {grid, (uint32_t)id, grid->rects[id], all_moved, false, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        s.rect = l == own ? grid->rects[id] : rect_of(&grid->store.levels[l], grid->boxes[id]);
        s.finer = l < own;
        visit_rect(&grid->store, l, s.rect, pair_scan_cell, &s);
    }
}

void rc_grid_update_pairs(rc_grid *grid, rc_grid_pair_fn *fn, void *context) {
    if (grid == NULL) {
        return;
    }
    if (fn != NULL) {
        for (int32_t i = 0; i < grid->moved_count; ++i) {
            int32_t id = grid->moved[i];
            if (grid->proxies[id].level >= 0) {
                scan_pairs_of(grid, id, false, fn, context);
            }
        }
    }
    for (int32_t i = 0; i < grid->moved_count; ++i) {
        grid->proxies[grid->moved[i]].moved = false;
    }
    grid->moved_count = 0;
}

void rc_grid_find_all_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context) {
    if (grid == NULL || fn == NULL) {
        return;
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level >= 0) {
            scan_pairs_of(grid, id, true, fn, context);
        }
    }
}

/* ---- inspection ----------------------------------------------------------------------------- */

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
    st.bytes = sizeof *grid +
               (size_t)grid->capacity * (sizeof(rc_aabb) + sizeof(cell_rect) + sizeof(grid_proxy) + sizeof(int32_t)) +
               (size_t)s->capacity * sizeof(grid_cell) + (size_t)s->chunk_capacity * sizeof(grid_chunk);
    for (uint32_t i = 0; i < s->capacity; ++i) {
        st.entries += (int32_t)cell_count(&s->table[i]);
    }
    return st;
}

void rc_grid_for_each_cell(const rc_grid *grid, rc_grid_cell_fn *fn, void *context) {
    if (grid == NULL || fn == NULL) {
        return;
    }
    const grid_store *s = &grid->store;
    for (uint32_t i = 0; i < s->capacity; ++i) {
        const grid_cell *c = &s->table[i];
        if (c->meta == 0) {
            continue;
        }
        float size = s->levels[cell_level(c)].size;
        rc_aabb box = {{(float)c->x * size, (float)c->y * size}, {(float)(c->x + 1) * size, (float)(c->y + 1) * size}};
        fn(cell_level(c), box, (int32_t)cell_count(c), context);
    }
}
