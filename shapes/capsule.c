/* Capsules: a segment rounded by a radius. Everything here reduces to the segment and the
 * radius: a ray against the capsule is a circle of its radius swept against the segment, a
 * circle against it a circle of both radii. */
#include "shapes/shapes.h"

#include <math.h>

bool rc_capsule_input_ok(rc_capsule c) {
    return rc_vec2_is_finite(c.center1) && rc_vec2_is_finite(c.center2) && rc_is_finite(c.radius) && c.radius >= 0.0f;
}

/* A capsule the pure functions take: valid, and within float range (its box's coordinates are
 * floats). */
static bool capsule_in_range(rc_capsule c) {
    return rc_capsule_input_ok(c) && rc_disk_in_range(c.center1, c.radius) && rc_disk_in_range(c.center2, c.radius);
}

rc_aabb rc_capsule_aabb(rc_capsule c) {
    if (!capsule_in_range(c)) {
        return (rc_aabb){{0.0f, 0.0f}, {0.0f, 0.0f}};
    }
    return rc_capsule_box(c);
}

rc_mass_data rc_compute_capsule_mass(rc_capsule c, float density) {
    return capsule_in_range(c) && rc_density_ok(density) ? rc_finite_mass(rc_capsule_mass_of(c, density)) : RC_NO_MASS;
}

rc_mass_data rc_capsule_mass_of(rc_capsule c, float density) {
    /* in double: the squares of long capsules overflow float before their masses do */
    double dx = (double)c.center2.x - c.center1.x, dy = (double)c.center2.y - c.center1.y;
    double length = sqrt(dx * dx + dy * dy), r = c.radius, rr = r * r;
    double pi = 3.14159265358979323846;
    double box_area = 2.0 * r * length, disk_area = pi * rr;
    double box_mass = density * box_area, disk_mass = density * disk_area;
    /* the rectangle about its centre; each half disk about the centre by the parallel axis
       theorem twice: from its flat side's middle (where a half disk has a disk's r^2 / 2 per
       mass) to its centroid, 4 r / (3 pi) inside, then out to the capsule's centre, h + that
       away: r^2 / 2 - lc^2 + (h + lc)^2 = r^2 / 2 + h^2 + 2 h lc */
    double h = 0.5 * length, lc = 4.0 * r / (3.0 * pi);
    double inertia = box_mass * (length * length + 4.0 * rr) / 12.0 + disk_mass * (0.5 * rr + h * h + 2.0 * h * lc);
    rc_mass_data m;
    m.area = (float)(box_area + disk_area);
    m.mass = (float)(box_mass + disk_mass);
    m.center = rc_lerp(c.center1, c.center2, 0.5f);
    if (!rc_vec2_is_finite(m.center)) { /* (centres whose difference is no float) */
        m.center = rc_v2((float)(0.5 * ((double)c.center1.x + c.center2.x)), (float)(0.5 * ((double)c.center1.y + c.center2.y)));
    }
    m.rotational_inertia = (float)inertia;
    return m;
}

rc_distance_result rc_capsule_distance(rc_capsule c, rc_vec2 p) {
    rc_distance_result d = rc_segment_distance(c.center1, c.center2, p);
    d.point = rc_mul_add(d.point, c.radius, d.normal);
    d.distance -= c.radius;
    return d;
}

rc_distance_result rc_point_distance_capsule(rc_capsule c, rc_vec2 p) {
    if (!capsule_in_range(c) || !rc_vec2_is_finite(p)) {
        return rc_no_distance();
    }
    rc_distance_result d = rc_segment_distance(c.center1, c.center2, p);
    d.point = rc_v2((float)(d.point.x + (double)c.radius * d.normal.x), (float)(d.point.y + (double)c.radius * d.normal.y));
    d.distance = rc_float_distance((double)d.distance - c.radius);
    return d;
}

bool rc_circle_cast_capsule(rc_capsule shape, rc_vec2 origin, float radius, rc_vec2 translation, rc_ray_hit *hit) {
    float reach = shape.radius + radius;
    if (!rc_capsule_input_ok(shape) || !rc_is_finite(radius) || radius < 0.0f || !rc_is_finite(reach)) {
        return false;
    }
    rc_ray_hit h;
    if (!rc_circle_cast_segment(shape.center1, shape.center2, origin, reach, translation, &h)) {
        return false;
    }
    if (!h.started_inside) {
        /* the segment's point it touches, out to the capsule's surface */
        h.point = rc_mul_add(h.point, shape.radius, h.normal);
    }
    if (hit != NULL) {
        *hit = h;
    }
    return true;
}

bool rc_ray_cast_capsule(rc_capsule capsule, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    rc_ray_hit h;
    if (!rc_circle_cast_capsule(capsule, origin, 0.0f, translation, &h)) {
        return false;
    }
    if (!h.started_inside) {
        h.point = rc_mul_add(origin, h.t, translation); /* on the ray, as every ray hit */
    }
    if (hit != NULL) {
        *hit = h;
    }
    return true;
}
