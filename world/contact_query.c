/* What a game asks about the contacts that touch now: which shapes touch a shape, and the
 * manifolds of a shape's or a body's contacts (as the last step left them). */
#include "world/world_internal.h"

#include <math.h>

/* Write contact ci into the first capacity entries of ids or data (either may be NULL), as
 * seen from its shape k, at position n. */
static void report(const rc_world *world, const rc_contact *c, int32_t k, int32_t n, rc_shape_id *ids,
                   rc_contact_data *data, int32_t capacity) {
    if (n >= capacity) {
        return;
    }
    if (ids != NULL) {
        ids[n] = rc_shape_id_of(world, c->shape[1 - k]);
    }
    if (data != NULL) {
        rc_contact_data d = {rc_shape_id_of(world, c->shape[0]), rc_shape_id_of(world, c->shape[1]), c->manifold};
        data[n] = d;
    }
}

/* The touching contacts of shape record index, reported from position n on; returns the new n. */
static int32_t walk_shape(const rc_world *world, int32_t index, int32_t n, rc_shape_id *ids, rc_contact_data *data,
                          int32_t capacity) {
    for (int32_t ci = world->contact_heads.data[index]; ci >= 0;) {
        const rc_contact *c = &world->contacts.data[ci];
        int32_t k = c->shape[0] == index ? 0 : 1;
        if (c->touching) {
            report(world, c, k, n++, ids, data, capacity);
        }
        ci = c->edge[k].next;
    }
    return n;
}

static bool check_room(const rc_world *world, const void *out, int32_t capacity, const char *func) {
    if (capacity < 0 || (out == NULL && capacity > 0)) {
        rc_fail(world, func, "the array is NULL with capacity %d, or capacity is negative", (int)capacity);
        return false;
    }
    return true;
}

/* A shape's contacts (a chain: each of its segments'). */
static int32_t shape_contacts(const rc_world *world, rc_shape_id id, rc_shape_id *ids, rc_contact_data *data,
                              int32_t capacity, const char *func) {
    const rc_shape *s = rc_get_shape(world, id, func);
    if (s == NULL) {
        return -1;
    }
    if (!check_room(world, ids != NULL ? (const void *)ids : (const void *)data, capacity, func)) {
        return -1;
    }
    int32_t self = (int32_t)id.index - 1, records = rc_setter_records(world, self);
    int32_t n = 0;
    for (int32_t r = s->kind == RC_KIND_CHAIN ? 1 : 0; r < records; ++r) {
        n = walk_shape(world, rc_setter_record(world, self, r), n, ids, data, capacity);
    }
    return n;
}

int32_t rc_shape_contacts(const rc_world *world, rc_shape_id id, rc_shape_id *ids, int32_t capacity) {
    return shape_contacts(world, id, ids, NULL, capacity, __func__);
}

int32_t rc_shape_contact_data(const rc_world *world, rc_shape_id id, rc_contact_data *data, int32_t capacity) {
    return shape_contacts(world, id, NULL, data, capacity, __func__);
}

int32_t rc_body_contact_data(const rc_world *world, rc_body_id id, rc_contact_data *data, int32_t capacity) {
    const rc_body *b = rc_get_body(world, id, __func__);
    if (b == NULL || !check_room(world, data, capacity, __func__)) {
        return -1;
    }
    int32_t n = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        n = walk_shape(world, s, n, NULL, data, capacity);
    }
    return n;
}

/* Does a contact with a dynamic body hold this one up against gravity: its normal m (from that
 * body towards this one) within 60 degrees of up, and the solver's last sub-step pushed on one
 * of its points (a crate on a crate on the floor; not a neighbour beside it, which a push moves
 * too, nor props drifting together)? */
static bool holds_up(const rc_world *world, const rc_contact *c, rc_vec2 m) {
    rc_vec2 g = world->def.gravity;
    float up = -rc_dot(m, g);
    if (!(up > 0.0f && up * up > 0.25f * rc_length_squared(g))) {
        return false;
    }
    for (int32_t i = 0; i < c->point_count; ++i) {
        if (c->points[i].normal_impulse > 0.0f) {
            return true;
        }
    }
    return false;
}

float rc_body_brace(const rc_world *world, int32_t body, rc_vec2 n, rc_vec2 *normal) {
    float brace = 0.0f;
    const rc_body *b = &world->bodies.data[body];
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        for (int32_t ci = world->contact_heads.data[s]; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            int32_t k = c->shape[0] == s ? 0 : 1;
            rc_vec2 m = k == 1 ? c->normal : rc_neg(c->normal);
            /* (a normal that is no unit vector, as a forged snapshot may hold, braces nothing) */
            bool unit = fabsf(rc_length_squared(m) - 1.0f) < 1e-3f;
            if (c->touching && !c->sensor && unit &&
                (world->bodies.data[c->body[1 - k]].type != RC_DYNAMIC || holds_up(world, c, m))) {
                float along = rc_minf(rc_dot(m, n), 1.0f);
                if (along > brace) {
                    brace = along;
                    *normal = m;
                }
            }
            ci = c->edge[k].next;
        }
    }
    return brace;
}
