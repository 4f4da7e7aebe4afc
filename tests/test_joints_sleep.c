/* Joints (include/ricochet/joint.h) and sleep, collisions and the lock: jointed bodies sleep
 * together and wake together, a chain woken at its end wakes whole, a lamp hanging from a
 * kinematic body at rest sleeps, a joint joins islands; collide_connected decides whether the
 * two bodies' shapes touch (and a new joint ends their contact); nothing about joints changes
 * while the world is locked (from a pre-solve or a query callback). */
#include "support/joint_scenes.h"

/* ---- 10. sleep and wake -------------------------------------------------------------------------- */

/* The step at which a body fell asleep (first seen asleep), -1 if not yet. */
static void note_sleep(const rc_world *w, rc_body_id b, int step_no, int *when) {
    if (*when < 0 && !rc_body_is_awake(w, b)) {
        *when = step_no;
    }
}

/* Two boxes hanging one under the other from a static hinge: they fall asleep in the same
 * step; waking either (rc_body_set_awake, an impulse, a setter) wakes the other by the next
 * step. */
START_TEST(jointed_bodies_sleep_and_wake_together) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    rc_body_id a = box_body(w, rc_v2(0, -0.5f), 0.0f, 0.1f, 0.5f, 1.0f);
    rc_body_id b = box_body(w, rc_v2(0, -1.5f), 0.0f, 0.1f, 0.5f, 1.0f);
    ck_assert(rc_body_set_angular_damping(w, a, 2.0f) && rc_body_set_angular_damping(w, b, 2.0f));
    ck_assert(rc_body_set_linear_damping(w, a, 2.0f) && rc_body_set_linear_damping(w, b, 2.0f));
    hinge(w, ground, a, rc_v2(0, 0));
    rc_joint_id ab = hinge(w, a, b, rc_v2(0, -1));
    /* b swings a little and a is still: a would sleep after 0.5 s alone */
    ck_assert(rc_body_set_linear_velocity(w, b, rc_v2(0.3f, 0.0f)));
    int sa = -1, sb = -1;
    for (int i = 1; i <= 600 && (sa < 0 || sb < 0); ++i) {
        step(w, 1);
        note_sleep(w, a, i, &sa);
        note_sleep(w, b, i, &sb);
    }
    REPORT("[joints] hanging pair asleep at steps %d and %d\n", sa, sb);
    ck_assert_int_gt(sa, 0);
    ck_assert_int_eq(sa, sb);
    ck_assert_int_gt(sa, 60); /* b's swing kept them both awake well past 0.5 s */

    /* rc_body_set_awake on one: the other is awake after the next step */
    ck_assert(rc_body_set_awake(w, b, true));
    ck_assert(rc_body_is_awake(w, b));
    step(w, 1);
    ck_assert(rc_body_is_awake(w, a) && rc_body_is_awake(w, b));
    for (int i = 0; i < 600 && (rc_body_is_awake(w, a) || rc_body_is_awake(w, b)); ++i) {
        step(w, 1);
    }
    ck_assert(!rc_body_is_awake(w, a) && !rc_body_is_awake(w, b));
    /* an impulse on the upper one: the lower one wakes and moves with it */
    rc_vec2 pb = rc_body_position(w, b);
    ck_assert(rc_body_apply_linear_impulse(w, a, rc_v2(0.5f, 0), rc_body_world_center(w, a)));
    step(w, 1);
    ck_assert(rc_body_is_awake(w, b));
    step(w, 10);
    ck_assert_msg(rc_body_position(w, b).x > pb.x + 0.01f, "the lower box did not follow");
    for (int i = 0; i < 900 && (rc_body_is_awake(w, a) || rc_body_is_awake(w, b)); ++i) {
        step(w, 1);
    }
    ck_assert(!rc_body_is_awake(w, a) && !rc_body_is_awake(w, b));
    /* a setter wakes both at once */
    ck_assert(rc_revolute_joint_set_motor(w, ab, true, 1.0f, 10.0f));
    ck_assert(rc_body_is_awake(w, a) && rc_body_is_awake(w, b));
    ck_assert(rc_revolute_joint_set_motor(w, ab, false, 0.0f, 0.0f));
    for (int i = 0; i < 900 && (rc_body_is_awake(w, a) || rc_body_is_awake(w, b)); ++i) {
        step(w, 1);
    }
    ck_assert(!rc_body_is_awake(w, a) && !rc_body_is_awake(w, b));
    /* so does destroying the joint: the lower box falls */
    pb = rc_body_position(w, b);
    rc_joint_destroy(w, ab);
    ck_assert(rc_body_is_awake(w, a) && rc_body_is_awake(w, b));
    step(w, 10);
    ck_assert_float_lt(rc_body_position(w, b).y, pb.y - 0.1f);
    rc_world_destroy(w);
}
END_TEST

/* A chain of 6 links asleep, woken at its bottom link: "a jointed body and what it is jointed
 * to sleep and wake together (one island)": the whole chain is awake after one step. */
START_TEST(a_sleeping_chain_wakes_as_one) {
    for (int end = 0; end < 2; ++end) {
        rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
        rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
        rc_body_id links[6];
        for (int i = 0; i < 6; ++i) {
            links[i] = box_body(w, rc_v2(0.0f, -0.5f - (float)i), 0.0f, 0.125f, 0.5f, 1.0f);
            hinge(w, i == 0 ? ground : links[i - 1], links[i], rc_v2(0.0f, -(float)i));
        }
        for (int i = 0; i < 300 && rc_body_is_awake(w, links[0]); ++i) {
            step(w, 1);
        }
        for (int i = 0; i < 6; ++i) {
            ck_assert(!rc_body_is_awake(w, links[i]));
        }
        rc_body_id woken = links[end == 0 ? 5 : 0];
        ck_assert(rc_body_set_awake(w, woken, true));
        step(w, 1);
        int awake = 0;
        for (int i = 0; i < 6; ++i) {
            awake += rc_body_is_awake(w, links[i]) ? 1 : 0;
        }
        REPORT("[joints] sleeping chain of 6 woken at its %s link: %d awake after one step\n",
               end == 0 ? "bottom" : "top", awake);
        ck_assert_int_eq(awake, 6);
        rc_world_destroy(w);
    }
}
END_TEST

/* A lamp hanging from a kinematic body at rest falls asleep and stays asleep; moving the
 * kinematic body keeps it awake. */
START_TEST(a_lamp_on_a_still_kinematic_body_sleeps) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id ceiling = body_at(w, RC_KINEMATIC, rc_v2(0, 0), 0.0f);
    rc_body_id lamp = box_body(w, rc_v2(0, -1), 0.0f, 0.2f, 0.2f, 1.0f);
    rc_distance_joint_def d = rc_distance_joint_default_def();
    d.body_a = ceiling;
    d.body_b = lamp;
    d.length = 1.0f;
    ck_assert(!rc_joint_id_is_null(rc_joint_create_distance(w, &d)));
    int asleep_at = -1, wakes = 0;
    bool was_awake = true;
    for (int i = 1; i <= 180; ++i) {
        step(w, 1);
        bool awake = rc_body_is_awake(w, lamp);
        if (!awake && asleep_at < 0) {
            asleep_at = i;
        }
        wakes += (awake && !was_awake) ? 1 : 0;
        was_awake = awake;
    }
    REPORT("[joints] lamp on a still kinematic body: asleep at step %d, woken %d times after, asleep at the end: %s\n",
           asleep_at, wakes, rc_body_is_awake(w, lamp) ? "no" : "yes");
    ck_assert_int_gt(asleep_at, 0);
    ck_assert_int_eq(wakes, 0);
    ck_assert(!rc_body_is_awake(w, lamp));
    /* the ceiling moves: the lamp wakes and stays awake while it moves */
    ck_assert(rc_body_set_linear_velocity(w, ceiling, rc_v2(0.5f, 0)));
    for (int i = 0; i < 120; ++i) {
        step(w, 1);
        EXPECT(rc_body_is_awake(w, lamp), "the lamp slept at step %d while its ceiling moved", i);
    }
    rc_world_destroy(w);
}
END_TEST

/* A heavy crate resting on a table with a small weight swinging from it on a rod: the crate
 * does not move (below the sleep speed) but stays awake while the weight swings (one island),
 * and both fall asleep in the same step once the swing dies away. */
START_TEST(a_joint_joins_islands) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id table = body_at(w, RC_STATIC, rc_v2(0, -0.5f), 0.0f);
    add_box(w, table, rc_v2(0, 0), 1.0f, 0.5f, 1.0f);
    rc_body_id crate = box_body(w, rc_v2(0, 0.5f), 0.0f, 1.0f, 0.5f, 10.0f);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(1.5f, 0.0f);
    bd.linear_velocity = rc_v2(1.0f, 0.0f);
    bd.linear_damping = 2.0f;
    rc_body_id weight = rc_body_create(w, &bd);
    add_box(w, weight, rc_v2(0, 0), 0.1f, 0.1f, 1.0f);
    rod(w, crate, rc_v2(1.5f, 1.0f), weight, rc_v2(1.5f, 0.0f));
    int crate_asleep = -1, weight_asleep = -1;
    double crate_speed = 0.0;
    for (int i = 1; i <= 600 && (crate_asleep < 0 || weight_asleep < 0); ++i) {
        step(w, 1);
        if (i > 10) {
            crate_speed = fmax(crate_speed, rc_length(rc_body_linear_velocity(w, crate)));
        }
        if (i == 60) {
            ck_assert_msg(rc_body_is_awake(w, crate), "the crate slept while the weight swung");
        }
        note_sleep(w, crate, i, &crate_asleep);
        note_sleep(w, weight, i, &weight_asleep);
    }
    REPORT("[joints] crate with a swinging weight: crate at most %.2e units/s, asleep at step %d, weight at %d\n",
           crate_speed, crate_asleep, weight_asleep);
    ck_assert_msg(crate_speed < 0.05, "the crate moved at %g: the test needs it below the sleep speed", crate_speed);
    ck_assert_int_gt(crate_asleep, 60);
    ck_assert_int_eq(crate_asleep, weight_asleep);
    rc_world_destroy(w);
}
END_TEST

/* ---- 11. collide_connected ------------------------------------------------------------------------ */

/* Two overlapping boxes (1 x 1, centres 0.4 apart) hinged at a point 3 above them (zero
 * gravity): kept apart, they do not touch and stay where they are; allowed to collide, the
 * contact pushes them apart, turning them about the hinge like the blades of scissors. */
static rc_world *scissors(bool collide, rc_body_id *a, rc_body_id *b, rc_shape_id *sa, rc_shape_id *sb,
                          rc_joint_id *j) {
    rc_world *w = make_world(rc_v2(0, 0), false);
    *a = body_at(w, RC_DYNAMIC, rc_v2(-0.2f, 0), 0.0f);
    *sa = add_box(w, *a, rc_v2(0, 0), 0.5f, 0.5f, 1.0f);
    *b = body_at(w, RC_DYNAMIC, rc_v2(0.2f, 0), 0.0f);
    *sb = add_box(w, *b, rc_v2(0, 0), 0.5f, 0.5f, 1.0f);
    rc_revolute_joint_def d = rc_revolute_joint_default_def();
    d.body_a = *a;
    d.body_b = *b;
    d.local_anchor_a = rc_v2(0.2f, 3.0f);
    d.local_anchor_b = rc_v2(-0.2f, 3.0f);
    d.collide_connected = collide;
    *j = rc_joint_create_revolute(w, &d);
    ck_assert(!rc_joint_id_is_null(*j));
    ck_assert(rc_joint_collide_connected(w, *j) == collide);
    return w;
}

START_TEST(collide_connected_decides_contacts) {
    rc_body_id a, b;
    rc_shape_id sa, sb;
    rc_joint_id j;
    rc_world *w = scissors(false, &a, &b, &sa, &sb, &j);
    int begins = 0;
    for (int i = 0; i < 30; ++i) {
        step(w, 1);
        begins += rc_world_contact_events(w).begin_count;
        EXPECT(rc_shape_contacts(w, sa, NULL, 0) == 0, "a contact between jointed shapes");
    }
    ck_assert_int_eq(begins, 0);
    ck_assert_int_eq(rc_body_contact_data(w, a, NULL, 0), 0);
    ck_assert_int_eq(rc_world_get_counters(w).contacts, 0);
    ck_assert_vec_near(rc_body_position(w, a), -0.2, 0.0, 1e-6);
    ck_assert_vec_near(rc_body_position(w, b), 0.2, 0.0, 1e-6);
    /* destroyed, the joint lets them collide: a contact after the next step */
    rc_joint_destroy(w, j);
    ck_assert(!rc_joint_is_valid(w, j));
    step(w, 1);
    ck_assert_int_eq(rc_shape_contacts(w, sa, NULL, 0), 1);
    ck_assert_int_eq(rc_world_contact_events(w).begin_count, 1);
    rc_world_destroy(w);

    w = scissors(true, &a, &b, &sa, &sb, &j);
    step(w, 1);
    ck_assert_int_eq(rc_shape_contacts(w, sa, NULL, 0), 1);
    ck_assert_int_eq(rc_world_contact_events(w).begin_count, 1);
    step(w, 119);
    double apart = rc_distance(rc_body_position(w, a), rc_body_position(w, b));
    REPORT("[joints] scissors colliding: centres %.4f apart after 2 s (1 clears them), hinge gap %.2e\n", apart,
           (double)joint_gap(w, j));
    ck_assert_msg(apart > 1.0, "still overlapping: %g apart", apart);
    ck_assert_msg(joint_gap(w, j) < 0.01, "the hinge opened by %g", (double)joint_gap(w, j));
    ck_assert_int_eq(rc_shape_contacts(w, sa, NULL, 0), 0);
    rc_world_destroy(w);
}
END_TEST

/* A joint made between bodies that touch ends their contact at the next step (an end event);
 * of two joints between them, both must let them collide. */
START_TEST(a_new_joint_ends_the_contact) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, -0.5f), 0.0f);
    rc_shape_id floor = add_box(w, ground, rc_v2(0, 0), 5.0f, 0.5f, 1.0f);
    rc_body_id box = box_body(w, rc_v2(0, 0.5f), 0.0f, 0.5f, 0.5f, 1.0f);
    step(w, 5);
    ck_assert_int_eq(rc_shape_contacts(w, floor, NULL, 0), 1);
    /* two joints: a hinge at the box's foot that keeps them apart, and one that would not */
    rc_joint_id apart = hinge(w, ground, box, rc_v2(0, 0));
    rc_distance_joint_def d = rc_distance_joint_default_def();
    d.body_a = ground;
    d.body_b = box;
    d.local_anchor_a = rc_v2(0, 0.5f);
    d.local_anchor_b = rc_v2(0, 0);
    d.length = 0.5f;
    d.collide_connected = true;
    rc_joint_id together = rc_joint_create_distance(w, &d);
    ck_assert(!rc_joint_id_is_null(together));
    step(w, 1);
    ck_assert_int_eq(rc_shape_contacts(w, floor, NULL, 0), 0);
    ck_assert_int_eq(rc_world_contact_events(w).end_count, 1);
    step(w, 10);
    ck_assert_int_eq(rc_shape_contacts(w, floor, NULL, 0), 0);
    /* the one that lets them collide goes: still apart; then the other: they touch again */
    rc_joint_destroy(w, together);
    step(w, 2);
    ck_assert_int_eq(rc_shape_contacts(w, floor, NULL, 0), 0);
    rc_joint_destroy(w, apart);
    step(w, 1);
    ck_assert_int_eq(rc_shape_contacts(w, floor, NULL, 0), 1);
    ck_assert_int_eq(rc_world_get_counters(w).joints, 0);
    rc_world_destroy(w);
}
END_TEST



/* A hinged pair asleep; a body woken in the middle of a step wakes what it is jointed to in
 * that step, not the next: a bullet striking the lower box (woken by the sweep's push) and a
 * kinematic sensor passing over it (woken when the sensor's contact begins). Before, the struck
 * box woke alone and its partner slept through the step (fuzz_world, seed 5). */
static rc_body_id sleeping_pair(rc_world *w, rc_body_id *upper) {
    rc_body_id post = body_at(w, RC_STATIC, rc_v2(0, 4), 0.0f);
    rc_body_id a = box_body(w, rc_v2(0, 3.5f), 0.0f, 0.1f, 0.5f, 1.0f);
    rc_body_id b = box_body(w, rc_v2(0, 2.5f), 0.0f, 0.1f, 0.5f, 1.0f);
    hinge(w, post, a, rc_v2(0, 4));
    hinge(w, a, b, rc_v2(0, 3));
    for (int i = 0; i < 600 && (rc_body_is_awake(w, a) || rc_body_is_awake(w, b)); ++i) {
        step(w, 1);
    }
    ck_assert(!rc_body_is_awake(w, a) && !rc_body_is_awake(w, b));
    *upper = a;
    return b;
}

/* Steps until `lower` wakes (at most n steps): then `upper` is awake too. */
static void wakes_together(rc_world *w, rc_body_id upper, rc_body_id lower, int n) {
    int i = 0;
    while (i < n && !rc_body_is_awake(w, lower)) {
        step(w, 1);
        ++i;
    }
    ck_assert_msg(rc_body_is_awake(w, lower), "the lower box was not woken in %d steps", n);
    ck_assert_msg(rc_body_is_awake(w, upper), "the lower box woke at step %d, the box it hangs from did not", i);
}

START_TEST(a_body_woken_in_the_step_wakes_its_partner) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id a, b = sleeping_pair(w, &a);
    /* a bullet from the left at 300 units/s, level with the lower box's middle */
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.gravity_scale = 0.0f;
    bd.position = rc_v2(-6.0f, 2.5f);
    bd.linear_velocity = rc_v2(300.0f, 0.0f);
    rc_body_id bullet = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, bullet, &sd, 0.02f)));
    wakes_together(w, a, b, 10);
    ck_assert_float_gt(fabsf(rc_body_linear_velocity(w, b).x), 0.0f); /* it was struck */
    rc_world_destroy(w);

    /* the same pair asleep in a world of its own; a kinematic sensor sliding in from the right */
    w = make_world(rc_v2(0.0f, (float)-G), true);
    b = sleeping_pair(w, &a);
    rc_body_def kd = rc_body_default_def();
    kd.type = RC_KINEMATIC;
    kd.position = rc_v2(3.0f, 2.5f);
    kd.linear_velocity = rc_v2(-6.0f, 0.0f);
    rc_body_id door = rc_body_create(w, &kd);
    rc_shape_def ss = rc_shape_default_def();
    ss.is_sensor = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, door, &ss, 0.5f, 0.2f)));
    wakes_together(w, a, b, 60);
    rc_world_destroy(w);
}
END_TEST


/* rc_body_set_awake acts on the body's island, as the step does: a stack of three boxes (not
 * yet at rest) put to sleep through its middle box sleeps whole at once and stays asleep; woken
 * through its top box it wakes whole; a jointed pair sleeps through either body; a box apart
 * from the stack, and the static ground, are not touched. */
START_TEST(set_awake_acts_on_the_island) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), true);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, 0), 0.0f);
    add_box(w, ground, rc_v2(0, -0.5f), 20.0f, 0.5f, 0.0f);
    rc_body_id box[3];
    for (int k = 0; k < 3; ++k) {
        box[k] = box_body(w, rc_v2(0, 0.5f + (float)k), 0.0f, 0.5f, 0.5f, 1.0f);
    }
    rc_body_id apart = box_body(w, rc_v2(10, 0.5f), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_body_id hung = box_body(w, rc_v2(-10, 5.0f), 0.0f, 0.1f, 0.5f, 1.0f);
    rc_body_id lamp = box_body(w, rc_v2(-10, 4.0f), 0.0f, 0.1f, 0.5f, 1.0f);
    hinge(w, hung, lamp, rc_v2(-10, 4.5f));
    ck_assert(rc_body_set_gravity_scale(w, hung, 0.0f) && rc_body_set_gravity_scale(w, lamp, 0.0f));
    step(w, 10); /* in contact, and far from the sleep time */
    for (int k = 0; k < 3; ++k) {
        ck_assert(rc_body_is_awake(w, box[k]));
    }
    ck_assert(rc_body_set_awake(w, box[1], false));
    for (int k = 0; k < 3; ++k) {
        ck_assert_msg(!rc_body_is_awake(w, box[k]), "box %d of the stack is awake", k);
        rc_vec2 v = rc_body_linear_velocity(w, box[k]);
        ck_assert(v.x == 0.0f && v.y == 0.0f && rc_body_angular_velocity(w, box[k]) == 0.0f);
    }
    ck_assert(rc_body_is_awake(w, apart));
    rc_vec2 top = rc_body_position(w, box[2]);
    step(w, 1);
    for (int k = 0; k < 3; ++k) {
        ck_assert_msg(!rc_body_is_awake(w, box[k]), "box %d woke in the step", k);
    }
    rc_vec2 top_after = rc_body_position(w, box[2]);
    ck_assert(SAME_BITS(top, top_after)); /* asleep: not moved by gravity */
    ck_assert(rc_body_set_awake(w, box[2], true));
    for (int k = 0; k < 3; ++k) {
        ck_assert_msg(rc_body_is_awake(w, box[k]), "box %d of the stack still sleeps", k);
    }
    /* the jointed pair, through either body */
    ck_assert(rc_body_set_awake(w, lamp, false));
    ck_assert(!rc_body_is_awake(w, hung) && !rc_body_is_awake(w, lamp));
    ck_assert(rc_body_set_awake(w, hung, true));
    ck_assert(rc_body_is_awake(w, hung) && rc_body_is_awake(w, lamp));
    ck_assert(rc_body_set_awake(w, hung, false));
    ck_assert(!rc_body_is_awake(w, hung) && !rc_body_is_awake(w, lamp));
    ck_assert(rc_body_is_awake(w, apart));
    rc_world_destroy(w);
}
END_TEST

/* ---- 17. the locked world ---------------------------------------------------------------------------- */

typedef struct inside {
    rc_world *w;
    rc_body_id a, b;
    rc_joint_id joint;
    int calls, refused, answered;
} inside;

static void poke(inside *in) {
    in->calls++;
    rc_revolute_joint_def d = rc_revolute_joint_default_def();
    d.body_a = in->a;
    d.body_b = in->b;
    in->refused += rc_joint_id_is_null(rc_joint_create_revolute(in->w, &d)) ? 1 : 0;
    in->refused += strstr(rc_world_last_error(in->w), "locked") != NULL ? 1 : 0;
    rc_mouse_joint_def md = rc_mouse_joint_default_def();
    md.body = in->b;
    in->refused += rc_joint_id_is_null(rc_joint_create_mouse(in->w, &md)) ? 1 : 0;
    rc_joint_destroy(in->w, in->joint);
    in->refused += rc_joint_is_valid(in->w, in->joint) ? 1 : 0;
    in->refused += strstr(rc_world_last_error(in->w), "rc_joint_destroy") != NULL ? 1 : 0;
    in->refused += !rc_revolute_joint_set_motor(in->w, in->joint, true, 1.0f, 1.0f) ? 1 : 0;
    in->refused += !rc_joint_set_user_data(in->w, in->joint, in) ? 1 : 0;
    /* reads answer */
    rc_world_clear_error(in->w);
    (void)rc_revolute_joint_angle(in->w, in->joint);
    (void)rc_joint_reaction_force(in->w, in->joint);
    in->answered += rc_world_last_error(in->w)[0] == '\0' ? 1 : 0;
}

static bool poke_pre_solve(rc_pre_solve *hit, void *context) {
    (void)hit;
    poke(context);
    return true;
}

static bool poke_overlap(rc_shape_id shape, rc_body_id body, void *context) {
    (void)shape;
    (void)body;
    poke(context);
    return true;
}

START_TEST(joints_cannot_change_while_the_world_is_locked) {
    rc_world *w = make_world(rc_v2(0.0f, (float)-G), false);
    rc_body_id ground = body_at(w, RC_STATIC, rc_v2(0, -0.5f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.enable_pre_solve_events = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 5.0f, 0.5f)));
    rc_body_id crate = box_body(w, rc_v2(0, 0.5f), 0.0f, 0.5f, 0.5f, 1.0f);
    rc_body_id lamp = box_body(w, rc_v2(3, 2), 0.0f, 0.1f, 0.1f, 1.0f);
    rc_joint_id j = hinge(w, ground, lamp, rc_v2(3, 3));
    inside in = {w, ground, crate, j, 0, 0, 0};
    ck_assert(rc_world_set_pre_solve_callback(w, poke_pre_solve, &in));
    step(w, 3);
    ck_assert_int_gt(in.calls, 0);
    ck_assert_int_eq(in.refused, 7 * in.calls);
    ck_assert_int_eq(in.answered, in.calls);
    ck_assert(rc_world_set_pre_solve_callback(w, NULL, NULL));
    int calls = in.calls;
    ck_assert_int_gt(rc_world_overlap_circle(w, rc_v2(0, 0), 1.0f, rc_default_query_filter(), poke_overlap, &in), 0);
    ck_assert_int_gt(in.calls, calls);
    ck_assert_int_eq(in.refused, 7 * in.calls);
    ck_assert_int_eq(in.answered, in.calls);
    ck_assert(rc_joint_is_valid(w, j));
    ck_assert_int_eq(rc_world_get_counters(w).joints, 1);
    ck_assert_ptr_null(rc_joint_user_data(w, j));
    /* outside, the same calls go through */
    rc_revolute_joint_def d = rc_revolute_joint_default_def();
    d.body_a = ground;
    d.body_b = crate;
    ck_assert(!rc_joint_id_is_null(rc_joint_create_revolute(w, &d)));
    rc_joint_destroy(w, j);
    ck_assert(!rc_joint_is_valid(w, j));
    rc_world_destroy(w);
}
END_TEST

/* ---- the suite ---------------------------------------------------------------------------------- */

static Suite *joints_suite(void) {
    Suite *s = suite_create("joints_sleep");
    TCase *sleep_and_collisions = tcase_create("sleep and collisions");
    tcase_set_timeout(sleep_and_collisions, 60);
    tcase_add_test(sleep_and_collisions, jointed_bodies_sleep_and_wake_together);
    tcase_add_test(sleep_and_collisions, a_sleeping_chain_wakes_as_one);
    tcase_add_test(sleep_and_collisions, a_lamp_on_a_still_kinematic_body_sleeps);
    tcase_add_test(sleep_and_collisions, a_joint_joins_islands);
    tcase_add_test(sleep_and_collisions, collide_connected_decides_contacts);
    tcase_add_test(sleep_and_collisions, a_new_joint_ends_the_contact);
    tcase_add_test(sleep_and_collisions, a_body_woken_in_the_step_wakes_its_partner);
    tcase_add_test(sleep_and_collisions, set_awake_acts_on_the_island);
    suite_add_tcase(s, sleep_and_collisions);
    TCase *lock = tcase_create("lock");
    tcase_set_timeout(lock, 60);
    tcase_add_test(lock, joints_cannot_change_while_the_world_is_locked);
    suite_add_tcase(s, lock);
    return s;
}

int main(void) { return rc_test_run(joints_suite()); }
