/* ricochet/draw.h: debug draw. The world describes itself to a struct of callbacks that the
 * game fills in with its own renderer (SDL, OpenGL, a software rasteriser, a log), so that
 * what the world holds can be seen: shapes coloured by body type and sleep state, their boxes,
 * the grid cells in use, contact points with their normals, the impacts of the last step,
 * body frames and a line of counters.
 *
 * Drawing reads the world and changes nothing in it; nothing is allocated. Coordinates handed
 * to the callbacks are world coordinates (the same units as the bodies); the renderer maps
 * them to pixels. A callback left NULL is skipped, so a renderer that only draws segments
 * still gets every outline through draw_segment when draw_polygon is NULL (see below). */
#ifndef RICOCHET_DRAW_H
#define RICOCHET_DRAW_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A colour as 0xRRGGBB. */
typedef uint32_t rc_color;

/* The colours rc_world_draw uses. */
enum {
    RC_COLOR_STATIC = 0x7f8c8d,    /* shapes of static bodies */
    RC_COLOR_KINEMATIC = 0x5dade2, /* shapes of kinematic bodies */
    RC_COLOR_DYNAMIC = 0xf5b041,   /* shapes of awake dynamic bodies */
    RC_COLOR_SLEEPING = 0x8e7cc3,  /* shapes of sleeping dynamic bodies (with RC_DRAW_SLEEP) */
    RC_COLOR_BULLET = 0xf1c40f,    /* bullets (rc_body_is_bullet) and swept point bodies */
    RC_COLOR_SENSOR = 0x58d68d,    /* sensor shapes, outlined only */
    RC_COLOR_AABB = 0xd35400,      /* shape boxes */
    RC_COLOR_GRID = 0x34495e,      /* grid cells in use */
    RC_COLOR_CONTACT = 0xe74c3c,   /* touching contact points */
    RC_COLOR_NORMAL = 0xecf0f1,    /* contact and impact normals */
    RC_COLOR_IMPACT = 0xff3b30,    /* impact points of the last step */
    RC_COLOR_TEXT = 0xffffff,      /* the counters line */
    RC_COLOR_JOINT = 0xd7bde2      /* joints: the line from each body's centre to its anchor, between
                                      the anchors, and the anchors */
};

/* What rc_world_draw shows: any combination of these bits. */
typedef enum rc_draw_flags {
    RC_DRAW_SHAPES = 1u << 0,     /* every shape: filled and outlined; a one-sided wall also gets a
                                     short tick on its free side; a point body a point */
    RC_DRAW_AABBS = 1u << 1,      /* each shape's tight box */
    RC_DRAW_GRID = 1u << 2,       /* every grid cell that holds at least one proxy, on every level
                                     (but the top level's one unbounded cell) */
    RC_DRAW_CONTACTS = 1u << 3,   /* touching contacts: each manifold point and its normal (from
                                     the first shape to the second) */
    RC_DRAW_IMPACTS = 1u << 4,    /* the last step's impact events: the point and the surface normal */
    RC_DRAW_SLEEP = 1u << 5,      /* colour sleeping dynamic bodies apart from awake ones */
    RC_DRAW_TRANSFORMS = 1u << 6, /* each non-static body's frame, through draw_transform */
    RC_DRAW_STATS = 1u << 7,      /* one line of counters (bodies, awake, shapes, contacts, joints,
                                     impacts, proxies, cells) through draw_text */
    RC_DRAW_JOINTS = 1u << 8,     /* each joint: segments from body_a's centre of mass to its anchor,
                                     between the anchors (a mouse joint: from the target) and from
                                     body_b's anchor to its centre (none to a static body's centre),
                                     and a point at each anchor */
    RC_DRAW_ALL = 0x1ffu
} rc_draw_flags;

/* The callbacks. Each gets `context` as its last argument. The pointers handed to a callback
 * are valid only during the call. */
typedef struct rc_debug_draw {
    /* A closed outline through `count` points (3 or more), counter-clockwise. When NULL,
       outlines go to draw_segment edge by edge. */
    void (*draw_polygon)(const rc_vec2 *points, int32_t count, rc_color color, void *context);
    /* A filled convex polygon, counter-clockwise. NULL: not filled. */
    void (*draw_solid_polygon)(const rc_vec2 *points, int32_t count, rc_color color, void *context);
    /* A circle outline. NULL: not outlined. */
    void (*draw_circle)(rc_vec2 center, float radius, rc_color color, void *context);
    /* A filled circle; `axis` is the unit direction of the body's x axis, for a spoke that
       shows rotation. NULL: not filled. */
    void (*draw_solid_circle)(rc_vec2 center, float radius, rc_vec2 axis, rc_color color, void *context);
    /* A capsule: the segment p1..p2 rounded by radius, outlined and filled. NULL: the capsule's
       outline goes as a convex polygon of 16 points to draw_polygon (or draw_segment) and
       draw_solid_polygon. */
    void (*draw_capsule)(rc_vec2 p1, rc_vec2 p2, float radius, rc_color color, void *context);
    void (*draw_solid_capsule)(rc_vec2 p1, rc_vec2 p2, float radius, rc_color color, void *context);
    /* A line segment: chain walls, normals, boxes and cells when draw_polygon is NULL. */
    void (*draw_segment)(rc_vec2 a, rc_vec2 b, rc_color color, void *context);
    /* A point `size` pixels across (a size on screen, not in world units). */
    void (*draw_point)(rc_vec2 p, float size, rc_color color, void *context);
    /* A body frame: its origin and rotation. */
    void (*draw_transform)(rc_transform xf, void *context);
    /* A line of text whose top-left corner is at `p` (world units); `text` is NUL-terminated. */
    void (*draw_text)(rc_vec2 p, const char *text, rc_color color, void *context);

    /* With use_bounds, only what overlaps `bounds` is drawn (shapes, boxes and cells found
       through the grid, so a small window over a large level costs little), and the
       counters line sits at the bounds' top-left corner (else at the origin). */
    rc_aabb bounds;
    bool use_bounds;
    /* The length in world units of normals and frame axes; 0 picks one from the grid's
       cell size. */
    float normal_length;
    uint32_t flags; /* rc_draw_flags */
    void *context;  /* handed to every callback */
} rc_debug_draw;

/* Every callback NULL, flags RC_DRAW_SHAPES, no bounds, normal_length 0. */
RC_API rc_debug_draw rc_default_debug_draw(void);

/* Describe the world to `draw`: what its flags ask for, in this order: grid cells, shapes,
 * boxes, frames, contacts, impacts, counters (so that later layers draw on top). Returns
 * false, and draws nothing, when `world` or `draw` is NULL, when the flags hold unknown bits,
 * when normal_length is negative or not finite, or when use_bounds is set with a box that is
 * not finite or has its lower corner above its upper one. Never changes the world. */
RC_API bool rc_world_draw(const rc_world *world, const rc_debug_draw *draw);

#ifdef __cplusplus
}
#endif

#endif
