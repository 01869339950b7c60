#include "aggregate/sorter.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/relay.h"
#include "aggregate/runs.h"
#include "aggregate/strsort.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/mismatch.h"
#include "util/prefetch.h"
#include "util/pool.h"
#include "util/strmap.h"

typedef struct counts {
    uint64_t count, before;
    int is_diff;
} counts;

enum {
    /* A smaller chunk is filled, sorted and written faster (its tables and stacks stay in
     * the caches longer, its memory is used again instead of faulted in) than the extra
     * runs cost the final merge: the shuffled bench row's reading and sorting took about
     * 0.7x the time of 32 MiB chunks, the whole run 0.86x the CPU, in 25 MiB instead of 70. */
    DEFAULT_BUDGET = 8 << 20,
    DEFAULT_FANIN = 64,
    /* A run's window, mapped (aggregate/runs.h): the windows of a merge take at most the two
     * chunks' budget, each between these (the shuffled bench row's 19 runs: 1 MiB each,
     * which saves remapping; a merge of 64 runs of 2 MiB chunks: 128 KiB, as read before) */
    WINDOW_MAX = 1 << 20,
    WINDOW_MIN = 128 << 10,
    PREFETCH = 4,
    STOP_EVERY = 64, /* stacks written between looks at stop_writing */
    /* A first chunk filled by at least 5 lines for 4 of its stacks is the input's repeating
     * stacks: what it spilled would come again, chunk after chunk (500 MB of 20,000 stacks
     * in random order wrote 230 MB of runs and took 0.30 to 0.66 s, held whole 0.14 s) */
    REPEATS = 5,
    REPEATS_PER = 4,
    /* A sorter that stops before it spills (fs_sorter_stop_before_spill) looks at its first
     * chunk once it holds a quarter of its budget: fewer than 103 lines for 100 stacks, and
     * it stops then (the shuffled bench row's first reading: 8 MiB of stacks read to no end
     * before) */
    EARLY = 4,
    EARLY_PER = 100,
    EARLY_STACKS = 1024, /* and that many stacks at least, for a rate to mean something */
    /* The last chunk, when it has this many stacks or more and none were spilled, is sorted
     * in two halves at once, one on a thread of its own, and merged as two (the shuffled
     * bench file's 38,000 cut stacks: 13 ms on one thread, 7 ms so) */
    APART = 8192
};

/* The distinct stacks of one chunk and their summed counts, by map entry. */
typedef struct chunk {
    fs_strmap map;
    counts *c;
    size_t cap;
    uint64_t lines; /* added since it was last emptied */
    /* sorted (sort_chunk): the entries in order, then each stack's share with the one
     * before it */
    uint32_t *order;  /* kept in memory for the final merge */
    uint32_t *sorted; /* sorted by the thread that filled it, handed over to be written */
} chunk;

/* A full chunk is sorted and written by a task of the pool while the next one fills, so an
 * input of many distinct stacks is read and sorted at once; sorting and writing take
 * longer than filling, so a chunk full before the task is done is sorted by the thread that
 * filled it, and the task only writes it. The runs are added to the list by the thread that
 * waits for the task. */
struct fs_sorter {
    size_t budget;
    unsigned fanin;
    fs_pool *pool;
    chunk chunks[2];
    chunk *cur;      /* the one filling */
    fs_runfile file; /* fd -1 until the first spill; the task's while it runs */
    fs_run *runs;
    size_t nruns, runs_cap;
    fs_task task;
    chunk *job;            /* the task's chunk; NULL when there is none */
    foldsvg_status job_st; /* its outcome... */
    fs_run job_run;        /* ...and its run, when it wrote one */
    int job_wrote;
    int spilled_once;   /* a chunk was handed to the task or written */
    size_t sorted_here; /* chunks sorted by the adding thread (fs_sorter_sorted_here) */
    /* the input has ended: the task's chunk, being sorted or written, stays in memory */
    atomic_int stop_writing;
    size_t writes_stopped; /* fs_sorter_writes_stopped */
    int halves;            /* fs_sorter_sorted_in_halves */
    uint64_t spilled;      /* fs_sorter_spilled */
    /* The first chunk repeats its stacks (REPEATS): it holds both chunks' budget, and spills
     * on this thread if it must (the input then has more distinct stacks than the budget) */
    int whole;
    int stop_before_spill; /* fs_sorter_stop_before_spill */
    int looked_early;      /* at the first chunk's first EARLY-th */
};

foldsvg_status fs_sorter_new(fs_sorter **out, size_t budget, unsigned fanin, fs_pool *pool)
{
    fs_sorter *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return FOLDSVG_E_NOMEM;
    s->budget = budget ? budget : DEFAULT_BUDGET;
    s->fanin = fanin >= 2 ? fanin : DEFAULT_FANIN;
    s->pool = pool;
    for (int i = 0; i < 2; i++)
        fs_strmap_init(&s->chunks[i].map, FS_STRMAP_OWNED);
    s->cur = &s->chunks[0];
    s->file.fd = -1;
    atomic_init(&s->stop_writing, 0);
    return FOLDSVG_OK;
}

static foldsvg_status wait_job(fs_sorter *s);

/* The chunks' memory and the file, returned. */
static void free_chunks_and_file(fs_sorter *s)
{
    for (int i = 0; i < 2; i++) {
        chunk *c = &s->chunks[i];
        fs_strmap_free(&c->map);
        free(c->c);
        free(c->order);
        free(c->sorted);
        c->c = NULL;
        c->order = c->sorted = NULL;
        c->cap = 0;
    }
    fs_runfile_close(&s->file);
}

void fs_sorter_free(fs_sorter *s)
{
    if (!s)
        return;
    wait_job(s);
    free_chunks_and_file(s);
    free(s->runs);
    free(s);
}

size_t fs_sorter_runs(fs_sorter *s)
{
    return s->nruns;
}

int fs_sorter_file_open(fs_sorter *s)
{
    return s->file.fd >= 0;
}

size_t fs_sorter_sorted_here(fs_sorter *s)
{
    return s->sorted_here;
}

size_t fs_sorter_writes_stopped(fs_sorter *s)
{
    return s->writes_stopped;
}

/* The memory a chunk holds: its stacks' bytes, the map's tables (key pointer, length and hash
 * per entry; the slots), the counts, at the capacities they grew to, and the order that
 * sorting it will take. Short stacks cost more in tables than in bytes. */
static size_t chunk_bytes(const chunk *c)
{
    const fs_strmap *m = &c->map;
    size_t entries = (size_t)m->cap * (sizeof(char *) + 2 * sizeof(uint32_t));
    size_t slots = m->slots ? (m->mask + 1) * sizeof(uint32_t) : 0;
    size_t sorting = (size_t)fs_strmap_size(m) * (2 * sizeof(uint32_t) + 16);
    return m->arena.used_total + entries + slots + c->cap * sizeof(counts) + sorting;
}

/* ORDER gets the chunk's entries in byte order of their stacks, then their shares (see
 * chunk; caller frees). */
static foldsvg_status sort_chunk(const chunk *c, uint32_t **order)
{
    uint32_t n = fs_strmap_size(&c->map);
    *order = malloc((n ? 2 * (size_t)n : 1) * sizeof **order);
    if (!*order)
        return FOLDSVG_E_NOMEM;
    foldsvg_status st = fs_strsort(fs_strmap_key_array(&c->map), fs_strmap_len_array(&c->map),
                                   *order, *order + n, n);
    if (st) {
        free(*order);
        *order = NULL;
    }
    return st;
}

static foldsvg_status push_run(fs_sorter *s, fs_run r)
{
    FS_FORWARD_IF_ERROR(FS_GROW(s->runs, s->runs_cap, s->nruns + 1, 16));
    s->runs[s->nruns++] = r;
    s->spilled += r.len;
    return FOLDSVG_OK;
}

/* Before stack ORDER[I] of N is read in order: the stacks lie anywhere in the chunk, filled
 * on another core, and their bytes past the share with the one before are read (copied,
 * compared): the entries of those a few steps ahead are asked for, then those bytes (the
 * first line only, and the misses came one after the other: writing a run took about 1.2x
 * the time). */
static void prefetch_ahead(const fs_strmap *m, const uint32_t *order, uint32_t base, uint32_t i,
                           uint32_t n)
{
    if (i + 4 * PREFETCH < n)
        FS_PREFETCH(&fs_strmap_key_array(m)[base + order[i + 4 * PREFETCH]]);
    if (i + PREFETCH < n) {
        uint32_t f = base + order[i + PREFETCH], from = order[n + i + PREFETCH];
        fs_prefetch_span(fs_strmap_key(m, f) + from, fs_strmap_key_len(m, f) - from, 1024);
    }
}

/* Writes chunk C, sorted in ORDER, as run *R and empties it. MAY_STOP: FS_STOP, the run
 * dropped and C as it was, once the input has ended (C is then merged from memory: the
 * rest of its writing would only delay the final merge, which reads it back at once). */
static foldsvg_status write_sorted(fs_sorter *s, chunk *c, const uint32_t *order, int may_stop,
                                   fs_run *r)
{
    if (may_stop && atomic_load_explicit(&s->stop_writing, memory_order_relaxed))
        return FS_STOP;
    foldsvg_status st = FOLDSVG_OK;
    if (s->file.fd < 0)
        st = fs_runfile_open(&s->file);
    const fs_strmap *m = &c->map;
    uint32_t n = fs_strmap_size(m);
    fs_run_begin(&s->file, r);
    for (uint32_t i = 0; st == FOLDSVG_OK && i < n; i++) {
        if (may_stop && i % STOP_EVERY == 0 &&
            atomic_load_explicit(&s->stop_writing, memory_order_relaxed)) {
            fs_run_discard(&s->file, r);
            return FS_STOP;
        }
        prefetch_ahead(m, order, 0, i, n);
        uint32_t e = order[i];
        const counts *k = &c->c[e];
        st = fs_run_put(&s->file, fs_strmap_key(m, e), fs_strmap_key_len(m, e), order[n + i],
                        k->count, k->before, k->is_diff);
    }
    if (st == FOLDSVG_OK)
        st = fs_run_end(&s->file, r);
    if (st == FOLDSVG_OK) {
        fs_strmap_clear(&c->map);
        c->lines = 0;
    }
    return st;
}

/* Sorts and writes chunk C here (it is written as a run, and emptied). */
static foldsvg_status spill_here(fs_sorter *s, chunk *c)
{
    uint32_t *order;
    fs_run r;
    foldsvg_status st = sort_chunk(c, &order);
    if (st == FOLDSVG_OK)
        st = write_sorted(s, c, order, 0, &r);
    free(order);
    return st ? st : push_run(s, r);
}

/* The task: the job's chunk sorted (unless the thread that filled it did) and written. */
static void write_job(void *arg)
{
    fs_sorter *s = arg;
    chunk *c = s->job;
    uint32_t *order = c->sorted;
    c->sorted = NULL;
    foldsvg_status st = order ? FOLDSVG_OK : sort_chunk(c, &order);
    if (st == FOLDSVG_OK)
        st = write_sorted(s, c, order, 1, &s->job_run);
    s->job_wrote = st == FOLDSVG_OK;
    if (st == FS_STOP) { /* merged from memory */
        c->order = order;
        s->writes_stopped++;
        st = FOLDSVG_OK;
    } else {
        free(order);
    }
    s->job_st = st;
}

/* Waits for the task, if there is one; its run joins the list. The first failure of the
 * jobs. */
static foldsvg_status wait_job(fs_sorter *s)
{
    if (s->job) {
        fs_task_wait(s->pool, &s->task);
        s->job = NULL;
        if (s->job_wrote && s->job_st == FOLDSVG_OK)
            s->job_st = push_run(s, s->job_run);
        s->job_wrote = 0;
    }
    return s->job_st;
}

/* The current chunk is full: a task sorts and writes it while the other one fills. */
static foldsvg_status spill(fs_sorter *s)
{
    s->spilled_once = 1;
    /* The task still on the chunk before: sorting and writing a chunk takes it longer than
     * filling one takes this thread, which sorts its own chunk meanwhile instead of waiting
     * (the task then only writes it). */
    foldsvg_status st = FOLDSVG_OK;
    if (s->job && !fs_task_done(s->pool, &s->task)) {
        st = sort_chunk(s->cur, &s->cur->sorted);
        s->sorted_here++;
    }
    if (st == FOLDSVG_OK)
        st = wait_job(s);
    if (st)
        return st;
    s->job = s->cur;
    fs_task_start(s->pool, &s->task, write_job, s);
    s->cur = s->cur == &s->chunks[0] ? &s->chunks[1] : &s->chunks[0];
    return FOLDSVG_OK;
}

foldsvg_status fs_sorter_add(fs_sorter *s, const char *stack, size_t len, uint64_t count,
                             uint64_t before, int is_diff)
{
    if (len > UINT32_MAX)
        return FOLDSVG_E_LIMIT;
    return fs_sorter_add_hashed(s, stack, len, fs_strmap_hash(stack, len), count, before, is_diff);
}

/* The current chunk outgrew its budget. The first one, when it repeats its stacks, holds the
 * other's budget too (one chunk then, no worker); when it outgrows that, it is written here
 * and its memory returned, and the two chunks go on as for any input. */
static foldsvg_status full(fs_sorter *s)
{
    chunk *c = s->cur;
    if (!s->whole && !s->spilled_once &&
        c->lines * REPEATS_PER >= (uint64_t)fs_strmap_size(&c->map) * REPEATS) {
        s->whole = 1;
        return FOLDSVG_OK;
    }
    if (s->stop_before_spill)
        return FS_STOP;
    if (!s->whole)
        return spill(s);
    s->whole = 0;
    s->spilled_once = 1;
    foldsvg_status st = spill_here(s, c);
    if (st == FOLDSVG_OK) { /* twice the budget: given back, as a chunk takes half of it now */
        fs_strmap_free(&c->map);
        free(c->c);
        c->c = NULL;
        c->cap = 0;
    }
    return st;
}

foldsvg_status fs_sorter_add_hashed(fs_sorter *s, const char *stack, size_t len, uint64_t hash,
                                    uint64_t count, uint64_t before, int is_diff)
{
    chunk *c = s->cur;
    c->lines++;
    uint32_t n = fs_strmap_size(&c->map);
    FS_FORWARD_IF_ERROR(FS_GROW(c->c, c->cap, (size_t)n + 1, 1024));
    uint32_t e;
    int added;
    foldsvg_status st = fs_strmap_put_hashed(&c->map, stack, len, hash, 0, &e, &added);
    if (st)
        return st;
    counts *k = &c->c[e];
    if (added) {
        *k = (counts){count, is_diff ? before : 0, is_diff};
    } else {
        if (count > UINT64_MAX - k->count || (is_diff && before > UINT64_MAX - k->before))
            return FOLDSVG_E_OVERFLOW;
        k->count += count;
        if (is_diff) {
            k->before += before;
            k->is_diff = 1;
        }
        return FOLDSVG_OK;
    }
    size_t bytes = chunk_bytes(c);
    if (bytes > (s->whole ? 2 * s->budget : s->budget))
        return full(s);
    if (s->stop_before_spill && !s->looked_early && bytes > s->budget / EARLY &&
        fs_strmap_size(&c->map) >= EARLY_STACKS) {
        /* the lines so far hardly repeat: the distinct stacks are at least twice what the
         * whole buffer holds (N distinct drawn at random repeat about L/2N of L lines; the
         * buffer holds about 2 * EARLY times as many as were seen) */
        s->looked_early = 1;
        if (c->lines * EARLY_PER < (uint64_t)fs_strmap_size(&c->map) * (EARLY_PER + 3))
            return FS_STOP;
    }
    return FOLDSVG_OK;
}

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

/* Where a merge's stacks go: FN takes each, cut short below a count of CUT_BELOW
 * (fs_sorter_finish). */
typedef struct sink {
    fs_sorted_fn fn;
    void *user;
    uint64_t cut_below;
} sink;

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

/* Merges runs [FIRST, FIRST + NRUN) and the sorted chunks MEM[0..nmem), passing each stack
 * to OUT. A loser tree of the K sources (internal nodes 1..K-1, source i the leaf K + i):
 * each node keeps the source that lost there and the bytes it shares with the one that won.
 * Those of the nodes on the winner's path are shares with the winner itself, and the
 * winner's successor in its source comes with its share with the winner (a run stores it):
 * so a new winner is found by comparing shares, and stacks in sorted order, which share
 * hundreds of bytes, are compared only past them. */
/* Sorted entries of a chunk in memory, a source of a merge. */
typedef struct memsrc {
    const chunk *c;
    const uint32_t *order;
    uint32_t base, n;
} memsrc;

static foldsvg_status merge(fs_sorter *s, size_t first, size_t nrun, const memsrc *mem, size_t nmem,
                            const sink *out)
{
    size_t k = nrun + nmem, ninit = 0;
    source *src = calloc(k ? k : 1, sizeof *src);
    size_t *loser = calloc(k + 1, sizeof *loser), *lcp = calloc(k + 1, sizeof *lcp);
    foldsvg_status st = src && loser && lcp ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    size_t window = nrun ? 2 * s->budget / nrun : 0;
    window = window > WINDOW_MAX ? WINDOW_MAX : window < WINDOW_MIN ? WINDOW_MIN : window;
    for (size_t i = 0; st == FOLDSVG_OK && i < k; i++) {
        if (i < nrun) {
            st = fs_run_reader_init(&src[i].r, &s->file, s->runs[first + i], window);
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

static foldsvg_status put_run(void *user, const char *stack, size_t len, size_t shared,
                              uint64_t count, uint64_t before, int is_diff)
{
    /* the merge's share with its output before is the run's (none before the first) */
    return fs_run_put(user, stack, len, shared == SIZE_MAX ? 0 : shared, count, before, is_diff);
}

typedef struct final_merge {
    fs_sorter *s;
    size_t first;
    memsrc mem[3];
    size_t nmem;
    uint64_t cut_below;
} final_merge;

static foldsvg_status produce_final(void *user, fs_sorted_fn emit, void *emit_user)
{
    final_merge *m = user;
    return merge(m->s, m->first, m->s->nruns - m->first, m->mem, m->nmem,
                 &(sink){emit, emit_user, m->cut_below});
}

/* Half of a chunk's entries sorted on a thread of its own. */
typedef struct half_sort {
    const chunk *c;
    uint32_t base, n;
    uint32_t *order;
    foldsvg_status st;
} half_sort;

static void sort_half(void *arg)
{
    half_sort *h = arg;
    const fs_strmap *m = &h->c->map;
    h->order = malloc((h->n ? 2 * (size_t)h->n : 1) * sizeof *h->order);
    h->st = h->order ? fs_strsort(fs_strmap_key_array(m) + h->base,
                                  fs_strmap_len_array(m) + h->base, h->order, h->order + h->n, h->n)
                     : FOLDSVG_E_NOMEM;
}

/* The current chunk sorted into the merge M: in two halves at once when it is large, nothing
 * was spilled and the pool has a second thread (the halves are merged as two sources), else
 * whole into its ORDER. */
static foldsvg_status sort_last(fs_sorter *s, final_merge *m, uint32_t **halves)
{
    chunk *c = s->cur;
    uint32_t n = fs_strmap_size(&c->map);
    half_sort a = {c, 0, n / 2, NULL, FOLDSVG_OK}, b = {c, n / 2, n - n / 2, NULL, FOLDSVG_OK};
    if (s->nruns > 0 || s->job || n < APART || fs_pool_threads(s->pool) < 2) {
        FS_FORWARD_IF_ERROR(sort_chunk(c, &c->order));
        m->mem[m->nmem++] = (memsrc){c, c->order, 0, n};
        return FOLDSVG_OK;
    }
    fs_task t;
    fs_task_start(s->pool, &t, sort_half, &a);
    sort_half(&b);
    fs_task_wait(s->pool, &t);
    s->halves = 1;
    halves[0] = a.order;
    halves[1] = b.order;
    FS_FORWARD_IF_ERROR(a.st ? a.st : b.st);
    m->mem[m->nmem++] = (memsrc){c, a.order, 0, a.n};
    m->mem[m->nmem++] = (memsrc){c, b.order, b.base, b.n};
    return FOLDSVG_OK;
}

foldsvg_status fs_sorter_finish(fs_sorter *s, uint64_t cut_below, fs_sorted_fn fn, void *user)
{
    atomic_store_explicit(&s->stop_writing, 1, memory_order_relaxed);
    final_merge m = {s, 0, {{NULL, NULL, 0, 0}}, 0, cut_below};
    uint32_t *halves[2] = {NULL, NULL};
    /* the last chunk sorts while the task finishes the one before */
    foldsvg_status st = sort_last(s, &m, halves);
    foldsvg_status wst = wait_job(s);
    if (st == FOLDSVG_OK)
        st = wst;
    chunk *other = s->cur == &s->chunks[0] ? &s->chunks[1] : &s->chunks[0];
    if (other->order)
        m.mem[m.nmem++] = (memsrc){other, other->order, 0, fs_strmap_size(&other->map)};
    /* rounds: the oldest runs into one, until a merge of them all and the chunks is in reach
     * (ROOM runs beside the chunks; at least one, when the chunks alone fill the fan-in). A
     * round takes at most FANIN runs and never more than there are, nor more than needed to
     * leave ROOM. */
    size_t room = s->fanin > m.nmem ? s->fanin - m.nmem : 1;
    while (st == FOLDSVG_OK && s->nruns - m.first > room) {
        size_t take = s->nruns - m.first - room + 1;
        if (take > s->fanin)
            take = s->fanin;
        fs_run r;
        fs_run_begin(&s->file, &r);
        st = merge(s, m.first, take, NULL, 0, &(sink){put_run, &s->file, 0});
        if (st == FOLDSVG_OK)
            st = fs_run_end(&s->file, &r);
        if (st == FOLDSVG_OK)
            st = push_run(s, r);
        m.first += take;
    }
    /* runs are merged on another core while FN's takes the stacks (the chunks in memory are
     * merged on this one: handing them over would cost more than it saves) */
    if (st == FOLDSVG_OK && s->nruns > m.first)
        st = fs_relay_run(s->pool, produce_final, &m, fn, user);
    else if (st == FOLDSVG_OK)
        st = produce_final(&m, fn, user);
    free(halves[0]);
    free(halves[1]);
    return st;
}

foldsvg_status fs_sorter_reset(fs_sorter *s)
{
    if (s->spilled_once)
        return FOLDSVG_E_ARG;
    for (int i = 0; i < 2; i++) {
        chunk *c = &s->chunks[i];
        fs_strmap_clear(&c->map);
        c->lines = 0;
        free(c->order);
        free(c->sorted);
        c->order = c->sorted = NULL;
    }
    s->cur = &s->chunks[0];
    s->whole = 0;
    s->stop_before_spill = s->looked_early = 0;
    return FOLDSVG_OK;
}

uint64_t fs_sorter_spilled(fs_sorter *s)
{
    return s->spilled;
}

int fs_sorter_sorted_in_halves(const fs_sorter *s)
{
    return s->halves;
}

void fs_sorter_stop_before_spill(fs_sorter *s, int stop)
{
    s->stop_before_spill = stop;
}

size_t fs_sorter_savable(fs_sorter *s)
{
    const chunk *c = s->cur;
    uint32_t n = fs_strmap_size(&c->map), *order;
    if (n == 0 || sort_chunk(c, &order) != FOLDSVG_OK)
        return 0;
    uint64_t saved = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = order[i];
        const char *k = fs_strmap_key(&c->map, e);
        size_t len = fs_strmap_key_len(&c->map, e), d = order[n + i];
        if (i + 1 < n && order[n + i + 1] > d)
            d = order[n + i + 1];
        const char *semi = d < len ? memchr(k + d, ';', len - d) : NULL;
        if (semi)
            saved += len - (size_t)(semi - k) - 1;
    }
    free(order);
    return (size_t)(saved / n);
}
