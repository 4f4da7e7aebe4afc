#include "core/id_pool.h"

#include "core/memory.h"

#include <string.h>

static bool resize(const rc_allocator *allocator, rc_id_pool *pool, int32_t capacity) {
    int32_t *free_slots = rc_mem_alloc(allocator, sizeof(int32_t) * (size_t)capacity);
    uint32_t *counts = rc_mem_alloc(allocator, sizeof(uint32_t) * (size_t)capacity);
    if (free_slots == NULL || counts == NULL) {
        rc_mem_free(allocator, free_slots, sizeof(int32_t) * (size_t)capacity);
        rc_mem_free(allocator, counts, sizeof(uint32_t) * (size_t)capacity);
        return false;
    }
    if (pool->capacity > 0) {
        /* all of the free list's array that can have been written (it never holds more than
           `next`): the slots taken since a mark stay above the count (rc_id_pool_rewind) */
        memcpy(free_slots, pool->free_slots, sizeof(int32_t) * (size_t)pool->next);
        memcpy(counts, pool->counts, sizeof(uint32_t) * (size_t)pool->next);
    }
    rc_id_pool_free(allocator, pool);
    pool->free_slots = free_slots;
    pool->counts = counts;
    pool->capacity = capacity;
    return true;
}

bool rc_id_pool_reserve(const rc_allocator *allocator, rc_id_pool *pool, int32_t extra) {
    if (extra < 0) {
        return false;
    }
    /* the free slots are used first; new ones come after `next` */
    int32_t fresh = extra > pool->free_count ? extra - pool->free_count : 0;
    if (fresh > INT32_MAX / 2 - pool->next) {
        return false;
    }
    int32_t needed = pool->next + fresh;
    if (needed <= pool->capacity) {
        return true;
    }
    int32_t grown = pool->capacity > 8 ? pool->capacity + pool->capacity / 2 : 16;
    return resize(allocator, pool, grown > needed ? grown : needed);
}

void rc_id_pool_free(const rc_allocator *allocator, rc_id_pool *pool) {
    rc_mem_free(allocator, pool->free_slots, sizeof(int32_t) * (size_t)pool->capacity);
    rc_mem_free(allocator, pool->counts, sizeof(uint32_t) * (size_t)pool->capacity);
    pool->free_slots = NULL;
    pool->counts = NULL;
    pool->capacity = 0;
}

int32_t rc_id_pool_peek(const rc_id_pool *pool, int32_t k) {
    return k < pool->free_count ? pool->free_slots[pool->free_count - 1 - k] : pool->next + (k - pool->free_count);
}

int32_t rc_id_pool_take(rc_id_pool *pool) {
    if (pool->free_count > 0) {
        return pool->free_slots[--pool->free_count];
    }
    int32_t slot = pool->next++;
    pool->counts[slot] = pool->floor;
    return slot;
}

rc_id_pool_mark rc_id_pool_mark_now(const rc_id_pool *pool) {
    rc_id_pool_mark m = {pool->free_count, pool->next};
    return m;
}

void rc_id_pool_rewind(rc_id_pool *pool, rc_id_pool_mark mark) {
    pool->free_count = mark.free_count;
    pool->next = mark.next;
}

void rc_id_pool_give(rc_id_pool *pool, int32_t slot) {
    uint32_t count = pool->counts[slot] + 1u;
    pool->counts[slot] = count;
    if (count == RC_ID_COUNT_LAST) {
        pool->retired++; /* its next count would repeat one it had: never handed out again */
        return;
    }
    /* room: the free list never holds more than the `next` slots the arrays are sized for */
    pool->free_slots[pool->free_count++] = slot;
}

void rc_id_pool_trim(rc_id_pool *pool, int32_t end) {
    if (end >= pool->next) {
        return;
    }
    uint32_t floor = pool->floor;
    for (int32_t s = end; s < pool->next; ++s) {
        floor = pool->counts[s] >= floor ? pool->counts[s] : floor;
    }
    if (floor == RC_ID_COUNT_LAST) {
        return; /* a retired slot among them: nothing starts beyond its count, keep them all */
    }
    int32_t kept = 0;
    for (int32_t i = 0; i < pool->free_count; ++i) {
        if (pool->free_slots[i] < end) {
            pool->free_slots[kept++] = pool->free_slots[i];
        }
    }
    pool->free_count = kept;
    pool->next = end;
    pool->floor = floor + 1u;
}

void rc_id_pool_shrink(const rc_allocator *allocator, rc_id_pool *pool) {
    int32_t wanted = pool->next > 16 ? pool->next : 16;
    if (pool->capacity >= 2 * wanted) {
        (void)resize(allocator, pool, wanted);
    }
}

size_t rc_id_pool_bytes(const rc_id_pool *pool) {
    return (sizeof(int32_t) + sizeof(uint32_t)) * (size_t)pool->capacity;
}
