/* tests/support/world_support.c: see world_support.h. */
#include "support/world_support.h"

#include "support/reference.h"

#include <float.h>
#include <math.h>
#include <stb_ds.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- randomness ----------------------------------------------------------------------------- */

uint64_t ws_next(ws_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double ws_uniform(ws_rng *r) { return (double)(ws_next(r) >> 11) * (1.0 / 9007199254740992.0); }

float ws_range(ws_rng *r, double lo, double hi) { return (float)(lo + (hi - lo) * ws_uniform(r)); }

float ws_log_range(ws_rng *r, double lo, double hi) {
    return (float)exp(log(lo) + (log(hi) - log(lo)) * ws_uniform(r));
}

int ws_int(ws_rng *r, int lo, int hi) { return lo + (int)(ws_next(r) % (uint64_t)(hi - lo + 1)); }

bool ws_chance(ws_rng *r, double p) { return ws_uniform(r) < p; }

/* ---- the counting allocator ----------------------------------------------------------------- */

static void *ws_alloc_cb(size_t size, size_t align, void *user) {
    ws_counting_alloc *c = user;
    c->allocations++;
    if ((align & (align - 1)) != 0 || align == 0 || align > 64) {
        c->bad_aligns++;
    }
    if (c->allocations == c->fail_at || (c->fail_from > 0 && c->allocations >= c->fail_from)) {
        c->failures++;
        return NULL;
    }
    size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = NULL;
    if (posix_memalign(&p, a, size == 0 ? 1 : size) != 0) {
        return NULL;
    }
    hmput(c->blocks, p, size);
    c->live_bytes += (int64_t)size;
    c->allocated_bytes += (int64_t)size;
    c->live_blocks++;
    if (c->live_bytes > c->peak_bytes) {
        c->peak_bytes = c->live_bytes;
    }
    return p;
}

static void ws_free_cb(void *ptr, size_t size, void *user) {
    ws_counting_alloc *c = user;
    c->frees++;
    if (ptr == NULL) {
        return;
    }
    ptrdiff_t i = hmgeti(c->blocks, ptr);
    if (i < 0) {
        if (c->bad_frees++ == 0) {
            snprintf(c->first_bad, sizeof c->first_bad, "free of unknown pointer %p (size %zu)", ptr, size);
        }
        return; /* never free what we did not hand out */
    }
    if (c->blocks[i].value != size) {
        if (c->bad_frees++ == 0) {
            snprintf(c->first_bad, sizeof c->first_bad, "free of %p with size %zu, allocated with size %zu", ptr, size,
                     c->blocks[i].value);
        }
    }
    c->live_bytes -= (int64_t)c->blocks[i].value;
    c->live_blocks--;
    (void)hmdel(c->blocks, ptr);
    free(ptr);
}

void ws_alloc_init(ws_counting_alloc *c) { memset(c, 0, sizeof *c); }

void ws_alloc_release(ws_counting_alloc *c) {
    for (ptrdiff_t i = 0; i < hmlen(c->blocks); ++i) {
        free(c->blocks[i].key);
    }
    hmfree(c->blocks);
}

rc_allocator ws_allocator(ws_counting_alloc *c) {
    rc_allocator a = {ws_alloc_cb, ws_free_cb, c};
    return a;
}

/* ---- the error callback --------------------------------------------------------------------- */

void ws_error_fn(const char *message, void *user) {
    ws_errors *e = user;
    e->calls++;
    snprintf(e->last, sizeof e->last, "%s", message != NULL ? message : "(null)");
}

/* ---- snapshots ------------------------------------------------------------------------------ */

static int cmp_shape_id(const void *x, const void *y) {
    uint64_t a = ws_shape_key(*(const rc_shape_id *)x), b = ws_shape_key(*(const rc_shape_id *)y);
    return a < b ? -1 : (a > b ? 1 : 0);
}

void ws_snapshot_take(ws_snapshot *s, const rc_world *world, const rc_body_id *bodies, int nbodies,
                      const rc_shape_id *shapes, int nshapes) {
    memset(s, 0, sizeof *s);
    for (int i = 0; i < nbodies; ++i) {
        ws_body_state b;
        memset(&b, 0, sizeof b);
        rc_body_id id = bodies[i];
        b.valid = rc_body_is_valid(world, id);
        if (b.valid) {
            b.type = rc_body_get_type(world, id);
            b.position = rc_body_position(world, id);
            b.angle = rc_body_angle(world, id);
            b.xf = rc_body_transform(world, id);
            b.linear_velocity = rc_body_linear_velocity(world, id);
            b.angular_velocity = rc_body_angular_velocity(world, id);
            b.mass = rc_body_mass(world, id);
            b.inertia = rc_body_rotational_inertia(world, id);
            b.world_center = rc_body_world_center(world, id);
            b.gravity_scale = rc_body_gravity_scale(world, id);
            b.linear_damping = rc_body_linear_damping(world, id);
            b.angular_damping = rc_body_angular_damping(world, id);
            b.bullet = rc_body_is_bullet(world, id);
            b.max_bounces = rc_body_max_bounces(world, id);
            b.awake = rc_body_is_awake(world, id);
            b.user_data = rc_body_user_data(world, id);
            b.shape_count = rc_body_shapes(world, id, b.shapes, 16);
            /* the order of the list is not part of the contract */
            if (b.shape_count > 1) {
                qsort(b.shapes, (size_t)(b.shape_count < 16 ? b.shape_count : 16), sizeof b.shapes[0], cmp_shape_id);
            }
        }
        arrput(s->bodies, b);
    }
    for (int i = 0; i < nshapes; ++i) {
        ws_shape_state sh;
        memset(&sh, 0, sizeof sh);
        rc_shape_id id = shapes[i];
        sh.valid = rc_shape_is_valid(world, id);
        if (sh.valid) {
            sh.body = rc_shape_body(world, id);
            sh.type = rc_shape_get_type(world, id);
            sh.aabb = rc_shape_aabb(world, id);
            if (sh.type == RC_SHAPE_TYPE_CIRCLE) {
                rc_shape_world_circle(world, id, &sh.circle);
            } else if (sh.type == RC_SHAPE_TYPE_POLYGON) {
                rc_shape_world_polygon(world, id, &sh.polygon);
            } else if (sh.type == RC_SHAPE_TYPE_SEGMENT) {
                sh.polygon.count = 2; /* a wall's ends */
                rc_shape_world_segment(world, id, &sh.polygon.vertices[0], &sh.polygon.vertices[1]);
            } else if (sh.type == RC_SHAPE_TYPE_CAPSULE) {
                rc_capsule c; /* its centres as a polygon of two points, its radius as the circle's */
                rc_shape_world_capsule(world, id, &c);
                sh.polygon.count = 2;
                sh.polygon.vertices[0] = c.center1;
                sh.polygon.vertices[1] = c.center2;
                sh.circle.radius = c.radius;
            } else if (sh.type == RC_SHAPE_TYPE_CHAIN) {
                sh.polygon.count = rc_shape_chain_points(world, id, sh.polygon.vertices, RC_MAX_POLYGON_VERTICES);
            }
            sh.restitution = rc_shape_restitution(world, id);
            sh.friction = rc_shape_friction(world, id);
            sh.density = rc_shape_density(world, id);
            sh.filter = rc_shape_filter(world, id);
            sh.sensor = rc_shape_is_sensor(world, id);
            sh.user_data = rc_shape_user_data(world, id);
            sh.contact_count = rc_shape_contacts(world, id, sh.contacts, 32);
            if (sh.contact_count > 1) {
                qsort(sh.contacts, (size_t)(sh.contact_count < 32 ? sh.contact_count : 32), sizeof sh.contacts[0],
                      cmp_shape_id);
            }
        }
        arrput(s->shapes, sh);
    }
    s->counters = rc_world_get_counters(world);
    s->counters.bytes = 0;
    s->gravity = rc_world_gravity(world);
    rc_contact_events ce = rc_world_contact_events(world);
    for (int32_t i = 0; i < ce.begin_count; ++i) {
        arrput(s->contact_begin, ce.begin[i]);
    }
    for (int32_t i = 0; i < ce.end_count; ++i) {
        arrput(s->contact_end, ce.end[i]);
    }
    rc_sensor_events se = rc_world_sensor_events(world);
    for (int32_t i = 0; i < se.begin_count; ++i) {
        arrput(s->sensor_begin, se.begin[i]);
    }
    for (int32_t i = 0; i < se.end_count; ++i) {
        arrput(s->sensor_end, se.end[i]);
    }
    const rc_impact_event *impacts = NULL;
    int n = rc_world_impact_events(world, &impacts);
    for (int i = 0; i < n; ++i) {
        arrput(s->impacts, impacts[i]);
    }
}

#define WS_CMP_ARRAY(field, what)                                                                                      \
    do {                                                                                                               \
        if (arrlen(a->field) != arrlen(b->field)) {                                                                    \
            snprintf(why, why_size, "%s: %d entries before, %d after", what, (int)arrlen(a->field),                    \
                     (int)arrlen(b->field));                                                                           \
            return false;                                                                                              \
        }                                                                                                              \
        for (ptrdiff_t i_ = 0; i_ < arrlen(a->field); ++i_) {                                                          \
            if (memcmp(&a->field[i_], &b->field[i_], sizeof a->field[i_]) != 0) {                                      \
                snprintf(why, why_size, "%s: entry %d differs", what, (int)i_);                                        \
                return false;                                                                                          \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

bool ws_snapshot_equal(const ws_snapshot *a, const ws_snapshot *b, char *why, size_t why_size) {
    if (arrlen(a->bodies) != arrlen(b->bodies) || arrlen(a->shapes) != arrlen(b->shapes)) {
        snprintf(why, why_size, "snapshots of different id lists");
        return false;
    }
    for (ptrdiff_t i = 0; i < arrlen(a->bodies); ++i) {
        const ws_body_state *x = &a->bodies[i], *y = &b->bodies[i];
        if (memcmp(x, y, sizeof *x) != 0) {
            snprintf(why, why_size,
                     "body #%d: valid %d->%d, position (%g, %g)->(%g, %g), velocity (%g, %g)->(%g, %g), awake %d->%d, "
                     "mass %g->%g, shapes %d->%d",
                     (int)i, x->valid, y->valid, (double)x->position.x, (double)x->position.y, (double)y->position.x,
                     (double)y->position.y, (double)x->linear_velocity.x, (double)x->linear_velocity.y,
                     (double)y->linear_velocity.x, (double)y->linear_velocity.y, x->awake, y->awake, (double)x->mass,
                     (double)y->mass, (int)x->shape_count, (int)y->shape_count);
            return false;
        }
    }
    for (ptrdiff_t i = 0; i < arrlen(a->shapes); ++i) {
        const ws_shape_state *x = &a->shapes[i], *y = &b->shapes[i];
        if (memcmp(x, y, sizeof *x) != 0) {
            snprintf(why, why_size,
                     "shape #%d: valid %d->%d, aabb (%g, %g, %g, %g)->(%g, %g, %g, %g), contacts %d->%d, filter "
                     "%x/%x/%d->%x/%x/%d",
                     (int)i, x->valid, y->valid, (double)x->aabb.lower.x, (double)x->aabb.lower.y,
                     (double)x->aabb.upper.x, (double)x->aabb.upper.y, (double)y->aabb.lower.x, (double)y->aabb.lower.y,
                     (double)y->aabb.upper.x, (double)y->aabb.upper.y, (int)x->contact_count, (int)y->contact_count,
                     x->filter.category_bits, x->filter.mask_bits, (int)x->filter.group_index, y->filter.category_bits,
                     y->filter.mask_bits, (int)y->filter.group_index);
            return false;
        }
    }
    if (memcmp(&a->counters, &b->counters, sizeof a->counters) != 0) {
        snprintf(why, why_size,
                 "counters: bodies %d->%d shapes %d->%d contacts %d->%d touching %d->%d awake %d->%d proxies %d->%d "
                 "cells %d->%d cell_size %g->%g steps %d->%d",
                 a->counters.bodies, b->counters.bodies, a->counters.shapes, b->counters.shapes, a->counters.contacts,
                 b->counters.contacts, a->counters.touching_contacts, b->counters.touching_contacts,
                 a->counters.awake_bodies, b->counters.awake_bodies, a->counters.broadphase_proxies,
                 b->counters.broadphase_proxies, a->counters.broadphase_cells, b->counters.broadphase_cells,
                 (double)a->counters.cell_size, (double)b->counters.cell_size, a->counters.steps, b->counters.steps);
        return false;
    }
    if (memcmp(&a->gravity, &b->gravity, sizeof a->gravity) != 0) {
        snprintf(why, why_size, "gravity changed");
        return false;
    }
    WS_CMP_ARRAY(contact_begin, "contact begin events");
    WS_CMP_ARRAY(contact_end, "contact end events");
    WS_CMP_ARRAY(sensor_begin, "sensor begin events");
    WS_CMP_ARRAY(sensor_end, "sensor end events");
    WS_CMP_ARRAY(impacts, "impact events");
    return true;
}

void ws_snapshot_free(ws_snapshot *s) {
    arrfree(s->bodies);
    arrfree(s->shapes);
    arrfree(s->contact_begin);
    arrfree(s->contact_end);
    arrfree(s->sensor_begin);
    arrfree(s->sensor_end);
    arrfree(s->impacts);
}

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

static int cmp_begin(const void *x, const void *y) {
    const rc_contact_begin_event *a = x, *b = y;
    int c = cmp_u64(ws_shape_key(a->shape_a), ws_shape_key(b->shape_a));
    return c != 0 ? c : cmp_u64(ws_shape_key(a->shape_b), ws_shape_key(b->shape_b));
}

static int cmp_end(const void *x, const void *y) {
    const rc_contact_end_event *a = x, *b = y;
    int c = cmp_u64(ws_shape_key(a->shape_a), ws_shape_key(b->shape_a));
    return c != 0 ? c : cmp_u64(ws_shape_key(a->shape_b), ws_shape_key(b->shape_b));
}

static int cmp_sensor(const void *x, const void *y) {
    const rc_sensor_event *a = x, *b = y;
    int c = cmp_u64(ws_shape_key(a->sensor), ws_shape_key(b->sensor));
    return c != 0 ? c : cmp_u64(ws_shape_key(a->visitor), ws_shape_key(b->visitor));
}

void ws_snapshot_sort_events(ws_snapshot *s) {
    if (arrlen(s->contact_begin) > 1) {
        qsort(s->contact_begin, (size_t)arrlen(s->contact_begin), sizeof *s->contact_begin, cmp_begin);
    }
    if (arrlen(s->contact_end) > 1) {
        qsort(s->contact_end, (size_t)arrlen(s->contact_end), sizeof *s->contact_end, cmp_end);
    }
    if (arrlen(s->sensor_begin) > 1) {
        qsort(s->sensor_begin, (size_t)arrlen(s->sensor_begin), sizeof *s->sensor_begin, cmp_sensor);
    }
    if (arrlen(s->sensor_end) > 1) {
        qsort(s->sensor_end, (size_t)arrlen(s->sensor_end), sizeof *s->sensor_end, cmp_sensor);
    }
}

/* ---- brute force over shapes ---------------------------------------------------------------- */

bool ws_filters_collide(rc_filter a, rc_filter b) {
    if (a.group_index != 0 && a.group_index == b.group_index) {
        return a.group_index > 0;
    }
    return (a.category_bits & b.mask_bits) != 0 && (b.category_bits & a.mask_bits) != 0;
}

bool ws_query_sees(rc_filter shape, rc_query_filter q) {
    return (shape.category_bits & q.mask_bits) != 0 && (q.category_bits & shape.mask_bits) != 0;
}

bool ws_shapes_should_pair(const rc_world *world, rc_shape_id a, rc_shape_id b) {
    rc_body_id ba = rc_shape_body(world, a), bb = rc_shape_body(world, b);
    if (rc_body_id_equals(ba, bb)) {
        return false;
    }
    bool sa = rc_shape_is_sensor(world, a), sb = rc_shape_is_sensor(world, b);
    if (sa && sb) {
        return false;
    }
    rc_body_type ta = rc_body_get_type(world, ba), tb = rc_body_get_type(world, bb);
    bool dynamic = ta == RC_DYNAMIC || tb == RC_DYNAMIC;
    bool sensor_sees_kinematic = (sa && tb == RC_KINEMATIC) || (sb && ta == RC_KINEMATIC);
    if (!dynamic && !sensor_sees_kinematic) {
        return false;
    }
    return ws_filters_collide(rc_shape_filter(world, a), rc_shape_filter(world, b));
}

static bool ws_swept_circle(const rc_world *world, rc_shape_id s) {
    return rc_shape_get_type(world, s) == RC_SHAPE_TYPE_CIRCLE && !rc_shape_is_sensor(world, s) &&
           rc_body_get_motion(world, rc_shape_body(world, s)) == RC_MOTION_SWEPT_CIRCLE;
}

/* A solid shape as the reference sees it: the points of its core in the world (a circle's
 * centre, a wall's two ends, a polygon's vertices) and the radius that rounds them. */
typedef struct ws_hull {
    rc_vec2 p[RC_MAX_POLYGON_VERTICES];
    int n;
    double r;
} ws_hull;

static ws_hull ws_hull_of(const rc_world *world, rc_shape_id s) {
    ws_hull h;
    memset(&h, 0, sizeof h);
    rc_shape_type t = rc_shape_get_type(world, s);
    if (t == RC_SHAPE_TYPE_CIRCLE) {
        rc_circle c;
        rc_shape_world_circle(world, s, &c);
        h.p[0] = c.center;
        h.n = 1;
        h.r = c.radius;
    } else if (t == RC_SHAPE_TYPE_SEGMENT) {
        rc_shape_world_segment(world, s, &h.p[0], &h.p[1]);
        h.n = 2;
    } else if (t == RC_SHAPE_TYPE_CAPSULE) {
        rc_capsule c;
        rc_shape_world_capsule(world, s, &c);
        h.p[0] = c.center1;
        h.p[1] = c.center2;
        h.n = 2;
        h.r = c.radius;
    } else {
        rc_polygon poly;
        rc_shape_world_polygon(world, s, &poly);
        memcpy(h.p, poly.vertices, sizeof(rc_vec2) * (size_t)poly.count);
        h.n = poly.count;
    }
    return h;
}

/* The least distance from p to the edges of a core (its single segment for two points). */
static double ws_edges_distance(const ws_hull *h, ref_v2 p) {
    if (h->n == 1) {
        return ref_dist(p, ref_from(h->p[0]));
    }
    double best = INFINITY;
    int edges = h->n == 2 ? 1 : h->n;
    for (int i = 0; i < edges; ++i) {
        best = fmin(best, ref_segment_distance(p, ref_from(h->p[i]), ref_from(h->p[(i + 1) % h->n]), NULL));
    }
    return best;
}

/* The signed separation of two cores, in double: their distance apart, or minus the depth of
 * their overlap (separating axes). */
static double ws_core_separation(const ws_hull *a, const ws_hull *b) {
    if (a->n == 1 || b->n == 1) {
        const ws_hull *point = a->n == 1 ? a : b, *other = a->n == 1 ? b : a;
        ref_v2 c = ref_from(point->p[0]);
        if (other->n >= 3) {
            return ref_distance_polygon(other->p, other->n, c).distance;
        }
        return ws_edges_distance(other, c);
    }
    double sat = ref_sat_separation(a->p, a->n, b->p, b->n, NULL);
    if (sat <= 0.0) {
        return sat;
    }
    double best = INFINITY;
    for (int i = 0; i < a->n; ++i) {
        best = fmin(best, ws_edges_distance(b, ref_from(a->p[i])));
    }
    for (int i = 0; i < b->n; ++i) {
        best = fmin(best, ws_edges_distance(a, ref_from(b->p[i])));
    }
    return best;
}

double ws_separation(const rc_world *world, rc_shape_id a, rc_shape_id b) {
    ws_hull ha = ws_hull_of(world, a), hb = ws_hull_of(world, b);
    return ws_core_separation(&ha, &hb) - ha.r - hb.r;
}

/* The size of the numbers of a pair: what their float rounding is relative to. */
static double ws_pair_scale(const ws_hull *a, const ws_hull *b) {
    double scale = 1.0 + a->r + b->r;
    for (int i = 0; i < a->n; ++i) {
        scale = fmax(scale, fmax(fabs(a->p[i].x), fabs(a->p[i].y)));
    }
    for (int i = 0; i < b->n; ++i) {
        scale = fmax(scale, fmax(fabs(b->p[i].x), fabs(b->p[i].y)));
    }
    return scale;
}

/* A wall against a solid shape: is the shape on the wall's blocking side, or near one of its
 * joints (whose smoothing decides)? */
static ws_touch ws_wall_rule(const rc_world *world, rc_shape_id wall, const ws_hull *w, const ws_hull *o,
                             double tol) {
    ref_v2 a = ref_from(w->p[0]), b = ref_from(w->p[1]);
    ref_v2 c = ref_v(0.0, 0.0);
    for (int i = 0; i < o->n; ++i) {
        c = ref_add(c, ref_from(o->p[i]));
    }
    c = ref_scale(1.0 / o->n, c);
    rc_shape_id chain = rc_shape_chain(world, wall);
    int32_t n = rc_shape_chain_segments(world, chain, NULL, 0);
    rc_shape_id *walls = malloc(sizeof *walls * (size_t)n);
    rc_shape_chain_segments(world, chain, walls, n);
    int32_t k = 0;
    while (!rc_shape_id_equals(walls[k], wall)) {
        ++k;
    }
    bool loop = rc_shape_chain_is_loop(world, chain);
    /* the free side: the left of the chain's order, but a loop's inside whatever its winding */
    double area = 0.0;
    for (int32_t i = 0; loop && i < n; ++i) {
        rc_vec2 p, q;
        rc_shape_world_segment(world, walls[i], &p, &q);
        area += ref_cross(ref_from(p), ref_from(q));
    }
    free(walls);
    /* which side the other is on, by the mean of its points: on the line is either */
    double side = ref_cross(ref_sub(b, a), ref_sub(c, a)) / fmax(ref_dist(a, b), 1e-300);
    side = area < 0.0 ? -side : side;
    if (rc_shape_is_one_sided(world, wall) && side < tol) {
        return side < -tol ? WS_APART : WS_EITHER;
    }
    /* a joint with a neighbour as near to the shape as the wall itself is: either */
    ws_hull end;
    memset(&end, 0, sizeof end);
    end.n = 1;
    double to_wall = ws_core_separation(w, o);
    for (int e = 0; e < 2; ++e) {
        bool joint = loop || (e == 0 ? k > 0 : k + 1 < n);
        end.p[0] = w->p[e];
        if (joint && ws_core_separation(&end, o) <= fmax(to_wall, 0.0) + tol) {
            return WS_EITHER;
        }
    }
    return WS_TOUCHING;
}

ws_touch ws_touch_state(const rc_world *world, rc_shape_id a, rc_shape_id b, float contact_skin, float linear_slop) {
    if (!ws_shapes_should_pair(world, a, b)) {
        return WS_APART;
    }
    if (rc_shape_get_type(world, a) == RC_SHAPE_TYPE_CHAIN || rc_shape_get_type(world, b) == RC_SHAPE_TYPE_CHAIN) {
        return WS_APART; /* a chain's walls touch, not the chain */
    }
    bool wall_a = rc_shape_get_type(world, a) == RC_SHAPE_TYPE_SEGMENT;
    bool wall_b = rc_shape_get_type(world, b) == RC_SHAPE_TYPE_SEGMENT;
    if (wall_a && wall_b) {
        return WS_APART;
    }
    ws_hull ha = ws_hull_of(world, a), hb = ws_hull_of(world, b);
    double tol = 1e-5 * ws_pair_scale(&ha, &hb);
    /* a swept body's circle touches what is within its contact margin: four skins, a skin being
       the larger of contact_skin and 4 FLT_EPSILON times the larger coordinate at its centre;
       other solid pairs touch within a linear slop (held at zero overlap, they rest there);
       a sensor touches what overlaps it */
    double threshold = 0.0;
    bool sa = ws_swept_circle(world, a), sb = ws_swept_circle(world, b);
    bool sensor = rc_shape_is_sensor(world, a) || rc_shape_is_sensor(world, b);
    if ((sa || sb) && !sensor) {
        rc_vec2 c = (sa ? ha : hb).p[0];
        float scale = fabsf(c.x) > fabsf(c.y) ? fabsf(c.x) : fabsf(c.y);
        threshold = 4.0 * fmax(contact_skin, 4.0 * FLT_EPSILON * scale);
    } else if (!sensor) {
        threshold = linear_slop;
    }
    double sep = ws_core_separation(&ha, &hb) - ha.r - hb.r - threshold;
    if (sep > tol) {
        return WS_APART;
    }
    ws_touch state = sep < -tol ? WS_TOUCHING : WS_EITHER;
    if (wall_a || wall_b) {
        ws_touch rule = ws_wall_rule(world, wall_a ? a : b, wall_a ? &ha : &hb, wall_a ? &hb : &ha, tol);
        state = rule == WS_APART ? WS_APART : (rule == WS_EITHER ? WS_EITHER : state);
    }
    return state;
}

bool ws_collide(const rc_world *world, rc_shape_id a, rc_shape_id b, rc_manifold *m) {
    rc_shape_type ta = rc_shape_get_type(world, a), tb = rc_shape_get_type(world, b);
    if (ta == RC_SHAPE_TYPE_SEGMENT || tb == RC_SHAPE_TYPE_SEGMENT) {
        /* a wall against a circle or a polygon (walls never meet walls): do they overlap? */
        rc_shape_id wall = ta == RC_SHAPE_TYPE_SEGMENT ? a : b, other = ta == RC_SHAPE_TYPE_SEGMENT ? b : a;
        if (rc_shape_get_type(world, other) == RC_SHAPE_TYPE_SEGMENT) {
            return false;
        }
        rc_vec2 wa, wb;
        rc_shape_world_segment(world, wall, &wa, &wb);
        if (m != NULL) {
            memset(m, 0, sizeof *m);
        }
        if (rc_shape_get_type(world, other) == RC_SHAPE_TYPE_CIRCLE) {
            rc_circle c;
            rc_shape_world_circle(world, other, &c);
            return rc_point_distance_segment(wa, wb, c.center).distance <= c.radius;
        }
        rc_polygon o;
        rc_shape_world_polygon(world, other, &o);
        rc_clip clip;
        return rc_clip_segment_convex(wa, wb, o.vertices, o.count, &clip);
    }
    rc_circle ca, cb;
    rc_polygon pa, pb;
    if (ta == RC_SHAPE_TYPE_CIRCLE) {
        rc_shape_world_circle(world, a, &ca);
    } else {
        rc_shape_world_polygon(world, a, &pa);
    }
    if (tb == RC_SHAPE_TYPE_CIRCLE) {
        rc_shape_world_circle(world, b, &cb);
    } else {
        rc_shape_world_polygon(world, b, &pb);
    }
    if (ta == RC_SHAPE_TYPE_CIRCLE && tb == RC_SHAPE_TYPE_CIRCLE) {
        return rc_collide_circles(ca, cb, m);
    }
    if (ta == RC_SHAPE_TYPE_POLYGON && tb == RC_SHAPE_TYPE_CIRCLE) {
        return rc_collide_polygon_circle(&pa, cb, m);
    }
    if (ta == RC_SHAPE_TYPE_POLYGON && tb == RC_SHAPE_TYPE_POLYGON) {
        return rc_collide_polygons(&pa, &pb, m);
    }
    /* circle a, polygon b: the pure function gives the normal from the polygon */
    bool hit = rc_collide_polygon_circle(&pb, ca, m);
    if (hit && m != NULL) {
        m->normal = rc_neg(m->normal);
    }
    return hit;
}

bool ws_shape_less(rc_shape_id a, rc_shape_id b) { return a.index < b.index; }

uint64_t ws_shape_key(rc_shape_id id) { return (uint64_t)id.index << 32 | id.generation; }

ws_pair ws_pair_of(rc_shape_id a, rc_shape_id b) {
    ws_pair p;
    if (ws_shape_less(b, a)) {
        rc_shape_id t = a;
        a = b;
        b = t;
    }
    p.a = ws_shape_key(a);
    p.b = ws_shape_key(b);
    return p;
}

int ws_random_convex(ws_rng *r, float radius, rc_vec2 *out) {
    int n = ws_int(r, 3, RC_MAX_POLYGON_VERTICES);
    /* sorted angles on an ellipse: convex by construction; spread them so none is collinear */
    double angles[RC_MAX_POLYGON_VERTICES];
    double step = 2.0 * 3.14159265358979323846 / n;
    double start = ws_uniform(r) * 6.283185307179586;
    for (int i = 0; i < n; ++i) {
        angles[i] = start + step * (i + 0.15 + 0.7 * ws_uniform(r));
    }
    double ex = 0.6 + 0.4 * ws_uniform(r), ey = 0.6 + 0.4 * ws_uniform(r);
    bool clockwise = ws_chance(r, 0.5);
    for (int i = 0; i < n; ++i) {
        int k = clockwise ? n - 1 - i : i;
        out[i] = rc_v2((float)(radius * ex * cos(angles[k])), (float)(radius * ey * sin(angles[k])));
    }
    return n;
}

/* ---- small worlds ---------------------------------------------------------------------------- */

rc_world *ws_make_world(rc_vec2 gravity) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = gravity;
    rc_world *w = rc_world_create(&wd);
    ck_assert_ptr_nonnull(w);
    return w;
}

rc_body_id ws_body(rc_world *w, rc_body_type type, rc_vec2 p, float angle) {
    rc_body_def bd = rc_body_default_def();
    bd.type = type;
    bd.position = p;
    bd.angle = angle;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    return b;
}

rc_body_id ws_static_body(rc_world *w) {
    rc_body_def bd = rc_body_default_def();
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    return b;
}

rc_body_id ws_point_bullet(rc_world *w, rc_vec2 p, rc_vec2 v, int32_t max_bounces) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = true;
    bd.position = p;
    bd.linear_velocity = v;
    bd.max_bounces = max_bounces;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert_msg(!rc_body_id_is_null(b), "%s", rc_world_last_error(w));
    return b;
}

rc_body_id ws_circle_body(rc_world *w, rc_vec2 p, rc_vec2 v, float r, float e, float mu, bool bullet) {
    rc_body_def bd = rc_body_default_def();
    bd.type = RC_DYNAMIC;
    bd.bullet = bullet;
    bd.position = p;
    bd.linear_velocity = v;
    rc_body_id b = rc_body_create(w, &bd);
    ck_assert(!rc_body_id_is_null(b));
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = e;
    sd.friction = mu;
    ck_assert_msg(!rc_shape_id_is_null(rc_shape_create_circle(w, b, &sd, r)), "%s", rc_world_last_error(w));
    return b;
}
