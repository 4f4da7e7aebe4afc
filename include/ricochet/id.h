/* ricochet: id.h
 * Handles to bodies and shapes. An id is a slot index (from 1) plus the generation of that
 * slot: when a body or shape is destroyed its slot's generation moves on, so an old id held by
 * the game is recognised as stale and refused instead of reaching whatever reuses the slot.
 * Ids are plain values; copy and compare them freely. The all-zero id is the null id and
 * never names anything.
 *
 * A generation mixes the slot's reuse count with the world's salt (rc_world_def.id_salt), so
 * that an id of one world is refused by another even where both used the same slot the same
 * number of times (up to a 1 in 2^32 coincidence per check). A slot is reused at most 2^32 - 2
 * times: it is then retired, never handed out again, so a stale id never becomes valid again
 * (a retired slot costs its record, once per four billion reuses). The one exception is a
 * restore (snapshot.h), which brings back the ids of the snapshot's moment and then hands out
 * the same new ids as followed it: a game that rolls back drops the ids of the timeline it
 * discards. */
#ifndef RICOCHET_ID_H
#define RICOCHET_ID_H

#include "base.h"

RC_EXTERN_C_BEGIN

typedef struct rc_body_id {
    uint32_t index, generation;
} rc_body_id;

typedef struct rc_shape_id {
    uint32_t index, generation;
} rc_shape_id;

#define RC_NULL_BODY_ID ((rc_body_id){0u, 0u})
#define RC_NULL_SHAPE_ID ((rc_shape_id){0u, 0u})

RC_INLINE bool rc_body_id_is_null(rc_body_id id) { return id.index == 0u && id.generation == 0u; }
RC_INLINE bool rc_shape_id_is_null(rc_shape_id id) { return id.index == 0u && id.generation == 0u; }
RC_INLINE bool rc_body_id_equals(rc_body_id a, rc_body_id b) { return a.index == b.index && a.generation == b.generation; }
RC_INLINE bool rc_shape_id_equals(rc_shape_id a, rc_shape_id b) { return a.index == b.index && a.generation == b.generation; }

RC_EXTERN_C_END

#endif
