/* Building convex polygons (validation, orientation, clean-up), their mass and boxes. */
#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

const char *rc_polygon_error_string(rc_polygon_error error) {
    switch (error) {
    case RC_POLYGON_OK:
        return "no error";
    case RC_POLYGON_NULL_POINTS:
        return "the point array is NULL";
    case RC_POLYGON_TOO_FEW:
        return "a polygon needs at least 3 points";
    case RC_POLYGON_TOO_MANY:
        return "a polygon has at most RC_MAX_POLYGON_VERTICES (8) points";
    case RC_POLYGON_NOT_FINITE:
        return "a point has a NaN or infinite coordinate";
    case RC_POLYGON_DEGENERATE:
        return "the points enclose no area (fewer than 3 distinct points off one line)";
    case RC_POLYGON_NOT_CONVEX:
        return "the outline is not convex (it turns both ways or crosses itself)";
    }
    return "unknown polygon error";
}

float rc_convex_max_extent(const rc_convex *p) {
    rc_vec2 lower = p->vertices[0], upper = p->vertices[0];
    for (int i = 1; i < p->count; ++i) {
        lower = rc_min(lower, p->vertices[i]);
        upper = rc_max(upper, p->vertices[i]);
    }
    return rc_maxf(upper.x - lower.x, upper.y - lower.y);
}

float rc_convex_span(const rc_convex *p) {
    float far2 = 0.0f;
    for (int i = 1; i < p->count; ++i) {
        rc_vec2 d = rc_sub(p->vertices[i], p->vertices[0]);
        far2 = rc_maxf(far2, rc_dot(d, d));
    }
    return sqrtf(far2);
}

/* Cross product of (b - a) and (c - a) in double. */
static double cross3(rc_vec2 a, rc_vec2 b, rc_vec2 c) {
    double bx = (double)b.x - a.x, by = (double)b.y - a.y;
    double cx = (double)c.x - a.x, cy = (double)c.y - a.y;
    return bx * cy - by * cx;
}

/* How far a valid polygon's normal may turn from its edge's outward perpendicular, and its
 * centroid lie outside an edge: rounding. A polygon moved by rc_transform_polygon carries the
 * rounding of its rotated normals (a few FLT_EPSILON) and of its vertices, up to a few
 * FLT_EPSILON of its largest coordinate each, which turns an edge by that over its length (a
 * box 1 wide at 1e5, 0.01 rad at most). Of 200,000 boxes and regular polygons in random poses,
 * 1e-3 to 1e6 across within 10 of the origin or 1 to 1e6 across within 1e5, the worst used 4%
 * of 32 FLT_EPSILON. Never more than 1 (the normal within 60 degrees of its edge's): beyond that
 * an edge is all rounding. */
#define NORMAL_TOLERANCE (32.0 * FLT_EPSILON)

bool rc_polygon_input_ok(const rc_polygon *p) {
    if (p == NULL || p->count < 3 || p->count > RC_MAX_POLYGON_VERTICES || !rc_vec2_is_finite(p->centroid)) {
        return false;
    }
    int n = p->count;
    const rc_vec2 *v = p->vertices;
    rc_vec2 lower = v[0], upper = v[0];
    float reach = FLT_MIN; /* the largest coordinate of a vertex (below FLT_MIN the floats are as far apart) */
    for (int i = 0; i < n; ++i) {
        if (!rc_vec2_is_finite(v[i])) {
            return false;
        }
        lower = rc_min(lower, v[i]);
        upper = rc_max(upper, v[i]);
        reach = rc_maxf(reach, rc_maxf(fabsf(v[i].x), fabsf(v[i].y)));
    }
    /* its edges are floats (as rc_make_polygon asks); an extent of zero fails the next test */
    if (!rc_is_finite(upper.x - lower.x) || !rc_is_finite(upper.y - lower.y)) {
        return false;
    }
    /* strictly convex and counter-clockwise, as rc_make_polygon decides: every vertex strictly
       left of every edge it is not on (clockwise order, a bow-tie, repeated or collinear
       vertices fail) */
    for (int i = 0; i < n; ++i) {
        int j = i + 1 < n ? i + 1 : 0;
        for (int k = 0; k < n; ++k) {
            if (k != i && k != j && !(cross3(v[i], v[j], v[k]) > 0.0)) {
                return false;
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        int j = i + 1 < n ? i + 1 : 0;
        /* the queries read the normals as given: each must be a unit vector (else a hit could
           carry a normal that is not one), and its edge's outward one but for rounding (an
           inward one turned hits around) */
        rc_vec2 normal = p->normals[i];
        float nn = normal.x * normal.x + normal.y * normal.y;
        if (!(nn >= 0.999f && nn <= 1.001f)) {
            return false;
        }
        double ex = (double)v[j].x - v[i].x, ey = (double)v[j].y - v[i].y;
        double len = sqrt(ex * ex + ey * ey); /* > 0: the vertices are distinct */
        double tolerance = fmin(NORMAL_TOLERANCE * (1.0 + reach / len), 1.0);
        double dx = normal.x - ey / len, dy = normal.y + ex / len;
        if (!(dx * dx + dy * dy <= tolerance * tolerance)) {
            return false;
        }
        /* the centroid inside (a hit that starts inside reports it): outside an edge by no
           more than its rounding, that of the largest vertex coordinate */
        if (!(cross3(v[i], v[j], p->centroid) / len >= -NORMAL_TOLERANCE * reach)) {
            return false;
        }
    }
    return true;
}

bool rc_circle_input_ok(rc_circle c) { return rc_vec2_is_finite(c.center) && rc_is_finite(c.radius) && c.radius >= 0.0f; }

void rc_polygon_compute_normals(rc_polygon *p) {
    for (int i = 0; i < p->count; ++i) {
        int j = i + 1 < p->count ? i + 1 : 0;
        p->normals[i] = rc_normalize(rc_right_perp(rc_sub(p->vertices[j], p->vertices[i])));
    }
}

/* The area-weighted centroid, in double about the first vertex. */
static rc_vec2 centroid_of(const rc_vec2 *v, int n, double *area2_out) {
    double sx = 0.0, sy = 0.0, area2 = 0.0;
    for (int i = 1; i + 1 < n; ++i) {
        double ax = (double)v[i].x - v[0].x, ay = (double)v[i].y - v[0].y;
        double bx = (double)v[i + 1].x - v[0].x, by = (double)v[i + 1].y - v[0].y;
        double c = ax * by - ay * bx;
        area2 += c;
        sx += c * (ax + bx);
        sy += c * (ay + by);
    }
    if (area2_out != NULL) {
        *area2_out = area2;
    }
    if (area2 == 0.0) {
        return v[0];
    }
    return rc_v2((float)(v[0].x + sx / (3.0 * area2)), (float)(v[0].y + sy / (3.0 * area2)));
}

rc_polygon_error rc_make_polygon(const rc_vec2 *points, int count, rc_polygon *out) {
    if (points == NULL || out == NULL) {
        return RC_POLYGON_NULL_POINTS;
    }
    if (count < 3) {
        return RC_POLYGON_TOO_FEW;
    }
    if (count > RC_MAX_POLYGON_VERTICES) {
        return RC_POLYGON_TOO_MANY;
    }
    rc_vec2 lower = points[0], upper = points[0];
    for (int i = 0; i < count; ++i) {
        if (!rc_vec2_is_finite(points[i])) {
            return RC_POLYGON_NOT_FINITE;
        }
        lower = rc_min(lower, points[i]);
        upper = rc_max(upper, points[i]);
    }
    float size = rc_maxf(upper.x - lower.x, upper.y - lower.y);
    if (size == 0.0f) {
        return RC_POLYGON_DEGENERATE;
    }
    /* Lengths below this are rounding at this polygon's size; so are areas below size * tol. */
    double tol = (double)RC_REL_TOL * size;

    rc_vec2 v[RC_MAX_POLYGON_VERTICES];
    int n = 0;
    for (int i = 0; i < count; ++i) {
        if (n > 0 && rc_distance(v[n - 1], points[i]) <= tol) {
            continue;
        }
        v[n++] = points[i];
    }
    while (n > 1 && rc_distance(v[n - 1], v[0]) <= tol) {
        --n;
    }
    if (n < 3) {
        return RC_POLYGON_DEGENERATE;
    }

    double area2 = 0.0;
    centroid_of(v, n, &area2);
    if (fabs(area2) <= tol * size) {
        return RC_POLYGON_DEGENERATE;
    }
    if (area2 < 0.0) {
        for (int i = 0, j = n - 1; i < j; ++i, --j) {
            rc_vec2 tmp = v[i];
            v[i] = v[j];
            v[j] = tmp;
        }
    }

    /* Drop vertices that lie on the line through their neighbours (this also drops spikes that
       double back, which enclose nothing). */
    bool removed = true;
    while (removed && n >= 3) {
        removed = false;
        for (int i = 0; i < n; ++i) {
            rc_vec2 prev = v[(i + n - 1) % n], next = v[(i + 1) % n];
            double base = rc_distance(prev, next);
            double off_line = base > 0.0 ? fabs(cross3(prev, next, v[i])) / base : (double)rc_distance(prev, v[i]);
            if (off_line <= tol) {
                memmove(&v[i], &v[i + 1], sizeof(rc_vec2) * (size_t)(n - i - 1));
                --n;
                removed = true;
                break;
            }
        }
    }
    if (n < 3) {
        return RC_POLYGON_DEGENERATE;
    }

    /* Convex and simple: every vertex strictly left of every edge it is not on. A star that
       turns left at each point fails this too. */
    for (int i = 0; i < n; ++i) {
        int j = (i + 1) % n;
        for (int k = 0; k < n; ++k) {
            if (k == i || k == j) {
                continue;
            }
            if (cross3(v[i], v[j], v[k]) <= 0.0) {
                return RC_POLYGON_NOT_CONVEX;
            }
        }
    }

    rc_polygon p;
    memset(&p, 0, sizeof p);
    p.count = n;
    memcpy(p.vertices, v, sizeof(rc_vec2) * (size_t)n);
    rc_polygon_compute_normals(&p);
    p.centroid = centroid_of(p.vertices, n, NULL);
    *out = p;
    return RC_POLYGON_OK;
}

rc_polygon rc_make_box(float half_width, float half_height) {
    rc_polygon p;
    memset(&p, 0, sizeof p);
    /* a box whose width or height is beyond float range has edges no float can hold: refused,
       as rc_make_polygon refuses such an outline */
    if (!rc_is_finite(2.0f * half_width) || !rc_is_finite(2.0f * half_height) || half_width <= 0.0f ||
        half_height <= 0.0f) {
        return p;
    }
    p.count = 4;
    p.vertices[0] = rc_v2(-half_width, -half_height);
    p.vertices[1] = rc_v2(half_width, -half_height);
    p.vertices[2] = rc_v2(half_width, half_height);
    p.vertices[3] = rc_v2(-half_width, half_height);
    p.normals[0] = rc_v2(0.0f, -1.0f);
    p.normals[1] = rc_v2(1.0f, 0.0f);
    p.normals[2] = rc_v2(0.0f, 1.0f);
    p.normals[3] = rc_v2(-1.0f, 0.0f);
    return p;
}

rc_polygon rc_make_regular_polygon(int count, float radius, float angle) {
    rc_polygon p;
    memset(&p, 0, sizeof p);
    if (count < 3 || count > RC_MAX_POLYGON_VERTICES || !rc_is_finite(radius) || radius <= 0.0f ||
        !rc_is_finite(angle)) {
        return p;
    }
    rc_vec2 v[RC_MAX_POLYGON_VERTICES];
    for (int i = 0; i < count; ++i) {
        rc_rot q = rc_rot_from_angle(angle + 2.0f * RC_PI * (float)i / (float)count);
        v[i] = rc_v2(radius * q.c, radius * q.s);
    }
    rc_polygon made;
    if (rc_make_polygon(v, count, &made) == RC_POLYGON_OK) {
        p = made;
    }
    return p;
}

rc_polygon rc_transform_polygon(rc_transform xf, const rc_polygon *polygon) {
    rc_polygon p;
    memset(&p, 0, sizeof p);
    /* a rotation is a unit (c, s): one that is not would stretch the polygon and its normals */
    float qq = xf.q.c * xf.q.c + xf.q.s * xf.q.s;
    if (polygon == NULL || polygon->count < 0 || polygon->count > RC_MAX_POLYGON_VERTICES ||
        !rc_vec2_is_finite(xf.p) || !(fabsf(qq - 1.0f) <= 1e-5f)) {
        return p;
    }
    p = *polygon;
    bool finite = rc_vec2_is_finite(p.centroid);
    for (int i = 0; i < p.count; ++i) {
        p.vertices[i] = rc_transform_point(xf, polygon->vertices[i]);
        p.normals[i] = rc_rotate(xf.q, polygon->normals[i]);
        finite = finite && rc_vec2_is_finite(p.vertices[i]) && rc_vec2_is_finite(p.normals[i]);
    }
    p.centroid = rc_transform_point(xf, polygon->centroid);
    if (!finite || !rc_vec2_is_finite(p.centroid)) {
        memset(&p, 0, sizeof p); /* (moved out of float range, or it was not finite) */
    }
    return p;
}

rc_mass_data rc_compute_circle_mass(rc_circle circle, float density) {
    return rc_circle_input_ok(circle) && rc_density_ok(density) ? rc_finite_mass(rc_circle_mass_of(circle, density))
                                                                : RC_NO_MASS;
}

rc_mass_data rc_compute_polygon_mass(const rc_polygon *polygon, float density) {
    return rc_polygon_input_ok(polygon) && rc_density_ok(density) ? rc_finite_mass(rc_polygon_mass_of(polygon, density))
                                                                  : RC_NO_MASS;
}

rc_mass_data rc_circle_mass_of(rc_circle circle, float density) {
    rc_mass_data m;
    float rr = circle.radius * circle.radius;
    m.area = RC_PI * rr;
    m.mass = density * m.area;
    m.center = circle.center;
    m.rotational_inertia = 0.5f * m.mass * rr;
    return m;
}

rc_mass_data rc_polygon_mass_of(const rc_polygon *polygon, float density) {
    rc_mass_data m;
    /* Triangles fanned from the centroid; each contributes its area and its second moment
       about the fan point, (area / 6) * (|a|^2 + a.b + |b|^2). */
    rc_vec2 c = polygon->centroid;
    double area2 = 0.0, second = 0.0;
    for (int i = 0; i < polygon->count; ++i) {
        int j = i + 1 < polygon->count ? i + 1 : 0;
        double ax = (double)polygon->vertices[i].x - c.x, ay = (double)polygon->vertices[i].y - c.y;
        double bx = (double)polygon->vertices[j].x - c.x, by = (double)polygon->vertices[j].y - c.y;
        double cr = ax * by - ay * bx;
        area2 += cr;
        second += cr * (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by);
    }
    m.area = (float)(0.5 * area2);
    m.mass = density * m.area;
    m.center = c;
    m.rotational_inertia = (float)((double)density * second / 12.0);
    return m;
}

static const rc_aabb NO_BOX = {{0.0f, 0.0f}, {0.0f, 0.0f}};

rc_aabb rc_circle_aabb(rc_circle circle) {
    return rc_circle_input_ok(circle) && rc_disk_in_range(circle.center, circle.radius) ? rc_circle_box(circle) : NO_BOX;
}

rc_aabb rc_polygon_aabb(const rc_polygon *polygon) { return rc_polygon_input_ok(polygon) ? rc_polygon_box(polygon) : NO_BOX; }

rc_aabb rc_segment_aabb(rc_vec2 a, rc_vec2 b) {
    return rc_vec2_is_finite(a) && rc_vec2_is_finite(b) ? rc_segment_box(a, b) : NO_BOX;
}
