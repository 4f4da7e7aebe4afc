/* core/simd_avx512.h: sixteen floats at a time, for the contact solver's passes on x86-64
 * processors with AVX-512 (its foundation and its doubleword and quadword instructions).
 *
 * The same names as core/simd.h and core/simd_avx.h (rc_w, RC_LANES, the operations the solver
 * uses, RC_LANE, rc_w_any), for the one file compiled with -mavx512f -mavx512dq
 * (world/contact_solver_avx512.c); include one of the three, never two. Every operation is the
 * exactly rounded IEEE operation or the bit select of core/simd.h, lane by lane, so a lane here
 * gives the bits a lane there does: min and max are vminps and vmaxps (a < b ? a : b and
 * a > b ? a : b, as SSE's), the comparisons are ordered and quiet (false with a NaN, as SSE's)
 * and give a vector of all-ones lanes as SSE's do, and no multiply and add is fused (AVX-512 has
 * fused ones; the build's -ffp-contract=off keeps the compiler from making them, and the
 * solver's file is not auto-vectorised: CMakeLists.txt). */
#ifndef RICOCHET_CORE_SIMD_AVX512_H
#define RICOCHET_CORE_SIMD_AVX512_H

/* (a compilation without -mavx512f fails at the first intrinsic: the target has no AVX-512) */
#if defined(RICOCHET_CORE_SIMD_H) || defined(RICOCHET_CORE_SIMD_AVX_H)
#error "core/simd.h, core/simd_avx.h and core/simd_avx512.h name the same things: include one of them"
#endif

#include <ricochet/math.h>

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define RC_SIMD_AVX512 1
#define RC_LANES 16

typedef __m512 rc_w;
static inline rc_w rc_w_set(float a) { return _mm512_set1_ps(a); }
static inline rc_w rc_w_zero(void) { return _mm512_setzero_ps(); }
static inline rc_w rc_w_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void rc_w_store(float *p, rc_w a) { _mm512_storeu_ps(p, a); }
static inline rc_w rc_w_add(rc_w a, rc_w b) { return _mm512_add_ps(a, b); }
static inline rc_w rc_w_sub(rc_w a, rc_w b) { return _mm512_sub_ps(a, b); }
static inline rc_w rc_w_mul(rc_w a, rc_w b) { return _mm512_mul_ps(a, b); }
static inline rc_w rc_w_min(rc_w a, rc_w b) { return _mm512_min_ps(a, b); }
static inline rc_w rc_w_max(rc_w a, rc_w b) { return _mm512_max_ps(a, b); }
/* a comparison's mask register as a vector: all ones where it holds */
static inline rc_w rc_w_from_mask(__mmask16 m) { return _mm512_castsi512_ps(_mm512_movm_epi32(m)); }
static inline rc_w rc_w_gt(rc_w a, rc_w b) { return rc_w_from_mask(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)); }
static inline rc_w rc_w_ge(rc_w a, rc_w b) { return rc_w_from_mask(_mm512_cmp_ps_mask(a, b, _CMP_GE_OQ)); }
/* mask ? a : b, bit by bit */
static inline rc_w rc_w_select(rc_w mask, rc_w a, rc_w b) {
    return _mm512_or_ps(_mm512_and_ps(mask, a), _mm512_andnot_ps(mask, b));
}
static inline rc_w rc_w_or(rc_w a, rc_w b) { return _mm512_or_ps(a, b); }
static inline rc_w rc_w_div(rc_w a, rc_w b) { return _mm512_div_ps(a, b); }
static inline rc_w rc_w_sqrt(rc_w a) { return _mm512_sqrt_ps(a); }
/* -a: the sign flipped (of a zero too), as C's unary minus */
static inline rc_w rc_w_neg(rc_w a) { return _mm512_xor_ps(a, _mm512_set1_ps(-0.0f)); }

/* Sixteen points in a row as their x's and their y's, exactly (an rc_vec2 is two floats). */
static inline void rc_w_load_xy(const rc_vec2 *p, rc_w *x, rc_w *y) {
    const float *xy = (const float *)(const void *)p;
    __m512 lo = _mm512_loadu_ps(xy), hi = _mm512_loadu_ps(xy + 16);
    /* the even floats of the 32 (index 16 and on: hi's), then the odd ones */
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    *x = _mm512_permutex2var_ps(lo, even, hi);
    *y = _mm512_permutex2var_ps(lo, odd, hi);
}

/* Lane i of a vector, as a float to read or write (__m512 is declared may-alias). */
#define RC_LANE(w, i) (((float *)&(w))[i])

/* Is some lane of a mask set? */
static inline int rc_w_any(rc_w mask) { return _mm512_movepi32_mask(_mm512_castps_si512(mask)) != 0; }

#endif
