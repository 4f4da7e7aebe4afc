/* ricochet: math.h
 * Vectors, rotations, rigid transforms and boxes. Plain structs passed by value; the small
 * helpers are inline. Angles are in radians, counter-clockwise positive; y points up in the
 * samples but nothing in the library depends on that. */
#ifndef RICOCHET_MATH_H
#define RICOCHET_MATH_H

#include "base.h"

#include <float.h>
#include <math.h>

RC_EXTERN_C_BEGIN

/* A 2D vector or point. */
typedef struct rc_vec2 {
    float x, y;
} rc_vec2;

/* A rotation stored as its cosine and sine. Build one with rc_rot_from_angle. */
typedef struct rc_rot {
    float c, s;
} rc_rot;

/* A rigid transform: rotate by q, then translate by p. */
typedef struct rc_transform {
    rc_vec2 p;
    rc_rot q;
} rc_transform;

/* An axis-aligned box. Valid when lower <= upper on both axes. */
typedef struct rc_aabb {
    rc_vec2 lower, upper;
} rc_aabb;

#define RC_PI 3.14159265358979323846f

/* The identity rotation and transform. */
#define RC_ROT_IDENTITY ((rc_rot){1.0f, 0.0f})
#define RC_TRANSFORM_IDENTITY ((rc_transform){{0.0f, 0.0f}, {1.0f, 0.0f}})

/* Cosine and sine of an angle in radians. The result is the same bits on every compiler and
 * optimisation level (it uses no C library call), which the world's determinism rests on.
 * Accurate to about one float ulp for |angle| up to 1e5; the result is exactly unit length
 * within float rounding. Non-finite angles give the identity. */
RC_API rc_rot rc_rot_from_angle(float angle);

RC_INLINE rc_vec2 rc_v2(float x, float y) {
    rc_vec2 v = {x, y};
    return v;
}
RC_INLINE rc_vec2 rc_add(rc_vec2 a, rc_vec2 b) { return rc_v2(a.x + b.x, a.y + b.y); }
RC_INLINE rc_vec2 rc_sub(rc_vec2 a, rc_vec2 b) { return rc_v2(a.x - b.x, a.y - b.y); }
/* Negation and the perpendiculars subtract from +0 so that a zero component stays +0 (a normal
 * of (-1, -0) prints badly and compares equal anyway). */
RC_INLINE rc_vec2 rc_neg(rc_vec2 a) { return rc_v2(0.0f - a.x, 0.0f - a.y); }
/* s * v */
RC_INLINE rc_vec2 rc_scale(float s, rc_vec2 v) { return rc_v2(s * v.x, s * v.y); }
/* a + s * b */
RC_INLINE rc_vec2 rc_mul_add(rc_vec2 a, float s, rc_vec2 b) { return rc_v2(a.x + s * b.x, a.y + s * b.y); }
RC_INLINE float rc_dot(rc_vec2 a, rc_vec2 b) { return a.x * b.x + a.y * b.y; }
/* z of the 3D cross product: positive when b lies counter-clockwise of a. */
RC_INLINE float rc_cross(rc_vec2 a, rc_vec2 b) { return a.x * b.y - a.y * b.x; }
/* a rotated by +90 degrees */
RC_INLINE rc_vec2 rc_left_perp(rc_vec2 a) { return rc_v2(0.0f - a.y, a.x); }
/* a rotated by -90 degrees: the outward normal direction of an edge of a counter-clockwise polygon */
RC_INLINE rc_vec2 rc_right_perp(rc_vec2 a) { return rc_v2(a.y, 0.0f - a.x); }
RC_INLINE float rc_length_squared(rc_vec2 a) { return a.x * a.x + a.y * a.y; }
/* Exact to a rounding for any finite vector: when the sum of squares has underflowed or
 * overflowed (components below about 1e-18 or above about 1e18), the vector is first divided
 * by its largest component. */
RC_INLINE float rc_length(rc_vec2 a) {
    float ll = a.x * a.x + a.y * a.y;
    if (!(ll >= 1.0e-36f && ll <= 1.0e36f)) {
        float m = fabsf(a.x) > fabsf(a.y) ? fabsf(a.x) : fabsf(a.y);
        if (m > 0.0f && m <= FLT_MAX) {
            float x = a.x / m, y = a.y / m;
            return m * sqrtf(x * x + y * y);
        }
    }
    return sqrtf(ll);
}
RC_INLINE float rc_distance(rc_vec2 a, rc_vec2 b) { return rc_length(rc_sub(b, a)); }
RC_INLINE float rc_distance_squared(rc_vec2 a, rc_vec2 b) { return rc_length_squared(rc_sub(b, a)); }
RC_INLINE rc_vec2 rc_lerp(rc_vec2 a, rc_vec2 b, float t) { return rc_v2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)); }
RC_INLINE rc_vec2 rc_min(rc_vec2 a, rc_vec2 b) { return rc_v2(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y); }
RC_INLINE rc_vec2 rc_max(rc_vec2 a, rc_vec2 b) { return rc_v2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y); }
RC_INLINE bool rc_vec2_equal(rc_vec2 a, rc_vec2 b) { return a.x == b.x && a.y == b.y; }

/* Unit vector along a, or (0, 0) when a has no length. Any finite length works: squares of
 * components below about 1e-19 underflow and above about 1e19 overflow, so such a vector is
 * first divided by its largest component (the common lengths take the short path, unchanged). */
RC_INLINE rc_vec2 rc_normalize(rc_vec2 a) {
    float len = sqrtf(a.x * a.x + a.y * a.y);
    if (!(len >= 1.0e-18f && len <= 1.0e18f)) {
        float m = fabsf(a.x) > fabsf(a.y) ? fabsf(a.x) : fabsf(a.y);
        if (m == 0.0f) {
            return rc_v2(0.0f, 0.0f);
        }
        a = rc_v2(a.x / m, a.y / m);
        len = sqrtf(a.x * a.x + a.y * a.y);
    }
    float inv = 1.0f / len;
    return rc_v2(inv * a.x, inv * a.y);
}

/* True when every component is a finite number (no NaN, no infinity). */
RC_INLINE bool rc_is_finite(float a) { return isfinite(a) != 0; }
RC_INLINE bool rc_vec2_is_finite(rc_vec2 a) { return isfinite(a.x) && isfinite(a.y); }

/* Rotate v by q, and by the inverse of q. */
RC_INLINE rc_vec2 rc_rotate(rc_rot q, rc_vec2 v) { return rc_v2(q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y); }
RC_INLINE rc_vec2 rc_inv_rotate(rc_rot q, rc_vec2 v) { return rc_v2(q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y); }
/* The rotation a then b (angles add). */
RC_INLINE rc_rot rc_mul_rot(rc_rot b, rc_rot a) {
    rc_rot r = {b.c * a.c - b.s * a.s, b.s * a.c + b.c * a.s};
    return r;
}

/* t.p + t.q * v: a local point to the world. */
RC_INLINE rc_vec2 rc_transform_point(rc_transform t, rc_vec2 v) { return rc_add(t.p, rc_rotate(t.q, v)); }
/* The inverse: a world point to the local frame. */
RC_INLINE rc_vec2 rc_inv_transform_point(rc_transform t, rc_vec2 v) { return rc_inv_rotate(t.q, rc_sub(v, t.p)); }
/* The frame b seen from frame a: rc_transform_point(result, v) is b's point v in a's frame. */
RC_INLINE rc_transform rc_inv_mul_transforms(rc_transform a, rc_transform b) {
    rc_transform r;
    r.q.c = a.q.c * b.q.c + a.q.s * b.q.s;
    r.q.s = a.q.c * b.q.s - a.q.s * b.q.c;
    r.p = rc_inv_rotate(a.q, rc_sub(b.p, a.p));
    return r;
}

RC_INLINE bool rc_aabb_equal(rc_aabb a, rc_aabb b) {
    return a.lower.x == b.lower.x && a.lower.y == b.lower.y && a.upper.x == b.upper.x && a.upper.y == b.upper.y;
}
RC_INLINE bool rc_aabb_overlaps(rc_aabb a, rc_aabb b) {
    return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}
RC_INLINE bool rc_aabb_contains_point(rc_aabb a, rc_vec2 p) {
    return a.lower.x <= p.x && p.x <= a.upper.x && a.lower.y <= p.y && p.y <= a.upper.y;
}
/* True when a contains all of b. */
RC_INLINE bool rc_aabb_contains(rc_aabb a, rc_aabb b) {
    return a.lower.x <= b.lower.x && a.lower.y <= b.lower.y && b.upper.x <= a.upper.x && b.upper.y <= a.upper.y;
}
RC_INLINE rc_aabb rc_aabb_union(rc_aabb a, rc_aabb b) {
    rc_aabb r = {rc_min(a.lower, b.lower), rc_max(a.upper, b.upper)};
    return r;
}
/* Finite and ordered. */
RC_INLINE bool rc_aabb_is_valid(rc_aabb a) {
    return rc_vec2_is_finite(a.lower) && rc_vec2_is_finite(a.upper) && a.lower.x <= a.upper.x && a.lower.y <= a.upper.y;
}

RC_EXTERN_C_END

#endif
