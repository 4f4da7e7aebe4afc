/* Rays and swept circles against prepared shapes. A swept circle against a shape is a ray
 * against the shape grown by the radius; for convex shapes the grown boundary is made of the
 * edges pushed out along their normals and arcs at the vertices, and the first point of the
 * ray's line on any of those pieces is the line's entry into the grown shape. */
#include "shapes/shapes.h"

#include <math.h>

static void set_hit(rc_ray_hit *hit, float t, rc_vec2 point, rc_vec2 normal, bool started_inside) {
    if (hit != NULL) {
        hit->t = t;
        hit->point = point;
        hit->normal = normal;
        hit->started_inside = started_inside;
        hit->shape = RC_NULL_SHAPE_ID;
        hit->body = RC_NULL_BODY_ID;
    }
}

static bool cast_inputs_valid(rc_vec2 origin, rc_vec2 translation, float radius) {
    return rc_vec2_is_finite(origin) && rc_vec2_is_finite(translation) && rc_is_finite(radius) && radius >= 0.0f &&
           (translation.x != 0.0f || translation.y != 0.0f);
}

bool rc_ray_cast_polygon(const rc_polygon *polygon, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    if (!rc_polygon_input_ok(polygon) || !cast_inputs_valid(origin, translation, 0.0f)) {
        return false;
    }
    rc_convex view = rc_convex_of(polygon);
    return rc_convex_ray_cast(&view, origin, translation, hit);
}

bool rc_convex_ray_cast(const rc_convex *polygon, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    if (translation.x == 0.0f && translation.y == 0.0f) {
        return false;
    }
    rc_vec2 d = translation;
    /* squares in double: a translation beyond about 1e19 overflowed them, and every edge
       looked parallel to the ray */
    double dd = (double)d.x * d.x + (double)d.y * d.y;
    /* Cyrus-Beck on the line with each edge's unit outward normal. line_in is where the line
       enters through the last entering edge, line_out where it leaves through the first
       leaving edge. */
    /* Each line is taken a rounding further out (slack: two float spacings of its ends) to
       choose the edge the ray enters through and to tell a hit from a miss, and the hit is
       then where the ray meets that edge's own line. Two boxes laid edge to edge are a
       rounding apart or overlapping where they meet, as their vertices were placed: a ray
       aimed at the seam passed between their tops and met the side of one, and a bullet came
       back sideways from a flat floor. A ray within that rounding of a corner is a ray at the
       corner. */
    float line_in = -INFINITY, line_out = INFINITY, exact_in = -INFINITY, exact_out = INFINITY;
    double in_facing = 0.0;
    int in_index = -1;
    int grazed = -1; /* a parallel edge whose line holds the origin */
    const rc_vec2 *v = polygon->vertices;
    int count = polygon->count;
    for (int i = 0; i < count; ++i) {
        rc_vec2 a = v[i], b = v[i + 1 < count ? i + 1 : 0];
        /* the edge's own line, a to b, not its stored normal through a: rounded to float, the
           normal is turned by up to 6e-8 rad, which 10,000 along a long wall moves its line by
           6e-4, more than a skin (a bullet stopping a skin short of the hit was still inside
           the wall). dist and facing are the unit normal's, times the edge's length (the same
           for both: their ratio is t). In double: the products of float differences are exact
           enough, and neither underflow for small polygons nor overflow for large ones. */
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
        double dist = ey * ((double)a.x - origin.x) - ex * ((double)a.y - origin.y);
        double facing = ey * d.x - ex * d.y;
        if (facing * facing <= (double)RC_REL_TOL * RC_REL_TOL * dd * (ex * ex + ey * ey)) {
            if (dist < 0.0) {
                return false;
            }
            if (dist == 0.0) {
                grazed = i;
            }
            continue;
        }
        rc_vec2 n = polygon->normals[i];
        double len = ey * n.x - ex * n.y; /* the edge's length (e turned by its normal) */
        float reach = rc_maxf(rc_maxf(fabsf(a.x), fabsf(a.y)), rc_maxf(fabsf(b.x), fabsf(b.y)));
        double slack = 2.0 * FLT_EPSILON * reach * (len > 0.0 ? len : 0.0);
        float tc = (float)((dist + slack) / facing);
        if (facing < 0.0) {
            /* an exact tie at a vertex keeps the edge met more squarely */
            if (tc > line_in || (tc == line_in && facing < in_facing)) {
                line_in = tc;
                in_facing = facing;
                in_index = i;
                exact_in = (float)(dist / facing);
            }
        } else {
            line_out = rc_minf(line_out, tc);
            exact_out = rc_minf(exact_out, (float)(dist / facing));
        }
        /* (leaving at once: measured on the lines themselves, or a ray that leaves a face from a
           skin outside it, a bounce, was taken for one inside) */
        if (line_in > line_out || line_in > 1.0f || exact_out <= 0.0f) {
            return false; /* misses, lies beyond the ray, behind it, or the ray leaves at once */
        }
    }
    if (in_index < 0) {
        return false; /* only parallel edges: the polygon has no extent across the ray */
    }
    if (exact_in > 1.0f) {
        return false; /* within the slack of the sweep's end, but beyond it */
    }
    /* the normal of the edge entered, as its own line says where rounding turned the edge away
       from the stored one (found by fuzz_geometry: a triangle 0.2 across at 1e6 came back with a
       normal along the ray) */
    rc_vec2 in_normal = rc_edge_normal(v[in_index], v[in_index + 1 < count ? in_index + 1 : 0],
                                       polygon->normals[in_index]);
    if (exact_in >= 0.0f) {
        rc_vec2 p = rc_mul_add(origin, exact_in, d);
        if (hit != NULL) {
            rc_vec2 n = rc_vertex_hit_normal(v, polygon->normals, count, 1.0f, in_index, in_normal, p, origin, d);
            set_hit(hit, exact_in, p, n, false);
        }
        return true;
    }
    /* the line entered before the origin and leaves after it: the origin is inside, unless it
       sits on an edge the ray runs along */
    if (grazed >= 0) {
        set_hit(hit, 0.0f, origin, rc_edge_normal(v[grazed], v[grazed + 1 < count ? grazed + 1 : 0],
                                                  polygon->normals[grazed]), false);
        return true;
    }
    set_hit(hit, 0.0f, origin, in_normal, true);
    return true;
}

/* ---- swept circles ------------------------------------------------------------------------- */

/* Where the line origin + t d first meets a piece of a grown boundary, over all t. */
typedef struct line_entry {
    float t;
    rc_vec2 normal;       /* outward normal of the grown shape there */
    rc_vec2 touch;        /* the point of the original shape the circle touches */
} line_entry;

/* The line against the segment a..b pushed out by r along its unit outward normal n (the edge
 * turned right: (e.y, -e.x) / |e|). Only an entering crossing (against n) can be the first. */
static void enter_offset_edge(line_entry *best, rc_vec2 origin, rc_vec2 d, float dlen, rc_vec2 a, rc_vec2 b,
                              rc_vec2 n, float r) {
    if (!rc_vec2_is_finite(n)) {
        /* a segment longer than FLT_MAX, whose float normal overflowed, meets nothing along its
           length (its ends still do): measured in double its line gave a normal of NaN (found
           by fuzz_geometry) */
        return;
    }
    /* the edge's own line through a and b, in double, not the stored normal through a: rounded
       to float, the normal is turned by up to 6e-8 rad, which moves the line by 6e-4 at 10,000
       along a long wall, more than a skin (as rc_convex_ray_cast) */
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double len = sqrt(ex * ex + ey * ey);
    if (!(len > 0.0)) {
        return;
    }
    double facing = (ey * d.x - ex * d.y) / len;
    if (facing >= -(double)RC_REL_TOL * dlen) {
        return;
    }
    /* distance from the origin to the pushed-out line, measured along n */
    double dist = (ey * ((double)a.x - origin.x) - ex * ((double)a.y - origin.y)) / len + r;
    float t = (float)(dist / facing);
    if (t >= best->t) {
        return;
    }
    /* is the crossing within the edge? project the touch point on the original edge (in
       double: the squares of long edges overflow in float) */
    rc_vec2 p = rc_mul_add(origin, t, d);
    double ee = ex * ex + ey * ey;
    double s = ((double)p.x - a.x) * ex + ((double)p.y - a.y) * ey;
    if (!(s >= 0.0 && s <= ee)) { /* NaN too: t overflowed for a sweep of a float's length */
        return;
    }
    /* the pushed-out line is the edge's own: so is the normal, where rounding turned the edge
       away from the stored one */
    n = rc_edge_normal(a, b, n);
    best->t = t;
    best->normal = n;
    best->touch = rc_mul_add(p, -r, n);
}

/* The line against the circle of radius r about c: its first root. */
static void enter_vertex(line_entry *best, rc_vec2 origin, rc_vec2 d, rc_vec2 c, float r) {
    /* In double, as rc_ray_circle: squares of radii and distances beyond about 1e19 overflow
       in float; and the direction is a unit vector to double precision, since a float one is
       off by more than a radius far below the coordinates' spacing (the entry's side flipped). */
    double dlen = sqrt((double)d.x * d.x + (double)d.y * d.y);
    double ux = d.x / dlen, uy = d.y / dlen;
    double mx = (double)origin.x - c.x, my = (double)origin.y - c.y;
    double s = -(mx * ux + my * uy);
    double cx = mx + s * ux, cy = my + s * uy;
    double h2 = cx * cx + cy * cy;
    double rr = (double)r * r;
    if (h2 > rr) {
        return;
    }
    double enter = s - sqrt(rr - h2);
    float t = (float)(enter / dlen);
    if (t >= best->t) {
        return;
    }
    rc_vec2 n = rc_line_entry_normal(cx, cy, ux, uy, sqrt(rr - h2));
    if (n.x == 0.0f && n.y == 0.0f) {
        n = rc_unit_of(-ux, -uy);
    }
    best->t = t;
    best->normal = n;
    best->touch = c;
}

/* Turn a line entry into the answer of a sweep whose origin is inside (by distance) or not. */
static bool finish_sweep(const line_entry *entry, bool inside, rc_vec2 origin, float tol_len, float dlen,
                         rc_ray_hit *hit) {
    if (inside) {
        set_hit(hit, 0.0f, origin, entry->normal, true);
        return true;
    }
    /* Behind by more than the rounding is measured as a length: for a sweep far shorter than
       the rounding at its coordinates, the tolerance as a fraction is beyond float range, and
       an entry far behind had overflowed to -inf. */
    if (!(entry->t <= 1.0f) || (double)entry->t * dlen < -(double)tol_len) {
        return false; /* no entry, entry beyond the sweep, or the shape is behind */
    }
    /* an entry a rounding behind the origin is an origin on the grown boundary moving in */
    float t = entry->t > 0.0f ? entry->t : 0.0f;
    set_hit(hit, t, entry->touch, entry->normal, false);
    return true;
}

bool rc_circle_cast_circle(rc_circle shape, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit) {
    if (!cast_inputs_valid(origin, translation, radius) || !rc_vec2_is_finite(shape.center) ||
        !rc_is_finite(shape.radius) || shape.radius < 0.0f) {
        return false;
    }
    rc_ray_hit h;
    if (!rc_ray_circle(origin, translation, shape.center, shape.radius + radius, &h)) {
        return false;
    }
    if (!h.started_inside) {
        h.point = rc_mul_add(shape.center, shape.radius, h.normal);
    }
    if (hit != NULL) {
        *hit = h;
    }
    return true;
}

bool rc_circle_cast_polygon(const rc_polygon *shape, rc_vec2 origin, float radius, rc_vec2 translation,
                            rc_ray_hit *hit) {
    if (!rc_polygon_input_ok(shape) || !cast_inputs_valid(origin, translation, radius)) {
        return false;
    }
    rc_convex view = rc_convex_of(shape);
    return rc_convex_circle_cast(&view, origin, radius, translation, hit);
}

bool rc_convex_circle_cast(const rc_convex *shape, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit) {
    if (radius == 0.0f) {
        return rc_convex_ray_cast(shape, origin, translation, hit);
    }
    if (translation.x == 0.0f && translation.y == 0.0f) {
        return false;
    }
    float dlen = rc_length(translation);
    rc_vec2 u = rc_normalize(translation);
    line_entry entry = {INFINITY, rc_neg(u), origin};
    for (int i = 0; i < shape->count; ++i) {
        int j = i + 1 < shape->count ? i + 1 : 0;
        enter_offset_edge(&entry, origin, translation, dlen, shape->vertices[i], shape->vertices[j], shape->normals[i],
                          radius);
        enter_vertex(&entry, origin, translation, shape->vertices[i], radius);
    }
    rc_distance_result dist = rc_convex_distance(shape, origin);
    float scale = rc_length(rc_sub(origin, shape->centroid)) + rc_convex_max_extent(shape) + radius;
    return finish_sweep(&entry, dist.distance < radius, origin, RC_REL_TOL * scale, dlen, hit);
}

bool rc_circle_cast_segment(rc_vec2 a, rc_vec2 b, rc_vec2 origin, float radius, rc_vec2 translation,
                            rc_ray_hit *hit) {
    if (!rc_vec2_is_finite(a) || !rc_vec2_is_finite(b) || !cast_inputs_valid(origin, translation, radius)) {
        return false;
    }
    if (radius == 0.0f) {
        return rc_ray_segment(origin, translation, a, b, hit);
    }
    float dlen = rc_length(translation);
    rc_vec2 u = rc_normalize(translation);
    line_entry entry = {INFINITY, rc_neg(u), origin};
    rc_vec2 e = rc_sub(b, a);
    float elen = rc_length(e);
    if (elen > 0.0f) {
        rc_vec2 n = rc_normalize(rc_right_perp(e));
        enter_offset_edge(&entry, origin, translation, dlen, a, b, n, radius);
        enter_offset_edge(&entry, origin, translation, dlen, b, a, rc_neg(n), radius);
    }
    enter_vertex(&entry, origin, translation, a, radius);
    enter_vertex(&entry, origin, translation, b, radius);
    rc_distance_result dist = rc_segment_distance(a, b, origin);
    float scale = rc_length(rc_sub(origin, a)) + elen + radius;
    return finish_sweep(&entry, dist.distance < radius, origin, RC_REL_TOL * scale, dlen, hit);
}
