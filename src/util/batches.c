#include "util/batches.h"

#include "util/error.h"

static void fill_task(void *arg)
{
    fs_batches *b = arg;
    b->st[b->next] = b->fill(b->user, b->batch[b->next]);
}

static void start(fs_batches *b)
{
    b->filling = 1;
    fs_task_start(b->pool, &b->task, fill_task, b);
}

void fs_batches_start(fs_batches *b, fs_pool *pool, fs_batch_fill fill, void *user, void *b0,
                      void *b1)
{
    b->pool = pool;
    b->fill = fill;
    b->user = user;
    b->batch[0] = b0;
    b->batch[1] = b1;
    b->next = 0;
    b->ended = 0;
    start(b);
}

foldsvg_status fs_batches_next(fs_batches *b, void **batch)
{
    if (!b->filling) {
        *batch = NULL;
        return FS_STOP;
    }
    fs_task_wait(b->pool, &b->task);
    b->filling = 0;
    int got = b->next;
    foldsvg_status st = b->st[got];
    *batch = b->batch[got];
    if (st == FOLDSVG_OK) {
        b->next = !got;
        start(b);
    }
    return st;
}

void fs_batches_stop(fs_batches *b)
{
    if (b->filling)
        fs_task_cancel(b->pool, &b->task);
    b->filling = 0;
}
