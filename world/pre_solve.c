/* The pre-solve callback: the game's say over a hit before it is resolved, a solver contact
 * (gather.c, predict.c) or a sweep's impact (projectile.c). It runs with the world locked, and
 * what it hands back is checked like any input: a restitution or friction that is not finite
 * and >= 0 is refused and the hit keeps its own. */
#include "world/world_internal.h"

bool rc_world_set_pre_solve_callback(rc_world *world, rc_pre_solve_fn *fn, void *context) {
    if (rc_world_for_change(world, __func__) == NULL) {
        return false;
    }
    world->pre_solve_fn = fn;
    world->pre_solve_context = fn != NULL ? context : NULL;
    return true;
}

bool rc_shape_pre_solve_events(const rc_world *world, rc_shape_id id) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    return s != NULL && s->pre_solve;
}

bool rc_shape_set_pre_solve_events(rc_world *world, rc_shape_id id, bool enable) {
    rc_shape *s = rc_shape_for_change(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    int32_t index = (int32_t)id.index - 1, n = rc_setter_records(world, index);
    for (int32_t k = 0; k < n; ++k) {
        world->shapes.data[rc_setter_record(world, index, k)].pre_solve = enable;
    }
    return true;
}

static bool material_ok(float v) { return rc_is_finite(v) && v >= 0.0f; }

bool rc_ask_pre_solve(const rc_world *world, rc_pre_solve *hit) {
    float restitution = hit->restitution, friction = hit->friction;
    rc_world_lock(world);
    bool keep = world->pre_solve_fn(hit, world->pre_solve_context);
    rc_world_unlock(world);
    if (!material_ok(hit->restitution)) {
        rc_fail(world, "rc_pre_solve_fn", "the callback set restitution %g: it must be finite and >= 0 (kept %g)",
                (double)hit->restitution, (double)restitution);
        hit->restitution = restitution;
    }
    if (!material_ok(hit->friction)) {
        rc_fail(world, "rc_pre_solve_fn", "the callback set friction %g: it must be finite and >= 0 (kept %g)",
                (double)hit->friction, (double)friction);
        hit->friction = friction;
    }
    return keep;
}

/* The velocity of a body's point (0 for a static body, or none: -1). */
static rc_vec2 point_velocity(const rc_world *world, int32_t body, rc_vec2 point) {
    if (body < 0) {
        return rc_v2(0.0f, 0.0f);
    }
    const rc_body *b = &world->bodies.data[body];
    if (b->type == RC_STATIC) {
        return rc_v2(0.0f, 0.0f);
    }
    rc_vec2 r = rc_sub(point, b->center);
    return rc_add(b->linear_velocity, rc_v2(-b->angular_velocity * r.y, b->angular_velocity * r.x));
}

bool rc_pre_solve_constraint(const rc_world *world, rc_contact_constraint *k, int32_t shape_a, int32_t shape_b,
                             const rc_contact_point *points, int32_t point_count, rc_vec2 normal,
                             const rc_sweeper *preview) {
    const rc_shape *sa = &world->shapes.data[shape_a];
    /* the preview's body has no shape: b is then the previewed body */
    const rc_shape *sb = preview == NULL ? &world->shapes.data[shape_b] : NULL;
    if (world->pre_solve_fn == NULL || !(sa->pre_solve || (sb != NULL && sb->pre_solve))) {
        return true;
    }
    rc_pre_solve hit;
    memset(&hit, 0, sizeof hit);
    hit.shape_a = rc_shape_id_of(world, shape_a);
    hit.body_a = rc_body_id_of(world, sa->body);
    if (sb != NULL) {
        hit.shape_b = rc_shape_id_of(world, shape_b);
        hit.body_b = rc_body_id_of(world, sb->body);
    }
    hit.point = points[0].point;
    hit.normal = normal;
    rc_vec2 va = point_velocity(world, sa->body, hit.point);
    rc_vec2 vb = sb != NULL ? point_velocity(world, sb->body, hit.point) : preview->velocity;
    hit.approach_speed = rc_dot(rc_sub(va, vb), normal);
    hit.point_count = point_count;
    hit.preview = preview != NULL;
    hit.restitution = k->restitution;
    hit.friction = k->friction;
    if (!rc_ask_pre_solve(world, &hit)) {
        return false;
    }
    k->restitution = hit.restitution;
    k->friction = hit.friction;
    return true;
}
