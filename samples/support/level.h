/* level: the level of sectors the picture samples share (demo, sdl_play).
 *
 * An outline loop (one-sided: its inside is free) with notches, two partition walls with a
 * door between them, a ramp, static crates, a wedge and round pillars, all on one static body.
 * The shapes are made in a fixed order, so their ids (and every picture drawn of them) are the
 * same from run to run. */
#ifndef RICOCHET_SAMPLES_LEVEL_H
#define RICOCHET_SAMPLES_LEVEL_H

#include <ricochet/ricochet.h>

/* The outline, counter-clockwise, in world units (the level spans 0..64 by 0..34). */
extern const rc_vec2 LEVEL_OUTLINE[];
extern const int LEVEL_OUTLINE_COUNT;

/* Builds the level into the world; *outline (may be NULL) gets the outline chain's id.
 * False, with the world's last error saying why, when a shape was refused. */
bool level_build(rc_world *world, rc_shape_id *outline);

/* Joints for the projectiles to push, on the level's body (rc_shape_body of the outline): a
 * lamp on a chain of four links from the right room's ceiling, a rope bridge of eight planks
 * from the middle wall to a post in the air, and a door hinged under the notch in the ceiling,
 * sprung shut within limits. Returns the number of joints made (15), or -1 with the world's
 * last error saying why. */
int level_place_joints(rc_world *world, rc_body_id level);

#endif
