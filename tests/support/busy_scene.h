/* tests/support/busy_scene.h: the busy scene of tests/test_determinism.c, shared with
 * tests/test_snapshot.c.
 *
 * A level of chains (a looped sector with a notch, an open ledge), static pillars (circle,
 * hexagon, box), a sensor region, a kinematic platform going to and fro, crates (dynamic boxes
 * without gravity, damped, half of them asleep at the start) woken by impulses and by bullets,
 * a stack under gravity, grenades thrown in and later destroyed, point and circle bullets fired
 * and destroyed after a lifetime, three walkers moved every step with the character mover,
 * trajectory predictions and world queries; joints: a lamp hinged to the ceiling on a rope to a
 * crate, a bridge of planks, a sliding crate with a motor and limits, a door on a sprung hinge
 * with limits, a weld made and a joint destroyed mid-way, a body taken with its joints. Every step the state of every body and every event
 * go into a 64-bit FNV-1a hash, and so do the answers of the mover, the predictions and the
 * queries (test_determinism.c commits the hash of 3,000 steps).
 *
 * The scene record is plain data and the world pointer: a copy of it is the game's side of a
 * moment, to keep alongside a snapshot of the world (the world pointer is the one thing to put
 * right after copying it back: busy_scene keeps no other pointer).
 *
 * Check assertions inside (WS_EXPECT): a refused call fails the running test. Compiled into
 * the aarch64 build of test_determinism too (.ci/determinism, with tests/cross/check.h). */
#ifndef RICOCHET_TESTS_BUSY_SCENE_H
#define RICOCHET_TESTS_BUSY_SCENE_H

#include <ricochet/ricochet.h>

#include <stdbool.h>
#include <stdint.h>

#include "support/world_support.h"

#define BUSY_STEPS 3000 /* the length of the script (test_determinism runs all of it) */
#define BUSY_DT (1.0f / 60.0f)
#define BUSY_MAX_TRACKED 1024
#define BUSY_ID_SALT 0x5EED1D5u /* ids are part of the hash: the same salt wherever it runs */

/* ---- the hash: 64-bit FNV-1a over raw bits ------------------------------------------------------ */

typedef struct busy_fnv {
    uint64_t h;
} busy_fnv;

#define BUSY_FNV_START 14695981039346656037ull

void busy_fnv_bytes(busy_fnv *f, const void *data, size_t n);
void busy_fnv_u32(busy_fnv *f, uint32_t v);
void busy_fnv_float(busy_fnv *f, float v);
void busy_fnv_vec(busy_fnv *f, rc_vec2 v);
void busy_fnv_body_id(busy_fnv *f, rc_body_id id);
void busy_fnv_shape_id(busy_fnv *f, rc_shape_id id);

/* ---- an allocator that puts blocks elsewhere ---------------------------------------------------- */

/* Each block is placed at a different offset into a bigger malloc'd block, so that the
 * library's memory sits at other addresses (and other relative distances) than with malloc.
 * live counts the bytes handed out and not given back. */
typedef struct busy_shifted {
    uint32_t turn;
    int64_t live;
} busy_shifted;

rc_allocator busy_shifted_allocator(busy_shifted *s);
/* A world unlike the scene's in everything a snapshot carries (another id salt, allocator,
 * gravity, cell size, sub-steps, contact stiffness, sleep time and speed limit), with three
 * bodies of its own and a step taken: what a restore must replace whole. */
rc_world *busy_other_world(busy_shifted *sh, uint32_t salt);

/* ---- the scene ---------------------------------------------------------------------------------- */

typedef struct busy_scene {
    rc_world *w;
    busy_fnv hash;
    rc_body_id tracked[BUSY_MAX_TRACKED]; /* every body ever made; destroyed ones are skipped */
    int tracked_count;
    bool was_awake[BUSY_MAX_TRACKED];
    rc_body_id crates[10];
    rc_body_id walkers[3];
    rc_body_id platform;
    rc_body_id lamp, planks[4], slider, door;
    rc_joint_id joints[16]; /* every joint ever made; destroyed ones are skipped */
    int joint_count;
    rc_body_id grenades[128];
    int grenade_count;     /* thrown so far (destroyed ones stay in the list) */
    int grenade_destroyed; /* the first grenade_destroyed of the list are gone */
    rc_body_id bullets[2048];
    int bullet_fired[2048];
    int bullet_count, bullet_destroyed;
    ws_rng rng;
    /* what the scene did */
    long impacts, contact_begins, contact_ends, sensor_begins, sensor_ends;
    int sleeps, wakes, created, destroyed, walker_touches, predicted_bounces, ray_hits;
} busy_scene;

/* The world definition of the scene: defaults, this allocator, BUSY_ID_SALT. */
rc_world_def busy_scene_world_def(rc_allocator allocator);

/* Clear the record, create the world (busy_scene_world_def) and build the level: the moment
 * before step 0. */
void busy_scene_begin(busy_scene *s, rc_allocator allocator);

/* Step `step` of the script (0, 1, ...): the game's part (busy_scene_game: bodies thrown, fired
 * and destroyed, impulses, the walkers moved, queries hashed), then busy_scene_advance:
 * rc_world_step(BUSY_DT) and everything observable after it into the hash (busy_scene_absorb).
 * Between the two halves is a moment too (bodies just made and destroyed, not yet stepped). */
void busy_scene_frame(busy_scene *s, int step);
void busy_scene_game(busy_scene *s, int step);
void busy_scene_advance(busy_scene *s, int step);
void busy_scene_absorb(busy_scene *s);

/* The world has as many bodies as the scene made and did not destroy (a Check assertion). */
void busy_scene_check_body_count(const busy_scene *s);

/* busy_scene_begin, then steps 0 .. steps - 1 (busy_scene_frame). */
void busy_scene_run_to(busy_scene *s, rc_allocator allocator, int steps);

/* ---- snapshots ----------------------------------------------------------------------------------- */

/* The world's snapshot (rc_world_snapshot) in a new block (malloc), its size in *size; a Check
 * failure when it is refused or its size is not rc_world_snapshot_size's. */
unsigned char *busy_snapshot_take(const rc_world *w, size_t *size);
/* The same for a frame snapshot (rc_world_snapshot_frame). */
unsigned char *busy_snapshot_take_frame(const rc_world *w, size_t *size);

/* A snapshot's header (world/snapshot.c): magic, version, kind (0 full, 1 frame), 0; the
 * payload's size (at BUSY_SNAPSHOT_SIZE_AT) and its level section's (at BUSY_SNAPSHOT_LEVEL_AT),
 * the checksum of the rest of the payload and the level's, each 64 bits little-endian. */
#define BUSY_SNAPSHOT_HEADER 48
#define BUSY_SNAPSHOT_SIZE_AT 16
#define BUSY_SNAPSHOT_LEVEL_AT 24

/* The header made to match the n bytes (a forger can: the size and the checksums worked out
 * again, the level section's size as the header has it, clamped to the payload). */
void busy_snapshot_seal(unsigned char *p, size_t n);

/* "" when the two are the same bytes, else where they first differ: in the payload (after the
 * header, whose checksums differ whenever the payload does), or else in the header. The text
 * stays valid until the next call. */
const char *busy_snapshot_difference(const unsigned char *a, size_t na, const unsigned char *b, size_t nb);

/* Why `got` is not the scene run uninterrupted to `moment` (steps done, in a world of its own
 * made here): the first difference found, in this order: the game's record; a body or shape
 * (every public getter, through ws_snapshot), named by its body's index in the scene's list; a
 * body's contacts with their manifolds, or its bounces left; else the first differing byte of
 * the two worlds' snapshots (rc_world_snapshot). "... the snapshots: " followed by nothing when
 * there is no difference at all. The text stays valid until the next call. For the failure
 * messages of tests that compare a restored or replayed scene with the uninterrupted one. */
const char *busy_scene_diff(const busy_scene *got, int moment);

/* Destroy the world (s->w becomes NULL). */
void busy_scene_end(busy_scene *s);

#endif
