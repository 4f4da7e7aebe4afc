/* world/level_lean.h: the level's lean copy for closest-hit casts (level_lean.c).
 *
 * Owns: a compact copy of the level grid's cells (broadphase/grid_lean.h) whose entries name
 * cast records rather than shapes. A cast record is what a closest-hit cast reads of a level
 * shape (its index, body, filter, kind and placed geometry) in one place, the records in the
 * order the cells first hold them: a ray that reaches a shape loads its record, not the shape's
 * 128-byte record and then, from it, its polygon's block (two misses one after the other, a
 * third of a ray's time). Sensors have none (casts never see them).
 *
 * The copy is made by the step when the level has changed (level_revision counts every change
 * of a static body or of a shape on one) and then stayed as it is for a while (none at first:
 * see rc_level_lean); casts use it while it is the level's and walk the grids otherwise, with
 * the same answers. */
#ifndef RICOCHET_WORLD_LEVEL_LEAN_H
#define RICOCHET_WORLD_LEVEL_LEAN_H

#include "broadphase/grid_lean.h"
#include "shapes/shapes.h"
#include "world/shape.h"

/* A cast record: this, then its geometry (rc_cast_record_data): a circle's placed centre and
 * radius (two entries), a segment's ends, a capsule's two centres and radius (three), a
 * polygon's placed centroid, vertices and normals (1 + 2 count). */
typedef struct rc_cast_record {
    int32_t shape, body;
    rc_filter filter;
    uint8_t kind, count;
    bool one_sided;
    uint8_t spare;
    uint32_t shape_generation, body_generation; /* of their ids, for the hit kept */
} rc_cast_record;

/* Records are laid out in units of an rc_vec2: a record's offset is its first unit. */
#define RC_CAST_RECORD_UNITS ((int32_t)(sizeof(rc_cast_record) / sizeof(rc_vec2)))
_Static_assert(sizeof(rc_cast_record) % sizeof(rc_vec2) == 0, "a cast record header is whole units");

typedef struct rc_level_lean {
    rc_grid_lean cells; /* each entry's user: the offset of its shape's record */
    rc_vec2 *records;
    size_t units;       /* of records */
    uint64_t revision;  /* the level_revision it is a copy of, plus 1 (0: none) */
    /* when to make it again (rc_level_lean_refresh): a level that changes again soon after each
       copy waits for longer quiet spells before the next, so that a game that changes its level
       every few steps does not pay for a copy of all of it every few steps */
    uint64_t seen_revision; /* the level_revision the last refresh saw */
    int32_t clock;          /* refreshes so far (the step's own count is restored by snapshots) */
    int32_t made_at;        /* the clock when the copy was made */
    int32_t quiet;          /* refreshes since the level last changed */
    int32_t wait;           /* how many it waits for before the next copy */
} rc_level_lean;

/* A copy that lasts fewer refreshes than this doubles the wait before the next (up to the
 * longest); one that lasts longer sets it back to none. */
#define RC_LEAN_SHORT_LIFE 16
#define RC_LEAN_LONGEST_WAIT 64

static inline const rc_vec2 *rc_cast_record_data(const rc_cast_record *r) { return (const rc_vec2 *)(const void *)(r + 1); }

static inline const rc_cast_record *rc_cast_record_at(const rc_level_lean *lean, int32_t offset) {
    return (const rc_cast_record *)(const void *)(lean->records + offset);
}

/* The shape's placed geometry as rc_shape_view_of gives it (the same numbers). */
static inline rc_shape_view rc_cast_record_view(const rc_cast_record *r) {
    const rc_vec2 *d = rc_cast_record_data(r);
    rc_shape_view v = {RC_SHAPE_CIRCLE, {{{0.0f, 0.0f}, 0.0f}}};
    v.kind = (rc_shape_kind)r->kind;
    if (r->kind == RC_SHAPE_POLYGON) {
        rc_convex c = {d + 1, d + 1 + r->count, r->count, d[0]};
        v.u.polygon = c;
    } else if (r->kind == RC_SHAPE_CAPSULE) {
        v.u.capsule.center1 = d[0];
        v.u.capsule.center2 = d[1];
        v.u.capsule.radius = d[2].x;
    } else if (r->kind == RC_SHAPE_SEGMENT) {
        v.u.segment.a = d[0];
        v.u.segment.b = d[1];
    } else {
        v.u.circle.center = d[0];
        v.u.circle.radius = d[1].x;
    }
    return v;
}

#endif
