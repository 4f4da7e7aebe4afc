/* world/contact.h: contacts (contact.c): one per overlapping shape pair the broadphase reports, kept in a hash map
 * and in per-shape lists; their manifolds (the narrow phase) and what the solver reads of them. */
#ifndef RICOCHET_WORLD_CONTACT_H
#define RICOCHET_WORLD_CONTACT_H

#include <ricochet/world.h>

#include "core/id_pool.h"
#include "core/map.h"
#include "shapes/collide.h"
#include "shapes/shapes.h"
#include "world/body.h"
#include "world/shape.h"
#include "world/solver.h"

/* A contact sits in the lists of both its shapes: edge k links it in the list of shape[k]. */
typedef struct rc_contact_edge {
    int32_t prev, next;
} rc_contact_edge;

/* A point of a contact's manifold, as the solver keeps it from step to step. */
typedef struct rc_contact_point {
    rc_vec2 point;              /* in the world, midway between the surfaces */
    rc_vec2 anchor_a, anchor_b; /* from each body's centre of mass to the point */
    float separation;           /* signed: < 0 overlap */
    float normal_impulse, tangent_impulse; /* the solver's, per sub-step: the next solve starts there */
    float approach;             /* the normal speed it was made with (> 0 closing), for events */
    uint16_t id;                /* the features it comes from (rc_collide_hulls) */
    /* where the point's two surfaces were at the last full narrow phase (while the contact's
       manifold is kept: rc_contact's kept), each in its own body's frame */
    rc_vec2 local_a, local_b;
} rc_contact_point;

/* What the walks of the contact lists read (gathering constraints, waking islands, linking)
 * comes first, in one cache line; the manifolds after it. */
typedef struct rc_contact {
    int32_t shape[2]; /* shape indices, shape[0] < shape[1] */
    int32_t body[2];  /* their bodies' indices */
    rc_contact_edge edge[2];
    int32_t point_count;  /* within the contact margin: speculative ones too */
    bool in_use, touching, sensor;
    bool flagged; /* look at it in the next step even if its bodies are still */
    bool placed;  /* made touching at the step's start (its shapes were put there between steps):
                     touched already for the step's first touches; false again within the step */
    float rolling_impulse;
    rc_vec2 normal;       /* unit, from shape[0] towards shape[1] */
    rc_contact_point points[2];
    rc_manifold manifold; /* the events' view of the points that touch */
    /* What the last full narrow phase keeps (rc_contact_collide), while the two bodies move
       relative to each other by little since it (a pile at rest, a stack settling):
       RC_KEPT_FACE + the face its points were clipped against (rc_collide_views_faces), clipped
       against again; RC_KEPT_POINTS: its points' surfaces (local_a, local_b), measured again;
       RC_KEPT_NONE. */
    uint8_t kept;
    /* A pair of polygons or capsules that its last full narrow phase found apart: the edge that
       separated them, plus 1 (rc_hulls_apart_on_axis; 0: none). Asked first the next time, it
       finds most such pairs still apart at a tenth of the cost. Exact, so never state: not in
       snapshots, and any value gives the same manifold. */
    uint8_t apart_axis;
    rc_vec2 kept_normal;     /* in body[0]'s frame */
    rc_transform kept_frame; /* body[1]'s frame in body[0]'s then */
    /* with a kept face: how far body[1]'s shape may have moved in body[0]'s frame since the face
       was chosen (the sum of its moves between the clips against it) */
    float face_drift;
    /* to four cache lines, in an array aligned to them (contact.c, compact.c, snapshots): each
       contact's first line is its own, as the walks want */
    uint8_t to_lines[8];
} rc_contact;
_Static_assert(sizeof(rc_contact) == 256, "a contact is four cache lines");

/* What a contact keeps of its last full narrow phase (rc_contact's kept). */
enum { RC_KEPT_NONE = 0, RC_KEPT_POINTS = 1, RC_KEPT_FACE = 2 }; /* RC_KEPT_FACE + the face */
#define RC_KEPT_LIMIT (RC_KEPT_FACE + 2 * RC_AXIS_OF_B) /* kept is below it */

/* How far, in linear slops, two bodies may move relative to each other before kept points are
 * found again in full: any point of theirs moves at most a tenth of a slop, so no other feature
 * can come within the margin unseen but by that much. */
#define RC_KEEP_MANIFOLD 0.1f

/* The same for a kept face, summed over the steps since the full narrow phase chose it (its
 * face_drift): its points are clipped again where the bodies are, the same bits as the full
 * narrow phase gives while it would choose that face; what keeping it can miss is another face
 * come to separate the hulls more, by no more than twice the motion (each face's separation
 * changes by no more than it). Four slops keep a settling pile's faces for several steps: rain
 * (600 steps) -1.8% of instructions, tumbler -1.8%, large pyramid -4.1%. */
#define RC_KEEP_FACE 4.0f

/* The least cosine between a contact's last normal and its new one for the impulses to be
 * carried over by feature id (60 degrees): past it the features touch another way (a body
 * squeezed through a wall's middle sees the wall's normal flip), and warm starting with the
 * impulse that held it on the other side would throw it out. */
#define RC_CARRY_TURN 0.5f

/* Contacts. */
/* A pair's key in the world's contact map. */
static inline uint64_t rc_contact_key(int32_t a, int32_t b) {
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return (uint64_t)lo << 32 | hi;
}
bool rc_contact_reserve(rc_world *world, int32_t extra);
/* Contact c counted (delta +1) or no longer counted (-1) in its dynamic bodies' level_contacts
 * (rc_body), by the bodies' types now; rc_contacts_count_levels counts every body's again. */
void rc_contact_count_level(rc_world *world, const rc_contact *c, int delta);
void rc_contacts_count_levels(rc_world *world);
int32_t rc_contact_create(rc_world *world, int32_t shape_a, int32_t shape_b); /* needs rc_contact_reserve */
void rc_contact_destroy(rc_world *world, int32_t contact, bool emit_end);
/* Where the contact slots stood before contacts were made (a step's start), and those contacts
 * taken back exactly as if never made (a step that fails): the ids' free list and counts, the
 * array's count, the shapes' lists, the bodies' counts. Only contacts made since the mark, none
 * touching, with nothing destroyed in between. */
typedef struct rc_contact_mark {
    rc_id_pool_mark ids;
    int32_t count;
} rc_contact_mark;
rc_contact_mark rc_contact_mark_now(const rc_world *world);
void rc_contacts_take_back(rc_world *world, const int32_t *made, int32_t count, rc_contact_mark mark);
void rc_shape_destroy_contacts(rc_world *world, int32_t shape);
/* Something about the shape or body changed outside the step (a teleport, a filter, a type):
 * its contacts are looked at in the next step even if no body there is awake. */
void rc_shape_flag_contacts(rc_world *world, int32_t shape);
void rc_body_flag_contacts(rc_world *world, const rc_body *body);
bool rc_contacts_reserve_events(rc_world *world);
/* In the step: wake a sleeping body and its island (what touches it or is jointed to it, and so
 * on), so that bodies that sleep together wake together. Each body woken is marked active
 * (world->body_active), and while world->wakes_undone is set (the sweeps, when the step can
 * still fail) logged for the step's undoing. A body that is awake or not dynamic is only woken. */
void rc_wake_island(rc_world *world, int32_t start);

/* Walking only the contacts of the awake bodies (contact_walk.c). A step looks at the contacts
 * that have an awake body (or were just made or flagged); where most bodies sleep, walking all
 * of them to skip the sleeping ones was most of the step (a sleeping pyramid of 5,050 boxes:
 * 0.07 ms a step). Then the contacts of the awake bodies are marked in a bitset over contact
 * indices and walked in index order: the same contacts in the same order as the whole walk.
 * A contact marked while the walk runs (a body woken by it) is met if its index is ahead. */
bool rc_contact_marks_reserve(rc_world *world); /* room for a bit per contact; clears them */
/* Are so few bodies awake that marking their contacts costs less than walking all contacts? */
bool rc_contacts_few_awake(const rc_world *world, int32_t awake_bodies);
void rc_mark_body_contacts(rc_world *world, int32_t body);
/* The next marked contact from *next on (then *next is past it), -1 at the end. */
int32_t rc_next_marked_contact(const rc_world *world, int32_t *next);
void rc_contact_marks_clear(rc_world *world);

/* How squarely what holds a dynamic body braces it against a push along -n (n: unit): the
 * largest cosine with n of the normals (from that body towards this one) of its touching
 * contacts with static or kinematic bodies, and with dynamic ones that hold it up (the solver's
 * last sub-step pushed it off one within 60 degrees of below it: a crate on a crate on the
 * floor), that normal in *normal; 0 (and *normal untouched) when none is positive. A point
 * bullet resting on a light prop on the floor pushed it into the floor at every step and kept
 * the speed the floor took from the prop (projectile.c's bounce). */
float rc_body_brace(const rc_world *world, int32_t body, rc_vec2 n, rc_vec2 *normal);

/* At the step's start: contacts flagged since the last step (a teleport, a new shape or
 * filter) get their manifolds where the bodies are now, so the solver does not read stale
 * ones. Events stay with rc_contacts_update. */
void rc_contacts_refresh(rc_world *world);
/* Room for rc_contacts_refresh to keep the flagged contacts as they were (false: out of memory,
 * nothing changed); and put them back as they were, the last kept first (a step that failed). */
bool rc_contacts_reserve_refresh(rc_world *world);
void rc_contacts_refresh_undo(rc_world *world);
void rc_contacts_update(rc_world *world);

/* The narrow phase and the solver's view of contacts. */

/* A shape's hull in its body's frame (a chain's wall: its ends, no radius). */
rc_hull rc_shape_hull(const rc_world *world, const rc_shape *s);
/* The same hull as a view: of the pool where a polygon's or a capsule's already is (no copy),
 * else of the hull built in room. */
rc_hull_view rc_shape_hull_view(const rc_world *world, const rc_shape *s, rc_hull *room);
/* How near two shapes' manifold looks (speculatively): a swept circle's contact margin, or the
 * world's speculative distance (four linear slops); 0 for a sensor. */
float rc_contact_margin(const rc_world *world, const rc_shape *a, const rc_shape *b);
/* The manifold of hull ha (of shape a, its body at xa) against hull hb (of shape b, its body at
 * xb), in the world: normal from a to b. Either shape may be NULL for a hull of no shape (a
 * body being previewed). Chain walls are smooth over their joints and one-sided walls let
 * through what is behind them; two walls never touch. */
rc_collision rc_collide_pair(const rc_world *world, const rc_shape *a, const rc_hull *ha, rc_transform xa,
                            const rc_shape *b, const rc_hull *hb, rc_transform xb, float margin);
/* The manifold of a circle shape a (on body_a) against circle b, both placed in the world:
 * what rc_collide_pair gives for them up to rounding, without hulls. The step and the preview
 * both take it for two circles, so that they agree. */
rc_collision rc_collide_circle_shapes(const rc_shape *a, const rc_body *body_a, rc_circle b, float margin);
/* (A constraint's materials and points from a contact's: rc_constraint_materials and
 * rc_constraint_load, inline in world_internal.h.) */
/* Is a contact a strike that the swept body's sweep makes, not the solver: a swept circle
 * moving into a static or kinematic shape at restitution_threshold or faster by its own
 * velocity (normal: from the shape towards the swept body), far enough in the step of dt to
 * close the contact's gap (its least separation; a body resting on the shape, whatever the
 * threshold, is the solver's to hold). The sweep then bounces it exactly,
 * counts the bounce against its budget and goes on for the rest of the step; solved, the
 * bounce came after the step's motion (the body stood at the wall for a step) and outside
 * max_bounces (a bullet stopped at its limit ricocheted next step with max_bounces set to 0). */
bool rc_swept_strike(const rc_world *world, rc_vec2 velocity, rc_vec2 normal, float gap, float dt);
/* The least separation of count (> 0) contact points. */
float rc_contact_least_separation(const rc_contact_point *points, int32_t count);
/* One more point of an event's manifold (rc_manifold: room for two), at `separation` (its depth
 * that overlap, 0 where it does not overlap): the manifold a contact keeps for its events
 * (rc_contact_collide) and a brief touch's (contact.c). */
static inline void rc_manifold_add_point(rc_manifold *m, rc_vec2 point, float separation) {
    int32_t n = m->point_count++;
    m->points[n] = point;
    m->depths[n] = rc_maxf(-separation, 0.0f);
    m->depth = rc_maxf(m->depth, m->depths[n]);
}
/* rc_swept_strike for a world contact in a step of world->contact_dt, of a contact that may be
 * a strike at all (rc_contact_may_strike, inline in world_internal.h, which the caller asks
 * first: one side a swept circle, the other static or kinematic). */
bool rc_contact_is_swept_strike(const rc_world *world, const rc_contact *c);
/* After the solve: the first point of a constraint that met its bodies approaching at least at
 * the restitution threshold (the world's) and pushed (a bounce: an impact for a swept body), and
 * that speed; -1 when none. */
static inline int32_t rc_constraint_bounce(float restitution_threshold, const rc_contact_constraint *k,
                                           float *approach) {
    for (int32_t p = 0; p < k->point_count; ++p) {
        float a = -k->points[p].relative_velocity;
        /* approaching (a threshold of 0 lets any approach bounce, but not a standstill) */
        if (a > 0.0f && a >= restitution_threshold && k->points[p].max_normal_impulse != 0.0f) {
            *approach = a;
            return p;
        }
    }
    return -1;
}
/* A slow first touch (a grenade set down gently): a point of a contact that did not touch at the
 * step's start (and whose shape the body did not rest on) that pushed while approaching; the
 * point that approached fastest, or -1. */
static inline int32_t rc_constraint_first_touch(const rc_contact_constraint *k, bool touched_before,
                                                float *approach) {
    int32_t best = -1;
    float fastest = 0.0f;
    for (int32_t p = 0; p < k->point_count && !touched_before; ++p) {
        if (k->points[p].normal_impulse > 0.0f && -k->points[p].relative_velocity > fastest) {
            fastest = -k->points[p].relative_velocity;
            best = p;
        }
    }
    *approach = fastest;
    return best;
}
/* What the seams of the level's polygons are, kept while the level stays as it is (contact_seam.c):
 * for each static polygon a solid met near a face's end, per face, a neighbour found covering
 * it and one found running on flat through each of its ends (found whatever the filters say, and
 * asked of the solid's filter when used; -1: none), so that the level's grid is asked once per
 * face, not at every such contact in every step (a fifth of the step of crates sliding over a
 * floor of tiles). */
typedef struct rc_seam_faces {
    int32_t covered_by[RC_MAX_POLYGON_VERTICES];
    int32_t runs_on[RC_MAX_POLYGON_VERTICES][2]; /* [0]: through the face's end vertex i + 1, [1]: vertex i */
} rc_seam_faces;

typedef struct rc_seam_cache {
    rc_map map;         /* shape index -> entry */
    rc_seam_faces *faces;
    int32_t count, capacity;
    uint64_t revision;  /* the world's level_revision + 1 the entries are of (0: none) */
} rc_seam_cache;

/* Give the cache's memory back (the world's end; compaction once the level changed). */
void rc_seam_cache_free(rc_world *world);

/* A circle's one-point manifold with the corner of a static or kinematic polygon where another
 * such polygon's face runs on through that corner (a seam between boxes laid edge to edge)
 * becomes the manifold with that face: its normal, the separation along it (contact_seam.c). */
void rc_smooth_seam(const rc_world *world, const rc_shape *a, const rc_shape *b, rc_collision *m);
/* The same for a solid polygon or capsule (a's and b's manifold m in the world, within margin)
 * against a static or kinematic polygon whose faces other such polygons cover or run on from
 * (boxes laid edge to edge): met as the chain of its faces that are surfaces, smooth where a
 * neighbour runs on. True when m changed (it may then have no points: the solid touches only
 * covered faces). */
bool rc_smooth_solid_seam(rc_world *world, const rc_shape *a, const rc_shape *b, float margin, rc_collision *m);
/* Is `point` (with the normal `outward` of the static or kinematic polygon) on a face that
 * another such polygon covers, within a skin of a corner where another's face runs on flat, or
 * at such a corner with the normal leaning that way, for a body moving by `motion` in the step
 * (its points turning by up to `swing` more) along that surface, so that it meets the seam only
 * as it slides over it, into the surface by no more than `depth` (continuous collision: a crate
 * sliding over boxes laid edge to edge meets no seam; one thrown at them, or spinning, meets
 * them)? */
bool rc_seam_hidden(const rc_world *world, const rc_shape *polygon, const rc_shape *other, rc_vec2 point,
                    rc_vec2 outward, rc_vec2 motion, float swing, float depth);
/* Recompute a contact's manifold where its bodies are now (carrying impulses over by feature
 * id) and say whether it touches. may_keep: a kept manifold may serve (nothing about the shapes
 * changed but where their bodies are). */
bool rc_contact_collide(rc_world *world, int32_t contact, bool may_keep);

#endif
