/* Long walls of the level in pieces (broadphase/grid_pieces.c, world/wall_pieces.c). A proxy of
 * pieces answers box and point queries as one proxy whose shape is the union of its pieces'
 * boxes, offered once, checked against a brute force over the boxes; a cast keeps one piece's
 * hit; it goes whole. In a world, a long slanted static wall is in contact only with what comes
 * near it (not with everything inside its box), a crate slides down it across its pieces without
 * passing through, queries report it once, and a moved or retyped level body takes its pieces
 * along. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/grid.h>

#include "broadphase/broadphase.h"
#include "support/testing.h"
#include "support/world_support.h"

#define PIECES 20
#define WALL_USER 7

/* The boxes of PIECES pieces of the line from a to b (lerp in double, rounded outwards). */
static void line_pieces(rc_vec2 a, rc_vec2 b, rc_aabb *boxes) {
    for (int i = 0; i < PIECES; ++i) {
        double t0 = (double)i / PIECES, t1 = (double)(i + 1) / PIECES;
        double x0 = a.x + (b.x - a.x) * t0, y0 = a.y + (b.y - a.y) * t0;
        double x1 = a.x + (b.x - a.x) * t1, y1 = a.y + (b.y - a.y) * t1;
        boxes[i].lower = rc_v2(nextafterf((float)fmin(x0, x1), -INFINITY), nextafterf((float)fmin(y0, y1), -INFINITY));
        boxes[i].upper = rc_v2(nextafterf((float)fmax(x0, x1), INFINITY), nextafterf((float)fmax(y0, y1), INFINITY));
    }
}

typedef struct reports {
    int wall, others;
} reports;

static bool count_report(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    reports *r = context;
    r->wall += user == WALL_USER;
    r->others += user != WALL_USER;
    return true;
}

static bool any_overlaps(const rc_aabb *boxes, rc_aabb q) {
    for (int i = 0; i < PIECES; ++i) {
        if (rc_aabb_overlaps(boxes[i], q)) {
            return true;
        }
    }
    return false;
}

START_TEST(pieces_answer_as_one_proxy) {
    rc_grid_def def = rc_grid_default_def();
    rc_grid *g = rc_grid_create(&def);
    rc_aabb boxes[PIECES];
    line_pieces(rc_v2(-40.0f, 30.0f), rc_v2(60.0f, -7.0f), boxes);
    ws_rng rng = {11};
    for (int i = 0; i < 50; ++i) { /* others, of users 100.. */
        rc_vec2 c = rc_v2(ws_range(&rng, -50, 70), ws_range(&rng, -20, 40));
        rc_aabb b = {{c.x - 0.5f, c.y - 0.5f}, {c.x + 0.5f, c.y + 0.5f}};
        ck_assert_int_ge(rc_grid_insert(g, b, 100 + i), 0);
    }
    rc_aabb backwards[2] = {boxes[1], boxes[0]};
    rc_aabb crossed[3] = {boxes[0], boxes[1], boxes[0]};
    ck_assert_int_eq(rc_grid_insert_pieces(g, crossed, 3, WALL_USER), -1); /* turns back */
    ck_assert(rc_grid_pieces_in_order(backwards, 2)); /* one way or the other: fine */
    ck_assert_int_eq(rc_grid_proxy_count(g), 50);
    int32_t wall = rc_grid_insert_pieces(g, boxes, PIECES, WALL_USER);
    ck_assert_int_ge(wall, 0);
    ck_assert_int_eq(rc_grid_proxy_count(g), 51);
    ck_assert_int_eq(rc_grid_piece_count(g, wall), PIECES);
    int32_t second = rc_grid_next_piece(g, wall);
    ck_assert_int_ge(second, 0);
    ck_assert_int_eq(rc_grid_piece_count(g, second), 0);
    ck_assert(!rc_grid_remove(g, second)); /* a piece goes only with the whole */
    ck_assert(!rc_grid_touch(g, second));
    for (int k = 0; k < 4000; ++k) {
        rc_vec2 c = rc_v2(ws_range(&rng, -50, 70), ws_range(&rng, -15, 40));
        float hx = ws_log_range(&rng, 0.01, 30), hy = ws_log_range(&rng, 0.01, 30);
        rc_aabb q = {{c.x - hx, c.y - hy}, {c.x + hx, c.y + hy}};
        bool expected = any_overlaps(boxes, q);
        reports r = {0, 0};
        rc_grid_query_aabb(g, q, count_report, &r);
        WS_EXPECT(r.wall == (expected ? 1 : 0), "box %d: the wall reported %d times, expected %d", k, r.wall, expected);
        WS_EXPECT(rc_grid_proxy_overlaps_box(g, wall, q) == expected, "box %d: overlaps_box", k);
        WS_EXPECT(rc_grid_proxy_overlaps_box(g, second, q) == expected, "box %d: overlaps_box by a piece", k);
        /* points: reported once, and held first by exactly one piece (the first one when none) */
        r = (reports){0, 0};
        rc_grid_query_point(g, c, count_report, &r);
        rc_aabb pt = {c, c};
        expected = any_overlaps(boxes, pt);
        WS_EXPECT(r.wall == (expected ? 1 : 0), "point %d: the wall reported %d times", k, r.wall);
        int holders = 0, first_holder = -1, i = 0;
        for (int32_t piece = wall; piece >= 0; piece = rc_grid_next_piece(g, piece), ++i) {
            if (rc_grid_piece_holds_first(g, piece, c)) {
                holders++;
                first_holder = first_holder < 0 ? i : first_holder;
            }
        }
        int lowest = -1;
        for (int j = 0; j < PIECES && lowest < 0; ++j) {
            lowest = rc_aabb_contains_point(boxes[j], c) ? j : -1;
        }
        WS_EXPECT(holders == 1 && first_holder == (lowest >= 0 ? lowest : 0), "point %d: %d holders, first %d, expected %d",
               k, holders, first_holder, lowest);
    }
    /* the whole goes at once */
    ck_assert(rc_grid_remove(g, wall));
    ck_assert_int_eq(rc_grid_proxy_count(g), 50);
    reports r = {0, 0};
    rc_aabb all = {{-1000, -1000}, {1000, 1000}};
    rc_grid_query_aabb(g, all, count_report, &r);
    ck_assert_int_eq(r.wall, 0);
    ck_assert_int_eq(r.others, 50);
    rc_grid_destroy(g);
}
END_TEST

/* ---- in a world ----------------------------------------------------------------------------- */

/* A level of one slanted wall from (-100, -100) to (100, 100) (283 units: pieces of 5) and a
 * floor far below. */
static rc_world *wall_world(rc_vec2 gravity, rc_body_id *level, rc_shape_id *wall) {
    rc_world *w = ws_make_world(gravity);
    *level = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 line[2] = {{-100, -100}, {100, 100}};
    *wall = rc_shape_create_chain(w, *level, &sd, line, 2, false);
    ck_assert(!rc_shape_id_is_null(*wall));
    return w;
}

static rc_body_id crate_at(rc_world *w, rc_vec2 p) {
    rc_body_id b = ws_body(w, RC_DYNAMIC, p, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    return b;
}

START_TEST(a_long_wall_touches_only_what_is_near) {
    rc_body_id level;
    rc_shape_id wall;
    rc_world *w = wall_world(rc_v2(0, 0), &level, &wall);
    /* inside the wall's box, 35 units from it: no contact (one box would have made one) */
    rc_body_id far = crate_at(w, rc_v2(50, 0));
    ck_assert(rc_body_set_linear_velocity(w, far, rc_v2(0.0f, 0.1f)));
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert_int_eq(rc_world_get_counters(w).contacts, 0);
    /* a crate near the wall: a contact */
    rc_body_id near = crate_at(w, rc_v2(10.9f, 10.0f));
    (void)near;
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert_int_eq(rc_world_get_counters(w).contacts, 1);
    rc_world_destroy(w);
}
END_TEST

/* Under gravity a crate set on the wall slides down it (friction 0.6 on 45 degrees: it slides),
 * over many pieces, never through it, in one contact from start to end (a contact that ended
 * between two pieces would drop it, or report an end and a begin). */
START_TEST(a_crate_slides_down_a_long_wall) {
    rc_body_id level;
    rc_shape_id wall;
    rc_world *w = wall_world(rc_v2(0, -10), &level, &wall);
    /* resting on the upper side: centre 0.5 * sqrt(2) above the line along its normal */
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(60.0f - 0.71f, 60.0f + 0.71f), (float)(M_PI / 4));
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f)));
    double lowest = 1e9;
    int begins = 0, ends = 0;
    for (int i = 0; i < 240; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        rc_contact_events ev = rc_world_contact_events(w);
        begins += ev.begin_count;
        ends += ev.end_count;
        rc_vec2 p = rc_body_position(w, crate);
        double above = ((double)p.y - (double)p.x) / sqrt(2.0); /* the centre's distance above the line */
        lowest = fmin(lowest, above);
    }
    /* 4 s at g (sin 45 - 0.6 cos 45) = 2.83 units/s^2: 22.6 units along the wall, 4 pieces and more */
    rc_vec2 p = rc_body_position(w, crate);
    double slid = (60.0 - 0.71 - (double)p.x) * sqrt(2.0), expected = 0.5 * 10.0 * (1.0 - 0.6) / sqrt(2.0) * 16.0;
    ck_assert_msg(fabs(slid - expected) < 0.1 * expected, "the crate slid %g units, expected %g", slid, expected);
    ck_assert_msg(lowest > 0.45, "the crate sank to %g above the wall", lowest);
    /* one contact all the way down: begun once, never ended between two pieces */
    ck_assert_int_eq(begins, 1);
    ck_assert_int_eq(ends, 0);
    rc_world_destroy(w);
}
END_TEST

static float count_hit(const rc_ray_hit *hit, void *context) {
    (void)hit;
    ++*(int *)context;
    return 1.0f;
}

static bool count_overlap(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    ++*(int *)context;
    return true;
}

START_TEST(queries_meet_a_long_wall_once) {
    rc_body_id level;
    rc_shape_id wall;
    rc_world *w = wall_world(rc_v2(0, 0), &level, &wall);
    ws_rng rng = {5};
    rc_query_filter all = rc_default_query_filter();
    for (int k = 0; k < 500; ++k) {
        /* across the wall at a random place and angle, long enough to cross several pieces' boxes */
        double s = ws_range(&rng, -95, 95), a = ws_range(&rng, 0.05, 3.09), len = ws_range(&rng, 1, 60);
        rc_vec2 dir = rc_v2((float)cos(a + M_PI / 4), (float)sin(a + M_PI / 4));
        rc_vec2 o = rc_v2((float)(s - dir.x * len * 0.5), (float)(s - dir.y * len * 0.5));
        rc_vec2 d = rc_v2(dir.x * (float)len, dir.y * (float)len);
        int hits = 0;
        ck_assert(rc_world_cast_ray_all(w, o, d, all, count_hit, &hits));
        WS_EXPECT(hits == 1, "ray %d met the wall %d times", k, hits);
        hits = 0;
        ck_assert(rc_world_cast_circle_all(w, o, 0.5f, d, all, count_hit, &hits));
        rc_ray_hit closest;
        bool met = rc_world_cast_circle(w, o, 0.5f, d, &closest); /* (not when it starts on the wall) */
        WS_EXPECT(hits == (met ? 1 : 0), "circle %d met the wall %d times (closest: %d at %g, %g  o %g %g d %g %g)", k, hits, met,
                  (double)closest.point.x, (double)closest.point.y, (double)o.x, (double)o.y, (double)d.x, (double)d.y);
        rc_ray_hit hit;
        ck_assert(rc_world_cast_ray(w, o, d, &hit) && !rc_shape_id_is_null(hit.shape));
        WS_EXPECT(fabs((double)hit.point.x - (double)hit.point.y) < 1e-4, "ray %d hit (%g, %g), off the line", k,
               (double)hit.point.x, (double)hit.point.y);
        /* a box on the wall: once; one in the wall's box 20 units off the line: none */
        int found = 0;
        rc_aabb on = {{(float)s - 1, (float)s - 1}, {(float)s + 1, (float)s + 1}};
        ck_assert_int_eq(rc_world_overlap_aabb(w, on, all, count_overlap, &found), 1);
        ck_assert_int_eq(found, 1);
        rc_aabb off = {{(float)s + 14 - 1, (float)s - 14 - 1}, {(float)s + 14 + 1, (float)s - 14 + 1}};
        ck_assert_int_eq(rc_world_overlap_aabb(w, off, all, NULL, NULL), 0);
    }
    rc_world_destroy(w);
}
END_TEST

/* A moved level body's wall is where the body put it (its pieces moved along), as is one made
 * kinematic and static again, and one restored from a snapshot. */
START_TEST(a_moved_level_takes_its_wall_pieces) {
    rc_body_id level;
    rc_shape_id wall;
    rc_world *w = wall_world(rc_v2(0, 0), &level, &wall);
    rc_ray_hit hit;
    ck_assert(rc_body_set_transform(w, level, rc_v2(0, 50), 0.0f));
    /* a ray at x = 70 meets the wall at y = 120, no longer at 70 */
    ck_assert(rc_world_cast_ray(w, rc_v2(70, 0), rc_v2(0, 200), &hit));
    ck_assert_double_eq_tol(hit.point.y, 120.0, 1e-3);
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{69, 69}, {71, 71}}, rc_default_query_filter(), NULL, NULL), 0);
    ck_assert(rc_body_set_type(w, level, RC_KINEMATIC));
    ck_assert(rc_world_cast_ray(w, rc_v2(70, 0), rc_v2(0, 200), &hit));
    ck_assert_double_eq_tol(hit.point.y, 120.0, 1e-3);
    ck_assert(rc_body_set_type(w, level, RC_STATIC));
    ck_assert(rc_body_set_transform(w, level, rc_v2(0, 0), 0.0f));
    ck_assert(rc_world_cast_ray(w, rc_v2(70, 0), rc_v2(0, 200), &hit));
    ck_assert_double_eq_tol(hit.point.y, 70.0, 1e-3);
    int hits = 0;
    ck_assert(rc_world_cast_ray_all(w, rc_v2(70, 0), rc_v2(0, 200), rc_default_query_filter(), count_hit, &hits));
    ck_assert_int_eq(hits, 1);
    /* a snapshot restored into a new world: the same wall, once */
    size_t size = rc_world_snapshot_size(w);
    void *bytes = malloc(size);
    ck_assert(bytes != NULL && rc_world_snapshot(w, bytes, size) == size);
    rc_world *copy = ws_make_world(rc_v2(0, 0));
    ck_assert(rc_world_restore(copy, bytes, size));
    ck_assert(rc_world_cast_ray(copy, rc_v2(70, 0), rc_v2(0, 200), &hit));
    ck_assert_double_eq_tol(hit.point.y, 70.0, 1e-3);
    hits = 0;
    ck_assert(rc_world_cast_ray_all(copy, rc_v2(70, 0), rc_v2(0, 200), rc_default_query_filter(), count_hit, &hits));
    ck_assert_int_eq(hits, 1);
    ck_assert_int_eq(rc_world_get_counters(copy).broadphase_proxies, rc_world_get_counters(w).broadphase_proxies);
    free(bytes);
    rc_world_destroy(copy);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("wall_pieces");
    TCase *grid = tcase_create("grid");
    tcase_add_test(grid, pieces_answer_as_one_proxy);
    suite_add_tcase(s, grid);
    TCase *world = tcase_create("world");
    tcase_add_test(world, a_long_wall_touches_only_what_is_near);
    tcase_add_test(world, a_crate_slides_down_a_long_wall);
    tcase_add_test(world, queries_meet_a_long_wall_once);
    tcase_add_test(world, a_moved_level_takes_its_wall_pieces);
    suite_add_tcase(s, world);
    return rc_test_run(s);
}
