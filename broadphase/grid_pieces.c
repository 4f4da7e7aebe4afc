/* Proxies of pieces: a long thin thing (a level's diagonal wall) whose one box would cover a wide
 * area of nothing, and put everything moving in that area in contact with it, goes into the grid
 * as the boxes of its consecutive pieces, linked (grid_proxy's prev_piece and next_piece). The
 * pieces' boxes never turn back along the line, on either axis, so the pieces a box overlaps
 * run one after another: a box query offers such a proxy once, from the first piece it overlaps,
 * by looking at the piece before alone. Pair finding takes each piece as a proxy of its own (a
 * world looks its pairs up: a pair found twice is one contact), and a pair is over when no piece
 * overlaps (rc_grid_proxy_overlaps_box). Rays offer every piece they reach: the caller keeps one
 * hit with rc_grid_piece_holds_first. */
#include "broadphase/grid_internal.h"

#include <assert.h>

/* Boxes taken one by one: do they never turn back (each corner coordinate moving one way, the
 * lower and upper corners of an axis the same way)? */
typedef struct piece_order {
    int dir[4];
    rc_aabb last;
    bool any;
} piece_order;

static bool order_takes(piece_order *o, rc_aabb box) {
    if (o->any) {
        const float d[4] = {box.lower.x - o->last.lower.x, box.lower.y - o->last.lower.y, box.upper.x - o->last.upper.x,
                      box.upper.y - o->last.upper.y};
        for (int k = 0; k < 4; ++k) {
            int sign = d[k] > 0.0f ? 1 : d[k] < 0.0f ? -1 : 0;
            if (sign != 0 && o->dir[k] != 0 && sign != o->dir[k]) {
                return false;
            }
            o->dir[k] = sign != 0 ? sign : o->dir[k];
        }
        if (o->dir[0] * o->dir[2] < 0 || o->dir[1] * o->dir[3] < 0) {
            return false;
        }
    }
    o->last = box;
    o->any = true;
    return true;
}

bool rc_grid_pieces_in_order(const rc_aabb *boxes, int32_t count) {
    piece_order o = {{0, 0, 0, 0}, {{0, 0}, {0, 0}}, false};
    for (int32_t i = 0; i < count; ++i) {
        if (!order_takes(&o, boxes[i])) {
            return false;
        }
    }
    return true;
}

bool rc_grid_chain_in_order(const rc_grid *grid, int32_t first) {
    piece_order o = {{0, 0, 0, 0}, {{0, 0}, {0, 0}}, false};
    for (int32_t id = first; id >= 0; id = grid->proxies[id].next_piece) {
        if (!order_takes(&o, grid->spans[id].box)) {
            return false;
        }
    }
    return true;
}

int32_t rc_grid_insert_pieces(rc_grid *grid, const rc_aabb *boxes, int32_t count, int32_t user) {
    if (!changeable(grid) || boxes == NULL || count < 1 || count > MAX_PROXIES || !rc_grid_pieces_in_order(boxes, count)) {
        return -1;
    }
    for (int32_t i = 0; i < count; ++i) {
        if (!rc_aabb_is_valid(boxes[i])) {
            return -1;
        }
    }
    /* in a batch, whose failure undoes the pieces so far (removing them would not leave the
       grid as it was: its high mark, free lists, moved list and table are state): the caller's,
       or one of its own */
    bool own_batch = !grid->journal.open;
    if (own_batch && !rc_grid_begin_batch(grid, count)) {
        return -1;
    }
    int32_t first = -1, last = -1;
    for (int32_t i = 0; i < count; ++i) {
        int32_t id = rc_grid_insert(grid, boxes[i], user);
        if (id < 0) {
            if (own_batch) {
                rc_grid_abort_batch(grid);
            }
            return -1;
        }
        if (last >= 0) {
            grid->proxies[last].next_piece = id;
            grid->proxies[id].prev_piece = last;
            grid->followers++;
        } else {
            first = id;
        }
        last = id;
    }
    if (own_batch) {
        rc_grid_end_batch(grid);
    }
    return first;
}

int32_t rc_grid_piece_count(const rc_grid *grid, int32_t proxy) {
    if (!is_live(grid, proxy) || grid->proxies[proxy].prev_piece >= 0) {
        return 0;
    }
    int32_t count = 0;
    for (int32_t id = proxy; id >= 0; id = grid->proxies[id].next_piece) {
        count++;
    }
    return count;
}

int32_t rc_grid_next_piece(const rc_grid *grid, int32_t proxy) {
    if (!is_live(grid, proxy)) {
        return -1;
    }
    return grid->proxies[proxy].next_piece;
}

/* ---- a box against a proxy of pieces ---------------------------------------------------------- */

typedef struct piece_search {
    const rc_grid *grid;
    rc_aabb box;
    int32_t user;
    bool found;
} piece_search;

static bool find_piece_cell(const grid_cell *cell, void *context) {
    piece_search *q = context;
    const rc_grid *grid = q->grid;
    FOR_EACH_ENTRY(&grid->store, cell, raw, qb, {
        (void)qb;
        uint32_t id = raw & ENTRY_ID_MASK;
        if (grid->users[id] == q->user && box_overlaps(grid->spans[id].box, q->box)) {
            q->found = true;
            return false;
        }
    });
    return true;
}

bool rc_grid_proxy_overlaps_box(const rc_grid *grid, int32_t proxy, rc_aabb box) {
    if (!is_live(grid, proxy)) {
        return false;
    }
    const grid_proxy *p = &grid->proxies[proxy];
    if (p->prev_piece < 0 && p->next_piece < 0) {
        return box_overlaps(grid->spans[proxy].box, box);
    }
    /* the pieces' entries in the cells the box covers: a proxy's user is its alone (a grid of a
       world: one shape, one proxy), so an entry of the user with a box that overlaps is a piece
       that does. Looked up where they are rather than walked: a long wall has many. */
    piece_search q = {grid, box, grid->users[proxy], false};
    for (uint64_t used = grid->store.used_levels; used != 0 && !q.found; used &= used - 1) {
        int32_t l = __builtin_ctzll(used);
        rc_grid_visit_rect(&grid->store, l, rect_of(&grid->store.levels[l], box), find_piece_cell, &q);
    }
    return q.found;
}

bool rc_grid_proxies_overlap_across_trusted(const rc_grid *pieces, int32_t a, const rc_grid *other, int32_t b) {
    assert(is_live(pieces, a) && is_live(other, b) && other->proxies[b].prev_piece < 0 &&
           other->proxies[b].next_piece < 0);
    rc_aabb box = other->spans[b].box;
    const grid_proxy *p = &pieces->proxies[a];
    if (p->prev_piece < 0 && p->next_piece < 0) {
        return box_overlaps(pieces->spans[a].box, box);
    }
    return rc_grid_proxy_overlaps_box(pieces, a, box);
}

static bool box_holds(rc_aabb b, rc_vec2 p) {
    return b.lower.x <= p.x && p.x <= b.upper.x && b.lower.y <= p.y && p.y <= b.upper.y;
}

bool rc_grid_piece_holds_first(const rc_grid *grid, int32_t proxy, rc_vec2 point) {
    if (!is_live(grid, proxy)) {
        return false;
    }
    const grid_proxy *p = &grid->proxies[proxy];
    if (box_holds(grid->spans[proxy].box, point)) {
        return p->prev_piece < 0 || !box_holds(grid->spans[p->prev_piece].box, point);
    }
    if (p->prev_piece >= 0) {
        return false;
    }
    /* a point that no piece holds (a caller's rounding off them all) is the first piece's */
    for (int32_t piece = p->next_piece; piece >= 0; piece = grid->proxies[piece].next_piece) {
        if (box_holds(grid->spans[piece].box, point)) {
            return false;
        }
    }
    return true;
}
