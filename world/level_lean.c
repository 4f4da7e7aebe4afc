/* world/level_lean.c: making the level's lean copy for closest-hit casts (level_lean.h). */
#include "world/world_internal.h"

#include <string.h>

static size_t record_units(const rc_shape *s) {
    size_t geometry = s->kind == RC_SHAPE_POLYGON ? 1u + 2u * s->count : (s->kind == RC_SHAPE_CAPSULE ? 3u : 2u);
    return (size_t)RC_CAST_RECORD_UNITS + geometry;
}

static void write_record(const rc_world *world, int32_t index, rc_vec2 *at) {
    const rc_shape *s = &world->shapes.data[index];
    rc_cast_record r;
    memset(&r, 0, sizeof r);
    r.shape = index;
    r.body = s->body;
    r.filter = s->filter;
    r.kind = s->kind;
    r.count = s->count;
    r.one_sided = s->one_sided && s->kind == RC_SHAPE_SEGMENT;
    r.shape_generation = s->generation;
    r.body_generation = world->bodies.data[s->body].generation;
    memcpy(at, &r, sizeof r);
    rc_vec2 *d = at + RC_CAST_RECORD_UNITS;
    rc_shape_view v = rc_shape_view_of(world, s);
    if (s->kind == RC_SHAPE_POLYGON) {
        d[0] = v.u.polygon.centroid;
        memcpy(d + 1, v.u.polygon.vertices, sizeof(rc_vec2) * (size_t)s->count);
        memcpy(d + 1 + s->count, v.u.polygon.normals, sizeof(rc_vec2) * (size_t)s->count);
    } else if (s->kind == RC_SHAPE_CAPSULE) {
        d[0] = v.u.capsule.center1;
        d[1] = v.u.capsule.center2;
        d[2] = rc_v2(v.u.capsule.radius, 0.0f);
    } else if (s->kind == RC_SHAPE_SEGMENT) {
        d[0] = v.u.segment.a;
        d[1] = v.u.segment.b;
    } else {
        d[0] = v.u.circle.center;
        d[1] = rc_v2(v.u.circle.radius, 0.0f);
    }
}

/* Each level's entries less the sensors', their users the offsets of their shapes' records (in
 * the order the cells first name the shapes). False when the records would not fit an offset. */
static bool assign_offsets(const rc_world *world, rc_grid_lean *cells, int32_t *offsets, size_t *units) {
    size_t next = 0;
    for (int32_t k = 0; k < cells->count; ++k) {
        rc_lean_level *lv = &cells->levels[k];
        uint32_t kept = 0, slots = (uint32_t)lv->w * (uint32_t)lv->h;
        for (uint32_t slot = 0; slot < slots; ++slot) {
            uint32_t from = lv->starts[slot], to = lv->starts[slot + 1];
            lv->starts[slot] = kept;
            for (uint32_t i = from; i < to; ++i) {
                rc_lean_entry e = lv->entries[i];
                const rc_shape *s = &world->shapes.data[e.user];
                if (s->sensor) {
                    continue;
                }
                if (offsets[e.user] < 0) {
                    if (next > (size_t)INT32_MAX - record_units(s)) {
                        return false;
                    }
                    offsets[e.user] = (int32_t)next;
                    next += record_units(s);
                }
                e.user = offsets[e.user];
                lv->entries[kept++] = e;
            }
        }
        lv->starts[slots] = kept; /* (the entries array keeps its size: freed as allocated) */
    }
    *units = next;
    return true;
}

static bool make_records(rc_world *world, rc_level_lean *lean) {
    const rc_allocator *a = &world->allocator;
    size_t n = (size_t)world->shapes.count;
    int32_t *offsets = rc_mem_alloc(a, sizeof(int32_t) * (n > 0 ? n : 1u));
    if (offsets == NULL) {
        return false;
    }
    memset(offsets, 0xff, sizeof(int32_t) * n); /* -1: no record yet */
    size_t units = 0;
    bool ok = assign_offsets(world, &lean->cells, offsets, &units);
    if (ok && units > 0) { /* (none: a level of sensors) */
        rc_vec2 *records = rc_mem_alloc(a, sizeof(rc_vec2) * units);
        ok = records != NULL;
        if (records != NULL) {
            lean->records = records;
            lean->units = units;
            for (size_t i = 0; i < n; ++i) {
                if (offsets[i] >= 0) {
                    write_record(world, (int32_t)i, records + offsets[i]);
                }
            }
        }
    }
    rc_mem_free(a, offsets, sizeof(int32_t) * (n > 0 ? n : 1u));
    return ok;
}

/* The copy's memory back; its timing is kept. */
static void free_copy(rc_world *world) {
    rc_level_lean *lean = &world->level_lean;
    rc_grid_lean_free(&world->allocator, &lean->cells);
    rc_mem_free(&world->allocator, lean->records, sizeof(rc_vec2) * lean->units);
    lean->records = NULL;
    lean->units = 0;
    lean->revision = 0;
}

void rc_level_lean_free(rc_world *world) {
    free_copy(world);
    memset(&world->level_lean, 0, sizeof world->level_lean);
}

void rc_level_lean_refresh(rc_world *world) {
    rc_level_lean *lean = &world->level_lean;
    lean->clock++;
    if (lean->seen_revision != world->level_revision) {
        lean->seen_revision = world->level_revision;
        lean->quiet = 0;
        if (lean->revision != 0) {
            /* the copy went stale: how long did it serve? */
            bool short_life = lean->clock - lean->made_at < RC_LEAN_SHORT_LIFE;
            lean->wait = short_life ? (lean->wait > 0 ? 2 * lean->wait : 1) : 0;
            lean->wait = lean->wait < RC_LEAN_LONGEST_WAIT ? lean->wait : RC_LEAN_LONGEST_WAIT;
            free_copy(world);
        }
    } else {
        lean->quiet++;
    }
    if (rc_fresh_level_lean(world) != NULL || lean->quiet < lean->wait || world->lean_off ||
        rc_grid_proxy_count(world->level_grid) == 0) {
        return;
    }
    free_copy(world);
    if (!rc_grid_lean_build(world->level_grid, &world->allocator, &lean->cells) || !make_records(world, lean)) {
        free_copy(world); /* (casts walk the grids) */
        return;
    }
    lean->revision = world->level_revision + 1u;
    lean->made_at = lean->clock;
}
