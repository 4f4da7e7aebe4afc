/* bench/solver_main.c: bench_solver, ricochet's contact solver against Box2D v3 and Chipmunk2D
 * on the rigid-body scenes Box2D v3's own benchmark made standard, built identically for every
 * engine (solver.h):
 *
 *   large-pyramid  a pyramid of base 100 (5,050 boxes of half size 0.5) on a ground box, 500 steps
 *   many-pyramids  20 rows of 20 pyramids of base 10 (22,000 boxes), 200 steps
 *   tumbler        a kinematic box (20 x 20 inside) turning at 25 deg/s holding 2,025 bodies
 *                  (boxes, circles, capsules in turn), 600 steps
 *   rain           rows of 40 mixed bodies poured every 8 steps onto a wavy one-sided terrain
 *                  between walls, up to 2,000 bodies, 600 steps
 *   grenade-pit    2,000 circles (radius 0.25, restitution 0.3) dropped into a pit 30 wide, 600
 *                  steps (in ricochet they are grenades: swept circles)
 *   joint-grid     a net of 100 x 100 small boxes, each hinged to its neighbours to the left and
 *                  above (Box2D v3's joint grid), hung by its top row from 100 hinges to the
 *                  ground (19,900 joints), 300 steps: the joint solver's cost. (Box2D's own
 *                  hangs it from 7: a load no soft joint holds, which tears the net in Box2D v3
 *                  and in ricochet alike; 100 hold it within a hundredth in both.)
 *
 * Gravity (0, -10), steps of 1/60 s, the same materials in every engine (friction, restitution,
 * and no rolling resistance: Chipmunk2D has none, and it is Box2D v3's default; ricochet's own
 * default for round shapes, 0.2, is set in every engine that has it by --rolling 0.2), each
 * engine's defaults otherwise (Box2D v3: 4 sub-steps, one worker; Chipmunk2D: 10 iterations;
 * ricochet: 4 sub-steps), sleeping after 0.5 s in all.
 * Every step is timed (CLOCK_MONOTONIC around the engine's step call); the report gives the
 * median, the 95th percentile and the mean in ms, the simulated time at which every dynamic
 * body was asleep, a check of what came of the scene (the pyramids stood; nothing left its
 * container), and each engine's mean over ricochet's (the mean: a median is 0 for an engine
 * whose scene fell asleep in the first half). Single-threaded, one engine at a time.
 *
 *   bench_solver [--quick] [--scenes a,b] [--engines a,b] [--rolling R] [--out FILE]
 *
 * BENCH_SOLVER_TRACE=1 prints each engine's mean step over every half second of the scene (where
 * in a scene an engine spends its time: the bodies falling, the pile, the time to sleep);
 * BENCH_SOLVER_STEPS=N runs the scenes' first N steps only (a profile of one phase). */
#define _GNU_SOURCE
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>
#endif
#include <time.h>

static const float DT = 1.0f / 60.0f;
static const solver_material CRATE = {0.6f, 0.0f, 0.0f};

typedef struct start_pose {
    float x, y, angle;
} start_pose;

/* What a scene's run gives the report. */
typedef struct scene_result {
    int bodies;
    double median_ms, p95_ms, mean_ms;
    double asleep_at; /* simulated seconds; < 0: not all asleep */
    char check[160];
    bool ok;
} scene_result;

typedef struct scene_run {
    const solver_engine *e;
    void *w;
    int steps;
    start_pose *start; /* of every dynamic body, in index order */
    int count, capacity;
    float rolling_resistance; /* of every material in the scene (--rolling) */
} scene_run;

/* A scene's material with the run's rolling resistance. */
static solver_material material(const scene_run *r, solver_material m) {
    m.rolling_resistance = r->rolling_resistance;
    return m;
}

static void remember(scene_run *r, int index, float x, float y, float angle) {
    if (index >= r->capacity) {
        r->capacity = r->capacity ? 2 * r->capacity : 4096;
        r->start = realloc(r->start, sizeof *r->start * (size_t)r->capacity);
        if (r->start == NULL) {
            exit(1);
        }
    }
    r->start[index] = (start_pose){x, y, angle};
    r->count = index + 1;
}

static int add_box(scene_run *r, float x, float y, float angle, float hw, float hh, solver_material m) {
    int i = r->e->dynamic_box(r->w, x, y, angle, hw, hh, material(r, m));
    remember(r, i, x, y, angle);
    return i;
}

static int add_circle(scene_run *r, float x, float y, float radius, solver_material m) {
    int i = r->e->dynamic_circle(r->w, x, y, radius, material(r, m));
    remember(r, i, x, y, 0.0f);
    return i;
}

static int add_capsule(scene_run *r, float x, float y, float angle, float half_length, float radius,
                       solver_material m) {
    int i = r->e->dynamic_capsule(r->w, x, y, angle, half_length, radius, material(r, m));
    remember(r, i, x, y, angle);
    return i;
}

/* One of three kinds in turn, each about 0.25 across at scale 1. */
static void add_mixed(scene_run *r, int k, float x, float y, float scale) {
    switch (k % 3) {
    case 0:
        add_box(r, x, y, 0.0f, 0.125f * scale, 0.125f * scale, CRATE);
        break;
    case 1:
        add_circle(r, x, y, 0.125f * scale, CRATE);
        break;
    default:
        add_capsule(r, x, y, 0.0f, 0.1f * scale, 0.08f * scale, CRATE);
        break;
    }
}

/* ---- scenes ------------------------------------------------------------------------------------ */

static void pyramid(scene_run *r, int base, float center_x, float base_y) {
    for (int row = 0; row < base; ++row) {
        for (int i = 0; i < base - row; ++i) {
            float x = center_x + (float)i - 0.5f * (float)(base - row - 1);
            add_box(r, x, base_y + 0.5f + (float)row, 0.0f, 0.5f, 0.5f, CRATE);
        }
    }
}

/* Did the pyramids stand: no box turned more than 0.1 rad or moved more than 0.5 sideways,
 * none sank more than 0.2 plus 0.02 per unit of height (four slops of 0.005 per row). */
static void check_pyramids(scene_run *r, scene_result *out) {
    int fallen = 0;
    for (int i = 0; i < r->count; ++i) {
        float x, y, a;
        r->e->transform(r->w, i, &x, &y, &a);
        /* a box sinks by a few slops per row beneath it (ricochet and Box2D: 0.005 each) */
        float sink_allowed = 0.2f + 0.02f * r->start[i].y;
        if (!(fabsf(a - r->start[i].angle) < 0.1f && fabsf(x - r->start[i].x) < 0.5f &&
              r->start[i].y - y < sink_allowed)) {
            ++fallen;
        }
    }
    out->ok = fallen == 0;
    snprintf(out->check, sizeof out->check, fallen == 0 ? "stood" : "%d boxes fell", fallen);
}

static void build_large_pyramid(scene_run *r, bool quick) {
    r->e->static_box(r->w, 0.0f, -1.0f, 0.0f, 100.0f, 1.0f, material(r, CRATE));
    pyramid(r, quick ? 40 : 100, 0.0f, 0.0f);
    r->steps = quick ? 100 : 500;
}

static void build_many_pyramids(scene_run *r, bool quick) {
    int rows = quick ? 5 : 20, columns = quick ? 5 : 20, base = 10;
    float width = (float)columns * (float)(base + 1);
    for (int i = 0; i < rows; ++i) {
        float ground_y = (float)i * (float)(base + 1);
        r->e->static_box(r->w, 0.0f, ground_y - 0.5f, 0.0f, 0.5f * width + 1.0f, 0.5f, material(r, CRATE));
        for (int j = 0; j < columns; ++j) {
            pyramid(r, base, -0.5f * width + (float)j * (float)(base + 1) + 0.5f * (float)(base + 1), ground_y);
        }
    }
    r->steps = quick ? 60 : 200;
}

static const float TUMBLER_Y = 10.0f, TUMBLER_HALF = 9.5f, TUMBLER_OMEGA = 25.0f * 3.14159265f / 180.0f;

static void build_tumbler(scene_run *r, bool quick) {
    r->e->kinematic_frame(r->w, 0.0f, TUMBLER_Y, TUMBLER_HALF, 0.5f, TUMBLER_OMEGA, material(r, CRATE));
    int grid = quick ? 20 : 45, k = 0;
    for (int i = 0; i < grid; ++i) {
        for (int j = 0; j < grid; ++j) {
            add_mixed(r, k++, -0.2f * (float)grid + 0.4f * (float)j, TUMBLER_Y - 0.2f * (float)grid + 0.4f * (float)i,
                      1.0f);
        }
    }
    r->steps = quick ? 120 : 600;
}

/* Nothing left the turning box: every body within it, in the box's frame. */
static void check_tumbler(scene_run *r, scene_result *out) {
    float turned = TUMBLER_OMEGA * DT * (float)r->steps;
    int out_count = 0;
    for (int i = 0; i < r->count; ++i) {
        float x, y, a;
        r->e->transform(r->w, i, &x, &y, &a);
        float dx = x, dy = y - TUMBLER_Y;
        float lx = cosf(turned) * dx + sinf(turned) * dy, ly = -sinf(turned) * dx + cosf(turned) * dy;
        bool inside = fabsf(lx) < TUMBLER_HALF + 0.1f && fabsf(ly) < TUMBLER_HALF + 0.1f;
        if (!inside && getenv("BENCH_SOLVER_VERBOSE") != NULL) {
            fprintf(stderr, "  %s: body %d (kind %d) at (%.3f, %.3f) in the box's frame\n", r->e->name, i, i % 3,
                    (double)lx, (double)ly);
        }
        out_count += !inside;
    }
    out->ok = out_count == 0;
    snprintf(out->check, sizeof out->check, "%d of %d outside the box", out_count, r->count);
}

static const float RAIN_HALF = 40.0f;

static void build_rain(scene_run *r, bool quick) {
    enum { POINTS = 161 };
    float xy[2 * POINTS];
    for (int i = 0; i < POINTS; ++i) {
        float x = -RAIN_HALF + 2.0f * RAIN_HALF * (float)i / (float)(POINTS - 1);
        xy[2 * i] = x;
        xy[2 * i + 1] = 2.0f * sinf(0.3f * x) + 0.5f * sinf(1.1f * x);
    }
    r->e->static_terrain(r->w, xy, POINTS, material(r, CRATE));
    r->e->static_box(r->w, -RAIN_HALF - 0.5f, 20.0f, 0.0f, 0.5f, 25.0f, material(r, CRATE));
    r->e->static_box(r->w, RAIN_HALF + 0.5f, 20.0f, 0.0f, 0.5f, 25.0f, material(r, CRATE));
    r->steps = quick ? 160 : 600;
}

/* A row of 40 bodies at y = 30 every 8 steps, 50 rows in all (20 in a quick run). */
static void step_rain(scene_run *r, int step, bool quick) {
    int rows = quick ? 20 : 50;
    if (step % 8 != 0 || step / 8 >= rows) {
        return;
    }
    for (int i = 0; i < 40; ++i) {
        float x = -RAIN_HALF + 1.0f + (2.0f * RAIN_HALF - 2.0f) * ((float)i + 0.5f) / 40.0f + 0.3f * (float)((step / 8) % 3);
        add_mixed(r, i + step / 8, x, 30.0f, 2.0f);
    }
}

static void check_rain(scene_run *r, scene_result *out) {
    int lost = 0;
    for (int i = 0; i < r->count; ++i) {
        float x, y, a;
        r->e->transform(r->w, i, &x, &y, &a);
        bool here = y > -4.0f && fabsf(x) < RAIN_HALF;
        if (!here && getenv("BENCH_SOLVER_VERBOSE") != NULL) {
            fprintf(stderr, "  %s: body %d (kind %d) at (%.3f, %.3f)\n", r->e->name, i, i % 3, (double)x, (double)y);
        }
        lost += !here;
    }
    out->ok = lost == 0;
    snprintf(out->check, sizeof out->check, "%d of %d through the terrain or out", lost, r->count);
}

static void build_grenade_pit(scene_run *r, bool quick) {
    r->e->static_box(r->w, 0.0f, -0.5f, 0.0f, 16.0f, 0.5f, material(r, CRATE));
    r->e->static_box(r->w, -15.5f, 15.0f, 0.0f, 0.5f, 15.0f, material(r, CRATE));
    r->e->static_box(r->w, 15.5f, 15.0f, 0.0f, 0.5f, 15.0f, material(r, CRATE));
    int count = quick ? 500 : 2000;
    solver_material grenade = {0.6f, 0.3f, 0.0f};
    for (int i = 0; i < count; ++i) {
        int column = i % 50, row = i / 50;
        add_circle(r, -14.5f + 0.59f * (float)column + 0.1f * (float)(row % 2), 1.0f + 0.6f * (float)row, 0.25f, grenade);
    }
    r->steps = quick ? 150 : 600;
}

static void check_pit(scene_run *r, scene_result *out) {
    int lost = 0;
    for (int i = 0; i < r->count; ++i) {
        float x, y, a;
        r->e->transform(r->w, i, &x, &y, &a);
        lost += !(fabsf(x) < 15.0f && y > 0.0f);
    }
    out->ok = lost == 0;
    snprintf(out->check, sizeof out->check, "%d of %d out of the pit", lost, r->count);
}

enum { GRID_MAX = 100 };

static void build_joint_grid(scene_run *r, bool quick) {
    int n = quick ? 40 : GRID_MAX;
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < n; ++i) {
            float x = (float)k, y = -(float)i;
            int body = add_box(r, x, y, 0.0f, 0.2f, 0.2f, CRATE);
            if (i == 0) {
                r->e->revolute(r->w, -1, body, x, y + 0.5f);
            }
            if (i > 0) {
                r->e->revolute(r->w, body - 1, body, x, y + 0.5f);
            }
            if (k > 0) {
                r->e->revolute(r->w, body - n, body, x - 0.5f, y);
            }
        }
    }
    r->steps = quick ? 100 : 300;
}

/* How far the net stretched: the worst distance between neighbours, less the 1 they started. */
static void check_joint_grid(scene_run *r, scene_result *out) {
    int n = 1;
    while (n * n < r->count) {
        ++n;
    }
    float worst = 0.0f;
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < n; ++i) {
            float x, y, a, xo, yo, ao;
            r->e->transform(r->w, k * n + i, &x, &y, &a);
            for (int side = 0; side < 2; ++side) {
                int other = side == 0 ? (i > 0 ? k * n + i - 1 : -1) : (k > 0 ? (k - 1) * n + i : -1);
                if (other < 0) {
                    continue;
                }
                r->e->transform(r->w, other, &xo, &yo, &ao);
                float d = sqrtf((x - xo) * (x - xo) + (y - yo) * (y - yo)) - 1.0f;
                worst = d > worst || d != d ? d : worst;
            }
        }
    }
    out->ok = worst < 0.05f;
    snprintf(out->check, sizeof out->check, "%d joints; neighbours stretched %.4f at most", 2 * n * (n - 1) + n,
             (double)worst);
}

typedef struct scene {
    const char *name;
    void (*build)(scene_run *r, bool quick);
    void (*each_step)(scene_run *r, int step, bool quick); /* may add bodies (untimed) */
    void (*check)(scene_run *r, scene_result *out);
    int expected_bodies;
} scene;

static const scene SCENES[] = {
    {"large-pyramid", build_large_pyramid, NULL, check_pyramids, 5050},
    {"many-pyramids", build_many_pyramids, NULL, check_pyramids, 22000},
    {"tumbler", build_tumbler, NULL, check_tumbler, 2025},
    {"rain", build_rain, step_rain, check_rain, 2000},
    {"grenade-pit", build_grenade_pit, NULL, check_pit, 2000},
    {"joint-grid", build_joint_grid, NULL, check_joint_grid, GRID_MAX * GRID_MAX},
};
enum { SCENE_COUNT = sizeof SCENES / sizeof SCENES[0] };

/* ---- running ----------------------------------------------------------------------------------- */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bool all_asleep(scene_run *r) {
    for (int i = 0; i < r->count; ++i) {
        if (r->e->is_awake(r->w, i)) {
            return false;
        }
    }
    return r->count > 0;
}

static scene_result run_scene(const solver_engine *e, const scene *s, bool quick, float rolling_resistance) {
    scene_run r = {e, e->create(-10.0f, s->expected_bodies), 0, NULL, 0, 0, rolling_resistance};
    s->build(&r, quick);
    if (getenv("BENCH_SOLVER_STEPS") != NULL && atoi(getenv("BENCH_SOLVER_STEPS")) > 0) {
        r.steps = atoi(getenv("BENCH_SOLVER_STEPS")); /* (a profile of the scene's first steps) */
    }
    double *times = malloc(sizeof *times * (size_t)r.steps);
    if (times == NULL) {
        exit(1);
    }
    scene_result out;
    memset(&out, 0, sizeof out);
    out.asleep_at = -1.0;
    for (int step = 0; step < r.steps; ++step) {
        if (s->each_step != NULL) {
            s->each_step(&r, step, quick);
        }
        double t0 = now_ms();
        e->step(r.w, DT);
        times[step] = now_ms() - t0;
        if (out.asleep_at < 0.0 && step % 5 == 4 && all_asleep(&r)) {
            out.asleep_at = (double)(step + 1) * (double)DT;
        }
    }
    if (getenv("BENCH_SOLVER_TRACE") != NULL) {
        /* the step's cost over the scene's time: the mean of each half second (30 steps) */
        for (int i = 0; i < r.steps; i += 30) {
            double part = 0.0;
            int n = 0;
            for (; n < 30 && i + n < r.steps; ++n) {
                part += times[i + n];
            }
            fprintf(stderr, "  %s %s t=%5.2f s: mean %.3f ms\n", e->name, s->name, (double)i * (double)DT,
                    part / (double)n);
        }
    }
    double sum = 0.0;
    for (int i = 0; i < r.steps; ++i) {
        sum += times[i];
    }
    qsort(times, (size_t)r.steps, sizeof *times, compare_doubles);
    out.bodies = r.count;
    out.mean_ms = sum / (double)r.steps;
    out.median_ms = times[r.steps / 2];
    out.p95_ms = times[(r.steps * 95) / 100];
    s->check(&r, &out);
    free(times);
    free(r.start);
    e->destroy(r.w);
    return out;
}

/* ---- the report -------------------------------------------------------------------------------- */

static bool listed(const char *list, const char *name) {
    if (list == NULL) {
        return true;
    }
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

static void cpu_name(char *out, size_t size) {
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) {
        return;
    }
    char line[256];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon != NULL) {
                snprintf(out, size, "%s", colon + 2);
                out[strcspn(out, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(f);
}

/* Is flush-to-zero (or denormals-are-zero) on in this process? A peer library built with
 * -ffast-math (Chipmunk2D's own CMake Release) turns it on when it is loaded, for every engine's
 * arithmetic: their times and results would not be the ones a game gets. */
static bool flush_to_zero_on(void) {
#if defined(__x86_64__) || defined(__SSE2__)
    return (_mm_getcsr() & 0x8040u) != 0u; /* FTZ (bit 15), DAZ (bit 6) */
#else
    return false;
#endif
}

int main(int argc, char **argv) {
    bool quick = false;
    const char *scenes = NULL, *engines = NULL, *out_path = NULL;
    float rolling_resistance = 0.0f;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--scenes") == 0 && i + 1 < argc) {
            scenes = argv[++i];
        } else if (strcmp(argv[i], "--engines") == 0 && i + 1 < argc) {
            engines = argv[++i];
        } else if (strcmp(argv[i], "--rolling") == 0 && i + 1 < argc) {
            char *end;
            rolling_resistance = strtof(argv[++i], &end);
            if (*end != '\0' || !(rolling_resistance >= 0.0f && rolling_resistance <= 10.0f)) {
                fprintf(stderr, "bench_solver: --rolling takes a number from 0 to 10\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else {
            fprintf(stderr, "usage: bench_solver [--quick] [--scenes a,b] [--engines ricochet,box2d3,chipmunk] [--rolling R] [--out FILE]\n");
            return 2;
        }
    }
    const solver_engine *all[3];
    const char *keys[3];
    int engine_count = 0;
#ifdef BENCH_HAVE_RICOCHET
    all[engine_count] = &solver_ricochet;
    keys[engine_count++] = "ricochet";
#endif
#ifdef BENCH_HAVE_BOX2D3
    all[engine_count] = &solver_box2d3;
    keys[engine_count++] = "box2d3";
#endif
#ifdef BENCH_HAVE_CHIPMUNK
    all[engine_count] = &solver_chipmunk;
    keys[engine_count++] = "chipmunk";
#endif
    char cpu[128];
    cpu_name(cpu, sizeof cpu);
    FILE *md = out_path != NULL ? fopen(out_path, "w") : NULL;
    printf("bench_solver: %s, %s build, one thread%s\n", cpu, BENCH_SOLVER_BUILD, quick ? ", quick" : "");
    printf("engines:");
    for (int k = 0; k < engine_count; ++k) {
        printf(" %s %s%s", all[k]->name, all[k]->version, k + 1 < engine_count ? "," : "\n");
    }
    printf("materials: rolling resistance %g in every engine that has it (Chipmunk2D has none)\n",
           (double)rolling_resistance);
    const char *ftz = "warning: flush-to-zero is on in this process (a peer library built with -ffast-math?): "
                      "every engine's times and results differ from a normal process's";
    bool ftz_on = flush_to_zero_on();
    if (ftz_on) {
        printf("%s\n", ftz);
    }
    if (md != NULL) {
        fprintf(md, "Machine: %s; %s build; one thread; steps of 1/60 s; rolling resistance %g (none in Chipmunk2D).\n\n",
                cpu, BENCH_SOLVER_BUILD, (double)rolling_resistance);
        if (ftz_on) {
            fprintf(md, "%s.\n\n", ftz);
        }
        fprintf(md, "| scene | engine | bodies | median ms/step | p95 ms/step | mean ms/step | all asleep at | check | "
                    "mean / ricochet's |\n|---|---|---:|---:|---:|---:|---:|---|---:|\n");
    }
    int failures = 0;
    for (int s = 0; s < SCENE_COUNT; ++s) {
        if (!listed(scenes, SCENES[s].name)) {
            continue;
        }
        double ricochet_ms = 0.0;
        for (int k = 0; k < engine_count; ++k) {
            if (!listed(engines, keys[k])) {
                continue;
            }
            scene_result r = run_scene(all[k], &SCENES[s], quick, rolling_resistance);
            if (all[k] == all[0] && strcmp(keys[0], "ricochet") == 0) {
                ricochet_ms = r.mean_ms;
                failures += !r.ok;
            }
            char asleep[32], ratio[32];
            snprintf(asleep, sizeof asleep, r.asleep_at < 0.0 ? "never" : "%.2f s", r.asleep_at);
            snprintf(ratio, sizeof ratio, ricochet_ms > 0.0 ? "%.2fx" : "-", r.mean_ms / ricochet_ms);
            printf("  %-14s %-11s %6d bodies  median %8.3f ms  p95 %8.3f ms  mean %8.3f ms  asleep %-8s  %-34s %s\n",
                   SCENES[s].name, all[k]->name, r.bodies, r.median_ms, r.p95_ms, r.mean_ms, asleep, r.check, ratio);
            fflush(stdout);
            if (md != NULL) {
                fprintf(md, "| %s | %s | %d | %.3f | %.3f | %.3f | %s | %s | %s |\n", SCENES[s].name, all[k]->name,
                        r.bodies, r.median_ms, r.p95_ms, r.mean_ms, asleep, r.check, ratio);
            }
        }
    }
    if (md != NULL) {
        fclose(md);
    }
    if (failures > 0) {
        fprintf(stderr, "bench_solver: ricochet failed %d scene check(s)\n", failures);
        return 1;
    }
    return 0;
}
