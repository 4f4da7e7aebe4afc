/* core/simd_avx.h: eight floats at a time, for the contact solver's passes on x86-64 processors
 * with AVX.
 *
 * The same names as core/simd.h (rc_w, RC_LANES, the operations the solver uses, RC_LANE,
 * rc_w_any), for the one file compiled with -mavx (world/contact_solver_avx.c); include one or
 * the other, never both. Every operation is the exactly rounded IEEE operation or the bit
 * select of core/simd.h, lane by lane, so a lane here gives the bits a lane there does: min and
 * max are vminps and vmaxps (a < b ? a : b and a > b ? a : b, as SSE's), the comparisons are
 * ordered and quiet (false with a NaN, as SSE's), and there is no fused multiply-add (AVX has
 * none; FMA is another extension, never enabled here). */
#ifndef RICOCHET_CORE_SIMD_AVX_H
#define RICOCHET_CORE_SIMD_AVX_H

/* (a compilation without -mavx fails at the first intrinsic: the target has no AVX) */
#ifdef RICOCHET_CORE_SIMD_H
#error "core/simd.h and core/simd_avx.h name the same things: include one of them"
#endif

#include <ricochet/math.h>

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define RC_SIMD_AVX 1
#define RC_LANES 8

typedef __m256 rc_w;
static inline rc_w rc_w_set(float a) { return _mm256_set1_ps(a); }
static inline rc_w rc_w_zero(void) { return _mm256_setzero_ps(); }
static inline rc_w rc_w_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void rc_w_store(float *p, rc_w a) { _mm256_storeu_ps(p, a); }
static inline rc_w rc_w_add(rc_w a, rc_w b) { return _mm256_add_ps(a, b); }
static inline rc_w rc_w_sub(rc_w a, rc_w b) { return _mm256_sub_ps(a, b); }
static inline rc_w rc_w_mul(rc_w a, rc_w b) { return _mm256_mul_ps(a, b); }
static inline rc_w rc_w_min(rc_w a, rc_w b) { return _mm256_min_ps(a, b); }
static inline rc_w rc_w_max(rc_w a, rc_w b) { return _mm256_max_ps(a, b); }
static inline rc_w rc_w_gt(rc_w a, rc_w b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline rc_w rc_w_ge(rc_w a, rc_w b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
/* mask ? a : b */
static inline rc_w rc_w_select(rc_w mask, rc_w a, rc_w b) {
    return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b));
}
static inline rc_w rc_w_or(rc_w a, rc_w b) { return _mm256_or_ps(a, b); }
static inline rc_w rc_w_div(rc_w a, rc_w b) { return _mm256_div_ps(a, b); }
static inline rc_w rc_w_sqrt(rc_w a) { return _mm256_sqrt_ps(a); }
/* -a: the sign flipped (of a zero too), as C's unary minus */
static inline rc_w rc_w_neg(rc_w a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }

/* Eight points in a row as their x's and their y's, exactly (an rc_vec2 is two floats). */
static inline void rc_w_load_xy(const rc_vec2 *p, rc_w *x, rc_w *y) {
    const float *xy = (const float *)(const void *)p;
    __m256 lo = _mm256_loadu_ps(xy), hi = _mm256_loadu_ps(xy + 8);
    /* points 0, 1, 4, 5 and 2, 3, 6, 7, then their x's and y's in order */
    __m256 a = _mm256_permute2f128_ps(lo, hi, 0x20), b = _mm256_permute2f128_ps(lo, hi, 0x31);
    *x = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    *y = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
}

/* Lane i of a vector, as a float to read or write (__m256 is declared may-alias). */
#define RC_LANE(w, i) (((float *)&(w))[i])

/* Is some lane of a mask set? */
static inline int rc_w_any(rc_w mask) { return _mm256_movemask_ps(mask) != 0; }

#endif
