/* Determinism: the same calls in the same order give the same bits.
 *
 * A busy scene (tests/support/busy_scene.c, shared with test_snapshot.c) runs 3,000 steps of
 * 1/60 s: a level of chains (a looped sector with a notch, an open ledge), static pillars
 * (circle, hexagon, box), a sensor region, a kinematic platform going to and fro, crates
 * (dynamic boxes without gravity, damped, half of them asleep at the start) woken by impulses
 * and by bullets, grenades (swept circles) thrown in and later destroyed, point and circle
 * bullets fired and destroyed after a lifetime, three walkers moved every step with the
 * character mover (kinematic bodies teleported to the mover's answer), trajectory predictions
 * and world queries. Every step the state of every body (the raw bits of position, angle,
 * velocities and the awake flag) and every event (impacts, contact and sensor begin and end) go
 * into a 64-bit FNV-1a hash, and so do the answers of the mover, the predictions and the
 * queries.
 *
 * The expected hash is committed below. It must come out the same from every build of the
 * library on x86-64: gcc -O0, gcc -O2, clang -O2, and the ASan/UBSan build (.ci/determinism
 * builds them all and prints each one's hash). The scene is run twice in one process, the
 * second time through an allocator that hands out memory at other addresses, which must not
 * change a bit either. The scene's own counts (bodies left, impacts, sleeps and wakes) are
 * asserted too, so that a hash of a scene that does nothing cannot pass.
 *
 * When a change to the library changes the step's results on purpose, the hash changes: run
 * .ci/determinism, check that every build agrees, and commit the new value. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"

/* The hash of the scene as built from this commit's library (gcc -O0 and -O2, clang -O2 and
 * ASan/UBSan agree). */
#define EXPECTED_HASH 0x7393d9182a74134full

#define STEPS BUSY_STEPS

/* The scene (tests/support/busy_scene.c) from start to end through this allocator. */
static void run(busy_scene *s, rc_allocator allocator) {
    busy_scene_begin(s, allocator);
    for (int step = 0; step < STEPS; ++step) {
        busy_scene_frame(s, step);
    }
    busy_scene_check_body_count(s);
    busy_scene_end(s);
}

START_TEST(same_calls_same_bits) {
    busy_scene *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    run(a, (rc_allocator){NULL, NULL, NULL});
    busy_shifted sh = {0, 0};
    run(b, busy_shifted_allocator(&sh));
    ck_assert_int_eq((int)sh.live, 0);

    printf("determinism hash: 0x%016llx\n", (unsigned long long)a->hash.h);
    printf("[determinism] %d steps; bodies made %d, destroyed %d; impacts %ld; contacts begun %ld, ended %ld; sensor "
           "visits %ld, left %ld; dynamic bodies fell asleep %d times, woke %d times; walker touches %d; predicted "
           "bounces %d; ray hits %d\n",
           STEPS, a->created, a->destroyed, a->impacts, a->contact_begins, a->contact_ends, a->sensor_begins,
           a->sensor_ends, a->sleeps, a->wakes, a->walker_touches, a->predicted_bounces, a->ray_hits);
    fflush(stdout);

    /* the scene does what it says: counts fixed by its script */
    /* made: the level, 3 pillars, the sensor, the platform (6); 10 crates; the stack (4); 3
       walkers; the new crate; a bullet every 4th step (750); a grenade every 40th step before
       2,400 (60) */
    ck_assert_int_eq(a->created, 6 + 10 + 4 + 3 + 1 + 750 + 60);
    /* destroyed: the crate; the bullets fired at steps 0, 4, ..., 2924 (75 steps before the
       last, 732); a grenade at steps 1080, 1170, ..., 2970 (22) */
    ck_assert_int_eq(a->destroyed, 1 + 732 + 22);
    /* and it is busy: things strike, touch, sleep and wake */
    ck_assert(a->impacts > 500);
    ck_assert(a->contact_begins > 50 && a->contact_ends > 50);
    ck_assert(a->sensor_begins > 10);
    ck_assert(a->sleeps > 20 && a->wakes > 10);
    ck_assert(a->walker_touches > 1000);
    ck_assert(a->predicted_bounces > 10);

    ck_assert_msg(a->hash.h == b->hash.h, "the run through another allocator gave 0x%016llx, not 0x%016llx",
                  (unsigned long long)b->hash.h, (unsigned long long)a->hash.h);
    ck_assert_msg(a->hash.h == EXPECTED_HASH, "hash 0x%016llx, expected 0x%016llx", (unsigned long long)a->hash.h,
                  (unsigned long long)EXPECTED_HASH);
    free(a);
    free(b);
}
END_TEST

static Suite *determinism_suite(void) {
    Suite *s = suite_create("determinism");
    TCase *t = tcase_create("determinism");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, same_calls_same_bits);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(determinism_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
