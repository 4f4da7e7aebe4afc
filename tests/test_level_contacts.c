/* A dynamic body's count of its contacts with static and kinematic bodies (rc_body
 * level_contacts, world/contact.c), and what it is for: a held grenade with none, whose path
 * stays inside its own grid box, moves along the solver's path without a cast (projectile.c:
 * held_path_is_clear), since any static or kinematic shape it could meet there would share a
 * contact with it. The count follows contacts made and ended, types changed and snapshots
 * restored (checked against a recount, rc_world_level_counts_valid, and against values worked
 * out by hand); the shortcut must give the bits the cast gives (a world where it cannot be
 * taken, for kinematic bodies turning far off, steps to the same bits). A grenade whose level
 * contacts are all with kinematic bodies that moved in the step takes it too when its path is
 * shown clear of their shapes (a pile in a turning drum: a version that cleared paths at a
 * fifth of the bound fails at step 57).
 *
 * The same twins check continuous collision's shortcut for a world of few kinematic bodies, all
 * of them moving (continuous.c: the walls of those a fast prop is fast against are looked at
 * directly, not through the grid of moving shapes): props falling in a turning drum step to the
 * same bits as in a world with more kinematic bodies turning far off, where the grid is asked. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>
#include <ricochet/snapshot.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "world/world_internal.h"

static const float DT = 1.0f / 60.0f;

/* A grenade: a dynamic body whose one shape is a circle, the default material. */
static rc_body_id grenade(rc_world *w, float x, float y) {
    rc_shape_def sd = rc_shape_default_def();
    return ws_circle_body(w, rc_v2(x, y), rc_v2(0.0f, 0.0f), 0.25f, sd.restitution, sd.friction, false);
}

static rc_body_id box(rc_world *w, rc_body_type type, float x, float y, float hw, float hh) {
    rc_body_id b = ws_body(w, type, rc_v2(x, y), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, hw, hh)));
    return b;
}

static int level_contacts(const rc_world *w, rc_body_id b) {
    return w->bodies.data[b.index - 1].level_contacts;
}

static int kinematic_contacts(const rc_world *w, rc_body_id b) {
    return w->bodies.data[b.index - 1].kinematic_contacts;
}

/* A grenade on the ground (one contact with it), one on top of it (none with the level), a
 * crate on the ground beside them and a grenade resting against a still kinematic post. */
START_TEST(level_counts_follow_contacts_types_and_restores) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id ground = box(w, RC_STATIC, 0.0f, -0.5f, 5.0f, 0.5f);
    rc_body_id post = box(w, RC_KINEMATIC, -3.0f, 1.0f, 0.25f, 1.0f);
    rc_body_id low = grenade(w, 0.0f, 0.25f), high = grenade(w, 0.0f, 0.75f);
    rc_body_id crate = box(w, RC_DYNAMIC, 2.0f, 0.5f, 0.5f, 0.5f);
    rc_body_id leaning = grenade(w, -2.5f, 0.25f); /* on the ground, against the post */
    ck_assert(rc_world_step(w, DT));
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 1);
    ck_assert_int_eq(level_contacts(w, high), 0);
    ck_assert_int_eq(level_contacts(w, crate), 1);
    ck_assert_int_eq(level_contacts(w, leaning), 2);
    ck_assert_int_eq(kinematic_contacts(w, leaning), 1); /* the post */
    ck_assert_int_eq(kinematic_contacts(w, low), 0);
    ck_assert_int_eq(kinematic_contacts(w, crate), 0);
    ck_assert_int_eq(level_contacts(w, ground), 0); /* static: not counted */
    ck_assert_int_eq(level_contacts(w, post), 0);
    ck_assert_int_eq(kinematic_contacts(w, post), 0);

    /* a snapshot with the ground, restored after the ground is gone: counted again */
    size_t size = rc_world_snapshot_size(w);
    void *saved = malloc(size);
    ck_assert_ptr_nonnull(saved);
    ck_assert_uint_eq(rc_world_snapshot(w, saved, size), size);

    /* types changed under the contacts */
    ck_assert(rc_body_set_type(w, ground, RC_KINEMATIC));
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 1);
    ck_assert_int_eq(kinematic_contacts(w, low), 1); /* the ground, kinematic now */
    ck_assert_int_eq(kinematic_contacts(w, leaning), 2);
    ck_assert(rc_body_set_type(w, ground, RC_DYNAMIC));
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 0);
    ck_assert_int_eq(kinematic_contacts(w, low), 0);
    ck_assert_int_eq(level_contacts(w, crate), 0);
    ck_assert_int_eq(level_contacts(w, leaning), 1); /* the post */
    ck_assert_int_eq(kinematic_contacts(w, leaning), 1);
    ck_assert_int_eq(level_contacts(w, ground), 0); /* dynamic now: its contacts are all dynamic */
    ck_assert(rc_body_set_type(w, high, RC_STATIC));
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 1); /* (high, static now) */
    ck_assert(rc_body_set_type(w, high, RC_DYNAMIC));
    ck_assert(rc_body_set_type(w, ground, RC_STATIC));
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 1);
    ck_assert_int_eq(level_contacts(w, high), 0);

    /* contacts ended with the bodies */
    rc_body_destroy(w, ground);
    rc_body_destroy(w, post);
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 0);
    ck_assert_int_eq(level_contacts(w, crate), 0);
    ck_assert_int_eq(level_contacts(w, leaning), 0);
    ck_assert_int_eq(kinematic_contacts(w, leaning), 0);

    ck_assert(rc_world_restore(w, saved, size));
    ck_assert(rc_world_level_counts_valid(w));
    ck_assert_int_eq(level_contacts(w, low), 1);
    ck_assert_int_eq(level_contacts(w, leaning), 2);
    ck_assert_int_eq(kinematic_contacts(w, leaning), 1);
    free(saved);
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, DT));
        ck_assert(rc_world_level_counts_valid(w));
    }
    rc_world_destroy(w);
}
END_TEST

/* A pit of grenades poured in rows (as the bench's), its walls static boxes, or a drum of
 * kinematic walls turning about the pit's middle; far off, five kinematic boxes that turn in
 * the second world alone: more kinematic bodies moving than RC_FEW_KINEMATICS turn the
 * shortcut off for the step, and so far off they meet nothing, so both must step to the same
 * bits. */
typedef struct pit {
    rc_world *w;
    rc_body_id g[300];
    rc_body_id plunger; /* a kinematic bar above the pile, still until the test moves it */
} pit;

/* A square frame of four walls 1 thick on a body at (0, 8), 16 x 16 inside: a pit (static) or a
 * drum (kinematic). */
static rc_body_id frame_of_walls(rc_world *w, rc_body_type type) {
    rc_body_id frame = ws_body(w, type, rc_v2(0.0f, 8.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    const float sides[4][4] = {{0.0f, -8.5f, 9.0f, 0.5f}, {0.0f, 8.5f, 9.0f, 0.5f}, {-8.5f, 0.0f, 0.5f, 9.0f},
                               {8.5f, 0.0f, 0.5f, 9.0f}}; /* centre, half extents (the frame's) */
    for (int k = 0; k < 4; ++k) {
        float x = sides[k][0], y = sides[k][1], hw = sides[k][2], hh = sides[k][3];
        rc_vec2 corners[4] = {{x - hw, y - hh}, {x + hw, y - hh}, {x + hw, y + hh}, {x - hw, y + hh}};
        ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, frame, &sd, corners, 4)));
    }
    return frame;
}

static void make_pit(pit *p, bool drum, bool turning_far_off) {
    p->w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_type walls = drum ? RC_KINEMATIC : RC_STATIC;
    rc_body_id frame = frame_of_walls(p->w, walls);
    if (drum) {
        ck_assert(rc_body_set_angular_velocity(p->w, frame, 0.4f));
    }
    for (int k = 0; k < 5; ++k) {
        rc_body_id far_off = box(p->w, RC_KINEMATIC, 200.0f + 10.0f * (float)k, 200.0f, 1.0f, 0.2f);
        if (turning_far_off) {
            ck_assert(rc_body_set_angular_velocity(p->w, far_off, 0.5f));
        }
    }
    p->plunger = box(p->w, RC_KINEMATIC, 0.0f, 14.0f, 2.0f, 0.2f);
    for (int i = 0; i < 300; ++i) {
        int column = i % 15, row = i / 15;
        p->g[i] = grenade(p->w, -4.4f + 0.6f * (float)column + 0.1f * (float)(row % 2), 0.6f + 0.5f * (float)row);
    }
}

/* plunge: from step 150 the plunger goes down into the pile (its top about 4.5 up) at 30
   units/s for a third of a second, down to 4, then stops: a body in motion faster than the
   grid boxes' margins reaches grenades that have no contact with it yet */
static void same_bits(bool drum, bool plunge) {
    pit a, b;
    make_pit(&a, drum, false);
    make_pit(&b, drum, true);
    int most_clear = 0, most_by_walls = 0;
    for (int step = 0; step < 300; ++step) {
        if (plunge && (step == 150 || step == 170)) {
            rc_vec2 v = rc_v2(0.0f, step == 150 ? -30.0f : 0.0f);
            ck_assert(rc_body_set_linear_velocity(a.w, a.plunger, v));
            ck_assert(rc_body_set_linear_velocity(b.w, b.plunger, v));
        }
        ck_assert(rc_world_step(a.w, DT));
        ck_assert(rc_world_step(b.w, DT));
        int clear = 0, by_walls = 0;
        for (int i = 0; i < 300; ++i) {
            rc_vec2 pa = rc_body_position(a.w, a.g[i]), pb = rc_body_position(b.w, b.g[i]);
            rc_vec2 va = rc_body_linear_velocity(a.w, a.g[i]), vb = rc_body_linear_velocity(b.w, b.g[i]);
            ck_assert_msg(memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&va, &vb, sizeof va) == 0,
                          "step %d, grenade %d: (%.9g, %.9g) against (%.9g, %.9g)", step, i, (double)pa.x,
                          (double)pa.y, (double)pb.x, (double)pb.y);
            clear += rc_body_is_awake(a.w, a.g[i]) && level_contacts(a.w, a.g[i]) == 0;
            by_walls += rc_body_is_awake(a.w, a.g[i]) && level_contacts(a.w, a.g[i]) > 0;
        }
        most_clear = clear > most_clear ? clear : most_clear;
        most_by_walls = by_walls > most_by_walls ? by_walls : most_by_walls;
    }
    /* (not a comparison of two casts: most of the pile is awake and clear of the level; in the
       drum, most of it is at times within the turned walls' grid boxes, paired with them, and
       its paths are shown clear of the walls themselves: stays_apart) */
    ck_assert_int_ge(most_clear, drum ? 100 : 200);
    if (drum) {
        ck_assert_int_ge(most_by_walls, 200);
    }
    ck_assert(rc_world_level_counts_valid(a.w));
    rc_world_destroy(a.w);
    rc_world_destroy(b.w);
}

START_TEST(a_pile_moves_to_the_same_bits_with_and_without_the_shortcut) { same_bits(false, false); }
END_TEST

START_TEST(a_pile_in_a_turning_drum_moves_to_the_same_bits_with_and_without_the_shortcut) { same_bits(true, false); }
END_TEST

START_TEST(a_pile_a_plunger_goes_into_moves_to_the_same_bits_with_and_without_the_shortcut) {
    same_bits(false, true);
}
END_TEST

/* Grenades poured into a drum of kinematic walls turning at 0.4 rad/s, the world's one
 * kinematic body, round a static peg at its middle: a grenade whose level contacts are all the
 * drum's is told so by its counts (every kinematic body moved: level_contacts_all_moving, no
 * walk of its contacts); one that touches the peg too is told no. In the twin world a kinematic
 * box stands still far off, so that not every kinematic body moved, and its contacts are walked.
 * Both must step to the same bits. */
static rc_world *grenades_round_a_peg(bool still_far_off, rc_body_id *g, int count) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id drum = frame_of_walls(w, RC_KINEMATIC);
    ck_assert(rc_body_set_angular_velocity(w, drum, 0.4f));
    (void)box(w, RC_STATIC, 0.0f, 8.0f, 1.0f, 1.0f);
    for (int i = 0; i < count; ++i) {
        int column = i % 20, row = i / 20;
        g[i] = grenade(w, -6.6f + 0.7f * (float)column + 0.1f * (float)(row % 2), 10.0f + 0.6f * (float)row);
    }
    /* (made last, as the twin's static box: the records before it the same in both worlds) */
    (void)box(w, still_far_off ? RC_KINEMATIC : RC_STATIC, 200.0f, 200.0f, 1.0f, 0.2f);
    return w;
}

START_TEST(grenades_by_a_turning_drum_and_a_peg_move_to_the_same_bits_counted_or_walked) {
    enum { GRENADES = 200 };
    rc_body_id ga[GRENADES], gb[GRENADES];
    rc_world *a = grenades_round_a_peg(false, ga, GRENADES), *b = grenades_round_a_peg(true, gb, GRENADES);
    int most_drum_only = 0, most_with_peg = 0;
    for (int step = 0; step < 300; ++step) {
        ck_assert(rc_world_step(a, DT));
        ck_assert(rc_world_step(b, DT));
        ck_assert(a->kinematic_bodies == 1 && a->moved_kinematic_count == 1);
        ck_assert(b->kinematic_bodies == 2 && b->moved_kinematic_count == 1);
        int drum_only = 0, with_peg = 0;
        for (int i = 0; i < GRENADES; ++i) {
            rc_vec2 pa = rc_body_position(a, ga[i]), pb = rc_body_position(b, gb[i]);
            rc_vec2 va = rc_body_linear_velocity(a, ga[i]), vb = rc_body_linear_velocity(b, gb[i]);
            ck_assert_msg(memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&va, &vb, sizeof va) == 0,
                          "step %d, grenade %d: (%.9g, %.9g) against (%.9g, %.9g)", step, i, (double)pa.x,
                          (double)pa.y, (double)pb.x, (double)pb.y);
            int level = level_contacts(a, ga[i]), kinematic = kinematic_contacts(a, ga[i]);
            drum_only += rc_body_is_awake(a, ga[i]) && level > 0 && kinematic == level;
            with_peg += rc_body_is_awake(a, ga[i]) && kinematic > 0 && level > kinematic;
        }
        most_drum_only = drum_only > most_drum_only ? drum_only : most_drum_only;
        most_with_peg = with_peg > most_with_peg ? with_peg : most_with_peg;
    }
    /* (both kinds were met: grenades against the drum alone, and between the drum and the peg) */
    ck_assert_int_ge(most_drum_only, 40);
    ck_assert_int_ge(most_with_peg, 2);
    ck_assert(rc_world_level_counts_valid(a));
    ck_assert(rc_world_level_counts_valid(b));
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

/* Props (boxes of half size 0.15, boxes of 0.2 by 0.1, capsules) thrown every way at 150
 * units/s, spinning, in a drum of four kinematic walls 1 thick turning at 0.6 rad/s (16 x 16
 * inside): 2.5 units a step, fast for their size in the drum's frame, so that continuous
 * collision keeps them in (a version that offered only every other wall's shape differs at the
 * first step). In the second world five kinematic boxes turn far off: more moving kinematic
 * bodies than RC_FEW_KINEMATICS, so continuous collision asks the grid of moving shapes there,
 * and both must step to the same bits. */
static rc_world *props_in_a_drum(bool turning_far_off, rc_body_id *props, int count) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id drum = frame_of_walls(w, RC_KINEMATIC);
    ck_assert(rc_body_set_angular_velocity(w, drum, 0.6f));
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < count; ++i) {
        int column = i % 20, row = i / 20;
        props[i] = ws_body(w, RC_DYNAMIC, rc_v2(-7.0f + 0.7f * (float)column, 13.5f - 0.6f * (float)row),
                           0.3f * (float)i);
        rc_shape_id made = i % 3 == 0   ? rc_shape_create_box(w, props[i], &sd, 0.15f, 0.15f)
                           : i % 3 == 1 ? rc_shape_create_box(w, props[i], &sd, 0.2f, 0.1f)
                                        : rc_shape_create_capsule(w, props[i], &sd, rc_v2(-0.1f, 0.0f),
                                                                  rc_v2(0.1f, 0.0f), 0.1f);
        ck_assert(!rc_shape_id_is_null(made));
        float heading = 2.39996f * (float)i; /* (the golden angle: every way round) */
        ck_assert(rc_body_set_linear_velocity(w, props[i], rc_v2(150.0f * cosf(heading), 150.0f * sinf(heading))));
        ck_assert(rc_body_set_angular_velocity(w, props[i], (float)(i % 7) - 3.0f));
    }
    for (int k = 0; turning_far_off && k < 5; ++k) {
        rc_body_id far_off = box(w, RC_KINEMATIC, 200.0f + 10.0f * (float)k, 200.0f, 1.0f, 0.2f);
        ck_assert(rc_body_set_angular_velocity(w, far_off, 0.5f));
    }
    return w;
}

START_TEST(props_in_a_turning_drum_meet_its_walls_as_the_grid_would_offer_them) {
    enum { PROPS = 160 };
    rc_body_id pa[PROPS], pb[PROPS];
    rc_world *a = props_in_a_drum(false, pa, PROPS), *b = props_in_a_drum(true, pb, PROPS);
    for (int step = 0; step < 240; ++step) {
        ck_assert(rc_world_step(a, DT));
        ck_assert(rc_world_step(b, DT));
        /* (the step's count: every kinematic body moved, one of them, or six) */
        ck_assert(a->kinematic_bodies == 1 && a->moved_kinematic_count == 1);
        ck_assert(b->kinematic_bodies == 6 && b->moved_kinematic_count == 6);
        for (int i = 0; i < PROPS; ++i) {
            rc_transform xa = rc_body_transform(a, pa[i]), xb = rc_body_transform(b, pb[i]);
            rc_vec2 va = rc_body_linear_velocity(a, pa[i]), vb = rc_body_linear_velocity(b, pb[i]);
            ck_assert_msg(memcmp(&xa, &xb, sizeof xa) == 0 && memcmp(&va, &vb, sizeof va) == 0,
                          "step %d, prop %d: (%.9g, %.9g) against (%.9g, %.9g)", step, i, (double)xa.p.x,
                          (double)xa.p.y, (double)xb.p.x, (double)xb.p.y);
            /* inside the drum, in its frame (turned 0.6 rad/s): no prop passed a wall */
            float turned = 0.6f * DT * (float)(step + 1);
            rc_vec2 d = rc_sub(xa.p, rc_v2(0.0f, 8.0f));
            float lx = cosf(turned) * d.x + sinf(turned) * d.y, ly = -sinf(turned) * d.x + cosf(turned) * d.y;
            ck_assert_msg(fabsf(lx) < 8.0f && fabsf(ly) < 8.0f, "step %d, prop %d at (%g, %g) in the drum's frame",
                          step, i, (double)lx, (double)ly);
        }
    }
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

int main(void) {
    Suite *s = suite_create("level_contacts");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, level_counts_follow_contacts_types_and_restores);
    tcase_add_test(tc, a_pile_moves_to_the_same_bits_with_and_without_the_shortcut);
    tcase_add_test(tc, a_pile_in_a_turning_drum_moves_to_the_same_bits_with_and_without_the_shortcut);
    tcase_add_test(tc, a_pile_a_plunger_goes_into_moves_to_the_same_bits_with_and_without_the_shortcut);
    tcase_add_test(tc, grenades_by_a_turning_drum_and_a_peg_move_to_the_same_bits_counted_or_walked);
    tcase_add_test(tc, props_in_a_turning_drum_meet_its_walls_as_the_grid_would_offer_them);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
