/* Which width of the contact solver runs: four lanes everywhere (contact_solver.c as itself),
 * eight where the library has its AVX passes and the processor has AVX (contact_solver_avx.c),
 * sixteen where it has its AVX-512 passes and the processor has AVX-512 F and DQ
 * (contact_solver_avx512.c). Every width computes the same bits; the widest is the fastest
 * (bench/RESULTS.md, stop 75). The choice is made at run time because one build of the
 * library serves every x86-64 processor. */
#if defined(RICOCHET_NO_SIMD) && defined(RICOCHET_SOLVER_AVX_BUILT)
#undef RICOCHET_SOLVER_AVX_BUILT /* (plain C lanes asked for: no AVX either) */
#endif
#if defined(RICOCHET_NO_SIMD) && defined(RICOCHET_SOLVER_AVX512_BUILT)
#undef RICOCHET_SOLVER_AVX512_BUILT
#endif

#include "world/solver.h"

int32_t rc_solver_widest_lanes(void) {
#if defined(RICOCHET_SOLVER_AVX512_BUILT) && (defined(__GNUC__) || defined(__clang__))
    /* (the processor's and its operating system's: GCC's and Clang's check looks at both) */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
        return RC_SOLVER_WIDEST_LANES;
    }
#endif
#if defined(RICOCHET_SOLVER_AVX_BUILT) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx") ? RC_SOLVER_WIDE_LANES : RC_SOLVER_LANES;
#else
    return RC_SOLVER_LANES;
#endif
}

static size_t block_bytes(int32_t lanes) {
#ifdef RICOCHET_SOLVER_AVX512_BUILT
    if (lanes == RC_SOLVER_WIDEST_LANES) {
        return rc_solver_widest_block_bytes();
    }
#endif
#ifdef RICOCHET_SOLVER_AVX_BUILT
    if (lanes == RC_SOLVER_WIDE_LANES) {
        return rc_solver_wide_block_bytes();
    }
#endif
    (void)lanes;
    return rc_solver_narrow_block_bytes();
}

int32_t rc_solver_block_lines(int32_t lanes, int32_t blocks) {
    size_t bytes = block_bytes(lanes) * (size_t)blocks;
    return (int32_t)((bytes + sizeof(rc_solver_line) - 1u) / sizeof(rc_solver_line));
}

void rc_solve_soft_step(rc_soft_step *s) {
#ifdef RICOCHET_SOLVER_AVX512_BUILT
    if (s->lanes == RC_SOLVER_WIDEST_LANES) {
        rc_solve_soft_step_avx512(s);
        return;
    }
#endif
#ifdef RICOCHET_SOLVER_AVX_BUILT
    if (s->lanes == RC_SOLVER_WIDE_LANES) {
        rc_solve_soft_step_avx(s);
        return;
    }
#endif
    rc_solve_soft_step_narrow(s);
}
