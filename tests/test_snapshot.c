/* Snapshots (include/ricochet/snapshot.h): a restored moment gives the same bits as the moment
 * itself, in the world that took it and in any other; bad snapshots and calls are refused and
 * change nothing.
 *
 *  - rollback: the busy scene (tests/support/busy_scene.c) runs RUN_STEPS steps, its hash
 *    recorded after each; then again with a snapshot (and a copy of the scene's record) before
 *    every step into a ring of the last 8, rolling back 8 steps every 7th step. Every hash must
 *    be the uninterrupted one, a restored world's snapshot the bytes restored, and a moment's
 *    snapshot taken again after a rollback the bytes taken the first time;
 *  - fresh worlds: snapshots before step 0, between a frame's destroys and its step, after that
 *    step, and late with islands asleep, each restored into a new world (another salt, allocator
 *    and tuning) that runs the scene on to the end: every hash the uninterrupted one. The ids of
 *    the moment are valid there; ids made after it are stale after a rollback; the next id
 *    handed out is the one the original handed out;
 *  - size: the size and the bytes written agree; too small a capacity and NULLs are refused
 *    with a message, writing nothing past the capacity; a world's own snapshot restores as a
 *    no-op;
 *  - damage: a bit flipped in every byte, the snapshot cut to every length (a spread sample of
 *    a large one) and padded are refused with the world unchanged; forged bytes (a byte changed
 *    and the checksum put right) are refused with the world unchanged, or restored, never
 *    reading or writing outside memory (the ASan and valgrind builds watch), into a world whose
 *    own snapshot is the bytes restored and restores, before and after a step;
 *  - memory: the k-th allocation of a restore failing, for k = 1, 2, ... until a restore no
 *    longer reaches it: refused (or, if it got over it, restored), world unchanged, the world's
 *    byte count right, nothing leaked;
 *  - user data kept only for an id live both before the restore and in the snapshot;
 *  - locked: snapshot and restore from an overlap query's callback and from the pre-solve
 *    callback are refused;
 * A hash that differs from the uninterrupted run's fails with the first difference found
 * (busy_scene_diff: a body, a shape, a contact, or the first differing byte of the snapshots);
 * the_diff_names_what_differs checks that it finds one.
 * The format against a committed file: tests/test_snapshot_format.c. */
#include <check.h>
#include <stb_ds.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

#define RUN_STEPS 1500
#define RING 8
#define ROLLBACK_EVERY 7
#define HEADER_BYTES BUSY_SNAPSHOT_HEADER
#define GUARD 64
#define DEFAULT_ALLOCATOR ((rc_allocator){NULL, NULL, NULL})

/* ---- helpers ------------------------------------------------------------------------------------ */

/* The busy scene run `steps` steps (freed with scene_free). */
static busy_scene *scene_after(int steps) {
    busy_scene *s = calloc(1, sizeof *s);
    EXPECT(s != NULL, "calloc");
    busy_scene_run_to(s, DEFAULT_ALLOCATOR, steps);
    return s;
}

static void scene_free(busy_scene *s) {
    busy_scene_end(s);
    free(s);
}

/* The tests marked "both kinds" run twice: _i 0 with full snapshots, 1 with frame snapshots. */
#define FULL 0
#define FRAME 1
static const char *const KIND_NAME[2] = {"full", "frame"};

static uint8_t *take(const rc_world *w, int kind, size_t *n) {
    return kind == FRAME ? busy_snapshot_take_frame(w, n) : busy_snapshot_take(w, n);
}

/* The world's snapshot of that kind is these bytes. */
static void expect_kind_is(const rc_world *w, int kind, const uint8_t *bytes, size_t n, const char *what) {
    size_t m;
    uint8_t *now = take(w, kind, &m);
    const char *why = busy_snapshot_difference(bytes, n, now, m);
    free(now);
    EXPECT(*why == '\0', "%s (%s snapshots): %s", what, KIND_NAME[kind], why);
}

/* The world's (full) snapshot is these bytes. */
static void expect_snapshot_is(const rc_world *w, const uint8_t *bytes, size_t n, const char *what) {
    expect_kind_is(w, FULL, bytes, n, what);
}

static int dynamic_asleep(const busy_scene *s) {
    int n = 0;
    for (int i = 0; i < s->tracked_count; ++i) {
        rc_body_id id = s->tracked[i];
        n += rc_body_is_valid(s->w, id) && rc_body_get_type(s->w, id) == RC_DYNAMIC && !rc_body_is_awake(s->w, id);
    }
    return n;
}

/* The hash after `moment` steps must be the uninterrupted run's. */
static void expect_hash(const busy_scene *s, int moment, const uint64_t *reference, const char *what) {
    if (s->hash.h != reference[moment]) {
        ck_abort_msg("%s: after step %d the hash is %016llx, uninterrupted %016llx; first difference: %s", what,
                     moment - 1, (unsigned long long)s->hash.h, (unsigned long long)reference[moment],
                     busy_scene_diff(s, moment));
    }
}

/* The hash of the scene run uninterrupted, at each moment 0..RUN_STEPS (k: k steps done). */
static uint64_t *reference_hashes(void) {
    uint64_t *reference = calloc(RUN_STEPS + 1, sizeof *reference);
    busy_scene *s = calloc(1, sizeof *s);
    EXPECT(reference != NULL && s != NULL, "calloc");
    busy_scene_begin(s, DEFAULT_ALLOCATOR);
    reference[0] = s->hash.h;
    for (int step = 0; step < RUN_STEPS; ++step) {
        busy_scene_frame(s, step);
        reference[step + 1] = s->hash.h;
    }
    scene_free(s);
    return reference;
}

/* The diff finds what differs (it only runs when a test fails: here it is seen to work). */
START_TEST(the_diff_names_what_differs) {
    busy_scene *s = scene_after(50);
    const char *why = busy_scene_diff(s, 50);
    ck_assert_msg(strstr(why, "the snapshots: ") != NULL && strstr(why, "first difference") == NULL, "%s", why);
    ck_assert(rc_body_set_angular_velocity(s->w, s->crates[2], rc_body_angular_velocity(s->w, s->crates[2]) + 1e-3f));
    why = busy_scene_diff(s, 50);
    ck_assert_msg(strstr(why, "body #") != NULL, "%s", why);
    scene_free(s);
}
END_TEST

/* ---- 1. rollback ---------------------------------------------------------------------------------- */

/* Both kinds. */
START_TEST(rollback_replays_the_same_bits) {
    int kind = _i;
    uint64_t *reference = reference_hashes();
    busy_scene *s = calloc(1, sizeof *s), *saved = calloc(RING, sizeof *saved);
    EXPECT(s != NULL && saved != NULL, "calloc");
    uint8_t *ring[RING] = {NULL};
    size_t ring_size[RING] = {0};
    int ring_moment[RING] = {-1, -1, -1, -1, -1, -1, -1, -1};
    busy_scene_begin(s, DEFAULT_ALLOCATOR);
    int step = 0, furthest = 0, rollbacks = 0, retaken = 0;
    while (step < RUN_STEPS) {
        int slot = step % RING;
        size_t n;
        uint8_t *bytes = take(s->w, kind, &n);
        if (ring_moment[slot] == step) { /* this moment again, after a rollback: the same bytes */
            const char *why = busy_snapshot_difference(ring[slot], ring_size[slot], bytes, n);
            EXPECT(*why == '\0', "the snapshot before step %d, taken again after a rollback, differs: %s", step, why);
            retaken++;
        }
        free(ring[slot]);
        ring[slot] = bytes;
        ring_size[slot] = n;
        ring_moment[slot] = step;
        saved[slot] = *s;
        busy_scene_frame(s, step);
        step++;
        expect_hash(s, step, reference, "rollback");
        if (step > furthest) {
            furthest = step;
            if (step % ROLLBACK_EVERY == 0 && step >= RING) {
                int back = step - RING;
                slot = back % RING;
                EXPECT(ring_moment[slot] == back, "the ring lost the moment %d", back);
                rc_world *w = s->w;
                EXPECT(rc_world_restore(w, ring[slot], ring_size[slot]), "restore at step %d: %s", step,
                       rc_world_last_error(w));
                *s = saved[slot];
                s->w = w;
                expect_kind_is(w, kind, ring[slot], ring_size[slot], "the restored world's snapshot");
                step = back;
                rollbacks++;
            }
        }
    }
    busy_scene_check_body_count(s);
    ck_assert_int_eq(rollbacks, RUN_STEPS / ROLLBACK_EVERY - 1);
    ck_assert_int_eq(retaken, rollbacks * RING); /* every moment rolled back over is taken again */
    ck_assert_msg(s->hash.h == reference[RUN_STEPS], "end hash %016llx, uninterrupted %016llx",
                  (unsigned long long)s->hash.h, (unsigned long long)reference[RUN_STEPS]);
    busy_scene_end(s);
    for (int k = 0; k < RING; ++k) {
        free(ring[k]);
    }
    free(saved);
    free(s);
    free(reference);
}
END_TEST

/* ---- 2. fresh worlds ------------------------------------------------------------------------------ */

/* A rollback of the scene's own world to `bytes` (its moment now): a body made after the
 * snapshot, in a slot a destroy freed, is stale after it; a body destroyed after it is back;
 * a new world restored from it hands out the id the original handed out. */
static void rollback_ids(busy_scene *s, const uint8_t *bytes, size_t n) {
    rc_body_def bd = rc_body_default_def();
    rc_body_id made = rc_body_create(s->w, &bd);
    bool reused = false;
    for (int i = 0; i < s->tracked_count; ++i) {
        reused |= s->tracked[i].index == made.index && !rc_body_id_equals(s->tracked[i], made);
    }
    EXPECT(reused, "the body made after the snapshot does not reuse a slot (%u)", made.index);
    rc_body_id crate = s->crates[0];
    rc_body_destroy(s->w, crate);
    EXPECT(!rc_body_is_valid(s->w, crate), "destroy");
    EXPECT(rc_world_restore(s->w, bytes, n), "rollback: %s", rc_world_last_error(s->w));
    EXPECT(!rc_body_is_valid(s->w, made), "a body made after the snapshot is valid after the rollback");
    EXPECT(rc_body_is_valid(s->w, crate), "a body destroyed after the snapshot is not back");
    expect_snapshot_is(s->w, bytes, n, "the scene's world after the rollback");
    busy_shifted sh = {0, 0};
    rc_world *w = busy_other_world(&sh, 77u);
    EXPECT(rc_world_restore(w, bytes, n), "restore: %s", rc_world_last_error(w));
    rc_body_id again = rc_body_create(w, &bd);
    EXPECT(rc_body_id_equals(again, made), "the new world hands out %u:%08x, the original handed out %u:%08x",
           again.index, again.generation, made.index, made.generation);
    rc_world_destroy(w);
    EXPECT(sh.live == 0, "leak");
}

#define FORKS 4

START_TEST(restored_into_fresh_worlds) {
    /* the moments: before step 0; between the destroy of a grenade in step 1170 (which makes
       no body) and the step; after that step; late, with islands asleep */
    static const int at[FORKS] = {0, 1170, 1171, 1400};
    static const bool mid[FORKS] = {false, true, false, false};
    uint64_t *reference = reference_hashes();
    busy_scene *s = calloc(1, sizeof *s), *forked = calloc(FORKS, sizeof *forked);
    EXPECT(s != NULL && forked != NULL, "calloc");
    busy_shifted sh[FORKS];
    memset(sh, 0, sizeof sh);
    busy_scene_begin(s, DEFAULT_ALLOCATOR);
    for (int step = 0; step < RUN_STEPS; ++step) {
        bool split = false; /* the scene's frame cut in two at this step */
        for (int f = 0; f < FORKS; ++f) {
            if (at[f] != step) {
                continue;
            }
            if (mid[f]) {
                busy_scene_game(s, step);
                split = true;
            }
            size_t n;
            uint8_t *bytes = busy_snapshot_take(s->w, &n);
            rc_world *w = busy_other_world(&sh[f], 0x0BADCAFEu + (uint32_t)f);
            EXPECT(rc_world_restore(w, bytes, n), "restore of step %d into a new world: %s", step,
                   rc_world_last_error(w));
            expect_snapshot_is(w, bytes, n, "the new world's snapshot");
            forked[f] = *s;
            forked[f].w = w;
            for (int i = 0; i < s->tracked_count; ++i) { /* the same ids live, the same stale */
                rc_body_id id = s->tracked[i];
                EXPECT(rc_body_is_valid(w, id) == rc_body_is_valid(s->w, id), "body #%d at step %d", i, step);
            }
            int asleep = dynamic_asleep(s);
            EXPECT(dynamic_asleep(&forked[f]) == asleep, "sleep at step %d", step);
            EXPECT(f != FORKS - 1 || asleep > 0, "no dynamic body asleep at step %d", step);
            if (f == 2) {
                rollback_ids(s, bytes, n);
            }
            free(bytes);
        }
        for (int f = 0; f < FORKS; ++f) { /* the forks made at this moment or before take the step */
            if (forked[f].w != NULL && mid[f] && at[f] == step) {
                busy_scene_advance(&forked[f], step);
            } else if (forked[f].w != NULL) {
                busy_scene_frame(&forked[f], step);
            }
        }
        if (split) {
            busy_scene_advance(s, step);
        } else {
            busy_scene_frame(s, step);
        }
        expect_hash(s, step + 1, reference, "the scene's world (rolled back once, at step 1171)");
        for (int f = 0; f < FORKS; ++f) {
            if (forked[f].w != NULL) {
                char what[96];
                snprintf(what, sizeof what, "a world restored from another's snapshot of step %d", at[f]);
                expect_hash(&forked[f], step + 1, reference, what);
            }
        }
    }
    for (int f = 0; f < FORKS; ++f) {
        ck_assert_ptr_nonnull(forked[f].w);
        busy_scene_check_body_count(&forked[f]);
        ck_assert_msg(forked[f].hash.h == reference[RUN_STEPS], "forked %d: end hash %016llx, uninterrupted %016llx", f,
                      (unsigned long long)forked[f].hash.h, (unsigned long long)reference[RUN_STEPS]);
        busy_scene_end(&forked[f]);
        ck_assert_int_eq((int)sh[f].live, 0);
    }
    busy_scene_end(s);
    free(reference);
    free(forked);
    free(s);
}
END_TEST

/* ---- 3. size -------------------------------------------------------------------------------------- */

/* A world that destroyed a chain (its slot free, the segment count left behind in it) restores,
 * into itself and into a new world, and steps on as it would have: a free chain slot was read
 * as a whole record once and its stale count refused the snapshot (found by fuzz_snapshot). */
START_TEST(destroyed_chains_restore) {
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = 0xC4A1u;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 floor_points[4] = {{-20, 0}, {-5, -1}, {5, -1}, {20, 0}};
    rc_vec2 ring[5] = {{-3, 5}, {3, 5}, {4, 9}, {0, 12}, {-4, 9}};
    rc_shape_id floor_chain = rc_shape_create_chain(w, level, &sd, floor_points, 4, false);
    rc_shape_id ring_chain = rc_shape_create_chain(w, level, &sd, ring, 5, true);
    ck_assert(!rc_shape_id_is_null(floor_chain) && !rc_shape_id_is_null(ring_chain));
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(1.0f, 3.0f);
    rc_body_id crate = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f)));
    for (int i = 0; i < 10; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    rc_shape_destroy(w, ring_chain);
    ck_assert(!rc_shape_is_valid(w, ring_chain));
    size_t n;
    uint8_t *bytes = busy_snapshot_take(w, &n);
    rc_world_def other = rc_world_default_def();
    other.id_salt = 0x0BADu;
    rc_world *fresh = rc_world_create(&other);
    ck_assert_ptr_nonnull(fresh);
    EXPECT(rc_world_restore(w, bytes, n), "restore into itself: %s", rc_world_last_error(w));
    EXPECT(rc_world_restore(fresh, bytes, n), "restore into a new world: %s", rc_world_last_error(fresh));
    for (int i = 0; i < 60; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT) && rc_world_step(fresh, BUSY_DT));
    }
    rc_transform a = rc_body_transform(w, crate), b = rc_body_transform(fresh, crate);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert(a.p.y > -1.5f && a.p.y < 0.0f); /* resting on the floor chain, not through it */
    free(bytes);
    rc_world_destroy(w);
    rc_world_destroy(fresh);
}
END_TEST

/* Both kinds. */
static size_t kind_size(const rc_world *w, int kind) {
    return kind == FRAME ? rc_world_frame_snapshot_size(w) : rc_world_snapshot_size(w);
}

static size_t kind_write(const rc_world *w, int kind, void *buffer, size_t capacity) {
    return kind == FRAME ? rc_world_snapshot_frame(w, buffer, capacity) : rc_world_snapshot(w, buffer, capacity);
}

START_TEST(size_and_capacity) {
    int kind = _i;
    busy_scene *s = scene_after(300);
    rc_world *w = s->w;
    size_t n = kind_size(w, kind);
    ck_assert_uint_gt(n, 1000);
    uint8_t *buffer = malloc(n + GUARD), *first = malloc(n);
    EXPECT(buffer != NULL && first != NULL, "malloc");
    /* exactly the size, the same bytes twice, nothing written past them */
    memset(buffer, 0xA5, n + GUARD);
    ck_assert_uint_eq(kind_write(w, kind, buffer, n + GUARD), n);
    memcpy(first, buffer, n);
    for (size_t i = n; i < n + GUARD; ++i) {
        EXPECT(buffer[i] == 0xA5, "byte %zu past the snapshot written", i - n);
    }
    ck_assert_uint_eq(kind_write(w, kind, buffer, n), n);
    ck_assert_int_eq(memcmp(buffer, first, n), 0);
    ck_assert_uint_eq(kind_size(w, kind), n);
    /* too small: refused with a message, nothing written past the capacity */
    const size_t shorts[] = {n - 1, n / 2, HEADER_BYTES, 1, 0};
    for (size_t k = 0; k < sizeof shorts / sizeof shorts[0]; ++k) {
        size_t cap = shorts[k];
        memset(buffer, 0xA5, n + GUARD);
        rc_world_clear_error(w);
        ck_assert_uint_eq(kind_write(w, kind, buffer, cap), 0);
        EXPECT(rc_world_last_error(w)[0] != '\0', "capacity %zu: no message", cap);
        for (size_t i = cap; i < n + GUARD; ++i) {
            EXPECT(buffer[i] == 0xA5, "capacity %zu: byte %zu written", cap, i);
        }
    }
    /* NULLs */
    ck_assert_uint_eq(kind_size(NULL, kind), 0);
    ck_assert_uint_eq(kind_write(NULL, kind, buffer, n), 0);
    ck_assert(!rc_world_restore(NULL, first, n));
    rc_world_clear_error(w);
    ck_assert_uint_eq(kind_write(w, kind, NULL, n), 0);
    ck_assert(rc_world_last_error(w)[0] != '\0');
    rc_world_clear_error(w);
    ck_assert(!rc_world_restore(w, NULL, n));
    ck_assert(rc_world_last_error(w)[0] != '\0');
    expect_kind_is(w, kind, first, n, "after the refused calls");
    /* its own snapshot restored changes nothing, and sets no message */
    rc_world_clear_error(w);
    ck_assert(rc_world_restore(w, first, n));
    ck_assert_str_eq(rc_world_last_error(w), "");
    expect_kind_is(w, kind, first, n, "after restoring its own snapshot");
    free(buffer);
    free(first);
    scene_free(s);
}
END_TEST

/* ---- 4. damage ------------------------------------------------------------------------------------ */

#define ALL_UP_TO 65536 /* every byte of a snapshot up to this size is damaged in turn */
#define SAMPLE 20000     /* of a larger one (or under RC_TEST_RANDOM_DIVISOR), a sample */
#define FIRST 1024       /* ... that takes the first bytes (header, settings, counts) in full */
#define CHECK_EVERY 97   /* the world's snapshot compared after every 97th refusal, and at the end */

/* The k-th of `count` positions in n bytes: all of them when count == n, else the first FIRST
 * and the rest spread evenly (an offset varying within each stride), the last byte included. */
static size_t position(size_t k, size_t n, size_t count) {
    if (count == n || k < FIRST) {
        return k;
    }
    size_t j = k - FIRST, spread = count - FIRST, stride = (n - FIRST) / spread;
    return j + 1 == spread ? n - 1 : FIRST + j * stride + (j * 7919u) % stride;
}

/* Both kinds. */
START_TEST(damaged_snapshots_are_refused) {
    int kind = _i;
    busy_scene *s = scene_after(700);
    rc_world *w = s->w;
    size_t n;
    uint8_t *good = take(w, kind, &n), *copy = malloc(n + 1);
    EXPECT(copy != NULL, "malloc");
    memcpy(copy, good, n);
    ck_assert_uint_gt(n, 2 * FIRST);
    size_t count = (size_t)rc_test_random_cases((int)(n <= ALL_UP_TO ? n : SAMPLE));
    count = count < FIRST + 2 ? FIRST + 2 : count;
    fprintf(stderr, "[snapshot] damage: a %s snapshot of %zu bytes, %zu of them flipped and cut at\n", KIND_NAME[kind], n,
            count);
    /* a bit flipped at position i, and the snapshot cut to i bytes */
    for (size_t k = 0; k < count; ++k) {
        size_t i = position(k, n, count);
        uint8_t bit = (uint8_t)(1u << (k % 8));
        copy[i] ^= bit;
        rc_world_clear_error(w);
        bool ok = rc_world_restore(w, copy, n);
        copy[i] ^= bit;
        EXPECT(!ok, "a snapshot with bit %zu of byte %zu flipped was restored", k % 8, i);
        EXPECT(rc_world_last_error(w)[0] != '\0', "byte %zu flipped: no message", i);
        /* past the header (48 bytes), the checksum says so first, whatever else the bytes say
           (restore takes the frame's as it reads it) */
        EXPECT(i < 48 || strstr(rc_world_last_error(w), "checksum does not match") != NULL,
               "byte %zu flipped: \"%s\", not the checksum's message", i, rc_world_last_error(w));
        rc_world_clear_error(w);
        EXPECT(!rc_world_restore(w, good, i), "a snapshot cut to %zu of %zu bytes was restored", i, n);
        EXPECT(rc_world_last_error(w)[0] != '\0', "cut to %zu: no message", i);
        if (k % CHECK_EVERY == 0) {
            expect_kind_is(w, kind, good, n, "after a damaged snapshot");
        }
    }
    /* padded */
    copy[n] = 0;
    rc_world_clear_error(w);
    ck_assert(!rc_world_restore(w, copy, n + 1));
    ck_assert(rc_world_last_error(w)[0] != '\0');
    expect_kind_is(w, kind, good, n, "after damaged, cut and padded snapshots");
    ck_assert(rc_world_restore(w, good, n));
    free(copy);
    free(good);
    scene_free(s);
}
END_TEST

/* Forged: a byte changed and the checksum put right, so that the reader's own checks meet it. */
/* Both kinds. */
START_TEST(forged_snapshots_stay_in_bounds) {
    int kind = _i;
    busy_scene *s = scene_after(400);
    rc_world *w = s->w;
    size_t n;
    uint8_t *good = take(w, kind, &n), *copy = malloc(n);
    EXPECT(copy != NULL, "malloc");
    static const uint8_t values[] = {0x00, 0xFF, 0x7F, 0x80, 0x01};
    size_t cases = (size_t)rc_test_random_cases(1500);
    int refused = 0, restored = 0;
    for (size_t k = 0; k < cases; ++k) {
        size_t i = HEADER_BYTES + (k * 104729u) % (n - HEADER_BYTES);
        memcpy(copy, good, n);
        uint8_t v = values[k % 5];
        copy[i] = v != copy[i] ? v : (uint8_t)(v ^ 0x55);
        busy_snapshot_seal(copy, n);
        rc_world_clear_error(w);
        if (rc_world_restore(w, copy, n)) {
            restored++;
            size_t m; /* a world restored is a world: its own snapshot is the bytes restored, and
                         restores, after a step too */
            uint8_t *own = take(w, kind, &m);
            EXPECT(m == n && memcmp(own, copy, n) == 0, "byte %zu: restored, it writes other bytes", i);
            EXPECT(rc_world_restore(w, own, m), "byte %zu: its own snapshot: %s", i, rc_world_last_error(w));
            free(own);
            EXPECT(rc_world_step(w, BUSY_DT), "byte %zu: %s", i, rc_world_last_error(w));
            own = take(w, kind, &m);
            EXPECT(rc_world_restore(w, own, m), "byte %zu, stepped: %s", i, rc_world_last_error(w));
            free(own);
            EXPECT(rc_world_restore(w, good, n), "back to the good snapshot: %s", rc_world_last_error(w));
        } else {
            refused++;
            EXPECT(rc_world_last_error(w)[0] != '\0', "byte %zu: no message", i);
            if (refused % 16 == 1) {
                expect_kind_is(w, kind, good, n, "after a forged snapshot");
            }
        }
    }
    fprintf(stderr, "[snapshot] forged %s snapshots: %d of %zu refused, %d restored\n", KIND_NAME[kind], refused, cases,
            restored);
    expect_kind_is(w, kind, good, n, "after the forged snapshots");
    ck_assert_int_gt(refused, 0);
    free(copy);
    free(good);
    scene_free(s);
}
END_TEST

/* ---- 5. memory ------------------------------------------------------------------------------------ */

/* Restore `bytes` into w with its 1st, 2nd, ... allocation failing until a restore runs without
 * the failure being reached. A restore that fails is refused, out of memory, the world as it
 * was; one that gets over the failure (an allocation it can do without) must have restored the
 * snapshot, and the world is put back for the next k. Returns how many were refused. */
static int restore_through_failures(rc_world *w, ws_counting_alloc *ca, int kind, const uint8_t *bytes, size_t n) {
    size_t bn;
    uint8_t *before = busy_snapshot_take(w, &bn);
    int refused = 0;
    for (int k = 1;; ++k) {
        int64_t failures = ca->failures;
        ca->fail_at = ca->allocations + k;
        rc_world_clear_error(w);
        bool ok = rc_world_restore(w, bytes, n);
        ca->fail_at = 0;
        bool failed = ca->failures > failures;
        EXPECT((size_t)ca->live_bytes == rc_world_get_counters(w).bytes,
               "allocation %d failing: the world says it holds %zu bytes, its allocator handed out %lld", k,
               rc_world_get_counters(w).bytes, (long long)ca->live_bytes);
        if (!ok) {
            EXPECT(failed && strstr(rc_world_last_error(w), "out of memory") != NULL, "allocation %d failing: \"%s\"",
                   k, rc_world_last_error(w));
            expect_snapshot_is(w, before, bn, "after a restore that ran out of memory");
            refused++;
            continue;
        }
        expect_kind_is(w, kind, bytes, n, "after a restore that succeeded");
        if (!failed) {
            break;
        }
        EXPECT(rc_world_restore(w, before, bn), "back: %s", rc_world_last_error(w));
        EXPECT(k < 10000, "the restore never runs without a failure");
    }
    free(before);
    return refused;
}

/* Both kinds (a frame snapshot into its own world only: a new world has another level). */
START_TEST(restore_out_of_memory) {
    int kind = _i;
    ws_counting_alloc ca, cb;
    ws_alloc_init(&ca);
    ws_alloc_init(&cb);
    busy_scene *s = calloc(1, sizeof *s), *saved = calloc(1, sizeof *saved);
    EXPECT(s != NULL && saved != NULL, "calloc");
    busy_scene_run_to(s, ws_allocator(&ca), 300);
    ck_assert_uint_eq((size_t)ca.live_bytes, rc_world_get_counters(s->w).bytes);
    size_t n;
    uint8_t *at300 = take(s->w, kind, &n);
    *saved = *s;
    for (int step = 300; step < 420; ++step) {
        busy_scene_frame(s, step);
    }
    uint64_t hash420 = s->hash.h;
    /* a rollback from step 420 to 300, then on to 420 again */
    int failures = restore_through_failures(s->w, &ca, kind, at300, n);
    ck_assert_int_gt(failures, 0);
    rc_world *w = s->w;
    *s = *saved;
    s->w = w;
    for (int step = 300; step < 420; ++step) {
        busy_scene_frame(s, step);
    }
    ck_assert_msg(s->hash.h == hash420, "after the rollback: %016llx, the first time %016llx",
                  (unsigned long long)s->hash.h, (unsigned long long)hash420);
    /* into a new world */
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&cb);
    rc_world *fresh = rc_world_create(&wd);
    ck_assert_ptr_nonnull(fresh);
    if (kind == FRAME) { /* the new world takes the level from a full snapshot first */
        size_t fn;
        uint8_t *full = busy_snapshot_take(s->w, &fn);
        EXPECT(rc_world_restore(fresh, full, fn), "the full snapshot: %s", rc_world_last_error(fresh));
        free(full);
    }
    int fresh_failures = restore_through_failures(fresh, &cb, kind, at300, n);
    ck_assert_int_gt(fresh_failures, 0);
    fprintf(stderr, "[snapshot] a %s restore ran out of memory at %d points (rollback), %d (new world)\n",
            KIND_NAME[kind], failures, fresh_failures);
    rc_world_destroy(fresh);
    busy_scene_end(s);
    ck_assert_int_eq((int)ca.live_bytes, 0);
    ck_assert_int_eq((int)cb.live_bytes, 0);
    ck_assert_int_eq((int)(ca.bad_frees + cb.bad_frees), 0);
    ws_alloc_release(&ca);
    ws_alloc_release(&cb);
    free(at300);
    free(saved);
    free(s);
}
END_TEST

/* ---- 6. user data --------------------------------------------------------------------------------- */

START_TEST(user_data_follows_the_ids) {
    static int tag_a, tag_a2, tag_sa, tag_d, tag_sd, tag_e;
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, rc_body_create(w, &bd), &sd, 20.0f, 0.5f)));
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(-3.0f, 1.0f);
    bd.user_data = &tag_a;
    rc_body_id a = rc_body_create(w, &bd);
    sd.user_data = &tag_sa;
    rc_shape_id sa = rc_shape_create_box(w, a, &sd, 0.5f, 0.5f);
    bd.position = rc_v2(3.0f, 1.0f);
    bd.user_data = &tag_d;
    rc_body_id d = rc_body_create(w, &bd);
    sd.user_data = &tag_sd;
    rc_shape_id sdd = rc_shape_create_circle(w, d, &sd, 0.5f);
    ck_assert(!rc_shape_id_is_null(sa) && !rc_shape_id_is_null(sdd));
    for (int i = 0; i < 5; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    size_t n;
    uint8_t *bytes = busy_snapshot_take(w, &n);
    /* after the snapshot: a's user data changes; d goes and e takes its slot */
    ck_assert(rc_body_set_user_data(w, a, &tag_a2));
    rc_body_destroy(w, d);
    bd.user_data = &tag_e;
    rc_body_id e = rc_body_create(w, &bd);
    rc_shape_id se = rc_shape_create_circle(w, e, &sd, 0.5f);
    ck_assert_uint_eq(e.index, d.index); /* the premise: the slot is reused, with another generation */
    ck_assert_uint_ne(e.generation, d.generation);
    ck_assert(rc_world_step(w, BUSY_DT));
    ck_assert(rc_world_restore(w, bytes, n));
    /* a: live with the same id before and in the snapshot: the world's user data, as it is now */
    ck_assert_ptr_eq(rc_body_user_data(w, a), &tag_a2);
    ck_assert_ptr_eq(rc_shape_user_data(w, sa), &tag_sa);
    /* d: back, but its slot held e before the restore: no user data, neither d's nor e's */
    ck_assert(rc_body_is_valid(w, d) && rc_shape_is_valid(w, sdd));
    ck_assert_ptr_null(rc_body_user_data(w, d));
    ck_assert_ptr_null(rc_shape_user_data(w, sdd));
    ck_assert(!rc_body_is_valid(w, e) && !rc_shape_is_valid(w, se));
    /* e's id made again (without user data) has none */
    rc_body_destroy(w, d);
    bd.user_data = NULL;
    rc_body_id e2 = rc_body_create(w, &bd);
    ck_assert(rc_body_id_equals(e2, e));
    ck_assert_ptr_null(rc_body_user_data(w, e2));
    /* a new world has no user data at all */
    rc_world *fresh = rc_world_create(&wd);
    ck_assert(rc_world_restore(fresh, bytes, n));
    ck_assert(rc_body_is_valid(fresh, a) && rc_body_is_valid(fresh, d));
    ck_assert_ptr_null(rc_body_user_data(fresh, a));
    ck_assert_ptr_null(rc_shape_user_data(fresh, sa));
    ck_assert_ptr_null(rc_body_user_data(fresh, d));
    rc_world_destroy(fresh);
    rc_world_destroy(w);
    free(bytes);
}
END_TEST

/* ---- 7. locked ------------------------------------------------------------------------------------ */

typedef struct locked_call {
    rc_world *w;
    const uint8_t *bytes; /* a snapshot of another moment, to restore */
    size_t n, capacity;
    uint8_t *buffer; /* capacity bytes and GUARD more */
    int calls, snapshots_taken, restores_done, silent;
} locked_call;

static void try_both(locked_call *c) {
    c->calls++;
    rc_world_clear_error(c->w);
    c->snapshots_taken += rc_world_snapshot(c->w, c->buffer, c->capacity) != 0;
    c->silent += rc_world_last_error(c->w)[0] == '\0';
    rc_world_clear_error(c->w);
    c->restores_done += rc_world_restore(c->w, c->bytes, c->n);
    c->silent += rc_world_last_error(c->w)[0] == '\0';
}

static bool overlap_cb(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    try_both(context);
    return true;
}

static bool pre_solve_cb(rc_pre_solve *hit, void *context) {
    (void)hit;
    try_both(context);
    return true;
}

static locked_call locked_call_of(rc_world *w, const uint8_t *bytes, size_t n, size_t capacity) {
    locked_call c = {w, bytes, n, capacity, malloc(capacity + GUARD), 0, 0, 0, 0};
    EXPECT(c.buffer != NULL, "malloc");
    memset(c.buffer, 0xA5, capacity + GUARD);
    return c;
}

static void expect_all_refused(const locked_call *c) {
    ck_assert_int_gt(c->calls, 0);
    ck_assert_int_eq(c->snapshots_taken, 0);
    ck_assert_int_eq(c->restores_done, 0);
    ck_assert_int_eq(c->silent, 0);
    for (size_t i = c->capacity; i < c->capacity + GUARD; ++i) {
        EXPECT(c->buffer[i] == 0xA5, "byte %zu past the capacity written", i);
    }
}

START_TEST(refused_while_locked) {
    busy_scene *s = scene_after(100);
    size_t n_then, n;
    uint8_t *then = busy_snapshot_take(s->w, &n_then);
    for (int step = 100; step < 200; ++step) {
        busy_scene_frame(s, step);
    }
    uint8_t *now = busy_snapshot_take(s->w, &n);
    locked_call c = locked_call_of(s->w, then, n_then, n);
    rc_aabb everywhere = {{-40.0f, -20.0f}, {40.0f, 20.0f}};
    int32_t found = rc_world_overlap_aabb(s->w, everywhere, rc_default_query_filter(), overlap_cb, &c);
    ck_assert_int_gt(found, 10);
    ck_assert_int_eq(c.calls, found);
    expect_all_refused(&c);
    expect_snapshot_is(s->w, now, n, "after the query whose callback tried");
    /* the pre-solve callback, inside a step: a crate falls on a floor that asks */
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    sd.enable_pre_solve_events = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, rc_body_create(w, &bd), &sd, 10.0f, 0.5f)));
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(0.0f, 1.2f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, rc_body_create(w, &bd), &sd, 0.5f, 0.5f)));
    size_t n_small;
    uint8_t *small = busy_snapshot_take(w, &n_small);
    locked_call p = locked_call_of(w, small, n_small, n_small);
    ck_assert(rc_world_set_pre_solve_callback(w, pre_solve_cb, &p));
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    expect_all_refused(&p);
    ck_assert(rc_world_restore(w, small, n_small)); /* between calls it works */
    rc_world_destroy(w);
    free(small);
    free(p.buffer);
    free(c.buffer);
    free(then);
    free(now);
    scene_free(s);
}
END_TEST

static Suite *snapshot_suite(void) {
    Suite *s = suite_create("snapshot");
    TCase *t = tcase_create("snapshot");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, the_diff_names_what_differs);
    tcase_add_loop_test(t, rollback_replays_the_same_bits, FULL, FRAME + 1);
    tcase_add_test(t, restored_into_fresh_worlds);
    tcase_add_loop_test(t, size_and_capacity, FULL, FRAME + 1);
    tcase_add_test(t, destroyed_chains_restore);
    tcase_add_loop_test(t, damaged_snapshots_are_refused, FULL, FRAME + 1);
    tcase_add_loop_test(t, forged_snapshots_stay_in_bounds, FULL, FRAME + 1);
    tcase_add_loop_test(t, restore_out_of_memory, FULL, FRAME + 1);
    tcase_add_test(t, user_data_follows_the_ids);
    tcase_add_test(t, refused_while_locked);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return rc_test_run(snapshot_suite()); }
