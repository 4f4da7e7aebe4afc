/* core/map.h: a hash map from 64-bit keys to 32-bit values (open addressing, linear probing,
 * backward-shift deletion, load at most 1/2). Memory comes from an rc_allocator; insertion
 * never allocates, so a caller reserves first and cannot fail half way. */
#ifndef RICOCHET_CORE_MAP_H
#define RICOCHET_CORE_MAP_H

#include <ricochet/base.h>

typedef struct rc_map_slot {
    uint64_t key;
    int32_t value; /* -1 marks a free slot */
} rc_map_slot;

typedef struct rc_map {
    rc_map_slot *slots;
    uint32_t capacity; /* 0 or a power of two */
    int32_t count;
} rc_map;

/* Room for extra more keys; false (map unchanged) when memory runs out. */
bool rc_map_reserve(const rc_allocator *allocator, rc_map *map, int32_t extra);
void rc_map_free(const rc_allocator *allocator, rc_map *map);
/* Give back most of a table whose keys fill less than a sixteenth of it (it keeps room for
 * twice its keys); when memory runs out the map simply keeps its table. */
void rc_map_shrink(const rc_allocator *allocator, rc_map *map);
/* Remove every key, keeping the table. */
void rc_map_clear(rc_map *map);
/* The value for key, or -1. */
int32_t rc_map_get(const rc_map *map, uint64_t key);
/* Insert or overwrite; the room must have been reserved. value >= 0. */
void rc_map_set(rc_map *map, uint64_t key, int32_t value);
/* Remove key if present. */
void rc_map_remove(rc_map *map, uint64_t key);

#endif
