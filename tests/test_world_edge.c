/* The world's edge and a moving body's reach (world.h: RC_WORLD_LIMIT, RC_BODY_REACH). A
 * dynamic or kinematic body turns about its centre of mass, swinging its position and its
 * shapes around it: a centre of mass 1e18 from the position once carried the position out to
 * 2e18 in half a turn, beyond the limit the world promises. Now a shape or a centre of mass
 * beyond RC_BODY_REACH of a moving body's position (in its frame) is refused, and the step
 * holds a body whose turn or move would carry its position or shapes past the edge there: its
 * centre goes back along that axis, its velocity along it is dropped, its turn goes on.
 *
 * The numbers are chosen around RC_BODY_REACH = 2^58, where floats are 2^34 apart below and
 * 2^35 above, so that each box meets the reach exactly or one float beyond it. Refused calls
 * must return their error value, name the function and RC_BODY_REACH in rc_world_last_error,
 * call the error callback once and change nothing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

#define EXPECT WS_EXPECT

typedef struct fixture {
    rc_world *w;
    ws_errors errs;
    rc_body_id bodies[16];
    rc_shape_id shapes[16];
    int nb, ns;
} fixture;

static void fx_init(fixture *fx) {
    memset(fx, 0, sizeof *fx);
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    wd.error_fn = ws_error_fn;
    wd.error_user = &fx->errs;
    fx->w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(fx->w);
}

static rc_body_id fx_body(fixture *fx, rc_body_type type, rc_vec2 p) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    rc_body_id b = rc_body_create(fx->w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    fx->bodies[fx->nb++] = b;
    return b;
}

static rc_shape_id fx_track(fixture *fx, rc_shape_id s) {
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(fx->w));
    fx->shapes[fx->ns++] = s;
    return s;
}

static void refused(fixture *fx, ws_snapshot *before, int calls, bool value, const char *fname, const char *expr,
                    int line) {
    const char *msg = rc_world_last_error(fx->w);
    EXPECT(value, "line %d: %s was not refused", line, expr);
    EXPECT(strstr(msg, fname) != NULL && strstr(msg, "RC_BODY_REACH") != NULL, "line %d: %s: message \"%s\"", line,
           expr, msg);
    EXPECT(fx->errs.calls == calls + 1, "line %d: %s: %d error callbacks", line, expr, fx->errs.calls - calls);
    ws_snapshot after;
    ws_snapshot_take(&after, fx->w, fx->bodies, fx->nb, fx->shapes, fx->ns);
    char why[600];
    EXPECT(ws_snapshot_equal(before, &after, why, sizeof why), "line %d: %s changed the world: %s", line, expr, why);
    ws_snapshot_free(&after);
}

/* expr is true when the call returned its error value */
#define REFUSE(fx, fname, expr)                                                                                        \
    do {                                                                                                               \
        ws_snapshot before_;                                                                                           \
        ws_snapshot_take(&before_, (fx)->w, (fx)->bodies, (fx)->nb, (fx)->shapes, (fx)->ns);                           \
        rc_world_clear_error((fx)->w);                                                                                 \
        int calls_ = (fx)->errs.calls;                                                                                 \
        bool value_ = (expr);                                                                                          \
        refused((fx), &before_, calls_, value_, (fname), #expr, __LINE__);                                             \
        ws_snapshot_free(&before_);                                                                                    \
    } while (0)

#define REACH RC_BODY_REACH
#define BEYOND (RC_BODY_REACH + 0x1p35f) /* the next float */
#define SIDE 0x1p40f                     /* a radius that keeps B - SIDE exact */

START_TEST(a_moving_body_refuses_what_lies_beyond_its_reach) {
    fixture fx;
    fx_init(&fx);
    rc_world *w = fx.w;
    ck_assert(REACH == 0x1p58f && BEYOND > REACH && (float)(REACH - SIDE) + SIDE == REACH);
    rc_body_id dyn = fx_body(&fx, RC_DYNAMIC, rc_v2(0, 0));
    rc_body_id kin = fx_body(&fx, RC_KINEMATIC, rc_v2(0, 0));
    rc_body_id stat = fx_body(&fx, RC_STATIC, rc_v2(0, 0));
    rc_shape_def sd = rc_shape_default_def();
    fx_track(&fx, rc_shape_create_circle(w, dyn, &sd, 0.5f)); /* its mass */
    sd.density = 0.0f; /* (a circle 2^40 across would weigh more than RC_MAX_MASS) */
    /* a circle whose box ends at the reach is taken; one float further is not */
    sd.offset = rc_v2(REACH - SIDE, 0);
    rc_shape_id edge = fx_track(&fx, rc_shape_create_circle(w, dyn, &sd, SIDE));
    fx_track(&fx, rc_shape_create_circle(w, kin, &sd, SIDE));
    sd.offset = rc_v2(0, -(REACH - SIDE));
    fx_track(&fx, rc_shape_create_circle(w, dyn, &sd, SIDE));
    const char *circle = "rc_shape_create_circle";
    sd.offset = rc_v2(REACH - SIDE + 0x1p35f, 0);
    REFUSE(&fx, circle, rc_shape_id_is_null(rc_shape_create_circle(w, dyn, &sd, SIDE)));
    REFUSE(&fx, circle, rc_shape_id_is_null(rc_shape_create_circle(w, kin, &sd, SIDE)));
    /* the probe's circle at (1e18, 0) on a body at the origin: within the world, not the reach */
    sd.offset = rc_v2(1e18f, 0);
    REFUSE(&fx, circle, rc_shape_id_is_null(rc_shape_create_circle(w, dyn, &sd, 0.5f)));
    /* a box and a capsule one float beyond */
    sd.offset = rc_v2(0, BEYOND - SIDE);
    REFUSE(&fx, "rc_shape_create_box", rc_shape_id_is_null(rc_shape_create_box(w, dyn, &sd, SIDE, SIDE)));
    sd.offset = rc_v2(0, 0);
    fx_track(&fx, rc_shape_create_capsule(w, kin, &sd, rc_v2(0, 0), rc_v2(-REACH, 0), 0.5f));
    REFUSE(&fx, "rc_shape_create_capsule",
           rc_shape_id_is_null(rc_shape_create_capsule(w, kin, &sd, rc_v2(0, 0), rc_v2(-BEYOND, 0), 0.5f)));
    /* a chain on a kinematic body */
    rc_vec2 line[2] = {{0, 0}, {0, REACH}};
    fx_track(&fx, rc_shape_create_chain(w, kin, &sd, line, 2, false));
    line[1].y = BEYOND;
    REFUSE(&fx, "rc_shape_create_chain", rc_shape_id_is_null(rc_shape_create_chain(w, kin, &sd, line, 2, false)));
    /* moved by its base transform */
    ck_assert(rc_shape_set_base_transform(w, edge, rc_v2(-(REACH - SIDE), 0), 0.0f, rc_v2(1, 1)));
    REFUSE(&fx, "rc_shape_set_base_transform",
           !rc_shape_set_base_transform(w, edge, rc_v2(-(REACH - SIDE), 0), 0.0f, rc_v2(1.5f, 1.5f)));
    /* a static body takes anything within the world, and keeps it: it cannot start moving */
    sd.offset = rc_v2(1e18f, 0);
    fx_track(&fx, rc_shape_create_circle(w, stat, &sd, 0.5f));
    REFUSE(&fx, "rc_body_set_type", !rc_body_set_type(w, stat, RC_KINEMATIC));
    REFUSE(&fx, "rc_body_set_type", !rc_body_set_type(w, stat, RC_DYNAMIC));
    /* the centre of mass: the probe's (1e18, 0), and one float beyond the reach either way */
    const char *mass = "rc_body_set_mass_data";
    REFUSE(&fx, mass, !rc_body_set_mass_data(w, dyn, (rc_mass_data){0, 1, {1e18f, 0}, 1}));
    REFUSE(&fx, mass, !rc_body_set_mass_data(w, dyn, (rc_mass_data){0, 1, {BEYOND, 0}, 1}));
    REFUSE(&fx, mass, !rc_body_set_mass_data(w, dyn, (rc_mass_data){0, 1, {0, -BEYOND}, 1}));
    ck_assert(rc_body_set_mass_data(w, dyn, (rc_mass_data){0, 1, {REACH, -REACH}, 1}));
    rc_vec2 c = rc_body_world_center(w, dyn);
    ck_assert(c.x == REACH && c.y == -REACH);
    rc_world_destroy(w);
}
END_TEST

/* Every coordinate of the body's position, centre of mass and shapes, with the largest. */
static float body_extent(const rc_world *w, rc_body_id b, const rc_shape_id *shapes, int n) {
    rc_vec2 p = rc_body_position(w, b), c = rc_body_world_center(w, b);
    float most = fmaxf(fmaxf(fabsf(p.x), fabsf(p.y)), fmaxf(fabsf(c.x), fabsf(c.y)));
    for (int k = 0; k < n; ++k) {
        rc_aabb box = rc_shape_aabb(w, shapes[k]);
        most = fmaxf(most, fmaxf(fmaxf(fabsf(box.lower.x), fabsf(box.lower.y)), fmaxf(fabsf(box.upper.x),
                                                                                     fabsf(box.upper.y))));
    }
    return most;
}

/* The probe's body within the reach: its centre of mass 2.5e17 from its position, the centre
 * 2.9e15 inside the edge, turning half a turn in a second. Its position swings round the centre
 * towards the edge: past 91 degrees it would be beyond, so the centre goes back; at half a turn
 * the position is at the edge (within the one or two float spacings, 2^37, that the shift
 * rounds by) and the centre 2.5e17 inside it. A sensor 3.2e17 from the centre swings with it
 * and stays within too (a sensor counts: it is a shape as placed). Before, the position ended at
 * 1.40e18. */
START_TEST(a_turning_body_keeps_its_position_and_shapes_within_the_world) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    const float arm = 2.5e17f;
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(9e17f, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id shapes[2];
    shapes[0] = rc_shape_create_circle(w, b, &sd, 0.5f);
    sd.is_sensor = true;
    sd.density = 0.0f; /* (at 2e17 from the centre it would weigh beyond RC_MAX_ROTATIONAL_INERTIA) */
    sd.offset = rc_v2(0, 2e17f);
    shapes[1] = rc_shape_create_circle(w, b, &sd, 1.0f);
    ck_assert_msg(!rc_shape_id_is_null(shapes[0]) && !rc_shape_id_is_null(shapes[1]), "%s", rc_world_last_error(w));
    ck_assert(rc_body_set_mass_data(w, b, (rc_mass_data){0, 1, {arm, 0}, 1}));
    ck_assert(rc_body_world_center(w, b).x == 9e17f + arm && 9e17f + arm <= RC_WORLD_LIMIT);
    ck_assert(rc_body_set_angular_velocity(w, b, RC_PI));
    for (int k = 0; k < 60; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        float most = body_extent(w, b, shapes, 2);
        EXPECT(most <= RC_WORLD_LIMIT, "step %d: a coordinate %g beyond the edge", k, (double)most);
    }
    rc_vec2 p = rc_body_position(w, b), c = rc_body_world_center(w, b), v = rc_body_linear_velocity(w, b);
    ck_assert_msg(p.x <= RC_WORLD_LIMIT && p.x >= RC_WORLD_LIMIT - 0x1p38f, "position %.9g", (double)p.x);
    ck_assert_msg(fabs((double)p.x - c.x - arm) <= 0x1p38, "centre %.9g", (double)c.x);
    ck_assert(v.x == 0.0f && v.y == 0.0f);
    ck_assert(rc_body_angular_velocity(w, b) == RC_PI); /* held, not stopped: it goes on turning */
    rc_world_destroy(w);
}
END_TEST

/* A kinematic body turns about its position: a circle 2e17 from it, 1.5e17 inside the edge at
 * first, swings out to the edge, and the body goes back so that the circle's box stays within:
 * at half a turn the circle touches the edge and the position lies 2e17 inside it (the circle's
 * radius, 1, is below the float spacing there). Before, the circle ended at 1.2e18. */
START_TEST(a_turning_kinematic_body_keeps_its_shapes_within_the_world) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id b = ws_body(w, RC_KINEMATIC, rc_v2(1e18f, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(-2e17f, 0);
    rc_shape_id s = rc_shape_create_circle(w, b, &sd, 1.0f);
    ck_assert(!rc_shape_id_is_null(s));
    ck_assert(rc_body_set_angular_velocity(w, b, RC_PI));
    for (int k = 0; k < 60; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        float most = body_extent(w, b, &s, 1);
        EXPECT(most <= RC_WORLD_LIMIT, "step %d: a coordinate %g beyond the edge", k, (double)most);
    }
    rc_aabb box = rc_shape_aabb(w, s);
    rc_vec2 p = rc_body_position(w, b);
    ck_assert_msg(box.upper.x >= RC_WORLD_LIMIT - 0x1p38f, "circle %.9g", (double)box.upper.x);
    ck_assert_msg(fabs((double)box.upper.x - p.x - 2e17) <= 0x1p38, "position %.9g", (double)p.x);
    ck_assert(rc_body_angular_velocity(w, b) == RC_PI);
    rc_world_destroy(w);
}
END_TEST

/* A preview's circle is held as a body's is: its box within the edge. Its radius need not be
 * within RC_BODY_REACH (it is no body): 8.7e17 here, its centre 2.83e17 from the origin, where a
 * body's centre needs no looking at. Thrown at 1e9 units/s in steps of a minute (6e10 a step),
 * it meets the edge within a few steps and stays there. Before, only its centre was held: the
 * circle went on past the edge. */
START_TEST(a_preview_keeps_a_huge_circle_within_the_world) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0, 0);
    wd.max_linear_speed = RC_MAX_LINEAR_SPEED;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    const float r = 8.7e17f;
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(RC_WORLD_LIMIT - r - 1e11f, 0);
    pd.velocity = rc_v2(1e9f, 0);
    pd.radius = r;
    pd.density = 0.0f; /* (its point mass: a disk this wide weighs beyond RC_MAX_ROTATIONAL_INERTIA) */
    pd.dt = 60.0f;
    pd.steps = 10;
    rc_vec2 path[10];
    ck_assert_int_ge(rc_world_predict(w, &pd, path, NULL, 0), 0);
    for (int k = 0; k < 10; ++k) {
        float edge = path[k].x + r;
        EXPECT(edge <= RC_WORLD_LIMIT, "step %d: the circle reaches %g", k, (double)edge);
    }
    ck_assert_msg(path[9].x + r >= RC_WORLD_LIMIT - 0x1p38f, "the circle stopped at %g", (double)(path[9].x + r));
    rc_world_destroy(w);
}
END_TEST

static Suite *edge_suite(void) {
    Suite *s = suite_create("world_edge");
    TCase *t = tcase_create("edge");
    tcase_add_test(t, a_moving_body_refuses_what_lies_beyond_its_reach);
    tcase_add_test(t, a_turning_body_keeps_its_position_and_shapes_within_the_world);
    tcase_add_test(t, a_turning_kinematic_body_keeps_its_shapes_within_the_world);
    tcase_add_test(t, a_preview_keeps_a_huge_circle_within_the_world);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(edge_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
