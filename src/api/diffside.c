#include "api/diffside.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include "api/diag.h"
#include "api/options.h"
#include "api/read.h"
#include "formats/registry.h"
#include "transform/pipeline.h"
#include "util/error.h"
#include "util/mismatch.h"
#include "util/tmpfile.h"

/* What the pipeline's consumer does with a stack in this pass. */
enum { PASS_CHECK, PASS_EMIT, PASS_SORT };

void fs_diff_side_init(fs_diff_side *s, const char *path, const foldsvg_profile *p,
                       const char *name, const foldsvg_options *o, size_t sort_budget,
                       fs_side_progress *progress)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->path = path;
    s->profile = p;
    s->mode = path ? FS_SIDE_STREAM : FS_SIDE_PROFILE;
    s->sort_budget = sort_budget;
    s->progress = progress;
    const char *shown = !path ? (name ? name : "") : strcmp(path, "-") ? path : "<stdin>";
    snprintf(s->name, sizeof s->name, "%s", shown);
    s->once = path && fs_diff_read_once(path);
    if (s->once && strcmp(path, "-") == 0) {
        fs_stdin_file_probe(&s->stdin_file);
        s->once = !s->stdin_file.ok;
    }
}

void fs_diff_side_free(fs_diff_side *s)
{
    if (s->spool)
        fclose(s->spool);
    foldsvg_profile_free(s->owned);
    fs_sorter_free(s->sorter);
    fs_buf_free(&s->prev);
    s->spool = NULL;
    s->owned = NULL;
    s->sorter = NULL;
}

static void reset(fs_diff_side *s)
{
    s->total = 0; /* not KNOWN_TOTAL: a check pass's stays for the pass after it */
    s->unique = 0;
    s->unsorted = 0;
    memset(&s->stats, 0, sizeof s->stats);
    s->has_stats = 0;
    memset(&s->facts, 0, sizeof s->facts);
    s->count_name[0] = '\0';
    fs_error_clear(&s->err);
    s->nwarnings = 0;
    fs_buf_clear(&s->prev);
    s->have_prev = 0;
    s->pending = 0;
}

/* ---- the stacks, in order, each once ------------------------------------------------------ */

/* The pending stack goes out (not in a check pass, which emits nothing). */
static foldsvg_status flush(fs_diff_side *s)
{
    if (!s->have_prev || s->pass == PASS_CHECK)
        return FOLDSVG_OK;
    s->have_prev = 0;
    s->unique++;
    return s->emit(s->emit_user, fs_buf_str(&s->prev), s->prev.len, SIZE_MAX, s->pending, 0, 0);
}

/* The next stack of the side: summed into the pending one when it is the same, else the
 * pending one goes out and this one waits. *LESS: it sorts before the pending one (nothing
 * changed). The counts cannot overflow: the side's total was checked first. */
static foldsvg_status take(fs_diff_side *s, const char *stack, size_t len, uint64_t count,
                           int *less)
{
    *less = 0;
    size_t at = 0;
    if (s->have_prev) {
        size_t plen = s->prev.len, m = len < plen ? len : plen;
        at = fs_mismatch(stack, s->prev.data, m);
        if (at == len && len == plen) {
            s->pending += count;
            return FOLDSVG_OK;
        }
        if (at < m ? (unsigned char)stack[at] < (unsigned char)s->prev.data[at] : len < plen) {
            *less = 1;
            return FOLDSVG_OK;
        }
        FS_FORWARD_IF_ERROR(flush(s));
    }
    /* the bytes before the first difference are the pending stack's already */
    s->prev.len = at;
    FS_FORWARD_IF_ERROR(fs_buf_append(&s->prev, stack + at, len - at));
    s->have_prev = 1;
    s->pending = count;
    return FOLDSVG_OK;
}

/* ---- the pipeline's consumer ------------------------------------------------------------- */

static foldsvg_status on_path(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    fs_diff_side *s = user;
    /* a differential input as a side: its AFTER counts */
    if (l->count == 0)
        return FOLDSVG_OK;
    if (l->count > UINT64_MAX - s->total)
        return fs_stack_error(err, FOLDSVG_E_OVERFLOW, s->name, l->lineno);
    s->total += l->count;
    foldsvg_status st;
    if (s->pass == PASS_SORT) {
        st = fs_sorter_add_hashed(s->sorter, l->stack, l->len, fs_folded_line_hash(l), l->count, 0,
                                  0);
        if (st == FOLDSVG_E_IO) { /* it cannot spill: into a profile instead */
            s->mode = FS_SIDE_PROFILE;
            return FS_STOP;
        }
        return st ? fs_stack_error(err, st, s->name, l->lineno) : FOLDSVG_OK;
    }
    int less;
    st = take(s, l->stack, l->len, l->count, &less);
    if (st == FS_STOP) /* the join has stopped */
        return st;
    if (st)
        return fs_stack_error(err, st, s->name, l->lineno);
    if (less) {
        if (s->pass == PASS_CHECK)
            s->mode = FS_SIDE_SORT; /* read again, into a sorter */
        else
            s->unsorted = 1; /* the caller starts the join again */
        return FS_STOP;
    }
    return FOLDSVG_OK;
}

static void on_count_name(void *user, const char *name)
{
    fs_diff_side *s = user;
    snprintf(s->count_name, sizeof s->count_name, "%s", name);
}

static void on_facts(void *user, const char *format, const char *product, uint32_t threads,
                     uint64_t rate)
{
    fs_diff_side *s = user;
    fs_profile_facts_set(&s->facts, format, product, threads, rate);
}

static void on_threads(void *user, const char *names)
{
    fs_diff_side *s = user;
    snprintf(s->facts.thread_names, sizeof s->facts.thread_names, "%s", names);
}

static void on_stats(void *user, const fs_folded_stats *st)
{
    fs_diff_side *s = user;
    s->stats = *st;
    s->has_stats = 1;
}

/* Kept for the caller's thread; past FS_SIDE_WARNINGS the rest are dropped. */
static void on_warn(void *user, const foldsvg_error *w)
{
    fs_diff_side *s = user;
    if (s->nwarnings < FS_SIDE_WARNINGS)
        s->warnings[s->nwarnings++] = *w;
}

static void collect_warning(void *user, const foldsvg_error *w)
{
    on_warn(user, w);
}

static void on_progress(void *user, const char *input, uint64_t done, uint64_t total,
                        uint64_t lines)
{
    fs_side_progress *p = user;
    pthread_mutex_lock(&p->mu);
    p->fn(p->user, input, done, total, lines);
    pthread_mutex_unlock(&p->mu);
}

/* ---- reading ----------------------------------------------------------------------------- */

int fs_diff_read_once(const char *path)
{
    struct stat sb;
    if (strcmp(path, "-") == 0)
        return 1;
    return stat(path, &sb) == 0 &&
           (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode) || S_ISSOCK(sb.st_mode));
}

/* The input from its start: a file by name; standard input or a pipe the first time as it
 * comes (a copy kept in the spool, when one could be made), later from the spool. *TEED:
 * this read fills the spool; *OWNED: a stream to close after the read. */
static foldsvg_status open_input(fs_diff_side *s, fs_input **in, int *teed, FILE **owned)
{
    *teed = 0;
    *owned = NULL;
    if (s->stdin_file.ok) {
        foldsvg_status st = fs_stdin_file_rewind(&s->stdin_file, &s->err);
        return st ? st : fs_input_open_stream(in, stdin, s->name, &s->err);
    }
    if (!s->once)
        return fs_input_open_file(in, s->path, &s->err);
    if (s->read_once) {
        if (!s->spool)
            return fs_error(&s->err, FOLDSVG_E_IO, s->name,
                            "the input has to be read twice and no temporary file could be "
                            "made for it (set TMPDIR)");
        rewind(s->spool);
        return fs_input_open_stream(in, s->spool, s->name, &s->err);
    }
    s->read_once = 1;
    FILE *f = stdin;
    if (strcmp(s->path, "-") != 0 && !(f = *owned = fopen(s->path, "rb")))
        return fs_error(&s->err, FOLDSVG_E_IO, s->name, "cannot open input: %s", strerror(errno));
    if (!s->spool) /* no copy could be made: read once, into a profile (run) */
        return fs_input_open_stream(in, f, s->name, &s->err);
    *teed = 1;
    return fs_input_open_stream_tee(in, f, s->name, s->spool, &s->err);
}

static void close_input(fs_input *in, FILE *owned)
{
    fs_input_close(in);
    if (owned)
        fclose(owned);
}

/* The modes that depend on line order need folded text (api/read.c says the same). */
static foldsvg_status check_format(fs_diff_side *s, const fs_format *f)
{
    if (!s->o->stack.no_sort || (f->flags & FS_FORMAT_PATHS))
        return FOLDSVG_OK;
    return fs_error(&s->err, FOLDSVG_E_USAGE, s->name,
                    "--no-sort needs folded input (it depends on line order); this is %s: drop "
                    "--no-sort",
                    f->what);
}

/* One reading of the input through the pipeline in PASS (a STREAM pass of an input that is
 * not folded paths becomes a SORT pass). FS_STOP: the mode changed, or the join stopped. */
static foldsvg_status read_pass(fs_diff_side *s, int pass)
{
    fs_input *in;
    int teed;
    FILE *owned;
    foldsvg_status ost = open_input(s, &in, &teed, &owned);
    if (ost) {
        if (owned)
            fclose(owned);
        return ost;
    }
    if (s->progress)
        fs_input_set_progress(in, on_progress, s->progress);
    const fs_format *format;
    foldsvg_status st = fs_format_detect(in, &format, &s->err);
    if (st == FOLDSVG_OK)
        st = check_format(s, format);
    if (st == FOLDSVG_OK && pass != PASS_SORT && !(format->flags & FS_FORMAT_PATHS)) {
        s->mode = FS_SIDE_SORT;
        pass = PASS_SORT;
    }
    if (st == FOLDSVG_OK && pass == PASS_SORT && !s->sorter &&
        fs_sorter_new(&s->sorter, s->sort_budget, 0) != FOLDSVG_OK)
        st = fs_error(&s->err, FOLDSVG_E_NOMEM, s->name, "out of memory");
    fs_pipeline *pl = NULL;
    if (st == FOLDSVG_OK) {
        reset(s);
        s->pass = pass;
        fs_consumer to = {.user = s,
                          .path = on_path,
                          .count_name = on_count_name,
                          .facts = on_facts,
                          .stats = on_stats,
                          .warn = on_warn,
                          .threads = on_threads};
        st = fs_pipeline_new(&pl, &s->o->stack, &to, &s->err);
    }
    if (st == FOLDSVG_OK) {
        fs_pipeline_set_hints(pl, pass == PASS_SORT ? FS_HINT_HASH : 0);
        st = format->read(in, &s->o->input, fs_pipeline_begin(pl, s->name), &s->err);
    }
    if (st == FOLDSVG_OK)
        st = fs_pipeline_end(pl, &s->err);
    if (st == FOLDSVG_OK) {
        snprintf(s->facts.files, sizeof s->facts.files, "%.*s", (int)sizeof s->facts.files - 1,
                 s->name);
        s->facts.gzip = fs_input_is_gzip(in);
        s->facts.ninputs = 1;
    }
    /* a read stopped early must still leave all of the input in the spool */
    if (teed && st == FS_STOP && fs_input_drain_raw(in, &s->err) != FOLDSVG_OK)
        st = s->err.code;
    if (pl)
        s->drops = *fs_pipeline_drops(pl); /* each reading sees the whole input */
    fs_pipeline_free(pl);
    close_input(in, owned);
    return st;
}

static foldsvg_status on_sorted(void *user, const char *stack, size_t len, size_t shared,
                                uint64_t count, uint64_t before, int is_diff)
{
    (void)shared;
    (void)before;
    (void)is_diff;
    fs_diff_side *s = user;
    int less;
    foldsvg_status st = take(s, stack, len, count, &less);
    if (st == FOLDSVG_OK && less)
        return fs_sorted_runs_error(&s->err, s->name);
    return st;
}

typedef struct walk_ctx {
    fs_diff_side *s;
    foldsvg_status st;
} walk_ctx;

static int on_stack(void *user, const char *path, size_t len, uint64_t count, uint64_t before,
                    int has_before)
{
    (void)before;
    (void)has_before;
    walk_ctx *w = user;
    int less;
    if (count == 0)
        return 0;
    w->s->total += count; /* a profile's total fits: it was checked as it was recorded */
    w->st = take(w->s, path, len, count, &less);
    return w->st != FOLDSVG_OK;
}

/* A profile's stacks, in order: the caller's, or the input read into one (when the sorter
 * could not spill, or standard input could not be kept for a second read). */
static foldsvg_status walk_profile(fs_diff_side *s)
{
    const foldsvg_profile *p = s->profile;
    if (!p) {
        s->owned = foldsvg_profile_new();
        if (!s->owned)
            return fs_error(&s->err, FOLDSVG_E_NOMEM, s->name, "out of memory");
        /* warnings are kept for the caller's thread, progress goes through the lock */
        foldsvg_options o = *s->o;
        o.warn = collect_warning;
        o.warn_user = s;
        o.progress = s->progress ? on_progress : NULL;
        o.progress_user = s->progress;
        fs_input *in;
        int teed;
        FILE *owned;
        foldsvg_status st = open_input(s, &in, &teed, &owned);
        if (st == FOLDSVG_OK) {
            reset(s);
            st = fs_profile_read_input(s->owned, in, &o, &s->err);
            fs_input_close(in);
        }
        if (owned)
            fclose(owned);
        if (st)
            return st;
        p = s->owned;
        s->profile = p;
        s->drops = p->drops;
        snprintf(s->count_name, sizeof s->count_name, "%s", p->count_name);
    }
    s->facts = p->facts;
    s->known_total = p->tree.total;
    s->pass = PASS_EMIT;
    walk_ctx w = {s, FOLDSVG_OK};
    foldsvg_status st = foldsvg_profile_foreach(p, on_stack, &w);
    if (w.st)
        return w.st;
    if (st)
        return fs_error(&s->err, st, s->name, "%s", foldsvg_status_name(st));
    return flush(s);
}

/* Nothing passed the pipeline: the one-line error naming the side. */
static foldsvg_status no_data(fs_diff_side *s)
{
    return fs_no_data_error(&s->err, s->name, s->has_stats ? &s->stats : NULL, &s->drops, s->o);
}

/* The sorted stacks out of the sorter. FS_STOP with the mode PROFILE: the sorter could
 * not write its runs and nothing went out yet. */
static foldsvg_status finish_sort(fs_diff_side *s)
{
    s->pass = PASS_EMIT;
    s->known_total = s->total;
    foldsvg_status st = fs_sorter_finish(s->sorter, on_sorted, s);
    fs_sorter_free(s->sorter);
    s->sorter = NULL;
    if (st == FOLDSVG_E_IO && s->unique == 0 && !s->have_prev && !s->err.code) {
        s->mode = FS_SIDE_PROFILE;
        return FS_STOP;
    }
    if (st == FOLDSVG_OK)
        return flush(s);
    if (st != FS_STOP && !s->err.code)
        fs_error(&s->err, st, s->name, "sorting the stacks: %s", foldsvg_status_name(st));
    return st;
}

/* One run in the side's mode; a mode that changes on the way (an unsorted input found by
 * the check pass, an input that is not folded text, a sorter that cannot spill) takes over
 * from the start of the input. */
static foldsvg_status run(fs_diff_side *s)
{
    if (s->once && !s->read_once && !(s->spool = fs_tmpfile()))
        s->mode = FS_SIDE_PROFILE; /* it can be read only once: into a profile */
    for (;;) {
        fs_side_mode mode = s->mode;
        if (mode == FS_SIDE_PROFILE) {
            foldsvg_status st = walk_profile(s);
            return st == FOLDSVG_OK && s->total == 0 ? no_data(s) : st;
        }
        int pass = mode == FS_SIDE_SORT ? PASS_SORT : s->check_first ? PASS_CHECK : PASS_EMIT;
        foldsvg_status st = read_pass(s, pass);
        if (st == FS_STOP && !s->unsorted && s->mode != mode)
            continue;
        if (st)
            return st; /* FS_STOP: unsorted (the caller starts again) or the join stopped */
        if (s->total == 0)
            return no_data(s);
        if (s->mode == FS_SIDE_SORT) {
            st = finish_sort(s);
            if (st == FS_STOP && s->mode == FS_SIDE_PROFILE)
                continue;
            return st;
        }
        if (pass == PASS_CHECK) {
            s->known_total = s->total;
            st = read_pass(s, PASS_EMIT);
        }
        return st ? st : flush(s);
    }
}

foldsvg_status fs_diff_side_produce(void *user, fs_sorted_fn emit, void *emit_user)
{
    fs_diff_side *s = user;
    reset(s);
    s->known_total = 0;
    s->emit = emit;
    s->emit_user = emit_user;
    foldsvg_status st = run(s);
    if (st && st != FS_STOP && !s->err.code)
        fs_error(&s->err, st, s->name, "%s", foldsvg_status_name(st));
    return st;
}

void fs_diff_side_warn(const fs_diff_side *s)
{
    if (s->has_stats)
        fs_warn_folded_stats(s->o, s->name, &s->stats);
    for (size_t i = 0; i < s->nwarnings; i++)
        fs_warn(s->o, &s->warnings[i]);
}
