/* Debug draw: the world described to a struct of callbacks (draw.h). Reads, never writes, and
 * allocates nothing: the counters line is formatted into a buffer on the stack. */
#include "world_internal.h"

#include <ricochet/draw.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

rc_debug_draw rc_default_debug_draw(void) {
    rc_debug_draw d;
    memset(&d, 0, sizeof d);
    d.flags = RC_DRAW_SHAPES;
    return d;
}

typedef struct draw_pass {
    const rc_world *world;
    const rc_debug_draw *draw;
    float normal_length;
    bool statics; /* this pass draws the static bodies' shapes (they go first, under the rest) */
} draw_pass;

/* Fills are the outline colour at half brightness, so that outlines stand out. */
static rc_color draw_dim(rc_color c) { return (c >> 1) & 0x7f7f7fu; }

static void draw_outline(const rc_debug_draw *d, const rc_vec2 *points, int32_t count, rc_color color) {
    if (d->draw_polygon != NULL) {
        d->draw_polygon(points, count, color, d->context);
    } else if (d->draw_segment != NULL) {
        for (int32_t i = 0, j = count - 1; i < count; j = i++) {
            d->draw_segment(points[j], points[i], color, d->context);
        }
    }
}

static void draw_box(const rc_debug_draw *d, rc_aabb box, rc_color color) {
    rc_vec2 corners[4] = {box.lower, {box.upper.x, box.lower.y}, box.upper, {box.lower.x, box.upper.y}};
    draw_outline(d, corners, 4, color);
}

static bool draw_overlaps(const rc_debug_draw *d, rc_aabb box) {
    return !d->use_bounds || rc_aabb_overlaps(d->bounds, box);
}

static bool draw_shows_point(const rc_debug_draw *d, rc_vec2 p) {
    rc_aabb at = {p, p};
    return draw_overlaps(d, at);
}

static rc_color draw_body_color(const rc_debug_draw *d, const rc_body *b) {
    switch ((rc_body_type)b->type) {
    case RC_STATIC:
        return RC_COLOR_STATIC;
    case RC_KINEMATIC:
        return RC_COLOR_KINEMATIC;
    default:
        if (b->bullet || b->motion == RC_MOTION_SWEPT_POINT) {
            return RC_COLOR_BULLET;
        }
        return (d->flags & RC_DRAW_SLEEP) && !b->awake ? RC_COLOR_SLEEPING : RC_COLOR_DYNAMIC;
    }
}

/* A capsule's outline as a convex polygon, counter-clockwise: a half circle of eight points
 * round each end. */
#define CAPSULE_POINTS 16
static void capsule_outline(rc_capsule c, rc_vec2 out[CAPSULE_POINTS]) {
    rc_vec2 axis = rc_normalize(rc_sub(c.center2, c.center1));
    rc_vec2 side = rc_left_perp(axis);
    const int half = CAPSULE_POINTS / 2;
    for (int i = 0; i < half; ++i) {
        float a = RC_PI * (float)i / (float)(half - 1); /* 0 .. pi */
        float ca = cosf(a), sa = sinf(a);
        /* round center2's end from -side through +axis to +side, then center1's back round */
        rc_vec2 d2 = rc_add(rc_scale(-ca, side), rc_scale(sa, axis));
        out[i] = rc_mul_add(c.center2, c.radius, d2);
        out[half + i] = rc_mul_add(c.center1, -c.radius, d2);
    }
}

static void draw_capsule(const rc_debug_draw *d, rc_capsule c, rc_color color, bool solid) {
    if (solid && d->draw_solid_capsule != NULL) {
        d->draw_solid_capsule(c.center1, c.center2, c.radius, draw_dim(color), d->context);
    }
    if (d->draw_capsule != NULL) {
        d->draw_capsule(c.center1, c.center2, c.radius, color, d->context);
    }
    if ((solid && d->draw_solid_capsule == NULL && d->draw_solid_polygon != NULL) || d->draw_capsule == NULL) {
        rc_vec2 outline[CAPSULE_POINTS];
        capsule_outline(c, outline);
        if (solid && d->draw_solid_capsule == NULL && d->draw_solid_polygon != NULL) {
            d->draw_solid_polygon(outline, CAPSULE_POINTS, draw_dim(color), d->context);
        }
        if (d->draw_capsule == NULL) {
            draw_outline(d, outline, CAPSULE_POINTS, color);
        }
    }
}

static void draw_shape(const draw_pass *pass, const rc_shape *s) {
    const rc_debug_draw *d = pass->draw;
    const rc_body *b = &pass->world->bodies.data[s->body];
    rc_color color = s->sensor ? RC_COLOR_SENSOR : draw_body_color(d, b);
    rc_shape_view v = rc_shape_view_of(pass->world, s);
    switch (v.kind) {
    case RC_SHAPE_CIRCLE:
        if (d->draw_solid_circle != NULL && !s->sensor) {
            rc_vec2 axis = {b->xf.q.c, b->xf.q.s};
            d->draw_solid_circle(v.u.circle.center, v.u.circle.radius, axis, draw_dim(color), d->context);
        }
        if (d->draw_circle != NULL) {
            d->draw_circle(v.u.circle.center, v.u.circle.radius, color, d->context);
        }
        break;
    case RC_SHAPE_POLYGON:
        if (d->draw_solid_polygon != NULL && !s->sensor) {
            d->draw_solid_polygon(v.u.polygon.vertices, v.u.polygon.count, draw_dim(color), d->context);
        }
        draw_outline(d, v.u.polygon.vertices, v.u.polygon.count, color);
        break;
    case RC_SHAPE_CAPSULE:
        draw_capsule(d, v.u.capsule, color, !s->sensor);
        break;
    case RC_SHAPE_SEGMENT:
        if (d->draw_segment == NULL) {
            break;
        }
        d->draw_segment(v.u.segment.a, v.u.segment.b, color, d->context);
        if (s->one_sided) {
            /* a tick from the middle towards the free side (the left of a -> b) */
            rc_vec2 a = v.u.segment.a, e = rc_sub(v.u.segment.b, a);
            float len = rc_length(e);
            if (len > 0.0f) {
                rc_vec2 mid = rc_add(a, rc_scale(0.5f, e));
                float tick = rc_minf(0.5f * pass->normal_length, 0.25f * len);
                rc_vec2 left = {-e.y / len, e.x / len};
                d->draw_segment(mid, rc_add(mid, rc_scale(tick, left)), color, d->context);
            }
        }
        break;
    }
}

static bool draw_wants(const draw_pass *pass, const rc_shape *s) {
    const rc_body *b = &pass->world->bodies.data[s->body];
    return (b->type == RC_STATIC) == pass->statics;
}

static void draw_shape_layers(const draw_pass *pass, const rc_shape *s) {
    const rc_debug_draw *d = pass->draw;
    if (d->flags & RC_DRAW_SHAPES) {
        draw_shape(pass, s);
    }
    if (d->flags & RC_DRAW_AABBS) {
        draw_box(d, s->aabb, RC_COLOR_AABB);
    }
}

static bool draw_found_shape(int32_t proxy, int32_t user, void *context) {
    (void)proxy;
    const draw_pass *pass = context;
    const rc_shape *s = &pass->world->shapes.data[user];
    if (draw_wants(pass, s) && rc_aabb_overlaps(pass->draw->bounds, s->aabb)) {
        draw_shape_layers(pass, s);
    }
    return true;
}

static void draw_shapes(draw_pass *pass) {
    const rc_world *world = pass->world;
    for (int k = 0; k < 2; ++k) {
        pass->statics = k == 0;
        if (pass->draw->use_bounds) {
            rc_world_query_grids(world, pass->draw->bounds, false, draw_found_shape, pass);
            continue;
        }
        for (int32_t i = 0; i < world->shapes.count; ++i) {
            const rc_shape *s = &world->shapes.data[i];
            if (s->in_use && s->kind != RC_KIND_CHAIN && draw_wants(pass, s)) {
                draw_shape_layers(pass, s);
            }
        }
    }
    /* swept points have no shape: a dot where they are */
    const rc_debug_draw *d = pass->draw;
    if ((d->flags & RC_DRAW_SHAPES) && d->draw_point != NULL) {
        for (int32_t i = 0; i < world->bodies.count; ++i) {
            const rc_body *b = &world->bodies.data[i];
            if (b->in_use && b->first_shape < 0 && b->type != RC_STATIC) {
                if (draw_shows_point(d, b->xf.p)) {
                    d->draw_point(b->xf.p, 4.0f, draw_body_color(d, b), d->context);
                }
            }
        }
    }
}

static void draw_cell(int32_t level, rc_aabb cell, int32_t count, void *context) {
    (void)level;
    (void)count;
    const rc_debug_draw *d = context;
    /* (not the top level's one cell, which has no edges to draw: rc_grid_for_each_cell reports it
       as the box of +-FLT_MAX) */
    bool unbounded = cell.lower.x == -FLT_MAX && cell.upper.x == FLT_MAX;
    if (!unbounded && draw_overlaps(d, cell)) {
        draw_box(d, cell, RC_COLOR_GRID);
    }
}

static void draw_transforms(const rc_world *world, const rc_debug_draw *d) {
    if (d->draw_transform == NULL) {
        return;
    }
    for (int32_t i = 0; i < world->bodies.count; ++i) {
        const rc_body *b = &world->bodies.data[i];
        if (b->in_use && b->type != RC_STATIC && draw_shows_point(d, b->xf.p)) {
            d->draw_transform(b->xf, d->context);
        }
    }
}

static void draw_marker(const rc_debug_draw *d, rc_vec2 p, rc_vec2 normal, float length, float size,
                        rc_color color) {
    if (!draw_shows_point(d, p)) {
        return;
    }
    if (d->draw_segment != NULL) {
        d->draw_segment(p, rc_add(p, rc_scale(length, normal)), RC_COLOR_NORMAL, d->context);
    }
    if (d->draw_point != NULL) {
        d->draw_point(p, size, color, d->context);
    }
}

static void draw_contacts(const rc_world *world, const rc_debug_draw *d, float length) {
    for (int32_t i = 0; i < world->contacts.count; ++i) {
        const rc_contact *c = &world->contacts.data[i];
        if (!c->in_use || !c->touching || c->sensor) {
            continue;
        }
        for (int k = 0; k < c->manifold.point_count; ++k) {
            draw_marker(d, c->manifold.points[k], c->manifold.normal, length, 5.0f, RC_COLOR_CONTACT);
        }
    }
}

static void draw_impacts(const rc_world *world, const rc_debug_draw *d, float length) {
    const rc_impact_event *events = NULL;
    int count = rc_world_impact_events(world, &events);
    for (int i = 0; i < count; ++i) {
        draw_marker(d, events[i].point, events[i].normal, length, 6.0f, RC_COLOR_IMPACT);
    }
}

static void draw_joint_line(const rc_debug_draw *d, rc_vec2 a, rc_vec2 b) {
    if (d->draw_segment != NULL && (draw_shows_point(d, a) || draw_shows_point(d, b))) {
        d->draw_segment(a, b, RC_COLOR_JOINT, d->context);
    }
}

static void draw_joints(const rc_world *world, const rc_debug_draw *d) {
    for (int32_t i = 0; i < world->joints.count; ++i) {
        const rc_joint *j = &world->joints.data[i];
        if (!j->in_use) {
            continue;
        }
        /* a static body's centre is no part of the picture (a level's origin is far away) */
        const rc_body *b = &world->bodies.data[j->edge[1].body];
        rc_vec2 anchor_b = rc_transform_point(b->xf, j->local_anchor[1]);
        rc_vec2 anchor_a = j->target;
        if (j->edge[0].body >= 0) {
            const rc_body *a = &world->bodies.data[j->edge[0].body];
            anchor_a = rc_transform_point(a->xf, j->local_anchor[0]);
            if (a->type != RC_STATIC) {
                draw_joint_line(d, a->center, anchor_a);
            }
        }
        draw_joint_line(d, anchor_a, anchor_b);
        if (b->type != RC_STATIC) {
            draw_joint_line(d, anchor_b, b->center);
        }
        for (int k = 0; k < 2; ++k) {
            rc_vec2 p = k == 0 ? anchor_a : anchor_b;
            if (d->draw_point != NULL && draw_shows_point(d, p)) {
                d->draw_point(p, 4.0f, RC_COLOR_JOINT, d->context);
            }
        }
    }
}

static void draw_stats(const rc_world *world, const rc_debug_draw *d) {
    if (d->draw_text == NULL) {
        return;
    }
    rc_world_counters c = rc_world_get_counters(world);
    const rc_impact_event *events = NULL;
    int impacts = rc_world_impact_events(world, &events);
    char line[192];
    (void)snprintf(line, sizeof line,
                   "bodies %d  awake %d  shapes %d  contacts %d  joints %d  impacts %d  proxies %d  cells %d",
                   (int)c.bodies, (int)c.awake_bodies, (int)c.shapes, (int)c.touching_contacts, (int)c.joints, impacts,
                   (int)c.broadphase_proxies, (int)c.broadphase_cells);
    rc_vec2 at = d->use_bounds ? rc_v2(d->bounds.lower.x, d->bounds.upper.y) : rc_v2(0.0f, 0.0f);
    d->draw_text(at, line, RC_COLOR_TEXT, d->context);
}

static void draw_layers(draw_pass *pass) {
    const rc_world *world = pass->world;
    const rc_debug_draw *draw = pass->draw;
    if (draw->flags & RC_DRAW_GRID) {
        rc_grid_for_each_cell(world->level_grid, draw_cell, (void *)draw);
        rc_grid_for_each_cell(world->grid, draw_cell, (void *)draw);
    }
    if (draw->flags & (RC_DRAW_SHAPES | RC_DRAW_AABBS)) {
        draw_shapes(pass);
    }
    if (draw->flags & RC_DRAW_TRANSFORMS) {
        draw_transforms(world, draw);
    }
    if (draw->flags & RC_DRAW_JOINTS) {
        draw_joints(world, draw);
    }
    if (draw->flags & RC_DRAW_CONTACTS) {
        draw_contacts(world, draw, pass->normal_length);
    }
    if (draw->flags & RC_DRAW_IMPACTS) {
        draw_impacts(world, draw, pass->normal_length);
    }
    if (draw->flags & RC_DRAW_STATS) {
        draw_stats(world, draw);
    }
}

bool rc_world_draw(const rc_world *world, const rc_debug_draw *draw) {
    if (world == NULL) {
        return false;
    }
    if (draw == NULL) {
        return rc_fail(world, __func__, "draw is NULL");
    }
    if ((draw->flags & ~(uint32_t)RC_DRAW_ALL) != 0) {
        return rc_fail(world, __func__, "unknown flags 0x%x", (unsigned)(draw->flags & ~(uint32_t)RC_DRAW_ALL));
    }
    if (!rc_is_finite(draw->normal_length) || draw->normal_length < 0.0f) {
        return rc_fail(world, __func__, "normal_length %g is not finite and >= 0", (double)draw->normal_length);
    }
    if (draw->use_bounds && !rc_aabb_is_valid(draw->bounds)) {
        return rc_fail(world, __func__, "the bounds are not finite or have lower > upper");
    }
    draw_pass pass = {world, draw, draw->normal_length, true};
    if (pass.normal_length == 0.0f) {
        pass.normal_length = 0.5f * rc_world_cell_size(world);
    }
    /* the callbacks may query the world; anything they try to change is refused */
    rc_world_lock(world);
    draw_layers(&pass);
    rc_world_unlock(world);
    return true;
}
