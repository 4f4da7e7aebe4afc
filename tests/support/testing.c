/* tests/support/testing.c: see testing.h. */
#include "support/testing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rc_test_run(Suite *suite) {
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int rc_test_random_cases(int n) {
    const char *text = getenv("RC_TEST_RANDOM_DIVISOR");
    if (text == NULL || *text == '\0') {
        return n;
    }
    char *end = NULL;
    long divisor = strtol(text, &end, 10);
    ck_assert_msg(*end == '\0' && divisor >= 1 && divisor <= 1000,
                  "RC_TEST_RANDOM_DIVISOR=%s: expected an integer from 1 to 1000", text);
    return (int)((n + divisor - 1) / divisor);
}

enum { PRINTED_FAILURES = 6 };

void rc_tally_init(rc_tally *t, const char *name) {
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
}

void rc_tally_begin(rc_tally *t, const char *inputs_fmt, ...) {
    va_list ap;
    va_start(ap, inputs_fmt);
    vsnprintf(t->case_inputs, sizeof t->case_inputs, inputs_fmt, ap);
    va_end(ap);
    t->case_failed = false;
}

void rc_tally_skip(rc_tally *t) { t->skipped++; }

bool rc_tally_check(rc_tally *t, bool ok, const char *what_fmt, ...) {
    if (ok) {
        return true;
    }
    char what[512];
    va_list ap;
    va_start(ap, what_fmt);
    vsnprintf(what, sizeof what, what_fmt, ap);
    va_end(ap);
    if (!t->case_failed) {
        if (t->failed < PRINTED_FAILURES) {
            fprintf(stderr, "[random] %s: disagreement: %s\n    inputs: %s\n", t->name, what, t->case_inputs);
        }
        if (t->failed == 0) {
            snprintf(t->first, sizeof t->first, "%s | inputs: %s", what, t->case_inputs);
        }
    }
    t->case_failed = true;
    return false;
}

bool rc_tally_near(rc_tally *t, const char *what, double got, double want, double tol) {
    double err = fabs(got - want);
    bool ok = err <= tol; /* NaN fails */
    if (ok && tol > 0.0) {
        double ratio = err / tol;
        t->worst = ratio > t->worst ? ratio : t->worst;
        int q = 0;
        while (q < t->quantities && strcmp(t->quantity[q], what) != 0) {
            ++q;
        }
        if (q == t->quantities && q < 8) {
            t->quantity[q] = what;
            t->quantity_worst[q] = 0.0;
            t->quantities++;
        }
        if (q < t->quantities && ratio > t->quantity_worst[q]) {
            t->quantity_worst[q] = ratio;
        }
    }
    return rc_tally_check(t, ok, "%s = %.9g, reference %.12g, |error| %.3g > tolerance %.3g", what, got, want, err,
                          tol);
}

void rc_tally_end(rc_tally *t) {
    t->compared++;
    if (t->case_failed) {
        t->failed++;
    }
}

void rc_tally_report(const rc_tally *t) {
    fprintf(stderr,
            "[random] %-46s compared %6ld, skipped %4ld (grazing), disagreed %4ld, worst error %.3f of tolerance\n",
            t->name, t->compared, t->skipped, t->failed, t->worst);
    if (getenv("RC_TEST_VERBOSE") != NULL) {
        for (int q = 0; q < t->quantities; ++q) {
            fprintf(stderr, "             %-40s worst %.3f of tolerance\n", t->quantity[q], t->quantity_worst[q]);
        }
    }
}

void rc_tally_assert(const rc_tally *t) {
    ck_assert_msg(t->compared > 0, "%s: no case was compared", t->name);
    /* a band that swallows the cases would hide anything: keep skips a small minority */
    ck_assert_msg(t->skipped * 10 <= t->compared, "%s: %ld skipped against %ld compared", t->name, t->skipped,
                  t->compared);
    ck_assert_msg(t->failed == 0, "%s: %ld of %ld cases disagree with the reference; first: %s", t->name, t->failed,
                  t->compared, t->first);
}

void rc_tally_finish(rc_tally *t) {
    rc_tally_report(t);
    rc_tally_assert(t);
}
