/* Each record of a world snapshot, field by field (world/snapshot.h). One io function per record
 * both writes and reads it, so the two cannot disagree. A record's in_use flag comes first, and
 * a free body, shape or contact slot is that flag alone: what a free record held is never read
 * again (making a body, shape or contact sets every field), so it is not kept. The indices of a
 * live record are checked against the arrays they name as they are read; rc_world_links_valid
 * then checks that they name live records of the right kind. */
#include "world/snapshot.h"

#include <float.h>
#include <stddef.h>
#include <string.h>


/* Bounds on the bytes of a record (RC_BYTES_RECORD: speed hints, not limits). */
enum { BODY_BYTES = 256, SHAPE_BYTES = 192, CONTACT_BYTES = 320, JOINT_BYTES = 256, EVENT_BYTES = 128 };

/* A small enumeration stored in a byte: at most max. */
RC_IO void io_enum(rc_bytes *b, uint8_t *v, uint8_t max) {
    rc_io_u8(b, v);
    if (b->reading && *v > max) {
        rc_bytes_fail(b);
    }
}

RC_IO void io_rot(rc_bytes *b, rc_rot *q) {
    rc_io_f32(b, &q->c);
    rc_io_f32(b, &q->s);
}

RC_IO void io_transform(rc_bytes *b, rc_transform *t) {
    rc_io_vec2(b, &t->p);
    io_rot(b, &t->q);
}

RC_IO void io_filter(rc_bytes *b, rc_filter *f) {
    rc_io_u32(b, &f->category_bits);
    rc_io_u32(b, &f->mask_bits);
    rc_io_i32(b, &f->group_index);
}

RC_IO void io_id(rc_bytes *b, uint32_t *index, uint32_t *generation) {
    rc_io_u32(b, index);
    rc_io_u32(b, generation);
}

RC_IO void io_manifold(rc_bytes *b, rc_manifold *m) {
    rc_io_vec2(b, &m->normal);
    for (int k = 0; k < 2; ++k) {
        rc_io_vec2(b, &m->points[k]);
        rc_io_f32(b, &m->depths[k]);
    }
    int32_t n = m->point_count;
    rc_io_count(b, &n, 2);
    m->point_count = n;
    rc_io_f32(b, &m->depth);
}

/* A record's in_use flag, which comes first; false for a free slot (that flag alone), whose
 * record is zeroed as it is read. */
RC_IO bool io_in_use(rc_bytes *b, bool *in_use, void *record, size_t size) {
    rc_io_bool(b, in_use);
    if (!*in_use && b->reading) {
        memset(record, 0, size);
    }
    return *in_use;
}

RC_IO void body_fields(rc_bytes *b, rc_body *x, const rc_snapshot_counts *n) {
    if (b->reading) {
        x->in_use = true;
        x->user_data = NULL; /* the game's: restore carries it over where the id lives on */
    }
    io_transform(b, &x->xf);
    rc_io_vec2(b, &x->center);
    rc_io_vec2(b, &x->linear_velocity);
    rc_io_f32(b, &x->angular_velocity);
    rc_io_f32(b, &x->min_extent);
    rc_io_f32(b, &x->max_extent);
    if (b->reading && !(x->max_extent >= 0.0f)) {
        rc_bytes_fail(b); /* (< 0 marks extents to work out again: written worked out, never read) */
    }
    io_enum(b, &x->type, RC_DYNAMIC);
    io_enum(b, &x->motion, RC_MOTION_SWEPT_CIRCLE);
    rc_io_bool(b, &x->bullet);
    rc_io_bool(b, &x->awake);
    rc_io_bool(b, &x->enable_sleep);
    rc_io_bool(b, &x->fixed_rotation);
    rc_io_bool(b, &x->enable_response);
    rc_io_bool(b, &x->moved);
    rc_io_bool(b, &x->custom_mass);
    rc_io_index(b, &x->solver_slot, n->bodies, true);
    rc_io_vec2(b, &x->local_center);
    rc_io_f32(b, &x->angle);
    rc_io_f32(b, &x->mass);
    rc_io_f32(b, &x->inv_mass);
    rc_io_f32(b, &x->inertia);
    rc_io_f32(b, &x->inv_inertia);
    rc_io_f32(b, &x->linear_damping);
    rc_io_f32(b, &x->angular_damping);
    rc_io_f32(b, &x->gravity_scale);
    rc_io_f32(b, &x->sleep_time);
    rc_io_i32(b, &x->max_bounces);
    rc_io_index(b, &x->first_shape, n->shapes, true);
    rc_io_u32(b, &x->generation);
    rc_io_vec2(b, &x->force);
    rc_io_f32(b, &x->torque);
    rc_io_f32(b, &x->point_mass);
    io_filter(b, &x->point_filter);
    rc_io_index(b, &x->swept_shape, n->shapes, true);
    rc_io_index(b, &x->last_hit_shape, n->shapes, true);
    rc_io_i32(b, &x->last_hit_step);
    rc_io_i32(b, &x->bounces_left);
    rc_io_i32(b, &x->bounces_made);
    rc_io_i32(b, &x->step_bounces);
    rc_io_vec2(b, &x->step_move);
    rc_io_f32(b, &x->step_turn);
    if (b->reading && x->type == RC_STATIC && (x->solver_slot != -1 || x->step_bounces != 0)) {
        rc_bytes_fail(b); /* (a static body holds the step scratch a step gives it: written so, never else) */
    }
}

void rc_snapshot_io_body(rc_bytes *b, rc_body *x, const rc_snapshot_counts *n) {
    rc_bytes local = *b; /* (rc_bytes_local) */
    RC_BYTES_RECORD(&local, BODY_BYTES, body_fields(&local, x, n));
    *b = local;
}

/* A shape's unions are 32-bit numbers of one kind or another (a polygon's pool index or a
 * circle's radius, a circle's or a segment's placed numbers; a base transform or a wall's ends
 * and index): stored as the words they are, whatever the kind. */
#define SHAPE_FIRST_WORDS ((offsetof(rc_shape, aabb) - offsetof(rc_shape, poly)) / 4)
#define SHAPE_SECOND_WORDS ((offsetof(rc_shape, restitution) - offsetof(rc_shape, base)) / 4)
_Static_assert(SHAPE_FIRST_WORDS == 4 && SHAPE_SECOND_WORDS == 6, "a shape's unions are 4 and 6 words");

RC_IO void io_union_words(rc_bytes *b, void *at, size_t words) {
    uint32_t w[8];
    memcpy(w, at, 4 * words);
    rc_io_words(b, w, words);
    if (b->reading) {
        memcpy(at, w, 4 * words);
    }
}

/* Does a live shape's polygon block lie in the pool? */
static bool poly_block_fits(const rc_shape *x, int32_t pool) {
    if (x->kind != RC_SHAPE_POLYGON && x->kind != RC_SHAPE_CAPSULE) {
        return true;
    }
    return x->count >= 2 && x->count <= RC_MAX_POLYGON_VERTICES &&
           (uint64_t)x->poly + (uint64_t)RC_POLY_BLOCK(x->count) <= (uint64_t)pool;
}

RC_IO void shape_fields(rc_bytes *b, rc_shape *x, const rc_snapshot_counts *n) {
    if (b->reading) {
        x->in_use = true;
        x->user_data = NULL; /* the game's: restore carries it over where the id lives on */
    }
    io_enum(b, &x->kind, RC_KIND_CHAIN);
    io_enum(b, &x->count, RC_MAX_POLYGON_VERTICES);
    io_enum(b, &x->type, RC_SHAPE_TYPE_CAPSULE);
    rc_io_bool(b, &x->sensor);
    rc_io_bool(b, &x->contact_events);
    rc_io_bool(b, &x->sensor_events);
    rc_io_bool(b, &x->one_sided);
    io_enum(b, &x->body_type, RC_DYNAMIC);
    rc_io_bool(b, &x->body_bullet);
    rc_io_bool(b, &x->swept);
    bool absorbs = x->absorbs, pre_solve = x->pre_solve; /* bit-fields */
    rc_io_bool(b, &absorbs);
    rc_io_bool(b, &pre_solve);
    x->absorbs = absorbs;
    x->pre_solve = pre_solve;
    io_filter(b, &x->filter);
    rc_io_index(b, &x->body, n->bodies, true);
    rc_io_i32(b, &x->proxy); /* checked against the grid once both are read */
    io_union_words(b, (char *)x + offsetof(rc_shape, poly), SHAPE_FIRST_WORDS);
    rc_io_aabb(b, &x->aabb);
    io_union_words(b, (char *)x + offsetof(rc_shape, base), SHAPE_SECOND_WORDS);
    rc_io_f32(b, &x->restitution);
    rc_io_f32(b, &x->friction);
    rc_io_f32(b, &x->rolling_resistance);
    rc_io_f32(b, &x->density);
    rc_io_u32(b, &x->generation);
    rc_io_index(b, &x->next_in_body, n->shapes, true);
    rc_io_index(b, &x->chain, n->chains, true);
    if (b->reading && (x->body < 0 || !poly_block_fits(x, n->poly_pool))) {
        rc_bytes_fail(b);
    }
}

void rc_snapshot_io_shape(rc_bytes *b, rc_shape *x, const rc_snapshot_counts *n) {
    rc_bytes local = *b; /* (rc_bytes_local) */
    RC_BYTES_RECORD(&local, SHAPE_BYTES, shape_fields(&local, x, n));
    *b = local;
}

RC_IO void io_contact_point(rc_bytes *b, rc_contact_point *p) {
    rc_io_vec2(b, &p->point);
    rc_io_vec2(b, &p->anchor_a);
    rc_io_vec2(b, &p->anchor_b);
    rc_io_f32(b, &p->separation);
    rc_io_f32(b, &p->normal_impulse);
    rc_io_f32(b, &p->tangent_impulse);
    rc_io_f32(b, &p->approach);
    rc_io_u16(b, &p->id);
    rc_io_vec2(b, &p->local_a);
    rc_io_vec2(b, &p->local_b);
}

RC_IO void io_contact(rc_bytes *b, rc_contact *x, const rc_snapshot_counts *n) {
    if (!io_in_use(b, &x->in_use, x, sizeof *x)) {
        return;
    }
    for (int k = 0; k < 2; ++k) {
        rc_io_index(b, &x->shape[k], n->shapes, true);
        rc_io_index(b, &x->body[k], n->bodies, true);
        rc_io_index(b, &x->edge[k].prev, n->contacts, true);
        rc_io_index(b, &x->edge[k].next, n->contacts, true);
    }
    if (b->reading && (x->shape[0] < 0 || x->shape[1] < 0 || x->body[0] < 0 || x->body[1] < 0)) {
        rc_bytes_fail(b);
    }
    rc_io_count(b, &x->point_count, 2);
    rc_io_bool(b, &x->touching);
    rc_io_bool(b, &x->sensor);
    rc_io_bool(b, &x->flagged);
    if (b->reading) {
        x->placed = false; /* (set and read within a step: never state between steps) */
        x->apart_axis = 0; /* (a hint the narrow phase checks: never state) */
    }
    rc_io_f32(b, &x->rolling_impulse);
    rc_io_vec2(b, &x->normal);
    for (int k = 0; k < 2; ++k) {
        io_contact_point(b, &x->points[k]);
    }
    io_manifold(b, &x->manifold);
    rc_io_u8(b, &x->kept);
    if (b->reading && x->kept >= RC_KEPT_LIMIT) {
        rc_bytes_fail(b);
    }
    rc_io_vec2(b, &x->kept_normal);
    io_transform(b, &x->kept_frame);
    rc_io_f32(b, &x->face_drift);
    if (b->reading && !(x->face_drift >= 0.0f && x->face_drift <= FLT_MAX)) {
        rc_bytes_fail(b);
    }
}

/* A chain's outline lives in a block of its own, allocated here when reading (a failure leaves
 * none). */
bool rc_snapshot_io_chain(rc_bytes *b, rc_world *world, rc_chain *x, const rc_snapshot_counts *n) {
    rc_io_i32(b, &x->shape);
    /* the points (8 bytes each, below): no more than the payload holds; the block's room for
       repeats welded away is not state, and a restored chain has room for its points alone */
    rc_io_count(b, &x->count, (int32_t)((b->size < (size_t)INT32_MAX ? b->size : (size_t)INT32_MAX) / 8));
    rc_io_count(b, &x->segments, x->count);
    rc_io_bool(b, &x->loop);
    rc_io_bool(b, &x->flipped);
    if (b->reading) {
        x->capacity = x->count;
    }
    if (b->reading && (x->shape < 0 || x->shape >= n->shapes || x->capacity == 0)) {
        rc_bytes_fail(b);
    }
    if (b->failed) {
        x->points = NULL;
        x->segment_shapes = NULL;
        return true;
    }
    if (b->reading) {
        x->points = rc_mem_alloc(&world->allocator, rc_chain_bytes(x->capacity));
        if (x->points == NULL) {
            x->capacity = 0;
            return false;
        }
        memset(x->points, 0, rc_chain_bytes(x->capacity));
        x->segment_shapes = (int32_t *)(void *)(x->points + x->capacity);
    }
    rc_io_words(b, x->points, 2 * (size_t)x->count);
    for (int32_t k = 0; k < x->segments; ++k) {
        rc_io_index(b, &x->segment_shapes[k], n->shapes, false);
    }
    return true;
}

/* A joint. Its edges' links (each body's list) are not kept: rc_joints_relink rebuilds them. */
RC_IO void io_joint(rc_bytes *b, rc_joint *x, const rc_snapshot_counts *n) {
    if (!io_in_use(b, &x->in_use, x, sizeof *x)) {
        return;
    }
    if (b->reading) {
        x->user_data = NULL; /* the game's: restore carries it over where the id lives on */
    }
    io_enum(b, &x->type, RC_MOUSE_JOINT);
    rc_io_bool(b, &x->collide_connected);
    rc_io_bool(b, &x->enable_limit);
    rc_io_bool(b, &x->enable_motor);
    rc_io_bool(b, &x->enable_spring);
    rc_io_u32(b, &x->generation);
    for (int k = 0; k < 2; ++k) {
        rc_io_index(b, &x->edge[k].body, n->bodies, true);
        if (b->reading) {
            x->edge[k].prev = x->edge[k].next = -1;
        }
        rc_io_vec2(b, &x->local_anchor[k]);
    }
    rc_io_vec2(b, &x->local_axis_a);
    rc_io_f32(b, &x->reference_angle);
    rc_io_f32(b, &x->lower);
    rc_io_f32(b, &x->upper);
    rc_io_f32(b, &x->length);
    rc_io_f32(b, &x->motor_speed);
    rc_io_f32(b, &x->max_motor);
    rc_io_f32(b, &x->hertz);
    rc_io_f32(b, &x->damping_ratio);
    rc_io_f32(b, &x->angular_hertz);
    rc_io_f32(b, &x->angular_damping_ratio);
    rc_io_f32(b, &x->max_force);
    rc_io_vec2(b, &x->target);
    rc_io_vec2(b, &x->linear_impulse);
    rc_io_f32(b, &x->angular_impulse);
    rc_io_f32(b, &x->spring_impulse);
    rc_io_f32(b, &x->motor_impulse);
    rc_io_f32(b, &x->lower_impulse);
    rc_io_f32(b, &x->upper_impulse);
    rc_io_vec2(b, &x->reaction_force);
    rc_io_f32(b, &x->reaction_torque);
}

static void io_pool(rc_bytes *b, rc_id_pool *pool, int32_t records) {
    rc_io_count(b, &pool->next, records);
    rc_io_count(b, &pool->free_count, pool->next);
    rc_io_count(b, &pool->retired, pool->next);
    rc_io_u32(b, &pool->floor);
    if (b->reading && pool->free_count + pool->retired > pool->next) {
        rc_bytes_fail(b);
    }
}

/* A pool's arrays, once reserved for `next` slots. */
static void io_pool_slots(rc_bytes *b, rc_id_pool *pool) {
    for (int32_t i = 0; i < pool->free_count; ++i) {
        rc_io_index(b, &pool->free_slots[i], pool->next, false);
    }
    rc_io_words(b, pool->counts, (size_t)pool->next);
}

static bool read_pool(rc_bytes *b, rc_world *world, rc_id_pool *pool, int32_t records) {
    io_pool(b, pool, records);
    if (b->failed) {
        return true;
    }
    int32_t next = pool->next, free_count = pool->free_count;
    pool->next = 0; /* room for `next` slots from an empty pool */
    pool->free_count = 0;
    if (!rc_id_pool_reserve(&world->allocator, pool, next)) {
        return false;
    }
    pool->next = next;
    pool->free_count = free_count;
    io_pool_slots(b, pool);
    return true;
}

RC_IO void io_begin_event(rc_bytes *b, rc_contact_begin_event *e) {
    io_id(b, &e->shape_a.index, &e->shape_a.generation);
    io_id(b, &e->shape_b.index, &e->shape_b.generation);
    io_manifold(b, &e->manifold);
    rc_io_f32(b, &e->approach_speed);
}

RC_IO void io_end_event(rc_bytes *b, rc_contact_end_event *e) {
    io_id(b, &e->shape_a.index, &e->shape_a.generation);
    io_id(b, &e->shape_b.index, &e->shape_b.generation);
    io_manifold(b, &e->manifold);
}

RC_IO void io_sensor_event(rc_bytes *b, rc_sensor_event *e) {
    io_id(b, &e->sensor.index, &e->sensor.generation);
    io_id(b, &e->visitor.index, &e->visitor.generation);
}

RC_IO void io_impact(rc_bytes *b, rc_impact_event *e) {
    io_id(b, &e->projectile.index, &e->projectile.generation);
    io_id(b, &e->shape.index, &e->shape.generation);
    rc_io_vec2(b, &e->point);
    rc_io_vec2(b, &e->normal);
    rc_io_f32(b, &e->approach_speed);
    rc_io_i32(b, &e->bounce);
    rc_io_bool(b, &e->spent);
}

/* A move event's user data is the game's: restore sets it from the body it names. */
RC_IO void io_move(rc_bytes *b, rc_body_move_event *e) {
    io_id(b, &e->body.index, &e->body.generation);
    io_transform(b, &e->transform);
    rc_io_bool(b, &e->fell_asleep);
}

/* A free chain slot: what it held is never read again. */
static void free_chain(rc_chain *x) {
    memset(x, 0, sizeof *x);
    x->shape = -1;
}

bool rc_snapshot_reserve(rc_world *w, const rc_snapshot_counts *n, bool free_slots) {
#define RESERVE(array, wanted) (rc_array_reserve(w, w->array, (wanted)) && (w->array.count = (wanted), true))
/* (the contacts start on a cache line, as contact.c reserves them) */
#define RESERVE_LINES(array, wanted)                                                                                   \
    (rc_array_reserve_aligned(w, w->array, (wanted), 64) && (w->array.count = (wanted), true))
    bool ok = rc_array_reserve_aligned(w, w->bodies, n->bodies, 64) && rc_array_reserve_aligned(w, w->shapes, n->shapes, 64);
    if (ok) {
        w->bodies.count = n->bodies;
        w->shapes.count = n->shapes;
    }
    ok = ok && RESERVE(contact_heads, n->shapes) && RESERVE(poly_pool, n->poly_pool) && RESERVE(chains, n->chains) &&
         RESERVE_LINES(contacts, n->contacts) && RESERVE(joints, n->joints);
    ok = ok && RESERVE(contact_begin, n->contact_begin) && RESERVE(contact_end, n->contact_end);
    ok = ok && RESERVE(sensor_begin, n->sensor_begin) && RESERVE(sensor_end, n->sensor_end);
    ok = ok && RESERVE(impacts, n->impacts) && RESERVE(moves, n->moves);
#undef RESERVE
#undef RESERVE_LINES
    if (!ok) {
        w->chains.count = 0; /* (no block of its own to give back) */
        return false;
    }
    /* the level fills its slots first; the frame reads the others (in_use and a chain's block
       say which): all free before a level section is read (rc_level_copy frees the others as it
       goes, in the same pass) */
    for (int32_t i = 0; i < n->bodies && free_slots; ++i) {
        w->bodies.data[i].in_use = false;
    }
    for (int32_t i = 0; i < n->shapes && free_slots; ++i) {
        w->shapes.data[i].in_use = false;
    }
    for (int32_t i = 0; i < n->chains; ++i) {
        w->chains.data[i].points = NULL;
        w->chains.data[i].shape = -1;
    }
    return true;
}

static bool io_pools(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n) {
    rc_id_pool *pools[5] = {&w->body_ids, &w->shape_ids, &w->chain_ids, &w->contact_ids, &w->joint_ids};
    int32_t records[5] = {n->bodies, n->shapes, n->chains, n->contacts, n->joints};
    for (int k = 0; k < 5; ++k) {
        if (!b->reading) {
            io_pool(b, pools[k], records[k]);
            io_pool_slots(b, pools[k]);
        } else if (!read_pool(b, w, pools[k], records[k])) {
            return false;
        }
    }
    return true;
}

void rc_snapshot_io_poly_block(rc_bytes *b, rc_world *w, const rc_shape *x) {
    if (x->kind == RC_SHAPE_POLYGON || x->kind == RC_SHAPE_CAPSULE) {
        /* (reading, poly_block_fits held or the cursor failed) */
        rc_io_words(b, w->poly_pool.data + (b->failed ? 0 : x->poly), b->failed ? 0 : 2 * (size_t)RC_POLY_BLOCK(x->count));
    }
}

/* The frame's bodies and shapes: a level slot (lv's, else what its record says) is skipped (a
 * level shape gives its contact list), any other is its in_use flag and, live, its fields; a
 * record read may not be the level's (the level's slots are the level section's alone). */
static void io_frame_bodies_and_shapes(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n, const rc_level_index *lv) {
    for (int32_t i = 0; i < n->bodies && !b->failed; ++i) {
        rc_body *x = &w->bodies.data[i];
        if (lv != NULL ? rc_level_index_body(lv, i) : rc_level_body(x)) {
            continue;
        }
        if (!io_in_use(b, &x->in_use, x, sizeof *x)) {
            continue;
        }
        if (!b->reading && x->max_extent < 0.0f) {
            /* shapes changed since the last step: the extents it will work out, written (the
               world itself is not changed by writing) */
            rc_body fresh = *x;
            rc_body_extents(w, &fresh);
            rc_snapshot_io_body(b, &fresh, n);
            continue;
        }
        rc_snapshot_io_body(b, x, n);
        if (b->reading && x->type == RC_STATIC) {
            rc_bytes_fail(b);
        }
    }
    int32_t *heads = w->contact_heads.data; /* (a level shape's record is not met: its list's head is here) */
    for (int32_t i = 0; i < n->shapes && !b->failed; ++i) {
        rc_shape *x = &w->shapes.data[i];
        if (lv != NULL ? rc_level_index_shape(lv, i) : rc_level_shape(w, x)) {
            rc_io_index(b, &heads[i], n->contacts, true);
            continue;
        }
        if (!io_in_use(b, &x->in_use, x, sizeof *x)) {
            if (b->reading) {
                heads[i] = -1;
            }
            continue;
        }
        rc_snapshot_io_shape(b, x, n);
        rc_io_index(b, &heads[i], n->contacts, true);
        if (b->reading && !b->failed && rc_level_shape(w, x)) {
            rc_bytes_fail(b);
        }
        if (!b->failed) {
            rc_snapshot_io_poly_block(b, w, x);
        }
    }
}

/* The polygon pool's free lists, each the link word of its blocks in list order from the head
 * the settings hold (the rest of a free block is never read: not kept). Reading, each block lies
 * in the pool, and a list is no longer than the pool holds blocks (counters_fit checks the
 * lists again once all is read). */
static void io_poly_free_lists(rc_bytes *b, rc_world *w) {
    for (int k = 0; k <= RC_MAX_POLYGON_VERTICES && !b->failed; ++k) {
        uint64_t block = (uint64_t)RC_POLY_BLOCK(k), pool = (uint64_t)w->poly_pool.count;
        uint32_t at = w->poly_free[k];
        for (uint64_t links = 0; at != UINT32_MAX && !b->failed; ++links) {
            if (links * block > pool || (uint64_t)at + block > pool) {
                rc_bytes_fail(b); /* (writing, the world's lists hold: never) */
                return;
            }
            uint32_t next;
            memcpy(&next, &w->poly_pool.data[at], sizeof next);
            rc_io_u32(b, &next);
            memcpy(&w->poly_pool.data[at], &next, sizeof next);
            at = next;
        }
    }
}

/* The frame's chains: a level chain is skipped, any other slot is whether it holds a chain and,
 * if so, the chain (not the level's). Reading, a chain's block is the state's once read (a
 * failure gives back every block the state holds). */
static bool io_frame_chains(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n) {
    for (int32_t i = 0; i < n->chains && !b->failed; ++i) {
        rc_chain *x = &w->chains.data[i];
        if (rc_level_chain(w, x)) {
            continue;
        }
        bool has_block = x->points != NULL;
        rc_io_bool(b, &has_block);
        if (!has_block || b->failed) {
            if (b->reading) {
                free_chain(x);
            }
            continue;
        }
        if (!rc_snapshot_io_chain(b, w, x, n)) {
            return false;
        }
        if (b->reading && !b->failed && rc_level_chain(w, x)) {
            rc_bytes_fail(b);
        }
    }
    return true;
}

/* The frame's contacts, joints and events, through a local cursor (rc_bytes_local). */
static void io_frame_records(rc_bytes *cursor, rc_world *w, const rc_snapshot_counts *n) {
    rc_bytes local = *cursor, *b = &local;
    for (int32_t i = 0; i < n->contacts; ++i) {
        RC_BYTES_RECORD(b, CONTACT_BYTES, io_contact(b, &w->contacts.data[i], n));
    }
    for (int32_t i = 0; i < n->joints; ++i) {
        RC_BYTES_RECORD(b, JOINT_BYTES, io_joint(b, &w->joints.data[i], n));
    }
    for (int32_t i = 0; i < n->contact_begin; ++i) {
        RC_BYTES_RECORD(b, EVENT_BYTES, io_begin_event(b, &w->contact_begin.data[i]));
    }
    for (int32_t i = 0; i < n->contact_end; ++i) {
        RC_BYTES_RECORD(b, EVENT_BYTES, io_end_event(b, &w->contact_end.data[i]));
    }
    for (int32_t i = 0; i < n->sensor_begin; ++i) {
        RC_BYTES_RECORD(b, EVENT_BYTES, io_sensor_event(b, &w->sensor_begin.data[i]));
    }
    for (int32_t i = 0; i < n->sensor_end; ++i) {
        RC_BYTES_RECORD(b, EVENT_BYTES, io_sensor_event(b, &w->sensor_end.data[i]));
    }
    for (int32_t i = 0; i < n->impacts; ++i) {
        RC_BYTES_RECORD(b, EVENT_BYTES, io_impact(b, &w->impacts.data[i]));
    }
    for (int32_t i = 0; i < n->moves; ++i) {
        RC_BYTES_RECORD(b, EVENT_BYTES, io_move(b, &w->moves.data[i]));
    }
    *cursor = local;
}

bool rc_snapshot_io_frame(rc_bytes *b, rc_world *w, const rc_snapshot_counts *n, const rc_level_index *lv) {
    if (!io_pools(b, w, n)) {
        return false;
    }
    io_frame_bodies_and_shapes(b, w, n, lv);
    io_poly_free_lists(b, w);
    if (!io_frame_chains(b, w, n)) {
        return false;
    }
    io_frame_records(b, w, n);
    return true;
}
