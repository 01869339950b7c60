#include "api/diffside.h"

#include <stdlib.h>
#include <string.h>

#include "api/diag.h"
#include "api/options.h"
#include "api/read.h"
#include "util/error.h"
#include "util/utf8.h"
#include "util/mismatch.h"

/* Kept for the caller's thread; past FS_SIDE_WARNINGS the rest are dropped. */
static void collect_warning(void *user, const foldsvg_error *w)
{
    fs_diff_side *s = user;
    if (s->nwarnings < FS_SIDE_WARNINGS)
        s->warnings[s->nwarnings++] = *w;
}

static void on_progress(void *user, const char *input, uint64_t done, uint64_t total,
                        uint64_t lines)
{
    fs_side_progress *p = user;
    pthread_mutex_lock(&p->mu);
    p->fn(p->user, input, done, total, lines);
    pthread_mutex_unlock(&p->mu);
}

void fs_diff_side_init(fs_diff_side *s, const char *path, int dup, const foldsvg_profile *p,
                       const char *name, const foldsvg_options *o, fs_pool *pool,
                       fs_side_progress *progress)
{
    memset(s, 0, sizeof *s);
    s->caller = o;
    s->o = *o;
    s->o.warn = collect_warning;
    s->o.warn_user = s;
    s->o.progress = progress ? on_progress : NULL;
    s->o.progress_user = progress;
    s->profile = p;
    s->pool = pool;
    s->progress = progress;
    if (path) {
        fs_source_init(&s->src, path, dup);
        s->has_src = 1;
    }
    snprintf(s->name, sizeof s->name, "%s", path ? s->src.name : name ? name : "");
}

void fs_diff_side_free(fs_diff_side *s)
{
    if (s->have_run)
        fs_run_free(&s->run);
    if (s->has_src)
        fs_source_free(&s->src);
    foldsvg_profile_free(s->owned);
    fs_buf_free(&s->prev);
    s->have_run = s->has_src = 0;
    s->owned = NULL;
}

/* ---- the stacks, in order, each once ------------------------------------------------------ */

/* The pending stack goes out (not while checking, which emits nothing). */
static foldsvg_status flush(fs_diff_side *s)
{
    if (!s->have_prev || s->checking)
        return FOLDSVG_OK;
    s->have_prev = 0;
    s->unique++;
    return s->emit(s->emit_user, fs_buf_str(&s->prev), s->prev.len, SIZE_MAX, s->pending, 0, 0);
}

/* The next stack of the side: summed into the pending one when it is the same, else the
 * pending one goes out and this one waits; FOLDSVG_E_UNSORTED (nothing changed) when it sorts
 * before the pending one. The counts cannot overflow: the run checked the side's total. */
static foldsvg_status side_put(void *user, const char *stack, size_t len, uint64_t count,
                               uint64_t before, int is_diff)
{
    (void)before;
    (void)is_diff;
    fs_diff_side *s = user;
    if (count == 0) /* a differential input as a side: its AFTER counts */
        return FOLDSVG_OK;
    size_t at = 0;
    if (s->have_prev) {
        size_t plen = s->prev.len, m = len < plen ? len : plen;
        at = fs_mismatch(stack, s->prev.data, m);
        if (at == len && len == plen) {
            s->pending += count;
            return FOLDSVG_OK;
        }
        if (at < m ? (unsigned char)stack[at] < (unsigned char)s->prev.data[at] : len < plen)
            return FOLDSVG_E_UNSORTED;
        FS_FORWARD_IF_ERROR(flush(s));
    }
    /* the bytes before the first difference are the pending stack's already */
    s->prev.len = at;
    if (fs_buf_append(&s->prev, stack + at, len - at) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    s->have_prev = 1;
    s->pending = count;
    return FOLDSVG_OK;
}

/* A check that found the input unsorted: nothing was emitted, the plan reads it sorted. */
static foldsvg_status check_reset(void *user)
{
    fs_diff_side *s = user;
    fs_buf_clear(&s->prev);
    s->have_prev = 0;
    return FOLDSVG_OK;
}

typedef struct walk_ctx {
    fs_diff_side *s;
    foldsvg_status st;
} walk_ctx;

static int on_stack(void *user, const char *path, size_t len, uint64_t count, uint64_t before,
                    int has_before)
{
    walk_ctx *w = user;
    if (count == 0)
        return 0;
    w->s->total += count; /* a profile's total fits: it was checked as it was recorded */
    w->st = side_put(w->s, path, len, count, before, has_before);
    return w->st != FOLDSVG_OK;
}

/* A profile's stacks, in order: the caller's, or the input's read into one. */
static foldsvg_status walk_profile(fs_diff_side *s)
{
    const foldsvg_profile *p = s->profile;
    if (!p) {
        s->owned = foldsvg_profile_new();
        if (!s->owned)
            return fs_error(&s->err, FOLDSVG_E_NOMEM, s->name, "out of memory");
        FS_FORWARD_IF_ERROR(fs_run_tree(&s->run, s->owned, &s->err));
        p = s->profile = s->owned;
        s->drops = p->drops;
        fs_utf8_copy(s->count_name, sizeof s->count_name, p->count_name);
    }
    s->facts = p->facts;
    s->known_total = p->tree.total;
    walk_ctx w = {s, FOLDSVG_OK};
    foldsvg_status st = foldsvg_profile_foreach(p, on_stack, &w);
    if (w.st)
        return w.st;
    if (st)
        return fs_error(&s->err, st, s->name, "%s", foldsvg_status_name(st));
    if (s->total == 0)
        return fs_no_data_error(&s->err, s->name, NULL, &s->drops, s->caller);
    return flush(s);
}

/* What the run's last reading found, kept for the caller. */
static void note_reading(fs_diff_side *s)
{
    const fs_run *r = &s->run;
    s->total = r->total;
    s->stats = r->stats[0];
    s->has_stats = r->lined[0];
    s->facts = r->facts[0];
    snprintf(s->facts.files, sizeof s->facts.files, "%.*s", (int)sizeof s->facts.files - 1,
             s->name);
    s->facts.ninputs = 1;
    s->drops = r->drops;
    fs_utf8_copy(s->count_name, sizeof s->count_name, r->unit);
}

/* Plans the side's reading (once). */
static foldsvg_status plan(fs_diff_side *s)
{
    if (s->planned)
        return FOLDSVG_OK;
    FS_FORWARD_IF_ERROR(fs_run_init(&s->run, &s->o, &s->src, 1, s->pool, &s->err));
    s->have_run = 1;
    fs_plan_input in;
    FS_FORWARD_IF_ERROR(fs_run_look(&s->run, &in, 1, &s->err));
    fs_plan_make(&s->plan, FS_OUT_SIDE, &in, 1, &s->o, s->check);
    s->run.plan = &s->plan;
    s->planned = 1;
    return FOLDSVG_OK;
}

/* One run in the plan's engine; one that changes on the way (an unsorted input found by the
 * check, a sorter that cannot spill) takes over from the start of the input. */
static foldsvg_status run(fs_diff_side *s)
{
    fs_run *r = &s->run;
    r->put = side_put;
    r->put_user = s;
    if (s->unsorted) { /* the join was started over for this */
        fs_plan_revise(&s->plan, FS_PLAN_UNSORTED, s->name, r->unsorted);
        s->unsorted = 0;
    }
    for (;;) {
        fs_engine engine = s->plan.engine;
        if (engine == FS_ENGINE_TREE)
            return walk_profile(s);
        int read = 0;
        if (engine == FS_ENGINE_STREAM && s->plan.check) {
            s->checking = 1;
            r->reset = check_reset;
            foldsvg_status st = fs_run_read(r, 0, &s->err);
            s->checking = 0;
            check_reset(s);
            FS_FORWARD_IF_ERROR(st);
            /* found unsorted, it was read on in the plan's new engine */
            read = s->plan.engine != engine;
            engine = s->plan.engine;
            s->known_total = r->total;
        }
        r->reset = NULL; /* the join takes the stacks as they come: it starts over instead */
        if (!read)
            FS_FORWARD_IF_ERROR(fs_run_read(r, 0, &s->err));
        note_reading(s);
        if (r->unsorted) {
            s->unsorted = 1;
            return FS_STOP;
        }
        if (s->plan.engine != engine)
            continue;
        if (r->total == 0)
            return fs_no_data_error(&s->err, s->name, s->has_stats ? &s->stats : NULL, &s->drops,
                                    s->caller);
        if (engine == FS_ENGINE_SORT) {
            s->known_total = r->total;
            FS_FORWARD_IF_ERROR(fs_run_finish(r, 0, &s->err));
            if (s->plan.engine != engine)
                continue;
        }
        return flush(s);
    }
}

foldsvg_status fs_diff_side_produce(void *user, fs_sorted_fn emit, void *emit_user)
{
    fs_diff_side *s = user;
    s->total = s->known_total = 0;
    s->unique = 0;
    s->has_stats = 0;
    s->nwarnings = 0;
    fs_error_clear(&s->err);
    check_reset(s);
    s->emit = emit;
    s->emit_user = emit_user;
    foldsvg_status st = s->profile && !s->owned ? walk_profile(s) : plan(s);
    if (st == FOLDSVG_OK && !(s->profile && !s->owned))
        st = s->owned ? walk_profile(s) : run(s);
    if (st && st != FS_STOP && !s->err.code)
        fs_error(&s->err, st, s->name, "%s", foldsvg_status_name(st));
    return st;
}

void fs_diff_side_warn(const fs_diff_side *s)
{
    if (s->has_stats)
        fs_warn_folded_stats(s->caller, s->name, &s->stats);
    for (size_t i = 0; i < s->nwarnings; i++)
        fs_warn(s->caller, &s->warnings[i]);
}

void fs_diff_sides_warn_units(const fs_diff_side *before, const fs_diff_side *after)
{
    if (!before->count_name[0] || !after->count_name[0] ||
        strcmp(before->count_name, after->count_name) == 0)
        return;
    foldsvg_error w;
    fs_error(&w, FOLDSVG_OK, NULL,
             "--diff: BEFORE (%s) counts %s, AFTER (%s) counts %s: the difference mixes the two "
             "units; compare profiles of one unit (--weight samples reads profiles as samples)",
             before->name, before->count_name, after->name, after->count_name);
    fs_warn(after->caller, &w);
}
