/* A sequence made in batches by a task of the pool (util/pool.h) while the caller takes the
 * batch before: reading ahead of a parser, the sorter's merge ahead of the frames, each side
 * of a diff ahead of their join. Two batches, the caller's and the one being filled; the
 * caller's fs_batches_next hands the filled one over and starts filling the other. On a pool
 * of one thread each batch is filled when it is asked for, so the sequence is the same. */
#ifndef FOLDSVG_UTIL_BATCHES_H
#define FOLDSVG_UTIL_BATCHES_H

#include "foldsvg.h"
#include "util/error.h"
#include "util/pool.h"

/* Fills BATCH with what comes next. FOLDSVG_OK: more may come after it; FS_STOP: the
 * sequence ends after it (it may hold nothing); any other status: the producer failed after
 * what BATCH holds (its message is its own to keep). Called on some thread, never on two at
 * once, in order. */
typedef foldsvg_status (*fs_batch_fill)(void *user, void *batch);

typedef struct fs_batches {
    fs_pool *pool;
    fs_batch_fill fill;
    void *user;
    void *batch[2];
    foldsvg_status st[2];
    fs_task task;
    int next;    /* the batch being filled, or filled last */
    int filling; /* a task fills batch[next] */
    int ended;   /* a fill said it was the last */
} fs_batches;

/* Starts filling B0 (B1 next, then B0 again...). */
void fs_batches_start(fs_batches *b, fs_pool *pool, fs_batch_fill fill, void *user, void *b0,
                      void *b1);
/* The next filled batch into *BATCH, with its fill's status: the caller holds it until the
 * next call; the one after it is being filled meanwhile (unless its status ended the
 * sequence). After an end, *BATCH is NULL and FS_STOP is returned. */
foldsvg_status fs_batches_next(fs_batches *b, void **batch);
/* Waits for a fill under way (one not begun yet is dropped). The batches are the caller's
 * again. */
void fs_batches_stop(fs_batches *b);

#endif
