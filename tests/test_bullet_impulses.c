/* A bullet (a swept point or circle) striking a dynamic prop: the impulses of the hit, against an
 * independent reference written here in double from the rule world.h states, on the exact float
 * numbers the world reports (the impact's point and normal, the bodies' masses and velocities).
 *
 * The rule: at the contact the relative velocity's normal part becomes -e times itself, with the
 * masses and rotational inertias of both bodies (the contact's inverse mass matrix K: the change
 * of the relative velocity there that an impulse P on the bullet makes is K P); friction changes
 * the tangent part by at most mu times the normal impulse (Coulomb: the sliding stops when mu
 * times the normal impulse can stop it, else friction is mu times it against the sliding; mu = 0
 * keeps the bullet's tangent momentum); the prop takes -P at the contact point, so linear
 * momentum is kept exactly. A prop that the impulse would turn faster than its spin limit (a
 * quarter of pi per sub-step for a body with a solid shape that is not a circle) turns at the
 * limit, and the impulse is the one that makes the same rebound and friction with the prop
 * turning that far and no further: momentum and the rebound stay exact, and the prop's angular
 * impulse is what the limit leaves it.
 *
 * The reference works in world coordinates (K = (1/m + 1/M) I + u u^T / I_bullet + w w^T / I_prop
 * with u, w the contact's arms turned a quarter turn), not in the library's (n, t) frame. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include <ricochet/ricochet.h>

#include "support/reference.h"
#include "support/testing.h"
#include "support/world_support.h"

static const float DT = 1.0f / 60.0f;

/* ---- the reference ------------------------------------------------------------------------------ */

typedef struct ref_body {
    double inv_mass, inv_inertia; /* inv_inertia 0: does not turn (a point) */
    ref_v2 v;
    double w;
    ref_v2 arm; /* from its centre to the contact */
} ref_body;

static ref_v2 perp(ref_v2 r) { return ref_v(-r.y, r.x); }

/* The relative velocity at the contact (bullet's less prop's). */
static ref_v2 relative_velocity(const ref_body *b, const ref_body *p) {
    ref_v2 vb = ref_mad(b->v, b->w, perp(b->arm)), vp = ref_mad(p->v, p->w, perp(p->arm));
    return ref_sub(vb, vp);
}

/* K P: the change of the relative velocity at the contact by the impulse P on the bullet (and -P
 * on the prop); turning_prop false: as if the prop could not turn. */
static ref_v2 k_times(const ref_body *b, const ref_body *p, bool turning_prop, ref_v2 P) {
    ref_v2 u = perp(b->arm), w = perp(p->arm);
    double ip = turning_prop ? p->inv_inertia : 0.0;
    ref_v2 out = ref_scale(b->inv_mass + p->inv_mass, P);
    out = ref_mad(out, b->inv_inertia * ref_dot(u, P), u);
    return ref_mad(out, ip * ref_dot(w, P), w);
}

/* The impulse that changes the relative velocity by dn along n and, if friction can, by dt along
 * t = (-n.y, n.x); else sliding, friction mu times the normal impulse on the side sticking asked
 * for. */
static ref_v2 coulomb(const ref_body *b, const ref_body *p, bool turning_prop, ref_v2 n, double dn, double dt,
                      double mu) {
    ref_v2 t = perp(n);
    /* K by its columns, inverted */
    ref_v2 c0 = k_times(b, p, turning_prop, ref_v(1, 0)), c1 = k_times(b, p, turning_prop, ref_v(0, 1));
    double det = c0.x * c1.y - c1.x * c0.y;
    ref_v2 want = ref_mad(ref_scale(dn, n), dt, t);
    ref_v2 stick = ref_v((c1.y * want.x - c1.x * want.y) / det, (-c0.y * want.x + c0.x * want.y) / det);
    double pn = ref_dot(stick, n), pt = ref_dot(stick, t);
    if (pn >= 0.0 && fabs(pt) <= mu * pn) {
        return stick;
    }
    ref_v2 d = ref_mad(n, (pt < 0.0 ? -1.0 : 1.0) * mu, t);
    return ref_scale(dn / ref_dot(n, k_times(b, p, turning_prop, d)), d);
}

typedef struct ref_answer {
    ref_v2 impulse;        /* on the bullet */
    double prop_angular;   /* the prop's angular impulse (its inertia times its change of spin) */
    double approach;
    bool capped;           /* the prop reached its spin limit */
} ref_answer;

static ref_answer reference_bounce(const ref_body *b, const ref_body *p, ref_v2 n, double e, double mu,
                                   double spin_limit) {
    ref_answer a = {{0, 0}, 0.0, 0.0, false};
    ref_v2 vrel = relative_velocity(b, p);
    a.approach = -ref_dot(vrel, n);
    ref_v2 t = perp(n);
    a.impulse = coulomb(b, p, true, n, (1.0 + e) * a.approach, -ref_dot(vrel, t), mu);
    a.prop_angular = -ref_cross(p->arm, a.impulse);
    double w1 = p->w + p->inv_inertia * a.prop_angular, room = fmax(spin_limit, fabs(p->w));
    if (fabs(w1) > room) {
        /* the prop turns by what it still may; the rest of the impulse finds it not turning */
        double capped = (w1 > 0.0 ? room : -room) - p->w;
        ref_v2 left = ref_mad(vrel, -capped, perp(p->arm));
        a.impulse = coulomb(b, p, false, n, e * a.approach - ref_dot(left, n), -ref_dot(left, t), mu);
        a.prop_angular = capped / p->inv_inertia;
        a.capped = true;
    }
    return a;
}

/* ---- one hit in the world --------------------------------------------------------------------------- */

typedef struct hit_case {
    int kind;                /* the prop: 0 a box, 1 a circle, 2 a capsule */
    float size_a, size_b;    /* half extents; radius; the capsule's half length and radius */
    float density, angle, restitution, friction;
    rc_vec2 prop_v;
    float prop_w;
    float bullet_radius;     /* 0: a point */
    float bullet_mass;       /* a point's mass, or the circle's density */
    float bullet_restitution, bullet_friction;
    rc_vec2 from, bullet_v;
} hit_case;

typedef struct hit_outcome {
    int impacts;
    rc_impact_event event;
    ref_body bullet, prop;   /* before the hit, the arms at the contact */
    double bullet_mass, prop_mass, prop_inertia, bullet_inertia;
    ref_v2 bullet_v1, prop_v1;
    double bullet_w1, prop_w1;
    double e, mu, spin_limit;
} hit_outcome;

static rc_body_id make_prop(rc_world *w, const hit_case *c) {
    rc_body_def pd = rc_body_default_def();
    pd.type = RC_DYNAMIC;
    pd.angle = c->angle;
    pd.linear_velocity = c->prop_v;
    pd.angular_velocity = c->prop_w;
    rc_body_id prop = rc_body_create(w, &pd);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = c->restitution;
    sd.friction = c->friction;
    sd.density = c->density;
    rc_shape_id s = c->kind == 0   ? rc_shape_create_box(w, prop, &sd, c->size_a, c->size_b)
                    : c->kind == 1 ? rc_shape_create_circle(w, prop, &sd, c->size_a)
                                   : rc_shape_create_capsule(w, prop, &sd, rc_v2(-c->size_a, 0), rc_v2(c->size_a, 0),
                                                             c->size_b);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return prop;
}

static rc_body_id make_bullet(rc_world *w, const hit_case *c) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.position = c->from;
    bd.linear_velocity = c->bullet_v;
    if (c->bullet_radius == 0.0f) {
        bd.point_mass = c->bullet_mass;
    }
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert_msg(!rc_body_id_is_null(b), "%s", rc_world_last_error(w));
    if (c->bullet_radius > 0.0f) {
        rc_shape_def sd = rc_shape_default_def();
        sd.density = c->bullet_mass;
        sd.restitution = c->bullet_restitution;
        sd.friction = c->bullet_friction;
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, c->bullet_radius)));
    }
    return b;
}

/* One step of a world with no gravity, the prop at the origin and the bullet: what it did, and
 * the reference's numbers for it. */
static hit_outcome run_hit(const hit_case *c) {
    hit_outcome o;
    memset(&o, 0, sizeof o);
    rc_world *w = ws_make_world(rc_v2(0, 0));
    rc_body_id prop = make_prop(w, c);
    rc_body_id bullet = make_bullet(w, c);
    o.prop_mass = rc_body_mass(w, prop);
    o.prop_inertia = rc_body_rotational_inertia(w, prop);
    o.bullet_mass = rc_body_mass(w, bullet);
    o.bullet_inertia = c->bullet_radius > 0.0f ? rc_body_rotational_inertia(w, bullet) : 0.0;
    ref_v2 c0 = ref_from(rc_body_world_center(w, prop)), p0 = ref_from(rc_body_world_center(w, bullet));
    ck_assert(rc_world_step(w, DT));
    const rc_impact_event *ev;
    o.impacts = rc_world_impact_events(w, &ev);
    if (o.impacts == 1) {
        o.event = ev[0];
    }
    ref_v2 c1 = ref_from(rc_body_world_center(w, prop));
    o.bullet_v1 = ref_from(rc_body_linear_velocity(w, bullet));
    o.bullet_w1 = rc_body_angular_velocity(w, bullet);
    o.prop_v1 = ref_from(rc_body_linear_velocity(w, prop));
    o.prop_w1 = rc_body_angular_velocity(w, prop);
    rc_world_destroy(w);
    if (o.impacts != 1) {
        return o;
    }
    /* where the two were at the hit: the bullet's centre there, a radius off the contact, gives
       the time of the step (no gravity: it went straight), and the prop's centre went straight
       from where it started to where it ended (it turns about it) */
    ref_v2 n = ref_from(o.event.normal), point = ref_from(o.event.point), v = ref_from(c->bullet_v);
    ref_v2 at = ref_mad(point, c->bullet_radius, n);
    double tau = ref_dot(ref_sub(at, p0), v) / (ref_dot(v, v) * DT);
    ref_v2 center = ref_mad(c0, tau, ref_sub(c1, c0));
    o.bullet = (ref_body){1.0 / o.bullet_mass, o.bullet_inertia > 0.0 ? 1.0 / o.bullet_inertia : 0.0, v, 0.0,
                          ref_scale(-c->bullet_radius, n)};
    o.prop = (ref_body){1.0 / o.prop_mass, 1.0 / o.prop_inertia, ref_from(c->prop_v), c->prop_w,
                        ref_sub(point, center)};
    bool point_bullet = c->bullet_radius == 0.0f;
    o.e = point_bullet ? c->restitution : fmax(c->restitution, c->bullet_restitution);
    o.mu = point_bullet ? c->friction : sqrt((double)c->friction * c->bullet_friction);
    /* the solver's spin limit for a prop with a solid shape that is not a circle: a quarter of
       pi per sub-step (4 sub-steps), as float works it out; a circle turns as fast as the world
       lets it (1e5 rad/s by default) */
    float h = DT / 4.0f;
    o.spin_limit = c->kind == 1 ? 1.0e5 : (double)(0.25f * 3.14159265f / h);
    return o;
}

/* ---- the comparison ------------------------------------------------------------------------------- */

typedef struct hit_errors {
    double momentum, impulse, angular, rebound, tangent, energy; /* as fractions of their scales */
    bool capped;
    bool parted; /* e > 0: the bullet leaves the prop (see expect_within) */
} hit_errors;

/* How far the world's outcome is from the reference and from the rule, each as a fraction of the
 * scale its float rounding works at: momenta against the bullet's momentum and the prop's, the
 * prop's angular impulse against that momentum times its arm, velocities against the speeds
 * that meet at the contact. */
static hit_errors compare(const hit_outcome *o) {
    hit_errors r;
    r.parted = o->e > 0.0;
    ref_v2 n = ref_from(o->event.normal), t = perp(n);
    ref_answer a = reference_bounce(&o->bullet, &o->prop, n, o->e, o->mu, o->spin_limit);
    r.capped = a.capped;
    ref_v2 pb = ref_scale(o->bullet_mass, ref_sub(o->bullet_v1, o->bullet.v));
    ref_v2 pp = ref_scale(o->prop_mass, ref_sub(o->prop_v1, o->prop.v));
    double momentum = o->bullet_mass * ref_len(o->bullet.v) + o->prop_mass * ref_len(o->prop.v);
    double speeds = ref_len(o->bullet.v) + ref_len(o->prop.v) + fabs(o->prop.w) * ref_len(o->prop.arm);
    r.momentum = ref_len(ref_add(pb, pp)) / momentum;
    r.impulse = ref_dist(pb, a.impulse) / momentum;
    /* against a prop that turns in the step the hit is found to within half the contact skin
       (conservative advancement, world.h "Bodies in motion"): the reference's time of the hit,
       from the point along the bullet's path, may be off by the time the bullet takes to go that
       far, and its arm by how far the prop's centre moves meanwhile */
    double angular = o->prop_inertia * (o->prop_w1 - o->prop.w);
    double unsure = o->prop.w != 0.0 ? 0.5e-4 * ref_len(o->prop.v) / ref_len(o->bullet.v) * ref_len(a.impulse) : 0.0;
    r.angular = fmax(0.0, fabs(angular - a.prop_angular) - unsure) / (momentum * fmax(ref_len(o->prop.arm), 1e-3));
    /* the rule, on the world's velocities after the hit */
    ref_body b1 = o->bullet, p1 = o->prop;
    b1.v = o->bullet_v1;
    b1.w = o->bullet_w1;
    p1.v = o->prop_v1;
    p1.w = o->prop_w1;
    ref_v2 vrel1 = relative_velocity(&b1, &p1);
    r.rebound = fabs(ref_dot(vrel1, n) - o->e * a.approach) / speeds;
    if (a.capped) {
        /* at the limit the prop turns at it (its turn at the contact against the same speeds) */
        double limit = fmax(o->spin_limit, fabs(o->prop.w));
        r.rebound = fmax(r.rebound, fabs(fabs(o->prop_w1) - limit) * ref_len(o->prop.arm) / speeds);
    }
    double pn = ref_dot(pb, n), pt = ref_dot(pb, t);
    r.tangent = o->mu == 0.0 ? fabs(pt) / momentum : fmax(0.0, fabs(pt) - o->mu * pn) / momentum;
    double ke0 = 0.5 * (o->bullet_mass * ref_dot(o->bullet.v, o->bullet.v) +
                        o->prop_mass * ref_dot(o->prop.v, o->prop.v) + o->prop_inertia * o->prop.w * o->prop.w);
    double ke1 = 0.5 * (o->bullet_mass * ref_dot(o->bullet_v1, o->bullet_v1) +
                        o->prop_mass * ref_dot(o->prop_v1, o->prop_v1) +
                        o->bullet_inertia * o->bullet_w1 * o->bullet_w1 + o->prop_inertia * o->prop_w1 * o->prop_w1);
    r.energy = fmax(0.0, ke1 - ke0) / ke0;
    return r;
}

static void print_case(const char *what, const hit_case *c, const hit_outcome *o, const hit_errors *r) {
    printf("%s: kind %d size %a %a density %a angle %a e %a mu %a prop v (%a, %a) w %a; bullet r %a mass %a e %a mu %a "
           "from (%a, %a) v (%a, %a); normal (%.4f, %.4f) approach %.3f; errors momentum %.3g impulse %.3g angular "
           "%.3g rebound %.3g tangent %.3g energy %.3g capped %d\n",
           what, c->kind, (double)c->size_a, (double)c->size_b, (double)c->density, (double)c->angle,
           (double)c->restitution, (double)c->friction, (double)c->prop_v.x, (double)c->prop_v.y, (double)c->prop_w,
           (double)c->bullet_radius, (double)c->bullet_mass, (double)c->bullet_restitution,
           (double)c->bullet_friction, (double)c->from.x, (double)c->from.y, (double)c->bullet_v.x,
           (double)c->bullet_v.y, (double)o->event.normal.x, (double)o->event.normal.y,
           (double)o->event.approach_speed, r->momentum, r->impulse, r->angular, r->rebound, r->tangent, r->energy,
           r->capped);
}

/* Float rounding bounds on the scales above: the velocities the world keeps are floats (one
 * rounding, 6e-8 of their size), worked out from float velocities, arms and normals through a few
 * products each (the relative velocity at the contact, a difference of speeds up to 3000, is the
 * largest: a few roundings of the larger); 2e-6 of the scale is thirty roundings, where the worst
 * of the random hits below is 5e-7. The bugs this guards against were 1e-3 to 0.99 of it.
 * Momentum is a rounding of each body's velocity after the hit (the worst: 2.7e-7): 1e-6. */
#define TOL_MOMENTUM 1.0e-6
#define TOL_RULE 2.0e-6

/* With e = 0 the bullet leaves the contact at the normal velocity of the prop's point there, so it
 * slides on along the face (which the prop's motion from before the push keeps where it was in
 * this step), and the turn the push gave the prop meets it further along with small further
 * impulses (some 1e-5 of the first; it does not part from a turning face it stays on), each along
 * the face's normal where and when it is met: their sum keeps momentum and energy, which are
 * checked, but is not the reference's one impulse. */
static void expect_within(const char *what, const hit_case *c, const hit_outcome *o) {
    hit_errors r = compare(o);
    bool ok = r.momentum <= TOL_MOMENTUM && r.energy <= TOL_RULE &&
              (!r.parted || (r.impulse <= TOL_RULE && r.angular <= TOL_RULE && r.rebound <= TOL_RULE &&
                             r.tangent <= TOL_RULE));
    if (!ok) {
        print_case(what, c, o, &r);
        fflush(stdout);
    }
    ck_assert_msg(ok, "%s: momentum %.3g, impulse %.3g, angular %.3g, rebound %.3g, tangent %.3g, energy %.3g", what,
                  r.momentum, r.impulse, r.angular, r.rebound, r.tangent, r.energy);
}

/* ---- the attacker's two hits ------------------------------------------------------------------------ */

/* A point bullet (mass 1, 1000 units/s along x) strikes a free box (half extents 1 x 0.5, mass
 * 2, turned 0.65 rad; restitution 0.5, no friction) at rest. Turning freely it would spin at
 * about 400 rad/s, past its limit of 60 pi: it turns at the limit, and the impulse that makes the
 * rebound with it turning so is the bullet's and, opposite, the box's. Before, the box took the
 * impulse of a box turning freely (339.8), its spin then cut to the limit; and the hold that keeps
 * a landing body on a surface measured the bullet's leaving speed against the box's velocity
 * without its turn, found it still coming on, and took another 95.5 off the bullet that nothing
 * took: the bullet lost 435.3, and total momentum went from (1000, 0) to (942.2, 76.1). */
START_TEST(a_bullet_and_the_box_it_spins_to_its_limit_take_opposite_impulses) {
    hit_case c = {0, 1.0f, 0.5f, 1.0f, 0.65f, 0.5f, 0.0f, {0, 0}, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, {-8, -0.2f}, {1000, 0}};
    hit_outcome o = run_hit(&c);
    ck_assert_int_eq(o.impacts, 1);
    hit_errors r = compare(&o);
    ck_assert(r.capped);
    ck_assert_float_eq((float)o.prop_w1, 0.25f * 3.14159265f / (DT / 4.0f));
    expect_within("box at its spin limit", &c, &o);
    /* the whole step's momentum: 1000 along x, as before the hit */
    ck_assert_near(o.bullet_v1.x + 2.0 * o.prop_v1.x, 1000.0, 1e-3);
    ck_assert_near(o.bullet_v1.y + 2.0 * o.prop_v1.y, 0.0, 1e-3);
}
END_TEST

/* A point bullet (mass 1.915, at (867.2, -27.4)) strikes a frictionless ball (mass 14.13,
 * restitution 0.05) that comes at it at (-48.7, -4.1), turning at 1.49 rad/s; the normal at the
 * contact is (-0.455, 0.891). With no friction the bullet keeps its velocity along the surface,
 * -759.84. Before, the ball went on along its motion from before the push into the bullet that
 * had just bounced off it, the bullet slid along it, was wedged and lost its velocity along its
 * path (its tangent velocity went to 0.001), which nothing took: 88% of its impulse was lost. */
START_TEST(a_bullet_keeps_its_sliding_off_a_frictionless_ball_coming_at_it) {
    hit_case c = {1, 1.1530f, 0.0f, 0x1.b11a4ap+1f, 0.0f, 0x1.9d1faap-5f, 0.0f,
                  {-0x1.85b4fp+5f, -0x1.08d9aap+2f}, 0x1.7cb14ep+0f, 0.0f, 0x1.ea4826p+0f, 0.0f, 0.0f,
                  {-8, 0x1.376f52p+0f}, {0x1.b1986ep+9f, -0x1.b61ab2p+4f}};
    hit_outcome o = run_hit(&c);
    ck_assert_int_eq(o.impacts, 1);
    ref_v2 t = perp(ref_from(o.event.normal));
    ck_assert_near(ref_dot(o.bullet_v1, t), ref_dot(ref_from(c.bullet_v), t), 1e-3);
    ck_assert_near(ref_dot(ref_from(c.bullet_v), t), -759.84, 0.01);
    expect_within("ball coming on", &c, &o);
}
END_TEST

/* ---- random hits ----------------------------------------------------------------------------------- */

static hit_case random_case(ws_rng *g, int mode) {
    hit_case c;
    memset(&c, 0, sizeof c);
    c.kind = ws_int(g, 0, 2);
    c.size_a = ws_range(g, 0.2, 2.0);
    c.size_b = c.kind == 0 ? ws_range(g, 0.2, 2.0) : ws_range(g, 0.1, 0.8);
    c.density = ws_range(g, 0.2, 5.0);
    c.angle = ws_range(g, 0.0, 6.0);
    c.restitution = ws_chance(g, 0.2) ? 0.0f : ws_range(g, 0.0, 1.0);
    c.friction = (mode & 2) != 0 ? ws_range(g, 0.1, 1.0) : 0.0f;
    if ((mode & 1) != 0) {
        c.prop_v = rc_v2(ws_range(g, -50.0, 10.0), ws_range(g, -5.0, 5.0));
        c.prop_w = ws_range(g, -20.0, 20.0);
    }
    c.bullet_radius = ws_chance(g, 0.3) ? ws_range(g, 0.02, 0.2) : 0.0f;
    /* a point of mass 0.01 to 20 (the heavy ones turn light props to their limit), or a circle
       of density 1 to 100 */
    c.bullet_mass = c.bullet_radius > 0.0f ? ws_log_range(g, 1.0, 100.0) : ws_log_range(g, 0.01, 20.0);
    c.bullet_restitution = ws_range(g, 0.0, 1.0);
    c.bullet_friction = ws_range(g, 0.0, 1.0);
    /* aimed from x = -4 (it gets there within the step at 300 units/s: no prop reaches out further
       than 2.9) at a point within nine tenths of the prop's inscribed circle (it moves by less than
       a unit in the step) */
    float inscribed = c.kind == 0 ? fminf(c.size_a, c.size_b) : c.kind == 1 ? c.size_a : c.size_b;
    c.from = rc_v2(-4.0f, ws_range(g, -1.5, 1.5));
    float aim = ws_range(g, -0.9, 0.9) * inscribed, speed = ws_range(g, 300.0, 3000.0);
    rc_vec2 to = rc_sub(rc_v2(0.0f, aim), c.from);
    c.bullet_v = rc_scale(speed / rc_length(to), to);
    return c;
}

/* Hits on boxes, balls and capsules, at rest or coming on and turning, with and without friction,
 * of points and circles: each hit's impulses are the reference's and follow the rule, and no hit
 * makes energy. Only steps with one impact on the prop are compared (a turning prop's other end
 * may come round onto the bullet within the step: a second hit); they must be most of them. */
START_TEST(random_hits_on_props_follow_the_reference) {
    ws_rng g = {0x5eed1e55};
    const char *modes[] = {"at rest, no friction", "moving, no friction", "at rest, friction", "moving, friction"};
    for (int mode = 0; mode < 4; ++mode) {
        int cases = rc_test_random_cases(400), compared = 0, capped = 0, stayed = 0;
        hit_errors worst = {0, 0, 0, 0, 0, 0, false, false};
        for (int i = 0; i < cases; ++i) {
            hit_case c = random_case(&g, mode);
            hit_outcome o = run_hit(&c);
            if (o.impacts != 1) {
                continue;
            }
            ++compared;
            hit_errors r = compare(&o);
            capped += r.capped;
            stayed += !r.parted;
            worst.momentum = fmax(worst.momentum, r.momentum);
            if (r.parted) {
                worst.impulse = fmax(worst.impulse, r.impulse);
                worst.angular = fmax(worst.angular, r.angular);
                worst.rebound = fmax(worst.rebound, r.rebound);
            }
            worst.tangent = fmax(worst.tangent, r.tangent);
            worst.energy = fmax(worst.energy, r.energy);
            expect_within(modes[mode], &c, &o);
        }
        printf("[impulses] %s: %d of %d hits compared (%d at the spin limit, %d with e = 0); worst momentum %.2g, "
               "impulse %.2g, angular %.2g, rebound %.2g, tangent %.2g, energy %.2g\n",
               modes[mode], compared, cases, capped, stayed, worst.momentum, worst.impulse, worst.angular,
               worst.rebound, worst.tangent, worst.energy);
        /* (the shares hold for the 400 hits; the tenth of them that valgrind runs is held to
           looser ones, and need not meet the spin limit: 35 of 40 compared in one mode) */
        bool all = cases == 400;
        ck_assert_int_ge(compared, cases * (all ? 9 : 8) / 10);
        ck_assert_int_ge(compared - stayed, cases * (all ? 7 : 6) / 10);
        ck_assert_int_ge(capped, all ? 1 : 0);
    }
}
END_TEST

/* ---- the preview ---------------------------------------------------------------------------------- */

/* A point bullet (mass 1) fired at 400 units/s along x at a light box at rest (half size 0.5,
 * density 0.1 or 0.3: a tenth or three tenths of its mass), turned so that the bullet glances off
 * a slanted face, goes on into where the box stood and slides off its face past the corner in
 * that step, and on into empty space (no gravity: nothing moves near its path but the box it
 * pushed away): the preview's path is the world's, step for step, bit for bit, with its one bounce
 * (the same impulse, and for the rest of that step the box read as the push left it). Before, the
 * preview read the box's velocity from before the push and bounced off it again within the step,
 * where the world slid along it: they parted in the step of the hit. */
START_TEST(the_preview_of_a_bullet_striking_a_prop_is_what_the_world_does) {
    const float angles[] = {0.3f, 0.6f, 0.785f, 1.0f}, heights[] = {-0.4f, 0.2f, -0.2f, 0.0f};
    const float densities[] = {0.1f, 0.1f, 0.3f, 0.3f}, frictions[] = {0.0f, 0.5f, 0.0f, 0.5f};
    for (int k = 0; k < 4; ++k) {
        rc_world *w = ws_make_world(rc_v2(0, 0));
        rc_body_def pd = rc_body_default_def();
        pd.type = RC_DYNAMIC;
        pd.angle = angles[k];
        rc_body_id prop = rc_body_create(w, &pd);
        rc_shape_def sd = rc_shape_default_def();
        sd.density = densities[k];
        sd.restitution = 0.4f;
        sd.friction = frictions[k];
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, prop, &sd, 0.5f, 0.5f)));
        rc_prediction_def def = rc_prediction_default_def();
        def.position = rc_v2(-4.0f, heights[k]);
        def.velocity = rc_v2(400.0f, 0.0f);
        def.point_mass = 1.0f;
        def.bullet = true;
        def.steps = 20;
        rc_vec2 path[20];
        rc_predicted_bounce bounces[4];
        ck_assert_int_eq(rc_world_predict(w, &def, path, bounces, 4), 1);
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.bullet = true;
        bd.position = def.position;
        bd.linear_velocity = def.velocity;
        rc_body_id b = rc_body_create(w, &bd);
        for (int s = 0; s < def.steps; ++s) {
            ck_assert(rc_world_step(w, DT));
            rc_vec2 p = rc_body_position(w, b);
            ck_assert_msg(p.x == path[s].x && p.y == path[s].y,
                          "case %d step %d: world (%.9g, %.9g), preview (%.9g, %.9g)", k, s, (double)p.x, (double)p.y,
                          (double)path[s].x, (double)path[s].y);
            const rc_impact_event *ev;
            ck_assert_int_eq(rc_world_impact_events(w, &ev), s == bounces[0].step ? 1 : 0);
        }
        rc_world_destroy(w);
    }
}
END_TEST

/* ---- misses -------------------------------------------------------------------------------- */

/* The distance between a circle prop (centre c, radius r) or an unturned box (half extents h
 * about c) and a point p, in double: brute force's measure. */
static double prop_gap(bool box, ref_v2 c, double r, ref_v2 h, ref_v2 p) {
    if (!box) {
        return hypot(p.x - c.x, p.y - c.y) - r;
    }
    double dx = fabs(p.x - c.x) - h.x, dy = fabs(p.y - c.y) - h.y;
    return dx > 0.0 || dy > 0.0 ? hypot(fmax(dx, 0.0), fmax(dy, 0.0)) : fmax(dx, dy);
}

/* A circle bullet of radius rb passing a moving prop (a box that does not turn, or a grenade),
 * no gravity, one step: the closest its centre comes to the prop over the step, by 20,000 points
 * of the two straight paths in double (brute force), less rb; and whether the world reported an
 * impact or changed either velocity. */
static double pass_by(bool box, ref_v2 h, double r, ref_v2 prop_v, ref_v2 at, double rb, ref_v2 v, bool *touched) {
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, 0.0f);
    def.enable_sleep = false;
    rc_world *w = rc_world_create(&def);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.linear_velocity = rc_v2((float)prop_v.x, (float)prop_v.y);
    rc_body_id prop = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(box ? rc_shape_create_box(w, prop, &sd, (float)h.x, (float)h.y)
                                       : rc_shape_create_circle(w, prop, &sd, (float)r)));
    rc_body_id bullet = ws_circle_body(w, rc_v2((float)at.x, (float)at.y), rc_v2((float)v.x, (float)v.y), (float)rb,
                                       0.5f, 0.5f, true);
    ck_assert(rc_world_step(w, DT));
    const rc_impact_event *events;
    int n = rc_world_impact_events(w, &events);
    rc_vec2 bv = rc_body_linear_velocity(w, bullet), pv = rc_body_linear_velocity(w, prop);
    *touched = n != 0 || bv.x != (float)v.x || bv.y != (float)v.y || pv.x != (float)prop_v.x || pv.y != (float)prop_v.y;
    rc_world_destroy(w);
    double least = 1e30;
    for (int k = 0; k <= 20000; ++k) {
        double t = (double)DT * k / 20000.0;
        ref_v2 c = ref_v((double)(float)prop_v.x * t, (double)(float)prop_v.y * t);
        ref_v2 p = ref_v((double)(float)at.x + (double)(float)v.x * t, (double)(float)at.y + (double)(float)v.y * t);
        least = fmin(least, prop_gap(box, c, r, h, p));
    }
    return least - rb;
}

/* A circle bullet passing 0.05 beside a box moving at 24 units/s was struck by it: their contact
 * looked as far ahead as they could close in the step (the bullet's 2,400 units/s along the
 * normal of the step's start), and its speculative point held them apart though their paths never
 * met: an impact in empty space, the bullet thrown off, the box thrown back (a helper's, and 216
 * of its 5,000 passes by boxes, 316 by grenades). A bullet's sweep meets dynamic bodies where they
 * are along their motions; its contacts with them look no further ahead than a resting one now.
 * That pass, and 2,000 bullets (radius 0.05 to 0.3, 500 to 3,000 units/s) starting 0.02 to 1.5
 * from a box or a grenade moving at up to 50 units/s whose paths, by brute force, keep at least
 * 0.01 apart (1,729 of them): no impact, and neither velocity changes (before: 81 struck). */
START_TEST(a_bullet_passing_a_moving_prop_is_not_struck_by_it) {
    bool touched;
    double gap = pass_by(true, ref_v(0.18, 0.06), 0.0, ref_v(0.0, 24.0), ref_v(0.4, 0.3), 0.17, ref_v(0.0, -2400.0),
                         &touched);
    ck_assert(gap > 0.04 && gap < 0.06);
    ck_assert_msg(!touched, "the helper's bullet was struck %.3f from the box", gap);
    ws_rng r = {0x9a55ull};
    int struck = 0, misses = 0, cases = rc_test_random_cases(2000);
    for (int k = 0; k < cases; ++k) {
        bool box = ws_chance(&r, 0.5);
        ref_v2 h = ref_v(ws_range(&r, 0.05, 0.6), ws_range(&r, 0.03, 0.6));
        double radius = ws_range(&r, 0.05, 0.6), rb = ws_range(&r, 0.05, 0.3), start = ws_range(&r, 0.02, 1.5);
        double a = ws_range(&r, 0.0, 6.2832), b = ws_range(&r, 0.0, 6.2832), speed = ws_range(&r, 500.0, 3000.0);
        double reach = box ? hypot(h.x, h.y) : radius;
        ref_v2 at = ref_v((reach + rb + start) * cos(a), (reach + rb + start) * sin(a));
        ref_v2 prop_v = ref_v(ws_range(&r, -50.0, 50.0), ws_range(&r, -50.0, 50.0));
        double gap_k = pass_by(box, h, radius, prop_v, at, rb, ref_v(speed * cos(b), speed * sin(b)), &touched);
        if (gap_k < 0.01) {
            continue; /* they meet, or nearly: the hits' tests have those */
        }
        ++misses;
        if (touched) {
            ++struck;
            printf("[impulses] pass %d: a bullet %.4f from a moving %s was struck\n", k, gap_k, box ? "box" : "grenade");
        }
    }
    ck_assert_msg(misses > cases / 4, "only %d of %d passes were misses", misses, cases);
    ck_assert_msg(struck == 0, "%d of %d bullets missing a moving prop were struck by it", struck, misses);
    printf("[impulses] %d bullets passing moving props clear of them: none struck\n", misses);
}
END_TEST

int main(void) {
    Suite *s = suite_create("bullet_impulses");
    TCase *t = tcase_create("impulses");
    tcase_add_test(t, a_bullet_and_the_box_it_spins_to_its_limit_take_opposite_impulses);
    tcase_add_test(t, a_bullet_keeps_its_sliding_off_a_frictionless_ball_coming_at_it);
    tcase_add_test(t, random_hits_on_props_follow_the_reference);
    tcase_add_test(t, the_preview_of_a_bullet_striking_a_prop_is_what_the_world_does);
    tcase_add_test(t, a_bullet_passing_a_moving_prop_is_not_struck_by_it);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
