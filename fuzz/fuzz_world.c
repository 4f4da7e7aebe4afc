/* fuzz_world: the whole world API driven by a byte stream.
 *
 * The input is a world definition followed by operations (one selector byte each, then its
 * arguments): create and destroy bodies, shapes (circles, polygons, boxes, chains) and joints
 * (revolute, distance, prismatic, weld, mouse), the body, shape and joint setters, steps with
 * any dt, ray and circle casts, overlap queries, the trajectory preview, the mover, the event
 * lists and the getters, on ids that are live, stale (their object was destroyed) or forged
 * (any bits), and an allocator that fails when the input says so.
 *
 * Besides crashes and sanitizer reports, a run fails when
 *  - memory is left after rc_world_destroy, or a free does not match its allocation (pointer,
 *    size) or an alignment is not a power of two <= 64;
 *  - a live body's position, angle or velocities are not finite after any call; a live joint
 *    names a body that is not live, or a getter of a live joint (anchors, reaction, angle,
 *    speed, length, translation, target) answers a number that is not finite;
 *  - a call records an error (rc_world_last_error) without calling the error callback, or the
 *    other way round; a setter, constructor, step or counting function returns its error
 *    value without a message; a call with a message returns something else than its error
 *    value;
 *  - a call that recorded an error changed the world (a snapshot of everything observable
 *    about the tracked ids, the counters, gravity and the event lists, before and after; for
 *    the joint calls also the bytes of rc_world_snapshot, which hold the settings no getter
 *    reads);
 *  - a joint call refuses a def or a value that joint.h allows (but for memory running out),
 *    or accepts one it refuses; a new joint does not read back as made; a joint made, changed
 *    or destroyed does not wake its bodies; a body's destruction leaves its joints live (or
 *    takes another's); two dynamic bodies jointed together do not sleep and wake together;
 *  - a query answer breaks its contract: a hit with t outside [0, 1], a normal that is not
 *    unit or points along the ray, a shape or body id that is not live or do not belong
 *    together, non-finite numbers; an impact with approach speed <= 0; a mover that moved
 *    further than asked; the body counter not matching the live bodies. */
#define _GNU_SOURCE 1 /* feenableexcept, for FZ_TRAP */
#include <fenv.h>

#include <ricochet/ricochet.h>

#include "fuzz_input.h"

#define MAX_OPS 160
#define MAX_BODIES 16
#define MAX_SHAPES 48
#define MAX_STEPS 48
#define MAX_CHAIN_POINTS 12
#define MAX_JOINTS 24

/* ---- the allocator ------------------------------------------------------------------------ */

/* Each block is preceded by a header one maximal alignment long that records its size. */
#define HEADER 64
#define MAGIC 0x52434655u

typedef struct fz_alloc {
    int64_t live_bytes, live_blocks;
    int64_t calls;
    int64_t fail_at; /* the allocation call (1-based) that fails; 0: none */
    bool fail_all;   /* every allocation fails while set */
    int64_t failures;
} fz_alloc;

typedef struct fz_header {
    uint32_t magic;
    size_t size;
} fz_header;

static void *fz_alloc_fn(size_t size, size_t align, void *user) {
    fz_alloc *a = user;
    a->calls++;
    FZ_CHECK(align != 0 && (align & (align - 1)) == 0 && align <= 64, "allocator: alignment %zu", align);
    if (a->fail_all || a->calls == a->fail_at) {
        a->failures++;
        return NULL;
    }
    void *base = NULL;
    if (posix_memalign(&base, HEADER, HEADER + size) != 0) {
        abort();
    }
    fz_header *h = base;
    h->magic = MAGIC;
    h->size = size;
    a->live_bytes += (int64_t)size;
    a->live_blocks++;
    return (char *)base + HEADER;
}

static void fz_free_fn(void *ptr, size_t size, void *user) {
    fz_alloc *a = user;
    if (ptr == NULL) {
        return;
    }
    fz_header *h = (fz_header *)((char *)ptr - HEADER);
    FZ_CHECK(h->magic == MAGIC, "allocator: free of a pointer it did not hand out (or freed twice)");
    FZ_CHECK(h->size == size, "allocator: free of %zu bytes, allocated %zu", size, h->size);
    h->magic = 0;
    a->live_bytes -= (int64_t)size;
    a->live_blocks--;
    free(h);
}

/* ---- the errors --------------------------------------------------------------------------- */

typedef struct fz_errors {
    int calls;
} fz_errors;

static void fz_error_fn(const char *message, void *user) {
    FZ_CHECK(message != NULL && message[0] != '\0', "error callback: empty message");
    ((fz_errors *)user)->calls++;
}

/* ---- the state of one run ------------------------------------------------------------------ */

#define TWIN_BODIES 4

typedef struct fz_state {
    fz_input in;
    rc_world *world;
    /* another world made by the same calls as the first bodies of this one: its ids have the
       same slots and must be refused here */
    rc_world *twin;
    rc_body_id twin_bodies[TWIN_BODIES];
    rc_shape_id twin_shapes[TWIN_BODIES];
    rc_joint_id twin_joint;
    fz_alloc alloc;
    fz_errors errors;
    rc_body_id bodies[MAX_BODIES];
    int nbodies;
    rc_shape_id shapes[MAX_SHAPES];
    int nshapes;
    rc_joint_id joints[MAX_JOINTS];
    int njoints;
    int steps;
    const char *op;    /* the call being checked, for messages */
    bool count_bodies; /* check the body counter after this call */
    int pre_solve_calls; /* the pre-solve callback's, in the current call */
    int pre_solve_bad;   /* the values it set that the world must refuse, one message each */
} fz_state;

static void track_shape(fz_state *s, rc_shape_id id) {
    if (!rc_shape_id_is_null(id) && s->nshapes < MAX_SHAPES) {
        s->shapes[s->nshapes++] = id;
    }
}

static rc_body_id draw_body(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel < 200 && s->nbodies > 0) {
        return s->bodies[sel % s->nbodies];
    }
    if (sel < 215) {
        return s->twin_bodies[sel % TWIN_BODIES];
    }
    if (sel < 230) {
        /* forged: any index and generation, or a live index with a wrong generation */
        rc_body_id id = {fz_u32(&s->in), fz_u32(&s->in)};
        if ((sel & 1) && s->nbodies > 0) {
            id.index = s->bodies[sel % s->nbodies].index;
            id.generation += 1u + (id.generation & 1u);
        }
        return id;
    }
    return RC_NULL_BODY_ID;
}

static rc_shape_id draw_shape(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel < 200 && s->nshapes > 0) {
        return s->shapes[sel % s->nshapes];
    }
    if (sel < 215) {
        return s->twin_shapes[sel % TWIN_BODIES];
    }
    if (sel < 230) {
        rc_shape_id id = {fz_u32(&s->in), fz_u32(&s->in)};
        if ((sel & 1) && s->nshapes > 0) {
            id.index = s->shapes[sel % s->nshapes].index;
            id.generation += 1u + (id.generation & 1u);
        }
        return id;
    }
    return RC_NULL_SHAPE_ID;
}

/* A joint's body: mostly a tracked one (live or destroyed), else any body draw_body makes. */
static rc_body_id draw_joint_body(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel < 224 && s->nbodies > 0) {
        return s->bodies[sel % s->nbodies];
    }
    return draw_body(s);
}

static rc_joint_id draw_joint(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel < 200 && s->njoints > 0) {
        return s->joints[sel % s->njoints];
    }
    if (sel < 215) {
        return s->twin_joint;
    }
    if (sel < 230) {
        rc_joint_id id = {fz_u32(&s->in), fz_u32(&s->in)};
        if ((sel & 1) && s->njoints > 0) {
            id.index = s->joints[sel % s->njoints].index;
            id.generation += 1u + (id.generation & 1u);
        }
        return id;
    }
    return RC_NULL_JOINT_ID;
}

/* Numbers for the world: mostly moderate; sometimes non-finite, tiny, denormal or any float at
 * all (huge finite ones included: the world holds speeds to its limits, refuses masses beyond
 * float range and steps beyond RC_MAX_TIME_STEP, and must never produce NaN or infinity). */
static float draw_num(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel < 208) {
        return fz_small(&s->in);
    }
    if (sel < 232) {
        return fz_float(&s->in);
    }
    static const float odd[8] = {NAN, INFINITY, -INFINITY, -0.0f, 1.0e-45f, -1.0e-30f, 1.0e6f, FLT_MAX};
    return odd[sel & 7u];
}

/* A joint's frequency, damping ratio, maximum force or length: mostly a moderate number >= 0,
 * sometimes any (negative, NaN, infinite, huge: the bad ones must be refused). */
static float draw_param(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel < 224) {
        return fabsf(fz_small(&s->in));
    }
    return draw_num(s);
}

/* A restitution: mostly in [0, 1]; sometimes above 1 (a body gains energy at every bounce, up
 * to the world's speed limit), or any number (the bad ones must be refused). */
static float draw_restitution(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel >= 240) {
        return draw_num(s);
    }
    if (sel >= 224) {
        return 1.0f + (float)(sel & 15u);
    }
    return (float)(sel % 17u) / 16.0f;
}

static rc_vec2 draw_vec(fz_state *s) {
    float x = draw_num(s);
    float y = draw_num(s);
    return rc_v2(x, y);
}

static rc_filter draw_filter(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    rc_filter f = rc_default_filter();
    if (sel & 1) {
        f.category_bits = 1u << (fz_u8(&s->in) & 3u);
    }
    if (sel & 2) {
        f.mask_bits = fz_u8(&s->in) & 15u;
    }
    if (sel & 4) {
        f.group_index = (int8_t)fz_u8(&s->in) % 3;
    }
    return f;
}

static rc_query_filter draw_query_filter(fz_state *s) {
    rc_query_filter f = rc_default_query_filter();
    uint8_t sel = fz_u8(&s->in);
    if (sel & 1) {
        f.category_bits = fz_u8(&s->in) & 15u;
        f.mask_bits = fz_u8(&s->in) & 15u;
    }
    if (sel & 2) {
        f.group_index = (int32_t)(fz_u8(&s->in) % 5u) - 2;
    }
    if (sel & 4) {
        f.ignore_body = draw_body(s); /* live, stale, foreign or null */
    }
    return f;
}

/* ---- checks after every call ------------------------------------------------------------------ */

static bool vfinite(rc_vec2 v) { return fz_finite2(v.x, v.y); }

static void check_unit(const fz_state *s, rc_vec2 n, const char *what) {
    double l = sqrt((double)n.x * n.x + (double)n.y * n.y);
    FZ_CHECK(vfinite(n) && fabs(l - 1.0) <= 1.0e-4, "%s: %s normal (%g, %g) is not unit", s->op, what, n.x, n.y);
}

static void check_bodies_finite(fz_state *s) {
    int live = 0;
    for (int i = 0; i < s->nbodies; ++i) {
        rc_body_id b = s->bodies[i];
        if (!rc_body_is_valid(s->world, b)) {
            continue;
        }
        ++live;
        rc_vec2 p = rc_body_position(s->world, b), v = rc_body_linear_velocity(s->world, b);
        float a = rc_body_angle(s->world, b), w = rc_body_angular_velocity(s->world, b);
        FZ_CHECK(vfinite(p) && isfinite(a) && vfinite(v) && isfinite(w),
                 "after %s: body %u has position (%g, %g) angle %g velocity (%g, %g) angular %g", s->op, b.index, p.x,
                 p.y, a, v.x, v.y, w);
    }
    /* the counters walk the grid's cells: only after the calls that create or destroy bodies */
    if (s->count_bodies) {
        rc_world_counters c = rc_world_get_counters(s->world);
        FZ_CHECK(c.bodies == live, "after %s: counters say %d bodies, %d live", s->op, c.bodies, live);
        s->count_bodies = false;
    }
}

/* What the getters of a live joint answer (each of its type's). */
typedef struct joint_state {
    bool valid, collide;
    rc_joint_type type;
    rc_body_id body_a, body_b;
    rc_vec2 anchor_a, anchor_b, force, target;
    float torque, angle, speed, motor_torque, length, translation;
    void *user_data;
} joint_state;

/* Called only on a live joint: no getter records an error. */
static void read_joint(const rc_world *w, rc_joint_id id, joint_state *j) {
    memset(j, 0, sizeof *j);
    j->valid = true;
    j->type = rc_joint_get_type(w, id);
    j->body_a = rc_joint_body_a(w, id);
    j->body_b = rc_joint_body_b(w, id);
    j->anchor_a = rc_joint_local_anchor_a(w, id);
    j->anchor_b = rc_joint_local_anchor_b(w, id);
    j->collide = rc_joint_collide_connected(w, id);
    j->user_data = rc_joint_user_data(w, id);
    j->force = rc_joint_reaction_force(w, id);
    j->torque = rc_joint_reaction_torque(w, id);
    switch (j->type) {
    case RC_REVOLUTE_JOINT:
        j->angle = rc_revolute_joint_angle(w, id);
        j->speed = rc_revolute_joint_speed(w, id);
        j->motor_torque = rc_revolute_joint_motor_torque(w, id);
        break;
    case RC_DISTANCE_JOINT:
        j->length = rc_distance_joint_current_length(w, id);
        break;
    case RC_PRISMATIC_JOINT:
        j->translation = rc_prismatic_joint_translation(w, id);
        j->speed = rc_prismatic_joint_speed(w, id);
        break;
    case RC_MOUSE_JOINT:
        j->target = rc_mouse_joint_target(w, id);
        break;
    default:
        break;
    }
}

static bool joint_numbers_finite(const joint_state *j) {
    return vfinite(j->anchor_a) && vfinite(j->anchor_b) && vfinite(j->force) && vfinite(j->target) &&
           isfinite(j->torque) && isfinite(j->angle) && isfinite(j->speed) && isfinite(j->motor_torque) &&
           isfinite(j->length) && isfinite(j->translation);
}

/* Every live joint joins live bodies (a mouse joint: none and its body), of a type that is one,
 * and all its getters answer finite numbers. */
static void check_joints(fz_state *s) {
    for (int i = 0; i < s->njoints; ++i) {
        rc_joint_id id = s->joints[i];
        if (!rc_joint_is_valid(s->world, id)) {
            continue;
        }
        joint_state j;
        read_joint(s->world, id, &j);
        FZ_CHECK(j.type >= RC_REVOLUTE_JOINT && j.type <= RC_MOUSE_JOINT, "after %s: joint %d has type %d", s->op, i,
                 (int)j.type);
        FZ_CHECK(rc_body_is_valid(s->world, j.body_b), "after %s: joint %d (type %d) has body_b {%u, %u}, not live",
                 s->op, i, (int)j.type, j.body_b.index, j.body_b.generation);
        FZ_CHECK(j.type == RC_MOUSE_JOINT ? rc_body_id_is_null(j.body_a)
                                          : rc_body_is_valid(s->world, j.body_a) &&
                                                !rc_body_id_equals(j.body_a, j.body_b),
                 "after %s: joint %d (type %d) has body_a {%u, %u}", s->op, i, (int)j.type, j.body_a.index,
                 j.body_a.generation);
        FZ_CHECK(joint_numbers_finite(&j),
                 "after %s: joint %d (type %d) answers anchors (%g, %g) (%g, %g), reaction (%g, %g) %g, angle %g, "
                 "speed %g, motor torque %g, length %g, translation %g, target (%g, %g)",
                 s->op, i, (int)j.type, j.anchor_a.x, j.anchor_a.y, j.anchor_b.x, j.anchor_b.y, j.force.x, j.force.y,
                 j.torque, j.angle, j.speed, j.motor_torque, j.length, j.translation, j.target.x, j.target.y);
    }
}

/* Everything observable about the tracked ids, compared byte for byte (zeroed first, so that
 * padding compares equal). */
typedef struct body_state {
    bool valid;
    rc_body_type type;
    rc_body_motion motion;
    rc_vec2 position, velocity, center;
    float angle, angular_velocity, mass, inertia, gravity_scale, linear_damping, angular_damping;
    bool bullet, awake, response;
    int32_t max_bounces, shape_count;
    rc_filter point_filter;
    void *user_data;
} body_state;

typedef struct shape_state {
    bool valid, sensor;
    rc_body_id body;
    rc_shape_type type;
    rc_aabb aabb;
    float restitution, friction, density;
    rc_filter filter;
    void *user_data;
    int32_t contacts;
} shape_state;

typedef struct snapshot {
    body_state bodies[MAX_BODIES];
    shape_state shapes[MAX_SHAPES];
    joint_state joints[MAX_JOINTS];
    rc_world_counters counters;
    rc_vec2 gravity;
    int32_t contact_begin, contact_end, sensor_begin, sensor_end, impacts;
} snapshot;

static void take_snapshot(const fz_state *s, snapshot *snap) {
    const rc_world *w = s->world;
    memset(snap, 0, sizeof *snap);
    for (int i = 0; i < s->nbodies; ++i) {
        body_state *b = &snap->bodies[i];
        rc_body_id id = s->bodies[i];
        b->valid = rc_body_is_valid(w, id);
        if (!b->valid) {
            continue;
        }
        b->type = rc_body_get_type(w, id);
        b->motion = rc_body_get_motion(w, id);
        b->position = rc_body_position(w, id);
        b->velocity = rc_body_linear_velocity(w, id);
        b->center = rc_body_world_center(w, id);
        b->angle = rc_body_angle(w, id);
        b->angular_velocity = rc_body_angular_velocity(w, id);
        b->mass = rc_body_mass(w, id);
        b->inertia = rc_body_rotational_inertia(w, id);
        b->gravity_scale = rc_body_gravity_scale(w, id);
        b->linear_damping = rc_body_linear_damping(w, id);
        b->angular_damping = rc_body_angular_damping(w, id);
        b->bullet = rc_body_is_bullet(w, id);
        b->awake = rc_body_is_awake(w, id);
        b->response = rc_body_response_enabled(w, id);
        b->max_bounces = rc_body_max_bounces(w, id);
        b->shape_count = rc_body_shapes(w, id, NULL, 0);
        b->point_filter = rc_body_point_filter(w, id);
        b->user_data = rc_body_user_data(w, id);
    }
    for (int i = 0; i < s->nshapes; ++i) {
        shape_state *h = &snap->shapes[i];
        rc_shape_id id = s->shapes[i];
        h->valid = rc_shape_is_valid(w, id);
        if (!h->valid) {
            continue;
        }
        h->body = rc_shape_body(w, id);
        h->type = rc_shape_get_type(w, id);
        h->aabb = rc_shape_aabb(w, id);
        h->restitution = rc_shape_restitution(w, id);
        h->friction = rc_shape_friction(w, id);
        h->density = rc_shape_density(w, id);
        h->filter = rc_shape_filter(w, id);
        h->sensor = rc_shape_is_sensor(w, id);
        h->user_data = rc_shape_user_data(w, id);
        h->contacts = h->type == RC_SHAPE_TYPE_CHAIN ? 0 : rc_shape_contacts(w, id, NULL, 0);
    }
    for (int i = 0; i < s->njoints; ++i) {
        if (rc_joint_is_valid(w, s->joints[i])) {
            read_joint(w, s->joints[i], &snap->joints[i]);
        }
    }
    snap->counters = rc_world_get_counters(w);
    snap->counters.bytes = 0; /* capacity, not state */
    snap->gravity = rc_world_gravity(w);
    rc_contact_events ce = rc_world_contact_events(w);
    rc_sensor_events se = rc_world_sensor_events(w);
    const rc_impact_event *impacts = NULL;
    snap->contact_begin = ce.begin_count;
    snap->contact_end = ce.end_count;
    snap->sensor_begin = se.begin_count;
    snap->sensor_end = se.end_count;
    snap->impacts = rc_world_impact_events(w, &impacts);
}

/* Bracket a call: before() clears the error and takes a snapshot; after() checks the error
 * protocol, that a refused call changed nothing, and that the bodies are finite. refused is
 * the caller's reading of the return value as the error value; must_say: that error value is
 * only ever returned with a message. Returns whether the call recorded an error. */
static snapshot g_before, g_after;

static bool g_verbose;

static void before(fz_state *s, const char *op) {
    s->op = op;
    if (g_verbose) {
        fprintf(stderr, "[%zu] %s\n", s->in.pos, op);
    }
    rc_world_clear_error(s->world);
    s->errors.calls = 0;
    take_snapshot(s, &g_before);
}

static bool after(fz_state *s, bool refused, bool must_say) {
    const char *msg = rc_world_last_error(s->world);
    FZ_CHECK(msg != NULL, "%s: rc_world_last_error returned NULL", s->op);
    bool errored = msg[0] != '\0';
    FZ_CHECK(errored == (s->errors.calls > 0), "%s: message \"%s\" but the error callback was called %d times", s->op,
             msg, s->errors.calls);
    FZ_CHECK(!errored || s->errors.calls == 1, "%s: error callback called %d times", s->op, s->errors.calls);
    if (errored) {
        FZ_CHECK(refused, "%s: recorded \"%s\" but did not return its error value", s->op, msg);
        take_snapshot(s, &g_after);
        if (memcmp(&g_before, &g_after, sizeof g_before) != 0) {
            for (int i = 0; i < MAX_BODIES; ++i) {
                if (memcmp(&g_before.bodies[i], &g_after.bodies[i], sizeof g_before.bodies[i]) != 0) {
                    const body_state *a = &g_before.bodies[i], *b = &g_after.bodies[i];
                    fprintf(stderr, "body %d: p (%g, %g) -> (%g, %g), v (%g, %g) -> (%g, %g), awake %d -> %d, a %g -> %g\n",
                            i, a->position.x, a->position.y, b->position.x, b->position.y, a->velocity.x, a->velocity.y,
                            b->velocity.x, b->velocity.y, a->awake, b->awake, a->angle, b->angle);
                }
            }
            for (int i = 0; i < MAX_SHAPES; ++i) {
                if (memcmp(&g_before.shapes[i], &g_after.shapes[i], sizeof g_before.shapes[i]) != 0) {
                    const shape_state *a = &g_before.shapes[i], *b = &g_after.shapes[i];
                    fprintf(stderr, "shape %d differs: contacts %d -> %d, aabb (%g, %g, %g, %g) -> (%g, %g, %g, %g), type %d\n",
                            i, a->contacts, b->contacts, a->aabb.lower.x, a->aabb.lower.y, a->aabb.upper.x,
                            a->aabb.upper.y, b->aabb.lower.x, b->aabb.lower.y, b->aabb.upper.x, b->aabb.upper.y,
                            (int)a->type);
                }
            }
            for (int i = 0; i < MAX_JOINTS; ++i) {
                if (memcmp(&g_before.joints[i], &g_after.joints[i], sizeof g_before.joints[i]) != 0) {
                    const joint_state *a = &g_before.joints[i], *b = &g_after.joints[i];
                    fprintf(stderr, "joint %d differs: valid %d -> %d, type %d -> %d, reaction (%g, %g) %g -> (%g, %g) %g, "
                                    "angle %g -> %g, length %g -> %g, translation %g -> %g, target (%g, %g) -> (%g, %g)\n",
                            i, a->valid, b->valid, (int)a->type, (int)b->type, a->force.x, a->force.y, a->torque,
                            b->force.x, b->force.y, b->torque, a->angle, b->angle, a->length, b->length,
                            a->translation, b->translation, a->target.x, a->target.y, b->target.x, b->target.y);
                }
            }
            if (memcmp(&g_before.counters, &g_after.counters, sizeof g_before.counters) != 0) {
                fprintf(stderr, "counters differ: contacts %d -> %d, touching %d -> %d, awake %d -> %d, steps %d -> %d, "
                                "proxies %d -> %d, cells %d -> %d\n",
                        g_before.counters.contacts, g_after.counters.contacts, g_before.counters.touching_contacts,
                        g_after.counters.touching_contacts, g_before.counters.awake_bodies,
                        g_after.counters.awake_bodies, g_before.counters.steps, g_after.counters.steps,
                        g_before.counters.broadphase_proxies, g_after.counters.broadphase_proxies,
                        g_before.counters.broadphase_cells, g_after.counters.broadphase_cells);
            }
            fz_fail("%s: refused (\"%s\") but changed the world", s->op, msg);
        }
    } else if (refused && must_say) {
        FZ_CHECK(false, "%s: returned its error value without a message", s->op);
    }
    check_bodies_finite(s);
    check_joints(s);
    /* an allocation failure lasts for one call */
    s->alloc.fail_all = false;
    s->alloc.fail_at = 0;
    return errored;
}

/* Queries: a const world cannot change (but the message is checked the same way). */
static void before_query(fz_state *s, const char *op) {
    s->op = op;
    if (g_verbose) {
        fprintf(stderr, "[%zu] %s\n", s->in.pos, op);
    }
    rc_world_clear_error(s->world);
    s->errors.calls = 0;
}

static void after_query(fz_state *s, bool refused, bool must_say) {
    const char *msg = rc_world_last_error(s->world);
    bool errored = msg[0] != '\0';
    FZ_CHECK(errored == (s->errors.calls == 1), "%s: message \"%s\" but the error callback was called %d times", s->op,
             msg, s->errors.calls);
    FZ_CHECK(!errored || refused, "%s: recorded \"%s\" but did not return its error value", s->op, msg);
    FZ_CHECK(errored || !refused || !must_say, "%s: returned its error value without a message", s->op);
}

static void check_hit(fz_state *s, rc_vec2 origin, rc_vec2 translation, const rc_ray_hit *h, bool is_ray) {
    FZ_CHECK(h->t >= 0.0f && h->t <= 1.0f, "%s: t = %g", s->op, h->t);
    check_unit(s, h->normal, "hit");
    FZ_CHECK(vfinite(h->point), "%s: hit point (%g, %g)", s->op, h->point.x, h->point.y);
    FZ_CHECK(rc_shape_is_valid(s->world, h->shape), "%s: hit a shape that is not live", s->op);
    rc_body_id owner = rc_shape_body(s->world, h->shape);
    FZ_CHECK(rc_body_id_equals(owner, h->body), "%s: hit names body %u, the shape's is %u", s->op, h->body.index,
             owner.index);
    double dl = sqrt((double)translation.x * translation.x + (double)translation.y * translation.y);
    double along = (double)h->normal.x * translation.x + (double)h->normal.y * translation.y;
    FZ_CHECK(along <= 1.0e-4 * dl, "%s: normal (%g, %g) along the ray (%g, %g)", s->op, h->normal.x, h->normal.y,
             translation.x, translation.y);
    if (h->started_inside) {
        FZ_CHECK(h->t == 0.0f, "%s: started inside at t = %g", s->op, h->t);
    }
    (void)origin;
    (void)is_ray;
}

/* ---- the operations ------------------------------------------------------------------------ */

static void op_create_body(fz_state *s) {
    rc_body_def d = rc_body_default_def();
    uint8_t flags = fz_u8(&s->in);
    d.type = (rc_body_type)(fz_u8(&s->in) % 4u); /* 3: not a type */
    d.position = draw_vec(s);
    d.angle = draw_num(s);
    d.linear_velocity = draw_vec(s);
    d.angular_velocity = draw_num(s);
    if (flags & 1) {
        d.linear_damping = draw_num(s);
        d.angular_damping = draw_num(s);
        d.gravity_scale = draw_num(s);
    }
    d.bullet = (flags & 2) != 0;
    d.max_bounces = (flags & 4) ? (int8_t)fz_u8(&s->in) : 8;
    d.enable_response = (flags & 8) == 0;
    if (flags & 16) {
        d.point_mass = draw_num(s);
        d.point_filter = draw_filter(s);
    }
    d.awake = (flags & 32) == 0;
    d.enable_sleep = (flags & 64) == 0;
    d.fixed_rotation = (flags & 128) != 0;
    d.user_data = (void *)(uintptr_t)(s->nbodies + 1);
    if (s->nbodies >= MAX_BODIES) {
        return;
    }
    before(s, "rc_body_create");
    s->count_bodies = true;
    if (g_verbose) {
        fprintf(stderr, "  type %d p (%g, %g) a %g v (%g, %g) w %g damp %g %g gs %g bullet %d bounces %d resp %d pm %g "
                        "awake %d sleep %d fixed %d\n",
                (int)d.type, d.position.x, d.position.y, d.angle, d.linear_velocity.x, d.linear_velocity.y,
                d.angular_velocity, d.linear_damping, d.angular_damping, d.gravity_scale, d.bullet, d.max_bounces,
                d.enable_response, d.point_mass, d.awake, d.enable_sleep, d.fixed_rotation);
    }
    rc_body_id id = rc_body_create(s->world, &d);
    bool refused = rc_body_id_is_null(id);
    if (!refused) {
        FZ_CHECK(rc_body_is_valid(s->world, id), "rc_body_create: returned an id that is not valid");
        s->bodies[s->nbodies++] = id; /* tracked before the checks count the live bodies */
    }
    after(s, refused, true);
}

static rc_shape_def draw_shape_def(fz_state *s) {
    rc_shape_def d = rc_shape_default_def();
    uint8_t flags = fz_u8(&s->in);
    if (flags & 1) {
        d.offset = draw_vec(s);
        d.angle = draw_num(s);
    }
    if (flags & 2) {
        d.scale = draw_vec(s);
    }
    if (flags & 4) {
        d.restitution = draw_restitution(s);
        d.friction = draw_num(s);
        d.rolling_resistance = draw_num(s);
        d.density = draw_num(s);
    }
    d.is_sensor = (flags & 8) != 0;
    d.enable_contact_events = (flags & 16) == 0;
    d.enable_sensor_events = (flags & 32) == 0;
    d.one_sided = (flags & 64) != 0;
    d.enable_pre_solve_events = (flags & 0x81) == 0x81;
    if (flags & 128) {
        d.filter = draw_filter(s);
    }
    d.user_data = (void *)(uintptr_t)(s->nshapes + 1000);
    return d;
}

static void after_create_shape(fz_state *s, rc_shape_id id) {
    bool refused = rc_shape_id_is_null(id);
    after(s, refused, true);
    if (!refused) {
        FZ_CHECK(rc_shape_is_valid(s->world, id), "%s: returned an id that is not valid", s->op);
        track_shape(s, id);
    }
}

static void op_create_shape(fz_state *s) {
    uint8_t kind = fz_u8(&s->in) % 5u;
    rc_body_id body = draw_body(s);
    rc_shape_def d = draw_shape_def(s);
    if (s->nshapes >= MAX_SHAPES) {
        return;
    }
    switch (kind) {
    case 0: {
        float r = draw_num(s);
        before(s, "rc_shape_create_circle");
        if (g_verbose) {
            fprintf(stderr, "  body %u radius %g offset (%g, %g) angle %g scale (%g, %g) e %g mu %g rr %g density %g "
                            "sensor %d\n",
                    body.index, r, d.offset.x, d.offset.y, d.angle, d.scale.x, d.scale.y, d.restitution, d.friction,
                    d.rolling_resistance, d.density, d.is_sensor);
        }
        after_create_shape(s, rc_shape_create_circle(s->world, body, &d, r));
        break;
    }
    case 1: {
        float hw = draw_num(s), hh = draw_num(s);
        before(s, "rc_shape_create_box");
        after_create_shape(s, rc_shape_create_box(s->world, body, &d, hw, hh));
        break;
    }
    case 2: {
        uint8_t sel = fz_u8(&s->in);
        int n = (sel & 15u) - 2; /* -2 .. 13: too few, good and too many */
        rc_vec2 pts[16];
        for (int i = 0; i < n; ++i) {
            pts[i] = draw_vec(s);
        }
        /* the points in a block of their own size: ASan sees a read past count */
        rc_vec2 *heap = n > 0 ? malloc(sizeof(rc_vec2) * (size_t)n) : NULL;
        if (n > 0) {
            if (heap == NULL) {
                abort();
            }
            memcpy(heap, pts, sizeof(rc_vec2) * (size_t)n);
        }
        before(s, "rc_shape_create_polygon");
        after_create_shape(s, rc_shape_create_polygon(s->world, body, &d, (sel & 16u) ? NULL : heap, n));
        free(heap);
        break;
    }
    case 4: {
        rc_vec2 c1 = draw_vec(s), c2 = draw_vec(s);
        float r = draw_num(s);
        before(s, "rc_shape_create_capsule");
        after_create_shape(s, rc_shape_create_capsule(s->world, body, &d, c1, c2, r));
        break;
    }
    default: {
        uint8_t sel = fz_u8(&s->in);
        int n = sel % (MAX_CHAIN_POINTS + 1);
        bool loop = (sel & 0x80u) != 0;
        rc_vec2 *heap = n > 0 ? malloc(sizeof(rc_vec2) * (size_t)n) : NULL;
        if (n > 0 && heap == NULL) {
            abort();
        }
        for (int i = 0; i < n; ++i) {
            heap[i] = (sel & 0x40u) ? draw_vec(s) : rc_v2((float)(fz_u8(&s->in) % 16u), (float)(fz_u8(&s->in) % 16u));
        }
        before(s, "rc_shape_create_chain");
        rc_shape_id chain = rc_shape_create_chain(s->world, body, &d, heap, n, loop);
        after_create_shape(s, chain);
        free(heap);
        if (!rc_shape_id_is_null(chain)) {
            rc_shape_id segs[MAX_CHAIN_POINTS + 1];
            before_query(s, "rc_shape_chain_segments");
            int32_t count = rc_shape_chain_segments(s->world, chain, segs, MAX_CHAIN_POINTS + 1);
            after_query(s, count < 0, true);
            FZ_CHECK(count >= 1 && count <= n, "rc_shape_chain_segments: %d segments from %d points", count, n);
            /* track a few of the segments too */
            for (int i = 0; i < count && i < 3; ++i) {
                track_shape(s, segs[i]);
            }
        }
        break;
    }
    }
}

static void op_destroy(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    if (sel & 1) {
        rc_body_id b = draw_body(s);
        /* the live joints, and which of them the body's destruction takes (a mouse joint's
           body_a is the null body: a null id takes nothing) */
        bool live[MAX_JOINTS], attached[MAX_JOINTS];
        bool body_live = rc_body_is_valid(s->world, b);
        for (int i = 0; i < s->njoints; ++i) {
            live[i] = rc_joint_is_valid(s->world, s->joints[i]);
            attached[i] = live[i] && body_live &&
                          (rc_body_id_equals(rc_joint_body_a(s->world, s->joints[i]), b) ||
                           rc_body_id_equals(rc_joint_body_b(s->world, s->joints[i]), b));
        }
        before(s, "rc_body_destroy");
        s->count_bodies = true;
        bool was = rc_body_is_valid(s->world, b);
        rc_body_destroy(s->world, b);
        bool errored = after(s, !was, true);
        FZ_CHECK(!rc_body_is_valid(s->world, b), "rc_body_destroy: body still valid");
        FZ_CHECK(errored == !was, "rc_body_destroy: error %d for a body that was %svalid", errored, was ? "" : "not ");
        for (int i = 0; i < s->njoints; ++i) {
            FZ_CHECK(rc_joint_is_valid(s->world, s->joints[i]) == (live[i] && !attached[i]),
                     "rc_body_destroy: joint %d was %slive, %sattached to the body, and is %slive", i,
                     live[i] ? "" : "not ", attached[i] ? "" : "not ",
                     rc_joint_is_valid(s->world, s->joints[i]) ? "" : "not ");
        }
    } else {
        rc_shape_id h = draw_shape(s);
        before(s, "rc_shape_destroy");
        bool was = rc_shape_is_valid(s->world, h);
        bool segment = was && rc_shape_get_type(s->world, h) == RC_SHAPE_TYPE_SEGMENT;
        rc_shape_destroy(s->world, h);
        bool errored = after(s, !was || segment, true);
        FZ_CHECK(errored == (!was || segment), "rc_shape_destroy: error %d (valid %d, segment %d)", errored, was,
                 segment);
        FZ_CHECK(segment || !rc_shape_is_valid(s->world, h), "rc_shape_destroy: shape still valid");
    }
}

static void op_body_set(fz_state *s) {
    uint8_t what = fz_u8(&s->in) % 18u;
    rc_body_id b = draw_body(s);
    bool ok = true;
    switch (what) {
    case 0: {
        rc_vec2 p = draw_vec(s);
        float a = draw_num(s);
        before(s, "rc_body_set_transform");
        ok = rc_body_set_transform(s->world, b, p, a);
        break;
    }
    case 1: {
        rc_vec2 v = draw_vec(s);
        before(s, "rc_body_set_linear_velocity");
        ok = rc_body_set_linear_velocity(s->world, b, v);
        break;
    }
    case 2: {
        float w = draw_num(s);
        before(s, "rc_body_set_angular_velocity");
        ok = rc_body_set_angular_velocity(s->world, b, w);
        break;
    }
    case 3: {
        rc_body_type t = (rc_body_type)(fz_u8(&s->in) % 4u);
        before(s, "rc_body_set_type");
        ok = rc_body_set_type(s->world, b, t);
        break;
    }
    case 4: {
        float g = draw_num(s);
        before(s, "rc_body_set_gravity_scale");
        ok = rc_body_set_gravity_scale(s->world, b, g);
        break;
    }
    case 5: {
        float d = draw_num(s);
        before(s, "rc_body_set_linear_damping");
        ok = rc_body_set_linear_damping(s->world, b, d);
        break;
    }
    case 6: {
        float d = draw_num(s);
        before(s, "rc_body_set_angular_damping");
        ok = rc_body_set_angular_damping(s->world, b, d);
        break;
    }
    case 7: {
        bool on = fz_bool(&s->in);
        before(s, "rc_body_set_bullet");
        ok = rc_body_set_bullet(s->world, b, on);
        break;
    }
    case 8: {
        int32_t n = (int8_t)fz_u8(&s->in);
        before(s, "rc_body_set_max_bounces");
        ok = rc_body_set_max_bounces(s->world, b, n);
        break;
    }
    case 9: {
        bool on = fz_bool(&s->in);
        before(s, "rc_body_set_enable_response");
        ok = rc_body_set_enable_response(s->world, b, on);
        break;
    }
    case 10: {
        rc_filter f = draw_filter(s);
        before(s, "rc_body_set_point_filter");
        ok = rc_body_set_point_filter(s->world, b, f);
        break;
    }
    case 11: {
        bool on = fz_bool(&s->in);
        before(s, "rc_body_set_awake");
        ok = rc_body_set_awake(s->world, b, on);
        break;
    }
    case 12: {
        before(s, "rc_body_set_user_data");
        ok = rc_body_set_user_data(s->world, b, (void *)(uintptr_t)fz_u8(&s->in));
        break;
    }
    case 14: {
        rc_vec2 force = draw_vec(s), point = draw_vec(s);
        bool centre = fz_bool(&s->in);
        before(s, centre ? "rc_body_apply_force_to_center" : "rc_body_apply_force");
        ok = centre ? rc_body_apply_force_to_center(s->world, b, force) : rc_body_apply_force(s->world, b, force, point);
        break;
    }
    case 15: {
        float torque = draw_num(s);
        bool impulse = fz_bool(&s->in);
        before(s, impulse ? "rc_body_apply_angular_impulse" : "rc_body_apply_torque");
        ok = impulse ? rc_body_apply_angular_impulse(s->world, b, torque) : rc_body_apply_torque(s->world, b, torque);
        break;
    }
    case 16: {
        rc_mass_data md = {draw_num(s), draw_num(s), draw_vec(s), draw_num(s)};
        before(s, "rc_body_set_mass_data");
        ok = rc_body_set_mass_data(s->world, b, md);
        break;
    }
    default: {
        rc_vec2 impulse = draw_vec(s), point = draw_vec(s);
        before(s, "rc_body_apply_linear_impulse");
        if (g_verbose) {
            fprintf(stderr, "  body %u impulse (%g, %g) at (%g, %g)\n", b.index, impulse.x, impulse.y, point.x, point.y);
        }
        ok = rc_body_apply_linear_impulse(s->world, b, impulse, point);
        break;
    }
    }
    after(s, !ok, true);
}

static void op_shape_set(fz_state *s) {
    uint8_t what = fz_u8(&s->in) % 7u;
    rc_shape_id h = draw_shape(s);
    bool ok = true;
    switch (what) {
    case 0: {
        rc_vec2 offset = draw_vec(s);
        float angle = draw_num(s);
        rc_vec2 scale = draw_vec(s);
        before(s, "rc_shape_set_base_transform");
        if (g_verbose) {
            fprintf(stderr, "  shape %u offset (%g, %g) angle %g scale (%g, %g)\n", h.index, offset.x, offset.y, angle,
                    scale.x, scale.y);
        }
        ok = rc_shape_set_base_transform(s->world, h, offset, angle, scale);
        break;
    }
    case 1: {
        float v = draw_restitution(s);
        before(s, "rc_shape_set_restitution");
        ok = rc_shape_set_restitution(s->world, h, v);
        break;
    }
    case 2: {
        float v = draw_num(s);
        before(s, "rc_shape_set_friction");
        ok = rc_shape_set_friction(s->world, h, v);
        break;
    }
    case 3: {
        float v = draw_num(s);
        before(s, "rc_shape_set_density");
        ok = rc_shape_set_density(s->world, h, v);
        break;
    }
    case 4: {
        rc_filter f = draw_filter(s);
        before(s, "rc_shape_set_filter");
        ok = rc_shape_set_filter(s->world, h, f);
        break;
    }
    case 5: {
        bool enable = fz_bool(&s->in);
        before(s, "rc_shape_set_pre_solve_events");
        ok = rc_shape_set_pre_solve_events(s->world, h, enable);
        break;
    }
    default:
        before(s, "rc_shape_set_user_data");
        ok = rc_shape_set_user_data(s->world, h, (void *)(uintptr_t)fz_u8(&s->in));
        break;
    }
    after(s, !ok, true);
}

/* ---- joints ------------------------------------------------------------------------------------ */

/* The bytes of rc_world_snapshot: what a joint holds that no getter reads (limits, motors,
 * springs, lengths), so that a refused joint call can be seen to change none of it. */
typedef struct fz_bytes {
    uint8_t *data;
    size_t size, capacity;
} fz_bytes;

static fz_bytes g_bytes_before, g_bytes_after;

static void world_bytes(fz_state *s, fz_bytes *b) {
    size_t need = rc_world_snapshot_size(s->world);
    FZ_CHECK(need > 0, "%s: rc_world_snapshot_size answered 0 (\"%s\")", s->op, rc_world_last_error(s->world));
    if (need > b->capacity) {
        uint8_t *grown = realloc(b->data, need);
        if (grown == NULL) {
            abort();
        }
        b->data = grown;
        b->capacity = need;
    }
    b->size = rc_world_snapshot(s->world, b->data, b->capacity);
    FZ_CHECK(b->size > 0, "%s: rc_world_snapshot refused (\"%s\")", s->op, rc_world_last_error(s->world));
    rc_world_clear_error(s->world);
}

/* After a refused joint call (after() has checked the getters): the world's bytes as before. */
static void check_bytes_unchanged(fz_state *s) {
    world_bytes(s, &g_bytes_after);
    if (g_bytes_before.size != g_bytes_after.size ||
        memcmp(g_bytes_before.data, g_bytes_after.data, g_bytes_before.size) != 0) {
        size_t at = 0;
        while (at < g_bytes_before.size && at < g_bytes_after.size && g_bytes_before.data[at] == g_bytes_after.data[at]) {
            ++at;
        }
        fz_fail("%s: refused but changed the world's snapshot (%zu bytes -> %zu, first difference at byte %zu)", s->op,
                g_bytes_before.size, g_bytes_after.size, at);
    }
}

/* Tri-state expectations of a joint call: must be accepted, must be refused, or joint.h leaves
 * it open (a finite anchor or target beyond RC_WORLD_LIMIT). */
enum { MUST_REFUSE = 0, MUST_ACCEPT = 1, EITHER = 2 };

static int expect_and(int a, int b) {
    if (a == MUST_REFUSE || b == MUST_REFUSE) {
        return MUST_REFUSE;
    }
    return a == EITHER || b == EITHER ? EITHER : MUST_ACCEPT;
}

static int expect_if(bool ok) { return ok ? MUST_ACCEPT : MUST_REFUSE; }

static bool nonneg(float v) { return isfinite(v) && v >= 0.0f; }

static bool range_ok(float lower, float upper) { return isfinite(lower) && isfinite(upper) && lower <= upper; }

static int expect_point(rc_vec2 p) {
    if (!vfinite(p)) {
        return MUST_REFUSE;
    }
    return fabsf(p.x) <= RC_WORLD_LIMIT && fabsf(p.y) <= RC_WORLD_LIMIT ? MUST_ACCEPT : EITHER;
}

static bool body_dynamic(const fz_state *s, rc_body_id b) {
    return rc_body_is_valid(s->world, b) && rc_body_get_type(s->world, b) == RC_DYNAMIC;
}

/* Two live bodies of this world, not the same, not both without mass; the anchors. */
static int expect_common(const fz_state *s, rc_body_id a, rc_body_id b, rc_vec2 la, rc_vec2 lb) {
    bool bodies = rc_body_is_valid(s->world, a) && rc_body_is_valid(s->world, b) && !rc_body_id_equals(a, b) &&
                  (body_dynamic(s, a) || body_dynamic(s, b));
    return expect_and(expect_if(bodies), expect_and(expect_point(la), expect_point(lb)));
}

/* Limits drawn as two numbers, put in order unless the input says not to. */
static void draw_range(fz_state *s, bool in_order, float *lower, float *upper, bool non_negative) {
    float a = non_negative ? draw_param(s) : draw_num(s);
    float b = non_negative ? draw_param(s) : draw_num(s);
    if (in_order && a > b) {
        float t = a;
        a = b;
        b = t;
    }
    *lower = a;
    *upper = b;
}

/* The joint's bodies that are not static are awake (a joint made, changed or destroyed wakes
 * them). */
static void check_awake(fz_state *s, rc_body_id a, rc_body_id b, const char *what) {
    rc_body_id ids[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        if (rc_body_is_valid(s->world, ids[k]) && rc_body_get_type(s->world, ids[k]) != RC_STATIC) {
            FZ_CHECK(rc_body_is_awake(s->world, ids[k]), "%s: %s left body {%u, %u} asleep", s->op, what,
                     ids[k].index, ids[k].generation);
        }
    }
}

static const char *const joint_create_names[5] = {"rc_joint_create_revolute", "rc_joint_create_distance",
                                                  "rc_joint_create_prismatic", "rc_joint_create_weld",
                                                  "rc_joint_create_mouse"};

static void op_create_joint(fz_state *s) {
    uint8_t kind = fz_u8(&s->in);
    uint8_t flags = fz_u8(&s->in);
    rc_joint_type type = (rc_joint_type)(kind % 5u);
    bool null_def = (kind & 0xF8u) == 0x78u;
    /* runs of 0xFF or 0 (common in mutated inputs) make a plain joint: the awkward cases take
       mixed bits */
    bool same = (flags & 0x81u) == 0x01u;
    rc_body_id a = draw_joint_body(s);
    rc_body_id b = same ? a : draw_joint_body(s); /* the same body twice */
    rc_vec2 la = rc_v2(0.0f, 0.0f), lb = rc_v2(0.0f, 0.0f);
    if (flags & 2) {
        la = draw_vec(s);
        lb = draw_vec(s);
    }
    bool limit = (flags & 4) != 0, motor = (flags & 8) != 0, spring = (flags & 16) != 0;
    bool collide = (flags & 32) != 0, in_order = (flags & 0x60u) != 0x40u;
    /* the k-th allocation of the call fails */
    int64_t fail_at = (flags & 0x81u) == 0x80u ? 1 + fz_u8(&s->in) % 6u : 0;
    void *user_data = (void *)(uintptr_t)(2000 + s->njoints);
    int expect = MUST_REFUSE;
    rc_joint_id id = RC_NULL_JOINT_ID;
    rc_revolute_joint_def rd = rc_revolute_joint_default_def();
    rc_distance_joint_def dd = rc_distance_joint_default_def();
    rc_prismatic_joint_def pd = rc_prismatic_joint_default_def();
    rc_weld_joint_def wd = rc_weld_joint_default_def();
    rc_mouse_joint_def md = rc_mouse_joint_default_def();
    switch (type) {
    case RC_REVOLUTE_JOINT:
        rd.body_a = a;
        rd.body_b = b;
        rd.local_anchor_a = la;
        rd.local_anchor_b = lb;
        rd.enable_limit = limit;
        draw_range(s, in_order, &rd.lower_angle, &rd.upper_angle, false);
        rd.enable_motor = motor;
        rd.motor_speed = draw_num(s);
        rd.max_motor_torque = draw_param(s);
        rd.enable_spring = spring;
        rd.hertz = draw_param(s);
        rd.damping_ratio = draw_param(s);
        rd.collide_connected = collide;
        rd.user_data = user_data;
        expect = expect_and(expect_common(s, a, b, la, lb),
                            expect_if(range_ok(rd.lower_angle, rd.upper_angle) && isfinite(rd.motor_speed) &&
                                      nonneg(rd.max_motor_torque) && nonneg(rd.hertz) && nonneg(rd.damping_ratio)));
        break;
    case RC_DISTANCE_JOINT:
        dd.body_a = a;
        dd.body_b = b;
        dd.local_anchor_a = la;
        dd.local_anchor_b = lb;
        dd.length = draw_param(s);
        dd.enable_limit = limit;
        if (fz_bool(&s->in)) {
            draw_range(s, in_order, &dd.min_length, &dd.max_length, true);
        }
        dd.enable_spring = spring;
        dd.hertz = draw_param(s);
        dd.damping_ratio = draw_param(s);
        dd.enable_motor = motor;
        dd.max_motor_force = draw_param(s);
        dd.motor_speed = draw_num(s);
        dd.collide_connected = collide;
        dd.user_data = user_data;
        expect = expect_and(
            expect_common(s, a, b, la, lb),
            expect_if(isfinite(dd.length) && dd.length > 0.0f && dd.length <= RC_JOINT_MAX_LENGTH &&
                      range_ok(dd.min_length, dd.max_length) && dd.min_length >= 0.0f &&
                      dd.max_length <= RC_JOINT_MAX_LENGTH && nonneg(dd.hertz) && nonneg(dd.damping_ratio) &&
                      nonneg(dd.max_motor_force) && isfinite(dd.motor_speed)));
        break;
    case RC_PRISMATIC_JOINT:
        pd.body_a = a;
        pd.body_b = b;
        pd.local_anchor_a = la;
        pd.local_anchor_b = lb;
        if (fz_bool(&s->in)) {
            pd.local_axis_a = draw_vec(s);
        }
        pd.enable_limit = limit;
        draw_range(s, in_order, &pd.lower_translation, &pd.upper_translation, false);
        pd.enable_motor = motor;
        pd.motor_speed = draw_num(s);
        pd.max_motor_force = draw_param(s);
        pd.enable_spring = spring;
        pd.hertz = draw_param(s);
        pd.damping_ratio = draw_param(s);
        pd.collide_connected = collide;
        pd.user_data = user_data;
        expect = expect_and(expect_common(s, a, b, la, lb),
                            expect_if(vfinite(pd.local_axis_a) &&
                                      (pd.local_axis_a.x != 0.0f || pd.local_axis_a.y != 0.0f) &&
                                      range_ok(pd.lower_translation, pd.upper_translation) &&
                                      isfinite(pd.motor_speed) && nonneg(pd.max_motor_force) && nonneg(pd.hertz) &&
                                      nonneg(pd.damping_ratio)));
        break;
    case RC_WELD_JOINT:
        wd.body_a = a;
        wd.body_b = b;
        wd.local_anchor_a = la;
        wd.local_anchor_b = lb;
        if (fz_bool(&s->in)) {
            wd.reference_angle = draw_num(s);
        }
        if (spring) {
            wd.linear_hertz = draw_param(s);
            wd.linear_damping_ratio = draw_param(s);
        }
        if (motor) {
            wd.angular_hertz = draw_param(s);
            wd.angular_damping_ratio = draw_param(s);
        }
        wd.collide_connected = collide;
        wd.user_data = user_data;
        expect = expect_and(expect_common(s, a, b, la, lb),
                            expect_if(isfinite(wd.reference_angle) && nonneg(wd.linear_hertz) &&
                                      nonneg(wd.linear_damping_ratio) && nonneg(wd.angular_hertz) &&
                                      nonneg(wd.angular_damping_ratio)));
        break;
    default:
        md.body = b;
        md.target = draw_vec(s);
        if (in_order && rc_body_is_valid(s->world, b)) {
            md.target = rc_add(rc_body_position(s->world, b), md.target); /* near the body */
        }
        md.hertz = draw_param(s);
        md.damping_ratio = draw_param(s);
        md.max_force = draw_param(s);
        md.user_data = user_data;
        expect = expect_and(expect_and(expect_if(body_dynamic(s, b)), expect_point(md.target)),
                            expect_if(isfinite(md.hertz) && md.hertz > 0.0f && nonneg(md.damping_ratio) &&
                                      nonneg(md.max_force)));
        break;
    }
    if (null_def) {
        expect = MUST_REFUSE;
    }
    if (s->njoints >= MAX_JOINTS) {
        return;
    }
    world_bytes(s, &g_bytes_before);
    before(s, joint_create_names[type]);
    if (g_verbose) {
        fprintf(stderr, "  bodies {%u, %u} {%u, %u} anchors (%g, %g) (%g, %g) limit %d motor %d spring %d collide %d "
                        "fail at %d null %d expect %d\n",
                a.index, a.generation, b.index, b.generation, la.x, la.y, lb.x, lb.y, limit, motor, spring, collide,
                (int)fail_at, null_def, expect);
        switch (type) {
        case RC_REVOLUTE_JOINT:
            fprintf(stderr, "  angles %.9g .. %.9g motor %.9g at most %.9g spring %.9g Hz ratio %.9g\n", rd.lower_angle,
                    rd.upper_angle, rd.motor_speed, rd.max_motor_torque, rd.hertz, rd.damping_ratio);
            break;
        case RC_DISTANCE_JOINT:
            fprintf(stderr, "  length %.9g in %.9g .. %.9g spring %.9g Hz ratio %.9g motor %.9g at most %.9g\n", dd.length,
                    dd.min_length, dd.max_length, dd.hertz, dd.damping_ratio, dd.motor_speed, dd.max_motor_force);
            break;
        case RC_PRISMATIC_JOINT:
            fprintf(stderr, "  axis (%.9g, %.9g) in %.9g .. %.9g motor %.9g at most %.9g spring %.9g Hz ratio %.9g\n",
                    pd.local_axis_a.x, pd.local_axis_a.y, pd.lower_translation, pd.upper_translation, pd.motor_speed,
                    pd.max_motor_force, pd.hertz, pd.damping_ratio);
            break;
        case RC_WELD_JOINT:
            fprintf(stderr, "  reference %.9g linear %.9g Hz ratio %.9g angular %.9g Hz ratio %.9g\n", wd.reference_angle,
                    wd.linear_hertz, wd.linear_damping_ratio, wd.angular_hertz, wd.angular_damping_ratio);
            break;
        default:
            fprintf(stderr, "  target (%.9g, %.9g) %.9g Hz ratio %.9g at most %.9g\n", md.target.x, md.target.y, md.hertz,
                    md.damping_ratio, md.max_force);
            break;
        }
    }
    int64_t failures = s->alloc.failures;
    if (fail_at > 0) {
        s->alloc.fail_at = s->alloc.calls + fail_at;
    }
    switch (type) {
    case RC_REVOLUTE_JOINT: id = rc_joint_create_revolute(s->world, null_def ? NULL : &rd); break;
    case RC_DISTANCE_JOINT: id = rc_joint_create_distance(s->world, null_def ? NULL : &dd); break;
    case RC_PRISMATIC_JOINT: id = rc_joint_create_prismatic(s->world, null_def ? NULL : &pd); break;
    case RC_WELD_JOINT: id = rc_joint_create_weld(s->world, null_def ? NULL : &wd); break;
    default: id = rc_joint_create_mouse(s->world, null_def ? NULL : &md); break;
    }
    bool refused = rc_joint_id_is_null(id);
    if (!refused) {
        FZ_CHECK(rc_joint_is_valid(s->world, id), "%s: returned an id that is not valid", s->op);
        s->joints[s->njoints++] = id; /* tracked before after() checks the live joints */
    }
    bool out_of_memory = s->alloc.failures > failures;
    after(s, refused, true);
    const char *msg = rc_world_last_error(s->world);
    FZ_CHECK(expect != MUST_REFUSE || refused, "%s: accepted a def that joint.h refuses", s->op);
    FZ_CHECK(expect != MUST_ACCEPT || !refused || out_of_memory, "%s: refused a good def (\"%s\")", s->op, msg);
    if (refused) {
        check_bytes_unchanged(s);
        return;
    }
    /* the new joint reads back as made */
    joint_state j;
    read_joint(s->world, id, &j);
    FZ_CHECK(j.type == type, "%s: made a joint of type %d", s->op, (int)j.type);
    FZ_CHECK(j.user_data == user_data, "%s: user data %p", s->op, j.user_data);
    FZ_CHECK(j.force.x == 0.0f && j.force.y == 0.0f && j.torque == 0.0f, "%s: reaction (%g, %g) %g before a step",
             s->op, j.force.x, j.force.y, j.torque);
    if (type == RC_MOUSE_JOINT) {
        FZ_CHECK(rc_body_id_is_null(j.body_a) && rc_body_id_equals(j.body_b, b),
                 "%s: body_a {%u, %u} body_b {%u, %u}", s->op, j.body_a.index, j.body_a.generation, j.body_b.index,
                 j.body_b.generation);
        FZ_CHECK(rc_vec2_equal(j.target, md.target), "%s: target (%g, %g), made at (%g, %g)", s->op, j.target.x,
                 j.target.y, md.target.x, md.target.y);
    } else {
        FZ_CHECK(rc_body_id_equals(j.body_a, a) && rc_body_id_equals(j.body_b, b), "%s: the bodies are not the def's",
                 s->op);
        FZ_CHECK(rc_vec2_equal(j.anchor_a, la) && rc_vec2_equal(j.anchor_b, lb),
                 "%s: anchors (%g, %g) (%g, %g), made with (%g, %g) (%g, %g)", s->op, j.anchor_a.x, j.anchor_a.y,
                 j.anchor_b.x, j.anchor_b.y, la.x, la.y, lb.x, lb.y);
        FZ_CHECK(j.collide == collide, "%s: collide_connected %d", s->op, j.collide);
    }
    if (type == RC_REVOLUTE_JOINT) {
        FZ_CHECK(j.angle == 0.0f, "%s: a new hinge at angle %g", s->op, j.angle);
    }
    check_awake(s, j.body_a, j.body_b, "making a joint");
}

static void op_joint_set(fz_state *s) {
    uint8_t what = fz_u8(&s->in) % 13u;
    rc_joint_id id = draw_joint(s);
    uint8_t flags = fz_u8(&s->in);
    bool enable = (flags & 1) != 0, in_order = (flags & 6) != 2;
    bool live = rc_joint_is_valid(s->world, id);
    rc_joint_type type = live ? rc_joint_get_type(s->world, id) : RC_REVOLUTE_JOINT;
    rc_body_id a = live ? rc_joint_body_a(s->world, id) : RC_NULL_BODY_ID;
    rc_body_id b = live ? rc_joint_body_b(s->world, id) : RC_NULL_BODY_ID;
    rc_vec2 target = rc_v2(0.0f, 0.0f);
    void *user_data = NULL;
    bool ok = false;
    int values = MUST_REFUSE; /* of the values alone */
    rc_joint_type needs = RC_REVOLUTE_JOINT;
    float x = 0.0f, y = 0.0f, z = 0.0f, w = 0.0f;
    world_bytes(s, &g_bytes_before);
    switch (what) {
    case 0:
    case 7:
        draw_range(s, in_order, &x, &y, false);
        needs = what == 0 ? RC_REVOLUTE_JOINT : RC_PRISMATIC_JOINT;
        values = expect_if(range_ok(x, y));
        before(s, what == 0 ? "rc_revolute_joint_set_limits" : "rc_prismatic_joint_set_limits");
        ok = what == 0 ? rc_revolute_joint_set_limits(s->world, id, enable, x, y)
                       : rc_prismatic_joint_set_limits(s->world, id, enable, x, y);
        break;
    case 1:
    case 6:
    case 8:
        x = draw_num(s);
        y = draw_param(s);
        needs = what == 1 ? RC_REVOLUTE_JOINT : what == 6 ? RC_DISTANCE_JOINT : RC_PRISMATIC_JOINT;
        values = expect_if(isfinite(x) && nonneg(y));
        before(s, what == 1 ? "rc_revolute_joint_set_motor"
                            : what == 6 ? "rc_distance_joint_set_motor" : "rc_prismatic_joint_set_motor");
        ok = what == 1 ? rc_revolute_joint_set_motor(s->world, id, enable, x, y)
             : what == 6 ? rc_distance_joint_set_motor(s->world, id, enable, x, y)
                         : rc_prismatic_joint_set_motor(s->world, id, enable, x, y);
        break;
    case 2:
    case 5:
    case 9:
        x = draw_param(s);
        y = draw_param(s);
        needs = what == 2 ? RC_REVOLUTE_JOINT : what == 5 ? RC_DISTANCE_JOINT : RC_PRISMATIC_JOINT;
        values = expect_if(nonneg(x) && nonneg(y));
        before(s, what == 2 ? "rc_revolute_joint_set_spring"
                            : what == 5 ? "rc_distance_joint_set_spring" : "rc_prismatic_joint_set_spring");
        ok = what == 2 ? rc_revolute_joint_set_spring(s->world, id, enable, x, y)
             : what == 5 ? rc_distance_joint_set_spring(s->world, id, enable, x, y)
                         : rc_prismatic_joint_set_spring(s->world, id, enable, x, y);
        break;
    case 3:
        x = draw_param(s);
        needs = RC_DISTANCE_JOINT;
        values = expect_if(isfinite(x) && x > 0.0f && x <= RC_JOINT_MAX_LENGTH);
        before(s, "rc_distance_joint_set_length");
        ok = rc_distance_joint_set_length(s->world, id, x);
        break;
    case 4:
        draw_range(s, in_order, &x, &y, true);
        needs = RC_DISTANCE_JOINT;
        values = expect_if(range_ok(x, y) && x >= 0.0f && y <= RC_JOINT_MAX_LENGTH);
        before(s, "rc_distance_joint_set_limits");
        ok = rc_distance_joint_set_limits(s->world, id, enable, x, y);
        break;
    case 10:
        x = draw_param(s);
        y = draw_param(s);
        z = draw_param(s);
        w = draw_param(s);
        needs = RC_WELD_JOINT;
        values = expect_if(nonneg(x) && nonneg(y) && nonneg(z) && nonneg(w));
        before(s, "rc_weld_joint_set_springs");
        ok = rc_weld_joint_set_springs(s->world, id, x, y, z, w);
        break;
    case 11:
        target = draw_vec(s);
        if (in_order && rc_body_is_valid(s->world, b)) {
            target = rc_add(rc_body_position(s->world, b), target);
        }
        needs = RC_MOUSE_JOINT;
        values = expect_point(target); /* beyond RC_WORLD_LIMIT: joint.h leaves it open */
        before(s, "rc_mouse_joint_set_target");
        ok = rc_mouse_joint_set_target(s->world, id, target);
        break;
    default:
        user_data = (void *)(uintptr_t)(3000 + fz_u8(&s->in));
        needs = type; /* any type */
        values = MUST_ACCEPT;
        before(s, "rc_joint_set_user_data");
        ok = rc_joint_set_user_data(s->world, id, user_data);
        break;
    }
    after(s, !ok, true);
    int expect = live && type == needs ? values : MUST_REFUSE;
    FZ_CHECK(expect == EITHER || ok == (expect == MUST_ACCEPT),
             "%s: %s on a %s joint of type %d (needs %d) with values %s (\"%s\")", s->op, ok ? "accepted" : "refused",
             live ? "live" : "stale", (int)type, (int)needs,
             values == MUST_ACCEPT ? "it allows" : values == MUST_REFUSE ? "it refuses" : "it leaves open",
             rc_world_last_error(s->world));
    if (!ok) {
        check_bytes_unchanged(s);
        return;
    }
    if (what == 12) {
        FZ_CHECK(rc_joint_user_data(s->world, id) == user_data, "rc_joint_set_user_data: reads back %p",
                 rc_joint_user_data(s->world, id));
        return;
    }
    if (what == 11) {
        rc_vec2 t = rc_mouse_joint_target(s->world, id);
        FZ_CHECK(rc_vec2_equal(t, target), "rc_mouse_joint_set_target: reads back (%g, %g), set (%g, %g)", t.x, t.y,
                 target.x, target.y);
    }
    check_awake(s, a, b, "a joint's setter");
}

static void op_joint_destroy(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    rc_joint_id id = draw_joint(s);
    bool was = rc_joint_is_valid(s->world, id);
    rc_body_id a = was ? rc_joint_body_a(s->world, id) : RC_NULL_BODY_ID;
    rc_body_id b = was ? rc_joint_body_b(s->world, id) : RC_NULL_BODY_ID;
    world_bytes(s, &g_bytes_before);
    before(s, "rc_joint_destroy");
    int64_t failures = s->alloc.failures;
    if (sel & 8) {
        s->alloc.fail_all = true; /* destroying a joint may reserve room to pair its bodies' shapes again */
    }
    rc_joint_destroy(s->world, id);
    bool still = rc_joint_is_valid(s->world, id);
    bool out_of_memory = s->alloc.failures > failures;
    bool errored = after(s, !was || still, true);
    FZ_CHECK(errored == (!was || still), "rc_joint_destroy: error %d, joint was %svalid and is %svalid", errored,
             was ? "" : "not ", still ? "" : "not ");
    FZ_CHECK(!still || out_of_memory, "rc_joint_destroy: refused a live joint (\"%s\")", rc_world_last_error(s->world));
    if (errored) {
        check_bytes_unchanged(s);
        return;
    }
    check_awake(s, a, b, "destroying a joint");
}

/* The getters of a joint id (op_get's part for joints): the error protocol on stale and forged
 * ids (each records a message and answers zero), a typed getter on another type (zero), and
 * answers that fit each other for a live joint (finite numbers: check_joints). */
static void op_get_joint(fz_state *s) {
    rc_joint_id id = draw_joint(s);
    bool live = rc_joint_is_valid(s->world, id);
    before_query(s, "rc_joint_is_valid");
    bool valid = rc_joint_is_valid(s->world, id);
    after_query(s, false, false);
    FZ_CHECK(valid == live && rc_world_last_error(s->world)[0] == '\0', "rc_joint_is_valid: recorded an error");
    rc_joint_type type = RC_REVOLUTE_JOINT;
    /* what every joint has */
    before_query(s, "rc_joint_get_type");
    type = rc_joint_get_type(s->world, id);
    after_query(s, !live, true);
    FZ_CHECK(live || type == RC_REVOLUTE_JOINT, "rc_joint_get_type: %d for a stale id", (int)type);
    before_query(s, "rc_joint_body_a");
    rc_body_id ba = rc_joint_body_a(s->world, id);
    after_query(s, !live, true);
    before_query(s, "rc_joint_body_b");
    rc_body_id bb = rc_joint_body_b(s->world, id);
    after_query(s, !live, true);
    FZ_CHECK(live || (rc_body_id_is_null(ba) && rc_body_id_is_null(bb)), "rc_joint_body_a/b: a body for a stale id");
    before_query(s, "rc_joint_local_anchor_a");
    rc_vec2 aa = rc_joint_local_anchor_a(s->world, id);
    after_query(s, !live, true);
    before_query(s, "rc_joint_local_anchor_b");
    rc_vec2 ab = rc_joint_local_anchor_b(s->world, id);
    after_query(s, !live, true);
    before_query(s, "rc_joint_collide_connected");
    bool collide = rc_joint_collide_connected(s->world, id);
    after_query(s, !live, true);
    before_query(s, "rc_joint_user_data");
    void *ud = rc_joint_user_data(s->world, id);
    after_query(s, !live, true);
    before_query(s, "rc_joint_reaction_force");
    rc_vec2 f = rc_joint_reaction_force(s->world, id);
    after_query(s, !live, true);
    before_query(s, "rc_joint_reaction_torque");
    float t = rc_joint_reaction_torque(s->world, id);
    after_query(s, !live, true);
    if (!live) {
        FZ_CHECK(aa.x == 0.0f && aa.y == 0.0f && ab.x == 0.0f && ab.y == 0.0f && !collide && ud == NULL &&
                     f.x == 0.0f && f.y == 0.0f && t == 0.0f,
                 "joint getters: a stale id answered something else than zero");
    } else {
        FZ_CHECK(vfinite(aa) && vfinite(ab) && vfinite(f) && isfinite(t), "joint getters: not finite");
    }
    /* the typed getters, on a joint of any type */
    static const rc_joint_type typed[9] = {RC_REVOLUTE_JOINT, RC_REVOLUTE_JOINT, RC_REVOLUTE_JOINT,
                                           RC_DISTANCE_JOINT, RC_PRISMATIC_JOINT, RC_PRISMATIC_JOINT,
                                           RC_MOUSE_JOINT,    RC_MOUSE_JOINT,    RC_MOUSE_JOINT};
    static const char *const names[9] = {"rc_revolute_joint_angle",        "rc_revolute_joint_speed",
                                         "rc_revolute_joint_motor_torque", "rc_distance_joint_current_length",
                                         "rc_prismatic_joint_translation", "rc_prismatic_joint_speed",
                                         "rc_mouse_joint_target",          "rc_mouse_joint_target",
                                         "rc_mouse_joint_target"};
    uint8_t k = fz_u8(&s->in) % 9u;
    bool right = live && type == typed[k];
    float v = 0.0f, v2 = 0.0f;
    before_query(s, names[k]);
    switch (k) {
    case 0: v = rc_revolute_joint_angle(s->world, id); break;
    case 1: v = rc_revolute_joint_speed(s->world, id); break;
    case 2: v = rc_revolute_joint_motor_torque(s->world, id); break;
    case 3: v = rc_distance_joint_current_length(s->world, id); break;
    case 4: v = rc_prismatic_joint_translation(s->world, id); break;
    case 5: v = rc_prismatic_joint_speed(s->world, id); break;
    default: {
        rc_vec2 target = rc_mouse_joint_target(s->world, id);
        v = target.x;
        v2 = target.y;
        break;
    }
    }
    /* a stale id: a message; another type: zero, a message or none */
    after_query(s, !right, !live);
    FZ_CHECK(right || (v == 0.0f && v2 == 0.0f), "%s: answered %g %g for a joint that is not of its type", s->op, v, v2);
    FZ_CHECK(!right || (isfinite(v) && isfinite(v2)), "%s: answered %g %g", s->op, v, v2);
    FZ_CHECK(k != 3 || !right || v >= 0.0f, "%s: a length of %g", s->op, v);
}

/* With FZ_VERBOSE: the bodies and shapes the harness tracks, before a step or a preview. */
static void dump_world(const fz_state *s) {
    if (!g_verbose) {
        return;
    }
    for (int i = 0; i < s->nbodies; ++i) {
        if (rc_body_is_valid(s->world, s->bodies[i])) {
            rc_transform xf = rc_body_transform(s->world, s->bodies[i]);
            rc_vec2 v = rc_body_linear_velocity(s->world, s->bodies[i]);
            fprintf(stderr, "    body %d (index %u) type %d awake %d at (%.9g, %.9g) q (%.9g, %.9g) v (%.9g, %.9g) w %.9g\n",
                    i, s->bodies[i].index, (int)rc_body_get_type(s->world, s->bodies[i]),
                    (int)rc_body_is_awake(s->world, s->bodies[i]), xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y,
                    rc_body_angular_velocity(s->world, s->bodies[i]));
        }
    }
    for (int i = 0; i < s->nshapes; ++i) {
        if (rc_shape_is_valid(s->world, s->shapes[i])) {
            rc_aabb b = rc_shape_aabb(s->world, s->shapes[i]);
            fprintf(stderr, "    shape %d type %d box (%.9g, %.9g)-(%.9g, %.9g)\n", i,
                    (int)rc_shape_get_type(s->world, s->shapes[i]), b.lower.x, b.lower.y, b.upper.x, b.upper.y);
        }
    }
    for (int i = 0; i < s->njoints; ++i) {
        if (rc_joint_is_valid(s->world, s->joints[i])) {
            joint_state j;
            read_joint(s->world, s->joints[i], &j);
            fprintf(stderr, "    joint %d type %d bodies %u %u anchors (%.9g, %.9g) (%.9g, %.9g) reaction (%.9g, %.9g) %.9g\n",
                    i, (int)j.type, j.body_a.index, j.body_b.index, j.anchor_a.x, j.anchor_a.y, j.anchor_b.x,
                    j.anchor_b.y, j.force.x, j.force.y, j.torque);
        }
    }
}

/* The messages of the values the pre-solve callback set and the world refused: one each, and
 * not the call's own (whose message and error value are checked as before). */
static void forget_pre_solve_refusals(fz_state *s) {
    if (s->pre_solve_bad > 0) {
        FZ_CHECK(s->errors.calls >= s->pre_solve_bad, "%s: %d values refused with %d messages", s->op,
                 s->pre_solve_bad, s->errors.calls);
        s->errors.calls -= s->pre_solve_bad;
        if (s->errors.calls == 0) {
            rc_world_clear_error(s->world);
        }
    }
    s->pre_solve_bad = 0;
    s->pre_solve_calls = 0;
}

static void op_step(fz_state *s) {
    uint8_t sel = fz_u8(&s->in);
    float dt;
    switch (sel % 4u) {
    case 0: dt = 1.0f / 60.0f; break;
    case 1: dt = (float)(fz_u8(&s->in) + 1u) / 256.0f; break;
    case 2: dt = draw_num(s); break;
    default: {
        static const float odd[8] = {NAN, INFINITY, -INFINITY, 0.0f, -1.0f, 1.0e-45f, RC_MAX_TIME_STEP, 1.0e20f};
        uint8_t k = fz_u8(&s->in);
        dt = k < 128 ? odd[k & 7u] : fz_float(&s->in);
        break;
    }
    }
    int n = 1 + (sel >> 4) % 4u;
    for (int i = 0; i < n && s->steps < MAX_STEPS; ++i, ++s->steps) {
        before(s, "rc_world_step");
        if (g_verbose) {
            fprintf(stderr, "  dt %g\n", dt);
        }
        dump_world(s);
        bool ok = rc_world_step(s->world, dt);
        forget_pre_solve_refusals(s);
        after(s, !ok, true);
        if (!ok) {
            break;
        }
        /* jointed dynamic bodies sleep and wake together (one island) */
        for (int k = 0; k < s->njoints; ++k) {
            rc_joint_id j = s->joints[k];
            if (!rc_joint_is_valid(s->world, j) || rc_joint_get_type(s->world, j) == RC_MOUSE_JOINT) {
                continue;
            }
            rc_body_id a = rc_joint_body_a(s->world, j), b = rc_joint_body_b(s->world, j);
            if (rc_body_get_type(s->world, a) == RC_DYNAMIC && rc_body_get_type(s->world, b) == RC_DYNAMIC) {
                FZ_CHECK(rc_body_is_awake(s->world, a) == rc_body_is_awake(s->world, b),
                         "rc_world_step: joint %d's bodies {%u, %u} (awake %d) and {%u, %u} (awake %d) do not sleep "
                         "together",
                         k, a.index, a.generation, rc_body_is_awake(s->world, a), b.index, b.generation,
                         rc_body_is_awake(s->world, b));
            }
        }
        /* the events of the step */
        rc_contact_events ce = rc_world_contact_events(s->world);
        for (int k = 0; k < ce.begin_count; ++k) {
            const rc_manifold *m = &ce.begin[k].manifold;
            FZ_CHECK(rc_shape_is_valid(s->world, ce.begin[k].shape_a) && rc_shape_is_valid(s->world, ce.begin[k].shape_b),
                     "contact begin event names a shape that is not live");
            FZ_CHECK(m->point_count >= 0 && m->point_count <= 2, "contact begin: %d points", m->point_count);
            if (m->point_count > 0) {
                check_unit(s, m->normal, "contact begin");
            }
            for (int p = 0; p < m->point_count; ++p) {
                FZ_CHECK(vfinite(m->points[p]) && isfinite(m->depths[p]), "contact begin: point %d not finite", p);
            }
        }
        for (int k = 0; k < ce.end_count; ++k) {
            const rc_manifold *m = &ce.end[k].manifold;
            FZ_CHECK(m->point_count >= 0 && m->point_count <= 2, "contact end: %d points", m->point_count);
        }
        rc_sensor_events se = rc_world_sensor_events(s->world);
        for (int k = 0; k < se.begin_count; ++k) {
            FZ_CHECK(rc_shape_is_valid(s->world, se.begin[k].sensor) && rc_shape_is_valid(s->world, se.begin[k].visitor),
                     "sensor begin event names a shape that is not live");
            FZ_CHECK(rc_shape_is_sensor(s->world, se.begin[k].sensor), "sensor begin event: the sensor is not one");
        }
        const rc_impact_event *impacts = NULL;
        int count = rc_world_impact_events(s->world, &impacts);
        FZ_CHECK(count >= 0 && (count == 0 || impacts != NULL), "rc_world_impact_events: %d, %p", count,
                 (const void *)impacts);
        for (int k = 0; k < count; ++k) {
            const rc_impact_event *e = &impacts[k];
            FZ_CHECK(rc_body_is_valid(s->world, e->projectile), "impact of a body that is not live");
            FZ_CHECK(rc_shape_is_valid(s->world, e->shape), "impact on a shape that is not live");
            FZ_CHECK(e->approach_speed > 0.0f && isfinite(e->approach_speed), "impact: approach speed %g",
                     e->approach_speed);
            FZ_CHECK(vfinite(e->point), "impact: point (%g, %g)", e->point.x, e->point.y);
            check_unit(s, e->normal, "impact");
        }
    }
}

typedef struct cast_ctx {
    fz_state *s;
    rc_vec2 origin, translation;
    float radius;
    int calls;
} cast_ctx;

/* From inside a callback: a change to a live joint, or a new one (refused: the world is locked). */
static bool try_joint_change_inside(fz_state *s, uint8_t what, rc_body_id body, rc_joint_id joint) {
    bool accepted = false;
    switch (what & 7u) {
    case 0:
        rc_joint_destroy(s->world, joint);
        accepted = !rc_joint_is_valid(s->world, joint);
        break;
    case 1: {
        rc_weld_joint_def wd = rc_weld_joint_default_def();
        wd.body_a = body;
        wd.body_b = rc_joint_body_b(s->world, joint);
        accepted = !rc_joint_id_is_null(rc_joint_create_weld(s->world, &wd));
        break;
    }
    case 2: {
        rc_mouse_joint_def md = rc_mouse_joint_default_def();
        md.body = rc_joint_body_b(s->world, joint);
        accepted = !rc_joint_id_is_null(rc_joint_create_mouse(s->world, &md));
        break;
    }
    case 3: accepted = rc_joint_set_user_data(s->world, joint, NULL); break;
    case 4: accepted = rc_revolute_joint_set_motor(s->world, joint, true, 1.0f, 10.0f); break;
    case 5: accepted = rc_distance_joint_set_length(s->world, joint, 2.0f); break;
    case 6: accepted = rc_mouse_joint_set_target(s->world, joint, rc_v2(0.0f, 0.0f)); break;
    default: accepted = rc_weld_joint_set_springs(s->world, joint, 1.0f, 1.0f, 1.0f, 1.0f); break;
    }
    return accepted;
}

/* From inside a query's callback: a change to the world, which must be refused (the world is
 * locked; the query then goes on unchanged, which after_query checks). */
static void try_change_inside(fz_state *s, rc_body_id body, rc_shape_id shape) {
    uint8_t what = fz_u8(&s->in);
    if (what < 192) {
        return;
    }
    bool accepted = false;
    int calls = s->errors.calls;
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    rc_joint_id joint = s->njoints > 0 ? s->joints[(what >> 4) % s->njoints] : RC_NULL_JOINT_ID;
    if ((what & 8u) && rc_joint_is_valid(s->world, joint)) {
        /* joints are made, changed and destroyed only between steps too */
        accepted = try_joint_change_inside(s, what, body, joint);
    } else {
        switch (what & 7u) {
        case 0:
            rc_body_destroy(s->world, body);
            accepted = !rc_body_is_valid(s->world, body);
            break;
        case 1: accepted = !rc_body_id_is_null(rc_body_create(s->world, &bd)); break;
        case 2: accepted = rc_world_step(s->world, 1.0f / 60.0f); break;
        case 3: accepted = rc_body_set_transform(s->world, body, rc_v2(1, 2), 0.5f); break;
        case 4:
            rc_shape_destroy(s->world, shape);
            accepted = !rc_shape_is_valid(s->world, shape);
            break;
        case 5: accepted = !rc_shape_id_is_null(rc_shape_create_circle(s->world, body, &sd, 1.0f)); break;
        case 6: accepted = rc_world_set_gravity(s->world, rc_v2(0, 1)); break;
        default:
            rc_world_destroy(s->world);
            break;
        }
    }
    FZ_CHECK(!accepted, "%s: a change inside the callback went through", s->op);
    FZ_CHECK(strstr(rc_world_last_error(s->world), "locked") != NULL, "%s: a change inside the callback: \"%s\"", s->op,
             rc_world_last_error(s->world));
    FZ_CHECK(s->errors.calls == calls + 1, "%s: a change refused inside the callback called the error callback %d times",
             s->op, s->errors.calls - calls);
    /* that refusal is not the query's own: the query's checks see the state from before it */
    s->errors.calls = calls;
    rc_world_clear_error(s->world);
}

/* The pre-solve callback: checks what it is told, may try to change the world (refused), and
 * keeps, cancels or changes the hit, with values the world may have to refuse. */
static bool fz_pre_solve(rc_pre_solve *hit, void *context) {
    fz_state *s = context;
    s->pre_solve_calls++;
    if (g_verbose) {
        fprintf(stderr, "  pre-solve: impact %d preview %d point (%g, %g) e %g mu %g\n", hit->impact, hit->preview,
                hit->point.x, hit->point.y, hit->restitution, hit->friction);
    }
    FZ_CHECK(s->pre_solve_calls <= 200000, "%s: the pre-solve callback was called %d times", s->op, s->pre_solve_calls);
    FZ_CHECK(vfinite(hit->point) && isfinite(hit->approach_speed), "%s: pre-solve point (%g, %g), approach %g", s->op,
             hit->point.x, hit->point.y, hit->approach_speed);
    check_unit(s, hit->normal, "pre-solve");
    FZ_CHECK(hit->point_count == 1 || (!hit->impact && hit->point_count == 2), "%s: pre-solve with %d points", s->op,
             hit->point_count);
    FZ_CHECK(isfinite(hit->restitution) && hit->restitution >= 0.0f && isfinite(hit->friction) && hit->friction >= 0.0f,
             "%s: pre-solve materials %g %g", s->op, hit->restitution, hit->friction);
    if (!hit->preview) {
        FZ_CHECK(rc_body_is_valid(s->world, hit->body_a) && rc_body_is_valid(s->world, hit->body_b),
                 "%s: pre-solve names a body that is not live", s->op);
        FZ_CHECK(rc_shape_is_valid(s->world, hit->shape_b), "%s: pre-solve names a shape that is not live", s->op);
    }
    /* the preview's body has no id: the other side's (a contact's a, an impact's b) are live */
    bool b_side = !rc_body_id_is_null(hit->body_b);
    try_change_inside(s, b_side ? hit->body_b : hit->body_a, b_side ? hit->shape_b : hit->shape_a);
    uint8_t act = fz_u8(&s->in);
    if (act & 1) {
        hit->restitution = draw_restitution(s);
        s->pre_solve_bad += isfinite(hit->restitution) && hit->restitution >= 0.0f ? 0 : 1;
    }
    if (act & 2) {
        hit->friction = draw_num(s);
        s->pre_solve_bad += isfinite(hit->friction) && hit->friction >= 0.0f ? 0 : 1;
    }
    return (act & 12) != 12;
}

static float cast_cb(const rc_ray_hit *hit, void *context) {
    cast_ctx *c = context;
    c->calls++;
    try_change_inside(c->s, hit->body, hit->shape);
    FZ_CHECK(c->calls <= 4 * MAX_SHAPES + 64, "%s: the callback was called %d times", c->s->op, c->calls);
    check_hit(c->s, c->origin, c->translation, hit, c->radius == 0.0f);
    static const float answers[8] = {-1.0f, 0.0f, 0.5f, 1.0f, 1.0f, 0.25f, 0.9f, -1.0f};
    return answers[fz_u8(&c->s->in) % 8u];
}

typedef struct overlap_ctx {
    fz_state *s;
    int calls;
    int stop_after;
} overlap_ctx;

static bool overlap_cb(rc_shape_id shape, rc_body_id body, void *context) {
    overlap_ctx *c = context;
    c->calls++;
    try_change_inside(c->s, body, shape);
    FZ_CHECK(rc_shape_is_valid(c->s->world, shape), "%s: reported a shape that is not live", c->s->op);
    FZ_CHECK(rc_body_id_equals(rc_shape_body(c->s->world, shape), body), "%s: reported the wrong body", c->s->op);
    return c->calls < c->stop_after;
}

static bool same_hit_bits(const rc_ray_hit *a, const rc_ray_hit *b) {
    return memcmp(&a->t, &b->t, sizeof a->t) == 0 && memcmp(&a->point.x, &b->point.x, sizeof(float)) == 0 &&
           memcmp(&a->point.y, &b->point.y, sizeof(float)) == 0 && memcmp(&a->normal.x, &b->normal.x, sizeof(float)) == 0 &&
           memcmp(&a->normal.y, &b->normal.y, sizeof(float)) == 0 && a->started_inside == b->started_inside &&
           rc_shape_id_equals(a->shape, b->shape) && rc_body_id_equals(a->body, b->body);
}

/* A batch of rays (each hit what the single cast gives, each miss as documented), or the
 * contact data of a shape or a body (manifolds with unit normals and finite points). */
static void query_batch_or_contacts(fz_state *s, rc_vec2 o, rc_vec2 d, rc_query_filter qf) {
    uint8_t pick = fz_u8(&s->in);
    if (pick % 2u == 0u) {
        rc_ray_input rays[6];
        rc_ray_hit hits[6];
        int32_t count = (int32_t)(pick / 2u % 7u) - (pick >= 250u ? 8 : 0); /* 0..6, or negative */
        for (int32_t i = 0; i < 6; ++i) {
            rays[i].origin = i == 0 ? o : draw_vec(s);
            rays[i].translation = i == 0 ? d : draw_vec(s);
        }
        before_query(s, "rc_world_cast_rays");
        int32_t n = rc_world_cast_rays(s->world, rays, count, qf, fz_bool(&s->in) ? hits : NULL);
        after_query(s, n < 0, true);
        FZ_CHECK(n >= -1 && n <= (count > 0 ? count : 0), "rc_world_cast_rays: %d hits of %d rays", n, count);
        for (int32_t i = 0; i < n && n >= 0 && i < count; ++i) {
            rc_ray_hit single;
            memset(&single, 0, sizeof single);
            rc_world_clear_error(s->world);
            bool hit = rc_world_cast_ray_filtered(s->world, rays[i].origin, rays[i].translation, qf, &single);
            if (hit) {
                FZ_CHECK(same_hit_bits(&single, &hits[i]), "rc_world_cast_rays: ray %d differs from its single cast", i);
            } else {
                FZ_CHECK(rc_shape_id_is_null(hits[i].shape) && hits[i].t == 1.0f,
                         "rc_world_cast_rays: ray %d missed alone but not in the batch", i);
                check_unit(s, hits[i].normal, "miss");
            }
        }
        return;
    }
    rc_contact_data data[8];
    int32_t capacity = (int32_t)(pick / 2u % 10u) - 1; /* -1..8 */
    bool of_body = fz_bool(&s->in);
    before_query(s, of_body ? "rc_body_contact_data" : "rc_shape_contact_data");
    int32_t n = of_body ? rc_body_contact_data(s->world, draw_body(s), capacity > 0 ? data : NULL, capacity)
                        : rc_shape_contact_data(s->world, draw_shape(s), capacity > 0 ? data : NULL, capacity);
    after_query(s, n < 0, true);
    for (int32_t i = 0; i < n && i < capacity; ++i) {
        const rc_manifold *m = &data[i].manifold;
        FZ_CHECK(rc_shape_is_valid(s->world, data[i].shape_a) && rc_shape_is_valid(s->world, data[i].shape_b) &&
                     m->point_count >= 0 && m->point_count <= 2,
                 "%s: contact %d of stale shapes or %d points", s->op, i, m->point_count);
        if (m->point_count > 0) {
            check_unit(s, m->normal, "contact");
        }
        for (int k = 0; k < m->point_count; ++k) {
            FZ_CHECK(vfinite(m->points[k]) && isfinite(m->depths[k]) && m->depths[k] >= 0.0f,
                     "%s: contact %d point %d (%g, %g) depth %g", s->op, i, k, m->points[k].x, m->points[k].y,
                     m->depths[k]);
        }
    }
}

static void op_query(fz_state *s) {
    uint8_t what = fz_u8(&s->in) % 12u;
    rc_vec2 o = draw_vec(s), d = draw_vec(s);
    rc_query_filter qf = draw_query_filter(s);
    float r = draw_num(s);
    rc_ray_hit h;
    switch (what) {
    case 0:
    case 1: {
        before_query(s, "rc_world_cast_ray");
        bool hit = what == 0 ? rc_world_cast_ray(s->world, o, d, &h) : rc_world_cast_ray_filtered(s->world, o, d, qf, &h);
        after_query(s, !hit, false);
        if (hit) {
            check_hit(s, o, d, &h, true);
        }
        break;
    }
    case 2:
    case 3: {
        before_query(s, "rc_world_cast_circle");
        bool hit = what == 2 ? rc_world_cast_circle(s->world, o, r, d, &h)
                             : rc_world_cast_circle_filtered(s->world, o, r, d, qf, &h);
        after_query(s, !hit, false);
        if (hit) {
            check_hit(s, o, d, &h, false);
        }
        break;
    }
    case 4:
    case 5: {
        cast_ctx c = {s, o, d, what == 4 ? 0.0f : r, 0};
        before_query(s, what == 4 ? "rc_world_cast_ray_all" : "rc_world_cast_circle_all");
        bool ok = what == 4 ? rc_world_cast_ray_all(s->world, o, d, qf, cast_cb, &c)
                            : rc_world_cast_circle_all(s->world, o, r, d, qf, cast_cb, &c);
        after_query(s, !ok, false);
        break;
    }
    case 6:
    case 7:
    case 8: {
        overlap_ctx c = {s, 0, 1 + fz_u8(&s->in) % 8u};
        int32_t n;
        if (what == 6) {
            rc_aabb box = {o, rc_add(o, d)};
            before_query(s, "rc_world_overlap_aabb");
            n = rc_world_overlap_aabb(s->world, box, qf, fz_bool(&s->in) ? NULL : overlap_cb, &c);
        } else if (what == 7) {
            before_query(s, "rc_world_overlap_point");
            n = rc_world_overlap_point(s->world, o, qf, fz_bool(&s->in) ? NULL : overlap_cb, &c);
        } else {
            before_query(s, "rc_world_overlap_circle");
            n = rc_world_overlap_circle(s->world, o, r, qf, fz_bool(&s->in) ? NULL : overlap_cb, &c);
        }
        after_query(s, n < 0, true);
        FZ_CHECK(n >= -1 && n <= MAX_SHAPES * 16, "%s: returned %d", s->op, n);
        break;
    }
    case 10:
    case 11: {
        /* a regular polygon at o, or one with drawn vertices (most of them bad) */
        rc_polygon poly = rc_make_regular_polygon(3 + fz_u8(&s->in) % 6u, r, draw_num(s));
        if (fz_bool(&s->in)) {
            for (int i = 0; i < poly.count; ++i) {
                poly.vertices[i] = rc_add(poly.vertices[i], o);
            }
            poly.centroid = rc_add(poly.centroid, o);
        } else if (poly.count > 0) {
            poly.vertices[fz_u8(&s->in) % (unsigned)poly.count] = draw_vec(s);
        }
        if (what == 10) {
            before_query(s, "rc_world_cast_polygon");
            bool hit = rc_world_cast_polygon(s->world, &poly, d, qf, &h);
            after_query(s, !hit, false);
            if (hit) {
                FZ_CHECK(h.t >= 0.0f && h.t <= 1.0f && rc_vec2_is_finite(h.point) &&
                             fabsf(rc_length(h.normal) - 1.0f) < 1e-3f && rc_shape_is_valid(s->world, h.shape),
                         "rc_world_cast_polygon: t %g point (%g, %g) normal (%g, %g)", (double)h.t, (double)h.point.x,
                         (double)h.point.y, (double)h.normal.x, (double)h.normal.y);
            }
        } else {
            overlap_ctx c = {s, 0, 1 + fz_u8(&s->in) % 8u};
            before_query(s, "rc_world_overlap_polygon");
            int32_t n = rc_world_overlap_polygon(s->world, &poly, qf, fz_bool(&s->in) ? NULL : overlap_cb, &c);
            after_query(s, n < 0, true);
            FZ_CHECK(n >= -1 && n <= MAX_SHAPES * 16, "%s: returned %d", s->op, n);
        }
        break;
    }
    case 9:
        if (fz_u8(&s->in) % 3u != 0u) {
            query_batch_or_contacts(s, o, d, qf);
            break;
        }
        /* fall through: a shape's own cast */
    default: {
        rc_shape_id shape = draw_shape(s);
        before_query(s, "rc_shape_cast_ray");
        bool hit = rc_shape_cast_ray(s->world, shape, o, d, &h);
        after_query(s, !hit, false);
        if (hit) {
            check_hit(s, o, d, &h, true);
            /* a chain answers with the wall (segment) that was struck */
            FZ_CHECK(rc_shape_id_equals(h.shape, shape) || rc_shape_id_equals(rc_shape_chain(s->world, h.shape), shape),
                     "rc_shape_cast_ray: hit another shape");
        }
        break;
    }
    }
}

static void op_predict(fz_state *s) {
    rc_prediction_def d = rc_prediction_default_def();
    uint8_t flags = fz_u8(&s->in);
    d.position = draw_vec(s);
    d.velocity = draw_vec(s);
    d.radius = (flags & 1) ? 0.0f : draw_num(s);
    if (flags & 2) {
        d.restitution = draw_restitution(s);
        d.friction = draw_num(s);
        d.gravity_scale = draw_num(s);
    }
    d.bullet = (flags & 4) != 0;
    if (flags & 8) {
        d.max_bounces = (int8_t)fz_u8(&s->in);
    }
    if (flags & 16) {
        d.ignore_body = draw_body(s);
    }
    if (flags & 32) {
        d.dt = draw_num(s);
    }
    d.steps = (flags & 64) ? (int8_t)fz_u8(&s->in) % (MAX_STEPS + 1) : 8;
    int32_t cap = fz_u8(&s->in) % 5u;
    rc_vec2 *positions = d.steps > 0 ? malloc(sizeof(rc_vec2) * (size_t)d.steps) : NULL;
    rc_predicted_bounce *bounces = cap > 0 ? malloc(sizeof(rc_predicted_bounce) * (size_t)cap) : NULL;
    before_query(s, "rc_world_predict");
    if (g_verbose) {
        fprintf(stderr, "  p (%g, %g) v (%g, %g) r %g e %g mu %g gs %g bullet %d bounces %d dt %g steps %d cap %d\n",
                d.position.x, d.position.y, d.velocity.x, d.velocity.y, d.radius, d.restitution, d.friction,
                d.gravity_scale, d.bullet, d.max_bounces, d.dt, d.steps, cap);
    }
    dump_world(s);
    int32_t n = rc_world_predict(s->world, &d, positions, bounces, cap);
    forget_pre_solve_refusals(s);
    after_query(s, n < 0, true);
    if (n >= 0) {
        for (int i = 0; i < d.steps; ++i) {
            FZ_CHECK(vfinite(positions[i]), "rc_world_predict: position %d is (%g, %g)", i, positions[i].x,
                     positions[i].y);
        }
        for (int i = 0; i < n && i < cap; ++i) {
            FZ_CHECK(bounces[i].step >= 0 && bounces[i].step < d.steps, "rc_world_predict: bounce in step %d of %d",
                     bounces[i].step, d.steps);
            FZ_CHECK(rc_shape_is_valid(s->world, bounces[i].shape), "rc_world_predict: bounce off a shape not live");
            FZ_CHECK(vfinite(bounces[i].point), "rc_world_predict: bounce point not finite");
            check_unit(s, bounces[i].normal, "predicted bounce");
        }
    }
    free(positions);
    free(bounces);
}

static void op_move(fz_state *s) {
    uint8_t flags = fz_u8(&s->in);
    rc_mover_def d = rc_mover_default_def();
    d.position = draw_vec(s);
    d.radius = draw_num(s);
    d.delta = draw_vec(s);
    if (flags & 1) {
        d.filter = draw_query_filter(s);
    }
    if (flags & 2) {
        d.ignore_body = draw_body(s);
    }
    if (flags & 4) {
        d.skin = draw_num(s);
    }
    if (flags & 8) {
        before_query(s, "rc_world_move_circle");
        rc_vec2 p = rc_world_move_circle(s->world, d.position, d.radius, d.delta);
        const char *msg = rc_world_last_error(s->world);
        after_query(s, true, false);
        if (msg[0] != '\0') {
            rc_vec2 expect = vfinite(d.position) ? d.position : rc_v2(0.0f, 0.0f);
            FZ_CHECK(rc_vec2_equal(p, expect), "rc_world_move_circle: refused but answered (%g, %g)", p.x, p.y);
            return;
        }
        FZ_CHECK(vfinite(p), "rc_world_move_circle: (%g, %g)", p.x, p.y);
        return;
    }
    rc_mover_result r, untouched;
    memset(&r, 0x5A, sizeof r);
    untouched = r;
    before_query(s, "rc_world_move_circle_ex");
    if (g_verbose) {
        fprintf(stderr, "  p (%g, %g) r %g delta (%g, %g) skin %g\n", d.position.x, d.position.y, d.radius, d.delta.x,
                d.delta.y, d.skin);
    }
    bool ok = rc_world_move_circle_ex(s->world, (flags & 16) ? NULL : &d, &r);
    after_query(s, !ok, true);
    if (!ok) {
        FZ_CHECK(memcmp(&r, &untouched, sizeof r) == 0, "rc_world_move_circle_ex: refused but wrote the result");
        return;
    }
    FZ_CHECK(vfinite(r.position), "rc_world_move_circle_ex: (%g, %g)", r.position.x, r.position.y);
    double mx = (double)r.position.x - d.position.x, my = (double)r.position.y - d.position.y;
    double moved = sqrt(mx * mx + my * my);
    double asked = sqrt((double)d.delta.x * d.delta.x + (double)d.delta.y * d.delta.y);
    FZ_CHECK(moved <= asked * (1.0 + 1.0e-6), "rc_world_move_circle_ex: moved %.9g, asked %.9g", moved, asked);
    FZ_CHECK(r.touch_count >= 0 && r.touch_count <= RC_MAX_MOVER_TOUCHES, "rc_world_move_circle_ex: %d touches",
             r.touch_count);
    for (int i = 0; i < r.touch_count; ++i) {
        if (g_verbose) {
            rc_shape_type type = rc_shape_get_type(s->world, r.touches[i].shape);
            fprintf(stderr, "  touch %d: shape %u (type %d) point (%g, %g) normal (%g, %g) separation %g\n", i,
                    r.touches[i].shape.index, (int)type, r.touches[i].point.x, r.touches[i].point.y,
                    r.touches[i].normal.x, r.touches[i].normal.y, r.touches[i].separation);
            rc_polygon poly;
            if (rc_shape_world_polygon(s->world, r.touches[i].shape, &poly)) {
                for (int k = 0; k < poly.count; ++k) {
                    fprintf(stderr, "    v[%d] = (%.9g, %.9g) n (%.9g, %.9g)\n", k, poly.vertices[k].x,
                            poly.vertices[k].y, poly.normals[k].x, poly.normals[k].y);
                }
            }
        }
        FZ_CHECK(rc_shape_is_valid(s->world, r.touches[i].shape), "mover touch: shape not live");
        FZ_CHECK(rc_body_id_equals(rc_shape_body(s->world, r.touches[i].shape), r.touches[i].body),
                 "mover touch: wrong body");
        check_unit(s, r.touches[i].normal, "mover touch");
        FZ_CHECK(vfinite(r.touches[i].point) && isfinite(r.touches[i].separation), "mover touch: not finite");
    }
}

/* Getters on any id: the error protocol, and answers that fit each other. */
static void op_get(fz_state *s) {
    uint8_t what = fz_u8(&s->in) % 8u;
    rc_shape_id h = draw_shape(s);
    rc_body_id b = draw_body(s);
    rc_vec2 p = draw_vec(s);
    bool live = rc_shape_is_valid(s->world, h);
    switch (what) {
    case 0: {
        rc_circle c;
        before_query(s, "rc_shape_world_circle");
        bool ok = rc_shape_world_circle(s->world, h, &c);
        after_query(s, !ok, true);
        if (ok) {
            FZ_CHECK(vfinite(c.center) && isfinite(c.radius) && c.radius > 0.0f, "rc_shape_world_circle: r %g",
                     c.radius);
        }
        break;
    }
    case 1: {
        rc_polygon poly;
        before_query(s, "rc_shape_world_polygon");
        bool ok = rc_shape_world_polygon(s->world, h, &poly);
        after_query(s, !ok, true);
        if (ok) {
            FZ_CHECK(poly.count >= 3 && poly.count <= RC_MAX_POLYGON_VERTICES, "rc_shape_world_polygon: %d",
                     poly.count);
            for (int i = 0; i < poly.count; ++i) {
                FZ_CHECK(vfinite(poly.vertices[i]), "rc_shape_world_polygon: vertex not finite");
                check_unit(s, poly.normals[i], "polygon");
            }
        }
        break;
    }
    case 2: {
        before_query(s, "rc_shape_test_point");
        bool in = rc_shape_test_point(s->world, h, p);
        after_query(s, !in, false);
        break;
    }
    case 3: {
        rc_shape_id ids[4];
        int32_t cap = fz_u8(&s->in) % 5u;
        before_query(s, "rc_world_sectors_at");
        int32_t n = rc_world_sectors_at(s->world, p, cap ? ids : NULL, cap);
        after_query(s, n < 0, true);
        for (int i = 0; i < n && i < cap; ++i) {
            FZ_CHECK(rc_shape_is_valid(s->world, ids[i]) && rc_shape_get_type(s->world, ids[i]) == RC_SHAPE_TYPE_CHAIN,
                     "rc_world_sectors_at: not a live chain");
        }
        break;
    }
    case 4: {
        rc_vec2 pts[MAX_CHAIN_POINTS + 1];
        int32_t cap = fz_u8(&s->in) % (MAX_CHAIN_POINTS + 2);
        before_query(s, "rc_shape_chain_points");
        int32_t n = rc_shape_chain_points(s->world, h, cap ? pts : NULL, cap);
        after_query(s, n < 0, true);
        for (int i = 0; i < n && i < cap; ++i) {
            FZ_CHECK(vfinite(pts[i]), "rc_shape_chain_points: not finite");
        }
        rc_vec2 a, e;
        before_query(s, "rc_shape_world_segment");
        bool ok = rc_shape_world_segment(s->world, h, &a, &e);
        after_query(s, !ok, true);
        FZ_CHECK(!ok || (vfinite(a) && vfinite(e)), "rc_shape_world_segment: not finite");
        before_query(s, "rc_shape_chain");
        rc_shape_id chain = rc_shape_chain(s->world, h);
        after_query(s, rc_shape_id_is_null(chain), true);
        FZ_CHECK(!ok || rc_shape_is_valid(s->world, chain), "rc_shape_chain: a segment without a live chain");
        break;
    }
    case 5: {
        rc_shape_id ids[8];
        int32_t cap = fz_u8(&s->in) % 9u;
        before_query(s, "rc_shape_contacts");
        int32_t n = rc_shape_contacts(s->world, h, cap ? ids : NULL, cap);
        after_query(s, n < 0, true);
        FZ_CHECK(n < 0 || live, "rc_shape_contacts: answered for a shape that is not live");
        for (int i = 0; i < n && i < cap; ++i) {
            FZ_CHECK(rc_shape_is_valid(s->world, ids[i]), "rc_shape_contacts: a shape that is not live");
        }
        break;
    }
    case 6: {
        rc_shape_id ids[8];
        int32_t cap = fz_u8(&s->in) % 9u;
        before_query(s, "rc_body_shapes");
        int32_t n = rc_body_shapes(s->world, b, cap ? ids : NULL, cap);
        after_query(s, n < 0, true);
        for (int i = 0; i < n && i < cap; ++i) {
            FZ_CHECK(rc_shape_is_valid(s->world, ids[i]) && rc_body_id_equals(rc_shape_body(s->world, ids[i]), b),
                     "rc_body_shapes: a shape that is not live or not the body's");
        }
        break;
    }
    default: {
        before_query(s, "rc_body_position");
        rc_vec2 pos = rc_body_position(s->world, b);
        const char *msg = rc_world_last_error(s->world);
        bool errored = msg[0] != '\0';
        after_query(s, true, false);
        FZ_CHECK(errored == !rc_body_is_valid(s->world, b), "rc_body_position: error %d", errored);
        FZ_CHECK(!errored || (pos.x == 0.0f && pos.y == 0.0f), "rc_body_position: refused but answered (%g, %g)",
                 pos.x, pos.y);
        before_query(s, "rc_shape_aabb");
        rc_aabb box = rc_shape_aabb(s->world, h);
        after_query(s, true, false);
        FZ_CHECK(!live || rc_aabb_is_valid(box), "rc_shape_aabb: box (%g, %g)-(%g, %g) of a live shape",
                 box.lower.x, box.lower.y, box.upper.x, box.upper.y);
        break;
    }
    }
}

static void op_world(fz_state *s) {
    uint8_t what = fz_u8(&s->in) % 5u;
    switch (what) {
    case 0: {
        rc_vec2 g = draw_vec(s);
        before(s, "rc_world_set_gravity");
        bool ok = rc_world_set_gravity(s->world, g);
        after(s, !ok, true);
        break;
    }
    case 1: /* the next call's k-th allocation fails */
        s->alloc.fail_at = s->alloc.calls + 1 + fz_u8(&s->in) % 8u;
        break;
    case 2: /* every allocation of the next call fails */
        s->alloc.fail_all = true;
        break;
    case 3: {
        bool set = fz_bool(&s->in);
        before(s, "rc_world_set_pre_solve_callback");
        bool ok = rc_world_set_pre_solve_callback(s->world, set ? fz_pre_solve : NULL, s);
        after(s, !ok, true);
        break;
    }
    default: {
        /* NULL arguments where pointers are expected */
        before(s, "NULL arguments");
        FZ_CHECK(rc_body_id_is_null(rc_body_create(s->world, NULL)), "rc_body_create(NULL def)");
        after(s, true, true);
        before(s, "NULL arguments");
        FZ_CHECK(rc_world_impact_events(s->world, NULL) == -1, "rc_world_impact_events(NULL)");
        after(s, true, false);
        FZ_CHECK(rc_world_step(NULL, 1.0f) == false, "rc_world_step(NULL)");
        /* joints: a NULL def is refused with a message; a NULL world answers zero */
        rc_revolute_joint_def rd = rc_revolute_joint_default_def();
        rc_joint_id any = s->njoints > 0 ? s->joints[0] : RC_NULL_JOINT_ID;
        before(s, "NULL arguments");
        FZ_CHECK(rc_joint_id_is_null(rc_joint_create_weld(s->world, NULL)), "rc_joint_create_weld(NULL def)");
        after(s, true, true);
        FZ_CHECK(rc_joint_id_is_null(rc_joint_create_revolute(NULL, &rd)) && !rc_joint_is_valid(NULL, any) &&
                     rc_body_id_is_null(rc_joint_body_b(NULL, any)) && rc_joint_reaction_torque(NULL, any) == 0.0f &&
                     !rc_distance_joint_set_length(NULL, any, 1.0f),
                 "joint calls on a NULL world");
        rc_joint_destroy(NULL, any);
        break;
    }
    }
}

/* The fuzzer's task system: the ranges on the calling thread, last first, worker indices
 * round the workers; never a handle to finish. */
static void *fz_enqueue(rc_task_fn *task, int32_t count, int32_t min_range, void *task_context, void *user) {
    (void)user;
    FZ_CHECK(count > 0 && min_range > 0, "enqueue_task: %d items in ranges of %d", count, min_range);
    int32_t ranges = (count + min_range - 1) / min_range;
    for (int32_t k = ranges - 1; k >= 0; --k) {
        int32_t start = k * min_range, end = start + min_range < count ? start + min_range : count;
        task(start, end, (uint32_t)k % 2u, task_context);
    }
    return NULL;
}

static void fz_finish(void *user_task, void *user) {
    (void)user_task;
    (void)user;
    FZ_CHECK(false, "finish_task called for a task that ran in the enqueue");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fz_state s; /* large: keep it off the stack */
    memset(&s, 0, sizeof s);
    g_verbose = getenv("FZ_VERBOSE") != NULL;
#if defined(__GLIBC__)
    if (getenv("FZ_TRAP") != NULL) {
        feenableexcept(FE_INVALID); /* stop at the operation that makes the first NaN (run in gdb) */
    }
#endif
    s.in = (fz_input){data, size, 0};

    rc_world_def wd = rc_world_default_def();
    uint8_t flags = fz_u8(&s.in);
    if (flags & 1) {
        wd.gravity = draw_vec(&s);
    }
    if (flags & 2) {
        wd.cell_size = draw_num(&s);
    }
    if (flags & 4) {
        wd.contact_skin = draw_num(&s);
        wd.restitution_threshold = draw_num(&s);
    }
    wd.enable_sleep = (flags & 8) == 0;
    if (flags & 16) {
        uint8_t sub = fz_u8(&s.in);
        wd.sub_steps = (int32_t)(sub % 10u);
        if (sub & 128u) {
            /* a task system (one that runs the ranges itself, last first) */
            wd.worker_count = 2 + (int32_t)(sub & 3u);
            wd.enqueue_task = fz_enqueue;
            wd.finish_task = fz_finish;
            wd.user_task_context = &s;
        }
        wd.body_capacity = (int8_t)fz_u8(&s.in);
        wd.shape_capacity = (int8_t)fz_u8(&s.in);
    }
    wd.allocator = (rc_allocator){fz_alloc_fn, fz_free_fn, &s.alloc};
    wd.error_fn = fz_error_fn;
    wd.error_user = &s.errors;
    if (flags & 32) {
        s.alloc.fail_at = 1 + fz_u8(&s.in) % 8u; /* creation runs out of memory */
    }
    if (flags & 64) {
        wd.max_linear_speed = draw_num(&s);
        wd.max_angular_speed = draw_num(&s);
    }
    if (flags & 128) {
        /* the contact solver's settings */
        wd.linear_slop = draw_num(&s);
        wd.contact_hertz = draw_num(&s);
        wd.contact_damping_ratio = draw_num(&s);
        wd.contact_push_speed = draw_num(&s);
    }
    if (g_verbose) {
        fprintf(stderr, "world: gravity (%g, %g) cell %g skin %g threshold %g sub-steps %d sleep %d max speeds %g %g\n",
                wd.gravity.x, wd.gravity.y, wd.cell_size, wd.contact_skin, wd.restitution_threshold,
                wd.sub_steps, wd.enable_sleep, wd.max_linear_speed, wd.max_angular_speed);
    }
    s.world = rc_world_create(&wd);
    s.alloc.fail_at = 0;
    if (s.world != NULL) {
        /* asked about the hits of shapes with pre-solve events (op_world takes it away and back) */
        FZ_CHECK(rc_world_set_pre_solve_callback(s.world, fz_pre_solve, &s), "rc_world_set_pre_solve_callback refused");
        /* the twin: the same calls as this world's first bodies will be, in another world */
        rc_world_def td = rc_world_default_def();
        s.twin = rc_world_create(&td);
        FZ_CHECK(s.twin != NULL, "the twin world could not be made");
        rc_body_def bd = rc_body_default_def();
        rc_shape_def sd = rc_shape_default_def();
        for (int i = 0; i < TWIN_BODIES; ++i) {
            bd.type = (rc_body_type)(i % 3);
            s.twin_bodies[i] = rc_body_create(s.twin, &bd);
            s.twin_shapes[i] = rc_shape_create_circle(s.twin, s.twin_bodies[i], &sd, 1.0f);
        }
        rc_revolute_joint_def jd = rc_revolute_joint_default_def();
        jd.body_a = s.twin_bodies[0]; /* static */
        jd.body_b = s.twin_bodies[2]; /* dynamic */
        s.twin_joint = rc_joint_create_revolute(s.twin, &jd);
        FZ_CHECK(rc_joint_is_valid(s.twin, s.twin_joint), "the twin world's joint could not be made");
    }
    if (s.world == NULL) {
        FZ_CHECK(s.alloc.live_bytes == 0 && s.alloc.live_blocks == 0,
                 "rc_world_create refused but kept %lld bytes in %lld blocks", (long long)s.alloc.live_bytes,
                 (long long)s.alloc.live_blocks);
        return 0;
    }

    for (int ops = 0; ops < MAX_OPS && !fz_done(&s.in); ++ops) {
        uint8_t op = fz_u8(&s.in);
        /* joints: the four selectors past the last whole round of twelve (appended, so that the
           inputs made before joints keep their meaning up to their first such byte) */
        if (op >= 252) {
            switch (op) {
            case 252:
            case 253: op_create_joint(&s); break;
            case 254: op_joint_set(&s); break;
            default:
                if (fz_u8(&s.in) % 4u == 0u) {
                    op_joint_destroy(&s);
                } else {
                    op_get_joint(&s);
                }
                break;
            }
            continue;
        }
        switch (op % 12u) {
        case 0:
        case 1: op_create_body(&s); break;
        case 2:
        case 3: op_create_shape(&s); break;
        case 4: op_destroy(&s); break;
        case 5: op_body_set(&s); break;
        case 6: op_shape_set(&s); break;
        case 7: op_step(&s); break;
        case 8: op_query(&s); break;
        case 9: op_predict(&s); break;
        case 10: op_move(&s); break;
        default:
            if (fz_bool(&s.in)) {
                op_get(&s);
            } else {
                op_world(&s);
            }
            break;
        }
    }

    rc_world_destroy(s.world);
    FZ_CHECK(s.alloc.live_bytes == 0 && s.alloc.live_blocks == 0,
             "rc_world_destroy left %lld bytes in %lld blocks", (long long)s.alloc.live_bytes,
             (long long)s.alloc.live_blocks);
    /* nothing done to the first world touched the twin */
    for (int i = 0; i < TWIN_BODIES; ++i) {
        FZ_CHECK(rc_body_is_valid(s.twin, s.twin_bodies[i]) && rc_shape_is_valid(s.twin, s.twin_shapes[i]),
                 "an id of the twin world was destroyed through the other world");
        rc_vec2 p = rc_body_position(s.twin, s.twin_bodies[i]);
        FZ_CHECK(p.x == 0.0f && p.y == 0.0f, "a body of the twin world was moved through the other world");
    }
    FZ_CHECK(rc_joint_is_valid(s.twin, s.twin_joint), "the twin world's joint was destroyed through the other world");
    rc_world_destroy(s.twin);
    return 0;
}
