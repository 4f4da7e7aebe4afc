/* ricochet: a 2D collision world for games.
 * base.h: export macro, version and the few definitions every other header needs. */
#ifndef RICOCHET_BASE_H
#define RICOCHET_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RC_VERSION_MAJOR 0
#define RC_VERSION_MINOR 1
#define RC_VERSION_PATCH 0

/* RC_API marks the functions the shared library exports. The library is built with hidden
 * visibility, so nothing else leaks out of it. */
#if defined(_WIN32) && defined(RICOCHET_SHARED_BUILD)
#define RC_API __declspec(dllexport)
#elif defined(_WIN32) && defined(RICOCHET_SHARED)
#define RC_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define RC_API __attribute__((visibility("default")))
#else
#define RC_API
#endif

#if defined(__cplusplus)
#define RC_EXTERN_C_BEGIN extern "C" {
#define RC_EXTERN_C_END }
#else
#define RC_EXTERN_C_BEGIN
#define RC_EXTERN_C_END
#endif

#define RC_INLINE static inline

/* The largest number of vertices a convex polygon shape may have. */
#define RC_MAX_POLYGON_VERTICES 8

RC_EXTERN_C_BEGIN

/* Where a world or grid gets its memory. alloc returns size bytes aligned to align (a power of
 * two, at most 64) or NULL on failure; free receives the same size that was asked for. The
 * library handles a NULL from alloc: the call that needed the memory fails with an error and
 * changes nothing. user is passed back untouched. The hooks run in the middle of the library's
 * changes: they must not call into the world or grid whose memory they serve. A world is locked
 * while its hooks run (every change is refused, as inside a callback: world.h), but what a query
 * would read there is half made. Leave both functions NULL to use malloc; its
 * growing arrays (contacts, the solver's scratch) then grow by realloc, which moves a large
 * block's pages instead of copying them (glibc), so that memory already used is not faulted in
 * again. With a hook of the game's, an array grows into a new block: alloc, copy, free. */
typedef struct rc_allocator {
    void *(*alloc)(size_t size, size_t align, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} rc_allocator;

RC_EXTERN_C_END

#endif
