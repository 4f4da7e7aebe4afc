/* Restores over a level the spare holds (world/snapshot.h): a restore over the world's own level
 * reads into the records the last one replaced, which hold that level at its slots already, and
 * passes the level's records by (the world's index of its slots says which) instead of copying
 * and checking them one by one.
 *
 *  - rollbacks over a level whose slots lie among the frame's (static and dynamic bodies and
 *    shapes made in turn, some destroyed: free slots between; a chain; a hinge to the level)
 *    replay the uninterrupted run bit for bit, the spare holding the level for all but the first;
 *    after each, the level records the world took are the ones it had (rc_level_records_agree);
 *  - a restore over the held level of a snapshot with more slots than the spare has, and back;
 *  - a change of the level between restores: the next restore copies it again (the index and
 *    the spare are of the old revision);
 *  - forged frame snapshots are taken or refused alike with the level held and with it copied
 *    (the spare given back before), and what is taken writes back as the same bytes;
 *  - a static body holds the step scratch a step gives it (no solver slot, no bounces): one made
 *    static between steps has none, so no step changes the level's records (a kept checksum of
 *    the level stays the level's); a snapshot whose static body has any is refused, unchanged;
 *  - steps and rollbacks leave every byte of the level's records as it was, while the level's
 *    shapes have contacts (the heads of their lists are kept beside the records). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"
#include "support/testing.h"
#include "support/world_support.h"
#include "world/snapshot.h" /* the spare, the level's index */

#define EXPECT WS_EXPECT
#define MOVERS 60
#define STEPS 120
#define RING 6

/* A level of 3 static bodies whose bodies and shapes take slots in turn with 60 movers' (every
 * 4th mover destroyed again: free slots among the level's), a chain around it all, boxes on the
 * level (their polygon blocks among the movers'), and a hinge from a mover to the level. */
static rc_world *mixed_world(rc_body_id movers[MOVERS]) {
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = 0x4E1Du;
    rc_world *w = rc_world_create(&wd);
    EXPECT(w != NULL, "rc_world_create");
    rc_shape_def sd = rc_shape_default_def();
    rc_body_id level[3];
    for (int k = 0; k < 3; ++k) {
        level[k] = ws_body(w, RC_STATIC, rc_v2(-12.0f + 12.0f * (float)k, 0.0f), 0.0f);
    }
    rc_vec2 walls[4] = {{-20, -2}, {20, -2}, {20, 30}, {-20, 30}};
    EXPECT(!rc_shape_id_is_null(rc_shape_create_chain(w, level[0], &sd, walls, 4, true)), "the walls");
    for (int i = 0; i < MOVERS; ++i) {
        sd.offset = rc_v2(-4.0f + 0.15f * (float)i, 1.0f + 0.1f * (float)(i % 7));
        sd.angle = 0.3f * (float)i;
        rc_body_id on = level[i % 3];
        EXPECT(!rc_shape_id_is_null(i % 2 == 0 ? rc_shape_create_box(w, on, &sd, 0.4f, 0.15f)
                                               : rc_shape_create_circle(w, on, &sd, 0.25f)),
               "peg %d", i);
        movers[i] = ws_body(w, RC_DYNAMIC, rc_v2(-18.0f + 0.6f * (float)i, 8.0f + 0.3f * (float)(i % 5)), 0.1f * (float)i);
        rc_shape_def md = rc_shape_default_def();
        EXPECT(!rc_shape_id_is_null(i % 3 == 0 ? rc_shape_create_circle(w, movers[i], &md, 0.3f)
                                               : rc_shape_create_box(w, movers[i], &md, 0.3f, 0.2f)),
               "mover %d", i);
    }
    for (int i = 0; i < MOVERS; i += 4) {
        rc_body_destroy(w, movers[i]);
        movers[i] = (rc_body_id){0u, 0u};
    }
    rc_revolute_joint_def jd = rc_revolute_joint_default_def();
    jd.body_a = level[2];
    jd.body_b = movers[1];
    jd.local_anchor_a = rc_v2(0.0f, 10.0f);
    jd.local_anchor_b = rc_v2(0.0f, 0.0f);
    EXPECT(!rc_joint_id_is_null(rc_joint_create_revolute(w, &jd)), "the hinge");
    return w;
}

static uint64_t movers_hash(const rc_world *w, const rc_body_id movers[MOVERS]) {
    busy_fnv f = {BUSY_FNV_START};
    for (int i = 0; i < MOVERS; ++i) {
        if (!rc_body_id_is_null(movers[i])) {
            busy_fnv_vec(&f, rc_body_position(w, movers[i]));
            busy_fnv_float(&f, rc_body_angle(w, movers[i]));
            busy_fnv_vec(&f, rc_body_linear_velocity(w, movers[i]));
        }
    }
    return f.h;
}

/* Does the world's spare hold its level (the next restore over it reads in place)? */
static bool spare_holds_level(const rc_world *w) {
    return w->spare != NULL && w->spare->held_level == w->level_revision + 1u;
}

/* After a restore: the level records the world took are those it had before (now the spare's). */
static void expect_level_as_it_was(rc_world *w, const char *when) {
    const rc_level_index *lv = rc_level_index_of(w);
    EXPECT(lv != NULL && w->spare != NULL, "%s: no index or no spare", when);
    EXPECT(rc_level_records_agree(w, w->spare, lv), "%s: the level's records are not the ones the world had", when);
}

START_TEST(rollbacks_over_a_held_level_replay_the_run) {
    rc_body_id movers[MOVERS];
    rc_world *w = mixed_world(movers);
    size_t start_n;
    uint8_t *start = busy_snapshot_take(w, &start_n);
    uint64_t reference[STEPS + 1];
    reference[0] = movers_hash(w, movers);
    for (int step = 0; step < STEPS; ++step) {
        ck_assert(rc_world_step(w, BUSY_DT));
        reference[step + 1] = movers_hash(w, movers);
    }
    EXPECT(rc_world_restore(w, start, start_n), "back to the start: %s", rc_world_last_error(w));
    const rc_level_index *lv = rc_level_index_of(w);
    EXPECT(lv != NULL && lv->bodies == 3 && lv->shapes == MOVERS + 5 && lv->last_shape > lv->shapes,
           "the level's index: %d bodies, %d shapes, the last at %d", lv->bodies, lv->shapes, lv->last_shape);
    uint8_t *ring[RING] = {NULL};
    size_t ring_n[RING] = {0};
    int step = 0, furthest = 0, rollbacks = 0, held = 0;
    while (step < STEPS) {
        free(ring[step % RING]);
        ring[step % RING] = busy_snapshot_take_frame(w, &ring_n[step % RING]);
        ck_assert(rc_world_step(w, BUSY_DT));
        step++;
        ck_assert_msg(movers_hash(w, movers) == reference[step], "step %d after %d rollbacks (%d over a held level)",
                      step, rollbacks, held);
        if (step > furthest && (furthest = step) % 4 == 0 && step >= RING) {
            step -= RING;
            held += spare_holds_level(w) ? 1 : 0;
            EXPECT(rc_world_restore(w, ring[step % RING], ring_n[step % RING]), "rollback: %s", rc_world_last_error(w));
            size_t n;
            uint8_t *again = busy_snapshot_take_frame(w, &n);
            const char *why = busy_snapshot_difference(again, n, ring[step % RING], ring_n[step % RING]);
            EXPECT(*why == '\0', "rollback %d: the world writes other bytes than it restored: %s", rollbacks, why);
            free(again);
            expect_level_as_it_was(w, "a rollback");
            rollbacks++;
        }
    }
    ck_assert_int_ge(rollbacks, 25);
    ck_assert_int_eq(held, rollbacks); /* (the restore to the start read the level: the spare held it since) */
    for (int k = 0; k < RING; ++k) {
        free(ring[k]);
    }
    free(start);
    rc_world_destroy(w);
}
END_TEST

/* A held level under a snapshot of more slots than the spare has (its arrays grow, the level's
 * records kept), and back to one of fewer. */
START_TEST(held_level_under_more_and_fewer_slots) {
    rc_body_id movers[MOVERS];
    rc_world *w = mixed_world(movers);
    for (int i = 0; i < 10; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    size_t small_n, large_n;
    uint8_t *small = busy_snapshot_take_frame(w, &small_n);
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 300; ++i) {
        rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(-15.0f + 0.1f * (float)i, 15.0f + 0.02f * (float)i), 0.0f);
        EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.04f, 0.04f)), "crumb %d", i);
    }
    ck_assert(rc_world_step(w, BUSY_DT));
    uint8_t *large = busy_snapshot_take_frame(w, &large_n);
    const uint8_t *order[6] = {small, small, large, small, large, large};
    size_t sizes[6] = {small_n, small_n, large_n, small_n, large_n, large_n};
    for (int k = 0; k < 6; ++k) {
        bool held = spare_holds_level(w);
        ck_assert(held == (k >= 1)); /* (the first copies the level: the spare was the world's own) */
        EXPECT(rc_world_restore(w, order[k], sizes[k]), "restore %d: %s", k, rc_world_last_error(w));
        size_t n;
        uint8_t *again = busy_snapshot_take_frame(w, &n);
        const char *why = busy_snapshot_difference(again, n, order[k], sizes[k]);
        EXPECT(*why == '\0', "restore %d (%s): the world writes other bytes: %s", k, order[k] == small ? "fewer" : "more",
               why);
        free(again);
        expect_level_as_it_was(w, "a restore");
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    free(small);
    free(large);
    rc_world_destroy(w);
}
END_TEST

/* The level changed between restores: the spare's records are of the old level, and the next
 * restore (of a snapshot of the new one) copies the level again. */
START_TEST(a_changed_level_is_copied_again) {
    rc_body_id movers[MOVERS];
    rc_world *w = mixed_world(movers);
    size_t a_n, b_n;
    uint8_t *a = busy_snapshot_take_frame(w, &a_n);
    ck_assert(rc_world_step(w, BUSY_DT));
    EXPECT(rc_world_restore(w, a, a_n) && rc_world_restore(w, a, a_n), "%s", rc_world_last_error(w));
    ck_assert(spare_holds_level(w));
    rc_body_id post = ws_body(w, RC_STATIC, rc_v2(5.0f, 20.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, post, &sd, 0.5f, 2.0f)), "the post");
    ck_assert(!spare_holds_level(w));
    uint8_t *b = busy_snapshot_take_frame(w, &b_n);
    for (int i = 0; i < 3; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    EXPECT(rc_world_restore(w, b, b_n), "over the new level: %s", rc_world_last_error(w));
    expect_level_as_it_was(w, "over the new level");
    ck_assert(spare_holds_level(w));
    EXPECT(rc_world_restore(w, b, b_n), "again: %s", rc_world_last_error(w));
    size_t n;
    uint8_t *again = busy_snapshot_take_frame(w, &n);
    EXPECT(*busy_snapshot_difference(again, n, b, b_n) == '\0', "other bytes written back");
    ck_assert_int_eq(rc_level_index_of(w)->shapes, MOVERS + 6);
    EXPECT(!rc_world_restore(w, a, a_n), "a frame of the old level was restored");
    free(again);
    free(a);
    free(b);
    rc_world_destroy(w);
}
END_TEST

/* Restore `bytes` into w at `good` (its own frame), with the spare made to hold the level (two
 * restores of good) or given back: taken or not, and what the world then writes (NULL: refused). */
static uint8_t *restore_forged(rc_world *w, const uint8_t *good, size_t good_n, const uint8_t *bytes, size_t n,
                               bool held, bool *ok, size_t *back_n) {
    EXPECT(rc_world_restore(w, good, good_n) && rc_world_restore(w, good, good_n), "%s", rc_world_last_error(w));
    if (!held) {
        rc_world_free_spare(w);
    }
    ck_assert(spare_holds_level(w) == held);
    *ok = rc_world_restore(w, bytes, n);
    return *ok ? busy_snapshot_take_frame(w, back_n) : NULL;
}

START_TEST(forged_frames_alike_held_or_copied) {
    rc_body_id movers[MOVERS];
    rc_world *w = mixed_world(movers);
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    size_t n;
    uint8_t *good = busy_snapshot_take_frame(w, &n), *copy = malloc(n);
    EXPECT(copy != NULL, "malloc");
    static const uint8_t values[] = {0x00, 0xFF, 0x7F, 0x80, 0x01};
    size_t cases = (size_t)rc_test_random_cases(600);
    int taken = 0, refused = 0;
    for (size_t k = 0; k < cases; ++k) {
        size_t i = BUSY_SNAPSHOT_HEADER + (k * 7919u) % (n - BUSY_SNAPSHOT_HEADER);
        memcpy(copy, good, n);
        uint8_t v = values[k % 5];
        copy[i] = v != copy[i] ? v : (uint8_t)(v ^ 0x55);
        busy_snapshot_seal(copy, n);
        bool ok_held, ok_copied;
        size_t held_n = 0, copied_n = 0;
        uint8_t *held = restore_forged(w, good, n, copy, n, true, &ok_held, &held_n);
        uint8_t *copied = restore_forged(w, good, n, copy, n, false, &ok_copied, &copied_n);
        EXPECT(ok_held == ok_copied, "byte %zu: taken over the held level %d, over a copy %d", i, ok_held, ok_copied);
        if (ok_held) {
            EXPECT(*busy_snapshot_difference(held, held_n, copy, n) == '\0', "byte %zu: written back otherwise", i);
            EXPECT(*busy_snapshot_difference(copied, copied_n, copy, n) == '\0', "byte %zu: written back otherwise", i);
        }
        taken += ok_held ? 1 : 0;
        refused += ok_held ? 0 : 1;
        free(held);
        free(copied);
    }
    fprintf(stderr, "[snapshot] forged frames over a held level: %d taken, %d refused, as over a copy\n", taken,
            refused);
    ck_assert_int_gt(taken, 0);
    ck_assert_int_gt(refused, 0);
    free(copy);
    free(good);
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_static_body_holds_no_step_scratch) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 10.0f, 0.5f)), "the ground");
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.9f), 0.0f);
    EXPECT(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.4f, 0.4f)), "the crate");
    rc_body_id ball = ws_circle_body(w, rc_v2(3.0f, 0.76f), rc_v2(0.0f, 0.0f), 0.25f, 0.8f, 0.3f, false);
    for (int i = 0; i < 5; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    ck_assert_int_ge(w->bodies.data[crate.index - 1].solver_slot, 0);
    ck_assert_int_ge(w->bodies.data[ball.index - 1].solver_slot, 0);
    w->bodies.data[ball.index - 1].step_bounces = 2; /* (as the step leaves a grenade that bounced) */
    /* made static between steps: no solver slot, no bounces (as a step would leave it) */
    ck_assert(rc_body_set_type(w, crate, RC_STATIC) && rc_body_set_type(w, ball, RC_STATIC));
    ck_assert_int_eq(w->bodies.data[crate.index - 1].solver_slot, -1);
    ck_assert_int_eq(w->bodies.data[ball.index - 1].step_bounces, 0);
    ck_assert_int_eq(w->bodies.data[ball.index - 1].solver_slot, -1);
    size_t full_n;
    uint8_t *full = busy_snapshot_take(w, &full_n); /* (keeps the level's checksum) */
    ck_assert(rc_world_step(w, BUSY_DT));
    uint64_t kept;
    ck_assert(rc_level_checksum_known(w, &kept));
    EXPECT(kept == rc_level_checksum_work(w), "the step changed the level's records");
    /* a static body with step scratch: written so only by a forger (here the world is made to) */
    for (int field = 0; field < 2; ++field) {
        rc_body *b = &w->bodies.data[ground.index - 1];
        if (field == 0) {
            b->solver_slot = 1;
        } else {
            b->step_bounces = 2;
        }
        size_t n;
        uint8_t *forged = busy_snapshot_take(w, &n);
        b->solver_slot = -1;
        b->step_bounces = 0;
        rc_level_changed(w); /* (the checksum it kept of the forged level: a forger's is not kept) */
        rc_world *fresh = ws_make_world(rc_v2(0.0f, 0.0f));
        EXPECT(!rc_world_restore(fresh, forged, n), "a static body's %s was taken", field == 0 ? "solver slot" : "bounces");
        EXPECT(strstr(rc_world_last_error(fresh), "out of range") != NULL, "\"%s\"", rc_world_last_error(fresh));
        size_t bn, an;
        uint8_t *before = busy_snapshot_take(w, &bn);
        EXPECT(!rc_world_restore(w, forged, n), "the world took its static body's %s",
               field == 0 ? "solver slot" : "bounces");
        uint8_t *after = busy_snapshot_take(w, &an);
        const char *why = busy_snapshot_difference(before, bn, after, an);
        EXPECT(*why == '\0', "the refused restore changed the world: %s", why);
        free(before);
        free(after);
        rc_world_destroy(fresh);
        free(forged);
    }
    EXPECT(rc_world_restore(w, full, full_n), "its own snapshot: %s", rc_world_last_error(w));
    free(full);
    rc_world_destroy(w);
}
END_TEST

/* The bytes of the level's records (lv's slots), bodies then shapes, end to end. */
static uint8_t *level_record_bytes(const rc_world *w, const rc_level_index *lv, size_t *n) {
    size_t size = sizeof(rc_body) * (size_t)lv->bodies + sizeof(rc_shape) * (size_t)lv->shapes, at = 0;
    uint8_t *bytes = malloc(size);
    EXPECT(bytes != NULL, "memory");
    for (int32_t i = 0; i <= lv->last_body; ++i) {
        if (rc_level_index_body(lv, i)) {
            memcpy(bytes + at, &w->bodies.data[i], sizeof(rc_body));
            at += sizeof(rc_body);
        }
    }
    for (int32_t i = 0; i <= lv->last_shape; ++i) {
        if (rc_level_index_shape(lv, i)) {
            memcpy(bytes + at, &w->shapes.data[i], sizeof(rc_shape));
            at += sizeof(rc_shape);
        }
    }
    EXPECT(at == size, "%zu bytes of records, %zu counted", at, size);
    *n = size;
    return bytes;
}

/* Level shapes that have contacts now. */
static int level_shapes_in_contact(const rc_world *w, const rc_level_index *lv) {
    int n = 0;
    for (int32_t i = 0; i <= lv->last_shape; ++i) {
        n += rc_level_index_shape(lv, i) && w->contact_heads.data[i] >= 0 ? 1 : 0;
    }
    return n;
}

START_TEST(steps_and_rollbacks_leave_the_level_records_as_they_were) {
    rc_body_id movers[MOVERS];
    rc_world *w = mixed_world(movers);
    const rc_level_index *lv = rc_level_index_of(w);
    EXPECT(lv != NULL && lv->bodies == 3 && lv->shapes == MOVERS + 5, "the level's index");
    size_t n;
    uint8_t *before = level_record_bytes(w, lv, &n);
    uint8_t *back = NULL;
    size_t back_n = 0;
    int most_in_contact = 0, rollbacks = 0;
    for (int step = 1; step <= 2 * STEPS; ++step) {
        if (step % 10 == 0) {
            free(back);
            back = busy_snapshot_take_frame(w, &back_n);
        }
        ck_assert(rc_world_step(w, BUSY_DT));
        int in_contact = level_shapes_in_contact(w, lv);
        most_in_contact = in_contact > most_in_contact ? in_contact : most_in_contact;
        if (step % 10 == 5 && back != NULL) {
            EXPECT(rc_world_restore(w, back, back_n), "rollback: %s", rc_world_last_error(w));
            rollbacks++;
        }
        lv = rc_level_index_of(w); /* (the same revision: the same index) */
        size_t now_n;
        uint8_t *now = level_record_bytes(w, lv, &now_n);
        ck_assert_msg(now_n == n && memcmp(now, before, n) == 0,
                      "step %d (%d rollbacks): the level's records changed (%d level shapes in contact)", step,
                      rollbacks, in_contact);
        free(now);
    }
    ck_assert_int_ge(rollbacks, 11);
    ck_assert_int_ge(most_in_contact, 10); /* (the movers fell on the pegs: their lists were written) */
    free(back);
    free(before);
    rc_world_destroy(w);
}
END_TEST

Suite *snapshot_held_suite(void) {
    Suite *s = suite_create("snapshot_held");
    TCase *t = tcase_create("held");
    tcase_set_timeout(t, 600);
    tcase_add_test(t, rollbacks_over_a_held_level_replay_the_run);
    tcase_add_test(t, held_level_under_more_and_fewer_slots);
    tcase_add_test(t, a_changed_level_is_copied_again);
    tcase_add_test(t, forged_frames_alike_held_or_copied);
    tcase_add_test(t, a_static_body_holds_no_step_scratch);
    tcase_add_test(t, steps_and_rollbacks_leave_the_level_records_as_they_were);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return rc_test_run(snapshot_held_suite()); }
