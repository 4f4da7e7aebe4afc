/* The contact solver's packing and passes eight contacts at a time (core/simd_avx.h), for
 * x86-64 processors with AVX: contact_solver.c compiled again with RC_SOLVER_AVX. CMake gives
 * this file -mavx and RC_SOLVER_BUILD_AVX where the compiler can (GCC or Clang on x86-64), and
 * the library RICOCHET_SOLVER_AVX_BUILT with it; elsewhere (and with RICOCHET_NO_SIMD) it
 * compiles to nothing.
 * rc_solve_soft_step runs these passes only where rc_solver_widest_lanes found AVX. */
#if defined(RC_SOLVER_BUILD_AVX) && !defined(RICOCHET_NO_SIMD)
#define RC_SOLVER_AVX 1
#include "world/contact_solver.c" /* NOLINT(bugprone-suspicious-include): the same file at another width */
#else
typedef int rc_contact_solver_avx_not_built; /* (an empty file is not C) */
#endif
