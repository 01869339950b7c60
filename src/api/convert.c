/* foldsvg_convert: inputs to one output as planned (api/plan.h) and read (api/run.h). Folded
 * text to SVG merges as it streams (STREAM), or once sorted (SORT); to folded text it is
 * summed and sorted; a tree takes the rest (profiles, reports, tables). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/diag.h"
#include "api/facts.h"
#include "api/options.h"
#include "api/plan.h"
#include "api/read.h"
#include "api/run.h"
#include "api/write.h"
#include "frames/stream.h"
#include "input/source.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/pool.h"

/* ---- the frames of an SVG ----------------------------------------------------------------- */

typedef struct frames_out {
    fs_stream s;
    const foldsvg_options *o;
} frames_out;

static foldsvg_status frames_init(frames_out *f)
{
    if (fs_stream_init(&f->s, f->o->svg.minwidth) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    if (f->o->stack.flamechart)
        fs_stream_any_order(&f->s);
    return FOLDSVG_OK;
}

static foldsvg_status frames_put(void *user, const char *stack, size_t len, uint64_t count,
                                 uint64_t before, int is_diff)
{
    frames_out *f = user;
    int out_of_order;
    FS_FORWARD_IF_ERROR(fs_stream_add(&f->s, stack, len, count, before, is_diff, &out_of_order));
    return out_of_order ? FOLDSVG_E_UNSORTED : FOLDSVG_OK;
}

static foldsvg_status frames_reset(void *user)
{
    frames_out *f = user;
    fs_stream_free(&f->s);
    return frames_init(f);
}

/* ---- folded text from the sorter: equal neighbours (of different runs) summed ----------- */

typedef struct folded_out {
    fs_run *r;
    foldsvg_stack_fn line;
    void *line_user;
    fs_buf stack; /* the pending stack */
    uint64_t count, before;
    int is_diff, pending;
    size_t lines;
} folded_out;

static foldsvg_status flush_line(folded_out *f)
{
    if (!f->pending)
        return FOLDSVG_OK;
    f->pending = 0;
    f->lines++;
    /* the writer failed: it says so itself */
    return f->line(f->line_user, fs_buf_str(&f->stack), f->stack.len, f->count, f->before,
                   f->is_diff)
               ? FS_STOP
               : FOLDSVG_OK;
}

static foldsvg_status folded_put(void *user, const char *stack, size_t len, uint64_t count,
                                 uint64_t before, int is_diff)
{
    folded_out *f = user;
    if (f->pending && f->stack.len == len && memcmp(f->stack.data, stack, len) == 0) {
        f->count += count; /* no overflow: the totals were checked as the lines came */
        f->before += before;
        f->is_diff |= is_diff;
        return FOLDSVG_OK;
    }
    FS_FORWARD_IF_ERROR(flush_line(f));
    fs_buf_clear(&f->stack);
    FS_FORWARD_IF_ERROR(fs_buf_append(&f->stack, stack, len));
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
    foldsvg_error ignored; /* the run's failures are the writer's to word: it names the file */
    foldsvg_status st = fs_run_finish(f->r, 0, &ignored);
    return st == FOLDSVG_OK ? flush_line(f) : st;
}

/* --facts-out: what each input was, for the run that draws (which also warns for them), into
 * *OUT (fs_facts_write). */
static foldsvg_status write_facts(const fs_run *r, fs_outfile *out, foldsvg_error *err)
{
    fs_buf log = {0};
    for (size_t i = 0; i < r->n; i++) {
        fs_input_note note = {r->src[i].name, &r->facts[i], "", &r->stats[i], r->drawn[i]};
        fs_facts_append(&log, &note);
    }
    foldsvg_status st = fs_facts_write(out, r->o->facts_out, &log, &r->drops, r->o, err);
    fs_buf_free(&log);
    return st;
}

static void warn_stats(const fs_run *r)
{
    for (size_t i = 0; i < r->n; i++)
        fs_warn_folded_stats(r->o, r->src[i].name, &r->stats[i]);
}

/* Folded text to folded text, summed and sorted. */
static foldsvg_status write_folded(fs_run *r, const char *output, size_t *unique,
                                   foldsvg_error *err)
{
    const foldsvg_options *o = r->o;
    fs_outfile facts;
    if (o->facts_out)
        FS_FORWARD_IF_ERROR(write_facts(r, &facts, err));
    folded_out fo = {.r = r};
    r->put = folded_put;
    r->put_user = &fo;
    foldsvg_status st = fs_write_folded(output, produce_folded, &fo, err);
    fs_buf_free(&fo.stack);
    *unique = fo.lines;
    if (r->plan->engine == FS_ENGINE_TREE) { /* the profile writes both */
        if (o->facts_out)
            fs_outfile_abort(&facts);
        return FOLDSVG_OK;
    }
    if (o->facts_out)
        return fs_facts_end(&facts, st, err);
    if (st == FOLDSVG_OK) /* after the output, as SVG runs warn before it */
        warn_stats(r);
    return st;
}

/* Folded text to SVG: the stream's frames, fed as the inputs are read or by the sorter. */
static foldsvg_status write_svg(fs_run *r, frames_out *f, const char *output, fs_pool *pool,
                                size_t *unique, foldsvg_error *err)
{
    const foldsvg_options *o = r->o;
    if (r->plan->engine == FS_ENGINE_SORT) {
        f->s.final_total = r->total; /* the sum of every line read */
        FS_FORWARD_IF_ERROR(fs_run_finish(r, fs_stream_cut_below(&f->s), err));
        if (r->plan->engine == FS_ENGINE_TREE)
            return FOLDSVG_OK;
    }
    warn_stats(r);
    foldsvg_status st = fs_stream_finish(&f->s);
    if (st)
        return fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
    *unique = r->unique ? r->unique : f->s.unique;
    if (o->stack.flamechart)
        fs_stream_mirror(&f->s);
    fs_svg_input in = {
        .tree = &f->s.names,
        .frames = f->s.kept,
        .nframes = f->s.nkept,
        .delta_max = f->s.delta_max,
        .chart = o->stack.flamechart,
        .opts = &o->svg,
        .countname = o->countname ? o->countname : "cycles",
        .pool = pool,
    };
    return fs_write_svg_frames(&in, o, output, err);
}

/* STREAM or SORT: the output written, unless the plan came to a tree (*DONE clear). */
static foldsvg_status convert_folded(fs_run *r, const char *output, foldsvg_format format,
                                     fs_pool *pool, foldsvg_convert_stats *stats, int *done,
                                     foldsvg_error *err)
{
    const foldsvg_options *o = r->o;
    frames_out f = {.o = o};
    foldsvg_status st = FOLDSVG_OK;
    if (format == FOLDSVG_FORMAT_SVG) {
        st = frames_init(&f) ? fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory") : st;
        r->put = frames_put;
        r->put_user = &f;
        r->reset = frames_reset;
    }
    if (st == FOLDSVG_OK)
        st = fs_run_read(r, stats != NULL, err);
    int tree = r->plan->engine == FS_ENGINE_TREE;
    if (st == FOLDSVG_OK && !tree)
        st = fs_options_check_inputs(o, r->formats, r->src[r->n - 1].name, r->what, err);
    if (st == FOLDSVG_OK && !tree && r->total == 0) {
        /* nothing to draw: one error naming the first input with invalid lines; folded text
         * of an empty input is empty (fs_no_data_is_empty); a part of a run (--facts-out)
         * leaves the judging to the run */
        size_t k = fs_run_blamed(r);
        if (!o->facts_out &&
            (format != FOLDSVG_FORMAT_FOLDED || !fs_no_data_is_empty(&r->stats[k], &r->drops)))
            st = fs_no_data_error(err, r->src[k].name, &r->stats[k], &r->drops, o);
    }
    size_t unique = 0;
    if (st == FOLDSVG_OK && !tree)
        st = format == FOLDSVG_FORMAT_FOLDED ? write_folded(r, output, &unique, err)
                                             : write_svg(r, &f, output, pool, &unique, err);
    *done = st == FOLDSVG_OK && r->plan->engine != FS_ENGINE_TREE;
    if (*done && stats) {
        stats->total = r->total;
        stats->unique_stacks = unique;
    }
    if (format == FOLDSVG_FORMAT_SVG)
        fs_stream_free(&f.s);
    return st;
}

/* The inputs through a profile (a tree), written as FORMAT. */
static foldsvg_status convert_tree(fs_run *r, const char *output, foldsvg_format format,
                                   foldsvg_convert_stats *stats, foldsvg_error *err)
{
    foldsvg_profile *p = foldsvg_profile_new();
    if (!p)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    foldsvg_status st = fs_run_tree(r, p, err);
    if (st == FOLDSVG_OK)
        st = foldsvg_profile_write_as(p, output, format, r->o, err);
    if (st == FOLDSVG_OK && stats) {
        stats->total = foldsvg_profile_total(p);
        stats->unique_stacks = foldsvg_profile_unique_stacks(p);
        snprintf(stats->count_name, sizeof stats->count_name, "%s",
                 r->o->countname ? r->o->countname : foldsvg_profile_count_name(p));
    }
    foldsvg_profile_free(p);
    return st;
}

static fs_plan_output planned_output(foldsvg_format format)
{
    return format == FOLDSVG_FORMAT_SVG      ? FS_OUT_SVG
           : format == FOLDSVG_FORMAT_FOLDED ? FS_OUT_FOLDED
                                             : FS_OUT_PROFILE;
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
    FS_FORWARD_IF_ERROR(foldsvg_options_check(o, err));
    if (o->facts_out && format != FOLDSVG_FORMAT_FOLDED)
        return fs_facts_out_usage(err);
    fs_source *src = calloc(ninputs, sizeof *src);
    fs_plan_input *pin = calloc(ninputs, sizeof *pin);
    fs_pool *pool = fs_pool_new(o->threads);
    fs_run r;
    memset(&r, 0, sizeof r);
    foldsvg_status st =
        src && pin && pool ? FOLDSVG_OK : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    int nstdin = 0;
    for (size_t i = 0; src && i < ninputs; i++) {
        int is_stdin = !inputs[i] || strcmp(inputs[i], "-") == 0;
        fs_source_init(&src[i], inputs[i], is_stdin && nstdin++ > 0);
    }
    if (st == FOLDSVG_OK)
        st = fs_run_init(&r, o, src, ninputs, pool, err);
    int copy = format == FOLDSVG_FORMAT_SVG || format == FOLDSVG_FORMAT_FOLDED;
    if (st == FOLDSVG_OK)
        st = fs_run_look(&r, pin, copy, err);
    fs_plan plan;
    if (st == FOLDSVG_OK) {
        fs_plan_make(&plan, planned_output(format), pin, ninputs, o, 0);
        r.plan = &plan;
    }
    int done = 0;
    if (st == FOLDSVG_OK && plan.engine != FS_ENGINE_TREE)
        st = convert_folded(&r, output, format, pool, stats, &done, err);
    if (st == FOLDSVG_OK && done && stats)
        snprintf(stats->count_name, sizeof stats->count_name, "%s",
                 o->countname ? o->countname : "cycles");
    if (st == FOLDSVG_OK && !done)
        st = convert_tree(&r, output, format, stats, err);
    /* A failure no input is to blame for (sorting, memory) happened making the output: it
     * names that, so every failure names a file. */
    if (st && err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", strcmp(output, "-") ? output : "<stdout>");
    fs_run_free(&r);
    for (size_t i = 0; src && i < ninputs; i++)
        fs_source_free(&src[i]);
    free(src);
    free(pin);
    fs_pool_free(pool);
    return st;
}
