/* tests/support/busy_scene.c: see busy_scene.h. Moved here from tests/test_determinism.c as it
 * was: every call in the same order, so that the committed hash of that test holds. */
#include "support/busy_scene.h"

#include "core/bytes.h" /* rc_bytes_checksum: to seal forged snapshots */

#include <check.h>
#include <stb_ds.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT WS_EXPECT

/* ---- the hash --------------------------------------------------------------------------------- */

void busy_fnv_bytes(busy_fnv *f, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) {
        f->h = (f->h ^ p[i]) * 1099511628211ull;
    }
}

void busy_fnv_u32(busy_fnv *f, uint32_t v) { busy_fnv_bytes(f, &v, sizeof v); }
void busy_fnv_float(busy_fnv *f, float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    busy_fnv_u32(f, bits);
}
void busy_fnv_vec(busy_fnv *f, rc_vec2 v) {
    busy_fnv_float(f, v.x);
    busy_fnv_float(f, v.y);
}
void busy_fnv_body_id(busy_fnv *f, rc_body_id id) {
    busy_fnv_u32(f, id.index);
    busy_fnv_u32(f, id.generation);
}
void busy_fnv_shape_id(busy_fnv *f, rc_shape_id id) {
    busy_fnv_u32(f, id.index);
    busy_fnv_u32(f, id.generation);
}

/* ---- an allocator that puts blocks elsewhere ---------------------------------------------------- */

static void *shifted_alloc(size_t size, size_t align, void *user) {
    busy_shifted *s = user;
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
    busy_shifted *s = user;
    void *raw;
    memcpy(&raw, (unsigned char *)ptr - sizeof(void *), sizeof raw);
    s->live -= (int64_t)size;
    free(raw);
}

rc_allocator busy_shifted_allocator(busy_shifted *s) {
    rc_allocator a = {shifted_alloc, shifted_free, s};
    return a;
}

/* ---- the scene --------------------------------------------------------------------------------- */

static rc_body_id track(busy_scene *s, rc_body_id id) {
    EXPECT(!rc_body_id_is_null(id), "a body of the scene was refused: %s", rc_world_last_error(s->w));
    EXPECT(s->tracked_count < BUSY_MAX_TRACKED, "too many bodies");
    s->was_awake[s->tracked_count] = rc_body_is_awake(s->w, id);
    s->tracked[s->tracked_count++] = id;
    s->created++;
    return id;
}

static void destroy(busy_scene *s, rc_body_id id) {
    EXPECT(rc_body_is_valid(s->w, id), "destroying a body that is gone");
    rc_body_destroy(s->w, id);
    s->destroyed++;
}

static void need_shape(busy_scene *s, rc_shape_id id) {
    EXPECT(!rc_shape_id_is_null(id), "a shape of the scene was refused: %s", rc_world_last_error(s->w));
}

static void build(busy_scene *s) {
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

static rc_joint_id track_joint(busy_scene *s, rc_joint_id id) {
    EXPECT(!rc_joint_id_is_null(id), "a joint of the scene was refused: %s", rc_world_last_error(s->w));
    EXPECT(s->joint_count < 16, "too many joints");
    s->joints[s->joint_count++] = id;
    return id;
}

static rc_body_id dynamic_box(busy_scene *s, rc_vec2 at, float hw, float hh) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = at;
    rc_body_id id = track(s, rc_body_create(s->w, &bd));
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.5f;
    need_shape(s, rc_shape_create_box(s->w, id, &sd, hw, hh));
    return id;
}

/* The joints: on the level body (the first tracked), a lamp hinged to the notch's ceiling and
 * roped to crate 3; a bridge of four planks from the left wall's top to a hinge in the air; a
 * crate sliding along a tilted rail with a motor within limits; a hatch hanging from a sprung,
 * limited hinge above the ledge. */
static void build_joints(busy_scene *s) {
    rc_world *w = s->w;
    rc_body_id level = s->tracked[0];
    s->lamp = dynamic_box(s, rc_v2(0.0f, 9.0f), 0.4f, 0.4f); /* clear of the turning platform's ends */
    rc_revolute_joint_def hinge = rc_revolute_joint_default_def();
    hinge.body_a = level;
    hinge.body_b = s->lamp;
    hinge.local_anchor_a = rc_v2(0.0f, 10.0f);
    hinge.local_anchor_b = rc_v2(0.0f, 1.0f);
    track_joint(s, rc_joint_create_revolute(w, &hinge));
    rc_distance_joint_def rope = rc_distance_joint_default_def();
    rope.body_a = s->lamp;
    rope.body_b = s->crates[3];
    rope.length = 14.0f;
    rope.enable_spring = true;
    rope.enable_limit = true;
    rope.max_length = 14.0f;
    track_joint(s, rc_joint_create_distance(w, &rope));
    rc_body_id previous = level;
    rc_vec2 anchor = rc_v2(-29.5f, 12.0f);
    for (int i = 0; i < 4; ++i) {
        s->planks[i] = dynamic_box(s, rc_v2(-28.5f + 2.0f * (float)i, 12.0f), 1.0f, 0.15f);
        hinge = rc_revolute_joint_default_def();
        hinge.body_a = previous;
        hinge.body_b = s->planks[i];
        hinge.local_anchor_a = previous.index == level.index ? anchor : rc_v2(1.0f, 0.0f);
        hinge.local_anchor_b = rc_v2(-1.0f, 0.0f);
        track_joint(s, rc_joint_create_revolute(w, &hinge));
        previous = s->planks[i];
    }
    rc_distance_joint_def rod = rc_distance_joint_default_def();
    rod.body_a = level;
    rod.body_b = s->planks[3];
    rod.local_anchor_a = rc_v2(-19.5f, 14.0f);
    rod.local_anchor_b = rc_v2(1.0f, 0.0f);
    rod.length = 2.83f; /* as far as the anchors are at the start */
    track_joint(s, rc_joint_create_distance(w, &rod));
    s->slider = dynamic_box(s, rc_v2(-8.0f, -12.0f), 0.5f, 0.5f);
    rc_prismatic_joint_def rail = rc_prismatic_joint_default_def();
    rail.body_a = level;
    rail.body_b = s->slider;
    rail.local_anchor_a = rc_v2(-8.0f, -12.0f);
    rail.local_axis_a = rc_v2(1.0f, 0.2f);
    rail.enable_limit = true;
    rail.lower_translation = -3.0f;
    rail.upper_translation = 3.0f;
    rail.enable_motor = true;
    rail.motor_speed = 1.5f;
    rail.max_motor_force = 40.0f;
    track_joint(s, rc_joint_create_prismatic(w, &rail));
    s->door = dynamic_box(s, rc_v2(-10.0f, 6.0f), 0.15f, 2.0f);
    rc_revolute_joint_def door = rc_revolute_joint_default_def();
    door.body_a = level;
    door.body_b = s->door;
    door.local_anchor_a = rc_v2(-10.0f, 8.0f);
    door.local_anchor_b = rc_v2(0.0f, 2.0f);
    door.enable_limit = true;
    door.lower_angle = -1.2f;
    door.upper_angle = 1.2f;
    door.enable_spring = true;
    door.hertz = 1.0f;
    door.damping_ratio = 0.5f;
    track_joint(s, rc_joint_create_revolute(w, &door));
}

/* The joints' state into the hash: each live one's reaction. */
static void absorb_joints(busy_scene *s) {
    for (int i = 0; i < s->joint_count; ++i) {
        if (rc_joint_is_valid(s->w, s->joints[i])) {
            busy_fnv_u32(&s->hash, s->joints[i].index);
            busy_fnv_vec(&s->hash, rc_joint_reaction_force(s->w, s->joints[i]));
            busy_fnv_float(&s->hash, rc_joint_reaction_torque(s->w, s->joints[i]));
        }
    }
}

static void throw_grenade(busy_scene *s) {
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

static void fire_bullet(busy_scene *s, int step, bool circle) {
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
    busy_fnv *f = context;
    busy_fnv_shape_id(f, shape);
    busy_fnv_body_id(f, body);
    return true;
}

/* The game's part of a frame, before the step. */
void busy_scene_game(busy_scene *s, int step) {
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
    if (step == 1200) {
        /* the door is kicked, the bridge's rod cut, two crates welded */
        EXPECT(rc_body_apply_linear_impulse(w, s->door, rc_v2(6.0f, 0.0f), rc_body_world_center(w, s->door)), "kick");
        rc_joint_destroy(w, s->joints[6]);
        EXPECT(!rc_joint_is_valid(w, s->joints[6]), "the rod");
        rc_weld_joint_def weld = rc_weld_joint_default_def();
        weld.body_a = s->crates[4];
        weld.body_b = s->crates[6];
        weld.local_anchor_a = rc_v2(4.8f, 0.0f); /* where they started, 9.6 apart */
        weld.local_anchor_b = rc_v2(-4.8f, 0.0f);
        weld.reference_angle = rc_body_angle(w, s->crates[6]) - rc_body_angle(w, s->crates[4]);
        track_joint(s, rc_joint_create_weld(w, &weld));
    }
    if (step == 1500) {
        EXPECT(rc_prismatic_joint_set_motor(w, s->joints[7], true, -2.0f, 60.0f), "motor");
    }
    if (step == 2000) {
        /* a crate goes (and its rope from the lamp) and another takes its place */
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
        busy_fnv_vec(&s->hash, r.position);
        busy_fnv_u32(&s->hash, (uint32_t)r.touch_count);
        for (int32_t k = 0; k < r.touch_count; ++k) {
            busy_fnv_shape_id(&s->hash, r.touches[k].shape);
            busy_fnv_vec(&s->hash, r.touches[k].normal);
            busy_fnv_float(&s->hash, r.touches[k].separation);
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
            busy_fnv_vec(&s->hash, path[k]);
        }
        for (int32_t k = 0; k < n && k < 16; ++k) {
            busy_fnv_u32(&s->hash, (uint32_t)bounces[k].step);
            busy_fnv_shape_id(&s->hash, bounces[k].shape);
            busy_fnv_vec(&s->hash, bounces[k].point);
            busy_fnv_float(&s->hash, bounces[k].approach_speed);
        }
    }
    if (step % 10 == 5) {
        rc_ray_hit h;
        rc_rot q = rc_rot_from_angle(0.37f * (float)step);
        if (rc_world_cast_ray(w, rc_v2(0.0f, 0.0f), rc_v2(40.0f * q.c, 40.0f * q.s), &h)) {
            s->ray_hits++;
            busy_fnv_float(&s->hash, h.t);
            busy_fnv_vec(&s->hash, h.point);
            busy_fnv_vec(&s->hash, h.normal);
            busy_fnv_shape_id(&s->hash, h.shape);
        }
        if (rc_world_cast_circle(w, rc_v2(-25.0f, 0.0f), 0.3f, rc_v2(50.0f * q.c, 50.0f * q.s), &h)) {
            busy_fnv_float(&s->hash, h.t);
            busy_fnv_vec(&s->hash, h.point);
        }
        busy_fnv f = s->hash;
        int32_t n = rc_world_overlap_circle(w, rc_v2(0.0f, -10.0f), 5.0f, rc_default_query_filter(), count_overlap, &f);
        s->hash = f;
        busy_fnv_u32(&s->hash, (uint32_t)n);
    }
}

/* Everything observable after a step, into the hash. */
void busy_scene_absorb(busy_scene *s) {
    rc_world *w = s->w;
    for (int i = 0; i < s->tracked_count; ++i) {
        rc_body_id id = s->tracked[i];
        if (!rc_body_is_valid(w, id)) {
            continue;
        }
        busy_fnv_body_id(&s->hash, id);
        busy_fnv_vec(&s->hash, rc_body_position(w, id));
        busy_fnv_float(&s->hash, rc_body_angle(w, id));
        busy_fnv_vec(&s->hash, rc_body_linear_velocity(w, id));
        busy_fnv_float(&s->hash, rc_body_angular_velocity(w, id));
        bool awake = rc_body_is_awake(w, id);
        busy_fnv_u32(&s->hash, awake);
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
        busy_fnv_body_id(&s->hash, impacts[i].projectile);
        busy_fnv_shape_id(&s->hash, impacts[i].shape);
        busy_fnv_vec(&s->hash, impacts[i].point);
        busy_fnv_vec(&s->hash, impacts[i].normal);
        busy_fnv_float(&s->hash, impacts[i].approach_speed);
        busy_fnv_u32(&s->hash, (uint32_t)impacts[i].bounce);
        busy_fnv_u32(&s->hash, impacts[i].spent ? 1u : 0u);
    }
    rc_contact_events ce = rc_world_contact_events(w);
    s->contact_begins += ce.begin_count;
    s->contact_ends += ce.end_count;
    for (int32_t i = 0; i < ce.begin_count; ++i) {
        busy_fnv_shape_id(&s->hash, ce.begin[i].shape_a);
        busy_fnv_shape_id(&s->hash, ce.begin[i].shape_b);
        busy_fnv_vec(&s->hash, ce.begin[i].manifold.normal);
    }
    for (int32_t i = 0; i < ce.end_count; ++i) {
        busy_fnv_shape_id(&s->hash, ce.end[i].shape_a);
        busy_fnv_shape_id(&s->hash, ce.end[i].shape_b);
    }
    rc_sensor_events se = rc_world_sensor_events(w);
    s->sensor_begins += se.begin_count;
    s->sensor_ends += se.end_count;
    for (int32_t i = 0; i < se.begin_count; ++i) {
        busy_fnv_shape_id(&s->hash, se.begin[i].sensor);
        busy_fnv_shape_id(&s->hash, se.begin[i].visitor);
    }
    for (int32_t i = 0; i < se.end_count; ++i) {
        busy_fnv_shape_id(&s->hash, se.end[i].sensor);
        busy_fnv_shape_id(&s->hash, se.end[i].visitor);
    }
    absorb_joints(s);
}

rc_world_def busy_scene_world_def(rc_allocator allocator) {
    rc_world_def wd = rc_world_default_def();
    wd.allocator = allocator;
    wd.id_salt = BUSY_ID_SALT;
    return wd;
}

void busy_scene_begin(busy_scene *s, rc_allocator allocator) {
    memset(s, 0, sizeof *s);
    s->hash.h = BUSY_FNV_START;
    s->rng.s = 0xD37E2A1Full;
    rc_world_def wd = busy_scene_world_def(allocator);
    s->w = rc_world_create(&wd);
    EXPECT(s->w != NULL, "the scene's world was refused");
    build(s);
    build_joints(s);
}

void busy_scene_advance(busy_scene *s, int step) {
    EXPECT(rc_world_step(s->w, BUSY_DT), "step %d: %s", step, rc_world_last_error(s->w));
    busy_scene_absorb(s);
}

void busy_scene_frame(busy_scene *s, int step) {
    busy_scene_game(s, step);
    busy_scene_advance(s, step);
}

void busy_scene_check_body_count(const busy_scene *s) {
    EXPECT(rc_world_get_counters(s->w).bodies == s->created - s->destroyed,
           "the world has %d bodies, the scene made %d and destroyed %d", rc_world_get_counters(s->w).bodies,
           s->created, s->destroyed);
}

void busy_scene_end(busy_scene *s) {
    rc_world_destroy(s->w);
    s->w = NULL;
}

/* ---- the diff ------------------------------------------------------------------------------------ */

void busy_scene_run_to(busy_scene *s, rc_allocator allocator, int steps) {
    busy_scene_begin(s, allocator);
    for (int step = 0; step < steps; ++step) {
        busy_scene_frame(s, step);
    }
}

static unsigned char *take(const rc_world *w, size_t *size, bool frame) {
    size_t n = frame ? rc_world_frame_snapshot_size(w) : rc_world_snapshot_size(w);
    unsigned char *bytes = malloc(n > 0 ? n : 1);
    EXPECT(bytes != NULL, "malloc");
    size_t used = frame ? rc_world_snapshot_frame(w, bytes, n) : rc_world_snapshot(w, bytes, n);
    EXPECT(n > BUSY_SNAPSHOT_HEADER && used == n, "the %s snapshot wrote %zu bytes, its size was %zu: %s",
           frame ? "frame" : "full", used, n, rc_world_last_error(w));
    *size = n;
    return bytes;
}

unsigned char *busy_snapshot_take(const rc_world *w, size_t *size) { return take(w, size, false); }

unsigned char *busy_snapshot_take_frame(const rc_world *w, size_t *size) { return take(w, size, true); }

static uint64_t get64(const unsigned char *p) {
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) {
        v |= (uint64_t)p[k] << (8 * k);
    }
    return v;
}

static void put64(unsigned char *p, uint64_t v) {
    for (int k = 0; k < 8; ++k) {
        p[k] = (unsigned char)(v >> (8 * k));
    }
}

void busy_snapshot_seal(unsigned char *p, size_t n) {
    EXPECT(n >= BUSY_SNAPSHOT_HEADER, "a snapshot of %zu bytes has no header", n);
    uint64_t size = n - BUSY_SNAPSHOT_HEADER, level = get64(p + BUSY_SNAPSHOT_LEVEL_AT);
    level = level < size ? level : size;
    put64(p + BUSY_SNAPSHOT_SIZE_AT, size);
    put64(p + BUSY_SNAPSHOT_LEVEL_AT, level);
    const unsigned char *payload = p + BUSY_SNAPSHOT_HEADER;
    put64(p + 32, rc_bytes_checksum(payload + level, (size_t)(size - level)));
    if (p[8] == 0) { /* a full snapshot: its level section's own */
        put64(p + 40, rc_bytes_checksum(payload, (size_t)level));
    }
}

const char *busy_snapshot_difference(const unsigned char *a, size_t na, const unsigned char *b, size_t nb) {
    static char why[160];
    size_t n = na < nb ? na : nb, i = n < BUSY_SNAPSHOT_HEADER ? n : BUSY_SNAPSHOT_HEADER;
    while (i < n && a[i] == b[i]) {
        ++i;
    }
    if (i == n && na == nb) {
        for (i = 0; i < BUSY_SNAPSHOT_HEADER && i < n && a[i] == b[i]; ++i) {
        }
        if (i == BUSY_SNAPSHOT_HEADER || i == n) {
            return "";
        }
    }
    snprintf(why, sizeof why, "sizes %zu and %zu, first difference at byte %zu (0x%02x vs 0x%02x)", na, nb, i,
             i < na ? a[i] : 0u, i < nb ? b[i] : 0u);
    return why;
}

const char *busy_scene_diff(const busy_scene *got, int moment) {
    static char why[900];
    busy_scene *want = calloc(1, sizeof *want);
    EXPECT(want != NULL, "calloc");
    busy_scene_run_to(want, (rc_allocator){NULL, NULL, NULL}, moment);
    why[0] = '\0';
    rc_shape_id *shapes = NULL;
    for (int i = 0; i < want->tracked_count; ++i) {
        rc_shape_id ids[16];
        int32_t n = rc_body_shapes(want->w, want->tracked[i], ids, 16);
        for (int32_t k = 0; k < n && k < 16; ++k) {
            arrput(shapes, ids[k]);
        }
    }
    ws_snapshot a, b;
    ws_snapshot_take(&a, want->w, want->tracked, want->tracked_count, shapes, (int)arrlen(shapes));
    ws_snapshot_take(&b, got->w, want->tracked, want->tracked_count, shapes, (int)arrlen(shapes));
    char diff[600] = "";
    bool same = ws_snapshot_equal(&a, &b, diff, sizeof diff);
    ws_snapshot_free(&a);
    ws_snapshot_free(&b);
    arrfree(shapes);
    if (got->tracked_count != want->tracked_count || got->rng.s != want->rng.s) {
        snprintf(why, sizeof why, "the game's record: %d/%d bodies tracked, rng %llx/%llx", got->tracked_count,
                 want->tracked_count, (unsigned long long)got->rng.s, (unsigned long long)want->rng.s);
    } else if (!same) {
        snprintf(why, sizeof why, "(uninterrupted -> this run) %s", diff);
    }
    for (int i = 0; i < want->tracked_count && why[0] == '\0'; ++i) {
        rc_body_id id = want->tracked[i];
        rc_contact_data x[64], y[64];
        memset(x, 0, sizeof x);
        memset(y, 0, sizeof y);
        int32_t nx = rc_body_contact_data(want->w, id, x, 64), ny = rc_body_contact_data(got->w, id, y, 64);
        if (rc_body_is_valid(want->w, id) && (nx != ny || memcmp(x, y, sizeof x) != 0 ||
                                              rc_body_bounces_left(want->w, id) != rc_body_bounces_left(got->w, id))) {
            snprintf(why, sizeof why, "body #%d (%u:%08x): its contacts (%d -> %d) or bounces left differ", i,
                     id.index, id.generation, nx, ny);
        }
    }
    if (why[0] == '\0') {
        size_t na, nb;
        unsigned char *sa = busy_snapshot_take(want->w, &na), *sb = busy_snapshot_take(got->w, &nb);
        snprintf(why, sizeof why, "bodies, shapes, contacts and events agree; the snapshots: %s",
                 busy_snapshot_difference(sa, na, sb, nb));
        free(sa);
        free(sb);
    }
    busy_scene_end(want);
    free(want);
    return why;
}
/* A world unlike the scene's in everything a snapshot carries, with bodies of its own. */
rc_world *busy_other_world(busy_shifted *sh, uint32_t salt) {
    rc_world_def wd = rc_world_default_def();
    wd.allocator = busy_shifted_allocator(sh);
    wd.id_salt = salt;
    wd.gravity = rc_v2(1.0f, -3.0f);
    wd.cell_size = 7.0f;
    wd.sub_steps = 2;
    wd.contact_hertz = 20.0f;
    wd.sleep_time = 2.0f;
    wd.max_linear_speed = 500.0f;
    rc_world *w = rc_world_create(&wd);
    EXPECT(w != NULL, "rc_world_create");
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 3; ++i) {
        bd.position = rc_v2(0.0f, 2.5f * (float)i);
        EXPECT(!rc_shape_id_is_null(rc_shape_create_circle(w, rc_body_create(w, &bd), &sd, 1.0f)), "circle");
    }
    EXPECT(rc_world_step(w, BUSY_DT), "step");
    return w;
}
