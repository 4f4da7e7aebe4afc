/* Projectiles among other bodies: what the trajectory preview sees (sleeping and resting dynamic
 * bodies included), and the rules a shooter sets on shapes and casts. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

static rc_world *world_with_floor(void) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0, -10);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_def bd = rc_body_default_def();
    rc_body_id ground = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 50, 0.5f)));
    return w;
}

static rc_body_id grenade(rc_world *w, rc_vec2 p, rc_vec2 v, rc_shape_id *shape) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = p;
    bd.linear_velocity = v;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.3f;
    rc_shape_id s = rc_shape_create_circle(w, b, &sd, 0.25f);
    ck_assert(!rc_shape_id_is_null(s));
    if (shape != NULL) {
        *shape = s;
    }
    return b;
}

/* A grenade (radius 0.25) asleep on the floor at x = 4; another thrown along the floor from
 * (0, 0.6) at 8 units/s. The real throw strikes the sleeping one and pushes it; the preview
 * flew through it (1.7 past it after 1 s). Now the preview strikes it too, in the step the
 * world's throw wakes it, and never passes it (it takes the sleeping grenade as staying put). */
START_TEST(the_preview_strikes_a_sleeping_grenade) {
    rc_world *w = world_with_floor();
    rc_shape_id target_shape;
    rc_body_id target = grenade(w, rc_v2(4, 0.25f), rc_v2(0, 0), &target_shape);
    for (int i = 0; i < 120; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, target));
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(0, 0.6f);
    pd.velocity = rc_v2(8, 0);
    pd.radius = 0.25f;
    pd.restitution = 0.3f;
    pd.steps = 60;
    rc_vec2 path[60];
    rc_predicted_bounce bounces[16];
    int32_t n = rc_world_predict(w, &pd, path, bounces, 16);
    int struck_at = -1;
    for (int32_t i = 0; i < n && i < 16 && struck_at < 0; ++i) {
        struck_at = rc_shape_id_equals(bounces[i].shape, target_shape) ? bounces[i].step : -1;
    }
    ck_assert_int_ge(struck_at, 0);
    for (int k = 0; k < 60; ++k) {
        ck_assert_msg(path[k].x <= 4.0f - 0.5f + 1e-3f, "step %d: the preview is at %.4f, past the grenade", k,
                      (double)path[k].x);
    }
    /* the world: the same path up to the strike, and the sleeping grenade woken in that step */
    rc_body_id thrown = grenade(w, pd.position, pd.velocity, NULL);
    int woken_at = -1;
    for (int k = 0; k < 60; ++k) {
        ck_assert(rc_world_step(w, DT));
        if (k < struck_at) {
            ck_assert_float_eq(rc_body_position(w, thrown).x, path[k].x);
            ck_assert_float_eq(rc_body_position(w, thrown).y, path[k].y);
        }
        woken_at = woken_at < 0 && rc_body_linear_velocity(w, target).x > 0.0f ? k : woken_at;
    }
    printf("[rules] the preview strikes the sleeping grenade in step %d; the throw moves it in step %d\n", struck_at,
           woken_at);
    ck_assert_int_le(abs(woken_at - struck_at), 1);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("projectile_rules");
    TCase *t = tcase_create("preview");
    tcase_add_test(t, the_preview_strikes_a_sleeping_grenade);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
