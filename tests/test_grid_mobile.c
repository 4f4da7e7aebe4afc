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

static bool note_found(int32_t proxy, int32_t user, void *context) {
    return collect(proxy, user, 1.0f, context) >= 0.0f;
}

/* Skipping offered the unskipped set less the mobile proxies; how many it left out. */
static int64_t compare_offers(const scene *s, const offers *all, const offers *kept, const char *what, int k) {
    int64_t left_out = 0;
    for (int32_t id = 0; id < s->high; ++id) {
        EXPECT(!kept->seen[id] || !s->mobile[id], "%s %d: mobile proxy %d was offered", what, k, id);
        EXPECT(kept->seen[id] == (all->seen[id] && !s->mobile[id]),
               "%s %d: proxy %d (mobile %d) offered %d skipping, %d not skipping", what, k, id, s->mobile[id],
               kept->seen[id], all->seen[id]);
        left_out += all->seen[id] && s->mobile[id];
    }
    return left_out;
}

/* Casts from random origins, rays and circles, and box queries: skipping offers the unskipped
 * set less the mobile proxies. Returns how many proxies the skipping walks left out. */
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
        left_out += compare_offers(s, &all, &kept, "cast", k);
        /* and a box query about the same place */
        rc_aabb box = {{origin.x - radius - fabsf(d.x), origin.y - radius - fabsf(d.y)},
                       {origin.x + radius + fabsf(d.x), origin.y + radius + fabsf(d.y)}};
        memset(&all, 0, sizeof all);
        memset(&kept, 0, sizeof kept);
        rc_grid_query_aabb_trusted(s->grid, box, false, note_found, &all);
        rc_grid_query_aabb_trusted(s->grid, box, true, note_found, &kept);
        left_out += compare_offers(s, &all, &kept, "box query", k);
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

/* What a skipping cast and box query across the scene offer (ids as a bit set, up to 64). */
static uint64_t skipping_offers(const rc_grid *g) {
    offers cast, query;
    memset(&cast, 0, sizeof cast);
    memset(&query, 0, sizeof query);
    rc_grid_cast_trusted(g, (rc_vec2){-30.0f, 0.1f}, 0.5f, (rc_vec2){60.0f, 0.0f}, 1.0f, true, collect, &cast);
    rc_aabb all = {{-30.0f, -30.0f}, {30.0f, 30.0f}};
    rc_grid_query_aabb_trusted(g, all, true, note_found, &query);
    uint64_t bits = 0;
    for (int32_t id = 0; id < 64; ++id) {
        ck_assert_int_eq(cast.seen[id], query.seen[id]);
        bits |= cast.seen[id] ? (uint64_t)1 << id : 0u;
    }
    return bits;
}

/* A walk that skips mobile proxies passes over a level holding only mobile ones without
 * visiting its cells: the level's count of the others must follow every change that makes a
 * proxy mobile or not, moves it to another level, removes it or reuses its id. */
START_TEST(levels_of_only_mobile_proxies_are_passed_over_exactly) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = 1.0f; /* fixed: the small boxes on one level, the large ones on coarser ones */
    rc_grid *g = rc_grid_create(&def);
    ck_assert_ptr_nonnull(g);
    int32_t small[40];
    for (int i = 0; i < 40; ++i) {
        float x = -20.0f + (float)i;
        rc_aabb b = {{x, -0.2f}, {x + 0.4f, 0.4f}};
        small[i] = rc_grid_insert(g, b, i);
        ck_assert_int_eq(small[i], i);
        ck_assert(rc_grid_set_mobile(g, small[i], true));
    }
    rc_aabb wide = {{-25.0f, -1.0f}, {25.0f, 12.0f}};
    int32_t big = rc_grid_insert(g, wide, 40);
    ck_assert_int_eq(big, 40);
    ck_assert(skipping_offers(g) == (uint64_t)1 << big);
    ck_assert(rc_grid_set_mobile(g, big, true));
    ck_assert(skipping_offers(g) == 0u);
    /* one small one not mobile: its level is walked again */
    ck_assert(rc_grid_set_mobile(g, small[7], false));
    ck_assert(skipping_offers(g) == (uint64_t)1 << 7);
    /* moved to the big boxes' level and back */
    ck_assert(rc_grid_move(g, small[7], wide));
    ck_assert(skipping_offers(g) == (uint64_t)1 << 7);
    rc_aabb back = {{-13.0f, -0.2f}, {-12.6f, 0.4f}};
    ck_assert(rc_grid_move(g, small[7], back));
    ck_assert(skipping_offers(g) == (uint64_t)1 << 7);
    /* a mobile one moved across levels changes nothing */
    ck_assert(rc_grid_move(g, small[3], wide));
    ck_assert(skipping_offers(g) == (uint64_t)1 << 7);
    /* removed: nothing; its id reused, not mobile: offered */
    ck_assert(rc_grid_remove(g, small[7]));
    ck_assert(skipping_offers(g) == 0u);
    int32_t again = rc_grid_insert(g, back, 7);
    ck_assert_int_eq(again, small[7]);
    ck_assert(skipping_offers(g) == (uint64_t)1 << 7);
    /* a mobile one moved alone onto a level of its own, and made not mobile there */
    rc_aabb medium = {{4.0f, -2.0f}, {7.0f, 2.0f}};
    ck_assert(rc_grid_move(g, small[5], medium));
    ck_assert(skipping_offers(g) == (uint64_t)1 << 7);
    ck_assert(rc_grid_set_mobile(g, small[5], false));
    ck_assert(skipping_offers(g) == ((uint64_t)1 << 7 | (uint64_t)1 << 5));
    ck_assert(rc_grid_set_mobile(g, small[5], true));
    /* a mobile proxy removed leaves the counts of the others alone */
    ck_assert(rc_grid_remove(g, small[3]));
    ck_assert(rc_grid_set_mobile(g, big, false));
    ck_assert(skipping_offers(g) == ((uint64_t)1 << 7 | (uint64_t)1 << big));
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
    tcase_add_test(t, levels_of_only_mobile_proxies_are_passed_over_exactly);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
