/* world/chain.h: chains (chain.c) and long walls (wall_pieces.c): a chain's walls, their ends
 * and neighbours, where they stand and what they own; a long static wall's proxy in pieces; the
 * records a setter on a chain changes; distance to a shape and containment, chain-aware. */
#ifndef RICOCHET_WORLD_CHAIN_H
#define RICOCHET_WORLD_CHAIN_H

#include <ricochet/world.h>

#include "broadphase/broadphase.h"
#include "world/body.h"
#include "world/shape.h"

/* chain_shape is the index of a chain's record. */
/* A wall's ends in its body's frame, ordered so that its free side is on the left, and the
 * chain's points before and after it in that order (its own end where an open chain ends). */
void rc_segment_wall(const rc_world *world, const rc_shape *s, rc_vec2 *prev, rc_vec2 *a, rc_vec2 *b, rc_vec2 *next);
/* The same wall seen from its other side (a two-sided wall met from its right): its ends and
 * its neighbours swapped. */
static inline void rc_wall_from_behind(rc_vec2 *prev, rc_vec2 *a, rc_vec2 *b, rc_vec2 *next) {
    rc_vec2 t = *a;
    *a = *b;
    *b = t;
    t = *prev;
    *prev = *next;
    *next = t;
}
void rc_segment_place(rc_world *world, rc_shape *segment, rc_transform body);
/* Is an overlap with a circle centred at p (in the world where the shape stands) the shape's
 * to answer? Every shape's but a chain's wall's beyond a joint outside its region, which is its
 * neighbour's or nobody's (rc_chain_wall_region, as the contacts meet walls): a circle that
 * overlaps the shared end of two walls in line is held by the wall it lies over, not pushed
 * sideways off the end of the other. */
bool rc_segment_owns(const rc_world *world, const rc_shape *segment, rc_vec2 p);
rc_aabb rc_segment_box_at(const rc_world *world, const rc_shape *segment, rc_transform body);
void rc_segment_ends_at(const rc_world *world, const rc_shape *segment, rc_transform body, rc_vec2 ends[2]);
/* Long walls of the level in pieces (wall_pieces.c): a static segment longer than two piece
 * lengths has a proxy of pieces in the level grid (at most this many). */
#define RC_MAX_WALL_PIECES 256
/* The pieces of a wall with these ends in its chain's frame, were it static (1: one box). */
int32_t rc_wall_piece_count(const rc_world *world, const rc_base *base, const rc_vec2 local[2]);
/* The pieces of a shape's proxy as the world makes it: 1 but for a long static segment. */
int32_t rc_segment_pieces(const rc_world *world, const rc_shape *shape);
/* The boxes of a wall's pieces from end a to end b (in order: rc_grid_pieces_in_order). */
void rc_wall_piece_boxes(rc_vec2 a, rc_vec2 b, int32_t count, rc_aabb *boxes);
/* A wall's proxy in grid: of count pieces in the level grid, else of its ends' box; -1 when out
 * of memory (nothing added). */
int32_t rc_wall_insert(rc_world *world, rc_grid *grid, const rc_vec2 ends[2], int32_t count, int32_t user);
/* A placed segment's proxy in grid (its fat box), in pieces when grid is the level's and the wall
 * is long. */
int32_t rc_segment_insert_proxy(rc_world *world, rc_grid *grid, const rc_shape *segment, int32_t user);
/* A long static wall's pieces against where its shape is: equal, or moved there (reserved by the
 * caller: rc_segment_piece_additions with the body's new transform). */
bool rc_segment_pieces_fit(const rc_world *world, const rc_shape *segment);
void rc_segment_refit_pieces(rc_world *world, const rc_shape *segment);
int32_t rc_segment_piece_additions(const rc_world *world, const rc_shape *segment, rc_transform body);
/* After the body's shapes were placed or its type changed: its chains' boxes and types. */
void rc_body_refresh_chains(rc_world *world, const rc_body *body);
void rc_chain_destroy(rc_world *world, int32_t chain_shape);
/* The records a setter on shape index s changes: s itself, or a chain's record and its
 * segments' (the k-th of n). */
int32_t rc_setter_records(const rc_world *world, int32_t s);
int32_t rc_setter_record(const rc_world *world, int32_t s, int32_t k);
/* The distance from p to a shape (rc_view_distance), and whether the shape is the one that
 * touches p: false for a chain's wall whose nearest point to p is a joint its neighbour holds
 * (circles roll over the joints of a flat floor as over one floor). */
bool rc_shape_distance(const rc_world *world, const rc_shape *s, rc_vec2 p, rc_distance_result *d);
/* Inside the loop by the crossing rule (false for an open chain). */
bool rc_chain_contains(const rc_world *world, int32_t chain_shape, rc_vec2 p);

#endif
