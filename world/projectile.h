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

/* At most this many shapes a sweep passes through in a step because the pre-solve callback
 * cancelled their hits (more are struck as usual). */
#define RC_MAX_SKIPPED 8

/* At most this many bodies a sweep pushes in a step whose velocities it keeps as its pushes
 * left them (rc_struck; beyond them it reads the world's). */
#define RC_MAX_STRUCK 8

/* A body the sweep pushed in this step, with its velocity after the pushes. */
typedef struct rc_struck {
    int32_t body;
    rc_vec2 velocity;
    float angular_velocity;
} rc_struck;

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
    bool sees_motion;  /* the step's: bodies that moved in it are met along their motion (the
                          preview takes everything as still) */
    bool met_motion;   /* out: its sweep looked at a body in motion */
    bool read_pushable; /* out: it read the velocity of a body sweeps push (dynamic, responding),
                           which an earlier sweep of the step may have changed */
    bool preview;      /* rc_world_predict's body (the pre-solve is told) */
    int32_t self_shape; /* its swept circle's shape (-1: a point, or the preview's body) */
    int32_t skipped[RC_MAX_SKIPPED]; /* shapes the pre-solve cancelled this step: passed through */
    int32_t skipped_count;
    bool hit_materials; /* the next bounce takes hit_restitution and hit_friction (the pre-solve's) */
    float hit_restitution, hit_friction;
    int32_t rest_shape; /* the shape it last struck in its previous step (-1: none) */
    const int32_t *supports; /* shapes holding it at the step's start (resting, not struck) */
    int32_t support_count;
    bool held; /* contacts held it this step: it moves along the solver's path, not a parabola */
    float dt;  /* the step's length (rc_sweep sets it) */
    rc_struck struck[RC_MAX_STRUCK]; /* bodies it pushed in this step (rc_sweep clears them) */
    int32_t struck_count;
} rc_sweeper;

/* What a sweep tells its caller. */
typedef struct rc_sweep_sink {
    /* a bounce or a stop: approach > 0; bounce: which of the body's life (0: not a bounce);
       spent: it stopped dead, its bounces used up */
    void (*impact)(void *context, int32_t shape, rc_vec2 point, rc_vec2 normal, float approach, int32_t bounce,
                   bool spent);
    /* the impulse (px, py) and angular impulse on a struck dynamic body (the opposite of the
       swept body's, less what the level bracing the struck body takes; the angular one less what
       its spin limit keeps from it): in double, since with masses far from 1 they may be beyond
       float range while the velocities they give are not. Applied as they are, they leave the
       body within its limits (bounce.c) */
    void (*push)(void *context, int32_t body, double px, double py, double angular);
    void *context;
    int32_t last_shape; /* out: the shape of the last impact, -1 when none */
} rc_sweep_sink;

/* ---- shapes in motion (sweep_motion.c) -------------------------------------------------------
 * The bodies that are not swept move before the sweeps, and a grenade before the bullets: a
 * moved body's shapes stand where it ends the step. A sweep at time tau of the step (0 its start,
 * 1 its end) looks at such a shape through the map from the world at tau to where it stands:
 * relative motion, with the body's turn. */
typedef struct rc_shape_motion {
    bool moving;  /* false: the identity (static, unmoved, or the preview) */
    rc_vec2 center; /* the body's centre of mass where it stands */
    rc_vec2 move;   /* over the whole step */
    float turn;
} rc_shape_motion;

rc_shape_motion rc_shape_motion_of(const rc_world *world, const rc_sweeper *s, const rc_shape *shape);
/* May a grenade (a swept circle that is not a bullet: its body, its circle's shape, the
 * circle's centre and radius), held by the solver or free, move along d without a cast: could
 * the cast meet nothing (its path inside its own grid box, no contact with a static body or a
 * still kinematic one, and every shape of a kinematic body that moved in the step near it shown
 * to stay clear of the path)? The step's sweeps ask it before they make a sweeper
 * (sweep_step.c); otherwise the grenade is swept. */
bool rc_grenade_path_is_clear(const rc_world *world, int32_t body, int32_t circle, rc_vec2 center, float radius,
                              rc_vec2 d);
/* Does the circle moving by d from center over the step stay clear of every shape of the
 * kinematic bodies that moved in it (the part of rc_grenade_path_is_clear that looks at them)? A
 * grenade held at rest (a path of nothing) is met only by those. */
bool rc_moved_kinematics_stay_apart(const rc_world *world, int32_t circle, rc_vec2 center, float radius, rc_vec2 d);
/* A world point at time tau to where the shape stands, and back. */
rc_vec2 rc_motion_to_placed(const rc_shape_motion *m, rc_vec2 p, float tau);
rc_vec2 rc_motion_from_placed(const rc_shape_motion *m, rc_vec2 q, float tau);
/* A direction at time tau to the frame where the shape stands, and back. */
rc_vec2 rc_motion_dir_to_placed(const rc_shape_motion *m, rc_vec2 v, float tau);
rc_vec2 rc_motion_dir_from_placed(const rc_shape_motion *m, rc_vec2 v, float tau);
/* The body's centre of mass at time tau. */
rc_vec2 rc_motion_center(const rc_world *world, const rc_shape_motion *m, const rc_shape *shape, float tau);
/* The first touch of a circle (radius 0: a point) moving from origin by translation over the
 * times tau0..tau1 of the step (tau1 == tau0: at one moment) with a shape in motion: exact (the
 * casts of shapes/ in the frame where the shape stands) while the shape does not turn, by
 * conservative advancement to within `tolerance` when it does. The hit in the world at its
 * time; false when there is none. *apart: the shape was found so far off that it stays clear of
 * the circle wherever on its path the circle is at any moment of tau0..tau1 (then no overlap
 * with it can end the leg, even one the circle stops short on); false says nothing. */
bool rc_motion_cast(const rc_world *world, const rc_shape *shape, const rc_shape_motion *m, rc_vec2 origin,
                    float radius, rc_vec2 translation, float tau0, float tau1, float tolerance, rc_ray_hit *hit,
                    bool *apart);

/* Gravity and damping as the step applies them (body_forces.c). */
void rc_integrate_velocity(const rc_world *world, rc_vec2 *v, float *w, float gravity_scale, float linear_damping,
                           float angular_damping, rc_vec2 accel, float spin_accel, float dt);
/* The accelerations a body's applied force and torque give it (0 for none), in double then
 * held within float range (body_forces.c: rc_body_forced_accel); inline for the most bodies,
 * every step, which have none. */
void rc_body_forced_accel(const rc_body *b, rc_vec2 *accel, float *spin_accel);
static inline void rc_body_accel(const rc_body *b, rc_vec2 *accel, float *spin_accel) {
    if (rc_body_unforced(b)) {
        /* the same +0 the products give, without them */
        *accel = rc_v2(0.0f, 0.0f);
        *spin_accel = 0.0f;
        return;
    }
    rc_body_forced_accel(b, accel, spin_accel);
}
/* Swept bodies (projectile.c). */
void rc_sweep(const rc_world *world, rc_sweeper *sweeper, float dt, rc_sweep_sink *sink);

/* How far the sweeper may go by push at time tau (a fraction of it) before something other than
 * shape `index` stops it a skin short (projectile.c); *blocker (when not NULL): what stops it, or
 * -1. */
float rc_sweep_push_allowed(const rc_world *world, const rc_sweeper *s, rc_vec2 push, float tau, int32_t index,
                            int32_t *blocker);
/* A sweeper carried on by a kinematic body's surface it stands against, for the rest of the
 * step; and at the step's end out of a shape in motion by the side it came in by, false when the
 * nearest way out is that side (sweep_carry.c). */
void rc_sweep_ride_along(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, float tau,
                         float left);
bool rc_sweep_back_out(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 start, rc_vec2 *normal);

/* A few float spacings at the coordinates of p and q: how far a rounding may move a point. */
float rc_rounding_at(rc_vec2 p, rc_vec2 q);
/* A swept point's path from origin by d that a still shape's cast did not stop (sweep_points.c):
 * does it end on a segment's line, or on a polygon's face, within a rounding, going towards it
 * (struck at its end, t = 1, on the side it started from)? Does a point that stands on a
 * one-sided segment's line, or a rounding behind it, go on behind it (struck where it stands,
 * t = 0, with the free side's normal)? */
bool rc_point_ends_on_segment(rc_segment segment, rc_vec2 origin, rc_vec2 d, rc_ray_hit *hit);
bool rc_point_ends_on_polygon(const rc_convex *polygon, rc_vec2 origin, rc_vec2 d, rc_ray_hit *hit);
bool rc_point_backs_through_segment(rc_segment segment, rc_vec2 origin, rc_vec2 d, rc_ray_hit *hit);

/* ---- bounces (bounce.c) ---------------------------------------------------------------------
 * What a sweep does where it strikes a surface. */

/* The velocity of a point turning at w about a centre r away from it. */
static inline rc_vec2 rc_cross_sv(float w, rc_vec2 r) { return rc_v2(-w * r.y, w * r.x); }
/* The part of a drift (half the gravity of the step) that does not press into a surface of
 * normal n. */
static inline rc_vec2 rc_along_surface(rc_vec2 drift, rc_vec2 n) {
    float into = rc_dot(drift, n);
    return into < 0.0f ? rc_mul_add(drift, -into, n) : drift;
}
/* The velocity of a shape's surface at a point at time tau of the step (0 for static shapes). */
rc_vec2 rc_surface_velocity(const rc_world *world, rc_sweeper *s, const rc_shape *shape, rc_vec2 point, float tau);
/* A bounce off shape `index` (surface normal n towards the sweeper, at point) with rest_of_step
 * of the step still to go: the velocity the body has there (less the gravity still to come) is
 * bounced, the struck body pushed, and the gravity still to come added back; where too little
 * speed is left to get away, the surface holds the body for the rest of the step (with
 * friction), and *drift (the chord's bend) loses what presses into it. stick: e = 0 and
 * unlimited friction. Returns the approach speed (0: not approaching, nothing changed). */
float rc_bounce_at(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, bool stick,
                   float rest_of_step, rc_sweep_sink *sink, rc_vec2 *drift);
/* rc_bounce_at for a push by a surface in motion that the body was not moving into (a door onto
 * a grenade at rest): the same, but a body the solver held keeps its velocity at the hit. */
float rc_push_at(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, float rest_of_step,
                 rc_sweep_sink *sink, rc_vec2 *drift);
/* Wedged (what it meets stops it again and again, and no push takes it out): the sweeper keeps
 * no velocity along the path d it could not go (bounce.c; stale: all it met in the step were
 * bodies it pushed in it, which part by themselves). */
void rc_sweeper_wedged(rc_sweeper *s, rc_vec2 d, bool stale);
/* What an impact is: a bounce of the body's life (counted against its budget when reported), a
 * stop dead with its bounces used up, or neither (a slow touch, a push out of an overlap). */
typedef enum rc_impact_kind { RC_IMPACT_TOUCH, RC_IMPACT_BOUNCE, RC_IMPACT_SPENT } rc_impact_kind;
/* Report an impact to the sink unless the body is resting: slow, against a shape it already
 * touched (in its previous step, at this step's start, or just before in this step). */
void rc_report_impact(const rc_world *world, rc_sweeper *s, rc_sweep_sink *sink, int32_t shape, rc_vec2 point,
                      rc_vec2 normal, float approach, rc_impact_kind kind);
/* Did the sweeper push this body in this step? (Its shapes then stand where its motion from
 * before the push takes them, no longer its motion.) */
bool rc_sweep_struck(const rc_sweeper *s, int32_t body);
/* A struck body's velocity (*v, *w) after the impulse (px, py) and angular impulse, as the step
 * leaves it (within the world's limits and the body's spin limit for sub-steps of h, never
 * below how fast it turned). The step's push and the sweep's own record both take it. */
void rc_pushed_velocity(const rc_world *world, const rc_body *b, float h, rc_vec2 *v, float *w, double px, double py,
                        double angular);
/* Count a bounce of the body's life (its number, for the impact event) against its budget. */
int32_t rc_count_bounce(int32_t *bounces_left, int32_t *bounces_made);
/* Is a shape something the sweeper strikes? (Not a shape of a body jointed to the sweeper's
 * own with collide_connected false: the joint says they do not collide, for sweeps as for
 * contacts.) */
static inline bool rc_sweep_sees(const rc_world *world, const rc_sweeper *s, const rc_shape *shape) {
    if (shape->sensor || shape->body == s->self_body) {
        return false;
    }
    if (shape->body_type == RC_DYNAMIC && (!s->sees_dynamic || shape->body_bullet)) {
        return false;
    }
    if (s->self_body >= 0 && !rc_joints_allow_collision(world, s->self_body, shape->body)) {
        return false;
    }
    return rc_filters_collide(s->filter, shape->filter);
}

#endif
