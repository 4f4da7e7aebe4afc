/* bench/main.c: bench_run, the driver of ricochet's comparison benchmark.
 *
 *   bench_run [--quick] [--scenes a,b] [--engines a,b] [--out DIR] [--command TEXT]
 *             [--hash-dim X] [--hash-count-mul N] [--no-cp-optimize] [--dump N] [--pin CPU]
 *
 * Every (engine, scene) case runs in a process of its own: the driver forks and execs itself
 * with --child, waits with wait4 and takes that process's peak RSS (ru_maxrss) from the
 * rusage. A fresh exec means a case's RSS owes nothing to the driver or to earlier cases. The
 * child builds the scene from the shared generator (untimed), warms up, then times the rays
 * (in batches, clock_gettime(CLOCK_MONOTONIC) around each batch of engine calls) or each
 * step, and writes its numbers and per-ray answers (bullet scenes: the bullets' positions after
 * the first and the last step) to DIR/bench-cases/. The driver then compares the answers,
 * prints the table and writes DIR/bench_results.md. A bullet scene's bullets are drawn once by
 * the driver (the draw needs the exact inside test, which holds every shape) and handed to the
 * cases in DIR/bench-cases/SCENE.bullets, so no case's peak RSS holds the inside index.
 *
 * Everything is single-threaded. */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_C_COMPILER
#define BENCH_C_COMPILER "unknown C compiler"
#endif
#ifndef BENCH_CXX_COMPILER
#define BENCH_CXX_COMPILER ""
#endif
#ifndef BENCH_BUILD_TYPE
#define BENCH_BUILD_TYPE "unknown"
#endif
#ifndef BENCH_C_FLAGS
#define BENCH_C_FLAGS ""
#endif
#ifndef BENCH_CXX_FLAGS
#define BENCH_CXX_FLAGS ""
#endif
#ifdef BENCH_GIT_HEADER
#include "bench_git.h" /* BENCH_GIT, written at build time (git_stamp.cmake) */
#endif
#ifndef BENCH_GIT
#define BENCH_GIT "unknown"
#endif
#ifndef BENCH_PEER_LIBS
#define BENCH_PEER_LIBS ""
#endif

#define CHUNK 65536
#define TOLERANCE 1e-4
#define MAX_ENGINES 8
#define MAX_RUNS 16

/* ---- engines --------------------------------------------------------------------------------- */

static const bench_runner *const all_runners[] = {
#ifdef BENCH_HAVE_RICOCHET
    &bench_runner_ricochet,
    &bench_runner_ricochet_solid,
#endif
#ifdef BENCH_HAVE_BOX2D3
    &bench_runner_box2d3,
#endif
#ifdef BENCH_HAVE_BOX2D
    &bench_runner_box2d,
#endif
#ifdef BENCH_HAVE_CHIPMUNK
    &bench_runner_chipmunk_bbtree,
    &bench_runner_chipmunk_hash,
#endif
    NULL,
};
/* The pseudo-engine "baseline": the process, the scene stream and the buffers, no engine. */
#define BASELINE "baseline"

static const bench_runner *find_runner(const char *name) {
    for (int i = 0; all_runners[i]; ++i) {
        if (strcmp(all_runners[i]->name, name) == 0) {
            return all_runners[i];
        }
    }
    return NULL;
}

/* ---- small helpers --------------------------------------------------------------------------- */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of this thread: compared with the wall time, it shows whether a run was
 * descheduled (a busy machine); the reported times are the wall times. */
static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench_run: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

static void path_join(char *out, size_t size, const char *dir, const char *scene, const char *engine, const char *ext) {
    int n = snprintf(out, size, "%s/bench-cases/%s.%s.%s", dir, scene, engine, ext);
    if (n < 0 || (size_t)n >= size) {
        die("path too long under %s", dir);
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bool list_has(const char *list, const char *name) {
    if (!list) {
        return true;
    }
    size_t len = strlen(name);
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0) {
            return true;
        }
        if (!end) {
            break;
        }
        p = end + 1;
    }
    return false;
}

/* ---- options --------------------------------------------------------------------------------- */

typedef struct options {
    bench_config cfg;
    const char *scenes;  /* comma list or NULL = all */
    const char *engines; /* comma list or NULL = all */
    const char *out;
    const char *command;
    int dump;
    int pin;    /* -1: no pinning */
    int repeat; /* runs of each case; the best is reported */
    /* child mode */
    const char *child_engine;
    const char *child_scene;
} options;

static void usage(FILE *f) {
    fprintf(f, "usage: bench_run [options]\n"
               "  --quick              10x fewer rays and steps (the default is the full spec)\n"
               "  --scenes a,b         only these scenes (rays-10k, rays-100k, moving-10k, moving-50k, "
               "bullets-10k, rays-transformed)\n"
               "  --engines a,b        only these engines (ricochet, ricochet-solid, box2d3, box2d, "
               "chipmunk-bbtree, chipmunk-hash)\n"
               "  --out DIR            where bench-cases/ and bench_results.md go (default .)\n"
               "  --command TEXT       the command line to print as how this was run\n"
               "  --hash-dim X         Chipmunk spatial hash cell size (default 7 = mean shape diameter)\n"
               "  --hash-count-mul N   Chipmunk spatial hash cells = N x shapes (default 10)\n"
               "  --no-cp-optimize     do not cpBBTreeOptimize Chipmunk's static tree\n"
               "  --dump N             disagreeing rays (bullets) to print per engine pair (default 5)\n"
               "  --repeat N           run every case N times (default 3, 1 with --quick); the best run is "
               "reported\n"
               "  --pin CPU            pin every case to this CPU\n");
}

static options parse_options(int argc, char **argv) {
    options o;
    memset(&o, 0, sizeof o);
    o.out = ".";
    o.dump = 5;
    o.pin = -1;
    o.cfg.cp_optimize = true;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
#define NEXT() (i + 1 < argc ? argv[++i] : (die("%s needs a value", a), ""))
        if (strcmp(a, "--quick") == 0) {
            o.cfg.quick = true;
        } else if (strcmp(a, "--scenes") == 0) {
            o.scenes = NEXT();
        } else if (strcmp(a, "--engines") == 0) {
            o.engines = NEXT();
        } else if (strcmp(a, "--out") == 0) {
            o.out = NEXT();
        } else if (strcmp(a, "--command") == 0) {
            o.command = NEXT();
        } else if (strcmp(a, "--hash-dim") == 0) {
            o.cfg.hash_dim = atof(NEXT());
        } else if (strcmp(a, "--hash-count-mul") == 0) {
            o.cfg.hash_count_mul = atoi(NEXT());
        } else if (strcmp(a, "--no-cp-optimize") == 0) {
            o.cfg.cp_optimize = false;
        } else if (strcmp(a, "--dump") == 0) {
            o.dump = atoi(NEXT());
        } else if (strcmp(a, "--repeat") == 0) {
            o.repeat = atoi(NEXT());
            if (o.repeat < 1 || o.repeat > MAX_RUNS) {
                die("--repeat takes 1..%d", MAX_RUNS);
            }
        } else if (strcmp(a, "--pin") == 0) {
            o.pin = atoi(NEXT());
        } else if (strcmp(a, "--child") == 0) {
            o.child_engine = NEXT();
            o.child_scene = NEXT();
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            usage(stderr);
            die("unknown option %s", a);
        }
#undef NEXT
    }
    if (o.repeat == 0) {
        o.repeat = o.cfg.quick ? 1 : 3;
    }
    return o;
}

/* ---- the child: one case --------------------------------------------------------------------- */

typedef struct answers_header {
    char magic[8];
    int64_t count;
} answers_header;

static FILE *open_or_die(const char *path, const char *mode) {
    FILE *f = fopen(path, mode);
    if (!f) {
        die("cannot open %s: %s", path, strerror(errno));
    }
    return f;
}

/* ---- bullet files ----------------------------------------------------------------------------- */

/* DIR/bench-cases/SCENE.bullets: the bullets the driver drew, read by every case. */
static void bullets_path(char *out, size_t size, const char *dir, const char *scene) {
    int n = snprintf(out, size, "%s/bench-cases/%s.bullets", dir, scene);
    if (n < 0 || (size_t)n >= size) {
        die("path too long under %s", dir);
    }
}

static const char bullets_magic[8] = {'R', 'C', 'B', 'B', 'U', 'L', '1', 0};
static const char positions_magic[8] = {'R', 'C', 'B', 'P', 'O', 'S', '1', 0};

/* NULL when the file is missing or not the scene's. */
static bench_bullet *read_bullets(const char *dir, const bench_scene *scene) {
    char path[4096];
    bullets_path(path, sizeof path, dir, scene->name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    answers_header h;
    bench_bullet *b = NULL;
    if (fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, bullets_magic, 8) == 0 && h.count == scene->bullets) {
        b = malloc(sizeof(bench_bullet) * (size_t)h.count);
        if (b && fread(b, sizeof(bench_bullet), (size_t)h.count, f) != (size_t)h.count) {
            free(b);
            b = NULL;
        }
    }
    fclose(f);
    return b;
}

/* Positions (x, y) of every bullet, appended to the case's positions file. */
static void write_positions(FILE *f, const bench_runner *r, void *ctx, int32_t count, bool velocities) {
    for (int32_t i = 0; i < count; ++i) {
        double xy[2] = {NAN, NAN};
        bool ok = velocities ? r->bullet_velocity(ctx, i, &xy[0], &xy[1]) : r->position(ctx, i, &xy[0], &xy[1]);
        if (!ok) {
            xy[0] = xy[1] = NAN;
        }
        if (fwrite(xy, sizeof xy, 1, f) != 1) {
            die("cannot write bullet positions");
        }
    }
}

/* Mean, median, min and max of the step times (sorts them). */
static void write_step_times(FILE *res, double *times, int steps) {
    double sum = 0.0;
    for (int s = 0; s < steps; ++s) {
        sum += times[s];
    }
    qsort(times, (size_t)steps, sizeof(double), cmp_double);
    double median = steps % 2 ? times[steps / 2] : 0.5 * (times[steps / 2 - 1] + times[steps / 2]);
    fprintf(res, "steps %d\n", steps);
    fprintf(res, "step_mean_ms %.6f\n", sum / steps * 1e-6);
    fprintf(res, "step_median_ms %.6f\n", median * 1e-6);
    fprintf(res, "step_min_ms %.6f\n", times[0] * 1e-6);
    fprintf(res, "step_max_ms %.6f\n", times[steps - 1] * 1e-6);
}

/* A bullet scene: every step timed around the engine's step alone; after each step, untimed, the
 * engine's bounce count; the positions after the first and the last step and the velocities
 * after the last go to SCENE.ENGINE.positions. */
static void run_bullets(const options *o, const bench_scene *scene, const bench_runner *r, void *ctx, FILE *res) {
    double *times = calloc((size_t)scene->steps + 1, sizeof(double));
    if (!times) {
        die("out of memory");
    }
    float dt = (float)scene->dt;
    bool ok = true;
    int64_t bounces = 0, bounces_first = -1;
    bool counted = true;
    FILE *pf = NULL;
    char path[4096];
    if (r) {
        path_join(path, sizeof path, o->out, scene->name, r->name, "positions");
        pf = open_or_die(path, "wb");
        answers_header h;
        memcpy(h.magic, positions_magic, 8);
        h.count = scene->bullets;
        fwrite(&h, sizeof h, 1, pf);
        double wall = 0.0, cpu = 0.0;
        for (int s = 0; s < scene->steps && ok; ++s) {
            double c0 = cpu_ns();
            double a = now_ns();
            ok = r->step(ctx, dt);
            times[s] = now_ns() - a;
            cpu += cpu_ns() - c0;
            wall += times[s];
            int64_t b = r->bullet_bounces(ctx);
            if (b < 0) {
                counted = false;
            } else {
                bounces += b;
            }
            if (s == 0) {
                bounces_first = b;
                write_positions(pf, r, ctx, scene->bullets, false);
            }
        }
        fprintf(res, "cpu_share %.4f\n", wall > 0.0 ? cpu / wall : 0.0);
        if (ok) {
            write_positions(pf, r, ctx, scene->bullets, false);
            write_positions(pf, r, ctx, scene->bullets, true);
        }
        if (fclose(pf) != 0) {
            die("cannot write %s", path);
        }
    }
    if (!ok) {
        fprintf(res, "error a step failed\n");
    }
    write_step_times(res, times, scene->steps);
    fprintf(res, "warmup_steps %d\n", scene->warmup_steps);
    if (r && ok) {
        fprintf(res, "bounces %lld\n", counted ? (long long)bounces : -1LL);
        fprintf(res, "bounces_first %lld\n", (long long)bounces_first);
        char note[1024] = "";
        r->bullet_note(ctx, note, sizeof note);
        fprintf(res, "bullet_note %s\n", note);
    }
    free(times);
}

static int run_child(const options *o) {
    int si = bench_scene_find(o->child_scene);
    if (si < 0) {
        die("unknown scene %s", o->child_scene);
    }
    bench_scene scene = bench_scene_get(si, o->cfg.quick);
    bool baseline = strcmp(o->child_engine, BASELINE) == 0;
    const bench_runner *r = baseline ? NULL : find_runner(o->child_engine);
    if (!baseline && !r) {
        die("engine %s is not built in", o->child_engine);
    }
    if (o->pin >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((size_t)o->pin, &set); /* o->pin >= 0 here */
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            fprintf(stderr, "bench_run: cannot pin to CPU %d: %s\n", o->pin, strerror(errno));
        }
    }
    char path[4096];
    path_join(path, sizeof path, o->out, scene.name, o->child_engine, "txt");
    FILE *res = open_or_die(path, "w");
    char desc[1024] = "";
    fprintf(res, "engine %s\n", o->child_engine);
    fprintf(res, "version %s\n", r ? r->version() : "-");

    bench_bullet *bullets = NULL;
    if (scene.kind == BENCH_BULLETS) {
        bullets = read_bullets(o->out, &scene);
        if (!bullets) {
            bullets_path(path, sizeof path, o->out, scene.name);
            fprintf(res, "error no bullets in %s (the driver writes them)\n", path);
            fclose(res);
            fprintf(stderr, "bench_run: %s: no bullets in %s\n", o->child_engine, path);
            return 1;
        }
    }

    double t0 = now_ns();
    void *ctx = NULL;
    if (r) {
        ctx = scene.kind == BENCH_RAYS     ? r->build_static(&scene, &o->cfg, desc, sizeof desc)
              : scene.kind == BENCH_MOVING ? r->build_moving(&scene, &o->cfg, desc, sizeof desc)
                                           : r->build_bullets(&scene, &o->cfg, bullets, desc, sizeof desc);
        if (!ctx) {
            fprintf(res, "error %s\n", desc);
            fclose(res);
            fprintf(stderr, "bench_run: %s on %s: %s\n", o->child_engine, scene.name, desc);
            return 1;
        }
    } else {
        /* Walk the shape stream as every engine does, for a like-for-like baseline. */
        bench_shape_gen gen;
        bench_shape s;
        volatile float sink = 0.0f;
        bench_shapes_begin(&gen, &scene);
        while (bench_shapes_next(&gen, &s)) {
            sink += s.x;
        }
        (void)sink;
        snprintf(desc, sizeof desc, "the process, the scene stream and the %s, no engine",
                 scene.kind == BENCH_BULLETS ? "bullets read from the driver's file" : "ray/answer buffers");
    }
    /* Static scenes: one untimed step of every engine after loading, as a game steps its world
     * before the first frame's queries (an engine may tidy its index there). */
    if (r && scene.kind == BENCH_RAYS && !r->step(ctx, 1.0f / 60.0f)) {
        fprintf(res, "error the settling step failed\n");
    }
    fprintf(res, "setup_ms %.3f\n", (now_ns() - t0) * 1e-6);
    fprintf(res, "desc %s\n", desc);

    if (scene.kind == BENCH_BULLETS) {
        run_bullets(o, &scene, r, ctx, res);
    } else if (scene.kind == BENCH_RAYS) {
        bench_ray *rays = malloc(sizeof(bench_ray) * CHUNK);
        bench_answer *ans = calloc(CHUNK, sizeof(bench_answer));
        uint64_t *handles = calloc(CHUNK, sizeof(uint64_t));
        if (!rays || !ans || !handles) {
            die("out of memory");
        }
        bench_ray_gen gen;
        /* Warm-up: untimed rays of their own stream. */
        bench_rays_begin(&gen, &scene, true);
        for (int64_t left = scene.warmup_rays; left > 0;) {
            int32_t n = (int32_t)(left < CHUNK ? left : CHUNK);
            bench_rays_next(&gen, rays, n);
            if (r) {
                r->cast(ctx, rays, n, ans, handles);
            }
            left -= n;
        }
        path_join(path, sizeof path, o->out, scene.name, o->child_engine, "answers");
        FILE *af = open_or_die(path, "wb");
        answers_header h = {{'R', 'C', 'B', 'A', 'N', 'S', '1', 0}, scene.rays};
        fwrite(&h, sizeof h, 1, af);
        double total = 0.0, cpu_total = 0.0;
        bench_rays_begin(&gen, &scene, false);
        for (int64_t left = scene.rays; left > 0;) {
            int32_t n = (int32_t)(left < CHUNK ? left : CHUNK);
            bench_rays_next(&gen, rays, n);
            if (r) {
                double c0 = cpu_ns();
                double a = now_ns();
                r->cast(ctx, rays, n, ans, handles);
                total += now_ns() - a;
                cpu_total += cpu_ns() - c0;
                r->resolve(ctx, ans, handles, n);
            }
            if (fwrite(ans, sizeof(bench_answer), (size_t)n, af) != (size_t)n) {
                die("cannot write %s", path);
            }
            left -= n;
        }
        if (fclose(af) != 0) {
            die("cannot write %s", path);
        }
        fprintf(res, "rays %lld\n", (long long)scene.rays);
        fprintf(res, "warmup_rays %lld\n", (long long)scene.warmup_rays);
        fprintf(res, "total_ns %.0f\n", total);
        fprintf(res, "cpu_share %.4f\n", total > 0.0 ? cpu_total / total : 0.0);
        free(rays);
        free(ans);
        free(handles);
    } else {
        double *times = calloc((size_t)scene.steps + 1, sizeof(double));
        if (!times) {
            die("out of memory");
        }
        float dt = (float)scene.dt;
        int taken = 0;
        bool ok = true;
        if (r) {
            for (int s = 0; s < scene.warmup_steps && ok; ++s) {
                ok = r->step(ctx, dt);
                taken += ok;
            }
            double c0 = cpu_ns(), w0 = now_ns();
            for (int s = 0; s < scene.steps && ok; ++s) {
                double a = now_ns();
                ok = r->step(ctx, dt);
                times[s] = now_ns() - a;
                taken += ok;
            }
            double wall = now_ns() - w0;
            fprintf(res, "cpu_share %.4f\n", wall > 0.0 ? (cpu_ns() - c0) / wall : 0.0);
        }
        if (!ok) {
            fprintf(res, "error a step failed\n");
        }
        double sum = 0.0;
        for (int s = 0; s < scene.steps; ++s) {
            sum += times[s];
        }
        qsort(times, (size_t)scene.steps, sizeof(double), cmp_double);
        double median =
            scene.steps % 2 ? times[scene.steps / 2] : 0.5 * (times[scene.steps / 2 - 1] + times[scene.steps / 2]);
        fprintf(res, "steps %d\n", scene.steps);
        fprintf(res, "warmup_steps %d\n", scene.warmup_steps);
        fprintf(res, "step_mean_ms %.6f\n", sum / scene.steps * 1e-6);
        fprintf(res, "step_median_ms %.6f\n", median * 1e-6);
        fprintf(res, "step_min_ms %.6f\n", times[0] * 1e-6);
        fprintf(res, "step_max_ms %.6f\n", times[scene.steps - 1] * 1e-6);
        if (r && ok) {
            char note[512] = "";
            int64_t pairs = r->count_step(ctx, dt, note, sizeof note);
            taken += 1;
            fprintf(res, "pairs %lld\n", (long long)pairs);
            fprintf(res, "pairs_note %s\n", note);
            /* Drift check: every body should be at p0 + v * t (bodies slower than 0.1 unit/s
             * are left out: engines may put them to sleep). */
            double elapsed = (double)taken * (double)dt;
            bench_shape_gen gen;
            bench_shape s;
            double worst = 0.0;
            int64_t checked = 0, skipped = 0;
            bench_shapes_begin(&gen, &scene);
            while (bench_shapes_next(&gen, &s)) {
                if ((double)s.vx * s.vx + (double)s.vy * s.vy < 0.01) {
                    ++skipped;
                    continue;
                }
                double x, y;
                if (!r->position(ctx, s.index, &x, &y)) {
                    continue;
                }
                double ex = (double)s.x + (double)s.vx * elapsed, ey = (double)s.y + (double)s.vy * elapsed;
                double e = hypot(x - ex, y - ey);
                if (!(e <= worst)) {
                    worst = e;
                }
                ++checked;
            }
            fprintf(res, "drift_max %.6g\n", worst);
            fprintf(res, "drift_checked %lld\n", (long long)checked);
            fprintf(res, "drift_skipped %lld\n", (long long)skipped);
        }
        free(times);
    }
    if (r) {
        r->destroy(ctx);
    }
    free(bullets);
    fprintf(res, "done 1\n");
    if (fclose(res) != 0) {
        die("cannot write results");
    }
    return 0;
}

/* ---- the driver ------------------------------------------------------------------------------ */

typedef struct case_result {
    bool ran, ok;
    char engine[32];
    char version[64];
    char desc[1024];
    char error[512];
    char pairs_note[512];
    double setup_ms;
    int64_t rays, warmup_rays;
    double total_ns;
    double cpu_share; /* thread CPU time / wall time of the timed part */
    int steps, warmup_steps;
    double step_mean_ms, step_median_ms, step_min_ms, step_max_ms;
    int64_t pairs;
    bool have_pairs;
    double drift_max;
    int64_t drift_checked;
    long maxrss_kb;
    double wall_s;
    int exit_status;
    /* every run's time (ns/ray or ms/step; -1 for a failed run); the fields above are the best run's */
    double run_times[MAX_RUNS];
    int nruns;
    /* agreement with the reference engine (ray scenes; bullet scenes: after the first step) */
    bool have_agree;
    int64_t compared, agreed;
    /* bullet scenes */
    char bullet_note[1024];
    int64_t bounces, bounces_first; /* -1: not counted */
    bool have_bounces;
    int64_t agreed_last; /* bullets agreeing with the reference after the last step */
} case_result;

typedef struct scene_report {
    bench_scene scene;
    case_result cases[MAX_ENGINES + 1]; /* [0] is the baseline */
    int count;
    int reference; /* index into cases of the reference engine, -1 if none */
    char notes[16384];
    size_t notes_len;
    /* inside-origin rays */
    int64_t inside_rays;
    /* bullet scenes: draws redrawn because they fell inside a shape */
    int64_t bullets_redrawn;
} scene_report;

static void note(scene_report *sr, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof sr->notes - sr->notes_len;
    int n = vsnprintf(sr->notes + sr->notes_len, room, fmt, ap);
    va_end(ap);
    if (n > 0) {
        sr->notes_len += (size_t)n < room ? (size_t)n : room - 1;
    }
}

static void copy_field(char *dst, size_t size, const char *src) {
    size_t n = strlen(src);
    while (n > 0 && (src[n - 1] == '\n' || src[n - 1] == '\r')) {
        --n;
    }
    if (n >= size) {
        n = size - 1;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void read_result(const char *path, case_result *c) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(c->error, sizeof c->error, "no result file");
        return;
    }
    char line[2048];
    bool done = false;
    while (fgets(line, sizeof line, f)) {
        char *sp = strchr(line, ' ');
        if (!sp) {
            continue;
        }
        *sp = '\0';
        const char *k = line, *v = sp + 1;
        if (strcmp(k, "version") == 0) {
            copy_field(c->version, sizeof c->version, v);
        } else if (strcmp(k, "desc") == 0) {
            copy_field(c->desc, sizeof c->desc, v);
        } else if (strcmp(k, "error") == 0) {
            copy_field(c->error, sizeof c->error, v);
        } else if (strcmp(k, "pairs_note") == 0) {
            copy_field(c->pairs_note, sizeof c->pairs_note, v);
        } else if (strcmp(k, "setup_ms") == 0) {
            c->setup_ms = atof(v);
        } else if (strcmp(k, "rays") == 0) {
            c->rays = atoll(v);
        } else if (strcmp(k, "warmup_rays") == 0) {
            c->warmup_rays = atoll(v);
        } else if (strcmp(k, "cpu_share") == 0) {
            c->cpu_share = atof(v);
        } else if (strcmp(k, "total_ns") == 0) {
            c->total_ns = atof(v);
        } else if (strcmp(k, "steps") == 0) {
            c->steps = atoi(v);
        } else if (strcmp(k, "warmup_steps") == 0) {
            c->warmup_steps = atoi(v);
        } else if (strcmp(k, "step_mean_ms") == 0) {
            c->step_mean_ms = atof(v);
        } else if (strcmp(k, "step_median_ms") == 0) {
            c->step_median_ms = atof(v);
        } else if (strcmp(k, "step_min_ms") == 0) {
            c->step_min_ms = atof(v);
        } else if (strcmp(k, "step_max_ms") == 0) {
            c->step_max_ms = atof(v);
        } else if (strcmp(k, "pairs") == 0) {
            c->pairs = atoll(v);
            c->have_pairs = true;
        } else if (strcmp(k, "drift_max") == 0) {
            c->drift_max = atof(v);
        } else if (strcmp(k, "drift_checked") == 0) {
            c->drift_checked = atoll(v);
        } else if (strcmp(k, "bullet_note") == 0) {
            copy_field(c->bullet_note, sizeof c->bullet_note, v);
        } else if (strcmp(k, "bounces") == 0) {
            c->bounces = atoll(v);
            c->have_bounces = true;
        } else if (strcmp(k, "bounces_first") == 0) {
            c->bounces_first = atoll(v);
        } else if (strcmp(k, "done") == 0) {
            done = true;
        }
    }
    fclose(f);
    c->ok = done && c->error[0] == '\0';
}

static void run_case(const options *o, char **argv0, const bench_scene *scene, const char *engine, case_result *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->engine, sizeof c->engine, "%s", engine);
    char path[4096];
    path_join(path, sizeof path, o->out, scene->name, engine, "txt");
    unlink(path);
    char *args[32];
    int n = 0;
    char pin[16], dim[32], mul[16], dump[16];
    args[n++] = argv0[0];
    args[n++] = "--child";
    args[n++] = (char *)engine;
    args[n++] = (char *)scene->name;
    args[n++] = "--out";
    args[n++] = (char *)o->out;
    if (o->cfg.quick) {
        args[n++] = "--quick";
    }
    if (!o->cfg.cp_optimize) {
        args[n++] = "--no-cp-optimize";
    }
    if (o->cfg.hash_dim > 0.0) {
        snprintf(dim, sizeof dim, "%.17g", o->cfg.hash_dim);
        args[n++] = "--hash-dim";
        args[n++] = dim;
    }
    if (o->cfg.hash_count_mul > 0) {
        snprintf(mul, sizeof mul, "%d", o->cfg.hash_count_mul);
        args[n++] = "--hash-count-mul";
        args[n++] = mul;
    }
    if (o->pin >= 0) {
        snprintf(pin, sizeof pin, "%d", o->pin);
        args[n++] = "--pin";
        args[n++] = pin;
    }
    snprintf(dump, sizeof dump, "%d", o->dump);
    args[n++] = "--dump";
    args[n++] = dump;
    args[n] = NULL;

    fprintf(stderr, "  %-11s %-16s ...", scene->name, engine);
    fflush(stderr);
    fflush(stdout);
    double t0 = now_ns();
    pid_t pid = fork();
    if (pid < 0) {
        die("fork: %s", strerror(errno));
    }
    if (pid == 0) {
        execv("/proc/self/exe", args);
        fprintf(stderr, "bench_run: exec /proc/self/exe: %s\n", strerror(errno));
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            die("wait4: %s", strerror(errno));
        }
    }
    c->wall_s = (now_ns() - t0) * 1e-9;
    c->ran = true;
    c->maxrss_kb = ru.ru_maxrss; /* kilobytes on Linux */
    c->exit_status = status;
    read_result(path, c);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        c->ok = false;
        if (!c->error[0]) {
            if (WIFSIGNALED(status)) {
                snprintf(c->error, sizeof c->error, "killed by signal %d", WTERMSIG(status));
            } else {
                snprintf(c->error, sizeof c->error, "exit status %d", WEXITSTATUS(status));
            }
        }
    }
    fprintf(stderr, " %s (%.1f s, peak RSS %.1f MB)\n", c->ok ? "done" : c->error, c->wall_s, (double)c->maxrss_kb / 1024.0);
}

static bench_answer *load_answers(const options *o, const bench_scene *scene, const char *engine) {
    char path[4096];
    path_join(path, sizeof path, o->out, scene->name, engine, "answers");
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    answers_header h;
    bench_answer *a = NULL;
    if (fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, "RCBANS1", 8) == 0 && h.count == scene->rays) {
        a = malloc(sizeof(bench_answer) * (size_t)h.count);
        if (a && fread(a, sizeof(bench_answer), (size_t)h.count, f) != (size_t)h.count) {
            free(a);
            a = NULL;
        }
    }
    fclose(f);
    return a;
}

static bool answers_agree(const bench_answer *a, const bench_answer *b) {
    if (a->hit != b->hit) {
        return false;
    }
    return !a->hit || fabs((double)a->t - (double)b->t) <= TOLERANCE;
}

/* An engine's answer, and what the exact test says of the shape it names. */
static void describe_answer(char *out, size_t size, const bench_answer *a, const bench_inside_index *ix,
                            const bench_ray *ray) {
    if (!a->hit) {
        snprintf(out, size, "miss");
        return;
    }
    double t, chord, gap;
    char exact[96];
    if (bench_exact_shape(ix, ray, a->shape, &t, &chord, &gap)) {
        snprintf(exact, sizeof exact, "exactly: t=%.7f, chord %.3g", t, chord);
    } else {
        snprintf(exact, sizeof exact, "exactly: missed by %.3g", gap);
    }
    snprintf(out, size, "hit t=%.7f shape %d%s (%s)", (double)a->t, (int)a->shape, a->inside ? " started inside" : "",
             exact);
}

/* Compare every engine of a ray scene with the reference, count rays starting inside. */
static void compare_rays(const options *o, scene_report *sr) {
    const bench_scene *scene = &sr->scene;
    bench_answer *answers[MAX_ENGINES + 1] = {0};
    for (int e = 1; e < sr->count; ++e) {
        if (sr->cases[e].ok) {
            answers[e] = load_answers(o, scene, sr->cases[e].engine);
        }
    }
    int ref = sr->reference;
    if (ref < 0 || !answers[ref]) {
        note(sr, "- no reference answers: agreement not computed\n");
        for (int e = 1; e < sr->count; ++e) {
            free(answers[e]);
        }
        return;
    }
    bench_inside_index *ix = bench_inside_build(scene);
    if (!ix) {
        die("out of memory building the inside index");
    }
    uint8_t *inside = malloc((size_t)scene->rays);
    bench_ray *rays = malloc(sizeof(bench_ray) * (size_t)scene->rays);
    if (!inside || !rays) {
        die("out of memory");
    }
    bench_ray_gen gen;
    bench_rays_begin(&gen, scene, false);
    bench_rays_next(&gen, rays, scene->rays);
    int64_t n_inside = 0;
    for (int64_t i = 0; i < scene->rays; ++i) {
        inside[i] = bench_inside_find(ix, rays[i].ox, rays[i].oy) >= 0;
        n_inside += inside[i];
    }
    sr->inside_rays = n_inside;
    const char *ref_name = sr->cases[ref].engine;
    note(sr,
         "- %lld of %lld rays (%.3f%%) start strictly inside a shape (exact test in double precision by the "
         "generator); they are left out of the agreement figures.\n",
         (long long)n_inside, (long long)scene->rays, 100.0 * (double)n_inside / (double)scene->rays);

    /* What each engine answers for the inside rays. */
    for (int e = 1; e < sr->count; ++e) {
        if (!answers[e]) {
            continue;
        }
        int64_t at_zero = 0, flagged = 0, later = 0, miss = 0, flagged_outside = 0;
        for (int64_t i = 0; i < scene->rays; ++i) {
            const bench_answer *a = &answers[e][i];
            if (!inside[i]) {
                flagged_outside += a->hit && a->inside;
                continue;
            }
            if (!a->hit) {
                ++miss;
            } else if (a->t == 0.0f) {
                ++at_zero;
                flagged += a->inside;
            } else {
                ++later;
            }
        }
        note(sr,
             "  - %s on those rays: %lld hit at t = 0 (%lld flagged started_inside), %lld hit a shape further on, "
             "%lld miss; %lld rays flagged started_inside whose origin the generator finds outside every shape\n",
             sr->cases[e].engine, (long long)at_zero, (long long)flagged, (long long)later, (long long)miss,
             (long long)flagged_outside);
    }

    /* Agreement with the reference, and peer-with-peer as a check of the runners. */
    for (int e = 1; e < sr->count; ++e) {
        if (!answers[e]) {
            continue;
        }
        for (int p = 1; p < sr->count; ++p) {
            bool with_ref = p == ref && e != ref;
            bool peer_pair = ref != e && ref != p && e < p;
            if (!answers[p] || (!with_ref && !peer_pair)) {
                continue;
            }
            int64_t compared = 0, agreed = 0, hitmiss = 0, tdiff = 0;
            int64_t ref_exact = 0, other_exact = 0, checked = 0;
            int shown = 0;
            char sa[256], sb[256];
            for (int64_t i = 0; i < scene->rays; ++i) {
                if (inside[i]) {
                    continue;
                }
                ++compared;
                const bench_answer *a = &answers[p][i], *b = &answers[e][i];
                if (answers_agree(a, b)) {
                    ++agreed;
                    continue;
                }
                if (a->hit != b->hit) {
                    ++hitmiss;
                } else {
                    ++tdiff;
                }
                /* Who is right? The exact answer by brute force in double precision. */
                int32_t xs = -1;
                double chord = 0.0;
                double xt = with_ref ? bench_exact_cast(ix, &rays[i], &xs, &chord) : -1.0;
                bench_answer exact = {xt < 0.0 ? 1.0f : (float)xt, (uint8_t)(xt >= 0.0), 0, {0, 0}, xs};
                if (with_ref) {
                    ++checked;
                    ref_exact += answers_agree(a, &exact);
                    other_exact += answers_agree(b, &exact);
                }
                if (with_ref && shown < o->dump) {
                    if (shown == 0) {
                        note(sr,
                             "  - first disagreements, %s vs %s (exact: brute force over all shapes in double "
                             "precision from the same float inputs; chord: length of the ray inside the shape; "
                             "missed by: distance from the ray to the shape):\n",
                             sr->cases[p].engine, sr->cases[e].engine);
                    }
                    describe_answer(sa, sizeof sa, a, ix, &rays[i]);
                    describe_answer(sb, sizeof sb, b, ix, &rays[i]);
                    note(sr,
                         "    - ray %lld: origin (%.9g, %.9g) translation (%.9g, %.9g): %s: %s | %s: %s | closest "
                         "exact hit: %s t=%.7f shape %d, chord %.3g\n",
                         (long long)i, (double)rays[i].ox, (double)rays[i].oy, (double)rays[i].dx, (double)rays[i].dy,
                         sr->cases[p].engine, sa, sr->cases[e].engine, sb, xt >= 0.0 ? "hit" : "miss",
                         xt >= 0.0 ? xt : 1.0, (int)xs, chord);
                    ++shown;
                }
            }
            double pct = compared ? 100.0 * (double)agreed / (double)compared : 0.0;
            if (with_ref) {
                sr->cases[e].have_agree = true;
                sr->cases[e].compared = compared;
                sr->cases[e].agreed = agreed;
                note(sr,
                     "- %s vs %s: %.4f%% of %lld rays agree; %lld disagree (%lld hit/miss, %lld |dt| > 1e-4); of "
                     "these the exact answer agrees with %s on %lld and with %s on %lld\n",
                     sr->cases[e].engine, ref_name, pct, (long long)compared, (long long)(compared - agreed),
                     (long long)hitmiss, (long long)tdiff, ref_name, (long long)ref_exact, sr->cases[e].engine,
                     (long long)other_exact);
                (void)checked;
            } else {
                note(sr, "- runner cross-check, %s vs %s: %.4f%% agree (%lld hit/miss, %lld |dt| > 1e-4)\n",
                     sr->cases[e].engine, sr->cases[p].engine, pct, (long long)hitmiss, (long long)tdiff);
            }
        }
    }
    int64_t hits = 0;
    for (int64_t i = 0; i < scene->rays; ++i) {
        hits += !inside[i] && answers[ref][i].hit;
    }
    note(sr, "- %s hits something on %.2f%% of the other rays\n", ref_name,
         100.0 * (double)hits / (double)(scene->rays - n_inside > 0 ? scene->rays - n_inside : 1));
    free(inside);
    free(rays);
    bench_inside_destroy(ix);
    for (int e = 1; e < sr->count; ++e) {
        free(answers[e]);
    }
}

/* ---- bullet scenes: checks and agreement ------------------------------------------------------ */

#define BULLET_TOL_FIRST 1e-3 /* positions agree after the first step */
#define BULLET_TOL_LAST 1e-2  /* positions agree after the last step */

/* One case's positions file: x, y of every bullet after the first and the last step, and the
 * velocities after the last. */
typedef struct bullet_state {
    double *first, *last, *vel; /* 2 * count doubles each */
} bullet_state;

static bool load_bullet_state(const options *o, const bench_scene *scene, const char *engine, bullet_state *st) {
    memset(st, 0, sizeof *st);
    char path[4096];
    path_join(path, sizeof path, o->out, scene->name, engine, "positions");
    FILE *f = fopen(path, "rb");
    if (!f) {
        return false;
    }
    answers_header h;
    size_t n = 2 * (size_t)scene->bullets;
    bool ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, positions_magic, 8) == 0 && h.count == scene->bullets;
    if (ok) {
        st->first = malloc(sizeof(double) * n);
        st->last = malloc(sizeof(double) * n);
        st->vel = malloc(sizeof(double) * n);
        ok = st->first && st->last && st->vel && fread(st->first, sizeof(double), n, f) == n &&
             fread(st->last, sizeof(double), n, f) == n && fread(st->vel, sizeof(double), n, f) == n;
    }
    fclose(f);
    if (!ok) {
        free(st->first);
        free(st->last);
        free(st->vel);
        memset(st, 0, sizeof *st);
    }
    return ok;
}

static double bullet_distance(const double *a, const double *b, int32_t i) {
    double d = hypot(a[2 * i] - b[2 * i], a[2 * i + 1] - b[2 * i + 1]);
    return d == d ? d : INFINITY; /* NaN (a position not reported) never agrees */
}

/* Did the bullet go straight through the first step (no bounce) by these positions? */
static bool bullet_straight(const bench_bullet *b, const double *first, int32_t i, double dt) {
    double x = (double)b[i].x + (double)b[i].vx * dt, y = (double)b[i].y + (double)b[i].vy * dt;
    return hypot(first[2 * i] - x, first[2 * i + 1] - y) <= BULLET_TOL_FIRST;
}

static void compare_bullets(const options *o, scene_report *sr, const bench_bullet *bullets) {
    const bench_scene *scene = &sr->scene;
    const int32_t n = scene->bullets;
    const double dt = (double)(float)scene->dt, half = 0.5 * scene->side;
    bullet_state st[MAX_ENGINES + 1];
    memset(st, 0, sizeof st);
    bool have[MAX_ENGINES + 1] = {0};
    for (int e = 1; e < sr->count; ++e) {
        if (sr->cases[e].ok) {
            have[e] = load_bullet_state(o, scene, sr->cases[e].engine, &st[e]);
            if (!have[e]) {
                note(sr, "- %s: no positions file: left out of the checks\n", sr->cases[e].engine);
            }
        }
    }
    bench_inside_index *ix = bench_inside_build(scene);
    if (!ix) {
        die("out of memory building the inside index");
    }
    /* The exact reference: every bullet traced in double precision against the exact shapes. */
    double *ex_first = malloc(sizeof(double) * 2 * (size_t)n), *ex_last = malloc(sizeof(double) * 2 * (size_t)n);
    int32_t *ex_bounces_first = malloc(sizeof(int32_t) * (size_t)n);
    if (!ex_first || !ex_last || !ex_bounces_first) {
        die("out of memory");
    }
    int64_t ex_bounces = 0, ex_first_total = 0;
    for (int32_t i = 0; i < n; ++i) {
        double x = bullets[i].x, y = bullets[i].y, vx = bullets[i].vx, vy = bullets[i].vy;
        int32_t last = -1;
        for (int k = 0; k < scene->steps; ++k) {
            int32_t b = bench_exact_bullet_step(ix, &x, &y, &vx, &vy, dt, scene->max_bounces, &last);
            ex_bounces += b;
            if (k == 0) {
                ex_first[2 * i] = x;
                ex_first[2 * i + 1] = y;
                ex_bounces_first[i] = b;
                ex_first_total += b;
            }
        }
        ex_last[2 * i] = x;
        ex_last[2 * i + 1] = y;
    }
    note(sr,
         "- %d bullets at %.0f units/s; %lld draws were redrawn because their origin fell strictly inside a shape "
         "(the generator's exact test in double precision). Positions are compared after the first step (within "
         "%g) and after the last, step %d (within %g): bullets that bounce many times diverge chaotically (a "
         "difference in the last digits of one bounce grows at every later one), so the second share measures "
         "that divergence, not an error. The exact reference traces every bullet in double precision against "
         "the exact shapes (from the same float inputs), stopping exactly on each surface it hits and reflecting "
         "there: %lld bounces in all, %lld in the first step. At a hit ricochet stops a bullet a contact skin "
         "short of the surface along its path (world.h: contact_skin 1e-4, grown where float spacing at the "
         "body's coordinates is coarser, to about 1e-3 at 1000 units from the origin) and the Chipmunk loop "
         "backs off 1e-4 along the normal: each bounce shifts the rest of a bullet's path by about that gap over "
         "the cosine of the angle of incidence, which is of the order of the 1e-3 tolerance.\n",
         (int)n, scene->bullet_speed, (long long)sr->bullets_redrawn, BULLET_TOL_FIRST, scene->steps,
         BULLET_TOL_LAST, (long long)ex_bounces, (long long)ex_first_total);

    /* Checks of each engine alone. */
    for (int e = 1; e < sr->count; ++e) {
        if (!have[e]) {
            continue;
        }
        const bullet_state *b = &st[e];
        double sum = 0.0, lo = INFINITY, hi = 0.0;
        int64_t off_speed = 0, stopped = 0, inside_first = 0, inside_last = 0, outside = 0, straight = 0;
        int32_t first_inside = -1, first_off = -1;
        for (int32_t i = 0; i < n; ++i) {
            double v = hypot(b->vel[2 * i], b->vel[2 * i + 1]);
            v = v == v ? v : 0.0;
            sum += v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            if (fabs(v - scene->bullet_speed) > 1e-3 * scene->bullet_speed) {
                ++off_speed;
                first_off = first_off < 0 ? i : first_off;
            }
            stopped += v < 1e-6;
            if (bench_inside_find_d(ix, b->first[2 * i], b->first[2 * i + 1]) >= 0) {
                ++inside_first;
                first_inside = first_inside < 0 ? i : first_inside;
            }
            if (bench_inside_find_d(ix, b->last[2 * i], b->last[2 * i + 1]) >= 0) {
                ++inside_last;
                first_inside = first_inside < 0 ? i : first_inside;
            }
            outside += !(fabs(b->last[2 * i]) <= half && fabs(b->last[2 * i + 1]) <= half);
            straight += bullet_straight(bullets, b->first, i, dt);
        }
        const case_result *c = &sr->cases[e];
        char bounces[96] = "not counted";
        if (c->have_bounces && c->bounces >= 0) {
            snprintf(bounces, sizeof bounces, "%lld bounces (%lld in the first step)", (long long)c->bounces,
                     (long long)c->bounces_first);
        }
        note(sr,
             "- %s: %s; %s. First step: %lld bullets went straight (no bounce); %lld end it strictly inside a "
             "shape. After step %d: %lld strictly inside a shape, %lld outside the %.0f x %.0f square; speed mean "
             "%.1f, min %.1f, max %.1f; %lld bullets off %.0f by more than 0.1%%, %lld stopped\n",
             c->engine, bounces, c->bullet_note[0] ? c->bullet_note : "-", (long long)straight,
             (long long)inside_first, scene->steps, (long long)inside_last, (long long)outside, scene->side,
             scene->side, sum / (double)n, lo, hi, (long long)off_speed, scene->bullet_speed, (long long)stopped);
        {
            int64_t ok1 = 0, okN = 0, bounced = 0, bounced_ok = 0;
            double worst = 0.0;
            for (int32_t i = 0; i < n; ++i) {
                double d1 = bullet_distance(ex_first, b->first, i);
                ok1 += d1 <= BULLET_TOL_FIRST;
                okN += bullet_distance(ex_last, b->last, i) <= BULLET_TOL_LAST;
                worst = d1 > worst ? d1 : worst;
                if (ex_bounces_first[i] > 0) {
                    ++bounced;
                    bounced_ok += d1 <= BULLET_TOL_FIRST;
                }
            }
            note(sr,
                 "  - %s vs the exact reference: after the first step %.3f%% within %g (%.3f%% of the %lld bullets "
                 "that bounce in it; the farthest off %.3g), after step %d %.3f%% within %g\n",
                 c->engine, 100.0 * (double)ok1 / (double)n, BULLET_TOL_FIRST,
                 bounced ? 100.0 * (double)bounced_ok / (double)bounced : 100.0, (long long)bounced, worst,
                 scene->steps, 100.0 * (double)okN / (double)n, BULLET_TOL_LAST);
        }
        if (first_inside >= 0) {
            int32_t i = first_inside;
            note(sr,
                 "  - e.g. bullet %d: from (%.9g, %.9g) velocity (%.9g, %.9g): after the first step at (%.9g, "
                 "%.9g)%s, after the last at (%.9g, %.9g)%s\n",
                 (int)i, (double)bullets[i].x, (double)bullets[i].y, (double)bullets[i].vx, (double)bullets[i].vy,
                 b->first[2 * i], b->first[2 * i + 1],
                 bench_inside_find_d(ix, b->first[2 * i], b->first[2 * i + 1]) >= 0 ? " (inside)" : "",
                 b->last[2 * i], b->last[2 * i + 1],
                 bench_inside_find_d(ix, b->last[2 * i], b->last[2 * i + 1]) >= 0 ? " (inside)" : "");
        }
        if (first_off >= 0 && off_speed < n) {
            int32_t i = first_off;
            note(sr, "  - e.g. bullet %d: from (%.9g, %.9g) velocity (%.9g, %.9g): velocity (%.9g, %.9g) at the end\n",
                 (int)i, (double)bullets[i].x, (double)bullets[i].y, (double)bullets[i].vx, (double)bullets[i].vy,
                 b->vel[2 * i], b->vel[2 * i + 1]);
        }
    }

    /* Agreement with the reference, and peer with peer as a check of the runners. */
    int ref = sr->reference;
    for (int e = 1; e < sr->count && ref > 0 && have[ref]; ++e) {
        for (int p = 1; p < sr->count; ++p) {
            bool with_ref = p == ref && e != ref;
            bool peer_pair = ref != e && ref != p && e < p;
            if (!have[e] || !have[p] || (!with_ref && !peer_pair)) {
                continue;
            }
            const bullet_state *a = &st[p], *b = &st[e];
            int64_t agree1 = 0, agreeN = 0, bounced = 0, bounced_agree = 0;
            double worst1 = 0.0;
            int shown = 0;
            for (int32_t i = 0; i < n; ++i) {
                double d1 = bullet_distance(a->first, b->first, i);
                double dN = bullet_distance(a->last, b->last, i);
                bool ok1 = d1 <= BULLET_TOL_FIRST;
                agree1 += ok1;
                agreeN += dN <= BULLET_TOL_LAST;
                worst1 = d1 > worst1 ? d1 : worst1;
                if (!bullet_straight(bullets, a->first, i, dt)) {
                    ++bounced;
                    bounced_agree += ok1;
                }
                if (!ok1 && with_ref && shown < o->dump) {
                    if (shown == 0) {
                        note(sr, "  - first disagreements after the first step, %s vs %s:\n", sr->cases[p].engine,
                             sr->cases[e].engine);
                    }
                    note(sr,
                         "    - bullet %d: from (%.9g, %.9g) velocity (%.9g, %.9g): after the first step %s at "
                         "(%.9g, %.9g) | %s at (%.9g, %.9g); %.3g apart | exact at (%.9g, %.9g) after %d "
                         "bounces: %s off by %.3g, %s by %.3g\n",
                         (int)i, (double)bullets[i].x, (double)bullets[i].y, (double)bullets[i].vx,
                         (double)bullets[i].vy, sr->cases[p].engine, a->first[2 * i], a->first[2 * i + 1],
                         sr->cases[e].engine, b->first[2 * i], b->first[2 * i + 1], d1, ex_first[2 * i],
                         ex_first[2 * i + 1], (int)ex_bounces_first[i], sr->cases[p].engine,
                         bullet_distance(ex_first, a->first, i), sr->cases[e].engine,
                         bullet_distance(ex_first, b->first, i));
                    ++shown;
                }
            }
            double p1 = 100.0 * (double)agree1 / (double)n, pN = 100.0 * (double)agreeN / (double)n;
            double pb = bounced ? 100.0 * (double)bounced_agree / (double)bounced : 100.0;
            if (with_ref) {
                case_result *c = &sr->cases[e];
                c->have_agree = true;
                c->compared = n;
                c->agreed = agree1;
                c->agreed_last = agreeN;
                note(sr,
                     "- %s vs %s: after the first step %.3f%% of %d bullets within %g (%.3f%% of the %lld that "
                     "%s bounced in it; the farthest apart %.3g), after step %d %.3f%% within %g\n",
                     c->engine, sr->cases[ref].engine, p1, (int)n, BULLET_TOL_FIRST, pb, (long long)bounced,
                     sr->cases[ref].engine, worst1, scene->steps, pN, BULLET_TOL_LAST);
            } else {
                note(sr,
                     "- runner cross-check, %s vs %s: %.3f%% within %g after the first step, %.3f%% within %g "
                     "after step %d\n",
                     sr->cases[e].engine, sr->cases[p].engine, p1, BULLET_TOL_FIRST, pN, BULLET_TOL_LAST,
                     scene->steps);
            }
        }
    }
    bench_inside_destroy(ix);
    free(ex_first);
    free(ex_last);
    free(ex_bounces_first);
    for (int e = 1; e < sr->count; ++e) {
        free(st[e].first);
        free(st[e].last);
        free(st[e].vel);
    }
}

/* ---- machine description --------------------------------------------------------------------- */

static void cpu_model(char *out, size_t size) {
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) {
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t') {
                    c++;
                }
                copy_field(out, size, c);
                break;
            }
        }
    }
    fclose(f);
}

static void loadavg(char *out, size_t size) {
    snprintf(out, size, "?");
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        char line[128];
        if (fgets(line, sizeof line, f)) {
            double a, b, c;
            if (sscanf(line, "%lf %lf %lf", &a, &b, &c) == 3) {
                snprintf(out, size, "%.2f %.2f %.2f", a, b, c);
            }
        }
        fclose(f);
    }
}

/* ---- output ---------------------------------------------------------------------------------- */

typedef struct text {
    char *buf;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->len;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            return;
        }
        if (t->buf && (size_t)n < room) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 65536;
        while (cap < t->len + (size_t)n + 1) {
            cap *= 2;
        }
        char *nb = realloc(t->buf, cap);
        if (!nb) {
            die("out of memory");
        }
        t->buf = nb;
        t->cap = cap;
    }
}

/* A table of strings rendered as a padded markdown table. */
#define MAX_COLS 10
#define MAX_ROWS 64
typedef struct table {
    int cols, rows;
    char cell[MAX_ROWS][MAX_COLS][160];
    bool right[MAX_COLS];
} table;

static void table_row(table *tb, ...) {
    if (tb->rows >= MAX_ROWS) {
        return;
    }
    va_list ap;
    va_start(ap, tb);
    for (int c = 0; c < tb->cols; ++c) {
        const char *s = va_arg(ap, const char *);
        snprintf(tb->cell[tb->rows][c], sizeof tb->cell[0][0], "%s", s ? s : "");
    }
    va_end(ap);
    tb->rows++;
}

static void table_render(text *t, const table *tb) {
    size_t w[MAX_COLS] = {0};
    for (int r = 0; r < tb->rows; ++r) {
        for (int c = 0; c < tb->cols; ++c) {
            size_t n = strlen(tb->cell[r][c]);
            w[c] = n > w[c] ? n : w[c];
        }
    }
    for (int r = 0; r < tb->rows; ++r) {
        put(t, "|");
        for (int c = 0; c < tb->cols; ++c) {
            if (tb->right[c] && r > 0) {
                put(t, " %*s |", (int)w[c], tb->cell[r][c]);
            } else {
                put(t, " %-*s |", (int)w[c], tb->cell[r][c]);
            }
        }
        put(t, "\n");
        if (r == 0) {
            put(t, "|");
            for (int c = 0; c < tb->cols; ++c) {
                char dash[200];
                size_t n = w[c] < sizeof dash - 2 ? w[c] : sizeof dash - 2;
                memset(dash, '-', n);
                dash[n] = '\0';
                put(t, "-%s%c|", dash, tb->right[c] ? ':' : '-');
            }
            put(t, "\n");
        }
    }
}

static double case_time(const scene_report *sr, const case_result *c) {
    if (!c->ok) {
        return -1.0;
    }
    if (sr->scene.kind == BENCH_RAYS) {
        return c->rays > 0 ? c->total_ns / (double)c->rays : -1.0;
    }
    return c->step_mean_ms;
}

static int fastest_peer(const scene_report *sr) {
    int best = -1;
    for (int e = 1; e < sr->count; ++e) {
        if (strncmp(sr->cases[e].engine, "ricochet", 8) == 0 || !sr->cases[e].ok) {
            continue;
        }
        if (best < 0 || case_time(sr, &sr->cases[e]) < case_time(sr, &sr->cases[best])) {
            best = e;
        }
    }
    return best;
}

static int find_case(const scene_report *sr, const char *engine) {
    for (int e = 1; e < sr->count; ++e) {
        if (strcmp(sr->cases[e].engine, engine) == 0) {
            return e;
        }
    }
    return -1;
}

static void render(text *t, const options *o, scene_report *reports, int nreports, const char *header_info) {
    put(t, "%s", header_info);
    put(t, "\n### Results\n\n");
    put(t, "Rays: time per ray (and throughput) for the timed rays; moving and bullets: mean ms per step (median "
           "in brackets). Peak RSS: ru_maxrss of the case's own process (process + engine + scene stream; the "
           "baseline row is the process and the scene stream with no engine, 'over baseline' the difference). "
           "Agreement: share of rays, left out those that start "
           "inside a shape, where hit/miss agree with ricochet and, when both hit, |t difference| <= 1e-4. "
           "Ratio: peer time / ricochet time (> 1: ricochet is faster); on ricochet's row, against the fastest "
           "peer.\n\n");
    table tb;
    memset(&tb, 0, sizeof tb);
    tb.cols = 8;
    tb.right[2] = tb.right[3] = tb.right[4] = tb.right[5] = tb.right[7] = true;
    table_row(&tb, "scene", "engine", "time", "rate", "peak RSS MB", "over baseline", "agreement", "ratio");
    for (int s = 0; s < nreports; ++s) {
        scene_report *sr = &reports[s];
        int ric = find_case(sr, "ricochet");
        int fast = fastest_peer(sr);
        double ric_time = ric >= 0 ? case_time(sr, &sr->cases[ric]) : -1.0;
        for (int e = 0; e < sr->count; ++e) {
            case_result *c = &sr->cases[e];
            if (!c->ran) {
                continue;
            }
            char tm[96] = "", rate[64] = "", rss[32], over[32] = "", agree[64] = "", ratio[96] = "";
            snprintf(rss, sizeof rss, "%.1f", (double)c->maxrss_kb / 1024.0);
            if (e > 0 && sr->cases[0].ran) {
                snprintf(over, sizeof over, "%.1f", (double)(c->maxrss_kb - sr->cases[0].maxrss_kb) / 1024.0);
            }
            if (e == 0) {
                snprintf(tm, sizeof tm, "-");
            } else if (!c->ok) {
                snprintf(tm, sizeof tm, "failed: %.60s", c->error);
            } else if (sr->scene.kind == BENCH_RAYS) {
                double ns = case_time(sr, c);
                snprintf(tm, sizeof tm, "%.1f ns/ray", ns);
                snprintf(rate, sizeof rate, "%.3f Mrays/s", 1e3 / ns);
            } else {
                snprintf(tm, sizeof tm, "%.3f ms/step (%.3f)", c->step_mean_ms, c->step_median_ms);
                snprintf(rate, sizeof rate, "%.0f steps/s", 1e3 / c->step_mean_ms);
            }
            if (e > 0 && sr->scene.kind == BENCH_RAYS) {
                if (e == sr->reference) {
                    snprintf(agree, sizeof agree, "reference");
                } else if (c->have_agree) {
                    snprintf(agree, sizeof agree, "%.4f%% (%lld differ)",
                             100.0 * (double)c->agreed / (double)c->compared, (long long)(c->compared - c->agreed));
                }
            } else if (e > 0 && sr->scene.kind == BENCH_BULLETS) {
                if (e == sr->reference) {
                    snprintf(agree, sizeof agree, "reference");
                } else if (c->have_agree) {
                    snprintf(agree, sizeof agree, "%.2f%% / %.2f%%", 100.0 * (double)c->agreed / (double)c->compared,
                             100.0 * (double)c->agreed_last / (double)c->compared);
                }
            } else if (e > 0 && c->have_pairs) {
                snprintf(agree, sizeof agree, "%lld pairs", (long long)c->pairs);
            }
            bool is_ricochet = strncmp(c->engine, "ricochet", 8) == 0;
            if (e > 0 && c->ok && is_ricochet && fast >= 0) {
                snprintf(ratio, sizeof ratio, "%.2fx vs %s", case_time(sr, &sr->cases[fast]) / case_time(sr, c),
                         sr->cases[fast].engine);
            } else if (e > 0 && c->ok && ric_time > 0.0) {
                { snprintf(ratio, sizeof ratio, "%.2f", case_time(sr, c) / ric_time); }
            }
            char name[64];
            snprintf(name, sizeof name, "%s%s", e == 0 ? "(" : "", c->engine);
            if (e == 0) {
                strncat(name, ")", sizeof name - strlen(name) - 1);
            }
            table_row(&tb, sr->scene.name, name, tm, rate, rss, over, agree, ratio);
        }
    }
    table_render(t, &tb);
    put(t, "\nOn moving scenes the agreement column gives the overlapping pairs each engine reports after one "
           "extra untimed step (a check that every engine does the same pair work). On bullet scenes it gives the "
           "share of bullets whose position agrees with ricochet's within 1e-3 after the first step / within 1e-2 "
           "after the last (chaotic divergence after many bounces is expected: see the agreement section).\n");

    /* Summary against the targets of issue 3. */
    put(t, "\n### ricochet against the fastest peer (targets of issue 3; bullets-10k: speed only, ratio >= 2)\n\n");
    table sm;
    memset(&sm, 0, sizeof sm);
    sm.cols = 7;
    sm.right[2] = sm.right[3] = sm.right[4] = true;
    table_row(&sm, "scene", "ricochet / fastest peer", "peer time / ricochet time", "ricochet RSS MB",
              "lowest peer RSS MB", "speed target", "memory target");
    for (int s = 0; s < nreports; ++s) {
        scene_report *sr = &reports[s];
        int fast = fastest_peer(sr);
        bool any = false;
        for (int ric = 1; ric < sr->count; ++ric) {
            if (strncmp(sr->cases[ric].engine, "ricochet", 8) != 0) {
                continue;
            }
            any = true;
            char who[96];
            snprintf(who, sizeof who, "%s / %s", sr->cases[ric].engine, fast >= 0 ? sr->cases[fast].engine : "-");
            if (fast < 0 || !sr->cases[ric].ok) {
                table_row(&sm, sr->scene.name, who, "-", "-", "-", !sr->cases[ric].ok ? "ricochet failed" : "no peer",
                          "-");
                continue;
            }
            double ratio = case_time(sr, &sr->cases[fast]) / case_time(sr, &sr->cases[ric]);
            long low = -1;
            for (int e = 1; e < sr->count; ++e) {
                if (strncmp(sr->cases[e].engine, "ricochet", 8) != 0 && sr->cases[e].ok &&
                    (low < 0 || sr->cases[e].maxrss_kb < low)) {
                    low = sr->cases[e].maxrss_kb;
                }
            }
            char r1[32], m1[32], m2[32], st[64], mt[64];
            snprintf(r1, sizeof r1, "%.2f", ratio);
            snprintf(m1, sizeof m1, "%.1f", (double)sr->cases[ric].maxrss_kb / 1024.0);
            snprintf(m2, sizeof m2, "%.1f", (double)low / 1024.0);
            snprintf(st, sizeof st, "%s (>= 2)", ratio >= 2.0 ? "met" : "NOT met");
            if (sr->scene.kind == BENCH_BULLETS) {
                snprintf(mt, sizeof mt, "no target (%s)", sr->cases[ric].maxrss_kb <= low ? "lower" : "higher");
            } else {
                snprintf(mt, sizeof mt, "%s", sr->cases[ric].maxrss_kb <= low ? "met" : "NOT met");
            }
            table_row(&sm, sr->scene.name, who, r1, m1, m2, st, mt);
        }
        if (!any) {
            table_row(&sm, sr->scene.name, "ricochet not run", "-", "-", "-", "-", "-");
        }
    }
    table_render(t, &sm);

    put(t, "\n### Configurations\n\n");
    for (int s = 0; s < nreports; ++s) {
        scene_report *sr = &reports[s];
        const bench_scene *sc = &sr->scene;
        if (sc->kind == BENCH_RAYS) {
            put(t,
                "- **%s**: %d static shapes%s in a %.0f x %.0f square; %lld rays of length %s (after %lld "
                "untimed warm-up rays; every engine's world is stepped once, untimed, after loading)\n",
                sc->name, sc->shape_count,
                sc->transformed ? " (unit shapes scaled non-uniformly, turned and moved: ricochet's base transforms)"
                                : "",
                sc->side, sc->side, (long long)sc->rays, sc->transformed ? "50-300" : "200",
                (long long)sc->warmup_rays);
        } else if (sc->kind == BENCH_MOVING) {
            put(t,
                "- **%s**: %d dynamic bodies (one sensor shape each) in a %.1f x %.1f square, speeds 0..50, no "
                "gravity; %d timed steps of 1/60 s after %d untimed\n",
                sc->name, sc->shape_count, sc->side, sc->side, sc->steps, sc->warmup_steps);
        } else {
            put(t,
                "- **%s**: the %d static shapes of the ray scene with the same generator stream (restitution 1, "
                "friction 0) in a %.0f x %.0f square; %d point bullets at %.0f units/s from random points outside "
                "every shape, random directions, no gravity, bullets never hit each other, at most %d bounces per "
                "bullet per step; %d timed steps of 1/60 s (every engine's world is stepped once, untimed, with the "
                "shapes alone before the bullets are added)\n",
                sc->name, sc->shape_count, sc->side, sc->side, sc->bullets, sc->bullet_speed, sc->max_bounces,
                sc->steps);
        }
        for (int e = 1; e < sr->count; ++e) {
            case_result *c = &sr->cases[e];
            if (c->ran) {
                put(t, "  - %s %s: %s (setup %.0f ms, untimed; CPU/wall of the reported run %.3f%s)", c->engine,
                    c->version, c->desc, c->setup_ms, c->cpu_share,
                    c->cpu_share < 0.97 ? ": DESCHEDULED, the machine was busy" : "");
                if (c->nruns > 1) {
                    put(t, "; runs:");
                    for (int k = 0; k < c->nruns; ++k) {
                        if (c->run_times[k] < 0.0) {
                            put(t, "%s failed", k ? "," : "");
                        } else {
                            put(t, "%s %.*f", k ? "," : "", sc->kind == BENCH_RAYS ? 1 : 3, c->run_times[k]);
                        }
                    }
                    put(t, " %s", sc->kind == BENCH_RAYS ? "ns/ray" : "ms/step");
                }
                put(t, "\n");
            }
        }
    }

    put(t, "\n### Agreement and checks\n\n");
    for (int s = 0; s < nreports; ++s) {
        scene_report *sr = &reports[s];
        put(t, "**%s**\n\n", sr->scene.name);
        if (sr->scene.kind == BENCH_BULLETS) {
            for (int e = 1; e < sr->count; ++e) {
                case_result *c = &sr->cases[e];
                if (c->ok) {
                    put(t, "- %s: steps min %.3f / max %.3f ms\n", c->engine, c->step_min_ms, c->step_max_ms);
                }
            }
        }
        if (sr->scene.kind == BENCH_MOVING) {
            for (int e = 1; e < sr->count; ++e) {
                case_result *c = &sr->cases[e];
                if (c->ok && c->have_pairs) {
                    put(t,
                        "- %s: %lld overlapping pairs (%s); bodies off their straight path by at most %.3g units "
                        "(%lld checked); steps min %.3f / max %.3f ms\n",
                        c->engine, (long long)c->pairs, c->pairs_note, c->drift_max, (long long)c->drift_checked,
                        c->step_min_ms, c->step_max_ms);
                }
            }
        }
        put(t, "%s\n", sr->notes_len ? sr->notes : "");
    }
    (void)o;
}

int main(int argc, char **argv) {
    /* RICOCHET_BENCH_ARGS adds options, e.g. RICOCHET_BENCH_ARGS=--quick make bench. */
    const char *extra = getenv("RICOCHET_BENCH_ARGS");
    bool child = argc > 1 && strcmp(argv[1], "--child") == 0;
    char *extra_copy = NULL;
    if (extra && *extra && !child) {
        extra_copy = strdup(extra);
        char **nargv = calloc((size_t)argc + strlen(extra) + 1, sizeof(char *));
        if (!extra_copy || !nargv) {
            die("out of memory");
        }
        int n = 0;
        for (int i = 0; i < argc; ++i) {
            nargv[n++] = argv[i];
        }
        for (char *tok = strtok(extra_copy, " \t"); tok; tok = strtok(NULL, " \t")) {
            nargv[n++] = tok;
        }
        nargv[n] = NULL;
        argc = n;
        argv = nargv; /* lives as long as the program */
    }
    options o = parse_options(argc, argv);
    if (o.child_engine) {
        return run_child(&o);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    char dir[4096];
    snprintf(dir, sizeof dir, "%s/bench-cases", o.out);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        die("cannot create %s: %s", dir, strerror(errno));
    }

    /* Header: command, machine, compiler. */
    char cpu[256], load0[64], hostinfo[512], when[64];
    cpu_model(cpu, sizeof cpu);
    loadavg(load0, sizeof load0);
    struct utsname un;
    if (uname(&un) == 0) {
        snprintf(hostinfo, sizeof hostinfo, "%s %s %s", un.sysname, un.release, un.machine);
    } else {
        snprintf(hostinfo, sizeof hostinfo, "unknown OS");
    }
    time_t tnow = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %Z", localtime(&tnow));
    char cmdline[2048] = "";
    for (int i = 0; i < argc; ++i) {
        strncat(cmdline, i ? " " : "", sizeof cmdline - strlen(cmdline) - 1);
        strncat(cmdline, argv[i], sizeof cmdline - strlen(cmdline) - 1);
    }
    text head = {0};
    put(&head, "## ricochet benchmark: ricochet vs Chipmunk2D and Box2D\n\n");
    char command[2048] = "";
    if (o.command) {
        snprintf(command, sizeof command, "%s%s%s%s", extra_copy ? "RICOCHET_BENCH_ARGS='" : "",
                 extra_copy ? extra : "", extra_copy ? "' " : "", o.command);
    }
    put(&head, "- command: `%s`%s%s%s\n", o.command ? command : cmdline, o.command ? " (runs `" : "",
        o.command ? cmdline : "", o.command ? "`)" : "");
    put(&head, "- date: %s\n", when);
    put(&head, "- machine: %s, %ld cores online (%ld configured); %s; load average at start %s\n", cpu,
        sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF), hostinfo, load0);
    put(&head, "- compiler: %s%s%s; build type %s; C flags `%s`%s%s%s\n", BENCH_C_COMPILER,
        BENCH_CXX_COMPILER[0] ? ", C++ " : "", BENCH_CXX_COMPILER, BENCH_BUILD_TYPE, BENCH_C_FLAGS,
        BENCH_CXX_FLAGS[0] ? ", C++ flags `" : "", BENCH_CXX_FLAGS, BENCH_CXX_FLAGS[0] ? "`" : "");
    put(&head, "- ricochet commit: %s\n", BENCH_GIT);
    put(&head, "- engines built in:");
    for (int i = 0; all_runners[i]; ++i) {
        put(&head, " %s %s%s", all_runners[i]->name, all_runners[i]->version(), all_runners[i + 1] ? "," : "");
    }
    put(&head, "%s\n", all_runners[0] ? "" : " none");
    if (BENCH_PEER_LIBS[0]) {
        put(&head, "- peer libraries: %s\n", BENCH_PEER_LIBS);
    }
    put(&head,
        "- mode: %s; single thread; clock_gettime(CLOCK_MONOTONIC); each case in its own process "
        "(fork + exec, peak RSS from wait4)%s; %d run%s of each case in interleaved rounds, %s; seed 0x%llx "
        "(splitmix64)\n",
        o.cfg.quick ? "QUICK (--quick: 10x fewer rays and steps than the spec)" : "full spec",
        o.pin >= 0 ? ", pinned" : "", o.repeat, o.repeat > 1 ? "s" : "",
        o.repeat > 1 ? "the fastest reported (peak RSS: the largest)" : "as measured", (unsigned long long)BENCH_SEED);

    fprintf(stderr, "bench_run: %s; every case runs in its own process\n",
            o.cfg.quick ? "quick run (--quick)" : "full run");

    int nscenes = bench_scene_count();
    scene_report *reports = calloc((size_t)nscenes, sizeof(scene_report));
    if (!reports) {
        die("out of memory");
    }
    int nreports = 0;
    for (int s = 0; s < nscenes; ++s) {
        bench_scene scene = bench_scene_get(s, o.cfg.quick);
        if (!list_has(o.scenes, scene.name)) {
            continue;
        }
        scene_report *sr = &reports[nreports++];
        sr->scene = scene;
        sr->reference = -1;
        const char *engines[MAX_ENGINES + 1];
        int n_engines = 0;
        engines[n_engines++] = BASELINE;
        for (int i = 0; all_runners[i] && n_engines <= MAX_ENGINES; ++i) {
            bool takes_part = scene.kind == BENCH_RAYS     ? all_runners[i]->build_static != NULL
                              : scene.kind == BENCH_MOVING ? all_runners[i]->build_moving != NULL
                                                           : all_runners[i]->build_bullets != NULL;
            if (list_has(o.engines, all_runners[i]->name) && takes_part) {
                engines[n_engines++] = all_runners[i]->name;
            }
        }
        sr->count = n_engines;
        /* Bullet scenes: the driver draws the bullets once and hands them to every case. */
        bench_bullet *bullets = NULL;
        if (scene.kind == BENCH_BULLETS) {
            bullets = malloc(sizeof(bench_bullet) * (size_t)scene.bullets);
            if (!bullets || (sr->bullets_redrawn = bench_bullets_make(&sr->scene, bullets)) < 0) {
                die("out of memory drawing the bullets");
            }
            char bpath[4096];
            bullets_path(bpath, sizeof bpath, o.out, scene.name);
            FILE *bf = open_or_die(bpath, "wb");
            answers_header h;
            memcpy(h.magic, bullets_magic, 8);
            h.count = scene.bullets;
            if (fwrite(&h, sizeof h, 1, bf) != 1 ||
                fwrite(bullets, sizeof(bench_bullet), (size_t)scene.bullets, bf) != (size_t)scene.bullets ||
                fclose(bf) != 0) {
                die("cannot write %s", bpath);
            }
        }
        /* Rounds: every engine once per round, so a burst of load elsewhere hits one run of each
         * rather than all runs of one engine. The best run of each engine is kept. */
        for (int round = 0; round < o.repeat; ++round) {
            if (o.repeat > 1) {
                fprintf(stderr, " round %d of %d\n", round + 1, o.repeat);
            }
            for (int e = 0; e < n_engines; ++e) {
                case_result run;
                run_case(&o, argv, &sr->scene, engines[e], &run);
                case_result *best = &sr->cases[e];
                double t = run.ok ? case_time(sr, &run) : -1.0;
                if (round == 0 || (run.ok && (!best->ok || t < case_time(sr, best)))) {
                    long rss = round == 0 ? 0 : best->maxrss_kb;
                    double times[MAX_RUNS];
                    int nruns = best->nruns;
                    memcpy(times, best->run_times, sizeof times);
                    *best = run;
                    best->nruns = nruns;
                    memcpy(best->run_times, times, sizeof times);
                    if (rss > best->maxrss_kb) {
                        best->maxrss_kb = rss;
                    }
                } else if (run.maxrss_kb > best->maxrss_kb) {
                    best->maxrss_kb = run.maxrss_kb;
                }
                if (best->nruns < MAX_RUNS) {
                    best->run_times[best->nruns++] = t;
                }
            }
        }
        int ric = find_case(sr, "ricochet");
        if (ric >= 0 && sr->cases[ric].ok) {
            sr->reference = ric;
        } else {
            for (int e = 1; e < sr->count; ++e) {
                if (sr->cases[e].ok) {
                    sr->reference = e;
                    break;
                }
            }
            if (sr->reference > 0 && scene.kind != BENCH_MOVING) {
                note(sr, "- ricochet did not run: agreement is measured against %s instead\n",
                     sr->cases[sr->reference].engine);
            }
        }
        if (scene.kind == BENCH_RAYS) {
            compare_rays(&o, sr);
        } else if (scene.kind == BENCH_BULLETS) {
            compare_bullets(&o, sr, bullets);
        }
        free(bullets);
    }
    char load1[64];
    loadavg(load1, sizeof load1);
    put(&head, "- load average at the end: %s\n", load1);

    text out = {0};
    render(&out, &o, reports, nreports, head.buf);
    fputs("\n", stdout);
    fputs(out.buf, stdout);

    char path[4200];
    snprintf(path, sizeof path, "%s/bench_results.md", o.out);
    FILE *md = fopen(path, "w");
    if (md) {
        fputs(out.buf, md);
        fclose(md);
        printf("\nwritten: %s\n", path);
    } else {
        fprintf(stderr, "bench_run: cannot write %s: %s\n", path, strerror(errno));
    }
    int failures = 0;
    for (int s = 0; s < nreports; ++s) {
        for (int e = 0; e < reports[s].count; ++e) {
            failures += reports[s].cases[e].ran && !reports[s].cases[e].ok;
        }
    }
    free(head.buf);
    free(out.buf);
    free(reports);
    return failures ? 1 : 0;
}
