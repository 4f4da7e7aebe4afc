#include "core/bytes.h"

/* Eight bytes at a time as a little-endian word (the tail padded with zeros, and the length
 * mixed in at the end so that trailing zeros count). h -> rotl((h ^ w) * K, 29) is a
 * bijection of h for each w and of w for each h: a snapshot that differs in one word has
 * another checksum. Not a defence against forgery: restore checks every index it reads. */
static inline uint64_t load_word(const uint8_t *p, size_t n) {
    uint64_t w = 0;
    for (size_t i = 0; i < n; ++i) {
        w |= (uint64_t)p[i] << (8u * i);
    }
    return w;
}

static inline uint64_t mix(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    return h << 29 | h >> 35;
}

uint64_t rc_bytes_checksum(const void *data, size_t size) {
    const uint8_t *p = (const uint8_t *)data;
    uint64_t h = 0x243F6A8885A308D3ull;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
#else
        uint64_t w = load_word(p + i, 8);
#endif
        h = mix(h, w);
    }
    h = mix(h, load_word(p + i, size - i));
    h = mix(h, (uint64_t)size);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
}
