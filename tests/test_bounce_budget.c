/* The bounce budget of swept bodies: max_bounces per step, exactly as world.h says, whatever
 * makes the bounce (the sweep, or the solver when the body starts a step at a contact).
 *
 * The corridor: two static walls whose inner faces are x = -1 and x = 1, restitution 1 and no
 * friction, no gravity; a body (a point, or a circle of radius 0.1) starts at x = 0 at 160
 * units/s, 8/3 units per step of 1/60 s. A swept body stops contact_skin (1e-4) short of a
 * wall, so a circle's centre stops at +-(0.9 - 1e-4) and a point at +-(1 - 1e-4). */
#include <check.h>
#include <math.h>
#include <stdio.h>

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

static corridor make_corridor(float radius, int32_t max_bounces) {
    corridor c;
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0, 0);
    c.w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(c.w);
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

int main(void) {
    Suite *s = suite_create("bounce_budget");
    TCase *t = tcase_create("per_step");
    tcase_add_test(t, one_bounce_per_step_and_the_waiting_one_counts);
    tcase_add_test(t, max_bounces_set_to_zero_at_a_wall_embeds_it);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
