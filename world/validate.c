/* Checking the world's links (Box2D's b2ValidateWorld, as a function that answers rather than
 * asserts): every live record names live records of the right kind, lists end and agree with
 * the records in them, and the id pools hand out exactly the live slots. A restore runs it on
 * what it read before the world takes it; tests run it on worlds they build. */
#include "world/snapshot.h" /* rc_level_index */
#include "world/world_internal.h"

#include <string.h>

/* Does the pool hand out exactly the live records (each below next, not given back, not
 * retired)? The free slots are marked in `seen` (a byte per record, zero on entry and on
 * return). */
static bool pool_matches(const rc_id_pool *pool, int32_t records, uint8_t *seen, bool (*live)(const rc_world *, int32_t),
                         const rc_world *w, const uint64_t *level, int32_t level_slots) {
    if (pool->next > records) {
        return false;
    }
    for (int32_t k = 0; k < pool->free_count; ++k) {
        int32_t slot = pool->free_slots[k];
        if (slot < 0 || slot >= pool->next || seen[slot] != 0) {
            memset(seen, 0, (size_t)records);
            return false; /* out of range, or given back twice */
        }
        seen[slot] = 1;
    }
    int32_t live_count = 0, handed_out = 0;
    for (int32_t i = 0; i < records; ++i) {
        bool is_live = (level != NULL && rc_level_bit(level, level_slots, i)) || live(w, i); /* (the level's: live) */
        live_count += is_live ? 1 : 0;
        handed_out += is_live && i < pool->next && seen[i] == 0 ? 1 : 0;
        seen[i] = 0; /* clean for the next pool */
    }
    return live_count == handed_out && handed_out == rc_id_pool_live(pool);
}

static bool body_live(const rc_world *w, int32_t i) { return w->bodies.data[i].in_use; }
static bool shape_live(const rc_world *w, int32_t i) { return w->shapes.data[i].in_use; }
static bool contact_live(const rc_world *w, int32_t i) { return w->contacts.data[i].in_use; }
static bool chain_live(const rc_world *w, int32_t i) { return w->chains.data[i].shape >= 0; }
static bool joint_live(const rc_world *w, int32_t i) { return w->joints.data[i].in_use; }

static bool live_shape(const rc_world *w, int32_t s) { return s >= 0 && s < w->shapes.count && w->shapes.data[s].in_use; }
static bool live_body(const rc_world *w, int32_t b) { return b >= 0 && b < w->bodies.count && w->bodies.data[b].in_use; }
static bool live_contact(const rc_world *w, int32_t c) {
    return c >= 0 && c < w->contacts.count && w->contacts.data[c].in_use;
}

/* A body's shape list: live shapes of that body (not a chain's record: its walls are listed),
 * ending within as many steps as there are shapes; its swept circle among them. Its length is
 * added to *listed. */
static bool body_links(const rc_world *w, int32_t i, int32_t *listed) {
    const rc_body *b = &w->bodies.data[i];
    if (b->generation != rc_world_generation(w, &w->body_ids, i)) {
        return false;
    }
    int32_t steps = 0;
    for (int32_t s = b->first_shape; s != -1; s = w->shapes.data[s].next_in_body) {
        const rc_shape *shape = live_shape(w, s) ? &w->shapes.data[s] : NULL;
        /* the copies the sweeps' filters read agree with the body; only its swept circle is marked */
        if (shape == NULL || shape->body != i || shape->kind == RC_KIND_CHAIN || ++steps > w->shapes.count ||
            shape->body_type != b->type ||
            shape->body_bullet != b->bullet || shape->swept != (s == b->swept_shape)) {
            return false;
        }
    }
    /* how the step moves it follows from its type, flags and shapes (a swept circle's motion
       with no circle to sweep read outside the shapes) */
    *listed += steps;
    int32_t swept;
    return (uint8_t)rc_body_motion_of(w, b, &swept) == b->motion && swept == b->swept_shape;
}

/* A shape's kind, public type and vertex count agree (polygons 3 to 8, capsules their 2 centres). */
static bool shape_form_valid(const rc_shape *s) {
    switch (s->kind) {
    case RC_SHAPE_POLYGON:
        return s->type == RC_SHAPE_TYPE_POLYGON && s->count >= 3 && s->count <= RC_MAX_POLYGON_VERTICES;
    case RC_SHAPE_CAPSULE:
        return s->type == RC_SHAPE_TYPE_CAPSULE && s->count == 2;
    case RC_SHAPE_CIRCLE:
        return s->type == RC_SHAPE_TYPE_CIRCLE;
    case RC_SHAPE_SEGMENT:
        return s->type == RC_SHAPE_TYPE_SEGMENT;
    case RC_KIND_CHAIN:
        return s->type == RC_SHAPE_TYPE_CHAIN;
    default:
        return false;
    }
}

/* A shape's contact list: live contacts of this shape, each linked back to the one before (a
 * list whose links disagree turns into a loop once a contact is unlinked); its length added to
 * *listed. */
static bool contact_list_links(const rc_world *w, int32_t i, int32_t *listed) {
    int32_t steps = 0;
    for (int32_t ci = w->contact_heads.data[i], before = -1; ci != -1;) {
        if (!live_contact(w, ci) || ++steps > w->contacts.count) {
            return false;
        }
        const rc_contact *c = &w->contacts.data[ci];
        int k = c->shape[0] == i ? 0 : (c->shape[1] == i ? 1 : -1);
        if (k < 0 || c->edge[k].prev != before) {
            return false;
        }
        before = ci;
        ci = c->edge[k].next;
    }
    *listed += steps;
    return true;
}

/* A shape's body, chain and contact list (its length added to *listed). */
static bool shape_links(const rc_world *w, int32_t i, int32_t *listed) {
    const rc_shape *s = &w->shapes.data[i];
    if (s->generation != rc_world_generation(w, &w->shape_ids, i) || !live_body(w, s->body) || !shape_form_valid(s)) {
        return false;
    }
    if (s->kind == RC_KIND_CHAIN || s->kind == RC_SHAPE_SEGMENT) {
        if (s->chain < 0 || s->chain >= w->chains.count) {
            return false;
        }
        const rc_chain *c = &w->chains.data[s->chain];
        if (c->shape < 0 || (s->kind == RC_KIND_CHAIN && c->shape != i)) {
            return false;
        }
        /* a wall is the chain's segment its index says (walls read the chain's points by it) */
        if (s->kind == RC_SHAPE_SEGMENT &&
            !(s->wall.index >= 0 && s->wall.index < c->segments && c->segment_shapes[s->wall.index] == i)) {
            return false;
        }
    }
    return contact_list_links(w, i, listed);
}

static bool contact_links(const rc_world *w, int32_t i) {
    const rc_contact *c = &w->contacts.data[i];
    for (int k = 0; k < 2; ++k) {
        if (!live_shape(w, c->shape[k]) || w->shapes.data[c->shape[k]].body != c->body[k] ||
            (c->edge[k].prev != -1 && !live_contact(w, c->edge[k].prev)) ||
            (c->edge[k].next != -1 && !live_contact(w, c->edge[k].next))) {
            return false;
        }
    }
    return c->shape[0] < c->shape[1] && w->shapes.data[c->shape[0]].kind != RC_KIND_CHAIN &&
           w->shapes.data[c->shape[1]].kind != RC_KIND_CHAIN;
}

static bool chain_links(const rc_world *w, int32_t i) {
    const rc_chain *c = &w->chains.data[i];
    /* an open chain has a segment fewer than points, a loop as many (at least 2 and 3 points) */
    if (!live_shape(w, c->shape) || w->shapes.data[c->shape].kind != RC_KIND_CHAIN ||
        w->shapes.data[c->shape].chain != i || c->points == NULL || c->count > c->capacity ||
        c->count < (c->loop ? 3 : 2) || c->segments != (c->loop ? c->count : c->count - 1)) {
        return false;
    }
    /* segment k is a wall of this chain, on the chain's body, that knows itself as wall k (so no
       wall is listed twice, and destroying the chain takes its walls out of the list they are in) */
    for (int32_t k = 0; k < c->segments; ++k) {
        int32_t s = c->segment_shapes[k];
        if (!live_shape(w, s) || w->shapes.data[s].kind != RC_SHAPE_SEGMENT || w->shapes.data[s].chain != i ||
            w->shapes.data[s].wall.index != k || w->shapes.data[s].body != w->shapes.data[c->shape].body) {
            return false;
        }
    }
    return true;
}

/* A joint: its generation, two different live bodies (a mouse joint: its body alone), and each
 * in its body's list of joints (the lists end within as many steps as there are joints). */
static bool joint_links(const rc_world *w, int32_t i) {
    const rc_joint *j = &w->joints.data[i];
    int32_t a = j->edge[0].body, b = j->edge[1].body;
    if (j->generation != rc_world_generation(w, &w->joint_ids, i) || j->type > RC_MOUSE_JOINT || !live_body(w, b) ||
        (j->type == RC_MOUSE_JOINT ? a != -1 : (!live_body(w, a) || a == b))) {
        return false;
    }
    for (int side = 0; side < 2; ++side) {
        int32_t body = j->edge[side].body, steps = 0;
        if (body < 0) {
            continue;
        }
        int32_t k = w->bodies.data[body].first_joint;
        while (k != i) {
            if (k < 0 || k >= w->joints.count || !w->joints.data[k].in_use || ++steps > w->joints.count) {
                return false;
            }
            const rc_joint *other = &w->joints.data[k];
            k = other->edge[other->edge[0].body == body ? 0 : 1].next;
        }
    }
    return true;
}

/* The level's records (lv's slots, taken as valid) have the generations the id pools give
 * their slots (after pool_matches: each slot below the pool's next). */
static bool level_generations_match(const rc_world *w, const rc_level_index *lv) {
    int32_t bodies = lv->last_body + 1, shapes = lv->last_shape + 1, k = 0;
    for (int32_t i = rc_level_next(lv->body_bits, lv->body_slots, 0, bodies, true); i < bodies;
         i = rc_level_next(lv->body_bits, lv->body_slots, i + 1, bodies, true)) {
        if (lv->body_generations[k++] != rc_world_generation(w, &w->body_ids, i)) {
            return false;
        }
    }
    k = 0;
    for (int32_t i = rc_level_next(lv->shape_bits, lv->shape_slots, 0, shapes, true); i < shapes;
         i = rc_level_next(lv->shape_bits, lv->shape_slots, i + 1, shapes, true)) {
        if (lv->shape_generations[k++] != rc_world_generation(w, &w->shape_ids, i)) {
            return false;
        }
    }
    return true;
}

bool rc_world_links_valid(const rc_world *w, uint8_t *seen) { return rc_world_links_valid_beside(w, seen, NULL); }

bool rc_world_links_valid_beside(const rc_world *w, uint8_t *seen, const struct rc_level_index *lv) {
    const uint64_t *level_bodies = lv != NULL ? lv->body_bits : NULL, *level_shapes = lv != NULL ? lv->shape_bits : NULL;
    if (w->contact_heads.count != w->shapes.count || w->contact_heads.capacity < w->shapes.count ||
        !pool_matches(&w->body_ids, w->bodies.count, seen, body_live, w, level_bodies, lv != NULL ? lv->body_slots : 0) ||
        !pool_matches(&w->shape_ids, w->shapes.count, seen, shape_live, w, level_shapes, lv != NULL ? lv->shape_slots : 0) ||
        !pool_matches(&w->chain_ids, w->chains.count, seen, chain_live, w, NULL, 0) ||
        !pool_matches(&w->contact_ids, w->contacts.count, seen, contact_live, w, NULL, 0) ||
        !pool_matches(&w->joint_ids, w->joints.count, seen, joint_live, w, NULL, 0) ||
        (lv != NULL && !level_generations_match(w, lv))) {
        return false;
    }
    /* every live shape but a chain's record in its body's list, once (a shape left out would
       outlive its body; one listed twice would loop its list); the level's are, and its bodies
       list only its shapes */
    int32_t in_lists = lv != NULL ? lv->listed : 0, listable = lv != NULL ? lv->listed : 0;
    int32_t bodies = w->bodies.count;
    for (int32_t i = rc_level_next_other_body(lv, 0, bodies); i < bodies; i = rc_level_next_other_body(lv, i + 1, bodies)) {
        if (w->bodies.data[i].in_use && !body_links(w, i, &in_lists)) {
            return false;
        }
    }
    int32_t listed = 0; /* contacts met in the shapes' lists: each live one twice */
    for (int32_t i = 0; i < w->shapes.count; ++i) { /* (one pass over the shapes for both) */
        if (rc_level_index_shape(lv, i)) {
            if (!contact_list_links(w, i, &listed)) { /* (the frame's part of a level shape) */
                return false;
            }
        } else if (w->shapes.data[i].in_use) {
            listable += w->shapes.data[i].kind != RC_KIND_CHAIN;
            if (!shape_links(w, i, &listed)) {
                return false;
            }
        }
    }
    if (in_lists != listable || listed != 2 * rc_id_pool_live(&w->contact_ids)) {
        return false;
    }
    for (int32_t i = 0; i < w->contacts.count; ++i) {
        if (w->contacts.data[i].in_use && !contact_links(w, i)) {
            return false;
        }
    }
    for (int32_t i = 0; i < w->chains.count; ++i) {
        if (w->chains.data[i].shape >= 0 && !chain_links(w, i)) {
            return false;
        }
    }
    for (int32_t i = 0; i < w->joints.count; ++i) {
        if (w->joints.data[i].in_use && !joint_links(w, i)) {
            return false;
        }
    }
    return true;
}

bool rc_world_level_counts_valid(const rc_world *w) {
    for (int32_t i = 0; i < w->bodies.count; ++i) {
        const rc_body *b = &w->bodies.data[i];
        if (!b->in_use) {
            continue;
        }
        int32_t n = 0, kinematic = 0;
        for (int32_t s = b->first_shape; s >= 0; s = w->shapes.data[s].next_in_body) {
            for (int32_t ci = w->contact_heads.data[s]; ci >= 0;) {
                const rc_contact *c = &w->contacts.data[ci];
                int side = c->shape[0] == s ? 0 : 1;
                uint8_t other = w->bodies.data[c->body[1 - side]].type;
                n += b->type == RC_DYNAMIC && other != RC_DYNAMIC;
                kinematic += b->type == RC_DYNAMIC && other == RC_KINEMATIC;
                ci = c->edge[side].next;
            }
        }
        /* (a count that reached the top stays there) */
        if ((b->level_contacts != UINT8_MAX && n != (int32_t)b->level_contacts) ||
            (b->kinematic_contacts != UINT8_MAX && kinematic != (int32_t)b->kinematic_contacts)) {
            return false;
        }
    }
    return true;
}
