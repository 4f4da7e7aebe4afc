/* Sleep: a body slower than the world's sleep speeds for its sleep time may sleep (every point
 * of it: its centre's speed plus its reach times its turn), but only
 * together with everything it touches, and what that touches (its island): a box resting on a
 * sleeping pile must not hang in the air when the pile falls asleep under it, nor a pile sleep
 * while something on it still moves. Islands are found when some body is sleepy, by union-find
 * over the touching contacts between awake dynamic bodies. */
#include "world/world_internal.h"

#include <math.h>

static int32_t find_root(rc_island_node *nodes, int32_t i) {
    while (nodes[i].parent != i) {
        nodes[i].parent = nodes[nodes[i].parent].parent; /* path halving */
        i = nodes[i].parent;
    }
    return i;
}

/* Is a body at rest: no point of it faster than the sleep speed, and turning no faster than
 * the sleep turn? Its points' fastest is its centre's speed and its reach (max_extent) times its
 * turn, as Box2D v3 has it: a plank 10 long turning at 0.04 rad/s moves its ends at 0.2 units/s,
 * which the turn alone let fall asleep. */
static bool at_rest(const rc_world_def *def, const rc_body *b) {
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
        if (!def->enable_sleep || !b->enable_sleep || !at_rest(def, b)) {
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

/* Bodies a and b touch (a contact or a joint): one island for two members; a body touching a
 * moving kinematic body is not at rest. */
static void join(rc_world *world, int32_t ia, int32_t ib) {
    rc_island_node *nodes = world->islands.data;
    uint8_t role_a = nodes[ia].role, role_b = nodes[ib].role;
    if (role_a == ISLAND_MOVER) {
        world->bodies.data[ib].sleep_time = 0.0f;
    } else if (role_b == ISLAND_MOVER) {
        world->bodies.data[ia].sleep_time = 0.0f;
    }
    if (role_a == ISLAND_MEMBER && role_b == ISLAND_MEMBER) {
        int32_t ra = find_root(nodes, ia), rb = find_root(nodes, ib);
        if (ra != rb) {
            nodes[ra < rb ? rb : ra].parent = ra < rb ? ra : rb;
        }
    }
}

/* Join the bodies of every touching solid contact (and every joint) into islands. Each body's
 * role is read once into its node: the contacts' walk then reads nodes, not bodies (a body
 * record is a cache miss, two per contact of a pyramid of 5,050 boxes). */
static void join_islands(rc_world *world) {
    rc_island_node *nodes = world->islands.data;
    /* every node, not only the undo list's: a body woken during the step after that list was
       made can be an island's root */
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        nodes[i].parent = i;
        nodes[i].rest_time = INFINITY;
        nodes[i].role = island_role(&world->bodies.data[i]);
    }
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        const rc_contact *c = &world->contacts.data[i];
        if (c->in_use && c->touching && !c->sensor) {
            join(world, c->body[0], c->body[1]);
        }
    }
    /* jointed bodies sleep together; one jointed to a moving kinematic body is not at rest */
    for (int32_t i = 0; i < world->joints.count; ++i) {
        const rc_joint *j = &world->joints.data[i];
        if (j->in_use && j->edge[0].body >= 0) {
            join(world, j->edge[0].body, j->edge[1].body);
        }
    }
}

void rc_update_sleep(rc_world *world, float dt) {
    if (!count_rest(world, dt)) {
        return;
    }
    join_islands(world);
    rc_island_node *nodes = world->islands.data;
    for (int32_t k = 0; k < world->undo.count; ++k) {
        int32_t i = world->undo.data[k].body;
        const rc_body *b = &world->bodies.data[i];
        if (b->type == RC_DYNAMIC && b->awake) {
            int32_t r = find_root(nodes, i);
            nodes[r].rest_time = rc_minf(nodes[r].rest_time, b->sleep_time);
        }
    }
    float sleep_time = world->def.sleep_time;
    for (int32_t k = 0; k < world->undo.count; ++k) {
        int32_t i = world->undo.data[k].body;
        rc_body *b = &world->bodies.data[i];
        if (b->type == RC_DYNAMIC && b->awake && nodes[find_root(nodes, i)].rest_time >= sleep_time) {
            b->awake = false;
            b->linear_velocity = rc_v2(0.0f, 0.0f);
            b->angular_velocity = 0.0f;
        }
    }
}

void rc_island_walk(rc_world *world, int32_t start, bool awake, rc_island_visit_fn *visit, void *context) {
    rc_island_node *nodes = world->islands.data;
    visit(world, start, context);
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
                int32_t other = c->body[1 - k];
                const rc_body *ob = &world->bodies.data[other];
                if (c->touching && !c->sensor && ob->type == RC_DYNAMIC && ob->awake != awake) {
                    visit(world, other, context); /* (now as asked: taken once) */
                    nodes[other].next = top;
                    top = other;
                }
                ci = c->edge[k].next;
            }
        }
        for (int32_t ji = b->first_joint; ji >= 0;) {
            const rc_joint *j = &world->joints.data[ji];
            int32_t k = j->edge[0].body == index ? 0 : 1;
            int32_t other = j->edge[1 - k].body;
            if (other >= 0 && world->bodies.data[other].type == RC_DYNAMIC && world->bodies.data[other].awake != awake) {
                visit(world, other, context);
                nodes[other].next = top;
                top = other;
            }
            ji = j->edge[k].next;
        }
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
