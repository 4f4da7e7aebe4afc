/* The game's task system, as rc_world_def lends it (world.h): how the world hands out work. */
#include "world/world_internal.h"

void rc_run_task(const rc_world *world, rc_task_fn *task, int32_t count, int32_t min_range, void *context) {
    const rc_world_def *def = &world->def;
    if (count <= 0) {
        return; /* nothing to do (an empty batch of rays: its task read the first ray) */
    }
    if (def->enqueue_task == NULL || def->worker_count <= 1 || count <= min_range) {
        task(0, count, 0u, context);
        return;
    }
    /* game code runs from here to the finish: nothing may change the world meanwhile */
    rc_world_lock(world);
    void *handle = def->enqueue_task(task, count, min_range, context, def->user_task_context);
    if (handle != NULL) {
        def->finish_task(handle, def->user_task_context);
    }
    rc_world_unlock(world);
}
