/* bench/level_size.c: does a static level cost a step nothing beyond the cells moving bodies
 * touch? A looped chain wall (points about one unit apart, a gentle wave along it) of 2,000,
 * 20,000, 200,000 and 1,000,000 points, and 1,000 grenades thrown about inside it near its
 * floor; the same grenades in every level. Reports the mean and worst step over 600 steps (after
 * 60 untimed) and each level's mean over the 2,000-point level's. Issue 15's target: 200,000
 * points within 1.5x of 2,000. ricochet only (the peers have no such level in the bench).
 *
 * Then long walls (run_walls): one segment each against the same walls cut into 4-unit pieces,
 * the steps and then rays cast along the walls (rays_along_walls).
 *
 *   level_size [--quick] [--walls] [--out FILE]   --quick: 120 steps, up to 200,000 points;
 *                                                 --walls: the long walls alone */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <ricochet/ricochet.h>

#include "bench_clock.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    double t0 = bench_now();
    if (rc_shape_id_is_null(rc_shape_create_chain(w, rc_body_create(w, &bd), &sd, p, points, true))) {
        fprintf(stderr, "level_size: %s\n", rc_world_last_error(w));
        exit(1);
    }
    r.build_ms = 1e3 * (bench_now() - t0);
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
        double a = bench_now();
        rc_world_step(w, 1.0f / 60.0f);
        double d = bench_now() - a;
        total += d;
        r.worst_ms = d * 1e3 > r.worst_ms ? d * 1e3 : r.worst_ms;
    }
    r.mean_ms = 1e3 * total / steps;
    rc_world_destroy(w);
    free(p);
    return r;
}

/* Long walls: a 600 x 600 box, seven slanted walls of 540 units across it, 3,000 pegs and 2,000
 * bodies (crates and grenades, half each) falling through; each wall given as one segment
 * (the world splits it: wall_pieces.c) or cut by the game into 4-unit segments. The step should
 * cost the same either way. */
static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float uniform(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)lcg(s) / 16777216.0f; }

typedef struct walls_result {
    double step_ms; /* mean per step */
    double ray_ns;  /* mean per ray along the walls */
} walls_result;

/* Rays along the walls: from points just above a wall, along it within a hundredth of a
 * radian, 150 units (a shot down a slanted corridor: it passes many of a long wall's pieces). */
static double rays_along_walls(const rc_world *w, int rays) {
    uint32_t seed = 777u;
    int hits = 0;
    double t0 = bench_now();
    for (int i = 0; i < rays; ++i) {
        int k = (int)(lcg(&seed) % 7u);
        float along = uniform(&seed, 0.0f, 200.0f), turn = uniform(&seed, -0.01f, 0.01f);
        rc_vec2 a = rc_v2(-290.0f + 40.0f * (float)k, -285.0f + 20.0f * (float)k);
        float d = 0.70710678f * along, up = uniform(&seed, 0.2f, 1.5f);
        rc_vec2 origin = rc_v2(a.x + d - 0.70710678f * up, a.y + d + 0.70710678f * up);
        float c = cosf(0.78539816f + turn), s = sinf(0.78539816f + turn);
        rc_ray_hit hit;
        hits += rc_world_cast_ray(w, origin, rc_v2(150.0f * c, 150.0f * s), &hit) ? 1 : 0;
    }
    double ns = 1e9 * (bench_now() - t0) / rays;
    return hits >= 0 ? ns : 0.0; /* (hits: the calls are not thrown away) */
}

static walls_result run_walls(bool cut, int steps) {
    rc_world_def def = rc_world_default_def();
    rc_world *w = rc_world_create(&def);
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 box[4] = {{-300, -300}, {300, -300}, {300, 300}, {-300, 300}};
    rc_shape_create_chain(w, level, &sd, box, 4, true);
    rc_vec2 points[160];
    for (int k = 0; k < 7; ++k) {
        rc_vec2 a = rc_v2(-290.0f + 40.0f * (float)k, -285.0f + 20.0f * (float)k);
        rc_vec2 b = rc_v2(a.x + 381.8f, a.y + 381.8f);
        int n = cut ? 136 : 2;
        for (int i = 0; i < n; ++i) {
            float t = (float)i / (float)(n - 1);
            points[i] = rc_v2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        }
        rc_shape_create_chain(w, level, &sd, points, n, false);
    }
    uint32_t seed = 12345u;
    for (int i = 0; i < 3000; ++i) {
        rc_shape_def ps = rc_shape_default_def();
        ps.offset = rc_v2(uniform(&seed, -295, 295), uniform(&seed, -295, 295));
        rc_shape_create_circle(w, level, &ps, 0.4f);
    }
    for (int i = 0; i < 2000; ++i) {
        rc_body_def g = rc_body_default_def();
        g.type = RC_DYNAMIC;
        g.position = rc_v2(uniform(&seed, -290, 290), uniform(&seed, -250, 290));
        rc_body_id b = rc_body_create(w, &g);
        rc_shape_def cs = rc_shape_default_def();
        if (i % 2 == 0) {
            rc_shape_create_box(w, b, &cs, 0.4f, 0.4f);
        } else {
            cs.restitution = 0.5f;
            rc_shape_create_circle(w, b, &cs, 0.3f);
        }
    }
    for (int s = 0; s < 60; ++s) {
        rc_world_step(w, 1.0f / 60.0f);
    }
    double t0 = bench_now();
    for (int s = 0; s < steps; ++s) {
        rc_world_step(w, 1.0f / 60.0f);
    }
    walls_result r;
    r.step_ms = 1e3 * (bench_now() - t0) / steps;
    r.ray_ns = rays_along_walls(w, 50 * steps);
    rc_world_destroy(w);
    return r;
}

int main(int argc, char **argv) {
    bool quick = false, walls_only = false;
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--walls") == 0) {
            walls_only = true;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else {
            fprintf(stderr, "usage: level_size [--quick] [--walls] [--out FILE]\n");
            return 2;
        }
    }
    const int sizes[] = {2000, 20000, 200000, 1000000};
    int n = walls_only ? 0 : quick ? 3 : 4, steps = quick ? 120 : 600;
    level_result res[4];
    for (int i = 0; i < n; ++i) {
        res[i] = run(sizes[i], steps);
    }
    walls_result whole = run_walls(false, steps), cut = run_walls(true, steps);
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
        fprintf(to, "\nlong walls: 7 slanted walls of 540 units, 3,000 pegs, 2,000 crates and grenades, %d steps\n\n", steps);
        fprintf(to, "| walls given as | mean ms/step | ns per ray along the walls (%d rays) |\n|---|---:|---:|\n",
                50 * steps);
        fprintf(to, "| one segment each | %.3f | %.1f |\n| 4-unit segments | %.3f | %.1f |\n", whole.step_ms,
                whole.ray_ns, cut.step_ms, cut.ray_ns);
        fprintf(to, "| one / cut | %.2fx | %.2fx |\n", whole.step_ms / cut.step_ms, whole.ray_ns / cut.ray_ns);
    }
    if (f != NULL) {
        fclose(f);
    }
    return 0;
}
