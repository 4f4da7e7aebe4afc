/* world/state_lanes.h: the solver states of RC_LANES bodies in and out of the lanes (gather,
 * scatter), for the contact solver's blocks (world/contact_lanes.h, at either width) and the
 * joints' (world/joint_solver.c, four lanes). Included after core/simd.h, core/simd_avx.h or
 * core/simd_avx512.h, whose RC_LANES it takes. */
#ifndef RICOCHET_WORLD_STATE_LANES_H
#define RICOCHET_WORLD_STATE_LANES_H

#include "world/solver.h"

#include <string.h>

typedef struct wide_body {
    rc_w vx, vy, w, spare, dpx, dpy, qc, qs;
} wide_body;

_Static_assert(sizeof(rc_body_state) == 8 * sizeof(float), "a body state is eight floats in a row");

/* The lanes name their states by byte offsets from the step's first state (rc_state_offset):
 * four bytes a lane where a pointer took eight, and still one load and an addressing mode away
 * from the state (an index was a load, a shift and an add). Every pass reads its blocks' offsets:
 * a block of eight lanes is 1,344 bytes with them, 1,472 with pointers. The step refuses a world
 * whose states they would not reach (step.c: reserve_scratch). */
static inline uint32_t rc_state_offset(int32_t index) { return (uint32_t)index * (uint32_t)sizeof(rc_body_state); }

static inline const rc_body_state *state_at(const rc_body_state *base, uint32_t offset) {
    return (const rc_body_state *)(const void *)((const char *)base + offset);
}

static inline rc_body_state *state_at_mut(rc_body_state *base, uint32_t offset) {
    return (rc_body_state *)(void *)((char *)base + offset);
}

#if defined(RC_SIMD_AVX) || defined(RC_SIMD_AVX512)

/* Eight rows of eight floats as eight columns (its own inverse): pairs of rows interleaved,
 * then fours, column k of rows 0-3 in the low half of s[k % 4] for k < 4 and in its high half
 * for k >= 4, rows 4-7 likewise in s[4 + k % 4]; then the halves joined. */
static inline void transpose8(__m256 r[8]) {
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)), s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)), s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/* Eight states in, as one 8 x 8 transpose (a state is eight floats: one load a lane): r[k] is
 * field k of the eight. */
static inline void gather8(const rc_body_state *base, const uint32_t from[8], __m256 r[8]) {
    for (int lane = 0; lane < 8; ++lane) {
        r[lane] = _mm256_loadu_ps(&state_at(base, from[lane])->v.x);
    }
    transpose8(r);
}

/* Eight lanes' velocities back (with the turn so far, unchanged), each half of them as a 4 x 4
 * transpose: a lane whose side does not move stores into the sink. */
static inline void scatter8(rc_body_state *base, const uint32_t store[8], __m256 vx, __m256 vy, __m256 w) {
    for (int half = 0; half < 2; ++half) {
        __m128 x = half ? _mm256_extractf128_ps(vx, 1) : _mm256_castps256_ps128(vx);
        __m128 y = half ? _mm256_extractf128_ps(vy, 1) : _mm256_castps256_ps128(vy);
        __m128 z = half ? _mm256_extractf128_ps(w, 1) : _mm256_castps256_ps128(w);
        __m128 t = z; /* the spare gets w */
        _MM_TRANSPOSE4_PS(x, y, z, t);
        _mm_storeu_ps(&state_at_mut(base, store[4 * half + 0])->v.x, x);
        _mm_storeu_ps(&state_at_mut(base, store[4 * half + 1])->v.x, y);
        _mm_storeu_ps(&state_at_mut(base, store[4 * half + 2])->v.x, z);
        _mm_storeu_ps(&state_at_mut(base, store[4 * half + 3])->v.x, t);
    }
}

/* Eight lanes' whole states back (the integrations'): r[k] is field k of the eight. */
static inline void scatter_all8(rc_body_state *base, const uint32_t store[8], __m256 r[8]) {
    transpose8(r);
    for (int lane = 0; lane < 8; ++lane) {
        _mm256_storeu_ps(&state_at_mut(base, store[lane])->v.x, r[lane]);
    }
}

#endif

#if defined(RC_SIMD_AVX)

static inline wide_body gather(const rc_body_state *base, const uint32_t from[RC_LANES]) {
    __m256 r[8];
    gather8(base, from, r);
    wide_body w = {r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]};
    return w;
}

static inline void scatter(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    scatter8(base, store, w->vx, w->vy, w->w);
}

/* The whole of each state back (the integrations'). */
static inline void scatter_all(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    __m256 r[8] = {w->vx, w->vy, w->w, w->spare, w->dpx, w->dpy, w->qc, w->qs};
    scatter_all8(base, store, r);
}

#elif defined(RC_SIMD_AVX512)

/* Sixteen lanes: the first eight and the last eight each as the eight-lane ones, joined into the
 * halves of each field (and split from them going back). */
static inline __m512 join8(__m256 lo, __m256 hi) { return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1); }
static inline __m256 low8(__m512 a) { return _mm512_castps512_ps256(a); }
static inline __m256 high8(__m512 a) { return _mm512_extractf32x8_ps(a, 1); }

static inline wide_body gather(const rc_body_state *base, const uint32_t from[RC_LANES]) {
    __m256 lo[8], hi[8];
    gather8(base, from, lo);
    gather8(base, from + 8, hi);
    wide_body w = {join8(lo[0], hi[0]), join8(lo[1], hi[1]), join8(lo[2], hi[2]), join8(lo[3], hi[3]),
                   join8(lo[4], hi[4]), join8(lo[5], hi[5]), join8(lo[6], hi[6]), join8(lo[7], hi[7])};
    return w;
}

static inline void scatter(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    scatter8(base, store, low8(w->vx), low8(w->vy), low8(w->w));
    scatter8(base, store + 8, high8(w->vx), high8(w->vy), high8(w->w));
}

static inline void scatter_all(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    __m256 lo[8] = {low8(w->vx), low8(w->vy), low8(w->w), low8(w->spare),
                    low8(w->dpx), low8(w->dpy), low8(w->qc), low8(w->qs)};
    __m256 hi[8] = {high8(w->vx), high8(w->vy), high8(w->w), high8(w->spare),
                    high8(w->dpx), high8(w->dpy), high8(w->qc), high8(w->qs)};
    scatter_all8(base, store, lo);
    scatter_all8(base, store + 8, hi);
}

#elif RC_SIMD_SSE2

/* Four states in, as two 4 x 4 transposes of their two halves. */
static inline wide_body gather(const rc_body_state *base, const uint32_t from[RC_LANES]) {
    const float *p0 = &state_at(base, from[0])->v.x, *p1 = &state_at(base, from[1])->v.x;
    const float *p2 = &state_at(base, from[2])->v.x, *p3 = &state_at(base, from[3])->v.x;
    __m128 a0 = _mm_loadu_ps(p0), a1 = _mm_loadu_ps(p1), a2 = _mm_loadu_ps(p2), a3 = _mm_loadu_ps(p3);
    __m128 b0 = _mm_loadu_ps(p0 + 4), b1 = _mm_loadu_ps(p1 + 4), b2 = _mm_loadu_ps(p2 + 4), b3 = _mm_loadu_ps(p3 + 4);
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
    wide_body w = {a0, a1, a2, a3, b0, b1, b2, b3};
    return w;
}

/* Velocities back (with the turn so far, unchanged): a lane whose side does not move stores
 * into the sink, which costs less than a branch per lane. */
static inline void scatter(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    __m128 x = w->vx, y = w->vy, z = w->w, t = w->w; /* the spare gets w */
    _MM_TRANSPOSE4_PS(x, y, z, t);
    _mm_storeu_ps(&state_at_mut(base, store[0])->v.x, x);
    _mm_storeu_ps(&state_at_mut(base, store[1])->v.x, y);
    _mm_storeu_ps(&state_at_mut(base, store[2])->v.x, z);
    _mm_storeu_ps(&state_at_mut(base, store[3])->v.x, t);
}

/* The whole of each state back (the integrations'): the two halves' transposes. */
static inline void scatter_all(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    __m128 a0 = w->vx, a1 = w->vy, a2 = w->w, a3 = w->spare, b0 = w->dpx, b1 = w->dpy, b2 = w->qc, b3 = w->qs;
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
    __m128 a[4] = {a0, a1, a2, a3}, b[4] = {b0, b1, b2, b3};
    for (int lane = 0; lane < 4; ++lane) {
        rc_body_state *to = state_at_mut(base, store[lane]);
        _mm_storeu_ps(&to->v.x, a[lane]);
        _mm_storeu_ps(&to->dp.x, b[lane]);
    }
}

#else

static inline wide_body gather(const rc_body_state *base, const uint32_t from[RC_LANES]) {
    wide_body w;
    memset(&w, 0, sizeof w); /* every lane is written below; this says so to the analysers */
    for (int lane = 0; lane < RC_LANES; ++lane) {
        const rc_body_state *b = state_at(base, from[lane]);
        RC_LANE(w.vx, lane) = b->v.x;
        RC_LANE(w.vy, lane) = b->v.y;
        RC_LANE(w.w, lane) = b->w;
        RC_LANE(w.spare, lane) = b->spare;
        RC_LANE(w.dpx, lane) = b->dp.x;
        RC_LANE(w.dpy, lane) = b->dp.y;
        RC_LANE(w.qc, lane) = b->dq.c;
        RC_LANE(w.qs, lane) = b->dq.s;
    }
    return w;
}

static inline void scatter(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    for (int lane = 0; lane < RC_LANES; ++lane) {
        rc_body_state *b = state_at_mut(base, store[lane]);
        b->v.x = RC_LANE(w->vx, lane);
        b->v.y = RC_LANE(w->vy, lane);
        b->w = RC_LANE(w->w, lane);
    }
}

static inline void scatter_all(rc_body_state *base, const uint32_t store[RC_LANES], const wide_body *w) {
    scatter(base, store, w);
    for (int lane = 0; lane < RC_LANES; ++lane) {
        rc_body_state *b = state_at_mut(base, store[lane]);
        b->spare = RC_LANE(w->spare, lane);
        b->dp.x = RC_LANE(w->dpx, lane);
        b->dp.y = RC_LANE(w->dpy, lane);
        b->dq.c = RC_LANE(w->qc, lane);
        b->dq.s = RC_LANE(w->qs, lane);
    }
}

#endif

#endif
