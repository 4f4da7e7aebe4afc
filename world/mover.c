/* The character mover (mover.h): a walking circle slides along the surfaces near it.
 *
 * A move is a few sub-steps towards the one target p0 + delta. At each, from the walker's
 * centre p:
 *  - Contacts (blocking shapes within r + 2 skin of p) each give a half-plane of centres that
 *    keep r + skin from the shape: the line supporting the shape across its normal at p's
 *    nearest point, moved out by r + skin. For a convex shape (circle, convex polygon, segment)
 *    the whole half-plane keeps that clearance.
 *  - The walker aims for the point of their intersection nearest the target, solved exactly in
 *    double precision (the optimum of a 2D least-distance problem has at most two active
 *    constraints), clipped to the sub-step, the budget, and near a curved contact (a circle, a
 *    vertex) to a quarter of its radius of curvature, where its tangent stops being a good
 *    stand-in for it. p and that point both lie in the intersection, so the segment between
 *    them does too.
 *  - Every other shape within reach is swept against: a circle of radius r + skin moved along
 *    that segment stops at the first it touches (they are all at least a skin away from it at
 *    the start). That shape is a contact at the next sub-step.
 * Only contacts are linearized: the tangent lines of shapes further away cut off free space
 * (a vertex a body length ahead in a floor of boxes would read as a ramp), and the sweep
 * handles them exactly instead. Positions are floats (the shapes are queried at them), rounded
 * towards where the sub-step started so that a move never gets longer; the solve is in double,
 * relative to p, so that sliding and resting come out exact. */
#include "world/world_internal.h"

#include <ricochet/mover.h>

#include <math.h>
#include <string.h>

/* The length of (x, y), for numbers that came from floats. Not the C library's hypot: that is
 * not correctly rounded, so its last bit differs between C libraries and their versions, and
 * a world's results must not depend on which one the game runs against. sqrt is correctly
 * rounded everywhere (IEEE 754), and in double the squares of float-sized numbers neither
 * overflow nor lose anything that matters. */
static double length2(double x, double y) { return sqrt(x * x + y * y); }

rc_mover_def rc_mover_default_def(void) {
    rc_mover_def def;
    memset(&def, 0, sizeof def);
    def.filter = rc_default_query_filter();
    def.ignore_body = RC_NULL_BODY_ID;
    return def;
}

/* One blocking surface as seen from p: n . x >= c for the move x (relative to p). */
typedef struct mover_plane {
    double nx, ny, nn; /* the outward normal (unit within float rounding) and its squared length */
    double c;
    double rho;        /* contacts: radius of curvature of the surface at the nearest point
                          (INFINITY: flat) */
    float s;           /* signed distance from p to the surface */
    int32_t shape;
    rc_vec2 point, normal; /* the nearest boundary point and the normal, as measured */
} mover_plane;

/* The nearest blocking surfaces within reach of p. */
typedef struct mover_gather {
    const rc_world *world;
    rc_vec2 p;
    float reach; /* keep shapes with s < reach */
    rc_query_filter filter;
    int32_t ignore; /* body index, -1: none */
    mover_plane planes[RC_MOVER_MAX_PLANES];
    int32_t count;
    float dropped; /* the least s of a shape within reach that did not fit; INFINITY when none */
} mover_gather;

/* Nearer: smaller distance, ties by shape index. */
static bool nearer(float sa, int32_t ia, float sb, int32_t ib) { return sa < sb || (sa == sb && ia < ib); }

static bool gather_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    mover_gather *g = context;
    const rc_shape *s = &g->world->shapes.data[user];
    if (s->sensor || s->body == g->ignore || !rc_query_sees(s, g->filter) || !rc_shape_faces(s, g->p)) {
        return true;
    }
    rc_shape_view v = rc_shape_view_of(g->world, s);
    rc_distance_result d = rc_view_distance(&v, g->p);
    if (!(d.distance < g->reach)) {
        return true;
    }
    int32_t slot = g->count;
    if (slot == RC_MOVER_MAX_PLANES) {
        /* full: keep the nearest; what is dropped limits the sub-step (see move()) */
        slot = 0;
        for (int32_t i = 1; i < g->count; ++i) {
            if (nearer(g->planes[slot].s, g->planes[slot].shape, g->planes[i].s, g->planes[i].shape)) {
                slot = i;
            }
        }
        if (!nearer(d.distance, user, g->planes[slot].s, g->planes[slot].shape)) {
            g->dropped = rc_minf(g->dropped, d.distance);
            return true;
        }
        g->dropped = rc_minf(g->dropped, g->planes[slot].s);
    } else {
        g->count++;
    }
    mover_plane *pl = &g->planes[slot];
    pl->s = d.distance;
    pl->shape = user;
    pl->point = d.point;
    pl->normal = d.normal;
    return true;
}

static void gather(mover_gather *g, rc_vec2 p, float reach) {
    g->p = p;
    g->reach = reach;
    g->count = 0;
    g->dropped = INFINITY;
    /* the box reaches one float spacing further than `reach` on every side: its corners are
       rounded, and the callers' reach holds a skin of slack anyway */
    rc_vec2 e = rc_v2(reach, reach);
    rc_aabb box = {rc_sub(p, e), rc_add(p, e)};
    box.lower = rc_v2(nextafterf(box.lower.x, -INFINITY), nextafterf(box.lower.y, -INFINITY));
    box.upper = rc_v2(nextafterf(box.upper.x, INFINITY), nextafterf(box.upper.y, INFINITY));
    rc_world_query_grids(g->world, box, false, gather_fn, g);
}

/* ---- the least-distance problem ------------------------------------------------------------ */

static bool satisfies_all(const mover_plane *pl, int32_t m, double x, double y, int32_t a, int32_t b, double tol) {
    for (int32_t k = 0; k < m; ++k) {
        if (k != a && k != b && pl[k].nx * x + pl[k].ny * y < pl[k].c - tol) {
            return false;
        }
    }
    return true;
}

/* The point x nearest (tx, ty) with n_i . x >= c_i for every plane, exactly: the target when
 * it is feasible, else the best feasible projection onto one plane or intersection of two
 * (the optimum is one of them). Returns 1 for the target, 2 for a constrained point, 0 when
 * no candidate is feasible. Feasibility is checked with a tolerance of double-precision
 * rounding at the sizes involved (scale), far below the skin. */
static int solve(const mover_plane *pl, int32_t m, double tx, double ty, double scale, double *ox, double *oy) {
    double tol = 1e-12 * scale;
    if (satisfies_all(pl, m, tx, ty, -1, -1, tol)) {
        *ox = tx;
        *oy = ty;
        return 1;
    }
    double best = INFINITY, bx = 0.0, by = 0.0;
    /* one active plane: only one the target violates */
    for (int32_t i = 0; i < m; ++i) {
        double gap = pl[i].c - (pl[i].nx * tx + pl[i].ny * ty);
        if (gap <= 0.0) {
            continue;
        }
        double k = gap / pl[i].nn;
        double x = tx + k * pl[i].nx, y = ty + k * pl[i].ny;
        double d = (x - tx) * (x - tx) + (y - ty) * (y - ty);
        if (d < best && satisfies_all(pl, m, x, y, i, -1, tol)) {
            best = d;
            bx = x;
            by = y;
        }
    }
    /* two active planes: at least one of them violated by the target */
    for (int32_t i = 0; i < m; ++i) {
        bool vi = pl[i].nx * tx + pl[i].ny * ty < pl[i].c;
        for (int32_t j = i + 1; j < m; ++j) {
            if (!vi && !(pl[j].nx * tx + pl[j].ny * ty < pl[j].c)) {
                continue;
            }
            double det = pl[i].nx * pl[j].ny - pl[i].ny * pl[j].nx;
            if (fabs(det) <= 1e-12) {
                continue; /* parallel: a single plane's projection covers it */
            }
            double x = (pl[i].c * pl[j].ny - pl[j].c * pl[i].ny) / det;
            double y = (pl[i].nx * pl[j].c - pl[j].nx * pl[i].c) / det;
            double d = (x - tx) * (x - tx) + (y - ty) * (y - ty);
            if (d < best && satisfies_all(pl, m, x, y, i, j, tol)) {
                best = d;
                bx = x;
                by = y;
            }
        }
    }
    if (best == INFINITY) {
        return 0;
    }
    *ox = bx;
    *oy = by;
    return 2;
}

/* ---- the move ----------------------------------------------------------------------------- */

typedef struct mover_input {
    rc_vec2 position, delta;
    float radius, skin;
    rc_query_filter filter;
    int32_t ignore;
} mover_input;


static float max_abs(rc_vec2 p) { return rc_maxf(fabsf(p.x), fabsf(p.y)); }

/* The clearance at p: the asked-for or the world's, and at least 4 float epsilons of the
 * coordinates and the radius, so that it spans a few float spacings of every number near the
 * walker. With step > 0: the most it can be anywhere within step of p. */
static float skin_at(const rc_world *world, const mover_input *in, rc_vec2 p, float step) {
    float base = in->skin > 0.0f ? in->skin : rc_world_skin(world, p);
    /* (the world's skin anywhere within step of p is at most the larger of this base and
       the floor) */
    return rc_maxf(base, 4.0f * FLT_EPSILON * (max_abs(p) + step + in->radius));
}

/* a + d rounded towards a: never further from a than d. */
static float toward(float a, double d) {
    float b = (float)((double)a + d);
    double moved = (double)b - (double)a;
    if ((d >= 0.0 && moved > d) || (d < 0.0 && moved < d)) {
        b = nextafterf(b, a);
    }
    return b;
}

/* How far p is from the shape along the direction n: the least of n . (p - x) over the points
 * x of the shape (its support in direction -n), in double. The line n . x = n . p - that
 * supports the shape whatever n is, so a half-plane built on it keeps clear of the whole shape
 * even when n is a little off the true normal at the nearest point (which happens when p's
 * nearest point is decided between a vertex and its edge within float rounding: the normal of
 * the vertex may then lean out of the vertex's normal cone by up to about sqrt(FLT_EPSILON),
 * and its tangent would cut into the edge over a long slide). */
static double support_distance(const rc_shape_view *v, rc_vec2 p, double nx, double ny) {
    if (v->kind == RC_SHAPE_CIRCLE) {
        rc_circle c = v->u.circle;
        return nx * ((double)p.x - c.center.x) + ny * ((double)p.y - c.center.y) - (double)c.radius;
    }
    /* a capsule: its segment's support, less its radius */
    bool capsule = v->kind == RC_SHAPE_CAPSULE;
    rc_vec2 seg[2] = {capsule ? v->u.capsule.center1 : v->u.segment.a, capsule ? v->u.capsule.center2 : v->u.segment.b};
    const rc_vec2 *pts = v->kind == RC_SHAPE_POLYGON ? v->u.polygon.vertices : seg;
    int count = v->kind == RC_SHAPE_POLYGON ? v->u.polygon.count : 2;
    double best = INFINITY;
    for (int i = 0; i < count; ++i) {
        double d = nx * ((double)p.x - pts[i].x) + ny * ((double)p.y - pts[i].y);
        best = d < best ? d : best;
    }
    return capsule ? best - (double)v->u.capsule.radius : best;
}

/* The radius of curvature of a contact's surface at its nearest point: a circle's radius, 0 at
 * a polygon's vertex or a segment's end, INFINITY along an edge (flat). Its half-plane is exact
 * along a flat surface and only first-order around a curved one. */
static double feature_radius(const rc_shape_view *v, const mover_plane *pl) {
    rc_vec2 n = pl->normal;
    if (v->kind == RC_SHAPE_CIRCLE) {
        return v->u.circle.radius;
    }
    /* Along an edge the distance's normal is the edge's own (computed the same way); at a
       vertex it is the direction from the vertex, which may lean off an edge's normal by any
       angle however small: only a match to a few float roundings counts as flat. */
    if (v->kind == RC_SHAPE_POLYGON) {
        const rc_convex *c = &v->u.polygon;
        for (int i = 0; i < c->count; ++i) {
            rc_vec2 e = c->normals[i];
            double cross = (double)e.x * n.y - (double)e.y * n.x, dot = (double)e.x * n.x + (double)e.y * n.y;
            if (dot > 0.0 && fabs(cross) <= 4.0 * FLT_EPSILON) {
                return INFINITY;
            }
        }
        return 0.0;
    }
    bool capsule = v->kind == RC_SHAPE_CAPSULE;
    rc_vec2 a = capsule ? v->u.capsule.center1 : v->u.segment.a, b = capsule ? v->u.capsule.center2 : v->u.segment.b;
    rc_vec2 e = rc_normalize(rc_left_perp(rc_sub(b, a)));
    double cross = (double)e.x * n.y - (double)e.y * n.x;
    bool flat = fabs(cross) <= 4.0 * FLT_EPSILON && (e.x != 0.0f || e.y != 0.0f);
    /* a capsule's side is flat, its ends round with its radius; a segment's ends are vertices */
    return flat ? INFINITY : (capsule ? (double)v->u.capsule.radius : 0.0);
}

/* The vertex of v nearest to `point` (a polygon's vertex, a segment's end) and its neighbours
 * (one for a segment's end). Returns how many neighbours. */
static int vertex_near(const rc_shape_view *v, rc_vec2 point, rc_vec2 *q, rc_vec2 w[2]) {
    if (v->kind == RC_SHAPE_SEGMENT) {
        bool at_b = rc_distance_squared(point, v->u.segment.b) < rc_distance_squared(point, v->u.segment.a);
        *q = at_b ? v->u.segment.b : v->u.segment.a;
        w[0] = at_b ? v->u.segment.a : v->u.segment.b;
        return 1;
    }
    const rc_convex *c = &v->u.polygon;
    int best = 0;
    for (int i = 1; i < c->count; ++i) {
        if (rc_distance_squared(point, c->vertices[i]) < rc_distance_squared(point, c->vertices[best])) {
            best = i;
        }
    }
    *q = c->vertices[best];
    w[0] = c->vertices[best > 0 ? best - 1 : c->count - 1];
    w[1] = c->vertices[best + 1 < c->count ? best + 1 : 0];
    return 2;
}

/* How far n leans out of the normal cone of the vertex q past its neighbour w: > 0 when the
 * line across n through q would cut into the edge q..w (per unit length of the edge). */
static double lean(rc_vec2 q, rc_vec2 w, double nx, double ny) {
    double ex = (double)w.x - q.x, ey = (double)w.y - q.y;
    return (nx * ex + ny * ey) / length2(ex, ey);
}

/* A vertex contact's normal is the direction from the vertex; when p is within rounding of an
 * edge's side of it, that direction may lean a little out of the vertex's normal cone, and the
 * line across it would cut into the edge (its support, support_distance, would then lie at
 * the far end of the edge, and the walker be pushed out for nothing). Lean it back onto the
 * normal of that edge, which makes the contact flat. */
static void clamp_vertex_normal(const rc_shape_view *v, mover_plane *pl) {
    rc_vec2 q, w[2];
    int nw = vertex_near(v, pl->point, &q, w);
    for (int k = 0; k < nw; ++k) {
        if (lean(q, w[k], pl->nx, pl->ny) > 0.0) {
            /* the edge's normal on the side of the contact's normal */
            double ex = (double)w[k].x - q.x, ey = (double)w[k].y - q.y, el = length2(ex, ey);
            double nx = -ey / el, ny = ex / el;
            if (nx * pl->nx + ny * pl->ny < 0.0) {
                nx = -nx;
                ny = -ny;
            }
            pl->nx = nx;
            pl->ny = ny;
            pl->rho = INFINITY;
            return;
        }
    }
}

/* Is n in the normal cone of the vertex of v nearest to `point`: would the line across n
 * through that vertex support the shape? Within an angle of about 1e-6, so that the faces of
 * boxes laid side by side count as one line. */
static bool in_vertex_cone(const rc_shape_view *v, rc_vec2 point, double nx, double ny) {
    rc_vec2 q, w[2];
    int nw = vertex_near(v, point, &q, w);
    for (int k = 0; k < nw; ++k) {
        if (lean(q, w[k], nx, ny) > 1e-6) {
            return false;
        }
    }
    return true;
}

typedef struct mover_outcome {
    rc_vec2 position;
    float skin; /* of the last sub-step */
} mover_outcome;

/* How a sub-step's move was limited. */
enum { LIMIT_NONE, LIMIT_STEP, LIMIT_CURVE };

static mover_outcome move(const rc_world *world, const mover_input *in, mover_gather *g) {
    const double r = in->radius;
    rc_vec2 p = in->position;
    const double gx = (double)p.x + (double)in->delta.x, gy = (double)p.y + (double)in->delta.y;
    const double budget = length2((double)in->delta.x, (double)in->delta.y);
    double used = 0.0;
    /* Sub-step length: the larger of the walker's diameter and 2 cells (a query of a few grid
       cells); doubled after every sub-step that went as far as it could without meeting
       anything, up to the size of the walker's coordinates. */
    double l0 = rc_maxf(2.0f * in->radius, 2.0f * rc_world_cell_size(world));
    if (!(l0 > 0.0)) {
        l0 = budget;
    }
    double sub = l0;
    mover_outcome out = {p, skin_at(world, in, p, 0.0f)};
    for (int32_t k = 0; k < RC_MOVER_MAX_SUBSTEPS; ++k) {
        double remaining = budget - used;
        double tx = gx - (double)p.x, ty = gy - (double)p.y;
        double tlen = length2(tx, ty);
        if (!(remaining > 0.0) || tlen == 0.0) {
            break;
        }
        double step = sub < remaining ? sub : remaining;
        const double skin = skin_at(world, in, p, 0.0f);
        out.skin = (float)skin;
        /* Contacts (surfaces within r + 2 skin of p) give half-planes; every other surface the
           sub-step can reach (within r + skin + step) is swept against. One more skin_hi of
           reach covers the rounding of the reach and of the query box. */
        double skin_hi = skin_at(world, in, p, (float)step);
        gather(g, p, (float)(r + skin + skin_hi + step));
        if (g->dropped < INFINITY) {
            /* Too many surfaces: the sub-step stops short of the nearest one left out. Every
               one left out is at least `dropped` from p, so at least r + 2 skin from every
               point of the sub-step. */
            double reach = (double)g->dropped - r - 2.0 * skin;
            if (reach < step) {
                step = reach;
            }
            if (!(step > 0.0)) {
                break;
            }
        }
        /* contacts first, with their normals and curvature */
        const double keep = r + skin;
        int32_t m = 0;
        for (int32_t i = 0; i < g->count; ++i) {
            mover_plane pl = g->planes[i];
            if (!(pl.s < keep + skin)) {
                continue;
            }
            pl.nx = pl.normal.x;
            pl.ny = pl.normal.y;
            rc_shape_view v = rc_shape_view_of(world, &world->shapes.data[pl.shape]);
            pl.rho = feature_radius(&v, &pl);
            if (pl.rho == 0.0) {
                clamp_vertex_normal(&v, &pl);
            }
            g->planes[i] = g->planes[m];
            g->planes[m++] = pl;
        }
        /* A vertex where another contact's flat face would support its shape too (the seam
           between two boxes of one floor, the joint of two chain walls in line) takes that
           face's normal: its own tangent would be a small ramp there. Any normal gives a
           half-plane that keeps clear of the shape (support_distance); this one keeps the
           walker on the common surface. Not when it would push the walker out. */
        for (int32_t i = 0; i < m; ++i) {
            mover_plane *pl = &g->planes[i];
            if (pl->rho != 0.0) {
                continue;
            }
            rc_shape_view v = rc_shape_view_of(world, &world->shapes.data[pl->shape]);
            double own = support_distance(&v, p, pl->nx, pl->ny);
            double best_dot = 0.0, bx = 0.0, by = 0.0;
            for (int32_t j = 0; j < m; ++j) {
                const mover_plane *o = &g->planes[j];
                double dot = o->nx * pl->nx + o->ny * pl->ny;
                if (j == i || o->rho != INFINITY || o->shape == pl->shape || dot <= best_dot ||
                    !in_vertex_cone(&v, pl->point, o->nx, o->ny)) {
                    continue;
                }
                double sd = support_distance(&v, p, o->nx, o->ny);
                if (sd >= (own < r ? own : r)) {
                    best_dot = dot;
                    bx = o->nx;
                    by = o->ny;
                }
            }
            if (best_dot > 0.0) {
                pl->nx = bx;
                pl->ny = by;
                pl->rho = INFINITY;
            }
        }
        double cmax = 0.0;
        for (int32_t i = 0; i < m; ++i) {
            mover_plane *pl = &g->planes[i];
            pl->nn = pl->nx * pl->nx + pl->ny * pl->ny;
            rc_shape_view v = rc_shape_view_of(world, &world->shapes.data[pl->shape]);
            double s = support_distance(&v, p, pl->nx, pl->ny);
            /* within [r, r + skin] of the surface it may not come nearer and is not pushed
               out; nearer than r it is pushed out to r + skin */
            pl->c = s >= r ? (keep < s ? keep : s) - s : keep - s;
            cmax = fabs(pl->c) > cmax ? fabs(pl->c) : cmax;
        }
        double x = 0.0, y = 0.0;
        int how = solve(g->planes, m, tx, ty, step + cmax + 0.1 * tlen, &x, &y);
        if (how == 0) {
            break; /* squeezed: no place keeps r + skin from all of them */
        }
        double len = length2(x, y);
        int limit = LIMIT_NONE;
        if (len > step) {
            limit = LIMIT_STEP;
        }
        /* A curved contact's half-plane is its tangent: along it the walker drifts off the
           surface by about d^2 / (2 rho) after d. Moves along one (not clearly away from it)
           are held to rho / 4, so that the walker follows pillars and crosses the vertices
           between flat pieces (a seam in a floor of boxes) without being launched off them. */
        double limit_len = step;
        bool curved = false;
        for (int32_t i = 0; i < m && len > 0.0; ++i) {
            const mover_plane *pl = &g->planes[i];
            double rho = pl->rho;
            if (rho == INFINITY) {
                continue;
            }
            curved = true;
            if (pl->nx * x + pl->ny * y < 0.25 * len) {
                double lim = 0.25 * (rho + keep);
                if (lim < limit_len) {
                    limit_len = lim;
                    if (len > lim) {
                        limit = LIMIT_CURVE;
                    }
                }
            }
        }
        if (len > limit_len) {
            x *= limit_len / len;
            y *= limit_len / len;
            len = limit_len;
        }
        double tiny = 8.0 * FLT_EPSILON * tlen;
        if (k > 0 && tiny < skin / 64.0) {
            tiny = skin / 64.0;
        }
        if (len <= tiny) {
            break;
        }
        /* Sweep the other surfaces: a circle of radius r + skin along the move stops at the
           first it touches. They are all at least r + 2 skin away: none overlaps it at the
           start, and the first touch is at least a skin away. */
        rc_vec2 d = rc_v2((float)x, (float)y);
        float sweep_radius = (float)keep;
        float t_hit = 1.0f;
        for (int32_t i = m; i < g->count; ++i) {
            rc_shape_view v = rc_shape_view_of(world, &world->shapes.data[g->planes[i].shape]);
            rc_ray_hit hit;
            if (rc_view_circle_cast(&v, p, sweep_radius, d, &hit) && hit.t < t_hit) {
                t_hit = hit.t;
            }
        }
        /* the float move may be a rounding longer than the double one: never beyond len */
        double dl = length2((double)d.x, (double)d.y);
        double t = dl > len ? len / dl : 1.0;
        t = (double)t_hit < t ? (double)t_hit : t;
        x = (double)d.x * t;
        y = (double)d.y * t;
        len = length2(x, y);
        rc_vec2 q = rc_v2(toward(p.x, x), toward(p.y, y));
        if (rc_vec2_equal(q, p)) {
            break;
        }
        used += len;
        p = q;
        out.position = p;
        bool hit = t_hit < 1.0f;
        if (!hit && limit == LIMIT_NONE && (how == 1 || !curved)) {
            /* the target, or the nearest point to it along flat surfaces: the next sub-step
               would find the same planes and not move */
            break;
        }
        if (!hit && limit == LIMIT_STEP) {
            double cap = rc_maxf((float)l0, max_abs(p));
            sub = 2.0 * sub < cap ? 2.0 * sub : cap;
            if (sub < l0) {
                sub = l0;
            }
        } else {
            sub = l0;
        }
    }
    return out;
}

/* ---- touches -------------------------------------------------------------------------------- */

static void find_touches(const rc_world *world, const mover_input *in, mover_gather *g, float skin,
                         rc_mover_result *result) {
    float band = in->radius + 2.0f * skin;
    gather(g, result->position, nextafterf(band, INFINITY)); /* s <= band */
    /* insertion sort of at most RC_MOVER_MAX_PLANES, nearest first */
    for (int32_t i = 1; i < g->count; ++i) {
        mover_plane t = g->planes[i];
        int32_t j = i;
        while (j > 0 && nearer(t.s, t.shape, g->planes[j - 1].s, g->planes[j - 1].shape)) {
            g->planes[j] = g->planes[j - 1];
            --j;
        }
        g->planes[j] = t;
    }
    int32_t n = g->count < RC_MAX_MOVER_TOUCHES ? g->count : RC_MAX_MOVER_TOUCHES;
    for (int32_t i = 0; i < n; ++i) {
        const mover_plane *pl = &g->planes[i];
        rc_mover_touch *t = &result->touches[i];
        t->shape = rc_shape_id_of(world, pl->shape);
        t->body = rc_body_id_of(world, world->shapes.data[pl->shape].body);
        t->point = pl->point;
        t->normal = pl->normal;
        t->separation = pl->s - in->radius;
    }
    result->touch_count = n;
}

/* ---- the entry points ----------------------------------------------------------------------- */

static bool check_input(const rc_world *world, const mover_input *in, const char *func) {
    if (!rc_vec2_is_finite(in->position) || !rc_vec2_is_finite(in->delta)) {
        return rc_fail(world, func, "position (%g, %g) or delta (%g, %g) is not finite", (double)in->position.x,
                       (double)in->position.y, (double)in->delta.x, (double)in->delta.y);
    }
    if (!rc_is_finite(in->radius) || in->radius < 0.0f) {
        return rc_fail(world, func, "radius %g must be finite and >= 0", (double)in->radius);
    }
    if (!rc_is_finite(in->skin) || in->skin < 0.0f) {
        return rc_fail(world, func, "skin %g must be finite and >= 0", (double)in->skin);
    }
    /* every box the move queries lies within this one, with room to spare */
    float reach = 2.0f * (in->radius + fabsf(in->delta.x) + fabsf(in->delta.y) + in->skin +
                          rc_world_skin(world, in->position) + 4.0f * rc_world_cell_size(world)) +
                  1.0f;
    rc_vec2 e = rc_v2(reach, reach);
    rc_aabb box = {rc_sub(rc_min(in->position, rc_add(in->position, in->delta)), e),
                   rc_add(rc_max(in->position, rc_add(in->position, in->delta)), e)};
    if (!rc_is_finite(reach) || !rc_aabb_is_valid(box) || !rc_is_finite(2.0f * max_abs(box.lower)) ||
        !rc_is_finite(2.0f * max_abs(box.upper))) {
        return rc_fail(world, func, "the move reaches beyond float range");
    }
    return true;
}

bool rc_world_move_circle_ex(const rc_world *world, const rc_mover_def *def, rc_mover_result *result) {
    if (world == NULL) {
        return false;
    }
    if (def == NULL || result == NULL) {
        return rc_fail(world, __func__, "def or result is NULL");
    }
    mover_input in = {def->position, def->delta, def->radius, def->skin, def->filter, -1};
    if (!check_input(world, &in, __func__)) {
        return false;
    }
    if (!rc_body_id_is_null(def->ignore_body)) {
        if (rc_get_body(world, def->ignore_body, __func__) == NULL) {
            return false;
        }
        in.ignore = (int32_t)def->ignore_body.index - 1;
    }
    if (!rc_body_id_is_null(def->filter.ignore_body) && rc_get_body(world, def->filter.ignore_body, __func__) == NULL) {
        return false; /* the filter's own ignored body: as the queries check it */
    }
    mover_gather g;
    g.world = world;
    g.filter = in.filter;
    g.ignore = in.ignore;
    mover_outcome out = move(world, &in, &g);
    result->position = out.position;
    float skin = rc_maxf(out.skin, skin_at(world, &in, out.position, 0.0f));
    find_touches(world, &in, &g, skin, result);
    return true;
}

rc_vec2 rc_world_move_circle(const rc_world *world, rc_vec2 position, float radius, rc_vec2 delta) {
    rc_vec2 fallback = rc_vec2_is_finite(position) ? position : rc_v2(0.0f, 0.0f);
    if (world == NULL) {
        return fallback;
    }
    mover_input in = {position, delta, radius, 0.0f, rc_default_query_filter(), -1};
    if (!check_input(world, &in, __func__)) {
        return fallback;
    }
    mover_gather g;
    g.world = world;
    g.filter = in.filter;
    g.ignore = in.ignore;
    return move(world, &in, &g).position;
}
