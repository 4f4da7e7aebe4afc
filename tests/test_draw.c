/* Debug draw: what rc_world_draw hands to each callback, checked against the world's own
 * numbers (shape placements worked out by hand, rc_shape_aabb, the grid counters, the impact
 * events), for each flag, with callbacks left NULL, with bounds, and for refused input. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

/* ---- a recording renderer --------------------------------------------------------------------- */

typedef enum prim_kind { P_POLYGON, P_SOLID_POLYGON, P_CIRCLE, P_SOLID_CIRCLE, P_SEGMENT, P_POINT, P_TRANSFORM, P_TEXT } prim_kind;

typedef struct prim {
    prim_kind kind;
    rc_vec2 v[8];
    int32_t count;
    float value; /* radius or point size */
    rc_vec2 axis;
    rc_transform xf;
    rc_color color;
    char text[200];
} prim;

typedef struct recorder {
    prim prims[4096];
    int count;
} recorder;

static prim *rec_add(void *context, prim_kind kind, rc_color color) {
    recorder *r = context;
    ck_assert_int_lt(r->count, 4096);
    prim *p = &r->prims[r->count++];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->color = color;
    return p;
}

static void rec_polygon(const rc_vec2 *points, int32_t count, rc_color color, void *context) {
    prim *p = rec_add(context, P_POLYGON, color);
    ck_assert_int_le(count, 8);
    memcpy(p->v, points, sizeof *points * (size_t)count);
    p->count = count;
}
static void rec_solid_polygon(const rc_vec2 *points, int32_t count, rc_color color, void *context) {
    prim *p = rec_add(context, P_SOLID_POLYGON, color);
    ck_assert_int_le(count, 8);
    memcpy(p->v, points, sizeof *points * (size_t)count);
    p->count = count;
}
static void rec_circle(rc_vec2 center, float radius, rc_color color, void *context) {
    prim *p = rec_add(context, P_CIRCLE, color);
    p->v[0] = center;
    p->value = radius;
}
static void rec_solid_circle(rc_vec2 center, float radius, rc_vec2 axis, rc_color color, void *context) {
    prim *p = rec_add(context, P_SOLID_CIRCLE, color);
    p->v[0] = center;
    p->value = radius;
    p->axis = axis;
}
static void rec_segment(rc_vec2 a, rc_vec2 b, rc_color color, void *context) {
    prim *p = rec_add(context, P_SEGMENT, color);
    p->v[0] = a;
    p->v[1] = b;
}
static void rec_point(rc_vec2 at, float size, rc_color color, void *context) {
    prim *p = rec_add(context, P_POINT, color);
    p->v[0] = at;
    p->value = size;
}
static void rec_transform(rc_transform xf, void *context) {
    prim *p = rec_add(context, P_TRANSFORM, 0);
    p->xf = xf;
}
static void rec_text(rc_vec2 at, const char *text, rc_color color, void *context) {
    prim *p = rec_add(context, P_TEXT, color);
    p->v[0] = at;
    snprintf(p->text, sizeof p->text, "%s", text);
}

static recorder rec; /* large: static storage, reset by each test */

static rc_debug_draw recording_draw(uint32_t flags) {
    memset(&rec, 0, sizeof rec);
    rc_debug_draw d = rc_default_debug_draw();
    d.draw_polygon = rec_polygon;
    d.draw_solid_polygon = rec_solid_polygon;
    d.draw_circle = rec_circle;
    d.draw_solid_circle = rec_solid_circle;
    d.draw_segment = rec_segment;
    d.draw_point = rec_point;
    d.draw_transform = rec_transform;
    d.draw_text = rec_text;
    d.flags = flags;
    d.context = &rec;
    return d;
}

static int count_kind(prim_kind kind) {
    int n = 0;
    for (int i = 0; i < rec.count; ++i) {
        n += rec.prims[i].kind == kind;
    }
    return n;
}

static const prim *nth_kind(prim_kind kind, int n) {
    for (int i = 0; i < rec.count; ++i) {
        if (rec.prims[i].kind == kind && n-- == 0) {
            return &rec.prims[i];
        }
    }
    ck_abort_msg("no primitive %d of kind %d", n, (int)kind);
    return NULL;
}

static int index_of(const prim *p) { return (int)(p - rec.prims); }

static void assert_v(rc_vec2 got, float x, float y) {
    ck_assert_msg(got.x == x && got.y == y, "got (%.9g, %.9g), want (%.9g, %.9g)", (double)got.x, (double)got.y,
                  (double)x, (double)y);
}

static rc_color dim(rc_color c) { return (c >> 1) & 0x7f7f7fu; }

/* A static 2 x 4 box centred at (10, 0) and a dynamic circle of radius 0.5 at (0, 5), turned a
 * quarter turn; no gravity, so nothing moves unless a test says so. */
static rc_world *scene(rc_shape_id *box, rc_shape_id *ball, rc_body_id *ball_body) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_def bd = rc_body_default_def();
    bd.position = rc_v2(10.0f, 0.0f);
    rc_body_id wall = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    *box = rc_shape_create_box(w, wall, &sd, 1.0f, 2.0f);
    bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_v2(0.0f, 5.0f);
    bd.angle = 1.5707963705062866f; /* the float nearest pi/2 */
    *ball_body = rc_body_create(w, &bd);
    *ball = rc_shape_create_circle(w, *ball_body, &sd, 0.5f);
    ck_assert(!rc_shape_id_is_null(*box) && !rc_shape_id_is_null(*ball));
    return w;
}

/* ---- shapes ------------------------------------------------------------------------------------ */

START_TEST(shapes_are_filled_and_outlined_static_first) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_debug_draw d = recording_draw(RC_DRAW_SHAPES);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 4);

    const prim *fill = nth_kind(P_SOLID_POLYGON, 0), *outline = nth_kind(P_POLYGON, 0);
    ck_assert_int_eq(fill->count, 4);
    ck_assert_int_eq(outline->count, 4);
    ck_assert_uint_eq(fill->color, dim(RC_COLOR_STATIC));
    ck_assert_uint_eq(outline->color, RC_COLOR_STATIC);
    /* counter-clockwise from the lower-left corner, as rc_make_box builds it */
    const float want[4][2] = {{9, -2}, {11, -2}, {11, 2}, {9, 2}};
    for (int i = 0; i < 4; ++i) {
        assert_v(fill->v[i], want[i][0], want[i][1]);
        assert_v(outline->v[i], want[i][0], want[i][1]);
    }

    const prim *disc = nth_kind(P_SOLID_CIRCLE, 0), *ring = nth_kind(P_CIRCLE, 0);
    assert_v(disc->v[0], 0.0f, 5.0f);
    ck_assert(disc->value == 0.5f && ring->value == 0.5f);
    assert_v(ring->v[0], 0.0f, 5.0f);
    /* the spoke follows the body's x axis, a quarter turn: (cos, sin) of the float nearest pi/2 */
    ck_assert(fabsf(disc->axis.x) < 1e-7f && disc->axis.y == 1.0f);
    ck_assert_uint_eq(disc->color, dim(RC_COLOR_DYNAMIC));
    ck_assert_uint_eq(ring->color, RC_COLOR_DYNAMIC);
    /* the static wall goes first, under the moving ball; fills go under their outlines */
    ck_assert_int_lt(index_of(outline), index_of(disc));
    ck_assert_int_lt(index_of(fill), index_of(outline));
    ck_assert_int_lt(index_of(disc), index_of(ring));
    rc_world_destroy(w);
}
END_TEST

START_TEST(outlines_fall_back_to_segments_and_missing_callbacks_are_skipped) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_debug_draw d = recording_draw(RC_DRAW_SHAPES | RC_DRAW_AABBS);
    d.draw_polygon = NULL;
    d.draw_solid_polygon = NULL;
    d.draw_circle = NULL;
    d.draw_solid_circle = NULL;
    ck_assert(rc_world_draw(w, &d));
    /* the box outline and the two shape boxes, each as four edges; nothing for the circle */
    ck_assert_int_eq(rec.count, 12);
    ck_assert_int_eq(count_kind(P_SEGMENT), 12);
    /* the first four close the box outline, edge by edge from the last corner */
    assert_v(rec.prims[0].v[0], 9.0f, 2.0f);
    assert_v(rec.prims[0].v[1], 9.0f, -2.0f);
    for (int i = 0; i < 4; ++i) {
        ck_assert_uint_eq(rec.prims[i].color, RC_COLOR_STATIC);
        assert_v(rec.prims[i].v[1], rec.prims[(i + 1) % 4].v[0].x, rec.prims[(i + 1) % 4].v[0].y);
    }
    /* then the box's AABB, then the ball's */
    rc_aabb ball_box = rc_shape_aabb(w, ball);
    assert_v(rec.prims[8].v[0], ball_box.lower.x, ball_box.upper.y);
    assert_v(rec.prims[8].v[1], ball_box.lower.x, ball_box.lower.y);
    ck_assert_uint_eq(rec.prims[8].color, RC_COLOR_AABB);

    /* with no callbacks at all, drawing still succeeds and calls nothing */
    rc_debug_draw none = rc_default_debug_draw();
    none.flags = RC_DRAW_ALL;
    ck_assert(rc_world_draw(w, &none));
    rc_world_destroy(w);
}
END_TEST

START_TEST(boxes_match_the_shapes_aabbs) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_debug_draw d = recording_draw(RC_DRAW_AABBS);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 2);
    rc_shape_id ids[2] = {box, ball};
    for (int k = 0; k < 2; ++k) {
        rc_aabb b = rc_shape_aabb(w, ids[k]);
        const prim *p = nth_kind(P_POLYGON, k);
        ck_assert_uint_eq(p->color, RC_COLOR_AABB);
        assert_v(p->v[0], b.lower.x, b.lower.y);
        assert_v(p->v[1], b.upper.x, b.lower.y);
        assert_v(p->v[2], b.upper.x, b.upper.y);
        assert_v(p->v[3], b.lower.x, b.upper.y);
    }
    assert_v(nth_kind(P_POLYGON, 0)->v[0], 9.0f, -2.0f);
    assert_v(nth_kind(P_POLYGON, 1)->v[2], 0.5f, 5.5f);
    rc_world_destroy(w);
}
END_TEST

START_TEST(sleeping_bodies_bullets_sensors_and_kinematic_bodies_have_their_colours) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    ck_assert(rc_body_set_awake(w, body, false));
    rc_debug_draw d = recording_draw(RC_DRAW_SHAPES);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_uint_eq(nth_kind(P_CIRCLE, 0)->color, RC_COLOR_DYNAMIC); /* asleep, but not asked to show it */
    d = recording_draw(RC_DRAW_SHAPES | RC_DRAW_SLEEP);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_uint_eq(nth_kind(P_CIRCLE, 0)->color, RC_COLOR_SLEEPING);
    ck_assert_uint_eq(nth_kind(P_SOLID_CIRCLE, 0)->color, dim(RC_COLOR_SLEEPING));
    ck_assert_uint_eq(nth_kind(P_POLYGON, 0)->color, RC_COLOR_STATIC); /* static bodies never sleep-coloured */

    ck_assert(rc_body_set_type(w, body, RC_KINEMATIC));
    d = recording_draw(RC_DRAW_SHAPES | RC_DRAW_SLEEP);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_uint_eq(nth_kind(P_CIRCLE, 0)->color, RC_COLOR_KINEMATIC);

    /* a bullet with a circle, a sensor (outlined only), and a point bullet drawn as a point */
    rc_body_id bullet = ws_circle_body(w, rc_v2(-5.0f, 0.0f), rc_v2(0.0f, 0.0f), 0.25f, 0.5f, 0.0f, true);
    rc_body_def bd = rc_body_default_def();
    bd.position = rc_v2(0.0f, -5.0f);
    rc_body_id zone = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, zone, &sd, 1.0f, 1.0f)));
    ws_point_bullet(w, rc_v2(3.0f, 4.0f), rc_v2(0.0f, 0.0f), 2);
    ck_assert(rc_body_is_valid(w, bullet));
    d = recording_draw(RC_DRAW_SHAPES);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(count_kind(P_SOLID_POLYGON), 1); /* the wall; the sensor is not filled */
    ck_assert_int_eq(count_kind(P_POLYGON), 2);
    ck_assert_uint_eq(nth_kind(P_POLYGON, 1)->color, RC_COLOR_SENSOR);
    ck_assert_int_eq(count_kind(P_CIRCLE), 2);
    ck_assert_uint_eq(nth_kind(P_CIRCLE, 1)->color, RC_COLOR_BULLET);
    ck_assert_int_eq(count_kind(P_POINT), 1);
    const prim *dot = nth_kind(P_POINT, 0);
    assert_v(dot->v[0], 3.0f, 4.0f);
    ck_assert_uint_eq(dot->color, RC_COLOR_BULLET);
    rc_world_destroy(w);
}
END_TEST

START_TEST(one_sided_walls_get_a_tick_on_their_free_side) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    /* an open floor from (-4, 0) to (4, 0) in two pieces: one-sided, free side on the left = up */
    rc_vec2 pts[3] = {{-4.0f, 0.0f}, {0.0f, 0.0f}, {4.0f, 0.0f}};
    sd.one_sided = true;
    rc_shape_id chain = rc_shape_create_chain(w, ground, &sd, pts, 3, false);
    ck_assert(!rc_shape_id_is_null(chain));
    rc_debug_draw d = recording_draw(RC_DRAW_SHAPES);
    d.normal_length = 1.0f;
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 4);
    /* wall, tick, wall, tick: each tick from the wall's middle, up, half the normal length */
    assert_v(rec.prims[0].v[0], -4.0f, 0.0f);
    assert_v(rec.prims[0].v[1], 0.0f, 0.0f);
    assert_v(rec.prims[1].v[0], -2.0f, 0.0f);
    assert_v(rec.prims[1].v[1], -2.0f, 0.5f);
    assert_v(rec.prims[3].v[0], 2.0f, 0.0f);
    assert_v(rec.prims[3].v[1], 2.0f, 0.5f);
    for (int i = 0; i < 4; ++i) {
        ck_assert_uint_eq(rec.prims[i].color, RC_COLOR_STATIC);
    }
    /* a short wall gets a tick a quarter of its length */
    d = recording_draw(RC_DRAW_SHAPES);
    d.normal_length = 100.0f;
    ck_assert(rc_world_draw(w, &d));
    assert_v(rec.prims[1].v[1], -2.0f, 1.0f);
    rc_world_destroy(w);
}
END_TEST

/* ---- bounds ------------------------------------------------------------------------------------ */

START_TEST(bounds_keep_what_overlaps_them) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    ws_point_bullet(w, rc_v2(30.0f, 30.0f), rc_v2(0.0f, 0.0f), 2);
    rc_debug_draw d = recording_draw(RC_DRAW_SHAPES | RC_DRAW_AABBS | RC_DRAW_TRANSFORMS);
    d.use_bounds = true;
    d.bounds = (rc_aabb){{8.0f, -1.0f}, {9.5f, 1.0f}}; /* only the wall */
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 3);
    ck_assert_int_eq(count_kind(P_SOLID_POLYGON), 1);
    ck_assert_int_eq(count_kind(P_POLYGON), 2);

    d = recording_draw(RC_DRAW_SHAPES | RC_DRAW_TRANSFORMS);
    d.use_bounds = true;
    d.bounds = (rc_aabb){{-0.5f, 4.5f}, {0.0f, 5.0f}}; /* a corner of the ball's box, its centre */
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 3);
    ck_assert_int_eq(count_kind(P_SOLID_CIRCLE), 1);
    ck_assert_int_eq(count_kind(P_TRANSFORM), 1);

    d = recording_draw(RC_DRAW_SHAPES);
    d.use_bounds = true;
    d.bounds = (rc_aabb){{29.0f, 29.0f}, {31.0f, 31.0f}}; /* the point bullet alone */
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 1);
    assert_v(nth_kind(P_POINT, 0)->v[0], 30.0f, 30.0f);

    d = recording_draw(RC_DRAW_SHAPES);
    d.use_bounds = true;
    d.bounds = (rc_aabb){{100.0f, 100.0f}, {200.0f, 200.0f}};
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 0);
    rc_world_destroy(w);
}
END_TEST

/* ---- grid, frames, contacts, impacts, counters ------------------------------------------------- */

START_TEST(grid_cells_in_use_are_outlined) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 20; ++i) {
        sd.offset = rc_v2(3.0f * (float)i, (float)(i % 3));
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, ground, &sd, 0.5f + 0.1f * (float)i)));
    }
    rc_debug_draw d = recording_draw(RC_DRAW_GRID);
    ck_assert(rc_world_draw(w, &d));
    rc_world_counters c = rc_world_get_counters(w);
    ck_assert_int_gt(c.broadphase_cells, 20);
    ck_assert_int_eq(rec.count, c.broadphase_cells);
    ck_assert_int_eq(count_kind(P_POLYGON), c.broadphase_cells);
    /* every cell is a square whose side is the level-0 cell size times a power of two, and every
       circle's centre lies in one of them */
    for (int i = 0; i < rec.count; ++i) {
        const prim *q = &rec.prims[i];
        float side = q->v[2].x - q->v[0].x, ratio = side / c.cell_size;
        ck_assert(q->v[2].y - q->v[0].y == side);
        ck_assert(ratio >= 1.0f && ratio == exp2f(roundf(log2f(ratio))));
        ck_assert_uint_eq(q->color, RC_COLOR_GRID);
    }
    for (int i = 0; i < 20; ++i) {
        rc_vec2 centre = rc_v2(3.0f * (float)i, (float)(i % 3));
        bool inside = false;
        for (int k = 0; k < rec.count && !inside; ++k) {
            const prim *q = &rec.prims[k];
            inside = centre.x >= q->v[0].x && centre.x <= q->v[2].x && centre.y >= q->v[0].y && centre.y <= q->v[2].y;
        }
        ck_assert_msg(inside, "circle %d is in no cell drawn", i);
    }
    const prim *p = nth_kind(P_POLYGON, 0);
    ck_assert_uint_eq(p->color, RC_COLOR_GRID);
    rc_world_destroy(w);
}
END_TEST

/* The top level's one cell, home of boxes too large for any other (a static box of half size
 * 1e18, which the world takes), is infinite: its box was 0 x infinity, NaN, and the draw handed
 * the game NaN and infinite segments. rc_grid_for_each_cell reports it as the box of +-FLT_MAX,
 * and the draw leaves it out; every other cell is drawn, every coordinate finite. */
static void note_cell(int32_t level, rc_aabb cell, int32_t count, void *context) {
    (void)level;
    (void)count;
    int *cells = context;
    cells[0]++;
    ck_assert(isfinite(cell.lower.x) && isfinite(cell.lower.y) && isfinite(cell.upper.x) && isfinite(cell.upper.y));
    ck_assert(cell.lower.x < cell.upper.x && cell.lower.y < cell.upper.y);
    cells[1] += cell.lower.x == -FLT_MAX && cell.lower.y == -FLT_MAX && cell.upper.x == FLT_MAX &&
                cell.upper.y == FLT_MAX;
}

START_TEST(the_grid_top_cell_has_no_edges_to_draw) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 16; ++i) {
        sd.offset = rc_v2(0.5f * (float)i, 0.0f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 0.05f, 0.05f)));
    }
    sd.offset = rc_v2(0.0f, 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 1e18f, 1e18f)));
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    rc_debug_draw d = recording_draw(RC_DRAW_GRID);
    ck_assert(rc_world_draw(w, &d));
    rc_world_counters c = rc_world_get_counters(w);
    ck_assert_int_eq(rec.count, c.broadphase_cells - 1);
    for (int i = 0; i < rec.count; ++i) {
        for (int k = 0; k < rec.prims[i].count; ++k) {
            ck_assert(isfinite(rec.prims[i].v[k].x) && isfinite(rec.prims[i].v[k].y));
        }
    }
    rc_world_destroy(w);
    /* the grid on its own */
    rc_grid_def gd = rc_grid_default_def();
    gd.cell_size = 1e-3f;
    rc_grid *g = rc_grid_create(&gd);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_ge(rc_grid_insert(g, (rc_aabb){{-1e16f, -1e16f}, {1e16f, 1e16f}}, 1), 0);
    ck_assert_int_ge(rc_grid_insert(g, (rc_aabb){{0.0f, 0.0f}, {1e-4f, 1e-4f}}, 2), 0);
    int cells[2] = {0, 0};
    rc_grid_for_each_cell(g, note_cell, cells);
    ck_assert_int_eq(cells[0], rc_grid_get_stats(g).cells);
    ck_assert_int_eq(cells[1], 1);
    rc_grid_destroy(g);
}
END_TEST

START_TEST(frames_are_drawn_for_moving_bodies_only) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_debug_draw d = recording_draw(RC_DRAW_TRANSFORMS);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 1);
    rc_transform xf = rc_body_transform(w, body);
    const prim *p = nth_kind(P_TRANSFORM, 0);
    ck_assert(memcmp(&p->xf, &xf, sizeof xf) == 0);
    rc_world_destroy(w);
}
END_TEST

START_TEST(resting_contacts_show_their_points_and_normals) {
    /* two grenades at rest on the ground: a one-point manifold each, whose normal points from the
       ground (the first shape) up into the grenade, at the grenade's lowest point */
    rc_world *w = ws_make_world(rc_v2(0.0f, -10.0f));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0.0f, -1.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 10.0f, 1.0f)));
    rc_body_id a = ws_circle_body(w, rc_v2(1.0f, 0.5f), rc_v2(0.0f, 0.0f), 0.5f, 0.0f, 0.5f, false);
    rc_body_id b = ws_circle_body(w, rc_v2(-3.0f, 0.25f), rc_v2(0.0f, 0.0f), 0.25f, 0.0f, 0.5f, false);
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    rc_debug_draw d = recording_draw(RC_DRAW_CONTACTS);
    d.normal_length = 2.0f;
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(count_kind(P_POINT), 2);
    ck_assert_int_eq(count_kind(P_SEGMENT), 2);
    rc_body_id bodies[2] = {a, b};
    ck_assert(nth_kind(P_POINT, 0)->v[0].x != nth_kind(P_POINT, 1)->v[0].x);
    for (int k = 0; k < 2; ++k) {
        const prim *n = nth_kind(P_SEGMENT, k), *p = nth_kind(P_POINT, k);
        ck_assert_uint_eq(p->color, RC_COLOR_CONTACT);
        ck_assert_uint_eq(n->color, RC_COLOR_NORMAL);
        assert_v(n->v[0], p->v[0].x, p->v[0].y);
        ck_assert(n->v[1].x == n->v[0].x && n->v[1].y == n->v[0].y + 2.0f);
        rc_vec2 c = rc_body_position(w, bodies[0]);
        if (p->v[0].x != c.x) {
            c = rc_body_position(w, bodies[1]); /* the contacts come in the world's order, not the bodies' */
        }
        ck_assert_msg(p->v[0].x == c.x && fabsf(p->v[0].y) < 1e-3f, "contact at (%g, %g), body at (%g, %g)",
                      (double)p->v[0].x, (double)p->v[0].y, (double)c.x, (double)c.y);
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(impacts_of_the_last_step_show_where_and_which_way) {
    rc_world *w = ws_make_world(rc_v2(0.0f, 0.0f));
    rc_body_id ground = ws_static_body(w);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(10.0f, 0.0f);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, ground, &sd, 1.0f, 5.0f)));
    ws_point_bullet(w, rc_v2(0.0f, 0.0f), rc_v2(300.0f, 75.0f), 3);
    ck_assert(rc_world_step(w, 1.0f / 30.0f)); /* 10 across, 2.5 up: the wall's face at x = 9 is met */
    const rc_impact_event *events = NULL;
    ck_assert_int_eq(rc_world_impact_events(w, &events), 1);
    rc_debug_draw d = recording_draw(RC_DRAW_IMPACTS);
    d.normal_length = 0.5f;
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 2);
    const prim *n = nth_kind(P_SEGMENT, 0), *p = nth_kind(P_POINT, 0);
    ck_assert_uint_eq(p->color, RC_COLOR_IMPACT);
    assert_v(p->v[0], events[0].point.x, events[0].point.y);
    ck_assert(fabsf(events[0].point.x - 9.0f) < 1e-3f && fabsf(events[0].point.y - 2.25f) < 1e-3f);
    assert_v(n->v[0], events[0].point.x, events[0].point.y);
    assert_v(n->v[1], events[0].point.x - 0.5f, events[0].point.y);
    /* the next step has no impact: nothing to show */
    ck_assert(rc_world_step(w, 1.0f / 240.0f));
    ck_assert_int_eq(rc_world_impact_events(w, &events), 0);
    d = recording_draw(RC_DRAW_IMPACTS);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 0);
    rc_world_destroy(w);
}
END_TEST

START_TEST(counters_line_reads_the_world) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_debug_draw d = recording_draw(RC_DRAW_STATS);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 1);
    rc_world_counters c = rc_world_get_counters(w);
    char want[200];
    snprintf(want, sizeof want, "bodies 2  awake 1  shapes 2  contacts 0  joints 0  impacts 0  proxies 2  cells %d",
             (int)c.broadphase_cells);
    ck_assert_str_eq(rec.prims[0].text, want);
    assert_v(rec.prims[0].v[0], 0.0f, 0.0f);
    ck_assert_uint_eq(rec.prims[0].color, RC_COLOR_TEXT);
    d = recording_draw(RC_DRAW_STATS);
    d.use_bounds = true;
    d.bounds = (rc_aabb){{-20.0f, -10.0f}, {20.0f, 15.0f}};
    ck_assert(rc_world_draw(w, &d));
    assert_v(rec.prims[0].v[0], -20.0f, 15.0f);
    rc_world_destroy(w);
}
END_TEST

/* ---- joints ------------------------------------------------------------------------------------ */

/* A hinge from the static wall body (centre (10, 0)) at (8, 5) to the ball (centre (0, 5)) at
 * its local (2, 0): turned a quarter, the ball's local (2, 0) is at (0, 7). Two segments (anchor
 * to anchor, the ball's anchor to its centre: none to a static body's centre) and two points;
 * made dynamic, the wall gets its segment too. */
START_TEST(joints_are_drawn_from_centre_to_anchor_to_anchor_to_centre) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_revolute_joint_def jd = rc_revolute_joint_default_def();
    jd.body_a = rc_shape_body(w, box);
    jd.body_b = body;
    jd.local_anchor_a = rc_v2(-2.0f, 5.0f);
    jd.local_anchor_b = rc_v2(2.0f, 0.0f);
    ck_assert(!rc_joint_id_is_null(rc_joint_create_revolute(w, &jd)));
    rc_debug_draw d = recording_draw(RC_DRAW_JOINTS);
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 4);
    rc_vec2 ends[3][2] = {{{10, 0}, {8, 5}}, {{8, 5}, {0, 7}}, {{0, 7}, {0, 5}}};
    for (int k = 0; k < 2; ++k) {
        ck_assert_int_eq(rec.prims[k].kind, P_SEGMENT);
        ck_assert_int_eq(rec.prims[k].color, RC_COLOR_JOINT);
        for (int e = 0; e < 2; ++e) {
            ck_assert_float_eq_tol(rec.prims[k].v[e].x, ends[k + 1][e].x, 1e-5f);
            ck_assert_float_eq_tol(rec.prims[k].v[e].y, ends[k + 1][e].y, 1e-5f);
        }
    }
    ck_assert_int_eq(rec.prims[2].kind, P_POINT);
    ck_assert_int_eq(rec.prims[3].kind, P_POINT);
    ck_assert_float_eq_tol(rec.prims[3].v[0].y, 7.0f, 1e-5f);
    ck_assert(rc_body_set_type(w, rc_shape_body(w, box), RC_DYNAMIC));
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 4 + 5);
    for (int k = 0; k < 3; ++k) {
        for (int e = 0; e < 2; ++e) {
            ck_assert_float_eq_tol(rec.prims[4 + k].v[e].x, ends[k][e].x, 1e-5f);
            ck_assert_float_eq_tol(rec.prims[4 + k].v[e].y, ends[k][e].y, 1e-5f);
        }
    }
    /* not asked for: nothing */
    d = recording_draw(RC_DRAW_TRANSFORMS);
    ck_assert(rc_world_draw(w, &d));
    for (int k = 0; k < rec.count; ++k) {
        ck_assert_int_ne(rec.prims[k].color, RC_COLOR_JOINT);
    }
    rc_world_destroy(w);
}
END_TEST

/* ---- refusals ---------------------------------------------------------------------------------- */

START_TEST(bad_input_is_refused_and_nothing_is_drawn) {
    rc_shape_id box, ball;
    rc_body_id body;
    rc_world *w = scene(&box, &ball, &body);
    rc_debug_draw d = recording_draw(RC_DRAW_ALL);
    ck_assert(!rc_world_draw(NULL, &d));
    ck_assert(!rc_world_draw(w, NULL));
    ck_assert(strstr(rc_world_last_error(w), "rc_world_draw") != NULL);

    struct {
        const char *why;
        uint32_t flags;
        float normal_length;
        bool use_bounds;
        rc_aabb bounds;
    } bad[] = {
        {"unknown flags", (uint32_t)RC_DRAW_ALL + 1u, 0.0f, false, {{0, 0}, {0, 0}}},
        {"normal_length", RC_DRAW_ALL, -1.0f, false, {{0, 0}, {0, 0}}},
        {"normal_length", RC_DRAW_ALL, NAN, false, {{0, 0}, {0, 0}}},
        {"normal_length", RC_DRAW_ALL, INFINITY, false, {{0, 0}, {0, 0}}},
        {"bounds", RC_DRAW_ALL, 0.0f, true, {{1, 0}, {0, 1}}},
        {"bounds", RC_DRAW_ALL, 0.0f, true, {{0, 0}, {INFINITY, 1}}},
        {"bounds", RC_DRAW_ALL, 0.0f, true, {{NAN, 0}, {1, 1}}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        rc_world_clear_error(w);
        d = recording_draw(bad[i].flags);
        d.normal_length = bad[i].normal_length;
        d.use_bounds = bad[i].use_bounds;
        d.bounds = bad[i].bounds;
        ck_assert_msg(!rc_world_draw(w, &d), "case %zu accepted", i);
        ck_assert_int_eq(rec.count, 0);
        ck_assert_msg(strstr(rc_world_last_error(w), bad[i].why) != NULL, "case %zu: %s", i, rc_world_last_error(w));
    }
    /* the same bounds with use_bounds off are not looked at */
    d = recording_draw(RC_DRAW_SHAPES);
    d.bounds = bad[4].bounds;
    ck_assert(rc_world_draw(w, &d));
    ck_assert_int_eq(rec.count, 4);
    rc_world_destroy(w);
}
END_TEST

int main(void) {
    Suite *s = suite_create("draw");
    TCase *shapes = tcase_create("shapes");
    tcase_add_test(shapes, shapes_are_filled_and_outlined_static_first);
    tcase_add_test(shapes, joints_are_drawn_from_centre_to_anchor_to_anchor_to_centre);
    tcase_add_test(shapes, outlines_fall_back_to_segments_and_missing_callbacks_are_skipped);
    tcase_add_test(shapes, boxes_match_the_shapes_aabbs);
    tcase_add_test(shapes, sleeping_bodies_bullets_sensors_and_kinematic_bodies_have_their_colours);
    tcase_add_test(shapes, one_sided_walls_get_a_tick_on_their_free_side);
    tcase_add_test(shapes, bounds_keep_what_overlaps_them);
    suite_add_tcase(s, shapes);
    TCase *layers = tcase_create("layers");
    tcase_add_test(layers, grid_cells_in_use_are_outlined);
    tcase_add_test(layers, the_grid_top_cell_has_no_edges_to_draw);
    tcase_add_test(layers, frames_are_drawn_for_moving_bodies_only);
    tcase_add_test(layers, resting_contacts_show_their_points_and_normals);
    tcase_add_test(layers, impacts_of_the_last_step_show_where_and_which_way);
    tcase_add_test(layers, counters_line_reads_the_world);
    suite_add_tcase(s, layers);
    TCase *refusals = tcase_create("refusals");
    tcase_add_test(refusals, bad_input_is_refused_and_nothing_is_drawn);
    suite_add_tcase(s, refusals);
    return rc_test_run(s);
}
