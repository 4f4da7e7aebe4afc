/* The hierarchical uniform grid. See <ricochet/grid.h> for what it promises.
 *
 * Layout. Proxies are three parallel arrays indexed by proxy id: boxes and cell rectangles
 * (read by every query) and the cold bookkeeping. Each level is an open-addressing hash
 * table (linear probing, backward-shift deletion, load at most 1/2) of occupied cells; a cell
 * points at a block of proxy ids in a shared pool, blocks come in power-of-two sizes and freed
 * blocks are kept per size for reuse, so memory stops growing once a scene's churn settles.
 *
 * Once per query without marks. A proxy sits in every cell of the rectangle of cells its box
 * touches. A box query reports it only from the cell at the lower-left corner of the overlap
 * of that rectangle and the query's; a ray reports it from the first cell of its walk inside
 * the rectangle, which is the current cell when the previous one is outside (the walk moves
 * monotonically on both axes, so it enters a rectangle once). Both tests are integer
 * comparisons and need no writes.
 *
 * Failure. Every operation that may allocate first reserves all it needs, then changes the
 * grid; when a reservation fails the grid is as it was. */
#include "broadphase/broadphase.h"

#include "core/memory.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL_COUNT 64
#define CELL_LIMIT 1073741824 /* 2^30: cell coordinates saturate here */
#define FREE_SLOT UINT32_MAX
#define NO_BLOCK UINT32_MAX
#define BLOCK_CLASSES 32
#define SIZE_BINS 64
#define FIRST_SIZE_CHECK 64

typedef struct cell_rect {
    int32_t lx, ly, hx, hy;
} cell_rect;

typedef struct grid_cell {
    int32_t x, y;
    uint32_t offset; /* first entry in the pool; FREE_SLOT marks an unused table slot */
    uint32_t count;
    uint32_t block_class; /* the block holds 1 << block_class entries */
} grid_cell;

typedef struct grid_level {
    float size, inv;
    int32_t proxies;
    int32_t cells;
    uint32_t capacity; /* table slots: 0 or a power of two */
    grid_cell *table;
} grid_level;

/* Everything that depends on the cell size; rebuilt whole when the automatic size changes. */
typedef struct grid_store {
    float base_size;
    uint64_t used_levels; /* bit l: level l holds proxies */
    grid_level levels[LEVEL_COUNT];
    uint32_t *pool;
    uint32_t pool_used, pool_capacity;
    uint32_t free_blocks[BLOCK_CLASSES];
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
    int32_t capacity; /* of the three proxy arrays */
    int32_t high;     /* slots ever handed out */
    int32_t free_list;
    int32_t live;
    int32_t *moved;
    int32_t moved_count, moved_capacity;
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

static uint32_t cell_hash(int32_t x, int32_t y) {
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

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

/* ---- cell store: tables and the entry pool -------------------------------------------------- */

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
    for (int32_t c = 0; c < BLOCK_CLASSES; ++c) {
        s->free_blocks[c] = NO_BLOCK;
    }
}

static void store_free(const rc_allocator *a, grid_store *s) {
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        rc_mem_free(a, s->levels[l].table, sizeof(grid_cell) * s->levels[l].capacity);
    }
    rc_mem_free(a, s->pool, sizeof(uint32_t) * s->pool_capacity);
    store_init(s, s->base_size);
}

static uint32_t find_cell(const grid_level *level, int32_t x, int32_t y) {
    if (level->capacity == 0) {
        return FREE_SLOT;
    }
    uint32_t mask = level->capacity - 1;
    uint32_t i = cell_hash(x, y) & mask;
    for (;;) {
        const grid_cell *c = &level->table[i];
        if (c->offset == FREE_SLOT) {
            return FREE_SLOT;
        }
        if (c->x == x && c->y == y) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/* Room in the table for extra more cells at load <= 1/2. */
static bool reserve_table(const rc_allocator *a, grid_level *level, int32_t extra) {
    uint64_t needed = 2u * ((uint64_t)level->cells + (uint64_t)extra);
    if (needed <= level->capacity) {
        return true;
    }
    uint64_t capacity = level->capacity ? level->capacity : 16;
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
    for (uint64_t i = 0; i < capacity; ++i) {
        table[i].offset = FREE_SLOT;
    }
    uint32_t mask = (uint32_t)capacity - 1;
    for (uint32_t i = 0; i < level->capacity; ++i) {
        grid_cell c = level->table[i];
        if (c.offset == FREE_SLOT) {
            continue;
        }
        uint32_t j = cell_hash(c.x, c.y) & mask;
        while (table[j].offset != FREE_SLOT) {
            j = (j + 1) & mask;
        }
        table[j] = c;
    }
    rc_mem_free(a, level->table, sizeof(grid_cell) * level->capacity);
    level->table = table;
    level->capacity = (uint32_t)capacity;
    return true;
}

static bool reserve_pool(const rc_allocator *a, grid_store *s, uint64_t extra) {
    uint64_t needed = (uint64_t)s->pool_used + extra;
    if (needed <= s->pool_capacity) {
        return true;
    }
    uint64_t capacity = s->pool_capacity ? 2u * (uint64_t)s->pool_capacity : 1024;
    if (capacity < needed) {
        capacity = needed;
    }
    if (capacity > UINT32_MAX / 2) {
        return false;
    }
    uint32_t *pool = rc_mem_alloc(a, sizeof(uint32_t) * capacity);
    if (pool == NULL) {
        return false;
    }
    if (s->pool != NULL) {
        memcpy(pool, s->pool, sizeof(uint32_t) * s->pool_used);
        rc_mem_free(a, s->pool, sizeof(uint32_t) * s->pool_capacity);
    }
    s->pool = pool;
    s->pool_capacity = (uint32_t)capacity;
    return true;
}

/* Reserve what adding one entry to each cell of rect (skipping those in skip, when given)
 * may take. */
static bool reserve_cells(const rc_allocator *a, grid_store *s, int32_t level_index, cell_rect rect,
                          const cell_rect *skip) {
    grid_level *level = &s->levels[level_index];
    int32_t new_cells = 0;
    uint64_t pool_need = 0;
    for (int32_t y = rect.ly; y <= rect.hy; ++y) {
        for (int32_t x = rect.lx; x <= rect.hx; ++x) {
            if (skip != NULL && rect_contains(*skip, x, y)) {
                continue;
            }
            uint32_t slot = find_cell(level, x, y);
            if (slot == FREE_SLOT) {
                ++new_cells;
                pool_need += 2;
            } else if (level->table[slot].count == (1u << level->table[slot].block_class)) {
                pool_need += 2u << level->table[slot].block_class;
            }
        }
    }
    return reserve_table(a, level, new_cells) && reserve_pool(a, s, pool_need);
}

static uint32_t block_take(grid_store *s, uint32_t block_class) {
    uint32_t offset = s->free_blocks[block_class];
    if (offset != NO_BLOCK) {
        s->free_blocks[block_class] = s->pool[offset];
        return offset;
    }
    offset = s->pool_used;
    s->pool_used += 1u << block_class;
    return offset;
}

static void block_give(grid_store *s, uint32_t offset, uint32_t block_class) {
    s->pool[offset] = s->free_blocks[block_class];
    s->free_blocks[block_class] = offset;
}

/* Add an entry; the room was reserved. */
static void cell_add(grid_store *s, grid_level *level, int32_t x, int32_t y, uint32_t entry) {
    uint32_t slot = find_cell(level, x, y);
    grid_cell *c;
    if (slot == FREE_SLOT) {
        uint32_t mask = level->capacity - 1;
        slot = cell_hash(x, y) & mask;
        while (level->table[slot].offset != FREE_SLOT) {
            slot = (slot + 1) & mask;
        }
        c = &level->table[slot];
        c->x = x;
        c->y = y;
        c->count = 0;
        c->block_class = 1;
        c->offset = block_take(s, 1);
        level->cells++;
    } else {
        c = &level->table[slot];
        if (c->count == (1u << c->block_class)) {
            uint32_t offset = block_take(s, c->block_class + 1);
            memcpy(&s->pool[offset], &s->pool[c->offset], sizeof(uint32_t) * c->count);
            block_give(s, c->offset, c->block_class);
            c->offset = offset;
            c->block_class++;
        }
    }
    s->pool[c->offset + c->count++] = entry;
}

static void table_delete(grid_level *level, uint32_t slot) {
    uint32_t mask = level->capacity - 1;
    uint32_t hole = slot;
    level->table[hole].offset = FREE_SLOT;
    uint32_t j = hole;
    for (;;) {
        j = (j + 1) & mask;
        grid_cell *c = &level->table[j];
        if (c->offset == FREE_SLOT) {
            break;
        }
        uint32_t home = cell_hash(c->x, c->y) & mask;
        /* the entry at j may stay only if its home lies cyclically in (hole, j] */
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            level->table[hole] = *c;
            c->offset = FREE_SLOT;
            hole = j;
        }
    }
    level->cells--;
}

static void cell_remove(grid_store *s, grid_level *level, int32_t x, int32_t y, uint32_t entry) {
    uint32_t slot = find_cell(level, x, y);
    if (slot == FREE_SLOT) {
        return;
    }
    grid_cell *c = &level->table[slot];
    uint32_t *e = &s->pool[c->offset];
    for (uint32_t i = 0; i < c->count; ++i) {
        if (e[i] == entry) {
            e[i] = e[--c->count];
            break;
        }
    }
    if (c->count == 0) {
        block_give(s, c->offset, c->block_class);
        table_delete(level, slot);
    }
}

static void rect_add(grid_store *s, int32_t level_index, cell_rect r, const cell_rect *skip, uint32_t entry) {
    grid_level *level = &s->levels[level_index];
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                cell_add(s, level, x, y, entry);
            }
        }
    }
}

static void rect_remove(grid_store *s, int32_t level_index, cell_rect r, const cell_rect *skip, uint32_t entry) {
    grid_level *level = &s->levels[level_index];
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            if (skip == NULL || !rect_contains(*skip, x, y)) {
                cell_remove(s, level, x, y, entry);
            }
        }
    }
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

void rc_grid_destroy(rc_grid *grid) {
    if (grid == NULL) {
        return;
    }
    rc_allocator a = grid->allocator;
    store_free(&a, &grid->store);
    rc_mem_free(&a, grid->boxes, sizeof(rc_aabb) * (size_t)grid->capacity);
    rc_mem_free(&a, grid->rects, sizeof(cell_rect) * (size_t)grid->capacity);
    rc_mem_free(&a, grid->proxies, sizeof(grid_proxy) * (size_t)grid->capacity);
    rc_mem_free(&a, grid->moved, sizeof(int32_t) * (size_t)grid->moved_capacity);
    rc_mem_free(&a, grid, sizeof *grid);
}

/* Grow the three proxy arrays together, or none of them. */
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
    if (boxes == NULL || rects == NULL || proxies == NULL) {
        rc_mem_free(a, boxes, sizeof(rc_aabb) * (size_t)capacity);
        rc_mem_free(a, rects, sizeof(cell_rect) * (size_t)capacity);
        rc_mem_free(a, proxies, sizeof(grid_proxy) * (size_t)capacity);
        return false;
    }
    if (grid->high > 0) {
        memcpy(boxes, grid->boxes, sizeof(rc_aabb) * (size_t)grid->high);
        memcpy(rects, grid->rects, sizeof(cell_rect) * (size_t)grid->high);
        memcpy(proxies, grid->proxies, sizeof(grid_proxy) * (size_t)grid->high);
    }
    rc_mem_free(a, grid->boxes, sizeof(rc_aabb) * (size_t)grid->capacity);
    rc_mem_free(a, grid->rects, sizeof(cell_rect) * (size_t)grid->capacity);
    rc_mem_free(a, grid->proxies, sizeof(grid_proxy) * (size_t)grid->capacity);
    grid->boxes = boxes;
    grid->rects = rects;
    grid->proxies = proxies;
    grid->capacity = capacity;
    return true;
}

static bool reserve_moved(rc_grid *grid) {
    return rc_mem_reserve(&grid->allocator, (void **)&grid->moved, &grid->moved_capacity, grid->moved_count,
                          grid->moved_count + 1, sizeof(int32_t));
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
    cell_rect *rects = NULL;
    if (grid->capacity > 0) {
        rects = rc_mem_alloc(a, sizeof(cell_rect) * (size_t)grid->capacity);
        if (rects == NULL) {
            return false;
        }
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level < 0) {
            continue;
        }
        int32_t l = level_for(&fresh, grid->boxes[id]);
        cell_rect r = rect_of(&fresh.levels[l], grid->boxes[id]);
        if (!reserve_cells(a, &fresh, l, r, NULL)) {
            store_free(a, &fresh);
            rc_mem_free(a, rects, sizeof(cell_rect) * (size_t)grid->capacity);
            return false;
        }
        rect_add(&fresh, l, r, NULL, (uint32_t)id);
        level_count(&fresh, l, 1);
        rects[id] = r;
    }
    for (int32_t id = 0; id < grid->high; ++id) {
        if (grid->proxies[id].level >= 0) {
            grid->proxies[id].level = level_for(&fresh, grid->boxes[id]);
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
    if (grid->automatic && grid->live == 0 && grid->store.used_levels == 0 && grid->store.pool_used == 0) {
        /* the first proxy gives the first guess at the cell size */
        store_free(&grid->allocator, &grid->store);
        store_init(&grid->store, cell_size_for_bin(size_bin(box_size(box))));
    }
    if (grid->free_list < 0 && !reserve_proxies(grid, grid->high + 1)) {
        return -1;
    }
    if (!reserve_moved(grid)) {
        return -1;
    }
    int32_t l = level_for(&grid->store, box);
    cell_rect r = rect_of(&grid->store.levels[l], box);
    if (!reserve_cells(&grid->allocator, &grid->store, l, r, NULL)) {
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

bool rc_grid_move(rc_grid *grid, int32_t id, rc_aabb box) {
    if (!is_live(grid, id) || !rc_aabb_is_valid(box)) {
        return false;
    }
    if (!grid->proxies[id].moved && !reserve_moved(grid)) {
        return false;
    }
    grid_proxy *p = &grid->proxies[id];
    int32_t old_level = p->level;
    cell_rect old_rect = grid->rects[id];
    int32_t l = level_for(&grid->store, box);
    cell_rect r = rect_of(&grid->store.levels[l], box);
    if (l != old_level || !rect_equal(r, old_rect)) {
        const cell_rect *keep = l == old_level ? &old_rect : NULL;
        if (!reserve_cells(&grid->allocator, &grid->store, l, r, keep)) {
            return false;
        }
        const cell_rect *keep_new = l == old_level ? &r : NULL;
        rect_remove(&grid->store, old_level, old_rect, keep_new, (uint32_t)id);
        rect_add(&grid->store, l, r, keep, (uint32_t)id);
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

/* ---- box and point queries ------------------------------------------------------------------ */

/* Visit the occupied cells of rect on a level: by lookup when the rectangle is small, by a
 * sweep over the table when it has more cells than the table holds. Returns false if fn
 * asked to stop. */
typedef bool cell_visit_fn(const grid_cell *cell, void *context);

static bool visit_rect(const grid_level *level, cell_rect r, cell_visit_fn *fn, void *context) {
    if (level->capacity == 0) {
        return true;
    }
    if (rect_cells(r) > (int64_t)level->cells) {
        for (uint32_t i = 0; i < level->capacity; ++i) {
            const grid_cell *c = &level->table[i];
            if (c->offset != FREE_SLOT && rect_contains(r, c->x, c->y) && !fn(c, context)) {
                return false;
            }
        }
        return true;
    }
    for (int32_t y = r.ly; y <= r.hy; ++y) {
        for (int32_t x = r.lx; x <= r.hx; ++x) {
            uint32_t slot = find_cell(level, x, y);
            if (slot != FREE_SLOT && !fn(&level->table[slot], context)) {
                return false;
            }
        }
    }
    return true;
}

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
    const uint32_t *entries = &grid->store.pool[cell->offset];
    for (uint32_t i = 0; i < cell->count; ++i) {
        int32_t id = (int32_t)entries[i];
        cell_rect r = grid->rects[id];
        /* report from the lower-left cell of the overlap of the two rectangles only */
        if (max_i32(r.lx, q->rect.lx) != cell->x || max_i32(r.ly, q->rect.ly) != cell->y) {
            continue;
        }
        if (box_overlaps(grid->boxes[id], q->box) && !q->fn(id, grid->proxies[id].user, q->context)) {
            return false;
        }
    }
    return true;
}

void rc_grid_query_aabb(const rc_grid *grid, rc_aabb box, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_aabb_is_valid(box)) {
        return;
    }
    box_query q = {grid, box, {0, 0, 0, 0}, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        const grid_level *level = &grid->store.levels[l];
        q.rect = rect_of(level, box);
        if (!visit_rect(level, q.rect, box_query_cell, &q)) {
            return;
        }
    }
}

void rc_grid_query_point(const rc_grid *grid, rc_vec2 point, rc_grid_query_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(point)) {
        return;
    }
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        const grid_level *level = &grid->store.levels[__builtin_ctzll(used)];
        uint32_t slot = find_cell(level, cell_coord(point.x * level->inv), cell_coord(point.y * level->inv));
        if (slot == FREE_SLOT) {
            continue;
        }
        const grid_cell *cell = &level->table[slot];
        const uint32_t *entries = &grid->store.pool[cell->offset];
        for (uint32_t i = 0; i < cell->count; ++i) {
            int32_t id = (int32_t)entries[i];
            if (rc_aabb_contains_point(grid->boxes[id], point) && !fn(id, grid->proxies[id].user, context)) {
                return;
            }
        }
    }
}

/* ---- rays ----------------------------------------------------------------------------------- */

typedef struct ray_walk {
    const rc_grid *grid;
    rc_vec2 origin, translation;
    float max_t;
    bool stopped;
    rc_grid_ray_fn *fn;
    void *context;
} ray_walk;

/* Offer a proxy to the callback if the ray still reaches its box. */
static void ray_offer(ray_walk *w, int32_t id) {
    const rc_grid *grid = w->grid;
    if (!segment_reaches_box(w->origin, w->translation, w->max_t, grid->boxes[id])) {
        return;
    }
    float r = w->fn(id, grid->proxies[id].user, w->max_t, w->context);
    if (r < 0.0f) {
        w->stopped = true;
    } else if (r < w->max_t) {
        w->max_t = r;
    }
}

/* The fallback for walks that would be very long or leave the range of cell coordinates:
 * every occupied cell whose box the ray reaches, each proxy from its lowest cell only. */
static bool ray_scan_level(ray_walk *w, const grid_level *level) {
    const rc_grid *grid = w->grid;
    for (uint32_t i = 0; i < level->capacity && !w->stopped; ++i) {
        const grid_cell *cell = &level->table[i];
        if (cell->offset == FREE_SLOT) {
            continue;
        }
        const uint32_t *entries = &grid->store.pool[cell->offset];
        for (uint32_t k = 0; k < cell->count && !w->stopped; ++k) {
            int32_t id = (int32_t)entries[k];
            cell_rect r = grid->rects[id];
            if (r.lx == cell->x && r.ly == cell->y) {
                ray_offer(w, id);
            }
        }
    }
    return !w->stopped;
}

static bool ray_walk_level(ray_walk *w, const grid_level *level) {
    const rc_grid *grid = w->grid;
    float inv = level->inv;
    /* in cell units, where cell boundaries are the integers */
    float ox = w->origin.x * inv, oy = w->origin.y * inv;
    float dx = w->translation.x * inv, dy = w->translation.y * inv;
    float ex = ox + w->max_t * dx, ey = oy + w->max_t * dy;
    float limit = (float)(CELL_LIMIT - 2);
    if (!(fabsf(ox) < limit && fabsf(oy) < limit && fabsf(ex) < limit && fabsf(ey) < limit)) {
        return ray_scan_level(w, level);
    }
    int32_t cx = cell_coord(ox), cy = cell_coord(oy);
    int32_t end_x = cell_coord(ex), end_y = cell_coord(ey);
    int64_t steps = llabs((int64_t)end_x - cx) + llabs((int64_t)end_y - cy) + 2;
    if (steps > 4 * (int64_t)level->cells + 64) {
        return ray_scan_level(w, level);
    }
    int32_t sx = dx > 0.0f ? 1 : (dx < 0.0f ? -1 : 0);
    int32_t sy = dy > 0.0f ? 1 : (dy < 0.0f ? -1 : 0);
    float inv_dx = sx != 0 ? 1.0f / dx : 0.0f;
    float inv_dy = sy != 0 ? 1.0f / dy : 0.0f;
    int32_t px = cx, py = cy; /* the previous cell; equal to the current one at the start */
    bool first = true;
    for (; steps > 0; --steps) {
        uint32_t slot = find_cell(level, cx, cy);
        if (slot != FREE_SLOT) {
            const grid_cell *cell = &level->table[slot];
            const uint32_t *entries = &grid->store.pool[cell->offset];
            for (uint32_t k = 0; k < cell->count; ++k) {
                int32_t id = (int32_t)entries[k];
                /* offered in the first cell of the walk inside its rectangle only */
                if (!first && rect_contains(grid->rects[id], px, py)) {
                    continue;
                }
                ray_offer(w, id);
                if (w->stopped) {
                    return false;
                }
            }
        }
        /* the ray parameter at the next vertical and horizontal cell boundaries */
        float tx = sx > 0 ? ((float)(cx + 1) - ox) * inv_dx : (sx < 0 ? ((float)cx - ox) * inv_dx : INFINITY);
        float ty = sy > 0 ? ((float)(cy + 1) - oy) * inv_dy : (sy < 0 ? ((float)cy - oy) * inv_dy : INFINITY);
        px = cx;
        py = cy;
        first = false;
        if (tx <= ty) {
            if (tx > w->max_t) {
                break;
            }
            cx += sx;
        } else {
            if (ty > w->max_t) {
                break;
            }
            cy += sy;
        }
    }
    return true;
}

void rc_grid_cast_ray(const rc_grid *grid, rc_vec2 origin, rc_vec2 translation, float max_fraction,
                      rc_grid_ray_fn *fn, void *context) {
    if (grid == NULL || fn == NULL || !rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation) ||
        !rc_is_finite(max_fraction) || max_fraction < 0.0f) {
        return;
    }
    ray_walk w = {grid, origin, translation, max_fraction, false, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        if (!ray_walk_level(&w, &grid->store.levels[__builtin_ctzll(used)])) {
            return;
        }
    }
}

/* ---- pairs ---------------------------------------------------------------------------------- */

typedef struct pair_scan {
    const rc_grid *grid;
    int32_t id;
    cell_rect rect; /* of the scanning proxy, on the level being scanned */
    bool all_moved; /* treat every proxy as moved */
    bool finer;     /* scanning a finer level than the proxy's own */
    rc_grid_pair_fn *fn;
    void *context;
} pair_scan;

static bool moved_flag(const pair_scan *s, int32_t id) { return s->all_moved || s->grid->proxies[id].moved; }

static bool pair_scan_cell(const grid_cell *cell, void *context) {
    pair_scan *s = context;
    const rc_grid *grid = s->grid;
    const uint32_t *entries = &grid->store.pool[cell->offset];
    int32_t me = s->id;
    int32_t my_level = grid->proxies[me].level;
    for (uint32_t i = 0; i < cell->count; ++i) {
        int32_t other = (int32_t)entries[i];
        if (other == me) {
            continue;
        }
        if (moved_flag(s, other)) {
            /* both moved: the same level reports from the lower id, across levels from the
               finer proxy, whose scan of the coarser levels finds the pair */
            if (s->finer || (grid->proxies[other].level == my_level && other < me)) {
                continue;
            }
        }
        cell_rect r = grid->rects[other];
        if (max_i32(r.lx, s->rect.lx) != cell->x || max_i32(r.ly, s->rect.ly) != cell->y) {
            continue;
        }
        if (box_overlaps(grid->boxes[me], grid->boxes[other])) {
            s->fn(me, grid->proxies[me].user, other, grid->proxies[other].user, s->context);
        }
    }
    return true;
}

static void scan_pairs_of(const rc_grid *grid, int32_t id, bool all_moved, rc_grid_pair_fn *fn, void *context) {
    int32_t own = grid->proxies[id].level;
    pair_scan s = {grid, id, grid->rects[id], all_moved, false, fn, context};
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        const grid_level *level = &grid->store.levels[l];
        s.rect = l == own ? grid->rects[id] : rect_of(level, grid->boxes[id]);
        s.finer = l < own;
        visit_rect(level, s.rect, pair_scan_cell, &s);
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
    st.proxies = grid->live;
    st.rebuilds = grid->rebuilds;
    st.bytes = sizeof *grid + (size_t)grid->capacity * (sizeof(rc_aabb) + sizeof(cell_rect) + sizeof(grid_proxy)) +
               (size_t)grid->moved_capacity * sizeof(int32_t) + (size_t)grid->store.pool_capacity * sizeof(uint32_t);
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        const grid_level *level = &grid->store.levels[l];
        st.levels_in_use += level->proxies > 0;
        st.cells += level->cells;
        st.bytes += (size_t)level->capacity * sizeof(grid_cell);
        for (uint32_t i = 0; i < level->capacity; ++i) {
            if (level->table[i].offset != FREE_SLOT) {
                st.entries += (int32_t)level->table[i].count;
            }
        }
    }
    return st;
}

void rc_grid_for_each_cell(const rc_grid *grid, rc_grid_cell_fn *fn, void *context) {
    if (grid == NULL || fn == NULL) {
        return;
    }
    for (uint64_t used = grid->store.used_levels; used != 0; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        const grid_level *level = &grid->store.levels[l];
        for (uint32_t i = 0; i < level->capacity; ++i) {
            const grid_cell *c = &level->table[i];
            if (c->offset == FREE_SLOT) {
                continue;
            }
            rc_aabb box = {{(float)c->x * level->size, (float)c->y * level->size},
                           {(float)(c->x + 1) * level->size, (float)(c->y + 1) * level->size}};
            fn(l, box, (int32_t)c->count, context);
        }
    }
}
