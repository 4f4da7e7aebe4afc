/* Which rc_polygon a function takes (geometry.h, rc_polygon): one rc_make_polygon could give,
 * moved by rc_transform_polygon anywhere. Hand-filled polygons it would never give (all
 * vertices on one point, clockwise, inward normals, a bow-tie, a centroid far outside: an
 * attacker's probe; a collinear vertex, a turned normal, an extent beyond float range) used to
 * be taken by the world's polygon queries and the pure casts and manifolds, which then reported
 * hits for nothing (a hit point at the forged centroid (3e38, -3e38)). Now each is refused: the
 * pure functions return false, rc_world_cast_polygon false and rc_world_overlap_polygon -1 with
 * the last error set, the error callback called once and the world unchanged. Boxes and regular
 * polygons in random poses, near and far from the origin, large and small, are all still taken. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "shapes/shapes.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* The box 2 x 2 about (0, 10), as the probe moved it there. */
static rc_polygon probe_box(void) {
    rc_polygon box = rc_make_box(1.0f, 1.0f);
    return rc_transform_polygon((rc_transform){{0, 10}, RC_ROT_IDENTITY}, &box);
}

#define BAD_COUNT 10

/* The probe's five polygons, its forged centroid, and four more. */
static int bad_polygons(rc_polygon *bad, const char **names) {
    rc_polygon box = probe_box();
    int n = 0;
    for (int k = 0; k < BAD_COUNT; ++k) {
        bad[k] = box;
    }
    names[n] = "all vertices on one point";
    for (int i = 0; i < 4; ++i) {
        bad[n].vertices[i] = rc_v2(0, 10);
    }
    names[++n] = "clockwise vertices";
    for (int i = 0; i < 4; ++i) {
        bad[n].vertices[i] = box.vertices[3 - i];
    }
    names[++n] = "inward normals";
    for (int i = 0; i < 4; ++i) {
        bad[n].normals[i] = rc_neg(box.normals[i]);
    }
    names[++n] = "a bow-tie";
    bad[n].vertices[0] = box.vertices[2];
    bad[n].vertices[2] = box.vertices[0];
    names[++n] = "the centroid at (1e30, 0)";
    bad[n].centroid = rc_v2(1e30f, 0);
    names[++n] = "the centroid at (3e38, -3e38)";
    bad[n].centroid = rc_v2(3e38f, -3e38f);
    names[++n] = "the centroid 0.01 outside an edge";
    bad[n].centroid = rc_v2(1.01f, 10);
    names[++n] = "a normal turned by 0.01 rad";
    bad[n].normals[1] = rc_v2(cosf(0.01f), sinf(0.01f));
    names[++n] = "a vertex on the line of its neighbours";
    bad[n].count = 5;
    bad[n].vertices[4] = rc_v2(-1, 10); /* the middle of the left edge */
    bad[n].normals[4] = bad[n].normals[3];
    names[++n] = "wider than FLT_MAX";
    bad[n].count = 3;
    bad[n].vertices[0] = rc_v2(-3e38f, 0);
    bad[n].vertices[1] = rc_v2(3e38f, 0);
    bad[n].vertices[2] = rc_v2(0, 1);
    bad[n].normals[0] = rc_v2(0, -1);
    bad[n].normals[1] = rc_normalize(rc_v2(1, 3e38f));
    bad[n].normals[2] = rc_normalize(rc_v2(-1, 3e38f));
    bad[n].centroid = rc_v2(0, 1.0f / 3.0f);
    ck_assert_int_eq(++n, BAD_COUNT);
    return n;
}

/* Are the hit's bytes all still 0x7f, as memset left them? (Bytes, not a struct copy, whose
 * padding an optimiser need not copy.) */
static bool untouched(const rc_ray_hit *h) {
    unsigned char poison[sizeof *h];
    memset(poison, 0x7f, sizeof poison);
    return memcmp(h, poison, sizeof poison) == 0;
}

/* Each pure function that takes an rc_polygon, on input that meets the probe's box; true when it
 * reported something. */
static int pure_answers(const rc_polygon *p) {
    rc_polygon box = probe_box();
    rc_ray_hit h;
    memset(&h, 0x7f, sizeof h);
    rc_manifold m;
    int answers = 0;
    answers += rc_ray_cast_polygon(p, rc_v2(0, 0), rc_v2(0, 20), &h);
    answers += rc_circle_cast_polygon(p, rc_v2(0, 0), 0.25f, rc_v2(0, 20), &h);
    answers += rc_collide_polygon_circle(p, (rc_circle){{0, 10}, 1.0f}, &m);
    answers += rc_collide_polygons(p, &box, &m);
    answers += rc_collide_polygons(&box, p, &m);
    answers += rc_collide_segment_polygon(rc_v2(-5, 10), rc_v2(5, 10), p, &m);
    if (answers == 0) {
        ck_assert(untouched(&h)); /* a refused cast writes nothing */
    }
    return answers;
}

START_TEST(polygons_rc_make_polygon_would_not_give_are_refused) {
    rc_polygon bad[BAD_COUNT];
    const char *names[BAD_COUNT];
    int n = bad_polygons(bad, names);
    /* the world of the probe: a static box 40 x 2 about the origin */
    ws_errors errs;
    memset(&errs, 0, sizeof errs);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = ws_error_fn;
    wd.error_user = &errs;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id floor = rc_shape_create_box(w, ground, &sd, 20, 1);
    ck_assert(!rc_shape_id_is_null(floor));
    rc_query_filter all = rc_default_query_filter();
    /* the probe's box itself is taken: it meets the floor and every pure function answers */
    rc_polygon box = probe_box();
    rc_ray_hit h;
    ck_assert(rc_world_cast_polygon(w, &box, rc_v2(0, -20), all, &h));
    ck_assert_near(h.t, 0.4, 1e-6); /* from 9 down to 1 */
    ck_assert_int_eq(rc_world_overlap_polygon(w, &box, all, NULL, NULL), 0);
    ck_assert_int_eq(pure_answers(&box), 6);
    ck_assert_str_eq(rc_world_last_error(w), "");
    ws_snapshot before, after;
    ws_snapshot_take(&before, w, &ground, 1, &floor, 1);
    for (int k = 0; k < n; ++k) {
        EXPECT(pure_answers(&bad[k]) == 0, "%s: a pure function took it", names[k]);
        for (int q = 0; q < 2; ++q) {
            rc_world_clear_error(w);
            int calls = errs.calls;
            memset(&h, 0x7f, sizeof h);
            bool refused = q == 0 ? !rc_world_cast_polygon(w, &bad[k], rc_v2(0, -20), all, &h) && untouched(&h)
                                  : rc_world_overlap_polygon(w, &bad[k], all, NULL, NULL) == -1;
            const char *name = q == 0 ? "rc_world_cast_polygon" : "rc_world_overlap_polygon";
            EXPECT(refused && strstr(rc_world_last_error(w), name) != NULL && errs.calls == calls + 1,
                   "%s: %s not refused (\"%s\")", name, names[k], rc_world_last_error(w));
        }
    }
    ws_snapshot_take(&after, w, &ground, 1, &floor, 1);
    char why[600];
    ck_assert_msg(ws_snapshot_equal(&before, &after, why, sizeof why), "the world changed: %s", why);
    ws_snapshot_free(&before);
    ws_snapshot_free(&after);
    rc_world_destroy(w);
}
END_TEST

/* A made polygon in a random pose: a box or a regular polygon of the given size (its half width
 * or radius), turned by any angle and moved to within `far` of the origin. */
static rc_polygon random_made(ws_rng *r, float size, float far) {
    rc_polygon p;
    if (ws_chance(r, 0.5)) {
        p = rc_make_box(size, size * ws_range(r, 0.1, 1.0));
    } else {
        p = rc_make_regular_polygon(ws_int(r, 3, RC_MAX_POLYGON_VERTICES), size, ws_range(r, -3.2, 3.2));
    }
    ck_assert_int_ge(p.count, 3);
    rc_transform xf = {{ws_range(r, -far, far), ws_range(r, -far, far)}, rc_rot_from_angle(ws_range(r, -3.2, 3.2))};
    return rc_transform_polygon(xf, &p);
}

/* Every pure function takes it (each meets it: a ray and a circle swept through its centroid, a
 * circle and a segment on it, the polygon against itself), and so do the world's queries (an
 * empty world: no hit, no error). */
static void expect_taken(rc_world *w, const rc_polygon *p, float size, int k) {
    rc_vec2 c = p->centroid, across = rc_v2(0, 3.0f * size);
    rc_ray_hit h;
    rc_manifold m;
    EXPECT(rc_polygon_input_ok(p), "case %d: refused", k);
    EXPECT(rc_ray_cast_polygon(p, rc_sub(c, across), rc_scale(2.0f, across), &h) && !h.started_inside,
           "case %d: the ray missed", k);
    EXPECT(rc_circle_cast_polygon(p, rc_sub(c, across), 0.5f * size, rc_scale(2.0f, across), &h),
           "case %d: the circle missed", k);
    EXPECT(rc_collide_polygon_circle(p, (rc_circle){c, 0.25f * size}, &m), "case %d: the circle", k);
    EXPECT(rc_collide_polygons(p, p, &m), "case %d: itself", k);
    EXPECT(rc_collide_segment_polygon(rc_sub(c, across), rc_add(c, across), p, &m), "case %d: the segment", k);
    rc_world_clear_error(w);
    EXPECT(!rc_world_cast_polygon(w, p, across, rc_default_query_filter(), &h) &&
               rc_world_overlap_polygon(w, p, rc_default_query_filter(), NULL, NULL) == 0 &&
               strcmp(rc_world_last_error(w), "") == 0,
           "case %d: the world refused it (\"%s\")", k, rc_world_last_error(w));
}

START_TEST(made_polygons_in_any_pose_are_taken) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    ws_rng r = {20251130u};
    for (int k = 0; k < 3000; ++k) {
        /* near the origin from 1e-3 to 1e6 across; out to 1e5 from 1 */
        bool near = k % 2 == 0;
        float size = near ? ws_log_range(&r, 1e-3, 1e6) : ws_log_range(&r, 1.0, 1e6);
        rc_polygon p = random_made(&r, size, near ? 10.0f : 1e5f);
        expect_taken(w, &p, size, k);
    }
    /* towards the ends of float range, turned about the origin (the pure functions' own
       arithmetic is in float: the check that gates them is asked) */
    const float sizes[] = {1e-40f, 1e-30f, 1e20f, 1e37f};
    for (int k = 0; k < 4; ++k) {
        for (int a = 0; a < 8; ++a) {
            rc_transform xf = {{0, 0}, rc_rot_from_angle(0.7f * (float)a)};
            rc_polygon box = rc_make_box(sizes[k], 0.5f * sizes[k]);
            rc_polygon triangle = rc_make_regular_polygon(3, sizes[k], 0.1f);
            ck_assert(box.count == 4 && triangle.count == 3);
            box = rc_transform_polygon(xf, &box);
            triangle = rc_transform_polygon(xf, &triangle);
            ck_assert_msg(rc_polygon_input_ok(&box) && rc_polygon_input_ok(&triangle), "size %g angle %d",
                          (double)sizes[k], a);
        }
    }
    rc_world_destroy(w);
}
END_TEST

static Suite *validity_suite(void) {
    Suite *s = suite_create("polygon_validity");
    TCase *t = tcase_create("validity");
    tcase_add_test(t, polygons_rc_make_polygon_would_not_give_are_refused);
    tcase_add_test(t, made_polygons_in_any_pose_are_taken);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(validity_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
