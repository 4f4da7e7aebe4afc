/* What a game changes outside the step wakes what rests on it. A body moved with
 * rc_body_set_transform (dynamic, kinematic or static) wakes the sleeping bodies that touched it,
 * and their islands: before, only the moved body woke, and a column asleep on a box moved away
 * stayed asleep in the air for good (a contact that stops touching wakes nobody). A shape's
 * friction or restitution changed wakes its sleeping body and what touches the shape: before, a
 * crate asleep on a slope made slippery stayed put. The same value set again wakes nothing, so
 * a game that sets it every frame still lets the body sleep. A shape's filter changed so that it
 * lets a sleeping body through wakes that body: before, a crate asleep on a platform that no
 * longer held it stayed in the air. The expected heights are the resting ones (a box of half
 * size 0.5 on the ground's top at 0: 0.5), the slides the analytic ones (from rest on a slope of
 * angle a with friction mu: g (sin a - mu cos a) t^2 / 2). */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float DT = 1.0f / 60.0f;
static const double G = 10.0;

static rc_body_id box_body(rc_world *w, rc_body_type type, rc_vec2 p, float angle, float hw, float hh,
                           rc_shape_id *shape) {
    rc_body_id b = ws_body(w, type, p, angle);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id s = rc_shape_create_box(w, b, &sd, hw, hh);
    ck_assert(!rc_shape_id_is_null(s));
    if (shape != NULL) {
        *shape = s;
    }
    return b;
}

/* Steps until every body listed sleeps (at most 4 s); fails the test if they do not. */
static void step_until_asleep(rc_world *w, const rc_body_id *bodies, int count) {
    for (int step = 0; step < 240; ++step) {
        ck_assert(rc_world_step(w, DT));
        bool asleep = true;
        for (int i = 0; i < count; ++i) {
            asleep = asleep && !rc_body_is_awake(w, bodies[i]);
        }
        if (asleep) {
            return;
        }
    }
    ck_abort_msg("the bodies did not fall asleep in 4 s");
}

static void step_seconds(rc_world *w, double seconds) {
    for (int step = 0; step < (int)lround(seconds * 60.0); ++step) {
        ck_assert(rc_world_step(w, DT));
    }
}

/* A column of three boxes asleep on the ground; the box `moved` (0: bottom, 1: middle) set 10
 * to the right. Those above it fall onto what is left and rest there. */
static void column_with_a_box_moved_away(int moved) {
    rc_world *w = ws_make_world(rc_v2(0.0f, (float)-G));
    box_body(w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f, 20.0f, 0.5f, NULL); /* top at 0 */
    rc_body_id column[3];
    for (int i = 0; i < 3; ++i) {
        column[i] = box_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.5f + (float)i), 0.0f, 0.5f, 0.5f, NULL);
    }
    step_until_asleep(w, column, 3);
    ck_assert(rc_body_set_transform(w, column[moved], rc_v2(10.0f, 0.5f), 0.0f));
    for (int i = 0; i < 3; ++i) {
        EXPECT(rc_body_is_awake(w, column[i]), "box %d of the column asleep after box %d moved", i, moved);
    }
    step_seconds(w, 2.0);
    /* what stays: the boxes below the moved one where they were, those above one box lower */
    int level = 0;
    for (int i = 0; i < 3; ++i) {
        rc_vec2 p = rc_body_position(w, column[i]);
        double want_x = i == moved ? 10.0 : 0.0, want_y = i == moved ? 0.5 : 0.5 + level++;
        EXPECT(fabs(p.x - want_x) < 0.01 && fabs(p.y - want_y) < 0.015,
               "box %d (box %d moved) at (%.4f, %.4f), expected (%.1f, %.1f)", i, moved, (double)p.x, (double)p.y,
               want_x, want_y);
    }
    rc_world_destroy(w);
}

START_TEST(boxes_asleep_on_a_box_moved_away_fall_onto_what_is_left) {
    column_with_a_box_moved_away(0);
    column_with_a_box_moved_away(1);
}
END_TEST

/* A crate asleep on a platform (static or kinematic, still) 5 above the ground; the platform set
 * 20 to the side: the crate falls to the ground. */
START_TEST(a_crate_asleep_on_a_platform_moved_away_falls) {
    for (int kind = 0; kind < 2; ++kind) {
        rc_body_type type = kind == 0 ? RC_STATIC : RC_KINEMATIC;
        rc_world *w = ws_make_world(rc_v2(0.0f, (float)-G));
        box_body(w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f, 40.0f, 0.5f, NULL); /* the ground, top at 0 */
        rc_body_id platform = box_body(w, type, rc_v2(0.0f, 4.5f), 0.0f, 2.0f, 0.5f, NULL); /* top at 5 */
        rc_body_id crate = box_body(w, RC_DYNAMIC, rc_v2(0.0f, 5.5f), 0.0f, 0.5f, 0.5f, NULL);
        step_until_asleep(w, &crate, 1);
        ck_assert(rc_body_set_transform(w, platform, rc_v2(20.0f, 4.5f), 0.0f));
        EXPECT(rc_body_is_awake(w, crate), "%s platform moved: the crate on it still asleep",
               kind == 0 ? "static" : "kinematic");
        step_seconds(w, 2.0);
        rc_vec2 p = rc_body_position(w, crate);
        EXPECT(fabs(p.x) < 0.01 && fabs(p.y - 0.5) < 0.015, "%s platform moved: the crate at (%.4f, %.4f), not (0, 0.5)",
               kind == 0 ? "static" : "kinematic", (double)p.x, (double)p.y);
        rc_world_destroy(w);
    }
}
END_TEST

/* A crate asleep on a platform (static, then dynamic and asleep on the ground too) whose filter is
 * set to let the crate through: the crate falls to the ground (its own filter unchanged; the
 * ground still holds it). */
START_TEST(a_crate_asleep_on_a_platform_that_now_lets_it_through_falls) {
    for (int kind = 0; kind < 2; ++kind) {
        rc_world *w = ws_make_world(rc_v2(0.0f, (float)-G));
        box_body(w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f, 40.0f, 0.5f, NULL); /* the ground, top at 0 */
        rc_shape_id platform_shape;
        rc_body_id platform = box_body(w, kind == 0 ? RC_STATIC : RC_DYNAMIC, rc_v2(0.0f, kind == 0 ? 4.5f : 0.5f),
                                       0.0f, 2.0f, 0.5f, &platform_shape); /* top at 5, or at 1 */
        rc_shape_id crate_shape;
        rc_body_id crate = box_body(w, RC_DYNAMIC, rc_v2(0.0f, kind == 0 ? 5.5f : 1.5f), 0.0f, 0.5f, 0.5f,
                                    &crate_shape);
        rc_filter crate_filter = rc_default_filter();
        crate_filter.category_bits = 2u;
        ck_assert(rc_shape_set_filter(w, crate_shape, crate_filter));
        rc_body_id sleepers[2] = {crate, platform};
        step_until_asleep(w, sleepers, kind == 0 ? 1 : 2);
        rc_filter through = rc_default_filter();
        through.mask_bits = ~2u; /* everything but the crate */
        ck_assert(rc_shape_set_filter(w, platform_shape, through));
        EXPECT(rc_body_is_awake(w, crate), "platform %d: the crate still asleep after the filter changed", kind);
        step_seconds(w, 2.0);
        rc_vec2 p = rc_body_position(w, crate);
        EXPECT(fabs(p.x) < 0.01 && fabs(p.y - 0.5) < 0.015, "platform %d: the crate at (%.4f, %.4f), not (0, 0.5)", kind,
               (double)p.x, (double)p.y);
        rc_world_destroy(w);
    }
}
END_TEST

typedef struct slope_scene {
    rc_world *w;
    rc_shape_id slope, crate_shape;
    rc_body_id crate;
} slope_scene;

static const double SLOPE = 20.0 * 3.14159265358979323846 / 180.0;

/* A static slope of 20 degrees (a box turned, its top face through the origin) and a crate of
 * half size 0.5 asleep on it (friction 0.6 both: tan 20 = 0.36 holds it). */
static void make_slope(slope_scene *s) {
    s->w = ws_make_world(rc_v2(0.0f, (float)-G));
    float a = (float)SLOPE;
    rc_vec2 down = {sinf(a) * 0.5f, -cosf(a) * 0.5f}, up = {-sinf(a) * 0.5f, cosf(a) * 0.5f};
    box_body(s->w, RC_STATIC, down, a, 20.0f, 0.5f, &s->slope);
    s->crate = box_body(s->w, RC_DYNAMIC, up, a, 0.5f, 0.5f, &s->crate_shape);
    step_until_asleep(s->w, &s->crate, 1);
}

/* How far the crate slid down the slope from `from` (along it). */
static double slid(const slope_scene *s, rc_vec2 from) {
    rc_vec2 p = rc_body_position(s->w, s->crate);
    return -((double)(p.x - from.x) * cos(SLOPE) + (double)(p.y - from.y) * sin(SLOPE));
}

START_TEST(a_crate_asleep_on_a_slope_made_slippery_slides) {
    /* its own friction and the slope's set to 0.1 (the pair's: the square root of their
       product, 0.1); then, in another scene, the slope's alone set to 0 (the pair's 0) */
    for (int which = 0; which < 2; ++which) {
        slope_scene s;
        make_slope(&s);
        rc_vec2 from = rc_body_position(s.w, s.crate);
        if (which == 0) {
            ck_assert(rc_shape_set_friction(s.w, s.crate_shape, 0.1f));
            ck_assert(rc_shape_set_friction(s.w, s.slope, 0.1f));
        } else {
            ck_assert(rc_shape_set_friction(s.w, s.slope, 0.0f));
        }
        EXPECT(rc_body_is_awake(s.w, s.crate), "case %d: the crate still asleep after the friction changed", which);
        step_seconds(s.w, 1.0);
        double mu = which == 0 ? 0.1 : 0.0;
        double want = 0.5 * G * (sin(SLOPE) - mu * cos(SLOPE));
        double got = slid(&s, from);
        printf("[wakes] friction %.1f: slid %.4f in 1 s, analytic %.4f\n", mu, got, want);
        EXPECT(fabs(got - want) < 0.03 * want, "friction %.1f: slid %.4f in 1 s, analytic %.4f", mu, got, want);
        rc_world_destroy(s.w);
    }
}
END_TEST

START_TEST(the_same_material_set_again_wakes_nothing) {
    slope_scene s;
    make_slope(&s);
    rc_vec2 from = rc_body_position(s.w, s.crate);
    for (int frame = 0; frame < 120; ++frame) {
        /* a game setting the materials it has every frame */
        ck_assert(rc_shape_set_friction(s.w, s.crate_shape, 0.6f));
        ck_assert(rc_shape_set_friction(s.w, s.slope, 0.6f));
        ck_assert(rc_shape_set_restitution(s.w, s.crate_shape, 0.0f));
        ck_assert(!rc_body_is_awake(s.w, s.crate));
        ck_assert(rc_world_step(s.w, DT));
    }
    rc_vec2 p = rc_body_position(s.w, s.crate);
    EXPECT(p.x == from.x && p.y == from.y, "the crate moved from (%.9g, %.9g) to (%.9g, %.9g)", (double)from.x,
           (double)from.y, (double)p.x, (double)p.y);
    /* a new value wakes it, and it holds (0.5 still holds it on 20 degrees) and sleeps again */
    ck_assert(rc_shape_set_friction(s.w, s.crate_shape, 0.5f));
    EXPECT(rc_body_is_awake(s.w, s.crate), "a new friction did not wake the crate");
    step_until_asleep(s.w, &s.crate, 1);
    EXPECT(slid(&s, from) < 0.005, "friction 0.5 let the crate slide %.4f", slid(&s, from));
    rc_world_destroy(s.w);
}
END_TEST

/* A sleeping ball on the ground given restitution: it wakes (and, resting, stays where it is). */
START_TEST(a_restitution_change_wakes_a_sleeping_body) {
    rc_world *w = ws_make_world(rc_v2(0.0f, (float)-G));
    rc_shape_id ground;
    box_body(w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f, 20.0f, 0.5f, &ground);
    rc_shape_id shape;
    rc_body_id crate = box_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.5f), 0.0f, 0.5f, 0.5f, &shape);
    step_until_asleep(w, &crate, 1);
    ck_assert(rc_shape_set_restitution(w, ground, 0.5f)); /* the ground's: what touches it wakes */
    EXPECT(rc_body_is_awake(w, crate), "the ground's restitution changed: the crate on it still asleep");
    step_until_asleep(w, &crate, 1);
    ck_assert(rc_shape_set_restitution(w, shape, 0.5f)); /* its own */
    EXPECT(rc_body_is_awake(w, crate), "its restitution changed: the crate still asleep");
    rc_vec2 p = rc_body_position(w, crate);
    EXPECT(fabs(p.x) < 0.001 && fabs(p.y - 0.5) < 0.01, "the crate at (%.4f, %.4f)", (double)p.x, (double)p.y);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("wakes");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, boxes_asleep_on_a_box_moved_away_fall_onto_what_is_left);
    tcase_add_test(tc, a_crate_asleep_on_a_platform_moved_away_falls);
    tcase_add_test(tc, a_crate_asleep_on_a_platform_that_now_lets_it_through_falls);
    tcase_add_test(tc, a_crate_asleep_on_a_slope_made_slippery_slides);
    tcase_add_test(tc, the_same_material_set_again_wakes_nothing);
    tcase_add_test(tc, a_restitution_change_wakes_a_sleeping_body);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
