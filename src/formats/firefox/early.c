#include "formats/firefox/early.h"

#include <stdlib.h>
#include <string.h>

#include "formats/firefox/gecko.h"
#include "formats/firefox/resolve.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/strmap.h"

struct ff_store {
    fs_strmap names; /* frame name -> id */
    fs_strmap nodes; /* (parent node + 1, name id), 8 bytes -> node id */
    ff_res r;        /* the resolution's buffers, kept from thread to thread */
};

void ff_store_free(ff_store *s)
{
    if (!s)
        return;
    fs_strmap_free(&s->names);
    fs_strmap_free(&s->nodes);
    free(s->r.path);
    free(s->r.frames);
    free(s);
}

static void node_key(uint32_t node, uint32_t *parent1, uint32_t *name, const ff_store *s)
{
    const char *k = fs_strmap_key(&s->nodes, node);
    memcpy(parent1, k, 4);
    memcpy(name, k + 4, 4);
}

foldsvg_status ff_store_frames(const ff_store *s, uint32_t node, fs_strref **frames, size_t *cap,
                               size_t *n)
{
    size_t d = 0;
    for (uint32_t at = node; at != FF_NO_NODE; d++) {
        uint32_t parent1, name;
        node_key(at, &parent1, &name, s);
        FS_FORWARD_IF_ERROR(FS_GROW(*frames, *cap, d + 1, 16));
        (*frames)[d] =
            (fs_strref){fs_strmap_key(&s->names, name), fs_strmap_key_len(&s->names, name)};
        at = parent1 - 1; /* the root's parent + 1 is 0: FF_NO_NODE */
    }
    for (size_t i = 0; i < d / 2; i++) { /* leaf first -> root first */
        fs_strref x = (*frames)[i];
        (*frames)[i] = (*frames)[d - 1 - i];
        (*frames)[d - 1 - i] = x;
    }
    *n = d;
    return FOLDSVG_OK;
}

/* The node of FRAMES[0..N), root first, made as needed; FF_NO_NODE for none. */
static foldsvg_status intern(ff_store *s, const fs_strref *frames, size_t n, uint32_t *out)
{
    uint32_t node = FF_NO_NODE;
    for (size_t i = 0; i < n; i++) {
        uint32_t name, key[2];
        int added;
        FS_FORWARD_IF_ERROR(
            fs_strmap_put(&s->names, frames[i].ptr, frames[i].len, 0, &name, &added));
        key[0] = node + 1;
        key[1] = name;
        FS_FORWARD_IF_ERROR(fs_strmap_put(&s->nodes, key, sizeof key, 0, &node, &added));
        if (node >= FF_NO_NODE - 1)
            return FOLDSVG_E_LIMIT;
    }
    *out = node;
    return FOLDSVG_OK;
}

/* Whether nothing left in the document can make TOP other than Gecko (the reader picks
 * the model of the top profile, formats/firefox/firefox.c). */
static int settled_gecko(const ff_profile *top)
{
    return top->is_top && !top->ordered && top->has_meta_key && top->meta_is_object &&
           top->meta_done && !top->ppv_is_number && top->first_thread_done &&
           !top->first_thread_has_string_array;
}

/* T's sums, dense, and the node of each: 0 when T resolves cleanly. */
static foldsvg_status resolve(ff_store *s, ff_thread *t, ff_acc *dense, uint32_t *nodes,
                              size_t *count)
{
    ff_res *r = &s->r;
    size_t j = 0;
    for (size_t k = 0; k < t->agg.cap; k++) {
        const ff_acc *a = &t->agg.slots[k];
        if (a->key == INT64_MIN)
            continue;
        uint32_t node = FF_NO_NODE;
        if (a->key >= 0) {
            size_t n;
            if ((uint64_t)a->key >= r->nstacks)
                return FOLDSVG_E_PARSE;
            FS_FORWARD_IF_ERROR(ff_frames_of(r, a->key, &n));
            FS_FORWARD_IF_ERROR(intern(s, r->frames, n, &node));
        }
        dense[j] = *a;
        nodes[j++] = node;
    }
    *count = j;
    return FOLDSVG_OK;
}

void ff_early_resolve(ff_profile *p, ff_thread *t, const char *file)
{
    ff_profile *top = p;
    while (top->parent)
        top = top->parent;
    if (!t->tab || t->runs || !settled_gecko(top))
        return;
    if (!top->store) {
        if (!(top->store = calloc(1, sizeof *top->store)))
            return;
        fs_strmap_init(&top->store->names, FS_STRMAP_OWNED);
        fs_strmap_init(&top->store->nodes, FS_STRMAP_OWNED);
    }
    ff_store *s = top->store;
    foldsvg_error scratch; /* a problem is the reader's to report, later */
    ff_res *r = &s->r;
    r->m = &ff_gecko_model;
    r->file = file;
    r->err = &scratch;
    r->t = t;
    r->ti = 0;
    if (ff_gecko_model.setup(r, top) != FOLDSVG_OK)
        return;
    size_t n = t->agg.count ? t->agg.count : 1;
    ff_acc *dense = malloc(n * sizeof *dense);
    uint32_t *nodes = malloc(n * sizeof *nodes);
    r->depth = r->nstacks ? calloc(r->nstacks, sizeof *r->depth) : NULL;
    size_t count = 0;
    foldsvg_status st = dense && nodes && (r->depth || !r->nstacks)
                            ? resolve(s, t, dense, nodes, &count)
                            : FOLDSVG_E_NOMEM;
    free(r->depth);
    r->depth = NULL;
    r->t = NULL;
    if (st != FOLDSVG_OK) {
        free(dense);
        free(nodes);
        return;
    }
    ff_agg_free(&t->agg);
    t->agg.slots = dense;
    t->agg.cap = t->agg.count = count;
    t->nodes = nodes;
    ff_thread_tables_free(t);
    top->resolved_early = 1;
}
