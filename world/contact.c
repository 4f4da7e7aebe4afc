/* Contacts: one per pair of shapes whose boxes overlap, created when the broadphase reports
 * the pair and destroyed when the boxes part; the narrow phase decides whether the shapes
 * touch and the changes become begin and end events. */
#include "world/world_internal.h"

#include <assert.h>
#include <float.h>
#include <string.h>


bool rc_contact_reserve(rc_world *world, int32_t extra) {
    int32_t free_slots = world->contact_ids.free_count < extra ? world->contact_ids.free_count : extra;
    return rc_array_reserve_aligned(world, world->contacts, world->contacts.count + (extra - free_slots), 64) &&
           rc_id_pool_reserve(&world->allocator, &world->contact_ids, extra) &&
           rc_map_reserve(&world->allocator, &world->contact_map, extra);
}

/* A new contact goes first in its shape's list: the lists are in no order (the solver gathers
 * its constraints from the contact array and sorts them, gather.c). */
static void link_edge(rc_world *world, int32_t contact, int32_t k) {
    rc_contact *c = &world->contacts.data[contact];
    rc_shape *s = &world->shapes.data[c->shape[k]];
    int32_t next = s->first_contact;
    c->edge[k].prev = -1;
    c->edge[k].next = next;
    if (next >= 0) {
        rc_contact *n = &world->contacts.data[next];
        n->edge[n->shape[0] == c->shape[k] ? 0 : 1].prev = contact;
    }
    s->first_contact = contact;
}

static void unlink_edge(rc_world *world, int32_t contact, int32_t k) {
    rc_contact *c = &world->contacts.data[contact];
    int32_t shape = c->shape[k];
    if (c->edge[k].prev >= 0) {
        rc_contact *p = &world->contacts.data[c->edge[k].prev];
        p->edge[p->shape[0] == shape ? 0 : 1].next = c->edge[k].next;
    } else {
        world->shapes.data[shape].first_contact = c->edge[k].next;
    }
    if (c->edge[k].next >= 0) {
        rc_contact *n = &world->contacts.data[c->edge[k].next];
        n->edge[n->shape[0] == shape ? 0 : 1].prev = c->edge[k].prev;
    }
}

/* A contact's point count. Whether it has points is what the solver's gathering keeps
 * (gather.c): a change of that is a change of the contact set. */
static void set_point_count(rc_world *world, rc_contact *c, int32_t n) {
    if ((c->point_count > 0) != (n > 0)) {
        world->contact_set_revision++;
    }
    c->point_count = n;
}

void rc_contact_count_level(rc_world *world, const rc_contact *c, int delta) {
    for (int k = 0; k < 2; ++k) {
        rc_body *b = &world->bodies.data[c->body[k]];
        if (b->type == RC_DYNAMIC && world->bodies.data[c->body[1 - k]].type != RC_DYNAMIC &&
            b->level_contacts != UINT16_MAX) {
            assert(delta > 0 || b->level_contacts > 0);
            b->level_contacts = (uint16_t)(b->level_contacts + delta);
        }
    }
}

void rc_contacts_count_levels(rc_world *world) {
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        world->bodies.data[i].level_contacts = 0;
    }
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        if (world->contacts.data[i].in_use) {
            rc_contact_count_level(world, &world->contacts.data[i], 1);
        }
    }
}

int32_t rc_contact_create(rc_world *world, int32_t shape_a, int32_t shape_b) {
    world->contact_set_revision++;
    int32_t index = rc_id_pool_take(&world->contact_ids);
    if (index == world->contacts.count) {
        world->contacts.count++;
    }
    rc_contact *c = &world->contacts.data[index];
    memset(c, 0, sizeof *c);
    c->shape[0] = shape_a < shape_b ? shape_a : shape_b;
    c->shape[1] = shape_a < shape_b ? shape_b : shape_a;
    c->body[0] = world->shapes.data[c->shape[0]].body;
    c->body[1] = world->shapes.data[c->shape[1]].body;
    c->in_use = true;
    c->flagged = true; /* a new pair is looked at in its first step whatever its bodies do (the
                          step's update walks world->new_contacts) */
    c->sensor = world->shapes.data[shape_a].sensor || world->shapes.data[shape_b].sensor;
    link_edge(world, index, 0);
    link_edge(world, index, 1);
    rc_contact_count_level(world, c, 1);
    rc_map_set(&world->contact_map, rc_contact_key(shape_a, shape_b), index);
    return index;
}

/* Event lists grow by one; the step reserves room before it runs, shape destruction between
 * steps reserves here and drops the event if memory is short (the contact still ends). */
static void emit_end(rc_world *world, const rc_contact *c) {
    const rc_shape *a = &world->shapes.data[c->shape[0]];
    const rc_shape *b = &world->shapes.data[c->shape[1]];
    rc_shape_id ia = rc_shape_id_of(world, c->shape[0]);
    rc_shape_id ib = rc_shape_id_of(world, c->shape[1]);
    if (c->sensor) {
        if ((a->sensor ? a : b)->sensor_events &&
            rc_array_reserve(world, world->sensor_end, world->sensor_end.count + 1)) {
            rc_sensor_event e = {a->sensor ? ia : ib, a->sensor ? ib : ia};
            world->sensor_end.data[world->sensor_end.count++] = e;
        }
    } else if (a->contact_events && b->contact_events &&
               rc_array_reserve(world, world->contact_end, world->contact_end.count + 1)) {
        rc_contact_end_event e = {ia, ib, c->manifold};
        world->contact_end.data[world->contact_end.count++] = e;
    }
}

void rc_contact_destroy(rc_world *world, int32_t contact, bool emit_end_event) {
    rc_contact *c = &world->contacts.data[contact];
    if (emit_end_event && c->touching) {
        emit_end(world, c);
    }
    rc_map_remove(&world->contact_map, rc_contact_key(c->shape[0], c->shape[1]));
    world->contact_set_revision++;
    unlink_edge(world, contact, 0);
    unlink_edge(world, contact, 1);
    rc_contact_count_level(world, c, -1);
    c->in_use = false;
    rc_id_pool_give(&world->contact_ids, contact);
}

void rc_shape_flag_contacts(rc_world *world, int32_t shape) {
    for (int32_t ci = world->shapes.data[shape].first_contact; ci >= 0;) {
        rc_contact *c = &world->contacts.data[ci];
        c->flagged = true;
        world->contacts_flagged = true;
        ci = c->edge[c->shape[0] == shape ? 0 : 1].next;
    }
}

void rc_body_flag_contacts(rc_world *world, const rc_body *body) {
    for (int32_t s = body->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        rc_shape_flag_contacts(world, s);
    }
}

void rc_shape_destroy_contacts(rc_world *world, int32_t shape) {
    while (world->shapes.data[shape].first_contact >= 0) {
        int32_t contact = world->shapes.data[shape].first_contact;
        rc_contact *c = &world->contacts.data[contact];
        /* the other body may have rested on this shape: let it notice */
        int32_t other = c->shape[0] == shape ? c->shape[1] : c->shape[0];
        rc_body_wake(&world->bodies.data[world->shapes.data[other].body]);
        rc_contact_destroy(world, contact, true);
    }
}

/* Room for every event the narrow phase can emit this step (each contact changes at most once),
 * and a mark for every contact. */
bool rc_contacts_reserve_events(rc_world *world) {
    int32_t n = rc_id_pool_live(&world->contact_ids);
    return rc_contact_marks_reserve(world) && rc_array_reserve(world, world->contact_begin, world->contact_begin.count + n) &&
           rc_array_reserve(world, world->contact_end, world->contact_end.count + n) &&
           rc_array_reserve(world, world->sensor_begin, world->sensor_begin.count + n) &&
           rc_array_reserve(world, world->sensor_end, world->sensor_end.count + n);
}

/* A body whose state can change this step: awake and able to move. */
static bool body_active(const rc_body *b) { return b->type != RC_STATIC && b->awake; }

/* Wake a body during the step (its sweeps or its contact update, which walks the contacts by
 * world->body_active). */
static void wake_in_step(rc_world *world, int32_t index) {
    rc_body *b = &world->bodies.data[index];
    bool was_active = world->body_active.data[index] != 0;
    if (world->wakes_undone && !b->awake) {
        rc_save_undo(world, index); /* the step can still fail: it puts the body back to sleep */
        b->solver_slot = -1;        /* not among this step's solver bodies */
    }
    rc_body_wake(b);
    world->body_active.data[index] = body_active(b);
    if (world->marking_wakes && !was_active && body_active(b)) {
        rc_mark_body_contacts(world, index); /* its contacts ahead in the walk are met */
    }
}

static void wake_visit(rc_world *world, int32_t body, void *context) {
    (void)context;
    wake_in_step(world, body);
}

/* Wake a sleeping body and everything that touches it or is jointed to it, and what touches
 * that: a pile wakes as one, as it fell asleep. */
void rc_wake_island(rc_world *world, int32_t start) {
    const rc_body *first = &world->bodies.data[start];
    if (first->awake || first->type != RC_DYNAMIC) {
        wake_in_step(world, start);
        return;
    }
    rc_island_walk(world, start, true, wake_visit, NULL);
}

/* A contact begins touching a sleeping body: its island wakes with it (a sensor's contact or a
 * kinematic body's, which rc_wake_island's callers above do not take). */
static void wake_sleeper(rc_world *world, int32_t index) {
    if (!world->bodies.data[index].awake) {
        rc_wake_island(world, index);
    }
}

/* ---- the narrow phase ------------------------------------------------------------------------- */

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

float rc_contact_margin(const rc_world *world, const rc_shape *a, const rc_shape *b) {
    if (a->sensor || b->sensor) {
        return 0.0f;
    }
    /* speculative: the points the pair may reach within the step, so that a crate at speed (or
       a grenade, whose sweep does not look at other dynamic bodies) is met where it touches, not
       found overlapping a step later; pairs are found as early as their fat boxes allow */
    if (a->swept || b->swept) {
        /* against the static and kinematic world a swept body's sweep is exact: no reach */
        float base = rc_speculative_margin(world, (a->swept ? a : b)->circle.center);
        bool both_dynamic = a->body_type == RC_DYNAMIC && b->body_type == RC_DYNAMIC;
        return both_dynamic ? base + closing_reach(world, a, b) : base;
    }
    return 4.0f * world->def.linear_slop + closing_reach(world, a, b);
}

/* A hull (in the wall's body frame) against a chain's wall: smooth over the wall's joints. A
 * two-sided wall is met from the side the hull is on. */
static rc_collision collide_wall(const rc_world *world, const rc_shape *wall, const rc_hull *h, float margin) {
    rc_vec2 prev, a, b, next;
    rc_segment_wall(world, wall, &prev, &a, &b, &next);
    if (!wall->one_sided) {
        rc_vec2 c = h->points[0];
        for (int i = 1; i < h->count; ++i) {
            c = rc_add(c, h->points[i]);
        }
        c = rc_scale(1.0f / (float)h->count, c);
        if (rc_cross(rc_sub(b, a), rc_sub(c, a)) < 0.0f) {
            rc_wall_from_behind(&prev, &a, &b, &next); /* on the right */
        }
    }
    return rc_collide_chain_wall(prev, a, b, next, h, margin);
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

rc_collision rc_collide_pair(const rc_world *world, const rc_shape *a, const rc_hull *ha, rc_transform xa,
                            const rc_shape *b, const rc_hull *hb, rc_transform xb, float margin) {
    bool wall_a = a != NULL && a->kind == RC_SHAPE_SEGMENT, wall_b = b != NULL && b->kind == RC_SHAPE_SEGMENT;
    if (wall_a && wall_b) {
        rc_collision none;
        memset(&none, 0, sizeof none);
        return none; /* walls do not touch walls */
    }
    if (wall_b) {
        /* in the wall's frame, the wall first: the normal comes out from b to a */
        rc_hull moved = rc_hull_transform(ha, rc_inv_mul_transforms(xb, xa));
        rc_collision m = collide_wall(world, b, &moved, margin);
        to_world(&m, xb, true, &m);
        return m;
    }
    rc_hull moved = rc_hull_transform(hb, rc_inv_mul_transforms(xa, xb));
    rc_collision m = wall_a ? collide_wall(world, a, &moved, margin) : rc_collide_hulls(ha, &moved, margin);
    to_world(&m, xa, false, &m);
    return m;
}

rc_collision rc_collide_circle_shapes(const rc_shape *a, const rc_body *body_a, rc_circle b, float margin) {
    /* coincident centres: A's x axis, as in A's frame */
    rc_vec2 fallback = rc_rotate(body_a->xf.q, rc_v2(1.0f, 0.0f));
    return rc_collide_circle_pair(a->circle.center, a->circle.radius, b.center, b.radius, fallback, margin);
}

bool rc_swept_strike(const rc_world *world, rc_vec2 velocity, rc_vec2 normal, float gap, float dt) {
    float approach = -rc_dot(velocity, normal);
    return approach > 0.0f && approach >= world->def.restitution_threshold && approach * dt > gap;
}

float rc_contact_least_separation(const rc_contact_point *points, int32_t count) {
    float least = points[0].separation;
    for (int32_t i = 1; i < count; ++i) {
        least = rc_minf(least, points[i].separation);
    }
    return least;
}

bool rc_contact_is_swept_strike(const rc_world *world, const rc_contact *c) {
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    if (a->swept == b->swept || (a->swept ? b : a)->body_type == RC_DYNAMIC) {
        return false;
    }
    const rc_body *body = &world->bodies.data[a->swept ? a->body : b->body];
    /* the normal runs from shape 0 to shape 1: towards the swept body when it is shape 1 */
    return rc_swept_strike(world, body->linear_velocity, a->swept ? rc_neg(c->normal) : c->normal,
                           rc_contact_least_separation(c->points, c->point_count), world->contact_dt);
}

int32_t rc_constraint_bounce(const rc_world *world, const rc_contact_constraint *k, float *approach) {
    for (int32_t p = 0; p < k->point_count; ++p) {
        float a = -k->points[p].relative_velocity;
        /* approaching (a threshold of 0 lets any approach bounce, but not a standstill) */
        if (a > 0.0f && a >= world->def.restitution_threshold && k->points[p].max_normal_impulse != 0.0f) {
            *approach = a;
            return p;
        }
    }
    return -1;
}

int32_t rc_constraint_first_touch(const rc_contact_constraint *k, bool touched_before, float *approach) {
    int32_t best = -1;
    float fastest = 0.0f;
    for (int32_t p = 0; p < k->point_count && !touched_before; ++p) {
        if (k->points[p].normal_impulse > 0.0f && -k->points[p].relative_velocity > fastest) {
            fastest = -k->points[p].relative_velocity;
            best = p;
        }
    }
    *approach = fastest;
    return best;
}

bool rc_constraint_pushed(const rc_contact_constraint *k) {
    for (int32_t p = 0; p < k->point_count; ++p) {
        if (k->points[p].normal_impulse > 0.0f || k->points[p].max_normal_impulse > 0.0f) {
            return true;
        }
    }
    return false;
}

/* A solid shape's hull in its body's frame where it already is (a polygon's or a capsule's in
 * the pool), or built in room (a circle's). */
static inline rc_hull_view hull_view(const rc_world *world, const rc_shape *s, rc_hull *room) {
    if (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE) {
        return pooled_hull(world, s);
    }
    *room = rc_shape_hull(world, s);
    return rc_hull_view_of(room);
}

rc_hull_view rc_shape_hull_view(const rc_world *world, const rc_shape *s, rc_hull *room) {
    return hull_view(world, s, room);
}

/* What rc_collide_pair gives for two shapes that are not walls, in a's body frame (frame: b's
 * body frame in a's), with no hull copied but the one moved into a's frame; smooth over the
 * seams of static or kinematic polygons (rc_smooth_solid_seam). *in_world: the same manifold in
 * the world (xa: a's body transform). */
static void collide_solids(rc_world *world, const rc_shape *a, const rc_shape *b, rc_transform xa,
                           rc_transform frame, float margin, rc_collision *local, rc_collision *in_world) {
    rc_hull room_a, room_b;
    rc_hull_view va = hull_view(world, a, &room_a), vb = hull_view(world, b, &room_b);
    rc_hull moved = rc_hull_view_transform(&vb, frame);
    rc_hull_view vm = rc_hull_view_of(&moved);
    *local = rc_collide_views(&va, &vm, margin);
    to_world(local, xa, false, in_world);
    if (may_meet_seam(a, b) && rc_smooth_solid_seam(world, a, b, margin, in_world)) {
        *local = to_local(*in_world, xa);
    }
}

/* What rc_collide_pair gives for a pair with a chain's wall, the other shape's hull read where it
 * lies and moved into the wall's frame (the pair's two hulls copied first, one of them the wall's
 * that the wall's collision does not read, were a sixtieth of the rain's step). */
static void collide_with_wall(const rc_world *world, const rc_shape *a, rc_transform xa, const rc_shape *b,
                              rc_transform xb, float margin, rc_collision *m) {
    bool wall_b = b->kind == RC_SHAPE_SEGMENT;
    if (wall_b && a->kind == RC_SHAPE_SEGMENT) {
        memset(m, 0, sizeof *m); /* walls do not touch walls */
        return;
    }
    const rc_shape *wall = wall_b ? b : a, *solid = wall_b ? a : b;
    rc_transform wall_xf = wall_b ? xb : xa;
    rc_hull room;
    rc_hull_view v = hull_view(world, solid, &room);
    rc_hull moved = rc_hull_view_transform(&v, wall_b ? rc_inv_mul_transforms(xb, xa) : rc_inv_mul_transforms(xa, xb));
    *m = collide_wall(world, wall, &moved, margin);
    to_world(m, wall_xf, wall_b, m); /* (in the wall's frame, the wall first: flipped when it is b) */
}

/* May a contact keep its manifold while its bodies hardly move? Solid polygons and capsules
 * that are not swept: a circle's normal follows its centre (and seams bend it), a swept body's
 * contacts are its sweep's, a sensor's overlap is exact, walls have their own rules. */
static bool may_keep_manifold(const rc_contact *c, const rc_shape *a, const rc_shape *b) {
    return !c->sensor && !a->swept && !b->swept && (a->kind == RC_SHAPE_POLYGON || a->kind == RC_SHAPE_CAPSULE) &&
           (b->kind == RC_SHAPE_POLYGON || b->kind == RC_SHAPE_CAPSULE);
}

/* Keep a manifold found in a's body frame (frame: b's body frame in a's): its normal there, and
 * each point's two surfaces, each in its own body's frame. */
static void keep_manifold(rc_contact *c, const rc_collision *local, rc_transform frame) {
    c->kept = local->count > 0;
    c->kept_normal = local->normal;
    c->kept_frame = frame;
    for (int k = 0; k < local->count; ++k) {
        const rc_collision_point *p = &local->points[k];
        rc_vec2 half = rc_scale(0.5f * p->separation, local->normal);
        c->points[k].local_a = rc_sub(p->point, half);
        c->points[k].local_b = rc_inv_transform_point(frame, rc_add(p->point, half));
    }
}

/* The kept manifold in a's body frame where the bodies are now (frame: b's body frame in a's),
 * if b's shape (its tight box) moved less than RC_KEEP_MANIFOLD slops in a's frame since it was
 * found: the same features (ids, normal), their separations measured again. False: compute it
 * in full. */
static bool kept_manifold(const rc_world *world, const rc_contact *c, const rc_shape *b, rc_vec2 b_origin,
                          rc_transform frame, rc_collision *local) {
    rc_transform then = c->kept_frame;
    /* the turn since then, and how far it can carry a point of b's: its chord, at most
       |sin| + 1 - cos of the turn times the reach of b's box from b's origin */
    rc_rot turn = {then.q.c * frame.q.c + then.q.s * frame.q.s, then.q.c * frame.q.s - then.q.s * frame.q.c};
    rc_aabb box = b->aabb;
    float rx = rc_maxf(fabsf(box.lower.x - b_origin.x), fabsf(box.upper.x - b_origin.x));
    float ry = rc_maxf(fabsf(box.lower.y - b_origin.y), fabsf(box.upper.y - b_origin.y));
    float moved = rc_length(rc_sub(frame.p, then.p)) + (fabsf(turn.s) + (1.0f - turn.c)) * (rx + ry);
    if (!(moved <= RC_KEEP_MANIFOLD * world->def.linear_slop)) {
        return false;
    }
    local->normal = c->kept_normal;
    local->count = c->point_count;
    for (int k = 0; k < c->point_count; ++k) {
        const rc_contact_point *p = &c->points[k];
        rc_vec2 on_b = rc_transform_point(frame, p->local_b);
        local->points[k].point = rc_scale(0.5f, rc_add(p->local_a, on_b));
        local->points[k].separation = rc_dot(rc_sub(on_b, p->local_a), c->kept_normal);
        local->points[k].id = p->id;
    }
    return true;
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

bool rc_contact_collide(rc_world *world, int32_t index, bool may_keep) {
    rc_contact *c = &world->contacts.data[index];
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    const rc_body *ba = &world->bodies.data[a->body], *bb = &world->bodies.data[b->body];
    bool keeps = may_keep_manifold(c, a, b);
    rc_collision m, local;
    /* a kept manifold needs no margin (its points were found with one): the margin (the pair's
       closing speed) is worked out only for a full narrow phase */
    bool keeping = keeps && c->kept && may_keep;
    rc_transform frame_now = keeping ? rc_inv_mul_transforms(ba->xf, bb->xf) : RC_TRANSFORM_IDENTITY;
    bool kept = keeping && kept_manifold(world, c, b, bb->xf.p, frame_now, &local);
    float margin = kept ? 0.0f : rc_contact_margin(world, a, b);
    if (!keeping && boxes_apart(world, a, b, margin)) {
        /* no points (most contacts of a crowd: boxes near, shapes apart), and nothing of the
           full path below to do: no impulses to carry over, not touching (the manifold stays
           the last touching one) */
        c->kept = false;
        set_point_count(world, c, 0);
        c->rolling_impulse = 0.0f;
        return false;
    }
    if (kept) {
        to_world(&local, ba->xf, false, &m);
    } else if (keeping) {
        /* moved too far to keep it: found again in full */
        collide_solids(world, a, b, ba->xf, frame_now, margin, &local, &m);
        keep_manifold(c, &local, frame_now);
    } else if (a->kind == RC_SHAPE_CIRCLE && b->kind == RC_SHAPE_CIRCLE) {
        m = rc_collide_circle_shapes(a, ba, b->circle, margin); /* a crowd of grenades: no hulls */
    } else if (a->kind != RC_SHAPE_SEGMENT && b->kind != RC_SHAPE_SEGMENT) {
        rc_transform frame = rc_inv_mul_transforms(ba->xf, bb->xf);
        collide_solids(world, a, b, ba->xf, frame, margin, &local, &m);
        if (keeps) {
            keep_manifold(c, &local, frame);
        }
        rc_smooth_seam(world, a, b, &m);
    } else {
        collide_with_wall(world, a, ba->xf, b, bb->xf, margin, &m);
    }
    float least = INFINITY;
    if (kept && (m.count < 2 || m.points[0].id != m.points[1].id)) {
        /* a kept manifold has the last one's points (and count) in the same order: with
           distinct ids, the search by id below would give each point its own impulses back,
           so they stay (most contacts of a pile at rest, every step) */
        c->normal = m.normal;
        for (int32_t k = 0; k < m.count; ++k) {
            least = rc_minf(least, place_point(&c->points[k], &m.points[k], ba, bb));
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
        int32_t old_count = rc_dot(c->normal, m.normal) >= RC_CARRY_TURN ? c->point_count : 0;
        for (int32_t j = 0; j < old_count; ++j) {
            old[j].normal_impulse = c->points[j].normal_impulse;
            old[j].tangent_impulse = c->points[j].tangent_impulse;
            old[j].approach = c->points[j].approach;
            old[j].id = c->points[j].id;
        }
        c->normal = m.normal;
        set_point_count(world, c, m.count);
        for (int32_t k = 0; k < m.count; ++k) {
            rc_contact_point *p = &c->points[k];
            least = rc_minf(least, place_point(p, &m.points[k], ba, bb));
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
    if (m.count == 0) {
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
    c->manifold.normal = m.normal;
    for (int32_t k = 0; k < m.count; ++k) {
        if (m.points[k].separation <= touch) {
            int32_t n = c->manifold.point_count++;
            c->manifold.points[n] = m.points[k].point;
            c->manifold.depths[n] = rc_maxf(-m.points[k].separation, 0.0f);
            c->manifold.depth = rc_maxf(c->manifold.depth, c->manifold.depths[n]);
        }
    }
    return touching;
}

/* The speed at which the contact's bodies approach along its normal at its deepest point (the
 * solver's, when it met them this step). */
static float approach_speed(const rc_world *world, const rc_contact *c) {
    float best = 0.0f;
    for (int32_t k = 0; k < c->point_count; ++k) {
        best = rc_maxf(best, c->points[k].approach);
    }
    if (best > 0.0f || c->point_count == 0) {
        return best;
    }
    const rc_body *ba = &world->bodies.data[c->body[0]];
    const rc_body *bb = &world->bodies.data[c->body[1]];
    const rc_contact_point *p = &c->points[0];
    rc_vec2 va = rc_add(ba->linear_velocity, rc_v2(-ba->angular_velocity * p->anchor_a.y, ba->angular_velocity * p->anchor_a.x));
    rc_vec2 vb = rc_add(bb->linear_velocity, rc_v2(-bb->angular_velocity * p->anchor_b.y, bb->angular_velocity * p->anchor_b.x));
    return rc_maxf(-rc_dot(rc_sub(vb, va), c->normal), 0.0f);
}

/* Does an awake body close on a sleeping dynamic one across their contact's points? */
static bool closing_on_sleeper(const rc_world *world, const rc_contact *c, const rc_body *ba, const rc_body *bb) {
    if (c->sensor || c->point_count == 0 || ba->awake == bb->awake) {
        return false;
    }
    const rc_body *sleeper = ba->awake ? bb : ba, *mover = ba->awake ? ba : bb;
    if (sleeper->type != RC_DYNAMIC || mover->type == RC_STATIC || !sleeper->enable_response ||
        !mover->enable_response) {
        return false;
    }
    /* the normal points from shape[0] to shape[1]: the mover closes when it moves along it
       towards the sleeper (at any of the points, turning included) */
    rc_vec2 towards = ba->awake ? c->normal : rc_neg(c->normal);
    for (int32_t p = 0; p < c->point_count; ++p) {
        rc_vec2 r = rc_sub(c->points[p].point, mover->center);
        rc_vec2 v = rc_add(mover->linear_velocity, rc_v2(-mover->angular_velocity * r.y, mover->angular_velocity * r.x));
        if (rc_dot(v, towards) > world->def.sleep_linear_speed) {
            return true;
        }
    }
    return false;
}

void rc_contacts_refresh(rc_world *world) {
    if (!world->contacts_flagged) {
        return; /* the last update saw every contact, and nothing flagged one since */
    }
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        rc_contact *c = &world->contacts.data[i];
        if (!c->in_use || !c->flagged || c->sensor) {
            continue;
        }
        const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
        if (!rc_shapes_should_pair(world, a, b)) {
            set_point_count(world, c, 0); /* the step's end destroys it */
            continue;
        }
        (void)rc_contact_collide(world, i, false); /* touching or not is the step end's to say */
    }
}

/* Is the pair over: its grid boxes apart, or its shapes no longer allowed to pair? */
static bool pair_over(const rc_world *world, const rc_contact *c, bool recheck) {
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    return !rc_world_proxies_overlap(world, a, b) ||
           (recheck && !rc_shapes_should_pair(world, a, b));
}

/* The impulses of contact i's constraint, if it had one this step, for the next step's start
 * (and its points' approach speeds, for the events). Here rather than in a pass of their own
 * over the constraints: that pass met the contacts in the constraints' order, all over memory
 * (4% of the large pyramid's time), and this look meets each anyway. */
static void commit_impulses(rc_world *world, rc_contact *c, int32_t i) {
    if (i >= world->contact_constraint.count || world->contact_constraint.data[i] < 0) {
        return; /* (a contact made since the gathering, or none) */
    }
    const rc_contact_constraint *k = &world->constraints.data[world->contact_constraint.data[i]];
    assert(k->contact == i); /* (no contact ends between the gathering and the update) */
    /* read once: -1 again, so that the next gathering need not walk the constraints to reset
       the map when this look met every one of them (it always does but in a level of sleepers) */
    world->contact_constraint.data[i] = -1;
    world->contact_constraint_set--;
    for (int32_t p = 0; p < k->point_count; ++p) {
        c->points[p].normal_impulse = k->points[p].normal_impulse;
        c->points[p].tangent_impulse = k->points[p].tangent_impulse;
        c->points[p].approach = rc_maxf(-k->points[p].relative_velocity, 0.0f);
    }
    c->rolling_impulse = k->rolling_impulse;
}

#define UPDATE_AHEAD 8

/* Contact i's constraint (if it has one) on its way into the cache: the constraints are in the
 * bodies' order, the contacts met here in theirs, so each read of one was a miss (two thirds of
 * the update's time in a field of small pyramids). */
static inline void prefetch_constraint(const rc_world *world, int32_t i) {
    if (i < world->contact_constraint.count && world->contact_constraint.data[i] >= 0) {
        const rc_contact_constraint *k = &world->constraints.data[world->contact_constraint.data[i]];
        RC_PREFETCH(k);
        RC_PREFETCH((const char *)k + 64);
        RC_PREFETCH((const char *)k + 128);
    }
}

/* The step's look at contact i: destroyed when its boxes part, its manifold where its bodies
 * are now, sleepers it touches woken, and its begin or end event. */
static void update_contact(rc_world *world, int32_t i) {
    rc_contact *c = &world->contacts.data[i];
    bool recheck = c->flagged; /* a filter, type or shape changed: may they pair at all? */
    if (c->in_use) {
        commit_impulses(world, c, i);
    }
    if (!c->in_use || (!recheck && !world->body_active.data[c->body[0]] && !world->body_active.data[c->body[1]])) {
        return; /* nothing moved: nothing changed */
    }
    rc_shape *a = &world->shapes.data[c->shape[0]];
    rc_shape *b = &world->shapes.data[c->shape[1]];
    rc_body *ba = &world->bodies.data[a->body];
    rc_body *bb = &world->bodies.data[b->body];
    c->flagged = false;
    /* apart in the grid (the boxes that made the pair): the pair is over */
    if (pair_over(world, c, recheck)) {
        rc_contact_destroy(world, i, true);
        return;
    }
    bool touching = rc_contact_collide(world, i, !recheck);
    c = &world->contacts.data[i];
    /* something awake touching a sleeping body wakes it and what rests on it, and so does a
       moving kinematic body (a platform set moving under a crate that slept on it: the crate
       stayed asleep in the air when the platform left); so does a door or a crate about to
       meet a sleeping body (its contact has points within the speculative margin): woken
       now, it is pushed, not overrun */
    bool touching_sleeper =
        touching && !c->sensor && ba->awake != bb->awake &&
        ((ba->type == RC_DYNAMIC && bb->type == RC_DYNAMIC) || (!ba->awake && rc_body_moving_kinematic(bb)) ||
         (!bb->awake && rc_body_moving_kinematic(ba)));
    if (touching_sleeper || closing_on_sleeper(world, c, ba, bb)) {
        rc_wake_island(world, ba->awake ? b->body : a->body);
    }
    if (touching == c->touching) {
        return;
    }
    c->touching = touching;
    rc_shape_id ia = rc_shape_id_of(world, c->shape[0]);
    rc_shape_id ib = rc_shape_id_of(world, c->shape[1]);
    if (touching) {
        /* something touching a sleeping body wakes it; an awake body keeps its time at rest
           (a pyramid's contacts begin and end within the margin as it settles: each reset
           its two boxes' clocks, and it slept 0.7 s after it came to rest) */
        wake_sleeper(world, a->body);
        wake_sleeper(world, b->body);
    }
    if (c->sensor) {
        const rc_shape *sensor = a->sensor ? a : b;
        if (sensor->sensor_events) {
            rc_sensor_event e = {a->sensor ? ia : ib, a->sensor ? ib : ia};
            if (touching) {
                world->sensor_begin.data[world->sensor_begin.count++] = e;
            } else {
                world->sensor_end.data[world->sensor_end.count++] = e;
            }
        }
    } else if (a->contact_events && b->contact_events) {
        if (touching) {
            rc_contact_begin_event e = {ia, ib, c->manifold, approach_speed(world, c)};
            world->contact_begin.data[world->contact_begin.count++] = e;
        } else {
            rc_contact_end_event e = {ia, ib, c->manifold};
            world->contact_end.data[world->contact_end.count++] = e;
        }
    }
}

void rc_contacts_update(rc_world *world) {
    bool marked = !world->contacts_flagged && rc_contacts_few_awake(world, world->undo.count);
    if (marked) {
        /* the contacts of the bodies awake now (the undo list: awake at the step's start, or
           woken by the sweeps) and the new ones; a body woken below marks its own */
        for (int32_t k = 0; k < world->undo.count; ++k) {
            rc_mark_body_contacts(world, world->undo.data[k].body);
        }
        for (int32_t k = 0; k < world->new_contacts.count; ++k) {
            int32_t ci = world->new_contacts.data[k];
            world->contact_marks.data[ci >> 6] |= 1ull << (ci & 63);
        }
        world->marking_wakes = true;
        for (int32_t next = 0, i; (i = rc_next_marked_contact(world, &next)) >= 0;) {
            update_contact(world, i);
        }
        world->marking_wakes = false;
        rc_contact_marks_clear(world);
        return;
    }
    world->contacts_flagged = false; /* every flagged contact below is looked at and unflagged */
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        prefetch_constraint(world, i + UPDATE_AHEAD);
        update_contact(world, i);
    }
}
