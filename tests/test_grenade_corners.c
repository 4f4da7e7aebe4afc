/* Grenades where two shapes meet. A swept circle resting in the inside corner of a kinematic L
 * (a floor and a wall) that turns stays in the corner, and a turning drum keeps every grenade
 * inside: both overlap the two faces of the corner at once as the L turns onto them, and the push
 * out of one face, blocked by the other, once took the grenade out through the floor's far end,
 * nine units away in one step (28 of 200 grenades left a drum turning at 0.3 rad/s in 30 s,
 * where Box2D v3 loses none). A grenade set on the seam of two tiles rolls off it. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float DT = 1.0f / 60.0f;

static rc_body_id turning_body(rc_world *w, float spin) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_KINEMATIC;
    bd.angular_velocity = spin;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    return b;
}

static void box_at(rc_world *w, rc_body_id b, rc_vec2 offset, float hx, float hy) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = offset;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, hx, hy)));
}

/* How deep a circle of radius r at p reaches into the box of half size (hx, hy) at `offset` in
 * the frame of a body turned by `angle` about the origin (negative: apart), in double. */
static double depth_in_box(double angle, rc_vec2 offset, double hx, double hy, rc_vec2 p, double r) {
    double c = cos(angle), s = sin(angle);
    double lx = c * p.x + s * p.y - offset.x, ly = -s * p.x + c * p.y - offset.y;
    double dx = fabs(lx) - hx, dy = fabs(ly) - hy;
    double outside = hypot(fmax(dx, 0.0), fmax(dy, 0.0)), inside = fmin(fmax(dx, dy), 0.0);
    return r - (outside + inside);
}

/* The grenade of radius 0.3 set in the corner of an L (floor x -5..5, y -1..0; wall x -5..-4,
 * y 0..10, in the L's frame) turning at `spin` about the origin, for 150 steps (in two bodies
 * turning together when `split`): at no step does it reach more than 0.02 into either box, nor
 * move further than its speed and the corner's allow. Returns NULL or what went wrong. */
static const char *corner_case(float spin, bool split, char *why, size_t size) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id floor = turning_body(w, spin), wall = split ? turning_body(w, spin) : floor;
    rc_vec2 floor_at = {0.0f, -0.5f}, wall_at = {-4.5f, 5.0f};
    box_at(w, floor, floor_at, 5.0f, 0.5f);
    box_at(w, wall, wall_at, 0.5f, 5.0f);
    const float r = 0.3f;
    rc_body_id g = ws_circle_body(w, rc_v2(-3.0f, r), rc_v2(0, 0), r, 0.0f, 0.6f, false);
    const char *fault = NULL;
    for (int i = 0; i < 150 && fault == NULL; ++i) {
        rc_vec2 p0 = rc_body_position(w, g), v0 = rc_body_linear_velocity(w, g);
        ck_assert(rc_world_step(w, DT));
        rc_vec2 p1 = rc_body_position(w, g), v1 = rc_body_linear_velocity(w, g);
        double angle = rc_body_angle(w, floor);
        double deep =
            fmax(depth_in_box(angle, floor_at, 5.0, 0.5, p1, r), depth_in_box(angle, wall_at, 0.5, 5.0, p1, r));
        /* the corner's points are within 11 of the pivot */
        double allowed = DT * (fmax(hypot(v0.x, v0.y), hypot(v1.x, v1.y)) + fabs(spin) * 11.0) + 0.05;
        double moved = hypot((double)p1.x - p0.x, (double)p1.y - p0.y);
        if (deep > 0.02) {
            snprintf(why, size, "step %d: %.4f deep in the L at (%.4f, %.4f)", i, deep, (double)p1.x, (double)p1.y);
            fault = why;
        } else if (moved > allowed) {
            snprintf(why, size, "step %d: moved %.4f from (%.4f, %.4f) to (%.4f, %.4f), at most %.4f", i, moved,
                     (double)p0.x, (double)p0.y, (double)p1.x, (double)p1.y, allowed);
            fault = why;
        }
    }
    rc_world_destroy(w);
    return fault;
}

START_TEST(a_grenade_stays_in_the_corner_of_a_turning_l) {
    static const float spins[] = {0.2f, 0.3f, 0.5f, 1.0f, 2.0f, -0.3f, -1.0f};
    for (size_t k = 0; k < sizeof spins / sizeof spins[0]; ++k) {
        for (int split = 0; split < 2; ++split) {
            char why[200];
            const char *fault = corner_case(spins[k], split == 1, why, sizeof why);
            EXPECT(fault == NULL, "%.1f rad/s, %s: %s", (double)spins[k], split ? "two bodies" : "one body", fault);
        }
    }
}
END_TEST

/* A drum: four walls (inside 19 x 19) of one kinematic body turning at `spin` about its centre,
 * 200 bodies thrown about inside it (every one a grenade when `circles`, else circles, boxes and
 * capsules in turn) for 20 s (2 s under valgrind); how many of them end a step outside the walls
 * (in the drum's frame). */
static int drum_escapes(float spin, bool circles, uint64_t seed, char *first, size_t size) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id drum = turning_body(w, spin);
    box_at(w, drum, rc_v2(0.0f, -10.0f), 10.0f, 0.5f);
    box_at(w, drum, rc_v2(0.0f, 10.0f), 10.0f, 0.5f);
    box_at(w, drum, rc_v2(-10.0f, 0.0f), 0.5f, 10.0f);
    box_at(w, drum, rc_v2(10.0f, 0.0f), 0.5f, 10.0f);
    ws_rng rng = {seed};
    enum { COUNT = 200 };
    rc_body_id bodies[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        rc_vec2 p = {-8.0f + 1.2f * (float)(i % 14), -8.0f + 1.2f * (float)(i / 14)};
        rc_vec2 v = {ws_range(&rng, -10.0, 10.0), ws_range(&rng, -10.0, 10.0)};
        int kind = circles ? 1 : i % 3;
        if (kind == 1) {
            bodies[i] = ws_circle_body(w, p, v, ws_range(&rng, 0.2, 0.5), 0.0f, 0.6f, false);
            continue;
        }
        bodies[i] = ws_body(w, RC_DYNAMIC, p, ws_range(&rng, 0.0, 6.28));
        rc_body_set_linear_velocity(w, bodies[i], v);
        rc_shape_def sd = rc_shape_default_def();
        if (kind == 0) {
            ck_assert(!rc_shape_id_is_null(
                rc_shape_create_box(w, bodies[i], &sd, ws_range(&rng, 0.2, 0.5), ws_range(&rng, 0.2, 0.5))));
        } else {
            float radius = ws_range(&rng, 0.15, 0.35);
            ck_assert(!rc_shape_id_is_null(
                rc_shape_create_capsule(w, bodies[i], &sd, rc_v2(-0.3f, 0), rc_v2(0.3f, 0), radius)));
        }
    }
    int escaped = 0;
    bool out[COUNT] = {false};
    int steps = rc_test_random_cases(1200); /* (a tenth under valgrind) */
    for (int step = 0; step < steps; ++step) {
        ck_assert(rc_world_step(w, DT));
        double a = rc_body_angle(w, drum), c = cos(a), s = sin(a);
        for (int i = 0; i < COUNT; ++i) {
            rc_vec2 p = rc_body_position(w, bodies[i]);
            double lx = c * p.x + s * p.y, ly = -s * p.x + c * p.y;
            if (!out[i] && (fabs(lx) > 9.5 || fabs(ly) > 9.5)) {
                out[i] = true;
                if (escaped++ == 0) {
                    snprintf(first, size, "body %d (kind %d) at step %d, at (%.3f, %.3f) in the drum", i,
                             circles ? 1 : i % 3, step, lx, ly);
                }
            }
        }
    }
    rc_world_destroy(w);
    return escaped;
}

START_TEST(turning_drums_keep_every_grenade_inside) {
    static const float spins[] = {0.3f, 1.0f, 2.0f};
    for (size_t k = 0; k < sizeof spins / sizeof spins[0]; ++k) {
        for (int circles = 1; circles >= 0; --circles) {
            char first[160] = "";
            int escaped = drum_escapes(spins[k], circles == 1, 20261201u + k, first, sizeof first);
            printf("[corners] a drum at %.1f rad/s of %s: %d of 200 left it\n", (double)spins[k],
                   circles ? "grenades" : "mixed bodies", escaped);
            EXPECT(escaped == 0, "%.1f rad/s, %s: %d of 200 left the drum, the first %s", (double)spins[k],
                   circles ? "grenades" : "mixed bodies", escaped, first);
        }
    }
}
END_TEST

/* A grenade (rolling resistance 0) set touching the seam of two static tiles (one body, turned
 * to a slope of 5 to 40 degrees), within a few float spacings of it either way, rolls down the
 * slope as a disc does: after 1 s, 0.5 g sin(a) / 1.5 along it, within 1.5%, and never stands
 * still while it holds speed. Before, 19 of 72 such grenades stood at the seam for good (the
 * push out of one tile was held by the other, which it overlapped by a rounding: pushed out of
 * neither), their velocities growing by gravity (9.7 units/s after 10 s). */
START_TEST(a_grenade_set_on_the_seam_of_two_tiles_rolls_down_the_slope) {
    static const float shifts[] = {-4e-6f, -1e-6f, 0.0f, 1e-6f, 4e-6f};
    for (int degrees = 5; degrees <= 40; degrees += 5) {
        for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; ++k) {
            for (int side = -1; side <= 1; side += 2) {
                float slope = (float)side * (float)degrees * 3.14159265f / 180.0f;
                rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
                rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0, 0), slope);
                box_at(w, ground, rc_v2(-3.0f, -0.5f), 3.0f, 0.5f);
                box_at(w, ground, rc_v2(3.0f, -0.5f), 3.0f, 0.5f);
                rc_rot q = rc_rot_from_angle(slope);
                const float r = 0.25f;
                rc_vec2 start = rc_rotate(q, rc_v2(shifts[k], r));
                rc_body_id g = ws_body(w, RC_DYNAMIC, start, 0.0f);
                rc_shape_def sd = rc_shape_default_def();
                sd.rolling_resistance = 0.0f;
                ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, g, &sd, r)));
                int still = 0;
                for (int i = 0; i < 60; ++i) {
                    rc_vec2 before = rc_body_position(w, g);
                    ck_assert(rc_world_step(w, DT));
                    rc_vec2 after = rc_body_position(w, g), v = rc_body_linear_velocity(w, g);
                    still += after.x == before.x && after.y == before.y && hypotf(v.x, v.y) > 0.05f;
                }
                rc_vec2 p = rc_body_position(w, g);
                double along = hypot((double)p.x - start.x, (double)p.y - start.y);
                double expected = 0.5 * 10.0 * sin((double)degrees * 3.14159265358979 / 180.0) / 1.5;
                EXPECT(still == 0 && fabs(along - expected) <= 0.015 * expected,
                       "%d degrees (%s), %g off the seam: %.5f along the slope in 1 s (a disc rolls %.5f), "
                       "%d steps standing with speed",
                       degrees, side < 0 ? "down to the right" : "down to the left", (double)shifts[k], along,
                       expected, still);
                rc_world_destroy(w);
            }
        }
    }
}
END_TEST

static Suite *grenade_corners_suite(void) {
    Suite *s = suite_create("grenade_corners");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, a_grenade_stays_in_the_corner_of_a_turning_l);
    tcase_add_test(t, turning_drums_keep_every_grenade_inside);
    tcase_add_test(t, a_grenade_set_on_the_seam_of_two_tiles_rolls_down_the_slope);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return rc_test_run(grenade_corners_suite()); }
