/* Continuous collision for solid bodies. The solver moves a body by its velocity over the
 * step; a body that moves further than half its smallest extent in one step could pass through
 * a thin wall between one step's contacts and the next. Such a body is brought back along its
 * motion (the centre of mass on a straight line, the angle turning evenly) to where it first
 * comes within the linear slop of a static or kinematic shape (time of impact, shapes/gjk.c);
 * it keeps its velocity, and the next step's contact meets the wall. Bullets and grenades do
 * not come here: their sweeps are exact (projectile.c). */
#include "world/world_internal.h"

#include <math.h>

/* How far a hull's surface lies at least from a point inside it. */
static float hull_least_extent(const rc_hull_view *h, rc_vec2 about) {
    float least = INFINITY;
    if (h->count >= 3) {
        for (int i = 0; i < h->count; ++i) {
            least = rc_minf(least, rc_dot(h->normals[i], rc_sub(h->points[i], about)));
        }
    } else {
        least = 0.0f; /* a circle's core is its centre; a segment is flat */
    }
    return rc_maxf(least, 0.0f) + h->radius;
}

/* How far a hull's surface lies at most from a point. */
static float hull_most_extent(const rc_hull_view *h, rc_vec2 about) {
    float most = 0.0f;
    for (int i = 0; i < h->count; ++i) {
        most = rc_maxf(most, rc_length(rc_sub(h->points[i], about)));
    }
    return most + h->radius;
}

/* The centre of a hull's core (the mean of its points: inside a convex one). */
static rc_vec2 hull_middle(const rc_hull_view *h) {
    rc_vec2 c = h->points[0];
    for (int i = 1; i < h->count; ++i) {
        c = rc_add(c, h->points[i]);
    }
    return rc_scale(1.0f / (float)h->count, c);
}

void rc_body_extents(const rc_world *world, rc_body *b) {
    float least = INFINITY, most = 0.0f;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->sensor) {
            continue;
        }
        rc_hull room;
        rc_hull_view h = rc_shape_hull_view(world, shape, &room);
        least = rc_minf(least, hull_least_extent(&h, hull_middle(&h)));
        most = rc_maxf(most, hull_most_extent(&h, b->local_center));
    }
    b->min_extent = rc_is_finite(least) ? least : 0.0f;
    b->max_extent = most;
}

typedef struct continuous_query {
    rc_world *world;
    const rc_body *body;
    const rc_shape *shape; /* of the fast body */
    rc_hull_view view;     /* its hull, body frame (of room, or of the pool: no copy) */
    rc_hull room;
    rc_hull hull;          /* the hull copied, for the time of impact: made the first time it is needed */
    bool have_hull;
    float reach;           /* how far its surface lies from the body's centre of mass at most */
    rc_hull_sweep sweep;
    rc_vec2 middle1, middle2; /* the middle of its hull at the start and the end */
    float core;               /* a quarter of its smallest extent */
    float fraction;           /* the earliest touch so far */
    rc_vec2 embedded;         /* at fraction 0 with its core at a wall: the normal into it, else (0, 0) */
    float dt;                 /* the step */
} continuous_query;

/* A chain's wall is met from its free side only, and a body already behind it, or one that
 * ends the step still well in front of it, is let be (no pause at a wall it slides along). */
static bool wall_crossed(const continuous_query *q, const rc_shape *wall) {
    rc_vec2 a = wall->segment[0], b = wall->segment[1];
    rc_vec2 e = rc_sub(b, a);
    float length = rc_length(e);
    if (!(length > q->world->def.linear_slop)) {
        return true;
    }
    e = rc_normalize(e);
    float s1 = rc_cross(e, rc_sub(q->middle1, a)), s2 = rc_cross(e, rc_sub(q->middle2, a));
    if (!wall->one_sided) {
        /* two-sided: measured on the side the body starts on */
        s2 = s1 < 0.0f ? -s2 : s2;
        s1 = s1 < 0.0f ? -s1 : s1;
    }
    return !(s1 < 0.0f || (s1 - s2 < q->core && s2 > q->core));
}

/* Can a shape within reach of its body's centre of mass, the centre moving on a straight line
 * from c1 to c2, come within near of a convex hull (in its own body's frame, xf placing it)? Not
 * when along some edge normal of the hull it stays further than that beyond the edge at both
 * ends: the hull is convex and the centre moves on a line, so it stays beyond in between too.
 * (A box's time of impact costs several distance computations; most bodies near a long wall's
 * box are nowhere near the wall.) */
static bool may_meet(const rc_hull_view *h, rc_transform xf, rc_vec2 c1, rc_vec2 c2, float reach, float near) {
    if (h->count < 2) {
        return true;
    }
    rc_vec2 p1 = rc_inv_transform_point(xf, c1), p2 = rc_inv_transform_point(xf, c2);
    float beyond = reach + h->radius + near;
    for (int i = 0; i < h->count; ++i) {
        rc_vec2 n = h->normals[i], v = h->points[i];
        if (rc_dot(n, rc_sub(p1, v)) > beyond && rc_dot(n, rc_sub(p2, v)) > beyond) {
            return false;
        }
    }
    return true;
}

/* Is the fast body slow in the frame of a kinematic body (which moved first in the step, by its
 * velocity)? Then it cannot pass through it however fast both go (a crate riding a lift, props
 * tumbling in a turning drum): its contacts hold it, as they hold a body slow in the world's
 * frame (rc_continuous's test, made in the kinematic body's frame: its centre's move there and
 * the turn between the two, times its reach). */
static bool slow_against(const continuous_query *q, const rc_body *kinematic) {
    const rc_body *b = q->body;
    if (!kinematic->moved) {
        return false; /* (still: the world's frame is its frame, and the body is fast there) */
    }
    float turn = q->dt * kinematic->angular_velocity;
    rc_vec2 c_end = kinematic->center, c_start = rc_mul_add(c_end, -q->dt, kinematic->linear_velocity);
    rc_rot q_start = rc_rot_from_angle(kinematic->angle - turn);
    rc_vec2 p1 = rc_inv_rotate(q_start, rc_sub(q->sweep.c1, c_start));
    rc_vec2 p2 = rc_inv_rotate(kinematic->xf.q, rc_sub(q->sweep.c2, c_end));
    float reach = rc_length(rc_sub(p2, p1)) + fabsf((q->sweep.a2 - q->sweep.a1) - turn) * b->max_extent;
    return reach <= 0.5f * b->min_extent;
}

static bool continuous_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    continuous_query *q = context;
    rc_world *world = q->world;
    const rc_shape *other = &world->shapes.data[user];
    if (other->body == q->shape->body || other->sensor || other->body_type == RC_DYNAMIC ||
        !rc_shapes_should_pair(world, q->shape, other)) {
        return true;
    }
    const rc_body *ob = &world->bodies.data[other->body];
    if (!ob->enable_response || (other->kind == RC_SHAPE_SEGMENT && !wall_crossed(q, other))) {
        return true;
    }
    rc_hull oroom;
    rc_hull_view ov = rc_shape_hull_view(world, other, &oroom);
    float slop = world->def.linear_slop;
    /* (the time of impact counts a touch within 1.25 slops; rounding stays far within 2) */
    if (!may_meet(&ov, ob->xf, q->sweep.c1, q->sweep.c2, q->reach, 2.0f * slop)) {
        return true; /* (most of them: no hull copied) */
    }
    if (ob->type == RC_KINEMATIC && slow_against(q, ob)) {
        return true;
    }
    rc_hull oh = rc_hull_polygon(ov.points, ov.normals, ov.count, ov.radius);
    if (!q->have_hull) {
        q->hull = rc_hull_polygon(q->view.points, q->view.normals, q->view.count, q->view.radius);
        q->have_hull = true;
    }
    rc_hull_sweep still = {ob->local_center, ob->center, ob->center, ob->angle, ob->angle};
    rc_toi toi = rc_time_of_impact(&q->hull, &q->sweep, &oh, &still, slop, 0.25f * slop);
    if (toi.state == RC_TOI_OVERLAPPED || (toi.state == RC_TOI_HIT && toi.t == 0.0f)) {
        /* touching already (resting on it): a small core about its middle must still not pass
           through */
        rc_hull core = rc_hull_circle(hull_middle(&q->view), q->core);
        toi = rc_time_of_impact(&core, &q->sweep, &oh, &still, slop, 0.25f * slop);
        /* its core touching a static wall already (struck hard, or turned into it) and going
           further: it goes no further this step, and the contacts push it out. (A core deeper
           in has no normal to go by, and a kinematic wall moves on over a body stopped this
           way: the solver pushes those out.) */
        bool core_at_wall = toi.state == RC_TOI_HIT && toi.t == 0.0f && ob->type == RC_STATIC;
        rc_vec2 into = toi.normal;
        if (other->kind == RC_SHAPE_SEGMENT && ob->type == RC_STATIC &&
            (toi.state == RC_TOI_OVERLAPPED || (toi.state == RC_TOI_HIT && toi.t == 0.0f))) {
            /* a chain's wall has no inside: the way into it is across it from the side the
               body started on */
            rc_vec2 e = rc_normalize(rc_sub(other->segment[1], other->segment[0]));
            rc_vec2 n = rc_v2(-e.y, e.x);
            into = rc_dot(n, rc_sub(q->middle1, other->segment[0])) >= 0.0f ? rc_neg(n) : n;
            core_at_wall = true;
        }
        if (core_at_wall && rc_dot(rc_sub(q->middle2, q->middle1), into) > 0.0f) {
            q->fraction = 0.0f;
            q->embedded = into;
            return true;
        }
    }
    if ((toi.state == RC_TOI_HIT || toi.state == RC_TOI_FAILED) && toi.t > 0.0f && toi.t < q->fraction) {
        q->fraction = toi.t;
    }
    return true;
}

void rc_continuous(rc_world *world, rc_body *b, rc_vec2 c1, float a1, rc_rot q1, float dt) {
    rc_vec2 c2 = b->center;
    float a2 = b->angle;
    float reach = rc_length(rc_sub(c2, c1)) + fabsf(a2 - a1) * b->max_extent;
    if (!(reach > 0.5f * b->min_extent)) {
        return; /* slow for its size: the contacts see whatever it comes near */
    }
    continuous_query q;
    q.world = world;
    q.body = b;
    q.sweep = (rc_hull_sweep){b->local_center, c1, c2, a1, a2};
    q.fraction = 1.0f;
    q.embedded = rc_v2(0.0f, 0.0f);
    q.dt = dt;
    /* the body's rotations at both ends are at hand: no sines and cosines again */
    rc_transform x1 = rc_body_origin_at(c1, q1, b->local_center);
    rc_transform x2 = rc_body_origin_at(c2, b->xf.q, b->local_center);
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->sensor) {
            continue;
        }
        q.shape = shape;
        q.view = rc_shape_hull_view(world, shape, &q.room);
        q.have_hull = false;
        rc_vec2 middle = hull_middle(&q.view);
        q.middle1 = rc_transform_point(x1, middle);
        q.middle2 = rc_transform_point(x2, middle);
        q.core = 0.25f * hull_least_extent(&q.view, middle);
        q.reach = hull_most_extent(&q.view, b->local_center);
        /* where it starts is where the last step placed it (its box is the box at x1 but for the
           rounding of a position the game set) */
        rc_aabb box = rc_aabb_union(shape->aabb, rc_shape_box_at(world, shape, x2));
        if (rc_aabb_is_valid(box)) {
            rc_world_query_grids(world, box, true, continuous_fn, &q);
        }
    }
    if (q.fraction < 1.0f) {
        b->center = rc_lerp(c1, c2, q.fraction);
        b->angle = a1 + q.fraction * (a2 - a1);
        b->xf.q = rc_rot_from_angle(b->angle);
    }
    float into = rc_dot(b->linear_velocity, q.embedded);
    if (q.fraction == 0.0f && into > 0.0f) {
        b->linear_velocity = rc_mul_add(b->linear_velocity, -into, q.embedded);
    }
}
