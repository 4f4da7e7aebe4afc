/* The snapshot format, against a committed file (include/ricochet/snapshot.h). A small fixed
 * scene (a chain, a post, a hexagon with a sensor, three boxes, a grenade, a point bullet, a
 * ball, a lamp hinged to the post and roped to a box; a fixed id salt) stepped 30 times must snapshot to tests/data/snapshot_v7.bin byte for
 * byte, and that file restored into a new world and stepped 60 times must give the scene's hash
 * after 90 uninterrupted steps and the committed FIXTURE_HASH. The file was written on x86-64;
 * .ci/determinism runs this test for aarch64 under qemu-user too, so a snapshot of either CPU
 * is the other's bytes and continues identically there.
 *
 * A frame snapshot of the same moment must be tests/data/snapshot_v7_frame.bin, and that file
 * restored over the level of a world restored from the first (stepped 15 times first) must give
 * the same hash after 90 steps.
 *
 * The files are written by the test itself when RC_WRITE_SNAPSHOT_FIXTURE and
 * RC_WRITE_FRAME_FIXTURE name where:
 *     RC_WRITE_SNAPSHOT_FIXTURE=tests/data/snapshot_v7.bin \
 *     RC_WRITE_FRAME_FIXTURE=tests/data/snapshot_v7_frame.bin build/tests/test_snapshot_format
 * (from the source directory); it then checks against what it wrote and prints the hash. When
 * the format changes on purpose, bump RC_SNAPSHOT_VERSION and regenerate the file (renamed after
 * the version: FIXTURE_FILE); when the step's results change (test_determinism's hash moves), the
 * state in it changes: regenerate it and commit the printed hash as FIXTURE_HASH. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/busy_scene.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- the format, against a committed file -------------------------------------------------------- */

#define FIXTURE_FILE RICOCHET_SOURCE_DIR "/tests/data/snapshot_v7.bin"
#define FRAME_FILE RICOCHET_SOURCE_DIR "/tests/data/snapshot_v7_frame.bin"
#define FIXTURE_SALT 0x5A175A17u
#define FIXTURE_BODIES 9
#define FIXTURE_HASH 0x8e679eb2c67a8739ull /* fixture_hash after 90 steps */

static void need(rc_shape_id id, const char *what) { EXPECT(!rc_shape_id_is_null(id), "the fixture's %s", what); }

/* A small fixed scene: a static level (an open chain with a dip, a post, a hexagon with a sensor
 * around it), three dynamic boxes in a stack, a grenade thrown at them, a point bullet fired at
 * them and a ball dropped through the sensor. */
static rc_world *fixture_world(rc_body_id ids[FIXTURE_BODIES]) {
    rc_world_def wd = rc_world_default_def();
    wd.id_salt = FIXTURE_SALT;
    rc_world *w = rc_world_create(&wd);
    EXPECT(w != NULL, "rc_world_create");
    rc_body_def bd = rc_body_default_def();
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    sd.restitution = 0.3f;
    ids[0] = rc_body_create(w, &bd);
    rc_vec2 ground[5] = {{-12, 0}, {-4, 0}, {0, -0.5f}, {4, 0}, {12, 0}};
    need(rc_shape_create_chain(w, ids[0], &sd, ground, 5, false), "chain");
    need(rc_shape_create_box(w, ids[0], &sd, 0.3f, 3.0f), "post");
    rc_polygon hex = rc_make_regular_polygon(6, 0.8f, 0.2f);
    bd.position = rc_v2(6.0f, 0.5f);
    ids[1] = rc_body_create(w, &bd);
    need(rc_shape_create_polygon(w, ids[1], &sd, hex.vertices, hex.count), "hexagon");
    rc_shape_def sensor = rc_shape_default_def();
    sensor.is_sensor = true;
    need(rc_shape_create_box(w, ids[1], &sensor, 2.0f, 2.0f), "sensor");
    bd.type = RC_DYNAMIC;
    for (int i = 0; i < 3; ++i) {
        bd.position = rc_v2(-6.0f + 0.1f * (float)i, 0.5f + 1.02f * (float)i);
        bd.angle = 0.05f * (float)i;
        ids[2 + i] = rc_body_create(w, &bd);
        need(rc_shape_create_box(w, ids[2 + i], &sd, 0.5f, 0.5f), "box");
    }
    bd.angle = 0.0f;
    bd.position = rc_v2(-11.0f, 4.0f);
    bd.linear_velocity = rc_v2(7.0f, 1.0f);
    ids[5] = rc_body_create(w, &bd);
    need(rc_shape_create_circle(w, ids[5], &sd, 0.3f), "grenade");
    bd.position = rc_v2(11.0f, 3.0f);
    bd.linear_velocity = rc_v2(-30.0f, -4.0f);
    bd.bullet = true;
    bd.max_bounces = 2;
    bd.bounce_budget = 5;
    bd.point_mass = 0.05f;
    ids[6] = rc_body_create(w, &bd);
    bd.bullet = false;
    bd.position = rc_v2(6.0f, 6.0f);
    bd.linear_velocity = rc_v2(0.0f, 0.0f);
    ids[7] = rc_body_create(w, &bd);
    need(rc_shape_create_circle(w, ids[7], &sd, 0.4f), "ball");
    /* a lamp hinged to the post's top, on a rope from the bottom box */
    bd.position = rc_v2(1.0f, 2.8f);
    ids[8] = rc_body_create(w, &bd);
    need(rc_shape_create_box(w, ids[8], &sd, 0.2f, 0.2f), "lamp");
    rc_revolute_joint_def hinge = rc_revolute_joint_default_def();
    hinge.body_a = ids[0];
    hinge.body_b = ids[8];
    hinge.local_anchor_a = rc_v2(0.3f, 2.8f);
    hinge.local_anchor_b = rc_v2(-0.7f, 0.0f);
    EXPECT(!rc_joint_id_is_null(rc_joint_create_revolute(w, &hinge)), "the fixture's hinge");
    rc_distance_joint_def rope = rc_distance_joint_default_def();
    rope.body_a = ids[2];
    rope.body_b = ids[8];
    rope.length = 6.0f;
    rope.enable_spring = true;
    rope.enable_limit = true;
    rope.max_length = 6.0f;
    EXPECT(!rc_joint_id_is_null(rc_joint_create_distance(w, &rope)), "the fixture's rope");
    for (int i = 0; i < FIXTURE_BODIES; ++i) {
        EXPECT(!rc_body_id_is_null(ids[i]), "the fixture's body %d", i);
    }
    return w;
}

static uint64_t fixture_hash(const rc_world *w, const rc_body_id ids[FIXTURE_BODIES]) {
    busy_fnv f = {BUSY_FNV_START};
    for (int i = 0; i < FIXTURE_BODIES; ++i) {
        busy_fnv_u32(&f, rc_body_is_valid(w, ids[i]));
        busy_fnv_body_id(&f, ids[i]);
        busy_fnv_vec(&f, rc_body_position(w, ids[i]));
        busy_fnv_float(&f, rc_body_angle(w, ids[i]));
        busy_fnv_vec(&f, rc_body_linear_velocity(w, ids[i]));
        busy_fnv_float(&f, rc_body_angular_velocity(w, ids[i]));
        busy_fnv_u32(&f, rc_body_is_awake(w, ids[i]));
        busy_fnv_u32(&f, (uint32_t)rc_body_bounces_left(w, ids[i]));
    }
    return f.h;
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    long n = f != NULL && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    uint8_t *bytes = n > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n) : NULL;
    *size = bytes != NULL ? fread(bytes, 1, (size_t)n, f) : 0;
    if (f != NULL) {
        fclose(f);
    }
    return bytes;
}

/* The bytes are the committed file's (or, when the variable names a path, written there first);
 * returns the file's bytes. */
static uint8_t *expect_fixture(const uint8_t *bytes, size_t n, const char *variable, const char *file, size_t *fn) {
    const char *path = getenv(variable);
    if (path != NULL && *path != '\0') {
        FILE *f = fopen(path, "wb");
        EXPECT(f != NULL && fwrite(bytes, 1, n, f) == n && fclose(f) == 0, "writing %s failed", path);
        fprintf(stderr, "[snapshot] wrote %zu bytes to %s\n", n, path);
    } else {
        path = file;
    }
    uint8_t *read = read_file(path, fn);
    EXPECT(read != NULL, "cannot read %s: generate it (%s=%s tests/test_snapshot_format)", path, variable, path);
    const char *why = busy_snapshot_difference(read, *fn, bytes, n);
    EXPECT(*why == '\0',
           "this build's snapshot of the fixture scene is not %s (%s). If the snapshot format changed, bump "
           "RC_SNAPSHOT_VERSION (include/ricochet/snapshot.h); then, or if the step's results changed, regenerate the "
           "files (see the top of tests/test_snapshot_format.c)",
           path, why);
    return read;
}

START_TEST(the_format_is_the_committed_one) {
    rc_body_id ids[FIXTURE_BODIES];
    rc_world *w = fixture_world(ids);
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    size_t n, fn = 0, frame_n, frame_fn = 0;
    uint8_t *bytes = busy_snapshot_take(w, &n), *frame_bytes = busy_snapshot_take_frame(w, &frame_n);
    uint8_t *file = expect_fixture(bytes, n, "RC_WRITE_SNAPSHOT_FIXTURE", FIXTURE_FILE, &fn);
    uint8_t *frame_file = expect_fixture(frame_bytes, frame_n, "RC_WRITE_FRAME_FIXTURE", FRAME_FILE, &frame_fn);
    /* the scene stepped on uninterrupted, and the file restored into a new world stepped as far */
    for (int i = 30; i < 90; ++i) {
        ck_assert(rc_world_step(w, BUSY_DT));
    }
    uint64_t uninterrupted = fixture_hash(w, ids);
    busy_shifted sh = {3, 0};
    rc_world *fresh = busy_other_world(&sh, 12345u);
    ck_assert(rc_world_restore(fresh, file, fn));
    for (int i = 30; i < 90; ++i) {
        ck_assert(rc_world_step(fresh, BUSY_DT));
    }
    uint64_t restored = fixture_hash(fresh, ids);
    /* the frame file over the level of a world restored from the full one, 15 steps on */
    busy_shifted fsh = {5, 0};
    rc_world *over = busy_other_world(&fsh, 4242u);
    ck_assert(rc_world_restore(over, file, fn));
    for (int i = 30; i < 45; ++i) {
        ck_assert(rc_world_step(over, BUSY_DT));
    }
    ck_assert(rc_world_restore(over, frame_file, frame_fn));
    for (int i = 30; i < 90; ++i) {
        ck_assert(rc_world_step(over, BUSY_DT));
    }
    uint64_t from_frame = fixture_hash(over, ids);
    ck_assert_msg(from_frame == uninterrupted, "restored from the frame file and stepped: %016llx, uninterrupted %016llx",
                  (unsigned long long)from_frame, (unsigned long long)uninterrupted);
    rc_world_destroy(over);
    ck_assert_int_eq((int)fsh.live, 0);
    fprintf(stderr, "[snapshot] fixture: %zu bytes; body hash after 90 steps 0x%016llx\n", n,
            (unsigned long long)uninterrupted);
    ck_assert_msg(restored == uninterrupted, "restored from the file and stepped: %016llx, uninterrupted %016llx",
                  (unsigned long long)restored, (unsigned long long)uninterrupted);
    ck_assert_msg(uninterrupted == FIXTURE_HASH, "the fixture's hash is %016llx, committed %016llx",
                  (unsigned long long)uninterrupted, (unsigned long long)FIXTURE_HASH);
    /* the scene does something: the grenade knocks the stack down, the boxes rest on the ground,
       the bullet struck */
    ck_assert_int_ge(rc_world_get_counters(w).touching_contacts, 3);
    ck_assert_int_lt(rc_body_bounces_left(w, ids[6]), 5);
    rc_world_destroy(fresh);
    ck_assert_int_eq((int)sh.live, 0);
    rc_world_destroy(w);
    free(file);
    free(bytes);
    free(frame_file);
    free(frame_bytes);
}
END_TEST

static Suite *snapshot_format_suite(void) {
    Suite *s = suite_create("snapshot_format");
    TCase *t = tcase_create("snapshot_format");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, the_format_is_the_committed_one);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return rc_test_run(snapshot_format_suite()); }
