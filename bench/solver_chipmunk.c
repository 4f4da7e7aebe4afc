/* bench/solver_chipmunk.c: the bench_solver scenes in Chipmunk2D 7 (a Release build, or Debian's),
 * with its defaults (10 iterations, collision slop 0.1) and sleeping after 0.5 s, as the other
 * engines. */
#include "solver.h"

#include <chipmunk/chipmunk.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CP_STRINGIFY(x) #x
#define CP_VERSION_TEXT(a, b, c) CP_STRINGIFY(a) "." CP_STRINGIFY(b) "." CP_STRINGIFY(c)

typedef struct cp_bench_world {
    cpSpace *space;
    cpBody **bodies;
    int count, capacity;
    void **objects; /* every body and shape made */
    bool *is_shape;
    int object_count, object_capacity;
    cpConstraint **joints;
    int joint_count, joint_capacity;
} cp_bench_world;

static void *create(float gravity_y, int expected_bodies) {
    cp_bench_world *w = calloc(1, sizeof *w);
    if (w == NULL) {
        exit(1);
    }
    w->space = cpSpaceNew();
    cpSpaceSetGravity(w->space, cpv(0.0, (cpFloat)gravity_y));
    cpSpaceSetIterations(w->space, 10);
    cpSpaceSetSleepTimeThreshold(w->space, 0.5);
    (void)expected_bodies;
    return w;
}

/* Everything the space holds, to free after it: Chipmunk frees neither with the space. */
static void remember_object(cp_bench_world *w, void *object, bool shape) {
    int capacity = w->object_capacity;
    w->objects = solver_room(w->objects, w->object_count, &capacity, sizeof *w->objects);
    w->is_shape = solver_room(w->is_shape, w->object_count, &w->object_capacity, sizeof *w->is_shape);
    w->objects[w->object_count] = object;
    w->is_shape[w->object_count++] = shape;
}

static void destroy(void *world) {
    cp_bench_world *w = world;
    cpSpaceFree(w->space);
    for (int i = 0; i < w->joint_count; ++i) {
        cpConstraintFree(w->joints[i]);
    }
    free(w->joints);
    for (int i = 0; i < w->object_count; ++i) {
        if (w->is_shape[i]) {
            cpShapeFree(w->objects[i]);
        } else {
            cpBodyFree(w->objects[i]);
        }
    }
    free(w->objects);
    free(w->is_shape);
    free(w->bodies);
    free(w);
}

static void add_shape(cp_bench_world *w, cpShape *s, solver_material m) {
    cpShapeSetFriction(s, (cpFloat)m.friction);
    cpShapeSetElasticity(s, (cpFloat)m.restitution);
    cpSpaceAddShape(w->space, s);
    remember_object(w, s, true);
}

static int keep(cp_bench_world *w, cpBody *b) {
    w->bodies = solver_room(w->bodies, w->count, &w->capacity, sizeof *w->bodies);
    w->bodies[w->count] = b;
    return w->count++;
}

static void static_box(void *world, float x, float y, float angle, float hw, float hh, solver_material m) {
    cp_bench_world *w = world;
    cpVect v[4] = {{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}};
    cpShape *s = cpPolyShapeNew(cpSpaceGetStaticBody(w->space), 4, v, cpTransformRigid(cpv(x, y), angle), 0.0);
    add_shape(w, s, m);
}

static void static_terrain(void *world, const float *xy, int count, solver_material m) {
    cp_bench_world *w = world;
    cpBody *ground = cpSpaceGetStaticBody(w->space);
    for (int i = 0; i + 1 < count; ++i) {
        cpVect a = cpv(xy[2 * i], xy[2 * i + 1]), b = cpv(xy[2 * i + 2], xy[2 * i + 3]);
        cpShape *s = cpSegmentShapeNew(ground, a, b, 0.0);
        cpVect prev = i > 0 ? cpv(xy[2 * i - 2], xy[2 * i - 1]) : a;
        cpVect next = i + 2 < count ? cpv(xy[2 * i + 4], xy[2 * i + 5]) : b;
        cpSegmentShapeSetNeighbors(s, prev, next);
        add_shape(w, s, m);
    }
}

static cpBody *dynamic_body(cp_bench_world *w, cpFloat mass, cpFloat moment, float x, float y, float angle) {
    cpBody *b = cpSpaceAddBody(w->space, cpBodyNew(mass, moment));
    remember_object(w, b, false);
    cpBodySetPosition(b, cpv(x, y));
    cpBodySetAngle(b, angle);
    return b;
}

static int dynamic_box(void *world, float x, float y, float angle, float hw, float hh, solver_material m) {
    cp_bench_world *w = world;
    cpFloat mass = 4.0 * hw * hh;
    cpBody *b = dynamic_body(w, mass, cpMomentForBox(mass, 2.0 * hw, 2.0 * hh), x, y, angle);
    add_shape(w, cpBoxShapeNew(b, 2.0 * hw, 2.0 * hh, 0.0), m);
    return keep(w, b);
}

static int dynamic_circle(void *world, float x, float y, float radius, solver_material m) {
    cp_bench_world *w = world;
    cpFloat mass = CP_PI * radius * radius;
    cpBody *b = dynamic_body(w, mass, cpMomentForCircle(mass, 0.0, radius, cpvzero), x, y, 0.0f);
    add_shape(w, cpCircleShapeNew(b, radius, cpvzero), m);
    return keep(w, b);
}

static int dynamic_capsule(void *world, float x, float y, float angle, float half_length, float radius,
                           solver_material m) {
    cp_bench_world *w = world;
    cpFloat mass = CP_PI * radius * radius + 4.0 * half_length * radius;
    cpVect a = cpv(-half_length, 0.0), c = cpv(half_length, 0.0);
    cpBody *b = dynamic_body(w, mass, cpMomentForSegment(mass, a, c, radius), x, y, angle);
    add_shape(w, cpSegmentShapeNew(b, a, c, radius), m);
    return keep(w, b);
}

static void kinematic_frame(void *world, float x, float y, float half_inner, float half_thick, float omega,
                            solver_material m) {
    cp_bench_world *w = world;
    cpBody *b = cpSpaceAddBody(w->space, cpBodyNewKinematic());
    remember_object(w, b, false);
    cpBodySetPosition(b, cpv(x, y));
    cpBodySetAngularVelocity(b, omega);
    cpFloat reach = half_inner + half_thick, length = half_inner + 2.0f * half_thick;
    const cpVect offsets[4] = {{0, -reach}, {0, reach}, {-reach, 0}, {reach, 0}};
    for (int i = 0; i < 4; ++i) {
        cpFloat hx = i < 2 ? length : half_thick, hy = i < 2 ? half_thick : length;
        cpBB box = cpBBNew(offsets[i].x - hx, offsets[i].y - hy, offsets[i].x + hx, offsets[i].y + hy);
        add_shape(w, cpBoxShapeNew2(b, box, 0.0), m);
    }
}

static void step(void *world, float dt) {
    cp_bench_world *w = world;
    cpSpaceStep(w->space, dt);
}

static bool is_awake(void *world, int body) {
    cp_bench_world *w = world;
    return !cpBodyIsSleeping(w->bodies[body]);
}

static void transform(void *world, int body, float *x, float *y, float *angle) {
    cp_bench_world *w = world;
    cpVect p = cpBodyGetPosition(w->bodies[body]);
    *x = (float)p.x;
    *y = (float)p.y;
    *angle = (float)cpBodyGetAngle(w->bodies[body]);
}

static void revolute(void *world, int body_a, int body_b, float x, float y) {
    cp_bench_world *w = world;
    cpBody *a = body_a >= 0 ? w->bodies[body_a] : cpSpaceGetStaticBody(w->space);
    cpConstraint *c = cpPivotJointNew(a, w->bodies[body_b], cpv((cpFloat)x, (cpFloat)y));
    cpSpaceAddConstraint(w->space, c);
    w->joints = solver_room(w->joints, w->joint_count, &w->joint_capacity, sizeof *w->joints);
    w->joints[w->joint_count++] = c;
}

#ifndef BENCH_CHIPMUNK_BUILD
#define BENCH_CHIPMUNK_BUILD "build unknown"
#endif

const solver_engine solver_chipmunk = {"Chipmunk2D",
                                       CP_VERSION_TEXT(CP_VERSION_MAJOR, CP_VERSION_MINOR, CP_VERSION_RELEASE)
                                           " (" BENCH_CHIPMUNK_BUILD ")",
                                       create,
                                       destroy,
                                       static_box,
                                       static_terrain,
                                       dynamic_box,
                                       dynamic_circle,
                                       dynamic_capsule,
                                       kinematic_frame,
                                       step,
                                       is_awake,
                                       transform,
                                       revolute};
