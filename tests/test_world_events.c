/* Contact and sensor events.
 *
 * Scripted sequences with hand-worked expectations (dt = 1/8 and speeds of 1 unit/s keep every
 * position exact in float), filtering of every kind, destruction of touching shapes, sleeping
 * bodies woken by contact, and a long random run in which the set of touching pairs after every
 * step is compared with a brute-force pairwise rc_collide_* over the world shapes, and the
 * begin/end events with the differences between consecutive sets.
 *
 * Note: the bodies here are created with enable_response = false (detection only), so a dynamic
 * circle passes through a static box; the scripted sequences rely on that. */
#include <check.h>
#include <math.h>
#include <stb_ds.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const float DT = 0.125f;

static rc_world *make_world(void) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

static rc_body_id body_at(rc_world *w, rc_body_type type, rc_vec2 p, rc_vec2 v) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.linear_velocity = v;
    bd.enable_response = false; /* these scripts move bodies through each other: detection only */
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    return b;
}

static rc_shape_id box_on(rc_world *w, rc_body_id b, float hw, float hh, const rc_shape_def *def) {
    rc_shape_def sd = def ? *def : rc_shape_default_def();
    rc_shape_id s = rc_shape_create_box(w, b, &sd, hw, hh);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

static rc_shape_id circle_on(rc_world *w, rc_body_id b, float r, const rc_shape_def *def) {
    rc_shape_def sd = def ? *def : rc_shape_default_def();
    rc_shape_id s = rc_shape_create_circle(w, b, &sd, r);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

static int total_events(const rc_world *w) {
    rc_contact_events c = rc_world_contact_events(w);
    rc_sensor_events s = rc_world_sensor_events(w);
    return c.begin_count + c.end_count + s.begin_count + s.end_count;
}

/* ---- a circle through a box ------------------------------------------------------------------ */

typedef struct pass_result {
    int begin_step, end_step;
    rc_contact_begin_event begin;
    rc_contact_end_event end;
    int other_events;
} pass_result;

/* Step a world of one static box (created first) and a moving circle until the circle is far
 * past, recording the steps of the begin and end events. */
static pass_result run_pass(rc_world *w, rc_shape_id box, rc_shape_id circle, int steps) {
    pass_result r;
    memset(&r, 0, sizeof r);
    r.begin_step = r.end_step = -1;
    for (int n = 1; n <= steps; ++n) {
        ck_assert(rc_world_step(w, DT));
        rc_contact_events e = rc_world_contact_events(w);
        for (int i = 0; i < e.begin_count; ++i) {
            EXPECT(r.begin_step < 0, "a second begin event at step %d", n);
            r.begin_step = n;
            r.begin = e.begin[i];
        }
        for (int i = 0; i < e.end_count; ++i) {
            EXPECT(r.end_step < 0, "a second end event at step %d", n);
            r.end_step = n;
            r.end = e.end[i];
        }
        r.other_events += rc_world_sensor_events(w).begin_count + rc_world_sensor_events(w).end_count;
        bool touching_now = r.begin_step > 0 && r.end_step < 0;
        int32_t nc = rc_shape_contacts(w, box, NULL, 0);
        EXPECT(nc == (touching_now ? 1 : 0), "step %d: rc_shape_contacts(box) = %d", n, (int)nc);
        if (touching_now) {
            rc_shape_id other;
            ck_assert_int_eq(rc_shape_contacts(w, circle, &other, 1), 1);
            ck_assert(rc_shape_id_equals(other, box));
        }
        EXPECT(rc_world_get_counters(w).touching_contacts == (touching_now ? 1 : 0), "step %d: touching counter", n);
    }
    return r;
}

START_TEST(circle_touching_a_box_begins_and_ends_on_the_right_steps) {
    rc_world *w = make_world();
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id box = box_on(w, sb, 1.0f, 1.0f, NULL); /* [-1, 1]^2 */
    /* centre x_n = -5 + n / 8, radius 0.5: touches the face x = -1 when x_n = -1.5 (n = 28, depth
       0: touching counts) and last touches the far face at x_n = 1.5 (n = 52): ends at n = 53 */
    rc_body_id cb = body_at(w, RC_DYNAMIC, rc_v2(-5.0f, 0.25f), rc_v2(1.0f, 0.0f));
    rc_shape_id circle = circle_on(w, cb, 0.5f, NULL);
    ck_assert_int_eq(total_events(w), 0);
    pass_result r = run_pass(w, box, circle, 70);
    ck_assert_int_eq(r.begin_step, 28);
    ck_assert_int_eq(r.end_step, 53);
    ck_assert_int_eq(r.other_events, 0);
    /* ordered by shape id: the box was created first */
    ck_assert(ws_shape_less(box, circle));
    ck_assert(rc_shape_id_equals(r.begin.shape_a, box) && rc_shape_id_equals(r.begin.shape_b, circle));
    ck_assert(rc_shape_id_equals(r.end.shape_a, box) && rc_shape_id_equals(r.end.shape_b, circle));
    const rc_manifold *m = &r.begin.manifold;
    ck_assert_msg(fabsf(m->normal.x + 1.0f) < 1e-6f && fabsf(m->normal.y) < 1e-6f, "begin normal (%g, %g)",
                  (double)m->normal.x, (double)m->normal.y);
    ck_assert_int_eq(m->point_count, 1);
    ck_assert_msg(fabsf(m->depth) < 1e-6f && fabsf(m->depths[0]) < 1e-6f, "depth %g", (double)m->depth);
    ck_assert_msg(fabsf(m->points[0].x + 1.0f) < 1e-6f && fabsf(m->points[0].y - 0.25f) < 1e-6f, "point (%g, %g)",
                  (double)m->points[0].x, (double)m->points[0].y);
    /* the end event carries the last manifold: touching the far face at depth 0 */
    m = &r.end.manifold;
    ck_assert_msg(fabsf(m->normal.x - 1.0f) < 1e-6f && fabsf(m->normal.y) < 1e-6f, "end normal (%g, %g)",
                  (double)m->normal.x, (double)m->normal.y);
    ck_assert_msg(fabsf(m->depth) < 1e-6f, "end depth %g", (double)m->depth);
    ck_assert_msg(fabsf(m->points[0].x - 1.0f) < 1e-6f && fabsf(m->points[0].y - 0.25f) < 1e-6f, "end point (%g, %g)",
                  (double)m->points[0].x, (double)m->points[0].y);
    rc_world_destroy(w);
}
END_TEST

START_TEST(begin_with_overlap_reports_depth_and_midpoint) {
    rc_world *w = make_world();
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id box = box_on(w, sb, 1.0f, 1.0f, NULL);
    /* x_n = -4.9375 + n / 8 first reaches -1.5 at n = 28 with x = -1.4375: depth 0.0625; the
       circle's deepest point is at -0.9375, the face at -1: midway -0.96875 */
    rc_body_id cb = body_at(w, RC_DYNAMIC, rc_v2(-4.9375f, -0.5f), rc_v2(1.0f, 0.0f));
    rc_shape_id circle = circle_on(w, cb, 0.5f, NULL);
    pass_result r = run_pass(w, box, circle, 30);
    ck_assert_int_eq(r.begin_step, 28);
    const rc_manifold *m = &r.begin.manifold;
    ck_assert_msg(fabsf(m->normal.x + 1.0f) < 1e-6f && fabsf(m->normal.y) < 1e-6f, "normal (%g, %g)",
                  (double)m->normal.x, (double)m->normal.y);
    ck_assert_msg(fabsf(m->depth - 0.0625f) < 1e-6f, "depth %.9g", (double)m->depth);
    ck_assert_int_eq(m->point_count, 1);
    ck_assert_msg(fabsf(m->points[0].x + 0.96875f) < 1e-6f && fabsf(m->points[0].y + 0.5f) < 1e-6f,
                  "point (%.9g, %.9g)", (double)m->points[0].x, (double)m->points[0].y);
    rc_world_destroy(w);
}
END_TEST

START_TEST(normal_points_from_a_to_b_when_the_circle_has_the_lower_id) {
    rc_world *w = make_world();
    /* the circle first: shape_a is the circle, the normal points from it to the box (+x) */
    rc_body_id cb = body_at(w, RC_DYNAMIC, rc_v2(-5.0f, 0.0f), rc_v2(1.0f, 0.0f));
    rc_shape_id circle = circle_on(w, cb, 0.5f, NULL);
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id box = box_on(w, sb, 1.0f, 1.0f, NULL);
    ck_assert(ws_shape_less(circle, box));
    pass_result r = run_pass(w, box, circle, 30);
    ck_assert_int_eq(r.begin_step, 28);
    ck_assert(rc_shape_id_equals(r.begin.shape_a, circle) && rc_shape_id_equals(r.begin.shape_b, box));
    ck_assert_msg(fabsf(r.begin.manifold.normal.x - 1.0f) < 1e-6f, "normal (%g, %g)", (double)r.begin.manifold.normal.x,
                  (double)r.begin.manifold.normal.y);
    rc_world_destroy(w);
}
END_TEST

/* ---- sensors ------------------------------------------------------------------------------ */

START_TEST(sensor_begin_and_end) {
    rc_world *w = make_world();
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = true;
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id sensor = box_on(w, sb, 1.0f, 1.0f, &sd);
    /* a box of half width 0.25 from x = -3 at 1 unit/s: its right edge -2.75 + n / 8 reaches -1
       at n = 14; its left edge -3.25 + n / 8 passes 1 at n = 35 */
    rc_body_id vb = body_at(w, RC_DYNAMIC, rc_v2(-3.0f, 0.5f), rc_v2(1.0f, 0.0f));
    rc_shape_id visitor = box_on(w, vb, 0.25f, 0.25f, NULL);
    int begin_step = -1, end_step = -1;
    for (int n = 1; n <= 45; ++n) {
        ck_assert(rc_world_step(w, DT));
        rc_sensor_events e = rc_world_sensor_events(w);
        rc_contact_events c = rc_world_contact_events(w);
        EXPECT(c.begin_count == 0 && c.end_count == 0, "step %d: contact events for a sensor pair", n);
        for (int i = 0; i < e.begin_count; ++i) {
            EXPECT(begin_step < 0, "second sensor begin at %d", n);
            begin_step = n;
            EXPECT(rc_shape_id_equals(e.begin[i].sensor, sensor) && rc_shape_id_equals(e.begin[i].visitor, visitor),
                   "sensor begin names the wrong shapes");
        }
        for (int i = 0; i < e.end_count; ++i) {
            EXPECT(end_step < 0, "second sensor end at %d", n);
            end_step = n;
            EXPECT(rc_shape_id_equals(e.end[i].sensor, sensor) && rc_shape_id_equals(e.end[i].visitor, visitor),
                   "sensor end names the wrong shapes");
        }
    }
    ck_assert_int_eq(begin_step, 14);
    ck_assert_int_eq(end_step, 35);
    /* a sensor with its events off reports nothing; a kinematic visitor is seen */
    rc_shape_def quiet = rc_shape_default_def();
    quiet.is_sensor = true;
    quiet.enable_sensor_events = false;
    rc_body_id qb = body_at(w, RC_STATIC, rc_v2(0, 10), rc_v2(0, 0));
    box_on(w, qb, 1.0f, 1.0f, &quiet);
    rc_body_id kb = body_at(w, RC_KINEMATIC, rc_v2(-3.0f, 0.0f), rc_v2(1.0f, 0.0f));
    rc_shape_id kbox = box_on(w, kb, 0.25f, 0.25f, NULL);
    ck_assert(rc_body_set_transform(w, vb, rc_v2(-3.0f, 10.0f), 0.0f));
    int sensor_events = 0, kin_begin = -1;
    for (int n = 1; n <= 45; ++n) {
        ck_assert(rc_world_step(w, DT));
        rc_sensor_events e = rc_world_sensor_events(w);
        for (int i = 0; i < e.begin_count; ++i) {
            EXPECT(rc_shape_id_equals(e.begin[i].sensor, sensor) && rc_shape_id_equals(e.begin[i].visitor, kbox),
                   "step %d: a sensor begin from the quiet sensor", n);
            kin_begin = n;
        }
        sensor_events += e.begin_count + e.end_count;
    }
    ck_assert_int_eq(kin_begin, 14);
    ck_assert_int_eq(sensor_events, 2); /* the kinematic box in and out of the loud sensor */
    rc_world_destroy(w);
}
END_TEST

/* ---- filtering ---------------------------------------------------------------------------- */

/* Run a circle through a box with these filters/flags; return the number of contact events. */
static int pass_events(rc_filter box_filter, rc_filter circle_filter, bool box_events, bool circle_events,
                       int *touching_steps) {
    rc_world *w = make_world();
    rc_shape_def bd = rc_shape_default_def();
    bd.filter = box_filter;
    bd.enable_contact_events = box_events;
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id box = box_on(w, sb, 1.0f, 1.0f, &bd);
    rc_shape_def cd = rc_shape_default_def();
    cd.filter = circle_filter;
    cd.enable_contact_events = circle_events;
    rc_body_id cb = body_at(w, RC_DYNAMIC, rc_v2(-5.0f, 0.0f), rc_v2(1.0f, 0.0f));
    circle_on(w, cb, 0.5f, &cd);
    int events = 0;
    *touching_steps = 0;
    for (int n = 1; n <= 70; ++n) {
        ck_assert(rc_world_step(w, DT));
        events += total_events(w);
        *touching_steps += rc_shape_contacts(w, box, NULL, 0) > 0;
    }
    rc_world_destroy(w);
    return events;
}

START_TEST(filtered_pairs_have_no_events) {
    rc_filter def = rc_default_filter();
    int touching;
    ck_assert_int_eq(pass_events(def, def, true, true, &touching), 2);
    ck_assert_int_eq(touching, 25);
    /* category / mask, either way round */
    rc_filter cat2 = {2u, UINT32_MAX, 0}, no2 = {1u, ~2u, 0};
    ck_assert_int_eq(pass_events(no2, cat2, true, true, &touching), 0);
    ck_assert_int_eq(touching, 0);
    ck_assert_int_eq(pass_events(cat2, no2, true, true, &touching), 0);
    ck_assert_int_eq(touching, 0);
    /* a shared negative group never collides, even when the bits agree */
    rc_filter neg = {1u, UINT32_MAX, -3};
    ck_assert_int_eq(pass_events(neg, neg, true, true, &touching), 0);
    ck_assert_int_eq(touching, 0);
    /* different negative groups fall back to the bits */
    rc_filter neg4 = {1u, UINT32_MAX, -4};
    ck_assert_int_eq(pass_events(neg, neg4, true, true, &touching), 2);
    /* a shared positive group always collides, even when the bits refuse */
    rc_filter pos_a = {2u, 4u, 7}, pos_b = {8u, 16u, 7};
    ck_assert_int_eq(pass_events(pos_a, pos_b, true, true, &touching), 2);
    ck_assert_int_eq(touching, 25);
    /* events switched off on either shape: none, but the shapes still touch */
    ck_assert_int_eq(pass_events(def, def, false, true, &touching), 0);
    ck_assert_int_eq(touching, 25);
    ck_assert_int_eq(pass_events(def, def, true, false, &touching), 0);
    ck_assert_int_eq(touching, 25);
}
END_TEST

START_TEST(no_events_within_a_body_or_between_statics) {
    rc_world *w = make_world();
    /* two overlapping shapes on one moving body */
    rc_body_id b = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(1.0f, 0.0f));
    rc_shape_id a1 = box_on(w, b, 1.0f, 1.0f, NULL);
    rc_shape_id a2 = circle_on(w, b, 1.0f, NULL);
    /* two overlapping static bodies, and a static and a kinematic one */
    rc_body_id s1 = body_at(w, RC_STATIC, rc_v2(50, 0), rc_v2(0, 0));
    rc_body_id s2 = body_at(w, RC_STATIC, rc_v2(50.5f, 0), rc_v2(0, 0));
    rc_shape_id t1 = box_on(w, s1, 1.0f, 1.0f, NULL);
    rc_shape_id t2 = box_on(w, s2, 1.0f, 1.0f, NULL);
    for (int n = 0; n < 10; ++n) {
        ck_assert(rc_world_step(w, DT));
        ck_assert_int_eq(total_events(w), 0);
    }
    ck_assert_int_eq(rc_shape_contacts(w, a1, NULL, 0), 0);
    ck_assert_int_eq(rc_shape_contacts(w, a2, NULL, 0), 0);
    ck_assert_int_eq(rc_shape_contacts(w, t1, NULL, 0), 0);
    ck_assert_int_eq(rc_shape_contacts(w, t2, NULL, 0), 0);
    /* moving a static body onto another static body makes no contact either */
    ck_assert(rc_body_set_transform(w, s2, rc_v2(50.25f, 0.25f), 0.5f));
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(total_events(w), 0);
    ck_assert_int_eq(rc_shape_contacts(w, t1, NULL, 0), 0);
    rc_world_destroy(w);
}
END_TEST

/* ---- events and time ------------------------------------------------------------------------ */

START_TEST(events_are_empty_before_the_first_step) {
    rc_world *w = make_world();
    ck_assert_int_eq(total_events(w), 0);
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id box = box_on(w, sb, 1.0f, 1.0f, NULL);
    rc_body_id db = body_at(w, RC_DYNAMIC, rc_v2(0.5f, 0), rc_v2(0, 0));
    rc_shape_id c = circle_on(w, db, 0.5f, NULL);
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = true;
    rc_body_id sensb = body_at(w, RC_STATIC, rc_v2(0.5f, 0.5f), rc_v2(0, 0));
    box_on(w, sensb, 2.0f, 2.0f, &sd);
    ck_assert_int_eq(total_events(w), 0);
    ck_assert_int_eq(rc_shape_contacts(w, box, NULL, 0), 0); /* nothing is known before a step */
    rc_contact_events ce = rc_world_contact_events(w);
    ck_assert_int_eq(ce.begin_count, 0);
    ck_assert(rc_world_step(w, DT));
    ce = rc_world_contact_events(w);
    ck_assert_int_eq(ce.begin_count, 1);
    ck_assert(rc_shape_id_equals(ce.begin[0].shape_a, box) && rc_shape_id_equals(ce.begin[0].shape_b, c));
    ck_assert_int_eq(rc_world_sensor_events(w).begin_count, 1); /* the circle in the sensor (static box: no) */
    ck_assert_int_eq(rc_shape_contacts(w, box, NULL, 0), 1);
    /* the next step starts new lists */
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(total_events(w), 0);
    rc_world_destroy(w);
}
END_TEST

static void setup_touching(rc_world **w, rc_shape_id *box, rc_shape_id *circle, rc_body_id *cb) {
    *w = make_world();
    rc_body_id sb = body_at(*w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    *box = box_on(*w, sb, 1.0f, 1.0f, NULL);
    *cb = body_at(*w, RC_DYNAMIC, rc_v2(-2.0f, 0.0f), rc_v2(1.0f, 0.0f));
    *circle = circle_on(*w, *cb, 0.5f, NULL);
    for (int n = 0; n < 6; ++n) { /* begins at step 4 */
        ck_assert(rc_world_step(*w, DT));
    }
    ck_assert_int_eq(rc_shape_contacts(*w, *box, NULL, 0), 1);
    ck_assert_int_eq(total_events(*w), 0);
}

START_TEST(destroying_a_touching_shape_ends_its_contact_next_step) {
    rc_world *w;
    rc_shape_id box, circle;
    rc_body_id cb;
    setup_touching(&w, &box, &circle, &cb);
    rc_shape_destroy(w, circle);
    ck_assert_int_eq(rc_shape_contacts(w, box, NULL, 0), 0);
    ck_assert(rc_world_step(w, DT));
    rc_contact_events e = rc_world_contact_events(w);
    ck_assert_int_eq(e.begin_count, 0);
    ck_assert_int_eq(e.end_count, 1);
    ck_assert(rc_shape_id_equals(e.end[0].shape_a, box) && rc_shape_id_equals(e.end[0].shape_b, circle));
    ck_assert(!rc_shape_is_valid(w, e.end[0].shape_b)); /* its id is stale */
    ck_assert_int_eq(e.end[0].manifold.point_count, 1);
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(total_events(w), 0); /* reported once */
    rc_world_destroy(w);

    /* the same through rc_body_destroy, with the other shape of the pair destroyed */
    setup_touching(&w, &box, &circle, &cb);
    rc_body_id sb = rc_shape_body(w, box);
    rc_body_destroy(w, sb);
    ck_assert_int_eq(rc_shape_contacts(w, circle, NULL, 0), 0);
    ck_assert(rc_world_step(w, DT));
    e = rc_world_contact_events(w);
    ck_assert_int_eq(e.end_count, 1);
    ck_assert(rc_shape_id_equals(e.end[0].shape_a, box) && rc_shape_id_equals(e.end[0].shape_b, circle));
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(total_events(w), 0);
    rc_world_destroy(w);

    /* a touching sensor pair ends with a sensor end event */
    w = make_world();
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = true;
    rc_body_id sensb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id sensor = box_on(w, sensb, 1.0f, 1.0f, &sd);
    rc_body_id vb = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0.5f, 0));
    rc_shape_id visitor = circle_on(w, vb, 0.5f, NULL);
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(rc_world_sensor_events(w).begin_count, 1);
    rc_shape_destroy(w, visitor);
    ck_assert(rc_world_step(w, DT));
    rc_sensor_events se = rc_world_sensor_events(w);
    ck_assert_int_eq(se.end_count, 1);
    ck_assert(rc_shape_id_equals(se.end[0].sensor, sensor) && rc_shape_id_equals(se.end[0].visitor, visitor));
    rc_world_destroy(w);
}
END_TEST

START_TEST(destruction_does_not_change_the_published_lists_before_the_step) {
    /* "This step's events ...; shape destruction between steps adds end events to the next
       step's lists": the lists read between two steps are the last step's */
    rc_world *w = make_world();
    rc_body_id sb = body_at(w, RC_STATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id box = box_on(w, sb, 1.0f, 1.0f, NULL);
    rc_body_id cb = body_at(w, RC_DYNAMIC, rc_v2(-2.0f, 0.0f), rc_v2(1.0f, 0.0f));
    rc_shape_id circle = circle_on(w, cb, 0.5f, NULL);
    for (int n = 0; n < 4; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    rc_contact_events e = rc_world_contact_events(w);
    ck_assert_int_eq(e.begin_count, 1); /* the last step's begin */
    ck_assert_int_eq(e.end_count, 0);
    rc_shape_destroy(w, circle);
    e = rc_world_contact_events(w);
    ck_assert_int_eq(e.begin_count, 1);
    ck_assert_msg(e.end_count == 0,
                  "after rc_shape_destroy between steps the current list already holds %d end event(s); they belong "
                  "to the next step's list",
                  (int)e.end_count);
    ck_assert(rc_world_step(w, DT));
    e = rc_world_contact_events(w);
    ck_assert_int_eq(e.begin_count, 0);
    ck_assert_int_eq(e.end_count, 1);
    (void)box;
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_sleeping_body_is_woken_when_a_moving_body_begins_touching_it) {
    rc_world *w = make_world();
    rc_body_id sleeper = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id sbox = box_on(w, sleeper, 1.0f, 1.0f, NULL);
    rc_body_id mover = body_at(w, RC_DYNAMIC, rc_v2(-5.0f, 0), rc_v2(0, 0));
    rc_shape_id mc = circle_on(w, mover, 0.5f, NULL);
    for (int n = 0; n < 6; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, sleeper));
    ck_assert(!rc_body_is_awake(w, mover));
    ck_assert(rc_body_set_linear_velocity(w, mover, rc_v2(1.0f, 0.0f)));
    int begin = -1;
    for (int n = 1; n <= 30 && begin < 0; ++n) {
        ck_assert(rc_world_step(w, DT));
        rc_contact_events e = rc_world_contact_events(w);
        if (e.begin_count > 0) {
            begin = n;
            ck_assert(rc_shape_id_equals(e.begin[0].shape_a, sbox) && rc_shape_id_equals(e.begin[0].shape_b, mc));
            ck_assert_msg(rc_body_is_awake(w, sleeper), "the sleeping body was not woken by the contact");
        } else {
            EXPECT(!rc_body_is_awake(w, sleeper), "woken at step %d before any contact", n);
        }
    }
    ck_assert_int_eq(begin, 28);
    rc_world_destroy(w);
}
END_TEST

/* ---- changes made to still bodies ------------------------------------------------------------ */

/* A dynamic box asleep at the origin. */
static rc_world *world_with_sleeper(rc_body_id *sleeper, rc_shape_id *sbox) {
    rc_world *w = make_world();
    *sleeper = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0, 0));
    *sbox = box_on(w, *sleeper, 1.0f, 1.0f, NULL);
    for (int n = 0; n < 6; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, *sleeper));
    return w;
}

START_TEST(a_static_shape_created_on_a_sleeping_body_begins_contact) {
    rc_body_id sleeper;
    rc_shape_id sbox;
    rc_world *w = world_with_sleeper(&sleeper, &sbox);
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(1.5f, 0), rc_v2(0, 0));
    rc_shape_id wbox = box_on(w, wall, 1.0f, 1.0f, NULL); /* overlaps the sleeper by 0.5 */
    ck_assert(ws_collide(w, sbox, wbox, NULL));
    ck_assert(rc_world_step(w, DT));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_shape_contacts(w, sbox, NULL, 0) == 1,
                  "a static box created overlapping a sleeping dynamic box: rc_shape_contacts = %d after two steps",
                  (int)rc_shape_contacts(w, sbox, NULL, 0));
    rc_world_destroy(w);
}
END_TEST

START_TEST(teleporting_a_static_body_onto_and_off_a_sleeping_body) {
    rc_body_id sleeper;
    rc_shape_id sbox;
    rc_world *w = world_with_sleeper(&sleeper, &sbox);
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(10.0f, 0), rc_v2(0, 0));
    rc_shape_id wbox = box_on(w, wall, 1.0f, 1.0f, NULL);
    ck_assert(rc_world_step(w, DT));
    ck_assert(rc_body_set_transform(w, wall, rc_v2(1.5f, 0), 0.0f));
    ck_assert(ws_collide(w, sbox, wbox, NULL));
    ck_assert(rc_world_step(w, DT));
    int begins = rc_world_contact_events(w).begin_count;
    ck_assert_msg(begins == 1 && rc_shape_contacts(w, sbox, NULL, 0) == 1,
                  "a static body teleported onto a sleeping body: %d begin events, %d contacts", begins,
                  (int)rc_shape_contacts(w, sbox, NULL, 0));
    ck_assert(rc_body_set_transform(w, wall, rc_v2(10.0f, 0), 0.0f));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_world_contact_events(w).end_count == 1 && rc_shape_contacts(w, sbox, NULL, 0) == 0,
                  "teleported away again: %d end events, %d contacts", (int)rc_world_contact_events(w).end_count,
                  (int)rc_shape_contacts(w, sbox, NULL, 0));
    rc_world_destroy(w);
}
END_TEST

START_TEST(teleporting_a_static_body_off_a_sleeping_body_ends_the_contact) {
    rc_world *w = make_world();
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(1.5f, 0), rc_v2(0, 0));
    box_on(w, wall, 1.0f, 1.0f, NULL);
    rc_body_id sleeper = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id sbox = box_on(w, sleeper, 1.0f, 1.0f, NULL);
    for (int n = 0; n < 6; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, sleeper));
    ck_assert_int_eq(rc_shape_contacts(w, sbox, NULL, 0), 1);
    ck_assert(rc_body_set_transform(w, wall, rc_v2(10.0f, 0), 0.0f));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_world_contact_events(w).end_count == 1 && rc_shape_contacts(w, sbox, NULL, 0) == 0,
                  "a static body teleported away from the sleeping body it touched: %d end events, still %d contacts",
                  (int)rc_world_contact_events(w).end_count, (int)rc_shape_contacts(w, sbox, NULL, 0));
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_filter_change_on_a_static_shape_ends_contact_with_a_sleeping_body) {
    /* rc_shape_set_filter: "contacts the new one refuses end at the next step" */
    rc_world *w = make_world();
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(1.5f, 0), rc_v2(0, 0));
    rc_shape_id wbox = box_on(w, wall, 1.0f, 1.0f, NULL);
    rc_body_id sleeper = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id sbox = box_on(w, sleeper, 1.0f, 1.0f, NULL);
    for (int n = 0; n < 6; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, sleeper));
    ck_assert_int_eq(rc_shape_contacts(w, sbox, NULL, 0), 1);
    rc_filter none = {1u, 0u, 0};
    ck_assert(rc_shape_set_filter(w, wbox, none));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_world_contact_events(w).end_count == 1 && rc_shape_contacts(w, sbox, NULL, 0) == 0,
                  "the static shape's filter now refuses the sleeping body: %d end events, still %d contacts",
                  (int)rc_world_contact_events(w).end_count, (int)rc_shape_contacts(w, sbox, NULL, 0));
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_filter_change_lets_resting_overlapping_shapes_pair) {
    /* rc_shape_set_filter: "pairs that the old filter refused may now form", also when nothing
       moves: a sleeping box inside a static one, refused by its filter, begins touching it at
       the next step once the filter accepts it (its proxy stayed in its fat box: before the fix
       the pair was never looked at again) */
    rc_world *w = make_world();
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(1.5f, 0), rc_v2(0, 0));
    box_on(w, wall, 1.0f, 1.0f, NULL);
    rc_body_id sleeper = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_def refusing = rc_shape_default_def();
    refusing.filter.mask_bits = 0u;
    rc_shape_id sbox = box_on(w, sleeper, 1.0f, 1.0f, &refusing);
    for (int n = 0; n < 40; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert(!rc_body_is_awake(w, sleeper));
    ck_assert_int_eq(rc_shape_contacts(w, sbox, NULL, 0), 0);
    ck_assert(rc_shape_set_filter(w, sbox, rc_shape_default_def().filter));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_world_contact_events(w).begin_count == 1 && rc_shape_contacts(w, sbox, NULL, 0) == 1,
                  "the filter now accepts the static box: %d begin events, %d contacts",
                  (int)rc_world_contact_events(w).begin_count, (int)rc_shape_contacts(w, sbox, NULL, 0));
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_kinematic_body_made_dynamic_pairs_with_static_shapes) {
    /* kinematic shapes do not touch static ones; made dynamic, a kinematic box lying inside a
       static box touches it at the next step, though its proxy box still holds it */
    rc_world *w = make_world();
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(1.5f, 0), rc_v2(0, 0));
    box_on(w, wall, 1.0f, 1.0f, NULL);
    rc_body_id b = body_at(w, RC_KINEMATIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id bbox = box_on(w, b, 1.0f, 1.0f, NULL);
    for (int n = 0; n < 3; ++n) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert_int_eq(rc_shape_contacts(w, bbox, NULL, 0), 0);
    ck_assert(rc_body_set_type(w, b, RC_DYNAMIC));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_shape_contacts(w, bbox, NULL, 0) == 1 && rc_world_contact_events(w).begin_count == 1,
                  "after rc_body_set_type(dynamic): %d contacts, %d begin events",
                  (int)rc_shape_contacts(w, bbox, NULL, 0), (int)rc_world_contact_events(w).begin_count);
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_body_made_static_stops_touching_static_shapes) {
    /* static shapes do not touch static shapes; a dynamic body that becomes static while it
       touches a static body leaves a static-vs-static pair */
    rc_world *w = make_world();
    rc_body_id wall = body_at(w, RC_STATIC, rc_v2(1.5f, 0), rc_v2(0, 0));
    box_on(w, wall, 1.0f, 1.0f, NULL);
    rc_body_id b = body_at(w, RC_DYNAMIC, rc_v2(0, 0), rc_v2(0, 0));
    rc_shape_id bbox = box_on(w, b, 1.0f, 1.0f, NULL);
    ck_assert(rc_world_step(w, DT));
    ck_assert_int_eq(rc_shape_contacts(w, bbox, NULL, 0), 1);
    ck_assert(rc_body_set_type(w, b, RC_STATIC));
    ck_assert(rc_world_step(w, DT));
    ck_assert_msg(rc_shape_contacts(w, bbox, NULL, 0) == 0 && rc_world_contact_events(w).end_count == 1,
                  "after rc_body_set_type(static): %d contacts, %d end events",
                  (int)rc_shape_contacts(w, bbox, NULL, 0), (int)rc_world_contact_events(w).end_count);
    rc_world_destroy(w);
}
END_TEST

/* ---- a long random run against brute force ------------------------------------------------------ */

typedef struct pair_entry {
    ws_pair key;
    rc_manifold value;
} pair_entry;

typedef struct shape_info {
    rc_shape_id id;
    bool sensor, contact_events, sensor_events;
} shape_info;

typedef struct run {
    rc_world *w;
    ws_rng rng;
    rc_body_id *bodies;
    shape_info *shapes; /* live */
    shape_info *dead;   /* destroyed: their flags are still needed for end events */
    bool hazards;
    long begins, ends, sensor_begins, sensor_ends, max_touching;
} run;

static const shape_info *info_of(const run *r, rc_shape_id id) {
    for (ptrdiff_t i = 0; i < arrlen(r->shapes); ++i) {
        if (rc_shape_id_equals(r->shapes[i].id, id)) {
            return &r->shapes[i];
        }
    }
    for (ptrdiff_t i = 0; i < arrlen(r->dead); ++i) {
        if (rc_shape_id_equals(r->dead[i].id, id)) {
            return &r->dead[i];
        }
    }
    return NULL;
}

static rc_filter run_filter(ws_rng *g) {
    rc_filter f = rc_default_filter();
    double u = ws_uniform(g);
    if (u < 0.15) {
        f.category_bits = 1u << ws_int(g, 0, 2);
        f.mask_bits = (uint32_t)(ws_next(g) & 7u);
    } else if (u < 0.25) {
        f.group_index = ws_chance(g, 0.5) ? -1 : 1;
        f.category_bits = 1u << ws_int(g, 0, 2);
        f.mask_bits = (uint32_t)(ws_next(g) & 7u);
    }
    return f;
}

static void run_add_shape(run *r, rc_body_id b) {
    ws_rng *g = &r->rng;
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = ws_chance(g, 0.1);
    sd.enable_contact_events = ws_chance(g, 0.9);
    sd.enable_sensor_events = ws_chance(g, 0.9);
    sd.filter = run_filter(g);
    sd.offset = rc_v2(ws_range(g, -1, 1), ws_range(g, -1, 1));
    sd.angle = ws_range(g, -3, 3);
    float size = ws_log_range(g, 0.3, 3.0);
    rc_shape_id id;
    int kind = ws_int(g, 0, 2);
    if (kind == 0) {
        id = rc_shape_create_circle(r->w, b, &sd, size);
    } else if (kind == 1) {
        sd.scale = rc_v2(ws_chance(g, 0.5) ? -1.0f : 1.0f, ws_range(g, 0.5, 1.5));
        id = rc_shape_create_box(r->w, b, &sd, size, size * ws_range(g, 0.3, 1.0));
    } else {
        rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
        int n = ws_random_convex(g, size, pts);
        id = rc_shape_create_polygon(r->w, b, &sd, pts, n);
    }
    EXPECT(!rc_shape_id_is_null(id), "shape creation: %s", rc_world_last_error(r->w));
    shape_info si = {id, sd.is_sensor, sd.enable_contact_events, sd.enable_sensor_events};
    arrput(r->shapes, si);
}

static void run_add_body(run *r, bool moving) {
    ws_rng *g = &r->rng;
    double u = ws_uniform(g);
    rc_body_type type = u < 0.2 ? RC_STATIC : (u < 0.3 ? RC_KINEMATIC : RC_DYNAMIC);
    if (moving && type == RC_STATIC) {
        type = RC_DYNAMIC;
    }
    rc_vec2 p = rc_v2(ws_range(g, -30, 30), ws_range(g, -30, 30));
    rc_vec2 v = rc_v2(0, 0);
    if (type != RC_STATIC && ws_chance(g, 0.7)) {
        v = rc_v2(ws_range(g, -8, 8), ws_range(g, -8, 8));
    }
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.angle = ws_range(g, -3, 3);
    bd.linear_velocity = v;
    bd.angular_velocity = type == RC_STATIC || ws_chance(g, 0.5) ? 0.0f : ws_range(g, -2, 2);
    bd.enable_response = false; /* compared with a brute force over straight-line motion */
    rc_body_id b = rc_body_create(r->w, &bd);
    EXPECT(!rc_body_id_is_null(b), "body creation: %s", rc_world_last_error(r->w));
    arrput(r->bodies, b);
    int n = ws_chance(g, 0.75) ? 1 : 2;
    for (int i = 0; i < n; ++i) {
        run_add_shape(r, b);
    }
}

static void run_forget_shape(run *r, rc_shape_id id) {
    for (ptrdiff_t i = 0; i < arrlen(r->shapes); ++i) {
        if (rc_shape_id_equals(r->shapes[i].id, id)) {
            arrput(r->dead, r->shapes[i]);
            arrdelswap(r->shapes, i);
            return;
        }
    }
}

/* Changes between steps. Without hazards only moving (awake, non-static) bodies are changed;
 * with hazards static bodies and sleeping bodies are changed too. */
static void run_perturb(run *r) {
    ws_rng *g = &r->rng;
    rc_world *w = r->w;
    /* keep things moving: bodies that left the area come back from the other side */
    for (ptrdiff_t i = 0; i < arrlen(r->bodies); ++i) {
        rc_body_id b = r->bodies[i];
        rc_vec2 p = rc_body_position(w, b);
        if (fabsf(p.x) > 40.0f || fabsf(p.y) > 40.0f) {
            EXPECT(rc_body_set_transform(w, b, rc_v2(-0.9f * p.x, -0.9f * p.y), rc_body_angle(w, b)), "teleport");
        }
    }
    if (ws_chance(g, 0.3)) {
        rc_body_id b = r->bodies[ws_int(g, 0, (int)arrlen(r->bodies) - 1)];
        bool may = r->hazards || (rc_body_get_type(w, b) != RC_STATIC && rc_body_is_awake(w, b));
        if (may) {
            rc_vec2 p = rc_add(rc_body_position(w, b), rc_v2(ws_range(g, -2, 2), ws_range(g, -2, 2)));
            EXPECT(rc_body_set_transform(w, b, p, ws_range(g, -3, 3)), "teleport");
        }
    }
    if (ws_chance(g, 0.15) && arrlen(r->shapes) > 20) {
        shape_info si = r->shapes[ws_int(g, 0, (int)arrlen(r->shapes) - 1)];
        rc_shape_destroy(w, si.id);
        run_forget_shape(r, si.id);
    }
    if (ws_chance(g, 0.15)) {
        rc_body_id b = r->bodies[ws_int(g, 0, (int)arrlen(r->bodies) - 1)];
        if (r->hazards || (rc_body_get_type(w, b) != RC_STATIC && rc_body_is_awake(w, b))) {
            run_add_shape(r, b);
        }
    }
    if (ws_chance(g, 0.1)) {
        shape_info si = r->shapes[ws_int(g, 0, (int)arrlen(r->shapes) - 1)];
        rc_body_id b = rc_shape_body(w, si.id);
        if (r->hazards || (rc_body_get_type(w, b) != RC_STATIC && rc_body_is_awake(w, b))) {
            EXPECT(rc_shape_set_filter(w, si.id, run_filter(g)), "set_filter");
        }
    }
    if (ws_chance(g, 0.05)) {
        /* a whole body goes, another comes */
        ptrdiff_t i = ws_int(g, 0, (int)arrlen(r->bodies) - 1);
        rc_body_id b = r->bodies[i];
        rc_shape_id ids[4];
        int32_t n = rc_body_shapes(w, b, ids, 4);
        EXPECT(n >= 0 && n <= 4, "rc_body_shapes");
        rc_body_destroy(w, b);
        for (int32_t k = 0; k < n; ++k) {
            run_forget_shape(r, ids[k]);
        }
        arrdelswap(r->bodies, i);
        /* a new static body could land on a sleeping one: a change to a still body */
        run_add_body(r, !r->hazards);
    }
    if (r->hazards && ws_chance(g, 0.2)) {
        /* a static body teleported next to a sleeping one */
        rc_body_id sleeper = RC_NULL_BODY_ID, wall = RC_NULL_BODY_ID;
        for (int tries = 0; tries < 20; ++tries) {
            rc_body_id b = r->bodies[ws_int(g, 0, (int)arrlen(r->bodies) - 1)];
            if (rc_body_get_type(w, b) == RC_STATIC) {
                wall = b;
            } else if (rc_body_get_type(w, b) == RC_DYNAMIC && !rc_body_is_awake(w, b)) {
                sleeper = b;
            }
        }
        if (!rc_body_id_is_null(sleeper) && !rc_body_id_is_null(wall)) {
            rc_vec2 p = rc_add(rc_body_position(w, sleeper), rc_v2(ws_range(g, -2, 2), ws_range(g, -2, 2)));
            EXPECT(rc_body_set_transform(w, wall, p, ws_range(g, -3, 3)), "teleport");
        }
    }
    if (ws_chance(g, 0.1)) {
        rc_body_id b = r->bodies[ws_int(g, 0, (int)arrlen(r->bodies) - 1)];
        if (rc_body_get_type(w, b) != RC_STATIC) {
            EXPECT(rc_body_set_linear_velocity(w, b, rc_v2(ws_range(g, -8, 8), ws_range(g, -8, 8))), "velocity");
        }
    }
}

/* stb_ds allocates a map on the first lookup; start every map that way so that lookups inside
 * helpers never allocate behind a copy of the pointer */
static pair_entry *empty_map(void) {
    pair_entry *m = NULL;
    ws_pair k = {0u, 0u};
    (void)hmgeti(m, k);
    return m;
}

static pair_entry *world_touching(const run *r);

/* The pairs that touch by the reference (ws_touch_state), with their manifolds by the pure
 * functions; a pair whose answer turns on rounding counts as the world lists it. */
static pair_entry *brute_touching(const run *r) {
    pair_entry *set = empty_map();
    pair_entry *listed = world_touching(r);
    const rc_world *w = r->w;
    ptrdiff_t n = arrlen(r->shapes);
    rc_aabb *boxes = NULL;
    for (ptrdiff_t i = 0; i < n; ++i) {
        rc_aabb box = rc_shape_aabb(w, r->shapes[i].id);
        /* grown: solid pairs touch within a linear slop, and a pair within rounding of that may
           be listed by the world */
        float grow = rc_world_default_def().linear_slop + 1e-3f;
        box.lower = rc_sub(box.lower, rc_v2(grow, grow));
        box.upper = rc_add(box.upper, rc_v2(grow, grow));
        arrput(boxes, box);
    }
    for (ptrdiff_t i = 0; i < n; ++i) {
        for (ptrdiff_t k = i + 1; k < n; ++k) {
            if (!rc_aabb_overlaps(boxes[i], boxes[k])) {
                continue;
            }
            rc_shape_id a = r->shapes[i].id, b = r->shapes[k].id;
            if (ws_shape_less(b, a)) {
                rc_shape_id t = a;
                a = b;
                b = t;
            }
            ws_touch state = ws_touch_state(w, a, b, rc_world_default_def().contact_skin,
                                            rc_world_default_def().linear_slop);
            if (state == WS_APART || (state == WS_EITHER && hmgeti(listed, ws_pair_of(a, b)) < 0)) {
                continue;
            }
            rc_manifold m;
            memset(&m, 0, sizeof m);
            if (!ws_collide(w, a, b, &m)) {
                m.point_count = 0; /* touching within rounding, by the world's numbers only */
            }
            hmput(set, ws_pair_of(a, b), m);
        }
    }
    arrfree(boxes);
    hmfree(listed);
    return set;
}

static pair_entry *world_touching(const run *r) {
    pair_entry *set = empty_map();
    const rc_world *w = r->w;
    rc_manifold none;
    memset(&none, 0, sizeof none);
    long listed = 0;
    for (ptrdiff_t i = 0; i < arrlen(r->shapes); ++i) {
        rc_shape_id s = r->shapes[i].id;
        rc_shape_id ids[64];
        int32_t n = rc_shape_contacts(w, s, ids, 64);
        EXPECT(n >= 0 && n <= 64, "rc_shape_contacts = %d", (int)n);
        for (int32_t k = 0; k < n; ++k) {
            EXPECT(rc_shape_is_valid(w, ids[k]), "rc_shape_contacts lists a dead shape");
            hmput(set, ws_pair_of(s, ids[k]), none);
            listed++;
        }
    }
    EXPECT(listed == 2 * hmlen(set), "rc_shape_contacts lists are not symmetric (%ld entries, %ld pairs)", listed,
           (long)hmlen(set));
    return set;
}

static bool events_wanted(const run *r, rc_shape_id a, rc_shape_id b, bool *sensor_pair) {
    const shape_info *ia = info_of(r, a), *ib = info_of(r, b);
    EXPECT(ia != NULL && ib != NULL, "an event names a shape the test never made");
    *sensor_pair = ia->sensor || ib->sensor;
    if (*sensor_pair) {
        return (ia->sensor ? ia : ib)->sensor_events;
    }
    return ia->contact_events && ib->contact_events;
}

static void describe_pair(const run *r, ws_pair p, char *out, size_t size) {
    rc_shape_id a = {(uint32_t)(p.a >> 32), (uint32_t)p.a}, b = {(uint32_t)(p.b >> 32), (uint32_t)p.b};
    const rc_world *w = r->w;
    bool va = rc_shape_is_valid(w, a), vb = rc_shape_is_valid(w, b);
    rc_body_id ba = va ? rc_shape_body(w, a) : RC_NULL_BODY_ID, bb = vb ? rc_shape_body(w, b) : RC_NULL_BODY_ID;
    snprintf(out, size, "{%u,%u} (%s, %s) and {%u,%u} (%s, %s)", a.index, a.generation,
             !va ? "dead"
                 : (rc_body_get_type(w, ba) == RC_STATIC    ? "static"
                    : rc_body_get_type(w, ba) == RC_DYNAMIC ? "dynamic"
                                                            : "kinematic"),
             va && rc_body_is_awake(w, ba) ? "awake" : "still", b.index, b.generation,
             !vb ? "dead"
                 : (rc_body_get_type(w, bb) == RC_STATIC    ? "static"
                    : rc_body_get_type(w, bb) == RC_DYNAMIC ? "dynamic"
                                                            : "kinematic"),
             vb && rc_body_is_awake(w, bb) ? "awake" : "still");
}

/* The world's manifold (computed in the first body's frame) against the pure function's (in the
 * world): the same normal and depth within float rounding at the scene's size (coordinates up
 * to about 40), and each of the pure function's points near one of the world's. */
static bool manifolds_agree(const rc_manifold *m, const rc_manifold *x) {
    const double tol = 1e-4;
    if (m->point_count < 1 || rc_dot(m->normal, x->normal) < 1.0f - 1e-6f || fabs((double)m->depth - x->depth) > tol) {
        return false;
    }
    if (m->point_count != x->point_count && fabs((double)m->depth - x->depth) <= tol && m->depth <= 1e-3f) {
        return true; /* a face met at an angle within rounding of parallel: one point or two */
    }
    if (m->point_count < x->point_count) {
        return false;
    }
    /* each of the pure function's points is one of the world's; the world's may hold one more
       that does not overlap (depth 0: within the linear slop of touching, where solid pairs
       touch), which the pure function's (overlap only) leaves out */
    bool matched[2] = {false, false};
    for (int i = 0; i < x->point_count; ++i) {
        double best = INFINITY;
        int at = -1;
        for (int j = 0; j < m->point_count; ++j) {
            double d = (double)rc_distance(x->points[i], m->points[j]);
            if (d < best) {
                best = d;
                at = j;
            }
        }
        if (best > tol) {
            return false;
        }
        matched[at] = true;
    }
    for (int j = 0; j < m->point_count; ++j) {
        if (!matched[j] && m->depths[j] > tol) {
            return false;
        }
    }
    return true;
}

static void check_step(run *r, int step, pair_entry *prev, pair_entry *now) {
    const rc_world *w = r->w;
    char d[200];
    /* the touching set */
    pair_entry *listed = world_touching(r);
    for (ptrdiff_t i = 0; i < hmlen(now); ++i) {
        if (hmgeti(listed, now[i].key) < 0) {
            describe_pair(r, now[i].key, d, sizeof d);
            ck_abort_msg("step %d: %s touch (brute force) but the world does not list them", step, d);
        }
    }
    for (ptrdiff_t i = 0; i < hmlen(listed); ++i) {
        if (hmgeti(now, listed[i].key) < 0) {
            describe_pair(r, listed[i].key, d, sizeof d);
            ck_abort_msg("step %d: the world lists %s as touching, brute force does not", step, d);
        }
    }
    hmfree(listed);
    /* begin events: exactly the new pairs that want events, each once, ordered, with the
       manifold of the pure functions */
    rc_contact_events ce = rc_world_contact_events(w);
    rc_sensor_events se = rc_world_sensor_events(w);
    pair_entry *seen = empty_map();
    rc_manifold none;
    memset(&none, 0, sizeof none);
    for (int32_t i = 0; i < ce.begin_count; ++i) {
        const rc_contact_begin_event *e = &ce.begin[i];
        EXPECT(ws_shape_less(e->shape_a, e->shape_b), "step %d: begin event not ordered by shape id", step);
        ws_pair p = ws_pair_of(e->shape_a, e->shape_b);
        EXPECT(hmgeti(seen, p) < 0, "step %d: begin event twice", step);
        hmput(seen, p, none);
        ptrdiff_t k = hmgeti(now, p);
        describe_pair(r, p, d, sizeof d);
        EXPECT(k >= 0 && hmgeti(prev, p) < 0, "step %d: begin event for %s, which %s", step, d,
               k < 0 ? "do not touch" : "touched already");
        bool sensor_pair;
        EXPECT(events_wanted(r, e->shape_a, e->shape_b, &sensor_pair) && !sensor_pair,
               "step %d: begin event for %s, which asked for none (or a sensor pair)", step, d);
        const rc_manifold *m = &e->manifold, *x = &now[k].value;
        EXPECT(x->point_count == 0 || manifolds_agree(m, x),
               "step %d: begin manifold of %s differs from the pure function's: normal (%g, %g)/(%g, %g) depth "
               "%g/%g points %d/%d",
               step, d, (double)m->normal.x, (double)m->normal.y, (double)x->normal.x, (double)x->normal.y,
               (double)m->depth, (double)x->depth, m->point_count, x->point_count);
        r->begins++;
    }
    for (int32_t i = 0; i < se.begin_count; ++i) {
        ws_pair p = ws_pair_of(se.begin[i].sensor, se.begin[i].visitor);
        EXPECT(hmgeti(seen, p) < 0, "step %d: sensor begin twice", step);
        hmput(seen, p, none);
        describe_pair(r, p, d, sizeof d);
        EXPECT(hmgeti(now, p) >= 0 && hmgeti(prev, p) < 0, "step %d: sensor begin for %s", step, d);
        const shape_info *si = info_of(r, se.begin[i].sensor);
        EXPECT(si && si->sensor && si->sensor_events, "step %d: sensor begin names a non-sensor as sensor", step);
        r->sensor_begins++;
    }
    for (ptrdiff_t i = 0; i < hmlen(now); ++i) {
        if (hmgeti(prev, now[i].key) >= 0) {
            continue;
        }
        rc_shape_id a = {(uint32_t)(now[i].key.a >> 32), (uint32_t)now[i].key.a};
        rc_shape_id b = {(uint32_t)(now[i].key.b >> 32), (uint32_t)now[i].key.b};
        bool sensor_pair;
        if (events_wanted(r, a, b, &sensor_pair)) {
            describe_pair(r, now[i].key, d, sizeof d);
            EXPECT(hmgeti(seen, now[i].key) >= 0, "step %d: %s began touching without a %s begin event", step, d,
                   sensor_pair ? "sensor" : "contact");
        }
    }
    hmfree(seen);
    seen = empty_map();
    /* end events: exactly the pairs that stopped touching, with the last manifold */
    for (int32_t i = 0; i < ce.end_count; ++i) {
        const rc_contact_end_event *e = &ce.end[i];
        EXPECT(ws_shape_less(e->shape_a, e->shape_b), "step %d: end event not ordered by shape id", step);
        ws_pair p = ws_pair_of(e->shape_a, e->shape_b);
        EXPECT(hmgeti(seen, p) < 0, "step %d: end event twice", step);
        hmput(seen, p, none);
        ptrdiff_t k = hmgeti(prev, p);
        describe_pair(r, p, d, sizeof d);
        EXPECT(k >= 0 && hmgeti(now, p) < 0, "step %d: end event for %s, which %s", step, d,
               k < 0 ? "did not touch" : "still touch");
        bool sensor_pair;
        EXPECT(events_wanted(r, e->shape_a, e->shape_b, &sensor_pair) && !sensor_pair,
               "step %d: end event for %s, which asked for none", step, d);
        const rc_manifold *m = &e->manifold, *x = &prev[k].value;
        EXPECT(x->point_count == 0 || manifolds_agree(m, x), "step %d: end manifold of %s is not the last one (depth %g/%g)",
               step, d, (double)m->depth, (double)x->depth);
        r->ends++;
    }
    for (int32_t i = 0; i < se.end_count; ++i) {
        ws_pair p = ws_pair_of(se.end[i].sensor, se.end[i].visitor);
        EXPECT(hmgeti(seen, p) < 0, "step %d: sensor end twice", step);
        hmput(seen, p, none);
        describe_pair(r, p, d, sizeof d);
        EXPECT(hmgeti(prev, p) >= 0 && hmgeti(now, p) < 0, "step %d: sensor end for %s", step, d);
        r->sensor_ends++;
    }
    for (ptrdiff_t i = 0; i < hmlen(prev); ++i) {
        if (hmgeti(now, prev[i].key) >= 0) {
            continue;
        }
        rc_shape_id a = {(uint32_t)(prev[i].key.a >> 32), (uint32_t)prev[i].key.a};
        rc_shape_id b = {(uint32_t)(prev[i].key.b >> 32), (uint32_t)prev[i].key.b};
        bool sensor_pair;
        if (events_wanted(r, a, b, &sensor_pair)) {
            describe_pair(r, prev[i].key, d, sizeof d);
            EXPECT(hmgeti(seen, prev[i].key) >= 0, "step %d: %s stopped touching without a %s end event", step, d,
                   sensor_pair ? "sensor" : "contact");
        }
    }
    hmfree(seen);
    if (hmlen(now) > r->max_touching) {
        r->max_touching = hmlen(now);
    }
}

START_TEST(random_run_matches_brute_force_pairs) {
    run r;
    memset(&r, 0, sizeof r);
    r.rng.s = 0xE7E27u + (uint64_t)_i * 7919u;
    r.hazards = _i >= 2;
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    wd.cell_size = _i == 1 ? 1.0f : 0.0f;
    r.w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(r.w);
    for (int i = 0; i < 150; ++i) {
        run_add_body(&r, false);
    }
    pair_entry *prev = empty_map();
    const int steps = 300;
    for (int step = 1; step <= steps; ++step) {
        if (step > 1) {
            run_perturb(&r);
        }
        EXPECT(rc_world_step(r.w, 1.0f / 30.0f), "step failed: %s", rc_world_last_error(r.w));
        pair_entry *now = brute_touching(&r);
        check_step(&r, step, prev, now);
        hmfree(prev);
        prev = now;
    }
    hmfree(prev);
    fprintf(stderr,
            "[events] random run %d%s: %d steps, %ld begin, %ld end, %ld sensor begin, %ld sensor end, up to %ld "
            "touching pairs, %d shapes\n",
            _i, r.hazards ? " (with changes to still bodies)" : "", steps, r.begins, r.ends, r.sensor_begins,
            r.sensor_ends, r.max_touching, (int)arrlen(r.shapes));
    EXPECT(r.begins > 50 && r.ends > 50 && r.sensor_begins > 5, "the run did not exercise the events");
    rc_world_destroy(r.w);
    arrfree(r.bodies);
    arrfree(r.shapes);
    arrfree(r.dead);
}
END_TEST

static Suite *events_suite(void) {
    Suite *s = suite_create("world_events");
    TCase *t = tcase_create("scripted");
    tcase_add_test(t, circle_touching_a_box_begins_and_ends_on_the_right_steps);
    tcase_add_test(t, begin_with_overlap_reports_depth_and_midpoint);
    tcase_add_test(t, normal_points_from_a_to_b_when_the_circle_has_the_lower_id);
    tcase_add_test(t, sensor_begin_and_end);
    tcase_add_test(t, filtered_pairs_have_no_events);
    tcase_add_test(t, no_events_within_a_body_or_between_statics);
    tcase_add_test(t, events_are_empty_before_the_first_step);
    tcase_add_test(t, destroying_a_touching_shape_ends_its_contact_next_step);
    tcase_add_test(t, destruction_does_not_change_the_published_lists_before_the_step);
    tcase_add_test(t, a_sleeping_body_is_woken_when_a_moving_body_begins_touching_it);
    suite_add_tcase(s, t);
    TCase *h = tcase_create("still bodies");
    tcase_add_test(h, a_static_shape_created_on_a_sleeping_body_begins_contact);
    tcase_add_test(h, teleporting_a_static_body_onto_and_off_a_sleeping_body);
    tcase_add_test(h, teleporting_a_static_body_off_a_sleeping_body_ends_the_contact);
    tcase_add_test(h, a_filter_change_on_a_static_shape_ends_contact_with_a_sleeping_body);
    tcase_add_test(h, a_body_made_static_stops_touching_static_shapes);
    tcase_add_test(h, a_filter_change_lets_resting_overlapping_shapes_pair);
    tcase_add_test(h, a_kinematic_body_made_dynamic_pairs_with_static_shapes);
    suite_add_tcase(s, h);
    TCase *r = tcase_create("random");
    tcase_set_timeout(r, 120);
    tcase_add_loop_test(r, random_run_matches_brute_force_pairs, 0, 3);
    suite_add_tcase(s, r);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(events_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
