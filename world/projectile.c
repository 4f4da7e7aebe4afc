/* Swept bodies: bullets and grenades move along their motion through the grid's walk, stop
 * short of the first surface they meet, bounce, and go on for the rest of the step. One sweep
 * serves the step and the trajectory preview, so that a preview is what the world then does. */
#include "world/world_internal.h"

#include <math.h>

/* A circle that starts a step overlapping a surface is pushed out; this many times per step at
 * most (a circle wedged between surfaces stays where it is). */
#define MAX_PUSH_OUTS 4

RC_INLINE rc_vec2 cross_sv(float w, rc_vec2 r) { return rc_v2(-w * r.y, w * r.x); }

void rc_integrate_velocity(rc_vec2 *v, float *w, rc_vec2 gravity, float gravity_scale, float linear_damping,
                           float angular_damping, float dt) {
    rc_vec2 nv = rc_mul_add(*v, dt * gravity_scale, gravity);
    /* the implicit form stays stable for any damping and step */
    *v = rc_scale(1.0f / (1.0f + dt * linear_damping), nv);
    *w *= 1.0f / (1.0f + dt * angular_damping);
}

bool rc_sweep_sees(const rc_world *world, const rc_sweeper *s, const rc_shape *shape) {
    (void)world;
    if (shape->sensor || shape->body == s->self_body) {
        return false;
    }
    if (shape->body_type == RC_DYNAMIC && (!s->sees_dynamic || shape->body_bullet)) {
        return false;
    }
    return rc_filters_collide(s->filter, shape->filter);
}

/* ---- the cast ---------------------------------------------------------------------------------- */

typedef struct sweep_cast {
    const rc_world *world;
    const rc_sweeper *sweeper;
    rc_vec2 origin, translation;
    rc_ray_hit best;
    int32_t best_index;
} sweep_cast;

static float sweep_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    sweep_cast *c = context;
    const rc_shape *shape = &c->world->shapes.data[user];
    if (!rc_sweep_sees(c->world, c->sweeper, shape)) {
        return max_fraction;
    }
    rc_shape_view v = rc_shape_view_of(c->world, shape);
    rc_ray_hit hit;
    bool found = c->sweeper->radius > 0.0f
                     ? rc_view_circle_cast(&v, c->origin, c->sweeper->radius, c->translation, &hit)
                     : rc_view_ray_cast(&v, c->origin, c->translation, &hit);
    if (!found || hit.t > max_fraction) {
        return max_fraction;
    }
    if (c->best_index < 0 || hit.t < c->best.t || (hit.t == c->best.t && user < c->best_index)) {
        c->best = hit;
        c->best_index = user;
    }
    return c->best.t;
}

/* Is p clear of the shape (a point outside it, a circle not overlapping it)? */
static bool clear_of(const rc_world *world, const rc_shape *shape, rc_vec2 p, float radius) {
    rc_shape_view v = rc_shape_view_of(world, shape);
    rc_distance_result d = rc_view_distance(&v, p);
    return d.distance > radius;
}

/* ---- a bounce ---------------------------------------------------------------------------------- */

/* The impulse at a contact with surface normal n (towards the sweeper) at point: the normal
 * part of the relative velocity becomes -e times itself, the tangent part loses at most mu times
 * the normal impulse without reversing (which spins a circle up). With
 * stick, the contact keeps nothing of the relative velocity (e = 0, unlimited friction). The
 * struck body, when dynamic, takes the opposite impulse. Returns the approach speed, or 0 when
 * the two are not approaching (then nothing changed). */
static float bounce(const rc_world *world, rc_sweeper *s, int32_t shape_index, rc_vec2 n, rc_vec2 point, bool stick,
                    rc_sweep_sink *sink) {
    const rc_shape *shape = &world->shapes.data[shape_index];
    const rc_body *target = &world->bodies.data[shape->body];
    rc_vec2 rt = rc_sub(point, target->center);
    rc_vec2 vt = {0.0f, 0.0f};
    float wt = 0.0f;
    if (target->type != RC_STATIC) {
        wt = target->angular_velocity;
        vt = rc_add(target->linear_velocity, cross_sv(wt, rt));
    }
    rc_vec2 rs = rc_scale(-s->radius, n);
    rc_vec2 vs = rc_add(s->velocity, cross_sv(s->angular_velocity, rs));
    rc_vec2 vrel = rc_sub(vs, vt);
    float vn = rc_dot(vrel, n);
    if (!(vn < 0.0f)) {
        return 0.0f;
    }
    float approach = -vn;
    bool pushable = target->type == RC_DYNAMIC && target->enable_response;
    float im_t = pushable ? target->inv_mass : 0.0f;
    float ii_t = pushable ? target->inv_inertia : 0.0f;

    bool point_body = s->radius == 0.0f;
    float e = point_body ? shape->restitution : rc_maxf(s->restitution, shape->restitution);
    float mu = point_body ? shape->friction : sqrtf(s->friction * shape->friction);
    if (stick || approach < world->def.restitution_threshold) {
        e = 0.0f;
    }
    rc_vec2 t = rc_left_perp(n);
    float rtn = rc_cross(rt, n), rtt = rc_cross(rt, t), rst = rc_cross(rs, t), rsn = rc_cross(rs, n);
    float kn = s->inv_mass + s->inv_inertia * rsn * rsn + im_t + ii_t * rtn * rtn;
    float kt = s->inv_mass + s->inv_inertia * rst * rst + im_t + ii_t * rtt * rtt;
    float pn = (1.0f + e) * approach / kn;
    float pt = -rc_dot(vrel, t) / kt;
    if (!stick) {
        pt = rc_maxf(-mu * pn, rc_minf(pt, mu * pn));
    }
    rc_vec2 p = rc_add(rc_scale(pn, n), rc_scale(pt, t));
    s->velocity = rc_mul_add(s->velocity, s->inv_mass, p);
    s->angular_velocity += s->inv_inertia * rc_cross(rs, p);
    /* rolling resistance brakes rolling, which the resting-contact solver handles: a bounce is
       too short for it (its impulse would stop any spin at once) */
    if (pushable && sink->push != NULL) {
        sink->push(sink->context, shape->body, rc_neg(p), point, 0.0f);
    }
    return approach;
}

/* Report an impact unless the body is resting: slow, against a shape it already touched. */
static void report(const rc_world *world, const rc_sweeper *s, rc_sweep_sink *sink, int32_t shape, rc_vec2 point,
                   rc_vec2 normal, float approach) {
    sink->last_shape = shape;
    if (approach <= 0.0f) {
        return;
    }
    if (approach < world->def.restitution_threshold) {
        if (shape == s->rest_shape) {
            return;
        }
        for (int32_t i = 0; i < s->support_count; ++i) {
            if (s->supports[i] == shape) {
                return;
            }
        }
    }
    if (sink->impact != NULL) {
        sink->impact(sink->context, shape, point, normal, approach);
    }
}

/* ---- the sweep --------------------------------------------------------------------------------- */

void rc_sweep(const rc_world *world, rc_sweeper *s, float dt, rc_sweep_sink *sink) {
    float remaining = 1.0f; /* of the step */
    int32_t bounces = 0, push_outs = 0;
    sink->last_shape = -1;
    for (;;) {
        rc_vec2 d = rc_scale(dt * remaining, rc_add(s->velocity, s->bias));
        if (d.x == 0.0f && d.y == 0.0f) {
            break;
        }
        sweep_cast c;
        c.world = world;
        c.sweeper = s;
        c.origin = s->center;
        c.translation = d;
        c.best_index = -1;
        rc_grid_cast_trusted(world->grid, s->center, s->radius, d, 1.0f, sweep_fn, &c);
        if (c.best_index < 0) {
            s->center = rc_add(s->center, d);
            break;
        }
        int32_t index = c.best_index;
        const rc_shape *shape = &world->shapes.data[index];
        s->bias = rc_v2(0.0f, 0.0f);

        if (c.best.started_inside) {
            if (s->radius == 0.0f) {
                /* a point inside a solid shape is stopped there (spawned in a wall) */
                float speed = rc_length(s->velocity);
                bounce(world, s, index, c.best.normal, s->center, true, sink);
                s->velocity = rc_v2(0.0f, 0.0f);
                s->angular_velocity = 0.0f;
                report(world, s, sink, index, s->center, c.best.normal, speed);
                break;
            }
            /* a circle overlapping a surface (something moved onto it) is pushed out */
            if (push_outs++ >= MAX_PUSH_OUTS) {
                break;
            }
            rc_shape_view v = rc_shape_view_of(world, shape);
            rc_distance_result dist = rc_view_distance(&v, s->center);
            float skin = rc_world_skin(world, s->center);
            s->center = rc_mul_add(s->center, s->radius + skin - dist.distance, dist.normal);
            rc_vec2 point = rc_mul_add(s->center, -s->radius, dist.normal);
            float approach = bounce(world, s, index, dist.normal, point, false, sink);
            report(world, s, sink, index, point, dist.normal, approach);
            continue;
        }

        /* stop a skin short of the surface, on the near side whatever the rounding: the path
           before the hit crosses nothing */
        rc_vec2 n = c.best.normal;
        float t = c.best.t;
        float along = -rc_dot(d, n); /* how fast the gap closes per unit of t */
        float skin = rc_world_skin(world, c.best.point);
        float stop = along > 0.0f ? t - skin / along : t;
        stop = rc_maxf(stop, 0.0f);
        rc_vec2 p = rc_mul_add(s->center, stop, d);
        for (int k = 0; k < 8 && stop > 0.0f && !clear_of(world, shape, p, s->radius); ++k) {
            stop = k < 7 ? 0.5f * stop : 0.0f;
            p = rc_mul_add(s->center, stop, d);
        }
        s->center = p;
        remaining *= 1.0f - t;

        if (bounces >= s->max_bounces) {
            if (s->max_bounces == 0) {
                /* a bullet that embeds itself: it stops dead and the target takes it all */
                float approach = bounce(world, s, index, n, c.best.point, true, sink);
                s->velocity = rc_v2(0.0f, 0.0f);
                s->angular_velocity = 0.0f;
                report(world, s, sink, index, c.best.point, n, approach);
            } else {
                sink->last_shape = index; /* stopped for this step; it bounces in the next */
            }
            break;
        }
        float approach = bounce(world, s, index, n, c.best.point, false, sink);
        if (approach <= 0.0f) {
            /* the surface moves away at least as fast: stay at the contact for this step */
            sink->last_shape = index;
            break;
        }
        ++bounces;
        report(world, s, sink, index, c.best.point, n, approach);
    }
    s->angle += dt * s->angular_velocity;
}

/* ---- impact events ------------------------------------------------------------------------------ */

int rc_world_impact_events(const rc_world *world, const rc_impact_event **events) {
    if (world == NULL) {
        return -1;
    }
    if (events == NULL) {
        return rc_fail(world, __func__, "events is NULL"), -1;
    }
    *events = world->published_impacts > 0 ? world->impacts.data : NULL;
    return world->published_impacts;
}
