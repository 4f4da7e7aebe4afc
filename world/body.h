/* world/body.h: bodies (body.c): the body record behind an rc_body_id, its mass, its shapes' placement and its
 * extents (continuous.c reads them). The world's slot array and id pool hold the records. */
#ifndef RICOCHET_WORLD_BODY_H
#define RICOCHET_WORLD_BODY_H

#include <ricochet/world.h>

#include <stdint.h>
#include <string.h>

#include "shapes/collide.h"
#include "shapes/shapes.h"

typedef struct rc_body {
    /* what the narrow phase reads for every contact of the body, first (one cache line) */
    rc_transform xf;       /* of the body origin; xf.q is always rc_rot_from_angle(angle) */
    rc_vec2 center;        /* centre of mass in the world */
    rc_vec2 linear_velocity; /* of the centre of mass */
    float angular_velocity;
    float min_extent, max_extent; /* of its solid shapes about the centre of mass: how fast is fast
                                     (continuous.c); max_extent < 0: to be worked out again, its
                                     shapes changed since the last step (rc_bodies_refresh_extents) */
    uint8_t type;        /* rc_body_type */
    uint8_t motion;      /* rc_body_motion, from the type, the flags and the shapes */
    bool in_use, bullet, awake, enable_sleep, fixed_rotation, enable_response;
    bool moved;          /* moved in the current step */
    bool custom_mass;    /* the game set its mass data (until its shapes or type change) */
    /* a dynamic body's contacts with static or kinematic bodies (contact.c keeps it as contacts
       come and go, rc_body_set_type as types change, restores count again); at UINT8_MAX it
       stays there (a grenade, whose sweep reads it, meets a few). 0: nothing of the level is near
       it (a held grenade's sweep may skip its cast) */
    uint8_t level_contacts;
    /* of those, the contacts with kinematic bodies (kept alike, at UINT8_MAX it stays there):
       equal to level_contacts, none is with a static body */
    uint8_t kinematic_contacts;
    int32_t solver_slot;    /* step scratch: its place among the solver's bodies, -1 when none */
    rc_vec2 local_center;  /* centre of mass in the body frame */
    float angle;
    float mass, inv_mass, inertia, inv_inertia; /* inertia about the centre of mass */
    float linear_damping, angular_damping, gravity_scale;
    float sleep_time;
    int32_t max_bounces;
    int32_t first_shape; /* shape index, -1 when none */
    uint32_t generation; /* of the id naming it (rc_world_generation) */
    rc_vec2 force;       /* applied since the last step (rc_body_apply_force), cleared by the step */
    float torque;
    float point_mass;
    rc_filter point_filter;
    int32_t swept_shape;    /* RC_MOTION_SWEPT_CIRCLE: the circle; else -1 */
    int32_t last_hit_shape; /* the shape of its latest impact (-1: none) and the step it was in */
    int32_t last_hit_step;
    int32_t bounces_left;   /* of its life: -1 no limit, 0 spent (rc_body_def.bounce_budget) */
    int32_t bounces_made;   /* in its life (an impact event's bounce), up to INT32_MAX */
    int32_t step_bounces;   /* step scratch: bounces the solver made in this step */
    void *user_data;
    /* step scratch, while `moved` and a sweep may meet it (move.c): how far its centre of mass
       (a swept circle: its circle's centre) moved in this step, and how far it turned (0 for a
       swept circle) */
    rc_vec2 step_move;
    float step_turn;
    int32_t first_joint; /* its joints' list (world/joint.h), -1 when none; not in snapshots */
} rc_body;

/* A body's shapes' mass (not segments', nor of density 0), beside its record (world->body_masses,
 * by body index): the mass, its moments about the origin and the inertia about the origin, in
 * the body frame, added up in double from its oldest shape to its newest (rc_body_resum_mass),
 * so that a shape added adds its own (a compound of n shapes is built in O(n), not O(n^2)) and
 * the sums are what its shapes alone say. Stale: to be added up again before they are read (not
 * in snapshots: a restored world's are). */
typedef struct rc_body_mass_sums {
    double sums[4];
    bool stale;
} rc_body_mass_sums;

_Static_assert(sizeof(rc_body) == 192, "a body record is three cache lines");

void rc_body_place_shapes(rc_world *world, rc_body *body); /* geometry and grid, after a teleport */
/* A change of shapes or flags can make another shape the body's swept circle (whose proxy box
 * is grown): room for the two proxies to move, then move them (and flag their contacts). */
bool rc_body_reserve_swept_change(rc_world *world);
/* Copy the body's type and bullet flag into its shapes (after either changed). */
void rc_body_sync_shapes(rc_world *world, const rc_body *body);
void rc_body_refresh_swept(rc_world *world, rc_body *body, int32_t old_swept);
/* Could the body be a bullet with one more shape (solid or not, circle or not) on it? */
bool rc_body_can_be_bullet(const rc_world *world, const rc_body *body, bool adding_solid, bool adding_circle);
void rc_body_wake(rc_body *body);
/* Its speed changed between steps (set, or an impulse): its shapes' proxies are listed among the
 * grid's moved ones (their boxes stay), so that the step's start looks ahead along the new speed
 * (move.c: rc_look_ahead_at_start) and its pairs are found in time, and its contacts are flagged,
 * so that it finds their manifolds again along the new speed (body_forces.c). */
void rc_body_list_speed_change(rc_world *world, const rc_body *body);
/* May a swept body bounce at all (max_bounces above 0 and bounces left in its life)? */
static inline bool rc_body_can_bounce(const rc_body *body) { return body->max_bounces > 0 && body->bounces_left != 0; }
/* A kinematic body with a velocity: what touches it is carried or pushed, not at rest. */
static inline bool rc_body_moving_kinematic(const rc_body *b) {
    return b->type == RC_KINEMATIC &&
           (b->linear_velocity.x != 0.0f || b->linear_velocity.y != 0.0f || b->angular_velocity != 0.0f);
}
/* No force and no torque applied since the last step: all three +0, bit for bit (a -0 force is
 * a force here: its products keep their signs). */
static inline bool rc_body_unforced(const rc_body *b) {
    uint32_t bits[3];
    memcpy(&bits[0], &b->force.x, sizeof bits[0]);
    memcpy(&bits[1], &b->force.y, sizeof bits[1]);
    memcpy(&bits[2], &b->torque, sizeof bits[2]);
    return (bits[0] | bits[1] | bits[2]) == 0u;
}
rc_transform rc_body_origin_from_center(rc_vec2 center, float angle, rc_vec2 local_center);
/* The same where the rotation is at hand (a body's xf.q is always rc_rot_from_angle(angle)). */
static inline rc_transform rc_body_origin_at(rc_vec2 center, rc_rot q, rc_vec2 local_center) {
    rc_transform xf = {rc_sub(center, rc_rotate(q, local_center)), q};
    return xf;
}

/* What the step does with the body: a bullet with no solid shape is a swept point; a bullet
 * or a grenade whose one solid shape is a circle is a swept circle (*swept_shape: that circle,
 * else -1); anything else moves by its velocity. Only dynamic bodies look at their shapes
 * (static ones may have thousands). */
rc_body_motion rc_body_motion_of(const rc_world *world, const rc_body *body, int32_t *swept_shape);

/* The body's min_extent and max_extent, from its solid shapes (after its mass is updated). */
void rc_body_extents(const rc_world *world, rc_body *body);
/* The extents of every body whose shapes changed since the last step (max_extent < 0; the step
 * asks first: worked out once however many shapes were added). */
void rc_bodies_refresh_extents(rc_world *world);
/* How the body moves (rc_body_motion_of), its swept circle marked. */
void rc_body_update_motion(rc_world *world, rc_body *body);
/* Add up a body's mass sums (rc_body_mass_sums) again, from its oldest shape to its newest
 * (body_mass.c, with the rest of this block). */
void rc_body_resum_mass(rc_world *world, rc_body *body);
/* A shape just put at the head of the body's list adds its mass (stale sums are left to
 * rc_body_update_mass, which adds them all up again). */
void rc_body_add_shape_mass(rc_world *world, rc_body *body, int32_t shape);
/* A shape of the body went, or its geometry or density changed: its sums are stale. */
void rc_body_mass_changed(rc_world *world, const rc_body *body);

#endif
