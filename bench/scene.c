/* bench/scene.c: see scene.h. */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_TWO_PI 6.283185307179586476925286766559

static const bench_scene bench_scenes[] = {
    /* name        kind          shapes  side   rays     warm   steps warm dt          salt  bullets speed bounces transformed */
    {"rays-10k", BENCH_RAYS, 10000, 2000.0, 1000000, 20000, 0, 0, 0.0, 1, 0, 0.0, 0, false},
    {"rays-100k", BENCH_RAYS, 100000, 6000.0, 1000000, 20000, 0, 0, 0.0, 2, 0, 0.0, 0, false},
    {"moving-10k", BENCH_MOVING, 10000, 2000.0, 0, 0, 300, 5, 1.0 / 60.0, 3, 0, 0.0, 0, false},
    /* the density of rays-10k: side = 2000 * sqrt(50000 / 10000) */
    {"moving-50k", BENCH_MOVING, 50000, 4472.1359549995794, 0, 0, 300, 5, 1.0 / 60.0, 4, 0, 0.0, 0, false},
    /* the shapes of rays-10k (its salt), 10,000 bullets of their own stream, every step timed */
    {"bullets-10k", BENCH_BULLETS, 10000, 2000.0, 0, 0, 60, 0, 1.0 / 60.0, 1, 10000, 2000.0, 8, false},
    /* the density of rays-10k, every shape scaled, turned and moved as a game places props */
    {"rays-transformed", BENCH_RAYS, 10000, 2000.0, 1000000, 20000, 0, 0, 0.0, 5, 0, 0.0, 0, true},
};

int bench_scene_count(void) { return (int)(sizeof bench_scenes / sizeof bench_scenes[0]); }

bench_scene bench_scene_get(int index, bool quick) {
    bench_scene s = bench_scenes[index];
    if (quick) {
        s.rays /= 10;
        s.warmup_rays /= 10;
        s.steps /= 10;
    }
    return s;
}

int bench_scene_find(const char *name) {
    for (int i = 0; i < bench_scene_count(); ++i) {
        if (strcmp(bench_scenes[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

/* ---- splitmix64 ------------------------------------------------------------------------------ */

static uint64_t splitmix64_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

bench_rng bench_rng_make(uint64_t seed, uint64_t stream) {
    bench_rng r;
    r.state = splitmix64_mix(seed ^ splitmix64_mix(stream + 0x9E3779B97F4A7C15ULL));
    return r;
}

uint64_t bench_rng_next(bench_rng *rng) {
    rng->state += 0x9E3779B97F4A7C15ULL;
    return splitmix64_mix(rng->state);
}

double bench_rng_uniform(bench_rng *rng) { return (double)(bench_rng_next(rng) >> 11) * 0x1.0p-53; }

/* ---- shapes ---------------------------------------------------------------------------------- */

void bench_shapes_begin(bench_shape_gen *gen, const bench_scene *scene) {
    gen->scene = scene;
    gen->rng = bench_rng_make(BENCH_SEED, scene->salt * 4u + 0u);
    gen->next = 0;
}

/* A transformed shape (scene.h): the unit shape of n vertices (0: a circle) scaled by
 * radius * (f1, f2), turned by out->angle and moved to (out->x, out->y), in double. */
static void transform_shape(bench_shape *out, int n, double radius, double f1, double f2) {
    double c = cos((double)out->angle), s = sin((double)out->angle);
    out->scale_x = (float)f1;
    out->scale_y = (float)f2;
    if (n == 0) {
        out->radius = (float)(radius * f1); /* a circle of radius `radius` scaled evenly by f1 */
        out->unit[0][0] = (float)radius;
        return;
    }
    n = n > BENCH_MAX_VERTS ? BENCH_MAX_VERTS : n;
    out->count = n;
    for (int k = 0; k < n; ++k) {
        double a = BENCH_TWO_PI * (double)k / (double)n, ux = cos(a), uy = sin(a);
        out->unit[k][0] = (float)(radius * ux);
        out->unit[k][1] = (float)(radius * uy);
        double px = (double)out->unit[k][0] * f1, py = (double)out->unit[k][1] * f2;
        double lx = c * px - s * py, ly = s * px + c * py;
        out->local[k][0] = (float)lx;
        out->local[k][1] = (float)ly;
        out->world[k][0] = (float)((double)out->x + lx);
        out->world[k][1] = (float)((double)out->y + ly);
    }
}

bool bench_shapes_next(bench_shape_gen *gen, bench_shape *out) {
    if (gen->next >= gen->scene->shape_count) {
        return false;
    }
    bench_rng *r = &gen->rng;
    const double half = 0.5 * gen->scene->side;
    /* A fixed number of draws per shape, whatever its kind. */
    double u_radius = bench_rng_uniform(r);
    double u_count = bench_rng_uniform(r);
    double u_angle = bench_rng_uniform(r);
    double u_x = bench_rng_uniform(r);
    double u_y = bench_rng_uniform(r);
    double u_speed = bench_rng_uniform(r);
    double u_heading = bench_rng_uniform(r);

    memset(out, 0, sizeof *out);
    out->index = gen->next;
    out->is_polygon = (gen->next & 1) != 0; /* exactly half of each */
    double radius = 1.0 + 5.0 * u_radius;
    double angle = BENCH_TWO_PI * u_angle;
    double cx = -half + gen->scene->side * u_x;
    double cy = -half + gen->scene->side * u_y;
    out->x = (float)cx;
    out->y = (float)cy;
    out->radius = (float)radius;
    out->angle = (float)angle;
    double speed = 50.0 * u_speed;
    double heading = BENCH_TWO_PI * u_heading;
    out->vx = (float)(speed * cos(heading));
    out->vy = (float)(speed * sin(heading));
    if (gen->scene->transformed) {
        double f1 = 0.4 + 1.2 * bench_rng_uniform(r), f2 = 0.4 + 1.2 * bench_rng_uniform(r);
        transform_shape(out, out->is_polygon ? 3 + (int)(u_count * 6.0) : 0, radius, f1, out->is_polygon ? f2 : f1);
        gen->next++;
        return true;
    }
    if (out->is_polygon) {
        int n = 3 + (int)(u_count * 6.0);
        if (n > 8) {
            n = 8;
        }
        out->count = n;
        for (int k = 0; k < n; ++k) {
            double a = angle + BENCH_TWO_PI * (double)k / (double)n;
            double lx = radius * cos(a), ly = radius * sin(a);
            out->local[k][0] = (float)lx;
            out->local[k][1] = (float)ly;
            out->world[k][0] = (float)((double)out->x + lx);
            out->world[k][1] = (float)((double)out->y + ly);
        }
    }
    gen->next++;
    return true;
}

/* ---- rays ------------------------------------------------------------------------------------ */

void bench_rays_begin(bench_ray_gen *gen, const bench_scene *scene, bool warmup) {
    gen->scene = scene;
    gen->rng = bench_rng_make(BENCH_SEED, scene->salt * 4u + (warmup ? 2u : 1u));
}

void bench_rays_next(bench_ray_gen *gen, bench_ray *out, int64_t count) {
    const double side = gen->scene->side, half = 0.5 * side;
    for (int64_t i = 0; i < count; ++i) {
        double ux = bench_rng_uniform(&gen->rng);
        double uy = bench_rng_uniform(&gen->rng);
        double ua = bench_rng_uniform(&gen->rng);
        double a = BENCH_TWO_PI * ua;
        double length = gen->scene->transformed ? 50.0 + 250.0 * bench_rng_uniform(&gen->rng) : BENCH_RAY_LENGTH;
        out[i].ox = (float)(-half + side * ux);
        out[i].oy = (float)(-half + side * uy);
        out[i].dx = (float)(length * cos(a));
        out[i].dy = (float)(length * sin(a));
    }
}

/* ---- bullets --------------------------------------------------------------------------------- */

int64_t bench_bullets_make(const bench_scene *scene, bench_bullet *out) {
    bench_inside_index *ix = bench_inside_build(scene);
    if (!ix) {
        return -1;
    }
    /* the fourth stream of the scene's salt (shapes use 0, rays 1, warm-up rays 2) */
    bench_rng rng = bench_rng_make(BENCH_SEED, scene->salt * 4u + 3u);
    const double side = scene->side, half = 0.5 * side;
    int64_t redrawn = 0;
    for (int32_t i = 0; i < scene->bullets; ++i) {
        for (;;) {
            double ux = bench_rng_uniform(&rng);
            double uy = bench_rng_uniform(&rng);
            double ua = bench_rng_uniform(&rng);
            double a = BENCH_TWO_PI * ua;
            out[i].x = (float)(-half + side * ux);
            out[i].y = (float)(-half + side * uy);
            out[i].vx = (float)(scene->bullet_speed * cos(a));
            out[i].vy = (float)(scene->bullet_speed * sin(a));
            if (bench_inside_find(ix, out[i].x, out[i].y) < 0) {
                break;
            }
            ++redrawn;
        }
    }
    bench_inside_destroy(ix);
    return redrawn;
}

/* ---- strict inside tests --------------------------------------------------------------------- */

/* A dense bin grid of cell 12 (the largest shape diameter): each shape is listed in every cell
 * its box touches, so a point needs only its own cell. */
struct bench_inside_index {
    double x0, y0, cell;
    int32_t nx, ny;
    int32_t *start; /* nx * ny + 1 */
    int32_t *items; /* shape indices */
    bench_shape *shapes;
    int32_t shape_count;
};

static void inside_cell_range(const bench_inside_index *ix, const bench_shape *s, int32_t r[4]) {
    double rad = (double)s->radius + 1e-3;
    int32_t x0 = (int32_t)floor(((double)s->x - rad - ix->x0) / ix->cell);
    int32_t x1 = (int32_t)floor(((double)s->x + rad - ix->x0) / ix->cell);
    int32_t y0 = (int32_t)floor(((double)s->y - rad - ix->y0) / ix->cell);
    int32_t y1 = (int32_t)floor(((double)s->y + rad - ix->y0) / ix->cell);
    r[0] = x0 < 0 ? 0 : x0;
    r[1] = x1 >= ix->nx ? ix->nx - 1 : x1;
    r[2] = y0 < 0 ? 0 : y0;
    r[3] = y1 >= ix->ny ? ix->ny - 1 : y1;
}

bench_inside_index *bench_inside_build(const bench_scene *scene) {
    bench_inside_index *ix = calloc(1, sizeof *ix);
    if (!ix) {
        return NULL;
    }
    ix->cell = 12.0;
    ix->x0 = -0.5 * scene->side - 12.0;
    ix->y0 = ix->x0;
    ix->nx = (int32_t)ceil((scene->side + 24.0) / ix->cell) + 1;
    ix->ny = ix->nx;
    ix->shape_count = scene->shape_count;
    ix->shapes = malloc(sizeof(bench_shape) * (size_t)scene->shape_count);
    ix->start = calloc((size_t)ix->nx * (size_t)ix->ny + 1, sizeof(int32_t));
    if (!ix->shapes || !ix->start) {
        bench_inside_destroy(ix);
        return NULL;
    }
    bench_shape_gen gen;
    bench_shapes_begin(&gen, scene);
    int32_t n = 0;
    while (bench_shapes_next(&gen, &ix->shapes[n])) {
        ++n;
    }
    int64_t total = 0;
    for (int32_t i = 0; i < n; ++i) {
        int32_t r[4];
        inside_cell_range(ix, &ix->shapes[i], r);
        for (int32_t y = r[2]; y <= r[3]; ++y) {
            for (int32_t x = r[0]; x <= r[1]; ++x) {
                ix->start[(size_t)y * (size_t)ix->nx + (size_t)x + 1]++;
                total++;
            }
        }
    }
    size_t cells = (size_t)ix->nx * (size_t)ix->ny;
    for (size_t c = 0; c < cells; ++c) {
        ix->start[c + 1] += ix->start[c];
    }
    ix->items = malloc(sizeof(int32_t) * (size_t)(total > 0 ? total : 1));
    int32_t *fill = malloc(sizeof(int32_t) * cells);
    if (!ix->items || !fill) {
        free(fill);
        bench_inside_destroy(ix);
        return NULL;
    }
    memcpy(fill, ix->start, sizeof(int32_t) * cells);
    for (int32_t i = 0; i < n; ++i) {
        int32_t r[4];
        inside_cell_range(ix, &ix->shapes[i], r);
        for (int32_t y = r[2]; y <= r[3]; ++y) {
            for (int32_t x = r[0]; x <= r[1]; ++x) {
                ix->items[fill[(size_t)y * (size_t)ix->nx + (size_t)x]++] = i;
            }
        }
    }
    free(fill);
    return ix;
}

static bool inside_shape(const bench_shape *s, double px, double py) {
    if (!s->is_polygon) {
        double dx = px - (double)s->x, dy = py - (double)s->y, r = (double)s->radius;
        return dx * dx + dy * dy < r * r;
    }
    for (int k = 0; k < s->count; ++k) {
        int j = (k + 1) % s->count;
        double ax = s->world[k][0], ay = s->world[k][1];
        double bx = s->world[j][0], by = s->world[j][1];
        double cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        if (!(cross > 0.0)) {
            return false;
        }
    }
    return true;
}

int32_t bench_inside_find(const bench_inside_index *ix, float x, float y) {
    return bench_inside_find_d(ix, (double)x, (double)y);
}

int32_t bench_inside_find_d(const bench_inside_index *ix, double x, double y) {
    if (!(fabs(x) < 1e9 && fabs(y) < 1e9)) {
        return -1;
    }
    int32_t cx = (int32_t)floor((x - ix->x0) / ix->cell);
    int32_t cy = (int32_t)floor((y - ix->y0) / ix->cell);
    if (cx < 0 || cy < 0 || cx >= ix->nx || cy >= ix->ny) {
        return -1;
    }
    size_t c = (size_t)cy * (size_t)ix->nx + (size_t)cx;
    for (int32_t k = ix->start[c]; k < ix->start[c + 1]; ++k) {
        const bench_shape *s = &ix->shapes[ix->items[k]];
        if (inside_shape(s, x, y)) {
            return s->index;
        }
    }
    return -1;
}

void bench_inside_destroy(bench_inside_index *ix) {
    if (!ix) {
        return;
    }
    free(ix->shapes);
    free(ix->start);
    free(ix->items);
    free(ix);
}

/* Entry and exit fractions of the ray through one shape (clipped to [0, 1]); false on a miss. */
static bool exact_clip(const bench_shape *s, double px, double py, double dx, double dy, double *t_in, double *t_out) {
    double lo = 0.0, hi = 1.0;
    if (!s->is_polygon) {
        double mx = px - (double)s->x, my = py - (double)s->y, r = (double)s->radius;
        double a = dx * dx + dy * dy, b = 2.0 * (mx * dx + my * dy), c = mx * mx + my * my - r * r;
        double disc = b * b - 4.0 * a * c;
        if (a == 0.0 || disc < 0.0) {
            return false;
        }
        double q = sqrt(disc);
        double t0 = (-b - q) / (2.0 * a), t1 = (-b + q) / (2.0 * a);
        lo = t0 > 0.0 ? t0 : 0.0;
        hi = t1 < 1.0 ? t1 : 1.0;
    } else {
        for (int k = 0; k < s->count; ++k) {
            int j = (k + 1) % s->count;
            double ax = s->world[k][0], ay = s->world[k][1];
            double ex = (double)s->world[j][0] - ax, ey = (double)s->world[j][1] - ay;
            double nx = ey, ny = -ex; /* outward for counter-clockwise */
            double num = nx * (ax - px) + ny * (ay - py);
            double den = nx * dx + ny * dy;
            if (den == 0.0) {
                if (num < 0.0) {
                    return false;
                }
            } else if (den < 0.0) {
                double t = num / den;
                lo = t > lo ? t : lo;
            } else {
                double t = num / den;
                hi = t < hi ? t : hi;
            }
        }
    }
    if (lo > hi) {
        return false;
    }
    *t_in = lo;
    *t_out = hi;
    return true;
}

double bench_exact_cast(const bench_inside_index *ix, const bench_ray *ray, int32_t *shape, double *chord) {
    double px = ray->ox, py = ray->oy, dx = ray->dx, dy = ray->dy;
    double best = -1.0, best_out = 0.0;
    int32_t who = -1;
    for (int32_t i = 0; i < ix->shape_count; ++i) {
        double t_in, t_out;
        if (exact_clip(&ix->shapes[i], px, py, dx, dy, &t_in, &t_out) && (who < 0 || t_in < best)) {
            best = t_in;
            best_out = t_out;
            who = i;
        }
    }
    *shape = who;
    *chord = who >= 0 ? (best_out - best) * sqrt(dx * dx + dy * dy) : 0.0;
    return best;
}

static double point_segment_distance(double px, double py, double ax, double ay, double bx, double by) {
    double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
    double u = l2 > 0.0 ? ((px - ax) * ex + (py - ay) * ey) / l2 : 0.0;
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    return hypot(px - (ax + u * ex), py - (ay + u * ey));
}

/* Distance between two segments that do not cross. */
static double segment_segment_distance(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                                       double dy) {
    double d = point_segment_distance(ax, ay, cx, cy, dx, dy);
    double e = point_segment_distance(bx, by, cx, cy, dx, dy);
    double f = point_segment_distance(cx, cy, ax, ay, bx, by);
    double g = point_segment_distance(dx, dy, ax, ay, bx, by);
    double m = d < e ? d : e;
    m = f < m ? f : m;
    return g < m ? g : m;
}

bool bench_exact_shape(const bench_inside_index *ix, const bench_ray *ray, int32_t shape, double *t, double *chord,
                       double *gap) {
    if (shape < 0 || shape >= ix->shape_count) {
        return false;
    }
    const bench_shape *s = &ix->shapes[shape];
    double px = ray->ox, py = ray->oy, dx = ray->dx, dy = ray->dy;
    double t_in, t_out;
    if (exact_clip(s, px, py, dx, dy, &t_in, &t_out)) {
        *t = t_in;
        *chord = (t_out - t_in) * sqrt(dx * dx + dy * dy);
        *gap = 0.0;
        return true;
    }
    double ex = px + dx, ey = py + dy;
    if (!s->is_polygon) {
        *gap = point_segment_distance(s->x, s->y, px, py, ex, ey) - (double)s->radius;
    } else {
        double m = INFINITY;
        for (int k = 0; k < s->count; ++k) {
            int j = (k + 1) % s->count;
            double d = segment_segment_distance(px, py, ex, ey, s->world[k][0], s->world[k][1], s->world[j][0],
                                                s->world[j][1]);
            m = d < m ? d : m;
        }
        *gap = m;
    }
    return false;
}

/* ---- exact bullets ----------------------------------------------------------------------------- */

/* Where the segment p + t d, 0 <= t <= 1, enters the shape from outside: t and the outward
 * normal there. False on a miss or when p is not outside the shape. */
static bool exact_enter(const bench_shape *s, double px, double py, double dx, double dy, double *t, double *nx,
                        double *ny) {
    if (!s->is_polygon) {
        double mx = px - (double)s->x, my = py - (double)s->y, r = (double)s->radius;
        double a = dx * dx + dy * dy, b = 2.0 * (mx * dx + my * dy), c = mx * mx + my * my - r * r;
        double disc = b * b - 4.0 * a * c;
        if (a == 0.0 || c <= 0.0 || b >= 0.0 || disc < 0.0) {
            return false;
        }
        double t0 = (-b - sqrt(disc)) / (2.0 * a);
        if (t0 < 0.0 || t0 > 1.0) {
            return false;
        }
        *t = t0;
        *nx = (mx + t0 * dx) / r;
        *ny = (my + t0 * dy) / r;
        return true;
    }
    double lo = 0.0, hi = 1.0;
    int enter = -1;
    for (int k = 0; k < s->count; ++k) {
        int j = (k + 1) % s->count;
        double ax = s->world[k][0], ay = s->world[k][1];
        double ex = (double)s->world[j][0] - ax, ey = (double)s->world[j][1] - ay;
        double nx0 = ey, ny0 = -ex; /* outward for counter-clockwise */
        double num = nx0 * (ax - px) + ny0 * (ay - py);
        double den = nx0 * dx + ny0 * dy;
        if (den == 0.0) {
            if (num < 0.0) {
                return false;
            }
        } else if (den < 0.0) {
            double tk = num / den;
            if (enter < 0 || tk > lo) {
                lo = tk;
                enter = k;
            }
        } else {
            double tk = num / den;
            hi = tk < hi ? tk : hi;
        }
    }
    /* entering after t = 0 only when p is outside; before leaving and before t = 1 */
    if (enter < 0 || !(lo > 0.0) || lo > hi) {
        return false;
    }
    int j = (enter + 1) % s->count;
    double ex = (double)s->world[j][0] - (double)s->world[enter][0];
    double ey = (double)s->world[j][1] - (double)s->world[enter][1];
    double len = sqrt(ex * ex + ey * ey);
    *t = lo;
    *nx = ey / len;
    *ny = -ex / len;
    return true;
}

int32_t bench_exact_bullet_step(const bench_inside_index *ix, double *x, double *y, double *vx, double *vy, double dt,
                                int32_t max_bounces, int32_t *last_shape) {
    double remaining = dt;
    int32_t bounces = 0, skip = *last_shape;
    for (;;) {
        double dx = *vx * remaining, dy = *vy * remaining;
        double bx0 = *x < *x + dx ? *x : *x + dx, bx1 = *x < *x + dx ? *x + dx : *x;
        double by0 = *y < *y + dy ? *y : *y + dy, by1 = *y < *y + dy ? *y + dy : *y;
        int32_t cx0 = (int32_t)floor((bx0 - ix->x0) / ix->cell), cx1 = (int32_t)floor((bx1 - ix->x0) / ix->cell);
        int32_t cy0 = (int32_t)floor((by0 - ix->y0) / ix->cell), cy1 = (int32_t)floor((by1 - ix->y0) / ix->cell);
        cx0 = cx0 < 0 ? 0 : cx0;
        cy0 = cy0 < 0 ? 0 : cy0;
        cx1 = cx1 >= ix->nx ? ix->nx - 1 : cx1;
        cy1 = cy1 >= ix->ny ? ix->ny - 1 : cy1;
        double best = 2.0, nx = 0.0, ny = 0.0;
        int32_t who = -1;
        for (int32_t cy = cy0; cy <= cy1; ++cy) {
            for (int32_t cx = cx0; cx <= cx1; ++cx) {
                size_t c = (size_t)cy * (size_t)ix->nx + (size_t)cx;
                for (int32_t k = ix->start[c]; k < ix->start[c + 1]; ++k) {
                    int32_t i = ix->items[k];
                    double t, mx, my;
                    if (i != skip && exact_enter(&ix->shapes[i], *x, *y, dx, dy, &t, &mx, &my) &&
                        (t < best || (t == best && i < who))) {
                        best = t;
                        who = i;
                        nx = mx;
                        ny = my;
                    }
                }
            }
        }
        if (who < 0) {
            *x += dx;
            *y += dy;
            *last_shape = -1;
            break;
        }
        if (bounces == max_bounces) {
            /* stopped for the rest of the step, a hair short of the contact: the next step
               meets the shape at once and bounces */
            double stop = best - 1e-9 > 0.0 ? best - 1e-9 : 0.0;
            *x += stop * dx;
            *y += stop * dy;
            *last_shape = -1;
            break;
        }
        *x += best * dx;
        *y += best * dy;
        remaining *= 1.0 - best;
        *last_shape = skip = who;
        double vn = *vx * nx + *vy * ny;
        *vx -= 2.0 * vn * nx;
        *vy -= 2.0 * vn * ny;
        ++bounces;
    }
    return bounces;
}
