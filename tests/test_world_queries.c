/* World queries against brute force.
 *
 * Random scenes (fixed seeds) of static, kinematic and dynamic bodies at random positions and
 * angles, carrying circles, regular polygons, random convex polygons and boxes with random base
 * transforms (offset, angle, uniform and non-uniform scale, mirrored negative scale), sizes
 * from 0.05 to 200 units, some sensors and random filters. Every world query is compared with a
 * loop over every live shape:
 *  - rays: rc_shape_cast_ray on each shape;
 *  - swept circles: rc_circle_cast_circle / rc_circle_cast_polygon on rc_shape_world_circle /
 *    rc_shape_world_polygon, and for a subset an independent search along the path by
 *    sampling and bisection on rc_point_distance_*;
 *  - overlaps: the shapes' boxes, and point containment and distance in double precision.
 * The same comparisons run again after teleports (rc_body_set_transform), after steps with
 * velocities, and after churn (shapes and bodies destroyed and created), in two worlds side by
 * side with different cell sizes. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stb_ds.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- the scene ------------------------------------------------------------------------------ */

typedef struct qscene {
    rc_world *world;
    rc_body_id *bodies;  /* stb_ds: live bodies */
    rc_shape_id *shapes; /* stb_ds: live shapes */
    float extent;
    ws_rng rng;
} qscene;

static float random_size(ws_rng *r) {
    double u = ws_uniform(r);
    if (u < 0.85) {
        return ws_log_range(r, 0.05, 10.0);
    }
    if (u < 0.97) {
        return ws_log_range(r, 10.0, 50.0);
    }
    return ws_log_range(r, 50.0, 200.0);
}

static rc_filter random_filter(ws_rng *r) {
    rc_filter f = rc_default_filter();
    if (ws_chance(r, 0.35)) {
        f.category_bits = 1u << ws_int(r, 0, 3);
        f.mask_bits = (uint32_t)(ws_next(r) & 0xFu);
        if (ws_chance(r, 0.3)) {
            f.mask_bits |= 0xFFFFFFF0u;
        }
    }
    return f;
}

static rc_shape_id add_random_shape(qscene *sc, rc_body_id body) {
    ws_rng *r = &sc->rng;
    float size = random_size(r);
    rc_shape_def def = rc_shape_default_def();
    def.is_sensor = ws_chance(r, 0.1);
    def.filter = random_filter(r);
    def.offset = rc_v2(ws_range(r, -1.0, 1.0) * size, ws_range(r, -1.0, 1.0) * size);
    def.angle = ws_range(r, -RC_PI, RC_PI);
    int kind = ws_int(r, 0, 3);
    double u = ws_uniform(r);
    if (u < 0.45) {
        def.scale = rc_v2(1.0f, 1.0f);
    } else if (u < 0.7) {
        float s = ws_range(r, 0.3, 3.0);
        def.scale = rc_v2(s, s);
    } else if (kind == 0) {
        /* circles: mirrored but uniform in magnitude */
        float s = ws_range(r, 0.3, 3.0);
        def.scale = rc_v2(ws_chance(r, 0.5) ? -s : s, ws_chance(r, 0.5) ? -s : s);
    } else {
        def.scale = rc_v2(ws_range(r, 0.3, 3.0) * (ws_chance(r, 0.5) ? -1.0f : 1.0f),
                          ws_range(r, 0.3, 3.0) * (ws_chance(r, 0.5) ? -1.0f : 1.0f));
    }
    /* keep the placed size near `size` whatever the scale */
    float smax = fmaxf(fabsf(def.scale.x), fabsf(def.scale.y));
    float local = size / smax;
    rc_shape_id id = RC_NULL_SHAPE_ID;
    switch (kind) {
    case 0:
        id = rc_shape_create_circle(sc->world, body, &def, local);
        break;
    case 1: {
        rc_polygon p =
            rc_make_regular_polygon(ws_int(r, 3, RC_MAX_POLYGON_VERTICES), local, ws_range(r, -RC_PI, RC_PI));
        id = rc_shape_create_polygon(sc->world, body, &def, p.vertices, p.count);
        break;
    }
    case 2: {
        rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
        int n = ws_random_convex(r, local, pts);
        id = rc_shape_create_polygon(sc->world, body, &def, pts, n);
        break;
    }
    default:
        id = rc_shape_create_box(sc->world, body, &def, local * ws_range(r, 0.2, 1.0), local * ws_range(r, 0.2, 1.0));
        break;
    }
    EXPECT(!rc_shape_id_is_null(id), "shape creation failed (kind %d, size %g): %s", kind, (double)size,
           rc_world_last_error(sc->world));
    arrput(sc->shapes, id);
    return id;
}

static rc_body_id add_random_body(qscene *sc) {
    ws_rng *r = &sc->rng;
    rc_body_def bd = rc_body_default_def();
    double u = ws_uniform(r);
    bd.type = u < 0.5 ? RC_STATIC : (u < 0.85 ? RC_DYNAMIC : RC_KINEMATIC);
    bd.position = rc_v2(ws_range(r, -sc->extent, sc->extent), ws_range(r, -sc->extent, sc->extent));
    bd.angle = ws_range(r, -RC_PI, RC_PI);
    if (bd.type != RC_STATIC) {
        bd.linear_velocity = rc_v2(ws_range(r, -20.0, 20.0), ws_range(r, -20.0, 20.0));
        bd.angular_velocity = ws_range(r, -2.0, 2.0);
    }
    rc_body_id b = rc_body_create(sc->world, &bd);
    EXPECT(!rc_body_id_is_null(b), "body creation failed: %s", rc_world_last_error(sc->world));
    arrput(sc->bodies, b);
    int n = ws_chance(r, 0.7) ? 1 : ws_int(r, 2, 3);
    for (int i = 0; i < n; ++i) {
        add_random_shape(sc, b);
    }
    return b;
}

static void scene_init(qscene *sc, uint64_t seed, int nbodies, float extent, float cell_size) {
    memset(sc, 0, sizeof *sc);
    sc->rng.s = seed;
    sc->extent = extent;
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    wd.cell_size = cell_size;
    wd.id_salt = (uint32_t)seed | 1u; /* worlds built from one seed name their shapes alike */
    sc->world = rc_world_create(&wd);
    ck_assert_ptr_nonnull(sc->world);
    for (int i = 0; i < nbodies; ++i) {
        add_random_body(sc);
    }
}

static void scene_free(qscene *sc) {
    rc_world_destroy(sc->world);
    arrfree(sc->bodies);
    arrfree(sc->shapes);
}

static void remove_shape_from_list(qscene *sc, rc_shape_id id) {
    for (ptrdiff_t i = 0; i < arrlen(sc->shapes); ++i) {
        if (rc_shape_id_equals(sc->shapes[i], id)) {
            arrdelswap(sc->shapes, i);
            return;
        }
    }
}

/* Perturbations between comparison rounds. */
static void scene_teleport(qscene *sc) {
    ws_rng *r = &sc->rng;
    for (ptrdiff_t i = 0; i < arrlen(sc->bodies); ++i) {
        if (ws_chance(r, 0.3)) {
            rc_vec2 p = ws_chance(r, 0.5)
                            ? rc_v2(ws_range(r, -sc->extent, sc->extent), ws_range(r, -sc->extent, sc->extent))
                            : rc_add(rc_body_position(sc->world, sc->bodies[i]),
                                     rc_v2(ws_range(r, -0.5, 0.5), ws_range(r, -0.5, 0.5)));
            EXPECT(rc_body_set_transform(sc->world, sc->bodies[i], p, ws_range(r, -4.0, 4.0)),
                   "set_transform failed: %s", rc_world_last_error(sc->world));
        }
    }
}

static void scene_steps(qscene *sc, int steps) {
    for (int k = 0; k < steps; ++k) {
        EXPECT(rc_world_step(sc->world, 1.0f / 30.0f), "step failed: %s", rc_world_last_error(sc->world));
    }
}

static void scene_churn(qscene *sc) {
    ws_rng *r = &sc->rng;
    /* destroy some shapes (never the last of a body: keep bodies simple to track) */
    for (ptrdiff_t i = arrlen(sc->shapes) - 1; i >= 0; --i) {
        if (ws_chance(r, 0.1)) {
            rc_shape_id id = sc->shapes[i];
            rc_shape_destroy(sc->world, id);
            EXPECT(!rc_shape_is_valid(sc->world, id), "destroyed shape still valid");
            arrdelswap(sc->shapes, i);
        }
    }
    /* destroy some bodies with their shapes */
    for (ptrdiff_t i = arrlen(sc->bodies) - 1; i >= 0; --i) {
        if (ws_chance(r, 0.05)) {
            rc_body_id b = sc->bodies[i];
            rc_shape_id ids[16];
            int32_t n = rc_body_shapes(sc->world, b, ids, 16);
            EXPECT(n >= 0 && n <= 16, "rc_body_shapes %d", (int)n);
            rc_body_destroy(sc->world, b);
            for (int32_t k = 0; k < n; ++k) {
                EXPECT(!rc_shape_is_valid(sc->world, ids[k]), "shape of a destroyed body still valid");
                remove_shape_from_list(sc, ids[k]);
            }
            arrdelswap(sc->bodies, i);
        }
    }
    /* new bodies reuse the slots; new shapes on old bodies */
    int add = ws_int(r, 10, 30);
    for (int i = 0; i < add; ++i) {
        if (ws_chance(r, 0.5) || arrlen(sc->bodies) == 0) {
            add_random_body(sc);
        } else {
            add_random_shape(sc, sc->bodies[ws_int(r, 0, (int)arrlen(sc->bodies) - 1)]);
        }
    }
}

/* ---- brute force ------------------------------------------------------------------------------ */

/* One shape, as the reference sees it: radius 0 is a ray by rc_shape_cast_ray, otherwise the
 * pure swept-circle functions on the world shape. */
static bool cast_one(const rc_world *w, rc_shape_id s, rc_vec2 o, float radius, rc_vec2 d, rc_ray_hit *h) {
    memset(h, 0, sizeof *h);
    if (radius == 0.0f) {
        return rc_shape_cast_ray(w, s, o, d, h);
    }
    bool hit;
    if (rc_shape_get_type(w, s) == RC_SHAPE_TYPE_CIRCLE) {
        rc_circle c;
        EXPECT(rc_shape_world_circle(w, s, &c), "rc_shape_world_circle failed");
        hit = rc_circle_cast_circle(c, o, radius, d, h);
    } else {
        rc_polygon p;
        EXPECT(rc_shape_world_polygon(w, s, &p), "rc_shape_world_polygon failed");
        hit = rc_circle_cast_polygon(&p, o, radius, d, h);
    }
    if (hit) {
        h->shape = s;
        h->body = rc_shape_body(w, s);
    }
    return hit;
}

/* Does a cast with this filter see this shape? (NULL filter: every non-sensor shape, as the
 * unfiltered casts promise "over all shapes".) */
static bool cast_sees(const rc_world *w, rc_shape_id s, const rc_query_filter *f) {
    if (rc_shape_is_sensor(w, s)) {
        return false;
    }
    return f == NULL || ws_query_sees(rc_shape_filter(w, s), *f);
}

typedef struct ref_cast {
    bool hit;
    rc_ray_hit best;
    int hits; /* how many shapes the cast hits */
} ref_cast;

static ref_cast brute_cast(const qscene *sc, rc_vec2 o, float radius, rc_vec2 d, const rc_query_filter *f) {
    ref_cast rc;
    memset(&rc, 0, sizeof rc);
    for (ptrdiff_t i = 0; i < arrlen(sc->shapes); ++i) {
        rc_shape_id s = sc->shapes[i];
        if (!cast_sees(sc->world, s, f)) {
            continue;
        }
        rc_ray_hit h;
        if (!cast_one(sc->world, s, o, radius, d, &h)) {
            continue;
        }
        rc.hits++;
        if (!rc.hit || h.t < rc.best.t || (h.t == rc.best.t && h.shape.index < rc.best.shape.index)) {
            rc.best = h;
            rc.hit = true;
        }
    }
    return rc;
}

static bool hits_equal(const rc_ray_hit *a, const rc_ray_hit *b) {
    return a->t == b->t && rc_vec2_equal(a->point, b->point) && rc_vec2_equal(a->normal, b->normal) &&
           a->started_inside == b->started_inside && rc_shape_id_equals(a->shape, b->shape) &&
           rc_body_id_equals(a->body, b->body);
}

/* ---- query generation ------------------------------------------------------------------------- */

typedef struct query_ray {
    rc_vec2 o, d;
    float radius;
} query_ray;

static rc_vec2 shape_inner_point(const rc_world *w, rc_shape_id s) {
    if (rc_shape_get_type(w, s) == RC_SHAPE_TYPE_CIRCLE) {
        rc_circle c;
        rc_shape_world_circle(w, s, &c);
        return c.center;
    }
    rc_polygon p;
    rc_shape_world_polygon(w, s, &p);
    return p.centroid;
}

static query_ray random_ray(qscene *sc, bool circle) {
    ws_rng *r = &sc->rng;
    query_ray q;
    float e = sc->extent * 1.2f;
    double u = ws_uniform(r);
    if (u < 0.15 && arrlen(sc->shapes) > 0) {
        /* from inside a shape */
        q.o = shape_inner_point(sc->world, sc->shapes[ws_int(r, 0, (int)arrlen(sc->shapes) - 1)]);
    } else {
        q.o = rc_v2(ws_range(r, -e, e), ws_range(r, -e, e));
    }
    float len = ws_log_range(r, 0.1, 2.5 * sc->extent);
    float a = ws_range(r, -RC_PI, RC_PI);
    if (ws_chance(r, 0.1)) {
        a = (float)ws_int(r, 0, 3) * 0.5f * RC_PI; /* axis aligned */
        q.d = (rc_vec2){a == 0.0f ? len : (ws_int(r, 0, 1) ? -len : 0.0f), 0.0f};
        if (q.d.x == 0.0f) {
            q.d.y = ws_chance(r, 0.5) ? len : -len;
        }
    } else {
        q.d = rc_v2(len * cosf(a), len * sinf(a));
    }
    if (ws_chance(r, 0.1) && arrlen(sc->shapes) > 0) {
        /* aimed at a shape */
        rc_vec2 target = shape_inner_point(sc->world, sc->shapes[ws_int(r, 0, (int)arrlen(sc->shapes) - 1)]);
        q.d = rc_scale(ws_range(r, 0.5, 2.0), rc_sub(target, q.o));
    }
    q.radius = circle ? ws_log_range(r, 0.01, 20.0) : 0.0f;
    return q;
}

static rc_query_filter random_query_filter(ws_rng *r) {
    rc_query_filter f = rc_default_query_filter();
    double u = ws_uniform(r);
    if (u < 0.3) {
        return f;
    }
    f.category_bits = (uint32_t)(ws_next(r) & 0xFu);
    f.mask_bits = (uint32_t)(ws_next(r) & 0xFu);
    if (ws_chance(r, 0.2)) {
        f.category_bits = UINT32_MAX;
    }
    return f;
}

/* ---- closest casts ---------------------------------------------------------------------------- */

typedef struct cast_stats {
    long compared, hits, misses, inside, near_ties;
} cast_stats;

static void compare_closest(qscene *sc, query_ray q, const rc_query_filter *filter, cast_stats *st) {
    const rc_world *w = sc->world;
    ref_cast ref = brute_cast(sc, q.o, q.radius, q.d, filter);
    rc_ray_hit got;
    memset(&got, 0, sizeof got);
    bool hit;
    if (q.radius == 0.0f) {
        hit = filter ? rc_world_cast_ray_filtered(w, q.o, q.d, *filter, &got) : rc_world_cast_ray(w, q.o, q.d, &got);
    } else {
        hit = filter ? rc_world_cast_circle_filtered(w, q.o, q.radius, q.d, *filter, &got)
                     : rc_world_cast_circle(w, q.o, q.radius, q.d, &got);
    }
    st->compared++;
    char in[300];
    snprintf(in, sizeof in, "origin (%a, %a) translation (%a, %a) radius %a filter %s %x/%x", (double)q.o.x,
             (double)q.o.y, (double)q.d.x, (double)q.d.y, (double)q.radius, filter ? "yes" : "none",
             filter ? filter->category_bits : 0u, filter ? filter->mask_bits : 0u);
    EXPECT(hit == ref.hit,
           "%s: world %s, brute force %s (brute shape {%u,%u} t %.9g filter %x/%x; world shape {%u,%u} t %.9g)", in,
           hit ? "hits" : "misses", ref.hit ? "hits" : "misses", ref.best.shape.index, ref.best.shape.generation,
           (double)ref.best.t, ref.hit ? rc_shape_filter(w, ref.best.shape).category_bits : 0u,
           ref.hit ? rc_shape_filter(w, ref.best.shape).mask_bits : 0u, got.shape.index, got.shape.generation,
           (double)got.t);
    if (!hit) {
        st->misses++;
        return;
    }
    st->hits++;
    st->inside += ref.best.started_inside;
    EXPECT(rc_shape_is_valid(w, got.shape), "%s: hit names an invalid shape", in);
    EXPECT(rc_body_id_equals(got.body, rc_shape_body(w, got.shape)), "%s: hit body is not the shape's body", in);
    EXPECT(cast_sees(w, got.shape, filter), "%s: hit a shape the filter hides (or a sensor)", in);
    if (rc_shape_id_equals(got.shape, ref.best.shape)) {
        EXPECT(hits_equal(&got, &ref.best),
               "%s: same shape {%u,%u} but t %.9g/%.9g point (%.9g, %.9g)/(%.9g, %.9g) normal (%.9g, %.9g)/(%.9g, "
               "%.9g) inside %d/%d",
               in, got.shape.index, got.shape.generation, (double)got.t, (double)ref.best.t, (double)got.point.x,
               (double)got.point.y, (double)ref.best.point.x, (double)ref.best.point.y, (double)got.normal.x,
               (double)got.normal.y, (double)ref.best.normal.x, (double)ref.best.normal.y, got.started_inside,
               ref.best.started_inside);
        if (ref.best.started_inside) {
            EXPECT(got.t == 0.0f && rc_vec2_equal(got.point, q.o), "%s: started inside but t %.9g", in, (double)got.t);
        }
        return;
    }
    /* another shape: only acceptable as a near tie (never an exact tie with a higher id) */
    rc_ray_hit own;
    bool own_hit = cast_one(w, got.shape, q.o, q.radius, q.d, &own);
    EXPECT(own_hit && hits_equal(&own, &got), "%s: the world's hit on {%u,%u} (t %.9g) is not that shape's own cast",
           in, got.shape.index, got.shape.generation, (double)got.t);
    double tw = got.t, tr = ref.best.t;
    rc_filter rf = rc_shape_filter(w, ref.best.shape);
    EXPECT(!(tw == tr && got.shape.index > ref.best.shape.index),
           "%s: tie at t %.9g went to shape {%u,%u}, not the lower id {%u,%u} (filter %x/%x)", in, tw, got.shape.index,
           got.shape.generation, ref.best.shape.index, ref.best.shape.generation, rf.category_bits, rf.mask_bits);
    EXPECT(fabs(tw - tr) <= 1e-5 * fmax(fabs(tw), fabs(tr)) + 1e-12,
           "%s: world hit {%u,%u} at t %.9g, the closest is {%u,%u} at t %.9g (filter %x/%x)", in, got.shape.index,
           got.shape.generation, tw, ref.best.shape.index, ref.best.shape.generation, tr, rf.category_bits,
           rf.mask_bits);
    st->near_ties++;
}

static void run_closest(qscene *sc, int count, bool circle, bool filtered, const char *phase) {
    cast_stats st;
    memset(&st, 0, sizeof st);
    count = rc_test_random_cases(count);
    for (int i = 0; i < count; ++i) {
        query_ray q = random_ray(sc, circle);
        if (filtered) {
            rc_query_filter f = random_query_filter(&sc->rng);
            compare_closest(sc, q, &f, &st);
        } else {
            compare_closest(sc, q, NULL, &st);
        }
    }
    fprintf(stderr, "[queries] %s %s%s: %ld casts, %ld hits (%ld started inside), %ld misses, %ld near ties\n", phase,
            circle ? "cast_circle" : "cast_ray", filtered ? "_filtered" : "", st.compared, st.hits, st.inside,
            st.misses, st.near_ties);
    EXPECT(st.hits > count / 10 && st.misses > 0 && st.inside > 0, "the generator is not exercising the queries");
}

/* ---- casts reporting every hit ------------------------------------------------------------------ */

enum { ALL_GO_ON, ALL_IGNORE, ALL_STOP, ALL_CLIP_EACH, ALL_RANDOM, ALL_MODES };

typedef struct got_hit {
    rc_ray_hit hit;
} got_hit;

typedef struct all_ctx {
    int mode;
    ws_rng *rng;
    float clip; /* the cast's current end, as the callback told it */
    bool stopped;
    int calls;
    bool violated;
    char why[200];
    got_hit *got; /* stb_ds */
} all_ctx;

static float all_fn(const rc_ray_hit *hit, void *context) {
    all_ctx *c = context;
    c->calls++;
    if (c->stopped && !c->violated) {
        c->violated = true;
        snprintf(c->why, sizeof c->why, "called again after returning 0");
    }
    if (hit->t > c->clip && !c->violated) {
        c->violated = true;
        snprintf(c->why, sizeof c->why, "hit at t %.9g beyond the clip %.9g", (double)hit->t, (double)c->clip);
    }
    got_hit g = {*hit};
    arrput(c->got, g);
    float ret = 1.0f;
    switch (c->mode) {
    case ALL_GO_ON:
        ret = 1.0f;
        break;
    case ALL_IGNORE:
        ret = -1.0f;
        break;
    case ALL_STOP:
        ret = 0.0f;
        break;
    case ALL_CLIP_EACH:
        ret = hit->t;
        break;
    default: {
        double u = ws_uniform(c->rng);
        ret = u < 0.3 ? -1.0f : (u < 0.5 ? 1.0f : (u < 0.95 ? ws_range(c->rng, 0.01, 0.99) : 0.0f));
        break;
    }
    }
    if (ret == 0.0f) {
        c->stopped = true;
    } else if (ret > 0.0f && ret < c->clip) {
        c->clip = ret;
    }
    return ret;
}

static void compare_all(qscene *sc, query_ray q, rc_query_filter f, int mode) {
    const rc_world *w = sc->world;
    all_ctx c;
    memset(&c, 0, sizeof c);
    c.mode = mode;
    c.rng = &sc->rng;
    c.clip = 1.0f;
    bool ok = q.radius == 0.0f ? rc_world_cast_ray_all(w, q.o, q.d, f, all_fn, &c)
                               : rc_world_cast_circle_all(w, q.o, q.radius, q.d, f, all_fn, &c);
    char in[300];
    snprintf(in, sizeof in, "%s mode %d origin (%a, %a) translation (%a, %a) radius %a filter %x/%x",
             q.radius == 0.0f ? "cast_ray_all" : "cast_circle_all", mode, (double)q.o.x, (double)q.o.y, (double)q.d.x,
             (double)q.d.y, (double)q.radius, f.category_bits, f.mask_bits);
    EXPECT(ok, "%s: returned false: %s", in, rc_world_last_error(w));
    EXPECT(!c.violated, "%s: %s", in, c.why);
    /* each reported hit is that shape's own hit; each shape once */
    for (ptrdiff_t i = 0; i < arrlen(c.got); ++i) {
        const rc_ray_hit *h = &c.got[i].hit;
        EXPECT(rc_shape_is_valid(w, h->shape) && cast_sees(w, h->shape, &f), "%s: reported a shape it cannot see", in);
        rc_ray_hit own;
        EXPECT(cast_one(w, h->shape, q.o, q.radius, q.d, &own) && hits_equal(&own, h),
               "%s: reported hit on {%u,%u} t %.9g differs from the shape's own cast (t %.9g)", in, h->shape.index,
               h->shape.generation, (double)h->t, (double)own.t);
        for (ptrdiff_t k = 0; k < i; ++k) {
            EXPECT(!rc_shape_id_equals(c.got[k].hit.shape, h->shape), "%s: shape {%u,%u} reported twice", in,
                   h->shape.index, h->shape.generation);
        }
    }
    /* the brute-force set */
    int expected = 0;
    float min_t = 2.0f;
    for (ptrdiff_t i = 0; i < arrlen(sc->shapes); ++i) {
        rc_shape_id s = sc->shapes[i];
        rc_ray_hit h;
        if (!cast_sees(w, s, &f) || !cast_one(w, s, q.o, q.radius, q.d, &h)) {
            continue;
        }
        expected++;
        min_t = fminf(min_t, h.t);
        bool reported = false;
        for (ptrdiff_t k = 0; k < arrlen(c.got); ++k) {
            reported |= rc_shape_id_equals(c.got[k].hit.shape, s);
        }
        bool must = mode == ALL_GO_ON || mode == ALL_IGNORE || (mode == ALL_RANDOM && !c.stopped && h.t < c.clip);
        EXPECT(reported || !must, "%s: shape {%u,%u} hit at t %.9g (clip %.9g) was not reported", in, s.index,
               s.generation, (double)h.t, (double)c.clip);
    }
    if (mode == ALL_GO_ON || mode == ALL_IGNORE) {
        EXPECT(arrlen(c.got) == expected, "%s: %d reported, %d expected", in, (int)arrlen(c.got), expected);
    }
    if (mode == ALL_STOP) {
        EXPECT(c.calls == (expected > 0 ? 1 : 0), "%s: %d calls after stopping at once (%d hits exist)", in, c.calls,
               expected);
    }
    if (mode == ALL_CLIP_EACH && expected > 0) {
        float min_got = 2.0f;
        for (ptrdiff_t k = 0; k < arrlen(c.got); ++k) {
            min_got = fminf(min_got, c.got[k].hit.t);
        }
        EXPECT(min_got == min_t, "%s: clipping at each hit ends at t %.9g, the closest hit is at %.9g", in,
               (double)min_got, (double)min_t);
    }
    arrfree(c.got);
}

static void run_all(qscene *sc, int count, bool circle) {
    count = rc_test_random_cases(count);
    for (int i = 0; i < count; ++i) {
        query_ray q = random_ray(sc, circle);
        rc_query_filter f = random_query_filter(&sc->rng);
        compare_all(sc, q, f, i % ALL_MODES);
    }
}

/* ---- swept circles by an independent search -------------------------------------------------- */

static float shape_distance(const rc_world *w, rc_shape_id s, rc_vec2 p) {
    if (rc_shape_get_type(w, s) == RC_SHAPE_TYPE_CIRCLE) {
        rc_circle c;
        rc_shape_world_circle(w, s, &c);
        return rc_point_distance_circle(c, p).distance;
    }
    rc_polygon poly;
    rc_shape_world_polygon(w, s, &poly);
    return rc_point_distance_polygon(&poly, p).distance;
}

static rc_vec2 path_point(query_ray q, double t) {
    return rc_v2((float)(q.o.x + t * q.d.x), (float)(q.o.y + t * q.d.y));
}

/* The first t at which the centre comes within radius of the shape, by sampling the path and
 * bisecting the first bracket: -1 when no sample comes within radius - tol. */
static double first_touch(const rc_world *w, rc_shape_id s, query_ray q, float tol, double *t_deep) {
    enum { SAMPLES = 400 };
    double prev = 0.0;
    *t_deep = -1.0;
    if (shape_distance(w, s, q.o) <= q.radius) {
        *t_deep = shape_distance(w, s, q.o) <= q.radius - tol ? 0.0 : -1.0;
        return 0.0;
    }
    for (int i = 1; i <= SAMPLES; ++i) {
        double t = (double)i / SAMPLES;
        float dist = shape_distance(w, s, path_point(q, t));
        if (dist <= q.radius) {
            double lo = prev, hi = t;
            for (int k = 0; k < 50; ++k) {
                double mid = 0.5 * (lo + hi);
                if (shape_distance(w, s, path_point(q, mid)) <= q.radius) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            *t_deep = dist <= q.radius - tol ? t : -1.0;
            return hi;
        }
        prev = t;
    }
    return -1.0;
}

static void compare_circle_by_search(qscene *sc, query_ray q, long *checked) {
    const rc_world *w = sc->world;
    double len = rc_length(q.d);
    double scale = fmax(fmax(fabs(q.o.x), fabs(q.o.y)), len) + q.radius;
    float tol = (float)(2e-5 * scale + 1e-5);
    /* every shape with a category and a mask (the unfiltered cast is checked elsewhere) */
    rc_query_filter all = rc_default_query_filter();
    rc_ray_hit got;
    bool hit = rc_world_cast_circle_filtered(w, q.o, q.radius, q.d, all, &got);
    double best = 2.0, best_deep = 2.0;
    rc_shape_id best_shape = RC_NULL_SHAPE_ID;
    rc_circle sweep = {q.o, q.radius};
    rc_aabb swept = rc_aabb_union(rc_circle_aabb(sweep), rc_circle_aabb((rc_circle){rc_add(q.o, q.d), q.radius}));
    for (ptrdiff_t i = 0; i < arrlen(sc->shapes); ++i) {
        rc_shape_id s = sc->shapes[i];
        if (!cast_sees(w, s, &all) || !rc_aabb_overlaps(rc_shape_aabb(w, s), swept)) {
            continue;
        }
        double deep;
        double t = first_touch(w, s, q, tol, &deep);
        if (t >= 0.0 && t < best) {
            best = t;
            best_shape = s;
        }
        if (deep >= 0.0 && deep < best_deep) {
            best_deep = deep;
        }
    }
    char in[200];
    snprintf(in, sizeof in, "origin (%a, %a) translation (%a, %a) radius %a", (double)q.o.x, (double)q.o.y,
             (double)q.d.x, (double)q.d.y, (double)q.radius);
    (*checked)++;
    if (!hit) {
        EXPECT(best_deep > 1.0,
               "%s: the world misses, but the path comes deeper than radius - %g into shape {%u,%u} "
               "at t %.9g",
               in, (double)tol, best_shape.index, best_shape.generation, best_deep);
        return;
    }
    double ttol = tol / fmax(len, 1e-30);
    EXPECT(got.t <= best + ttol,
           "%s: world hit at t %.9g, the search finds a touch at t %.9g (shape {%u,%u}, filter %x/%x, deep at %.9g)",
           in, (double)got.t, best, best_shape.index, best_shape.generation,
           rc_shape_filter(w, best_shape).category_bits, rc_shape_filter(w, best_shape).mask_bits, best_deep);
    float dist = shape_distance(w, got.shape, path_point(q, got.t));
    if (got.started_inside) {
        EXPECT(got.t == 0.0f && dist <= q.radius + tol, "%s: started inside but the distance at the origin is %.9g", in,
               (double)dist);
    } else {
        EXPECT(fabs((double)dist - q.radius) <= tol,
               "%s: at the world's t %.9g the centre is %.9g from shape {%u,%u}, radius %.9g", in, (double)got.t,
               (double)dist, got.shape.index, got.shape.generation, (double)q.radius);
        /* the reported point lies on the shape's surface, radius from the centre */
        rc_vec2 c = path_point(q, got.t);
        EXPECT(fabs(rc_distance(c, got.point) - q.radius) <= tol &&
                   fabs(shape_distance(w, got.shape, got.point)) <= tol,
               "%s: hit point (%.9g, %.9g) is not on the shape at radius from the centre", in, (double)got.point.x,
               (double)got.point.y);
        EXPECT(fabs(rc_length(got.normal) - 1.0) < 1e-4 && rc_dot(got.normal, q.d) <= 1e-6 * len,
               "%s: normal (%.9g, %.9g) not unit or not against the motion", in, (double)got.normal.x,
               (double)got.normal.y);
    }
}

/* ---- overlaps ------------------------------------------------------------------------------- */

typedef struct overlap_ctx {
    const rc_world *world;
    rc_shape_id *got; /* stb_ds */
    bool body_mismatch;
    int stop_after; /* 0: never */
} overlap_ctx;

static bool overlap_fn(rc_shape_id shape, rc_body_id body, void *context) {
    overlap_ctx *c = context;
    if (!rc_body_id_equals(body, rc_shape_body(c->world, shape))) {
        c->body_mismatch = true;
    }
    arrput(c->got, shape);
    return c->stop_after == 0 || arrlen(c->got) < c->stop_after;
}

static bool contains_shape(const rc_shape_id *list, rc_shape_id s) {
    for (ptrdiff_t i = 0; i < arrlen(list); ++i) {
        if (rc_shape_id_equals(list[i], s)) {
            return true;
        }
    }
    return false;
}

/* 1: inside (boundary included), 0: outside, -1: too close to the boundary to say in float */
typedef int (*classify_fn)(const rc_world *w, rc_shape_id s, const void *query);

static void compare_overlap_set(const qscene *sc, const char *name, const char *in, const rc_shape_id *got,
                                int32_t count, bool body_mismatch, rc_query_filter f, classify_fn classify,
                                const void *query, long *skipped) {
    const rc_world *w = sc->world;
    EXPECT(!body_mismatch, "%s %s: a reported body is not the shape's body", name, in);
    EXPECT(count == (int32_t)arrlen(got), "%s %s: returned %d, reported %d", name, in, (int)count, (int)arrlen(got));
    for (ptrdiff_t i = 0; i < arrlen(got); ++i) {
        EXPECT(rc_shape_is_valid(w, got[i]) && ws_query_sees(rc_shape_filter(w, got[i]), f),
               "%s %s: reported {%u,%u}, invalid or hidden by the filter", name, in, got[i].index, got[i].generation);
        for (ptrdiff_t k = 0; k < i; ++k) {
            EXPECT(!rc_shape_id_equals(got[i], got[k]), "%s %s: {%u,%u} reported twice", name, in, got[i].index,
                   got[i].generation);
        }
    }
    for (ptrdiff_t i = 0; i < arrlen(sc->shapes); ++i) {
        rc_shape_id s = sc->shapes[i];
        bool seen = ws_query_sees(rc_shape_filter(w, s), f);
        int inside = seen ? classify(w, s, query) : 0;
        bool reported = contains_shape(got, s);
        if (inside < 0) {
            (*skipped)++;
            continue;
        }
        EXPECT(reported == (inside == 1), "%s %s: shape {%u,%u} (%s, sensor %d) %s, brute force says %s", name, in,
               s.index, s.generation, rc_shape_get_type(w, s) == RC_SHAPE_TYPE_CIRCLE ? "circle" : "polygon",
               rc_shape_is_sensor(w, s), reported ? "reported" : "not reported", inside ? "inside" : "outside");
    }
}

static int classify_box(const rc_world *w, rc_shape_id s, const void *query) {
    return rc_aabb_overlaps(rc_shape_aabb(w, s), *(const rc_aabb *)query) ? 1 : 0;
}

/* Signed distance from p to the shape in double precision, on the exact float world shape. */
static double distance_d(const rc_world *w, rc_shape_id s, rc_vec2 p) {
    double px = p.x, py = p.y;
    if (rc_shape_get_type(w, s) == RC_SHAPE_TYPE_CIRCLE) {
        rc_circle c;
        rc_shape_world_circle(w, s, &c);
        return hypot(px - c.center.x, py - c.center.y) - c.radius;
    }
    rc_polygon poly;
    rc_shape_world_polygon(w, s, &poly);
    bool inside = true;
    double best = INFINITY;
    for (int i = 0; i < poly.count; ++i) {
        rc_vec2 a = poly.vertices[i], b = poly.vertices[(i + 1) % poly.count];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
        double wx = px - a.x, wy = py - a.y;
        if (ex * wy - ey * wx < 0.0) {
            inside = false; /* counter-clockwise: outside is to the right */
        }
        double t = (ex * wx + ey * wy) / (ex * ex + ey * ey);
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        double d = hypot(wx - t * ex, wy - t * ey);
        best = d < best ? d : best;
    }
    return inside ? -best : best;
}

static double shape_scale(const rc_world *w, rc_shape_id s, rc_vec2 p) {
    rc_aabb b = rc_shape_aabb(w, s);
    double m = fmax(fmax(fabs(b.lower.x), fabs(b.upper.x)), fmax(fabs(b.lower.y), fabs(b.upper.y)));
    return fmax(m, fmax(fabs(p.x), fabs(p.y)));
}

static int classify_point(const rc_world *w, rc_shape_id s, const void *query) {
    rc_vec2 p = *(const rc_vec2 *)query;
    double d = distance_d(w, s, p);
    if (fabs(d) <= 1e-5 * shape_scale(w, s, p)) {
        return -1;
    }
    return d <= 0.0 ? 1 : 0;
}

typedef struct disk {
    rc_vec2 c;
    float r;
} disk;

static int classify_disk(const rc_world *w, rc_shape_id s, const void *query) {
    const disk *k = query;
    double d = distance_d(w, s, k->c);
    if (fabs(d - k->r) <= 1e-5 * (shape_scale(w, s, k->c) + k->r)) {
        return -1;
    }
    return d <= k->r ? 1 : 0;
}

static void run_overlaps(qscene *sc, int count, const char *phase) {
    ws_rng *r = &sc->rng;
    long skipped = 0, nonempty = 0;
    float e = sc->extent * 1.2f;
    count = rc_test_random_cases(count);
    for (int i = 0; i < count; ++i) {
        rc_query_filter f = random_query_filter(r);
        char in[240];
        /* a box */
        {
            rc_vec2 c = rc_v2(ws_range(r, -e, e), ws_range(r, -e, e));
            float hw = ws_log_range(r, 0.01, 300.0), hh = ws_log_range(r, 0.01, 300.0);
            rc_aabb box = {{c.x - hw, c.y - hh}, {c.x + hw, c.y + hh}};
            if (ws_chance(r, 0.1) && arrlen(sc->shapes) > 0) {
                /* exactly touching a shape's box from the side */
                rc_aabb sb = rc_shape_aabb(sc->world, sc->shapes[ws_int(r, 0, (int)arrlen(sc->shapes) - 1)]);
                box.lower.x = sb.upper.x;
                box.upper.x = sb.upper.x + hw;
                box.lower.y = sb.lower.y;
                box.upper.y = sb.lower.y + hh;
            }
            overlap_ctx oc = {sc->world, NULL, false, 0};
            int32_t n = rc_world_overlap_aabb(sc->world, box, f, overlap_fn, &oc);
            snprintf(in, sizeof in, "box (%a, %a)-(%a, %a) filter %x/%x", (double)box.lower.x, (double)box.lower.y,
                     (double)box.upper.x, (double)box.upper.y, f.category_bits, f.mask_bits);
            compare_overlap_set(sc, "rc_world_overlap_aabb", in, oc.got, n, oc.body_mismatch, f, classify_box, &box,
                                &skipped);
            nonempty += n > 0;
            EXPECT(rc_world_overlap_aabb(sc->world, box, f, NULL, NULL) == n, "%s: counting with fn NULL differs", in);
            arrfree(oc.got);
        }
        /* a point */
        {
            rc_vec2 p = rc_v2(ws_range(r, -e, e), ws_range(r, -e, e));
            if (ws_chance(r, 0.3) && arrlen(sc->shapes) > 0) {
                p = shape_inner_point(sc->world, sc->shapes[ws_int(r, 0, (int)arrlen(sc->shapes) - 1)]);
            }
            overlap_ctx oc = {sc->world, NULL, false, 0};
            int32_t n = rc_world_overlap_point(sc->world, p, f, overlap_fn, &oc);
            snprintf(in, sizeof in, "point (%a, %a) filter %x/%x", (double)p.x, (double)p.y, f.category_bits,
                     f.mask_bits);
            compare_overlap_set(sc, "rc_world_overlap_point", in, oc.got, n, oc.body_mismatch, f, classify_point, &p,
                                &skipped);
            nonempty += n > 0;
            arrfree(oc.got);
        }
        /* a disk */
        {
            disk k = {rc_v2(ws_range(r, -e, e), ws_range(r, -e, e)), ws_log_range(r, 0.01, 100.0)};
            if (ws_chance(r, 0.05)) {
                k.r = 0.0f;
            }
            overlap_ctx oc = {sc->world, NULL, false, 0};
            int32_t n = rc_world_overlap_circle(sc->world, k.c, k.r, f, overlap_fn, &oc);
            snprintf(in, sizeof in, "disk (%a, %a) r %a filter %x/%x", (double)k.c.x, (double)k.c.y, (double)k.r,
                     f.category_bits, f.mask_bits);
            compare_overlap_set(sc, "rc_world_overlap_circle", in, oc.got, n, oc.body_mismatch, f, classify_disk, &k,
                                &skipped);
            nonempty += n > 0;
            arrfree(oc.got);
        }
    }
    fprintf(stderr, "[queries] %s overlaps: %d of each kind, %ld non-empty, %ld near-boundary cases skipped\n", phase,
            count, nonempty, skipped);
    EXPECT(nonempty > count / 2, "the generator is not exercising the overlaps");
}

/* The vertices of every polygon lie on its boundary: each is inside its own polygon. */
static long check_polygon_vertices(qscene *sc) {
    long vertices = 0;
    rc_query_filter all = rc_default_query_filter();
    for (ptrdiff_t i = 0; i < arrlen(sc->shapes); ++i) {
        rc_shape_id s = sc->shapes[i];
        if (rc_shape_get_type(sc->world, s) != RC_SHAPE_TYPE_POLYGON ||
            !ws_query_sees(rc_shape_filter(sc->world, s), all)) {
            continue;
        }
        rc_polygon poly;
        rc_shape_world_polygon(sc->world, s, &poly);
        for (int v = 0; v < poly.count; ++v) {
            overlap_ctx oc = {sc->world, NULL, false, 0};
            rc_world_overlap_point(sc->world, poly.vertices[v], all, overlap_fn, &oc);
            EXPECT(contains_shape(oc.got, s),
                   "rc_world_overlap_point: vertex %d (%a, %a) of polygon {%u,%u} is on its boundary but not reported",
                   v, (double)poly.vertices[v].x, (double)poly.vertices[v].y, s.index, s.generation);
            arrfree(oc.got);
            vertices++;
        }
    }
    return vertices;
}

/* ---- the suites ------------------------------------------------------------------------------ */

enum { SCENE_BODIES = 260, ROUNDS = 4 };
static const uint64_t seeds[] = {0x5eed0001u, 0xC0FFEE42u, 0x1234ABCDu};

/* Round 0 as built; 1 after teleports; 2 after steps with velocities; 3 after churn. */
static void perturb(qscene *sc, int round) {
    switch (round) {
    case 1:
        scene_teleport(sc);
        break;
    case 2:
        scene_steps(sc, 10);
        break;
    case 3:
        scene_churn(sc);
        scene_steps(sc, 2);
        break;
    default:
        break;
    }
}

static const char *round_name(int round) {
    static const char *names[] = {"built", "teleported", "stepped", "churned"};
    return names[round];
}

static float cell_size_for(int seed_index) { return seed_index == 1 ? 0.5f : (seed_index == 2 ? 4.0f : 0.0f); }

START_TEST(cast_ray_matches_brute_force) {
    qscene sc;
    scene_init(&sc, seeds[_i], SCENE_BODIES, 400.0f, cell_size_for(_i));
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        run_closest(&sc, 450, false, false, round_name(round));
    }
    scene_free(&sc);
}
END_TEST

START_TEST(cast_ray_filtered_matches_brute_force) {
    qscene sc;
    scene_init(&sc, seeds[_i] ^ 0x11u, SCENE_BODIES, 400.0f, cell_size_for(_i));
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        run_closest(&sc, 450, false, true, round_name(round));
    }
    scene_free(&sc);
}
END_TEST

START_TEST(cast_circle_matches_brute_force) {
    qscene sc;
    scene_init(&sc, seeds[_i] ^ 0x22u, SCENE_BODIES, 400.0f, cell_size_for(_i));
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        run_closest(&sc, 220, true, false, round_name(round));
    }
    scene_free(&sc);
}
END_TEST

START_TEST(cast_circle_filtered_matches_brute_force) {
    qscene sc;
    scene_init(&sc, seeds[_i] ^ 0x33u, SCENE_BODIES, 400.0f, cell_size_for(_i));
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        run_closest(&sc, 220, true, true, round_name(round));
    }
    scene_free(&sc);
}
END_TEST

START_TEST(cast_circle_matches_search_along_the_path) {
    qscene sc;
    scene_init(&sc, seeds[_i] ^ 0x44u, 150, 150.0f, cell_size_for(_i));
    long checked = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        for (int i = 0; i < 40; ++i) {
            query_ray q = random_ray(&sc, true);
            compare_circle_by_search(&sc, q, &checked);
        }
    }
    fprintf(stderr, "[queries] cast_circle against sampling + bisection: %ld casts\n", checked);
    scene_free(&sc);
}
END_TEST

START_TEST(cast_all_matches_brute_force) {
    qscene sc;
    scene_init(&sc, seeds[_i] ^ 0x55u, SCENE_BODIES, 400.0f, cell_size_for(_i));
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        run_all(&sc, 300, false);
        run_all(&sc, 180, true);
    }
    scene_free(&sc);
}
END_TEST

START_TEST(overlaps_match_brute_force) {
    qscene sc;
    scene_init(&sc, seeds[_i] ^ 0x66u, SCENE_BODIES, 400.0f, cell_size_for(_i));
    for (int round = 0; round < ROUNDS; ++round) {
        perturb(&sc, round);
        run_overlaps(&sc, 300, round_name(round));
    }
    scene_free(&sc);
}
END_TEST

START_TEST(worlds_side_by_side_do_not_interfere) {
    /* two worlds built from the same seed, one with an automatic and one with a fixed cell size,
       and a third different one; perturbing one leaves the others' answers alone */
    qscene a, b, c;
    scene_init(&a, 77, 150, 200.0f, 0.0f);
    scene_init(&b, 77, 150, 200.0f, 2.0f);
    scene_init(&c, 78, 150, 200.0f, 0.0f);
    ck_assert_int_eq((int)arrlen(a.shapes), (int)arrlen(b.shapes));
    /* the same queries give the same answers in a and b (the filtered casts: the unfiltered ones
       are checked against their contract elsewhere) */
    ws_rng qr = {999};
    for (int i = 0; i < 500; ++i) {
        rc_vec2 o = rc_v2(ws_range(&qr, -240, 240), ws_range(&qr, -240, 240));
        rc_vec2 d = rc_v2(ws_range(&qr, -300, 300), ws_range(&qr, -300, 300));
        rc_ray_hit ha, hb;
        bool ka = rc_world_cast_ray(a.world, o, d, &ha), kb = rc_world_cast_ray(b.world, o, d, &hb);
        EXPECT(ka == kb && (!ka || hits_equal(&ha, &hb)), "twin worlds disagree on ray %d", i);
    }
    for (int round = 1; round < ROUNDS; ++round) {
        perturb(&a, round);
        run_closest(&b, 150, false, true, "twin untouched");
        run_closest(&c, 150, true, true, "third world");
        run_closest(&a, 150, false, true, "twin perturbed");
        run_overlaps(&b, 60, "twin untouched");
        /* an error in one world is not seen in another */
        rc_world_clear_error(b.world);
        rc_world_cast_ray(a.world, rc_v2(NAN, 0), rc_v2(1, 0), NULL);
        EXPECT(strlen(rc_world_last_error(a.world)) > 0 && rc_world_last_error(b.world)[0] == '\0',
               "an error in one world shows in another");
    }
    scene_free(&a);
    scene_free(&b);
    scene_free(&c);
}
END_TEST

/* ---- hand-made cases ---------------------------------------------------------------------------- */

static rc_world *plain_world(void) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

static rc_body_id static_body_at(rc_world *w, float x, float y) {
    rc_body_def bd = rc_body_default_def();
    bd.position = rc_v2(x, y);
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    return b;
}

START_TEST(unfiltered_cast_sees_every_non_sensor_shape) {
    /* rc_world_cast_ray / rc_world_cast_circle promise the closest hit "over all shapes"; a
       shape whose mask leaves out category 1 is still a shape */
    rc_world *w = plain_world();
    rc_body_id b = static_body_at(w, 0.0f, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.filter.category_bits = 2u;
    sd.filter.mask_bits = 2u;
    rc_shape_id s = rc_shape_create_box(w, b, &sd, 1.0f, 1.0f);
    ck_assert(!rc_shape_id_is_null(s));
    rc_ray_hit h;
    bool hit = rc_world_cast_ray(w, rc_v2(-5.0f, 0.0f), rc_v2(10.0f, 0.0f), &h);
    bool own = rc_shape_cast_ray(w, s, rc_v2(-5.0f, 0.0f), rc_v2(10.0f, 0.0f), NULL);
    ck_assert(own);
    ck_assert_msg(hit, "rc_world_cast_ray misses a box of category 2, mask 2 that rc_shape_cast_ray hits");
    ck_assert_msg(rc_world_cast_circle(w, rc_v2(-5.0f, 0.0f), 0.5f, rc_v2(10.0f, 0.0f), &h),
                  "rc_world_cast_circle misses a box of category 2, mask 2");
    rc_world_destroy(w);
}
END_TEST

START_TEST(sensors_are_never_hit_by_casts) {
    rc_world *w = plain_world();
    rc_body_id b = static_body_at(w, 0.0f, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = true;
    rc_shape_id sensor = rc_shape_create_box(w, b, &sd, 1.0f, 1.0f);
    ck_assert(!rc_shape_id_is_null(sensor));
    rc_query_filter all = rc_default_query_filter();
    ck_assert(!rc_world_cast_ray(w, rc_v2(-5, 0), rc_v2(10, 0), NULL));
    ck_assert(!rc_world_cast_ray_filtered(w, rc_v2(-5, 0), rc_v2(10, 0), all, NULL));
    ck_assert(!rc_world_cast_circle(w, rc_v2(-5, 0), 0.5f, rc_v2(10, 0), NULL));
    ck_assert(!rc_world_cast_circle_filtered(w, rc_v2(-5, 0), 0.5f, rc_v2(10, 0), all, NULL));
    ck_assert(!rc_world_cast_ray(w, rc_v2(0, 0), rc_v2(10, 0), NULL)); /* from inside */
    overlap_ctx oc = {w, NULL, false, 0};
    /* overlaps do see sensors */
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(0.5f, 0.5f), all, overlap_fn, &oc), 1);
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(3.0f, 0.0f), 2.0f, all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{1, 1}, {2, 2}}, all, NULL, NULL), 1);
    arrfree(oc.got);
    /* a solid shape behind the sensor is hit */
    rc_body_id b2 = static_body_at(w, 3.0f, 0.0f);
    rc_shape_def zeroed = {0}; /* scale 0 is refused */
    rc_shape_id solid = rc_shape_create_circle(w, b2, &zeroed, 0.5f);
    ck_assert(rc_shape_id_is_null(solid));
    rc_shape_def d2 = rc_shape_default_def();
    solid = rc_shape_create_circle(w, b2, &d2, 0.5f);
    rc_ray_hit h;
    ck_assert(rc_world_cast_ray(w, rc_v2(-5, 0), rc_v2(10, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, solid));
    ck_assert_float_eq(h.t, 0.75f);
    rc_world_destroy(w);
}
END_TEST

START_TEST(ties_go_to_the_lower_shape_id) {
    rc_world *w = plain_world();
    /* three identical boxes on three bodies, created in order: the same entry t for all */
    rc_shape_id ids[3];
    for (int i = 0; i < 3; ++i) {
        rc_body_id b = static_body_at(w, 0.0f, 0.0f);
        rc_shape_def sd = rc_shape_default_def();
        ids[i] = rc_shape_create_box(w, b, &sd, 1.0f, 1.0f);
    }
    /* destroy the first and make a new one: it reuses the slot, so the lowest id is index 1 */
    rc_ray_hit h;
    ck_assert(rc_world_cast_ray(w, rc_v2(-4, 0.25f), rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, ids[0]));
    ck_assert_float_eq(h.t, 0.375f);
    ck_assert(rc_world_cast_ray(w, rc_v2(4, -0.25f), rc_v2(-8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, ids[0]));
    /* started inside all three */
    ck_assert(rc_world_cast_ray(w, rc_v2(0.1f, 0.2f), rc_v2(8, 3), &h));
    ck_assert(rc_shape_id_equals(h.shape, ids[0]) && h.started_inside && h.t == 0.0f);
    ck_assert(rc_world_cast_circle(w, rc_v2(-4, 0.25f), 1.0f, rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, ids[0]));
    ck_assert_float_eq(h.t, 0.25f);
    rc_shape_destroy(w, ids[0]);
    ck_assert(rc_world_cast_ray(w, rc_v2(-4, 0.25f), rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, ids[1]));
    rc_world_destroy(w);
}
END_TEST

START_TEST(overlap_boundaries_count) {
    rc_world *w = plain_world();
    rc_body_id b = static_body_at(w, 0.0f, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(1.0f, 0.5f);
    rc_shape_id box = rc_shape_create_box(w, b, &sd, 1.0f, 0.5f); /* [0,2] x [0,1] */
    rc_body_id b2 = static_body_at(w, 10.0f, 0.0f);
    rc_shape_def cd = rc_shape_default_def();
    rc_shape_id circle = rc_shape_create_circle(w, b2, &cd, 1.0f); /* centre (10,0), radius 1 */
    ck_assert(!rc_shape_id_is_null(box) && !rc_shape_id_is_null(circle));
    rc_query_filter all = rc_default_query_filter();
    /* points on the boundary */
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(2.0f, 1.0f), all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(0.0f, 0.0f), all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(2.0f, 0.5f), all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(1.0f, 0.0f), all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(11.0f, 0.0f), all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(10.0f, -1.0f), all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(2.0f + 1e-6f, 0.5f), all, NULL, NULL), 0);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(11.0f + 1e-6f, 0.0f), all, NULL, NULL), 0);
    /* disks touching */
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(3.0f, 0.5f), 1.0f, all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(3.0f, 2.0f), 1.0f, all, NULL, NULL), 0); /* corner 1.414 away */
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(13.0f, 0.0f), 2.0f, all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(13.0f, 0.0f), 1.999f, all, NULL, NULL), 0);
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(1.0f, 0.5f), 0.0f, all, NULL, NULL), 1); /* radius 0, inside */
    /* boxes touching */
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{2.0f, 1.0f}, {3.0f, 3.0f}}, all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{11.0f, -5.0f}, {12.0f, 5.0f}}, all, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{5.0f, 5.0f}, {5.0f, 5.0f}}, all, NULL, NULL), 0);
    /* the box query is coarse: the circle's box corner counts */
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{10.9f, 0.9f}, {12.0f, 2.0f}}, all, NULL, NULL), 1);
    /* stopping after the first */
    overlap_ctx oc = {w, NULL, false, 1};
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{-100, -100}, {100, 100}}, all, overlap_fn, &oc), 1);
    ck_assert_int_eq((int)arrlen(oc.got), 1);
    arrfree(oc.got);
    /* a ray of zero length hits nothing, even from inside */
    ck_assert(!rc_world_cast_ray(w, rc_v2(1.0f, 0.5f), rc_v2(0.0f, 0.0f), NULL));
    rc_world_destroy(w);
}
END_TEST

START_TEST(hits_report_shape_body_point_normal) {
    rc_world *w = plain_world();
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(5.0f, 0.0f);
    bd.angle = 0.5f * RC_PI; /* rotated a quarter turn */
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0.0f, 2.0f);                              /* lands at (5 - 2, 0) = (3, 0) */
    sd.scale = rc_v2(-2.0f, 1.0f);                              /* mirrored */
    rc_shape_id s = rc_shape_create_box(w, b, &sd, 0.5f, 0.5f); /* 2 x 1 before the quarter turn: 1 wide in x */
    ck_assert(!rc_shape_id_is_null(s));
    rc_ray_hit h;
    ck_assert(rc_world_cast_ray(w, rc_v2(0.0f, 0.0f), rc_v2(10.0f, 0.0f), &h));
    ck_assert(rc_shape_id_equals(h.shape, s) && rc_body_id_equals(h.body, b));
    ck_assert_msg(fabsf(h.t - 0.25f) < 1e-6f, "t %.9g", (double)h.t);
    ck_assert_msg(fabsf(h.point.x - 2.5f) < 1e-5f && fabsf(h.point.y) < 1e-5f, "point (%g, %g)", (double)h.point.x,
                  (double)h.point.y);
    ck_assert_msg(fabsf(h.normal.x + 1.0f) < 1e-6f && fabsf(h.normal.y) < 1e-6f, "normal (%g, %g)", (double)h.normal.x,
                  (double)h.normal.y);
    ck_assert(!h.started_inside);
    ck_assert(rc_world_cast_circle(w, rc_v2(0.0f, 0.0f), 0.5f, rc_v2(10.0f, 0.0f), &h));
    ck_assert_msg(fabsf(h.t - 0.2f) < 1e-6f, "t %.9g", (double)h.t);
    ck_assert_msg(fabsf(h.point.x - 2.5f) < 1e-5f, "point (%g, %g)", (double)h.point.x, (double)h.point.y);
    rc_world_destroy(w);
}
END_TEST

START_TEST(polygon_vertices_are_inside_their_polygon) {
    /* rc_world_overlap_point: "shapes containing the point (boundary included)". A vertex of the
       placed polygon, as rc_shape_world_polygon returns it, is a point of the boundary. */
    rc_world *w = plain_world();
    rc_body_id b = static_body_at(w, 0.0f, 0.0f);
    rc_polygon tri = rc_make_regular_polygon(3, 1.0f, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id s = rc_shape_create_polygon(w, b, &sd, tri.vertices, tri.count);
    ck_assert(!rc_shape_id_is_null(s));
    rc_polygon placed;
    ck_assert(rc_shape_world_polygon(w, s, &placed));
    rc_query_filter all = rc_default_query_filter();
    for (int v = 0; v < placed.count; ++v) {
        ck_assert_msg(rc_world_overlap_point(w, placed.vertices[v], all, NULL, NULL) == 1,
                      "vertex %d (%a, %a) of the triangle rc_make_regular_polygon(3, 1, 0) on a body at the origin is "
                      "not reported by rc_world_overlap_point",
                      v, (double)placed.vertices[v].x, (double)placed.vertices[v].y);
    }
    rc_world_destroy(w);
    /* and every vertex of every polygon of a random scene */
    qscene sc;
    scene_init(&sc, seeds[0] ^ 0x77u, SCENE_BODIES, 400.0f, 0.0f);
    long n = check_polygon_vertices(&sc);
    fprintf(stderr, "[queries] %ld polygon vertices tested\n", n);
    scene_free(&sc);
}
END_TEST

static Suite *queries_suite(void) {
    Suite *s = suite_create("world_queries");
    TCase *t = tcase_create("random scenes");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, cast_ray_matches_brute_force, 0, 2);
    tcase_add_loop_test(t, cast_ray_filtered_matches_brute_force, 0, 2);
    tcase_add_loop_test(t, cast_circle_matches_brute_force, 0, 2);
    tcase_add_loop_test(t, cast_circle_filtered_matches_brute_force, 0, 2);
    tcase_add_loop_test(t, cast_circle_matches_search_along_the_path, 0, 2);
    tcase_add_loop_test(t, cast_all_matches_brute_force, 0, 2);
    tcase_add_loop_test(t, overlaps_match_brute_force, 0, 3);
    tcase_add_test(t, worlds_side_by_side_do_not_interfere);
    suite_add_tcase(s, t);
    TCase *h = tcase_create("hand-made");
    tcase_add_test(h, unfiltered_cast_sees_every_non_sensor_shape);
    tcase_add_test(h, sensors_are_never_hit_by_casts);
    tcase_add_test(h, ties_go_to_the_lower_shape_id);
    tcase_add_test(h, overlap_boundaries_count);
    tcase_add_test(h, polygon_vertices_are_inside_their_polygon);
    tcase_add_test(h, hits_report_shape_body_point_normal);
    suite_add_tcase(s, h);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(queries_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
