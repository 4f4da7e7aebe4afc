/* The bounce budget of swept bodies: max_bounces per step, exactly as world.h says, whatever
 * makes the bounce (the sweep, or the solver when the body starts a step at a contact), and a
 * budget for the body's life (rc_body_def.bounce_budget), with impact events that number the
 * bounces and say when the body is spent.
 *
 * The corridor: two static walls whose inner faces are x = -1 and x = 1, restitution 1 and no
 * friction, no gravity; a body (a point, or a circle of radius 0.1) starts at x = 0 at 160
 * units/s, 8/3 units per step of 1/60 s. A swept body stops contact_skin (1e-4) short of a
 * wall, so a circle's centre stops at +-(0.9 - 1e-4) and a point at +-(1 - 1e-4). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;
static const float SKIN = 1.0e-4f;

typedef struct corridor {
    rc_world *w;
    rc_body_id body;
    float reach; /* where the body's centre stops at a wall: 1 less its radius and the skin */
} corridor;

static corridor make_corridor_with_budget(float radius, int32_t max_bounces, int32_t budget) {
    corridor c;
    c.w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    rc_body_id walls = rc_body_create(c.w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 1.0f;
    sd.friction = 0.0f;
    for (int side = -1; side <= 1; side += 2) {
        sd.offset = rc_v2(1.5f * (float)side, 0);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(c.w, walls, &sd, 0.5f, 5.0f)));
    }
    bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.max_bounces = max_bounces;
    bd.bounce_budget = budget;
    bd.linear_velocity = rc_v2(160, 0);
    c.body = rc_body_create(c.w, &bd);
    ck_assert(!rc_body_id_is_null(c.body));
    if (radius > 0.0f) {
        sd.offset = rc_v2(0, 0);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(c.w, c.body, &sd, radius)));
    }
    c.reach = 1.0f - radius - SKIN;
    return c;
}

static corridor make_corridor(float radius, int32_t max_bounces) {
    return make_corridor_with_budget(radius, max_bounces, -1);
}

static int step_impacts(corridor *c) {
    ck_assert(rc_world_step(c->w, DT));
    const rc_impact_event *e;
    int n = rc_world_impact_events(c->w, &e);
    ck_assert_int_ge(n, 0);
    return n;
}

/* max_bounces = 1: one bounce in every step, the one it was stopped short of included. Step 0
 * strikes the right wall (a circle's centre 0.9 in), comes back the rest of 8/3 and ends at
 * 2 x 0.9 - 8/3; step 1 strikes the left wall, crosses the 1.8 to the right wall and stops
 * there, its bounce spent; from step 2 on
 * it bounces off the wall it waits at and crosses to the other, where it stops. A circle used
 * to be bounced by the solver at the wall it waited at, after the step's motion: it stood a
 * whole step at the wall, and then flew on from there. */
START_TEST(one_bounce_per_step_and_the_waiting_one_counts) {
    for (int kind = 0; kind < 2; ++kind) {
        corridor c = make_corridor(kind == 0 ? 0.0f : 0.1f, 1);
        for (int step = 0; step < 12; ++step) {
            ck_assert_int_eq(step_impacts(&c), 1);
            float x = rc_body_position(c.w, c.body).x, vx = rc_body_linear_velocity(c.w, c.body).x;
            if (step == 0) {
                ck_assert_near(x, 2.0 * (c.reach + SKIN) - 8.0 / 3.0, 2e-4); /* the skin's lag: within 2e-4 */
                ck_assert_float_eq(vx, -160.0f);
                continue;
            }
            /* at the right wall after odd steps (moving towards it), at the left after even */
            float side = step % 2 == 1 ? 1.0f : -1.0f;
            ck_assert_msg(fabsf(x - side * c.reach) < 2e-4f, "%s, step %d: at %.5f, not %.5f",
                          kind ? "circle" : "point", step, (double)x, (double)(side * c.reach));
            ck_assert_float_eq(vx, side * 160.0f);
        }
        rc_world_destroy(c.w);
    }
}
END_TEST

/* A body stopped at the wall by its limit, whose max_bounces the game then sets to 0, embeds
 * itself there in the next step (one impact of approach 160, then it stays), as world.h says of
 * max_bounces = 0; a circle used to ricochet once more (the solver's bounce). */
START_TEST(max_bounces_set_to_zero_at_a_wall_embeds_it) {
    for (int kind = 0; kind < 2; ++kind) {
        corridor c = make_corridor(kind == 0 ? 0.0f : 0.1f, 1);
        ck_assert_int_eq(step_impacts(&c), 1);
        ck_assert_int_eq(step_impacts(&c), 1); /* stopped at the right wall */
        ck_assert_near(rc_body_position(c.w, c.body).x, c.reach, 2e-4);
        ck_assert(rc_body_set_max_bounces(c.w, c.body, 0));
        ck_assert_int_eq(step_impacts(&c), 1);
        const rc_impact_event *e;
        ck_assert_int_eq(rc_world_impact_events(c.w, &e), 1);
        ck_assert_near(e[0].approach_speed, 160.0, 1e-3);
        ck_assert_near(e[0].normal.x, -1.0, 1e-6);
        for (int step = 0; step < 3; ++step) {
            ck_assert_near(rc_body_position(c.w, c.body).x, c.reach, 2e-4);
            ck_assert_float_eq(rc_body_linear_velocity(c.w, c.body).x, 0.0f);
            ck_assert_int_eq(step_impacts(&c), 0);
        }
        rc_world_destroy(c.w);
    }
}
END_TEST

/* A budget of 3 bounces in its life: a point bullet strikes the right wall (bounce 1) in step
 * 0 and ends at 1 - 5/3; in step 1 it strikes the left wall (2) and the right one (3) and ends
 * at 1 - 1/3 with none left; in step 2 it crosses to the left wall and stops dead there,
 * spent (bounce 0), though max_bounces (8) would let it go on. */
START_TEST(a_lifetime_budget_numbers_the_bounces_and_spends_the_body) {
    corridor c = make_corridor_with_budget(0.0f, 8, 3);
    ck_assert_int_eq(rc_body_bounces_left(c.w, c.body), 3);
    const int expected_counts[4] = {1, 2, 1, 0};
    const int expected_numbers[4][2] = {{1, 0}, {2, 3}, {0, 0}, {0, 0}};
    const int left_after[4] = {2, 0, 0, 0};
    for (int step = 0; step < 4; ++step) {
        ck_assert_int_eq(step_impacts(&c), expected_counts[step]);
        const rc_impact_event *e;
        int n = rc_world_impact_events(c.w, &e);
        for (int i = 0; i < n; ++i) {
            ck_assert_int_eq(e[i].bounce, expected_numbers[step][i]);
            ck_assert(e[i].spent == (step == 2));
            ck_assert_near(e[i].approach_speed, 160.0, 1e-3);
        }
        ck_assert_int_eq(rc_body_bounces_left(c.w, c.body), left_after[step]);
    }
    ck_assert_near(rc_body_position(c.w, c.body).x, -c.reach, 2e-4);
    ck_assert_float_eq(rc_body_linear_velocity(c.w, c.body).x, 0.0f);
    /* given bounces again, it can be fired again */
    ck_assert(rc_body_set_bounces_left(c.w, c.body, 1));
    ck_assert(rc_body_set_linear_velocity(c.w, c.body, rc_v2(160, 0)));
    ck_assert_int_eq(step_impacts(&c), 1);
    ck_assert_int_eq(rc_body_bounces_left(c.w, c.body), 0);
    rc_world_destroy(c.w);
}
END_TEST

/* The preview numbers the bounces and spends the body as the world does. */
START_TEST(the_preview_spends_a_budget_as_the_world_does) {
    for (int kind = 0; kind < 2; ++kind) {
        float radius = kind == 0 ? 0.0f : 0.1f;
        corridor c = make_corridor_with_budget(radius, 8, 3);
        rc_prediction_def pd = rc_prediction_default_def();
        pd.velocity = rc_v2(160, 0);
        pd.radius = radius;
        pd.restitution = 1.0f;
        pd.friction = 0.0f;
        pd.bullet = true;
        pd.bounces_left = 3;
        pd.steps = 5;
        rc_vec2 path[5];
        rc_predicted_bounce bounces[8];
        int32_t predicted = rc_world_predict(c.w, &pd, path, bounces, 8);
        ck_assert_int_eq(predicted, 4);
        int seen = 0;
        for (int step = 0; step < 5; ++step) {
            int n = step_impacts(&c);
            const rc_impact_event *e;
            (void)rc_world_impact_events(c.w, &e);
            for (int i = 0; i < n; ++i, ++seen) {
                ck_assert_int_eq(bounces[seen].step, step);
                ck_assert_int_eq(bounces[seen].bounce, e[i].bounce);
                ck_assert(bounces[seen].spent == e[i].spent);
                ck_assert_float_eq(bounces[seen].point.x, e[i].point.x);
            }
            ck_assert_float_eq(path[step].x, rc_body_position(c.w, c.body).x);
        }
        ck_assert_int_eq(seen, 4);
        ck_assert(bounces[3].spent && bounces[3].bounce == 0 && bounces[2].bounce == 3);
        rc_world_destroy(c.w);
    }
}
END_TEST

/* Bad budgets are refused and change nothing; a bad id reads 0. */
START_TEST(bad_budgets_are_refused) {
    corridor c = make_corridor_with_budget(0.0f, 8, 2);
    ck_assert(!rc_body_set_bounces_left(c.w, c.body, -2));
    ck_assert_ptr_nonnull(strstr(rc_world_last_error(c.w), "bounces_left"));
    ck_assert_int_eq(rc_body_bounces_left(c.w, c.body), 2);
    ck_assert(rc_body_set_bounces_left(c.w, c.body, -1));
    ck_assert_int_eq(rc_body_bounces_left(c.w, c.body), -1);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bounce_budget = -2;
    ck_assert(rc_body_id_is_null(rc_body_create(c.w, &bd)));
    ck_assert_ptr_nonnull(strstr(rc_world_last_error(c.w), "bounce_budget"));
    rc_body_id stale = c.body;
    rc_body_destroy(c.w, c.body);
    ck_assert_int_eq(rc_body_bounces_left(c.w, stale), 0);
    ck_assert(!rc_body_set_bounces_left(c.w, stale, 1));
    rc_prediction_def pd = rc_prediction_default_def();
    pd.bounces_left = -2;
    rc_vec2 path[60];
    ck_assert_int_eq(rc_world_predict(c.w, &pd, path, NULL, 0), -1);
    rc_world_destroy(c.w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("bounce_budget");
    TCase *t = tcase_create("per_step");
    tcase_add_test(t, one_bounce_per_step_and_the_waiting_one_counts);
    tcase_add_test(t, max_bounces_set_to_zero_at_a_wall_embeds_it);
    suite_add_tcase(s, t);
    TCase *life = tcase_create("lifetime");
    tcase_add_test(life, a_lifetime_budget_numbers_the_bounces_and_spends_the_body);
    tcase_add_test(life, the_preview_spends_a_budget_as_the_world_does);
    tcase_add_test(life, bad_budgets_are_refused);
    suite_add_tcase(s, life);
    return rc_test_run(s);
}
