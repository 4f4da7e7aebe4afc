/* Bodies' mass from their shapes: the sums beside each body's record (rc_body_mass_sums), kept as
 * shapes come and go, the limits a body's mass keeps to, and the mass, centre and inertia the
 * sums give (rc_body_update_mass). */
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

static bool add_mass(rc_mass_data md, double sums[4]) {
    if (!rc_is_finite(md.mass) || !rc_is_finite(md.rotational_inertia)) {
        return false;
    }
    sums[0] += md.mass;
    sums[1] += (double)md.mass * md.center.x;
    sums[2] += (double)md.mass * md.center.y;
    sums[3] += md.rotational_inertia + (double)md.mass * ((double)md.center.x * md.center.x +
                                                          (double)md.center.y * md.center.y);
    return true;
}

bool rc_body_shapes_weigh(const rc_world *world, const rc_body *b) {
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (shape->kind != RC_SHAPE_SEGMENT && !rc_shape_mass_weighs(shape->density, rc_shape_mass(world, shape))) {
            return false;
        }
    }
    return true;
}

/* Are a mass and its rotational inertia about its centre (of the sums add_mass makes) within
 * RC_MAX_MASS and RC_MAX_ROTATIONAL_INERTIA? */
static bool mass_within_limits(const double sums[4]) {
    double mass = sums[0];
    if (!(mass <= RC_MAX_MASS)) {
        return false;
    }
    /* about the centre of mass, by the parallel axis theorem */
    double about_center = mass > 0.0 ? sums[3] - (sums[1] * sums[1] + sums[2] * sums[2]) / mass : sums[3];
    return about_center <= RC_MAX_ROTATIONAL_INERTIA;
}

/* Does a shape add to its body's mass? */
static bool weighs_in(const rc_shape *shape) { return shape->density != 0.0f && shape->kind != RC_SHAPE_SEGMENT; }

/* The mass sums beside a body's record. */
static rc_body_mass_sums *masses_of(const rc_world *world, const rc_body *b) {
    return &world->body_masses.data[b - world->bodies.data];
}

void rc_body_resum_mass(rc_world *world, rc_body *b) {
    /* from the oldest shape (the list's tail) to the newest: the list is turned round in place,
       walked, and turned back (no memory taken, and the order a shape added adds its own in) */
    rc_shape *shapes = world->shapes.data;
    int32_t reversed = -1;
    for (int32_t s = b->first_shape; s >= 0;) {
        int32_t next = shapes[s].next_in_body;
        shapes[s].next_in_body = reversed;
        reversed = s;
        s = next;
    }
    double sums[4] = {0.0, 0.0, 0.0, 0.0};
    int32_t restored = -1;
    for (int32_t s = reversed; s >= 0;) {
        if (weighs_in(&shapes[s]) && !add_mass(rc_shape_mass(world, &shapes[s]), sums)) {
            sums[0] = INFINITY; /* beyond every limit (a static body's shape may weigh that) */
        }
        int32_t next = shapes[s].next_in_body;
        shapes[s].next_in_body = restored;
        restored = s;
        s = next;
    }
    rc_body_mass_sums *m = masses_of(world, b);
    memcpy(m->sums, sums, sizeof sums);
    m->stale = false;
}

void rc_body_add_shape_mass(rc_world *world, rc_body *b, int32_t shape) {
    rc_body_mass_sums *m = masses_of(world, b);
    if (!m->stale && weighs_in(&world->shapes.data[shape]) &&
        !add_mass(rc_shape_mass(world, &world->shapes.data[shape]), m->sums)) {
        m->sums[0] = INFINITY;
    }
}

void rc_body_mass_changed(rc_world *world, const rc_body *b) { masses_of(world, b)->stale = true; }

bool rc_body_mass_fits(const rc_world *world, const rc_body *b, const rc_mass_data *extra, int32_t replaced) {
    double sums[4] = {0.0, 0.0, 0.0, 0.0}; /* mass, its moments about the origin, inertia about it */
    if (extra != NULL && !add_mass(*extra, sums)) {
        return false;
    }
    const rc_body_mass_sums *m = masses_of(world, b);
    if (replaced < 0 && !m->stale) {
        /* what its shapes weigh now, and the new one */
        for (int k = 0; k < 4; ++k) {
            sums[k] += m->sums[k];
        }
        return mass_within_limits(sums);
    }
    for (int32_t s = b->first_shape; s >= 0; s = world->shapes.data[s].next_in_body) {
        const rc_shape *shape = &world->shapes.data[s];
        if (s == replaced || shape->density == 0.0f || shape->kind == RC_SHAPE_SEGMENT) {
            continue;
        }
        if (!add_mass(rc_shape_mass(world, shape), sums)) {
            return false;
        }
    }
    return mass_within_limits(sums);
}

/* Mass, centre and inertia from the shapes; a dynamic body without mass gets its point mass so
 * that it still responds to impulses (a point bullet, for one). Then its motion. */
void rc_body_update_mass(rc_world *world, rc_body *b) {
    rc_body_update_motion(world, b);
    b->custom_mass = false; /* the shapes decide again */
    b->mass = 0.0f;
    b->inv_mass = 0.0f;
    b->inertia = 0.0f;
    b->inv_inertia = 0.0f;
    b->local_center = rc_v2(0.0f, 0.0f);
    if (b->type == RC_STATIC) {
        b->center = b->xf.p;
        b->min_extent = 0.0f;
        b->max_extent = 0.0f;
        return;
    }
    /* (a kinematic body turns about its origin: its shapes' reach from there is how far its turn
       carries them, the contacts' speculative margin, contact_collide.c: with none, a blade
       turning at 5 rad/s came 0.11 into a crate at rest before its contact pushed) */
    b->max_extent = -1.0f;
    world->extents_stale = true;
    if (b->type != RC_DYNAMIC) {
        b->center = b->xf.p;
        return;
    }
    if (masses_of(world, b)->stale) {
        rc_body_resum_mass(world, b);
    }
    const double *sums = masses_of(world, b)->sums;
    float mass = (float)sums[0];
    /* A mass whose inverse is beyond float range (shapes of a denormal area) counts as none:
       its inverse made the centre NaN. */
    if (mass > 0.0f && rc_is_finite(mass) && rc_is_finite(1.0f / mass)) {
        b->mass = mass;
        b->inv_mass = 1.0f / mass;
        b->local_center = rc_v2((float)(sums[1] / sums[0]), (float)(sums[2] / sums[0]));
        /* about the centre of mass, by the parallel axis theorem */
        float inertia = (float)(sums[3] - (sums[1] * sums[1] + sums[2] * sums[2]) / sums[0]);
        if (inertia > 0.0f && rc_is_finite(1.0f / inertia) && !b->fixed_rotation) {
            b->inertia = inertia;
            b->inv_inertia = 1.0f / inertia;
        }
    } else {
        b->mass = b->point_mass;
        b->inv_mass = 1.0f / b->point_mass;
    }
    b->center = rc_transform_point(b->xf, b->local_center);
}
