#include "core/bytes.h"

/* Eight bytes at a time as little-endian words, in eight lanes (word i goes to lane i % 8:
 * eight independent chains, so the multiplications overlap: four kept the multiplier waiting on
 * each chain's latency, 1.7 times as long), the tail padded with zeros, and the lanes and the
 * length mixed together at the end. h -> rotl((h ^ w) * K, 29) is a bijection of h for each w
 * and of w for each h, and so is each step of the final mixing in the lane it takes: a snapshot
 * that differs in one word has another checksum. Not a defence against forgery: restore checks
 * every index it reads. */
static inline uint64_t load_word(const uint8_t *p, size_t n) {
    uint64_t w = 0;
    for (size_t i = 0; i < n; ++i) {
        w |= (uint64_t)p[i] << (8u * i);
    }
    return w;
}

static inline uint64_t load_full_word(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
#else
    return load_word(p, 8);
#endif
}

static inline uint64_t mix(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    return h << 29 | h >> 35;
}

/* Whole blocks (a word for each lane) into the lanes: the bytes consumed (a multiple of a block). */
static size_t add_blocks(uint64_t lane[RC_CHECKSUM_LANES], const uint8_t *p, size_t size) {
    size_t i = 0;
    for (; i + RC_CHECKSUM_BLOCK <= size; i += RC_CHECKSUM_BLOCK) {
        for (int k = 0; k < RC_CHECKSUM_LANES; ++k) {
            lane[k] = mix(lane[k], load_full_word(p + i + 8 * (size_t)k));
        }
    }
    return i;
}

/* The last bytes (less than a block) and the length, into the result. */
static uint64_t finish(const uint64_t start[RC_CHECKSUM_LANES], const uint8_t *p, size_t left, uint64_t size) {
    uint64_t lane[RC_CHECKSUM_LANES];
    memcpy(lane, start, sizeof lane);
    size_t i = 0;
    for (int k = 0; i + 8 <= left; i += 8, ++k) {
        lane[k] = mix(lane[k], load_full_word(p + i));
    }
    uint64_t h = mix(lane[0], load_word(p + i, left - i));
    for (int k = 1; k < RC_CHECKSUM_LANES; ++k) {
        h = mix(h, lane[k]);
    }
    h = mix(h, size);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
}

/* (the digits of pi, as Blowfish's P-array has them) */
static const uint64_t LANES[RC_CHECKSUM_LANES] = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull,
                                                  0x082EFA98EC4E6C89ull, 0x452821E638D01377ull, 0xBE5466CF34E90C6Cull,
                                                  0xC0AC29B7C97C50DDull, 0x3F84D5B5B5470917ull};

uint64_t rc_bytes_checksum(const void *data, size_t size) {
    const uint8_t *p = (const uint8_t *)data;
    uint64_t lane[RC_CHECKSUM_LANES];
    memcpy(lane, LANES, sizeof lane);
    size_t i = add_blocks(lane, p, size);
    return finish(lane, p + i, size - i, (uint64_t)size);
}

void rc_checksum_init(rc_checksum *c) {
    memcpy(c->lane, LANES, sizeof LANES);
    c->size = 0;
    memset(c->block, 0, sizeof c->block);
}

void rc_checksum_add(rc_checksum *c, const void *data, size_t size) {
    const uint8_t *p = (const uint8_t *)data;
    size_t held = (size_t)(c->size % RC_CHECKSUM_BLOCK);
    c->size += size;
    if (held > 0) {
        size_t take = RC_CHECKSUM_BLOCK - held < size ? RC_CHECKSUM_BLOCK - held : size;
        memcpy(c->block + held, p, take);
        p += take;
        size -= take;
        if (held + take < RC_CHECKSUM_BLOCK) {
            return;
        }
        add_blocks(c->lane, c->block, RC_CHECKSUM_BLOCK);
    }
    size_t done = add_blocks(c->lane, p, size);
    memcpy(c->block, p + done, size - done);
}

uint64_t rc_checksum_end(const rc_checksum *c) {
    return finish(c->lane, c->block, (size_t)(c->size % RC_CHECKSUM_BLOCK), c->size);
}

void rc_bytes_flush(rc_bytes *b) {
    rc_checksum_add(b->sink, b->data, b->at);
    b->hashed += b->at;
    b->at = 0;
    b->room = b->size;
}

uint64_t rc_bytes_hasher_end(rc_bytes *b, size_t *written) {
    rc_bytes_flush(b);
    *written = b->hashed;
    return rc_checksum_end(b->sink);
}

void rc_bytes_hash_ahead(rc_bytes *b, size_t end) {
    while (b->hashed < end && b->hashed < b->size) {
        size_t piece = b->size - b->hashed < RC_BYTES_HASH_AHEAD ? b->size - b->hashed : RC_BYTES_HASH_AHEAD;
        rc_checksum_add(b->sink, b->data + b->hashed, piece);
        b->hashed += piece;
    }
    b->room = b->hashed - b->at;
}

uint64_t rc_bytes_reader_checksum(rc_bytes *b) {
    if (b->data != NULL) {
        size_t at = b->at;
        bool failed = b->failed;
        rc_bytes_hash_ahead(b, b->size);
        b->room = failed ? 0 : b->size - at; /* (a failed cursor stays failed) */
    }
    return rc_checksum_end(b->sink);
}

void rc_io_words_slow(rc_bytes *b, void *values, size_t n) {
    if (n == 0) {
        return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (b->sink != NULL && !b->reading && n > b->room / 4) {
        /* hashing: in pieces its staging buffer holds */
        for (size_t k = 0, step = RC_BYTES_STAGING / 4; k < n; k += step) {
            size_t take = n - k < step ? n - k : step;
            uint8_t *p = rc_bytes_room(b, 4 * take);
            if (p != NULL) {
                memcpy(p, (const uint32_t *)values + k, 4 * take);
            }
        }
        return;
    }
    if (n <= SIZE_MAX / 4) {
        uint8_t *p = rc_bytes_room(b, 4 * n);
        if (p != NULL) {
            if (b->reading) {
                memcpy(values, p, 4 * n);
            } else {
                memcpy(p, values, 4 * n);
            }
        } else if (b->reading) {
            memset(values, 0, 4 * n);
        }
        return;
    }
#endif
    uint32_t *w = (uint32_t *)values;
    for (size_t i = 0; i < n; ++i) {
        rc_io_u32(b, &w[i]);
    }
}
