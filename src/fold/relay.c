/* A ring of NBATCH buffers: the producer fills one while the consumer works through
 * others, and they meet on a lock once a buffer (about BATCH bytes of records), not once a
 * stack. */
#include "fold/relay.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

enum { NBATCH = 4, BATCH = 256 << 10 };

typedef struct record {
    uint64_t count, before;
    size_t len;
    int is_diff;
} record;

typedef struct batch {
    unsigned char *data;
    size_t len, cap;
} batch;

typedef struct relay {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    batch b[NBATCH];
    uint64_t head, tail; /* batches [tail, head) are full, head % NBATCH is being filled */
    int done;            /* the producer returned, its last batch published */
    foldsvg_status produced, consumed; /* their statuses */
    fs_relay_producer produce;
    void *produce_user;
} relay;

static size_t padded(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Publishes the batch being filled and waits for a free one; the consumer's failure stops
 * the producer. */
static foldsvg_status publish(relay *r)
{
    pthread_mutex_lock(&r->mu);
    r->head++;
    pthread_cond_broadcast(&r->cv);
    while (r->head - r->tail == NBATCH && !r->consumed)
        pthread_cond_wait(&r->cv, &r->mu);
    foldsvg_status st = r->consumed;
    pthread_mutex_unlock(&r->mu);
    if (st == FOLDSVG_OK)
        r->b[r->head % NBATCH].len = 0;
    return st;
}

static foldsvg_status emit(void *user, const char *stack, size_t len, uint64_t count,
                           uint64_t before, int is_diff)
{
    relay *r = user;
    batch *b = &r->b[r->head % NBATCH];
    size_t need = sizeof(record) + padded(len);
    if (need < len)
        return FOLDSVG_E_NOMEM;
    if (b->len > 0 && b->cap - b->len < need) {
        foldsvg_status st = publish(r);
        if (st)
            return st;
        b = &r->b[r->head % NBATCH];
    }
    if (b->cap - b->len < need) { /* a stack larger than a batch */
        if (b->len > SIZE_MAX - need)
            return FOLDSVG_E_NOMEM;
        FS_FORWARD_IF_ERROR(fs_resize(&b->data, b->len + need, 1));
        b->cap = b->len + need;
    }
    record h = {count, before, len, is_diff};
    memcpy(b->data + b->len, &h, sizeof h);
    if (len)
        memcpy(b->data + b->len + sizeof h, stack, len);
    b->len += need;
    return FOLDSVG_OK;
}

static void *producer_main(void *arg)
{
    relay *r = arg;
    foldsvg_status st = r->produce(r->produce_user, emit, r);
    pthread_mutex_lock(&r->mu);
    r->produced = st;
    if (st == FOLDSVG_OK)
        r->head++; /* the last, partly filled batch */
    r->done = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static foldsvg_status consume(const batch *b, fs_sorted_fn fn, void *user)
{
    for (size_t at = 0; at < b->len;) {
        record h;
        memcpy(&h, b->data + at, sizeof h);
        const char *stack = (const char *)b->data + at + sizeof h;
        foldsvg_status st = fn(user, stack, h.len, h.count, h.before, h.is_diff);
        if (st)
            return st;
        at += sizeof h + padded(h.len);
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_relay_run(fs_relay_producer produce, void *produce_user, fs_sorted_fn fn,
                            void *fn_user)
{
    relay *r = calloc(1, sizeof *r);
    if (!r)
        return produce(produce_user, fn, fn_user);
    r->produce = produce;
    r->produce_user = produce_user;
    int ok = 1;
    for (int i = 0; ok && i < NBATCH; i++) {
        r->b[i].data = malloc(BATCH);
        r->b[i].cap = BATCH;
        ok = r->b[i].data != NULL;
    }
    int have_mu = ok && pthread_mutex_init(&r->mu, NULL) == 0;
    int have_cv = have_mu && pthread_cond_init(&r->cv, NULL) == 0;
    pthread_t t;
    foldsvg_status st;
    if (!have_cv || pthread_create(&t, NULL, producer_main, r) != 0) {
        st = produce(produce_user, fn, fn_user);
    } else {
        pthread_mutex_lock(&r->mu);
        for (;;) {
            while (r->tail == r->head && !r->done)
                pthread_cond_wait(&r->cv, &r->mu);
            if (r->tail == r->head)
                break;
            pthread_mutex_unlock(&r->mu);
            foldsvg_status cst = consume(&r->b[r->tail % NBATCH], fn, fn_user);
            pthread_mutex_lock(&r->mu);
            r->tail++;
            r->consumed = cst;
            pthread_cond_broadcast(&r->cv);
            if (cst)
                break;
        }
        pthread_mutex_unlock(&r->mu);
        pthread_join(t, NULL);
        st = r->consumed ? r->consumed : r->produced;
    }
    if (have_cv)
        pthread_cond_destroy(&r->cv);
    if (have_mu)
        pthread_mutex_destroy(&r->mu);
    for (int i = 0; i < NBATCH; i++)
        free(r->b[i].data);
    free(r);
    return st;
}
