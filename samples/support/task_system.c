/* A small task system on POSIX threads (see task_system.h). */
#include "task_system.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

struct task_system {
    pthread_mutex_t one_task; /* held from an enqueue that hands out work to its finish: batches
                                 cast on several threads at once take turns */
    pthread_mutex_t mutex;
    pthread_cond_t start, finished;
    pthread_t threads[RC_MAX_WORKERS];
    int32_t thread_count; /* worker_count - 1: worker k + 1 is threads[k]; the waiting thread is 0 */
    /* the task under way (written under the mutex before the threads are woken) */
    rc_task_fn *task;
    void *context;
    int32_t count, range;
    atomic_int next;   /* the first item no range has taken yet */
    int32_t busy;      /* threads not yet done with the current task */
    uint64_t job;      /* how many tasks were handed out */
    bool quit;
    atomic_int ranges[RC_MAX_WORKERS];
};

typedef struct worker_arg {
    task_system *ts;
    uint32_t index;
} worker_arg;


/* Take ranges until none is left. */
static void run_ranges(task_system *ts, uint32_t worker) {
    for (;;) {
        int32_t start = atomic_fetch_add(&ts->next, ts->range);
        if (start >= ts->count) {
            return;
        }
        int32_t end = ts->count - start < ts->range ? ts->count : start + ts->range;
        ts->task(start, end, worker, ts->context);
        atomic_fetch_add(&ts->ranges[worker], 1);
    }
}

static void *worker_main(void *arg) {
    worker_arg *w = arg;
    task_system *ts = w->ts;
    uint32_t index = w->index;
    free(w);
    uint64_t seen = 0;
    pthread_mutex_lock(&ts->mutex);
    for (;;) {
        while (!ts->quit && ts->job == seen) {
            pthread_cond_wait(&ts->start, &ts->mutex);
        }
        if (ts->quit) {
            break;
        }
        seen = ts->job;
        pthread_mutex_unlock(&ts->mutex);
        run_ranges(ts, index);
        pthread_mutex_lock(&ts->mutex);
        if (--ts->busy == 0) {
            pthread_cond_signal(&ts->finished);
        }
    }
    pthread_mutex_unlock(&ts->mutex);
    return NULL;
}

static void *enqueue(rc_task_fn *task, int32_t item_count, int32_t min_range, void *task_context, void *user) {
    task_system *ts = user;
    int32_t workers = ts->thread_count + 1;
    /* about four ranges per worker, none shorter than the world asks */
    int32_t range = item_count / (4 * workers);
    range = range < min_range ? min_range : range;
    range = range < 1 ? 1 : range;
    if (ts->thread_count == 0 || item_count <= range) {
        task(0, item_count, 0u, task_context);
        atomic_fetch_add(&ts->ranges[0], 1);
        return NULL; /* done here: nothing to finish */
    }
    pthread_mutex_lock(&ts->one_task);
    pthread_mutex_lock(&ts->mutex);
    ts->task = task;
    ts->context = task_context;
    ts->count = item_count;
    ts->range = range;
    atomic_store(&ts->next, 0);
    ts->busy = ts->thread_count;
    ts->job++;
    pthread_cond_broadcast(&ts->start);
    pthread_mutex_unlock(&ts->mutex);
    return ts;
}

static void finish(void *user_task, void *user) {
    task_system *ts = user;
    (void)user_task;
    run_ranges(ts, 0u); /* the waiting thread helps */
    pthread_mutex_lock(&ts->mutex);
    while (ts->busy > 0) {
        pthread_cond_wait(&ts->finished, &ts->mutex);
    }
    pthread_mutex_unlock(&ts->mutex);
    pthread_mutex_unlock(&ts->one_task);
}

task_system *task_system_create(int32_t worker_count) {
    if (worker_count < 1 || worker_count > RC_MAX_WORKERS) {
        return NULL;
    }
    task_system *ts = calloc(1, sizeof *ts);
    if (ts == NULL) {
        return NULL;
    }
    pthread_mutex_init(&ts->one_task, NULL);
    pthread_mutex_init(&ts->mutex, NULL);
    pthread_cond_init(&ts->start, NULL);
    pthread_cond_init(&ts->finished, NULL);
    for (int32_t k = 0; k + 1 < worker_count; ++k) {
        worker_arg *w = malloc(sizeof *w);
        if (w == NULL) {
            task_system_destroy(ts);
            return NULL;
        }
        w->ts = ts;
        w->index = (uint32_t)k + 1u;
        if (pthread_create(&ts->threads[k], NULL, worker_main, w) != 0) {
            free(w);
            task_system_destroy(ts);
            return NULL;
        }
        ts->thread_count++;
    }
    return ts;
}

void task_system_destroy(task_system *ts) {
    if (ts == NULL) {
        return;
    }
    pthread_mutex_lock(&ts->mutex);
    ts->quit = true;
    pthread_cond_broadcast(&ts->start);
    pthread_mutex_unlock(&ts->mutex);
    for (int32_t k = 0; k < ts->thread_count; ++k) {
        pthread_join(ts->threads[k], NULL);
    }
    pthread_cond_destroy(&ts->finished);
    pthread_cond_destroy(&ts->start);
    pthread_mutex_destroy(&ts->mutex);
    pthread_mutex_destroy(&ts->one_task);
    free(ts);
}

void task_system_install(task_system *ts, rc_world_def *def) {
    def->worker_count = ts->thread_count + 1;
    def->enqueue_task = enqueue;
    def->finish_task = finish;
    def->user_task_context = ts;
}

int32_t task_system_take_counts(task_system *ts, int32_t *ranges, int32_t capacity) {
    int32_t workers = ts->thread_count + 1;
    for (int32_t k = 0; k < workers; ++k) {
        int32_t n = atomic_exchange(&ts->ranges[k], 0);
        if (k < capacity) {
            ranges[k] = n;
        }
    }
    return workers;
}
