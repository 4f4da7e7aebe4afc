/* Determinism: the same calls in the same order give the same bits.
 *
 * A busy scene runs 3,000 steps of 1/60 s: a level of chains (a looped sector with a notch, an
 * open ledge), static pillars (circle, hexagon, box), a sensor region, a kinematic platform
 * going to and fro, crates (dynamic boxes without gravity, damped, half of them asleep at the
 * start) woken by impulses and by bullets, grenades (swept circles) thrown in and later
 * destroyed, point and circle bullets fired and destroyed after a lifetime, three walkers
 * moved every step with the character mover (kinematic bodies teleported to the mover's
 * answer), trajectory predictions and world queries. Every step the state of every body (the
 * raw bits of position, angle, velocities and the awake flag) and every event (impacts,
 * contact and sensor begin and end) go into a 64-bit FNV-1a hash, and so do the answers of the
 * mover, the predictions and the queries.
 *
 * The expected hash is committed below. It must come out the same from every build of the
 * library on x86-64: gcc -O0, gcc -O2, clang -O2, and the ASan/UBSan build (.ci/determinism
 * builds them all and prints each one's hash). The scene is run twice in one process, the
 * second time through an allocator that hands out memory at other addresses, which must not
 * change a bit either. The scene's own counts (bodies left, impacts, sleeps and wakes) are
 * asserted too, so that a hash of a scene that does nothing cannot pass.
 *
 * When a change to the library changes the step's results on purpose, the hash changes: run
 * .ci/determinism, check that every build agrees, and commit the new value. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* The hash of the scene as built from this commit's library (gcc -O0 and -O2, clang -O2 and
 * ASan/UBSan agree). */
#define EXPECTED_HASH 0x7393d9182a74134full

#define STEPS 3000
#define DT (1.0f / 60.0f)
#define MAX_TRACKED 1024

/* ---- the hash --------------------------------------------------------------------------------- */

typedef struct fnv {
    uint64_t h;
} fnv;

static void fnv_bytes(fnv *f, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) {
        f->h = (f->h ^ p[i]) * 1099511628211ull;
    }
}

static void fnv_u32(fnv *f, uint32_t v) { fnv_bytes(f, &v, sizeof v); }
static void fnv_float(fnv *f, float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    fnv_u32(f, bits);
}
static void fnv_vec(fnv *f, rc_vec2 v) {
    fnv_float(f, v.x);
    fnv_float(f, v.y);
}
static void fnv_body_id(fnv *f, rc_body_id id) {
    fnv_u32(f, id.index);
    fnv_u32(f, id.generation);
}
static void fnv_shape_id(fnv *f, rc_shape_id id) {
    fnv_u32(f, id.index);
    fnv_u32(f, id.generation);
}

/* ---- an allocator that puts blocks elsewhere ---------------------------------------------------- */

/* Each block is placed at a different offset into a bigger malloc'd block, so that the
 * library's memory sits at other addresses (and other relative distances) than with malloc. */
typedef struct shifted {
    uint32_t turn;
    int64_t live;
} shifted;

static void *shifted_alloc(size_t size, size_t align, void *user) {
    shifted *s = user;
    size_t pad = align * (1 + (s->turn++ % 7));
    unsigned char *raw = malloc(size + pad + sizeof(void *) + align);
    if (raw == NULL) {
        return NULL;
    }
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + pad + align - 1) & ~(uintptr_t)(align - 1);
    memcpy((void *)(at - sizeof(void *)), &raw, sizeof raw);
    s->live += (int64_t)size;
    return (void *)at;
}

static void shifted_free(void *ptr, size_t size, void *user) {
    shifted *s = user;
    void *raw;
    memcpy(&raw, (unsigned char *)ptr - sizeof(void *), sizeof raw);
    s->live -= (int64_t)size;
    free(raw);
}

/* ---- the scene --------------------------------------------------------------------------------- */

typedef struct scene {
    rc_world *w;
    fnv hash;
    rc_body_id tracked[MAX_TRACKED]; /* every body ever made; destroyed ones are skipped */
    int tracked_count;
    bool was_awake[MAX_TRACKED];
    rc_body_id crates[10];
    rc_body_id walkers[3];
    rc_body_id platform;
    rc_body_id grenades[128];
    int grenade_count;     /* thrown so far (destroyed ones stay in the list) */
    int grenade_destroyed; /* the first grenade_destroyed of the list are gone */
    rc_body_id bullets[2048];
    int bullet_fired[2048];
    int bullet_count, bullet_destroyed;
    ws_rng rng;
    /* what the scene did, asserted at the end */
    long impacts, contact_begins, contact_ends, sensor_begins, sensor_ends;
    int sleeps, wakes, created, destroyed, walker_touches, predicted_bounces, ray_hits;
} scene;

static rc_body_id track(scene *s, rc_body_id id) {
    EXPECT(!rc_body_id_is_null(id), "a body of the scene was refused: %s", rc_world_last_error(s->w));
    EXPECT(s->tracked_count < MAX_TRACKED, "too many bodies");
    s->was_awake[s->tracked_count] = rc_body_is_awake(s->w, id);
    s->tracked[s->tracked_count++] = id;
    s->created++;
    return id;
}

static void destroy(scene *s, rc_body_id id) {
    EXPECT(rc_body_is_valid(s->w, id), "destroying a body that is gone");
    rc_body_destroy(s->w, id);
    s->destroyed++;
}

static void need_shape(scene *s, rc_shape_id id) {
    EXPECT(!rc_shape_id_is_null(id), "a shape of the scene was refused: %s", rc_world_last_error(s->w));
}

static void build(scene *s) {
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = track(s, rc_body_create(s->w, &bd));
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.4f;
    sd.friction = 0.5f;
    /* the sector: a box 60 x 30 with a notch in its ceiling */
    rc_vec2 outline[8] = {{-30, -15}, {30, -15}, {30, 15}, {4, 15}, {4, 10}, {-4, 10}, {-4, 15}, {-30, 15}};
    need_shape(s, rc_shape_create_chain(s->w, level, &sd, outline, 8, true));
    rc_vec2 ledge[3] = {{-26, 2}, {-18, 0}, {-10, 1.5f}};
    need_shape(s, rc_shape_create_chain(s->w, level, &sd, ledge, 3, false));
    /* pillars, each on a static body of its own, one rotated */
    bd.position = rc_v2(-12, -11);
    need_shape(s, rc_shape_create_circle(s->w, track(s, rc_body_create(s->w, &bd)), &sd, 1.0f));
    bd.position = rc_v2(12, -11);
    bd.angle = 0.3f;
    rc_polygon hex = rc_make_regular_polygon(6, 1.2f, 0.0f);
    need_shape(s, rc_shape_create_polygon(s->w, track(s, rc_body_create(s->w, &bd)), &sd, hex.vertices, hex.count));
    bd.position = rc_v2(20, 4);
    bd.angle = -0.7f;
    sd.absorbs_projectiles = true; /* a sandbag: what strikes it stops there */
    need_shape(s, rc_shape_create_box(s->w, track(s, rc_body_create(s->w, &bd)), &sd, 1.5f, 0.4f));
    sd.absorbs_projectiles = false;
    /* a sensor region in the middle */
    bd.position = rc_v2(0, -6);
    bd.angle = 0.0f;
    rc_shape_def sensor = rc_shape_default_def();
    sensor.is_sensor = true;
    need_shape(s, rc_shape_create_box(s->w, track(s, rc_body_create(s->w, &bd)), &sensor, 6.0f, 3.0f));
    /* the platform */
    rc_body_def kd = rc_body_default_def();
    kd.type = RC_KINEMATIC;
    kd.position = rc_v2(0, 5);
    kd.linear_velocity = rc_v2(2.0f, 0.0f);
    kd.angular_velocity = 0.2f;
    s->platform = track(s, rc_body_create(s->w, &kd));
    need_shape(s, rc_shape_create_box(s->w, s->platform, &sd, 3.0f, 0.3f));
    /* crates: floating, damped; the odd ones asleep */
    for (int i = 0; i < 10; ++i) {
        rc_body_def cd = rc_body_default_def();
        cd.type = RC_DYNAMIC;
        cd.position = rc_v2(-22.0f + 4.8f * (float)i, i % 2 == 0 ? -3.0f : 7.0f);
        cd.angle = 0.17f * (float)i;
        cd.gravity_scale = 0.0f;
        cd.linear_damping = 2.0f;
        cd.angular_damping = 2.0f;
        cd.awake = i % 2 == 0;
        s->crates[i] = track(s, rc_body_create(s->w, &cd));
        rc_shape_def cs = rc_shape_default_def();
        cs.density = 0.5f;
        if (i % 3 == 0) {
            rc_polygon p = rc_make_regular_polygon(5, 0.8f, 0.1f * (float)i);
            need_shape(s, rc_shape_create_polygon(s->w, s->crates[i], &cs, p.vertices, p.count));
        } else {
            need_shape(s, rc_shape_create_box(s->w, s->crates[i], &cs, 0.6f, 0.5f));
        }
    }
    /* a stack on the floor under gravity (its box-on-box contacts keep their manifolds as it
       settles) with a pentagon on top */
    for (int i = 0; i < 4; ++i) {
        rc_body_def cd = rc_body_default_def();
        cd.type = RC_DYNAMIC;
        cd.position = rc_v2(26.0f + 0.05f * (float)i, -14.5f + 1.01f * (float)i);
        rc_body_id box = track(s, rc_body_create(s->w, &cd));
        rc_shape_def cs = rc_shape_default_def();
        cs.friction = 0.6f;
        if (i < 3) {
            need_shape(s, rc_shape_create_box(s->w, box, &cs, 0.6f, 0.5f));
        } else {
            rc_polygon p = rc_make_regular_polygon(5, 0.55f, 0.3f);
            need_shape(s, rc_shape_create_polygon(s->w, box, &cs, p.vertices, p.count));
        }
    }
    /* walkers: kinematic circles on the floor, moved by the mover */
    for (int i = 0; i < 3; ++i) {
        rc_body_def wd = rc_body_default_def();
        wd.type = RC_KINEMATIC;
        wd.position = rc_v2(-20.0f + 18.0f * (float)i, -14.0f);
        s->walkers[i] = track(s, rc_body_create(s->w, &wd));
        need_shape(s, rc_shape_create_circle(s->w, s->walkers[i], &sd, 0.5f));
    }
}

static void throw_grenade(scene *s) {
    EXPECT(s->grenade_count < 128, "too many grenades");
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    /* one draw per statement: the order in which a call's arguments are evaluated is
       unspecified, and gcc and clang do differ */
    bd.position.x = ws_range(&s->rng, -25, 25);
    bd.position.y = ws_range(&s->rng, 11, 14);
    bd.linear_velocity.x = ws_range(&s->rng, -8, 8);
    bd.linear_velocity.y = ws_range(&s->rng, -4, 4);
    bd.angular_velocity = ws_range(&s->rng, -3, 3);
    rc_body_id b = track(s, rc_body_create(s->w, &bd));
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = ws_range(&s->rng, 0.2, 0.7);
    sd.friction = 0.5f;
    need_shape(s, rc_shape_create_circle(s->w, b, &sd, ws_range(&s->rng, 0.15, 0.35)));
    s->grenades[s->grenade_count++] = b;
}

static void fire_bullet(scene *s, int step, bool circle) {
    EXPECT(s->bullet_count < 2048, "too many bullets");
    rc_rot dir = rc_rot_from_angle(ws_range(&s->rng, -3.14159, 3.14159));
    float speed = ws_range(&s->rng, 30, 90);
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.max_bounces = (int32_t)(s->bullet_count % 3);
    bd.bounce_budget = (int32_t)(s->bullet_count % 5) - 1; /* -1 (no limit) to 3 in its life */
    bd.point_mass = 0.05f;
    bd.position.x = ws_range(&s->rng, -28, 28);
    bd.position.y = ws_range(&s->rng, -13, 13);
    bd.linear_velocity = rc_v2(speed * dir.c, speed * dir.s);
    rc_body_id b = track(s, rc_body_create(s->w, &bd));
    if (circle) {
        rc_shape_def sd = rc_shape_default_def();
        sd.restitution = 0.8f;
        need_shape(s, rc_shape_create_circle(s->w, b, &sd, 0.1f));
    }
    s->bullet_fired[s->bullet_count] = step;
    s->bullets[s->bullet_count++] = b;
}

static bool count_overlap(rc_shape_id shape, rc_body_id body, void *context) {
    fnv *f = context;
    fnv_shape_id(f, shape);
    fnv_body_id(f, body);
    return true;
}

/* The game's part of a frame, before the step. */
static void frame(scene *s, int step) {
    rc_world *w = s->w;
    if (step % 120 == 0) {
        rc_vec2 v = rc_body_linear_velocity(w, s->platform);
        EXPECT(rc_body_set_linear_velocity(w, s->platform, rc_v2(0.0f - v.x, v.y)), "platform");
    }
    if (step < 2400 && step % 40 == 0 && s->grenade_count - s->grenade_destroyed < 60) {
        throw_grenade(s);
    }
    if (step >= 1000 && step % 90 == 0 && s->grenade_destroyed < s->grenade_count) {
        destroy(s, s->grenades[s->grenade_destroyed++]);
    }
    if (step % 4 == 0) {
        fire_bullet(s, step, step % 20 == 0);
    }
    while (s->bullet_destroyed < s->bullet_count && s->bullet_fired[s->bullet_destroyed] + 75 <= step) {
        destroy(s, s->bullets[s->bullet_destroyed++]);
    }
    if (step == 500 || step == 1700) {
        rc_body_id c = s->crates[step == 500 ? 1 : 4];
        EXPECT(rc_body_apply_linear_impulse(w, c, rc_v2(1.5f, -0.5f), rc_add(rc_body_world_center(w, c), rc_v2(0.2f, 0.1f))),
               "impulse");
    }
    if (step == 2000) {
        /* a crate goes and another takes its place */
        destroy(s, s->crates[3]);
        rc_body_def cd = rc_body_default_def();
        cd.type = RC_DYNAMIC;
        cd.position = rc_v2(3.0f, -1.0f);
        cd.gravity_scale = 0.0f;
        cd.linear_damping = 2.0f;
        s->crates[3] = track(s, rc_body_create(w, &cd));
        rc_shape_def cs = rc_shape_default_def();
        need_shape(s, rc_shape_create_box(w, s->crates[3], &cs, 0.7f, 0.7f));
    }
    /* the walkers: to and fro along the floor, pressed down onto it */
    for (int i = 0; i < 3; ++i) {
        rc_rot q = rc_rot_from_angle(0.013f * (float)step + 1.7f * (float)i);
        rc_mover_def md = rc_mover_default_def();
        md.position = rc_body_position(w, s->walkers[i]);
        md.radius = 0.5f;
        md.delta = rc_v2(0.2f * q.c, 0.05f * q.s - 0.08f);
        md.ignore_body = s->walkers[i];
        rc_mover_result r;
        EXPECT(rc_world_move_circle_ex(w, &md, &r), "mover: %s", rc_world_last_error(w));
        fnv_vec(&s->hash, r.position);
        fnv_u32(&s->hash, (uint32_t)r.touch_count);
        for (int32_t k = 0; k < r.touch_count; ++k) {
            fnv_shape_id(&s->hash, r.touches[k].shape);
            fnv_vec(&s->hash, r.touches[k].normal);
            fnv_float(&s->hash, r.touches[k].separation);
        }
        s->walker_touches += r.touch_count;
        EXPECT(rc_body_set_transform(w, s->walkers[i], r.position, 0.0f), "walker");
    }
    if (step % 100 == 50) {
        rc_prediction_def pd = rc_prediction_default_def();
        pd.position = rc_v2(-20.0f + 0.01f * (float)step, 12.0f);
        pd.velocity = rc_v2(9.0f, 3.0f);
        pd.radius = 0.25f;
        pd.restitution = 0.5f;
        pd.steps = 120;
        rc_vec2 path[120];
        rc_predicted_bounce bounces[16];
        int32_t n = rc_world_predict(w, &pd, path, bounces, 16);
        EXPECT(n >= 0, "predict: %s", rc_world_last_error(w));
        s->predicted_bounces += n;
        for (int k = 0; k < 120; ++k) {
            fnv_vec(&s->hash, path[k]);
        }
        for (int32_t k = 0; k < n && k < 16; ++k) {
            fnv_u32(&s->hash, (uint32_t)bounces[k].step);
            fnv_shape_id(&s->hash, bounces[k].shape);
            fnv_vec(&s->hash, bounces[k].point);
            fnv_float(&s->hash, bounces[k].approach_speed);
        }
    }
    if (step % 10 == 5) {
        rc_ray_hit h;
        rc_rot q = rc_rot_from_angle(0.37f * (float)step);
        if (rc_world_cast_ray(w, rc_v2(0.0f, 0.0f), rc_v2(40.0f * q.c, 40.0f * q.s), &h)) {
            s->ray_hits++;
            fnv_float(&s->hash, h.t);
            fnv_vec(&s->hash, h.point);
            fnv_vec(&s->hash, h.normal);
            fnv_shape_id(&s->hash, h.shape);
        }
        if (rc_world_cast_circle(w, rc_v2(-25.0f, 0.0f), 0.3f, rc_v2(50.0f * q.c, 50.0f * q.s), &h)) {
            fnv_float(&s->hash, h.t);
            fnv_vec(&s->hash, h.point);
        }
        fnv f = s->hash;
        int32_t n = rc_world_overlap_circle(w, rc_v2(0.0f, -10.0f), 5.0f, rc_default_query_filter(), count_overlap, &f);
        s->hash = f;
        fnv_u32(&s->hash, (uint32_t)n);
    }
}

/* Everything observable after a step, into the hash. */
static void absorb(scene *s) {
    rc_world *w = s->w;
    for (int i = 0; i < s->tracked_count; ++i) {
        rc_body_id id = s->tracked[i];
        if (!rc_body_is_valid(w, id)) {
            continue;
        }
        fnv_body_id(&s->hash, id);
        fnv_vec(&s->hash, rc_body_position(w, id));
        fnv_float(&s->hash, rc_body_angle(w, id));
        fnv_vec(&s->hash, rc_body_linear_velocity(w, id));
        fnv_float(&s->hash, rc_body_angular_velocity(w, id));
        bool awake = rc_body_is_awake(w, id);
        fnv_u32(&s->hash, awake);
        if (rc_body_get_type(w, id) == RC_DYNAMIC) {
            s->sleeps += s->was_awake[i] && !awake;
            s->wakes += !s->was_awake[i] && awake;
        }
        s->was_awake[i] = awake;
    }
    const rc_impact_event *impacts = NULL;
    int n = rc_world_impact_events(w, &impacts);
    EXPECT(n >= 0, "impact events");
    s->impacts += n;
    for (int i = 0; i < n; ++i) {
        fnv_body_id(&s->hash, impacts[i].projectile);
        fnv_shape_id(&s->hash, impacts[i].shape);
        fnv_vec(&s->hash, impacts[i].point);
        fnv_vec(&s->hash, impacts[i].normal);
        fnv_float(&s->hash, impacts[i].approach_speed);
        fnv_u32(&s->hash, (uint32_t)impacts[i].bounce);
        fnv_u32(&s->hash, impacts[i].spent ? 1u : 0u);
    }
    rc_contact_events ce = rc_world_contact_events(w);
    s->contact_begins += ce.begin_count;
    s->contact_ends += ce.end_count;
    for (int32_t i = 0; i < ce.begin_count; ++i) {
        fnv_shape_id(&s->hash, ce.begin[i].shape_a);
        fnv_shape_id(&s->hash, ce.begin[i].shape_b);
        fnv_vec(&s->hash, ce.begin[i].manifold.normal);
    }
    for (int32_t i = 0; i < ce.end_count; ++i) {
        fnv_shape_id(&s->hash, ce.end[i].shape_a);
        fnv_shape_id(&s->hash, ce.end[i].shape_b);
    }
    rc_sensor_events se = rc_world_sensor_events(w);
    s->sensor_begins += se.begin_count;
    s->sensor_ends += se.end_count;
    for (int32_t i = 0; i < se.begin_count; ++i) {
        fnv_shape_id(&s->hash, se.begin[i].sensor);
        fnv_shape_id(&s->hash, se.begin[i].visitor);
    }
    for (int32_t i = 0; i < se.end_count; ++i) {
        fnv_shape_id(&s->hash, se.end[i].sensor);
        fnv_shape_id(&s->hash, se.end[i].visitor);
    }
}

static void run(scene *s, rc_allocator allocator) {
    memset(s, 0, sizeof *s);
    s->hash.h = 14695981039346656037ull;
    s->rng.s = 0xD37E2A1Full;
    rc_world_def wd = rc_world_default_def();
    wd.allocator = allocator;
    wd.id_salt = 0x5EED1D5u; /* ids are part of the hash: the same salt wherever it runs */
    s->w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(s->w);
    build(s);
    for (int step = 0; step < STEPS; ++step) {
        frame(s, step);
        EXPECT(rc_world_step(s->w, DT), "step %d: %s", step, rc_world_last_error(s->w));
        absorb(s);
    }
    EXPECT(rc_world_get_counters(s->w).bodies == s->created - s->destroyed, "the world has %d bodies, the scene made %d and destroyed %d",
           rc_world_get_counters(s->w).bodies, s->created, s->destroyed);
    rc_world_destroy(s->w);
    s->w = NULL;
}

START_TEST(same_calls_same_bits) {
    scene *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    run(a, (rc_allocator){NULL, NULL, NULL});
    shifted sh = {0, 0};
    run(b, (rc_allocator){shifted_alloc, shifted_free, &sh});
    ck_assert_int_eq((int)sh.live, 0);

    printf("determinism hash: 0x%016llx\n", (unsigned long long)a->hash.h);
    printf("[determinism] %d steps; bodies made %d, destroyed %d; impacts %ld; contacts begun %ld, ended %ld; sensor "
           "visits %ld, left %ld; dynamic bodies fell asleep %d times, woke %d times; walker touches %d; predicted "
           "bounces %d; ray hits %d\n",
           STEPS, a->created, a->destroyed, a->impacts, a->contact_begins, a->contact_ends, a->sensor_begins,
           a->sensor_ends, a->sleeps, a->wakes, a->walker_touches, a->predicted_bounces, a->ray_hits);
    fflush(stdout);

    /* the scene does what it says: counts fixed by its script */
    /* made: the level, 3 pillars, the sensor, the platform (6); 10 crates; the stack (4); 3
       walkers; the new crate; a bullet every 4th step (750); a grenade every 40th step before
       2,400 (60) */
    ck_assert_int_eq(a->created, 6 + 10 + 4 + 3 + 1 + 750 + 60);
    /* destroyed: the crate; the bullets fired at steps 0, 4, ..., 2924 (75 steps before the
       last, 732); a grenade at steps 1080, 1170, ..., 2970 (22) */
    ck_assert_int_eq(a->destroyed, 1 + 732 + 22);
    /* and it is busy: things strike, touch, sleep and wake */
    ck_assert(a->impacts > 500);
    ck_assert(a->contact_begins > 50 && a->contact_ends > 50);
    ck_assert(a->sensor_begins > 10);
    ck_assert(a->sleeps > 20 && a->wakes > 10);
    ck_assert(a->walker_touches > 1000);
    ck_assert(a->predicted_bounces > 10);

    ck_assert_msg(a->hash.h == b->hash.h, "the run through another allocator gave 0x%016llx, not 0x%016llx",
                  (unsigned long long)b->hash.h, (unsigned long long)a->hash.h);
    ck_assert_msg(a->hash.h == EXPECTED_HASH, "hash 0x%016llx, expected 0x%016llx", (unsigned long long)a->hash.h,
                  (unsigned long long)EXPECTED_HASH);
    free(a);
    free(b);
}
END_TEST

static Suite *determinism_suite(void) {
    Suite *s = suite_create("determinism");
    TCase *t = tcase_create("determinism");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, same_calls_same_bits);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(determinism_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
