/* bench/bench_clock.h: the wall clock the small ricochet-only bench programs (level_size,
 * snapshot_cost, compound_build) time with. Each defines _POSIX_C_SOURCE 199309L before its
 * first include, for clock_gettime. */
#ifndef RICOCHET_BENCH_CLOCK_H
#define RICOCHET_BENCH_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock. */
static inline double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
