/* batch_rays: many rays at once, on the game's threads. A level of 2,000 transformed crates and
 * pillars; 50,000 rays cast three ways: one rc_world_cast_ray_filtered call each, one
 * rc_world_cast_rays batch on the calling thread, and the same batch on a world given a small
 * pthread task system (samples/support/task_system.c) of two workers. Checks that all three
 * give the same answers, bit for bit, and prints what each took and how the task system shared
 * the work.
 *
 *   batch_rays [--workers N]   N workers for the third way (default 2) */
#include <ricochet/ricochet.h>

#include "task_system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RAYS = 50000, CRATES = 2000 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A reproducible number in [0, 1). */
static double next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

static rc_world *make_level(const rc_world_def *def) {
    rc_world *w = rc_world_create(def);
    if (w == NULL) {
        return NULL;
    }
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    uint64_t seed = 42;
    for (int i = 0; i < CRATES; ++i) {
        rc_shape_def sd = rc_shape_default_def();
        sd.offset = rc_v2((float)(400.0 * next(&seed) - 200.0), (float)(400.0 * next(&seed) - 200.0));
        sd.angle = (float)(6.28 * next(&seed));
        sd.scale = rc_v2((float)(0.5 + next(&seed)), (float)(0.5 + next(&seed)));
        if (i % 3 == 0) {
            sd.scale = rc_v2(sd.scale.x, sd.scale.x); /* a circle scales evenly */
        }
        rc_shape_id s = i % 3 == 0 ? rc_shape_create_circle(w, level, &sd, 1.0f)
                                   : rc_shape_create_box(w, level, &sd, 1.0f, 0.6f);
        if (rc_shape_id_is_null(s)) {
            fprintf(stderr, "batch_rays: %s\n", rc_world_last_error(w));
        }
        if (rc_shape_id_is_null(s)) {
            rc_world_destroy(w);
            return NULL;
        }
    }
    return w;
}

static uint32_t bits_of(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static bool same(const rc_ray_hit *a, const rc_ray_hit *b) {
    return bits_of(a->t) == bits_of(b->t) && bits_of(a->point.x) == bits_of(b->point.x) &&
           bits_of(a->point.y) == bits_of(b->point.y) && bits_of(a->normal.x) == bits_of(b->normal.x) &&
           bits_of(a->normal.y) == bits_of(b->normal.y) && a->started_inside == b->started_inside &&
           rc_shape_id_equals(a->shape, b->shape) && rc_body_id_equals(a->body, b->body);
}

static bool compare(const rc_world *one, const rc_world *many, task_system *ts, int workers, rc_ray_input *rays,
                    rc_ray_hit *singles, rc_ray_hit *batch, rc_ray_hit *spread);

int main(int argc, char **argv) {
    int workers = 2;
    if (argc == 3 && strcmp(argv[1], "--workers") == 0) {
        workers = (int)strtol(argv[2], NULL, 10);
    } else if (argc != 1) {
        fprintf(stderr, "usage: batch_rays [--workers N]\n");
        return 2;
    }
    task_system *ts = task_system_create(workers);
    rc_world_def plain = rc_world_default_def(), threaded = rc_world_default_def();
    plain.id_salt = threaded.id_salt = 7; /* the same ids in both worlds */
    if (ts == NULL) {
        fprintf(stderr, "batch_rays: no task system of %d workers\n", workers);
        return 1;
    }
    task_system_install(ts, &threaded);
    rc_world *one = make_level(&plain), *many = make_level(&threaded);
    rc_ray_input *rays = malloc(sizeof *rays * RAYS);
    rc_ray_hit *singles = malloc(sizeof *singles * RAYS), *batch = malloc(sizeof *batch * RAYS),
               *spread = malloc(sizeof *spread * RAYS);
    bool ok = one != NULL && many != NULL && rays != NULL && singles != NULL && batch != NULL && spread != NULL;
    if (ok) {
        ok = compare(one, many, ts, workers, rays, singles, batch, spread);
    } else {
        fprintf(stderr, "batch_rays: out of memory\n");
    }
    free(rays);
    free(singles);
    free(batch);
    free(spread);
    rc_world_destroy(one);
    rc_world_destroy(many);
    task_system_destroy(ts);
    return ok ? 0 : 1;
}

/* Cast the rays the three ways, report, and say whether all agree. */
static bool compare(const rc_world *one, const rc_world *many, task_system *ts, int workers, rc_ray_input *rays,
                    rc_ray_hit *singles, rc_ray_hit *batch, rc_ray_hit *spread) {
    uint64_t seed = 7;
    for (int i = 0; i < RAYS; ++i) {
        double a = 6.283185307179586 * next(&seed), length = 10.0 + 290.0 * next(&seed);
        rays[i].origin = rc_v2((float)(440.0 * next(&seed) - 220.0), (float)(440.0 * next(&seed) - 220.0));
        rays[i].translation = rc_v2((float)(length * cos(a)), (float)(length * sin(a)));
    }
    rc_query_filter filter = rc_default_query_filter();

    double t0 = now();
    int hits = 0;
    for (int i = 0; i < RAYS; ++i) {
        memset(&singles[i], 0, sizeof singles[i]);
        if (rc_world_cast_ray_filtered(one, rays[i].origin, rays[i].translation, filter, &singles[i])) {
            ++hits;
        }
    }
    double t1 = now();
    int32_t batch_hits = rc_world_cast_rays(one, rays, RAYS, filter, batch);
    double t2 = now();
    int32_t spread_hits = rc_world_cast_rays(many, rays, RAYS, filter, spread);
    double t3 = now();

    int wrong = 0;
    for (int i = 0; i < RAYS; ++i) {
        bool hit = !rc_shape_id_is_null(singles[i].shape);
        if ((hit && !same(&singles[i], &batch[i])) || !same(&batch[i], &spread[i]) ||
            hit == rc_shape_id_is_null(batch[i].shape)) {
            ++wrong;
        }
    }
    int32_t ranges[RC_MAX_WORKERS];
    int32_t n = task_system_take_counts(ts, ranges, RC_MAX_WORKERS);
    printf("%d rays through %d shapes: %d hit\n", RAYS, CRATES, hits);
    printf("  one call per ray:          %7.1f ns/ray\n", 1e9 * (t1 - t0) / RAYS);
    printf("  one batch, calling thread: %7.1f ns/ray\n", 1e9 * (t2 - t1) / RAYS);
    printf("  one batch, %d workers:      %7.1f ns/ray (ranges run per worker:", workers, 1e9 * (t3 - t2) / RAYS);
    for (int k = 0; k < n; ++k) {
        printf(" %d", (int)ranges[k]);
    }
    printf(")\n");
    printf("  answers that differ: %d\n", wrong);
    return wrong == 0 && batch_hits == hits && spread_hits == hits;
}
