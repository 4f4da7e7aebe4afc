/* Bounces of swept bodies (the sweep, projectile.c, calls them): the impulses of a hit on the
 * swept body and on what it strikes (free to give way, or braced by the level), the hold that
 * bears its weight for the rest of the step with its friction, and the impact reports. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

/* A sweep read the velocity of a body it meets: when sweeps push that body (dynamic and
 * responding), an earlier sweep of the step may have changed it (sweep_step.c). */
static void note_velocity_read(rc_sweeper *s, const rc_body *b) {
    s->read_pushable = s->read_pushable || (b->type == RC_DYNAMIC && b->enable_response);
}

/* A friction impulse held within +-limit (mu times the normal impulse). */
static double within(double p, double limit) { return p < -limit ? -limit : (p > limit ? limit : p); }

/* The sweeper takes the impulse (px, py) at rs from its centre, its speeds held to the world's
 * limits. */
static void give_sweeper(const rc_world *world, rc_sweeper *s, rc_vec2 rs, double px, double py) {
    rc_limit_velocity(world, s->velocity.x + s->inv_mass * px, s->velocity.y + s->inv_mass * py,
                      s->angular_velocity + s->inv_inertia * (rs.x * py - rs.y * px), &s->velocity,
                      &s->angular_velocity);
}

/* A bounce's impulses on the sweeper, along n and along t = left_perp(n), and on the struck body
 * (the opposite, less what the level takes when it braces that body: brace > 0). */
typedef struct bounce_impulse {
    double pn, pt;
    float brace;
    double linear_x, linear_y, angular;
} bounce_impulse;

/* The impulses of a bounce off a body free to give way (or none: im_t and ii_t 0), each from the
 * relative velocity before it: the normal one turns the approach into a rebound of e times it,
 * friction takes at most mu times it off the sliding (mu: INFINITY for a stick). In double: with
 * masses far from 1 (a point mass near FLT_MIN, a body near FLT_MAX) impulses reach beyond float
 * range though the velocities they give do not. */
static void free_impulses(const rc_sweeper *s, float im_t, float ii_t, rc_vec2 rt, rc_vec2 rs, rc_vec2 n,
                          rc_vec2 vrel, float e, float approach, float mu, bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    double rtn = rc_cross(rt, n), rtt = rc_cross(rt, t), rst = rc_cross(rs, t), rsn = rc_cross(rs, n);
    double kn = (double)s->inv_mass + (double)s->inv_inertia * rsn * rsn + im_t + (double)ii_t * rtn * rtn;
    double kt = (double)s->inv_mass + (double)s->inv_inertia * rst * rst + im_t + (double)ii_t * rtt * rtt;
    j->pn = (1.0 + (double)e) * approach / kn;
    double pt = -(double)rc_dot(vrel, t) / kt, limit = (double)mu * j->pn;
    j->pt = within(pt, limit);
    double px = j->pn * n.x + j->pt * t.x, py = j->pn * n.y + j->pt * t.y;
    j->linear_x = -px;
    j->linear_y = -py;
    j->angular = (double)rt.y * px - (double)rt.x * py;
}

/* The impulses of a bounce off a body at rest that the level braces (a prop on the floor struck
 * from above): it does not give way into the brace (normal b), nor turn as freely. The normal
 * impulse first, with the struck body's give along n (and of its turn) 1 - (n.b)^2 of a free
 * body's, then friction from the sliding that leaves, with its give along t (1 - (t.b)^2 where
 * friction pushes it into the brace): one after the other, each with the give along its own
 * direction, neither makes energy. mu: INFINITY for a stick. (Free to give way, a prop of a
 * 250th of a point bullet's mass under it took its weight as a push into the floor at every
 * step; the floor took that speed from the prop, and the bullet kept it: 7 units/s, standing
 * still.) */
static void braced_impulses(const rc_sweeper *s, float im_t, float ii_t, rc_vec2 rt, rc_vec2 rs, rc_vec2 n,
                            rc_vec2 vrel, float e, float approach, float mu, rc_vec2 b, bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    double rtn = rc_cross(rt, n), rsn = rc_cross(rs, n), rtt = rc_cross(rt, t), rst = rc_cross(rs, t);
    double nb = rc_dot(n, b), tb = rc_dot(t, b);
    double give_n = 1.0 - nb * nb; /* (its push along -n goes into the brace: nb > 0) */
    double kn = (double)s->inv_mass + (double)s->inv_inertia * rsn * rsn + give_n * (im_t + (double)ii_t * rtn * rtn);
    j->pn = (1.0 + (double)e) * approach / kn;
    j->linear_x = -j->pn * (n.x - nb * b.x);
    j->linear_y = -j->pn * (n.y - nb * b.y);
    j->angular = -j->pn * give_n * rtn;
    /* the sliding after it: the sweeper's spin and the struck body's motion changed by it */
    double slide = rc_dot(vrel, t) + j->pn * (double)s->inv_inertia * rsn * rst -
                   ((double)im_t * (j->linear_x * t.x + j->linear_y * t.y) + (double)ii_t * j->angular * rtt);
    /* friction pushes the struck body along t when it slides forward (slide > 0) */
    double give_t = (slide > 0.0 ? tb : -tb) < 0.0 ? 1.0 - tb * tb : 1.0;
    double kt = (double)s->inv_mass + (double)s->inv_inertia * rst * rst + give_t * (im_t + (double)ii_t * rtt * rtt);
    double pt = -slide / kt, limit = (double)mu * j->pn;
    j->pt = within(pt, limit);
    double into = -j->pt * tb; /* the struck body's friction impulse -pt t, into the brace when < 0 */
    j->linear_x += -j->pt * t.x - (into < 0.0 ? into * b.x : 0.0);
    j->linear_y += -j->pt * t.y - (into < 0.0 ? into * b.y : 0.0);
    j->angular += -j->pt * give_t * rtt;
}

/* The impulse at a contact with surface normal n (towards the sweeper) at point: the normal
 * part of the relative velocity becomes -e times itself, the tangent part loses at most mu times
 * the normal impulse without reversing (which spins a circle up). With
 * stick, the contact keeps nothing of the relative velocity (e = 0, unlimited friction). The
 * struck body, when dynamic, takes the opposite impulse, less what the level bracing it takes
 * (braced_impulses). Returns the approach speed, or 0 when the two are not approaching (then
 * nothing changed). */
static float bounce(const rc_world *world, rc_sweeper *s, int32_t shape_index, rc_vec2 n, rc_vec2 point, float tau,
                    bool stick, rc_sweep_sink *sink, float *friction) {
    const rc_shape *shape = &world->shapes.data[shape_index];
    const rc_body *target = &world->bodies.data[shape->body];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_vec2 rt = rc_sub(point, rc_motion_center(world, &m, shape, tau)); /* from where its centre was then */
    rc_vec2 vt = {0.0f, 0.0f};
    if (target->type != RC_STATIC) {
        note_velocity_read(s, target);
        vt = rc_add(target->linear_velocity, rc_cross_sv(target->angular_velocity, rt));
    }
    rc_vec2 rs = rc_scale(-s->radius, n);
    rc_vec2 vs = rc_add(s->velocity, rc_cross_sv(s->angular_velocity, rs));
    rc_vec2 vrel = rc_sub(vs, vt);
    float vn = rc_dot(vrel, n);
    /* moving together within rounding (after a bounce with e = 0 off a body that the impulse set
       moving) is not approaching */
    float tolerance = 8.0f * FLT_EPSILON * rc_maxf(rc_length(vs), rc_length(vt));
    if (!(vn < -tolerance)) {
        return 0.0f;
    }
    float approach = -vn;
    bool pushable = target->type == RC_DYNAMIC && target->enable_response;
    float im_t = pushable ? target->inv_mass : 0.0f;
    float ii_t = pushable ? target->inv_inertia : 0.0f;
    bool point_body = s->radius == 0.0f;
    float e = point_body ? shape->restitution : rc_maxf(s->restitution, shape->restitution);
    float mu = point_body ? shape->friction : rc_mix_friction(s->friction, shape->friction);
    if (s->hit_materials) {
        /* the pre-solve's, for this hit alone */
        e = s->hit_restitution;
        mu = s->hit_friction;
        s->hit_materials = false;
    }
    *friction = mu;
    if (stick || approach < world->def.restitution_threshold) {
        e = 0.0f;
    }
    /* a rebound no faster than the world's speed limit (a restitution far above 1 gave impulses
       beyond float range, and NaN) */
    float max_speed = world->def.max_linear_speed;
    if (e * approach > max_speed) {
        e = max_speed / approach;
    }
    bounce_impulse j = {0.0, 0.0, 0.0f, 0.0, 0.0, 0.0};
    rc_vec2 brace_normal = n;
    if (pushable && rc_length_squared(vt) < world->def.restitution_threshold * world->def.restitution_threshold) {
        j.brace = rc_body_brace(world, shape->body, n, &brace_normal); /* (one at rest: braced_impulses) */
    }
    if (j.brace > 0.0f) {
        braced_impulses(s, im_t, ii_t, rt, rs, n, vrel, e, approach, stick ? INFINITY : mu, brace_normal, &j);
    } else {
        free_impulses(s, im_t, ii_t, rt, rs, n, vrel, e, approach, stick ? INFINITY : mu, &j);
    }
    rc_vec2 t = rc_left_perp(n);
    double px = j.pn * n.x + j.pt * t.x, py = j.pn * n.y + j.pt * t.y;
    give_sweeper(world, s, rs, px, py);
    /* rolling resistance brakes rolling, which the resting-contact solver handles: a bounce is
       too short for it (its impulse would stop any spin at once) */
    if (pushable && sink->push != NULL) {
        sink->push(sink->context, shape->body, j.linear_x, j.linear_y, j.angular);
    }
    return approach;
}

int32_t rc_count_bounce(int32_t *bounces_left, int32_t *bounces_made) {
    if (*bounces_left > 0) {
        --*bounces_left;
    }
    if (*bounces_made < INT32_MAX) {
        ++*bounces_made;
    }
    return *bounces_made;
}

/* Report an impact unless the body is resting: slow, against a shape it already touched (in its
 * previous step, at this step's start, or just before in this step). */
void rc_report_impact(const rc_world *world, rc_sweeper *s, rc_sweep_sink *sink, int32_t shape, rc_vec2 point,
                      rc_vec2 normal, float approach, rc_impact_kind kind) {
    if (approach <= 0.0f) {
        sink->last_shape = shape;
        return;
    }
    if (approach < world->def.restitution_threshold) {
        if (shape == s->rest_shape || shape == sink->last_shape) {
            sink->last_shape = shape;
            return;
        }
        for (int32_t i = 0; i < s->support_count; ++i) {
            if (s->supports[i] == shape) {
                return;
            }
        }
    }
    sink->last_shape = shape;
    int32_t number = kind == RC_IMPACT_BOUNCE ? rc_count_bounce(&s->bounces_left, &s->bounces_made) : 0;
    if (sink->impact != NULL) {
        sink->impact(sink->context, shape, point, normal, approach, number, kind == RC_IMPACT_SPENT);
    }
}

rc_vec2 rc_surface_velocity(const rc_world *world, rc_sweeper *s, const rc_shape *shape, rc_vec2 point, float tau) {
    const rc_body *b = &world->bodies.data[shape->body];
    if (b->type == RC_STATIC) {
        return rc_v2(0.0f, 0.0f);
    }
    note_velocity_read(s, b);
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_vec2 r = rc_sub(point, rc_motion_center(world, &m, shape, tau));
    return rc_add(b->linear_velocity, rc_cross_sv(b->angular_velocity, r));
}

/* Coulomb friction over the rest of the step of a body the surface holds (rc_bounce_at): the hold
 * took `hold` of its velocity along n (the part of the gravity still to come that went into the
 * surface), a normal impulse of hold / inv_mass, and the sliding at its contact point loses at
 * most mu times that, without reversing. Returns the change of its velocity. Without it a point
 * slid down a 30 degree slope of friction 0.3 as if frictionless (9.58 down in 2 s, where Coulomb
 * gives 4.80): the landings that hold it on the slope, one a step, are too slow to brake it, and
 * its weight was held by the hold alone. (The surface takes neither impulse: the hold pushes
 * nothing either.) */
static rc_vec2 hold_friction(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, float tau,
                             float hold, float mu) {
    rc_vec2 before = s->velocity;
    if (!(s->inv_mass > 0.0f) || !(mu > 0.0f)) {
        return rc_v2(0.0f, 0.0f);
    }
    rc_vec2 t = rc_left_perp(n);
    rc_vec2 rs = rc_scale(-s->radius, n);
    rc_vec2 vs = rc_add(s->velocity, rc_cross_sv(s->angular_velocity, rs));
    float slide = rc_dot(rc_sub(vs, rc_surface_velocity(world, s, &world->shapes.data[index], point, tau)), t);
    double rst = rc_cross(rs, t);
    double kt = (double)s->inv_mass + (double)s->inv_inertia * rst * rst;
    double limit = (double)mu * (double)hold / (double)s->inv_mass;
    double pt = -(double)slide / kt;
    pt = within(pt, limit);
    double px = pt * t.x, py = pt * t.y;
    give_sweeper(world, s, rs, px, py);
    return rc_sub(s->velocity, before);
}

/* Gravity is added to the velocity at the start of a step, and the body then moves in a straight
 * line; at a hit at time tau within the step, the velocity the body would really have there is
 * its velocity less the gravity of the rest of the step. The bounce reflects that velocity and
 * the rest of the step's gravity is added back, which keeps a bounce from gaining energy from
 * the integration (a ball bouncing with e = 1 keeps its height). */
static float bounce_at(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, bool stick,
                       float rest_of_step, rc_vec2 later, rc_sweep_sink *sink, rc_vec2 *drift) {
    s->velocity = rc_sub(s->velocity, later);
    float mu = 0.0f;
    float approach = bounce(world, s, index, n, point, 1.0f - rest_of_step, stick, sink, &mu);
    float hold = 0.0f;
    if (approach > 0.0f) {
        /* the surface holds against the gravity still to come when the bounce leaves too little
           speed to get away (a landing without a bounce): no chatter of tiny bounces */
        const rc_body *target = &world->bodies.data[world->shapes.data[index].body];
        note_velocity_read(s, target);
        rc_vec2 vt = target->type == RC_STATIC ? rc_v2(0.0f, 0.0f) : target->linear_velocity;
        float leaving = rc_dot(rc_sub(s->velocity, vt), n) + rc_dot(later, n);
        if (leaving < 0.0f) {
            later = rc_mul_add(later, -leaving, n);
            hold = -leaving;
        }
    }
    s->velocity = rc_add(s->velocity, later);
    if (hold > 0.0f) {
        /* held for the rest of the step: the gravity still to come no longer bends the path into
           the surface (the chord less half of it lifted a landing body off the floor, by a quarter
           of a unit at dt = 0.25); friction brakes it over the rest of the step as gravity pulls
           it, so the chord is bent by half of what friction takes off the velocity, as by half
           of gravity's kick (else a point friction holds still on a slope went up it at every
           step by the half of gravity's pull along the slope that the chord takes off) */
        *drift = rc_along_surface(*drift, n);
        if (!stick) {
            rc_vec2 braked = hold_friction(world, s, index, n, point, 1.0f - rest_of_step, hold, mu);
            rc_vec2 bent = rc_mul_add(*drift, 0.5f / rest_of_step, braked);
            if (rc_vec2_is_finite(bent)) {
                *drift = bent; /* (not over a rest of the step too short to divide by) */
            }
        }
    }
    return approach;
}

float rc_bounce_at(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, bool stick,
                   float rest_of_step, rc_sweep_sink *sink, rc_vec2 *drift) {
    return bounce_at(world, s, index, n, point, stick, rest_of_step, rc_scale(rest_of_step, s->kick), sink, drift);
}

/* A body the solver held has the velocity it found for the whole step, its supports' pushes
 * against gravity included: struck by a surface in motion that it was not moving into, it is
 * pushed from that velocity, with no gravity taken away at the hit. (Taken away, a grenade at
 * rest on the floor that a fast door struck had an upward velocity that the door's friction
 * took off: it went into the floor, stopped short there, and the door caught it and passed
 * over it.) */
float rc_push_at(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, float rest_of_step,
                 rc_sweep_sink *sink, rc_vec2 *drift) {
    rc_vec2 later = s->held ? rc_v2(0.0f, 0.0f) : rc_scale(rest_of_step, s->kick);
    return bounce_at(world, s, index, n, point, false, rest_of_step, later, sink, drift);
}
