/* Bodies: creation, destruction, mass, getters and setters (speeds, impulses and forces: body_forces.c). */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

rc_body_def rc_body_default_def(void) {
    rc_body_def def;
    memset(&def, 0, sizeof def);
    def.type = RC_STATIC;
    def.gravity_scale = 1.0f;
    def.max_bounces = 8;
    def.bounce_budget = -1;
    def.awake = true;
    def.enable_sleep = true;
    def.enable_response = true;
    def.point_mass = 1.0f;
    def.point_filter = rc_default_filter();
    return def;
}

static bool finite_non_negative(float v) { return rc_is_finite(v) && v >= 0.0f; }

static int32_t count_shapes(const rc_world *world, const rc_body *b) {
    int32_t n = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        ++n;
    }
    return n;
}

rc_transform rc_body_origin_from_center(rc_vec2 center, float angle, rc_vec2 local_center) {
    return rc_body_origin_at(center, rc_rot_from_angle(angle), local_center);
}

void rc_body_wake(rc_body *body) {
    if (body->type != RC_STATIC) {
        body->awake = true;
        body->sleep_time = 0.0f;
    }
}

rc_body_id rc_body_create(rc_world *world, const rc_body_def *def) {
    static const char *func = "rc_body_create";
    if (rc_world_for_change(world, func) == NULL) {
        return RC_NULL_BODY_ID;
    }
    if (def == NULL) {
        rc_fail(world, func, "def is NULL");
        return RC_NULL_BODY_ID;
    }
    if (def->type != RC_STATIC && def->type != RC_KINEMATIC && def->type != RC_DYNAMIC) {
        rc_fail(world, func, "def.type %d is not RC_STATIC, RC_KINEMATIC or RC_DYNAMIC", (int)def->type);
        return RC_NULL_BODY_ID;
    }
    if (!rc_vec2_is_finite(def->position) || !rc_is_finite(def->angle) || !rc_vec2_is_finite(def->linear_velocity) ||
        !rc_is_finite(def->angular_velocity) || !rc_is_finite(def->gravity_scale)) {
        rc_fail(world, func, "def has a NaN or infinite position, angle, velocity or gravity scale");
        return RC_NULL_BODY_ID;
    }
    if (!rc_in_world(def->position)) {
        rc_fail(world, func, "def.position (%g, %g) is beyond RC_WORLD_LIMIT", (double)def->position.x,
                (double)def->position.y);
        return RC_NULL_BODY_ID;
    }
    if (!rc_speed_ok(world, def->linear_velocity, def->angular_velocity)) {
        rc_fail(world, func, "def's velocity (%g, %g), %g rad/s is above the world's max_linear_speed %g or "
                             "max_angular_speed %g", (double)def->linear_velocity.x, (double)def->linear_velocity.y,
                (double)def->angular_velocity, (double)world->def.max_linear_speed,
                (double)world->def.max_angular_speed);
        return RC_NULL_BODY_ID;
    }
    if (!finite_non_negative(def->linear_damping) || !finite_non_negative(def->angular_damping)) {
        rc_fail(world, func, "damping must be finite and >= 0 (linear %g, angular %g)", (double)def->linear_damping,
                (double)def->angular_damping);
        return RC_NULL_BODY_ID;
    }
    if (def->max_bounces < 0 || def->bounce_budget < -1) {
        rc_fail(world, func, "def.max_bounces %d must be >= 0 and def.bounce_budget %d >= -1", (int)def->max_bounces,
                (int)def->bounce_budget);
        return RC_NULL_BODY_ID;
    }
    if (!rc_point_mass_ok(def->point_mass)) {
        rc_fail(world, func, "def.point_mass %g must be from FLT_MIN (its inverse a float) to RC_MAX_MASS",
                (double)def->point_mass);
        return RC_NULL_BODY_ID;
    }
    /* the step's scratch grows with the bodies, so the step itself never has to */
    if (!rc_array_reserve_aligned(world, world->bodies, world->bodies.count + 1, 64) ||
        !rc_array_reserve(world, world->undo, world->bodies.count + 1) ||
        !rc_array_reserve(world, world->islands, world->bodies.count + 1) ||
        !rc_array_reserve(world, world->body_masses, world->bodies.count + 1) ||
        !rc_id_pool_reserve(&world->allocator, &world->body_ids, 1)) {
        rc_fail(world, func, "out of memory");
        return RC_NULL_BODY_ID;
    }
    int32_t index = rc_id_pool_take(&world->body_ids);
    if (index == world->bodies.count) {
        world->bodies.count++;
        world->islands.count = world->bodies.count; /* (its nodes keep their blockers when it grows) */
        world->body_masses.count = world->bodies.count;
    }
    memset(&world->body_masses.data[index], 0, sizeof world->body_masses.data[index]); /* (no shapes) */
    rc_body *b = &world->bodies.data[index];
    memset(b, 0, sizeof *b);
    rc_island_node_init(world, index);
    b->first_joint = -1;
    b->type = (uint8_t)def->type;
    b->angle = def->angle;
    b->xf.q = rc_rot_from_angle(def->angle);
    b->xf.p = def->position;
    b->center = def->position;
    b->local_center = rc_v2(0.0f, 0.0f);
    if (def->type != RC_STATIC) {
        b->linear_velocity = def->linear_velocity;
        b->angular_velocity = def->angular_velocity;
    }
    b->linear_damping = def->linear_damping;
    b->angular_damping = def->angular_damping;
    b->gravity_scale = def->gravity_scale;
    b->max_bounces = def->max_bounces;
    b->bounces_left = def->bounce_budget;
    b->bounces_made = 0;
    b->first_shape = -1;
    b->generation = rc_world_generation(world, &world->body_ids, index);
    b->in_use = true;
    b->bullet = def->bullet && def->type == RC_DYNAMIC;
    b->awake = def->type != RC_STATIC && def->awake;
    b->enable_sleep = def->enable_sleep;
    b->fixed_rotation = def->fixed_rotation;
    b->enable_response = def->enable_response;
    b->point_mass = def->point_mass;
    b->point_filter = def->point_filter;
    b->swept_shape = -1;
    b->last_hit_shape = -1;
    b->solver_slot = -1;
    b->user_data = def->user_data;
    rc_body_update_mass(world, b);
    if (def->type == RC_STATIC) {
        rc_level_changed(world);
    }
    return rc_body_id_of(world, index);
}

void rc_body_destroy(rc_world *world, rc_body_id id) {
    rc_body *b = rc_body_for_change(world, id, "rc_body_destroy");
    if (b == NULL) {
        return;
    }
    rc_body_destroy_joints(world, (int32_t)id.index - 1);
    while (b->first_shape >= 0) {
        const rc_shape *s = &world->shapes.data[b->first_shape];
        if (s->kind == RC_SHAPE_SEGMENT) {
            rc_chain_destroy(world, world->chains.data[s->chain].shape);
        } else {
            rc_shape_remove(world, b->first_shape, false);
        }
    }
    b->in_use = false;
    rc_islands_split(world);
    rc_id_pool_give(&world->body_ids, (int32_t)id.index - 1);
}

bool rc_body_is_valid(const rc_world *world, rc_body_id id) {
    if (world == NULL || id.index == 0 || id.index > (uint32_t)world->bodies.count) {
        return false;
    }
    const rc_body *b = &world->bodies.data[id.index - 1];
    return b->in_use && b->generation == id.generation;
}

/* The swept circle's shape is marked (its proxy box is grown); rc_body_refresh_swept moves the
 * proxies whose mark changed. */
rc_body_motion rc_body_motion_of(const rc_world *world, const rc_body *b, int32_t *swept_shape) {
    rc_body_motion motion = RC_MOTION_FREE;
    int32_t swept = -1;
    if (b->type == RC_DYNAMIC && b->enable_response) {
        int32_t solid = 0, circle = -1;
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            const rc_shape *shape = &world->shapes.data[s];
            if (!shape->sensor) {
                solid++;
                if (shape->kind == RC_SHAPE_CIRCLE) {
                    circle = s;
                }
                if (solid > 1) {
                    break; /* free, whatever the rest are (a compound of many shapes) */
                }
            }
        }
        if (solid == 0 && b->bullet) {
            motion = RC_MOTION_SWEPT_POINT;
        } else if (solid == 1 && circle >= 0) {
            motion = RC_MOTION_SWEPT_CIRCLE;
            swept = circle;
        }
    }
    *swept_shape = swept;
    return motion;
}

void rc_body_update_motion(rc_world *world, rc_body *b) {
    int32_t swept;
    b->motion = (uint8_t)rc_body_motion_of(world, b, &swept);
    if (b->swept_shape >= 0 && b->swept_shape != swept && world->shapes.data[b->swept_shape].in_use) {
        world->shapes.data[b->swept_shape].swept = false;
    }
    if (swept >= 0) {
        world->shapes.data[swept].swept = true;
    }
    b->swept_shape = swept;
}

/* The body's type and bullet flag, copied into its shapes for the sweeps' filters. */
void rc_body_sync_shapes(rc_world *world, const rc_body *b) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        world->shapes.data[s].body_type = b->type;
        world->shapes.data[s].body_bullet = b->bullet;
    }
    rc_body_refresh_chains(world, b);
}

void rc_body_place_shapes(rc_world *world, rc_body *b) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        rc_shape *shape = &world->shapes.data[s];
        rc_shape_place(world, shape, b->xf);
        /* a proxy keeps its cells when the box stays in them; moving never fails after a
           reserve, and a teleport reserves before it calls this */
        rc_shape_refit_proxy(world, shape);
    }
    rc_body_refresh_chains(world, b);
}

/* ---- getters ---------------------------------------------------------------------------------- */

#define BODY_GETTER(ret, name, zero, expr)                                                                             \
    ret name(const rc_world *world, rc_body_id id) {                                                                  \
        const rc_body *b = rc_get_body(world, id, #name);                                                              \
        if (b == NULL) {                                                                                               \
            return zero;                                                                                               \
        }                                                                                                              \
        return expr;                                                                                                   \
    }

static const rc_vec2 zero_vec = {0.0f, 0.0f};
static const rc_filter zero_filter = {0u, 0u, 0};
static const rc_transform identity_xf = {{0.0f, 0.0f}, {1.0f, 0.0f}};

BODY_GETTER(rc_body_type, rc_body_get_type, RC_STATIC, (rc_body_type)b->type)
BODY_GETTER(rc_vec2, rc_body_position, zero_vec, b->xf.p)
BODY_GETTER(float, rc_body_angle, 0.0f, b->angle)
BODY_GETTER(rc_transform, rc_body_transform, identity_xf, b->xf)
BODY_GETTER(rc_vec2, rc_body_linear_velocity, zero_vec, b->linear_velocity)
BODY_GETTER(float, rc_body_angular_velocity, 0.0f, b->angular_velocity)
BODY_GETTER(float, rc_body_mass, 0.0f, b->mass)
BODY_GETTER(float, rc_body_rotational_inertia, 0.0f, b->inertia)
BODY_GETTER(rc_vec2, rc_body_world_center, zero_vec, b->center)
BODY_GETTER(float, rc_body_gravity_scale, 0.0f, b->gravity_scale)
BODY_GETTER(float, rc_body_linear_damping, 0.0f, b->linear_damping)
BODY_GETTER(float, rc_body_angular_damping, 0.0f, b->angular_damping)
BODY_GETTER(bool, rc_body_is_bullet, false, b->bullet)
BODY_GETTER(int32_t, rc_body_max_bounces, 0, b->max_bounces)
BODY_GETTER(int32_t, rc_body_bounces_left, 0, b->bounces_left)
BODY_GETTER(bool, rc_body_is_awake, false, b->awake)
BODY_GETTER(bool, rc_body_response_enabled, false, b->enable_response)
BODY_GETTER(rc_filter, rc_body_point_filter, zero_filter, b->point_filter)
BODY_GETTER(rc_body_motion, rc_body_get_motion, RC_MOTION_FREE, (rc_body_motion)b->motion)
BODY_GETTER(void *, rc_body_user_data, NULL, b->user_data)

int32_t rc_body_shapes(const rc_world *world, rc_body_id id, rc_shape_id *ids, int32_t capacity) {
    const rc_body *b = rc_get_body(world, id, __func__);
    if (b == NULL) {
        return -1;
    }
    if (capacity < 0 || (ids == NULL && capacity > 0)) {
        return rc_fail(world, __func__, "ids is NULL with capacity %d, or capacity is negative", (int)capacity), -1;
    }
    int32_t n = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body, ++n) {
        if (n < capacity) {
            ids[n] = rc_shape_id_of(world, s);
        }
    }
    return n;
}

/* ---- setters ---------------------------------------------------------------------------------- */

bool rc_body_set_transform(rc_world *world, rc_body_id id, rc_vec2 position, float angle) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!rc_vec2_is_finite(position) || !rc_is_finite(angle)) {
        return rc_fail(world, __func__, "position (%g, %g) or angle %g is not finite", (double)position.x,
                       (double)position.y, (double)angle);
    }
    if (!rc_in_world(position)) {
        return rc_fail(world, __func__, "position (%g, %g) is beyond RC_WORLD_LIMIT", (double)position.x,
                       (double)position.y);
    }
    rc_transform xf = {position, rc_rot_from_angle(angle)};
    /* check every shape's new place and reserve the grid moves first, so that nothing can
       fail half way */
    int32_t additions = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        rc_aabb box = rc_shape_box_at(world, &world->shapes.data[s], xf);
        if (!rc_aabb_is_valid(box) || !rc_box_in_world(box)) {
            return rc_fail(world, __func__, "a shape placed at (%g, %g) would reach beyond RC_WORLD_LIMIT",
                           (double)position.x, (double)position.y);
        }
        /* a swept circle's proxy is grown by the margin: at most the four cells of a proxy */
        const rc_shape *shape = &world->shapes.data[s];
        additions += shape->swept                        ? 4
                     : rc_segment_pieces(world, shape) > 1 ? rc_segment_piece_additions(world, shape, xf)
                                                           : rc_grid_move_additions(rc_grid_for_type(world, b->type), shape->proxy, box);
    }
    if (!rc_grid_reserve(rc_grid_for_type(world, b->type), additions) ||
        !rc_array_reserve(world, world->islands, world->bodies.count)) {
        return rc_fail(world, __func__, "out of memory");
    }
    /* what rested on it (or it on them) wakes: moved away, a crate would stay asleep in the air */
    rc_island_wake_changed(world, b, -1);
    b->xf = xf;
    b->angle = angle;
    b->center = rc_transform_point(xf, b->local_center);
    rc_body_place_shapes(world, b);
    if (b->type == RC_STATIC) {
        rc_level_grid_settle(world);
    }
    rc_body_flag_contacts(world, b);
    rc_body_wake(b);
    return true;
}

/* The body's contacts taken out of (delta -1) or put back into (+1) the level_contacts counts
 * of the bodies on either side, by the types they have now: around a change of its type. */
static void count_level_contacts(rc_world *world, const rc_body *b, int delta) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        for (int32_t ci = world->contact_heads.data[s]; ci >= 0;) {
            const rc_contact *c = &world->contacts.data[ci];
            rc_contact_count_level(world, c, delta);
            ci = c->edge[c->shape[0] == s ? 0 : 1].next;
        }
    }
}

static bool has_chain(const rc_world *world, const rc_body *b) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        if (world->shapes.data[s].kind == RC_SHAPE_SEGMENT) {
            return true;
        }
    }
    return false;
}

/* The proxies the body's shapes have in the grid of a body of the given type: a proxy a shape, a
 * static wall's pieces one each. */
static int32_t proxies_as(const rc_world *world, const rc_body *b, rc_body_type type) {
    int32_t n = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        rc_shape trial = world->shapes.data[s];
        trial.body_type = (uint8_t)type;
        n += rc_segment_pieces(world, &trial);
    }
    return n;
}

/* A body made static or no longer static: its shapes' proxies go to the other grid (the level's
 * holds the static bodies' shapes). The new proxies are made first, with the boxes the new type
 * gives, into the step's idle scratch of deferred moves (as long as the shapes), in the batch
 * rc_body_set_type opened on that grid: false when memory runs out (the batch's abort takes
 * back the ones made). */
static bool make_proxies_in(rc_world *world, const rc_body *b, rc_body_type type) {
    rc_grid *to = rc_grid_for_type(world, type);
    rc_deferred_move *made = world->deferred.data;
    int32_t n = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body, ++n) {
        rc_shape trial = world->shapes.data[s];
        trial.body_type = (uint8_t)type;
        made[n].shape = trial.kind == RC_SHAPE_SEGMENT ? rc_segment_insert_proxy(world, to, &trial, s) /* (the new proxy) */
                                                       : rc_grid_insert(to, rc_shape_fat_box(world, &trial), s);
        if (made[n].shape < 0) {
            return false;
        }
    }
    return true;
}

/* Then, the batch ended, the old proxies go and the shapes take the new ones. */
static void take_made_proxies(rc_world *world, const rc_body *b) {
    rc_grid *from = rc_grid_for_type(world, b->type);
    int32_t n = 0;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body, ++n) {
        rc_grid_remove(from, world->shapes.data[s].proxy);
        world->shapes.data[s].proxy = world->deferred.data[n].shape;
    }
}

/* Are all the body's shapes within RC_BODY_REACH of its position, in its frame, as a moving
 * body's must be? */
static bool shapes_in_body_reach(const rc_world *world, const rc_body *b) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        if (!rc_box_in_body_reach(rc_shape_box_at(world, &world->shapes.data[s], RC_TRANSFORM_IDENTITY))) {
            return false;
        }
    }
    return true;
}

bool rc_body_set_type(rc_world *world, rc_body_id id, rc_body_type type) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (type != RC_STATIC && type != RC_KINEMATIC && type != RC_DYNAMIC) {
        return rc_fail(world, __func__, "type %d is not RC_STATIC, RC_KINEMATIC or RC_DYNAMIC", (int)type);
    }
    if (type == b->type) {
        return true;
    }
    if (b->type == RC_STATIC && !shapes_in_body_reach(world, b)) {
        return rc_fail(world, __func__, RC_BEYOND_BODY_REACH);
    }
    if (type == RC_DYNAMIC && has_chain(world, b)) {
        return rc_fail(world, __func__, "a body with a chain stays static or kinematic (a chain has no mass)");
    }
    if (type == RC_DYNAMIC && !rc_body_shapes_weigh(world, b)) {
        return rc_fail(world, __func__, RC_SHAPE_WEIGHS_NOTHING);
    }
    if (type == RC_DYNAMIC && !rc_body_mass_fits(world, b, NULL, -1)) {
        return rc_fail(world, __func__, "the body's shapes give a mass or rotational inertia beyond RC_MAX_MASS or "
                                        "RC_MAX_ROTATIONAL_INERTIA");
    }
    bool regrid = (type == RC_STATIC) != (b->type == RC_STATIC), level = type == RC_STATIC || b->type == RC_STATIC;
    /* the reserve and the new proxies in a batch, undone whole if one fails */
    int32_t made = regrid ? proxies_as(world, b, type) : 0;
    if (!rc_world_begin_grid_batches(world, type == RC_STATIC ? made : 0, type == RC_STATIC ? 0 : made)) {
        return rc_fail(world, __func__, "out of memory");
    }
    if (!rc_grid_reserve(rc_grid_for_type(world, type), 4 * count_shapes(world, b)) ||
        (regrid && !make_proxies_in(world, b, type))) {
        rc_world_abort_grid_batches(world);
        return rc_fail(world, __func__, "out of memory");
    }
    rc_world_end_grid_batches(world);
    if (regrid) {
        take_made_proxies(world, b);
    }
    count_level_contacts(world, b, -1);
    b->type = (uint8_t)type;
    rc_islands_split(world);
    count_level_contacts(world, b, 1);
    rc_contact_set_changed_all(world); /* (which of its contacts the solver takes: gather.c) */
    if (type == RC_STATIC) {
        rc_level_changed(world);
        b->linear_velocity = rc_v2(0.0f, 0.0f);
        b->angular_velocity = 0.0f;
        b->awake = false;
        /* the step scratch a step gives a static body (and a new one has): so that no step
           changes the level's records (world/snapshot.h) */
        b->solver_slot = -1;
        b->step_bounces = 0;
    } else {
        rc_body_wake(b);
    }
    if (type != RC_DYNAMIC) {
        b->bullet = false;
    }
    rc_body_update_mass(world, b);
    rc_body_sync_shapes(world, b);
    /* the pairs a body takes part in depend on its type: let the broadphase report them again
       (proxy boxes change for swept circles) and have the contacts it has looked at again */
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        rc_shape_refind_pairs(world, &world->shapes.data[s]);
        rc_proxy_follow_body_type(world, world->shapes.data[s].proxy, type);
    }
    rc_body_flag_contacts(world, b);
    if (level) {
        rc_level_grid_settle(world);
    }
    return true;
}

bool rc_body_set_gravity_scale(rc_world *world, rc_body_id id, float scale) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!rc_is_finite(scale)) {
        return rc_fail(world, __func__, "gravity scale %g is not finite", (double)scale);
    }
    b->gravity_scale = scale;
    rc_body_wake(b);
    return true;
}

bool rc_body_set_linear_damping(rc_world *world, rc_body_id id, float damping) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!finite_non_negative(damping)) {
        return rc_fail(world, __func__, "damping %g must be finite and >= 0", (double)damping);
    }
    b->linear_damping = damping;
    return true;
}

bool rc_body_set_angular_damping(rc_world *world, rc_body_id id, float damping) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!finite_non_negative(damping)) {
        return rc_fail(world, __func__, "damping %g must be finite and >= 0", (double)damping);
    }
    b->angular_damping = damping;
    return true;
}

/* A bullet is a point or one circle: more solid shapes, or a solid polygon, cannot be swept. */
bool rc_body_can_be_bullet(const rc_world *world, const rc_body *b, bool adding_solid, bool adding_circle) {
    int32_t solid = adding_solid ? 1 : 0;
    bool polygon = adding_solid && !adding_circle;
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (!shape->sensor) {
            solid++;
            polygon = polygon || shape->kind != RC_SHAPE_CIRCLE;
        }
    }
    return solid <= 1 && !polygon;
}

bool rc_body_reserve_swept_change(rc_world *world) {
    /* the old and the new swept circle, four cells each */
    return rc_grid_reserve(world->grid, 8);
}

static void refresh_proxy(rc_world *world, int32_t shape) {
    rc_shape *s = &world->shapes.data[shape];
    /* after rc_body_reserve_swept_change this cannot fail; without it (a shape destroyed) a
       proxy that cannot grow keeps its box until the body next moves */
    rc_shape_refit_proxy(world, s);
    rc_shape_flag_contacts(world, shape);
}

void rc_body_refresh_swept(rc_world *world, rc_body *b, int32_t old_swept) {
    if (old_swept == b->swept_shape) {
        return;
    }
    if (old_swept >= 0 && world->shapes.data[old_swept].in_use) {
        refresh_proxy(world, old_swept);
    }
    if (b->swept_shape >= 0) {
        refresh_proxy(world, b->swept_shape);
    }
}

/* After a change of the body's flags (bullet, response): they decide how it moves, not its mass,
 * so a mass the game set (rc_body_set_mass_data) stays; else the shapes give it as before. */
static void update_flags(rc_world *world, rc_body *b) {
    if (b->custom_mass) {
        rc_body_update_motion(world, b);
    } else {
        rc_body_update_mass(world, b);
    }
}

bool rc_body_set_bullet(rc_world *world, rc_body_id id, bool bullet) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (bullet && b->type != RC_DYNAMIC) {
        return rc_fail(world, __func__, "only a dynamic body can be a bullet");
    }
    if (bullet && !rc_body_can_be_bullet(world, b, false, false)) {
        return rc_fail(world, __func__, "a bullet carries no solid shape (a point) or one solid circle");
    }
    /* (room to report the shapes' pairs again, as rc_body_set_type makes it: two reserves, in
       batches, so that the first is undone when the second fails) */
    if (!rc_world_begin_grid_batches(world, 0, 0)) {
        return rc_fail(world, __func__, "out of memory");
    }
    if (!rc_body_reserve_swept_change(world) ||
        !rc_grid_reserve(rc_grid_for_type(world, b->type), 4 * count_shapes(world, b))) {
        rc_world_abort_grid_batches(world);
        return rc_fail(world, __func__, "out of memory");
    }
    rc_world_end_grid_batches(world);
    int32_t old_swept = b->swept_shape;
    bool was_bullet = b->bullet;
    b->bullet = bullet;
    update_flags(world, b);
    rc_body_sync_shapes(world, b);
    rc_body_refresh_swept(world, b, old_swept);
    if (was_bullet != bullet) {
        /* two bullets never pair: pairs with bullets may end or begin */
        for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
            rc_shape_refind_pairs(world, &world->shapes.data[s]);
        }
        rc_body_flag_contacts(world, b);
    }
    rc_body_wake(b);
    return true;
}

bool rc_body_set_enable_response(rc_world *world, rc_body_id id, bool enable) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (!rc_body_reserve_swept_change(world)) {
        return rc_fail(world, __func__, "out of memory");
    }
    int32_t old_swept = b->swept_shape;
    b->enable_response = enable;
    rc_contact_set_changed_all(world); /* (which of its contacts the solver takes: gather.c) */
    update_flags(world, b);
    rc_body_refresh_swept(world, b, old_swept);
    rc_body_wake(b);
    return true;
}

bool rc_body_set_point_filter(rc_world *world, rc_body_id id, rc_filter filter) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    b->point_filter = filter;
    return true;
}

bool rc_body_set_max_bounces(rc_world *world, rc_body_id id, int32_t max_bounces) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (max_bounces < 0) {
        return rc_fail(world, __func__, "max_bounces %d is negative", (int)max_bounces);
    }
    b->max_bounces = max_bounces;
    return true;
}

bool rc_body_set_bounces_left(rc_world *world, rc_body_id id, int32_t bounces_left) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (bounces_left < -1) {
        return rc_fail(world, __func__, "bounces_left %d is below -1 (no limit)", (int)bounces_left);
    }
    b->bounces_left = bounces_left;
    return true;
}

bool rc_body_set_awake(rc_world *world, rc_body_id id, bool awake) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (b->type == RC_STATIC) {
        return awake ? rc_fail(world, __func__, "a static body cannot be awake") : true;
    }
    if (b->type == RC_KINEMATIC && !awake) {
        b->awake = false;
        b->sleep_time = 0.0f;
        b->linear_velocity = rc_v2(0.0f, 0.0f);
        b->angular_velocity = 0.0f;
        return true;
    }
    if (!rc_island_set_awake(world, (int32_t)(b - world->bodies.data), awake)) {
        return rc_fail(world, __func__, "out of memory; nothing changed");
    }
    return true;
}

bool rc_body_set_user_data(rc_world *world, rc_body_id id, void *user_data) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    b->user_data = user_data;
    return true;
}

/* ---- mass ------------------------------------------------------------------------------------ */

rc_mass_data rc_body_mass_data(const rc_world *world, rc_body_id id) {
    rc_mass_data m = {0.0f, 0.0f, {0.0f, 0.0f}, 0.0f};
    const rc_body *b = rc_get_body(world, id, __func__);
    if (b == NULL) {
        return m;
    }
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->kind != RC_SHAPE_SEGMENT && shape->kind != RC_KIND_CHAIN) {
            m.area += rc_shape_mass(world, shape).area;
        }
    }
    m.mass = b->mass;
    m.center = b->local_center;
    m.rotational_inertia = b->inertia;
    return m;
}

bool rc_body_set_mass_data(rc_world *world, rc_body_id id, rc_mass_data data) {
    rc_body *b = rc_body_for_change(world, id, __func__);
    if (b == NULL) {
        return false;
    }
    if (b->type != RC_DYNAMIC) {
        return rc_fail(world, __func__, "only a dynamic body has a mass");
    }
    if (!rc_point_mass_ok(data.mass)) {
        return rc_fail(world, __func__, "mass %g must be from FLT_MIN to RC_MAX_MASS", (double)data.mass);
    }
    if (!rc_is_finite(data.rotational_inertia) || data.rotational_inertia < 0.0f ||
        data.rotational_inertia > RC_MAX_ROTATIONAL_INERTIA) {
        return rc_fail(world, __func__, "rotational inertia %g must be finite, >= 0 and at most RC_MAX_ROTATIONAL_INERTIA",
                       (double)data.rotational_inertia);
    }
    if (!rc_vec2_is_finite(data.center)) {
        return rc_fail(world, __func__, "centre (%g, %g) is not finite", (double)data.center.x, (double)data.center.y);
    }
    if (!rc_in_body_reach(data.center)) {
        return rc_fail(world, __func__, RC_BEYOND_BODY_REACH);
    }
    rc_vec2 center = rc_transform_point(b->xf, data.center);
    if (!rc_in_world(center)) {
        return rc_fail(world, __func__, "the centre of mass would lie beyond RC_WORLD_LIMIT");
    }
    float inv_inertia = data.rotational_inertia > 0.0f && !b->fixed_rotation ? 1.0f / data.rotational_inertia : 0.0f;
    if (!rc_is_finite(inv_inertia)) {
        return rc_fail(world, __func__, "the rotational inertia %g has no float inverse",
                       (double)data.rotational_inertia);
    }
    /* the centre moves: its velocity is the old one's plus the turning about the old centre */
    rc_vec2 arm = rc_sub(center, b->center);
    rc_limit_velocity(world, (double)b->linear_velocity.x - (double)b->angular_velocity * arm.y,
                      (double)b->linear_velocity.y + (double)b->angular_velocity * arm.x, b->angular_velocity,
                      &b->linear_velocity, &b->angular_velocity);
    b->mass = data.mass;
    b->inv_mass = 1.0f / data.mass;
    b->inertia = inv_inertia > 0.0f ? data.rotational_inertia : 0.0f;
    b->inv_inertia = inv_inertia;
    b->local_center = data.center;
    b->center = center;
    b->custom_mass = true;
    rc_body_extents(world, b);
    rc_body_wake(b);
    return true;
}
