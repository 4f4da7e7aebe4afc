/* canvas: a small software rasteriser for the samples, and a debug-draw renderer on top of it.
 *
 * An RGBA image (8 bits a channel, rows from the top) with a view that maps a box of the world
 * onto it (y up in the world, down in the image). Lines, circle outlines and points are
 * anti-aliased by their distance to each pixel centre; polygons and discs are filled with
 * coverage along their edges. Only + - * / and sqrtf are used, so the same calls give the same
 * bytes with any compiler and optimisation level (the demo's image hash relies on it).
 * Text uses a built-in 5 x 7 pixel font (upper case, digits, punctuation; lower case is drawn
 * upper case). */
#ifndef RICOCHET_SAMPLES_CANVAS_H
#define RICOCHET_SAMPLES_CANVAS_H

#include <ricochet/ricochet.h>

#include <stdint.h>

typedef struct canvas {
    int width, height;
    uint8_t *rgba;    /* width * height * 4 bytes, owned */
    rc_aabb view;     /* the world box shown (fitted, centred) */
    float scale;      /* pixels per world unit */
    rc_vec2 offset;   /* pixel of the world origin */
    int text_scale;   /* font pixels per glyph pixel for world-anchored text */
} canvas;

/* Allocates the image (black); false when out of memory. */
bool canvas_init(canvas *c, int width, int height);
void canvas_free(canvas *c);
void canvas_clear(canvas *c, rc_color color);
/* Shows `box` of the world, as large as fits with `margin` pixels around, centred. */
void canvas_set_view(canvas *c, rc_aabb box, float margin);
rc_vec2 canvas_to_pixel(const canvas *c, rc_vec2 world);
rc_vec2 canvas_to_world(const canvas *c, rc_vec2 pixel);

/* In world coordinates; `alpha` in [0, 1] blends over what is there; widths in pixels. */
void canvas_line(canvas *c, rc_vec2 a, rc_vec2 b, float width, rc_color color, float alpha);
void canvas_fill_polygon(canvas *c, const rc_vec2 *points, int count, rc_color color, float alpha);
void canvas_circle(canvas *c, rc_vec2 center, float radius, float width, rc_color color, float alpha);
void canvas_fill_circle(canvas *c, rc_vec2 center, float radius, rc_color color, float alpha);
void canvas_point(canvas *c, rc_vec2 p, float size, rc_color color, float alpha);

/* In pixels: the glyphs' top-left corner at (x, y), each glyph pixel `scale` pixels wide.
 * Returns the x just past the text. */
int canvas_text(canvas *c, int x, int y, const char *text, int scale, rc_color color);
int canvas_text_width(const char *text, int scale);
/* A filled pixel rectangle, blended. */
void canvas_fill_rect(canvas *c, int x, int y, int w, int h, rc_color color, float alpha);

/* A debug-draw whose callbacks draw into the canvas; its flags are RC_DRAW_SHAPES, its
 * context the canvas. */
rc_debug_draw canvas_debug_draw(canvas *c);

/* Writes the image as a PNG; false on failure. */
bool canvas_write_png(const canvas *c, const char *path);

/* FNV-1a 64 over a file's bytes; false when it cannot be read. */
bool canvas_hash_file(const char *path, uint64_t *hash);

#endif
