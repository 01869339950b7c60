/* The Firefox-Profiler reader, once the JSON layer has read the document into the model
 * (formats/firefox/sax.c): picks the root profile and the stack model of its shape (Gecko or
 * processed, known only now), numbers the threads in document order, applies the thread
 * selection (formats/threadsel.h) and the weighting, says what the input is, and hands each
 * summed stack to the sink, resolved to frames by the model (formats/firefox/resolve.h); in the
 * ordered mode (--flamechart), the runs of one thread's samples in their order instead
 * (formats/firefox/order.h). */
#include "formats/firefox/firefox.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/firefox/early.h"
#include "formats/firefox/gecko.h"
#include "formats/firefox/model.h"
#include "formats/firefox/order.h"
#include "formats/firefox/processed.h"
#include "formats/firefox/resolve.h"
#include "formats/firefox/sax.h"
#include "formats/threadsel.h"
#include "util/buf.h"
#include "util/error.h"

/* What one read does: the selection and weighting, and the thread listing. */
typedef struct ff_read_opts {
    fs_threadsel *sel; /* NULL: all threads */
    int ordered;       /* the samples of one thread in their order (--flamechart) */
    int weight_samples;
    foldsvg_thread_fn thread_cb; /* NULL: no listing */
    void *thread_ud;
} ff_read_opts;

/* A read in progress, once the document is in the model. */
typedef struct ff_doc {
    const ff_read_opts *o;
    const char *file;
    foldsvg_error *err;
    ff_profile *root;
    const ff_model *m;
    ff_tref *threads;
    size_t nthreads;
    uint8_t *picked; /* per thread: selected; NULL: all are */
} ff_doc;

static int selected(const ff_doc *d, size_t i)
{
    return !d->picked || d->picked[i];
}

static size_t count_selected(const ff_doc *d, size_t *first)
{
    size_t n = 0;
    *first = 0;
    for (size_t i = d->nthreads; i-- > 0;)
        if (selected(d, i)) {
            n++;
            *first = i;
        }
    return n;
}

/* "0 'GeckoMain', 2 'DOM Worker'": the threads WHICH picks (NULL: all), ten at most. */
static void list_names(const ff_doc *d, const uint8_t *which, fs_buf *b)
{
    size_t shown = 0, left = 0;
    for (size_t i = 0; i < d->nthreads; i++) {
        if (which && !which[i])
            continue;
        if (shown == 10) {
            left++;
            continue;
        }
        const ff_thread *t = d->threads[i].t;
        fs_buf_printf(b, "%s%zu '%s'", shown ? ", " : "", i, t->name ? t->name : "");
        shown++;
    }
    if (left)
        fs_buf_printf(b, " and %zu more", left);
}

/* The --thread values into PICKED; a value that picks no thread is a usage error naming
 * the threads there are. */
static foldsvg_status pick_threads(ff_doc *d)
{
    fs_threadsel *sel = d->o->sel;
    if (!fs_threadsel_some(sel))
        return FOLDSVG_OK;
    if (!(d->picked = calloc(d->nthreads ? d->nthreads : 1, 1)))
        return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
    for (size_t i = 0; i < d->nthreads; i++) {
        int r = fs_threadsel_picks(sel, i, d->threads[i].t->name);
        if (r == -2) {
            const char *value, *limit = fs_threadsel_limit(sel, &value);
            return fs_error(d->err, FOLDSVG_E_LIMIT, d->file,
                            "--thread '%s' hit PCRE2's %s on the name of thread %zu, so whether "
                            "it picks the thread is unknown; simplify the pattern",
                            value, limit, i);
        }
        if (r < 0)
            return fs_error(d->err, FOLDSVG_E_NOMEM, d->file,
                            "--thread: matching the name of thread %zu failed (out of memory)", i);
        d->picked[i] = (uint8_t)r;
    }
    long index;
    const char *v = fs_threadsel_unused(sel, &index);
    if (!v)
        return FOLDSVG_OK;
    if (!d->nthreads)
        return fs_error(d->err, FOLDSVG_E_USAGE, d->file, "--thread %s: the profile has no threads",
                        v);
    if (index >= 0)
        return fs_error(d->err, FOLDSVG_E_USAGE, d->file,
                        "--thread %ld: the profile has %zu threads (0..%zu)", index, d->nthreads,
                        d->nthreads - 1);
    fs_buf names = {0};
    list_names(d, NULL, &names);
    foldsvg_status st = fs_error(d->err, FOLDSVG_E_USAGE, d->file,
                                 "--thread '%s': no thread's name %s; the threads are %s", v,
                                 v[0] == '/' ? "matches" : "is that", fs_buf_str(&names));
    fs_buf_free(&names);
    return st;
}

/* The ordered mode draws one thread: of those selected, the one with samples. */
static foldsvg_status pick_one_thread(ff_doc *d)
{
    uint8_t *with = calloc(d->nthreads ? d->nthreads : 1, 1);
    if (!with)
        return fs_error(d->err, FOLDSVG_E_NOMEM, d->file, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < d->nthreads; i++)
        if (selected(d, i) && d->threads[i].t->rows > 0)
            with[i] = 1, n++;
    if (n <= 1) {
        free(d->picked);
        d->picked = with; /* none: nothing to draw, which the caller reports */
        return FOLDSVG_OK;
    }
    fs_buf names = {0};
    list_names(d, with, &names);
    foldsvg_status st = fs_error(
        d->err, FOLDSVG_E_USAGE, d->file,
        "--flamechart draws one thread's samples in their order, and %zu threads have samples "
        "(%s): choose one with --thread (an index, a name or /REGEX/; see --list-threads)",
        n, fs_buf_str(&names));
    fs_buf_free(&names);
    free(with);
    return st;
}

/* Thread I's weighting and the sums it uses. */
static const ff_agg *weighting(const ff_doc *d, size_t i, ff_weighting *w)
{
    const ff_thread *t = d->threads[i].t;
    *w = (ff_weighting){d->o->weight_samples, d->threads[i].sp1, d->m->uses_duration(t, d->root)};
    return w->dur ? &t->tab->agg_dur : &t->agg;
}

static double sum_weights(const ff_doc *d, const ff_weighting *w, const ff_thread *t,
                          const ff_agg *g)
{
    double sum = 0;
    for (size_t i = 0; i < g->cap; i++) {
        if (g->slots[i].key == INT64_MIN)
            continue;
        fs_weight fw;
        ff_weight(d->m, w, t, &g->slots[i], &fw);
        sum += (double)fw.whole + fw.hi + fw.lo;
    }
    return sum;
}

/* The whole text, then the sub-profiles kept as JSON strings: a work list, so that nesting
 * never recurses. */
static foldsvg_status parse_all(fs_input *in, ff_profile *top, const char *file, foldsvg_error *err)
{
    ff_queue q = {NULL, NULL};
    foldsvg_status st = ff_parse_input(in, top, &q, err);
    while (!st && q.head) {
        ff_profile *sub = q.head;
        q.head = sub->next_pending;
        if (!q.head)
            q.tail = NULL;
        st = ff_parse_sub(sub, &q, file, err);
    }
    /* pending sub-profiles belong to the tree; the queue only links them */
    return st;
}

/* The root, its model, its threads, and the checks every thread must pass. */
static foldsvg_status open_doc(ff_doc *d, ff_profile *top, ff_res *r)
{
    ff_profile *root = !top->has_meta_key && top->wrapped ? top->wrapped : top;
    if (!root->meta_is_object)
        return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                        "not a Firefox profile: no meta object at the top level");
    d->root = root;
    d->m = root->ppv_is_number || root->first_thread_has_string_array ? &ff_processed_model
                                                                      : &ff_gecko_model;
    if (top->resolved_early && d->m != &ff_gecko_model)
        return fs_error(d->err, FOLDSVG_E_PARSE, d->file,
                        "not a Firefox profile: a second meta or threads key made the profile "
                        "processed after its threads were read as Gecko");
    FS_FORWARD_IF_ERROR(d->m->collect(root, &d->threads, &d->nthreads, d->file, d->err));
    FS_FORWARD_IF_ERROR(pick_threads(d));
    if (d->o->ordered)
        FS_FORWARD_IF_ERROR(pick_one_thread(d));
    r->m = d->m;
    for (size_t i = 0; i < d->nthreads; i++) {
        r->t = d->threads[i].t;
        r->ti = i;
        if (r->t->tab) /* else resolved as it closed, its setup passed then */
            FS_FORWARD_IF_ERROR(d->m->setup(r, root));
    }
    return FOLDSVG_OK;
}

static void list_threads(const ff_doc *d)
{
    for (size_t i = 0; i < d->nthreads; i++) {
        const ff_thread *t = d->threads[i].t;
        ff_weighting w;
        const ff_agg *g = weighting(d, i, &w);
        d->o->thread_cb(d->o->thread_ud, i, t->name ? t->name : "", t->process ? t->process : "",
                        t->rows, sum_weights(d, &w, t, g));
    }
}

/* The unit, from the selected thread or the first one (merged threads share it), and what
 * the input is. */
static void describe(const ff_doc *d, fs_sink *sink)
{
    size_t first;
    size_t nsel = count_selected(d, &first);
    int any_cycles = 0, any_other = 0;
    for (size_t i = 0; i < d->nthreads; i++) {
        if (!selected(d, i))
            continue;
        if (d->threads[i].sp1)
            any_cycles = 1;
        else
            any_other = 1;
    }
    ff_weighting wsel = {d->o->weight_samples, 0, 0};
    wsel.sp1 = d->nthreads ? (any_cycles && !any_other) : d->root->product_sp1;
    const ff_thread *t = d->nthreads ? d->threads[first].t : NULL;
    const char *unit = wsel.weight_samples ? "samples" : d->m->count_name(t, &wsel);
    if (unit && sink->count_name)
        sink->count_name(sink, unit);
    if (!sink->facts)
        return;
    char format[48];
    snprintf(format, sizeof format, "%s v%.0f", d->m->shape, d->m->version(d->root));
    /* SP1 weighs every sample by its rate: when the selection has one thread, the weight
     * over the rows gives it (exactly, as every row carries the same rate) */
    uint64_t rate = 0;
    if (nsel == 1 && d->nthreads && wsel.sp1 && !d->o->weight_samples) {
        ff_weighting w = {0, 1, 0};
        double total = sum_weights(d, &w, t, &t->agg);
        if (t->rows && total == (double)(uint64_t)(total / (double)t->rows) * (double)t->rows)
            rate = (uint64_t)(total / (double)t->rows);
    }
    sink->facts(sink, format, d->root->product, (uint32_t)nsel, rate);
    if (sink->threads && nsel) {
        fs_buf names = {0};
        for (size_t i = 0, k = 0; i < d->nthreads; i++) {
            const ff_thread *th = d->threads[i].t;
            if (selected(d, i))
                fs_buf_printf(&names, "%s%s (%zu)", k++ ? ", " : "", th->name ? th->name : "", i);
        }
        if (fs_buf_status(&names) == FOLDSVG_OK)
            sink->threads(sink, fs_buf_str(&names));
        fs_buf_free(&names);
    }
}

/* Whether a weight of the selection has a fraction: then every stack is summed exactly per
 * folded stack (sink->weight) before rounding. */
static int has_fractions(const ff_doc *d)
{
    for (size_t i = 0; i < d->nthreads; i++) {
        if (!selected(d, i))
            continue;
        ff_weighting w;
        const ff_agg *g = weighting(d, i, &w);
        for (size_t k = 0; k < g->cap; k++) {
            if (g->slots[k].key == INT64_MIN)
                continue;
            fs_weight fw;
            ff_weight(d->m, &w, d->threads[i].t, &g->slots[k], &fw);
            if (fw.hi != 0 || fw.lo != 0)
                return 1;
        }
    }
    return 0;
}

/* The frames of A's stack into R->frames, *N of them (0: a null stack): from the store
 * when the thread was resolved as it closed (A is its K-th sum). */
static foldsvg_status frames_of(ff_res *r, const ff_acc *a, size_t k, size_t *n)
{
    *n = 0;
    if (!r->t->tab) {
        uint32_t node = r->t->nodes[k];
        if (node != FF_NO_NODE &&
            ff_store_frames(r->store, node, &r->frames, &r->cframes, n) != FOLDSVG_OK)
            return fs_error(r->err, FOLDSVG_E_NOMEM, r->file, "out of memory");
        return FOLDSVG_OK;
    }
    if (a->key < 0)
        return FOLDSVG_OK;
    if ((uint64_t)a->key >= r->nstacks)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu samples row %llu: stack %lld out of range (stackTable "
                        "has %zu rows)",
                        r->ti, (unsigned long long)a->first_row, (long long)a->key, r->nstacks);
    return ff_frames_of(r, a->key, n);
}

/* One summed stack of thread R->t to the sink. */
static foldsvg_status emit_stack(ff_res *r, const ff_acc *a, size_t k, const fs_weight *fw,
                                 int frac, fs_sink *sink)
{
    size_t n;
    FS_FORWARD_IF_ERROR(frames_of(r, a, k, &n));
    if (frac)
        return sink->weight ? sink->weight(sink, r->frames, n, fw, r->err) : FOLDSVG_OK;
    if (fw->whole < 0)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu samples row %llu: the weights of stack %lld sum to %lld, "
                        "which is not a count",
                        r->ti, (unsigned long long)a->first_row, (long long)a->key,
                        (long long)fw->whole);
    return sink->stack(sink, r->frames, n, (uint64_t)fw->whole, r->err);
}

/* The ordered mode: thread R->t's runs of samples in their order, each weighed as a stack's
 * sums are. Fractional weights are rounded where they end up: each run gets what its end
 * adds to the rounded running total, so that no time is lost or gained along the chart. */
static foldsvg_status emit_runs(ff_res *r, const ff_weighting *w, fs_sink *sink)
{
    const ff_runs *runs = r->t->runs;
    int64_t whole = 0, shown = 0;
    double frac = 0;
    for (size_t k = 0; runs && k < runs->n; k++) {
        const ff_acc *a = w->dur ? (runs->dur ? &runs->dur[k] : NULL) : &runs->a[k];
        if (!a)
            break;
        fs_weight fw;
        ff_weight(r->m, w, r->t, a, &fw);
        whole += fw.whole;
        frac += fw.hi + fw.lo;
        double carry = floor(frac);
        whole += (int64_t)carry;
        frac -= carry;
        int64_t upto = whole + (frac >= 0.5);
        if (fw.whole < 0 || upto < shown)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                            "thread %zu samples row %llu: a weight below 0, which is not a count",
                            r->ti, (unsigned long long)a->first_row);
        uint64_t count = (uint64_t)(upto - shown);
        shown = upto;
        /* a thread's runs take turns between few stacks: each is resolved once (the key, the
         * thread and its stack row, the null stack's -1 as 0) */
        int keyed = sink->again && a->key >= -1 && a->key < (int64_t)1 << 40;
        uint64_t key = (uint64_t)r->ti << 40 | (uint64_t)(a->key + 1);
        int known = 0;
        if (keyed)
            FS_FORWARD_IF_ERROR(sink->again(sink, key, count, &known, r->err));
        if (known)
            continue;
        size_t n;
        FS_FORWARD_IF_ERROR(frames_of(r, a, 0, &n));
        FS_FORWARD_IF_ERROR(keyed ? sink->keyed(sink, key, r->frames, n, count, r->err)
                                  : sink->stack(sink, r->frames, n, count, r->err));
    }
    return FOLDSVG_OK;
}

static foldsvg_status emit_thread(const ff_doc *d, size_t i, ff_res *r, int frac, fs_sink *sink)
{
    r->t = d->threads[i].t;
    r->ti = i;
    r->nstacks = 0;
    if (r->t->tab)
        FS_FORWARD_IF_ERROR(d->m->setup(r, d->root));
    ff_weighting w;
    const ff_agg *g = weighting(d, i, &w);
    if (d->m->check)
        FS_FORWARD_IF_ERROR(d->m->check(r, &w));
    if (r->nstacks && !(r->depth = calloc(r->nstacks, sizeof *r->depth)))
        return fs_error(r->err, FOLDSVG_E_NOMEM, r->file, "out of memory");
    foldsvg_status st = FOLDSVG_OK;
    if (d->o->ordered) {
        st = emit_runs(r, &w, sink);
        g = NULL;
    }
    for (size_t k = 0; g && k < g->cap && !st; k++) {
        const ff_acc *a = &g->slots[k];
        if (a->key == INT64_MIN)
            continue;
        fs_weight fw;
        ff_weight(d->m, &w, r->t, a, &fw);
        if (fw.whole == 0 && fw.hi == 0 && fw.lo == 0)
            continue;
        st = emit_stack(r, a, k, &fw, frac, sink);
    }
    free(r->depth);
    r->depth = NULL;
    return st;
}

static foldsvg_status ff_read(fs_input *in, const ff_read_opts *opts, fs_sink *sink,
                              foldsvg_error *err)
{
    ff_doc d = {opts, fs_input_name(in), err, NULL, NULL, NULL, 0, NULL};
    ff_profile *top = ff_profile_new(NULL);
    if (!top)
        return fs_error(err, FOLDSVG_E_NOMEM, d.file, "out of memory");
    top->ordered = opts->ordered;
    top->is_top = 1;
    ff_res r;
    memset(&r, 0, sizeof r);
    r.file = d.file;
    r.err = err;
    foldsvg_status st = parse_all(in, top, d.file, err);
    r.store = top->store;
    if (st == FOLDSVG_OK)
        st = open_doc(&d, top, &r);
    if (st == FOLDSVG_OK) {
        if (opts->thread_cb)
            list_threads(&d);
        describe(&d, sink);
        int frac = !opts->ordered && has_fractions(&d);
        for (size_t i = 0; i < d.nthreads && st == FOLDSVG_OK; i++)
            if (selected(&d, i))
                st = emit_thread(&d, i, &r, frac, sink);
    }
    free(r.path);
    free(r.frames);
    free(d.threads);
    free(d.picked);
    ff_store_free(top->store);
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
    ff_read_opts o = {NULL, opts ? opts->ordered : 0, opts ? opts->weight_samples : 0, NULL, NULL};
    if (opts)
        FS_FORWARD_IF_ERROR(fs_threadsel_new(&o.sel, &opts->threads, err));
    foldsvg_status st = ff_read(in, &o, sink, err);
    fs_threadsel_free(o.sel);
    return st;
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
    ff_read_opts o = {NULL, 0, opts ? opts->weight_samples : 0, fn, user};
    fs_sink none = {.stack = ignore_stack};
    return ff_read(in, &o, &none, err);
}
