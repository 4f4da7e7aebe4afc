/* Distance between convex hulls (GJK on their cores), time of impact by conservative
 * advancement, and a hull cast along a translation. */
#include "shapes/collide.h"

#include <math.h>
#include <string.h>

#define GJK_MAX_ITERATIONS 24
#define TOI_MAX_ITERATIONS 48

typedef struct simplex_vertex {
    rc_vec2 wa, wb, w; /* support points of A and B, and w = wb - wa */
    float weight;      /* barycentric coordinate of the closest point */
    int ia, ib;
} simplex_vertex;

typedef struct simplex {
    simplex_vertex v[3];
    int count;
} simplex;

static int support(const rc_hull *h, rc_vec2 d) {
    int best = 0;
    float most = rc_dot(h->points[0], d);
    for (int i = 1; i < h->count; ++i) {
        float s = rc_dot(h->points[i], d);
        if (s > most) {
            most = s;
            best = i;
        }
    }
    return best;
}

/* The closest point to the origin of a segment of the difference: keep the vertices whose
 * region holds it, with their weights. */
static void solve2(simplex *s) {
    rc_vec2 w1 = s->v[0].w, w2 = s->v[1].w, e = rc_sub(w2, w1);
    float d2 = -rc_dot(w1, e); /* how far the origin lies past w1 towards w2 */
    if (d2 <= 0.0f) {
        s->v[0].weight = 1.0f;
        s->count = 1;
        return;
    }
    float d1 = rc_dot(w2, e); /* how far past w2 back towards w1 */
    if (d1 <= 0.0f) {
        s->v[0] = s->v[1];
        s->v[0].weight = 1.0f;
        s->count = 1;
        return;
    }
    float inv = 1.0f / (d1 + d2);
    s->v[0].weight = d1 * inv;
    s->v[1].weight = d2 * inv;
}

/* The same for a triangle: vertex, edge and face regions by barycentric signs. */
static void solve3(simplex *s) {
    rc_vec2 w1 = s->v[0].w, w2 = s->v[1].w, w3 = s->v[2].w;
    rc_vec2 e12 = rc_sub(w2, w1), e13 = rc_sub(w3, w1), e23 = rc_sub(w3, w2);
    float d12_1 = rc_dot(w2, e12), d12_2 = -rc_dot(w1, e12);
    float d13_1 = rc_dot(w3, e13), d13_2 = -rc_dot(w1, e13);
    float d23_1 = rc_dot(w3, e23), d23_2 = -rc_dot(w2, e23);
    float n123 = rc_cross(e12, e13);
    float d123_1 = n123 * rc_cross(w2, w3), d123_2 = n123 * rc_cross(w3, w1), d123_3 = n123 * rc_cross(w1, w2);
    if (d12_2 <= 0.0f && d13_2 <= 0.0f) {
        s->v[0].weight = 1.0f;
        s->count = 1;
    } else if (d12_1 > 0.0f && d12_2 > 0.0f && d123_3 <= 0.0f) {
        float inv = 1.0f / (d12_1 + d12_2);
        s->v[0].weight = d12_1 * inv;
        s->v[1].weight = d12_2 * inv;
        s->count = 2;
    } else if (d13_1 > 0.0f && d13_2 > 0.0f && d123_2 <= 0.0f) {
        float inv = 1.0f / (d13_1 + d13_2);
        s->v[0].weight = d13_1 * inv;
        s->v[2].weight = d13_2 * inv;
        s->v[1] = s->v[2];
        s->count = 2;
    } else if (d12_1 <= 0.0f && d23_2 <= 0.0f) {
        s->v[0] = s->v[1];
        s->v[0].weight = 1.0f;
        s->count = 1;
    } else if (d13_1 <= 0.0f && d23_1 <= 0.0f) {
        s->v[0] = s->v[2];
        s->v[0].weight = 1.0f;
        s->count = 1;
    } else if (d23_1 > 0.0f && d23_2 > 0.0f && d123_1 <= 0.0f) {
        float inv = 1.0f / (d23_1 + d23_2);
        s->v[1].weight = d23_1 * inv;
        s->v[2].weight = d23_2 * inv;
        s->v[0] = s->v[2];
        s->count = 2;
    } else {
        float inv = 1.0f / (d123_1 + d123_2 + d123_3);
        s->v[0].weight = d123_1 * inv;
        s->v[1].weight = d123_2 * inv;
        s->v[2].weight = d123_3 * inv;
        s->count = 3; /* the origin is inside: the cores overlap */
    }
}

/* Where to look for the next support point: towards the origin from the simplex. For an edge,
 * its perpendicular on the origin's side, from the edge alone: the closest point of a long edge
 * (a weighted sum of vertices hundreds of units out) loses the few hundredths that decide which
 * of a thin box's corners comes next, and the search stopped on its diagonal. False when the
 * origin is on the simplex. */
static bool search_direction(const simplex *s, rc_vec2 *d) {
    if (s->count == 1) {
        *d = rc_neg(s->v[0].w);
        return rc_dot(*d, *d) > FLT_MIN;
    }
    rc_vec2 e = rc_sub(s->v[1].w, s->v[0].w);
    float side = rc_cross(e, rc_neg(s->v[0].w));
    if (side == 0.0f) {
        return false;
    }
    *d = side > 0.0f ? rc_v2(-e.y, e.x) : rc_v2(e.y, -e.x);
    return true;
}

static void add_vertex(simplex *s, const rc_hull *a, const rc_hull *b, int ia, int ib) {
    simplex_vertex *v = &s->v[s->count++];
    v->ia = ia;
    v->ib = ib;
    v->wa = a->points[ia];
    v->wb = b->points[ib];
    v->w = rc_sub(v->wb, v->wa);
    v->weight = 1.0f;
}

rc_hull_distance rc_distance_hulls(const rc_hull *a, const rc_hull *b) {
    simplex s;
    s.count = 0;
    add_vertex(&s, a, b, 0, 0);
    int iterations = 0;
    for (; iterations < GJK_MAX_ITERATIONS; ++iterations) {
        int saved_a[3], saved_b[3], saved = s.count;
        for (int i = 0; i < s.count; ++i) {
            saved_a[i] = s.v[i].ia;
            saved_b[i] = s.v[i].ib;
        }
        if (s.count == 2) {
            solve2(&s);
        } else if (s.count == 3) {
            solve3(&s);
        }
        if (s.count == 3) {
            break;
        }
        rc_vec2 d;
        if (!search_direction(&s, &d)) {
            break; /* the origin is on the simplex: the cores touch */
        }
        int ia = support(a, rc_neg(d)), ib = support(b, d);
        bool repeated = false;
        for (int i = 0; i < saved; ++i) {
            repeated = repeated || (saved_a[i] == ia && saved_b[i] == ib);
        }
        if (repeated) {
            break; /* no progress: converged */
        }
        add_vertex(&s, a, b, ia, ib);
    }
    rc_hull_distance out;
    out.point_a = rc_v2(0.0f, 0.0f);
    out.point_b = rc_v2(0.0f, 0.0f);
    for (int i = 0; i < s.count; ++i) {
        out.point_a = rc_mul_add(out.point_a, s.v[i].weight, s.v[i].wa);
        out.point_b = rc_mul_add(out.point_b, s.v[i].weight, s.v[i].wb);
    }
    float core = 0.0f;
    out.normal = rc_v2(1.0f, 0.0f);
    rc_vec2 towards;
    if (s.count < 3 && search_direction(&s, &towards)) {
        /* from A to B: against the search direction; the distance measured along it from a
           vertex (no cancellation in a weighted sum of long edges) */
        out.normal = rc_normalize(rc_neg(towards));
        core = rc_maxf(rc_dot(s.v[0].w, out.normal), 0.0f);
    }
    out.distance = core - a->radius - b->radius;
    out.iterations = iterations;
    return out;
}

/* ---- time of impact ---------------------------------------------------------------------------- */

rc_transform rc_sweep_transform(const rc_hull_sweep *s, float t) {
    rc_transform xf;
    xf.q = rc_rot_from_angle(s->a1 + t * (s->a2 - s->a1));
    rc_vec2 c = rc_lerp(s->c1, s->c2, t);
    xf.p = rc_sub(c, rc_rotate(xf.q, s->local_center));
    return xf;
}

/* The furthest a point of the hull (its rounding included) lies from its centre of mass. */
static float reach_of(const rc_hull *h, rc_vec2 local_center) {
    float r = 0.0f;
    for (int i = 0; i < h->count; ++i) {
        r = rc_maxf(r, rc_length(rc_sub(h->points[i], local_center)));
    }
    return r + h->radius;
}

rc_toi rc_time_of_impact(const rc_hull *a, const rc_hull_sweep *sa, const rc_hull *b, const rc_hull_sweep *sb,
                         float target, float tolerance) {
    rc_toi out = {RC_TOI_SEPARATED, 1.0f, {1.0f, 0.0f}, {0.0f, 0.0f}};
    /* per unit of t: the centres' motion, and a bound on how fast turning moves any point */
    rc_vec2 da = rc_sub(sa->c2, sa->c1), db = rc_sub(sb->c2, sb->c1);
    float spin = fabsf(sa->a2 - sa->a1) * reach_of(a, sa->local_center) +
                 fabsf(sb->a2 - sb->a1) * reach_of(b, sb->local_center);
    float t = 0.0f;
    /* a side that does not move (a wall) is placed once: the same numbers at every t */
    bool b_still = rc_vec2_equal(sb->c1, sb->c2) && sb->a1 == sb->a2;
    rc_hull placed_b;
    if (b_still) {
        placed_b = rc_hull_transform(b, rc_sweep_transform(sb, 0.0f));
    }
    for (int k = 0; k < TOI_MAX_ITERATIONS; ++k) {
        rc_hull ha = rc_hull_transform(a, rc_sweep_transform(sa, t));
        rc_hull hb = b_still ? placed_b : rc_hull_transform(b, rc_sweep_transform(sb, t));
        rc_hull_distance d = rc_distance_hulls(&ha, &hb);
        out.normal = d.normal;
        out.point = rc_lerp(rc_mul_add(d.point_a, ha.radius, d.normal), rc_mul_add(d.point_b, -hb.radius, d.normal),
                            0.5f);
        out.t = t;
        if (d.distance <= target + tolerance) {
            out.state = t == 0.0f && d.distance < target - tolerance ? RC_TOI_OVERLAPPED : RC_TOI_HIT;
            return out;
        }
        /* the closest points approach no faster than the centres along the normal plus what
           turning adds: advancing by the gap over that speed cannot pass the target */
        float approach = -rc_dot(rc_sub(db, da), d.normal) + spin;
        if (!(approach > 0.0f)) {
            out.state = RC_TOI_SEPARATED;
            out.t = 1.0f;
            return out;
        }
        t += (d.distance - target) / approach;
        if (t >= 1.0f) {
            out.state = RC_TOI_SEPARATED;
            out.t = 1.0f;
            return out;
        }
    }
    out.state = RC_TOI_FAILED;
    return out;
}

/* The edge normal of either core of 2 or more points (a wall's two sides included; a point
 * has no edges) along which the cores of two hulls separate most, from still towards moving,
 * and that separation:
 * their separating axis when they touch. Of the axes within tolerance of the best (a vertex
 * against a vertex, or a sliver against a wall, whose two sides tie) the one most against the
 * motion: the surface met most squarely. */
static rc_vec2 touching_normal(const rc_hull *still, const rc_hull *moving, rc_vec2 translation, float tolerance,
                               float *separation) {
    rc_vec2 axes[2 * RC_MAX_POLYGON_VERTICES];
    float seps[2 * RC_MAX_POLYGON_VERTICES];
    int count = 0;
    float best = -INFINITY;
    for (int side = 0; side < 2; ++side) {
        const rc_hull *a = side == 0 ? still : moving, *b = side == 0 ? moving : still;
        for (int i = 0; i < a->count && a->count > 1; ++i) {
            /* b's least reach beyond a's edge i along its outward normal (none for a wall whose
               ends rounded to one point where its body was moved) */
            rc_vec2 u = a->normals[i];
            if (u.x == 0.0f && u.y == 0.0f) {
                continue;
            }
            float least = INFINITY;
            for (int j = 0; j < b->count; ++j) {
                least = rc_minf(least, rc_dot(u, rc_sub(b->points[j], a->points[i])));
            }
            axes[count] = side == 0 ? u : rc_neg(u);
            seps[count++] = least;
            best = rc_maxf(best, least);
        }
    }
    rc_vec2 n = {1.0f, 0.0f};
    float most_against = INFINITY;
    for (int k = 0; k < count; ++k) {
        float along = rc_dot(axes[k], translation);
        if (seps[k] >= best - tolerance && along < most_against) {
            most_against = along;
            n = axes[k];
        }
    }
    *separation = best;
    return n;
}

bool rc_cast_hulls(const rc_hull *moving, rc_vec2 translation, const rc_hull *still, float *t_out, rc_vec2 *normal,
                   rc_vec2 *point, bool *inside) {
    float span = rc_length(translation);
    if (!(span > 0.0f)) {
        return false;
    }
    /* a few roundings of the sizes and coordinates at hand */
    float scale = 0.0f;
    for (int i = 0; i < moving->count; ++i) {
        scale = rc_maxf(scale, rc_maxf(fabsf(moving->points[i].x), fabsf(moving->points[i].y)));
    }
    for (int i = 0; i < still->count; ++i) {
        scale = rc_maxf(scale, rc_maxf(fabsf(still->points[i].x), fabsf(still->points[i].y)));
    }
    float tolerance = 8.0f * FLT_EPSILON * (scale + span + moving->radius + still->radius);
    float t = 0.0f;
    rc_hull h = *moving;
    for (int k = 0; k < TOI_MAX_ITERATIONS; ++k) {
        rc_hull_distance d = rc_distance_hulls(still, &h); /* normal from still towards moving */
        if (d.distance <= tolerance) {
            rc_vec2 n = d.normal;
            float separation = d.distance;
            if ((still->count > 1 || h.count > 1) && d.distance + still->radius + h.radius <= tolerance) {
                /* the cores touch or overlap (two polygons, a polygon and a wall, a point and
                   either): GJK's normal is arbitrary there, or rounding noise; the edge normal
                   along which they separate most is that of the features that meet */
                n = touching_normal(still, &h, translation, tolerance, &separation);
                separation -= still->radius + h.radius;
            }
            if (k == 0 && separation >= -tolerance && rc_dot(translation, n) > tolerance) {
                return false; /* touching at the start and moving away, as a swept circle */
            }
            if (inside != NULL) {
                *inside = k == 0 && separation < -tolerance;
            }
            *t_out = t;
            *normal = n;
            *point = rc_mul_add(d.point_a, still->radius, n);
            return true;
        }
        float approach = -rc_dot(translation, d.normal);
        if (!(approach > 0.0f)) {
            return false;
        }
        t += d.distance / approach;
        if (t > 1.0f) {
            return false;
        }
        for (int i = 0; i < moving->count; ++i) {
            h.points[i] = rc_mul_add(moving->points[i], t, translation);
        }
    }
    return false;
}
