/* The grid on its own, against brute force over the same boxes: random scenes with sizes from
 * points to giants, churn (inserts, small and large moves, removals), every query and both
 * pair finders, allocation failure, and bad input. Expected sets come from loops in double
 * precision over every live box. */
#include <check.h>
#include <math.h>
#include <stb_ds.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/grid.h>

/* Check records the place of every passing ck_assert (a write per assertion), which would
 * dominate these loops; EXPECT only calls into Check when the condition fails. */
#define EXPECT(cond, ...)                                                                                              \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
        }                                                                                                              \
    } while (0)

/* ---- deterministic randomness ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next_u64(rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform(rng *r) { return (double)(next_u64(r) >> 11) * (1.0 / 9007199254740992.0); }
static float range(rng *r, double lo, double hi) { return (float)(lo + (hi - lo) * uniform(r)); }

/* Box sizes spread over many scales: mostly small, some points, some giants. */
static rc_aabb random_box(rng *r, float extent) {
    double u = uniform(r);
    float size;
    if (u < 0.05) {
        size = 0.0f;
    } else if (u < 0.9) {
        size = (float)pow(2.0, -3.0 + 7.0 * uniform(r)); /* 1/8 .. 16 */
    } else if (u < 0.98) {
        size = (float)pow(2.0, 4.0 + 5.0 * uniform(r)); /* 16 .. 512 */
    } else {
        size = (float)pow(2.0, 9.0 + 4.0 * uniform(r)); /* giants */
    }
    float w = size * range(r, 0.3, 1.0), h = size * range(r, 0.3, 1.0);
    float x = range(r, -extent, extent), y = range(r, -extent, extent);
    rc_aabb b = {{x - 0.5f * w, y - 0.5f * h}, {x + 0.5f * w, y + 0.5f * h}};
    return b;
}

/* ---- the scene mirrored in plain arrays ---- */

typedef struct mirror {
    rc_aabb *boxes; /* stb_ds array indexed by proxy id */
    bool *live;
    int32_t *users;
} mirror;

static void mirror_set(mirror *m, int32_t id, rc_aabb box, int32_t user) {
    while (arrlen(m->boxes) <= id) {
        rc_aabb zero = {{0, 0}, {0, 0}};
        arrput(m->boxes, zero);
        arrput(m->live, false);
        arrput(m->users, -1);
    }
    m->boxes[id] = box;
    m->live[id] = true;
    m->users[id] = user;
}

static int32_t mirror_live_count(const mirror *m) {
    int32_t n = 0;
    for (ptrdiff_t k = 0; k < arrlen(m->live); ++k) {
        n += m->live[k];
    }
    return n;
}

static void mirror_free(mirror *m) {
    arrfree(m->boxes);
    arrfree(m->live);
    arrfree(m->users);
}

static bool overlap_d(rc_aabb a, rc_aabb b) {
    return (double)a.lower.x <= b.upper.x && (double)b.lower.x <= a.upper.x && (double)a.lower.y <= b.upper.y &&
           (double)b.lower.y <= a.upper.y;
}

/* Entry fraction of the segment into the closed box in double, or -1 when it misses. */
static double segment_entry_d(rc_vec2 o, rc_vec2 d, double max_t, rc_aabb b) {
    double t0 = 0.0, t1 = max_t;
    double oo[2] = {o.x, o.y}, dd[2] = {d.x, d.y}, lo[2] = {b.lower.x, b.lower.y}, hi[2] = {b.upper.x, b.upper.y};
    for (int k = 0; k < 2; ++k) {
        if (dd[k] == 0.0) {
            if (oo[k] < lo[k] || oo[k] > hi[k]) {
                return -1.0;
            }
            continue;
        }
        double a = (lo[k] - oo[k]) / dd[k], c = (hi[k] - oo[k]) / dd[k];
        if (a > c) {
            double tmp = a;
            a = c;
            c = tmp;
        }
        t0 = a > t0 ? a : t0;
        t1 = c < t1 ? c : t1;
    }
    return t0 <= t1 ? t0 : -1.0;
}

/* ---- collecting what the grid reports ---- */

typedef struct collected {
    int32_t *ids;
    int32_t *users;
    int32_t stop_after; /* 0: never stop */
} collected;

static bool collect_fn(int32_t proxy, int32_t user, void *context) {
    collected *c = context;
    arrput(c->ids, proxy);
    arrput(c->users, user);
    return c->stop_after == 0 || arrlen(c->ids) < c->stop_after;
}

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Sort and check there are no duplicates. */
static void sort_unique(int32_t *ids, const char *what) {
    if (arrlen(ids) == 0) {
        return;
    }
    qsort(ids, (size_t)arrlen(ids), sizeof(int32_t), cmp_i32);
    for (ptrdiff_t i = 1; i < arrlen(ids); ++i) {
        EXPECT(ids[i] != ids[i - 1], "%s reported proxy %d twice", what, ids[i]);
    }
}

static void assert_same_set(int32_t *got, int32_t *want, const char *what) {
    sort_unique(got, what);
    sort_unique(want, what);
    EXPECT(arrlen(got) == arrlen(want), "%s: %d reported, brute force finds %d", what, (int)arrlen(got),
                  (int)arrlen(want));
    for (ptrdiff_t i = 0; i < arrlen(got); ++i) {
        EXPECT(got[i] == want[i], "%s: reported %d where brute force has %d", what, got[i], want[i]);
    }
}

static void check_aabb_query(const rc_grid *g, const mirror *m, rc_aabb q) {
    collected c = {NULL, NULL, 0};
    rc_grid_query_aabb(g, q, collect_fn, &c);
    int32_t *want = NULL;
    for (int32_t id = 0; id < arrlen(m->boxes); ++id) {
        if (m->live[id] && overlap_d(m->boxes[id], q)) {
            arrput(want, id);
        }
    }
    for (ptrdiff_t i = 0; i < arrlen(c.ids); ++i) {
        EXPECT(c.users[i] == m->users[c.ids[i]], "aabb query: wrong user for proxy %d", c.ids[i]);
    }
    assert_same_set(c.ids, want, "aabb query");
    arrfree(c.ids);
    arrfree(c.users);
    arrfree(want);
}

static void check_point_query(const rc_grid *g, const mirror *m, rc_vec2 p) {
    collected c = {NULL, NULL, 0};
    rc_grid_query_point(g, p, collect_fn, &c);
    int32_t *want = NULL;
    for (int32_t id = 0; id < arrlen(m->boxes); ++id) {
        rc_aabb b = m->boxes[id];
        if (m->live[id] && b.lower.x <= p.x && p.x <= b.upper.x && b.lower.y <= p.y && p.y <= b.upper.y) {
            arrput(want, id);
        }
    }
    assert_same_set(c.ids, want, "point query");
    arrfree(c.ids);
    arrfree(c.users);
    arrfree(want);
}

typedef struct ray_collect {
    const mirror *m;
    rc_vec2 o, d;
    int32_t *ids;
    bool clip;          /* clip to each box's entry fraction, like a closest-hit query */
    double best;
    int32_t best_id;
} ray_collect;

static float ray_fn(int32_t proxy, int32_t user, float max_fraction, void *context) {
    ray_collect *c = context;
    (void)user;
    arrput(c->ids, proxy);
    if (!c->clip) {
        return max_fraction;
    }
    double t = segment_entry_d(c->o, c->d, max_fraction, c->m->boxes[proxy]);
    if (t >= 0.0 && (t < c->best || (t == c->best && proxy < c->best_id))) {
        c->best = t;
        c->best_id = proxy;
    }
    return t >= 0.0 ? (float)t : max_fraction;
}

static rc_aabb grown(rc_aabb b, double r) {
    rc_aabb g = {{(float)(b.lower.x - r), (float)(b.lower.y - r)}, {(float)(b.upper.x + r), (float)(b.upper.y + r)}};
    return g;
}

/* A walk of a circle of radius r (0: a ray): it must offer every box that the centre's path
 * reaches once grown by r, each once; it may also offer a box missed by no more than a few
 * float roundings (the exact shape test decides those). */
static void check_cast(const rc_grid *g, const mirror *m, rc_vec2 o, float r, rc_vec2 d) {
    ray_collect all = {m, o, d, NULL, false, INFINITY, -1};
    if (r == 0.0f) {
        rc_grid_cast_ray(g, o, d, 1.0f, ray_fn, &all);
    } else {
        rc_grid_cast_circle(g, o, r, d, 1.0f, ray_fn, &all);
    }
    sort_unique(all.ids, "cast walk");
    int32_t *want = NULL;
    double best = INFINITY;
    for (int32_t id = 0; id < arrlen(m->boxes); ++id) {
        if (!m->live[id]) {
            continue;
        }
        double t = segment_entry_d(o, d, 1.0, grown(m->boxes[id], r));
        if (t >= 0.0) {
            arrput(want, id);
            best = t < best ? t : best;
        }
    }
    /* every wanted box offered */
    ptrdiff_t j = 0;
    for (ptrdiff_t i = 0; i < arrlen(want); ++i) {
        while (j < arrlen(all.ids) && all.ids[j] < want[i]) {
            ++j;
        }
        EXPECT(j < arrlen(all.ids) && all.ids[j] == want[i], "cast walk (r %g) missed proxy %d", (double)r, want[i]);
    }
    /* every offered box reached within rounding (of the box's and the ray's coordinates) */
    double ray_size = fmax(fmax(fabs(o.x), fabs(o.y)), fmax(fabs((double)o.x + d.x), fabs((double)o.y + d.y)));
    for (ptrdiff_t i = 0; i < arrlen(all.ids); ++i) {
        rc_aabb b = m->boxes[all.ids[i]];
        double size = fmax(fmax(fabs(b.lower.x), fabs(b.upper.x)), fmax(fabs(b.lower.y), fabs(b.upper.y)));
        /* static proxies are tested with copies of their boxes rounded out to 1/16384 of a
           cell (two steps more); a proxy's cells are at most twice its size, or the base size */
        double extent = fmax(b.upper.x - b.lower.x, b.upper.y - b.lower.y);
        double cell = fmax(2.0 * extent, (double)rc_grid_cell_size(g));
        double slack = r + 1e-6 * (size + ray_size + r) + 4.0 * cell / 16384.0;
        EXPECT(segment_entry_d(o, d, 1.0, grown(b, slack)) >= 0.0, "cast walk offered proxy %d it does not reach",
               all.ids[i]);
    }

    /* clipping keeps the nearest: the walk may stop early but never before the nearest box */
    if (r == 0.0f) {
        ray_collect near = {m, o, d, NULL, true, INFINITY, -1};
        rc_grid_cast_ray(g, o, d, 1.0f, ray_fn, &near);
        if (arrlen(want) == 0) {
            EXPECT(near.best == INFINITY || near.best <= 1e-6, "clipped walk found a box the ray does not reach");
        } else {
            EXPECT(fabs(near.best - best) <= 1e-6 * (1.0 + best), "clipped walk found %.9g, nearest is %.9g",
                   near.best, best);
        }
        sort_unique(near.ids, "clipped ray walk");
        arrfree(near.ids);
    }
    arrfree(all.ids);
    arrfree(want);
}

static void check_ray(const rc_grid *g, const mirror *m, rc_vec2 o, rc_vec2 d) { check_cast(g, m, o, 0.0f, d); }

typedef struct pair_collect {
    uint64_t *keys;
    const mirror *m;
} pair_collect;

static uint64_t pair_key(int32_t a, int32_t b) {
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return (uint64_t)lo << 32 | hi;
}

static void pair_fn(int32_t a, int32_t ua, int32_t b, int32_t ub, void *context) {
    pair_collect *c = context;
    EXPECT(a != b, "a proxy paired with itself");
    EXPECT(ua == c->m->users[a] && ub == c->m->users[b], "pair (%d, %d) with wrong users", a, b);
    arrput(c->keys, pair_key(a, b));
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void assert_same_pairs(uint64_t *got, uint64_t *want, const char *what) {
    if (arrlen(got) > 0) {
        qsort(got, (size_t)arrlen(got), sizeof(uint64_t), cmp_u64);
    }
    if (arrlen(want) > 0) {
        qsort(want, (size_t)arrlen(want), sizeof(uint64_t), cmp_u64);
    }
    for (ptrdiff_t i = 1; i < arrlen(got); ++i) {
        EXPECT(got[i] != got[i - 1], "%s: pair (%u, %u) reported twice", what, (unsigned)(got[i] >> 32),
                      (unsigned)got[i]);
    }
    EXPECT(arrlen(got) == arrlen(want), "%s: %d pairs reported, brute force finds %d", what, (int)arrlen(got),
                  (int)arrlen(want));
    for (ptrdiff_t i = 0; i < arrlen(got); ++i) {
        EXPECT(got[i] == want[i], "%s: pair mismatch", what);
    }
}

static uint64_t *brute_pairs(const mirror *m, const bool *moved) {
    uint64_t *keys = NULL;
    int32_t n = (int32_t)arrlen(m->boxes);
    for (int32_t a = 0; a < n; ++a) {
        if (!m->live[a]) {
            continue;
        }
        for (int32_t b = a + 1; b < n; ++b) {
            if (m->live[b] && (moved == NULL || moved[a] || moved[b]) && overlap_d(m->boxes[a], m->boxes[b])) {
                arrput(keys, pair_key(a, b));
            }
        }
    }
    return keys;
}

static void check_all_pairs(const rc_grid *g, const mirror *m) {
    pair_collect c = {NULL, m};
    rc_grid_find_all_pairs(g, pair_fn, &c);
    uint64_t *want = brute_pairs(m, NULL);
    assert_same_pairs(c.keys, want, "all pairs");
    arrfree(c.keys);
    arrfree(want);
}

/* ---- the churn scenario ---- */

typedef struct scene {
    rc_grid *grid;
    mirror m;
    bool *moved; /* since the last update_pairs, by id */
    rng r;
    float extent;
    int32_t next_user;
} scene;

static void scene_mark(scene *s, int32_t id) {
    while (arrlen(s->moved) <= id) {
        arrput(s->moved, false);
    }
    s->moved[id] = true;
}

static void scene_insert(scene *s) {
    rc_aabb b = random_box(&s->r, s->extent);
    int32_t user = s->next_user++;
    int32_t id = rc_grid_insert(s->grid, b, user);
    EXPECT(id >= 0 && rc_grid_is_proxy(s->grid, id), "insert failed");
    /* half the proxies are static: their cells keep copies of their boxes */
    if (uniform(&s->r) < 0.5) {
        EXPECT(rc_grid_set_static(s->grid, id, true), "set_static failed");
    }
    mirror_set(&s->m, id, b, user);
    scene_mark(s, id);
}

static int32_t random_live(scene *s) {
    int32_t n = (int32_t)arrlen(s->m.boxes);
    for (int tries = 0; tries < 64 && n > 0; ++tries) {
        int32_t id = (int32_t)(next_u64(&s->r) % (uint64_t)n);
        if (s->m.live[id]) {
            return id;
        }
    }
    return -1;
}

static void scene_move(scene *s) {
    int32_t id = random_live(s);
    if (id < 0) {
        return;
    }
    rc_aabb b = s->m.boxes[id];
    double u = uniform(&s->r);
    if (u < 0.7) {
        /* a small step, as a body moving in one frame */
        float dx = range(&s->r, -2.0, 2.0), dy = range(&s->r, -2.0, 2.0);
        b.lower.x += dx;
        b.upper.x += dx;
        b.lower.y += dy;
        b.upper.y += dy;
    } else {
        b = random_box(&s->r, s->extent); /* a jump, possibly to another size and level */
    }
    EXPECT(rc_grid_move(s->grid, id, b), "move of %d failed", id);
    s->m.boxes[id] = b;
    scene_mark(s, id);
    if (uniform(&s->r) < 0.1) {
        /* now and then a proxy turns static or back */
        EXPECT(rc_grid_set_static(s->grid, id, uniform(&s->r) < 0.5), "set_static failed");
    }
}

static void scene_remove(scene *s) {
    int32_t id = random_live(s);
    if (id < 0) {
        return;
    }
    EXPECT(rc_grid_remove(s->grid, id) && !rc_grid_is_proxy(s->grid, id), "remove of %d failed", id);
    s->m.live[id] = false;
}

static void scene_check(scene *s, int queries) {
    for (int i = 0; i < queries; ++i) {
        rc_aabb q = random_box(&s->r, s->extent);
        check_aabb_query(s->grid, &s->m, q);
        check_point_query(s->grid, &s->m, (rc_vec2){range(&s->r, -s->extent, s->extent), range(&s->r, -s->extent, s->extent)});
        /* a point on a live box's corner: closed boxes include their boundary */
        int32_t id = random_live(s);
        if (id >= 0) {
            check_point_query(s->grid, &s->m, s->m.boxes[id].upper);
        }
        rc_vec2 o = {range(&s->r, -s->extent, s->extent), range(&s->r, -s->extent, s->extent)};
        float len = (float)pow(2.0, -2.0 + 11.0 * uniform(&s->r));
        float ang = range(&s->r, 0.0, 6.283185307179586);
        rc_vec2 d = {len * cosf(ang), len * sinf(ang)};
        if (i % 7 == 0) {
            d.y = 0.0f; /* axis-aligned rays run along cell boundaries */
        }
        check_ray(s->grid, &s->m, o, d);
        float radius = uniform(&s->r) < 0.5 ? range(&s->r, 0.0, 4.0) : (float)pow(2.0, -4.0 + 12.0 * uniform(&s->r));
        check_cast(s->grid, &s->m, o, radius, d);
    }
    check_all_pairs(s->grid, &s->m);
    EXPECT(rc_grid_proxy_count(s->grid) == mirror_live_count(&s->m), "proxy count differs");
}

static void scene_update_pairs(scene *s) {
    pair_collect c = {NULL, &s->m};
    rc_grid_update_pairs(s->grid, pair_fn, &c);
    uint64_t *want = brute_pairs(&s->m, s->moved);
    assert_same_pairs(c.keys, want, "update pairs");
    arrfree(c.keys);
    arrfree(want);
    for (ptrdiff_t i = 0; i < arrlen(s->moved); ++i) {
        s->moved[i] = false;
    }
}

static void run_churn(float cell_size, uint64_t seed, float extent, int rounds) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = cell_size;
    scene s = {rc_grid_create(&def), {NULL, NULL, NULL}, NULL, {seed}, extent, 1000};
    ck_assert_ptr_nonnull(s.grid);
    for (int i = 0; i < 400; ++i) {
        scene_insert(&s);
    }
    scene_update_pairs(&s);
    scene_check(&s, 60);
    for (int round = 0; round < rounds; ++round) {
        for (int k = 0; k < 150; ++k) {
            double u = uniform(&s.r);
            if (u < 0.2) {
                scene_insert(&s);
            } else if (u < 0.35) {
                scene_remove(&s);
            } else {
                scene_move(&s);
            }
        }
        scene_update_pairs(&s);
        scene_check(&s, 25);
    }
    rc_grid_destroy(s.grid);
    mirror_free(&s.m);
    arrfree(s.moved);
}

START_TEST(churn_automatic_cell_size) { run_churn(0.0f, 1u + (uint64_t)_i, 300.0f, 12); }
END_TEST

START_TEST(churn_small_fixed_cells) { run_churn(0.5f, 77u + (uint64_t)_i, 200.0f, 10); }
END_TEST

START_TEST(churn_large_fixed_cells) { run_churn(40.0f, 991u + (uint64_t)_i, 400.0f, 10); }
END_TEST

START_TEST(churn_non_power_of_two_cells) { run_churn(3.7f, 4242u, 150.0f, 10); }
END_TEST

START_TEST(churn_far_from_origin) {
    /* the same kind of scene around 1e6: cell coordinates in the hundreds of thousands */
    rc_grid_def def = rc_grid_default_def();
    scene s = {rc_grid_create(&def), {NULL, NULL, NULL}, NULL, {5150u}, 1.0e6f, 0};
    for (int i = 0; i < 300; ++i) {
        scene_insert(&s);
    }
    scene_update_pairs(&s);
    scene_check(&s, 60);
    rc_grid_destroy(s.grid);
    mirror_free(&s.m);
    arrfree(s.moved);
}
END_TEST

START_TEST(dense_cluster_and_giants) {
    /* many boxes on one spot (one crowded cell) plus boxes thousands of times larger */
    rc_grid_def def = rc_grid_default_def();
    scene s = {rc_grid_create(&def), {NULL, NULL, NULL}, NULL, {31337u}, 10.0f, 0};
    for (int i = 0; i < 600; ++i) {
        rc_aabb b = {{0.25f, 0.25f}, {0.75f, 0.75f}};
        if (i % 50 == 0) {
            float h = (float)(1000 * (i / 50 + 1));
            b = (rc_aabb){{-h, -h * 0.5f}, {h, h}};
        }
        int32_t id = rc_grid_insert(s.grid, b, i);
        mirror_set(&s.m, id, b, i);
        scene_mark(&s, id);
    }
    scene_update_pairs(&s);
    scene_check(&s, 40);
    rc_grid_stats st = rc_grid_get_stats(s.grid);
    ck_assert_int_eq(st.proxies, 600);
    /* giants sit on their own levels in at most 2 x 2 cells each: no flooding */
    ck_assert_int_le(st.entries, 588 * 1 + 12 * 4);
    rc_grid_destroy(s.grid);
    mirror_free(&s.m);
    arrfree(s.moved);
}
END_TEST

START_TEST(automatic_cell_size_follows_median) {
    rc_grid *g = rc_grid_create(&(rc_grid_def){0});
    rng r = {99};
    /* 30 boxes of size 3000 first (the first guess follows them), then 1000 of size 5 to 7:
       the median decides, not the mean nor the first comer */
    for (int i = 0; i < 30; ++i) {
        ck_assert_int_ge(rc_grid_insert(g, (rc_aabb){{0, 0}, {3000, 3000}}, i), 0);
    }
    ck_assert_float_eq(rc_grid_cell_size(g), 8192.0f);
    for (int i = 0; i < 1000; ++i) {
        float x = range(&r, -500, 500), y = range(&r, -500, 500), sz = range(&r, 5, 7);
        ck_assert_int_ge(rc_grid_insert(g, (rc_aabb){{x, y}, {x + sz, y + sz}}, i), 0);
    }
    /* sizes in [4, 8) give cells of 16 */
    ck_assert_float_eq(rc_grid_cell_size(g), 16.0f);
    ck_assert_int_ge(rc_grid_get_stats(g).rebuilds, 1);
    rc_grid_destroy(g);

    rc_grid_def fixed = {0};
    fixed.cell_size = 3.0f;
    g = rc_grid_create(&fixed);
    for (int i = 0; i < 200; ++i) {
        rc_grid_insert(g, (rc_aabb){{0, 0}, {100, 100}}, i);
    }
    ck_assert_float_eq(rc_grid_cell_size(g), 3.0f);
    rc_grid_destroy(g);
}
END_TEST

START_TEST(ray_order_and_stop) {
    /* ten unit boxes along +x; a ray from the left meets them in order */
    rc_grid_def def = {0};
    def.cell_size = 1.0f;
    rc_grid *g = rc_grid_create(&def);
    for (int i = 0; i < 10; ++i) {
        rc_grid_insert(g, (rc_aabb){{2.0f * (float)i + 0.25f, 0.25f}, {2.0f * (float)i + 0.75f, 0.75f}}, 100 + i);
    }
    mirror m = {NULL, NULL, NULL};
    for (int i = 0; i < 10; ++i) {
        mirror_set(&m, i, rc_grid_get_box(g, i), 100 + i);
    }
    ray_collect all = {&m, {-1.0f, 0.5f}, {30.0f, 0.0f}, NULL, false, INFINITY, -1};
    rc_grid_cast_ray(g, all.o, all.d, 1.0f, ray_fn, &all);
    ck_assert_int_eq((int)arrlen(all.ids), 10);
    for (int i = 0; i < 10; ++i) {
        ck_assert_int_eq(all.ids[i], i); /* cell order is distance order here */
    }
    /* clipping at the first box ends the walk in its cell: nothing else is offered */
    ray_collect near = {&m, {-1.0f, 0.5f}, {30.0f, 0.0f}, NULL, true, INFINITY, -1};
    rc_grid_cast_ray(g, near.o, near.d, 1.0f, ray_fn, &near);
    ck_assert_int_eq((int)arrlen(near.ids), 1);
    ck_assert_int_eq(near.best_id, 0);
    ck_assert(fabs(near.best - 1.25 / 30.0) < 1e-7);
    arrfree(all.ids);
    arrfree(near.ids);
    mirror_free(&m);
    rc_grid_destroy(g);
}
END_TEST

static float stop_at_once(int32_t proxy, int32_t user, float max_fraction, void *context) {
    (void)proxy;
    (void)user;
    (void)max_fraction;
    ++*(int *)context;
    return -1.0f;
}

START_TEST(callbacks_can_stop) {
    rc_grid *g = rc_grid_create(&(rc_grid_def){0});
    for (int i = 0; i < 50; ++i) {
        rc_grid_insert(g, (rc_aabb){{0, 0}, {1, 1}}, i);
    }
    int calls = 0;
    rc_grid_cast_ray(g, (rc_vec2){-1, 0.5f}, (rc_vec2){3, 0}, 1.0f, stop_at_once, &calls);
    ck_assert_int_eq(calls, 1);
    collected c = {NULL, NULL, 3};
    rc_grid_query_aabb(g, (rc_aabb){{0, 0}, {1, 1}}, collect_fn, &c);
    ck_assert_int_eq((int)arrlen(c.ids), 3);
    arrfree(c.ids);
    rc_grid_query_point(g, (rc_vec2){0.5f, 0.5f}, collect_fn, &c);
    ck_assert_int_eq((int)arrlen(c.ids), 3);
    arrfree(c.ids);
    arrfree(c.users);
    rc_grid_destroy(g);
}
END_TEST

START_TEST(bad_input_is_refused) {
    ck_assert_ptr_null(rc_grid_create(NULL));
    rc_grid_def def = {0};
    def.cell_size = -1.0f;
    ck_assert_ptr_null(rc_grid_create(&def));
    def.cell_size = NAN;
    ck_assert_ptr_null(rc_grid_create(&def));
    def.cell_size = INFINITY;
    ck_assert_ptr_null(rc_grid_create(&def));

    rc_grid *g = rc_grid_create(&(rc_grid_def){0});
    ck_assert_int_eq(rc_grid_insert(g, (rc_aabb){{0, 0}, {NAN, 1}}, 0), -1);
    ck_assert_int_eq(rc_grid_insert(g, (rc_aabb){{0, 0}, {INFINITY, 1}}, 0), -1);
    ck_assert_int_eq(rc_grid_insert(g, (rc_aabb){{1, 0}, {0, 1}}, 0), -1); /* lower > upper */
    ck_assert_int_eq(rc_grid_insert(NULL, (rc_aabb){{0, 0}, {1, 1}}, 0), -1);
    int32_t id = rc_grid_insert(g, (rc_aabb){{0, 0}, {1, 1}}, 7);
    ck_assert_int_ge(id, 0);
    ck_assert(!rc_grid_move(g, id, (rc_aabb){{0, NAN}, {1, 1}}));
    ck_assert(!rc_grid_move(g, id + 1, (rc_aabb){{0, 0}, {1, 1}}));
    ck_assert(!rc_grid_move(g, -5, (rc_aabb){{0, 0}, {1, 1}}));
    ck_assert(!rc_grid_remove(g, id + 1));
    ck_assert(!rc_grid_remove(g, -1));
    ck_assert(!rc_grid_set_static(g, id + 1, true));
    ck_assert(!rc_grid_set_static(NULL, id, true));
    /* the refused calls left the proxy as it was */
    rc_aabb b = rc_grid_get_box(g, id);
    ck_assert(b.lower.x == 0 && b.upper.y == 1);
    ck_assert_int_eq(rc_grid_get_user(g, id), 7);
    ck_assert(rc_grid_remove(g, id));
    ck_assert(!rc_grid_remove(g, id)); /* twice */
    ck_assert_int_eq(rc_grid_get_user(g, id), -1);
    /* queries with bad arguments do nothing */
    collected c = {NULL, NULL, 0};
    rc_grid_query_aabb(g, (rc_aabb){{NAN, 0}, {1, 1}}, collect_fn, &c);
    rc_grid_query_point(g, (rc_vec2){INFINITY, 0}, collect_fn, &c);
    rc_grid_query_aabb(NULL, (rc_aabb){{0, 0}, {1, 1}}, collect_fn, &c);
    rc_grid_query_aabb(g, (rc_aabb){{0, 0}, {1, 1}}, NULL, &c);
    ck_assert_int_eq((int)arrlen(c.ids), 0);
    rc_grid_destroy(g);
    rc_grid_destroy(NULL);
}
END_TEST

START_TEST(extreme_coordinates) {
    /* boxes beyond the saturation of cell coordinates still answer correctly */
    rc_grid_def def = {0};
    def.cell_size = 1.0f;
    rc_grid *g = rc_grid_create(&def);
    mirror m = {NULL, NULL, NULL};
    rc_aabb boxes[] = {{{3e9f, 3e9f}, {3e9f + 1e3f, 3e9f + 1e3f}},
                       {{-3e12f, 0}, {-2.9e12f, 5}},
                       {{1e30f, -1e30f}, {2e30f, 1e30f}},
                       {{0, 0}, {1, 1}}};
    for (int i = 0; i < 4; ++i) {
        int32_t id = rc_grid_insert(g, boxes[i], i);
        ck_assert_int_ge(id, 0);
        mirror_set(&m, id, boxes[i], i);
    }
    check_aabb_query(g, &m, (rc_aabb){{2.9e9f, 2.9e9f}, {3.1e9f, 3.1e9f}});
    check_aabb_query(g, &m, (rc_aabb){{-1e38f, -1e38f}, {1e38f, 1e38f}});
    check_point_query(g, &m, (rc_vec2){1.5e30f, 0});
    check_ray(g, &m, (rc_vec2){2.9e9f, 3e9f + 500}, (rc_vec2){2e8f, 0});
    check_ray(g, &m, (rc_vec2){-1e31f, 0.5f}, (rc_vec2){3e31f, 0});
    check_all_pairs(g, &m);
    mirror_free(&m);
    rc_grid_destroy(g);
}
END_TEST

/* ---- allocation: counted, failing on demand ---- */

typedef struct counting {
    int64_t allocations, live_bytes;
    int64_t fail_at; /* the allocation number that fails; 0: none */
} counting;

static void *count_alloc(size_t size, size_t align, void *user) {
    counting *c = user;
    EXPECT(align == 16, "alignment %zu asked", align);
    if (++c->allocations == c->fail_at) {
        return NULL;
    }
    c->live_bytes += (int64_t)size;
    return malloc(size);
}

static void count_free(void *p, size_t size, void *user) {
    counting *c = user;
    c->live_bytes -= (int64_t)size;
    free(p);
}

START_TEST(memory_is_stable_under_churn) {
    counting c = {0, 0, 0};
    rc_grid_def def = {0};
    def.allocator = (rc_allocator){count_alloc, count_free, &c};
    scene s = {rc_grid_create(&def), {NULL, NULL, NULL}, NULL, {2024u}, 300.0f, 0};
    for (int i = 0; i < 2000; ++i) {
        scene_insert(&s);
    }
    /* steady population: as many removals as inserts, many moves */
    int64_t checkpoint = 0, allocations_at_checkpoint = 0;
    for (int round = 0; round < 60; ++round) {
        for (int k = 0; k < 500; ++k) {
            double u = uniform(&s.r);
            if (u < 0.1) {
                scene_insert(&s);
            } else if (u < 0.2) {
                scene_remove(&s);
                scene_insert(&s);
            } else {
                scene_move(&s);
            }
            if (u < 0.1) {
                scene_remove(&s);
            }
        }
        rc_grid_update_pairs(s.grid, NULL, NULL);
        if (round == 30) {
            checkpoint = c.live_bytes;
            allocations_at_checkpoint = c.allocations;
        }
    }
    fprintf(stderr, "grid churn: %lld bytes at round 30, %lld at round 60, %lld allocations after round 30\n",
            (long long)checkpoint, (long long)c.live_bytes, (long long)(c.allocations - allocations_at_checkpoint));
    ck_assert_int_le(c.live_bytes, checkpoint + checkpoint / 8);
    rc_grid_destroy(s.grid);
    ck_assert_int_eq(c.live_bytes, 0);
    mirror_free(&s.m);
    arrfree(s.moved);
}
END_TEST

START_TEST(allocation_failure_changes_nothing) {
    /* fail the 1st, 2nd, ... allocation of a scripted run until it passes without failure */
    int failures = 0;
    for (int64_t fail_at = 1;; ++fail_at) {
        counting c = {0, 0, fail_at};
        rc_grid_def def = {0};
        def.allocator = (rc_allocator){count_alloc, count_free, &c};
        rc_grid *g = rc_grid_create(&def);
        if (g == NULL) {
            ck_assert_int_eq(c.live_bytes, 0);
            ++failures;
            continue;
        }
        mirror m = {NULL, NULL, NULL};
        rng r = {(uint64_t)fail_at}; /* fail_at counts up from 1 */
        bool failed = false;
        for (int i = 0; i < 300; ++i) {
            rc_aabb b = random_box(&r, 100.0f);
            int32_t id = rc_grid_insert(g, b, i);
            if (id < 0) {
                failed = true;
                ++failures;
                break;
            }
            mirror_set(&m, id, b, i);
            if (i % 3 == 0) {
                rc_aabb nb = random_box(&r, 100.0f);
                if (rc_grid_move(g, id, nb)) {
                    m.boxes[id] = nb;
                } else {
                    failed = true;
                    ++failures;
                    break;
                }
            }
        }
        /* whatever failed, the grid answers exactly for what it holds */
        check_aabb_query(g, &m, (rc_aabb){{-150, -150}, {150, 150}});
        check_all_pairs(g, &m);
        ck_assert_int_eq(rc_grid_proxy_count(g), mirror_live_count(&m));
        rc_grid_destroy(g);
        ck_assert_int_eq(c.live_bytes, 0);
        mirror_free(&m);
        if (!failed) {
            fprintf(stderr, "grid allocation failure: %d failing runs, passes from allocation %lld on\n", failures,
                    (long long)fail_at);
            break;
        }
    }
    ck_assert_int_gt(failures, 5);
}
END_TEST

START_TEST(reserved_moves_cannot_fail) {
    /* sum the additions of a batch of moves, reserve them, then let every further allocation
       fail: the whole batch still goes through */
    counting c = {0, 0, 0};
    rc_grid_def def = {0};
    def.allocator = (rc_allocator){count_alloc, count_free, &c};
    scene s = {rc_grid_create(&def), {NULL, NULL, NULL}, NULL, {777u}, 100.0f, 0};
    for (int i = 0; i < 500; ++i) {
        scene_insert(&s);
    }
    for (int round = 0; round < 20; ++round) {
        rc_aabb boxes[200];
        int32_t ids[200];
        int32_t additions = 0;
        for (int k = 0; k < 200; ++k) {
            ids[k] = random_live(&s);
            boxes[k] = uniform(&s.r) < 0.5 ? random_box(&s.r, 100.0f) : s.m.boxes[ids[k]];
            if (uniform(&s.r) < 0.5) {
                boxes[k].lower.x += 3.0f;
                boxes[k].upper.x += 3.0f;
            }
            int32_t add = rc_grid_move_additions(s.grid, ids[k], boxes[k]);
            EXPECT(add >= 0 && add <= 4, "a move adds %d entries", add);
            additions += add;
        }
        ck_assert(rc_grid_reserve(s.grid, additions));
        c.fail_at = c.allocations + 1; /* nothing more may be allocated */
        for (int k = 0; k < 200; ++k) {
            EXPECT(rc_grid_move(s.grid, ids[k], boxes[k]), "reserved move failed");
            s.m.boxes[ids[k]] = boxes[k];
        }
        c.fail_at = 0;
        rc_grid_update_pairs(s.grid, NULL, NULL);
        check_all_pairs(s.grid, &s.m);
    }
    ck_assert(!rc_grid_reserve(s.grid, -1));
    ck_assert_int_eq(rc_grid_move_additions(s.grid, -1, (rc_aabb){{0, 0}, {1, 1}}), 0);
    rc_grid_destroy(s.grid);
    ck_assert_int_eq(c.live_bytes, 0);
    mirror_free(&s.m);
    arrfree(s.moved);
}
END_TEST

/* A level too sparse for a dense window (20,000 small boxes on a ring 10,000 units across: a
 * long chain's walls round a large level) keeps all its cells in the hash table; that is not
 * a reason to rebuild. Twenty boxes of the same size move about the middle and the grid is
 * optimised after each move, 200 times: at most two rebuilds (before: one at every optimise,
 * which re-placed every wall, and a 1,000,000-point level's step took a second). The answers
 * stay right: a box query over the middle finds exactly the movers that overlap it, and one
 * beside a wall finds that wall. A query rect larger than the few cells of a small level next
 * to the ring's does not scan the ring's cells either (not measurable here: the bench's
 * chain-level scene times it), and still answers exactly. */
START_TEST(a_sparse_level_is_not_rebuilt_at_every_optimise) {
    rc_grid_def def = rc_grid_default_def();
    rc_grid *g = rc_grid_create(&def);
    ck_assert_ptr_nonnull(g);
    enum { WALLS = 20000, MOVERS = 20 };
    for (int i = 0; i < WALLS; ++i) {
        double a = 6.283185307179586 * i / WALLS;
        float x = (float)(5000.0 * cos(a)), y = (float)(5000.0 * sin(a));
        rc_aabb b = {{x - 0.25f, y - 0.25f}, {x + 0.25f, y + 0.25f}};
        ck_assert_int_ge(rc_grid_insert(g, b, i), 0);
    }
    int32_t movers[MOVERS];
    rc_vec2 at[MOVERS];
    for (int i = 0; i < MOVERS; ++i) {
        at[i] = rc_v2((float)(i % 5) * 3.0f, (float)(i / 5) * 3.0f);
        rc_aabb b = {{at[i].x - 0.25f, at[i].y - 0.25f}, {at[i].x + 0.25f, at[i].y + 0.25f}};
        movers[i] = rc_grid_insert(g, b, WALLS + i);
        ck_assert_int_ge(movers[i], 0);
    }
    /* and a small level of two large boxes beside them */
    rc_aabb big = {{-40.0f, -40.0f}, {-20.0f, -20.0f}};
    ck_assert_int_ge(rc_grid_insert(g, big, -1), 0);
    ck_assert(rc_grid_optimize(g));
    int32_t before = rc_grid_get_stats(g).rebuilds;
    rng r = {12345};
    for (int k = 0; k < 200; ++k) {
        for (int i = 0; i < MOVERS; ++i) {
            at[i].x += (float)(uniform(&r) - 0.5);
            at[i].y += (float)(uniform(&r) - 0.5);
            rc_aabb b = {{at[i].x - 0.25f, at[i].y - 0.25f}, {at[i].x + 0.25f, at[i].y + 0.25f}};
            ck_assert(rc_grid_reserve(g, rc_grid_move_additions(g, movers[i], b)));
            ck_assert(rc_grid_move(g, movers[i], b));
        }
        ck_assert(rc_grid_optimize(g));
    }
    ck_assert_int_le(rc_grid_get_stats(g).rebuilds - before, 2);
    /* a box query over the middle: exactly the movers that overlap it (brute force) */
    rc_aabb middle = {{-5.0f, -5.0f}, {15.0f, 15.0f}};
    collected c = {NULL, NULL, 0};
    rc_grid_query_aabb(g, middle, collect_fn, &c);
    int expected = 0;
    for (int i = 0; i < MOVERS; ++i) {
        bool in = at[i].x + 0.25f >= middle.lower.x && at[i].x - 0.25f <= middle.upper.x &&
                  at[i].y + 0.25f >= middle.lower.y && at[i].y - 0.25f <= middle.upper.y;
        expected += in;
    }
    ck_assert_int_eq((int)arrlen(c.ids), expected);
    for (ptrdiff_t i = 0; i < arrlen(c.users); ++i) {
        ck_assert_int_ge(c.users[i], WALLS);
    }
    arrfree(c.ids);
    arrfree(c.users);
    /* beside the wall at angle 0 (x = 5000): that wall, and the large box for a query over it */
    rc_aabb by_wall = {{4999.5f, -0.1f}, {5000.5f, 0.1f}};
    collected w = {NULL, NULL, 0};
    rc_grid_query_aabb(g, by_wall, collect_fn, &w);
    ck_assert_int_eq((int)arrlen(w.users), 1);
    ck_assert_int_eq(w.users[0], 0);
    arrfree(w.ids);
    arrfree(w.users);
    rc_aabb over_big = {{-45.0f, -45.0f}, {-19.0f, -19.0f}};
    collected o = {NULL, NULL, 0};
    rc_grid_query_aabb(g, over_big, collect_fn, &o);
    ck_assert_int_eq((int)arrlen(o.users), 1);
    ck_assert_int_eq(o.users[0], -1);
    arrfree(o.ids);
    arrfree(o.users);
    rc_grid_destroy(g);
}
END_TEST

/* Queries find a level's proxies wherever they go: one box hopping far across the grid by moves,
 * by removal and insertion elsewhere (the level emptied: its cells start again from the new
 * one), and a second box of the same size beside it or gone. Every query where a box is finds it,
 * and where it was finds nothing (a level's walk visits only the cells within its bounds, which
 * must follow the cells opened). */
START_TEST(a_level_is_found_wherever_its_cells_go) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = 1.0f;
    rc_grid *g = rc_grid_create(&def);
    ck_assert_ptr_nonnull(g);
    const rc_vec2 spots[] = {{0, 0}, {500, 0}, {-500, 300}, {0, -800}, {2, 2}, {-3000, -3000}, {40, 41}};
    const int n = (int)(sizeof spots / sizeof spots[0]);
    int32_t hopper = -1, other = -1;
    for (int k = 0; k < 4 * n; ++k) {
        rc_vec2 p = spots[k % n], q = spots[(k * 3 + 1) % n];
        rc_aabb b = {{p.x - 0.2f, p.y - 0.2f}, {p.x + 0.2f, p.y + 0.2f}};
        if (hopper < 0 || k % 3 == 0) {
            if (hopper >= 0) {
                ck_assert(rc_grid_remove(g, hopper));
            }
            hopper = rc_grid_insert(g, b, 1);
        } else {
            ck_assert(rc_grid_reserve(g, rc_grid_move_additions(g, hopper, b)));
            ck_assert(rc_grid_move(g, hopper, b));
        }
        ck_assert_int_ge(hopper, 0);
        /* the other box: beside the hopper's last spot but one, or gone (the level then holds the
           hopper alone) */
        if (other >= 0) {
            ck_assert(rc_grid_remove(g, other));
            other = -1;
        }
        if (k % 2 == 0 && (q.x != p.x || q.y != p.y)) {
            other = rc_grid_insert(g, (rc_aabb){{q.x - 0.2f, q.y - 0.2f}, {q.x + 0.2f, q.y + 0.2f}}, 2);
            ck_assert_int_ge(other, 0);
        }
        for (int j = 0; j < n; ++j) {
            rc_vec2 at = spots[j];
            collected c = {NULL, NULL, 0};
            rc_grid_query_aabb(g, (rc_aabb){{at.x - 1.0f, at.y - 1.0f}, {at.x + 1.0f, at.y + 1.0f}}, collect_fn, &c);
            int want = (at.x == p.x && at.y == p.y) + (other >= 0 && at.x == q.x && at.y == q.y);
            ck_assert_msg((int)arrlen(c.ids) == want, "hop %d, spot %d: %d found, %d there", k, j, (int)arrlen(c.ids),
                          want);
            arrfree(c.ids);
            arrfree(c.users);
        }
    }
    rc_grid_destroy(g);
}
END_TEST

static Suite *grid_suite(void) {
    Suite *s = suite_create("grid");
    TCase *t = tcase_create("brute force");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, churn_automatic_cell_size, 0, 3);
    tcase_add_loop_test(t, churn_small_fixed_cells, 0, 2);
    tcase_add_loop_test(t, churn_large_fixed_cells, 0, 2);
    tcase_add_test(t, churn_non_power_of_two_cells);
    tcase_add_test(t, churn_far_from_origin);
    tcase_add_test(t, dense_cluster_and_giants);
    tcase_add_test(t, automatic_cell_size_follows_median);
    tcase_add_test(t, ray_order_and_stop);
    tcase_add_test(t, callbacks_can_stop);
    tcase_add_test(t, bad_input_is_refused);
    tcase_add_test(t, extreme_coordinates);
    tcase_add_test(t, memory_is_stable_under_churn);
    tcase_add_test(t, allocation_failure_changes_nothing);
    tcase_add_test(t, reserved_moves_cannot_fail);
    tcase_add_test(t, a_sparse_level_is_not_rebuilt_at_every_optimise);
    tcase_add_test(t, a_level_is_found_wherever_its_cells_go);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(grid_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
