/* The level's part of a snapshot (world/snapshot.h): its section, its checksum as the world
 * keeps it, and the copy of a world's level records into a restore's state.
 *
 * The section, in this order: the tag "RLVL"; the count of level bodies, then each one's index
 * (ascending) and fields; the count of level shapes, then each one's index, fields (not its
 * contact list: the frame's) and, a polygon's or a capsule's, its block of the pool; the count
 * of level chains, then each one's index and chain; the level's grid as rc_grid_save_part
 * writes it without its moves. */
#include "world/snapshot.h"

#include <string.h>

#define LEVEL_TAG 0x4C564C52u /* "RLVL" */

/* The index of the next level record: the next slot the world's level holds (writing), or
 * above the last one read and below the count (reading). */
static void io_index(rc_bytes *b, int32_t *index, int32_t *last, int32_t count) {
    rc_io_index(b, index, count, false);
    if (b->reading && *index <= *last) {
        rc_bytes_fail(b);
    }
    *last = *index;
}

static void io_level_bodies(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n) {
    int32_t count = 0;
    for (int32_t i = 0; i < w->bodies.count && !b->reading; ++i) {
        count += rc_level_body(&w->bodies.data[i]) ? 1 : 0;
    }
    rc_io_count(b, &count, n->bodies);
    for (int32_t k = 0, i = -1, last = -1; k < count && !b->failed; ++k) {
        do {
            ++i;
        } while (!b->reading && !rc_level_body(&w->bodies.data[i]));
        io_index(b, &i, &last, n->bodies);
        if (b->failed) {
            return;
        }
        rc_body *x = &w->bodies.data[i];
        rc_snapshot_io_body(b, x, n);
        if (b->reading && x->type != RC_STATIC) {
            rc_bytes_fail(b);
        }
    }
}

static void io_level_shapes(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n) {
    int32_t count = 0;
    for (int32_t i = 0; i < w->shapes.count && !b->reading; ++i) {
        count += rc_level_shape(w, &w->shapes.data[i]) ? 1 : 0;
    }
    rc_io_count(b, &count, n->shapes);
    for (int32_t k = 0, i = -1, last = -1; k < count && !b->failed; ++k) {
        do {
            ++i;
        } while (!b->reading && !rc_level_shape(w, &w->shapes.data[i]));
        io_index(b, &i, &last, n->shapes);
        if (b->failed) {
            return;
        }
        rc_shape *x = &w->shapes.data[i];
        rc_snapshot_io_shape(b, x, n);
        /* reading: on a level body read before (the others' slots are free yet) */
        if (b->reading && !b->failed && !rc_level_shape(w, x)) {
            rc_bytes_fail(b);
        }
        if (!b->failed) {
            rc_snapshot_io_poly_block(b, w, x);
        }
    }
}

/* Reading, a chain's block is the state's once read (a failure gives back every block it holds). */
static bool io_level_chains(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n) {
    int32_t count = 0;
    for (int32_t i = 0; i < w->chains.count && !b->reading; ++i) {
        count += rc_level_chain(w, &w->chains.data[i]) ? 1 : 0;
    }
    rc_io_count(b, &count, n->chains);
    for (int32_t k = 0, i = -1, last = -1; k < count && !b->failed; ++k) {
        do {
            ++i;
        } while (!b->reading && !rc_level_chain(w, &w->chains.data[i]));
        io_index(b, &i, &last, n->chains);
        if (b->failed) {
            return true;
        }
        rc_chain *x = &w->chains.data[i];
        if (!rc_snapshot_io_chain(b, w, x, n)) {
            return false;
        }
        if (b->reading && !b->failed && !rc_level_chain(w, x)) {
            rc_bytes_fail(b);
        }
    }
    return true;
}

bool rc_snapshot_io_level(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n) {
    uint32_t tag = LEVEL_TAG;
    rc_io_u32(b, &tag);
    if (b->reading && tag != LEVEL_TAG) {
        rc_bytes_fail(b);
    }
    io_level_bodies(b, w, n);
    io_level_shapes(b, w, n);
    if (!io_level_chains(b, w, n)) {
        return false;
    }
    /* the level's grid, but for its moves (the frame's: they change as steps forget them) */
    if (!b->reading) {
        rc_grid_save_part(w->level_grid, b, false);
        return true;
    }
    if (b->failed) {
        return true;
    }
    w->level_grid = rc_grid_load_reusing(b, &w->allocator, w->level_grid); /* a spare's: its memory */
    return w->level_grid != NULL || b->failed;
}

bool rc_level_checksum_known(const rc_world *world, uint64_t *checksum) {
    rc_world *w = (rc_world *)world; /* (atomics: loaded, never stored here) */
    if (atomic_load_explicit(&w->level_kept_revision, memory_order_acquire) != world->level_revision + 1u) {
        return false;
    }
    *checksum = atomic_load_explicit(&w->level_kept_checksum, memory_order_relaxed);
    return true;
}

/* Snapshots are queries and may run on several threads at once: each keeps the same checksum
 * for the same revision (the level changes only in calls that nothing runs beside), the
 * revision last, so that a thread that sees it sees the checksum. */
void rc_level_checksum_keep(const rc_world *world, uint64_t checksum) {
    rc_world *w = (rc_world *)world;
    atomic_store_explicit(&w->level_kept_checksum, checksum, memory_order_relaxed);
    atomic_store_explicit(&w->level_kept_revision, world->level_revision + 1u, memory_order_release);
}

uint64_t rc_level_checksum_work(const rc_world *world) {
    /* the section written through a staging buffer into its checksum: no room needed */
    uint8_t staging[RC_BYTES_STAGING];
    rc_checksum sink;
    rc_bytes b = rc_bytes_hasher(&sink, staging, sizeof staging);
    rc_snapshot_counts n = rc_snapshot_counts_of(world);
    rc_snapshot_io_level(&b, (rc_world *)world, &n); /* (writing only reads the world) */
    size_t written;
    return rc_bytes_hasher_end(&b, &written);
}

uint64_t rc_level_checksum(const rc_world *world) {
    uint64_t checksum;
    if (!rc_level_checksum_known(world, &checksum)) {
        checksum = rc_level_checksum_work(world);
        rc_level_checksum_keep(world, checksum);
    }
    return checksum;
}

/* The level's chains into `state`, their blocks lent (every other chain slot is free). */
static bool copy_chains(rc_world *state, const rc_world *world, const rc_snapshot_counts *n) {
    for (int32_t i = 0; i < world->chains.count; ++i) {
        if (rc_level_chain(world, &world->chains.data[i])) {
            if (i >= n->chains) {
                return false;
            }
            state->chains.data[i] = world->chains.data[i]; /* its block lent */
        }
    }
    return true;
}

bool rc_level_copy_chains(rc_world *state, const rc_world *world, const rc_snapshot_counts *n, const rc_level_index *lv) {
    if (lv->last_body >= n->bodies || lv->last_shape >= n->shapes || (int64_t)lv->poly_end > (int64_t)n->poly_pool) {
        return false; /* a level record beyond the snapshot's counts */
    }
    return copy_chains(state, world, n);
}

bool rc_level_copy(rc_world *state, const rc_world *world, const rc_snapshot_counts *n) {
    int32_t bodies = world->bodies.count > n->bodies ? world->bodies.count : n->bodies;
    for (int32_t i = 0; i < bodies; ++i) {
        if (i < world->bodies.count && rc_level_body(&world->bodies.data[i])) {
            if (i >= n->bodies) {
                return false;
            }
            state->bodies.data[i] = world->bodies.data[i];
        } else if (i < n->bodies) {
            state->bodies.data[i].in_use = false;
        }
    }
    int32_t shapes = world->shapes.count > n->shapes ? world->shapes.count : n->shapes;
    for (int32_t i = 0; i < shapes; ++i) {
        if (i >= world->shapes.count || !rc_level_shape(world, &world->shapes.data[i])) {
            if (i < n->shapes) {
                state->shapes.data[i].in_use = false;
            }
            continue;
        }
        if (i >= n->shapes) {
            return false;
        }
        const rc_shape *s = &world->shapes.data[i];
        state->shapes.data[i] = *s; /* (its contact list's head is the frame's: read there) */
        if (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE) {
            size_t block = (size_t)RC_POLY_BLOCK(s->count);
            if ((uint64_t)s->poly + block > (uint64_t)n->poly_pool) {
                return false;
            }
            memcpy(state->poly_pool.data + s->poly, world->poly_pool.data + s->poly, sizeof(rc_vec2) * block);
        }
    }
    return copy_chains(state, world, n);
}

void rc_level_chains_settle(rc_world *state, rc_world *lender, bool taken) {
    int32_t count = state->chains.count < lender->chains.count ? state->chains.count : lender->chains.count;
    for (int32_t i = 0; i < count; ++i) {
        rc_chain *mine = &state->chains.data[i], *lent = &lender->chains.data[i];
        if (mine->points != NULL && mine->points == lent->points) {
            if (taken) {
                lent->points = NULL;
                lent->segment_shapes = NULL;
            } else {
                mine->points = NULL;
                mine->segment_shapes = NULL;
            }
        }
    }
}

/* ---- the index of the level's slots ---------------------------------------------------------- */

void rc_level_index_free(rc_world *world) {
    if (world->level_index != NULL) {
        rc_mem_free(&world->allocator, world->level_index, world->level_index->bytes);
        world->level_index = NULL;
    }
}

static size_t words_for(int32_t bits) { return ((size_t)bits + 63u) / 64u; }

static void set_bit(uint64_t *bits, int32_t i) { bits[i >> 6] |= (uint64_t)1 << (i & 63); }

static bool has_block(const rc_shape *s) { return s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE; }

/* The index's counts (a pass over the world's bodies and shapes). */
static void count_level(const rc_world *world, rc_level_index *lv) {
    lv->body_slots = world->bodies.count;
    lv->shape_slots = world->shapes.count;
    lv->last_body = lv->last_shape = -1;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        if (rc_level_body(&world->bodies.data[i])) {
            lv->bodies++;
            lv->last_body = i;
        }
    }
    for (int32_t i = 0; i < world->shapes.count; ++i) {
        const rc_shape *s = &world->shapes.data[i];
        if (!rc_level_shape(world, s)) {
            continue;
        }
        lv->shapes++;
        lv->last_shape = i;
        lv->listed += s->kind != RC_KIND_CHAIN ? 1 : 0;
        if (has_block(s)) {
            int32_t end = (int32_t)(s->poly + (uint32_t)RC_POLY_BLOCK(s->count)); /* (within the pool) */
            lv->poly_end = end > lv->poly_end ? end : lv->poly_end;
            lv->poly_live += RC_POLY_BLOCK(s->count);
        }
    }
}

/* Its bits and generations (a second pass, into the arrays laid out after the record). */
static void fill_level(const rc_world *world, rc_level_index *lv) {
    for (int32_t i = 0, k = 0; i < world->bodies.count; ++i) {
        if (rc_level_body(&world->bodies.data[i])) {
            set_bit(lv->body_bits, i);
            lv->body_generations[k++] = world->bodies.data[i].generation;
        }
    }
    for (int32_t i = 0, k = 0; i < world->shapes.count; ++i) {
        const rc_shape *s = &world->shapes.data[i];
        if (!rc_level_shape(world, s)) {
            continue;
        }
        set_bit(lv->shape_bits, i);
        lv->shape_generations[k++] = s->generation;
        for (uint32_t e = 0; has_block(s) && e < (uint32_t)RC_POLY_BLOCK(s->count); ++e) {
            set_bit(lv->poly_bits, (int32_t)(s->poly + e));
        }
    }
}

const rc_level_index *rc_level_index_of(rc_world *world) {
    if (rc_level_index_current(world) != NULL) {
        return world->level_index;
    }
    rc_level_index_free(world);
    rc_level_index counts = {0};
    count_level(world, &counts);
    size_t head = (sizeof counts + 7u) / 8u * 8u;
    size_t words = words_for(counts.body_slots) + words_for(counts.shape_slots) + words_for(counts.poly_end);
    size_t bytes = head + 8u * words + 4u * ((size_t)counts.bodies + (size_t)counts.shapes);
    uint8_t *block = rc_mem_alloc(&world->allocator, bytes);
    if (block == NULL) {
        return NULL; /* (a restore then reads the level's records one by one) */
    }
    memset(block, 0, bytes);
    rc_level_index *lv = (rc_level_index *)(void *)block;
    *lv = counts;
    lv->bytes = bytes;
    lv->body_bits = (uint64_t *)(void *)(block + head);
    lv->shape_bits = lv->body_bits + words_for(counts.body_slots);
    lv->poly_bits = lv->shape_bits + words_for(counts.shape_slots);
    lv->body_generations = (uint32_t *)(void *)(lv->poly_bits + words_for(counts.poly_end));
    lv->shape_generations = lv->body_generations + counts.bodies;
    fill_level(world, lv);
    lv->revision = world->level_revision + 1u;
    world->level_index = lv;
    return lv;
}

/* Do two records write the same bytes (the snapshot's fields: all but what the frame sets in a
 * level record) and carry the same user data? */
static bool same_body(const rc_body *x, const rc_body *y, const rc_snapshot_counts *n) {
    uint8_t a[512], b[512];
    rc_bytes wa = rc_bytes_writer(a, sizeof a), wb = rc_bytes_writer(b, sizeof b);
    rc_snapshot_io_body(&wa, (rc_body *)x, n); /* (writing only reads the record) */
    rc_snapshot_io_body(&wb, (rc_body *)y, n);
    return !wa.failed && !wb.failed && wa.at == wb.at && memcmp(a, b, wa.at) == 0 && x->user_data == y->user_data &&
           x->in_use == y->in_use;
}

static bool same_shape(const rc_shape *x, const rc_shape *y, const rc_snapshot_counts *n) {
    uint8_t a[512], b[512];
    rc_bytes wa = rc_bytes_writer(a, sizeof a), wb = rc_bytes_writer(b, sizeof b);
    rc_snapshot_io_shape(&wa, (rc_shape *)x, n);
    rc_snapshot_io_shape(&wb, (rc_shape *)y, n);
    return !wa.failed && !wb.failed && wa.at == wb.at && memcmp(a, b, wa.at) == 0 && x->user_data == y->user_data &&
           x->in_use == y->in_use;
}

bool rc_level_records_agree(const rc_world *a, const rc_world *b, const rc_level_index *lv) {
    if (lv->last_body >= a->bodies.count || lv->last_body >= b->bodies.count || lv->last_shape >= a->shapes.count ||
        lv->last_shape >= b->shapes.count || lv->poly_end > a->poly_pool.count || lv->poly_end > b->poly_pool.count) {
        return false;
    }
    rc_snapshot_counts n = rc_snapshot_counts_of(a);
    for (int32_t i = 0; i <= lv->last_body; ++i) {
        if (rc_level_index_body(lv, i) && !same_body(&a->bodies.data[i], &b->bodies.data[i], &n)) {
            return false;
        }
    }
    for (int32_t i = 0; i <= lv->last_shape; ++i) {
        if (!rc_level_index_shape(lv, i)) {
            continue;
        }
        const rc_shape *x = &a->shapes.data[i];
        if (!same_shape(x, &b->shapes.data[i], &n) ||
            (has_block(x) && memcmp(a->poly_pool.data + x->poly, b->poly_pool.data + x->poly,
                                    sizeof(rc_vec2) * (size_t)RC_POLY_BLOCK(x->count)) != 0)) {
            return false;
        }
    }
    return true;
}
