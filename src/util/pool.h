/* The library's one way to use more than one core: a pool of worker threads that run tasks.
 * A task started on the pool runs on a free worker; one that no worker has taken yet when its
 * starter waits for it runs right there, on the waiting thread. So a pool of one thread (no
 * worker: --threads 1) runs every task in the order it is waited for, and the results are the
 * same bytes whatever the number of threads: only where the work runs changes. No task may
 * wait for its starter; a task may start and wait for tasks of its own.
 *
 * Workers are started as tasks come (none for a run that starts none) with every signal
 * blocked, so that an application's handlers run on its own threads only. */
#ifndef FOLDSVG_UTIL_POOL_H
#define FOLDSVG_UTIL_POOL_H

#include <stddef.h>

typedef struct fs_pool fs_pool;

typedef struct fs_task {
    void (*fn)(void *arg);
    void *arg;
    int state; /* private */
    struct fs_task *next;
} fs_task;

/* The threads a run uses when nothing says otherwise: the FOLDSVG_THREADS environment
 * variable (1 to FS_POOL_MAX), else the cores online, at most FS_POOL_DEFAULT_MAX. */
enum { FS_POOL_MAX = 256, FS_POOL_DEFAULT_MAX = 8, FS_POOL_OWN = 8 };
unsigned fs_pool_default_threads(void);

/* A pool for THREADS threads in all: the caller's and THREADS - 1 workers at most (0: the
 * default). NULL when out of memory (a NULL pool runs every task where it is waited for). */
fs_pool *fs_pool_new(unsigned threads);
/* Stops the workers. Every task started must have been waited for. NULL is fine. */
void fs_pool_free(fs_pool *p);
/* THREADS as given to fs_pool_new (1 for a NULL pool). */
unsigned fs_pool_threads(const fs_pool *p);

/* Starts FN(ARG) as task T (which must stay in place until it is waited for). */
void fs_task_start(fs_pool *p, fs_task *t, void (*fn)(void *arg), void *arg);
/* Starts T on a worker of its own, made for it beyond THREADS (at most FS_POOL_OWN more):
 * for a task that waits on its starter most of the time (each side of a diff, read while the
 * two are joined), which must neither wait in the queue behind tasks that wait on it nor be
 * taken back and run first. Returns whether a worker was made (then T is not to be taken
 * back); 0: it is queued as fs_task_start queues it. */
int fs_task_start_own(fs_pool *p, fs_task *t, void (*fn)(void *arg), void *arg);
/* Returns once T has run: at once if it has, after it if a worker is running it, else it is
 * run here and now. */
void fs_task_wait(fs_pool *p, fs_task *t);
/* Waits for T if a worker took it; one that none took yet does not run at all. Returns
 * whether T ran. */
int fs_task_cancel(fs_pool *p, fs_task *t);
/* Takes T back when no worker has taken it yet: 1, and the caller runs T's work itself (T
 * counts as waited for); 0 when a worker has it or it ran (wait for it then). For a task
 * that runs otherwise when it runs here (a producer that must not wait for the thread that
 * waits for it). */
int fs_task_take(fs_pool *p, fs_task *t);
/* Whether T has run (it need not be waited for then, but may be). */
int fs_task_done(fs_pool *p, fs_task *t);

#endif
