/* The lean closest-hit path (broadphase/grid_lean.h, world/level_lean.h): the level's cells copied
 * compact and walked inline, its shapes' cast records. It must answer exactly as the grid's own
 * walk does:
 * - the copy offers the proxies rc_grid_cast_circle offers, each once, on grids of boxes of every
 *   size (several levels, one merged into the level below it), for rays of every direction
 *   (axis-parallel ones included) and swept circles short and long;
 * - a world's closest-hit casts, rays and swept circles, plain and filtered, give the same bits
 *   through the copy as through the grids, on a level of every kind of shape (long walls in
 *   pieces, one-sided ledges, sensors, large shapes on coarse levels) with kinematic bodies in
 *   the other grid;
 * - point bullets and grenades swept through the copy end every step where they end through the
 *   grids;
 * - the copy follows the level: a shape added, moved or destroyed is seen at once (the casts walk
 *   the grids until a step makes the copy again), and so is a level restored;
 * - a level that keeps changing is not copied again and again. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "broadphase/grid_lean.h"
#include "support/testing.h"
#include "support/world_support.h"
#include "world/world_internal.h"

/* ---- the grid's copy alone ------------------------------------------------------------------- */

#define MAX_OFFERS 4096

typedef struct offers {
    int32_t users[MAX_OFFERS];
    int32_t count;
} offers;

static float grid_offer(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    offers *o = context;
    ck_assert_int_lt(o->count, MAX_OFFERS);
    o->users[o->count++] = user;
    return max_fraction;
}

static float lean_offer(int32_t user, float max_t, void *context) {
    offers *o = context;
    ck_assert_int_lt(o->count, MAX_OFFERS);
    o->users[o->count++] = user;
    return max_t;
}

static int compare_users(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Is every offer of a one of b, a's none twice? (Both are sorted.) */
static bool subset(offers *a, offers *b) {
    qsort(a->users, (size_t)a->count, sizeof(int32_t), compare_users);
    qsort(b->users, (size_t)b->count, sizeof(int32_t), compare_users);
    int32_t g = 0;
    for (int32_t k = 0; k < a->count; ++k) {
        if (k > 0 && a->users[k] == a->users[k - 1]) {
            return false;
        }
        while (g < b->count && b->users[g] < a->users[k]) {
            ++g;
        }
        if (g == b->count || b->users[g] != a->users[k]) {
            return false;
        }
    }
    return true;
}

/* A ray of the kind the scenes need: mostly diagonal, sometimes along an axis, of any length. */
static void random_ray(ws_rng *rng, float half, rc_vec2 *origin, rc_vec2 *translation) {
    *origin = rc_v2(ws_range(rng, -half, half), ws_range(rng, -half, half));
    float angle = ws_range(rng, 0.0, 6.2831853);
    float length = ws_log_range(rng, 0.5, 4.0 * half);
    *translation = rc_v2(length * cosf(angle), length * sinf(angle));
    int kind = ws_int(rng, 0, 9);
    if (kind == 0) {
        translation->x = 0.0f;
    } else if (kind == 1) {
        translation->y = 0.0f;
    }
}

START_TEST(lean_copy_offers_what_the_grid_walk_offers) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = 4.0f;
    rc_grid *grid = rc_grid_create(&def);
    ck_assert(grid != NULL);
    ws_rng rng = {0x1ea7u};
    for (int i = 0; i < 3000; ++i) {
        rc_vec2 c = rc_v2(ws_range(&rng, -100, 100), ws_range(&rng, -100, 100));
        /* most small, some a few cells across, a few on coarse levels */
        float hw = i % 50 == 0 ? ws_range(&rng, 10, 40) : ws_log_range(&rng, 0.05, 5);
        float hh = i % 50 == 0 ? ws_range(&rng, 10, 40) : ws_log_range(&rng, 0.05, 5);
        rc_aabb box = {{c.x - hw, c.y - hh}, {c.x + hw, c.y + hh}};
        int32_t proxy = rc_grid_insert(grid, box, 1000 + i);
        ck_assert_int_ge(proxy, 0);
        if (i % 3 == 0) {
            ck_assert(rc_grid_set_static(grid, proxy, true)); /* entries that carry their boxes */
        }
    }
    ck_assert(rc_grid_optimize(grid));
    rc_allocator a = rc_mem_resolve((rc_allocator){NULL, NULL, NULL});
    rc_grid_lean lean;
    ck_assert(rc_grid_lean_build(grid, &a, &lean));
    ck_assert_uint_ne(lean.held, 0u); /* the scene's levels have windows */
    bool merged = false;
    for (int32_t k = 0; k < lean.count; ++k) {
        merged = merged || __builtin_popcountll(lean.levels[k].covers) == 2;
    }
    ck_assert(merged); /* a level walked with the one below it */
    int32_t walked_whole = 0, swept_whole = 0;
    static offers from_grid, from_lean, from_rest;
    for (int r = 0; r < 4000; ++r) {
        rc_vec2 origin, translation;
        random_ray(&rng, 110.0f, &origin, &translation);
        /* a third swept circles, most of them short (a grenade's step) */
        float radius = r % 3 != 0 ? 0.0f : ws_log_range(&rng, 0.05, 6.0);
        if (radius > 0.0f && r % 2 == 0) {
            translation = rc_scale(0.01f, translation);
        }
        from_grid.count = from_lean.count = from_rest.count = 0;
        rc_grid_cast_circle(grid, origin, radius, translation, 1.0f, grid_offer, &from_grid);
        float max_t = 1.0f;
        uint64_t left = rc_grid_lean_cast(&lean, origin, radius, translation, &max_t, lean_offer, &from_lean);
        ck_assert(max_t == 1.0f);
        ck_assert_uint_eq(left & ~(lean.held | lean.others), 0u);
        walked_whole += (left & lean.held) == 0u;
        swept_whole += radius > 0.0f && (left & lean.held) == 0u;
        if (left != 0u) {
            rc_grid_cast_levels(grid, left, origin, radius, translation, 1.0f, false, grid_offer, &from_rest);
        }
        /* the copy's offers and the rest's are the grid's (a level twice as coarse may be merged
           into the one below it, so the order across levels differs); boxed entries are offered
           by the grid when their quantised boxes (a little larger) are reached, so the grid may
           offer a few more. Nothing twice. */
        for (int32_t k = 0; k < from_rest.count; ++k) {
            from_lean.users[from_lean.count++] = from_rest.users[k];
        }
        ck_assert_msg(subset(&from_lean, &from_grid), "ray %d: the copy offered what the grid did not", r);
        from_rest.count = 0;
        ck_assert_int_ge(from_lean.count, from_grid.count - 2);
    }
    ck_assert_int_gt(walked_whole, 1000); /* many rays stay in the windows */
    ck_assert_int_gt(swept_whole, 300);   /* and many short sweeps are the copy's alone */
    rc_grid_lean_free(&a, &lean);
    ck_assert_uint_eq(lean.held, 0u);
    rc_grid_destroy(grid);
}
END_TEST

/* A level of a few large props spread over a dense level's area (rays-transformed's largest
 * shapes) is too thin for a window of its own, but it is twice as coarse and all in the dense
 * level's window: the copy walks it with that level, and tells nothing back. (It was left to the
 * grid, so that every ray walked that level there too: 30% of a ray's time.) */
START_TEST(a_thin_coarse_level_is_walked_with_the_one_below) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = 4.0f;
    rc_grid *grid = rc_grid_create(&def);
    ck_assert(grid != NULL);
    ws_rng rng = {0x7415u};
    for (int i = 0; i < 20000; ++i) {
        rc_vec2 c = rc_v2(ws_range(&rng, -400, 400), ws_range(&rng, -400, 400));
        float h = ws_range(&rng, 0.3, 1.5);
        ck_assert_int_ge(rc_grid_insert(grid, (rc_aabb){{c.x - h, c.y - h}, {c.x + h, c.y + h}}, i), 0);
    }
    for (int i = 0; i < 20; ++i) { /* 7 units across: at most two cells of 8, the next level */
        rc_vec2 c = rc_v2(ws_range(&rng, -380, 380), ws_range(&rng, -380, 380));
        ck_assert_int_ge(rc_grid_insert(grid, (rc_aabb){{c.x - 3.5f, c.y - 3.5f}, {c.x + 3.5f, c.y + 3.5f}}, 100000 + i), 0);
    }
    ck_assert(rc_grid_optimize(grid));
    rc_grid_stats stats = rc_grid_get_stats(grid);
    ck_assert_int_ge(stats.levels_in_use, 2); /* the large ones on a coarser level */
    rc_allocator a = rc_mem_resolve((rc_allocator){NULL, NULL, NULL});
    rc_grid_lean lean;
    ck_assert(rc_grid_lean_build(grid, &a, &lean));
    ck_assert_uint_eq(lean.others, 0u);
    ck_assert_int_eq(lean.count, 1);
    ck_assert_int_eq(__builtin_popcountll(lean.levels[0].covers), 2);
    /* and it offers what the grid does: every large prop a ray crosses among them */
    static offers from_grid, from_lean;
    for (int r = 0; r < 500; ++r) {
        rc_vec2 origin, translation;
        random_ray(&rng, 380.0f, &origin, &translation);
        from_grid.count = from_lean.count = 0;
        rc_grid_cast_circle(grid, origin, 0.0f, translation, 1.0f, grid_offer, &from_grid);
        float max_t = 1.0f;
        ck_assert_uint_eq(rc_grid_lean_cast(&lean, origin, 0.0f, translation, &max_t, lean_offer, &from_lean), 0u);
        ck_assert(subset(&from_lean, &from_grid));
        ck_assert_int_eq(from_lean.count, from_grid.count); /* (no boxed entries: the same offers) */
    }
    rc_grid_lean_free(&a, &lean);
    rc_grid_destroy(grid);
}
END_TEST

/* Every box the ray crosses well inside (a chord longer than a hundredth of a cell) is offered by
 * the copy or by the levels it tells back: a brute force over the boxes. */
START_TEST(lean_copy_offers_every_box_crossed) {
    rc_grid_def def = rc_grid_default_def();
    rc_grid *grid = rc_grid_create(&def); /* automatic cell size */
    ck_assert(grid != NULL);
    ws_rng rng = {0xb0c5u};
    enum { N = 1500 };
    static rc_aabb boxes[N];
    for (int i = 0; i < N; ++i) {
        rc_vec2 c = rc_v2(ws_range(&rng, -60, 60), ws_range(&rng, -60, 60));
        float hw = ws_log_range(&rng, 0.1, 3), hh = ws_log_range(&rng, 0.1, 3);
        boxes[i] = (rc_aabb){{c.x - hw, c.y - hh}, {c.x + hw, c.y + hh}};
        int32_t proxy = rc_grid_insert(grid, boxes[i], i);
        ck_assert(rc_grid_set_static(grid, proxy, true));
    }
    ck_assert(rc_grid_optimize(grid));
    rc_allocator a = rc_mem_resolve((rc_allocator){NULL, NULL, NULL});
    rc_grid_lean lean;
    ck_assert(rc_grid_lean_build(grid, &a, &lean));
    static offers got;
    static bool seen[N];
    int32_t crossed = 0;
    for (int r = 0; r < 1500; ++r) {
        rc_vec2 origin, translation;
        random_ray(&rng, 70.0f, &origin, &translation);
        got.count = 0;
        float max_t = 1.0f;
        uint64_t left = rc_grid_lean_cast(&lean, origin, 0.0f, translation, &max_t, lean_offer, &got);
        if (left != 0u) {
            rc_grid_cast_levels(grid, left, origin, 0.0f, translation, 1.0f, false, grid_offer, &got);
        }
        memset(seen, 0, sizeof seen);
        for (int32_t k = 0; k < got.count; ++k) {
            ck_assert_msg(!seen[got.users[k]], "ray %d offered box %d twice", r, (int)got.users[k]);
            seen[got.users[k]] = true;
        }
        for (int i = 0; i < N; ++i) {
            /* the chord of the ray in the box, in double */
            double t0 = 0.0, t1 = 1.0;
            double o[2] = {origin.x, origin.y}, d[2] = {translation.x, translation.y};
            double lo[2] = {boxes[i].lower.x, boxes[i].lower.y}, hi[2] = {boxes[i].upper.x, boxes[i].upper.y};
            for (int axis = 0; axis < 2; ++axis) {
                if (d[axis] == 0.0) {
                    if (o[axis] <= lo[axis] + 0.01 || o[axis] >= hi[axis] - 0.01) {
                        t1 = -1.0;
                    }
                    continue;
                }
                double a0 = (lo[axis] - o[axis]) / d[axis], a1 = (hi[axis] - o[axis]) / d[axis];
                t0 = fmax(t0, fmin(a0, a1));
                t1 = fmin(t1, fmax(a0, a1));
            }
            double length = sqrt(d[0] * d[0] + d[1] * d[1]);
            if ((t1 - t0) * length > 0.01) {
                ++crossed;
                ck_assert_msg(seen[i], "ray %d crosses box %d, not offered", r, i);
            }
        }
    }
    ck_assert_int_gt(crossed, 5000);
    rc_grid_lean_free(&a, &lean);
    rc_grid_destroy(grid);
}
END_TEST

/* ---- a world's casts through the copy ----------------------------------------------------------- */

/* A level of every kind of shape (several levels of the grid: small props, large slabs, long
 * walls in pieces), a sensor over part of it, and kinematic bodies in the other grid. */
static rc_world *make_level(bool lean_off, rc_body_id *level_out) {
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, 0.0f);
    rc_world *w = rc_world_create(&def);
    ck_assert(w != NULL);
    w->lean_off = lean_off;
    rc_body_id level = ws_static_body(w);
    *level_out = level;
    ws_rng rng = {0x5eed1u};
    for (int i = 0; i < 400; ++i) {
        rc_shape_def sd = rc_shape_default_def();
        sd.offset = rc_v2(ws_range(&rng, -150, 150), ws_range(&rng, -150, 150));
        sd.angle = ws_range(&rng, -3.1, 3.1);
        sd.filter.category_bits = 1u << (i % 3);
        sd.filter.group_index = i % 11 == 0 ? 2 : 0;
        rc_shape_id id;
        switch (i % 5) {
        case 0: {
            rc_vec2 v[8];
            int n = ws_random_convex(&rng, ws_range(&rng, 0.3, 4), v);
            id = rc_shape_create_polygon(w, level, &sd, v, n);
            break;
        }
        case 1:
            id = rc_shape_create_circle(w, level, &sd, ws_log_range(&rng, 0.1, 5));
            break;
        case 2:
            id = rc_shape_create_capsule(w, level, &sd, rc_v2(-1, 0), rc_v2(ws_range(&rng, 0, 3), 1),
                                         ws_range(&rng, 0.05, 1));
            break;
        case 3:
            sd.scale = rc_v2(ws_range(&rng, 0.3, 3), ws_range(&rng, 0.3, 3));
            id = rc_shape_create_box(w, level, &sd, ws_range(&rng, 0.2, 2), ws_range(&rng, 0.2, 2));
            break;
        default:
            /* now and then a slab far larger than the cells (a coarse level) */
            id = rc_shape_create_box(w, level, &sd, i % 25 == 4 ? 30.0f : 1.0f, i % 25 == 4 ? 2.0f : 0.5f);
            break;
        }
        ck_assert(!rc_shape_id_is_null(id));
    }
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 loop[5] = {{-170, -170}, {170, -170}, {175, 0}, {170, 170}, {-170, 170}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, loop, 5, true)));
    /* long slanted walls, one-sided and two-sided, cut into pieces by the world */
    sd.one_sided = true;
    rc_vec2 ledge[3] = {{-160, -100}, {0, -60}, {160, -110}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, ledge, 3, false)));
    sd.one_sided = false;
    rc_vec2 wall[2] = {{-140, 150}, {150, -20}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, level, &sd, wall, 2, false)));
    rc_shape_def sensor = rc_shape_default_def();
    sensor.is_sensor = true;
    sensor.offset = rc_v2(20, 20);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, level, &sensor, 40, 40)));
    for (int i = 0; i < 30; ++i) {
        rc_body_id k = ws_body(w, RC_KINEMATIC, rc_v2(ws_range(&rng, -150, 150), ws_range(&rng, -150, 150)), 0.3f);
        rc_shape_def kd = rc_shape_default_def();
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, k, &kd, 1.5f, 0.5f)));
    }
    return w;
}

typedef struct cast_answer {
    bool hit;
    rc_ray_hit h;
} cast_answer;

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Two answers are the same bits, field by field (a hit's padding is not part of it). */
static bool same_answer(const cast_answer *a, const cast_answer *b) {
    if (a->hit != b->hit) {
        return false;
    }
    if (!a->hit) {
        return true;
    }
    const rc_ray_hit *x = &a->h, *y = &b->h;
    return same_bits(x->t, y->t) && same_bits(x->point.x, y->point.x) && same_bits(x->point.y, y->point.y) &&
           same_bits(x->normal.x, y->normal.x) && same_bits(x->normal.y, y->normal.y) &&
           x->started_inside == y->started_inside && rc_shape_id_equals(x->shape, y->shape) &&
           rc_body_id_equals(x->body, y->body);
}

static bool same_answers(const cast_answer *a, const cast_answer *b, int n) {
    for (int i = 0; i < n; ++i) {
        if (!same_answer(&a[i], &b[i])) {
            return false;
        }
    }
    return true;
}

/* The same rays and swept circles, plain and under four filters, every answer. */
static void cast_all(const rc_world *w, rc_body_id level, cast_answer *out, int rays) {
    ws_rng rng = {0xca57u};
    for (int r = 0; r < rays; ++r) {
        rc_vec2 origin, translation;
        random_ray(&rng, 180.0f, &origin, &translation);
        /* every fourth a swept circle, half of those short */
        float radius = r % 4 != 0 ? 0.0f : ws_log_range(&rng, 0.05, 3.0);
        if (radius > 0.0f && r % 8 == 0) {
            translation = rc_scale(0.02f, translation);
        }
        for (int f = 0; f < 5; ++f) {
            cast_answer *a = &out[5 * r + f];
            memset(a, 0, sizeof *a);
            if (f == 0) {
                a->hit = radius > 0.0f ? rc_world_cast_circle(w, origin, radius, translation, &a->h)
                                       : rc_world_cast_ray(w, origin, translation, &a->h);
                continue;
            }
            rc_query_filter q = rc_default_query_filter();
            q.mask_bits = f == 1 ? 1u : (f == 2 ? 6u : UINT32_MAX);
            q.group_index = f == 3 ? 2 : 0;
            if (f == 4) {
                q.ignore_body = level; /* sees the kinematic bodies alone */
            }
            a->hit = radius > 0.0f ? rc_world_cast_circle_filtered(w, origin, radius, translation, q, &a->h)
                                   : rc_world_cast_ray_filtered(w, origin, translation, q, &a->h);
        }
    }
}

START_TEST(world_casts_through_the_copy_answer_as_the_grids) {
    enum { RAYS = 3000 };
    static cast_answer grids[5 * RAYS], lean[5 * RAYS];
    rc_body_id level;
    rc_world *w = make_level(false, &level);
    ck_assert(rc_fresh_level_lean(w) == NULL); /* made by the step */
    cast_all(w, level, grids, RAYS);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    const rc_level_lean *copy = rc_fresh_level_lean(w);
    ck_assert(copy != NULL);
    ck_assert_uint_ne(copy->cells.held, 0u);
    cast_all(w, level, lean, RAYS);
    int hits = 0, kinds[5] = {0};
    for (int i = 0; i < 5 * RAYS; ++i) {
        ck_assert_msg(same_answer(&grids[i], &lean[i]),
                      "answer %d (ray %d, filter %d) differs: t %.9g / %.9g, shape %u / %u", i, i / 5, i % 5,
                      (double)grids[i].h.t, (double)lean[i].h.t, grids[i].h.shape.index, lean[i].h.shape.index);
        hits += grids[i].hit;
        if (grids[i].hit && i % 5 == 0) {
            rc_shape_type t = rc_shape_get_type(w, grids[i].h.shape);
            kinds[t == RC_SHAPE_TYPE_CIRCLE ? 0 : t == RC_SHAPE_TYPE_POLYGON ? 1 : t == RC_SHAPE_TYPE_SEGMENT ? 2 : 3]++;
        }
    }
    ck_assert_int_gt(hits, RAYS);
    for (int k = 0; k < 4; ++k) {
        ck_assert_int_gt(kinds[k], 10); /* every kind of shape was struck */
    }
    rc_world_destroy(w);
}
END_TEST

/* Point bullets and grenades swept through the copy end every step where they end through the
 * grids, with the same impacts. */
START_TEST(bullets_swept_through_the_copy_as_through_the_grids) {
    rc_body_id level_a, level_b;
    rc_world *a = make_level(false, &level_a), *b = make_level(true, &level_b);
    ck_assert(rc_world_set_gravity(a, rc_v2(0.0f, -30.0f)) && rc_world_set_gravity(b, rc_v2(0.0f, -30.0f)));
    enum { BULLETS = 400 };
    rc_body_id ba[BULLETS], bb[BULLETS];
    ws_rng rng = {0xb011e7u};
    for (int i = 0; i < BULLETS; ++i) {
        rc_vec2 p = rc_v2(ws_range(&rng, -160, 160), ws_range(&rng, -160, 160));
        float angle = ws_range(&rng, 0, 6.2831853);
        /* point bullets, and every third a grenade (a swept circle) thrown about */
        float speed = i % 3 == 0 ? 60.0f : 900.0f;
        rc_vec2 v = rc_v2(speed * cosf(angle), speed * sinf(angle));
        if (i % 3 == 0) {
            float radius = ws_range(&rng, 0.1, 0.6);
            ba[i] = ws_circle_body(a, p, v, radius, 0.4f, 0.5f, false);
            bb[i] = ws_circle_body(b, p, v, radius, 0.4f, 0.5f, false);
        } else {
            ba[i] = ws_point_bullet(a, p, v, 6);
            bb[i] = ws_point_bullet(b, p, v, 6);
        }
    }
    int64_t impacts = 0;
    for (int s = 0; s < 40; ++s) {
        ck_assert(rc_world_step(a, 1.0f / 60.0f));
        ck_assert(rc_world_step(b, 1.0f / 60.0f));
        ck_assert(rc_fresh_level_lean(a) != NULL && rc_fresh_level_lean(b) == NULL);
        for (int i = 0; i < BULLETS; ++i) {
            rc_vec2 pa = rc_body_position(a, ba[i]), pb = rc_body_position(b, bb[i]);
            rc_vec2 va = rc_body_linear_velocity(a, ba[i]), vb = rc_body_linear_velocity(b, bb[i]);
            ck_assert_msg(memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&va, &vb, sizeof va) == 0,
                          "step %d bullet %d: (%.9g, %.9g) / (%.9g, %.9g)", s, i, (double)pa.x, (double)pa.y,
                          (double)pb.x, (double)pb.y);
        }
        const rc_impact_event *ea, *eb;
        int na = rc_world_impact_events(a, &ea), nb = rc_world_impact_events(b, &eb);
        ck_assert_int_eq(na, nb);
        for (int k = 0; k < na; ++k) {
            ck_assert(ea[k].shape.index == eb[k].shape.index && memcmp(&ea[k].point, &eb[k].point, sizeof ea[k].point) == 0 &&
                      memcmp(&ea[k].normal, &eb[k].normal, sizeof ea[k].normal) == 0);
        }
        impacts += na;
    }
    ck_assert_int_gt(impacts, 300);
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

/* ---- the copy follows the level ------------------------------------------------------------------ */

/* Step until the step makes the copy again (it waits for a quiet level: level_lean.h); how many
 * steps that took. */
static int step_until_fresh(rc_world *w, int most) {
    for (int n = 1; n <= most; ++n) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        if (rc_fresh_level_lean(w) != NULL) {
            return n;
        }
    }
    ck_abort_msg("no copy after %d steps", most);
    return -1;
}

START_TEST(the_copy_follows_the_level) {
    rc_body_id level;
    rc_world *w = make_level(false, &level);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert(rc_fresh_level_lean(w) != NULL);
    /* a clear line below the ledge's low end, then a box put on it */
    rc_vec2 origin = rc_v2(-195.0f, -185.0f), translation = rc_v2(390.0f, 0.0f);
    rc_ray_hit before, hit;
    bool hit_before = rc_world_cast_ray(w, origin, translation, &before);
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(-190.0f, -185.0f);
    rc_shape_id box = rc_shape_create_box(w, level, &sd, 1.0f, 1.0f);
    ck_assert(!rc_shape_id_is_null(box));
    ck_assert(rc_fresh_level_lean(w) == NULL); /* stale: the grids answer */
    ck_assert(rc_world_cast_ray(w, origin, translation, &hit));
    ck_assert(rc_shape_id_equals(hit.shape, box));
    ck_assert_float_eq(hit.t, 4.0f / 390.0f);
    step_until_fresh(w, 4);
    rc_ray_hit again;
    ck_assert(rc_world_cast_ray(w, origin, translation, &again));
    ck_assert(same_answer(&(cast_answer){true, hit}, &(cast_answer){true, again}));
    /* the level body moved: the box with it */
    ck_assert(rc_body_set_transform(w, level, rc_v2(0.0f, 3.0f), 0.0f));
    step_until_fresh(w, 8);
    ck_assert(rc_world_cast_ray(w, rc_v2(-195.0f, -182.0f), translation, &again));
    ck_assert(rc_shape_id_equals(again.shape, box));
    ck_assert_float_eq(again.t, 4.0f / 390.0f);
    ck_assert(rc_body_set_transform(w, level, rc_v2(0.0f, 0.0f), 0.0f));
    /* destroyed: not seen, before and after the next step */
    rc_shape_destroy(w, box);
    rc_ray_hit after;
    bool hit_after = rc_world_cast_ray(w, origin, translation, &after);
    ck_assert(hit_after == hit_before);
    ck_assert(same_answer(&(cast_answer){hit_after, after}, &(cast_answer){hit_before, before}));
    step_until_fresh(w, 16);
    hit_after = rc_world_cast_ray(w, origin, translation, &after);
    ck_assert(hit_after == hit_before);
    ck_assert(same_answer(&(cast_answer){hit_after, after}, &(cast_answer){hit_before, before}));
    rc_world_destroy(w);
}
END_TEST

/* A snapshot restored into a world of another level: the copy is the old level's, so the casts
 * walk the grids until the next step; then the copy is the new level's. */
START_TEST(a_restored_level_is_seen) {
    rc_body_id level_a, level_b;
    rc_world *a = make_level(false, &level_a);
    rc_world_def def = rc_world_default_def();
    def.gravity = rc_v2(0.0f, 0.0f);
    rc_world *b = rc_world_create(&def);
    rc_body_id lb = ws_static_body(b);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(b, lb, &sd, 500.0f, 1.0f)));
    (void)level_b;
    ck_assert(rc_world_step(a, 1.0f / 60.0f));
    ck_assert(rc_world_step(b, 1.0f / 60.0f));
    ck_assert(rc_fresh_level_lean(b) != NULL);
    size_t size = rc_world_snapshot_size(a);
    void *bytes = malloc(size);
    ck_assert(rc_world_snapshot(a, bytes, size) == size);
    ck_assert(rc_world_restore(b, bytes, size));
    free(bytes);
    ck_assert(rc_fresh_level_lean(b) == NULL);
    enum { RAYS = 500 };
    static cast_answer in_a[5 * RAYS], in_b[5 * RAYS];
    cast_all(a, level_a, in_a, RAYS);
    cast_all(b, level_a, in_b, RAYS);
    ck_assert(same_answers(in_a, in_b, 5 * RAYS));
    ck_assert(rc_world_step(a, 1.0f / 60.0f));
    step_until_fresh(b, 4);
    cast_all(a, level_a, in_a, RAYS);
    cast_all(b, level_a, in_b, RAYS);
    ck_assert(same_answers(in_a, in_b, 5 * RAYS));
    rc_world_destroy(a);
    rc_world_destroy(b);
}
END_TEST

/* A level that changes at every step is never copied (a copy of all of it each step would cost
 * more than it saves); one that changes now and then waits for longer quiet spells after each
 * copy that served only a few steps, and none once a copy has served long. */
START_TEST(the_copy_waits_for_a_quiet_level) {
    rc_body_id level;
    rc_world *w = make_level(false, &level);
    ck_assert_int_eq(step_until_fresh(w, 1), 1); /* a new level: at once */
    rc_shape_def sd = rc_shape_default_def();
    sd.offset = rc_v2(0.0f, -190.0f);
    rc_shape_id door = rc_shape_create_box(w, level, &sd, 2.0f, 1.0f);
    /* changed at every step: never copied */
    for (int s = 0; s < 40; ++s) {
        rc_shape_set_friction(w, door, s % 2 == 0 ? 0.5f : 0.6f);
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        ck_assert(rc_fresh_level_lean(w) == NULL);
    }
    /* quiet again: copied after a wait, which doubles with each copy that serves a step */
    int waits[4];
    for (int k = 0; k < 4; ++k) {
        waits[k] = step_until_fresh(w, 200);
        rc_shape_set_friction(w, door, 0.5f + 0.01f * (float)k);
    }
    ck_assert_int_eq(waits[0], 1);
    ck_assert_int_eq(waits[1], 3);
    ck_assert_int_eq(waits[2], 5);
    ck_assert_int_eq(waits[3], 9);
    /* a copy that serves long: the next change is copied at once */
    ck_assert_int_le(step_until_fresh(w, 200), 64 + 1);
    for (int s = 0; s < RC_LEAN_SHORT_LIFE; ++s) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    rc_shape_set_friction(w, door, 0.7f);
    ck_assert_int_eq(step_until_fresh(w, 200), 1);
    rc_world_destroy(w);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("lean_casts");
    TCase *tc = tcase_create("lean");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lean_copy_offers_what_the_grid_walk_offers);
    tcase_add_test(tc, a_thin_coarse_level_is_walked_with_the_one_below);
    tcase_add_test(tc, lean_copy_offers_every_box_crossed);
    tcase_add_test(tc, world_casts_through_the_copy_answer_as_the_grids);
    tcase_add_test(tc, bullets_swept_through_the_copy_as_through_the_grids);
    tcase_add_test(tc, the_copy_follows_the_level);
    tcase_add_test(tc, a_restored_level_is_seen);
    tcase_add_test(tc, the_copy_waits_for_a_quiet_level);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rc_test_run(suite()); }
