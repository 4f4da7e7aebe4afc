#include "core/memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The default blocks are malloc's, their start moved up to the alignment asked for, the shift
 * (1 to align bytes) kept in the byte before it: free and realloc get the block malloc gave back
 * from it. (aligned_alloc's blocks cannot be given to realloc and keep their alignment.) */
static unsigned char *default_place(unsigned char *raw, size_t align) {
    size_t shift = align - ((uintptr_t)raw & (align - 1)); /* 1 .. align: room for the byte */
    raw[shift - 1] = (unsigned char)shift;
    return raw + shift;
}

static void *default_alloc(size_t size, size_t align, void *user) {
    (void)user;
    if (size > SIZE_MAX - align) {
        return NULL;
    }
    unsigned char *raw = malloc(size + align);
    return raw != NULL ? default_place(raw, align) : NULL;
}

static void default_free(void *ptr, size_t size, void *user) {
    (void)size;
    (void)user;
    unsigned char *p = ptr;
    free(p - p[-1]);
}

/* realloc, then the first bytes moved to the new block's alignment if its start moved by other
 * than a multiple of it (a large block's pages are remapped in place: the same shift). */
static void *default_resize(void *ptr, size_t old_size, size_t new_size, size_t align, void *user) {
    (void)user;
    unsigned char *p = ptr;
    size_t old_shift = p[-1];
    if (new_size > SIZE_MAX - align) {
        return NULL;
    }
    unsigned char *raw = realloc(p - old_shift, new_size + align);
    if (raw == NULL) {
        return NULL; /* (the block as it was) */
    }
    size_t shift = align - ((uintptr_t)raw & (align - 1));
    if (shift != old_shift) {
        memmove(raw + shift, raw + old_shift, old_size < new_size ? old_size : new_size);
    }
    return default_place(raw, align);
}

rc_allocator rc_mem_resolve(rc_allocator allocator) {
    if (allocator.alloc == NULL || allocator.free == NULL) {
        allocator.alloc = default_alloc;
        allocator.free = default_free;
        allocator.user = NULL;
    }
    return allocator;
}

void *rc_mem_alloc_aligned(const rc_allocator *allocator, size_t size, size_t align) {
    if (size == 0) {
        return NULL;
    }
    return allocator->alloc(size, align < 16 ? 16 : align, allocator->user);
}

void *rc_mem_alloc(const rc_allocator *allocator, size_t size) { return rc_mem_alloc_aligned(allocator, size, 16); }

/* ---- the tally ---- */

static void hold(atomic_int *busy, int by) {
    if (busy != NULL) {
        atomic_fetch_add_explicit(busy, by, memory_order_relaxed);
    }
}

static void *tally_alloc(size_t size, size_t align, void *user) {
    rc_mem_tally *t = user;
    hold(t->busy, 1);
    void *p = t->inner.alloc(size, align, t->inner.user);
    hold(t->busy, -1);
    t->held += p != NULL ? size : 0;
    return p;
}

static void tally_free(void *ptr, size_t size, void *user) {
    rc_mem_tally *t = user;
    t->held -= size;
    hold(t->busy, 1);
    t->inner.free(ptr, size, t->inner.user);
    hold(t->busy, -1);
}

rc_allocator rc_mem_tallied(rc_mem_tally *tally) {
    rc_allocator a = {tally_alloc, tally_free, tally};
    return a;
}

/* Does the allocator resize blocks (the default one, alone or under a tally)? */
static bool resizes(const rc_allocator *a) {
    if (a->alloc == tally_alloc) {
        a = &((const rc_mem_tally *)a->user)->inner;
    }
    return a->alloc == default_alloc;
}

/* A block of old_size bytes resized to new_size (resizes(allocator)), the tally following; NULL
 * with the block untouched on failure. */
static void *resize_block(const rc_allocator *allocator, void *ptr, size_t old_size, size_t new_size, size_t align) {
    void *p = default_resize(ptr, old_size, new_size, align < 16 ? 16 : align, NULL);
    if (p != NULL && allocator->alloc == tally_alloc) {
        rc_mem_tally *t = allocator->user;
        t->held = t->held - old_size + new_size;
    }
    return p;
}

void rc_mem_free(const rc_allocator *allocator, void *ptr, size_t size) {
    if (ptr != NULL) {
        allocator->free(ptr, size, allocator->user);
    }
}

/* An array (NULL: none yet) of capacity elements, count of them in use, made one of `to`
 * elements: resized where the allocator resizes, else a new block with the count copied and the
 * old one freed. False (the array as it was) when the memory cannot be had. */
static bool move_array(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count, int32_t to,
                       size_t elem_size, size_t align) {
    size_t bytes = (size_t)to * elem_size, old_bytes = (size_t)*capacity * elem_size;
    bool in_place = *array != NULL && resizes(allocator);
    void *next = in_place ? resize_block(allocator, *array, old_bytes, bytes, align)
                          : rc_mem_alloc_aligned(allocator, bytes, align);
    if (next == NULL) {
        return false;
    }
    if (*array != NULL && !in_place) {
        memcpy(next, *array, (size_t)count * elem_size);
        rc_mem_free(allocator, *array, old_bytes);
    }
    *array = next;
    *capacity = to;
    return true;
}

bool rc_mem_reserve(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count, int32_t needed,
                    size_t elem_size) {
    return rc_mem_reserve_aligned(allocator, array, capacity, count, needed, elem_size, 16);
}

bool rc_mem_reserve_aligned(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count,
                            int32_t needed, size_t elem_size, size_t align) {
    if (needed <= *capacity) {
        return true;
    }
    if (needed < 0 || needed > INT32_MAX / 2) {
        return false;
    }
    /* half as much again: less idle capacity, and a smaller peak while old and new coexist */
    int32_t grown = *capacity > 8 ? *capacity + *capacity / 2 : 16;
    if (grown < needed) {
        grown = needed;
    }
    return move_array(allocator, array, capacity, count, grown, elem_size, align);
}

bool rc_mem_shrink_aligned(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count, int32_t keep,
                           size_t elem_size, size_t align) {
    int32_t target = keep > count ? keep : count;
    target = target > 16 ? target : 16;
    if (*capacity < 2 * target) {
        return true; /* not worth a copy */
    }
    return move_array(allocator, array, capacity, count, target, elem_size, align);
}
