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
 * pile stays awake; so it does if the count of splits, wrapping round after 2^32 of them, is
 * not made to forget every blocker when it wraps. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>
#include <ricochet/joint.h>
#include <ricochet/snapshot.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "world/world_internal.h"

static const float DT = 1.0f / 60.0f;

enum { CRATES = 6, CUT = 240, STEPS = 320 };
typedef enum { CUT_LIFT, CUT_TELEPORT, CUT_DESTROY, CUT_MAKE_KINEMATIC, CUT_ROD, CUT_DESTROY_WRAPPED } cut_kind;

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
    case CUT_DESTROY_WRAPPED: {
        /* as if 2^32 splits had followed: the count wraps round to where the blockers were
           remembered (nothing split the islands at rest before the cut) */
        uint32_t remembered = s->w->island_epoch;
        rc_body_destroy(s->w, s->plank);
        s->w->island_epoch = UINT32_MAX;
        for (uint32_t k = 0; k <= remembered; ++k) {
            rc_islands_split(s->w);
        }
        ck_assert_uint_eq(s->w->island_epoch, remembered);
        break;
    }
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
    bool woken = cut == CUT_DESTROY || cut == CUT_ROD || cut == CUT_DESTROY_WRAPPED;
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

START_TEST(blockers_remembered_2_to_the_32_splits_ago_are_forgotten) {
    same_sleep_as_walking_every_step(CUT_DESTROY_WRAPPED);
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

/* ---- random twins -------------------------------------------------------------------------- */

/* A yard of small piles (some crates never sleep), planks across neighbours, rods between
 * random crates, a kinematic platform; then, between steps, what a game does to it at random:
 * destroy bodies and joints, change types, teleport, push, put to sleep and wake, make joints,
 * restore a snapshot. The same calls on both twins (the second told of a split before every
 * step); every body's bits and sleep must agree at every step. */
enum { YARD = 48, YARD_STEPS = 360 };

typedef struct yard {
    rc_world *w;
    rc_body_id bodies[YARD];
    int count;
    rc_joint_id joints[16];
    int joint_count;
    unsigned char *saved;
    size_t saved_size;
} yard;

static rc_body_id yard_crate(rc_world *w, ws_rng *r, float x, float y, bool may_sleep) {
    return crate(w, x, y, ws_range(r, 0.3, 0.6), ws_range(r, 0.3, 0.6), may_sleep);
}

static void rod(yard *y, rc_body_id a, rc_body_id b) {
    if (y->joint_count == 16 || a.index == b.index) {
        return;
    }
    rc_distance_joint_def jd = rc_distance_joint_default_def();
    jd.body_a = a;
    jd.body_b = b;
    rc_vec2 d = rc_sub(rc_body_position(y->w, b), rc_body_position(y->w, a));
    jd.length = rc_maxf(rc_length(d), 0.1f);
    rc_joint_id j = rc_joint_create_distance(y->w, &jd);
    ck_assert_msg(!rc_joint_id_is_null(j), "%s", rc_world_last_error(y->w));
    y->joints[y->joint_count++] = j;
}

static void make_yard(yard *y, uint64_t seed) {
    memset(y, 0, sizeof *y);
    ws_rng r = {seed};
    y->w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id ground = ws_body(y->w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(y->w, ground, &sd, 30.0f, 0.5f)));
    rc_body_id platform = ws_body(y->w, RC_KINEMATIC, rc_v2(18.0f, 0.25f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(y->w, platform, &sd, 3.0f, 0.25f)));
    y->bodies[y->count++] = platform;
    for (int pile = 0; pile < 12 && y->count + 4 < YARD; ++pile) {
        float x = -20.0f + 3.2f * (float)pile, height = pile >= 11 ? 0.5f : 0.0f;
        int n = ws_int(&r, 1, 3);
        for (int k = 0; k < n; ++k) {
            y->bodies[y->count++] = yard_crate(y->w, &r, x, height + 0.6f + 1.25f * (float)k, !ws_chance(&r, 0.06));
        }
        if (pile > 0 && ws_chance(&r, 0.4)) { /* a plank across this pile and the last */
            y->bodies[y->count++] = crate(y->w, x - 1.6f, height + 4.5f, 1.9f, 0.1f, true);
        }
    }
    for (int k = 0; k < 4; ++k) {
        rod(y, y->bodies[ws_int(&r, 1, y->count - 1)], y->bodies[ws_int(&r, 1, y->count - 1)]);
    }
}

static bool alive(const yard *y, int i) { return rc_body_is_valid(y->w, y->bodies[i]); }

/* One random change, the same for both twins (rng states kept alike by the caller). */
static void disturb(yard *y, ws_rng *r, int step) {
    int i = ws_int(r, 1, y->count - 1);
    int what = ws_int(r, 0, 11);
    if (!alive(y, i)) {
        return;
    }
    rc_body_id b = y->bodies[i];
    switch (what) {
    case 0:
        rc_body_destroy(y->w, b);
        break;
    case 1:
        ck_assert(rc_body_set_type(y->w, b, ws_chance(r, 0.5) ? RC_KINEMATIC : RC_STATIC));
        break;
    case 2:
        ck_assert(rc_body_set_type(y->w, b, RC_DYNAMIC));
        break;
    case 3: {
        rc_vec2 p = rc_body_position(y->w, b);
        ck_assert(rc_body_set_transform(y->w, b, rc_v2(p.x + ws_range(r, -0.3, 0.3), p.y + ws_range(r, 0.0, 0.4)),
                                        0.0f));
        break;
    }
    case 4:
        ck_assert(rc_body_apply_linear_impulse(y->w, b, rc_v2(ws_range(r, -2, 2), ws_range(r, 0, 3)),
                                               rc_body_position(y->w, b)));
        break;
    case 5:
        ck_assert(rc_body_set_awake(y->w, b, ws_chance(r, 0.5)));
        break;
    case 6:
        if (y->joint_count > 0) {
            int j = ws_int(r, 0, y->joint_count - 1);
            rc_joint_destroy(y->w, y->joints[j]);
            y->joints[j] = y->joints[--y->joint_count];
        }
        break;
    case 7: {
        int k = ws_int(r, 1, y->count - 1);
        if (k != i && alive(y, k) && rc_body_get_type(y->w, b) == RC_DYNAMIC &&
            rc_body_get_type(y->w, y->bodies[k]) == RC_DYNAMIC) {
            rod(y, b, y->bodies[k]);
        }
        break;
    }
    case 8:
        ck_assert(rc_body_set_linear_velocity(y->w, y->bodies[0], rc_v2(ws_chance(r, 0.5) ? 0.0f : 0.5f, 0.0f)));
        break;
    case 9:
        if (y->saved == NULL) {
            y->saved_size = rc_world_snapshot_size(y->w);
            y->saved = malloc(y->saved_size);
            ck_assert(rc_world_snapshot(y->w, y->saved, y->saved_size) == y->saved_size);
        } else if (step % 3 == 0) {
            ck_assert_msg(rc_world_restore(y->w, y->saved, y->saved_size), "%s", rc_world_last_error(y->w));
            y->joint_count = 0; /* (their ids as the snapshot had them: not tracked) */
        }
        break;
    default:
        break; /* (most steps: left alone to settle) */
    }
}

static void random_twins(uint64_t seed) {
    yard a, b;
    make_yard(&a, seed);
    make_yard(&b, seed);
    ws_rng ra = {seed ^ 0x9e3779b97f4a7c15u}, rb = ra;
    int asleep_seen = 0;
    for (int step = 1; step <= YARD_STEPS; ++step) {
        if (step % 20 == 0) {
            disturb(&a, &ra, step);
            disturb(&b, &rb, step);
        }
        rc_islands_split(b.w);
        ck_assert(rc_world_step(a.w, DT));
        ck_assert(rc_world_step(b.w, DT));
        for (int i = 0; i < a.count; ++i) {
            ck_assert_int_eq(alive(&a, i), alive(&b, i));
            if (!alive(&a, i)) {
                continue;
            }
            rc_vec2 pa = rc_body_position(a.w, a.bodies[i]), pb = rc_body_position(b.w, b.bodies[i]);
            ck_assert_msg(memcmp(&pa, &pb, sizeof pa) == 0,
                          "seed %llu step %d body %d: (%.9g, %.9g) against (%.9g, %.9g)",
                          (unsigned long long)seed, step, i, (double)pa.x, (double)pa.y, (double)pb.x, (double)pb.y);
            bool wa = rc_body_is_awake(a.w, a.bodies[i]);
            ck_assert_msg(wa == rc_body_is_awake(b.w, b.bodies[i]), "seed %llu step %d body %d: awake %d",
                          (unsigned long long)seed, step, i, wa);
            asleep_seen += !wa && rc_body_get_type(a.w, a.bodies[i]) == RC_DYNAMIC;
        }
    }
    /* (a test that could not fail: islands fell asleep, and the first twin walked less) */
    ck_assert_int_gt(asleep_seen, 0);
    ck_assert_int_lt(a.w->sleep_walks, b.w->sleep_walks);
    free(a.saved);
    free(b.saved);
    rc_world_destroy(a.w);
    rc_world_destroy(b.w);
}

START_TEST(random_yards_sleep_as_a_fresh_walk_would_through_what_a_game_does) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        random_twins(seed * 7919u);
    }
}
END_TEST

/* ---- a game's own allocator ------------------------------------------------------------------ */

/* Blocks cleared to zero bytes: a node whose blockers a move of the array dropped would read
 * body 0 as its blocker, remembered at count 0 (nothing has split an island yet). */
static void *zeroed_alloc(size_t size, size_t align, void *user) {
    (void)user;
    size_t rounded = (size + align - 1) / align * align;
    void *p = aligned_alloc(align, rounded);
    if (p != NULL) {
        memset(p, 0, rounded);
    }
    return p;
}

static void zeroed_free(void *ptr, size_t size, void *user) {
    (void)size;
    (void)user;
    free(ptr);
}

/* The step at which the last of 40 crates standing apart on the ground fell asleep; a crate made
 * first (body 0) never sleeps. */
static int crates_asleep_at(bool own_allocator) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, -10.0f);
    if (own_allocator) {
        wd.allocator = (rc_allocator){zeroed_alloc, zeroed_free, NULL};
    }
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    enum { COUNT = 40 };
    rc_body_id restless = crate(w, -30.0f, 0.5f, 0.5f, 0.5f, false); /* body 0 */
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0.0f, -0.5f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 40.0f, 0.5f)));
    rc_body_id crates[COUNT];
    for (int i = 0; i < COUNT; ++i) { /* (the island nodes' array moves several times) */
        crates[i] = crate(w, -25.0f + 1.5f * (float)i, 0.5f, 0.5f, 0.5f, true);
    }
    ck_assert_uint_eq(w->island_epoch, 0u);
    int asleep = -1;
    for (int step = 1; step <= 120 && asleep < 0; ++step) {
        ck_assert(rc_world_step(w, DT));
        bool all = true;
        for (int i = 0; i < COUNT; ++i) {
            all = all && !rc_body_is_awake(w, crates[i]);
        }
        asleep = all ? step : -1;
    }
    ck_assert(rc_body_is_awake(w, restless));
    rc_world_destroy(w);
    return asleep;
}

/* A game's allocator grows arrays by alloc, copy of what they hold, and free: the island nodes
 * must count as held (their remembered blockers), or a grown array leaves them what the new
 * block held. Crates resting apart sleep when they have rested 0.5 s, as with the default
 * allocator (which resizes blocks, keeping them whole). */
START_TEST(crates_sleep_on_time_with_a_game_allocator_that_copies_what_arrays_hold) {
    int plain = crates_asleep_at(false), own = crates_asleep_at(true);
    ck_assert_int_ge(plain, 30);
    ck_assert_int_le(plain, 32);
    ck_assert_int_eq(own, plain);
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
    tcase_add_test(tc, blockers_remembered_2_to_the_32_splits_ago_are_forgotten);
    tcase_add_test(tc, crates_sleep_on_time_with_a_game_allocator_that_copies_what_arrays_hold);
    tcase_add_test(tc, random_yards_sleep_as_a_fresh_walk_would_through_what_a_game_does);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
