/* bench/compound_build.c: does a body of many shapes cost each shape the same whatever their
 * number? A dynamic body (and a kinematic one) of n boxes laid out in a grid, n from 250 to
 * 16,000, is built shape by shape, stepped once (its reach from its centre of mass is worked out
 * then) and destroyed. Reports each phase's time (the best of 3 runs) and the build's time per
 * shape over the 250-shape body's: about 1 when a shape added costs the same at any size (a body
 * summed its shapes again at each one before, O(n^2): 16,000 shapes took 11 s). ricochet only.
 *
 *   compound_build [--quick] [--out FILE]   --quick: up to 4,000 shapes */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <ricochet/ricochet.h>

#include "bench_clock.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct build_result {
    double build_ms, step_ms, destroy_ms;
} build_result;

/* One run: a body of `shapes` boxes of half size 0.4 a unit apart, 100 to a row. */
static build_result run(rc_body_type type, int shapes) {
    build_result r = {0.0, 0.0, 0.0};
    rc_world_def def = rc_world_default_def();
    def.shape_capacity = shapes + 16;
    rc_world *w = rc_world_create(&def);
    if (w == NULL) {
        fprintf(stderr, "compound_build: no world\n");
        exit(1);
    }
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    rc_body_id body = rc_body_create(w, &bd);
    double t0 = bench_now();
    for (int i = 0; i < shapes; ++i) {
        rc_shape_def sd = rc_shape_default_def();
        sd.offset = rc_v2((float)(i % 100), (float)(i / 100));
        if (rc_shape_id_is_null(rc_shape_create_box(w, body, &sd, 0.4f, 0.4f))) {
            fprintf(stderr, "compound_build: %s\n", rc_world_last_error(w));
            exit(1);
        }
    }
    double t1 = bench_now();
    if (!rc_world_step(w, 1.0f / 60.0f)) {
        fprintf(stderr, "compound_build: %s\n", rc_world_last_error(w));
        exit(1);
    }
    double t2 = bench_now();
    rc_body_destroy(w, body);
    double t3 = bench_now();
    rc_world_destroy(w);
    r.build_ms = 1e3 * (t1 - t0);
    r.step_ms = 1e3 * (t2 - t1);
    r.destroy_ms = 1e3 * (t3 - t2);
    return r;
}

static build_result best_of_3(rc_body_type type, int shapes) {
    build_result best = run(type, shapes);
    for (int k = 1; k < 3; ++k) {
        build_result r = run(type, shapes);
        best.build_ms = r.build_ms < best.build_ms ? r.build_ms : best.build_ms;
        best.step_ms = r.step_ms < best.step_ms ? r.step_ms : best.step_ms;
        best.destroy_ms = r.destroy_ms < best.destroy_ms ? r.destroy_ms : best.destroy_ms;
    }
    return best;
}

int main(int argc, char **argv) {
    bool quick = false;
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else {
            fprintf(stderr, "usage: compound_build [--quick] [--out FILE]\n");
            return 2;
        }
    }
    static const int sizes[] = {250, 1000, 4000, 16000};
    int count = quick ? 3 : 4;
    char report[4096];
    size_t at = 0;
    at += (size_t)snprintf(report + at, sizeof report - at,
                           "## compound_build: a body of n shapes, built, stepped once, destroyed (best of 3)\n\n"
                           "| body | shapes | build ms | per shape, over 250's | first step ms | destroy ms |\n"
                           "|---|---:|---:|---:|---:|---:|\n");
    for (int t = 0; t < 2; ++t) {
        rc_body_type type = t == 0 ? RC_DYNAMIC : RC_KINEMATIC;
        double base = 0.0;
        for (int k = 0; k < count; ++k) {
            build_result r = best_of_3(type, sizes[k]);
            double per_shape = r.build_ms / sizes[k];
            if (k == 0) {
                base = per_shape;
            }
            at += (size_t)snprintf(report + at, sizeof report - at, "| %s | %d | %.3f | %.2f | %.3f | %.3f |\n",
                                   t == 0 ? "dynamic" : "kinematic", sizes[k], r.build_ms, per_shape / base,
                                   r.step_ms, r.destroy_ms);
        }
    }
    fputs(report, stdout);
    if (out != NULL) {
        FILE *f = fopen(out, "w");
        if (f == NULL || fputs(report, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "compound_build: cannot write %s\n", out);
            return 1;
        }
    }
    return 0;
}
