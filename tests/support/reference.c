/* tests/support/reference.c: the double-precision reference described in reference.h. Written
 * from the definitions (parametric line solves, the quadratic, winding numbers, brute force
 * over all pieces), deliberately not from shapes/. */
#include "support/reference.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- double vectors ------------------------------------------------------------------------ */

ref_v2 ref_v(double x, double y) {
    ref_v2 r = {x, y};
    return r;
}
ref_v2 ref_from(rc_vec2 v) { return ref_v(v.x, v.y); }
ref_v2 ref_add(ref_v2 a, ref_v2 b) { return ref_v(a.x + b.x, a.y + b.y); }
ref_v2 ref_sub(ref_v2 a, ref_v2 b) { return ref_v(a.x - b.x, a.y - b.y); }
ref_v2 ref_scale(double s, ref_v2 a) { return ref_v(s * a.x, s * a.y); }
ref_v2 ref_mad(ref_v2 a, double s, ref_v2 b) { return ref_v(a.x + s * b.x, a.y + s * b.y); }
double ref_dot(ref_v2 a, ref_v2 b) { return a.x * b.x + a.y * b.y; }
double ref_cross(ref_v2 a, ref_v2 b) { return a.x * b.y - a.y * b.x; }
double ref_len(ref_v2 a) { return sqrt(a.x * a.x + a.y * a.y); }
double ref_dist(ref_v2 a, ref_v2 b) { return ref_len(ref_sub(a, b)); }
ref_v2 ref_unit(ref_v2 a) {
    double l = ref_len(a);
    return l > 0.0 ? ref_scale(1.0 / l, a) : ref_v(0.0, 0.0);
}
rc_vec2 ref_to_float(ref_v2 v) {
    rc_vec2 r = {(float)v.x, (float)v.y};
    return r;
}

static ref_hit no_hit(void) {
    ref_hit h = {false, 0.0, {0.0, 0.0}, {0.0, 0.0}, false};
    return h;
}

/* ---- polygons -------------------------------------------------------------------------------- */

double ref_signed_area2(const rc_vec2 *v, int n) {
    ref_v2 o = ref_from(v[0]);
    double sum = 0.0;
    for (int i = 1; i + 1 < n; ++i) {
        sum += ref_cross(ref_sub(ref_from(v[i]), o), ref_sub(ref_from(v[i + 1]), o));
    }
    return sum;
}

ref_v2 ref_edge_normal(const rc_vec2 *v, int n, int i) {
    ref_v2 a = ref_from(v[i]), b = ref_from(v[(i + 1) % n]);
    ref_v2 e = ref_sub(b, a);
    /* for a counter-clockwise outline the interior is on the left, so outward is the right
       perpendicular (e.y, -e.x); a clockwise outline has it the other way */
    ref_v2 right = ref_v(e.y, -e.x);
    if (ref_signed_area2(v, n) < 0.0) {
        right = ref_scale(-1.0, right);
    }
    return ref_unit(right);
}

int ref_winding_number(ref_v2 p, const rc_vec2 *v, int n) {
    /* Sum of signed crossings of the upward / downward edges with the horizontal line through
       p, to the right of p (Sunday's form of the winding number). */
    int wn = 0;
    for (int i = 0; i < n; ++i) {
        ref_v2 a = ref_from(v[i]), b = ref_from(v[(i + 1) % n]);
        double side = ref_cross(ref_sub(b, a), ref_sub(p, a)); /* > 0: p left of a->b */
        if (a.y <= p.y) {
            if (b.y > p.y && side > 0.0) {
                ++wn;
            }
        } else if (b.y <= p.y && side < 0.0) {
            --wn;
        }
    }
    return wn;
}

double ref_segment_distance(ref_v2 p, ref_v2 a, ref_v2 b, ref_v2 *nearest) {
    ref_v2 q = ref_nearest_on_segment(a, b, p);
    if (nearest != NULL) {
        *nearest = q;
    }
    return ref_dist(p, q);
}

double ref_line_distance(ref_v2 p, ref_v2 a, ref_v2 b) {
    ref_v2 e = ref_sub(b, a);
    return fabs(ref_cross(e, ref_sub(p, a))) / ref_len(e);
}

double ref_boundary_distance(ref_v2 p, const rc_vec2 *v, int n) {
    double best = INFINITY;
    for (int i = 0; i < n; ++i) {
        double d = ref_segment_distance(p, ref_from(v[i]), ref_from(v[(i + 1) % n]), NULL);
        best = d < best ? d : best;
    }
    return best;
}

ref_v2 ref_nearest_on_segment(ref_v2 a, ref_v2 b, ref_v2 p) {
    ref_v2 e = ref_sub(b, a);
    double ee = ref_dot(e, e);
    if (ee == 0.0) {
        return a;
    }
    double s = ref_dot(ref_sub(p, a), e) / ee;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    return ref_mad(a, s, e);
}

/* ---- rays -------------------------------------------------------------------------------------- */

ref_hit ref_ray_segment(ref_v2 o, ref_v2 d, ref_v2 a, ref_v2 b, double *sin_angle) {
    ref_hit h = no_hit();
    ref_v2 e = ref_sub(b, a);
    double dl = ref_len(d), el = ref_len(e);
    if (sin_angle != NULL) {
        *sin_angle = (dl > 0.0 && el > 0.0) ? fabs(ref_cross(d, e)) / (dl * el) : 0.0;
    }
    if (dl == 0.0 || el == 0.0) {
        return h;
    }
    /* o + t d = a + s e: cross both sides with e and with d */
    double den = ref_cross(d, e);
    if (den == 0.0) {
        return h;
    }
    ref_v2 w = ref_sub(a, o);
    double t = ref_cross(w, e) / den;
    double s = ref_cross(w, d) / den;
    if (t < 0.0 || t > 1.0 || s < 0.0 || s > 1.0) {
        return h;
    }
    h.hit = true;
    h.t = t;
    h.point = ref_mad(o, t, d);
    ref_v2 nrm = ref_unit(ref_v(e.y, -e.x));
    if (ref_dot(nrm, d) > 0.0) {
        nrm = ref_scale(-1.0, nrm);
    }
    h.normal = nrm;
    return h;
}

ref_hit ref_ray_polygon(ref_v2 o, ref_v2 d, const rc_vec2 *v, int n) {
    ref_hit h = no_hit();
    if (ref_len(d) == 0.0) {
        return h;
    }
    bool inside = ref_winding_number(o, v, n) != 0;
    double best_ahead = INFINITY, best_behind = -INFINITY;
    double face_ahead = 0.0, face_behind = 0.0;
    ref_v2 n_ahead = {0.0, 0.0}, n_behind = ref_unit(ref_scale(-1.0, d));
    for (int i = 0; i < n; ++i) {
        ref_v2 a = ref_from(v[i]), b = ref_from(v[(i + 1) % n]);
        ref_v2 e = ref_sub(b, a);
        double den = ref_cross(d, e);
        if (den == 0.0) {
            continue;
        }
        ref_v2 w = ref_sub(a, o);
        double t = ref_cross(w, e) / den;
        double s = ref_cross(w, d) / den;
        if (s < 0.0 || s > 1.0) {
            continue;
        }
        ref_v2 nrm = ref_edge_normal(v, n, i);
        double facing = ref_dot(nrm, d);
        if (facing >= 0.0) {
            continue; /* the line leaves the polygon here */
        }
        if (t >= 0.0 && (t < best_ahead || (t == best_ahead && facing < face_ahead))) {
            best_ahead = t;
            face_ahead = facing;
            n_ahead = nrm;
        }
        if (t < 0.0 && (t > best_behind || (t == best_behind && facing < face_behind))) {
            best_behind = t;
            face_behind = facing;
            n_behind = nrm;
        }
    }
    if (inside) {
        h.hit = true;
        h.t = 0.0;
        h.point = o;
        h.normal = n_behind;
        h.started_inside = true;
        return h;
    }
    if (best_ahead <= 1.0) {
        h.hit = true;
        h.t = best_ahead;
        h.point = ref_mad(o, best_ahead, d);
        h.normal = n_ahead;
    }
    return h;
}

ref_clip ref_clip_convex(ref_v2 a, ref_v2 b, const rc_vec2 *v, int n) {
    ref_clip c = {false, 0.0, 0.0, {0.0, 0.0}, {0.0, 0.0}};
    ref_v2 d = ref_sub(b, a);
    if (ref_len(d) == 0.0) {
        return c;
    }
    double lo = -INFINITY, hi = INFINITY;
    ref_v2 n_lo = {0.0, 0.0}, n_hi = {0.0, 0.0};
    for (int i = 0; i < n; ++i) {
        ref_v2 nrm = ref_edge_normal(v, n, i);
        /* inside this edge's half plane: dot(nrm, x - v[i]) <= 0 */
        double dist = ref_dot(nrm, ref_sub(ref_from(v[i]), a)); /* >= 0 when a is inside */
        double facing = ref_dot(nrm, d);
        if (facing == 0.0) {
            if (dist < 0.0) {
                return c;
            }
            continue;
        }
        double t = dist / facing;
        if (facing < 0.0) {
            if (t > lo) {
                lo = t;
                n_lo = nrm;
            }
        } else if (t < hi) {
            hi = t;
            n_hi = nrm;
        }
    }
    c.t_near = lo > 0.0 ? lo : 0.0;
    c.t_far = hi < 1.0 ? hi : 1.0;
    c.n_near = n_lo;
    c.n_far = n_hi;
    c.hit = c.t_near <= c.t_far;
    return c;
}

ref_hit ref_ray_circle(ref_v2 o, ref_v2 d, ref_v2 c, double r) {
    ref_hit h = no_hit();
    /* |m + t d|^2 = r^2 with m = o - c:  (d.d) t^2 + 2 (m.d) t + (m.m - r^2) = 0 */
    ref_v2 m = ref_sub(o, c);
    double qa = ref_dot(d, d), qb = ref_dot(m, d), qc = ref_dot(m, m) - r * r;
    if (qa == 0.0) {
        return h;
    }
    double disc = qb * qb - qa * qc;
    if (qc < 0.0) {
        /* inside: the line entered at the smaller root, which is negative */
        double t1 = (-qb - sqrt(disc)) / qa;
        h.hit = true;
        h.t = 0.0;
        h.point = o;
        h.normal = ref_unit(ref_mad(m, t1, d));
        h.started_inside = true;
        return h;
    }
    if (disc < 0.0) {
        return h;
    }
    double t1 = (-qb - sqrt(disc)) / qa;
    if (t1 < 0.0 || t1 > 1.0) {
        return h; /* outside: both roots behind, or the first beyond the end */
    }
    h.hit = true;
    h.t = t1;
    h.point = ref_mad(o, t1, d);
    h.normal = r > 0.0 ? ref_scale(1.0 / r, ref_mad(m, t1, d)) : ref_unit(ref_scale(-1.0, d));
    return h;
}

/* ---- distances --------------------------------------------------------------------------------- */

ref_distance ref_distance_polygon(const rc_vec2 *v, int n, ref_v2 p) {
    ref_distance r;
    double best = INFINITY, second = INFINITY;
    int best_edge = 0;
    ref_v2 best_q = p;
    for (int i = 0; i < n; ++i) {
        ref_v2 q;
        double dd = ref_segment_distance(p, ref_from(v[i]), ref_from(v[(i + 1) % n]), &q);
        if (dd < best) {
            second = best;
            best = dd;
            best_edge = i;
            best_q = q;
        } else if (dd < second) {
            second = dd;
        }
    }
    bool inside = ref_winding_number(p, v, n) != 0;
    r.point = best_q;
    r.tie_gap = second - best;
    if (inside) {
        r.distance = -best;
        r.normal = ref_edge_normal(v, n, best_edge);
    } else {
        r.distance = best;
        r.normal = best > 0.0 ? ref_unit(ref_sub(p, best_q)) : ref_edge_normal(v, n, best_edge);
    }
    return r;
}

ref_distance ref_distance_circle(ref_v2 c, double radius, ref_v2 p) {
    ref_distance r;
    ref_v2 rel = ref_sub(p, c);
    double l = ref_len(rel);
    r.normal = l > 0.0 ? ref_scale(1.0 / l, rel) : ref_v(1.0, 0.0);
    r.point = ref_mad(c, radius, r.normal);
    r.distance = l - radius;
    r.tie_gap = INFINITY;
    return r;
}

ref_distance ref_distance_segment(ref_v2 a, ref_v2 b, ref_v2 p) {
    ref_distance r;
    r.distance = ref_segment_distance(p, a, b, &r.point);
    ref_v2 e = ref_sub(b, a);
    r.normal = r.distance > 0.0 ? ref_unit(ref_sub(p, r.point)) : ref_unit(ref_v(-e.y, e.x));
    r.tie_gap = INFINITY;
    return r;
}

/* Signed distance of p to the set the sweep is against (a polygon, a segment or a point). */
static double set_distance(const rc_vec2 *v, int n, ref_v2 p) {
    if (n == 1) {
        return ref_dist(p, ref_from(v[0]));
    }
    if (n == 2) {
        return ref_segment_distance(p, ref_from(v[0]), ref_from(v[1]), NULL);
    }
    return ref_distance_polygon(v, n, p).distance;
}

/* ---- swept circles ----------------------------------------------------------------------------- */

typedef struct entry {
    double t;
    ref_v2 normal, touch;
} entry;

static void pushed_edge(entry *best, ref_v2 o, ref_v2 d, ref_v2 a, ref_v2 b, ref_v2 nrm, double r) {
    double facing = ref_dot(nrm, d);
    if (facing >= 0.0) {
        return;
    }
    /* the line dot(nrm, x - a) = r */
    double t = (r - ref_dot(nrm, ref_sub(o, a))) / facing;
    ref_v2 touch = ref_mad(ref_mad(o, t, d), -r, nrm);
    ref_v2 e = ref_sub(b, a);
    double s = ref_dot(ref_sub(touch, a), e) / ref_dot(e, e);
    if (s < 0.0 || s > 1.0 || t >= best->t) {
        return;
    }
    best->t = t;
    best->normal = nrm;
    best->touch = touch;
}

static void vertex_circle(entry *best, ref_v2 o, ref_v2 d, ref_v2 c, double r) {
    ref_v2 m = ref_sub(o, c);
    double qa = ref_dot(d, d), qb = ref_dot(m, d), qc = ref_dot(m, m) - r * r;
    double disc = qb * qb - qa * qc;
    if (disc < 0.0) {
        return;
    }
    double t = (-qb - sqrt(disc)) / qa;
    if (t >= best->t) {
        return;
    }
    best->t = t;
    best->normal = ref_unit(ref_mad(m, t, d));
    best->touch = c;
}

ref_hit ref_circle_cast(const rc_vec2 *v, int n, ref_v2 o, double r, ref_v2 d) {
    ref_hit h = no_hit();
    entry best = {INFINITY, {0.0, 0.0}, {0.0, 0.0}};
    if (n == 2) {
        ref_v2 a = ref_from(v[0]), b = ref_from(v[1]);
        ref_v2 e = ref_sub(b, a);
        if (ref_len(e) > 0.0) {
            ref_v2 nrm = ref_unit(ref_v(e.y, -e.x));
            pushed_edge(&best, o, d, a, b, nrm, r);
            pushed_edge(&best, o, d, a, b, ref_scale(-1.0, nrm), r);
        }
    } else if (n >= 3) {
        for (int i = 0; i < n; ++i) {
            pushed_edge(&best, o, d, ref_from(v[i]), ref_from(v[(i + 1) % n]), ref_edge_normal(v, n, i), r);
        }
    }
    for (int i = 0; i < n; ++i) {
        vertex_circle(&best, o, d, ref_from(v[i]), r);
    }
    if (set_distance(v, n, o) < r) {
        h.hit = true;
        h.t = 0.0;
        h.point = o;
        h.normal = best.normal;
        h.started_inside = true;
        return h;
    }
    if (best.t >= 0.0 && best.t <= 1.0) {
        h.hit = true;
        h.t = best.t;
        h.point = best.touch;
        h.normal = best.normal;
    }
    return h;
}

/* The t in [0, 1] where the distance from the set to o + t d is least: the distance to a convex
 * set is convex along a line, so golden section finds it. */
static double sweep_argmin(const rc_vec2 *v, int n, ref_v2 o, ref_v2 d) {
    const double g = 0.5 * (sqrt(5.0) - 1.0);
    double lo = 0.0, hi = 1.0;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = set_distance(v, n, ref_mad(o, x1, d)), f2 = set_distance(v, n, ref_mad(o, x2, d));
    for (int it = 0; it < 64; ++it) { /* 0.618^64 < 1e-13 */
        if (f1 < f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = set_distance(v, n, ref_mad(o, x1, d));
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = set_distance(v, n, ref_mad(o, x2, d));
        }
    }
    double tmin = 0.5 * (lo + hi);
    double fmin = set_distance(v, n, ref_mad(o, tmin, d));
    if (set_distance(v, n, ref_mad(o, 1.0, d)) < fmin) {
        tmin = 1.0;
    } else if (set_distance(v, n, o) < fmin) {
        tmin = 0.0;
    }
    return tmin;
}

double ref_sweep_min_distance(const rc_vec2 *v, int n, ref_v2 o, ref_v2 d) {
    return set_distance(v, n, ref_mad(o, sweep_argmin(v, n, o, d), d));
}

ref_hit ref_circle_cast_bisect(const rc_vec2 *v, int n, ref_v2 o, double r, ref_v2 d, double *min_distance) {
    ref_hit h = no_hit();
    double tmin = sweep_argmin(v, n, o, d);
    double fmin = set_distance(v, n, ref_mad(o, tmin, d));
    if (min_distance != NULL) {
        *min_distance = fmin;
    }
    if (set_distance(v, n, o) < r) {
        h.hit = true;
        h.started_inside = true;
        h.point = o;
        return h;
    }
    double lo, hi;
    if (fmin > r) {
        return h;
    }
    /* first time the distance reaches r: it falls monotonically on [0, tmin] */
    lo = 0.0;
    hi = tmin;
    for (int it = 0; it < 64 && hi - lo > 0.0; ++it) { /* to 2^-64 of the sweep */
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) {
            break;
        }
        if (set_distance(v, n, ref_mad(o, mid, d)) > r) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    h.hit = true;
    h.t = hi;
    h.point = ref_mad(o, hi, d);
    return h;
}

/* ---- separating axes ------------------------------------------------------------------------- */

static void project(const rc_vec2 *v, int n, ref_v2 u, double *lo, double *hi) {
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; ++i) {
        double p = ref_dot(u, ref_from(v[i]));
        *lo = p < *lo ? p : *lo;
        *hi = p > *hi ? p : *hi;
    }
}

double ref_overlap_along(const rc_vec2 *a, int na, const rc_vec2 *b, int nb, ref_v2 u) {
    double alo, ahi, blo, bhi;
    project(a, na, u, &alo, &ahi);
    project(b, nb, u, &blo, &bhi);
    return ahi - blo;
}

double ref_sat_separation(const rc_vec2 *a, int na, const rc_vec2 *b, int nb, ref_v2 *axis) {
    double best = -INFINITY;
    ref_v2 best_axis = {1.0, 0.0};
    for (int which = 0; which < 2; ++which) {
        const rc_vec2 *v = which == 0 ? a : b;
        int n = which == 0 ? na : nb;
        int edges = n == 2 ? 1 : n;
        for (int i = 0; i < edges; ++i) {
            ref_v2 e = ref_sub(ref_from(v[(i + 1) % n]), ref_from(v[i]));
            ref_v2 u = ref_unit(ref_v(e.y, -e.x));
            if (u.x == 0.0 && u.y == 0.0) {
                continue;
            }
            for (int side = 0; side < 2; ++side) {
                ref_v2 w = side == 0 ? u : ref_scale(-1.0, u);
                /* gap between A's far side and B's near side along w */
                double gap = -ref_overlap_along(a, na, b, nb, w);
                if (gap > best) {
                    best = gap;
                    best_axis = w;
                }
            }
        }
    }
    if (axis != NULL) {
        *axis = best_axis;
    }
    return best;
}

/* ---- mass -------------------------------------------------------------------------------------- */

ref_mass ref_polygon_mass(const rc_vec2 *v, int n, double density) {
    /* Triangles (v0, vi, vi+1) in coordinates relative to v0: area, first and second moments
       about v0, then the parallel axis theorem to the centroid. */
    ref_v2 o = ref_from(v[0]);
    double area = 0.0, mx = 0.0, my = 0.0, second = 0.0;
    for (int i = 1; i + 1 < n; ++i) {
        ref_v2 p = ref_sub(ref_from(v[i]), o), q = ref_sub(ref_from(v[i + 1]), o);
        double ta = 0.5 * ref_cross(p, q);
        area += ta;
        mx += ta * (p.x + q.x) / 3.0;
        my += ta * (p.y + q.y) / 3.0;
        /* second moment of the triangle (0, p, q) about 0: (A / 6) (p.p + p.q + q.q) */
        second += ta / 6.0 * (ref_dot(p, p) + ref_dot(p, q) + ref_dot(q, q));
    }
    ref_mass m;
    ref_v2 c = ref_v(mx / area, my / area); /* the signs cancel for a clockwise outline */
    if (area < 0.0) {
        area = -area;
        second = -second;
    }
    m.area = area;
    m.mass = density * area;
    m.center = ref_add(o, c);
    m.inertia = density * (second - area * ref_dot(c, c));
    return m;
}

/* ---- random numbers -------------------------------------------------------------------------- */

ref_rng ref_rng_seed(uint64_t seed) {
    ref_rng r = {seed};
    return r;
}

uint64_t ref_rng_next(ref_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double ref_rng_uniform(ref_rng *rng, double lo, double hi) {
    double u = (double)(ref_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

int ref_rng_int(ref_rng *rng, int lo, int hi) { return lo + (int)(ref_rng_next(rng) % (uint64_t)(hi - lo + 1)); }

bool ref_rng_bool(ref_rng *rng) { return (ref_rng_next(rng) >> 63) != 0; }

ref_v2 ref_rng_disk(ref_rng *rng, ref_v2 center, double radius) {
    for (;;) {
        double x = ref_rng_uniform(rng, -1.0, 1.0), y = ref_rng_uniform(rng, -1.0, 1.0);
        if (x * x + y * y <= 1.0) {
            return ref_v(center.x + radius * x, center.y + radius * y);
        }
    }
}

static const double TWO_PI = 6.283185307179586476925;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* n sorted angles in [0, 2 pi) whose gaps (round the circle too) are at least min_gap and at
 * most max_gap. */
static void random_angles(ref_rng *rng, int n, double min_gap, double max_gap, double *ang) {
    for (;;) {
        for (int i = 0; i < n; ++i) {
            ang[i] = ref_rng_uniform(rng, 0.0, TWO_PI);
        }
        qsort(ang, (size_t)n, sizeof ang[0], cmp_double);
        bool ok = true;
        for (int i = 0; i < n && ok; ++i) {
            double gap = i + 1 < n ? ang[i + 1] - ang[i] : ang[0] + TWO_PI - ang[i];
            ok = gap >= min_gap && gap <= max_gap;
        }
        if (ok) {
            return;
        }
    }
}

static void reverse(rc_vec2 *v, int n) {
    for (int i = 0, j = n - 1; i < j; ++i, --j) {
        rc_vec2 t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

void ref_random_convex(ref_rng *rng, ref_v2 center, double size, int n, bool ccw, rc_vec2 *out) {
    double ang[64];
    for (;;) {
        random_angles(rng, n, 0.3 * TWO_PI / n, 0.9 * 3.141592653589793, ang);
        double rx = size * ref_rng_uniform(rng, 0.3, 1.0), ry = size * ref_rng_uniform(rng, 0.3, 1.0);
        double phi = ref_rng_uniform(rng, 0.0, TWO_PI), c = cos(phi), s = sin(phi);
        for (int i = 0; i < n; ++i) {
            double x = rx * cos(ang[i]), y = ry * sin(ang[i]);
            out[i] = ref_to_float(ref_v(center.x + c * x - s * y, center.y + s * x + c * y));
        }
        /* strictly convex after rounding, by a clear margin: every turn is left */
        bool ok = true;
        for (int i = 0; i < n && ok; ++i) {
            ref_v2 a = ref_from(out[i]), b = ref_from(out[(i + 1) % n]), d = ref_from(out[(i + 2) % n]);
            ok = ref_cross(ref_sub(b, a), ref_sub(d, b)) > 1e-3 * size * size;
        }
        if (ok) {
            break;
        }
    }
    if (!ccw) {
        reverse(out, n);
    }
}

void ref_random_star(ref_rng *rng, ref_v2 center, double size, int n, bool ccw, rc_vec2 *out) {
    double ang[64];
    random_angles(rng, n, 0.35 * TWO_PI / n, 0.8 * 3.141592653589793, ang);
    for (int i = 0; i < n; ++i) {
        double r = size * ref_rng_uniform(rng, 0.25, 1.0);
        out[i] = ref_to_float(ref_v(center.x + r * cos(ang[i]), center.y + r * sin(ang[i])));
    }
    if (!ccw) {
        reverse(out, n);
    }
}

/* ---- comparison helpers ---------------------------------------------------------------------- */

double ref_max_abs(const rc_vec2 *v, int n) {
    double m = 0.0;
    for (int i = 0; i < n; ++i) {
        m = fmax(m, fmax(fabs((double)v[i].x), fabs((double)v[i].y)));
    }
    return m;
}
