/* foldsvg_convert: inputs to one output the cheapest way. Sorted folded text (what stack
 * collapsers write; plain or gzip) is merged as it streams by, keeping only the frames that
 * can be drawn.
 * Unsorted folded text is read a second time into a sorter (equal stacks summed in memory,
 * distinct ones spilled to a temporary file in sorted runs when they outgrow its budget)
 * whose output the same merge takes: memory stays bounded and the frame tree is never
 * built. Files are read again by name, standard input from a copy kept in a temporary file
 * as it was read (gzip stays compressed there). Folded output is the sorter's output, lines
 * summed. Anything else (JSON, transforms, flamechart, HTML output), or a sorter without a
 * temporary file, goes through a profile. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fold/sorter.h"
#include "fold/stream.h"
#include "lib/options.h"
#include "lib/read.h"
#include "lib/write.h"
#include "parse/folded.h"
#include "parse/input.h"
#include "util/error.h"
#include "util/tmpfile.h"

typedef struct stream_ctx {
    fs_stream s;
    fs_sorter *sorter; /* the second pass: lines go here, then into s in order */
    const foldsvg_options *o;
    const char *name;
    uint64_t prev_line;
    uint64_t total, total_before; /* of the current pass */
    int fallback;                 /* the input turned out unsorted: sort it */
    int use_profile;              /* the sorter could not spill: use a profile */
} stream_ctx;

static foldsvg_status on_line(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    stream_ctx *c = user;
    if (l->count == 0 && !(l->is_diff && l->before > 0))
        return FOLDSVG_OK;
    /* the totals' overflow is found here, where the line is known, as the tree does */
    if (l->count > UINT64_MAX - c->total ||
        (l->is_diff && l->before > UINT64_MAX - c->total_before))
        return fs_stack_error(err, FOLDSVG_E_OVERFLOW, c->name, l->lineno);
    c->total += l->count;
    if (l->is_diff)
        c->total_before += l->before;
    foldsvg_status st;
    if (c->sorter) {
        st = fs_sorter_add(c->sorter, l->stack, l->len, l->count, l->before, l->is_diff);
        if (st == FOLDSVG_E_IO) {
            c->use_profile = 1;
            return st; /* stops the read; not reported */
        }
        return st ? fs_stack_error(err, st, c->name, l->lineno) : FOLDSVG_OK;
    }
    int out_of_order;
    st = fs_stream_add(&c->s, l->stack, l->len, l->count, l->before, l->is_diff, &out_of_order);
    if (st)
        return fs_stack_error(err, st, c->name, l->lineno);
    if (out_of_order) {
        if (c->o->stack.no_sort)
            return fs_unsorted_error(err, c->name, l->lineno, c->prev_line);
        c->fallback = 1;
        return FOLDSVG_E_UNSORTED; /* stops the read; not reported */
    }
    c->prev_line = l->lineno;
    return FOLDSVG_OK;
}

/* The sorter's output, in order, into the merge. */
static foldsvg_status on_sorted(void *user, const char *stack, size_t len, uint64_t count,
                                uint64_t before, int is_diff)
{
    stream_ctx *c = user;
    int out_of_order;
    foldsvg_status st = fs_stream_add(&c->s, stack, len, count, before, is_diff, &out_of_order);
    return st == FOLDSVG_OK && out_of_order ? FOLDSVG_E_ARG : st;
}

static int has_transforms(const foldsvg_options *o)
{
    return fs_options_stage_set(o, FOLDSVG_STAGE_STACK);
}

static int is_stdin(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

/* How messages name an input. */
static const char *display_name(const char *path)
{
    return is_stdin(path) ? "<stdin>" : path;
}

static int streamable(const char *const *inputs, size_t n, foldsvg_format format,
                      const foldsvg_options *o)
{
    if (o->stack.flamechart || has_transforms(o) || n == 0)
        return 0;
    /* folded output: the sorter's order is the output's; --no-sort checks need the profile */
    if (format != FOLDSVG_FORMAT_SVG && !(format == FOLDSVG_FORMAT_FOLDED && !o->stack.no_sort))
        return 0;
    size_t nstdin = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        /* a second pass must be possible if the input turns out unsorted: files are read
         * again by name, standard input (once) from its copy */
        if (is_stdin(inputs[i]))
            nstdin++;
        else if (stat(inputs[i], &sb) != 0 || !S_ISREG(sb.st_mode))
            return 0;
    }
    return nstdin <= 1;
}

/* One reading of every input into the merge (or, with c->sorter, into the sorter). Stops
 * early with c->fallback (a line out of order) or c->use_profile (an input that is not folded
 * text, a sorter that cannot spill). Standard input is copied to *SPOOL as it is read
 * the first time, then read from the copy; one that is not folded text is left in *HELD,
 * unread, for the profile. */
static foldsvg_status run_pass(stream_ctx *c, const char *const *inputs, size_t n, FILE **spool,
                               fs_input **held, fs_folded_stats *fstats, foldsvg_error *err)
{
    foldsvg_status st = FOLDSVG_OK;
    memset(fstats, 0, n * sizeof *fstats);
    c->total = c->total_before = 0;
    for (size_t i = 0; st == FOLDSVG_OK && i < n && !c->fallback && !c->use_profile; i++) {
        fs_input *in;
        int teed = 0;
        if (is_stdin(inputs[i]) && *spool) {
            rewind(*spool);
            st = fs_input_open_stream(&in, *spool, "<stdin>", err);
        } else if (is_stdin(inputs[i])) {
            *spool = fs_tmpfile();
            if (!*spool) {
                c->use_profile = 1; /* stdin untouched: the profile reads it */
                break;
            }
            st = fs_input_open_stream_tee(&in, stdin, "<stdin>", *spool, err);
            teed = 1;
        } else {
            st = fs_input_open_file(&in, inputs[i], err);
        }
        if (st)
            break;
        if (c->o->progress)
            fs_input_set_progress(in, c->o->progress, c->o->progress_user);
        fs_input_kind kind;
        st = fs_input_kind_of(in, &kind, err);
        if (st == FOLDSVG_OK && kind != FS_INPUT_FOLDED) {
            c->use_profile = 1;
            if (teed) {
                /* nothing of it was used yet: the profile reads on from here */
                fs_input_untee(in);
                *held = in;
                break;
            }
        } else if (st == FOLDSVG_OK) {
            c->name = fs_input_name(in);
            c->prev_line = 0;
            st = fs_folded_read(in, on_line, c, &fstats[i], err);
            if (c->fallback || c->use_profile)
                st = FOLDSVG_OK; /* the callback's stop, not an error */
        }
        if (st == FOLDSVG_OK && teed && (c->fallback || c->use_profile))
            st = fs_input_drain_raw(in, err); /* the copy must hold all of it */
        fs_input_close(in);
    }
    return st;
}

/* The reading into a sorter (for an input found unsorted, or for folded output). */
static foldsvg_status sort_read(stream_ctx *c, const char *const *inputs, size_t n, FILE **spool,
                                fs_input **held, fs_folded_stats *fstats, foldsvg_error *err)
{
    c->fallback = 0;
    if (fs_sorter_new(&c->sorter, c->o->sort_buffer / 2, 0) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    return run_pass(c, inputs, n, spool, held, fstats, err);
}

/* The sorted stacks into a fresh merge. A sorter that cannot spill (no temporary file, a
 * full disk) means: use a profile. */
static foldsvg_status sort_into_stream(stream_ctx *c, foldsvg_error *err)
{
    fs_stream_free(&c->s);
    if (fs_stream_init(&c->s, c->o->svg.minwidth) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    c->s.final_total = c->total; /* the sum of every line read */
    foldsvg_status st = fs_sorter_finish(c->sorter, on_sorted, c);
    if (st == FOLDSVG_E_IO) {
        c->use_profile = 1;
        return FOLDSVG_OK;
    }
    return st ? fs_error(err, st, NULL, "sorting the stacks: %s", foldsvg_status_name(st)) : st;
}

/* Folded output straight from the sorter: equal neighbours (from different runs) summed
 * into one line. */
typedef struct folded_out {
    stream_ctx *c;
    foldsvg_stack_fn line;
    void *line_user;
    fs_buf stack; /* the pending stack */
    uint64_t count, before;
    int is_diff, pending, stopped;
    size_t lines;
} folded_out;

static foldsvg_status flush_line(folded_out *f)
{
    if (!f->pending)
        return FOLDSVG_OK;
    f->pending = 0;
    f->lines++;
    if (f->line(f->line_user, f->stack.data ? f->stack.data : "", f->stack.len, f->count, f->before,
                f->is_diff)) {
        f->stopped = 1;
        return FOLDSVG_E_IO;
    }
    return FOLDSVG_OK;
}

static foldsvg_status on_sorted_line(void *user, const char *stack, size_t len, uint64_t count,
                                     uint64_t before, int is_diff)
{
    folded_out *f = user;
    if (f->pending && f->stack.len == len && memcmp(f->stack.data, stack, len) == 0) {
        f->count += count; /* no overflow: the totals were checked as the lines came */
        f->before += before;
        f->is_diff |= is_diff;
        return FOLDSVG_OK;
    }
    foldsvg_status st = flush_line(f);
    if (st)
        return st;
    fs_buf_clear(&f->stack);
    if (fs_buf_append(&f->stack, stack, len) != 0)
        return FOLDSVG_E_NOMEM;
    f->count = count;
    f->before = before;
    f->is_diff = is_diff;
    f->pending = 1;
    return FOLDSVG_OK;
}

static foldsvg_status produce_folded(void *user, foldsvg_stack_fn line, void *line_user)
{
    folded_out *f = user;
    f->line = line;
    f->line_user = line_user;
    foldsvg_status st = fs_sorter_finish(f->c->sorter, on_sorted_line, f);
    if (st == FOLDSVG_OK)
        st = flush_line(f);
    if (st == FOLDSVG_E_IO && !f->stopped && f->lines == 0 && !f->pending)
        f->c->use_profile = 1; /* the sorter could not spill; nothing written yet */
    return st;
}

/* Returns FOLDSVG_OK with *DONE set when the output was written by streaming; *DONE clear
 * (and OK) means: use a profile. */
static foldsvg_status try_stream(const char *const *inputs, size_t n, const char *output,
                                 foldsvg_format format, const foldsvg_options *o,
                                 foldsvg_convert_stats *stats, int *done, FILE **spool,
                                 fs_input **held, foldsvg_error *err)
{
    *done = 0;
    stream_ctx c;
    memset(&c, 0, sizeof c);
    c.o = o;
    if (fs_stream_init(&c.s, o->svg.minwidth) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_folded_stats *fstats = calloc(n, sizeof *fstats);
    foldsvg_status st = fstats ? FOLDSVG_OK : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    int folded = format == FOLDSVG_FORMAT_FOLDED;
    if (st == FOLDSVG_OK && !folded)
        st = run_pass(&c, inputs, n, spool, held, fstats, err);
    if (st == FOLDSVG_OK && (folded || c.fallback) && !c.use_profile)
        st = sort_read(&c, inputs, n, spool, held, fstats, err);
    if (st == FOLDSVG_OK && !c.use_profile && c.total == 0) {
        /* nothing to draw: one error naming the first input with invalid lines */
        size_t k = 0;
        while (k + 1 < n && !fstats[k].invalid)
            k++;
        st = fs_no_data_error(err, display_name(inputs[k]), &fstats[k]);
    }
    folded_out fo = {&c, NULL, NULL, {0}, 0, 0, 0, 0, 0, 0};
    if (st == FOLDSVG_OK && !c.use_profile && folded) {
        st = fs_write_folded(output, produce_folded, &fo, err);
        if (c.use_profile)
            st = FOLDSVG_OK;
    } else if (st == FOLDSVG_OK && !c.use_profile) {
        if (c.sorter)
            st = sort_into_stream(&c, err);
        if (st == FOLDSVG_OK && !c.use_profile) {
            for (size_t i = 0; i < n; i++)
                fs_warn_folded_stats(o, display_name(inputs[i]), &fstats[i]);
            st = fs_stream_finish(&c.s);
            if (st)
                fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
        }
        if (st == FOLDSVG_OK && !c.use_profile) {
            fs_svg_input in = {
                .tree = &c.s.names,
                .frames = c.s.kept,
                .nframes = c.s.nkept,
                .opts = &o->svg,
                .countname = o->countname ? o->countname : "cycles",
            };
            st = fs_write_svg_frames(&in, o, output, err);
        }
    }
    if (st == FOLDSVG_OK && !c.use_profile) {
        if (folded) /* SVG runs warned before writing */
            for (size_t i = 0; i < n; i++)
                fs_warn_folded_stats(o, display_name(inputs[i]), &fstats[i]);
        *done = 1;
        if (stats) {
            stats->total = c.total;
            stats->unique_stacks = folded ? fo.lines : c.s.unique;
            snprintf(stats->count_name, sizeof stats->count_name, "%s",
                     o->countname ? o->countname : "cycles");
            stats->streamed = 1;
        }
    }
    fs_buf_free(&fo.stack);
    fs_sorter_free(c.sorter);
    free(fstats);
    fs_stream_free(&c.s);
    return st;
}

foldsvg_status foldsvg_convert(const char *const *inputs, size_t ninputs, const char *output,
                               foldsvg_format format, const foldsvg_options *opts,
                               foldsvg_convert_stats *stats, foldsvg_error *err)
{
    static const char *const stdin_only[] = {"-"};
    const foldsvg_options *o = opts ? opts : fs_default_options();
    if (!inputs || ninputs == 0) {
        inputs = stdin_only;
        ninputs = 1;
    }
    if (!output)
        output = "-";
    if (format == FOLDSVG_FORMAT_AUTO)
        format = foldsvg_format_for_path(output);
    if (stats)
        memset(stats, 0, sizeof *stats);
    foldsvg_status st = foldsvg_options_check(o, err);
    if (st)
        return st;
    FILE *spool = NULL;
    fs_input *held = NULL;
    foldsvg_profile *p = NULL;
    if (streamable(inputs, ninputs, format, o)) {
        int done;
        st = try_stream(inputs, ninputs, output, format, o, stats, &done, &spool, &held, err);
        if (st || done)
            goto out;
    }
    p = foldsvg_profile_new();
    if (!p) {
        st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    for (size_t i = 0; st == FOLDSVG_OK && i < ninputs; i++) {
        if (held && is_stdin(inputs[i])) {
            st = fs_profile_read_input(p, held, o, err);
        } else if (spool && is_stdin(inputs[i])) {
            rewind(spool);
            st = foldsvg_profile_read_stream(p, spool, "<stdin>", o, err);
        } else {
            st = foldsvg_profile_read_file(p, inputs[i], o, err);
        }
    }
    if (st == FOLDSVG_OK)
        st = foldsvg_profile_write_as(p, output, format, o, err);
    if (st == FOLDSVG_OK && stats) {
        stats->total = foldsvg_profile_total(p);
        stats->unique_stacks = foldsvg_profile_unique_stacks(p);
        snprintf(stats->count_name, sizeof stats->count_name, "%s",
                 o->countname ? o->countname : foldsvg_profile_count_name(p));
    }
out:
    foldsvg_profile_free(p);
    fs_input_close(held);
    if (spool)
        fclose(spool);
    return st;
}
