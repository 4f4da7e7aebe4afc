/* sectors: a small level of three sectors (a hall with pillars, a corridor, a vault with a crate)
 * and a character that walks through it with the mover, sliding along walls and round pillars.
 * Prints each sector it enters, where it was blocked and how closely it kept to the walls.
 *
 * The walls are one looped, one-sided chain: the level's outline, its inside free. The sectors
 * are loops too, on their own filter category that nothing collides with: they only name
 * places (rc_world_sectors_at).
 *
 *   sectors [--out FILE]   also draws the level (through the debug draw) and the walk as a PNG */
#include <ricochet/ricochet.h>

#include "canvas.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SECTOR_CATEGORY 0x8000u

typedef struct sector {
    const char *name;
    rc_vec2 points[8];
    int count;
    rc_shape_id id;
} sector;

enum { MAX_FRAMES = 60 * 120 };

/* The level through the debug draw, the sectors' names, and the walker's path. */
static bool draw_walk(const rc_world *world, const sector *sectors, int count, const rc_vec2 *path, int steps,
                      float radius, const char *out) {
    canvas c;
    if (!canvas_init(&c, 1120, 360)) {
        return false;
    }
    canvas_clear(&c, 0x11141a);
    canvas_set_view(&c, (rc_aabb){{-1.0f, -1.0f}, {71.0f, 21.0f}}, 8.0f);
    rc_debug_draw draw = canvas_debug_draw(&c);
    draw.flags = RC_DRAW_SHAPES;
    draw.normal_length = 1.0f;
    bool ok = rc_world_draw(world, &draw);
    for (int i = 1; i < steps; ++i) {
        canvas_line(&c, path[i - 1], path[i], 2.0f, 0x48c9b0, 0.9f);
    }
    canvas_circle(&c, path[steps - 1], radius, 1.5f, 0x48c9b0, 1.0f);
    for (int i = 0; i < count; ++i) {
        rc_vec2 corner = canvas_to_pixel(&c, sectors[i].points[3]); /* each sector's top-left */
        canvas_text(&c, (int)corner.x + 6, (int)corner.y + 6, sectors[i].name, 2, 0xd0d6de);
    }
    ok = ok && canvas_write_png(&c, out);
    canvas_free(&c);
    return ok;
}

int main(int argc, char **argv) {
    const char *out = argc == 3 && strcmp(argv[1], "--out") == 0 ? argv[2] : NULL;
    if (argc != 1 && out == NULL) {
        fprintf(stderr, "usage: sectors [--out FILE]\n");
        return 2;
    }
    static rc_vec2 path[MAX_FRAMES + 1];
    int steps = 0;
    rc_world_def world_def = rc_world_default_def();
    world_def.gravity = rc_v2(0.0f, 0.0f); /* seen from above */
    rc_world *world = rc_world_create(&world_def);
    if (world == NULL) {
        fprintf(stderr, "could not create the world\n");
        return 1;
    }
    rc_body_def body_def = rc_body_default_def();
    rc_body_id level = rc_body_create(world, &body_def);

    /* the walls: hall [0,30]x[0,20], corridor [30,50]x[8,12], vault [50,70]x[0,20] with a notch */
    rc_vec2 outline[] = {{0, 0},   {30, 0},  {30, 8},  {50, 8},  {50, 0},  {70, 0},  {70, 20},
                         {62, 20}, {62, 14}, {58, 14}, {58, 20}, {50, 20}, {50, 12}, {30, 12},
                         {30, 20}, {0, 20}};
    rc_shape_def wall_def = rc_shape_default_def();
    wall_def.one_sided = true;
    rc_shape_id walls = rc_shape_create_chain(world, level, &wall_def, outline, (int)(sizeof outline / sizeof outline[0]), true);
    /* pillars in the hall, a crate in the vault */
    rc_shape_def solid = rc_shape_default_def();
    const rc_vec2 pillar_at[3] = {{10, 10}, {18, 6}, {22, 14}};
    for (int i = 0; i < 3; ++i) {
        solid.offset = pillar_at[i];
        rc_shape_create_circle(world, level, &solid, 1.5f);
    }
    solid.offset = rc_v2(60, 6);
    solid.angle = 0.4f;
    rc_shape_create_box(world, level, &solid, 2.0f, 1.5f);

    sector sectors[3] = {
        {"the hall", {{0, 0}, {30, 0}, {30, 20}, {0, 20}}, 4, RC_NULL_SHAPE_ID},
        {"the corridor", {{30, 8}, {50, 8}, {50, 12}, {30, 12}}, 4, RC_NULL_SHAPE_ID},
        {"the vault", {{50, 0}, {70, 0}, {70, 20}, {50, 20}}, 4, RC_NULL_SHAPE_ID},
    };
    rc_shape_def sector_def = rc_shape_default_def();
    sector_def.filter.category_bits = SECTOR_CATEGORY;
    sector_def.filter.mask_bits = 0; /* collides with nothing */
    for (int i = 0; i < 3; ++i) {
        sectors[i].id = rc_shape_create_chain(world, level, &sector_def, sectors[i].points, sectors[i].count, true);
    }
    if (rc_shape_id_is_null(walls) || rc_shape_id_is_null(sectors[2].id)) {
        fprintf(stderr, "the level was refused: %s\n", rc_world_last_error(world));
        rc_world_destroy(world);
        return 1;
    }

    /* the walk: waypoints, 6 units/s at 60 frames/s; the mover sees everything but sectors */
    rc_vec2 waypoints[] = {{3, 3}, {27, 17}, {40, 10}, {55, 17}, {60, 11}, {66, 17}, {67, 3}, {52, 3}};
    const int waypoint_count = (int)(sizeof waypoints / sizeof waypoints[0]);
    const float radius = 0.6f, speed = 6.0f, dt = 1.0f / 60.0f;
    rc_mover_def mover = rc_mover_default_def();
    mover.radius = radius;
    mover.filter.mask_bits = ~SECTOR_CATEGORY;
    rc_vec2 position = rc_v2(3, 10);
    path[steps++] = position;
    int current = -1, frames = 0, slides = 0, stuck = 0;
    float walked = 0.0f, least_separation = INFINITY;
    for (int target = 0; target < waypoint_count && frames < MAX_FRAMES; ++target) {
        for (int still = 0; still < 30 && frames < MAX_FRAMES; ++frames) {
            rc_vec2 to = rc_sub(waypoints[target], position);
            float distance = rc_length(to);
            if (distance < 0.05f) {
                break;
            }
            float step = fminf(distance, speed * dt);
            mover.position = position;
            mover.delta = rc_scale(step / distance, to);
            rc_mover_result result;
            if (!rc_world_move_circle_ex(world, &mover, &result)) {
                fprintf(stderr, "the mover refused: %s\n", rc_world_last_error(world));
                rc_world_destroy(world);
                return 1;
            }
            float moved = rc_distance(result.position, position);
            walked += moved;
            slides += moved < 0.999f * step;
            still = moved < 1e-4f ? still + 1 : 0;
            for (int k = 0; k < result.touch_count; ++k) {
                least_separation = fminf(least_separation, result.touches[k].separation);
            }
            position = result.position;
            path[steps++] = position;
            rc_shape_id here[3];
            int n = rc_world_sectors_at(world, position, here, 3);
            /* the walls' loop holds every point of the level: look for a sector among the loops */
            for (int j = 0; j < n && j < 3; ++j) {
                for (int i = 0; i < 3; ++i) {
                    if (rc_shape_id_equals(here[j], sectors[i].id) && i != current) {
                        printf("frame %4d: entered %-12s at (%6.2f, %6.2f)\n", frames, sectors[i].name,
                               (double)position.x, (double)position.y);
                        current = i;
                    }
                }
            }
        }
        if (rc_distance(position, waypoints[target]) >= 0.05f) {
            printf("frame %4d: blocked on the way to (%g, %g), resting at (%6.2f, %6.2f)\n", frames,
                   (double)waypoints[target].x, (double)waypoints[target].y, (double)position.x, (double)position.y);
            stuck++;
        }
    }
    printf("%d frames, %.1f units walked, %d frames sliding, %d waypoints out of reach\n", frames, (double)walked,
           slides, stuck);
    printf("nearest approach to a surface: %.6f beyond the radius %.1f (never below 0)\n", (double)least_separation,
           (double)radius);
    if (out != NULL) {
        if (!draw_walk(world, sectors, 3, path, steps, radius, out)) {
            fprintf(stderr, "could not draw %s\n", out);
            rc_world_destroy(world);
            return 1;
        }
        printf("wrote %s\n", out);
    }
    rc_world_destroy(world);
    return least_separation >= -1e-4f ? 0 : 1;
}
