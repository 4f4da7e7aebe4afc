/* The cell coordinates of a box on a level (rect_of in broadphase/grid_internal.h, four at a time
 * with SSE2), against an independent reference: the float product floored in double and clamped
 * to +-2^30, a NaN at -2^30. Every grid walk, move and pair scan starts from these, so they must
 * be the same integers on every build (the scalar cell_coord path on other targets). */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "broadphase/grid_internal.h"
#include "support/testing.h"

static int32_t reference_coord(float v, float inv) {
    volatile float p = v * inv; /* the float product, as the grid forms it */
    if (isnan(p)) {
        return -CELL_LIMIT;
    }
    double f = floor((double)p);
    if (f <= -(double)CELL_LIMIT) {
        return -CELL_LIMIT;
    }
    return f >= (double)CELL_LIMIT ? CELL_LIMIT : (int32_t)f;
}

static void expect_rect(float inv, float x0, float y0, float x1, float y1) {
    grid_level level;
    memset(&level, 0, sizeof level);
    level.inv = inv;
    rc_aabb box = {{x0, y0}, {x1, y1}};
    cell_rect r = rect_of(&level, box);
    int32_t want[4] = {reference_coord(x0, inv), reference_coord(y0, inv), reference_coord(x1, inv),
                       reference_coord(y1, inv)};
    ck_assert_msg(r.lx == want[0] && r.ly == want[1] && r.hx == want[2] && r.hy == want[3],
                  "inv %a, box (%a, %a)-(%a, %a): rect (%d, %d)-(%d, %d), reference (%d, %d)-(%d, %d)",
                  (double)inv, (double)x0, (double)y0, (double)x1, (double)y1, r.lx, r.ly, r.hx, r.hy, want[0],
                  want[1], want[2], want[3]);
}

static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static const float INVS[] = {1.0f, 0.25f, 1.0f / 3.7f, 64.0f, 1.0f / 1024.0f};

/* Hand-picked values around every edge: zero of both signs, integers and the floats beside
 * them, both sides of the limit, the largest floats, infinities and NaN. Each lands in every
 * one of the four lanes. Worked out: -0.5 is cell -1, -1 is -1, just above -1 is -1, just below
 * 1 is 0; 2^30 and beyond are 2^30; -2^30 and below, and NaN, are -2^30. */
START_TEST(edge_values_match_the_reference) {
    const float limit = (float)CELL_LIMIT;
    const float values[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, 0.5f, -0.5f, 1.0f, -1.0f, nextafterf(1.0f, 0.0f),
                            nextafterf(-1.0f, 0.0f), nextafterf(-1.0f, -2.0f), 123456.5f, -123456.5f,
                            nextafterf(limit, 0.0f), -nextafterf(limit, 0.0f), limit, -limit,
                            nextafterf(limit, INFINITY), -nextafterf(limit, INFINITY), 2.0f * limit, -2.0f * limit,
                            FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, -NAN};
    const int n = (int)(sizeof values / sizeof values[0]);
    for (int k = 0; k < (int)(sizeof INVS / sizeof INVS[0]); ++k) {
        for (int i = 0; i < n; ++i) {
            float v = values[i], w = values[(i + 7) % n];
            expect_rect(INVS[k], v, w, w, v);
            expect_rect(INVS[k], w, v, v, w);
        }
    }
    /* the worked values themselves, at cell size 1 */
    grid_level level;
    memset(&level, 0, sizeof level);
    level.inv = 1.0f;
    rc_aabb box = {{-0.5f, nextafterf(-1.0f, 0.0f)}, {nextafterf(1.0f, 0.0f), NAN}};
    cell_rect r = rect_of(&level, box);
    ck_assert_int_eq(r.lx, -1);
    ck_assert_int_eq(r.ly, -1);
    ck_assert_int_eq(r.hx, 0);
    ck_assert_int_eq(r.hy, -CELL_LIMIT);
    rc_aabb far = {{-INFINITY, 3.0f * limit}, {limit, -limit}};
    r = rect_of(&level, far);
    ck_assert_int_eq(r.lx, -CELL_LIMIT);
    ck_assert_int_eq(r.ly, CELL_LIMIT);
    ck_assert_int_eq(r.hx, CELL_LIMIT);
    ck_assert_int_eq(r.hy, -CELL_LIMIT);
}
END_TEST

/* At each of the five level sizes, 20,000 boxes of random bit patterns (every exponent, sign and
 * NaN payload) and 20,000 of ordinary coordinates within +-1000: 200,000 boxes in all. */
START_TEST(random_values_match_the_reference) {
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < (int)(sizeof INVS / sizeof INVS[0]); ++k) {
        for (int i = 0; i < 20000; ++i) {
            uint32_t u[4];
            for (int j = 0; j < 4; ++j) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                u[j] = (uint32_t)(state >> 32);
            }
            expect_rect(INVS[k], bits_float(u[0]), bits_float(u[1]), bits_float(u[2]), bits_float(u[3]));
            float c[4];
            for (int j = 0; j < 4; ++j) {
                c[j] = ((float)(u[j] >> 8) / 16777216.0f - 0.5f) * 2000.0f;
            }
            expect_rect(INVS[k], c[0], c[1], c[2], c[3]);
        }
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("grid_cells");
    TCase *t = tcase_create("cells");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, edge_values_match_the_reference);
    tcase_add_test(t, random_values_match_the_reference);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
