/* Giving memory back. A world grows its arrays as bodies, shapes and contacts come; when most
 * of them are gone again (a level unloaded, a battle over) the step gives the memory back.
 *
 * What is done is decided by counts alone (a slot array is trimmed once the slots in use have
 * fallen to a quarter of their peak since it was last trimmed): the slots above the last live
 * one are forgotten, which numbers later bodies and shapes, so the same calls must number them
 * alike whatever the allocator does. Then each array is copied into a smaller one where that
 * halves it at least; a copy that cannot get its memory keeps the larger array and changes
 * nothing else. */
#include "world/world_internal.h"

#include <string.h>

/* Slot arrays need trimming when their use has fallen to a quarter of its peak. */
static bool fallen(int32_t *peak, int32_t live) {
    *peak = live > *peak ? live : *peak;
    if (*peak < 256 || live * 4 > *peak) {
        return false;
    }
    *peak = live;
    return true;
}

static void compact_bodies(rc_world *world) {
    if (!fallen(&world->peak_bodies, rc_id_pool_live(&world->body_ids))) {
        return;
    }
    /* the kept colours live in world->colors, shrunk below with none of it copied: the next
       step colours afresh (as compact_contacts forgets the kept gathering) */
    rc_gather_forget(world);
    int32_t end = world->bodies.count;
    while (end > 0 && !world->bodies.data[end - 1].in_use) {
        --end;
    }
    rc_id_pool_trim(&world->body_ids, end);
    world->bodies.count = world->body_ids.next;
    int32_t n = world->bodies.count;
    rc_mem_shrink_aligned(&world->allocator, (void **)&world->bodies.data, &world->bodies.capacity, n, n,
                          sizeof(rc_body), 64);
    /* the step's scratch is sized with the bodies */
    rc_array_shrink(world, world->undo, n + 1);
    rc_array_shrink(world, world->scratch_undo, n + 1);
    world->islands.count = n;
    rc_array_shrink(world, world->islands, n + 1);
    world->body_masses.count = n;
    rc_array_shrink(world, world->body_masses, n + 1);
    rc_array_shrink(world, world->moving, n);
    rc_array_shrink(world, world->sweep_list, n);
    rc_array_shrink(world, world->sweeps_ahead, n);
    rc_array_shrink(world, world->solver_owner, n);
    rc_array_shrink_aligned(world, world->states, n + 2, 64);
    rc_array_shrink(world, world->colors, n + 1);
    rc_array_shrink(world, world->kicks, n);
    rc_array_shrink(world, world->spin_kicks, n);
    rc_array_shrink(world, world->turns, n);
    rc_array_shrink(world, world->moves, n > world->moves.count ? n : world->moves.count);
    rc_array_shrink(world, world->linear_damping, n);
    rc_array_shrink(world, world->angular_damping, n);
    rc_array_shrink(world, world->spin_limits, n);
    rc_array_shrink(world, world->support_counts, n);
    rc_array_shrink(world, world->cancelled_counts, n);
    rc_array_shrink(world, world->held, n);
    rc_array_shrink(world, world->body_slots, n);
    rc_array_shrink(world, world->body_active, n);
    rc_array_shrink(world, world->gather_starts, n + 1);
    rc_array_shrink(world, world->support_shapes, n * RC_MAX_SUPPORTS);
    rc_array_shrink(world, world->cancelled_shapes, n * RC_MAX_SKIPPED);
    rc_id_pool_shrink(&world->allocator, &world->body_ids);
}

/* Move the live polygons' blocks into a pool of just their size, in shape order. */
static void compact_polygons(rc_world *world) {
    int32_t used = world->poly_used;
    if (world->poly_pool.count < 4 * used + 1024) {
        return;
    }
    rc_vec2 *pool = rc_mem_alloc(&world->allocator, sizeof(rc_vec2) * (size_t)(used > 0 ? used : 1));
    if (pool == NULL) {
        return;
    }
    uint32_t next = 0;
    for (int32_t i = 0; i < world->shapes.count; ++i) {
        rc_shape *s = &world->shapes.data[i];
        if (s->in_use && (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE)) {
            size_t n = (size_t)RC_POLY_BLOCK(s->count);
            memcpy(pool + next, world->poly_pool.data + s->poly, sizeof(rc_vec2) * n);
            s->poly = next;
            next += (uint32_t)n;
        }
    }
    rc_array_free(world, world->poly_pool);
    world->poly_pool.data = pool;
    world->poly_pool.count = used;
    world->poly_pool.capacity = used > 0 ? used : 1;
    for (int n = 0; n <= RC_MAX_POLYGON_VERTICES; ++n) {
        world->poly_free[n] = UINT32_MAX;
    }
    rc_level_changed(world); /* the level's polygons have other blocks */
}

static void compact_shapes(rc_world *world) {
    if (fallen(&world->peak_shapes, rc_id_pool_live(&world->shape_ids))) {
        int32_t end = world->shapes.count;
        while (end > 0 && !world->shapes.data[end - 1].in_use) {
            --end;
        }
        rc_id_pool_trim(&world->shape_ids, end);
        world->shapes.count = world->shape_ids.next;
        int32_t n = world->shapes.count;
        rc_mem_shrink_aligned(&world->allocator, (void **)&world->shapes.data, &world->shapes.capacity, n, n,
                              sizeof(rc_shape), 64);
        world->contact_heads.count = n;
        rc_array_shrink(world, world->contact_heads, n);
        rc_array_shrink(world, world->deferred, n);
        rc_array_shrink(world, world->proxy_undo, 2 * n); /* (reserve_scratch: two moves a shape) */
        rc_id_pool_shrink(&world->allocator, &world->shape_ids);
    }
    compact_polygons(world);
    if (world->seams.revision != world->level_revision + 1u) {
        rc_seam_cache_free(world); /* of a level that changed since (a level unloaded) */
    }
}

static void compact_contacts(rc_world *world) {
    if (fallen(&world->peak_contacts, rc_id_pool_live(&world->contact_ids))) {
        /* the kept gathering lives in gather_entries, shrunk below with none of it copied: the
           next step gathers afresh (most bodies destroyed between steps, then a step that ended
           no contact kept it and read the shrunk array's garbage: test_gather_kept) */
        rc_gather_forget(world);
        int32_t end = world->contacts.count;
        while (end > 0 && !world->contacts.data[end - 1].in_use) {
            --end;
        }
        rc_id_pool_trim(&world->contact_ids, end);
        world->contacts.count = world->contact_ids.next;
        rc_array_shrink_aligned(world, world->contacts, world->contacts.count, 64);
        /* the step reserves a constraint per live contact */
        rc_array_shrink(world, world->constraints, rc_id_pool_live(&world->contact_ids));
        rc_array_shrink(world, world->constraint_order, rc_id_pool_live(&world->contact_ids));
        world->contact_constraint.count = 0; /* (the next gathering maps the slots again) */
        world->contact_constraint_set = 0;
        rc_array_shrink(world, world->contact_constraint, world->contacts.count);
        rc_array_shrink(world, world->gather_entries, 2 * rc_id_pool_live(&world->contact_ids));
        rc_array_shrink(world, world->set_changes, rc_id_pool_live(&world->contact_ids) / 4 + 64);
        rc_array_shrink_aligned(world, world->blocks,
                                rc_solver_block_lines(world->solver_lanes, rc_id_pool_live(&world->contact_ids)), 64);
        rc_array_shrink(world, world->block_flags, rc_id_pool_live(&world->contact_ids));
        rc_id_pool_shrink(&world->allocator, &world->contact_ids);
    }
    rc_map_shrink(&world->allocator, &world->contact_map);
}

static void compact_chains(rc_world *world) {
    if (!fallen(&world->peak_chains, rc_id_pool_live(&world->chain_ids))) {
        return;
    }
    int32_t end = world->chains.count;
    while (end > 0 && world->chains.data[end - 1].shape < 0) {
        --end;
    }
    rc_id_pool_trim(&world->chain_ids, end);
    world->chains.count = world->chain_ids.next;
    rc_array_shrink(world, world->chains, world->chains.count);
    rc_id_pool_shrink(&world->allocator, &world->chain_ids);
}

void rc_world_give_back_memory(rc_world *world) {
    compact_bodies(world);
    compact_shapes(world);
    compact_contacts(world);
    compact_chains(world);
    /* per-step lists: kept at twice what the last step used, once four times larger; the event
       lists at what the next step reserves, room for an event of every live contact
       (rc_contacts_reserve_events): given back to what the step used, they were taken again at
       every step (four blocks of a contact's size each, each step) */
    int32_t live = rc_id_pool_live(&world->contact_ids);
    rc_array_shrink(world, world->contact_begin, world->contact_begin.count + live);
    rc_array_shrink(world, world->contact_end, world->contact_end.count + live);
    rc_array_shrink(world, world->sensor_begin, world->sensor_begin.count + live);
    rc_array_shrink(world, world->sensor_end, world->sensor_end.count + live);
    rc_array_shrink(world, world->impacts, 2 * world->impacts.count);
    rc_array_shrink(world, world->new_contacts, 2 * world->new_contacts.count);
    /* (the contacts a step kept before its first look at them: every contact of a floor the game
       moved under a crowd, once) */
    rc_array_shrink_aligned(world, world->refresh_undo, 2 * world->refresh_undo.count, 64);
    rc_array_shrink(world, world->refresh_undo_at, 2 * world->refresh_undo_at.count);
    /* the records a restore replaced, kept for the next restore: given back after two seconds
       of 60 Hz steps without one (a game that rolls back restores every frame) */
    if (world->spare != NULL && ++world->steps_since_restore > 120) {
        rc_world_free_spare(world);
    }
}
