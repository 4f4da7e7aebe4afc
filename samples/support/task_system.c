/* A small task system on POSIX threads (see task_system.h). */
#include "task_system.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

struct task_system {
    pthread_mutex_t one_task; /* held from an enqueue that hands out work to its finish: batches
                                 cast on several threads at once take turns */
    pthread_mutex_t mutex;    /* for sleeping and waking only */
    pthread_cond_t start, finished;
    pthread_t threads[RC_MAX_WORKERS];
    int32_t thread_count; /* worker_count - 1: worker k + 1 is threads[k]; the waiting thread is 0 */
    /* The task under way: written before its job number is published in claim, and unchanged
       until its finish returns (atomics only so that a late thread may read them while it
       checks whether the job is still its own). */
    _Atomic(rc_task_fn *) task;
    _Atomic(void *) context;
    atomic_int count, range;
    /* job << 32 | the first item no range has taken yet: a thread takes a range only while the
       job it woke for is the current one (a compare-and-swap on both), so a thread that wakes
       late never runs a range of a task it did not read */
    _Atomic uint64_t claim;
    atomic_int done;     /* items of the current task whose ranges have run */
    uint32_t job;        /* under mutex: the last job handed out, for sleeping threads */
    atomic_bool quit;
    atomic_int ranges[RC_MAX_WORKERS];
};

typedef struct worker_arg {
    task_system *ts;
    uint32_t index;
} worker_arg;

/* How long a thread that ran out of work looks for the next task before it sleeps: a step hands
 * out several tasks in a row, and waking a sleeping thread (on a virtual machine above all) took
 * longer than the work it was woken for. */
#define SPIN_CHECKS 20000

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Take a range of job `job` if it is still the current one and has items left. */
static bool claim_range(task_system *ts, uint32_t job, int32_t *start, int32_t *end) {
    uint64_t c = atomic_load_explicit(&ts->claim, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(c >> 32) != job) {
            return false;
        }
        int32_t next = (int32_t)(uint32_t)c;
        int32_t count = atomic_load_explicit(&ts->count, memory_order_relaxed);
        int32_t range = atomic_load_explicit(&ts->range, memory_order_relaxed);
        if (next >= count) {
            return false;
        }
        int32_t stop = count - next < range ? count : next + range;
        uint64_t taken = (uint64_t)job << 32 | (uint32_t)stop;
        if (atomic_compare_exchange_weak_explicit(&ts->claim, &c, taken, memory_order_acq_rel, memory_order_acquire)) {
            *start = next;
            *end = stop;
            return true;
        }
    }
}

/* Run ranges of job `job` until none is left; the thread that runs the last items wakes the
 * waiting one. */
static void run_ranges(task_system *ts, uint32_t job, uint32_t worker) {
    int32_t start, end;
    while (claim_range(ts, job, &start, &end)) {
        rc_task_fn *task = atomic_load_explicit(&ts->task, memory_order_relaxed);
        task(start, end, worker, atomic_load_explicit(&ts->context, memory_order_relaxed));
        atomic_fetch_add(&ts->ranges[worker], 1);
        int32_t count = atomic_load_explicit(&ts->count, memory_order_relaxed);
        if (atomic_fetch_add_explicit(&ts->done, end - start, memory_order_acq_rel) + (end - start) == count) {
            pthread_mutex_lock(&ts->mutex);
            pthread_cond_signal(&ts->finished);
            pthread_mutex_unlock(&ts->mutex);
        }
    }
}

static uint32_t current_job(task_system *ts) {
    return (uint32_t)(atomic_load_explicit(&ts->claim, memory_order_acquire) >> 32);
}

/* Wait for a job after `seen`: a while awake, then asleep. Returns false when quitting. */
static bool wait_for_job(task_system *ts, uint32_t seen) {
    for (int k = 0; k < SPIN_CHECKS; ++k) {
        if (current_job(ts) != seen || atomic_load(&ts->quit)) {
            return !atomic_load(&ts->quit);
        }
        cpu_relax();
    }
    pthread_mutex_lock(&ts->mutex);
    while (!atomic_load(&ts->quit) && ts->job == seen) {
        pthread_cond_wait(&ts->start, &ts->mutex);
    }
    pthread_mutex_unlock(&ts->mutex);
    return !atomic_load(&ts->quit);
}

static void *worker_main(void *arg) {
    worker_arg *w = arg;
    task_system *ts = w->ts;
    uint32_t index = w->index;
    free(w);
    uint32_t seen = 0;
    while (wait_for_job(ts, seen)) {
        seen = current_job(ts);
        run_ranges(ts, seen, index);
    }
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
    atomic_store_explicit(&ts->task, task, memory_order_relaxed);
    atomic_store_explicit(&ts->context, task_context, memory_order_relaxed);
    atomic_store_explicit(&ts->count, item_count, memory_order_relaxed);
    atomic_store_explicit(&ts->range, range, memory_order_relaxed);
    atomic_store_explicit(&ts->done, 0, memory_order_relaxed);
    ts->job++;
    atomic_store_explicit(&ts->claim, (uint64_t)ts->job << 32, memory_order_release);
    pthread_cond_broadcast(&ts->start);
    pthread_mutex_unlock(&ts->mutex);
    return ts;
}

static void finish(void *user_task, void *user) {
    task_system *ts = user;
    (void)user_task;
    int32_t count = atomic_load_explicit(&ts->count, memory_order_relaxed);
    run_ranges(ts, current_job(ts), 0u); /* the waiting thread helps */
    for (int k = 0; k < SPIN_CHECKS && atomic_load_explicit(&ts->done, memory_order_acquire) != count; ++k) {
        cpu_relax();
    }
    pthread_mutex_lock(&ts->mutex);
    while (atomic_load_explicit(&ts->done, memory_order_acquire) != count) {
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
    atomic_store(&ts->quit, true);
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
