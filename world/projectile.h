/* world/projectile.h: swept bodies (projectile.c): bullets and grenades swept exactly against what they may strike,
 * shared by the step and the preview (predict.c). */
#ifndef RICOCHET_WORLD_PROJECTILE_H
#define RICOCHET_WORLD_PROJECTILE_H

#include <ricochet/world.h>

#include "shapes/collide.h"
#include "shapes/shapes.h"
#include "world/body.h"
#include "world/shape.h"

/* At most this many surfaces hold one swept body (the first by shape index): impacts against
 * them while resting are not reported. */
#define RC_MAX_SUPPORTS 8

/* A body being swept: what the sweep reads and changes, apart from the world. */
typedef struct rc_sweeper {
    rc_vec2 center, velocity;
    float angle, angular_velocity;
    rc_vec2 path; /* held: the solver's motion for the step (its push-out included), swept first */
    float turn;   /* held: the solver's turn for the step */
    rc_vec2 kick; /* the gravity this step added to its velocity */
    float radius; /* 0: a point */
    float inv_mass, inv_inertia;
    float restitution, friction, rolling_resistance; /* its own; a point takes the surface's */
    rc_filter filter;
    int32_t self_body; /* never struck; -1: none */
    int32_t max_bounces;
    int32_t step_bounces;  /* bounces already made in this step (by the solver), among max_bounces */
    int32_t bounces_left;  /* of its life: -1 no limit, 0 spent (it stops dead at its next hit) */
    int32_t bounces_made;  /* in its life: an impact's bounce number */
    bool sees_dynamic; /* bullets: struck dynamic bodies that are not bullets */
    int32_t rest_shape; /* the shape it last struck in its previous step (-1: none) */
    const int32_t *supports; /* shapes holding it at the step's start (resting, not struck) */
    int32_t support_count;
    bool held; /* contacts held it this step: it moves along the solver's path, not a parabola */
} rc_sweeper;

/* What a sweep tells its caller. */
typedef struct rc_sweep_sink {
    /* a bounce or a stop: approach > 0; bounce: which of the body's life (0: not a bounce);
       spent: it stopped dead, its bounces used up */
    void (*impact)(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach, int32_t bounce,
                   bool spent);
    /* the opposite impulse (px, py) on a struck dynamic body at a world point: in double, since
       with masses far from 1 it may be beyond float range while the velocity it gives is not */
    void (*push)(void *context, int32_t body, double px, double py, rc_vec2 point);
    void *context;
    int32_t last_shape; /* out: the shape of the last impact, -1 when none */
} rc_sweep_sink;

/* Swept bodies (projectile.c). Gravity and damping as the step applies them. */
void rc_integrate_velocity(const rc_world *world, rc_vec2 *v, float *w, float gravity_scale, float linear_damping,
                           float angular_damping, rc_vec2 accel, float spin_accel, float dt);
/* The accelerations a body's applied force and torque give it (0 for none), in double then
 * held within float range. */
void rc_body_accel(const rc_body *b, rc_vec2 *accel, float *spin_accel);
void rc_sweep(const rc_world *world, rc_sweeper *sweeper, float dt, rc_sweep_sink *sink);
/* Count a bounce of the body's life (its number, for the impact event) against its budget. */
int32_t rc_count_bounce(int32_t *bounces_left, int32_t *bounces_made);
/* Is a shape something the sweeper strikes? */
static inline bool rc_sweep_sees(const rc_sweeper *s, const rc_shape *shape) {
    if (shape->sensor || shape->body == s->self_body) {
        return false;
    }
    if (shape->body_type == RC_DYNAMIC && (!s->sees_dynamic || shape->body_bullet)) {
        return false;
    }
    return rc_filters_collide(s->filter, shape->filter);
}

#endif
