#include "aggregate/sorter.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/chunk.h"
#include "aggregate/relay.h"
#include "aggregate/runmerge.h"
#include "aggregate/runs.h"
#include "aggregate/strsort.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/pool.h"
#include "util/strmap.h"

enum {
    /* A smaller chunk is filled, sorted and written faster (its tables and stacks stay in
     * the caches longer, its memory is used again instead of faulted in) than the extra
     * runs cost the final merge: the shuffled bench row's reading and sorting took about
     * 0.7x the time of 32 MiB chunks, the whole run 0.86x the CPU, in 25 MiB instead of 70. */
    DEFAULT_BUDGET = 8 << 20,
    DEFAULT_FANIN = 64,
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
    return fs_runmerge(&m->s->file, m->s->runs + m->first, m->s->nruns - m->first, m->s->budget,
                       m->mem, m->nmem, &(sink){emit, emit_user, m->cut_below});
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
        st = fs_runmerge(&s->file, s->runs + m.first, take, s->budget, NULL, 0,
                         &(sink){put_run, &s->file, 0});
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
