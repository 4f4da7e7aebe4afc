/* Steps longer than 1/60 s: a game stepping at 30 Hz gets stacks that settle and sleep, as at
 * 60 Hz. The contact solver's stiffness is capped at an eighth of the sub-step rate (sub_steps /
 * dt, twice that against static bodies; as Box2D v3.1): at a quarter, a step of 1/30 s with four
 * sub-steps solved contacts at 30 Hz (60 against the ground) in sub-steps of 1/120 s, too stiff
 * for them, and a 20-row pyramid with 0.05 gaps bobbed at its top by 0.05 and never slept, and a
 * 4x4 crate on a 0.2 box on a plank (400:1) bobbed by 0.004 for good (Box2D v3.1.1 sleeps both).
 * At 60 Hz with four sub-steps the cap is the default 30 Hz: the same contacts as before. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

enum { MAX_BODIES = 256 };

typedef struct stack {
    rc_world *w;
    rc_body_id bodies[MAX_BODIES];
    rc_vec2 start[MAX_BODIES];
    int count;
} stack;

static void make_world(stack *s, const rc_world_def *def) {
    memset(s, 0, sizeof *s);
    s->w = rc_world_create(def);
    ck_assert_ptr_nonnull(s->w);
    rc_body_def bd = rc_body_default_def();
    rc_body_id ground = rc_body_create(s->w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0.0f, -0.5f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(s->w, ground, &sd, 50.0f, 0.5f)));
}

static void add_crate(stack *s, rc_vec2 p, float hw, float hh) {
    ck_assert_int_lt(s->count, MAX_BODIES);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = p;
    rc_body_id b = rc_body_create(s->w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(s->w, b, &sd, hw, hh)));
    s->bodies[s->count] = b;
    s->start[s->count] = p;
    s->count++;
}

/* A pyramid of `rows` unit crates, `gap` apart in each row. */
static void add_pyramid(stack *s, int rows, float gap) {
    for (int row = 0; row < rows; ++row) {
        for (int i = 0; i < rows - row; ++i) {
            float x = ((float)i - 0.5f * (float)(rows - row - 1)) * (1.0f + gap);
            add_crate(s, rc_v2(x, 0.5f + (float)row), 0.5f, 0.5f);
        }
    }
}

/* Steps s->w by dt for `seconds`; returns the time at which every crate was asleep for good
 * (-1: never), and the largest sideways move and turn of any crate over the run. */
static double run(stack *s, float dt, double seconds, float *most_sideways, float *most_turn) {
    double asleep_at = -1.0;
    *most_sideways = 0.0f;
    *most_turn = 0.0f;
    int steps = (int)lround(seconds / (double)dt);
    for (int step = 0; step < steps; ++step) {
        ck_assert(rc_world_step(s->w, dt));
        bool all_asleep = true;
        for (int i = 0; i < s->count; ++i) {
            rc_vec2 p = rc_body_position(s->w, s->bodies[i]);
            *most_sideways = fmaxf(*most_sideways, fabsf(p.x - s->start[i].x));
            *most_turn = fmaxf(*most_turn, fabsf(rc_body_angle(s->w, s->bodies[i])));
            all_asleep = all_asleep && !rc_body_is_awake(s->w, s->bodies[i]);
        }
        if (!all_asleep) {
            asleep_at = -1.0;
        } else if (asleep_at < 0.0) {
            asleep_at = (double)(step + 1) * (double)dt;
        }
    }
    return asleep_at;
}

/* A 20-row pyramid with 0.05 gaps stepped at 30 Hz stands and sleeps within 4 s; no crate
 * moves sideways by more than 0.05 or turns by more than 0.02 rad. (Before: never asleep in
 * 10 s, the top bobbing by 0.05, crates 0.19 sideways.) */
START_TEST(a_gapped_pyramid_stepped_at_30_hz_stands_and_sleeps) {
    rc_world_def def = rc_world_default_def();
    stack s;
    make_world(&s, &def);
    add_pyramid(&s, 20, 0.05f);
    float sideways, turn;
    double asleep = run(&s, 1.0f / 30.0f, 6.0, &sideways, &turn);
    printf("[long steps] gapped pyramid at 30 Hz: asleep at %.2f s, sideways %.4f, turn %.4f\n", asleep,
           (double)sideways, (double)turn);
    EXPECT(asleep >= 0.0 && asleep <= 4.0, "asleep at %.2f s", asleep);
    EXPECT(sideways < 0.05f, "a crate moved %.4f sideways", (double)sideways);
    EXPECT(turn < 0.02f, "a crate turned %.4f rad", (double)turn);
    rc_world_destroy(s.w);
}
END_TEST

/* A 4x4 crate on a 0.2 box on a 4x0.2 plank (the crate 400 times the box's mass), at 30 Hz,
 * sleeps within 3 s. At such a ratio the soft contacts give: the crate sinks into the box, and
 * the box into the plank (Box2D v3.1.1 rests the crate's bottom at 0.15, 0.25 below the box's
 * top at 0.4, and sleeps at 1.87 s); it must sink no deeper than that, its bottom above the
 * plank's middle (0.1). */
START_TEST(a_heavy_crate_on_a_small_box_stepped_at_30_hz_sleeps) {
    rc_world_def def = rc_world_default_def();
    stack s;
    make_world(&s, &def);
    add_crate(&s, rc_v2(0.0f, 0.1f), 2.0f, 0.1f);
    add_crate(&s, rc_v2(0.0f, 0.3f), 0.1f, 0.1f);
    add_crate(&s, rc_v2(0.0f, 2.4f), 2.0f, 2.0f);
    float sideways, turn;
    double asleep = run(&s, 1.0f / 30.0f, 5.0, &sideways, &turn);
    float bottom = rc_body_position(s.w, s.bodies[2]).y - 2.0f;
    printf("[long steps] 400:1 stack at 30 Hz: asleep at %.2f s, the crate's bottom at %.4f\n", asleep,
           (double)bottom);
    EXPECT(asleep >= 0.0 && asleep <= 3.0, "asleep at %.2f s", asleep);
    EXPECT(bottom > 0.1f, "the crate's bottom at %.4f, below the plank's middle (0.1)", (double)bottom);
    EXPECT(sideways < 0.05f, "a body moved %.4f sideways", (double)sideways);
    rc_world_destroy(s.w);
}
END_TEST

/* The last position of every crate of a 5-row pyramid dropped from 0.1 up, after 40 steps of
 * dt with `sub_steps` and contact_hertz `hertz`. */
static void drop_pyramid(float dt, int sub_steps, float hertz, rc_vec2 out[15]) {
    rc_world_def def = rc_world_default_def();
    def.sub_steps = sub_steps;
    def.contact_hertz = hertz;
    def.id_salt = 7u;
    stack s;
    make_world(&s, &def);
    add_pyramid(&s, 5, 0.0f);
    for (int i = 0; i < s.count; ++i) {
        ck_assert(rc_body_set_transform(s.w, s.bodies[i], rc_v2(s.start[i].x, s.start[i].y + 0.1f), 0.0f));
    }
    for (int step = 0; step < 40; ++step) {
        ck_assert(rc_world_step(s.w, dt));
    }
    for (int i = 0; i < s.count; ++i) {
        out[i] = rc_body_position(s.w, s.bodies[i]);
    }
    rc_world_destroy(s.w);
}

static bool same_positions(const rc_vec2 *a, const rc_vec2 *b) {
    return memcmp(a, b, sizeof(rc_vec2) * 15) == 0;
}

/* The cap is exactly an eighth of the sub-step rate: at 30 Hz with four sub-steps (a rate of
 * 120) the default 30 Hz solves as 15 Hz does, to the bit, and not as 14 Hz does (below the
 * cap, as asked); at 60 Hz with four (240) the cap is 30, and 30 Hz is the default's own; with
 * eight sub-steps at 30 Hz (240), 30 Hz is again below the cap and solves as asked, unlike 15. */
START_TEST(the_contact_stiffness_is_capped_at_an_eighth_of_the_sub_step_rate) {
    rc_vec2 base[15], other[15];
    drop_pyramid(1.0f / 30.0f, 4, 30.0f, base);
    drop_pyramid(1.0f / 30.0f, 4, 15.0f, other);
    EXPECT(same_positions(base, other), "30 Hz asked at a sub-step rate of 120 is not solved as 15 Hz");
    drop_pyramid(1.0f / 30.0f, 4, 14.0f, other);
    EXPECT(!same_positions(base, other), "14 Hz (below the cap) solved as the cap");
    drop_pyramid(1.0f / 30.0f, 4, 1000.0f, other);
    EXPECT(same_positions(base, other), "1000 Hz asked at a sub-step rate of 120 is not solved as 15 Hz");
    drop_pyramid(1.0f / 30.0f, 8, 30.0f, base);
    drop_pyramid(1.0f / 30.0f, 8, 15.0f, other);
    EXPECT(!same_positions(base, other), "at a sub-step rate of 240, 30 Hz solved as 15 Hz");
    drop_pyramid(1.0f / 30.0f, 8, 1000.0f, other);
    EXPECT(same_positions(base, other), "1000 Hz asked at a sub-step rate of 240 is not solved as 30 Hz");
}
END_TEST

int main(void) {
    Suite *s = suite_create("long steps");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_gapped_pyramid_stepped_at_30_hz_stands_and_sleeps);
    tcase_add_test(tc, a_heavy_crate_on_a_small_box_stepped_at_30_hz_sleeps);
    tcase_add_test(tc, the_contact_stiffness_is_capped_at_an_eighth_of_the_sub_step_rate);
    suite_add_tcase(s, tc);
    return rc_test_run(s);
}
