/* Contacts: one per pair of shapes whose boxes overlap, created when the broadphase reports
 * the pair and destroyed when the boxes part; the narrow phase decides whether the shapes
 * touch and the changes become begin and end events. */
#include "world/world_internal.h"

#include <string.h>

static uint64_t pair_key(int32_t a, int32_t b) {
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return (uint64_t)lo << 32 | hi;
}

bool rc_contact_reserve(rc_world *world, int32_t extra) {
    int32_t free_slots = world->contact_ids.free_count < extra ? world->contact_ids.free_count : extra;
    return rc_array_reserve(world, world->contacts, world->contacts.count + (extra - free_slots)) &&
           rc_id_pool_reserve(&world->allocator, &world->contact_ids, extra) &&
           rc_map_reserve(&world->allocator, &world->contact_map, extra);
}

static void link_edge(rc_world *world, int32_t contact, int32_t k) {
    rc_contact *c = &world->contacts.data[contact];
    rc_shape *s = &world->shapes.data[c->shape[k]];
    c->edge[k].prev = -1;
    c->edge[k].next = s->first_contact;
    if (s->first_contact >= 0) {
        rc_contact *head = &world->contacts.data[s->first_contact];
        head->edge[head->shape[0] == c->shape[k] ? 0 : 1].prev = contact;
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

int32_t rc_contact_create(rc_world *world, int32_t shape_a, int32_t shape_b) {
    int32_t index = rc_id_pool_take(&world->contact_ids);
    if (index == world->contacts.count) {
        world->contacts.count++;
    }
    rc_contact *c = &world->contacts.data[index];
    memset(c, 0, sizeof *c);
    c->shape[0] = shape_a < shape_b ? shape_a : shape_b;
    c->shape[1] = shape_a < shape_b ? shape_b : shape_a;
    c->in_use = true;
    c->flagged = true; /* a new pair is looked at in its first step whatever its bodies do */
    c->sensor = world->shapes.data[shape_a].sensor || world->shapes.data[shape_b].sensor;
    link_edge(world, index, 0);
    link_edge(world, index, 1);
    rc_map_set(&world->contact_map, pair_key(shape_a, shape_b), index);
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
    rc_map_remove(&world->contact_map, pair_key(c->shape[0], c->shape[1]));
    unlink_edge(world, contact, 0);
    unlink_edge(world, contact, 1);
    c->in_use = false;
    rc_id_pool_give(&world->contact_ids, contact);
}

void rc_shape_flag_contacts(rc_world *world, int32_t shape) {
    for (int32_t ci = world->shapes.data[shape].first_contact; ci >= 0;) {
        rc_contact *c = &world->contacts.data[ci];
        c->flagged = true;
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

/* Room for every event the narrow phase can emit this step: each contact changes at most once. */
bool rc_contacts_reserve_events(rc_world *world) {
    int32_t n = rc_id_pool_live(&world->contact_ids);
    return rc_array_reserve(world, world->contact_begin, world->contact_begin.count + n) &&
           rc_array_reserve(world, world->contact_end, world->contact_end.count + n) &&
           rc_array_reserve(world, world->sensor_begin, world->sensor_begin.count + n) &&
           rc_array_reserve(world, world->sensor_end, world->sensor_end.count + n);
}

/* A body whose state can change this step: awake and able to move. */
static bool body_active(const rc_body *b) { return b->type != RC_STATIC && b->awake; }

/* Wake a sleeping body and everything that touches it, and what touches that: a pile wakes as
 * one, as it fell asleep. */
static void wake_island(rc_world *world, int32_t start) {
    rc_island_node *nodes = world->islands.data;
    rc_body *first = &world->bodies.data[start];
    if (first->awake || first->type != RC_DYNAMIC) {
        rc_body_wake(first);
        return;
    }
    rc_body_wake(first);
    int32_t top = start;
    nodes[start].next = -1;
    while (top >= 0) {
        int32_t index = top;
        top = nodes[index].next;
        const rc_body *b = &world->bodies.data[index];
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            for (int32_t ci = world->shapes.data[s].first_contact; ci >= 0;) {
                const rc_contact *c = &world->contacts.data[ci];
                int32_t k = c->shape[0] == s ? 0 : 1;
                int32_t other = world->shapes.data[c->shape[1 - k]].body;
                rc_body *ob = &world->bodies.data[other];
                if (c->touching && !c->sensor && ob->type == RC_DYNAMIC && !ob->awake) {
                    rc_body_wake(ob);
                    nodes[other].next = top;
                    top = other;
                }
                ci = c->edge[k].next;
            }
        }
    }
}

/* Where a shape is, for the side of a one-sided wall it is on: a circle's centre, a
 * polygon's centroid. */
static rc_vec2 shape_center(const rc_world *world, const rc_shape *s) {
    rc_shape_view v = rc_shape_view_of(world, s);
    switch (v.kind) {
    case RC_SHAPE_POLYGON:
        return v.u.polygon.centroid;
    case RC_SHAPE_SEGMENT:
        return rc_lerp(v.u.segment.a, v.u.segment.b, 0.5f);
    case RC_SHAPE_CIRCLE:
        break;
    }
    return v.u.circle.center;
}

/* Does a swept circle rest near the other shape (within the margin)? Fills a manifold that
 * reports the two as touching with depth 0 when they are apart by less than the margin. */
static bool touching_near(const rc_world *world, const rc_shape *a, const rc_shape *b, rc_manifold *m) {
    const rc_shape *circle = a->swept ? a : b;
    const rc_shape *other = a->swept ? b : a;
    rc_distance_result d;
    if (!rc_shape_distance(world, other, circle->circle.center, &d)) {
        return false;
    }
    float gap = d.distance - circle->circle.radius;
    if (gap > rc_world_margin(world, circle->circle.center)) {
        return false;
    }
    if (gap <= 0.0f) {
        rc_shape_view va = rc_shape_view_of(world, a), vb = rc_shape_view_of(world, b);
        if (rc_view_collide(&va, &vb, m)) {
            return true;
        }
    }
    /* apart by less than the margin: the point midway, the normal from a to b */
    memset(m, 0, sizeof *m);
    m->normal = circle == a ? rc_neg(d.normal) : d.normal;
    m->points[0] = rc_mul_add(d.point, 0.5f * rc_maxf(gap, 0.0f), d.normal);
    m->point_count = 1;
    return true;
}

void rc_contacts_update(rc_world *world) {
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        rc_contact *c = &world->contacts.data[i];
        if (!c->in_use) {
            continue;
        }
        rc_shape *a = &world->shapes.data[c->shape[0]];
        rc_shape *b = &world->shapes.data[c->shape[1]];
        rc_body *ba = &world->bodies.data[a->body];
        rc_body *bb = &world->bodies.data[b->body];
        bool recheck = c->flagged; /* a filter, type or shape changed: may they pair at all? */
        if (!recheck && !body_active(ba) && !body_active(bb)) {
            continue; /* nothing moved: nothing changed */
        }
        c->flagged = false;
        bool near = (a->swept || b->swept) && !c->sensor;
        if (!rc_aabb_overlaps(near ? rc_shape_proxy_box(world, a) : a->aabb, near ? rc_shape_proxy_box(world, b) : b->aabb) ||
            (recheck && !rc_shapes_should_pair(world, a, b))) {
            rc_contact_destroy(world, i, true);
            continue;
        }
        rc_manifold m;
        bool touching;
        if (!rc_shape_faces(a, shape_center(world, b)) || !rc_shape_faces(b, shape_center(world, a))) {
            touching = false; /* behind a one-sided wall */
        } else if (near) {
            touching = touching_near(world, a, b, &m);
        } else {
            rc_shape_view va = rc_shape_view_of(world, a), vb = rc_shape_view_of(world, b);
            touching = rc_view_collide(&va, &vb, &m);
        }
        if (touching) {
            c->manifold = m;
            /* something awake touching a sleeping body wakes it and what rests on it */
            if (ba->awake != bb->awake && ba->type == RC_DYNAMIC && bb->type == RC_DYNAMIC && !c->sensor) {
                wake_island(world, ba->awake ? b->body : a->body);
            }
        } else {
            c->normal_impulse = 0.0f;
            c->tangent_impulse = 0.0f;
            c->rolling_impulse = 0.0f;
        }
        if (touching == c->touching) {
            continue;
        }
        c->touching = touching;
        rc_shape_id ia = rc_shape_id_of(world, c->shape[0]);
        rc_shape_id ib = rc_shape_id_of(world, c->shape[1]);
        if (touching) {
            /* something touching a sleeping body wakes it */
            rc_body_wake(ba);
            rc_body_wake(bb);
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
                rc_contact_begin_event e = {ia, ib, m};
                world->contact_begin.data[world->contact_begin.count++] = e;
            } else {
                rc_contact_end_event e = {ia, ib, c->manifold};
                world->contact_end.data[world->contact_end.count++] = e;
            }
        }
    }
}

int32_t rc_shape_contacts(const rc_world *world, rc_shape_id id, rc_shape_id *ids, int32_t capacity) {
    const rc_shape *s = rc_get_shape(world, id, __func__);
    if (s == NULL) {
        return -1;
    }
    if (capacity < 0 || (ids == NULL && capacity > 0)) {
        return rc_fail(world, __func__, "ids is NULL with capacity %d, or capacity is negative", (int)capacity), -1;
    }
    /* a chain: the contacts of each of its segments */
    int32_t self = (int32_t)id.index - 1, records = rc_setter_records(world, self);
    int32_t n = 0;
    for (int32_t r = s->kind == RC_KIND_CHAIN ? 1 : 0; r < records; ++r) {
        int32_t index = rc_setter_record(world, self, r);
        for (int32_t ci = world->shapes.data[index].first_contact; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            int32_t k = c->shape[0] == index ? 0 : 1;
            if (c->touching) {
                if (n < capacity) {
                    ids[n] = rc_shape_id_of(world, c->shape[1 - k]);
                }
                ++n;
            }
            ci = c->edge[k].next;
        }
    }
    return n;
}
