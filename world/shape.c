/* Shapes on bodies: creation, destruction, placement, mass, the base transform and the
 * materials, pairing rules (the getters and the other setters: shape_access.c). */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

rc_filter rc_default_filter(void) {
    rc_filter f = {1u, UINT32_MAX, 0};
    return f;
}

rc_shape_def rc_shape_default_def(void) {
    rc_shape_def def;
    memset(&def, 0, sizeof def);
    def.scale = rc_v2(1.0f, 1.0f);
    def.friction = 0.6f;
    def.rolling_resistance = 0.2f;
    def.density = 1.0f;
    def.enable_contact_events = true;
    def.enable_sensor_events = true;
    def.filter = rc_default_filter();
    return def;
}

bool rc_shapes_should_pair(const rc_world *world, const rc_shape *a, const rc_shape *b) {
    if (a->body == b->body || (a->sensor && b->sensor)) {
        return false;
    }
    if (a->body_bullet && b->body_bullet && !a->sensor && !b->sensor) {
        /* bullets never meet bullets: their sweeps pass each other, and so does the solver (a
           volley fired from one muzzle starts overlapping: solved, it was thrown apart) */
        return false;
    }
    const rc_body *ba = &world->bodies.data[a->body];
    const rc_body *bb = &world->bodies.data[b->body];
    /* something must be able to move into something: at least one dynamic body, or a sensor
       watching a kinematic body */
    bool dynamic = ba->type == RC_DYNAMIC || bb->type == RC_DYNAMIC;
    bool sensor_sees_kinematic = (a->sensor && bb->type == RC_KINEMATIC) || (b->sensor && ba->type == RC_KINEMATIC);
    if (!dynamic && !sensor_sees_kinematic) {
        return false;
    }
    if (!rc_joints_allow_collision(world, a->body, b->body)) {
        return false; /* a joint with collide_connected false joins them */
    }
    return rc_filters_collide(a->filter, b->filter);
}

bool rc_shape_def_ok(rc_world *world, const rc_shape_def *def, const char *func) {
    if (def == NULL) {
        return rc_fail(world, func, "def is NULL");
    }
    if (!rc_is_finite(def->restitution) || def->restitution < 0.0f || !rc_is_finite(def->friction) ||
        def->friction < 0.0f || !rc_is_finite(def->density) || def->density < 0.0f ||
        !rc_is_finite(def->rolling_resistance) || def->rolling_resistance < 0.0f) {
        return rc_fail(world, func,
                       "restitution %g, friction %g, density %g and rolling resistance %g must be finite and >= 0",
                       (double)def->restitution, (double)def->friction, (double)def->density,
                       (double)def->rolling_resistance);
    }
    return true;
}

static bool scaled_radius_ok(float radius, float scale_x) {
    float r = radius * fabsf(scale_x);
    return rc_is_finite(r) && r > 0.0f;
}

rc_base_transform rc_shape_def_base(const rc_shape_def *def) {
    rc_base_transform base = {def->offset, def->angle, def->scale};
    return base;
}

/* ---- the polygon pool ------------------------------------------------------------------------ */

static rc_vec2 *poly_block(const rc_world *world, const rc_shape *s) { return world->poly_pool.data + s->poly; }

/* Room for one more block of count vertices. */
static bool poly_reserve(rc_world *world, int count) {
    if (world->poly_free[count] != UINT32_MAX) {
        return true;
    }
    return rc_array_reserve(world, world->poly_pool, world->poly_pool.count + RC_POLY_BLOCK(count));
}

static uint32_t poly_take(rc_world *world, int count) {
    world->poly_used += RC_POLY_BLOCK(count);
    uint32_t block = world->poly_free[count];
    if (block != UINT32_MAX) {
        memcpy(&world->poly_free[count], &world->poly_pool.data[block], sizeof(uint32_t));
        return block;
    }
    block = (uint32_t)world->poly_pool.count;
    world->poly_pool.count += RC_POLY_BLOCK(count);
    return block;
}

static void poly_give(rc_world *world, uint32_t block, int count) {
    world->poly_used -= RC_POLY_BLOCK(count);
    /* a free block keeps the next free one in its first entry */
    memcpy(&world->poly_pool.data[block], &world->poly_free[count], sizeof(uint32_t));
    world->poly_free[count] = block;
}

/* ---- placed numbers --------------------------------------------------------------------------- */

rc_convex rc_shape_local(const rc_world *world, const rc_shape *s) { return rc_poly_local(poly_block(world, s), s->count); }

/* A block's body-frame numbers from its local ones under a base transform. */
static void poly_set_base(rc_vec2 *block, int n, const rc_base *base) {
    rc_polygon body = rc_base_polygon(base, &(rc_convex){block + rc_poly_run(4, n), NULL, n, block[2]});
    memcpy(block + rc_poly_run(2, n), body.vertices, sizeof(rc_vec2) * (size_t)n);
    memcpy(block + rc_poly_run(3, n), body.normals, sizeof(rc_vec2) * (size_t)n);
    block[1] = body.centroid;
}

/* Place a block's polygon under a body transform. */
static void poly_place(rc_vec2 *block, int n, rc_transform body, rc_aabb *box) {
    rc_convex frame = rc_poly_body(block, n);
    rc_place_polygon(&frame, body, block + rc_poly_run(0, n), block + rc_poly_run(1, n), &block[0], box);
}

/* A capsule's block is a polygon block of two vertices: its centres, the two sides of the
 * segment between them as normals, the midpoint as centroid; [2] holds the local radius (x)
 * where a polygon's local centroid is. The placed radius is the shape's circle.radius. */
static rc_capsule capsule_in_body(const rc_base *base, const rc_vec2 local[2], float radius) {
    rc_capsule c = {rc_base_apply(base, local[0]), rc_base_apply(base, local[1]), radius * fabsf(base->scale.x)};
    return c;
}

static void capsule_set_base(rc_vec2 *block, const rc_base *base) {
    rc_capsule c = capsule_in_body(base, block + rc_poly_run(4, 2), block[2].x);
    rc_vec2 *centres = block + rc_poly_run(2, 2), *normals = block + rc_poly_run(3, 2);
    centres[0] = c.center1;
    centres[1] = c.center2;
    normals[0] = rc_normalize(rc_right_perp(rc_sub(c.center2, c.center1)));
    normals[1] = rc_neg(normals[0]);
    block[1] = rc_lerp(c.center1, c.center2, 0.5f);
}

static void capsule_place(rc_vec2 *block, rc_transform body, float radius, rc_aabb *box) {
    const rc_vec2 *centres = block + rc_poly_run(2, 2), *normals = block + rc_poly_run(3, 2);
    rc_vec2 *placed = block + rc_poly_run(0, 2), *turned = block + rc_poly_run(1, 2);
    for (int i = 0; i < 2; ++i) {
        placed[i] = rc_transform_point(body, centres[i]);
        turned[i] = rc_rotate(body.q, normals[i]);
    }
    block[0] = rc_transform_point(body, block[1]);
    rc_capsule c = {placed[0], placed[1], radius};
    *box = rc_capsule_box(c);
}

void rc_shape_place(rc_world *world, rc_shape *s, rc_transform body) {
    if (s->kind == RC_SHAPE_SEGMENT) {
        rc_segment_place(world, s, body);
    } else if (s->kind == RC_SHAPE_POLYGON) {
        poly_place(poly_block(world, s), s->count, body, &s->aabb);
    } else if (s->kind == RC_SHAPE_CAPSULE) {
        rc_vec2 *block = poly_block(world, s);
        capsule_place(block, body, s->circle.radius, &s->aabb);
        s->circle.center = block[0];
    } else {
        s->circle = rc_place_circle(&s->base, s->local_radius, body);
        s->aabb = rc_circle_box(s->circle);
    }
}

rc_aabb rc_shape_fat_box(const rc_world *world, const rc_shape *s) {
    rc_aabb box = rc_shape_proxy_box(world, s);
    if (s->body_type == RC_STATIC) {
        return box;
    }
    float m = rc_world_fat_margin(world);
    box.lower = rc_v2(box.lower.x - m, box.lower.y - m);
    box.upper = rc_v2(box.upper.x + m, box.upper.y + m);
    return box;
}

bool rc_shape_proxy_fits(const rc_world *world, const rc_shape *s) {
    if (s->kind == RC_SHAPE_SEGMENT && rc_segment_pieces(world, s) > 1) { /* (only walls have pieces) */
        return rc_segment_pieces_fit(world, s);
    }
    rc_aabb need = rc_shape_proxy_box(world, s), have = rc_grid_get_box(rc_shape_grid(world, s), s->proxy);
    if (s->body_type == RC_STATIC) {
        return rc_aabb_equal(need, have); /* static proxies are exact */
    }
    return have.lower.x <= need.lower.x && have.lower.y <= need.lower.y && have.upper.x >= need.upper.x &&
           have.upper.y >= need.upper.y;
}

void rc_shape_refit_proxy(rc_world *world, const rc_shape *s) {
    if (rc_segment_pieces(world, s) > 1) {
        rc_segment_refit_pieces(world, s); /* (the pieces that moved) */
    } else if (!rc_shape_proxy_fits(world, s)) {
        rc_grid_move(rc_shape_grid(world, s), s->proxy, rc_shape_fat_box(world, s));
    }
}

void rc_shape_refind_pairs(rc_world *world, const rc_shape *s) {
    rc_shape_refit_proxy(world, s);
    rc_grid_touch(rc_shape_grid(world, s), s->proxy);
}

void rc_proxy_follow_body_type(rc_world *world, int32_t proxy, rc_body_type type) {
    rc_grid_set_static(rc_grid_for_type(world, type), proxy, type == RC_STATIC);
    rc_grid_set_mobile(rc_grid_for_type(world, type), proxy, type == RC_DYNAMIC);
}

rc_aabb rc_shape_proxy_box(const rc_world *world, const rc_shape *s) {
    float m;
    if (s->swept) {
        m = rc_speculative_margin(world, s->circle.center);
    } else if (s->body_type == RC_DYNAMIC && !s->sensor) {
        /* the speculative distance: contacts come that early (every solid pair has a dynamic
           side, so only dynamic shapes need the margin) */
        m = 4.0f * world->def.linear_slop;
    } else {
        return s->aabb;
    }
    rc_aabb box = {{s->aabb.lower.x - m, s->aabb.lower.y - m}, {s->aabb.upper.x + m, s->aabb.upper.y + m}};
    return box;
}

rc_aabb rc_shape_box_at(const rc_world *world, const rc_shape *s, rc_transform body) {
    rc_aabb box;
    if (s->kind == RC_SHAPE_SEGMENT) {
        box = rc_segment_box_at(world, s, body);
    } else if (s->kind == RC_SHAPE_POLYGON) {
        rc_vec2 vertices[RC_MAX_POLYGON_VERTICES], centroid;
        rc_convex frame = rc_poly_body(poly_block(world, s), s->count);
        rc_place_polygon(&frame, body, vertices, NULL, &centroid, &box);
    } else if (s->kind == RC_SHAPE_CAPSULE) {
        const rc_vec2 *centres = poly_block(world, s) + rc_poly_run(2, 2);
        rc_capsule c = {rc_transform_point(body, centres[0]), rc_transform_point(body, centres[1]), s->circle.radius};
        box = rc_capsule_box(c);
    } else {
        box = rc_circle_box(rc_place_circle(&s->base, s->local_radius, body));
    }
    return box;
}

/* What a shape is made of before its base transform: a polygon's local outline, a capsule's
 * two local centres (local, count 2) and radius, or a circle's radius (local NULL). */
typedef struct shape_source {
    rc_shape_kind kind;
    const rc_convex *local;
    float radius;
} shape_source;

/* Its mass data in the body frame. */
static rc_mass_data mass_of(const rc_base *base, const shape_source *src, float density) {
    if (src->kind == RC_SHAPE_POLYGON) {
        rc_polygon body_frame = rc_base_polygon(base, src->local);
        return rc_polygon_mass_of(&body_frame, density);
    }
    if (src->kind == RC_SHAPE_CAPSULE) {
        return rc_capsule_mass_of(capsule_in_body(base, src->local->vertices, src->radius), density);
    }
    rc_circle c = rc_place_circle(base, src->radius, (rc_transform)RC_TRANSFORM_IDENTITY);
    return rc_circle_mass_of(c, density);
}

/* A live shape's source (its local numbers stay in its block). */
static shape_source source_of(const rc_world *world, const rc_shape *s, rc_convex *storage) {
    shape_source src = {(rc_shape_kind)s->kind, NULL, s->local_radius};
    if (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE) {
        *storage = rc_shape_local(world, s);
        src.local = storage;
        src.radius = s->kind == RC_SHAPE_CAPSULE ? poly_block(world, s)[2].x : 0.0f;
    }
    return src;
}

rc_mass_data rc_shape_mass(const rc_world *world, const rc_shape *s) {
    if (s->kind == RC_SHAPE_SEGMENT) {
        rc_mass_data none = {0.0f, 0.0f, {0.0f, 0.0f}, 0.0f};
        return none;
    }
    if (s->kind == RC_SHAPE_CAPSULE) {
        const rc_vec2 *centres = poly_block(world, s) + rc_poly_run(2, 2);
        rc_capsule c = {centres[0], centres[1], s->circle.radius};
        return rc_capsule_mass_of(c, s->density);
    }
    if (s->kind == RC_SHAPE_POLYGON) {
        rc_convex frame = rc_poly_body(poly_block(world, s), s->count);
        rc_polygon p;
        memset(&p, 0, sizeof p);
        p.count = frame.count;
        memcpy(p.vertices, frame.vertices, sizeof(rc_vec2) * (size_t)frame.count);
        memcpy(p.normals, frame.normals, sizeof(rc_vec2) * (size_t)frame.count);
        p.centroid = frame.centroid;
        return rc_polygon_mass_of(&p, s->density);
    }
    shape_source src = {RC_SHAPE_CIRCLE, NULL, s->local_radius};
    return mass_of(&s->base, &src, s->density);
}

#define MASS_BEYOND "the body's mass or rotational inertia would be beyond RC_MAX_MASS or RC_MAX_ROTATIONAL_INERTIA"

/* For a dynamic body: does a shape of this geometry and density weigh something, and would the
 * body keep a mass and rotational inertia within float range with it (in place of shape
 * `replaced`, if >= 0)? NULL when so, else why not. */
static const char *dynamic_mass_problem(const rc_world *world, const rc_body *body, const rc_base *base,
                                        const shape_source *src, float density, int32_t replaced) {
    if (body->type != RC_DYNAMIC) {
        return NULL;
    }
    rc_mass_data md = mass_of(base, src, density);
    if (!rc_shape_mass_weighs(density, md)) {
        return RC_SHAPE_WEIGHS_NOTHING;
    }
    return rc_body_mass_fits(world, body, &md, replaced) ? NULL : MASS_BEYOND;
}

/* ---- creation --------------------------------------------------------------------------------- */

/* Put a shape onto a body: slot, numbers, broadphase proxy, body list, mass. */
static rc_shape_id attach(rc_world *world, rc_body_id body_id, rc_body *body, const rc_shape_def *def,
                          const rc_base *base, const shape_source *src, const char *func) {
    /* the new record, placed, before anything in the world changes */
    rc_shape s;
    memset(&s, 0, sizeof s);
    s.kind = (uint8_t)src->kind;
    s.type = src->kind == RC_SHAPE_POLYGON   ? RC_SHAPE_TYPE_POLYGON
             : src->kind == RC_SHAPE_CAPSULE ? RC_SHAPE_TYPE_CAPSULE
                                             : RC_SHAPE_TYPE_CIRCLE;
    bool blocked = src->local != NULL; /* numbers in the polygon pool */
    int n = blocked ? src->local->count : 0;
    s.count = (uint8_t)n;
    s.base = *base;
    rc_vec2 numbers[RC_POLY_BLOCK(RC_MAX_POLYGON_VERTICES)];
    if (blocked) {
        memcpy(numbers + rc_poly_run(4, n), src->local->vertices, sizeof(rc_vec2) * (size_t)n);
    }
    bool moving = body->type != RC_STATIC;
    rc_aabb frame = {{0.0f, 0.0f}, {0.0f, 0.0f}}; /* on a moving body, its box in the body frame */
    if (src->kind == RC_SHAPE_POLYGON) {
        numbers[2] = src->local->centroid;
        poly_set_base(numbers, n, base);
        if (moving) {
            poly_place(numbers, n, RC_TRANSFORM_IDENTITY, &frame);
        }
        poly_place(numbers, n, body->xf, &s.aabb);
    } else if (src->kind == RC_SHAPE_CAPSULE) {
        numbers[2] = rc_v2(src->radius, 0.0f);
        capsule_set_base(numbers, base);
        s.circle.radius = capsule_in_body(base, src->local->vertices, src->radius).radius;
        if (moving) {
            capsule_place(numbers, RC_TRANSFORM_IDENTITY, s.circle.radius, &frame);
        }
        capsule_place(numbers, body->xf, s.circle.radius, &s.aabb);
        s.circle.center = numbers[0];
    } else {
        s.local_radius = src->radius;
        s.circle = rc_place_circle(base, src->radius, body->xf);
        s.aabb = rc_circle_box(s.circle);
        if (moving) {
            frame = rc_circle_box(rc_place_circle(base, src->radius, RC_TRANSFORM_IDENTITY));
        }
    }
    if (!rc_aabb_is_valid(s.aabb) || !rc_box_in_world(s.aabb)) {
        rc_fail(world, func, "the shape placed on its body reaches beyond RC_WORLD_LIMIT");
        return RC_NULL_SHAPE_ID;
    }
    if (moving && !rc_box_in_body_reach(frame)) {
        rc_fail(world, func, RC_BEYOND_BODY_REACH);
        return RC_NULL_SHAPE_ID;
    }
    const char *mass_problem = dynamic_mass_problem(world, body, base, src, def->density, -1);
    if (mass_problem != NULL) {
        rc_fail(world, func, "%s", mass_problem);
        return RC_NULL_SHAPE_ID;
    }
    bool circle = src->kind == RC_SHAPE_CIRCLE;
    if (body->bullet && !def->is_sensor && !rc_body_can_be_bullet(world, body, true, circle)) {
        rc_fail(world, func, "a bullet carries no solid shape (a point) or one solid circle");
        return RC_NULL_SHAPE_ID;
    }
    if (!rc_array_reserve_aligned(world, world->shapes, world->shapes.count + 1, 64) ||
        !rc_array_reserve(world, world->contact_heads, world->shapes.count + 1) ||
        !rc_array_reserve(world, world->deferred, world->shapes.count + 1) ||
        !rc_id_pool_reserve(&world->allocator, &world->shape_ids, 1) ||
        (blocked && !poly_reserve(world, n)) ||
        !rc_world_begin_grid_batches(world, 1, 1)) {
        rc_fail(world, func, "out of memory");
        return RC_NULL_SHAPE_ID;
    }
    int32_t index = rc_id_pool_peek(&world->shape_ids, 0);
    s.body_type = body->type;
    s.sensor = def->is_sensor;
    int32_t proxy = -1;
    /* the new shape can change which circle of the body is swept (and has a grown proxy): room
       for that, then the proxy, in batches that the failure of either undoes */
    if (rc_body_reserve_swept_change(world)) {
        proxy = rc_grid_insert(rc_grid_for_type(world, body->type), rc_shape_fat_box(world, &s), index);
    }
    if (proxy < 0) {
        rc_world_abort_grid_batches(world);
        rc_fail(world, func, "out of memory");
        return RC_NULL_SHAPE_ID;
    }
    rc_world_end_grid_batches(world);
    rc_proxy_follow_body_type(world, proxy, body->type);
    (void)rc_id_pool_take(&world->shape_ids);
    if (index == world->shapes.count) {
        world->shapes.count++;
        world->contact_heads.count++;
    }
    world->contact_heads.data[index] = -1;
    if (blocked) {
        s.poly = poly_take(world, n);
        memcpy(world->poly_pool.data + s.poly, numbers, sizeof(rc_vec2) * (size_t)RC_POLY_BLOCK(n));
    }
    s.body = (int32_t)body_id.index - 1;
    s.body_type = body->type;
    s.body_bullet = body->bullet;
    s.proxy = proxy;
    s.chain = -1;
    s.generation = rc_world_generation(world, &world->shape_ids, index);
    s.restitution = def->restitution;
    s.friction = def->friction;
    s.rolling_resistance = def->rolling_resistance;
    s.density = def->density;
    s.filter = def->filter;
    s.in_use = true;
    s.sensor = def->is_sensor;
    s.contact_events = def->enable_contact_events;
    s.sensor_events = def->enable_sensor_events;
    s.one_sided = def->one_sided;
    s.absorbs = def->absorbs_projectiles;
    s.pre_solve = def->enable_pre_solve_events;
    s.user_data = def->user_data;
    s.next_in_body = body->first_shape;
    int32_t old_swept = body->swept_shape;
    world->shapes.data[index] = s;
    body->first_shape = index;
    rc_body_add_shape_mass(world, body, index);
    rc_body_update_mass(world, body);
    rc_body_refresh_swept(world, body, old_swept);
    rc_body_wake(body);
    if (body->type == RC_STATIC) {
        rc_level_grid_settle(world);
    }
    return rc_shape_id_of(world, index);
}

rc_shape_id rc_shape_create_circle(rc_world *world, rc_body_id body_id, const rc_shape_def *def, float radius) {
    static const char *func = "rc_shape_create_circle";
    rc_body *body = rc_body_for_change(world, body_id, func);
    if (body == NULL || !rc_shape_def_ok(world, def, func)) {
        return RC_NULL_SHAPE_ID;
    }
    if (!rc_is_finite(radius) || radius <= 0.0f) {
        rc_fail(world, func, "a circle's radius must be finite and greater than zero (radius %g)", (double)radius);
        return RC_NULL_SHAPE_ID;
    }
    rc_base base;
    const char *error = rc_base_make(rc_shape_def_base(def), RC_SHAPE_CIRCLE, &base);
    if (error == NULL && !scaled_radius_ok(radius, def->scale.x)) {
        error = "the scaled radius is zero or too large for a float";
    }
    if (error != NULL) {
        rc_fail(world, func, "%s (radius %g)", error, (double)radius);
        return RC_NULL_SHAPE_ID;
    }
    shape_source src = {RC_SHAPE_CIRCLE, NULL, radius};
    return attach(world, body_id, body, def, &base, &src, func);
}

static rc_shape_id create_polygon_shape(rc_world *world, rc_body_id body_id, rc_body *body, const rc_shape_def *def,
                                        const rc_polygon *local, const char *func) {
    rc_base base;
    const char *error = rc_base_make(rc_shape_def_base(def), RC_SHAPE_POLYGON, &base);
    if (error == NULL) {
        rc_convex view = rc_convex_of(local);
        error = rc_base_check_polygon(&base, &view);
    }
    if (error != NULL) {
        rc_fail(world, func, "%s", error);
        return RC_NULL_SHAPE_ID;
    }
    rc_convex view = rc_convex_of(local);
    shape_source src = {RC_SHAPE_POLYGON, &view, 0.0f};
    return attach(world, body_id, body, def, &base, &src, func);
}

rc_shape_id rc_shape_create_polygon(rc_world *world, rc_body_id body_id, const rc_shape_def *def,
                                    const rc_vec2 *points, int count) {
    static const char *func = "rc_shape_create_polygon";
    rc_body *body = rc_body_for_change(world, body_id, func);
    if (body == NULL || !rc_shape_def_ok(world, def, func)) {
        return RC_NULL_SHAPE_ID;
    }
    rc_polygon local;
    rc_polygon_error pe = rc_make_polygon(points, count, &local);
    if (pe != RC_POLYGON_OK) {
        rc_fail(world, func, "%s (count %d)", rc_polygon_error_string(pe), count);
        return RC_NULL_SHAPE_ID;
    }
    return create_polygon_shape(world, body_id, body, def, &local, func);
}

rc_shape_id rc_shape_create_box(rc_world *world, rc_body_id body_id, const rc_shape_def *def, float half_width,
                                float half_height) {
    static const char *func = "rc_shape_create_box";
    rc_body *body = rc_body_for_change(world, body_id, func);
    if (body == NULL || !rc_shape_def_ok(world, def, func)) {
        return RC_NULL_SHAPE_ID;
    }
    rc_polygon local = rc_make_box(half_width, half_height);
    if (local.count == 0) {
        rc_fail(world, func, "half extents (%g, %g) must be finite and > 0", (double)half_width, (double)half_height);
        return RC_NULL_SHAPE_ID;
    }
    return create_polygon_shape(world, body_id, body, def, &local, func);
}

rc_shape_id rc_shape_create_capsule(rc_world *world, rc_body_id body_id, const rc_shape_def *def, rc_vec2 center1,
                                    rc_vec2 center2, float radius) {
    static const char *func = "rc_shape_create_capsule";
    rc_body *body = rc_body_for_change(world, body_id, func);
    if (body == NULL || !rc_shape_def_ok(world, def, func)) {
        return RC_NULL_SHAPE_ID;
    }
    if (!rc_vec2_is_finite(center1) || !rc_vec2_is_finite(center2) || !rc_is_finite(radius) || radius <= 0.0f) {
        rc_fail(world, func, "the centres must be finite and the radius finite and greater than zero (radius %g)",
                (double)radius);
        return RC_NULL_SHAPE_ID;
    }
    rc_base base;
    const char *error = rc_base_make(rc_shape_def_base(def), RC_SHAPE_CAPSULE, &base);
    rc_vec2 centres[2] = {center1, center2};
    if (error == NULL && !scaled_radius_ok(radius, def->scale.x)) {
        error = "the scaled radius is zero or too large for a float";
    }
    if (error == NULL) {
        rc_capsule c = capsule_in_body(&base, centres, radius);
        rc_vec2 axis = rc_normalize(rc_sub(c.center2, c.center1));
        if (!rc_vec2_is_finite(c.center1) || !rc_vec2_is_finite(c.center2) || (axis.x == 0.0f && axis.y == 0.0f)) {
            error = "the centres coincide under the base transform (make a circle) or are not finite";
        }
    }
    if (error != NULL) {
        rc_fail(world, func, "%s (centres (%g, %g) and (%g, %g), radius %g)", error, (double)center1.x,
                (double)center1.y, (double)center2.x, (double)center2.y, (double)radius);
        return RC_NULL_SHAPE_ID;
    }
    rc_convex local = {centres, NULL, 2, rc_lerp(center1, center2, 0.5f)};
    shape_source src = {RC_SHAPE_CAPSULE, &local, radius};
    return attach(world, body_id, body, def, &base, &src, func);
}

void rc_shape_destroy(rc_world *world, rc_shape_id id) {
    rc_shape *s = rc_shape_for_change(world, id, "rc_shape_destroy");
    if (s == NULL) {
        return;
    }
    int32_t index = (int32_t)id.index - 1;
    if (s->kind == RC_SHAPE_SEGMENT) {
        rc_fail(world, "rc_shape_destroy", "a segment goes with its chain: destroy the chain");
        return;
    }
    if (s->kind == RC_KIND_CHAIN) {
        rc_chain_destroy(world, index);
        return;
    }
    rc_shape_remove(world, index, true);
}

void rc_shape_remove(rc_world *world, int32_t index, bool body_stays) {
    rc_shape *s = &world->shapes.data[index];
    rc_shape_destroy_contacts(world, index);
    rc_grid_remove(rc_shape_grid(world, s), s->proxy);
    if (s->body_type == RC_STATIC) {
        rc_level_grid_settle(world);
    }
    rc_body *body = &world->bodies.data[s->body];
    /* unlink from the body's list (a body has few shapes) */
    int32_t *link = &body->first_shape;
    while (*link != index) {
        link = &world->shapes.data[*link].next_in_body;
    }
    *link = s->next_in_body;
    if (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE) {
        poly_give(world, s->poly, s->count);
    }
    s->in_use = false;
    rc_id_pool_give(&world->shape_ids, index);
    rc_body_mass_changed(world, body);
    if (!body_stays) {
        return; /* (its mass and motion go with it: a compound taken apart shape by shape) */
    }
    int32_t old_swept = body->swept_shape == index ? -1 : body->swept_shape;
    rc_body_update_mass(world, body);
    rc_body_refresh_swept(world, body, old_swept);
    rc_body_wake(body);
}

bool rc_shape_is_valid(const rc_world *world, rc_shape_id id) {
    if (world == NULL || id.index == 0 || id.index > (uint32_t)world->shapes.count) {
        return false;
    }
    const rc_shape *s = &world->shapes.data[id.index - 1];
    return s->in_use && s->generation == id.generation;
}

/* ---- setters ---------------------------------------------------------------------------------- */

/* The box of a shape under another base transform, placed on its body at xf. */
static rc_aabb based_box(const rc_world *world, const rc_shape *s, const rc_base *base, const shape_source *src,
                         rc_transform xf) {
    rc_aabb box;
    if (s->kind == RC_SHAPE_CAPSULE) {
        rc_capsule c = capsule_in_body(base, src->local->vertices, src->radius);
        c.center1 = rc_transform_point(xf, c.center1);
        c.center2 = rc_transform_point(xf, c.center2);
        box = rc_capsule_box(c);
    } else if (s->kind == RC_SHAPE_POLYGON) {
        /* the polygon under the new base, placed */
        rc_convex local = rc_shape_local(world, s);
        rc_polygon frame = rc_base_polygon(base, &local);
        rc_vec2 vertices[RC_MAX_POLYGON_VERTICES], centroid;
        rc_convex view = rc_convex_of(&frame);
        rc_place_polygon(&view, xf, vertices, NULL, &centroid, &box);
    } else {
        rc_shape trial = *s;
        trial.base = *base;
        box = rc_shape_box_at(world, &trial, xf);
    }
    return box;
}

bool rc_shape_set_base_transform(rc_world *world, rc_shape_id id, rc_vec2 offset, float angle, rc_vec2 scale) {
    rc_shape *s = rc_shape_for_change(world, id, __func__);
    if (s == NULL) {
        return false;
    }
    if (s->chain >= 0) {
        return rc_fail(world, __func__, "a chain's base transform is set when it is made");
    }
    rc_base_transform given = {offset, angle, scale};
    rc_base base;
    const char *error = rc_base_make(given, (rc_shape_kind)s->kind, &base);
    if (error == NULL && s->kind == RC_SHAPE_POLYGON) {
        rc_convex local = rc_shape_local(world, s);
        error = rc_base_check_polygon(&base, &local);
    }
    rc_convex storage;
    shape_source src = source_of(world, s, &storage);
    if (error == NULL && s->kind != RC_SHAPE_POLYGON && !scaled_radius_ok(src.radius, scale.x)) {
        error = "the scaled radius is zero or too large for a float";
    }
    if (error == NULL && s->kind == RC_SHAPE_CAPSULE) {
        rc_capsule c = capsule_in_body(&base, src.local->vertices, src.radius);
        rc_vec2 axis = rc_normalize(rc_sub(c.center2, c.center1));
        if (!rc_vec2_is_finite(c.center1) || !rc_vec2_is_finite(c.center2) || (axis.x == 0.0f && axis.y == 0.0f)) {
            error = "the capsule's centres coincide under the base transform or are not finite";
        }
    }
    if (error != NULL) {
        return rc_fail(world, __func__, "%s", error);
    }
    rc_body *body = &world->bodies.data[s->body];
    rc_aabb box = based_box(world, s, &base, &src, body->xf);
    if (!rc_aabb_is_valid(box) || !rc_box_in_world(box)) {
        return rc_fail(world, __func__, "the shape placed on its body reaches beyond RC_WORLD_LIMIT");
    }
    if (body->type != RC_STATIC && !rc_box_in_body_reach(based_box(world, s, &base, &src, RC_TRANSFORM_IDENTITY))) {
        return rc_fail(world, __func__, RC_BEYOND_BODY_REACH);
    }
    const char *mass_problem = dynamic_mass_problem(world, body, &base, &src, s->density, (int32_t)id.index - 1);
    if (mass_problem != NULL) {
        return rc_fail(world, __func__, "%s", mass_problem);
    }
    if (!rc_grid_reserve(rc_shape_grid(world, s), 4) || !rc_array_reserve(world, world->islands, world->bodies.count)) {
        return rc_fail(world, __func__, "out of memory");
    }
    s->base = base;
    if (s->kind == RC_SHAPE_POLYGON) {
        poly_set_base(poly_block(world, s), s->count, &base);
    } else if (s->kind == RC_SHAPE_CAPSULE) {
        capsule_set_base(poly_block(world, s), &base);
        s->circle.radius = capsule_in_body(&base, src.local->vertices, src.radius).radius;
    }
    rc_shape_place(world, s, body->xf);
    rc_shape_refit_proxy(world, s);
    if (s->body_type == RC_STATIC) {
        rc_level_grid_settle(world);
    }
    rc_shape_flag_contacts(world, (int32_t)id.index - 1);
    rc_body_mass_changed(world, body);
    rc_body_update_mass(world, body);
    rc_shape_wake_changed(world, (int32_t)id.index - 1); /* (what rested on the shape) */
    rc_body_wake(body);
    return true;
}

void rc_shape_wake_changed(rc_world *world, int32_t shape) {
    const rc_shape *s = &world->shapes.data[shape];
    bool chain = s->kind == RC_SHAPE_SEGMENT || s->kind == RC_KIND_CHAIN;
    rc_island_wake_changed(world, &world->bodies.data[s->body], chain ? -1 : shape);
}

static bool set_material(rc_world *world, rc_shape_id id, float value, int which, const char *func) {
    rc_shape *s = rc_shape_for_change(world, id, func);
    if (s == NULL) {
        return false;
    }
    if (!rc_is_finite(value) || value < 0.0f) {
        return rc_fail(world, func, "%g must be finite and >= 0", (double)value);
    }
    int32_t index = (int32_t)id.index - 1, n = rc_setter_records(world, index);
    if (!rc_array_reserve(world, world->islands, world->bodies.count)) {
        return rc_fail(world, func, "out of memory");
    }
    if (which == 2 && s->kind != RC_SHAPE_SEGMENT && s->kind != RC_KIND_CHAIN) {
        rc_convex storage;
        shape_source src = source_of(world, s, &storage);
        const char *mass_problem = dynamic_mass_problem(world, &world->bodies.data[s->body], &s->base, &src, value, index);
        if (mass_problem != NULL) {
            return rc_fail(world, func, "%s", mass_problem);
        }
    }
    float old = which == 0 ? s->restitution : which == 1 ? s->friction : s->density;
    for (int32_t k = 0; k < n; ++k) {
        rc_shape *r = &world->shapes.data[rc_setter_record(world, index, k)];
        switch (which) {
        case 0:
            r->restitution = value;
            break;
        case 1:
            r->friction = value;
            break;
        default:
            r->density = value;
            break;
        }
    }
    if (which == 2) {
        rc_body_mass_changed(world, &world->bodies.data[s->body]);
        rc_body_update_mass(world, &world->bodies.data[s->body]);
    }
    /* what rests on it may slide, bounce or sink now: a crate asleep on a slope made slippery
       slides. The same value set again (a game setting it every frame) wakes nothing: the body
       can still fall asleep. */
    if (value != old) {
        rc_shape_wake_changed(world, index);
    }
    return true;
}

bool rc_shape_set_restitution(rc_world *world, rc_shape_id id, float v) { return set_material(world, id, v, 0, __func__); }
bool rc_shape_set_friction(rc_world *world, rc_shape_id id, float v) { return set_material(world, id, v, 1, __func__); }
bool rc_shape_set_density(rc_world *world, rc_shape_id id, float v) { return set_material(world, id, v, 2, __func__); }
