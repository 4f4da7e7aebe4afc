/* world/snapshot.h: world snapshots (snapshot.c: the public calls, the header and the order of
 * the sections; snapshot_records.c: each record's fields in the format of core/bytes.h;
 * snapshot_level.c: the level section, the level's checksum and the copy of a world's level).
 *
 * Owns: the snapshot format. A snapshot is a 48-byte header (magic, version, kind, payload
 * size, the level section's size, the checksums of the frame section and of the level) and a
 * payload: a full snapshot's is the level section then the frame section, a frame snapshot's the
 * frame section alone.
 *
 * The level is what a game builds once and steps over without changing: the static bodies, the
 * shapes on them (with their polygons' blocks of the pool) and their chains, each at its index.
 * Its section holds those records but for what a step changes in them (a level shape's contact
 * list: the frame's). The frame section holds the rest: the world's settings and counters, the
 * counts of its arrays, the grid (broadphase/grid_snapshot.c), the id pools, every record that
 * is not the level's (a level slot is skipped, a level shape gives its contact list), the
 * polygon pool's free lists, contacts, joints and the event arrays, field by field. Each body's
 * list of joints and the pairs joints keep apart are rebuilt from the joints.
 *
 * A frame snapshot names its level by the level section's checksum, which the world keeps while
 * its level does not change (level_revision counts the changes: a static body made, changed or
 * destroyed, a shape or chain on one, a move of the polygon pool's blocks): it restores only
 * into a world with that level, which then keeps its own level records (copied, not read). A full
 * snapshot restores into a world with its level the same way, and reads its level section
 * otherwise. No step changes a level record but for what the frame holds (a static body holds no
 * step scratch: a step's solver slot -1 and no bounces, refused otherwise), so the spare of a
 * restore over the world's own level holds that level as the world does: the next such restore
 * reads into it without copying the level again, and passes the level's records by (the world's
 * index of its slots, rc_level_index, says which) in every check but the frame's part of them
 * (a level shape's contact list). The heads of the shapes' contact lists are kept beside their
 * records (contact_heads), so that neither a frame snapshot nor its restore meets a level
 * record at all.
 *
 * Writing walks a world as it is (const: the io functions only read it). Reading fills an
 * rc_world record of its own (the spare of the last restore, whose memory it reuses, or a new
 * one), allocating from the target world's allocator, and checks every index as it reads it;
 * rc_world_links_valid then checks the links between records, and only then does the world take
 * the records read (swapping its old ones into the spare). */
#ifndef RICOCHET_WORLD_SNAPSHOT_H
#define RICOCHET_WORLD_SNAPSHOT_H

#include "core/bytes.h"
#include "world/world_internal.h"

/* The counts every index of a snapshot is checked against, read before the records. */
typedef struct rc_snapshot_counts {
    int32_t bodies, shapes, poly_pool, chains, contacts, joints;
    int32_t contact_begin, contact_end, sensor_begin, sensor_end, impacts, moves;
} rc_snapshot_counts;

static inline rc_snapshot_counts rc_snapshot_counts_of(const rc_world *w) {
    rc_snapshot_counts n = {w->bodies.count,       w->shapes.count,      w->poly_pool.count,  w->chains.count,
                            w->contacts.count,     w->joints.count,      w->contact_begin.count, w->contact_end.count,
                            w->sensor_begin.count, w->sensor_end.count,  w->impacts.count,     w->moves.count};
    return n;
}

/* ---- what is the level's --------------------------------------------------------------------- */

static inline bool rc_level_body(const rc_body *b) { return b->in_use && b->type == RC_STATIC; }
/* (a live shape's body index is in range: checked as it is read) */
static inline bool rc_level_shape(const rc_world *w, const rc_shape *s) {
    return s->in_use && rc_level_body(&w->bodies.data[s->body]);
}
static inline bool rc_level_chain(const rc_world *w, const rc_chain *c) {
    return c->points != NULL && rc_level_shape(w, &w->shapes.data[c->shape]);
}

/* The level's slots as the world keeps them for one level revision (snapshot_level.c), so that a
 * restore over its own level passes the level's records by without reading them: which body and
 * shape slots are the level's (a bit each), each such record's generation in slot order, the
 * entries of the polygon pool its blocks hold, and what its records add to the counts a restore
 * checks. */
typedef struct rc_level_index {
    uint64_t revision;               /* the world's level_revision + 1 it describes (0: none) */
    int32_t body_slots, shape_slots; /* the bits held: the world's counts when it was made */
    int32_t bodies, shapes;          /* level records */
    int32_t last_body, last_shape;   /* the highest level slots (-1: none) */
    int32_t listed;                  /* level shapes but chains' records: each in its body's list, with a proxy */
    int32_t poly_end;                /* the end of the level's highest block in the pool (0: none) */
    int64_t poly_live;               /* entries in the level's blocks */
    uint64_t *body_bits, *shape_bits, *poly_bits;
    uint32_t *body_generations, *shape_generations;
    size_t bytes; /* of the one allocation all of it lives in */
} rc_level_index;

static inline bool rc_level_bit(const uint64_t *bits, int32_t slots, int32_t i) {
    return i < slots && (bits[i >> 6] >> (i & 63) & 1u) != 0u;
}
/* The first slot from i on, below count, that the bits do (own) or do not (!own) give the
 * level; count when there is none. Whole words of the other kind are passed by at once. */
static inline int32_t rc_level_next(const uint64_t *bits, int32_t slots, int32_t i, int32_t count, bool own) {
    uint64_t skip = own ? 0u : ~(uint64_t)0; /* (a word all of the other kind) */
    while (i < count && i < slots) {
        uint64_t word = bits[i >> 6];
        if ((i & 63) == 0 && word == skip) {
            i += 64;
        } else if ((((word >> (i & 63)) & 1u) != 0u) == own) {
            return i;
        } else {
            ++i;
        }
    }
    return !own && i < count ? i : count; /* (past the bits: none is the level's) */
}
/* The next shape (body) slot from i on, below count, that is not the level's (lv NULL: i). */
static inline int32_t rc_level_next_other_shape(const rc_level_index *lv, int32_t i, int32_t count) {
    return lv != NULL ? rc_level_next(lv->shape_bits, lv->shape_slots, i, count, false) : (i < count ? i : count);
}
static inline int32_t rc_level_next_other_body(const rc_level_index *lv, int32_t i, int32_t count) {
    return lv != NULL ? rc_level_next(lv->body_bits, lv->body_slots, i, count, false) : (i < count ? i : count);
}
/* Is body (shape) slot i the level's? (lv NULL: unknown, say no) */
static inline bool rc_level_index_body(const rc_level_index *lv, int32_t i) {
    return lv != NULL && rc_level_bit(lv->body_bits, lv->body_slots, i);
}
static inline bool rc_level_index_shape(const rc_level_index *lv, int32_t i) {
    return lv != NULL && rc_level_bit(lv->shape_bits, lv->shape_slots, i);
}
/* The world's index of its level as it is now: kept while the level does not change, else made
 * again (a pass over its bodies and shapes). NULL when memory runs out (nothing is kept then). */
const rc_level_index *rc_level_index_of(rc_world *world);
/* The world's index if it is of its level as it is now, else NULL (not made here: for a writer,
 * a query, whose threads may write snapshots at once). */
static inline const rc_level_index *rc_level_index_current(const rc_world *world) {
    const rc_level_index *lv = world->level_index;
    return lv != NULL && lv->revision == world->level_revision + 1u ? lv : NULL;
}
/* Do two worlds hold the same level records at lv's slots (the fields a snapshot writes of them,
 * which leave out what the frame sets: a level shape's contact list, a level body's list of
 * joints; and their user data), with the same polygon blocks? (A restore's Debug check that a
 * spare held its world's level; for the tests.) */
bool rc_level_records_agree(const rc_world *a, const rc_world *b, const rc_level_index *lv);

/* ---- records (snapshot_records.c) ---------------------------------------------------------- */

/* Reading: every array at its count, each slot free (so that the level's slots are the ones the
 * level fills); false when memory runs out. */
bool rc_snapshot_reserve(rc_world *w, const rc_snapshot_counts *n, bool free_slots);
/* The id pools, then every record that is not the level's, the polygon free lists, contacts,
 * joints and events: of `world` (writing) or into it (reading, after the level). Which slots are
 * the level's: lv's (the index of the level of the world being written, or of the world whose
 * level is read into: its records in place or being copied, each passed by but for its contact
 * list), or where lv is NULL what the records say (read so far). False when memory runs out
 * while reading (b->failed marks bad bytes). */
bool rc_snapshot_io_frame(rc_bytes *b, rc_world *world, const rc_snapshot_counts *counts, const rc_level_index *lv);

/* One record's fields (the level section's too). A live record's in_use flag is written before
 * them by the frame section; the level's records are live. */
void rc_snapshot_io_body(rc_bytes *b, rc_body *x, const rc_snapshot_counts *n);
void rc_snapshot_io_shape(rc_bytes *b, rc_shape *x, const rc_snapshot_counts *n); /* (its contact list's head apart) */
/* A live polygon's or capsule's block of the pool (its shape read first). */
void rc_snapshot_io_poly_block(rc_bytes *b, rc_world *w, const rc_shape *x);
/* A chain with a block (its points: allocated when reading); false when memory runs out. */
bool rc_snapshot_io_chain(rc_bytes *b, rc_world *w, rc_chain *x, const rc_snapshot_counts *n);

/* ---- the level (snapshot_level.c) ----------------------------------------------------------- */

/* The level section of `world` (writing) or into it (reading: reserved, its slots free). */
bool rc_snapshot_io_level(rc_bytes *b, rc_world *world, const rc_snapshot_counts *counts);
/* The checksum of the world's level section: the one it keeps while the level is unchanged,
 * else worked out (as long as writing the section) and kept. */
uint64_t rc_level_checksum(const rc_world *world);
/* The same worked out, whatever is kept (the tests check what is kept against it). */
uint64_t rc_level_checksum_work(const rc_world *world);
/* Is a checksum of the world's level kept (for this revision), and which? */
bool rc_level_checksum_known(const rc_world *world, uint64_t *checksum);
void rc_level_checksum_keep(const rc_world *world, uint64_t checksum);
/* The level records of `world` into `state` (reserved for counts), as they are: bodies, shapes
 * and their polygons' blocks, chains (their blocks lent, not copied: see rc_level_chains_settle);
 * every other body and shape slot is freed (rc_snapshot_reserve did not: one pass, not two).
 * False when a level record lies beyond the counts. */
bool rc_level_copy(rc_world *state, const rc_world *world, const rc_snapshot_counts *n);
/* The same where `state` holds the world's level records at their slots already (the spare of a
 * restore over the same level: rc_world's held_level), as lv gives them: only the chains are
 * copied, and the level is checked to lie within the counts. */
bool rc_level_copy_chains(rc_world *state, const rc_world *world, const rc_snapshot_counts *n, const rc_level_index *lv);
/* After a copy: the chain blocks lent to `state` are its own now (taken = true: the world's
 * records that lent them forget them) or given back (false: `state` forgets them). */
void rc_level_chains_settle(rc_world *state, rc_world *lender, bool taken);

#endif
