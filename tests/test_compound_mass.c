/* The mass of a body of many shapes: what its shapes add up to (worked out here in double from
 * the boxes' and circles' formulas), however far its shapes lie from its origin, after shapes
 * come and go, and the same bits whichever way a body came to have the same shapes (built
 * directly, built and pruned, restored from a snapshot and added to). The body sums its shapes
 * as they are added (world/body.c), so that a compound of n shapes is built in O(n). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ricochet/ricochet.h>

#include "support/world_support.h"

#define EXPECT WS_EXPECT

static const double PI = 3.14159265358979323846;

static rc_world *make_world(void) {
    rc_world_def wd = rc_world_default_def();
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

static rc_body_id make_dynamic(rc_world *w) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert_msg(!rc_body_id_is_null(b), "rc_body_create: %s", rc_world_last_error(w));
    return b;
}

/* One shape of a test compound: a box (radius 0) or a circle, where it lies, its density. */
typedef struct part {
    float half_width, half_height, radius;
    rc_vec2 offset;
    float angle, density;
} part;

/* Part k of a compound spread over +-50 around `around`: boxes and circles of varied sizes and
 * densities, boxes turned. */
static part part_of(int k, rc_vec2 around) {
    part p;
    memset(&p, 0, sizeof p);
    float a = (float)((k * 37) % 101) / 101.0f, b = (float)((k * 53) % 97) / 97.0f;
    p.offset = rc_v2(around.x - 50.0f + 100.0f * a, around.y - 50.0f + 100.0f * b);
    p.density = 0.5f + (float)(k % 7) * 0.75f;
    if (k % 3 == 2) {
        p.radius = 0.2f + 0.1f * (float)(k % 5);
    } else {
        p.half_width = 0.25f + 0.125f * (float)(k % 4);
        p.half_height = 0.25f + 0.0625f * (float)(k % 6);
        p.angle = 0.1f * (float)(k % 13);
    }
    return p;
}

static rc_shape_id add_part(rc_world *w, rc_body_id b, part p) {
    rc_shape_def sd = rc_shape_default_def();
    sd.density = p.density;
    sd.offset = p.offset;
    sd.angle = p.angle;
    rc_shape_id s = p.radius > 0.0f ? rc_shape_create_circle(w, b, &sd, p.radius)
                                    : rc_shape_create_box(w, b, &sd, p.half_width, p.half_height);
    ck_assert_msg(!rc_shape_id_is_null(s), "shape: %s", rc_world_last_error(w));
    return s;
}

/* What parts weigh, in double: mass, centre, and inertia about the centre (each part's about
 * its own centre, moved by the parallel axis theorem to the compound's centre). */
static rc_mass_data expected_mass(const part *parts, const bool *kept, int n) {
    double m = 0.0, mx = 0.0, my = 0.0;
    for (int k = 0; k < n; ++k) {
        if (!kept[k]) {
            continue;
        }
        const part *p = &parts[k];
        double pm = p->radius > 0.0f ? p->density * PI * (double)p->radius * p->radius
                                     : p->density * 4.0 * (double)p->half_width * p->half_height;
        m += pm;
        mx += pm * p->offset.x;
        my += pm * p->offset.y;
    }
    double cx = mx / m, cy = my / m, inertia = 0.0;
    for (int k = 0; k < n; ++k) {
        if (!kept[k]) {
            continue;
        }
        const part *p = &parts[k];
        double r = p->radius, hw = p->half_width, hh = p->half_height, pm, own;
        if (r > 0.0) {
            pm = p->density * PI * r * r;
            own = 0.5 * pm * r * r;
        } else {
            pm = p->density * 4.0 * hw * hh;
            own = pm * (hw * hw + hh * hh) / 3.0;
        }
        double dx = p->offset.x - cx, dy = p->offset.y - cy;
        inertia += own + pm * (dx * dx + dy * dy);
    }
    rc_mass_data md;
    memset(&md, 0, sizeof md);
    md.mass = (float)m;
    md.center = rc_v2((float)cx, (float)cy);
    md.rotational_inertia = (float)inertia;
    return md;
}

/* Within `tolerance` (relative; the centre: of how far the shapes reach). */
static void expect_mass_near(rc_mass_data got, rc_mass_data want, double spread, double tolerance, const char *what) {
    EXPECT(fabs((double)got.mass - want.mass) <= tolerance * want.mass, "%s: mass %.9g, expected %.9g", what,
           (double)got.mass, (double)want.mass);
    double dc = hypot((double)got.center.x - want.center.x, (double)got.center.y - want.center.y);
    EXPECT(dc <= tolerance * spread, "%s: centre (%.9g, %.9g), expected (%.9g, %.9g)", what, (double)got.center.x,
           (double)got.center.y, (double)want.center.x, (double)want.center.y);
    EXPECT(fabs((double)got.rotational_inertia - want.rotational_inertia) <= tolerance * want.rotational_inertia,
           "%s: inertia %.9g, expected %.9g", what, (double)got.rotational_inertia,
           (double)want.rotational_inertia);
}

static bool same_bits(rc_mass_data a, rc_mass_data b) {
    return memcmp(&a.mass, &b.mass, sizeof a.mass) == 0 && memcmp(&a.center, &b.center, sizeof a.center) == 0 &&
           memcmp(&a.rotational_inertia, &b.rotational_inertia, sizeof a.rotational_inertia) == 0;
}

/* A box far from its body's origin turns as a box does: its inertia about its centre is its
 * own. (Boxes along the axes, whose corners the body frame holds exactly there: a turned box's
 * corners are rounded to the floats near its offset, and its area with them.) (Summed in float about the origin and moved back, a unit box 2,862 from the origin had
 * none at all: 1.6e6 less 1.6e6; at 715 it was 6% light.) */
START_TEST(a_shape_far_from_its_body_origin_keeps_its_inertia) {
    rc_world *w = make_world();
    for (float reach = 10.0f; reach <= 20000.0f; reach *= 2.0f) {
        for (int kind = 0; kind < 3; ++kind) {
            rc_body_id b = make_dynamic(w);
            part p;
            memset(&p, 0, sizeof p);
            p.offset = rc_v2(reach, -0.5f * reach);
            p.density = 2.0f;
            if (kind == 0) {
                p.half_width = p.half_height = 0.5f;
            } else if (kind == 1) {
                p.half_width = 1.5f;
                p.half_height = 0.25f;
            } else {
                p.radius = 0.5f;
            }
            add_part(w, b, p);
            bool kept = true;
            char what[64];
            snprintf(what, sizeof what, "kind %d at %g", kind, (double)reach);
            expect_mass_near(rc_body_mass_data(w, b), expected_mass(&p, &kept, 1), reach, 1e-6, what);
        }
    }
    rc_world_destroy(w);
}
END_TEST

enum { PARTS = 600 };

/* 600 shapes 300 from the origin weigh what they add up to (within 2e-5: the turned boxes'
 * corners are rounded to floats near 300, 3e-5 apart), and still do after every third is
 * destroyed and some densities change; a body built from the remaining shapes alone, in the
 * same order, has the same bits. */
START_TEST(a_compound_weighs_what_its_shapes_add_up_to) {
    static part parts[PARTS];
    static bool kept[PARTS];
    static rc_shape_id ids[PARTS];
    rc_vec2 around = {300.0f, -200.0f};
    rc_world *w = make_world();
    rc_body_id b = make_dynamic(w);
    for (int k = 0; k < PARTS; ++k) {
        parts[k] = part_of(k, around);
        kept[k] = true;
        ids[k] = add_part(w, b, parts[k]);
    }
    expect_mass_near(rc_body_mass_data(w, b), expected_mass(parts, kept, PARTS), 400.0, 2e-5, "built");
    for (int k = 0; k < PARTS; k += 3) {
        rc_shape_destroy(w, ids[k]);
        kept[k] = false;
    }
    expect_mass_near(rc_body_mass_data(w, b), expected_mass(parts, kept, PARTS), 400.0, 2e-5, "pruned");
    for (int k = 1; k < PARTS; k += 10) {
        if (!kept[k]) {
            continue;
        }
        parts[k].density *= 3.0f;
        ck_assert_msg(rc_shape_set_density(w, ids[k], parts[k].density), "density: %s", rc_world_last_error(w));
    }
    expect_mass_near(rc_body_mass_data(w, b), expected_mass(parts, kept, PARTS), 400.0, 2e-5, "denser");
    /* the same shapes, made in the same order on a body of their own */
    rc_body_id twin = make_dynamic(w);
    for (int k = 0; k < PARTS; ++k) {
        if (kept[k]) {
            add_part(w, twin, parts[k]);
        }
    }
    EXPECT(same_bits(rc_body_mass_data(w, b), rc_body_mass_data(w, twin)), "the pruned body and its twin differ");
    /* destroying the body takes its shapes with it */
    rc_body_destroy(w, b);
    ck_assert(!rc_shape_is_valid(w, ids[1]));
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    rc_world_destroy(w);
}
END_TEST

/* A world restored from a snapshot adds shapes to a compound with the same bits as the world it
 * was taken from, and both then move alike. */
START_TEST(a_restored_compound_grows_as_the_original_does) {
    rc_vec2 around = {-120.0f, 40.0f};
    rc_world *w = make_world();
    rc_body_id b = make_dynamic(w);
    for (int k = 0; k < 40; ++k) {
        add_part(w, b, part_of(k, around));
    }
    ck_assert(rc_world_step(w, 1.0f / 60.0f));
    size_t size = rc_world_snapshot_size(w);
    void *buffer = malloc(size);
    ck_assert_ptr_nonnull(buffer);
    ck_assert(rc_world_snapshot(w, buffer, size) > 0);
    rc_world *copy = make_world();
    ck_assert_msg(rc_world_restore(copy, buffer, size), "restore: %s", rc_world_last_error(copy));
    for (int k = 40; k < 60; ++k) {
        add_part(w, b, part_of(k, around));
        add_part(copy, b, part_of(k, around));
    }
    EXPECT(same_bits(rc_body_mass_data(w, b), rc_body_mass_data(copy, b)), "the restored compound weighs otherwise");
    rc_body_set_angular_velocity(w, b, 0.5f);
    rc_body_set_angular_velocity(copy, b, 0.5f);
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f) && rc_world_step(copy, 1.0f / 60.0f));
    }
    rc_vec2 p = rc_body_position(w, b), q = rc_body_position(copy, b);
    float a = rc_body_angle(w, b), c = rc_body_angle(copy, b);
    EXPECT(memcmp(&p, &q, sizeof p) == 0 && memcmp(&a, &c, sizeof a) == 0, "the two worlds moved apart");
    /* a snapshot taken with shapes just added (their body's reach not yet worked out by a step)
       restores a world that moves as the original does */
    for (int k = 60; k < 70; ++k) {
        add_part(w, b, part_of(k, around));
    }
    size = rc_world_snapshot_size(w);
    free(buffer);
    buffer = malloc(size);
    ck_assert_ptr_nonnull(buffer);
    ck_assert(rc_world_snapshot(w, buffer, size) > 0);
    ck_assert_msg(rc_world_restore(copy, buffer, size), "restore: %s", rc_world_last_error(copy));
    for (int i = 0; i < 30; ++i) {
        ck_assert(rc_world_step(w, 1.0f / 60.0f) && rc_world_step(copy, 1.0f / 60.0f));
    }
    p = rc_body_position(w, b);
    q = rc_body_position(copy, b);
    a = rc_body_angle(w, b);
    c = rc_body_angle(copy, b);
    EXPECT(memcmp(&p, &q, sizeof p) == 0 && memcmp(&a, &c, sizeof a) == 0, "restored with shapes just added: apart");
    free(buffer);
    rc_world_destroy(copy);
    rc_world_destroy(w);
}
END_TEST

/* ---- random operations against a twin built afresh -------------------------------------------- */

enum { BODIES = 3, MAX_SHAPES = 40 };

/* One shape of a body as the game made it (and changed it since). */
typedef struct made_shape {
    rc_shape_id id;
    int kind; /* 0 box, 1 circle, 2 capsule, 3 pentagon */
    float size, density, angle;
    rc_vec2 offset, scale;
} made_shape;

typedef struct made_body {
    rc_body_id id;
    rc_body_type type;
    made_shape shapes[MAX_SHAPES]; /* oldest first */
    int count;
} made_body;

static rc_shape_id make_shape(rc_world *w, rc_body_id b, const made_shape *m) {
    rc_shape_def sd = rc_shape_default_def();
    sd.density = m->density;
    sd.offset = m->offset;
    sd.angle = m->angle;
    sd.scale = m->scale;
    switch (m->kind) {
    case 0:
        return rc_shape_create_box(w, b, &sd, m->size, 0.5f * m->size);
    case 1:
        return rc_shape_create_circle(w, b, &sd, m->size);
    case 2:
        return rc_shape_create_capsule(w, b, &sd, rc_v2(-m->size, 0.0f), rc_v2(m->size, 0.0f), 0.3f * m->size);
    default: {
        rc_polygon p = rc_make_regular_polygon(5, m->size, 0.3f);
        return rc_shape_create_polygon(w, b, &sd, p.vertices, p.count);
    }
    }
}

/* The body's mass data against a body made afresh, in a world of its own, of the same shapes in
 * the same order, with the body's transform: the same bits. */
static void expect_as_made_afresh(rc_world *w, const made_body *mb, int op) {
    if (mb->type != RC_DYNAMIC) {
        return;
    }
    rc_world *fresh = make_world();
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.position = rc_body_position(w, mb->id);
    bd.angle = rc_body_angle(w, mb->id);
    rc_body_id twin = rc_body_create(fresh, &bd);
    for (int k = 0; k < mb->count; ++k) {
        ck_assert(!rc_shape_id_is_null(make_shape(fresh, twin, &mb->shapes[k])));
    }
    rc_mass_data got = rc_body_mass_data(w, mb->id), want = rc_body_mass_data(fresh, twin);
    EXPECT(same_bits(got, want), "op %d: mass %.9g centre (%.9g, %.9g) inertia %.9g; afresh %.9g (%.9g, %.9g) %.9g", op,
           (double)got.mass, (double)got.center.x, (double)got.center.y, (double)got.rotational_inertia,
           (double)want.mass, (double)want.center.x, (double)want.center.y, (double)want.rotational_inertia);
    rc_world_destroy(fresh);
}

/* 2,000 random operations on three bodies: shapes added, destroyed, given another density or
 * base transform, the body's type changed, snapshots restored (the world as it was then, with
 * its bodies' shapes), steps, bodies destroyed and made again. After each, every dynamic body
 * weighs the bits a body made afresh of its shapes does: the sums kept beside it are what its
 * shapes say, however it came to have them. */
START_TEST(random_changes_weigh_as_a_body_made_afresh) {
    ws_rng rng = {0x5eedu + (uint64_t)_i};
    rc_world *w = make_world();
    static made_body bodies[BODIES], saved[BODIES];
    memset(bodies, 0, sizeof bodies);
    for (int i = 0; i < BODIES; ++i) {
        bodies[i].id = make_dynamic(w);
        bodies[i].type = RC_DYNAMIC;
    }
    size_t capacity = 1u << 20, saved_size = 0;
    uint8_t *snapshot = malloc(capacity);
    ck_assert_ptr_nonnull(snapshot);
    for (int op = 0; op < 2000; ++op) {
        made_body *mb = &bodies[ws_int(&rng, 0, BODIES - 1)];
        int what = ws_int(&rng, 0, 99);
        if (what < 40 && mb->count < MAX_SHAPES) {
            made_shape m = {RC_NULL_SHAPE_ID, ws_int(&rng, 0, 3), ws_range(&rng, 0.1, 2.0),
                            ws_log_range(&rng, 0.01, 100.0), ws_range(&rng, -3.0, 3.0),
                            rc_v2(ws_range(&rng, -2000.0, 2000.0), ws_range(&rng, -50.0, 50.0)), rc_v2(1.0f, 1.0f)};
            m.id = make_shape(w, mb->id, &m);
            ck_assert_msg(!rc_shape_id_is_null(m.id), "op %d: %s", op, rc_world_last_error(w));
            mb->shapes[mb->count++] = m;
        } else if (what < 60 && mb->count > 0) {
            int k = ws_int(&rng, 0, mb->count - 1);
            rc_shape_destroy(w, mb->shapes[k].id);
            memmove(&mb->shapes[k], &mb->shapes[k + 1], sizeof mb->shapes[0] * (size_t)(mb->count - k - 1));
            mb->count--;
        } else if (what < 68 && mb->count > 0) {
            made_shape *m = &mb->shapes[ws_int(&rng, 0, mb->count - 1)];
            m->density = ws_log_range(&rng, 0.01, 100.0);
            ck_assert(rc_shape_set_density(w, m->id, m->density));
        } else if (what < 76 && mb->count > 0) {
            made_shape *m = &mb->shapes[ws_int(&rng, 0, mb->count - 1)];
            m->offset = rc_v2(ws_range(&rng, -2000.0, 2000.0), ws_range(&rng, -50.0, 50.0));
            m->angle = ws_range(&rng, -3.0, 3.0);
            bool round = m->kind == 1 || m->kind == 2; /* (a circle or capsule scales evenly) */
            float s = ws_range(&rng, 0.5, 2.0);
            m->scale = rc_v2(s, round ? s : ws_range(&rng, 0.5, 2.0));
            ck_assert_msg(rc_shape_set_base_transform(w, m->id, m->offset, m->angle, m->scale), "op %d: %s", op,
                          rc_world_last_error(w));
        } else if (what < 82) {
            rc_body_type type = (rc_body_type)ws_int(&rng, 0, 2);
            if (rc_body_set_type(w, mb->id, type)) {
                mb->type = type;
            }
        } else if (what < 88) {
            saved_size = rc_world_snapshot(w, snapshot, capacity);
            ck_assert_msg(saved_size > 0, "op %d: %s", op, rc_world_last_error(w));
            memcpy(saved, bodies, sizeof bodies);
        } else if (what < 92 && saved_size > 0) {
            ck_assert_msg(rc_world_restore(w, snapshot, saved_size), "op %d: %s", op, rc_world_last_error(w));
            memcpy(bodies, saved, sizeof bodies);
        } else if (what < 97) {
            ck_assert(rc_world_step(w, 1.0f / 60.0f));
        } else {
            rc_body_destroy(w, mb->id);
            mb->id = make_dynamic(w);
            mb->type = RC_DYNAMIC;
            mb->count = 0;
            saved_size = 0; /* (the saved world's ids are another body's now) */
        }
        for (int i = 0; i < BODIES; ++i) {
            expect_as_made_afresh(w, &bodies[i], op);
        }
    }
    free(snapshot);
    rc_world_destroy(w);
}
END_TEST

static Suite *compound_suite(void) {
    Suite *s = suite_create("compound_mass");
    TCase *t = tcase_create("mass");
    tcase_add_test(t, a_shape_far_from_its_body_origin_keeps_its_inertia);
    tcase_add_test(t, a_compound_weighs_what_its_shapes_add_up_to);
    tcase_add_test(t, a_restored_compound_grows_as_the_original_does);
    tcase_add_loop_test(t, random_changes_weigh_as_a_body_made_afresh, 0, 3);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *r = srunner_create(compound_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
