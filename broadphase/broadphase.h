/* broadphase/: the hierarchical uniform grid of <ricochet/grid.h>.
 *
 * Owns: proxies (a box and a user index each), the per-level hash tables of occupied cells,
 * the pool of cell entry blocks, the record of moved proxies, and the automatic choice of the
 * cell size. Knows nothing of shapes or bodies: the world stores a shape index as the user
 * index and does the exact tests in the query callbacks. */
#ifndef RICOCHET_BROADPHASE_H
#define RICOCHET_BROADPHASE_H

#include <ricochet/grid.h>

#endif
