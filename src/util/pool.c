#include "util/pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

enum { IDLE, QUEUED, RUNNING, DONE };

struct fs_pool {
    unsigned threads;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    fs_task *head, *tail; /* queued, oldest first */
    pthread_t *workers;
    unsigned nworkers, idle, cap; /* CAP: THREADS - 1, and FS_POOL_OWN for fs_task_start_own */
    int stop;
};

unsigned fs_pool_default_threads(void)
{
    const char *env = getenv("FOLDSVG_THREADS");
    if (env && *env) {
        char *end;
        unsigned long v = strtoul(env, &end, 10);
        if (*end == '\0' && v >= 1 && v <= FS_POOL_MAX)
            return (unsigned)v;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > FS_POOL_DEFAULT_MAX ? FS_POOL_DEFAULT_MAX : (unsigned)n;
}

static void run(fs_pool *p, fs_task *t)
{
    t->fn(t->arg);
    pthread_mutex_lock(&p->mu);
    t->state = DONE;
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->mu);
}

static void *worker(void *arg)
{
    fs_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->stop) {
            p->idle++;
            pthread_cond_wait(&p->work, &p->mu);
            p->idle--;
        }
        if (!p->head)
            break;
        fs_task *t = p->head;
        p->head = t->next;
        if (!p->head)
            p->tail = NULL;
        t->state = RUNNING;
        pthread_mutex_unlock(&p->mu);
        run(p, t);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

fs_pool *fs_pool_new(unsigned threads)
{
    if (threads == 0)
        threads = fs_pool_default_threads();
    fs_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->threads = threads;
    p->cap = threads - 1 + FS_POOL_OWN;
    p->workers = calloc(p->cap, sizeof *p->workers);
    if (!p->workers || pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p->workers);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->work, NULL) != 0 || pthread_cond_init(&p->done, NULL) != 0) {
        /* (a failed init leaves nothing to destroy on Linux) */
        pthread_mutex_destroy(&p->mu);
        free(p->workers);
        free(p);
        return NULL;
    }
    return p;
}

void fs_pool_free(fs_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nworkers; i++)
        pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->workers);
    free(p);
}

unsigned fs_pool_threads(const fs_pool *p)
{
    return p ? p->threads : 1;
}

/* A new worker, created with every signal blocked (it inherits the mask in force). Failing
 * to start one is not an error: the task runs where it is waited for. */
static void add_worker(fs_pool *p)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    if (pthread_create(&p->workers[p->nworkers], NULL, worker, p) == 0)
        p->nworkers++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void fs_task_start(fs_pool *p, fs_task *t, void (*fn)(void *arg), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    t->next = NULL;
    t->state = QUEUED;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = t;
    else
        p->head = t;
    p->tail = t;
    if (p->idle == 0 && p->nworkers + 1 < p->threads)
        add_worker(p);
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

int fs_task_start_own(fs_pool *p, fs_task *t, void (*fn)(void *arg), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    t->state = QUEUED;
    t->next = NULL;
    if (!p)
        return 0;
    pthread_mutex_lock(&p->mu);
    /* first in the queue, and a worker more: whichever worker wakes first takes it */
    t->next = p->head;
    p->head = t;
    if (!p->tail)
        p->tail = t;
    unsigned before = p->nworkers;
    if (p->nworkers < p->cap)
        add_worker(p);
    int sure = p->nworkers > before;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    return sure;
}

/* Takes T off the queue when no worker took it; then whether it was there. (Under the lock.) */
static int unqueue(fs_pool *p, fs_task *t)
{
    if (t->state != QUEUED)
        return 0;
    fs_task **at = &p->head, *prev = NULL;
    while (*at && *at != t) {
        prev = *at;
        at = &(*at)->next;
    }
    if (*at) {
        *at = t->next;
        if (p->tail == t)
            p->tail = prev;
    }
    return 1;
}

void fs_task_wait(fs_pool *p, fs_task *t)
{
    if (!p) {
        if (t->state == QUEUED) {
            t->state = RUNNING;
            t->fn(t->arg);
        }
        t->state = DONE;
        return;
    }
    pthread_mutex_lock(&p->mu);
    if (unqueue(p, t)) {
        t->state = RUNNING;
        pthread_mutex_unlock(&p->mu);
        run(p, t);
        return;
    }
    while (t->state != DONE && t->state != IDLE)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

int fs_task_cancel(fs_pool *p, fs_task *t)
{
    if (!p) {
        int ran = t->state == DONE;
        t->state = IDLE;
        return ran;
    }
    pthread_mutex_lock(&p->mu);
    if (unqueue(p, t)) {
        t->state = IDLE;
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    while (t->state == RUNNING)
        pthread_cond_wait(&p->done, &p->mu);
    int ran = t->state == DONE;
    pthread_mutex_unlock(&p->mu);
    return ran;
}

int fs_task_take(fs_pool *p, fs_task *t)
{
    if (p)
        pthread_mutex_lock(&p->mu);
    int taken = p ? unqueue(p, t) : t->state == QUEUED;
    if (taken)
        t->state = DONE;
    if (p)
        pthread_mutex_unlock(&p->mu);
    return taken;
}

int fs_task_done(fs_pool *p, fs_task *t)
{
    if (!p)
        return t->state == DONE;
    pthread_mutex_lock(&p->mu);
    int done = t->state == DONE;
    pthread_mutex_unlock(&p->mu);
    return done;
}
