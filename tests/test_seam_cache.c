/* The seam cache (world/contact_seam.c): a solid meeting a static polygon near a face's end asks
 * whether a neighbour covers the face or runs on through its corner, and the answers are kept
 * per face while the level stays as it is, found whatever the filters say and asked of the
 * solid's own filter when used. The cache must change no answer: every manifold here is smoothed
 * twice, once through the cache as the calls before left it (other solids, with other masks,
 * asked first; the level changed in between), and once with no cache at all (emptied, and its
 * memory refused, so that the grid is asked every time, as the function did before it had one),
 * and the two must be the same bits. A cache that kept what the first solid's filter found, or
 * that outlived a change of the level, fails here. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/testing.h"
#include "support/world_support.h"
#include "world/world_internal.h"

enum { TILES = 24, SOLIDS = 6 };

typedef struct seam_scene {
    ws_counting_alloc alloc;
    rc_world *w;
    rc_body_id ground;
    rc_shape_id tiles[TILES];
    rc_body_id solids[SOLIDS];
    rc_shape_id solid_shapes[SOLIDS];
} seam_scene;

/* Tile i: a unit box (some half as wide, some standing 0.5 higher) with its top at y = 0 from
 * x = i - 12, in category 1 or 2. */
static rc_shape_id make_tile(seam_scene *s, ws_rng *r, int i) {
    rc_shape_def sd = rc_shape_default_def();
    sd.filter.category_bits = ws_chance(r, 0.5) ? 1u : 2u;
    float rise = ws_chance(r, 0.15) ? 0.5f : 0.0f;
    float half = ws_chance(r, 0.2) ? 0.25f : 0.5f;
    sd.offset = rc_v2((float)i - 12.0f + half, 0.5f * (rise - 1.0f));
    rc_shape_id id = rc_shape_create_box(s->w, s->ground, &sd, half, 0.5f * (1.0f + rise));
    ck_assert_msg(!rc_shape_id_is_null(id), "%s", rc_world_last_error(s->w));
    return id;
}

static void build(seam_scene *s, ws_rng *r) {
    memset(s, 0, sizeof *s);
    ws_alloc_init(&s->alloc);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&s->alloc);
    s->w = rc_world_create(&wd);
    ck_assert(s->w != NULL);
    rc_body_def gd = rc_body_default_def();
    s->ground = rc_body_create(s->w, &gd);
    for (int i = 0; i < TILES; ++i) {
        s->tiles[i] = make_tile(s, r, i);
    }
    for (int k = 0; k < SOLIDS; ++k) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(0.0f, 5.0f + 3.0f * (float)k);
        s->solids[k] = rc_body_create(s->w, &bd);
        rc_shape_def sd = rc_shape_default_def();
        sd.filter.mask_bits = (uint32_t)(k % 3) + 1u; /* 1, 2 or both */
        s->solid_shapes[k] = k % 2 == 0 ? rc_shape_create_box(s->w, s->solids[k], &sd, 0.5f, 0.4f)
                                        : rc_shape_create_capsule(s->w, s->solids[k], &sd, rc_v2(-0.3f, 0.0f),
                                                                  rc_v2(0.3f, 0.0f), 0.35f);
        ck_assert(!rc_shape_id_is_null(s->solid_shapes[k]));
    }
}

static bool same_collision(const rc_collision *a, const rc_collision *b) {
    if (a->count != b->count || !rc_vec2_equal(a->normal, b->normal)) {
        return false;
    }
    for (int k = 0; k < a->count; ++k) {
        if (!rc_vec2_equal(a->points[k].point, b->points[k].point) ||
            a->points[k].separation != b->points[k].separation || a->points[k].id != b->points[k].id) {
            return false;
        }
    }
    return true;
}

START_TEST(kept_seams_answer_as_the_grid_does) {
    ws_rng r = {0x5ea3cac4eULL};
    seam_scene s;
    build(&s, &r);
    const int trials = rc_test_random_cases(20000);
    int asked = 0, changed = 0, differ = 0, level_changes = 0, filter_changes = 0;
    for (int t = 0; t < trials; ++t) {
        if (t % 500 == 499) {
            /* the level changes: a tile made again (another size, category or slot) */
            int i = ws_int(&r, 0, TILES - 1);
            rc_shape_destroy(s.w, s.tiles[i]);
            if (ws_chance(&r, 0.5)) {
                rc_shape_def far = rc_shape_default_def(); /* takes the freed slot */
                far.offset = rc_v2(-100.0f - (float)t, 0.0f);
                ck_assert(!rc_shape_id_is_null(rc_shape_create_box(s.w, s.ground, &far, 0.5f, 0.5f)));
            }
            s.tiles[i] = make_tile(&s, &r, i);
            level_changes++;
        }
        int k = ws_int(&r, 0, SOLIDS - 1);
        if (t % 97 == 96) {
            /* a solid's filter changes (the level does not) */
            rc_filter f = rc_default_filter();
            f.mask_bits = (uint32_t)ws_int(&r, 1, 3);
            ck_assert(rc_shape_set_filter(s.w, s.solid_shapes[k], f));
            filter_changes++;
        }
        /* the solid near the floor's top (sunk in a little, or just above), over a seam or not */
        float x = (float)ws_range(&r, -12.0, 12.0);
        rc_vec2 at = rc_v2(x, (float)ws_range(&r, 0.25, 0.5));
        ck_assert(rc_body_set_transform(s.w, s.solids[k], at, (float)ws_range(&r, -0.4, 0.4)));
        const rc_shape *b = rc_get_shape(s.w, s.solid_shapes[k], "test");
        const rc_body *bb = &s.w->bodies.data[b->body];
        int i = (int)floorf(x + 12.0f) + ws_int(&r, -1, 1);
        i = i < 0 ? 0 : (i >= TILES ? TILES - 1 : i);
        const rc_shape *a = rc_get_shape(s.w, s.tiles[i], "test");
        const rc_body *ba = &s.w->bodies.data[a->body];
        float margin = rc_contact_margin(s.w, a, b);
        rc_hull ha = rc_shape_hull(s.w, a), hb = rc_shape_hull(s.w, b);
        rc_collision m = rc_collide_pair(s.w, a, &ha, ba->xf, b, &hb, bb->xf, margin);
        if (m.count == 0) {
            continue;
        }
        asked++;
        /* through the cache as the calls before left it */
        rc_collision kept = m;
        bool kept_changed = rc_smooth_solid_seam(s.w, a, b, margin, &kept);
        /* with no cache: the world's set aside, and no memory for another */
        rc_seam_cache warm = s.w->seams;
        memset(&s.w->seams, 0, sizeof s.w->seams);
        s.alloc.fail_from = s.alloc.allocations + 1;
        rc_collision fresh = m;
        bool fresh_changed = rc_smooth_solid_seam(s.w, a, b, margin, &fresh);
        s.alloc.fail_from = 0;
        ck_assert_int_eq(s.w->seams.count, 0);
        s.w->seams = warm;
        changed += fresh_changed;
        if (kept_changed != fresh_changed || (fresh_changed && !same_collision(&kept, &fresh))) {
            if (differ < 5) {
                fprintf(stderr, "[seam cache] trial %d: solid %d at (%.4f, %.4f) on tile %d: kept %d (%d points, n %.4f %.4f), "
                        "fresh %d (%d points, n %.4f %.4f)\n", t, k, (double)at.x, (double)at.y, i, kept_changed,
                        kept.count, (double)kept.normal.x, (double)kept.normal.y, fresh_changed, fresh.count,
                        (double)fresh.normal.x, (double)fresh.normal.y);
            }
            differ++;
        }
    }
    printf("[seam cache] %d manifolds smoothed through the cache and without: %d changed by seams, %d differ; %d "
           "level changes, %d filter changes; %d polygons' seams kept at the end\n",
           asked, changed, differ, level_changes, filter_changes, s.w->seams.count);
    ck_assert_int_eq(differ, 0);
    ck_assert_msg(changed > asked / 20, "only %d of %d manifolds met a seam: the test asks too little", changed, asked);
    rc_world_destroy(s.w);
    ck_assert_int_eq(s.alloc.live_bytes, 0);
    ws_alloc_release(&s.alloc);
}
END_TEST

int main(void) {
    Suite *s = suite_create("seam cache");
    TCase *t = tcase_create("seam cache");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, kept_seams_answer_as_the_grid_does);
    suite_add_tcase(s, t);
    return rc_test_run(s);
}
