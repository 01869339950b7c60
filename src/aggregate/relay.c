/* A ring of NBATCH buffers: the producer fills one while the consumer works through others,
 * and they meet on a lock once a buffer (about BATCH bytes of records), not once a stack. */
#include "aggregate/relay.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

/* Each hand-over may wake the other thread: batches of a megabyte make that rare. */
enum { NBATCH = 4, BATCH = 1 << 20 };

typedef struct record {
    uint64_t count, before;
    size_t len, shared;
    int is_diff;
} record;

typedef struct batch {
    unsigned char *data;
    size_t len, cap;
} batch;

struct fs_relay {
    fs_pool *pool;
    fs_task task;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    batch b[NBATCH];     /* len: set by the producer, read by the consumer under MU */
    uint64_t head, tail; /* batches [tail, head) are full, head % NBATCH is being filled */
    int done;            /* the producer returned, its last batch published */
    foldsvg_status produced, consumed; /* their statuses */
    fs_relay_producer produce;
    void *produce_user;
    int unbounded;       /* it runs on the consumer's thread, first, into one growing batch */
    fs_sorted_fn direct; /* fs_relay_run's consumer: when no worker took the producer, it
                          * runs on the consumer's thread emitting into this, nothing kept */
    void *direct_user;
    int own;    /* the producer has a worker of its own (fs_task_start_own): never taken here */
    batch fill; /* the producer's: b[head % NBATCH], its len here until published */
    /* the consumer's place: in batch tail % NBATCH (its bytes AT to LIM) while HOLDING */
    const unsigned char *data;
    size_t at, lim;
    int holding;
};

static size_t padded(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Publishes the batch being filled and, on a worker, waits for a free one; the consumer's
 * failure stops the producer. */
static foldsvg_status publish(fs_relay *r)
{
    pthread_mutex_lock(&r->mu);
    r->b[r->head % NBATCH] = r->fill;
    r->head++;
    pthread_cond_broadcast(&r->cv);
    while (r->head - r->tail == NBATCH && !r->consumed)
        pthread_cond_wait(&r->cv, &r->mu);
    foldsvg_status st = r->consumed;
    pthread_mutex_unlock(&r->mu);
    /* even after a failure: the batch published is no longer the producer's to free */
    r->fill = r->b[r->head % NBATCH];
    r->fill.len = 0;
    return st;
}

static foldsvg_status emit(void *user, const char *stack, size_t len, size_t shared, uint64_t count,
                           uint64_t before, int is_diff)
{
    fs_relay *r = user;
    batch *b = &r->fill;
    size_t need = sizeof(record) + padded(len);
    if (need < len)
        return FOLDSVG_E_NOMEM;
    if (!r->unbounded && b->len > 0 && b->cap - b->len < need)
        FS_FORWARD_IF_ERROR(publish(r));
    if (b->cap - b->len < need) { /* a stack larger than a batch, or all of them here */
        if (b->len > SIZE_MAX - need)
            return FOLDSVG_E_NOMEM;
        size_t cap = fs_grow_cap(b->cap, b->len + need, BATCH, 1);
        if (!cap || fs_resize(&b->data, cap, 1) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        b->cap = cap;
    }
    record rec = {count, before, len, shared, is_diff};
    memcpy(b->data + b->len, &rec, sizeof rec);
    memcpy(b->data + b->len + sizeof rec, stack, len);
    b->len += need;
    return FOLDSVG_OK;
}

static void produce_task(void *arg)
{
    fs_relay *r = arg;
    foldsvg_status st = r->produce(r->produce_user, emit, r);
    if (st == FOLDSVG_OK) { /* (a failure drops the batch it was filling) */
        foldsvg_status pst = publish(r);
        if (pst != FOLDSVG_OK && pst != FS_STOP)
            st = pst;
    }
    pthread_mutex_lock(&r->mu);
    r->produced = st;
    r->done = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

static foldsvg_status start(fs_relay **out, fs_pool *pool, fs_relay_producer produce,
                            void *produce_user, fs_sorted_fn direct, void *direct_user)
{
    fs_relay *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return FOLDSVG_E_NOMEM;
    if (pthread_mutex_init(&r->mu, NULL) != 0) {
        free(r);
        *out = NULL;
        return FOLDSVG_E_NOMEM;
    }
    if (pthread_cond_init(&r->cv, NULL) != 0) {
        pthread_mutex_destroy(&r->mu);
        free(r);
        *out = NULL;
        return FOLDSVG_E_NOMEM;
    }
    r->pool = pool;
    r->produce = produce;
    r->produce_user = produce_user;
    if (direct) { /* fs_relay_run: taken back, the producer feeds the consumer directly */
        r->direct = direct;
        r->direct_user = direct_user;
        fs_task_start(pool, &r->task, produce_task, r);
    } else {
        r->own = fs_task_start_own(pool, &r->task, produce_task, r);
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_relay_start(fs_relay **out, fs_pool *pool, fs_relay_producer produce,
                              void *produce_user)
{
    return start(out, pool, produce, produce_user, NULL, NULL);
}

foldsvg_status fs_relay_next(fs_relay *r, fs_relay_item *it, int *done)
{
    *done = 0;
    while (!r->holding || r->at >= r->lim) {
        pthread_mutex_lock(&r->mu);
        if (r->holding) { /* the batch taken: the producer may fill it again */
            r->tail++;
            r->holding = 0;
            pthread_cond_broadcast(&r->cv);
        }
        while (r->tail == r->head && !r->done) {
            if (!r->own && fs_task_take(r->pool, &r->task)) {
                if (r->direct) {
                    /* no worker took it and nothing was emitted: the consumer takes each
                     * stack as it comes (the same sequence, in the memory of one stack) */
                    pthread_mutex_unlock(&r->mu);
                    foldsvg_status st = r->produce(r->produce_user, r->direct, r->direct_user);
                    pthread_mutex_lock(&r->mu);
                    r->produced = st;
                    r->done = 1;
                    continue;
                }
                /* no worker took it: it runs here, first, all of it kept */
                r->unbounded = 1;
                pthread_mutex_unlock(&r->mu);
                produce_task(r);
                pthread_mutex_lock(&r->mu);
                continue;
            }
            pthread_cond_wait(&r->cv, &r->mu);
        }
        if (r->tail == r->head) {
            foldsvg_status st = r->produced;
            pthread_mutex_unlock(&r->mu);
            *done = 1;
            return st;
        }
        const batch *b = &r->b[r->tail % NBATCH];
        r->data = b->data;
        r->at = 0;
        r->lim = b->len;
        r->holding = 1;
        pthread_mutex_unlock(&r->mu);
    }
    record rec;
    memcpy(&rec, r->data + r->at, sizeof rec);
    *it = (fs_relay_item){(const char *)r->data + r->at + sizeof rec,
                          rec.len,
                          rec.shared,
                          rec.count,
                          rec.before,
                          rec.is_diff};
    r->at += sizeof rec + padded(rec.len);
    return FOLDSVG_OK;
}

foldsvg_status fs_relay_end(fs_relay *r)
{
    if (!r)
        return FOLDSVG_OK;
    pthread_mutex_lock(&r->mu);
    if (!r->consumed)
        r->consumed = FS_STOP;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    fs_task_cancel(r->pool, &r->task); /* one that no worker took does not run now */
    foldsvg_status st = r->produced == FS_STOP ? FOLDSVG_OK : r->produced;
    /* the batch being filled is the ring's next one as the producer left it: grown, or never
     * published when the producer stopped early */
    r->b[r->head % NBATCH] = r->fill;
    for (int i = 0; i < NBATCH; i++)
        free(r->b[i].data);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
    return st;
}

foldsvg_status fs_relay_run(fs_pool *pool, fs_relay_producer produce, void *produce_user,
                            fs_sorted_fn fn, void *fn_user)
{
    fs_relay *r;
    foldsvg_status st = start(&r, pool, produce, produce_user, fn, fn_user);
    for (int done = 0; st == FOLDSVG_OK;) {
        fs_relay_item it;
        st = fs_relay_next(r, &it, &done);
        if (st || done)
            break;
        st = fn(fn_user, it.stack, it.len, it.shared, it.count, it.before, it.is_diff);
    }
    foldsvg_status pst = fs_relay_end(r);
    return st ? st : pst;
}
