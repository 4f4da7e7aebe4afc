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
