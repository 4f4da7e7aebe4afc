/* The contact solver's width (world/contact_solver.c, solver.h): four contacts a block on every
 * machine, eight on x86-64 processors with AVX (contact_solver_avx.c), sixteen on those with
 * AVX-512 (contact_solver_avx512.c), chosen at run time by rc_solver_widest_lanes. A lane
 * computes what its contact alone would, with the same operations at every width, so the width
 * must change no bit: a pile of every kind of contact (boxes, circles, capsules, polygons; one
 * and two points; restitution, rolling resistance, round sides; a turning kinematic paddle; a
 * grenade crowd) and the busy scene of test_determinism step to the same bits with four lanes
 * as with each wider width this processor has. On a processor without AVX both runs have four
 * lanes and the test says so. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"
#include "world/world_internal.h"

static const float DT = 1.0f / 60.0f;

START_TEST(the_block_sizes_are_worked_out_from_the_layout) {
    int32_t widest = rc_solver_widest_lanes();
    ck_assert(widest == RC_SOLVER_LANES || widest == RC_SOLVER_WIDE_LANES || widest == RC_SOLVER_WIDEST_LANES);
    /* a block of four: 38 vectors of four floats (608 bytes) and four arrays of four state
       offsets of four bytes (64): 672 bytes, 10.5 lines of 64 */
    ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_LANES, 0), 0);
    ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_LANES, 1), 11);
    ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_LANES, 2), 21);
    ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_LANES, 1000), 10500);
    if (widest >= RC_SOLVER_WIDE_LANES) {
        /* of eight: 38 vectors of eight floats (1,216 bytes) and four arrays of eight offsets
           (128): 1,344 bytes, 21 lines */
        ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_WIDE_LANES, 1), 21);
        ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_WIDE_LANES, 3), 63);
    }
    if (widest == RC_SOLVER_WIDEST_LANES) {
        /* of sixteen: 38 vectors of sixteen floats (2,432 bytes) and four arrays of sixteen
           offsets (256): 2,688 bytes, 42 lines */
        ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_WIDEST_LANES, 1), 42);
        ck_assert_int_eq(rc_solver_block_lines(RC_SOLVER_WIDEST_LANES, 3), 126);
    }
    rc_world_def def = rc_world_default_def();
    rc_world *w = rc_world_create(&def);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(w->solver_lanes, widest);
    rc_world_destroy(w);
}
END_TEST

/* A world with gravity (0, -10) and its ground, a static body at the origin. */
static rc_world *world_on_ground(rc_body_id *ground) {
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, -10.0f);
    rc_world *w = rc_world_create(&def);
    ck_assert_ptr_nonnull(w);
    rc_body_def bd = rc_body_default_def();
    *ground = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(*ground));
    return w;
}

/* A closed box of static walls with a turning kinematic paddle, and a pile of every kind of
 * body poured in. */
static rc_world *pile_world(int32_t lanes) {
    rc_body_id ground;
    rc_world *w = world_on_ground(&ground);
    w->solver_lanes = lanes;
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 outline[] = {{-12.0f, 20.0f}, {-12.0f, 0.0f}, {-4.0f, -1.0f}, {4.0f, -1.0f}, {12.0f, 0.0f}, {12.0f, 20.0f}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, ground, &sd, outline, 6, false)));
    bd.type = RC_KINEMATIC;
    bd.position = rc_v2(0.0f, 3.0f);
    bd.angular_velocity = 1.5f;
    rc_body_id paddle = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, paddle, &sd, 3.0f, 0.2f)));
    bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    rc_vec2 wedge[] = {{-0.4f, -0.3f}, {0.5f, -0.2f}, {0.45f, 0.1f}, {0.1f, 0.4f}, {-0.3f, 0.3f}};
    for (int i = 0; i < 180; ++i) {
        int row = i / 12, col = i % 12;
        bd.position = rc_v2(-9.5f + 1.7f * (float)col + 0.2f * (float)(row % 2), 6.0f + 1.3f * (float)row);
        bd.angle = 0.37f * (float)i;
        bd.linear_velocity = rc_v2(0.5f * (float)(i % 5) - 1.0f, -2.0f);
        rc_body_id b = rc_body_create(w, &bd);
        rc_shape_def s = rc_shape_default_def();
        s.restitution = (i % 4 == 0) ? 0.5f : 0.0f;
        s.friction = (i % 3 == 0) ? 0.2f : 0.6f;
        s.density = 0.5f + 0.25f * (float)(i % 7);
        rc_shape_id made;
        switch (i % 5) {
        case 0:
            made = rc_shape_create_box(w, b, &s, 0.5f, 0.3f);
            break;
        case 1:
            made = rc_shape_create_circle(w, b, &s, 0.35f + 0.05f * (float)(i % 3));
            break;
        case 2:
            made = rc_shape_create_capsule(w, b, &s, rc_v2(-0.4f, 0.0f), rc_v2(0.4f, 0.0f), 0.2f);
            break;
        case 3:
            made = rc_shape_create_polygon(w, b, &s, wedge, 5);
            break;
        default:
            s.rolling_resistance = 0.0f;
            made = rc_shape_create_box(w, b, &s, 0.3f, 0.3f);
            break;
        }
        ck_assert_msg(!rc_shape_id_is_null(made), "body %d: %s", i, rc_world_last_error(w));
    }
    /* and a crowd of grenades (swept circles) poured on top */
    bd.bullet = true;
    for (int i = 0; i < 60; ++i) {
        bd.position = rc_v2(-8.0f + 0.8f * (float)(i % 20), 30.0f + 1.0f * (float)(i / 20));
        bd.angle = 0.0f;
        bd.linear_velocity = rc_v2(0.0f, -5.0f);
        rc_body_id b = rc_body_create(w, &bd);
        rc_shape_def s = rc_shape_default_def();
        s.restitution = 0.3f;
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &s, 0.2f)));
    }
    return w;
}

/* Every body's transform and velocities, as bits. */
static void body_bits(const rc_world *w, unsigned char *out, size_t *n) {
    size_t at = 0;
    for (int32_t i = 0; i < w->bodies.count; ++i) {
        const rc_body *b = &w->bodies.data[i];
        float f[6] = {b->xf.p.x, b->xf.p.y, b->angle, b->linear_velocity.x, b->linear_velocity.y, b->angular_velocity};
        memcpy(out + at, f, sizeof f);
        at += sizeof f;
    }
    *n = at;
}

/* The pile with four lanes and with `lanes`, step by step. */
static void pile_at_width(int32_t lanes) {
    rc_world *narrow = pile_world(RC_SOLVER_LANES), *wide = pile_world(lanes);
    static unsigned char a[300 * 6 * sizeof(float)], b[300 * 6 * sizeof(float)];
    int32_t most_constraints = 0;
    for (int step = 0; step < 420; ++step) {
        ck_assert(rc_world_step(narrow, DT));
        ck_assert(rc_world_step(wide, DT));
        size_t na, nb;
        body_bits(narrow, a, &na);
        body_bits(wide, b, &nb);
        ck_assert_msg(na == nb && memcmp(a, b, na) == 0, "the widths part at step %d", step);
        ck_assert_int_eq(narrow->constraints.count, wide->constraints.count);
        if (wide->constraints.count > most_constraints) {
            most_constraints = wide->constraints.count;
        }
    }
    /* the pile was busy: hundreds of contacts solved (colours with more than eight contacts,
       so that the wide blocks fill) */
    printf("[solver lanes] %d lanes against 4: the same bits over 420 steps, up to %d constraints a step\n", lanes,
           most_constraints);
    ck_assert_int_gt(most_constraints, 300);
    rc_world_destroy(narrow);
    rc_world_destroy(wide);
}

START_TEST(a_pile_steps_to_the_same_bits_at_every_width) {
    int32_t widest = rc_solver_widest_lanes();
    if (widest == RC_SOLVER_LANES) {
        printf("[solver lanes] this processor runs four lanes only: both runs have four\n");
    }
    pile_at_width(widest);
    if (widest == RC_SOLVER_WIDEST_LANES) {
        pile_at_width(RC_SOLVER_WIDE_LANES); /* (the eight lanes, which this processor has too) */
    }
}
END_TEST

/* The busy scene of test_determinism, its hash with the widest lanes and with four. */
static uint64_t busy_hash(int32_t lanes) {
    busy_scene *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    busy_scene_begin(s, (rc_allocator){NULL, NULL, NULL});
    s->w->solver_lanes = lanes;
    for (int step = 0; step < BUSY_STEPS; ++step) {
        busy_scene_frame(s, step);
    }
    uint64_t h = s->hash.h;
    busy_scene_end(s);
    free(s);
    return h;
}

START_TEST(the_busy_scene_hashes_the_same_at_every_width) {
    int32_t widest = rc_solver_widest_lanes();
    uint64_t narrow = busy_hash(RC_SOLVER_LANES), wide = busy_hash(widest);
    ck_assert_msg(narrow == wide, "four lanes 0x%016llx, widest 0x%016llx", (unsigned long long)narrow,
                  (unsigned long long)wide);
    if (widest == RC_SOLVER_WIDEST_LANES) {
        uint64_t eight = busy_hash(RC_SOLVER_WIDE_LANES);
        ck_assert_msg(narrow == eight, "four lanes 0x%016llx, eight 0x%016llx", (unsigned long long)narrow,
                      (unsigned long long)eight);
    }
}
END_TEST

/* ---- joints in blocks --------------------------------------------------------------------------- */

/* A net of 12 x 12 boxes hinged to their neighbours (plain revolute joints: in blocks) and hung
 * from two static posts, a motorised hinge with limits, a weld, a rope of distance joints and a
 * spring, with crates dropped onto the net (contacts among the joints). joint_lanes off: every
 * joint alone. */
static rc_world *jointed_world(bool joint_lanes) {
    rc_body_id posts;
    rc_world *w = world_on_ground(&posts);
    w->joint_lanes = joint_lanes;
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    enum { N = 12 };
    rc_body_id net[N][N];
    bd.type = RC_DYNAMIC;
    for (int row = 0; row < N; ++row) {
        for (int col = 0; col < N; ++col) {
            bd.position = rc_v2((float)col - 5.5f, 20.0f - (float)row);
            bd.angle = 0.01f * (float)(row - col);
            net[row][col] = rc_body_create(w, &bd);
            ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, net[row][col], &sd, 0.3f, 0.3f)));
        }
    }
    bd.angle = 0.0f;
    rc_revolute_joint_def rd = rc_revolute_joint_default_def();
    for (int row = 0; row < N; ++row) {
        for (int col = 0; col < N; ++col) {
            if (col > 0) {
                rd.body_a = net[row][col - 1];
                rd.body_b = net[row][col];
                rd.local_anchor_a = rc_v2(0.5f, 0.0f);
                rd.local_anchor_b = rc_v2(-0.5f, 0.0f);
                ck_assert(!rc_joint_id_is_null(rc_joint_create_revolute(w, &rd)));
            }
            if (row > 0) {
                rd.body_a = net[row - 1][col];
                rd.body_b = net[row][col];
                rd.local_anchor_a = rc_v2(0.0f, -0.5f);
                rd.local_anchor_b = rc_v2(0.0f, 0.5f);
                ck_assert(!rc_joint_id_is_null(rc_joint_create_revolute(w, &rd)));
            }
        }
    }
    for (int k = 0; k < 2; ++k) { /* the posts: the top corners, one hinge with a motor and limits */
        rd = rc_revolute_joint_default_def();
        rd.body_a = posts;
        rd.body_b = net[0][k * (N - 1)];
        rd.local_anchor_a = rc_v2(k == 0 ? -5.5f : 5.5f, 20.5f);
        rd.local_anchor_b = rc_v2(0.0f, 0.5f);
        rd.enable_motor = k == 1;
        rd.motor_speed = 0.5f;
        rd.max_motor_torque = 50.0f;
        rd.enable_limit = k == 1;
        rd.lower_angle = -0.3f;
        rd.upper_angle = 0.3f;
        ck_assert(!rc_joint_id_is_null(rc_joint_create_revolute(w, &rd)));
    }
    rc_weld_joint_def wd = rc_weld_joint_default_def();
    wd.body_a = net[N - 1][0];
    wd.body_b = net[N - 1][1];
    wd.local_anchor_a = rc_v2(0.5f, 0.0f);
    wd.local_anchor_b = rc_v2(-0.5f, 0.0f);
    ck_assert(!rc_joint_id_is_null(rc_joint_create_weld(w, &wd)));
    rc_distance_joint_def dd = rc_distance_joint_default_def();
    rc_body_id last = net[N - 1][N - 1];
    for (int k = 0; k < 6; ++k) { /* a rope, its last link a spring */
        bd.position = rc_v2(5.5f, 7.0f - (float)k);
        rc_body_id link = rc_body_create(w, &bd);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, link, &sd, 0.2f)));
        dd.body_a = last;
        dd.body_b = link;
        dd.length = 1.0f;
        dd.enable_spring = k == 5;
        dd.hertz = 4.0f;
        dd.damping_ratio = 0.5f;
        ck_assert(!rc_joint_id_is_null(rc_joint_create_distance(w, &dd)));
        last = link;
    }
    for (int k = 0; k < 8; ++k) { /* crates dropped onto the net */
        bd.position = rc_v2(-4.0f + (float)k, 24.0f + 0.7f * (float)k);
        bd.angle = 0.2f * (float)k;
        rc_body_id crate = rc_body_create(w, &bd);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, crate, &sd, 0.4f, 0.3f)));
    }
    return w;
}

START_TEST(joints_in_blocks_step_to_the_bits_they_get_alone) {
    rc_world *blocks = jointed_world(true), *alone = jointed_world(false);
    int32_t most_plain = 0;
    for (int step = 0; step < 300; ++step) {
        ck_assert(rc_world_step(blocks, DT));
        ck_assert(rc_world_step(alone, DT));
        int32_t plain = 0, alone_plain = 0;
        for (int k = 0; k < RC_JOINT_COLORS; ++k) {
            plain += blocks->joint_runs.plain[k];
            alone_plain += alone->joint_runs.plain[k];
        }
        ck_assert_int_eq(alone_plain, 0);
        most_plain = plain > most_plain ? plain : most_plain;
        ck_assert_int_eq(blocks->bodies.count, alone->bodies.count);
        for (int32_t i = 0; i < blocks->bodies.count; ++i) {
            const rc_body *p = &blocks->bodies.data[i], *q = &alone->bodies.data[i];
            bool same = memcmp(&p->center, &q->center, sizeof p->center) == 0 &&
                        memcmp(&p->angle, &q->angle, sizeof p->angle) == 0 &&
                        memcmp(&p->linear_velocity, &q->linear_velocity, sizeof p->linear_velocity) == 0 &&
                        memcmp(&p->angular_velocity, &q->angular_velocity, sizeof p->angular_velocity) == 0;
            ck_assert_msg(same, "step %d, body %d: (%a, %a) %a in blocks, (%a, %a) %a alone", step, i,
                          (double)p->center.x, (double)p->center.y, (double)p->angle, (double)q->center.x,
                          (double)q->center.y, (double)q->angle);
        }
    }
    /* the net's 264 hinges and the plain post went in blocks (the motorised post, the weld and
       the rope did not) */
    ck_assert_int_eq(most_plain, 265);
    rc_world_destroy(blocks);
    rc_world_destroy(alone);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("solver_lanes");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, the_block_sizes_are_worked_out_from_the_layout);
    tcase_add_test(t, a_pile_steps_to_the_same_bits_at_every_width);
    tcase_add_test(t, the_busy_scene_hashes_the_same_at_every_width);
    tcase_add_test(t, joints_in_blocks_step_to_the_bits_they_get_alone);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
