/* Projectiles among other bodies: what the trajectory preview sees (sleeping and resting dynamic
 * bodies included), and the rules a shooter sets on shapes and casts. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/reference.h"
#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

static rc_world *world_with_floor(void) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_def bd = rc_body_default_def();
    rc_body_id ground = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 50, 0.5f)));
    return w;
}

static rc_body_id grenade(rc_world *w, rc_vec2 p, rc_vec2 v, rc_shape_id *shape) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = p;
    bd.linear_velocity = v;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.3f;
    rc_shape_id s = rc_shape_create_circle(w, b, &sd, 0.25f);
    ck_assert(!rc_shape_id_is_null(s));
    if (shape != NULL) {
        *shape = s;
    }
    return b;
}

/* A bullet at from with the given velocity: a point, or a circle of that radius (restitution 1). */
static rc_body_id shoot(rc_world *w, rc_vec2 from, rc_vec2 velocity, float radius) {
    return radius > 0.0f ? ws_circle_body(w, from, velocity, radius, 1.0f, 0.6f, true) : ws_point_bullet(w, from, velocity, 8);
}

/* A grenade (radius 0.25) asleep on the floor at x = 4; another thrown along the floor from
 * (0, 0.6) at 8 units/s. The real throw strikes the sleeping one and pushes it; the preview
 * flew through it (1.7 past it after 1 s). Now the preview strikes it too, in the step the
 * world's throw wakes it, and never passes it (it takes the sleeping grenade as staying put):
 * the thrown one's centre never comes nearer the sleeping one's than their radii (0.5) and
 * never gets beyond it. (Its spin rolls it up the sleeping one's face, where it may lean over
 * x = 3.5 while clear of it: in the step of the strike it keeps the velocity the bounce left it,
 * as a sweep in the world does, rather than bouncing off the unpushed grenade again and again.) */
START_TEST(the_preview_strikes_a_sleeping_grenade) {
    rc_world *w = world_with_floor();
    rc_shape_id target_shape;
    rc_body_id target = grenade(w, rc_v2(4, 0.25f), rc_v2(0, 0), &target_shape);
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, target));
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(0, 0.6f);
    pd.velocity = rc_v2(8, 0);
    pd.radius = 0.25f;
    pd.restitution = 0.3f;
    pd.steps = 60;
    rc_vec2 path[60];
    rc_predicted_bounce bounces[16];
    int32_t n = rc_world_predict(w, &pd, path, bounces, 16);
    int struck_at = -1;
    for (int32_t i = 0; i < n && i < 16 && struck_at < 0; ++i) {
        struck_at = rc_shape_id_equals(bounces[i].shape, target_shape) ? bounces[i].step : -1;
    }
    ck_assert_int_ge(struck_at, 0);
    for (int k = 0; k < 60; ++k) {
        double gap = ref_dist(ref_from(path[k]), ref_v(4.0, 0.25)) - 0.5;
        ck_assert_msg(gap >= -1e-3 && path[k].x < 4.0f, "step %d: the preview is at (%.4f, %.4f), %.4f into it", k,
                      (double)path[k].x, (double)path[k].y, -gap);
    }
    /* the world: the same path up to the strike, and the sleeping grenade woken in that step */
    rc_body_id thrown = grenade(w, pd.position, pd.velocity, NULL);
    int woken_at = -1;
    for (int k = 0; k < 60; ++k) {
        ck_assert(rc_world_step(w, DT));
        if (k < struck_at) {
            ck_assert_float_eq(rc_body_position(w, thrown).x, path[k].x);
            ck_assert_float_eq(rc_body_position(w, thrown).y, path[k].y);
        }
        woken_at = woken_at < 0 && rc_body_linear_velocity(w, target).x > 0.0f ? k : woken_at;
    }
    printf("[rules] the preview strikes the sleeping grenade in step %d; the throw moves it in step %d\n", struck_at,
           woken_at);
    ck_assert_int_le(abs(woken_at - struck_at), 1);
    rc_world_destroy(w);
}
END_TEST

/* A floor of eleven boxes laid edge to edge (half width w, on a body turned by an angle and
 * moved off the origin, so that their placed vertices round), and bullets (points and circles
 * of radius 0.1) aimed at the seams from above at random angles: every one that meets the floor
 * at the seam comes back off the floor's top, its normal the floor's up. Before, 306 of 400 (w = 1, not turned) came back sideways: at the shared corner
 * one box gave its side, met more squarely than its top by a shallow ray, and where rounding
 * left a crack between two boxes the ray passed between their tops and met a side. */
START_TEST(bullets_aimed_at_seams_between_boxes_bounce_off_the_top) {
    static const float widths[] = {1.0f, 0.7f, 1.3f, 0.9f, 3.3f, 13.3f};
    static const float angles[] = {0.0f, 0.3f, 1.1f, 2.5f, 0.7f, 0.7f};
    ref_rng rng = ref_rng_seed(0x5EA5ull);
    int hits = 0;
    for (int f = 0; f < 6; ++f) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_def bd = rc_body_default_def();
        bd.angle = angles[f];
        bd.position = rc_v2(0.37f, -0.5f);
        rc_body_id floor_body = rc_body_create(w, &bd);
        rc_shape_def sd = rc_shape_default_def();
        sd.restitution = 1.0f;
        for (int i = -5; i <= 5; ++i) {
            sd.offset = rc_v2(2.0f * widths[f] * (float)i, 0);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, floor_body, &sd, widths[f], 0.5f)));
        }
        rc_rot q = rc_rot_from_angle(angles[f]);
        rc_vec2 up = rc_v2(-q.s, q.c);
        for (int k = 0; k < rc_test_random_cases(200); ++k) {
            float radius = k % 2 == 0 ? 0.0f : 0.1f;
            int seam = ref_rng_int(&rng, -5, 4);
            double sx = 2.0 * widths[f] * seam + widths[f], sy = 0.5; /* the seam on the top, local */
            double tx = 0.37 + q.c * sx - q.s * sy, ty = -0.5 + q.s * sx + q.c * sy;
            double a = ref_rng_uniform(&rng, 0.05, 3.09); /* from above, 3 away */
            double lx = cos(a), ly = sin(a);
            double wx = q.c * lx - q.s * ly, wy = q.s * lx + q.c * ly;
            rc_body_id b = shoot(w, rc_v2((float)(tx + 3.0 * wx), (float)(ty + 3.0 * wy)),
                                 rc_v2((float)(-300.0 * wx), (float)(-300.0 * wy)), radius);
            ck_assert(rc_world_step(w, DT));
            const rc_impact_event *e;
            int n = rc_world_impact_events(w, &e);
            ck_assert_int_ge(n, 1);
            if (rc_distance(e[0].point, rc_v2((float)tx, (float)ty)) > 2.0f * radius + 1e-3f) {
                rc_body_destroy(w, b); /* a circle that met the floor's end on its way (a real corner) */
                continue;
            }
            ck_assert_msg(rc_dot(e[0].normal, up) > 0.99999f, "floor %d, shot %d: normal (%g, %g), the floor's up (%g, %g)",
                          f, k, (double)e[0].normal.x, (double)e[0].normal.y, (double)up.x, (double)up.y);
            ++hits;
            rc_body_destroy(w, b);
        }
        rc_world_destroy(w);
    }
    printf("[rules] %d bullets at seams between boxes: all off the top\n", hits);
    ck_assert_int_ge(hits, rc_test_random_cases(200) * 4); /* most of the 6 x cases shots meet the floor at a seam */
}
END_TEST

/* A grenade (radius 0.25) rolling at 3, 8 and 12 units/s over floors of boxes laid edge to edge
 * (half widths 0.7 to 1.3, turned and moved so that their vertices round) stays on the floor,
 * never more than its skin above it, and strikes nothing: the floor is flat. Before, it hopped
 * up to 0.06 at each seam and reported an impact there: the corner of the next box met it with
 * a normal tilted back at it. At the floor's end, five seams on, a real corner, it rolls off and falls. (The
 * first steps, where it settles onto the floor, are not counted.) */
START_TEST(grenades_roll_over_seams_between_boxes_without_a_hop) {
    static const float widths[] = {1.0f, 0.7f, 1.3f};
    static const float angles[] = {0.0f, 0.02f, -0.05f};
    static const float speeds[] = {3.0f, 8.0f, 12.0f};
    for (int f = 0; f < 3; ++f) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        rc_body_def bd = rc_body_default_def();
        bd.angle = angles[f];
        bd.position = rc_v2(0.37f, -0.5f);
        rc_body_id floor_body = rc_body_create(w, &bd);
        rc_shape_def sd = rc_shape_default_def();
        for (int i = -20; i <= 20; ++i) {
            sd.offset = rc_v2(2.0f * widths[f] * (float)i, 0);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, floor_body, &sd, widths[f], 0.5f)));
        }
        rc_rot q = rc_rot_from_angle(angles[f]);
        const float r = 0.25f;
        float lx = 30.0f * widths[f], ly = 0.5f + r + 1e-4f; /* five seams before the end */
        bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(0.37f + q.c * lx - q.s * ly, -0.5f + q.s * lx + q.c * ly);
        bd.linear_velocity = rc_v2(speeds[f] * q.c, speeds[f] * q.s);
        rc_body_id g = rc_body_create(w, &bd);
        rc_shape_def cs = rc_shape_default_def();
        cs.restitution = 0.3f;
        cs.rolling_resistance = 0.0f; /* it rolls on to the end */
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, g, &cs, r)));
        double highest = 0.0;
        int impacts = 0, fell_at = -1;
        for (int step = 0; step < 600 && fell_at < 0; ++step) {
            ck_assert(rc_world_step(w, DT));
            const rc_impact_event *e;
            int n = rc_world_impact_events(w, &e);
            impacts += step >= 10 ? n : 0; /* settling onto the floor first may be a touch */
            rc_vec2 p = rc_body_position(w, g);
            double along = q.c * (p.x - 0.37) + q.s * (p.y + 0.5);
            double height = -q.s * (p.x - 0.37) + q.c * (p.y + 0.5) - (0.5 + r);
            if (along > 41.0 * widths[f] + r) {
                fell_at = height < -0.1 ? step : -1;
                continue;
            }
            highest = fmax(highest, height);
        }
        printf("[rules] floor %d: rolled at %g, at most %.6f above the floor, %d impacts, off the end at step %d\n", f,
               (double)speeds[f], highest, impacts, fell_at);
        ck_assert_msg(highest <= 2e-4, "floor %d: hopped %.5f", f, highest);
        ck_assert_int_eq(impacts, 0);
        rc_vec2 end = rc_body_position(w, g);
        ck_assert_msg(fell_at >= 0, "floor %d: did not fall off the end: at (%g, %g)", f, (double)end.x, (double)end.y);
        rc_world_destroy(w);
    }
}
END_TEST

/* A shooter's enemy or sandbag: a shape that absorbs projectiles. A point bullet and a circle
 * bullet at 160 units/s stop dead a skin short of a static box that absorbs them, with one
 * impact event (spent, bounce 0) and no bounces left, where the same box without the flag sends
 * them back; a bullet striking a dynamic enemy that absorbs it gives it all its momentum; a
 * grenade thrown at an absorbing sandbag stops there, and its preview says so. */
static rc_world *gallery(bool absorbs, rc_shape_id *target) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    rc_body_id wall = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 1.0f;
    sd.friction = 0.0f;
    sd.absorbs_projectiles = absorbs;
    sd.offset = rc_v2(1.5f, 0);
    *target = rc_shape_create_box(w, wall, &sd, 0.5f, 5.0f);
    ck_assert(!rc_shape_id_is_null(*target));
    return w;
}

START_TEST(absorbing_shapes_stop_projectiles_dead) {
    for (int kind = 0; kind < 2; ++kind) {
        float radius = kind == 0 ? 0.0f : 0.1f;
        for (int absorbs = 0; absorbs < 2; ++absorbs) {
            rc_shape_id target;
            rc_world *w = gallery(absorbs != 0, &target);
            ck_assert(rc_shape_absorbs_projectiles(w, target) == (absorbs != 0));
            rc_body_id b = shoot(w, rc_v2(0, 0), rc_v2(160, 0), radius);
            ck_assert(rc_world_step(w, DT));
            const rc_impact_event *e;
            ck_assert_int_eq(rc_world_impact_events(w, &e), 1);
            ck_assert(rc_shape_id_equals(e[0].shape, target));
            ck_assert_near(e[0].approach_speed, 160.0, 1e-3);
            rc_vec2 p = rc_body_position(w, b), v = rc_body_linear_velocity(w, b);
            if (absorbs) {
                ck_assert(e[0].spent && e[0].bounce == 0);
                ck_assert_near(p.x, 1.0 - radius - 1e-4, 2e-5);
                ck_assert(v.x == 0.0f && v.y == 0.0f);
                ck_assert_int_eq(rc_body_bounces_left(w, b), 0);
                ck_assert(rc_world_step(w, DT)); /* and it stays */
                ck_assert_int_eq(rc_world_impact_events(w, &e), 0);
                ck_assert_near(rc_body_position(w, b).x, 1.0 - radius - 1e-4, 2e-5);
            } else {
                ck_assert(!e[0].spent && e[0].bounce == 1);
                ck_assert_float_eq(v.x, -160.0f);
                ck_assert_int_eq(rc_body_bounces_left(w, b), -1);
            }
            rc_world_destroy(w);
        }
    }
}
END_TEST

START_TEST(a_bullet_gives_an_absorbing_enemy_all_its_momentum) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(2, 0);
    rc_body_id enemy = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.absorbs_projectiles = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, enemy, &sd, 0.5f, 0.5f))); /* mass 1 */
    bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.point_mass = 0.05f;
    bd.linear_velocity = rc_v2(200, 0);
    rc_body_id bullet = rc_body_create(w, &bd);
    ck_assert(rc_world_step(w, DT));
    const rc_impact_event *e;
    ck_assert_int_eq(rc_world_impact_events(w, &e), 1);
    ck_assert(e[0].spent);
    /* all of the bullet's momentum, 0.05 x 200 = 10, to the enemy of mass 1: 10 units/s along x
       (the hit is central). Before, the two shared it (200 / 21 each) and the bullet's share was
       lost when it stopped dead */
    ck_assert_near(rc_body_linear_velocity(w, enemy).x, 10.0, 1e-4);
    ck_assert_float_eq(rc_body_linear_velocity(w, bullet).x, 0.0f);
    ck_assert_near(rc_body_angular_velocity(w, enemy), 0.0, 1e-4);
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_grenade_stops_at_an_absorbing_sandbag_and_its_preview_says_so) {
    rc_shape_id sandbag;
    rc_world *w = gallery(true, &sandbag);
    rc_prediction_def pd = rc_prediction_default_def();
    pd.velocity = rc_v2(30, 0);
    pd.radius = 0.25f;
    pd.restitution = 0.8f;
    pd.steps = 10;
    rc_vec2 path[10];
    rc_predicted_bounce bounces[4];
    ck_assert_int_eq(rc_world_predict(w, &pd, path, bounces, 4), 1);
    ck_assert(bounces[0].spent && bounces[0].bounce == 0);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.linear_velocity = pd.velocity;
    rc_body_id g = rc_body_create(w, &bd);
    rc_shape_def cs = rc_shape_default_def();
    cs.restitution = 0.8f;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, g, &cs, 0.25f)));
    for (int k = 0; k < 10; ++k) {
        ck_assert(rc_world_step(w, DT));
        ck_assert_float_eq(rc_body_position(w, g).x, path[k].x);
    }
    ck_assert_near(path[9].x, 1.0 - 0.25 - 1e-4, 2e-5);
    ck_assert_float_eq(rc_body_linear_velocity(w, g).x, 0.0f);
    /* the flag can be taken back */
    ck_assert(rc_shape_set_absorbs_projectiles(w, sandbag, false));
    ck_assert(!rc_shape_absorbs_projectiles(w, sandbag));
    rc_world_destroy(w);
}
END_TEST

/* Query filters with a group and an ignored body. A shooter (a box at the origin, group -1: its
 * team) fires a ray from its centre along +x: with the default filter it hits itself at once;
 * ignoring its body it hits the target's face at x = 4 (t = 0.4 of 10); a teammate's box in the
 * way (group -1) is passed through by a filter of group -1 and struck by group 0 or 1 (group 1:
 * no match, masks decide; a filter of group 2 with masks that see nothing still sees a shape of
 * group 2). Overlap queries follow the same rules. A stale or foreign ignored body is refused
 * with an error, and nothing is reported. */
static bool count_overlap(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    ++*(int *)context;
    return true;
}

START_TEST(query_filters_ignore_the_shooter_and_pass_its_team) {
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.gravity_scale = 0.0f;
    rc_body_id shooter = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.filter.group_index = -1;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, shooter, &sd, 0.5f, 0.5f)));
    bd.position = rc_v2(2, 0);
    rc_body_id mate = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, mate, &sd, 0.25f, 0.25f)));
    bd = rc_body_default_def();
    bd.position = rc_v2(4.5f, 0);
    rc_body_id target = rc_body_create(w, &bd);
    sd.filter.group_index = 2;
    rc_shape_id face = rc_shape_create_box(w, target, &sd, 0.5f, 2.0f);
    ck_assert(!rc_shape_id_is_null(face));

    rc_ray_hit h;
    rc_query_filter f = rc_default_query_filter();
    ck_assert(rc_world_cast_ray_filtered(w, rc_v2(0, 0), rc_v2(10, 0), f, &h));
    ck_assert(rc_body_id_equals(h.body, shooter) && h.started_inside);
    f.ignore_body = shooter;
    ck_assert(rc_world_cast_ray_filtered(w, rc_v2(0, 0), rc_v2(10, 0), f, &h));
    ck_assert(rc_body_id_equals(h.body, mate));
    ck_assert_float_eq(h.t, 0.175f); /* the mate's face at x = 1.75 */
    f.group_index = -1;
    ck_assert(rc_world_cast_ray_filtered(w, rc_v2(0, 0), rc_v2(10, 0), f, &h));
    ck_assert(rc_shape_id_equals(h.shape, face));
    ck_assert_float_eq(h.t, 0.4f);
    f.group_index = 1;
    ck_assert(rc_world_cast_ray_filtered(w, rc_v2(0, 0), rc_v2(10, 0), f, &h));
    ck_assert(rc_body_id_equals(h.body, mate));
    f.group_index = 2;
    f.mask_bits = 0u;
    ck_assert(rc_world_cast_ray_filtered(w, rc_v2(0, 0), rc_v2(10, 0), f, &h));
    ck_assert(rc_shape_id_equals(h.shape, face)); /* its group, whatever the masks */
    ck_assert(rc_world_cast_circle_filtered(w, rc_v2(0, 0), 0.1f, rc_v2(10, 0), f, &h));
    ck_assert(rc_shape_id_equals(h.shape, face));

    /* overlaps: a box over all three */
    rc_aabb all = {{-1, -1}, {5, 1}};
    int n = 0;
    f = rc_default_query_filter();
    ck_assert_int_eq(rc_world_overlap_aabb(w, all, f, count_overlap, &n), 3);
    f.ignore_body = shooter;
    f.group_index = -1;
    n = 0;
    ck_assert_int_eq(rc_world_overlap_aabb(w, all, f, count_overlap, &n), 1);
    ck_assert_int_eq(n, 1);

    /* a stale ignored body: refused, nothing reported */
    rc_body_id stale = mate;
    rc_body_destroy(w, mate);
    f = rc_default_query_filter();
    f.ignore_body = stale;
    h.t = -1.0f;
    ck_assert(!rc_world_cast_ray_filtered(w, rc_v2(0, 0), rc_v2(10, 0), f, &h));
    ck_assert_float_eq(h.t, -1.0f);
    ck_assert_ptr_nonnull(strstr(rc_world_last_error(w), "rc_world_cast_ray_filtered"));
    n = 0;
    ck_assert_int_eq(rc_world_overlap_aabb(w, all, f, count_overlap, &n), -1);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(0, 0), f, count_overlap, &n), -1);
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(0, 0), 1.0f, f, count_overlap, &n), -1);
    rc_polygon box = rc_make_box(0.5f, 0.5f);
    ck_assert_int_eq(rc_world_overlap_polygon(w, &box, f, count_overlap, &n), -1);
    ck_assert(!rc_world_cast_polygon(w, &box, rc_v2(5, 0), f, &h));
    ck_assert_int_eq(n, 0);
    rc_world_destroy(w);
}
END_TEST

/* A point bullet standing still in front of a door (a kinematic box, its face at x = 0.25)
 * sliding at 5 units/s: the door moves onto it, and the bullet, which has no motion of its own
 * to sweep, is pushed out ahead of the door and carried at its speed, a skin in front of its
 * face at every step. Before, a sweep of no length looked at nothing: the door passed over the
 * bullet and left it behind. */
START_TEST(a_door_pushes_a_bullet_standing_still) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_KINEMATIC;
    bd.linear_velocity = rc_v2(5, 0);
    rc_body_id door = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, door, &sd, 0.25f, 2.0f)));
    rc_body_id b = shoot(w, rc_v2(0.5f, 0), rc_v2(0, 0), 0.0f);
    for (int k = 0; k < 30; ++k) {
        ck_assert(rc_world_step(w, DT));
        float face = rc_body_position(w, door).x + 0.25f, x = rc_body_position(w, b).x;
        ck_assert_msg(x >= face, "step %d: the bullet at %.5f, behind the door's face at %.5f", k, (double)x, (double)face);
        if (x < 0.5f + 1e-6f) {
            continue; /* the door has not reached it yet */
        }
        ck_assert_msg(x - face <= 2e-4f, "step %d: %.5f ahead of the door", k, (double)(x - face));
        ck_assert_float_eq(rc_body_linear_velocity(w, b).x, 5.0f);
    }
    ck_assert_near(rc_body_position(w, b).x, 30.0 * 5.0 / 60.0 + 0.25, 2e-4);
    rc_world_destroy(w);
}
END_TEST

/* One point bullet on a slope (a box of half height 0.5 turned by `degrees`, friction mu, no
 * restitution) that moves at `slope_v` (a kinematic body; static when it is zero): it starts at
 * the slope's velocity, 20 up the face and 1e-4 off it, and slides for 2 s under gravity 10.
 * Coulomb's law, in the slope's frame: where tan(theta) > mu it slides down with acceleration
 * 10 (sin(theta) - mu cos(theta)); else it stays. Returns its speed along the face, down the
 * slope and relative to it, at the end; *down: how far it went down the face; *off: the farthest
 * it stood from the face's line; *awake_steps: the steps it ended awake. */
static double slide_on_slope(float degrees, float mu, rc_vec2 slope_v, double *down, double *off, int *awake_steps) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    double theta = (double)degrees * 3.14159265358979323846 / 180.0;
    rc_body_def bd = rc_body_default_def();
    bd.type = slope_v.x != 0.0f || slope_v.y != 0.0f ? RC_KINEMATIC : RC_STATIC;
    bd.angle = (float)theta;
    bd.linear_velocity = slope_v;
    rc_body_id slope = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = mu;
    sd.restitution = 0.0f;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, slope, &sd, 50.0f, 0.5f)));
    double c = cos(theta), sn = sin(theta);
    rc_vec2 start = rc_v2((float)(20.0 * c - 0.5001 * sn), (float)(20.0 * sn + 0.5001 * c));
    rc_body_id b = ws_point_bullet(w, start, slope_v, 1);
    *off = 0.0;
    *awake_steps = 0;
    for (int k = 0; k < 120; ++k) {
        WS_EXPECT(rc_world_step(w, DT), "%s", rc_world_last_error(w));
        rc_vec2 p = rc_body_position(w, b), q = rc_sub(p, rc_body_position(w, slope));
        double height = -sn * (double)q.x + c * (double)q.y - 0.5; /* above the face */
        /* (a face moving onto the point leaves it on the face within a rounding of its place) */
        double rounding = 4.0 * FLT_EPSILON * fmax(fabs((double)p.x), fabs((double)p.y));
        WS_EXPECT(height > (bd.type == RC_STATIC ? 0.0 : -rounding), "%.0f degrees, mu %.2f, step %d: %.3g into the slope",
                  (double)degrees, (double)mu, k, -height);
        *off = fmax(*off, height);
        *awake_steps += rc_body_is_awake(w, b);
    }
    rc_vec2 q = rc_sub(rc_body_position(w, b), rc_body_position(w, slope));
    *down = 20.0 - (c * (double)q.x + sn * (double)q.y);
    rc_vec2 v = rc_sub(rc_body_linear_velocity(w, b), slope_v);
    double speed = -(c * (double)v.x + sn * (double)v.y);
    rc_world_destroy(w);
    return speed;
}

/* A point bullet sliding on a slope feels Coulomb friction, static or moving slope alike: its
 * speed down the face after 2 s within 0.2% of 10 (sin - mu cos) t, the way it went within 1%;
 * where friction holds it, it ends still, having crept down no more than skin tan(theta) in each
 * step it was awake (it falls through its skin straight down, and is held a skin off along the
 * face's normal: 1.7e-5 a step at 10 degrees).
 * It stays on the face: above it and within 1e-3. Before, the landings that hold a sliding
 * point on a slope (one a step, each too slow to brake it) were its only friction: it slid as
 * if on ice, 9.58 down a 30 degree slope of friction 0.3 in 2 s, where Coulomb gives 4.80, and
 * slid down slopes friction holds. */
START_TEST(points_slide_on_slopes_as_coulomb_friction_says) {
    static const struct {
        float degrees, mu;
    } cases[] = {{30, 0.3f}, {20, 0.1f}, {45, 0.6f}, {60, 0.9f}, {25, 0.0f}, {10, 0.3f}, {20, 0.6f}, {35, 0.8f}};
    const rc_vec2 motions[] = {{0, 0}, {3, 1}, {-2, -0.5f}};
    for (size_t m = 0; m < sizeof motions / sizeof motions[0]; ++m) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            float deg = cases[i].degrees, mu = cases[i].mu;
            double down, off, theta = (double)deg * 3.14159265358979323846 / 180.0;
            int awake;
            double speed = slide_on_slope(deg, mu, motions[m], &down, &off, &awake);
            double a = 10.0 * (sin(theta) - (double)mu * cos(theta));
            ck_assert_msg(off < 1e-3, "%.0f degrees, mu %.2f, slope moving (%g, %g): %.3g off the face", (double)deg,
                          (double)mu, (double)motions[m].x, (double)motions[m].y, off);
            if (a > 0.0) {
                ck_assert_msg(fabs(speed - 2.0 * a) <= 0.002 * 2.0 * a && fabs(down - 2.0 * a) <= 0.01 * 2.0 * a,
                              "%.0f degrees, mu %.2f, slope moving (%g, %g): %.5f down at %.5f units/s; Coulomb: %.5f "
                              "at %.5f",
                              (double)deg, (double)mu, (double)motions[m].x, (double)motions[m].y, down, speed,
                              2.0 * a, 2.0 * a);
            } else {
                /* each step it is awake it falls through its skin (1e-4 here) straight down, and is
                   held a skin off the face along its normal: skin tan(theta) down the face (on a
                   still slope it sleeps after 0.5 s; on a moving one it never does) */
                double creep = (awake + 2) * 1e-4 * tan(theta);
                ck_assert_msg(down >= 0.0 && down <= creep && fabs(speed) < 1e-5,
                              "%.0f degrees, mu %.2f, slope moving (%g, %g): held by friction, yet %.5f down at %.5f "
                              "units/s",
                              (double)deg, (double)mu, (double)motions[m].x, (double)motions[m].y, down, speed);
            }
        }
    }
}
END_TEST

/* A prop of the given kind (0 box, 1 capsule, 2 circle: a grenade) of half size h and density d
 * resting at height base on a floor (static, its top at y = 0, friction 0.6): on the floor
 * itself at base 0, else on a crate (density 10) whose top is there. */
static rc_body_id prop_on_floor(rc_world *w, int kind, float h, float density, float restitution, float friction,
                                float base) {
    rc_body_id floor = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, floor, &sd, 20.0f, 0.5f)));
    if (base > 0.0f) {
        rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0, 0.5f * base), 0.0f);
        rc_shape_def cd = rc_shape_default_def();
        cd.density = 10.0f;
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &cd, 0.5f * base, 0.5f * base)));
    }
    rc_body_id prop = ws_body(w, RC_DYNAMIC, rc_v2(0, base + h), 0.0f);
    rc_shape_def d = rc_shape_default_def();
    d.density = density;
    d.restitution = restitution;
    d.friction = friction;
    rc_shape_id s = kind == 0   ? rc_shape_create_box(w, prop, &d, h, h)
                    : kind == 1 ? rc_shape_create_capsule(w, prop, &d, rc_v2(-h, 0), rc_v2(h, 0), h)
                                : rc_shape_create_circle(w, prop, &d, h);
    ck_assert(!rc_shape_id_is_null(s));
    return prop;
}

/* A point bullet (mass 1) dropped from 0.3 onto a prop at rest on the floor or on a crate on the
 * floor, light or heavy (0.004 to 10 times its mass), off the middle of a crate's or a capsule's
 * flat top by up to half its size (a ball's on the floor, on its top): it stands on the prop
 * and the prop on the floor. From 10 steps after it lands: the bullet never stands still while
 * it holds more than 0.01 units/s, the prop neither moves nor turns (under 0.01 units/s and
 * 0.05 rad/s), nothing sinks into the floor or the prop by more than 0.01, and both sleep by
 * 3 s. Before, a prop free to give way took the bullet's weight as a push into the floor at
 * every step, the floor took that speed from the prop, and the bullet kept it: standing on a
 * box of a 250th of its mass it held 3 units/s at a standstill, and a light prop in a corner
 * held a bullet at 7 units/s until it slid off. */
START_TEST(a_point_bullet_stands_still_on_a_light_prop) {
    const float densities[] = {0.1f, 0.5f, 2.0f, 10.0f, 250.0f};
    const float offsets[] = {0.0f, 0.25f, -0.5f};
    for (int n = 0; n < 6; ++n) {
        int kind = n % 3;
        float base = n < 3 ? 0.0f : 0.6f;
        for (size_t i = 0; i < sizeof densities / sizeof densities[0]; ++i) {
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o) {
                if (kind == 2 && (o > 0 || base > 0.0f)) {
                    /* off the top of a ball it slides off, and the ball rolls away; on its top it
                       balances, and on a crate the crate's give tips it */
                    continue;
                }
                rc_world *w = ws_make_world(rc_v2(0, -10));
                float h = 0.1f, top = base + 2.0f * h;
                rc_body_id prop = prop_on_floor(w, kind, h, densities[i], 0.0f, 0.6f, base);
                float x = offsets[o] * h;
                rc_body_id b = ws_point_bullet(w, rc_v2(x, top + 0.3f), rc_v2(0, 0), 1);
                int landed = -1;
                for (int k = 0; k < 180; ++k) {
                    rc_vec2 before = rc_body_position(w, b);
                    WS_EXPECT(rc_world_step(w, DT), "%s", rc_world_last_error(w));
                    rc_vec2 p = rc_body_position(w, b), v = rc_body_linear_velocity(w, b);
                    landed = landed < 0 && p.y < top + 0.01f ? k : landed;
                    if (landed < 0 || k < landed + 10) {
                        continue;
                    }
                    float speed = rc_length(v), moved = rc_distance(p, before);
                    WS_EXPECT(!(speed > 0.01f && moved < 0.1f * speed * DT),
                              "kind %d on %g, density %g, at %g, step %d: still, holding %g units/s", kind, (double)base,
                              (double)densities[i], (double)x, k, (double)speed);
                    WS_EXPECT(rc_length(rc_body_linear_velocity(w, prop)) < 0.01f &&
                                  fabsf(rc_body_angular_velocity(w, prop)) < 0.05f,
                              "kind %d on %g, density %g, at %g, step %d: the prop moves at %g, turns at %g", kind, (double)base,
                              (double)densities[i], (double)x, k, (double)rc_length(rc_body_linear_velocity(w, prop)),
                              (double)rc_body_angular_velocity(w, prop));
                    WS_EXPECT(p.y > top - 0.01f && fabsf(rc_body_position(w, prop).y - (base + h)) < 0.01f,
                              "kind %d on %g, density %g, at %g, step %d: the bullet at %g, the prop at %g", kind, (double)base,
                              (double)densities[i], (double)x, k, (double)p.y, (double)rc_body_position(w, prop).y);
                }
                ck_assert_msg(landed >= 0 && !rc_body_is_awake(w, b) && !rc_body_is_awake(w, prop),
                              "kind %d on %g, density %g, at %g: landed at step %d, awake %d and %d", kind, (double)base,
                              (double)densities[i], (double)x, landed, rc_body_is_awake(w, b),
                              rc_body_is_awake(w, prop));
                rc_world_destroy(w);
            }
        }
    }
}
END_TEST

/* A point bullet (mass 1, restitution 0.5 on a frictionless crate of a 40th of its mass) strikes
 * the top of the crate at rest on the floor at 45 degrees: the floor braces the crate, so the
 * bullet rebounds as off the floor itself, its normal velocity exactly -0.5 times what it was
 * and its tangential one kept, and the crate does not move. Before, the crate gave way into the
 * floor as if free, and the bullet left at a 41st of the rebound. */
START_TEST(a_prop_braced_by_the_floor_answers_a_bullet_as_the_floor_does) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id prop = prop_on_floor(w, 0, 0.25f, 0.1f, 0.5f, 0.0f, 0.0f);
    WS_EXPECT(rc_world_step(w, DT), "%s", rc_world_last_error(w)); /* its contact with the floor */
    rc_body_id b = ws_point_bullet(w, rc_v2(-0.3f, 0.8f), rc_v2(6, -6), 1);
    ck_assert_float_eq_tol(rc_body_mass(w, prop), 0.025f, 1e-6f);
    for (int k = 0; k < 10 && rc_body_linear_velocity(w, b).y < 0.0f; ++k) {
        WS_EXPECT(rc_world_step(w, DT), "%s", rc_world_last_error(w));
    }
    rc_vec2 v = rc_body_linear_velocity(w, b);
    ck_assert_float_eq_tol(v.x, 6.0f, 1e-5f);
    ck_assert_float_eq_tol(v.y, 3.0f, 1e-5f);
    ck_assert_float_eq(rc_body_linear_velocity(w, prop).x, 0.0f);
    ck_assert_float_eq(rc_body_linear_velocity(w, prop).y, 0.0f);
    ck_assert_float_eq(rc_body_angular_velocity(w, prop), 0.0f);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("projectile_rules");
    TCase *t = tcase_create("preview");
    tcase_add_test(t, the_preview_strikes_a_sleeping_grenade);
    suite_add_tcase(s, t);
    TCase *seams = tcase_create("seams");
    tcase_add_test(seams, bullets_aimed_at_seams_between_boxes_bounce_off_the_top);
    tcase_add_test(seams, grenades_roll_over_seams_between_boxes_without_a_hop);
    suite_add_tcase(s, seams);
    TCase *absorb = tcase_create("absorbing");
    tcase_add_test(absorb, absorbing_shapes_stop_projectiles_dead);
    tcase_add_test(absorb, a_bullet_gives_an_absorbing_enemy_all_its_momentum);
    tcase_add_test(absorb, a_grenade_stops_at_an_absorbing_sandbag_and_its_preview_says_so);
    suite_add_tcase(s, absorb);
    TCase *moving = tcase_create("moving");
    tcase_add_test(moving, a_door_pushes_a_bullet_standing_still);
    tcase_add_test(moving, points_slide_on_slopes_as_coulomb_friction_says);
    suite_add_tcase(s, moving);
    TCase *braced = tcase_create("braced");
    tcase_add_test(braced, a_point_bullet_stands_still_on_a_light_prop);
    tcase_add_test(braced, a_prop_braced_by_the_floor_answers_a_bullet_as_the_floor_does);
    suite_add_tcase(s, braced);
    TCase *filters = tcase_create("filters");
    tcase_add_test(filters, query_filters_ignore_the_shooter_and_pass_its_team);
    suite_add_tcase(s, filters);
    return rc_test_run(s);
}
