/* Swept bodies: bullets and grenades move along their motion through the grid's walk, stop
 * short of the first surface they meet, bounce, and go on for the rest of the step. One sweep
 * serves the step and the trajectory preview, so that a preview is what the world then does. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

/* A circle that starts a step overlapping a surface is pushed out; this many times per step at
 * most (a circle wedged between surfaces stays where it is). */
#define MAX_PUSH_OUTS 4

RC_INLINE rc_vec2 cross_sv(float w, rc_vec2 r) { return rc_v2(-w * r.y, w * r.x); }

void rc_integrate_velocity(const rc_world *world, rc_vec2 *v, float *w, float gravity_scale, float linear_damping,
                           float angular_damping, rc_vec2 accel, float spin_accel, float dt) {
    /* in double, then held to the speed limits: a huge gravity scale over a long step went beyond
       float range */
    rc_vec2 g = world->def.gravity;
    double k = (double)dt * gravity_scale;
    double vx = v->x + k * g.x + (double)dt * accel.x, vy = v->y + k * g.y + (double)dt * accel.y;
    double spin = *w + (double)dt * spin_accel;
    /* the implicit form stays stable for any damping and step */
    double lin = 1.0 / (1.0 + (double)dt * linear_damping), ang = 1.0 / (1.0 + (double)dt * angular_damping);
    rc_limit_velocity(world, vx * lin, vy * lin, spin * ang, v, w);
}

void rc_body_accel(const rc_body *b, rc_vec2 *accel, float *spin_accel) {
    double ax = (double)b->inv_mass * b->force.x, ay = (double)b->inv_mass * b->force.y;
    double aw = (double)b->inv_inertia * b->torque;
    const double max = FLT_MAX;
    *accel = rc_v2((float)(ax > max ? max : (ax < -max ? -max : ax)), (float)(ay > max ? max : (ay < -max ? -max : ay)));
    *spin_accel = (float)(aw > max ? max : (aw < -max ? -max : aw));
}

/* ---- the cast ---------------------------------------------------------------------------------- */

typedef struct sweep_cast {
    const rc_world *world;
    const rc_sweeper *sweeper;
    rc_vec2 origin, translation;
    int32_t exclude; /* a shape not to strike (-1: none) */
    rc_ray_hit best;
    int32_t best_index;
} sweep_cast;

/* The length within which two hits are one point: a few float spacings at its coordinates. */
static float seam_tolerance(rc_vec2 p) { return 64.0f * FLT_EPSILON * rc_maxf(1.0f, rc_maxf(fabsf(p.x), fabsf(p.y))); }

/* Does the normal n at p point into shape `other` (touching it there)? Then it is the normal of
 * an inner face of a seam: two boxes laid edge to edge meet a bullet aimed at their seam at the
 * same point, one with its top and one with its side, which is inside the other box. */
static bool normal_into(const rc_world *world, int32_t other, rc_vec2 p, rc_vec2 n) {
    float tol = seam_tolerance(p);
    rc_vec2 q = rc_mul_add(p, 4.0f * tol, n);
    rc_shape_view v = rc_shape_view_of(world, &world->shapes.data[other]);
    return v.kind != RC_SHAPE_SEGMENT && rc_view_distance(&v, q).distance <= tol;
}

/* Is hit (on shape user) struck before the best so far? At one point (within rounding) the hit
 * whose normal does not point into the other shape wins: a seam between two shapes is struck on
 * their outer faces, not on the inner face of one (a bullet aimed at the seam of a floor of
 * boxes came back sideways); else the earlier, else the lower index. */
static bool strikes_first(const sweep_cast *c, const rc_ray_hit *hit, int32_t user) {
    if (c->best_index < 0) {
        return true;
    }
    float tol = seam_tolerance(hit->point);
    if (fabsf(hit->t - c->best.t) * rc_length(c->translation) <= tol && rc_distance(hit->point, c->best.point) <= tol) {
        bool hit_inner = normal_into(c->world, c->best_index, hit->point, hit->normal);
        bool best_inner = normal_into(c->world, user, c->best.point, c->best.normal);
        if (hit_inner != best_inner) {
            return best_inner;
        }
    }
    return hit->t < c->best.t || (hit->t == c->best.t && user < c->best_index);
}

static float sweep_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    sweep_cast *c = context;
    const rc_shape *shape = &c->world->shapes.data[user];
    if (user == c->exclude || !rc_sweep_sees(c->sweeper, shape) || !rc_shape_faces(shape, c->origin)) {
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
    if (strikes_first(c, &hit, user)) {
        c->best = hit;
        c->best_index = user;
    }
    /* shapes a rounding beyond the best are still looked at: they may meet it at one point */
    float len = rc_length(c->translation);
    return len > 0.0f ? rc_minf(c->best.t + seam_tolerance(c->best.point) / len, 1.0f) : c->best.t;
}

/* The first shape the sweeper strikes moving by d from where it is. */
static void cast_from(const rc_world *world, const rc_sweeper *s, rc_vec2 d, int32_t exclude, sweep_cast *c) {
    c->world = world;
    c->sweeper = s;
    c->origin = s->center;
    c->translation = d;
    c->exclude = exclude;
    c->best_index = -1;
    /* what rc_sweep_sees leaves out of dynamic bodies is all of them when the sweeper sees none */
    rc_grid_cast_trusted(world->grid, s->center, s->radius, d, 1.0f, !s->sees_dynamic, sweep_fn, c);
}

/* Is p clear of the shape (a point outside it, a circle not overlapping it)? */
static bool clear_of(const rc_world *world, const rc_shape *shape, rc_vec2 p, float radius) {
    rc_shape_view v = rc_shape_view_of(world, shape);
    if (radius == 0.0f && v.kind != RC_SHAPE_SEGMENT) {
        return !rc_view_test_point(&v, p); /* a point: outside, which is cheaper to ask */
    }
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
    if (target->type != RC_STATIC) {
        vt = rc_add(target->linear_velocity, cross_sv(target->angular_velocity, rt));
    }
    rc_vec2 rs = rc_scale(-s->radius, n);
    rc_vec2 vs = rc_add(s->velocity, cross_sv(s->angular_velocity, rs));
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
    if (stick || approach < world->def.restitution_threshold) {
        e = 0.0f;
    }
    /* a rebound no faster than the world's speed limit (a restitution far above 1 gave impulses
       beyond float range, and NaN) */
    float max_speed = world->def.max_linear_speed;
    if (e * approach > max_speed) {
        e = max_speed / approach;
    }
    rc_vec2 t = rc_left_perp(n);
    /* impulses in double: with masses far from 1 (a point mass near FLT_MIN, a body near FLT_MAX)
       they reach beyond float range though the velocities they give do not */
    double rtn = rc_cross(rt, n), rtt = rc_cross(rt, t), rst = rc_cross(rs, t), rsn = rc_cross(rs, n);
    double kn = (double)s->inv_mass + (double)s->inv_inertia * rsn * rsn + im_t + (double)ii_t * rtn * rtn;
    double kt = (double)s->inv_mass + (double)s->inv_inertia * rst * rst + im_t + (double)ii_t * rtt * rtt;
    double pn = (1.0 + (double)e) * approach / kn;
    double pt = -(double)rc_dot(vrel, t) / kt;
    if (!stick) {
        pt = pt < -mu * pn ? -mu * pn : (pt > mu * pn ? mu * pn : pt);
    }
    double px = pn * n.x + pt * t.x, py = pn * n.y + pt * t.y;
    rc_limit_velocity(world, s->velocity.x + s->inv_mass * px, s->velocity.y + s->inv_mass * py,
                      s->angular_velocity + s->inv_inertia * (rs.x * py - rs.y * px), &s->velocity,
                      &s->angular_velocity);
    /* rolling resistance brakes rolling, which the resting-contact solver handles: a bounce is
       too short for it (its impulse would stop any spin at once) */
    if (pushable && sink->push != NULL) {
        sink->push(sink->context, shape->body, -px, -py, point);
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

/* What an impact is: a bounce of the body's life (counted against its budget when reported), a
 * stop dead with its bounces used up, or neither (a slow touch, a push out of an overlap). */
typedef enum impact_kind { IMPACT_TOUCH, IMPACT_BOUNCE, IMPACT_SPENT } impact_kind;

/* Report an impact unless the body is resting: slow, against a shape it already touched (in its
 * previous step, at this step's start, or just before in this step). */
static void report(const rc_world *world, rc_sweeper *s, rc_sweep_sink *sink, int32_t shape, rc_vec2 point,
                   rc_vec2 normal, float approach, impact_kind kind) {
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
    int32_t number = kind == IMPACT_BOUNCE ? rc_count_bounce(&s->bounces_left, &s->bounces_made) : 0;
    if (sink->impact != NULL) {
        sink->impact(sink->context, shape, point, normal, approach, number, kind == IMPACT_SPENT);
    }
}

/* ---- the sweep --------------------------------------------------------------------------------- */

/* Gravity is added to the velocity at the start of a step, and the body then moves in a straight
 * line; at a hit at time tau within the step, the velocity the body would really have there is
 * its velocity less the gravity of the rest of the step. The bounce reflects that velocity and
 * the rest of the step's gravity is added back, which keeps a bounce from gaining energy from
 * the integration (a ball bouncing with e = 1 keeps its height). */
static float bounce_at(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 n, rc_vec2 point, bool stick,
                       float rest_of_step, rc_sweep_sink *sink, bool *held) {
    rc_vec2 later = rc_scale(rest_of_step, s->kick);
    s->velocity = rc_sub(s->velocity, later);
    float approach = bounce(world, s, index, n, point, stick, sink);
    *held = false;
    if (approach > 0.0f) {
        /* the surface holds against the gravity still to come when the bounce leaves too little
           speed to get away (a landing without a bounce): no chatter of tiny bounces */
        const rc_body *target = &world->bodies.data[world->shapes.data[index].body];
        rc_vec2 vt = target->type == RC_STATIC ? rc_v2(0.0f, 0.0f) : target->linear_velocity;
        float leaving = rc_dot(rc_sub(s->velocity, vt), n) + rc_dot(later, n);
        if (leaving < 0.0f) {
            later = rc_mul_add(later, -leaving, n);
            *held = true;
        }
    }
    s->velocity = rc_add(s->velocity, later);
    return approach;
}

/* The part of a drift (half the gravity of the step) that does not press into a surface of
 * normal n. */
static rc_vec2 along_surface(rc_vec2 drift, rc_vec2 n) {
    float into = rc_dot(drift, n);
    return into < 0.0f ? rc_mul_add(drift, -into, n) : drift;
}

/* The velocity of a shape's surface at a point (0 for static shapes). */
static rc_vec2 surface_velocity(const rc_world *world, const rc_shape *shape, rc_vec2 point) {
    const rc_body *b = &world->bodies.data[shape->body];
    if (b->type == RC_STATIC) {
        return rc_v2(0.0f, 0.0f);
    }
    return rc_add(b->linear_velocity, cross_sv(b->angular_velocity, rc_sub(point, b->center)));
}

/* Out of an overlap with a shape: along the distance's normal to a skin clear of it, as far as
   nothing else blocks. The normal, or (0, 0) when the push could not be measured. */
static rc_vec2 push_out(const rc_world *world, rc_sweeper *s, int32_t index) {
    const rc_shape *shape = &world->shapes.data[index];
    rc_shape_view view = rc_shape_view_of(world, shape);
    rc_distance_result dist = rc_view_distance(&view, s->center);
    float skin = rc_world_skin(world, s->center);
    rc_vec2 push = rc_scale(s->radius + skin - dist.distance, dist.normal);
    sweep_cast blocked;
    cast_from(world, s, push, index, &blocked);
    float allowed = 1.0f;
    if (blocked.best_index >= 0) {
        float along = rc_dot(push, blocked.best.normal);
        along = along < 0.0f ? -along : 0.0f;
        allowed = along > 0.0f ? rc_maxf(blocked.best.t - skin / along, 0.0f) : blocked.best.t;
        allowed = blocked.best.started_inside ? 0.0f : allowed;
    }
    s->center = rc_mul_add(s->center, allowed, push);
    return dist.normal;
}

/* A held body (resting in a pile, rolling on the ground) moves along the solver's path. A
 * surface of the static and kinematic world that the path runs into slowly (below the
 * restitution threshold: it was already resting there, or settling) stops it a skin short and
 * the rest of the path slides along that surface, the velocity losing only what goes into it:
 * no bounce, no friction impulse of its own (the solver has the contacts), so a pile settles
 * and sleeps. Returns true when the step is done; false at a fast hit, which the full sweep
 * then makes from where the body is, with *remaining the fraction of the step left. */
static bool sweep_held(const rc_world *world, rc_sweeper *s, float *remaining, rc_sweep_sink *sink) {
    rc_vec2 d = s->path;
    for (int leg = 0; leg < 4 && (d.x != 0.0f || d.y != 0.0f); ++leg) {
        sweep_cast c;
        cast_from(world, s, d, -1, &c);
        if (c.best_index < 0) {
            s->center = rc_add(s->center, d);
            return true;
        }
        const rc_shape *shape = &world->shapes.data[c.best_index];
        rc_vec2 n = c.best.normal;
        float into = rc_dot(rc_sub(s->velocity, surface_velocity(world, shape, c.best.point)), n);
        if (-into >= world->def.restitution_threshold ||
            (c.best.started_inside && s->radius == 0.0f && world->bodies.data[shape->body].type == RC_STATIC)) {
            /* what is left of the step, as the part of the path still to go */
            float whole = rc_length(s->path);
            *remaining = whole > 0.0f ? rc_minf(rc_length(d) / whole, 1.0f) : 1.0f;
            return false;
        }
        /* a first slow touch of a shape it did not rest on is still an impact (report() keeps
           quiet about what it rests on) */
        float tolerance = 8.0f * FLT_EPSILON * rc_length(s->velocity);
        report(world, s, sink, c.best_index, c.best.point, n, -into > tolerance ? -into : 0.0f, IMPACT_TOUCH);
        if (c.best.started_inside) {
            n = push_out(world, s, c.best_index);
        } else {
            float along = -rc_dot(d, n);
            float skin = rc_world_skin(world, c.best.point);
            float stop = rc_maxf(along > 0.0f ? c.best.t - skin / along : c.best.t, 0.0f);
            rc_vec2 p = rc_mul_add(s->center, stop, d);
            for (int k = 0; k < 8 && stop > 0.0f && !clear_of(world, shape, p, s->radius); ++k) {
                stop = k < 7 ? 0.5f * stop : 0.0f;
                p = rc_mul_add(s->center, stop, d);
            }
            s->center = p;
            d = rc_scale(1.0f - stop, d);
        }
        /* the rest slides along the surface, and the velocity keeps what does not go into it */
        float dn = rc_dot(d, n);
        d = dn < 0.0f ? rc_mul_add(d, -dn, n) : d;
        float vn = rc_dot(rc_sub(s->velocity, surface_velocity(world, shape, c.best.point)), n);
        s->velocity = vn < 0.0f ? rc_mul_add(s->velocity, -vn, n) : s->velocity;
    }
    return true;
}

/* Out of the shape it overlaps (push_out), with the bounce off its surface that the push makes:
 * a moving surface gives the body its motion. */
static void push_out_of(const rc_world *world, rc_sweeper *s, int32_t index, float remaining, rc_sweep_sink *sink,
                        bool *held, rc_vec2 *drift) {
    rc_vec2 normal = push_out(world, s, index);
    rc_vec2 point = rc_mul_add(s->center, -s->radius, normal);
    float approach = bounce_at(world, s, index, normal, point, false, remaining, sink, held);
    *drift = *held ? along_surface(*drift, normal) : *drift;
    report(world, s, sink, index, point, normal, approach, IMPACT_TOUCH);
}

typedef struct overlap_find {
    const rc_world *world;
    const rc_sweeper *sweeper;
    int32_t found;
} overlap_find;

static bool overlap_find_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    overlap_find *f = context;
    const rc_shape *shape = &f->world->shapes.data[user];
    bool stays = f->sweeper->radius == 0.0f && f->world->bodies.data[shape->body].type == RC_STATIC;
    if (rc_sweep_sees(f->sweeper, shape) && !stays && (f->found < 0 || user < f->found) &&
        !clear_of(f->world, shape, f->sweeper->center, f->sweeper->radius)) {
        f->found = user;
    }
    return true;
}

/* The shape a body at rest overlaps and is pushed out of (a circle: any it strikes; a point: a
 * moving body's, as a point inside a static shape stays there), the lowest index; -1: none. */
static int32_t overlapped(const rc_world *world, const rc_sweeper *s) {
    overlap_find f = {world, s, -1};
    rc_aabb box = {{s->center.x - s->radius, s->center.y - s->radius}, {s->center.x + s->radius, s->center.y + s->radius}};
    rc_grid_query_aabb_trusted(world->grid, box, !s->sees_dynamic, overlap_find_fn, &f);
    return f.found;
}

void rc_sweep(const rc_world *world, rc_sweeper *s, float dt, rc_sweep_sink *sink) {
    float remaining = 1.0f; /* of the step */
    int32_t bounces = s->step_bounces, push_outs = 0;
    bool held = false;
    sink->last_shape = -1;
    if (s->held) {
        if (sweep_held(world, s, &remaining, sink)) {
            s->angle += s->turn;
            return;
        }
    }
    /* in free flight the body moves along the chord of its parabola over what is left of the
       step: its velocity less half the gravity still to come (exact positions, no energy lost or
       gained); held by surfaces, it moves at its velocity, as the solver left it */
    rc_vec2 drift = s->held ? rc_v2(0.0f, 0.0f) : rc_scale(0.5f, s->kick);
    /* after a bounce the path goes on from the point of contact, though the body stands a skin
       short of it (back along its path, which for a glancing hit is far along the surface): the
       rest of the path is aimed from there at where the exact path ends, held the skin off the
       surface, so that stopping short does not shift where the step ends along the surface (the
       chord stays on the free side of the contact's tangent) */
    rc_vec2 lag = {0.0f, 0.0f}; /* along the surface, from where the body stands to the contact */
    for (;;) {
        rc_vec2 v = rc_sub(s->velocity, rc_scale(remaining, drift));
        rc_vec2 d = rc_mul_add(lag, dt * remaining, v);
        lag = rc_v2(0.0f, 0.0f);
        if (d.x == 0.0f && d.y == 0.0f) {
            /* at rest: pushed out of what moved onto it (a door closing on a bullet that stood
               still was never looked at, and the bullet ended up behind the door), else done */
            int32_t inside = overlapped(world, s);
            if (inside < 0 || push_outs++ >= MAX_PUSH_OUTS) {
                break;
            }
            push_out_of(world, s, inside, remaining, sink, &held, &drift);
            continue;
        }
        sweep_cast c;
        cast_from(world, s, d, -1, &c);
        if (c.best_index < 0) {
            s->center = rc_add(s->center, d);
            break;
        }
        int32_t index = c.best_index;
        const rc_shape *shape = &world->shapes.data[index];

        if (c.best.started_inside) {
            if (s->radius == 0.0f && world->bodies.data[shape->body].type == RC_STATIC) {
                /* a point inside a solid shape is stopped there (spawned in a wall) */
                float speed = rc_length(s->velocity);
                bounce_at(world, s, index, c.best.normal, s->center, true, remaining, sink, &held);
                s->velocity = rc_v2(0.0f, 0.0f);
                s->angular_velocity = 0.0f;
                report(world, s, sink, index, s->center, c.best.normal, speed, IMPACT_TOUCH);
                break;
            }
            /* a circle overlapping a surface, or a point inside a moving body (something moved
               onto it), is pushed out, and the push is swept like any motion: it never carries
               the body through a wall */
            if (push_outs++ >= MAX_PUSH_OUTS) {
                break;
            }
            push_out_of(world, s, index, remaining, sink, &held, &drift);
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
        lag = rc_sub(rc_mul_add(s->center, t, d), p);
        lag = rc_mul_add(lag, -rc_dot(lag, n), n); /* along the surface only: the skin stays */
        s->center = p;
        remaining *= 1.0f - t;

        bool spent = s->bounces_left == 0 || shape->absorbs;
        if (spent || bounces >= s->max_bounces) {
            if (spent || s->max_bounces == 0) {
                /* a bullet that embeds itself: it stops dead and the target takes it all (an
                   absorbing shape spends it: no bounces left) */
                float approach = bounce_at(world, s, index, n, c.best.point, true, remaining, sink, &held);
                s->velocity = rc_v2(0.0f, 0.0f);
                s->angular_velocity = 0.0f;
                s->bounces_left = shape->absorbs ? 0 : s->bounces_left;
                report(world, s, sink, index, c.best.point, n, approach, IMPACT_SPENT);
            } else {
                sink->last_shape = index; /* stopped for this step; it bounces in the next */
            }
            break;
        }
        float approach = bounce_at(world, s, index, n, c.best.point, false, remaining, sink, &held);
        /* held by the surface for the rest of the step: the gravity still to come no longer
           bends the path into it (the chord less half of it lifted a landing body off the
           floor, by a quarter of a unit at dt = 0.25) */
        drift = held ? along_surface(drift, n) : drift;
        if (approach <= 0.0f) {
            /* the surface moves away at least as fast: stay at the contact for this step */
            sink->last_shape = index;
            break;
        }
        ++bounces;
        report(world, s, sink, index, c.best.point, n, approach, IMPACT_BOUNCE);
    }
    s->angle += s->held ? s->turn : dt * s->angular_velocity;
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

/* ---- shapes that absorb projectiles ----------------------------------------------------------- */

bool rc_shape_absorbs_projectiles(const rc_world *world, rc_shape_id id) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    return s != NULL && s->absorbs;
}

bool rc_shape_set_absorbs_projectiles(rc_world *world, rc_shape_id id, bool absorbs) {
    rc_shape *s = rc_shape_for_change(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    int32_t index = (int32_t)id.index - 1, n = rc_setter_records(world, index);
    for (int32_t k = 0; k < n; ++k) {
        world->shapes.data[rc_setter_record(world, index, k)].absorbs = absorbs;
    }
    return true;
}
