/* World snapshots (include/ricochet/snapshot.h): the header, the settings and counts, the grid,
 * then the records (snapshot_records.c). A restore reads everything into a world record of its
 * own and moves it into the world only once every byte was read and checked: a bad snapshot or
 * memory running out leaves the world as it was. */
#include "world/snapshot.h"

#include <ricochet/snapshot.h>

#include <assert.h>
#include <string.h>

/* The world's tuning that a step reads (the def less what the game owns: allocator, callbacks,
 * the task system, capacity hints), its id salt and its counters. */
static void io_settings(rc_bytes *b, rc_world *w) {
    rc_world_def *d = &w->def;
    rc_io_vec2(b, &d->gravity);
    rc_io_f32(b, &d->cell_size);
    rc_io_bool(b, &d->enable_sleep);
    rc_io_f32(b, &d->sleep_time);
    rc_io_f32(b, &d->sleep_linear_speed);
    rc_io_f32(b, &d->sleep_angular_speed);
    rc_io_f32(b, &d->restitution_threshold);
    rc_io_f32(b, &d->contact_skin);
    rc_io_i32(b, &d->sub_steps);
    rc_io_f32(b, &d->linear_slop);
    rc_io_f32(b, &d->contact_hertz);
    rc_io_f32(b, &d->contact_damping_ratio);
    rc_io_f32(b, &d->contact_push_speed);
    rc_io_f32(b, &d->max_linear_speed);
    rc_io_f32(b, &d->max_angular_speed);
    rc_io_u32(b, &w->id_salt);
    rc_io_i32(b, &w->steps);
    rc_io_bool(b, &w->contacts_flagged);
    rc_io_i32(b, &w->peak_bodies);
    rc_io_i32(b, &w->peak_shapes);
    rc_io_i32(b, &w->peak_contacts);
    rc_io_i32(b, &w->peak_chains);
    rc_io_i32(b, &w->poly_used);
    for (int n = 0; n <= RC_MAX_POLYGON_VERTICES; ++n) {
        rc_io_u32(b, &w->poly_free[n]);
    }
    for (int k = 0; k < 4; ++k) {
        rc_io_i32(b, &w->published[k]);
    }
    rc_io_i32(b, &w->published_impacts);
    rc_io_i32(b, &w->published_moves);
    if (b->reading && (d->sub_steps < 1 || d->sub_steps > 64 || !(d->max_linear_speed > 0.0f) ||
                       !(d->max_linear_speed <= RC_MAX_LINEAR_SPEED) || !(d->max_angular_speed > 0.0f) ||
                       !(d->max_angular_speed <= RC_MAX_ANGULAR_SPEED) || !rc_vec2_is_finite(d->gravity))) {
        rc_bytes_fail(b);
    }
}

/* The counts, each held to what the payload (`bytes`: both sections) could hold of its records
 * (at least `least` bytes each: a free slot of bodies, shapes, chains and contacts is one byte, a
 * polygon pool's entry at least one, the link of a free block of three), and for a frame
 * snapshot, whose level is the world's, to that beside the world's own records (`level`: a level
 * body or chain takes no byte of a frame, nor its polygons' blocks), so that a forged count
 * cannot ask for much more memory than the snapshot's own size and the world's justify. */
static void io_counts(rc_bytes *b, rc_snapshot_counts *n, size_t bytes, const rc_snapshot_counts *level) {
    int32_t *fields[12] = {&n->bodies,       &n->shapes,      &n->poly_pool,    &n->chains,
                           &n->contacts,     &n->joints,      &n->contact_begin, &n->contact_end,
                           &n->sensor_begin, &n->sensor_end,  &n->impacts,       &n->moves};
    static const int32_t least[12] = {1, 1, 1, 1, 1, 1, 40, 36, 16, 16, 40, 25};
    int64_t extra[12] = {0};
    if (level != NULL) {
        extra[0] = level->bodies;
        extra[2] = level->poly_pool;
        extra[3] = level->chains;
    }
    for (int k = 0; k < 12; ++k) {
        int64_t max = (int64_t)((bytes < (size_t)INT32_MAX ? bytes : (size_t)INT32_MAX) / (size_t)least[k]) + extra[k];
        rc_io_count(b, fields[k], b->reading ? (int32_t)(max < INT32_MAX ? max : INT32_MAX) : INT32_MAX);
    }
}

/* Are the counters that index the arrays within them? Are the polygon pool's free lists (their
 * links stored in the pool's blocks) within the pool, and free of cycles? */
static bool counters_fit(const rc_world *w) {
    if (w->published[0] > w->contact_begin.count || w->published[1] > w->contact_end.count ||
        w->published[2] > w->sensor_begin.count || w->published[3] > w->sensor_end.count ||
        w->published_impacts > w->impacts.count || w->published_moves > w->moves.count || w->published[0] < 0 ||
        w->published[1] < 0 || w->published[2] < 0 || w->published[3] < 0 || w->published_impacts < 0 ||
        w->published_moves < 0 || w->poly_used < 0 || w->poly_used > w->poly_pool.count) {
        return false;
    }
    for (int n = 0; n <= RC_MAX_POLYGON_VERTICES; ++n) {
        uint32_t block = w->poly_free[n];
        for (int32_t links = 0; block != UINT32_MAX; ++links) {
            if (links > w->poly_pool.count || (uint64_t)block + (uint64_t)RC_POLY_BLOCK(n) > (uint64_t)w->poly_pool.count) {
                return false;
            }
            memcpy(&block, &w->poly_pool.data[block], sizeof block);
        }
    }
    return true;
}

/* Mark entries [at, at + n) of a bitmap; false when one was marked already. */
static bool mark_entries(uint64_t *marks, uint32_t at, uint32_t n) {
    while (n > 0) {
        uint32_t bit = at & 63u, take = 64u - bit < n ? 64u - bit : n;
        uint64_t mask = (take == 64u ? ~(uint64_t)0 : (((uint64_t)1 << take) - 1u)) << bit;
        if ((marks[at >> 6] & mask) != 0u) {
            return false;
        }
        marks[at >> 6] |= mask;
        at += take;
        n -= take;
    }
    return true;
}

/* No two blocks of the polygon pool (a live polygon's or capsule's, a free list's) share an
 * entry: each block is saved with what owns it, so a shared entry would read as one owner's and
 * write back as the other's, and a frame's block over a level's would change the level the world
 * keeps. And poly_used counts the live blocks' entries: the pool's compaction copies the live
 * blocks into poly_used entries, and a destroyed shape takes its block off the count, so a count
 * short of the live blocks would write past the new pool, and one that went below zero would be
 * saved into a snapshot that no restore takes. (Each block lies in the pool: poly_block_fits,
 * counters_fit.) The level's blocks, where lv has them, are marked from it: apart in the world
 * whose level it is, and within the pool (rc_level_copy_chains). */
static bool poly_blocks_apart(const rc_world *w, const rc_level_index *lv, bool *out_of_memory) {
    size_t words = ((size_t)w->poly_pool.count + 63u) / 64u;
    if (words == 0) {
        return w->poly_used == 0;
    }
    uint64_t *marks = rc_mem_alloc(&w->allocator, words * sizeof(uint64_t));
    if (marks == NULL) {
        *out_of_memory = true;
        return false;
    }
    memset(marks, 0, words * sizeof(uint64_t));
    bool ok = true;
    int64_t live = 0; /* (entries of the live blocks) */
    if (lv != NULL) {
        memcpy(marks, lv->poly_bits, ((size_t)lv->poly_end + 63u) / 64u * sizeof(uint64_t));
        live = lv->poly_live;
    }
    int32_t count = w->shapes.count;
    for (int32_t i = rc_level_next_other_shape(lv, 0, count); i < count && ok;
         i = rc_level_next_other_shape(lv, i + 1, count)) {
        const rc_shape *s = &w->shapes.data[i];
        if (s->in_use && (s->kind == RC_SHAPE_POLYGON || s->kind == RC_SHAPE_CAPSULE)) {
            ok = mark_entries(marks, s->poly, (uint32_t)RC_POLY_BLOCK(s->count));
            live += RC_POLY_BLOCK(s->count);
        }
    }
    ok = ok && live == w->poly_used;
    for (int n = 0; n <= RC_MAX_POLYGON_VERTICES && ok; ++n) {
        for (uint32_t block = w->poly_free[n]; block != UINT32_MAX && ok;) {
            ok = mark_entries(marks, block, (uint32_t)RC_POLY_BLOCK(n));
            memcpy(&block, &w->poly_pool.data[block], sizeof block);
        }
    }
    rc_mem_free(&w->allocator, marks, words * sizeof(uint64_t));
    return ok;
}

/* Every live shape but a chain's record has the grid proxy that names it, and the grid has no
 * other (a query hands each proxy's user to the world as a shape index); the contact map from
 * the live contacts; the joints' lists and pair map from the joints (rc_joints_relink). A level
 * record copied from the world (level_from_world) is the world's, with the world's proxy in the
 * world's level grid: only counted (by lv, where there is one: not looked at). */
static bool link_grid_and_map(rc_world *w, const rc_grid *level_grid, bool level_from_world, const rc_level_index *lv,
                              bool *out_of_memory) {
    int32_t with_proxies = 0, in_level = lv != NULL ? lv->listed : 0, count = w->shapes.count;
    for (int32_t i = rc_level_next_other_shape(lv, 0, count); i < count; i = rc_level_next_other_shape(lv, i + 1, count)) {
        const rc_shape *s = &w->shapes.data[i];
        if (!s->in_use) {
            continue;
        }
        bool needs_proxy = s->kind != RC_KIND_CHAIN, level = s->body_type == RC_STATIC;
        if (level_from_world && rc_level_shape(w, s)) {
            in_level += needs_proxy ? 1 : 0; /* (a copy of the world's record, its proxy the world's) */
            continue;
        }
        const rc_grid *grid = level ? level_grid : w->grid; /* (its body's type: links_valid) */
        if (needs_proxy ? !(rc_grid_is_proxy(grid, s->proxy) && rc_grid_get_user(grid, s->proxy) == i)
                        : s->proxy != -1) {
            return false;
        }
        with_proxies += needs_proxy && !level ? 1 : 0;
        in_level += needs_proxy && level ? 1 : 0;
    }
    if (with_proxies != rc_grid_proxy_count(w->grid) || in_level != rc_grid_proxy_count(level_grid)) {
        return false; /* (each shape's proxy names it alone: so the grids' are all theirs) */
    }
    if (!rc_map_reserve(&w->allocator, &w->contact_map, rc_id_pool_live(&w->contact_ids))) {
        *out_of_memory = true;
        return false;
    }
    for (int32_t i = 0; i < w->contacts.count; ++i) {
        const rc_contact *c = &w->contacts.data[i];
        if (c->in_use) {
            if (rc_map_get(&w->contact_map, rc_contact_key(c->shape[0], c->shape[1])) >= 0) {
                return false; /* one contact per pair */
            }
            rc_map_set(&w->contact_map, rc_contact_key(c->shape[0], c->shape[1]), i);
        }
    }
    /* each body's list of joints, and the pairs they keep apart */
    if (!rc_joints_relink(w)) {
        *out_of_memory = true;
        return false;
    }
    return true;
}

static uint32_t float_bits(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* Every shape's proxy has the pieces the world gives it (wall_pieces.c: one, but for a long
 * static wall), from the first (after links_valid: a segment's chain is its own). How many a wall
 * has depends on the tuning the snapshot sets (rc_wall_piece_count: the cell size and the linear
 * slop), so a level record copied from the world has the pieces the snapshot's tuning gives it
 * only where that tuning is the world's: then it is not looked at again; else it is checked as a
 * level read would be (a forged tuning refused alike, whichever world reads it). (lv: the
 * level's slots, where the world has an index of them.) */
static bool pieces_as_made(const rc_world *w, const rc_grid *level_grid, const rc_world *world, bool level_from_world,
                           const rc_level_index *lv) {
    /* (bit for bit: a slop of -0 cuts a wall into one piece, of +0 into the most) */
    bool as_made = level_from_world && float_bits(w->def.cell_size) == float_bits(world->def.cell_size) &&
                   float_bits(w->def.linear_slop) == float_bits(world->def.linear_slop);
    const rc_level_index *passed = as_made ? lv : NULL; /* (the level's, passed by) */
    int32_t count = w->shapes.count;
    for (int32_t i = rc_level_next_other_shape(passed, 0, count); i < count;
         i = rc_level_next_other_shape(passed, i + 1, count)) {
        const rc_shape *s = &w->shapes.data[i];
        if (s->in_use && s->kind != RC_KIND_CHAIN && !(as_made && rc_level_shape(w, s)) &&
            rc_grid_piece_count(s->body_type == RC_STATIC ? level_grid : w->grid, s->proxy) != rc_segment_pieces(w, s)) {
            return false;
        }
    }
    return true;
}

/* rc_world_links_valid_beside on what was read (lv: the level's records, the world's, taken as
 * valid but for their contact lists), with scratch from the allocator. */
static bool links_valid(const rc_world *w, const rc_level_index *lv, bool *out_of_memory) {
    int32_t n = w->bodies.count;
    n = n > w->shapes.count ? n : w->shapes.count;
    n = n > w->chains.count ? n : w->chains.count;
    n = n > w->contacts.count ? n : w->contacts.count;
    if (n == 0) {
        return true;
    }
    uint8_t *seen = rc_mem_alloc(&w->allocator, (size_t)n);
    if (seen == NULL) {
        *out_of_memory = true;
        return false;
    }
    memset(seen, 0, (size_t)n);
    bool ok = rc_world_links_valid_beside(w, seen, lv);
    rc_mem_free(&w->allocator, seen, (size_t)n);
    return ok;
}

/* The frame section written (or counted), after the level's. */
static bool write_frame(rc_bytes *b, const rc_world *world) {
    rc_world *w = (rc_world *)world; /* (writing only reads the world) */
    io_settings(b, w);
    rc_snapshot_counts n = rc_snapshot_counts_of(w);
    io_counts(b, &n, 0, NULL);
    rc_grid_save(w->grid, b);
    rc_snapshot_io_frame(b, w, &n, rc_level_index_current(w)); /* (of the level's shapes: only their lists' heads) */
    rc_grid_save_moves(w->level_grid, b); /* (the rest of the level's grid is the level's) */
    return !b->failed;
}

/* The header: magic, version, kind, the payload's size and its level section's, the checksum
 * of the frame section and the level's (a frame snapshot's: of the level it was taken over). */
#define SNAPSHOT_MAGIC 0x4E534352u /* "RCSN" */
#define HEADER_BYTES 48u
#define KIND_FULL 0u
#define KIND_FRAME 1u

typedef struct snapshot_header {
    uint32_t magic, version, kind, reserved;
    uint64_t size, level_size, checksum, level_checksum;
} snapshot_header;

static void io_header(rc_bytes *b, snapshot_header *h) {
    rc_io_u32(b, &h->magic);
    rc_io_u32(b, &h->version);
    rc_io_u32(b, &h->kind);
    rc_io_u32(b, &h->reserved);
    rc_io_u64(b, &h->size);
    rc_io_u64(b, &h->level_size);
    rc_io_u64(b, &h->checksum);
    rc_io_u64(b, &h->level_checksum);
}

static size_t counted_size(const rc_world *world, bool with_level) {
    rc_bytes b = rc_bytes_counter();
    if (with_level) {
        rc_snapshot_counts n = rc_snapshot_counts_of(world);
        rc_snapshot_io_level(&b, (rc_world *)world, &n);
    }
    write_frame(&b, world);
    return HEADER_BYTES + b.at;
}

size_t rc_world_snapshot_size(const rc_world *world) { return world != NULL ? counted_size(world, true) : 0; }

size_t rc_world_frame_snapshot_size(const rc_world *world) { return world != NULL ? counted_size(world, false) : 0; }

/* A full snapshot (the level section, then the frame's) or a frame snapshot, written straight
 * into the buffer in one pass, and measured only when it does not fit. */
static size_t write_snapshot(const rc_world *world, void *buffer, size_t capacity, bool full, const char *func) {
    if (world == NULL) {
        return 0;
    }
    if (rc_world_is_locked(world)) {
        rc_fail(world, func, "the world is locked: a snapshot is taken between calls, not from a callback");
        return 0;
    }
    if (buffer == NULL) {
        rc_fail(world, func, "buffer is NULL");
        return 0;
    }
    uint8_t *out = (uint8_t *)buffer;
    rc_bytes b = rc_bytes_writer(out + HEADER_BYTES, capacity >= HEADER_BYTES ? capacity - HEADER_BYTES : 0);
    size_t level_size = 0;
    if (full) {
        rc_snapshot_counts n = rc_snapshot_counts_of(world);
        rc_snapshot_io_level(&b, (rc_world *)world, &n);
        level_size = b.at;
    }
    if (capacity < HEADER_BYTES || !write_frame(&b, world)) {
        rc_fail(world, func, "capacity %zu is below the %zu bytes the snapshot needs (%s)", capacity,
                counted_size(world, full), full ? "rc_world_snapshot_size" : "rc_world_frame_snapshot_size");
        return 0;
    }
    uint64_t level_checksum;
    if (full) {
        level_checksum = rc_bytes_checksum(out + HEADER_BYTES, level_size);
        rc_level_checksum_keep(world, level_checksum);
    } else {
        level_checksum = rc_level_checksum(world);
    }
    snapshot_header h = {SNAPSHOT_MAGIC,
                         RC_SNAPSHOT_VERSION,
                         full ? KIND_FULL : KIND_FRAME,
                         0u,
                         (uint64_t)b.at,
                         (uint64_t)level_size,
                         rc_bytes_checksum(out + HEADER_BYTES + level_size, b.at - level_size),
                         level_checksum};
    rc_bytes head = rc_bytes_writer(out, HEADER_BYTES);
    io_header(&head, &h);
    return HEADER_BYTES + b.at;
}

size_t rc_world_snapshot(const rc_world *world, void *buffer, size_t capacity) {
    return write_snapshot(world, buffer, capacity, true, "rc_world_snapshot");
}

size_t rc_world_snapshot_frame(const rc_world *world, void *buffer, size_t capacity) {
    return write_snapshot(world, buffer, capacity, false, "rc_world_snapshot_frame");
}

#define DAMAGED "its checksum does not match: the bytes are damaged"

/* The header's word on the payload: NULL when it holds, else why not. */
static const char *check_header(const uint8_t *in, size_t size, snapshot_header *h) {
    if (size < HEADER_BYTES) {
        return "shorter than a snapshot's header: not a snapshot, or truncated";
    }
    rc_bytes head = rc_bytes_reader(in, HEADER_BYTES);
    memset(h, 0, sizeof *h); /* read into: every field is written, none read before */
    io_header(&head, h);
    if (h->magic != SNAPSHOT_MAGIC) {
        return "not a ricochet snapshot (its magic number is wrong)";
    }
    if (h->version != RC_SNAPSHOT_VERSION) {
        return "written by another version of the snapshot format";
    }
    if (h->size != (uint64_t)(size - HEADER_BYTES)) {
        return "its size is not the size its header gives: truncated or padded";
    }
    if (h->kind > KIND_FRAME || h->reserved != 0u || h->level_size > h->size ||
        (h->kind == KIND_FRAME) != (h->level_size == 0u)) {
        return "its header is damaged";
    }
    /* (the frame section's checksum is taken as it is read: rc_world_restore) */
    if (h->kind == KIND_FULL && h->level_checksum != rc_bytes_checksum(in + HEADER_BYTES, (size_t)h->level_size)) {
        return DAMAGED;
    }
    return NULL;
}

/* Where a restore's level comes from: the level section, or the target world's own level
 * (`world`: the snapshot's), copied into the state or held there already (`held`: the spare of a
 * restore over the same level), with the world's index of its slots (NULL: none to be had; then
 * the records say which are the level's). */
typedef struct level_source {
    bool world, held;
    const rc_level_index *index;
} level_source;

/* A snapshot's payload read into `w` (a record with the target world's allocator): the frame
 * section's settings, counts and grid, then the level (copied from `world`, whose level is the
 * snapshot's, when level_from_world; else the level section read), then the rest of the frame;
 * then the checks of the whole. False with *out_of_memory when memory ran out. */
static bool read_payload(rc_bytes *level, rc_bytes *frame, rc_world *w, const rc_world *world, const level_source *from,
                         rc_grid_moves *level_moves, bool *out_of_memory) {
    bool level_from_world = from->world;
    const rc_level_index *lv = from->index;
    io_settings(frame, w);
    rc_snapshot_counts n = rc_snapshot_counts_of(w), own = rc_snapshot_counts_of(world);
    io_counts(frame, &n, level->size + frame->size, level->size == 0 ? &own : NULL);
    if (frame->failed) {
        return false;
    }
    w->grid = rc_grid_load_reusing(frame, &w->allocator, w->grid); /* a spare's grid: its memory */
    if (w->grid == NULL) {
        *out_of_memory = !frame->failed;
        return false;
    }
    if (!rc_snapshot_reserve(w, &n, !level_from_world)) {
        *out_of_memory = true;
        return false;
    }
    if (level_from_world) {
        /* (the spare's records may be the level's already: then only its chains are copied) */
        if (!(from->held ? rc_level_copy_chains(w, world, &n, lv) : rc_level_copy(w, world, &n))) {
            return false; /* a level record beyond the snapshot's counts: not the snapshot's level */
        }
    } else {
        if (!rc_snapshot_io_level(level, w, &n)) {
            *out_of_memory = !level->failed;
            return false;
        }
        if (level->failed || level->at != level->size) {
            return false;
        }
    }
    if (!rc_snapshot_io_frame(frame, w, &n, lv)) {
        *out_of_memory = !frame->failed;
        return false;
    }
    /* the level's grid: the world's own, or the one read; the frame's moves for it */
    const rc_grid *level_grid = level_from_world ? world->level_grid : w->level_grid;
    if (frame->failed || !rc_grid_read_moves(frame, level_grid, level_moves)) {
        *out_of_memory = !frame->failed;
        return false;
    }
    return frame->at == frame->size && counters_fit(w) && poly_blocks_apart(w, lv, out_of_memory) &&
           link_grid_and_map(w, level_grid, level_from_world, lv, out_of_memory) && links_valid(w, lv, out_of_memory) &&
           pieces_as_made(w, level_grid, world, level_from_world, lv);
}

/* A body or shape live with the same generation in the world before the restore keeps its
 * user data; every other one has none. (lv: the level's slots, copied or held with theirs.) */
static void carry_user_data(rc_world *state, const rc_world *world, bool level_from_world, const rc_level_index *lv) {
    /* (the level's records copied from the world have theirs: not looked at again) */
    int32_t bodies = state->bodies.count < world->bodies.count ? state->bodies.count : world->bodies.count;
    for (int32_t i = rc_level_next_other_body(lv, 0, bodies); i < bodies; i = rc_level_next_other_body(lv, i + 1, bodies)) {
        rc_body *now = &state->bodies.data[i];
        const rc_body *was = &world->bodies.data[i];
        if (now->in_use && !(level_from_world && rc_level_body(now)) && was->in_use && now->generation == was->generation) {
            now->user_data = was->user_data;
        }
    }
    int32_t shapes = state->shapes.count < world->shapes.count ? state->shapes.count : world->shapes.count;
    for (int32_t i = rc_level_next_other_shape(lv, 0, shapes); i < shapes; i = rc_level_next_other_shape(lv, i + 1, shapes)) {
        rc_shape *now = &state->shapes.data[i]; /* (lv: level_from_world) */
        const rc_shape *was = &world->shapes.data[i];
        if (now->in_use && !(level_from_world && rc_level_shape(state, now)) && was->in_use &&
            now->generation == was->generation) {
            now->user_data = was->user_data;
        }
    }
    for (int32_t i = 0; i < state->joints.count && i < world->joints.count; ++i) {
        rc_joint *now = &state->joints.data[i];
        const rc_joint *was = &world->joints.data[i];
        if (now->in_use && was->in_use && now->generation == was->generation) {
            now->user_data = was->user_data;
        }
    }
    for (int32_t k = 0; k < state->moves.count; ++k) {
        rc_body_move_event *e = &state->moves.data[k];
        int64_t i = (int64_t)e->body.index - 1; /* (a forged index may be INT32_MIN: no overflow) */
        const rc_body *b = i >= 0 && i < state->bodies.count ? &state->bodies.data[i] : NULL;
        e->user_data = b != NULL && b->in_use && b->generation == e->body.generation ? b->user_data : NULL;
    }
}

/* The world's settings from the state read. The state's def started as the world's (take_spare)
 * and the snapshot set its tuning (io_settings): what the game owns in it is the world's own. */
static void take_settings(rc_world *world, const rc_world *state) {
    world->def = state->def;
    world->id_salt = state->id_salt;
    world->steps = state->steps;
    world->contacts_flagged = state->contacts_flagged;
    world->peak_bodies = state->peak_bodies;
    world->peak_shapes = state->peak_shapes;
    world->peak_contacts = state->peak_contacts;
    world->peak_chains = state->peak_chains;
    world->poly_used = state->poly_used;
    memcpy(world->poly_free, state->poly_free, sizeof world->poly_free);
    memcpy(world->published, state->published, sizeof world->published);
    world->published_impacts = state->published_impacts;
    world->published_moves = state->published_moves;
}

static void swap_bytes(void *a, void *b, size_t n) {
    unsigned char t[sizeof(rc_id_pool) > sizeof(rc_map) ? sizeof(rc_id_pool) : sizeof(rc_map)];
    _Static_assert(sizeof t >= 16, "room for an array's record");
    memcpy(t, a, n);
    memcpy(a, b, n);
    memcpy(b, t, n);
}

/* Exchange the persistent records (arrays, pools, the grid, the contact map) of the world and
 * the state: the world takes the state read, the state keeps the world's old memory for the
 * next restore. The step's scratch stays with the world (each step sizes and fills it anew). */
static void swap_records(rc_world *world, rc_world *state) {
    rc_grid *grid = world->grid;
    world->grid = state->grid;
    state->grid = grid;
#define SWAP(field) swap_bytes(&world->field, &state->field, sizeof world->field);
    SWAP(body_ids)
    SWAP(shape_ids)
    SWAP(chain_ids)
    SWAP(contact_ids)
    SWAP(contact_map)
    SWAP(joint_ids)
    SWAP(joint_pairs)
    RC_WORLD_RECORD_ARRAYS(SWAP)
#undef SWAP
}

/* The record a restore reads into: the state the last restore replaced (its memory reused:
 * rollback restores every frame), or a new one. Its chains' blocks are given back and its map
 * emptied; everything else is overwritten as it is read. NULL when memory runs out. */
static rc_world *take_spare(rc_world *world) {
    rc_world *state = world->spare;
    world->spare = NULL;
    if (state == NULL) {
        state = rc_mem_alloc(&world->allocator, sizeof *state);
        if (state == NULL) {
            return NULL;
        }
        memset(state, 0, sizeof *state);
        state->allocator = world->allocator;
        state->def = world->def; /* the snapshot sets only the tuning (io_settings) */
        return state;
    }
    state->def = world->def;
    for (int32_t i = 0; i < state->chains.count; ++i) {
        rc_chain *c = &state->chains.data[i];
        if (c->points != NULL) {
            rc_mem_free(&state->allocator, c->points, rc_chain_bytes(c->capacity));
            c->points = NULL;
        }
    }
    state->chains.count = 0;
    rc_map_clear(&state->contact_map);
    rc_map_clear(&state->joint_pairs);
    return state;
}

void rc_world_free_spare(rc_world *world) {
    if (world->spare != NULL) {
        rc_world_free_records(world->spare);
        rc_mem_free(&world->allocator, world->spare, sizeof *world->spare);
        world->spare = NULL;
    }
}

bool rc_world_restore(rc_world *world, const void *buffer, size_t size) {
    static const char *func = "rc_world_restore";
    if (rc_world_for_change(world, func) == NULL) {
        return false;
    }
    if (buffer == NULL) {
        return rc_fail(world, func, "buffer is NULL");
    }
    snapshot_header h;
    const char *why = check_header((const uint8_t *)buffer, size, &h);
    if (why != NULL) {
        return rc_fail(world, func, "the snapshot is %s", why);
    }
    /* the world's level is the snapshot's: it keeps its own records (a frame snapshot has no
       others; a full one is read whole where the world's level is another, or not known) */
    uint64_t own = 0;
    bool level_from_world = h.kind == KIND_FRAME || (rc_level_checksum_known(world, &own) && own == h.level_checksum);
    if (h.kind == KIND_FRAME && rc_level_checksum(world) != h.level_checksum) {
        return rc_fail(world, func,
                       "the frame snapshot was taken over another level (static bodies, their shapes and chains) "
                       "than the world has: restore a full snapshot (rc_world_snapshot) instead; the world is as "
                       "it was");
    }
    /* (the index is the world's, made again when its level changed; memory running out for it
       only makes this restore look at every level record) */
    level_source from = {level_from_world, false, level_from_world ? rc_level_index_of(world) : NULL};
    rc_world *state = take_spare(world);
    if (state == NULL) {
        return rc_fail(world, func, "out of memory; the world is as it was");
    }
    from.held = from.index != NULL && state->held_level == world->level_revision + 1u;
    state->held_level = 0; /* (whatever it held is overwritten unless the restore succeeds) */
    const uint8_t *payload = (const uint8_t *)buffer + HEADER_BYTES;
    rc_bytes level = rc_bytes_reader(payload, (size_t)h.level_size);
    rc_checksum sum;
    rc_bytes frame = rc_bytes_hashing_reader(payload + h.level_size, (size_t)(h.size - h.level_size), &sum);
    bool out_of_memory = false;
    rc_grid_moves level_moves = {0, NULL, NULL};
    bool ok = read_payload(&level, &frame, state, world, &from, &level_moves, &out_of_memory);
    /* damaged bytes are refused as such, whatever else reading them found */
    bool damaged = rc_bytes_reader_checksum(&frame) != h.checksum;
    ok = ok && !damaged;
    /* the step's scratch that is sized when bodies and shapes are made, not by the step */
    if (ok && !(rc_array_reserve(world, world->undo, state->bodies.count) &&
                rc_array_reserve(world, world->islands, state->bodies.count) &&
                rc_array_reserve(world, world->body_masses, state->bodies.count) &&
                rc_array_reserve(world, world->joint_constraints, state->joints.count) &&
                rc_array_reserve(world, world->joint_woken, state->joints.count) &&
                rc_array_reserve(world, world->joint_colors, state->joints.count) &&
                rc_array_reserve(world, world->deferred, state->shapes.count))) {
        ok = false;
        out_of_memory = true;
    }
    if (level_from_world) {
        rc_level_chains_settle(state, world, ok); /* the chains' blocks lent: taken, or given back */
    }
    if (!ok) {
        rc_grid_moves_free(world->level_grid, &level_moves);
        world->spare = state; /* whatever it holds now, its memory serves the next restore */
        if (damaged) {
            return rc_fail(world, func, "the snapshot is " DAMAGED "; the world is as it was");
        }
        return rc_fail(world, func, out_of_memory ? "out of memory; the world is as it was"
                                                  : "the snapshot's contents are out of range (forged or from a "
                                                    "faulty writer); the world is as it was");
    }
    carry_user_data(state, world, level_from_world, from.index);
    take_settings(world, state);
    swap_records(world, state);
    /* the spare holds the world's records as they were: over its own level, the level's */
    state->held_level = level_from_world ? world->level_revision + 1u : 0u;
    assert(!from.held || rc_level_records_agree(world, state, from.index)); /* (what was held, as it was) */
    rc_gather_forget(world); /* (another world's contacts) */
    world->islands.count = world->bodies.count;
    rc_islands_forget(world); /* (another world's islands) */
    rc_contacts_count_levels(world); /* (not in snapshots: the contacts say) */
    /* (not in snapshots: each body's shapes say, when next asked) */
    world->body_masses.count = world->bodies.count;
    for (int32_t i = 0; i < world->body_masses.count; ++i) {
        world->body_masses.data[i].stale = true;
    }
    if (!level_from_world) {
        rc_grid *kept = world->level_grid;
        world->level_grid = state->level_grid;
        state->level_grid = kept; /* (the spare's, for the next full restore to read into) */
    }
    rc_grid_set_moves(world->level_grid, &level_moves);
    rc_grid_moves_free(world->level_grid, &level_moves);
    world->spare = state;
    world->steps_since_restore = 0;
    if (!level_from_world) {
        /* a level read: the world's is another now, whose checksum the header gave */
        rc_level_changed(world);
        rc_level_checksum_keep(world, h.level_checksum);
    }
    return true;
}
