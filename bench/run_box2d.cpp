// bench/run_box2d.cpp: the Box2D 2.4 runner (dynamic AABB tree).
//
// Ray scenes: one static body at the origin carrying every shape as a fixture (shapes given in
// world coordinates), rays through b2World::RayCast with the closest-hit callback of the
// Box2D manual (ReportFixture returns the fraction, so the tree clips the ray as it goes).
// Box2D's fixture ray casts ignore a shape that contains the ray's origin.
//
// Moving scenes: one dynamic body per shape with a sensor fixture (density 1), no gravity,
// b2World::Step(dt, 8, 3) (the iteration counts the manual recommends); sleeping and
// continuous collision keep their defaults.
//
// Bullet scenes: the static shapes as in the ray scenes (restitution 1, friction 0), one untimed
// Step, then one dynamic body per bullet with SetBullet(true) and a circle fixture of radius 0.01
// (density 1, restitution 1, friction 0, group index -1 so that bullets never collide with each
// other), gravity off; Step(dt, 8, 3) (bullets are Box2D's continuous-collision path). A contact
// listener counts the contacts that begin touching (the bounce count). Box2D clamps a body's
// translation per step to b2_maxTranslation (2 units at b2_lengthUnitsPerMeter 1), scaling the
// velocity down: the runner's description and note say what that does to these bullets.
#include "bench.h"

#include <box2d/box2d.h>

#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

namespace {

class BeginCounter final : public b2ContactListener {
  public:
    int64_t begun = 0;
    void BeginContact(b2Contact *) override { ++begun; }
};

struct Box2DContext {
    b2World *world = nullptr;
    std::vector<b2Body *> bodies; // moving scenes, by shape index; bullet scenes, by bullet
    BeginCounter counter;         // bullet scenes
    int64_t counted = 0;          // contacts begun up to the previous step
};

void make_shape(const bench_shape &s, bool world_coords, b2CircleShape &circle, b2PolygonShape &polygon,
                b2FixtureDef &fd) {
    if (!s.is_polygon) {
        circle.m_radius = s.radius;
        if (world_coords) {
            circle.m_p.Set(s.x, s.y);
        } else {
            circle.m_p.SetZero();
        }
        fd.shape = &circle;
        return;
    }
    b2Vec2 v[BENCH_MAX_VERTS];
    for (int k = 0; k < s.count; ++k) {
        if (world_coords) {
            v[k].Set(s.world[k][0], s.world[k][1]);
        } else {
            v[k].Set(s.local[k][0], s.local[k][1]);
        }
    }
    polygon.Set(v, s.count);
    fd.shape = &polygon;
}

Box2DContext *new_static(const bench_scene *scene, bool bouncy, char *desc, size_t desc_size) {
    Box2DContext *c = new (std::nothrow) Box2DContext;
    if (!c) {
        std::snprintf(desc, desc_size, "out of memory");
        return nullptr;
    }
    c->world = new b2World(b2Vec2(0.0f, 0.0f));
    b2BodyDef bd; // static, at the origin
    b2Body *ground = c->world->CreateBody(&bd);
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        b2CircleShape circle;
        b2PolygonShape polygon;
        b2FixtureDef fd;
        make_shape(s, true, circle, polygon, fd);
        fd.userData.pointer = static_cast<uintptr_t>(s.index);
        if (bouncy) {
            fd.restitution = 1.0f;
            fd.friction = 0.0f;
        }
        ground->CreateFixture(&fd);
    }
    return c;
}

void *build_static(const bench_scene *scene, const bench_config *, char *desc, size_t desc_size) {
    Box2DContext *c = new_static(scene, false, desc, desc_size);
    if (!c) {
        return nullptr;
    }
    std::snprintf(desc, desc_size, "one static body, %d fixtures; b2World::RayCast with a closest-hit callback",
                  scene->shape_count);
    return c;
}

class ClosestHit final : public b2RayCastCallback {
  public:
    b2Fixture *fixture = nullptr;
    float fraction = 1.0f;
    float ReportFixture(b2Fixture *f, const b2Vec2 &, const b2Vec2 &, float frac) override {
        fixture = f;
        fraction = frac;
        return frac;
    }
};

void cast(void *ctx, const bench_ray *rays, int32_t count, bench_answer *out, uint64_t *handles) {
    const b2World *world = static_cast<Box2DContext *>(ctx)->world;
    for (int32_t i = 0; i < count; ++i) {
        ClosestHit cb;
        const b2Vec2 p1(rays[i].ox, rays[i].oy);
        const b2Vec2 p2(rays[i].ox + rays[i].dx, rays[i].oy + rays[i].dy);
        world->RayCast(&cb, p1, p2);
        out[i].hit = cb.fixture != nullptr;
        out[i].t = cb.fixture ? cb.fraction : 1.0f;
        out[i].inside = 0;
        handles[i] = reinterpret_cast<uintptr_t>(cb.fixture);
    }
}

void resolve(void *, bench_answer *out, const uint64_t *handles, int32_t count) {
    for (int32_t i = 0; i < count; ++i) {
        b2Fixture *f = reinterpret_cast<b2Fixture *>(static_cast<uintptr_t>(handles[i]));
        out[i].shape = out[i].hit ? static_cast<int32_t>(f->GetUserData().pointer) : -1;
    }
}

void *build_moving(const bench_scene *scene, const bench_config *, char *desc, size_t desc_size) {
    Box2DContext *c = new (std::nothrow) Box2DContext;
    if (!c) {
        std::snprintf(desc, desc_size, "out of memory");
        return nullptr;
    }
    c->world = new b2World(b2Vec2(0.0f, 0.0f));
    c->bodies.resize(static_cast<size_t>(scene->shape_count));
    bench_shape_gen gen;
    bench_shape s;
    bench_shapes_begin(&gen, scene);
    while (bench_shapes_next(&gen, &s)) {
        b2BodyDef bd;
        bd.type = b2_dynamicBody;
        bd.position.Set(s.x, s.y);
        bd.linearVelocity.Set(s.vx, s.vy);
        b2Body *body = c->world->CreateBody(&bd);
        b2CircleShape circle;
        b2PolygonShape polygon;
        b2FixtureDef fd;
        make_shape(s, false, circle, polygon, fd);
        fd.isSensor = true;
        fd.density = 1.0f;
        fd.userData.pointer = static_cast<uintptr_t>(s.index);
        body->CreateFixture(&fd);
        c->bodies[static_cast<size_t>(s.index)] = body;
    }
    std::snprintf(desc, desc_size, "dynamic bodies with sensor fixtures; Step(dt, 8 velocity, 3 position iterations)");
    return c;
}

bool step(void *ctx, float dt) {
    static_cast<Box2DContext *>(ctx)->world->Step(dt, 8, 3);
    return true;
}

int64_t count_step(void *ctx, float dt, char *note, size_t note_size) {
    b2World *world = static_cast<Box2DContext *>(ctx)->world;
    world->Step(dt, 8, 3);
    int64_t touching = 0;
    for (b2Contact *c = world->GetContactList(); c; c = c->GetNext()) {
        touching += c->IsTouching() ? 1 : 0;
    }
    std::snprintf(note, note_size, "touching contacts after one extra step (%d contacts in all)",
                  world->GetContactCount());
    return touching;
}

bool position(void *ctx, int32_t i, double *x, double *y) {
    Box2DContext *c = static_cast<Box2DContext *>(ctx);
    if (i < 0 || static_cast<size_t>(i) >= c->bodies.size()) {
        return false;
    }
    const b2Vec2 p = c->bodies[static_cast<size_t>(i)]->GetPosition();
    *x = p.x;
    *y = p.y;
    return true;
}

void *build_bullets(const bench_scene *scene, const bench_config *, const bench_bullet *bullets, char *desc,
                    size_t desc_size) {
    Box2DContext *c = new_static(scene, true, desc, desc_size);
    if (!c) {
        return nullptr;
    }
    // the untimed step of the static scenes, with the shapes alone
    c->world->Step(static_cast<float>(scene->dt), 8, 3);
    c->world->SetContactListener(&c->counter);
    c->bodies.resize(static_cast<size_t>(scene->bullets));
    for (int32_t i = 0; i < scene->bullets; ++i) {
        b2BodyDef bd;
        bd.type = b2_dynamicBody;
        bd.position.Set(bullets[i].x, bullets[i].y);
        bd.linearVelocity.Set(bullets[i].vx, bullets[i].vy);
        bd.bullet = true;
        bd.gravityScale = 0.0f;
        b2Body *body = c->world->CreateBody(&bd);
        b2CircleShape circle;
        circle.m_radius = 0.01f;
        b2FixtureDef fd;
        fd.shape = &circle;
        fd.density = 1.0f;
        fd.restitution = 1.0f;
        fd.friction = 0.0f;
        fd.filter.groupIndex = -1;
        body->CreateFixture(&fd);
        c->bodies[static_cast<size_t>(i)] = body;
    }
    const float dt = static_cast<float>(scene->dt);
    std::snprintf(desc, desc_size,
                  "one static body, %d fixtures (restitution 1, friction 0), one untimed Step; %d dynamic bodies with "
                  "SetBullet(true) and a circle fixture of radius 0.01 (density 1, restitution 1, friction 0, group "
                  "index -1: bullets never collide with each other), gravity off; Step(dt, 8 velocity, 3 position "
                  "iterations); a contact listener counts contacts that begin. NOTE: Box2D limits a body's "
                  "translation per step to b2_maxTranslation = %g units, so at dt = %.4g s no body moves faster "
                  "than %.0f units/s: its bullets are slowed from %.0f units/s on their first step",
                  scene->shape_count, scene->bullets, static_cast<double>(b2_maxTranslation), static_cast<double>(dt),
                  static_cast<double>(b2_maxTranslation / dt), scene->bullet_speed);
    return c;
}

int64_t bullet_bounces(void *ctx) {
    Box2DContext *c = static_cast<Box2DContext *>(ctx);
    int64_t n = c->counter.begun - c->counted;
    c->counted = c->counter.begun;
    return n;
}

bool bullet_velocity(void *ctx, int32_t i, double *vx, double *vy) {
    Box2DContext *c = static_cast<Box2DContext *>(ctx);
    if (i < 0 || static_cast<size_t>(i) >= c->bodies.size()) {
        return false;
    }
    const b2Vec2 v = c->bodies[static_cast<size_t>(i)]->GetLinearVelocity();
    *vx = v.x;
    *vy = v.y;
    return true;
}

void bullet_note(void *ctx, char *note, size_t note_size) {
    Box2DContext *c = static_cast<Box2DContext *>(ctx);
    int awake = 0;
    for (b2Body *b : c->bodies) {
        awake += b->IsAwake() ? 1 : 0;
    }
    std::snprintf(note, note_size,
                  "bounces = contacts that began touching (b2ContactListener::BeginContact), %lld in all; %d of %d "
                  "bullets awake at the end; %d contacts in the world",
                  static_cast<long long>(c->counter.begun), awake, static_cast<int>(c->bodies.size()),
                  c->world->GetContactCount());
}

void destroy(void *ctx) {
    Box2DContext *c = static_cast<Box2DContext *>(ctx);
    if (c) {
        delete c->world;
        delete c;
    }
}

const char *version() {
    static char text[96];
#ifdef BENCH_BOX2D_VERSION
    // Box2D 2.4.1's b2_version still says 2.4.0: give the package's version, and the variable's.
    std::snprintf(text, sizeof text, "%s (b2_version %d.%d.%d)", BENCH_BOX2D_VERSION, b2_version.major,
                  b2_version.minor, b2_version.revision);
#else
    std::snprintf(text, sizeof text, "%d.%d.%d", b2_version.major, b2_version.minor, b2_version.revision);
#endif
    return text;
}

} // namespace

extern "C" const bench_runner bench_runner_box2d = {
    "box2d", version, build_static, cast, resolve, build_moving, step, count_step, position, destroy,
    build_bullets, bullet_bounces, bullet_velocity, bullet_note,
};
