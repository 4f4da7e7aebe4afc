/* ricochet: snapshots of a world, for rollback netcode, save games and late-joining players.
 *
 * A snapshot is the whole state of a world at a moment between calls, written into a buffer the
 * game owns; restoring it puts that moment back. A game rolls back with three calls:
 *
 *     size_t size = rc_world_snapshot_size(world);            // once, or when it grows
 *     size_t used = rc_world_snapshot(world, buffer, size);   // each confirmed frame
 *     ...
 *     rc_world_restore(world, buffer, used);                  // late input: back to that frame
 *     // then step again with the corrected inputs
 *
 * What a restore promises. After rc_world_restore the same calls give bit-identical results to
 * those that followed the moment of the snapshot: every body's state, every event (the event
 * arrays of the step before the snapshot can be read again), every query answer, the ids of new
 * bodies, shapes and joints. Ids of that moment are valid again, and ids handed out after it
 * are stale (refused) until the same calls hand them out again, to the bodies, shapes and
 * joints those calls make (so drop the ids of a timeline rolled back). This holds for a
 * snapshot restored into the world that took it (rollback) and into any other world (a freshly
 * created one: a save game, a player joining late), and across builds: the format is defined
 * byte by byte, not a memory dump. It is little-endian at every width, independent of the
 * compiler, its options, struct padding, the allocator and the addresses it hands out. A
 * snapshot written by one build of this version (GCC or Clang, x86-64 or aarch64) restores in
 * any other, and the steps after it give the same bits (see Determinism at rc_world_step).
 *
 * What a snapshot holds: bodies, shapes and chains with their ids, joints with their settings,
 * warm-starting impulses and last reaction, contacts with their manifolds and warm-starting
 * impulses, sleep clocks and bounce budgets, the broadphase grid as it is (its
 * cells' order decides the order of query answers and pairs), the event arrays of the last step,
 * and the world's tuning (gravity, sleep, solver and contact settings, speed limits) and id salt:
 * a world restored from another takes the salt of the snapshot's world, so that the snapshot's
 * ids name the same bodies and shapes in it.
 * What it does not hold, because the game owns it: the allocator, the error callback, the task
 * system (enqueue_task, finish_task, worker_count, user_task_context), the pre-solve callback and
 * its context, and user data pointers. A restore keeps the world's own allocator, callbacks and
 * task system; a body, shape or joint that was live with the same id both in the world before
 * the restore and in the snapshot keeps the world's user data; every other one gets NULL.
 * The last error message is not part of the state.
 *
 * Memory: rc_world_snapshot allocates nothing. rc_world_restore reads the snapshot into memory of
 * its own from the world's allocator and swaps it in only once every byte was read and checked;
 * when memory runs out, or the bytes are refused, the world is left exactly as it was. The memory
 * of the state it replaced is kept for the next restore to read into (a game that rolls back
 * restores every frame, and then allocates nothing), so a restored world holds about twice its
 * records' memory until 120 steps pass without a restore, when that spare is given back
 * (rc_world_get_counters().bytes counts it).
 *
 * Trust: a checksum over every byte refuses a damaged snapshot (a byte flipped, truncated, or
 * padded; the frame section's is taken as it is read, and a damaged one is refused as damaged
 * whatever else its bytes say). Every index, count and flag is checked against the arrays it names as it is read, and
 * the records' links against each other (live records name live records of the right kind,
 * lists end and agree, the id pools hand out exactly the live slots, the grid holds exactly the
 * shapes' proxies), so a forged snapshot whose checksum was put right cannot make restore, or any
 * call after it, read or write outside memory (fuzz/fuzz_snapshot.c attacks this). Numbers are
 * not second-guessed, and a forged one may ask for up to a kilobyte of memory per snapshot byte
 * (for a frame snapshot, per byte of it and of the world's own level records) and 16 MiB
 * besides: restore snapshots from sources a game trusts as much as its own save files.
 *
 * Sizes: a live body takes 178 bytes, a shape 121 and a contact 233, a polygon's geometry
 * 8 * (5n + 3) bytes for n vertices, a free slot 1 byte, plus the grids (about 80 bytes a shape).
 * On the bench's rollback scene (bench/snapshot_cost: 2,600 moving bodies among 8,000 static
 * shapes) a full snapshot is 3.9 MB, 2.6 MB of it the level; a frame snapshot is 1.7 MB (650
 * bytes a moving body). A frame snapshot takes about 0.24 of a step there and the restore of one
 * 8 frames old about 0.67 (0.88 to 0.93 steps in all, measured on a 2-vCPU Xeon VM; a full
 * one's 1.4 to 1.55: bench/RESULTS.md). A restore builds the world's state in records of its own
 * (so that a refused restore changes nothing): the records the last restore replaced, which over
 * the world's own level hold that level already, so that only the first restore after a change of
 * the level copies the level's records (a frame snapshot and its restore read or write no level
 * record at all); its time goes in reading the frame's records, loading the grid of the moving
 * shapes, the checksum, and the checks of what was read. */
#ifndef RICOCHET_SNAPSHOT_H
#define RICOCHET_SNAPSHOT_H

#include "base.h"
#include "world.h"

RC_EXTERN_C_BEGIN

/* The version of the snapshot format this build writes and reads (others are refused). 2:
 * joints; 3: a level section, frame snapshots; 4: the level's own grid; 5: long walls in pieces;
 * 6: contacts' kept faces; 7: an eight-lane checksum, and a static body holds no step scratch. */
#define RC_SNAPSHOT_VERSION 7u

/* The bytes a snapshot of the world as it is now needs; 0 for NULL. Computed by walking the
 * state without writing it (about as long as the snapshot itself). */
RC_API size_t rc_world_snapshot_size(const rc_world *world);

/* Writes the world's whole state into buffer and returns the bytes written (exactly
 * rc_world_snapshot_size's answer). 0, with the last error set and nothing written past
 * capacity, when world or buffer is NULL, capacity is too small, or the world is locked (called
 * from a callback: inside a step the state is half way). The world is not changed. */
RC_API size_t rc_world_snapshot(const rc_world *world, void *buffer, size_t capacity);

/* Replaces the world's state with the snapshot's (see above). False, with a message in
 * rc_world_last_error and the world unchanged, when world or buffer is NULL, the size is not the
 * snapshot's, the bytes are not a snapshot (magic), another format version wrote them, the
 * checksum fails, an index or count in it is out of range, memory runs out, or the world is
 * locked (called from a callback). */
RC_API bool rc_world_restore(rc_world *world, const void *buffer, size_t size);

/* Frame snapshots: rollback without the level. The level is what a game builds once and steps
 * over: the static bodies, the shapes on them and their chains, and the grid that holds those
 * shapes (the world keeps the level's shapes in a broadphase grid of their own). It is most of a
 * world's state (a level of 8,000 static shapes is 2.6 MB of a 3.9 MB snapshot) and the same in
 * every frame a game rolls back over, so a frame snapshot leaves it out and names it by a
 * checksum instead:
 *
 *     size_t size = rc_world_frame_snapshot_size(world);          // once, or when it grows
 *     size_t used = rc_world_snapshot_frame(world, buffer, size); // each confirmed frame
 *     ...
 *     rc_world_restore(world, buffer, used);                      // late input: back to that frame
 *
 * rc_world_restore takes a frame snapshot into a world whose level is the one it was taken over
 * (the world that took it, or any world restored from a full snapshot of that level) with the
 * promises above, and refuses it, with the world unchanged, in a world whose level is another: a
 * game that changes its level (a static body made, moved or destroyed, a shape or chain added to
 * or taken from one, a static body's settings or its shapes' changed) rolls back over that frame
 * with a full snapshot, and a save game or a late joiner needs a full one. The level's records
 * keep their user data in a frame restore (they are the world's own).
 *
 * The world keeps its level's checksum while the level does not change, so a frame snapshot
 * costs what the moving part of the world holds; the first one after a change of the level works
 * the checksum out (about as long as a full snapshot's level section takes to write). A full
 * snapshot restored into a world with its level keeps the world's level records as well,
 * instead of reading them (its level section is still checked).
 *
 * rc_world_frame_snapshot_size and rc_world_snapshot_frame behave as rc_world_snapshot_size and
 * rc_world_snapshot do (0 for NULL; 0 with the last error when capacity is too small, buffer is
 * NULL or the world is locked; nothing allocated, the world not changed). */
RC_API size_t rc_world_frame_snapshot_size(const rc_world *world);
RC_API size_t rc_world_snapshot_frame(const rc_world *world, void *buffer, size_t capacity);

RC_EXTERN_C_END

#endif
