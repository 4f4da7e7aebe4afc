/* Batch casts (rc_world_cast_rays) and the task system hook (rc_world_def.enqueue_task): a
 * batch answers every ray bit for bit as rc_world_cast_ray_filtered does, on one thread or
 * spread over a task system's workers; a miss is filled as documented; bad input is refused
 * with nothing written; the hook's contract (ranges, worker indices, the lock) holds. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "task_system.h"

/* A level of every kind of shape, transformed: boxes and wedges turned and scaled, circles,
 * capsules, a looped chain and a one-sided ledge, a sensor, a dynamic crate and a body to
 * ignore. */
static rc_world *make_level(const rc_world_def *def, rc_body_id *ignored) {
    rc_world *w = rc_world_create(def);
    ck_assert(w != NULL);
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    ws_rng rng = {0xba7c4u};
    for (int i = 0; i < 120; ++i) {
        rc_shape_def sd = rc_shape_default_def();
        sd.offset = rc_v2(ws_range(&rng, -40, 40), ws_range(&rng, -40, 40));
        sd.angle = ws_range(&rng, -3.1, 3.1);
        sd.scale = rc_v2(ws_range(&rng, 0.5, 2.0), ws_range(&rng, 0.5, 2.0));
        sd.filter.group_index = i % 7 == 0 ? -3 : 0;
        switch (i % 4) {
        case 0:
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, level, &sd, ws_range(&rng, 0.2, 2), ws_range(&rng, 0.2, 2))));
            break;
        case 1: {
            rc_vec2 wedge[3] = {{-1, -1}, {2, -1}, {-1, 1.5f}};
            ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, level, &sd, wedge, 3)));
            break;
        }
        case 2:
            sd.scale = rc_v2(1, 1);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, level, &sd, ws_range(&rng, 0.2, 1.5))));
            break;
        default:
            sd.scale = rc_v2(1, 1);
            ck_assert(!rc_shape_id_is_null(
                rc_shape_create_capsule(w, level, &sd, rc_v2(-1, 0), rc_v2(1, 0), ws_range(&rng, 0.1, 0.8))));
            break;
        }
    }
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 loop[4] = {{-50, -50}, {50, -50}, {50, 50}, {-50, 50}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, loop, 4, true)));
    rc_vec2 ledge[3] = {{-20, 10}, {0, 12}, {20, 9}};
    sd.one_sided = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, ledge, 3, false)));
    rc_shape_def sensor = rc_shape_default_def();
    sensor.is_sensor = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, level, &sensor, 5, 5)));
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(3, 3);
    rc_shape_def cs = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, rc_body_create(w, &bd), &cs, 1, 1)));
    bd.position = rc_v2(-6, 2);
    *ignored = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, *ignored, &cs, 1.5f)));
    return w;
}

/* Rays of every sort: long and short, from inside shapes and from outside the level, of zero
 * length, along the axes. */
static void make_rays(rc_ray_input *rays, int n, uint64_t seed) {
    ws_rng rng = {seed};
    for (int i = 0; i < n; ++i) {
        rays[i].origin = rc_v2(ws_range(&rng, -60, 60), ws_range(&rng, -60, 60));
        float length = i % 17 == 0 ? 0.0f : ws_log_range(&rng, 0.01, 300);
        float angle = i % 11 == 0 ? 1.5707964f * (float)(i % 4) : ws_range(&rng, -3.2, 3.2);
        rays[i].translation = rc_v2(length * cosf(angle), length * sinf(angle));
    }
}

static uint32_t bits_of(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* Bit for bit, field by field (the struct's padding is not part of the answer). */
static bool same_hit(const rc_ray_hit *a, const rc_ray_hit *b) {
    return bits_of(a->t) == bits_of(b->t) && bits_of(a->point.x) == bits_of(b->point.x) &&
           bits_of(a->point.y) == bits_of(b->point.y) && bits_of(a->normal.x) == bits_of(b->normal.x) &&
           bits_of(a->normal.y) == bits_of(b->normal.y) && a->started_inside == b->started_inside &&
           rc_shape_id_equals(a->shape, b->shape) && rc_body_id_equals(a->body, b->body);
}

static rc_ray_hit single(const rc_world *w, const rc_ray_input *ray, rc_query_filter filter, bool *hit) {
    rc_ray_hit h;
    memset(&h, 0, sizeof h);
    *hit = rc_world_cast_ray_filtered(w, ray->origin, ray->translation, filter, &h);
    return h;
}

/* What the batch must give for ray i: the single cast's hit, or the documented miss. */
static void expect_same(const rc_world *w, const rc_ray_input *rays, const rc_ray_hit *hits, int n,
                        rc_query_filter filter, int *hit_count) {
    *hit_count = 0;
    for (int i = 0; i < n; ++i) {
        bool hit;
        rc_ray_hit want = single(w, &rays[i], filter, &hit);
        if (hit) {
            ++*hit_count;
            WS_EXPECT(same_hit(&want, &hits[i]), "ray %d: the batch's hit differs from the single cast's", i);
            continue;
        }
        WS_EXPECT(rc_shape_id_is_null(hits[i].shape) && rc_body_id_is_null(hits[i].body) && hits[i].t == 1.0f &&
                      !hits[i].started_inside,
                  "ray %d: a miss not filled as one", i);
        rc_vec2 end = rc_add(rays[i].origin, rays[i].translation);
        WS_EXPECT(rc_vec2_equal(hits[i].point, end), "ray %d: a miss's point is not the ray's end", i);
        float len = rc_length(rays[i].translation);
        if (len > 0.0f) {
            /* the unit normal against the ray */
            WS_EXPECT(fabsf(rc_length(hits[i].normal) - 1.0f) < 1e-6f &&
                          rc_dot(hits[i].normal, rays[i].translation) < -0.999999f * len,
                      "ray %d: a miss's normal is not against the ray", i);
        } else {
            WS_EXPECT(hits[i].normal.x == 0.0f && hits[i].normal.y == 1.0f, "ray %d: zero length, normal not (0, 1)", i);
        }
    }
}

enum { RAYS = 6000 };

/* One thread, with the default filter, a group filter and an ignored body. */
START_TEST(a_batch_answers_each_ray_as_a_single_cast) {
    rc_world_def def = rc_world_default_def();
    rc_body_id ignored;
    rc_world *w = make_level(&def, &ignored);
    static rc_ray_input rays[RAYS];
    static rc_ray_hit hits[RAYS];
    make_rays(rays, RAYS, 0x1234);
    for (int f = 0; f < 3; ++f) {
        rc_query_filter filter = rc_default_query_filter();
        filter.group_index = f == 1 ? -3 : 0;
        filter.ignore_body = f == 2 ? ignored : (rc_body_id){0u, 0u};
        int32_t n = rc_world_cast_rays(w, rays, RAYS, filter, hits);
        int expected;
        expect_same(w, rays, hits, RAYS, filter, &expected);
        ck_assert_int_eq(n, expected);
        ck_assert_int_gt(n, RAYS / 4);      /* the level is busy */
        ck_assert_int_lt(n, RAYS - RAYS / 20); /* and some rays miss */
    }
    ck_assert_int_eq(rc_world_cast_rays(w, rays, 0, rc_default_query_filter(), NULL), 0);
    /* an empty batch reads no ray (its range's first ray was read: NULL crashed) */
    ck_assert_int_eq(rc_world_cast_rays(w, NULL, 0, rc_default_query_filter(), NULL), 0);
    ck_assert_str_eq(rc_world_last_error(w), "");
    rc_world_destroy(w);
}
END_TEST

/* The same answers whatever the task system: 2, 3 and 8 workers (and a batch shorter than a
 * range, which the world runs itself). */
START_TEST(workers_give_the_same_bits) {
    for (int workers = 2; workers <= 8; workers += workers == 3 ? 5 : 1) {
        task_system *ts = task_system_create(workers);
        ck_assert(ts != NULL);
        rc_world_def def = rc_world_default_def();
        task_system_install(ts, &def);
        rc_body_id ignored;
        rc_world *w = make_level(&def, &ignored);
        static rc_ray_input rays[RAYS];
        static rc_ray_hit hits[RAYS];
        make_rays(rays, RAYS, 0x5678u + (uint64_t)workers);
        for (int round = 0; round < 3; ++round) {
            int count = round == 2 ? RC_RAYS_PER_TASK / 2 : RAYS;
            int32_t n = rc_world_cast_rays(w, rays, count, rc_default_query_filter(), hits);
            int expected;
            expect_same(w, rays, hits, count, rc_default_query_filter(), &expected);
            ck_assert_int_eq(n, expected);
        }
        int32_t ranges[RC_MAX_WORKERS];
        ck_assert_int_eq(task_system_take_counts(ts, ranges, RC_MAX_WORKERS), workers);
        int total = 0;
        for (int k = 0; k < workers; ++k) {
            total += ranges[k];
        }
        ck_assert_int_ge(total, 2 * (RAYS / (4 * workers) >= RC_RAYS_PER_TASK ? 4 * workers : RAYS / RC_RAYS_PER_TASK));
        rc_world_destroy(w);
        task_system_destroy(ts);
    }
}
END_TEST

/* A task system that checks the world's side of the contract: every item exactly once, ranges
 * of at least min_range (the last may be shorter), worker indices below the worker count; and
 * that the world is locked while it runs. Runs the ranges itself, in reverse order, and says
 * so by returning NULL every other time. */
typedef struct checking_tasks {
    int32_t workers;
    int32_t calls, finishes, refused_changes;
    rc_world *world;
    rc_body_id body;
    unsigned char seen[RAYS];
} checking_tasks;

static void *checking_enqueue(rc_task_fn *task, int32_t count, int32_t min_range, void *task_context, void *user) {
    checking_tasks *c = user;
    ck_assert_int_eq(min_range, RC_RAYS_PER_TASK);
    ck_assert(count > min_range && count <= RAYS);
    memset(c->seen, 0, sizeof c->seen);
    int32_t ranges = (count + min_range - 1) / min_range;
    for (int32_t r = ranges - 1; r >= 0; --r) {
        int32_t start = r * min_range, end = start + min_range < count ? start + min_range : count;
        task(start, end, (uint32_t)(r % c->workers), task_context);
        for (int32_t i = start; i < end; ++i) {
            c->seen[i]++;
        }
    }
    for (int32_t i = 0; i < count; ++i) {
        ck_assert_int_eq(c->seen[i], 1);
    }
    /* the world is locked: a change is refused */
    if (!rc_body_set_linear_velocity(c->world, c->body, rc_v2(1, 0))) {
        c->refused_changes++;
    }
    return c->calls++ % 2 == 0 ? NULL : (void *)c;
}

static void checking_finish(void *user_task, void *user) {
    checking_tasks *c = user;
    ck_assert_ptr_eq(user_task, c);
    c->finishes++;
}

START_TEST(the_task_hook_is_called_as_documented) {
    static checking_tasks c;
    memset(&c, 0, sizeof c);
    c.workers = 5;
    rc_world_def def = rc_world_default_def();
    def.worker_count = c.workers;
    def.enqueue_task = checking_enqueue;
    def.finish_task = checking_finish;
    def.user_task_context = &c;
    rc_body_id ignored;
    rc_world *w = make_level(&def, &ignored);
    c.world = w;
    c.body = ignored;
    static rc_ray_input rays[RAYS];
    static rc_ray_hit hits[RAYS];
    make_rays(rays, RAYS, 0x9abc);
    for (int k = 0; k < 4; ++k) {
        int32_t n = rc_world_cast_rays(w, rays, RAYS - 37 * k, rc_default_query_filter(), hits);
        int expected;
        expect_same(w, rays, hits, RAYS - 37 * k, rc_default_query_filter(), &expected);
        ck_assert_int_eq(n, expected);
    }
    ck_assert_int_eq(c.calls, 4);
    ck_assert_int_eq(c.finishes, 2); /* not for the two it ran itself (NULL) */
    ck_assert_int_eq(c.refused_changes, 4);
    /* unlocked again */
    ck_assert(rc_body_set_linear_velocity(w, ignored, rc_v2(1, 0)));
    /* a batch of no more than one range runs on the calling thread, without the hook */
    ck_assert(rc_world_cast_rays(w, rays, RC_RAYS_PER_TASK, rc_default_query_filter(), hits) >= 0);
    ck_assert_int_eq(c.calls, 4);
    rc_world_destroy(w);
}
END_TEST

/* Bad input: -1, a message, and nothing written. */
START_TEST(a_batch_refuses_bad_input_and_writes_nothing) {
    rc_world_def def = rc_world_default_def();
    rc_body_id ignored;
    rc_world *w = make_level(&def, &ignored);
    rc_ray_input rays[4] = {{{0, 0}, {10, 0}}, {{1, 1}, {0, 10}}, {{2, 2}, {NAN, 1}}, {{3, 3}, {1, 1}}};
    rc_ray_hit hits[4], before[4];
    memset(hits, 0xab, sizeof hits);
    memcpy(before, hits, sizeof hits);
    ck_assert_int_eq(rc_world_cast_rays(w, rays, 4, rc_default_query_filter(), hits), -1);
    ck_assert(strstr(rc_world_last_error(w), "ray 2") != NULL);
    rays[2].translation.x = 1;
    rays[3].origin.y = INFINITY;
    ck_assert_int_eq(rc_world_cast_rays(w, rays, 4, rc_default_query_filter(), hits), -1);
    ck_assert(strstr(rc_world_last_error(w), "ray 3") != NULL);
    rays[3].origin.y = 3;
    ck_assert_int_eq(rc_world_cast_rays(w, NULL, 4, rc_default_query_filter(), hits), -1);
    ck_assert_int_eq(rc_world_cast_rays(w, rays, 4, rc_default_query_filter(), NULL), -1);
    ck_assert_int_eq(rc_world_cast_rays(w, rays, -1, rc_default_query_filter(), hits), -1);
    ck_assert(strstr(rc_world_last_error(w), "negative") != NULL);
    rc_query_filter stale = rc_default_query_filter();
    stale.ignore_body = ignored;
    rc_body_destroy(w, ignored);
    rc_world_clear_error(w);
    ck_assert_int_eq(rc_world_cast_rays(w, rays, 4, stale, hits), -1);
    ck_assert(rc_world_last_error(w)[0] != '\0');
    ck_assert(memcmp(hits, before, sizeof hits) == 0);
    ck_assert_int_eq(rc_world_cast_rays(NULL, rays, 4, rc_default_query_filter(), hits), -1);
    /* and now it casts */
    ck_assert_int_ge(rc_world_cast_rays(w, rays, 4, rc_default_query_filter(), hits), 1);
    rc_world_destroy(w);
}
END_TEST

/* A world refuses a task system it cannot use. */
START_TEST(a_world_refuses_a_half_task_system) {
    rc_world_def def = rc_world_default_def();
    def.worker_count = RC_MAX_WORKERS + 1;
    ck_assert_ptr_null(rc_world_create(&def));
    def.worker_count = -1;
    ck_assert_ptr_null(rc_world_create(&def));
    def.worker_count = 4;
    def.enqueue_task = checking_enqueue;
    ck_assert_ptr_null(rc_world_create(&def));
    def.enqueue_task = NULL;
    def.finish_task = checking_finish;
    ck_assert_ptr_null(rc_world_create(&def));
    def.finish_task = NULL;
    def.worker_count = 0; /* one */
    rc_world *w = rc_world_create(&def);
    ck_assert_ptr_nonnull(w);
    rc_world_destroy(w);
}
END_TEST

/* Two threads cast batches on one world at once (queries may run concurrently), through the
 * one task system the world has; each gets its own answers. */
typedef struct racer {
    const rc_world *world;
    rc_ray_input rays[1000];
    rc_ray_hit hits[1000];
    int32_t n;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    for (int k = 0; k < 5; ++k) {
        r->n = rc_world_cast_rays(r->world, r->rays, 1000, rc_default_query_filter(), r->hits);
    }
    return NULL;
}

START_TEST(batches_on_two_threads_at_once) {
    task_system *ts = task_system_create(2);
    ck_assert(ts != NULL);
    rc_world_def def = rc_world_default_def();
    task_system_install(ts, &def);
    rc_body_id ignored;
    rc_world *w = make_level(&def, &ignored);
    static racer r[2];
    for (int k = 0; k < 2; ++k) {
        r[k].world = w;
        make_rays(r[k].rays, 1000, 77u + (uint64_t)k);
    }
    pthread_t t[2];
    for (int k = 0; k < 2; ++k) {
        ck_assert_int_eq(pthread_create(&t[k], NULL, race, &r[k]), 0);
    }
    for (int k = 0; k < 2; ++k) {
        pthread_join(t[k], NULL);
        int expected;
        expect_same(w, r[k].rays, r[k].hits, 1000, rc_default_query_filter(), &expected);
        ck_assert_int_eq(r[k].n, expected);
    }
    rc_world_destroy(w);
    task_system_destroy(ts);
}
END_TEST

int main(void) {
    Suite *s = suite_create("batch_casts");
    TCase *tc = tcase_create("batch_casts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_batch_answers_each_ray_as_a_single_cast);
    tcase_add_test(tc, workers_give_the_same_bits);
    tcase_add_test(tc, the_task_hook_is_called_as_documented);
    tcase_add_test(tc, a_batch_refuses_bad_input_and_writes_nothing);
    tcase_add_test(tc, a_world_refuses_a_half_task_system);
    tcase_add_test(tc, batches_on_two_threads_at_once);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
