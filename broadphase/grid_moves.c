/* A grid's moves apart from the rest of its state (broadphase.h: rc_grid_save_moves,
 * rc_grid_read_moves, rc_grid_set_moves): a world keeps the grid of its level whole between frames,
 * and only its moves (the moved list, each listed proxy's box before) change as steps forget
 * them, so a frame snapshot holds those alone. */
#include "broadphase/grid_internal.h"

/* Layout: tag "RGMV"; the moved count; each listed id with its box before. */
#define MOVES_TAG 0x564d4752u /* "RGMV" */

void rc_grid_save_moves(const rc_grid *grid, rc_bytes *out) {
    if (grid == NULL || out == NULL || out->reading) {
        if (out != NULL) {
            rc_bytes_fail(out);
        }
        return;
    }
    uint32_t tag = MOVES_TAG;
    rc_io_u32(out, &tag);
    int32_t count = grid->moved_count;
    rc_io_count(out, &count, INT32_MAX - 1);
    for (int32_t i = 0; i < count; ++i) {
        int32_t id = grid->moved[i];
        rc_aabb before = grid->befores[id];
        rc_io_i32(out, &id);
        rc_io_aabb(out, &before);
    }
}

void rc_grid_moves_free(const rc_grid *grid, rc_grid_moves *moves) {
    rc_allocator a = grid->allocator;
    rc_mem_free(&a, moves->ids, sizeof(int32_t) * (size_t)moves->count);
    rc_mem_free(&a, moves->befores, sizeof(rc_aabb) * (size_t)moves->count);
    moves->ids = NULL;
    moves->befores = NULL;
    moves->count = 0;
}

bool rc_grid_read_moves(rc_bytes *in, const rc_grid *grid, rc_grid_moves *moves) {
    memset(moves, 0, sizeof *moves);
    if (in == NULL || !in->reading || grid == NULL) {
        if (in != NULL) {
            rc_bytes_fail(in);
        }
        return false;
    }
    uint32_t tag = 0;
    rc_io_u32(in, &tag);
    if (tag != MOVES_TAG) {
        rc_bytes_fail(in);
    }
    int32_t count = 0;
    rc_io_count(in, &count, grid->high); /* each id once */
    if (in->failed) {
        return false;
    }
    rc_allocator a = grid->allocator;
    size_t marks_bytes = (size_t)grid->high + 1;
    uint8_t *marks = rc_mem_alloc(&a, marks_bytes);
    moves->ids = count > 0 ? rc_mem_alloc(&a, sizeof(int32_t) * (size_t)count) : NULL;
    moves->befores = count > 0 ? rc_mem_alloc(&a, sizeof(rc_aabb) * (size_t)count) : NULL;
    moves->count = count;
    if (marks == NULL || (count > 0 && (moves->ids == NULL || moves->befores == NULL))) {
        rc_mem_free(&a, marks, marks_bytes);
        rc_grid_moves_free(grid, moves);
        return false;
    }
    memset(marks, 0, marks_bytes);
    for (int32_t i = 0; i < count && !in->failed; ++i) {
        rc_io_index(in, &moves->ids[i], grid->high, false);
        rc_io_aabb(in, &moves->befores[i]);
        if (!in->failed && marks[moves->ids[i]]++ != 0) {
            rc_bytes_fail(in); /* listed twice */
        }
    }
    rc_mem_free(&a, marks, marks_bytes);
    if (in->failed) {
        rc_grid_moves_free(grid, moves);
        return false;
    }
    return true;
}

void rc_grid_set_moves(rc_grid *grid, const rc_grid_moves *moves) {
    for (int32_t i = 0; i < grid->moved_count; ++i) {
        grid->proxies[grid->moved[i]].moved = false;
    }
    for (int32_t i = 0; i < moves->count; ++i) {
        int32_t id = moves->ids[i];
        grid->moved[i] = id;
        grid->proxies[id].moved = true;
        grid->befores[id] = moves->befores[i];
    }
    grid->moved_count = moves->count;
}
