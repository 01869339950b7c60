/* Trace events, per thread (pid, tid): the threads themselves (their B/E/X events are taken
 * by formats/chrome/bex.c) and the samples-over-stackFrames form, where each sample weighs
 * the time to the thread's next sample. The documents, names and metadata of the reader live
 * here too. */
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

void cr_doc_init(cr_doc *d, const char *file, foldsvg_error *err, int ordered, int keep,
                 size_t budget)
{
    memset(d, 0, sizeof *d);
    d->keep = keep;
    d->budget = budget;
    d->file = file;
    d->err = err;
    d->ordered = ordered;
    fs_strmap_init(&d->names, FS_STRMAP_OWNED);
    fs_strmap_init(&d->thread_names, FS_STRMAP_OWNED);
    fs_strmap_init(&d->thread_ids, FS_STRMAP_OWNED);
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
    fs_recsort_free(d->kept);
    fs_strmap_free(&d->names);
    fs_strmap_free(&d->thread_names);
    fs_strmap_free(&d->thread_ids);
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
    uint32_t k;
    int added;
    if (fs_strmap_put(&d->thread_ids, pidtid, strlen(pidtid), 0, &k, &added))
        return nomem(d);
    if (!added) { /* entries are made with the threads, in their order */
        *out = d->threads[k];
        return FOLDSVG_OK;
    }
    if (FS_GROW(d->threads, d->threads_cap, d->nthreads + 1, 4))
        return nomem(d);
    cr_thread *t = calloc(1, sizeof *t);
    if (!t)
        return nomem(d);
    t->index = (uint32_t)d->nthreads;
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
    cr_bex_free(t->bex);
    fs_trie_free(&t->trie);
    fs_trie_free(&t->samples);
    free(t);
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
