/* foldsvg_convert: inputs to one output the cheapest way. Sorted folded text (what stack
 * collapsers write) is merged as it streams by, keeping only the frames that can be drawn;
 * anything else (unsorted, gzip, JSON, transforms, flamechart, non-SVG output) goes through
 * a profile. Should the streamed input turn out unsorted, it is read again: files by name,
 * standard input from a copy kept in a temporary file as it was read (memory stays bounded;
 * the disk holds the copy). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fold/stream.h"
#include "lib/options.h"
#include "lib/read.h"
#include "lib/write.h"
#include "parse/folded.h"
#include "parse/input.h"
#include "util/error.h"

typedef struct stream_ctx {
    fs_stream s;
    const foldsvg_options *o;
    const char *name;
    uint64_t prev_line;
    int fallback; /* the input turned out unsorted: use a profile */
} stream_ctx;

static foldsvg_status on_line(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    stream_ctx *c = user;
    if (l->count == 0 && !(l->is_diff && l->before > 0))
        return FOLDSVG_OK;
    int out_of_order;
    foldsvg_status st =
        fs_stream_add(&c->s, l->stack, l->len, l->count, l->before, l->is_diff, &out_of_order);
    if (st)
        return fs_stack_error(err, st, c->name, l->lineno);
    if (out_of_order) {
        if (c->o->no_sort)
            return fs_unsorted_error(err, c->name, l->lineno, c->prev_line);
        c->fallback = 1;
        return FOLDSVG_E_UNSORTED; /* stops the read; not reported */
    }
    c->prev_line = l->lineno;
    return FOLDSVG_OK;
}

static int has_transforms(const foldsvg_options *o)
{
    return o->reverse || o->nbase || o->nstrip || o->ninclude || o->nexclude || o->nfocus ||
           o->strip_rust_hash || o->collapse_recursion;
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
    if (format != FOLDSVG_FORMAT_SVG || o->flamechart || has_transforms(o) || n == 0)
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

/* Returns FOLDSVG_OK with *DONE set when the output was written by streaming; *DONE clear
 * (and OK) means: use a profile. */
static foldsvg_status try_stream(const char *const *inputs, size_t n, const char *output,
                                 const foldsvg_options *o, foldsvg_convert_stats *stats, int *done,
                                 FILE **spool, fs_input **held, foldsvg_error *err)
{
    *done = 0;
    stream_ctx c;
    memset(&c, 0, sizeof c);
    c.o = o;
    if (fs_stream_init(&c.s, o->minwidth) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_folded_stats *fstats = calloc(n, sizeof *fstats);
    foldsvg_status st = fstats ? FOLDSVG_OK : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    for (size_t i = 0; st == FOLDSVG_OK && i < n && !c.fallback; i++) {
        fs_input *in;
        if (is_stdin(inputs[i])) {
            *spool = tmpfile();
            if (!*spool) {
                c.fallback = 1; /* stdin untouched: the profile reads it */
                break;
            }
            st = fs_input_open_stream_tee(&in, stdin, "<stdin>", *spool, err);
        } else {
            st = fs_input_open_file(&in, inputs[i], err);
        }
        if (st)
            break;
        if (o->progress)
            fs_input_set_progress(in, o->progress, o->progress_user);
        fs_input_kind kind;
        st = fs_input_kind_of(in, &kind, err);
        if (st == FOLDSVG_OK && (kind != FS_INPUT_FOLDED || fs_input_is_gzip(in))) {
            c.fallback = 1;
            if (is_stdin(inputs[i])) {
                /* nothing of it was used yet: the profile reads on from here */
                fs_input_untee(in);
                *held = in;
                break;
            }
        } else if (st == FOLDSVG_OK) {
            c.name = fs_input_name(in);
            c.prev_line = 0;
            st = fs_folded_read(in, on_line, &c, &fstats[i], err);
        }
        if (c.fallback && *spool && is_stdin(inputs[i])) {
            /* the copy must hold all of standard input for the second reading */
            foldsvg_status dst = fs_input_drain_raw(in, err);
            if (dst) {
                c.fallback = 0;
                st = dst;
            }
        }
        fs_input_close(in);
    }
    if (c.fallback) {
        st = FOLDSVG_OK;
    } else if (st == FOLDSVG_OK && c.s.t == 0) {
        /* nothing to draw: one error naming the first input with invalid lines */
        size_t k = 0;
        while (k + 1 < n && !fstats[k].invalid)
            k++;
        st = fs_no_data_error(err, display_name(inputs[k]), &fstats[k]);
    } else if (st == FOLDSVG_OK) {
        for (size_t i = 0; i < n; i++)
            fs_warn_folded_stats(o, display_name(inputs[i]), &fstats[i]);
        st = fs_stream_finish(&c.s);
        if (st)
            fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
    }
    if (st == FOLDSVG_OK && !c.fallback) {
        fs_svg_input in = {
            .tree = &c.s.names,
            .frames = c.s.kept,
            .nframes = c.s.nkept,
            .opts = o,
            .countname = o->countname ? o->countname : "cycles",
        };
        st = fs_write_svg_frames(&in, output, err);
        if (st == FOLDSVG_OK) {
            *done = 1;
            if (stats) {
                stats->total = c.s.t;
                stats->unique_stacks = c.s.unique;
                snprintf(stats->count_name, sizeof stats->count_name, "%s", in.countname);
                stats->streamed = 1;
            }
        }
    }
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
        st = try_stream(inputs, ninputs, output, o, stats, &done, &spool, &held, err);
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
