/* Sleep's remembered blockers (world/island.c). A sleep walk that stops at a body not at rest
 * leaves that body with every body it reached, and while nothing has split an island since
 * (rc_islands_split: a touching contact ended or went, a joint went, a body went or changed
 * type, an island fell asleep, a snapshot was restored) their island is not walked again as
 * long as that body has not rested. The islands that sleep must be the ones a walk at every
 * step finds: each case runs twins, the second told before every step that its islands may
 * have split (so it walks as if nothing were remembered), and both must step to the same bits
 * and the same sleeping bodies at every step, while the first walks far less.
 *
 * The scene: two piles of three crates on the ground, 8 apart, a plank laid across their tops
 * (or a rod joint between their top crates); the right pile's middle crate never sleeps
 * (enable_sleep false), so everything joined to it stays awake. At step 240, with all of it
 * long at rest, the join goes: the plank lifted 0.05 off (its contacts kept, not touching),
 * teleported away (its contacts gone), destroyed, or made kinematic (not in islands); the rod
 * destroyed. The left pile, alone now, falls asleep on the same step in both twins. Without
 * the split told where the join went (each case fails without its own), the first twin's left
 * pile stays awake. */
#include <check.h>
#include <math.h>
#include <string.h>

#include <ricochet/ricochet.h>
#include <ricochet/joint.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "world/world_internal.h"

static const float DT = 1.0f / 60.0f;

enum { CRATES = 6, CUT = 240, STEPS = 320 };
typedef enum { CUT_LIFT, CUT_TELEPORT, CUT_DESTROY, CUT_MAKE_KINEMATIC, CUT_ROD } cut_kind;

typedef struct scene {
    rc_world *w;
    rc_body_id crates[CRATES]; /* left pile bottom up, then the right pile bottom up */
    rc_body_id plank;
    rc_joint_id rod;
} scene;

static rc_body_id crate(rc_world *w, float x, float y, float hw, float hh, bool may_sleep) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(x, y);
    bd.enable_sleep = may_sleep;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, hw, hh)));
    return b;
}

static void make_scene(scene *s, cut_kind cut) {
    memset(s, 0, sizeof *s);
    s->w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id ground = ws_body(s->w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f); /* its top at 0 */
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(s->w, ground, &sd, 20.0f, 0.5f)));
    for (int i = 0; i < CRATES; ++i) {
        float x = i < 3 ? -4.0f : 4.0f;
        s->crates[i] = crate(s->w, x, 0.5f + 1.0f * (float)(i % 3), 0.5f, 0.5f, i != 4);
    }
    if (cut == CUT_ROD) {
        rc_distance_joint_def jd = rc_distance_joint_default_def();
        jd.body_a = s->crates[2];
        jd.body_b = s->crates[5];
        jd.length = 8.0f;
        s->rod = rc_joint_create_distance(s->w, &jd);
        ck_assert(!rc_joint_id_is_null(s->rod));
    } else {
        s->plank = crate(s->w, 0.0f, 3.1f, 5.0f, 0.1f, true);
    }
}

static void cut_join(scene *s, cut_kind cut) {
    switch (cut) {
    case CUT_LIFT:
        ck_assert(rc_body_set_transform(s->w, s->plank, rc_v2(0.0f, 3.15f), 0.0f));
        break;
    case CUT_TELEPORT:
        ck_assert(rc_body_set_transform(s->w, s->plank, rc_v2(60.0f, 10.0f), 0.0f));
        break;
    case CUT_DESTROY:
        rc_body_destroy(s->w, s->plank);
        break;
    case CUT_MAKE_KINEMATIC:
        ck_assert(rc_body_set_type(s->w, s->plank, RC_KINEMATIC));
        ck_assert(rc_body_set_linear_velocity(s->w, s->plank, rc_v2(0.0f, 0.0f)));
        ck_assert(rc_body_set_angular_velocity(s->w, s->plank, 0.0f));
        break;
    case CUT_ROD:
        rc_joint_destroy(s->w, s->rod);
        break;
    }
}

static void same_sleep_as_walking_every_step(cut_kind cut) {
    scene a, b;
    make_scene(&a, cut);
    make_scene(&b, cut);
    int left_asleep = -1;
    int64_t walks_a = 0, walks_b = 0;
    for (int step = 1; step <= STEPS; ++step) {
        if (step == CUT) {
            cut_join(&a, cut);
            cut_join(&b, cut);
        }
        rc_islands_split(b.w); /* (b remembers nothing from one step to the next) */
        int64_t before_a = a.w->sleep_walks, before_b = b.w->sleep_walks;
        ck_assert(rc_world_step(a.w, DT));
        ck_assert(rc_world_step(b.w, DT));
        if (step > CUT - 40 && step < CUT) {
            walks_a += a.w->sleep_walks - before_a;
            walks_b += b.w->sleep_walks - before_b;
        }
        for (int i = 0; i < CRATES; ++i) {
            rc_vec2 pa = rc_body_position(a.w, a.crates[i]), pb = rc_body_position(b.w, b.crates[i]);
            ck_assert_msg(memcmp(&pa, &pb, sizeof pa) == 0, "step %d, crate %d: (%.9g, %.9g) against (%.9g, %.9g)",
                          step, i, (double)pa.x, (double)pa.y, (double)pb.x, (double)pb.y);
            ck_assert_msg(rc_body_is_awake(a.w, a.crates[i]) == rc_body_is_awake(b.w, b.crates[i]),
                          "step %d, crate %d: awake %d against %d", step, i, rc_body_is_awake(a.w, a.crates[i]),
                          rc_body_is_awake(b.w, b.crates[i]));
        }
        bool left_awake = false;
        for (int i = 0; i < 3; ++i) {
            left_awake = left_awake || rc_body_is_awake(a.w, a.crates[i]);
        }
        if (step < CUT) {
            ck_assert_msg(left_awake, "step %d: the left pile slept while joined to the right", step);
        }
        left_asleep = left_asleep < 0 && !left_awake ? step : left_asleep;
        ck_assert(rc_body_is_awake(a.w, a.crates[4])); /* never sleeps */
    }
    /* at rest long before the cut: asleep in the step that finds it alone, or, where the cut
       woke it (a destroyed body or joint wakes what it touched), once it has rested 0.5 s again */
    bool woken = cut == CUT_DESTROY || cut == CUT_ROD;
    ck_assert_int_ge(left_asleep, woken ? CUT + 29 : CUT);
    ck_assert_int_le(left_asleep, woken ? CUT + 30 : CUT);

    /* over the 39 steps before the cut, all at rest but the crate that never sleeps: the first
       twin remembered it and walked no more, the second walked at every step */
    ck_assert_int_le(walks_a, 1);
    ck_assert_int_ge(walks_b, 39);
    rc_world_destroy(a.w);
    rc_world_destroy(b.w);
}

START_TEST(a_plank_lifted_off_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would) {
    same_sleep_as_walking_every_step(CUT_LIFT);
}
END_TEST

START_TEST(a_plank_teleported_off_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would) {
    same_sleep_as_walking_every_step(CUT_TELEPORT);
}
END_TEST

START_TEST(a_plank_destroyed_on_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would) {
    same_sleep_as_walking_every_step(CUT_DESTROY);
}
END_TEST

START_TEST(a_plank_made_kinematic_on_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would) {
    same_sleep_as_walking_every_step(CUT_MAKE_KINEMATIC);
}
END_TEST

START_TEST(a_rod_destroyed_between_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would) {
    same_sleep_as_walking_every_step(CUT_ROD);
}
END_TEST

int main(void) {
    Suite *s = suite_create("island_sleep");
    TCase *tc = tcase_create("blockers");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_plank_lifted_off_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would);
    tcase_add_test(tc, a_plank_teleported_off_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would);
    tcase_add_test(tc, a_plank_destroyed_on_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would);
    tcase_add_test(tc, a_plank_made_kinematic_on_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would);
    tcase_add_test(tc, a_rod_destroyed_between_two_piles_lets_the_resting_one_sleep_as_a_fresh_walk_would);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
