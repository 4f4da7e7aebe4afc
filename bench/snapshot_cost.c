/* bench/snapshot_cost.c: is a rollback cheap enough? Issue 16's scene: a level of 8,000 static
 * shapes (a field of pegs, boxes and circles, inside a looped chain wall) and 2,600 moving bodies
 * (1,400 crates and 800 grenades falling through the pegs, 400 bullets ricocheting about). After
 * 120 steps to get everything moving, each of 200 steps is timed, and so are a snapshot and a
 * restore of the world at that moment. Reports the median and mean of each, the snapshot's size
 * and its bytes per moving body, and (snapshot + restore) over a step: the target is below 1.
 * ricochet only (no peer has snapshots that restore into another build).
 *
 *   snapshot_cost [--quick] [--out FILE]   --quick: 40 timed steps */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <ricochet/ricochet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PEGS = 8000, CRATES = 1400, GRENADES = 800, BULLETS = 400 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

static void need(bool ok, rc_world *w, const char *what) {
    if (!ok) {
        fprintf(stderr, "snapshot_cost: %s: %s\n", what, rc_world_last_error(w));
        exit(1);
    }
}

/* The level: a 400 x 200 box of chain, pegs in a jittered lattice of 100 x 80 (every other one a
 * circle), all on one static body: 8,000 shapes and the chain's 4 walls. */
static void build_level(rc_world *w, uint64_t *seed) {
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.4f;
    sd.restitution = 0.3f;
    rc_vec2 walls[4] = {{-200, -100}, {200, -100}, {200, 100}, {-200, 100}};
    need(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, walls, 4, true)), w, "chain");
    for (int i = 0; i < PEGS; ++i) {
        sd.offset = rc_v2((float)(-198.0 + 3.96 * (i % 100) + next(seed)), (float)(-95.0 + 2.3 * (i / 100) + 0.5 * next(seed)));
        sd.angle = (float)(3.14 * next(seed));
        rc_shape_id s = i % 2 == 0 ? rc_shape_create_circle(w, level, &sd, 0.3f) : rc_shape_create_box(w, level, &sd, 0.5f, 0.15f);
        need(!rc_shape_id_is_null(s), w, "peg");
    }
}

static void build_movers(rc_world *w, uint64_t *seed) {
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.5f;
    sd.restitution = 0.2f;
    for (int i = 0; i < CRATES + GRENADES + BULLETS; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2((float)(-195.0 + 390.0 * next(seed)), (float)(-90.0 + 185.0 * next(seed)));
        bd.linear_velocity = rc_v2((float)(10.0 * next(seed) - 5.0), (float)(10.0 * next(seed) - 5.0));
        if (i >= CRATES + GRENADES) {
            bd.bullet = true;
            bd.gravity_scale = 0.0f;
            bd.linear_velocity = rc_v2((float)(120.0 * next(seed) - 60.0), (float)(120.0 * next(seed) - 60.0));
        }
        rc_body_id b = rc_body_create(w, &bd);
        need(!rc_body_id_is_null(b), w, "body");
        if (i < CRATES) {
            need(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.35f, 0.25f)), w, "crate");
        } else if (i < CRATES + GRENADES) {
            need(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, 0.2f)), w, "grenade");
        }
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare);
    return v[n / 2];
}

static double mean(const double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += v[i];
    }
    return s / n;
}

int main(int argc, char **argv) {
    int timed = 200;
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            timed = 40;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        }
    }
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    need(w != NULL, w, "world");
    uint64_t seed = 7;
    build_level(w, &seed);
    build_movers(w, &seed);
    for (int i = 0; i < 120; ++i) {
        need(rc_world_step(w, 1.0f / 60.0f), w, "step");
    }
    double *step_ms = malloc(sizeof(double) * (size_t)timed * 3);
    size_t capacity = 2 * rc_world_snapshot_size(w);
    void *buffer = malloc(capacity);
    need(step_ms != NULL && buffer != NULL, w, "memory");
    double *snap_ms = step_ms + timed, *restore_ms = step_ms + 2 * timed;
    size_t size = 0;
    for (int i = 0; i < timed; ++i) {
        double t0 = now();
        size = rc_world_snapshot(w, buffer, capacity);
        double t1 = now();
        need(size > 0, w, "snapshot");
        need(rc_world_restore(w, buffer, size), w, "restore");
        double t2 = now();
        need(rc_world_step(w, 1.0f / 60.0f), w, "step");
        double t3 = now();
        snap_ms[i] = 1e3 * (t1 - t0);
        restore_ms[i] = 1e3 * (t2 - t1);
        step_ms[i] = 1e3 * (t3 - t2);
    }
    rc_world_counters c = rc_world_get_counters(w);
    int moving = CRATES + GRENADES + BULLETS;
    /* the level's part: a snapshot of the same level with no moving bodies */
    rc_world *level = rc_world_create(&wd);
    need(level != NULL, level, "world");
    seed = 7;
    build_level(level, &seed);
    size_t level_size = rc_world_snapshot_size(level);
    rc_world_destroy(level);
    double ms = mean(step_ms, timed), ss = mean(snap_ms, timed), rs = mean(restore_ms, timed);
    double mstep = median(step_ms, timed), msnap = median(snap_ms, timed), mrest = median(restore_ms, timed);
    char report[2048];
    snprintf(report, sizeof report,
             "| what | median ms | mean ms |\n|---|---:|---:|\n| step | %.3f | %.3f |\n| snapshot | %.3f | %.3f |\n"
             "| restore | %.3f | %.3f |\n| snapshot + restore over a step | %.2f | %.2f |\n\n"
             "%d moving bodies, %d static shapes (%d bodies, %d shapes, %d contacts, %d awake at the end); snapshot "
             "%zu bytes: the level alone %zu, %.0f more per moving body\n",
             mstep, ms, msnap, ss, mrest, rs, (msnap + mrest) / mstep, (ss + rs) / ms, moving, PEGS + 4, c.bodies,
             c.shapes, c.contacts, c.awake_bodies, size, level_size, (double)(size - level_size) / moving);
    fputs(report, stdout);
    if (out != NULL) {
        FILE *f = fopen(out, "w");
        if (f != NULL) {
            fputs("# snapshot_cost\n\n", f);
            fputs(report, f);
            fclose(f);
        }
    }
    free(step_ms);
    free(buffer);
    rc_world_destroy(w);
    return 0;
}
