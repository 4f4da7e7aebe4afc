/* Walking the contacts of the awake bodies only: a bit per contact, set for every contact of
 * every awake body, walked in index order; and the narrow phase handed ahead to the task
 * system's workers (see contact.h). */
#include "world/world_internal.h"

#include <string.h>

static int32_t mark_words(const rc_world *world) { return (world->contacts.count + 63) >> 6; }

bool rc_contact_marks_reserve(rc_world *world) {
    int32_t words = mark_words(world);
    if (!rc_array_reserve(world, world->contact_marks, words + 1)) {
        return false;
    }
    rc_contact_marks_clear(world);
    return true;
}

void rc_contact_marks_clear(rc_world *world) {
    memset(world->contact_marks.data, 0, sizeof(uint64_t) * (size_t)mark_words(world));
}

bool rc_contacts_few_awake(const rc_world *world, int32_t awake_bodies) {
    /* a body's contacts are reached through its shapes' lists (a cache miss each), against a
       pass over every contact in memory order: worth it while most bodies sleep */
    return 4 * (int64_t)awake_bodies < (int64_t)world->bodies.count;
}

void rc_mark_body_contacts(rc_world *world, int32_t body) {
    uint64_t *marks = world->contact_marks.data;
    for (int32_t s = world->bodies.data[body].first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        for (int32_t ci = world->shapes.data[s].first_contact; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            marks[ci >> 6] |= 1ull << (ci & 63);
            ci = c->edge[c->shape[0] == s ? 0 : 1].next;
        }
    }
}

int32_t rc_next_marked_contact(const rc_world *world, int32_t *next) {
    const uint64_t *marks = world->contact_marks.data;
    int32_t words = mark_words(world);
    for (int32_t w = *next >> 6; w < words; ++w) {
        /* the word read again at each call: bits marked since, ahead of *next, are met */
        uint64_t bits = marks[w];
        if (w == *next >> 6) {
            bits &= ~0ull << (*next & 63);
        }
        if (bits != 0) {
            int32_t i = (w << 6) + __builtin_ctzll(bits);
            *next = i + 1;
            return i;
        }
    }
    *next = words << 6;
    return -1;
}

/* ---- the narrow phase on the task system ---------------------------------------------------- */

bool rc_contact_pair_over(const rc_world *world, const rc_contact *c, bool recheck) {
    const rc_shape *a = &world->shapes.data[c->shape[0]], *b = &world->shapes.data[c->shape[1]];
    return !rc_aabb_overlaps(rc_grid_get_box(world->grid, a->proxy), rc_grid_get_box(world->grid, b->proxy)) ||
           (recheck && !rc_shapes_should_pair(world, a, b));
}

/* Can nothing on this side be woken: awake, or not dynamic? */
static bool wakes_nothing(const rc_body *b) { return b->awake || b->type != RC_DYNAMIC; }

/* The narrow phase of the listed contacts, each alone (a worker's range). */
static void narrow_range(int32_t start, int32_t end, uint32_t worker, void *context) {
    (void)worker;
    rc_world *world = context;
    for (int32_t k = start; k < end; ++k) {
        int32_t i = world->narrow_list.data[k];
        rc_contact *c = &world->contacts.data[i];
        bool recheck = c->flagged;
        if (rc_contact_pair_over(world, c, recheck)) {
            world->narrow.data[i] = RC_NARROW_APART;
            continue;
        }
        bool touching = rc_contact_collide(world, i, !recheck);
        if (touching == c->touching && wakes_nothing(&world->bodies.data[c->body[0]]) &&
            wakes_nothing(&world->bodies.data[c->body[1]])) {
            c->flagged = false;
            world->narrow.data[i] = RC_NARROW_DONE;
        } else {
            world->narrow.data[i] = touching ? RC_NARROW_TOUCHING : RC_NARROW_CLEAR;
        }
    }
}

void rc_narrow_ahead(rc_world *world, bool marked) {
    int32_t n = 0, next = 0;
    const uint8_t *active = world->body_active.data;
    for (int32_t i = marked ? rc_next_marked_contact(world, &next) : 0; i >= 0 && i < world->contacts.count;
         i = marked ? rc_next_marked_contact(world, &next) : i + 1) {
        const rc_contact *c = &world->contacts.data[i];
        if (c->in_use && (active[c->body[0]] || active[c->body[1]])) {
            world->narrow_list.data[n++] = i;
        }
    }
    rc_run_task(world, narrow_range, n, RC_CONTACTS_PER_TASK, world);
}
