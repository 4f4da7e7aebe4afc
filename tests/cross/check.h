/* tests/cross/check.h: the part of Check's API that tests/test_determinism.c and tests/support
 * use, for the cross-architecture build of the determinism test (.ci/determinism builds it with
 * aarch64-linux-gnu-gcc and runs it under qemu-user, where Debian has no arm64 Check to link).
 * Tests run in order in one process; the first failed check prints where and exits 1. Only that
 * build puts this directory on the include path. */
#ifndef RICOCHET_TESTS_CROSS_CHECK_H
#define RICOCHET_TESTS_CROSS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum print_output { CK_SILENT, CK_MINIMAL, CK_NORMAL, CK_VERBOSE, CK_ENV };

typedef void cross_test_fn(int iteration);
typedef struct cross_test {
    cross_test_fn *fn;
    int start, end; /* iterations start .. end - 1 (tcase_add_loop_test) */
} cross_test;
typedef struct TCase {
    cross_test tests[64];
    int count;
} TCase;
typedef struct Suite {
    TCase *cases[16];
    int count;
} Suite;
typedef struct SRunner {
    Suite *suite;
} SRunner;

static inline Suite *suite_create(const char *name) {
    (void)name;
    Suite *s = calloc(1, sizeof *s);
    if (s == NULL) {
        exit(2);
    }
    return s;
}
static inline TCase *tcase_create(const char *name) {
    (void)name;
    TCase *t = calloc(1, sizeof *t);
    if (t == NULL) {
        exit(2);
    }
    return t;
}
static inline void tcase_set_timeout(TCase *tc, double seconds) {
    (void)tc;
    (void)seconds;
}
static inline void tcase_add_loop_test(TCase *tc, cross_test_fn *fn, int start, int end) {
    if (tc->count == 64) {
        exit(2);
    }
    cross_test t = {fn, start, end};
    tc->tests[tc->count++] = t;
}
static inline void tcase_add_test(TCase *tc, cross_test_fn *fn) { tcase_add_loop_test(tc, fn, 0, 1); }
static inline void suite_add_tcase(Suite *s, TCase *tc) {
    if (s->count == 16) {
        exit(2);
    }
    s->cases[s->count++] = tc;
}
static inline SRunner *srunner_create(Suite *s) {
    SRunner *r = calloc(1, sizeof *r);
    if (r == NULL) {
        exit(2);
    }
    r->suite = s;
    return r;
}
/* A failed check exits: every test that returns has passed. */
static inline void srunner_run_all(SRunner *r, enum print_output mode) {
    (void)mode;
    int n = 0;
    for (int c = 0; c < r->suite->count; ++c) {
        for (int t = 0; t < r->suite->cases[c]->count; ++t) {
            const cross_test *test = &r->suite->cases[c]->tests[t];
            for (int i = test->start; i < test->end; ++i, ++n) {
                test->fn(i);
            }
        }
    }
    printf("100%%: Checks: %d, Failures: 0, Errors: 0\n", n);
}
static inline int srunner_ntests_failed(SRunner *r) {
    (void)r;
    return 0;
}
static inline void srunner_free(SRunner *r) {
    for (int c = 0; c < r->suite->count; ++c) {
        free(r->suite->cases[c]);
    }
    free(r->suite);
    free(r);
}

#define START_TEST(name)                                                                                               \
    static void name(int _i) {                                                                                         \
        (void)_i;
#define END_TEST }

#define ck_abort_msg(...)                                                                                              \
    do {                                                                                                               \
        printf("%s:%d: ", __FILE__, __LINE__);                                                                         \
        printf(__VA_ARGS__);                                                                                           \
        printf("\n");                                                                                                  \
        exit(1);                                                                                                       \
    } while (0)
#define ck_assert_msg(cond, ...)                                                                                       \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
        }                                                                                                              \
    } while (0)
#define ck_assert(cond) ck_assert_msg(cond, "assertion failed: %s", #cond)
#define CROSS_CMP(a, op, b) ck_assert_msg((a)op(b), "assertion failed: %s %s %s", #a, #op, #b)
#define ck_assert_int_eq(a, b) CROSS_CMP(a, ==, b)
#define ck_assert_int_ne(a, b) CROSS_CMP(a, !=, b)
#define ck_assert_int_lt(a, b) CROSS_CMP(a, <, b)
#define ck_assert_int_le(a, b) CROSS_CMP(a, <=, b)
#define ck_assert_int_gt(a, b) CROSS_CMP(a, >, b)
#define ck_assert_int_ge(a, b) CROSS_CMP(a, >=, b)
#define ck_assert_uint_eq(a, b) CROSS_CMP(a, ==, b)
#define ck_assert_uint_ne(a, b) CROSS_CMP(a, !=, b)
#define ck_assert_uint_gt(a, b) CROSS_CMP(a, >, b)
#define ck_assert_uint_ge(a, b) CROSS_CMP(a, >=, b)
#define ck_assert_uint_lt(a, b) CROSS_CMP(a, <, b)
#define ck_assert_uint_le(a, b) CROSS_CMP(a, <=, b)
#define ck_assert_float_eq(a, b) CROSS_CMP(a, ==, b)
#define ck_assert_ptr_nonnull(p) CROSS_CMP(p, !=, NULL)
#define ck_assert_ptr_null(p) CROSS_CMP(p, ==, NULL)
#define ck_assert_ptr_eq(a, b) CROSS_CMP(a, ==, b)
#define ck_assert_str_eq(a, b) ck_assert_msg(strcmp(a, b) == 0, "assertion failed: %s == %s", #a, #b)
#define ck_assert_double_eq_tol(a, b, tol)                                                                             \
    ck_assert_msg(fabs((double)(a) - (double)(b)) <= (double)(tol), "assertion failed: %s ~ %s", #a, #b)
#define ck_assert_float_eq_tol(a, b, tol) ck_assert_double_eq_tol(a, b, tol)

#endif
