/* Contact data (rc_shape_contact_data, rc_body_contact_data) and the manifolds the world keeps
 * between steps: a contact whose two bodies hardly move relative to each other keeps its
 * features and measures their separations again instead of running the narrow phase in full
 * (a settled pile). Its depths must still be the shapes' true overlap, checked against a
 * double-precision separating-axis reference at every step of randomized slow motions. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/reference.h"
#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

/* A crate of half size 0.5 dropped on a ground box: once it rests, one contact with two
 * points on the ground's top face (y = 0), normal straight up from the ground (the lower
 * shape id) to the crate, the points at the crate's bottom corners (x = +-0.5), depths within
 * a linear slop. The body's list and the shape's list agree; a capacity of 0 sizes. */
START_TEST(a_resting_crate_reports_its_two_points) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0, -1), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id floor = rc_shape_create_box(w, ground, &sd, 10.0f, 1.0f);
    rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0, 0.6f), 0.0f);
    rc_shape_id box = rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f);
    for (int i = 0; i < 60; ++i) {
        ck_assert(rc_world_step(w, DT));
    }
    ck_assert_int_eq(rc_shape_contact_data(w, box, NULL, 0), 1);
    rc_contact_data d[2];
    memset(d, 0, sizeof d);
    ck_assert_int_eq(rc_body_contact_data(w, crate, d, 2), 1);
    ck_assert(rc_shape_id_equals(d[0].shape_a, floor) && rc_shape_id_equals(d[0].shape_b, box));
    ck_assert_float_eq_tol(d[0].manifold.normal.x, 0.0f, 1e-6f);
    ck_assert_float_eq_tol(d[0].manifold.normal.y, 1.0f, 1e-6f);
    ck_assert_int_eq(d[0].manifold.point_count, 2);
    float slop = rc_world_default_def().linear_slop;
    float xs[2] = {d[0].manifold.points[0].x, d[0].manifold.points[1].x};
    ck_assert_float_eq_tol(fminf(xs[0], xs[1]), -0.5f, 1e-3f);
    ck_assert_float_eq_tol(fmaxf(xs[0], xs[1]), 0.5f, 1e-3f);
    for (int k = 0; k < 2; ++k) {
        ck_assert_float_eq_tol(d[0].manifold.points[k].y, 0.0f, slop);
        ck_assert(d[0].manifold.depths[k] >= 0.0f && d[0].manifold.depths[k] <= slop);
    }
    rc_contact_data from_floor;
    ck_assert_int_eq(rc_shape_contact_data(w, floor, &from_floor, 1), 1);
    ck_assert(memcmp(&from_floor, &d[0], sizeof from_floor) == 0);
    rc_world_destroy(w);
}
END_TEST

/* Bad input: a stale id, NULL data with room, a negative capacity: -1 with a message. */
START_TEST(contact_data_refuses_bad_input) {
    rc_world *w = ws_make_world(rc_v2(0, -10));
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(0, 0), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id s = rc_shape_create_box(w, b, &sd, 0.5f, 0.5f);
    rc_contact_data d;
    ck_assert_int_eq(rc_shape_contact_data(w, s, NULL, 1), -1);
    ck_assert(strstr(rc_world_last_error(w), "NULL") != NULL);
    rc_world_clear_error(w);
    ck_assert_int_eq(rc_body_contact_data(w, b, &d, -1), -1);
    ck_assert(strstr(rc_world_last_error(w), "negative") != NULL);
    ck_assert_int_eq(rc_shape_contact_data(w, s, &d, 1), 0);
    rc_body_destroy(w, b);
    rc_world_clear_error(w);
    ck_assert_int_eq(rc_shape_contact_data(w, s, &d, 1), -1);
    ck_assert(rc_world_last_error(w)[0] != '\0');
    ck_assert_int_eq(rc_body_contact_data(w, b, &d, 1), -1);
    ck_assert_int_eq(rc_body_contact_data(NULL, b, &d, 1), -1);
    rc_world_destroy(w);
}
END_TEST

typedef struct slow_case {
    rc_vec2 a[8], b[8]; /* local vertices (a's body frame is the world's but for its angle) */
    int na, nb;
    rc_transform xa;
} slow_case;

static void world_vertices(const rc_vec2 *local, int n, rc_transform xf, rc_vec2 *out) {
    for (int i = 0; i < n; ++i) {
        out[i] = rc_transform_point(xf, local[i]);
    }
}

/* The separation of b (placed at xb) from the case's a, in double. */
static double separation_at(const slow_case *k, rc_transform xb) {
    rc_vec2 va[8], vb[8];
    world_vertices(k->a, k->na, k->xa, va);
    world_vertices(k->b, k->nb, xb, vb);
    return ref_sat_separation(va, k->na, vb, k->nb, NULL);
}

/* Where b, at angle, along the ray from the origin in direction u, is separated from a by
 * target (bisection in double on the distance along u). */
static rc_transform place_at(const slow_case *k, float angle, ref_v2 u, double target) {
    double lo = 0.0, hi = 20.0;
    rc_transform xb = {{0, 0}, rc_rot_from_angle(angle)};
    for (int it = 0; it < 80; ++it) {
        double mid = 0.5 * (lo + hi);
        xb.p = ref_to_float(ref_scale(mid, u));
        if (separation_at(k, xb) < target) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    xb.p = ref_to_float(ref_scale(hi, u));
    return xb;
}

/* A random convex polygon (counter-clockwise) about the origin, 3 to 8 vertices. */
static int random_polygon(ref_rng *rng, rc_vec2 *out) {
    int n = ref_rng_int(rng, 3, 8);
    ref_random_convex(rng, ref_v(0, 0), ref_rng_uniform(rng, 0.4, 1.5), n, true, out);
    return n;
}

/* 400 pairs of random convex polygons, a static one and a detection-only dynamic one set
 * slightly overlapping it (0 to 4 linear slops deep) and drifting slowly (up to 0.02 units/s
 * and 0.02 rad/s: most steps within the distance a manifold is kept over) for 90 steps. At
 * every step the world's contact must agree with the double-precision separation s of the two
 * polygons where they are: touching when s < -slop / 10, not touching when s > 1.2 slops; and
 * when they overlap, each overlapping point's two surface points (half its depth either way
 * along the normal) must lie on the two polygons' boundaries, and the depth must be no less
 * than the least overlap -s, both within a tenth of a slop (the drift kept features are
 * allowed; the full narrow phase at every step is within 4e-7 here, and features kept over a
 * whole slop miss by 5e-4). Before: corners overlapping past the end of the reference face
 * that the tolerance preferred gave no contact at all (trial 307, 5.6e-4 deep). */
START_TEST(kept_manifolds_measure_true_depths_in_slow_motion) {
    ref_rng rng = ref_rng_seed(0x6b657074u);
    float slop = rc_world_default_def().linear_slop;
    double worst = 0.0;
    int compared = 0, touching_steps = 0;
    int trials = rc_test_random_cases(400);
    for (int trial = 0; trial < trials; ++trial) {
        slow_case k;
        k.na = random_polygon(&rng, k.a);
        k.nb = random_polygon(&rng, k.b);
        k.xa.p = rc_v2(0, 0);
        float angle_a = (float)ref_rng_uniform(&rng, -3.1, 3.1);
        k.xa.q = rc_rot_from_angle(angle_a);
        double dir = ref_rng_uniform(&rng, 0.0, 6.283185307179586);
        ref_v2 u = ref_v(cos(dir), sin(dir));
        float angle_b = (float)ref_rng_uniform(&rng, -3.1, 3.1);
        rc_transform xb = place_at(&k, angle_b, u, -ref_rng_uniform(&rng, 0.0, 4.0 * slop));
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_id a = ws_body(w, RC_STATIC, k.xa.p, angle_a);
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = xb.p;
        bd.angle = angle_b;
        bd.enable_response = false;
        bd.enable_sleep = false;
        bd.linear_velocity = rc_v2((float)ref_rng_uniform(&rng, -0.02, 0.02), (float)ref_rng_uniform(&rng, -0.02, 0.02));
        bd.angular_velocity = (float)ref_rng_uniform(&rng, -0.02, 0.02);
        rc_body_id b = rc_body_create(w, &bd);
        rc_shape_def sd = rc_shape_default_def();
        rc_polygon pa, pb;
        ck_assert_int_eq(rc_make_polygon(k.a, k.na, &pa), RC_POLYGON_OK);
        ck_assert_int_eq(rc_make_polygon(k.b, k.nb, &pb), RC_POLYGON_OK);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, a, &sd, pa.vertices, pa.count)));
        ck_assert(!rc_shape_id_is_null(rc_shape_create_polygon(w, b, &sd, pb.vertices, pb.count)));
        for (int step = 0; step < 90; ++step) {
            ck_assert(rc_world_step(w, DT));
            double s = separation_at(&k, rc_body_transform(w, b));
            rc_contact_data d;
            int32_t n = rc_body_contact_data(w, b, &d, 1);
            ck_assert(n == 0 || n == 1);
            WS_EXPECT(!(s < -0.1 * slop) || n == 1, "trial %d step %d: separation %g but no contact", trial, step, s);
            WS_EXPECT(!(s > 1.2 * slop) || n == 0, "trial %d step %d: separation %g but a contact", trial, step, s);
            if (n == 1 && s < 0.0) {
                /* every overlapping point's two surface points (depth / 2 either way along the
                   normal) on the two boundaries, and no less depth than the least overlap */
                rc_vec2 va[8], vb[8];
                world_vertices(k.a, k.na, k.xa, va);
                world_vertices(k.b, k.nb, rc_body_transform(w, b), vb);
                ref_v2 normal = ref_from(d.manifold.normal);
                double err = fmax(0.0, -s - (double)d.manifold.depth);
                for (int q = 0; q < d.manifold.point_count; ++q) {
                    double half = 0.5 * (double)d.manifold.depths[q];
                    if (half > 0.0) {
                        ref_v2 p = ref_from(d.manifold.points[q]);
                        err = fmax(err, ref_boundary_distance(ref_mad(p, half, normal), va, k.na));
                        err = fmax(err, ref_boundary_distance(ref_mad(p, -half, normal), vb, k.nb));
                    }
                }
                worst = fmax(worst, err);
                ++compared;
                WS_EXPECT(err <= 0.1 * slop, "trial %d step %d: a point %g off its surface (depth %g, least overlap %g)",
                          trial, step, err, (double)d.manifold.depth, -s);
            }
            touching_steps += n;
        }
        rc_world_destroy(w);
    }
    printf("kept manifolds: %d depths compared over %d touching steps, worst error %.3g (slop %g)\n", compared,
           touching_steps, worst, (double)slop);
    ck_assert_int_gt(compared, 25 * trials);
}
END_TEST

/* A sleeping pile in a world of few awake bodies: the step walks only the awake bodies'
 * contacts (a bitset over contact indices), and where many are awake all contacts. Both must
 * give the same bits. World A is a sleeping pyramid of 10 rows, a crate dropped on its top
 * and one thrown at its side (both wake it, the pile then wakes as one), and once it sleeps
 * again a static wall made against its base (a new contact that no awake body reaches); world
 * B is the same plus 300 awake bodies without shapes, created after the rest so that every
 * shape index is the same, which makes B walk every contact. Every body of the scene, every
 * contact event and every sleep must agree bit for bit over 240 steps. */
static void pile_scene(rc_world *w, rc_body_id *bodies, int *count) {
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0, -1), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 40.0f, 1.0f)));
    int n = 0;
    for (int row = 0; row < 10; ++row) {
        for (int i = 0; i < 10 - row; ++i) {
            rc_body_def bd = rc_body_default_def();
            bd.type = RC_DYNAMIC;
            bd.position = rc_v2(-4.5f + (float)i + 0.5f * (float)row, 0.5f + (float)row);
            bd.awake = false;
            bodies[n] = rc_body_create(w, &bd);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, bodies[n++], &sd, 0.5f, 0.5f)));
        }
    }
    rc_body_def drop = rc_body_default_def();
    drop.type = RC_DYNAMIC;
    drop.position = rc_v2(0.2f, 14.0f);
    bodies[n] = rc_body_create(w, &drop);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, bodies[n++], &sd, 0.4f, 0.4f)));
    drop.position = rc_v2(-15.0f, 1.5f);
    drop.linear_velocity = rc_v2(12.0f, 0.0f);
    bodies[n] = rc_body_create(w, &drop);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, bodies[n++], &sd, 0.3f, 0.3f)));
    *count = n;
}

static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

/* Events (each starting with its two shape ids) sorted by their shape indices. */
static int by_shapes(const void *x, const void *y) {
    const rc_shape_id *a = x, *b = y;
    uint64_t ka = (uint64_t)a[0].index << 32 | a[1].index, kb = (uint64_t)b[0].index << 32 | b[1].index;
    return ka < kb ? -1 : ka > kb;
}

static bool same_events(const void *a, const void *b, int count, size_t size) {
    if (count == 0) {
        return true;
    }
    char *x = malloc(size * (size_t)count), *y = malloc(size * (size_t)count);
    ck_assert(x != NULL && y != NULL);
    memcpy(x, a, size * (size_t)count);
    memcpy(y, b, size * (size_t)count);
    qsort(x, (size_t)count, size, by_shapes);
    qsort(y, (size_t)count, size, by_shapes);
    bool same = memcmp(x, y, size * (size_t)count) == 0;
    free(x);
    free(y);
    return same;
}

START_TEST(walking_awake_contacts_gives_the_same_bits_as_walking_all) {
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0, -10);
    def.id_salt = 0x5eed; /* the same ids in both */
    rc_world *a = rc_world_create(&def), *b = rc_world_create(&def);
    rc_body_id in_a[64], in_b[64];
    int na, nb;
    pile_scene(a, in_a, &na);
    pile_scene(b, in_b, &nb);
    rc_body_id wall_a = ws_body(a, RC_STATIC, rc_v2(-20.0f, 0.0f), 0.0f);
    rc_body_id wall_b = ws_body(b, RC_STATIC, rc_v2(-20.0f, 0.0f), 0.0f);
    for (int i = 0; i < 300; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(1000.0f, 3.0f * (float)i);
        bd.gravity_scale = 0.0f;
        bd.enable_sleep = false;
        bd.angular_velocity = 0.1f;
        ck_assert(!rc_body_id_is_null(rc_body_create(b, &bd)));
    }
    int woke = 0, begins = 0;
    for (int step = 0; step < 240; ++step) {
        if (step == 200) {
            /* the pile asleep again, a wall set against its base: a new contact between a
               static shape and a sleeping body, which no awake body reaches */
            ck_assert(!rc_body_is_awake(a, in_a[0]));
            for (int k = 0; k < 2; ++k) {
                rc_world *w = k == 0 ? a : b;
                rc_shape_def sd = rc_shape_default_def();
                rc_body_id wall = k == 0 ? wall_a : wall_b;
                rc_vec2 p = rc_sub(rc_body_position(w, k == 0 ? in_a[0] : in_b[0]), rc_v2(-20.0f + 1.0f, 0.0f));
                sd.offset = p;
                ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, wall, &sd, 0.5f, 0.5f)));
            }
        }
        ck_assert(rc_world_step(a, DT) && rc_world_step(b, DT));
        for (int i = 0; i < na; ++i) {
            rc_transform xa = rc_body_transform(a, in_a[i]), xb = rc_body_transform(b, in_b[i]);
            rc_vec2 va = rc_body_linear_velocity(a, in_a[i]), vb = rc_body_linear_velocity(b, in_b[i]);
            float wa = rc_body_angular_velocity(a, in_a[i]), wb = rc_body_angular_velocity(b, in_b[i]);
            WS_EXPECT(same_bits(&xa, &xb, sizeof xa) && same_bits(&va, &vb, sizeof va) && same_bits(&wa, &wb, sizeof wa) &&
                          rc_body_is_awake(a, in_a[i]) == rc_body_is_awake(b, in_b[i]),
                      "step %d: body %d differs", step, i);
            woke += i < 55 && rc_body_is_awake(a, in_a[i]);
        }
        rc_contact_events ea = rc_world_contact_events(a), eb = rc_world_contact_events(b);
        ck_assert_int_eq(ea.begin_count, eb.begin_count);
        ck_assert_int_eq(ea.end_count, eb.end_count);
        /* (in contact order, which is the order the pairs were found in: compared as sets) */
        ck_assert(same_events(ea.begin, eb.begin, ea.begin_count, sizeof *ea.begin));
        ck_assert(same_events(ea.end, eb.end, ea.end_count, sizeof *ea.end));
        begins += ea.begin_count;
    }
    /* the scene did what it says: the pile woke, contacts began */
    ck_assert_int_gt(woke, 55);
    ck_assert_int_gt(begins, 2);
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

/* A kept manifold is not kept across a change of shape: a crate resting on a floor box whose
 * base transform then lowers its top by 0.3 (scale 0.7 in y about the box's centre, the body
 * not moving) must fall and land on the new top (its centre at 0.5 above it, within a slop),
 * not hover where the old top was, which its kept points would say if the change did not send
 * the contact through a full narrow phase. The same for a floor raised by 0.2 under it: pushed
 * up, not left sunk in. */
START_TEST(a_kept_manifold_follows_a_shape_that_changes) {
    for (int k = 0; k < 2; ++k) {
        rc_world_def def = rc_world_default_def();
        def.gravity = rc_v2(0, -10);
        def.enable_sleep = false;
        rc_world *w = rc_world_create(&def);
        rc_body_id ground = ws_body(w, RC_STATIC, rc_v2(0, -1), 0.0f);
        rc_shape_def sd = rc_shape_default_def();
        rc_shape_id floor = rc_shape_create_box(w, ground, &sd, 10.0f, 1.0f); /* top at y = 0 */
        rc_body_id crate = ws_body(w, RC_DYNAMIC, rc_v2(0, 0.5f), 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.5f, 0.5f)));
        for (int i = 0; i < 60; ++i) {
            ck_assert(rc_world_step(w, 1.0f / 60.0f));
        }
        float slop = def.linear_slop;
        ck_assert_float_eq_tol(rc_body_position(w, crate).y, 0.5f, slop);
        /* the floor's top to y = -0.3 (k = 0) or 0.2 (k = 1), its bottom staying at y = -2 */
        float top = k == 0 ? -0.3f : 0.2f, sy = (top + 2.0f) / 2.0f;
        ck_assert(rc_shape_set_base_transform(w, floor, rc_v2(0, top - (top + 2.0f) / 2.0f + 1.0f), 0.0f,
                                              rc_v2(1.0f, sy)));
        for (int i = 0; i < 120; ++i) {
            ck_assert(rc_world_step(w, 1.0f / 60.0f));
        }
        ck_assert_float_eq_tol(rc_body_position(w, crate).y, top + 0.5f, 2.0f * slop);
        rc_world_destroy(w);
    }
}
END_TEST

/* A throw of two solid shapes at each other with no gravity (restitution 0.9): a crate at a
 * static wall, a crate at a crate coming the other way, a grenade at a crate. */
typedef struct throw_result {
    int begins, ends, brief; /* brief: steps with both a begin and an end event */
    rc_contact_begin_event first_brief;
    rc_vec2 a_at, b_at; /* the bodies' centres at the end of the brief step */
} throw_result;

static throw_result throw_at(int kind, float speed, float offset) {
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.9f;
    sd.friction = 0.3f;
    rc_body_id a = ws_body(w, kind == 0 ? RC_STATIC : RC_DYNAMIC, rc_v2(5.0f, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, a, &sd, 0.5f, kind == 0 ? 5.0f : 0.5f)));
    if (kind != 0) {
        ck_assert(rc_body_set_linear_velocity(w, a, rc_v2(-speed, 0.0f)));
    }
    rc_body_id b = ws_body(w, RC_DYNAMIC, rc_v2(offset, 0.0f), 0.0f);
    ck_assert(!rc_shape_id_is_null(kind == 2 ? rc_shape_create_circle(w, b, &sd, 0.5f)
                                             : rc_shape_create_box(w, b, &sd, 0.5f, 0.5f)));
    ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(speed, 0.0f)));
    throw_result r;
    memset(&r, 0, sizeof r);
    for (int step = 0; step < 150; ++step) {
        ck_assert(rc_world_step(w, DT));
        rc_contact_events ev = rc_world_contact_events(w);
        r.begins += ev.begin_count;
        r.ends += ev.end_count;
        if (ev.begin_count == 1 && ev.end_count == 1 && r.brief++ == 0) {
            r.first_brief = ev.begin[0];
            ck_assert(memcmp(&ev.begin[0].manifold, &ev.end[0].manifold, sizeof(rc_manifold)) == 0);
            ck_assert(rc_shape_id_equals(ev.begin[0].shape_a, ev.end[0].shape_a) &&
                      rc_shape_id_equals(ev.begin[0].shape_b, ev.end[0].shape_b));
            r.a_at = rc_body_position(w, a);
            r.b_at = rc_body_position(w, b);
        }
    }
    rc_world_destroy(w);
    return r;
}

/* Every throw, 300 of each kind at 2 to 14.5 units/s (slow enough for no continuous collision:
 * the speculative contact bounces them), gives one begin and one end event. In up to three
 * throws in a hundred the solver bounces the two while they are still more than a linear slop
 * apart, and they part within that step: those gave no event at all (2, 7 and 8 of the
 * throws here, each kind in turn) and give a begin and an end in that step. Their manifold is
 * the solve's: the normal from the first shape made towards the thrown one, its point between
 * the two bodies on the line they fly along, no depth, and the speed they closed at, exactly
 * as thrown. */
START_TEST(a_touch_made_and_ended_within_a_step_begins_and_ends_there) {
    float slop = rc_world_default_def().linear_slop;
    for (int kind = 0; kind < 3; ++kind) {
        int brief = 0;
        for (int i = 0; i < 300; ++i) {
            float speed = 2.0f + 0.0417f * (float)i, offset = 0.0031f * (float)(i % 13);
            throw_result r = throw_at(kind, speed, offset);
            ck_assert_msg(r.begins == 1 && r.ends == 1, "kind %d, %g units/s: %d begin and %d end events", kind,
                          (double)speed, r.begins, r.ends);
            if (r.brief == 0) {
                continue;
            }
            ++brief;
            const rc_contact_begin_event *e = &r.first_brief;
            const rc_manifold *m = &e->manifold;
            ck_assert_msg(fabsf(m->normal.x + 1.0f) < 1e-6f && fabsf(m->normal.y) < 1e-6f, "normal (%g, %g)",
                          (double)m->normal.x, (double)m->normal.y);
            float closing = kind == 0 ? speed : 2.0f * speed;
            ck_assert_msg(fabsf(e->approach_speed - closing) <= 1e-5f * closing, "approach %.9g, thrown %.9g",
                          (double)e->approach_speed, (double)closing);
            ck_assert_int_ge(m->point_count, 1);
            for (int k = 0; k < m->point_count; ++k) {
                /* (midway between the two surfaces at the step's start, which the contact's
                   speculative reach held: at most the step's closing and four slops apart) */
                rc_vec2 p = m->points[k];
                float face = kind == 0 ? 4.5f : 0.5f * (r.a_at.x + r.b_at.x);
                ck_assert_msg(fabsf(p.x - face) <= 0.5f * (closing * DT + 4.0f * slop) + slop && fabsf(p.y) <= 0.5f + slop,
                              "kind %d, %g units/s: point (%g, %g), face at %g", kind, (double)speed, (double)p.x, (double)p.y, (double)face);
                ck_assert(m->depths[k] == 0.0f);
            }
            ck_assert(m->depth == 0.0f);
        }
        /* (the touches made and ended within a step were met: the new path is taken) */
        ck_assert_msg(brief >= 2, "kind %d: %d throws bounced within a step", kind, brief);
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("contact_data");
    TCase *tc = tcase_create("contact_data");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_resting_crate_reports_its_two_points);
    tcase_add_test(tc, contact_data_refuses_bad_input);
    tcase_add_test(tc, kept_manifolds_measure_true_depths_in_slow_motion);
    tcase_add_test(tc, walking_awake_contacts_gives_the_same_bits_as_walking_all);
    tcase_add_test(tc, a_kept_manifold_follows_a_shape_that_changes);
    tcase_add_test(tc, a_touch_made_and_ended_within_a_step_begins_and_ends_there);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
