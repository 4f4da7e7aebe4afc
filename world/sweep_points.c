/* The paths of swept points that a still shape's cast does not stop, yet that end on its
 * surface or go on behind it by a rounding (projectile.c's cast_still asks after its cast): a
 * point is struck there all the same, so that no rounding carries it into a wall. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

/* A few float spacings at the coordinates of p and q: how far a rounding may move a point. */
float rc_rounding_at(rc_vec2 p, rc_vec2 q) {
    float size = rc_maxf(rc_maxf(fabsf(p.x), fabsf(p.y)), rc_maxf(fabsf(q.x), fabsf(q.y)));
    return 4.0f * FLT_EPSILON * rc_maxf(1.0f, size);
}

/* Is p within `tolerance` of the segment (of its line, between its ends give or take the
 * tolerance)? Its unit left normal and the nearest point of it. */
static bool near_segment(rc_segment segment, rc_vec2 p, float tolerance, rc_vec2 *left, rc_vec2 *foot) {
    rc_vec2 e = rc_sub(segment.b, segment.a), r = rc_sub(p, segment.a);
    float side = rc_cross(e, r), length_squared = rc_dot(e, e);
    if (!(side * side <= tolerance * tolerance * length_squared) || !(length_squared > 0.0f)) {
        return false; /* (most segments a walk looks at: far from p) */
    }
    float length = sqrtf(length_squared), along = rc_dot(e, r);
    if (along < -tolerance * length || along > length_squared + tolerance * length) {
        return false;
    }
    *left = rc_v2(-e.y / length, e.x / length);
    *foot = rc_mul_add(segment.a, rc_maxf(0.0f, rc_minf(along / length_squared, 1.0f)), e);
    return true;
}

/* A point's path that a still segment does not stop may yet end on its line, rounded: a point
 * pinched in a one-sided loop's corner 7e-6 from the wall, pushed 6.4e-6 towards it, ended on
 * the wall's line (-9.9999997 rounds to -10), which then no longer faced it, just short of the
 * floor's first point, and it fell out of the room. A path towards the segment that ends within
 * a rounding of it is struck at its end (t = 1; the normal on the side it started from): it
 * stops a skin short (projectile.c: stop_short) and goes on along the wall. */
bool rc_point_ends_on_segment(rc_segment segment, rc_vec2 origin, rc_vec2 d, rc_ray_hit *hit) {
    rc_vec2 end = rc_add(origin, d), left, foot;
    if (!near_segment(segment, end, rc_rounding_at(origin, end), &left, &foot)) {
        return false;
    }
    rc_vec2 normal = rc_cross(rc_sub(segment.b, segment.a), rc_sub(origin, segment.a)) < 0.0f ? rc_neg(left) : left;
    if (!(rc_dot(d, normal) < 0.0f)) {
        return false; /* (along it, or away: it ends no nearer than it started) */
    }
    *hit = (rc_ray_hit){1.0f, foot, normal, false, {0, 0}, {0, 0}};
    return true;
}

/* The same for a still polygon: a path towards a face that ends within a rounding of it (the
 * polygon's greatest face distance at the path's end, within a rounding of 0) is struck at its
 * end on that face. A point sliding down a wall 0.01 thick while it drifted towards it at 2e-4
 * units/s ended on its face (x = -20 exactly), stood there inside the wall, stopped as if
 * spawned in it, and never moved again. */
bool rc_point_ends_on_polygon(const rc_convex *polygon, rc_vec2 origin, rc_vec2 d, rc_ray_hit *hit) {
    rc_vec2 end = rc_add(origin, d);
    float tolerance = rc_rounding_at(origin, end), most = -INFINITY;
    int face = -1;
    for (int i = 0; i < polygon->count; ++i) {
        float distance = rc_dot(polygon->normals[i], rc_sub(end, polygon->vertices[i]));
        if (distance > tolerance) {
            return false; /* (most paths a walk offers: they end clear of the polygon) */
        }
        if (distance > most) {
            most = distance;
            face = i;
        }
    }
    if (face < 0 || !(most >= -tolerance) || !(rc_dot(d, polygon->normals[face]) < 0.0f)) {
        return false;
    }
    *hit = (rc_ray_hit){1.0f, rc_mul_add(end, -most, polygon->normals[face]), polygon->normals[face], false, {0, 0}, {0, 0}};
    return true;
}

/* A point on a one-sided segment's line, or a rounding behind it, that goes on behind it: the
 * segment does not face it, yet it stands where it was stopped on the free side (a stop short of
 * the floor in a corner rounded onto the wall beside it), and is struck where it stands (t = 0,
 * the free side's normal). A point that comes through from behind never stands there: it is
 * more than a rounding behind, or crossing to the free side. */
bool rc_point_backs_through_segment(rc_segment segment, rc_vec2 origin, rc_vec2 d, rc_ray_hit *hit) {
    rc_vec2 left, foot;
    if (!near_segment(segment, origin, rc_rounding_at(origin, origin), &left, &foot) || !(rc_dot(d, left) < 0.0f)) {
        return false;
    }
    *hit = (rc_ray_hit){0.0f, foot, left, false, {0, 0}, {0, 0}};
    return true;
}
