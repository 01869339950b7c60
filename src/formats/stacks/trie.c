#include "formats/stacks/trie.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

void fs_weight_add(fs_weight *w, double v)
{
    if (v == 0 || !isfinite(v))
        return;
    double whole = floor(v);
    if (whole == v && fabs(v) < 9.0e15) {
        w->whole += (int64_t)v;
        return;
    }
    if (fabs(whole) < 9.0e15) {
        w->whole += (int64_t)whole;
        v -= whole;
    }
    /* Neumaier's compensated sum of the fractions */
    double s = w->hi + v;
    if (fabs(w->hi) >= fabs(v))
        w->lo += (w->hi - s) + v;
    else
        w->lo += (v - s) + w->hi;
    w->hi = s;
}

int fs_weight_frac(const fs_weight *w)
{
    return w->hi + w->lo != 0;
}

static double weight_value(const fs_weight *w)
{
    return (double)w->whole + w->hi + w->lo;
}

foldsvg_status fs_trie_init(fs_trie *t, int keep_runs)
{
    memset(t, 0, sizeof *t);
    fs_u64map_init(&t->kids);
    t->keep_runs = keep_runs;
    uint32_t root;
    return fs_trie_child(t, UINT32_MAX, 0, &root);
}

void fs_trie_free(fs_trie *t)
{
    free(t->parent);
    free(t->item);
    free(t->depth);
    free(t->w);
    free(t->runs);
    fs_u64map_free(&t->kids);
    memset(t, 0, sizeof *t);
}

foldsvg_status fs_trie_child(fs_trie *t, uint32_t parent, uint32_t item, uint32_t *out)
{
    uint32_t node = (uint32_t)t->n;
    int added = 1;
    if (parent != UINT32_MAX) {
        if (t->n >= UINT32_MAX - 1)
            return FOLDSVG_E_LIMIT;
        if (fs_u64map_put(&t->kids, (uint64_t)parent << 32 | item, &node, &added))
            return FOLDSVG_E_NOMEM;
    }
    *out = node;
    if (!added)
        return FOLDSVG_OK;
    if (t->n == t->cap) {
        size_t cap = fs_grow_cap(t->cap, t->n + 1, 256, sizeof(fs_weight));
        if (!cap || fs_resize(&t->parent, cap, sizeof *t->parent) ||
            fs_resize(&t->item, cap, sizeof *t->item) ||
            fs_resize(&t->depth, cap, sizeof *t->depth) || fs_resize(&t->w, cap, sizeof *t->w))
            return FOLDSVG_E_NOMEM;
        t->cap = cap;
    }
    t->parent[node] = parent == UINT32_MAX ? 0 : parent;
    t->item[node] = item;
    t->depth[node] = parent == UINT32_MAX ? 0 : t->depth[parent] + 1;
    memset(&t->w[node], 0, sizeof t->w[node]);
    t->n++;
    return FOLDSVG_OK;
}

uint32_t fs_trie_ancestor(const fs_trie *t, uint32_t node, uint32_t depth)
{
    while (t->depth[node] > depth)
        node = t->parent[node];
    return node;
}

foldsvg_status fs_trie_add(fs_trie *t, uint32_t node, double v)
{
    /* time in whole microseconds, mostly */
    int64_t whole = (int64_t)v;
    if ((double)whole == v && whole >= 0 && whole < ((int64_t)1 << 52))
        t->w[node].whole += whole;
    else
        fs_weight_add(&t->w[node], v);
    if (!t->keep_runs || v == 0)
        return FOLDSVG_OK;
    if (t->nruns && t->runs[t->nruns - 1].node == node) {
        t->runs[t->nruns - 1].w += v;
        return FOLDSVG_OK;
    }
    if (FS_GROW(t->runs, t->runs_cap, t->nruns + 1, 256))
        return FOLDSVG_E_NOMEM;
    t->runs[t->nruns++] = (fs_run){node, v};
    return FOLDSVG_OK;
}

int fs_trie_has_frac(const fs_trie *t)
{
    for (size_t i = 1; i < t->n; i++)
        if (fs_weight_frac(&t->w[i]))
            return 1;
    return 0;
}

double fs_trie_total(const fs_trie *t, int root)
{
    double sum = 0;
    for (size_t i = root ? 0 : 1; i < t->n; i++)
        sum += weight_value(&t->w[i]);
    return sum;
}

/* NODE's frames, root first, into *FRAMES. */
static foldsvg_status frames_of(const fs_trie *t, uint32_t node, const fs_trie_names *names,
                                fs_strref **frames, size_t *cap, size_t *n)
{
    if (names->frames)
        return names->frames(names->user, t, node, frames, cap, n);
    *n = t->depth[node];
    if (FS_GROW(*frames, *cap, *n ? *n : 1, 64))
        return FOLDSVG_E_NOMEM;
    for (size_t k = *n; k-- > 0; node = t->parent[node])
        (*frames)[k] = names->name(names->user, t->item[node]);
    return FOLDSVG_OK;
}

/* The stacks depth first, each node's children in the order they came: a stack then shares
 * most of its frames with the one handed over before it, which sink->shared spares the sink
 * looking at again. The frames array is kept as the walk goes, a name asked for once a node. */
static foldsvg_status emit_depth_first(const fs_trie *t, const fs_trie_names *names, fs_sink *sink,
                                       const char *file, foldsvg_error *err)
{
    size_t n = t->n;
    uint32_t *first = malloc(n * sizeof *first), *next = malloc(n * sizeof *next);
    uint32_t *todo = NULL;
    fs_strref *frames = NULL;
    size_t todo_cap = 0, frames_cap = 0, ntodo = 0;
    foldsvg_status st =
        first && next ? FOLDSVG_OK : fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    if (!st) {
        /* child lists: the later siblings pushed first, so each list is in node order */
        memset(first, 0xff, n * sizeof *first);
        for (size_t i = n; i-- > 1;) {
            next[i] = first[t->parent[i]];
            first[t->parent[i]] = (uint32_t)i;
        }
    }
    size_t valid = 0; /* frames[0..valid) are those of the stack handed over last */
    for (uint32_t c = st ? UINT32_MAX : first[0]; c != UINT32_MAX && !st;) {
        uint32_t d = t->depth[c];
        if (FS_GROW(frames, frames_cap, d, 64) || FS_GROW(todo, todo_cap, ntodo + 1, 64)) {
            st = fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
            break;
        }
        frames[d - 1] = names->name(names->user, t->item[c]);
        if (valid > d - 1)
            valid = d - 1;
        const fs_weight *w = &t->w[c];
        if (w->whole > 0) { /* no stack has a fraction */
            st = sink->shared(sink, frames, d, valid, (uint64_t)w->whole, err);
            valid = d;
        }
        /* on to the first child, else the next sibling of the node or of an ancestor */
        if (next[c] != UINT32_MAX)
            todo[ntodo++] = next[c];
        if (first[c] != UINT32_MAX)
            c = first[c];
        else
            c = ntodo ? todo[--ntodo] : UINT32_MAX;
    }
    free(first);
    free(next);
    free(todo);
    free(frames);
    return st;
}

foldsvg_status fs_trie_emit(const fs_trie *t, const fs_trie_names *names, int frac, fs_sink *sink,
                            const char *file, foldsvg_error *err)
{
    if (!frac && !names->frames && sink->shared)
        return emit_depth_first(t, names, sink, file, err);
    fs_strref *frames = NULL;
    size_t cap = 0, n;
    foldsvg_status st = FOLDSVG_OK;
    for (uint32_t i = 1; i < t->n && st == FOLDSVG_OK; i++) {
        const fs_weight *w = &t->w[i];
        if (weight_value(w) <= 0 || (!frac && w->whole <= 0))
            continue;
        st = frames_of(t, i, names, &frames, &cap, &n);
        if (st == FOLDSVG_E_NOMEM)
            st = fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
        else if (st)
            ;
        else if (frac)
            st = sink->weight ? sink->weight(sink, frames, n, w, err) : FOLDSVG_OK;
        else
            st = sink->stack(sink, frames, n, (uint64_t)w->whole, err);
    }
    free(frames);
    return st;
}

foldsvg_status fs_trie_emit_runs(const fs_trie *t, const fs_trie_names *names, uint64_t key_base,
                                 fs_sink *sink, const char *file, foldsvg_error *err)
{
    fs_strref *frames = NULL;
    size_t cap = 0, n;
    double total = 0;
    uint64_t shown = 0;
    foldsvg_status st = FOLDSVG_OK;
    for (size_t k = 0; k < t->nruns && st == FOLDSVG_OK; k++) {
        const fs_run *r = &t->runs[k];
        if (r->w <= 0)
            continue;
        total += r->w;
        /* each run gets what its end adds to the rounded running total */
        uint64_t upto = (uint64_t)llround(total);
        uint64_t count = upto > shown ? upto - shown : 0;
        shown = upto > shown ? upto : shown;
        if (!count || (r->node == 0 && !names->frames))
            continue;
        uint64_t key = key_base + r->node;
        int known = 0;
        if (sink->again)
            st = sink->again(sink, key, count, &known, err);
        if (st || known)
            continue;
        st = frames_of(t, r->node, names, &frames, &cap, &n);
        if (st == FOLDSVG_E_NOMEM)
            st = fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
        else if (st == FOLDSVG_OK)
            st = sink->keyed ? sink->keyed(sink, key, frames, n, count, err)
                             : sink->stack(sink, frames, n, count, err);
    }
    free(frames);
    return st;
}
