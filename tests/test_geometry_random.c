/* Randomized comparisons of the geometry module against the independent double-precision
 * reference in tests/support/reference.c.
 *
 * Every comparison runs in three scenes (a loop test over SCENES): shapes about a unit in size
 * near the origin, shapes of a few units about 1e4 from the origin, and shapes about 1e-3 in
 * size. Inputs are drawn as floats from fixed seeds (splitmix64), so every run sees the same
 * cases; the reference works in double on exactly those floats.
 *
 * Tolerances are relative to the scene: S is the largest |coordinate| of the case (what float
 * rounding of absolute positions is relative to) and Lx the extent of the case measured from the
 * ray's origin (what rounding of differences is relative to). A position may be off by
 * k (TOL_ABS * eps * S + TOL_REL * eps * Lx / c), where c is the cosine of the angle at which the
 * ray meets the surface (the conditioning of a crossing) and k is 1 for plain crossings and 8 for
 * round shapes (a normal there is a difference of vectors up to Lx long, scaled to unit length);
 * a fraction t is computed from differences, so S enters its tolerance only as 2 eps S. The
 * worst error seen, as a fraction of its tolerance, is printed with each closing line
 * (RC_TEST_VERBOSE=1 prints it per quantity). A case is skipped, counted and
 * reported, only when a quantity that decides the answer (a distance to a boundary, a vertex
 * near the ray's line, a near-parallel edge, a grazing sweep) lies within BAND of its boundary;
 * the band is far wider than the library's own tolerances (4 float epsilons relative) and far
 * narrower than the shapes. Each test prints how many cases it compared and skipped.
 *
 * random_vertex_hits builds rays that pass exactly through a vertex (in float arithmetic) to
 * check geometry.h's vertex rule, which random rays never exercise. */
#include "shapes/shapes.h"
#include "support/reference.h"
#include "support/testing.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS ((double)FLT_EPSILON)
#define TWO_PI 6.283185307179586

enum { CASES = 2000 };

/* band of a decision boundary, and tolerance of a position, in float epsilons */
static const double BAND_ABS = 16.0, BAND_REL = 64.0;
static const double TOL_ABS = 8.0, TOL_REL = 16.0;
/* unit normals are computed from float edges: a few epsilons (times scales.k) */
static const double TOL_NORMAL = 1.0e-6;
/* a near-parallel ray and edge: below this |sin| the crossing itself is ill-conditioned */
static const double PARALLEL_BAND = 1.0e-4;

typedef struct scene {
    const char *name;
    double offset; /* distance of the shapes from the origin */
    double size;   /* typical size of a shape */
    uint64_t seed;
} scene;

static const scene SCENES[] = {
    {"unit", 0.0, 1.0, 0x5eed0001u},
    {"offset 1e4", 1.0e4, 2.0, 0x5eed0002u},
    {"size 1e-3", 0.0, 1.0e-3, 0x5eed0003u},
};
enum { SCENE_COUNT = sizeof SCENES / sizeof SCENES[0] };

/* ---- inputs ---------------------------------------------------------------------------------- */

static ref_v2 scene_center(ref_rng *rng, const scene *sc) {
    if (sc->offset > 0.0) {
        double sx = ref_rng_bool(rng) ? 1.0 : -1.0, sy = ref_rng_bool(rng) ? 1.0 : -1.0;
        return ref_v(sx * sc->offset + ref_rng_uniform(rng, -50.0, 50.0) * sc->size,
                     sy * sc->offset + ref_rng_uniform(rng, -50.0, 50.0) * sc->size);
    }
    return ref_v(ref_rng_uniform(rng, -3.0, 3.0) * sc->size, ref_rng_uniform(rng, -3.0, 3.0) * sc->size);
}

static double scene_size(ref_rng *rng, const scene *sc) { return sc->size * ref_rng_uniform(rng, 0.5, 2.0); }

static rc_vec2 rand_point(ref_rng *rng, ref_v2 c, double radius) { return ref_to_float(ref_rng_disk(rng, c, radius)); }

static rc_vec2 rand_translation(ref_rng *rng, double lo, double hi) {
    double a = ref_rng_uniform(rng, 0.0, TWO_PI), l = ref_rng_uniform(rng, lo, hi);
    return ref_to_float(ref_v(l * cos(a), l * sin(a)));
}

/* A polygon: convex (3..8 vertices) or star-shaped (5..12), either winding, by kind % 4. */
static int rand_polygon(ref_rng *rng, ref_v2 c, double L, int kind, rc_vec2 *v) {
    bool ccw = (kind & 1) == 0;
    if ((kind & 2) == 0) {
        int n = ref_rng_int(rng, 3, 8);
        ref_random_convex(rng, c, L, n, ccw, v);
        return n;
    }
    int n = ref_rng_int(rng, 5, 12);
    ref_random_star(rng, c, L, n, ccw, v);
    return n;
}

/* A convex polygon built by rc_make_polygon (either winding given to it). */
static rc_polygon rand_made_polygon(ref_rng *rng, ref_v2 c, double L) {
    rc_vec2 v[RC_MAX_POLYGON_VERTICES];
    int n = ref_rng_int(rng, 3, RC_MAX_POLYGON_VERTICES);
    ref_random_convex(rng, c, L, n, ref_rng_bool(rng), v);
    rc_polygon p;
    rc_polygon_error e = rc_make_polygon(v, n, &p);
    ck_assert_msg(e == RC_POLYGON_OK, "rc_make_polygon refused a random convex polygon: %s",
                  rc_polygon_error_string(e));
    return p;
}

static void fmt_points(char *buf, size_t size, const rc_vec2 *v, int n) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; ++i) {
        int w = snprintf(buf + used, size - used, "%s{%a,%a}", i ? "," : "", (double)v[i].x, (double)v[i].y);
        if (w < 0) {
            break;
        }
        used += (size_t)w;
    }
}

/* ---- scales ---------------------------------------------------------------------------------- */

typedef struct scales {
    double S;  /* largest |coordinate| */
    double Lx; /* extent about the first point */
    double k;  /* tolerance factor of the function under test (1: a few roundings deep) */
} scales;

static void scales_add(scales *s, ref_v2 origin, ref_v2 p) {
    s->S = fmax(s->S, fmax(fabs(p.x), fabs(p.y)));
    s->Lx = fmax(s->Lx, ref_dist(origin, p));
}

static scales scales_of(ref_v2 origin, const rc_vec2 *v, int n, const ref_v2 *extra, int nextra) {
    scales s = {0.0, 0.0, 1.0};
    scales_add(&s, origin, origin);
    for (int i = 0; i < n; ++i) {
        scales_add(&s, origin, ref_from(v[i]));
    }
    for (int i = 0; i < nextra; ++i) {
        scales_add(&s, origin, extra[i]);
    }
    return s;
}

static double band_of(scales s) { return BAND_ABS * EPS * s.S + BAND_REL * EPS * s.Lx; }
/* tolerance on a position along a ray that meets a surface at cosine c */
static double tol_of(scales s, double c) { return s.k * (TOL_ABS * EPS * s.S + TOL_REL * EPS * s.Lx / fmax(c, 1e-3)); }
static double tol_plain(scales s) { return tol_of(s, 1.0); }
/* A fraction t of a translation is computed from differences of nearby floats, so its error is
   relative to the extent of the case, not to its distance from the origin. */
static double tol_along(scales s, double c) { return s.k * (2.0 * EPS * s.S + TOL_REL * EPS * s.Lx / fmax(c, 1e-3)); }

static double vec_err(rc_vec2 got, ref_v2 want) { return ref_dist(ref_from(got), want); }

static bool is_unit(rc_vec2 n) { return fabs(sqrt((double)n.x * n.x + (double)n.y * n.y) - 1.0) <= 1e-6; }

/* Compare a ray hit with the reference; c is the conditioning cosine. */
static void compare_hit(rc_tally *t, bool got, const rc_ray_hit *h, ref_hit r, ref_v2 D, scales s) {
    if (!rc_tally_check(t, got == r.hit, "hit %d, reference %d (reference t %.9g, started_inside %d)", got, r.hit,
                        r.t, r.started_inside)) {
        return;
    }
    if (!got) {
        return;
    }
    double dl = ref_len(D);
    double c = fabs(ref_dot(r.normal, D)) / dl;
    double tol = tol_of(s, c);
    rc_tally_check(t, h->started_inside == r.started_inside, "started_inside %d, reference %d", h->started_inside,
                   r.started_inside);
    rc_tally_near(t, "t * |translation|", h->t * dl, r.t * dl, tol_along(s, c));
    rc_tally_check(t, h->t >= 0.0f && h->t <= 1.0f, "t = %.9g outside [0, 1]", (double)h->t);
    rc_tally_near(t, "|point - reference|", vec_err(h->point, r.point), 0.0, tol + 4.0 * EPS * s.S);
    rc_tally_near(t, "|normal - reference|", vec_err(h->normal, r.normal), 0.0, s.k * TOL_NORMAL);
    rc_tally_check(t, is_unit(h->normal), "normal (%.9g, %.9g) not unit", (double)h->normal.x, (double)h->normal.y);
    rc_tally_check(t, ref_dot(ref_from(h->normal), D) <= 1e-6 * dl, "normal (%.9g, %.9g) not against the ray",
                   (double)h->normal.x, (double)h->normal.y);
    rc_tally_check(t, rc_shape_id_is_null(h->shape) && rc_body_id_is_null(h->body), "shape / body not null ids");
}

static void tally_name(rc_tally *t, const char *fn, int scene_index) {
    char name[96];
    snprintf(name, sizeof name, "%s [%s]", fn, SCENES[scene_index].name);
    rc_tally_init(t, name);
}

static rc_ray_hit poisoned_hit(void) {
    rc_ray_hit h;
    memset(&h, 0x7f, sizeof h);
    return h;
}

/* ---- rays ------------------------------------------------------------------------------------ */

START_TEST(random_ray_segment) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_ray_segment", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x100);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 ab[2] = {rand_point(&rng, c, L), rand_point(&rng, c, L)};
        rc_vec2 o = rand_point(&rng, c, 2.5 * L);
        rc_vec2 d = rand_translation(&rng, 0.2 * L, 4.0 * L);
        rc_tally_begin(&t, "o={%a,%a} d={%a,%a} a={%a,%a} b={%a,%a}", o.x, o.y, d.x, d.y, ab[0].x, ab[0].y, ab[1].x,
                       ab[1].y);
        ref_v2 O = ref_from(o), D = ref_from(d), A = ref_from(ab[0]), B = ref_from(ab[1]), E = ref_add(O, D);
        double sn;
        ref_hit r = ref_ray_segment(O, D, A, B, &sn);
        scales s = scales_of(O, ab, 2, &E, 1);
        double margin = fmin(fmin(ref_line_distance(O, A, B), ref_line_distance(E, A, B)),
                             fmin(ref_line_distance(A, O, E), ref_line_distance(B, O, E)));
        if (sn < PARALLEL_BAND || margin < band_of(s)) {
            rc_tally_skip(&t);
            continue;
        }
        rc_ray_hit h = poisoned_hit();
        bool got = rc_ray_segment(o, d, ab[0], ab[1], &h);
        /* for a segment the conditioning is |sin| of the crossing angle */
        if (got && r.hit) {
            r.normal = ref_unit(r.normal);
        }
        compare_hit(&t, got, &h, r, D, s);
        rc_tally_check(&t, rc_ray_segment(o, d, ab[0], ab[1], NULL) == got, "answer changes with hit == NULL");
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

/* Margins shared by the polygon rays: the origin and the end against the boundary, every vertex
 * against the ray's line, every edge against the ray's direction. */
static bool polygon_ray_grazes(ref_v2 O, ref_v2 D, const rc_vec2 *v, int n, double band) {
    ref_v2 E = ref_add(O, D);
    if (ref_boundary_distance(O, v, n) < band || ref_boundary_distance(E, v, n) < band) {
        return true;
    }
    for (int i = 0; i < n; ++i) {
        if (ref_line_distance(ref_from(v[i]), O, E) < band) {
            return true;
        }
        ref_v2 e = ref_sub(ref_from(v[(i + 1) % n]), ref_from(v[i]));
        if (fabs(ref_cross(e, D)) < PARALLEL_BAND * ref_len(e) * ref_len(D)) {
            return true;
        }
    }
    return false;
}

START_TEST(random_ray_polygon) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_ray_polygon (convex and star, both windings)", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x200);
    long inside = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 v[16];
        int n = rand_polygon(&rng, c, L, k, v);
        rc_vec2 o = rand_point(&rng, c, ref_rng_uniform(&rng, 0.0, 1.0) < 0.3 ? 0.6 * L : 2.5 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 4.0 * L);
        char pts[640];
        fmt_points(pts, sizeof pts, v, n);
        rc_tally_begin(&t, "o={%a,%a} d={%a,%a} n=%d v={%s}", o.x, o.y, d.x, d.y, n, pts);
        ref_v2 O = ref_from(o), D = ref_from(d), E = ref_add(O, D);
        scales s = scales_of(O, v, n, &E, 1);
        if (polygon_ray_grazes(O, D, v, n, band_of(s))) {
            rc_tally_skip(&t);
            continue;
        }
        ref_hit r = ref_ray_polygon(O, D, v, n);
        inside += r.started_inside;
        rc_ray_hit h = poisoned_hit();
        bool got = rc_ray_polygon(o, d, v, n, &h);
        compare_hit(&t, got, &h, r, D, s);
        rc_tally_check(&t, rc_ray_polygon(o, d, v, n, NULL) == got, "answer changes with hit == NULL");
        rc_tally_end(&t);
    }
    ck_assert_msg(inside > CASES / 10, "too few rays started inside (%ld) to test that rule", inside);
    rc_tally_finish(&t);
}
END_TEST

START_TEST(random_ray_cast_polygon) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_ray_cast_polygon", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x300);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_polygon p = rand_made_polygon(&rng, c, L);
        rc_vec2 o = rand_point(&rng, c, ref_rng_uniform(&rng, 0.0, 1.0) < 0.3 ? 0.6 * L : 2.5 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 4.0 * L);
        char pts[640];
        fmt_points(pts, sizeof pts, p.vertices, p.count);
        rc_tally_begin(&t, "o={%a,%a} d={%a,%a} polygon (made) n=%d v={%s}", o.x, o.y, d.x, d.y, p.count, pts);
        ref_v2 O = ref_from(o), D = ref_from(d), E = ref_add(O, D);
        scales s = scales_of(O, p.vertices, p.count, &E, 1);
        if (polygon_ray_grazes(O, D, p.vertices, p.count, band_of(s))) {
            rc_tally_skip(&t);
            continue;
        }
        ref_hit r = ref_ray_polygon(O, D, p.vertices, p.count);
        rc_ray_hit h = poisoned_hit();
        bool got = rc_ray_cast_polygon(&p, o, d, &h);
        compare_hit(&t, got, &h, r, D, s);
        rc_tally_check(&t, rc_ray_cast_polygon(&p, o, d, NULL) == got, "answer changes with hit == NULL");
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

START_TEST(random_clip_segment_convex) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_clip_segment_convex (both windings)", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x400);
    long hits = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 v[8];
        int n = ref_rng_int(&rng, 3, 8);
        ref_random_convex(&rng, c, L, n, (k & 1) == 0, v);
        rc_vec2 a = rand_point(&rng, c, ref_rng_uniform(&rng, 0.0, 1.0) < 0.3 ? 0.6 * L : 2.5 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 4.0 * L);
        rc_vec2 b = ref_to_float(ref_add(ref_from(a), ref_from(d)));
        char pts[640];
        fmt_points(pts, sizeof pts, v, n);
        rc_tally_begin(&t, "a={%a,%a} b={%a,%a} n=%d v={%s}", a.x, a.y, b.x, b.y, n, pts);
        ref_v2 A = ref_from(a), B = ref_from(b), D = ref_sub(B, A);
        scales s = scales_of(A, v, n, &B, 1);
        if (polygon_ray_grazes(A, D, v, n, band_of(s))) {
            rc_tally_skip(&t);
            continue;
        }
        ref_clip r = ref_clip_convex(A, B, v, n);
        rc_clip cl;
        memset(&cl, 0x7f, sizeof cl);
        bool got = rc_clip_segment_convex(a, b, v, n, &cl);
        hits += r.hit;
        if (rc_tally_check(&t, got == r.hit, "clipped %d, reference %d (reference %.9g..%.9g)", got, r.hit, r.t_near,
                           r.t_far) &&
            got) {
            double dl = ref_len(D);
            double cn = fabs(ref_dot(r.n_near, D)) / dl, cf = fabs(ref_dot(r.n_far, D)) / dl;
            rc_tally_near(&t, "t_near * |b - a|", cl.t_near * dl, r.t_near * dl, tol_along(s, cn));
            rc_tally_near(&t, "t_far * |b - a|", cl.t_far * dl, r.t_far * dl, tol_along(s, cf));
            rc_tally_check(&t, 0.0f <= cl.t_near && cl.t_near <= cl.t_far && cl.t_far <= 1.0f,
                           "0 <= t_near %.9g <= t_far %.9g <= 1 fails", (double)cl.t_near, (double)cl.t_far);
            rc_tally_near(&t, "|n_near - reference|", vec_err(cl.n_near, r.n_near), 0.0, TOL_NORMAL);
            rc_tally_near(&t, "|n_far - reference|", vec_err(cl.n_far, r.n_far), 0.0, TOL_NORMAL);
            rc_tally_check(&t, is_unit(cl.n_near) && is_unit(cl.n_far), "normals not unit");
        }
        rc_tally_check(&t, rc_clip_segment_convex(a, b, v, n, NULL) == got, "answer changes with clip == NULL");
        rc_tally_end(&t);
    }
    ck_assert_msg(hits > CASES / 5, "too few segments clipped (%ld)", hits);
    rc_tally_finish(&t);
}
END_TEST

/* Rays aimed exactly through a vertex (origin = vertex - d/2 exactly in float, so the ray
 * reaches the vertex at t = 1/2) and on into the polygon. geometry.h: "A ray through a vertex is
 * one hit, with the normal of the edge it meets more squarely". Cases where the two edges face
 * the ray within 1e-3 of each other are ties (either normal is right) and are skipped. */
START_TEST(random_vertex_hits) {
    const scene *sc = &SCENES[_i];
    rc_tally tp, tc;
    tally_name(&tp, "rc_ray_polygon through a vertex", _i);
    tally_name(&tc, "rc_ray_cast_polygon through a vertex", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x1100);
    int made = 0;
    for (long attempt = 0; made < CASES / 2 && attempt < 100L * CASES; ++attempt) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 v[8];
        int n = ref_rng_int(&rng, 3, 8);
        ref_random_convex(&rng, c, L, n, ref_rng_bool(&rng), v);
        int i = ref_rng_int(&rng, 0, n - 1);
        ref_v2 V = ref_from(v[i]);
        ref_v2 e1 = ref_unit(ref_sub(ref_from(v[(i + n - 1) % n]), V)), e2 = ref_unit(ref_sub(ref_from(v[(i + 1) % n]), V));
        double w = ref_rng_uniform(&rng, -0.9, 0.9); /* anywhere into the corner's wedge */
        ref_v2 into = ref_add(ref_scale(1.0 + w, e1), ref_scale(1.0 - w, e2));
        /* d/2 in whole ulps of the largest coordinate around, so that vertex - d/2 is exact */
        double big = 2.0 * (fmax(fabs(v[i].x), fabs(v[i].y)) + L);
        double q = (double)nextafterf((float)big, INFINITY) - (double)(float)big;
        ref_v2 h2 = ref_scale(0.25 * L, into);
        rc_vec2 half = ref_to_float(ref_v(q * nearbyint(h2.x / q), q * nearbyint(h2.y / q)));
        rc_vec2 o = {v[i].x - half.x, v[i].y - half.y};
        if ((double)o.x + half.x != v[i].x || (double)o.y + half.y != v[i].y) {
            continue; /* o + d/2 must be the vertex exactly */
        }
        ++made;
        rc_vec2 d = {2.0f * half.x, 2.0f * half.y};
        ref_v2 D = ref_from(d);
        ref_v2 na = ref_edge_normal(v, n, (i + n - 1) % n), nb = ref_edge_normal(v, n, i);
        double fa = ref_dot(na, D), fb = ref_dot(nb, D);
        char pts[640];
        fmt_points(pts, sizeof pts, v, n);
        rc_tally_begin(&tp, "o={%a,%a} d={%a,%a} through vertex %d of n=%d v={%s}", o.x, o.y, d.x, d.y, i, n, pts);
        if (fabs(fa - fb) < 1e-3 * fmax(fabs(fa), fabs(fb))) {
            rc_tally_skip(&tp);
            rc_tally_skip(&tc);
            continue;
        }
        ref_v2 want = fa < fb ? na : nb; /* the more negative facing meets the ray more squarely */
        scales s = scales_of(ref_from(o), v, n, NULL, 0);
        rc_ray_hit h = poisoned_hit();
        bool got = rc_ray_polygon(o, d, v, n, &h);
        if (rc_tally_check(&tp, got && !h.started_inside, "hit %d started_inside %d", got, h.started_inside)) {
            rc_tally_near(&tp, "t", h.t, 0.5, 1e-5);
            rc_tally_near(&tp, "|point - vertex|", vec_err(h.point, V), 0.0, tol_plain(s));
            rc_tally_check(&tp, vec_err(h.normal, want) <= 1e-5,
                           "normal (%.7f, %.7f) faces the ray by %.6f; the other edge's (%.7f, %.7f) by %.6f",
                           (double)h.normal.x, (double)h.normal.y, ref_dot(ref_from(h.normal), D), want.x, want.y,
                           fa < fb ? fa : fb);
        }
        rc_tally_end(&tp);

        rc_polygon p;
        ck_assert_int_eq(rc_make_polygon(v, n, &p), RC_POLYGON_OK);
        rc_tally_begin(&tc, "o={%a,%a} d={%a,%a} through vertex %d of n=%d v={%s}", o.x, o.y, d.x, d.y, i, n, pts);
        h = poisoned_hit();
        got = rc_ray_cast_polygon(&p, o, d, &h);
        if (rc_tally_check(&tc, got && !h.started_inside, "hit %d started_inside %d", got, h.started_inside)) {
            rc_tally_near(&tc, "t", h.t, 0.5, 1e-5);
            rc_tally_check(&tc, vec_err(h.normal, want) <= 1e-5,
                           "normal (%.7f, %.7f) faces the ray by %.6f; the other edge's (%.7f, %.7f) by %.6f",
                           (double)h.normal.x, (double)h.normal.y, ref_dot(ref_from(h.normal), D), want.x, want.y,
                           fa < fb ? fa : fb);
        }
        rc_tally_end(&tc);
    }
    rc_tally_report(&tp);
    rc_tally_report(&tc);
    ck_assert_msg(made == CASES / 2, "only %d rays through a vertex could be built", made);
    rc_tally_assert(&tp);
    rc_tally_assert(&tc);
}
END_TEST

START_TEST(random_ray_circle) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_ray_circle", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x500);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        rc_vec2 c = ref_to_float(scene_center(&rng, sc));
        float radius = (float)(L * ref_rng_uniform(&rng, 0.2, 1.0));
        rc_vec2 o = rand_point(&rng, ref_from(c), 3.0 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 5.0 * L);
        rc_tally_begin(&t, "o={%a,%a} d={%a,%a} c={%a,%a} r=%a", o.x, o.y, d.x, d.y, c.x, c.y, radius);
        ref_v2 O = ref_from(o), D = ref_from(d), C = ref_from(c), E = ref_add(O, D);
        scales s = scales_of(O, &c, 1, &E, 1);
        s.Lx += radius;
        s.k = 8.0; /* the normal is a difference of vectors up to Lx long scaled to unit */
        double band = band_of(s);
        if (fabs(ref_dist(O, C) - radius) < band || fabs(ref_dist(E, C) - radius) < band ||
            fabs(ref_line_distance(C, O, E) - radius) < band) {
            rc_tally_skip(&t);
            continue;
        }
        ref_hit r = ref_ray_circle(O, D, C, radius);
        rc_ray_hit h = poisoned_hit();
        bool got = rc_ray_circle(o, d, c, radius, &h);
        compare_hit(&t, got, &h, r, D, s);
        rc_tally_check(&t, rc_ray_circle(o, d, c, radius, NULL) == got, "answer changes with hit == NULL");
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

/* ---- point tests ----------------------------------------------------------------------------- */

START_TEST(random_point_in_convex) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_point_in_convex (both windings)", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x600);
    long inside = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 v[8];
        int n = ref_rng_int(&rng, 3, 8);
        ref_random_convex(&rng, c, L, n, (k & 1) == 0, v);
        for (int j = 0; j < 8; ++j) {
            rc_vec2 p = rand_point(&rng, c, 1.2 * L);
            char pts[640];
            fmt_points(pts, sizeof pts, v, n);
            rc_tally_begin(&t, "p={%a,%a} n=%d v={%s}", p.x, p.y, n, pts);
            ref_v2 P = ref_from(p);
            scales s = scales_of(P, v, n, NULL, 0);
            if (ref_boundary_distance(P, v, n) < band_of(s)) {
                rc_tally_skip(&t);
                continue;
            }
            bool want = ref_winding_number(P, v, n) != 0;
            inside += want;
            bool got = rc_point_in_convex(p, v, n);
            rc_tally_check(&t, got == want, "inside %d, reference %d", got, want);
            rc_tally_end(&t);
        }
    }
    ck_assert_msg(inside > CASES, "too few points inside (%ld)", inside);
    rc_tally_finish(&t);
}
END_TEST

START_TEST(random_point_in_polygon) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_point_in_polygon (convex and star)", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x700);
    long inside = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 v[16];
        int n = rand_polygon(&rng, c, L, k, v);
        for (int j = 0; j < 8; ++j) {
            rc_vec2 p = rand_point(&rng, c, 1.2 * L);
            char pts[640];
            fmt_points(pts, sizeof pts, v, n);
            rc_tally_begin(&t, "p={%a,%a} n=%d v={%s}", p.x, p.y, n, pts);
            ref_v2 P = ref_from(p);
            scales s = scales_of(P, v, n, NULL, 0);
            if (ref_boundary_distance(P, v, n) < band_of(s)) {
                rc_tally_skip(&t);
                continue;
            }
            bool want = ref_winding_number(P, v, n) != 0;
            inside += want;
            bool got = rc_point_in_polygon(p, v, n);
            rc_tally_check(&t, got == want, "inside %d, reference %d", got, want);
            rc_tally_end(&t);
        }
    }
    ck_assert_msg(inside > CASES, "too few points inside (%ld)", inside);
    rc_tally_finish(&t);
}
END_TEST

START_TEST(random_nearest_point_on_segment) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_nearest_point_on_segment", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x800);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 ab[2] = {rand_point(&rng, c, L), rand_point(&rng, c, L)};
        if (k % 16 == 0) {
            ab[1] = ab[0]; /* degenerate: the answer is a */
        }
        rc_vec2 p = rand_point(&rng, c, 2.0 * L);
        rc_tally_begin(&t, "a={%a,%a} b={%a,%a} p={%a,%a}", ab[0].x, ab[0].y, ab[1].x, ab[1].y, p.x, p.y);
        ref_v2 A = ref_from(ab[0]), B = ref_from(ab[1]), P = ref_from(p);
        scales s = scales_of(A, ab, 2, &P, 1);
        double el = ref_dist(A, B);
        rc_vec2 got = rc_nearest_point_on_segment(ab[0], ab[1], p);
        if (el == 0.0) {
            rc_tally_check(&t, rc_vec2_equal(got, ab[0]), "degenerate segment gave (%a, %a), not a", got.x, got.y);
        } else {
            /* the projection parameter carries the rounding of |p - a| |b - a| over |b - a|^2 */
            double tol = TOL_ABS * EPS * s.S + TOL_REL * EPS * s.Lx * fmax(1.0, s.Lx / el);
            rc_tally_near(&t, "|nearest - reference|", vec_err(got, ref_nearest_on_segment(A, B, P)), 0.0, tol);
            double dn = ref_segment_distance(P, A, B, NULL);
            rc_tally_check(&t, ref_dist(P, ref_from(got)) <= dn + tol, "the answer is not the nearest point");
        }
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

/* ---- swept circles --------------------------------------------------------------------------- */

START_TEST(random_circle_cast_circle) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_circle_cast_circle", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0x900);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        rc_circle shape = {ref_to_float(scene_center(&rng, sc)), (float)(L * ref_rng_uniform(&rng, 0.2, 1.0))};
        float radius = (float)(L * ref_rng_uniform(&rng, 0.05, 0.8));
        rc_vec2 o = rand_point(&rng, ref_from(shape.center), 3.0 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 5.0 * L);
        rc_tally_begin(&t, "shape c={%a,%a} R=%a, o={%a,%a} r=%a d={%a,%a}", shape.center.x, shape.center.y,
                       shape.radius, o.x, o.y, radius, d.x, d.y);
        ref_v2 O = ref_from(o), D = ref_from(d), C = ref_from(shape.center), E = ref_add(O, D);
        double reach = (double)shape.radius + (double)radius;
        scales s = scales_of(O, &shape.center, 1, &E, 1);
        s.Lx += reach;
        s.k = 8.0;
        double band = band_of(s);
        if (fabs(ref_dist(O, C) - reach) < band || fabs(ref_dist(E, C) - reach) < band ||
            fabs(ref_line_distance(C, O, E) - reach) < band) {
            rc_tally_skip(&t);
            continue;
        }
        ref_hit r = ref_ray_circle(O, D, C, reach);
        if (r.hit && !r.started_inside) {
            r.point = ref_mad(C, shape.radius, r.normal); /* where the moving circle touches the shape */
        }
        rc_ray_hit h = poisoned_hit();
        bool got = rc_circle_cast_circle(shape, o, radius, d, &h);
        compare_hit(&t, got, &h, r, D, s);
        rc_tally_check(&t, rc_circle_cast_circle(shape, o, radius, d, NULL) == got, "answer changes with hit == NULL");
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

/* A sweep against a convex set (polygon, segment n == 2, point n == 1) and both references;
 * false (and nothing compared) when the sweep starts, ends or passes within the band of grazing.
 * The function under test is called only for the cases compared. */
typedef bool (*sweep_fn)(const void *shape, rc_vec2 o, float r, rc_vec2 d, rc_ray_hit *hit);

static bool compare_sweep(rc_tally *t, sweep_fn fn, const void *shape, const rc_vec2 *v, int n, rc_vec2 o, float r,
                          rc_vec2 d, scales s, long *started, long *hits) {
    ref_v2 O = ref_from(o), D = ref_from(d), E = ref_add(O, D);
    double band = band_of(s), min_distance;
    ref_hit r2 = ref_circle_cast_bisect(v, n, O, r, D, &min_distance);
    double d0 = n >= 3 ? ref_distance_polygon(v, n, O).distance
                       : ref_segment_distance(O, ref_from(v[0]), ref_from(v[n - 1]), NULL);
    double d1 = n >= 3 ? ref_distance_polygon(v, n, E).distance
                       : ref_segment_distance(E, ref_from(v[0]), ref_from(v[n - 1]), NULL);
    if (fabs(d0 - r) < band || fabs(d1 - r) < band || fabs(min_distance - r) < band) {
        return false;
    }
    ref_hit r1 = ref_circle_cast(v, n, O, r, D);
    *started += r1.started_inside;
    rc_ray_hit hit = poisoned_hit();
    bool got = fn(shape, o, r, d, &hit);
    *hits += got;
    const rc_ray_hit *h = &hit;
    double dl = ref_len(D);
    /* the two references must agree with each other before either is trusted */
    ck_assert_msg(r1.hit == r2.hit && r1.started_inside == r2.started_inside &&
                      (!r1.hit || fabs(r1.t - r2.t) * dl <= 1e-9 * (s.S + s.Lx)),
                  "the references disagree: %d/%d t %.17g/%.17g | %s", r1.hit, r2.hit, r1.t, r2.t, t->case_inputs);
    compare_hit(t, got, h, r1, D, s);
    rc_tally_check(t, fn(shape, o, r, d, NULL) == got, "answer changes with hit == NULL");
    return true;
}

static bool sweep_polygon(const void *shape, rc_vec2 o, float r, rc_vec2 d, rc_ray_hit *hit) {
    return rc_circle_cast_polygon((const rc_polygon *)shape, o, r, d, hit);
}

static bool sweep_segment(const void *shape, rc_vec2 o, float r, rc_vec2 d, rc_ray_hit *hit) {
    const rc_vec2 *ab = (const rc_vec2 *)shape;
    return rc_circle_cast_segment(ab[0], ab[1], o, r, d, hit);
}

START_TEST(random_circle_cast_polygon) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_circle_cast_polygon", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xa00);
    long started = 0, hits = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_polygon p = rand_made_polygon(&rng, c, L);
        float radius = (float)(L * ref_rng_uniform(&rng, 0.05, 0.8));
        rc_vec2 o = rand_point(&rng, c, 3.0 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 5.0 * L);
        char pts[640];
        fmt_points(pts, sizeof pts, p.vertices, p.count);
        rc_tally_begin(&t, "o={%a,%a} r=%a d={%a,%a} polygon (made) n=%d v={%s}", o.x, o.y, radius, d.x, d.y,
                       p.count, pts);
        ref_v2 O = ref_from(o), E = ref_add(O, ref_from(d));
        scales s = scales_of(O, p.vertices, p.count, &E, 1);
        s.Lx += radius;
        s.k = 8.0;
        if (!compare_sweep(&t, sweep_polygon, &p, p.vertices, p.count, o, radius, d, s, &started, &hits)) {
            rc_tally_skip(&t);
            continue;
        }
        rc_tally_end(&t);
    }
    ck_assert_msg(started > CASES / 20 && hits > CASES / 5, "too few sweeps start inside (%ld) or hit (%ld)", started,
                  hits);
    rc_tally_finish(&t);
}
END_TEST

START_TEST(random_circle_cast_segment) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_circle_cast_segment (and points)", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xb00);
    long started = 0, hits = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 ab[2] = {rand_point(&rng, c, L), rand_point(&rng, c, L)};
        int n = 2;
        if (k % 10 == 0) {
            ab[1] = ab[0]; /* a degenerate segment is a point */
            n = 1;
        }
        float radius = (float)(L * ref_rng_uniform(&rng, 0.05, 0.8));
        rc_vec2 o = rand_point(&rng, c, 3.0 * L);
        rc_vec2 d = rand_translation(&rng, 0.1 * L, 5.0 * L);
        rc_tally_begin(&t, "a={%a,%a} b={%a,%a} o={%a,%a} r=%a d={%a,%a}", ab[0].x, ab[0].y, ab[1].x, ab[1].y, o.x,
                       o.y, radius, d.x, d.y);
        ref_v2 O = ref_from(o), E = ref_add(O, ref_from(d));
        scales s = scales_of(O, ab, 2, &E, 1);
        s.Lx += radius;
        s.k = 8.0;
        if (!compare_sweep(&t, sweep_segment, ab, ab, n, o, radius, d, s, &started, &hits)) {
            rc_tally_skip(&t);
            continue;
        }
        rc_tally_end(&t);
    }
    ck_assert_msg(started > CASES / 40 && hits > CASES / 10, "too few sweeps start inside (%ld) or hit (%ld)", started,
                  hits);
    rc_tally_finish(&t);
}
END_TEST

/* ---- distances ------------------------------------------------------------------------------- */

static void compare_distance(rc_tally *t, rc_distance_result got, ref_distance want, scales s) {
    double tol = tol_plain(s);
    rc_tally_near(t, "distance", got.distance, want.distance, tol);
    rc_tally_near(t, "|point - reference|", vec_err(got.point, want.point), 0.0, tol);
    /* outside, the normal is the direction from the point found to p: relative to the distance */
    double ntol = s.k * TOL_NORMAL + 4.0 * tol / fabs(want.distance);
    rc_tally_near(t, "|normal - reference|", vec_err(got.normal, want.normal), 0.0, ntol);
    rc_tally_check(t, is_unit(got.normal), "normal (%.9g, %.9g) not unit", (double)got.normal.x,
                   (double)got.normal.y);
}

START_TEST(random_point_distance) {
    const scene *sc = &SCENES[_i];
    rc_tally tc, ts, tp;
    tally_name(&tc, "rc_point_distance_circle", _i);
    tally_name(&ts, "rc_point_distance_segment", _i);
    tally_name(&tp, "rc_point_distance_polygon", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xc00);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_vec2 p = rand_point(&rng, c, 2.0 * L);
        ref_v2 P = ref_from(p);

        rc_circle circle = {rand_point(&rng, c, 0.5 * L), (float)(L * ref_rng_uniform(&rng, 0.1, 1.0))};
        rc_tally_begin(&tc, "c={%a,%a} r=%a p={%a,%a}", circle.center.x, circle.center.y, circle.radius, p.x, p.y);
        scales s = scales_of(P, &circle.center, 1, NULL, 0);
        s.Lx += circle.radius;
        ref_distance want = ref_distance_circle(ref_from(circle.center), circle.radius, P);
        if (fabs(want.distance) < band_of(s) || ref_dist(P, ref_from(circle.center)) < band_of(s)) {
            rc_tally_skip(&tc);
        } else {
            compare_distance(&tc, rc_point_distance_circle(circle, p), want, s);
            rc_tally_end(&tc);
        }

        rc_vec2 ab[2] = {rand_point(&rng, c, L), rand_point(&rng, c, L)};
        rc_tally_begin(&ts, "a={%a,%a} b={%a,%a} p={%a,%a}", ab[0].x, ab[0].y, ab[1].x, ab[1].y, p.x, p.y);
        s = scales_of(P, ab, 2, NULL, 0);
        want = ref_distance_segment(ref_from(ab[0]), ref_from(ab[1]), P);
        if (want.distance < band_of(s)) {
            rc_tally_skip(&ts);
        } else {
            compare_distance(&ts, rc_point_distance_segment(ab[0], ab[1], p), want, s);
            rc_tally_end(&ts);
        }

        rc_polygon poly = rand_made_polygon(&rng, c, L);
        char pts[640];
        fmt_points(pts, sizeof pts, poly.vertices, poly.count);
        rc_tally_begin(&tp, "p={%a,%a} polygon (made) n=%d v={%s}", p.x, p.y, poly.count, pts);
        s = scales_of(P, poly.vertices, poly.count, NULL, 0);
        want = ref_distance_polygon(poly.vertices, poly.count, P);
        if (fabs(want.distance) < band_of(s) || (want.distance < 0.0 && want.tie_gap < band_of(s))) {
            rc_tally_skip(&tp);
        } else {
            compare_distance(&tp, rc_point_distance_polygon(&poly, p), want, s);
            rc_tally_end(&tp);
        }
    }
    rc_tally_report(&tc);
    rc_tally_report(&ts);
    rc_tally_report(&tp);
    rc_tally_assert(&tc);
    rc_tally_assert(&ts);
    rc_tally_assert(&tp);
}
END_TEST

/* rc_view_distance_floor is below the distance (the library's and the double reference's) for
 * polygons made from random points and for the same polygons placed by a random transform
 * (whose short edges may keep their body-frame normals turned), and within twice its allowance
 * of the reference for more than a quarter of the cases (points outside facing an edge's inside:
 * a useful floor, not -inf). A worked case pins its value. */
START_TEST(random_distance_floor) {
    const scene *sc = &SCENES[_i];
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xf100);
    int compared = 0, tight = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_polygon poly = rand_made_polygon(&rng, c, L);
        rc_vec2 p = rand_point(&rng, c, 3.0 * L);
        rc_vec2 placed_v[RC_MAX_POLYGON_VERTICES], placed_n[RC_MAX_POLYGON_VERTICES], centroid;
        rc_aabb box;
        rc_transform xf = {rand_point(&rng, ref_v(0.0, 0.0), 0.1 * L),
                           rc_rot_from_angle((float)ref_rng_uniform(&rng, -3.14, 3.14))};
        rc_convex made = rc_convex_of(&poly);
        rc_place_polygon(&made, xf, placed_v, placed_n, &centroid, &box);
        for (int placed = 0; placed < 2; ++placed) {
            rc_shape_view v = {.kind = RC_SHAPE_POLYGON};
            v.u.polygon = made;
            if (placed) {
                v.u.polygon.vertices = placed_v;
                v.u.polygon.normals = placed_n;
            }
            float floor = rc_view_distance_floor(&v, p);
            float distance = rc_view_distance(&v, p).distance;
            ref_distance want = ref_distance_polygon(v.u.polygon.vertices, v.u.polygon.count, ref_from(p));
            ck_assert_msg(floor <= distance && (double)floor <= want.distance,
                          "%s: floor %.9g above the distance %.9g (reference %.17g) at p={%a,%a}", sc->name,
                          (double)floor, (double)distance, want.distance, (double)p.x, (double)p.y);
            double size = fmax(fabs(ref_from(p).x), fabs(ref_from(p).y));
            for (int i = 0; i < v.u.polygon.count; ++i) {
                size = fmax(size, fmax(fabs((double)v.u.polygon.vertices[i].x), fabs((double)v.u.polygon.vertices[i].y)));
            }
            double allowance = 1.0e-4 * (1.0 + 2.0 * size);
            if (want.distance > 0.0 && want.distance - (double)floor <= 2.0 * allowance + 1.0e-6 * size) {
                ++tight;
            }
            ++compared;
        }
    }
    printf("rc_view_distance_floor [%s]: %d compared, %d within twice the allowance\n", sc->name, compared, tight);
    /* points outside facing an edge's inside get the edge's separation: most of those outside */
    ck_assert_int_gt(tight, compared / 4);
    if (_i == 0) {
        rc_polygon square;
        rc_vec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        ck_assert_int_eq(rc_make_polygon(corners, 4, &square), RC_POLYGON_OK);
        rc_shape_view v = {.kind = RC_SHAPE_POLYGON};
        v.u.polygon = rc_convex_of(&square);
        /* 2 beyond the right edge; the allowance is 1e-4 (1 + 2 * 3) */
        ck_assert_float_eq(rc_view_distance_floor(&v, rc_v2(3.0f, 0.0f)), 2.0f - 1.0e-4f * 7.0f);
        /* inside: minus the depth to the nearest edge (0.5), less the allowance */
        ck_assert_float_eq(rc_view_distance_floor(&v, rc_v2(0.5f, 0.0f)), -0.5f - 1.0e-4f * 3.0f);
        rc_shape_view circle = {.kind = RC_SHAPE_CIRCLE};
        circle.u.circle = (rc_circle){{0.0f, 0.0f}, 1.0f};
        ck_assert(rc_view_distance_floor(&circle, rc_v2(3.0f, 0.0f)) == -INFINITY);
    }
}
END_TEST

/* ---- contact manifolds ----------------------------------------------------------------------- */

/* Reference edges are kept unless the other shape's axis is better by this fraction of the size
 * (shapes/manifold.c keeps a resting contact from flickering between two reference edges). */
static const double REFERENCE_HYSTERESIS = 1.0e-3;

/* A manifold of two convex vertex sets against the reference SAT: returns false when skipped. */
static bool compare_convex_manifold(rc_tally *t, bool got, const rc_manifold *m, const rc_vec2 *a, int na,
                                    const rc_vec2 *b, int nb, scales s, double size) {
    double sep = ref_sat_separation(a, na, b, nb, NULL);
    if (fabs(sep) < band_of(s)) {
        return false;
    }
    double tol = tol_plain(s);
    if (!rc_tally_check(t, got == (sep <= 0.0), "overlap %d, reference separation %.9g", got, sep) || !got) {
        return true;
    }
    double depth = -sep;
    ref_v2 n = ref_from(m->normal);
    rc_tally_check(t, is_unit(m->normal), "normal (%.9g, %.9g) not unit", n.x, n.y);
    /* A -> B: along the normal B's near side is within the depth of A's far side; the opposite
       direction would need nearly both widths */
    double along = ref_overlap_along(a, na, b, nb, ref_unit(n));
    rc_tally_check(t, along <= depth + REFERENCE_HYSTERESIS * size + tol,
                   "normal (%.9g, %.9g) does not separate A from B by the least depth: overlap along it %.9g, "
                   "reference depth %.9g",
                   n.x, n.y, along, depth);
    rc_tally_check(t, m->point_count == 1 || m->point_count == 2, "point_count %d", m->point_count);
    double deepest = 0.0;
    for (int i = 0; i < m->point_count && i < 2; ++i) {
        deepest = fmax(deepest, m->depths[i]);
        rc_tally_check(t, m->depths[i] >= 0.0f, "depths[%d] = %.9g < 0", i, (double)m->depths[i]);
        /* midway between the two surfaces: each surface is at most half the depth away */
        ref_v2 p = ref_from(m->points[i]);
        double da = na == 2 ? ref_segment_distance(p, ref_from(a[0]), ref_from(a[1]), NULL)
                            : fabs(ref_distance_polygon(a, na, p).distance);
        double db = fabs(ref_distance_polygon(b, nb, p).distance);
        rc_tally_check(t, da <= 0.5 * m->depths[i] + tol && db <= 0.5 * m->depths[i] + tol,
                       "points[%d] (%.9g, %.9g) is %.9g from A and %.9g from B, depth %.9g", i, p.x, p.y, da, db,
                       (double)m->depths[i]);
    }
    rc_tally_check(t, m->depth == (float)deepest, "depth %.9g is not the larger of depths[]", (double)m->depth);
    /* No contact point is deeper than the shapes overlap along the normal, and the depth is the
       least penetration, up to the reference-edge hysteresis. (It may fall short of the overlap
       along the normal when clipping to the reference edge cuts off the deepest vertex.) */
    rc_tally_check(t, m->depth <= along + tol, "depth %.9g exceeds the overlap %.9g along the normal",
                   (double)m->depth, along);
    rc_tally_near(t, "depth vs reference SAT depth", m->depth, depth, REFERENCE_HYSTERESIS * size + tol);
    return true;
}

START_TEST(random_collide_polygons) {
    const scene *sc = &SCENES[_i];
    rc_tally t, ts;
    tally_name(&t, "rc_collide_polygons", _i);
    tally_name(&ts, "rc_collide_segment_polygon", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xd00);
    long overlaps = 0;
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_polygon a = rand_made_polygon(&rng, c, L);
        rc_polygon b = rand_made_polygon(&rng, ref_rng_disk(&rng, c, 2.0 * L), scene_size(&rng, sc));
        char pa[640], pb[640];
        fmt_points(pa, sizeof pa, a.vertices, a.count);
        fmt_points(pb, sizeof pb, b.vertices, b.count);
        rc_tally_begin(&t, "A={%s} B={%s}", pa, pb);
        scales s = scales_of(ref_from(a.centroid), a.vertices, a.count, NULL, 0);
        scales sb = scales_of(ref_from(a.centroid), b.vertices, b.count, NULL, 0);
        s.S = fmax(s.S, sb.S);
        s.Lx = fmax(s.Lx, sb.Lx);
        rc_convex va = rc_convex_of(&a), vb = rc_convex_of(&b);
        double size = fmax(rc_convex_max_extent(&va), rc_convex_max_extent(&vb));
        rc_manifold m;
        memset(&m, 0x7f, sizeof m);
        bool got = rc_collide_polygons(&a, &b, &m);
        if (!compare_convex_manifold(&t, got, &m, a.vertices, a.count, b.vertices, b.count, s, size)) {
            rc_tally_skip(&t);
        } else {
            overlaps += got;
            rc_tally_check(&t, rc_collide_polygons(&a, &b, NULL) == got, "answer changes with m == NULL");
            rc_tally_end(&t);
        }

        rc_vec2 seg[2] = {rand_point(&rng, c, 1.5 * L), rand_point(&rng, c, 1.5 * L)};
        rc_tally_begin(&ts, "seg={%a,%a}..{%a,%a} B={%s}", seg[0].x, seg[0].y, seg[1].x, seg[1].y, pb);
        scales s2 = scales_of(ref_from(seg[0]), seg, 2, NULL, 0);
        sb = scales_of(ref_from(seg[0]), b.vertices, b.count, NULL, 0);
        s2.S = fmax(s2.S, sb.S);
        s2.Lx = fmax(s2.Lx, sb.Lx);
        size = fmax(ref_dist(ref_from(seg[0]), ref_from(seg[1])), rc_convex_max_extent(&vb));
        memset(&m, 0x7f, sizeof m);
        got = rc_collide_segment_polygon(seg[0], seg[1], &b, &m);
        if (!compare_convex_manifold(&ts, got, &m, seg, 2, b.vertices, b.count, s2, size)) {
            rc_tally_skip(&ts);
        } else {
            rc_tally_check(&ts, rc_collide_segment_polygon(seg[0], seg[1], &b, NULL) == got,
                           "answer changes with m == NULL");
            rc_tally_end(&ts);
        }
    }
    rc_tally_report(&t);
    rc_tally_report(&ts);
    ck_assert_msg(overlaps > CASES / 5, "too few overlapping pairs (%ld)", overlaps);
    rc_tally_assert(&t);
    rc_tally_assert(&ts);
}
END_TEST

/* A circle B against a shape A whose signed distance to B's centre is want. */
static bool compare_round_manifold(rc_tally *t, bool got, const rc_manifold *m, ref_distance want, rc_circle b,
                                   scales s) {
    double band = band_of(s);
    double sep = want.distance - b.radius;
    if (fabs(sep) < band || fabs(want.distance) < band || (want.distance < 0.0 && want.tie_gap < band)) {
        return false;
    }
    double tol = tol_plain(s);
    if (!rc_tally_check(t, got == (sep <= 0.0), "overlap %d, reference separation %.9g", got, sep) || !got) {
        return true;
    }
    /* the normal is a direction between two points want.distance apart */
    double ntol = s.k * TOL_NORMAL + 4.0 * tol / fabs(want.distance);
    rc_tally_near(t, "|normal - reference|", vec_err(m->normal, want.normal), 0.0, ntol);
    rc_tally_check(t, is_unit(m->normal), "normal not unit");
    rc_tally_check(t, m->point_count == 1, "point_count %d", m->point_count);
    rc_tally_near(t, "depth", m->depth, -sep, tol);
    rc_tally_check(t, m->depths[0] == m->depth, "depths[0] %.9g != depth %.9g", (double)m->depths[0],
                   (double)m->depth);
    ref_v2 on_b = ref_mad(ref_from(b.center), -(double)b.radius, want.normal);
    ref_v2 mid = ref_scale(0.5, ref_add(want.point, on_b));
    rc_tally_near(t, "|points[0] - midway point|", vec_err(m->points[0], mid), 0.0, tol + b.radius * ntol);
    return true;
}

START_TEST(random_collide_circles) {
    const scene *sc = &SCENES[_i];
    rc_tally tc, tp, ts;
    tally_name(&tc, "rc_collide_circles", _i);
    tally_name(&tp, "rc_collide_polygon_circle", _i);
    tally_name(&ts, "rc_collide_segment_circle", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xe00);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_circle a = {rand_point(&rng, c, 0.5 * L), (float)(L * ref_rng_uniform(&rng, 0.1, 1.0))};
        rc_circle b = {rand_point(&rng, c, 2.5 * L), (float)(L * ref_rng_uniform(&rng, 0.1, 1.0))};
        rc_manifold m;

        rc_tally_begin(&tc, "A c={%a,%a} r=%a, B c={%a,%a} r=%a", a.center.x, a.center.y, a.radius, b.center.x,
                       b.center.y, b.radius);
        scales s = scales_of(ref_from(a.center), &b.center, 1, NULL, 0);
        s.Lx += a.radius + b.radius;
        ref_distance want = ref_distance_circle(ref_from(a.center), a.radius, ref_from(b.center));
        memset(&m, 0x7f, sizeof m);
        if (!compare_round_manifold(&tc, rc_collide_circles(a, b, &m), &m, want, b, s)) {
            rc_tally_skip(&tc);
        } else {
            rc_tally_end(&tc);
        }

        rc_polygon poly = rand_made_polygon(&rng, c, L);
        char pts[640];
        fmt_points(pts, sizeof pts, poly.vertices, poly.count);
        rc_tally_begin(&tp, "A={%s}, B c={%a,%a} r=%a", pts, b.center.x, b.center.y, b.radius);
        s = scales_of(ref_from(b.center), poly.vertices, poly.count, NULL, 0);
        s.Lx += b.radius;
        want = ref_distance_polygon(poly.vertices, poly.count, ref_from(b.center));
        memset(&m, 0x7f, sizeof m);
        if (!compare_round_manifold(&tp, rc_collide_polygon_circle(&poly, b, &m), &m, want, b, s)) {
            rc_tally_skip(&tp);
        } else {
            rc_tally_end(&tp);
        }

        rc_vec2 seg[2] = {rand_point(&rng, c, L), rand_point(&rng, c, L)};
        rc_tally_begin(&ts, "seg={%a,%a}..{%a,%a}, B c={%a,%a} r=%a", seg[0].x, seg[0].y, seg[1].x, seg[1].y,
                       b.center.x, b.center.y, b.radius);
        s = scales_of(ref_from(b.center), seg, 2, NULL, 0);
        s.Lx += b.radius;
        want = ref_distance_segment(ref_from(seg[0]), ref_from(seg[1]), ref_from(b.center));
        memset(&m, 0x7f, sizeof m);
        if (!compare_round_manifold(&ts, rc_collide_segment_circle(seg[0], seg[1], b, &m), &m, want, b, s)) {
            rc_tally_skip(&ts);
        } else {
            rc_tally_end(&ts);
        }
    }
    rc_tally_report(&tc);
    rc_tally_report(&tp);
    rc_tally_report(&ts);
    rc_tally_assert(&tc);
    rc_tally_assert(&tp);
    rc_tally_assert(&ts);
}
END_TEST

/* ---- mass ------------------------------------------------------------------------------------ */

START_TEST(random_polygon_mass) {
    const scene *sc = &SCENES[_i];
    rc_tally t;
    tally_name(&t, "rc_compute_polygon_mass", _i);
    ref_rng rng = ref_rng_seed(sc->seed ^ 0xf00);
    for (int k = 0; k < CASES; ++k) {
        double L = scene_size(&rng, sc);
        ref_v2 c = scene_center(&rng, sc);
        rc_polygon p = rand_made_polygon(&rng, c, L);
        float density = (float)ref_rng_uniform(&rng, 0.1, 10.0);
        char pts[640];
        fmt_points(pts, sizeof pts, p.vertices, p.count);
        rc_tally_begin(&t, "density=%a polygon (made) n=%d v={%s}", density, p.count, pts);
        ref_mass want = ref_polygon_mass(p.vertices, p.count, density);
        rc_mass_data got = rc_compute_polygon_mass(&p, density);
        scales s = scales_of(ref_from(p.centroid), p.vertices, p.count, NULL, 0);
        rc_tally_near(&t, "area", got.area, want.area, 1e-6 * want.area);
        rc_tally_near(&t, "mass", got.mass, want.mass, 1e-6 * want.mass);
        rc_tally_near(&t, "|center - reference|", vec_err(got.center, want.center), 0.0,
                      tol_plain(s));
        /* about the float centroid, which is up to an ulp of S off the true one */
        double off = 2.0 * EPS * s.S;
        rc_tally_near(&t, "rotational_inertia", got.rotational_inertia, want.inertia,
                      1e-6 * want.inertia + 4.0 * want.mass * off * off);
        rc_tally_end(&t);
    }
    rc_tally_finish(&t);
}
END_TEST

/* ---- the reference itself ---------------------------------------------------------------------- */

/* The generators must give what they promise, or every comparison above is weaker than it looks. */
START_TEST(reference_generators) {
    ref_rng rng = ref_rng_seed(42);
    int concave = 0;
    for (int k = 0; k < 500; ++k) {
        rc_vec2 v[12];
        int n = ref_rng_int(&rng, 3, 8);
        bool ccw = ref_rng_bool(&rng);
        ref_random_convex(&rng, ref_v(1e4, -1e4), 2.0, n, ccw, v);
        ck_assert((ref_signed_area2(v, n) > 0.0) == ccw);
        rc_polygon p;
        ck_assert_int_eq(rc_make_polygon(v, n, &p), RC_POLYGON_OK);
        ck_assert_int_eq(p.count, n);
        n = ref_rng_int(&rng, 5, 12);
        ref_random_star(&rng, ref_v(0, 0), 1.0, n, ccw, v);
        ck_assert((ref_signed_area2(v, n) > 0.0) == ccw);
        concave += rc_make_polygon(v, n > 8 ? 8 : n, &p) == RC_POLYGON_NOT_CONVEX;
    }
    ck_assert_int_gt(concave, 250);
    /* the reference answers a worked case: unit square, ray from (-1, 0.5) along +x */
    rc_vec2 sq[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    ref_hit h = ref_ray_polygon(ref_v(-1, 0.5), ref_v(2, 0), sq, 4);
    ck_assert(h.hit && h.t == 0.5 && h.normal.x == -1.0 && h.normal.y == 0.0);
    h = ref_ray_polygon(ref_v(0.5, 0.5), ref_v(2, 0), sq, 4);
    ck_assert(h.hit && h.started_inside && h.normal.x == -1.0);
    ref_mass m = ref_polygon_mass(sq, 4, 1.0);
    ck_assert(fabs(m.area - 1.0) < 1e-15 && fabs(m.inertia - 1.0 / 6.0) < 1e-15);
    ck_assert(fabs(m.center.x - 0.5) < 1e-15 && fabs(m.center.y - 0.5) < 1e-15);
    h = ref_circle_cast(sq, 4, ref_v(-2, 0.5), 0.5, ref_v(4, 0));
    ck_assert(h.hit && fabs(h.t - 0.375) < 1e-15 && h.point.x == 0.0 && h.normal.x == -1.0);
    h = ref_circle_cast_bisect(sq, 4, ref_v(-2, 0.5), 0.5, ref_v(4, 0), NULL);
    ck_assert(h.hit && fabs(h.t - 0.375) < 1e-12);
    ck_assert(fabs(ref_sat_separation(sq, 4, sq, 4, NULL) + 1.0) < 1e-15);
}
END_TEST

/* The normal rc_place_polygon gives a placed edge a..b, worked out as its documentation says
 * (shapes/place.c): the edge turned a quarter and divided by its length in double where that
 * length is more than 1024 float spacings of its ends, else the body's normal turned. */
static rc_vec2 reference_placed_normal(rc_vec2 a, rc_vec2 b, rc_vec2 turned, bool *took_turned) {
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double len = sqrt(ex * ex + ey * ey);
    float coord = fmaxf(fmaxf(fabsf(a.x), fabsf(a.y)), fmaxf(fabsf(b.x), fabsf(b.y)));
    double rounding = (double)FLT_EPSILON * coord + FLT_MIN;
    *took_turned = !(len > 1024.0 * rounding);
    if (len > 1024.0 * rounding) {
        return rc_v2((float)(0.0 + ey / len), (float)(0.0 - ex / len));
    }
    return turned;
}

static bool same_bits(float x, float y) { return memcmp(&x, &y, sizeof x) == 0; }

/* Boxes that do not turn, or turn by exact quarters, have edges along the axes: their placed
 * normals are exactly the reference's (the same bits, signs of zero included), near the origin,
 * far from it, and where the box is so small beside its coordinates that the body's normal is
 * taken; and a box turned by any angle too. */
START_TEST(placed_normals_along_the_axes) {
    ref_rng rng = ref_rng_seed(0x5eed00a5u);
    const rc_rot quarters[4] = {{1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}, {0.0f, -1.0f}};
    int along = 0, fallback = 0;
    for (int k = 0; k < 20000; ++k) {
        double far = k % 3 == 0 ? 0.0 : (k % 3 == 1 ? 1.0e4 : 3.0e6);
        float hw = (float)exp(ref_rng_uniform(&rng, log(1.0e-3), log(10.0)));
        float hh = (float)exp(ref_rng_uniform(&rng, log(1.0e-3), log(10.0)));
        rc_polygon box = rc_make_box(hw, hh);
        rc_convex made = rc_convex_of(&box);
        rc_transform xf;
        xf.p = rc_v2((float)ref_rng_uniform(&rng, -far - 5.0, far + 5.0), (float)ref_rng_uniform(&rng, -far - 5.0, far + 5.0));
        bool turned = k % 5 == 4;
        xf.q = turned ? rc_rot_from_angle((float)ref_rng_uniform(&rng, -3.14, 3.14)) : quarters[k % 4];
        rc_vec2 v[RC_MAX_POLYGON_VERTICES], n[RC_MAX_POLYGON_VERTICES], centroid;
        rc_aabb aabb;
        rc_place_polygon(&made, xf, v, n, &centroid, &aabb);
        for (int e = 0; e < made.count; ++e) {
            rc_vec2 a = v[e], b = v[e + 1 < made.count ? e + 1 : 0];
            bool took_turned;
            rc_vec2 want = reference_placed_normal(a, b, rc_rotate(xf.q, made.normals[e]), &took_turned);
            ck_assert_msg(same_bits(n[e].x, want.x) && same_bits(n[e].y, want.y),
                          "box %d edge %d: (%a, %a) against (%a, %a)", k, e, (double)n[e].x, (double)n[e].y,
                          (double)want.x, (double)want.y);
            bool axis = a.x == b.x || a.y == b.y;
            along += axis && !turned && !took_turned;
            fallback += axis && !turned && took_turned;
        }
    }
    ck_assert_int_gt(along, 20000);  /* quotients of edges along the axes */
    ck_assert_int_gt(fallback, 20000); /* edges too short for their place: the body's normal */
}
END_TEST

static Suite *geometry_random_suite(void) {
    Suite *s = suite_create("geometry_random");
    TCase *tc = tcase_create("reference");
    tcase_add_test(tc, reference_generators);
    tcase_add_test(tc, placed_normals_along_the_axes);
    suite_add_tcase(s, tc);

    tc = tcase_create("rays");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, random_ray_segment, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_ray_polygon, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_ray_cast_polygon, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_clip_segment_convex, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_vertex_hits, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_ray_circle, 0, SCENE_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("points");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, random_point_in_convex, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_point_in_polygon, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_nearest_point_on_segment, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_point_distance, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_distance_floor, 0, SCENE_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("sweeps");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, random_circle_cast_circle, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_circle_cast_polygon, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_circle_cast_segment, 0, SCENE_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("manifolds_and_mass");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, random_collide_circles, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_collide_polygons, 0, SCENE_COUNT);
    tcase_add_loop_test(tc, random_polygon_mass, 0, SCENE_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(geometry_random_suite()); }
