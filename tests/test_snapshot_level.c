/* Frame snapshots and the level (include/ricochet/snapshot.h, world/snapshot.h).
 *
 *  - a frame snapshot restores only over its level: a new world refuses it, with a message and
 *    unchanged; a new world given the level by a full snapshot of another moment takes it and
 *    steps on as the original did;
 *  - every change of the level (a static body made, moved, made dynamic or destroyed, a shape
 *    or chain added to or taken from one, a static shape's settings or base transform changed, a
 *    body made static) makes the frame snapshots taken before it refused, with the world
 *    unchanged; the frame taken after it restores. Changes that are not the level's (bodies that
 *    move, forces, joints to the level, gravity, user data) keep them;
 *  - the checksum the world keeps of its level is the level's: after every step of the busy
 *    scene, and after each change above, a kept checksum is the one worked out again (a field
 *    the step changes in a level record would be caught here);
 *  - a frame snapshot leaves the level out: the rollback scene (a level of 2,000 static shapes
 *    and a chain, 100 crates) takes a frame of under a third of the full size (the level's own
 *    grid is the level's), rolls back 8 frames
 *    every 5 steps and ends as the uninterrupted run, its chains' blocks lent and taken (ASan and
 *    valgrind watch); the level's records keep the world's user data;
 *  - forgeries the world that wrote them would take and another would not (fuzz_snapshot): a
 *    tuning that cuts the level's long walls into other pieces, a body's extents marked to be
 *    worked out again: refused by both, unchanged; what is taken writes back as the same bytes. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"
#include "support/testing.h"
#include "support/world_support.h"
#include "world/snapshot.h" /* the kept checksum, against the one worked out */

#define EXPECT WS_EXPECT
#define DEFAULT_ALLOCATOR ((rc_allocator){NULL, NULL, NULL})

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

/* A kept checksum of the world's level is the level's. */
static void expect_kept_checksum_holds(const rc_world *w, const char *when) {
    uint64_t kept;
    if (rc_level_checksum_known(w, &kept)) {
        uint64_t worked = rc_level_checksum_work(w);
        EXPECT(kept == worked, "%s: the world keeps %016llx for its level, which is %016llx", when,
               (unsigned long long)kept, (unsigned long long)worked);
    }
}

/* Restoring `bytes` into w is refused with a message that says `because`, and changes nothing. */
static void expect_refused(rc_world *w, const uint8_t *bytes, size_t n, const char *because, const char *what) {
    size_t bn;
    uint8_t *before = busy_snapshot_take(w, &bn);
    rc_world_clear_error(w);
    EXPECT(!rc_world_restore(w, bytes, n), "%s: the snapshot was restored", what);
    EXPECT(strstr(rc_world_last_error(w), because) != NULL, "%s: \"%s\"", what, rc_world_last_error(w));
    size_t an;
    uint8_t *after = busy_snapshot_take(w, &an);
    const char *why = busy_snapshot_difference(before, bn, after, an);
    EXPECT(*why == '\0', "%s: the refused restore changed the world: %s", what, why);
    free(before);
    free(after);
}

START_TEST(a_frame_restores_only_over_its_level) {
    busy_scene *s = scene_after(200);
    size_t fn, full_n;
    uint8_t *frame = busy_snapshot_take_frame(s->w, &fn);
    busy_scene at200 = *s;
    uint8_t *full = NULL;
    /* a new world has no level (an empty one): refused */
    busy_shifted sh = {0, 0};
    rc_world *fresh = busy_other_world(&sh, 0xF4E5u);
    expect_refused(fresh, frame, fn, "another level", "a new world");
    /* given the level by a full snapshot of a later moment, it takes the frame of step 200 */
    for (int step = 200; step < 260; ++step) {
        busy_scene_frame(s, step);
    }
    uint64_t at260 = s->hash.h;
    full = busy_snapshot_take(s->w, &full_n);
    EXPECT(rc_world_restore(fresh, full, full_n), "the full snapshot: %s", rc_world_last_error(fresh));
    EXPECT(rc_world_restore(fresh, frame, fn), "the frame over the same level: %s", rc_world_last_error(fresh));
    busy_scene forked = at200;
    forked.w = fresh;
    for (int step = 200; step < 260; ++step) {
        busy_scene_frame(&forked, step);
    }
    ck_assert_msg(forked.hash.h == at260, "the new world from the frame: %016llx, the original %016llx",
                  (unsigned long long)forked.hash.h, (unsigned long long)at260);
    /* the frame's level checksum is the full snapshot's (bytes 40..47 of the header) */
    size_t fn2;
    uint8_t *frame2 = busy_snapshot_take_frame(s->w, &fn2);
    ck_assert_int_eq(memcmp(frame2 + 40, full + 40, 8), 0);
    ck_assert_uint_lt(fn2, full_n);
    busy_scene_end(&forked);
    ck_assert_int_eq((int)sh.live, 0);
    free(frame2);
    free(full);
    free(frame);
    scene_free(s);
}
END_TEST

/* ---- changes of the level ------------------------------------------------------------------ */

typedef bool (*change_fn)(busy_scene *s);

/* tracked[0] is the level body (the sector's chains), tracked[1] a pillar (a circle),
   tracked[2] another (a hexagon), tracked[3] the sandbag, tracked[4] the sensor */
static rc_shape_id first_shape(const rc_world *w, rc_body_id body) {
    rc_shape_id id = RC_NULL_SHAPE_ID;
    EXPECT(rc_body_shapes(w, body, &id, 1) >= 1, "the body has no shape");
    return id;
}

static bool make_static_body(busy_scene *s) {
    rc_body_def bd = rc_body_default_def();
    bd.position = rc_v2(-5.0f, -12.0f);
    return !rc_body_id_is_null(rc_body_create(s->w, &bd));
}
static bool move_static_body(busy_scene *s) { return rc_body_set_transform(s->w, s->tracked[1], rc_v2(-12.0f, -10.5f), 0.0f); }
static bool destroy_static_body(busy_scene *s) {
    rc_body_destroy(s->w, s->tracked[3]);
    return !rc_body_is_valid(s->w, s->tracked[3]);
}
static bool add_box_to_level(busy_scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0.0f, -14.0f);
    return !rc_shape_id_is_null(rc_shape_create_box(s->w, s->tracked[0], &sd, 1.0f, 0.5f));
}
static bool add_chain_to_level(busy_scene *s) {
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 points[3] = {{10, -14}, {12, -13}, {14, -14}};
    return !rc_shape_id_is_null(rc_shape_create_chain(s->w, s->tracked[0], &sd, points, 3, false));
}
static bool destroy_level_shape(busy_scene *s) {
    rc_shape_id id = first_shape(s->w, s->tracked[2]);
    rc_shape_destroy(s->w, id);
    return !rc_shape_is_valid(s->w, id);
}
static bool set_level_friction(busy_scene *s) { return rc_shape_set_friction(s->w, first_shape(s->w, s->tracked[1]), 0.9f); }
static bool set_level_filter(busy_scene *s) {
    rc_filter f = rc_default_filter();
    f.category_bits = 2u;
    return rc_shape_set_filter(s->w, first_shape(s->w, s->tracked[2]), f);
}
static bool set_level_base(busy_scene *s) {
    return rc_shape_set_base_transform(s->w, first_shape(s->w, s->tracked[3]), rc_v2(0.1f, 0.0f), 0.2f, rc_v2(1.0f, 1.0f));
}
static bool make_pillar_dynamic(busy_scene *s) { return rc_body_set_type(s->w, s->tracked[1], RC_DYNAMIC); }
static bool make_crate_static(busy_scene *s) { return rc_body_set_type(s->w, s->crates[3], RC_STATIC); }

/* ... and changes that are not the level's */
static bool make_crate(busy_scene *s) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(0.0f, 12.0f);
    rc_body_id b = rc_body_create(s->w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    return !rc_shape_id_is_null(rc_shape_create_box(s->w, b, &sd, 0.3f, 0.3f));
}
static bool push_crate(busy_scene *s) {
    return rc_body_set_linear_velocity(s->w, s->crates[0], rc_v2(3.0f, 1.0f)) &&
           rc_body_apply_force(s->w, s->crates[2], rc_v2(0.0f, 50.0f), rc_body_position(s->w, s->crates[2]));
}
static bool hinge_to_level(busy_scene *s) {
    rc_revolute_joint_def hinge = rc_revolute_joint_default_def();
    hinge.body_a = s->tracked[2];
    hinge.body_b = s->crates[4];
    return !rc_joint_id_is_null(rc_joint_create_revolute(s->w, &hinge));
}
static bool set_gravity(busy_scene *s) { return rc_world_set_gravity(s->w, rc_v2(0.5f, -9.0f)); }
static bool set_level_user_data(busy_scene *s) {
    static int mark;
    return rc_body_set_user_data(s->w, s->tracked[1], &mark) &&
           rc_shape_set_user_data(s->w, first_shape(s->w, s->tracked[2]), &mark);
}

typedef struct change {
    const char *name;
    change_fn fn;
    bool of_the_level;
} change;

static const change CHANGES[] = {
    {"a static body made", make_static_body, true},
    {"a static body moved", move_static_body, true},
    {"a static body destroyed", destroy_static_body, true},
    {"a box added to the level body", add_box_to_level, true},
    {"a chain added to the level body", add_chain_to_level, true},
    {"a level shape destroyed", destroy_level_shape, true},
    {"a level shape's friction set", set_level_friction, true},
    {"a level shape's filter set", set_level_filter, true},
    {"a level shape's base transform set", set_level_base, true},
    {"a pillar made dynamic", make_pillar_dynamic, true},
    {"a crate made static", make_crate_static, true},
    {"a crate made", make_crate, false},
    {"crates pushed", push_crate, false},
    {"a crate hinged to a pillar", hinge_to_level, false},
    {"gravity set", set_gravity, false},
    {"user data set on level records", set_level_user_data, false},
};

#define CHANGE_COUNT ((int)(sizeof CHANGES / sizeof CHANGES[0]))

START_TEST(changes_of_the_level_refuse_older_frames) {
    const change *c = &CHANGES[_i];
    busy_scene *s = scene_after(150);
    size_t n;
    uint8_t *before = busy_snapshot_take_frame(s->w, &n);
    expect_kept_checksum_holds(s->w, "before the change");
    EXPECT(c->fn(s), "%s: %s", c->name, rc_world_last_error(s->w));
    expect_kept_checksum_holds(s->w, c->name);
    if (c->of_the_level) {
        expect_refused(s->w, before, n, "another level", c->name);
    }
    /* the frame taken now restores after steps, with whatever changed */
    size_t an;
    uint8_t *after = busy_snapshot_take_frame(s->w, &an);
    expect_kept_checksum_holds(s->w, "after the frame snapshot");
    for (int step = 150; step < 160; ++step) {
        busy_scene_frame(s, step);
    }
    expect_kept_checksum_holds(s->w, "after the steps");
    EXPECT(rc_world_restore(s->w, after, an), "%s, then the frame after it: %s", c->name, rc_world_last_error(s->w));
    size_t again_n;
    uint8_t *again = busy_snapshot_take_frame(s->w, &again_n);
    const char *why = busy_snapshot_difference(after, an, again, again_n);
    EXPECT(*why == '\0', "%s: the restored world's frame: %s", c->name, why);
    if (!c->of_the_level) {
        /* the frame from before the change: not the level's, so it restores */
        EXPECT(rc_world_restore(s->w, before, n), "%s, then the frame before it: %s", c->name,
               rc_world_last_error(s->w));
    }
    free(again);
    free(after);
    free(before);
    scene_free(s);
}
END_TEST

START_TEST(the_kept_checksum_is_the_levels) {
    busy_scene *s = calloc(1, sizeof *s);
    EXPECT(s != NULL, "calloc");
    busy_scene_begin(s, DEFAULT_ALLOCATOR);
    int checked = 0;
    for (int step = 0; step < 1500; ++step) {
        if (step % 10 == 0) {
            size_t n;
            free(busy_snapshot_take_frame(s->w, &n)); /* keeps the checksum */
        }
        busy_scene_frame(s, step);
        uint64_t kept;
        if (rc_level_checksum_known(s->w, &kept)) {
            expect_kept_checksum_holds(s->w, "after a step");
            checked++;
        }
    }
    ck_assert_int_gt(checked, 1000);
    scene_free(s);
}
END_TEST

/* ---- a large level --------------------------------------------------------------------------- */

#define PEGS 2000
#define CRATES 100
#define LEVEL_STEPS 200
#define LEVEL_RING 8

static void *const LEVEL_USER = (void *)&LEVEL_USER;

static rc_world *level_world(rc_body_id crates[CRATES], rc_shape_id *peg) {
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = 0x1E7E1u;
    rc_world *w = rc_world_create(&wd);
    EXPECT(w != NULL, "rc_world_create");
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 walls[4] = {{-50, -25}, {50, -25}, {50, 40}, {-50, 40}};
    EXPECT(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, walls, 4, true)), "the walls");
    for (int i = 0; i < PEGS; ++i) {
        sd.offset = rc_v2(-48.0f + 2.4f * (float)(i % 40), -20.0f + 1.0f * (float)(i / 40));
        sd.angle = 0.37f * (float)i;
        rc_shape_id id = i % 2 == 0 ? rc_shape_create_circle(w, level, &sd, 0.2f) : rc_shape_create_box(w, level, &sd, 0.3f, 0.1f);
        EXPECT(!rc_shape_id_is_null(id), "peg %d", i);
        if (i == 7) {
            *peg = id;
        }
    }
    EXPECT(rc_shape_set_user_data(w, *peg, LEVEL_USER) && rc_body_set_user_data(w, level, LEVEL_USER), "user data");
    bd.type = RC_DYNAMIC;
    for (int i = 0; i < CRATES; ++i) {
        bd.position = rc_v2(-45.0f + 0.9f * (float)i, 35.0f - 0.05f * (float)i);
        bd.angle = 0.1f * (float)i;
        crates[i] = rc_body_create(w, &bd);
        rc_shape_def cd = rc_shape_default_def();
        EXPECT(!rc_shape_id_is_null(i % 3 == 0 ? rc_shape_create_circle(w, crates[i], &cd, 0.3f)
                                               : rc_shape_create_box(w, crates[i], &cd, 0.3f, 0.25f)),
               "crate %d", i);
    }
    return w;
}

static uint64_t crates_hash(const rc_world *w, const rc_body_id crates[CRATES]) {
    busy_fnv f = {BUSY_FNV_START};
    for (int i = 0; i < CRATES; ++i) {
        busy_fnv_vec(&f, rc_body_position(w, crates[i]));
        busy_fnv_float(&f, rc_body_angle(w, crates[i]));
        busy_fnv_vec(&f, rc_body_linear_velocity(w, crates[i]));
    }
    return f.h;
}

START_TEST(frames_roll_back_over_a_large_level) {
    rc_body_id crates[CRATES];
    rc_shape_id peg;
    rc_world *w = level_world(crates, &peg);
    uint64_t reference[LEVEL_STEPS + 1];
    reference[0] = crates_hash(w, crates);
    size_t full_n;
    uint8_t *full = busy_snapshot_take(w, &full_n);
    for (int step = 0; step < LEVEL_STEPS; ++step) {
        ck_assert(rc_world_step(w, BUSY_DT));
        reference[step + 1] = crates_hash(w, crates);
    }
    /* again from the start, a frame snapshot before every step, 8 frames back every 5th */
    EXPECT(rc_world_restore(w, full, full_n), "back to the start: %s", rc_world_last_error(w));
    uint8_t *ring[LEVEL_RING] = {NULL};
    size_t ring_n[LEVEL_RING] = {0};
    size_t frame_n = 0;
    int step = 0, furthest = 0, rollbacks = 0;
    while (step < LEVEL_STEPS) {
        free(ring[step % LEVEL_RING]);
        ring[step % LEVEL_RING] = busy_snapshot_take_frame(w, &ring_n[step % LEVEL_RING]);
        frame_n = ring_n[step % LEVEL_RING];
        ck_assert(rc_world_step(w, BUSY_DT));
        step++;
        ck_assert_msg(crates_hash(w, crates) == reference[step], "step %d after %d rollbacks", step, rollbacks);
        if (step > furthest) {
            furthest = step;
            if (step % 5 == 0 && step >= LEVEL_RING) {
                step -= LEVEL_RING;
                EXPECT(rc_world_restore(w, ring[step % LEVEL_RING], ring_n[step % LEVEL_RING]), "rollback: %s",
                       rc_world_last_error(w));
                rollbacks++;
            }
        }
    }
    ck_assert_int_gt(rollbacks, 20);
    /* the level stays out of the frame, and its records keep the world's user data */
    fprintf(stderr, "[snapshot] a level of %d pegs: full %zu bytes, frame %zu\n", PEGS, full_n, frame_n);
    ck_assert_uint_lt(3 * frame_n, full_n); /* (the grid, the level's proxies too, is the frame's) */
    ck_assert_ptr_eq(rc_shape_user_data(w, peg), LEVEL_USER);
    /* the crates rest on the pegs, not through them */
    int below = 0;
    for (int i = 0; i < CRATES; ++i) {
        below += rc_body_position(w, crates[i]).y < -25.0f;
    }
    ck_assert_int_eq(below, 0);
    for (int k = 0; k < LEVEL_RING; ++k) {
        free(ring[k]);
    }
    free(full);
    rc_world_destroy(w);
}
END_TEST

/* Worlds whose counts outnumber their frame section's bytes: 2,000 static bodies of no shape
 * (none of them a byte of the frame), and 300 boxes made and 225 destroyed (their blocks free: a
 * link of 4 bytes for 23 entries of the pool). Their full and frame snapshots restore into themselves, and the
 * full ones into new worlds: the counts were once held to the frame section's bytes (the bodies'
 * to one byte each, the pool's to eight an entry), and such a world's own snapshot was refused
 * (found by fuzz_snapshot). */
START_TEST(worlds_mostly_level_restore) {
    for (int kind = 0; kind < 2; ++kind) {
        rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
        rc_shape_def sd = rc_shape_default_def();
        for (int i = 0; i < 2000 && kind == 0; ++i) { /* (anchors for joints, say: no shape, no proxy) */
            ws_body(w, RC_STATIC, rc_v2((float)(i % 20) * 3.0f, (float)(i / 20) * 3.0f), 0.0f);
        }
        rc_body_id crates[300];
        for (int i = 0; i < 300 && kind == 1; ++i) {
            crates[i] = ws_body(w, RC_DYNAMIC, rc_v2((float)i, 5.0f), 0.0f);
            EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, crates[i], &sd, 0.4f, 0.3f)), "crate %d", i);
        }
        for (int i = 0; i < 300 && kind == 1; ++i) {
            if (i % 4 != 0) {
                rc_body_destroy(w, crates[i]); /* (a quarter kept: the pool is not compacted) */
            }
        }
        rc_body_id ball = ws_circle_body(w, rc_v2(1.5f, 70.0f), rc_v2(0.0f, 0.0f), 0.4f, 0.0f, 0.5f, false);
        for (int i = 0; i < 5; ++i) {
            ck_assert(rc_world_step(w, BUSY_DT));
        }
        size_t fn, n;
        uint8_t *frame = busy_snapshot_take_frame(w, &fn), *full = busy_snapshot_take(w, &n);
        rc_vec2 then = rc_body_position(w, ball);
        for (int i = 0; i < 30; ++i) {
            ck_assert(rc_world_step(w, BUSY_DT));
        }
        EXPECT(rc_world_restore(w, frame, fn), "world %d, its frame (%zu bytes): %s", kind, fn, rc_world_last_error(w));
        ck_assert(rc_body_position(w, ball).y == then.y);
        EXPECT(rc_world_restore(w, full, n), "world %d, its snapshot (%zu bytes): %s", kind, n, rc_world_last_error(w));
        rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
        EXPECT(rc_world_restore(fresh, full, n), "world %d, into a new world: %s", kind, rc_world_last_error(fresh));
        EXPECT(rc_world_restore(fresh, frame, fn), "world %d, its frame into the new world: %s", kind,
               rc_world_last_error(fresh));
        rc_world_destroy(fresh);
        rc_world_destroy(w);
        free(frame);
        free(full);
    }
}
END_TEST

/* A snapshot whose shapes' polygon blocks share pool entries is refused, with the world unchanged:
 * each block is saved with its shape, so the shared entries would read as one shape's and write
 * back as the other's (fuzz_snapshot: "an accepted snapshot writes back as other bytes"), and a
 * frame's block over a level's would change the level the world keeps. The snapshots are forged
 * by pointing one shape's block at another's in the world that takes them (its writer writes
 * whatever it holds), then put right again. */
START_TEST(overlapping_polygon_blocks_are_refused) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_shape_id a = rc_shape_create_box(w, ground, &sd, 1.0f, 0.5f);
    sd.offset = rc_v2(4.0f, 0.0f);
    rc_shape_id b = rc_shape_create_box(w, ground, &sd, 1.0f, 0.5f);
    sd.offset = rc_v2(0.0f, 0.0f);
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 3.0f), 0.0f);
    rc_shape_id c = rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f);
    ck_assert(rc_world_step(w, BUSY_DT));
    rc_shape *sa = &w->shapes.data[a.index - 1], *sb = &w->shapes.data[b.index - 1], *sc = &w->shapes.data[c.index - 1];
    ck_assert_uint_ne(sa->poly, sb->poly);
    size_t bn;
    uint8_t *before = busy_snapshot_take(w, &bn);
    uint32_t kept_b = sb->poly, kept_c = sc->poly;
    /* two level shapes on one block: a full snapshot, into a new world */
    sb->poly = sa->poly;
    size_t n;
    uint8_t *full = busy_snapshot_take(w, &n);
    sb->poly = kept_b;
    rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
    size_t fn0;
    uint8_t *fresh_before = busy_snapshot_take(fresh, &fn0);
    EXPECT(!rc_world_restore(fresh, full, n), "a snapshot with two shapes on one block was taken");
    EXPECT(strstr(rc_world_last_error(fresh), "out of range") != NULL, "message: %s", rc_world_last_error(fresh));
    size_t fn1;
    uint8_t *fresh_after = busy_snapshot_take(fresh, &fn1);
    ck_assert(fn1 == fn0 && memcmp(fresh_after, fresh_before, fn0) == 0);
    /* a moving shape's block on a level shape's: a frame over the world's own level */
    sc->poly = sa->poly;
    size_t frame_n;
    uint8_t *frame = busy_snapshot_take_frame(w, &frame_n);
    sc->poly = kept_c;
    EXPECT(!rc_world_restore(w, frame, frame_n), "a frame with a crate on the level's block was taken");
    size_t an;
    uint8_t *after = busy_snapshot_take(w, &an);
    ck_assert(an == bn && memcmp(after, before, bn) == 0);
    /* and the snapshots as the world wrote them restore */
    EXPECT(rc_world_restore(fresh, before, bn), "%s", rc_world_last_error(fresh));
    free(before);
    free(full);
    free(frame);
    free(after);
    free(fresh_before);
    free(fresh_after);
    rc_world_destroy(fresh);
    rc_world_destroy(w);
}
END_TEST

/* Every live shape but a chain's record is in its body's list, once (fuzz_snapshot, seed 8: a
 * snapshot that listed a chain's record among its body's shapes was taken, and destroying the
 * body then looped for ever on the record its chain had freed; one that left a shape out of its
 * body's list would let the shape outlive its body). Forged in the world that writes them, then
 * put right. */
START_TEST(shapes_listed_once_in_their_bodies) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_vec2 floor[3] = {{-10.0f, 1.0f}, {-10.0f, 0.0f}, {10.0f, 0.0f}};
    rc_shape_id chain = rc_shape_create_chain(w, ground, &sd, floor, 3, false);
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 3.0f), 0.0f);
    rc_shape_id box = rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f);
    ck_assert(!rc_shape_id_is_null(chain) && !rc_shape_id_is_null(box));
    ck_assert(rc_world_step(w, BUSY_DT));
    rc_body *g = &w->bodies.data[ground.index - 1], *c = &w->bodies.data[crate.index - 1];
    rc_shape *head = &w->shapes.data[chain.index - 1];
    rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
    for (int forgery = 0; forgery < 2; ++forgery) {
        int32_t kept_first = g->first_shape, kept_next = head->next_in_body, kept_crate = c->first_shape;
        if (forgery == 0) { /* the chain's record at the head of its body's list */
            head->next_in_body = g->first_shape;
            g->first_shape = (int32_t)chain.index - 1;
        } else { /* the crate's box out of its list */
            c->first_shape = -1;
        }
        size_t n;
        uint8_t *forged = busy_snapshot_take(w, &n);
        g->first_shape = kept_first;
        head->next_in_body = kept_next;
        c->first_shape = kept_crate;
        EXPECT(!rc_world_restore(fresh, forged, n), "forgery %d was taken", forgery);
        EXPECT(strstr(rc_world_last_error(fresh), "out of range") != NULL, "message: %s", rc_world_last_error(fresh));
        free(forged);
    }
    size_t n;
    uint8_t *right = busy_snapshot_take(w, &n);
    EXPECT(rc_world_restore(fresh, right, n), "%s", rc_world_last_error(fresh));
    rc_body_destroy(fresh, ground); /* (what looped) */
    ck_assert(!rc_shape_is_valid(fresh, chain));
    free(right);
    rc_world_destroy(fresh);
    rc_world_destroy(w);
}
END_TEST

/* A snapshot whose count of the polygon pool's live entries (poly_used) is not its live blocks'
 * is refused, with the world unchanged. The pool's compaction copies the live blocks into a new
 * pool of poly_used entries: a count short of them wrote past it (60 crates: 1,380 live entries
 * in a pool of 1,403, compacted at the first step once poly_used is 0, as 1,403 >= 4 * 0 + 1,024),
 * and a destroyed shape takes its block off the count, so a restored world went below zero and
 * wrote a snapshot its own restore refused (fuzz_snapshot). Forged in the world that writes them,
 * then put right. */
START_TEST(polygon_pool_count_is_the_live_blocks) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 40.0f, 0.5f)));
    rc_body_id crates[60];
    for (int i = 0; i < 60; ++i) {
        crates[i] = ws_body(w, RC_DYNAMIC, rc_v2(-30.0f + (float)i, 1.0f), 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crates[i], &sd, 0.4f, 0.4f)));
    }
    rc_body_destroy(w, crates[59]); /* a free block: the pool is larger than the live blocks */
    ck_assert(rc_world_step(w, BUSY_DT));
    /* 60 boxes of 4 vertices live (the ground and 59 crates), a block of 5 * 4 + 3 entries each,
       and the destroyed crate's free block */
    ck_assert_int_eq(w->poly_used, 60 * 23);
    ck_assert_int_eq(w->poly_pool.count, 61 * 23);
    rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
    size_t fn0;
    uint8_t *fresh_before = busy_snapshot_take(fresh, &fn0);
    static const int32_t forged_counts[] = {0, 60 * 23 - 23, 60 * 23 - 1, 60 * 23 + 1, 61 * 23, -1};
    for (int k = 0; k < (int)(sizeof forged_counts / sizeof forged_counts[0]); ++k) {
        int32_t kept = w->poly_used;
        w->poly_used = forged_counts[k];
        size_t n;
        uint8_t *forged = busy_snapshot_take(w, &n);
        w->poly_used = kept;
        EXPECT(!rc_world_restore(fresh, forged, n), "a snapshot counting %d live entries of 1,380 was taken",
               forged_counts[k]);
        EXPECT(strstr(rc_world_last_error(fresh), "out of range") != NULL, "message: %s", rc_world_last_error(fresh));
        size_t fn1;
        uint8_t *fresh_after = busy_snapshot_take(fresh, &fn1);
        EXPECT(fn1 == fn0 && memcmp(fresh_after, fresh_before, fn0) == 0, "count %d: the refused restore changed it",
               forged_counts[k]);
        free(fresh_after);
        free(forged);
    }
    /* the snapshot as written restores; the restored world compacts, destroys and snapshots */
    size_t n;
    uint8_t *right = busy_snapshot_take(w, &n);
    EXPECT(rc_world_restore(fresh, right, n), "%s", rc_world_last_error(fresh));
    for (int i = 0; i < 56; ++i) {
        rc_body_destroy(fresh, crates[i]);
    }
    ck_assert_int_eq(fresh->poly_used, 4 * 23); /* the ground and 3 crates */
    ck_assert(rc_world_step(fresh, BUSY_DT));   /* compacted: 1,403 >= 4 * 92 + 1,024 */
    ck_assert_int_eq(fresh->poly_pool.count, 4 * 23);
    for (int i = 0; i < 60; ++i) {
        ck_assert(rc_world_step(fresh, BUSY_DT));
    }
    for (int i = 56; i < 59; ++i) { /* fallen 0.1 onto the ground's top at 0.5: rest at 0.9 */
        rc_vec2 p = rc_body_position(fresh, crates[i]);
        EXPECT(fabsf(p.y - 0.9f) < 0.02f && fabsf(p.x - (-30.0f + (float)i)) < 1e-3f, "crate %d at (%g, %g)", i,
               (double)p.x, (double)p.y);
    }
    size_t m;
    uint8_t *again = busy_snapshot_take(fresh, &m);
    EXPECT(rc_world_restore(fresh, again, m), "the restored world's own snapshot: %s", rc_world_last_error(fresh));
    free(again);
    free(right);
    free(fresh_before);
    rc_world_destroy(fresh);
    rc_world_destroy(w);
}
END_TEST

/* The bytes of two snapshots are the same. */
static bool same_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    return na == nb && memcmp(a, b, na) == 0;
}

/* A snapshot's tuning shapes the level it restores over: how many pieces a long wall has
 * (world/wall_pieces.c: ceil(length / (1000 linear slops)) past two). A snapshot whose linear
 * slop would cut the wall into other pieces than its level grid has is refused alike by the
 * world that wrote it (whose level is the snapshot's: the level's records are not read but
 * copied) and by a new world that reads them (fuzz_snapshot: a full snapshot with the slop
 * forged to 1e-44, 256 pieces wanted for 3, was taken by the world that wrote it and refused by
 * another); a slop that cuts it alike is a number and restores in both. Forged in the world
 * that writes them, then put right. */
START_TEST(a_tuning_that_cuts_the_level_otherwise_is_refused) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_vec2 floor[2] = {{-21.0f, 0.0f}, {21.0f, 0.0f}}; /* 42 long: ceil(42 / 5) = 9 pieces at slop 0.005 */
    rc_shape_id wall = rc_shape_create_chain(w, ground, &sd, floor, 2, false);
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 3.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(wall) && !rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f)));
    ck_assert(rc_world_step(w, BUSY_DT));
    const rc_shape *segment = &w->shapes.data[w->chains.data[w->shapes.data[wall.index - 1].chain].segment_shapes[0]];
    ck_assert_int_eq(rc_segment_pieces(w, segment), 9);
    size_t bn, bfn;
    uint8_t *before = busy_snapshot_take(w, &bn), *before_frame = busy_snapshot_take_frame(w, &bfn);
    rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
    /* 1e-44 (256 pieces, the most), 0.0025 (ceil(16.8) = 17), 0.004 (ceil(10.5) = 11); 0.0048 and
       0.0052 cut it into ceil(8.75) = ceil(8.08) = 9 as 0.005 does */
    static const float slops[] = {1e-44f, 0.0025f, 0.004f, 0.0048f, 0.0052f};
    static const bool alike[] = {false, false, false, true, true};
    for (int k = 0; k < 5; ++k) {
        float kept = w->def.linear_slop;
        w->def.linear_slop = slops[k];
        size_t n, fn;
        uint8_t *full = busy_snapshot_take(w, &n), *frame = busy_snapshot_take_frame(w, &fn);
        w->def.linear_slop = kept;
        char what[48];
        snprintf(what, sizeof what, "slop %g", (double)slops[k]);
        if (alike[k]) {
            EXPECT(rc_world_restore(w, full, n), "%s: its world: %s", what, rc_world_last_error(w));
            EXPECT(rc_world_restore(fresh, full, n), "%s: another world: %s", what, rc_world_last_error(fresh));
            size_t m;
            uint8_t *back = busy_snapshot_take(w, &m);
            EXPECT(same_bytes(back, m, full, n), "%s: restored, it writes other bytes", what);
            free(back);
            EXPECT(rc_world_restore(w, before, bn), "%s", rc_world_last_error(w));
            EXPECT(rc_world_restore(w, frame, fn), "%s: a frame snapshot: %s", what, rc_world_last_error(w));
        } else {
            expect_refused(w, full, n, "out of range", what);
            expect_refused(fresh, full, n, "out of range", what);
            expect_refused(w, frame, fn, "out of range", what);
        }
        EXPECT(rc_world_restore(w, before_frame, bfn), "%s", rc_world_last_error(w));
        free(full);
        free(frame);
    }
    free(before);
    free(before_frame);
    rc_world_destroy(w);
    /* the tuning compared bit for bit: at slop 0 a wall is in the most pieces (42 / 0 = inf), at
       -0 in one (42 / -0 = -inf), though 0 == -0 */
    rc_world_def wd = rc_world_default_def();
    wd.linear_slop = 0.0f;
    rc_world *z = rc_world_create(&wd);
    ck_assert_ptr_nonnull(z);
    ground = ws_body(z, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    wall = rc_shape_create_chain(z, ground, &sd, floor, 2, false);
    ck_assert(!rc_shape_id_is_null(wall) && rc_world_step(z, BUSY_DT));
    segment = &z->shapes.data[z->chains.data[z->shapes.data[wall.index - 1].chain].segment_shapes[0]];
    ck_assert_int_eq(rc_segment_pieces(z, segment), 256);
    z->def.linear_slop = -0.0f;
    ck_assert_int_eq(rc_segment_pieces(z, segment), 1);
    size_t n, fn;
    uint8_t *full = busy_snapshot_take(z, &n), *frame = busy_snapshot_take_frame(z, &fn);
    z->def.linear_slop = 0.0f;
    expect_refused(z, full, n, "out of range", "a slop of -0");
    expect_refused(fresh, full, n, "out of range", "a slop of -0, another world");
    expect_refused(z, frame, fn, "out of range", "a frame of slop -0");
    free(full);
    free(frame);
    rc_world_destroy(z);
    rc_world_destroy(fresh);
}
END_TEST

/* A body's max_extent below zero marks its extents to be worked out again (its shapes changed
 * since the last step): a snapshot writes them worked out, so a snapshot that holds one below
 * zero (or NaN) is forged, and is refused (fuzz_snapshot: -inf was taken, and the world wrote
 * 0.1 back for it). Any other value is a number: taken, and written back as it was. */
START_TEST(a_marked_extent_is_refused) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 10.0f, 0.5f)));
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 3.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f)));
    ck_assert(rc_world_step(w, BUSY_DT));
    rc_body *c = &w->bodies.data[crate.index - 1];
    ck_assert_float_eq_tol(c->max_extent, sqrtf(0.5f), 1e-6f); /* the box's corner from its centre */
    size_t bn;
    uint8_t *before = busy_snapshot_take(w, &bn);
    rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
    const float marker = 1234.5678f; /* a value no other field of the snapshot holds */
    static const float forged[] = {-1.0f, -INFINITY, -0.5f, NAN, 7.0f, 0.0f};
    for (int kind = 0; kind < 2; ++kind) {
        for (int k = 0; k < 6; ++k) {
            float kept = c->max_extent;
            c->max_extent = marker;
            size_t n;
            uint8_t *bytes = kind == 0 ? busy_snapshot_take(w, &n) : busy_snapshot_take_frame(w, &n);
            c->max_extent = kept;
            size_t at = 0;
            int found = 0;
            for (size_t i = BUSY_SNAPSHOT_HEADER; i + 4 <= n; ++i) {
                if (memcmp(bytes + i, &marker, 4) == 0) {
                    at = i;
                    found++;
                }
            }
            ck_assert_int_eq(found, 1);
            memcpy(bytes + at, &forged[k], 4);
            busy_snapshot_seal(bytes, n);
            char what[64];
            snprintf(what, sizeof what, "%s snapshot, max_extent %g", kind ? "frame" : "full", (double)forged[k]);
            if (forged[k] >= 0.0f) {
                EXPECT(rc_world_restore(w, bytes, n), "%s: %s", what, rc_world_last_error(w));
                EXPECT(kind == 1 || rc_world_restore(fresh, bytes, n), "%s, another world: %s", what,
                       rc_world_last_error(fresh));
                size_t m;
                uint8_t *back = kind == 0 ? busy_snapshot_take(w, &m) : busy_snapshot_take_frame(w, &m);
                EXPECT(same_bytes(back, m, bytes, n), "%s: restored, it writes other bytes", what);
                free(back);
                EXPECT(rc_world_restore(w, before, bn), "%s", rc_world_last_error(w));
            } else {
                expect_refused(w, bytes, n, "out of range", what);
                if (kind == 0) {
                    expect_refused(fresh, bytes, n, "out of range", what);
                }
            }
            free(bytes);
        }
    }
    free(before);
    rc_world_destroy(fresh);
    rc_world_destroy(w);
}
END_TEST

static Suite *snapshot_level_suite(void) {
    Suite *s = suite_create("snapshot_level");
    TCase *t = tcase_create("snapshot_level");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, a_frame_restores_only_over_its_level);
    tcase_add_loop_test(t, changes_of_the_level_refuse_older_frames, 0, CHANGE_COUNT);
    tcase_add_test(t, the_kept_checksum_is_the_levels);
    tcase_add_test(t, frames_roll_back_over_a_large_level);
    tcase_add_test(t, worlds_mostly_level_restore);
    tcase_add_test(t, overlapping_polygon_blocks_are_refused);
    tcase_add_test(t, shapes_listed_once_in_their_bodies);
    tcase_add_test(t, polygon_pool_count_is_the_live_blocks);
    tcase_add_test(t, a_tuning_that_cuts_the_level_otherwise_is_refused);
    tcase_add_test(t, a_marked_extent_is_refused);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return rc_test_run(snapshot_level_suite()); }
