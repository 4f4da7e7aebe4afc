/* tests/support/testing.h: what every Check suite of ricochet shares.
 *
 *  - rc_test_run(suite): run a suite (forking, as Check does by default) and turn the result into
 *    the process's exit status;
 *  - rc_test_random_cases(n): how many of a randomized test's n cases to run (all of them unless
 *    the environment asks for fewer, as `make valgrind` does);
 *  - assertion macros for vectors;
 *  - a tally for randomized comparisons: it counts the cases compared and skipped (skipped only
 *    within a tolerance band of a decision boundary, never silently), records the worst error as
 *    a fraction of its tolerance, prints the first few disagreements with their exact inputs
 *    (hex floats, so a failure can be replayed) and prints a closing line on stderr. */
#ifndef RICOCHET_TESTS_TESTING_H
#define RICOCHET_TESTS_TESTING_H

#include <ricochet/ricochet.h>

#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

int rc_test_run(Suite *suite);

/* n, or n / RC_TEST_RANDOM_DIVISOR (rounded up) when that environment variable holds an integer
 * from 1 to 1000: under valgrind (`make valgrind` sets 10) the slowest randomized loops run a
 * tenth of their random cases. Only for loops whose every assertion holds for any count of cases;
 * a value that is not such an integer fails the calling test. */
int rc_test_random_cases(int n);

/* exact equality of both components */
#define ck_assert_vec_eq(v, ex, ey)                                                                             \
    do {                                                                                                        \
        rc_vec2 ck_v_ = (v);                                                                                    \
        ck_assert_msg(ck_v_.x == (float)(ex) && ck_v_.y == (float)(ey), "%s = (%.9g, %.9g), expected (%.9g, %.9g)", \
                      #v, (double)ck_v_.x, (double)ck_v_.y, (double)(ex), (double)(ey));                          \
    } while (0)

/* both components within tol */
#define ck_assert_vec_near(v, ex, ey, tol)                                                                      \
    do {                                                                                                        \
        rc_vec2 ck_v_ = (v);                                                                                    \
        ck_assert_msg(fabs((double)ck_v_.x - (double)(ex)) <= (tol) && fabs((double)ck_v_.y - (double)(ey)) <= (tol), \
                      "%s = (%.9g, %.9g), expected (%.9g, %.9g) within %g", #v, (double)ck_v_.x, (double)ck_v_.y,    \
                      (double)(ex), (double)(ey), (double)(tol));                                               \
    } while (0)

#define ck_assert_near(x, ex, tol)                                                                              \
    do {                                                                                                        \
        double ck_x_ = (double)(x);                                                                             \
        ck_assert_msg(fabs(ck_x_ - (double)(ex)) <= (tol), "%s = %.9g, expected %.9g within %g", #x, ck_x_,      \
                      (double)(ex), (double)(tol));                                                             \
    } while (0)

/* ---- ray hits ------------------------------------------------------------------------------- */

/* A hit whose every byte is 0x7f, so that a field a function forgot to write shows. */
static inline rc_ray_hit rc_test_poisoned_hit(void) {
    rc_ray_hit h;
    memset(&h, 0x7f, sizeof h);
    return h;
}

/* the hit carries exactly these values, and null ids */
#define ck_assert_hit(h, et, px, py, nx, ny, inside)                                                            \
    do {                                                                                                        \
        ck_assert_msg((h).t == (float)(et), "t = %.9g, expected %.9g", (double)(h).t, (double)(et));           \
        ck_assert_vec_eq((h).point, px, py);                                                                    \
        ck_assert_vec_eq((h).normal, nx, ny);                                                                   \
        ck_assert_msg((h).started_inside == (inside), "started_inside = %d", (h).started_inside);               \
        ck_assert(rc_shape_id_is_null((h).shape) && rc_body_id_is_null((h).body));                               \
    } while (0)

/* the same within TOL, the tolerance the including suite defines */
#define ck_assert_hit_near(h, et, px, py, nx, ny, inside)                                                       \
    do {                                                                                                        \
        ck_assert_near((h).t, et, TOL);                                                                         \
        ck_assert_vec_near((h).point, px, py, TOL);                                                             \
        ck_assert_vec_near((h).normal, nx, ny, TOL);                                                            \
        ck_assert_msg((h).started_inside == (inside), "started_inside = %d", (h).started_inside);               \
    } while (0)

/* ---- randomized comparisons ------------------------------------------------------------------ */

typedef struct rc_tally {
    char name[96];
    long compared, skipped, failed;
    double worst;      /* largest error / tolerance seen in a compared case */
    int quantities;    /* the same per quantity compared (by its label) */
    const char *quantity[8];
    double quantity_worst[8];
    char first[1400];  /* the first disagreement, for the assertion message */
    /* the case being compared */
    bool case_failed;
    char case_inputs[768];
} rc_tally;

void rc_tally_init(rc_tally *t, const char *name);
/* Start a case; inputs describes it exactly (use rc_fmt_vec / %a) for the failure message. */
void rc_tally_begin(rc_tally *t, const char *inputs_fmt, ...) __attribute__((format(printf, 2, 3)));
/* The case is within the band of a decision boundary: counted as skipped, not compared. */
void rc_tally_skip(rc_tally *t);
/* A check of the current case: false records a disagreement. */
bool rc_tally_check(rc_tally *t, bool ok, const char *what_fmt, ...) __attribute__((format(printf, 3, 4)));
/* |err| <= tol, with the ratio kept for the closing line. */
bool rc_tally_near(rc_tally *t, const char *what, double got, double want, double tol);
/* The current case is complete: counted as compared (and failed if a check failed). */
void rc_tally_end(rc_tally *t);
/* Print the closing line (rc_tally_report), then fail the running Check test if any case
 * disagreed or too many were skipped (rc_tally_assert). rc_tally_finish does both; a test with
 * several tallies reports them all before asserting, so that every closing line is printed. */
void rc_tally_report(const rc_tally *t);
void rc_tally_assert(const rc_tally *t);
void rc_tally_finish(rc_tally *t);

#endif
