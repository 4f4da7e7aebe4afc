/* bench/solver_box2d3.c: the bench_solver scenes in Box2D v3 (its C API, found installed: see
 * bench/README.md), single-threaded, with its defaults: 4 sub-steps per step, sleeping after
 * 0.5 s, continuous collision on. No Box2D code is in this repository. */
#include "solver.h"

#include <box2d/box2d.h>

#include <stdio.h>
#include <stdlib.h>

typedef struct b2_bench_world {
    b2WorldId world;
    b2BodyId *bodies;
    int count, capacity;
    b2BodyId ground; /* made with the first joint to the ground */
    bool has_ground;
} b2_bench_world;

static void *create(float gravity_y, int expected_bodies) {
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = (b2Vec2){0.0f, gravity_y};
    def.workerCount = 1;
    b2_bench_world *w = calloc(1, sizeof *w);
    if (w == NULL) {
        exit(1);
    }
    w->world = b2CreateWorld(&def);
    (void)expected_bodies;
    return w;
}

static void destroy(void *world) {
    b2_bench_world *w = world;
    b2DestroyWorld(w->world);
    free(w->bodies);
    free(w);
}

static b2ShapeDef shape_def(solver_material m) {
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.density = 1.0f;
    sd.material.friction = m.friction;
    sd.material.restitution = m.restitution;
    sd.material.rollingResistance = m.rolling_resistance;
    return sd;
}

static b2BodyId make_body(b2_bench_world *w, b2BodyType type, float x, float y, float angle) {
    b2BodyDef bd = b2DefaultBodyDef();
    bd.type = type;
    bd.position = (b2Vec2){x, y};
    bd.rotation = b2MakeRot(angle);
    return b2CreateBody(w->world, &bd);
}

static int keep(b2_bench_world *w, b2BodyId b) {
    w->bodies = solver_room(w->bodies, w->count, &w->capacity, sizeof *w->bodies);
    w->bodies[w->count] = b;
    return w->count++;
}

static void static_box(void *world, float x, float y, float angle, float hw, float hh, solver_material m) {
    b2_bench_world *w = world;
    b2BodyId b = make_body(w, b2_staticBody, x, y, angle);
    b2ShapeDef sd = shape_def(m);
    b2Polygon box = b2MakeBox(hw, hh);
    b2CreatePolygonShape(b, &sd, &box);
}

static void static_terrain(void *world, const float *xy, int count, solver_material m) {
    b2_bench_world *w = world;
    b2BodyId b = make_body(w, b2_staticBody, 0.0f, 0.0f, 0.0f);
    /* a one-sided chain, solid on the right of its direction: right to left keeps the solid
       side below. Box2D's open chains use their first and last points as ghosts: the ends are
       extended by one point each so that the whole outline is solid. */
    b2Vec2 *points = malloc(sizeof *points * (size_t)(count + 2));
    if (points == NULL) {
        exit(1);
    }
    for (int i = 0; i < count; ++i) {
        points[i + 1] = (b2Vec2){xy[2 * (count - 1 - i)], xy[2 * (count - 1 - i) + 1]};
    }
    points[0] = (b2Vec2){points[1].x + 1.0f, points[1].y};
    points[count + 1] = (b2Vec2){points[count].x - 1.0f, points[count].y};
    b2SurfaceMaterial material = b2DefaultSurfaceMaterial();
    material.friction = m.friction;
    material.restitution = m.restitution;
    material.rollingResistance = m.rolling_resistance;
    b2ChainDef cd = b2DefaultChainDef();
    cd.points = points;
    cd.count = count + 2;
    cd.materials = &material;
    cd.materialCount = 1;
    cd.isLoop = false;
    b2CreateChain(b, &cd);
    free(points);
}

static int dynamic_box(void *world, float x, float y, float angle, float hw, float hh, solver_material m) {
    b2_bench_world *w = world;
    b2BodyId b = make_body(w, b2_dynamicBody, x, y, angle);
    b2ShapeDef sd = shape_def(m);
    b2Polygon box = b2MakeBox(hw, hh);
    b2CreatePolygonShape(b, &sd, &box);
    return keep(w, b);
}

static int dynamic_circle(void *world, float x, float y, float radius, solver_material m) {
    b2_bench_world *w = world;
    b2BodyId b = make_body(w, b2_dynamicBody, x, y, 0.0f);
    b2ShapeDef sd = shape_def(m);
    b2Circle circle = {{0.0f, 0.0f}, radius};
    b2CreateCircleShape(b, &sd, &circle);
    return keep(w, b);
}

static int dynamic_capsule(void *world, float x, float y, float angle, float half_length, float radius,
                           solver_material m) {
    b2_bench_world *w = world;
    b2BodyId b = make_body(w, b2_dynamicBody, x, y, angle);
    b2ShapeDef sd = shape_def(m);
    b2Capsule capsule = {{-half_length, 0.0f}, {half_length, 0.0f}, radius};
    b2CreateCapsuleShape(b, &sd, &capsule);
    return keep(w, b);
}

static void kinematic_frame(void *world, float x, float y, float half_inner, float half_thick, float omega,
                            solver_material m) {
    b2_bench_world *w = world;
    b2BodyDef bd = b2DefaultBodyDef();
    bd.type = b2_kinematicBody;
    bd.position = (b2Vec2){x, y};
    bd.angularVelocity = omega;
    b2BodyId b = b2CreateBody(w->world, &bd);
    b2ShapeDef sd = shape_def(m);
    float reach = half_inner + half_thick, length = half_inner + 2.0f * half_thick;
    const b2Vec2 offsets[4] = {{0, -reach}, {0, reach}, {-reach, 0}, {reach, 0}};
    for (int i = 0; i < 4; ++i) {
        b2Polygon wall = i < 2 ? b2MakeOffsetBox(length, half_thick, offsets[i], b2Rot_identity)
                               : b2MakeOffsetBox(half_thick, length, offsets[i], b2Rot_identity);
        b2CreatePolygonShape(b, &sd, &wall);
    }
}

static void step(void *world, float dt) {
    b2_bench_world *w = world;
    b2World_Step(w->world, dt, 4);
}

static bool is_awake(void *world, int body) {
    b2_bench_world *w = world;
    return b2Body_IsAwake(w->bodies[body]);
}

static void transform(void *world, int body, float *x, float *y, float *angle) {
    b2_bench_world *w = world;
    b2Vec2 p = b2Body_GetPosition(w->bodies[body]);
    *x = p.x;
    *y = p.y;
    *angle = b2Rot_GetAngle(b2Body_GetRotation(w->bodies[body]));
}

static void revolute(void *world, int body_a, int body_b, float x, float y) {
    b2_bench_world *w = world;
    if (body_a < 0 && !w->has_ground) {
        w->ground = make_body(w, b2_staticBody, 0.0f, 0.0f, 0.0f);
        w->has_ground = true;
    }
    b2RevoluteJointDef jd = b2DefaultRevoluteJointDef();
    jd.bodyIdA = body_a >= 0 ? w->bodies[body_a] : w->ground;
    jd.bodyIdB = w->bodies[body_b];
    jd.localAnchorA = b2Body_GetLocalPoint(jd.bodyIdA, (b2Vec2){x, y});
    jd.localAnchorB = b2Body_GetLocalPoint(jd.bodyIdB, (b2Vec2){x, y});
    b2CreateRevoluteJoint(w->world, &jd);
}

const solver_engine solver_box2d3 = {"Box2D v3", BENCH_BOX2D3_VERSION, create, destroy, static_box, static_terrain,
                                     dynamic_box, dynamic_circle, dynamic_capsule, kinematic_frame, step,
                                     is_awake, transform, revolute};
