/* The samples' shared level (level.h). */
#include "level.h"

#include <stddef.h>

const rc_vec2 LEVEL_OUTLINE[] = {{0, 0},   {26, 0},  {26, 3},  {30, 3},  {30, 0},  {64, 0},  {64, 20},
                                 {56, 20}, {56, 34}, {20, 34}, {20, 28}, {12, 28}, {12, 34}, {0, 34}};
const int LEVEL_OUTLINE_COUNT = (int)(sizeof LEVEL_OUTLINE / sizeof LEVEL_OUTLINE[0]);

bool level_build(rc_world *w, rc_shape_id *outline_out) {
    rc_body_def body_def = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &body_def);
    rc_shape_def wall = rc_shape_default_def();
    wall.restitution = 0.45f;
    wall.friction = 0.6f;
    wall.one_sided = true;
    rc_shape_id outline = rc_shape_create_chain(w, level, &wall, LEVEL_OUTLINE, LEVEL_OUTLINE_COUNT, true);
    if (outline_out != NULL) {
        *outline_out = outline;
    }
    wall.one_sided = false;
    const rc_vec2 lower_wall[2] = {{34, 0}, {34, 10}}, upper_wall[2] = {{34, 16}, {34, 26}};
    const rc_vec2 ramp[3] = {{46, 0}, {55, 4}, {60, 4.5f}};
    bool ok = !rc_shape_id_is_null(outline);
    ok = ok && !rc_shape_id_is_null(rc_shape_create_chain(w, level, &wall, lower_wall, 2, false));
    ok = ok && !rc_shape_id_is_null(rc_shape_create_chain(w, level, &wall, upper_wall, 2, false));
    ok = ok && !rc_shape_id_is_null(rc_shape_create_chain(w, level, &wall, ramp, 3, false));

    rc_shape_def solid = rc_shape_default_def();
    solid.restitution = 0.45f;
    solid.friction = 0.6f;
    const struct {
        rc_vec2 at;
        float angle, hw, hh;
    } crates[] = {{{14, 5}, 0.35f, 1.6f, 1.6f}, {{22, 12}, -0.25f, 2.5f, 0.6f}, {{44, 22}, 0.785f, 1.5f, 1.5f},
                  {{50, 29}, 0.1f, 3.0f, 0.5f}, {{60, 1}, 0.0f, 1.0f, 1.0f}};
    for (size_t i = 0; i < sizeof crates / sizeof crates[0]; ++i) {
        solid.offset = crates[i].at;
        solid.angle = crates[i].angle;
        ok = ok && !rc_shape_id_is_null(rc_shape_create_box(w, level, &solid, crates[i].hw, crates[i].hh));
    }
    solid.offset = rc_v2(28, 24);
    solid.angle = 0.0f;
    const rc_vec2 wedge[3] = {{-2, -1.5f}, {2.5f, -1.5f}, {-2, 2}};
    ok = ok && !rc_shape_id_is_null(rc_shape_create_polygon(w, level, &solid, wedge, 3));
    const struct {
        rc_vec2 at;
        float r;
    } pillars[] = {{{10, 18}, 1.4f}, {{24, 6}, 1.2f}, {{42, 30}, 1.6f}, {{60, 12}, 1.0f}, {{40, 7}, 0.9f}};
    for (size_t i = 0; i < sizeof pillars / sizeof pillars[0]; ++i) {
        solid.offset = pillars[i].at;
        ok = ok && !rc_shape_id_is_null(rc_shape_create_circle(w, level, &solid, pillars[i].r));
    }
    return ok;
}

static rc_body_id dynamic_box(rc_world *w, rc_vec2 at, float hw, float hh, float density) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = at;
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.friction = 0.6f;
    sd.density = density;
    return rc_shape_id_is_null(rc_shape_create_box(w, b, &sd, hw, hh)) ? RC_NULL_BODY_ID : b;
}

static bool hinge(rc_world *w, rc_body_id a, rc_vec2 anchor_a, rc_body_id b, rc_vec2 anchor_b) {
    rc_revolute_joint_def jd = rc_revolute_joint_default_def();
    jd.body_a = a;
    jd.body_b = b;
    jd.local_anchor_a = anchor_a;
    jd.local_anchor_b = anchor_b;
    return !rc_joint_id_is_null(rc_joint_create_revolute(w, &jd));
}

int level_place_joints(rc_world *w, rc_body_id level) {
    int made = 0;
    rc_body_id previous = level;
    rc_vec2 anchor = rc_v2(37.0f, 34.0f);
    for (int i = 0; i < 4; ++i) {
        rc_body_id link = dynamic_box(w, rc_v2(37.0f, 33.6f - 0.8f * (float)i), 0.08f, 0.4f, 2.0f);
        made += hinge(w, previous, anchor, link, rc_v2(0.0f, 0.4f)) ? 1 : 0;
        previous = link;
        anchor = rc_v2(0.0f, -0.4f);
    }
    rc_body_id lamp = dynamic_box(w, rc_v2(37.0f, 30.45f), 0.5f, 0.35f, 2.0f);
    made += hinge(w, previous, anchor, lamp, rc_v2(0.0f, 0.35f)) ? 1 : 0;

    previous = level;
    anchor = rc_v2(34.0f, 17.0f);
    for (int i = 0; i < 8; ++i) {
        rc_body_id plank = dynamic_box(w, rc_v2(34.75f + 1.5f * (float)i, 17.0f), 0.74f, 0.12f, 0.8f);
        made += hinge(w, previous, anchor, plank, rc_v2(-0.75f, 0.0f)) ? 1 : 0;
        previous = plank;
        anchor = rc_v2(0.75f, 0.0f);
    }
    made += hinge(w, previous, anchor, level, rc_v2(46.0f, 17.0f)) ? 1 : 0;

    rc_body_id door = dynamic_box(w, rc_v2(16.0f, 26.0f), 0.15f, 2.0f, 1.0f);
    rc_revolute_joint_def jd = rc_revolute_joint_default_def();
    jd.body_a = level;
    jd.body_b = door;
    jd.local_anchor_a = rc_v2(16.0f, 28.0f);
    jd.local_anchor_b = rc_v2(0.0f, 2.0f);
    jd.enable_limit = true;
    jd.lower_angle = -1.3f;
    jd.upper_angle = 1.3f;
    jd.enable_spring = true;
    jd.hertz = 0.8f;
    jd.damping_ratio = 0.3f;
    made += !rc_joint_id_is_null(rc_joint_create_revolute(w, &jd)) ? 1 : 0;
    return made == 5 + 9 + 1 ? made : -1;
}
