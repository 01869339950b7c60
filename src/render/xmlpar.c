/* Two slots of memory: the worker fills one with a chunk while the caller writes its own
 * chunk and then copies the other out; they meet on a lock once a chunk. */
#include "render/xmlpar.h"

#include <libxml/parser.h>
#include <pthread.h>
#include <string.h>

#include "util/buf.h"
#include "util/thread.h"

enum { NSLOT = 2 };

typedef struct par {
    const fs_xmlpar *p;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    fs_buf slot[NSLOT];
    int ready[NSLOT]; /* written, not yet copied out */
    int stop;         /* the caller needs no more */
    int failed;       /* the worker could not go on */
    fs_buf *into;     /* where the worker's writer writes; NULL: nowhere */
} par;

static int mem_write(void *user, const char *buf, int len)
{
    par *r = user;
    if (r->into && fs_buf_append(r->into, buf, (size_t)len) != FOLDSVG_OK)
        return -1;
    return len;
}

static size_t nchunks(const fs_xmlpar *p)
{
    return (p->n + p->chunk - 1) / p->chunk;
}

static void finish_slot(par *r, size_t slot, int failed)
{
    pthread_mutex_lock(&r->mu);
    r->ready[slot] = 1;
    r->failed |= failed;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

static void *worker_main(void *arg)
{
    par *r = arg;
    const fs_xmlpar *p = r->p;
    fs_xmlw *x = p->worker_x;
    xmlOutputBufferPtr out = xmlOutputBufferCreateIO(mem_write, NULL, r, NULL);
    int ok = out && fs_xmlw_begin(x, out, "SVG", NULL) == FOLDSVG_OK;
    if (ok) {
        /* items go into an element whose start tag is closed already: that markup is
         * written nowhere */
        fs_xmlw_check(x, xmlTextWriterStartElement(x->w, FS_XC("x")));
        fs_xmlw_check(x, xmlTextWriterWriteRawLen(x->w, FS_XC(""), 0));
        fs_xmlw_check(x, xmlTextWriterFlush(x->w));
    }
    for (size_t k = 1; k < nchunks(p); k += 2) {
        size_t s = (k / 2) % NSLOT;
        pthread_mutex_lock(&r->mu);
        while (r->ready[s] && !r->stop)
            pthread_cond_wait(&r->cv, &r->mu);
        int stop = r->stop;
        pthread_mutex_unlock(&r->mu);
        if (stop)
            break;
        fs_buf_clear(&r->slot[s]);
        r->into = &r->slot[s];
        size_t to = (k + 1) * p->chunk < p->n ? (k + 1) * p->chunk : p->n;
        int failed = !ok || p->write(p->worker_user, k * p->chunk, to);
        if (!failed)
            fs_xmlw_check(x, xmlTextWriterFlush(x->w));
        failed |= x->failed || x->st || r->slot[s].failed;
        r->into = NULL;
        finish_slot(r, s, failed);
        if (failed)
            break;
    }
    if (x->w) {
        xmlFreeTextWriter(x->w); /* closes OUT (fs_xmlw_begin did when it failed) */
        x->w = NULL;
    }
    return NULL;
}

int fs_xmlpar_run(fs_xmlw *out, const fs_xmlpar *p)
{
    par r;
    memset(&r, 0, sizeof r);
    r.p = p;
    memset(p->worker_x, 0, sizeof *p->worker_x);
    xmlInitParser(); /* libxml2's globals, before a second thread uses it */
    if (pthread_mutex_init(&r.mu, NULL) != 0)
        return -1;
    if (pthread_cond_init(&r.cv, NULL) != 0) {
        pthread_mutex_destroy(&r.mu);
        return -1;
    }
    pthread_t thread;
    if (fs_thread_create(&thread, worker_main, &r) != 0) {
        pthread_cond_destroy(&r.cv);
        pthread_mutex_destroy(&r.mu);
        return -1;
    }
    int worker_failed = 0;
    for (size_t k = 0; k < nchunks(p); k++) {
        size_t to = (k + 1) * p->chunk < p->n ? (k + 1) * p->chunk : p->n;
        if (k % 2 == 0) {
            if (p->write(p->user, k * p->chunk, to))
                break;
            continue;
        }
        size_t s = (k / 2) % NSLOT;
        pthread_mutex_lock(&r.mu);
        while (!r.ready[s])
            pthread_cond_wait(&r.cv, &r.mu);
        worker_failed = r.failed;
        pthread_mutex_unlock(&r.mu);
        if (worker_failed)
            break;
        fs_xmlw_raw(out, r.slot[s].data, r.slot[s].len);
        pthread_mutex_lock(&r.mu);
        r.ready[s] = 0;
        pthread_cond_broadcast(&r.cv);
        pthread_mutex_unlock(&r.mu);
    }
    pthread_mutex_lock(&r.mu);
    r.stop = 1;
    pthread_cond_broadcast(&r.cv);
    pthread_mutex_unlock(&r.mu);
    pthread_join(thread, NULL);
    /* the worker writes into memory: whatever failed there, memory ran out */
    if (worker_failed && !out->st)
        out->st = p->worker_x->st ? p->worker_x->st : FOLDSVG_E_NOMEM;
    fs_buf_free(&p->worker_x->clean);
    for (int i = 0; i < NSLOT; i++)
        fs_buf_free(&r.slot[i]);
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    return 0;
}
