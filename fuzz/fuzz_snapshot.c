/* fuzz_snapshot: rc_world_restore against forged snapshots whose checksum is valid.
 *
 * The input chooses a small scene (a room of walls with boxes, a circle, a capsule, a bullet, a
 * kinematic platform, a sensor, a hinge, a rope and a mouse joint; a one-sided arena with
 * grenades, a point bullet and a projectile-absorbing target; a pile with a turning blade, a
 * weld, a rail, and destroyed bodies, shapes and joints),
 * the steps taken before its snapshot, whether that is a full snapshot or a frame snapshot (the
 * fresh world below then takes the level from a full one first), then edits of the payload: bytes flipped or
 * set, 32-bit words set to awkward values (indices near the counts, -1, the extremes, NaN),
 * words copied from elsewhere, bytes inserted or deleted, the payload cut or extended. The
 * header's sizes and checksums are then made to match (a forger can recompute them), unless the
 * input asks for stale ones. The forged snapshot is restored into the world that took the
 * snapshot (stepped on since: a rollback) and into a fresh world. Where the input asks, the world
 * restores its own snapshot twice first, so that its spare holds its level and the forged
 * snapshot is read over it in place (world/snapshot.h: the level not copied again), where the
 * fresh world copies or reads it.
 *
 * Besides crashes, sanitizer reports, leaks and timeouts (a forged cycle that a later call
 * walks forever), a run fails when
 *  - a refused restore leaves no message, or changes the world (its snapshot bytes differ from
 *    those before), or the world then refuses a good snapshot (the spare record left behind);
 *  - a stale checksum is accepted, or the two worlds disagree about the same bytes;
 *  - an accepted snapshot does not write back as the same bytes, or (over the world's own level)
 *    leaves the world other level records than it had; after it (30 steps, casts,
 *    overlaps, the preview, contact data, events, the joints' getters and setters, destroying
 *    joints and bodies, making a joint and a body) a new snapshot of the world does not
 *    restore. */
#include <ricochet/ricochet.h>

#include "../core/bytes.h"      /* rc_bytes_checksum: internal, in the fuzz build's static library */
#include "../world/snapshot.h" /* the level a restore's spare holds, checked (internal too) */
#include "fuzz_input.h"

#define HEADER 48u /* world/snapshot.c: magic, version, kind, 0; payload size, level size, checksums */
#define MAX_EDITS 24
#define MAX_IDS 64
#define SALT 0x5EEDu
#define RESTORE_BYTES_PER_BYTE 1024u /* a free slot is one byte, a contact record 244 */

/* The worlds' allocator: counts what is live (nothing after rc_world_destroy) and what a restore
 * asks for, and refuses any block above the limit of the moment (a forged capacity then costs a
 * refused restore, not the machine's memory; the harness checks the asking separately). */
typedef struct budget {
    int64_t live;
    size_t asked, limit;
} budget;

static void *budget_alloc(size_t size, size_t align, void *user) {
    budget *b = user;
    b->asked += size;
    void *p = NULL;
    if (size > b->limit || posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0) {
        return NULL;
    }
    b->live += (int64_t)size;
    return p;
}

static void budget_free(void *p, size_t size, void *user) {
    if (p != NULL) {
        ((budget *)user)->live -= (int64_t)size;
        free(p);
    }
}

static rc_world *new_world(uint32_t salt, budget *b) {
    rc_world_def def = rc_world_default_def();
    b->live = 0;
    b->limit = (size_t)64 << 20;
    def.allocator = (rc_allocator){budget_alloc, budget_free, b};
    def.gravity = rc_v2(0.0f, -10.0f);
    def.id_salt = salt;
    rc_world *w = rc_world_create(&def);
    FZ_CHECK(w != NULL, "rc_world_create failed");
    return w;
}

static rc_body_id body(rc_world *w, rc_body_type type, float x, float y, float vx, float vy) {
    rc_body_def d = rc_body_default_def();
    d.type = type;
    d.position = rc_v2(x, y);
    d.linear_velocity = rc_v2(vx, vy);
    rc_body_id b = rc_body_create(w, &d);
    FZ_CHECK(!rc_body_id_is_null(b), "scene: body: %s", rc_world_last_error(w));
    return b;
}

static rc_body_id bullet(rc_world *w, float x, float y, float vx, float vy, int32_t budget) {
    rc_body_def d = rc_body_default_def();
    d.type = RC_DYNAMIC;
    d.bullet = true;
    d.max_bounces = 2;
    d.bounce_budget = budget;
    d.position = rc_v2(x, y);
    d.linear_velocity = rc_v2(vx, vy);
    return rc_body_create(w, &d);
}

static rc_shape_id box(rc_world *w, rc_body_id b, float hw, float hh) {
    rc_shape_def s = rc_shape_default_def();
    return rc_shape_create_box(w, b, &s, hw, hh);
}

static rc_shape_id circle(rc_world *w, rc_body_id b, float r, float restitution) {
    rc_shape_def s = rc_shape_default_def();
    s.restitution = restitution;
    return rc_shape_create_circle(w, b, &s, r);
}

/* The joints the scenes made (their ids name them in the snapshot, and after a restore). */
#define MAX_JOINT_IDS 8
static rc_joint_id g_joints[MAX_JOINT_IDS];
static int g_njoints;

static void keep_joint(rc_world *w, rc_joint_id j) {
    FZ_CHECK(!rc_joint_id_is_null(j), "scene: joint: %s", rc_world_last_error(w));
    if (g_njoints < MAX_JOINT_IDS) {
        g_joints[g_njoints++] = j;
    }
}

/* The scenes (deterministic: fixed salt, fixed order). */
static void scene_room(rc_world *w) {
    rc_body_id ground = body(w, RC_STATIC, 0.0f, 0.0f, 0.0f, 0.0f);
    box(w, ground, 20.0f, 0.5f);
    rc_shape_def s = rc_shape_default_def();
    rc_vec2 walls[4] = {{-19.0f, 15.0f}, {-19.0f, 0.5f}, {19.0f, 0.5f}, {19.0f, 15.0f}};
    rc_shape_create_chain(w, ground, &s, walls, 4, false);
    rc_body_id low = body(w, RC_DYNAMIC, -3.0f, 1.0f, 0.0f, 0.0f), high = body(w, RC_DYNAMIC, -3.0f, 2.05f, 0.0f, 0.0f);
    box(w, low, 0.5f, 0.5f);
    box(w, high, 0.5f, 0.5f);
    rc_body_id ball = body(w, RC_DYNAMIC, 0.0f, 3.0f, 1.0f, 0.0f);
    circle(w, ball, 0.5f, 0.3f);
    rc_body_id pill = body(w, RC_DYNAMIC, 3.0f, 2.0f, 0.0f, 0.0f);
    rc_shape_create_capsule(w, pill, &s, rc_v2(-0.5f, 0.0f), rc_v2(0.5f, 0.0f), 0.3f);
    /* joints: a limited, motorised hinge between the stacked boxes, a rope from the ground to the
       ball, a mouse dragging the capsule */
    rc_revolute_joint_def hinge = rc_revolute_joint_default_def();
    hinge.body_a = low;
    hinge.body_b = high;
    hinge.local_anchor_a = rc_v2(0.5f, 0.5f);
    hinge.local_anchor_b = rc_v2(0.5f, -0.55f);
    hinge.enable_limit = true;
    hinge.lower_angle = -0.5f;
    hinge.upper_angle = 0.25f;
    hinge.enable_motor = true;
    hinge.motor_speed = 1.0f;
    hinge.max_motor_torque = 20.0f;
    keep_joint(w, rc_joint_create_revolute(w, &hinge));
    rc_distance_joint_def rope = rc_distance_joint_default_def();
    rope.body_a = ground;
    rope.body_b = ball;
    rope.local_anchor_a = rc_v2(0.0f, 6.0f);
    rope.length = 2.0f;
    rope.enable_spring = true;
    rope.enable_limit = true;
    rope.max_length = 3.0f;
    keep_joint(w, rc_joint_create_distance(w, &rope));
    rc_mouse_joint_def mouse = rc_mouse_joint_default_def();
    mouse.body = pill;
    mouse.target = rc_v2(3.5f, 4.0f);
    keep_joint(w, rc_joint_create_mouse(w, &mouse));
    circle(w, bullet(w, -10.0f, 5.0f, 60.0f, -20.0f, -1), 0.1f, 0.8f);
    box(w, body(w, RC_KINEMATIC, 6.0f, 4.0f, 1.0f, 0.0f), 2.0f, 0.25f);
    s.is_sensor = true;
    rc_shape_create_circle(w, body(w, RC_STATIC, 0.0f, 1.5f, 0.0f, 0.0f), &s, 2.0f);
}

static void scene_arena(rc_world *w) {
    rc_body_id ground = body(w, RC_STATIC, 0.0f, 0.0f, 0.0f, 0.0f);
    rc_shape_def s = rc_shape_default_def();
    s.one_sided = true;
    rc_polygon ring = rc_make_regular_polygon(8, 15.0f, 0.3f);
    rc_shape_create_chain(w, ground, &s, ring.vertices, 8, true);
    for (int i = 0; i < 4; ++i) {
        circle(w, body(w, RC_DYNAMIC, -6.0f + 3.0f * (float)i, 2.0f, 8.0f - 4.0f * (float)i, 5.0f), 0.4f, 0.5f);
    }
    rc_vec2 tri[3] = {{-1.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.5f}};
    rc_shape_def p = rc_shape_default_def();
    rc_shape_create_polygon(w, body(w, RC_DYNAMIC, 0.0f, -5.0f, 0.0f, 0.0f), &p, tri, 3);
    bullet(w, 0.0f, 8.0f, -70.0f, -40.0f, 3); /* a point: no shape */
    p.absorbs_projectiles = true;
    rc_shape_create_box(w, body(w, RC_STATIC, 8.0f, -8.0f, 0.0f, 0.0f), &p, 1.0f, 1.0f);
}

static void scene_pile(rc_world *w, int steps) {
    rc_body_id ground = body(w, RC_STATIC, 0.0f, -0.5f, 0.0f, 0.0f);
    box(w, ground, 30.0f, 0.5f);
    rc_body_id blocks[10];
    int n = 0;
    for (int row = 0; row < 4; ++row) {
        for (int k = 0; k + row < 4; ++k) {
            blocks[n] = body(w, RC_DYNAMIC, (float)k * 1.02f + 0.51f * (float)row, 0.5f + (float)row, 0.0f, 0.0f);
            box(w, blocks[n++], 0.5f, 0.5f);
        }
    }
    rc_body_id blade = body(w, RC_KINEMATIC, 8.0f, 1.0f, 0.0f, 0.0f);
    rc_body_set_angular_velocity(w, blade, 2.0f);
    rc_shape_id arm = box(w, blade, 2.0f, 0.1f);
    box(w, blade, 0.1f, 2.0f);
    /* joints: two blocks welded, the top block on a sprung rail of the ground, a rod that goes
       half way (a free slot in the joint pool) */
    rc_weld_joint_def weld = rc_weld_joint_default_def();
    weld.body_a = blocks[0];
    weld.body_b = blocks[1];
    weld.local_anchor_a = rc_v2(0.51f, 0.0f);
    weld.local_anchor_b = rc_v2(-0.51f, 0.0f);
    keep_joint(w, rc_joint_create_weld(w, &weld));
    rc_prismatic_joint_def rail = rc_prismatic_joint_default_def();
    rail.body_a = ground;
    rail.body_b = blocks[9];
    rail.local_anchor_a = rc_v2(1.53f, 4.5f);
    rail.enable_spring = true;
    rail.hertz = 2.0f;
    rail.damping_ratio = 0.5f;
    rail.enable_limit = true;
    rail.lower_translation = -1.0f;
    rail.upper_translation = 1.0f;
    keep_joint(w, rc_joint_create_prismatic(w, &rail));
    rc_distance_joint_def rod = rc_distance_joint_default_def();
    rod.body_a = blocks[2];
    rod.body_b = blocks[5];
    rod.length = 1.5f;
    rc_joint_id rod_id = rc_joint_create_distance(w, &rod);
    keep_joint(w, rod_id);
    for (int i = 0; i < steps; ++i) {
        rc_world_step(w, 1.0f / 60.0f);
        if (i == steps / 2) { /* free slots: in the id pools, the grid, the polygon pool */
            rc_body_destroy(w, blocks[9]); /* and its rail */
            rc_shape_destroy(w, arm);
            rc_joint_destroy(w, rod_id);
            circle(w, body(w, RC_DYNAMIC, 6.0f, 5.0f, 0.0f, 0.0f), 0.3f, 0.0f);
        }
    }
}

/* ---- the snapshot ---------------------------------------------------------------------------- */

typedef struct buf {
    uint8_t *p;
    size_t n;
} buf;

/* A full snapshot, or a frame snapshot (frame). */
static buf take_kind(const rc_world *w, bool frame) {
    size_t n = frame ? rc_world_frame_snapshot_size(w) : rc_world_snapshot_size(w);
    buf b = {malloc(n + 1), 0};
    FZ_CHECK(b.p != NULL, "out of memory");
    b.n = frame ? rc_world_snapshot_frame(w, b.p, n) : rc_world_snapshot(w, b.p, n);
    FZ_CHECK(b.n == n && n > HEADER, "a %s snapshot wrote %zu of %zu: %s", frame ? "frame" : "full", b.n, n,
             rc_world_last_error(w));
    return b;
}

static buf take(const rc_world *w) { return take_kind(w, false); }

static bool same(buf a, buf b) { return a.n == b.n && memcmp(a.p, b.p, a.n) == 0; }

/* The bytes into the file the environment variable names, if it names one (for a report). */
static void dump_to(const char *variable, buf bytes) {
    const char *path = getenv(variable);
    FILE *out = path != NULL ? fopen(path, "wb") : NULL;
    if (out != NULL) {
        fwrite(bytes.p, 1, bytes.n, out);
        fclose(out);
    }
}

static void put32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; ++k) {
        p[k] = (uint8_t)(v >> (8 * k));
    }
}

static void put64(uint8_t *p, uint64_t v) {
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* The header made to match the payload (the checksums left stale when asked): the size, the
 * level section's size as it was (held to the payload), the checksums of the frame section and
 * (a full snapshot) of the level section. */
static void seal(buf *s, bool stale) {
    uint64_t n = s->n - HEADER, level = 0;
    for (int k = 7; k >= 0; --k) {
        level = level << 8 | s->p[24 + k];
    }
    level = level < n ? level : n;
    put64(s->p + 16, n);
    put64(s->p + 24, level);
    if (!stale) {
        put64(s->p + 32, rc_bytes_checksum(s->p + HEADER + level, (size_t)(n - level)));
        if (s->p[8] == 0u) {
            put64(s->p + 40, rc_bytes_checksum(s->p + HEADER, (size_t)level));
        }
    }
}

/* An offset into the payload, from two bytes. */
static size_t offset(fz_input *in, size_t payload) {
    size_t o = (size_t)fz_u8(in) | (size_t)fz_u8(in) << 8;
    return payload == 0 ? 0 : o % payload;
}

static const uint32_t awkward[16] = {0u,          1u,          2u,          0xFFFFFFFFu, 0xFFFFFFFEu, 0x7FFFFFFFu,
                                     0x80000000u, 0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x3F800000u, 0x00000001u,
                                     0x7F7FFFFFu, 0x5D5E0B6Bu, 0x10000u,    0xFFFFu};

/* The k-th place (wrapping) where the payload holds a 32-bit value in -1..255 other than 0: most
 * are indices, counts and enumerations, the fields a forger aims at. */
static size_t index_at(const buf *s, size_t k) {
    size_t payload = s->n - HEADER, found = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i + 4 <= payload; ++i) {
            const uint8_t *p = s->p + HEADER + i;
            uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            if (v != 0u && (v <= 255u || v == 0xFFFFFFFFu) && (pass == 0 || found-- == 0)) {
                if (pass == 1) {
                    return i;
                }
                ++found;
            }
        }
        if (found == 0) {
            return 0;
        }
        found = k % found;
    }
    return 0;
}

/* Apply the input's edits to the payload (s->p has room for `room` bytes); `other` is a snapshot
 * of the same scene at another moment, for splices. */
static void forge(fz_input *in, buf *s, size_t room, const buf *other) {
    int edits = 1 + fz_u8(in) % MAX_EDITS;
    for (int e = 0; e < edits && !fz_done(in); ++e) {
        uint8_t op = fz_u8(in);
        size_t payload = s->n - HEADER;
        size_t at = offset(in, payload);
        uint8_t *p = s->p + HEADER + at;
        size_t left = payload - at; /* bytes from p to the end */
        switch (op % 10u) {
        case 0: /* flip bits of a byte */
            if (left > 0) {
                *p ^= (uint8_t)(fz_u8(in) | 1u);
            }
            break;
        case 1: /* an awkward word */
            if (left >= 4) {
                put32(p, awkward[fz_u8(in) & 15u]);
            }
            break;
        case 2: /* a small signed number: an index near a count */
            if (left >= 4) {
                put32(p, (uint32_t)(int32_t)(int8_t)fz_u8(in));
            }
            break;
        case 3: /* any word, or a byte */
            if (left >= 4 && (op & 8u)) {
                put32(p, fz_u32(in));
            } else if (left > 0) {
                *p = fz_u8(in);
            }
            break;
        case 4: { /* copy 1..16 bytes from elsewhere in the payload */
            size_t from = offset(in, payload), n = 1u + (fz_u8(in) & 15u);
            if (n <= left && n <= payload - from) {
                memmove(p, s->p + HEADER + from, n);
            }
            break;
        }
        case 8: { /* splice: up to 1024 bytes of the other snapshot, from the same place */
            size_t n = 1u + ((size_t)fz_u8(in) << 2), theirs = other->n - HEADER;
            if (at < theirs) {
                n = n < left ? n : left;
                n = n < theirs - at ? n : theirs - at;
                memcpy(p, other->p + HEADER + at, n);
            }
            break;
        }
        case 9: { /* retarget an index: the k-th small value, set to -128..127 */
            if (payload >= 4) {
                put32(s->p + HEADER + index_at(s, at), (uint32_t)(int32_t)(int8_t)fz_u8(in));
            }
            break;
        }
        case 5: /* cut the payload here */
            s->n = HEADER + at;
            break;
        case 6: { /* insert 1..16 bytes (zeros, or the input's) here */
            size_t n = 1u + (fz_u8(in) & 15u);
            if (s->n + n <= room) {
                memmove(p + n, p, left);
                for (size_t k = 0; k < n; ++k) {
                    p[k] = (op & 8u) ? fz_u8(in) : 0u;
                }
                s->n += n;
            }
            break;
        }
        case 7: { /* delete 1..16 bytes here */
            size_t n = 1u + (fz_u8(in) & 15u);
            if (n <= left) {
                memmove(p, p + n, left - n);
                s->n -= n;
            }
            break;
        }
        }
    }
}

/* ---- using a restored world ------------------------------------------------------------------- */

typedef struct ids {
    rc_body_id b[MAX_IDS];
    int n;
} ids;

static void add_body(ids *l, rc_body_id b) {
    for (int i = 0; i < l->n; ++i) {
        if (rc_body_id_equals(l->b[i], b)) {
            return;
        }
    }
    if (l->n < MAX_IDS) {
        l->b[l->n++] = b;
    }
}

static bool collect(rc_shape_id shape, rc_body_id b, void *context) {
    (void)shape;
    add_body(context, b);
    return true;
}

static float stop_half(const rc_ray_hit *hit, void *context) {
    (void)context;
    return hit->t * 0.5f + 0.25f;
}

static void touch_contacts(const rc_world *w, rc_body_id b) {
    rc_contact_data data[16];
    int32_t n = rc_body_contact_data(w, b, data, 16);
    FZ_CHECK(n >= -1, "rc_body_contact_data: %d", n);
    rc_shape_id shapes[8];
    int32_t k = rc_body_shapes(w, b, shapes, 8);
    for (int32_t i = 0; i < k && i < 8; ++i) {
        rc_shape_contact_data(w, shapes[i], data, 16);
        rc_shape_contacts(w, shapes[i], NULL, 0);
        rc_shape_aabb(w, shapes[i]);
        rc_shape_chain_points(w, rc_shape_chain(w, shapes[i]), NULL, 0);
        rc_shape_test_point(w, shapes[i], rc_v2(0.0f, 1.0f));
    }
}

static void read_events(const rc_world *w, ids *l) {
    rc_contact_events ce = rc_world_contact_events(w);
    rc_sensor_events se = rc_world_sensor_events(w);
    volatile float sink = 0.0f;
    for (int32_t i = 0; i < ce.begin_count; ++i) {
        sink += ce.begin[i].approach_speed + ce.begin[i].manifold.depth;
        rc_shape_is_valid(w, ce.begin[i].shape_a);
    }
    for (int32_t i = 0; i < ce.end_count; ++i) {
        sink += ce.end[i].manifold.depth;
        rc_shape_is_valid(w, ce.end[i].shape_b);
    }
    for (int32_t i = 0; i < se.begin_count; ++i) {
        rc_shape_is_valid(w, se.begin[i].sensor);
    }
    for (int32_t i = 0; i < se.end_count; ++i) {
        rc_shape_is_valid(w, se.end[i].visitor);
    }
    const rc_impact_event *im = NULL;
    int n = rc_world_impact_events(w, &im);
    for (int i = 0; i < n; ++i) {
        sink += im[i].approach_speed;
        add_body(l, im[i].projectile);
    }
    const rc_body_move_event *mv = NULL;
    n = rc_world_body_move_events(w, &mv);
    for (int i = 0; i < n; ++i) {
        sink += mv[i].transform.p.x;
        add_body(l, mv[i].body);
    }
    (void)sink;
}

/* Everything a game does with a world, on a world that accepted a forged snapshot. */
static void exercise(rc_world *w, fz_input *in, const ids *known) {
    ids l = *known;
    rc_query_filter all = rc_default_query_filter();
    const float big = RC_WORLD_LIMIT;
    rc_aabb everything = {{-big, -big}, {big, big}};
    read_events(w, &l);
    rc_world_overlap_aabb(w, everything, all, collect, &l);
    for (int i = 0; i < 30; ++i) {
        rc_world_step(w, 1.0f / 60.0f);
        if (i % 10 == 9) {
            read_events(w, &l);
        }
    }
    read_events(w, &l);
    rc_world_overlap_aabb(w, everything, all, collect, &l);
    rc_ray_hit hit;
    for (int i = 0; i < 4; ++i) {
        rc_vec2 o = rc_v2(fz_small(in), fz_small(in)), d = rc_v2(fz_small(in) * 8.0f, fz_small(in) * 8.0f);
        rc_world_cast_ray(w, o, d, &hit);
        rc_world_cast_circle(w, o, 0.25f, d, &hit);
        rc_world_cast_ray_all(w, o, d, all, stop_half, NULL);
        rc_world_cast_circle_all(w, o, 0.5f, d, all, stop_half, NULL);
        rc_polygon b = rc_make_box(0.5f, 0.75f);
        rc_polygon q = rc_transform_polygon((rc_transform){.p = o, .q = {.c = 1.0f, .s = 0.0f}}, &b);
        rc_world_cast_polygon(w, &q, d, all, &hit);
        rc_world_overlap_point(w, o, all, collect, &l);
        rc_world_overlap_circle(w, o, 2.0f, all, collect, &l);
        rc_world_overlap_polygon(w, &q, all, collect, &l);
        rc_world_overlap_aabb(w, (rc_aabb){{o.x - 3.0f, o.y - 3.0f}, {o.x + 3.0f, o.y + 3.0f}}, all, NULL, NULL);
    }
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_v2(0.0f, 5.0f);
    pd.velocity = rc_v2(fz_small(in) * 4.0f, fz_small(in) * 4.0f);
    pd.radius = (fz_u8(in) & 1u) ? 0.0f : 0.3f;
    pd.restitution = 0.5f;
    rc_vec2 path[60];
    rc_predicted_bounce bounces[8];
    rc_world_predict(w, &pd, path, bounces, 8);
    /* the scene's joints: every getter, a setter of each kind (refused on another type), some
       destroyed */
    volatile float sink = 0.0f;
    uint8_t cut = fz_u8(in);
    for (int k = 0; k < g_njoints; ++k) {
        rc_joint_id j = g_joints[k];
        bool live = rc_joint_is_valid(w, j);
        rc_body_id a = rc_joint_body_a(w, j), b = rc_joint_body_b(w, j);
        FZ_CHECK(!live || rc_body_is_valid(w, b), "a live joint's body_b is not live");
        FZ_CHECK(!live || rc_body_id_is_null(a) || rc_body_is_valid(w, a), "a live joint's body_a is not live");
        sink += rc_joint_local_anchor_a(w, j).x + rc_joint_local_anchor_b(w, j).y + rc_joint_reaction_force(w, j).x +
                rc_joint_reaction_torque(w, j) + rc_revolute_joint_angle(w, j) + rc_revolute_joint_speed(w, j) +
                rc_revolute_joint_motor_torque(w, j) + rc_distance_joint_current_length(w, j) +
                rc_prismatic_joint_translation(w, j) + rc_prismatic_joint_speed(w, j) + rc_mouse_joint_target(w, j).x;
        sink += (float)rc_joint_get_type(w, j) + (rc_joint_collide_connected(w, j) ? 1.0f : 0.0f);
        rc_joint_set_user_data(w, j, &g_njoints);
        rc_revolute_joint_set_motor(w, j, true, -1.0f, 5.0f);
        rc_distance_joint_set_length(w, j, 1.0f);
        rc_prismatic_joint_set_limits(w, j, true, -0.5f, 0.5f);
        rc_weld_joint_set_springs(w, j, 1.0f, 0.5f, 0.0f, 1.0f);
        rc_mouse_joint_set_target(w, j, rc_v2(0.0f, 2.0f));
        if ((cut >> k) & 1u) {
            rc_joint_destroy(w, j);
        }
    }
    (void)sink;
    if (l.n >= 2 && rc_body_is_valid(w, l.b[0]) && rc_body_is_valid(w, l.b[l.n - 1])) {
        rc_revolute_joint_def hinge = rc_revolute_joint_default_def();
        hinge.body_a = l.b[0];
        hinge.body_b = l.b[l.n - 1];
        rc_joint_create_revolute(w, &hinge); /* refused when both lack mass or are one body */
    }
    for (int i = 0; i < l.n; ++i) {
        if (rc_body_is_valid(w, l.b[i])) {
            touch_contacts(w, l.b[i]);
            rc_body_mass_data(w, l.b[i]);
            rc_body_set_awake(w, l.b[i], true);
        }
    }
    /* destroy some bodies, by index order up to the counters' count */
    uint8_t pick = fz_u8(in);
    int32_t count = rc_world_get_counters(w).bodies;
    for (uint32_t index = 1; index <= (uint32_t)count + 1u; ++index) {
        for (int i = 0; i < l.n; ++i) {
            if (l.b[i].index == index && rc_body_is_valid(w, l.b[i]) && ((pick >> (index & 7u)) & 1u)) {
                rc_body_destroy(w, l.b[i]);
            }
        }
    }
    circle(w, bullet(w, 1.0f, 6.0f, 0.0f, -3.0f, -1), 0.4f, 0.2f); /* (a forged speed limit may refuse it) */
    for (int i = 0; i < 3; ++i) {
        rc_world_step(w, 1.0f / 60.0f);
    }
    read_events(w, &l);
    rc_world_get_counters(w);
    buf again = take(w);
    FZ_CHECK(rc_world_restore(w, again.p, again.n), "a snapshot of the restored world is refused: %s",
             rc_world_last_error(w));
    rc_world_step(w, 1.0f / 60.0f);
    free(again.p);
}

/* ---- the target ------------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size, 0};
    uint8_t scene = fz_u8(&in), steps = fz_u8(&in), flags = fz_u8(&in);
    budget wb, fb;
    rc_world *w = new_world(SALT, &wb);
    ids known = {.n = 0};
    g_njoints = 0;
    switch (scene % 3u) {
    case 0:
        scene_room(w);
        break;
    case 1:
        scene_arena(w);
        break;
    default:
        scene_pile(w, steps % 80);
        break;
    }
    for (int i = 0; scene % 3u != 2 && i < steps % 80; ++i) {
        rc_world_step(w, 1.0f / 60.0f);
    }
    rc_world_overlap_aabb(w, (rc_aabb){{-1.0e6f, -1.0e6f}, {1.0e6f, 1.0e6f}}, rc_default_query_filter(), collect,
                          &known);
    bool frame = (flags & 8u) != 0; /* a frame snapshot: the fresh world takes the level first */
    buf original = take_kind(w, frame);
    for (uint8_t i = 0; i <= (flags & 3u); ++i) { /* the world moves on from the snapshot */
        rc_world_step(w, 1.0f / 60.0f);
    }
    buf before = take(w), before_kind = take_kind(w, frame);
    for (int i = 0; (flags & 16u) != 0 && i < 2; ++i) { /* the spare made to hold the level */
        FZ_CHECK(rc_world_restore(w, before.p, before.n), "its own snapshot: %s", rc_world_last_error(w));
    }

    size_t room = original.n + 4096;
    buf forged = {malloc(room), original.n};
    FZ_CHECK(forged.p != NULL, "out of memory");
    memcpy(forged.p, original.p, original.n);
    forge(&in, &forged, room, &before_kind);
    bool stale = (flags & 4u) != 0;
    seal(&forged, stale);
    bool edited = !same(forged, original);
    dump_to("FZ_DUMP", forged); /* the forged snapshot */

    rc_world *fresh = new_world(SALT ^ 0xABCDu, &fb);
    if (frame) {
        FZ_CHECK(rc_world_restore(fresh, before.p, before.n), "the full snapshot: %s", rc_world_last_error(fresh));
    }
    buf fresh_before = take(fresh);
    rc_world_clear_error(w);
    /* what a restore may ask of the allocator: a multiple of the snapshot's size for the world's
       records (each count is held to the bytes its records take, but each against the whole
       payload) and the grid's load budget (broadphase/grid_snapshot.c: 64 bytes a byte and
       16 MiB besides, for a hash table or windows that outgrew their cells) */
    size_t allowed = RESTORE_BYTES_PER_BYTE * forged.n + ((size_t)17 << 20);
    wb.asked = fb.asked = 0;
    wb.limit = fb.limit = allowed;
    bool ok = rc_world_restore(w, forged.p, forged.n);
    bool ok_fresh = rc_world_restore(fresh, forged.p, forged.n);
    wb.limit = fb.limit = (size_t)64 << 20;
    if (getenv("FZ_VERBOSE") != NULL) {
        fprintf(stderr, "scene %u, %u steps: snapshot %zu bytes, forged %zu%s: %s (%s)\n", scene % 3u, steps % 80u,
                original.n, forged.n, stale ? " (stale checksum)" : "", ok ? "accepted" : "refused",
                rc_world_last_error(w));
    }
    FZ_CHECK(getenv("FZ_ALLOW_BIG") != NULL || (wb.asked <= allowed && fb.asked <= allowed),
             "a restore of %zu bytes asked the allocator for %zu bytes (the fresh world's: %zu)", forged.n, wb.asked,
             fb.asked);
    FZ_CHECK(ok == ok_fresh, "the same bytes restore into one world (%d) and not the other (%d): %s%s", ok, ok_fresh,
             rc_world_last_error(w), rc_world_last_error(fresh));
    FZ_CHECK(!(ok && stale && edited), "a snapshot with a stale checksum was accepted");
    if (!ok) {
        FZ_CHECK(rc_world_last_error(w)[0] != '\0' && rc_world_last_error(fresh)[0] != '\0',
                 "a refused restore left no message");
        buf now = take(w), fresh_now = take(fresh);
        FZ_CHECK(same(now, before), "a refused restore changed the world");
        FZ_CHECK(same(fresh_now, fresh_before), "a refused restore changed the fresh world");
        free(now.p);
        free(fresh_now.p);
    } else {
        buf back = take_kind(w, frame);
        dump_to("FZ_DUMP_BACK", back); /* what the world writes back */
        FZ_CHECK(same(back, forged), "an accepted snapshot (%zu bytes) writes back as other bytes (%zu)", forged.n,
                 back.n);
        /* over the world's own level, the level records it took are the ones it had (now the
           spare's, which the next restore reads into without copying the level again) */
        const rc_level_index *lv = rc_level_index_current(w);
        FZ_CHECK(lv == NULL || w->spare == NULL || w->spare->held_level != w->level_revision + 1u ||
                     rc_level_records_agree(w, w->spare, lv),
                 "a restore over the world's own level changed its level records");
        free(back.p);
        exercise(w, &in, &known);
        exercise(fresh, &in, &known);
    }
    /* the spare record a restore leaves (a half-read forgery, or a forged state) serves the next
       one (a frame's level first: a forged full snapshot, or the exercise, may have changed it) */
    FZ_CHECK(!frame || rc_world_restore(w, before.p, before.n), "the full snapshot is refused after a forged one: %s",
             rc_world_last_error(w));
    FZ_CHECK(rc_world_restore(w, original.p, original.n), "the original snapshot is refused after a forged one: %s",
             rc_world_last_error(w));
    buf reread = take_kind(w, frame);
    FZ_CHECK(same(reread, original), "the original snapshot restores as other bytes");
    rc_world_step(w, 1.0f / 60.0f);
    free(reread.p);
    free(fresh_before.p);
    free(forged.p);
    free(before.p);
    free(before_kind.p);
    free(original.p);
    rc_world_destroy(fresh);
    rc_world_destroy(w);
    FZ_CHECK(wb.live == 0 && fb.live == 0, "rc_world_destroy left %lld and %lld bytes", (long long)wb.live,
             (long long)fb.live);
    return 0;
}
