/* core/: what every module shares.
 *
 * Owns: the path from a module to the user's allocator hook (rc_allocator). Every byte the
 * library holds is asked for here and given back here with its size. */
#ifndef RICOCHET_CORE_MEMORY_H
#define RICOCHET_CORE_MEMORY_H

#include <ricochet/base.h>

#include <stdatomic.h>

/* Ask for the cache line at p ahead of its use (a hint: nothing where the compiler has none). For
 * loops that walk records all over memory in an order of their own. */
#if defined(__GNUC__) || defined(__clang__)
#define RC_PREFETCH(p) __builtin_prefetch(p)
#else
#define RC_PREFETCH(p) ((void)(p))
#endif

/* The allocator with malloc and free filled in where the user left NULL (its blocks are
 * realloc's to resize: rc_mem_reserve grows arrays in place). */
rc_allocator rc_mem_resolve(rc_allocator allocator);

/* size bytes aligned to 16 (or to align, a power of two up to 64), or NULL. Zero bytes gives
 * NULL. */
void *rc_mem_alloc(const rc_allocator *allocator, size_t size);
void *rc_mem_alloc_aligned(const rc_allocator *allocator, size_t size, size_t align);
void rc_mem_free(const rc_allocator *allocator, void *ptr, size_t size);

/* An allocator over another (inner, resolved) that counts the bytes it holds: a world's, over
 * the game's hook. The arrays of a tally over the default allocator still grow in place. While
 * the inner functions run, *busy (when not NULL) is raised by one: a world's lock, so that a
 * hook that calls back into the world is refused as a callback is. */
typedef struct rc_mem_tally {
    rc_allocator inner;
    size_t held;
    atomic_int *busy;
} rc_mem_tally;
rc_allocator rc_mem_tallied(rc_mem_tally *tally); /* (the tally must outlive its blocks) */

/* Make room for at least needed elements of elem_size bytes in *array, whose capacity is
 * *capacity: grows to max(needed, 1.5 * capacity, 16), keeping the count elements in use (by
 * realloc with the default allocator, else a copy). On failure returns false and leaves *array
 * and *capacity as they were. */
bool rc_mem_reserve(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count, int32_t needed,
                    size_t elem_size);
/* The same with the array aligned to align (a power of two up to 64). */
bool rc_mem_reserve_aligned(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count,
                            int32_t needed, size_t elem_size, size_t align);

/* The other way: when the array holds at least twice what `keep` (or its count, if larger)
 * needs, move its count elements into an array of that size. False (array unchanged) when the
 * smaller one cannot be had. */
bool rc_mem_shrink_aligned(const rc_allocator *allocator, void **array, int32_t *capacity, int32_t count, int32_t keep,
                           size_t elem_size, size_t align);

#endif
