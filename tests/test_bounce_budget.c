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

/* ---- randomized: budgets and per-step limits in a closed box -------------------------------- */

/* One random case: a bullet (a point, or a circle of radius 0.05 to 0.3; restitution 1, no
 * friction) in a closed box of inner half size 1.5 to 5 (walls restitution 1, no friction, no
 * gravity) at 60 to 900 units/s, with a per-step limit of 0 to 4 and a budget of 0 to 6 (or
 * none). The reference reflects its straight path off the box in double: the hits do not depend
 * on when a bounce waits for the next step. The world must make the reference's hits in order,
 * number the bounces 1, 2, ... across steps, never more than max_bounces in a step, and spend
 * the body exactly at the hit after its budget (at the first hit with max_bounces 0); then it
 * stays where it stopped. Returns false when the case is skipped (a hit within 1e-3 of a corner
 * is either wall's). */
static bool run_budget_case(uint64_t seed, int *worst_step, double *worst_off) {
    ws_rng g = {seed};
    double W = ws_range(&g, 1.5, 5.0), H = ws_range(&g, 1.5, 5.0);
    bool point = ws_chance(&g, 0.5);
    double r = point ? 0.0 : ws_range(&g, 0.05, 0.3);
    int max_bounces = ws_int(&g, 0, 4), budget = ws_chance(&g, 0.2) ? -1 : ws_int(&g, 0, 6);
    double speed = ws_range(&g, 60.0, 900.0), angle = ws_range(&g, 0.0, 6.2831853);
    rc_vec2 p0 = rc_v2(ws_range(&g, -(W - r) * 0.8, (W - r) * 0.8), ws_range(&g, -(H - r) * 0.8, (H - r) * 0.8));
    rc_vec2 v0 = rc_v2((float)(speed * cos(angle)), (float)(speed * sin(angle)));
    /* the reference: the hits of the first budget + 1 (or 12) */
    enum { HITS = 12 };
    double hx[HITS], hy[HITS];
    int wanted = budget >= 0 && max_bounces > 0 ? budget + 1 : (max_bounces == 0 ? 1 : HITS);
    double px = p0.x, py = p0.y, dx = v0.x, dy = v0.y, ex = W - r, ey = H - r;
    for (int k = 0; k < wanted; ++k) {
        double tx = dx > 0 ? (ex - px) / dx : (dx < 0 ? (-ex - px) / dx : INFINITY);
        double ty = dy > 0 ? (ey - py) / dy : (dy < 0 ? (-ey - py) / dy : INFINITY);
        if (fabs(tx - ty) * speed < 1e-3) {
            return false;
        }
        double t = fmin(tx, ty);
        px += t * dx;
        py += t * dy;
        hx[k] = px;
        hy[k] = py;
        if (tx < ty) {
            dx = -dx;
        } else {
            dy = -dy;
        }
    }
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    rc_body_id walls = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 1.0f;
    sd.friction = 0.0f;
    float fw = (float)W, fh = (float)H;
    const rc_vec2 at[4] = {{-fw - 0.5f, 0}, {fw + 0.5f, 0}, {0, -fh - 0.5f}, {0, fh + 0.5f}};
    for (int k = 0; k < 4; ++k) {
        sd.offset = at[k];
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, walls, &sd, k < 2 ? 0.5f : fw + 1.0f, k < 2 ? fh + 1.0f : 0.5f)));
    }
    bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.max_bounces = max_bounces;
    bd.bounce_budget = budget;
    bd.position = p0;
    bd.linear_velocity = v0;
    rc_body_id b = rc_body_create(w, &bd);
    if (!point) {
        sd.offset = rc_v2(0, 0);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, (float)r)));
    }
    int hit = 0, bounces = 0;
    bool spent = false;
    rc_vec2 stopped = {0, 0};
    for (int step = 0; step < 120 && hit < wanted; ++step) {
        ck_assert(rc_world_step(w, DT));
        const rc_impact_event *ev;
        int n = rc_world_impact_events(w, &ev), in_step = 0;
        for (int i = 0; i < n && !(budget < 0 && hit == wanted); ++i) {
            WS_EXPECT(!spent, "seed %llu: an impact after it was spent", (unsigned long long)seed);
            WS_EXPECT(hit < wanted, "seed %llu: more hits than the reference's %d", (unsigned long long)seed, wanted);
            double cx = ev[i].point.x + r * ev[i].normal.x, cy = ev[i].point.y + r * ev[i].normal.y;
            double off = hypot(cx - hx[hit], cy - hy[hit]);
            /* each bounce leaves the path up to a skin or two (1e-4) aside, at a slant further */
            double per_hit = off / (hit + 1);
            if (per_hit > *worst_off) {
                *worst_off = per_hit;
            }
            WS_EXPECT(off <= 2.5e-4 * (hit + 1), "seed %llu: hit %d at (%g, %g), the reference's (%g, %g)",
                      (unsigned long long)seed, hit, cx, cy, hx[hit], hy[hit]);
            bool last = budget >= 0 ? hit == budget : false;
            if (max_bounces == 0 || last) {
                WS_EXPECT(ev[i].spent && ev[i].bounce == 0, "seed %llu: hit %d should spend it", (unsigned long long)seed,
                          hit);
                spent = true;
                stopped = rc_body_position(w, b);
            } else {
                WS_EXPECT(!ev[i].spent && ev[i].bounce == bounces + 1, "seed %llu: hit %d numbered %d, spent %d",
                          (unsigned long long)seed, hit, ev[i].bounce, ev[i].spent);
                bounces++;
                in_step++;
            }
            hit++;
        }
        WS_EXPECT(in_step <= max_bounces, "seed %llu: %d bounces in step %d with max_bounces %d",
                  (unsigned long long)seed, in_step, step, max_bounces);
        if (in_step > *worst_step) {
            *worst_step = in_step;
        }
    }
    WS_EXPECT(hit == wanted || (budget < 0 && max_bounces > 0), "seed %llu: %d hits of %d", (unsigned long long)seed,
              hit, wanted);
    if (spent) {
        ck_assert(rc_world_step(w, DT));
        rc_vec2 now = rc_body_position(w, b);
        /* (a circle resting a skin off the wall is held there by its contact, to within rounding) */
        WS_EXPECT(rc_distance(now, stopped) <= 1e-5f, "seed %llu (r %g, max %d, budget %d): moved %g after it was spent",
                  (unsigned long long)seed, r, max_bounces, budget, (double)rc_distance(now, stopped));
        /* stopped by max_bounces 0, it keeps its budget; spent by its budget, none is left */
        int left = budget < 0 ? -1 : (max_bounces == 0 ? budget : 0);
        WS_EXPECT(rc_body_bounces_left(w, b) == left, "seed %llu: %d bounces left",
                  (unsigned long long)seed, rc_body_bounces_left(w, b));
    }
    rc_world_destroy(w);
    return true;
}

START_TEST(budgets_and_step_limits_follow_the_reference_path) {
    int cases = rc_test_random_cases(1500), run = 0, worst_step = 0;
    double worst_off = 0.0;
    for (int i = 0; i < cases; ++i) {
        run += run_budget_case((uint64_t)0x627564676574 + (uint64_t)i, &worst_step, &worst_off) ? 1 : 0;
    }
    fprintf(stderr, "[budget] %d cases (%d skipped at corners): the k-th hit within k x %.2e of the reference's, at "
                    "most %d bounces in a step\n",
            run, cases - run, worst_off, worst_step);
    ck_assert_int_gt(run, cases * 9 / 10);
}
END_TEST

/* A point bullet dropped into a V of two walls (one chain, two chains, or two static triangles;
 * sides 0.05 to 1.2 rad above the horizontal, restitution up to 0.5) settles at its bottom,
 * touching one side then the other. A hit slower than restitution_threshold makes no rebound:
 * it is a touch, numbered 0, and its budget is not spent on it; nor is a touch of either side it
 * met in its previous step reported. Every impact event is numbered exactly when it came at
 * restitution_threshold or faster, the numbers count its life's bounces one by one, and its
 * budget of 100 is what they left of it. Before, each touch of the side it had not met last was
 * a bounce: a point at rest in a V numbered 83 of them, 13 in its last second. */
static rc_body_id drop_into_a_v(rc_world *w, ws_rng *r, int kind) {
    float a1 = ws_range(r, 0.05, 1.2), a2 = ws_range(r, 0.05, 1.2);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = ws_range(r, 0.0, 0.5);
    sd.friction = ws_range(r, 0.0, 1.0);
    rc_body_id g = ws_static_body(w);
    rc_vec2 p[3] = {{-3.0f * cosf(a1), 3.0f * sinf(a1)}, {0.0f, 0.0f}, {3.0f * cosf(a2), 3.0f * sinf(a2)}};
    if (kind == 0) {
        ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, g, &sd, p, 3, false)));
    } else if (kind == 1) {
        ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, g, &sd, p, 2, false)));
        ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, g, &sd, p + 1, 2, false)));
    } else {
        rc_vec2 left[3] = {p[0], p[1], {p[0].x, -1.0f}}, right[3] = {p[1], p[2], {p[2].x, -1.0f}};
        ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, g, &sd, left, 3)));
        ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, g, &sd, right, 3)));
    }
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.bounce_budget = 100;
    bd.position = rc_v2(ws_range(r, -1.0, 1.0), ws_range(r, 2.0, 4.0));
    bd.linear_velocity = rc_v2(ws_range(r, -2.0, 2.0), 0.0f);
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    return b;
}

START_TEST(touches_too_slow_to_bounce_spend_no_budget) {
    ws_rng r = {0x76616c6c6579ULL};
    const int cases = rc_test_random_cases(300);
    int bounced = 0, touched = 0;
    for (int i = 0; i < cases; ++i) {
        rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
        rc_body_id b = drop_into_a_v(w, &r, i % 3);
        float threshold = rc_world_default_def().restitution_threshold;
        int made = 0;
        for (int step = 0; step < 480; ++step) {
            ck_assert(rc_world_step(w, DT));
            const rc_impact_event *e;
            int n = rc_world_impact_events(w, &e);
            for (int k = 0; k < n; ++k) {
                bool fast = e[k].approach_speed >= threshold;
                WS_EXPECT(e[k].bounce == (fast ? made + 1 : 0) && !e[k].spent,
                          "case %d, step %d: an impact at %.5f numbered %d (%d bounces before it)", i, step,
                          (double)e[k].approach_speed, e[k].bounce, made);
                made += fast ? 1 : 0;
                touched += fast ? 0 : 1;
            }
        }
        ck_assert_int_eq(rc_body_bounces_left(w, b), 100 - made);
        bounced += made;
        rc_world_destroy(w);
    }
    fprintf(stderr, "[budget] %d points settled into a V: %d bounces, %d touches numbered 0\n", cases, bounced, touched);
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
    tcase_add_test(life, budgets_and_step_limits_follow_the_reference_path);
    tcase_add_test(life, touches_too_slow_to_bounce_spend_no_budget);
    suite_add_tcase(s, life);
    return rc_test_run(s);
}
