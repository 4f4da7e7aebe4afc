/* The narrow phase (contact.h): a contact's manifold where its bodies are now, kept from the
 * last one while they hardly moved, with the impulses carried over by feature id; and the
 * manifolds the preview and the step share (rc_collide_pair, rc_collide_circle_shapes). The
 * contacts' lives, lists and events are contact.c's. */
#include "world/world_internal.h"

#include <assert.h>
#include <float.h>
#include <string.h>

/* A polygon's or a capsule's hull in its body's frame, where it lies in the pool. */
static rc_hull_view pooled_hull(const rc_world *world, const rc_shape *s) {
    rc_convex frame = rc_poly_body(world->poly_pool.data + s->poly, s->count);
    rc_hull_view v = {frame.vertices, frame.normals, frame.count,
                      s->kind == RC_SHAPE_CAPSULE ? s->circle.radius : 0.0f};
    return v;
}

rc_hull rc_shape_hull(const rc_world *world, const rc_shape *s) {
    if (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE) {
        rc_hull_view v = pooled_hull(world, s);
        return rc_hull_polygon(v.points, v.normals, v.count, v.radius);
    }
    if (s->kind == RC_SHAPE_SEGMENT) {
        rc_vec2 prev, a, b, next;
        rc_segment_wall(world, s, &prev, &a, &b, &next);
        return rc_hull_capsule(a, b, 0.0f);
    }
    return rc_hull_circle(s->base.offset, s->circle.radius);
}

/* How far the pair's closest points may close in the step: their relative speed (turning
 * included) times its length. (Inline: asked for every contact the narrow phase looks at.) */
static inline float closing_reach(const rc_world *world, const rc_shape *a, const rc_shape *b) {
    const rc_body *ba = &world->bodies.data[a->body], *bb = &world->bodies.data[b->body];
    if (world->contact_dt == 0.0f || (!ba->awake && !bb->awake)) {
        return 0.0f;
    }
    rc_vec2 va = ba->type == RC_STATIC ? rc_v2(0.0f, 0.0f) : ba->linear_velocity;
    rc_vec2 vb = bb->type == RC_STATIC ? rc_v2(0.0f, 0.0f) : bb->linear_velocity;
    float spin = (ba->type == RC_STATIC ? 0.0f : fabsf(ba->angular_velocity) * ba->max_extent) +
                 (bb->type == RC_STATIC ? 0.0f : fabsf(bb->angular_velocity) * bb->max_extent);
    float reach = world->contact_dt * (rc_length(rc_sub(va, vb)) + spin);
    return rc_is_finite(reach) ? reach : 0.0f;
}

/* Does the sweep of a's body, awake, meet b's dynamic body on its own: a bullet's meets every
 * dynamic body but bullets, where they are along their motions (projectile.c)? Then their
 * contact looks no further ahead than a resting one: a bullet passing 0.05 beside a moving box
 * was struck by their contact's reach (the step's start normal, closing at the bullet's speed)
 * and thrown off with the box (a helper's: 216 of 5,000 such passes, 316 by grenades). */
static inline bool bullet_sweep_meets(const rc_world *world, const rc_shape *a, const rc_shape *b) {
    return a->swept && a->body_bullet && b->body_type == RC_DYNAMIC && !b->body_bullet &&
           world->bodies.data[a->body].awake;
}

/* rc_contact_margin, inlined where the narrow phase asks it (it is asked of nearly every
 * contact the step looks at: called, it was 3% of the tumbler's instructions). */
static inline __attribute__((always_inline)) float contact_margin(const rc_world *world, const rc_shape *a,
                                                                  const rc_shape *b) {
    if (a->sensor || b->sensor) {
        return 0.0f;
    }
    /* speculative: the points the pair may reach within the step, so that a crate at speed (or
       a grenade, whose sweep does not look at other dynamic bodies) is met where it touches, not
       found overlapping a step later; pairs are found as early as their fat boxes allow */
    if (a->swept || b->swept) {
        /* against the static and kinematic world a swept body's sweep is exact: no reach; but a
           sleeping one is not swept, and a kinematic body about to meet it must find it within
           reach, to wake it in time (closing_on_sleeper: a door closing on a grenade asleep on
           the floor passed over it) */
        const rc_shape *swept = a->swept ? a : b, *other = a->swept ? b : a;
        float base = rc_speculative_margin(world, swept->circle.center);
        bool reach = other->body_type == RC_DYNAMIC
                         ? !((a->body_bullet | b->body_bullet) &&
                             (bullet_sweep_meets(world, a, b) || bullet_sweep_meets(world, b, a)))
                         : other->body_type == RC_KINEMATIC && !world->bodies.data[swept->body].awake;
        return reach ? base + closing_reach(world, a, b) : base;
    }
    return 4.0f * world->def.linear_slop + closing_reach(world, a, b);
}

float rc_contact_margin(const rc_world *world, const rc_shape *a, const rc_shape *b) {
    return contact_margin(world, a, b);
}

/* A hull (in the wall's body frame) against a chain's wall: smooth over the wall's joints. A
 * two-sided wall is met from the side the hull is on: its centroid's (rc_two_sided_wall_side:
 * beyond a joint, the side facing the wedge it is in), or the side `last_normal`
 * points to (the wall's last manifold with it, zero for none) while any of the hull is there.
 * A contact keeps the side it met the hull on: a small prop pressed into a floor by a pile on
 * it until its centroid crossed the floor's line was met from below then, and thrown through
 * (through a one-sided wall it fell). */
static rc_collision collide_wall(const rc_world *world, const rc_shape *wall, const rc_hull *h, float margin,
                                 rc_vec2 last_normal) {
    rc_vec2 prev, a, b, next;
    rc_segment_wall(world, wall, &prev, &a, &b, &next);
    int held = 0; /* +1 the wall's left (its free side), -1 its right, 0 not known */
    if (last_normal.x != 0.0f || last_normal.y != 0.0f) {
        held = rc_cross(rc_sub(b, a), last_normal) < 0.0f ? -1 : 1;
    }
    rc_hull_view v = rc_hull_view_of(h);
    int side = 1;
    if (!wall->one_sided) {
        side = rc_two_sided_wall_side(prev, a, b, next, rc_hull_middle(&v));
        if (held != 0 && held != side &&
            rc_hull_reach(&v, rc_scale((float)held, rc_normalize(rc_left_perp(rc_sub(b, a)))), a) > 0.0f) {
            side = held;
        }
        if (side < 0) {
            rc_wall_from_behind(&prev, &a, &b, &next); /* on the right */
        }
    }
    return held == side ? rc_collide_chain_wall_held(prev, a, b, next, h, margin)
                        : rc_collide_chain_wall(prev, a, b, next, h, margin);
}

/* The normal a contact's last manifold met a wall's other shape by, from the wall towards it, in
 * the wall's body frame (collide_wall's `last_normal`): the contact's runs from shape[0] to
 * shape[1], the wall is shape[1] when wall_b. Zero without points. */
static rc_vec2 last_wall_normal(const rc_contact *c, rc_transform wall_xf, bool wall_b) {
    if (c->point_count == 0) {
        return rc_v2(0.0f, 0.0f);
    }
    return rc_inv_rotate(wall_xf.q, wall_b ? rc_neg(c->normal) : c->normal);
}

/* A manifold computed in one body's frame, to the world (out may be m). */
static void to_world(const rc_collision *m, rc_transform frame, bool flip, rc_collision *out) {
    out->normal = rc_rotate(frame.q, flip ? rc_neg(m->normal) : m->normal);
    out->count = m->count;
    for (int k = 0; k < m->count; ++k) {
        out->points[k].point = rc_transform_point(frame, m->points[k].point);
        out->points[k].separation = m->points[k].separation;
        out->points[k].id = m->points[k].id;
    }
}

/* A solid and a static or kinematic polygon: the pairs whose manifolds seams may change (the
 * crowd's pairs, both dynamic, are not asked). */
static inline bool may_meet_seam(const rc_shape *a, const rc_shape *b) {
    return (a->body_type == RC_DYNAMIC) != (b->body_type == RC_DYNAMIC) &&
           (a->kind == RC_SHAPE_POLYGON || b->kind == RC_SHAPE_POLYGON);
}

/* The inverse of to_world (no flip): a manifold in the world into frame's. */
static rc_collision to_local(rc_collision m, rc_transform frame) {
    m.normal = rc_inv_rotate(frame.q, m.normal);
    for (int k = 0; k < m.count; ++k) {
        m.points[k].point = rc_inv_transform_point(frame, m.points[k].point);
    }
    return m;
}

/* Hull h (its body at hull_xf) against a chain's wall (its body at wall_xf), in the world: found
 * in the wall's frame, the wall first, so the normal comes out of the wall; wall_is_b turns it to
 * run from the hull's shape to the wall's. */
static inline void hull_against_wall(const rc_world *world, const rc_shape *wall, rc_transform wall_xf,
                                     const rc_hull_view *h, rc_transform hull_xf, bool wall_is_b, float margin,
                                     rc_vec2 last_normal, rc_collision *m) {
    rc_hull moved = rc_hull_view_transform(h, rc_inv_mul_transforms(wall_xf, hull_xf));
    *m = collide_wall(world, wall, &moved, margin, last_normal);
    to_world(m, wall_xf, wall_is_b, m);
}

rc_collision rc_collide_pair(const rc_world *world, const rc_shape *a, const rc_hull *ha, rc_transform xa,
                            const rc_shape *b, const rc_hull *hb, rc_transform xb, float margin) {
    bool wall_a = a != NULL && a->kind == RC_SHAPE_SEGMENT, wall_b = b != NULL && b->kind == RC_SHAPE_SEGMENT;
    if (wall_a && wall_b) {
        rc_collision none;
        memset(&none, 0, sizeof none);
        return none; /* walls do not touch walls */
    }
    rc_collision m;
    if (wall_a || wall_b) {
        rc_hull_view h = rc_hull_view_of(wall_b ? ha : hb);
        hull_against_wall(world, wall_b ? b : a, wall_b ? xb : xa, &h, wall_b ? xa : xb, wall_b, margin, rc_v2(0.0f, 0.0f), &m);
        return m;
    }
    rc_hull moved = rc_hull_transform(hb, rc_inv_mul_transforms(xa, xb));
    m = rc_collide_hulls(ha, &moved, margin);
    to_world(&m, xa, false, &m);
    return m;
}

rc_collision rc_collide_circle_shapes(const rc_shape *a, const rc_body *body_a, rc_circle b, float margin) {
    /* coincident centres: A's x axis, as in A's frame */
    return rc_collide_circle_pair(a->circle.center, a->circle.radius, b.center, b.radius, body_a->xf.q, margin);
}

/* A solid shape's hull in its body's frame where it already is (a polygon's or a capsule's in
 * the pool), or built in room (a circle's). */
static inline rc_hull_view hull_view(const rc_world *world, const rc_shape *s, rc_hull *room) {
    if (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE) {
        return pooled_hull(world, s);
    }
    if (s->kind == RC_SHAPE_CIRCLE) {
        /* rc_shape_hull's circle, its one point and normal written alone (the whole hull
           copied was a third of a tumbler's circle against a polygon) */
        room->points[0] = s->base.offset;
        room->normals[0] = rc_v2(1.0f, 0.0f);
        room->count = 1;
        room->radius = s->circle.radius;
        rc_hull_view v = {room->points, room->normals, 1, room->radius};
        return v;
    }
    *room = rc_shape_hull(world, s);
    return rc_hull_view_of(room);
}

rc_hull_view rc_shape_hull_view(const rc_world *world, const rc_shape *s, rc_hull *room) {
    return hull_view(world, s, room);
}

/* A manifold found in a's body frame (*local) in the world (xa: a's body transform), smoothed
 * over the seams of static or kinematic polygons (rc_smooth_solid_seam), *local following. */
static void in_world_smoothed(rc_world *world, const rc_shape *a, const rc_shape *b, rc_transform xa, float margin,
                              rc_collision *local, rc_collision *in_world) {
    to_world(local, xa, false, in_world);
    if (may_meet_seam(a, b) && rc_smooth_solid_seam(world, a, b, margin, in_world)) {
        *local = to_local(*in_world, xa);
    }
}

/* What rc_collide_pair gives for two shapes that are not walls, in a's body frame (frame: b's
 * body frame in a's), with no hull copied but the one moved into a's frame; smooth over the
 * seams of static or kinematic polygons (rc_smooth_solid_seam). *in_world: the same manifold in
 * the world (xa: a's body transform). */
static void collide_solids(rc_world *world, const rc_shape *a, const rc_shape *b, rc_transform xa,
                           rc_transform frame, float margin, rc_collision *local, rc_collision *in_world, int *axis,
                           int *face) {
    rc_hull room_a, room_b;
    rc_hull_view va = hull_view(world, a, &room_a), vb = hull_view(world, b, &room_b);
    rc_hull moved = rc_hull_view_transform(&vb, frame);
    rc_hull_view vm = rc_hull_view_of(&moved);
    *local = rc_collide_views_faces(&va, &vm, margin, axis, face);
    in_world_smoothed(world, a, b, xa, margin, local, in_world);
}

/* collide_solids for two polygons or capsules clipped against a kept face (no separating-axis
 * tests): the same manifold where those tests would choose that face. */
static void collide_on_face(rc_world *world, const rc_shape *a, const rc_shape *b, rc_transform xa,
                            rc_transform frame, float margin, int face, rc_collision *local, rc_collision *in_world) {
    rc_hull_view va = pooled_hull(world, a), vb = pooled_hull(world, b);
    rc_hull moved = rc_hull_view_transform(&vb, frame);
    rc_hull_view vm = rc_hull_view_of(&moved);
    *local = rc_collide_views_on_face(&va, &vm, face, margin);
    in_world_smoothed(world, a, b, xa, margin, local, in_world);
}

/* Is the pair a circle and a polygon or a capsule? */
static inline bool circle_and_hull(const rc_shape *a, const rc_shape *b) {
    return (a->kind == RC_SHAPE_CIRCLE && (b->kind == RC_SHAPE_POLYGON || b->kind == RC_SHAPE_CAPSULE)) ||
           (b->kind == RC_SHAPE_CIRCLE && (a->kind == RC_SHAPE_POLYGON || a->kind == RC_SHAPE_CAPSULE));
}

/* What collide_solids gives in the world for a circle and a polygon or a capsule (the same
 * bits where the hull comes first), found in the hull's body frame with the circle's centre
 * brought there: no hull is moved into the circle's frame, none built for the circle
 * (collide_solids moved a whole box for a grenade that came first; grenades against props are a
 * third of a rain's contacts). The seams of solid polygons do not bend a circle's normal
 * (rc_smooth_solid_seam), so nothing here asks them. */
static void collide_circle_hull(const rc_world *world, const rc_shape *a, const rc_body *ba, const rc_shape *b,
                                const rc_body *bb, float margin, rc_collision *m) {
    bool circle_first = a->kind == RC_SHAPE_CIRCLE;
    const rc_shape *hull = circle_first ? b : a, *circle = circle_first ? a : b;
    rc_transform xh = circle_first ? bb->xf : ba->xf, xc = circle_first ? ba->xf : bb->xf;
    rc_hull_view v = pooled_hull(world, hull);
    rc_vec2 center = rc_transform_point(rc_inv_mul_transforms(xh, xc), circle->base.offset);
    rc_collision local = rc_collide_hull_circle(&v, center, circle->circle.radius, margin);
    to_world(&local, xh, circle_first, m);
}

/* What rc_collide_pair gives for a pair with a chain's wall, the other shape's hull read where it
 * lies (the pair's two hulls copied first, one of them the wall's that the wall's collision does
 * not read, were a sixtieth of the rain's step). */
static void collide_with_wall(const rc_world *world, const rc_contact *c, const rc_shape *a, rc_transform xa,
                              const rc_shape *b, rc_transform xb, float margin, rc_collision *m) {
    bool wall_b = b->kind == RC_SHAPE_SEGMENT;
    if (wall_b && a->kind == RC_SHAPE_SEGMENT) {
        memset(m, 0, sizeof *m); /* walls do not touch walls */
        return;
    }
    rc_hull room;
    rc_hull_view h = hull_view(world, wall_b ? a : b, &room);
    rc_transform wall_xf = wall_b ? xb : xa;
    hull_against_wall(world, wall_b ? b : a, wall_xf, &h, wall_b ? xa : xb, wall_b, margin,
                      last_wall_normal(c, wall_xf, wall_b), m);
}

/* May a contact keep its manifold while its bodies hardly move? Solid polygons and capsules
 * that are not swept: a circle's normal follows its centre (and seams bend it), a swept body's
 * contacts are its sweep's, a sensor's overlap is exact, walls have their own rules. */
static bool may_keep_manifold(const rc_contact *c, const rc_shape *a, const rc_shape *b) {
    return !c->sensor && !a->swept && !b->swept && (a->kind == RC_SHAPE_POLYGON || a->kind == RC_SHAPE_CAPSULE) &&
           (b->kind == RC_SHAPE_POLYGON || b->kind == RC_SHAPE_CAPSULE);
}

/* Keep a manifold found in a's body frame (frame: b's body frame in a's): its normal there, and
 * each point's two surfaces, each in its own body's frame; with no points, the edge that held
 * the hulls apart (axis), to be asked first the next time. */
static void keep_manifold(rc_contact *c, const rc_collision *local, rc_transform frame, int axis, int face) {
    c->apart_axis = (uint8_t)(local->count == 0 && axis != RC_NO_AXIS ? axis + 1 : 0);
    c->kept = (uint8_t)(local->count == 0 ? RC_KEPT_NONE : face == RC_NO_AXIS ? RC_KEPT_POINTS : RC_KEPT_FACE + face);
    c->face_drift = 0.0f;
    c->kept_normal = local->normal;
    c->kept_frame = frame;
    for (int k = 0; k < local->count; ++k) {
        const rc_collision_point *p = &local->points[k];
        rc_vec2 half = rc_scale(0.5f * p->separation, local->normal);
        c->points[k].local_a = rc_sub(p->point, half);
        c->points[k].local_b = rc_inv_transform_point(frame, rc_add(p->point, half));
    }
}

/* How far b's shape (its tight box) may have moved in a's frame since the contact's manifold
 * was kept (frame: b's body frame in a's now)? */
static float moved_since_kept(const rc_contact *c, const rc_shape *b, rc_vec2 b_origin, rc_transform frame) {
    rc_transform then = c->kept_frame;
    /* the turn since then, and how far it can carry a point of b's: its chord, at most
       |sin| + 1 - cos of the turn times the reach of b's box from b's origin */
    rc_rot turn = {then.q.c * frame.q.c + then.q.s * frame.q.s, then.q.c * frame.q.s - then.q.s * frame.q.c};
    rc_aabb box = b->aabb;
    float rx = rc_maxf(fabsf(box.lower.x - b_origin.x), fabsf(box.upper.x - b_origin.x));
    float ry = rc_maxf(fabsf(box.lower.y - b_origin.y), fabsf(box.upper.y - b_origin.y));
    return rc_length(rc_sub(frame.p, then.p)) + (fabsf(turn.s) + (1.0f - turn.c)) * (rx + ry);
}

/* The kept points in a's body frame where the bodies are now (frame: b's body frame in a's):
 * the same features (ids, normal), their separations measured again. */
static void kept_manifold(const rc_contact *c, rc_transform frame, rc_collision *local) {
    local->normal = c->kept_normal;
    local->count = c->point_count;
    for (int k = 0; k < c->point_count; ++k) {
        const rc_contact_point *p = &c->points[k];
        rc_vec2 on_b = rc_transform_point(frame, p->local_b);
        local->points[k].point = rc_scale(0.5f, rc_add(p->local_a, on_b));
        local->points[k].separation = rc_dot(rc_sub(on_b, p->local_a), c->kept_normal);
        local->points[k].id = p->id;
    }
}

/* Are two shapes' tight boxes further apart than margin along x or y, by more than the
 * roundings of the narrow phase? Then no point of theirs is within the margin: the manifold is
 * empty without building it (most contacts of a crowd are boxes near each other, not touching). */
static bool boxes_apart(const rc_world *world, const rc_shape *a, const rc_shape *b, float margin) {
    rc_aabb p = a->aabb, q = b->aabb;
    float gap = rc_maxf(rc_maxf(p.lower.x - q.upper.x, q.lower.x - p.upper.x),
                        rc_maxf(p.lower.y - q.upper.y, q.lower.y - p.upper.y));
    float reach = rc_maxf(rc_maxf(fabsf(p.lower.x), fabsf(p.upper.x)), rc_maxf(fabsf(p.lower.y), fabsf(p.upper.y)));
    return gap > margin + world->def.linear_slop + 16.0f * FLT_EPSILON * reach;
}

/* A contact point where the narrow phase found it, with its anchors; returns its separation. */
static inline float place_point(rc_contact_point *p, const rc_collision_point *found, const rc_body *ba,
                                const rc_body *bb) {
    p->point = found->point;
    p->anchor_a = rc_sub(p->point, ba->center);
    p->anchor_b = rc_sub(p->point, bb->center);
    p->separation = found->separation;
    p->id = found->id;
    return p->separation;
}

/* Is a pair of polygons or capsules (keeps: may_keep_manifold) that its last full narrow phase
 * found apart still apart on the same edge (frame: b's body frame in a's)? Then what the full
 * path writes for no points is written (the same bits: a contact of no points keeps nothing
 * else) and the pair is not touching. */
static bool still_apart(rc_world *world, rc_contact *c, const rc_shape *a, const rc_shape *b, rc_transform frame,
                        float margin) {
    rc_hull_view va = pooled_hull(world, a), vb = pooled_hull(world, b);
    if (!rc_hulls_apart_on_axis(&va, &vb, frame, c->apart_axis - 1, margin)) {
        return false;
    }
#ifndef NDEBUG
    {
        /* Debug builds: the full narrow phase finds no points either */
        rc_hull moved = rc_hull_view_transform(&vb, frame);
        rc_hull_view vm = rc_hull_view_of(&moved);
        assert(rc_collide_views(&va, &vm, margin).count == 0);
    }
#endif
    /* keep_manifold's and to_world's numbers for no points: a zero normal, turned to the world
       (its zeros' signs as to_world gives them) */
    c->kept = RC_KEPT_NONE;
    c->kept_normal = rc_v2(0.0f, 0.0f);
    c->kept_frame = frame;
    c->normal = rc_rotate(world->bodies.data[a->body].xf.q, rc_v2(0.0f, 0.0f));
    rc_contact_set_point_count(world, c, 0);
    c->rolling_impulse = 0.0f;
    return true;
}

/* What rc_contact_collide keeps of a manifold found (in the world) for contact c: its points and
 * their impulses (carried over by feature id, or kept in order from a kept manifold), and the
 * events' manifold of the points that touch; returns whether the pair touches. */
static inline __attribute__((always_inline)) bool take_manifold(rc_world *world, rc_contact *c, const rc_shape *a,
                                                                const rc_shape *b, const rc_body *ba,
                                                                const rc_body *bb, const rc_collision *m, bool kept) {
    float least = INFINITY;
    if (kept && (m->count < 2 || m->points[0].id != m->points[1].id)) {
        /* a kept manifold has the last one's points (and count) in the same order: with
           distinct ids, the search by id below would give each point its own impulses back,
           so they stay (most contacts of a pile at rest, every step) */
        c->normal = m->normal;
        for (int32_t k = 0; k < m->count; ++k) {
            least = rc_minf(least, place_point(&c->points[k], &m->points[k], ba, bb));
        }
    } else {
        /* carry the impulses over by feature id (what is carried: not the whole points) */
        struct {
            float normal_impulse, tangent_impulse, approach;
            uint16_t id;
        } old[2];
        /* a normal that turned past RC_CARRY_TURN is another contact whatever its ids say (a
           body squeezed past a wall's middle: the wall's normal flips, and the impulse that held
           it back would throw it out the other side) */
        int32_t old_count = rc_dot(c->normal, m->normal) >= RC_CARRY_TURN ? c->point_count : 0;
        for (int32_t j = 0; j < old_count; ++j) {
            old[j].normal_impulse = c->points[j].normal_impulse;
            old[j].tangent_impulse = c->points[j].tangent_impulse;
            old[j].approach = c->points[j].approach;
            old[j].id = c->points[j].id;
        }
        c->normal = m->normal;
        rc_contact_set_point_count(world, c, m->count);
        for (int32_t k = 0; k < m->count; ++k) {
            rc_contact_point *p = &c->points[k];
            least = rc_minf(least, place_point(p, &m->points[k], ba, bb));
            p->normal_impulse = 0.0f;
            p->tangent_impulse = 0.0f;
            p->approach = 0.0f;
            for (int32_t j = 0; j < old_count; ++j) {
                if (old[j].id == p->id) {
                    p->normal_impulse = old[j].normal_impulse;
                    p->tangent_impulse = old[j].tangent_impulse;
                    p->approach = old[j].approach;
                }
            }
        }
    }
    if (m->count == 0) {
        c->rolling_impulse = 0.0f;
    }
    /* touching: overlapping, or for solid pairs within a linear slop (the solver holds them
       at zero overlap, and a resting contact must not begin and end as rounding moves it
       across zero: each begin wakes the island), or within a swept circle's margin, where it
       rests */
    const rc_shape *swept = a->swept ? a : b;
    float touch = c->sensor ? 0.0f
                  : (a->swept || b->swept) ? rc_world_margin(world, swept->circle.center)
                                           : world->def.linear_slop;
    bool touching = least <= touch;
    if (!touching) {
        return false; /* the manifold stays the last touching one: an end event carries it */
    }
    memset(&c->manifold, 0, sizeof c->manifold);
    c->manifold.normal = m->normal;
    for (int32_t k = 0; k < m->count; ++k) {
        if (m->points[k].separation <= touch) {
            rc_manifold_add_point(&c->manifold, m->points[k].point, m->points[k].separation);
        }
    }
    return touching;
}

/* A contact with no points: what the narrow phase keeps of a pair whose boxes are apart. */
static inline bool none_near(rc_world *world, rc_contact *c) {
    c->kept = RC_KEPT_NONE;
    rc_contact_set_point_count(world, c, 0);
    c->rolling_impulse = 0.0f;
    return false;
}

/* rc_contact_collide for two circles (a grenade pile's contacts, most of the grenade pit's): the
 * same steps, without the keeping of manifolds that circles never take. */
static bool collide_two_circles(rc_world *world, rc_contact *c, const rc_shape *a, const rc_shape *b,
                                const rc_body *ba, const rc_body *bb) {
    float margin = contact_margin(world, a, b);
    if (boxes_apart(world, a, b, margin)) {
        return none_near(world, c);
    }
    rc_collision m = rc_collide_circle_shapes(a, ba, b->circle, margin);
    return take_manifold(world, c, a, b, ba, bb, &m, false);
}

bool rc_contact_collide(rc_world *world, int32_t index, bool may_keep) {
    rc_contact *c = &world->contacts.data[index];
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    const rc_body *ba = &world->bodies.data[a->body], *bb = &world->bodies.data[b->body];
    if (a->kind == RC_SHAPE_CIRCLE && b->kind == RC_SHAPE_CIRCLE) {
        return collide_two_circles(world, c, a, b, ba, bb);
    }
    bool keeps = may_keep_manifold(c, a, b);
    rc_collision m, local;
    bool keeping = keeps && c->kept != RC_KEPT_NONE && may_keep;
    rc_transform frame_now = keeping ? rc_inv_mul_transforms(ba->xf, bb->xf) : RC_TRANSFORM_IDENTITY;
    /* kept points where the bodies hardly moved since they were found; a kept face a little
       further since it was chosen (NaN: neither) */
    float moved = keeping ? moved_since_kept(c, b, bb->xf.p, frame_now) : INFINITY;
    bool kept = moved <= RC_KEEP_MANIFOLD * world->def.linear_slop;
    bool on_face = !kept && c->kept >= RC_KEPT_FACE && c->face_drift + moved <= RC_KEEP_FACE * world->def.linear_slop;
    /* kept points need no margin (they were found with one): the margin (the pair's closing
       speed) is worked out only where points are found */
    float margin = kept ? 0.0f : contact_margin(world, a, b);
    if (!keeping && boxes_apart(world, a, b, margin)) {
        /* no points (most contacts of a crowd: boxes near, shapes apart), and nothing of the
           full path below to do: no impulses to carry over, not touching (the manifold stays
           the last touching one) */
        return none_near(world, c);
    }
    int axis, face;
    if (kept) {
        kept_manifold(c, frame_now, &local);
        to_world(&local, ba->xf, false, &m);
    } else if (keeping) {
        /* clipped against the kept face (kept from where it was chosen); found again in full
           where the bodies moved too far for what was kept, or the face holds no points */
        if (on_face) {
            int kept_face = c->kept - RC_KEPT_FACE;
            collide_on_face(world, a, b, ba->xf, frame_now, margin, kept_face, &local, &m);
            if (local.count > 0) {
                /* its points kept from here, for the next steps' to measure again; the face
                   from where it was chosen */
                float drift = c->face_drift + moved;
                keep_manifold(c, &local, frame_now, RC_NO_AXIS, kept_face);
                c->face_drift = drift;
            }
        }
        if (!on_face || local.count == 0) {
            collide_solids(world, a, b, ba->xf, frame_now, margin, &local, &m, &axis, &face);
            keep_manifold(c, &local, frame_now, axis, face);
        }
    } else if (circle_and_hull(a, b)) {
        collide_circle_hull(world, a, ba, b, bb, margin, &m);
        rc_smooth_seam(world, a, b, &m);
    } else if (a->kind != RC_SHAPE_SEGMENT && b->kind != RC_SHAPE_SEGMENT) {
        rc_transform frame = rc_inv_mul_transforms(ba->xf, bb->xf);
        if (keeps && c->apart_axis != 0 && still_apart(world, c, a, b, frame, margin)) {
            return false;
        }
        collide_solids(world, a, b, ba->xf, frame, margin, &local, &m, &axis, &face);
        if (keeps) {
            keep_manifold(c, &local, frame, axis, face);
        }
        rc_smooth_seam(world, a, b, &m);
    } else {
        collide_with_wall(world, c, a, ba->xf, b, bb->xf, margin, &m);
    }
    return take_manifold(world, c, a, b, ba, bb, &m, kept);
}
