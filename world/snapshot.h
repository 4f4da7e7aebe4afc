/* world/snapshot.h: world snapshots (snapshot.c: the public calls, the header and the order of
 * the sections; snapshot_records.c: each record's fields in the format of core/bytes.h).
 *
 * Owns: the snapshot format. A snapshot is a 24-byte header (magic, version, payload size,
 * checksum of the payload) and a payload of sections: the world's settings and counters, the
 * counts of its arrays, the grid (broadphase/grid_snapshot.c), the id pools, then the bodies,
 * shapes, polygon pool, chains, contacts, joints and event arrays, each record field by field.
 * Each body's list of joints and the pairs joints keep apart are rebuilt from the joints.
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

/* The records of `world` (writing) or into `world`, whose arrays are reserved for the counts
 * first (reading); false when memory runs out while reading (b->failed marks bad bytes). */
bool rc_snapshot_io_records(rc_bytes *b, rc_world *world, const rc_snapshot_counts *counts);

#endif
