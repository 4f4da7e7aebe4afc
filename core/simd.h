/* core/simd.h: four floats at a time, for the contact solver and the grid's ray walk.
 *
 * One type, rc_w, and the few operations the solver needs, on SSE2 (x86-64), NEON (arm64) or
 * plain C (anything else, or RICOCHET_NO_SIMD). Every operation is exactly rounded IEEE
 * arithmetic or a bit select, lane by lane, so the three give the same bits: min and max are
 * defined as the C expressions a < b ? a : b and a > b ? a : b (SSE's minps and maxps are
 * exactly that; NEON's vminq and vmaxq order -0 below +0 and are not used). No fused
 * multiply-add anywhere. Masks are lanes of all ones or all zeros. */
#ifndef RICOCHET_CORE_SIMD_H
#define RICOCHET_CORE_SIMD_H

#include <ricochet/math.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(RICOCHET_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define RC_SIMD_SSE2 1
#include <emmintrin.h>
#elif !defined(RICOCHET_NO_SIMD) && (defined(__ARM_NEON) || defined(__aarch64__))
#define RC_SIMD_NEON 1
#include <arm_neon.h>
#else
#define RC_SIMD_SCALAR 1
#endif

#define RC_LANES 4

#if RC_SIMD_SSE2

typedef __m128 rc_w;
static inline rc_w rc_w_set(float a) { return _mm_set1_ps(a); }
static inline rc_w rc_w_zero(void) { return _mm_setzero_ps(); }
static inline rc_w rc_w_load(const float *p) { return _mm_loadu_ps(p); }
static inline void rc_w_store(float *p, rc_w a) { _mm_storeu_ps(p, a); }
static inline rc_w rc_w_add(rc_w a, rc_w b) { return _mm_add_ps(a, b); }
static inline rc_w rc_w_sub(rc_w a, rc_w b) { return _mm_sub_ps(a, b); }
static inline rc_w rc_w_mul(rc_w a, rc_w b) { return _mm_mul_ps(a, b); }
static inline rc_w rc_w_min(rc_w a, rc_w b) { return _mm_min_ps(a, b); }
static inline rc_w rc_w_max(rc_w a, rc_w b) { return _mm_max_ps(a, b); }
static inline rc_w rc_w_gt(rc_w a, rc_w b) { return _mm_cmpgt_ps(a, b); }
static inline rc_w rc_w_ge(rc_w a, rc_w b) { return _mm_cmpge_ps(a, b); }
/* mask ? a : b */
static inline rc_w rc_w_select(rc_w mask, rc_w a, rc_w b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
static inline rc_w rc_w_or(rc_w a, rc_w b) { return _mm_or_ps(a, b); }
static inline rc_w rc_w_div(rc_w a, rc_w b) { return _mm_div_ps(a, b); }
static inline rc_w rc_w_sqrt(rc_w a) { return _mm_sqrt_ps(a); }
/* -a: the sign flipped (of a zero too), as C's unary minus */
static inline rc_w rc_w_neg(rc_w a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }

#elif RC_SIMD_NEON

typedef float32x4_t rc_w;
static inline rc_w rc_w_set(float a) { return vdupq_n_f32(a); }
static inline rc_w rc_w_zero(void) { return vdupq_n_f32(0.0f); }
static inline rc_w rc_w_load(const float *p) { return vld1q_f32(p); }
static inline void rc_w_store(float *p, rc_w a) { vst1q_f32(p, a); }
static inline rc_w rc_w_add(rc_w a, rc_w b) { return vaddq_f32(a, b); }
static inline rc_w rc_w_sub(rc_w a, rc_w b) { return vsubq_f32(a, b); }
static inline rc_w rc_w_mul(rc_w a, rc_w b) { return vmulq_f32(a, b); }
static inline rc_w rc_w_min(rc_w a, rc_w b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
static inline rc_w rc_w_max(rc_w a, rc_w b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
static inline rc_w rc_w_gt(rc_w a, rc_w b) { return vreinterpretq_f32_u32(vcgtq_f32(a, b)); }
static inline rc_w rc_w_ge(rc_w a, rc_w b) { return vreinterpretq_f32_u32(vcgeq_f32(a, b)); }
static inline rc_w rc_w_select(rc_w mask, rc_w a, rc_w b) { return vbslq_f32(vreinterpretq_u32_f32(mask), a, b); }
static inline rc_w rc_w_or(rc_w a, rc_w b) {
    return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
static inline rc_w rc_w_neg(rc_w a) { return vnegq_f32(a); }
#if defined(__aarch64__)
static inline rc_w rc_w_div(rc_w a, rc_w b) { return vdivq_f32(a, b); }
static inline rc_w rc_w_sqrt(rc_w a) { return vsqrtq_f32(a); }
#else
/* (32-bit NEON has neither: lane by lane, the same correctly rounded operations) */
static inline rc_w rc_w_div(rc_w a, rc_w b) {
    float x[4], y[4];
    vst1q_f32(x, a);
    vst1q_f32(y, b);
    for (int i = 0; i < 4; ++i) {
        x[i] = x[i] / y[i];
    }
    return vld1q_f32(x);
}
static inline rc_w rc_w_sqrt(rc_w a) {
    float x[4];
    vst1q_f32(x, a);
    for (int i = 0; i < 4; ++i) {
        x[i] = sqrtf(x[i]);
    }
    return vld1q_f32(x);
}
#endif

#else

typedef struct rc_w {
    float v[RC_LANES];
} rc_w;
static inline rc_w rc_w_set(float a) {
    rc_w r = {{a, a, a, a}};
    return r;
}
static inline rc_w rc_w_zero(void) { return rc_w_set(0.0f); }
static inline rc_w rc_w_load(const float *p) {
    rc_w r;
    memcpy(r.v, p, sizeof r.v);
    return r;
}
static inline void rc_w_store(float *p, rc_w a) { memcpy(p, a.v, sizeof a.v); }
#define RC_W_LANEWISE(name, expr)                                                                                     \
    static inline rc_w name(rc_w a, rc_w b) {                                                                          \
        rc_w r;                                                                                                        \
        for (int i = 0; i < RC_LANES; ++i) {                                                                           \
            r.v[i] = (expr);                                                                                           \
        }                                                                                                              \
        return r;                                                                                                      \
    }
RC_W_LANEWISE(rc_w_add, a.v[i] + b.v[i])
RC_W_LANEWISE(rc_w_sub, a.v[i] - b.v[i])
RC_W_LANEWISE(rc_w_mul, a.v[i] * b.v[i])
RC_W_LANEWISE(rc_w_min, a.v[i] < b.v[i] ? a.v[i] : b.v[i])
RC_W_LANEWISE(rc_w_max, a.v[i] > b.v[i] ? a.v[i] : b.v[i])
RC_W_LANEWISE(rc_w_div, a.v[i] / b.v[i])
static inline rc_w rc_w_sqrt(rc_w a) {
    rc_w r;
    for (int i = 0; i < RC_LANES; ++i) {
        r.v[i] = sqrtf(a.v[i]);
    }
    return r;
}
static inline rc_w rc_w_neg(rc_w a) {
    rc_w r;
    for (int i = 0; i < RC_LANES; ++i) {
        r.v[i] = -a.v[i];
    }
    return r;
}
#undef RC_W_LANEWISE
/* masks as floats whose bits are all ones (a NaN, never computed with) or all zeros */
static inline float rc_w_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint32_t rc_w_u32(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline rc_w rc_w_gt(rc_w a, rc_w b) {
    rc_w r;
    for (int i = 0; i < RC_LANES; ++i) {
        r.v[i] = rc_w_bits(a.v[i] > b.v[i] ? 0xffffffffu : 0u);
    }
    return r;
}
static inline rc_w rc_w_ge(rc_w a, rc_w b) {
    rc_w r;
    for (int i = 0; i < RC_LANES; ++i) {
        r.v[i] = rc_w_bits(a.v[i] >= b.v[i] ? 0xffffffffu : 0u);
    }
    return r;
}
static inline rc_w rc_w_select(rc_w mask, rc_w a, rc_w b) {
    rc_w r;
    for (int i = 0; i < RC_LANES; ++i) {
        r.v[i] = rc_w_u32(mask.v[i]) != 0u ? a.v[i] : b.v[i];
    }
    return r;
}
static inline rc_w rc_w_or(rc_w a, rc_w b) {
    rc_w r;
    for (int i = 0; i < RC_LANES; ++i) {
        r.v[i] = rc_w_bits(rc_w_u32(a.v[i]) | rc_w_u32(b.v[i]));
    }
    return r;
}

#endif

/* Four quads of 16-bit integers (quad i is q[i][0..3]) as four vectors: lane i of out[k] is
 * q[i][k], exactly (every 16-bit integer is a float). The grid's ray walk reads the quantised
 * boxes of a cell's four inline entries this way, to test all four at once. */
static inline void rc_w_u16_quads(const uint16_t q[RC_LANES][4], rc_w out[4]) {
#if RC_SIMD_SSE2
    __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)q[0]);
    __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)q[2]);
    __m128i t0 = _mm_unpacklo_epi16(v0, v1), t1 = _mm_unpackhi_epi16(v0, v1);
    __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
    __m128i zero = _mm_setzero_si128();
    out[0] = _mm_cvtepi32_ps(_mm_unpacklo_epi16(u0, zero));
    out[1] = _mm_cvtepi32_ps(_mm_unpackhi_epi16(u0, zero));
    out[2] = _mm_cvtepi32_ps(_mm_unpacklo_epi16(u1, zero));
    out[3] = _mm_cvtepi32_ps(_mm_unpackhi_epi16(u1, zero));
#elif RC_SIMD_NEON
    uint16x4x4_t v = vld4_u16(&q[0][0]);
    for (int k = 0; k < 4; ++k) {
        out[k] = vcvtq_f32_u32(vmovl_u16(v.val[k]));
    }
#else
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < RC_LANES; ++i) {
            out[k].v[i] = (float)q[i][k];
        }
    }
#endif
}

/* Four points in a row as their x's and their y's, exactly. (An rc_vec2 is two floats with no
 * padding: the vector loads read the four as eight floats.) */
_Static_assert(sizeof(rc_vec2) == 2 * sizeof(float), "an rc_vec2 is two floats");
static inline void rc_w_load_xy(const rc_vec2 *p, rc_w *x, rc_w *y) {
#if RC_SIMD_SSE2
    const float *xy = (const float *)(const void *)p;
    __m128 lo = _mm_loadu_ps(xy), hi = _mm_loadu_ps(xy + 4);
    *x = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    *y = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
#elif RC_SIMD_NEON
    float32x4x2_t v = vld2q_f32((const float *)(const void *)p);
    *x = v.val[0];
    *y = v.val[1];
#else
    for (int i = 0; i < RC_LANES; ++i) {
        x->v[i] = p[i].x;
        y->v[i] = p[i].y;
    }
#endif
}

/* Bit i set where lane i of a is <= lane i of b. */
static inline uint32_t rc_w_le_bits(rc_w a, rc_w b) {
#if RC_SIMD_SSE2
    return (uint32_t)_mm_movemask_ps(_mm_cmple_ps(a, b));
#elif RC_SIMD_NEON
    uint32x4_t m = vcleq_f32(a, b);
    return (vgetq_lane_u32(m, 0) & 1u) | (vgetq_lane_u32(m, 1) & 2u) | (vgetq_lane_u32(m, 2) & 4u) |
           (vgetq_lane_u32(m, 3) & 8u);
#else
    uint32_t bits = 0u;
    for (int i = 0; i < RC_LANES; ++i) {
        bits |= (a.v[i] <= b.v[i] ? 1u : 0u) << i;
    }
    return bits;
#endif
}

/* Lane i of a vector, as a float to read or write (the vector types allow access through a
 * float pointer: SSE's and NEON's are declared may-alias, the plain one is an array). */
#define RC_LANE(w, i) (((float *)&(w))[i])

/* Is some lane of a mask set? (A pass may skip a block whose every lane it would leave as is.) */
static inline int rc_w_any(rc_w mask) {
    uint32_t any = 0u;
    for (int i = 0; i < RC_LANES; ++i) {
        uint32_t u;
        memcpy(&u, &RC_LANE(mask, i), sizeof u);
        any |= u;
    }
    return any != 0u;
}

/* A mask of all ones in the lanes where flag[i] is set. */
static inline rc_w rc_w_mask(const uint8_t flag[RC_LANES]) {
    float f[RC_LANES];
    for (int i = 0; i < RC_LANES; ++i) {
        uint32_t u = flag[i] ? 0xffffffffu : 0u;
        memcpy(&f[i], &u, sizeof u);
    }
    return rc_w_load(f);
}

#endif
