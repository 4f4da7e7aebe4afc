/* The grid's snapshots (broadphase.h: rc_grid_save, rc_grid_load): a loaded grid is the saved
 * one. Random scenes (points to giants, far boxes in hashed cells, windows, crowded cells with
 * chunks, statics, mobiles, removals, rebuilds, trims) are saved at many moments and loaded
 * into a second grid; both must then answer every query, pair finding and inspection with the
 * same proxies in the same order, and go on giving the same ids and answers under the same
 * further calls. Bytes that are cut short, forged or flipped are refused or give a grid that
 * works, and no load leaks, whatever allocation fails. The comparisons are shown to see a
 * difference when there is one. */
#include <check.h>
#include <math.h>
#include <stb_ds.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/grid.h>

#include "broadphase/grid_internal.h" /* to find an entry's and a table slot's bytes, and to see what a scene uses */
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- deterministic randomness: xorshift64* ------------------------------------------------------ */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next_u64(rng *r) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}
static double unit(rng *r) { return (double)(next_u64(r) >> 11) * (1.0 / 9007199254740992.0); }
static float range(rng *r, double lo, double hi) { return (float)(lo + (hi - lo) * unit(r)); }
static int below(rng *r, int n) { return (int)(next_u64(r) % (uint64_t)n); }
static rng seeded(uint64_t seed) {
    rng r = {seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull};
    return r;
}

/* Sizes from points to giants; a few boxes far out, where no window reaches (hashed cells). */
static rc_aabb random_box(rng *r, float extent) {
    double u = unit(r);
    float size = u < 0.05 ? 0.0f
                 : u < 0.80 ? (float)pow(2.0, -4.0 + 6.0 * unit(r))
                 : u < 0.96 ? (float)pow(2.0, 2.0 + 5.0 * unit(r))
                            : (float)pow(2.0, 7.0 + 6.0 * unit(r));
    float w = size * range(r, 0.2, 1.0), h = size * range(r, 0.2, 1.0);
    float reach = unit(r) < 0.08 ? 40.0f * extent : extent;
    float x = range(r, -reach, reach), y = range(r, -reach, reach);
    rc_aabb b = {{x - 0.5f * w, y - 0.5f * h}, {x + 0.5f * w, y + 0.5f * h}};
    return b;
}

/* ---- traces: everything a grid reports, in order ------------------------------------------------ */

typedef int32_t *trace; /* stb_ds array */

static void put(trace *t, int32_t v) { arrput(*t, v); }
static void put_f(trace *t, float f) {
    int32_t v;
    memcpy(&v, &f, sizeof v);
    arrput(*t, v);
}
static void put_box(trace *t, rc_aabb b) {
    put_f(t, b.lower.x);
    put_f(t, b.lower.y);
    put_f(t, b.upper.x);
    put_f(t, b.upper.y);
}

typedef struct recorder {
    trace *t;
    int32_t stop_after; /* 0: never */
    int32_t seen;
} recorder;

static bool on_query(int32_t proxy, int32_t user, void *context) {
    recorder *r = context;
    put(r->t, proxy);
    put(r->t, user);
    return ++r->seen != r->stop_after;
}

/* Clips the ray at some proxies, so that the walk's order and its stopping are both traced. */
static float on_ray(int32_t proxy, int32_t user, float max_fraction, void *context) {
    recorder *r = context;
    put(r->t, proxy);
    put(r->t, user);
    put_f(r->t, max_fraction);
    if (++r->seen == r->stop_after) {
        return -1.0f;
    }
    return proxy % 3 == 0 ? max_fraction * 0.8f : max_fraction;
}

static void on_pair(int32_t a, int32_t user_a, int32_t b, int32_t user_b, void *context) {
    trace *t = context;
    put(t, a);
    put(t, user_a);
    put(t, b);
    put(t, user_b);
}

static void on_cell(int32_t level, rc_aabb cell, int32_t count, void *context) {
    trace *t = context;
    put(t, level);
    put_box(t, cell);
    put(t, count);
}

static void put_stats(trace *t, const rc_grid *g) {
    rc_grid_stats st = rc_grid_get_stats(g);
    put(t, st.proxies);
    put(t, st.levels_in_use);
    put(t, st.cells);
    put(t, st.entries);
    put(t, st.rebuilds); /* (not the bytes held: a loaded grid has room for what it holds) */
    put_f(t, rc_grid_cell_size(g));
}

static void ask_queries(const rc_grid *g, rng *r, float extent, int32_t id_bound, trace *t) {
    for (int i = 0; i < 40; ++i) {
        rc_aabb box = i % 10 == 9 ? (rc_aabb){{-60.0f * extent, -60.0f * extent}, {60.0f * extent, 60.0f * extent}}
                                  : random_box(r, extent);
        recorder rec = {t, i % 7 == 3 ? 3 : 0, 0};
        rc_grid_query_aabb(g, box, on_query, &rec);
        put(t, -1);
        rec.seen = 0;
        rc_grid_query_aabb_trusted(g, box, true, on_query, &rec);
        put(t, -2);
    }
    for (int i = 0; i < 40; ++i) {
        /* at a proxy's centre when the id is live, so that points hit */
        int32_t id = below(r, id_bound);
        rc_aabb b = rc_grid_is_proxy(g, id) ? rc_grid_get_box(g, id) : random_box(r, extent);
        rc_vec2 p = {0.5f * (b.lower.x + b.upper.x), 0.5f * (b.lower.y + b.upper.y)};
        recorder rec = {t, 0, 0};
        rc_grid_query_point(g, p, on_query, &rec);
        put(t, -3);
    }
}

static void ask_casts(const rc_grid *g, rng *r, float extent, trace *t) {
    for (int i = 0; i < 70; ++i) {
        float reach = i % 9 == 0 ? 40.0f * extent : 1.2f * extent;
        rc_vec2 o = {range(r, -reach, reach), range(r, -reach, reach)};
        rc_vec2 d = {range(r, -3.0 * extent, 3.0 * extent), range(r, -3.0 * extent, 3.0 * extent)};
        if (i % 5 == 1) {
            d.y = 0.0f; /* along an axis */
        }
        float radius = i < 40 ? 0.0f : (float)pow(2.0, -6.0 + 12.0 * unit(r));
        recorder rec = {t, i % 11 == 5 ? 4 : 0, 0};
        if (radius == 0.0f) {
            rc_grid_cast_ray(g, o, d, 1.0f, on_ray, &rec);
        } else {
            rc_grid_cast_circle(g, o, radius, d, 1.0f, on_ray, &rec);
        }
        put(t, -4);
        rec.seen = 0;
        rc_grid_cast_trusted(g, o, radius, d, 1.0f, true, on_ray, &rec);
        put(t, -5);
    }
}

/* Everything the grid answers without changing, traced in order. */
static void ask_everything(const rc_grid *g, uint64_t seed, float extent, int32_t id_bound, trace *t) {
    rng r = seeded(seed);
    put_stats(t, g);
    for (int32_t id = -1; id < id_bound; ++id) {
        put(t, rc_grid_is_proxy(g, id));
        put(t, rc_grid_get_user(g, id));
        put_box(t, rc_grid_get_box(g, id));
    }
    rc_grid_for_each_cell(g, on_cell, t);
    ask_queries(g, &r, extent, id_bound, t);
    ask_casts(g, &r, extent, t);
    rc_grid_find_all_pairs(g, on_pair, t);
    put(t, -6);
    rc_grid_find_new_pairs(g, on_pair, t);
    put(t, -7);
    rc_grid_find_begun_pairs(g, on_pair, t);
    put(t, -8);
}

/* Equal traces, or a message with the first difference. */
static bool same_trace(trace a, trace b, char *why, size_t why_size) {
    ptrdiff_t n = arrlen(a) < arrlen(b) ? arrlen(a) : arrlen(b);
    for (ptrdiff_t i = 0; i < n; ++i) {
        if (a[i] != b[i]) {
            snprintf(why, why_size, "traces differ at %td of %td: %d vs %d", i, n, a[i], b[i]);
            return false;
        }
    }
    if (arrlen(a) != arrlen(b)) {
        snprintf(why, why_size, "traces of %td and %td values", arrlen(a), arrlen(b));
        return false;
    }
    return true;
}

static bool same_answers(const rc_grid *a, const rc_grid *b, uint64_t seed, float extent, int32_t id_bound, char *why,
                         size_t why_size) {
    trace ta = NULL, tb = NULL;
    ask_everything(a, seed, extent, id_bound, &ta);
    ask_everything(b, seed, extent, id_bound, &tb);
    bool same = same_trace(ta, tb, why, why_size);
    arrfree(ta);
    arrfree(tb);
    return same;
}

/* ---- runs: random changes, driven by a grid's own answers ----------------------------------------- */

typedef struct run {
    rc_grid *g;
    rng r;
    int32_t *ids; /* live ids, stb_ds */
    int32_t users;
    int32_t id_bound; /* above every id handed out */
    float extent;
} run;

/* The same run on another grid: its randomness and ids copied. */
static run run_copy(const run *u, rc_grid *g) {
    run v = *u;
    v.g = g;
    v.ids = NULL;
    for (ptrdiff_t i = 0; i < arrlen(u->ids); ++i) {
        arrput(v.ids, u->ids[i]);
    }
    return v;
}

static int32_t pick(run *u) { return arrlen(u->ids) > 0 ? u->ids[below(&u->r, (int)arrlen(u->ids))] : 0; }

static void op_insert(run *u, trace *t) {
    rc_aabb b = random_box(&u->r, u->extent);
    int32_t id = rc_grid_insert(u->g, b, u->users++);
    put(t, id);
    if (id >= 0) {
        arrput(u->ids, id);
        u->id_bound = id + 1 > u->id_bound ? id + 1 : u->id_bound;
    }
}

static void op_move(run *u, trace *t) {
    int32_t id = pick(u);
    rc_aabb b = rc_grid_get_box(u->g, id);
    if (unit(&u->r) < 0.6) {
        float dx = range(&u->r, -0.3, 0.3), dy = range(&u->r, -0.3, 0.3);
        b = (rc_aabb){{b.lower.x + dx, b.lower.y + dy}, {b.upper.x + dx, b.upper.y + dy}};
    } else {
        b = random_box(&u->r, u->extent);
    }
    put(t, rc_grid_move_additions(u->g, id, b));
    put(t, rc_grid_move(u->g, id, b));
}

static void op_remove(run *u, trace *t) {
    if (arrlen(u->ids) == 0) {
        return;
    }
    int k = below(&u->r, (int)arrlen(u->ids));
    put(t, rc_grid_remove(u->g, u->ids[k]));
    arrdelswap(u->ids, k);
}

/* Pair finding of one kind or another, traced. */
static void op_pairs(run *u, trace *t) {
    int kind = below(&u->r, 4);
    if (kind == 0) {
        rc_grid_update_pairs(u->g, on_pair, t);
    } else if (kind == 1) {
        rc_grid_find_new_pairs(u->g, on_pair, t);
    } else if (kind == 2) {
        rc_grid_find_begun_pairs(u->g, on_pair, t);
    } else {
        rc_grid_forget_moves(u->g);
    }
    put(t, -9);
}

/* One random call; weights in per mille for insert, move, remove (the rest: the other calls). */
static void op_random(run *u, int insert, int move, int remove, trace *t) {
    int x = below(&u->r, 1000);
    if (x < insert || arrlen(u->ids) == 0) {
        op_insert(u, t);
    } else if ((x -= insert) < move) {
        op_move(u, t);
    } else if ((x -= move) < remove) {
        op_remove(u, t);
    } else {
        int k = below(&u->r, 9);
        int32_t id = k == 8 ? u->id_bound + 3 : pick(u); /* now and then a stale id */
        switch (k % 8) {
        case 0: put(t, rc_grid_set_static(u->g, id, unit(&u->r) < 0.7)); break;
        case 1: put(t, rc_grid_set_mobile(u->g, id, unit(&u->r) < 0.6)); break;
        case 2: put(t, rc_grid_touch(u->g, id)); break;
        case 3: put(t, rc_grid_optimize(u->g)); break;
        case 4: put(t, rc_grid_reserve(u->g, below(&u->r, 60))); break;
        default: op_pairs(u, t); break;
        }
    }
}

static void run_ops(run *u, int n, int insert, int move, int remove, trace *t) {
    for (int i = 0; i < n; ++i) {
        op_random(u, insert, move, remove, t);
    }
    put_stats(t, u->g);
}

/* ---- saving and loading ------------------------------------------------------------------------ */

static uint8_t *save(const rc_grid *g, size_t *size) {
    rc_bytes counter = rc_bytes_counter();
    rc_grid_save(g, &counter);
    EXPECT(!counter.failed, "counting failed");
    uint8_t *bytes = malloc(counter.at + 1);
    rc_bytes out = rc_bytes_writer(bytes, counter.at);
    rc_grid_save(g, &out);
    EXPECT(!out.failed && out.at == counter.at, "wrote %zu bytes of %zu counted", out.at, counter.at);
    if (counter.at > 0) {
        /* a byte short: refused, nothing written past the end */
        bytes[counter.at] = 0xA5;
        rc_bytes small = rc_bytes_writer(bytes, counter.at - 1);
        rc_grid_save(g, &small);
        EXPECT(small.failed && bytes[counter.at] == 0xA5, "a short buffer was written");
    }
    *size = counter.at;
    return bytes;
}

/* Save, load (from allocator), and check the loaded grid saves to the same bytes. */
static rc_grid *round_trip(const rc_grid *g, const rc_allocator *allocator, size_t *size_out) {
    size_t size;
    uint8_t *bytes = save(g, &size);
    rc_bytes in = rc_bytes_reader(bytes, size);
    rc_grid *loaded = rc_grid_load(&in, allocator);
    EXPECT(loaded != NULL && !in.failed && in.at == size, "load of %zu bytes: %p, failed %d, read %zu", size,
           (void *)loaded, in.failed, in.at);
    size_t again_size;
    uint8_t *again = save(loaded, &again_size);
    EXPECT(again_size == size && memcmp(again, bytes, size) == 0, "the loaded grid saves other bytes");
    free(again);
    free(bytes);
    if (size_out != NULL) {
        *size_out = size;
    }
    return loaded;
}

/* ---- what a scene uses (so that the comparisons cover it) ------------------------------------------ */

enum { USES_WINDOW = 1, USES_TABLE = 2, USES_CHUNKS = 4, USES_FREE_RECORDS = 8, USES_FREE_CHUNKS = 16,
       USES_FREE_IDS = 32, USES_MOVED = 64, USES_STATIC = 128, USES_MOBILE = 256, USES_LEVELS = 512,
       USES_BOXED_CHUNK = 1024 };

static int uses(const rc_grid *g) {
    const grid_store *s = &g->store;
    int u = 0;
    for (int32_t l = 0; l < LEVEL_COUNT; ++l) {
        u |= s->levels[l].window.slots != NULL ? USES_WINDOW : 0;
    }
    u |= s->hashed > 0 ? USES_TABLE : 0;
    u |= s->chunk_high > s->free_chunks ? USES_CHUNKS : 0;
    u |= s->free_records > 0 ? USES_FREE_RECORDS : 0;
    u |= s->free_chunks > 0 ? USES_FREE_CHUNKS : 0;
    u |= g->free_list >= 0 ? USES_FREE_IDS : 0;
    u |= g->moved_count > 0 ? USES_MOVED : 0;
    u |= g->statics > 0 ? USES_STATIC : 0;
    u |= __builtin_popcountll(s->used_levels) >= 3 ? USES_LEVELS : 0;
    for (int32_t id = 0; id < g->high; ++id) {
        u |= g->proxies[id].level >= 0 && g->proxies[id].mobile ? USES_MOBILE : 0;
    }
    for (int32_t r = 0; r < s->record_high; ++r) {
        const grid_cell *cell = &s->records[r];
        uint32_t k = 0;
        if (cell->meta != 0) {
            FOR_EACH_ENTRY(s, cell, raw, qb, {
                u |= k++ >= INLINE_ENTRIES && (raw & ENTRY_BOXED) != 0 ? USES_BOXED_CHUNK : 0;
            });
        }
    }
    return u;
}

/* ---- loaded grids behave as the saved ones ------------------------------------------------------- */

typedef struct scene_config {
    float cell_size; /* 0: automatic */
    float extent;
    int32_t proxies;
} scene_config;

static const scene_config CONFIGS[] = {
    {0.0f, 40.0f, 700}, /* automatic: the cell size follows the population */
    {1.0f, 30.0f, 900}, /* fixed, crowded: chunks */
    {0.37f, 120.0f, 600}, /* fixed, not a power of two, sparse: the table */
    {4.0f, 10.0f, 500},  /* large cells, very crowded */
};

/* Save at a moment, load, compare; then the same calls on both, compared as they go. */
static void check_moment(run *u, ws_counting_alloc *c, uint64_t seed) {
    rc_allocator a = ws_allocator(c);
    rc_grid *loaded = round_trip(u->g, &a, NULL);
    char why[200];
    EXPECT(same_answers(u->g, loaded, seed, u->extent, u->id_bound + 2, why, sizeof why), "after load: %s", why);
    run v = run_copy(u, loaded);
    trace ta = NULL, tb = NULL;
    run_ops(u, 250, 300, 350, 200, &ta);
    run_ops(&v, 250, 300, 350, 200, &tb);
    EXPECT(same_trace(ta, tb, why, sizeof why), "the same calls: %s", why);
    EXPECT(same_answers(u->g, loaded, seed + 1, u->extent, u->id_bound + 2, why, sizeof why), "after calls: %s", why);
    arrfree(ta);
    arrfree(tb);
    arrfree(v.ids);
    rc_grid_destroy(loaded);
    EXPECT(c->bad_frees == 0, "%s", c->first_bad);
}

START_TEST(loaded_grids_behave_as_saved) {
    const scene_config *cfg = &CONFIGS[_i];
    ws_counting_alloc c;
    ws_alloc_init(&c);
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = cfg->cell_size;
    def.allocator = ws_allocator(&c);
    run u = {rc_grid_create(&def), seeded(1000u + (uint64_t)_i), NULL, 0, 0, cfg->extent};
    int used = 0;
    bool trimmed = false;
    trace t = NULL;
    check_moment(&u, &c, 1); /* empty */
    for (int phase = 0; phase < 12; ++phase) {
        if (phase < 5) {
            run_ops(&u, cfg->proxies / 4, 700, 150, 50, &t); /* grow */
        } else if (phase < 9) {
            run_ops(&u, 300, 250, 500, 200, &t); /* churn */
        } else if (phase == 9) {
            /* most proxies gone, the highest ids first: the next optimise gives memory back and
               forgets the ids above the last live one */
            (void)rc_grid_optimize(u.g); /* (it notes the peak) */
            for (ptrdiff_t k = arrlen(u.ids) - 1; k >= 0; --k) {
                if (u.ids[k] >= u.id_bound / 5) {
                    put(&t, rc_grid_remove(u.g, u.ids[k]));
                    arrdelswap(u.ids, k);
                }
            }
            int32_t high = u.g->high;
            ck_assert(rc_grid_optimize(u.g));
            trimmed |= u.g->high < high;
        } else {
            run_ops(&u, cfg->proxies / 3, 500, 300, 100, &t); /* regrow over the trimmed ids */
        }
        used |= uses(u.g);
        check_moment(&u, &c, 100u + (uint64_t)phase);
        /* a grid loaded from a loaded grid, from another allocator */
        if (phase == 6) {
            rc_grid *one = round_trip(u.g, NULL, NULL);
            rc_grid *two = round_trip(one, NULL, NULL);
            char why[200];
            EXPECT(same_answers(u.g, two, 7, u.extent, u.id_bound + 2, why, sizeof why), "twice loaded: %s", why);
            rc_grid_destroy(one);
            rc_grid_destroy(two);
        }
    }
    fprintf(stderr, "grid snapshot scene %d: %d rebuilds, uses %#x, trimmed %d\n", _i, rc_grid_get_stats(u.g).rebuilds,
            used, trimmed);
    int wanted = USES_TABLE | USES_CHUNKS | USES_FREE_RECORDS | USES_FREE_CHUNKS | USES_FREE_IDS | USES_MOVED |
                 USES_STATIC | USES_MOBILE | USES_LEVELS | (_i % 2 == 1 ? USES_BOXED_CHUNK : 0); /* the crowded ones */
    EXPECT((used & wanted) == wanted, "scene %d uses %#x, not all of %#x", _i, used, wanted);
    EXPECT(_i == 2 || (used & USES_WINDOW), "scene %d has no window", _i);
    EXPECT(trimmed, "scene %d: no ids trimmed", _i);
    rc_grid_destroy(u.g);
    arrfree(u.ids);
    arrfree(t);
    EXPECT(c.live_bytes == 0 && c.bad_frees == 0, "%lld bytes left, %s", (long long)c.live_bytes, c.first_bad);
    ws_alloc_release(&c);
}
END_TEST

/* ---- the comparisons see differences --------------------------------------------------------------- */

static run grown(uint64_t seed, float cell_size, int n) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = cell_size;
    run u = {rc_grid_create(&def), seeded(seed), NULL, 0, 0, 30.0f};
    trace t = NULL;
    run_ops(&u, n, 600, 250, 100, &t);
    arrfree(t);
    return u;
}

START_TEST(comparisons_see_differences) {
    run u = grown(5, 0.0f, 600);
    char why[200];
    rc_grid *b = round_trip(u.g, NULL, NULL);
    ck_assert(same_answers(u.g, b, 3, u.extent, u.id_bound + 2, why, sizeof why));
    /* one proxy moved by a little */
    int32_t id = u.ids[7];
    rc_aabb box = rc_grid_get_box(b, id);
    box.upper.x += 0.01f;
    ck_assert(rc_grid_move(b, id, box));
    ck_assert(!same_answers(u.g, b, 3, u.extent, u.id_bound + 2, why, sizeof why));
    rc_grid_destroy(b);
    /* the same proxies removed in another order: the same answers now, but the free list differs,
       and the same further calls give other ids */
    b = round_trip(u.g, NULL, NULL);
    int32_t x = u.ids[3], y = u.ids[11];
    ck_assert(rc_grid_remove(u.g, x) && rc_grid_remove(u.g, y));
    ck_assert(rc_grid_remove(b, y) && rc_grid_remove(b, x));
    arrdel(u.ids, 11);
    arrdel(u.ids, 3);
    run v = run_copy(&u, b);
    trace ta = NULL, tb = NULL;
    run_ops(&u, 50, 500, 300, 100, &ta);
    run_ops(&v, 50, 500, 300, 100, &tb);
    ck_assert(!same_trace(ta, tb, why, sizeof why));
    arrfree(ta);
    arrfree(tb);
    arrfree(v.ids);
    rc_grid_destroy(b);
    rc_grid_destroy(u.g);
    arrfree(u.ids);
}
END_TEST

/* ---- bytes that are cut short, forged or flipped ----------------------------------------------------- */

/* The counting allocator, refusing what no allocator would give (a forged capacity asks for
 * gigabytes; ASan would abort where malloc returns NULL). */
enum { LARGEST_BLOCK = 256 << 20 };
static int64_t refused_blocks;

static void *bounded_alloc(size_t size, size_t align, void *user) {
    if (size > LARGEST_BLOCK) {
        refused_blocks++;
        return NULL;
    }
    return ws_allocator(user).alloc(size, align, user);
}

static void bounded_free(void *ptr, size_t size, void *user) { ws_allocator(user).free(ptr, size, user); }

/* A load from these bytes: refused (NULL, failed; or NULL, not failed, when a capacity read asks
 * for more than the allocator gives), or a grid that answers and changes without harm (ASan) and
 * saves to the same bytes. Nothing left behind either way. Returns whether it was accepted. */
static bool load_bad(const uint8_t *bytes, size_t size, ws_counting_alloc *c) {
    rc_allocator a = {bounded_alloc, bounded_free, c};
    int64_t live = c->live_bytes, refused = refused_blocks;
    rc_bytes in = rc_bytes_reader(bytes, size);
    rc_grid *g = rc_grid_load(&in, &a);
    if (g == NULL) {
        EXPECT(in.failed || refused_blocks > refused, "refused without failed (%zu bytes)", size);
    } else {
        EXPECT(!in.failed, "a grid and failed");
        size_t again_size;
        uint8_t *again = save(g, &again_size);
        size_t differ = 0;
        while (differ < again_size && differ < in.at && again[differ] == bytes[differ]) {
            differ++;
        }
        EXPECT(again_size == in.at && differ == again_size,
               "an accepted grid saves other bytes: from %zu of %zu (read %zu): %#x, not %#x", differ, again_size, in.at,
               differ < again_size ? again[differ] : 0, differ < in.at ? bytes[differ] : 0);
        free(again);
        trace t = NULL;
        ask_everything(g, 9, 30.0f, g->high + 2, &t);
        run u = {g, seeded(size), NULL, 0, g->high, 30.0f};
        for (int32_t id = 0; id < g->high; ++id) {
            if (rc_grid_is_proxy(g, id)) {
                arrput(u.ids, id);
            }
        }
        run_ops(&u, 80, 300, 300, 300, &t);
        arrfree(t);
        arrfree(u.ids);
        rc_grid_destroy(g);
    }
    EXPECT(c->live_bytes == live && c->bad_frees == 0, "%lld bytes left, %s", (long long)(c->live_bytes - live),
           c->first_bad);
    return g != NULL;
}

START_TEST(cut_short_is_refused) {
    ws_counting_alloc c;
    ws_alloc_init(&c);
    for (int big = 0; big < 2; ++big) {
        run u = grown(21, big ? 0.0f : 1.0f, big ? 900 : 40);
        size_t size;
        uint8_t *bytes = save(u.g, &size);
        rng r = seeded(77);
        int cases = big ? rc_test_random_cases(300) : (int)size;
        for (int i = 0; i < cases; ++i) {
            size_t cut = big ? (i < 8 ? size - 1 - (size_t)i : (size_t)(next_u64(&r) % size)) : (size_t)i;
            EXPECT(!load_bad(bytes, cut, &c), "%zu of %zu bytes accepted", cut, size);
        }
        free(bytes);
        rc_grid_destroy(u.g);
        arrfree(u.ids);
    }
    ws_alloc_release(&c);
}
END_TEST

static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void set_u32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; ++k) {
        p[k] = (uint8_t)(v >> (8 * k));
    }
}

/* The bytes with the u32 at `at` replaced: refused. */
static void expect_refused(const uint8_t *bytes, size_t size, size_t at, uint32_t v, ws_counting_alloc *c,
                           const char *what) {
    uint8_t *forged = malloc(size);
    memcpy(forged, bytes, size);
    set_u32(forged + at, v);
    EXPECT(!load_bad(forged, size, c), "forged %s (%#x) accepted", what, v);
    free(forged);
}

/* A known shape: small boxes by the origin in cells of 1, one removed, and last one far out,
 * alone in a hashed cell: the snapshot ends with that cell's record (meta, x, y, chunk, table
 * slot, its one entry). */
START_TEST(forged_entries_and_table_slots_are_refused) {
    ws_counting_alloc c;
    ws_alloc_init(&c);
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = 1.0f;
    rc_grid *g = rc_grid_create(&def);
    for (int i = 0; i < 8; ++i) {
        float x = 2.0f * (float)i + 0.25f;
        ck_assert_int_eq(rc_grid_insert(g, (rc_aabb){{x, 0.25f}, {x + 0.5f, 0.75f}}, i), i);
    }
    ck_assert_int_eq(rc_grid_insert(g, (rc_aabb){{5000.25f, 5000.25f}, {5000.5f, 5000.5f}}, 8), 8);
    ck_assert(rc_grid_remove(g, 2)); /* its record freed: the far cell's stays the last */
    const grid_store *s = &g->store;
    const grid_cell *last = &s->records[s->record_high - 1];
    uint32_t slot = find_hashed(s, 0, 5000, 5000);
    ck_assert(last->x == 5000 && last->y == 5000 && cell_count(last) == 1 && slot != NONE);
    size_t size;
    uint8_t *bytes = save(g, &size);
    ck_assert_uint_eq(get_u32(bytes + size - 4), 8u);   /* the entry: proxy 8, no neighbours */
    ck_assert_uint_eq(get_u32(bytes + size - 8), slot); /* its table slot */
    ck_assert(load_bad(bytes, size, &c)); /* as saved: accepted */
    size_t entry = size - 4, table = size - 8, y = size - 16, meta = size - 24;
    expect_refused(bytes, size, entry, 9u, &c, "id past high");
    expect_refused(bytes, size, entry, 2u, &c, "id of a removed proxy");
    expect_refused(bytes, size, entry, 5u, &c, "id of a proxy in another cell");
    expect_refused(bytes, size, entry, 8u | (1u << 25), &c, "id far past the proxies");
    expect_refused(bytes, size, entry, 8u | ENTRY_LEFT, &c, "neighbour bit");
    expect_refused(bytes, size, entry, 8u | ENTRY_MOBILE, &c, "mobile bit");
    expect_refused(bytes, size, table, s->capacity, &c, "table slot past the table");
    expect_refused(bytes, size, table, UINT32_MAX, &c, "negative table slot");
    for (uint32_t other = 0; other < s->capacity; ++other) {
        if (other != slot) {
            /* taken by another cell, or not reached from the cell's home */
            expect_refused(bytes, size, table, other, &c, "other table slot");
        }
    }
    expect_refused(bytes, size, y, 5001u, &c, "cell moved");
    expect_refused(bytes, size, meta, 2u << 6, &c, "count");
    expect_refused(bytes, size, meta, 1u << 6 | 1u, &c, "level");
    free(bytes);
    rc_grid_destroy(g);
    ws_alloc_release(&c);
}
END_TEST

/* Every byte of a small snapshot flipped in several ways, and random flips in a large one:
 * each load refused, or a grid that works. */
START_TEST(flipped_bytes_are_refused_or_harmless) {
    ws_counting_alloc c;
    ws_alloc_init(&c);
    static const uint8_t masks[] = {0x01, 0x80, 0xFF};
    int accepted = 0, refused = 0;
    run u = grown(33, 1.0f, 60);
    for (int i = 0; i < 6; ++i) {
        (void)rc_grid_set_static(u.g, u.ids[i], true);
        (void)rc_grid_set_mobile(u.g, u.ids[i + 6], true);
    }
    size_t size;
    uint8_t *bytes = save(u.g, &size);
    uint8_t *flipped = malloc(size);
    for (size_t at = 0; at < size; ++at) {
        for (size_t m = 0; m < sizeof masks; ++m) {
            memcpy(flipped, bytes, size);
            flipped[at] ^= masks[m];
            if (load_bad(flipped, size, &c)) {
                ++accepted;
            } else {
                ++refused;
            }
        }
    }
    free(flipped);
    free(bytes);
    rc_grid_destroy(u.g);
    arrfree(u.ids);
    u = grown(34, 0.0f, 1200);
    bytes = save(u.g, &size);
    flipped = malloc(size);
    rng r = seeded(35);
    for (int i = 0; i < rc_test_random_cases(400); ++i) {
        memcpy(flipped, bytes, size);
        for (int k = 0, n = 1 + below(&r, 4); k < n; ++k) {
            flipped[next_u64(&r) % size] ^= (uint8_t)(1 + below(&r, 255));
        }
        if (load_bad(flipped, size, &c)) {
            ++accepted;
        } else {
            ++refused;
        }
    }
    fprintf(stderr, "grid snapshot flips: %d accepted (harmless), %d refused\n", accepted, refused);
    ck_assert_int_gt(refused, accepted); /* most bytes are checked */
    free(flipped);
    free(bytes);
    rc_grid_destroy(u.g);
    arrfree(u.ids);
    ws_alloc_release(&c);
}
END_TEST

/* ---- allocation failure ------------------------------------------------------------------------- */

START_TEST(allocation_failure_leaks_nothing) {
    run u = grown(55, 0.0f, 1500);
    ck_assert((uses(u.g) & (USES_WINDOW | USES_TABLE | USES_CHUNKS)) == (USES_WINDOW | USES_TABLE | USES_CHUNKS));
    size_t size;
    uint8_t *bytes = save(u.g, &size);
    ws_counting_alloc c;
    ws_alloc_init(&c);
    rc_allocator a = ws_allocator(&c);
    int64_t failing = 0;
    for (int64_t n = 1;; ++n) {
        c.fail_at = c.allocations + n;
        rc_bytes in = rc_bytes_reader(bytes, size);
        rc_grid *g = rc_grid_load(&in, &a);
        EXPECT(!in.failed, "allocation %lld failing: the bytes called bad", (long long)n);
        EXPECT((g != NULL || c.live_bytes == 0) && c.bad_frees == 0, "%lld bytes left, %s", (long long)c.live_bytes,
               c.first_bad);
        if (g != NULL) {
            char why[200];
            EXPECT(same_answers(u.g, g, 4, u.extent, u.id_bound + 2, why, sizeof why), "%s", why);
            rc_grid_destroy(g);
            break;
        }
        failing++;
    }
    fprintf(stderr, "grid snapshot allocation failure: each of %lld allocations failed in turn\n", (long long)failing);
    ck_assert_int_ge(failing, 10); /* grid, five proxy arrays, marks, records, chunks, table, windows */
    ck_assert_int_eq(c.live_bytes, 0);
    ws_alloc_release(&c);
    free(bytes);
    rc_grid_destroy(u.g);
    arrfree(u.ids);
}
END_TEST

int main(void) {
    Suite *s = suite_create("grid_snapshot");
    TCase *t = tcase_create("snapshot");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, loaded_grids_behave_as_saved, 0, (int)(sizeof CONFIGS / sizeof CONFIGS[0]));
    tcase_add_test(t, comparisons_see_differences);
    tcase_add_test(t, cut_short_is_refused);
    tcase_add_test(t, forged_entries_and_table_slots_are_refused);
    tcase_add_test(t, flipped_bytes_are_refused_or_harmless);
    tcase_add_test(t, allocation_failure_leaks_nothing);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
