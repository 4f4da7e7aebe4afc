/* A swept body and the surfaces in motion it stands against (projectile.c asks): carried on by
 * a kinematic body's surface that pushed it and meets it again at once, and at the step's end
 * out of one it ends in by the side it came in by. Both move it by rc_sweep_push_allowed, as far
 * as nothing else stops it. */
#include "world/world_internal.h"

#include <math.h>

/* Carried on by a kinematic body's surface that it stands against at time tau (a skin off it, n
 * its normal) for the rest of the step (`left` of it), as far as nothing else stops it: where
 * the surface takes the point it stands at, and its own motion along the surface; its velocity
 * turned as the surface turns. For a body that the surface pushed and that meets it again at
 * once, with nothing more to give: a grenade before a turning blade, whose face turns into the
 * straight path the push gave it, was pushed again and again with no effect, stood where it was
 * as if wedged, and the blade turned through it (43 of 1,000 grenades at rest before blades at
 * 2 to 20 rad/s). */
void rc_sweep_ride_along(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, float tau,
                         float left) {
    const rc_shape *shape = &world->shapes.data[index];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_vec2 carried = rc_sub(rc_motion_to_placed(&m, s->center, tau), s->center);
    rc_vec2 own = rc_scale(left * s->dt, rc_sub(s->velocity, rc_surface_velocity(world, s, shape, point, tau)));
    carried = rc_add(carried, rc_mul_add(own, -rc_dot(own, n), n));
    s->center = rc_mul_add(s->center, rc_sweep_push_allowed(world, s, carried, tau, index, NULL), carried);
    if (m.turn != 0.0f) {
        s->velocity = rc_rotate(rc_rot_from_angle((1.0f - tau) * m.turn), s->velocity);
    }
}

/* At the step's end, out of a shape in motion that it ends in: back out of the side it came in
 * by, in the shape's frame (the surface its path there, from `start` where it began the step,
 * crosses first), to a skin beyond that surface's tangent, as far as nothing else blocks. False
 * (nothing done) when the shape is still or its centre never went in: the nearest way out
 * (push_out) is that side then. Pushed out the nearest way, a grenade carried round a drum
 * turning at 9 rad/s, which ended a step with its centre past the middle of a wall 0.11 thick,
 * left the drum through it. *normal: the normal it left by. */
bool rc_sweep_back_out(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 start, rc_vec2 *normal) {
    const rc_shape *shape = &world->shapes.data[index];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    if (!m.moving) {
        return false;
    }
    rc_shape_view view = rc_shape_view_of(world, shape);
    rc_vec2 from = rc_motion_to_placed(&m, start, 0.0f), q = rc_motion_to_placed(&m, s->center, 1.0f);
    rc_ray_hit hit;
    if (!rc_view_cast(&view, from, 0.0f, rc_sub(q, from), &hit) || hit.started_inside) {
        return false;
    }
    float depth = rc_dot(hit.normal, rc_sub(hit.point, q)); /* of the centre, under the tangent there */
    *normal = rc_motion_dir_from_placed(&m, hit.normal, 1.0f);
    rc_vec2 push = rc_scale(depth + s->radius + rc_world_skin(world, s->center), *normal);
    s->center = rc_mul_add(s->center, rc_sweep_push_allowed(world, s, push, 1.0f, index, NULL), push);
    return true;
}
