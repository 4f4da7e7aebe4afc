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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"

/* The hash of the scene as built from this commit's library (gcc -O0 and -O2, clang -O2 and
 * ASan/UBSan agree). */
#define EXPECTED_HASH 0x331affb6eb76250bull

#define STEPS BUSY_STEPS

/* The scene (tests/support/busy_scene.c) from start to end through this allocator. */
typedef struct joint_facts {
    int alive;         /* joints live at the end */
    double worst_gap;  /* over every step: the largest distance between a live hinge's anchors */
} joint_facts;

/* The distance between a revolute joint's two anchors in the world. */
static double hinge_gap(const rc_world *w, rc_joint_id j) {
    rc_vec2 a = rc_transform_point(rc_body_transform(w, rc_joint_body_a(w, j)), rc_joint_local_anchor_a(w, j));
    rc_vec2 b = rc_transform_point(rc_body_transform(w, rc_joint_body_b(w, j)), rc_joint_local_anchor_b(w, j));
    return hypot((double)a.x - b.x, (double)a.y - b.y);
}

static void run(busy_scene *s, rc_allocator allocator, joint_facts *facts) {
    busy_scene_begin(s, allocator);
    facts->worst_gap = 0.0;
    for (int step = 0; step < STEPS; ++step) {
        busy_scene_frame(s, step);
        for (int i = 0; i < s->joint_count; ++i) {
            if (rc_joint_is_valid(s->w, s->joints[i]) && rc_joint_get_type(s->w, s->joints[i]) == RC_REVOLUTE_JOINT) {
                facts->worst_gap = fmax(facts->worst_gap, hinge_gap(s->w, s->joints[i]));
            }
        }
    }
    busy_scene_check_body_count(s);
    facts->alive = 0;
    for (int i = 0; i < s->joint_count; ++i) {
        facts->alive += rc_joint_is_valid(s->w, s->joints[i]) ? 1 : 0;
    }
    busy_scene_end(s);
}

START_TEST(same_calls_same_bits) {
    busy_scene *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    joint_facts fa, fb;
    run(a, (rc_allocator){NULL, NULL, NULL}, &fa);
    busy_shifted sh = {0, 0};
    run(b, busy_shifted_allocator(&sh), &fb);
    ck_assert_int_eq((int)sh.live, 0);

    printf("determinism hash: 0x%016llx\n", (unsigned long long)a->hash.h);
    printf("[determinism] %d steps; bodies made %d, destroyed %d; impacts %ld; contacts begun %ld, ended %ld; sensor "
           "visits %ld, left %ld; dynamic bodies fell asleep %d times, woke %d times; walker touches %d; predicted "
           "bounces %d; ray hits %d; joints made %d, alive %d, widest hinge gap %.5f\n",
           STEPS, a->created, a->destroyed, a->impacts, a->contact_begins, a->contact_ends, a->sensor_begins,
           a->sensor_ends, a->sleeps, a->wakes, a->walker_touches, a->predicted_bounces, a->ray_hits, a->joint_count,
           fa.alive, fa.worst_gap);
    fflush(stdout);

    /* the scene does what it says: counts fixed by its script */
    /* made: the level, 3 pillars, the sensor, the platform (6); 10 crates; the stack (4); 3
       walkers; the lamp, 4 planks, the slider and the door (7); the new crate; a bullet every
       4th step (750); a grenade every 40th step before 2,400 (60) */
    ck_assert_int_eq(a->created, 6 + 10 + 4 + 3 + 7 + 1 + 750 + 60);
    /* joints: 9 at the start and a weld; the rod cut, the rope gone with its crate */
    ck_assert_int_eq(a->joint_count, 10);
    ck_assert_int_eq(fa.alive, 8);
    /* hinges hold through bullets, grenades and kicks: their anchors stay within a few
       hundredths, but for a step when the bridge whips, about 75 steps after its rod is cut (a
       plank at 14 units/s). The figure moves with the solver's rounding: 0.080 now, 0.024, 0.086
       and 0.121 in builds that rounded differently; 0.025 at most away from the whip */
    ck_assert_msg(fa.worst_gap < 0.15, "a hinge's anchors were %g apart", fa.worst_gap);
    ck_assert(fa.worst_gap == fb.worst_gap && fa.alive == fb.alive);
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
