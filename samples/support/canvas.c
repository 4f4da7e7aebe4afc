/* The samples' software rasteriser (canvas.h). */
#include "canvas.h"

#include <stb_image_write.h>

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each row holds the 4 x 7 sub-scanlines' coverage of its pixels while a shape is filled. */
enum { SUBSAMPLES = 4, MAX_CROSSINGS = 64 };

bool canvas_init(canvas *c, int width, int height) {
    memset(c, 0, sizeof *c);
    c->rgba = calloc((size_t)width * (size_t)height, 4);
    if (c->rgba == NULL) {
        return false;
    }
    c->width = width;
    c->height = height;
    c->scale = 1.0f;
    c->text_scale = 2;
    c->view = (rc_aabb){{0.0f, 0.0f}, {(float)width, (float)height}};
    c->offset = rc_v2(0.0f, (float)height);
    return true;
}

void canvas_free(canvas *c) {
    free(c->rgba);
    memset(c, 0, sizeof *c);
}

void canvas_clear(canvas *c, rc_color color) {
    for (int i = 0; i < c->width * c->height; ++i) {
        c->rgba[4 * i + 0] = (uint8_t)(color >> 16);
        c->rgba[4 * i + 1] = (uint8_t)(color >> 8);
        c->rgba[4 * i + 2] = (uint8_t)color;
        c->rgba[4 * i + 3] = 255;
    }
}

void canvas_set_view(canvas *c, rc_aabb box, float margin) {
    float w = box.upper.x - box.lower.x, h = box.upper.y - box.lower.y;
    float sx = ((float)c->width - 2.0f * margin) / w, sy = ((float)c->height - 2.0f * margin) / h;
    c->scale = sx < sy ? sx : sy;
    /* centre the box: the pixel of the world origin */
    float used_w = w * c->scale, used_h = h * c->scale;
    float left = 0.5f * ((float)c->width - used_w), top = 0.5f * ((float)c->height - used_h);
    c->offset = rc_v2(left - box.lower.x * c->scale, top + box.upper.y * c->scale);
    c->view.lower = canvas_to_world(c, rc_v2(0.0f, (float)c->height));
    c->view.upper = canvas_to_world(c, rc_v2((float)c->width, 0.0f));
}

rc_vec2 canvas_to_pixel(const canvas *c, rc_vec2 world) {
    return rc_v2(c->offset.x + world.x * c->scale, c->offset.y - world.y * c->scale);
}

rc_vec2 canvas_to_world(const canvas *c, rc_vec2 pixel) {
    return rc_v2((pixel.x - c->offset.x) / c->scale, (c->offset.y - pixel.y) / c->scale);
}

/* ---- pixels ------------------------------------------------------------------------------------ */

static float clamp01(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

static void blend(canvas *c, int x, int y, rc_color color, float alpha) {
    if (x < 0 || y < 0 || x >= c->width || y >= c->height || alpha <= 0.0f) {
        return;
    }
    uint8_t *p = c->rgba + 4 * ((size_t)y * (size_t)c->width + (size_t)x);
    const float src[3] = {(float)((color >> 16) & 0xff), (float)((color >> 8) & 0xff), (float)(color & 0xff)};
    for (int k = 0; k < 3; ++k) {
        float v = (float)p[k] + (src[k] - (float)p[k]) * alpha;
        p[k] = (uint8_t)(v + 0.5f);
    }
}

static int floor_int(float v) {
    int i = (int)v;
    return (float)i > v ? i - 1 : i;
}

static int clamp_int(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Lines and rings: coverage from the distance of each pixel centre to the centre line. */
static float distance_to_segment(float px, float py, float ax, float ay, float bx, float by) {
    float dx = bx - ax, dy = by - ay, qx = px - ax, qy = py - ay;
    float dd = dx * dx + dy * dy;
    float t = dd > 0.0f ? clamp01((qx * dx + qy * dy) / dd) : 0.0f;
    float ex = qx - t * dx, ey = qy - t * dy;
    return sqrtf(ex * ex + ey * ey);
}

static void line_px(canvas *c, rc_vec2 a, rc_vec2 b, float width, rc_color color, float alpha) {
    float reach = 0.5f * width + 1.0f;
    float top = a.y < b.y ? a.y : b.y, bottom = a.y < b.y ? b.y : a.y;
    int y0 = clamp_int(floor_int(top - reach), 0, c->height), y1 = clamp_int(floor_int(bottom + reach) + 1, 0, c->height);
    float dx = b.x - a.x, dy = b.y - a.y;
    for (int y = y0; y < y1; ++y) {
        float yc = (float)y + 0.5f;
        /* the part of the segment within `reach` of this row, in x */
        float t0 = 0.0f, t1 = 1.0f;
        if (dy != 0.0f) {
            float ta = (yc - reach - a.y) / dy, tb = (yc + reach - a.y) / dy;
            if (ta > tb) {
                float s = ta;
                ta = tb;
                tb = s;
            }
            t0 = ta > 0.0f ? ta : 0.0f;
            t1 = tb < 1.0f ? tb : 1.0f;
            if (t0 > t1) {
                continue;
            }
        }
        float xa = a.x + t0 * dx, xb = a.x + t1 * dx;
        float left = (xa < xb ? xa : xb) - reach, right = (xa < xb ? xb : xa) + reach;
        int x0 = clamp_int(floor_int(left), 0, c->width), x1 = clamp_int(floor_int(right) + 1, 0, c->width);
        for (int x = x0; x < x1; ++x) {
            float d = distance_to_segment((float)x + 0.5f, yc, a.x, a.y, b.x, b.y);
            float cover = clamp01(0.5f * width + 0.5f - d);
            if (cover > 0.0f) {
                blend(c, x, y, color, alpha * cover);
            }
        }
    }
}

void canvas_line(canvas *c, rc_vec2 a, rc_vec2 b, float width, rc_color color, float alpha) {
    line_px(c, canvas_to_pixel(c, a), canvas_to_pixel(c, b), width, color, alpha);
}

void canvas_circle(canvas *c, rc_vec2 center, float radius, float width, rc_color color, float alpha) {
    rc_vec2 p = canvas_to_pixel(c, center);
    float r = radius * c->scale, reach = r + 0.5f * width + 1.0f;
    int x0 = clamp_int(floor_int(p.x - reach), 0, c->width), x1 = clamp_int(floor_int(p.x + reach) + 1, 0, c->width);
    int y0 = clamp_int(floor_int(p.y - reach), 0, c->height), y1 = clamp_int(floor_int(p.y + reach) + 1, 0, c->height);
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            float qx = (float)x + 0.5f - p.x, qy = (float)y + 0.5f - p.y;
            float d = sqrtf(qx * qx + qy * qy) - r;
            float cover = clamp01(0.5f * width + 0.5f - (d < 0.0f ? -d : d));
            if (cover > 0.0f) {
                blend(c, x, y, color, alpha * cover);
            }
        }
    }
}

/* ---- fills: spans on sub-scanlines, summed into a row of coverage ------------------------------ */

typedef struct coverage_row {
    float *cover;
    int lo, hi; /* the pixels touched, [lo, hi) */
} coverage_row;

static void add_span(canvas *c, coverage_row *row, float xl, float xr, float weight) {
    if (xr <= xl) {
        return;
    }
    if (xl < 0.0f) {
        xl = 0.0f;
    }
    if (xr > (float)c->width) {
        xr = (float)c->width;
    }
    if (xr <= xl) {
        return;
    }
    int il = floor_int(xl), ir = floor_int(xr);
    if (ir >= c->width) {
        ir = c->width - 1;
    }
    if (il == ir) {
        row->cover[il] += weight * (xr - xl);
    } else {
        row->cover[il] += weight * ((float)(il + 1) - xl);
        for (int x = il + 1; x < ir; ++x) {
            row->cover[x] += weight;
        }
        row->cover[ir] += weight * (xr - (float)ir);
    }
    if (il < row->lo) {
        row->lo = il;
    }
    if (ir + 1 > row->hi) {
        row->hi = ir + 1;
    }
}

static void flush_row(canvas *c, coverage_row *row, int y, rc_color color, float alpha) {
    for (int x = row->lo; x < row->hi; ++x) {
        blend(c, x, y, color, alpha * clamp01(row->cover[x]));
        row->cover[x] = 0.0f;
    }
    row->lo = c->width;
    row->hi = 0;
}

static bool row_begin(canvas *c, coverage_row *row) {
    row->cover = calloc((size_t)c->width, sizeof(float));
    row->lo = c->width;
    row->hi = 0;
    return row->cover != NULL;
}

static void sort_floats(float *v, int n) {
    for (int i = 1; i < n; ++i) {
        float x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }
}

/* Even-odd fill of any simple polygon given in pixels. */
static void fill_polygon_px(canvas *c, const rc_vec2 *p, int count, rc_color color, float alpha) {
    float top = p[0].y;
    float bottom = top;
    for (int i = 1; i < count; ++i) {
        top = p[i].y < top ? p[i].y : top;
        bottom = p[i].y > bottom ? p[i].y : bottom;
    }
    int y0 = clamp_int(floor_int(top), 0, c->height), y1 = clamp_int(floor_int(bottom) + 1, 0, c->height);
    coverage_row row;
    if (y0 >= y1 || !row_begin(c, &row)) {
        return;
    }
    for (int y = y0; y < y1; ++y) {
        for (int s = 0; s < SUBSAMPLES; ++s) {
            float ys = (float)y + ((float)s + 0.5f) / (float)SUBSAMPLES;
            float xs[MAX_CROSSINGS];
            int n = 0;
            for (int i = 0, j = count - 1; i < count && n < MAX_CROSSINGS; j = i++) {
                rc_vec2 a = p[j], b = p[i];
                /* half-open in y, so that a vertex on the sub-scanline counts once */
                if ((a.y <= ys) != (b.y <= ys)) {
                    xs[n++] = a.x + (ys - a.y) / (b.y - a.y) * (b.x - a.x);
                }
            }
            sort_floats(xs, n);
            for (int k = 0; k + 1 < n; k += 2) {
                add_span(c, &row, xs[k], xs[k + 1], 1.0f / (float)SUBSAMPLES);
            }
        }
        flush_row(c, &row, y, color, alpha);
    }
    free(row.cover);
}

void canvas_fill_polygon(canvas *c, const rc_vec2 *points, int count, rc_color color, float alpha) {
    rc_vec2 px[64] = {{0.0f, 0.0f}};
    if (count < 3 || count > (int)(sizeof px / sizeof px[0])) {
        return;
    }
    for (int i = 0; i < count; ++i) {
        px[i] = canvas_to_pixel(c, points[i]);
    }
    fill_polygon_px(c, px, count, color, alpha);
}

static void fill_circle_px(canvas *c, rc_vec2 p, float r, rc_color color, float alpha) {
    int y0 = clamp_int(floor_int(p.y - r), 0, c->height), y1 = clamp_int(floor_int(p.y + r) + 1, 0, c->height);
    coverage_row row;
    if (y0 >= y1 || !row_begin(c, &row)) {
        return;
    }
    for (int y = y0; y < y1; ++y) {
        for (int s = 0; s < SUBSAMPLES; ++s) {
            float dy = (float)y + ((float)s + 0.5f) / (float)SUBSAMPLES - p.y;
            float h = r * r - dy * dy;
            if (h > 0.0f) {
                float half = sqrtf(h);
                add_span(c, &row, p.x - half, p.x + half, 1.0f / (float)SUBSAMPLES);
            }
        }
        flush_row(c, &row, y, color, alpha);
    }
    free(row.cover);
}

void canvas_fill_circle(canvas *c, rc_vec2 center, float radius, rc_color color, float alpha) {
    fill_circle_px(c, canvas_to_pixel(c, center), radius * c->scale, color, alpha);
}

void canvas_point(canvas *c, rc_vec2 p, float size, rc_color color, float alpha) {
    fill_circle_px(c, canvas_to_pixel(c, p), 0.5f * size, color, alpha);
}

void canvas_fill_rect(canvas *c, int x, int y, int w, int h, rc_color color, float alpha) {
    for (int j = y < 0 ? 0 : y; j < y + h && j < c->height; ++j) {
        for (int i = x < 0 ? 0 : x; i < x + w && i < c->width; ++i) {
            blend(c, i, j, color, alpha);
        }
    }
}

/* ---- text -------------------------------------------------------------------------------------- */

/* 5 x 7 glyphs for ' ' (32) to '_' (95): a row a byte, the leftmost pixel in bit 4. */
static const uint8_t font[64][7] = {
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* ' ' */
    {0x04,0x04,0x04,0x04,0x04,0x00,0x04}, /* '!' */
    {0x0a,0x0a,0x00,0x00,0x00,0x00,0x00}, /* '"' */
    {0x0a,0x0a,0x1f,0x0a,0x1f,0x0a,0x0a}, /* '#' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* '$' */
    {0x18,0x19,0x02,0x04,0x08,0x13,0x03}, /* '%' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* '&' */
    {0x04,0x04,0x08,0x00,0x00,0x00,0x00}, /* "'" */
    {0x02,0x04,0x08,0x08,0x08,0x04,0x02}, /* '(' */
    {0x08,0x04,0x02,0x02,0x02,0x04,0x08}, /* ')' */
    {0x00,0x04,0x15,0x0e,0x15,0x04,0x00}, /* '*' */
    {0x00,0x04,0x04,0x1f,0x04,0x04,0x00}, /* '+' */
    {0x00,0x00,0x00,0x00,0x0c,0x04,0x08}, /* ',' */
    {0x00,0x00,0x00,0x1f,0x00,0x00,0x00}, /* '-' */
    {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c}, /* '.' */
    {0x01,0x02,0x02,0x04,0x08,0x08,0x10}, /* '/' */
    {0x0e,0x11,0x13,0x15,0x19,0x11,0x0e}, /* '0' */
    {0x04,0x0c,0x04,0x04,0x04,0x04,0x0e}, /* '1' */
    {0x0e,0x11,0x01,0x02,0x04,0x08,0x1f}, /* '2' */
    {0x1f,0x02,0x04,0x02,0x01,0x11,0x0e}, /* '3' */
    {0x02,0x06,0x0a,0x12,0x1f,0x02,0x02}, /* '4' */
    {0x1f,0x10,0x1e,0x01,0x01,0x11,0x0e}, /* '5' */
    {0x06,0x08,0x10,0x1e,0x11,0x11,0x0e}, /* '6' */
    {0x1f,0x01,0x02,0x04,0x08,0x08,0x08}, /* '7' */
    {0x0e,0x11,0x11,0x0e,0x11,0x11,0x0e}, /* '8' */
    {0x0e,0x11,0x11,0x0f,0x01,0x02,0x0c}, /* '9' */
    {0x00,0x0c,0x0c,0x00,0x0c,0x0c,0x00}, /* ':' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* ';' */
    {0x02,0x04,0x08,0x10,0x08,0x04,0x02}, /* '<' */
    {0x00,0x00,0x1f,0x00,0x1f,0x00,0x00}, /* '=' */
    {0x08,0x04,0x02,0x01,0x02,0x04,0x08}, /* '>' */
    {0x0e,0x11,0x01,0x02,0x04,0x00,0x04}, /* '?' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* '@' */
    {0x0e,0x11,0x11,0x1f,0x11,0x11,0x11}, /* 'A' */
    {0x1e,0x11,0x11,0x1e,0x11,0x11,0x1e}, /* 'B' */
    {0x0e,0x11,0x10,0x10,0x10,0x11,0x0e}, /* 'C' */
    {0x1e,0x11,0x11,0x11,0x11,0x11,0x1e}, /* 'D' */
    {0x1f,0x10,0x10,0x1e,0x10,0x10,0x1f}, /* 'E' */
    {0x1f,0x10,0x10,0x1e,0x10,0x10,0x10}, /* 'F' */
    {0x0e,0x11,0x10,0x17,0x11,0x11,0x0f}, /* 'G' */
    {0x11,0x11,0x11,0x1f,0x11,0x11,0x11}, /* 'H' */
    {0x0e,0x04,0x04,0x04,0x04,0x04,0x0e}, /* 'I' */
    {0x07,0x02,0x02,0x02,0x02,0x12,0x0c}, /* 'J' */
    {0x11,0x12,0x14,0x18,0x14,0x12,0x11}, /* 'K' */
    {0x10,0x10,0x10,0x10,0x10,0x10,0x1f}, /* 'L' */
    {0x11,0x1b,0x15,0x15,0x11,0x11,0x11}, /* 'M' */
    {0x11,0x11,0x19,0x15,0x13,0x11,0x11}, /* 'N' */
    {0x0e,0x11,0x11,0x11,0x11,0x11,0x0e}, /* 'O' */
    {0x1e,0x11,0x11,0x1e,0x10,0x10,0x10}, /* 'P' */
    {0x0e,0x11,0x11,0x11,0x15,0x12,0x0d}, /* 'Q' */
    {0x1e,0x11,0x11,0x1e,0x14,0x12,0x11}, /* 'R' */
    {0x0f,0x10,0x10,0x0e,0x01,0x01,0x1e}, /* 'S' */
    {0x1f,0x04,0x04,0x04,0x04,0x04,0x04}, /* 'T' */
    {0x11,0x11,0x11,0x11,0x11,0x11,0x0e}, /* 'U' */
    {0x11,0x11,0x11,0x11,0x11,0x0a,0x04}, /* 'V' */
    {0x11,0x11,0x11,0x15,0x15,0x15,0x0a}, /* 'W' */
    {0x11,0x11,0x0a,0x04,0x0a,0x11,0x11}, /* 'X' */
    {0x11,0x11,0x0a,0x04,0x04,0x04,0x04}, /* 'Y' */
    {0x1f,0x01,0x02,0x04,0x08,0x10,0x1f}, /* 'Z' */
    {0x0e,0x08,0x08,0x08,0x08,0x08,0x0e}, /* '[' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* '\\' */
    {0x0e,0x02,0x02,0x02,0x02,0x02,0x0e}, /* ']' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /* '^' */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x1f}, /* '_' */
};

enum { GLYPH_ADVANCE = 6 };

int canvas_text_width(const char *text, int scale) { return (int)strlen(text) * GLYPH_ADVANCE * scale; }

int canvas_text(canvas *c, int x, int y, const char *text, int scale, rc_color color) {
    for (const char *t = text; *t != '\0'; ++t) {
        int ch = (unsigned char)*t;
        if (ch >= 'a' && ch <= 'z') {
            ch -= 'a' - 'A';
        }
        if (ch < 32 || ch > 95) {
            ch = '?';
        }
        const uint8_t *glyph = font[ch - 32];
        for (int row = 0; row < 7; ++row) {
            for (int col = 0; col < 5; ++col) {
                if (glyph[row] & (0x10 >> col)) {
                    canvas_fill_rect(c, x + col * scale, y + row * scale, scale, scale, color, 1.0f);
                }
            }
        }
        x += GLYPH_ADVANCE * scale;
    }
    return x;
}

/* ---- debug draw -------------------------------------------------------------------------------- */

static void dd_polygon(const rc_vec2 *points, int32_t count, rc_color color, void *context) {
    for (int32_t i = 0, j = count - 1; i < count; j = i++) {
        canvas_line(context, points[j], points[i], 1.5f, color, 1.0f);
    }
}

static void dd_solid_polygon(const rc_vec2 *points, int32_t count, rc_color color, void *context) {
    canvas_fill_polygon(context, points, count, color, 1.0f);
}

static void dd_circle(rc_vec2 center, float radius, rc_color color, void *context) {
    canvas_circle(context, center, radius, 1.5f, color, 1.0f);
}

static void dd_solid_circle(rc_vec2 center, float radius, rc_vec2 axis, rc_color color, void *context) {
    canvas_fill_circle(context, center, radius, color, 1.0f);
    /* the spoke in the outline's colour: the fill is the outline at half brightness */
    rc_color bright = (color << 1) & 0xfefefeu;
    canvas_line(context, center, rc_add(center, rc_scale(radius, axis)), 1.5f, bright, 1.0f);
}

static void dd_segment(rc_vec2 a, rc_vec2 b, rc_color color, void *context) {
    canvas_line(context, a, b, 2.0f, color, 1.0f);
}

static void dd_point(rc_vec2 p, float size, rc_color color, void *context) {
    canvas_point(context, p, size, color, 1.0f);
}

static void dd_transform(rc_transform xf, void *context) {
    canvas *c = context;
    float length = 16.0f / c->scale; /* 16 pixels whatever the zoom */
    rc_vec2 x_axis = {xf.q.c, xf.q.s}, y_axis = {-xf.q.s, xf.q.c};
    canvas_line(c, xf.p, rc_add(xf.p, rc_scale(length, x_axis)), 1.5f, 0xe74c3c, 1.0f);
    canvas_line(c, xf.p, rc_add(xf.p, rc_scale(length, y_axis)), 1.5f, 0x2ecc71, 1.0f);
}

static void dd_text(rc_vec2 p, const char *text, rc_color color, void *context) {
    canvas *c = context;
    rc_vec2 px = canvas_to_pixel(c, p);
    int x = floor_int(px.x) + 4, y = floor_int(px.y) + 4;
    if (x < 4) {
        x = 4;
    }
    if (y < 4) {
        y = 4;
    }
    canvas_text(c, x, y, text, c->text_scale, color);
}

rc_debug_draw canvas_debug_draw(canvas *c) {
    rc_debug_draw d = rc_default_debug_draw();
    d.draw_polygon = dd_polygon;
    d.draw_solid_polygon = dd_solid_polygon;
    d.draw_circle = dd_circle;
    d.draw_solid_circle = dd_solid_circle;
    d.draw_segment = dd_segment;
    d.draw_point = dd_point;
    d.draw_transform = dd_transform;
    d.draw_text = dd_text;
    d.context = c;
    return d;
}

/* ---- files ------------------------------------------------------------------------------------- */

bool canvas_write_png(const canvas *c, const char *path) {
    return stbi_write_png(path, c->width, c->height, 4, c->rgba, c->width * 4) != 0;
}

bool canvas_hash_file(const char *path, uint64_t *hash) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    uint64_t h = 1469598103934665603ull;
    int ch;
    while ((ch = fgetc(f)) != EOF) {
        h = (h ^ (uint64_t)(unsigned char)ch) * 1099511628211ull;
    }
    bool ok = !ferror(f);
    fclose(f);
    *hash = h;
    return ok;
}
