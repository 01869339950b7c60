/* A ring of NBATCH buffers: the producer fills one while the consumer works through
 * others, and they meet on a lock once a buffer (about BATCH bytes of records), not once a
 * stack. */
#include "aggregate/relay.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytepos.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/thread.h"

/* Batches of 1 MiB: each hand-over may wake the other thread (the sorter's final merge hands
 * over about 80 MB in the shuffled bench row: with 256 KiB, about 9% of the merging thread's
 * time was in the wake-ups; the two sides of the sorted diff row, each with a relay of its
 * own, took 0.89x the wall time with 1 MiB than with 256 KiB, 4.5 MiB more; 2 and 4 MiB gained
 * nothing more). */
enum { NBATCH = 4, BATCH = 1 << 20 };

typedef struct record {
    uint64_t count, before;
    size_t from, len, shared, nsemis; /* the stack's bytes from FROM on, then its ';' */
    size_t next_shared;
    int is_diff, has_semis, cut;
} record;

typedef struct batch {
    unsigned char *data;
    size_t len, cap;
} batch;

/* The producer's fields and the consumer's lie on cache lines of their own: each thread
 * touches its own for every stack, the other's only once a batch. Sharing one line, every
 * stack moved it from core to core (the shuffled bench row's final merge spent about a
 * third of its time in such loads). */
#define LINE 64

struct fs_relay {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    batch b[NBATCH];     /* len: set by the producer, read by the consumer under MU */
    uint64_t head, tail; /* batches [tail, head) are full, head % NBATCH is being filled */
    int done;            /* the producer returned, its last batch published */
    foldsvg_status produced, consumed; /* their statuses */
    fs_relay_producer produce;         /* or PRODUCE_TAIL */
    fs_relay_tail_producer produce_tail;
    void *produce_user;
    pthread_t thread;
    int have_mu, have_cv, threaded;
    int unbounded; /* no thread: the producer ran first, into one growing batch */
    int split;     /* the ';' of each stack past its shared bytes may be found here... */
    /* the producer's: the batch it fills (b[head % NBATCH], its len in FILL until published) */
    _Alignas(LINE) batch fill;
    int scanning; /* ...and are, in the batch being filled */
    uint32_t *scan;
    size_t scan_cap;
    /* the consumer's place: in batch tail % NBATCH (its bytes AT to LIM) while HOLDING */
    _Alignas(LINE) const unsigned char *data;
    size_t at, lim;
    int holding;
};

static size_t padded(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Publishes the batch being filled and waits for a free one; the consumer's failure stops
 * the producer. */
static foldsvg_status publish(fs_relay *r)
{
    pthread_mutex_lock(&r->mu);
    r->b[r->head % NBATCH] = r->fill;
    r->head++;
    pthread_cond_broadcast(&r->cv);
    while (r->head - r->tail == NBATCH && !r->consumed)
        pthread_cond_wait(&r->cv, &r->mu);
    /* The ';' are found on the side with time to spare: here while the consumer has the
     * ring all but full (it is the slower), else by the consumer. Two batches waiting was
     * too soon: the consumer of the shuffled bench row waited for 60 to 73 of its 80
     * batches, the merging thread was the bound, and it found the ';' of 12% to 27% of the
     * stacks (with three: 4% to 8%, the first batch's included). */
    r->scanning = r->split && r->head - r->tail >= NBATCH - 1;
    foldsvg_status st = r->consumed;
    pthread_mutex_unlock(&r->mu);
    /* even after a failure: the batch published is no longer the producer's to free */
    r->fill = r->b[r->head % NBATCH];
    r->fill.len = 0;
    return st;
}

/* IT's bytes from FROM on; when split, FROM is where it first differs from the stack before
 * (fs_tail_fn), else 0. */
static foldsvg_status put(fs_relay *r, const fs_relay_item *it)
{
    const char *tail = it->stack;
    size_t from = it->from, len = it->len;
    batch *b = &r->fill;
    size_t nsemis = 0;
    /* the positions are uint32_t: past that the consumer finds them */
    int has_semis = r->scanning && len <= UINT32_MAX;
    if (has_semis)
        FS_FORWARD_IF_ERROR(fs_byte_positions_add(tail, len - from, ';', (uint32_t)from, &r->scan,
                                                  &r->scan_cap, &nsemis));
    size_t bytes = len - from;
    size_t need = sizeof(record) + padded(bytes) + padded(nsemis * sizeof(uint32_t));
    if (need < bytes)
        return FOLDSVG_E_NOMEM;
    if (!r->unbounded && b->len > 0 && b->cap - b->len < need) {
        foldsvg_status st = publish(r);
        if (st)
            return st;
    }
    if (b->cap - b->len < need) { /* a stack larger than a batch, or no thread */
        if (b->len > SIZE_MAX - need)
            return FOLDSVG_E_NOMEM;
        size_t cap = r->unbounded ? fs_grow_cap(b->cap, b->len + need, BATCH, 1) : b->len + need;
        if (!cap)
            return FOLDSVG_E_NOMEM;
        FS_FORWARD_IF_ERROR(fs_resize(&b->data, cap, 1));
        b->cap = cap;
    }
    record h = {it->count, it->before,      from,        len,       it->shared,
                nsemis,    it->next_shared, it->is_diff, has_semis, it->cut};
    memcpy(b->data + b->len, &h, sizeof h);
    if (bytes)
        memcpy(b->data + b->len + sizeof h, tail, bytes);
    if (nsemis)
        memcpy(b->data + b->len + sizeof h + padded(bytes), r->scan, nsemis * sizeof(uint32_t));
    b->len += need;
    return FOLDSVG_OK;
}

static foldsvg_status emit(void *user, const char *stack, size_t len, size_t shared, uint64_t count,
                           uint64_t before, int is_diff)
{
    fs_relay_item it = {stack, 0, len, shared, count, before, is_diff, NULL, 0, SIZE_MAX, 0};
    return put(user, &it);
}

static foldsvg_status emit_tail(void *user, const fs_relay_item *it)
{
    return put(user, it);
}

static foldsvg_status run_producer(fs_relay *r)
{
    return r->produce ? r->produce(r->produce_user, emit, r)
                      : r->produce_tail(r->produce_user, emit_tail, r);
}

static void *producer_main(void *arg)
{
    fs_relay *r = arg;
    foldsvg_status st = run_producer(r);
    pthread_mutex_lock(&r->mu);
    r->b[r->head % NBATCH] = r->fill; /* its data may have moved, even after a failure */
    r->produced = st;
    if (st == FOLDSVG_OK)
        r->head++; /* the last, partly filled batch */
    r->done = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static void relay_free(fs_relay *r)
{
    if (r->have_cv)
        pthread_cond_destroy(&r->cv);
    if (r->have_mu)
        pthread_mutex_destroy(&r->mu);
    for (int i = 0; i < NBATCH; i++)
        free(r->b[i].data);
    free(r->scan);
    free(r);
}

/* A relay with its producer running. INLINE_OK: without a thread, run the producer here
 * into memory; else FS_STOP (nothing ran). */
static foldsvg_status relay_start(fs_relay **out, fs_relay_producer produce,
                                  fs_relay_tail_producer produce_tail, void *produce_user,
                                  int inline_ok)
{
    *out = NULL;
    fs_relay *r = aligned_alloc(LINE, sizeof *r); /* a multiple of LINE, as aligned */
    if (!r)
        return FOLDSVG_E_NOMEM;
    memset(r, 0, sizeof *r);
    r->split = r->scanning = produce_tail != NULL;
    r->produce = produce;
    r->produce_tail = produce_tail;
    r->produce_user = produce_user;
    int ok = 1;
    for (int i = 0; ok && i < NBATCH; i++) {
        r->b[i].data = malloc(BATCH);
        r->b[i].cap = BATCH;
        ok = r->b[i].data != NULL;
    }
    r->fill = r->b[0];
    r->have_mu = ok && pthread_mutex_init(&r->mu, NULL) == 0;
    r->have_cv = r->have_mu && pthread_cond_init(&r->cv, NULL) == 0;
    if (!ok || !r->have_cv) {
        relay_free(r);
        return FOLDSVG_E_NOMEM;
    }
    if (fs_thread_create(&r->thread, producer_main, r) == 0) {
        r->threaded = 1;
    } else if (!inline_ok) {
        relay_free(r);
        return FS_STOP;
    } else {
        r->unbounded = 1;
        r->produced = run_producer(r);
        r->b[0] = r->fill;
        r->head = r->produced == FOLDSVG_OK;
        r->done = 1;
    }
    *out = r;
    return FOLDSVG_OK;
}

foldsvg_status fs_relay_start(fs_relay **out, fs_relay_producer produce, void *produce_user)
{
    return relay_start(out, produce, NULL, produce_user, 1);
}

foldsvg_status fs_relay_next(fs_relay *r, fs_relay_item *it, int *done)
{
    *done = 0;
    for (;;) {
        if (r->holding) {
            if (r->at < r->lim) {
                record h;
                memcpy(&h, r->data + r->at, sizeof h);
                const unsigned char *stack = r->data + r->at + sizeof h;
                size_t bytes = h.len - h.from;
                *it = (fs_relay_item){
                    (const char *)stack,
                    h.from,
                    h.len,
                    h.shared,
                    h.count,
                    h.before,
                    h.is_diff,
                    h.has_semis ? (const uint32_t *)(const void *)(stack + padded(bytes)) : NULL,
                    h.nsemis,
                    h.next_shared,
                    h.cut};
                r->at += sizeof h + padded(bytes) + padded(h.nsemis * sizeof(uint32_t));
                return FOLDSVG_OK;
            }
            r->holding = 0;
            pthread_mutex_lock(&r->mu);
            r->tail++;
            pthread_cond_broadcast(&r->cv);
            pthread_mutex_unlock(&r->mu);
        }
        pthread_mutex_lock(&r->mu);
        while (r->tail == r->head && !r->done)
            pthread_cond_wait(&r->cv, &r->mu);
        int empty = r->tail == r->head;
        foldsvg_status st = r->produced;
        r->data = r->b[r->tail % NBATCH].data;
        r->lim = r->b[r->tail % NBATCH].len;
        pthread_mutex_unlock(&r->mu);
        if (empty) {
            *done = 1;
            return st;
        }
        r->holding = 1;
        r->at = 0;
    }
}

/* Stops the producer with STOP (when it is still running), waits for it, frees R. */
static foldsvg_status relay_end(fs_relay *r, foldsvg_status stop)
{
    if (!r)
        return FOLDSVG_OK;
    if (r->threaded) {
        pthread_mutex_lock(&r->mu);
        if (!r->consumed)
            r->consumed = stop;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        pthread_join(r->thread, NULL);
    }
    foldsvg_status st = r->produced == FS_STOP ? FOLDSVG_OK : r->produced;
    relay_free(r);
    return st;
}

foldsvg_status fs_relay_end(fs_relay *r)
{
    return relay_end(r, FS_STOP);
}

/* PRODUCE's stacks to FN, or PRODUCE_TAIL's to IFN (with their ';' found on the producer's
 * thread when it has time). */
static foldsvg_status relay_run(fs_relay_producer produce, fs_relay_tail_producer produce_tail,
                                void *produce_user, fs_sorted_fn fn, fs_relay_item_fn ifn,
                                void *fn_user)
{
    fs_relay *r;
    foldsvg_status st = relay_start(&r, produce, produce_tail, produce_user, 0);
    if (st && fn)
        return produce(produce_user, fn, fn_user);
    if (st)
        return produce_tail(produce_user, ifn, fn_user);
    for (;;) {
        fs_relay_item it;
        int done;
        st = fs_relay_next(r, &it, &done);
        if (st || done)
            break;
        st = fn ? fn(fn_user, it.stack, it.len, it.shared, it.count, it.before, it.is_diff)
                : ifn(fn_user, &it);
        if (st)
            break;
    }
    /* the consumer's failure stops the producer and is what counts */
    foldsvg_status pst = relay_end(r, st ? st : FS_STOP);
    return st ? st : pst;
}

foldsvg_status fs_relay_run(fs_relay_producer produce, void *produce_user, fs_sorted_fn fn,
                            void *fn_user)
{
    return relay_run(produce, NULL, produce_user, fn, NULL, fn_user);
}

foldsvg_status fs_relay_run_split(fs_relay_tail_producer produce, void *produce_user,
                                  fs_relay_item_fn fn, void *fn_user)
{
    return relay_run(NULL, produce, produce_user, NULL, fn, fn_user);
}
