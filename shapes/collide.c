/* Contact manifolds of hulls: separating axes, then the incident edge clipped against the
 * reference edge, with the rounded cases (capsules, circles) by closest points. */
#include "shapes/collide.h"

#include "core/simd.h"

#include <math.h>
#include <string.h>

/* A feature id: the reference edge (or vertex) and the incident vertex, and whether B gave the
 * reference edge. */
#define FEATURE_ID(flip, ref, inc) ((uint16_t)(((flip) ? 0x8000u : 0u) | ((unsigned)(ref) << 8) | (unsigned)(inc)))
/* A clipped point: the vertex of A and the vertex of B at its end of the overlap. */
#define END_ID(a_vertex, b_vertex) ((uint16_t)(0x4000u | ((unsigned)(a_vertex) << 7) | (unsigned)(b_vertex)))

/* Hulls are built without clearing what lies past their count: nothing reads it (the solver
 * builds two per contact per step). */
rc_hull rc_hull_circle(rc_vec2 center, float radius) {
    rc_hull h;
    h.points[0] = center;
    h.normals[0] = rc_v2(1.0f, 0.0f);
    h.count = 1;
    h.radius = radius;
    return h;
}

rc_hull rc_hull_capsule(rc_vec2 a, rc_vec2 b, float radius) {
    rc_vec2 n = rc_normalize(rc_right_perp(rc_sub(b, a)));
    if (n.x == 0.0f && n.y == 0.0f) {
        /* ends that placing far out rounded to one point (or too near for a direction): a circle
           (edges without a normal would be a separating axis of no direction, and give a
           manifold without a normal) */
        return rc_hull_circle(a, radius);
    }
    rc_hull h;
    h.points[0] = a;
    h.points[1] = b;
    h.normals[0] = n;
    h.normals[1] = rc_neg(n);
    h.count = 2;
    h.radius = radius;
    return h;
}

rc_hull rc_hull_polygon(const rc_vec2 *points, const rc_vec2 *normals, int count, float radius) {
    rc_hull h;
    memcpy(h.points, points, sizeof(rc_vec2) * (size_t)count);
    memcpy(h.normals, normals, sizeof(rc_vec2) * (size_t)count);
    h.count = count;
    h.radius = radius;
    return h;
}

bool rc_hull_inset(const rc_hull *hull, float depth, rc_hull *out) {
    if (!(depth > 0.0f) || !rc_is_finite(depth)) {
        return false;
    }
    rc_hull h = *hull;
    float from_radius = rc_minf(depth, h.radius);
    h.radius -= from_radius;
    float rest = depth - from_radius;
    if (rest > 0.0f) {
        if (h.count < 3) {
            return false; /* a point or a segment: nothing inside to keep */
        }
        for (int i = 0; i < h.count; ++i) {
            /* the corner between edge i - 1 and edge i, on both edges moved in by rest */
            rc_vec2 n0 = hull->normals[i == 0 ? h.count - 1 : i - 1], n1 = hull->normals[i];
            float c = 1.0f + rc_dot(n0, n1);
            if (!(c > 1e-3f)) {
                return false; /* a corner too sharp to say where it goes */
            }
            h.points[i] = rc_sub(hull->points[i], rc_scale(rest / c, rc_add(n0, n1)));
        }
        for (int i = 0; i < h.count; ++i) {
            int j = i + 1 == h.count ? 0 : i + 1;
            rc_vec2 before = rc_sub(hull->points[j], hull->points[i]), after = rc_sub(h.points[j], h.points[i]);
            if (!(rc_dot(before, after) > 0.0f)) {
                return false; /* the edge turned over: it would have vanished first */
            }
        }
    } else if (h.count < 2 && h.radius == 0.0f) {
        return false; /* a circle shrunk to its centre */
    }
    *out = h;
    return true;
}

rc_hull rc_hull_transform(const rc_hull *hull, rc_transform xf) {
    rc_hull_view v = rc_hull_view_of(hull);
    return rc_hull_view_transform(&v, xf);
}


/* ---- circles -------------------------------------------------------------------------------- */

/* d made unit, or the fallback when it is zero. rc_normalize, not d / |d|: for d of a denormal's
 * length 1 / |d| overflows and the normal was NaN (a fuzz find: two circles a denormal apart). */
static rc_vec2 unit_or(rc_vec2 d, rc_vec2 fallback) {
    rc_vec2 n = rc_normalize(d);
    return n.x == 0.0f && n.y == 0.0f ? fallback : n;
}

/* The point of the core of A (any hull) nearest to c, and the unit normal there towards c. */
static void nearest_on_core(const rc_hull_view *a, rc_vec2 c, rc_vec2 *point, rc_vec2 *normal, float *distance) {
    if (a->count == 1) {
        rc_vec2 d = rc_sub(c, a->points[0]);
        float len = rc_length(d);
        *point = a->points[0];
        *normal = unit_or(d, rc_v2(1.0f, 0.0f));
        *distance = len;
        return;
    }
    if (a->count == 2) {
        rc_vec2 q = rc_nearest_point_on_segment(a->points[0], a->points[1], c);
        rc_vec2 d = rc_sub(c, q);
        float len = rc_length(d);
        *point = q;
        *normal = unit_or(d, a->normals[0]);
        *distance = len;
        return;
    }
    /* a polygon: the face c is furthest outside of; inside, that face; outside a face but
       beyond its ends, the nearer end */
    int best = 0;
    float sep = -INFINITY;
    for (int i = 0; i < a->count; ++i) {
        float s = rc_dot(a->normals[i], rc_sub(c, a->points[i]));
        if (s > sep) {
            sep = s;
            best = i;
        }
    }
    rc_vec2 v1 = a->points[best], v2 = a->points[best + 1 < a->count ? best + 1 : 0];
    rc_vec2 e = rc_sub(v2, v1);
    float u1 = rc_dot(rc_sub(c, v1), e), u2 = rc_dot(rc_sub(c, v2), rc_neg(e));
    if (sep <= 0.0f || (u1 >= 0.0f && u2 >= 0.0f)) {
        *normal = a->normals[best];
        *point = rc_mul_add(c, -sep, a->normals[best]);
        *distance = sep;
        return;
    }
    rc_vec2 v = u1 < 0.0f ? v1 : v2;
    rc_vec2 d = rc_sub(c, v);
    float len = rc_length(d);
    *point = v;
    *normal = unit_or(d, a->normals[best]);
    *distance = len;
}

/* The one contact point of a core point q of A (radius ra) and a circle B about c, the unit
 * normal n from q towards c, distance |c - q| apart. */
static rc_collision point_contact(rc_vec2 q, float ra, rc_vec2 c, float rb, rc_vec2 n, float distance, float margin,
                                  bool round_a) {
    rc_collision m;
    memset(&m, 0, sizeof m);
    float separation = distance - ra - rb;
    if (separation > margin) {
        return m;
    }
    m.normal = n;
    m.points[0].point = rc_contact_point_between(q, ra, c, rb, n, distance, round_a);
    m.points[0].separation = separation;
    m.points[0].id = 0;
    m.count = 1;
    return m;
}

rc_collision rc_collide_hull_circle(const rc_hull_view *a, rc_vec2 center, float radius, float margin) {
    rc_vec2 q, n;
    float distance;
    nearest_on_core(a, center, &q, &n, &distance);
    return point_contact(q, a->radius, center, radius, n, distance, margin, a->count <= 2 && a->radius > 0.0f);
}

/* A hull against a circle B (one point): one contact point. */
static rc_collision collide_with_circle(const rc_hull_view *a, const rc_hull_view *b, float margin) {
    return rc_collide_hull_circle(a, b->points[0], b->radius, margin);
}

/* ---- polygons ------------------------------------------------------------------------------- */

/* max_separation for a B of four points (a box): each of A's edges against all four at once,
 * with the same operations lane by lane, and the least of them taken in the same order (the
 * same bits as the loop below). */
static float max_separation_4(const rc_hull_view *a, const rc_hull_view *b, int *edge) {
    rc_w bx, by;
    rc_w_load_xy(b->points, &bx, &by);
    float best = -INFINITY;
    *edge = 0;
    for (int i = 0; i < a->count; ++i) {
        rc_vec2 n = a->normals[i], v = a->points[i];
        rc_w s = rc_w_add(rc_w_mul(rc_w_set(n.x), rc_w_sub(bx, rc_w_set(v.x))),
                          rc_w_mul(rc_w_set(n.y), rc_w_sub(by, rc_w_set(v.y))));
        float least = INFINITY;
        for (int j = 0; j < RC_LANES; ++j) {
            least = RC_LANE(s, j) < least ? RC_LANE(s, j) : least;
        }
        if (least > best) {
            best = least;
            *edge = i;
        }
    }
    return best;
}

/* The edge of A whose line B is furthest outside of, and by how much (cores, no radii). */
static float max_separation(const rc_hull_view *a, const rc_hull_view *b, int *edge) {
    if (b->count == 4) {
        return max_separation_4(a, b, edge);
    }
    float best = -INFINITY;
    *edge = 0;
    for (int i = 0; i < a->count; ++i) {
        rc_vec2 n = a->normals[i], v = a->points[i];
        float least = INFINITY;
        for (int j = 0; j < b->count; ++j) {
            float s = rc_dot(n, rc_sub(b->points[j], v));
            least = s < least ? s : least;
        }
        if (least > best) {
            best = least;
            *edge = i;
        }
    }
    return best;
}

/* A hull's size for the reference-face tolerance: its farthest point from its first, the same
 * wherever the hull is placed and turned (a box's bounding box is not: the world, in a body's
 * frame, and the pure functions, in the world's, chose different faces of a tie). */
static float hull_extent(const rc_hull_view *h) {
    float far2 = 0.0f;
    for (int i = 1; i < h->count; ++i) {
        rc_vec2 d = rc_sub(h->points[i], h->points[0]);
        far2 = rc_maxf(far2, rc_dot(d, d));
    }
    return sqrtf(far2) + 2.0f * h->radius;
}

/* The nearest points of segments p1..q1 and p2..q2 (Ericson, "Real-Time Collision Detection"
 * 5.1.9), as a hull distance: the normal from the first to the second (fallback where they
 * meet), the distance less both radii. */
static rc_hull_distance edges_distance(rc_vec2 p1, rc_vec2 q1, rc_vec2 p2, rc_vec2 q2, float r1, float r2,
                                       rc_vec2 fallback, float *along_first) {
    rc_vec2 d1 = rc_sub(q1, p1), d2 = rc_sub(q2, p2), r = rc_sub(p1, p2);
    float a = rc_dot(d1, d1), e = rc_dot(d2, d2), f = rc_dot(d2, r);
    float s = 0.0f, t = 0.0f;
    if (a <= 0.0f && e <= 0.0f) {
        s = t = 0.0f;
    } else if (a <= 0.0f) {
        t = rc_maxf(0.0f, rc_minf(f / e, 1.0f));
    } else {
        float c = rc_dot(d1, r);
        if (e <= 0.0f) {
            s = rc_maxf(0.0f, rc_minf(-c / a, 1.0f));
        } else {
            float b = rc_dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0f ? rc_maxf(0.0f, rc_minf((b * f - c * e) / denom, 1.0f)) : 0.0f;
            t = (b * s + f) / e;
            if (t < 0.0f) {
                t = 0.0f;
                s = rc_maxf(0.0f, rc_minf(-c / a, 1.0f));
            } else if (t > 1.0f) {
                t = 1.0f;
                s = rc_maxf(0.0f, rc_minf((b - c) / a, 1.0f));
            }
        }
    }
    rc_hull_distance out;
    *along_first = s;
    out.point_a = rc_mul_add(p1, s, d1);
    out.point_b = rc_mul_add(p2, t, d2);
    rc_vec2 between = rc_sub(out.point_b, out.point_a);
    float core = rc_length(between);
    out.normal = unit_or(between, fallback);
    out.distance = core - r1 - r2;
    out.iterations = 0;
    return out;
}

/* The incident edge of inc against a reference normal: the one facing most against it. */
static int incident_edge(const rc_hull_view *inc, rc_vec2 ref_normal) {
    int best = 0;
    float least = INFINITY;
    for (int i = 0; i < inc->count; ++i) {
        float f = rc_dot(inc->normals[i], ref_normal);
        if (f < least) {
            least = f;
            best = i;
        }
    }
    return best;
}

/* Clip the incident edge w[0]..w[1] of inc against the reference edge v1..v2 (unit outward
 * normal n; edge ref_edge, its end vertex ref_next) of ref: the manifold from ref towards inc,
 * normal flipped when B gave the reference edge. A point's id names the end of the overlap it
 * holds: the vertex of A and the vertex of B at that end. */
static rc_collision clip_edges(rc_vec2 v1, rc_vec2 v2, rc_vec2 n, float ref_radius, int ref_edge, int ref_next,
                               const rc_vec2 w[2], float inc_radius, int inc_first, int inc_second, float margin,
                               bool flip) {
    rc_collision m;
    memset(&m, 0, sizeof m);
    rc_vec2 t = rc_left_perp(n); /* along the reference edge, from v1 towards v2 */
    float lower = rc_dot(t, v1), upper = rc_dot(t, v2);
    const float d[2] = {rc_dot(t, w[0]), rc_dot(t, w[1])};
    if ((d[0] < lower && d[1] < lower) || (d[0] > upper && d[1] > upper)) {
        return m;
    }
    const int inc[2] = {inc_first, inc_second};
    for (int k = 0; k < 2; ++k) {
        /* keep the part of w within [lower, upper] along t: a point outside moves along w */
        rc_vec2 p = w[k];
        if (d[k] < lower) {
            p = rc_lerp(w[0], w[1], (lower - d[0]) / (d[1] - d[0]));
        } else if (d[k] > upper) {
            p = rc_lerp(w[0], w[1], (upper - d[0]) / (d[1] - d[0]));
        }
        float core = rc_dot(n, rc_sub(p, v1));
        float separation = core - ref_radius - inc_radius;
        if (separation > margin) {
            continue;
        }
        /* midway between the reference surface and the incident one */
        rc_vec2 on_ref = rc_mul_add(p, ref_radius - core, n);
        rc_vec2 on_inc = rc_mul_add(p, -inc_radius, n);
        rc_collision_point *cp = &m.points[m.count++];
        cp->point = rc_lerp(on_ref, on_inc, 0.5f);
        cp->separation = separation;
        /* the end of the overlap this point holds, named by the vertex of each hull at that
           end (A's first), whichever hull gave the reference face: when two stacked boxes
           trade the reference face (their faces about as deep), the points keep their ids and
           their warm-started impulses (ids that changed with the face let a tall pyramid creep
           apart) */
        int ref_vertex = d[k] < d[1 - k] || (d[k] == d[1 - k] && k == 1) ? ref_edge : ref_next;
        cp->id = flip ? END_ID(inc[k], ref_vertex) : END_ID(ref_vertex, inc[k]);
    }
    m.normal = flip ? rc_neg(n) : n;
    return m;
}

/* Clip with A's edge edge_a as the reference, or B's edge_b when flip. */
static rc_collision clip_against(const rc_hull_view *a, int edge_a, const rc_hull_view *b, int edge_b, bool flip,
                                 float margin) {
    const rc_hull_view *ref = flip ? b : a, *inc = flip ? a : b;
    int e = flip ? edge_b : edge_a;
    int e_next = e + 1 < ref->count ? e + 1 : 0;
    rc_vec2 n = ref->normals[e];
    int ie = incident_edge(inc, n);
    int ie_next = ie + 1 < inc->count ? ie + 1 : 0;
    rc_vec2 w[2] = {inc->points[ie], inc->points[ie_next]};
    return clip_edges(ref->points[e], ref->points[e_next], n, ref->radius, e, e_next, w, inc->radius, ie, ie_next,
                      margin, flip);
}

static rc_collision collide_polygons(const rc_hull_view *a, const rc_hull_view *b, float margin, int *axis, int *face) {
    rc_collision none;
    memset(&none, 0, sizeof none);
    float radius = a->radius + b->radius;
    int edge_a, edge_b;
    float sep_a = max_separation(a, b, &edge_a);
    if (sep_a > margin + radius) {
        *axis = edge_a;
        return none;
    }
    float sep_b = max_separation(b, a, &edge_b);
    if (sep_b > margin + radius) {
        *axis = RC_AXIS_OF_B + edge_b;
        return none;
    }
    *axis = RC_NO_AXIS;
    /* A's edge is the reference unless B's separates clearly more: a resting contact must not
       flicker between the two */
    float tolerance = 1.0e-3f * rc_maxf(hull_extent(a), hull_extent(b));
    bool flip = sep_b > sep_a + tolerance;
    float gap = rc_maxf(sep_a, sep_b);
    if (gap <= 0.0f) {
        /* overlapping: clipped against the reference face; where A's face was kept within the
           tolerance but B's separates more, corners overlapping past the end of A's face may
           leave nothing to clip (B's incident edge lies beyond it): then B's face, the one
           that separates most, holds them */
        rc_collision m = clip_against(a, edge_a, b, edge_b, flip, margin);
        if (m.count == 0 && !flip && sep_b > sep_a) {
            flip = true;
            m = clip_against(a, edge_a, b, edge_b, true, margin);
        }
        *face = m.count == 0 ? RC_NO_AXIS : flip ? RC_AXIS_OF_B + edge_b : edge_a;
        return m;
    }
    const rc_hull_view *ref = flip ? b : a, *inc = flip ? a : b;
    int e = flip ? edge_b : edge_a;
    int e_next = e + 1 < ref->count ? e + 1 : 0;
    rc_vec2 n = ref->normals[e];
    rc_vec2 v1 = ref->points[e], v2 = ref->points[e_next];
    int ie = incident_edge(inc, n);
    int ie_next = ie + 1 < inc->count ? ie + 1 : 0;
    rc_vec2 w[2] = {inc->points[ie], inc->points[ie_next]};
    /* Apart: where the closest points are not across the reference face (corner to corner,
       or the caps of rounded hulls), the contact is between them, along the line joining them
       (a face normal there would say nothing of how near they are). The nearest points of the
       reference edge and the incident edge (for separated convex hulls those edges hold them,
       or come within rounding of it: Box2D's choice too), rather than a GJK of the whole hulls */
    float along;
    rc_hull_distance d = edges_distance(v1, v2, w[0], w[1], ref->radius, inc->radius, n, &along);
    if (d.distance > margin) {
        return none;
    }
    rc_collision m = none;
    /* across the face: the nearest point of the reference edge within it (not at a corner), or
       the normal found that of the face within rounding. The normal of the line joining the
       nearest points says the same, but where they are far nearer than the edges are long, its
       rounding tilts it: a crate 0.0003 above a floor 59 long got a normal 0.008 off the
       floor's from a lone point at its rear corner, turned on it, and tumbled */
    if ((along > 0.0f && along < 1.0f) || rc_dot(d.normal, n) >= 1.0f - 1.0e-6f) {
        /* across the face, or nearly: clipped, unless the nearest points lie just past the
           face's end (then the clip keeps nothing) */
        m = clip_edges(v1, v2, n, ref->radius, e, e_next, w, inc->radius, ie, ie_next, margin, flip);
        if (m.count > 0) {
            *face = flip ? RC_AXIS_OF_B + e : e;
            return m;
        }
    }
    rc_vec2 on_ref = rc_mul_add(d.point_a, ref->radius, d.normal);
    rc_vec2 on_inc = rc_mul_add(d.point_b, -inc->radius, d.normal);
    m.points[0].point = rc_lerp(on_ref, on_inc, 0.5f);
    m.points[0].separation = d.distance;
    m.points[0].id = FEATURE_ID(flip, 32 + e, ie);
    m.normal = flip ? rc_neg(d.normal) : d.normal;
    m.count = 1;
    return m;
}

rc_collision rc_collide_hulls(const rc_hull *a, const rc_hull *b, float margin) {
    rc_hull_view va = rc_hull_view_of(a), vb = rc_hull_view_of(b);
    return rc_collide_views(&va, &vb, margin);
}

rc_collision rc_collide_views(const rc_hull_view *a, const rc_hull_view *b, float margin) {
    int axis;
    return rc_collide_views_axis(a, b, margin, &axis);
}

rc_collision rc_collide_views_axis(const rc_hull_view *a, const rc_hull_view *b, float margin, int *axis) {
    int face;
    return rc_collide_views_faces(a, b, margin, axis, &face);
}

rc_collision rc_collide_views_faces(const rc_hull_view *a, const rc_hull_view *b, float margin, int *axis,
                                    int *face) {
    *axis = RC_NO_AXIS;
    *face = RC_NO_AXIS;
    if (b->count == 1) {
        return collide_with_circle(a, b, margin);
    }
    if (a->count == 1) {
        rc_collision m = collide_with_circle(b, a, margin);
        m.normal = rc_neg(m.normal);
        return m;
    }
    return collide_polygons(a, b, margin, axis, face);
}

rc_collision rc_collide_views_on_face(const rc_hull_view *a, const rc_hull_view *b, int face, float margin) {
    bool flip = face >= RC_AXIS_OF_B;
    int e = flip ? face - RC_AXIS_OF_B : face;
    const rc_hull_view *ref = flip ? b : a;
    if (a->count < 2 || b->count < 2 || e < 0 || e >= ref->count) {
        rc_collision none;
        memset(&none, 0, sizeof none);
        return none;
    }
    return clip_against(a, e, b, e, flip, margin);
}

/* The least of a hull's points along edge's line (n through v), each point moved by xf first
 * when move is set: every number as max_separation and rc_hull_view_transform work it out (the
 * points in the same order, the least taken the same way), so the same bits. */
static float least_along(rc_vec2 n, rc_vec2 v, const rc_hull_view *h, bool move, rc_transform xf) {
    float least = INFINITY;
    for (int j = 0; j < h->count; ++j) {
        rc_vec2 p = move ? rc_transform_point(xf, h->points[j]) : h->points[j];
        float s = rc_dot(n, rc_sub(p, v));
        least = s < least ? s : least;
    }
    return least;
}

bool rc_hulls_apart_on_axis(const rc_hull_view *a, const rc_hull_view *b, rc_transform b_in_a, int axis, float margin) {
    if (a->count < 2 || b->count < 2) {
        return false; /* circles: no edge to ask */
    }
    float radius = a->radius + b->radius, sep;
    if (axis >= 0 && axis < a->count) {
        /* A's edge against B moved into A's frame (rc_hull_view_transform's points) */
        sep = least_along(a->normals[axis], a->points[axis], b, true, b_in_a);
    } else if (axis >= RC_AXIS_OF_B && axis - RC_AXIS_OF_B < b->count) {
        /* B's edge moved into A's frame (its normal turned, its point moved) against A */
        int e = axis - RC_AXIS_OF_B;
        rc_vec2 n = rc_rotate(b_in_a.q, b->normals[e]), v = rc_transform_point(b_in_a, b->points[e]);
        sep = least_along(n, v, a, false, b_in_a);
    } else {
        return false;
    }
    /* collide_polygons' first test takes the most of A's edges, its second the most of B's:
       at least this one, so it stops at one of them with no points */
    return sep > margin + radius;
}

/* ---- chain walls ---------------------------------------------------------------------------- */

/* Is the joint of walls p..q and q..r convex seen from their free (left) side: does the outline
 * turn right there? Straight joints are not. */
static bool convex_joint(rc_vec2 p, rc_vec2 q, rc_vec2 r) {
    if (rc_vec2_equal(p, q) || rc_vec2_equal(q, r)) {
        return true; /* an open end: every direction around it is free */
    }
    return rc_cross(rc_sub(q, p), rc_sub(r, q)) < 0.0f;
}

/* Is n within the cone of directions turning clockwise from n0 to n1 (the normals of walls
 * turning right, as at a convex joint seen from the free side)? */
static bool in_cone(rc_vec2 n, rc_vec2 n0, rc_vec2 n1) {
    const float slack = 1.0e-4f;
    return rc_cross(n0, n) <= slack && rc_cross(n, n1) <= slack && rc_dot(n, rc_add(n0, n1)) > 0.0f;
}

bool rc_chain_wall_region(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, rc_vec2 p, float slack) {
    rc_vec2 e = rc_sub(b, a);
    float ee = rc_dot(e, e), along = rc_dot(rc_sub(p, a), e);
    if (!(rc_is_finite(ee) && rc_is_finite(along))) {
        return true; /* beyond float range: the wall answers, as it always did */
    }
    float reach = slack * sqrtf(ee);
    if (along >= -reach && along <= ee + reach) {
        return true; /* over the wall */
    }
    bool towards_a = along < 0.0f;
    rc_vec2 v = towards_a ? a : b;
    if (rc_vec2_equal(towards_a ? prev : next, v)) {
        return true; /* an open end: every direction around it is the wall's */
    }
    if (!(towards_a ? convex_joint(prev, a, b) : convex_joint(a, b, next))) {
        return false; /* beyond a flat or concave joint: over the neighbour, or behind it */
    }
    rc_vec2 n1 = rc_normalize(rc_left_perp(e));
    rc_vec2 n_side = towards_a ? rc_normalize(rc_left_perp(rc_sub(a, prev))) : rc_normalize(rc_left_perp(rc_sub(next, b)));
    rc_vec2 dir = rc_normalize(rc_sub(p, v));
    return towards_a ? in_cone(dir, n_side, n1) : in_cone(dir, n1, n_side);
}

/* Is d in the wedge swept counter-clockwise from the ray `from` to the ray `to`? */
static bool in_wedge(rc_vec2 from, rc_vec2 to, rc_vec2 d) {
    if (rc_cross(from, to) >= 0.0f) {
        return rc_cross(from, d) >= 0.0f && rc_cross(d, to) >= 0.0f;
    }
    return rc_cross(from, d) >= 0.0f || rc_cross(d, to) >= 0.0f;
}

int rc_two_sided_wall_side(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, rc_vec2 p) {
    rc_vec2 e = rc_sub(b, a);
    float along = rc_dot(rc_sub(p, a), e);
    if (along < 0.0f && !rc_vec2_equal(prev, a)) {
        /* the wall's left lies counter-clockwise of the ray a -> b */
        return in_wedge(e, rc_sub(prev, a), rc_sub(p, a)) ? 1 : -1;
    }
    if (along > rc_dot(e, e) && !rc_vec2_equal(next, b)) {
        /* and clockwise of the ray b -> a */
        return in_wedge(rc_sub(next, b), rc_neg(e), rc_sub(p, b)) ? 1 : -1;
    }
    return rc_cross(e, rc_sub(p, a)) < 0.0f ? -1 : 1;
}

/* rc_collide_chain_wall, or with `held` rc_collide_chain_wall_held. */
static rc_collision chain_wall(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, const rc_hull *hull, float margin,
                               bool held) {
    rc_collision none;
    memset(&none, 0, sizeof none);
    rc_vec2 e = rc_sub(b, a);
    rc_vec2 n1 = rc_normalize(rc_left_perp(e)); /* the free side */
    /* behind the wall (by its centroid): a one-sided wall lets it through; held on its free
       side, while any of it is still there */
    rc_hull_view hull_view = rc_hull_view_of(hull);
    rc_vec2 centroid = rc_hull_middle(&hull_view);
    if (held ? !(rc_hull_reach(&hull_view, n1, a) > 0.0f) : rc_dot(n1, rc_sub(centroid, a)) < 0.0f) {
        return none;
    }
    /* the wall as a hull of two points, normals[0] its free side */
    rc_hull wall;
    memset(&wall, 0, sizeof wall);
    wall.points[0] = b;
    wall.points[1] = a;
    wall.normals[0] = n1;
    wall.normals[1] = rc_neg(n1);
    wall.count = 2;
    rc_collision m = rc_collide_hulls(&wall, hull, margin);
    if (m.count == 0) {
        return m;
    }
    /* the normal must lie in the wall's own region: its face normal, or (at a convex joint)
       between its normal and the neighbour's */
    bool face = rc_dot(m.normal, n1) >= 1.0f - 1.0e-5f;
    if (face) {
        return m;
    }
    /* a hull deep through the wall, its centroid still over the wall's free side, is pushed back
       out that way: not through, where its least overlap may point */
    float centroid_along = rc_dot(rc_sub(centroid, a), e);
    bool over_the_wall = centroid_along >= 0.0f && centroid_along <= rc_dot(e, e);
    bool back = rc_dot(m.normal, n1) <= 0.0f;
    if (!(back && over_the_wall)) {
        bool towards_a = rc_dot(m.normal, e) < 0.0f;
        rc_vec2 n_side =
            towards_a ? rc_normalize(rc_left_perp(rc_sub(a, prev))) : rc_normalize(rc_left_perp(rc_sub(next, b)));
        bool convex = towards_a ? convex_joint(prev, a, b) : convex_joint(a, b, next);
        bool open_end = towards_a ? rc_vec2_equal(prev, a) : rc_vec2_equal(b, next);
        if (open_end || (convex && (towards_a ? in_cone(m.normal, n_side, n1) : in_cone(m.normal, n1, n_side)))) {
            return m;
        }
    }
    /* clamp to the wall's face: the hull's incident edge clipped against the wall. So too where
       the least overlap points back past the joint to the neighbour's side: what of the hull is
       over this wall and through it is this wall's to push out (a plank standing on its end
       by a joint, its centre over the neighbour and its foot through this wall: the neighbour
       did not touch it, and with none here it fell through the floor) */
    int ie = incident_edge(&hull_view, n1);
    if (hull->count == 1) {
        rc_vec2 c = hull->points[0];
        float along = rc_dot(rc_sub(c, a), e);
        if (along < 0.0f || along > rc_dot(e, e)) {
            return none;
        }
        float core = rc_dot(n1, rc_sub(c, a));
        float separation = core - hull->radius;
        if (separation > margin) {
            return none;
        }
        m = none;
        m.normal = n1;
        rc_vec2 on_wall = rc_mul_add(c, -core, n1), on_hull = rc_mul_add(c, -hull->radius, n1);
        m.points[0].point = rc_lerp(on_wall, on_hull, 0.5f);
        m.points[0].separation = separation;
        m.points[0].id = FEATURE_ID(false, 0, 0);
        m.count = 1;
        return m;
    }
    int ie_next = ie + 1 < hull->count ? ie + 1 : 0;
    rc_vec2 w[2] = {hull->points[ie], hull->points[ie_next]};
    return clip_edges(b, a, n1, 0.0f, 0, 1, w, hull->radius, ie, ie_next, margin, false);
}

rc_collision rc_collide_chain_wall(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, const rc_hull *hull,
                                   float margin) {
    return chain_wall(prev, a, b, next, hull, margin, false);
}

rc_collision rc_collide_chain_wall_held(rc_vec2 prev, rc_vec2 a, rc_vec2 b, rc_vec2 next, const rc_hull *hull,
                                        float margin) {
    return chain_wall(prev, a, b, next, hull, margin, true);
}
