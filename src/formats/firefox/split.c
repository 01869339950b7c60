#include "formats/firefox/split.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "formats/firefox/samples.h"

/* Runs a block may hold (each a stack change): bounds a slot's memory. */
enum { MAX_RUNS = 8192 };
/* The threadCPUDelta sum of a block's rows stays below this, so that adding it to a stack's
 * sum can be checked once (the cells are non-negative: every partial sum is below it). */
#define MAX_TOTAL (INT64_C(1) << 62)

typedef struct seg_run {
    int64_t key;
    uint64_t n;
    int64_t w;
} seg_run;

/* A block's findings (a job slot). */
typedef struct ff_seg {
    size_t from, to; /* the rows' bytes: from just after a row's "]" to just after another */
    uint64_t where;  /* the columns they were parsed with (ff_split.where) */
    uint64_t rows;   /* rows in [from, to) */
    int64_t total;   /* their threadCPUDelta sum */
    seg_run *runs;   /* consecutive rows of one stack */
    size_t nruns;
} ff_seg;

struct ff_split {
    fs_json_split hooks;
    /* 0: the parse is not in Gecko sample rows whose two columns are known; else their
     * columns, packed (where_of). Written by the parse's thread, read by the reading one. */
    _Atomic uint64_t where;
};

static uint64_t where_of(int64_t ks, int64_t kc)
{
    if (ks < 0 || kc < 0 || ks >= (INT64_C(1) << 31) || kc >= (INT64_C(1) << 31))
        return 0;
    return UINT64_C(1) << 62 | (uint64_t)ks << 31 | (uint64_t)kc;
}

void ff_split_where(ff_parser *p)
{
    uint64_t w = p->hot == FF_HOT_SDATA ? where_of(p->scol_stack, p->scol_cpu) : 0;
    if (w != p->split_where) {
        p->split_where = w;
        atomic_store_explicit(&p->split->where, w, memory_order_relaxed);
    }
}

/* ---------------------------------------------------------------- the reading thread */

/* The rows of one block as a yajl of the reading thread sees them: "[" then the block from
 * a row's "[" on. */
typedef struct scan {
    yajl_handle h;
    ff_seg *seg;
    size_t base; /* the block offset of the text after the "[" */
    int64_t ks, kc;
    int depth;
    int64_t k; /* the open row's cells */
    int64_t stack, cpu;
    int has_stack, has_cpu;
} scan;

static int sc_stop(void *ctx)
{
    (void)ctx;
    return 0;
}

static int sc_stop_str(void *ctx, const unsigned char *s, size_t n)
{
    (void)s;
    (void)n;
    return sc_stop(ctx);
}

/* A cell other than a number (as the stack or threadCPUDelta cell, the row then ends the
 * runs: it has no such cell). */
static int sc_other(void *ctx)
{
    scan *c = ctx;
    if (c->depth != 2)
        return 0;
    c->k++;
    return 1;
}

static int sc_other_bool(void *ctx, int b)
{
    (void)b;
    return sc_other(ctx);
}

static int sc_other_str(void *ctx, const unsigned char *s, size_t n)
{
    (void)s;
    (void)n;
    return sc_other(ctx);
}

static int sc_number(void *ctx, const char *s, size_t n)
{
    scan *c = ctx;
    if (c->depth != 2)
        return 0;
    int64_t k = c->k++;
    if (k == c->ks) {
        c->has_stack = fs_json_small_uint(s, n, &c->stack);
        return c->has_stack;
    }
    if (k == c->kc) {
        c->has_cpu = fs_json_small_uint(s, n, &c->cpu);
        return c->has_cpu;
    }
    return 1;
}

static int sc_start_array(void *ctx)
{
    scan *c = ctx;
    if (c->depth >= 2)
        return 0; /* a container as a cell: the row callbacks skip it */
    if (++c->depth == 2) {
        c->k = 0;
        c->has_stack = c->has_cpu = 0;
    }
    return 1;
}

static int sc_end_array(void *ctx)
{
    scan *c = ctx;
    if (c->depth != 2 || !c->has_stack || !c->has_cpu)
        return 0; /* the data array ends, or a short row */
    ff_seg *s = c->seg;
    if (c->cpu >= MAX_TOTAL - s->total)
        return 0;
    seg_run *r = s->nruns ? &s->runs[s->nruns - 1] : NULL;
    if (!r || r->key != c->stack) {
        if (s->nruns == MAX_RUNS)
            return 0;
        r = &s->runs[s->nruns++];
        r->key = c->stack;
        r->n = 0;
        r->w = 0;
    }
    r->n++;
    r->w += c->cpu;
    s->total += c->cpu;
    s->rows++;
    s->to = c->base + yajl_get_bytes_consumed(c->h);
    c->depth = 1;
    return 1;
}

static const yajl_callbacks scan_callbacks = {sc_other,  sc_other_bool,  NULL,        NULL,
                                              sc_number, sc_other_str,   sc_stop,     sc_stop_str,
                                              sc_stop,   sc_start_array, sc_end_array};

static int is_ws(unsigned char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* The first "]" in D[0, n) followed by "," and "[" (white space around): 1, *Y just after
 * the "]", *R at the "[". */
static int boundary(const unsigned char *d, size_t n, size_t *y, size_t *r)
{
    for (size_t i = 0; i < n;) {
        const unsigned char *q = memchr(d + i, ']', n - i);
        if (!q)
            return 0;
        size_t a = (size_t)(q - d) + 1, b = a;
        while (b < n && is_ws(d[b]))
            b++;
        if (b < n && d[b] == ',') {
            b++;
            while (b < n && is_ws(d[b]))
                b++;
            if (b < n && d[b] == '[') {
                *y = a;
                *r = b;
                return 1;
            }
        }
        i = a;
    }
    return 0;
}

static void job_run(void *ctx, void *slot, const unsigned char *d, size_t n)
{
    ff_split *sp = ctx;
    ff_seg *s = slot;
    s->from = s->to = 0;
    s->rows = s->nruns = 0;
    s->total = 0;
    s->where = atomic_load_explicit(&sp->where, memory_order_relaxed);
    size_t y, r;
    if (!s->where || !boundary(d, n, &y, &r))
        return;
    scan c = {.seg = s, .base = r, .depth = 0};
    c.ks = (int64_t)(s->where >> 31 & ((UINT64_C(1) << 31) - 1));
    c.kc = (int64_t)(s->where & ((UINT64_C(1) << 31) - 1));
    /* the default options, as the parse's own yajl (formats/json/json.c) */
    c.h = yajl_alloc(&scan_callbacks, NULL, &c);
    if (!c.h)
        return;
    if (yajl_parse(c.h, (const unsigned char *)"[", 1) == yajl_status_ok)
        (void)yajl_parse(c.h, d + r, n - r);
    yajl_free(c.h);
    if (s->rows)
        s->from = y;
}

static void *slot_new(void *ctx)
{
    (void)ctx;
    ff_seg *s = calloc(1, sizeof *s);
    if (s && !(s->runs = malloc(MAX_RUNS * sizeof *s->runs))) {
        free(s);
        s = NULL;
    }
    return s;
}

static void slot_free(void *ctx, void *slot)
{
    (void)ctx;
    ff_seg *s = slot;
    free(s->runs);
    free(s);
}

/* ---------------------------------------------------------------- the parse's thread */

static int range(const void *slot, size_t i, size_t *from, size_t *to)
{
    const ff_seg *s = slot;
    if (i > 0) /* one range a block */
        return 0;
    *from = s->from;
    *to = s->to;
    return s->rows != 0;
}

static int before(void *ctx, const void *slot, size_t i)
{
    (void)slot;
    (void)i;
    ff_parser *p = ctx;
    if (p->hot != FF_HOT_SROW || !p->sthr)
        return 0;
    p->split_rows = p->sthr->rows;
    return 1;
}

/* Whether the runs of S can be added to T's sums as its rows would be: no sum may pass 63
 * bits (a row would then be the per-stack sums' problem to report, the parse's). */
static int fits(const ff_parser *p, const ff_thread *t, const ff_seg *s)
{
    for (size_t i = 0; i < s->nruns; i++) {
        const ff_acc *a = ff_agg_find(&t->agg, s->runs[i].key);
        if (a && !ff_int_add_ok(a->wint, s->total))
            return 0;
    }
    const ff_runs *r = p->ordered ? t->runs : NULL;
    if (r && r->n > r->from && !ff_int_add_ok(r->a[r->n - 1].wint, s->total))
        return 0;
    return 1;
}

static _Atomic uint64_t taken_rows;
static atomic_int mode;

uint64_t ff_split_taken_rows(void)
{
    return atomic_load(&taken_rows);
}

void ff_split_mode(int m)
{
    atomic_store(&mode, m);
}

static int take(void *ctx, const void *slot, size_t which)
{
    (void)which;
    ff_parser *p = ctx;
    const ff_seg *s = slot;
    ff_thread *t = p->sthr;
    /* the "]" before the rows closed a sample row, whose columns they were parsed with */
    if (p->hot != FF_HOT_SDATA || t->rows != p->split_rows + 1 || s->where != p->split_where ||
        !fits(p, t, s))
        return 0;
    for (size_t i = 0; i < s->nruns; i++)
        if (ff_sample_run(p, t, s->runs[i].key, s->runs[i].n, s->runs[i].w) != FOLDSVG_OK)
            return -1; /* out of memory, recorded in the parse */
    atomic_fetch_add_explicit(&taken_rows, s->rows, memory_order_relaxed);
    return 1;
}

ff_split *ff_split_new(void)
{
    if (atomic_load(&mode) == 1)
        return NULL;
    ff_split *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    atomic_init(&s->where, 0);
    s->hooks.job.always = atomic_load(&mode) == 2;
    s->hooks.job.ctx = s;
    s->hooks.job.slot_new = slot_new;
    s->hooks.job.slot_free = slot_free;
    s->hooks.job.run = job_run;
    s->hooks.range = range;
    s->hooks.before = before;
    s->hooks.take = take;
    return s;
}

void ff_split_free(ff_split *s)
{
    free(s);
}

const fs_json_split *ff_split_hooks(const ff_split *s)
{
    return &s->hooks;
}
