/* A ring of NBLOCK blocks: the thread fills one while the caller works through the one
 * before; they meet on a lock once a block. */
#include "parse/ahead.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/thread.h"

enum { NBLOCK = 3 };

typedef struct block {
    unsigned char *data;
    size_t len;
    foldsvg_status st; /* after DATA: an error (in ERR), or the end when LEN is 0 */
    foldsvg_error err;
} block;

struct fs_ahead {
    fs_input *in;
    size_t size;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    block b[NBLOCK];
    uint64_t head, tail; /* blocks [tail, head) are full; the caller holds tail - 1 */
    int stop;            /* the caller needs no more */
};

static void *reader_main(void *arg)
{
    fs_ahead *a = arg;
    foldsvg_status pending = FOLDSVG_OK; /* an error to give after the bytes before it */
    foldsvg_error pending_err;
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
        /* Whole blocks, as the caller would read them itself (pipes and inflate give less a
         * call): what it makes of the bytes must not depend on how they came. An error
         * after some bytes comes in the block after them. */
        b->len = 0;
        b->st = FOLDSVG_OK;
        if (pending) {
            b->st = pending;
            b->err = pending_err;
        }
        while (!b->st && b->len < a->size) {
            size_t n;
            foldsvg_status st = fs_input_read(a->in, b->data + b->len, a->size - b->len, &n,
                                              b->len ? &pending_err : &b->err);
            if (st && b->len) {
                pending = st;
                break;
            }
            b->st = st;
            if (st || n == 0)
                break;
            b->len += n;
        }
        pthread_mutex_lock(&a->mu);
        a->head++;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
        if (b->st || b->len == 0)
            return NULL;
    }
}

int fs_ahead_worth(const fs_input *in, size_t size)
{
    uint64_t raw = fs_input_raw_size(in);
    return !fs_input_reports_progress(in) && (raw == 0 || raw > 4 * (uint64_t)size);
}

static void ahead_free(fs_ahead *a)
{
    for (int i = 0; i < NBLOCK; i++)
        free(a->b[i].data);
    free(a);
}

fs_ahead *fs_ahead_start(fs_input *in, size_t size)
{
    fs_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->in = in;
    a->size = size;
    int ok = 1;
    for (int i = 0; ok && i < NBLOCK; i++)
        ok = (a->b[i].data = malloc(size)) != NULL;
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

foldsvg_status fs_ahead_next(fs_ahead *a, const unsigned char **p, size_t *n, foldsvg_error *err)
{
    pthread_mutex_lock(&a->mu);
    while (a->tail == a->head)
        pthread_cond_wait(&a->cv, &a->mu);
    block *b = &a->b[a->tail % NBLOCK];
    if (b->st || b->len == 0) { /* the last block: stays the answer */
        pthread_mutex_unlock(&a->mu);
        if (b->st && err)
            *err = b->err;
        *p = b->data;
        *n = 0;
        return b->st;
    }
    a->tail++; /* the caller holds this block now; the one before is free */
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    *p = b->data;
    *n = b->len;
    return FOLDSVG_OK;
}

void fs_ahead_stop(fs_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    fs_input_release_warnings(a->in);
    pthread_cond_destroy(&a->cv);
    pthread_mutex_destroy(&a->mu);
    ahead_free(a);
}
