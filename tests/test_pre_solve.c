/* The pre-solve callback: glass that breaks (a cancelled impact), a shield that reflects (a
 * restitution set for one hit), ice under a crate (a friction set for a contact), a one-way
 * platform (contacts cancelled from below), the preview asking the same questions, the order
 * of the calls, the locked world and the values refused. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

#define MAX_CALLS 256

/* What the callbacks saw, and what they do. */
typedef struct recorder {
    rc_world *world;
    rc_shape_id target;  /* the shape the rule is about */
    int calls;
    rc_pre_solve seen[MAX_CALLS];
    bool cancel;         /* cancel hits on target */
    float restitution;   /* >= 0: set it on hits on target */
    float friction;      /* >= 0: set it on hits on target */
    bool poke;           /* try to change the world from inside */
    int refused;         /* changes refused while inside */
    int answered;        /* queries answered while inside */
} recorder;

static bool on_target(const recorder *r, const rc_pre_solve *hit) {
    return rc_shape_id_equals(hit->shape_a, r->target) || rc_shape_id_equals(hit->shape_b, r->target);
}

static bool record(rc_pre_solve *hit, void *context) {
    recorder *r = context;
    if (r->calls < MAX_CALLS) {
        r->seen[r->calls] = *hit;
    }
    r->calls++;
    if (r->poke) {
        r->refused += rc_body_set_linear_velocity(r->world, hit->body_a, rc_v2(0, 0)) ? 0 : 1;
        r->refused += rc_world_step(r->world, DT) ? 0 : 1;
        r->refused += rc_world_set_pre_solve_callback(r->world, NULL, NULL) ? 0 : 1;
        rc_ray_hit h;
        r->answered += rc_world_cast_ray(r->world, rc_v2(-10, 0.5f), rc_v2(20, 0), &h) ? 1 : 0;
    }
    if (!on_target(r, hit)) {
        return true;
    }
    if (r->restitution >= 0.0f) {
        hit->restitution = r->restitution;
    }
    if (r->friction >= 0.0f) {
        hit->friction = r->friction;
    }
    return !r->cancel;
}

static recorder recorder_for(rc_world *w, rc_shape_id target) {
    recorder r;
    memset(&r, 0, sizeof r);
    r.world = w;
    r.target = target;
    r.restitution = -1.0f;
    r.friction = -1.0f;
    return r;
}

static rc_shape_id box_at(rc_world *w, rc_body_id body, rc_vec2 at, float hx, float hy, float e, bool pre_solve) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = at;
    sd.restitution = e;
    sd.enable_pre_solve_events = pre_solve;
    rc_shape_id s = rc_shape_create_box(w, body, &sd, hx, hy);
    ck_assert(!rc_shape_id_is_null(s));
    return s;
}

/* A pane of glass (its face at x = 1.95, restitution 1, pre-solve events on) before a wall
 * (face at 4.95, restitution 0); a point bullet from the origin at 120 units/s (2 units a
 * step). The game breaks the glass: the callback cancels the hit, so the bullet flies through
 * (asked again in the next step, which it starts inside the pane) and stops at the wall. The
 * callback sees the hit as the impact event would: at (1.95, 0), the normal into the glass,
 * approaching at 120, the glass's restitution and friction (a point takes the shape's). Without
 * the callback the glass throws the bullet straight back. */
START_TEST(a_bullet_flies_through_glass_the_game_breaks) {
    for (int game = 0; game < 2; ++game) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_id ground = ws_static_body(w);
        rc_shape_id glass = box_at(w, ground, rc_v2(2, 0), 0.05f, 2.0f, 1.0f, true);
        rc_shape_id wall = box_at(w, ground, rc_v2(5, 0), 0.05f, 2.0f, 0.0f, false);
        recorder r = recorder_for(w, glass);
        r.cancel = true;
        if (game) {
            ck_assert(rc_world_set_pre_solve_callback(w, record, &r));
        }
        rc_body_id b = ws_point_bullet(w, rc_v2(0, 0), rc_v2(120, 0), 8);
        ck_assert(rc_world_step(w, DT));
        if (!game) {
            ck_assert_vec_near(rc_body_linear_velocity(w, b), -120.0, 0.0, 1e-3);
            rc_world_destroy(w);
            continue;
        }
        ck_assert_int_eq(r.calls, 1);
        const rc_pre_solve *hit = &r.seen[0];
        ck_assert(hit->impact && !hit->preview);
        ck_assert(rc_body_id_equals(hit->body_a, b) && rc_shape_id_is_null(hit->shape_a));
        ck_assert(rc_shape_id_equals(hit->shape_b, glass) && rc_body_id_equals(hit->body_b, ground));
        ck_assert_vec_near(hit->point, 1.95, 0.0, 1e-5);
        ck_assert_vec_near(hit->normal, 1.0, 0.0, 1e-6);
        ck_assert_near(hit->approach_speed, 120.0, 1e-3);
        ck_assert_float_eq(hit->restitution, 1.0f);
        ck_assert_float_eq(hit->friction, 0.6f);
        ck_assert_int_eq(hit->point_count, 1);
        const rc_impact_event *ev;
        ck_assert_int_eq(rc_world_impact_events(w, &ev), 0);
        ck_assert_vec_near(rc_body_position(w, b), 2.0, 0.0, 1e-5);
        ck_assert(rc_world_step(w, DT)); /* from inside the pane: asked again, through again */
        ck_assert_int_eq(r.calls, 2);
        ck_assert(rc_shape_id_equals(r.seen[1].shape_b, glass));
        ck_assert_vec_near(rc_body_position(w, b), 4.0, 0.0, 1e-5);
        ck_assert(rc_world_step(w, DT));
        ck_assert_int_eq(r.calls, 2); /* the wall does not ask */
        ck_assert_int_eq(rc_world_impact_events(w, &ev), 1);
        ck_assert(rc_shape_id_equals(ev[0].shape, wall));
        ck_assert_vec_near(ev[0].point, 4.95, 0.0, 1e-5);
        rc_world_destroy(w);
    }
}
END_TEST

/* A grenade (restitution 0) thrown at 10 units/s, no gravity, at a shield (restitution 0) that
 * the game makes reflect: restitution 1 for that hit alone. It comes back at exactly 10; the
 * next throw, with the callback removed, stops dead at the shield. */
START_TEST(a_shield_the_game_makes_reflect_sends_a_grenade_back) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id ground = ws_static_body(w);
    rc_shape_id shield = box_at(w, ground, rc_v2(2, 0), 0.1f, 2.0f, 0.0f, true);
    recorder r = recorder_for(w, shield);
    r.restitution = 1.0f;
    ck_assert(rc_world_set_pre_solve_callback(w, record, &r));
    rc_body_id g = ws_circle_body(w, rc_v2(0, 0), rc_v2(10, 0), 0.25f, 0.0f, 0.6f, false);
    for (int i = 0; i < 12; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    /* the impact, then the contact it leaves behind as they part (asked while it lasts) */
    ck_assert_int_ge(r.calls, 1);
    ck_assert(r.seen[0].impact);
    for (int i = 1; i < r.calls; ++i) {
        ck_assert(!r.seen[i].impact && r.seen[i].approach_speed < 0.0f);
    }
    ck_assert(rc_shape_id_equals(r.seen[0].shape_b, shield));
    ck_assert_near(r.seen[0].approach_speed, 10.0, 1e-4);
    ck_assert_float_eq(r.seen[0].restitution, 0.0f); /* the larger of the two: both 0 */
    ck_assert_vec_near(rc_body_linear_velocity(w, g), -10.0, 0.0, 1e-4);
    /* the grenade struck the face at x = 1.9 - 0.25 = 1.65 after 1.65 / 10 s and went back */
    ck_assert_near(rc_body_position(w, g).x, 1.65 - 10.0 * (12.0 * DT - 0.165), 1e-3);
    ck_assert(rc_world_set_pre_solve_callback(w, NULL, NULL));
    rc_body_id g2 = ws_circle_body(w, rc_v2(0, 1), rc_v2(10, 0), 0.25f, 0.0f, 0.6f, false);
    for (int i = 0; i < 12; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert_near(rc_body_linear_velocity(w, g2).x, 0.0, 1e-4);
    rc_world_destroy(w);
}
END_TEST

/* A crate (1 x 1) sliding at 5 units/s on a floor with friction 0.6 stops in 5 / 6 s; when the
 * game makes the floor ice (friction 0 for its contacts) it slides on at 5 units/s. The
 * callback sees the contact with its two points, the normal from the floor (the lower index)
 * up to the crate, closing at about 0 (resting). */
START_TEST(a_crate_slides_on_ice_the_game_makes) {
    for (int ice = 0; ice < 2; ++ice) {
        rc_world *w = ws_make_world(rc_v2(0, -10));
        rc_body_id ground = ws_static_body(w);
        rc_shape_id floor = box_at(w, ground, rc_v2(0, -0.5f), 100.0f, 0.5f, 0.0f, true);
        recorder r = recorder_for(w, floor);
        r.friction = 0.0f;
        if (ice) {
            ck_assert(rc_world_set_pre_solve_callback(w, record, &r));
        }
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(0, 0.5f);
        bd.linear_velocity = rc_v2(5, 0);
        rc_body_id crate = rc_body_create(w, &bd);
        box_at(w, crate, rc_v2(0, 0), 0.5f, 0.5f, 0.0f, false);
        for (int i = 0; i < 60; ++i) {
            ck_assert(rc_world_step(w, DT));
        }
        if (ice) {
            ck_assert_near(rc_body_linear_velocity(w, crate).x, 5.0, 1e-3);
            ck_assert_near(rc_body_position(w, crate).x, 5.0, 0.02);
            ck_assert_int_ge(r.calls, 59);
            const rc_pre_solve *hit = &r.seen[10];
            ck_assert(!hit->impact && !hit->preview);
            ck_assert(rc_shape_id_equals(hit->shape_a, floor) && rc_body_id_equals(hit->body_b, crate));
            ck_assert_int_eq(hit->point_count, 2);
            ck_assert_vec_near(hit->normal, 0.0, 1.0, 1e-6);
            ck_assert_near(hit->approach_speed, 0.0, 0.05);
            ck_assert_float_eq(hit->friction, 0.6f);
        } else {
            ck_assert_near(rc_body_linear_velocity(w, crate).x, 0.0, 1e-3);
            ck_assert_near(rc_body_position(w, crate).x, 25.0 / 12.0, 0.05); /* v^2 / (2 mu g) */
        }
        rc_world_destroy(w);
    }
}
END_TEST

/* The one-way rule: hits on the platform are cancelled unless they come from above (the normal
 * from the platform towards the other side points up). */
static bool one_way(rc_pre_solve *hit, void *context) {
    recorder *r = context;
    r->calls++;
    rc_vec2 up = hit->normal;
    if (rc_shape_id_equals(hit->shape_b, r->target)) {
        up = rc_neg(up); /* from the platform to a */
    } else if (!rc_shape_id_equals(hit->shape_a, r->target)) {
        return true;
    }
    return up.y > 0.7f;
}

/* A one-way platform (top at y = 3) with a crate and a grenade thrown up through it from below:
 * both pass up through it, fall back and come to rest on top of it. */
START_TEST(a_one_way_platform_lets_bodies_up_and_holds_them_on_top) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    box_at(w, ground, rc_v2(0, -0.5f), 20.0f, 0.5f, 0.0f, false);
    rc_shape_id platform = box_at(w, ground, rc_v2(0, 2.9f), 4.0f, 0.1f, 0.0f, true);
    recorder r = recorder_for(w, platform);
    ck_assert(rc_world_set_pre_solve_callback(w, one_way, &r));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(-1, 0.5f);
    bd.linear_velocity = rc_v2(0, 11);
    rc_body_id crate = rc_body_create(w, &bd);
    box_at(w, crate, rc_v2(0, 0), 0.5f, 0.5f, 0.0f, false);
    rc_body_id g = ws_circle_body(w, rc_v2(1, 0.25f), rc_v2(0, 11), 0.25f, 0.0f, 0.6f, false);
    float highest_crate = 0.0f, highest_grenade = 0.0f;
    for (int i = 0; i < 240; ++i) {
        ck_assert(rc_world_step(w, DT));
        highest_crate = fmaxf(highest_crate, rc_body_position(w, crate).y);
        highest_grenade = fmaxf(highest_grenade, rc_body_position(w, g).y);
    }
    ck_assert(highest_crate > 3.5f && highest_grenade > 3.25f);
    ck_assert_near(rc_body_position(w, crate).y, 3.5, 0.01);
    ck_assert_near(rc_body_position(w, g).y, 3.25, 0.01);
    ck_assert(r.calls > 0);
    rc_world_destroy(w);
}
END_TEST

/* Inside the callback the world is locked: changes are refused (with the world unchanged) and
 * queries answer. A callback that sets a restitution or friction that is not finite and >= 0 is
 * refused too: the hit keeps its own, and the error callback says why. */
static bool bad_values(rc_pre_solve *hit, void *context) {
    ++*(int *)context;
    hit->restitution = NAN;
    hit->friction = -1.0f;
    return true;
}

START_TEST(the_callback_runs_in_a_locked_world_and_its_values_are_checked) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id ground = ws_static_body(w);
    rc_shape_id wall = box_at(w, ground, rc_v2(2, 0), 0.1f, 2.0f, 0.0f, true);
    recorder r = recorder_for(w, wall);
    r.poke = true;
    ck_assert(rc_world_set_pre_solve_callback(w, record, &r));
    rc_body_id b = ws_point_bullet(w, rc_v2(0, 0), rc_v2(120, 0), 8);
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(r.calls, 1);
    ck_assert_int_eq(r.refused, 3);
    ck_assert_int_eq(r.answered, 1);
    ck_assert(rc_world_step(w, DT)); /* unlocked again */
    ck_assert(!rc_world_set_pre_solve_callback(NULL, record, &r));

    rc_world_destroy(w);
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0, 0);
    ws_errors errors = {0, ""};
    wd.error_fn = ws_error_fn;
    wd.error_user = &errors;
    w = rc_world_create(&wd);
    ground = ws_static_body(w);
    box_at(w, ground, rc_v2(2, 0), 0.1f, 2.0f, 0.0f, true);
    int bad_calls = 0;
    ck_assert(rc_world_set_pre_solve_callback(w, bad_values, &bad_calls));
    b = ws_circle_body(w, rc_v2(0, 0), rc_v2(10, 0), 0.25f, 0.0f, 0.6f, false);
    for (int i = 0; i < 12; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert_int_ge(bad_calls, 1);
    ck_assert_int_eq(errors.calls, 2 * bad_calls); /* each refusal says so */
    ck_assert_ptr_nonnull(strstr(errors.last, "friction"));
    ck_assert_near(rc_body_linear_velocity(w, b).x, 0.0, 1e-4); /* e = 0 kept: it stopped */
    rc_world_destroy(w);
}
END_TEST

/* The preview asks the same questions (with preview set) and so shows what the world does: a
 * grenade thrown through breaking glass flies on in the preview as in the world, step for
 * step. */
START_TEST(the_preview_asks_and_follows_the_answers) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    box_at(w, ground, rc_v2(0, -0.5f), 20.0f, 0.5f, 0.0f, false);
    rc_shape_id glass = box_at(w, ground, rc_v2(3, 2), 0.05f, 2.0f, 0.5f, true);
    recorder r = recorder_for(w, glass);
    r.cancel = true;
    ck_assert(rc_world_set_pre_solve_callback(w, record, &r));
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(0, 1);
    pd.velocity = rc_v2(8, 3);
    pd.radius = 0.2f;
    pd.steps = 90;
    rc_vec2 path[90];
    ck_assert_int_ge(rc_world_predict(w, &pd, path, NULL, 0), 0);
    ck_assert_int_ge(r.calls, 1);
    ck_assert(r.seen[0].preview && r.seen[0].impact && rc_body_id_is_null(r.seen[0].body_a));
    int previewed = r.calls;
    rc_body_id g = ws_circle_body(w, pd.position, pd.velocity, pd.radius, 0.0f, 0.6f, false);
    for (int i = 0; i < 90; ++i) {
        ck_assert(rc_world_step(w, DT));
        ck_assert_vec_near(rc_body_position(w, g), path[i].x, path[i].y, 1e-4);
    }
    ck_assert(rc_body_position(w, g).x > 3.2f); /* through the glass */
    ck_assert_int_ge(r.calls - previewed, 1);
    rc_world_destroy(w);
}
END_TEST

/* The calls come in the documented order, and the same calls give the same calls back: contacts
 * first (a crate resting on the floor), then impacts, grenades' before bullets'. */
static rc_world *busy_world(recorder *r) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_static_body(w);
    rc_shape_id floor = box_at(w, ground, rc_v2(0, -0.5f), 20.0f, 0.5f, 0.0f, true);
    box_at(w, ground, rc_v2(6, 2), 0.1f, 3.0f, 0.5f, true);
    *r = recorder_for(w, floor);
    r->world = w;
    ck_assert(rc_world_set_pre_solve_callback(w, record, r));
    ws_point_bullet(w, rc_v2(0, 1), rc_v2(150, 0), 8); /* made first: the lowest index */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(-3, 0.5f);
    rc_body_id crate = rc_body_create(w, &bd);
    box_at(w, crate, rc_v2(0, 0), 0.5f, 0.5f, 0.0f, false);
    ws_circle_body(w, rc_v2(3, 2), rc_v2(60, 0), 0.25f, 0.3f, 0.6f, false);
    return w;
}

START_TEST(the_calls_come_in_a_fixed_order) {
    recorder r1, r2;
    rc_world *w1 = busy_world(&r1);
    ck_assert(rc_world_step(w1, DT));
    ck_assert(rc_world_step(w1, DT));
    int first_step = r1.calls;
    ck_assert(rc_world_step(w1, DT));
    /* in the third step, in which both strike the wall: the crate's contact, then the
       grenade's impact, then the bullet's (though the bullet's body has the lower index) */
    ck_assert_int_eq(r1.calls - first_step, 3);
    ck_assert(!r1.seen[first_step].impact);
    ck_assert(r1.seen[first_step + 1].impact && !rc_shape_id_is_null(r1.seen[first_step + 1].shape_a));
    ck_assert(r1.seen[first_step + 2].impact && rc_shape_id_is_null(r1.seen[first_step + 2].shape_a));
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w1, DT));
    }
    rc_world *w2 = busy_world(&r2);
    for (int i = 0; i < 33; ++i) {
        ck_assert(rc_world_step(w2, DT));
    }
    ck_assert_int_eq(r1.calls, r2.calls);
    for (int i = 0; i < r1.calls && i < MAX_CALLS; ++i) {
        ck_assert(r1.seen[i].impact == r2.seen[i].impact);
        ck_assert_uint_eq(r1.seen[i].shape_b.index, r2.seen[i].shape_b.index);
        ck_assert_float_eq(r1.seen[i].point.x, r2.seen[i].point.x);
        ck_assert_float_eq(r1.seen[i].point.y, r2.seen[i].point.y);
    }
    rc_world_destroy(w1);
    rc_world_destroy(w2);
}
END_TEST

/* The shape flag: off by default (no call), set and read per shape, a chain's walls with it;
 * bad ids refused. */
START_TEST(pre_solve_events_are_a_shape_flag) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id ground = ws_static_body(w);
    rc_shape_id wall = box_at(w, ground, rc_v2(2, 0), 0.1f, 2.0f, 0.0f, false);
    recorder r = recorder_for(w, wall);
    ck_assert(rc_world_set_pre_solve_callback(w, record, &r));
    ck_assert(!rc_shape_pre_solve_events(w, wall));
    ws_point_bullet(w, rc_v2(0, 0), rc_v2(120, 0), 8);
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(r.calls, 0);
    ck_assert(rc_shape_set_pre_solve_events(w, wall, true));
    ck_assert(rc_shape_pre_solve_events(w, wall));
    ws_point_bullet(w, rc_v2(0, 1), rc_v2(120, 0), 8);
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(r.calls, 1);
    rc_shape_id null_shape = {0, 0};
    ck_assert(!rc_shape_set_pre_solve_events(w, null_shape, true));
    ck_assert(!rc_shape_pre_solve_events(w, null_shape));
    /* a chain: the flag set on it is its walls' */
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 points[3] = {{-3, -4}, {-3, 4}, {-3, 8}};
    rc_shape_id chain = rc_shape_create_chain(w, ground, &sd, points, 3, false);
    ck_assert(!rc_shape_id_is_null(chain));
    ck_assert(rc_shape_set_pre_solve_events(w, chain, true));
    ck_assert(rc_shape_pre_solve_events(w, chain));
    int before = r.calls;
    ws_point_bullet(w, rc_v2(-2, 0), rc_v2(-120, 0), 8);
    ck_assert(rc_world_step(w, DT)); /* it strikes the chain's first wall at x = -3 */
    ck_assert_int_eq(r.calls, before + 1);
    ck_assert(rc_shape_pre_solve_events(w, r.seen[before].shape_b)); /* the wall struck */
    ck_assert(!rc_shape_id_equals(r.seen[before].shape_b, chain));
    ck_assert_near(r.seen[before].point.x, -3.0, 1e-5);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pre_solve");
    TCase *t = tcase_create("pre_solve");
    tcase_add_test(t, a_bullet_flies_through_glass_the_game_breaks);
    tcase_add_test(t, a_shield_the_game_makes_reflect_sends_a_grenade_back);
    tcase_add_test(t, a_crate_slides_on_ice_the_game_makes);
    tcase_add_test(t, a_one_way_platform_lets_bodies_up_and_holds_them_on_top);
    tcase_add_test(t, the_callback_runs_in_a_locked_world_and_its_values_are_checked);
    tcase_add_test(t, the_preview_asks_and_follows_the_answers);
    tcase_add_test(t, the_calls_come_in_a_fixed_order);
    tcase_add_test(t, pre_solve_events_are_a_shape_flag);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
