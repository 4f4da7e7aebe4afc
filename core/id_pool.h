/* core/id_pool.h: slots handed out and taken back, with the generation counters behind ids.
 *
 * A pool hands out slot indices 0, 1, 2, ... and takes them back; a slot given back is handed
 * out again before any new one (last given back, first handed out), so the numbering depends
 * only on the order of the calls. Each slot counts how many times it has been given back: an
 * id made from (slot, count) goes stale when the slot is given back, and stays stale, because
 * a slot whose count reaches its last value is retired (never handed out again) instead of
 * wrapping to a count it had before.
 *
 * Ids carry the count through rc_id_generation with a per-owner salt, so two owners (two
 * worlds) give different generations for the same slot and count, and an id of one is
 * refused by the other (up to a 1 in 2^32 coincidence per check).
 *
 * Memory comes from an rc_allocator. Taking and giving back never allocate: a caller reserves
 * room first and cannot fail half way. */
#ifndef RICOCHET_CORE_ID_POOL_H
#define RICOCHET_CORE_ID_POOL_H

#include <ricochet/base.h>

typedef struct rc_id_pool {
    int32_t *free_slots;  /* slots given back, the next to hand out last */
    int32_t free_count;
    uint32_t *counts;     /* per slot below `next`: times given back */
    int32_t capacity;     /* of both arrays */
    int32_t next;         /* slots [0, next) have been handed out at least once */
    int32_t retired;      /* slots that reached their last count */
    uint32_t floor;       /* the count a slot at or above `next` starts at (after a trim) */
} rc_id_pool;

#define RC_ID_COUNT_LAST UINT32_MAX

/* Room for `extra` more slots to be taken (and any number given back) without allocating;
 * false (pool unchanged) when memory runs out. */
bool rc_id_pool_reserve(const rc_allocator *allocator, rc_id_pool *pool, int32_t extra);
void rc_id_pool_free(const rc_allocator *allocator, rc_id_pool *pool);

/* The slot the k-th next take will hand out (k = 0 is the next one), without taking it. */
int32_t rc_id_pool_peek(const rc_id_pool *pool, int32_t k);
/* Hand out a slot (needs a reserve). */
int32_t rc_id_pool_take(rc_id_pool *pool);
/* Where the pool stands, and every take since then taken back (with no give, trim or shrink
 * in between): the slots taken from the free list are still in its array above its count (a
 * take only moves the count; a reserve that grows the array keeps them), those taken new lie
 * from the mark's `next` on, and a take changes no slot's count. The pool is then as it was,
 * the slots' ids as they were: a world step that fails takes back the contacts it made. */
typedef struct rc_id_pool_mark {
    int32_t free_count, next;
} rc_id_pool_mark;
rc_id_pool_mark rc_id_pool_mark_now(const rc_id_pool *pool);
void rc_id_pool_rewind(rc_id_pool *pool, rc_id_pool_mark mark);
/* Give a slot back: its count moves on; at its last count it is retired. */
void rc_id_pool_give(rc_id_pool *pool, int32_t slot);
/* Slots handed out now. */
static inline int32_t rc_id_pool_live(const rc_id_pool *pool) {
    return pool->next - pool->free_count - pool->retired;
}
static inline uint32_t rc_id_pool_count(const rc_id_pool *pool, int32_t slot) { return pool->counts[slot]; }

/* Forget the slots from `end` up, all of which must be given back (not live): the pool then
 * hands out at most `end` slots before new ones, and a slot at or above `end` handed out later
 * starts beyond every count those slots had, so that their old ids stay stale. Keeps the order
 * of the other free slots. Allocates nothing (the arrays keep their capacity; see
 * rc_id_pool_shrink). */
void rc_id_pool_trim(rc_id_pool *pool, int32_t end);
/* Give back memory beyond what `next` slots need, when it is at least half unused. Failure
 * to allocate the smaller arrays changes nothing. */
void rc_id_pool_shrink(const rc_allocator *allocator, rc_id_pool *pool);

size_t rc_id_pool_bytes(const rc_id_pool *pool);

/* The generation an id shows for a slot's count under an owner's salt: for one salt, distinct
 * counts give distinct generations (a bijection of the 32-bit count); for two salts the values
 * look unrelated. */
static inline uint32_t rc_id_generation(uint32_t count, uint32_t salt) {
    uint32_t x = count * 0x9E3779B1u ^ salt; /* odd multiplier: a bijection */
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return x;
}

#endif
