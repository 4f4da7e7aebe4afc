/* The step on a task system: the sweeps of bullets and grenades run on the workers, and every
 * result is the same bits as without them. A busy scene (a pyramid of 20 rows on a floor with a sleeping
 * stack beside it, a kinematic blade turning through crates, grenades and bullets thrown in)
 * runs 300 steps four ways: without a task system, with one that runs the ranges itself in
 * reverse order with changing worker indices, and with the samples' pthread task system of
 * two and of four workers. Every body's state, every event and every impact goes into a hash
 * each step; all four must agree at every step. A crowded arena of bullets and grenades checks
 * the sweeps run ahead on the workers the same way. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "task_system.h"

enum { STEPS = 300 };

static void mix(uint64_t *h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) {
        *h = (*h ^ p[i]) * 1099511628211ull;
    }
}

static void mix_f(uint64_t *h, float v) { mix(h, &v, sizeof v); }

/* Every body's state: the raw bits of its transform and velocities, and whether it is awake. */
static void mix_bodies(uint64_t *h, const rc_world *w, const rc_body_id *bodies, int n) {
    for (int i = 0; i < n; ++i) {
        rc_transform xf = rc_body_transform(w, bodies[i]);
        rc_vec2 v = rc_body_linear_velocity(w, bodies[i]);
        mix_f(h, xf.p.x), mix_f(h, xf.p.y), mix_f(h, xf.q.c), mix_f(h, xf.q.s);
        mix_f(h, v.x), mix_f(h, v.y), mix_f(h, rc_body_angular_velocity(w, bodies[i]));
        bool awake = rc_body_is_awake(w, bodies[i]);
        mix(h, &awake, sizeof awake);
    }
}

typedef struct reverse_tasks {
    int32_t calls;
} reverse_tasks;

/* Runs the ranges of min_range itself, last first, with worker indices that change from call to
 * call; returns NULL (nothing to finish). */
static void *reverse_enqueue(rc_task_fn *task, int32_t count, int32_t min_range, void *task_context, void *user) {
    reverse_tasks *r = user;
    int32_t ranges = (count + min_range - 1) / min_range;
    for (int32_t k = ranges - 1; k >= 0; --k) {
        int32_t start = k * min_range, end = start + min_range < count ? start + min_range : count;
        task(start, end, (uint32_t)((k + r->calls) % 3), task_context);
    }
    r->calls++;
    return NULL;
}

static void never_finish(void *user_task, void *user) {
    (void)user_task;
    (void)user;
    ck_abort_msg("finish called for a task that ran in the enqueue");
}

/* A world def lending the reversing task system (3 workers), counting its calls in rev. */
static rc_world_def reversing_def(reverse_tasks *rev) {
    rc_world_def def = rc_world_default_def();
    def.worker_count = 3;
    def.enqueue_task = reverse_enqueue;
    def.finish_task = never_finish;
    def.user_task_context = rev;
    return def;
}

/* Every step's hash of a run the same as the plain run's. */
static void expect_same(const uint64_t *plain, const uint64_t *other, int steps, const char *what) {
    for (int s = 0; s < steps; ++s) {
        WS_EXPECT(plain[s] == other[s], "step %d: %s differs", s, what);
    }
}

static rc_body_id box_body(rc_world *w, rc_body_type type, rc_vec2 p, float hx, float hy, bool awake) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.awake = awake;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, hx, hy)));
    return b;
}

/* The scene's hash after each step, into hashes[STEPS]. */
static void run(rc_world_def def, uint64_t *hashes) {
    def.id_salt = 0x0b5e55edu;
    rc_world *w = rc_world_create(&def);
    ck_assert_ptr_nonnull(w);
    rc_body_id bodies[600];
    int n = 0;
    bodies[n++] = box_body(w, RC_STATIC, rc_v2(0, -1), 80, 1, true);
    for (int row = 0; row < 20; ++row) {
        for (int i = 0; i < 20 - row; ++i) {
            bodies[n++] = box_body(w, RC_DYNAMIC, rc_v2(-10.0f + (float)i + 0.5f * (float)row, 0.5f + (float)row), 0.5f, 0.5f, true);
        }
    }
    for (int i = 0; i < 8; ++i) { /* a stack asleep beside it */
        bodies[n++] = box_body(w, RC_DYNAMIC, rc_v2(30.0f, 0.5f + (float)i), 0.5f, 0.5f, false);
    }
    /* a blade turning through a row of crates */
    rc_body_def kd = rc_body_default_def();
    kd.type = RC_KINEMATIC;
    kd.position = rc_v2(-40, 3);
    kd.angular_velocity = 2.0f;
    rc_body_id blade = rc_body_create(w, &kd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, blade, &sd, 4.0f, 0.2f)));
    bodies[n++] = blade;
    for (int i = 0; i < 10; ++i) {
        bodies[n++] = box_body(w, RC_DYNAMIC, rc_v2(-46.0f + 1.2f * (float)i, 0.4f), 0.4f, 0.4f, true);
    }
    for (int step = 0; step < STEPS; ++step) {
        if (step % 10 == 0 && n < 590) {
            /* a grenade at the pyramid, and a bullet at the stack */
            bodies[n++] = ws_circle_body(w, rc_v2(-20.0f, 15.0f), rc_v2(12.0f, -3.0f), 0.25f, 0.3f, 0.5f, false);
            bodies[n++] = ws_circle_body(w, rc_v2(20.0f, 3.5f), rc_v2(300.0f, 0.0f), 0.05f, 0.2f, 0.0f, true);
        }
        if (step % 4 == 2 && n < 590) {
            /* bullets up and over everything: once there are more than a task's share in the
               air, the sweeps run on the workers */
            bodies[n++] = ws_point_bullet(w, rc_v2(-30.0f + 0.2f * (float)step, 25.0f), rc_v2(40.0f, 60.0f), 2);
        }
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        uint64_t h = 1469598103934665603ull;
        mix_bodies(&h, w, bodies, n);
        rc_contact_events ce = rc_world_contact_events(w);
        for (int k = 0; k < ce.begin_count; ++k) {
            mix(&h, &ce.begin[k].shape_a, sizeof ce.begin[k].shape_a);
            mix(&h, &ce.begin[k].shape_b, sizeof ce.begin[k].shape_b);
            mix_f(&h, ce.begin[k].manifold.depth);
            mix_f(&h, ce.begin[k].approach_speed);
        }
        for (int k = 0; k < ce.end_count; ++k) {
            mix(&h, &ce.end[k].shape_a, sizeof ce.end[k].shape_a);
            mix(&h, &ce.end[k].shape_b, sizeof ce.end[k].shape_b);
        }
        const rc_impact_event *impacts;
        int ni = rc_world_impact_events(w, &impacts);
        for (int k = 0; k < ni; ++k) {
            mix(&h, &impacts[k].shape, sizeof impacts[k].shape);
            mix_f(&h, impacts[k].point.x), mix_f(&h, impacts[k].point.y);
        }
        hashes[step] = h;
    }
    rc_world_destroy(w);
}

START_TEST(the_step_gives_the_same_bits_on_any_task_system) {
    static uint64_t plain[STEPS], other[STEPS];
    rc_world_def def = rc_world_default_def();
    run(def, plain);
    reverse_tasks rev = {0};
    run(reversing_def(&rev), other);
    expect_same(plain, other, STEPS, "the reversing task system");
    ck_assert_int_ge(rev.calls, STEPS / 2); /* the sweeps went through it */
    for (int workers = 2; workers <= 4; workers += 2) {
        task_system *ts = task_system_create(workers);
        ck_assert_ptr_nonnull(ts);
        rc_world_def td = rc_world_default_def();
        task_system_install(ts, &td);
        run(td, other);
        expect_same(plain, other, STEPS, workers == 2 ? "two workers" : "four workers");
        int32_t ranges[RC_MAX_WORKERS];
        task_system_take_counts(ts, ranges, RC_MAX_WORKERS);
        int total = 0;
        for (int k = 0; k < workers; ++k) {
            total += ranges[k];
        }
        ck_assert_int_ge(total, STEPS); /* ranges ran, on some worker */
        task_system_destroy(ts);
    }
}
END_TEST

/* ---- sweeps ahead ---------------------------------------------------------------------------- */

enum { ARENA_STEPS = 240 };

static bool cancel_none(rc_pre_solve *hit, void *context) {
    (void)hit;
    (void)context;
    return true;
}

/* A closed arena 40 x 20 with a turning kinematic paddle, crates that bullets push, crates that
 * do not respond (a sweep reads their velocity, which no sweep changes), grenades raining and
 * 160 bullets (points and circles, 1 to 4 bounces a step) fired every way at up to 900 units/s:
 * sweeps that strike only walls, that bounce more often in a step than are kept aside, and
 * that strike bodies earlier bullets of the step pushed. The hash after each step. */
static void run_arena(rc_world_def def, bool pre_solve, uint64_t *hashes) {
    def.id_salt = 0x5a5a1234u;
    def.gravity = rc_v2(0.0f, -10.0f);
    rc_world *w = rc_world_create(&def);
    ck_assert_ptr_nonnull(w);
    if (pre_solve) {
        rc_world_set_pre_solve_callback(w, cancel_none, NULL);
    }
    rc_body_id bodies[700];
    int n = 0;
    bodies[n++] = box_body(w, RC_STATIC, rc_v2(0, -10.5f), 21, 0.5f, true);
    bodies[n++] = box_body(w, RC_STATIC, rc_v2(0, 10.5f), 21, 0.5f, true);
    bodies[n++] = box_body(w, RC_STATIC, rc_v2(-20.5f, 0), 0.5f, 11, true);
    bodies[n++] = box_body(w, RC_STATIC, rc_v2(20.5f, 0), 0.5f, 11, true);
    rc_body_def kd = rc_body_default_def();
    kd.type = RC_KINEMATIC;
    kd.position = rc_v2(0, 0);
    kd.angular_velocity = 1.5f;
    rc_body_id paddle = rc_body_create(w, &kd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, paddle, &sd, 5.0f, 0.3f)));
    bodies[n++] = paddle;
    for (int i = 0; i < 12; ++i) {
        rc_body_id crate = box_body(w, RC_DYNAMIC, rc_v2(-16.0f + 2.8f * (float)i, -9.4f), 0.6f, 0.6f, true);
        if (i % 3 == 2) {
            rc_body_set_enable_response(w, crate, false);
        }
        bodies[n++] = crate;
    }
    uint64_t seed = 0x1234567u;
    for (int step = 0; step < ARENA_STEPS; ++step) {
        if (step < 40 && n < 690) {
            for (int k = 0; k < 4; ++k) {
                float u = (float)((seed = seed * 6364136223846793005ull + 1442695040888963407ull) >> 40) / 16777216.0f;
                float a = 6.2831853f * u, speed = 200.0f + 700.0f * (float)(k + 1) / 4.0f;
                rc_vec2 p = rc_v2(-15.0f + 30.0f * u, 5.0f - 8.0f * u), v = rc_v2(speed * cosf(a), speed * sinf(a));
                bodies[n++] = k % 2 == 0 ? ws_point_bullet(w, p, v, 1 + k) : ws_circle_body(w, p, v, 0.1f, 0.9f, 0.1f, true);
            }
            if (step % 2 == 0) {
                bodies[n++] = ws_circle_body(w, rc_v2(-10.0f + 0.5f * (float)step, 8.0f), rc_v2(5.0f, 0.0f), 0.3f, 0.4f, 0.5f, false);
                bodies[n++] = ws_circle_body(w, rc_v2(10.0f - 0.5f * (float)step, 8.0f), rc_v2(-5.0f, 0.0f), 0.3f, 0.4f, 0.5f, false);
            }
        }
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        uint64_t h = 1469598103934665603ull;
        mix_bodies(&h, w, bodies, n);
        const rc_impact_event *impacts;
        int ni = rc_world_impact_events(w, &impacts);
        for (int k = 0; k < ni; ++k) {
            mix(&h, &impacts[k].projectile, sizeof impacts[k].projectile);
            mix(&h, &impacts[k].shape, sizeof impacts[k].shape);
            mix_f(&h, impacts[k].point.x), mix_f(&h, impacts[k].point.y);
            mix_f(&h, impacts[k].normal.x), mix_f(&h, impacts[k].approach_speed);
            mix(&h, &impacts[k].bounce, sizeof impacts[k].bounce);
            mix(&h, &impacts[k].spent, sizeof impacts[k].spent);
        }
        hashes[step] = h;
    }
    rc_world_destroy(w);
}

START_TEST(sweeps_run_ahead_give_the_same_bits) {
    static uint64_t plain[ARENA_STEPS], other[ARENA_STEPS];
    run_arena(rc_world_default_def(), false, plain);
    reverse_tasks rev = {0};
    run_arena(reversing_def(&rev), false, other);
    expect_same(plain, other, ARENA_STEPS, "the reversing task system");
    ck_assert_int_gt(rev.calls, 0); /* the sweeps went through it */
    task_system *ts = task_system_create(2);
    ck_assert_ptr_nonnull(ts);
    rc_world_def td = rc_world_default_def();
    task_system_install(ts, &td);
    run_arena(td, false, other);
    expect_same(plain, other, ARENA_STEPS, "two workers");
    /* a pre-solve callback is asked from the step's thread: nothing runs ahead, same bits again */
    run_arena(td, true, other);
    expect_same(plain, other, ARENA_STEPS, "two workers and a pre-solve callback");
    task_system_destroy(ts);
}
END_TEST

int main(void) {
    Suite *s = suite_create("workers");
    TCase *tc = tcase_create("workers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, the_step_gives_the_same_bits_on_any_task_system);
    tcase_add_test(tc, sweeps_run_ahead_give_the_same_bits);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
