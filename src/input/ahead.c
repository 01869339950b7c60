/* A ring of NBLOCK blocks: the thread fills one while the caller works through the one
 * before; they meet on a lock once a block. With a job, the caller may hold one, one the
 * job ran on and two it did not run on wait for it, while the thread fills the fifth. */
#include "input/ahead.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/thread.h"

enum { NBLOCK = 5 };

typedef struct block {
    unsigned char *data;
    size_t len;
    foldsvg_status st; /* after DATA: an error (in ERR), or the end when LEN is 0 */
    foldsvg_error err;
    void *slot;    /* the job's */
    int ran;       /* the job ran on this block */
    uint64_t done; /* the raw bytes read once it was filled, for the caller's progress */
} block;

struct fs_ahead {
    fs_input *in;
    size_t size;
    fs_ahead_job job; /* run NULL: none */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    block b[NBLOCK];
    uint64_t head, tail; /* blocks [tail, head) are full; the caller holds tail - 1 */
    uint64_t plain;      /* of those, blocks the job did not run on */
    uint64_t behind;     /* the job runs when this many of them wait */
    atomic_int stop;     /* the caller needs no more (set under MU, read between reads) */
};

/* Fills block B with whole blocks' worth of bytes, as the caller would read them itself
 * (pipes and inflate give less a call): what it makes of the bytes must not depend on how
 * they came. An error after some bytes is left in *PENDING for the block after them; the
 * end of the input in *EOF, so that it is not read again (a terminal would wait for a
 * second end of file). */
static void fill(fs_ahead *a, block *b, foldsvg_status *pending, foldsvg_error *pending_err,
                 int *eof)
{
    b->len = 0;
    b->st = FOLDSVG_OK;
    b->ran = 0;
    if (*pending) {
        b->st = *pending;
        b->err = *pending_err;
        return;
    }
    while (!*eof && b->len < a->size && !atomic_load_explicit(&a->stop, memory_order_relaxed)) {
        size_t n;
        foldsvg_status st = fs_input_read(a->in, b->data + b->len, a->size - b->len, &n,
                                          b->len ? pending_err : &b->err);
        if (st && b->len) {
            *pending = st;
            break;
        }
        b->st = st;
        if (st)
            return;
        if (n == 0)
            *eof = 1;
        b->len += n;
    }
    b->done = fs_input_raw_consumed(a->in);
}

static void *reader_main(void *arg)
{
    fs_ahead *a = arg;
    foldsvg_status pending = FOLDSVG_OK; /* an error to give after the bytes before it */
    foldsvg_error pending_err;
    int eof = 0;
    for (uint64_t w = 0;; w++) {
        pthread_mutex_lock(&a->mu);
        /* block W is free once the caller asked for the one after it */
        while (w >= a->tail + NBLOCK - 1 && !a->stop)
            pthread_cond_wait(&a->cv, &a->mu);
        int stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop)
            return NULL;
        block *b = &a->b[w % NBLOCK];
        fill(a, b, &pending, &pending_err, &eof);
        if (atomic_load_explicit(&a->stop, memory_order_relaxed))
            return NULL;
        /* The job runs while the caller is behind: blocks the job did not run on wait for it,
         * work enough for the time the job takes, reading the next block included (one
         * block when reading is a copy from the page cache, two when it inflates). Then
         * the two threads share the work. */
        int behind = 0;
        if (a->job.run && b->slot && !b->st && b->len) {
            pthread_mutex_lock(&a->mu);
            behind = a->plain >= a->behind;
            pthread_mutex_unlock(&a->mu);
        }
        if (behind) {
            a->job.run(a->job.ctx, b->slot, b->data, b->len);
            b->ran = 1;
        }
        pthread_mutex_lock(&a->mu);
        a->head++;
        a->plain += !b->ran;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
        if (b->st || b->len == 0)
            return NULL;
    }
}

int fs_ahead_worth(const fs_input *in, size_t size)
{
    uint64_t raw = fs_input_raw_size(in);
    return raw == 0 || raw > 4 * (uint64_t)size;
}

static void ahead_free(fs_ahead *a)
{
    for (int i = 0; i < NBLOCK; i++) {
        free(a->b[i].data);
        if (a->b[i].slot)
            a->job.slot_free(a->job.ctx, a->b[i].slot);
    }
    free(a);
}

fs_ahead *fs_ahead_start(fs_input *in, size_t size, const fs_ahead_job *job)
{
    fs_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->in = in;
    a->size = size;
    a->behind = fs_input_is_gzip(in) ? 2 : 1;
    atomic_init(&a->stop, 0);
    if (job)
        a->job = *job;
    int ok = 1;
    for (int i = 0; ok && i < NBLOCK; i++) {
        ok = (a->b[i].data = malloc(size)) != NULL;
        if (ok && a->job.run)
            a->b[i].slot = a->job.slot_new(a->job.ctx); /* NULL: the job skips the block */
    }
    if (!ok || pthread_mutex_init(&a->mu, NULL) != 0) {
        ahead_free(a);
        return NULL;
    }
    if (pthread_cond_init(&a->cv, NULL) != 0) {
        pthread_mutex_destroy(&a->mu);
        ahead_free(a);
        return NULL;
    }
    fs_input_hold_warnings(in); /* given on the caller's thread, by fs_ahead_stop */
    if (fs_thread_create(&a->thread, reader_main, a) != 0) {
        fs_input_release_warnings(in);
        pthread_cond_destroy(&a->cv);
        pthread_mutex_destroy(&a->mu);
        ahead_free(a);
        return NULL;
    }
    return a;
}

foldsvg_status fs_ahead_next(fs_ahead *a, const unsigned char **p, size_t *n, void **slot,
                             foldsvg_error *err)
{
    pthread_mutex_lock(&a->mu);
    while (a->tail == a->head)
        pthread_cond_wait(&a->cv, &a->mu);
    block *b = &a->b[a->tail % NBLOCK];
    if (slot)
        *slot = NULL;
    if (b->st || b->len == 0) { /* the last block: stays the answer */
        pthread_mutex_unlock(&a->mu);
        if (b->st && err)
            *err = b->err;
        *p = b->data;
        *n = 0;
        return b->st;
    }
    a->tail++; /* the caller holds this block now; the one before is free */
    a->plain -= !b->ran;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    *p = b->data;
    *n = b->len;
    if (slot && b->ran)
        *slot = b->slot;
    fs_input_give_progress(a->in, b->done, 0);
    return FOLDSVG_OK;
}

void fs_ahead_stop(fs_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    atomic_store(&a->stop, 1);
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    fs_input_release_warnings(a->in);
    pthread_cond_destroy(&a->cv);
    pthread_mutex_destroy(&a->mu);
    ahead_free(a);
}
