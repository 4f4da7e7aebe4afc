/* bench/solver_ricochet.c: the bench_solver scenes in ricochet, with its defaults (4 sub-steps,
 * sleep after 0.5 s). A dynamic circle is a grenade (a swept circle): the default for a body
 * whose one solid shape is a circle. RICOCHET_BENCH_WORKERS=N (2..64) lends each world the
 * samples' pthread task system of N workers (the table's engine name says so). */
#include "solver.h"

#include <ricochet/ricochet.h>

#include "task_system.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct rc_bench_world {
    rc_world *world;
    task_system *tasks; /* NULL: one thread */
    rc_body_id *bodies;
    int count, capacity;
    rc_body_id ground; /* made with the first joint to the ground */
} rc_bench_world;

static void *create(float gravity_y, int expected_bodies) {
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, gravity_y);
    def.body_capacity = expected_bodies + 16;
    def.shape_capacity = expected_bodies + 64;
    rc_bench_world *w = calloc(1, sizeof *w);
    const char *workers = getenv("RICOCHET_BENCH_WORKERS");
    int n = workers != NULL ? atoi(workers) : 1;
    if (w != NULL && n > 1 && (w->tasks = task_system_create(n)) != NULL) {
        task_system_install(w->tasks, &def);
    }
    if (w == NULL || (w->world = rc_world_create(&def)) == NULL) {
        fprintf(stderr, "bench_solver: ricochet: no world\n");
        exit(1);
    }
    return w;
}

static void destroy(void *world) {
    rc_bench_world *w = world;
    rc_world_destroy(w->world);
    task_system_destroy(w->tasks);
    free(w->bodies);
    free(w);
}

static rc_shape_def shape_def(solver_material m) {
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = m.friction;
    sd.restitution = m.restitution;
    sd.rolling_resistance = m.rolling_resistance;
    return sd;
}

static rc_body_id make_body(rc_bench_world *w, rc_body_type type, float x, float y, float angle) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = rc_v2(x, y);
    bd.angle = angle;
    rc_body_id b = rc_body_create(w->world, &bd);
    if (rc_body_id_is_null(b)) {
        fprintf(stderr, "bench_solver: ricochet: %s\n", rc_world_last_error(w->world));
        exit(1);
    }
    return b;
}

static void check(rc_bench_world *w, rc_shape_id s) {
    if (rc_shape_id_is_null(s)) {
        fprintf(stderr, "bench_solver: ricochet: %s\n", rc_world_last_error(w->world));
        exit(1);
    }
}

static int keep(rc_bench_world *w, rc_body_id b) {
    w->bodies = solver_room(w->bodies, w->count, &w->capacity, sizeof *w->bodies);
    w->bodies[w->count] = b;
    return w->count++;
}

static void static_box(void *world, float x, float y, float angle, float hw, float hh, solver_material m) {
    rc_bench_world *w = world;
    rc_body_id b = make_body(w, RC_STATIC, x, y, angle);
    rc_shape_def sd = shape_def(m);
    check(w, rc_shape_create_box(w->world, b, &sd, hw, hh));
}

static void static_terrain(void *world, const float *xy, int count, solver_material m) {
    rc_bench_world *w = world;
    rc_body_id b = make_body(w, RC_STATIC, 0.0f, 0.0f, 0.0f);
    rc_vec2 *points = malloc(sizeof *points * (size_t)count);
    if (points == NULL) {
        exit(1);
    }
    /* one-sided: the free side is on the left of each wall, so left to right keeps it above */
    for (int i = 0; i < count; ++i) {
        points[i] = rc_v2(xy[2 * i], xy[2 * i + 1]);
    }
    rc_shape_def sd = shape_def(m);
    sd.one_sided = true;
    check(w, rc_shape_create_chain(w->world, b, &sd, points, count, false));
    free(points);
}

static int dynamic_box(void *world, float x, float y, float angle, float hw, float hh, solver_material m) {
    rc_bench_world *w = world;
    rc_body_id b = make_body(w, RC_DYNAMIC, x, y, angle);
    rc_shape_def sd = shape_def(m);
    check(w, rc_shape_create_box(w->world, b, &sd, hw, hh));
    return keep(w, b);
}

static int dynamic_circle(void *world, float x, float y, float radius, solver_material m) {
    rc_bench_world *w = world;
    rc_body_id b = make_body(w, RC_DYNAMIC, x, y, 0.0f);
    rc_shape_def sd = shape_def(m);
    check(w, rc_shape_create_circle(w->world, b, &sd, radius));
    return keep(w, b);
}

static int dynamic_capsule(void *world, float x, float y, float angle, float half_length, float radius,
                           solver_material m) {
    rc_bench_world *w = world;
    rc_body_id b = make_body(w, RC_DYNAMIC, x, y, angle);
    rc_shape_def sd = shape_def(m);
    check(w, rc_shape_create_capsule(w->world, b, &sd, rc_v2(-half_length, 0.0f), rc_v2(half_length, 0.0f), radius));
    return keep(w, b);
}

static void kinematic_frame(void *world, float x, float y, float half_inner, float half_thick, float omega,
                            solver_material m) {
    rc_bench_world *w = world;
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_KINEMATIC;
    bd.position = rc_v2(x, y);
    bd.angular_velocity = omega;
    rc_body_id b = rc_body_create(w->world, &bd);
    rc_shape_def sd = shape_def(m);
    float reach = half_inner + half_thick, length = half_inner + 2.0f * half_thick;
    const rc_vec2 offsets[4] = {{0, -reach}, {0, reach}, {-reach, 0}, {reach, 0}};
    for (int i = 0; i < 4; ++i) {
        sd.offset = offsets[i];
        check(w, i < 2 ? rc_shape_create_box(w->world, b, &sd, length, half_thick)
                       : rc_shape_create_box(w->world, b, &sd, half_thick, length));
    }
}

static void step(void *world, float dt) {
    rc_bench_world *w = world;
    if (!rc_world_step(w->world, dt)) {
        fprintf(stderr, "bench_solver: ricochet: %s\n", rc_world_last_error(w->world));
        exit(1);
    }
}

static bool is_awake(void *world, int body) {
    rc_bench_world *w = world;
    return rc_body_is_awake(w->world, w->bodies[body]);
}

static void transform(void *world, int body, float *x, float *y, float *angle) {
    rc_bench_world *w = world;
    rc_vec2 p = rc_body_position(w->world, w->bodies[body]);
    *x = p.x;
    *y = p.y;
    *angle = rc_body_angle(w->world, w->bodies[body]);
}

static void revolute(void *world, int body_a, int body_b, float x, float y) {
    rc_bench_world *w = world;
    if (body_a < 0 && rc_body_id_is_null(w->ground)) {
        w->ground = make_body(w, RC_STATIC, 0.0f, 0.0f, 0.0f);
    }
    rc_revolute_joint_def jd = rc_revolute_joint_default_def();
    jd.body_a = body_a >= 0 ? w->bodies[body_a] : w->ground;
    jd.body_b = w->bodies[body_b];
    jd.local_anchor_a = rc_inv_transform_point(rc_body_transform(w->world, jd.body_a), rc_v2(x, y));
    jd.local_anchor_b = rc_inv_transform_point(rc_body_transform(w->world, jd.body_b), rc_v2(x, y));
    if (rc_joint_id_is_null(rc_joint_create_revolute(w->world, &jd))) {
        fprintf(stderr, "bench_solver: ricochet: %s\n", rc_world_last_error(w->world));
        exit(1);
    }
}

const solver_engine solver_ricochet = {"ricochet", "this tree", create, destroy, static_box, static_terrain,
                                       dynamic_box, dynamic_circle, dynamic_capsule, kinematic_frame, step,
                                       is_awake, transform, revolute};
