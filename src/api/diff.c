/* Differential profiles: the two sides (api/diffside.h), each on a thread of its own, merge-
 * joined in step (aggregate/diffjoin.h) into one of three sinks: the streaming merge (SVG), folded
 * text, or a differential profile (the diff object: HTML reports, delta tables). A side that
 * streamed and turned out unsorted is read again through a sorter, and the join starts over
 * (the sinks that cannot start over, and --normalize, which needs both totals before the
 * first stack, have every streamed side checked first). */
#include "api/diff.h"

#include <stdlib.h>
#include <string.h>

#include "aggregate/diffjoin.h"
#include "api/diag.h"
#include "api/diffside.h"
#include "api/options.h"
#include "api/output.h"
#include "api/write.h"
#include "frames/stream.h"
#include "input/input.h"
#include "util/error.h"
#include "util/utf8.h"

/* Where the joined stacks go. RESET empties it for a join that starts over (NULL: it
 * cannot). RESCALES: it takes BEFORE as read and normalizes it itself once the join is
 * over (so that --normalize does not need the totals first). */
typedef struct diff_sink {
    foldsvg_status (*add)(void *user, const char *stack, size_t len, uint64_t before,
                          uint64_t after);
    foldsvg_status (*reset)(void *user);
    void *user;
    int rescales;
} diff_sink;

typedef struct diff_run {
    const foldsvg_options *o;
    fs_pool *pool;
    fs_diff_side side[2];
    fs_side_progress progress;
    int have_progress;
    int normalize;
    uint64_t total_before, total_after; /* as the join started */
    diff_sink sink;
    fs_diff_join_stats stats;
    size_t drawn; /* joined stacks with a count left on either side (normalization can take
                     BEFORE to 0) */
    uint64_t joined_before; /* the stack being joined: its BEFORE as read */
    /* --normalize: BEFORE's counts as scaled, summed; past 2^64-1 no output could hold them
     * (folded text with that column does not read back), whatever the output */
    uint64_t normalized_sum;
    int normalized_overflow;
    foldsvg_error *err; /* of the join under way */
} diff_run;

static int is_stdin(const char *path)
{
    return strcmp(path, "-") == 0;
}

/* The usage rules of a diff, and the two sides. PATHS or PROFILES give them. */
static foldsvg_status run_init(diff_run *r, const char *const paths[2],
                               const foldsvg_profile *const profiles[2], const foldsvg_options *o,
                               foldsvg_error *err)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    FS_FORWARD_IF_ERROR(foldsvg_options_check(o, err));
    if (o->stack.flamechart)
        return fs_error(err, FOLDSVG_E_USAGE, NULL,
                        "--flamechart cannot be used with --diff (a diff matches stacks, not "
                        "times): drop one of them");
    if (paths && is_stdin(paths[0]) && is_stdin(paths[1]))
        return fs_error(err, FOLDSVG_E_USAGE, NULL,
                        "--diff: BEFORE and AFTER are both standard input: name a file for one "
                        "of them");
    /* each side a task of its own while this thread joins them: a thread more than the work
     * asks for, the join's (it mostly waits) */
    unsigned threads = o->threads ? o->threads : fs_pool_default_threads();
    r->pool = fs_pool_new(threads > 1 ? threads + 1 : 1);
    if (!r->pool)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (o->progress) {
        r->have_progress = pthread_mutex_init(&r->progress.mu, NULL) == 0;
        r->progress.fn = o->progress;
        r->progress.user = o->progress_user;
    }
    static const char *const labels[2] = {"before", "after"};
    for (int i = 0; i < 2; i++) {
        const foldsvg_profile *p = profiles ? profiles[i] : NULL;
        const char *label = p && p->facts.files[0] ? p->facts.files : labels[i];
        int dup = i == 1 && paths && is_stdin(paths[0]) && is_stdin(paths[1]);
        fs_diff_side_init(&r->side[i], paths ? paths[i] : NULL, dup, p, label, o, r->pool,
                          r->have_progress ? &r->progress : NULL);
    }
    r->normalize = o->diff_normalize;
    if (paths && fs_source_same_stream(&r->side[0].src, &r->side[1].src))
        return fs_error(err, FOLDSVG_E_USAGE, NULL,
                        "--diff: BEFORE '%s' and AFTER '%s' are one pipe, FIFO or device, which "
                        "two readers would split between them: give each side an input of its own",
                        paths[0], paths[1]);
    /* a missing or unreadable side is named at once, BEFORE first (a pipe is left alone: it
     * cannot be opened twice) */
    for (int i = 0; paths && i < 2; i++) {
        if (r->side[i].src.once)
            continue;
        fs_input *in;
        FS_FORWARD_IF_ERROR(fs_input_open_file(&in, paths[i], err));
        fs_input_close(in);
    }
    return FOLDSVG_OK;
}

static void run_free(diff_run *r)
{
    for (int i = 0; i < 2; i++)
        fs_diff_side_free(&r->side[i]);
    fs_pool_free(r->pool);
    if (r->have_progress)
        pthread_mutex_destroy(&r->progress.mu);
}

static void on_primed(void *user)
{
    diff_run *r = user;
    r->total_before = r->side[0].known_total;
    r->total_after = r->side[1].known_total;
}

/* Adds a scaled BEFORE count to the sum: nonzero when the sum passes 2^64-1. */
static int add_normalized(diff_run *r, uint64_t before)
{
    if (before > UINT64_MAX - r->normalized_sum)
        r->normalized_overflow = 1;
    else
        r->normalized_sum += before;
    return r->normalized_overflow;
}

static foldsvg_status normalized_overflow(const diff_run *r, foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_OVERFLOW, r->side[0].name,
                    "--normalize: BEFORE's counts scaled to AFTER's total (%llu) sum past "
                    "2^64-1, which no output can hold; drop --normalize or scale the inputs",
                    (unsigned long long)r->side[1].total);
}

static foldsvg_status on_joined(void *user, const char *stack, size_t len, uint64_t before,
                                uint64_t after)
{
    diff_run *r = user;
    r->joined_before = before;
    if (r->normalize && !r->sink.rescales) {
        before = fs_diff_normalize(before, r->total_before, r->total_after);
        if (add_normalized(r, before))
            return normalized_overflow(r, r->err);
    }
    r->drawn += before != 0 || after != 0;
    return r->sink.add(r->sink.user, stack, len, before, after);
}

static void copy_error(foldsvg_error *err, const foldsvg_error *from)
{
    if (err)
        *err = *from;
}

/* Both sides joined into SINK. SINK's own failures are in ERR already. */
static foldsvg_status run_join(diff_run *r, diff_sink sink, foldsvg_error *err)
{
    r->sink = sink;
    r->err = err;
    int check = (r->normalize && !sink.rescales) || !sink.reset;
    for (int i = 0; i < 2; i++)
        r->side[i].check = check;
    for (;;) {
        fs_relay *a = NULL, *b = NULL;
        foldsvg_status st = fs_relay_start(&a, r->pool, fs_diff_side_produce, &r->side[0]);
        if (st == FOLDSVG_OK)
            st = fs_relay_start(&b, r->pool, fs_diff_side_produce, &r->side[1]);
        if (st == FOLDSVG_OK)
            st = fs_diff_join(a, b, on_primed, on_joined, r, &r->stats);
        else
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        foldsvg_status sides[2] = {fs_relay_end(a), fs_relay_end(b)};
        int again = r->side[0].unsorted || r->side[1].unsorted; /* read sorted next */
        /* a side's own failure first, BEFORE's before AFTER's */
        for (int i = 0; i < 2; i++) {
            if (sides[i] != FOLDSVG_OK) {
                copy_error(err, &r->side[i].err);
                return sides[i];
            }
        }
        if (again && st == FS_STOP && sink.reset) {
            r->drawn = 0;
            r->normalized_sum = 0;
            r->normalized_overflow = 0;
            FS_FORWARD_IF_ERROR(sink.reset(sink.user));
            continue;
        }
        if (again || st == FS_STOP)
            return fs_error(err, FOLDSVG_E_IO, NULL,
                            "--diff: an input changed while it was read (it was sorted, then "
                            "not)");
        if (st == FOLDSVG_OK)
            for (int i = 0; i < 2; i++)
                fs_diff_side_warn(&r->side[i]);
        if (st == FOLDSVG_OK)
            fs_diff_sides_warn_units(&r->side[0], &r->side[1]);
        return st;
    }
}

/* The unit of the difference: AFTER's, else BEFORE's, else cycles. */
static const char *sides_count_name(const diff_run *r)
{
    for (int i = 1; i >= 0; i--)
        if (r->side[i].count_name[0])
            return r->side[i].count_name;
    return "cycles";
}

/* ---- the sinks --------------------------------------------------------------------------- */

/* The streaming merge, for SVG. */
typedef struct stream_sink {
    fs_stream s;
    double minwidth;
    int defer; /* fs_stream_defer_deltas */
    foldsvg_error *err;
} stream_sink;

static foldsvg_status stream_add(void *user, const char *stack, size_t len, uint64_t before,
                                 uint64_t after)
{
    stream_sink *k = user;
    if (before == 0 && after == 0)
        return FOLDSVG_OK;
    int out_of_order;
    foldsvg_status st = fs_stream_add(&k->s, stack, len, after, before, 1, &out_of_order);
    if (st == FOLDSVG_OK && out_of_order)
        st = FOLDSVG_E_IO; /* the join's order is the streaming merge's: cannot happen */
    return st ? fs_stack_error(k->err, st, NULL, 0) : FOLDSVG_OK;
}

static foldsvg_status stream_reset(void *user)
{
    stream_sink *k = user;
    fs_stream_free(&k->s);
    if (fs_stream_init(&k->s, k->minwidth) != FOLDSVG_OK)
        return fs_error(k->err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (k->defer)
        fs_stream_defer_deltas(&k->s);
    return FOLDSVG_OK;
}

/* The differential profile, for the diff object; with --normalize also the stacks as read
 * (RAW, see api/diff.h). */
typedef struct profile_sink {
    foldsvg_profile *p, *raw;
    const diff_run *r;
    foldsvg_error *err;
} profile_sink;

static foldsvg_status profile_add(void *user, const char *stack, size_t len, uint64_t before,
                                  uint64_t after)
{
    profile_sink *k = user;
    foldsvg_status st = FOLDSVG_OK;
    if (k->raw)
        st = fs_tree_add_path(&k->raw->tree, stack, len, after, k->r->joined_before, 1, NULL);
    if (st == FOLDSVG_OK && (before != 0 || after != 0))
        st = fs_tree_add_path(&k->p->tree, stack, len, after, before, 1, NULL);
    return st ? fs_stack_error(k->err, st, NULL, 0) : FOLDSVG_OK;
}

static foldsvg_status profile_reset(void *user)
{
    profile_sink *k = user;
    for (int i = 0; i < 2; i++) {
        fs_tree *t = i ? (k->raw ? &k->raw->tree : NULL) : &k->p->tree;
        if (!t)
            continue;
        fs_tree_free(t);
        if (fs_tree_init(t) != FOLDSVG_OK)
            return fs_error(k->err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    }
    return FOLDSVG_OK;
}

/* Folded text: the join runs inside the writer, which words its own failures; the join's
 * are kept in ERR for the caller. */
typedef struct folded_sink {
    diff_run *r;
    foldsvg_stack_fn line;
    void *line_user;
    foldsvg_error err;
    foldsvg_status st;
    int write_failed;
} folded_sink;

static foldsvg_status folded_add(void *user, const char *stack, size_t len, uint64_t before,
                                 uint64_t after)
{
    folded_sink *k = user;
    if (k->line(k->line_user, stack, len, after, before, 1) == 0)
        return FOLDSVG_OK;
    k->write_failed = 1;
    return FOLDSVG_E_IO;
}

static foldsvg_status produce_folded(void *user, foldsvg_stack_fn line, void *line_user)
{
    folded_sink *k = user;
    k->line = line;
    k->line_user = line_user;
    diff_sink sink = {folded_add, NULL, k, 0};
    k->st = run_join(k->r, sink, &k->err);
    return k->st;
}

/* ---- the diff object --------------------------------------------------------------------- */

foldsvg_diff *foldsvg_diff_new(void)
{
    foldsvg_diff *d = calloc(1, sizeof *d);
    if (d && !(d->p = foldsvg_profile_new())) {
        free(d);
        return NULL;
    }
    return d;
}

void foldsvg_diff_free(foldsvg_diff *d)
{
    if (!d)
        return;
    foldsvg_profile_free(d->p);
    foldsvg_profile_free(d->raw);
    free(d);
}

/* D from a finished run. */
static void keep_summary(foldsvg_diff *d, const diff_run *r)
{
    for (int i = 0; i < 2; i++) {
        const fs_diff_side *s = &r->side[i];
        fs_diff_summary *m = &d->side[i];
        snprintf(m->name, sizeof m->name, "%s", s->name);
        m->total = s->total;
        m->unique = s->unique;
        m->facts = s->facts;
        if (!m->facts.files[0])
            snprintf(m->facts.files, sizeof m->facts.files, "%.*s", (int)sizeof m->facts.files - 1,
                     s->name);
    }
    d->normalized = r->normalize && r->side[0].total != r->side[1].total;
    d->scale = d->normalized ? (long double)r->side[1].total / (long double)r->side[0].total : 0;
    d->unique = r->drawn;
    d->only_before = r->stats.only_before;
    d->only_after = r->stats.only_after;
    fs_utf8_copy(d->p->count_name, sizeof d->p->count_name, sides_count_name(r));
}

static foldsvg_status diff_into(foldsvg_diff *d, const char *const paths[2],
                                const foldsvg_profile *const profiles[2],
                                const foldsvg_options *opts, foldsvg_error *err)
{
    if (!d)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL diff");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    foldsvg_profile *p = foldsvg_profile_new();
    foldsvg_profile *raw = o->diff_normalize ? foldsvg_profile_new() : NULL;
    if (!p || (o->diff_normalize && !raw)) {
        foldsvg_profile_free(p);
        foldsvg_profile_free(raw);
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    }
    diff_run r;
    foldsvg_status st = run_init(&r, paths, profiles, o, err);
    profile_sink k = {p, raw, &r, err};
    diff_sink sink = {profile_add, profile_reset, &k, 0};
    if (st == FOLDSVG_OK)
        st = run_join(&r, sink, err);
    if (st == FOLDSVG_OK) {
        foldsvg_profile_free(d->p);
        foldsvg_profile_free(d->raw);
        d->p = p;
        keep_summary(d, &r);
        /* equal totals: normalization changes nothing, the drawn tree is the one */
        d->raw = d->normalized ? raw : NULL;
        if (!d->normalized)
            foldsvg_profile_free(raw);
        else
            snprintf(raw->count_name, sizeof raw->count_name, "%s", p->count_name);
    } else {
        foldsvg_profile_free(p);
        foldsvg_profile_free(raw);
    }
    run_free(&r);
    return st;
}

foldsvg_status foldsvg_diff_read(foldsvg_diff *d, const char *before, const char *after,
                                 const foldsvg_options *opts, foldsvg_error *err)
{
    if (!before || !after)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL input");
    const char *const paths[2] = {before, after};
    return diff_into(d, paths, NULL, opts, err);
}

foldsvg_status foldsvg_diff_compare(foldsvg_diff *d, const foldsvg_profile *before,
                                    const foldsvg_profile *after, const foldsvg_options *opts,
                                    foldsvg_error *err)
{
    if (!before || !after)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL profile");
    const foldsvg_profile *const profiles[2] = {before, after};
    return diff_into(d, NULL, profiles, opts, err);
}

const foldsvg_profile *foldsvg_diff_profile(const foldsvg_diff *d)
{
    return d ? d->p : NULL;
}

uint64_t foldsvg_diff_total(const foldsvg_diff *d, foldsvg_side side)
{
    return d && (side == FOLDSVG_BEFORE || side == FOLDSVG_AFTER) ? d->side[side].total : 0;
}

size_t foldsvg_diff_unique_stacks(const foldsvg_diff *d, foldsvg_side side)
{
    return d && (side == FOLDSVG_BEFORE || side == FOLDSVG_AFTER) ? d->side[side].unique : 0;
}

/* ---- straight to an output --------------------------------------------------------------- */

static void fill_stats(foldsvg_convert_stats *stats, const diff_run *r, const foldsvg_options *o)
{
    if (!stats)
        return;
    stats->total = r->side[1].total;
    stats->total_before = r->side[0].total;
    stats->unique_stacks = r->drawn;
    fs_utf8_copy(stats->count_name, sizeof stats->count_name,
                 o->countname ? o->countname : sides_count_name(r));
}

static uint64_t normalized(void *user, uint64_t before)
{
    const diff_run *r = user;
    return fs_diff_normalize(before, r->side[0].total, r->side[1].total);
}

static foldsvg_status convert_svg(diff_run *r, const char *output, foldsvg_error *err)
{
    const foldsvg_options *o = r->o;
    stream_sink k;
    k.minwidth = o->svg.minwidth;
    k.err = err;
    if (fs_stream_init(&k.s, k.minwidth) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    /* --normalize: the deltas are made again at the end, the inputs read once (a stack that
     * normalization takes to 0 on both sides must leave no frame: only --minwidth 0 keeps
     * frames of width 0, so that one reads each side twice instead) */
    diff_sink sink = {stream_add, stream_reset, &k, r->normalize && k.minwidth > 0};
    k.defer = sink.rescales;
    if (k.defer)
        fs_stream_defer_deltas(&k.s);
    foldsvg_status st = run_join(r, sink, err);
    if (st == FOLDSVG_OK && (st = fs_stream_finish(&k.s)) != FOLDSVG_OK)
        st = fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
    if (st == FOLDSVG_OK && sink.rescales) {
        /* (before the rescale, which leaves running sums in the stacks' counts) */
        for (size_t i = 0; i < k.s.nstacks && !r->normalized_overflow; i++)
            add_normalized(r, normalized(r, k.s.stack_before[i]));
        r->drawn = fs_stream_rescale(&k.s, normalized, r);
        if (r->normalized_overflow)
            st = normalized_overflow(r, err);
    }
    if (st == FOLDSVG_OK) {
        const char *unit = o->countname ? o->countname : sides_count_name(r);
        fs_svg_input in = {
            .tree = &k.s.names,
            .frames = k.s.kept,
            .nframes = k.s.nkept,
            .delta_max = k.s.delta_max,
            .opts = &o->svg,
            .countname = unit,
            .pool = r->pool,
        };
        st = fs_write_svg_frames(&in, o, output, err);
    }
    fs_stream_free(&k.s);
    return st;
}

foldsvg_status foldsvg_diff_convert(const char *before, const char *after, const char *output,
                                    foldsvg_format format, const foldsvg_options *opts,
                                    foldsvg_convert_stats *stats, foldsvg_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!before || !after)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL input");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    if (!output)
        output = "-";
    if (format == FOLDSVG_FORMAT_AUTO)
        format = foldsvg_format_for_path(output);
    FS_FORWARD_IF_ERROR(fs_outputs_check(output, format, o, err));
    FS_FORWARD_IF_ERROR(fs_diff_check_format(format, output, err));
    if (format == FOLDSVG_FORMAT_HTML) {
        foldsvg_diff *d = foldsvg_diff_new();
        if (!d)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        foldsvg_status st = foldsvg_diff_read(d, before, after, o, err);
        if (st == FOLDSVG_OK)
            st = foldsvg_diff_write(d, output, format, o, err);
        if (st == FOLDSVG_OK && stats) {
            stats->total = d->side[1].total;
            stats->total_before = d->side[0].total;
            stats->unique_stacks = d->unique;
            fs_utf8_copy(stats->count_name, sizeof stats->count_name,
                         o->countname ? o->countname : d->p->count_name);
        }
        foldsvg_diff_free(d);
        return st;
    }
    const char *const paths[2] = {before, after};
    diff_run r;
    foldsvg_status st = run_init(&r, paths, NULL, o, err);
    if (st == FOLDSVG_OK && format == FOLDSVG_FORMAT_FOLDED) {
        folded_sink k;
        memset(&k, 0, sizeof k);
        k.r = &r;
        st = fs_write_folded(output, produce_folded, &k, err);
        if (k.st && !k.write_failed) { /* the join's own message, not the writer's */
            copy_error(err, &k.err);
            st = k.st;
        }
    } else if (st == FOLDSVG_OK) {
        st = convert_svg(&r, output, err);
    }
    if (st == FOLDSVG_OK)
        fill_stats(stats, &r, o);
    run_free(&r);
    return st;
}
