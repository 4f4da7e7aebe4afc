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
    int32_t *head = &world->contact_heads.data[c->shape[k]];
    int32_t next = *head;
    c->edge[k].prev = -1;
    c->edge[k].next = next;
    if (next >= 0) {
        rc_contact *n = &world->contacts.data[next];
        n->edge[n->shape[0] == c->shape[k] ? 0 : 1].prev = contact;
    }
    *head = contact;
}

static void unlink_edge(rc_world *world, int32_t contact, int32_t k) {
    rc_contact *c = &world->contacts.data[contact];
    int32_t shape = c->shape[k];
    if (c->edge[k].prev >= 0) {
        rc_contact *p = &world->contacts.data[c->edge[k].prev];
        p->edge[p->shape[0] == shape ? 0 : 1].next = c->edge[k].next;
    } else {
        world->contact_heads.data[shape] = c->edge[k].next;
    }
    if (c->edge[k].next >= 0) {
        rc_contact *n = &world->contacts.data[c->edge[k].next];
        n->edge[n->shape[0] == shape ? 0 : 1].prev = c->edge[k].prev;
    }
}

/* A count moved by delta, unless it reached the top, where it stays. */
static inline uint8_t count_by(uint8_t count, int delta) {
    assert(delta > 0 || count > 0);
    return count == UINT8_MAX ? count : (uint8_t)(count + delta);
}

void rc_contact_count_level(rc_world *world, const rc_contact *c, int delta) {
    for (int k = 0; k < 2; ++k) {
        rc_body *b = &world->bodies.data[c->body[k]];
        uint8_t other = world->bodies.data[c->body[1 - k]].type;
        if (b->type == RC_DYNAMIC && other != RC_DYNAMIC) {
            b->level_contacts = count_by(b->level_contacts, delta);
            if (other == RC_KINEMATIC) {
                b->kinematic_contacts = count_by(b->kinematic_contacts, delta);
            }
        }
    }
}

void rc_contacts_count_levels(rc_world *world) {
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        world->bodies.data[i].level_contacts = 0;
        world->bodies.data[i].kinematic_contacts = 0;
    }
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        if (world->contacts.data[i].in_use) {
            rc_contact_count_level(world, &world->contacts.data[i], 1);
        }
    }
}

int32_t rc_contact_create(rc_world *world, int32_t shape_a, int32_t shape_b) {
    int32_t index = rc_id_pool_take(&world->contact_ids);
    rc_contact_set_changed(world, index);
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

rc_contact_mark rc_contact_mark_now(const rc_world *world) {
    rc_contact_mark m = {rc_id_pool_mark_now(&world->contact_ids), world->contacts.count};
    return m;
}

/* Each step of rc_contact_create undone, the last made first (the edges were linked at their
 * lists' heads, so unlinking them puts the heads back); the ids and the array then go back to
 * the mark (rc_id_pool_rewind). */
void rc_contacts_take_back(rc_world *world, const int32_t *made, int32_t count, rc_contact_mark mark) {
    for (int32_t k = count - 1; k >= 0; --k) {
        rc_contact *c = &world->contacts.data[made[k]];
        assert(c->in_use && !c->touching);
        rc_map_remove(&world->contact_map, rc_contact_key(c->shape[0], c->shape[1]));
        rc_contact_set_changed(world, made[k]);
        unlink_edge(world, made[k], 1);
        unlink_edge(world, made[k], 0);
        rc_contact_count_level(world, c, -1);
        c->in_use = false;
    }
    assert(world->contact_ids.free_count <= mark.ids.free_count && world->contact_ids.next >= mark.ids.next);
    rc_id_pool_rewind(&world->contact_ids, mark.ids);
    world->contacts.count = mark.count;
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
    if (c->touching) {
        rc_islands_split(world);
    }
    rc_map_remove(&world->contact_map, rc_contact_key(c->shape[0], c->shape[1]));
    rc_contact_set_changed(world, contact);
    unlink_edge(world, contact, 0);
    unlink_edge(world, contact, 1);
    rc_contact_count_level(world, c, -1);
    c->in_use = false;
    rc_id_pool_give(&world->contact_ids, contact);
}

void rc_shape_flag_contacts(rc_world *world, int32_t shape) {
    for (int32_t ci = world->contact_heads.data[shape]; ci >= 0;) {
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
    while (world->contact_heads.data[shape] >= 0) {
        int32_t contact = world->contact_heads.data[shape];
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
    assert(rc_contact_may_strike(world, c)); /* (the caller asked: the gathering, inline) */
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    const rc_body *body = &world->bodies.data[a->swept ? a->body : b->body];
    /* the normal runs from shape 0 to shape 1: towards the swept body when it is shape 1 */
    return rc_swept_strike(world, body->linear_velocity, a->swept ? rc_neg(c->normal) : c->normal,
                           rc_contact_least_separation(c->points, c->point_count), world->contact_dt);
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

/* Does the contact, touching or not, wake the sleeping one of its bodies? Something awake
 * touching a sleeping body wakes it and what rests on it, and so does a moving kinematic body (a
 * platform set moving under a crate that slept on it: the crate stayed asleep in the air when
 * the platform left); so does a door or a crate about to meet a sleeping body (its contact has
 * points within the speculative margin): woken now, it is pushed, not overrun. */
static bool wakes_sleeper(const rc_world *world, const rc_contact *c, const rc_body *ba, const rc_body *bb,
                          bool touching) {
    bool touching_sleeper =
        touching && !c->sensor && ba->awake != bb->awake &&
        ((ba->type == RC_DYNAMIC && bb->type == RC_DYNAMIC) || (!ba->awake && rc_body_moving_kinematic(bb)) ||
         (!bb->awake && rc_body_moving_kinematic(ba)));
    return touching_sleeper || closing_on_sleeper(world, c, ba, bb);
}

static bool refreshed(const rc_contact *c) { return c->in_use && c->flagged && !c->sensor; }

bool rc_contacts_reserve_refresh(rc_world *world) {
    world->refresh_undo.count = 0;
    world->refresh_undo_at.count = 0;
    if (!world->contacts_flagged) {
        return true;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        n += refreshed(&world->contacts.data[i]);
    }
    return rc_array_reserve_aligned(world, world->refresh_undo, n, 64) &&
           rc_array_reserve(world, world->refresh_undo_at, n);
}

void rc_contacts_refresh_undo(rc_world *world) {
    for (int32_t k = world->refresh_undo.count - 1; k >= 0; --k) {
        world->contacts.data[world->refresh_undo_at.data[k]] = world->refresh_undo.data[k];
    }
    world->refresh_undo.count = 0;
    world->refresh_undo_at.count = 0;
}

void rc_contacts_refresh(rc_world *world) {
    if (!world->contacts_flagged) {
        return; /* the last update saw every contact, and nothing flagged one since */
    }
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        rc_contact *c = &world->contacts.data[i];
        if (!refreshed(c)) {
            continue;
        }
        /* kept as it was, for a step that fails (its room: rc_contacts_reserve_refresh) */
        world->refresh_undo.data[world->refresh_undo.count++] = *c;
        world->refresh_undo_at.data[world->refresh_undo_at.count++] = i;
        const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
        if (!rc_shapes_should_pair(world, a, b)) {
            rc_contact_set_point_count(world, c, 0); /* the step's end destroys it */
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

/* A touch made and ended within the step: the solver met the contact's bodies approaching at
 * the restitution threshold or faster and pushed them apart (a bounce), and the contact neither
 * touched at the step's start nor touches at its end. Its begin and end events carry the points
 * that pushed, where the step's solve had them. */
typedef struct brief_touch {
    bool met;
    float approach;
    rc_manifold manifold;
} brief_touch;

/* The impulses of contact i's constraint, if it had one this step, for the next step's start
 * (and its points' approach speeds, for the events). Here rather than in a pass of their own
 * over the constraints: that pass met the contacts in the constraints' order, all over memory
 * (4% of the large pyramid's time), and this look meets each anyway. *brief: whether it
 * bounced a pair that was not touching at the step's start (its points still the solve's). */
static void commit_impulses(rc_world *world, rc_contact *c, int32_t i, brief_touch *brief) {
    brief->met = false;
    if (i >= world->contact_constraint.count || world->contact_constraint.data[i] < 0) {
        return; /* (a contact made since the gathering, or none) */
    }
    const rc_contact_constraint *k = &world->constraints.data[world->contact_constraint.data[i]];
    assert(k->contact == i); /* (no contact ends between the gathering and the update) */
    /* read once: -1 again, so that the next gathering need not walk the constraints to reset
       the map when this look met every one of them (it always does but in a level of sleepers) */
    world->contact_constraint.data[i] = -1;
    world->contact_constraint_set--;
    if (!c->touching && rc_constraint_bounce(world->def.restitution_threshold, k, &brief->approach) >= 0) {
        brief->met = true;
        memset(&brief->manifold, 0, sizeof brief->manifold);
        brief->manifold.normal = c->normal;
        for (int32_t p = 0; p < k->point_count; ++p) {
            if (k->points[p].max_normal_impulse > 0.0f || k->points[p].normal_impulse > 0.0f) {
                rc_manifold_add_point(&brief->manifold, c->points[p].point, c->points[p].separation);
            }
        }
    }
    for (int32_t p = 0; p < k->point_count; ++p) {
        c->points[p].normal_impulse = k->points[p].normal_impulse;
        c->points[p].tangent_impulse = k->points[p].tangent_impulse;
        c->points[p].approach = rc_maxf(-k->points[p].relative_velocity, 0.0f);
    }
    c->rolling_impulse = k->rolling_impulse;
}

/* A brief touch's begin and end events (room reserved: a contact that touched neither at the
 * step's start nor at its end has no other event in it). */
static void emit_brief_touch(rc_world *world, const rc_contact *c, const brief_touch *brief) {
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    if (!brief->met || !a->contact_events || !b->contact_events) {
        return;
    }
    rc_shape_id ia = rc_shape_id_of(world, c->shape[0]), ib = rc_shape_id_of(world, c->shape[1]);
    rc_contact_begin_event begin = {ia, ib, brief->manifold, brief->approach};
    rc_contact_end_event end = {ia, ib, brief->manifold};
    world->contact_begin.data[world->contact_begin.count++] = begin;
    world->contact_end.data[world->contact_end.count++] = end;
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
    brief_touch brief = {.met = false}; /* (commit_impulses fills the rest when met) */
    if (c->in_use) {
        commit_impulses(world, c, i, &brief);
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
        emit_brief_touch(world, c, &brief); /* (bounced so far apart that their boxes parted) */
        rc_contact_destroy(world, i, true);
        return;
    }
    bool touching = rc_contact_collide(world, i, !recheck);
    c = &world->contacts.data[i];
    if (wakes_sleeper(world, c, ba, bb, touching)) {
        rc_wake_island(world, ba->awake ? b->body : a->body);
    }
    if (touching == c->touching) {
        if (!touching) {
            emit_brief_touch(world, c, &brief);
        }
        return;
    }
    c->touching = touching;
    if (!touching) {
        rc_islands_split(world);
    }
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
