/* Sleep: a body slower than the world's sleep speeds for its sleep time may sleep (every point
 * of it: its centre's speed plus its reach times its turn), but only
 * together with everything it touches, and what that touches (its island): a box resting on a
 * sleeping pile must not hang in the air when the pile falls asleep under it, nor a pile sleep
 * while something on it still moves. When some body is sleepy, its island is walked from it over
 * the touching solid contacts and the joints between awake dynamic bodies: each body is reached
 * by one walk a step at most, and a walk stops at the first body not at rest (a pile where a few
 * bodies still move: a union-find over every contact of the world at every step was 2.5% of the
 * rain's and 3% of the large pyramid's instructions). A walk that stops at a body not at rest
 * leaves that body (its blocker) with every body it reached: until something splits an island
 * (rc_islands_split), the blocker is still in their island, so while it has not rested their
 * island is not walked again (a settling pile that a few bodies keep awake was walked at every
 * step, out of cache: 5-12% of the grenade pit's time). The same islands sleep. */
#include "world/world_internal.h"

#include <math.h>

/* Is a body at rest: no point of it faster than the sleep speed, and turning no faster than
 * the sleep turn? Its points' fastest is its centre's speed and its reach (max_extent) times its
 * turn, as Box2D v3 has it: a plank 10 long turning at 0.04 rad/s moves its ends at 0.2 units/s,
 * which the turn alone let fall asleep. */
bool rc_body_at_rest(const rc_world_def *def, const rc_body *b) {
    float turn = fabsf(b->angular_velocity);
    return rc_length(b->linear_velocity) + b->max_extent * turn <= def->sleep_linear_speed &&
           turn <= def->sleep_angular_speed;
}

/* Each awake dynamic body's time at rest; true when some body has rested long enough. */
static bool count_rest(rc_world *world, float dt) {
    const rc_world_def *def = &world->def;
    bool any_sleepy = false;
    for (int32_t k = 0; k < world->undo.count; ++k) {
        rc_body *b = &world->bodies.data[world->undo.data[k].body];
        if (b->type != RC_DYNAMIC || !b->awake) {
            continue;
        }
        if (!def->enable_sleep || !b->enable_sleep || !rc_body_at_rest(def, b)) {
            b->sleep_time = 0.0f;
            continue;
        }
        b->sleep_time += dt;
        any_sleepy = any_sleepy || b->sleep_time >= def->sleep_time;
    }
    return any_sleepy;
}

/* What a body is to the islands: a member (dynamic and awake), a moving kinematic body (what
 * touches it is not at rest), or neither. */
enum { ISLAND_NONE, ISLAND_MEMBER, ISLAND_MOVER };

static uint8_t island_role(const rc_body *b) {
    if (b->type == RC_DYNAMIC && b->awake) {
        return ISLAND_MEMBER;
    }
    return rc_body_moving_kinematic(b) ? ISLAND_MOVER : ISLAND_NONE;
}

/* A pair of bodies that touch (a contact or a joint) with a moving kinematic body: the other is
 * not at rest (the first's partner when both move). */
static void reset_beside_mover(rc_world *world, int32_t ia, int32_t ib) {
    if (island_role(&world->bodies.data[ia]) == ISLAND_MOVER) {
        world->bodies.data[ib].sleep_time = 0.0f;
    } else if (island_role(&world->bodies.data[ib]) == ISLAND_MOVER) {
        world->bodies.data[ia].sleep_time = 0.0f;
    }
}

/* Every body touching a moving kinematic body (a touching solid contact, or a joint) is not at
 * rest; each node's walk cleared, and whether it is in the step's undo list (awake at its start:
 * only those count towards an island's rest and fall asleep with it). */
static void prepare_walks(rc_world *world) {
    rc_island_node *nodes = world->islands.data;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        nodes[i].walk = 0;
        nodes[i].in_undo = false;
    }
    /* (the step's start counted the kinematic bodies: with none, no body record is read here) */
    for (int32_t i = 0; i < world->bodies.count && world->kinematic_bodies > 0; ++i) {
        const rc_body *b = &world->bodies.data[i];
        if (!b->in_use || !rc_body_moving_kinematic(b)) {
            continue;
        }
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            for (int32_t ci = world->contact_heads.data[s]; ci >= 0;) {
                const rc_contact *c = &world->contacts.data[ci];
                if (c->touching && !c->sensor) {
                    reset_beside_mover(world, c->body[0], c->body[1]);
                }
                ci = c->edge[c->shape[0] == s ? 0 : 1].next;
            }
        }
    }
    for (int32_t i = 0; i < world->joints.count && world->kinematic_bodies > 0; ++i) {
        const rc_joint *j = &world->joints.data[i];
        if (j->in_use && j->edge[0].body >= 0) {
            reset_beside_mover(world, j->edge[0].body, j->edge[1].body);
        }
    }
    for (int32_t k = 0; k < world->undo.count; ++k) {
        nodes[world->undo.data[k].body].in_undo = true;
    }
}

/* What a walk does with a body touching the one it is at: false to stop the walk. */
typedef bool touch_fn(rc_world *world, int32_t other, void *context);

/* Offer fn each body that body `index` touches through a touching solid contact or a joint (a
 * joint to no body left out), its contacts first, until fn says stop: false then. The islands'
 * walks share it: the sleep's (island_rests) and the waking's (rc_island_walk). */
static inline bool each_touching(rc_world *world, int32_t index, touch_fn *fn, void *context) {
    const rc_body *b = &world->bodies.data[index];
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        for (int32_t ci = world->contact_heads.data[s]; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            int32_t k = c->shape[0] == s ? 0 : 1;
            if (c->touching && !c->sensor && !fn(world, c->body[1 - k], context)) {
                return false;
            }
            ci = c->edge[k].next;
        }
    }
    for (int32_t ji = b->first_joint; ji >= 0;) {
        const rc_joint *j = &world->joints.data[ji];
        int32_t k = j->edge[0].body == index ? 0 : 1;
        int32_t other = j->edge[1 - k].body;
        if (other >= 0 && !fn(world, other, context)) {
            return false;
        }
        ji = j->edge[k].next;
    }
    return true;
}

/* A walk reaching a body: on the walk's stack (next) and its list (listed); where it stopped,
 * the body not at rest that stopped it (its blocker, -1 when not known). */
typedef struct island_walk {
    int32_t id, top, list, blocker;
} island_walk;

/* Has a body counted towards its island's rest (in the step's undo list: awake at its start)
 * rested for less than the sleep time? Its island stays awake. */
static inline bool keeps_awake(const rc_world *world, int32_t i) {
    return world->islands.data[i].in_undo && !(world->bodies.data[i].sleep_time >= world->def.sleep_time);
}

/* Reach a member (a body touching one the walk is at, dynamic and awake): false when an earlier
 * walk reached it (its island stays awake: that walk stopped at a body not at rest, or met
 * another that did), or when it has not rested long enough. (Asked where the walk reaches it,
 * not where it takes it off the stack: a walk in a settling pile stopped at the first of the
 * pile's moving bodies it met, not after going deep into the rested part from the others met
 * with it: the same islands sleep.) */
static bool reach_member(rc_world *world, int32_t i, void *context) {
    if (island_role(&world->bodies.data[i]) != ISLAND_MEMBER) {
        return true;
    }
    rc_island_node *nodes = world->islands.data;
    island_walk *w = context;
    if (nodes[i].walk != 0) {
        if (nodes[i].walk == w->id) {
            return true;
        }
        /* an earlier walk's: it stopped (its blocker is this one's), or its island fell asleep
           and split the islands (none known) */
        w->blocker = nodes[i].blocker_epoch == world->island_epoch ? nodes[i].blocker : -1;
        return false;
    }
    nodes[i].walk = w->id; /* (reached: a later walk that meets it stops there too) */
    if (keeps_awake(world, i)) {
        w->blocker = i;
        nodes[i].blocker = i;
        nodes[i].blocker_epoch = world->island_epoch;
        return false;
    }
    nodes[i].next = w->top;
    w->top = i;
    nodes[i].listed = w->list;
    w->list = i;
    return true;
}

/* The island of a sleepy body, walked over the touching solid contacts and the joints between
 * awake dynamic bodies: true when every body of it in the undo list has rested the sleep time.
 * The walk stops at the first that has not, and at a body an earlier walk reached. */
static bool island_rests(rc_world *world, island_walk *w, int32_t start) {
    rc_island_node *nodes = world->islands.data;
    if (!reach_member(world, start, w)) {
        return false;
    }
    while (w->top >= 0) {
        int32_t index = w->top;
        w->top = nodes[index].next;
        if (!each_touching(world, index, reach_member, w)) {
            return false;
        }
    }
    return true;
}

/* Is a sleepy body's island known not to rest: a blocker remembered for it since the last split
 * that is still a member and has still not rested? */
static bool blocked(const rc_world *world, int32_t i) {
    const rc_island_node *n = &world->islands.data[i];
    int32_t y = n->blocker;
    return y >= 0 && n->blocker_epoch == world->island_epoch && y < world->bodies.count &&
           island_role(&world->bodies.data[y]) == ISLAND_MEMBER && keeps_awake(world, y);
}

void rc_islands_forget(rc_world *world) {
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        rc_island_node_init(world, i);
    }
}

/* A walk stopped: each body it reached remembers what stopped it. */
static void remember_blocker(rc_world *world, const island_walk *w) {
    rc_island_node *nodes = world->islands.data;
    for (int32_t j = w->list; j >= 0; j = nodes[j].listed) {
        nodes[j].blocker = w->blocker;
        nodes[j].blocker_epoch = world->island_epoch;
    }
}

void rc_update_sleep(rc_world *world, float dt) {
    if (!count_rest(world, dt)) {
        return;
    }
    prepare_walks(world);
    rc_island_node *nodes = world->islands.data;
    float sleep_time = world->def.sleep_time;
    island_walk w = {0, -1, -1, -1};
    for (int32_t k = 0; k < world->undo.count; ++k) {
        int32_t i = world->undo.data[k].body;
        const rc_body *b = &world->bodies.data[i];
        if (b->type != RC_DYNAMIC || !b->awake || !(b->sleep_time >= sleep_time) || nodes[i].walk != 0 ||
            blocked(world, i)) {
            continue;
        }
        w.id++;
        world->sleep_walks++;
        w.top = -1;
        w.list = -1;
        w.blocker = -1;
        if (!island_rests(world, &w, i)) {
            remember_blocker(world, &w);
            continue;
        }
        rc_islands_split(world); /* (its bodies left the awake ones) */
        for (int32_t j = w.list; j >= 0; j = nodes[j].listed) {
            rc_body *m = &world->bodies.data[j];
            if (nodes[j].in_undo) {
                m->awake = false;
                m->linear_velocity = rc_v2(0.0f, 0.0f);
                m->angular_velocity = 0.0f;
            }
        }
    }
}

/* rc_island_walk's step: a dynamic body not yet as asked visited (now as asked: taken once) and
 * pushed on the walk's stack. */
typedef struct wake_walk {
    bool awake;
    int32_t top;
    rc_island_visit_fn *visit;
    void *context;
} wake_walk;

static bool take_body(rc_world *world, int32_t other, void *context) {
    wake_walk *w = context;
    const rc_body *ob = &world->bodies.data[other];
    if (ob->type == RC_DYNAMIC && ob->awake != w->awake) {
        w->visit(world, other, w->context);
        world->islands.data[other].next = w->top;
        w->top = other;
    }
    return true;
}

void rc_island_walk(rc_world *world, int32_t start, bool awake, rc_island_visit_fn *visit, void *context) {
    rc_island_node *nodes = world->islands.data;
    visit(world, start, context);
    wake_walk w = {awake, start, visit, context};
    nodes[start].next = -1;
    while (w.top >= 0) {
        int32_t index = w.top;
        w.top = nodes[index].next;
        (void)each_touching(world, index, take_body, &w);
    }
}

/* rc_island_set_awake's visits: a body woken, or put to sleep (no velocity, its time at rest
 * starting again). */
static void wake_visit(rc_world *world, int32_t body, void *context) {
    (void)context;
    rc_body_wake(&world->bodies.data[body]);
}

static void sleep_visit(rc_world *world, int32_t body, void *context) {
    (void)context;
    rc_islands_split(world);
    rc_body *b = &world->bodies.data[body];
    b->awake = false;
    b->sleep_time = 0.0f;
    b->linear_velocity = rc_v2(0.0f, 0.0f);
    b->angular_velocity = 0.0f;
}

bool rc_island_set_awake(rc_world *world, int32_t body, bool awake) {
    rc_body *b = &world->bodies.data[body];
    if (b->type != RC_DYNAMIC) {
        if (awake) {
            rc_body_wake(b);
        }
        return true;
    }
    if (!rc_array_reserve(world, world->islands, world->bodies.count)) {
        return false;
    }
    rc_island_walk(world, body, awake, awake ? wake_visit : sleep_visit, NULL);
    return true;
}

void rc_island_wake_touching(rc_world *world, const rc_body *b, int32_t only_shape) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        if (only_shape >= 0 && s != only_shape) {
            continue;
        }
        for (int32_t ci = world->contact_heads.data[s]; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            int side = c->shape[0] == s ? 0 : 1;
            const rc_body *other = &world->bodies.data[c->body[1 - side]];
            if (c->touching && !c->sensor && other->type == RC_DYNAMIC && !other->awake) {
                (void)rc_island_set_awake(world, c->body[1 - side], true); /* room reserved */
            }
            ci = c->edge[side].next;
        }
    }
}

void rc_island_wake_changed(rc_world *world, rc_body *b, int32_t only_shape) {
    if (!b->awake) {
        (void)rc_island_set_awake(world, (int32_t)(b - world->bodies.data), true); /* room reserved */
    }
    rc_island_wake_touching(world, b, only_shape);
}
