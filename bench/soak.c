/* bench/soak.c: the soak test. A long run of a busy level that checks, every 1,000 steps,
 * that the world stays sane: no NaN or infinity in any body, nothing outside the level's
 * outer walls, memory that stops growing after a warm-up, and a time per step that stays
 * flat. Exits 1 on any failed check (2 on bad arguments).
 *
 *   soak [--steps N] [--bullet-life SECONDS] [--rate BULLETS_PER_SECOND] [--grenades N]
 *        [--cell-size UNITS] [--seed N]
 *
 * The level: a looped chain as the outer walls (200 x 100), open chains as ledges, static
 * pillars (circles and hexagons), and dynamic crates that float (gravity scale 0, damped) so
 * that bullets and blasts push them about; each crate is replaced after 5-15 s. Grenades
 * (swept circles) are thrown in from the top, bounce, roll and pile up (new throws, blasts and
 * bullets keep most of them awake); each explodes after a fuse of 4-8 s (an overlap query
 * pushes what is near) and a new one is thrown, so there are always the same number. Point bullets are fired from random places in random
 * directions at exactly `rate` per second; the program destroys a bullet after its lifetime
 * or its third impact. dt = 1/60.
 *
 * Not part of `make test`: `make soak` builds Release and runs it (SOAK_ARGS=... for options). */
#define _GNU_SOURCE
#include <ricochet/ricochet.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define DT (1.0f / 60.0f)
#define CHECK_EVERY 1000
#define MAX_INDEX (1 << 20) /* body slots the per-body tables cover */
#define LEVEL_HALF_W 100.0f
#define LEVEL_HALF_H 50.0f
#define CRATES 120
#define MAX_BOUNCES_ALIVE 3

enum { KIND_NONE, KIND_STATIC, KIND_CRATE, KIND_GRENADE, KIND_BULLET };

/* ---- memory through the allocator hook ------------------------------------------------------ */

typedef struct counting {
    int64_t live, peak, allocations, frees;
} counting;

static void *count_alloc(size_t size, size_t align, void *user) {
    counting *c = user;
    void *p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
    if (p != NULL) {
        c->live += (int64_t)size;
        c->allocations++;
        if (c->live > c->peak) {
            c->peak = c->live;
        }
    }
    return p;
}

static void count_free(void *ptr, size_t size, void *user) {
    counting *c = user;
    c->live -= (int64_t)size;
    c->frees++;
    free(ptr);
}

static int64_t rss_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f != NULL) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) {
            resident = 0;
        }
        fclose(f);
    }
    return (int64_t)resident * sysconf(_SC_PAGESIZE);
}

static int64_t peak_rss_bytes(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (int64_t)ru.ru_maxrss * 1024;
}

static double now_s(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- randomness (splitmix64) ---------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t next_u64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((double)(next_u64() >> 11) * 0x1.0p-53); }

/* ---- the game's bookkeeping ----------------------------------------------------------------- */

typedef struct game {
    rc_world *world;
    uint8_t *kind;       /* by body index */
    uint8_t *bounces;    /* bullets: impacts so far, by body index */
    rc_body_id *bullets; /* a ring in firing order: every bullet expires in that order */
    int64_t bullet_head, bullet_tail, bullet_ring;
    rc_body_id *grenades;
    int64_t *grenade_fuse; /* the step at which it explodes */
    int grenade_count;
    rc_body_id crates[CRATES];
    int64_t crate_end[CRATES];
    rc_body_id *statics;
    int static_count;
    int64_t fired, expired, bounced_out, thrown, exploded, crates_made;
    int64_t impacts;
    int failures;
} game;

static void fail(game *g, int64_t step, const char *what) {
    g->failures++;
    if (g->failures <= 20) {
        fprintf(stderr, "soak: FAILED at step %lld: %s\n", (long long)step, what);
    }
}

static void mark(game *g, rc_body_id id, int kind) {
    if (id.index >= MAX_INDEX) {
        fprintf(stderr, "soak: body index %u beyond the bookkeeping tables\n", id.index);
        exit(1);
    }
    g->kind[id.index] = (uint8_t)kind;
    g->bounces[id.index] = 0;
}

static void need(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "soak: %s failed\n", what);
        exit(1);
    }
}

static void build_level(game *g) {
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(g->world, &bd);
    need(!rc_body_id_is_null(level), "the level body");
    g->statics[g->static_count++] = level;
    mark(g, level, KIND_STATIC);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.3f;
    sd.friction = 0.6f;
    rc_vec2 outer[4] = {{-LEVEL_HALF_W, -LEVEL_HALF_H}, {LEVEL_HALF_W, -LEVEL_HALF_H},
                        {LEVEL_HALF_W, LEVEL_HALF_H}, {-LEVEL_HALF_W, LEVEL_HALF_H}};
    need(!rc_shape_id_is_null(rc_shape_create_chain(g->world, level, &sd, outer, 4, true)), "the outer walls");
    /* ledges: open chains with a bend, across the middle band */
    for (int i = 0; i < 6; ++i) {
        float x = -75.0f + 30.0f * (float)i, y = (i % 2 == 0) ? -20.0f : 0.0f;
        rc_vec2 ledge[3] = {{x - 8.0f, y + 2.0f}, {x, y}, {x + 8.0f, y + 1.0f}};
        need(!rc_shape_id_is_null(rc_shape_create_chain(g->world, level, &sd, ledge, 3, false)), "a ledge");
    }
    /* a ramp on the floor at each end */
    rc_vec2 ramp_l[3] = {{-LEVEL_HALF_W, -35.0f}, {-80.0f, -LEVEL_HALF_H + 0.5f}, {-70.0f, -LEVEL_HALF_H + 0.5f}};
    rc_vec2 ramp_r[3] = {{70.0f, -LEVEL_HALF_H + 0.5f}, {80.0f, -LEVEL_HALF_H + 0.5f}, {LEVEL_HALF_W, -35.0f}};
    need(!rc_shape_id_is_null(rc_shape_create_chain(g->world, level, &sd, ramp_l, 3, false)), "a ramp");
    need(!rc_shape_id_is_null(rc_shape_create_chain(g->world, level, &sd, ramp_r, 3, false)), "a ramp");
    /* pillars: a row of circles and a row of hexagons, each its own static body */
    for (int i = 0; i < 16; ++i) {
        bd.position = rc_v2(-82.5f + 11.0f * (float)i, i % 2 == 0 ? -38.0f : -10.0f);
        rc_body_id p = rc_body_create(g->world, &bd);
        need(!rc_body_id_is_null(p), "a pillar body");
        g->statics[g->static_count++] = p;
        mark(g, p, KIND_STATIC);
        if (i % 4 < 2) {
            need(!rc_shape_id_is_null(rc_shape_create_circle(g->world, p, &sd, 1.5f)), "a round pillar");
        } else {
            rc_polygon hex = rc_make_regular_polygon(6, 1.6f, 0.2f * (float)i);
            need(!rc_shape_id_is_null(rc_shape_create_polygon(g->world, p, &sd, hex.vertices, hex.count)),
                 "a hexagonal pillar");
        }
    }
}

static rc_body_id make_crate(game *g, int64_t step, int slot) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(uniform(-85.0f, 85.0f), uniform(-35.0f, 12.0f));
    bd.angle = uniform(-3.0f, 3.0f);
    bd.gravity_scale = 0.0f; /* crates are not swept: under gravity they would sink through the floor */
    bd.linear_damping = 3.0f;
    bd.angular_damping = 3.0f;
    rc_body_id b = rc_body_create(g->world, &bd);
    need(!rc_body_id_is_null(b), "rc_body_create (crate)");
    rc_shape_def sd = rc_shape_default_def();
    sd.density = 0.5f;
    need(!rc_shape_id_is_null(rc_shape_create_box(g->world, b, &sd, uniform(0.5f, 1.2f), uniform(0.5f, 1.2f))),
         "rc_shape_create_box (crate)");
    mark(g, b, KIND_CRATE);
    g->crates[slot] = b;
    g->crate_end[slot] = step + (int64_t)uniform(300.0f, 900.0f);
    g->crates_made++;
    return b;
}

static void throw_grenade(game *g, int64_t step, int slot) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(uniform(-90.0f, 90.0f), uniform(20.0f, 45.0f));
    bd.linear_velocity = rc_v2(uniform(-15.0f, 15.0f), uniform(-5.0f, 10.0f));
    bd.angular_velocity = uniform(-5.0f, 5.0f);
    rc_body_id b = rc_body_create(g->world, &bd);
    need(!rc_body_id_is_null(b), "rc_body_create (grenade)");
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.45f;
    sd.friction = 0.5f;
    need(!rc_shape_id_is_null(rc_shape_create_circle(g->world, b, &sd, 0.2f)), "rc_shape_create_circle (grenade)");
    mark(g, b, KIND_GRENADE);
    g->grenades[slot] = b;
    g->grenade_fuse[slot] = step + (int64_t)uniform(240.0f, 480.0f);
    g->thrown++;
}

static void fire_bullet(game *g) {
    float angle = uniform(-RC_PI, RC_PI), speed = uniform(80.0f, 160.0f);
    rc_rot dir = rc_rot_from_angle(angle);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.max_bounces = 2;
    bd.point_mass = 0.002f; /* light: bullets nudge crates, they do not fling them out */
    bd.position = rc_v2(uniform(-95.0f, 95.0f), uniform(-45.0f, 45.0f));
    bd.linear_velocity = rc_v2(speed * dir.c, speed * dir.s);
    rc_body_id b = rc_body_create(g->world, &bd);
    need(!rc_body_id_is_null(b), "rc_body_create (bullet)");
    mark(g, b, KIND_BULLET);
    need(g->bullet_tail - g->bullet_head < g->bullet_ring, "the bullet ring has room");
    g->bullets[g->bullet_tail++ % g->bullet_ring] = b;
    g->fired++;
}

typedef struct blast {
    rc_body_id hit[256];
    int count;
} blast;

static bool collect_blast(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    blast *b = context;
    if (b->count < 256) {
        b->hit[b->count++] = body;
    }
    return true;
}

static void explode(game *g, rc_vec2 at) {
    blast b = {.count = 0};
    rc_world_overlap_circle(g->world, at, 4.0f, rc_default_query_filter(), collect_blast, &b);
    /* applied after the query: the world must not change under it */
    for (int i = 0; i < b.count; ++i) {
        rc_body_id id = b.hit[i];
        if (!rc_body_is_valid(g->world, id) || rc_body_get_type(g->world, id) != RC_DYNAMIC ||
            g->kind[id.index] == KIND_BULLET) {
            continue;
        }
        rc_vec2 d = rc_sub(rc_body_world_center(g->world, id), at);
        float len = rc_length(d);
        if (len < 1e-3f) {
            continue;
        }
        float dv = 6.0f * (1.0f - (len < 4.0f ? len : 4.0f) / 4.0f);
        rc_vec2 impulse = rc_scale(rc_body_mass(g->world, id) * dv / len, d);
        rc_body_apply_linear_impulse(g->world, id, impulse, rc_body_world_center(g->world, id));
    }
}

/* ---- checks ---------------------------------------------------------------------------------- */

static bool body_sane(game *g, rc_body_id id, int64_t step) {
    rc_vec2 p = rc_body_position(g->world, id), v = rc_body_linear_velocity(g->world, id);
    float a = rc_body_angle(g->world, id), w = rc_body_angular_velocity(g->world, id);
    char what[200];
    if (!rc_vec2_is_finite(p) || !rc_vec2_is_finite(v) || !rc_is_finite(a) || !rc_is_finite(w)) {
        snprintf(what, sizeof what, "body %u (kind %d) is not finite: p (%g, %g) v (%g, %g) angle %g w %g", id.index,
                 g->kind[id.index], p.x, p.y, v.x, v.y, a, w);
        fail(g, step, what);
        return false;
    }
    if (g->kind[id.index] != KIND_STATIC &&
        !(p.x > -LEVEL_HALF_W && p.x < LEVEL_HALF_W && p.y > -LEVEL_HALF_H && p.y < LEVEL_HALF_H)) {
        snprintf(what, sizeof what, "body %u (kind %d) left the level: (%.9g, %.9g)", id.index, g->kind[id.index], p.x,
                 p.y);
        fail(g, step, what);
        return false;
    }
    return true;
}

static int64_t check_bodies(game *g, int64_t step) {
    int64_t n = 0;
    for (int i = 0; i < g->static_count; ++i) {
        n += body_sane(g, g->statics[i], step);
    }
    for (int i = 0; i < CRATES; ++i) {
        n += body_sane(g, g->crates[i], step);
    }
    for (int i = 0; i < g->grenade_count; ++i) {
        n += body_sane(g, g->grenades[i], step);
    }
    for (int64_t k = g->bullet_head; k < g->bullet_tail; ++k) {
        rc_body_id id = g->bullets[k % g->bullet_ring];
        if (rc_body_is_valid(g->world, id)) {
            n += body_sane(g, id, step);
        }
    }
    rc_world_counters c = rc_world_get_counters(g->world);
    if (n != c.bodies) {
        char what[120];
        snprintf(what, sizeof what, "the world has %d bodies, the game tracks %lld", c.bodies, (long long)n);
        fail(g, step, what);
    }
    return n;
}

/* ---- the run --------------------------------------------------------------------------------- */

typedef struct sample {
    int64_t step;
    double wall_ms, cpu_ms; /* per step, mean over the last CHECK_EVERY steps */
    double max_wall_ms;     /* the slowest step among them */
    int64_t live, peak, rss, peak_rss;
    int32_t bodies, contacts, awake;
} sample;

static double window_mean(const sample *s, int64_t from, int64_t to, int cpu) {
    double sum = 0.0;
    int64_t n = 0;
    for (int64_t i = from; i < to; ++i) {
        sum += cpu ? s[i].cpu_ms : s[i].wall_ms;
        n++;
    }
    return n > 0 ? sum / (double)n : 0.0;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the per-sample CPU (or wall) ms/step of samples from..to-1: robust to a burst
 * of load from another process in one sample. */
static double window_median(const sample *s, int64_t from, int64_t to, int cpu) {
    int64_t n = to - from;
    if (n <= 0) {
        return 0.0;
    }
    double *v = malloc(sizeof(double) * (size_t)n);
    if (v == NULL) {
        return window_mean(s, from, to, cpu);
    }
    for (int64_t i = 0; i < n; ++i) {
        v[i] = cpu ? s[from + i].cpu_ms : s[from + i].wall_ms;
    }
    qsort(v, (size_t)n, sizeof *v, compare_double);
    double m = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    free(v);
    return m;
}

static void usage(void) {
    fprintf(stderr, "usage: soak [--steps N] [--bullet-life SECONDS] [--rate BULLETS_PER_SECOND] [--grenades N] "
                    "[--cell-size UNITS] [--seed N]\n");
}

int main(int argc, char **argv) {
    int64_t steps = 1000000;
    double bullet_life = 0.1, rate = 10000.0;
    int grenade_count = 1000;
    uint64_t seed = 0x50A4ull;
    float cell_size = 0.0f;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return 0;
        } else if (v != NULL && strcmp(a, "--steps") == 0) {
            steps = strtoll(v, NULL, 10);
        } else if (v != NULL && strcmp(a, "--bullet-life") == 0) {
            bullet_life = strtod(v, NULL);
        } else if (v != NULL && strcmp(a, "--rate") == 0) {
            rate = strtod(v, NULL);
        } else if (v != NULL && strcmp(a, "--grenades") == 0) {
            grenade_count = atoi(v);
        } else if (v != NULL && strcmp(a, "--cell-size") == 0) {
            cell_size = strtof(v, NULL);
        } else if (v != NULL && strcmp(a, "--seed") == 0) {
            seed = strtoull(v, NULL, 0);
        } else {
            usage();
            return 2;
        }
        ++i;
    }
    if (steps < 10 * CHECK_EVERY || !(bullet_life > 0.0) || !(rate >= 0.0) || grenade_count < 0) {
        fprintf(stderr, "soak: --steps must be at least %d, --bullet-life positive, --rate and --grenades >= 0\n",
                10 * CHECK_EVERY);
        return 2;
    }
    steps -= steps % CHECK_EVERY;
    rng_state = seed;
    int64_t life_steps = (int64_t)ceil(bullet_life / (double)DT);
    if (life_steps < 1) {
        life_steps = 1;
    }

    counting mem = {0};
    rc_world_def wd = rc_world_default_def();
    wd.allocator = (rc_allocator){count_alloc, count_free, &mem};
    wd.cell_size = cell_size;
    game g;
    memset(&g, 0, sizeof g);
    g.world = rc_world_create(&wd);
    need(g.world != NULL, "rc_world_create");
    g.kind = calloc(MAX_INDEX, 1);
    g.bounces = calloc(MAX_INDEX, 1);
    g.bullet_ring = (int64_t)ceil(rate * (double)DT) * (life_steps + 2) + 16;
    g.bullets = calloc((size_t)g.bullet_ring, sizeof *g.bullets);
    g.grenades = calloc((size_t)grenade_count + 1, sizeof *g.grenades);
    g.grenade_fuse = calloc((size_t)grenade_count + 1, sizeof *g.grenade_fuse);
    g.statics = calloc(64, sizeof *g.statics);
    sample *samples = calloc((size_t)(steps / CHECK_EVERY), sizeof *samples);
    need(g.kind && g.bounces && g.bullets && g.grenades && g.grenade_fuse && g.statics && samples, "calloc");

    build_level(&g);
    for (int i = 0; i < CRATES; ++i) {
        make_crate(&g, 0, i);
    }
    g.grenade_count = grenade_count;
    for (int i = 0; i < grenade_count; ++i) {
        throw_grenade(&g, 0, i);
        /* the first fuses spread over the fuse range, so that explosions are even from the start */
        g.grenade_fuse[i] = (int64_t)uniform(1.0f, 480.0f);
    }

    int64_t warmup = steps / 10;
    int64_t progress_every = steps >= 500000 ? 50000 : steps / 20;
    printf("soak: %lld steps of 1/60 s; %d grenades, %d crates, %.0f bullets/s living %.3f s (%lld steps) or %d "
           "impacts; warm-up %lld steps; cell size %g\n",
           (long long)steps, grenade_count, CRATES, rate, bullet_life, (long long)life_steps, MAX_BOUNCES_ALIVE,
           (long long)warmup, (double)rc_world_get_counters(g.world).cell_size);
    fflush(stdout);

    rc_body_id *doomed = malloc(sizeof(rc_body_id) * 65536);
    need(doomed != NULL, "malloc");
    double window_wall = 0.0, window_cpu = 0.0, window_max = 0.0, max_step_ms = 0.0;
    int64_t max_step_at = 0;
    double t_start = now_s(CLOCK_MONOTONIC);
    int64_t max_bodies = 0, max_bullets = 0;
    for (int64_t step = 1; step <= steps; ++step) {
        double frame_w0 = now_s(CLOCK_MONOTONIC), frame_c0 = now_s(CLOCK_THREAD_CPUTIME_ID);

        /* the game's frame: expire, explode, replace, fire */
        int64_t fire_now = (int64_t)floor((double)step * rate * (double)DT) -
                           (int64_t)floor((double)(step - 1) * rate * (double)DT);
        /* bullets fired life_steps steps ago expire now: those fired before the step
           (step - life_steps) are the oldest entries of the ring */
        int64_t keep_from = (int64_t)floor((double)(step - life_steps) * rate * (double)DT);
        while (g.bullet_head < g.bullet_tail && g.bullet_head < keep_from) {
            rc_body_id id = g.bullets[g.bullet_head % g.bullet_ring];
            if (rc_body_is_valid(g.world, id)) {
                rc_body_destroy(g.world, id);
                g.expired++;
            }
            g.bullet_head++;
        }
        for (int i = 0; i < g.grenade_count; ++i) {
            if (g.grenade_fuse[i] <= step) {
                rc_vec2 at = rc_body_position(g.world, g.grenades[i]);
                rc_body_destroy(g.world, g.grenades[i]);
                explode(&g, at);
                g.exploded++;
                throw_grenade(&g, step, i);
            }
        }
        for (int i = 0; i < CRATES; ++i) {
            if (g.crate_end[i] <= step) {
                rc_body_destroy(g.world, g.crates[i]);
                make_crate(&g, step, i);
            }
        }
        for (int64_t i = 0; i < fire_now; ++i) {
            fire_bullet(&g);
        }

        need(rc_world_step(g.world, DT), "rc_world_step");

        /* bullets die at their third impact; destroyed after reading the events, which the
           first destruction would invalidate */
        const rc_impact_event *events = NULL;
        int n_events = rc_world_impact_events(g.world, &events);
        int n_doomed = 0;
        g.impacts += n_events;
        for (int i = 0; i < n_events; ++i) {
            rc_body_id p = events[i].projectile;
            if (p.index < MAX_INDEX && g.kind[p.index] == KIND_BULLET && rc_body_is_valid(g.world, p) &&
                g.bounces[p.index] < 255 && ++g.bounces[p.index] == MAX_BOUNCES_ALIVE && n_doomed < 65536) {
                doomed[n_doomed++] = p;
            }
        }
        for (int i = 0; i < n_doomed; ++i) {
            rc_body_destroy(g.world, doomed[i]);
            g.bounced_out++;
        }

        double w1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_THREAD_CPUTIME_ID);
        double ms = 1e3 * (w1 - frame_w0);
        window_wall += ms;
        window_cpu += 1e3 * (c1 - frame_c0);
        if (ms > window_max) {
            window_max = ms;
        }
        if (ms > max_step_ms) {
            max_step_ms = ms;
            max_step_at = step;
        }

        if (step % CHECK_EVERY == 0) {
            int64_t bodies = check_bodies(&g, step);
            rc_world_counters c = rc_world_get_counters(g.world);
            sample *s = &samples[step / CHECK_EVERY - 1];
            s->step = step;
            s->wall_ms = window_wall / CHECK_EVERY;
            s->cpu_ms = window_cpu / CHECK_EVERY;
            s->max_wall_ms = window_max;
            s->live = mem.live;
            s->peak = mem.peak;
            s->rss = rss_bytes();
            s->peak_rss = peak_rss_bytes();
            s->bodies = c.bodies;
            s->contacts = c.contacts;
            s->awake = c.awake_bodies;
            window_wall = window_cpu = window_max = 0.0;
            if (bodies > max_bodies) {
                max_bodies = bodies;
            }
            int64_t live_bullets = 0;
            for (int64_t k = g.bullet_head; k < g.bullet_tail; ++k) {
                live_bullets += rc_body_is_valid(g.world, g.bullets[k % g.bullet_ring]);
            }
            if (live_bullets > max_bullets) {
                max_bullets = live_bullets;
            }
            if (step % progress_every == 0) {
                printf("step %8lld  %6.2f min  bodies %5d (bullets %5lld, awake %5d)  contacts %5d  fired %10lld  "
                       "ms/step %.3f (cpu %.3f, max %.2f)  live %.2f MB (peak %.2f)  RSS %.1f MB (peak %.1f)\n",
                       (long long)step, (w1 - t_start) / 60.0, c.bodies, (long long)live_bullets, c.awake_bodies,
                       c.contacts, (long long)g.fired, s->wall_ms, s->cpu_ms, s->max_wall_ms, (double)s->live / 1048576.0,
                       (double)s->peak / 1048576.0, (double)s->rss / 1048576.0, (double)s->peak_rss / 1048576.0);
                fflush(stdout);
            }
            if (g.failures > 0) {
                break;
            }
        }
    }
    double t_total = now_s(CLOCK_MONOTONIC) - t_start;
    int64_t n_samples = 0;
    while (n_samples < steps / CHECK_EVERY && samples[n_samples].step != 0) {
        n_samples++;
    }
    if (n_samples < 10) {
        printf("soak: stopped at step %lld\n", (long long)(n_samples * CHECK_EVERY));
        return 1;
    }

    /* after the warm-up: ten windows; the last against the first */
    int64_t w0 = warmup / CHECK_EVERY < n_samples / 2 ? warmup / CHECK_EVERY : n_samples / 2;
    if (w0 < 1) {
        w0 = 1;
    }
    int64_t span = n_samples - w0, win = span / 10 > 0 ? span / 10 : 1;
    double first_wall = window_median(samples, w0, w0 + win, 0), last_wall = window_median(samples, n_samples - win, n_samples, 0);
    double first_cpu = window_median(samples, w0, w0 + win, 1), last_cpu = window_median(samples, n_samples - win, n_samples, 1);
    int64_t mid = w0 + span / 2;
    const sample *at_warm = &samples[w0 - 1], *at_mid = &samples[mid - 1], *at_end = &samples[n_samples - 1];
    printf("\nsoak summary: %lld steps in %.1f min (%.3f ms/step overall)\n", (long long)steps, t_total / 60.0,
           1e3 * t_total / (double)steps);
    printf("  bodies: at most %lld (bullets at most %lld); %lld bullets fired, %lld expired, %lld destroyed at their "
           "third impact; %lld impacts; %lld grenades thrown, %lld exploded; %lld crates made\n",
           (long long)max_bodies, (long long)max_bullets, (long long)g.fired, (long long)g.expired,
           (long long)g.bounced_out, (long long)g.impacts, (long long)g.thrown, (long long)g.exploded,
           (long long)g.crates_made);
    printf("  ms/step (frame: game logic + rc_world_step), windows of %lld steps after the warm-up (median of the means over 1,000 steps): first %.3f wall "
           "%.3f cpu, last %.3f wall %.3f cpu (last/first cpu %.3f); slowest step %.2f ms at step %lld\n",
           (long long)(win * CHECK_EVERY), first_wall, first_cpu, last_wall, last_cpu, last_cpu / first_cpu,
           max_step_ms, (long long)max_step_at);
    printf("  memory through the hook: live %.3f MB after warm-up, %.3f MB at half-time, %.3f MB at the end; "
           "high-water %.3f / %.3f / %.3f MB; %lld allocations, %lld frees\n",
           (double)at_warm->live / 1048576.0, (double)at_mid->live / 1048576.0, (double)at_end->live / 1048576.0, (double)at_warm->peak / 1048576.0,
           (double)at_mid->peak / 1048576.0, (double)at_end->peak / 1048576.0, (long long)mem.allocations, (long long)mem.frees);
    printf("  process RSS: %.1f / %.1f / %.1f MB; peak %.1f / %.1f / %.1f MB\n", (double)at_warm->rss / 1048576.0,
           (double)at_mid->rss / 1048576.0, (double)at_end->rss / 1048576.0, (double)at_warm->peak_rss / 1048576.0,
           (double)at_mid->peak_rss / 1048576.0, (double)at_end->peak_rss / 1048576.0);
    printf("  windows (step: cpu ms/step, live MB, high-water MB, RSS MB):");
    for (int64_t k = 0; k < 10 && w0 + (k + 1) * win <= n_samples; ++k) {
        const sample *s = &samples[w0 + (k + 1) * win - 1];
        printf(" %lld: %.3f %.2f %.2f %.1f;", (long long)s->step, window_median(samples, w0 + k * win, w0 + (k + 1) * win, 1),
               (double)s->live / 1048576.0, (double)s->peak / 1048576.0, (double)s->rss / 1048576.0);
    }
    printf("\n");

    /* the checks that need the whole run (NaN and containment were checked as it went) */
    if (g.failures == 0) {
        /* memory stopped growing: the high-water marks rose by at most 2% (live bytes) and
           2% + 1 MB (RSS) over the second half */
        if ((double)at_end->peak > 1.02 * (double)at_mid->peak) {
            fail(&g, steps, "the live-bytes high-water mark kept rising over the second half");
        }
        if ((double)at_end->peak_rss > 1.02 * (double)at_mid->peak_rss + 1048576.0) {
            fail(&g, steps, "the peak RSS kept rising over the second half");
        }
        /* flat time: the last window's CPU time per step at most 25% above the first's (CPU time
           of this thread, medians: another process's load moves the wall time far more) */
        if (last_cpu > 1.25 * first_cpu) {
            fail(&g, steps, "ms per step rose by more than 25% from the first window to the last");
        }
    }
    rc_world_destroy(g.world);
    if (mem.live != 0) {
        fail(&g, steps, "bytes still live after rc_world_destroy");
    }
    printf("  checks: %s (every %d steps: finite state, inside the level, body count; at the end: memory high-water "
           "marks, flat time per step, nothing live after rc_world_destroy)\n",
           g.failures == 0 ? "all passed" : "FAILED", CHECK_EVERY);
    free(doomed);
    free(samples);
    free(g.kind);
    free(g.bounces);
    free(g.bullets);
    free(g.grenades);
    free(g.grenade_fuse);
    free(g.statics);
    return g.failures == 0 ? 0 : 1;
}
