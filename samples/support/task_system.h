/* samples/support/task_system.h: a small task system for rc_world_def's hook (world.h), on
 * POSIX threads: worker_count - 1 threads of its own, and the thread that waits for a task
 * (the one that called into the world) works on it too. Ranges of a task are handed out one at
 * a time from a shared counter, so a busy thread takes fewer; the waiting thread returns as soon
 * as every range has run (a thread that wakes late finds nothing left and does not hold it up),
 * and a thread out of work looks for the next task for a moment before it sleeps (a step hands
 * out several in a row). One task at a time: tasks handed in from several threads at once
 * (batches cast concurrently) take turns. A game with a job
 * system of its own puts that behind the same two functions instead. */
#ifndef RICOCHET_SAMPLES_TASK_SYSTEM_H
#define RICOCHET_SAMPLES_TASK_SYSTEM_H

#include <ricochet/ricochet.h>

typedef struct task_system task_system;

/* worker_count 1..RC_MAX_WORKERS (1: no threads, every task on the caller); NULL when threads
 * or memory cannot be had. */
task_system *task_system_create(int32_t worker_count);
void task_system_destroy(task_system *ts);

/* Lend it to a world about to be created: sets def's worker_count, enqueue_task, finish_task and
 * user_task_context. */
void task_system_install(task_system *ts, rc_world_def *def);

/* How many ranges each worker ran since the last call (for the sample's report): fills up to
 * capacity counts, returns the worker count. */
int32_t task_system_take_counts(task_system *ts, int32_t *ranges, int32_t capacity);

#endif
