/* Cosine and sine without the C library, so that every compiler and optimisation level gives
 * the same bits: the argument is reduced by multiples of pi/2 in double precision (Cody-Waite,
 * the constant split in two so the product with the quadrant count is exact) and the
 * remainder, at most pi/4, goes through Taylor polynomials accurate far beyond float. Only
 * +, -, * and a float conversion are used, all correctly rounded IEEE operations. */
#include "shapes/shapes.h"

#include <math.h>
#include <string.h>

/* pi/2 split: the high part has its low 20 bits zero, so k * PIO2_HI is exact for |k| < 2^20. */
static const double PIO2_HI = 1.57079632673412561417e+00;
static const double PIO2_LO = 6.07710050650619224932e-11;
static const double TWO_OVER_PI = 6.36619772367581382433e-01;

/* The polynomials in x^2 are summed in Estrin's order, pairs of terms and then pairs of pairs,
 * not Horner's: the same terms, but a chain of four multiplications and additions instead of
 * eight, and the step waits for a body's rotation (a grenade pit's sweeps spent 4% of their time
 * here). The float results are the same as Horner's: 200,000,000 remainders in [-pi/4, pi/4]
 * compared, none differed. */
static double sin_poly(double x) {
    /* x - x^3/3! + ... - x^15/15!; the first omitted term is below 1e-17 for |x| <= pi/4 */
    double y = x * x, y2 = y * y, y4 = y2 * y2;
    double a = -1.0 / 6.0 + y * (1.0 / 120.0), b = -1.0 / 5040.0 + y * (1.0 / 362880.0);
    double c = -1.0 / 39916800.0 + y * (1.0 / 6227020800.0), d = -1.0 / 1307674368000.0;
    double p = (a + y2 * b) + y4 * (c + y2 * d);
    return x + x * y * p;
}

static double cos_poly(double x) {
    /* 1 - x^2/2! + ... + x^16/16! */
    double y = x * x, y2 = y * y, y4 = y2 * y2;
    double a = -0.5 + y * (1.0 / 24.0), b = -1.0 / 720.0 + y * (1.0 / 40320.0);
    double c = -1.0 / 3628800.0 + y * (1.0 / 479001600.0), d = -1.0 / 87178291200.0 + y * (1.0 / 20922789888000.0);
    double p = (a + y2 * b) + y4 * (c + y2 * d);
    return 1.0 + y * p;
}

rc_rot rc_rot_from_angle(float angle) {
    if (!rc_is_finite(angle)) {
        return RC_ROT_IDENTITY;
    }
    double x = (double)angle;
    if (x > 1.0e6 || x < -1.0e6) {
        /* fmod is exact on every platform; beyond this range a float angle has no fraction of a
           turn left to speak of anyway */
        x = fmod(x, 6.28318530717958647692);
    }
    double kf = x * TWO_OVER_PI;
    /* round half away from zero; a cast truncates identically everywhere */
    double k = (double)(int64_t)(kf + (kf >= 0.0 ? 0.5 : -0.5));
    double r = (x - k * PIO2_HI) - k * PIO2_LO;
    double s = sin_poly(r);
    double c = cos_poly(r);
    /* the quadrant picks (c, s), (-s, c), (-c, -s) or (s, -c), chosen on the bits with no
       branch: the bodies of a rolling pile turn through every quadrant, and a branch on it was
       3.6% of the grenade pit's time under perf */
    uint64_t quadrant = (uint64_t)(int64_t)k & 3u;
    uint64_t cb, sb;
    memcpy(&cb, &c, sizeof cb);
    memcpy(&sb, &s, sizeof sb);
    uint64_t swap = 0u - (quadrant & 1u);
    uint64_t first = (cb & ~swap) | (sb & swap), second = (sb & ~swap) | (cb & swap);
    first ^= ((quadrant + 1u) & 2u) << 62; /* negative in quadrants 1 and 2 */
    second ^= (quadrant & 2u) << 62;      /* negative in quadrants 2 and 3 */
    memcpy(&c, &first, sizeof c);
    memcpy(&s, &second, sizeof s);
    rc_rot q = {(float)c, (float)s};
    return q;
}
