#include "api/run.h"

#include <stdlib.h>
#include <string.h>

#include "aggregate/tally.h"
#include "api/diag.h"
#include "formats/registry.h"
#include "frames/prune.h"
#include "util/error.h"
#include "util/utf8.h"
#include "util/strmap.h"

/* A sketch's counters take a sixteenth of the sort buffer (two of the sorter's chunks), 4
 * bytes each, from 2^10 to 2^18: more would bound little tighter for the time it costs. */
static unsigned sketch_bits(size_t chunk)
{
    unsigned bits = 10;
    while (bits < 18 && ((size_t)4 << (bits + 1)) <= chunk / 8)
        bits++;
    return bits;
}

/* Cutting the stacks pays when it saves this many bytes a stack (a reading costs about what
 * sorting a hundred bytes or so does). */
enum { CUT_MIN_SAVED = 64 };

/* ---- the engines, as the pipeline's consumer ---------------------------------------------- */

/* How much of L's stack the sorter keeps, and its hash: all of it, or, once a sketch says
 * where, the stack cut past its first frame too narrow to draw. */
static size_t kept_len(const fs_run *r, const fs_folded_line *l, uint64_t *hash)
{
    size_t len = r->cut_below ? fs_sketch_cut(&r->sketch, l->stack, l->len, r->cut_below) : l->len;
    *hash = fs_strmap_hash(l->stack, len);
    return len;
}

/* The sorter is full, or will be (fs_sorter_stop_before_spill): cut when the plan allows and
 * that saves enough, else spill. */
static foldsvg_status sorter_full(fs_run *r)
{
    if (r->plan->cut && fs_sorter_savable(r->sorter) >= CUT_MIN_SAVED) {
        fs_plan_revise(r->plan, FS_PLAN_FULL_CUT, r->name, 0);
        r->sketching = 1;
        return FS_STOP;
    }
    fs_plan_revise(r->plan, FS_PLAN_FULL, r->name, 0);
    fs_sorter_stop_before_spill(r->sorter, 0);
    return FOLDSVG_OK;
}

/* A stack into the sorter; FS_STOP when the plan changes. */
static foldsvg_status sort_add(fs_run *r, const char *stack, size_t len, uint64_t hash,
                               uint64_t count, uint64_t before, int is_diff, uint64_t line,
                               foldsvg_error *err)
{
    foldsvg_status st = fs_sorter_add_hashed(r->sorter, stack, len, hash, count, before, is_diff);
    if (st == FS_STOP)
        return sorter_full(r);
    if (st == FOLDSVG_E_IO) { /* it cannot spill */
        fs_plan_revise(r->plan, FS_PLAN_NO_SPILL, r->name, line);
        return FS_STOP;
    }
    return st ? fs_stack_error(err, st, r->name, line) : FOLDSVG_OK;
}

static foldsvg_status on_path(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    fs_run *r = user;
    /* the totals' overflow is found here, where the line is known */
    if (l->count > UINT64_MAX - r->total ||
        (l->is_diff && l->before > UINT64_MAX - r->total_before))
        return fs_stack_error(err, FOLDSVG_E_OVERFLOW, r->name, l->lineno);
    r->total += l->count;
    if (l->is_diff)
        r->total_before += l->before;
    if (r->count_distinct &&
        fs_u64set_add(&r->distinct, fs_strmap_hash(l->stack, l->len), NULL) != FOLDSVG_OK)
        return fs_stack_error(err, FOLDSVG_E_NOMEM, r->name, l->lineno);
    if (r->sketching) {
        if (l->is_diff) { /* a differential frame's delta counts, drawn or not */
            fs_plan_revise(r->plan, FS_PLAN_FULL, r->name, l->lineno);
            r->sketching = 0;
            return FS_STOP;
        }
        fs_sketch_add(&r->sketch, l->stack, l->len, l->count);
        return FOLDSVG_OK;
    }
    if (r->plan->engine == FS_ENGINE_SORT) {
        uint64_t hash;
        size_t len = kept_len(r, l, &hash);
        return sort_add(r, l->stack, len, hash, l->count, l->before, l->is_diff, l->lineno, err);
    }
    foldsvg_status st = r->put(r->put_user, l->stack, l->len, l->count, l->before, l->is_diff);
    if (st == FOLDSVG_E_UNSORTED) {
        /* within an input the pipeline checked --no-sort already: this is where one input
         * sorts before the end of the one before it */
        if (r->o->stack.no_sort)
            return fs_unsorted_error(err, r->name, l->lineno, r->prev_line);
        if (!r->reset) {
            r->unsorted = l->lineno ? l->lineno : 1;
            return FS_STOP;
        }
        fs_plan_revise(r->plan, FS_PLAN_UNSORTED, r->name, l->lineno);
        return FS_STOP;
    }
    r->prev_line = l->lineno;
    return st == FS_STOP || !st ? st : fs_stack_error(err, st, r->name, l->lineno);
}

/* A part of an input read on another thread (formats/folded/split.c): a sketch of its own in
 * a sketch's reading; else a tally (summed in a table as big as one of the sorter's chunks
 * until it is joined), its stacks cut as the run's are. */
typedef struct part {
    fs_tally tally;
    fs_sketch sketch;
    fs_u64set distinct;
    uint64_t total;
    int sketching;
    const fs_run *r;
} part;

static void *on_fork(void *user)
{
    fs_run *r = user;
    if (r->plan->engine != FS_ENGINE_SORT)
        return NULL; /* the stream needs its lines in order */
    part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->r = r;
    p->sketching = r->sketching;
    /* cut stacks: known to be far fewer than the lines (the sketch was needed because whole
     * ones outgrew the sorter), so the part takes as much as the sorter may hold */
    fs_tally_init(&p->tally, r->cut_below ? 2 * r->plan->chunk : r->plan->chunk);
    fs_u64set_init(&p->distinct);
    if (p->sketching && fs_sketch_init(&p->sketch, sketch_bits(r->plan->chunk)) != FOLDSVG_OK) {
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
    const fs_run *r = p->r;
    if (r->count_distinct &&
        fs_u64set_add(&p->distinct, fs_strmap_hash(l->stack, l->len), NULL) != FOLDSVG_OK)
        return FS_STOP;
    if (p->sketching) {
        if (l->is_diff || l->count > UINT64_MAX - p->total)
            return FS_STOP;
        p->total += l->count;
        fs_sketch_add(&p->sketch, l->stack, l->len, l->count);
        return FOLDSVG_OK;
    }
    uint64_t hash;
    size_t len = kept_len(r, l, &hash);
    return fs_tally_add(&p->tally, l->stack, len, hash, l->count, l->before, l->is_diff, l->lineno);
}

static foldsvg_status on_join(void *user, void *part_, uint64_t lines_before, int *joined,
                              foldsvg_error *err)
{
    fs_run *r = user;
    part *p = part_;
    uint64_t total = p->sketching ? p->total : p->tally.total;
    /* totals that overflow: the part is read again, the line that passes 2^64-1 named */
    *joined = r->sketching == p->sketching && r->plan->engine == FS_ENGINE_SORT &&
              total <= UINT64_MAX - r->total &&
              p->tally.total_before <= UINT64_MAX - r->total_before;
    if (!*joined)
        return FOLDSVG_OK;
    r->total += total;
    r->total_before += p->tally.total_before;
    if (fs_u64set_add_all(&r->distinct, &p->distinct) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, r->name, "out of memory");
    if (p->sketching) {
        fs_sketch_join(&r->sketch, &p->sketch);
        return FOLDSVG_OK;
    }
    const fs_tally *t = &p->tally;
    for (uint32_t i = 0; i < fs_strmap_size(&t->map); i++) {
        const fs_tally_sum *k = &t->sums[i];
        FS_FORWARD_IF_ERROR(sort_add(r, fs_strmap_key(&t->map, i), fs_strmap_key_len(&t->map, i),
                                     k->hash, k->count, k->before, k->is_diff,
                                     lines_before + k->line, err));
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
    fs_run *r = user;
    r->stats[r->input] = *s;
    r->lined[r->input] = 1;
}

static void on_facts(void *user, const char *format, const char *product, uint32_t threads,
                     uint64_t rate)
{
    fs_run *r = user;
    fs_profile_facts_set(&r->facts[r->input], format, product, threads, rate);
}

static void on_warn(void *user, const foldsvg_error *w)
{
    fs_run *r = user;
    fs_warn(r->o, w);
}

static void on_count_name(void *user, const char *name)
{
    fs_run *r = user;
    fs_utf8_copy(r->unit, sizeof r->unit, name);
}

/* ---- readings ---------------------------------------------------------------------------- */

foldsvg_status fs_run_init(fs_run *r, const foldsvg_options *o, fs_source *src, size_t n,
                           fs_pool *pool, foldsvg_error *err)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    r->src = src;
    r->n = n;
    r->pool = pool;
    fs_u64set_init(&r->distinct);
    r->stats = calloc(n, sizeof *r->stats);
    r->facts = calloc(n, sizeof *r->facts);
    r->drawn = calloc(n, 1);
    r->lined = calloc(n, 1);
    r->format = calloc(n, sizeof *r->format);
    fs_consumer to = {.user = r,
                      .path = on_path,
                      .count_name = on_count_name,
                      .facts = on_facts,
                      .stats = on_stats,
                      .warn = on_warn,
                      .fork = on_fork,
                      .part_path = on_part_path,
                      .join = on_join,
                      .drop = on_drop};
    if (!r->stats || !r->facts || !r->drawn || !r->lined || !r->format)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    return fs_pipeline_new(&r->pl, &o->stack, &to, err);
}

void fs_run_free(fs_run *r)
{
    fs_pipeline_free(r->pl);
    fs_sorter_free(r->sorter);
    fs_sketch_free(&r->sketch);
    fs_u64set_free(&r->distinct);
    free(r->stats);
    free(r->facts);
    free(r->drawn);
    free(r->lined);
    free(r->format);
    memset(r, 0, sizeof *r);
}

foldsvg_status fs_run_look(fs_run *r, fs_plan_input *in, int copy, foldsvg_error *err)
{
    for (size_t i = 0; i < r->n; i++) {
        fs_source *s = &r->src[i];
        if (s->dup) {
            /* standard input named again: it is read from where the first one left it, not
             * looked at now (that would take bytes from the first) */
            size_t k = 0;
            while (!r->src[k].is_stdin)
                k++;
            in[i] = in[k];
            in[i].stdin_twice = 1;
            continue;
        }
        fs_input *input;
        FS_FORWARD_IF_ERROR(fs_source_look(s, copy, &input, err));
        fs_input_set_pool(input, r->pool);
        /* warnings of its first bytes (gzip's padding) come as they are looked at */
        fs_input_set_warn(input, r->o->warn, r->o->warn_user);
        FS_FORWARD_IF_ERROR(fs_format_detect(input, &r->format[i], err));
        in[i] =
            (fs_plan_input){s->name, r->format[i], fs_input_is_gzip(input), fs_source_again(s), 0};
    }
    return FOLDSVG_OK;
}

/* One reading of every source in the plan's engine. Stops early when the plan changes (FS_STOP
 * from the consumer). */
static foldsvg_status reading(fs_run *r, foldsvg_error *err)
{
    fs_engine engine = r->plan->engine;
    int sketching = r->sketching;
    foldsvg_status st = FOLDSVG_OK;
    memset(r->stats, 0, r->n * sizeof *r->stats);
    memset(r->facts, 0, r->n * sizeof *r->facts);
    memset(r->drawn, 0, r->n);
    memset(r->lined, 0, r->n);
    r->total = r->total_before = 0;
    r->unsorted = 0;
    r->unit[0] = '\0';
    fs_u64set_free(&r->distinct); /* empty again, like the totals */
    fs_pipeline_reset_drops(r->pl);
    for (size_t i = 0; st == FOLDSVG_OK && i < r->n; i++) {
        fs_source *s = &r->src[i];
        fs_input *in;
        /* no reading comes after a tree's, nor after a stream in any order */
        int last = engine == FS_ENGINE_TREE || r->o->stack.flamechart;
        FS_FORWARD_IF_ERROR(fs_source_open(s, last, &in, err));
        fs_input_set_pool(in, r->pool);
        if (r->o->progress)
            fs_input_set_progress(in, r->o->progress, r->o->progress_user);
        if (r->readings == 0) /* a reading again reads the same bytes: one warning */
            fs_input_set_warn(in, r->o->warn, r->o->warn_user);
        const fs_format *format = r->format[i];
        if (!format)
            st = fs_format_detect(in, &format, err);
        if (st == FOLDSVG_OK) {
            r->formats |= fs_format_bit(format);
            r->what = format->what;
            r->name = fs_input_name(in);
            r->prev_line = 0;
            r->input = i;
            uint64_t before = r->total;
            fs_input_opts io = fs_options_input(r->o);
            fs_sink *sink = fs_pipeline_begin(r->pl, r->name);
            fs_pipeline_symbolized(r->pl, (format->flags & FS_FORMAT_SYMBOLIZED) != 0);
            st = format->read(in, &io, sink, err);
            if (st == FOLDSVG_OK)
                st = fs_pipeline_end(r->pl, err);
            r->facts[i].gzip = fs_input_is_gzip(in);
            r->drawn[i] = r->total > before;
            if (st == FS_STOP)
                st = FOLDSVG_OK; /* the plan changed */
        }
        foldsvg_status cst = fs_source_close(s, in, err);
        if (st == FOLDSVG_OK)
            st = cst;
        if (r->plan->engine != engine || r->sketching != sketching || r->unsorted)
            break;
    }
    r->readings++;
    r->drops = *fs_pipeline_drops(r->pl);
    return st;
}

foldsvg_status fs_run_read(fs_run *r, int count_distinct, foldsvg_error *err)
{
    fs_plan *p = r->plan;
    for (;;) {
        fs_engine engine = p->engine;
        if (engine == FS_ENGINE_TREE)
            return FOLDSVG_OK;
        int sketching = r->sketching;
        if (engine == FS_ENGINE_SORT && !r->sorter) {
            if (fs_sorter_new(&r->sorter, p->chunk, 0, r->pool) != FOLDSVG_OK)
                return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
            /* it stops where it would spill: the plan says what then */
            fs_sorter_stop_before_spill(r->sorter, 1);
        }
        if (sketching) {
            /* emptied for the cut stacks; its memory is used again then */
            if (fs_sorter_reset(r->sorter) != FOLDSVG_OK) {
                fs_sorter_free(r->sorter);
                r->sorter = NULL;
            }
            if (fs_sketch_init(&r->sketch, sketch_bits(p->chunk)) != FOLDSVG_OK)
                return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
            p->cut = 0; /* once */
        }
        /* the whole stacks are counted in the sketch's reading: the cut ones cannot be */
        r->count_distinct = count_distinct && (sketching || r->o->stack.flamechart);
        FS_FORWARD_IF_ERROR(reading(r, err));
        if (r->unsorted)
            return FOLDSVG_OK;
        if (sketching && r->sketching) {
            r->sketching = 0;
            r->sketch_total = r->total;
            r->unique = fs_u64set_size(&r->distinct);
            /* (a stack's count is 1 or more: a limit of 1 cuts nothing) */
            uint64_t below = fs_prune_least_kept(r->o->svg.minwidth, r->total);
            r->cut_below = below > 1 ? below : 0;
            if (!r->sorter && fs_sorter_new(&r->sorter, p->chunk, 0, r->pool) != FOLDSVG_OK)
                return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
            fs_sorter_stop_before_spill(r->sorter, 1);
            continue;
        }
        if (engine == FS_ENGINE_SORT && p->engine == engine && r->cut_below &&
            r->total != r->sketch_total) {
            /* the input changed between the readings: the cut is not known to hold */
            fs_plan_revise(p, FS_PLAN_CHANGED, NULL, 0);
            r->cut_below = 0;
            fs_sorter_free(r->sorter);
            r->sorter = NULL;
            continue;
        }
        if (p->engine == engine && r->sketching == sketching) {
            if (r->o->stack.flamechart)
                r->unique = fs_u64set_size(&r->distinct);
            return FOLDSVG_OK;
        }
        if (engine == FS_ENGINE_STREAM && r->reset)
            FS_FORWARD_IF_ERROR(r->reset(r->put_user));
        if (p->engine != FS_ENGINE_TREE && !p->again) {
            fs_plan_revise(p, FS_PLAN_ONCE, NULL, 0);
            return FOLDSVG_OK;
        }
    }
}

static foldsvg_status sorted_to_put(void *user, const char *stack, size_t len, size_t shared,
                                    uint64_t count, uint64_t before, int is_diff)
{
    (void)shared;
    fs_run *r = user;
    return r->put(r->put_user, stack, len, count, before, is_diff);
}

foldsvg_status fs_run_finish(fs_run *r, uint64_t cut_below, foldsvg_error *err)
{
    if (r->plan->engine != FS_ENGINE_SORT)
        return FOLDSVG_OK;
    foldsvg_status st = fs_sorter_finish(r->sorter, cut_below, sorted_to_put, r);
    fs_sorter_free(r->sorter); /* spent: a reading after this one makes another */
    r->sorter = NULL;
    r->cut_below = 0;
    if (st == FOLDSVG_E_IO) { /* the merge could not write its runs */
        fs_plan_revise(r->plan, FS_PLAN_NO_SPILL, NULL, 0);
        return FOLDSVG_OK;
    }
    if (st == FOLDSVG_E_UNSORTED)
        return fs_sorted_runs_error(err, NULL);
    if (st && st != FS_STOP)
        return fs_error(err, st, NULL, "sorting the stacks: %s", foldsvg_status_name(st));
    return st;
}

size_t fs_run_blamed(const fs_run *r)
{
    size_t k = 0;
    while (k + 1 < r->n && !r->stats[k].invalid)
        k++;
    return k;
}
