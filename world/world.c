/* The world itself: creation, destruction, errors, ids, counters. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

rc_world_def rc_world_default_def(void) {
    rc_world_def def;
    memset(&def, 0, sizeof def);
    def.gravity = rc_v2(0.0f, -10.0f);
    def.enable_sleep = true;
    def.sleep_time = 0.5f;
    def.sleep_linear_speed = 0.05f;
    def.sleep_angular_speed = 0.05f;
    def.restitution_threshold = 1.0f;
    def.contact_skin = 1.0e-4f;
    def.sub_steps = 4;
    def.linear_slop = 0.005f;
    def.contact_hertz = 30.0f;
    def.contact_damping_ratio = 10.0f;
    def.contact_push_speed = 3.0f;
    def.max_linear_speed = 1.0e6f;
    def.max_angular_speed = 1.0e5f;
    def.worker_count = 1;
    return def;
}

static bool non_negative(float v) { return rc_is_finite(v) && v >= 0.0f; }

static void forget_thread_errors(const rc_world *world);
static void free_world(rc_world *world);

/* A salt for a world whose def leaves it 0: from its address, which no other live world has,
 * and the time it is made, which a world made later at the same address (a level reloaded: the
 * allocator hands the freed block back) does not share. (From its address alone, the ids of a
 * destroyed world were all valid in the next one.) */
static uint32_t default_salt(const rc_world *world) {
    uint64_t a = (uint64_t)(uintptr_t)world;
    struct timespec now = {0, 0};
    (void)timespec_get(&now, TIME_UTC);
    uint64_t t = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    uint32_t mixed = rc_id_generation((uint32_t)(t ^ (t >> 32)), 0x9E3779B9u);
    return rc_id_generation((uint32_t)(a ^ (a >> 32)) ^ mixed, 0x2545F491u);
}

rc_world *rc_world_create(const rc_world_def *def) {
    if (def == NULL || !rc_vec2_is_finite(def->gravity) || !non_negative(def->cell_size) ||
        !non_negative(def->sleep_time) || !non_negative(def->sleep_linear_speed) ||
        !non_negative(def->sleep_angular_speed) || !non_negative(def->restitution_threshold) ||
        !non_negative(def->contact_skin) || def->contact_skin > 1.0e9f || def->body_capacity < 0 || def->shape_capacity < 0 ||
        def->sub_steps < 1 || def->sub_steps > 64 || !non_negative(def->linear_slop) || def->linear_slop > 1.0e9f ||
        !non_negative(def->contact_hertz) || !non_negative(def->contact_damping_ratio) ||
        !non_negative(def->contact_push_speed) ||
        !(def->max_linear_speed > 0.0f && def->max_linear_speed <= RC_MAX_LINEAR_SPEED) ||
        !(def->max_angular_speed > 0.0f && def->max_angular_speed <= RC_MAX_ANGULAR_SPEED) ||
        def->worker_count < 0 || def->worker_count > RC_MAX_WORKERS ||
        (def->enqueue_task == NULL) != (def->finish_task == NULL)) {
        return NULL;
    }
    rc_allocator allocator = rc_mem_resolve(def->allocator);
    rc_world *world = rc_mem_alloc(&allocator, sizeof *world);
    if (world == NULL) {
        return NULL;
    }
    memset(world, 0, sizeof *world);
    /* the game's allocator, with a count of what the world holds (the counters' bytes: what the
       hook handed out and has not had back) */
    world->tally.inner = allocator;
    world->allocator = rc_mem_tallied(&world->tally);
    world->def = *def;
    world->solver_lanes = rc_solver_widest_lanes();
    world->joint_lanes = true;
    world->def.allocator = allocator;
    atomic_init(&world->locks, 0);
    world->tally.busy = &world->locks; /* (the game's hooks run with the world locked) */
    atomic_init(&world->level_kept_revision, 0);
    atomic_init(&world->level_kept_checksum, 0);
    world->id_salt = def->id_salt != 0 ? def->id_salt : default_salt(world);
    for (int n = 0; n <= RC_MAX_POLYGON_VERTICES; ++n) {
        world->poly_free[n] = UINT32_MAX;
    }
    forget_thread_errors(world);
    rc_grid_def grid_def = rc_grid_default_def();
    grid_def.cell_size = def->cell_size;
    grid_def.allocator = world->allocator;
    grid_def.proxy_capacity = def->shape_capacity;
    world->grid = rc_grid_create(&grid_def);
    world->level_grid = rc_grid_create(&grid_def);
    bool ok = world->grid != NULL && world->level_grid != NULL;
    ok = ok && rc_array_reserve_aligned(world, world->bodies, def->body_capacity, 64);
    ok = ok && rc_id_pool_reserve(&world->allocator, &world->body_ids, def->body_capacity);
    ok = ok && rc_id_pool_reserve(&world->allocator, &world->shape_ids, def->shape_capacity);
    ok = ok && rc_array_reserve(world, world->undo, def->body_capacity);
    ok = ok && rc_array_reserve(world, world->islands, def->body_capacity);
    ok = ok && rc_array_reserve(world, world->body_masses, def->body_capacity);
    ok = ok && rc_array_reserve(world, world->deferred, def->shape_capacity);
    ok = ok && rc_array_reserve_aligned(world, world->shapes, def->shape_capacity, 64);
    ok = ok && rc_array_reserve(world, world->contact_heads, def->shape_capacity);
    /* room for that many polygons of eight vertices: address space only, until used */
    ok = ok && rc_array_reserve(world, world->poly_pool, def->shape_capacity * RC_POLY_BLOCK(RC_MAX_POLYGON_VERTICES));
    if (!ok) {
        free_world(world);
        return NULL;
    }
    return world;
}

void rc_world_free_records(rc_world *world) {
    rc_level_lean_free(world);
    rc_grid_destroy(world->grid);
    world->grid = NULL;
    rc_grid_destroy(world->level_grid);
    world->level_grid = NULL;
    rc_id_pool_free(&world->allocator, &world->body_ids);
    rc_id_pool_free(&world->allocator, &world->shape_ids);
    rc_id_pool_free(&world->allocator, &world->chain_ids);
    rc_id_pool_free(&world->allocator, &world->contact_ids);
    rc_id_pool_free(&world->allocator, &world->joint_ids);
    for (int32_t i = 0; i < world->chains.count; ++i) {
        if (world->chains.data[i].points != NULL) {
            rc_mem_free(&world->allocator, world->chains.data[i].points, rc_chain_bytes(world->chains.data[i].capacity));
        }
    }
#define FREE_ARRAY(array) rc_array_free(world, world->array);
    RC_WORLD_RECORD_ARRAYS(FREE_ARRAY)
#undef FREE_ARRAY
    rc_map_free(&world->allocator, &world->contact_map);
    rc_map_free(&world->allocator, &world->joint_pairs);
}

static void free_world(rc_world *world) {
    rc_world_free_spare(world);
    rc_world_free_records(world);
    rc_seam_cache_free(world);
    rc_level_index_free(world);
    rc_array_free(world, world->undo);
    rc_array_free(world, world->scratch_undo);
    rc_array_free(world, world->refresh_undo);
    rc_array_free(world, world->refresh_undo_at);
    rc_array_free(world, world->islands);
    rc_array_free(world, world->body_masses);
    rc_array_free(world, world->moving);
    rc_array_free(world, world->solver_owner);
    rc_array_free(world, world->gathered_owners);
    rc_array_free(world, world->set_changes);
    rc_array_free(world, world->states);
    rc_array_free(world, world->colors);
    rc_array_free(world, world->constraint_order);
    rc_array_free(world, world->contact_constraint);
    rc_array_free(world, world->gather_entries);
    rc_array_free(world, world->gather_starts);
    rc_array_free(world, world->blocks);
    rc_array_free(world, world->block_flags);
    rc_array_free(world, world->kicks);
    rc_array_free(world, world->spin_kicks);
    rc_array_free(world, world->turns);
    rc_array_free(world, world->linear_damping);
    rc_array_free(world, world->angular_damping);
    rc_array_free(world, world->spin_limits);
    rc_array_free(world, world->held);
    rc_array_free(world, world->body_slots);
    rc_array_free(world, world->body_active);
    rc_array_free(world, world->contact_marks);
    rc_array_free(world, world->sweep_list);
    rc_array_free(world, world->sweeps_ahead);
    rc_array_free(world, world->constraints);
    rc_array_free(world, world->turning);
    rc_array_free(world, world->joint_constraints);
    rc_array_free(world, world->joint_woken);
    rc_array_free(world, world->joint_colors);
    rc_array_free(world, world->joint_blocks);
    rc_array_free(world, world->support_shapes);
    rc_array_free(world, world->support_counts);
    rc_array_free(world, world->cancelled_shapes);
    rc_array_free(world, world->cancelled_counts);
    rc_array_free(world, world->deferred);
    rc_array_free(world, world->proxy_undo);
    rc_array_free(world, world->new_contacts);
    forget_thread_errors(world);
    rc_allocator allocator = world->tally.inner;
    rc_mem_free(&allocator, world, sizeof *world);
}

void rc_world_destroy(rc_world *world) {
    if (rc_world_for_change(world, "rc_world_destroy") != NULL) {
        free_world(world);
    }
}

/* ---- errors ------------------------------------------------------------------------------------ */

/* The messages of refused calls are kept per thread, like errno: a refused query writes nothing
 * in the world it was given (queries on several threads would race on a message there), and
 * the thread that made the call reads its own message back. A thread keeps the messages of the
 * last few worlds it was refused by. This record is the library's one piece of state outside
 * the worlds: each thread has its own, and nothing else reads it. */
#define ERROR_WORLDS 4
#define ERROR_LENGTH 256

typedef struct thread_errors {
    struct {
        const rc_world *world; /* NULL: unused */
        uint32_t used;         /* when it was last written (this thread's count of refusals) */
        char message[ERROR_LENGTH];
    } slot[ERROR_WORLDS];
    uint32_t refusals;
    const rc_world *in_error_fn; /* whose error callback this thread is inside (NULL: none) */
} thread_errors;

#if defined(_MSC_VER) && !defined(__clang__)
static __declspec(thread) thread_errors rc_thread_errors;
#else
static _Thread_local thread_errors rc_thread_errors;
#endif

static char *error_slot(const rc_world *world, bool take) {
    thread_errors *t = &rc_thread_errors;
    int32_t oldest = 0;
    for (int32_t i = 0; i < ERROR_WORLDS; ++i) {
        if (t->slot[i].world == world) {
            if (take) {
                t->slot[i].used = ++t->refusals;
            }
            return t->slot[i].message;
        }
        if (t->slot[i].used < t->slot[oldest].used) {
            oldest = i;
        }
    }
    if (!take) {
        return NULL;
    }
    t->slot[oldest].world = world;
    t->slot[oldest].used = ++t->refusals;
    return t->slot[oldest].message;
}

/* A world created or destroyed at this address starts with no message on this thread. */
static void forget_thread_errors(const rc_world *world) {
    thread_errors *t = &rc_thread_errors;
    for (int32_t i = 0; i < ERROR_WORLDS; ++i) {
        if (t->slot[i].world == world) {
            t->slot[i].world = NULL;
            t->slot[i].used = 0;
            t->slot[i].message[0] = '\0';
        }
    }
}

bool rc_fail(const rc_world *world, const char *func, const char *fmt, ...) {
    if (world == NULL) {
        return false;
    }
    thread_errors *t = &rc_thread_errors;
    if (t->in_error_fn == world) {
        /* refused inside this world's error callback: the message being reported stays as it
           is, and the callback is not called again */
        return false;
    }
    char *message = error_slot(world, true);
    int n = snprintf(message, ERROR_LENGTH, "%s: ", func);
    if (n < 0 || n >= ERROR_LENGTH) {
        n = 0;
    }
    va_list args;
    va_start(args, fmt);
    /* best effort: a message too long for the buffer is cut short, and the call fails anyway */
    (void)vsnprintf(message + n, (size_t)(ERROR_LENGTH - n), fmt, args);
    va_end(args);
    if (world->def.error_fn != NULL) {
        /* the callback may query the world; anything it tries to change is refused */
        const rc_world *outer = t->in_error_fn;
        t->in_error_fn = world;
        rc_world_lock(world);
        world->def.error_fn(message, world->def.error_user);
        rc_world_unlock(world);
        t->in_error_fn = outer;
    }
    return false;
}

const char *rc_world_last_error(const rc_world *world) {
    if (world == NULL) {
        return "";
    }
    const char *message = error_slot(world, false);
    return message != NULL ? message : "";
}

void rc_world_clear_error(rc_world *world) {
    if (world != NULL) {
        forget_thread_errors(world);
    }
}

rc_world *rc_world_for_change(rc_world *world, const char *func) {
    if (world == NULL) {
        return NULL;
    }
    if (rc_world_is_locked(world)) {
        rc_fail(world, func,
                "the world is locked: a query, debug draw or error callback is running (change the world after "
                "it returns)");
        return NULL;
    }
    return world;
}

rc_body *rc_get_body(const rc_world *world, rc_body_id id, const char *func) {
    if (world == NULL) {
        return NULL;
    }
    if (rc_body_id_is_null(id)) {
        rc_fail(world, func, "the body id is null");
        return NULL;
    }
    if (id.index == 0 || id.index > (uint32_t)world->bodies.count || !world->bodies.data[id.index - 1].in_use ||
        world->bodies.data[id.index - 1].generation != id.generation) {
        rc_fail(world, func, "body id {%u, %u} names no live body (destroyed, or not from this world)", id.index,
                id.generation);
        return NULL;
    }
    return &world->bodies.data[id.index - 1];
}

rc_shape *rc_get_shape(const rc_world *world, rc_shape_id id, const char *func) {
    if (world == NULL) {
        return NULL;
    }
    if (rc_shape_id_is_null(id)) {
        rc_fail(world, func, "the shape id is null");
        return NULL;
    }
    if (id.index == 0 || id.index > (uint32_t)world->shapes.count || !world->shapes.data[id.index - 1].in_use ||
        world->shapes.data[id.index - 1].generation != id.generation) {
        rc_fail(world, func, "shape id {%u, %u} names no live shape (destroyed, or not from this world)", id.index,
                id.generation);
        return NULL;
    }
    return &world->shapes.data[id.index - 1];
}

rc_body *rc_body_for_change(rc_world *world, rc_body_id id, const char *func) {
    rc_body *b = rc_world_for_change(world, func) != NULL ? rc_get_body(world, id, func) : NULL;
    if (b != NULL && b->type == RC_STATIC) {
        rc_level_changed(world); /* (whatever the call goes on to do: a stale checksum is only worked out again) */
    }
    return b;
}

rc_shape *rc_shape_for_change(rc_world *world, rc_shape_id id, const char *func) {
    rc_shape *s = rc_world_for_change(world, func) != NULL ? rc_get_shape(world, id, func) : NULL;
    if (s != NULL && world->bodies.data[s->body].type == RC_STATIC) {
        rc_level_changed(world);
    }
    return s;
}

bool rc_world_set_gravity(rc_world *world, rc_vec2 gravity) {
    if (rc_world_for_change(world, __func__) == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(gravity)) {
        return rc_fail(world, __func__, "gravity (%g, %g) is not finite", (double)gravity.x, (double)gravity.y);
    }
    world->def.gravity = gravity;
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        if (world->bodies.data[i].in_use && world->bodies.data[i].type == RC_DYNAMIC) {
            rc_body_wake(&world->bodies.data[i]);
        }
    }
    return true;
}

rc_vec2 rc_world_gravity(const rc_world *world) { return world != NULL ? world->def.gravity : rc_v2(0.0f, 0.0f); }

rc_world_counters rc_world_get_counters(const rc_world *world) {
    rc_world_counters c;
    memset(&c, 0, sizeof c);
    if (world == NULL) {
        return c;
    }
    c.bodies = rc_id_pool_live(&world->body_ids);
    c.shapes = rc_id_pool_live(&world->shape_ids);
    c.contacts = rc_id_pool_live(&world->contact_ids);
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        c.touching_contacts += world->contacts.data[i].in_use && world->contacts.data[i].touching;
    }
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        const rc_body *b = &world->bodies.data[i];
        c.awake_bodies += b->in_use && b->type != RC_STATIC && b->awake;
    }
    rc_grid_stats gs = rc_grid_get_stats(world->grid), ls = rc_grid_get_stats(world->level_grid);
    c.broadphase_proxies = gs.proxies + ls.proxies;
    c.broadphase_cells = gs.cells + ls.cells;
    c.cell_size = rc_world_cell_size(world);
    c.bytes = sizeof *world + world->tally.held;
    c.steps = world->steps;
    c.joints = rc_id_pool_live(&world->joint_ids);
    return c;
}

float rc_world_cell_size(const rc_world *world) {
    return rc_grid_proxy_count(world->level_grid) > 0 ? rc_grid_cell_size(world->level_grid) : rc_grid_cell_size(world->grid);
}

/* ---- tolerances ------------------------------------------------------------------------------- */

/* ---- event buffers ---------------------------------------------------------------------------- */

/* Each list holds what the last step published (the first published[k] entries, what the
 * event functions return) followed by end events of shapes destroyed since, which belong to
 * the next step. A step drops the published part and appends its own. */
#define DROP_PUBLISHED(array, published)                                                                               \
    do {                                                                                                               \
        int32_t keep_ = (array).count - (published);                                                                   \
        if ((published) > 0 && keep_ > 0) {                                                                            \
            memmove((array).data, (array).data + (published), sizeof(*(array).data) * (size_t)keep_);                  \
        }                                                                                                              \
        (array).count = keep_;                                                                                         \
    } while (0)

void rc_events_begin_step(rc_world *world) {
    DROP_PUBLISHED(world->contact_begin, world->published[0]);
    DROP_PUBLISHED(world->contact_end, world->published[1]);
    DROP_PUBLISHED(world->sensor_begin, world->published[2]);
    DROP_PUBLISHED(world->sensor_end, world->published[3]);
    memset(world->published, 0, sizeof world->published);
}

void rc_events_end_step(rc_world *world) {
    world->published[0] = world->contact_begin.count;
    world->published[1] = world->contact_end.count;
    world->published[2] = world->sensor_begin.count;
    world->published[3] = world->sensor_end.count;
}

rc_contact_events rc_world_contact_events(const rc_world *world) {
    rc_contact_events e;
    memset(&e, 0, sizeof e);
    if (world != NULL) {
        e.begin = world->contact_begin.data;
        e.begin_count = world->published[0];
        e.end = world->contact_end.data;
        e.end_count = world->published[1];
    }
    return e;
}

rc_sensor_events rc_world_sensor_events(const rc_world *world) {
    rc_sensor_events e;
    memset(&e, 0, sizeof e);
    if (world != NULL) {
        e.begin = world->sensor_begin.data;
        e.begin_count = world->published[2];
        e.end = world->sensor_end.data;
        e.end_count = world->published[3];
    }
    return e;
}
