/* bench/level_size.c: does a static level cost a step nothing beyond the cells moving bodies
 * touch? A looped chain wall (points about one unit apart, a gentle wave along it) of 2,000,
 * 20,000, 200,000 and 1,000,000 points, and 1,000 grenades thrown about inside it near its
 * floor; the same grenades in every level. Reports the mean and worst step over 600 steps (after
 * 60 untimed) and each level's mean over the 2,000-point level's. Issue 15's target: 200,000
 * points within 1.5x of 2,000. ricochet only (the peers have no such level in the bench).
 *
 *   level_size [--quick] [--out FILE]   --quick: 120 steps, up to 200,000 points */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <ricochet/ricochet.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct level_result {
    int points;
    double build_ms, mean_ms, worst_ms;
} level_result;

static level_result run(int points, int steps) {
    level_result r = {points, 0.0, 0.0, 0.0};
    rc_world_def def = rc_world_default_def();
    rc_world *w = rc_world_create(&def);
    rc_vec2 *p = malloc(sizeof *p * (size_t)points);
    if (w == NULL || p == NULL) {
        fprintf(stderr, "level_size: out of memory\n");
        exit(1);
    }
    double radius = points / 6.283185307179586; /* points about a unit apart */
    for (int i = 0; i < points; ++i) {
        double a = 6.283185307179586 * i / points, rr = radius + 3.0 * sin(a * radius / 5.0);
        p[i] = rc_v2((float)(rr * cos(a)), (float)(rr * sin(a)));
    }
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    double t0 = now();
    if (rc_shape_id_is_null(rc_shape_create_chain(w, rc_body_create(w, &bd), &sd, p, points, true))) {
        fprintf(stderr, "level_size: %s\n", rc_world_last_error(w));
        exit(1);
    }
    r.build_ms = 1e3 * (now() - t0);
    for (int i = 0; i < 1000; ++i) {
        rc_body_def g = rc_body_default_def();
        g.type = RC_DYNAMIC;
        g.position = rc_v2((float)((i % 40) * 4 - 80), (float)(-radius + 20.0 + (i / 40) * 4));
        g.linear_velocity = rc_v2((float)((i * 37 % 21) - 10), (float)((i * 53 % 21) - 10));
        rc_shape_def cs = rc_shape_default_def();
        cs.restitution = 0.5f;
        rc_shape_create_circle(w, rc_body_create(w, &g), &cs, 0.3f);
    }
    for (int s = 0; s < 60; ++s) {
        rc_world_step(w, 1.0f / 60.0f);
    }
    double total = 0.0;
    for (int s = 0; s < steps; ++s) {
        double a = now();
        rc_world_step(w, 1.0f / 60.0f);
        double d = now() - a;
        total += d;
        r.worst_ms = d * 1e3 > r.worst_ms ? d * 1e3 : r.worst_ms;
    }
    r.mean_ms = 1e3 * total / steps;
    rc_world_destroy(w);
    free(p);
    return r;
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
            fprintf(stderr, "usage: level_size [--quick] [--out FILE]\n");
            return 2;
        }
    }
    const int sizes[] = {2000, 20000, 200000, 1000000};
    int n = quick ? 3 : 4, steps = quick ? 120 : 600;
    level_result res[4];
    for (int i = 0; i < n; ++i) {
        res[i] = run(sizes[i], steps);
    }
    FILE *f = out != NULL ? fopen(out, "w") : NULL;
    for (int k = 0; k < 2; ++k) {
        FILE *to = k == 0 ? stdout : f;
        if (to == NULL) {
            continue;
        }
        fprintf(to, "level_size: a looped chain of N points and 1,000 grenades, %d steps (Release, one thread)\n\n", steps);
        fprintf(to, "| points | chain made in | mean ms/step | worst ms/step | mean / 2,000 points' |\n");
        fprintf(to, "|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < n; ++i) {
            fprintf(to, "| %d | %.1f ms | %.3f | %.3f | %.2fx |\n", res[i].points, res[i].build_ms, res[i].mean_ms,
                    res[i].worst_ms, res[i].mean_ms / res[0].mean_ms);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return 0;
}
