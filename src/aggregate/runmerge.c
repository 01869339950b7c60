/* The k-way merge of the sorter's runs and sorted chunks through a loser tree that keeps
 * what the stacks share (aggregate/runmerge.h). */
#include "aggregate/runmerge.h"

#include <stdlib.h>

#include "util/error.h"
#include "util/mismatch.h"

enum {
    /* A run's window, mapped (aggregate/runs.h): the windows of a merge take at most the two
     * chunks' budget, each between these (the shuffled bench row's 19 runs: 1 MiB each,
     * which saves remapping; a merge of 64 runs of 2 MiB chunks: 128 KiB, as read before) */
    WINDOW_MAX = 1 << 20,
    WINDOW_MIN = 128 << 10,
};

/* One input of a merge: a run being read, or a sorted chunk still in memory. */
typedef struct source {
    fs_run_reader r;
    const chunk *c; /* NULL for a run */
    /* a chunk's entries [BASE, BASE + N), sorted: entry BASE + ORDER[i], its share ORDER[N + i] */
    const uint32_t *order;
    uint32_t base, at, n;
    /* the stack: PRE's first PRE_LEN bytes, then REST's (a run's, read in place) */
    const char *pre, *rest;
    size_t pre_len, len;
    size_t shared; /* the bytes STACK shares with the source's stack before it */
    uint64_t count, before;
    int is_diff;
    int done; /* no stack left: it loses every match */
} source;

/* Steps SRC to its next stack (SRC->done at its end). */
static foldsvg_status advance(source *src)
{
    if (src->c) {
        src->done = src->at == src->n;
        if (src->done)
            return FOLDSVG_OK;
        prefetch_ahead(&src->c->map, src->order, src->base, src->at, src->n);
        uint32_t e = src->base + src->order[src->at++];
        const counts *k = &src->c->c[e];
        src->shared = src->order[src->n + src->at - 1];
        src->pre = fs_strmap_key(&src->c->map, e);
        src->pre_len = src->len = fs_strmap_key_len(&src->c->map, e);
        src->rest = NULL;
        src->count = k->count;
        src->before = k->before;
        src->is_diff = k->is_diff;
        return FOLDSVG_OK;
    }
    foldsvg_status st = fs_run_next(&src->r, &src->done);
    if (st || src->done)
        return st;
    src->pre = src->r.stack.data ? src->r.stack.data : "";
    src->pre_len = src->r.stack.len;
    src->rest = src->r.rest;
    src->len = src->pre_len + src->r.rest_len;
    src->shared = src->r.shared;
    src->count = src->r.count;
    src->before = src->r.before;
    src->is_diff = src->r.is_diff;
    return FOLDSVG_OK;
}

/* Byte AT of SRC's stack; those after it are there too up to seg_end. */
static const char *byte_at(const source *src, size_t at)
{
    /* without REST, PRE is all of it (AT may be its end) */
    return at < src->pre_len || !src->rest ? src->pre + at : src->rest + (at - src->pre_len);
}

static size_t seg_end(const source *src, size_t at)
{
    return at < src->pre_len ? src->pre_len : src->len;
}

/* Where the stacks of X and Y first differ from FROM on, before M (their shorter length). */
static size_t mismatch_from(const source *x, const source *y, size_t from, size_t m)
{
    size_t at = from;
    while (at < m) {
        size_t ex = seg_end(x, at), ey = seg_end(y, at);
        size_t e = ex < ey ? ex : ey;
        if (e > m)
            e = m;
        size_t k = fs_mismatch(byte_at(x, at), byte_at(y, at), e - at);
        at += k;
        if (at < e)
            break;
    }
    return at;
}

/* SRC's stack all in PRE. */
static foldsvg_status whole(source *src)
{
    if (src->pre_len == src->len)
        return FOLDSVG_OK;
    FS_FORWARD_IF_ERROR(fs_run_reader_whole(&src->r));
    src->pre = src->r.stack.data;
    src->pre_len = src->len;
    src->rest = NULL;
    return FOLDSVG_OK;
}

/* One match of the merge's tournament between the stacks of X and Y, which share their
 * first HX and HY bytes with one same stack no greater than either (the merge's last
 * output): the one that agrees with it longer is the smaller, without a look at their
 * bytes; only on a tie in that are they compared, from there on. Returns whether Y wins
 * (sorts first; X wins ties), and sets *LOSER to the bytes the loser shares with the
 * winner. */
static int y_wins(const source *x, size_t hx, const source *y, size_t hy, size_t *loser)
{
    if (x->done || y->done) {
        *loser = 0;
        return x->done && !y->done;
    }
    if (hx != hy) {
        *loser = hx < hy ? hx : hy;
        return hy > hx;
    }
    size_t m = x->len < y->len ? x->len : y->len;
    size_t at = mismatch_from(x, y, hx, m);
    *loser = at;
    if (at < m)
        return (unsigned char)*byte_at(y, at) < (unsigned char)*byte_at(x, at);
    return y->len < x->len;
}

static foldsvg_status put_out(const sink *out, source *top, size_t shared, size_t next_shared)
{
    FS_FORWARD_IF_ERROR(whole(top));
    size_t len = top->len;
    /* its bytes past where it differs from both neighbours, and one more, are its frames
     * alone: as wide as its count, too narrow to draw below CUT_BELOW */
    if (next_shared != SIZE_MAX && top->count < out->cut_below && !top->is_diff) {
        size_t from = shared == SIZE_MAX ? 0 : shared;
        size_t keep = (next_shared > from ? next_shared : from) + 1;
        if (keep < len)
            len = keep;
    }
    return out->fn(out->user, top->pre, len, shared, top->count, top->before, top->is_diff);
}

/* The bytes SRC's next stack shares with its current one (0 when it has none), or SIZE_MAX
 * when that is not in view. */
static size_t successor_share(const source *src)
{
    if (src->c)
        return src->at == src->n ? 0 : src->order[src->n + src->at];
    uint64_t v;
    int known = fs_run_peek_shared(&src->r, &v);
    return known && v <= SIZE_MAX ? (size_t)v : SIZE_MAX;
}

/* Where the stack after the winner's will first differ from it (the next winner sorts
 * nearest it, so shares the most with it): the most that the losers on the winner's path,
 * each the least of its subtree, share with it, or that its own successor does. */
static size_t next_share(source *src, size_t k, size_t win, const size_t *loser, const size_t *lcp)
{
    size_t best = successor_share(&src[win]);
    if (best == SIZE_MAX)
        return SIZE_MAX;
    for (size_t node = (k + win) / 2; k > 1 && node >= 1; node /= 2)
        if (!src[loser[node]].done && lcp[node] > best)
            best = lcp[node];
    return best;
}

foldsvg_status fs_runmerge(const fs_runfile *file, const fs_run *runs, size_t nrun, size_t budget,
                           const memsrc *mem, size_t nmem, const sink *out)
{
    size_t k = nrun + nmem, ninit = 0;
    source *src = calloc(k ? k : 1, sizeof *src);
    size_t *loser = calloc(k + 1, sizeof *loser), *lcp = calloc(k + 1, sizeof *lcp);
    foldsvg_status st = src && loser && lcp ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    size_t window = nrun ? 2 * budget / nrun : 0;
    window = window > WINDOW_MAX ? WINDOW_MAX : window < WINDOW_MIN ? WINDOW_MIN : window;
    for (size_t i = 0; st == FOLDSVG_OK && i < k; i++) {
        if (i < nrun) {
            st = fs_run_reader_init(&src[i].r, file, runs[i], window);
            ninit = i + 1;
        } else {
            const memsrc *ms = &mem[i - nrun];
            src[i].c = ms->c;
            src[i].order = ms->order;
            src[i].base = ms->base;
            src[i].n = ms->n;
        }
        if (st == FOLDSVG_OK)
            st = advance(&src[i]);
    }
    size_t win = 0, shared = SIZE_MAX;
    if (st == FOLDSVG_OK && k > 1) {
        /* the first round, each match's winner taken up (in UP) from the leaves: shares with
         * the empty stack, 0 */
        size_t *up = malloc(2 * k * sizeof *up);
        if (!up)
            st = FOLDSVG_E_NOMEM;
        for (size_t i = 0; up && i < k; i++)
            up[k + i] = i;
        for (size_t node = k - 1; up && node >= 1; node--) {
            size_t a = up[2 * node], b = up[2 * node + 1];
            int bw = y_wins(&src[a], 0, &src[b], 0, &lcp[node]);
            loser[node] = bw ? a : b;
            up[node] = bw ? b : a;
        }
        if (up)
            win = up[1];
        free(up);
    }
    while (st == FOLDSVG_OK && k > 0 && !src[win].done) {
        source *top = &src[win];
        size_t next_shared = out->cut_below ? next_share(src, k, win, loser, lcp) : SIZE_MAX;
        st = put_out(out, top, shared, next_shared);
        if (st == FOLDSVG_OK)
            st = advance(top);
        /* the winner's successor plays its way up the winner's path */
        size_t c = win, hc = top->done ? 0 : top->shared;
        for (size_t node = (k + win) / 2; st == FOLDSVG_OK && node >= 1; node /= 2) {
            size_t x = loser[node], h;
            if (y_wins(&src[c], hc, &src[x], lcp[node], &h)) {
                loser[node] = c;
                hc = lcp[node];
                c = x;
            }
            lcp[node] = h;
        }
        win = c;
        shared = hc; /* the new winner's share with the last output */
    }
    for (size_t i = 0; i < ninit; i++)
        fs_run_reader_free(&src[i].r);
    free(loser);
    free(lcp);
    free(src);
    return st;
}
