/* hello: the smallest complete program. A world, a wall, a bullet fired at it; step until the
 * bullet strikes, and print where, with what surface normal, and how it bounced. */
#include <ricochet/ricochet.h>

#include <stdio.h>

int main(void) {
    rc_world_def world_def = rc_world_default_def();
    world_def.gravity = rc_v2(0.0f, 0.0f);
    rc_world *world = rc_world_create(&world_def);

    /* a static wall: a 1 x 4 box centred at (10, 0) */
    rc_body_def wall_def = rc_body_default_def();
    wall_def.position = rc_v2(10.0f, 0.0f);
    rc_body_id wall = rc_body_create(world, &wall_def);
    rc_shape_def shape_def = rc_shape_default_def();
    shape_def.restitution = 0.5f;
    shape_def.friction = 0.0f;
    rc_shape_create_box(world, wall, &shape_def, 0.5f, 2.0f);

    /* a bullet: a dynamic point body, swept every step so it cannot pass through the wall */
    rc_body_def bullet_def = rc_body_default_def();
    bullet_def.type = RC_DYNAMIC;
    bullet_def.bullet = true;
    bullet_def.position = rc_v2(0.0f, 1.0f);
    bullet_def.linear_velocity = rc_v2(60.0f, -15.0f);
    rc_body_id bullet = rc_body_create(world, &bullet_def);

    for (int step = 1; step <= 30; ++step) {
        rc_world_step(world, 1.0f / 60.0f);
        const rc_impact_event *impacts;
        int count = rc_world_impact_events(world, &impacts);
        for (int i = 0; i < count; ++i) {
            rc_vec2 v = rc_body_linear_velocity(world, bullet);
            printf("step %d: hit at (%.3f, %.3f), normal (%g, %g), bounced off at (%g, %g)\n", step,
                   impacts[i].point.x, impacts[i].point.y, impacts[i].normal.x, impacts[i].normal.y, v.x, v.y);
        }
    }
    rc_world_destroy(world);
    return 0;
}
