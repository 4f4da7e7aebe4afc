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
 * otherwise.
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

/* ---- records (snapshot_records.c) ---------------------------------------------------------- */

/* Reading: every array at its count, each slot free (so that the level's slots are the ones the
 * level fills); false when memory runs out. */
bool rc_snapshot_reserve(rc_world *w, const rc_snapshot_counts *n, bool free_slots);
/* The id pools, then every record that is not the level's, the polygon free lists, contacts,
 * joints and events: of `world` (writing) or into it (reading, after the level). False when
 * memory runs out while reading (b->failed marks bad bytes). */
bool rc_snapshot_io_frame(rc_bytes *b, rc_world *world, const rc_snapshot_counts *counts);

/* One record's fields (the level section's too). A live record's in_use flag is written before
 * them by the frame section; the level's records are live. */
void rc_snapshot_io_body(rc_bytes *b, rc_body *x, const rc_snapshot_counts *n);
void rc_snapshot_io_shape(rc_bytes *b, rc_shape *x, const rc_snapshot_counts *n); /* but first_contact */
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
/* After a copy: the chain blocks lent to `state` are its own now (taken = true: the world's
 * records that lent them forget them) or given back (false: `state` forgets them). */
void rc_level_chains_settle(rc_world *state, rc_world *lender, bool taken);

#endif
