/* Bodies and shapes in the world: defaults, getters and setters, the transform formula of
 * API.md, mass properties from density, integration (semi-implicit Euler, damping, gravity
 * scale, kinematic and static bodies), sleeping and waking, generation-checked ids with slot
 * reuse and forged ids, and the shapes of a body. Expected values are worked out by hand or
 * by the same recurrence in double precision. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

#define EXPECT WS_EXPECT

static rc_world *make_world(rc_vec2 gravity) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = gravity;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

static rc_body_id make_body(rc_world *w, rc_body_type type, rc_vec2 p, float angle) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.angle = angle;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert_msg(!rc_body_id_is_null(b), "rc_body_create: %s", rc_world_last_error(w));
    return b;
}

#define NEAR(x, ex, tol, ...) EXPECT(fabs((double)(x) - (double)(ex)) <= (tol), __VA_ARGS__)

/* ---- defaults ------------------------------------------------------------------------------- */

START_TEST(default_defs_are_as_documented) {
    rc_world_def wd = rc_world_default_def();
    ck_assert(wd.gravity.x == 0.0f && wd.gravity.y == -10.0f);
    ck_assert(wd.cell_size == 0.0f);
    ck_assert(wd.allocator.alloc == NULL && wd.allocator.free == NULL);
    ck_assert(wd.error_fn == NULL);
    ck_assert(wd.enable_sleep);
    ck_assert_float_eq(wd.sleep_time, 0.5f);
    ck_assert_float_eq(wd.sleep_linear_speed, 0.05f);
    ck_assert_float_eq(wd.sleep_angular_speed, 0.05f);
    ck_assert_float_eq(wd.restitution_threshold, 1.0f);
    ck_assert_float_eq(wd.contact_skin, 1e-4f);
    ck_assert(wd.body_capacity >= 0 && wd.shape_capacity >= 0);

    rc_body_def bd = rc_body_default_def();
    ck_assert_int_eq(bd.type, RC_STATIC);
    ck_assert(bd.position.x == 0.0f && bd.position.y == 0.0f && bd.angle == 0.0f);
    ck_assert(bd.linear_velocity.x == 0.0f && bd.linear_velocity.y == 0.0f && bd.angular_velocity == 0.0f);
    ck_assert(bd.linear_damping == 0.0f && bd.angular_damping == 0.0f);
    ck_assert_float_eq(bd.gravity_scale, 1.0f);
    ck_assert(!bd.bullet);
    ck_assert_int_eq(bd.max_bounces, 8);
    ck_assert(bd.awake);
    ck_assert(bd.enable_sleep);
    ck_assert(!bd.fixed_rotation);
    ck_assert(bd.enable_response);
    ck_assert_float_eq(bd.point_mass, 1.0f);
    ck_assert_uint_eq(bd.point_filter.category_bits, 1u);
    ck_assert_uint_eq(bd.point_filter.mask_bits, UINT32_MAX);
    ck_assert_int_eq(bd.point_filter.group_index, 0);
    ck_assert_ptr_null(bd.user_data);

    rc_shape_def sd = rc_shape_default_def();
    ck_assert(sd.offset.x == 0.0f && sd.offset.y == 0.0f && sd.angle == 0.0f);
    ck_assert(sd.scale.x == 1.0f && sd.scale.y == 1.0f);
    ck_assert_float_eq(sd.restitution, 0.0f);
    ck_assert_float_eq(sd.friction, 0.6f);
    ck_assert_float_eq(sd.rolling_resistance, 0.2f);
    ck_assert_float_eq(sd.density, 1.0f);
    ck_assert(!sd.is_sensor && sd.enable_contact_events && sd.enable_sensor_events && !sd.one_sided);
    ck_assert_uint_eq(sd.filter.category_bits, 1u);
    ck_assert_uint_eq(sd.filter.mask_bits, UINT32_MAX);
    ck_assert_int_eq(sd.filter.group_index, 0);
    ck_assert_ptr_null(sd.user_data);

    rc_filter f = rc_default_filter();
    ck_assert(f.category_bits == 1u && f.mask_bits == UINT32_MAX && f.group_index == 0);
    rc_query_filter q = rc_default_query_filter();
    ck_assert(q.category_bits == UINT32_MAX && q.mask_bits == UINT32_MAX); /* a default query sees every category */
}
END_TEST

START_TEST(created_body_reports_its_def) {
    rc_world *w = make_world(rc_v2(0, -10));
    int tag;
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(3.5f, -2.25f);
    bd.angle = 0.75f;
    bd.linear_velocity = rc_v2(1.5f, -0.5f);
    bd.angular_velocity = 0.25f;
    bd.linear_damping = 0.125f;
    bd.angular_damping = 0.5f;
    bd.gravity_scale = -2.0f;
    bd.bullet = true;
    bd.max_bounces = 3;
    bd.awake = false;
    bd.user_data = &tag;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    ck_assert(rc_body_is_valid(w, b));
    ck_assert_int_eq(rc_body_get_type(w, b), RC_DYNAMIC);
    ck_assert(rc_vec2_equal(rc_body_position(w, b), bd.position));
    ck_assert_float_eq(rc_body_angle(w, b), 0.75f);
    rc_transform xf = rc_body_transform(w, b);
    rc_rot q = rc_rot_from_angle(0.75f);
    ck_assert(rc_vec2_equal(xf.p, bd.position) && xf.q.c == q.c && xf.q.s == q.s);
    ck_assert(rc_vec2_equal(rc_body_linear_velocity(w, b), bd.linear_velocity));
    ck_assert_float_eq(rc_body_angular_velocity(w, b), 0.25f);
    ck_assert_float_eq(rc_body_linear_damping(w, b), 0.125f);
    ck_assert_float_eq(rc_body_angular_damping(w, b), 0.5f);
    ck_assert_float_eq(rc_body_gravity_scale(w, b), -2.0f);
    ck_assert(rc_body_is_bullet(w, b));
    ck_assert_int_eq(rc_body_max_bounces(w, b), 3);
    ck_assert(!rc_body_is_awake(w, b));
    ck_assert_ptr_eq(rc_body_user_data(w, b), &tag);
    ck_assert_int_eq(rc_body_shapes(w, b, NULL, 0), 0);
    ck_assert(rc_vec2_equal(rc_body_world_center(w, b), bd.position)); /* no shapes: the origin */
    /* a sleeping body stays put */
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert(rc_vec2_equal(rc_body_position(w, b), bd.position));
    ck_assert(!rc_body_is_awake(w, b));
    ck_assert_str_eq(rc_world_last_error(w), "");

    /* a static body has no velocity whatever its def says, and no mass */
    bd.type = RC_STATIC;
    rc_body_id s = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(s));
    ck_assert(rc_vec2_equal(rc_body_linear_velocity(w, s), rc_v2(0, 0)));
    ck_assert_float_eq(rc_body_angular_velocity(w, s), 0.0f);
    ck_assert(!rc_body_is_bullet(w, s));
    ck_assert_float_eq(rc_body_mass(w, s), 0.0f);
    rc_world_counters c = rc_world_get_counters(w);
    ck_assert_int_eq(c.bodies, 2);
    ck_assert_int_eq(c.shapes, 0);
    rc_world_destroy(w);
}
END_TEST

/* ---- the transform formula ---------------------------------------------------------------- */

typedef struct dv {
    double x, y;
} dv;

/* body.position + R(body.angle) * (offset + R(angle) * (scale.x * v.x, scale.y * v.y)) */
static dv api_transform(rc_vec2 bp, float ba, rc_vec2 off, float sa, rc_vec2 sc, rc_vec2 v) {
    double x = (double)sc.x * v.x, y = (double)sc.y * v.y;
    double c = cos(sa), s = sin(sa);
    double bx = off.x + c * x - s * y, by = off.y + s * x + c * y;
    double C = cos(ba), S = sin(ba);
    dv r = {bp.x + C * bx - S * by, bp.y + S * bx + C * by};
    return r;
}

static void check_polygon_placement(rc_world *w, rc_shape_id s, rc_vec2 bp, float ba, const rc_shape_def *sd,
                                    const rc_vec2 *local, int n) {
    rc_polygon got;
    ck_assert(rc_shape_world_polygon(w, s, &got));
    ck_assert_int_eq(got.count, n);
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    double scale = fabs(bp.x) + fabs(bp.y) + fabs(sd->offset.x) + fabs(sd->offset.y) + 10.0;
    double tol = 2e-6 * scale;
    for (int i = 0; i < n; ++i) {
        dv e = api_transform(bp, ba, sd->offset, sd->angle, sd->scale, local[i]);
        lo_x = fmin(lo_x, e.x), lo_y = fmin(lo_y, e.y), hi_x = fmax(hi_x, e.x), hi_y = fmax(hi_y, e.y);
        bool found = false;
        for (int k = 0; k < got.count; ++k) {
            found |= fabs(got.vertices[k].x - e.x) <= tol && fabs(got.vertices[k].y - e.y) <= tol;
        }
        ck_assert_msg(found, "expected world vertex (%.9g, %.9g) not among the shape's vertices", e.x, e.y);
    }
    /* counter-clockwise, unit outward normals */
    double area2 = 0.0;
    for (int k = 0; k < got.count; ++k) {
        rc_vec2 a = got.vertices[k], b = got.vertices[(k + 1) % got.count];
        area2 += (double)a.x * b.y - (double)a.y * b.x;
        rc_vec2 e = rc_sub(b, a), nn = got.normals[k];
        ck_assert(fabs(rc_length(nn) - 1.0) < 1e-5);
        ck_assert_msg(fabs(rc_dot(nn, e)) <= 1e-5 * rc_length(e) + 4e-7 * scale, "normal %d not perpendicular", k);
        ck_assert(rc_cross(e, nn) < 0.0f); /* the normal is to the right of a ccw edge */
    }
    ck_assert(area2 > 0.0);
    rc_aabb box = rc_shape_aabb(w, s);
    ck_assert_msg(fabs(box.lower.x - lo_x) <= tol && fabs(box.lower.y - lo_y) <= tol &&
                      fabs(box.upper.x - hi_x) <= tol && fabs(box.upper.y - hi_y) <= tol,
                  "aabb (%g, %g)-(%g, %g), expected (%g, %g)-(%g, %g)", (double)box.lower.x, (double)box.lower.y,
                  (double)box.upper.x, (double)box.upper.y, lo_x, lo_y, hi_x, hi_y);
}

static void check_circle_placement(rc_world *w, rc_shape_id s, rc_vec2 bp, float ba, const rc_shape_def *sd,
                                   float radius) {
    rc_circle c;
    ck_assert(rc_shape_world_circle(w, s, &c));
    dv e = api_transform(bp, ba, sd->offset, sd->angle, sd->scale, rc_v2(0, 0));
    double tol = 2e-6 * (fabs(bp.x) + fabs(bp.y) + fabs(sd->offset.x) + fabs(sd->offset.y) + 10.0);
    ck_assert_msg(fabs(c.center.x - e.x) <= tol && fabs(c.center.y - e.y) <= tol, "centre (%g, %g), expected (%g, %g)",
                  (double)c.center.x, (double)c.center.y, e.x, e.y);
    ck_assert_float_eq_tol(c.radius, radius * fabsf(sd->scale.x), 1e-6f * radius * fabsf(sd->scale.x));
    rc_aabb box = rc_shape_aabb(w, s);
    ck_assert(fabs(box.lower.x - (e.x - c.radius)) <= tol && fabs(box.upper.y - (e.y + c.radius)) <= tol);
}

START_TEST(set_transform_moves_shapes_by_the_api_formula) {
    rc_world *w = make_world(rc_v2(0, 0));
    ws_rng r = {42};
    for (int round = 0; round < 40; ++round) {
        rc_body_type type = (rc_body_type)(round % 3);
        rc_vec2 p0 = rc_v2(ws_range(&r, -100, 100), ws_range(&r, -100, 100));
        float a0 = ws_range(&r, -4, 4);
        rc_body_id b = make_body(w, type, p0, a0);
        rc_shape_def pd = rc_shape_default_def();
        pd.offset = rc_v2(ws_range(&r, -5, 5), ws_range(&r, -5, 5));
        pd.angle = ws_range(&r, -4, 4);
        pd.scale = rc_v2(ws_range(&r, 0.2, 3) * (ws_chance(&r, 0.5) ? -1.0f : 1.0f),
                         ws_range(&r, 0.2, 3) * (ws_chance(&r, 0.5) ? -1.0f : 1.0f));
        rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
        int n = ws_random_convex(&r, ws_range(&r, 0.5, 4), pts);
        rc_shape_id ps = rc_shape_create_polygon(w, b, &pd, pts, n);
        ck_assert_msg(!rc_shape_id_is_null(ps), "%s", rc_world_last_error(w));
        rc_polygon made;
        ck_assert(rc_make_polygon(pts, n, &made) == RC_POLYGON_OK);
        rc_shape_def cd = rc_shape_default_def();
        cd.offset = rc_v2(ws_range(&r, -5, 5), ws_range(&r, -5, 5));
        cd.angle = ws_range(&r, -4, 4);
        float cs = ws_range(&r, 0.2, 3);
        cd.scale = rc_v2(ws_chance(&r, 0.5) ? -cs : cs, ws_chance(&r, 0.5) ? -cs : cs);
        float radius = ws_range(&r, 0.1, 3);
        rc_shape_id csh = rc_shape_create_circle(w, b, &cd, radius);
        ck_assert_msg(!rc_shape_id_is_null(csh), "%s", rc_world_last_error(w));
        check_polygon_placement(w, ps, p0, a0, &pd, made.vertices, made.count);
        check_circle_placement(w, csh, p0, a0, &cd, radius);
        rc_vec2 p1 = rc_v2(ws_range(&r, -1000, 1000), ws_range(&r, -1000, 1000));
        float a1 = ws_range(&r, -10, 10);
        ck_assert(rc_body_set_transform(w, b, p1, a1));
        ck_assert(rc_vec2_equal(rc_body_position(w, b), p1));
        ck_assert_float_eq(rc_body_angle(w, b), a1);
        check_polygon_placement(w, ps, p1, a1, &pd, made.vertices, made.count);
        check_circle_placement(w, csh, p1, a1, &cd, radius);
        /* and the world queries see the shape where it now is */
        rc_polygon wp;
        rc_shape_world_polygon(w, ps, &wp);
        rc_query_filter all = rc_default_query_filter();
        ck_assert(rc_world_overlap_point(w, wp.centroid, all, NULL, NULL) >= 1);
        /* a new base transform moves the shape too */
        rc_shape_def pd2 = pd;
        pd2.offset = rc_v2(1.0f, -2.0f);
        pd2.angle = 0.3f;
        pd2.scale = rc_v2(-1.5f, 0.5f);
        ck_assert(rc_shape_set_base_transform(w, ps, pd2.offset, pd2.angle, pd2.scale));
        check_polygon_placement(w, ps, p1, a1, &pd2, made.vertices, made.count);
        rc_body_destroy(w, b);
    }
    ck_assert_str_eq(rc_world_last_error(w), "");
    rc_world_destroy(w);
}
END_TEST

/* ---- mass ------------------------------------------------------------------------------------ */

START_TEST(mass_and_inertia_from_density) {
    rc_world *w = make_world(rc_v2(0, 0));
    /* a 2 x 1 box of density 3 at the origin: mass 6, inertia 6 (4 + 1) / 12 = 2.5 */
    rc_body_id b = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.density = 3.0f;
    rc_shape_id box = rc_shape_create_box(w, b, &sd, 1.0f, 0.5f);
    ck_assert(!rc_shape_id_is_null(box));
    ck_assert_float_eq_tol(rc_body_mass(w, b), 6.0f, 1e-5f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b), 2.5f, 1e-5f);
    ck_assert_float_eq(rc_shape_density(w, box), 3.0f);

    /* the same box offset to (2, 1) and turned a quarter: same mass and inertia about its centre;
       the body at (5, -2) turned by pi/3 puts the centre at (5, -2) + R(pi/3) (2, 1) */
    rc_vec2 p = rc_v2(5.0f, -2.0f);
    float angle = RC_PI / 3.0f;
    rc_body_id b2 = make_body(w, RC_DYNAMIC, p, angle);
    sd.offset = rc_v2(2.0f, 1.0f);
    sd.angle = 0.5f * RC_PI;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b2, &sd, 1.0f, 0.5f)));
    ck_assert_float_eq_tol(rc_body_mass(w, b2), 6.0f, 1e-5f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b2), 2.5f, 1e-5f);
    double c = cos(angle), s = sin(angle);
    rc_vec2 wc = rc_body_world_center(w, b2);
    NEAR(wc.x, 5.0 + c * 2.0 - s * 1.0, 1e-5, "centre x %.9g", (double)wc.x);
    NEAR(wc.y, -2.0 + s * 2.0 + c * 1.0, 1e-5, "centre y %.9g", (double)wc.y);

    /* add a circle of radius 1, density 2 at (-1, 0): mass 2 pi, inertia pi about its centre */
    rc_shape_def cd = rc_shape_default_def();
    cd.density = 2.0f;
    cd.offset = rc_v2(-1.0f, 0.0f);
    rc_shape_id circle = rc_shape_create_circle(w, b2, &cd, 1.0f);
    ck_assert(!rc_shape_id_is_null(circle));
    double m1 = 6.0, m2 = 2.0 * M_PI, m = m1 + m2;
    double cx = (m1 * 2.0 + m2 * -1.0) / m, cy = (m1 * 1.0) / m;
    double inertia = 2.5 + m1 * ((2.0 - cx) * (2.0 - cx) + (1.0 - cy) * (1.0 - cy)) + M_PI +
                     m2 * ((-1.0 - cx) * (-1.0 - cx) + cy * cy);
    NEAR(rc_body_mass(w, b2), m, 1e-4, "mass %.9g, expected %.9g", (double)rc_body_mass(w, b2), m);
    NEAR(rc_body_rotational_inertia(w, b2), inertia, 1e-4 * inertia, "inertia %.9g, expected %.9g",
         (double)rc_body_rotational_inertia(w, b2), inertia);
    wc = rc_body_world_center(w, b2);
    NEAR(wc.x, 5.0 + c * cx - s * cy, 1e-5, "centre x %.9g", (double)wc.x);
    NEAR(wc.y, -2.0 + s * cx + c * cy, 1e-5, "centre y %.9g", (double)wc.y);
    /* the position stays the body origin */
    ck_assert(rc_vec2_equal(rc_body_position(w, b2), p));

    /* the circle goes: back to the box alone */
    rc_shape_destroy(w, circle);
    ck_assert(!rc_shape_is_valid(w, circle));
    ck_assert_float_eq_tol(rc_body_mass(w, b2), 6.0f, 1e-5f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b2), 2.5f, 1e-5f);
    wc = rc_body_world_center(w, b2);
    NEAR(wc.x, 5.0 + c * 2.0 - s * 1.0, 1e-5, "centre x after destroy %.9g", (double)wc.x);

    /* density changes the mass */
    rc_shape_id ids[4];
    ck_assert_int_eq(rc_body_shapes(w, b2, ids, 4), 1);
    ck_assert(rc_shape_set_density(w, ids[0], 1.0f));
    ck_assert_float_eq_tol(rc_body_mass(w, b2), 2.0f, 1e-5f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b2), 2.5f / 3.0f, 1e-5f);

    /* scaled shapes: a unit box scaled (-4, 1) is 4 x 1: mass 4, inertia 4 (16 + 1) / 12;
       a unit circle scaled (-2, 2) has radius 2: mass 4 pi, inertia 8 pi */
    rc_body_id b3 = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_shape_def ss = rc_shape_default_def();
    ss.scale = rc_v2(-4.0f, 1.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b3, &ss, 0.5f, 0.5f)));
    ck_assert_float_eq_tol(rc_body_mass(w, b3), 4.0f, 1e-5f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b3), 4.0f * 17.0f / 12.0f, 1e-4f);
    rc_body_id b4 = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    ss.scale = rc_v2(-2.0f, 2.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b4, &ss, 1.0f)));
    ck_assert_float_eq_tol(rc_body_mass(w, b4), 4.0f * RC_PI, 1e-4f);
    ck_assert_float_eq_tol(rc_body_rotational_inertia(w, b4), 8.0f * RC_PI, 1e-4f);
    /* a new base transform recomputes the mass */
    rc_shape_id ids4[2];
    ck_assert_int_eq(rc_body_shapes(w, b4, ids4, 2), 1);
    ck_assert(rc_shape_set_base_transform(w, ids4[0], rc_v2(0, 0), 0.0f, rc_v2(1.0f, -1.0f)));
    ck_assert_float_eq_tol(rc_body_mass(w, b4), RC_PI, 1e-5f);
    ck_assert_str_eq(rc_world_last_error(w), "");
    rc_world_destroy(w);
}
END_TEST

/* ---- integration -------------------------------------------------------------------------- */

/* A body moved by its velocity (not swept) falls by semi-implicit Euler in the solver's
 * sub-steps (rc_world_def.sub_steps, 4 by default): in each, velocity first, then the position
 * with the new velocity. After n steps of 4 sub-steps h = dt / 4: v = -10 (4n) h and
 * y = 100 - 10 h^2 (1 + 2 + ... + 4n). */
START_TEST(free_fall_is_semi_implicit_euler) {
    rc_world *w = make_world(rc_v2(0, -10));
    rc_body_id b = make_body(w, RC_DYNAMIC, rc_v2(1.0f, 100.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    ck_assert_int_eq(rc_body_get_motion(w, b), RC_MOTION_FREE);
    const float dt = 1.0f / 60.0f;
    double v = 0.0, y = 100.0, h = (double)dt / 4.0;
    for (int n = 1; n <= 120; ++n) {
        ck_assert(rc_world_step(w, dt));
        for (int k = 0; k < 4; ++k) {
            v += h * -10.0; /* velocity first */
            y += h * v;     /* then position with the new velocity */
        }
        double m = 4.0 * n;
        NEAR(y, 100.0 - 10.0 * h * h * m * (m + 1.0) / 2.0, 1e-9, "the sum in closed form");
        rc_vec2 vel = rc_body_linear_velocity(w, b), pos = rc_body_position(w, b);
        /* float rounding: at most about half an ulp per step */
        NEAR(vel.y, v, 1e-7 * n * fabs(v) + 1e-7, "step %d: v %.9g, expected %.9g", n, (double)vel.y, v);
        NEAR(pos.y, y, 8e-6 * n, "step %d: y %.9g, expected %.9g", n, (double)pos.y, y);
        EXPECT(vel.x == 0.0f && pos.x == 1.0f, "step %d: sideways motion", n);
        NEAR(v, -10.0 * n * dt, 1e-9, "v = -10 t");
    }
    ck_assert(rc_body_is_awake(w, b));
    ck_assert_int_eq(rc_world_get_counters(w).steps, 120);
    rc_world_destroy(w);
}
END_TEST

/* A swept body (a grenade) in free flight moves along the chord of its parabola each step: its
 * positions are those of exact motion under gravity, y = 100 - 5 t^2. */
START_TEST(swept_free_fall_is_exact) {
    rc_world *w = make_world(rc_v2(0, -10));
    rc_body_id b = make_body(w, RC_DYNAMIC, rc_v2(1.0f, 100.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, 0.5f)));
    ck_assert_int_eq(rc_body_get_motion(w, b), RC_MOTION_SWEPT_CIRCLE);
    const float dt = 1.0f / 60.0f;
    for (int n = 1; n <= 120; ++n) {
        ck_assert(rc_world_step(w, dt));
        double t = (double)n * dt;
        rc_vec2 vel = rc_body_linear_velocity(w, b), pos = rc_body_position(w, b);
        NEAR(vel.y, -10.0 * t, 1e-6 * n, "step %d: v %.9g, expected %.9g", n, (double)vel.y, -10.0 * t);
        NEAR(pos.y, 100.0 - 5.0 * t * t, 8e-6 * n, "step %d: y %.9g, expected %.9g", n, (double)pos.y,
             100.0 - 5.0 * t * t);
        EXPECT(vel.x == 0.0f && pos.x == 1.0f, "step %d: sideways motion", n);
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(damping_and_gravity_scale) {
    rc_world *w = make_world(rc_v2(0, -10));
    const float dt = 1.0f / 50.0f;
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.linear_velocity = rc_v2(3.0f, 4.0f);
    bd.angular_velocity = 2.0f;
    bd.linear_damping = 0.5f;
    bd.angular_damping = 1.5f;
    bd.gravity_scale = 0.5f;
    rc_body_id a = rc_body_create(w, &bd);
    bd.gravity_scale = -1.0f; /* falls upwards */
    bd.linear_damping = 0.0f;
    bd.angular_damping = 0.0f;
    rc_body_id up = rc_body_create(w, &bd);
    bd.gravity_scale = 0.0f;
    rc_body_id drift = rc_body_create(w, &bd);
    /* in each of the 4 sub-steps h: gravity, then damping (implicit: v / (1 + h c)), then the
       position with the new velocity */
    double ax = 3, ay = 4, aw = 2, uy = 4, ux = 3, px = 0, py = 0, angle = 0, h = (double)dt / 4.0;
    for (int n = 1; n <= 100; ++n) {
        ck_assert(rc_world_step(w, dt));
        for (int k = 0; k < 4; ++k) {
            double f = 1.0 / (1.0 + h * 0.5);
            ax = ax * f;
            ay = (ay + h * 0.5 * -10.0) * f;
            aw = aw / (1.0 + h * 1.5);
            uy = uy + h * 10.0;
            px += h * ax;
            py += h * ay;
            angle += h * aw;
        }
        /* float rounding: each sub-step multiplies by a damping factor rounded to float (a
           relative 6e-8 each time, the same way each time), about 4e-7 n of the value by step n */
        double tol = 1e-6 + 4e-7 * n;
        rc_vec2 va = rc_body_linear_velocity(w, a);
        NEAR(va.x, ax, tol * (1 + fabs(ax)), "damped vx step %d: %.9g vs %.9g", n, (double)va.x, ax);
        NEAR(va.y, ay, tol * (1 + fabs(ay)), "damped vy step %d: %.9g vs %.9g", n, (double)va.y, ay);
        NEAR(rc_body_angular_velocity(w, a), aw, tol * (1 + fabs(aw)), "damped w step %d", n);
        NEAR(rc_body_position(w, a).x, px, tol * (1 + fabs(px)), "damped x step %d", n);
        NEAR(rc_body_position(w, a).y, py, tol * (1 + fabs(py)), "damped y step %d", n);
        NEAR(rc_body_angle(w, a), angle, tol * (1 + fabs(angle)), "damped angle step %d", n);
        NEAR(rc_body_linear_velocity(w, up).y, uy, 1e-5 * (1 + fabs(uy)), "gravity scale -1: vy step %d", n);
        EXPECT(rc_body_linear_velocity(w, drift).x == 3.0f && rc_body_linear_velocity(w, drift).y == 4.0f,
               "gravity scale 0 changed the velocity");
        NEAR(rc_body_position(w, drift).x, ux * n * dt, 1e-4, "drift x step %d", n);
    }
    /* setters */
    ck_assert(rc_body_set_gravity_scale(w, drift, 2.0f));
    ck_assert_float_eq(rc_body_gravity_scale(w, drift), 2.0f);
    ck_assert(rc_body_set_linear_damping(w, drift, 4.0f));
    ck_assert_float_eq(rc_body_linear_damping(w, drift), 4.0f);
    ck_assert(rc_body_set_angular_damping(w, drift, 0.25f));
    ck_assert_float_eq(rc_body_angular_damping(w, drift), 0.25f);
    rc_vec2 v0 = rc_body_linear_velocity(w, drift);
    ck_assert(rc_world_step(w, dt));
    rc_vec2 v1 = rc_body_linear_velocity(w, drift);
    double vx = v0.x, vy = v0.y;
    for (int k = 0; k < 4; ++k) {
        vx = vx / (1.0 + h * 4.0);
        vy = (vy + h * 2.0 * -10.0) / (1.0 + h * 4.0);
    }
    NEAR(v1.x, vx, 1e-5, "set damping");
    NEAR(v1.y, vy, 1e-5, "set gravity scale");
    rc_world_destroy(w);
}
END_TEST

/* Found by fuzz_world: a dynamic body whose shapes have a mass below 1 / FLT_MAX (a unit box
 * of density 2^-149, the least float: mass 2^-147) took 1 / mass = inf as its inverse mass,
 * and its centre became NaN. Such a shape was then taken as weighing nothing (the body kept its
 * point mass); now it is refused, as a shape of no area is: the body keeps its point mass (1)
 * and its origin as its centre. */
START_TEST(denormal_mass_counts_as_none) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(3, 4);
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(1, 0);
    sd.density = 0x1p-149f;
    ck_assert(rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 1.0f, 1.0f)));
    ck_assert(strstr(rc_world_last_error(w), "must have an area") != NULL);
    ck_assert_float_eq(rc_body_mass(w, b), 1.0f);
    rc_vec2 c = rc_body_world_center(w, b);
    ck_assert_float_eq(c.x, 3.0f);
    ck_assert_float_eq(c.y, 4.0f);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert(rc_vec2_is_finite(rc_body_position(w, b)));
    rc_world_destroy(w);
}
END_TEST

START_TEST(rotation_turns_about_the_centre_of_mass) {
    rc_world *w = make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(10.0f, 0.0f);
    bd.angular_velocity = 1.0f;
    bd.enable_sleep = false;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(2.0f, 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    rc_vec2 c0 = rc_body_world_center(w, b);
    ck_assert_float_eq_tol(c0.x, 12.0f, 1e-6f);
    const float dt = 1.0f / 64.0f;
    for (int n = 1; n <= 64; ++n) {
        ck_assert(rc_world_step(w, dt));
    }
    rc_vec2 c1 = rc_body_world_center(w, b);
    ck_assert_msg(fabsf(c1.x - 12.0f) < 1e-4f && fabsf(c1.y) < 1e-4f, "centre drifted to (%g, %g)", (double)c1.x,
                  (double)c1.y);
    float a = rc_body_angle(w, b);
    ck_assert_float_eq_tol(a, 1.0f, 1e-5f);
    rc_vec2 p = rc_body_position(w, b);
    /* the origin sits at centre - R(angle) (2, 0) */
    ck_assert_msg(fabs(p.x - (12.0 - 2.0 * cos(a))) < 1e-4 && fabs(p.y - (-2.0 * sin(a))) < 1e-4, "origin (%g, %g)",
                  (double)p.x, (double)p.y);
    rc_world_destroy(w);
}
END_TEST

START_TEST(kinematic_and_static_bodies) {
    rc_world *w = make_world(rc_v2(0, -10));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_KINEMATIC;
    bd.position = rc_v2(1.0f, 2.0f);
    bd.linear_velocity = rc_v2(2.0f, -1.0f);
    bd.angular_velocity = 0.5f;
    rc_body_id k = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, k, &sd, 1.0f, 1.0f)));
    bd.type = RC_STATIC;
    bd.position = rc_v2(-5.0f, -5.0f);
    bd.angle = 0.25f;
    rc_body_id s = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, s, &sd, 1.0f, 1.0f)));
    const float dt = 1.0f / 32.0f;
    for (int n = 1; n <= 96; ++n) {
        ck_assert(rc_world_step(w, dt));
        rc_vec2 p = rc_body_position(w, k);
        NEAR(p.x, 1.0 + 2.0 * n * dt, 1e-5, "kinematic x step %d", n);
        NEAR(p.y, 2.0 - 1.0 * n * dt, 1e-5, "kinematic y step %d (gravity?)", n);
        NEAR(rc_body_angle(w, k), 0.5 * n * dt, 1e-5, "kinematic angle step %d", n);
        EXPECT(rc_vec2_equal(rc_body_linear_velocity(w, k), rc_v2(2.0f, -1.0f)), "kinematic velocity changed");
        EXPECT(rc_vec2_equal(rc_body_position(w, s), rc_v2(-5.0f, -5.0f)) && rc_body_angle(w, s) == 0.25f,
               "static body moved");
    }
    /* kinematic bodies never fall asleep by themselves while moving */
    ck_assert(rc_body_is_awake(w, k));
    /* a static body takes no velocity */
    ck_assert(!rc_body_set_linear_velocity(w, s, rc_v2(1, 0)));
    ck_assert(!rc_body_set_angular_velocity(w, s, 1.0f));
    ck_assert(rc_world_step(w, dt));
    ck_assert(rc_vec2_equal(rc_body_position(w, s), rc_v2(-5.0f, -5.0f)));
    /* set_type: the static body becomes dynamic and falls; the kinematic one stops at static */
    ck_assert(rc_body_set_type(w, s, RC_DYNAMIC));
    ck_assert_int_eq(rc_body_get_type(w, s), RC_DYNAMIC);
    ck_assert(rc_body_is_awake(w, s));
    ck_assert_float_eq_tol(rc_body_mass(w, s), 4.0f, 1e-5f);
    ck_assert(rc_world_step(w, dt));
    ck_assert(rc_body_position(w, s).y < -5.0f);
    ck_assert(rc_body_set_type(w, k, RC_STATIC));
    ck_assert(rc_vec2_equal(rc_body_linear_velocity(w, k), rc_v2(0, 0)));
    rc_vec2 kp = rc_body_position(w, k);
    ck_assert(rc_world_step(w, dt));
    ck_assert(rc_vec2_equal(rc_body_position(w, k), kp));
    rc_world_destroy(w);
}
END_TEST

/* ---- sleeping ------------------------------------------------------------------------------ */

static rc_body_id resting_box(rc_world *w, rc_vec2 p) {
    rc_body_id b = make_body(w, RC_DYNAMIC, p, 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    return b;
}

static void sleep_it(rc_world *w, rc_body_id b) {
    for (int n = 0; n < 8 && rc_body_is_awake(w, b); ++n) {
        ck_assert(rc_world_step(w, 0.125f));
    }
    ck_assert_msg(!rc_body_is_awake(w, b), "the body did not fall asleep in 1 s at rest");
}

START_TEST(bodies_at_rest_fall_asleep_and_setters_wake_them) {
    rc_world *w = make_world(rc_v2(0, 0));
    rc_body_id b = resting_box(w, rc_v2(0, 0));
    ck_assert(rc_body_is_awake(w, b));
    ck_assert_int_eq(rc_world_get_counters(w).awake_bodies, 1);
    /* dt = 1/8: 3 steps are 0.375 s (awake), 5 steps 0.625 s (past sleep_time 0.5: asleep) */
    for (int n = 1; n <= 3; ++n) {
        ck_assert(rc_world_step(w, 0.125f));
    }
    ck_assert(rc_body_is_awake(w, b));
    ck_assert(rc_world_step(w, 0.125f));
    ck_assert(rc_world_step(w, 0.125f));
    ck_assert(!rc_body_is_awake(w, b));
    ck_assert_int_eq(rc_world_get_counters(w).awake_bodies, 0);

    /* each of these wakes it */
    ck_assert(rc_body_set_transform(w, b, rc_v2(1, 1), 0.5f));
    ck_assert_msg(rc_body_is_awake(w, b), "set_transform did not wake the body");
    sleep_it(w, b);
    ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(0, 1)));
    ck_assert_msg(rc_body_is_awake(w, b), "set_linear_velocity did not wake the body");
    ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(0, 0)));
    sleep_it(w, b);
    ck_assert(rc_body_set_angular_velocity(w, b, 1.0f));
    ck_assert_msg(rc_body_is_awake(w, b), "set_angular_velocity did not wake the body");
    ck_assert(rc_body_set_angular_velocity(w, b, 0.0f));
    sleep_it(w, b);
    ck_assert(rc_body_apply_linear_impulse(w, b, rc_v2(1, 0), rc_body_world_center(w, b)));
    ck_assert_msg(rc_body_is_awake(w, b), "apply_linear_impulse did not wake the body");
    ck_assert_float_eq_tol(rc_body_linear_velocity(w, b).x, 1.0f, 1e-6f); /* mass 1 */
    ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(0, 0)));
    sleep_it(w, b);
    ck_assert(rc_body_set_awake(w, b, true));
    ck_assert(rc_body_is_awake(w, b));
    sleep_it(w, b);
    ck_assert(rc_body_set_gravity_scale(w, b, 2.0f));
    ck_assert_msg(rc_body_is_awake(w, b), "set_gravity_scale did not wake the body");
    sleep_it(w, b);
    ck_assert(rc_world_set_gravity(w, rc_v2(0.0f, 0.0f)));
    ck_assert_msg(rc_body_is_awake(w, b), "rc_world_set_gravity did not wake the body");
    sleep_it(w, b);
    /* a body put to sleep by hand does not move even under gravity until woken */
    ck_assert(rc_world_set_gravity(w, rc_v2(0.0f, -10.0f)));
    ck_assert(rc_body_set_awake(w, b, false));
    ck_assert(!rc_body_is_awake(w, b));
    rc_vec2 p = rc_body_position(w, b);
    for (int n = 0; n < 4; ++n) {
        ck_assert(rc_world_step(w, 0.125f));
    }
    ck_assert(rc_vec2_equal(rc_body_position(w, b), p));
    ck_assert(!rc_body_is_awake(w, b));
    ck_assert(rc_body_set_awake(w, b, true));
    ck_assert(rc_world_step(w, 0.125f));
    ck_assert(rc_body_position(w, b).y < p.y);
    ck_assert(rc_world_set_gravity(w, rc_v2(0.0f, 0.0f)));

    /* no sleeping when the world or the body says so */
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0, 0);
    wd.enable_sleep = false;
    rc_world *w2 = rc_world_create(&wd);
    rc_body_id b2 = resting_box(w2, rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.enable_sleep = false;
    rc_body_id b3 = rc_body_create(w, &bd);
    for (int n = 0; n < 20; ++n) {
        ck_assert(rc_world_step(w2, 0.125f));
        ck_assert(rc_world_step(w, 0.125f));
    }
    ck_assert(rc_body_is_awake(w2, b2));
    ck_assert(rc_body_is_awake(w, b3));
    /* a slow body (below sleep_linear_speed) falls asleep too */
    rc_body_id slow = resting_box(w, rc_v2(50, 50));
    ck_assert(rc_body_set_linear_velocity(w, slow, rc_v2(0.01f, 0.0f)));
    sleep_it(w, slow);
    rc_vec2 sp = rc_body_position(w, slow);
    ck_assert(rc_world_step(w, 0.125f));
    ck_assert(rc_vec2_equal(rc_body_position(w, slow), sp));
    /* a custom sleep_time */
    wd.enable_sleep = true;
    wd.sleep_time = 2.0f;
    rc_world *w3 = rc_world_create(&wd);
    rc_body_id b4 = resting_box(w3, rc_v2(0, 0));
    for (int n = 0; n < 15; ++n) { /* 1.875 s */
        ck_assert(rc_world_step(w3, 0.125f));
    }
    ck_assert(rc_body_is_awake(w3, b4));
    ck_assert(rc_world_step(w3, 0.125f));
    ck_assert(rc_world_step(w3, 0.125f));
    ck_assert(!rc_body_is_awake(w3, b4));
    rc_world_destroy(w);
    rc_world_destroy(w2);
    rc_world_destroy(w3);
}
END_TEST

/* A body sleeps when no point of it moves faster than sleep_linear_speed: its centre's speed plus
 * its reach from the centre of mass times its turn (Box2D v3's test), and it turns no faster than
 * sleep_angular_speed. The turn alone let a long plank fall asleep while its ends moved at four
 * times the sleep speed. (No gravity, no damping: each body keeps its velocities exactly.) */
START_TEST(a_turning_body_sleeps_only_when_every_point_is_slow) {
    rc_world *w = make_world(rc_v2(0, 0));
    rc_shape_def sd = rc_shape_default_def();
    /* a plank of half size 5 x 0.1: reach sqrt(25.01) = 5.001, ends at 0.2 units/s */
    rc_body_id plank = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, plank, &sd, 5.0f, 0.1f)));
    ck_assert(rc_body_set_angular_velocity(w, plank, 0.04f));
    /* a stick of half size 0.5 x 0.1 (reach sqrt(0.26) = 0.5099) at the same turn: its ends at
       0.0204 units/s, under 0.05; with its centre at 0.03 units/s too, its fastest point makes
       0.0504: over */
    rc_body_id stick = make_body(w, RC_DYNAMIC, rc_v2(100, 0), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, stick, &sd, 0.5f, 0.1f)));
    ck_assert(rc_body_set_angular_velocity(w, stick, 0.04f));
    rc_body_id sliding = make_body(w, RC_DYNAMIC, rc_v2(-100, 0), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, sliding, &sd, 0.5f, 0.1f)));
    ck_assert(rc_body_set_angular_velocity(w, sliding, 0.04f));
    ck_assert(rc_body_set_linear_velocity(w, sliding, rc_v2(0.03f, 0.0f)));
    /* a turn over sleep_angular_speed sleeps neither, however small the body: a grain of reach
       0.05 turning at 0.06 rad/s (its points at 0.003 units/s) */
    rc_body_id grain = make_body(w, RC_DYNAMIC, rc_v2(0, 100), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, grain, &sd, 0.03f, 0.04f)));
    ck_assert(rc_body_set_angular_velocity(w, grain, 0.06f));
    /* the stick rests from its first step: asleep once its time at rest reaches 0.5 s */
    for (int n = 0; n < 3; ++n) {
        ck_assert(rc_world_step(w, 0.125f));
        ck_assert(rc_body_is_awake(w, stick));
    }
    ck_assert(rc_world_step(w, 0.125f));
    ck_assert(!rc_body_is_awake(w, stick));
    for (int n = 0; n < 16; ++n) { /* 2.5 s in all */
        ck_assert(rc_world_step(w, 0.125f));
    }
    ck_assert(rc_body_is_awake(w, plank));
    ck_assert(rc_body_is_awake(w, sliding));
    ck_assert(rc_body_is_awake(w, grain));
    ck_assert_float_eq(rc_body_angular_velocity(w, plank), 0.04f);
    ck_assert_float_eq_tol(rc_body_angle(w, plank), 0.1f, 1e-6f); /* 0.04 rad/s for 2.5 s */
    /* slowed to a point speed of 5.001 * 0.009 = 0.045 units/s: it sleeps */
    ck_assert(rc_body_set_angular_velocity(w, plank, 0.009f));
    sleep_it(w, plank);
    rc_world_destroy(w);
}
END_TEST

/* ---- ids ---------------------------------------------------------------------------------- */

/* Every body function refuses this id: false / zero / -1, and a message naming the function. */
static void check_body_id_refused(rc_world *w, rc_body_id id, const char *what) {
    rc_shape_id ids[4];
    ck_assert_msg(!rc_body_is_valid(w, id), "%s: is_valid", what);
#define REFUSED(call, name)                                                                                            \
    do {                                                                                                               \
        rc_world_clear_error(w);                                                                                       \
        ck_assert_msg(call, "%s: %s did not return its error value", what, name);                                      \
        ck_assert_msg(strstr(rc_world_last_error(w), name) != NULL, "%s: message \"%s\" does not name %s", what,       \
                      rc_world_last_error(w), name);                                                                   \
    } while (0)
    REFUSED(rc_body_get_type(w, id) == RC_STATIC, "rc_body_get_type");
    REFUSED(rc_vec2_equal(rc_body_position(w, id), rc_v2(0, 0)), "rc_body_position");
    REFUSED(rc_body_angle(w, id) == 0.0f, "rc_body_angle");
    REFUSED(rc_vec2_equal(rc_body_transform(w, id).p, rc_v2(0, 0)), "rc_body_transform");
    REFUSED(rc_vec2_equal(rc_body_linear_velocity(w, id), rc_v2(0, 0)), "rc_body_linear_velocity");
    REFUSED(rc_body_angular_velocity(w, id) == 0.0f, "rc_body_angular_velocity");
    REFUSED(rc_body_mass(w, id) == 0.0f, "rc_body_mass");
    REFUSED(rc_body_rotational_inertia(w, id) == 0.0f, "rc_body_rotational_inertia");
    REFUSED(rc_vec2_equal(rc_body_world_center(w, id), rc_v2(0, 0)), "rc_body_world_center");
    REFUSED(rc_body_gravity_scale(w, id) == 0.0f, "rc_body_gravity_scale");
    REFUSED(rc_body_linear_damping(w, id) == 0.0f, "rc_body_linear_damping");
    REFUSED(rc_body_angular_damping(w, id) == 0.0f, "rc_body_angular_damping");
    REFUSED(!rc_body_is_bullet(w, id), "rc_body_is_bullet");
    REFUSED(rc_body_max_bounces(w, id) == 0, "rc_body_max_bounces");
    REFUSED(!rc_body_is_awake(w, id), "rc_body_is_awake");
    REFUSED(rc_body_user_data(w, id) == NULL, "rc_body_user_data");
    REFUSED(rc_body_shapes(w, id, ids, 4) == -1, "rc_body_shapes");
    REFUSED(!rc_body_set_transform(w, id, rc_v2(1, 1), 1.0f), "rc_body_set_transform");
    REFUSED(!rc_body_set_linear_velocity(w, id, rc_v2(1, 1)), "rc_body_set_linear_velocity");
    REFUSED(!rc_body_set_angular_velocity(w, id, 1.0f), "rc_body_set_angular_velocity");
    REFUSED(!rc_body_set_type(w, id, RC_DYNAMIC), "rc_body_set_type");
    REFUSED(!rc_body_set_gravity_scale(w, id, 2.0f), "rc_body_set_gravity_scale");
    REFUSED(!rc_body_set_linear_damping(w, id, 1.0f), "rc_body_set_linear_damping");
    REFUSED(!rc_body_set_angular_damping(w, id, 1.0f), "rc_body_set_angular_damping");
    REFUSED(!rc_body_set_bullet(w, id, false), "rc_body_set_bullet");
    REFUSED(!rc_body_set_max_bounces(w, id, 2), "rc_body_set_max_bounces");
    REFUSED(!rc_body_set_awake(w, id, true), "rc_body_set_awake");
    REFUSED(!rc_body_set_user_data(w, id, NULL), "rc_body_set_user_data");
    REFUSED(!rc_body_apply_linear_impulse(w, id, rc_v2(1, 0), rc_v2(0, 0)), "rc_body_apply_linear_impulse");
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    REFUSED(rc_shape_id_is_null(rc_shape_create_circle(w, id, &sd, 1.0f)), "rc_shape_create_circle");
    REFUSED(rc_shape_id_is_null(rc_shape_create_polygon(w, id, &sd, tri, 3)), "rc_shape_create_polygon");
    REFUSED(rc_shape_id_is_null(rc_shape_create_box(w, id, &sd, 1.0f, 1.0f)), "rc_shape_create_box");
    rc_world_clear_error(w);
    rc_body_destroy(w, id);
    ck_assert_msg(strstr(rc_world_last_error(w), "rc_body_destroy") != NULL, "%s: rc_body_destroy message \"%s\"", what,
                  rc_world_last_error(w));
}

static void check_shape_id_refused(rc_world *w, rc_shape_id id, const char *what) {
    ck_assert_msg(!rc_shape_is_valid(w, id), "%s: is_valid", what);
    rc_circle c;
    rc_polygon p;
    rc_shape_id ids[4];
    rc_ray_hit h;
    REFUSED(rc_body_id_is_null(rc_shape_body(w, id)), "rc_shape_body");
    REFUSED(rc_shape_get_type(w, id) == RC_SHAPE_TYPE_CIRCLE, "rc_shape_get_type");
    rc_aabb zero = {{0, 0}, {0, 0}};
    REFUSED(memcmp(&(rc_aabb){rc_shape_aabb(w, id).lower, rc_shape_aabb(w, id).upper}, &zero, sizeof zero) == 0,
            "rc_shape_aabb");
    REFUSED(!rc_shape_world_circle(w, id, &c), "rc_shape_world_circle");
    REFUSED(!rc_shape_world_polygon(w, id, &p), "rc_shape_world_polygon");
    REFUSED(rc_shape_restitution(w, id) == 0.0f, "rc_shape_restitution");
    REFUSED(rc_shape_friction(w, id) == 0.0f, "rc_shape_friction");
    REFUSED(rc_shape_density(w, id) == 0.0f, "rc_shape_density");
    REFUSED(rc_shape_filter(w, id).category_bits == 0u && rc_shape_filter(w, id).mask_bits == 0u, "rc_shape_filter");
    REFUSED(!rc_shape_is_sensor(w, id), "rc_shape_is_sensor");
    REFUSED(rc_shape_user_data(w, id) == NULL, "rc_shape_user_data");
    REFUSED(!rc_shape_set_base_transform(w, id, rc_v2(0, 0), 0.0f, rc_v2(1, 1)), "rc_shape_set_base_transform");
    REFUSED(!rc_shape_set_restitution(w, id, 0.5f), "rc_shape_set_restitution");
    REFUSED(!rc_shape_set_friction(w, id, 0.5f), "rc_shape_set_friction");
    REFUSED(!rc_shape_set_density(w, id, 0.5f), "rc_shape_set_density");
    REFUSED(!rc_shape_set_filter(w, id, rc_default_filter()), "rc_shape_set_filter");
    REFUSED(!rc_shape_set_user_data(w, id, NULL), "rc_shape_set_user_data");
    REFUSED(!rc_shape_cast_ray(w, id, rc_v2(-10, 0), rc_v2(20, 0), &h), "rc_shape_cast_ray");
    REFUSED(rc_shape_contacts(w, id, ids, 4) == -1, "rc_shape_contacts");
    rc_world_clear_error(w);
    rc_shape_destroy(w, id);
    ck_assert_msg(strstr(rc_world_last_error(w), "rc_shape_destroy") != NULL, "%s: rc_shape_destroy message \"%s\"",
                  what, rc_world_last_error(w));
#undef REFUSED
}

START_TEST(stale_ids_are_refused_after_slot_reuse) {
    rc_world *w = make_world(rc_v2(0, -10));
    int tag_old, tag_new;
    rc_body_id keep = make_body(w, RC_STATIC, rc_v2(100, 100), 0.0f);
    rc_body_id old = make_body(w, RC_DYNAMIC, rc_v2(1, 2), 0.0f);
    ck_assert(rc_body_set_user_data(w, old, &tag_old));
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id old_a = rc_shape_create_box(w, old, &sd, 1, 1);
    rc_shape_id old_b = rc_shape_create_circle(w, old, &sd, 1);
    ck_assert(rc_shape_is_valid(w, old_a) && rc_shape_is_valid(w, old_b));
    rc_world_counters c0 = rc_world_get_counters(w);
    ck_assert_int_eq(c0.bodies, 2);
    ck_assert_int_eq(c0.shapes, 2);
    ck_assert_int_eq(c0.broadphase_proxies, 2);
    rc_body_destroy(w, old);
    ck_assert(!rc_body_is_valid(w, old));
    ck_assert_msg(!rc_shape_is_valid(w, old_a) && !rc_shape_is_valid(w, old_b),
                  "destroying a body leaves its shapes valid");
    rc_world_counters c1 = rc_world_get_counters(w);
    ck_assert_int_eq(c1.bodies, 1);
    ck_assert_int_eq(c1.shapes, 0);
    ck_assert_int_eq(c1.broadphase_proxies, 0);
    ck_assert_str_eq(rc_world_last_error(w), "");

    rc_body_id fresh = make_body(w, RC_DYNAMIC, rc_v2(7, 8), 0.0f);
    ck_assert_msg(fresh.index == old.index, "the new body did not reuse the slot (index %u, old %u)", fresh.index,
                  old.index);
    ck_assert(fresh.generation != old.generation);
    ck_assert(rc_body_set_user_data(w, fresh, &tag_new));
    rc_shape_id fresh_s = rc_shape_create_box(w, fresh, &sd, 1, 1);
    ck_assert(fresh_s.index == old_a.index || fresh_s.index == old_b.index);
    /* the old ids are refused everywhere; the new ones work */
    check_body_id_refused(w, old, "stale body");
    check_shape_id_refused(w, old_a, "stale shape a");
    check_shape_id_refused(w, old_b, "stale shape b");
    ck_assert(rc_body_is_valid(w, fresh));
    ck_assert(rc_vec2_equal(rc_body_position(w, fresh), rc_v2(7, 8)));
    ck_assert_ptr_eq(rc_body_user_data(w, fresh), &tag_new);
    ck_assert(rc_shape_is_valid(w, fresh_s));
    ck_assert(rc_body_id_equals(rc_shape_body(w, fresh_s), fresh));
    /* destroying the stale id destroyed nothing */
    ck_assert(rc_body_is_valid(w, fresh) && rc_shape_is_valid(w, fresh_s) && rc_body_is_valid(w, keep));
    ck_assert_int_eq(rc_world_get_counters(w).bodies, 2);
    ck_assert_int_eq(rc_world_get_counters(w).shapes, 1);

    /* forged ids */
    rc_body_id forged[] = {{0u, 5u},
                           {999999u, 1u},
                           {fresh.index, fresh.generation + 1u},
                           {fresh.index, 0u},
                           {UINT32_MAX, UINT32_MAX},
                           {keep.index + 7u, 1u}};
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; ++i) {
        char what[64];
        snprintf(what, sizeof what, "forged body {%u,%u}", forged[i].index, forged[i].generation);
        check_body_id_refused(w, forged[i], what);
    }
    check_body_id_refused(w, RC_NULL_BODY_ID, "null body");
    rc_shape_id sforged[] = {{0u, 5u},
                             {999999u, 1u},
                             {fresh_s.index, fresh_s.generation + 1u},
                             {fresh_s.index, 0u},
                             {UINT32_MAX, UINT32_MAX}};
    for (size_t i = 0; i < sizeof sforged / sizeof sforged[0]; ++i) {
        char what[64];
        snprintf(what, sizeof what, "forged shape {%u,%u}", sforged[i].index, sforged[i].generation);
        check_shape_id_refused(w, sforged[i], what);
    }
    check_shape_id_refused(w, RC_NULL_SHAPE_ID, "null shape");
    ck_assert(rc_body_is_valid(w, fresh) && rc_shape_is_valid(w, fresh_s) && rc_body_is_valid(w, keep));

    /* an id from another world names nothing there */
    rc_world *other = make_world(rc_v2(0, 0));
    check_body_id_refused(other, fresh, "body id of another world");
    check_shape_id_refused(other, fresh_s, "shape id of another world");
    rc_world_destroy(other);

    /* many generations of one slot: every old id stays refused */
    rc_body_id history[50];
    for (int i = 0; i < 50; ++i) {
        history[i] = make_body(w, RC_STATIC, rc_v2(0, 0), 0.0f);
        rc_body_destroy(w, history[i]);
    }
    for (int i = 0; i < 50; ++i) {
        ck_assert(!rc_body_is_valid(w, history[i]));
        for (int k = 0; k < i; ++k) {
            ck_assert(!rc_body_id_equals(history[i], history[k]));
        }
    }
    /* shape slots too */
    rc_shape_id sh_old = rc_shape_create_circle(w, keep, &sd, 1.0f);
    rc_shape_destroy(w, sh_old);
    rc_shape_id sh_new = rc_shape_create_circle(w, keep, &sd, 2.0f);
    ck_assert(sh_new.index == sh_old.index && sh_new.generation != sh_old.generation);
    check_shape_id_refused(w, sh_old, "stale shape after reuse");
    ck_assert(rc_shape_is_valid(w, sh_new));
    rc_world_destroy(w);
}
END_TEST

/* ---- the shapes of a body -------------------------------------------------------------------- */

static bool has_id(const rc_shape_id *ids, int n, rc_shape_id id) {
    for (int i = 0; i < n; ++i) {
        if (rc_shape_id_equals(ids[i], id)) {
            return true;
        }
    }
    return false;
}

START_TEST(shapes_of_a_body) {
    rc_world *w = make_world(rc_v2(0, 0));
    rc_body_id b = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_body_id other = make_body(w, RC_STATIC, rc_v2(50, 0), 0.0f);
    int tag;
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.25f;
    sd.friction = 0.125f;
    sd.density = 2.0f;
    sd.filter = (rc_filter){4u, 6u, -3};
    sd.user_data = &tag;
    sd.offset = rc_v2(3, 0);
    rc_shape_id s1 = rc_shape_create_box(w, b, &sd, 1, 1); /* mass 8 at (3, 0) */
    sd.user_data = NULL;
    sd.offset = rc_v2(-3, 0);
    rc_shape_id s2 = rc_shape_create_box(w, b, &sd, 1, 1); /* mass 8 at (-3, 0) */
    sd.offset = rc_v2(0, 6);
    sd.density = 1.0f;
    rc_shape_id s3 = rc_shape_create_circle(w, b, &sd, 1); /* mass pi at (0, 6) */
    sd.is_sensor = true;
    rc_shape_id s4 = rc_shape_create_circle(w, other, &sd, 1);
    sd.is_sensor = false;
    ck_assert(!rc_shape_id_is_null(s1) && !rc_shape_id_is_null(s2) && !rc_shape_id_is_null(s3) &&
              !rc_shape_id_is_null(s4));
    rc_shape_id ids[8];
    ck_assert_int_eq(rc_body_shapes(w, b, ids, 8), 3);
    ck_assert(has_id(ids, 3, s1) && has_id(ids, 3, s2) && has_id(ids, 3, s3));
    ck_assert_int_eq(rc_body_shapes(w, b, NULL, 0), 3);
    rc_shape_id two[2] = {RC_NULL_SHAPE_ID, RC_NULL_SHAPE_ID};
    ck_assert_int_eq(rc_body_shapes(w, b, two, 2), 3); /* how many the body has */
    ck_assert(has_id(ids, 3, two[0]) && has_id(ids, 3, two[1]) && !rc_shape_id_equals(two[0], two[1]));
    ck_assert(rc_body_id_equals(rc_shape_body(w, s1), b));
    ck_assert(rc_body_id_equals(rc_shape_body(w, s4), other));
    ck_assert_int_eq(rc_shape_get_type(w, s1), RC_SHAPE_TYPE_POLYGON);
    ck_assert_int_eq(rc_shape_get_type(w, s3), RC_SHAPE_TYPE_CIRCLE);
    ck_assert_float_eq(rc_shape_restitution(w, s1), 0.25f);
    ck_assert_float_eq(rc_shape_friction(w, s1), 0.125f);
    ck_assert_float_eq(rc_shape_density(w, s1), 2.0f);
    ck_assert(rc_shape_is_sensor(w, s4) && !rc_shape_is_sensor(w, s2) && !rc_shape_is_sensor(w, s1));
    rc_filter f = rc_shape_filter(w, s1);
    ck_assert(f.category_bits == 4u && f.mask_bits == 6u && f.group_index == -3);
    ck_assert_ptr_eq(rc_shape_user_data(w, s1), &tag);
    /* mass of the three: 8 + 8 + pi, centre (0, 6 pi / (16 + pi)) */
    double m = 16.0 + M_PI, cy = 6.0 * M_PI / m;
    NEAR(rc_body_mass(w, b), m, 1e-4, "mass %.9g", (double)rc_body_mass(w, b));
    NEAR(rc_body_world_center(w, b).y, cy, 1e-5, "centre y %.9g", (double)rc_body_world_center(w, b).y);
    /* destroy one of three */
    rc_shape_destroy(w, s3);
    ck_assert(!rc_shape_is_valid(w, s3) && rc_shape_is_valid(w, s1) && rc_shape_is_valid(w, s2));
    ck_assert_int_eq(rc_body_shapes(w, b, ids, 8), 2);
    ck_assert(has_id(ids, 2, s1) && has_id(ids, 2, s2) && !has_id(ids, 2, s3));
    NEAR(rc_body_mass(w, b), 16.0, 1e-4, "mass after destroy %.9g", (double)rc_body_mass(w, b));
    NEAR(rc_body_world_center(w, b).y, 0.0, 1e-6, "centre after destroy");
    /* inertia of two 2x2 boxes of mass 8 at +-3: 2 (8 * 8 / 12 + 8 * 9) */
    NEAR(rc_body_rotational_inertia(w, b), 2.0 * (8.0 * 8.0 / 12.0 + 72.0), 1e-3, "inertia %.9g",
         (double)rc_body_rotational_inertia(w, b));
    /* the middle of a body's list, then the rest */
    rc_shape_id s5 = rc_shape_create_circle(w, b, &sd, 0.5f);
    rc_shape_destroy(w, s1);
    ck_assert_int_eq(rc_body_shapes(w, b, ids, 8), 2);
    ck_assert(has_id(ids, 2, s2) && has_id(ids, 2, s5));
    rc_shape_destroy(w, s2);
    rc_shape_destroy(w, s5);
    ck_assert_int_eq(rc_body_shapes(w, b, ids, 8), 0);
    ck_assert(rc_body_is_valid(w, b));
    ck_assert_int_eq(rc_world_get_counters(w).shapes, 1);
    /* setters */
    ck_assert(rc_shape_set_restitution(w, s4, 0.75f));
    ck_assert(rc_shape_set_friction(w, s4, 2.0f));
    ck_assert(rc_shape_set_density(w, s4, 5.0f));
    ck_assert(rc_shape_set_filter(w, s4, (rc_filter){2u, 3u, 4}));
    ck_assert(rc_shape_set_user_data(w, s4, NULL));
    ck_assert_float_eq(rc_shape_restitution(w, s4), 0.75f);
    ck_assert_float_eq(rc_shape_friction(w, s4), 2.0f);
    ck_assert_float_eq(rc_shape_density(w, s4), 5.0f);
    f = rc_shape_filter(w, s4);
    ck_assert(f.category_bits == 2u && f.mask_bits == 3u && f.group_index == 4);
    ck_assert_ptr_null(rc_shape_user_data(w, s4));
    ck_assert_float_eq(rc_body_mass(w, other), 0.0f); /* static: no mass from density */
    /* a wrong-type request */
    rc_polygon poly;
    ck_assert(!rc_shape_world_polygon(w, s4, &poly));
    ck_assert(strstr(rc_world_last_error(w), "rc_shape_world_polygon") != NULL);
    rc_world_destroy(w);
}
END_TEST

START_TEST(body_setters_and_getters) {
    rc_world *w = make_world(rc_v2(0, -10));
    rc_body_id b = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, 1.0f, 0.5f)));
    ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(1.5f, 2.5f)));
    ck_assert(rc_vec2_equal(rc_body_linear_velocity(w, b), rc_v2(1.5f, 2.5f)));
    ck_assert(rc_body_set_angular_velocity(w, b, -0.75f));
    ck_assert_float_eq(rc_body_angular_velocity(w, b), -0.75f);
    /* a bullet is a point or one circle: not a box */
    ck_assert(!rc_body_set_bullet(w, b, true));
    ck_assert(strstr(rc_world_last_error(w), "one solid circle") != NULL);
    ck_assert(!rc_body_is_bullet(w, b));
    rc_body_id p = make_body(w, RC_DYNAMIC, rc_v2(5, 0), 0.0f);
    ck_assert_int_eq(rc_body_get_motion(w, p), RC_MOTION_FREE);
    ck_assert(rc_body_set_bullet(w, p, true));
    ck_assert(rc_body_is_bullet(w, p));
    ck_assert_int_eq(rc_body_get_motion(w, p), RC_MOTION_SWEPT_POINT);
    ck_assert(rc_shape_id_is_null(rc_shape_create_box(w, p, &sd, 1.0f, 1.0f)));
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, p, &sd, 0.5f)));
    ck_assert_int_eq(rc_body_get_motion(w, p), RC_MOTION_SWEPT_CIRCLE);
    ck_assert(rc_shape_id_is_null(rc_shape_create_circle(w, p, &sd, 0.5f)));
    rc_shape_def sensor = sd;
    sensor.is_sensor = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, p, &sensor, 2.0f, 2.0f)));
    ck_assert_int_eq(rc_body_get_motion(w, p), RC_MOTION_SWEPT_CIRCLE);
    ck_assert(rc_body_set_enable_response(w, p, false));
    ck_assert(!rc_body_response_enabled(w, p));
    ck_assert_int_eq(rc_body_get_motion(w, p), RC_MOTION_FREE);
    ck_assert(rc_body_set_enable_response(w, p, true));
    ck_assert(rc_body_set_bullet(w, p, false));
    ck_assert(!rc_body_is_bullet(w, p));
    ck_assert_int_eq(rc_body_get_motion(w, p), RC_MOTION_SWEPT_CIRCLE); /* a grenade */
    rc_world_clear_error(w);
    ck_assert(rc_body_set_max_bounces(w, b, 0));
    ck_assert_int_eq(rc_body_max_bounces(w, b), 0);
    ck_assert(rc_body_set_max_bounces(w, b, 100));
    ck_assert_int_eq(rc_body_max_bounces(w, b), 100);
    int tag;
    ck_assert(rc_body_set_user_data(w, b, &tag));
    ck_assert_ptr_eq(rc_body_user_data(w, b), &tag);
    ck_assert(rc_body_set_transform(w, b, rc_v2(-3, 4), 2.0f));
    ck_assert(rc_vec2_equal(rc_body_position(w, b), rc_v2(-3, 4)));
    ck_assert_float_eq(rc_body_angle(w, b), 2.0f);
    rc_vec2 c = rc_body_world_center(w, b);
    ck_assert_float_eq_tol(c.x, -3.0f, 1e-6f);
    ck_assert_float_eq_tol(c.y, 4.0f, 1e-6f);
    /* an impulse at the centre changes only the linear velocity: dv = J / m, m = 2 */
    ck_assert(rc_body_set_angular_velocity(w, b, 0.0f));
    ck_assert(rc_body_apply_linear_impulse(w, b, rc_v2(4, -2), c));
    rc_vec2 v = rc_body_linear_velocity(w, b);
    ck_assert_float_eq_tol(v.x, 1.5f + 2.0f, 1e-5f);
    ck_assert_float_eq_tol(v.y, 2.5f - 1.0f, 1e-5f);
    ck_assert_float_eq_tol(rc_body_angular_velocity(w, b), 0.0f, 1e-6f);
    /* off centre: dw = cross(r, J) / I, I = 2 (4 + 1) / 12 */
    ck_assert(rc_body_apply_linear_impulse(w, b, rc_v2(0, 1), rc_add(c, rc_v2(1, 0))));
    ck_assert_float_eq_tol(rc_body_angular_velocity(w, b), 1.0f / (10.0f / 12.0f), 1e-4f);
    ck_assert(rc_world_set_gravity(w, rc_v2(1, 2)));
    ck_assert(rc_vec2_equal(rc_world_gravity(w), rc_v2(1, 2)));
    ck_assert_str_eq(rc_world_last_error(w), "");
    rc_world_destroy(w);
}
END_TEST

/* ---- degenerate placements (regressions from the contracts issue) ---------------------------- */

static bool unit(rc_vec2 n) { return fabs(sqrt((double)n.x * n.x + (double)n.y * n.y) - 1.0) <= 1e-6; }

/* A 1 x 1 box placed far out: its vertices round to coarse floats (spacing 1 at 1e7, so the
 * box collapses onto a line) and two of its placed normals were (0, 0). Every placed normal is
 * the local one turned by the body; casts at the box report unit normals. Out to the edge of
 * the world, RC_WORLD_LIMIT; beyond it (FLT_MAX, the other case) the teleport is
 * refused. */
START_TEST(placed_normals_stay_unit_far_from_the_origin) {
    const float xs[] = {1.0e7f, 3.0e7f, 1.0e9f, 1.0e15f, 1.0e18f, RC_WORLD_LIMIT - 1.0e12f};
    const float angles[] = {0.0f, 0.3f, 2.0f};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
        for (size_t k = 0; k < sizeof angles / sizeof angles[0]; ++k) {
            rc_world *w = make_world(rc_v2(0, 0));
            rc_body_id b = make_body(w, RC_STATIC, rc_v2(0, 0), 0.0f);
            rc_shape_def sd = rc_shape_default_def();
            rc_shape_id box = rc_shape_create_box(w, b, &sd, 0.5f, 0.5f);
            /* made at the origin and teleported (the second case), or made far out */
            ck_assert(rc_body_set_transform(w, b, rc_v2(xs[i], 0.0f), angles[k]));
            rc_polygon poly;
            ck_assert(rc_shape_world_polygon(w, box, &poly));
            ck_assert_int_eq(poly.count, 4);
            rc_rot q = rc_rot_from_angle(angles[k]);
            const rc_vec2 local[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
            for (int j = 0; j < 4; ++j) {
                EXPECT(unit(poly.normals[j]), "x %g angle %g: normal %d = (%g, %g)", (double)xs[i], (double)angles[k], j,
                       (double)poly.normals[j].x, (double)poly.normals[j].y);
                /* the box's own normal turned, to a float rounding (the placed edges are too
                   short to say anything at this scale) */
                bool found = false;
                for (int l = 0; l < 4; ++l) {
                    rc_vec2 t = rc_rotate(q, local[l]);
                    found = found || (fabsf(t.x - poly.normals[j].x) <= 1e-6f && fabsf(t.y - poly.normals[j].y) <= 1e-6f);
                }
                EXPECT(found, "x %g angle %g: normal %d is not one of the box's", (double)xs[i], (double)angles[k], j);
            }
            /* a ray from the left at the box's height reaches it with a unit normal facing it */
            rc_vec2 from = rc_v2(xs[i] - fmaxf(1000.0f, xs[i] * 1e-3f), 0.0f);
            rc_ray_hit h;
            if (rc_shape_cast_ray(w, box, from, rc_v2(2.0f * (xs[i] - from.x), 0.0f), &h)) {
                EXPECT(unit(h.normal) && h.normal.x < 0.0f, "x %g angle %g: hit normal (%g, %g)", (double)xs[i],
                       (double)angles[k], (double)h.normal.x, (double)h.normal.y);
            }
            if (rc_world_cast_ray(w, from, rc_v2(2.0f * (xs[i] - from.x), 0.0f), &h)) {
                EXPECT(unit(h.normal), "x %g: world cast normal (%g, %g)", (double)xs[i], (double)h.normal.x,
                       (double)h.normal.y);
            }
            ck_assert(!rc_body_set_transform(w, b, rc_v2(FLT_MAX, 0.0f), angles[k]));
            ck_assert(strstr(rc_world_last_error(w), "RC_WORLD_LIMIT") != NULL);
            rc_world_destroy(w);
        }
    }
}
END_TEST

/* A point bullet of denormal point_mass struck a dynamic body and its position turned NaN (its
 * inverse mass was infinite): such a point mass is refused, by rc_body_create and by
 * rc_world_predict; the least accepted one, FLT_MIN, strikes and stays finite. */
START_TEST(a_point_mass_must_have_a_float_inverse) {
    rc_world *w = make_world(rc_v2(0, 0));
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    const float bad[] = {1.4e-45f, FLT_MIN / 2.0f, nextafterf(FLT_MIN, 0.0f), 0.0f, -1.0f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        bd.point_mass = bad[i];
        ck_assert(rc_body_id_is_null(rc_body_create(w, &bd)));
        ck_assert(strstr(rc_world_last_error(w), "point_mass") != NULL);
        rc_prediction_def pd = rc_prediction_default_def();
        pd.point_mass = bad[i];
        rc_vec2 path[60];
        ck_assert_int_eq(rc_world_predict(w, &pd, path, NULL, 0), -1);
    }
    /* a crate to strike, and the lightest bullet the world takes */
    rc_body_id crate = make_body(w, RC_DYNAMIC, rc_v2(5, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f);
    bd.point_mass = FLT_MIN;
    bd.linear_velocity = rc_v2(600, 0);
    rc_body_id bullet = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(bullet));
    for (int k = 0; k < 10; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        ck_assert(rc_vec2_is_finite(rc_body_position(w, bullet)) && rc_vec2_is_finite(rc_body_linear_velocity(w, bullet)));
        ck_assert(rc_vec2_is_finite(rc_body_position(w, crate)) && rc_vec2_is_finite(rc_body_linear_velocity(w, crate)));
    }
    rc_world_destroy(w);
}
END_TEST

/* A circle of scale 1e30 on a dynamic body gave it an infinite mass. A dynamic body's mass may be
 * at most RC_MAX_MASS and its rotational inertia at most RC_MAX_ROTATIONAL_INERTIA (beyond them
 * its contact impulses leave float range): every way of getting past them is refused. */
START_TEST(masses_beyond_the_limits_are_refused) {
    rc_world *w = make_world(rc_v2(0, -10));
    rc_body_id dyn = make_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_body_id stat = make_body(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    /* scale 1e30, the case: beyond the world's reach, refused for that */
    rc_shape_def huge = sd;
    huge.scale = rc_v2(1e30f, 1e30f);
    ck_assert(rc_shape_id_is_null(rc_shape_create_circle(w, dyn, &huge, 1.0f)));
    /* scale 1e10: within the world, a mass of 3.1e20 (> RC_MAX_MASS) */
    huge.scale = rc_v2(1e10f, 1e10f);
    ck_assert(rc_shape_id_is_null(rc_shape_create_circle(w, dyn, &huge, 1.0f)));
    ck_assert(strstr(rc_world_last_error(w), "RC_MAX_MASS") != NULL);
    ck_assert(rc_shape_id_is_null(rc_shape_create_box(w, dyn, &huge, 1.0f, 1.0f)));
    /* a light but wide body: radius 1e6 at density 1e-7 weighs 3.1e5, its inertia m r^2 / 2 is
       1.6e17; at density 1e6 (mass 3.1e18) it is 1.6e30 > RC_MAX_ROTATIONAL_INERTIA */
    sd.density = 1.0e-7f;
    rc_shape_id wide = rc_shape_create_circle(w, dyn, &sd, 1.0e6f);
    ck_assert(!rc_shape_id_is_null(wide));
    ck_assert(!rc_shape_set_density(w, wide, 1.0e6f));
    ck_assert(rc_shape_set_density(w, wide, 1.0e5f)); /* 1.6e29 */
    /* each shape within the limit, the sum not: 3.1e19 three times, then a fourth */
    rc_shape_destroy(w, wide);
    sd.density = 4.0e19f;
    for (int k = 0; k < 3; ++k) {
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, dyn, &sd, 0.5f)));
    }
    ck_assert(rc_shape_id_is_null(rc_shape_create_circle(w, dyn, &sd, 0.5f)));
    ck_assert(rc_body_mass(w, dyn) <= RC_MAX_MASS);
    sd.density = 1.0f;
    rc_shape_id small = rc_shape_create_circle(w, dyn, &sd, 0.5f);
    ck_assert(!rc_shape_id_is_null(small));
    ck_assert(!rc_shape_set_density(w, small, 1.0e20f));
    ck_assert(!rc_shape_set_base_transform(w, small, rc_v2(0, 0), 0.0f, rc_v2(1e8f, 1e8f))); /* inertia 9.8e30 */
    /* a point mass above the limit */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.point_mass = 2.0f * RC_MAX_MASS;
    ck_assert(rc_body_id_is_null(rc_body_create(w, &bd)));
    /* on a static body: fine (it has no mass), until it would become dynamic */
    huge.scale = rc_v2(1e10f, 1e10f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, stat, &huge, 1.0f)));
    ck_assert(!rc_body_set_type(w, stat, RC_DYNAMIC));
    ck_assert_int_eq(rc_body_get_type(w, stat), RC_STATIC);
    for (int k = 0; k < 30; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    ck_assert(rc_is_finite(rc_body_mass(w, dyn)) && rc_is_finite(rc_body_rotational_inertia(w, dyn)));
    ck_assert(rc_vec2_is_finite(rc_body_position(w, dyn)));
    rc_world_destroy(w);
}
END_TEST

/* Speeds: a velocity above the world's limits is refused where the game sets it, an impulse is
 * held to them, and whatever the step does (restitution 2 ran a velocity to 3.8e31) no body
 * ends a step faster than max_linear_speed or turning faster than max_angular_speed. */
START_TEST(speeds_are_held_to_the_world_limits) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0, 0);
    wd.max_linear_speed = 500.0f;
    wd.max_angular_speed = 50.0f;
    rc_world *w = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.linear_velocity = rc_v2(400, 301); /* 500.6 */
    ck_assert(rc_body_id_is_null(rc_body_create(w, &bd)));
    bd.linear_velocity = rc_v2(0, 0);
    bd.angular_velocity = 51.0f;
    ck_assert(rc_body_id_is_null(rc_body_create(w, &bd)));
    bd.angular_velocity = 0.0f;
    /* a ball bouncing between two walls with restitution 2 */
    rc_body_id walls = make_body(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 2.0f;
    sd.offset = rc_v2(-10.0f, 0.0f);
    rc_shape_create_box(w, walls, &sd, 0.5f, 20.0f);
    sd.offset = rc_v2(10.0f, 0.0f);
    rc_shape_create_box(w, walls, &sd, 0.5f, 20.0f);
    bd.linear_velocity = rc_v2(30.0f, 1.0f);
    rc_body_id ball = rc_body_create(w, &bd);
    sd = rc_shape_default_def();
    sd.restitution = 2.0f;
    rc_shape_create_circle(w, ball, &sd, 0.5f);
    ck_assert(!rc_body_set_linear_velocity(w, ball, rc_v2(0.0f, 501.0f)));
    ck_assert(!rc_body_set_angular_velocity(w, ball, -50.5f));
    float fastest = 0.0f;
    for (int k = 0; k < 600; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        rc_vec2 v = rc_body_linear_velocity(w, ball);
        fastest = fmaxf(fastest, rc_length(v));
        EXPECT(rc_length(v) <= 500.0f * (1.0f + 4.0f * FLT_EPSILON), "step %d: speed %g", k, (double)rc_length(v));
        EXPECT(fabsf(rc_body_angular_velocity(w, ball)) <= 50.0f, "step %d: spin %g", k,
               (double)rc_body_angular_velocity(w, ball));
        rc_vec2 p = rc_body_position(w, ball);
        EXPECT(fabsf(p.x) < 10.0f, "step %d: the ball left the walls at x %g", k, (double)p.x);
    }
    ck_assert(fastest >= 499.0f); /* restitution 2 does run it up to the limit */
    /* an impulse that would give a light body more: held to the limit, in its direction */
    ck_assert(rc_body_apply_linear_impulse(w, ball, rc_v2(2e38f, 3e38f), rc_body_world_center(w, ball)));
    rc_vec2 v = rc_body_linear_velocity(w, ball);
    ck_assert(rc_vec2_is_finite(v) && rc_length(v) <= 500.0f * (1.0f + 4.0f * FLT_EPSILON));
    rc_world_destroy(w);
}
END_TEST

/* A body that something moves past the world's edge, RC_WORLD_LIMIT, stops there with every
 * number finite (the step's limits make this rare: at 1e18 units a float's spacing is 1.3e11,
 * more than the fastest body moves in a step): here a grenade pushed out of a huge static disk
 * that touches the edge, and its preview with it. Its circle stays within the edge too: r = 1e14
 * is 727.6 float spacings (2^37) there, so with the centre at the edge the circle's box reached
 * fl(L + r) = L + 728 * 2^37, and the centre goes back by that (its box then reaches L - 2^36,
 * rounded). The centre used to stay at the edge, the circle 1e14 beyond it. */
START_TEST(a_body_stops_at_the_edge_of_the_world) {
    rc_world *w = make_world(rc_v2(0, 0));
    const float R = 1.0e15f, r = 1.0e14f;
    rc_body_id disk = make_body(w, RC_STATIC, rc_v2(RC_WORLD_LIMIT - R, 0.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, disk, &sd, R)));
    /* the grenade overlaps the disk near its outer side: pushed out to R + r from its centre */
    rc_body_id grenade = make_body(w, RC_DYNAMIC, rc_v2(RC_WORLD_LIMIT - 0.5f * R, 0.0f), 0.0f);
    sd.density = 1.0e-27f; /* so light that its inertia, m r^2 / 2, is 1.6e29 */
    rc_shape_id shape = rc_shape_create_circle(w, grenade, &sd, r);
    ck_assert(!rc_shape_id_is_null(shape));
    for (int k = 0; k < 10; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        rc_vec2 p = rc_body_position(w, grenade), v = rc_body_linear_velocity(w, grenade);
        ck_assert_msg(p.x <= RC_WORLD_LIMIT && rc_vec2_is_finite(v) && rc_is_finite(rc_body_angle(w, grenade)),
                      "step %d: (%g, %g)", k, (double)p.x, (double)p.y);
    }
    const float held = RC_WORLD_LIMIT - 728.0f * 0x1p37f;
    ck_assert(rc_body_position(w, grenade).x == held);
    ck_assert(rc_shape_aabb(w, shape).upper.x == RC_WORLD_LIMIT - 0x1p36f);
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(RC_WORLD_LIMIT - 0.5f * R, 0.0f);
    pd.radius = r;
    pd.density = 1.0e-27f;
    pd.steps = 10;
    pd.ignore_body = grenade; /* where the grenade is: the preview strikes dynamic bodies but this one */
    rc_vec2 path[10];
    ck_assert_int_ge(rc_world_predict(w, &pd, path, NULL, 0), 0);
    ck_assert(path[9].x == held && rc_vec2_is_finite(path[9]));
    rc_world_destroy(w);
}
END_TEST

static Suite *bodies_suite(void) {
    Suite *s = suite_create("world_bodies");
    TCase *t = tcase_create("bodies");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, default_defs_are_as_documented);
    tcase_add_test(t, created_body_reports_its_def);
    tcase_add_test(t, set_transform_moves_shapes_by_the_api_formula);
    tcase_add_test(t, mass_and_inertia_from_density);
    tcase_add_test(t, denormal_mass_counts_as_none);
    tcase_add_test(t, free_fall_is_semi_implicit_euler);
    tcase_add_test(t, swept_free_fall_is_exact);
    tcase_add_test(t, damping_and_gravity_scale);
    tcase_add_test(t, rotation_turns_about_the_centre_of_mass);
    tcase_add_test(t, kinematic_and_static_bodies);
    tcase_add_test(t, bodies_at_rest_fall_asleep_and_setters_wake_them);
    tcase_add_test(t, a_turning_body_sleeps_only_when_every_point_is_slow);
    tcase_add_test(t, stale_ids_are_refused_after_slot_reuse);
    tcase_add_test(t, shapes_of_a_body);
    tcase_add_test(t, body_setters_and_getters);
    tcase_add_test(t, placed_normals_stay_unit_far_from_the_origin);
    tcase_add_test(t, a_point_mass_must_have_a_float_inverse);
    tcase_add_test(t, masses_beyond_the_limits_are_refused);
    tcase_add_test(t, speeds_are_held_to_the_world_limits);
    tcase_add_test(t, a_body_stops_at_the_edge_of_the_world);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(bodies_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
