/* Bounces of swept bodies (the sweep, projectile.c, calls them): the impulses of a hit on the
 * swept body and on what it strikes (free to give way, or braced by the level), the hold that
 * bears its weight for the rest of the step with its friction, a wedged body's velocity, and the
 * impact reports, with the impact events' list and the flag of shapes that absorb projectiles. */
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
 * (the opposite, less what the level takes when it braces that body: brace > 0; its angular one
 * less what its spin limit keeps from it: free_impulses). */
typedef struct bounce_impulse {
    double pn, pt;
    float brace;
    double linear_x, linear_y, angular;
} bounce_impulse;

/* The inverse mass of a contact between the sweeper (its centre rs from the point) and a body
 * free to give way (rt; im_t and ii_t 0 for none) in the frame (n, t): the change of their
 * relative velocity there along n and t that the impulse (pn, pt) on the sweeper makes is
 * (nn pn + nt pt, nt pn + tt pt). Off the line through a turning body's centre, a push along
 * n makes the contact slide along t and the other way round (nt). det by Cauchy-Binet: a sum of
 * positive terms, so it never cancels. */
typedef struct contact_mass {
    double nn, nt, tt, det;
} contact_mass;

static contact_mass contact_mass_of(const rc_sweeper *s, double im_t, double ii_t, rc_vec2 rt, rc_vec2 rs, rc_vec2 n) {
    rc_vec2 t = rc_left_perp(n);
    double rtn = rc_cross(rt, n), rtt = rc_cross(rt, t), rsn = rc_cross(rs, n), rst = rc_cross(rs, t);
    double a = (double)s->inv_mass + im_t, is = s->inv_inertia, uw = rsn * rtt - rst * rtn;
    contact_mass k;
    k.nn = a + is * rsn * rsn + ii_t * rtn * rtn;
    k.tt = a + is * rst * rst + ii_t * rtt * rtt;
    k.nt = is * rsn * rst + ii_t * rtn * rtt;
    k.det = a * a + a * (is * (rsn * rsn + rst * rst) + ii_t * (rtn * rtn + rtt * rtt)) + is * ii_t * uw * uw;
    return k;
}

/* The impulse (pn, pt) that changes the relative velocity at the contact by bn along n (the
 * rebound: 1 + e times the approach) and, if friction can, by bt along t (all of the sliding):
 * sticking, when mu times its normal impulse holds its friction; else sliding, friction mu
 * times the normal impulse on the side sticking needed, the normal impulse then still giving
 * bn along n. (Sticking being out of reach puts that side's edge of the friction cone ahead of
 * the rebound, so nn + side mu nt > 0; the tangent part of the relative velocity then keeps
 * the side it would have without friction.) mu INFINITY: a stick. */
static void coulomb_impulse(const contact_mass *k, double bn, double bt, double mu, double *pn, double *pt) {
    double sn = (bn * k->tt - k->nt * bt) / k->det, st = (k->nn * bt - k->nt * bn) / k->det;
    if (mu == INFINITY || (sn >= 0.0 && fabs(st) <= mu * sn)) {
        *pn = sn;
        *pt = st;
        return;
    }
    double side = st < 0.0 ? -1.0 : 1.0, nn = k->nn + side * mu * k->nt;
    if (!(nn > 0.0)) {
        nn = k->nn; /* (a rounding only: then no friction) */
        side = 0.0;
    }
    *pn = bn / nn;
    *pt = side * mu * *pn;
}

/* The struck body's linear impulse: the opposite of the sweeper's. */
static void struck_takes(rc_vec2 n, bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    j->linear_x = -(j->pn * n.x + j->pt * t.x);
    j->linear_y = -(j->pn * n.y + j->pt * t.y);
}

/* The impulses of a bounce off a body that does not give way (static, kinematic, or one that
 * does not respond), from the relative velocity before it: the normal one turns the approach
 * into a rebound of e times it, friction takes at most mu times it off the sliding (mu:
 * INFINITY for a stick). In double: with masses far from 1 (a point mass near FLT_MIN)
 * impulses reach beyond float range though the velocities they give do not. */
static void fixed_impulses(const rc_sweeper *s, rc_vec2 rs, rc_vec2 n, rc_vec2 vrel, float e, float approach, float mu,
                           bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    double rst = rc_cross(rs, t), rsn = rc_cross(rs, n);
    double kn = (double)s->inv_mass + (double)s->inv_inertia * rsn * rsn;
    double kt = (double)s->inv_mass + (double)s->inv_inertia * rst * rst;
    j->pn = (1.0 + (double)e) * approach / kn;
    double pt = -(double)rc_dot(vrel, t) / kt, limit = (double)mu * j->pn;
    j->pt = within(pt, limit);
}

/* A body free to give way that a bounce strikes: its masses, its velocity as the sweep sees it
 * (body_velocity), and the fastest it may turn after the hit (as fast as the solver lets it,
 * rc_spin_limit, or as it already does). */
typedef struct struck_body {
    double inv_mass, inv_inertia;
    rc_vec2 velocity;
    float angular_velocity;
    double spin_room;
} struck_body;

/* The impulses of a bounce off a body free to give way: the impulse that turns the relative
 * velocity's approach into a rebound of e times it with Coulomb friction (coulomb_impulse), the
 * struck body taking the opposite, so momentum is kept. Where that would turn the struck body
 * faster than its spin limit, its turn stops at the limit: the impulse is the one that makes the
 * same rebound and friction with the body turning by what it still may and no further (its
 * rotational give gone beyond it), so the sweeper's impulse and the body's linear one stay
 * opposite and the rebound exact, and the angular impulse the limit keeps from the body is lost.
 * (Before, the sweeper rebounded as off a body turning freely while the body's turn was cut at
 * the limit afterwards, and the two impulses differed by a fifth; and friction's impulse was
 * worked out apart from the normal one, so off centre each spoilt the other.) */
static void free_impulses(const rc_sweeper *s, const struck_body *b, rc_vec2 rt, rc_vec2 rs, rc_vec2 n, rc_vec2 vrel,
                          float e, float approach, float mu, bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    double rtn = rc_cross(rt, n), rtt = rc_cross(rt, t);
    double bn = (1.0 + (double)e) * approach, bt = -(double)rc_dot(vrel, t);
    contact_mass k = contact_mass_of(s, b->inv_mass, b->inv_inertia, rt, rs, n);
    coulomb_impulse(&k, bn, bt, mu, &j->pn, &j->pt);
    j->angular = -(j->pn * rtn + j->pt * rtt);
    double w = b->angular_velocity, turn = b->inv_inertia * j->angular;
    if (fabs(w + turn) > b->spin_room) {
        /* what it may still turn, and what that turn leaves of the relative velocity's change
           to the rest of the impulse */
        double capped = (turn > 0.0 ? b->spin_room : -b->spin_room) - w;
        contact_mass still = contact_mass_of(s, b->inv_mass, 0.0, rt, rs, n);
        double pn, pt;
        coulomb_impulse(&still, bn + capped * rtn, bt + capped * rtt, mu, &pn, &pt);
        if (pn >= 0.0) {
            j->pn = pn;
            j->pt = pt;
            j->angular = capped / b->inv_inertia;
        } else {
            /* (a rounding's case: the impulse cut to where the turn reaches the limit) */
            double part = capped / turn;
            j->pn *= part;
            j->pt *= part;
            j->angular *= part;
        }
    }
    struck_takes(n, j);
}

/* The impulses of a sweeper that stops dead (its bounces spent, or an absorbing shape) on a
 * body free to give way: the body takes all the momentum it had, at the point it struck; its
 * turn held to its spin limit as in free_impulses. */
static void dead_stop_impulses(const rc_sweeper *s, const struck_body *b, rc_vec2 rt, rc_vec2 n, bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    double px = -(double)s->velocity.x / s->inv_mass, py = -(double)s->velocity.y / s->inv_mass;
    j->pn = px * n.x + py * n.y;
    j->pt = px * t.x + py * t.y;
    j->angular = (double)rt.y * px - (double)rt.x * py;
    double w = b->angular_velocity, turn = b->inv_inertia * j->angular;
    if (fabs(w + turn) > b->spin_room) {
        j->angular = ((turn > 0.0 ? b->spin_room : -b->spin_room) - w) / b->inv_inertia;
    }
    struck_takes(n, j);
}

/* The largest part (at most all) of a bounce's impulses off a body free to give way that
 * leaves both within the world's speed limits (or no faster than they were): the same part of
 * every impulse, so they stay opposite (a restitution far above 1 between a heavy bullet and a
 * light prop). Each speed is convex along the impulse, so the part that keeps one within its
 * limit runs from 0 to a root. */
static double part_within(rc_vec2 v, double dx, double dy, double max) {
    double vx = v.x, vy = v.y, room = fmax(max * max, vx * vx + vy * vy), b = vx * dx + vy * dy, a = dx * dx + dy * dy;
    if (!(a > 0.0) || (vx + dx) * (vx + dx) + (vy + dy) * (vy + dy) <= room) {
        return 1.0;
    }
    double c = vx * vx + vy * vy - room; /* <= 0 */
    return fmax(0.0, (-b + sqrt(fmax(0.0, b * b - a * c))) / a);
}

static double part_within_spin(double w, double dw, double max) {
    double room = fmax(max, fabs(w));
    return fabs(w + dw) <= room ? 1.0 : fmax(0.0, ((dw > 0.0 ? room : -room) - w) / dw);
}

static void within_speed_limits(const rc_world *world, const rc_sweeper *s, const struck_body *b, rc_vec2 rs,
                                rc_vec2 n, bounce_impulse *j) {
    rc_vec2 t = rc_left_perp(n);
    double px = j->pn * n.x + j->pt * t.x, py = j->pn * n.y + j->pt * t.y;
    double vmax = world->def.max_linear_speed, wmax = world->def.max_angular_speed;
    double part = part_within(s->velocity, s->inv_mass * px, s->inv_mass * py, vmax);
    double spin = s->inv_inertia * ((double)rs.x * py - (double)rs.y * px);
    part = fmin(part, part_within_spin(s->angular_velocity, spin, wmax));
    part = fmin(part, part_within(b->velocity, b->inv_mass * j->linear_x, b->inv_mass * j->linear_y, vmax));
    part = fmin(part, part_within_spin(b->angular_velocity, b->inv_inertia * j->angular, wmax));
    if (part < 1.0) {
        j->pn *= part;
        j->pt *= part;
        j->linear_x *= part;
        j->linear_y *= part;
        j->angular *= part;
    }
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

/* The velocity of a body the sweep meets, as the sweep sees it: as its own pushes left it, for
 * a body it pushed in this step (the preview's bodies take no impulse; the step's take them at
 * once, rc_pushed_velocity, and so read the same), else the world's. Met again in the step, where
 * its motion from before the push puts it, a pushed body is no longer approached where the bounce
 * left the two parting: the sweeper slides along it (a preview that read the velocity from
 * before the push bounced off it again and again, where the step slid). */
static int32_t struck_record(const rc_sweeper *s, int32_t body) {
    for (int32_t i = 0; i < s->struck_count; ++i) {
        if (s->struck[i].body == body) {
            return i;
        }
    }
    return -1;
}

static void body_velocity(const rc_world *world, rc_sweeper *s, int32_t index, rc_vec2 *v, float *w) {
    const rc_body *b = &world->bodies.data[index];
    int32_t r = struck_record(s, index);
    note_velocity_read(s, b);
    *v = r >= 0 ? s->struck[r].velocity : b->linear_velocity;
    *w = r >= 0 ? s->struck[r].angular_velocity : b->angular_velocity;
}

bool rc_sweep_struck(const rc_sweeper *s, int32_t body) { return struck_record(s, body) >= 0; }

void rc_pushed_velocity(const rc_world *world, const rc_body *b, float h, rc_vec2 *v, float *w, double px, double py,
                        double angular) {
    float before = fabsf(*w);
    rc_limit_velocity(world, v->x + b->inv_mass * px, v->y + b->inv_mass * py, *w + b->inv_inertia * angular, v, w);
    /* a prop struck off centre turns no faster than the solver lets it (a crate hit at its
       corner by a heavy bullet spun at 4,500 rad/s and swung through a wall beside it): the
       bounce worked its impulses out so (free_impulses), and this holds only their roundings,
       never below how fast it turned already */
    float limit = rc_maxf(rc_spin_limit(world, b, h), before);
    *w = rc_maxf(-limit, rc_minf(*w, limit));
}

/* The pushed body's velocity after the push, for the rest of the sweep (as the step leaves the
 * world's body); false when the sweep has no room to keep it (then it is read from the world,
 * which the step has pushed and the preview not). */
static bool note_struck(const rc_world *world, rc_sweeper *s, int32_t index, const bounce_impulse *j) {
    const rc_body *b = &world->bodies.data[index];
    int32_t i = struck_record(s, index);
    if (i < 0) {
        if (s->struck_count == RC_MAX_STRUCK) {
            return false;
        }
        i = s->struck_count++;
        s->struck[i] = (rc_struck){index, b->linear_velocity, b->angular_velocity};
    }
    rc_struck *r = &s->struck[i];
    rc_pushed_velocity(world, b, rc_sub_step(world, s->dt), &r->velocity, &r->angular_velocity, j->linear_x,
                       j->linear_y, j->angular);
    return true;
}

/* The impulse at a contact with surface normal n (towards the sweeper) at point: the normal
 * part of the relative velocity becomes -e times itself, the tangent part loses at most mu times
 * the normal impulse without reversing (which spins a circle up). The struck body, when dynamic,
 * takes the opposite impulse (free_impulses: with the mass and turn of both at the contact),
 * less what the level bracing it takes (braced_impulses). With stick (its bounces spent, or an
 * absorbing shape) the sweeper stops dead: a struck body free to give way takes all its
 * momentum (dead_stop_impulses), else the contact keeps nothing of the relative velocity (e = 0,
 * unlimited friction). *surface: the velocity of the struck surface at the contact after the
 * impulses. Returns the approach speed, or 0 when the two are not approaching (then nothing
 * changed). */
static float bounce(const rc_world *world, rc_sweeper *s, int32_t shape_index, rc_vec2 n, rc_vec2 point, float tau,
                    bool stick, rc_sweep_sink *sink, float *friction, rc_vec2 *surface) {
    const rc_shape *shape = &world->shapes.data[shape_index];
    const rc_body *target = &world->bodies.data[shape->body];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_vec2 rt = rc_sub(point, rc_motion_center(world, &m, shape, tau)); /* from where its centre was then */
    rc_vec2 vt = {0.0f, 0.0f};
    struck_body b = {target->inv_mass, target->inv_inertia, {0.0f, 0.0f}, 0.0f, 0.0};
    if (target->type != RC_STATIC) {
        body_velocity(world, s, shape->body, &b.velocity, &b.angular_velocity);
        vt = rc_add(b.velocity, rc_cross_sv(b.angular_velocity, rt));
    }
    *surface = vt;
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
        braced_impulses(s, target->inv_mass, target->inv_inertia, rt, rs, n, vrel, e, approach, stick ? INFINITY : mu,
                        brace_normal, &j);
    } else if (pushable) {
        float limit = rc_spin_limit(world, target, rc_sub_step(world, s->dt));
        b.spin_room = fmax((double)limit, fabs((double)b.angular_velocity));
        if (stick) {
            dead_stop_impulses(s, &b, rt, n, &j);
        } else {
            free_impulses(s, &b, rt, rs, n, vrel, e, approach, mu, &j);
        }
        within_speed_limits(world, s, &b, rs, n, &j);
    } else {
        fixed_impulses(s, rs, n, vrel, e, approach, stick ? INFINITY : mu, &j);
    }
    rc_vec2 t = rc_left_perp(n);
    double px = j.pn * n.x + j.pt * t.x, py = j.pn * n.y + j.pt * t.y;
    give_sweeper(world, s, rs, px, py);
    /* rolling resistance brakes rolling, which the resting-contact solver handles: a bounce is
       too short for it (its impulse would stop any spin at once) */
    if (pushable) {
        if (note_struck(world, s, shape->body, &j)) {
            const rc_struck *r = &s->struck[struck_record(s, shape->body)];
            *surface = rc_add(r->velocity, rc_cross_sv(r->angular_velocity, rt));
        }
        if (sink->push != NULL) {
            sink->push(sink->context, shape->body, j.linear_x, j.linear_y, j.angular);
        }
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
    if (world->bodies.data[shape->body].type == RC_STATIC) {
        return rc_v2(0.0f, 0.0f);
    }
    rc_vec2 v;
    float w;
    body_velocity(world, s, shape->body, &v, &w);
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_vec2 r = rc_sub(point, rc_motion_center(world, &m, shape, tau));
    return rc_add(v, rc_cross_sv(w, r));
}

/* Coulomb friction over the rest of the step of a body the surface holds (rc_bounce_at): the hold
 * took `hold` of its velocity along n (the part of the gravity still to come that went into the
 * surface), a normal impulse of hold / inv_mass, and the sliding at its contact point loses at
 * most mu times that, without reversing. Returns the change of its velocity. Without it a point
 * slid down a 30 degree slope of friction 0.3 as if frictionless (9.58 down in 2 s, where Coulomb
 * gives 4.80): the landings that hold it on the slope, one a step, are too slow to brake it, and
 * its weight was held by the hold alone. (The surface takes neither impulse: the hold pushes
 * nothing either.) */
static rc_vec2 hold_friction(const rc_world *world, rc_sweeper *s, rc_vec2 n, rc_vec2 surface, float hold, float mu) {
    rc_vec2 before = s->velocity;
    if (!(s->inv_mass > 0.0f) || !(mu > 0.0f)) {
        return rc_v2(0.0f, 0.0f);
    }
    rc_vec2 t = rc_left_perp(n);
    rc_vec2 rs = rc_scale(-s->radius, n);
    rc_vec2 vs = rc_add(s->velocity, rc_cross_sv(s->angular_velocity, rs));
    float slide = rc_dot(rc_sub(vs, surface), t);
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
    rc_vec2 surface;
    float approach = bounce(world, s, index, n, point, 1.0f - rest_of_step, stick, sink, &mu, &surface);
    float hold = 0.0f;
    if (approach > 0.0f) {
        /* the surface holds against the gravity still to come when the bounce leaves too little
           speed to get away (a landing without a bounce): no chatter of tiny bounces. Measured
           at the contact, by the velocities the bounce left (read back from the world, it left
           out the struck body's turn at the contact, and the preview, whose bodies take no
           impulse, read the velocity from before the bounce where the step read the one after) */
        float leaving = rc_dot(rc_sub(s->velocity, surface), n) + rc_dot(later, n);
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
            rc_vec2 braked = hold_friction(world, s, n, surface, hold, mu);
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

/* Wedged (what it meets stops it again and again, and no push takes it out): it keeps no velocity
 * along the path d it could not go. Gravity went on adding to the velocity of a point pinched
 * between a prop and a wall, 33 units/s while it stood still, until a push let it go. Not if all
 * it met in the step were bodies it pushed in it (stale: where their old motions put them, they
 * part by their new velocities): it waits with its velocity (a bullet lost 760 units/s along a
 * ball it had just left, which nothing took). */
void rc_sweeper_wedged(rc_sweeper *s, rc_vec2 d, bool stale) {
    if (stale) {
        return;
    }
    float length = rc_length(d), inverse = 1.0f / length;
    if (!(length > 0.0f) || !rc_is_finite(inverse)) {
        return; /* (a path of a denormal step's length: its unit vector was infinite, the velocity NaN) */
    }
    rc_vec2 u = rc_scale(inverse, d);
    float along = rc_dot(s->velocity, u);
    if (along > 0.0f) {
        s->velocity = rc_mul_add(s->velocity, -along, u);
    }
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
