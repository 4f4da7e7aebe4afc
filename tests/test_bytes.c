/* core/bytes.h, the cursor every snapshot goes through, on its own: a hashing reader (the
 * checksum taken piece by piece as the bytes are read, rc_world_restore's) gives the values and
 * the checksum a plain reader and rc_bytes_checksum give, at every size around its pieces and
 * however far the reading went; a record's io through RC_BYTES_RECORD writes and reads the same
 * bytes with the room for it known and field by field near the end of a buffer; rc_io_words'
 * inline copy and its out-of-line rest agree, writing, reading and counting. Expected values are
 * the bytes themselves, decoded little-endian by hand, and rc_bytes_checksum of the whole. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "support/testing.h"

static uint64_t next_u64(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    return z ^ (z >> 31);
}

static uint8_t *random_bytes(size_t n, uint64_t seed) {
    uint8_t *p = malloc(n > 0 ? n : 1);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; ++i) {
        p[i] = (uint8_t)next_u64(&seed);
    }
    return p;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Sizes around the hashing reader's pieces and the checksum's 64-byte blocks. */
static const size_t SIZES[] = {0, 1, 3, 31, 32, 33, 63, 64, 65, 100, 16383, 16384, 16385, 16387, 32768, 40000, 100003};
#define SIZE_COUNT (sizeof SIZES / sizeof SIZES[0])

/* Read to the end in values of 1, 4 and runs of 4-byte words, mixed at random: every value is
 * the bytes at its place, the cursor ends exactly at the end, and the checksum is the whole's. */
START_TEST(a_hashing_reader_reads_and_sums_the_bytes) {
    size_t n = SIZES[_i];
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        uint8_t *data = random_bytes(n, 100 + seed);
        rc_checksum sum;
        rc_bytes b = rc_bytes_hashing_reader(data, n, &sum);
        uint64_t pick = seed;
        size_t at = 0;
        while (at < n) {
            uint64_t kind = next_u64(&pick) % 3;
            if (kind == 0 || n - at < 4) {
                uint8_t v = 0xAA;
                rc_io_u8(&b, &v);
                ck_assert_uint_eq(v, data[at]);
                at += 1;
            } else if (kind == 1) {
                uint32_t v = 0;
                rc_io_u32(&b, &v);
                ck_assert_uint_eq(v, le32(data + at));
                at += 4;
            } else {
                size_t words = 1 + (size_t)(next_u64(&pick) % 3000);
                words = words > (n - at) / 4 ? (n - at) / 4 : words;
                uint32_t *v = malloc(4 * words);
                ck_assert_ptr_nonnull(v);
                rc_io_words(&b, v, words);
                for (size_t k = 0; k < words; ++k) {
                    ck_assert_uint_eq(v[k], le32(data + at + 4 * k));
                }
                free(v);
                at += 4 * words;
            }
            ck_assert(!b.failed);
            ck_assert_uint_eq(b.at, at);
        }
        ck_assert_uint_eq(rc_bytes_reader_checksum(&b), rc_bytes_checksum(data, n));
        /* one byte more: the cursor fails and reads zero */
        uint32_t past = 7;
        rc_io_u32(&b, &past);
        ck_assert(b.failed);
        ck_assert_uint_eq(past, 0);
        free(data);
    }
}
END_TEST

/* A reading that stops anywhere (a refused record, or no more wanted) still gives the checksum
 * of all the bytes: restore refuses damaged bytes as damaged whatever reading them found. */
START_TEST(a_hashing_reader_sums_everything_however_far_it_read) {
    size_t n = 40000;
    uint8_t *data = random_bytes(n, 7);
    uint64_t whole = rc_bytes_checksum(data, n);
    const size_t stops[] = {0, 4, 16380, 16384, 16388, 39996};
    for (size_t s = 0; s < sizeof stops / sizeof stops[0]; ++s) {
        rc_checksum sum;
        rc_bytes b = rc_bytes_hashing_reader(data, n, &sum);
        for (size_t at = 0; at < stops[s]; at += 4) {
            uint32_t v = 0;
            rc_io_u32(&b, &v);
            ck_assert_uint_eq(v, le32(data + at));
        }
        if (s % 2 == 1) {
            rc_bytes_fail(&b); /* (as a refused value does) */
        }
        ck_assert_uint_eq(rc_bytes_reader_checksum(&b), whole);
        /* a failed cursor stays failed; one that was not can read on after it */
        if (s % 2 == 1) {
            ck_assert(b.failed);
            ck_assert_uint_eq(b.room, 0);
        } else {
            uint32_t v = 0;
            rc_io_u32(&b, &v);
            ck_assert(!b.failed);
            ck_assert_uint_eq(v, le32(data + stops[s]));
        }
    }
    /* a damaged byte anywhere: another checksum */
    data[n - 1] ^= 0x10;
    rc_checksum sum;
    rc_bytes b = rc_bytes_hashing_reader(data, n, &sum);
    ck_assert_uint_ne(rc_bytes_reader_checksum(&b), whole);
    free(data);
}
END_TEST

/* A record of fixed fields (bytes, words, a float, an index, an enumeration) the way the
 * snapshot's records are written. */
typedef struct record {
    uint8_t kind;
    bool flag;
    uint32_t id;
    float value;
    int32_t index;
    uint32_t words[5];
} record;

RC_IO void record_fields(rc_bytes *b, record *r) {
    rc_io_u8(b, &r->kind);
    if (b->reading && r->kind > 3) {
        rc_bytes_fail(b);
    }
    rc_io_bool(b, &r->flag);
    rc_io_u32(b, &r->id);
    rc_io_f32(b, &r->value);
    rc_io_index(b, &r->index, 100, true);
    rc_io_words(b, r->words, 5);
}
#define RECORD_BYTES 34 /* 1 + 1 + 4 + 4 + 4 + 20 */

static void io_records(rc_bytes *cursor, record *r, int count) {
    rc_bytes local = *cursor, *b = &local;
    for (int i = 0; i < count; ++i) {
        RC_BYTES_RECORD(b, 64u, record_fields(b, &r[i]));
    }
    *cursor = local;
}

static record some_record(int i) {
    record r = {(uint8_t)(i % 4), i % 3 == 0, 0x01020304u * (uint32_t)i, (float)i * 0.5f - 3.0f, i % 7 == 0 ? -1 : i % 100, {0}};
    for (int k = 0; k < 5; ++k) {
        r.words[k] = (uint32_t)(i * 31 + k) * 2654435761u;
    }
    return r;
}

/* The same records written into a buffer with room to spare, into one exactly their size (the
 * last ones field by field: less room than the bound) and counted: the same bytes, the same
 * count, each value where the format puts it; read back through both paths, the same records;
 * a buffer a byte short fails, and so does a record whose enumeration is out of range. */
START_TEST(a_record_is_the_same_bytes_with_or_without_the_room_for_it) {
    enum { COUNT = 50 };
    record in[COUNT], out[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        in[i] = some_record(i);
    }
    size_t size = (size_t)COUNT * RECORD_BYTES;
    uint8_t *roomy = calloc(size + 1000, 1), *exact = calloc(size, 1);
    ck_assert(roomy != NULL && exact != NULL);
    rc_bytes w1 = rc_bytes_writer(roomy, size + 1000), w2 = rc_bytes_writer(exact, size), c = rc_bytes_counter();
    io_records(&w1, in, COUNT);
    io_records(&w2, in, COUNT);
    io_records(&c, in, COUNT);
    ck_assert(!w1.failed && !w2.failed && !c.failed);
    ck_assert_uint_eq(w1.at, size);
    ck_assert_uint_eq(w2.at, size);
    ck_assert_uint_eq(c.at, size);
    ck_assert_mem_eq(roomy, exact, size);
    for (int i = 0; i < COUNT; ++i) {
        const uint8_t *p = exact + (size_t)i * RECORD_BYTES;
        ck_assert_uint_eq(p[0], in[i].kind);
        ck_assert_uint_eq(p[1], in[i].flag ? 1u : 0u);
        ck_assert_uint_eq(le32(p + 2), in[i].id);
        uint32_t bits;
        memcpy(&bits, &in[i].value, 4);
        ck_assert_uint_eq(le32(p + 6), bits);
        ck_assert_uint_eq(le32(p + 10), (uint32_t)in[i].index);
        for (int k = 0; k < 5; ++k) {
            ck_assert_uint_eq(le32(p + 14 + 4 * k), in[i].words[k]);
        }
    }
    rc_bytes r1 = rc_bytes_reader(exact, size);
    memset(out, 0x55, sizeof out);
    io_records(&r1, out, COUNT);
    ck_assert(!r1.failed);
    ck_assert_uint_eq(r1.at, size);
    for (int i = 0; i < COUNT; ++i) {
        ck_assert_uint_eq(out[i].kind, in[i].kind);
        ck_assert(out[i].flag == in[i].flag);
        ck_assert_uint_eq(out[i].id, in[i].id);
        ck_assert(out[i].value == in[i].value);
        ck_assert_int_eq(out[i].index, in[i].index);
        ck_assert_mem_eq(out[i].words, in[i].words, sizeof in[i].words);
    }
    /* a byte short: the writer fails on the last record */
    rc_bytes w3 = rc_bytes_writer(exact, size - 1);
    io_records(&w3, in, COUNT);
    ck_assert(w3.failed);
    /* an enumeration out of range in record 40: the reader fails there and reads zeros after */
    roomy[40 * RECORD_BYTES] = 9;
    rc_bytes r2 = rc_bytes_reader(roomy, size);
    io_records(&r2, out, COUNT);
    ck_assert(r2.failed);
    ck_assert_uint_eq(out[41].id, 0);
    free(roomy);
    free(exact);
}
END_TEST

/* rc_io_words: no words, words that fit, words past the room (the out-of-line rest), counted. */
START_TEST(words_fit_or_fail_whole) {
    uint32_t v[300];
    for (int k = 0; k < 300; ++k) {
        v[k] = 0xA5000000u + (uint32_t)k;
    }
    uint8_t buf[1200];
    rc_bytes w = rc_bytes_writer(buf, sizeof buf);
    rc_io_words(&w, v, 0);
    ck_assert_uint_eq(w.at, 0);
    rc_io_words(&w, v, 300);
    ck_assert(!w.failed);
    ck_assert_uint_eq(w.at, 1200);
    for (int k = 0; k < 300; ++k) {
        ck_assert_uint_eq(le32(buf + 4 * k), v[k]);
    }
    rc_io_words(&w, v, 1); /* past the end */
    ck_assert(w.failed);
    rc_bytes c = rc_bytes_counter();
    rc_io_words(&c, v, 300);
    rc_io_words(&c, v, 0);
    ck_assert(!c.failed);
    ck_assert_uint_eq(c.at, 1200);
    uint32_t back[301];
    rc_bytes r = rc_bytes_reader(buf, sizeof buf);
    rc_io_words(&r, back, 301); /* more than there is: fails whole and reads zeros */
    ck_assert(r.failed);
    for (int k = 0; k < 301; ++k) {
        ck_assert_uint_eq(back[k], 0);
    }
}
END_TEST

static Suite *bytes_suite(void) {
    Suite *s = suite_create("bytes");
    TCase *t = tcase_create("cursor");
    tcase_add_loop_test(t, a_hashing_reader_reads_and_sums_the_bytes, 0, (int)SIZE_COUNT);
    tcase_add_test(t, a_hashing_reader_sums_everything_however_far_it_read);
    tcase_add_test(t, a_record_is_the_same_bytes_with_or_without_the_room_for_it);
    tcase_add_test(t, words_fit_or_fail_whole);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(bytes_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
