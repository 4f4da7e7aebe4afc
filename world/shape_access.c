/* What a game reads of its shapes, and the setters that change no shape's geometry or mass
 * (include/ricochet/world.h): a getter on a stale id records why and returns zero; a setter
 * checks its values before it writes. The base transform and the materials, which move or
 * weigh the shape again, are shape.c's. */
#include "world/world_internal.h"

#include <string.h>

/* ---- getters ---------------------------------------------------------------------------------- */

#define SHAPE_GETTER(ret, name, zero, expr)                                                                            \
    ret name(const rc_world *world, rc_shape_id id) {                                                                 \
        const rc_shape *s = rc_get_shape(world, id, #name);                                                            \
        if (s == NULL) {                                                                                               \
            return zero;                                                                                               \
        }                                                                                                              \
        return expr;                                                                                                   \
    }

static const rc_aabb zero_box = {{0.0f, 0.0f}, {0.0f, 0.0f}};
static const rc_filter zero_filter = {0u, 0u, 0};

SHAPE_GETTER(rc_body_id, rc_shape_body, RC_NULL_BODY_ID, rc_body_id_of(world, s->body))
SHAPE_GETTER(rc_shape_type, rc_shape_get_type, RC_SHAPE_TYPE_CIRCLE, s->type)
SHAPE_GETTER(rc_aabb, rc_shape_aabb, zero_box, s->aabb)
SHAPE_GETTER(float, rc_shape_restitution, 0.0f, s->restitution)
SHAPE_GETTER(float, rc_shape_friction, 0.0f, s->friction)
SHAPE_GETTER(float, rc_shape_density, 0.0f, s->density)
SHAPE_GETTER(rc_filter, rc_shape_filter, zero_filter, s->filter)
SHAPE_GETTER(bool, rc_shape_is_sensor, false, s->sensor)
SHAPE_GETTER(bool, rc_shape_is_one_sided, false, s->one_sided)
SHAPE_GETTER(void *, rc_shape_user_data, NULL, s->user_data)

bool rc_shape_world_circle(const rc_world *world, rc_shape_id id, rc_circle *circle) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (circle == NULL || s->type != RC_SHAPE_TYPE_CIRCLE) {
        return rc_fail(world, __func__, circle == NULL ? "circle is NULL" : "the shape is not a circle");
    }
    *circle = s->circle;
    return true;
}

bool rc_shape_world_capsule(const rc_world *world, rc_shape_id id, rc_capsule *capsule) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (capsule == NULL || s->type != RC_SHAPE_TYPE_CAPSULE) {
        return rc_fail(world, __func__, capsule == NULL ? "capsule is NULL" : "the shape is not a capsule");
    }
    const rc_vec2 *placed = (world->poly_pool.data + s->poly) + rc_poly_run(0, 2);
    capsule->center1 = placed[0];
    capsule->center2 = placed[1];
    capsule->radius = s->circle.radius;
    return true;
}

bool rc_shape_world_polygon(const rc_world *world, rc_shape_id id, rc_polygon *polygon) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (polygon == NULL || s->type != RC_SHAPE_TYPE_POLYGON) {
        return rc_fail(world, __func__, polygon == NULL ? "polygon is NULL" : "the shape is not a polygon");
    }
    rc_convex placed = rc_poly_placed((world->poly_pool.data + s->poly), s->count);
    memset(polygon, 0, sizeof *polygon);
    polygon->count = s->count;
    memcpy(polygon->vertices, placed.vertices, sizeof(rc_vec2) * (size_t)s->count);
    memcpy(polygon->normals, placed.normals, sizeof(rc_vec2) * (size_t)s->count);
    polygon->centroid = placed.centroid;
    return true;
}

/* ---- setters and the shape's own ray ----------------------------------------------------------- */

bool rc_shape_set_filter(rc_world *world, rc_shape_id id, rc_filter filter) {
    rc_shape *s = rc_shape_for_change(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    /* pairs that the old filter refused may now form, and contacts the new one refuses end at
       the next step: have the broadphase report this shape's pairs again (a chain: each of its
       segments) */
    int32_t index = (int32_t)id.index - 1, n = rc_setter_records(world, index);
    if (!rc_grid_reserve(rc_shape_grid(world, s), 4 * n) || !rc_array_reserve(world, world->islands, world->bodies.count)) {
        return rc_fail(world, __func__, "out of memory");
    }
    bool changed = memcmp(&filter, &s->filter, sizeof filter) != 0;
    for (int32_t k = 0; k < n; ++k) {
        int32_t r = rc_setter_record(world, index, k);
        rc_shape *shape = &world->shapes.data[r];
        shape->filter = filter;
        if (shape->proxy >= 0) {
            rc_shape_refind_pairs(world, shape);
            rc_shape_flag_contacts(world, r);
        }
    }
    if (changed) {
        /* what rests on it may no longer be held (a crate asleep on a platform that now lets it
           through stayed in the air: a contact that ends wakes nobody) */
        rc_shape_wake_changed(world, index);
    }
    rc_body_wake(&world->bodies.data[s->body]);
    return true;
}

bool rc_shape_set_user_data(rc_world *world, rc_shape_id id, void *user_data) {
    rc_shape *s = rc_shape_for_change(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    s->user_data = user_data;
    return true;
}

bool rc_shape_cast_ray(const rc_world *world, rc_shape_id id, rc_vec2 origin, rc_vec2 translation, rc_ray_hit *hit) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(origin) || !rc_vec2_is_finite(translation)) {
        return rc_fail(world, __func__, "origin or translation is not finite");
    }
    /* a chain: the nearest of its segments, the lower one on a tie */
    int32_t index = (int32_t)id.index - 1, n = rc_setter_records(world, index), best = -1;
    rc_ray_hit h;
    for (int32_t k = s->kind == RC_KIND_CHAIN ? 1 : 0; k < n; ++k) {
        int32_t r = rc_setter_record(world, index, k);
        const rc_shape *shape = &world->shapes.data[r];
        rc_ray_hit trial;
        rc_shape_view v = rc_shape_view_of(world, shape);
        if (rc_shape_faces(shape, origin) && rc_view_ray_cast(&v, origin, translation, &trial) &&
            (best < 0 || trial.t < h.t || (trial.t == h.t && r < best))) {
            h = trial;
            best = r;
        }
    }
    if (best < 0) {
        return false;
    }
    h.shape = rc_shape_id_of(world, best);
    h.body = rc_body_id_of(world, s->body);
    if (hit != NULL) {
        *hit = h;
    }
    return true;
}
