/* Two blocks (util/batches.h): a task fills one while the caller works through the other. */
#include "input/ahead.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "util/batches.h"
#include "util/error.h"

typedef struct block {
    unsigned char *data;
    size_t len;
    foldsvg_error err; /* the fill's failure, after DATA */
    void *slot;        /* the job's */
    int ran;           /* the job ran on this block */
    uint64_t done;     /* the raw bytes read once it was filled, for the caller's progress */
} block;

struct fs_ahead {
    fs_input *in;
    size_t size;
    fs_ahead_job job; /* run NULL: none */
    fs_batches b;
    block blk[2];
    /* an error met after some bytes: given with the block after them */
    foldsvg_status pending;
    foldsvg_error pending_err;
    int eof;            /* the input said it ended: it is not asked again (a terminal waits) */
    atomic_int waiting; /* the caller waits for a block: it is not behind */
    foldsvg_status end; /* how the blocks ended (FS_STOP, or a failure): stays the answer */
    foldsvg_error end_err;
    pthread_t caller;
};

/* Fills B with a whole block's worth of bytes, as the caller would read them itself (pipes
 * and inflate give less a call): what it makes of the bytes must not depend on how they
 * came. Then, when the caller is still busy with the block before, the job runs on it. */
static foldsvg_status fill(void *user, void *batch)
{
    fs_ahead *a = user;
    block *b = batch;
    b->len = 0;
    b->ran = 0;
    if (a->pending) {
        b->err = a->pending_err;
        return a->pending;
    }
    while (!a->eof && b->len < a->size) {
        size_t n;
        foldsvg_status st = fs_input_read(a->in, b->data + b->len, a->size - b->len, &n,
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
    int behind = !atomic_load(&a->waiting) && !pthread_equal(pthread_self(), a->caller);
    if (a->job.run && b->slot && b->len && (behind || a->job.always)) {
        a->job.run(a->job.ctx, b->slot, b->data, b->len);
        b->ran = 1;
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
        if (a->blk[i].slot)
            a->job.slot_free(a->job.ctx, a->blk[i].slot);
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
    a->caller = pthread_self();
    atomic_init(&a->waiting, 0);
    if (job)
        a->job = *job;
    for (int i = 0; i < 2; i++) {
        if (!(a->blk[i].data = malloc(size))) {
            ahead_free(a);
            return NULL;
        }
        if (a->job.run)
            a->blk[i].slot = a->job.slot_new(a->job.ctx); /* NULL: the job skips the block */
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
    if (a->end) {
        if (a->end != FS_STOP && err)
            *err = a->end_err;
        return a->end == FS_STOP ? FOLDSVG_OK : a->end;
    }
    void *got;
    atomic_store(&a->waiting, 1);
    foldsvg_status st = fs_batches_next(&a->b, &got);
    atomic_store(&a->waiting, 0);
    const block *b = got;
    if (st != FOLDSVG_OK) { /* the end, or a failure after the bytes before it */
        a->end = st;
        if (b && st != FS_STOP)
            a->end_err = b->err;
        return fs_ahead_next(a, p, n, slot, err);
    }
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
    fs_batches_stop(&a->b);
    fs_input_release_warnings(a->in);
    ahead_free(a);
}
