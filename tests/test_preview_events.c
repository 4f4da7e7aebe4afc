/* The preview lists what the step reports (query.h: rc_world_predict runs the sweep the step
 * runs). In random scenes (a loop of chain around random static boxes, circles, capsules and
 * chains) a random body (a grenade, a ball bullet or a point bullet, with random materials,
 * damping, bounce limits and budget) is previewed for up to 400 steps and then made and stepped:
 * every position is equal bit for bit, and so is every impact event, in the same order, field by
 * field. The preview took as supports (the shapes whose constraints held it, whose slow touches
 * are no impacts) every contact it had, where the world takes only those it solved: a slow touch
 * of a shape its sweep struck in that step was an impact in the world and none in the preview
 * (4 of 1,820 scenes). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

enum { STEPS = 400, BOUNCES = 1024 };

static float range(ws_rng *r, double lo, double hi) { return ws_range(r, lo, hi); }

static void add_statics(rc_world *w, ws_rng *r) {
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    const rc_vec2 loop[6] = {{-20, -2}, {20, -2}, {22, 15}, {0, 25}, {-22, 15}, {-21, 3}};
    sd.restitution = range(r, 0.0, 0.9);
    sd.friction = range(r, 0.0, 1.0);
    sd.one_sided = ws_chance(r, 0.3);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, loop, 6, true)));
    sd.one_sided = false;
    int count = ws_int(r, 5, 14);
    for (int i = 0; i < count; ++i) {
        rc_body_id b = ws_body(w, RC_STATIC, rc_v2(range(r, -15, 15), range(r, 0, 15)), range(r, -3, 3));
        sd.restitution = range(r, 0.0, 1.0);
        sd.friction = range(r, 0.0, 1.0);
        rc_shape_id s;
        switch (ws_int(r, 0, 3)) {
        case 0:
            s = rc_shape_create_box(w, b, &sd, range(r, 0.1, 3.0), range(r, 0.05, 2.0));
            break;
        case 1:
            s = rc_shape_create_circle(w, b, &sd, range(r, 0.1, 2.0));
            break;
        case 2:
            s = rc_shape_create_capsule(w, b, &sd, rc_v2(range(r, -2, 0), 0), rc_v2(range(r, 0.1, 2), range(r, -1, 1)),
                                        range(r, 0.05, 1.0));
            break;
        default: {
            rc_vec2 p[4];
            for (int j = 0; j < 4; ++j) {
                p[j] = rc_v2(1.5f * (float)j + range(r, -0.5, 0.5), range(r, -1, 1));
            }
            s = rc_shape_create_chain(w, b, &sd, p, 4, false);
        }
        }
        ck_assert(!rc_shape_id_is_null(s));
    }
}

static rc_prediction_def random_prediction(ws_rng *r, float dt) {
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(range(r, -15, 15), range(r, 1, 20));
    pd.velocity = rc_v2(range(r, -40, 40), range(r, -40, 40));
    pd.bullet = ws_chance(r, 0.3);
    pd.radius = pd.bullet && ws_chance(r, 0.5) ? 0.0f : range(r, 0.05, 0.6);
    pd.angular_velocity = range(r, -10, 10);
    pd.restitution = range(r, 0.0, 1.0);
    pd.friction = range(r, 0.0, 1.0);
    pd.rolling_resistance = range(r, 0.0, 0.5);
    pd.gravity_scale = range(r, 0.0, 2.0);
    pd.linear_damping = ws_chance(r, 0.5) ? 0.0f : range(r, 0.0, 1.0);
    pd.angular_damping = range(r, 0.0, 1.0);
    pd.max_bounces = ws_int(r, 0, 8);
    pd.bounces_left = ws_chance(r, 0.5) ? -1 : ws_int(r, 0, 9);
    pd.density = range(r, 0.5, 3.0);
    pd.dt = dt;
    pd.steps = STEPS;
    return pd;
}

static rc_body_id make_predicted(rc_world *w, const rc_prediction_def *pd) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = pd->position;
    bd.linear_velocity = pd->velocity;
    bd.angular_velocity = pd->angular_velocity;
    bd.bullet = pd->bullet;
    bd.max_bounces = pd->max_bounces;
    bd.bounce_budget = pd->bounces_left;
    bd.gravity_scale = pd->gravity_scale;
    bd.linear_damping = pd->linear_damping;
    bd.angular_damping = pd->angular_damping;
    bd.point_mass = pd->point_mass;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    if (pd->radius > 0.0f) {
        rc_shape_def cs = rc_shape_default_def();
        cs.restitution = pd->restitution;
        cs.friction = pd->friction;
        cs.rolling_resistance = pd->rolling_resistance;
        cs.density = pd->density;
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &cs, pd->radius)));
    }
    return b;
}

static bool same_impact(const rc_predicted_bounce *p, const rc_impact_event *e) {
    return p->point.x == e->point.x && p->point.y == e->point.y && p->normal.x == e->normal.x &&
           p->normal.y == e->normal.y && p->approach_speed == e->approach_speed && p->bounce == e->bounce &&
           p->spent == e->spent && rc_shape_id_equals(p->shape, e->shape);
}

/* One scene: false when the body would start inside a shape (no scene). Counts the impacts. */
static bool run_scene(int seed, int *impacts) {
    ws_rng r = {0x9e3779b97f4a7c15ULL * (unsigned long long)(seed + 1)};
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    add_statics(w, &r);
    float dt = ws_chance(&r, 0.5) ? 1.0f / 60.0f : range(&r, 0.002, 0.05);
    for (int i = 0; i < 3; ++i) {
        ck_assert(rc_world_step(w, dt));
    }
    rc_prediction_def pd = random_prediction(&r, dt);
    if (rc_world_overlap_circle(w, pd.position, pd.radius > 0.0f ? pd.radius : 0.001f, rc_default_query_filter(), NULL,
                                NULL) > 0) {
        rc_world_destroy(w);
        return false;
    }
    static rc_vec2 path[STEPS];
    static rc_predicted_bounce bounces[BOUNCES];
    int predicted = rc_world_predict(w, &pd, path, bounces, BOUNCES);
    ck_assert_int_ge(predicted, 0);
    rc_body_id b = make_predicted(w, &pd);
    int seen = 0;
    for (int step = 0; step < STEPS && rc_body_is_awake(w, b); ++step) {
        ck_assert(rc_world_step(w, dt));
        const rc_impact_event *events;
        int n = rc_world_impact_events(w, &events);
        for (int k = 0; k < n; ++k) {
            if (!rc_body_id_equals(events[k].projectile, b)) {
                continue;
            }
            EXPECT(seen < predicted && seen < BOUNCES && bounces[seen].step == step && same_impact(&bounces[seen], &events[k]),
                   "scene %d, step %d: the world's impact %d (approach %.5f, bounce %d) is not the preview's (%d listed)",
                   seed, step, seen, (double)events[k].approach_speed, events[k].bounce, predicted);
            ++seen;
        }
        rc_vec2 p = rc_body_position(w, b);
        EXPECT(p.x == path[step].x && p.y == path[step].y, "scene %d, step %d: the world's (%a, %a), the preview's (%a, %a)",
               seed, step, (double)p.x, (double)p.y, (double)path[step].x, (double)path[step].y);
    }
    *impacts += seen;
    rc_world_destroy(w);
    return true;
}

START_TEST(the_preview_lists_every_impact_the_step_reports) {
    const int scenes = rc_test_random_cases(2000);
    int ran = 0, impacts = 0;
    for (int seed = 0; seed < scenes; ++seed) {
        ran += run_scene(seed, &impacts);
    }
    printf("[preview] %d random scenes: every position and all %d impacts as the step has them\n", ran, impacts);
}
END_TEST

static Suite *preview_suite(void) {
    Suite *s = suite_create("preview_events");
    TCase *t = tcase_create("events");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, the_preview_lists_every_impact_the_step_reports);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    return rc_test_run(preview_suite());
}
