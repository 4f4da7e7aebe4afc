/* Begun pairs (broadphase.h): rc_grid_find_begun_pairs reports exactly the pairs of proxies
 * whose boxes overlap now, of which one has moved, been inserted or touched since the moves
 * were last forgotten, less those whose boxes already overlapped then (both proxies alive and
 * neither inserted nor touched since). Checked against a brute-force record of every box at
 * every forget, through moves (small, large, across levels), removals and reuse of ids,
 * touches, marks (rc_grid_mark_moved: listed, box kept), failed steps (moves found but not
 * forgotten, then moved back and unlisted as far as the step's start), rebuilds as the
 * automatic cell size changes, and far coordinates in the hashed cells. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/grid.h>

#include "broadphase/broadphase.h"
#include "core/bytes.h"
#include "support/testing.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

enum { MAX_IDS = 1024 };

typedef struct scene {
    rc_grid *grid;
    bool live[MAX_IDS];
    bool fresh[MAX_IDS];   /* inserted or touched since the last forget */
    bool was_live[MAX_IDS]; /* alive at the last forget */
    rc_aabb then[MAX_IDS];  /* its box at the last forget */
    int32_t high;
    bool *reported; /* MAX_IDS x MAX_IDS, by (lower id, higher id) */
    int32_t report_count;
} scene;

static rc_aabb random_box(ws_rng *r, rc_vec2 centre, float spread) {
    double u = ws_uniform(r);
    float h = u < 0.85 ? ws_range(r, 0.05, 1.0) : (u < 0.97 ? ws_range(r, 1.0, 6.0) : ws_range(r, 6.0, 30.0));
    float w = h * ws_range(r, 0.3, 3.0);
    rc_vec2 c = {centre.x + ws_range(r, -spread, spread), centre.y + ws_range(r, -spread, spread)};
    rc_aabb b = {{c.x - w, c.y - h}, {c.x + w, c.y + h}};
    return b;
}

static void collect(int32_t proxy_a, int32_t user_a, int32_t proxy_b, int32_t user_b, void *context) {
    (void)user_a;
    (void)user_b;
    scene *s = context;
    int32_t lo = proxy_a < proxy_b ? proxy_a : proxy_b, hi = proxy_a < proxy_b ? proxy_b : proxy_a;
    EXPECT(lo != hi && lo >= 0 && hi < MAX_IDS, "pair %d %d", proxy_a, proxy_b);
    bool *seen = &s->reported[(size_t)lo * MAX_IDS + (size_t)hi];
    EXPECT(!*seen, "pair %d %d reported twice", lo, hi);
    *seen = true;
    s->report_count++;
}

/* The begun pairs as the grid reports them against the brute-force rule; returns how many. */
static int32_t check_begun(scene *s) {
    memset(s->reported, 0, sizeof(bool) * MAX_IDS * MAX_IDS);
    s->report_count = 0;
    rc_grid_find_begun_pairs(s->grid, collect, s);
    int32_t expected = 0;
    for (int32_t a = 0; a < s->high; ++a) {
        for (int32_t b = a + 1; b < s->high; ++b) {
            if (!s->live[a] || !s->live[b]) {
                continue;
            }
            rc_aabb ba = rc_grid_get_box(s->grid, a), bb = rc_grid_get_box(s->grid, b);
            bool overlap = rc_aabb_overlaps(ba, bb);
            bool old = s->was_live[a] && s->was_live[b] && !s->fresh[a] && !s->fresh[b] &&
                       rc_aabb_overlaps(s->then[a], s->then[b]);
            bool want = overlap && !old;
            bool got = s->reported[(size_t)a * MAX_IDS + (size_t)b];
            EXPECT(want == got, "pair %d %d: expected %s, reported %s (now %d, then %d, fresh %d %d)", a, b,
                   want ? "begun" : "not begun", got ? "begun" : "not", overlap, old, s->fresh[a], s->fresh[b]);
            expected += want ? 1 : 0;
        }
    }
    ck_assert_int_eq(expected, s->report_count);
    return expected;
}

static void forget(scene *s) {
    rc_grid_forget_moves(s->grid);
    for (int32_t id = 0; id < MAX_IDS; ++id) {
        s->was_live[id] = s->live[id];
        s->fresh[id] = false;
        if (s->live[id]) {
            s->then[id] = rc_grid_get_box(s->grid, id);
        }
    }
}

static void count_pair(int32_t proxy_a, int32_t user_a, int32_t proxy_b, int32_t user_b, void *context) {
    (void)proxy_a;
    (void)user_a;
    (void)proxy_b;
    (void)user_b;
    ++*(int *)context;
}

static void insert(scene *s, ws_rng *r, rc_vec2 centre, float spread) {
    int32_t id = rc_grid_insert(s->grid, random_box(r, centre, spread), 0);
    ck_assert_int_ge(id, 0);
    ck_assert_int_lt(id, MAX_IDS);
    s->live[id] = true;
    s->fresh[id] = true;
    s->high = id + 1 > s->high ? id + 1 : s->high;
}

static void churn(scene *s, ws_rng *r, rc_vec2 centre, float spread, bool step_fails) {
    rc_aabb undo_box[MAX_IDS];
    int32_t undo_id[MAX_IDS], undo = 0;
    /* a few listed before the step (as a game's changes between steps list them) */
    for (int32_t id = 0; id < s->high && step_fails; id += 7) {
        if (s->live[id]) {
            ck_assert(rc_grid_mark_moved(s->grid, id));
        }
    }
    int32_t listed = rc_grid_moved_count(s->grid), was_listed[MAX_IDS];
    for (int32_t k = 0; k < listed; ++k) {
        was_listed[k] = rc_grid_moved_proxy(s->grid, k);
    }
    for (int32_t id = 0; id < s->high; ++id) {
        if (!s->live[id]) {
            continue;
        }
        double u = ws_uniform(r);
        if (u < 0.45) {
            rc_aabb b = rc_grid_get_box(s->grid, id);
            float d = ws_uniform(r) < 0.8 ? 0.2f : spread;
            float dx = ws_range(r, -d, d), dy = ws_range(r, -d, d);
            rc_aabb moved = {{b.lower.x + dx, b.lower.y + dy}, {b.upper.x + dx, b.upper.y + dy}};
            if (ws_uniform(r) < 0.05) {
                moved.upper.y += ws_range(r, 0.0, 15.0); /* may move it to a coarser level */
            }
            undo_box[undo] = b;
            undo_id[undo++] = id;
            ck_assert(rc_grid_move(s->grid, id, moved));
            if (ws_uniform(r) < 0.3) {
                moved.lower.x -= 0.1f; /* moved twice: its before stays the first */
                ck_assert(rc_grid_move(s->grid, id, moved));
            }
        } else if (u < 0.5 && !step_fails) {
            ck_assert(rc_grid_remove(s->grid, id));
            s->live[id] = false;
        } else if (u < 0.55 && !step_fails) {
            ck_assert(rc_grid_touch(s->grid, id));
            s->fresh[id] = true;
        } else if (u < 0.6) {
            ck_assert(rc_grid_mark_moved(s->grid, id)); /* listed, its box kept: no pair begins */
        }
    }
    if (step_fails) {
        /* a failed step: the pairs were looked at, the moves put back and unlisted as far as the
           step's start (the list then as it was, in its order), nothing forgotten */
        (void)check_begun(s);
        for (int32_t k = undo - 1; k >= 0; --k) {
            ck_assert(rc_grid_move(s->grid, undo_id[k], undo_box[k]));
        }
        rc_grid_unlist_moves(s->grid, listed);
        ck_assert_int_eq(rc_grid_moved_count(s->grid), listed);
        for (int32_t k = 0; k < listed; ++k) {
            ck_assert_int_eq(rc_grid_moved_proxy(s->grid, k), was_listed[k]);
        }
        return;
    }
    for (int i = 0; i < 10; ++i) {
        insert(s, r, centre, spread);
    }
}

static void run_scene(rc_vec2 centre, float spread, uint64_t seed) {
    scene *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    s->reported = calloc((size_t)MAX_IDS * MAX_IDS, sizeof(bool));
    ck_assert_ptr_nonnull(s->reported);
    rc_grid_def def = rc_grid_default_def(); /* automatic cell size: rebuilt as the population grows */
    s->grid = rc_grid_create(&def);
    ck_assert_ptr_nonnull(s->grid);
    ws_rng r = {seed};
    for (int i = 0; i < 200; ++i) {
        insert(s, &r, centre, spread);
    }
    int64_t begun = check_begun(s), kept = 0;
    forget(s);
    for (int round = 0; round < 30; ++round) {
        churn(s, &r, centre, spread, round % 5 == 4);
        begun += check_begun(s);
        ck_assert(rc_grid_optimize(s->grid));
        forget(s);
        /* the rule is not empty either way: pairs that still overlap are not reported */
        for (int32_t a = 0; a < s->high; ++a) {
            for (int32_t b = a + 1; b < s->high; ++b) {
                kept += s->live[a] && s->live[b] && rc_aabb_overlaps(s->then[a], s->then[b]) ? 1 : 0;
            }
        }
        ck_assert(rc_grid_touch(s->grid, MAX_IDS - 1) == false); /* never handed out */
    }
    ck_assert_int_gt(begun, 500);
    ck_assert_int_gt(kept, 5000);
    rc_grid_destroy(s->grid);
    free(s->reported);
    free(s);
}

START_TEST(begun_pairs_are_the_new_overlaps) { run_scene((rc_vec2){0.0f, 0.0f}, 12.0f, 3); }
END_TEST

START_TEST(begun_pairs_far_from_the_origin_in_hashed_cells) { run_scene((rc_vec2){2.0e5f, -7.0e4f}, 20.0f, 4); }
END_TEST

/* Marking a proxy moved lists it once, its box and pairs as they were; the list names live
 * proxies only (-1 for one removed since, or beyond the list); a stale proxy is refused. */
START_TEST(marking_moved_lists_a_proxy_and_begins_no_pair) {
    rc_grid_def def = rc_grid_default_def();
    rc_grid *g = rc_grid_create(&def);
    ck_assert_ptr_nonnull(g);
    rc_aabb b = {{0.0f, 0.0f}, {1.0f, 1.0f}}, c = {{0.5f, 0.5f}, {2.0f, 2.0f}};
    int32_t x = rc_grid_insert(g, b, 7), y = rc_grid_insert(g, c, 8);
    ck_assert_int_ge(x, 0);
    ck_assert_int_ge(y, 0);
    rc_grid_forget_moves(g);
    ck_assert_int_eq(rc_grid_moved_count(g), 0);
    ck_assert(rc_grid_mark_moved(g, y));
    ck_assert(rc_grid_mark_moved(g, y)); /* listed once */
    ck_assert_int_eq(rc_grid_moved_count(g), 1);
    ck_assert_int_eq(rc_grid_moved_proxy(g, 0), y);
    ck_assert_int_eq(rc_grid_moved_proxy(g, 1), -1);
    ck_assert_int_eq(rc_grid_moved_proxy(g, -1), -1);
    rc_aabb got = rc_grid_get_box(g, y);
    ck_assert(rc_aabb_equal(got, c));
    int pairs = 0;
    rc_grid_find_begun_pairs(g, count_pair, &pairs);
    ck_assert_int_eq(pairs, 0); /* they overlapped before: nothing begins */
    ck_assert(rc_grid_remove(g, y));
    ck_assert_int_eq(rc_grid_moved_proxy(g, 0), -1); /* still listed, no longer live */
    ck_assert(!rc_grid_mark_moved(g, y));
    ck_assert(!rc_grid_mark_moved(g, -1));
    ck_assert(!rc_grid_mark_moved(NULL, 0));
    rc_grid_unlist_moves(g, 0);
    ck_assert_int_eq(rc_grid_moved_count(g), 0);
    rc_grid_destroy(g);
}
END_TEST

START_TEST(touching_a_stale_proxy_is_refused) {
    rc_grid_def def = rc_grid_default_def();
    rc_grid *g = rc_grid_create(&def);
    ck_assert_ptr_nonnull(g);
    rc_aabb b = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    int32_t id = rc_grid_insert(g, b, 7);
    ck_assert_int_ge(id, 0);
    ck_assert(rc_grid_touch(g, id));
    ck_assert(rc_grid_remove(g, id));
    ck_assert(!rc_grid_touch(g, id));
    ck_assert(!rc_grid_touch(g, -1));
    ck_assert(!rc_grid_touch(NULL, 0));
    rc_grid_destroy(g);
}
END_TEST

/* A grid's whole state as its snapshot writes it (every byte that decides a later answer). */
static uint8_t *saved(const rc_grid *g, size_t *size) {
    rc_bytes counter = rc_bytes_counter();
    rc_grid_save(g, &counter);
    uint8_t *bytes = malloc(counter.at + 1);
    ck_assert_ptr_nonnull(bytes);
    rc_bytes out = rc_bytes_writer(bytes, counter.at);
    rc_grid_save(g, &out);
    ck_assert(!out.failed);
    *size = counter.at;
    return bytes;
}

static void expect_same_grids(const rc_grid *a, const rc_grid *b, int move) {
    size_t na, nb;
    uint8_t *sa = saved(a, &na), *sb = saved(b, &nb);
    EXPECT(na == nb && memcmp(sa, sb, na) == 0, "move %d: the grids differ (%zu and %zu bytes)", move, na, nb);
    free(sa);
    free(sb);
}

/* The world's moves (rc_grid_move_trusted, rc_grid_move_in_cells_trusted) leave a grid as the
 * checked calls do: twin grids take the same random moves (within a cell, across cells and
 * levels, far off, and bad boxes), one by rc_grid_move_additions then rc_grid_move where that
 * adds no entry, the other by rc_grid_move_in_cells_trusted; and reserved moves by rc_grid_move
 * against rc_grid_move_trusted. The same additions, the box before, and byte for byte the same
 * grids (rc_grid_save) after every move; the pairs found from the moves are the same. */
static void run_twins(rc_vec2 centre, float spread, uint64_t seed) {
    rc_grid_def def = rc_grid_default_def();
    def.cell_size = 1.0f;
    rc_grid *a = rc_grid_create(&def), *b = rc_grid_create(&def);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ws_rng r = {seed};
    enum { N = 300 };
    int32_t ids[N];
    for (int i = 0; i < N; ++i) {
        rc_aabb box = random_box(&r, centre, spread);
        ids[i] = rc_grid_insert(a, box, i);
        ck_assert_int_eq(rc_grid_insert(b, box, i), ids[i]);
    }
    rc_grid_forget_moves(a);
    rc_grid_forget_moves(b);
    int kept = 0, deferred = 0, refused = 0;
    for (int move = 0; move < 6000; ++move) {
        int32_t id = ids[ws_int(&r, 0, N - 1)];
        rc_aabb was = rc_grid_get_box(a, id), box;
        double u = ws_uniform(&r);
        if (u < 0.5) { /* a small step: mostly in the same cells */
            rc_vec2 d = {ws_range(&r, -0.3, 0.3), ws_range(&r, -0.3, 0.3)};
            box = (rc_aabb){rc_add(was.lower, d), rc_add(was.upper, d)};
        } else if (u < 0.98) {
            box = random_box(&r, centre, spread);
        } else {
            box = (rc_aabb){{NAN, 0.0f}, {1.0f, 1.0f}}; /* refused by both */
        }
        rc_grid_move_note note = {{{-1.0f, -1.0f}, {-1.0f, -1.0f}}, {0}, {0}, 0, false};
        if (ws_chance(&r, 0.5)) {
            int32_t add = rc_grid_move_additions(a, id, box);
            ck_assert_int_eq(rc_grid_move_in_cells_trusted(b, id, box, &note), add);
            ck_assert(rc_aabb_equal(note.box, was) || add > 0);
            if (add == 0) {
                bool moved = rc_grid_move(a, id, box);
                ck_assert_int_eq(moved, rc_aabb_is_valid(box));
                kept += moved;
                refused += !moved;
            } else {
                deferred++;
            }
        } else {
            ck_assert(rc_grid_reserve(a, rc_grid_move_additions(a, id, box)));
            ck_assert(rc_grid_reserve(b, rc_grid_move_additions(b, id, box)));
            bool moved = rc_grid_move(a, id, box);
            ck_assert_int_eq(rc_grid_move_trusted(b, id, box, &note), moved);
            ck_assert(rc_aabb_equal(note.box, was));
        }
        ck_assert(rc_aabb_equal(rc_grid_get_box(b, id), rc_grid_get_box(a, id)));
        if (move % 97 == 0) {
            expect_same_grids(a, b, move);
            int pa = 0, pb = 0;
            rc_grid_find_begun_pairs(a, count_pair, &pa);
            rc_grid_find_begun_pairs(b, count_pair, &pb);
            ck_assert_int_eq(pa, pb);
            rc_grid_forget_moves(a);
            rc_grid_forget_moves(b);
        }
    }
    expect_same_grids(a, b, -1);
    ck_assert_int_gt(kept, 1000);   /* moves that kept their cells, made at once */
    ck_assert_int_gt(deferred, 1000); /* moves that add entries, left to the caller */
    ck_assert_int_gt(refused, 10);
    rc_grid_destroy(a);
    rc_grid_destroy(b);
}

START_TEST(trusted_moves_leave_the_grid_as_checked_moves_do) { run_twins((rc_vec2){0.0f, 0.0f}, 12.0f, 11); }
END_TEST

START_TEST(trusted_moves_far_from_the_origin_in_hashed_cells) { run_twins((rc_vec2){2.0e5f, -7.0e4f}, 20.0f, 12); }
END_TEST

int main(void) {
    Suite *s = suite_create("grid_begun");
    TCase *t = tcase_create("begun");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, begun_pairs_are_the_new_overlaps);
    tcase_add_test(t, begun_pairs_far_from_the_origin_in_hashed_cells);
    tcase_add_test(t, touching_a_stale_proxy_is_refused);
    tcase_add_test(t, marking_moved_lists_a_proxy_and_begins_no_pair);
    tcase_add_test(t, trusted_moves_leave_the_grid_as_checked_moves_do);
    tcase_add_test(t, trusted_moves_far_from_the_origin_in_hashed_cells);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
