/* fuzz_geometry: the pure functions of <ricochet/geometry.h> and <ricochet/math.h> fed any
 * floats (NaN, infinities, denormals, extremes, exact coincidences) and any point counts.
 *
 * Each input is a sequence of operations: one selector byte, then the operation's arguments
 * (see fz_float for how a float is drawn). Besides crashes and sanitizer reports, an answer
 * that claims success must keep the contract its header documents, checked here within the
 * rounding of float arithmetic at the inputs' scale:
 *  - rays: a hit has t in [0, 1], a unit normal pointing against the ray, the point on the ray
 *    at t (the origin when started inside, then t == 0), finite numbers; a ray of zero length
 *    or with a non-finite input hits nothing; the pure functions leave shape and body null;
 *  - polygons built by rc_make_polygon / rc_make_box / rc_make_regular_polygon: 3..8 vertices,
 *    counter-clockwise, strictly convex, unit outward normals, finite; refused input leaves
 *    *out untouched; non-finite, too few or too many points are always refused;
 *  - clipping (convex input): 0 <= t_near <= t_far <= 1, unit normals;
 *  - distances: unit normals, |distance| is the distance to the reported point, a segment's
 *    distance is never negative;
 *  - manifolds: unit normal, 1 or 2 points, depths >= 0, depth the larger of them;
 *  - rc_rot_from_angle: unit length, the identity for non-finite angles, close to cos/sin. */
#include <float.h>

#include <ricochet/ricochet.h>

#include "shapes/collide.h" /* rc_collide_views_axis, rc_hulls_apart_on_axis: internal, in the fuzz build's library */
#include "shapes/shapes.h" /* rc_polygon_input_ok */
#include "fuzz_input.h"

/* Relative tolerance of the checks: generous against float rounding (about 1e-7), far below
 * any real mistake. */
#define REL 1.0e-4
/* ... plus an absolute one for inputs in the denormal range, where relative means nothing */
#define TINY 1.0e-37

static double mag(rc_vec2 v) { return fmax(fabs((double)v.x), fabs((double)v.y)); }
static double len(rc_vec2 v) { return sqrt((double)v.x * v.x + (double)v.y * v.y); }
static bool vfinite(rc_vec2 v) { return fz_finite2(v.x, v.y); }
/* |a - b| without float overflow */
static double dist(rc_vec2 a, rc_vec2 b) {
    double x = (double)a.x - b.x, y = (double)a.y - b.y;
    return sqrt(x * x + y * y);
}

static void check_unit(rc_vec2 n, const char *what) {
    FZ_CHECK(vfinite(n), "%s: normal (%g, %g) is not finite", what, n.x, n.y);
    double l = len(n);
    FZ_CHECK(fabs(l - 1.0) <= 1.0e-4, "%s: normal (%g, %g) has length %.9g", what, n.x, n.y, l);
}

/* Every input of a ray call finite, and the ray not of zero length. */
static bool ray_ok(rc_vec2 o, rc_vec2 d) { return vfinite(o) && vfinite(d) && (d.x != 0.0f || d.y != 0.0f); }

/* The invariants of any ray or sweep hit. is_ray: the point lies on the ray (rays, not sweeps). */
static void check_hit(const char *what, rc_vec2 o, rc_vec2 d, const rc_ray_hit *h, bool is_ray) {
    FZ_CHECK(ray_ok(o, d), "%s: hit for a ray with a non-finite input or zero length", what);
    FZ_CHECK(h->t >= 0.0f && h->t <= 1.0f, "%s: t = %g outside [0, 1]", what, h->t);
    check_unit(h->normal, what);
    FZ_CHECK(rc_shape_id_is_null(h->shape) && rc_body_id_is_null(h->body), "%s: pure function set ids", what);
    double dl = len(d);
    double against = (double)h->normal.x * d.x + (double)h->normal.y * d.y;
    FZ_CHECK(against <= REL * dl + TINY, "%s: normal (%g, %g) along the ray (%g, %g): dot %g", what, h->normal.x,
             h->normal.y, d.x, d.y, against);
    if (h->started_inside) {
        FZ_CHECK(h->t == 0.0f, "%s: started_inside with t = %g", what, h->t);
        FZ_CHECK(rc_vec2_equal(h->point, o), "%s: started_inside but point (%g, %g) is not the origin", what,
                 h->point.x, h->point.y);
    }
    /* the ray's far end is a float: then so is every point on it */
    rc_vec2 end = rc_add(o, d);
    if (vfinite(end)) {
        FZ_CHECK(vfinite(h->point), "%s: point (%g, %g) not finite", what, h->point.x, h->point.y);
        if (is_ray) {
            double scale = mag(o) + mag(d);
            double px = (double)o.x + (double)h->t * d.x, py = (double)o.y + (double)h->t * d.y;
            double off = fmax(fabs(px - h->point.x), fabs(py - h->point.y));
            FZ_CHECK(off <= REL * scale + TINY, "%s: point (%g, %g) is %g off the ray at t = %g", what, h->point.x,
                     h->point.y, off, h->t);
        }
    }
}

/* The polygon invariants of geometry.h. strict: made by rc_make_polygon (every vertex strictly
 * left of every edge it is not on, decided exactly in double); otherwise within rounding. */
/* rounded_at: the size of the coordinates the vertices were rounded at, when larger than their
 * own (a polygon moved: rc_transform_polygon rounds each vertex at the size of its terms, the
 * move's and the rotated vertex's, however much they cancel); 0 for the vertices' own size. */
static void check_polygon(const rc_polygon *p, const char *what, bool strict, double rounded_at) {
    if (getenv("FZ_VERBOSE") != NULL) {
        for (int i = 0; i < p->count; ++i) {
            fprintf(stderr, "%s: v[%d] = (%.9g, %.9g) n = (%.9g, %.9g)\n", what, i, p->vertices[i].x,
                    p->vertices[i].y, p->normals[i].x, p->normals[i].y);
        }
    }
    FZ_CHECK(p->count >= 3 && p->count <= RC_MAX_POLYGON_VERTICES, "%s: count %d", what, p->count);
    int n = p->count;
    double size = 0.0;
    for (int i = 0; i < n; ++i) {
        FZ_CHECK(vfinite(p->vertices[i]), "%s: vertex %d not finite", what, i);
        size = fmax(size, mag(p->vertices[i]));
    }
    FZ_CHECK(vfinite(p->centroid), "%s: centroid not finite", what);
    double area2 = 0.0;
    for (int i = 0; i < n; ++i) {
        rc_vec2 a = p->vertices[i], b = p->vertices[(i + 1) % n];
        area2 += (double)a.x * b.y - (double)a.y * b.x;
        check_unit(p->normals[i], what);
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y, el = sqrt(ex * ex + ey * ey);
        FZ_CHECK(el > 0.0, "%s: edge %d has no length", what, i);
        /* outward: the edge direction turned clockwise */
        double along = (p->normals[i].x * ex + p->normals[i].y * ey) / el;
        double out = (p->normals[i].x * ey - p->normals[i].y * ex) / el;
        /* (a moved polygon's normals are rotated exactly while its vertices are rounded at
           their coordinates' scale: the edge's direction is off by that rounding over its length) */
        double spacing = FLT_EPSILON * fmax(size, rounded_at) + 1.401298464324817e-45; /* of floats at this size */
        FZ_CHECK(fabs(along) <= 1.0e-4 + 8.0 * spacing / el && out > 0.0, "%s: normal %d (%g, %g) is not the outward normal of its edge",
                 what, i, p->normals[i].x, p->normals[i].y);
        for (int k = 0; k < n; ++k) {
            if (k == i || k == (i + 1) % n) {
                continue;
            }
            double cr = ex * ((double)p->vertices[k].y - a.y) - ey * ((double)p->vertices[k].x - a.x);
            if (strict) {
                FZ_CHECK(cr > 0.0, "%s: vertex %d not strictly left of edge %d (cross %g)", what, k, i, cr);
            } else {
                FZ_CHECK(cr > -(REL * size + 8.0 * spacing) * el, "%s: vertex %d right of edge %d (cross %g)", what, k, i,
                         cr);
            }
        }
    }
    FZ_CHECK(area2 > 0.0, "%s: not counter-clockwise (twice the area %g)", what, area2);
}

/* Finite, every vertex strictly left of every edge it is not on (exactly, in double). */
static bool convex_ccw(const rc_polygon *p) {
    int n = p->count;
    for (int i = 0; i < n; ++i) {
        if (!vfinite(p->vertices[i]) || !vfinite(p->normals[i])) {
            return false;
        }
    }
    for (int i = 0; i < n; ++i) {
        rc_vec2 a = p->vertices[i], b = p->vertices[(i + 1) % n];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
        for (int k = 0; k < n; ++k) {
            if (k != i && k != (i + 1) % n &&
                ex * ((double)p->vertices[k].y - a.y) - ey * ((double)p->vertices[k].x - a.x) <= 0.0) {
                return false;
            }
        }
    }
    return true;
}

/* ---- drawing arguments ------------------------------------------------------------------- */

static rc_vec2 draw_vec(fz_input *in) {
    float x = fz_float(in);
    float y = fz_float(in);
    return rc_v2(x, y);
}

/* A polygon as the library makes them: from an outline, a box, a regular polygon, or one of
 * those moved by a transform. May have count 0 (the library's answer to bad input). Returns
 * whether it is a valid polygon. */
static bool draw_polygon(fz_input *in, rc_polygon *p, double *rounded_at) {
    uint8_t how = fz_u8(in);
    memset(p, 0, sizeof *p);
    *rounded_at = 0.0;
    switch (how % 4u) {
    case 0: {
        int n = 3 + fz_u8(in) % 6u;
        rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
        for (int i = 0; i < n; ++i) {
            pts[i] = draw_vec(in);
        }
        if (rc_make_polygon(pts, n, p) != RC_POLYGON_OK) {
            return false;
        }
        break;
    }
    case 1: {
        float hw = fz_float(in);
        float hh = fz_float(in);
        *p = rc_make_box(hw, hh);
        break;
    }
    case 2: {
        int n = fz_u8(in) % 10u;
        float r = fz_float(in);
        float a = fz_float(in);
        *p = rc_make_regular_polygon(n, r, a);
        break;
    }
    default: {
        rc_make_polygon((rc_vec2[]){{0, 0}, {1, 0}, {0, 1}}, 3, p);
        break;
    }
    }
    if (p->count == 0) {
        return false;
    }
    if (how & 4u) {
        rc_transform xf = {draw_vec(in), rc_rot_from_angle(fz_float(in))};
        if (vfinite(xf.p)) {
            rc_polygon moved = rc_transform_polygon(xf, p);
            /* far from the origin the rounding of the move can fold the polygon (its vertices
               merge or turn): then it is no longer a polygon the functions may be given; a move
               out of float range gives no polygon (count 0: geometry.h) */
            if (moved.count > 0 && convex_ccw(&moved)) {
                double from = 0.0;
                for (int i = 0; i < p->count; ++i) {
                    from = fmax(from, mag(p->vertices[i]));
                }
                *rounded_at = mag(xf.p) + from;
                *p = moved;
            }
        }
    }
    return true;
}

/* ---- the operations ------------------------------------------------------------------------ */

static void op_ray_segment(fz_input *in) {
    rc_vec2 o = draw_vec(in), d = draw_vec(in), a = draw_vec(in), b = draw_vec(in);
    rc_ray_hit h;
    bool hit = rc_ray_segment(o, d, a, b, &h);
    FZ_CHECK(hit == rc_ray_segment(o, d, a, b, NULL), "rc_ray_segment: answer depends on hit == NULL");
    if (!hit) {
        return;
    }
    FZ_CHECK(vfinite(a) && vfinite(b) && !rc_vec2_equal(a, b), "rc_ray_segment: hit on a bad segment");
    check_hit("rc_ray_segment", o, d, &h, true);
    rc_vec2 end = rc_add(o, d);
    if (vfinite(end) && vfinite(rc_sub(b, a))) {
        rc_vec2 q = rc_nearest_point_on_segment(a, b, h.point);
        double scale = mag(o) + mag(d) + mag(a) + mag(b);
        double off = dist(q, h.point);
        FZ_CHECK(off <= 1.0e-3 * scale + TINY, "rc_ray_segment: point (%g, %g) is %g from the segment", h.point.x, h.point.y,
                 off);
    }
}

/* Orientation of c about the line a -> b: the sign of the cross product, in double. */
static int orient(rc_vec2 a, rc_vec2 b, rc_vec2 c) {
    double v = ((double)b.x - a.x) * ((double)c.y - a.y) - ((double)b.y - a.y) * ((double)c.x - a.x);
    return (v > 0.0) - (v < 0.0);
}

/* A simple polygon: finite, no edge of zero length, no two edges that meet except neighbours
 * at their shared vertex (anything touching or collinear counts as meeting). geometry.h makes
 * no promise for polygons that intersect themselves. */
static bool simple_polygon(const rc_vec2 *v, int n) {
    if (v == NULL || n < 3) {
        return false;
    }
    for (int i = 0; i < n; ++i) {
        if (!vfinite(v[i]) || rc_vec2_equal(v[i], v[(i + 1) % n])) {
            return false;
        }
    }
    for (int i = 0; i < n; ++i) {
        rc_vec2 a = v[i], b = v[(i + 1) % n];
        for (int j = i + 1; j < n; ++j) {
            rc_vec2 c = v[j], d = v[(j + 1) % n];
            bool neighbours = j == i + 1 || (i == 0 && j == n - 1);
            int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
            if (neighbours) {
                /* they share one vertex: they must not fold back onto each other */
                rc_vec2 shared = j == i + 1 ? b : a, other = j == i + 1 ? d : c, mine = j == i + 1 ? a : b;
                if (orient(mine, shared, other) == 0 &&
                    ((double)other.x - shared.x) * ((double)mine.x - shared.x) +
                            ((double)other.y - shared.y) * ((double)mine.y - shared.y) > 0.0) {
                    return false;
                }
                continue;
            }
            if (o1 * o2 <= 0 && o3 * o4 <= 0) {
                return false;
            }
        }
    }
    return true;
}

/* n points, in their own allocation so that AddressSanitizer sees any read beyond them. */
static rc_vec2 *draw_points(fz_input *in, int *n_out) {
    uint8_t sel = fz_u8(in);
    int n = sel & 15u;
    if (sel & 0x80u) {
        n = -n; /* negative counts */
    }
    *n_out = n;
    if (sel & 0x40u) {
        return NULL;
    }
    int alloc = n > 0 ? n : 1;
    rc_vec2 *v = malloc(sizeof(rc_vec2) * (size_t)alloc);
    if (v == NULL) {
        abort();
    }
    for (int i = 0; i < alloc; ++i) {
        v[i] = draw_vec(in);
    }
    return v;
}

static void op_ray_polygon(fz_input *in) {
    int n;
    rc_vec2 *v = draw_points(in, &n);
    rc_vec2 o = draw_vec(in), d = draw_vec(in);
    rc_ray_hit h;
    if (getenv("FZ_VERBOSE") != NULL && v != NULL) {
        for (int i = 0; i < n; ++i) {
            fprintf(stderr, "pts[%d] = (%.9g, %.9g)\n", i, v[i].x, v[i].y);
        }
        fprintf(stderr, "o = (%.9g, %.9g), d = (%.9g, %.9g)\n", o.x, o.y, d.x, d.y);
    }
    bool hit = rc_ray_polygon(o, d, v, n, &h);
    FZ_CHECK(hit == rc_ray_polygon(o, d, v, n, NULL), "rc_ray_polygon: answer depends on hit == NULL");
    if (hit) {
        FZ_CHECK(v != NULL && n >= 3, "rc_ray_polygon: hit with %d points", n);
        if (simple_polygon(v, n)) {
            check_hit("rc_ray_polygon", o, d, &h, true);
        }
    }
    bool inside = rc_point_in_polygon(o, v, n);
    (void)inside;
    free(v);
}

static void op_points(fz_input *in) {
    int n;
    rc_vec2 *v = draw_points(in, &n);
    rc_vec2 p = draw_vec(in);
    (void)rc_point_in_polygon(p, v, n);
    (void)rc_point_in_convex(p, v, n);
    rc_vec2 a = draw_vec(in), b = draw_vec(in);
    rc_clip c;
    bool clipped = rc_clip_segment_convex(a, b, v, n, &c);
    FZ_CHECK(clipped == rc_clip_segment_convex(a, b, v, n, NULL), "rc_clip_segment_convex: depends on clip == NULL");
    if (clipped) {
        FZ_CHECK(v != NULL && n >= 3, "rc_clip_segment_convex: clipped against %d points", n);
        FZ_CHECK(!rc_vec2_equal(a, b), "rc_clip_segment_convex: a segment of zero length clipped to something");
        /* n_near and n_far are documented as always unit, convex polygon or not */
        check_unit(c.n_near, "rc_clip_segment_convex n_near");
        check_unit(c.n_far, "rc_clip_segment_convex n_far");
    }
    free(v);
}

/* Clipping, point tests and rays against a polygon known to be convex. */
static void op_convex(fz_input *in) {
    rc_polygon p;
    double rounded_at;
    if (!draw_polygon(in, &p, &rounded_at)) {
        return;
    }
    check_polygon(&p, "polygon", false, rounded_at);
    rc_vec2 a = draw_vec(in), b = draw_vec(in);
    if (getenv("FZ_VERBOSE") != NULL) {
        for (int i = 0; i < p.count; ++i) {
            fprintf(stderr, "v[%d] = (%.9g, %.9g)\n", i, p.vertices[i].x, p.vertices[i].y);
        }
        fprintf(stderr, "a = (%.9g, %.9g), b = (%.9g, %.9g)\n", a.x, a.y, b.x, b.y);
    }
    rc_clip c;
    if (rc_clip_segment_convex(a, b, p.vertices, p.count, &c)) {
        FZ_CHECK(vfinite(a) && vfinite(b) && !rc_vec2_equal(a, b), "rc_clip_segment_convex: clip of a bad segment");
        FZ_CHECK(c.t_near >= 0.0f && c.t_near <= c.t_far && c.t_far <= 1.0f, "rc_clip_segment_convex: t %g..%g",
                 c.t_near, c.t_far);
        check_unit(c.n_near, "rc_clip_segment_convex n_near");
        check_unit(c.n_far, "rc_clip_segment_convex n_far");
    }
    rc_ray_hit h;
    if (rc_ray_cast_polygon(&p, a, b, &h)) {
        check_hit("rc_ray_cast_polygon", a, b, &h, true);
    }
    if (rc_ray_polygon(a, b, p.vertices, p.count, &h)) {
        check_hit("rc_ray_polygon (convex)", a, b, &h, true);
    }
    /* a point well inside or well outside is classed the same by every test */
    rc_distance_result dr = rc_point_distance_polygon(&p, a);
    bool valid = rc_polygon_input_ok(&p); /* (one moved may round out of the rules: no answer) */
    check_unit(dr.normal, "rc_point_distance_polygon");
    FZ_CHECK(valid && vfinite(a) ? isfinite(dr.distance) && vfinite(dr.point)
                                 : dr.distance == FLT_MAX && dr.point.x == 0.0f && dr.point.y == 0.0f,
             "rc_point_distance_polygon: (%g, %g) at %g for %s input", dr.point.x, dr.point.y, dr.distance,
             valid && vfinite(a) ? "good" : "bad");
    if (valid && vfinite(a) && dr.distance < FLT_MAX) {
        double size = 0.0;
        for (int i = 0; i < p.count; ++i) {
            size = fmax(size, mag(p.vertices[i]));
        }
        size = fmax(size, mag(a));
        double to_point = dist(a, dr.point);
        FZ_CHECK(isfinite(dr.distance) && fabs(fabs((double)dr.distance) - to_point) <= 1.0e-3 * size + TINY,
                 "rc_point_distance_polygon: distance %g but the point is %g away", dr.distance, to_point);
        double margin = 1.0e-3 * size + TINY;
        if (dr.distance < -margin) {
            FZ_CHECK(rc_point_in_convex(a, p.vertices, p.count), "rc_point_in_convex: deep point (%g) outside",
                     dr.distance);
            FZ_CHECK(rc_point_in_polygon(a, p.vertices, p.count), "rc_point_in_polygon: deep point (%g) outside",
                     dr.distance);
        } else if (dr.distance > margin) {
            FZ_CHECK(!rc_point_in_convex(a, p.vertices, p.count), "rc_point_in_convex: far point (%g) inside",
                     dr.distance);
            FZ_CHECK(!rc_point_in_polygon(a, p.vertices, p.count), "rc_point_in_polygon: far point (%g) inside",
                     dr.distance);
        }
    }
    rc_mass_data m = rc_compute_polygon_mass(&p, 1.0f);
    FZ_CHECK(!(m.area < 0.0f), "rc_compute_polygon_mass: negative area %g", m.area);
    FZ_CHECK(isfinite(m.mass) && isfinite(m.rotational_inertia), "rc_compute_polygon_mass: mass %g inertia %g", m.mass,
             m.rotational_inertia);
    rc_aabb box = rc_polygon_aabb(&p);
    for (int i = 0; i < p.count && valid; ++i) {
        FZ_CHECK(rc_aabb_contains_point(box, p.vertices[i]), "rc_polygon_aabb: vertex %d outside", i);
    }
}

static void op_make_polygon(fz_input *in) {
    uint8_t sel = fz_u8(in);
    int n = sel % 12u;
    if (sel & 0x80u) {
        n = -n;
    }
    rc_vec2 pts[16];
    bool all_finite = true;
    for (int i = 0; i < n && i < 16; ++i) {
        pts[i] = draw_vec(in);
        all_finite = all_finite && vfinite(pts[i]);
    }
    /* a copy in a block of its own size, so reading past count is caught */
    rc_vec2 *heap = NULL;
    if (n > 0) {
        heap = malloc(sizeof(rc_vec2) * (size_t)n);
        if (heap == NULL) {
            abort();
        }
        memcpy(heap, pts, sizeof(rc_vec2) * (size_t)n);
    }
    rc_polygon out, untouched;
    memset(&out, 0xA5, sizeof out);
    untouched = out;
    rc_polygon_error e = rc_make_polygon(sel & 0x40u ? NULL : heap, n, &out);
    FZ_CHECK(rc_polygon_error_string(e) != NULL, "rc_polygon_error_string: NULL");
    if (e == RC_POLYGON_OK) {
        FZ_CHECK(!(sel & 0x40u), "rc_make_polygon: accepted NULL points");
        FZ_CHECK(n >= 3 && n <= RC_MAX_POLYGON_VERTICES, "rc_make_polygon: accepted %d points", n);
        FZ_CHECK(all_finite, "rc_make_polygon: accepted non-finite points");
        check_polygon(&out, "rc_make_polygon", true, 0.0);
        FZ_CHECK(out.count <= n, "rc_make_polygon: %d vertices from %d points", out.count, n);
        /* every vertex is one of the input points */
        for (int i = 0; i < out.count; ++i) {
            bool found = false;
            for (int k = 0; k < n; ++k) {
                found = found || rc_vec2_equal(out.vertices[i], pts[k]);
            }
            FZ_CHECK(found, "rc_make_polygon: vertex %d is not an input point", i);
        }
        rc_mass_data m = rc_compute_polygon_mass(&out, 1.0f);
        FZ_CHECK(!(m.area < 0.0f), "rc_compute_polygon_mass: negative area %g", m.area);
    } else {
        FZ_CHECK(memcmp(&out, &untouched, sizeof out) == 0, "rc_make_polygon: refused (%d) but wrote *out", (int)e);
    }
    free(heap);
}

static void op_box_regular(fz_input *in) {
    float hw = fz_float(in), hh = fz_float(in);
    rc_polygon b = rc_make_box(hw, hh);
    bool good = hw > 0.0f && hh > 0.0f && hw <= FLT_MAX / 2 && hh <= FLT_MAX / 2;
    FZ_CHECK(b.count == (good ? 4 : 0), "rc_make_box(%g, %g): count %d", hw, hh, b.count);
    if (good) {
        check_polygon(&b, "rc_make_box", false, 0.0);
    }
    int n = (int)(int8_t)fz_u8(in);
    float r = fz_float(in), a = fz_float(in);
    rc_polygon p = rc_make_regular_polygon(n, r, a);
    if (p.count != 0) {
        FZ_CHECK(isfinite(r) && r > 0.0f && isfinite(a) && (p.count == n || r < 1e-30f || r > 1e30f || fabsf(a) > 1.0e5f),
                 "rc_make_regular_polygon(%d, %g, %g): count %d", n, r, a, p.count);
        check_polygon(&p, "rc_make_regular_polygon", true, 0.0);
    } else {
        /* (beyond |angle| 1e5, where rc_rot_from_angle promises no accuracy, angle + 2 pi k / n
           may round to angle and the vertices merge; radii near the ends of float range lose
           their polygon to rounding too) */
        FZ_CHECK(!(n >= 3 && n <= RC_MAX_POLYGON_VERTICES && r >= 1e-30f && r <= 1e30f && fabsf(a) <= 1.0e5f),
                 "rc_make_regular_polygon(%d, %g, %g) refused good input", n, r, a);
    }
}

static void op_rot(fz_input *in) {
    float angle = fz_float(in);
    rc_rot q = rc_rot_from_angle(angle);
    if (!isfinite(angle)) {
        FZ_CHECK(q.c == 1.0f && q.s == 0.0f, "rc_rot_from_angle(%g): (%g, %g), not the identity", angle, q.c, q.s);
        return;
    }
    FZ_CHECK(isfinite(q.c) && isfinite(q.s), "rc_rot_from_angle(%g): not finite", angle);
    double l2 = (double)q.c * q.c + (double)q.s * q.s;
    FZ_CHECK(fabs(l2 - 1.0) <= 4.0 * FLT_EPSILON, "rc_rot_from_angle(%g): length^2 %.9g", angle, l2);
    if (fabsf(angle) <= 1.0e5f) {
        double ec = fabs(q.c - cos((double)angle)), es = fabs(q.s - sin((double)angle));
        FZ_CHECK(ec <= 2.0 * FLT_EPSILON && es <= 2.0 * FLT_EPSILON, "rc_rot_from_angle(%.9g): off by (%g, %g)",
                 angle, ec, es);
    }
}

static void op_nearest(fz_input *in) {
    rc_vec2 a = draw_vec(in), b = draw_vec(in), p = draw_vec(in);
    rc_vec2 q = rc_nearest_point_on_segment(a, b, p);
    if (rc_vec2_equal(a, b) && vfinite(a)) {
        FZ_CHECK(rc_vec2_equal(q, a), "rc_nearest_point_on_segment: degenerate segment did not give a");
    }
    if (vfinite(a) && vfinite(b) && vfinite(p)) {
        FZ_CHECK(vfinite(q), "rc_nearest_point_on_segment: (%g, %g) from finite input", q.x, q.y);
        double scale = mag(a) + mag(b) + mag(p);
        rc_aabb box = rc_segment_aabb(a, b);
        double outside = fmax(fmax(box.lower.x - (double)q.x, (double)q.x - box.upper.x),
                              fmax(box.lower.y - (double)q.y, (double)q.y - box.upper.y));
        FZ_CHECK(outside <= REL * scale + TINY, "rc_nearest_point_on_segment: (%g, %g) off the segment's box", q.x,
                 q.y);
        double dq = dist(p, q), da = dist(p, a), db = dist(p, b);
        FZ_CHECK(dq <= fmin(da, db) + REL * scale + TINY, "rc_nearest_point_on_segment: %g away, ends are %g and %g", dq, da,
                 db);
        rc_distance_result r = rc_point_distance_segment(a, b, p);
        if (getenv("FZ_VERBOSE") != NULL) {
            fprintf(stderr, "a (%.9g, %.9g) b (%.9g, %.9g) p (%.9g, %.9g) -> point (%.9g, %.9g) d %.9g\n", a.x, a.y, b.x,
                    b.y, p.x, p.y, r.point.x, r.point.y, r.distance);
        }
        check_unit(r.normal, "rc_point_distance_segment");
        FZ_CHECK(r.distance >= 0.0f, "rc_point_distance_segment: negative distance %g", r.distance);
    }
}

static void op_circle(fz_input *in) {
    rc_circle c = {draw_vec(in), fz_float(in)};
    rc_vec2 o = draw_vec(in), d = draw_vec(in);
    rc_ray_hit h;
    bool hit = rc_ray_circle(o, d, c.center, c.radius, &h);
    FZ_CHECK(hit == rc_ray_circle(o, d, c.center, c.radius, NULL), "rc_ray_circle: depends on hit == NULL");
    if (hit) {
        FZ_CHECK(vfinite(c.center) && isfinite(c.radius) && c.radius >= 0.0f, "rc_ray_circle: hit a bad circle (r %g)",
                 c.radius);
        check_hit("rc_ray_circle", o, d, &h, true);
        if (!h.started_inside && vfinite(rc_add(o, d))) {
            double scale = mag(o) + mag(d) + mag(c.center) + c.radius;
            double off = fabs(dist(h.point, c.center) - c.radius);
            FZ_CHECK(off <= REL * scale + TINY, "rc_ray_circle: point %g off the circle", off);
        }
    }
    float radius = fz_float(in);
    if (rc_circle_cast_circle(c, o, radius, d, &h)) {
        check_hit("rc_circle_cast_circle", o, d, &h, false);
    }
    rc_distance_result dr = rc_point_distance_circle(c, o);
    check_unit(dr.normal, "rc_point_distance_circle");
    FZ_CHECK(isfinite(dr.distance) && vfinite(dr.point), "rc_point_distance_circle: (%g, %g) at %g", dr.point.x,
             dr.point.y, dr.distance); /* (beyond float range: FLT_MAX; bad input: no answer) */
    rc_aabb box = rc_circle_aabb(c);
    FZ_CHECK(vfinite(box.lower) && vfinite(box.upper), "rc_circle_aabb: not finite");
    if (vfinite(c.center) && isfinite(c.radius) && c.radius >= 0.0f && (box.lower.x != 0.0f || box.upper.x != 0.0f ||
                                                                        box.lower.y != 0.0f || box.upper.y != 0.0f)) {
        FZ_CHECK(rc_aabb_contains_point(box, c.center), "rc_circle_aabb: misses the centre");
    }
    rc_mass_data m = rc_compute_circle_mass(c, fz_float(in));
    FZ_CHECK(isfinite(m.area) && isfinite(m.mass) && isfinite(m.rotational_inertia) && !(m.mass < 0.0f),
             "rc_compute_circle_mass: area %g mass %g inertia %g", m.area, m.mass, m.rotational_inertia);
}

static void check_manifold(const char *what, bool touching, const rc_manifold *m) {
    if (!touching) {
        return;
    }
    check_unit(m->normal, what);
    FZ_CHECK(m->point_count == 1 || m->point_count == 2, "%s: %d points", what, m->point_count);
    float deepest = 0.0f;
    for (int i = 0; i < m->point_count; ++i) {
        FZ_CHECK(vfinite(m->points[i]), "%s: point %d not finite", what, i);
        FZ_CHECK(m->depths[i] >= 0.0f && isfinite(m->depths[i]), "%s: depth %d is %g", what, i, m->depths[i]);
        deepest = m->depths[i] > deepest ? m->depths[i] : deepest;
    }
    FZ_CHECK(m->depth == deepest, "%s: depth %g but the deepest point is %g", what, m->depth, deepest);
}

/* Shapes whose numbers stay well inside float range, so that every product the queries form
 * is finite: then no answer may contain a NaN or an infinity. */
static bool moderate_polygon(const rc_polygon *p) {
    for (int i = 0; i < p->count; ++i) {
        if (mag(p->vertices[i]) > 1.0e15) {
            return false;
        }
    }
    return true;
}
static bool moderate_vec(rc_vec2 v) { return vfinite(v) && mag(v) <= 1.0e15; }
static bool moderate_circle(rc_circle c) {
    return moderate_vec(c.center) && isfinite(c.radius) && c.radius >= 0.0f && c.radius <= 1.0e15f;
}

/* A separating edge found or asked (rc_hulls_apart_on_axis) says apart only where the manifold
 * is empty, for any numbers: the polygon pa against pb and against the capsule sa-sb of radius
 * r, pb's hull placed by (at, angle), the margin |margin|. (From the operation's own draws: the
 * corpus keeps its meaning.) */
static void check_apart_axes(const rc_polygon *pa, const rc_polygon *pb, rc_vec2 sa, rc_vec2 sb, float r, rc_vec2 at,
                             float angle, float margin) {
    rc_transform xf = {at, rc_rot_from_angle(angle)};
    margin = fabsf(margin);
    rc_hull a = rc_hull_polygon(pa->vertices, pa->normals, pa->count, 0.0f);
    rc_hull others[2] = {rc_hull_polygon(pb->vertices, pb->normals, pb->count, 0.0f), rc_hull_capsule(sa, sb, fabsf(r))};
    for (int k = 0; k < 2; ++k) {
        rc_hull_view va = rc_hull_view_of(&a), vb = rc_hull_view_of(&others[k]);
        for (int flip = 0; flip < 2; ++flip) {
            const rc_hull_view *first = flip ? &vb : &va, *second = flip ? &va : &vb;
            rc_hull moved = rc_hull_view_transform(second, xf);
            rc_hull_view vm = rc_hull_view_of(&moved);
            int axis;
            int count = rc_collide_views_axis(first, &vm, margin, &axis).count;
            if (axis != RC_NO_AXIS) {
                FZ_CHECK(count == 0, "rc_collide_views_axis: axis %d with %d points", axis, count);
                FZ_CHECK(rc_hulls_apart_on_axis(first, second, xf, axis, margin),
                         "rc_hulls_apart_on_axis: axis %d found apart, asked not", axis);
            }
            for (int e = -1; e < RC_AXIS_OF_B + RC_MAX_POLYGON_VERTICES; ++e) {
                if (rc_hulls_apart_on_axis(first, second, xf, e, margin)) {
                    FZ_CHECK(count == 0, "rc_hulls_apart_on_axis: apart on %d, %d points", e, count);
                }
            }
        }
    }
}

static void op_shapes(fz_input *in) {
    rc_polygon pa, pb;
    double rounded_a, rounded_b; /* (their shapes are checked by their own rules below) */
    bool ga = draw_polygon(in, &pa, &rounded_a);
    bool gb = draw_polygon(in, &pb, &rounded_b);
    rc_circle ca = {draw_vec(in), fz_float(in)};
    rc_circle cb = {draw_vec(in), fz_float(in)};
    rc_vec2 sa = draw_vec(in), sb = draw_vec(in), o = draw_vec(in), d = draw_vec(in);
    float radius = fz_float(in);
    rc_manifold m;
    bool hit;
    if (getenv("FZ_VERBOSE") != NULL) {
        fprintf(stderr, "segment (%.9g, %.9g)-(%.9g, %.9g) origin (%.9g, %.9g) d (%.9g, %.9g) radius %.9g\n", sa.x, sa.y,
                sb.x, sb.y, o.x, o.y, d.x, d.y, radius);
        fprintf(stderr, "circles (%.9g, %.9g) r %.9g, (%.9g, %.9g) r %.9g\n", ca.center.x, ca.center.y, ca.radius,
                cb.center.x, cb.center.y, cb.radius);
    }

    hit = rc_collide_circles(ca, cb, &m);
    if (moderate_circle(ca) && moderate_circle(cb)) {
        check_manifold("rc_collide_circles", hit, &m);
    }
    hit = rc_collide_segment_circle(sa, sb, ca, &m);
    if (moderate_circle(ca) && moderate_vec(sa) && moderate_vec(sb)) {
        check_manifold("rc_collide_segment_circle", hit, &m);
    }
    rc_ray_hit h;
    if (rc_circle_cast_segment(sa, sb, o, radius, d, &h)) {
        check_hit("rc_circle_cast_segment", o, d, &h, false);
    }
    if (ga) {
        hit = rc_collide_polygon_circle(&pa, ca, &m);
        if (moderate_polygon(&pa) && moderate_circle(ca)) {
            check_manifold("rc_collide_polygon_circle", hit, &m);
        }
        hit = rc_collide_segment_polygon(sa, sb, &pa, &m);
        if (moderate_polygon(&pa) && moderate_vec(sa) && moderate_vec(sb)) {
            check_manifold("rc_collide_segment_polygon", hit, &m);
        }
        if (getenv("FZ_VERBOSE") != NULL) {
            for (int i = 0; i < pa.count; ++i) {
                fprintf(stderr, "pa v[%d] = (%.9g, %.9g)\n", i, pa.vertices[i].x, pa.vertices[i].y);
            }
        }
        if (rc_circle_cast_polygon(&pa, o, radius, d, &h)) {
            check_hit("rc_circle_cast_polygon", o, d, &h, false);
        }
        if (gb) {
            hit = rc_collide_polygons(&pa, &pb, &m);
            if (moderate_polygon(&pa) && moderate_polygon(&pb)) {
                check_manifold("rc_collide_polygons", hit, &m);
            }
            check_apart_axes(&pa, &pb, sa, sb, ca.radius, o, radius, d.x);
        }
    } else {
        /* the library's own answer to bad input (count 0) must be safe to pass back */
        (void)rc_collide_polygon_circle(&pa, ca, &m);
        (void)rc_collide_segment_polygon(sa, sb, &pa, &m);
        (void)rc_circle_cast_polygon(&pa, o, radius, d, &h);
        (void)rc_ray_cast_polygon(&pa, o, d, &h);
        (void)rc_point_distance_polygon(&pa, o);
        (void)rc_compute_polygon_mass(&pa, 1.0f);
        (void)rc_collide_polygons(&pa, &pa, &m);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size, 0};
    for (int ops = 0; ops < 64 && !fz_done(&in); ++ops) {
        switch (fz_u8(&in) % 12u) {
        case 0: op_ray_segment(&in); break;
        case 1: op_ray_polygon(&in); break;
        case 2: op_points(&in); break;
        case 3: op_convex(&in); break;
        case 4: op_make_polygon(&in); break;
        case 5: op_box_regular(&in); break;
        case 6: op_rot(&in); break;
        case 7: op_nearest(&in); break;
        case 8: op_circle(&in); break;
        case 9: op_shapes(&in); break;
        case 10: {
            rc_vec2 a = draw_vec(&in);
            rc_vec2 n = rc_normalize(a);
            if (vfinite(a)) {
                if (a.x == 0.0f && a.y == 0.0f) {
                    FZ_CHECK(n.x == 0.0f && n.y == 0.0f, "rc_normalize(0, 0) = (%g, %g)", n.x, n.y);
                } else {
                    check_unit(n, "rc_normalize");
                    FZ_CHECK(n.x * a.x >= 0.0f && n.y * a.y >= 0.0f, "rc_normalize(%g, %g) = (%g, %g)", a.x, a.y, n.x,
                             n.y);
                }
            }
            break;
        }
        default: {
            rc_vec2 a = draw_vec(&in), b = draw_vec(&in);
            rc_aabb box = rc_segment_aabb(a, b);
            if (vfinite(a) && vfinite(b)) {
                FZ_CHECK(rc_aabb_is_valid(box) && rc_aabb_contains_point(box, a) && rc_aabb_contains_point(box, b),
                         "rc_segment_aabb: box misses an end");
            }
            break;
        }
        }
    }
    return 0;
}
