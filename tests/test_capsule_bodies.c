/* Capsules in the world: rc_shape_create_capsule, rc_shape_world_capsule, their mass on a body,
 * the queries that see them, the step (resting, rolling over onto a side, sliding down a
 * slope, struck by a grenade and a bullet) and the debug draw.
 *
 * Placements are worked out in double from the base transform and the body's transform;
 * queries are compared with a loop over every capsule through the pure functions of
 * geometry.h on rc_shape_world_capsule (the world must give the same answer bit for bit);
 * refused creations must return the null id, name the function in rc_world_last_error, call
 * the error callback once and change nothing (a snapshot of everything observable). */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/reference.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static rc_shape_id make_capsule(rc_world *w, rc_body_id b, const rc_shape_def *sd, rc_vec2 c1, rc_vec2 c2, float r) {
    rc_shape_id s = rc_shape_create_capsule(w, b, sd, c1, c2, r);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

/* ---- placement ------------------------------------------------------------------------------------ */

/* A local point under a base transform and a body transform, in double (rotations as the
 * library makes them, so that only the arithmetic differs). */
static ref_v2 place(rc_vec2 q, rc_vec2 offset, float angle, rc_vec2 scale, rc_vec2 pos, float body_angle) {
    rc_rot r = rc_rot_from_angle(angle), b = rc_rot_from_angle(body_angle);
    double x = (double)scale.x * q.x, y = (double)scale.y * q.y;
    double bx = offset.x + (double)r.c * x - (double)r.s * y, by = offset.y + (double)r.s * x + (double)r.c * y;
    return ref_v(pos.x + (double)b.c * bx - (double)b.s * by, pos.y + (double)b.s * bx + (double)b.c * by);
}

START_TEST(placement_under_base_and_body_transforms) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    const rc_vec2 scales[] = {{1, 1}, {1.5f, 1.5f}, {2, -2}, {-0.5f, -0.5f}, {-3, 3}};
    const rc_vec2 c1 = {-1.0f, 0.5f}, c2 = {2.0f, -0.25f};
    const float radius = 0.75f, density = 2.5f;
    for (int k = 0; k < 5; ++k) {
        rc_vec2 pos = rc_v2(3.0f - (float)k, -1.0f + 0.5f * (float)k);
        float body_angle = 0.7f * (float)k - 1.0f;
        rc_body_id b = ws_body(w, RC_DYNAMIC, pos, body_angle);
        rc_shape_def sd = rc_shape_default_def();
        sd.offset = rc_v2(0.5f, 0.25f);
        sd.angle = -0.3f;
        sd.scale = scales[k];
        sd.density = density;
        rc_shape_id s = make_capsule(w, b, &sd, c1, c2, radius);
        ck_assert_int_eq(rc_shape_get_type(w, s), RC_SHAPE_TYPE_CAPSULE);
        rc_capsule got;
        ck_assert(rc_shape_world_capsule(w, s, &got));
        ref_v2 w1 = place(c1, sd.offset, sd.angle, sd.scale, pos, body_angle);
        ref_v2 w2 = place(c2, sd.offset, sd.angle, sd.scale, pos, body_angle);
        ck_assert_msg(ref_dist(ref_from(got.center1), w1) < 1e-5 && ref_dist(ref_from(got.center2), w2) < 1e-5,
                      "scale %d: centres (%g, %g) (%g, %g), expected (%g, %g) (%g, %g)", k, (double)got.center1.x,
                      (double)got.center1.y, (double)got.center2.x, (double)got.center2.y, w1.x, w1.y, w2.x, w2.y);
        ck_assert_float_eq(got.radius, radius * fabsf(sd.scale.x));
        /* the box is the placed capsule's, exactly */
        rc_aabb box = rc_shape_aabb(w, s), want = rc_capsule_aabb(got);
        ck_assert(memcmp(&box, &want, sizeof box) == 0);
        /* mass: the capsule's, at its middle; inertia about that middle */
        double r = got.radius, L = ref_dist(w1, w2);
        double mass = density * (3.14159265358979323846 * r * r + 2.0 * r * L);
        rc_mass_data md = rc_compute_capsule_mass(got, density);
        ck_assert_msg(fabs(rc_body_mass(w, b) - mass) <= 1e-5 * mass, "mass %g, expected %g",
                      (double)rc_body_mass(w, b), mass);
        ck_assert(fabs(rc_body_rotational_inertia(w, b) - md.rotational_inertia) <= 1e-5 * md.rotational_inertia);
        ck_assert(ref_dist(ref_from(rc_body_world_center(w, b)), ref_scale(0.5, ref_add(w1, w2))) < 1e-5);
        /* points: the middle and the ends inside, just beyond a flat side outside */
        ref_v2 axis = ref_unit(ref_sub(w2, w1)), side = ref_v(-axis.y, axis.x);
        ck_assert(rc_shape_test_point(w, s, ref_to_float(ref_scale(0.5, ref_add(w1, w2)))));
        ck_assert(rc_shape_test_point(w, s, ref_to_float(ref_mad(w2, 0.99 * r, axis))));
        ck_assert(rc_shape_test_point(w, s, ref_to_float(ref_mad(w1, 0.99 * r, side))));
        ck_assert(!rc_shape_test_point(w, s, ref_to_float(ref_mad(w1, 1.01 * r, side))));
        ck_assert(!rc_shape_test_point(w, s, ref_to_float(ref_mad(w1, -1.01 * r, axis))));
        /* a ray through the middle, across: the shape's answer is the pure function's on the
           placed capsule, with the ids set */
        rc_vec2 o = ref_to_float(ref_mad(ref_scale(0.5, ref_add(w1, w2)), 3.0 * r, side));
        rc_vec2 d = ref_to_float(ref_scale(-6.0 * r, side));
        rc_ray_hit hs, hp;
        ck_assert(rc_shape_cast_ray(w, s, o, d, &hs));
        ck_assert(rc_ray_cast_capsule(got, o, d, &hp));
        ck_assert(hs.t == hp.t && hs.normal.x == hp.normal.x && hs.normal.y == hp.normal.y);
        ck_assert(rc_shape_id_equals(hs.shape, s) && rc_body_id_equals(hs.body, b));
        ck_assert_near(hs.t, 1.0 / 3.0, 1e-5);
        /* moving the body moves the capsule with it */
        ck_assert(rc_body_set_transform(w, b, rc_v2(-7, 4), 0.25f));
        ck_assert(rc_shape_world_capsule(w, s, &got));
        ck_assert(ref_dist(ref_from(got.center1), place(c1, sd.offset, sd.angle, sd.scale, rc_v2(-7, 4), 0.25f)) < 1e-5);
        ck_assert(ref_dist(ref_from(got.center2), place(c2, sd.offset, sd.angle, sd.scale, rc_v2(-7, 4), 0.25f)) < 1e-5);
        /* a new base transform: scale 2, turned a quarter, offset (1, 0) */
        ck_assert(rc_shape_set_base_transform(w, s, rc_v2(1, 0), 0.5f * RC_PI, rc_v2(2, 2)));
        ck_assert(rc_shape_world_capsule(w, s, &got));
        ck_assert(ref_dist(ref_from(got.center1), place(c1, rc_v2(1, 0), 0.5f * RC_PI, rc_v2(2, 2), rc_v2(-7, 4), 0.25f)) <
                  1e-5);
        ck_assert_float_eq(got.radius, 2.0f * radius);
        box = rc_shape_aabb(w, s);
        want = rc_capsule_aabb(got);
        ck_assert(memcmp(&box, &want, sizeof box) == 0);
        ck_assert(fabs(rc_body_mass(w, b) - rc_compute_capsule_mass(got, density).mass) <= 1e-5 * rc_body_mass(w, b));
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(mass_of_a_capsule_and_a_circle) {
    /* a capsule (0,0)..(2,0) r 0.5 and a circle r 0.5 at (5, 0), density 1: the centre of mass by
       the moments, the inertia by the parallel axis theorem */
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    make_capsule(w, b, &sd, rc_v2(0, 0), rc_v2(2, 0), 0.5f);
    sd.offset = rc_v2(5, 0);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, 0.5f)));
    const double pi = 3.14159265358979323846;
    double mc = pi * 0.25 + 2.0, md = pi * 0.25, m = mc + md;
    double cx = (mc * 1.0 + md * 5.0) / m;
    double ic = 4.0 * 0.5 / 3.0 + 4.0 * 0.125 + pi * 0.0625 / 2.0 + pi * 0.25; /* stadium h = 1, r = 0.5 */
    double id = 0.5 * md * 0.25;
    double inertia = ic + mc * (cx - 1.0) * (cx - 1.0) + id + md * (5.0 - cx) * (5.0 - cx);
    ck_assert(fabs(rc_body_mass(w, b) - m) <= 1e-6 * m);
    ck_assert_vec_near(rc_body_world_center(w, b), cx, 0.0, 1e-5);
    ck_assert_msg(fabs(rc_body_rotational_inertia(w, b) - inertia) <= 1e-5 * inertia, "inertia %.9g, expected %.9g",
                  (double)rc_body_rotational_inertia(w, b), inertia);
    rc_world_destroy(w);
}
END_TEST

/* ---- refused creations ------------------------------------------------------------------------------ */

typedef struct fixture {
    rc_world *w, *other;
    ws_errors errs;
    rc_body_id bodies[8];
    rc_shape_id shapes[8];
    int nb, ns;
    rc_body_id stat, dyn, bullet, stale, foreign;
    rc_shape_id circle, capsule;
} fixture;

static void fx_init(fixture *fx) {
    memset(fx, 0, sizeof *fx);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = ws_error_fn;
    wd.error_user = &fx->errs;
    fx->w = rc_world_create(&wd);
    fx->other = rc_world_create(&wd);
    ck_assert(fx->w != NULL && fx->other != NULL);
    rc_shape_def sd = rc_shape_default_def();
    fx->stat = fx->bodies[fx->nb++] = ws_body(fx->w, RC_STATIC, rc_v2(0, -1), 0.0f);
    fx->shapes[fx->ns++] = rc_shape_create_box(fx->w, fx->stat, &sd, 10.0f, 1.0f);
    fx->dyn = fx->bodies[fx->nb++] = ws_body(fx->w, RC_DYNAMIC, rc_v2(0, 1), 0.0f);
    fx->capsule = fx->shapes[fx->ns++] = make_capsule(fx->w, fx->dyn, &sd, rc_v2(-1, 0), rc_v2(1, 0), 0.5f);
    fx->bullet = fx->bodies[fx->nb++] = ws_point_bullet(fx->w, rc_v2(0, 20), rc_v2(1, 0), 8);
    fx->circle = fx->shapes[fx->ns++] = rc_shape_create_circle(fx->w, fx->bullet, &sd, 0.25f);
    fx->stale = ws_body(fx->w, RC_DYNAMIC, rc_v2(9, 9), 0.0f);
    rc_body_destroy(fx->w, fx->stale);
    fx->bodies[fx->nb++] = fx->stale;
    fx->foreign = ws_body(fx->other, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    for (int i = 0; i < 3; ++i) {
        ck_assert(rc_world_step(fx->w, 1.0f / 60.0f));
    }
    ck_assert_int_eq(fx->errs.calls, 0);
}

/* The call must be refused: the null id, a message naming the function, one callback, and the
 * world as it was. */
static void refuse(fixture *fx, rc_body_id body, const rc_shape_def *sd, rc_vec2 c1, rc_vec2 c2, float r, int line) {
    ws_snapshot before, after;
    ws_snapshot_take(&before, fx->w, fx->bodies, fx->nb, fx->shapes, fx->ns);
    rc_world_clear_error(fx->w);
    int calls = fx->errs.calls;
    rc_world_counters counters = rc_world_get_counters(fx->w);
    rc_shape_id s = rc_shape_create_capsule(fx->w, body, sd, c1, c2, r);
    const char *msg = rc_world_last_error(fx->w);
    EXPECT(rc_shape_id_is_null(s), "line %d: accepted", line);
    EXPECT(strstr(msg, "rc_shape_create_capsule") != NULL, "line %d: message \"%s\"", line, msg);
    EXPECT(fx->errs.calls == calls + 1 && strcmp(fx->errs.last, msg) == 0, "line %d: %d callbacks", line,
           fx->errs.calls - calls);
    EXPECT(rc_world_get_counters(fx->w).shapes == counters.shapes, "line %d: a shape was added", line);
    ws_snapshot_take(&after, fx->w, fx->bodies, fx->nb, fx->shapes, fx->ns);
    char why[600];
    EXPECT(ws_snapshot_equal(&before, &after, why, sizeof why), "line %d: the world changed: %s", line, why);
    ws_snapshot_free(&before);
    ws_snapshot_free(&after);
}

#define REFUSE(fx, body, sd, c1, c2, r) refuse((fx), (body), (sd), (c1), (c2), (r), __LINE__)

START_TEST(creation_refuses_bad_input) {
    fixture fx;
    fx_init(&fx);
    const rc_shape_def good = rc_shape_default_def();
    const rc_vec2 a = {-1, 0}, b = {1, 0};
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        REFUSE(&fx, fx.dyn, &good, rc_v2(bad[k], 0), b, 0.5f);
        REFUSE(&fx, fx.dyn, &good, rc_v2(0, bad[k]), b, 0.5f);
        REFUSE(&fx, fx.dyn, &good, a, rc_v2(bad[k], 0), 0.5f);
        REFUSE(&fx, fx.dyn, &good, a, rc_v2(0, bad[k]), 0.5f);
        REFUSE(&fx, fx.dyn, &good, a, b, bad[k]);
        rc_shape_def sd = good;
        sd.density = bad[k];
        REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
        sd = good;
        sd.friction = bad[k];
        REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
        sd = good;
        sd.offset.x = bad[k];
        REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
        sd = good;
        sd.angle = bad[k];
        REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
    }
    /* radius not greater than zero */
    REFUSE(&fx, fx.dyn, &good, a, b, 0.0f);
    REFUSE(&fx, fx.dyn, &good, a, b, -0.0f);
    REFUSE(&fx, fx.dyn, &good, a, b, -1.0f);
    REFUSE(&fx, fx.dyn, &good, a, b, -FLT_MIN);
    /* centres that coincide: make a circle */
    REFUSE(&fx, fx.dyn, &good, a, a, 0.5f);
    /* materials and scale */
    rc_shape_def sd = good;
    sd.density = -1.0f;
    REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
    sd = good;
    sd.restitution = -0.5f;
    REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
    sd = good;
    sd.scale = rc_v2(1.0f, 2.0f); /* not uniform */
    REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
    sd.scale = rc_v2(0.0f, 0.0f);
    REFUSE(&fx, fx.dyn, &sd, a, b, 0.5f);
    sd.scale = rc_v2(4.0f, 4.0f); /* the scaled radius is beyond float */
    REFUSE(&fx, fx.dyn, &sd, a, b, 1e38f);
    /* beyond the world's reach, and too heavy for a dynamic body */
    REFUSE(&fx, fx.stat, &good, rc_v2(1.2e18f, 0), rc_v2(1.3e18f, 0), 1.0f);
    sd = good;
    sd.density = 1e20f;
    REFUSE(&fx, fx.dyn, &sd, a, b, 1.0f);
    /* bad bodies: null, stale, of another world, forged; a NULL def */
    REFUSE(&fx, RC_NULL_BODY_ID, &good, a, b, 0.5f);
    REFUSE(&fx, fx.stale, &good, a, b, 0.5f);
    REFUSE(&fx, fx.foreign, &good, a, b, 0.5f);
    rc_body_id forged = fx.dyn;
    forged.generation ^= 0x5a5au;
    REFUSE(&fx, forged, &good, a, b, 0.5f);
    REFUSE(&fx, fx.dyn, NULL, a, b, 0.5f);
    /* a bullet carries no solid shape but one circle (a sensor capsule is fine) */
    REFUSE(&fx, fx.bullet, &good, a, b, 0.5f);
    sd = good;
    sd.is_sensor = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_capsule(fx.w, fx.bullet, &sd, a, b, 0.5f)));
    /* a NULL world: no crash, the null id */
    ck_assert(rc_shape_id_is_null(rc_shape_create_capsule(NULL, fx.dyn, &good, a, b, 0.5f)));
    /* the other world never changed */
    ck_assert_int_eq(rc_world_get_counters(fx.other).shapes, 0);
    rc_world_destroy(fx.w);
    rc_world_destroy(fx.other);
}
END_TEST

START_TEST(world_capsule_refuses_other_shapes) {
    fixture fx;
    fx_init(&fx);
    rc_capsule c = {{7, 7}, {7, 7}, 7};
    rc_world_clear_error(fx.w);
    ck_assert(!rc_shape_world_capsule(fx.w, fx.circle, &c));
    ck_assert(strstr(rc_world_last_error(fx.w), "rc_shape_world_capsule") != NULL);
    ck_assert(!rc_shape_world_capsule(fx.w, fx.capsule, NULL));
    ck_assert(!rc_shape_world_capsule(fx.w, RC_NULL_SHAPE_ID, &c));
    ck_assert(c.center1.x == 7 && c.radius == 7); /* untouched */
    rc_circle circle;
    rc_polygon polygon;
    ck_assert(!rc_shape_world_circle(fx.w, fx.capsule, &circle));
    ck_assert(!rc_shape_world_polygon(fx.w, fx.capsule, &polygon));
    ck_assert(rc_shape_world_capsule(fx.w, fx.capsule, &c));
    ck_assert_float_eq(c.radius, 0.5f);
    rc_world_destroy(fx.w);
    rc_world_destroy(fx.other);
}
END_TEST

/* ---- queries -------------------------------------------------------------------------------------- */

typedef struct found {
    rc_shape_id ids[64];
    int n;
} found;

static bool collect(rc_shape_id shape, rc_body_id body, void *context) {
    (void)body;
    found *f = context;
    if (f->n < 64) {
        f->ids[f->n++] = shape;
    }
    return true;
}

static bool in_found(const found *f, rc_shape_id s) {
    int times = 0;
    for (int i = 0; i < f->n; ++i) {
        times += rc_shape_id_equals(f->ids[i], s);
    }
    ck_assert_int_le(times, 1);
    return times == 1;
}

START_TEST(queries_see_capsules_as_the_pure_functions_do) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    ws_rng rng = {0xcab5u};
    rc_shape_id caps[40];
    for (int i = 0; i < 40; ++i) {
        rc_body_type type = (rc_body_type)ws_int(&rng, 0, 2);
        rc_body_id b = ws_body(w, type, rc_v2(ws_range(&rng, -20, 20), ws_range(&rng, -20, 20)),
                                 ws_range(&rng, -3.2, 3.2));
        rc_shape_def sd = rc_shape_default_def();
        float s = ws_range(&rng, 0.5, 2.0);
        sd.scale = rc_v2(s, ws_chance(&rng, 0.5) ? s : -s);
        sd.angle = ws_range(&rng, -3.0, 3.0);
        rc_vec2 c1 = rc_v2(ws_range(&rng, -2, 2), ws_range(&rng, -2, 2));
        rc_vec2 c2 = rc_v2(c1.x + ws_range(&rng, 0.2, 3), c1.y + ws_range(&rng, -1, 1));
        caps[i] = make_capsule(w, b, &sd, c1, c2, ws_range(&rng, 0.1, 1.5));
    }
    rc_query_filter all = rc_default_query_filter();
    int hits = 0, overlaps = 0;
    for (int q = 0; q < 400; ++q) {
        rc_vec2 o = rc_v2(ws_range(&rng, -25, 25), ws_range(&rng, -25, 25));
        rc_vec2 d = rc_v2(ws_range(&rng, -30, 30), ws_range(&rng, -30, 30));
        float radius = q % 2 ? 0.0f : ws_range(&rng, 0.05, 2.0);
        /* the closest hit by brute force, ties to the lower index (the capsules were made in
           order on fresh slots) */
        int best = -1;
        rc_ray_hit bh;
        memset(&bh, 0, sizeof bh);
        for (int i = 0; i < 40; ++i) {
            rc_capsule c;
            ck_assert(rc_shape_world_capsule(w, caps[i], &c));
            rc_ray_hit h;
            bool hit = radius == 0.0f ? rc_ray_cast_capsule(c, o, d, &h) : rc_circle_cast_capsule(c, o, radius, d, &h);
            if (hit && (best < 0 || h.t < bh.t)) {
                best = i;
                bh = h;
            }
        }
        rc_ray_hit wh;
        bool got = radius == 0.0f ? rc_world_cast_ray(w, o, d, &wh) : rc_world_cast_circle(w, o, radius, d, &wh);
        EXPECT(got == (best >= 0), "query %d: world %d, brute force %d", q, got, best >= 0);
        if (got) {
            ++hits;
            EXPECT(rc_shape_id_equals(wh.shape, caps[best]) && wh.t == bh.t && wh.point.x == bh.point.x &&
                       wh.point.y == bh.point.y && wh.normal.x == bh.normal.x && wh.normal.y == bh.normal.y &&
                       wh.started_inside == bh.started_inside,
                   "query %d: world t %.9g, brute force t %.9g (capsule %d)", q, (double)wh.t, (double)bh.t, best);
            EXPECT(rc_body_id_equals(wh.body, rc_shape_body(w, caps[best])), "query %d: body", q);
        }
        /* overlaps: a point, a disk */
        found fp = {{{0}}, 0}, fc = {{{0}}, 0};
        float r = ws_range(&rng, 0.0, 3.0);
        int np = rc_world_overlap_point(w, o, all, collect, &fp);
        int nc = rc_world_overlap_circle(w, o, r, all, collect, &fc);
        EXPECT(np == fp.n && nc == fc.n, "query %d: counts", q);
        for (int i = 0; i < 40; ++i) {
            rc_capsule c;
            rc_shape_world_capsule(w, caps[i], &c);
            rc_distance_result dr = rc_point_distance_capsule(c, o);
            EXPECT(in_found(&fp, caps[i]) == (dr.distance <= 0.0f), "query %d: point in capsule %d: %d, distance %g",
                   q, i, in_found(&fp, caps[i]), (double)dr.distance);
            EXPECT(in_found(&fc, caps[i]) == (dr.distance <= r), "query %d: disk over capsule %d", q, i);
            EXPECT(rc_shape_test_point(w, caps[i], o) == (dr.distance <= 0.0f), "query %d: test point %d", q, i);
            overlaps += dr.distance <= r;
        }
    }
    ck_assert_msg(hits > 100 && overlaps > 100, "too few hits (%d) or overlaps (%d)", hits, overlaps);
    rc_world_destroy(w);
}
END_TEST

/* ---- the step ------------------------------------------------------------------------------------- */

/* Step until the body sleeps (at most max steps); the count taken. */
static int step_until_asleep(rc_world *w, rc_body_id b, int max) {
    for (int n = 1; n <= max; ++n) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        if (!rc_body_is_awake(w, b)) {
            return n;
        }
    }
    return -1;
}

START_TEST(capsule_lying_on_the_ground_rests_at_its_radius_and_sleeps) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id floor = rc_shape_create_box(w, ground, &sd, 20.0f, 1.0f);
    ck_assert(rc_body_set_transform(w, ground, rc_v2(0, -1), 0.0f)); /* top at y = 0 */
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(2, 1.5f), 0.0f);
    rc_shape_id cap = make_capsule(w, b, &sd, rc_v2(-1, 0), rc_v2(1, 0), 0.5f);
    int n = step_until_asleep(w, b, 600);
    ck_assert_msg(n > 0, "the capsule never fell asleep: at (%g, %g), speed %g", (double)rc_body_position(w, b).x,
                  (double)rc_body_position(w, b).y, (double)rc_length(rc_body_linear_velocity(w, b)));
    /* at rest on its flat side: the axis at y = r (contacts are held at zero overlap), sunk
       only by the soft contact's give under its weight (about 1e-4: a spring of m_n (2 pi 60)^2
       per point against a static body), level, still */
    rc_vec2 p = rc_body_position(w, b);
    ck_assert_msg(p.y < 0.5f && p.y >= 0.5f - 1e-3f, "rests at y = %.9g", (double)p.y);
    ck_assert_msg(fabsf(p.x - 2.0f) < 1e-3f, "slid to x = %.9g", (double)p.x);
    ck_assert_msg(fabsf(rc_body_angle(w, b)) < 1e-3f, "tilted by %g", (double)rc_body_angle(w, b));
    /* the contact: both shapes, a manifold of two points along the flat side */
    rc_shape_id touching[4];
    ck_assert_int_eq(rc_shape_contacts(w, cap, touching, 4), 1);
    ck_assert(rc_shape_id_equals(touching[0], floor));
    /* the step it fell asleep in moved it (or not) and reported it asleep; the ground never */
    const rc_body_move_event *ev = NULL;
    int count = rc_world_body_move_events(w, &ev);
    ck_assert_int_eq(count, 1);
    ck_assert(rc_body_id_equals(ev[0].body, b) && ev[0].fell_asleep);
    rc_transform xf = rc_body_transform(w, b);
    ck_assert(memcmp(&ev[0].transform, &xf, sizeof xf) == 0);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert_int_eq(rc_world_body_move_events(w, &ev), 0);
    ck_assert_ptr_null(ev);
    rc_world_destroy(w);
}
END_TEST

START_TEST(tilted_capsule_rolls_over_onto_its_side) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 line[2] = {{-30, 0}, {30, 0}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, line, 2, false)));
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(0, 2), 0.6f); /* dropped tilted by 0.6 rad */
    make_capsule(w, b, &sd, rc_v2(-1, 0), rc_v2(1, 0), 0.4f);
    ck_assert_msg(step_until_asleep(w, b, 900) > 0, "never slept");
    float a = rc_body_angle(w, b);
    ck_assert_msg(fabs(sin((double)a)) < 2e-3, "at rest tilted by %g", (double)a);
    ck_assert_msg(fabsf(rc_body_position(w, b).y - 0.4f) <= 1.1f * 0.005f, "rests at y = %.9g",
                  (double)rc_body_position(w, b).y);
    rc_world_destroy(w);
}
END_TEST

/* A capsule lying along a slope of angle theta: frictionless it slides at g sin(theta), with
 * friction mu (< tan(theta)) at g (sin(theta) - mu cos(theta)), and with mu > tan(theta) it
 * stays and sleeps. */
static void slide(float theta, float mu, double *moved, double *angle_error, double *height_error, bool *asleep) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0, 0), theta);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = mu;
    sd.offset = rc_v2(0, -1);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 100.0f, 1.0f))); /* surface through the origin */
    sd.offset = rc_v2(0, 0);
    rc_vec2 along = rc_v2(cosf(theta), sinf(theta)), up = rc_v2(-sinf(theta), cosf(theta));
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_scale(0.5f, up), theta);
    make_capsule(w, b, &sd, rc_v2(-1, 0), rc_v2(1, 0), 0.5f);
    *asleep = false;
    for (int n = 0; n < 60; ++n) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        *asleep = *asleep || !rc_body_is_awake(w, b);
    }
    rc_vec2 p = rc_body_position(w, b);
    *moved = -(double)rc_dot(p, along);
    *height_error = (double)rc_dot(p, up) - 0.5;
    *angle_error = (double)rc_body_angle(w, b) - (double)theta;
    if (!*asleep) {
        *asleep = step_until_asleep(w, b, 300) > 0;
    }
    rc_world_destroy(w);
}

START_TEST(capsule_on_a_slope) {
    /* 60 steps of 4 sub-steps, each adding a h to the velocity before moving by it: the body
       moves a h^2 (1 + 2 + ... + 240) = a T^2 / 2 (1 + 1/240) */
    const double g = 10.0, T = 1.0 + 1.0 / 240.0;
    double moved, angle_error, height_error;
    bool asleep;
    float theta = 0.5f; /* about 28.6 degrees */
    slide(theta, 0.0f, &moved, &angle_error, &height_error, &asleep);
    double want = 0.5 * g * sin((double)theta) * T;
    ck_assert_msg(fabs(moved - want) <= 0.002 * want, "frictionless: slid %.6g, expected %.6g", moved, want);
    ck_assert_msg(fabs(angle_error) < 0.01 && fabs(height_error) < 0.01, "frictionless: turned %g, lifted %g",
                  angle_error, height_error);
    slide(theta, 0.3f, &moved, &angle_error, &height_error, &asleep);
    want = 0.5 * g * (sin((double)theta) - 0.3 * cos((double)theta)) * T;
    ck_assert_msg(fabs(moved - want) <= 0.01 * want, "mu 0.3: slid %.6g, expected %.6g", moved, want);
    ck_assert(fabs(angle_error) < 0.01 && fabs(height_error) < 0.01);
    slide(theta, 0.8f, &moved, &angle_error, &height_error, &asleep); /* tan 0.5 = 0.546 < 0.8 */
    ck_assert_msg(fabs(moved) < 0.01, "mu 0.8: slid %.6g", moved);
    ck_assert_msg(asleep, "mu 0.8: never slept");
}
END_TEST

START_TEST(grenade_and_bullet_strike_a_capsule) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id cap = make_capsule(w, ground, &sd, rc_v2(-1, 0), rc_v2(1, 0), 1.0f);
    /* a point bullet at 60 units/s straight down from (0.5, 5): meets the flat side (0.5, 1)
       after 4 / 60 s */
    rc_body_id bullet = ws_point_bullet(w, rc_v2(0.5f, 5), rc_v2(0, -60), 0);
    for (int n = 0; n < 4; ++n) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    const rc_impact_event *ev;
    ck_assert_int_eq(rc_world_impact_events(w, &ev), 1);
    ck_assert(rc_body_id_equals(ev[0].projectile, bullet) && rc_shape_id_equals(ev[0].shape, cap));
    ck_assert_vec_near(ev[0].point, 0.5, 1.0, 1e-5);
    ck_assert_vec_near(ev[0].normal, 0.0, 1.0, 1e-6);
    ck_assert_near(ev[0].approach_speed, 60.0, 1e-3);
    rc_body_destroy(w, bullet);
    /* a grenade of radius 0.25 dropped on the round end (1, 0) + 1 (0.6, 0.8) from above: meets
       it with its centre at (1.75, 1) + ... the impact's normal is (0.6, 0.8) */
    ck_assert(rc_world_set_gravity(w, rc_v2(0, -10)));
    rc_body_id grenade = ws_circle_body(w, rc_v2(1.0f + 1.25f * 0.6f, 4.0f), rc_v2(0, 0), 0.25f, 0.0f, 0.6f, false);
    bool struck = false;
    for (int n = 0; n < 120 && !struck; ++n) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        struck = rc_world_impact_events(w, &ev) > 0;
    }
    ck_assert(struck);
    ck_assert(rc_body_id_equals(ev[0].projectile, grenade) && rc_shape_id_equals(ev[0].shape, cap));
    ck_assert_vec_near(ev[0].normal, 0.6, 0.8, 1e-4);
    ck_assert_vec_near(ev[0].point, 1.6, 0.8, 1e-4);
    /* it rolls off the end and away; never inside the capsule */
    for (int n = 0; n < 120; ++n) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        rc_capsule c;
        rc_shape_world_capsule(w, cap, &c);
        ck_assert(rc_point_distance_capsule(c, rc_body_position(w, grenade)).distance >= 0.25f - 0.005f);
    }
    ck_assert(rc_body_position(w, grenade).x > 2.0f);
    rc_world_destroy(w);
}
END_TEST

/* ---- debug draw ----------------------------------------------------------------------------------- */

typedef struct drawn {
    int capsules, solid_capsules, polygons, solid_polygons, segments;
    rc_vec2 p1, p2, outline[16], solid[16];
    float radius;
    int outline_count, solid_count;
    rc_color color;
} drawn;

static void d_capsule(rc_vec2 p1, rc_vec2 p2, float r, rc_color c, void *ctx) {
    drawn *d = ctx;
    d->capsules++;
    d->p1 = p1;
    d->p2 = p2;
    d->radius = r;
    d->color = c;
}
static void d_solid_capsule(rc_vec2 p1, rc_vec2 p2, float r, rc_color c, void *ctx) {
    (void)p1, (void)p2, (void)r, (void)c;
    ((drawn *)ctx)->solid_capsules++;
}
static void d_polygon(const rc_vec2 *p, int32_t n, rc_color c, void *ctx) {
    drawn *d = ctx;
    d->polygons++;
    d->outline_count = n;
    d->color = c;
    memcpy(d->outline, p, sizeof *p * (size_t)(n < 16 ? n : 16));
}
static void d_solid_polygon(const rc_vec2 *p, int32_t n, rc_color c, void *ctx) {
    drawn *d = ctx;
    (void)c;
    d->solid_polygons++;
    d->solid_count = n;
    memcpy(d->solid, p, sizeof *p * (size_t)(n < 16 ? n : 16));
}
static void d_segment(rc_vec2 a, rc_vec2 b, rc_color c, void *ctx) {
    (void)a, (void)b, (void)c;
    ((drawn *)ctx)->segments++;
}

START_TEST(debug_draw_of_capsules) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(3, 1), 0.4f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id s = make_capsule(w, b, &sd, rc_v2(-1, 0.5f), rc_v2(2, 0), 0.75f);
    rc_capsule c;
    ck_assert(rc_shape_world_capsule(w, s, &c));
    rc_debug_draw dd = rc_default_debug_draw();
    drawn d;
    memset(&d, 0, sizeof d);
    dd.context = &d;
    dd.draw_capsule = d_capsule;
    dd.draw_solid_capsule = d_solid_capsule;
    dd.draw_polygon = d_polygon;
    dd.draw_solid_polygon = d_solid_polygon;
    ck_assert(rc_world_draw(w, &dd));
    ck_assert(d.capsules == 1 && d.solid_capsules == 1 && d.polygons == 0 && d.solid_polygons == 0);
    ck_assert(memcmp(&d.p1, &c.center1, sizeof c.center1) == 0 && memcmp(&d.p2, &c.center2, sizeof c.center2) == 0);
    ck_assert(d.radius == c.radius && d.color == RC_COLOR_DYNAMIC);
    /* without capsule callbacks: 16 points on the outline, counter-clockwise and convex, to both
       polygon callbacks */
    memset(&d, 0, sizeof d);
    dd.draw_capsule = NULL;
    dd.draw_solid_capsule = NULL;
    ck_assert(rc_world_draw(w, &dd));
    ck_assert(d.polygons == 1 && d.solid_polygons == 1 && d.outline_count == 16 && d.solid_count == 16);
    ck_assert(memcmp(d.outline, d.solid, sizeof d.outline) == 0);
    ref_v2 a = ref_from(c.center1), e = ref_from(c.center2);
    for (int i = 0; i < 16; ++i) {
        double dist = ref_segment_distance(ref_from(d.outline[i]), a, e, NULL);
        ck_assert_msg(fabs(dist - c.radius) < 1e-5, "point %d is %.9g from the segment", i, dist);
        ref_v2 p = ref_from(d.outline[i]), q = ref_from(d.outline[(i + 1) % 16]), r = ref_from(d.outline[(i + 2) % 16]);
        ck_assert_msg(ref_cross(ref_sub(q, p), ref_sub(r, q)) > 0.0, "turns clockwise at point %d", i + 1);
    }
    ck_assert(ref_signed_area2(d.outline, 16) > 0.0);
    /* outlines by segments when there is no draw_polygon; a sensor is outlined only */
    memset(&d, 0, sizeof d);
    dd.draw_polygon = NULL;
    dd.draw_segment = d_segment;
    ck_assert(rc_world_draw(w, &dd));
    ck_assert(d.segments == 16 && d.solid_polygons == 1);
    rc_shape_destroy(w, s);
    sd.is_sensor = true;
    make_capsule(w, b, &sd, rc_v2(-1, 0.5f), rc_v2(2, 0), 0.75f);
    memset(&d, 0, sizeof d);
    dd.draw_capsule = d_capsule;
    dd.draw_solid_capsule = d_solid_capsule;
    dd.draw_solid_polygon = d_solid_polygon;
    ck_assert(rc_world_draw(w, &dd));
    ck_assert(d.capsules == 1 && d.solid_capsules == 0 && d.solid_polygons == 0 && d.color == RC_COLOR_SENSOR);
    rc_world_destroy(w);
}
END_TEST

static Suite *capsule_bodies_suite(void) {
    Suite *s = suite_create("capsule_bodies");
    TCase *tc = tcase_create("shapes");
    tcase_add_test(tc, placement_under_base_and_body_transforms);
    tcase_add_test(tc, mass_of_a_capsule_and_a_circle);
    tcase_add_test(tc, creation_refuses_bad_input);
    tcase_add_test(tc, world_capsule_refuses_other_shapes);
    tcase_add_test(tc, queries_see_capsules_as_the_pure_functions_do);
    tcase_add_test(tc, debug_draw_of_capsules);
    suite_add_tcase(s, tc);
    tc = tcase_create("step");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, capsule_lying_on_the_ground_rests_at_its_radius_and_sleeps);
    tcase_add_test(tc, tilted_capsule_rolls_over_onto_its_side);
    tcase_add_test(tc, capsule_on_a_slope);
    tcase_add_test(tc, grenade_and_bullet_strike_a_capsule);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(capsule_bodies_suite()); }
