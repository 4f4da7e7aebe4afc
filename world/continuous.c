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

void rc_body_extents(const rc_world *world, rc_body *b) {
    float least = INFINITY, most = 0.0f;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->sensor) {
            continue;
        }
        rc_hull room;
        rc_hull_view h = rc_shape_hull_view(world, shape, &room);
        least = rc_minf(least, hull_least_extent(&h, rc_hull_middle(&h)));
        most = rc_maxf(most, hull_most_extent(&h, b->local_center));
    }
    b->min_extent = rc_is_finite(least) ? least : 0.0f;
    b->max_extent = most;
}

void rc_bodies_refresh_extents(rc_world *world) {
    if (!world->extents_stale) {
        return;
    }
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        rc_body *b = &world->bodies.data[i];
        if (b->in_use && b->max_extent < 0.0f) {
            rc_body_extents(world, b);
        }
    }
    world->extents_stale = false;
}

typedef struct continuous_query {
    rc_world *world;
    const rc_body *body;
    const rc_shape *shape; /* of the fast body */
    rc_transform x1, x2;   /* the body's frames at the step's start and where it ends */
    bool prepared;         /* view to reach below are worked out (prepare_shape) */
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
    bool carried;             /* the earliest touch is of a moving kinematic body, whose motion is carrier */
    rc_hull_sweep carrier;
    int32_t carrier_body;
} continuous_query;

/* Does a body move over the step as this sweep says (a kinematic body that moved; any other
 * stands still: motion_of)? */
static inline bool sweep_moves(const rc_hull_sweep *s) {
    return s->c1.x != s->c2.x || s->c1.y != s->c2.y || s->a1 != s->a2;
}

/* A chain's wall is met from its free side only, and a body already behind it, or one that
 * ends the step still well in front of it and comes no nearer in between than a quarter of its
 * smallest extent, is let be (no pause at a wall it slides along). The sides are taken in the
 * wall's frame (its body moving as `wall_motion` says): a kinematic chain that swept over a prop
 * in the step leaves it on the other side of where the wall ends, which is not behind it (a
 * chain at 200 units/s passed over planks thrown at it, measured against where it ended). */
static bool wall_crossed(const continuous_query *q, const rc_shape *wall, const rc_body *wall_body,
                         const rc_hull_sweep *wall_motion) {
    rc_vec2 a = wall->segment[0], b = wall->segment[1];
    rc_vec2 e = rc_sub(b, a);
    float length = rc_length(e);
    if (!(length > q->world->def.linear_slop)) {
        return true;
    }
    e = rc_normalize(e);
    rc_vec2 start = q->middle1;
    float turn = q->sweep.a2 - q->sweep.a1, bend = 0.0f;
    if (sweep_moves(wall_motion)) {
        /* where the body started, relative to the wall as it started, carried to where the wall
           ends; a turning wall bends the body's path in its frame off the line between (by less
           than the turn carries the start) */
        rc_transform w1 = rc_sweep_transform(wall_motion, 0.0f);
        start = rc_transform_point(wall_body->xf, rc_inv_transform_point(w1, q->middle1));
        float wall_turn = wall_motion->a2 - wall_motion->a1;
        turn -= wall_turn;
        bend = fabsf(wall_turn) * rc_length(rc_sub(start, wall_motion->c2));
    }
    float s1 = rc_cross(e, rc_sub(start, a)), s2 = rc_cross(e, rc_sub(q->middle2, a));
    if (!wall->one_sided) {
        /* two-sided: measured on the side the body starts on */
        s2 = s1 < 0.0f ? -s2 : s2;
        s1 = s1 < 0.0f ? -s1 : s1;
    }
    /* how far a point of it may come closer than its middle does: by turning (a plank stopped at
       a chain, its middle still, swung its far end through it) */
    float swing = fabsf(turn) * q->reach + bend;
    return !(s1 < 0.0f || (s1 - s2 + swing < q->core && s2 > q->core));
}

/* A kinematic body's motion over the step (kinematic bodies move first, by their velocities);
 * any other body's stillness where it stands. */
static rc_hull_sweep motion_of(const continuous_query *q, const rc_body *other) {
    rc_hull_sweep s = {other->local_center, other->center, other->center, other->angle, other->angle};
    if (other->type == RC_KINEMATIC && other->moved) {
        s.c1 = rc_mul_add(other->center, -q->dt, other->linear_velocity);
        s.a1 = other->angle - q->dt * other->angular_velocity;
    }
    return s;
}

/* Can a shape within reach of its body's centre of mass, the centre moving on a straight line
 * from c1 to c2, come within near of a convex hull (in its own body's frame, that body moving as
 * other says and ending at x2)? Not when along some edge normal of the hull it stays further
 * than that beyond the edge at both ends, in the hull's frame: the hull is convex and the centre
 * moves on a line there, so it stays beyond in between too (a turning hull bends the line, by at
 * most the bulge allowed for). (A box's time of impact costs several distance computations; most
 * bodies near a long wall's box are nowhere near the wall.) */
static bool may_meet(const rc_hull_view *h, const rc_hull_sweep *other, rc_transform x2, rc_vec2 c1, rc_vec2 c2,
                     float reach, float near) {
    if (h->count < 2) {
        return true;
    }
    rc_transform x1 = x2;
    float bulge = 0.0f;
    if (other->a1 != other->a2) {
        x1 = rc_sweep_transform(other, 0.0f);
        float turn = other->a2 - other->a1;
        float span = rc_maxf(rc_length(rc_sub(c1, other->c1)), rc_length(rc_sub(c2, other->c2))) +
                     rc_length(rc_sub(c2, c1)) + rc_length(rc_sub(other->c2, other->c1));
        bulge = span * rc_turn_bulge(turn);
    } else {
        x1.p = rc_add(x2.p, rc_sub(other->c1, other->c2));
    }
    rc_vec2 p1 = rc_inv_transform_point(x1, c1), p2 = rc_inv_transform_point(x2, c2);
    float beyond = reach + h->radius + near + bulge;
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
static bool slow_in(const continuous_query *q, const rc_hull_sweep *motion, rc_transform start, rc_transform end) {
    const rc_body *b = q->body;
    if (!sweep_moves(motion)) {
        return false; /* (still: the world's frame is its frame, and the body is fast there) */
    }
    float turn = motion->a2 - motion->a1;
    rc_vec2 p1 = rc_inv_transform_point(start, q->sweep.c1);
    rc_vec2 p2 = rc_inv_transform_point(end, q->sweep.c2);
    float reach = rc_length(rc_sub(p2, p1)) + fabsf((q->sweep.a2 - q->sweep.a1) - turn) * b->max_extent;
    return reach <= 0.5f * b->min_extent;
}

static bool slow_against(const continuous_query *q, const rc_hull_sweep *motion) {
    return slow_in(q, motion, rc_sweep_transform(motion, 0.0f), rc_sweep_transform(motion, 1.0f));
}

/* Is a time of impact a touch after the step's start (a failed one: at its safe fraction)? */
static bool meets_later(rc_toi toi) {
    return (toi.state == RC_TOI_HIT || toi.state == RC_TOI_FAILED) && toi.t > 0.0f;
}

/* Is it a touch at the step's start (overlapping, or within the target)? */
static bool touches_at_start(rc_toi toi) {
    return toi.state == RC_TOI_OVERLAPPED || (toi.state == RC_TOI_HIT && toi.t == 0.0f);
}

/* Is a time of impact a clearance of the whole step, or a touch after its start? */
static bool clears_or_meets_later(rc_toi toi) {
    return toi.state == RC_TOI_SEPARATED || meets_later(toi);
}

/* For a shape touching a wall at the step's start: when the part of it not touching yet comes
 * to the wall, the shape less a skin: a thin one (4 linear slops, the deepest a resting contact
 * sinks and then some: what passes through is at most that), then one of its core's depth.
 * False where it is deeper in than that already. */
static bool skin_time_of_impact(const continuous_query *q, const rc_hull *wall, const rc_hull_sweep *still,
                                rc_toi *out) {
    float slop = q->world->def.linear_slop;
    float skins[2] = {rc_minf(4.0f * slop, q->core), q->core};
    for (int k = 0; k < 2; ++k) {
        rc_hull inset;
        if ((k == 1 && !(skins[1] > skins[0])) || !rc_hull_inset(&q->hull, skins[k], &inset)) {
            continue;
        }
        *out = rc_time_of_impact(&inset, &q->sweep, wall, still, slop, 0.25f * slop);
        if (clears_or_meets_later(*out)) {
            return true;
        }
    }
    return false;
}

/* The earlier of two times of impact that meet after the step's start (a failed one at its safe
 * fraction), as a hit; `a` as it is when neither does. */
static rc_toi earlier_later_hit(rc_toi a, rc_toi b) {
    bool a_later = meets_later(a), b_later = meets_later(b);
    rc_toi first = b_later && (!a_later || b.t < a.t) ? b : a;
    if (a_later || b_later) {
        first.state = RC_TOI_HIT;
    }
    return first;
}

/* Deeper in than a skin: the earliest of its corners not at the wall yet to come to it (one
 * swinging into the wall), or SEPARATED. (A small core circle alone let a spinning plank stopped
 * at a wall swing its far end 1.55 through a wall 0.1 thick in the next step; Box2D v3 falls back
 * to that circle too. The core is looked at as well: corners alone let a plank 0.02 thick spin
 * over the tip of a wall's corner and through.) */
static rc_toi corners_time_of_impact(const continuous_query *q, const rc_hull *wall, const rc_hull_sweep *still) {
    float slop = q->world->def.linear_slop;
    rc_toi first = {RC_TOI_SEPARATED, 1.0f, {1.0f, 0.0f}, {0.0f, 0.0f}};
    for (int i = 0; i < q->hull.count && q->hull.count >= 2; ++i) {
        rc_hull corner = rc_hull_circle(q->hull.points[i], q->hull.radius);
        first = earlier_later_hit(first, rc_time_of_impact(&corner, &q->sweep, wall, still, slop, 0.25f * slop));
    }
    return first;
}

/* The fast shape's hull and its measures, the first time a shape it may meet needs them (a
 * body falling in the open meets none). */
static void prepare_shape(continuous_query *q) {
    if (q->prepared) {
        return;
    }
    q->prepared = true;
    q->view = rc_shape_hull_view(q->world, q->shape, &q->room);
    rc_vec2 middle = rc_hull_middle(&q->view);
    q->middle1 = rc_transform_point(q->x1, middle);
    q->middle2 = rc_transform_point(q->x2, middle);
    q->core = 0.25f * hull_least_extent(&q->view, middle);
    q->reach = hull_most_extent(&q->view, q->body->local_center);
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
    prepare_shape(q);
    const rc_body *ob = &world->bodies.data[other->body];
    if (!ob->enable_response) {
        return true;
    }
    rc_hull_sweep still = motion_of(q, ob);
    if (other->kind == RC_SHAPE_SEGMENT && !wall_crossed(q, other, ob, &still)) {
        return true;
    }
    rc_hull oroom;
    rc_hull_view ov = rc_shape_hull_view(world, other, &oroom);
    float slop = world->def.linear_slop;
    /* (the time of impact counts a touch within 1.25 slops; rounding stays far within 2) */
    if (!may_meet(&ov, &still, ob->xf, q->sweep.c1, q->sweep.c2, q->reach, 2.0f * slop)) {
        return true; /* (most of them: no hull copied) */
    }
    if (ob->type == RC_KINEMATIC && slow_against(q, &still)) {
        return true;
    }
    rc_hull oh = rc_hull_polygon(ov.points, ov.normals, ov.count, ov.radius);
    if (!q->have_hull) {
        q->hull = rc_hull_polygon(q->view.points, q->view.normals, q->view.count, q->view.radius);
        q->have_hull = true;
    }
    rc_toi toi = rc_time_of_impact(&q->hull, &q->sweep, &oh, &still, slop, 0.25f * slop);
    bool touching = touches_at_start(toi);
    rc_toi decided;
    if (touching && skin_time_of_impact(q, &oh, &still, &decided)) {
        /* touching already (resting on it, or stopped there by the last step): the whole shape
           but for a skin must still not pass through */
        toi = decided;
    } else if (touching) {
        /* its inside at the wall already: its corners, and a small core about its middle, must
           still not pass through */
        rc_toi corners = corners_time_of_impact(q, &oh, &still);
        rc_hull core = rc_hull_circle(rc_hull_middle(&q->view), q->core);
        toi = rc_time_of_impact(&core, &q->sweep, &oh, &still, slop, 0.25f * slop);
        /* its core touching a wall already (struck hard, or turned into it) and going further
           in the wall's frame: it goes no further this step than the wall takes it (a moving
           kinematic wall carries it: rc_continuous), and the contacts push it out. (A core
           deeper in has no normal to go by: the solver pushes those out.) */
        bool moving = sweep_moves(&still);
        bool core_at_wall = toi.state == RC_TOI_HIT && toi.t == 0.0f;
        rc_vec2 into = toi.normal;
        /* how far in it may go in the step: a core at a solid wall by a slop (one that deep is
           let be: the solver pushes it out); at a chain's wall, to within its core's size of
           the line */
        float room = other->kind == RC_SHAPE_SEGMENT ? 0.0f : slop;
        if (other->kind == RC_SHAPE_SEGMENT && ob->type == RC_STATIC && touches_at_start(toi)) {
            /* a chain's wall has no inside: the way into it is across it from the side the
               body started on */
            rc_vec2 e = rc_normalize(rc_sub(other->segment[1], other->segment[0]));
            rc_vec2 n = rc_v2(-e.y, e.x);
            float side = rc_dot(n, rc_sub(q->middle1, other->segment[0]));
            into = side >= 0.0f ? rc_neg(n) : n;
            room = fabsf(side) - q->core;
            core_at_wall = true;
        }
        rc_vec2 along = rc_sub(q->middle2, q->middle1);
        if (moving) {
            /* its move in the wall's frame, turned as the wall ends the step */
            rc_transform w1 = rc_sweep_transform(&still, 0.0f), w2 = rc_sweep_transform(&still, 1.0f);
            along = rc_rotate(w2.q, rc_sub(rc_inv_transform_point(w2, q->middle2), rc_inv_transform_point(w1, q->middle1)));
        }
        /* (stopped at any step into a wall, a plank spawned deep in a floor and turning out of
           it, which its contacts then left alone, never moved again; a plank 0.01 thick lying
           on a chain, whose core is always at it, stopped as gravity pulled it) */
        if (core_at_wall && rc_dot(along, into) > rc_maxf(room, 0.0f)) {
            q->fraction = 0.0f;
            q->embedded = into;
            q->carried = moving;
            q->carrier = still;
            q->carrier_body = other->body;
            return true;
        }
        toi = earlier_later_hit(toi, corners);
    }
    /* (a face of a box that its neighbour covers, met at a seam by a crate sliding over it, is no
       wall: the crate slides on) */
    rc_vec2 motion = rc_sub(q->sweep.c2, q->sweep.c1);
    float swing = fabsf(q->sweep.a2 - q->sweep.a1) * q->reach;
    if (meets_later(toi) && toi.t < q->fraction &&
        !(toi.state == RC_TOI_HIT &&
          rc_seam_hidden(world, other, q->shape, toi.point, rc_neg(toi.normal), motion, swing, q->core))) {
        q->fraction = toi.t;
        q->carried = sweep_moves(&still);
        q->carrier = still;
        q->carrier_body = other->body;
    }
    return true;
}

/* The kinematic bodies of the world that the body may meet, when it holds few and all of them
 * moved in this step (the grid of moving shapes then holds nothing else continuous collision
 * meets: dynamic shapes and sensors never are): those it is fast against, their indices in
 * moved_kinematics in `fast`, their count returned; -1 when the world holds others (the grid is
 * asked). A body slow in a kinematic body's frame is let be by that body (slow_against, with the
 * same numbers: the frames are worked out at the step's first look). A tumbler's props, fast in
 * the world's frame and slow in the drum's, asked the grid for the drum's walls at every step;
 * those fast in the drum's frame too (falling inside it) asked it for its four walls among 2,000
 * props, at about 900 instructions a shape: the walls are looked at alone now. */
static int32_t fast_kinematics(const continuous_query *q, int32_t fast[RC_FEW_KINEMATICS]) {
    rc_world *world = q->world;
    int32_t n = world->moved_kinematic_count;
    if (world->kinematic_bodies != n || n > RC_FEW_KINEMATICS) {
        return -1;
    }
    if (!world->kinematic_frames) {
        for (int32_t k = 0; k < n; ++k) {
            rc_moved_kinematic *m = &world->moved_kinematics[k];
            m->motion = motion_of(q, &world->bodies.data[m->body]);
            m->start = rc_sweep_transform(&m->motion, 0.0f);
            m->end = rc_sweep_transform(&m->motion, 1.0f);
        }
        world->kinematic_frames = true;
    }
    int32_t count = 0;
    for (int32_t k = 0; k < n; ++k) {
        const rc_moved_kinematic *m = &world->moved_kinematics[k];
        if (!slow_in(q, &m->motion, m->start, m->end)) {
            fast[count++] = k;
        }
    }
    return count;
}

/* The shapes of the fast kinematic bodies whose grid boxes, or where they started the step,
 * overlap box, offered to continuous_fn as the grid's query would offer them (a kinematic shape
 * is one proxy, never pieces; a chain's record has none: its segments are shapes of their own). */
static void offer_kinematic_shapes(continuous_query *q, const int32_t *fast, int32_t count, rc_aabb box) {
    const rc_world *world = q->world;
    for (int32_t k = 0; k < count; ++k) {
        const rc_moved_kinematic *m = &world->moved_kinematics[fast[k]];
        const rc_body *kb = &world->bodies.data[m->body];
        /* where its shapes started the step too (their grid boxes look ahead from where they end
           it): asked for the grid boxes alone, a wall 0.1 thick at 186 units/s swept over a crate
           whose whole path lay in the band between, and the crate passed through it. The grid box
           moved back by the body's move and grown by its turn's reach holds where a shape started:
           only a shape whose band that makes near is placed there (most of a tumbler's walls not) */
        rc_vec2 back = rc_sub(m->motion.c1, m->motion.c2);
        float swing = fabsf(m->motion.a2 - m->motion.a1) * kb->max_extent;
        for (int32_t s = kb->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            int32_t proxy = world->shapes.data[s].proxy;
            if (proxy < 0) {
                continue;
            }
            rc_aabb grid_box = rc_grid_get_box(world->grid, proxy);
            rc_aabb started = {{grid_box.lower.x + back.x - swing, grid_box.lower.y + back.y - swing},
                               {grid_box.upper.x + back.x + swing, grid_box.upper.y + back.y + swing}};
            if (rc_aabb_overlaps(grid_box, box) ||
                (rc_aabb_overlaps(rc_aabb_union(started, grid_box), box) &&
                 rc_aabb_overlaps(rc_aabb_union(rc_shape_box_at(world, &world->shapes.data[s], m->start), grid_box),
                                  box))) {
                (void)continuous_fn(proxy, s, q);
            }
        }
    }
}

/* A body brought back to its time of impact fell (and was pushed) through only that part of the
 * step: what gravity and the applied force added to its velocity in the rest of it (`rest`
 * seconds) is taken back, as far as the velocity has it (never turned against them: a velocity
 * held at the speed limit holds less of them). Kept, it lifted the body's energy by up to
 * m g v dt at every such hit: small spinning boxes bounced 1.2% to 2.2% higher than they fell.
 * (Its turn keeps the step's torque: the turn is held to its own limits, and no field acts on it.) */
static void take_back_rest_of_step(const rc_world *world, rc_body *b, float rest) {
    rc_vec2 accel;
    float spin_accel;
    rc_body_accel(b, &accel, &spin_accel);
    rc_vec2 kick = rc_force_kick(world, b, accel, rest);
    float k2 = rc_dot(kick, kick);
    if (k2 > 0.0f) {
        float held = rc_maxf(0.0f, rc_minf(rc_dot(b->linear_velocity, kick) / k2, 1.0f));
        b->linear_velocity = rc_mul_add(b->linear_velocity, -held, kick);
    }
}

/* The query looks with the fast body's shape `shape` next (its hull worked out when needed). */
static void look_with(continuous_query *q, const rc_shape *shape) {
    q->shape = shape;
    q->prepared = false;
    q->have_hull = false;
}

/* A body that a kinematic body carries for the rest of the step (rc_continuous_fast: met by it
 * at fraction q->fraction, from where the body stands to `center` and `angle`) goes no further
 * than its first touch of a static shape on the way: the kinematic body then passes over it
 * rather than carry it into the level. (Carried whole, a crate pushed by a piston that stopped
 * 0.55 short of a wall 0.1 thick went in with it, its middle beyond the wall's, and the solver
 * then pushed it out through the far side.) */
static void carry_to_level(continuous_query *carried, rc_body *b, rc_vec2 center, float angle) {
    rc_world *world = carried->world;
    continuous_query q = *carried;
    q.sweep = (rc_hull_sweep){b->local_center, b->center, center, b->angle, angle};
    q.x1 = rc_body_origin_at(b->center, rc_rot_from_angle(b->angle), b->local_center);
    q.x2 = rc_body_origin_at(center, rc_rot_from_angle(angle), b->local_center);
    q.fraction = 1.0f;
    q.embedded = rc_v2(0.0f, 0.0f);
    q.carried = false;
    if (rc_grid_proxy_count(world->level_grid) > 0) {
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            const rc_shape *shape = &world->shapes.data[s];
            if (shape->sensor) {
                continue;
            }
            look_with(&q, shape);
            rc_aabb box = rc_aabb_union(rc_shape_box_at(world, shape, q.x1), rc_shape_box_at(world, shape, q.x2));
            if (rc_aabb_is_valid(box)) {
                rc_grid_query_aabb_trusted(world->level_grid, box, true, continuous_fn, &q);
            }
        }
    }
    b->center = rc_lerp(b->center, center, q.fraction);
    b->angle += q.fraction * (angle - b->angle);
}

void rc_continuous_fast(rc_world *world, rc_body *b, rc_vec2 c1, float a1, rc_rot q1, float dt) {
    rc_vec2 c2 = b->center;
    float a2 = b->angle;
    continuous_query q;
    q.world = world;
    q.body = b;
    q.sweep = (rc_hull_sweep){b->local_center, c1, c2, a1, a2};
    q.fraction = 1.0f;
    q.embedded = rc_v2(0.0f, 0.0f);
    q.dt = dt;
    q.carried = false;
    /* the body's rotations at both ends are at hand: no sines and cosines again */
    q.x1 = rc_body_origin_at(c1, q1, b->local_center);
    q.x2 = rc_body_origin_at(c2, b->xf.q, b->local_center);
    /* the grid of moving shapes is asked only when the world holds many kinematic bodies */
    int32_t fast[RC_FEW_KINEMATICS];
    int32_t fast_count = fast_kinematics(&q, fast);
    bool level = rc_grid_proxy_count(world->level_grid) > 0;
    if (fast_count == 0 && !level) {
        return; /* nothing can stop it (a tumbler's props: no level, slow in the drum's frame) */
    }
    /* a turn carries a point of it off the line between its two ends (an L turning half a turn
       in the step swung its post through a chain that its boxes at the two ends did not reach):
       by at most its reach's bulge */
    float turn = a2 - a1;
    float bulge = turn != 0.0f ? b->max_extent * rc_turn_bulge(turn) : 0.0f;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->sensor) {
            continue;
        }
        look_with(&q, shape);
        /* where it starts is where the last step placed it (its box is the box at x1 but for the
           rounding of a position the game set), grown by the bulge of its turn */
        rc_aabb box = rc_aabb_union(shape->aabb, rc_shape_box_at(world, shape, q.x2));
        box.lower = rc_v2(box.lower.x - bulge, box.lower.y - bulge);
        box.upper = rc_v2(box.upper.x + bulge, box.upper.y + bulge);
        if (!rc_aabb_is_valid(box)) {
            continue;
        }
        if (fast_count < 0) {
            rc_world_query_grids(world, box, true, continuous_fn, &q);
            continue;
        }
        if (level) {
            rc_grid_query_aabb_trusted(world->level_grid, box, true, continuous_fn, &q);
        }
        offer_kinematic_shapes(&q, fast, fast_count, box);
    }
    if (q.fraction < 1.0f) {
        b->center = rc_lerp(c1, c2, q.fraction);
        b->angle = a1 + q.fraction * (a2 - a1);
        if (q.carried) {
            /* met by a moving kinematic body: it goes on with that body for the rest of the
               step, as if standing on it (left where they met, the body would end the step
               inside it, and a fast door would close over it), up to the first static shape on
               the way (carry_to_level) */
            rc_transform at = rc_sweep_transform(&q.carrier, q.fraction), end = rc_sweep_transform(&q.carrier, 1.0f);
            carry_to_level(&q, b, rc_transform_point(end, rc_inv_transform_point(at, b->center)),
                           b->angle + (1.0f - q.fraction) * (q.carrier.a2 - q.carrier.a1));
        }
        b->xf.q = rc_rot_from_angle(b->angle);
        take_back_rest_of_step(world, b, (1.0f - q.fraction) * dt);
    }
    /* stopped at a wall it was going into: no more going into it (a moving wall's velocity where
       the body is kept) */
    rc_vec2 relative = b->linear_velocity;
    if (q.carried) {
        const rc_body *k = &world->bodies.data[q.carrier_body];
        rc_vec2 r = rc_sub(b->center, k->center);
        relative = rc_sub(relative, rc_add(k->linear_velocity, rc_v2(-k->angular_velocity * r.y, k->angular_velocity * r.x)));
    }
    float into = rc_dot(relative, q.embedded);
    if (q.fraction == 0.0f && into > 0.0f) {
        b->linear_velocity = rc_mul_add(b->linear_velocity, -into, q.embedded);
    }
}
