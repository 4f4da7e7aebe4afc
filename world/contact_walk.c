/* Walking the contacts of the awake bodies only: a bit per contact, set for every contact of
 * every awake body, walked in index order (see contact.h). */
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
        for (int32_t ci = world->contact_heads.data[s]; ci >= 0;) {
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
