/* Reading inputs into a profile: kind detection, the per-stack transforms of the pipeline
 * (../shared/docs/cli.md "The stack pipeline") and the order-dependent inferno modes. */
#include <stdlib.h>
#include <string.h>

#include "fold/filter.h"
#include "fold/sanitize.h"
#include "fold/strsort.h"
#include "lib/options.h"
#include "lib/profile.h"
#include "parse/firefox.h"
#include "parse/folded.h"
#include "parse/input.h"
#include "util/buf.h"
#include "util/error.h"
#include "lib/read.h"

typedef struct read_ctx {
    fs_sink sink; /* first: the JSON reader calls back with a pointer to it */
    foldsvg_profile *p;
    const foldsvg_options *o;
    const char *name;
    fs_buf prev; /* no-sort: the previous valid line's stack */
    uint64_t prev_line;
    int have_prev;
    fs_strref *frames; /* scratch for transforms */
    size_t frames_cap;
    fs_buf names; /* scratch for sanitized names */
    int use_base;
    fs_filter *filter;      /* NULL when no filter is set */
    fs_profile_facts facts; /* what this input is, for reports */
} read_ctx;

static foldsvg_status grow_frames(read_ctx *c, size_t n)
{
    if (n <= c->frames_cap)
        return FOLDSVG_OK;
    size_t cap = c->frames_cap ? c->frames_cap : 64;
    while (cap < n)
        cap *= 2;
    fs_strref *nf = realloc(c->frames, cap * sizeof *nf);
    if (!nf)
        return FOLDSVG_E_NOMEM;
    c->frames = nf;
    c->frames_cap = cap;
    return FOLDSVG_OK;
}

static int is_base(const read_ctx *c, fs_strref f)
{
    return fs_strlist_has(&c->o->stack.base, f.ptr, f.len);
}

static const fs_strref unknown_frame = {FS_UNKNOWN_FRAME, sizeof FS_UNKNOWN_FRAME - 1};

/* The per-stack part of the pipeline on c->frames[0..*n): --reverse, the filters, --base.
 * Returns 1 to keep the stack (from c->frames[*first]), 0 to drop it, -1 when out of
 * memory. */
static int transform(read_ctx *c, size_t *n, size_t *first)
{
    fs_strref *f = c->frames;
    *first = 0;
    if (*n == 0) {
        f[0] = unknown_frame;
        *n = 1;
    }
    if (c->o->stack.reverse) {
        for (size_t i = 0, j = *n - 1; i < j; i++, j--) {
            fs_strref t = f[i];
            f[i] = f[j];
            f[j] = t;
        }
    }
    if (c->filter) {
        int r = fs_filter_apply(c->filter, f, n);
        if (r <= 0)
            return r;
        if (*n == 0) {
            f[0] = unknown_frame;
            *n = 1;
        }
    }
    if (c->use_base) {
        /* The deepest base symbol above the leaf starts the stack; a stack without one,
         * or whose match is its outermost frame, is dropped (inferno's rule). */
        size_t i = *n - 1;
        int found = 0;
        while (i-- > 0) {
            if (is_base(c, f[i])) {
                found = 1;
                break;
            }
        }
        if (!found || i == 0)
            return 0;
        *first = i;
    }
    return 1;
}

static foldsvg_status add_stack(read_ctx *c, size_t n, uint64_t count, uint64_t before, int is_diff,
                                uint64_t lineno, foldsvg_error *err)
{
    size_t first = 0;
    int keep = transform(c, &n, &first);
    if (keep < 0)
        return fs_error_at_line(err, FOLDSVG_E_NOMEM, c->name, lineno, 0, "out of memory");
    if (keep == 0)
        return FOLDSVG_OK;
    uint32_t leaf;
    foldsvg_status st = fs_tree_add_frames(&c->p->tree, c->frames + first, n - first, count, before,
                                           is_diff, &leaf);
    if (st == FOLDSVG_OK && c->o->stack.flamechart)
        st = fs_order_log_add(&c->p->log, leaf, count, before, is_diff);
    return st ? fs_stack_error(err, st, c->name, lineno) : FOLDSVG_OK;
}

static foldsvg_status on_line(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    read_ctx *c = user;
    if (c->o->stack.no_sort) {
        if (c->have_prev && fs_strcmp_bytes(l->stack, l->len, c->prev.data, c->prev.len) < 0)
            return fs_unsorted_error(err, c->name, l->lineno, c->prev_line);
        fs_buf_clear(&c->prev);
        if (fs_buf_append(&c->prev, l->stack, l->len) != 0)
            return fs_error(err, FOLDSVG_E_NOMEM, c->name, "out of memory");
        c->have_prev = 1;
        c->prev_line = l->lineno;
    }
    if (l->count == 0 && !(l->is_diff && l->before > 0))
        return FOLDSVG_OK;
    if (!c->o->stack.reverse && !c->use_base && !c->filter) {
        uint32_t leaf;
        foldsvg_status st =
            fs_tree_add_path(&c->p->tree, l->stack, l->len, l->count, l->before, l->is_diff, &leaf);
        if (st == FOLDSVG_OK && c->o->stack.flamechart)
            st = fs_order_log_add(&c->p->log, leaf, l->count, l->before, l->is_diff);
        return st ? fs_stack_error(err, st, c->name, l->lineno) : FOLDSVG_OK;
    }
    size_t n = 1;
    for (size_t i = 0; i < l->len; i++)
        n += l->stack[i] == ';';
    if (grow_frames(c, n) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, c->name, "out of memory");
    size_t k = 0, startpos = 0;
    for (size_t i = 0; i <= l->len; i++) {
        if (i == l->len || l->stack[i] == ';') {
            c->frames[k++] = (fs_strref){l->stack + startpos, i - startpos};
            startpos = i + 1;
        }
    }
    return add_stack(c, n, l->count, l->before, l->is_diff, l->lineno, err);
}

static foldsvg_status on_profile_stack(fs_sink *self, const fs_strref *frames, size_t n,
                                       uint64_t count, foldsvg_error *err)
{
    read_ctx *c = (read_ctx *)(void *)self;
    if (count == 0)
        return FOLDSVG_OK;
    if (grow_frames(c, n + 1) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, c->name, "out of memory");
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += frames[i].len;
    fs_buf_clear(&c->names);
    if (fs_buf_reserve(&c->names, total) != 0)
        return fs_error(err, FOLDSVG_E_NOMEM, c->name, "out of memory");
    for (size_t i = 0; i < n; i++) {
        c->frames[i] = frames[i];
        if (fs_name_needs_sanitize(frames[i].ptr, frames[i].len)) {
            char *dst = c->names.data + c->names.len;
            fs_sanitize_name(dst, frames[i].ptr, frames[i].len);
            c->names.len += frames[i].len;
            c->frames[i].ptr = dst;
        }
    }
    return add_stack(c, n, count, 0, 0, 0, err);
}

static void on_facts(fs_sink *self, const char *format, const char *product, uint32_t threads,
                     uint64_t rate)
{
    read_ctx *c = (read_ctx *)(void *)self;
    snprintf(c->facts.format, sizeof c->facts.format, "%s", format);
    snprintf(c->facts.product, sizeof c->facts.product, "%s", product);
    c->facts.threads = threads;
    c->facts.rate = rate;
}

static void on_count_name(fs_sink *self, const char *name)
{
    read_ctx *c = (read_ctx *)(void *)self;
    snprintf(c->p->count_name, sizeof c->p->count_name, "%s", name);
}

foldsvg_status fs_stack_error(foldsvg_error *err, foldsvg_status st, const char *name,
                              uint64_t line)
{
    if (st == FOLDSVG_E_OVERFLOW)
        return fs_error_at_line(err, st, name, line, 0,
                                "the total count passes 2^64-1; the input's counts are too large");
    return fs_error_at_line(err, st, name, line, 0, "%s", foldsvg_status_name(st));
}

foldsvg_status fs_unsorted_error(foldsvg_error *err, const char *name, uint64_t line,
                                 uint64_t prev_line)
{
    return fs_error_at_line(err, FOLDSVG_E_UNSORTED, name, line, 0,
                            "unsorted input lines detected: this stack sorts before the one on "
                            "line %llu; drop --no-sort or sort the input",
                            (unsigned long long)prev_line);
}

foldsvg_status fs_no_data_error(foldsvg_error *err, const char *name, const fs_folded_stats *s)
{
    if (s && s->invalid)
        return fs_error_at_line(err, FOLDSVG_E_NO_DATA, name, s->first_invalid, 0,
                                "no valid stacks, nothing to draw: %llu line%s with invalid "
                                "format, the first is this one (a line is 'frame;frame;... "
                                "COUNT')",
                                (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s");
    if (!s)
        return fs_error(err, FOLDSVG_E_NO_DATA, name,
                        "no valid stacks, nothing to draw: no sample has a stack with a "
                        "non-zero weight");
    return fs_error(err, FOLDSVG_E_NO_DATA, name, "no valid stacks, nothing to draw: the input %s",
                    s->lines ? "holds only blank lines, comments or zero counts" : "is empty");
}

void fs_warn_folded_stats(const foldsvg_options *o, const char *name, const fs_folded_stats *s)
{
    foldsvg_error w;
    if (s->invalid) {
        fs_error_at_line(&w, FOLDSVG_OK, name, s->first_invalid, 0,
                         "ignored %llu line%s with invalid format (the first is this one; a "
                         "line is 'frame;frame;... COUNT')",
                         (unsigned long long)s->invalid, s->invalid == 1 ? "" : "s");
        fs_warn(o, &w);
    }
    if (s->fractional) {
        fs_error_at_line(&w, FOLDSVG_OK, name, s->first_fractional, 0,
                         "%llu line%s had fractional counts; the fractions were dropped (scale "
                         "the input and use --factor to keep them)",
                         (unsigned long long)s->fractional, s->fractional == 1 ? "" : "s");
        fs_warn(o, &w);
    }
}

/* Warnings of a folded input, held back while nothing drawable has been read. */
static void note_stats(foldsvg_profile *p, const foldsvg_options *o, const char *name,
                       const fs_folded_stats *s)
{
    if (p->tree.total == 0) {
        if (!p->pending_name[0] || (s->invalid && !p->pending.invalid)) {
            p->pending = *s;
            snprintf(p->pending_name, sizeof p->pending_name, "%s", name);
        }
        return;
    }
    if (p->pending_name[0]) {
        fs_warn_folded_stats(o, p->pending_name, &p->pending);
        p->pending_name[0] = '\0';
    }
    fs_warn_folded_stats(o, name, s);
}

foldsvg_status fs_profile_read_input(foldsvg_profile *p, fs_input *in, const foldsvg_options *o,
                                     foldsvg_error *err)
{
    if (!o)
        o = fs_default_options();
    read_ctx c;
    memset(&c, 0, sizeof c);
    c.sink.stack = on_profile_stack;
    c.sink.count_name = on_count_name;
    c.sink.facts = on_facts;
    c.p = p;
    c.o = o;
    c.name = fs_input_name(in);
    if (o->progress)
        fs_input_set_progress(in, o->progress, o->progress_user);
    c.use_base = o->stack.base.n > 0 && !o->stack.flamechart && !o->stack.no_sort;
    if (o->stack.flamechart)
        p->has_log = 1;
    fs_input_kind kind;
    foldsvg_status st = fs_filter_new(&c.filter, &o->stack, err);
    if (st == FOLDSVG_OK && (st = grow_frames(&c, 64)) != FOLDSVG_OK)
        fs_error(err, st, c.name, "out of memory");
    if (st == FOLDSVG_OK)
        st = fs_input_kind_of(in, &kind, err);
    if (st == FOLDSVG_OK && kind == FS_INPUT_JSON) {
        if (o->stack.flamechart || o->stack.no_sort) {
            st = fs_error(err, FOLDSVG_E_USAGE, c.name,
                          "--%s needs folded input (it depends on line order); this is a "
                          "Firefox-Profiler profile: drop --%s",
                          o->stack.flamechart ? "flamechart" : "no-sort",
                          o->stack.flamechart ? "flamechart" : "no-sort");
        } else {
            fs_firefox_opts fo = {o->input.thread, o->input.weight_samples, NULL, NULL};
            st = fs_firefox_read(in, &fo, &c.sink, err);
        }
    } else if (st == FOLDSVG_OK) {
        fs_folded_stats stats;
        memset(&stats, 0, sizeof stats);
        st = fs_folded_read(in, on_line, &c, &stats, err);
        if (st == FOLDSVG_OK)
            note_stats(p, o, c.name, &stats);
    }
    snprintf(p->last_name, sizeof p->last_name, "%s", c.name);
    if (st == FOLDSVG_OK) {
        snprintf(c.facts.files, sizeof c.facts.files, "%s", c.name);
        if (kind == FS_INPUT_FOLDED)
            snprintf(c.facts.format, sizeof c.facts.format, "folded");
        c.facts.gzip = fs_input_is_gzip(in);
        fs_profile_note_input(p, &c.facts);
    }
    fs_filter_free(c.filter);
    fs_buf_free(&c.prev);
    fs_buf_free(&c.names);
    free(c.frames);
    return st;
}

foldsvg_status foldsvg_profile_read_file(foldsvg_profile *p, const char *path,
                                         const foldsvg_options *opts, foldsvg_error *err)
{
    if (!p)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL profile");
    fs_input *in;
    foldsvg_status st = fs_input_open_file(&in, path, err);
    if (st)
        return st;
    st = fs_profile_read_input(p, in, opts, err);
    fs_input_close(in);
    return st;
}

foldsvg_status foldsvg_profile_read_stream(foldsvg_profile *p, FILE *f, const char *name,
                                           const foldsvg_options *opts, foldsvg_error *err)
{
    if (!p || !f)
        return fs_error(err, FOLDSVG_E_ARG, name, "NULL profile or stream");
    fs_input *in;
    foldsvg_status st = fs_input_open_stream(&in, f, name, err);
    if (st)
        return st;
    st = fs_profile_read_input(p, in, opts, err);
    fs_input_close(in);
    return st;
}

foldsvg_status foldsvg_profile_read_buffer(foldsvg_profile *p, const void *data, size_t len,
                                           const char *name, const foldsvg_options *opts,
                                           foldsvg_error *err)
{
    if (!p || (!data && len))
        return fs_error(err, FOLDSVG_E_ARG, name, "NULL profile or data");
    fs_input *in;
    foldsvg_status st = fs_input_open_mem(&in, data, len, name, err);
    if (st)
        return st;
    st = fs_profile_read_input(p, in, opts, err);
    fs_input_close(in);
    return st;
}

typedef struct list_ctx {
    fs_sink sink;
    foldsvg_thread_fn fn;
    void *user;
} list_ctx;

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

static void on_thread(void *ud, size_t index, const char *name, const char *process,
                      uint64_t samples, double weight)
{
    list_ctx *c = ud;
    c->fn(c->user, index, name, process, samples, weight);
}

foldsvg_status foldsvg_list_threads(const char *path, const foldsvg_options *opts,
                                    foldsvg_thread_fn fn, void *user, foldsvg_error *err)
{
    if (!fn)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL callback");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_input *in;
    foldsvg_status st = fs_input_open_file(&in, path, err);
    if (st)
        return st;
    fs_input_kind kind;
    st = fs_input_kind_of(in, &kind, err);
    if (st == FOLDSVG_OK && kind != FS_INPUT_JSON) {
        st = fs_error(err, FOLDSVG_E_USAGE, fs_input_name(in),
                      "--list-threads needs a Firefox-Profiler profile; this input is folded "
                      "text, which has no threads");
    } else if (st == FOLDSVG_OK) {
        list_ctx c = {{ignore_stack, NULL, NULL}, fn, user};
        /* Every thread is listed whatever --thread says. */
        fs_firefox_opts fo = {-1, o->input.weight_samples, on_thread, &c};
        st = fs_firefox_read(in, &fo, &c.sink, err);
    }
    fs_input_close(in);
    return st;
}
