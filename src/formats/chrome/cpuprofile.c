/* V8 CPU profiles as speedscope's importFromChromeCPUProfile reads them, but as a stream:
 * each sample's node gives the stack it opens; a run of equal samples lasts until the next
 * different one begins (the last sample has no time of its own); time that goes backwards
 * is held at the latest time seen. The stack of a node is its path to the root up to the
 * first node speedscope leaves out ((root), (idle), "native dummy.js"), except that
 * (program) and (garbage collector) stand on the stack of the sample before them, so the
 * stack a sample opens depends on the one before: each such change is worked out once and
 * remembered (current stack, node) -> stack. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chrome/model.h"
#include "util/error.h"
#include "util/grow.h"

static foldsvg_status nomem(cr_doc *d)
{
    return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
}

foldsvg_status cr_profile_get(cr_doc *d, const char *key, const char *pidtid, int make,
                              cr_profile **out)
{
    *out = NULL;
    for (size_t i = 0; i < d->nprofiles; i++)
        if (strcmp(d->profiles[i]->key, key) == 0) {
            *out = d->profiles[i];
            return FOLDSVG_OK;
        }
    if (!make)
        return FOLDSVG_OK;
    if (FS_GROW(d->profiles, d->profiles_cap, d->nprofiles + 1, 4))
        return nomem(d);
    cr_profile *p = calloc(1, sizeof *p);
    if (!p)
        return nomem(d);
    fs_u64map_init(&p->by_id);
    fs_u64map_init(&p->child_parent);
    fs_u64map_init(&p->memo);
    p->key = strdup(key);
    p->pidtid = pidtid ? strdup(pidtid) : NULL;
    d->profiles[d->nprofiles++] = p;
    if (!p->key || (pidtid && !p->pidtid) || fs_trie_init(&p->trie, d->ordered))
        return nomem(d);
    *out = p;
    return FOLDSVG_OK;
}

void cr_profile_free(cr_profile *p)
{
    if (!p)
        return;
    free(p->key);
    free(p->pidtid);
    free(p->nodes);
    free(p->dense);
    fs_u64map_free(&p->by_id);
    fs_u64map_free(&p->child_parent);
    fs_u64map_free(&p->memo);
    fs_trie_free(&p->trie);
    free(p->qs);
    free(p->qd);
    free(p->mark);
    free(p->stamp);
    free(p->open);
    free(p);
}

foldsvg_status cr_profile_node(cr_doc *d, cr_profile *p, int64_t id, int64_t parent_id,
                               uint32_t name, uint8_t flags)
{
    if (p->nnodes >= CR_NONE - 1)
        return fs_error(d->err, FOLDSVG_E_LIMIT, d->file, "more than 2^32 profile nodes");
    uint32_t idx = (uint32_t)p->nnodes;
    int added;
    if (fs_u64map_put(&p->by_id, (uint64_t)id, &idx, &added))
        return nomem(d);
    if (!added) /* a node id given again: the first stands (its stacks may be made already) */
        return FOLDSVG_OK;
    if (FS_GROW(p->nodes, p->cap, p->nnodes + 1, 64))
        return nomem(d);
    p->nodes[p->nnodes++] = (cr_node){id, parent_id, name, flags, 0, 0};
    /* small ids also index an array: the lookup of every sample's node */
    if (id >= 0 && id < ((int64_t)1 << 22)) {
        size_t need = (size_t)id + 1;
        if (need > p->dense_cap) {
            size_t cap = p->dense_cap;
            if (fs_grow(&p->dense, &cap, need, sizeof *p->dense, 1024))
                return nomem(d);
            memset(p->dense + p->dense_cap, 0, (cap - p->dense_cap) * sizeof *p->dense);
            p->dense_cap = cap;
        }
        p->dense[id] = idx + 1;
    }
    return FOLDSVG_OK;
}

foldsvg_status cr_profile_child(cr_doc *d, cr_profile *p, int64_t parent, int64_t child)
{
    uint32_t pi = fs_u64map_get(&p->by_id, (uint64_t)parent);
    if (pi == FS_U64MAP_NONE)
        return FOLDSVG_OK;
    int added;
    uint32_t v = pi;
    if (fs_u64map_put(&p->child_parent, (uint64_t)child, &v, &added))
        return nomem(d);
    return FOLDSVG_OK;
}

/* The node a node's stack goes on with: its parent (by a children list, else its parent
 * field), or, for (program) and (garbage collector), the top of the current stack. */
static uint32_t up(const cr_profile *p, uint32_t x, uint32_t top)
{
    const cr_node *n = &p->nodes[x];
    if (n->flags & CR_ON_TOP)
        return top;
    uint32_t by_list = fs_u64map_get(&p->child_parent, (uint64_t)n->id);
    if (by_list != FS_U64MAP_NONE)
        return by_list;
    if (n->parent_id == INT64_MIN)
        return CR_NONE;
    uint32_t v = fs_u64map_get(&p->by_id, (uint64_t)n->parent_id);
    return v == FS_U64MAP_NONE ? CR_NONE : v;
}

/* Whether X is simple (cr_node.simple), working out its path's stack when it is: the
 * stack a sample of a simple node opens is its path, whatever the stack before it (every
 * simple node on a stack has its path below it), so only the others need the walk below. */
static foldsvg_status simple(cr_doc *d, cr_profile *p, uint32_t x, int *yes)
{
    /* up to the first node known (or the root), then down again */
    size_t n = 0;
    uint32_t y = x;
    while (y != CR_NONE && !p->nodes[y].simple) {
        if (FS_GROW(p->open, p->open_cap, n + 1, 64))
            return nomem(d);
        p->open[n++] = y;
        if (n > p->nnodes)
            return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                            "profile node %lld: its parents go round in a cycle",
                            (long long)p->nodes[x].id);
        y = up(p, y, CR_NONE);
    }
    /* the chain's base: the root's side (no node), or a node known */
    uint8_t base = y == CR_NONE ? 1 : p->nodes[y].simple;
    uint32_t at = y == CR_NONE ? 0 : p->nodes[y].nat;
    for (size_t k = n; k-- > 0;) {
        cr_node *c = &p->nodes[p->open[k]];
        if (base != 1 || (c->flags & CR_ON_TOP)) {
            c->simple = base = 2;
            continue;
        }
        if (c->flags & CR_IGNORED) {
            /* a left-out node is simple only as the root of its path */
            c->simple = (k + 1 == n && y == CR_NONE) ? 1 : 2;
            c->nat = 0;
            base = c->simple;
            continue;
        }
        foldsvg_status st = fs_trie_child(&p->trie, at, p->open[k], &at);
        if (st)
            return st == FOLDSVG_E_NOMEM ? nomem(d)
                                         : fs_error(d->err, st, d->file, "more than 2^32 stacks");
        c->simple = 1;
        c->nat = at;
    }
    *yes = p->nodes[x].simple == 1;
    return FOLDSVG_OK;
}

/* The stack after the current one when a sample of node X comes (speedscope: close the
 * frames down to the lowest one the new stack shares, open the new ones). */
static foldsvg_status transition(cr_doc *d, cr_profile *p, uint32_t x, uint32_t *next)
{
    int yes = 0;
    FS_FORWARD_IF_ERROR(simple(d, p, x, &yes));
    if (yes) {
        *next = p->nodes[x].nat;
        return FOLDSVG_OK;
    }
    uint64_t mkey = (uint64_t)p->cur << 32 | x;
    uint32_t known = fs_u64map_get(&p->memo, mkey);
    if (known != FS_U64MAP_NONE) {
        *next = known;
        return FOLDSVG_OK;
    }
    if (p->mark_cap < p->nnodes) {
        size_t cap = p->mark_cap;
        if (fs_grow(&p->mark, &cap, p->nnodes, sizeof *p->mark, 64))
            return nomem(d);
        cap = p->mark_cap;
        if (fs_grow(&p->stamp, &cap, p->nnodes, sizeof *p->stamp, 64))
            return nomem(d);
        memset(p->stamp + p->mark_cap, 0, (cap - p->mark_cap) * sizeof *p->stamp);
        p->mark_cap = cap;
    }
    if (++p->stamp_now == 0) {
        memset(p->stamp, 0, p->mark_cap * sizeof *p->stamp);
        p->stamp_now = 1;
    }
    /* the current stack's nodes, marked with their depth (the outermost one wins) */
    const fs_trie *t = &p->trie;
    uint32_t depth = t->depth[p->cur], top = depth ? t->item[p->cur] : CR_NONE;
    for (uint32_t s = p->cur; s; s = t->parent[s]) {
        p->stamp[t->item[s]] = p->stamp_now;
        p->mark[t->item[s]] = t->depth[s];
    }
#define IN_CUR(n) ((n) != CR_NONE && p->stamp[n] == p->stamp_now)
    size_t limit = p->nnodes + depth + 1, steps = 0;
    uint32_t lca = x;
    while (lca != CR_NONE && !IN_CUR(lca)) {
        lca = up(p, lca, top);
        if (++steps > limit)
            return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                            "profile node %lld: its parents go round in a cycle",
                            (long long)p->nodes[x].id);
    }
    size_t nopen = 0;
    for (uint32_t y = x; y != CR_NONE && y != lca && !(p->nodes[y].flags & CR_IGNORED);
         y = up(p, y, top)) {
        if (FS_GROW(p->open, p->open_cap, nopen + 1, 64))
            return nomem(d);
        p->open[nopen++] = y;
        if (nopen > limit)
            return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                            "profile node %lld: its parents go round in a cycle",
                            (long long)p->nodes[x].id);
    }
    uint32_t s = fs_trie_ancestor(t, p->cur, lca == CR_NONE ? 0 : p->mark[lca]);
#undef IN_CUR
    for (size_t k = nopen; k-- > 0;) {
        foldsvg_status st = fs_trie_child(&p->trie, s, p->open[k], &s);
        if (st)
            return st == FOLDSVG_E_NOMEM ? nomem(d)
                                         : fs_error(d->err, st, d->file, "more than 2^32 stacks");
    }
    uint32_t v = s;
    if (fs_u64map_put(&p->memo, mkey, &v, NULL))
        return nomem(d);
    *next = s;
    return FOLDSVG_OK;
}

foldsvg_status cr_profile_sample(cr_doc *d, cr_profile *p, int64_t id, double delta)
{
    if (!isfinite(delta))
        delta = 0;
    if (p->nsamples++ == 0) {
        p->elapsed = delta;
        p->last_valid = delta;
    } else {
        p->elapsed += delta;
        if (p->prev_id == id)
            return FOLDSVG_OK;
    }
    p->prev_id = id;
    double at = p->elapsed < p->last_valid ? p->last_valid : p->elapsed;
    p->last_valid = at;
    if (p->nsamples > 1 && fs_trie_add(&p->trie, p->cur, at - p->run_start))
        return nomem(d);
    p->run_start = at;
    uint32_t x = id >= 0 && (uint64_t)id < p->dense_cap ? p->dense[id] - 1
                                                        : fs_u64map_get(&p->by_id, (uint64_t)id);
    if (x == FS_U64MAP_NONE) /* no such node: speedscope leaves the stack as it is */
        return FOLDSVG_OK;
    return transition(d, p, x, &p->cur);
}

foldsvg_status cr_profile_finish(cr_doc *d, cr_profile *p)
{
    /* what was queued unpaired: samples without deltas count none */
    while (p->qs_head < p->nqs) {
        double dl = p->qd_head < p->nqd ? p->qd[p->qd_head++] : 0;
        FS_FORWARD_IF_ERROR(cr_profile_sample(d, p, p->qs[p->qs_head++], dl));
    }
    p->nqs = p->qs_head = p->nqd = p->qd_head = 0;
    if (p->nsamples < 2)
        return FOLDSVG_OK;
    double at = p->elapsed < p->last_valid ? p->last_valid : p->elapsed;
    if (fs_trie_add(&p->trie, p->cur, at - p->run_start))
        return nomem(d);
    p->run_start = at;
    return FOLDSVG_OK;
}

/* Pairs what the queues hold. */
static foldsvg_status drain(cr_doc *d, cr_profile *p)
{
    while (p->qs_head < p->nqs && p->qd_head < p->nqd)
        FS_FORWARD_IF_ERROR(cr_profile_sample(d, p, p->qs[p->qs_head++], p->qd[p->qd_head++]));
    if (p->qs_head == p->nqs)
        p->nqs = p->qs_head = 0;
    if (p->qd_head == p->nqd)
        p->nqd = p->qd_head = 0;
    return FOLDSVG_OK;
}

foldsvg_status cr_profile_samples(cr_doc *d, cr_profile *p, const int64_t *ids, size_t n)
{
    if (FS_GROW(p->qs, p->qs_cap, p->nqs + n, 256))
        return nomem(d);
    memcpy(p->qs + p->nqs, ids, n * sizeof *ids);
    p->nqs += n;
    return drain(d, p);
}

foldsvg_status cr_profile_deltas(cr_doc *d, cr_profile *p, const double *deltas, size_t n)
{
    if (FS_GROW(p->qd, p->qd_cap, p->nqd + n, 256))
        return nomem(d);
    memcpy(p->qd + p->nqd, deltas, n * sizeof *deltas);
    p->nqd += n;
    return drain(d, p);
}

void cr_frame_name(fs_buf *b, const char *fn, size_t fn_len, const char *url, size_t url_len,
                   int has_line, int64_t line)
{
    fs_buf_clear(b);
    if (fn_len) {
        fs_buf_append(b, fn, fn_len);
        return;
    }
    if (!url_len) {
        fs_buf_puts(b, "(anonymous)");
        return;
    }
    size_t base = url_len;
    while (base > 0 && url[base - 1] != '/')
        base--;
    fs_buf_puts(b, "(anonymous ");
    fs_buf_append(b, url + base, url_len - base);
    if (has_line)
        fs_buf_printf(b, ":%lld)", (long long)line + 1);
    else
        fs_buf_puts(b, ":undefined)");
}

uint8_t cr_node_flags(const char *fn, size_t fn_len, const char *url, size_t url_len)
{
#define IS(s, n, lit) ((n) == sizeof(lit) - 1 && memcmp((s), (lit), (n)) == 0)
    if (IS(url, url_len, "native dummy.js") || IS(fn, fn_len, "(root)") || IS(fn, fn_len, "(idle)"))
        return CR_IGNORED;
    if (IS(fn, fn_len, "(program)") || IS(fn, fn_len, "(garbage collector)"))
        return CR_ON_TOP;
    return 0;
#undef IS
}
