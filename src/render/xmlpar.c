/* Chunks are claimed in order by whichever thread is free: each writes its chunk with its own
 * writer into a free slot of memory, and the caller copies the slots out in chunk order,
 * first whenever the next one is ready. The caller's share shrinks by what copying (and the
 * output's writes, on its thread) costs it; neither thread waits for the other while there
 * is a chunk to claim and a slot to write it in. They meet on a lock once a chunk. */
#include "render/xmlpar.h"

#include <libxml/parser.h>
#include <pthread.h>
#include <string.h>

#include "util/buf.h"

/* Two chunks being written and two written ahead of the copy. */
enum { NSLOT = 4 };

enum { SLOT_FREE, SLOT_BUSY, SLOT_READY };

typedef struct slot {
    fs_buf buf;
    size_t chunk;
    int state;
} slot;

typedef struct par par;

typedef struct writer {
    par *r;
    int i;        /* which of the caller's users and writers */
    fs_buf *into; /* where the writer writes; NULL: nowhere */
} writer;

struct par {
    const fs_xmlpar *p;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot slot[NSLOT];
    size_t nchunks, next_claim;
    int stop;   /* the caller needs no more */
    int failed; /* a writer could not go on */
    writer w[2];
};

static int mem_write(void *user, const char *buf, int len)
{
    writer *w = user;
    if (w->into && fs_buf_append(w->into, buf, (size_t)len) != FOLDSVG_OK)
        return -1;
    return len;
}

/* Writer I of P, into memory. */
static int open_writer(par *r, int i)
{
    writer *w = &r->w[i];
    w->r = r;
    w->i = i;
    fs_xmlw *x = r->p->x[i];
    memset(x, 0, sizeof *x);
    xmlOutputBufferPtr out = xmlOutputBufferCreateIO(mem_write, NULL, w, NULL);
    if (!out || fs_xmlw_begin(x, out, "SVG", NULL) != FOLDSVG_OK)
        return -1;
    /* items go into an element whose start tag is closed already: that markup is written
     * nowhere */
    fs_xmlw_check(x, xmlTextWriterStartElement(x->w, FS_XC("x")));
    fs_xmlw_check(x, xmlTextWriterWriteRawLen(x->w, FS_XC(""), 0));
    fs_xmlw_check(x, xmlTextWriterFlush(x->w));
    return x->failed ? -1 : 0;
}

static void close_writer(par *r, int i)
{
    fs_xmlw *x = r->p->x[i];
    if (x->w) {
        xmlFreeTextWriter(x->w); /* closes its output (fs_xmlw_begin did when it failed) */
        fs_xml_quiet_end(&x->quiet);
    }
    x->w = NULL;
    fs_buf_free(&x->clean);
}

/* A free slot for the next chunk, claimed (under the lock); NULL: none, or no chunk left. */
static slot *claim(par *r)
{
    if (r->next_claim >= r->nchunks)
        return NULL;
    for (int i = 0; i < NSLOT; i++)
        if (r->slot[i].state == SLOT_FREE) {
            r->slot[i].state = SLOT_BUSY;
            r->slot[i].chunk = r->next_claim++;
            return &r->slot[i];
        }
    return NULL;
}

/* Writes S's chunk with writer I (without the lock); nonzero: it failed. */
static int write_chunk(par *r, int i, slot *s)
{
    const fs_xmlpar *p = r->p;
    fs_xmlw *x = p->x[i];
    writer *w = &r->w[i];
    fs_buf_clear(&s->buf);
    w->into = &s->buf;
    size_t from = s->chunk * p->chunk;
    size_t to = from + p->chunk < p->n ? from + p->chunk : p->n;
    int failed = p->write(p->user[i], from, to);
    if (!failed)
        fs_xmlw_check(x, xmlTextWriterFlush(x->w));
    failed |= x->failed || x->st || s->buf.failed;
    w->into = NULL;
    return failed;
}

/* Under the lock: S is written (or failed). */
static void written(par *r, slot *s, int failed)
{
    s->state = SLOT_READY;
    r->failed |= failed;
    pthread_cond_broadcast(&r->cv);
}

static void worker_main(void *arg)
{
    par *r = arg;
    int ok = open_writer(r, 1) == 0;
    pthread_mutex_lock(&r->mu);
    if (!ok) {
        r->failed = 1;
        pthread_cond_broadcast(&r->cv);
    }
    while (ok && !r->stop && !r->failed) {
        slot *s = claim(r);
        if (!s && r->next_claim >= r->nchunks)
            break;
        if (!s) {
            pthread_cond_wait(&r->cv, &r->mu);
            continue;
        }
        pthread_mutex_unlock(&r->mu);
        int failed = write_chunk(r, 1, s);
        pthread_mutex_lock(&r->mu);
        written(r, s, failed);
    }
    pthread_mutex_unlock(&r->mu);
    close_writer(r, 1);
}

static slot *holding(par *r, size_t chunk)
{
    for (int i = 0; i < NSLOT; i++)
        if (r->slot[i].state != SLOT_FREE && r->slot[i].chunk == chunk)
            return &r->slot[i];
    return NULL;
}

/* The caller's side: copy out what is next when it is ready, else write a chunk, else wait. */
static void run(par *r, fs_xmlw *out)
{
    size_t next_out = 0;
    pthread_mutex_lock(&r->mu);
    while (next_out < r->nchunks && !r->failed) {
        slot *s = holding(r, next_out);
        if (s && s->state == SLOT_READY) {
            pthread_mutex_unlock(&r->mu);
            fs_xmlw_copy(out, s->buf.data, s->buf.len);
            pthread_mutex_lock(&r->mu);
            s->state = SLOT_FREE;
            pthread_cond_broadcast(&r->cv);
            next_out++;
            if (out->failed || out->st)
                break;
            continue;
        }
        s = claim(r);
        if (!s) {
            pthread_cond_wait(&r->cv, &r->mu);
            continue;
        }
        pthread_mutex_unlock(&r->mu);
        int failed = write_chunk(r, 0, s);
        pthread_mutex_lock(&r->mu);
        written(r, s, failed);
    }
    r->stop = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

int fs_xmlpar_run(fs_xmlw *out, const fs_xmlpar *p, fs_pool *pool)
{
    if (fs_pool_threads(pool) < 2)
        return -1;
    par r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.nchunks = (p->n + p->chunk - 1) / p->chunk;
    xmlInitParser(); /* libxml2's globals, before a second thread uses it */
    if (open_writer(&r, 0) != 0) {
        close_writer(&r, 0);
        return -1;
    }
    if (pthread_mutex_init(&r.mu, NULL) != 0) {
        close_writer(&r, 0);
        return -1;
    }
    if (pthread_cond_init(&r.cv, NULL) != 0) {
        pthread_mutex_destroy(&r.mu);
        close_writer(&r, 0);
        return -1;
    }
    /* a second writer where a worker takes it; the caller writes every chunk otherwise */
    fs_task task;
    fs_task_start(pool, &task, worker_main, &r);
    run(&r, out);
    fs_task_cancel(pool, &task);
    /* the writers write into memory: whatever failed there, memory ran out */
    if (r.failed && !out->st) {
        foldsvg_status st = p->x[0]->st ? p->x[0]->st : p->x[1]->st;
        out->st = st ? st : FOLDSVG_E_NOMEM;
    }
    close_writer(&r, 0);
    for (int i = 0; i < NSLOT; i++)
        fs_buf_free(&r.slot[i].buf);
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    return 0;
}
