/* Thin props spinning over the corners of walls (world.h: a prop never passes through a wall;
 * world/continuous.c). A body that starts a step touching a wall deeper than a skin of it (a
 * body only 0.02 thick has a skin thinner than the linear slop: always) had only its corners
 * looked at, and a corner of the wall piercing its face met none of them. So a 3 x 0.02 plank
 * thrown at 685 units/s spinning at 27 rad/s into a star-shaped room crossed over the tip of one
 * of its inner corners and left the room, through a chain or through boxes 0.1 thick, and planks
 * thrown at the apex of a roof ended with their centre inside it. Now its core (a small circle
 * about its middle) is looked at along with its corners. And a two-sided chain meets a plank
 * past the tip of a spike from the side that faces it (rc_two_sided_wall_side). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "shapes/collide.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float DT = 1.0f / 60.0f;

enum { ROOM_POINTS = 10 };

typedef enum wall_kind { TWO_SIDED_CHAIN, ONE_SIDED_CHAIN, BOX_WALLS } wall_kind;

static const char *const WALL_NAMES[3] = {"a two-sided chain", "a one-sided chain", "boxes 0.1 thick"};

/* A star of 5 points (radii 10 and 3.5), turned by `turn`: a chain loop, or boxes 0.1 thick laid
 * outside its outline. */
static void make_star_room(rc_world *w, wall_kind kind, float turn, rc_vec2 points[ROOM_POINTS]) {
    for (int i = 0; i < ROOM_POINTS; ++i) {
        float r = i % 2 == 1 ? 3.5f : 10.0f, a = turn + (float)i * 2.0f * RC_PI / ROOM_POINTS;
        points[i] = rc_v2(r * cosf(a), r * sinf(a));
    }
    rc_body_id ground = ws_static_body(w);
    if (kind != BOX_WALLS) {
        rc_shape_def sd = rc_shape_default_def();
        sd.one_sided = kind == ONE_SIDED_CHAIN; /* counter-clockwise: the free side is inside */
        ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, points, ROOM_POINTS, true)));
        return;
    }
    for (int i = 0; i < ROOM_POINTS; ++i) {
        rc_vec2 a = points[i], b = points[(i + 1) % ROOM_POINTS], d = rc_sub(b, a);
        float angle = atan2f(d.y, d.x);
        rc_body_id wall = ws_body(w, RC_STATIC, rc_lerp(a, b, 0.5f), angle);
        rc_shape_def sd = rc_shape_default_def();
        sd.offset = rc_v2(0.0f, -0.05f); /* outside: on the right of a counter-clockwise edge */
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, wall, &sd, 0.5f * rc_length(d) + 0.05f, 0.05f)));
    }
}

/* Inside the room's outline (crossings of a ray), or within 0.1 of one of its walls: a plank
 * lying along a wall may have its centre a hair outside. */
static bool in_room(const rc_vec2 points[ROOM_POINTS], rc_vec2 c) {
    bool inside = false;
    for (int i = 0, j = ROOM_POINTS - 1; i < ROOM_POINTS; j = i++) {
        rc_vec2 a = points[i], b = points[j];
        if ((a.y > c.y) != (b.y > c.y) && c.x < (b.x - a.x) * (c.y - a.y) / (b.y - a.y) + a.x) {
            inside = !inside;
        }
        rc_vec2 ab = rc_sub(b, a);
        float t = fminf(fmaxf(rc_dot(rc_sub(c, a), ab) / rc_dot(ab, ab), 0.0f), 1.0f);
        if (rc_distance(c, rc_mul_add(a, t, ab)) < 0.1f) {
            return true;
        }
    }
    return inside;
}

typedef struct throw_def {
    rc_vec2 position, velocity;
    float angle, spin;
} throw_def;

typedef enum prop_kind { THIN_PLANK, PLANK, SLIVER } prop_kind;

static rc_body_id throw_prop(rc_world *w, prop_kind kind, throw_def t) {
    rc_body_id b = ws_body(w, RC_DYNAMIC, t.position, t.angle);
    ck_assert(rc_body_set_linear_velocity(w, b, t.velocity));
    ck_assert(rc_body_set_angular_velocity(w, b, t.spin));
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id s;
    if (kind == SLIVER) {
        rc_vec2 tri[3] = {{-0.6f, 0.0f}, {0.6f, 0.0f}, {0.0f, 0.03f}};
        s = rc_shape_create_polygon(w, b, &sd, tri, 3);
    } else {
        s = kind == THIN_PLANK ? rc_shape_create_box(w, b, &sd, 1.5f, 0.01f) : rc_shape_create_box(w, b, &sd, 1.0f, 0.05f);
    }
    ck_assert(!rc_shape_id_is_null(s));
    return b;
}

/* The steps (up to `steps`) after which the prop's centre is out of the room: -1 when never. */
static int first_step_out(wall_kind walls, float turn, prop_kind kind, throw_def t, rc_vec2 gravity, int steps) {
    rc_world *w = ws_make_world(gravity);
    rc_vec2 points[ROOM_POINTS];
    make_star_room(w, walls, turn, points);
    rc_body_id b = throw_prop(w, kind, t);
    int out = -1;
    for (int step = 0; step < steps && out < 0; ++step) {
        ck_assert(rc_world_step(w, DT));
        if (!in_room(points, rc_body_world_center(w, b))) {
            out = step;
        }
    }
    rc_world_destroy(w);
    return out;
}

/* The probe's throw: a 3 x 0.02 plank from near the middle at 685 units/s, spinning at -27 rad/s,
 * crossed over an inner corner of the room at its fifth step (through the chain) or its fourth
 * (through the boxes). */
START_TEST(a_thin_plank_spinning_over_an_inner_corner_stays_in_the_room) {
    throw_def t = {{-0.431139857f, -0.0610135719f}, {-250.168961f, -637.404968f}, 3.90853024f, -27.2146664f};
    for (int walls = 0; walls < 3; ++walls) {
        int out = first_step_out((wall_kind)walls, 5.62624216f, THIN_PLANK, t, rc_v2(0.0f, -10.0f), 300);
        EXPECT(out < 0, "in a room of %s the plank's centre left it at step %d", WALL_NAMES[walls], out);
    }
}
END_TEST

/* rc_two_sided_wall_side by hand. A wall a -> b going up the y axis to a spike's tip b, whose
 * neighbour goes on to (5, 1): its left is -x. Past the tip and above the neighbour's line, a
 * point faces the wall's left around the tip (by the wall's line alone, its right); past the tip
 * and under the neighbour, inside the spike: its right. */
START_TEST(a_point_past_a_joint_faces_the_side_of_its_wedge) {
    rc_vec2 a = {0.0f, -5.0f}, b = {0.0f, 0.0f}, next = {5.0f, 1.0f};
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(0.1f, 0.3f)), 1);
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(1.0f, 0.1f)), -1);
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(-1.0f, 0.5f)), 1);
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(1.0f, -2.0f)), -1);  /* over the wall */
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(-1.0f, -2.0f)), 1);
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(-0.5f, -6.0f)), 1);  /* past an open end */
    ck_assert_int_eq(rc_two_sided_wall_side(a, a, b, next, rc_v2(0.5f, -6.0f)), -1);
    /* past a flat joint: the line's side */
    rc_vec2 f0 = {0.0f, 0.0f}, f1 = {1.0f, 0.0f}, f2 = {2.0f, 0.0f};
    ck_assert_int_eq(rc_two_sided_wall_side(f0, f0, f1, f2, rc_v2(1.5f, 0.1f)), 1);
    ck_assert_int_eq(rc_two_sided_wall_side(f0, f0, f1, f2, rc_v2(1.5f, -0.1f)), -1);
    /* before a: the neighbour (-1, 1) -> (0, 0) comes down into a; under it and above the wall's
       line a point faces the wall's underside around a */
    rc_vec2 prev = {-1.0f, 1.0f};
    ck_assert_int_eq(rc_two_sided_wall_side(prev, f0, f1, f1, rc_v2(-0.5f, 0.2f)), -1);
    ck_assert_int_eq(rc_two_sided_wall_side(prev, f0, f1, f1, rc_v2(-0.5f, 0.7f)), 1);
    ck_assert_int_eq(rc_two_sided_wall_side(prev, f0, f1, f1, rc_v2(-0.5f, -0.2f)), -1);
}
END_TEST

/* The throw that found it: a 3 x 0.02 plank, slowed by the walls of a two-sided star room, came to
 * lie over the tip of an inner corner, its middle past the end of one wall. That wall met it
 * from the side facing into the spike, pushed it in, and it sank through. */
START_TEST(a_thin_plank_over_a_spike_of_a_two_sided_chain_does_not_sink_into_it) {
    throw_def t = {{1.06426442f, -0.780785322f}, {629.856506f, 536.6073f}, 2.1661377f, 49.7881432f};
    int out = first_step_out(TWO_SIDED_CHAIN, 1.17938066f, THIN_PLANK, t, rc_v2(0.0f, -10.0f), 300);
    EXPECT(out < 0, "the plank's centre left the room at step %d", out);
}
END_TEST

/* Thrown from anywhere within 2.5 of the room's middle at 50 to 1,000 units/s in any direction,
 * spinning at up to 60 rad/s, with and without gravity: 3 x 0.02 planks, 2 x 0.1 planks and
 * 1.2 x 0.03 slivers stay in the room through 240 steps, among walls of boxes and of one- and
 * two-sided chains. (Before, the probe's throws of this kind left the room 25 times in 2,700, some through
 * each kind of wall.) */
START_TEST(thin_props_thrown_in_a_star_room_never_leave_it) {
    const int per_kind = rc_test_random_cases(200);
    int thrown = 0;
    for (int walls = TWO_SIDED_CHAIN; walls <= BOX_WALLS; ++walls) {
        for (int kind = 0; kind < 3; ++kind) {
            ws_rng r = {0x57a2c0ede5ULL + 31ULL * (unsigned long long)walls + (unsigned long long)kind};
            for (int k = 0; k < per_kind; ++k) {
                float from = ws_range(&r, 0.0, 2.5), at = ws_range(&r, 0.0, 6.283);
                float speed = ws_range(&r, 50.0, 1000.0), heading = ws_range(&r, 0.0, 6.283);
                throw_def t = {{from * cosf(at), from * sinf(at)}, {speed * cosf(heading), speed * sinf(heading)},
                               ws_range(&r, 0.0, 6.283), ws_range(&r, -60.0, 60.0)};
                float turn = ws_range(&r, 0.0, 6.283);
                rc_vec2 gravity = rc_v2(0.0f, k % 2 == 1 ? -10.0f : 0.0f);
                int out = first_step_out((wall_kind)walls, turn, (prop_kind)kind, t, gravity, 240);
                EXPECT(out < 0,
                       "%s, prop %d, throw %d: from (%a, %a) at (%a, %a), angle %a, spin %a, room turned %a: out at "
                       "step %d",
                       WALL_NAMES[walls], kind, k, (double)t.position.x, (double)t.position.y, (double)t.velocity.x,
                       (double)t.velocity.y, (double)t.angle, (double)t.spin, (double)turn, out);
                ++thrown;
            }
        }
    }
    printf("[wall_corners] %d props thrown in star rooms: none left\n", thrown);
}
END_TEST

/* A 3-long plank (0.1 or 0.5 thick) thrown at the apex of a roof (a solid triangle, or a
 * two-sided chain /\ of the same outline) spinning, with no gravity: its centre never gets
 * below both roof lines within the roof (the probe's three throws: 0.54 and 0.45 inside, and
 * through to (60, -203)). */
static float deepest_in_roof(bool chain, float half_angle, float half_thick, throw_def t) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_id ground = ws_static_body(w);
    float s = sinf(half_angle), c = cosf(half_angle);
    rc_vec2 pts[3] = {{-20.0f * s, -20.0f * c}, {0.0f, 0.0f}, {20.0f * s, -20.0f * c}};
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id roof = chain ? rc_shape_create_chain(w, ground, &sd, pts, 3, false) : rc_shape_create_polygon(w, ground, &sd, pts, 3);
    ck_assert(!rc_shape_id_is_null(roof));
    rc_body_id b = ws_body(w, RC_DYNAMIC, t.position, t.angle);
    ck_assert(rc_body_set_linear_velocity(w, b, t.velocity));
    ck_assert(rc_body_set_angular_velocity(w, b, t.spin));
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 1.5f, half_thick)));
    float deepest = -INFINITY;
    for (int step = 0; step < 120; ++step) {
        ck_assert(rc_world_step(w, DT));
        rc_vec2 p = rc_body_world_center(w, b);
        if (p.y >= -20.0f * c) {
            deepest = fmaxf(deepest, -fmaxf(c * p.x + s * p.y, -c * p.x + s * p.y));
        }
    }
    rc_world_destroy(w);
    return deepest;
}

START_TEST(a_spinning_plank_never_gets_inside_a_roof) {
    const struct {
        bool chain;
        float half_angle, half_thick;
        throw_def t;
    } cases[3] = {
        {false, 1.0f, 0.05f, {{1.7183f, 2.9045f}, {-42.69f, -118.57f}, 0.4312f, 19.228f}},
        {true, 1.0f, 0.05f, {{1.7183f, 2.9045f}, {-42.69f, -118.57f}, 0.4312f, 19.228f}},
        {true, 0.6f, 0.25f, {{0.1464f, 2.4536f}, {-91.93f, -363.01f}, 5.3796f, -35.057f}},
    };
    for (int i = 0; i < 3; ++i) {
        float deepest = deepest_in_roof(cases[i].chain, cases[i].half_angle, cases[i].half_thick, cases[i].t);
        EXPECT(deepest < 0.0f, "case %d (%s): the plank's centre %.4f inside the roof", i,
               cases[i].chain ? "two-sided chain" : "solid", (double)deepest);
    }
}
END_TEST

/* The same care must not stop what it need not. Planks 0.01 to 0.2 thick and 0.6 to 4 long,
 * thrown at up to 30 units/s spinning at up to 40 rad/s from up to 4 above a floor (a box, a
 * chain, or tiles), some of them made deep in it: none stands still for 10 steps while faster
 * than 1 unit/s. Looked at in steps of half the way from the floor, a plank moving along tiles
 * from inside the floor came ever nearer the next tile and never moved on; stopped at every step
 * its core went into a wall, a plank made deep in a floor and turning out of it (its contacts
 * left it alone), or a plank 0.01 thick lying on a chain (its core always at it), froze. */
START_TEST(planks_thrown_at_floors_never_stand_still_holding_speed) {
    ws_rng r = {0x7157ab1eULL};
    const int throws = rc_test_random_cases(600);
    int worst = 0;
    for (int k = 0; k < throws; ++k) {
        rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
        rc_body_id ground = ws_static_body(w);
        rc_shape_def sd = rc_shape_default_def();
        sd.friction = ws_range(&r, 0.0, 1.0);
        if (k % 3 == 0) {
            sd.offset = rc_v2(0.0f, -0.5f);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 500.0f, 0.5f)));
        } else if (k % 3 == 1) {
            rc_vec2 p[2] = {{-500.0f, 0.0f}, {500.0f, 0.0f}};
            ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, p, 2, false)));
        } else {
            for (int i = -100; i < 100; ++i) {
                sd.offset = rc_v2(2.0f * (float)i + 1.0f, -0.5f);
                ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 1.0f, 0.5f)));
            }
        }
        float half_thick = ws_range(&r, 0.005, 0.1), half_long = ws_range(&r, 0.3, 2.0);
        throw_def t = {{ws_range(&r, -5.0, 5.0), ws_range(&r, 0.5, 4.0)},
                       {ws_range(&r, -30.0, 30.0), ws_range(&r, -30.0, 5.0)},
                       ws_range(&r, 0.0, 6.28),
                       ws_range(&r, -40.0, 40.0)};
        rc_body_id b = ws_body(w, RC_DYNAMIC, t.position, t.angle);
        ck_assert(rc_body_set_linear_velocity(w, b, t.velocity));
        ck_assert(rc_body_set_angular_velocity(w, b, t.spin));
        rc_shape_def ps = rc_shape_default_def();
        ps.friction = ws_range(&r, 0.0, 1.0);
        ps.restitution = ws_range(&r, 0.0, 0.5);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &ps, half_long, half_thick)));
        rc_vec2 last = t.position;
        int still = 0;
        for (int step = 0; step < 180; ++step) {
            ck_assert(rc_world_step(w, DT));
            rc_vec2 p = rc_body_position(w, b), v = rc_body_linear_velocity(w, b);
            float speed = rc_length(v), moved = rc_distance(p, last);
            last = p;
            still = speed > 1.0f && moved < 0.01f * speed * DT ? still + 1 : 0;
            worst = still > worst ? still : worst;
            EXPECT(still < 10,
                   "throw %d (floor %d, plank %a x %a): still at step %d at %.3f units/s, from (%a, %a) at (%a, %a), "
                   "angle %a, spin %a",
                   k, k % 3, (double)(2.0f * half_long), (double)(2.0f * half_thick), step, (double)speed,
                   (double)t.position.x, (double)t.position.y, (double)t.velocity.x, (double)t.velocity.y,
                   (double)t.angle, (double)t.spin);
        }
        rc_world_destroy(w);
    }
    printf("[wall_corners] %d planks thrown at floors: the longest a moving one stood still, %d steps\n", throws, worst);
}
END_TEST

/* How deep any part of an L (a bar 2 x 0.3, a post 0.3 x 0.9 on its end: two boxes) thrown at a
 * floor of 60 chain walls 1 long (two-sided, through floor_at, along x) gets below the
 * floor's line over `steps` steps of 1/60 s with gravity, while over the floor (2 in from its
 * ends); 1e30 if its centre gets below. */
static double deepest_l_part(rc_vec2 floor_at, throw_def t, int steps) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id ground = ws_body(w, RC_STATIC, floor_at, 1.57079637f);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 points[61];
    for (int i = 0; i <= 60; ++i) {
        points[i] = rc_v2(0.0f, (float)(30 - i)); /* along -x in the world: the body is turned a quarter */
    }
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, points, 61, false)));
    rc_body_id b = ws_body(w, RC_DYNAMIC, t.position, t.angle);
    ck_assert(rc_body_set_linear_velocity(w, b, t.velocity) && rc_body_set_angular_velocity(w, b, t.spin));
    rc_shape_id parts[2];
    parts[0] = rc_shape_create_box(w, b, &sd, 1.0f, 0.15f);
    sd.offset = rc_v2(-0.85f, 0.6f);
    parts[1] = rc_shape_create_box(w, b, &sd, 0.15f, 0.45f);
    ck_assert(!rc_shape_id_is_null(parts[0]) && !rc_shape_id_is_null(parts[1]));
    double deepest = -1e30;
    for (int step = 0; step < steps; ++step) {
        ck_assert(rc_world_step(w, DT));
        double floor_y = (double)rc_body_position(w, ground).y;
        rc_vec2 c = rc_body_world_center(w, b);
        if (fabsf(c.x - floor_at.x) > 28.0f) {
            break; /* off the floor's end, where it may fall past */
        }
        if ((double)c.y < floor_y) {
            deepest = 1e30;
            break;
        }
        for (int k = 0; k < 2; ++k) {
            rc_polygon pg;
            ck_assert(rc_shape_world_polygon(w, parts[k], &pg));
            for (int v = 0; v < pg.count; ++v) {
                deepest = fmax(deepest, floor_y - (double)pg.vertices[v].y);
            }
        }
    }
    rc_world_destroy(w);
    return deepest;
}

/* A helper's L thrown at 794 units/s spinning at 98 rad/s (then at the spin limit, 188 rad/s at
 * 60 Hz, half a turn a step) at a floor of chain walls swung its post 0.5 through the floor in
 * one step, and lay across it, asleep: continuous collision looked for walls in the boxes of the
 * post where it started and ended the step, and half a turn carried it through neither. The box
 * now holds the turn. That L, and 1,000 Ls thrown at 300 to 900 units/s up to 60 degrees off the
 * floor's normal, spinning at 100 to 188 rad/s from 2 to 15 above the floor: no part of any
 * gets more than 0.1 below the floor's line in 60 steps (before: 3, and the helper's L lay with its
 * centre below the floor). */
START_TEST(an_l_spinning_at_the_limit_never_swings_a_part_through_a_chain_floor) {
    throw_def helpers = {{2.69549322f, 10.8378077f}, {519.964783f, -599.498718f}, 4.33715534f, -98.3889923f};
    double d = deepest_l_part(rc_v2(5.27453899f, -5.72624874f), helpers, 30);
    EXPECT(d < 0.1, "the helper's L got %.4g below the floor (1e30: its centre)", d);
    ws_rng r = {0x1a11ull};
    const int throws = rc_test_random_cases(1000);
    double worst = -1e30;
    int deep = 0;
    for (int k = 0; k < throws; ++k) {
        float off = ws_range(&r, -1.047, 1.047), speed = ws_range(&r, 300.0, 900.0);
        float spin = ws_range(&r, 100.0, 188.0) * (ws_chance(&r, 0.5) ? 1.0f : -1.0f);
        throw_def t = {{ws_range(&r, -10.0, 10.0), ws_range(&r, 2.0, 15.0)},
                       {speed * sinf(off), -speed * cosf(off)},
                       ws_range(&r, 0.0, 6.28),
                       spin};
        double depth = deepest_l_part(rc_v2(0.0f, 0.0f), t, 60);
        worst = fmax(worst, depth);
        if (!(depth < 0.1)) {
            ++deep;
            printf("[wall_corners] L %d at %.0f units/s, %.0f rad/s: %.4g below the floor\n", k, (double)speed,
                   (double)spin, depth);
        }
    }
    EXPECT(deep == 0, "%d of %d Ls got a part 0.1 below the floor", deep, throws);
    printf("[wall_corners] %d Ls spinning at up to the limit thrown at a chain floor: deepest part %.4f below it\n",
           throws, worst);
}
END_TEST

static Suite *corners_suite(void) {
    Suite *s = suite_create("wall_corners");
    TCase *t = tcase_create("corners");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, a_thin_plank_spinning_over_an_inner_corner_stays_in_the_room);
    tcase_add_test(t, a_point_past_a_joint_faces_the_side_of_its_wedge);
    tcase_add_test(t, a_thin_plank_over_a_spike_of_a_two_sided_chain_does_not_sink_into_it);
    tcase_add_test(t, thin_props_thrown_in_a_star_room_never_leave_it);
    tcase_add_test(t, a_spinning_plank_never_gets_inside_a_roof);
    tcase_add_test(t, planks_thrown_at_floors_never_stand_still_holding_speed);
    tcase_add_test(t, an_l_spinning_at_the_limit_never_swings_a_part_through_a_chain_floor);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    return rc_test_run(corners_suite());
}
