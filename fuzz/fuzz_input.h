/* fuzz/fuzz_input.h: reading a libFuzzer input as a stream of choices, and reporting a broken
 * invariant. Shared by the fuzz targets (header only: each target is one translation unit).
 *
 * Reading past the end yields zeros, so every input is a complete program: libFuzzer's
 * mutations stay meaningful when they cut an input short. */
#ifndef RICOCHET_FUZZ_INPUT_H
#define RICOCHET_FUZZ_INPUT_H

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_input {
    const uint8_t *data;
    size_t size, pos;
} fz_input;

static inline bool fz_done(const fz_input *in) { return in->pos >= in->size; }

static inline uint8_t fz_u8(fz_input *in) { return in->pos < in->size ? in->data[in->pos++] : 0u; }

static inline uint32_t fz_u32(fz_input *in) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= (uint32_t)fz_u8(in) << (8 * i);
    }
    return v;
}

static inline bool fz_bool(fz_input *in) { return (fz_u8(in) & 1u) != 0; }

static inline float fz_bits(fz_input *in) {
    uint32_t u = fz_u32(in);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A float chosen by a selector byte: mostly small numbers on a 1/16 lattice (so that exact
 * coincidences -- touching, collinear, parallel -- happen often), sometimes a value of the
 * awkward kinds (signed zeros, denormals, the extremes, infinities, NaN) or any 32 bits. */
static inline float fz_float(fz_input *in) {
    uint8_t sel = fz_u8(in);
    switch (sel >> 4) {
    case 0: {
        static const float special[16] = {0.0f,    -0.0f,    1.0f,      -1.0f,    INFINITY,  -INFINITY,
                                          NAN,     FLT_MAX,  -FLT_MAX,  FLT_MIN,  1.0e-45f,  -1.0e-45f,
                                          1.0e-30f, 1.0e30f, 16777216.0f, 0.5f};
        return special[sel & 15u];
    }
    case 1:
        return fz_bits(in);
    case 2: /* large: +-(1..256) * 2^k for k up to 100 */
        return ldexpf((float)(int8_t)fz_u8(in), (int)(fz_u8(in) % 101u));
    case 3: /* tiny */
        return ldexpf((float)(int8_t)fz_u8(in), -(int)(fz_u8(in) % 140u));
    case 4: /* a small value with a random low bit pattern: near-coincidences */
        return (float)(int8_t)fz_u8(in) / 16.0f + (float)(int16_t)(fz_u8(in) | (fz_u8(in) << 8)) * 1.0e-7f;
    default: /* the lattice: -8 .. 8 in steps of 1/16 */
        return (float)(int8_t)fz_u8(in) / 16.0f;
    }
}

/* A float that is finite and of moderate size (for values a game would plausibly pass). */
static inline float fz_small(fz_input *in) {
    uint8_t sel = fz_u8(in);
    if (sel < 16) {
        static const float special[16] = {0.0f,   -0.0f,  1.0f,    -1.0f,   0.5f,    -0.5f,   1.0e-6f, -1.0e-6f,
                                          100.0f, -100.0f, 1000.0f, 0.25f,   2.0f,    -2.0f,   1.0e-3f, 10.0f};
        return special[sel];
    }
    return (float)(int8_t)fz_u8(in) / 8.0f;
}

/* A failed invariant: print it and abort, so libFuzzer keeps the input as a crash. */
static inline void fz_fail(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "\n==fuzz invariant broken==: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    abort();
}

#define FZ_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fz_fail(__VA_ARGS__);                                                                                      \
        }                                                                                                              \
    } while (0)

static inline bool fz_finite2(float x, float y) { return isfinite(x) && isfinite(y); }

#endif
