/* Memory: every byte through the allocator hook, and allocation failure at every point.
 *
 * A counting allocator checks that each free names a live block with its allocated size (an
 * stb_ds hash map of pointer -> size) and that the live bytes return to 0 after
 * rc_world_destroy; a scan of the library's sources checks that nothing else allocates. Then
 * a scripted scenario is run once without failures to record a trace (snapshots at every
 * step, events included), and again with the 1st, 2nd, ... Nth allocation failing until a run
 * sees no failure. The scenario: create the world (with storage sized up front); create
 * bodies and shapes of every kind; step with moving bodies making contacts; teleport, change
 * shapes, destroy shapes and bodies, step again; a floor, a sector chain, grenades, point and
 * circle bullets that strike and wake bodies (impact events); a kinematic room carrying a
 * looped and an open chain, moving, teleported and made static; type, bullet, response,
 * material and density changes, an impulse; then every kind of query (casts, filtered and
 * all-hits casts, overlaps, shape queries, chains, sectors, contacts, the mover, a trajectory
 * preview, the event lists), which must allocate nothing; destroy the world. Every call that
 * fails must return its error value with a message containing "out of memory"
 * (rc_world_create: NULL, with nothing leaked), call the error callback once, and leave the
 * world exactly as it was; retried once allocation works again it must succeed, and the run
 * must then follow the trace of the run without failures exactly. No run may leak (counted
 * through the hook; the ASan build runs this under LeakSanitizer too). Violations are
 * collected over all runs and reported together; the number of allocation points is printed. */
#include <check.h>
#include <math.h>
#include <stb_ds.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "core/memory.h"
#include "support/world_support.h"

#define EXPECT WS_EXPECT

/* ---- the basics ------------------------------------------------------------------------------- */

START_TEST(all_memory_goes_through_the_hook) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    wd.body_capacity = 10;
    wd.shape_capacity = 20;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    ck_assert(ca.live_bytes > 0);
    ws_rng g = {5};
    rc_body_id bodies[300];
    for (int i = 0; i < 300; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = i % 3 == 0 ? RC_STATIC : RC_DYNAMIC;
        bd.position = rc_v2(ws_range(&g, -50, 50), ws_range(&g, -50, 50));
        bd.linear_velocity = bd.type == RC_DYNAMIC ? rc_v2(ws_range(&g, -5, 5), ws_range(&g, -5, 5)) : rc_v2(0, 0);
        bodies[i] = rc_body_create(w, &bd);
        rc_shape_def sd = rc_shape_default_def();
        sd.is_sensor = i % 11 == 0;
        ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, bodies[i], &sd, ws_range(&g, 0.2, 3))));
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, bodies[i], &sd, 1.0f, ws_range(&g, 0.2, 30))));
    }
    for (int s = 0; s < 60; ++s) {
        ck_assert(rc_world_step(w, 1.0f / 30.0f));
        if (s % 10 == 5) {
            for (int i = s; i < 300; i += 7) {
                rc_body_destroy(w, bodies[i]);
                rc_body_def bd = rc_body_default_def();
                bd.type = RC_DYNAMIC;
                bd.position = rc_v2(ws_range(&g, -500, 500), ws_range(&g, -500, 500));
                bodies[i] = rc_body_create(w, &bd);
                rc_shape_def sd = rc_shape_default_def();
                ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, bodies[i], &sd, ws_range(&g, 0.2, 80))));
            }
        }
    }
    rc_world_counters c = rc_world_get_counters(w);
    ck_assert(c.bytes > 0);
    ck_assert_msg((int64_t)c.bytes <= ca.live_bytes,
                  "counters.bytes %zu claims more than the allocator handed out (%lld live)", c.bytes,
                  (long long)ca.live_bytes);
    rc_world_destroy(w);
    ck_assert_msg(ca.live_bytes == 0, "%lld bytes in %lld blocks still live after rc_world_destroy",
                  (long long)ca.live_bytes, (long long)ca.live_blocks);
    ck_assert_msg(ca.bad_frees == 0, "%lld bad frees: %s", (long long)ca.bad_frees, ca.first_bad);
    ck_assert_int_eq((int)ca.bad_aligns, 0);
    ck_assert(ca.allocations > 10 && ca.frees >= ca.allocations);
    fprintf(stderr, "[memory] churn: %lld allocations, peak %lld bytes\n", (long long)ca.allocations,
            (long long)ca.peak_bytes);
    ws_alloc_release(&ca);
}
END_TEST

START_TEST(queries_and_refused_calls_allocate_nothing) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    rc_world *w = rc_world_create(&wd);
    rc_body_def bd = rc_body_default_def();
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    for (int i = 0; i < 20; ++i) {
        sd.offset = rc_v2((float)i * 3.0f, 0.0f);
        rc_shape_create_box(w, b, &sd, 1.0f, 1.0f);
    }
    ck_assert(rc_world_step(w, 0.1f));
    int64_t before = ca.allocations;
    rc_query_filter f = rc_default_query_filter();
    rc_ray_hit h;
    ck_assert(rc_world_cast_ray(w, rc_v2(-5, 0), rc_v2(100, 0), &h));
    ck_assert(rc_world_cast_circle(w, rc_v2(-5, 5), 4.5f, rc_v2(100, 0), &h));
    ck_assert_int_eq(rc_world_overlap_aabb(w, (rc_aabb){{-10, -10}, {100, 10}}, f, NULL, NULL), 20);
    ck_assert_int_eq(rc_world_overlap_point(w, rc_v2(3, 0), f, NULL, NULL), 1);
    ck_assert_int_eq(rc_world_overlap_circle(w, rc_v2(3, 0), 5.0f, f, NULL, NULL), 4); /* x = 9 touches */
    rc_body_create(w, NULL);
    rc_world_step(w, -1.0f);
    rc_body_set_transform(w, RC_NULL_BODY_ID, rc_v2(0, 0), 0.0f);
    ck_assert_msg(ca.allocations == before, "queries and refused calls made %lld allocations",
                  (long long)(ca.allocations - before));
    rc_world_destroy(w);
    ck_assert_int_eq((int)ca.live_bytes, 0);
    ws_alloc_release(&ca);
}
END_TEST

/* A crowd that has settled into its contacts steps with next to no allocation: 400 grenades
 * and crates poured into a box, sleep off, so that all of it stays awake and its contacts keep
 * beginning and ending as it jiggles. Once its arrays have grown to what it needs (200 steps),
 * the next 200 steps take from the hook, in all, less than ten steps' room for contact events
 * (an event of every contact: 148 bytes a contact in the four lists). (The event lists were
 * given back at every step's end to what the step used and taken again at the next step's
 * start: that room at each of the 200 steps.) What is left are small lists that follow the
 * step's counts (impacts, new contacts), about a hundredth of it. */
START_TEST(a_settled_crowd_steps_with_next_to_no_allocation) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    wd.enable_sleep = false;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_def ground = rc_body_default_def();
    rc_body_id box = rc_body_create(w, &ground);
    rc_shape_def sd = rc_shape_default_def();
    const float walls[3][4] = {{0.0f, -0.5f, 8.0f, 0.5f}, {-7.5f, 8.0f, 0.5f, 8.0f}, {7.5f, 8.0f, 0.5f, 8.0f}};
    for (int k = 0; k < 3; ++k) {
        sd.offset = rc_v2(walls[k][0], walls[k][1]);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, box, &sd, walls[k][2], walls[k][3])));
    }
    sd.offset = rc_v2(0.0f, 0.0f);
    for (int i = 0; i < 400; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(-6.0f + 0.6f * (float)(i % 20), 0.5f + 0.6f * (float)(i / 20));
        rc_body_id b = rc_body_create(w, &bd);
        rc_shape_id made = i % 2 == 0 ? rc_shape_create_circle(w, b, &sd, 0.25f) : rc_shape_create_box(w, b, &sd, 0.25f, 0.25f);
        ck_assert(!rc_shape_id_is_null(made));
    }
    int64_t begun = 0, bytes = 0, least_contacts = INT32_MAX;
    for (int step = 0; step < 400; ++step) {
        int64_t before = ca.allocated_bytes;
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        if (step >= 200) {
            bytes += ca.allocated_bytes - before;
            begun += rc_world_contact_events(w).begin_count;
            int32_t contacts = rc_world_get_counters(w).contacts;
            least_contacts = contacts < least_contacts ? contacts : least_contacts;
        }
    }
    fprintf(stderr, "[memory] a settled crowd: %lld bytes allocated over 200 steps, %lld contacts at least\n",
            (long long)bytes, (long long)least_contacts);
    ck_assert_int_gt(least_contacts, 800);
    ck_assert_int_lt(bytes, 10 * 148 * least_contacts); /* (less than ten steps' room, not 200) */
    ck_assert_int_gt(begun, 0); /* (still moving: contacts began) */
    rc_world_destroy(w);
    ck_assert_int_eq((int)ca.live_bytes, 0);
    ws_alloc_release(&ca);
}
END_TEST

/* Nothing in the library allocates behind the hook's back: its sources (comments and strings
 * left out) name no C library allocator and no stb_ds, except core/memory.c, whose default
 * allocator is the malloc the hook falls back on. */
static bool is_ident(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

static void scan_source(const char *path, const char **names, int n_names, bool allowed, char *found, size_t found_size,
                        int *files) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *text = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 1 >= cap) {
            cap = cap ? 2 * cap : 4096;
            text = realloc(text, cap);
            ck_assert_ptr_nonnull(text);
        }
        text[len++] = (char)c;
    }
    fclose(f);
    ++*files;
    if (text == NULL) {
        return;
    }
    text[len] = 0;
    /* blank out comments, strings and character literals */
    for (size_t i = 0; i < len; ++i) {
        if (text[i] == '/' && text[i + 1] == '*') {
            size_t j = i;
            while (j < len && !(text[j] == '*' && text[j + 1] == '/')) {
                text[j++] = ' ';
            }
            for (size_t k = 0; k < 2 && j < len; ++k) {
                text[j++] = ' ';
            }
            i = j - 1;
        } else if (text[i] == '/' && text[i + 1] == '/') {
            while (i < len && text[i] != '\n') {
                text[i++] = ' ';
            }
        } else if (text[i] == '"' || text[i] == '\'') {
            char q = text[i++];
            while (i < len && text[i] != q) {
                if (text[i] == '\\') {
                    text[i++] = ' ';
                }
                text[i++] = ' ';
            }
        }
    }
    for (int k = 0; k < n_names && !allowed; ++k) {
        size_t nl = strlen(names[k]);
        for (const char *p = strstr(text, names[k]); p != NULL; p = strstr(p + 1, names[k])) {
            /* a name, not part of one, nor a member (the hook's own free: a->free, (*free)) */
            if ((p == text || (!is_ident((unsigned char)p[-1]) && p[-1] != '.' && p[-1] != '>' && p[-1] != '*')) &&
                !is_ident((unsigned char)p[nl])) {
                size_t used = strlen(found);
                snprintf(found + used, found_size - used, " %s in %s;", names[k], path);
                break;
            }
        }
    }
    free(text);
}

START_TEST(the_library_allocates_only_through_the_hook) {
    static const char *names[] = {"malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign",
                                  "strdup", "strndup", "alloca", "stbds_arrgrowf", "arrput", "arrpush",
                                  "hmput", "shput", "stb_ds", "STB_DS_IMPLEMENTATION"};
    static const char *dirs[] = {"core", "shapes", "broadphase", "world", "include/ricochet"};
    char found[2000] = "";
    int files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; ++d) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "ls %s/%s/*.c %s/%s/*.h 2>/dev/null", RICOCHET_SOURCE_DIR, dirs[d],
                 RICOCHET_SOURCE_DIR, dirs[d]);
        FILE *ls = popen(cmd, "r");
        ck_assert_ptr_nonnull(ls);
        char path[512];
        while (fgets(path, sizeof path, ls) != NULL) {
            path[strcspn(path, "\n")] = 0;
            bool allowed = strstr(path, "/core/memory.c") != NULL;
            scan_source(path, names, (int)(sizeof names / sizeof names[0]), allowed, found, sizeof found, &files);
        }
        pclose(ls);
    }
    ck_assert_msg(files >= 20, "only %d library sources found under %s", files, RICOCHET_SOURCE_DIR);
    ck_assert_msg(found[0] == 0, "allocation behind the hook:%s", found);
}
END_TEST

/* The default allocator's arrays grow and shrink by realloc (core/memory.c: its blocks carry
 * the shift to their alignment in the byte before them, realloc's block moved to it again when
 * realloc moved the block by other than a multiple of the alignment): an array of 32-bit values
 * grown from nothing to 3,000,000 (12 MB: past malloc's threshold for blocks of their own
 * pages, which realloc remaps) in steps of every size, then shrunk and grown again, keeps its
 * contents and its alignment (16 and 64) throughout, and a tally over it counts exactly the
 * bytes the array holds (0 once it is freed). */
static uint32_t pattern(int32_t i, uint32_t salt) { return (uint32_t)i * 2654435761u ^ salt; }

static void check_array(const uint32_t *a, int32_t count, size_t align, uint32_t salt, const char *when) {
    ck_assert_msg(((uintptr_t)a & (align - 1)) == 0, "%s: %p is not aligned to %zu", when, (const void *)a, align);
    for (int32_t i = 0; i < count; ++i) {
        if (a[i] != pattern(i, salt)) {
            ck_abort_msg("%s: element %d of %d is %u, not %u", when, i, count, a[i], pattern(i, salt));
        }
    }
}

START_TEST(default_arrays_grow_and_shrink_in_place_with_their_contents) {
    rc_mem_tally tally = {rc_mem_resolve((rc_allocator){NULL, NULL, NULL}), 0, NULL};
    rc_allocator a = rc_mem_tallied(&tally);
    static const size_t aligns[] = {16, 64};
    for (size_t k = 0; k < 2; ++k) {
        size_t align = aligns[k];
        uint32_t salt = (uint32_t)(0x9e3779b9u * (k + 1));
        void *block = NULL;
        int32_t capacity = 0, count = 0, growths = 0;
        ws_rng g = {11 + k};
        /* small blocks of 16 to 112 bytes taken after each growth while the array is small: the
           next growth cannot extend the block where it is, and realloc moves it, to starts
           that differ modulo the alignment */
        void *blockers[64];
        size_t blocker_sizes[64];
        int blocker_count = 0;
        size_t blocker_bytes = 0;
        while (count < 3000000) {
            /* steps of every size: one more, a few, a thousand, a hundred thousand */
            int32_t step = count < 20000 ? ws_int(&g, 1, 600)
                           : ws_chance(&g, 0.5) ? ws_int(&g, 1, 40) : ws_int(&g, 1, 300000);
            int32_t before = capacity;
            ck_assert(rc_mem_reserve_aligned(&a, &block, &capacity, count, count + step, sizeof(uint32_t), align));
            growths += capacity != before;
            ck_assert_int_ge(capacity, count + step);
            check_array(block, count, align, salt, "grown");
            ck_assert_uint_eq(tally.held, (size_t)capacity * sizeof(uint32_t) + blocker_bytes);
            uint32_t *v = block;
            for (int32_t i = count; i < count + step; ++i) {
                v[i] = pattern(i, salt);
            }
            count += step;
            if (capacity != before && count < 20000 && blocker_count < 64) {
                blocker_sizes[blocker_count] = 16u * (size_t)(1 + blocker_count % 7);
                blockers[blocker_count] = rc_mem_alloc(&a, blocker_sizes[blocker_count]);
                ck_assert_ptr_nonnull(blockers[blocker_count]);
                blocker_bytes += blocker_sizes[blocker_count++];
            }
        }
        ck_assert_int_ge(growths, 5);
        for (int i = 0; i < blocker_count; ++i) {
            rc_mem_free(&a, blockers[i], blocker_sizes[i]);
        }
        /* shrunk to a tenth (and to none), its first elements kept, then grown again */
        for (int round = 0; round < 2; ++round) {
            int32_t kept = round == 0 ? count / 10 : 0;
            ck_assert(rc_mem_shrink_aligned(&a, &block, &capacity, kept, kept, sizeof(uint32_t), align));
            ck_assert_int_eq(capacity, kept > 16 ? kept : 16);
            ck_assert_uint_eq(tally.held, (size_t)capacity * sizeof(uint32_t));
            check_array(block, kept, align, salt, "shrunk");
            ck_assert(rc_mem_reserve_aligned(&a, &block, &capacity, kept, 1000000, sizeof(uint32_t), align));
            check_array(block, kept, align, salt, "grown after shrinking");
            ck_assert_uint_eq(tally.held, (size_t)capacity * sizeof(uint32_t));
        }
        rc_mem_free(&a, block, (size_t)capacity * sizeof(uint32_t));
        ck_assert_uint_eq(tally.held, 0);
    }
}
END_TEST

/* Regression (found by the soak and by fuzz_world): rc_world_destroy freed a live chain's
 * block (points and segment indices) with the size of its points alone, so the hook's free got
 * another size than its alloc; and a destroyed chain's slot kept counting in the counters'
 * bytes. */
START_TEST(chains_left_to_world_destroy_are_freed_with_their_size) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_def bd = rc_body_default_def();
    rc_body_id b = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_vec2 loop[5] = {{-10, -10}, {10, -10}, {10, 10}, {0, 15}, {-10, 10}};
    rc_vec2 open_chain[3] = {{-5, 0}, {0, -2}, {5, 0}};
    ck_assert(!rc_shape_id_is_null(rc_shape_create_chain(w, b, &sd, loop, 5, true)));
    rc_shape_id gone = rc_shape_create_chain(w, b, &sd, open_chain, 3, false);
    ck_assert(!rc_shape_id_is_null(gone));
    rc_world_counters with_both = rc_world_get_counters(w);
    rc_shape_destroy(w, gone);
    rc_world_counters with_one = rc_world_get_counters(w);
    /* the open chain's block: 3 points of 8 bytes and 3 segment indices of 4 */
    ck_assert_uint_eq(with_both.bytes - with_one.bytes, 3 * (sizeof(rc_vec2) + sizeof(int32_t)));
    ck_assert_msg((int64_t)with_one.bytes <= ca.live_bytes, "counters %zu, live %lld", with_one.bytes,
                  (long long)ca.live_bytes);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    rc_world_destroy(w);
    ck_assert_msg(ca.bad_frees == 0, "%lld bad frees: %s", (long long)ca.bad_frees, ca.first_bad);
    ck_assert_msg(ca.live_bytes == 0, "%lld bytes still live", (long long)ca.live_bytes);
    ck_assert_int_eq((int)ca.live_blocks, 0);
    ws_alloc_release(&ca);
}
END_TEST

/* Regression: destroying a 1,000,000-point chain left the world holding 510 MiB, and the
 * counters' bytes said 1.9 GiB while RSS was 804 MiB. The counters now give exactly what the
 * hook handed out and has not had back (the world's own record included), at every point; and
 * once a level and its crates are gone, the next step gives the memory back. */
/* A floor moved once under 2,000 resting crates: the step that follows keeps every contact it
 * looks at again (for a refusal to put back), 2,000 contacts' worth; the steps after it, which
 * keep none, give that back (before: held for good, half a megabyte). */
START_TEST(a_moved_floor_s_kept_contacts_are_given_back) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    rc_body_def bd = rc_body_default_def();
    rc_body_id floor = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, floor, &sd, 1100.0f, 0.5f)));
    bd.type = RC_DYNAMIC;
    for (int i = 0; i < 2000; ++i) {
        bd.position = rc_v2(-1000.0f + 1.0f * (float)i, 0.9f);
        ck_assert(!rc_shape_id_is_null(rc_shape_create_box(w, rc_body_create(w, &bd), &sd, 0.4f, 0.4f)));
    }
    for (int k = 0; k < 30; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    int64_t resting = ca.live_bytes;
    ck_assert(rc_body_set_transform(w, floor, rc_v2(0.0f, 0.01f), 0.0f));
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    int64_t moved = ca.live_bytes;
    for (int k = 0; k < 3; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
    }
    fprintf(stderr, "[memory] 2,000 crates at rest %lld bytes, the step after their floor moved %lld, then %lld\n",
            (long long)resting, (long long)moved, (long long)ca.live_bytes);
    ck_assert_msg(moved >= resting + 2000 * 256, "the step kept no contacts: %lld -> %lld", (long long)resting,
                  (long long)moved);
    ck_assert_msg(ca.live_bytes <= resting + 16 * 1024, "still held %lld bytes, %lld at rest", (long long)ca.live_bytes,
                  (long long)resting);
    ck_assert_int_eq((int64_t)rc_world_get_counters(w).bytes, ca.live_bytes);
    rc_world_destroy(w);
    ck_assert_int_eq(ca.live_bytes, 0);
    ws_alloc_release(&ca);
}
END_TEST

START_TEST(a_destroyed_level_gives_its_memory_back) {
    ws_counting_alloc ca;
    ws_alloc_init(&ca);
    rc_world_def wd = rc_world_default_def();
    wd.allocator = ws_allocator(&ca);
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq((int64_t)rc_world_get_counters(w).bytes, ca.live_bytes);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    int64_t empty = ca.live_bytes;
    /* a level: a 100,000-point chain and 2,000 crates falling on it */
    enum { POINTS = 100000, CRATES = 2000 };
    rc_vec2 *points = malloc(sizeof(rc_vec2) * POINTS);
    ck_assert_ptr_nonnull(points);
    for (int i = 0; i < POINTS; ++i) {
        points[i] = rc_v2(0.5f * (float)i, 0.05f * (float)(i % 7));
    }
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    rc_shape_id chain = rc_shape_create_chain(w, level, &sd, points, POINTS, false);
    ck_assert(!rc_shape_id_is_null(chain));
    free(points);
    static rc_body_id crates[CRATES];
    bd.type = RC_DYNAMIC;
    for (int i = 0; i < CRATES; ++i) {
        bd.position = rc_v2(1.0f + 3.0f * (float)i, 2.0f);
        crates[i] = rc_body_create(w, &bd);
        ck_assert(!rc_shape_id_is_null(i % 2 ? rc_shape_create_box(w, crates[i], &sd, 0.4f, 0.4f)
                                             : rc_shape_create_circle(w, crates[i], &sd, 0.4f)));
    }
    for (int k = 0; k < 30; ++k) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f));
        ck_assert_int_eq((int64_t)rc_world_get_counters(w).bytes, ca.live_bytes);
    }
    int64_t full = ca.live_bytes;
    ck_assert_msg(full > 20 * 1024 * 1024, "the level holds only %lld bytes", (long long)full);
    /* unload it: the chain, then the crates one by one */
    rc_shape_destroy(w, chain);
    rc_body_destroy(w, level);
    for (int i = 0; i < CRATES; ++i) {
        rc_body_destroy(w, crates[i]);
    }
    ck_assert_int_eq((int64_t)rc_world_get_counters(w).bytes, ca.live_bytes);
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert_int_eq((int64_t)rc_world_get_counters(w).bytes, ca.live_bytes);
    fprintf(stderr, "[memory] empty world %lld bytes, with the level %lld, after unloading it %lld\n",
            (long long)empty, (long long)full, (long long)ca.live_bytes);
    ck_assert_msg(ca.live_bytes <= empty + 64 * 1024, "after unloading the world still holds %lld bytes (empty: %lld)",
                  (long long)ca.live_bytes, (long long)empty);
    /* and it works as before: a new crate falls, old ids stay stale */
    ck_assert(!rc_body_is_valid(w, crates[CRATES - 1]));
    bd.position = rc_v2(0.0f, 10.0f);
    rc_body_id again = rc_body_create(w, &bd);
    ck_assert(!rc_shape_id_is_null(rc_shape_create_circle(w, again, &sd, 0.5f)));
    for (int i = 0; i < CRATES; ++i) {
        ck_assert(!rc_body_id_equals(crates[i], again));
    }
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    ck_assert(rc_body_position(w, again).y < 10.0f);
    rc_world_destroy(w);
    ck_assert_int_eq((int)ca.live_bytes, 0);
    ck_assert_msg(ca.bad_frees == 0, "%lld bad frees: %s", (long long)ca.bad_frees, ca.first_bad);
    ws_alloc_release(&ca);
}
END_TEST

/* ---- failure injection --------------------------------------------------------------------- */

typedef struct trace_point {
    ws_snapshot snap;
    uint64_t ids; /* a hash of the tracked id lists */
} trace_point;

typedef struct fn_count {
    char *key;
    int value;
} fn_count;

typedef struct mem_ctx {
    ws_counting_alloc ca;
    ws_errors errs;
    rc_world *w;
    rc_body_id *bodies; /* stb_ds: every body the scenario made (destroyed ones stay: invalid) */
    rc_shape_id *shapes;
    bool baseline;
    trace_point *trace; /* the baseline's checkpoints */
    int checkpoint;
    /* this op */
    int64_t op_failures, op_allocations;
    int op_calls;
    bool op_snap_taken;
    ws_snapshot op_before;
    /* results over all runs */
    int violations;
    int kinds;
    char first[12][600];    /* the first violation of each kind (same text after "fail_at N") */
    fn_count *failed_calls; /* function -> calls that failed cleanly */
    fn_count *absorbed;     /* function -> calls that succeeded although an allocation failed */
    int reordered;          /* checkpoints equal to the trace only with the events sorted */
    int64_t *op_alloc_end;  /* baseline: allocations made by the end of each op */
    int op_index;
    long impacts;           /* baseline: impact events over all steps */
} mem_ctx;

static const char *after_fail_at(const char *s) {
    const char *c = strchr(s, ',');
    return c != NULL ? c : s;
}

static void violation(mem_ctx *m, const char *fmt, ...) {
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    m->violations++;
    for (int i = 0; i < m->kinds; ++i) {
        if (strcmp(after_fail_at(m->first[i]), after_fail_at(text)) == 0) {
            return;
        }
    }
    if (m->kinds < 12) {
        snprintf(m->first[m->kinds++], sizeof m->first[0], "%s", text);
    }
}

static void count_fn(fn_count **map, const char *fname) {
    ptrdiff_t i = shgeti(*map, fname);
    if (i < 0) {
        shput(*map, fname, 1);
    } else {
        (*map)[i].value++;
    }
}

static uint64_t ids_hash(const mem_ctx *m) {
    uint64_t h = 1469598103934665603ull;
    for (ptrdiff_t i = 0; i < arrlen(m->bodies); ++i) {
        h = (h ^ ((uint64_t)m->bodies[i].index << 32 | m->bodies[i].generation)) * 1099511628211ull;
    }
    for (ptrdiff_t i = 0; i < arrlen(m->shapes); ++i) {
        h = (h ^ ((uint64_t)m->shapes[i].index << 32 | m->shapes[i].generation)) * 1099511628211ull;
    }
    return h;
}

static void take(const mem_ctx *m, ws_snapshot *s) {
    ws_snapshot_take(s, m->w, m->bodies, (int)arrlen(m->bodies), m->shapes, (int)arrlen(m->shapes));
}

static bool failure_pending(const mem_ctx *m) { return m->ca.fail_at > 0 && m->ca.failures == 0; }

static void op_begin(mem_ctx *m) {
    m->op_failures = m->ca.failures;
    m->op_allocations = m->ca.allocations;
    m->op_calls = m->errs.calls;
    rc_world_clear_error(m->w);
    /* until the failure the run is the baseline: snapshot only the op that will meet it */
    m->op_snap_taken =
        failure_pending(m) && m->op_index < arrlen(m->op_alloc_end) && m->ca.fail_at <= m->op_alloc_end[m->op_index];
    if (m->op_snap_taken) {
        take(m, &m->op_before);
    }
}

/* True when the op is done (succeeded, or failed in a way already reported). */
static bool op_end(mem_ctx *m, const char *fname, bool ok, const char *expr, int line, int attempt) {
    bool injected = m->ca.failures > m->op_failures;
    bool done = true;
    if (ok) {
        if (injected) {
            count_fn(&m->absorbed, fname);
        }
    } else if (!injected) {
        violation(m, "fail_at %lld, line %d: %s failed without an allocation failure (attempt %d): \"%s\"",
                  (long long)m->ca.fail_at, line, expr, attempt + 1, rc_world_last_error(m->w));
    } else {
        const char *msg = rc_world_last_error(m->w);
        if (strstr(msg, "out of memory") == NULL || strstr(msg, fname) == NULL) {
            violation(m, "fail_at %lld, line %d: %s: message \"%s\" (wants %s and \"out of memory\")",
                      (long long)m->ca.fail_at, line, expr, msg, fname);
        }
        if (m->errs.calls != m->op_calls + 1 || strcmp(m->errs.last, msg) != 0) {
            violation(m, "fail_at %lld, line %d: %s: error callback called %d times with \"%s\"",
                      (long long)m->ca.fail_at, line, expr, m->errs.calls - m->op_calls, m->errs.last);
        }
        if (m->op_snap_taken) {
            ws_snapshot after;
            take(m, &after);
            char why[600];
            if (!ws_snapshot_equal(&m->op_before, &after, why, sizeof why)) {
                violation(m, "fail_at %lld, line %d: %s failed for lack of memory and changed the world: %s",
                          (long long)m->ca.fail_at, line, expr, why);
            }
            ws_snapshot_free(&after);
        }
        count_fn(&m->failed_calls, fname);
        done = attempt > 0; /* retry once */
        if (attempt > 0) {
            violation(m, "fail_at %lld, line %d: %s failed again when retried", (long long)m->ca.fail_at, line, expr);
        }
    }
    if (m->op_snap_taken) {
        ws_snapshot_free(&m->op_before);
        m->op_snap_taken = false;
    }
    if (m->baseline) {
        arrput(m->op_alloc_end, m->ca.allocations);
    }
    m->op_index++;
    return done;
}

#define TRY(m, fname, expr)                                                                                            \
    do {                                                                                                               \
        for (int attempt_ = 0; attempt_ < 2; ++attempt_) {                                                             \
            op_begin(m);                                                                                               \
            bool ok_ = (expr);                                                                                         \
            if (op_end((m), (fname), ok_, #expr, __LINE__, attempt_)) {                                                \
                break;                                                                                                 \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

/* A call that cannot report failure (it returns nothing): it must complete, and the trace
 * comparison after the next step shows whether anything (an end event) was lost. */
#define VOID_OP(m, fname, stmt)                                                                                        \
    do {                                                                                                               \
        op_begin(m);                                                                                                   \
        stmt;                                                                                                          \
        op_end((m), (fname), true, #stmt, __LINE__, 0);                                                                \
    } while (0)

static void checkpoint(mem_ctx *m, const char *where) {
    if (m->baseline) {
        trace_point p;
        take(m, &p.snap);
        p.ids = ids_hash(m);
        arrput(m->trace, p);
        return;
    }
    EXPECT(m->checkpoint < arrlen(m->trace), "more checkpoints than the baseline");
    trace_point *p = &m->trace[m->checkpoint++];
    if (m->ca.failures == 0) {
        return; /* no allocation has failed yet: the same calls as the baseline's, the same world
                   (test_determinism holds the library to that) */
    }
    ws_snapshot now;
    take(m, &now);
    char why[600];
    if (p->ids != ids_hash(m)) {
        violation(m, "fail_at %lld, checkpoint %d (%s): the ids handed out differ from the run without failures",
                  (long long)m->ca.fail_at, m->checkpoint, where);
    } else if (!ws_snapshot_equal(&p->snap, &now, why, sizeof why)) {
        /* the order of events within a step is not part of the contract: compare them sorted */
        ws_snapshot a = p->snap, b = now;
        ws_snapshot sa, sb;
        memset(&sa, 0, sizeof sa);
        memset(&sb, 0, sizeof sb);
        for (ptrdiff_t i = 0; i < arrlen(a.contact_begin); ++i)
            arrput(sa.contact_begin, a.contact_begin[i]);
        for (ptrdiff_t i = 0; i < arrlen(a.contact_end); ++i)
            arrput(sa.contact_end, a.contact_end[i]);
        for (ptrdiff_t i = 0; i < arrlen(a.sensor_begin); ++i)
            arrput(sa.sensor_begin, a.sensor_begin[i]);
        for (ptrdiff_t i = 0; i < arrlen(a.sensor_end); ++i)
            arrput(sa.sensor_end, a.sensor_end[i]);
        for (ptrdiff_t i = 0; i < arrlen(b.contact_begin); ++i)
            arrput(sb.contact_begin, b.contact_begin[i]);
        for (ptrdiff_t i = 0; i < arrlen(b.contact_end); ++i)
            arrput(sb.contact_end, b.contact_end[i]);
        for (ptrdiff_t i = 0; i < arrlen(b.sensor_begin); ++i)
            arrput(sb.sensor_begin, b.sensor_begin[i]);
        for (ptrdiff_t i = 0; i < arrlen(b.sensor_end); ++i)
            arrput(sb.sensor_end, b.sensor_end[i]);
        ws_snapshot_sort_events(&sa);
        ws_snapshot_sort_events(&sb);
        /* the rest of the snapshot with the sorted lists */
        sa.bodies = a.bodies, sa.shapes = a.shapes, sa.counters = a.counters, sa.gravity = a.gravity;
        sb.bodies = b.bodies, sb.shapes = b.shapes, sb.counters = b.counters, sb.gravity = b.gravity;
        if (ws_snapshot_equal(&sa, &sb, why, sizeof why)) {
            m->reordered++;
        } else {
            violation(m, "fail_at %lld, checkpoint %d (%s): the world differs from the run without failures: %s",
                      (long long)m->ca.fail_at, m->checkpoint, where, why);
        }
        sa.bodies = NULL, sa.shapes = NULL, sb.bodies = NULL, sb.shapes = NULL;
        ws_snapshot_free(&sa);
        ws_snapshot_free(&sb);
    }
    ws_snapshot_free(&now);
}

/* In the baseline: the touching pairs equal brute force (the scenario really makes contacts). */
static int check_touching(mem_ctx *m) {
    int touching = 0;
    for (ptrdiff_t i = 0; i < arrlen(m->shapes); ++i) {
        rc_shape_id a = m->shapes[i];
        if (!rc_shape_is_valid(m->w, a) || rc_shape_get_type(m->w, a) == RC_SHAPE_TYPE_CHAIN) {
            continue; /* a chain lists its walls' contacts: each wall is checked itself */
        }
        rc_shape_id list[32];
        int32_t n = rc_shape_contacts(m->w, a, list, 32);
        EXPECT(n >= 0 && n <= 32, "rc_shape_contacts");
        for (ptrdiff_t k = 0; k < arrlen(m->shapes); ++k) {
            rc_shape_id b = m->shapes[k];
            if (k == i || !rc_shape_is_valid(m->w, b)) {
                continue;
            }
            ws_touch state = ws_touch_state(m->w, a, b, rc_world_default_def().contact_skin,
                                            rc_world_default_def().linear_slop);
            bool listed = false;
            for (int32_t j = 0; j < n; ++j) {
                listed |= rc_shape_id_equals(list[j], b);
            }
            bool want = state == WS_TOUCHING || (state == WS_EITHER && listed);
            EXPECT(want == listed, "baseline: pair {%u,%u} {%u,%u}: brute force %d, world %d", a.index, a.generation,
                   b.index, b.generation, want, listed);
            touching += want;
        }
    }
    return touching / 2;
}

static void step(mem_ctx *m, int n, long *touching_total) {
    TRY(m, "rc_world_step", rc_world_step(m->w, 1.0f / 20.0f));
    char where[32];
    snprintf(where, sizeof where, "after step %d", n);
    checkpoint(m, where);
    if (m->baseline) {
        *touching_total += check_touching(m);
        const rc_impact_event *events;
        m->impacts += rc_world_impact_events(m->w, &events);
    }
}

static rc_shape_id add_shape(mem_ctx *m, rc_body_id b, int kind, bool sensor, rc_vec2 offset) {
    rc_shape_def sd = rc_shape_default_def();
    sd.is_sensor = sensor;
    sd.offset = offset;
    rc_shape_id s = RC_NULL_SHAPE_ID;
    if (kind == 0) {
        TRY(m, "rc_shape_create_circle", (s = rc_shape_create_circle(m->w, b, &sd, 0.6f), !rc_shape_id_is_null(s)));
    } else if (kind == 1) {
        TRY(m, "rc_shape_create_box", (s = rc_shape_create_box(m->w, b, &sd, 0.5f, 0.7f), !rc_shape_id_is_null(s)));
    } else {
        rc_polygon p = rc_make_regular_polygon(5, 0.7f, 0.3f);
        TRY(m, "rc_shape_create_polygon",
            (s = rc_shape_create_polygon(m->w, b, &sd, p.vertices, p.count), !rc_shape_id_is_null(s)));
    }
    if (!rc_shape_id_is_null(s)) {
        arrput(m->shapes, s);
    }
    return s;
}

static rc_body_id add_body(mem_ctx *m, rc_body_type type, rc_vec2 p, rc_vec2 v) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.linear_velocity = v;
    rc_body_id b = RC_NULL_BODY_ID;
    TRY(m, "rc_body_create", (b = rc_body_create(m->w, &bd), !rc_body_id_is_null(b)));
    if (!rc_body_id_is_null(b)) {
        arrput(m->bodies, b);
    }
    return b;
}

/* A chain, with its walls tracked too. */
static rc_shape_id add_chain(mem_ctx *m, rc_body_id b, const rc_vec2 *points, int count, bool loop, bool one_sided) {
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.5f;
    sd.one_sided = one_sided;
    rc_shape_id c = RC_NULL_SHAPE_ID;
    TRY(m, "rc_shape_create_chain",
        (c = rc_shape_create_chain(m->w, b, &sd, points, count, loop), !rc_shape_id_is_null(c)));
    if (!rc_shape_id_is_null(c)) {
        arrput(m->shapes, c);
        rc_shape_id walls[16];
        int32_t n = rc_shape_chain_segments(m->w, c, walls, 16);
        for (int32_t k = 0; k < n && k < 16; ++k) {
            arrput(m->shapes, walls[k]);
        }
    }
    return c;
}

static float count_hit(const rc_ray_hit *hit, void *context) {
    (void)hit;
    ++*(int *)context;
    return 1.0f;
}

/* The first tracked shape (from index start) that touches something and wants events. */
static rc_shape_id touching_shape(mem_ctx *m, ptrdiff_t start) {
    for (ptrdiff_t i = start; i < arrlen(m->shapes); ++i) {
        rc_shape_id s = m->shapes[i];
        if (rc_shape_is_valid(m->w, s) && !rc_shape_is_sensor(m->w, s) && rc_shape_contacts(m->w, s, NULL, 0) > 0) {
            return s;
        }
    }
    return RC_NULL_SHAPE_ID;
}

static void scenario(mem_ctx *m, long *touching_total, int *end_events_after_destroy) {
    /* the world */
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    wd.body_capacity = 16; /* storage sized up front, then grown */
    wd.shape_capacity = 32;
    /* the ids of runs with and without failures are compared: one salt for every world (by
       default it comes from the world's address, which differs from run to run) */
    wd.id_salt = 0x5eed1234u;
    wd.allocator = ws_allocator(&m->ca);
    wd.error_fn = ws_error_fn;
    wd.error_user = &m->errs;
    for (int attempt = 0; attempt < 2; ++attempt) {
        int64_t f0 = m->ca.failures;
        m->w = rc_world_create(&wd);
        if (m->w != NULL) {
            break;
        }
        if (m->ca.failures == f0) {
            violation(m, "fail_at %lld: rc_world_create returned NULL without an allocation failure",
                      (long long)m->ca.fail_at);
        }
        if (m->ca.live_bytes != 0) {
            violation(m, "fail_at %lld: rc_world_create failed and leaked %lld bytes", (long long)m->ca.fail_at,
                      (long long)m->ca.live_bytes);
        }
        count_fn(&m->failed_calls, "rc_world_create");
    }
    EXPECT(m->w != NULL, "no world");
    /* 64 bodies on an 8 x 8 grid, moving towards the middle and each other */
    ws_rng g = {0xA110C};
    for (int i = 0; i < 64; ++i) {
        rc_body_type type = i % 6 == 0 ? RC_STATIC : (i % 9 == 4 ? RC_KINEMATIC : RC_DYNAMIC);
        rc_vec2 p = rc_v2(-8.75f + 2.5f * (float)(i % 8), -8.75f + 2.5f * (float)(i / 8));
        rc_vec2 v =
            type == RC_STATIC ? rc_v2(0, 0) : rc_v2(ws_range(&g, -3, 3) - 0.3f * p.x, ws_range(&g, -3, 3) - 0.3f * p.y);
        if (i % 13 == 7) {
            v = rc_v2(0, 0); /* some rest: they fall asleep */
        }
        rc_body_id b = add_body(m, type, p, v);
        add_shape(m, b, i % 3, i % 7 == 3, rc_v2(0, 0));
        if (i % 5 == 1) {
            add_shape(m, b, (i + 1) % 3, false, rc_v2(0.4f, 0.2f));
        }
    }
    for (int n = 1; n <= 10; ++n) {
        step(m, n, touching_total);
    }
    /* changes that move proxies to new cells, grow arrays and end contacts */
    TRY(m, "rc_body_set_transform", rc_body_set_transform(m->w, m->bodies[3], rc_v2(1000.0f, -1000.0f), 0.5f));
    TRY(m, "rc_body_set_transform", rc_body_set_transform(m->w, m->bodies[10], rc_v2(0.0f, 0.0f), 1.0f));
    TRY(m, "rc_body_set_transform", rc_body_set_transform(m->w, m->bodies[0], rc_v2(-3.0f, 40.0f), 0.0f));
    TRY(m, "rc_shape_set_base_transform",
        rc_shape_set_base_transform(m->w, m->shapes[5], rc_v2(0.5f, 0.0f), 0.3f, rc_v2(6.0f, 6.0f)));
    TRY(m, "rc_shape_set_base_transform",
        rc_shape_set_base_transform(m->w, m->shapes[6], rc_v2(0.0f, 0.0f), 0.0f, rc_v2(-40.0f, 2.0f)));
    TRY(m, "rc_shape_set_filter", rc_shape_set_filter(m->w, m->shapes[8], (rc_filter){2u, 2u, 0}));
    /* scattered teleports: each lands in cells nobody uses yet */
    for (int i = 0; i < 24; ++i) {
        rc_body_id b = m->bodies[20 + i];
        rc_vec2 p = rc_v2(ws_range(&g, -3000, 3000), ws_range(&g, -3000, 3000));
        TRY(m, "rc_body_set_transform", rc_body_set_transform(m->w, b, p, 0.25f * (float)i));
    }
    for (int i = 0; i < 4; ++i) {
        TRY(m, "rc_shape_set_base_transform",
            rc_shape_set_base_transform(m->w, m->shapes[30 + i], rc_v2(0, 0), 0.0f,
                                        rc_v2(20.0f + 30.0f * (float)i, 20.0f + 30.0f * (float)i)));
    }
    for (int n = 100; n <= 103; ++n) {
        step(m, n, touching_total);
    }
    for (int i = 0; i < 40; ++i) {
        rc_body_id b = add_body(m, RC_DYNAMIC, rc_v2(-8.0f + 1.3f * (float)i, 3.0f), rc_v2(0.0f, -2.0f));
        add_shape(m, b, i % 3, i == 4, rc_v2(0, 0));
    }
    /* destroy touching shapes and a touching body between steps: end events in the next step */
    rc_shape_id victim = touching_shape(m, 0);
    EXPECT(!rc_shape_id_is_null(victim), "nothing touches");
    int32_t partners = rc_shape_contacts(m->w, victim, NULL, 0);
    VOID_OP(m, "rc_shape_destroy", rc_shape_destroy(m->w, victim));
    rc_shape_id victim2 = touching_shape(m, 10);
    if (!rc_shape_id_is_null(victim2)) {
        partners += rc_shape_contacts(m->w, victim2, NULL, 0);
        VOID_OP(m, "rc_shape_destroy", rc_shape_destroy(m->w, victim2));
    }
    rc_shape_id victim3 = touching_shape(m, 20);
    if (!rc_shape_id_is_null(victim3)) {
        rc_body_id vb = rc_shape_body(m->w, victim3);
        rc_shape_id ids[4];
        int32_t n = rc_body_shapes(m->w, vb, ids, 4);
        for (int32_t k = 0; k < n; ++k) {
            partners += rc_shape_contacts(m->w, ids[k], NULL, 0);
        }
        VOID_OP(m, "rc_body_destroy", rc_body_destroy(m->w, vb));
    }
    (void)partners;
    step(m, 11, touching_total);
    *end_events_after_destroy = rc_world_contact_events(m->w).end_count + rc_world_sensor_events(m->w).end_count;
    for (int n = 12; n <= 20; ++n) {
        step(m, n, touching_total);
    }
    /* projectiles: gravity, a floor, grenades that bounce, settle and pile, bullets (points and
       circles) that ricochet off the floor and strike dynamic boxes: sweeps, the contact
       solver, impact events and bodies woken by impacts, all under failing allocations */
    TRY(m, "rc_world_set_gravity", rc_world_set_gravity(m->w, rc_v2(0.0f, -10.0f)));
    rc_body_id floor_body = add_body(m, RC_STATIC, rc_v2(100.0f, -30.0f), rc_v2(0, 0));
    {
        rc_shape_def sd = rc_shape_default_def();
        sd.restitution = 0.4f;
        rc_shape_id f = RC_NULL_SHAPE_ID;
        TRY(m, "rc_shape_create_box", (f = rc_shape_create_box(m->w, floor_body, &sd, 20.0f, 0.5f), !rc_shape_id_is_null(f)));
        if (!rc_shape_id_is_null(f)) {
            arrput(m->shapes, f);
        }
    }
    /* a sector around it: a concave loop whose walls the grenades and bullets meet */
    rc_shape_id sector = RC_NULL_SHAPE_ID;
    {
        /* its floor just under the box's top, which holds what rests */
        rc_vec2 outline[7] = {{78, -29.6f}, {122, -29.6f}, {122, -10}, {104, -10}, {104, -20}, {96, -20}, {78, -10}};
        rc_shape_def sd = rc_shape_default_def();
        sd.restitution = 0.6f;
        TRY(m, "rc_shape_create_chain",
            (sector = rc_shape_create_chain(m->w, floor_body, &sd, outline, 7, true), !rc_shape_id_is_null(sector)));
        if (!rc_shape_id_is_null(sector)) {
            arrput(m->shapes, sector);
            rc_shape_id walls[7];
            int32_t n = rc_shape_chain_segments(m->w, sector, walls, 7);
            for (int32_t k = 0; k < n; ++k) {
                arrput(m->shapes, walls[k]);
            }
        }
    }
    for (int i = 0; i < 6; ++i) {
        rc_body_id b = add_body(m, RC_DYNAMIC, rc_v2(95.0f + 0.7f * (float)i, -28.0f + 0.9f * (float)i), rc_v2(1.0f, 0.0f));
        add_shape(m, b, 0, false, rc_v2(0, 0)); /* a grenade */
    }
    rc_body_id target = add_body(m, RC_DYNAMIC, rc_v2(110.0f, -28.8f), rc_v2(0, 0));
    add_shape(m, target, 1, false, rc_v2(0, 0));
    TRY(m, "rc_body_set_gravity_scale", rc_body_set_gravity_scale(m->w, target, 0.0f));
    TRY(m, "rc_body_set_awake", rc_body_set_awake(m->w, target, false));
    for (int i = 0; i < 4; ++i) {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.bullet = true;
        bd.max_bounces = i;
        bd.position = rc_v2(92.0f + 2.0f * (float)i, -25.0f);
        bd.linear_velocity = rc_v2(300.0f, -200.0f + 40.0f * (float)i);
        rc_body_id b = RC_NULL_BODY_ID;
        TRY(m, "rc_body_create", (b = rc_body_create(m->w, &bd), !rc_body_id_is_null(b)));
        if (!rc_body_id_is_null(b)) {
            arrput(m->bodies, b);
            if (i % 2 == 1) {
                add_shape(m, b, 0, false, rc_v2(0, 0));
            }
        }
    }
    for (int n = 21; n <= 40; ++n) {
        step(m, n, touching_total);
    }
    /* the sector goes with its walls; what rested on them falls */
    VOID_OP(m, "rc_shape_destroy", rc_shape_destroy(m->w, sector));
    for (int n = 41; n <= 44; ++n) {
        step(m, n, touching_total);
    }
    /* a moving room: a kinematic body carrying a looped chain (a sector with a notch) and an
       open ledge (both two-sided: the brute-force touching check knows nothing of one-sided
       walls, with which the world pairs only what is on their free side), with a grenade, a floating crate and a bullet inside; every step moves
       the proxies of its walls */
    rc_body_id room = add_body(m, RC_KINEMATIC, rc_v2(140.0f, -20.0f), rc_v2(0.5f, 0.0f));
    EXPECT(!rc_body_id_is_null(room), "no room");
    rc_vec2 room_outline[7] = {{-8, -6}, {8, -6}, {8, 6}, {1, 6}, {0, 2}, {-1, 6}, {-8, 6}};
    rc_vec2 ledge_points[3] = {{-6, -2}, {-3, -3}, {0, -2.5f}};
    rc_shape_id room_loop = add_chain(m, room, room_outline, 7, true, false);
    rc_shape_id ledge = add_chain(m, room, ledge_points, 3, false, false);
    rc_body_id grenade = add_body(m, RC_DYNAMIC, rc_v2(136.0f, -19.0f), rc_v2(3.0f, 2.0f));
    add_shape(m, grenade, 0, false, rc_v2(0, 0));
    rc_body_id crate = add_body(m, RC_DYNAMIC, rc_v2(144.0f, -23.0f), rc_v2(-0.5f, 0.0f));
    rc_shape_id crate_shape = add_shape(m, crate, 1, false, rc_v2(0, 0));
    TRY(m, "rc_body_set_gravity_scale", rc_body_set_gravity_scale(m->w, crate, 0.0f));
    rc_body_id bullet = RC_NULL_BODY_ID;
    {
        rc_body_def bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.bullet = true;
        bd.max_bounces = 3;
        bd.position = rc_v2(140.0f, -20.0f);
        bd.linear_velocity = rc_v2(40.0f, -25.0f);
        TRY(m, "rc_body_create", (bullet = rc_body_create(m->w, &bd), !rc_body_id_is_null(bullet)));
        if (!rc_body_id_is_null(bullet)) {
            arrput(m->bodies, bullet);
        }
    }
    for (int n = 45; n <= 52; ++n) {
        step(m, n, touching_total);
    }
    /* setters that change how bodies are swept, paired and placed */
    TRY(m, "rc_body_set_type", rc_body_set_type(m->w, crate, RC_KINEMATIC));
    TRY(m, "rc_body_set_type", rc_body_set_type(m->w, crate, RC_DYNAMIC));
    TRY(m, "rc_body_set_bullet", rc_body_set_bullet(m->w, grenade, true));
    step(m, 53, touching_total);
    TRY(m, "rc_body_set_bullet", rc_body_set_bullet(m->w, grenade, false));
    TRY(m, "rc_body_set_enable_response", rc_body_set_enable_response(m->w, grenade, false));
    step(m, 54, touching_total);
    TRY(m, "rc_body_set_enable_response", rc_body_set_enable_response(m->w, grenade, true));
    TRY(m, "rc_body_apply_linear_impulse",
        rc_body_apply_linear_impulse(m->w, crate, rc_v2(2.0f, 1.0f), rc_body_world_center(m->w, crate)));
    TRY(m, "rc_shape_set_restitution", rc_shape_set_restitution(m->w, room_loop, 0.9f));
    {
        rc_shape_id first_wall;
        EXPECT(rc_shape_chain_segments(m->w, ledge, &first_wall, 1) == 2, "the ledge's walls");
        TRY(m, "rc_shape_set_friction", rc_shape_set_friction(m->w, first_wall, 0.1f));
    }
    TRY(m, "rc_shape_set_density", rc_shape_set_density(m->w, crate_shape, 3.0f));
    TRY(m, "rc_body_set_linear_velocity", rc_body_set_linear_velocity(m->w, room, rc_v2(-0.5f, 0.2f)));
    TRY(m, "rc_body_set_transform", rc_body_set_transform(m->w, room, rc_v2(142.0f, -19.5f), 0.1f));
    for (int n = 55; n <= 60; ++n) {
        step(m, n, touching_total);
    }
    TRY(m, "rc_body_set_type", rc_body_set_type(m->w, room, RC_STATIC));
    VOID_OP(m, "rc_body_destroy", rc_body_destroy(m->w, bullet));
    VOID_OP(m, "rc_shape_destroy", rc_shape_destroy(m->w, ledge));
    for (int n = 61; n <= 64; ++n) {
        step(m, n, touching_total);
    }
    /* queries allocate nothing and see the world */
    int64_t before = m->ca.allocations;
    rc_query_filter all = rc_default_query_filter();
    rc_ray_hit h;
    /* through static body 6 (never moved), whatever the moving ones did */
    rc_vec2 aim = rc_add(rc_body_position(m->w, m->bodies[6]), rc_v2(-20.0f, 0.1f));
    bool hit = rc_world_cast_ray(m->w, aim, rc_v2(40.0f, 0.0f), &h);
    rc_world_cast_circle(m->w, aim, 0.5f, rc_v2(40.0f, 0.0f), &h);
    int32_t in_box = rc_world_overlap_aabb(m->w, (rc_aabb){{-50, -50}, {50, 50}}, all, NULL, NULL);
    rc_world_overlap_point(m->w, rc_v2(0, 0), all, NULL, NULL);
    rc_world_overlap_circle(m->w, rc_v2(0, 0), 5.0f, all, NULL, NULL);
    /* and every other kind of question: filtered and all-hits casts, shape queries, chains,
       sectors, contacts, the mover, a trajectory preview, the event lists */
    rc_vec2 in_room = rc_body_position(m->w, room);
    int all_hits = 0;
    rc_world_cast_ray_filtered(m->w, rc_v2(-20.0f, 0.1f), rc_v2(40.0f, 0.0f), all, &h);
    rc_world_cast_circle_filtered(m->w, rc_v2(-20.0f, 0.1f), 0.5f, rc_v2(40.0f, 0.0f), all, &h);
    rc_world_cast_ray_all(m->w, rc_add(in_room, rc_v2(-20.0f, 0.5f)), rc_v2(40.0f, 0.0f), all, count_hit, &all_hits);
    rc_world_cast_circle_all(m->w, rc_add(in_room, rc_v2(-20.0f, 0.5f)), 0.3f, rc_v2(40.0f, 0.0f), all, count_hit,
                             &all_hits);
    rc_shape_id sectors[4];
    int32_t in_sectors = rc_world_sectors_at(m->w, in_room, sectors, 4);
    rc_shape_cast_ray(m->w, crate_shape, rc_add(in_room, rc_v2(-7.0f, 0.0f)), rc_v2(14.0f, 0.0f), &h);
    rc_shape_test_point(m->w, room_loop, in_room);
    rc_vec2 outline_now[8];
    rc_shape_id walls_now[8];
    rc_shape_chain_points(m->w, room_loop, outline_now, 8);
    rc_shape_chain_segments(m->w, room_loop, walls_now, 8);
    rc_shape_contacts(m->w, crate_shape, walls_now, 8);
    rc_body_shapes(m->w, crate, walls_now, 8);
    rc_mover_def md = rc_mover_default_def();
    md.position = rc_add(in_room, rc_v2(5.0f, -3.0f));
    md.radius = 0.5f;
    md.delta = rc_v2(6.0f, -4.0f);
    rc_mover_result mr;
    bool moved = rc_world_move_circle_ex(m->w, &md, &mr);
    rc_world_move_circle(m->w, md.position, 0.5f, rc_v2(-3.0f, 9.0f));
    rc_prediction_def pd = rc_prediction_default_def();
    pd.position = rc_add(in_room, rc_v2(-4.0f, 2.0f));
    pd.velocity = rc_v2(12.0f, -6.0f);
    pd.radius = 0.3f;
    pd.restitution = 0.6f;
    pd.steps = 90;
    rc_vec2 path[90];
    rc_predicted_bounce bounces[8];
    int32_t predicted = rc_world_predict(m->w, &pd, path, bounces, 8);
    const rc_impact_event *impacts;
    rc_world_impact_events(m->w, &impacts);
    rc_world_contact_events(m->w);
    rc_world_sensor_events(m->w);
    rc_world_get_counters(m->w);
    if (m->ca.allocations != before) {
        violation(m, "fail_at %lld: queries allocated", (long long)m->ca.fail_at);
    }
    if (m->baseline) {
        EXPECT(hit && in_box > 20, "the scenario's queries see nothing (hit %d, %d in the box)", (int)hit, (int)in_box);
        EXPECT(all_hits >= 4 && in_sectors == 1, "the room's queries: %d hits, in %d sectors", all_hits, (int)in_sectors);
        EXPECT(moved && mr.touch_count > 0, "the mover touched nothing");
        EXPECT(predicted > 0, "the prediction bounced %d times", (int)predicted);
    }
    /* the room goes with its chain; its contacts end in the next step */
    VOID_OP(m, "rc_body_destroy", rc_body_destroy(m->w, room));
    step(m, 65, touching_total);
    rc_world_destroy(m->w);
    m->w = NULL;
}

static void ctx_free_run(mem_ctx *m) {
    arrfree(m->bodies);
    arrfree(m->shapes);
    m->checkpoint = 0;
    m->op_index = 0;
    ws_alloc_release(&m->ca);
}

START_TEST(allocation_failure_at_every_point) {
    mem_ctx m;
    memset(&m, 0, sizeof m);
    /* the run without failures: the trace */
    ws_alloc_init(&m.ca);
    m.baseline = true;
    long touching = 0;
    int base_ends = 0;
    scenario(&m, &touching, &base_ends);
    ck_assert_msg(m.violations == 0, "the run without failures: %s", m.first[0]);
    ck_assert_msg(m.ca.live_bytes == 0 && m.ca.bad_frees == 0, "baseline: %lld live bytes, %lld bad frees (%s)",
                  (long long)m.ca.live_bytes, (long long)m.ca.bad_frees, m.ca.first_bad);
    int64_t points = m.ca.allocations;
    ck_assert(touching > 20 && base_ends > 0);
    ck_assert_msg(m.impacts >= 10, "the scenario's projectiles struck %ld times", m.impacts);
    fprintf(stderr, "[memory] the scenario's projectiles struck %ld times\n", m.impacts);
    ctx_free_run(&m);
    m.baseline = false;
    /* fail the 1st, 2nd, ... allocation until a run sees none */
    int runs = 0;
    int lost_end_runs = 0;
    for (int64_t k = 1;; ++k) {
        ws_alloc_init(&m.ca);
        m.ca.fail_at = k;
        m.errs.calls = 0;
        int ends = 0;
        long t = 0;
        scenario(&m, &t, &ends);
        runs++;
        if (ends != base_ends) {
            lost_end_runs++;
        }
        if (m.ca.live_bytes != 0) {
            violation(&m, "fail_at %lld: %lld bytes leaked", (long long)k, (long long)m.ca.live_bytes);
        }
        if (m.ca.bad_frees != 0) {
            violation(&m, "fail_at %lld: %s", (long long)k, m.ca.first_bad);
        }
        bool failed = m.ca.failures > 0;
        ctx_free_run(&m);
        if (!failed) {
            break;
        }
        EXPECT(k < 100000, "runaway");
    }
    fprintf(stderr, "[memory] %lld allocation points in the scenario; %d runs with a failing allocation\n",
            (long long)points, runs - 1);
    fprintf(stderr, "[memory] calls refused for lack of memory (and then retried):");
    for (ptrdiff_t i = 0; i < shlen(m.failed_calls); ++i) {
        fprintf(stderr, " %s x%d", m.failed_calls[i].key, m.failed_calls[i].value);
    }
    fprintf(stderr, "\n[memory] calls that succeeded although an allocation failed:");
    for (ptrdiff_t i = 0; i < shlen(m.absorbed); ++i) {
        fprintf(stderr, " %s x%d", m.absorbed[i].key, m.absorbed[i].value);
    }
    fprintf(stderr, "\n[memory] runs whose step after the destructions reported a different number of end events: %d\n",
            lost_end_runs);
    fprintf(stderr,
            "[memory] checkpoints equal to the trace only with each step's events sorted (order differs after a "
            "retried step): %d\n",
            m.reordered);
    for (int i = 0; i < m.kinds; ++i) {
        fprintf(stderr, "[memory] violation (first of its kind): %s\n", m.first[i]);
    }
    for (ptrdiff_t i = 0; i < arrlen(m.trace); ++i) {
        ws_snapshot_free(&m.trace[i].snap);
    }
    arrfree(m.trace);
    arrfree(m.op_alloc_end);
    int violations = m.violations;
    char first[600];
    snprintf(first, sizeof first, "%s", m.first[0]);
    shfree(m.failed_calls);
    shfree(m.absorbed);
    ck_assert_msg(violations == 0, "%d violations over %d runs (%d kinds, listed on stderr); the first: %s", violations,
                  runs, m.kinds, first);
}
END_TEST

static Suite *memory_suite(void) {
    Suite *s = suite_create("world_memory");
    TCase *t = tcase_create("memory");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, all_memory_goes_through_the_hook);
    tcase_add_test(t, queries_and_refused_calls_allocate_nothing);
    tcase_add_test(t, the_library_allocates_only_through_the_hook);
    tcase_add_test(t, a_settled_crowd_steps_with_next_to_no_allocation);
    tcase_add_test(t, default_arrays_grow_and_shrink_in_place_with_their_contents);
    tcase_add_test(t, chains_left_to_world_destroy_are_freed_with_their_size);
    tcase_add_test(t, a_destroyed_level_gives_its_memory_back);
    tcase_add_test(t, a_moved_floor_s_kept_contacts_are_given_back);
    tcase_add_test(t, allocation_failure_at_every_point);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(memory_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
