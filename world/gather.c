/* Contacts to constraints: the contacts with points between bodies that respond, at least one
 * of them moving in the solver, in an order that depends on the bodies and shapes alone. */
#include "world/world_internal.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* Keep a shape in a solver body's list of at most cap (the first by shape index: its
 * constraints come in that order): the supports of a swept body (shapes its constraints hold it
 * on), and the pairs the pre-solve cancelled, for its sweep to pass through too. */
static void add_to_slot(int32_t *counts, int32_t *shapes, int32_t cap, int32_t slot, int32_t shape) {
    int32_t *n = &counts[slot];
    if (*n < cap) {
        shapes[(size_t)slot * (size_t)cap + (size_t)(*n)++] = shape;
    }
}

static void add_support(rc_world *world, int32_t slot, int32_t shape) {
    add_to_slot(world->support_counts.data, world->support_shapes.data, RC_MAX_SUPPORTS, slot, shape);
}

static void add_cancelled(rc_world *world, int32_t slot, int32_t shape) {
    add_to_slot(world->cancelled_counts.data, world->cancelled_shapes.data, RC_MAX_SKIPPED, slot, shape);
}

/* How fast a contact's normal turns within the step: a turning kinematic body's angular velocity
 * where the normal is the outward normal of one of its shape's faces (a blade's side, not its
 * corner against a crate's face; a circle's normal turns with none), else 0. The separations
 * are then measured from that face as it turns (contact_solver.c: turn_normals): held over the
 * step, a blade at 10 rad/s turned its face 0.17 rad under crates sliding out along it, and
 * they sank up to 0.12 into it. */
static float normal_turn(const rc_world *world, const rc_contact *c, int32_t *turning_side) {
    for (int side = 0; side < 2; ++side) {
        const rc_body *k = &world->bodies.data[c->body[side]];
        const rc_body *other = &world->bodies.data[c->body[1 - side]];
        /* (a face turning by less than a hundredth of a radian over the step is held: what a
           prop sliding along it by half a unit sinks is then under a slop) */
        if (k->type != RC_KINEMATIC || !(fabsf(k->angular_velocity) * world->contact_dt >= 0.01f) ||
            other->type != RC_DYNAMIC) {
            continue;
        }
        rc_hull room;
        rc_hull_view h = rc_shape_hull_view(world, &world->shapes.data[c->shape[side]], &room);
        rc_vec2 outward = rc_inv_rotate(k->xf.q, side == 0 ? c->normal : rc_neg(c->normal));
        for (int i = 0; h.count >= 2 && i < h.count; ++i) {
            if (rc_dot(h.normals[i], outward) > 0.99995f) { /* (within 0.6 degrees) */
                *turning_side = side;
                return k->angular_velocity;
            }
        }
    }
    return 0.0f;
}

/* The constraints whose normals turn (normal_turn), in their order: looked for only where there
 * are kinematic bodies (a pile of crates pays nothing for it). */
static void find_turning(rc_world *world) {
    for (int32_t i = 0; i < world->constraints.count; ++i) {
        const rc_contact_constraint *k = &world->constraints.data[i];
        if (k->contact < 0 || (k->inv_mass_a > 0.0f && k->inv_mass_b > 0.0f)) {
            continue; /* (two dynamic bodies) */
        }
        const rc_contact *c = &world->contacts.data[k->contact];
        int32_t side = 0;
        float turn = normal_turn(world, c, &side);
        if (turn != 0.0f) {
            rc_turning_constraint t = {i, side, turn, rc_sub(k->points[0].anchor_a, k->points[0].anchor_b)};
            world->turning.data[world->turning.count++] = t; /* (room: one per contact) */
        }
    }
}

/* A constraint from a contact (its points within the margin) between the bodies it names,
 * unless the pre-solve callback cancels it. */
static void add_constraint(rc_world *world, int32_t contact) {
    const rc_contact *c = &world->contacts.data[contact];
    const rc_shape *sa = &world->shapes.data[c->shape[0]], *sb = &world->shapes.data[c->shape[1]];
    const rc_body *ba = &world->bodies.data[c->body[0]], *bb = &world->bodies.data[c->body[1]];
    rc_contact_constraint *k = &world->constraints.data[world->constraints.count++];
    k->a = ba->solver_slot;
    k->b = bb->solver_slot;
    k->inv_mass_a = ba->type == RC_DYNAMIC ? ba->inv_mass : 0.0f;
    k->inv_inertia_a = ba->type == RC_DYNAMIC ? ba->inv_inertia : 0.0f;
    k->inv_mass_b = bb->type == RC_DYNAMIC ? bb->inv_mass : 0.0f;
    k->inv_inertia_b = bb->type == RC_DYNAMIC ? bb->inv_inertia : 0.0f;
    rc_constraint_materials(world, k, sa, sb, &c->points[0]);
    if ((sa->swept && (sb->absorbs || !rc_body_can_bounce(ba))) || (sb->swept && (sa->absorbs || !rc_body_can_bounce(bb)))) {
        k->restitution = 0.0f; /* its bounces are used up, or the other absorbs it: the contact stops it */
    }
    if (world->pre_solve_fn != NULL &&
        !rc_pre_solve_constraint(world, k, c->shape[0], c->shape[1], c->points, c->point_count, c->normal, NULL)) {
        world->constraints.count--;
        if (ba->solver_slot >= 0 && sa->swept) {
            add_cancelled(world, ba->solver_slot, c->shape[1]);
        }
        if (bb->solver_slot >= 0 && sb->swept) {
            add_cancelled(world, bb->solver_slot, c->shape[0]);
        }
        return;
    }
    rc_constraint_load(k, c->normal, c->points, c->point_count, c->rolling_impulse);
    k->contact = contact;
    k->touched = c->touching || c->placed;
    world->contact_constraint.data[contact] = world->constraints.count - 1;
    world->contact_constraint_set++;
    world->swept_constraints += k->swept_a || k->swept_b ? 1 : 0;
    k->rank = rc_constraint_rank(c->shape[0], k->inv_mass_a > 0.0f, c->shape[1], k->inv_mass_b > 0.0f);
    if (ba->solver_slot >= 0 && sa->swept) {
        add_support(world, ba->solver_slot, c->shape[1]);
    }
    if (bb->solver_slot >= 0 && sb->swept) {
        add_support(world, bb->solver_slot, c->shape[0]);
    }
}

/* The solver body a contact's constraint comes with: the one of the two that moves in the
 * solver (dynamic), or the first in the solver's order when both are solver bodies; -1 when the
 * contact is not solved this step (no points, a sensor, a side that does not respond, nothing
 * moving). side: which of the contact's shapes is that body's. */
static inline __attribute__((always_inline)) int32_t owner_of(const rc_world *world, const rc_contact *c,
                                                              int32_t *side) {
    const rc_body *ba = &world->bodies.data[c->body[0]];
    const rc_body *bb = &world->bodies.data[c->body[1]];
    if (!ba->enable_response || !bb->enable_response) {
        return -1;
    }
    bool a_moves = ba->solver_slot >= 0 && ba->type == RC_DYNAMIC, b_moves = bb->solver_slot >= 0 && bb->type == RC_DYNAMIC;
    if (!a_moves && !b_moves) {
        return -1;
    }
    bool a_first = bb->solver_slot < 0 || (ba->solver_slot >= 0 && ba->solver_slot < bb->solver_slot);
    *side = a_first ? 0 : 1;
    return a_first ? ba->solver_slot : bb->solver_slot;
}

/* Contact i's entry among the found ones (at n) if its constraint comes with a solver body;
 * returns the new count. (Inline: it runs for every contact of the step, and as a call it
 * cost the quick bench scenes 0.6 to 0.7% of their instructions.) */
static inline int32_t consider(const rc_world *world, int32_t i, rc_gather_entry *found, int32_t n,
                               int32_t *starts) {
    const rc_contact *c = &world->contacts.data[i];
    int32_t side;
    if (!c->in_use || c->point_count == 0 || c->sensor ||
        (world->body_slots.data[c->body[0]] < 0 && world->body_slots.data[c->body[1]] < 0)) {
        return n; /* (neither body in the solver: the first look needs no body record) */
    }
    int32_t slot = owner_of(world, c, &side);
    if (slot >= 0) {
        uint64_t key = (uint64_t)(uint32_t)c->shape[side] << 32 | (uint32_t)c->shape[1 - side];
        rc_gather_entry e = {key, i, slot};
        found[n++] = e;
        starts[slot + 1]++;
    }
    return n;
}

#define GATHER_AHEAD 8

static inline void prefetch_entry(const rc_world *world, const rc_gather_entry *e) {
    const rc_contact *c = &world->contacts.data[e->contact];
    /* its first three lines: the walks' line, the first point, the second point's rest (its
       manifold, in the fourth, is not read) */
    RC_PREFETCH(c);
    RC_PREFETCH((const char *)c + 64);
    RC_PREFETCH((const char *)c + 128);
    RC_PREFETCH(&world->shapes.data[(int32_t)(e->key >> 32)]);
    RC_PREFETCH(&world->shapes.data[(int32_t)(uint32_t)e->key]);
}

/* Is entry a before entry b in the sorted list: by body (slot), then by shapes (key)? */
static inline bool entry_before(const rc_gather_entry *a, const rc_gather_entry *b) {
    return a->slot < b->slot || (a->slot == b->slot && a->key < b->key);
}

static void swap_entries(rc_gather_entry *e, int32_t i, int32_t j) {
    rc_gather_entry t = e[i];
    e[i] = e[j];
    e[j] = t;
}

static void sift_down(rc_gather_entry *e, int32_t root, int32_t end) {
    for (int32_t child; (child = 2 * root + 1) < end; root = child) {
        child += child + 1 < end && entry_before(&e[child], &e[child + 1]) ? 1 : 0;
        if (!entry_before(&e[root], &e[child])) {
            return;
        }
        swap_entries(e, root, child);
    }
}

/* Sort distinct entries into the list's order (entry_before): by insertion when there are few
 * (a body's constraints are a handful), by heap otherwise (a platform carrying a crowd, or the
 * contacts that changed in a step, mend_sorted). */
static void sort_entries(rc_gather_entry *e, int32_t n) {
    if (n <= 24) {
        for (int32_t i = 1; i < n; ++i) {
            rc_gather_entry x = e[i];
            int32_t j = i;
            for (; j > 0 && entry_before(&x, &e[j - 1]); --j) {
                e[j] = e[j - 1];
            }
            e[j] = x;
        }
        return;
    }
    for (int32_t i = n / 2 - 1; i >= 0; --i) {
        sift_down(e, i, n);
    }
    for (int32_t end = n - 1; end > 0; --end) {
        swap_entries(e, 0, end);
        sift_down(e, 0, end);
    }
}

/* The contacts that may be constraints (points, no sensor, a solver body that moves), sorted:
 * their number (-1: out of memory); the sorted entries follow the found ones in
 * world->gather_entries. The contacts are read in their array's order (one pass over memory),
 * and sorted by their body first (counting) and then by their shapes. */
static int32_t find_sorted(rc_world *world, int32_t live, int32_t bodies) {
    rc_gather_entry *found = world->gather_entries.data, *sorted = found + live;
    int32_t *starts = world->gather_starts.data, n = 0;
    memset(starts, 0, sizeof(int32_t) * (size_t)(bodies + 1));
    if (rc_contacts_few_awake(world, bodies)) {
        /* most bodies sleep: the contacts of the solver's bodies, in the same order */
        if (!rc_contact_marks_reserve(world)) {
            return -1;
        }
        for (int32_t slot = 0; slot < bodies; ++slot) {
            rc_mark_body_contacts(world, world->solver_owner.data[slot]);
        }
        for (int32_t next = 0, i; (i = rc_next_marked_contact(world, &next)) >= 0;) {
            n = consider(world, i, found, n, starts);
        }
        rc_contact_marks_clear(world);
    } else {
        for (int32_t i = 0; i < world->contacts.count; ++i) {
            n = consider(world, i, found, n, starts);
        }
    }
    for (int32_t b = 0; b < bodies; ++b) {
        starts[b + 1] += starts[b];
    }
    for (int32_t k = 0; k < n; ++k) {
        sorted[starts[found[k].slot]++] = found[k];
    }
    /* each start has moved on to the next body's: body b's run ends at starts[b] */
    for (int32_t b = 0, begin = 0; b < bodies; begin = starts[b++]) {
        sort_entries(sorted + begin, starts[b] - begin);
    }
    return n;
}

/* Has the solver the same bodies in the same slots as at the last gathering? */
static bool same_solver_bodies(const rc_world *world, int32_t bodies) {
    return world->gathered_owners.count == bodies &&
           (bodies == 0 ||
            memcmp(world->gathered_owners.data, world->solver_owner.data, sizeof(int32_t) * (size_t)bodies) == 0);
}

/* Mend the last gathering's sorted list (at gathered_live in the entries) for the contacts
 * logged since (world->set_changes), when the solver has the same bodies in the same slots: its
 * entries of those contacts dropped, the entries they have now merged in, the list moved to
 * `live`. The same list as find_sorted's (Debug builds check it): an entry depends on its
 * contact (logged whenever it could change) and on the solver's bodies alone. Returns its
 * length, or -1 when it is not to be mended (too many changes, or a body changed: the caller
 * finds the list again). A tumbler's contact set changes every step, by a few pairs in a
 * hundred; looking at every contact for the few was 5 to 7% of its step. */
static int32_t mend_sorted(rc_world *world, int32_t live, int32_t bodies) {
    int32_t changes = world->set_changes.count;
    if (!world->gather_kept || world->set_changes_full || changes > live / 4 ||
        world->contact_set_revision - world->gathered_revision != (uint32_t)changes ||
        !same_solver_bodies(world, bodies) || !rc_contact_marks_reserve(world)) {
        return -1;
    }
    uint64_t *marks = world->contact_marks.data;
    for (int32_t k = 0; k < changes; ++k) {
        int32_t i = world->set_changes.data[k];
        marks[i >> 6] |= 1ull << (i & 63);
    }
    /* the kept entries of the unchanged contacts, in order, moved to where the list goes */
    rc_gather_entry *old = world->gather_entries.data + world->gathered_live;
    int32_t m = 0;
    for (int32_t k = 0; k < world->gathered_count; ++k) {
        int32_t i = old[k].contact;
        old[m] = old[k];
        m += (marks[i >> 6] >> (i & 63) & 1u) == 0u ? 1 : 0;
    }
    rc_gather_entry *sorted = world->gather_entries.data + live;
    memmove(sorted, old, sizeof(rc_gather_entry) * (size_t)m);
    /* then the changed contacts' entries now, in the found part before it (a contact logged
       twice, once: its mark goes as it is looked at) */
    rc_gather_entry *fresh = world->gather_entries.data;
    int32_t *starts = world->gather_starts.data, f = 0;
    for (int32_t k = 0; k < changes; ++k) {
        int32_t i = world->set_changes.data[k];
        uint64_t bit = 1ull << (i & 63);
        if ((marks[i >> 6] & bit) != 0u) {
            marks[i >> 6] &= ~bit;
            f = consider(world, i, fresh, f, starts);
        }
    }
    sort_entries(fresh, f);
    /* merged from the back (the fresh ones lie before `live`, the list from it on) */
    for (int32_t i = m - 1, j = f - 1, k = m + f - 1; j >= 0; --k) {
        if (i >= 0 && entry_before(&fresh[j], &sorted[i])) {
            sorted[k] = sorted[i--];
        } else {
            sorted[k] = fresh[j--];
        }
    }
    return m + f;
}

/* Does the last gathering's sorted list still hold: no contact made, ended, given or robbed of
 * its points, no body's type or response changed (the contact set's revision), and the solver
 * has the same bodies in the same slots? Then the same contacts would be found in the same
 * order (a pile or a pyramid at rest: most steps). */
static bool gather_holds(const rc_world *world, int32_t live, int32_t bodies) {
    return world->gather_kept && world->gathered_revision == world->contact_set_revision &&
           world->gathered_live == live && same_solver_bodies(world, bodies);
}

/* The log of changed contacts starts again (the list now found holds them), with room for a
 * quarter of the live contacts' changes: more are not worth mending (mend_sorted). A log that
 * cannot grow logs as far as it has room (then the next gathering looks at every contact). */
static void forget_set_changes(rc_world *world, int32_t live) {
    world->set_changes.count = 0;
    world->set_changes_full = false;
    (void)rc_array_reserve(world, world->set_changes, live / 4 + 64);
}

void rc_gather_forget(rc_world *world) {
    world->gather_kept = false;
    world->colors_kept = false;
    world->gather_entries.count = 0; /* (nothing in it to keep: see keep_entries) */
}

/* The entries' count covers the kept list (at gathered_live, gathered_count of them), so that a
 * later gathering that grows the array keeps it (a grown array keeps its count's worth). */
static void keep_entries(rc_world *world) {
    world->gather_entries.count = world->gathered_live + world->gathered_count;
}

#ifndef NDEBUG
/* Debug builds check that the kept list is what a gathering would find now: the entries have a
 * third part for the copy. */
#define GATHER_PARTS 3

static void check_kept(rc_world *world, int32_t live, int32_t bodies) {
    size_t bytes = sizeof(rc_gather_entry) * (size_t)world->gathered_count;
    rc_gather_entry *kept = world->gather_entries.data + 2 * (size_t)live;
    memcpy(kept, world->gather_entries.data + live, bytes);
    int32_t n = find_sorted(world, live, bodies);
    assert(n < 0 || (n == world->gathered_count && memcmp(kept, world->gather_entries.data + live, bytes) == 0));
    (void)n;
}
#else
#define GATHER_PARTS 2
#endif

/* The map from contacts to constraints (world->contact_constraint) without the last gathering's:
 * -1 again where it had set them. (Not the whole map: in a level of sleeping contacts, that was
 * every slot at every step.) Its constraints name slots of this world or of one a snapshot
 * replaced, within the map's count either way, or beyond it after a compaction. */
static void forget_constraint_map(rc_world *world) {
    if (world->contact_constraint_set == 0) {
#ifndef NDEBUG
        /* (Debug builds check the count: no entry of the last gathering's is left set) */
        for (int32_t i = 0; i < world->constraints.count; ++i) {
            int32_t contact = world->constraints.data[i].contact;
            assert(contact < 0 || contact >= world->contact_constraint.count ||
                   world->contact_constraint.data[contact] == -1);
        }
#endif
        return; /* the step's look at the contacts read them all (and reset them) */
    }
    world->contact_constraint_set = 0;
    for (int32_t i = 0; i < world->constraints.count; ++i) {
        int32_t contact = world->constraints.data[i].contact;
        if (contact >= 0 && contact < world->contact_constraint.count) {
            world->contact_constraint.data[contact] = -1;
        }
    }
}

/* The map over every contact slot, the new ones -1 (reserved by the caller). */
static void extend_constraint_map(rc_world *world) {
    for (int32_t i = world->contact_constraint.count; i < world->contacts.count; ++i) {
        world->contact_constraint.data[i] = -1;
    }
    if (world->contact_constraint.count < world->contacts.count) {
        world->contact_constraint.count = world->contacts.count;
    }
}

/* The constraints body by body in the solver's order (body index order), each body's by its
 * shape's index and then the other shape's: the same order whenever the same contacts touch,
 * and the order a preview meets a lone body's contacts in. A contact between two solver
 * bodies comes with the first of them. The sorted contacts are kept from one step to the next
 * while they hold (gather_holds); a swept body's strike and what the pre-solve callback cancels
 * are left out as the constraints are made. */
bool rc_gather_constraints(rc_world *world) {
    forget_constraint_map(world);
    world->constraints.count = 0;
    world->swept_constraints = 0;
    world->turning.count = 0;
    int32_t live = rc_id_pool_live(&world->contact_ids), bodies = world->solver_owner.count;
    if (!rc_array_reserve(world, world->constraints, live) || !rc_array_reserve(world, world->turning, live) ||
        !rc_array_reserve(world, world->constraint_order, live) ||
        !rc_array_reserve(world, world->contact_constraint, world->contacts.count) ||
        !rc_array_reserve(world, world->gather_entries, GATHER_PARTS * live) ||
        !rc_array_reserve(world, world->gather_starts, bodies + 1)) {
        return false;
    }
    extend_constraint_map(world);
    if (live == 0) {
        rc_gather_forget(world);
        return true; /* nothing to gather (and the entries may be NULL: no offsets from them) */
    }
    int32_t n;
    bool found = false;
    world->gather_mended = false;
    if (gather_holds(world, live, bodies)) {
        n = world->gathered_count;
    } else if ((n = mend_sorted(world, live, bodies)) >= 0) {
        /* the same bodies, some contacts changed: the colours are found again */
        world->gather_mended = true;
        world->colors_kept = false;
    } else {
        rc_gather_forget(world);
        n = find_sorted(world, live, bodies);
        if (n < 0 || !rc_array_reserve(world, world->gathered_owners, bodies)) {
            return false;
        }
        if (bodies > 0) {
            memcpy(world->gathered_owners.data, world->solver_owner.data, sizeof(int32_t) * (size_t)bodies);
        }
        world->gathered_owners.count = bodies;
        world->gather_kept = true;
        found = true;
    }
    /* the list kept, mended or found: the one the next gathering starts from */
    world->gathered_revision = world->contact_set_revision;
    world->gathered_live = live;
    world->gathered_count = n;
#ifndef NDEBUG
    if (!found) {
        check_kept(world, live, bodies);
    }
#else
    (void)found;
#endif
    keep_entries(world);
    forget_set_changes(world, live);
    const rc_gather_entry *sorted = world->gather_entries.data + live;
    /* a strike needs a swept body (and the look at both shapes costs two cache misses) */
    bool strikes = world->swept_count > 0;
    /* the contacts are all over memory in this order: on their way into the cache a few
       entries ahead (waiting for each was a quarter of the gathering) */
    for (int32_t k = 0; k < n; ++k) {
        if (k + GATHER_AHEAD < n) {
            prefetch_entry(world, &sorted[k + GATHER_AHEAD]);
        }
        int32_t contact = sorted[k].contact;
        const rc_contact *c = &world->contacts.data[contact];
        if (!strikes || !rc_contact_may_strike(world, c) || !rc_contact_is_swept_strike(world, c)) {
            add_constraint(world, contact); /* (or the pre-solve callback cancels it) */
        }
    }
    if (world->kinematic_bodies > 0) {
        find_turning(world);
    }
    return true;
}
