/* broadphase/: the hierarchical uniform grid of <ricochet/grid.h>.
 *
 * Owns: proxies (a box and a user index each), the occupied cells (per-level dense windows and
 * one hash table for the rest),
 * the pool of cell entry blocks, the record of moved proxies, and the automatic choice of the
 * cell size. Knows nothing of shapes or bodies: the world stores a shape index as the user
 * index and does the exact tests in the query callbacks. */
#ifndef RICOCHET_BROADPHASE_H
#define RICOCHET_BROADPHASE_H

#include <ricochet/grid.h>

#include "core/bytes.h"

/* rc_grid_cast_ray / rc_grid_cast_circle without the checks of their arguments, for callers
 * that checked them already (the world): origin and translation finite, radius and
 * max_fraction finite and >= 0, grid and fn not NULL. skip_mobile: proxies marked mobile are
 * not offered, and the walk reads nothing of them but their cell entries (a grenade's sweep,
 * which strikes only the static and kinematic world, no longer loads every grenade beside it
 * in a pile: 58% of a 2,000-grenade pit's step). */
void rc_grid_cast_trusted(const rc_grid *grid, rc_vec2 origin, float radius, rc_vec2 translation, float max_fraction,
                          bool skip_mobile, rc_grid_ray_fn *fn, void *context);

/* Could a cast (skipping mobile proxies or not) be offered anything at all? (A grenade's sweep
 * skips the grid of a crowd of grenades, all mobile, without setting up a walk of it.) */
bool rc_grid_may_offer(const rc_grid *grid, bool skip_mobile);

/* rc_grid_query_aabb without the checks of its arguments (box valid, grid and fn not NULL),
 * and with the same skip of mobile proxies: continuous collision looks for the static and
 * kinematic shapes a fast body may pass through, in a crowd of other dynamic bodies. */
void rc_grid_query_aabb_trusted(const rc_grid *grid, rc_aabb box, bool skip_mobile, rc_grid_query_fn *fn,
                                void *context);

/* rc_grid_find_new_pairs (grid and fn not NULL), less the pairs whose boxes already
 * overlapped when the moves were last forgotten (their pairs were reported then: the world has
 * their contacts): the pairs that begin. A proxy inserted or touched since counts as new, all
 * its pairs begun. The world's step looks up only these in its contact map, not every
 * neighbour of every moved body. */
void rc_grid_find_begun_pairs(const rc_grid *grid, rc_grid_pair_fn *fn, void *context);

/* What a move did to the cells, for rc_grid_move_back to take it back exactly. A cell's entry
 * that a move takes out is filled by the cell's last one (the order of the entries in a cell is
 * state: pairs and query answers come in it), and a cell or chunk it takes comes from a free list
 * or the high mark: a move back by the box alone put the entry last and a chunk anywhere. */
typedef struct rc_grid_move_note {
    rc_aabb box;            /* the proxy's box before the move */
    uint32_t hole_chunk[4]; /* per cell it left, in row order: the chunk its entry was in (UINT32_MAX: the cell's own) */
    uint8_t hole_slot[4];   /* and the slot there */
    uint8_t from_high;      /* per cell it entered, in row order: bit 2k its record came from the high mark, 2k+1 its chunk */
    bool cells_changed;     /* it left or entered a cell */
} rc_grid_move_note;

/* rc_grid_move without the checks of a live proxy and an unlocked grid (the world's moves of
 * its own proxies in its step; a bad box still changes nothing and gives false): *note gets the
 * proxy's box before the move and what the move did, for the caller to undo it. */
bool rc_grid_move_trusted(rc_grid *grid, int32_t id, rc_aabb box, rc_grid_move_note *note);

/* The same move made only where it adds no grid entry (it keeps its cells, or leaves some):
 * then it cannot fail, *note is filled and 0 is returned; otherwise nothing changes and
 * rc_grid_move_additions is returned (0 with note->box the box it keeps for a bad box). One look
 * at the cells where rc_grid_move_additions and rc_grid_move took two (a falling crowd moves
 * every proxy at every step). */
int32_t rc_grid_move_in_cells_trusted(rc_grid *grid, int32_t id, rc_aabb box, rc_grid_move_note *note);

/* Moves that can be taken back exactly (the world's step, which may run out of memory after it
 * moved proxies and must then leave everything as it was, every byte rc_grid_save writes):
 * rc_grid_open_undo keeps what the moves' notes do not say (the levels' bounds, and the hash
 * table's slots when it holds cells: false, with nothing changed, when memory for that runs
 * out); while it is open a reserve that grows the table keeps the old one. rc_grid_move_back
 * takes back the last move not yet taken back, given its note (the moves taken back in the
 * reverse order: each finds the cells as its move left them). rc_grid_close_undo ends it:
 * `undone` when every move since the open was taken back, which puts the rest back. The moved
 * list is the caller's (rc_grid_unlist_moves). */
bool rc_grid_open_undo(rc_grid *grid);
void rc_grid_move_back(rc_grid *grid, int32_t id, const rc_grid_move_note *note);
void rc_grid_close_undo(rc_grid *grid, bool undone);

/* How many proxies moved (or were inserted or touched) since the moves were last forgotten: 0
 * when a pair finding would report nothing. */
int32_t rc_grid_moved_count(const rc_grid *grid);

/* The k-th proxy of the moved list (0 <= k < rc_grid_moved_count), or -1 when it is no longer
 * live (removed since it moved) or k is out of range. */
int32_t rc_grid_moved_proxy(const rc_grid *grid, int32_t k);

/* List a live proxy among the moved, its box unchanged (its before is its box now, unless it
 * was listed already): alone, no pair begins from it; a move before the pairs are next found
 * counts from where it was. The world lists the shapes of a body whose speed changed between
 * steps, for the step's start to look ahead along it (world/move.c). Cannot fail for a live
 * proxy of a grid that is not locked; false otherwise. */
bool rc_grid_mark_moved(rc_grid *grid, int32_t proxy);

/* Forget the moves listed after the first `kept` (rc_grid_moved_proxy's order), each of whose
 * proxies must have its box back as it was when it was listed: a caller that undid its moves
 * (a failed world step) leaves the list as it found it. */
void rc_grid_unlist_moves(rc_grid *grid, int32_t kept);

/* The pairs that begin between a proxy of grid a and a proxy of grid b (a world keeps its level's
 * shapes in a grid of their own): each pair of overlapping proxies one of which moved in its grid
 * whose boxes did not overlap when the moves were last forgotten (rc_grid_find_begun_pairs' rule
 * across two grids). fn gets a's proxy and user first. Pairs within either grid are not looked at. */
void rc_grid_find_begun_pairs_across(const rc_grid *a, const rc_grid *b, rc_grid_pair_fn *fn, void *context);

/* rc_aabb_overlaps(rc_grid_get_box(grid, a), rc_grid_get_box(grid, b)) in one call (a proxy
 * that is not live has the empty box at the origin, as there): the step asks it of every
 * contact of a moving body (is the pair over?). */
bool rc_grid_proxies_overlap(const rc_grid *grid, int32_t a, int32_t b);
/* The same for two live proxies that are not in pieces (a world's moving shapes), unchecked:
 * the narrow phase asks it of every contact of every step, and the checks were three quarters
 * of its cost (about 60 instructions of 80 in a tumbler of 2,000 props). */
bool rc_grid_proxies_overlap_trusted(const rc_grid *grid, int32_t a, int32_t b);
/* Does any piece of live proxy a of grid `pieces` overlap the box of live proxy b of grid
 * `other`, b not in pieces (a world's level shape against a moving one), unchecked. */
bool rc_grid_proxies_overlap_across_trusted(const rc_grid *pieces, int32_t a, const rc_grid *other, int32_t b);

/* ---- batches (grid_batch.c) ------------------------------------------------------------------ */

/* A batch: inserts (rc_grid_insert, rc_grid_insert_pieces) and reserves (rc_grid_reserve, and
 * what rc_grid_set_static, rc_grid_set_mobile and rc_grid_touch do to the proxies it inserted)
 * that are undone whole when one fails (a world's call that makes several proxies, and must
 * change nothing when it is refused: removing the ones made would not leave the grid as it was).
 * rc_grid_begin_batch opens one (`inserts`: how many are expected, for the journal's first
 * room); false, with nothing changed, when memory runs out, a batch is open already or the grid
 * is locked. The calls in it change the grid as they do outside one (a rebuild an insert sets
 * off included), and may fail as outside one; then rc_grid_abort_batch puts the grid back as the
 * batch found it, every byte rc_grid_save writes, and cannot fail. rc_grid_end_batch keeps the
 * changes and gives back what the journal held (the tables and stores they replaced). While a
 * batch is open the grid's other changes (moves, removes, rc_grid_optimize) wait for its end:
 * rc_grid_optimize refuses, and a move or a remove is a caller's error (asserted). */
bool rc_grid_begin_batch(rc_grid *grid, int32_t inserts);
void rc_grid_end_batch(rc_grid *grid);
void rc_grid_abort_batch(rc_grid *grid);

/* ---- proxies of pieces (grid_pieces.c) ------------------------------------------------------- */

/* A proxy made of the boxes of count consecutive pieces of one thin thing (the world splits a
 * level's long wall so): count linked proxies with the same user, whose boxes never turn back
 * along the pieces on either axis (rc_grid_pieces_in_order: then the pieces any box overlaps run
 * one after another). Returns the first piece's id, which stands for the whole: rc_grid_remove,
 * rc_grid_touch, rc_grid_set_static and rc_grid_set_mobile take it and act on every piece (and
 * refuse the others); rc_grid_move and rc_grid_get_box take each piece alone; rc_grid_proxies_overlap
 * asks whether any piece overlaps, and rc_grid_proxy_count counts the whole as one. Box and point
 * queries offer the whole once, from the first piece that overlaps; pair finding and casts offer
 * each piece that meets (a caller keeps one: a world's contact map, rc_grid_piece_holds_first). The
 * user must be the proxy's alone (no other proxy of the grid has it). -1 on a bad argument, boxes
 * out of order, or memory running out: then nothing changed (the pieces go in a batch of their
 * own), or, in a batch of the caller's, the pieces so far stay for the caller's abort. */
int32_t rc_grid_insert_pieces(rc_grid *grid, const rc_aabb *boxes, int32_t count, int32_t user);
bool rc_grid_pieces_in_order(const rc_aabb *boxes, int32_t count);
/* The pieces of a proxy given by its first piece (1: a proxy of one piece); 0 for any other id. */
int32_t rc_grid_piece_count(const rc_grid *grid, int32_t proxy);
/* The piece after this one, or -1 (the last piece, a proxy of one piece, a stale id). */
int32_t rc_grid_next_piece(const rc_grid *grid, int32_t proxy);
/* Does any piece of the proxy (given by any piece, or a proxy of one piece: its box) overlap the
 * box? A proxy of pieces is looked up in the cells the box covers, not walked. */
bool rc_grid_proxy_overlaps_box(const rc_grid *grid, int32_t proxy, rc_aabb box);
/* Of the pieces a cast offered, which keeps a hit at point: the first piece whose box holds the
 * point (the first piece of all when none does). True for a proxy of one piece; false for a stale
 * id. */
bool rc_grid_piece_holds_first(const rc_grid *grid, int32_t proxy, rc_vec2 point);

/* Have the next pair finding report every pair of the proxy, as if it were new (its box stays):
 * a pairing rule changed (a filter, a body type). False for a stale proxy or a locked grid. */
bool rc_grid_touch(rc_grid *grid, int32_t proxy);

/* Mark a proxy mobile or not (the world marks the shapes of dynamic bodies), for casts that
 * skip mobile proxies. False for a stale proxy or a locked grid. */
bool rc_grid_set_mobile(rc_grid *grid, int32_t proxy, bool mobile);

/* Write the grid's whole state (or count its bytes when out is a counter): everything that
 * decides any later answer or change, in the defined format of core/bytes.h (grid_snapshot.c
 * lays it out). Locks are not state. */
void rc_grid_save(const rc_grid *grid, rc_bytes *out);
/* The same, and with moves false as if the moves had just been forgotten (no proxy moved): the
 * part of a grid that stays while only its moves change (a world's level grid, whose moves go
 * with each frame: rc_grid_save_moves). */
void rc_grid_save_part(const rc_grid *grid, rc_bytes *out, bool moves);

/* A grid's moves since they were last forgotten: the moved list, and each listed proxy's box
 * then. */
typedef struct rc_grid_moves {
    int32_t count;
    int32_t *ids;
    rc_aabb *befores;
} rc_grid_moves;
/* Write the moves alone (the rest is rc_grid_save_part's with moves false). */
void rc_grid_save_moves(const rc_grid *grid, rc_bytes *out);
/* Read moves saved by rc_grid_save_moves, for the grid given (its memory from the grid's
 * allocator): each id below the grid's slots' high mark and listed once, else false with
 * in->failed set; false with in->failed clear when memory runs out. The grid is not changed. */
bool rc_grid_read_moves(rc_bytes *in, const rc_grid *grid, rc_grid_moves *moves);
/* Make the moves read the grid's (the moves it had are forgotten); cannot fail. */
void rc_grid_set_moves(rc_grid *grid, const rc_grid_moves *moves);
/* Give back what rc_grid_read_moves took (grid: the one it read them for, or another of the same
 * allocator). */
void rc_grid_moves_free(const rc_grid *grid, rc_grid_moves *moves);

/* A new grid holding the state read from in, its memory from allocator (the caller's: the
 * world passes its own; NULL: malloc and free), or NULL when the bytes are bad (in->failed is
 * then set) or memory runs out (in->failed left false). Nothing leaks either way. Every index,
 * link and count read is checked against what it names, and the cells against the proxies
 * (each entry where its proxy's box puts it, as the grid would have written it), so bytes
 * that pass cannot make the grid read or write outside its memory later. */
rc_grid *rc_grid_load(rc_bytes *in, const rc_allocator *allocator);
/* The same, taking its memory where it can from `reuse` (a grid of the same allocator, or NULL),
 * which is destroyed either way: arrays of the sizes the loaded grid needs are taken over as
 * they are, so that restoring a world every frame (rollback) allocates nothing. */
rc_grid *rc_grid_load_reusing(rc_bytes *in, const rc_allocator *allocator, rc_grid *reuse);

#endif
