/* Sweeps against bodies in motion. The bodies that are not swept move before the sweeps, and a
 * grenade before the bullets; a moved body's shapes stand where it ends the step, and it keeps
 * its move and turn (step_move, step_turn). A sweep leg runs over a stretch of the step's time;
 * in the frame where such a shape stands, the swept circle's centre follows its own motion less
 * the body's (and turned back by the body's turn), which is a straight line while the body does
 * not turn: the exact casts of shapes/ answer there. While it turns, conservative advancement
 * finds the first touch within a tolerance. Static shapes, and every shape in the preview, map
 * to themselves. And when a grenade's path can meet nothing at all (rc_grenade_path_is_clear). */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

/* Conservative advancement's steps at most before it settles for where it is. */
#define MOTION_CAST_ITERATIONS 48

rc_shape_motion rc_shape_motion_of(const rc_world *world, const rc_sweeper *s, const rc_shape *shape) {
    rc_shape_motion m = {false, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
    if (!s->sees_motion || shape->body_type == RC_STATIC) {
        return m;
    }
    const rc_body *b = &world->bodies.data[shape->body];
    if (!b->moved) {
        return m;
    }
    m.moving = true;
    m.center = b->center;
    m.move = b->step_move;
    m.turn = b->step_turn;
    return m;
}

/* The body at tau is where it stands, moved back by (1 - tau) of its move and turned back by
 * (1 - tau) of its turn: a point p at tau stands at center + R((1 - tau) turn) (p - c(tau)). A
 * shape that does not turn is only moved, which keeps far coordinates exact (no trip through the
 * centre). */
rc_vec2 rc_motion_to_placed(const rc_shape_motion *m, rc_vec2 p, float tau) {
    if (!m->moving) {
        return p;
    }
    float back = 1.0f - tau;
    if (m->turn == 0.0f) {
        return rc_mul_add(p, back, m->move);
    }
    rc_vec2 r = rc_mul_add(rc_sub(p, m->center), back, m->move);
    return rc_add(m->center, rc_rotate(rc_rot_from_angle(back * m->turn), r));
}

rc_vec2 rc_motion_from_placed(const rc_shape_motion *m, rc_vec2 q, float tau) {
    if (!m->moving) {
        return q;
    }
    float back = 1.0f - tau;
    if (m->turn == 0.0f) {
        return rc_mul_add(q, -back, m->move);
    }
    rc_vec2 r = rc_inv_rotate(rc_rot_from_angle(back * m->turn), rc_sub(q, m->center));
    return rc_add(rc_mul_add(m->center, -back, m->move), r);
}

rc_vec2 rc_motion_dir_to_placed(const rc_shape_motion *m, rc_vec2 v, float tau) {
    return m->moving && m->turn != 0.0f ? rc_rotate(rc_rot_from_angle((1.0f - tau) * m->turn), v) : v;
}

rc_vec2 rc_motion_dir_from_placed(const rc_shape_motion *m, rc_vec2 v, float tau) {
    return m->moving && m->turn != 0.0f ? rc_inv_rotate(rc_rot_from_angle((1.0f - tau) * m->turn), v) : v;
}

rc_vec2 rc_motion_center(const rc_world *world, const rc_shape_motion *m, const rc_shape *shape, float tau) {
    const rc_body *b = &world->bodies.data[shape->body];
    return m->moving ? rc_mul_add(b->center, -(1.0f - tau), m->move) : b->center;
}

/* A hit found where the shape stands, in the world at its time. */
static void hit_to_world(const rc_shape_motion *m, float tau0, float tau1, rc_ray_hit *hit) {
    float tau = tau0 + hit->t * (tau1 - tau0);
    hit->point = rc_motion_from_placed(m, hit->point, tau);
    hit->normal = rc_motion_dir_from_placed(m, hit->normal, tau);
}

/* The farthest a point of the shape lies from its body's centre of mass (its box's corners). */
static float reach_of(const rc_shape *shape, rc_vec2 center) {
    rc_aabb b = shape->aabb;
    float rx = rc_maxf(fabsf(b.lower.x - center.x), fabsf(b.upper.x - center.x));
    float ry = rc_maxf(fabsf(b.lower.y - center.y), fabsf(b.upper.y - center.y));
    return sqrtf(rx * rx + ry * ry);
}

/* An overlap at the start of a cast of no length, as the casts of shapes/ report one. */
static bool overlap_at(const rc_shape_view *v, rc_vec2 q, float radius, rc_ray_hit *hit) {
    rc_distance_result d = rc_view_distance(v, q);
    if (!(d.distance < radius) || (radius == 0.0f && v->kind == RC_SHAPE_SEGMENT)) {
        return false;
    }
    hit->t = 0.0f;
    hit->point = d.point;
    hit->normal = d.normal;
    hit->started_inside = true;
    return true;
}

/* A point p of the circle's path at time tau (back = 1 - tau) where a turning shape stands
 * (q_back: its turn still to come, rc_rot_from_angle(back * turn)); *c: its body's centre of
 * mass at tau. */
static rc_vec2 placed_while_turning(const rc_shape_motion *m, float back, rc_rot q_back, rc_vec2 p, rc_vec2 *c) {
    *c = rc_mul_add(m->center, -back, m->move);
    return rc_add(m->center, rc_rotate(q_back, rc_sub(p, *c)));
}

/* Does a circle whose centre starts `clear` off a moving shape's surface (its radius and a
 * tolerance taken off already) stay apart from it over a leg of `span` of the step: further off
 * than its whole path, the shape's whole move over the leg and its turn's reach (spin)? Then it
 * is apart wherever on its path it is at any moment of the leg (one that stops short and waits
 * there too). */
static bool apart_over_leg(float clear, rc_vec2 translation, float span, rc_vec2 move, float spin) {
    return clear > 1.001f * (rc_length(translation) + span * rc_length(move) + spin);
}

/* While the body turns: the circle's centre at u of the leg, in the frame where the shape
 * stands, closes on its surface no faster than its motion relative to the body's centre along
 * the normal plus the turn times the shape's reach; advancing by the gap over that speed cannot
 * pass the surface. A circle that starts the leg resting on the surface (within the margin the
 * solver holds it at) and not closing on it is left to the solver and to the push out of
 * overlaps at the step's end: the bound, which adds the turn's speed to the linear one, would
 * crawl along a contact that the two share. */
static bool advance_to_touch(const rc_world *world, const rc_shape_view *v, const rc_shape *shape,
                             const rc_shape_motion *m, rc_vec2 origin, float radius, rc_vec2 translation, float tau0,
                             float tau1, float tolerance, float reach, rc_ray_hit *hit, bool *apart) {
    float span = tau1 - tau0;
    rc_vec2 relative = rc_sub(translation, rc_scale(span, m->move));
    float spin = fabsf(span * m->turn) * reach;
    float u = 0.0f;
    for (int k = 0; k < MOTION_CAST_ITERATIONS; ++k) {
        float tau = tau0 + u * span, back = 1.0f - tau;
        rc_rot q_back = rc_rot_from_angle(back * m->turn); /* the turn still to come */
        rc_vec2 c;                                         /* the centre of mass at tau */
        rc_vec2 q = placed_while_turning(m, back, q_back, rc_mul_add(origin, u, translation), &c);
        if (!rc_shape_faces(shape, q)) {
            return false;
        }
        if (k == 0) {
            float clear = rc_view_distance_floor(v, q) - radius - 0.5f * tolerance;
            if (clear > 1.001f * (rc_length(relative) + spin)) {
                /* so far off that closing at the fastest the leg allows (approach below) it stays
                   apart: the first advance would leave the leg, and the distance is not needed */
                *apart = apart_over_leg(clear, translation, span, m->move, spin);
                return false;
            }
        }
        rc_distance_result d = rc_view_distance(v, q);
        float gap = d.distance - radius;
        rc_vec2 n = rc_inv_rotate(q_back, d.normal);
        rc_vec2 point = rc_add(c, rc_inv_rotate(q_back, rc_sub(d.point, m->center)));
        rc_vec2 r = rc_sub(point, c);
        rc_vec2 surface = rc_add(rc_scale(span, m->move), rc_v2(-span * m->turn * r.y, span * m->turn * r.x));
        float closing = -rc_dot(rc_sub(translation, surface), n);
        if (u == 0.0f && gap < -tolerance) {
            hit->t = 0.0f;
            hit->started_inside = true;
            hit->point = point;
            hit->normal = n;
            return true;
        }
        if (gap <= tolerance || (u == 0.0f && gap <= rc_world_margin(world, point))) {
            if (!(closing > 0.0f)) {
                return false; /* resting on it or parting */
            }
            if (gap <= tolerance) {
                hit->t = u;
                hit->started_inside = false;
                hit->point = point;
                hit->normal = n;
                return true;
            }
        }
        float approach = -rc_dot(relative, n) + spin;
        if (!(approach > 0.0f)) {
            return false;
        }
        u += (gap - 0.5f * tolerance) / approach;
        if (!(u <= 1.0f)) {
            return false;
        }
    }
    return false; /* it grazes the surface for longer than its steps: no touch made out */
}

bool rc_motion_cast(const rc_world *world, const rc_shape *shape, const rc_shape_motion *m, rc_vec2 origin,
                    float radius, rc_vec2 translation, float tau0, float tau1, float tolerance, rc_ray_hit *hit,
                    bool *apart) {
    rc_shape_view v = rc_shape_view_of(world, shape);
    float span = tau1 - tau0;
    *apart = false;
    if (span * m->turn != 0.0f) {
        return advance_to_touch(world, &v, shape, m, origin, radius, translation, tau0, tau1, tolerance,
                                reach_of(shape, m->center), hit, apart);
    }
    /* no turn over the leg: the centre's path where the shape stands is a straight line */
    rc_vec2 o = rc_motion_to_placed(m, origin, tau0);
    rc_vec2 d = rc_motion_dir_to_placed(m, rc_sub(translation, rc_scale(span, m->move)), tau0);
    if (!rc_shape_faces(shape, o)) {
        return false;
    }
    bool found;
    if (d.x == 0.0f && d.y == 0.0f) {
        found = overlap_at(&v, o, radius, hit); /* moving with the shape: only an overlap meets it */
    } else {
        found = radius > 0.0f ? rc_view_circle_cast(&v, o, radius, d, hit) : rc_view_ray_cast(&v, o, d, hit);
    }
    if (found) {
        hit_to_world(m, tau0, tau1, hit);
    }
    return found;
}

/* Does a shape of kinematic body k (which moved in the step) stay clear of a circle moving by
 * d over the whole step from origin, by advance_to_touch's first look: the circle's centre,
 * where the shape stands at the step's start, further from its surface than the whole path,
 * the body's whole move and its turn's reach, with a skin to spare? The cast then meets
 * nothing of it (its walk would find the same, and say so: `apart`). */
static bool stays_apart(const rc_world *world, const rc_shape *shape, const rc_body *k, rc_rot back, rc_vec2 origin,
                        float radius, rc_vec2 d) {
    /* (back: the body's whole turn, the one still to come at the step's start) */
    rc_shape_motion m = {true, k->center, k->step_move, k->step_turn};
    rc_vec2 c;
    rc_vec2 q = placed_while_turning(&m, 1.0f, back, origin, &c);
    rc_shape_view v = rc_shape_view_of(world, shape);
    float spin = fabsf(m.turn) * reach_of(shape, m.center);
    float clear = rc_view_distance_floor(&v, q) - radius - rc_world_skin(world, origin);
    return apart_over_leg(clear, d, 1.0f, m.move, spin);
}

/* Are all the circle's contacts with static and kinematic bodies (its body's level_contacts)
 * with kinematic bodies that moved in the step? Those the test below looks at by their shapes.
 * The counts tell without walking the contacts (a walk of the tumbler's grenades by the drum
 * met a contact record out of cache at every link: 4% of its time): none is static when all are
 * kinematic, and all of those moved when every kinematic body of the world did; the circle
 * holds them all when it is its body's one shape. */
static bool level_contacts_all_moving(const rc_world *world, int32_t body, int32_t circle) {
    const rc_body *b = &world->bodies.data[body];
    if (b->level_contacts != UINT8_MAX) {
        if (b->kinematic_contacts != b->level_contacts) {
            return false; /* one with a static body */
        }
        if (world->moved_kinematic_count == world->kinematic_bodies && b->first_shape == circle &&
            world->shapes.data[circle].next_in_body < 0) {
            return true;
        }
    }
    int32_t moving = 0;
    for (int32_t i = world->contact_heads.data[circle]; i >= 0;) {
        const rc_contact *c = &world->contacts.data[i];
        int side = c->shape[0] == circle ? 0 : 1;
        const rc_body *other = &world->bodies.data[c->body[1 - side]];
        if (other->type == RC_STATIC || (other->type == RC_KINEMATIC && !other->moved)) {
            return false;
        }
        moving += other->type == RC_KINEMATIC ? 1 : 0;
        i = c->edge[side].next;
    }
    return moving == (int32_t)world->bodies.data[body].level_contacts; /* (none through other shapes) */
}

/* rc_moved_kinematics_stay_apart with the circle's grid box at hand (listed kinematic bodies:
 * the caller checked RC_FEW_KINEMATICS). */
static bool kinematics_stay_apart(const rc_world *world, rc_aabb own, rc_vec2 center, float radius, rc_vec2 d) {
    for (int32_t k = 0; k < world->moved_kinematic_count; ++k) {
        const rc_moved_kinematic *m = &world->moved_kinematics[k];
        const rc_body *b = &world->bodies.data[m->body];
        for (int32_t i = b->first_shape; i >= 0; i = world->shapes.data[i].next_in_body) {
            const rc_shape *shape = &world->shapes.data[i];
            if (shape->proxy < 0 || !rc_aabb_overlaps(rc_grid_get_box(rc_shape_grid(world, shape), shape->proxy), own)) {
                continue;
            }
            if (!stays_apart(world, shape, b, m->back, center, radius, d)) {
                return false;
            }
        }
    }
    return true;
}

/* Can a grenade's path (held by the solver, or free) be left uncast: is there no static or
 * kinematic shape it could meet on it? The cast would look only at the shapes whose grid boxes
 * its circle comes within the walk's margin of. When all of that lies inside the circle's own
 * grid box, each such shape's grid box overlaps the circle's, and the grid has paired them: a
 * contact, since the shapes a sweep sees are the ones it may pair with (rc_sweep_sees,
 * rc_shapes_should_pair).
 * Pairs are as the last step's end left them, with those begun since found at this step's
 * start; static shapes do not move within a step, and a kinematic body that moved in this one
 * may have a grid box where it has no pairs yet. So a body with no contact with a static body or
 * a kinematic one that stood still (level_contacts: a grenade inside a pile, not at its walls or
 * floor), whose path stays clear of every shape of the kinematic bodies that moved whose grid
 * box overlaps its own (stays_apart: a grenade in a turning drum, whose walls' boxes, turned,
 * cover much of the inside), meets nothing, and moves along its path as the cast finding
 * nothing would move it. */
bool rc_grenade_path_is_clear(const rc_world *world, int32_t body, int32_t circle, rc_vec2 center, float radius,
                              rc_vec2 d) {
    if (world->moved_kinematic_count > RC_FEW_KINEMATICS) {
        return false;
    }
    const rc_shape *self = &world->shapes.data[circle];
    rc_aabb own = rc_grid_get_box(rc_shape_grid(world, self), self->proxy);
    /* the walk's margin (rc_lean_ray_of: the radius and a few roundings), with room to spare */
    rc_vec2 p = center, q = rc_add(center, d);
    float size = rc_maxf(rc_maxf(fabsf(p.x), fabsf(p.y)), rc_maxf(fabsf(q.x), fabsf(q.y)));
    float grow = radius + 8.0f * FLT_EPSILON * (size + radius) + 0.25f * world->def.linear_slop;
    if (!(rc_minf(p.x, q.x) - grow > own.lower.x && rc_minf(p.y, q.y) - grow > own.lower.y &&
          rc_maxf(p.x, q.x) + grow < own.upper.x && rc_maxf(p.y, q.y) + grow < own.upper.y)) {
        return false;
    }
    if (world->bodies.data[body].level_contacts != 0 && !level_contacts_all_moving(world, body, circle)) {
        return false;
    }
    return world->moved_kinematic_count == 0 || kinematics_stay_apart(world, own, center, radius, d);
}

bool rc_moved_kinematics_stay_apart(const rc_world *world, int32_t circle, rc_vec2 center, float radius, rc_vec2 d) {
    if (world->moved_kinematic_count == 0) {
        return true;
    }
    if (world->moved_kinematic_count > RC_FEW_KINEMATICS) {
        return false; /* (not listed) */
    }
    const rc_shape *self = &world->shapes.data[circle];
    return kinematics_stay_apart(world, rc_grid_get_box(rc_shape_grid(world, self), self->proxy), center, radius, d);
}
