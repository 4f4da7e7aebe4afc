/* rc_world_cast_polygon and rc_world_overlap_polygon.
 *
 * Hand-worked cases against every shape type (circle, polygon, capsule, a chain's walls from
 * either side, one-sided walls), then random scenes (fixed seeds) of circles, boxes, convex
 * polygons, capsules and two-sided chains on static, kinematic and dynamic bodies, with sensors
 * and random filters, compared with a brute force over every shape in double precision: the
 * separation of the query polygon and a shape (separating axes when they overlap, the least
 * distance between their cores otherwise, less the shape's radius), and for a sweep the first
 * fraction at which it reaches 0 (golden-section search for its least value along the sweep,
 * convex in the fraction, then bisection). A case whose answer turns on rounding (a separation,
 * a grazing sweep or two shapes' fractions within a band) is skipped and counted. A hit's
 * normal must be a normal of the contact: the shape's and the moved polygon's support values
 * along it meet. Also: filters, sensors, callbacks that stop, refused input, and the locked
 * world inside a callback. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stb_ds.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/reference.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static rc_polygon box_at(float hx, float hy, float x, float y) {
    rc_polygon b = rc_make_box(hx, hy);
    rc_transform xf = {{x, y}, RC_ROT_IDENTITY};
    return rc_transform_polygon(xf, &b);
}

/* ---- hand-worked casts ------------------------------------------------------------------------- */

typedef struct scene1 {
    rc_world *w;
    ws_errors errs;
    rc_shape_id box, circle, capsule, wall, one_sided, sensor;
} scene1;

/* A box [-1, 1]^2, a circle r 1 at (10, 0), an upright capsule r 1 about (20, -1)..(20, 1), a
 * wall x = 30 (y in [-5, 5]), a one-sided wall x = 40 whose free side is -x, a sensor box at
 * (0, 10). */
static void scene1_make(scene1 *s) {
    memset(s, 0, sizeof *s);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = ws_error_fn;
    wd.error_user = &s->errs;
    s->w = rc_world_create(&wd);
    rc_body_id g = ws_static_body(s->w);
    rc_shape_def sd = rc_shape_default_def();
    s->box = rc_shape_create_box(s->w, g, &sd, 1, 1);
    sd.offset = rc_v2(10, 0);
    s->circle = rc_shape_create_circle(s->w, g, &sd, 1);
    sd.offset = rc_v2(20, 0);
    s->capsule = rc_shape_create_capsule(s->w, g, &sd, rc_v2(0, -1), rc_v2(0, 1), 1);
    sd.offset = rc_v2(0, 0);
    rc_vec2 line[2] = {{30, -5}, {30, 5}};
    rc_shape_id chain = rc_shape_create_chain(s->w, g, &sd, line, 2, false);
    ck_assert_int_eq(rc_shape_chain_segments(s->w, chain, &s->wall, 1), 1);
    sd.one_sided = true;
    rc_vec2 line2[2] = {{40, -5}, {40, 5}}; /* going up: the free side (left of it) is -x */
    chain = rc_shape_create_chain(s->w, g, &sd, line2, 2, false);
    ck_assert_int_eq(rc_shape_chain_segments(s->w, chain, &s->one_sided, 1), 1);
    sd = rc_shape_default_def();
    sd.is_sensor = true;
    sd.offset = rc_v2(0, 10);
    s->sensor = rc_shape_create_box(s->w, g, &sd, 1, 1);
    ck_assert(!rc_shape_id_is_null(s->box) && !rc_shape_id_is_null(s->capsule) && !rc_shape_id_is_null(s->sensor));
}

#define CAST(s, poly, d, h) rc_world_cast_polygon((s)->w, &(poly), (d), rc_default_query_filter(), (h))

START_TEST(cast_each_shape_type_by_hand) {
    scene1 s;
    scene1_make(&s);
    rc_ray_hit h;
    /* a unit box (half 0.5) from x = -5 along +8: its face x = -4.5 meets x = -1 at t = 3.5 / 8 */
    rc_polygon p = box_at(0.5f, 0.5f, -5, 0);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, s.box) && !h.started_inside);
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    ck_assert_vec_near(h.normal, -1, 0, 1e-6); /* the face's normal, against the motion */
    ck_assert_near(h.point.x, -1.0, 1e-5);
    ck_assert(h.point.y >= -0.5f - 1e-5f && h.point.y <= 0.5f + 1e-5f);
    ck_assert(CAST(&s, p, rc_v2(8, 0), NULL));
    /* the circle: the face x = 5.5 meets (9, 0) at t = 3.5 / 8 */
    p = box_at(0.5f, 0.5f, 5, 0);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, s.circle));
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    ck_assert_vec_near(h.normal, -1, 0, 1e-6);
    ck_assert_vec_near(h.point, 9, 0, 1e-5);
    /* the circle met by a corner: the box's corner (5.5, 0.5) moving +x meets the circle where
       y = 0.5: x = 10 - sqrt(0.75), normal (-sqrt(0.75), 0.5) */
    p = box_at(0.5f, 0.5f, 5, 1);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert_near(h.t, (10.0 - sqrt(0.75) - 5.5) / 8.0, 1e-5);
    ck_assert_vec_near(h.normal, -sqrt(0.75), 0.5, 1e-4);
    /* the capsule's flat side x = 19 */
    p = box_at(0.5f, 0.25f, 15, 0.25f);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, s.capsule));
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    ck_assert_vec_near(h.normal, -1, 0, 1e-6);
    ck_assert_near(h.point.x, 19.0, 1e-5);
    /* its round end from above: (20, 2) */
    p = box_at(0.5f, 0.5f, 20, 6);
    ck_assert(CAST(&s, p, rc_v2(0, -8), &h));
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    ck_assert_vec_near(h.normal, 0, 1, 1e-6);
    ck_assert_vec_near(h.point, 20, 2, 1e-5);
    /* the two-sided wall from either side */
    p = box_at(0.5f, 0.5f, 25, 0);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, s.wall));
    ck_assert_near(h.t, 4.5 / 8.0, 1e-6);
    ck_assert_vec_near(h.normal, -1, 0, 1e-6);
    p = box_at(0.5f, 0.5f, 34, 0);
    ck_assert(CAST(&s, p, rc_v2(-8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, s.wall));
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    ck_assert_vec_near(h.normal, 1, 0, 1e-6);
    /* the one-sided wall blocks from its free side only */
    p = box_at(0.5f, 0.5f, 35, 0);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(rc_shape_id_equals(h.shape, s.one_sided));
    ck_assert_near(h.t, 4.5 / 8.0, 1e-6);
    p = box_at(0.5f, 0.5f, 45, 0);
    ck_assert(!CAST(&s, p, rc_v2(-8, 0), NULL));
    /* sensors are never hit */
    p = box_at(0.5f, 0.5f, -5, 10);
    ck_assert(!CAST(&s, p, rc_v2(10, 0), NULL));
    /* misses: short, passing by above, behind */
    p = box_at(0.5f, 0.5f, -5, 0);
    ck_assert(!CAST(&s, p, rc_v2(3, 0), NULL));
    ck_assert(!CAST(&s, p, rc_v2(-8, 0), NULL));
    p = box_at(0.5f, 0.5f, -5, 1.5f + 0x1p-8f);
    ck_assert(!CAST(&s, p, rc_v2(8, 0), NULL));
    rc_world_destroy(s.w);
}
END_TEST

/* Regression: a polygon meeting a polygon or a wall took GJK's arbitrary normal (1, 0) for two
 * touching cores, along the motion when it came from the left; and a polygon touching a shape
 * at the start hit it at t = 0 even when moving away (with a normal along the motion). */
START_TEST(regression_cast_normals_against_the_motion) {
    scene1 s;
    scene1_make(&s);
    rc_ray_hit h;
    rc_polygon p = box_at(0.5f, 0.5f, -5, 0.25f);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert_vec_near(h.normal, -1, 0, 1e-6);
    p = box_at(0.5f, 0.5f, 25, 0);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert_vec_near(h.normal, -1, 0, 1e-6);
    /* grazing the top along +x: the corner (-1, 1) first, a normal of that corner (up or left) */
    p = box_at(0.5f, 0.5f, -5, 1.5f);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    ck_assert(rc_dot(h.normal, rc_v2(8, 0)) <= 0.0f && fabsf(rc_length(h.normal) - 1.0f) < 1e-6f);
    ck_assert_vec_near(h.point, -1, 1, 1e-5);
    /* touching the box's face at the start: moving in hits at t = 0 (not inside), moving away
       or along the face from the far corner does not stop it */
    p = box_at(0.5f, 0.5f, -1.5f, 0);
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(h.t == 0.0f && !h.started_inside);
    ck_assert_vec_near(h.normal, -1, 0, 1e-6);
    ck_assert(!CAST(&s, p, rc_v2(-8, 0), NULL));
    ck_assert(!CAST(&s, p, rc_v2(-8, 3), NULL));
    p = box_at(0.5f, 0.5f, 39.5f, 0); /* touching the one-sided wall from its free side */
    ck_assert(!CAST(&s, p, rc_v2(-8, 0), NULL));
    ck_assert(CAST(&s, p, rc_v2(8, 0), &h));
    ck_assert(h.t == 0.0f && rc_shape_id_equals(h.shape, s.one_sided));
    rc_world_destroy(s.w);
}
END_TEST

/* Regression (fuzz_world, min-polygon-sliver-wall): a polygon 1e-30 across is as thin from
 * both sides of a wall, so the wall's two sides tie as separating axes when it touches; the
 * rounding picked the far side, a normal along the motion. Ties go to the side met squarely.
 * The wall (10, 11)..(12, 4), 7 x + 2 y = 92, is met from the origin along (11, 11) at
 * t = 92 / 99, with the normal -(7, 2) / sqrt(53). */
START_TEST(regression_sliver_meets_a_wall_from_its_near_side) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.position = rc_v2(7, 0);
    rc_body_id g = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 line[2] = {{3, 11}, {5, 4}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, g, &sd, line, 2, false)));
    const float e = 0x1.4484cp-99f;
    rc_vec2 sliver[4] = {{-e, -e}, {0, -e}, {0, 0}, {-e, 0}};
    rc_polygon p;
    ck_assert(rc_make_polygon(sliver, 4, &p) == RC_POLYGON_OK);
    rc_ray_hit h;
    ck_assert(rc_world_cast_polygon(w, &p, rc_v2(11, 11), rc_default_query_filter(), &h));
    ck_assert_near(h.t, 92.0 / 99.0, 1e-5);
    ck_assert_vec_near(h.normal, -7.0 / sqrt(53.0), -2.0 / sqrt(53.0), 1e-5);
    ck_assert_vec_near(h.point, 11.0 * 92.0 / 99.0, 11.0 * 92.0 / 99.0, 1e-4);
    /* and from the other side, the other normal: the wall moved by (-20, -20) (the sliver moved
       to (20, 20) instead rounds to one point there, which is no polygon: refused) */
    ck_assert(rc_body_set_transform(w, g, rc_v2(-13, -20), 0.0f));
    ck_assert(rc_world_cast_polygon(w, &p, rc_v2(-11, -11), rc_default_query_filter(), &h));
    ck_assert_vec_near(h.normal, 7.0 / sqrt(53.0), 2.0 / sqrt(53.0), 1e-5);
    rc_world_destroy(w);
}
END_TEST

/* Regression (fuzz_world, min-polygon-zero-normal): a looped chain 1e-30 across on a body moved
 * to (8.75, 1e-6) has walls whose ends round to one point, and walls without a direction; one
 * touching a polygon's face gave the normal (0, 0). The point lies on the face y = 0 of the
 * square [0, 17.5]^2 (1e-6 inside it, within the cast's rounding); the square moving along the
 * face touches it at t = 0 with the face's normal, from the point towards the square: (0, 1). */
START_TEST(regression_wall_rounded_to_a_point) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id g = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    const float e = 0x1.4484cp-100f;
    rc_vec2 loop[3] = {{0, 0}, {0, -e}, {-e, -e}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, g, &sd, loop, 3, true)));
    ck_assert(rc_body_set_transform(w, g, rc_v2(8.75f, 0x1.0c6f7ap-20f), -e));
    rc_vec2 corners[4] = {{0, 0}, {17.5f, 0}, {17.5f, 17.5f}, {0, 17.5f}};
    rc_polygon p;
    ck_assert(rc_make_polygon(corners, 4, &p) == RC_POLYGON_OK);
    rc_ray_hit h;
    ck_assert(rc_world_cast_polygon(w, &p, rc_v2(8.75f, 0), rc_default_query_filter(), &h));
    ck_assert(h.t == 0.0f && !h.started_inside);
    ck_assert_vec_eq(h.normal, 0, 1);
    rc_world_destroy(w);
}
END_TEST

/* Regression (fuzz_world): a short capsule far out, whose two centres round to one point once
 * placed, deep inside a polygon that starts over it: the capsule's hull was two equal points with
 * edges of no normal, the separating axis search took one (separation 0 beats every face of the
 * polygon) and the hit came back started_inside with the normal (0, 0). The capsule is now the
 * circle it has become: the centres (2^20, 2^20) and (2^20 + 2^-20, 2^20) are one float point,
 * radius 2^-10, inside the box [2^20 - 2, 2^20 + 6] x [2^20 - 4, 2^20 + 4]; the box's way out
 * is through its nearest face, x = 2^20 - 2, 2 away (the others 6 and 4; the cast's rounding
 * tolerance there is about 1): moving along +x, normal (1, 0). The same from each side of the
 * box. Before, a point deep in a polygon could also come back as no hit: GJK's arbitrary normal
 * of overlapping cores taken for a motion away. */
START_TEST(regression_capsule_rounded_to_a_point_inside) {
    const float c = 1048576.0f; /* 2^20: a float step of 1/8 there */
    const float sx[4] = {1.0f, -1.0f, 0.0f, 0.0f}, sy[4] = {0.0f, 0.0f, 1.0f, -1.0f};
    for (int k = 0; k < 4; ++k) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_id g = ws_static_body(w);
        rc_shape_def sd = rc_shape_default_def();
        ck_assert(!rc_shape_id_is_null(
            rc_shape_create_capsule(w, g, &sd, rc_v2(0, 0), rc_v2(0x1p-20f, 0), 0x1p-10f)));
        ck_assert(rc_body_set_transform(w, g, rc_v2(c, c), 0.0f));
        rc_polygon p = box_at(4.0f, 4.0f, c + 2.0f * sx[k], c + 2.0f * sy[k]);
        rc_ray_hit h;
        ck_assert(rc_world_cast_polygon(w, &p, rc_v2(sy[k] + 0.25f, sx[k] + 0.25f), rc_default_query_filter(), &h));
        ck_assert(h.t == 0.0f && h.started_inside);
        ck_assert_vec_eq(h.normal, sx[k], sy[k]);
        rc_world_destroy(w);
    }
}
END_TEST

START_TEST(cast_starting_inside_and_ties) {
    scene1 s;
    scene1_make(&s);
    rc_ray_hit h;
    /* overlapping the box by 0.5 on its right: t = 0, the way out is +x, the point the centroid */
    rc_polygon p = box_at(0.5f, 0.5f, 1.0f, 0.25f);
    ck_assert(CAST(&s, p, rc_v2(1, 3), &h));
    ck_assert(h.t == 0.0f && h.started_inside && rc_shape_id_equals(h.shape, s.box));
    ck_assert_vec_near(h.normal, 1, 0, 1e-6);
    ck_assert_vec_eq(h.point, 1.0f, 0.25f);
    /* a sweep of no length meets nothing, and is no error */
    rc_world_clear_error(s.w);
    ck_assert(!CAST(&s, p, rc_v2(0, 0), &h));
    ck_assert_str_eq(rc_world_last_error(s.w), "");
    /* ties at the same fraction go to the lower shape id: two boxes made in order, met at once */
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id g = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(5, 2);
    rc_shape_id first = rc_shape_create_box(w, g, &sd, 1, 1);
    sd.offset = rc_v2(5, -2);
    rc_shape_id second = rc_shape_create_box(w, g, &sd, 1, 1);
    ck_assert(first.index < second.index);
    p = box_at(0.5f, 3.0f, 0, 0);
    ck_assert(rc_world_cast_polygon(w, &p, rc_v2(8, 0), rc_default_query_filter(), &h));
    ck_assert(rc_shape_id_equals(h.shape, first));
    ck_assert_near(h.t, 3.5 / 8.0, 1e-6);
    rc_world_destroy(w);
    rc_world_destroy(s.w);
}
END_TEST

/* ---- overlaps by hand -------------------------------------------------------------------------- */

typedef struct stopper {
    rc_shape_id ids[64];
    int n, stop_after;
    const rc_world *w;
    int inner; /* a query made inside the callback: its count */
    bool create_refused;
} stopper;

static bool stop_fn(rc_shape_id shape, rc_body_id body, void *context) {
    stopper *c = context;
    ck_assert(rc_shape_is_valid(c->w, shape) && rc_body_id_equals(rc_shape_body(c->w, shape), body));
    ck_assert_int_lt(c->n, 64);
    c->ids[c->n++] = shape;
    return c->stop_after == 0 || c->n < c->stop_after;
}

static bool locked_fn(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    stopper *c = context;
    rc_world *w = (rc_world *)(uintptr_t)c->w; /* a game holds its world as non-const */
    rc_body_def bd = rc_body_default_def();
    c->create_refused = rc_body_is_valid(w, body) && rc_body_id_is_null(rc_body_create(w, &bd)) &&
                        strstr(rc_world_last_error(w), "locked") != NULL;
    rc_polygon p = box_at(0.5f, 0.5f, -5, 0);
    c->inner = rc_world_overlap_polygon(c->w, &p, rc_default_query_filter(), NULL, NULL);
    rc_ray_hit h;
    c->inner += rc_world_cast_polygon(c->w, &p, rc_v2(8, 0), rc_default_query_filter(), &h) ? 10 : 0;
    return true;
}

START_TEST(overlap_by_hand) {
    scene1 s;
    scene1_make(&s);
    rc_query_filter all = rc_default_query_filter();
    /* a box touching the box's face, the circle, the capsule and both walls at once: 9 wide */
    rc_polygon p = box_at(0.5f, 0.5f, -1.5f, 0);
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 1);
    p = box_at(0.5f, 0.5f, -1.5f - 0x1p-10f, 0);
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 0);
    p = box_at(0.5f, 0.5f, 8.5f, 0); /* touching the circle at (9, 0) */
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 1);
    /* a corner near the circle: (9.5, 1) is sqrt(1.25) from (10, 0): apart; (9.5, 0.5) is
       sqrt(0.5) from it: overlapping */
    p = box_at(0.5f, 0.5f, 9.0f, 1.5f);
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 0);
    p = box_at(0.5f, 0.5f, 9.0f, 1.0f);
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 1);
    p = box_at(0.5f, 0.5f, 9.0f, 1.5f);
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 0);
    p = box_at(0.5f, 0.5f, 30.0f, 0); /* across the wall */
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 1);
    p = box_at(0.5f, 0.5f, 40.5f, 0); /* the one-sided wall, from its back: overlap sees either side */
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 1);
    p = box_at(0.5f, 0.5f, 0, 10); /* the sensor is seen */
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, NULL, NULL), 1);
    /* everything, each once */
    p = box_at(50.0f, 20.0f, 10.0f, 0);
    stopper c;
    memset(&c, 0, sizeof c);
    c.w = s.w;
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, stop_fn, &c), 6);
    ck_assert_int_eq(c.n, 6);
    rc_shape_id want[6] = {s.box, s.circle, s.capsule, s.wall, s.one_sided, s.sensor};
    for (int i = 0; i < 6; ++i) {
        int times = 0;
        for (int j = 0; j < c.n; ++j) {
            times += rc_shape_id_equals(c.ids[j], want[i]);
        }
        ck_assert_int_eq(times, 1);
    }
    /* returning false stops it: the count is what was reported */
    memset(&c, 0, sizeof c);
    c.w = s.w;
    c.stop_after = 2;
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, stop_fn, &c), 2);
    ck_assert_int_eq(c.n, 2);
    /* filters: the sensor alone has category 2 */
    rc_filter f = rc_default_filter();
    f.category_bits = 2;
    ck_assert(rc_shape_set_filter(s.w, s.sensor, f));
    rc_query_filter q = {.category_bits = 0xFFFFFFFFu, .mask_bits = 2u};
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, q, NULL, NULL), 1);
    q.category_bits = 0;
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, q, NULL, NULL), 0);
    q = (rc_query_filter){.category_bits = 0xFFFFFFFFu, .mask_bits = ~2u};
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, q, NULL, NULL), 5);
    p = box_at(0.5f, 0.5f, -5, 0);
    ck_assert(!rc_world_cast_polygon(s.w, &p, rc_v2(8, 0), (rc_query_filter){.category_bits = 0xFFFFFFFFu, .mask_bits = 2u}, NULL));
    /* inside the callback the world is locked, and queries answer */
    memset(&c, 0, sizeof c);
    c.w = s.w;
    int calls = s.errs.calls;
    p = box_at(0.5f, 0.5f, 0, 0);
    ck_assert_int_eq(rc_world_overlap_polygon(s.w, &p, all, locked_fn, &c), 1);
    ck_assert(c.create_refused && s.errs.calls == calls + 1);
    ck_assert_int_eq(c.inner, 10); /* the cast hits the box; the overlap finds nothing there */
    rc_world_destroy(s.w);
}
END_TEST

START_TEST(refused_input) {
    scene1 s;
    scene1_make(&s);
    rc_query_filter all = rc_default_query_filter();
    rc_polygon good = box_at(0.5f, 0.5f, -5, 0);
    rc_polygon bad[6];
    for (int k = 0; k < 6; ++k) {
        bad[k] = good;
    }
    bad[0].count = 2;
    bad[1].count = RC_MAX_POLYGON_VERTICES + 1;
    bad[2].vertices[1].x = NAN;
    bad[3].vertices[2].y = INFINITY;
    bad[4].normals[0] = rc_v2(2, 0); /* not unit */
    bad[5] = box_at(1.0f, 1.0f, 1.2e18f, 0); /* beyond RC_WORLD_LIMIT */
    rc_ray_hit h = rc_test_poisoned_hit(), poison = rc_test_poisoned_hit();
    for (int k = 0; k < 7; ++k) {
        const rc_polygon *p = k < 6 ? &bad[k] : NULL;
        for (int q = 0; q < 2; ++q) {
            rc_world_clear_error(s.w);
            int calls = s.errs.calls;
            bool refused = q == 0 ? !rc_world_cast_polygon(s.w, p, rc_v2(8, 0), all, &h)
                                  : rc_world_overlap_polygon(s.w, p, all, NULL, NULL) == -1;
            const char *name = q == 0 ? "rc_world_cast_polygon" : "rc_world_overlap_polygon";
            EXPECT(refused && strstr(rc_world_last_error(s.w), name) != NULL && s.errs.calls == calls + 1,
                   "%s: polygon %d not refused as it should be (\"%s\")", name, k, rc_world_last_error(s.w));
        }
    }
    const float nf[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        rc_world_clear_error(s.w);
        ck_assert(!rc_world_cast_polygon(s.w, &good, rc_v2(nf[k], 0), all, &h));
        ck_assert(!rc_world_cast_polygon(s.w, &good, rc_v2(1, nf[k]), all, &h));
        ck_assert(strstr(rc_world_last_error(s.w), "rc_world_cast_polygon") != NULL);
    }
    rc_world_clear_error(s.w);
    ck_assert(!rc_world_cast_polygon(s.w, &good, rc_v2(1.2e18f, 0), all, &h)); /* the sweep leaves the world */
    ck_assert(strstr(rc_world_last_error(s.w), "rc_world_cast_polygon") != NULL);
    ck_assert(memcmp(&h, &poison, sizeof h) == 0);
    ck_assert(!rc_world_cast_polygon(NULL, &good, rc_v2(8, 0), all, &h));
    ck_assert_int_eq(rc_world_overlap_polygon(NULL, &good, all, NULL, NULL), -1);
    rc_world_destroy(s.w);
}
END_TEST

/* ---- random scenes against brute force ---------------------------------------------------------- */

typedef struct core {
    rc_vec2 p[RC_MAX_POLYGON_VERTICES];
    int n;
    double r;
    bool sensor;
    rc_filter filter;
    rc_aabb box;
} core;

static core core_of(const rc_world *w, rc_shape_id s) {
    core c;
    memset(&c, 0, sizeof c);
    switch (rc_shape_get_type(w, s)) {
    case RC_SHAPE_TYPE_CIRCLE: {
        rc_circle ci;
        rc_shape_world_circle(w, s, &ci);
        c.p[0] = ci.center, c.n = 1, c.r = ci.radius;
        break;
    }
    case RC_SHAPE_TYPE_CAPSULE: {
        rc_capsule ca;
        rc_shape_world_capsule(w, s, &ca);
        c.p[0] = ca.center1, c.p[1] = ca.center2, c.n = 2, c.r = ca.radius;
        break;
    }
    case RC_SHAPE_TYPE_SEGMENT:
        rc_shape_world_segment(w, s, &c.p[0], &c.p[1]);
        c.n = 2;
        break;
    default: {
        rc_polygon po;
        rc_shape_world_polygon(w, s, &po);
        memcpy(c.p, po.vertices, sizeof(rc_vec2) * (size_t)po.count);
        c.n = po.count;
        break;
    }
    }
    c.sensor = rc_shape_is_sensor(w, s);
    c.filter = rc_shape_filter(w, s);
    c.box = rc_shape_aabb(w, s);
    return c;
}

/* The least distance between the core's edges (or point) and the polygon's. */
static double core_gap(const rc_vec2 *v, int n, const core *c) {
    double best = INFINITY;
    for (int i = 0; i < c->n; ++i) {
        best = fmin(best, ref_boundary_distance(ref_from(c->p[i]), v, n));
    }
    int edges = c->n == 1 ? 0 : (c->n == 2 ? 1 : c->n);
    for (int e = 0; e < edges; ++e) {
        for (int i = 0; i < n; ++i) {
            best = fmin(best, ref_segment_distance(ref_from(v[i]), ref_from(c->p[e]), ref_from(c->p[(e + 1) % c->n]),
                                                   NULL));
        }
    }
    return best;
}

/* Signed separation of the convex polygon v (n >= 3) and the shape, in double. */
static double separation(const rc_vec2 *v, int n, const core *c) {
    if (c->n == 1) {
        return ref_distance_polygon(v, n, ref_from(c->p[0])).distance - c->r;
    }
    double sat = ref_sat_separation(v, n, c->p, c->n, NULL);
    return (sat <= 0.0 ? sat : core_gap(v, n, c)) - c->r;
}

static double moved_separation(const rc_polygon *p, rc_vec2 d, double t, const core *c) {
    rc_vec2 v[RC_MAX_POLYGON_VERTICES];
    for (int i = 0; i < p->count; ++i) {
        v[i] = ref_to_float(ref_mad(ref_from(p->vertices[i]), t, ref_from(d)));
    }
    return separation(v, p->count, c);
}

/* The first fraction where the sweep touches the shape (-1: never); *least the least separation. */
static double first_touch(const rc_polygon *p, rc_vec2 d, const core *c, double *least) {
    double lo = 0.0, hi = 1.0, g = 0.5 * (sqrt(5.0) - 1.0);
    for (int i = 0; i < 60; ++i) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (moved_separation(p, d, a, c) < moved_separation(p, d, b, c)) {
            hi = b;
        } else {
            lo = a;
        }
    }
    double tm = 0.5 * (lo + hi), s0 = moved_separation(p, d, 0.0, c), s1 = moved_separation(p, d, 1.0, c);
    *least = fmin(moved_separation(p, d, tm, c), fmin(s0, s1));
    if (s0 <= 0.0) {
        return 0.0;
    }
    if (*least > 0.0) {
        return -1.0;
    }
    lo = 0.0;
    hi = moved_separation(p, d, tm, c) <= 0.0 ? tm : 1.0;
    for (int i = 0; i < 60; ++i) {
        double mid = 0.5 * (lo + hi);
        if (moved_separation(p, d, mid, c) <= 0.0) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

static double support(const rc_vec2 *v, int n, double r, ref_v2 u) {
    double best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        best = fmax(best, ref_dot(ref_from(v[i]), u));
    }
    return best + r;
}

static bool boxes_meet(rc_aabb a, rc_aabb b, float margin) {
    return a.lower.x <= b.upper.x + margin && b.lower.x <= a.upper.x + margin && a.lower.y <= b.upper.y + margin &&
           b.lower.y <= a.upper.y + margin;
}

typedef struct rscene {
    rc_world *w;
    rc_shape_id *ids; /* stb_ds: every shape a query may report (a chain's walls, not the chain) */
    core *cores;
} rscene;

static void rscene_make(rscene *s, ws_rng *r) {
    memset(s, 0, sizeof *s);
    s->w = ws_make_world(rc_v2(0, 0));
    for (int i = 0; i < 70; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = (rc_body_type)ws_int(r, 0, 2);
        bd.position = rc_v2(ws_range(r, -30, 30), ws_range(r, -30, 30));
        bd.angle = ws_range(r, -3.2, 3.2);
        rc_body_id b = rc_body_create(s->w, &bd);
        rc_shape_def sd = rc_shape_default_def();
        sd.is_sensor = ws_chance(r, 0.1);
        if (ws_chance(r, 0.3)) {
            sd.filter.category_bits = 1u << ws_int(r, 0, 3);
        }
        float size = ws_range(r, 0.3, 3.0);
        int kind = i < 4 ? 4 : ws_int(r, 0, 3);
        rc_shape_id id = RC_NULL_SHAPE_ID;
        if (kind == 0) {
            id = rc_shape_create_circle(s->w, b, &sd, size);
        } else if (kind == 1) {
            id = rc_shape_create_box(s->w, b, &sd, size, ws_range(r, 0.2, 1.0) * size);
        } else if (kind == 2) {
            rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
            int n = ws_random_convex(r, size, pts);
            id = rc_shape_create_polygon(s->w, b, &sd, pts, n);
        } else if (kind == 3) {
            id = rc_shape_create_capsule(s->w, b, &sd, rc_v2(-size, 0), rc_v2(size, ws_range(r, -1, 1)),
                                         ws_range(r, 0.1, 1.0) * size);
        } else {
            ck_assert(rc_body_set_type(s->w, b, RC_STATIC));
            sd.is_sensor = false;
            rc_vec2 pts[4];
            for (int k = 0; k < 4; ++k) {
                pts[k] = rc_v2(-6.0f + 4.0f * (float)k, ws_range(r, -2, 2));
            }
            rc_shape_id chain = rc_shape_create_chain(s->w, b, &sd, pts, 4, false);
            ck_assert(!rc_shape_id_is_null(chain));
            rc_shape_id walls[3];
            ck_assert_int_eq(rc_shape_chain_segments(s->w, chain, walls, 3), 3);
            for (int k = 0; k < 3; ++k) {
                arrput(s->ids, walls[k]);
            }
            continue;
        }
        ck_assert_msg(!rc_shape_id_is_null(id), "%s", rc_world_last_error(s->w));
        arrput(s->ids, id);
    }
    for (int i = 0; i < (int)arrlen(s->ids); ++i) {
        arrput(s->cores, core_of(s->w, s->ids[i]));
    }
}

static rc_polygon random_query_polygon(ws_rng *r) {
    rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
    int n = ws_random_convex(r, ws_range(r, 0.3, 4.0), pts);
    rc_vec2 c = rc_v2(ws_range(r, -32, 32), ws_range(r, -32, 32));
    for (int i = 0; i < n; ++i) {
        pts[i] = rc_add(pts[i], c);
    }
    rc_polygon p;
    ck_assert(rc_make_polygon(pts, n, &p) == RC_POLYGON_OK);
    return p;
}

static int index_of(const rscene *s, rc_shape_id id) {
    for (int i = 0; i < (int)arrlen(s->ids); ++i) {
        if (rc_shape_id_equals(s->ids[i], id)) {
            return i;
        }
    }
    return -1;
}

START_TEST(random_overlaps_against_brute_force) {
    ws_rng r = {0x0be7u + (uint64_t)_i};
    rscene s;
    rscene_make(&s, &r);
    rc_tally t;
    rc_tally_init(&t, "rc_world_overlap_polygon");
    int n = rc_test_random_cases(1500), found = 0;
    for (int q = 0; q < n; ++q) {
        rc_polygon p = random_query_polygon(&r);
        rc_query_filter f = rc_default_query_filter();
        if (q % 4 == 1) {
            f.mask_bits = 1u << ws_int(&r, 0, 3);
        }
        rc_tally_begin(&t, "query %d (scene %d)", q, _i);
        stopper c;
        memset(&c, 0, sizeof c);
        c.w = s.w;
        int count = rc_world_overlap_polygon(s.w, &p, f, stop_fn, &c);
        rc_tally_check(&t, count == c.n && rc_world_overlap_polygon(s.w, &p, f, NULL, NULL) == count, "counts");
        bool skip = false;
        int want = 0;
        rc_aabb pb = rc_polygon_aabb(&p);
        for (int i = 0; i < (int)arrlen(s.ids); ++i) {
            const core *sc = &s.cores[i];
            bool seen = ws_query_sees(sc->filter, f);
            bool got = false;
            for (int j = 0; j < c.n; ++j) {
                got = got || rc_shape_id_equals(c.ids[j], s.ids[i]);
            }
            if (!boxes_meet(pb, sc->box, 0.01f)) {
                rc_tally_check(&t, !got, "shape %d reported though its box is apart", i);
                continue;
            }
            double sep = separation(p.vertices, p.count, sc);
            if (fabs(sep) < 1e-4) {
                skip = true;
                continue;
            }
            want += seen && sep < 0.0;
            rc_tally_check(&t, got == (seen && sep < 0.0), "shape %d: reported %d, seen %d, separation %.9g", i, got,
                           seen, sep);
        }
        found += want;
        if (skip) {
            rc_tally_skip(&t);
            continue;
        }
        rc_tally_check(&t, count == want, "count %d, brute force %d", count, want);
        rc_tally_end(&t);
    }
    ck_assert_msg(found > n / 3, "too few overlaps (%d)", found);
    rc_tally_finish(&t);
    arrfree(s.ids);
    arrfree(s.cores);
    rc_world_destroy(s.w);
}
END_TEST

START_TEST(random_casts_against_brute_force) {
    ws_rng r = {0xca57u + (uint64_t)_i};
    rscene s;
    rscene_make(&s, &r);
    rc_tally t;
    rc_tally_init(&t, "rc_world_cast_polygon");
    int n = rc_test_random_cases(800), hits = 0, inside = 0;
    for (int q = 0; q < n; ++q) {
        rc_polygon p = random_query_polygon(&r);
        float len = ws_range(&r, 0.5, 40.0), ang = ws_range(&r, -3.2, 3.2);
        rc_vec2 d = rc_v2(len * cosf(ang), len * sinf(ang));
        rc_query_filter f = rc_default_query_filter();
        if (q % 4 == 1) {
            f.mask_bits = 1u << ws_int(&r, 0, 3);
        }
        rc_tally_begin(&t, "query %d (scene %d) d (%a, %a) p[0] (%a, %a) n %d", q, _i, (double)d.x, (double)d.y,
                       (double)p.vertices[0].x, (double)p.vertices[0].y, p.count);
        rc_aabb pb = rc_polygon_aabb(&p), sweep = pb;
        sweep.lower = rc_v2(fminf(pb.lower.x, pb.lower.x + d.x), fminf(pb.lower.y, pb.lower.y + d.y));
        sweep.upper = rc_v2(fmaxf(pb.upper.x, pb.upper.x + d.x), fmaxf(pb.upper.y, pb.upper.y + d.y));
        double best = 2.0, second = 2.0;
        int best_i = -1;
        bool skip = false;
        for (int i = 0; i < (int)arrlen(s.ids); ++i) {
            const core *sc = &s.cores[i];
            if (sc->sensor || !ws_query_sees(sc->filter, f) || !boxes_meet(sweep, sc->box, 0.01f)) {
                continue;
            }
            double least, tf = first_touch(&p, d, sc, &least);
            double s0 = moved_separation(&p, d, 0.0, sc), s1 = moved_separation(&p, d, 1.0, sc);
            if (fabs(least) < 1e-4 || fabs(s0) < 1e-4 || fabs(s1) < 1e-4) {
                skip = true;
            }
            if (tf >= 0.0 && tf < best) {
                second = best;
                best = tf;
                best_i = i;
            } else if (tf >= 0.0 && tf < second) {
                second = tf;
            }
        }
        /* near ties are skipped, but shapes overlapping at the start tie exactly: the lower id */
        if (skip || (best_i >= 0 && best > 0.0 && (second - best) * len < 1e-3)) {
            rc_tally_skip(&t);
            continue;
        }
        rc_ray_hit h = rc_test_poisoned_hit();
        bool got = rc_world_cast_polygon(s.w, &p, d, f, &h);
        rc_tally_check(&t, rc_world_cast_polygon(s.w, &p, d, f, NULL) == got, "answer changes with hit == NULL");
        if (!rc_tally_check(&t, got == (best_i >= 0), "hit %d, brute force %d (t %.9g)", got, best_i >= 0, best) ||
            !got) {
            rc_tally_end(&t);
            continue;
        }
        ++hits;
        const core *sc = &s.cores[best_i];
        rc_tally_check(&t, index_of(&s, h.shape) == best_i, "shape %d, brute force %d", index_of(&s, h.shape), best_i);
        rc_tally_check(&t, rc_body_id_equals(h.body, rc_shape_body(s.w, s.ids[best_i])), "body");
        rc_tally_near(&t, "t * |translation|", h.t * (double)len, best * len, 1e-4 * (1.0 + len));
        rc_tally_check(&t, fabs(rc_length(h.normal) - 1.0f) <= 1e-5f, "normal not unit");
        bool started = best == 0.0;
        inside += started;
        rc_tally_check(&t, h.started_inside == started, "started_inside %d", h.started_inside);
        if (started) {
            rc_tally_check(&t, h.t == 0.0f && h.point.x == p.centroid.x && h.point.y == p.centroid.y,
                           "t %g or point not the centroid", (double)h.t);
        } else {
            /* a normal of the contact: both surfaces' support along it meet where they touch */
            rc_vec2 v[RC_MAX_POLYGON_VERTICES];
            for (int i = 0; i < p.count; ++i) {
                v[i] = ref_to_float(ref_mad(ref_from(p.vertices[i]), h.t, ref_from(d)));
            }
            ref_v2 u = ref_from(h.normal);
            double gap = -support(v, p.count, 0.0, ref_scale(-1.0, u)) - support(sc->p, sc->n, sc->r, u);
            rc_tally_near(&t, "supports along the normal", gap, 0.0, 1e-3);
            rc_tally_check(&t, rc_dot(h.normal, d) <= 1e-5f * len, "normal (%g, %g) along the motion",
                           (double)h.normal.x, (double)h.normal.y);
            /* the point is on both */
            core pt = {{h.point}, 1, 0.0, false, {0, 0, 0}, {{0, 0}, {0, 0}}};
            rc_tally_near(&t, "separation at t", fabs(separation(v, p.count, sc)), 0.0, 1e-3);
            rc_tally_near(&t, "point to the polygon", fabs(separation(v, p.count, &pt)), 0.0, 1e-3);
            double on_shape = sc->n == 1 ? ref_dist(ref_from(h.point), ref_from(sc->p[0])) - sc->r
                              : sc->n == 2
                                  ? ref_segment_distance(ref_from(h.point), ref_from(sc->p[0]), ref_from(sc->p[1]), NULL) -
                                        sc->r
                                  : ref_boundary_distance(ref_from(h.point), sc->p, sc->n);
            rc_tally_near(&t, "point on the shape's surface", fabs(on_shape), 0.0, 1e-3);
        }
        rc_tally_end(&t);
    }
    ck_assert_msg(hits > n / 4 && inside > n / 20, "too few hits (%d) or starts inside (%d)", hits, inside);
    rc_tally_finish(&t);
    arrfree(s.ids);
    arrfree(s.cores);
    rc_world_destroy(s.w);
}
END_TEST

static Suite *polygon_queries_suite(void) {
    Suite *s = suite_create("world_polygon_queries");
    TCase *tc = tcase_create("by_hand");
    tcase_add_test(tc, cast_each_shape_type_by_hand);
    tcase_add_test(tc, regression_cast_normals_against_the_motion);
    tcase_add_test(tc, regression_sliver_meets_a_wall_from_its_near_side);
    tcase_add_test(tc, regression_wall_rounded_to_a_point);
    tcase_add_test(tc, regression_capsule_rounded_to_a_point_inside);
    tcase_add_test(tc, cast_starting_inside_and_ties);
    tcase_add_test(tc, overlap_by_hand);
    tcase_add_test(tc, refused_input);
    suite_add_tcase(s, tc);
    tc = tcase_create("random");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, random_overlaps_against_brute_force, 0, 2);
    tcase_add_loop_test(tc, random_casts_against_brute_force, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(polygon_queries_suite()); }
