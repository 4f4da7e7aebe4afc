/* The solver's kept gathering (world/gather.c): the contacts found and sorted in one step, and
 * their colours, are used again while nothing they depend on changed. Two worlds built and
 * changed alike, one of them made to gather afresh before every step (rc_gather_forget), must
 * step to the same bits: a change the kept list missed (a contact made or ended, gaining or
 * losing its points, a body's type or response, a body put to sleep or woken, a snapshot
 * restored, a pre-solve callback that cancels on some steps, a grenade's strikes) would give
 * the kept world another set or order of constraints, and other numbers. Each scene also
 * counts the steps whose gathering was kept, so that the comparison is not of two fresh
 * gatherings. (Debug builds check more: every kept list and its colours against a fresh
 * gathering, in every test that steps a world.) */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>
#include <ricochet/snapshot.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "world/world_internal.h"

#define EXPECT WS_EXPECT

static const float DT = 1.0f / 60.0f;
enum { STEPS = 240 };

enum { ROWS = 8, CRATES = ROWS * (ROWS + 1) / 2, GRENADES = 12, BODIES = CRATES + GRENADES + 3 };

typedef struct scene {
    rc_world *w;
    rc_body_id ground, bodies[BODIES];
    rc_shape_id shapes[BODIES];
    int count;
    int steps_asked; /* the pre-solve callback's steps */
    size_t snapshot_used;
} scene;

/* Cancels the contacts of the first crate's shape on odd steps (the list found stays; the
 * constraints made from it do not). */
static bool cancel_on_odd_steps(rc_pre_solve *hit, void *context) {
    const scene *s = context;
    bool mine = rc_shape_id_equals(hit->shape_a, s->shapes[0]) || rc_shape_id_equals(hit->shape_b, s->shapes[0]);
    return !(mine && !hit->impact && (s->steps_asked % 2) == 1);
}

static void add(scene *s, rc_body_id b, rc_shape_id shape) {
    s->bodies[s->count] = b;
    s->shapes[s->count] = shape;
    s->count++;
}

/* A pyramid of crates on a floor, a row of grenades dropped on its side, and a plank. */
static void build(scene *s, bool with_callback) {
    memset(s, 0, sizeof *s);
    s->w = ws_make_world(rc_v2(0, -10));
    rc_body_def gd = rc_body_default_def();
    s->ground = rc_body_create(s->w, &gd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    sd.offset = rc_v2(0, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(s->w, s->ground, &sd, 30.0f, 0.5f)));
    sd.offset = rc_v2(0, 0);
    sd.enable_pre_solve_events = with_callback;
    for (int row = 0; row < ROWS; ++row) {
        for (int i = 0; i < ROWS - row; ++i) {
            rc_body_def bd = rc_body_default_def();
            bd.type = RC_DYNAMIC;
            bd.position = rc_v2(-0.5f * (float)(ROWS - row - 1) + (float)i, 0.5f + (float)row);
            rc_body_id b = rc_body_create(s->w, &bd);
            add(s, b, rc_shape_create_box(s->w, b, &sd, 0.5f, 0.5f));
        }
    }
    sd.restitution = 0.3f;
    for (int i = 0; i < GRENADES; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(6.0f + 0.55f * (float)i, 3.0f + 0.3f * (float)(i % 3));
        bd.linear_velocity = rc_v2(-1.0f, -4.0f);
        rc_body_id b = rc_body_create(s->w, &bd);
        add(s, b, rc_shape_create_circle(s->w, b, &sd, 0.25f));
    }
    sd.restitution = 0.0f;
    /* a frictionless crate sliding slowly at a crate at rest: their contact is made at step
       119 without points, and has them at step 150, while nothing else changes */
    for (int i = 0; i < 2; ++i) {
        rc_body_def cd = rc_body_default_def();
        cd.type = RC_DYNAMIC;
        cd.position = rc_v2(i == 0 ? -20.0f : -18.6f, 0.5f);
        cd.linear_velocity = rc_v2(i == 0 ? 0.15f : 0.0f, 0.0f);
        cd.enable_sleep = false; /* (waking it would change the solver's bodies: found again) */
        sd.friction = i == 0 ? 0.0f : 0.6f;
        rc_body_id c = rc_body_create(s->w, &cd);
        add(s, c, rc_shape_create_box(s->w, c, &sd, 0.5f, 0.5f));
    }
    sd.friction = 0.6f;
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(-8.0f, 0.25f);
    rc_body_id plank = rc_body_create(s->w, &bd);
    add(s, plank, rc_shape_create_box(s->w, plank, &sd, 2.0f, 0.25f));
    for (int i = 0; i < s->count; ++i) {
        ck_assert(!rc_shape_id_is_null(s->shapes[i]));
    }
    if (with_callback) {
        ck_assert(rc_world_set_pre_solve_callback(s->w, cancel_on_odd_steps, s));
    }
}

/* What the game does between steps, by step number, to both worlds alike. */
static void change(scene *s, int step, void *snapshot, size_t size) {
    rc_body_id top = s->bodies[CRATES - 1], plank = s->bodies[BODIES - 1];
    switch (step) {
    case 40:
        ck_assert(rc_body_set_type(s->w, plank, RC_KINEMATIC));
        ck_assert(rc_body_set_linear_velocity(s->w, plank, rc_v2(0.5f, 0.0f)));
        break;
    case 60:
        ck_assert(rc_body_set_type(s->w, plank, RC_DYNAMIC));
        break;
    case 70:
        ck_assert(rc_body_set_enable_response(s->w, top, false));
        break;
    case 80:
        ck_assert(rc_body_set_enable_response(s->w, top, true));
        break;
    case 90:
        s->snapshot_used = rc_world_snapshot(s->w, snapshot, size);
        ck_assert(s->snapshot_used > 0);
        break;
    case 100:
        rc_shape_destroy(s->w, s->shapes[1]); /* a crate of the bottom row loses its shape */
        break;
    case 110:
        ck_assert_msg(rc_world_restore(s->w, snapshot, s->snapshot_used), "%s", rc_world_last_error(s->w));
        break;
    case 120:
        ck_assert(rc_body_set_awake(s->w, s->bodies[CRATES + 2], false));
        break;
    case 130:
        rc_body_destroy(s->w, s->bodies[CRATES + 5]);
        break;
    default:
        break;
    }
}

/* Was the last step's gathering kept (its list found in an earlier step)? */
static bool kept(const rc_world *w, uint32_t revision_before, int32_t live_before) {
    return w->constraints.count > 0 && w->gathered_revision == revision_before && w->gathered_live == live_before;
}

static void run(bool with_callback) {
    scene a, b;
    build(&a, with_callback);
    build(&b, with_callback);
    size_t size = 2 * rc_world_snapshot_size(a.w) + 4096;
    void *snap_a = malloc(size), *snap_b = malloc(size);
    ck_assert(snap_a != NULL && snap_b != NULL);
    int kept_steps = 0, differ_at = -1;
    for (int step = 0; step < STEPS && differ_at < 0; ++step) {
        change(&a, step, snap_a, size);
        change(&b, step, snap_b, size);
        uint32_t revision = a.w->gathered_revision;
        int32_t live = a.w->gathered_live;
        rc_gather_forget(b.w);
        ck_assert(rc_world_step(a.w, DT));
        ck_assert(rc_world_step(b.w, DT));
        a.steps_asked++;
        b.steps_asked++;
        kept_steps += kept(a.w, revision, live) ? 1 : 0;
        for (int i = 0; i < a.count && differ_at < 0; ++i) {
            if (!rc_body_is_valid(a.w, a.bodies[i])) {
                ck_assert(!rc_body_is_valid(b.w, b.bodies[i]));
                continue;
            }
            rc_vec2 pa = rc_body_position(a.w, a.bodies[i]), pb = rc_body_position(b.w, b.bodies[i]);
            rc_vec2 va = rc_body_linear_velocity(a.w, a.bodies[i]), vb = rc_body_linear_velocity(b.w, b.bodies[i]);
            float ra = rc_body_angle(a.w, a.bodies[i]), rb = rc_body_angle(b.w, b.bodies[i]);
            if (memcmp(&pa, &pb, sizeof pa) != 0 || memcmp(&va, &vb, sizeof va) != 0 || memcmp(&ra, &rb, sizeof ra) != 0) {
                differ_at = step;
                printf("step %d, body %d: kept (%.9g, %.9g) v (%.9g, %.9g), fresh (%.9g, %.9g) v (%.9g, %.9g)\n", step,
                       i, (double)pa.x, (double)pa.y, (double)va.x, (double)va.y, (double)pb.x, (double)pb.y,
                       (double)vb.x, (double)vb.y);
            }
        }
    }
    EXPECT(differ_at < 0, "the kept gathering stepped otherwise from step %d", differ_at);
    /* most steps between the changes keep their list (the pyramid stands, the grenades rest) */
    EXPECT(kept_steps >= 40, "only %d steps kept their gathering", kept_steps);
    printf("[gather] %s: %d of %d steps kept their gathering, all equal to a fresh one\n",
           with_callback ? "with a pre-solve callback" : "plain", kept_steps, STEPS);
    free(snap_a);
    free(snap_b);
    rc_world_destroy(a.w);
    rc_world_destroy(b.w);
}

START_TEST(a_kept_gathering_steps_as_a_fresh_one) {
    run(false);
}
END_TEST

START_TEST(a_kept_gathering_steps_as_a_fresh_one_with_a_pre_solve_callback) {
    run(true);
}
END_TEST

/* Most bodies destroyed between steps: the contacts fall to a quarter of their peak. The next
 * step gathers afresh and keeps the list; its end gives memory back, shrinking the array the
 * kept list lives in. The steps after must not take what is there as kept: they read the
 * shrunk array's garbage, a wild contact index (a crash; first found by fuzz_snapshot, from a
 * forged snapshot's peak). The survivors must rest where they are. */
static rc_body_id crate_at(rc_world *w, float x, float y) {
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(x, y), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    return b;
}

START_TEST(most_bodies_destroyed_then_steps_as_a_fresh_gathering) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ws_static_body(w), &sd, 60.0f, 0.5f)));
    rc_body_id crates[12], crowd[600];
    for (int i = 0; i < 12; ++i) {
        crates[i] = crate_at(w, -11.0f + 2.0f * (float)i, 1.0f);
    }
    for (int i = 0; i < 600; ++i) { /* stacks of 6, side by side: well over 1,000 contacts */
        crowd[i] = crate_at(w, -50.0f + 1.0f * (float)(i / 6), 21.0f + 1.0f * (float)(i % 6));
    }
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    ck_assert_int_gt(rc_id_pool_live(&w->contact_ids), 1000);
    for (int i = 0; i < 600; ++i) {
        rc_body_destroy(w, crowd[i]);
    }
    int kept_steps = 0;
    for (int step = 0; step < 30; ++step) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        kept_steps += w->gather_kept && w->gathered_revision == w->contact_set_revision;
    }
    ck_assert_int_gt(kept_steps, 20); /* (the crates at rest: their gathering kept, as in question) */
    for (int i = 0; i < 12; ++i) {
        rc_vec2 p = rc_body_position(w, crates[i]);
        ck_assert(p.y > 0.95f && p.y < 1.05f); /* resting on the ground (its top at 0.5) */
    }
    rc_world_destroy(w);
}
END_TEST

/* A turning box holding a crowd that never sleeps: its contact set changes at every step, by a
 * few pairs, while the solver keeps the same bodies, and the next gathering mends the kept list
 * from the contacts logged since (mend_sorted) instead of finding it again. The crowd starts
 * spread out and falls together, so the contacts grow from none to hundreds and the array the
 * list lives in grows under it while it is mended (a grown array kept none of it at first: a
 * wild contact index), and its busiest steps change more contacts than a handful (their
 * entries sorted by heap, not by insertion). Stepped against a world that gathers afresh before
 * every step: the same bits at every step, and most steps mended. */
static rc_body_id crowd_body(rc_world *w, int k, float x, float y) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(x, y);
    bd.angle = 0.3f * (float)k;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    rc_shape_id s = k % 3 == 0   ? rc_shape_create_box(w, b, &sd, 0.15f, 0.12f)
                    : k % 3 == 1 ? rc_shape_create_circle(w, b, &sd, 0.14f)
                                 : rc_shape_create_capsule(w, b, &sd, rc_v2(-0.1f, 0.0f), rc_v2(0.1f, 0.0f), 0.08f);
    ck_assert(!rc_shape_id_is_null(s));
    return b;
}

static rc_world *tumbler(rc_body_id *crowd, int count) {
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id drum = ws_body(w, RC_KINEMATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    const float half = 4.5f;
    for (int side = 0; side < 4; ++side) {
        float angle = 1.5707964f * (float)side;
        sd.offset = rc_v2(half * cosf(angle), half * sinf(angle));
        sd.angle = angle;
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, drum, &sd, 0.25f, half + 0.25f)));
    }
    ck_assert(rc_body_set_angular_velocity(w, drum, 0.6f));
    for (int k = 0; k < count; ++k) {
        crowd[k] = crowd_body(w, k, -3.9f + 0.55f * (float)(k % 15), -3.9f + 0.55f * (float)(k / 15));
    }
    return w;
}

START_TEST(a_mended_gathering_steps_as_a_fresh_one) {
    enum { COUNT = 225, TUMBLER_STEPS = 360 };
    rc_body_id a_crowd[COUNT], b_crowd[COUNT];
    rc_world *a = tumbler(a_crowd, COUNT), *b = tumbler(b_crowd, COUNT);
    int mended = 0, differ_at = -1;
    int32_t first_live = -1;
    for (int step = 0; step < TUMBLER_STEPS && differ_at < 0; ++step) {
        rc_gather_forget(b);
        ck_assert(rc_world_step(a, DT));
        ck_assert(rc_world_step(b, DT));
        mended += a->gather_mended ? 1 : 0;
        ck_assert(!b->gather_mended);
        if (first_live < 0 && a->gather_mended) {
            first_live = a->gathered_live;
        }
        for (int i = 0; i < COUNT && differ_at < 0; ++i) {
            rc_transform ta = rc_body_transform(a, a_crowd[i]), tb = rc_body_transform(b, b_crowd[i]);
            rc_vec2 va = rc_body_linear_velocity(a, a_crowd[i]), vb = rc_body_linear_velocity(b, b_crowd[i]);
            if (memcmp(&ta, &tb, sizeof ta) != 0 || memcmp(&va, &vb, sizeof va) != 0) {
                differ_at = step;
            }
        }
    }
    EXPECT(differ_at < 0, "the mended gathering stepped otherwise from step %d", differ_at);
    /* the crowd never sleeps (the box turns): after the first steps, nearly every step mends */
    EXPECT(mended >= TUMBLER_STEPS * 3 / 4, "only %d of %d steps mended their gathering", mended, TUMBLER_STEPS);
    /* the contacts grew under the mended list: several times what they were at the first mend */
    EXPECT(first_live > 0 && a->gathered_live >= 4 * first_live, "contacts %d at the first mend, %d at the end",
           first_live, a->gathered_live);
    printf("[gather] tumbler: %d of %d steps mended their gathering (contacts %d at the first, %d at the end), "
           "all equal to a fresh one\n",
           mended, TUMBLER_STEPS, first_live, a->gathered_live);
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

static Suite *gather_suite(void) {
    Suite *s = suite_create("gather");
    TCase *tc = tcase_create("kept");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_kept_gathering_steps_as_a_fresh_one);
    tcase_add_test(tc, a_kept_gathering_steps_as_a_fresh_one_with_a_pre_solve_callback);
    tcase_add_test(tc, most_bodies_destroyed_then_steps_as_a_fresh_gathering);
    tcase_add_test(tc, a_mended_gathering_steps_as_a_fresh_one);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return rc_test_run(gather_suite());
}
