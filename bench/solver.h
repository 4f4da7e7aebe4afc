/* bench/solver.h: the rigid-body scenes of bench_solver, built identically for every engine
 * through one small interface. Each engine (solver_ricochet.c, solver_box2d3.c,
 * solver_chipmunk.c) fills a solver_engine; solver_main.c builds the scenes through it, times
 * the steps and checks what came of them. Units are metres, kilograms and seconds; angles in
 * radians; densities 1. */
#ifndef RICOCHET_BENCH_SOLVER_H
#define RICOCHET_BENCH_SOLVER_H

#include <stdbool.h>
#include <stdlib.h>

/* Room for one more entry in a growable array of size-byte entries (doubling from 1024); the
 * array, moved if it had to. Exits when memory runs out: a bench has nothing else to do. */
static inline void *solver_room(void *data, int count, int *capacity, size_t size) {
    if (count < *capacity) {
        return data;
    }
    *capacity = *capacity ? 2 * *capacity : 1024;
    data = realloc(data, size * (size_t)*capacity);
    if (data == NULL) {
        exit(1);
    }
    return data;
}

/* A surface: the same numbers in every engine. Rolling resistance (the torque against a round
 * shape's rolling is at most rolling_resistance * radius * the normal force) is 0 unless
 * bench_solver is told otherwise: Box2D v3's default, and Chipmunk2D has none. */
typedef struct solver_material {
    float friction, restitution, rolling_resistance;
} solver_material;

typedef struct solver_engine {
    const char *name;    /* as the report prints it */
    const char *version; /* the library's version, as far as its headers say */
    void *(*create)(float gravity_y, int expected_bodies);
    void (*destroy)(void *world);
    /* static shapes: a box (centre, angle, half extents), and a one-sided terrain through
       count points from left to right whose solid side is below */
    void (*static_box)(void *world, float x, float y, float angle, float hw, float hh, solver_material m);
    void (*static_terrain)(void *world, const float *xy, int count, solver_material m);
    /* dynamic bodies; each returns its index (0, 1, 2, ... in the order made) */
    int (*dynamic_box)(void *world, float x, float y, float angle, float hw, float hh, solver_material m);
    int (*dynamic_circle)(void *world, float x, float y, float radius, solver_material m);
    int (*dynamic_capsule)(void *world, float x, float y, float angle, float half_length, float radius,
                           solver_material m);
    /* a kinematic hollow box centred at (x, y): four walls of thickness 2 * half_thick around
       a square of half size half_inner, turning at omega */
    void (*kinematic_frame)(void *world, float x, float y, float half_inner, float half_thick, float omega,
                            solver_material m);
    void (*step)(void *world, float dt);
    bool (*is_awake)(void *world, int body);
    void (*transform)(void *world, int body, float *x, float *y, float *angle);
    /* a hinge at the world point (x, y) between two dynamic bodies, or the ground (body_a -1)
       and a dynamic body; the hinged bodies do not collide with each other */
    void (*revolute)(void *world, int body_a, int body_b, float x, float y);
} solver_engine;

#ifdef BENCH_HAVE_RICOCHET
extern const solver_engine solver_ricochet;
#endif
#ifdef BENCH_HAVE_BOX2D3
extern const solver_engine solver_box2d3;
#endif
#ifdef BENCH_HAVE_CHIPMUNK
extern const solver_engine solver_chipmunk;
#endif

#endif
