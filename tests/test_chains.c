/* Chains: level outlines of segments, open or looped, two-sided or one-sided; the sector
 * queries; rays, bullets and grenades against them.
 *
 * Expected values are worked out by hand (axis-aligned walls, round numbers) or come from an
 * independent reference: rc_point_in_polygon on the same points for the crossing rule, and the
 * side of a wall's line in double precision for tunnelling. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float DT = 1.0f / 60.0f;
static const float SKIN = 1.0e-4f;

static rc_shape_id chain(rc_world *w, rc_body_id b, const rc_vec2 *p, int n, bool loop, bool one_sided, float e,
                         float mu) {
    rc_shape_def sd = rc_shape_default_def();
    sd.one_sided = one_sided;
    sd.restitution = e;
    sd.friction = mu;
    rc_shape_id s = rc_shape_create_chain(w, b, &sd, p, n, loop);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

/* An L-shaped room, counter-clockwise: the square [0, 20] x [0, 20] less [10, 20] x [10, 20]. */
static const rc_vec2 L_ROOM[6] = {{0, 0}, {20, 0}, {20, 10}, {10, 10}, {10, 20}, {0, 20}};

static void reversed(const rc_vec2 *p, int n, rc_vec2 *out) {
    for (int i = 0; i < n; ++i) {
        out[i] = p[n - 1 - i];
    }
}

/* ---- making chains ------------------------------------------------------------------------- */

START_TEST(chain_has_a_segment_per_wall) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    rc_shape_id open = chain(w, b, L_ROOM, 6, false, false, 0, 0.6f);
    rc_shape_id loop = chain(w, b, L_ROOM, 6, true, false, 0, 0.6f);
    ck_assert_int_eq(rc_shape_get_type(w, open), RC_SHAPE_TYPE_CHAIN);
    ck_assert_int_eq(rc_shape_chain_segments(w, open, NULL, 0), 5);
    ck_assert_int_eq(rc_shape_chain_segments(w, loop, NULL, 0), 6);
    ck_assert(!rc_shape_chain_is_loop(w, open));
    ck_assert(rc_shape_chain_is_loop(w, loop));
    /* every segment is a shape of its own, with its own proxy */
    ck_assert_int_eq(rc_world_get_counters(w).broadphase_proxies, 11);
    ck_assert_int_eq(rc_body_shapes(w, b, NULL, 0), 11);
    rc_shape_id seg[6];
    ck_assert_int_eq(rc_shape_chain_segments(w, loop, seg, 6), 6);
    for (int k = 0; k < 6; ++k) {
        ck_assert_int_eq(rc_shape_get_type(w, seg[k]), RC_SHAPE_TYPE_SEGMENT);
        ck_assert(rc_shape_id_equals(rc_shape_chain(w, seg[k]), loop));
        rc_vec2 a, c;
        ck_assert(rc_shape_world_segment(w, seg[k], &a, &c));
        ck_assert_vec_eq(a, L_ROOM[k].x, L_ROOM[k].y);
        ck_assert_vec_eq(c, L_ROOM[(k + 1) % 6].x, L_ROOM[(k + 1) % 6].y);
    }
    rc_aabb box = rc_shape_aabb(w, loop);
    ck_assert_vec_eq(box.lower, 0, 0);
    ck_assert_vec_eq(box.upper, 20, 20);
    rc_world_destroy(w);
}
END_TEST

START_TEST(chain_welds_repeated_points_and_keeps_its_order_in_both_windings) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    /* repeats in the middle and the loop closed by repeating its first point */
    rc_vec2 p[9] = {{0, 0}, {0, 0}, {20, 0}, {20, 10}, {20, 10}, {10, 10}, {10, 20}, {0, 20}, {0, 0}};
    rc_shape_id c = chain(w, b, p, 9, true, true, 0, 0.6f);
    ck_assert_int_eq(rc_shape_chain_points(w, c, NULL, 0), 6);
    rc_vec2 got[6];
    ck_assert_int_eq(rc_shape_chain_points(w, c, got, 6), 6);
    for (int i = 0; i < 6; ++i) {
        ck_assert_vec_eq(got[i], L_ROOM[i].x, L_ROOM[i].y);
    }
    /* clockwise: the segments still run in the order given */
    rc_vec2 cw[6];
    reversed(L_ROOM, 6, cw);
    rc_shape_id d = chain(w, b, cw, 6, true, true, 0, 0.6f);
    rc_shape_id seg[6];
    ck_assert_int_eq(rc_shape_chain_segments(w, d, seg, 6), 6);
    for (int k = 0; k < 6; ++k) {
        rc_vec2 a, e;
        ck_assert(rc_shape_world_segment(w, seg[k], &a, &e));
        ck_assert_vec_eq(a, cw[k].x, cw[k].y);
        ck_assert_vec_eq(e, cw[(k + 1) % 6].x, cw[(k + 1) % 6].y);
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(chain_takes_its_base_transform_and_follows_its_body) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(100, 0);
    sd.scale = rc_v2(2, -1); /* a mirror: the loop turns clockwise once placed */
    rc_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    rc_shape_id c = rc_shape_create_chain(w, b, &sd, tri, 3, true);
    ck_assert(!rc_shape_id_is_null(c));
    rc_vec2 got[3];
    ck_assert_int_eq(rc_shape_chain_points(w, c, got, 3), 3);
    ck_assert_vec_eq(got[1], 102, 0);
    ck_assert_vec_eq(got[2], 100, -1);
    /* its inside is the placed triangle's */
    ck_assert(rc_shape_test_point(w, c, rc_v2(100.5f, -0.25f)));
    ck_assert(!rc_shape_test_point(w, c, rc_v2(100.5f, 0.25f)));
    /* moving the body moves every wall (and the grid's copies) */
    ck_assert(rc_body_set_transform(w, b, rc_v2(0, 10), 0.0f));
    ck_assert_int_eq(rc_shape_chain_points(w, c, got, 3), 3);
    ck_assert_vec_eq(got[1], 102, 10);
    rc_ray_hit hit;
    ck_assert(rc_world_cast_ray(w, rc_v2(101, 20), rc_v2(0, -20), &hit));
    ck_assert_near(hit.t, 0.5, 1e-6); /* the wall from (100, 10) to (102, 10) */
    ck_assert_vec_eq(hit.normal, 0, 1);
    ck_assert(rc_shape_id_equals(rc_shape_chain(w, hit.shape), c));
    rc_aabb box = rc_shape_aabb(w, c);
    ck_assert_vec_eq(box.lower, 100, 9);
    ck_assert_vec_eq(box.upper, 102, 10);
    rc_world_destroy(w);
}
END_TEST

START_TEST(chain_refuses_bad_input_and_changes_nothing) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 line[3] = {{0, 0}, {1, 1}, {2, 2}};
    rc_vec2 bad[3] = {{0, 0}, {NAN, 1}, {2, 0}};
    rc_vec2 same[3] = {{1, 1}, {1, 1}, {1, 1}};
    rc_vec2 tiny[3] = {{0, 0}, {1e-30f, 0}, {0, 1}};
    ws_snapshot before, after;
    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    ws_snapshot_take(&before, w, &b, 1, NULL, 0);
    struct {
        const rc_vec2 *p;
        int n;
        bool loop;
        const char *why;
    } cases[] = {
        {NULL, 3, false, "points NULL"},
        {L_ROOM, 1, false, "count 1"},
        {L_ROOM, 2, true, "loop of 2"},
        {L_ROOM, -5, false, "negative count"},
        {bad, 3, false, "NaN"},
        {same, 3, false, "one distinct point"},
        {line, 3, true, "loop with no area"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ck_assert_msg(rc_shape_id_is_null(rc_shape_create_chain(w, b, &sd, cases[i].p, cases[i].n, cases[i].loop)),
                      "%s accepted", cases[i].why);
        ck_assert_msg(strstr(rc_world_last_error(w), "rc_shape_create_chain") != NULL, "%s", cases[i].why);
    }
    /* neighbours that land on one float point once placed */
    sd.offset = rc_v2(1e8f, 0);
    ck_assert(rc_shape_id_is_null(rc_shape_create_chain(w, b, &sd, tiny, 3, false)));
    sd = rc_shape_default_def();
    sd.is_sensor = true;
    ck_assert(rc_shape_id_is_null(rc_shape_create_chain(w, b, &sd, L_ROOM, 6, true)));
    sd = rc_shape_default_def();
    rc_body_def dd = rc_body_default_def();
    dd.type = RC_DYNAMIC;
    rc_body_id dyn = rc_body_create(w, &dd);
    ck_assert(rc_shape_id_is_null(rc_shape_create_chain(w, dyn, &sd, L_ROOM, 6, true)));
    ck_assert(rc_shape_id_is_null(rc_shape_create_chain(w, RC_NULL_BODY_ID, &sd, L_ROOM, 6, true)));
    rc_body_destroy(w, dyn);
    ws_snapshot_take(&after, w, &b, 1, NULL, 0);
    char why[256];
    ck_assert_msg(ws_snapshot_equal(&before, &after, why, sizeof why), "%s", why);
    ws_snapshot_free(&before);
    ws_snapshot_free(&after);
    /* a made chain: its segments are not destroyed alone, its body does not turn dynamic, its
       base transform is fixed */
    rc_shape_id c = chain(w, b, L_ROOM, 6, true, false, 0, 0.6f);
    rc_shape_id seg;
    ck_assert_int_eq(rc_shape_chain_segments(w, c, &seg, 1), 6);
    rc_shape_destroy(w, seg);
    ck_assert(rc_shape_is_valid(w, seg));
    ck_assert(strstr(rc_world_last_error(w), "chain") != NULL);
    ck_assert(!rc_body_set_type(w, b, RC_DYNAMIC));
    ck_assert_int_eq(rc_body_get_type(w, b), RC_STATIC);
    ck_assert(rc_body_set_type(w, b, RC_KINEMATIC));
    ck_assert(!rc_shape_set_base_transform(w, c, rc_v2(1, 0), 0, rc_v2(1, 1)));
    ck_assert(!rc_shape_set_base_transform(w, seg, rc_v2(1, 0), 0, rc_v2(1, 1)));
    rc_vec2 a, e;
    ck_assert(!rc_shape_world_segment(w, c, &a, &e));
    ck_assert_int_eq(rc_shape_chain_points(w, seg, NULL, 0), -1);
    rc_world_destroy(w);
}
END_TEST

START_TEST(destroying_a_chain_takes_its_segments_and_stale_ids_stay_stale) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id b = ws_static_body(w);
    rc_shape_id c = chain(w, b, L_ROOM, 6, true, false, 0, 0.6f);
    rc_shape_id seg[6];
    rc_shape_chain_segments(w, c, seg, 6);
    /* a grenade resting on the floor has a contact with a segment */
    rc_body_id g = ws_circle_body(w, rc_v2(5, 0.5f), rc_v2(0, 0), 0.5f, 0, 0.6f, false);
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    rc_shape_id touching[4];
    ck_assert_int_eq(rc_shape_contacts(w, c, touching, 4), 1);
    rc_shape_destroy(w, c);
    ck_assert(!rc_shape_is_valid(w, c));
    for (int k = 0; k < 6; ++k) {
        ck_assert(!rc_shape_is_valid(w, seg[k]));
    }
    ck_assert_int_eq(rc_body_shapes(w, b, NULL, 0), 0);
    ck_assert_int_eq(rc_world_get_counters(w).broadphase_proxies, 1);
    /* the contact ended: the grenade falls */
    ck_assert(rc_world_step(w, DT));
    ck_assert(rc_world_step(w, DT));
    ck_assert(rc_body_position(w, g).y < 0.5f);
    /* the slots are used again; the old ids do not come back to life */
    rc_shape_id again = chain(w, b, L_ROOM, 6, true, false, 0, 0.6f);
    ck_assert(!rc_shape_is_valid(w, c));
    for (int k = 0; k < 6; ++k) {
        ck_assert(!rc_shape_is_valid(w, seg[k]));
    }
    ck_assert(rc_shape_is_valid(w, again));
    /* destroying the body takes its chains */
    rc_body_destroy(w, b);
    ck_assert(!rc_shape_is_valid(w, again));
    ck_assert_int_eq(rc_world_get_counters(w).broadphase_proxies, 1);
    rc_world_destroy(w);
}
END_TEST

/* ---- sectors: inside a loop --------------------------------------------------------------------- */

START_TEST(test_point_follows_the_crossing_rule_in_both_windings) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    ws_rng g = {11};
    long compared = 0;
    for (int round = 0; round < 40; ++round) {
        /* a random star-shaped outline: concave, both windings */
        int n = ws_int(&g, 3, 40);
        rc_vec2 p[40], q[40];
        rc_vec2 c = rc_v2(ws_range(&g, -1000, 1000), ws_range(&g, -1000, 1000));
        for (int i = 0; i < n; ++i) {
            float a = 6.2831853f * (float)i / (float)n;
            float r = ws_range(&g, 1, 50);
            p[i] = rc_v2(c.x + r * cosf(a), c.y + r * sinf(a));
        }
        bool cw = round % 2 == 1;
        if (cw) {
            reversed(p, n, q);
            memcpy(p, q, sizeof(rc_vec2) * (size_t)n);
        }
        rc_shape_id s = chain(w, b, p, n, true, round % 4 < 2, 0, 0.6f);
        rc_shape_id open = chain(w, b, p, n, false, false, 0, 0.6f);
        for (int k = 0; k < 500; ++k) {
            rc_vec2 t = rc_v2(c.x + ws_range(&g, -55, 55), c.y + ws_range(&g, -55, 55));
            EXPECT(rc_shape_test_point(w, s, t) == rc_point_in_polygon(t, p, n), "round %d point (%a, %a)", round,
                   (double)t.x, (double)t.y);
            EXPECT(!rc_shape_test_point(w, open, t), "an open chain has no inside");
            compared++;
        }
        rc_shape_destroy(w, s);
        rc_shape_destroy(w, open);
    }
    fprintf(stderr, "[chains] test_point against rc_point_in_polygon: %ld points\n", compared);
    rc_world_destroy(w);
}
END_TEST

START_TEST(sectors_at_lists_the_loops_holding_a_point) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    rc_vec2 big[4] = {{0, 0}, {100, 0}, {100, 100}, {0, 100}};
    rc_vec2 room[4] = {{10, 10}, {10, 40}, {40, 40}, {40, 10}}; /* clockwise */
    rc_shape_id outer = chain(w, b, big, 4, true, true, 0, 0.6f);
    rc_shape_id inner = chain(w, b, room, 4, true, false, 0, 0.6f);
    rc_shape_id l = chain(w, b, L_ROOM, 6, true, true, 0, 0.6f);
    chain(w, b, big, 4, false, false, 0, 0.6f); /* open: never a sector */
    rc_shape_id ids[4];
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(20, 20), ids, 4), 2);
    ck_assert(rc_shape_id_equals(ids[0], outer) || rc_shape_id_equals(ids[1], outer));
    ck_assert(rc_shape_id_equals(ids[0], inner) || rc_shape_id_equals(ids[1], inner));
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(5, 5), ids, 4), 2); /* the big one and the L */
    ck_assert(rc_shape_id_equals(ids[0], l) || rc_shape_id_equals(ids[1], l));
    /* (15, 15) is in the L's missing quarter: the big one and the room only; capacity 1 still
       counts them all */
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(15, 15), ids, 1), 2);
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(15, 5), ids, 4), 2); /* the big one and the L */
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(200, 5), ids, 4), 0);
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(NAN, 5), ids, 4), -1);
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(1, 5), NULL, 4), -1);
    ck_assert_int_eq(rc_world_sectors_at(NULL, rc_v2(1, 5), ids, 4), -1);
    rc_world_destroy(w);
}
END_TEST

/* Regression (found by the allocation scenario and by fuzz_world): the step moved a kinematic
 * body's walls but not its chain's box (the union of the walls' boxes, which rc_shape_aabb
 * reports and rc_world_sectors_at visits first), so a moving sector was not found where it had
 * gone. Moved by the step, and by a teleport. */
START_TEST(a_moving_sector_takes_its_box_along) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_KINEMATIC;
    bd.linear_velocity = rc_v2(4.0f, 0.0f);
    rc_body_id b = rc_body_create(w, &bd);
    rc_vec2 square[4] = {{-2, -2}, {2, -2}, {2, 2}, {-2, 2}};
    rc_shape_id room = chain(w, b, square, 4, true, false, 0, 0.6f);
    /* four steps of 1/4 s at 4 units/s: exactly 4 units to the right */
    for (int i = 0; i < 4; ++i) {
        ck_assert(rc_world_step(w, 0.25f));
    }
    ck_assert_float_eq(rc_body_position(w, b).x, 4.0f);
    rc_aabb box = rc_shape_aabb(w, room);
    ck_assert_float_eq(box.lower.x, 2.0f);
    ck_assert_float_eq(box.lower.y, -2.0f);
    ck_assert_float_eq(box.upper.x, 6.0f);
    ck_assert_float_eq(box.upper.y, 2.0f);
    rc_shape_id ids[2];
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(5.5f, 0.0f), ids, 2), 1); /* beyond where it started */
    ck_assert(rc_shape_id_equals(ids[0], room));
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(-1.5f, 0.0f), ids, 2), 0); /* where it was */
    ck_assert(rc_shape_test_point(w, room, rc_v2(5.5f, 0.0f)));
    /* a teleport takes it along too */
    ck_assert(rc_body_set_transform(w, b, rc_v2(-10.0f, 3.0f), 0.0f));
    box = rc_shape_aabb(w, room);
    ck_assert_float_eq(box.lower.x, -12.0f);
    ck_assert_float_eq(box.upper.y, 5.0f);
    ck_assert_int_eq(rc_world_sectors_at(w, rc_v2(-11.5f, 4.5f), ids, 2), 1);
    rc_world_destroy(w);
}
END_TEST

/* ---- rays ------------------------------------------------------------------------------------- */

START_TEST(rays_hit_sector_walls_from_inside_and_one_sided_walls_only_from_their_free_side) {
    for (int wind = 0; wind < 2; ++wind) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_id b = ws_static_body(w);
        rc_vec2 p[6];
        if (wind) {
            reversed(L_ROOM, 6, p);
        } else {
            memcpy(p, L_ROOM, sizeof p);
        }
        rc_shape_id room = chain(w, b, p, 6, true, true, 0, 0.6f);
        rc_ray_hit hit;
        /* from inside into the concave corner's wall x = 10 (above y = 10) */
        ck_assert(rc_world_cast_ray(w, rc_v2(5, 15), rc_v2(10, 0), &hit));
        ck_assert_near(hit.t, 0.5, 0);
        ck_assert_vec_eq(hit.point, 10, 15);
        ck_assert_vec_eq(hit.normal, -1, 0);
        ck_assert(rc_shape_id_equals(rc_shape_chain(w, hit.shape), room));
        /* through the reflex vertex (10, 10) from inside: the nearer wall face, t exact */
        ck_assert(rc_world_cast_ray(w, rc_v2(5, 5), rc_v2(10, 10), &hit));
        ck_assert_near(hit.t, 0.5, 1e-7);
        ck_assert_vec_near(hit.point, 10, 10, 1e-5);
        /* from outside, one-sided walls let the ray in and it meets the far wall from inside */
        ck_assert(rc_world_cast_ray(w, rc_v2(-5, 5), rc_v2(30, 0), &hit));
        ck_assert_near(hit.t, 25.0 / 30.0, 1e-6);
        ck_assert_vec_eq(hit.normal, -1, 0);
        /* two-sided: the same ray stops at the first wall */
        rc_shape_destroy(w, room);
        chain(w, b, p, 6, true, false, 0, 0.6f);
        ck_assert(rc_world_cast_ray(w, rc_v2(-5, 5), rc_v2(30, 0), &hit));
        ck_assert_near(hit.t, 5.0 / 30.0, 1e-6);
        ck_assert_vec_eq(hit.normal, -1, 0);
        /* along the floor's line: the ray meets the wall x = 0 at the corner */
        ck_assert(rc_world_cast_ray(w, rc_v2(-5, 0), rc_v2(10, 0), &hit));
        ck_assert_near(hit.t, 0.5, 1e-6);
        rc_world_destroy(w);
    }
}
END_TEST

START_TEST(open_one_sided_chain_blocks_its_left_side_only) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_static_body(w);
    rc_vec2 floor[3] = {{10, 0}, {0, 0}, {-10, 0}}; /* running -x: its left is -y */
    chain(w, b, floor, 3, false, true, 0, 0.6f);
    rc_ray_hit hit;
    ck_assert(!rc_world_cast_ray(w, rc_v2(1, 5), rc_v2(0, -10), &hit));
    ck_assert(rc_world_cast_ray(w, rc_v2(1, -5), rc_v2(0, 10), &hit));
    ck_assert_vec_eq(hit.normal, 0, -1);
    ck_assert(!rc_world_cast_circle(w, rc_v2(1, 5), 0.5f, rc_v2(0, -10), &hit));
    ck_assert(rc_world_cast_circle(w, rc_v2(1, -5), 0.5f, rc_v2(0, 10), &hit));
    ck_assert_near(hit.t, 0.45, 1e-6);
    rc_world_destroy(w);
}
END_TEST

/* ---- bullets and grenades ------------------------------------------------------------------------ */

/* As the projectile suite's hand-worked ricochet, against a chain's floor at y = -0.5: the
 * bullet at (0, 0) moving (60, -60) meets it at t = 0.5 at (0.5, -0.5) and spends the other half
 * step on its mirrored path, a skin off the wall. */
START_TEST(bullet_ricochets_off_a_chain_wall) {
    for (int one_sided = 0; one_sided < 2; ++one_sided) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_id ground = ws_static_body(w);
        /* the floor in short pieces, the hit on a joint's neighbour */
        rc_vec2 floor[5] = {{-10, -0.5f}, {0.25f, -0.5f}, {0.5f, -0.5f}, {0.75f, -0.5f}, {10, -0.5f}};
        rc_vec2 back[5];
        reversed(floor, 5, back);
        /* one-sided, the floor runs +x: its free side (the left) is up; two-sided, either way */
        rc_shape_id c = chain(w, ground, one_sided ? floor : back, 5, false, one_sided != 0, 1.0f, 0.0f);
        rc_body_id b = ws_point_bullet(w, rc_v2(0, 0), rc_v2(60, -60), 8);
        ck_assert(rc_world_step(w, DT));
        ck_assert_vec_near(rc_body_linear_velocity(w, b), 60, 60, 1e-4);
        ck_assert_vec_near(rc_body_position(w, b), 0.5f + 0.5f, -0.5f + SKIN + 0.5f, 2e-6);
        const rc_impact_event *ev;
        ck_assert_int_eq(rc_world_impact_events(w, &ev), 1);
        ck_assert(rc_shape_id_equals(rc_shape_chain(w, ev[0].shape), c));
        ck_assert_vec_near(ev[0].point, 0.5, -0.5, 1e-6);
        ck_assert_vec_eq(ev[0].normal, 0, 1);
        rc_world_destroy(w);
    }
}
END_TEST

/* Walls with no thickness at all: a single segment, random angles and speeds up to 20,000
 * units/s; a body that starts on one side never ends a step on the other. */
START_TEST(nothing_crosses_a_wall_of_no_thickness) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id walls = ws_static_body(w);
    rc_vec2 wall[2] = {{5, -1.0e5f}, {5, 1.0e5f}}; /* longer than anything travels in 30 steps */
    chain(w, walls, wall, 2, false, false, 0.5f, 0.5f);
    ws_rng g = {17};
    enum { N = 1500 };
    rc_body_id id[N];
    float radius[N];
    for (int i = 0; i < N; ++i) {
        float a = ws_range(&g, -1.5, 1.5);
        float s = ws_log_range(&g, 10, 20000);
        rc_vec2 v = rc_v2(s * cosf(a), s * sinf(a));
        radius[i] = i % 3 == 0 ? 0.0f : ws_log_range(&g, 0.01, 0.5);
        rc_vec2 p = rc_v2(ws_range(&g, -5, 4.4), ws_range(&g, -50, 50));
        id[i] = radius[i] == 0.0f ? ws_point_bullet(w, p, v, ws_int(&g, 0, 8))
                                  : ws_circle_body(w, p, v, radius[i], 0.5f, 0.5f, i % 3 == 1);
    }
    long escapes = 0, checks = 0;
    for (int step = 0; step < 30; ++step) {
        ck_assert(rc_world_step(w, DT));
        for (int i = 0; i < N; ++i) {
            rc_vec2 p = rc_body_position(w, id[i]);
            checks++;
            if (!((double)p.x + (double)radius[i] < 5.0)) {
                if (escapes < 3) {
                    fprintf(stderr, "[chains] through the wall: body %d (radius %g) at (%.9g, %.9g) step %d\n", i,
                            (double)radius[i], (double)p.x, (double)p.y, step);
                }
                escapes++;
            }
        }
    }
    fprintf(stderr, "[chains] wall of no thickness: %d bodies, %ld positions checked, %ld through\n", N, checks,
            escapes);
    ck_assert_int_eq(escapes, 0);
    rc_world_destroy(w);
}
END_TEST

/* A concave one-sided sector (the L room, scaled up, both windings): bullets and grenades fired
 * inside it at up to 20,000 units/s never leave it. */
START_TEST(nothing_leaves_a_concave_sector) {
    for (int wind = 0; wind < 2; ++wind) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        rc_body_id walls = ws_static_body(w);
        rc_vec2 p[6];
        for (int i = 0; i < 6; ++i) {
            p[wind ? 5 - i : i] = rc_v2(L_ROOM[i].x * 5.0f, L_ROOM[i].y * 5.0f);
        }
        rc_shape_id room = chain(w, walls, p, 6, true, true, 0.7f, 0.3f);
        ws_rng g = {(uint64_t)(23 + wind)};
        enum { N = 1200 };
        rc_body_id id[N];
        float radius[N];
        for (int i = 0; i < N; ++i) {
            radius[i] = i % 2 == 0 ? 0.0f : ws_log_range(&g, 0.05, 2);
            rc_vec2 at;
            do {
                at = rc_v2(ws_range(&g, 3, 97), ws_range(&g, 3, 97));
            } while (at.x > 47 && at.y > 47);
            float a = ws_range(&g, 0, 6.2831853);
            float s = ws_log_range(&g, 10, 20000);
            rc_vec2 v = rc_v2(s * cosf(a), s * sinf(a));
            id[i] = radius[i] == 0.0f ? ws_point_bullet(w, at, v, 8) : ws_circle_body(w, at, v, radius[i], 0.7f, 0.3f, i % 4 == 1);
        }
        long escapes = 0;
        for (int step = 0; step < 60; ++step) {
            ck_assert(rc_world_step(w, DT));
            for (int i = 0; i < N; ++i) {
                rc_vec2 q = rc_body_position(w, id[i]);
                if (!rc_point_in_polygon(q, p, 6) || !rc_shape_test_point(w, room, q)) {
                    if (escapes < 3) {
                        fprintf(stderr, "[chains] out of the sector: body %d (radius %g) at (%.9g, %.9g) step %d\n", i,
                                (double)radius[i], (double)q.x, (double)q.y, step);
                    }
                    escapes++;
                }
            }
        }
        fprintf(stderr, "[chains] concave sector (%s): %d bodies x 60 steps, %ld outside\n",
                wind ? "clockwise" : "counter-clockwise", N, escapes);
        ck_assert_int_eq(escapes, 0);
        rc_world_destroy(w);
    }
}
END_TEST

/* Point bullets a hair from a wall of a one-sided square room (within its skin, where a slide
 * or a pinch leaves them), each moving towards the wall by a little less than its gap, in all
 * directions along it, corners included: a path the cast finds clear may end, rounded, on the
 * wall's line, which then no longer faces the point (stop 62's probe: a point pinched in the
 * corner 7e-6 from the wall was pushed 6.4e-6 towards it, ended on the line and fell out). None
 * ends a step outside the room, or on a wall's line, by the side of each line in double
 * precision; a room of half-size 10 at the origin, and one of 100 at (1000, -500), where floats
 * are coarser; each of a one-sided chain and of boxes 0.01 thick (a point ended on a box's face
 * alike, stood inside the wall, stopped as if spawned there, and never moved again). */
START_TEST(points_moving_within_a_walls_skin_never_leave_a_one_sided_room) {
    for (int room = 0; room < 4; ++room) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        rc_body_id walls = ws_static_body(w);
        const float H = room % 2 ? 100.0f : 10.0f;
        const rc_vec2 o = room % 2 ? rc_v2(1000, -500) : rc_v2(0, 0);
        rc_vec2 p[4] = {{o.x - H, o.y - H}, {o.x + H, o.y - H}, {o.x + H, o.y + H}, {o.x - H, o.y + H}};
        if (room < 2) {
            chain(w, walls, p, 4, true, true, 0.0f, 0.0f); /* counter-clockwise: free inside */
        } else {
            /* the same room of boxes 0.01 thick, their inner faces on those lines */
            const float T = 0.005f;
            const rc_vec2 at[4] = {{o.x, o.y - H - T}, {o.x + H + T, o.y}, {o.x, o.y + H + T}, {o.x - H - T, o.y}};
            for (int k = 0; k < 4; ++k) {
                rc_body_id wall = ws_body(w, RC_STATIC, at[k], 0.0f);
                rc_shape_def sd = rc_shape_default_def();
                sd.friction = 0.0f;
                ck_assert(!rc_shape_id_is_null(
                    rc_shape_create_box(w, wall, &sd, k % 2 ? T : H + 2.0f * T, k % 2 ? H + 2.0f * T : T)));
            }
        }
        /* gaps from a few float spacings at the room's coordinates to twice the skin there */
        double spacing = FLT_EPSILON * (fabs(o.x) + fabs(o.y) + H), skin = fmax(SKIN, 4.0 * spacing);
        ws_rng g = {(uint64_t)(71 + room)};
        enum { N = 4000 };
        rc_body_id id[N];
        for (int i = 0; i < N; ++i) {
            int side = ws_int(&g, 0, 3); /* the wall it starts by: bottom, right, top, left */
            float gap = ws_log_range(&g, 2.0 * spacing, 2.0 * skin), share = ws_range(&g, 0.98, 1.0);
            /* along the wall: anywhere, a third of them within 0.01 of a corner */
            float along = i % 3 == 0 ? (ws_int(&g, 0, 1) ? 1.0f : -1.0f) * (H - ws_log_range(&g, 2.0 * spacing, 0.01))
                                     : ws_range(&g, -H + 0.01, H - 0.01);
            float into = gap * share / DT, slide = ws_range(&g, -3, 3);
            rc_vec2 at, v;
            if (side == 0) {
                at = rc_v2(o.x + along, o.y - H + gap), v = rc_v2(slide, -into);
            } else if (side == 1) {
                at = rc_v2(o.x + H - gap, o.y + along), v = rc_v2(into, slide);
            } else if (side == 2) {
                at = rc_v2(o.x + along, o.y + H - gap), v = rc_v2(slide, into);
            } else {
                at = rc_v2(o.x - H + gap, o.y + along), v = rc_v2(-into, slide);
            }
            id[i] = ws_point_bullet(w, at, v, 8);
        }
        long escapes = 0;
        for (int step = 0; step < 20; ++step) {
            ck_assert(rc_world_step(w, DT));
            for (int i = 0; i < N; ++i) {
                rc_vec2 q = rc_body_position(w, id[i]);
                double x = (double)q.x - o.x, y = (double)q.y - o.y;
                if (!(x > -H && x < H && y > -H && y < H)) {
                    if (escapes < 3) {
                        fprintf(stderr, "[chains] out of the room: point %d at (%.9g, %.9g) step %d\n", i,
                                (double)q.x, (double)q.y, step);
                    }
                    escapes++;
                }
            }
        }
        fprintf(stderr, "[chains] points within a wall's skin (%s, half-size %g): %d x 20 steps, %ld outside\n",
                room < 2 ? "one-sided chain" : "boxes", (double)H, N, escapes);
        ck_assert_int_eq(escapes, 0);
        rc_world_destroy(w);
    }
}
END_TEST

/* A floor of many collinear pieces, some very short: a grenade rolls across the joints without
 * a bump (its centre stays at its radius above the floor within the resting band) and comes to
 * rest, then sleeps. */
START_TEST(grenade_rolls_over_joints_without_a_bump_and_comes_to_rest) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    rc_vec2 floor[202];
    int n = 0;
    float x = -20.0f;
    for (int i = 0; i < 101; ++i) {
        floor[n++] = rc_v2(x, 0.0f);
        floor[n++] = rc_v2(x + 1e-3f, 0.0f); /* a piece 0.001 long */
        x += 0.5f;
    }
    chain(w, ground, floor, n, false, false, 0.0f, 0.6f);
    rc_body_id g = ws_circle_body(w, rc_v2(-18, 0.5f), rc_v2(6, 0), 0.5f, 0.0f, 0.6f, false);
    float lowest = INFINITY, highest = -INFINITY;
    int steps = 0;
    for (; steps < 60 * 20 && rc_body_is_awake(w, g); ++steps) {
        ck_assert(rc_world_step(w, DT));
        float y = rc_body_position(w, g).y;
        lowest = fminf(lowest, y);
        highest = fmaxf(highest, y);
        const rc_impact_event *ev;
        EXPECT(rc_world_impact_events(w, &ev) == 0, "step %d: a bump at a joint (%g, %g)", steps,
               (double)ev[0].point.x, (double)ev[0].point.y);
    }
    ck_assert(!rc_body_is_awake(w, g));
    /* never below its radius, never more than the resting band (four skins) above */
    ck_assert_msg(lowest >= 0.5f && highest <= 0.5f + 4.0f * SKIN + 1e-6f, "centre between %.9g and %.9g",
                  (double)lowest, (double)highest);
    rc_vec2 p = rc_body_position(w, g);
    ck_assert(p.x > -17.0f && p.x < 30.0f);
    fprintf(stderr, "[chains] grenade rolled to x = %.3f and slept after %.2f s over %d floor pieces\n",
            (double)p.x, (double)steps * (double)DT, n - 1);
    rc_world_destroy(w);
}
END_TEST

/* A grenade behind a one-sided floor passes through it, also where its centre crosses the
 * floor's line at a joint of two walls in line: the wall it lies over pushes it out on the free
 * side, and the neighbour's end, which it overlaps too, leaves it to that wall (it used to refuse
 * the push, and the grenade hung at the joint for good, its velocity growing under gravity). The
 * floor runs -x (free side below); the grenade comes from above at (-3, 0.6) moving (8, 0), its
 * centre reaching the floor's line at x = -0.2, beside the joint at the origin. No wall is met
 * from its free side: no impact, and nothing slows it along x. */
START_TEST(grenade_behind_a_one_sided_floor_passes_through_at_a_joint) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    rc_vec2 floor[3] = {{10, 0}, {0, 0}, {-10, 0}};
    chain(w, ground, floor, 3, false, true, 0.0f, 0.6f);
    rc_body_id g = ws_circle_body(w, rc_v2(-3, 0.6f), rc_v2(8, 0), 0.5f, 0.0f, 0.6f, false);
    for (int step = 0; step < 60; ++step) {
        rc_vec2 before = rc_body_position(w, g);
        ck_assert(rc_world_step(w, DT));
        rc_vec2 p = rc_body_position(w, g), v = rc_body_linear_velocity(w, g);
        const rc_impact_event *ev;
        EXPECT(rc_world_impact_events(w, &ev) == 0, "step %d: struck at (%g, %g)", step, (double)ev[0].point.x,
               (double)ev[0].point.y);
        EXPECT(v.x == 8.0f, "step %d: vx %.9g", step, (double)v.x);
        EXPECT(p.x > before.x, "step %d: stuck at (%.9g, %.9g) moving (%g, %g)", step, (double)p.x, (double)p.y,
               (double)v.x, (double)v.y);
        ck_assert_float_eq_tol(p.x, -3.0f + 8.0f * (float)(step + 1) * DT, 1e-4f);
    }
    /* a second in: wholly below the floor, falling freely */
    ck_assert_float_lt(rc_body_position(w, g).y, -0.5f);
    ck_assert_float_eq_tol(rc_body_linear_velocity(w, g).y, -10.0f, 1e-3f);
    rc_world_destroy(w);
}
END_TEST

/* The same for throws of every kind from behind a one-sided floor of unit pieces: every grenade
 * ends below it, and none ever stands still for a step. */
START_TEST(grenades_thrown_from_behind_a_one_sided_floor_all_pass_through) {
    rc_vec2 floor[41];
    for (int i = 0; i <= 40; ++i) {
        floor[i] = rc_v2(20.0f - (float)i, 0.0f); /* running -x: free side below */
    }
    ws_rng g = {26};
    for (int throw = 0; throw < 100; ++throw) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        chain(w, ws_static_body(w), floor, 41, false, true, 0.0f, 0.6f);
        rc_vec2 p0 = rc_v2(ws_range(&g, -10, 10), ws_range(&g, 0.6, 3));
        rc_vec2 v0 = rc_v2(ws_range(&g, -10, 10), ws_range(&g, -5, 0));
        float r = ws_range(&g, 0.1, 0.8);
        rc_body_id b = ws_circle_body(w, p0, v0, r, 0.0f, 0.6f, false);
        for (int step = 0; step < 180; ++step) {
            rc_vec2 before = rc_body_position(w, b);
            ck_assert(rc_world_step(w, DT));
            rc_vec2 p = rc_body_position(w, b);
            EXPECT(p.x != before.x || p.y != before.y, "throw %d (r %g from (%g, %g) at (%g, %g)): still at (%g, %g)",
                   throw, (double)r, (double)p0.x, (double)p0.y, (double)v0.x, (double)v0.y, (double)p.x,
                   (double)p.y);
        }
        EXPECT(rc_body_position(w, b).y < -r, "throw %d ends at y %g", throw, (double)rc_body_position(w, b).y);
        rc_world_destroy(w);
    }
}
END_TEST

/* Grenades thrown inside a one-sided sector come to rest inside it, asleep. */
START_TEST(grenades_settle_inside_a_sector) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id walls = ws_static_body(w);
    rc_vec2 p[6];
    reversed(L_ROOM, 6, p);
    rc_shape_id room = chain(w, walls, p, 6, true, true, 0.3f, 0.6f);
    ws_rng g = {5};
    enum { N = 20 };
    rc_body_id id[N];
    for (int i = 0; i < N; ++i) {
        rc_vec2 at = rc_v2(ws_range(&g, 1, 9), ws_range(&g, 1, 19));
        id[i] = ws_circle_body(w, at, rc_v2(ws_range(&g, -30, 30), ws_range(&g, -30, 30)), 0.4f, 0.3f, 0.6f, false);
    }
    int steps = 0;
    for (; steps < 60 * 40; ++steps) {
        ck_assert(rc_world_step(w, DT));
        if (rc_world_get_counters(w).awake_bodies == 0) {
            break;
        }
    }
    ck_assert_int_eq(rc_world_get_counters(w).awake_bodies, 0);
    for (int i = 0; i < N; ++i) {
        rc_vec2 q = rc_body_position(w, id[i]);
        ck_assert(rc_shape_test_point(w, room, q));
        ck_assert(q.y >= 0.4f - 1e-3f);
    }
    fprintf(stderr, "[chains] %d grenades asleep in the sector after %.2f s\n", N, (double)steps * (double)DT);
    rc_world_destroy(w);
}
END_TEST

/* ---- the mover in sectors ----------------------------------------------------------------------- */

/* Distance from p to the segment a-b in double precision: the test's own reference. */
static double segment_distance(rc_vec2 p, rc_vec2 a, rc_vec2 b) {
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y, px = (double)p.x - a.x, py = (double)p.y - a.y;
    double u = (px * ex + py * ey) / (ex * ex + ey * ey);
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    double dx = px - u * ex, dy = py - u * ey;
    return sqrt(dx * dx + dy * dy);
}

/* Walkers in a concave sector (the L room, scaled, one-sided, both windings, with short and
 * collinear pieces in its walls) with round pillars: random moves never bring a walker nearer
 * than its radius to a wall or a pillar, never take it out of the sector, never further than
 * asked. */
START_TEST(walkers_keep_to_their_sector) {
    long moves = 0, too_near = 0, outside = 0, too_far = 0, slides = 0;
    double least = INFINITY;
    for (int wind = 0; wind < 2; ++wind) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_id level = ws_static_body(w);
        /* the L room x 4, each wall split into a long piece, a short one and a collinear rest */
        rc_vec2 outline[18];
        int n = 0;
        for (int i = 0; i < 6; ++i) {
            rc_vec2 a = rc_v2(L_ROOM[i].x * 4.0f, L_ROOM[i].y * 4.0f);
            rc_vec2 b = rc_v2(L_ROOM[(i + 1) % 6].x * 4.0f, L_ROOM[(i + 1) % 6].y * 4.0f);
            outline[n++] = a;
            outline[n++] = rc_lerp(a, b, 0.5f);
            outline[n++] = rc_lerp(a, b, 0.5005f);
        }
        rc_vec2 ordered[18];
        if (wind) {
            reversed(outline, n, ordered);
        } else {
            memcpy(ordered, outline, sizeof ordered);
        }
        rc_shape_id room = chain(w, level, ordered, n, true, true, 0, 0.6f);
        rc_circle pillars[3] = {{{20, 20}, 3}, {{60, 20}, 5}, {{20, 60}, 2}};
        for (int i = 0; i < 3; ++i) {
            rc_shape_def sd = rc_shape_default_def();
            sd.offset = pillars[i].center;
            ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, level, &sd, pillars[i].radius)));
        }
        ws_rng g = {(uint64_t)(41 + wind)};
        for (int walker = 0; walker < 40; ++walker) {
            float r = ws_log_range(&g, 0.1, 3);
            rc_vec2 p;
            bool legal;
            do {
                p = rc_v2(ws_range(&g, 0, 80), ws_range(&g, 0, 80));
                legal = rc_point_in_polygon(p, outline, n);
                for (int k = 0; k < n && legal; ++k) {
                    legal = segment_distance(p, outline[k], outline[(k + 1) % n]) > r + 0.01;
                }
                for (int i = 0; i < 3 && legal; ++i) {
                    legal = rc_distance(p, pillars[i].center) > pillars[i].radius + r + 0.01f;
                }
            } while (!legal);
            for (int m = 0; m < 1000; ++m) {
                float a = ws_range(&g, 0, 6.2831853), len = ws_log_range(&g, 0.01, 40);
                rc_vec2 d = rc_v2(len * cosf(a), len * sinf(a));
                rc_vec2 q = rc_world_move_circle(w, p, r, d);
                moves++;
                double moved = sqrt(((double)q.x - p.x) * ((double)q.x - p.x) + ((double)q.y - p.y) * ((double)q.y - p.y));
                too_far += moved > sqrt((double)d.x * d.x + (double)d.y * d.y) * (1.0 + 1e-6);
                slides += moved > 0.0 && moved < 0.999 * len;
                double clearance = INFINITY;
                for (int k = 0; k < n; ++k) {
                    clearance = fmin(clearance, segment_distance(q, outline[k], outline[(k + 1) % n]));
                }
                for (int i = 0; i < 3; ++i) {
                    clearance = fmin(clearance, (double)rc_distance(q, pillars[i].center) - pillars[i].radius);
                }
                least = fmin(least, clearance - r);
                /* the tolerance: a few float spacings at coordinates up to 80 */
                if (clearance < (double)r - 4e-5) {
                    if (too_near < 3) {
                        fprintf(stderr, "[chains] walker r %g at (%.9g, %.9g): clearance %.9g\n", (double)r,
                                (double)q.x, (double)q.y, clearance);
                    }
                    too_near++;
                }
                outside += !rc_point_in_polygon(q, outline, n) || !rc_shape_test_point(w, room, q);
                p = q;
            }
        }
        rc_world_destroy(w);
    }
    fprintf(stderr,
            "[chains] walkers in a concave sector: %ld moves (%ld slides), %ld too near, %ld outside, %ld too far; "
            "least clearance - r %.3g\n",
            moves, slides, too_near, outside, too_far, least);
    ck_assert_int_eq(too_near, 0);
    ck_assert_int_eq(outside, 0);
    ck_assert_int_eq(too_far, 0);
    ck_assert(slides > 1000);
}
END_TEST

int main(void) {
    Suite *s = suite_create("chains");
    TCase *make = tcase_create("making");
    tcase_add_test(make, chain_has_a_segment_per_wall);
    tcase_add_test(make, chain_welds_repeated_points_and_keeps_its_order_in_both_windings);
    tcase_add_test(make, chain_takes_its_base_transform_and_follows_its_body);
    tcase_add_test(make, chain_refuses_bad_input_and_changes_nothing);
    tcase_add_test(make, destroying_a_chain_takes_its_segments_and_stale_ids_stay_stale);
    suite_add_tcase(s, make);
    TCase *sectors = tcase_create("sectors");
    tcase_add_test(sectors, test_point_follows_the_crossing_rule_in_both_windings);
    tcase_add_test(sectors, sectors_at_lists_the_loops_holding_a_point);
    tcase_add_test(sectors, a_moving_sector_takes_its_box_along);
    suite_add_tcase(s, sectors);
    TCase *rays = tcase_create("rays");
    tcase_add_test(rays, rays_hit_sector_walls_from_inside_and_one_sided_walls_only_from_their_free_side);
    tcase_add_test(rays, open_one_sided_chain_blocks_its_left_side_only);
    suite_add_tcase(s, rays);
    TCase *projectiles = tcase_create("projectiles");
    tcase_set_timeout(projectiles, 120);
    tcase_add_test(projectiles, bullet_ricochets_off_a_chain_wall);
    tcase_add_test(projectiles, nothing_crosses_a_wall_of_no_thickness);
    tcase_add_test(projectiles, nothing_leaves_a_concave_sector);
    tcase_add_test(projectiles, points_moving_within_a_walls_skin_never_leave_a_one_sided_room);
    tcase_add_test(projectiles, grenade_rolls_over_joints_without_a_bump_and_comes_to_rest);
    tcase_add_test(projectiles, grenades_settle_inside_a_sector);
    tcase_add_test(projectiles, grenade_behind_a_one_sided_floor_passes_through_at_a_joint);
    tcase_add_test(projectiles, grenades_thrown_from_behind_a_one_sided_floor_all_pass_through);
    suite_add_tcase(s, projectiles);
    TCase *mover = tcase_create("mover");
    tcase_set_timeout(mover, 120);
    tcase_add_test(mover, walkers_keep_to_their_sector);
    suite_add_tcase(s, mover);
    return rc_test_run(s);
}
