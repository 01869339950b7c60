/* foldsvg_convert: inputs to one output the cheapest way. One place, the route below,
 * decides how:
 *  - STREAM: sorted folded text (what stack collapsers write; plain or gzip) is merged as it
 *    streams by, keeping only the frames that can be drawn; so is a flame chart of folded
 *    text (--flamechart), in the input's order, whatever that is;
 *  - SORT: unsorted folded text (found out while streaming: it is read again) goes through a
 *    sorter (equal stacks summed in memory, distinct ones spilled to a temporary file in
 *    sorted runs when they outgrow its budget) whose output the same merge takes, or which
 *    is the folded output itself: memory stays bounded and the frame tree is never built;
 *  - PROFILE: anything else (profiles, stack transforms, HTML output), and a sorter that
 *    cannot spill, goes through a profile (the frame tree).
 * Every stack passes the stack pipeline (transform/pipeline.h) whatever the route. Files are read
 * again by name, standard input that is a regular file again from where it started (`foldsvg
 * < in.folded` then costs what naming the file does: a copy took 1.6x the time of the sorted
 * bench file), other standard input from a copy kept in a temporary file as it was read (gzip
 * stays compressed there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aggregate/sketch.h"
#include "aggregate/sorter.h"
#include "aggregate/tally.h"
#include "api/diag.h"
#include "api/facts.h"
#include "api/options.h"
#include "api/read.h"
#include "api/write.h"
#include "formats/registry.h"
#include "frames/prune.h"
#include "frames/stream.h"
#include "input/input.h"
#include "input/stdinfile.h"
#include "transform/pipeline.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/tmpfile.h"
#include "util/u64set.h"

typedef enum convert_route { ROUTE_STREAM, ROUTE_SORT, ROUTE_SKETCH, ROUTE_PROFILE } convert_route;

/* How standard input is read again: a regular file from where it started, else from SPOOL,
 * the copy made as it was first read, or it was not used yet and is HELD for the profile. */
typedef struct stdin_again {
    fs_stdin_file file;
    FILE *spool;
    fs_input *held;
} stdin_again;

typedef struct stream_ctx {
    convert_route route; /* a pass may move it on: STREAM -> SORT -> PROFILE */
    fs_stream s;
    fs_sorter *sorter; /* SORT: lines go here, then into s in order */
    const foldsvg_options *o;
    const char *name;
    uint64_t prev_line;
    uint64_t total, total_before; /* of the current pass */
    fs_folded_stats *fstats;      /* per input, of the current pass */
    size_t input;                 /* the one being read */
    int unsorted_runs;            /* the sorter's output came back out of order */
    int passes;                   /* over the inputs, done */
    unsigned formats;             /* the formats read (fs_format_bit), for the input options */
    const char *what;             /* the last one's, for messages */
    fs_profile_facts *facts;      /* --facts-out: per input, of the current pass */
    const fs_drops *drops;        /* --facts-out: what the pipeline dropped */
    uint8_t *drawn;
    /* --flamechart: the stream takes the lines in their order; their distinct stacks are
     * counted by 64-bit hash (two of ten million sharing one: odds of about 3 in a million) */
    int flamechart;
    fs_u64set distinct;
    /* SORT to SVG: the frames kept so far, drawn ahead while the sorter's runs are merged on
     * the other core (kept frames of a known total stay kept); the first PRE_DONE of them
     * given to it, until it is full */
    fs_svg_pre *pre;
    size_t pre_done;
    int pre_full;
    /* SORT to SVG of stacks that outgrow the sorter's memory: a SKETCH pass bounds every
     * frame's total (aggregate/sketch.h), and the SORT pass after it cuts each stack past its
     * first frame too narrow to draw, below CUT_BELOW (0: whole). The distinct whole stacks
     * are counted by 64-bit hash in the SKETCH pass, for the statistics. */
    int sketchable; /* may take the SKETCH route (until it was taken) */
    int gzip;       /* an input is compressed: reading it again costs more than spilling */
    fs_sketch sketch;
    uint64_t cut_below, sketch_total;
    int sketch_unique; /* SKETCH_DISTINCT counts the stacks */
    unsigned sketch_bits;
    fs_u64set sketch_distinct;
} stream_ctx;

/* A part of the input read on another thread (formats/folded/split.c): a sketch of its own in
 * the SKETCH pass; in the SORT pass a tally (summed in a table as big as one of the sorter's
 * chunks until it is joined), its stacks cut as the route's are. */
typedef struct part {
    fs_tally tally;   /* SORT */
    fs_sketch sketch; /* SKETCH */
    fs_u64set distinct;
    uint64_t total;
    int sketching;
    const stream_ctx *c;
} part;

enum { PRE_BATCH = 1024, SKETCH_MIN_SAVED = 64 };

/* The frames kept since the last call drawn ahead; a failure (a differential frame, memory)
 * gives drawing ahead up: the document then draws them all, as without it. */
static void draw_ahead(stream_ctx *c)
{
    if (c->pre_full)
        return;
    foldsvg_status st = c->s.nkept >= c->pre_done ? fs_svg_pre_add(c->pre, c->s.kept + c->pre_done,
                                                                   c->s.nkept - c->pre_done)
                                                  : FOLDSVG_E_ARG;
    c->pre_done = c->s.nkept;
    if (st == FS_STOP)
        c->pre_full = 1;
    else if (st != FOLDSVG_OK) {
        fs_svg_pre_free(c->pre);
        c->pre = NULL;
    }
}

/* The sorter would spill (fs_sorter_stop_before_spill). Its stacks are cut first, read twice
 * more, when its chunk says the cut will save enough: the cut keeps each stack's first frame
 * too narrow to draw, and a reading costs about as much a line as a hundred bytes or so.
 * Measured (the bytes fs_sorter_savable gives, the time against runs of whole stacks):
 * 2,000,000 shuffled stacks of 20 bytes, 0 (1.3x to 1.5x the time: their cut ones fitted in
 * 1,000, but a reading costs a line what their runs did); 600,000 of 76 and 161 bytes whose
 * narrow frames were their leaves, 0 and 3 (1.3x); 400,000 of 340 bytes that differ only
 * in their leaf, 0 (1.2x); 600,000 of 338 bytes, 159 (0.5x); the bench's 706 bytes, 457
 * (0.73x). Else the sorter goes on: FOLDSVG_OK. */
static foldsvg_status sorter_full(stream_ctx *c)
{
    if (fs_sorter_savable(c->sorter) >= SKETCH_MIN_SAVED) {
        c->route = ROUTE_SKETCH;
        return FS_STOP;
    }
    c->sketchable = 0;
    fs_sorter_stop_before_spill(c->sorter, 0);
    return FOLDSVG_OK;
}

/* How much of L's stack the sorter keeps, and its hash: all of it, or, once a sketch says
 * where, the stack cut past its first frame too narrow to draw. */
static size_t kept_len(const stream_ctx *c, const fs_folded_line *l, uint64_t *hash)
{
    if (!c->cut_below) {
        *hash = fs_folded_line_hash(l);
        return l->len;
    }
    size_t len = fs_sketch_cut(&c->sketch, l->stack, l->len, c->cut_below);
    *hash = fs_strmap_hash(l->stack, len);
    return len;
}

/* The route's consumer of the pipeline: each line into the merge, or the sorter. */
static foldsvg_status on_path(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    stream_ctx *c = user;
    /* the totals' overflow is found here, where the line is known, as the tree does */
    if (l->count > UINT64_MAX - c->total ||
        (l->is_diff && l->before > UINT64_MAX - c->total_before))
        return fs_stack_error(err, FOLDSVG_E_OVERFLOW, c->name, l->lineno);
    c->total += l->count;
    if (l->is_diff)
        c->total_before += l->before;
    foldsvg_status st;
    if (c->route == ROUTE_SKETCH) {
        if (l->is_diff) { /* a differential frame's delta counts drawn or not */
            c->sketchable = 0;
            c->route = ROUTE_SORT;
            return FS_STOP;
        }
        fs_sketch_add(&c->sketch, l->stack, l->len, l->count);
        if (c->sketch_unique &&
            fs_u64set_add(&c->sketch_distinct, fs_folded_line_hash(l), NULL) != FOLDSVG_OK)
            return fs_stack_error(err, FOLDSVG_E_NOMEM, c->name, l->lineno);
        return FOLDSVG_OK;
    }
    if (c->route == ROUTE_SORT) {
        uint64_t hash;
        size_t len = kept_len(c, l, &hash);
        st = fs_sorter_add_hashed(c->sorter, l->stack, len, hash, l->count, l->before, l->is_diff);
        if (st == FS_STOP)
            return sorter_full(c);
        if (st == FOLDSVG_E_IO) { /* it cannot spill */
            c->route = ROUTE_PROFILE;
            return FS_STOP;
        }
        return st ? fs_stack_error(err, st, c->name, l->lineno) : FOLDSVG_OK;
    }
    if (c->flamechart && fs_u64set_add(&c->distinct, fs_folded_line_hash(l), NULL))
        return fs_stack_error(err, FOLDSVG_E_NOMEM, c->name, l->lineno);
    int out_of_order;
    /* the reader's comparison holds when its line before is the stream's stack before; its
     * ';' positions then start at the shared bytes, and are of no use otherwise */
    size_t shared = SIZE_MAX;
    const uint32_t *semis = l->semis;
    if (l->shared_with && l->shared_with == c->prev_line)
        shared = l->shared;
    else if (l->shared_with)
        semis = NULL;
    if (l->next_line)
        fs_stream_next_shares(&c->s, l->next_shared, 0);
    st = fs_stream_add_split(&c->s, l->stack, l->len, semis, l->nsemis, shared, l->count, l->before,
                             l->is_diff, &out_of_order);
    if (st)
        return fs_stack_error(err, st, c->name, l->lineno);
    if (out_of_order) {
        /* within an input the pipeline checked --no-sort already: this is where one input
         * sorts before the end of the one before it */
        if (c->o->stack.no_sort)
            return fs_unsorted_error(err, c->name, l->lineno, c->prev_line);
        c->route = ROUTE_SORT;
        return FS_STOP;
    }
    c->prev_line = l->lineno;
    return FOLDSVG_OK;
}

/* A sketch's counters take a sixteenth of the sort buffer (two of the sorter's chunks), 4
 * bytes each, 2^18 at most (1 MiB: more would bound little tighter for the time it costs) and
 * 2^10 at least. */
static unsigned sketch_bits(size_t chunk_budget)
{
    unsigned bits = 10;
    while (bits < 18 && ((size_t)4 << (bits + 1)) <= chunk_budget / 8)
        bits++;
    return bits;
}

static void *on_fork(void *user)
{
    stream_ctx *c = user;
    if (c->route != ROUTE_SORT && c->route != ROUTE_SKETCH)
        return NULL; /* the stream needs its lines in order */
    part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->c = c;
    p->sketching = c->route == ROUTE_SKETCH;
    /* cut stacks: known to be far fewer than the lines (the sketch was needed because whole
     * ones outgrew the sorter), so the part takes as much as the sorter may hold */
    fs_tally_init(&p->tally, !c->sorter     ? 0
                             : c->cut_below ? 2 * fs_sorter_budget(c->sorter)
                                            : fs_sorter_budget(c->sorter));
    fs_u64set_init(&p->distinct);
    if (p->sketching && fs_sketch_init(&p->sketch, c->sketch_bits) != FOLDSVG_OK) {
        free(p);
        return NULL;
    }
    return p;
}

/* (a part that fails or gives up is read again: an error comes then, where it is) */
static foldsvg_status on_part_path(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    (void)err;
    part *p = user;
    const stream_ctx *c = p->c;
    if (p->sketching) {
        if (l->is_diff || l->count > UINT64_MAX - p->total ||
            (c->sketch_unique &&
             fs_u64set_add(&p->distinct, fs_folded_line_hash(l), NULL) != FOLDSVG_OK))
            return FS_STOP;
        p->total += l->count;
        fs_sketch_add(&p->sketch, l->stack, l->len, l->count);
        return FOLDSVG_OK;
    }
    uint64_t hash;
    size_t len = kept_len(c, l, &hash);
    return fs_tally_add(&p->tally, l->stack, len, hash, l->count, l->before, l->is_diff, l->lineno);
}

static foldsvg_status join_sketch(stream_ctx *c, part *p, int *joined)
{
    /* totals that overflow: the part is read again, the line that passes 2^64-1 named */
    *joined = c->route == ROUTE_SKETCH && p->total <= UINT64_MAX - c->total;
    if (!*joined)
        return FOLDSVG_OK;
    c->total += p->total;
    fs_sketch_join(&c->sketch, &p->sketch);
    return fs_u64set_add_all(&c->sketch_distinct, &p->distinct);
}

static foldsvg_status on_join(void *user, void *part_, uint64_t lines_before, int *joined,
                              foldsvg_error *err)
{
    stream_ctx *c = user;
    part *p = part_;
    if (p->sketching) {
        foldsvg_status st = join_sketch(c, p, joined);
        return st ? fs_error(err, st, c->name, "out of memory") : FOLDSVG_OK;
    }
    const fs_tally *t = &p->tally;
    *joined = c->route == ROUTE_SORT && t->total <= UINT64_MAX - c->total &&
              t->total_before <= UINT64_MAX - c->total_before;
    if (!*joined)
        return FOLDSVG_OK;
    c->total += t->total;
    c->total_before += t->total_before;
    for (uint32_t i = 0; i < fs_strmap_size(&t->map); i++) {
        const fs_tally_sum *k = &t->sums[i];
        foldsvg_status st = fs_sorter_add_hashed(c->sorter, fs_strmap_key(&t->map, i),
                                                 fs_strmap_key_len(&t->map, i), k->hash, k->count,
                                                 k->before, k->is_diff);
        if (st == FS_STOP && sorter_full(c) == FOLDSVG_OK)
            continue;
        if (st == FS_STOP)
            return FS_STOP;
        if (st == FOLDSVG_E_IO) { /* it cannot spill */
            c->route = ROUTE_PROFILE;
            return FS_STOP;
        }
        if (st)
            return fs_stack_error(err, st, c->name, lines_before + k->line);
    }
    return FOLDSVG_OK;
}

static void on_drop(void *user, void *part_)
{
    (void)user;
    part *p = part_;
    fs_tally_free(&p->tally);
    fs_sketch_free(&p->sketch);
    fs_u64set_free(&p->distinct);
    free(p);
}

static void on_stats(void *user, const fs_folded_stats *s)
{
    stream_ctx *c = user;
    c->fstats[c->input] = *s;
}

static void on_facts(void *user, const char *format, const char *product, uint32_t threads,
                     uint64_t rate)
{
    stream_ctx *c = user;
    if (!c->facts)
        return;
    fs_profile_facts_set(&c->facts[c->input], format, product, threads, rate);
}

static void on_warn(void *user, const foldsvg_error *w)
{
    stream_ctx *c = user;
    fs_warn(c->o, w);
}

/* The sorter's output, in order, into the merge (the ';' found by the sorter's merge
 * thread, when it has one). */
static foldsvg_status on_sorted(void *user, const fs_relay_item *it)
{
    stream_ctx *c = user;
    int out_of_order;
    fs_stream_next_shares(&c->s, it->next_shared, it->cut);
    foldsvg_status st =
        fs_stream_add_from(&c->s, it->stack, it->from, it->len, it->semis, it->nsemis, it->shared,
                           it->count, it->before, it->is_diff, &out_of_order);
    if (st == FOLDSVG_OK && out_of_order) {
        c->unsorted_runs = 1;
        return FS_STOP;
    }
    if (c->pre && !c->pre_full && c->s.nkept - c->pre_done >= PRE_BATCH)
        draw_ahead(c);
    return st;
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

/* The route to start on. */
static convert_route first_route(const char *const *inputs, size_t n, foldsvg_format format,
                                 const foldsvg_options *o)
{
    /* --facts-from: the carried inputs are noted where profiles note inputs */
    if (o->facts_from || fs_options_stage_set(o, FOLDSVG_STAGE_STACK) || n == 0 ||
        (o->stack.flamechart && format != FOLDSVG_FORMAT_SVG))
        return ROUTE_PROFILE;
    /* folded output: the sorter's order is the output's; --no-sort checks need the profile */
    int folded = format == FOLDSVG_FORMAT_FOLDED && !o->stack.no_sort;
    if (format != FOLDSVG_FORMAT_SVG && !folded)
        return ROUTE_PROFILE;
    size_t nstdin = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        /* a second pass must be possible if the input turns out unsorted: files are read
         * again by name, standard input (once) from its copy */
        if (is_stdin(inputs[i]))
            nstdin++;
        else if (stat(inputs[i], &sb) != 0 || !S_ISREG(sb.st_mode))
            return ROUTE_PROFILE;
    }
    if (nstdin > 1)
        return ROUTE_PROFILE;
    return folded ? ROUTE_SORT : ROUTE_STREAM;
}

/* One reading of every input on the current route. Stops early when the route changes (a
 * line out of order, an input that is not folded paths, a sorter that cannot spill).
 * Standard input that is not a regular file is copied to A->spool as it is read the first
 * time, then read from the copy; one that is not folded text is left in A->held, unread, for
 * the profile. */
static foldsvg_status run_pass(stream_ctx *c, fs_pipeline *pl, const char *const *inputs, size_t n,
                               stdin_again *a, foldsvg_error *err)
{
    convert_route route = c->route;
    foldsvg_status st = FOLDSVG_OK;
    memset(c->fstats, 0, n * sizeof *c->fstats);
    if (c->facts) {
        memset(c->facts, 0, n * sizeof *c->facts);
        memset(c->drawn, 0, n);
    }
    c->total = c->total_before = 0;
    fs_u64set_free(&c->distinct); /* empty again, like the totals */
    fs_pipeline_reset_drops(pl);
    /* a cut stack is hashed once cut */
    fs_pipeline_set_hints(pl, route == ROUTE_SORT     ? (c->cut_below ? 0 : FS_HINT_HASH)
                              : route == ROUTE_SKETCH ? (c->sketch_unique ? FS_HINT_HASH : 0)
                              : c->flamechart ? FS_HINT_HASH | FS_HINT_SEMIS | FS_HINT_SHARED
                                              : FS_HINT_SEMIS | FS_HINT_SHARED);
    for (size_t i = 0; st == FOLDSVG_OK && i < n && c->route == route; i++) {
        fs_input *in;
        int teed = 0, holdable = 0; /* HOLDABLE: the profile can read on from IN */
        if (is_stdin(inputs[i]) && a->file.ok) {
            st = fs_stdin_file_rewind(&a->file, err);
            if (st == FOLDSVG_OK)
                st = fs_input_open_stream(&in, stdin, "<stdin>", err);
            /* opened again by another path, it can be read in two halves at once */
            if (st == FOLDSVG_OK)
                fs_input_set_again(in, fs_stdin_file_path(), (uint64_t)a->file.start, &a->file.id);
        } else if (is_stdin(inputs[i]) && a->spool) {
            rewind(a->spool);
            st = fs_input_open_stream(&in, a->spool, "<stdin>", err);
        } else if (is_stdin(inputs[i]) && c->flamechart && i == n - 1) {
            /* a chart is read once, on this route or the profile's, unless a later input is
             * not folded text (the profile then reads them all again): last, it needs no copy */
            st = fs_input_open_stream(&in, stdin, "<stdin>", err);
            holdable = 1;
        } else if (is_stdin(inputs[i])) {
            a->spool = fs_tmpfile();
            if (!a->spool) {
                c->route = ROUTE_PROFILE; /* stdin untouched: the profile reads it */
                break;
            }
            st = fs_input_open_stream_tee(&in, stdin, "<stdin>", a->spool, err);
            teed = holdable = 1;
        } else {
            st = fs_input_open_file(&in, inputs[i], err);
        }
        if (st)
            break;
        if (c->o->progress)
            fs_input_set_progress(in, c->o->progress, c->o->progress_user);
        if (c->passes == 0) /* a pass again reads the same bytes: one warning */
            fs_input_set_warn(in, c->o->warn, c->o->warn_user);
        const fs_format *format;
        c->gzip |= fs_input_is_gzip(in);
        st = fs_format_detect(in, &format, err);
        if (st == FOLDSVG_OK && !(format->flags & FS_FORMAT_PATHS)) {
            c->route = ROUTE_PROFILE;
            if (holdable) {
                /* nothing of it was used yet: the profile reads on from here */
                fs_input_untee(in);
                a->held = in;
                break;
            }
        } else if (st == FOLDSVG_OK) {
            c->formats |= fs_format_bit(format);
            c->what = format->what;
            c->name = fs_input_name(in);
            c->prev_line = 0;
            c->input = i;
            uint64_t before = c->total;
            st = format->read(in, &c->o->input, fs_pipeline_begin(pl, c->name), err);
            if (st == FOLDSVG_OK)
                st = fs_pipeline_end(pl, err);
            if (c->facts) {
                c->facts[i].gzip = fs_input_is_gzip(in);
                c->drawn[i] = c->total > before;
            }
            if (st == FS_STOP)
                st = FOLDSVG_OK; /* the route changed */
        }
        if (st == FOLDSVG_OK && teed && c->route != route)
            st = fs_input_drain_raw(in, err); /* the copy must hold all of it */
        fs_input_close(in);
    }
    c->passes++;
    return st;
}

/* Reads every input until the route settles: STREAM may turn into SORT (the inputs are
 * read again, into the sorter) and either into PROFILE. A SORT pass whose sorter fills its
 * memory turns into SKETCH, once, and SORT again with the stacks cut (for SVG output of
 * inputs that are cheap to read again: a sketch and a second reading cost less than
 * writing and merging runs of whole stacks). */
static foldsvg_status read_inputs(stream_ctx *c, fs_pipeline *pl, const char *const *inputs,
                                  size_t n, stdin_again *a, foldsvg_error *err)
{
    for (;;) {
        convert_route route = c->route;
        if (route == ROUTE_SORT && !c->sorter) {
            if (fs_sorter_new(&c->sorter, c->o->sort_buffer / 2, 0) != FOLDSVG_OK)
                return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
            if (c->sketchable && !c->gzip)
                fs_sorter_stop_before_spill(c->sorter, 1);
        }
        if (route == ROUTE_SKETCH) {
            c->sketchable = 0;
            c->sketch_bits = sketch_bits(fs_sorter_budget(c->sorter));
            /* emptied for the cut stacks; its memory is used again then */
            if (fs_sorter_reset(c->sorter) != FOLDSVG_OK) {
                fs_sorter_free(c->sorter);
                c->sorter = NULL;
            }
            if (fs_sketch_init(&c->sketch, c->sketch_bits) != FOLDSVG_OK)
                return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        }
        FS_FORWARD_IF_ERROR(run_pass(c, pl, inputs, n, a, err));
        if (route == ROUTE_SKETCH && c->route == ROUTE_SKETCH) {
            c->sketch_total = c->total;
            /* (a stack's count is 1 or more: a limit of 1 cuts nothing) */
            uint64_t below = fs_prune_least_kept(c->o->svg.minwidth, c->total);
            c->cut_below = below > 1 ? below : 0;
            c->route = ROUTE_SORT;
            continue;
        }
        if (route == ROUTE_SORT && c->route == route && c->cut_below &&
            c->total != c->sketch_total) {
            /* the input changed between the readings: the cut is not known to hold */
            c->cut_below = 0;
            fs_sorter_free(c->sorter);
            c->sorter = NULL;
            continue;
        }
        if (c->route == route || c->route == ROUTE_PROFILE)
            return FOLDSVG_OK;
    }
}

/* The sorted stacks into a fresh merge. A sorter that cannot spill (no temporary file, a
 * full disk) means: use a profile. */
static foldsvg_status sort_into_stream(stream_ctx *c, foldsvg_error *err)
{
    fs_stream_free(&c->s);
    if (fs_stream_init(&c->s, c->o->svg.minwidth) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    c->s.final_total = c->total; /* the sum of every line read */
    const foldsvg_options *o = c->o;
    /* only while a second thread merges runs (with none spilled, the merge runs on this
     * thread: drawing ahead would only hold the markup longer) */
    if (fs_sorter_runs(c->sorter) > 0 && fs_svg_pre_usable(&o->svg) && !o->cp && !o->nameattr &&
        !c->flamechart && c->total &&
        fs_svg_pre_new(&c->pre, &c->s.names, &o->svg, o->countname ? o->countname : "cycles",
                       c->total) != FOLDSVG_OK)
        c->pre = NULL; /* drawn after, as without it */
    c->pre_done = 0;
    c->pre_full = 0;
    foldsvg_status st = fs_sorter_finish_split(c->sorter, fs_stream_cut_below(&c->s), on_sorted, c);
    if (st == FOLDSVG_E_IO) {
        c->route = ROUTE_PROFILE;
        return FOLDSVG_OK;
    }
    if (c->unsorted_runs)
        return fs_sorted_runs_error(err, NULL);
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

static foldsvg_status on_sorted_line(void *user, const char *stack, size_t len, size_t shared,
                                     uint64_t count, uint64_t before, int is_diff)
{
    (void)shared;
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
    foldsvg_status st = fs_sorter_finish(f->c->sorter, on_sorted_line, f);
    if (st == FOLDSVG_OK)
        st = flush_line(f);
    if (st == FOLDSVG_E_IO && f->lines == 0 && !f->pending)
        f->c->route = ROUTE_PROFILE; /* the sorter could not spill; nothing written yet */
    return st;
}

/* --facts-out: what each input was, for the run that draws (which also warns for them),
 * into *OUT (fs_facts_write). */
static foldsvg_status write_facts(const stream_ctx *c, const char *const *inputs, size_t n,
                                  fs_outfile *out, foldsvg_error *err)
{
    fs_buf log = {0};
    for (size_t i = 0; i < n; i++) {
        fs_input_note note = {display_name(inputs[i]), &c->facts[i], "", &c->fstats[i],
                              c->drawn[i]};
        fs_facts_append(&log, &note);
    }
    foldsvg_status st = fs_facts_write(out, c->o->facts_out, &log, c->drops, c->o, err);
    fs_buf_free(&log);
    return st;
}

/* The output of a settled STREAM or SORT route; the route may still turn into PROFILE. */
static foldsvg_status write_route(stream_ctx *c, const char *output, foldsvg_format format,
                                  const char *const *inputs, size_t n, size_t *unique,
                                  foldsvg_error *err)
{
    const foldsvg_options *o = c->o;
    if (format == FOLDSVG_FORMAT_FOLDED) {
        fs_outfile facts;
        if (o->facts_out)
            FS_FORWARD_IF_ERROR(write_facts(c, inputs, n, &facts, err));
        folded_out fo = {c, NULL, NULL, {0}, 0, 0, 0, 0, 0};
        foldsvg_status st = fs_write_folded(output, produce_folded, &fo, err);
        fs_buf_free(&fo.stack);
        *unique = fo.lines;
        if (c->route == ROUTE_PROFILE) { /* the profile writes both */
            if (o->facts_out)
                fs_outfile_abort(&facts);
            return FOLDSVG_OK;
        }
        if (o->facts_out)
            return fs_facts_end(&facts, st, err);
        if (st == FOLDSVG_OK) /* after the output, as SVG runs warn before it */
            for (size_t i = 0; i < n; i++)
                fs_warn_folded_stats(o, display_name(inputs[i]), &c->fstats[i]);
        return st;
    }
    if (c->sorter) {
        FS_FORWARD_IF_ERROR(sort_into_stream(c, err));
        if (c->route == ROUTE_PROFILE)
            return FOLDSVG_OK;
    }
    for (size_t i = 0; i < n; i++)
        fs_warn_folded_stats(o, display_name(inputs[i]), &c->fstats[i]);
    foldsvg_status st = fs_stream_finish(&c->s);
    if (st)
        return fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
    *unique = c->cut_below ? fs_u64set_size(&c->sketch_distinct) : c->s.unique;
    if (c->flamechart) {
        fs_stream_mirror(&c->s);
        *unique = fs_u64set_size(&c->distinct);
    }
    if (c->pre)
        draw_ahead(c);
    fs_svg_input in = {
        .tree = &c->s.names,
        .frames = c->s.kept,
        .nframes = c->s.nkept,
        .delta_max = c->s.delta_max,
        .chart = c->flamechart,
        .opts = &o->svg,
        .countname = o->countname ? o->countname : "cycles",
        .pre = c->pre,
    };
    return fs_write_svg_frames(&in, o, output, err);
}

/* The STREAM and SORT routes. FOLDSVG_OK with *DONE set when the output was written; *DONE
 * clear (and OK) means: the route became PROFILE. */
static foldsvg_status convert_folded(convert_route route, const char *const *inputs, size_t n,
                                     const char *output, foldsvg_format format,
                                     const foldsvg_options *o, foldsvg_convert_stats *stats,
                                     int *done, stdin_again *a, foldsvg_error *err)
{
    *done = 0;
    stream_ctx c;
    memset(&c, 0, sizeof c);
    c.route = route;
    c.o = o;
    if (fs_stream_init(&c.s, o->svg.minwidth) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    c.flamechart = o->stack.flamechart;
    if (c.flamechart)
        fs_stream_any_order(&c.s);
    fs_u64set_init(&c.distinct);
    fs_u64set_init(&c.sketch_distinct);
    c.sketchable = format == FOLDSVG_FORMAT_SVG && !c.flamechart && o->svg.minwidth > 0;
    c.sketch_unique = stats != NULL;
    c.fstats = calloc(n, sizeof *c.fstats);
    int nomem = !c.fstats;
    if (o->facts_out) {
        c.facts = calloc(n, sizeof *c.facts);
        c.drawn = calloc(n, 1);
        nomem |= !c.facts || !c.drawn;
    }
    fs_consumer to = {.user = &c,
                      .path = on_path,
                      .facts = on_facts,
                      .stats = on_stats,
                      .warn = on_warn,
                      .fork = on_fork,
                      .part_path = on_part_path,
                      .join = on_join,
                      .drop = on_drop};
    fs_pipeline *pl = NULL;
    foldsvg_status st = !nomem ? fs_pipeline_new(&pl, &o->stack, &to, err)
                               : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st == FOLDSVG_OK)
        st = read_inputs(&c, pl, inputs, n, a, err);
    if (pl)
        c.drops = fs_pipeline_drops(pl);
    if (st == FOLDSVG_OK && c.route != ROUTE_PROFILE)
        st = fs_options_check_inputs(o, c.formats, display_name(inputs[n - 1]), c.what, err);
    if (st == FOLDSVG_OK && c.route != ROUTE_PROFILE && c.total == 0) {
        /* nothing to draw: one error naming the first input with invalid lines */
        size_t k = 0;
        while (k + 1 < n && !c.fstats[k].invalid)
            k++;
        const fs_drops *d = fs_pipeline_drops(pl);
        /* folded text of nothing is empty (fs_profile_no_data's rule); a part of a run
         * (--facts-out) leaves the judging to the run */
        if (!o->facts_out &&
            (format != FOLDSVG_FORMAT_FOLDED || c.fstats[k].invalid || fs_drops_by_option(d)))
            st = fs_no_data_error(err, display_name(inputs[k]), &c.fstats[k], d, o);
    }
    size_t unique = 0;
    if (st == FOLDSVG_OK && c.route != ROUTE_PROFILE)
        st = write_route(&c, output, format, inputs, n, &unique, err);
    if (st == FOLDSVG_OK && c.route != ROUTE_PROFILE) {
        *done = 1;
        if (stats) {
            stats->total = c.total;
            stats->unique_stacks = unique;
            snprintf(stats->count_name, sizeof stats->count_name, "%s",
                     o->countname ? o->countname : "cycles");
            stats->streamed = 1;
            stats->readings = (unsigned)c.passes;
            stats->spilled_bytes = c.sorter ? fs_sorter_spilled(c.sorter) : 0;
        }
    }
    fs_pipeline_free(pl);
    fs_svg_pre_free(c.pre);
    fs_sorter_free(c.sorter);
    fs_u64set_free(&c.distinct);
    fs_u64set_free(&c.sketch_distinct);
    fs_sketch_free(&c.sketch);
    free(c.fstats);
    free(c.facts);
    free(c.drawn);
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
    FS_FORWARD_IF_ERROR(foldsvg_options_check(o, err));
    if (o->facts_out && format != FOLDSVG_FORMAT_FOLDED)
        return fs_facts_out_usage(err);
    stdin_again a = {.spool = NULL, .held = NULL};
    fs_stdin_file_probe(&a.file);
    foldsvg_profile *p = NULL;
    foldsvg_status st = FOLDSVG_OK;
    convert_route route = first_route(inputs, ninputs, format, o);
    if (route != ROUTE_PROFILE) {
        int done;
        st = convert_folded(route, inputs, ninputs, output, format, o, stats, &done, &a, err);
        if (st || done)
            goto out;
    }
    p = foldsvg_profile_new();
    if (!p) {
        st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    /* standard input is read from its start once: "-" named again finds it at its end, as a
     * pipe would be */
    int rewound = 0;
    for (size_t i = 0; st == FOLDSVG_OK && i < ninputs; i++) {
        if (a.held && is_stdin(inputs[i])) {
            st = fs_profile_read_input(p, a.held, o, err);
        } else if (a.spool && is_stdin(inputs[i])) {
            rewind(a.spool);
            st = foldsvg_profile_read_stream(p, a.spool, "<stdin>", o, err);
        } else if (a.file.ok && is_stdin(inputs[i]) && !rewound) {
            rewound = 1;
            st = fs_stdin_file_rewind(&a.file, err);
            if (st == FOLDSVG_OK)
                st = foldsvg_profile_read_stream(p, stdin, "<stdin>", o, err);
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
    /* A failure no input is to blame for (sorting, memory) happened making the output: it
     * names that, so every failure names a file. */
    if (st && err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", strcmp(output, "-") ? output : "<stdout>");
    foldsvg_profile_free(p);
    fs_input_close(a.held);
    if (a.spool)
        fclose(a.spool);
    return st;
}
