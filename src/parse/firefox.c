/* The Firefox-Profiler reader once the JSON is read (firefox_sax.c and its parts): picks the format
 * and the root profile, numbers the threads in document order, resolves each summed stack index
 * through the prefix chain (iteratively: chains may be 100k deep) and hands the stacks to the sink.
 * Range checks happen here, lazily, for the stacks that samples use, as the reference converter
 * does; messages name the thread, table and row. */
#include "parse/firefox.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/firefox_internal.h"
#include "util/error.h"

typedef struct ff_tref {
    ff_thread *t;
    int sp1;
} ff_tref;

typedef struct ff_res {
    const char *file;
    foldsvg_error *err;
    ff_thread *t;
    size_t ti; /* thread number, for messages */
    int processed;
    const ff_table *stack, *frame, *func;
    const ff_strings *strings;
    size_t nstacks;
    int use_offset;  /* processed v66+: prefixOffset */
    uint32_t *depth; /* 0 unknown, FF_BUSY on the current walk, else the depth */
    int64_t *path;
    size_t cpath;
    fs_strref *frames;
    size_t cframes;
} ff_res;

#define FF_BUSY UINT32_MAX

static const char *cell_text(ff_cell c, char *buf, size_t n)
{
    switch (c.tag) {
    case FF_NULL:
        return "null";
    case FF_INT:
        snprintf(buf, n, "%lld", (long long)c.v.i);
        return buf;
    case FF_NUM:
        snprintf(buf, n, "%g", c.v.d);
        return buf;
    case FF_STR:
        return "a string";
    case FF_BOOL:
        return c.v.i ? "true" : "false";
    default:
        return "an array or object";
    }
}

static foldsvg_status nomem(const char *file, foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
}

/* Entry I of a processed column, null past its end. */
static ff_cell col_cell(const ff_table *t, int col, int64_t i)
{
    ff_cell nul = {.tag = FF_NULL};
    if (!t->has_col[col] || i < 0 || (uint64_t)i >= t->col[col].n)
        return nul;
    return t->col[col].a[i];
}

/* An index cell that must be an integer in [0, n). */
static int index_ok(ff_cell c, size_t n)
{
    return c.tag == FF_INT && c.v.i >= 0 && (uint64_t)c.v.i < n;
}

static foldsvg_status bad_index(ff_res *r, const char *table, int64_t row, const char *col,
                                ff_cell c, const char *target, size_t n, const char *unit)
{
    char b[48];
    return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                    "thread %zu %s row %lld: %s %s out of range (%s has %zu %s)", r->ti, table,
                    (long long)row, col, cell_text(c, b, sizeof b), target, n, unit);
}

/* Parent of stack S: *par = -1 for a root. */
static foldsvg_status parent_of(ff_res *r, int64_t s, int64_t *par)
{
    ff_cell c;
    if (!r->processed) {
        c = ff_table_cell(r->stack, (size_t)s, FF_C_PREFIX);
    } else if (r->use_offset) {
        c = col_cell(r->stack, FF_C_PREFIXOFFSET, s);
        if (c.tag == FF_INT && c.v.i == 0) {
            *par = -1;
            return FOLDSVG_OK;
        }
        if (c.tag == FF_INT && c.v.i > 0 && c.v.i <= s) {
            *par = s - c.v.i;
            return FOLDSVG_OK;
        }
        char b[48];
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu stackTable row %lld: prefixOffset %s points outside the "
                        "table (it has %zu rows)",
                        r->ti, (long long)s, cell_text(c, b, sizeof b), r->nstacks);
    } else {
        c = col_cell(r->stack, FF_C_PREFIX, s);
    }
    if (c.tag == FF_NULL) {
        *par = -1;
        return FOLDSVG_OK;
    }
    if (!index_ok(c, r->nstacks))
        return bad_index(r, "stackTable", s, "prefix", c, "table", r->nstacks, "rows");
    *par = c.v.i;
    return FOLDSVG_OK;
}

/* The raw name of stack S's frame. */
static foldsvg_status name_of(ff_res *r, int64_t s, fs_strref *out)
{
    int64_t si;
    const char *what;
    int64_t from_row;
    if (!r->processed) {
        ff_cell f = ff_table_cell(r->stack, (size_t)s, FF_C_FRAME);
        size_t nf = ff_table_rows(r->frame);
        if (!index_ok(f, nf))
            return bad_index(r, "stackTable", s, "frame", f, "frameTable", nf, "rows");
        ff_cell loc = ff_table_cell(r->frame, (size_t)f.v.i, FF_C_LOCATION);
        if (!index_ok(loc, r->strings->n))
            return bad_index(r, "frameTable", f.v.i, "location", loc, "stringTable", r->strings->n,
                             "strings");
        si = loc.v.i;
        what = "stringTable";
        from_row = f.v.i;
    } else {
        ff_cell f = col_cell(r->stack, FF_C_FRAME, s);
        size_t nf = r->frame->col[FF_C_FUNC].n;
        if (!index_ok(f, nf))
            return bad_index(r, "stackTable", s, "frame", f, "frameTable.func", nf, "entries");
        ff_cell fn = col_cell(r->frame, FF_C_FUNC, f.v.i);
        size_t nfn = r->func->col[FF_C_NAME].n;
        if (!index_ok(fn, nfn))
            return bad_index(r, "frameTable", f.v.i, "func", fn, "funcTable.name", nfn, "entries");
        ff_cell nm = col_cell(r->func, FF_C_NAME, fn.v.i);
        if (!index_ok(nm, r->strings->n))
            return bad_index(r, "funcTable", fn.v.i, "name", nm, "stringArray", r->strings->n,
                             "strings");
        si = nm.v.i;
        what = "stringArray";
        from_row = fn.v.i;
    }
    int ok = ff_strings_get(r->strings, si, &out->ptr, &out->len);
    if (ok != 1)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu %s entry %lld (used by row %lld) is not a string", r->ti, what,
                        (long long)si, (long long)from_row);
    return FOLDSVG_OK;
}

static int grow_path(ff_res *r, size_t need)
{
    if (need <= r->cpath)
        return 1;
    size_t nc = r->cpath ? r->cpath * 2 : 256;
    while (nc < need)
        nc *= 2;
    int64_t *np = realloc(r->path, nc * sizeof *np);
    if (!np)
        return 0;
    r->path = np;
    r->cpath = nc;
    return 1;
}

/* Depth of stack S (frames from root to S), memoized; detects cycles without recursion. */
static foldsvg_status depth_of(ff_res *r, int64_t s, uint32_t *out)
{
    size_t np = 0;
    int64_t cur = s;
    uint32_t base = 0;
    for (;;) {
        uint32_t d = r->depth[cur];
        if (d == FF_BUSY)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                            "thread %zu stackTable row %lld: the prefix chain has a cycle "
                            "(through row %lld)",
                            r->ti, (long long)s, (long long)cur);
        if (d) {
            base = d;
            break;
        }
        if (!grow_path(r, np + 1))
            return nomem(r->file, r->err);
        r->path[np++] = cur;
        r->depth[cur] = FF_BUSY;
        int64_t par;
        foldsvg_status st = parent_of(r, cur, &par);
        if (st) {
            for (size_t i = 0; i < np; i++) /* leave no BUSY marks behind */
                r->depth[r->path[i]] = 0;
            return st;
        }
        if (par < 0)
            break;
        cur = par;
    }
    while (np)
        r->depth[r->path[--np]] = ++base;
    *out = r->depth[s];
    return FOLDSVG_OK;
}

/* Frames of stack S, root first, into r->frames. */
static foldsvg_status frames_of(ff_res *r, int64_t s, size_t *n)
{
    uint32_t d = 0;
    foldsvg_status st = depth_of(r, s, &d);
    if (st)
        return st;
    if (d > r->cframes) {
        fs_strref *nf = realloc(r->frames, (size_t)d * sizeof *nf);
        if (!nf)
            return nomem(r->file, r->err);
        r->frames = nf;
        r->cframes = d;
    }
    int64_t cur = s;
    for (size_t i = d; i-- > 0;) {
        if ((st = name_of(r, cur, &r->frames[i])) || (st = parent_of(r, cur, &cur)))
            return st;
    }
    *n = d;
    return FOLDSVG_OK;
}

/* ---------------------------------------------------------------- weights */

typedef struct ff_weighting {
    int weight_samples, processed, sp1;
    int dur; /* processed before v29: the sums come from samples.duration */
} ff_weighting;

static int use_duration(const ff_thread *t, const ff_profile *root, int processed)
{
    double v = root->ppv_is_number ? root->ppv : 0;
    return processed && !t->has_weight_array && t->has_duration_array && v < 29;
}

static void acc_weight(const ff_weighting *w, const ff_thread *t, const ff_acc *a, int64_t *wi,
                       double *hi, double *lo)
{
    *hi = *lo = 0;
    if (w->weight_samples) {
        *wi = (int64_t)a->n;
    } else if (w->processed) {
        if (t->has_weight_array || w->dur) {
            /* agg_dur rows carry their durations in wint/fhi/flo like weights do */
            *wi = a->wint;
            *hi = a->fhi;
            *lo = a->flo;
        } else {
            *wi = (int64_t)a->n;
        }
    } else if (w->sp1) {
        *wi = a->wint + (int64_t)a->cpu_null;
        *hi = a->fhi;
        *lo = a->flo;
    } else {
        *wi = (int64_t)a->n;
    }
}

/* ---------------------------------------------------------------- per thread */

/* Tables of a thread (its own, or processed "shared" ones) and the structural checks the
 * reference makes for every thread, selected or not. */
static foldsvg_status thread_setup(ff_res *r, const ff_profile *root)
{
    ff_thread *t = r->t;
    if (!r->processed) {
        if (!t->strings.present)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file, "thread %zu has no stringTable",
                            r->ti);
        const char *names[2] = {"frameTable", "stackTable"};
        const ff_table *tabs[2] = {&t->frame, &t->stack};
        for (int i = 0; i < 2; i++)
            if (!tabs[i]->present || !tabs[i]->has_schema || !tabs[i]->has_data)
                return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                                "thread %zu: %s is missing or has no schema and data", r->ti,
                                names[i]);
        if (t->frame.schema[FF_C_LOCATION] == -1)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                            "thread %zu: the frameTable schema has no location column", r->ti);
        if (t->stack.schema[FF_C_PREFIX] == -1 || t->stack.schema[FF_C_FRAME] == -1)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                            "thread %zu: the stackTable schema lacks prefix or frame", r->ti);
        if (t->has_samples && !t->samples.has_schema)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file, "thread %zu: samples has no schema",
                            r->ti);
        r->stack = &t->stack;
        r->frame = &t->frame;
        r->strings = &t->strings;
        r->nstacks = ff_table_rows(&t->stack);
        return FOLDSVG_OK;
    }
    r->stack = t->stack.present             ? &t->stack
               : root->shared_stack.present ? &root->shared_stack
                                            : NULL;
    r->frame = t->frame.present             ? &t->frame
               : root->shared_frame.present ? &root->shared_frame
                                            : NULL;
    r->func = t->func.present ? &t->func : root->shared_func.present ? &root->shared_func : NULL;
    r->strings = t->strings.present             ? &t->strings
                 : root->shared_strings.present ? &root->shared_strings
                                                : NULL;
    const char *missing = !r->stack     ? "stackTable"
                          : !r->frame   ? "frameTable"
                          : !r->func    ? "funcTable"
                          : !r->strings ? "stringArray"
                                        : NULL;
    if (missing)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: no %s in the thread or in shared", r->ti, missing);
    if (!r->stack->has_col[FF_C_FRAME] || !r->frame->has_col[FF_C_FUNC] ||
        !r->func->has_col[FF_C_NAME])
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: stackTable.frame, frameTable.func or funcTable.name is "
                        "missing",
                        r->ti);
    r->use_offset = r->stack->has_col[FF_C_PREFIXOFFSET];
    if (!r->use_offset && !r->stack->has_col[FF_C_PREFIX])
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: stackTable has neither prefix nor prefixOffset", r->ti);
    r->nstacks = r->stack->col[FF_C_FRAME].n;
    if (r->stack->has_length && (r->stack->length < 0 || (uint64_t)r->stack->length != r->nstacks))
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: stackTable.length %lld differs from its frame column (%zu "
                        "entries)",
                        r->ti, (long long)r->stack->length, r->nstacks);
    return FOLDSVG_OK;
}

static foldsvg_status emit_thread(ff_res *r, const ff_weighting *w, const ff_agg *g, int frac,
                                  fs_sink *sink)
{
    ff_thread *t = r->t;
    if (w->sp1 && !w->weight_samples && !w->processed && t->cpu_bad_row)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu samples row %llu: threadCPUDelta (the SP1 weight) is not a "
                        "number or its sum overflows",
                        r->ti, (unsigned long long)(t->cpu_bad_row - 1));
    if (r->nstacks && !(r->depth = calloc(r->nstacks, sizeof *r->depth)))
        return nomem(r->file, r->err);
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < g->cap && !st; i++) {
        const ff_acc *a = &g->slots[i];
        if (a->key == INT64_MIN)
            continue;
        int64_t wi;
        double hi, lo;
        acc_weight(w, t, a, &wi, &hi, &lo);
        if (wi == 0 && hi == 0 && lo == 0)
            continue;
        size_t n = 0;
        if (a->key >= 0) {
            if ((uint64_t)a->key >= r->nstacks) {
                st = fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                              "thread %zu samples row %llu: stack %lld out of range (stackTable "
                              "has %zu rows)",
                              r->ti, (unsigned long long)a->first_row, (long long)a->key,
                              r->nstacks);
                break;
            }
            if ((st = frames_of(r, a->key, &n)))
                break;
        }
        if (frac) {
            fs_weight fw = {wi, hi, lo};
            st = sink->weight ? sink->weight(sink, r->frames, n, &fw, r->err) : FOLDSVG_OK;
        } else if (wi < 0) {
            st =
                fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                         "thread %zu samples row %llu: the weights of stack %lld sum to %lld, "
                         "which is not a count",
                         r->ti, (unsigned long long)a->first_row, (long long)a->key, (long long)wi);
        } else {
            st = sink->stack(sink, r->frames, n, (uint64_t)wi, r->err);
        }
    }
    free(r->depth);
    r->depth = NULL;
    return st;
}

/* ---------------------------------------------------------------- threads in order */

typedef struct ff_walk {
    ff_profile *p;
    int sp1;
} ff_walk;

static foldsvg_status collect(ff_profile *root, int processed, ff_tref **out, size_t *nout,
                              const char *file, foldsvg_error *err)
{
    ff_tref *v = NULL;
    size_t n = 0, cap = 0;
    ff_walk *todo = NULL;
    size_t nt = 0, ct = 0;
    foldsvg_status st = FOLDSVG_OK;
#define PUSHV(arr, cnt, capv, val)                                                                 \
    do {                                                                                           \
        if ((cnt) == (capv)) {                                                                     \
            size_t nc_ = (capv) ? (capv)*2 : 16;                                                   \
            void *np_ = realloc((arr), nc_ * sizeof *(arr));                                       \
            if (!np_) {                                                                            \
                st = nomem(file, err);                                                             \
                goto out;                                                                          \
            }                                                                                      \
            (arr) = np_;                                                                           \
            (capv) = nc_;                                                                          \
        }                                                                                          \
        (arr)[(cnt)++] = (val);                                                                    \
    } while (0)
    if (processed) {
        if (root->nstr) {
            st = fs_error(err, FOLDSVG_E_PARSE, file,
                          "processed profile: a threads[] entry is a JSON string, not a thread");
            goto out;
        }
        for (ff_thread *t = root->threads; t; t = t->next)
            PUSHV(v, n, cap, ((ff_tref){t, 0}));
        goto out;
    }
    PUSHV(todo, nt, ct, ((ff_walk){root, 0}));
    while (nt) {
        ff_walk w = todo[--nt];
        int sp1 = w.p->product_set ? w.p->product_sp1 : w.sp1;
        for (ff_thread *t = w.p->threads; t; t = t->next)
            PUSHV(v, n, cap, ((ff_tref){t, sp1}));
        /* depth first: string sub-profiles, then processes, each in array order */
        for (size_t i = w.p->nproc; i-- > 0;)
            PUSHV(todo, nt, ct, ((ff_walk){w.p->proc_subs[i], sp1}));
        for (size_t i = w.p->nstr; i-- > 0;)
            PUSHV(todo, nt, ct, ((ff_walk){w.p->str_subs[i], sp1}));
    }
#undef PUSHV
out:
    free(todo);
    if (st) {
        free(v);
        v = NULL;
        n = 0;
    }
    *out = v;
    *nout = n;
    return st;
}

static double thread_weight(const ff_weighting *w, const ff_thread *t, const ff_agg *g)
{
    double sum = 0;
    for (size_t i = 0; i < g->cap; i++) {
        const ff_acc *a = &g->slots[i];
        if (a->key == INT64_MIN)
            continue;
        int64_t wi;
        double hi, lo;
        acc_weight(w, t, a, &wi, &hi, &lo);
        sum += (double)wi + hi + lo;
    }
    return sum;
}

static const char *count_name_of(const ff_thread *t, const ff_weighting *w)
{
    if (w->weight_samples)
        return "samples";
    if (w->processed) {
        const char *wt = t ? t->weight_type : NULL;
        if (wt && strcmp(wt, "tracing-ms") == 0)
            return "ms";
        if (wt && strcmp(wt, "bytes") == 0)
            return "bytes";
        return "samples";
    }
    return w->sp1 ? NULL : "samples";
}

/* What one read does: the selection and weighting, and the thread listing. */
typedef struct ff_read_opts {
    long thread;
    int weight_samples;
    foldsvg_thread_fn thread_cb; /* NULL: no listing */
    void *thread_ud;
} ff_read_opts;

static foldsvg_status ff_read(fs_input *in, const ff_read_opts *opts, fs_sink *sink,
                              foldsvg_error *err)
{
    const char *file = fs_input_name(in);
    ff_profile *top = ff_profile_new(NULL);
    if (!top)
        return nomem(file, err);
    ff_queue q = {NULL, NULL};
    ff_tref *threads = NULL;
    size_t nthreads = 0;
    ff_res r;
    memset(&r, 0, sizeof r);
    r.file = file;
    r.err = err;
    int frac = 0;

    foldsvg_status st = ff_parse_input(in, top, &q, err);
    /* Sub-profiles kept as JSON strings: a work list, so nesting never recurses. */
    while (!st && q.head) {
        ff_profile *sub = q.head;
        q.head = sub->next_pending;
        if (!q.head)
            q.tail = NULL;
        st = ff_parse_sub(sub, &q, file, err);
    }
    if (st)
        goto out;

    ff_profile *root = !top->has_meta_key && top->wrapped ? top->wrapped : top;
    if (!root->meta_is_object) {
        st = fs_error(err, FOLDSVG_E_PARSE, file,
                      "not a Firefox profile: no meta object at the top level");
        goto out;
    }
    int processed = root->ppv_is_number || root->first_thread_has_string_array;
    if ((st = collect(root, processed, &threads, &nthreads, file, err)))
        goto out;
    if (opts->thread >= 0 && (size_t)opts->thread >= nthreads) {
        st = nthreads ? fs_error(err, FOLDSVG_E_USAGE, file,
                                 "--thread %ld: the profile has %zu threads (0..%zu)", opts->thread,
                                 nthreads, nthreads - 1)
                      : fs_error(err, FOLDSVG_E_USAGE, file,
                                 "--thread %ld: the profile has no threads", opts->thread);
        goto out;
    }
    for (size_t i = 0; i < nthreads; i++) {
        r.t = threads[i].t;
        r.ti = i;
        r.processed = processed;
        if ((st = thread_setup(&r, root)))
            goto out;
    }

    ff_weighting w0 = {opts->weight_samples, processed, 0, 0};
    for (size_t i = 0; i < nthreads && opts->thread_cb; i++) {
        ff_thread *t = threads[i].t;
        ff_weighting w = w0;
        w.sp1 = threads[i].sp1;
        w.dur = use_duration(t, root, processed);
        const ff_agg *g = w.dur ? &t->agg_dur : &t->agg;
        opts->thread_cb(opts->thread_ud, i, t->name ? t->name : "", t->process ? t->process : "",
                        t->rows, thread_weight(&w, t, g));
    }

    /* The unit: from the selected thread, or the first one (merged threads share it). */
    size_t first = opts->thread >= 0 ? (size_t)opts->thread : 0;
    ff_weighting wsel = w0;
    int any_cycles = 0, any_other = 0;
    for (size_t i = 0; i < nthreads; i++) {
        if (opts->thread >= 0 && i != (size_t)opts->thread)
            continue;
        if (threads[i].sp1)
            any_cycles = 1;
        else
            any_other = 1;
    }
    wsel.sp1 = nthreads ? (any_cycles && !any_other) : root->product_sp1;
    const char *unit = count_name_of(nthreads ? threads[first].t : NULL, &wsel);
    if (unit && sink->count_name)
        sink->count_name(sink, unit);
    if (sink->facts) {
        char format[48];
        double version = processed ? root->ppv : root->version;
        snprintf(format, sizeof format, "%s v%.0f", processed ? "processed" : "Gecko", version);
        /* SP1 weighs every sample by its rate: when the selection has one thread, the
         * weight over the rows gives it (exactly, as every row carries the same rate) */
        uint64_t rate = 0;
        size_t nsel = opts->thread >= 0 ? 1 : nthreads;
        if (nsel == 1 && nthreads && wsel.sp1 && !opts->weight_samples) {
            ff_thread *t = threads[first].t;
            ff_weighting w = w0;
            w.sp1 = 1;
            double total = thread_weight(&w, t, &t->agg);
            if (t->rows && total == (double)(uint64_t)(total / (double)t->rows) * (double)t->rows)
                rate = (uint64_t)(total / (double)t->rows);
        }
        sink->facts(sink, format, root->product, (uint32_t)nsel, rate);
    }

    /* Fractional weights anywhere in the selection switch to exact per-stack sums. */
    for (size_t i = 0; i < nthreads && !frac; i++) {
        if (opts->thread >= 0 && i != (size_t)opts->thread)
            continue;
        ff_thread *t = threads[i].t;
        ff_weighting w = w0;
        w.sp1 = threads[i].sp1;
        w.dur = use_duration(t, root, processed);
        const ff_agg *g = w.dur ? &t->agg_dur : &t->agg;
        for (size_t k = 0; k < g->cap && !frac; k++) {
            const ff_acc *a = &g->slots[k];
            int64_t wi;
            double hi, lo;
            if (a->key == INT64_MIN)
                continue;
            acc_weight(&w, t, a, &wi, &hi, &lo);
            frac = hi != 0 || lo != 0;
        }
    }
    for (size_t i = 0; i < nthreads; i++) {
        if (opts->thread >= 0 && i != (size_t)opts->thread)
            continue;
        r.t = threads[i].t;
        r.ti = i;
        if ((st = thread_setup(&r, root)))
            goto out;
        ff_weighting w = w0;
        w.sp1 = threads[i].sp1;
        w.dur = use_duration(r.t, root, processed);
        const ff_agg *g = w.dur ? &r.t->agg_dur : &r.t->agg;
        if ((st = emit_thread(&r, &w, g, frac, sink)))
            goto out;
    }
out:
    free(r.path);
    free(r.frames);
    free(threads);
    /* pending sub-profiles belong to the tree; the queue only links them */
    ff_profile_free(top);
    return st;
}

int fs_firefox_detect(const unsigned char *head, size_t len, int complete)
{
    /* Only leading whitespace is looked through: beyond FS_INPUT_PEEK_MAX bytes of it the
     * input is taken for folded text (which skips blank lines anyway). */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = head[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return c == '{';
    }
    return complete ? 0 : -1;
}

foldsvg_status fs_firefox_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                               foldsvg_error *err)
{
    ff_read_opts o = {opts ? opts->thread : -1, opts ? opts->weight_samples : 0, NULL, NULL};
    return ff_read(in, &o, sink, err);
}

static foldsvg_status ignore_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                                   foldsvg_error *err)
{
    (void)self;
    (void)frames;
    (void)n;
    (void)count;
    (void)err;
    return FOLDSVG_OK;
}

foldsvg_status fs_firefox_list_threads(fs_input *in, const fs_input_opts *opts,
                                       foldsvg_thread_fn fn, void *user, foldsvg_error *err)
{
    /* Every thread is listed whatever --thread says; the stacks go nowhere. */
    ff_read_opts o = {-1, opts ? opts->weight_samples : 0, fn, user};
    fs_sink none = {.stack = ignore_stack};
    return ff_read(in, &o, &none, err);
}
