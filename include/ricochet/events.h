/* ricochet: events.h
 * What the step reports, read after it: contact begin and end events, sensor events, impact
 * events, the bodies that moved; the contacts touching now (their manifolds); and the pre-solve
 * callback, which may change or cancel a hit as the step resolves it. Part of the world's API:
 * world.h includes it, and its units, ownership, errors, callbacks and threads are world.h's. */
#ifndef RICOCHET_EVENTS_H
#define RICOCHET_EVENTS_H

#include "world.h"

RC_EXTERN_C_BEGIN

/* ---- events --------------------------------------------------------------------------------- */

/* Two shapes began to touch this step: solid shapes within linear_slop of each other, a swept
 * circle within its contact margin of a solid shape, a sensor overlapping a shape. Shapes of a
 * pair are ordered by shape id. The manifold's points are those within that reach (a point
 * that does not overlap has depth 0).
 * A touch made and ended within one step (the solver met two solid shapes closing at
 * restitution_threshold or faster and bounced them apart, and they touched neither at the
 * step's start nor at its end) gives a begin and an end event in the same step, both with the
 * points that pushed, where the solve had them (depth 0 at a point that did not overlap yet). */
typedef struct rc_contact_begin_event {
    rc_shape_id shape_a, shape_b;
    rc_manifold manifold; /* normal from a to b, depth and points */
    float approach_speed; /* how fast they closed along the normal when they met, units/s (>= 0) */
} rc_contact_begin_event;

/* Two shapes stopped touching this step, or one of them was destroyed (then its id is
 * stale); the manifold is the last one they had. */
typedef struct rc_contact_end_event {
    rc_shape_id shape_a, shape_b;
    rc_manifold manifold;
} rc_contact_end_event;

typedef struct rc_contact_events {
    const rc_contact_begin_event *begin;
    int32_t begin_count;
    const rc_contact_end_event *end;
    int32_t end_count;
} rc_contact_events;

/* A shape began or stopped overlapping a sensor. */
typedef struct rc_sensor_event {
    rc_shape_id sensor, visitor;
} rc_sensor_event;

typedef struct rc_sensor_events {
    const rc_sensor_event *begin;
    int32_t begin_count;
    const rc_sensor_event *end;
    int32_t end_count;
} rc_sensor_events;

/* This step's events, in the order they happened; empty before the first step and for a bad
 * world. Shape destruction between steps adds end events to the next step's lists. */
RC_API rc_contact_events rc_world_contact_events(const rc_world *world);
RC_API rc_sensor_events rc_world_sensor_events(const rc_world *world);

/* A swept body struck a shape: one event per bounce, one when a bullet with max_bounces = 0
 * embeds itself, and one when a point starts a step inside a shape. A body that stops at a
 * contact because it reached its bounce limit reports that bounce in the next step, when it
 * makes it. A body slower than restitution_threshold against a shape it already touched (in
 * its previous step, or resting on it) is resting, not striking, and reports nothing. */
typedef struct rc_impact_event {
    rc_body_id projectile;     /* the bullet or dynamic body that struck */
    rc_shape_id shape;         /* what it struck */
    rc_vec2 point, normal;     /* where, and the surface normal there (pointing at the projectile) */
    float approach_speed;      /* speed along the normal just before the bounce, > 0 */
    int32_t bounce;            /* which bounce of the projectile's life this is (1 for its first); 0 when
                                  it did not bounce here (it stopped dead, started inside the shape, or
                                  came slower than restitution_threshold: a touch, which spends no
                                  bounce of its budget) */
    bool spent;                /* it stopped dead here, its bounces used up (max_bounces 0, or its
                                  bounce budget made): it will not move on by itself */
} rc_impact_event;

/* A body that moved in the step (by its velocity, the solver or its sweep), or fell asleep in
 * it: where it is now, for a game to move its sprite without looking at every body. */
typedef struct rc_body_move_event {
    rc_body_id body;
    rc_transform transform; /* of the body origin */
    void *user_data;
    bool fell_asleep;
} rc_body_move_event;

/* This step's move events, in body order: *events points into the world until the next step
 * (NULL when there are none). Returns the count; -1 for a NULL world or events. */
RC_API int rc_world_body_move_events(const rc_world *world, const rc_body_move_event **events);

/* This step's impacts, in the order they happened: *events points into the world until the
 * next step (NULL when there are none). Returns the count; -1 for a NULL world or events. */
RC_API int rc_world_impact_events(const rc_world *world, const rc_impact_event **events);

/* The shapes touching a shape now: fills up to capacity, returns how many there are, -1 on a
 * bad id (or NULL ids with capacity > 0). */
RC_API int32_t rc_shape_contacts(const rc_world *world, rc_shape_id shape, rc_shape_id *ids, int32_t capacity);

/* A contact that touches now, as the last step left it (what a begin event would report):
 * its shapes ordered by shape id, and its manifold (normal from a to b; the points within
 * linear_slop, or within a swept circle's margin; a point that does not overlap has depth 0). */
typedef struct rc_contact_data {
    rc_shape_id shape_a, shape_b;
    rc_manifold manifold;
} rc_contact_data;

/* The touching contacts of a shape (a chain: of all its segments), or of all of a body's
 * shapes: fills up to capacity of them into data (in the order of the shapes' contact lists:
 * the same for the same calls) and returns how many there are, so that a call with data NULL
 * and capacity 0 sizes the array. -1 (and the last error) on a bad id, NULL data with
 * capacity > 0 or a negative capacity. A contact between two shapes of the query is reported
 * once per shape it touches: for a body, contacts between its own shapes do not exist. */
RC_API int32_t rc_shape_contact_data(const rc_world *world, rc_shape_id shape, rc_contact_data *data,
                                     int32_t capacity);
RC_API int32_t rc_body_contact_data(const rc_world *world, rc_body_id body, rc_contact_data *data, int32_t capacity);

/* ---- pre-solve ------------------------------------------------------------------------------ */

/* A hit about to be resolved, that the world's pre-solve callback may change for this hit alone
 * or cancel (glass that breaks, a shield that reflects, a platform passed from below): a contact
 * the solver is about to hold (two solid shapes touching, or closing within the step), or an
 * impact a sweep is about to make (a bullet or a grenade striking a shape). It is asked when
 * either shape has pre-solve events enabled (rc_shape_def.enable_pre_solve_events). */
typedef struct rc_pre_solve {
    rc_shape_id shape_a, shape_b; /* a contact: its two shapes, as its events name them; an
                                     impact: the projectile's circle (a null id for a point
                                     bullet) and the shape it strikes */
    rc_body_id body_a, body_b;    /* theirs (a preview's body: a null id) */
    rc_vec2 point;                /* in the world: a contact's first point, an impact's point of contact */
    rc_vec2 normal;               /* unit, from a towards b (an impact's is into the struck shape) */
    float approach_speed;         /* how fast a closes on b along the normal, units/s (< 0: parting) */
    int32_t point_count;          /* a contact's points (1 or 2); 1 for an impact */
    bool impact;                  /* a sweep's impact, else a solver contact */
    bool preview;                 /* asked by rc_world_predict about the body it previews: the
                                     world does not change, whatever the answer */
    /* in and out: the restitution and friction the hit is about to use (mixed from the two
       shapes; a point bullet takes the shape's); set them for this hit alone. Values that are
       not finite and >= 0 are refused (with an error message): the hit keeps its own. */
    float restitution, friction;
} rc_pre_solve;

/* Called for each hit about to be resolved; return false to cancel it: the two then pass
 * through each other for the rest of the step (a contact is not held; a sweep goes on as if
 * the shape were not there, and is not pushed out of it), and are asked again in the next step
 * if they still meet. The world is locked while it runs (see Callbacks): every call that
 * changes the world is refused (destroy the glass after the step). Queries and getters answer,
 * but inside rc_world_step they see the world half way through its step (the bodies that are
 * not swept already moved, some swept ones too). */
typedef bool rc_pre_solve_fn(rc_pre_solve *hit, void *context);

/* Sets the world's pre-solve callback (NULL: none, the default) and the context passed to it.
 * rc_world_step calls it on the thread that steps, in this order: the solver's contacts first,
 * body by body in index order and each body's by its shape index and then the other shape's
 * (a contact between two moving bodies comes with the lower index), then the sweeps' impacts,
 * grenades before bullets, each body in index order and its impacts in the order its sweep
 * makes them; the same calls give the same calls back. rc_world_predict calls it too, for its
 * previewed body's contacts and impacts, with preview set. False on a NULL or locked world. */
RC_API bool rc_world_set_pre_solve_callback(rc_world *world, rc_pre_solve_fn *fn, void *context);

RC_EXTERN_C_END

#endif
