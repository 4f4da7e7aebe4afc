/* Swept bodies: bullets and grenades move along their motion through the grid's walk, stop
 * short of the first surface they meet, bounce, and go on for the rest of the step. One sweep
 * serves the step and the trajectory preview, so that a preview is what the world then does. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

/* A circle that starts a step overlapping a surface is pushed out; this many times per step at
 * most (a circle wedged between surfaces stays where it is). */
#define MAX_PUSH_OUTS 4

/* ---- the cast ---------------------------------------------------------------------------------- */

typedef struct sweep_cast {
    const rc_world *world;
    const rc_sweeper *sweeper;
    rc_vec2 origin, translation;
    float tau0, tau1; /* the times of the step the translation runs over (equal: at one moment) */
    int32_t exclude, exclude_also; /* shapes not to strike (-1: none) */
    rc_ray_hit best;
    int32_t best_index;
    int32_t last_user; /* the shape the last offer named (a wall's pieces: rc_world_cast_grids) */
    bool met_motion; /* a shape in motion was looked at */
} sweep_cast;

/* The length within which two hits are one point: a few float spacings at its coordinates. */
static float seam_tolerance(rc_vec2 p) { return 64.0f * FLT_EPSILON * rc_maxf(1.0f, rc_maxf(fabsf(p.x), fabsf(p.y))); }

/* The time of the step at fraction t of a cast. */
static float time_at(const sweep_cast *c, float t) { return c->tau0 + t * (c->tau1 - c->tau0); }

/* Does the normal n at p (at time tau) point into shape `other` (touching it there)? Then it is
 * the normal of an inner face of a seam: two boxes laid edge to edge meet a bullet aimed at their
 * seam at the same point, one with its top and one with its side, which is inside the other box. */
static bool normal_into(const sweep_cast *c, int32_t other, rc_vec2 p, rc_vec2 n, float tau) {
    float tol = seam_tolerance(p);
    const rc_shape *shape = &c->world->shapes.data[other];
    rc_shape_motion m = rc_shape_motion_of(c->world, c->sweeper, shape);
    rc_vec2 q = rc_motion_to_placed(&m, rc_mul_add(p, 4.0f * tol, n), tau);
    rc_shape_view v = rc_shape_view_of(c->world, shape);
    return v.kind != RC_SHAPE_SEGMENT && rc_view_distance(&v, q).distance <= tol;
}

/* Is hit (on shape user) struck before the best so far? At one point (within rounding): the hit
 * on a shape that stays, if the other moves; else, unless their faces face each other, the hit
 * whose normal does not point into the other shape (a seam between two shapes is struck on
 * their outer faces, not on the inner face of one: a bullet aimed at the seam of a floor of
 * boxes came back sideways). Else the earlier, else the lower index. *seam: the seam decided
 * (keep_hit then keeps the earlier of the two times). */
static bool strikes_first(const sweep_cast *c, const rc_ray_hit *hit, int32_t user, bool *seam) {
    *seam = false;
    if (c->best_index < 0) {
        return true;
    }
    float tol = seam_tolerance(hit->point);
    if (fabsf(hit->t - c->best.t) * rc_length(c->translation) <= tol && rc_distance(hit->point, c->best.point) <= tol) {
        bool hit_moves = rc_shape_motion_of(c->world, c->sweeper, &c->world->shapes.data[user]).moving;
        bool best_moves = rc_shape_motion_of(c->world, c->sweeper, &c->world->shapes.data[c->best_index]).moving;
        if (hit_moves != best_moves) {
            /* a face that stays and one in motion at one point (a point between a prop lying on
               a floor and the floor, or at the foot of one standing on it): the one that stays
               stops it, a skin off it, and the one in motion pushes it from there as far as the
               other lets it (push_out). Stopped at the moving face, a hair below the floor's
               line, it fell through the floor */
            return !hit_moves;
        }
        if (rc_dot(hit->normal, c->best.normal) > -0.5f) {
            /* (faces that face each other are no seam but a pinch: the earlier stops it) */
            float tau = time_at(c, hit->t);
            bool hit_inner = normal_into(c, c->best_index, hit->point, hit->normal, tau);
            bool best_inner = normal_into(c, user, c->best.point, c->best.normal, tau);
            if (hit_inner != best_inner) {
                *seam = true;
                return best_inner;
            }
        }
    }
    return hit->t < c->best.t || (hit->t == c->best.t && user < c->best_index);
}

/* Did the pre-solve callback cancel the sweeper's hits on this shape for the step? */
static bool skipped(const rc_sweeper *s, int32_t shape) {
    for (int32_t i = 0; i < s->skipped_count; ++i) {
        if (s->skipped[i] == shape) {
            return true;
        }
    }
    return false;
}

/* Where the walk goes on to: shapes a rounding beyond the best are still looked at, since they
 * may meet it at one point. */
static float walk_end(const sweep_cast *c) {
    float len = rc_length(c->translation);
    return len > 0.0f ? rc_minf(c->best.t + seam_tolerance(c->best.point) / len, 1.0f) : c->best.t;
}

/* A hit found (or not) on shape user: kept if it strikes first; the walk's new end. */
static float keep_hit(sweep_cast *c, bool found, const rc_ray_hit *hit, int32_t user, float max_fraction) {
    if (!found || hit->t > max_fraction) {
        return max_fraction;
    }
    bool seam;
    bool best_earlier = c->best_index >= 0 && c->best.t < hit->t;
    float earlier_t = best_earlier ? c->best.t : hit->t;
    rc_vec2 earlier_point = best_earlier ? c->best.point : hit->point;
    if (strikes_first(c, hit, user, &seam)) {
        c->best = *hit;
        c->best_index = user;
    }
    if (seam) {
        /* one point of a seam, struck on its outer face where the sweeper first meets either: the
           inner face's hit may be the earlier by the rounding the seam allows, and the sweeper
           never goes past the first face it meets */
        c->best.t = earlier_t;
        c->best.point = earlier_point;
    }
    return walk_end(c);
}

/* Is a cast's hit that started inside the shape (an overlap of the circle centred at p, where
 * the shape stands) the shape's? Not a chain wall's overlap beyond its joint outside its
 * region (rc_segment_owns): a circle that crossed a one-sided chain's line from behind near a
 * joint was pushed out of the wall it lies over, and that push, swept, started inside the
 * neighbour's end and was refused, for good (it hung at the joint, its velocity growing). */
static bool owns_overlap(const rc_world *world, const rc_shape *shape, const rc_ray_hit *hit, rc_vec2 p) {
    return !hit->started_inside || rc_segment_owns(world, shape, p);
}

/* The cast of a point or circle against a still shape: its hit; for a point, a path that ends on
 * a segment or a polygon's face (rc_point_ends_on_segment, rc_point_ends_on_polygon) or goes on
 * behind a one-sided segment it stands on (rc_point_backs_through_segment) too. */
static bool cast_still(const rc_shape_view *v, bool one_sided, rc_vec2 origin, float radius, rc_vec2 d,
                       rc_ray_hit *hit) {
    bool point_and_segment = radius == 0.0f && v->kind == RC_SHAPE_SEGMENT;
    if (one_sided && !rc_segment_faces(v->u.segment.a, v->u.segment.b, origin)) {
        return point_and_segment && rc_point_backs_through_segment(v->u.segment, origin, d, hit);
    }
    if (rc_view_cast(v, origin, radius, d, hit)) {
        return true;
    }
    if (radius == 0.0f && v->kind == RC_SHAPE_POLYGON) {
        return rc_point_ends_on_polygon(&v->u.polygon, origin, d, hit);
    }
    return point_and_segment && rc_point_ends_on_segment(v->u.segment, origin, d, hit);
}

/* Does a body that starts the cast overlapping a dynamic or kinematic body's shape (a circle
 * over its surface, a point inside it) move out of it: its path, less the shape's own move, away
 * from the surface nearest it? Then the overlap does not stop it (the solver's contact has it,
 * and a shape in motion it still overlaps at the step's end pushes it out: rc_sweep); whatever
 * else is on the way does.
 * Stopped there wherever its push out was blocked, a ball wedged under a grenade, or a point
 * pinched between the floor and a prop lying on it, never reached the floor it was falling
 * onto: its velocity grew by gravity at every step while it stood still (a ball at 32 units/s
 * after 200 steps then threw a plank through the floor). */
static bool leaves_overlap(const sweep_cast *c, const rc_shape *shape, const rc_shape_motion *m, const rc_ray_hit *hit) {
    if (!hit->started_inside) {
        return false;
    }
    rc_shape_view v = rc_shape_view_of(c->world, shape);
    rc_distance_result dist = rc_view_distance(&v, rc_motion_to_placed(m, c->origin, c->tau0));
    rc_vec2 own = rc_sub(c->translation, rc_scale(c->tau1 - c->tau0, m->move));
    return rc_dot(rc_motion_dir_to_placed(m, own, c->tau0), dist.normal) > 0.0f;
}

static float sweep_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    sweep_cast *c = context;
    if (user == c->last_user) {
        return max_fraction; /* the next piece of a wall: rc_world_cast_grids */
    }
    c->last_user = user;
    const rc_shape *shape = &c->world->shapes.data[user];
    if (user == c->exclude || user == c->exclude_also || !rc_sweep_sees(c->world, c->sweeper, shape) ||
        skipped(c->sweeper, user)) {
        return max_fraction;
    }
    rc_shape_motion m = rc_shape_motion_of(c->world, c->sweeper, shape);
    rc_ray_hit hit;
    bool found;
    if (m.moving) {
        /* (a moving shape whose box the walk reached, shown to stay clear of the whole path over
           the leg, is not met: nothing in the tumbler's turning drum is asked at the sweep's end
           whether it overlaps a grenade that its walls' boxes hold but that no wall comes near) */
        float tolerance = 0.5f * rc_world_skin(c->world, c->origin);
        bool apart;
        found = rc_motion_cast(c->world, shape, &m, c->origin, c->sweeper->radius, c->translation, c->tau0, c->tau1,
                               tolerance, &hit, &apart);
        c->met_motion = c->met_motion || !apart;
        found = found && owns_overlap(c->world, shape, &hit, rc_motion_to_placed(&m, c->origin, c->tau0)) &&
                !leaves_overlap(c, shape, &m, &hit);
    } else if (c->translation.x == 0.0f && c->translation.y == 0.0f) {
        return max_fraction; /* a still shape meets nothing that stays put (overlaps: overlapped()) */
    } else {
        rc_shape_view v = rc_shape_view_of(c->world, shape);
        bool one_sided = shape->one_sided && shape->kind == RC_SHAPE_SEGMENT;
        found = cast_still(&v, one_sided, c->origin, c->sweeper->radius, c->translation, &hit);
        found = found && owns_overlap(c->world, shape, &hit, c->origin) &&
                (shape->body_type == RC_STATIC || !leaves_overlap(c, shape, &m, &hit));
    }
    return keep_hit(c, found, &hit, user, max_fraction);
}

/* sweep_fn on a level shape's cast record (level_lean.h): the same checks on the same numbers
 * (a level shape never moves in the step). */
static float lean_sweep_fn(int32_t offset, float max_fraction, void *context) {
    sweep_cast *c = context;
    if (offset == c->last_user) {
        return max_fraction; /* the next piece of a wall */
    }
    c->last_user = offset;
    const rc_cast_record *r = rc_cast_record_at(&c->world->level_lean, offset);
    const rc_sweeper *s = c->sweeper;
    /* rc_sweep_sees for a static shape that is no sensor (sensors have no record) */
    if (r->shape == c->exclude || r->shape == c->exclude_also || r->body == s->self_body ||
        (s->self_body >= 0 && !rc_joints_allow_collision(c->world, s->self_body, r->body)) ||
        !rc_filters_collide(s->filter, r->filter) || skipped(s, r->shape)) {
        return max_fraction;
    }
    if (c->translation.x == 0.0f && c->translation.y == 0.0f) {
        return max_fraction;
    }
    rc_shape_view v = rc_cast_record_view(r);
    rc_ray_hit hit;
    bool found = cast_still(&v, r->one_sided && r->kind == RC_SHAPE_SEGMENT, c->origin, s->radius, c->translation, &hit);
    found = found && owns_overlap(c->world, &c->world->shapes.data[r->shape], &hit, c->origin);
    return keep_hit(c, found, &hit, r->shape, max_fraction);
}

/* The sweep through the level's lean copy, the level grid's levels it does not hold, then the
 * grid of the shapes that move (rc_world_cast_grids' order, each shape the same test). */
static void sweep_lean(const rc_world *world, const rc_level_lean *lean, sweep_cast *c) {
    float max_t = 1.0f;
    float radius = c->sweeper->radius;
    bool skip_mobile = !c->sweeper->sees_dynamic;
    uint64_t left = rc_grid_lean_cast(&lean->cells, c->origin, radius, c->translation, &max_t, lean_sweep_fn, c);
    c->last_user = -1; /* (shape indices from here) */
    if (left != 0) {
        rc_grid_cast_levels(world->level_grid, left, c->origin, radius, c->translation, max_t, skip_mobile, sweep_fn, c);
        max_t = c->best_index >= 0 ? walk_end(c) : max_t;
    }
    if (rc_grid_may_offer(world->grid, skip_mobile)) {
        rc_grid_cast_trusted(world->grid, c->origin, radius, c->translation, max_t, skip_mobile, sweep_fn, c);
    }
}

/* The first shape but `exclude` and `also` that the sweeper strikes moving by d from where it is
 * over the times tau0..tau1 of the step (bodies in motion meet it on their way). */
static void cast_past(const rc_world *world, const rc_sweeper *s, rc_vec2 d, float tau0, float tau1, int32_t exclude,
                      int32_t also, sweep_cast *c) {
    c->world = world;
    c->sweeper = s;
    c->origin = s->center;
    c->translation = d;
    c->tau0 = tau0;
    c->tau1 = tau1;
    c->exclude = exclude;
    c->exclude_also = also;
    c->best_index = -1;
    c->last_user = -1;
    c->met_motion = false;
    const rc_level_lean *lean = rc_fresh_level_lean(world);
    if (lean != NULL) {
        sweep_lean(world, lean, c);
        return;
    }
    /* what rc_sweep_sees leaves out of dynamic bodies is all of them when the sweeper sees none */
    rc_world_cast_grids(world, s->center, s->radius, d, 1.0f, !s->sees_dynamic, sweep_fn, c);
}

static void cast_from(const rc_world *world, const rc_sweeper *s, rc_vec2 d, float tau0, float tau1, int32_t exclude,
                      sweep_cast *c) {
    cast_past(world, s, d, tau0, tau1, exclude, -1, c);
}

/* Is p clear of the shape where it stands (a point outside it, a circle not overlapping it)? */
static bool clear_of(const rc_world *world, const rc_shape *shape, rc_vec2 p, float radius) {
    rc_shape_view v = rc_shape_view_of(world, shape);
    if (radius == 0.0f && v.kind != RC_SHAPE_SEGMENT) {
        return !rc_view_test_point(&v, p); /* a point: outside, which is cheaper to ask */
    }
    if (rc_view_distance_floor(&v, p) > radius) {
        return true; /* far from it: the floor says so without the distance */
    }
    rc_distance_result d = rc_view_distance(&v, p);
    return d.distance > radius;
}

/* The way out of the shape in motion m from p (at time tau of the step), or away from it for a
 * body outside: the distance's normal where the shape stands then, in the world's frame. */
static rc_vec2 way_out(const rc_world *world, const rc_shape *shape, const rc_shape_motion *m, rc_vec2 p, float tau) {
    rc_shape_view v = rc_shape_view_of(world, shape);
    rc_distance_result d = rc_view_distance(&v, rc_motion_to_placed(m, p, tau));
    return rc_motion_dir_from_placed(m, d.normal, tau);
}

/* Is a body at p (at time tau of the step) on the side of the shape in motion m that the normal
 * n (the surface's, where it was struck) faces: the way out of the shape for one inside it, or
 * towards it for one outside, is not across n? */
static bool out_towards(const rc_world *world, const rc_shape *shape, const rc_shape_motion *m, rc_vec2 p, float tau,
                        rc_vec2 n) {
    return rc_dot(way_out(world, shape, m, p, tau), n) > 0.0f;
}

/* May the body stop at p (at time tau): clear of the shape, and where a struck side is given,
 * on that side (out_towards)? */
static bool stops_clear(const rc_world *world, const rc_shape *shape, const rc_shape_motion *m, rc_vec2 p, float tau,
                        float radius, const rc_vec2 *side) {
    return clear_of(world, shape, rc_motion_to_placed(m, p, tau), radius) &&
           (side == NULL || out_towards(world, shape, m, p, tau, *side));
}

/* Does a push of the sweeper (at time tau) that starts overlapping a shape not go into it: not
 * against the way out of it (the distance's normal, within a thousandth of the push)? */
static bool pushed_not_into(const rc_world *world, const rc_sweeper *s, int32_t index, float tau, rc_vec2 push) {
    const rc_shape *shape = &world->shapes.data[index];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    return rc_dot(push, way_out(world, shape, &m, s->center, tau)) >= -1e-3f * rc_length(push);
}

/* ---- the sweep --------------------------------------------------------------------------------- */

/* How far the sweeper may go by push at time tau (a fraction of it) before something else stops
 * it a skin short: the cast reaches a skin beyond the push, so that a surface just past its end
 * stops it too (a push of exactly the skin towards a wall a skin away ended on the wall).
 * (sweep_carry.c's moves ask it too.) */
float rc_sweep_push_allowed(const rc_world *world, const rc_sweeper *s, rc_vec2 push, float tau, int32_t index,
                            int32_t *blocker) {
    float length = rc_length(push);
    if (blocker != NULL) {
        *blocker = -1;
    }
    if (!(length > 0.0f)) {
        return 1.0f;
    }
    float skin = rc_world_skin(world, s->center);
    float reach = (length + skin) / length;
    rc_vec2 cast = rc_scale(reach, push);
    sweep_cast blocked;
    cast_from(world, s, cast, tau, tau, index, &blocked);
    if (blocked.best_index >= 0 && blocked.best.started_inside &&
        pushed_not_into(world, s, blocked.best_index, tau, push)) {
        /* in a corner of two shapes it overlaps both of (two tiles at their seam, the floor and
           the wall of a turning L), a push out of one that does not go into the other is not
           held by it: the next push takes it out of that one (held, it stayed in both, pushed
           out of neither, its velocity growing as it stood) */
        cast_past(world, s, cast, tau, tau, index, blocked.best_index, &blocked);
    }
    if (blocked.best_index < 0) {
        return 1.0f;
    }
    if (blocker != NULL) {
        *blocker = blocked.best_index;
    }
    if (blocked.best.started_inside) {
        return 0.0f;
    }
    float along = -rc_dot(cast, blocked.best.normal);
    float t = along > 0.0f ? rc_maxf(blocked.best.t - skin / along, 0.0f) : blocked.best.t;
    return rc_minf(t * reach, 1.0f);
}

/* Is the sweeper (at time tau) squeezed: does the shape it is pushed out of move against the
 * shape that blocks the push, their surfaces' velocities where it stands apart (a door closing on
 * a wall, or passing over a floor)? A shape that moves with the blocker (the floor and the wall
 * of a turning L, one body or two turning alike) does not: the sweeper is in a corner of theirs,
 * not caught between them, and going out through another face took it through the floor. */
static bool squeezed(const rc_world *world, rc_sweeper *s, const rc_shape *shape, int32_t blocker, float tau) {
    if (blocker < 0) {
        return false;
    }
    const rc_shape *other = &world->shapes.data[blocker];
    rc_vec2 relative = rc_sub(rc_surface_velocity(world, s, shape, s->center, tau),
                              rc_surface_velocity(world, s, other, s->center, tau));
    /* (a thousandth of a skin a second: the roundings of two bodies turning alike are less) */
    return rc_length(relative) > 1e-3f * rc_world_skin(world, s->center);
}

/* Out of an overlap with a shape at time tau: along the distance's normal to a skin clear of it,
 * as far as nothing else blocks. Blocked there by a shape it closes on (squeezed between a
 * closing door and a wall), out through another face of a polygon, the nearest that is clear:
 * the door passes over it rather than holding it inside. The normal it left by. */
static rc_vec2 push_out(const rc_world *world, rc_sweeper *s, int32_t index, float tau) {
    const rc_shape *shape = &world->shapes.data[index];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_shape_view view = rc_shape_view_of(world, shape);
    rc_vec2 q = rc_motion_to_placed(&m, s->center, tau);
    rc_distance_result dist = rc_view_distance(&view, q);
    float skin = rc_world_skin(world, s->center);
    rc_vec2 normal = rc_motion_dir_from_placed(&m, dist.normal, tau);
    rc_vec2 push = rc_scale(s->radius + skin - dist.distance, normal);
    int32_t blocker;
    float allowed = rc_sweep_push_allowed(world, s, push, tau, index, &blocker);
    if (allowed < 1.0f && m.moving && view.kind == RC_SHAPE_POLYGON &&
        squeezed(world, s, shape, blocker, tau)) {
        /* the other faces, nearest first: the first that is clear all the way */
        const rc_convex *poly = &view.u.polygon;
        float best_depth = INFINITY;
        for (int pass = 0; pass < poly->count; ++pass) {
            int face = -1;
            float depth = INFINITY, previous = pass == 0 ? -INFINITY : best_depth;
            for (int i = 0; i < poly->count; ++i) {
                float di = rc_dot(poly->normals[i], rc_sub(poly->vertices[i], q));
                if (di > previous && di < depth) {
                    depth = di;
                    face = i;
                }
            }
            if (face < 0) {
                break;
            }
            best_depth = depth;
            rc_vec2 n = rc_motion_dir_from_placed(&m, poly->normals[face], tau);
            rc_vec2 out = rc_scale(s->radius + skin + depth, n);
            if (rc_sweep_push_allowed(world, s, out, tau, index, NULL) >= 1.0f) {
                s->center = rc_add(s->center, out);
                return n;
            }
        }
    }
    s->center = rc_mul_add(s->center, allowed, push);
    return normal;
}

/* Where the sweeper stands after the hit of cast c: a skin short of the surface, back along its
 * own path (swept clear: the path before the hit crosses nothing), on the near side whatever the
 * rounding. Against a surface in motion the gap is the one at the hit's time; one that closes on
 * the sweeper faster than its path can back away from it (a door swinging onto a bullet at rest)
 * pushes it out a skin. The fraction of the cast it went. */
static float stop_short(const rc_world *world, rc_sweeper *s, const sweep_cast *c) {
    const rc_shape *shape = &world->shapes.data[c->best_index];
    rc_shape_motion m = rc_shape_motion_of(world, s, shape);
    rc_vec2 n = c->best.normal, d = c->translation;
    float t = c->best.t, tau = time_at(c, t);
    float along = -rc_dot(d, n); /* how fast its own path closes the gap, per unit of t */
    float skin = rc_world_skin(world, c->best.point);
    float stop = rc_maxf(along > 0.0f ? t - skin / along : t, 0.0f);
    rc_vec2 p = rc_mul_add(s->center, stop, d);
    /* a surface that caught up with a path leaving it (a grenade that a door pushed, going on as
       fast as the door, met by it again by a rounding) may have passed where the path goes back
       to: the body goes back no further than stays on the side it was struck from, else it is
       pushed out from where the path touched it (it was taken back to where the push began,
       behind the door or deep inside it by then, and left through the door's back) */
    bool chased = along <= 0.0f && m.moving;
    float first_stop = stop;
    bool clear = stops_clear(world, shape, &m, p, tau, s->radius, chased ? &n : NULL);
    for (int k = 0; k < 8 && stop > 0.0f && !clear; ++k) {
        stop = k < 7 ? 0.5f * stop : 0.0f;
        p = rc_mul_add(s->center, stop, d);
        clear = stops_clear(world, shape, &m, p, tau, s->radius, chased ? &n : NULL);
    }
    if (!clear && chased && !out_towards(world, shape, &m, p, tau, n)) {
        stop = first_stop;
        p = rc_mul_add(s->center, stop, d);
    }
    s->center = p;
    if (!clear && m.moving) {
        push_out(world, s, c->best_index, tau);
    } else if (s->radius == 0.0f && shape->kind == RC_SHAPE_SEGMENT && !m.moving) {
        /* a point left on a still segment's line, or a rounding from it (rc_point_backs_through_segment,
           rc_point_ends_on_segment): back a skin onto the side it is struck from, as far as nothing else
           stops it, so that no rounding takes it behind */
        float gap = rc_dot(rc_sub(s->center, c->best.point), n);
        if (gap < rc_rounding_at(s->center, c->best.point)) {
            rc_vec2 lift = rc_scale(skin - gap, n);
            s->center = rc_mul_add(s->center, rc_sweep_push_allowed(world, s, lift, tau, c->best_index, NULL), lift);
        }
    }
    return stop;
}

/* A held body (resting in a pile, rolling on the ground) moves along the solver's path. A
 * surface of the static and kinematic world that the path runs into slowly (below the
 * restitution threshold: it was already resting there, or settling) stops it a skin short and
 * the rest of the path slides along that surface, the velocity losing only what goes into it:
 * no bounce, no friction impulse of its own (the solver has the contacts), so a pile settles
 * and sleeps. Returns true when the step is done; false at a fast hit, which the full sweep
 * then makes from where the body is, with *remaining the fraction of the step left. */
static bool sweep_held(const rc_world *world, rc_sweeper *s, float *remaining, rc_sweep_sink *sink) {
    /* (a path the cast could not stop, rc_grenade_path_is_clear, never comes here: the step's sweeps
       move such a body without a sweeper, and the preview's body is no grenade of the world) */
    rc_vec2 d = s->path;
    float whole = rc_length(s->path);
    /* a path of nothing is cast too (once): what moves onto the body in the step meets it there
       (a door closing on a grenade at rest on the floor passed over it) */
    for (int leg = 0; leg < 4 && (leg == 0 || d.x != 0.0f || d.y != 0.0f); ++leg) {
        /* what is left of the step, as the part of the path still to go (all of it on the first
           leg, where d is the path: |d| / |d| is exactly 1, with no second square root) */
        float left = leg > 0 && whole > 0.0f ? rc_minf(rc_length(d) / whole, 1.0f) : 1.0f;
        sweep_cast c;
        cast_from(world, s, d, 1.0f - left, 1.0f, -1, &c);
        s->met_motion = s->met_motion || c.met_motion;
        if (c.best_index < 0) {
            s->center = rc_add(s->center, d);
            return true;
        }
        const rc_shape *shape = &world->shapes.data[c.best_index];
        rc_vec2 n = c.best.normal;
        float tau = time_at(&c, c.best.t);
        float into = rc_dot(rc_sub(s->velocity, rc_surface_velocity(world, s, shape, c.best.point, tau)), n);
        if (-into >= world->def.restitution_threshold ||
            (c.best.started_inside && s->radius == 0.0f && world->bodies.data[shape->body].type == RC_STATIC)) {
            *remaining = left;
            return false;
        }
        /* a first slow touch of a shape it did not rest on is still an impact (report() keeps
           quiet about what it rests on) */
        float tolerance = 8.0f * FLT_EPSILON * rc_length(s->velocity);
        rc_report_impact(world, s, sink, c.best_index, c.best.point, n, -into > tolerance ? -into : 0.0f,
                         RC_IMPACT_TOUCH);
        float span = left; /* of the step, that the rest of the path takes */
        if (c.best.started_inside) {
            n = push_out(world, s, c.best_index, c.tau0);
        } else {
            float stop = stop_short(world, s, &c);
            d = rc_scale(1.0f - stop, d);
            span *= 1.0f - stop;
        }
        /* the rest slides along the surface, and the velocity keeps what does not go into it.
           A kinematic body's surface pressing on it, which nothing stops, takes it along as far
           as it moves over that time: slid along in the world's frame, a grenade riding a chain
           that pushed it met the chain again at every leg, by the rounding of each stop, and was
           left behind it when the legs ran out (the chain swept over it). (A dynamic body's
           surface gives way: the solver's path has their contact; taken along with a prop
           pressing a bullet into a wall, the bullet stood wedged there.) */
        rc_vec2 surface = rc_surface_velocity(world, s, shape, c.best.point, tau);
        float pressed = shape->body_type == RC_KINEMATIC ? rc_maxf(rc_dot(surface, n), 0.0f) * span * s->dt : 0.0f;
        float dn = rc_dot(d, n) - pressed;
        d = dn < 0.0f ? rc_mul_add(d, -dn, n) : d;
        float vn = rc_dot(rc_sub(s->velocity, surface), n);
        s->velocity = vn < 0.0f ? rc_mul_add(s->velocity, -vn, n) : s->velocity;
    }
    return true;
}

/* Out of the shape it overlaps (push_out, or at the step's end, when `start` is given, back out
 * of the side it came in by: rc_sweep_back_out), with the bounce off its surface that the push
 * makes: a moving surface gives the body its motion. */
static void push_out_of(const rc_world *world, rc_sweeper *s, int32_t index, float remaining, rc_sweep_sink *sink,
                        rc_vec2 *drift, const rc_vec2 *start) {
    rc_vec2 normal;
    if (start == NULL || !rc_sweep_back_out(world, s, index, *start, &normal)) {
        normal = push_out(world, s, index, 1.0f - remaining);
    }
    rc_vec2 point = rc_mul_add(s->center, -s->radius, normal);
    float approach = rc_bounce_at(world, s, index, normal, point, false, remaining, sink, drift);
    rc_report_impact(world, s, sink, index, point, normal, approach, RC_IMPACT_TOUCH);
}

typedef struct overlap_find {
    const rc_world *world;
    const rc_sweeper *sweeper;
    float tau;
    int32_t found;
} overlap_find;

static bool overlap_find_fn(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    overlap_find *f = context;
    const rc_shape *shape = &f->world->shapes.data[user];
    bool stays = f->sweeper->radius == 0.0f && f->world->bodies.data[shape->body].type == RC_STATIC;
    if (!rc_sweep_sees(f->world, f->sweeper, shape) || stays || (f->found >= 0 && user > f->found) || skipped(f->sweeper, user)) {
        return true;
    }
    rc_shape_motion m = rc_shape_motion_of(f->world, f->sweeper, shape);
    rc_vec2 q = rc_motion_to_placed(&m, f->sweeper->center, f->tau);
    if (!clear_of(f->world, shape, q, f->sweeper->radius) && rc_segment_owns(f->world, shape, q)) {
        f->found = user;
    }
    return true;
}

/* The shape a body at rest overlaps at time tau and is pushed out of (a circle: any it strikes;
 * a point: a moving body's, as a point inside a static shape stays there), the lowest index;
 * -1: none. The grid boxes of bodies in motion hold their whole motion. */
static int32_t overlapped(const rc_world *world, const rc_sweeper *s, float tau) {
    overlap_find f = {world, s, tau, -1};
    rc_aabb box = {{s->center.x - s->radius, s->center.y - s->radius}, {s->center.x + s->radius, s->center.y + s->radius}};
    rc_world_query_grids(world, box, !s->sees_dynamic, overlap_find_fn, &f);
    return f.found;
}

/* Does the pre-solve callback cancel the hit of cast c (then the sweep passes through the shape
 * for the rest of the step)? Otherwise the restitution and friction it leaves are the bounce's.
 * remaining: of the step, at the cast's start. */
static bool cancelled_by_game(const rc_world *world, rc_sweeper *s, const sweep_cast *c, float remaining) {
    const rc_shape *shape = &world->shapes.data[c->best_index];
    s->hit_materials = false;
    if (world->pre_solve_fn == NULL || !shape->pre_solve) {
        return false;
    }
    rc_pre_solve hit;
    memset(&hit, 0, sizeof hit);
    if (s->self_shape >= 0) {
        hit.shape_a = rc_shape_id_of(world, s->self_shape);
    }
    if (s->self_body >= 0 && !s->preview) {
        hit.body_a = rc_body_id_of(world, s->self_body);
    }
    hit.shape_b = rc_shape_id_of(world, c->best_index);
    hit.body_b = rc_body_id_of(world, shape->body);
    rc_vec2 n = c->best.normal; /* the surface's, towards the sweeper */
    hit.point = c->best.point;
    hit.normal = rc_neg(n);
    /* its velocity at the hit, as the bounce takes it: less the gravity of the rest of the step */
    float tau = time_at(c, c->best.t);
    rc_vec2 v = rc_mul_add(s->velocity, -remaining * (1.0f - c->best.t), s->kick);
    v = rc_add(v, rc_cross_sv(s->angular_velocity, rc_scale(-s->radius, n)));
    hit.approach_speed = -rc_dot(rc_sub(v, rc_surface_velocity(world, s, shape, c->best.point, tau)), n);
    hit.point_count = 1;
    hit.impact = true;
    hit.preview = s->preview;
    bool point_body = s->radius == 0.0f;
    hit.restitution = point_body ? shape->restitution : rc_maxf(s->restitution, shape->restitution);
    hit.friction = point_body ? shape->friction : rc_mix_friction(s->friction, shape->friction);
    if (!rc_ask_pre_solve(world, &hit) && s->skipped_count < RC_MAX_SKIPPED) {
        s->skipped[s->skipped_count++] = c->best_index;
        return true;
    }
    s->hit_materials = true;
    s->hit_restitution = hit.restitution;
    s->hit_friction = hit.friction;
    return false;
}

/* The sweep in free flight (or from a fast hit on the solver's path) over what remains of the
 * step. */
static void sweep_free(const rc_world *world, rc_sweeper *s, float dt, float remaining, rc_sweep_sink *sink) {
    int32_t bounces = s->step_bounces, push_outs = 0, slides = 0;
    bool stale = true; /* everything it met so far in the step a body it pushed in this step */
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
    rc_vec2 slide = {0.0f, 0.0f}; /* the normal of a surface it goes on along, not bouncing off */
    for (;;) {
        s->hit_materials = false;
        float now = 1.0f - remaining;
        rc_vec2 v = rc_sub(s->velocity, rc_scale(remaining, drift));
        rc_vec2 d = rc_mul_add(lag, dt * remaining, v);
        d = rc_along_surface(d, slide);
        lag = rc_v2(0.0f, 0.0f);
        if (d.x == 0.0f && d.y == 0.0f) {
            /* at rest: pushed out of what moved onto it (a door closing on a bullet that stood
               still was never looked at, and the bullet ended up behind the door); then met by
               what moves onto it in the rest of the step, if anything does */
            int32_t inside = overlapped(world, s, now);
            if (inside >= 0) {
                if (push_outs++ >= MAX_PUSH_OUTS) {
                    break;
                }
                push_out_of(world, s, inside, remaining, sink, &drift, NULL);
                stale = stale && rc_sweep_struck(s, world->shapes.data[inside].body);
                continue;
            }
            if (!s->sees_motion) {
                break;
            }
        }
        sweep_cast c;
        cast_from(world, s, d, now, 1.0f, -1, &c);
        s->met_motion = s->met_motion || c.met_motion;
        if (c.best_index < 0) {
            s->center = rc_add(s->center, d);
            break;
        }
        int32_t index = c.best_index;
        const rc_shape *shape = &world->shapes.data[index];
        if (cancelled_by_game(world, s, &c, remaining)) {
            continue; /* the same path again, through the shape */
        }

        if (c.best.started_inside) {
            if (s->radius == 0.0f && world->bodies.data[shape->body].type == RC_STATIC) {
                /* a point inside a solid shape is stopped there (spawned in a wall) */
                float speed = rc_length(s->velocity);
                rc_bounce_at(world, s, index, c.best.normal, s->center, true, remaining, sink, &drift);
                s->velocity = rc_v2(0.0f, 0.0f);
                s->angular_velocity = 0.0f;
                rc_report_impact(world, s, sink, index, s->center, c.best.normal, speed, RC_IMPACT_TOUCH);
                break;
            }
            /* a circle overlapping a surface, or a point inside a moving body (something moved
               onto it), is pushed out, and the push is swept like any motion: it never carries
               the body through a wall */
            stale = stale && rc_sweep_struck(s, shape->body);
            if (push_outs++ >= MAX_PUSH_OUTS) {
                rc_sweeper_wedged(s, d, stale);
                break;
            }
            push_out_of(world, s, index, remaining, sink, &drift, NULL);
            continue;
        }

        /* stop a skin short of the surface, on the near side whatever the rounding: the path
           before the hit crosses nothing */
        rc_vec2 n = c.best.normal;
        float t = c.best.t;
        rc_vec2 contact_center = rc_mul_add(s->center, t, d);
        stop_short(world, s, &c);
        lag = rc_sub(contact_center, s->center);
        lag = rc_mul_add(lag, -rc_dot(lag, n), n); /* along the surface only: the skin stays */
        remaining *= 1.0f - t;

        /* struck by a surface in motion that it was not moving into itself (a door swinging onto
           a grenade at rest): a push, not a bounce of its own */
        float own = -rc_dot(s->velocity, n);
        bool moving = rc_shape_motion_of(world, s, shape).moving;
        if (moving && !(own > 8.0f * FLT_EPSILON * rc_length(s->velocity))) {
            stale = stale && rc_sweep_struck(s, shape->body);
            if (push_outs++ >= MAX_PUSH_OUTS) {
                rc_sweeper_wedged(s, d, stale);
                break;
            }
            float approach = rc_push_at(world, s, index, n, c.best.point, remaining, sink, &drift);
            rc_report_impact(world, s, sink, index, c.best.point, n, approach, RC_IMPACT_TOUCH);
            if (t == 0.0f && !(approach > 0.0f) && shape->body_type == RC_KINEMATIC) {
                rc_sweep_ride_along(world, s, index, n, c.best.point, 1.0f - remaining, remaining);
                break;
            }
            continue;
        }

        bool spent = s->bounces_left == 0 || shape->absorbs;
        if (spent || bounces >= s->max_bounces) {
            if (spent || s->max_bounces == 0) {
                /* a bullet that embeds itself: it stops dead and the target takes it all (an
                   absorbing shape spends it: no bounces left) */
                float approach = rc_bounce_at(world, s, index, n, c.best.point, true, remaining, sink, &drift);
                s->velocity = rc_v2(0.0f, 0.0f);
                s->angular_velocity = 0.0f;
                s->bounces_left = shape->absorbs ? 0 : s->bounces_left;
                rc_report_impact(world, s, sink, index, c.best.point, n, approach, RC_IMPACT_SPENT);
            } else {
                sink->last_shape = index; /* stopped for this step; it bounces in the next */
            }
            break;
        }
        float approach = rc_bounce_at(world, s, index, n, c.best.point, false, remaining, sink, &drift);
        stale = stale && rc_sweep_struck(s, shape->body);
        if (approach <= 0.0f) {
            /* the surface moves away at least as fast (or along with it): no bounce, and the rest
               of the path goes on from the stop, along the surface (stopped there for the step,
               a point skimming a prop's top a skin off it at 3.7 units/s never moved again) */
            sink->last_shape = index;
            if (slides++ >= MAX_PUSH_OUTS) {
                rc_sweeper_wedged(s, d, stale);
                break;
            }
            slide = n; /* (its path, by the step's motions, may still run into it) */
            continue;
        }
        slide = rc_v2(0.0f, 0.0f);
        ++bounces;
        /* (too slow to bounce, no rebound: a touch, not one of its life's bounces; a point settling
           into a V numbered each touch as a bounce, and spent its budget at rest) */
        rc_impact_kind kind = approach < world->def.restitution_threshold ? RC_IMPACT_TOUCH : RC_IMPACT_BOUNCE;
        rc_report_impact(world, s, sink, index, c.best.point, n, approach, kind);
    }
}

void rc_sweep(const rc_world *world, rc_sweeper *s, float dt, rc_sweep_sink *sink) {
    float remaining = 1.0f; /* of the step */
    rc_vec2 start = s->center;
    sink->last_shape = -1;
    s->met_motion = false;
    s->dt = dt;
    s->struck_count = 0;
    if (!s->held || !sweep_held(world, s, &remaining, sink)) {
        sweep_free(world, s, dt, remaining, sink);
    }
    s->hit_materials = false;
    s->angle += s->held ? s->turn : dt * s->angular_velocity;
    /* nothing ends the step inside a body in motion: a surface that kept pressing on it (a blade
       turning through a grenade it pushes, whose straight path falls behind the turn) pushes it
       out where that surface ends the step, and gives it its motion there */
    for (int k = 0; s->met_motion && k < 2; ++k) {
        int32_t inside = overlapped(world, s, 1.0f);
        if (inside < 0) {
            break;
        }
        rc_vec2 drift = {0.0f, 0.0f};
        push_out_of(world, s, inside, 0.0f, sink, &drift, &start);
    }
}
