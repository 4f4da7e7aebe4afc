/* Long walls of the level in pieces. A chain's segment is one shape, but the box of a long
 * slanted wall covers a wide area of nothing: everything that moves inside it would be in contact
 * with the wall (a narrow phase every step), every sweep there would test it, and its one proxy
 * would sit on a coarse level of the grid. So a static segment longer than two piece lengths goes
 * into the level grid as the boxes of its pieces (rc_grid_insert_pieces): a contact begins when a
 * body's box meets a piece and ends when it meets none, box queries find the wall once, and a
 * cast keeps the hit of the piece that holds it. The shape stays one: its id, its contacts, its
 * events. How many pieces depends only on the wall's length in its body's frame, so a static body
 * that moves keeps its walls' pieces and moves them in place. */
#include "world/world_internal.h"

#include <float.h>
#include <math.h>

static const rc_base *base_of(const rc_world *world, const rc_shape *segment) {
    return &world->shapes.data[world->chains.data[segment->chain].shape].base;
}

/* How long a piece is at most (until a wall has RC_MAX_WALL_PIECES): four of the world's cells
 * when it sets their size, else a length a thousand linear slops long (5 units by default: the
 * size of things a level holds, at the world's scale). */
static double piece_length(const rc_world *world) {
    return world->def.cell_size > 0.0f ? 4.0 * (double)world->def.cell_size : 1000.0 * (double)world->def.linear_slop;
}

int32_t rc_wall_piece_count(const rc_world *world, const rc_base *base, const rc_vec2 local[2]) {
    rc_vec2 a = rc_base_apply(base, local[0]), b = rc_base_apply(base, local[1]);
    double len = hypot((double)b.x - (double)a.x, (double)b.y - (double)a.y);
    double pieces = ceil(len / piece_length(world));
    if (!(pieces > 2.0)) {
        return 1; /* short enough (and NaN-proof): one box */
    }
    return pieces < (double)RC_MAX_WALL_PIECES ? (int32_t)pieces : RC_MAX_WALL_PIECES;
}

int32_t rc_segment_pieces(const rc_world *world, const rc_shape *s) {
    if (s->kind != RC_SHAPE_SEGMENT || s->body_type != RC_STATIC) {
        return 1;
    }
    return rc_wall_piece_count(world, base_of(world, s), s->wall.local);
}

/* One coordinate of the points that cut a wall from a to b into count pieces: a and b exactly at
 * the ends, and never turning back between them whatever the roundings. */
static float cut(float a, float b, int32_t i, int32_t count, float before) {
    if (i == count) {
        return b;
    }
    float v = a + (b - a) * ((float)i / (float)count);
    v = b >= a ? fminf(fmaxf(v, before), b) : fmaxf(fminf(v, before), b);
    return v;
}

void rc_wall_piece_boxes(rc_vec2 a, rc_vec2 b, int32_t count, rc_aabb *boxes) {
    /* grown by a few roundings at the size of the wall's coordinates: a hit a cast works out on
       the wall is in the box of the piece it is on (rc_grid_piece_holds_first) */
    float size = fmaxf(fmaxf(fabsf(a.x), fabsf(a.y)), fmaxf(fabsf(b.x), fabsf(b.y)));
    float pad = 16.0f * FLT_EPSILON * size + FLT_MIN;
    rc_vec2 p = a;
    for (int32_t i = 0; i < count; ++i) {
        rc_vec2 q = {cut(a.x, b.x, i + 1, count, p.x), cut(a.y, b.y, i + 1, count, p.y)};
        boxes[i].lower = rc_v2(fminf(p.x, q.x) - pad, fminf(p.y, q.y) - pad);
        boxes[i].upper = rc_v2(fmaxf(p.x, q.x) + pad, fmaxf(p.y, q.y) + pad);
        p = q;
    }
}

int32_t rc_wall_insert(rc_world *world, rc_grid *grid, const rc_vec2 ends[2], int32_t count, int32_t user) {
    rc_aabb box = {rc_min(ends[0], ends[1]), rc_max(ends[0], ends[1])};
    if (count <= 1 || grid != world->level_grid) {
        return rc_grid_insert(grid, box, user);
    }
    rc_aabb boxes[RC_MAX_WALL_PIECES];
    rc_wall_piece_boxes(ends[0], ends[1], count, boxes);
    return rc_grid_insert_pieces(grid, boxes, count, user);
}

int32_t rc_segment_insert_proxy(rc_world *world, rc_grid *grid, const rc_shape *s, int32_t user) {
    if (grid != world->level_grid) {
        return rc_grid_insert(grid, rc_shape_fat_box(world, s), user);
    }
    return rc_wall_insert(world, grid, s->segment, rc_wall_piece_count(world, base_of(world, s), s->wall.local), user);
}

bool rc_segment_pieces_fit(const rc_world *world, const rc_shape *s) {
    int32_t count = rc_segment_pieces(world, s);
    rc_aabb boxes[RC_MAX_WALL_PIECES];
    rc_wall_piece_boxes(s->segment[0], s->segment[1], count, boxes);
    int32_t i = 0;
    for (int32_t piece = s->proxy; piece >= 0; piece = rc_grid_next_piece(world->level_grid, piece), ++i) {
        if (i >= count || !rc_aabb_equal(boxes[i], rc_grid_get_box(world->level_grid, piece))) {
            return false;
        }
    }
    return i == count;
}

void rc_segment_refit_pieces(rc_world *world, const rc_shape *s) {
    int32_t count = rc_segment_pieces(world, s);
    rc_aabb boxes[RC_MAX_WALL_PIECES];
    rc_wall_piece_boxes(s->segment[0], s->segment[1], count, boxes);
    int32_t i = 0;
    for (int32_t piece = s->proxy; piece >= 0 && i < count; piece = rc_grid_next_piece(world->level_grid, piece), ++i) {
        if (!rc_aabb_equal(boxes[i], rc_grid_get_box(world->level_grid, piece))) {
            rc_grid_move(world->level_grid, piece, boxes[i]);
        }
    }
}

int32_t rc_segment_piece_additions(const rc_world *world, const rc_shape *s, rc_transform body) {
    int32_t count = rc_segment_pieces(world, s);
    rc_vec2 ends[2];
    rc_segment_ends_at(world, s, body, ends);
    rc_aabb boxes[RC_MAX_WALL_PIECES];
    rc_wall_piece_boxes(ends[0], ends[1], count, boxes);
    int32_t additions = 0, i = 0;
    for (int32_t piece = s->proxy; piece >= 0 && i < count; piece = rc_grid_next_piece(world->level_grid, piece), ++i) {
        additions += rc_grid_move_additions(world->level_grid, piece, boxes[i]);
    }
    return additions;
}
