/* The character mover (mover.h).
 *
 * Hand-worked cases: sliding along flat walls (axis-aligned and tilted, the answer is the start
 * plus the part of delta along the wall), resting in concave corners and against walls (the
 * answer is the start, bit for bit), moving away, delta 0, gaps between pillars narrower and
 * wider than the walker, a corridor just wide enough, a huge delta towards a thin wall, a floor
 * of boxes side by side (no bump at the seams), a long slide, the same scenes at huge and tiny
 * scales with polygon walls in both windings, touches, what blocks (body types, sensors,
 * filters, the ignored body), overlapping and squeezed starts, and every refused input.
 *
 * A random property test: rooms (four thin box walls or a floor of tiles, sometimes rotated
 * and far from the origin, thin walls inside) with random circle and polygon pillars on bodies
 * of every type, some sensors and some shapes the walker's filter excludes; walkers placed
 * where an independent double-precision distance (point to circle, point to convex polygon,
 * written here) says they are legal, then moved many times by random deltas (pushes at the
 * nearest surface, short, long and zero moves), each from where the last move left it. After
 * every move: the walker is never nearer to a blocking shape than its radius minus a rounding
 * tolerance (4 float epsilons of its coordinates, radius and the room's size), never left the
 * room, moved no further than |delta| (exactly, in double), and its touches agree with the
 * reference distances. The counts and the least clearance seen are printed. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- scenes ------------------------------------------------------------------------------------ */

static rc_world *new_world(void) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

static rc_body_id new_body(rc_world *w, rc_body_type type, rc_vec2 p, float angle) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.angle = angle;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert_msg(!rc_body_id_is_null(b), "%s", rc_world_last_error(w));
    return b;
}

static rc_shape_id add_box(rc_world *w, rc_body_id b, rc_vec2 offset, float hw, float hh) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = offset;
    rc_shape_id s = rc_shape_create_box(w, b, &sd, hw, hh);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

static rc_shape_id add_circle(rc_world *w, rc_body_id b, rc_vec2 offset, float radius) {
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = offset;
    rc_shape_id s = rc_shape_create_circle(w, b, &sd, radius);
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(w));
    return s;
}

/* A static box in its own body. */
static rc_shape_id static_box(rc_world *w, rc_vec2 center, float hw, float hh, float angle) {
    return add_box(w, new_body(w, RC_STATIC, center, angle), rc_v2(0.0f, 0.0f), hw, hh);
}

/* ---- the reference: signed distances in double ---------------------------------------------- */

static double ref_circle(rc_circle c, double px, double py) {
    return hypot(px - c.center.x, py - c.center.y) - c.radius;
}

/* Squared distance from p to the segment a..b. */
static double seg_dist2(double ax, double ay, double bx, double by, double px, double py) {
    double ex = bx - ax, ey = by - ay;
    double ee = ex * ex + ey * ey;
    double t = ee > 0.0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    double dx = px - (ax + t * ex), dy = py - (ay + t * ey);
    return dx * dx + dy * dy;
}

/* Counter-clockwise convex polygon: negative inside. */
static double ref_polygon(const rc_polygon *poly, double px, double py) {
    int n = poly->count;
    double max_sep = -INFINITY, best = INFINITY;
    for (int i = 0; i < n; ++i) {
        rc_vec2 a = poly->vertices[i], b = poly->vertices[(i + 1) % n];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
        double sep = (ey * (px - a.x) - ex * (py - a.y)) / sqrt(ex * ex + ey * ey); /* right perpendicular: outward */
        max_sep = sep > max_sep ? sep : max_sep;
        double d = seg_dist2(a.x, a.y, b.x, b.y, px, py);
        best = d < best ? d : best;
    }
    return max_sep <= 0.0 ? max_sep : sqrt(best);
}

static double ref_shape(const rc_world *w, rc_shape_id s, double px, double py) {
    if (rc_shape_get_type(w, s) == RC_SHAPE_TYPE_CIRCLE) {
        rc_circle c;
        EXPECT(rc_shape_world_circle(w, s, &c), "not a circle");
        return ref_circle(c, px, py);
    }
    rc_polygon poly;
    EXPECT(rc_shape_world_polygon(w, s, &poly), "not a polygon");
    return ref_polygon(&poly, px, py);
}

static double ref_clearance(const rc_world *w, const rc_shape_id *shapes, int n, rc_vec2 p) {
    double best = INFINITY;
    for (int i = 0; i < n; ++i) {
        double d = ref_shape(w, shapes[i], p.x, p.y);
        best = d < best ? d : best;
    }
    return best;
}

static double dlen(double x, double y) { return hypot(x, y); }

/* Within n float spacings of (ex, ey) on both axes: open-space moves end at position + delta
 * rounded towards the position (never further than |delta|), a spacing or so short. */
#define ck_assert_vec_ulps(v, ex, ey, n)                                                                        \
    do {                                                                                                        \
        rc_vec2 v_ = (v);                                                                                       \
        float ex_ = (float)(ex), ey_ = (float)(ey);                                                             \
        double sx_ = (n) * (double)(nextafterf(fabsf(ex_), INFINITY) - fabsf(ex_));                             \
        double sy_ = (n) * (double)(nextafterf(fabsf(ey_), INFINITY) - fabsf(ey_));                             \
        ck_assert_msg(fabs((double)v_.x - ex_) <= sx_ && fabs((double)v_.y - ey_) <= sy_,                       \
                      "%s = (%.9g, %.9g), expected (%.9g, %.9g) within %d float spacings", #v, (double)v_.x,      \
                      (double)v_.y, (double)ex_, (double)ey_, (int)(n));                                        \
    } while (0)
static double moved(rc_vec2 a, rc_vec2 b) { return dlen((double)b.x - a.x, (double)b.y - a.y); }

/* ---- sliding, resting, moving away ------------------------------------------------------------ */

START_TEST(slides_along_a_floor_at_45_degrees) {
    rc_world *w = new_world();
    rc_shape_id floor = static_box(w, rc_v2(0.0f, -0.5f), 50.0f, 0.5f, 0.0f);
    const float r = 0.5f, skin = 1e-4f; /* the world's skin near the origin */
    rc_vec2 p = rc_v2(0.0f, r + 0.5f * skin);
    rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(1.0f, -1.0f));
    ck_assert_str_eq(rc_world_last_error(w), "");
    /* the part of (1, -1) along the floor is (1, 0); resting, the walker keeps its height */
    ck_assert_vec_near(q, 1.0, p.y, 1e-6);
    ck_assert_float_eq(q.y, p.y);
    ck_assert(ref_shape(w, floor, q.x, q.y) >= r);
    /* and at 45 degrees the other way, from further up: it goes to the point nearest the
       target (0, -1) that keeps r + skin from the floor, (0, r + skin), as a walker that falls
       to the floor and then slides the rest of the way along it would */
    p = rc_v2(3.0f, 2.0f);
    q = rc_world_move_circle(w, p, r, rc_v2(-3.0f, -3.0f));
    ck_assert_vec_near(q, 0.0, r + skin, 1e-6);
    ck_assert(ref_shape(w, floor, q.x, q.y) >= r);
    ck_assert(moved(p, q) <= dlen(3.0, 3.0));
    rc_world_destroy(w);
}
END_TEST

/* A tilted wall: the answer is start + delta - (delta . n) n, worked out in double. */
START_TEST(slides_along_a_tilted_wall) {
    rc_world *w = new_world();
    const float r = 0.5f, skin = 1e-4f;
    for (int k = 0; k < 12; ++k) {
        double theta = -1.4 + 0.25 * k;
        double nx = -sin(theta), ny = cos(theta); /* the top face's outward normal */
        rc_shape_id wall = static_box(w, rc_v2((float)(-0.5 * nx), (float)(-0.5 * ny)), 40.0f, 0.5f, (float)theta);
        rc_vec2 p = rc_v2((float)((r + 0.5 * skin) * nx), (float)((r + 0.5 * skin) * ny));
        /* into the wall at 45 degrees, both ways along it */
        for (int side = -1; side <= 1; side += 2) {
            double tx = ny * side, ty = -nx * side; /* along the wall */
            rc_vec2 d = rc_v2((float)(1.3 * (tx - nx)), (float)(1.3 * (ty - ny)));
            double dn = d.x * nx + d.y * ny;
            double ex = p.x + d.x - dn * nx, ey = p.y + d.y - dn * ny;
            rc_vec2 q = rc_world_move_circle(w, p, r, d);
            ck_assert_vec_near(q, ex, ey, 1e-6);
            ck_assert(ref_shape(w, wall, q.x, q.y) >= r);
            ck_assert(moved(p, q) <= dlen(d.x, d.y));
        }
        /* straight into it: no motion at all */
        for (int j = 1; j <= 4; ++j) {
            float a = 0.01f * (float)(j * j * j);
            rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2((float)(-a * nx), (float)(-a * ny)));
            ck_assert_msg(q.x == p.x && q.y == p.y, "theta %g: pushed into the wall by %g it moved to (%.9g, %.9g)",
                          theta, (double)a, (double)q.x, (double)q.y);
        }
        rc_shape_destroy(w, wall);
    }
    rc_world_destroy(w);
}
END_TEST

/* Two walls meeting at an angle (an L of two boxes on one body), turned and moved anywhere. */
static void corner(rc_world *w, rc_vec2 origin, float angle, float size, rc_shape_id *a, rc_shape_id *b) {
    rc_body_id body = new_body(w, RC_STATIC, origin, angle);
    *a = add_box(w, body, rc_v2(0.0f, -0.5f * size), 10.0f * size, 0.5f * size);               /* floor */
    *b = add_box(w, body, rc_v2(-0.5f * size, 10.0f * size), 0.5f * size, 10.0f * size); /* wall */
}

START_TEST(rests_still_when_pushed_into_a_corner) {
    rc_world *w = new_world();
    ws_rng rng = {77};
    const float r = 0.5f, skin = 1e-4f;
    for (int k = 0; k < 10; ++k) {
        float angle = k == 0 ? 0.0f : ws_range(&rng, -3.0, 3.0);
        rc_shape_id a, b;
        corner(w, rc_v2(0.0f, 0.0f), angle, 1.0f, &a, &b);
        rc_rot q = rc_rot_from_angle(angle);
        rc_vec2 p = rc_rotate(q, rc_v2(r + 0.5f * skin, r + 0.5f * skin));
        for (int j = 0; j < 200; ++j) {
            /* any direction into both walls (in the body frame, both components negative) */
            float phi = ws_range(&rng, 0.02, RC_PI / 2 - 0.02);
            float len = ws_log_range(&rng, 1e-4, 100.0);
            rc_vec2 d = rc_rotate(q, rc_v2(-len * cosf(phi), -len * sinf(phi)));
            rc_vec2 got = rc_world_move_circle(w, p, r, d);
            EXPECT(got.x == p.x && got.y == p.y, "angle %g, delta (%a, %a): moved to (%.9g, %.9g) from (%.9g, %.9g)",
                   (double)angle, (double)d.x, (double)d.y, (double)got.x, (double)got.y, (double)p.x, (double)p.y);
        }
        /* from afar into the corner, then pushed again: the second answer is the first, bit for bit */
        rc_vec2 far = rc_rotate(q, rc_v2(3.0f, 2.0f));
        rc_vec2 first = rc_world_move_circle(w, far, r, rc_rotate(q, rc_v2(-10.0f, -10.0f)));
        double da = ref_shape(w, a, first.x, first.y), db = ref_shape(w, b, first.x, first.y);
        ck_assert_msg(da >= r && db >= r && da <= r + 2 * skin && db <= r + 2 * skin, "in the corner at %.9g, %.9g", da,
                      db);
        rc_vec2 second = rc_world_move_circle(w, first, r, rc_rotate(q, rc_v2(-1.0f, -0.3f)));
        ck_assert(second.x == first.x && second.y == first.y);
        rc_body_destroy(w, rc_shape_body(w, a));
    }
    rc_world_destroy(w);
}
END_TEST

/* An acute wedge (30 degrees): it rests where it first touches both sides. */
START_TEST(rests_in_an_acute_wedge) {
    rc_world *w = new_world();
    const float r = 0.25f;
    rc_vec2 tri[3] = {rc_v2(0.0f, 0.0f), rc_v2(10.0f, 0.0f), rc_v2(10.0f, -5.0f)};
    rc_vec2 tri2[3] = {rc_v2(0.0f, 0.0f), rc_v2(10.0f, 10.0f * tanf(RC_PI / 6)), rc_v2(0.0f, 5.0f)};
    rc_body_id b = new_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id s1 = rc_shape_create_polygon(w, b, &sd, tri, 3);
    rc_shape_id s2 = rc_shape_create_polygon(w, b, &sd, tri2, 3);
    ck_assert(!rc_shape_id_is_null(s1) && !rc_shape_id_is_null(s2));
    rc_shape_id both[2] = {s1, s2};
    rc_vec2 p = rc_v2(8.0f, 1.5f);
    rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(-20.0f, 0.0f));
    double c = ref_clearance(w, both, 2, q);
    ck_assert_msg(c >= r && c <= r + 2e-4, "clearance %.9g", c);
    /* the wedge's bisector point at distance r + skin from both sides */
    double half = RC_PI / 12.0, x = (r + 1e-4) / sin(half);
    ck_assert_vec_near(q, x * cos(half), x * sin(half), 1e-4);
    rc_vec2 again = rc_world_move_circle(w, q, r, rc_v2(-1.0f, 0.1f));
    ck_assert(again.x == q.x && again.y == q.y);
    rc_world_destroy(w);
}
END_TEST

START_TEST(moves_freely_away_and_not_at_all_for_zero) {
    rc_world *w = new_world();
    static_box(w, rc_v2(0.0f, -0.5f), 50.0f, 0.5f, 0.0f);
    const float r = 0.5f;
    rc_vec2 p = rc_v2(1.25f, r + 5e-5f);
    rc_vec2 d = rc_v2(0.75f, 2.5f);
    rc_vec2 q = rc_world_move_circle(w, p, r, d);
    ck_assert_vec_ulps(q, p.x + d.x, p.y + d.y, 1);
    ck_assert(moved(p, q) <= dlen(d.x, d.y));
    /* along it, no nearer */
    q = rc_world_move_circle(w, p, r, rc_v2(-7.0f, 0.0f));
    ck_assert_vec_ulps(q, p.x - 7.0f, p.y, 1);
    ck_assert(q.y == p.y);
    /* delta 0, and -0 */
    q = rc_world_move_circle(w, p, r, rc_v2(0.0f, 0.0f));
    ck_assert(q.x == p.x && q.y == p.y);
    q = rc_world_move_circle(w, p, r, rc_v2(-0.0f, -0.0f));
    ck_assert(q.x == p.x && q.y == p.y);
    /* an empty world: the whole delta, however long */
    rc_world *e = new_world();
    q = rc_world_move_circle(e, rc_v2(3.0f, 4.0f), 1.0f, rc_v2(-1e4f, 2e4f));
    ck_assert_vec_ulps(q, 3.0f - 1e4f, 4.0f + 2e4f, 1);
    /* a point walker (radius 0) is a walker too */
    q = rc_world_move_circle(w, rc_v2(0.0f, 1.0f), 0.0f, rc_v2(0.0f, -5.0f));
    ck_assert(q.y > 0.0f && q.y <= 2e-4f);
    rc_world_destroy(e);
    rc_world_destroy(w);
}
END_TEST

/* Never further than |delta|, for deltas of every length from every start near a few walls. */
START_TEST(never_further_than_delta) {
    rc_world *w = new_world();
    rc_shape_id a, b;
    corner(w, rc_v2(0.0f, 0.0f), 0.3f, 1.0f, &a, &b);
    add_circle(w, new_body(w, RC_STATIC, rc_v2(2.0f, 3.0f), 0.0f), rc_v2(0.0f, 0.0f), 0.7f);
    ws_rng rng = {5};
    long n = 0;
    for (int i = 0; i < 20000; ++i) {
        rc_vec2 p = rc_v2(ws_range(&rng, -1.0, 6.0), ws_range(&rng, 0.5, 6.0));
        float len = ws_log_range(&rng, 1e-7, 1e3);
        float phi = ws_range(&rng, -RC_PI, RC_PI);
        rc_vec2 d = rc_v2(len * cosf(phi), len * sinf(phi));
        rc_vec2 q = rc_world_move_circle(w, p, ws_range(&rng, 0.0, 0.6), d);
        EXPECT(moved(p, q) <= dlen(d.x, d.y), "moved %.17g for a delta of %.17g", moved(p, q), dlen(d.x, d.y));
        ++n;
    }
    fprintf(stderr, "[mover] %ld moves never further than |delta|\n", n);
    rc_world_destroy(w);
}
END_TEST

/* ---- gaps, corridors, thin walls ----------------------------------------------------------------- */

START_TEST(stops_at_a_gap_narrower_than_the_walker) {
    rc_world *w = new_world();
    const float r = 0.5f, R = 1.0f;
    for (int k = 0; k < 3; ++k) {
        float gap = k == 0 ? 0.9f : (k == 1 ? 0.999f : 0.5f); /* all < 2r */
        rc_shape_id s[2];
        s[0] = add_circle(w, new_body(w, RC_STATIC, rc_v2(-(R + 0.5f * gap), 0.0f), 0.0f), rc_v2(0, 0), R);
        s[1] = add_circle(w, new_body(w, RC_STATIC, rc_v2(R + 0.5f * gap, 0.0f), 0.0f), rc_v2(0, 0), R);
        for (int j = 0; j < 5; ++j) {
            rc_vec2 p = rc_v2(0.02f * (float)(j - 2), -5.0f);
            rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(0.0f, 10.0f));
            ck_assert_msg(q.y < 0.0f, "gap %g: went through to (%g, %g)", (double)gap, (double)q.x, (double)q.y);
            ck_assert(ref_clearance(w, s, 2, q) >= r);
        }
        rc_body_destroy(w, rc_shape_body(w, s[0]));
        rc_body_destroy(w, rc_shape_body(w, s[1]));
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(passes_a_gap_wider_than_the_walker_and_its_skins) {
    rc_world *w = new_world();
    const float r = 0.5f, R = 1.0f, skin = 1e-4f;
    float gaps[3] = {2.0f * (r + skin) + 1e-3f, 1.5f, 3.0f};
    for (int k = 0; k < 3; ++k) {
        rc_shape_id s[2];
        s[0] = add_circle(w, new_body(w, RC_STATIC, rc_v2(-(R + 0.5f * gaps[k]), 0.0f), 0.0f), rc_v2(0, 0), R);
        s[1] = add_circle(w, new_body(w, RC_STATIC, rc_v2(R + 0.5f * gaps[k], 0.0f), 0.0f), rc_v2(0, 0), R);
        rc_vec2 p = rc_v2(0.0f, -5.0f);
        rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(0.0f, 10.0f));
        ck_assert_msg(q.y > 4.99f && fabsf(q.x) < 1e-4f, "gap %g: stopped at (%g, %g)", (double)gaps[k], (double)q.x,
                      (double)q.y);
        /* from off to the side, aimed at a pillar: it slides round it into the gap and through */
        for (int j = -2; j <= 2; ++j) {
            p = rc_v2(0.3f * (float)j, -5.0f);
            q = rc_world_move_circle(w, p, r, rc_v2(-p.x, 12.0f));
            ck_assert_msg(q.y > 2.0f, "gap %g from x %g: stopped at (%g, %g)", (double)gaps[k], (double)p.x,
                          (double)q.x, (double)q.y);
            ck_assert(ref_clearance(w, s, 2, q) >= r);
        }
        rc_body_destroy(w, rc_shape_body(w, s[0]));
        rc_body_destroy(w, rc_shape_body(w, s[1]));
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(a_corridor_just_wider_than_the_walker_lets_it_through) {
    rc_world *w = new_world();
    const float r = 0.5f, skin = 1e-4f;
    float half = r + skin + 5e-4f; /* half width */
    rc_shape_id s[2];
    s[0] = static_box(w, rc_v2(0.0f, half + 1.0f), 5.0f, 1.0f, 0.0f);
    s[1] = static_box(w, rc_v2(0.0f, -half - 1.0f), 5.0f, 1.0f, 0.0f);
    /* from outside its mouth, through it, out at the other end */
    rc_vec2 p = rc_v2(-8.0f, 0.0f);
    rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(16.0f, 0.0f));
    ck_assert_vec_ulps(q, 8.0f, 0.0f, 4); /* a spacing short per sub-step at most */
    /* slightly off centre and at a slant: it still gets in and slides along */
    q = rc_world_move_circle(w, rc_v2(-8.0f, 0.3f), r, rc_v2(16.0f, -0.2f));
    ck_assert_msg(q.x > 7.0f, "stopped at (%g, %g)", (double)q.x, (double)q.y);
    ck_assert(ref_clearance(w, s, 2, q) >= r);
    /* one a hair narrower than the walker stops it at the mouth */
    rc_world *n = new_world();
    float nh = r - 1e-4f;
    s[0] = static_box(n, rc_v2(0.0f, nh + 1.0f), 5.0f, 1.0f, 0.0f);
    s[1] = static_box(n, rc_v2(0.0f, -nh - 1.0f), 5.0f, 1.0f, 0.0f);
    q = rc_world_move_circle(n, p, r, rc_v2(16.0f, 0.0f));
    ck_assert_msg(q.x < -5.0f, "went in to (%g, %g)", (double)q.x, (double)q.y);
    ck_assert(ref_clearance(n, s, 2, q) >= r);
    rc_world_destroy(n);
    rc_world_destroy(w);
}
END_TEST

/* A thin wall through c along the direction at angle a from the y axis: 25 boxes 0.01 thick
 * and 1000 long end to end (one box so long and thin would be refused as flat), 25000 long in
 * all, far longer than any delta here, so that nothing can go round its ends. */
static void thin_wall(rc_world *w, rc_vec2 c, float a, rc_shape_id *shapes) {
    rc_vec2 dir = rc_v2(-sinf(a), cosf(a));
    for (int k = 0; k < 25; ++k) {
        shapes[k] = static_box(w, rc_mul_add(c, 1000.0f * (float)(k - 12), dir), 0.005f, 500.0f, a);
    }
}

/* Which side of the wall p is on (the sign), and how far from its middle line. */
static double wall_side(rc_vec2 c, float a, rc_vec2 p) {
    return cos(a) * ((double)p.x - c.x) + sin(a) * ((double)p.y - c.y);
}

START_TEST(a_huge_delta_never_passes_a_thin_wall) {
    rc_world *w = new_world();
    rc_shape_id both[50];
    rc_vec2 centers[2] = {rc_v2(10.0f, 0.0f), rc_v2(-10.0f, 0.0f)};
    float angles[2] = {0.0f, 0.4f};
    thin_wall(w, centers[0], angles[0], both);
    thin_wall(w, centers[1], angles[1], both + 25);
    ws_rng rng = {9};
    int n = 0;
    for (int i = 0; i < 2000; ++i) {
        float r = ws_log_range(&rng, 1e-3, 2.0);
        rc_vec2 p = rc_v2(ws_range(&rng, -30.0, 30.0), ws_range(&rng, -50.0, 50.0));
        if (ref_clearance(w, both, 50, p) < r) {
            continue;
        }
        float phi = ws_range(&rng, -1.5, 1.5);
        float len = ws_log_range(&rng, 1e2, 1e4);
        float sign = ws_chance(&rng, 0.5) ? 1.0f : -1.0f;
        rc_vec2 d = rc_v2(sign * len * cosf(phi), len * sinf(phi));
        rc_vec2 q = rc_world_move_circle(w, p, r, d);
        for (int k = 0; k < 2; ++k) {
            double a = wall_side(centers[k], angles[k], p), b = wall_side(centers[k], angles[k], q);
            /* the boxes are placed in floats: their faces are off the ideal line by a rounding
               or two of the coordinates */
            double tol = 16.0 * FLT_EPSILON * fmax(fabs(q.x), fabs(q.y));
            EXPECT((a > 0.0) == (b > 0.0) && fabs(b) >= 0.005 + r - tol,
                   "from (%a, %a), r %a, delta (%a, %a): went to (%.9g, %.9g), through or into wall %d (%.9g from "
                   "its middle, then %.9g)",
                   (double)p.x, (double)p.y, (double)r, (double)d.x, (double)d.y, (double)q.x, (double)q.y, k, b, a);
        }
        EXPECT(moved(p, q) <= dlen(d.x, d.y), "too far");
        double c = ref_clearance(w, both, 50, q);
        EXPECT(c >= r - 16.0 * FLT_EPSILON * fmax(fabs(q.x), fabs(q.y)), "clearance %.9g for r %.9g at (%.9g, %.9g)",
               c, (double)r, (double)q.x, (double)q.y);
        ++n;
    }
    fprintf(stderr, "[mover] %d huge deltas at thin walls\n", n);
    /* straight at it: it stops r + skin short */
    rc_vec2 q = rc_world_move_circle(w, rc_v2(0.0f, 0.0f), 0.5f, rc_v2(1e4f, 0.0f));
    ck_assert_vec_near(q, 10.0 - 0.005 - 0.5 - 1e-4, 0.0, 2e-6);
    rc_world_destroy(w);
}
END_TEST

/* A floor of boxes side by side, level and tilted: the vertex at each seam takes the normal of
 * the face beside it (the faces are one line), so the walker slides over the seams without a
 * bump, and a far vertex is swept against, not taken as a ramp. */
START_TEST(slides_over_the_seams_of_a_tiled_floor) {
    const float r = 0.5f, skin = 1e-4f;
    for (int tilt = 0; tilt < 2; ++tilt) {
        rc_world *w = new_world();
        float angle = tilt ? 0.3f : 0.0f;
        rc_body_id floor = new_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), angle);
        rc_shape_id tiles[20];
        for (int k = 0; k < 20; ++k) {
            tiles[k] = add_box(w, floor, rc_v2(-19.0f + 2.0f * (float)k, -0.5f), 1.0f, 0.5f);
        }
        rc_transform xf = rc_body_transform(w, floor);
        /* one long move along it and a little down: the whole way, on the floor */
        rc_vec2 p = rc_transform_point(xf, rc_v2(-15.0f, r + 0.5f * skin));
        rc_vec2 q = rc_world_move_circle(w, p, r, rc_rotate(xf.q, rc_v2(30.0f, -1.0f)));
        rc_vec2 lq = rc_inv_transform_point(xf, q);
        ck_assert_msg(fabsf(lq.x - 15.0f) <= 1e-4f && lq.y >= r - 1e-6f && lq.y <= r + skin + 1e-6f,
                      "tilt %d: ended at (%.9g, %.9g) in the floor's frame", tilt, (double)lq.x, (double)lq.y);
        /* many moves at every height in the band: never below r, never above the band */
        ws_rng rng = {31};
        double highest = -INFINITY, lowest = INFINITY;
        for (int i = 0; i < 200; ++i) {
            p = rc_transform_point(xf, rc_v2(ws_range(&rng, -18.0, 10.0), r + ws_range(&rng, 0.0, 1.0) * skin));
            float len = ws_log_range(&rng, 1e-3, 3.0);
            float down = ws_chance(&rng, 0.5) ? 0.0f : ws_range(&rng, 0.0, 0.1) * len;
            rc_vec2 d = rc_rotate(xf.q, rc_v2(len, -down));
            for (int j = 0; j < 20; ++j) {
                q = rc_world_move_circle(w, p, r, d);
                EXPECT(moved(p, q) <= dlen(d.x, d.y), "too far");
                lq = rc_inv_transform_point(xf, q);
                lowest = fmin(lowest, ref_clearance(w, tiles, 20, q) - r);
                if (lq.x < 20.0f) {
                    highest = fmax(highest, (double)lq.y - r); /* above the floor's line */
                }
                EXPECT(rc_inv_transform_point(xf, p).x < lq.x || lq.x >= 18.0f - r, "stuck at a seam at (%.9g, %.9g)",
                       (double)lq.x, (double)lq.y);
                p = q;
            }
        }
        fprintf(stderr, "[mover] tiled floor, tilt %d: clearance - r at least %.3g, height - r at most %.3g (skin %g)"
                        "\n",
                tilt, lowest, highest, (double)skin);
        /* placed vertices 20 units out are off the ideal line by a few float spacings (2e-6) */
        ck_assert(highest <= skin + 1e-5);
        ck_assert(lowest >= -1e-5);
        rc_world_destroy(w);
    }
}
END_TEST

/* A long slide along a long wall takes few sub-steps (they double along it). */
START_TEST(slides_far_along_a_long_wall) {
    rc_world *w = new_world();
    static_box(w, rc_v2(0.0f, -0.5f), 10000.0f, 0.5f, 0.0f);
    static_box(w, rc_v2(0.0f, 50.0f), 1.0f, 1.0f, 0.0f); /* something small: small cells */
    const float r = 0.5f;
    rc_vec2 p = rc_v2(-4000.0f, r + 5e-5f);
    rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(9000.0f, -10.0f));
    ck_assert_msg(fabsf(q.x - 5000.0f) <= 1e-3f && q.y >= r && q.y <= r + 5e-3f, "ended at (%.9g, %.9g)",
                  (double)q.x, (double)q.y);
    rc_world_destroy(w);
}
END_TEST

/* ---- scales and windings ------------------------------------------------------------------------- */

/* The corner and slide cases with polygon walls given in either winding, at sizes from 1e-3
 * to 1e4 and offsets up to 1e4. The skin is given (def.skin) in proportion to the scene. */
START_TEST(scales_and_windings) {
    static const struct {
        float size, offset;
    } cases[] = {{1.0f, 0.0f}, {1.0f, 1e4f}, {1e4f, 0.0f}, {1e4f, -3e4f}, {1e-3f, 0.0f}, {1e-3f, 1.0f}};
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < ncases; ++c) {
        for (int winding = 0; winding < 2; ++winding) {
            float S = cases[c].size, O = cases[c].offset;
            rc_world *w = new_world();
            rc_vec2 origin = rc_v2(O, -0.5f * O);
            float angle = 0.35f;
            rc_body_id body = new_body(w, RC_STATIC, origin, angle);
            /* floor: y in [-S, 0], x in [-S, 20 S]; wall: x in [-S, 0], y in [0, 20 S] (body frame) */
            rc_vec2 floor_pts[4] = {rc_v2(-S, -S), rc_v2(20 * S, -S), rc_v2(20 * S, 0), rc_v2(-S, 0)};
            rc_vec2 wall_pts[4] = {rc_v2(-S, 0), rc_v2(0, 0), rc_v2(0, 20 * S), rc_v2(-S, 20 * S)};
            if (winding) {
                for (int i = 0; i < 2; ++i) {
                    rc_vec2 t = floor_pts[i];
                    floor_pts[i] = floor_pts[3 - i];
                    floor_pts[3 - i] = t;
                    t = wall_pts[i];
                    wall_pts[i] = wall_pts[3 - i];
                    wall_pts[3 - i] = t;
                }
            }
            rc_shape_def sd = rc_shape_default_def();
            rc_shape_id s[2];
            s[0] = rc_shape_create_polygon(w, body, &sd, floor_pts, 4);
            s[1] = rc_shape_create_polygon(w, body, &sd, wall_pts, 4);
            ck_assert(!rc_shape_id_is_null(s[0]) && !rc_shape_id_is_null(s[1]));
            rc_transform xf = rc_body_transform(w, body);
            double ca = cos(angle), sa = sin(angle);
            float r = 0.5f * S;
            /* rounding at these coordinates: a skin of many float spacings of them */
            float skin = 1e-4f * S + 2e-6f * fabsf(O);
            double tol = 8.0 * FLT_EPSILON * (fabs(O) + 40.0 * S);
            rc_mover_def def = rc_mover_default_def();
            def.radius = r;
            def.skin = skin;
            rc_mover_result res;

            /* resting in the corner, pushed into it: still */
            def.position = rc_transform_point(xf, rc_v2(r + 0.5f * skin, r + 0.5f * skin));
            for (int j = 0; j < 8; ++j) {
                float phi = 0.1f + 0.17f * (float)j;
                def.delta = rc_rotate(xf.q, rc_v2(-3.0f * S * cosf(phi), -3.0f * S * sinf(phi)));
                ck_assert(rc_world_move_circle_ex(w, &def, &res));
                ck_assert_msg(res.position.x == def.position.x && res.position.y == def.position.y,
                              "size %g offset %g winding %d: moved in the corner", (double)S, (double)O, winding);
                ck_assert_int_eq(res.touch_count, 2);
            }
            /* resting on the floor, pushed along it at 45 degrees */
            rc_vec2 local = rc_v2(5.0f * S, r + 0.5f * skin);
            def.position = rc_transform_point(xf, local);
            def.delta = rc_rotate(xf.q, rc_v2(2.0f * S, -2.0f * S));
            ck_assert(rc_world_move_circle_ex(w, &def, &res));
            /* expected: the start plus the part along the floor, (2 S, 0) in the body frame */
            double ex = def.position.x + 2.0 * S * ca, ey = def.position.y + 2.0 * S * sa;
            ck_assert_msg(fabs(res.position.x - ex) <= tol + 1e-6 * S && fabs(res.position.y - ey) <= tol + 1e-6 * S,
                          "size %g offset %g winding %d: slid to (%.9g, %.9g), expected (%.9g, %.9g)", (double)S,
                          (double)O, winding, (double)res.position.x, (double)res.position.y, ex, ey);
            ck_assert(ref_clearance(w, s, 2, res.position) >= r - tol);
            ck_assert_int_eq(res.touch_count, 1);
            ck_assert(rc_shape_id_equals(res.touches[0].shape, s[0]));
            /* from afar into the corner: it ends r + skin from both walls (within rounding) */
            def.position = rc_transform_point(xf, rc_v2(8.0f * S, 6.0f * S));
            def.delta = rc_rotate(xf.q, rc_v2(-20.0f * S, -20.0f * S));
            ck_assert(rc_world_move_circle_ex(w, &def, &res));
            for (int i = 0; i < 2; ++i) {
                double d = ref_shape(w, s[i], res.position.x, res.position.y);
                ck_assert_msg(d >= r - tol && d <= r + skin + tol,
                              "size %g offset %g: %.9g from wall %d (r %g skin %g)",
                              (double)S, (double)O, d, i, (double)r, (double)skin);
            }
            ck_assert(moved(def.position, res.position) <= dlen(def.delta.x, def.delta.y));
            rc_world_destroy(w);
        }
    }
}
END_TEST

/* ---- what blocks, touches ----------------------------------------------------------------------- */

START_TEST(touches_on_the_floor_and_in_a_corner) {
    rc_world *w = new_world();
    rc_shape_id floor = static_box(w, rc_v2(0.0f, -0.5f), 50.0f, 0.5f, 0.0f);
    rc_shape_id wall = static_box(w, rc_v2(-10.5f, 10.0f), 0.5f, 10.0f, 0.0f);
    const float r = 0.5f;
    rc_mover_def def = rc_mover_default_def();
    def.radius = r;
    def.position = rc_v2(3.0f, 2.0f);
    def.delta = rc_v2(0.0f, -5.0f); /* falls onto the floor */
    rc_mover_result res;
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_float_eq(res.position.x, 3.0f);
    ck_assert_int_eq(res.touch_count, 1);
    ck_assert(rc_shape_id_equals(res.touches[0].shape, floor));
    ck_assert(rc_body_id_equals(res.touches[0].body, rc_shape_body(w, floor)));
    ck_assert_vec_eq(res.touches[0].normal, 0.0f, 1.0f);
    ck_assert_vec_near(res.touches[0].point, 3.0, 0.0, 1e-6);
    ck_assert_msg(res.touches[0].separation >= 0.0f && res.touches[0].separation <= 2e-4f, "separation %g",
                  (double)res.touches[0].separation);
    ck_assert_near(res.touches[0].separation, res.position.y - r, 1e-6);
    /* standing still on it: the same touch */
    def.position = res.position;
    def.delta = rc_v2(0.0f, 0.0f);
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_int_eq(res.touch_count, 1);
    ck_assert(res.position.x == def.position.x && res.position.y == def.position.y);
    /* into the corner: two touches, the floor's normal up and the wall's to the right */
    def.delta = rc_v2(-20.0f, -1.0f);
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_int_eq(res.touch_count, 2);
    bool saw_floor = false, saw_wall = false;
    for (int i = 0; i < 2; ++i) {
        if (rc_shape_id_equals(res.touches[i].shape, floor)) {
            saw_floor = true;
            ck_assert_vec_eq(res.touches[i].normal, 0.0f, 1.0f);
        } else if (rc_shape_id_equals(res.touches[i].shape, wall)) {
            saw_wall = true;
            ck_assert_vec_eq(res.touches[i].normal, 1.0f, 0.0f);
        }
    }
    ck_assert(saw_floor && saw_wall);
    ck_assert(res.touches[0].separation <= res.touches[1].separation);
    /* in the air: none */
    def.position = rc_v2(5.0f, 5.0f);
    def.delta = rc_v2(0.1f, 0.0f);
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_int_eq(res.touch_count, 0);
    rc_world_destroy(w);
}
END_TEST

START_TEST(at_most_the_nearest_touches_are_reported) {
    rc_world *w = new_world();
    /* a ring of 12 small circles around a walker that touches them all */
    const float r = 1.0f, R = 0.2f;
    rc_shape_id ring[12];
    for (int i = 0; i < 12; ++i) {
        float a = 2.0f * RC_PI * (float)i / 12.0f;
        float d = r + R + 5e-5f * (float)(i % 4);
        ring[i] = add_circle(w, new_body(w, RC_STATIC, rc_v2(d * cosf(a), d * sinf(a)), 0.0f), rc_v2(0, 0), R);
    }
    rc_mover_def def = rc_mover_default_def();
    def.radius = r;
    def.delta = rc_v2(0.3f, 0.1f);
    rc_mover_result res;
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert(res.position.x == 0.0f && res.position.y == 0.0f); /* hemmed in on every side */
    ck_assert_int_eq(res.touch_count, RC_MAX_MOVER_TOUCHES);
    for (int i = 1; i < res.touch_count; ++i) {
        ck_assert(res.touches[i - 1].separation <= res.touches[i].separation);
    }
    /* the nearest are the ones at i % 4 == 0 and 1 (6 of them), then two of i % 4 == 2 */
    for (int i = 0; i < res.touch_count; ++i) {
        int k = -1;
        for (int j = 0; j < 12; ++j) {
            if (rc_shape_id_equals(ring[j], res.touches[i].shape)) {
                k = j;
            }
        }
        ck_assert(k >= 0 && k % 4 != 3);
    }
    rc_world_destroy(w);
}
END_TEST

START_TEST(every_body_type_blocks_sensors_never) {
    rc_world *w = new_world();
    rc_body_type types[3] = {RC_STATIC, RC_KINEMATIC, RC_DYNAMIC};
    for (int t = 0; t < 3; ++t) {
        rc_body_id b = new_body(w, types[t], rc_v2(5.0f, 10.0f * (float)t), 0.0f);
        add_box(w, b, rc_v2(0.0f, 0.0f), 1.0f, 1.0f);
        rc_vec2 q = rc_world_move_circle(w, rc_v2(0.0f, 10.0f * (float)t), 0.5f, rc_v2(10.0f, 0.0f));
        ck_assert_msg(q.x <= 5.0f - 1.0f - 0.5f && q.x > 3.49f, "type %d: went to %g", t, (double)q.x);
    }
    /* a sensor in the way: straight through, and never touched */
    rc_body_id sb = new_body(w, RC_STATIC, rc_v2(5.0f, 40.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = true;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, sb, &sd, 1.0f, 1.0f)));
    rc_vec2 q = rc_world_move_circle(w, rc_v2(0.0f, 40.0f), 0.5f, rc_v2(10.0f, 0.0f));
    ck_assert_vec_eq(q, 10.0f, 40.0f);
    rc_mover_def def = rc_mover_default_def();
    def.radius = 0.5f;
    def.position = rc_v2(5.0f, 40.0f);
    rc_mover_result res;
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_int_eq(res.touch_count, 0);
    rc_world_destroy(w);
}
END_TEST

START_TEST(filters_and_the_ignored_body) {
    rc_world *w = new_world();
    rc_body_id self = new_body(w, RC_DYNAMIC, rc_v2(0.0f, 0.0f), 0.0f);
    add_circle(w, self, rc_v2(0.0f, 0.0f), 0.5f); /* the character's own circle */
    rc_body_id glass = new_body(w, RC_STATIC, rc_v2(5.0f, 0.0f), 0.0f);
    rc_shape_def sd = rc_shape_default_def();
    sd.filter.category_bits = 2;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, glass, &sd, 1.0f, 1.0f)));
    rc_mover_def def = rc_mover_default_def();
    def.radius = 0.5f;
    def.delta = rc_v2(10.0f, 0.0f);
    rc_mover_result res;
    /* its own circle squeezes it (it overlaps it deeply): it does not move far */
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert(res.position.x < 3.5f);
    /* ignoring its body: stopped by the glass */
    def.ignore_body = self;
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_msg(res.position.x > 3.49f && res.position.x <= 3.5f, "x %g", (double)res.position.x);
    /* a filter that does not see category 2: through the glass */
    def.filter.mask_bits = ~2u;
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_vec_eq(res.position, 10.0f, 0.0f);
    /* the shape's mask can refuse the walker too */
    def.filter = rc_default_query_filter();
    def.filter.category_bits = 4;
    rc_body_id net = new_body(w, RC_STATIC, rc_v2(-5.0f, 0.0f), 0.0f);
    sd.filter.category_bits = 1;
    sd.filter.mask_bits = ~4u;
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, net, &sd, 1.0f, 1.0f)));
    def.delta = rc_v2(-10.0f, 0.0f);
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    ck_assert_vec_eq(res.position, -10.0f, 0.0f);
    rc_world_destroy(w);
}
END_TEST

START_TEST(overlapping_starts_are_pushed_out_within_the_budget) {
    rc_world *w = new_world();
    rc_shape_id floor = static_box(w, rc_v2(0.0f, -0.5f), 50.0f, 0.5f, 0.0f);
    const float r = 0.5f;
    rc_vec2 p = rc_v2(0.0f, 0.3f); /* 0.2 into it */
    /* delta 0: stays */
    rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(0.0f, 0.0f));
    ck_assert(q.x == p.x && q.y == p.y);
    /* a small delta along the floor: pushed out by at most |delta| */
    for (int i = 0; i < 40; ++i) {
        rc_vec2 d = rc_v2(0.05f, 0.0f);
        rc_vec2 n = rc_world_move_circle(w, p, r, d);
        ck_assert(moved(p, n) <= 0.05 + 1e-12);
        ck_assert(ref_shape(w, floor, n.x, n.y) >= ref_shape(w, floor, p.x, p.y));
        p = n;
    }
    ck_assert_msg(p.y >= r && p.y <= r + 1e-4f + 1e-6f, "pushed out to %.9g", (double)p.y);
    /* squeezed between two walls closer than 2 r: stays where it is */
    rc_world *s = new_world();
    static_box(s, rc_v2(0.0f, 0.9f), 5.0f, 0.5f, 0.0f);
    static_box(s, rc_v2(0.0f, -0.9f), 5.0f, 0.5f, 0.0f);
    q = rc_world_move_circle(s, rc_v2(0.0f, 0.0f), r, rc_v2(0.0f, 0.3f));
    ck_assert(q.x == 0.0f && q.y == 0.0f);
    rc_world_destroy(s);
    rc_world_destroy(w);
}
END_TEST

START_TEST(slides_around_a_round_pillar) {
    rc_world *w = new_world();
    const float R = 1.0f, r = 0.5f;
    rc_shape_id pillar = add_circle(w, new_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f), rc_v2(0, 0), R);
    /* aimed a little off centre, through the pillar to a point beyond it */
    rc_vec2 p = rc_v2(-4.0f, 0.3f);
    rc_vec2 q = rc_world_move_circle(w, p, r, rc_v2(8.0f, 0.0f));
    ck_assert(ref_shape(w, pillar, q.x, q.y) >= r);
    ck_assert(moved(p, q) <= 8.0);
    /* it went round it (upwards: the side it was on), not stuck at the front */
    ck_assert_msg(q.x > 0.0f && q.y > 0.3f, "ended at (%g, %g)", (double)q.x, (double)q.y);
    /* pushed straight at the centre it stops in front (the normal points back at it) */
    q = rc_world_move_circle(w, rc_v2(-4.0f, 0.0f), r, rc_v2(8.0f, 0.0f));
    ck_assert_vec_near(q, -(R + r + 1e-4), 0.0, 1e-6);
    rc_world_destroy(w);
}
END_TEST

/* ---- errors -------------------------------------------------------------------------------------- */

static void expect_error(rc_world *w, ws_errors *errs, const char *func, int *calls) {
    ck_assert_msg(strstr(rc_world_last_error(w), func) != NULL, "last error \"%s\" does not name %s",
                  rc_world_last_error(w), func);
    ck_assert_int_eq(errs->calls, *calls + 1);
    ck_assert_str_eq(errs->last, rc_world_last_error(w));
    *calls = errs->calls;
    rc_world_clear_error(w);
}

START_TEST(bad_input_is_refused) {
    ws_errors errs;
    memset(&errs, 0, sizeof errs);
    rc_world_def wd = rc_world_default_def();
    wd.error_fn = ws_error_fn;
    wd.error_user = &errs;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    static_box(w, rc_v2(0.0f, -0.5f), 50.0f, 0.5f, 0.0f);
    int calls = 0;
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    rc_vec2 p = rc_v2(1.0f, 2.0f), d = rc_v2(0.5f, 0.0f);

    /* NULL world: the position back, nothing else */
    ck_assert_vec_eq(rc_world_move_circle(NULL, p, 0.5f, d), 1.0f, 2.0f);
    ck_assert_vec_eq(rc_world_move_circle(NULL, rc_v2(NAN, 1.0f), 0.5f, d), 0.0f, 0.0f);
    rc_mover_def def = rc_mover_default_def();
    rc_mover_result res;
    ck_assert(!rc_world_move_circle_ex(NULL, &def, &res));

    for (int i = 0; i < 3; ++i) {
        /* position not finite: the zero vector */
        ck_assert_vec_eq(rc_world_move_circle(w, rc_v2(bad[i], 1.0f), 0.5f, d), 0.0f, 0.0f);
        expect_error(w, &errs, "rc_world_move_circle", &calls);
        ck_assert_vec_eq(rc_world_move_circle(w, rc_v2(1.0f, bad[i]), 0.5f, d), 0.0f, 0.0f);
        expect_error(w, &errs, "rc_world_move_circle", &calls);
        /* delta or radius not finite: the position */
        ck_assert_vec_eq(rc_world_move_circle(w, p, 0.5f, rc_v2(bad[i], 0.0f)), 1.0f, 2.0f);
        expect_error(w, &errs, "rc_world_move_circle", &calls);
        ck_assert_vec_eq(rc_world_move_circle(w, p, 0.5f, rc_v2(0.0f, bad[i])), 1.0f, 2.0f);
        expect_error(w, &errs, "rc_world_move_circle", &calls);
        ck_assert_vec_eq(rc_world_move_circle(w, p, bad[i], d), 1.0f, 2.0f);
        expect_error(w, &errs, "rc_world_move_circle", &calls);
    }
    ck_assert_vec_eq(rc_world_move_circle(w, p, -0.5f, d), 1.0f, 2.0f);
    expect_error(w, &errs, "rc_world_move_circle", &calls);
    ck_assert_vec_eq(rc_world_move_circle(w, p, -FLT_MIN, d), 1.0f, 2.0f);
    expect_error(w, &errs, "rc_world_move_circle", &calls);
    /* reaching beyond float range */
    ck_assert_vec_eq(rc_world_move_circle(w, p, 0.5f, rc_v2(FLT_MAX, 0.0f)), 1.0f, 2.0f);
    expect_error(w, &errs, "rc_world_move_circle", &calls);
    ck_assert_vec_eq(rc_world_move_circle(w, p, FLT_MAX, d), 1.0f, 2.0f);
    expect_error(w, &errs, "rc_world_move_circle", &calls);

    /* the _ex form: false, the result untouched */
    rc_mover_result sentinel;
    memset(&sentinel, 0xAB, sizeof sentinel);
    ck_assert(!rc_world_move_circle_ex(w, NULL, &res));
    expect_error(w, &errs, "rc_world_move_circle_ex", &calls);
    def.position = p;
    def.radius = 0.5f;
    def.delta = d;
    ck_assert(!rc_world_move_circle_ex(w, &def, NULL));
    expect_error(w, &errs, "rc_world_move_circle_ex", &calls);
    rc_mover_def bad_defs[8];
    int nbad = 0;
    for (int i = 0; i < 8; ++i) {
        bad_defs[i] = def;
    }
    bad_defs[nbad++].position.x = NAN;
    bad_defs[nbad++].delta.y = INFINITY;
    bad_defs[nbad++].radius = -1.0f;
    bad_defs[nbad++].radius = NAN;
    bad_defs[nbad++].skin = -1e-3f;
    bad_defs[nbad++].skin = INFINITY;
    bad_defs[nbad].ignore_body.index = 77;
    bad_defs[nbad++].ignore_body.generation = 1;
    rc_body_id gone = new_body(w, RC_STATIC, rc_v2(0.0f, 0.0f), 0.0f);
    rc_body_destroy(w, gone);
    bad_defs[nbad++].ignore_body = gone;
    for (int i = 0; i < nbad; ++i) {
        res = sentinel;
        ck_assert_msg(!rc_world_move_circle_ex(w, &bad_defs[i], &res), "bad def %d accepted", i);
        expect_error(w, &errs, "rc_world_move_circle_ex", &calls);
        ck_assert_msg(memcmp(&res, &sentinel, sizeof res) == 0, "bad def %d wrote the result", i);
    }
    /* good calls record nothing */
    ck_assert(rc_world_move_circle_ex(w, &def, &res));
    rc_world_move_circle(w, p, 0.0f, rc_v2(0.0f, 0.0f));
    ck_assert_str_eq(rc_world_last_error(w), "");
    ck_assert_int_eq(errs.calls, calls);
    rc_world_destroy(w);
}
END_TEST

/* ---- the random property test --------------------------------------------------------------------- */

#define MAX_ROOM_SHAPES 64

typedef struct room {
    rc_world *world;
    rc_shape_id shapes[MAX_ROOM_SHAPES];
    rc_body_id bodies[MAX_ROOM_SHAPES];
    bool sensor[MAX_ROOM_SHAPES];
    bool category2[MAX_ROOM_SHAPES]; /* on category 2, which some walkers' filters exclude */
    /* the shapes as placed (nothing moves: the world is never stepped), for the reference */
    bool is_circle[MAX_ROOM_SHAPES];
    rc_circle circle[MAX_ROOM_SHAPES];
    rc_polygon polygon[MAX_ROOM_SHAPES];
    int count;
    int walls;       /* shapes[0..walls) are the room's walls, on one body */
    rc_transform xf; /* the room frame: its inside is |x|, |y| < half */
    float half;
} room;

static void room_add(room *rm, rc_shape_id s, bool sensor, bool cat2) {
    ck_assert_msg(!rc_shape_id_is_null(s), "%s", rc_world_last_error(rm->world));
    ck_assert(rm->count < MAX_ROOM_SHAPES);
    rm->shapes[rm->count] = s;
    rm->bodies[rm->count] = rc_shape_body(rm->world, s);
    rm->sensor[rm->count] = sensor;
    rm->category2[rm->count] = cat2;
    rm->is_circle[rm->count] = rc_shape_get_type(rm->world, s) == RC_SHAPE_TYPE_CIRCLE;
    if (rm->is_circle[rm->count]) {
        ck_assert(rc_shape_world_circle(rm->world, s, &rm->circle[rm->count]));
    } else {
        ck_assert(rc_shape_world_polygon(rm->world, s, &rm->polygon[rm->count]));
    }
    rm->count++;
}

static void room_build(room *rm, ws_rng *rng) {
    memset(rm, 0, sizeof *rm);
    rm->world = new_world();
    rm->half = ws_range(rng, 6.0, 25.0);
    float angle = ws_chance(rng, 0.5) ? 0.0f : ws_range(rng, -RC_PI, RC_PI);
    rc_vec2 origin = ws_chance(rng, 0.6) ? rc_v2(0.0f, 0.0f)
                                         : rc_v2(ws_range(rng, -3000.0, 3000.0), ws_range(rng, -3000.0, 3000.0));
    rc_body_id walls = new_body(rm->world, RC_STATIC, origin, angle);
    rm->xf = rc_body_transform(rm->world, walls);
    float h = rm->half, t = 0.25f; /* thin walls */
    room_add(rm, add_box(rm->world, walls, rc_v2(h + t, 0.0f), t, h + 2 * t), false, false);
    room_add(rm, add_box(rm->world, walls, rc_v2(-h - t, 0.0f), t, h + 2 * t), false, false);
    room_add(rm, add_box(rm->world, walls, rc_v2(0.0f, h + t), h + 2 * t, t), false, false);
    if (ws_chance(rng, 0.5)) {
        room_add(rm, add_box(rm->world, walls, rc_v2(0.0f, -h - t), h + 2 * t, t), false, false);
    } else {
        /* a floor of tiles side by side: seams */
        int n = ws_int(rng, 3, 12);
        float tw = (h + 2 * t) / (float)n;
        for (int k = 0; k < n; ++k) {
            room_add(rm, add_box(rm->world, walls, rc_v2(-h - 2 * t + tw * (float)(2 * k + 1), -h - t), tw, t), false,
                     false);
        }
    }
    rm->walls = rm->count;
    int inner = ws_int(rng, 0, 3);
    for (int i = 0; i < inner; ++i) {
        /* thin walls inside */
        rc_vec2 local = rc_v2(ws_range(rng, -h, h), ws_range(rng, -h, h));
        rc_body_id b = new_body(rm->world, RC_STATIC, rc_transform_point(rm->xf, local), ws_range(rng, -RC_PI, RC_PI));
        float thick = ws_range(rng, 0.01, 0.05), length = ws_range(rng, 0.5, 4.0);
        room_add(rm, add_box(rm->world, b, rc_v2(0.0f, 0.0f), thick, length), false, false);
    }
    int pillars = ws_int(rng, 4, 24);
    for (int i = 0; i < pillars; ++i) {
        double u = ws_uniform(rng);
        rc_body_type type = u < 0.6 ? RC_STATIC : (u < 0.8 ? RC_KINEMATIC : RC_DYNAMIC);
        rc_vec2 local = rc_v2(ws_range(rng, -h, h), ws_range(rng, -h, h));
        rc_body_id b = new_body(rm->world, type, rc_transform_point(rm->xf, local), ws_range(rng, -RC_PI, RC_PI));
        rc_shape_def sd = rc_shape_default_def();
        bool sensor = ws_chance(rng, 0.08);
        bool cat2 = !sensor && ws_chance(rng, 0.1);
        sd.is_sensor = sensor;
        if (cat2) {
            sd.filter.category_bits = 2;
        }
        float size = ws_log_range(rng, 0.1, 3.0);
        rc_shape_id s;
        int kind = ws_int(rng, 0, 2);
        if (kind == 0) {
            s = rc_shape_create_circle(rm->world, b, &sd, size);
        } else if (kind == 1) {
            rc_vec2 pts[RC_MAX_POLYGON_VERTICES];
            int n = ws_random_convex(rng, size, pts);
            s = rc_shape_create_polygon(rm->world, b, &sd, pts, n);
        } else {
            s = rc_shape_create_box(rm->world, b, &sd, size, size * ws_range(rng, 0.05, 1.0));
        }
        room_add(rm, s, sensor, cat2);
    }
}

/* The reference clearance for a walker: blocking shapes only. */
static double room_ref(const room *rm, int i, double px, double py) {
    return rm->is_circle[i] ? ref_circle(rm->circle[i], px, py) : ref_polygon(&rm->polygon[i], px, py);
}

/* Does shape i block a walker that sees category 2 or not and ignores the body of shape
 * `ignore` (-1: none)? */
static bool room_blocks(const room *rm, int i, bool sees_cat2, int ignore) {
    return !rm->sensor[i] && (sees_cat2 || !rm->category2[i]) &&
           (ignore < 0 || !rc_body_id_equals(rm->bodies[i], rm->bodies[ignore]));
}

static double room_clearance(const room *rm, rc_vec2 p, bool sees_cat2, int ignore, int *nearest) {
    double best = INFINITY;
    for (int i = 0; i < rm->count; ++i) {
        if (!room_blocks(rm, i, sees_cat2, ignore)) {
            continue;
        }
        double d = room_ref(rm, i, p.x, p.y);
        if (d < best) {
            best = d;
            if (nearest != NULL) {
                *nearest = i;
            }
        }
    }
    return best;
}

/* The nearest point of shape i to p, and the normal towards p, in double. */
static void ref_normal(const room *rm, int i, rc_vec2 p, double *nx, double *ny) {
    /* numerical gradient of the signed distance: good enough to aim a push */
    double h = 1e-4;
    double dx = room_ref(rm, i, p.x + h, p.y) - room_ref(rm, i, p.x - h, p.y);
    double dy = room_ref(rm, i, p.x, p.y + h) - room_ref(rm, i, p.x, p.y - h);
    double l = hypot(dx, dy);
    *nx = l > 0.0 ? dx / l : 1.0;
    *ny = l > 0.0 ? dy / l : 0.0;
}

typedef struct tally {
    long moves, too_near, left_room, too_far, bad_touches, missed_touches;
    double worst; /* least (clearance - r) / tolerance seen */
    double worst_abs; /* least clearance - r seen */
    double worst_ulps; /* least (clearance - r) in float spacings of the walker's coordinates */
    long below_r;      /* moves that ended nearer than r (within the tolerance) */
    long zero_moves, rests, slides;
} tally;

static void random_rooms(int rooms, int walkers, int moves, uint64_t seed, tally *t) {
    ws_rng rng = {seed};
    for (int ri = 0; ri < rooms; ++ri) {
        room rm;
        room_build(&rm, &rng);
        for (int wi = 0; wi < walkers; ++wi) {
            float r = ws_log_range(&rng, 0.05, 1.5);
            bool ex = ws_chance(&rng, 0.5);
            bool sees_cat2 = !ex || ws_chance(&rng, 0.5);
            int ignore = -1;
            rc_mover_def def = rc_mover_default_def();
            def.radius = r;
            if (!sees_cat2) {
                def.filter.mask_bits = ~2u;
            }
            if (ex && ws_chance(&rng, 0.3)) {
                ignore = ws_int(&rng, rm.walls, rm.count - 1); /* a pillar or an inner wall */
                def.ignore_body = rm.bodies[ignore];
            }
            /* a legal place, by the reference */
            rc_vec2 p;
            int tries = 0;
            do {
                rc_vec2 local = rc_v2(ws_range(&rng, -rm.half, rm.half), ws_range(&rng, -rm.half, rm.half));
                p = rc_transform_point(rm.xf, local);
            } while (room_clearance(&rm, p, sees_cat2, ignore, NULL) < r && ++tries < 1000);
            if (tries >= 1000) {
                continue;
            }
            for (int mi = 0; mi < moves; ++mi) {
                double u = ws_uniform(&rng);
                rc_vec2 d;
                if (u < 0.05) {
                    d = rc_v2(0.0f, 0.0f);
                } else if (u < 0.25) {
                    /* push at the nearest surface, a little askew: slides and corners */
                    int k = -1;
                    room_clearance(&rm, p, sees_cat2, ignore, &k);
                    double nx, ny;
                    ref_normal(&rm, k, p, &nx, &ny);
                    double skew = ws_range(&rng, -1.2, 1.2), len = ws_log_range(&rng, 1e-3, 3.0);
                    double ax = -nx + skew * -ny, ay = -ny + skew * nx;
                    double al = hypot(ax, ay);
                    d = rc_v2((float)(len * ax / al), (float)(len * ay / al));
                } else {
                    double len;
                    if (u < 0.3) {
                        len = ws_log_range(&rng, 1e-6, 1e-2);
                    } else if (u < 0.7) {
                        len = ws_range(&rng, 0.0, 0.5);
                    } else if (u < 0.92) {
                        len = ws_range(&rng, 0.5, 5.0);
                    } else {
                        len = ws_range(&rng, 5.0, 80.0);
                    }
                    float phi = ws_range(&rng, -RC_PI, RC_PI);
                    d = rc_v2((float)(len * cos(phi)), (float)(len * sin(phi)));
                }
                rc_vec2 q;
                rc_mover_result res;
                if (ex) {
                    def.position = p;
                    def.delta = d;
                    EXPECT(rc_world_move_circle_ex(rm.world, &def, &res), "%s", rc_world_last_error(rm.world));
                    q = res.position;
                } else {
                    q = rc_world_move_circle(rm.world, p, r, d);
                }
                t->moves++;
                double maxc = fmax(fabs((double)q.x), fabs((double)q.y));
                /* the tolerance: float rounding of the walker's coordinates and of distances along
                   edges as long as the room, 4 float epsilons of their sum (the skin is 1e-4, or
                   4 float epsilons of the coordinates where that is more) */
                double tol = 4.0 * FLT_EPSILON * (maxc + r + 2.0 * rm.half);
                double c = room_clearance(&rm, q, sees_cat2, ignore, NULL);
                double margin = (c - r) / tol;
                if (margin < t->worst) {
                    t->worst = margin;
                }
                if (c - r < t->worst_abs) {
                    t->worst_abs = c - r;
                }
                double ulp = (double)(nextafterf((float)fmax(maxc, 1e-30), INFINITY) - (float)fmax(maxc, 1e-30));
                if ((c - r) / ulp < t->worst_ulps) {
                    t->worst_ulps = (c - r) / ulp;
                }
                t->below_r += c < r;
                if (c < r - tol) {
                    if (t->too_near < 5) {
                        fprintf(stderr,
                                "[mover] too near: room %d walker %d move %d: p (%a, %a) r %a delta (%a, %a) -> (%.9g, "
                                "%.9g), clearance %.9g\n",
                                ri, wi, mi, (double)p.x, (double)p.y, (double)r, (double)d.x, (double)d.y, (double)q.x,
                                (double)q.y, c);
                    }
                    t->too_near++;
                }
                rc_vec2 lq = rc_inv_transform_point(rm.xf, q);
                if (fabsf(lq.x) > rm.half - r + (float)tol || fabsf(lq.y) > rm.half - r + (float)tol) {
                    t->left_room++;
                }
                double m = moved(p, q), dl = dlen(d.x, d.y);
                if (m > dl) {
                    if (t->too_far < 5) {
                        fprintf(stderr, "[mover] too far: moved %.17g for a delta of %.17g\n", m, dl);
                    }
                    t->too_far++;
                }
                if (m == 0.0) {
                    t->zero_moves++;
                    if (dl > 0.0) {
                        t->rests++;
                    }
                } else if (m < dl * 0.999) {
                    t->slides++;
                }
                if (ex) {
                    /* touches: each is a blocking shape whose reference distance is the
                       separation, within the band; every shape within one world skin is among
                       them (when fewer than the maximum are reported) */
                    float skin = fmaxf(1e-4f, 4.0f * FLT_EPSILON * (float)fmax(fabs(q.x), fabs(q.y)));
                    for (int i = 0; i < res.touch_count; ++i) {
                        int k = -1;
                        for (int j = 0; j < rm.count; ++j) {
                            if (rc_shape_id_equals(rm.shapes[j], res.touches[i].shape)) {
                                k = j;
                            }
                        }
                        bool ok = k >= 0 && room_blocks(&rm, k, sees_cat2, ignore);
                        if (ok) {
                            double dd = room_ref(&rm, k, q.x, q.y);
                            ok = fabs((dd - r) - res.touches[i].separation) <= tol &&
                                 res.touches[i].separation <= 8.0f * skin + (float)tol;
                        }
                        if (i > 0) {
                            ok = ok && res.touches[i - 1].separation <= res.touches[i].separation;
                        }
                        t->bad_touches += !ok;
                    }
                    if (res.touch_count < RC_MAX_MOVER_TOUCHES) {
                        for (int j = 0; j < rm.count; ++j) {
                            if (!room_blocks(&rm, j, sees_cat2, ignore)) {
                                continue;
                            }
                            double dd = room_ref(&rm, j, q.x, q.y);
                            if (dd - r <= skin - tol) {
                                bool found = false;
                                for (int i = 0; i < res.touch_count; ++i) {
                                    found = found || rc_shape_id_equals(rm.shapes[j], res.touches[i].shape);
                                }
                                t->missed_touches += !found;
                            }
                        }
                    }
                }
                p = q;
            }
        }
        rc_world_destroy(rm.world);
    }
}

START_TEST(random_rooms_keep_every_guarantee) {
    tally t;
    memset(&t, 0, sizeof t);
    t.worst = INFINITY;
    t.worst_abs = INFINITY;
    t.worst_ulps = INFINITY;
    clock_t start = clock();
    /* rooms x walkers x moves: 256k moves (about 8 s in a Debug build, 15 s with sanitizers) */
    random_rooms(rc_test_random_cases(64), 8, 500, 0x5eed0000u + (uint64_t)_i, &t);
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    fprintf(stderr,
            "[mover] seed %d: %ld random moves in %.1f s (%ld no motion, %ld of them resting against a push, %ld "
            "slides); violations: %ld too near, %ld out of the room, %ld further than |delta|, %ld bad touches, %ld "
            "missed touches; %ld ended nearer than r within the tolerance, least clearance - r %.3g (%.3g "
            "tolerances, %.3g float spacings of the coordinates)\n",
            _i, t.moves, secs, t.zero_moves, t.rests, t.slides, t.too_near, t.left_room, t.too_far, t.bad_touches,
            t.missed_touches, t.below_r, t.worst_abs, t.worst, t.worst_ulps);
    ck_assert_int_eq(t.too_near, 0);
    ck_assert_int_eq(t.left_room, 0);
    ck_assert_int_eq(t.too_far, 0);
    ck_assert_int_eq(t.bad_touches, 0);
    ck_assert_int_eq(t.missed_touches, 0);
}
END_TEST

static Suite *mover_suite(void) {
    Suite *s = suite_create("mover");
    TCase *h = tcase_create("hand-worked");
    tcase_set_timeout(h, 60);
    tcase_add_test(h, slides_along_a_floor_at_45_degrees);
    tcase_add_test(h, slides_along_a_tilted_wall);
    tcase_add_test(h, rests_still_when_pushed_into_a_corner);
    tcase_add_test(h, rests_in_an_acute_wedge);
    tcase_add_test(h, moves_freely_away_and_not_at_all_for_zero);
    tcase_add_test(h, never_further_than_delta);
    tcase_add_test(h, stops_at_a_gap_narrower_than_the_walker);
    tcase_add_test(h, passes_a_gap_wider_than_the_walker_and_its_skins);
    tcase_add_test(h, a_corridor_just_wider_than_the_walker_lets_it_through);
    tcase_add_test(h, a_huge_delta_never_passes_a_thin_wall);
    tcase_add_test(h, slides_over_the_seams_of_a_tiled_floor);
    tcase_add_test(h, slides_far_along_a_long_wall);
    tcase_add_test(h, scales_and_windings);
    tcase_add_test(h, touches_on_the_floor_and_in_a_corner);
    tcase_add_test(h, at_most_the_nearest_touches_are_reported);
    tcase_add_test(h, every_body_type_blocks_sensors_never);
    tcase_add_test(h, filters_and_the_ignored_body);
    tcase_add_test(h, overlapping_starts_are_pushed_out_within_the_budget);
    tcase_add_test(h, slides_around_a_round_pillar);
    tcase_add_test(h, bad_input_is_refused);
    suite_add_tcase(s, h);
    TCase *r = tcase_create("random rooms");
    tcase_set_timeout(r, 120);
    tcase_add_loop_test(r, random_rooms_keep_every_guarantee, 0, 1);
    suite_add_tcase(s, r);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(mover_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
