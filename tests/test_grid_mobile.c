/* Mobile proxies (broadphase.h): a cast that skips them offers exactly what the same cast
 * without skipping offers, less the mobile proxies, through churn that rewrites the cells'
 * entries (moves within and across levels, boxed static proxies, removals and reuse of ids,
 * rebuilds as the automatic cell size changes, far coordinates in the hashed cells). */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/grid.h>

#include "broadphase/broadphase.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

enum { MAX_IDS = 4096 };

/* Mostly small boxes, some large ones that span many cells or sit on a coarser level. */
static rc_aabb random_box(ws_rng *r, rc_vec2 centre, float spread) {
    double u = ws_uniform(r);
    float h = u < 0.8 ? ws_range(r, 0.05, 1.0) : (u < 0.95 ? ws_range(r, 1.0, 8.0) : ws_range(r, 8.0, 60.0));
    float w = h * ws_range(r, 0.3, 3.0);
    rc_vec2 c = {centre.x + ws_range(r, -spread, spread), centre.y + ws_range(r, -spread, spread)};
    rc_aabb b = {{c.x - w, c.y - h}, {c.x + w, c.y + h}};
    return b;
}

typedef struct offers {
    bool seen[MAX_IDS];
    int32_t count;
} offers;

static float collect(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)user;
    offers *o = context;
    EXPECT(proxy >= 0 && proxy < MAX_IDS, "offered proxy %d", proxy);
    EXPECT(!o->seen[proxy], "proxy %d offered twice", proxy);
    o->seen[proxy] = true;
    o->count++;
    return max_fraction; /* never clip: every proxy the walk reaches is offered */
}

typedef struct scene {
    rc_grid *grid;
    bool live[MAX_IDS], mobile[MAX_IDS];
    int32_t high;
} scene;

static void insert(scene *s, ws_rng *r, rc_vec2 centre, float spread) {
    rc_aabb box = random_box(r, centre, spread);
    int32_t id = rc_grid_insert(s->grid, box, 0);
    ck_assert_int_ge(id, 0);
    ck_assert_int_lt(id, MAX_IDS);
    s->live[id] = true;
    s->mobile[id] = false; /* a new proxy (or a reused id) starts not mobile */
    s->high = id + 1 > s->high ? id + 1 : s->high;
    if (ws_uniform(r) < 0.2) {
        ck_assert(rc_grid_set_static(s->grid, id, true));
    }
    if (ws_uniform(r) < 0.5) {
        ck_assert(rc_grid_set_mobile(s->grid, id, true));
        s->mobile[id] = true;
    }
}

/* Casts from random origins, rays and circles: skipping offers the unskipped set less the
 * mobile proxies. Returns how many proxies the skipping casts left out. */
static int64_t compare_casts(const scene *s, ws_rng *r, rc_vec2 centre, float spread, int casts) {
    int64_t left_out = 0;
    for (int k = 0; k < casts; ++k) {
        rc_vec2 origin = {centre.x + ws_range(r, -spread, spread), centre.y + ws_range(r, -spread, spread)};
        float a = ws_range(r, 0.0, 6.283185307), length = ws_range(r, 0.0, 2.5 * spread);
        rc_vec2 d = {length * cosf(a), length * sinf(a)};
        float radius = ws_uniform(r) < 0.5 ? 0.0f : ws_range(r, 0.01, 2.0);
        static offers all, kept;
        memset(&all, 0, sizeof all);
        memset(&kept, 0, sizeof kept);
        rc_grid_cast_trusted(s->grid, origin, radius, d, 1.0f, false, collect, &all);
        rc_grid_cast_trusted(s->grid, origin, radius, d, 1.0f, true, collect, &kept);
        for (int32_t id = 0; id < s->high; ++id) {
            EXPECT(!kept.seen[id] || !s->mobile[id], "cast %d: mobile proxy %d was offered", k, id);
            EXPECT(kept.seen[id] == (all.seen[id] && !s->mobile[id]),
                   "cast %d: proxy %d (mobile %d) offered %d skipping, %d not skipping", k, id, s->mobile[id],
                   kept.seen[id], all.seen[id]);
            left_out += all.seen[id] && s->mobile[id];
        }
    }
    return left_out;
}

/* Moves small (within the cells) and large (new cells, other levels), removals, reinsertions
 * that reuse ids, and mobile flags turned on and off. */
static void churn(scene *s, ws_rng *r, rc_vec2 centre, float spread) {
    for (int32_t id = 0; id < s->high; ++id) {
        if (!s->live[id]) {
            continue;
        }
        double u = ws_uniform(r);
        if (u < 0.3) {
            rc_aabb b = rc_grid_get_box(s->grid, id);
            float dx = ws_uniform(r) < 0.5 ? ws_range(r, -0.05, 0.05) : ws_range(r, -spread, spread);
            b.lower.x += dx;
            b.upper.x += dx;
            if (ws_uniform(r) < 0.2) {
                b.upper.y += ws_range(r, 0.0, 20.0); /* may move it to a coarser level */
            }
            ck_assert(rc_grid_move(s->grid, id, b));
        } else if (u < 0.4) {
            ck_assert(rc_grid_remove(s->grid, id));
            s->live[id] = false;
        } else if (u < 0.6) {
            s->mobile[id] = !s->mobile[id];
            ck_assert(rc_grid_set_mobile(s->grid, id, s->mobile[id]));
        }
    }
    for (int i = 0; i < 40; ++i) {
        insert(s, r, centre, spread);
    }
}

static void run_scene(rc_vec2 centre, float spread, uint64_t seed) {
    scene *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    rc_grid_def def = rc_grid_default_def(); /* automatic cell size: rebuilt as the population grows */
    s->grid = rc_grid_create(&def);
    ck_assert_ptr_nonnull(s->grid);
    ws_rng r = {seed};
    int64_t left_out = 0;
    for (int round = 0; round < 6; ++round) {
        int inserts = round == 0 ? 300 : 150;
        for (int i = 0; i < inserts; ++i) {
            insert(s, &r, centre, spread);
        }
        left_out += compare_casts(s, &r, centre, spread, 150);
        churn(s, &r, centre, spread);
        left_out += compare_casts(s, &r, centre, spread, 150);
    }
    /* the property is not empty: the skipping casts really left mobile proxies out */
    ck_assert_int_gt(left_out, 1000);
    rc_grid_destroy(s->grid);
    free(s);
}

START_TEST(skipping_leaves_out_exactly_the_mobile_proxies) { run_scene((rc_vec2){0.0f, 0.0f}, 40.0f, 1); }
END_TEST

START_TEST(far_from_the_origin_in_hashed_cells) { run_scene((rc_vec2){1.0e5f, -3.0e4f}, 60.0f, 2); }
END_TEST

START_TEST(stale_proxies_are_refused) {
    rc_grid_def def = rc_grid_default_def();
    rc_grid *g = rc_grid_create(&def);
    rc_aabb box = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    int32_t id = rc_grid_insert(g, box, 7);
    ck_assert(rc_grid_set_mobile(g, id, true));
    ck_assert(rc_grid_remove(g, id));
    ck_assert(!rc_grid_set_mobile(g, id, false));
    ck_assert(!rc_grid_set_mobile(g, -1, true));
    ck_assert(!rc_grid_set_mobile(g, 1000, true));
    ck_assert(!rc_grid_set_mobile(NULL, 0, true));
    /* the id comes back not mobile: a skipping cast offers it */
    int32_t again = rc_grid_insert(g, box, 7);
    ck_assert_int_eq(again, id);
    offers o;
    memset(&o, 0, sizeof o);
    rc_grid_cast_trusted(g, (rc_vec2){-1.0f, 0.5f}, 0.0f, (rc_vec2){3.0f, 0.0f}, 1.0f, true, collect, &o);
    ck_assert_int_eq(o.count, 1);
    ck_assert(o.seen[id]);
    rc_grid_destroy(g);
}
END_TEST

int main(void) {
    Suite *s = suite_create("grid_mobile");
    TCase *t = tcase_create("mobile");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, skipping_leaves_out_exactly_the_mobile_proxies);
    tcase_add_test(t, far_from_the_origin_in_hashed_cells);
    tcase_add_test(t, stale_proxies_are_refused);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
