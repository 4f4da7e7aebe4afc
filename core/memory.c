#include "core/memory.h"

#include <stdlib.h>
#include <string.h>

static void *default_alloc(size_t size, size_t align, void *user) {
    (void)user;
    if (align <= 16) {
        return malloc(size); /* malloc's alignment covers 16 */
    }
    /* aligned_alloc wants a size that is a multiple of the alignment */
    return aligned_alloc(align, (size + align - 1) & ~(align - 1));
}

static void default_free(void *ptr, size_t size, void *user) {
    (void)size;
    (void)user;
    free(ptr);
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

void rc_mem_free(const rc_allocator *allocator, void *ptr, size_t size) {
    if (ptr != NULL) {
        allocator->free(ptr, size, allocator->user);
    }
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
    void *next = rc_mem_alloc_aligned(allocator, (size_t)grown * elem_size, align);
    if (next == NULL) {
        return false;
    }
    if (*array != NULL) {
        memcpy(next, *array, (size_t)count * elem_size);
        rc_mem_free(allocator, *array, (size_t)*capacity * elem_size);
    }
    *array = next;
    *capacity = grown;
    return true;
}

bool rc_mem_shrink_aligned(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count, int32_t keep,
                           size_t elem_size, size_t align) {
    int32_t target = keep > count ? keep : count;
    target = target > 16 ? target : 16;
    if (*capacity < 2 * target) {
        return true; /* not worth a copy */
    }
    void *next = rc_mem_alloc_aligned(allocator, (size_t)target * elem_size, align);
    if (next == NULL) {
        return false;
    }
    if (count > 0) {
        memcpy(next, *array, (size_t)count * elem_size);
    }
    rc_mem_free(allocator, *array, (size_t)*capacity * elem_size);
    *array = next;
    *capacity = target;
    return true;
}
