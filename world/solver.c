/* The contact solver: resting contacts of swept circles, with surfaces (static and kinematic
 * bodies) and with each other. Sweeps resolve every hit during a step exactly; what they
 * cannot do is hold a pile of circles up, where one circle's weight rests on another's
 * support. These few sequential-impulse iterations over the contacts that touched at the end
 * of the last step do that, with friction (which spins a circle up: a disk's inertia), rolling
 * resistance, and a push-out velocity for overlaps that moves the body through its sweep and
 * is dropped afterwards, so that it never adds energy. */
#include "world/world_internal.h"

#include <math.h>

/* Baumgarte factor: the share of an overlap pushed out per step. */
#define PUSH_FACTOR 0.2f
/* units/s: see bias_target */
#define MAX_PUSH_SPEED 1.0e15f

RC_INLINE rc_vec2 cross_sv(float w, rc_vec2 r) { return rc_v2(-w * r.y, w * r.x); }

static rc_vec2 point_velocity(rc_vec2 v, float w, rc_vec2 r) { return rc_add(v, cross_sv(w, r)); }

void rc_constraint_init(const rc_world *world, rc_constraint *c, rc_solver_body *bodies, int32_t a,
                        rc_vec2 ca, float ra, const rc_shape *material, int32_t b, int32_t shape, float dt) {
    const rc_shape *sb = &world->shapes.data[shape];
    const rc_body *bb = &world->bodies.data[sb->body];
    rc_shape_view view = rc_shape_view_of(world, sb);
    rc_distance_result d = rc_view_distance(&view, ca);
    float separation = d.distance - ra;
    rc_vec2 n = d.normal;
    rc_vec2 t = rc_left_perp(n);
    const rc_solver_body *A = &bodies[a];

    c->a = a;
    c->b = b;
    bodies[a].held = true;
    if (b >= 0) {
        bodies[b].held = true;
    }
    c->shape = shape;
    c->b_body = sb->body;
    c->normal = n;
    c->point = rc_mul_add(ca, -ra, n);
    c->ra = rc_sub(c->point, ca);
    c->rb = rc_sub(c->point, bb->center);
    float im_b = 0.0f, ii_b = 0.0f;
    rc_vec2 vb = {0.0f, 0.0f};
    float wb = 0.0f;
    if (b >= 0) {
        im_b = bodies[b].inv_mass;
        ii_b = bodies[b].inv_inertia;
        vb = bodies[b].v;
        wb = bodies[b].w;
        c->vb = rc_v2(0.0f, 0.0f);
        c->wb = 0.0f;
    } else {
        if (bb->type == RC_KINEMATIC) {
            vb = bb->linear_velocity;
            wb = bb->angular_velocity;
        }
        c->vb = vb;
        c->wb = wb;
    }
    float rna = rc_cross(c->ra, n), rnb = rc_cross(c->rb, n);
    float rta = rc_cross(c->ra, t), rtb = rc_cross(c->rb, t);
    float kn = A->inv_mass + im_b + A->inv_inertia * rna * rna + ii_b * rnb * rnb;
    float kt = A->inv_mass + im_b + A->inv_inertia * rta * rta + ii_b * rtb * rtb;
    float kr = A->inv_inertia + ii_b;
    c->normal_mass = kn > 0.0f ? 1.0f / kn : 0.0f;
    c->tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
    c->rolling_mass = kr > 0.0f ? 1.0f / kr : 0.0f;

    c->friction = rc_mix_friction(material->friction, sb->friction);
    c->restitution = rc_maxf(material->restitution, sb->restitution);
    float rb_radius = sb->kind == RC_SHAPE_CIRCLE ? sb->circle.radius : 0.0f;
    c->rolling = rc_maxf(rc_rolling_torque_arm(material->rolling_resistance, ra),
                        rc_rolling_torque_arm(sb->rolling_resistance, rb_radius));

    /* the gap the solver keeps: a skin, like a sweep that stops short of a surface */
    float skin = rc_world_skin(world, ca);
    rc_vec2 kick = b >= 0 ? rc_sub(A->kick, bodies[b].kick) : A->kick;
    rc_vec2 vrel = rc_sub(point_velocity(A->v, A->w, c->ra), point_velocity(vb, wb, c->rb));
    float vn = rc_dot(rc_sub(vrel, kick), n); /* before this step's gravity */
    /* fast enough to bounce off something it was resting near: the bounce comes first */
    c->approach = -vn >= world->def.restitution_threshold && -vn > 0.0f ? -vn : 0.0f;
    /* resting: it may close the gap to the skin, no more */
    c->vn_target = separation > skin ? -(separation - skin) / dt : 0.0f;
    /* a gap too wide to close at any speed the world allows is no limit: held finite, so that the
       solver's differences stay in float range */
    float fastest = 4.0f * world->def.max_linear_speed;
    c->vn_target = c->vn_target < -fastest ? -fastest : c->vn_target;
    /* Capped: for a step far shorter than any game takes (a denormal dt) the push speed is
       beyond float range, and its impulse turned into NaN. The cap is no limit at game
       scales: it pushes out 1e13 units in a step of 1/60 s. */
    c->bias_target = separation < skin ? rc_minf(PUSH_FACTOR * (skin - separation) / dt, MAX_PUSH_SPEED) : 0.0f;
    c->normal_impulse = 0.0f;
    c->tangent_impulse = 0.0f;
    c->rolling_impulse = 0.0f;
    c->bias_impulse = 0.0f;
}

static void apply(rc_solver_body *bodies, const rc_constraint *c, rc_vec2 impulse, float angular) {
    rc_solver_body *A = &bodies[c->a];
    A->v = rc_mul_add(A->v, A->inv_mass, impulse);
    A->w += A->inv_inertia * (rc_cross(c->ra, impulse) + angular);
    if (c->b >= 0) {
        rc_solver_body *B = &bodies[c->b];
        B->v = rc_mul_add(B->v, -B->inv_mass, impulse);
        B->w -= B->inv_inertia * (rc_cross(c->rb, impulse) + angular);
    }
}

static void b_velocity(const rc_solver_body *bodies, const rc_constraint *c, rc_vec2 *v, float *w) {
    if (c->b >= 0) {
        *v = bodies[c->b].v;
        *w = bodies[c->b].w;
    } else {
        *v = c->vb;
        *w = c->wb;
    }
}

static void solve_one(rc_solver_body *bodies, rc_constraint *c) {
    const rc_solver_body *A = &bodies[c->a];
    rc_vec2 vb;
    float wb;
    b_velocity(bodies, c, &vb, &wb);
    rc_vec2 n = c->normal, t = rc_left_perp(n);

    /* normal: never approach faster than the target allows */
    rc_vec2 vrel = rc_sub(point_velocity(A->v, A->w, c->ra), point_velocity(vb, wb, c->rb));
    float lambda = -c->normal_mass * (rc_dot(vrel, n) - c->vn_target);
    float total = rc_maxf(c->normal_impulse + lambda, 0.0f);
    lambda = total - c->normal_impulse;
    c->normal_impulse = total;
    apply(bodies, c, rc_scale(lambda, n), 0.0f);

    /* friction: up to mu times the normal impulse */
    b_velocity(bodies, c, &vb, &wb);
    vrel = rc_sub(point_velocity(A->v, A->w, c->ra), point_velocity(vb, wb, c->rb));
    float limit = c->friction * c->normal_impulse;
    lambda = -c->tangent_mass * rc_dot(vrel, t);
    total = rc_maxf(-limit, rc_minf(c->tangent_impulse + lambda, limit));
    lambda = total - c->tangent_impulse;
    c->tangent_impulse = total;
    apply(bodies, c, rc_scale(lambda, t), 0.0f);

    /* rolling resistance: a torque against the relative spin */
    if (c->rolling > 0.0f) {
        b_velocity(bodies, c, &vb, &wb);
        limit = c->rolling * c->normal_impulse;
        lambda = -c->rolling_mass * (A->w - wb);
        total = rc_maxf(-limit, rc_minf(c->rolling_impulse + lambda, limit));
        lambda = total - c->rolling_impulse;
        c->rolling_impulse = total;
        apply(bodies, c, rc_v2(0.0f, 0.0f), lambda);
    }
}

static void solve_push(rc_solver_body *bodies, rc_constraint *c) {
    if (c->bias_target <= 0.0f && c->bias_impulse <= 0.0f) {
        return;
    }
    rc_solver_body *A = &bodies[c->a];
    rc_vec2 va = point_velocity(A->bias_v, A->bias_w, c->ra);
    rc_vec2 vb = {0.0f, 0.0f};
    if (c->b >= 0) {
        const rc_solver_body *B = &bodies[c->b];
        vb = point_velocity(B->bias_v, B->bias_w, c->rb);
    }
    float lambda = -c->normal_mass * (rc_dot(rc_sub(va, vb), c->normal) - c->bias_target);
    float total = rc_maxf(c->bias_impulse + lambda, 0.0f);
    lambda = total - c->bias_impulse;
    c->bias_impulse = total;
    rc_vec2 p = rc_scale(lambda, c->normal);
    A->bias_v = rc_mul_add(A->bias_v, A->inv_mass, p);
    A->bias_w += A->inv_inertia * rc_cross(c->ra, p);
    if (c->b >= 0) {
        rc_solver_body *B = &bodies[c->b];
        B->bias_v = rc_mul_add(B->bias_v, -B->inv_mass, p);
        B->bias_w -= B->inv_inertia * rc_cross(c->rb, p);
    }
}

/* A bounce as a sweep makes it, one contact at a time with the velocities as they are: each is
 * a two-body impulse with e <= 1, so that together they never add energy (restitution targets
 * solved all at once would, in a chain of circles). Not carried to the next step. */
static void bounce_one(const rc_world *world, rc_solver_body *bodies, rc_constraint *c) {
    const rc_solver_body *A = &bodies[c->a];
    rc_vec2 vb;
    float wb;
    b_velocity(bodies, c, &vb, &wb);
    rc_vec2 n = c->normal, t = rc_left_perp(n);
    /* they touch at the step's start, before this step's gravity: bounce the velocities they
       have there (a swept body's bounce does the same at its time of impact) */
    rc_vec2 va = rc_sub(A->v, A->kick);
    if (c->b >= 0) {
        vb = rc_sub(vb, bodies[c->b].kick);
    }
    rc_vec2 vrel = rc_sub(point_velocity(va, A->w, c->ra), point_velocity(vb, wb, c->rb));
    float vn = rc_dot(vrel, n);
    if (!(vn < 0.0f)) {
        c->approach = 0.0f; /* another bounce already sent them apart */
        return;
    }
    c->approach = -vn;
    float e = -vn >= world->def.restitution_threshold ? c->restitution : 0.0f;
    /* a rebound no faster than the speed limit; the impulse in double (masses far from 1 take it
       beyond float range, though the velocities it gives are not) */
    if (e * -vn > world->def.max_linear_speed) {
        e = world->def.max_linear_speed / -vn;
    }
    double pn = (1.0 + (double)e) * -vn * c->normal_mass;
    double pt = -(double)c->tangent_mass * rc_dot(vrel, t);
    double limit = (double)c->friction * pn;
    pt = pt < -limit ? -limit : (pt > limit ? limit : pt);
    double px = pn * n.x + pt * t.x, py = pn * n.y + pt * t.y;
    rc_solver_body *a = &bodies[c->a];
    rc_limit_velocity(world, a->v.x + a->inv_mass * px, a->v.y + a->inv_mass * py,
                      a->w + a->inv_inertia * ((double)c->ra.x * py - (double)c->ra.y * px), &a->v, &a->w);
    if (c->b >= 0) {
        rc_solver_body *b = &bodies[c->b];
        rc_limit_velocity(world, b->v.x - b->inv_mass * px, b->v.y - b->inv_mass * py,
                          b->w - b->inv_inertia * ((double)c->rb.x * py - (double)c->rb.y * px), &b->v, &b->w);
    }
}

void rc_constraints_solve(const rc_world *world, rc_constraint *constraints, int32_t count, rc_solver_body *bodies,
                          float dt) {
    (void)dt;
    for (int32_t i = 0; i < count; ++i) {
        if (constraints[i].approach > 0.0f) {
            bounce_one(world, bodies, &constraints[i]);
        }
    }
    /* start from last step's impulses (set by the caller): a resting pile needs few passes */
    for (int32_t i = 0; i < count; ++i) {
        rc_constraint *c = &constraints[i];
        rc_vec2 p = rc_add(rc_scale(c->normal_impulse, c->normal), rc_scale(c->tangent_impulse, rc_left_perp(c->normal)));
        apply(bodies, c, p, c->rolling_impulse);
    }
    int32_t iterations = world->def.contact_iterations;
    for (int32_t k = 0; k < iterations; ++k) {
        for (int32_t i = 0; i < count; ++i) {
            solve_one(bodies, &constraints[i]);
        }
    }
    for (int32_t k = 0; k < iterations; ++k) {
        for (int32_t i = 0; i < count; ++i) {
            solve_push(bodies, &constraints[i]);
        }
    }
}
