/* ricochet: a 2D collision world for games.
 *
 * Include this one header: #include <ricochet/ricochet.h>
 *
 *   math.h      vectors, rotations, transforms, boxes
 *   id.h        generation-checked body and shape ids
 *   geometry.h  pure geometry: rays, clipping, casts, distances, contact manifolds
 *   grid.h      the broadphase grid, usable on its own
 *   world.h     the world: bodies, shapes and chains, the step
 *   query.h     casts, overlaps, the trajectory preview
 *   events.h    events read after the step, contacts touching now, the pre-solve callback
 *   joint.h     joints: hinges, rods, springs, ropes, sliders, welds, the mouse
 *   mover.h     the character mover: a walking circle that slides along walls
 *   draw.h      debug draw: the world described to a struct of callbacks
 */
#ifndef RICOCHET_H
#define RICOCHET_H

#include "base.h"
#include "geometry.h"
#include "grid.h"
#include "id.h"
#include "math.h"
#include "draw.h"
#include "mover.h"
#include "joint.h"
#include "snapshot.h"
#include "world.h"
#include "query.h"
#include "events.h"

#endif
