/* bench/snapshot_cost: is a rollback cheap enough? Issue 16's scene: a level of 8,000 static
 * shapes (a field of pegs, boxes and circles, inside a looped chain wall) and 2,600 moving bodies
 * (1,400 crates and 800 grenades falling through the pegs, 400 bullets ricocheting about). After
 * 120 steps to get everything moving, it rolls back as a game does, for each kind of snapshot
 * (full: rc_world_snapshot; frame: rc_world_snapshot_frame, the level left out): a snapshot, 8
 * steps each followed by a snapshot, a restore of the first (8 frames old), the 8 steps again.
 * Every step, snapshot and restore is timed; the re-stepped frames must end where the first
 * pass did (else it exits 1). Reports, per kind, the median and mean of each, the size and the
 * bytes per moving body, and (snapshot + restore) over a step: the target is below 1.
 * ricochet only (no peer has snapshots that restore into another build).
 *
 *   snapshot_cost [--quick] [--out FILE]   --quick: 5 rollbacks of each kind, not 25 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <ricochet/ricochet.h>

#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PEGS = 8000, CRATES = 1400, GRENADES = 800, BULLETS = 400 };

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

static void build_movers(rc_world *w, uint64_t *seed, rc_body_id *bodies) {
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
        bodies[i] = b;
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

enum { BACK = 8 }; /* frames a rollback goes back */

typedef struct timings {
    double *step, *snap, *restore;
    int steps, snaps, restores;
    size_t size;
} timings;

static size_t take(rc_world *w, bool frame, void *buffer, size_t capacity, timings *t) {
    double t0 = bench_now();
    size_t n = frame ? rc_world_snapshot_frame(w, buffer, capacity) : rc_world_snapshot(w, buffer, capacity);
    t->snap[t->snaps++] = 1e3 * (bench_now() - t0);
    need(n > 0, w, "snapshot");
    t->size = n;
    return n;
}

static void timed_step(rc_world *w, timings *t) {
    double t0 = bench_now();
    need(rc_world_step(w, 1.0f / 60.0f), w, "step");
    t->step[t->steps++] = 1e3 * (bench_now() - t0);
}

/* A digest of every body's position, angle and velocities (bits, not values). */
static uint64_t digest(rc_world *w, const rc_body_id *bodies, int count) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < count; ++i) {
        rc_vec2 p = rc_body_position(w, bodies[i]), v = rc_body_linear_velocity(w, bodies[i]);
        float f[6] = {p.x, p.y, v.x, v.y, rc_body_angle(w, bodies[i]), rc_body_angular_velocity(w, bodies[i])};
        uint32_t u[6];
        memcpy(u, f, sizeof u);
        for (int k = 0; k < 6; ++k) {
            h = (h ^ u[k]) * 1099511628211ull;
        }
    }
    return h;
}

/* rollbacks rounds: snapshot, BACK steps and snapshots, restore the first, BACK steps again. */
static void roll(rc_world *w, bool frame, int rollbacks, const rc_body_id *bodies, int count, timings *t) {
    size_t capacity = 2 * rc_world_snapshot_size(w) + 4096;
    uint8_t *first = malloc(capacity), *other = malloc(capacity);
    need(first != NULL && other != NULL, w, "memory");
    for (int r = 0; r < rollbacks; ++r) {
        size_t n = take(w, frame, first, capacity, t);
        for (int i = 0; i < BACK; ++i) {
            timed_step(w, t);
            take(w, frame, other, capacity, t);
        }
        uint64_t then = digest(w, bodies, count);
        double t0 = bench_now();
        need(rc_world_restore(w, first, n), w, "restore");
        t->restore[t->restores++] = 1e3 * (bench_now() - t0);
        for (int i = 0; i < BACK; ++i) {
            timed_step(w, t);
        }
        if (digest(w, bodies, count) != then) {
            fprintf(stderr, "snapshot_cost: the re-stepped frames ended elsewhere (%s snapshot)\n", frame ? "frame" : "full");
            exit(1);
        }
    }
    free(first);
    free(other);
}

int main(int argc, char **argv) {
    int rollbacks = 25;
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            rollbacks = 5;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        }
    }
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    need(w != NULL, w, "world");
    uint64_t seed = 7;
    int moving = CRATES + GRENADES + BULLETS;
    rc_body_id *bodies = malloc(sizeof(rc_body_id) * (size_t)moving);
    need(bodies != NULL, w, "memory");
    build_level(w, &seed);
    build_movers(w, &seed, bodies);
    for (int i = 0; i < 120; ++i) {
        need(rc_world_step(w, 1.0f / 60.0f), w, "step");
    }
    /* the level's part: a snapshot of the same level with no moving bodies */
    rc_world *level = rc_world_create(&wd);
    need(level != NULL, level, "world");
    seed = 7;
    build_level(level, &seed);
    size_t level_size = rc_world_snapshot_size(level);
    rc_world_destroy(level);
    char report[4096];
    int at = snprintf(report, sizeof report,
                      "| snapshot | bytes | per moving body | step median / mean ms | snapshot | restore (%d frames "
                      "back) | (snapshot + restore) / step, median / mean |\n|---|---:|---:|---:|---:|---:|---:|\n",
                      BACK);
    for (int kind = 0; kind < 2; ++kind) {
        int steps = 2 * BACK * rollbacks, snaps = (BACK + 1) * rollbacks;
        double *all = malloc(sizeof(double) * (size_t)(steps + snaps + rollbacks));
        need(all != NULL, w, "memory");
        timings t = {all, all + steps, all + steps + snaps, 0, 0, 0, 0};
        roll(w, kind == 1, rollbacks, bodies, moving, &t);
        double ms = mean(t.step, steps), ss = mean(t.snap, snaps), rs = mean(t.restore, rollbacks);
        double mstep = median(t.step, steps), msnap = median(t.snap, snaps), mrest = median(t.restore, rollbacks);
        size_t per = kind == 1 ? t.size : t.size - level_size;
        at += snprintf(report + at, sizeof report - (size_t)at,
                       "| %s | %zu | %.0f | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f | %.2f / %.2f |\n",
                       kind == 1 ? "frame" : "full", t.size, (double)per / moving, mstep, ms, msnap, ss, mrest, rs,
                       (msnap + mrest) / mstep, (ss + rs) / ms);
        free(all);
    }
    rc_world_counters c = rc_world_get_counters(w);
    snprintf(report + at, sizeof report - (size_t)at,
             "\n%d moving bodies, %d static shapes (%d bodies, %d shapes, %d contacts, %d awake at the end); a "
             "snapshot of the level alone is %zu bytes; per moving body: a full snapshot's bytes beyond the level's, "
             "a frame snapshot's all; %d rollbacks of each kind\n",
             moving, PEGS + 4, c.bodies, c.shapes, c.contacts, c.awake_bodies, level_size, rollbacks);
    fputs(report, stdout);
    if (out != NULL) {
        FILE *f = fopen(out, "w");
        if (f != NULL) {
            fputs("# snapshot_cost\n\n", f);
            fputs(report, f);
            fclose(f);
        }
    }
    free(bodies);
    rc_world_destroy(w);
    return 0;
}
