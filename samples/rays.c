/* rays: a small room of crates and pillars, and a fan of rays cast through it. Prints what each
 * ray hits first: which shape, where, the surface normal, and whether it started inside.
 *
 *   rays [--out FILE]   also draws the room (through the debug draw) and the rays as a PNG */
#include <ricochet/ricochet.h>

#include "canvas.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *out = argc == 3 && strcmp(argv[1], "--out") == 0 ? argv[2] : NULL;
    if (argc != 1 && out == NULL) {
        fprintf(stderr, "usage: rays [--out FILE]\n");
        return 2;
    }
    rc_world_def world_def = rc_world_default_def();
    rc_world *world = rc_world_create(&world_def);
    if (world == NULL) {
        fprintf(stderr, "could not create the world\n");
        return 1;
    }

    /* one static body carries the whole room */
    rc_body_def body_def = rc_body_default_def();
    rc_body_id room = rc_body_create(world, &body_def);
    rc_shape_def shape_def = rc_shape_default_def();

    const char *names[8];
    int count = 0;
    shape_def.offset = rc_v2(6.0f, 0.0f);
    rc_shape_id crate = rc_shape_create_box(world, room, &shape_def, 1.0f, 1.0f);
    names[count++] = "crate";
    shape_def.offset = rc_v2(0.0f, 6.0f);
    rc_shape_id pillar = rc_shape_create_circle(world, room, &shape_def, 1.5f);
    names[count++] = "pillar";
    shape_def.offset = rc_v2(-5.0f, -4.0f);
    shape_def.angle = 0.5f;
    rc_vec2 wedge_points[3] = {{-1.0f, -1.0f}, {2.0f, -1.0f}, {-1.0f, 1.5f}};
    rc_shape_id wedge = rc_shape_create_polygon(world, room, &shape_def, wedge_points, 3);
    names[count++] = "wedge";
    if (rc_shape_id_is_null(crate) || rc_shape_id_is_null(pillar) || rc_shape_id_is_null(wedge)) {
        fprintf(stderr, "could not build the room: %s\n", rc_world_last_error(world));
        rc_world_destroy(world);
        return 1;
    }

    /* sixteen rays fanning out from the middle, each 12 units long, and one from inside the crate */
    canvas picture;
    if (out != NULL && !canvas_init(&picture, 640, 640)) {
        rc_world_destroy(world);
        return 1;
    }
    if (out != NULL) {
        canvas_clear(&picture, 0x11141a);
        canvas_set_view(&picture, (rc_aabb){{-12.5f, -12.5f}, {12.5f, 12.5f}}, 8.0f);
        rc_debug_draw draw = canvas_debug_draw(&picture); /* the room first, the rays over it */
        draw.flags = RC_DRAW_SHAPES;
        rc_world_draw(world, &draw);
    }
    printf("ray  from          to              hit\n");
    for (int i = 0; i <= 16; ++i) {
        rc_vec2 origin = rc_v2(0.0f, 0.0f);
        rc_vec2 translation;
        if (i < 16) {
            rc_rot q = rc_rot_from_angle(2.0f * RC_PI * (float)i / 16.0f);
            translation = rc_v2(12.0f * q.c, 12.0f * q.s);
        } else {
            origin = rc_v2(6.5f, 0.5f);
            translation = rc_v2(0.0f, -5.0f);
        }
        rc_ray_hit hit;
        bool struck = rc_world_cast_ray(world, origin, translation, &hit);
        if (out != NULL) {
            rc_vec2 end = struck ? hit.point : rc_add(origin, translation);
            canvas_line(&picture, origin, end, 1.5f, 0xf7dc6f, 0.8f);
            if (struck) {
                canvas_line(&picture, hit.point, rc_add(hit.point, hit.normal), 1.5f, 0xecf0f1, 1.0f);
                canvas_point(&picture, hit.point, 6.0f, 0xff3b30, 1.0f);
            }
        }
        printf("%2d  (%5.1f,%5.1f)  (%6.2f,%6.2f)  ", i, (double)origin.x, (double)origin.y,
               (double)(origin.x + translation.x), (double)(origin.y + translation.y));
        if (struck) {
            const char *name = names[0];
            if (rc_shape_id_equals(hit.shape, pillar)) {
                name = names[1];
            } else if (rc_shape_id_equals(hit.shape, wedge)) {
                name = names[2];
            }
            printf("%-6s at t=%.3f point (%.3f, %.3f) normal (%.3f, %.3f)%s\n", name, (double)hit.t,
                   (double)hit.point.x, (double)hit.point.y, (double)hit.normal.x, (double)hit.normal.y,
                   hit.started_inside ? "  started inside" : "");
        } else {
            printf("nothing\n");
        }
    }
    if (out != NULL) {
        bool drawn = canvas_write_png(&picture, out);
        canvas_free(&picture);
        if (!drawn) {
            fprintf(stderr, "could not draw %s\n", out);
            rc_world_destroy(world);
            return 1;
        }
        printf("wrote %s\n", out);
    }
    rc_world_destroy(world);
    return 0;
}
