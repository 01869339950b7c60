/* Trace events as speedscope's importTraceEvents reads them: per thread (pid, tid), the B
 * and E events, and each X event as a B at its ts and an E at ts + dur (tdur when it has no
 * dur), into two queues ordered by time (ties: B events in their order, then X events, longer
 * first); the queues are taken in time order, an E at the time of a B first when it closes
 * that B; an E closes the frame on top when its name is that frame's (of the E events at its
 * time, one that matches the top is taken first); frames open at the end close at the last
 * time. Each stack weighs the time it was on top. Also the samples-over-stackFrames form:
 * each sample weighs the time to the thread's next sample. The documents, names and
 * metadata of the reader live here too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chrome/model.h"
#include "util/error.h"
#include "util/grow.h"

static foldsvg_status nomem(cr_doc *d)
{
    return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
}

foldsvg_status cr_intern(cr_doc *d, const char *name, size_t len, uint32_t *out)
{
    foldsvg_status st = fs_strmap_put(&d->names, name, len, 0, out, NULL);
    if (st)
        return st == FOLDSVG_E_NOMEM ? nomem(d) : fs_error(d->err, st, d->file, "too many names");
    return FOLDSVG_OK;
}

void cr_doc_init(cr_doc *d, const char *file, foldsvg_error *err, int ordered)
{
    memset(d, 0, sizeof *d);
    d->file = file;
    d->err = err;
    d->ordered = ordered;
    fs_strmap_init(&d->names, FS_STRMAP_OWNED);
    fs_strmap_init(&d->thread_names, FS_STRMAP_OWNED);
    fs_strmap_init(&d->process_names, FS_STRMAP_OWNED);
    fs_strmap_init(&d->sf_ids, FS_STRMAP_OWNED);
}

void cr_doc_free(cr_doc *d)
{
    for (size_t i = 0; i < d->nprofiles; i++)
        cr_profile_free(d->profiles[i]);
    for (size_t i = 0; i < d->nthreads; i++)
        cr_thread_free(d->threads[i]);
    for (size_t i = 0; i < d->ntnames; i++)
        free(d->tnames[i]);
    for (size_t i = 0; i < d->npnames; i++)
        free(d->pnames[i]);
    free(d->profiles);
    free(d->threads);
    free(d->tnames);
    free(d->pnames);
    free(d->sf);
    fs_strmap_free(&d->names);
    fs_strmap_free(&d->thread_names);
    fs_strmap_free(&d->process_names);
    fs_strmap_free(&d->sf_ids);
}

/* ---- metadata -------------------------------------------------------------------------- */

static foldsvg_status set_name(cr_doc *d, fs_strmap *m, char ***names, size_t *n, size_t *cap,
                               const char *key, const char *name, size_t len)
{
    uint32_t k;
    int added;
    if (fs_strmap_put(m, key, strlen(key), 0, &k, &added))
        return nomem(d);
    char *copy = malloc(len + 1);
    if (!copy)
        return nomem(d);
    memcpy(copy, name, len);
    copy[len] = '\0';
    if (!added) { /* the last name given stands */
        free((*names)[k]);
        (*names)[k] = copy;
        return FOLDSVG_OK;
    }
    if (FS_GROW(*names, *cap, *n + 1, 8)) {
        free(copy);
        return nomem(d);
    }
    (*names)[(*n)++] = copy;
    return FOLDSVG_OK;
}

foldsvg_status cr_name_thread(cr_doc *d, const char *pidtid, const char *name, size_t len)
{
    return set_name(d, &d->thread_names, &d->tnames, &d->ntnames, &d->tnames_cap, pidtid, name,
                    len);
}

foldsvg_status cr_name_process(cr_doc *d, const char *pid, const char *name, size_t len)
{
    return set_name(d, &d->process_names, &d->pnames, &d->npnames, &d->pnames_cap, pid, name, len);
}

const char *cr_thread_name_of(const cr_doc *d, const char *pidtid)
{
    uint32_t k = fs_strmap_find(&d->thread_names, pidtid, strlen(pidtid));
    return k == FS_STRMAP_NONE ? NULL : d->tnames[k];
}

const char *cr_process_name_of(const cr_doc *d, const char *pid, size_t len)
{
    uint32_t k = fs_strmap_find(&d->process_names, pid, len);
    return k == FS_STRMAP_NONE ? NULL : d->pnames[k];
}

/* ---- threads ------------------------------------------------------------------------------ */

foldsvg_status cr_thread_get(cr_doc *d, const char *pidtid, double pid, double tid, cr_thread **out)
{
    for (size_t i = d->nthreads; i-- > 0;)
        if (strcmp(d->threads[i]->pidtid, pidtid) == 0) {
            *out = d->threads[i];
            return FOLDSVG_OK;
        }
    if (FS_GROW(d->threads, d->threads_cap, d->nthreads + 1, 4))
        return nomem(d);
    cr_thread *t = calloc(1, sizeof *t);
    if (!t)
        return nomem(d);
    d->threads[d->nthreads++] = t;
    t->pidtid = strdup(pidtid);
    t->pid = pid;
    t->tid = tid;
    if (!t->pidtid || fs_trie_init(&t->trie, d->ordered) || fs_trie_init(&t->samples, d->ordered))
        return nomem(d);
    *out = t;
    return FOLDSVG_OK;
}

void cr_thread_free(cr_thread *t)
{
    if (!t)
        return;
    free(t->pidtid);
    free(t->ev);
    fs_trie_free(&t->trie);
    fs_trie_free(&t->samples);
    free(t);
}

foldsvg_status cr_thread_event(cr_doc *d, cr_thread *t, char ph, double ts, double dur,
                               uint32_t name)
{
    if (FS_GROW(t->ev, t->cap, t->nev + 1, 64))
        return nomem(d);
    t->ev[t->nev++] = (cr_event){ts, dur, name, ph};
    return FOLDSVG_OK;
}

/* ---- samples over stackFrames ---------------------------------------------------------- */

static foldsvg_status sf_index(cr_doc *d, const char *key, size_t len, uint32_t *out)
{
    int added;
    if (fs_strmap_put(&d->sf_ids, key, len, 0, out, &added))
        return nomem(d);
    if (!added)
        return FOLDSVG_OK;
    if (FS_GROW(d->sf, d->sf_cap, d->nsf + 1, 64))
        return nomem(d);
    d->sf[d->nsf++] = (cr_stackframe){CR_NONE, CR_NONE};
    return FOLDSVG_OK;
}

foldsvg_status cr_stackframe_set(cr_doc *d, const char *key, size_t key_len, uint32_t name,
                                 const char *parent, size_t parent_len)
{
    uint32_t k, pk = CR_NONE;
    FS_FORWARD_IF_ERROR(sf_index(d, key, key_len, &k));
    if (parent)
        FS_FORWARD_IF_ERROR(sf_index(d, parent, parent_len, &pk));
    d->sf[k] = (cr_stackframe){name, pk};
    return FOLDSVG_OK;
}

foldsvg_status cr_thread_sample(cr_doc *d, cr_thread *t, const char *sf, size_t sf_len, double ts)
{
    uint32_t k;
    FS_FORWARD_IF_ERROR(sf_index(d, sf, sf_len, &k));
    if (t->nsamples++) {
        uint32_t node;
        foldsvg_status st = fs_trie_child(&t->samples, 0, t->last_sf, &node);
        if (st == FOLDSVG_OK && fs_trie_add(&t->samples, node, ts - t->last_ts))
            st = FOLDSVG_E_NOMEM;
        if (st)
            return st == FOLDSVG_E_NOMEM ? nomem(d)
                                         : fs_error(d->err, st, d->file, "too many stacks");
    }
    t->last_sf = k;
    t->last_ts = ts;
    return FOLDSVG_OK;
}

foldsvg_status cr_stackframe_frames(cr_doc *d, uint32_t sf, fs_strref **frames, size_t *cap,
                                    size_t *n)
{
    *n = 0;
    for (uint32_t k = sf; k != CR_NONE; k = d->sf[k].parent) {
        if (d->sf[k].name == CR_NONE)
            return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                            "stack frame '%s' is not in stackFrames", fs_strmap_key(&d->sf_ids, k));
        if (*n > d->nsf)
            return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                            "stackFrames: the parents of '%s' go round in a cycle",
                            fs_strmap_key(&d->sf_ids, sf));
        if (FS_GROW(*frames, *cap, *n + 1, 64))
            return nomem(d);
        (*frames)[(*n)++] = cr_name(d, d->sf[k].name);
    }
    for (size_t i = 0, j = *n; i + 1 < j; i++, j--) {
        fs_strref x = (*frames)[i];
        (*frames)[i] = (*frames)[j - 1];
        (*frames)[j - 1] = x;
    }
    return FOLDSVG_OK;
}

/* ---- B, E and X events into stacks --------------------------------------------------------- */

typedef struct qev {
    double ts, dur;
    uint32_t name;
    uint32_t seq; /* the order of the file (X events: after every B) */
} qev;

static int by_x_order(const void *a, const void *b)
{
    const qev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_ts(const void *a, const void *b)
{
    const qev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct evrun {
    cr_doc *d;
    cr_thread *t;
    uint32_t *stack; /* open frames: names */
    uint32_t *nodes; /* and the trie node of each depth */
    size_t depth, cap, nodes_cap;
    double last;
    int started;
} evrun;

/* The time from the last event to AT goes to the stack on top. */
static foldsvg_status advance(evrun *r, double at)
{
    if (r->started && at > r->last) {
        uint32_t node = r->depth ? r->nodes[r->depth - 1] : 0;
        if (fs_trie_add(&r->t->trie, node, at - r->last))
            return nomem(r->d);
    }
    if (!r->started || at > r->last)
        r->last = at;
    r->started = 1;
    return FOLDSVG_OK;
}

static foldsvg_status enter(evrun *r, const qev *b)
{
    FS_FORWARD_IF_ERROR(advance(r, b->ts));
    if (FS_GROW(r->stack, r->cap, r->depth + 1, 64))
        return nomem(r->d);
    if (FS_GROW(r->nodes, r->nodes_cap, r->depth + 1, 64))
        return nomem(r->d);
    uint32_t parent = r->depth ? r->nodes[r->depth - 1] : 0, node;
    foldsvg_status st = fs_trie_child(&r->t->trie, parent, b->name, &node);
    if (st)
        return st == FOLDSVG_E_NOMEM ? nomem(r->d)
                                     : fs_error(r->d->err, st, r->d->file, "too many stacks");
    r->stack[r->depth] = b->name;
    r->nodes[r->depth++] = node;
    return FOLDSVG_OK;
}

static foldsvg_status leave(evrun *r, const qev *e)
{
    if (!r->depth || r->stack[r->depth - 1] != e->name)
        return FOLDSVG_OK; /* speedscope leaves the stack as it is */
    FS_FORWARD_IF_ERROR(advance(r, e->ts));
    r->depth--;
    return FOLDSVG_OK;
}

foldsvg_status cr_thread_build(cr_doc *d, cr_thread *t)
{
    size_t nb = 0, ne = 0, nx = 0;
    for (size_t i = 0; i < t->nev; i++)
        nb += t->ev[i].ph == 'B', ne += t->ev[i].ph == 'E', nx += t->ev[i].ph == 'X';
    qev *bq = malloc((nb + nx + 1) * sizeof *bq), *eq = malloc((ne + nx + 1) * sizeof *eq);
    qev *xq = malloc((nx + 1) * sizeof *xq);
    evrun r = {d, t, NULL, NULL, 0, 0, 0, 0, 0};
    foldsvg_status st = bq && eq && xq ? FOLDSVG_OK : nomem(d);
    size_t b = 0, e = 0, x = 0;
    for (size_t i = 0; st == FOLDSVG_OK && i < t->nev; i++) {
        const cr_event *v = &t->ev[i];
        qev q = {v->ts, v->dur, v->name, (uint32_t)i};
        if (v->ph == 'B')
            bq[b++] = q;
        else if (v->ph == 'E')
            eq[e++] = q;
        else
            xq[x++] = q;
    }
    if (st == FOLDSVG_OK) {
        qsort(xq, nx, sizeof *xq, by_x_order);
        for (size_t i = 0; i < nx; i++) {
            qev q = xq[i];
            q.seq = (uint32_t)(t->nev + i);
            bq[b++] = q;
            q.ts = xq[i].ts + xq[i].dur;
            eq[e++] = q;
        }
        qsort(bq, b, sizeof *bq, by_ts);
        qsort(eq, e, sizeof *eq, by_ts);
    }
    size_t bi = 0, ei = 0;
    while (st == FOLDSVG_OK && (bi < b || ei < e)) {
        int take_b = ei == e || (bi < b && (bq[bi].ts < eq[ei].ts || (bq[bi].ts == eq[ei].ts &&
                                                                      bq[bi].name == eq[ei].name)));
        if (take_b) {
            st = enter(&r, &bq[bi++]);
            continue;
        }
        /* of the E events at this time, one that closes the frame on top first */
        if (r.depth) {
            uint32_t top = r.stack[r.depth - 1];
            for (size_t k = ei + 1; k < e && eq[k].ts <= eq[ei].ts; k++)
                if (eq[k].name == top) {
                    qev tmp = eq[ei];
                    eq[ei] = eq[k];
                    eq[k] = tmp;
                    break;
                }
        }
        st = leave(&r, &eq[ei++]);
    }
    free(bq);
    free(eq);
    free(xq);
    free(r.stack);
    free(r.nodes);
    free(t->ev);
    t->ev = NULL;
    t->nev = t->cap = 0;
    return st;
}
