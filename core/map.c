#include "core/map.h"

#include "core/memory.h"

#include <string.h>

static uint32_t hash64(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    key ^= key >> 33;
    return (uint32_t)key;
}

/* Move every key into a table of `capacity` slots (a power of two); false when memory runs out
 * (the map unchanged). */
static bool rehash(const rc_allocator *allocator, rc_map *map, uint64_t capacity) {
    rc_map_slot *slots = rc_mem_alloc(allocator, sizeof(rc_map_slot) * capacity);
    if (slots == NULL) {
        return false;
    }
    for (uint64_t i = 0; i < capacity; ++i) {
        slots[i].value = -1;
    }
    uint32_t mask = (uint32_t)capacity - 1;
    for (uint32_t i = 0; i < map->capacity; ++i) {
        if (map->slots[i].value < 0) {
            continue;
        }
        uint32_t j = hash64(map->slots[i].key) & mask;
        while (slots[j].value >= 0) {
            j = (j + 1) & mask;
        }
        slots[j] = map->slots[i];
    }
    rc_mem_free(allocator, map->slots, sizeof(rc_map_slot) * map->capacity);
    map->slots = slots;
    map->capacity = (uint32_t)capacity;
    return true;
}

bool rc_map_reserve(const rc_allocator *allocator, rc_map *map, int32_t extra) {
    if (extra < 0) {
        return false;
    }
    uint64_t needed = 2u * ((uint64_t)map->count + (uint64_t)extra);
    if (needed <= map->capacity) {
        return true;
    }
    uint64_t capacity = map->capacity ? map->capacity : 32;
    while (capacity < needed) {
        capacity *= 2;
    }
    if (capacity > (1u << 30)) {
        return false;
    }
    return rehash(allocator, map, capacity);
}

void rc_map_shrink(const rc_allocator *allocator, rc_map *map) {
    uint64_t capacity = 32;
    while (capacity < 4u * (uint64_t)map->count) {
        capacity *= 2;
    }
    if (map->capacity >= 4 * capacity) {
        (void)rehash(allocator, map, capacity); /* failing, the map keeps its table */
    }
}

size_t rc_map_bytes(const rc_map *map) { return sizeof(rc_map_slot) * map->capacity; }

void rc_map_free(const rc_allocator *allocator, rc_map *map) {
    rc_mem_free(allocator, map->slots, sizeof(rc_map_slot) * map->capacity);
    memset(map, 0, sizeof *map);
}

void rc_map_clear(rc_map *map) {
    for (uint32_t i = 0; i < map->capacity; ++i) {
        map->slots[i].value = -1;
    }
    map->count = 0;
}

static uint32_t find_slot(const rc_map *map, uint64_t key) {
    uint32_t mask = map->capacity - 1;
    uint32_t i = hash64(key) & mask;
    while (map->slots[i].value >= 0 && map->slots[i].key != key) {
        i = (i + 1) & mask;
    }
    return i;
}

int32_t rc_map_get(const rc_map *map, uint64_t key) {
    if (map->capacity == 0) {
        return -1;
    }
    return map->slots[find_slot(map, key)].value;
}

void rc_map_set(rc_map *map, uint64_t key, int32_t value) {
    uint32_t i = find_slot(map, key);
    if (map->slots[i].value < 0) {
        map->count++;
    }
    map->slots[i].key = key;
    map->slots[i].value = value;
}

void rc_map_remove(rc_map *map, uint64_t key) {
    if (map->capacity == 0) {
        return;
    }
    uint32_t mask = map->capacity - 1;
    uint32_t hole = find_slot(map, key);
    if (map->slots[hole].value < 0) {
        return;
    }
    map->slots[hole].value = -1;
    map->count--;
    for (uint32_t j = (hole + 1) & mask; map->slots[j].value >= 0; j = (j + 1) & mask) {
        uint32_t home = hash64(map->slots[j].key) & mask;
        /* the entry at j may stay only if its home lies cyclically in (hole, j] */
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            map->slots[hole] = map->slots[j];
            map->slots[j].value = -1;
            hole = j;
        }
    }
}
