/* Two batches (util/batches.h): a task fills one while the caller works through the other.
 * With a job, a batch is a few smaller blocks and the job runs on those after the first: the
 * caller parses the first while the task reads the next batch and runs the job on the rest,
 * so the two threads share the work (with a batch of one block, the caller would wait for
 * every block the job runs on, and parse every other block itself). */
#include "input/ahead.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/batches.h"
#include "util/error.h"

/* With a job: the blocks a batch (of the caller's block size), and how many of them the
 * caller parses itself (two when inflating makes the task's reading dearer; none for a
 * cheap job). */
enum { PER = 4, OWN = 1, OWN_GZIP = 2 };

typedef struct block {
    unsigned char *data; /* PER blocks of SIZE bytes */
    size_t len;
    foldsvg_error err; /* the fill's failure, after DATA */
    void *slot[PER];   /* the job's, a block */
    uint8_t ran[PER];  /* the job ran on the block */
    uint64_t done;     /* the raw bytes read once it was filled, for the caller's progress */
} block;

struct fs_ahead {
    fs_input *in;
    size_t size;
    size_t per;       /* blocks a batch */
    size_t own;       /* of them, the caller parses the first OWN itself */
    fs_ahead_job job; /* run NULL: none */
    fs_batches b;
    block blk[2];
    block *cur; /* the batch the caller works through, from its byte AT */
    size_t at;
    /* an error met after some bytes: given with the block after them */
    foldsvg_status pending;
    foldsvg_error pending_err;
    int eof;            /* the input said it ended: it is not asked again (a terminal waits) */
    atomic_int waiting; /* the caller waits for a block: it is not behind */
    foldsvg_status end; /* how the blocks ended (FS_STOP, or a failure): stays the answer */
    foldsvg_error end_err;
    pthread_t caller;
};

/* Fills B with a whole batch's worth of bytes, as the caller would read them itself (pipes
 * and inflate give less a call): what it makes of the bytes must not depend on how they
 * came. Then the job runs on its blocks after the first OWN while the caller is still busy
 * with the batch before. */
static foldsvg_status fill(void *user, void *batch)
{
    fs_ahead *a = user;
    block *b = batch;
    b->len = 0;
    memset(b->ran, 0, sizeof b->ran);
    if (a->pending) {
        b->err = a->pending_err;
        return a->pending;
    }
    size_t cap = a->size * a->per;
    while (!a->eof && b->len < cap) {
        size_t n;
        foldsvg_status st = fs_input_read(a->in, b->data + b->len, cap - b->len, &n,
                                          b->len ? &a->pending_err : &b->err);
        if (st && b->len) {
            a->pending = st;
            break;
        }
        if (st)
            return st;
        a->eof = n == 0;
        b->len += n;
    }
    b->done = fs_input_raw_consumed(a->in);
    int task = !pthread_equal(pthread_self(), a->caller);
    for (size_t i = a->own; a->job.run && i < a->per && i * a->size < b->len; i++) {
        if (!a->job.always && (!task || atomic_load(&a->waiting)))
            break;
        size_t from = i * a->size, n = b->len - from < a->size ? b->len - from : a->size;
        if (b->slot[i]) {
            a->job.run(a->job.ctx, b->slot[i], b->data + from, n);
            b->ran[i] = 1;
        }
    }
    return b->len ? FOLDSVG_OK : FS_STOP;
}

static int worth(const fs_input *in, size_t size)
{
    uint64_t raw = fs_input_raw_size(in);
    return raw == 0 || raw > 4 * (uint64_t)size;
}

static void ahead_free(fs_ahead *a)
{
    for (int i = 0; i < 2; i++) {
        free(a->blk[i].data);
        for (size_t k = 0; k < PER; k++)
            if (a->blk[i].slot[k])
                a->job.slot_free(a->job.ctx, a->blk[i].slot[k]);
    }
    free(a);
}

fs_ahead *fs_ahead_start(fs_input *in, size_t size, const fs_ahead_job *job)
{
    fs_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->in = in;
    a->caller = pthread_self();
    atomic_init(&a->waiting, 0);
    if (job)
        a->job = *job;
    a->per = a->job.run ? PER : 1;
    a->size = a->job.run ? size / PER : size;
    a->own = a->job.always || a->job.cheap ? 0 : fs_input_is_gzip(in) ? OWN_GZIP : OWN;
    for (int i = 0; i < 2; i++) {
        if (!(a->blk[i].data = malloc(a->size * a->per))) {
            ahead_free(a);
            return NULL;
        }
        for (size_t k = a->own; a->job.run && k < a->per; k++)
            a->blk[i].slot[k] = a->job.slot_new(a->job.ctx); /* NULL: the job skips it */
    }
    fs_input_hold_warnings(in); /* given on the caller's thread, by fs_ahead_stop */
    /* a short input is read here, as it is asked for: a task would not pay */
    fs_batches_start(&a->b, worth(in, size) ? fs_input_pool(in) : NULL, fill, a, &a->blk[0],
                     &a->blk[1]);
    return a;
}

foldsvg_status fs_ahead_next(fs_ahead *a, const unsigned char **p, size_t *n, void **slot,
                             foldsvg_error *err)
{
    *n = 0;
    if (slot)
        *slot = NULL;
    if (a->cur && a->at < a->cur->len) {
        const block *b = a->cur;
        size_t k = a->at / a->size;
        *p = b->data + a->at;
        *n = b->len - a->at < a->size ? b->len - a->at : a->size;
        a->at += *n;
        if (slot && b->ran[k])
            *slot = b->slot[k];
        return FOLDSVG_OK;
    }
    a->cur = NULL;
    if (a->end) {
        if (a->end != FS_STOP && err)
            *err = a->end_err;
        return a->end == FS_STOP ? FOLDSVG_OK : a->end;
    }
    void *got;
    atomic_store(&a->waiting, 1);
    foldsvg_status st = fs_batches_next(&a->b, &got);
    atomic_store(&a->waiting, 0);
    block *b = got;
    if (st != FOLDSVG_OK) { /* the end, or a failure after the bytes before it */
        a->end = st;
        if (b && st != FS_STOP)
            a->end_err = b->err;
        return fs_ahead_next(a, p, n, slot, err);
    }
    fs_input_give_progress(a->in, b->done, 0);
    a->cur = b;
    a->at = 0;
    return fs_ahead_next(a, p, n, slot, err);
}

void fs_ahead_stop(fs_ahead *a)
{
    if (!a)
        return;
    fs_batches_stop(&a->b);
    fs_input_release_warnings(a->in);
    ahead_free(a);
}
