/* The contact solver's packing and passes sixteen contacts at a time (core/simd_avx512.h), for
 * x86-64 processors with AVX-512 (F and DQ): contact_solver.c compiled again with RC_SOLVER_AVX
 * and RC_SOLVER_AVX512. CMake gives this file -mavx512f -mavx512dq and RC_SOLVER_BUILD_AVX512
 * where the compiler can (GCC or Clang on x86-64), and the library RICOCHET_SOLVER_AVX512_BUILT
 * with it; elsewhere (and with RICOCHET_NO_SIMD) it compiles to nothing.
 * rc_solve_soft_step runs these passes only where rc_solver_widest_lanes found AVX-512. */
#if defined(RC_SOLVER_BUILD_AVX512) && !defined(RICOCHET_NO_SIMD)
#define RC_SOLVER_AVX 1
#define RC_SOLVER_AVX512 1
#include "world/contact_solver.c" /* NOLINT(bugprone-suspicious-include): the same file at another width */
#else
typedef int rc_contact_solver_avx512_not_built; /* (an empty file is not C) */
#endif
