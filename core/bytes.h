/* core/bytes.h: a defined byte format for saving state (world snapshots, the grid's part of them).
 *
 * Owns: one cursor that either writes values into a buffer or reads them back, so that a record
 * is described once (an io function of fields in order) and the writer and the reader cannot
 * drift apart. Every value is stored little-endian at its own width, whatever the host, the
 * compiler and the struct padding: a bool as one byte 0 or 1, a float as its IEEE-754 bits, an
 * index as a signed 32-bit number. A cursor with no buffer only counts the bytes.
 *
 * Reading never trusts the bytes: a value beyond the end, a bool that is not 0 or 1 or an
 * index outside the range the reader gives marks the cursor failed, and every later value reads
 * as zero; the caller checks `failed` once at the end. */
#ifndef RICOCHET_CORE_BYTES_H
#define RICOCHET_CORE_BYTES_H

#include <ricochet/math.h>

#include <string.h>

/* The io functions are a handful of instructions each, called for every field of every record:
 * inlined wherever they are used (left to itself the compiler called them, a third of a
 * snapshot's time).
 *
 * rc_bytes_local: a record's fields go through a copy of the cursor in a local variable
 * (`rc_bytes local = *cursor; ...fields of &local...; *cursor = local;`), whose address goes to
 * no function that is not inlined. Through the caller's cursor, every byte stored into the
 * buffer or the record might have changed the cursor itself (bytes alias everything), so each
 * field loaded and stored its position again, one after the other through memory; a local
 * nothing can point at keeps them in registers (half of a snapshot's time). The slow path of
 * rc_bytes_room works on a copy of its own for the same reason.
 *
 * RC_BYTES_RECORD then does the io of one record of at most `bound` bytes in three copies: when
 * the room for all of it is known, one for reading and one for writing, where the compiler drops
 * every field's room and direction tests (a field written is then a load and a store), and the
 * checked one for the last bytes of a buffer. `b` is the local cursor; `bound` is a speed hint
 * only (a record longer than it is still checked field by field). */
#if defined(__GNUC__) || defined(__clang__)
#define RC_IO static inline __attribute__((always_inline))
#else
#define RC_IO static inline
#endif

/* A checksum taken piece by piece: the same value as rc_bytes_checksum of the pieces end to end,
 * however they are cut. */
#define RC_CHECKSUM_LANES 8
#define RC_CHECKSUM_BLOCK ((size_t)8 * RC_CHECKSUM_LANES) /* bytes: a word for each lane */
typedef struct rc_checksum {
    uint64_t lane[RC_CHECKSUM_LANES];
    uint64_t size;                    /* bytes added so far */
    uint8_t block[RC_CHECKSUM_BLOCK]; /* the bytes of an unfinished block */
} rc_checksum;

void rc_checksum_init(rc_checksum *c);
void rc_checksum_add(rc_checksum *c, const void *data, size_t size);
uint64_t rc_checksum_end(const rc_checksum *c);

typedef struct rc_bytes {
    uint8_t *data; /* the buffer (NULL: counting only); reading never writes through it */
    size_t size;   /* of the buffer */
    size_t at;     /* bytes written, read or counted so far (hashing: in the staging buffer) */
    size_t room;   /* size - at while all is well; 0 when counting or failed (every value then
                      takes the slow path: one comparison on the fast one) */
    bool reading;
    bool failed;
    rc_checksum *sink; /* hashing: what is written goes through `data` (a staging buffer of `size`
                          bytes) into this checksum, nowhere else (rc_bytes_hasher) */
    size_t hashed;     /* hashing: the bytes that went into the sink so far */
} rc_bytes;

static inline rc_bytes rc_bytes_writer(void *buffer, size_t size) {
    rc_bytes b = {(uint8_t *)buffer, size, 0, buffer != NULL ? size : 0, false, buffer == NULL, NULL, 0};
    return b;
}
static inline rc_bytes rc_bytes_counter(void) {
    rc_bytes b = {NULL, 0, 0, 0, false, false, NULL, 0};
    return b;
}
static inline rc_bytes rc_bytes_reader(const void *buffer, size_t size) {
    rc_bytes b = {(uint8_t *)(void *)buffer, size, 0, buffer != NULL ? size : 0, true, buffer == NULL, NULL, 0}; /* (only read) */
    return b;
}
/* A reader that takes the checksum of the bytes as it goes (into sink, initialised here): a
 * piece of RC_BYTES_HASH_AHEAD bytes is added just before its first value is read, while the
 * piece is in the cache the values are then read from, not in a pass of its own over the whole
 * buffer. Its room ends where the bytes hashed end. rc_bytes_reader_checksum gives the checksum
 * of all `size` bytes, however far the reading went. */
#define RC_BYTES_HASH_AHEAD 16384u
static inline rc_bytes rc_bytes_hashing_reader(const void *buffer, size_t size, rc_checksum *sink) {
    rc_checksum_init(sink);
    rc_bytes b = {(uint8_t *)(void *)buffer, size, 0, 0, true, buffer == NULL, sink, 0}; /* (only read) */
    return b;
}
uint64_t rc_bytes_reader_checksum(rc_bytes *b);

/* Reading through a hashing reader: the pieces up to `end` hashed, the room extended to them. */
void rc_bytes_hash_ahead(rc_bytes *b, size_t end);

/* A writer that keeps nothing but the checksum of what is written (into sink, initialised
 * here), through a staging buffer of the caller's of at least RC_BYTES_STAGING bytes: the
 * checksum of a state without the room to write it. rc_bytes_hasher_end gives the checksum
 * and the bytes written. */
#define RC_BYTES_STAGING 1024u
static inline rc_bytes rc_bytes_hasher(rc_checksum *sink, void *staging, size_t size) {
    rc_checksum_init(sink);
    rc_bytes b = {(uint8_t *)staging, size, 0, size, false, false, sink, 0};
    return b;
}
uint64_t rc_bytes_hasher_end(rc_bytes *b, size_t *written);

/* Hashing: the staging buffer into the sink (slow path of rc_bytes_room). */
void rc_bytes_flush(rc_bytes *b);

/* Past the room: counting goes on counting, hashing empties its staging buffer and goes on, a
 * hashing reader hashes the next pieces; anything else has failed. */
static inline uint8_t *rc_bytes_short(rc_bytes *b, size_t n) {
    if (b->sink != NULL && b->reading && !b->failed && n <= b->size - b->at) {
        rc_bytes_hash_ahead(b, b->at + n);
        uint8_t *p = b->data + b->at;
        b->at += n;
        b->room -= n;
        return p;
    }
    if (b->sink != NULL && !b->reading && !b->failed && n <= b->size) {
        rc_bytes_flush(b);
        uint8_t *p = b->data;
        b->at = n;
        b->room = b->size - n;
        return p;
    }
    if (!b->reading && b->data == NULL && !b->failed) {
        b->at += n;
    } else {
        b->failed = true;
        b->room = 0;
    }
    return NULL;
}

/* (rc_bytes_local, above) */
#define RC_BYTES_RECORD(b, bound, io)                                                                                  \
    do {                                                                                                               \
        if ((b)->room >= (bound)) {                                                                                    \
            if ((b)->reading) {                                                                                        \
                (b)->reading = true; /* (the direction known in each copy) */                                          \
                io;                                                                                                    \
            } else {                                                                                                   \
                (b)->reading = false;                                                                                  \
                io;                                                                                                    \
            }                                                                                                          \
        } else {                                                                                                       \
            io;                                                                                                        \
        }                                                                                                              \
    } while (0)

/* Room for n more bytes: the place to write or read them, or NULL (counting, or failed). */
RC_IO uint8_t *rc_bytes_room(rc_bytes *b, size_t n) {
    if (n <= b->room) {
        uint8_t *p = b->data + b->at;
#if defined(__GNUC__) || defined(__clang__)
        if (n > 0 && p == NULL) {
            __builtin_unreachable(); /* (room is 0 without a buffer: no test of p after this) */
        }
#endif
        b->at += n;
        b->room -= n;
        return p;
    }
    /* the slow path through a copy: `b` is often a record's local cursor, whose address must
       not escape for its fields to stay in registers (rc_bytes_local) */
    rc_bytes slow = *b;
    uint8_t *p = rc_bytes_short(&slow, n);
    *b = slow;
    return p;
}

/* Mark the cursor failed (bad bytes read): every later value reads as zero. */
static inline void rc_bytes_fail(rc_bytes *b) {
    b->failed = true;
    b->room = 0;
}

RC_IO void rc_io_u32(rc_bytes *b, uint32_t *v) {
    uint8_t *p = rc_bytes_room(b, 4);
    if (p == NULL) {
        if (b->reading) {
            *v = 0u;
        }
        return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (b->reading) {
        memcpy(v, p, 4); /* the stored bytes are the value's own */
    } else {
        memcpy(p, v, 4);
    }
#else
    if (b->reading) {
        *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    } else {
        p[0] = (uint8_t)*v;
        p[1] = (uint8_t)(*v >> 8);
        p[2] = (uint8_t)(*v >> 16);
        p[3] = (uint8_t)(*v >> 24);
    }
#endif
}

RC_IO void rc_io_u64(rc_bytes *b, uint64_t *v) {
    uint32_t lo = (uint32_t)*v, hi = (uint32_t)(*v >> 32);
    rc_io_u32(b, &lo);
    rc_io_u32(b, &hi);
    if (b->reading) {
        *v = (uint64_t)hi << 32 | lo;
    }
}

RC_IO void rc_io_u16(rc_bytes *b, uint16_t *v) {
    uint8_t *p = rc_bytes_room(b, 2);
    if (p == NULL) {
        if (b->reading) {
            *v = 0u;
        }
        return;
    }
    if (b->reading) {
        *v = (uint16_t)(p[0] | p[1] << 8);
    } else {
        p[0] = (uint8_t)*v;
        p[1] = (uint8_t)(*v >> 8);
    }
}

RC_IO void rc_io_u8(rc_bytes *b, uint8_t *v) {
    uint8_t *p = rc_bytes_room(b, 1);
    if (p == NULL) {
        if (b->reading) {
            *v = 0u;
        }
        return;
    }
    if (b->reading) {
        *v = p[0];
    } else {
        p[0] = *v;
    }
}

RC_IO void rc_io_i8(rc_bytes *b, int8_t *v) {
    uint8_t u = b->reading ? 0u : (uint8_t)*v;
    rc_io_u8(b, &u);
    if (b->reading) {
        *v = (int8_t)u;
    }
}

RC_IO void rc_io_bool(rc_bytes *b, bool *v) {
    uint8_t u = !b->reading && *v ? 1u : 0u; /* (reading, *v may not be a bool yet) */
    rc_io_u8(b, &u);
    if (b->reading) {
        if (u > 1u) {
            rc_bytes_fail(b);
        }
        *v = u == 1u;
    }
}

RC_IO void rc_io_i32(rc_bytes *b, int32_t *v) {
    uint32_t u = (uint32_t)*v;
    rc_io_u32(b, &u);
    if (b->reading) {
        *v = (int32_t)u;
    }
}

/* An index into something of `count` entries, or -1 when `none` allows it: anything else read
 * fails the cursor (a forged snapshot must not reach past an array). */
RC_IO void rc_io_index(rc_bytes *b, int32_t *v, int32_t count, bool none) {
    rc_io_i32(b, v);
    if (b->reading && !(*v >= (none ? -1 : 0) && *v < count)) {
        rc_bytes_fail(b);
        *v = none ? -1 : 0;
    }
}

/* A count from 0 to max. */
RC_IO void rc_io_count(rc_bytes *b, int32_t *v, int32_t max) {
    rc_io_i32(b, v);
    if (b->reading && !(*v >= 0 && *v <= max)) {
        rc_bytes_fail(b);
        *v = 0;
    }
}

RC_IO void rc_io_f32(rc_bytes *b, float *v) {
    uint32_t u;
    memcpy(&u, v, sizeof u);
    rc_io_u32(b, &u);
    if (b->reading) {
        memcpy(v, &u, sizeof u);
    }
}

RC_IO void rc_io_vec2(rc_bytes *b, rc_vec2 *v) {
    rc_io_f32(b, &v->x);
    rc_io_f32(b, &v->y);
}

RC_IO void rc_io_aabb(rc_bytes *b, rc_aabb *box) {
    rc_io_vec2(b, &box->lower);
    rc_io_vec2(b, &box->upper);
}

/* n 32-bit values in a row (an array of uint32_t, int32_t or float): one copy on a
 * little-endian host, where the stored bytes are the values' own. The rest (no room for all of
 * them, a hashing writer's pieces, another byte order) out of line, through a copy of the
 * cursor (rc_bytes_local). */
void rc_io_words_slow(rc_bytes *b, void *values, size_t n);
RC_IO void rc_io_words(rc_bytes *b, void *values, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n > 0 && n <= b->room / 4) {
        uint8_t *p = b->data + b->at;
        b->at += 4 * n;
        b->room -= 4 * n;
        if (b->reading) {
            memcpy(values, p, 4 * n);
        } else {
            memcpy(p, values, 4 * n);
        }
        return;
    }
#endif
    rc_bytes slow = *b;
    rc_io_words_slow(&slow, values, n);
    *b = slow;
}

/* n 16-bit values in a row. */
static inline void rc_io_halves(rc_bytes *b, uint16_t *values, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        rc_io_u16(b, &values[i]);
    }
}

/* A checksum of the bytes (64-bit, eight bytes at a time): each step mixes the next word in
 * by a bijection of the running value, so any change of one word changes the result. */
uint64_t rc_bytes_checksum(const void *data, size_t size);

#endif
