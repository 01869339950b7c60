/* Reading inputs into a profile: the format from the registry (formats/registry.h), the stacks
 * through the stack pipeline (transform/pipeline.h) into the profile's prefix tree, which is the
 * pipeline's consumer here; and the order-dependent inferno modes. */
#include <stdlib.h>
#include <string.h>

#include "api/diag.h"
#include "api/facts.h"
#include "api/options.h"
#include "api/plan.h"
#include "api/profile.h"
#include "api/read.h"
#include "api/run.h"
#include "formats/registry.h"
#include "input/input.h"
#include "input/source.h"
#include "transform/pipeline.h"
#include "util/error.h"
#include "util/pool.h"
#include "util/utf8.h"

/* The tree as the pipeline's consumer, for one input. */
typedef struct tree_in {
    foldsvg_profile *p;
    const foldsvg_options *o;
    const char *name;
    fs_profile_facts facts; /* what this input is, for reports */
    fs_folded_stats stats;  /* its lines, when it has lines */
    int has_stats;
    char unit[FS_UNIT_SIZE]; /* the count unit it named, if any */
} tree_in;

/* ST of a stack added to the tree (ending at LEAF), and for --flamechart its place in the
 * order; an error names the line. */
static foldsvg_status logged(tree_in *c, foldsvg_status st, uint32_t leaf, uint64_t count,
                             uint64_t before, int is_diff, uint64_t lineno, foldsvg_error *err)
{
    if (st == FOLDSVG_OK && c->o->stack.flamechart)
        st = fs_order_log_add(&c->p->log, leaf, count, before, is_diff);
    return st ? fs_stack_error(err, st, c->name, lineno) : FOLDSVG_OK;
}

static foldsvg_status add_path(void *user, const fs_folded_line *l, foldsvg_error *err)
{
    tree_in *c = user;
    uint32_t leaf = FS_NONE;
    foldsvg_status st =
        fs_tree_add_path(&c->p->tree, l->stack, l->len, l->count, l->before, l->is_diff, &leaf);
    return logged(c, st, leaf, l->count, l->before, l->is_diff, l->lineno, err);
}

static foldsvg_status add_frames(void *user, const fs_strref *frames, size_t n, uint64_t count,
                                 uint64_t before, int is_diff, uint64_t lineno, foldsvg_error *err)
{
    tree_in *c = user;
    uint32_t leaf = FS_NONE;
    foldsvg_status st = fs_tree_add_frames(&c->p->tree, frames, n, count, before, is_diff, &leaf);
    return logged(c, st, leaf, count, before, is_diff, lineno, err);
}

/* add_frames, the leaf the token; and a stack so named once more (a profile's samples in
 * order, which take turns between few stacks). */
static foldsvg_status add_frames_token(void *user, const fs_strref *frames, size_t n,
                                       uint64_t count, uint32_t *token, foldsvg_error *err)
{
    tree_in *c = user;
    foldsvg_status st = fs_tree_add_frames(&c->p->tree, frames, n, count, 0, 0, token);
    return logged(c, st, *token, count, 0, 0, 0, err);
}

static foldsvg_status add_again(void *user, uint32_t token, uint64_t count, foldsvg_error *err)
{
    tree_in *c = user;
    return logged(c, fs_tree_add_count(&c->p->tree, token, count), token, count, 0, 0, 0, err);
}

static void on_count_name(void *user, const char *name)
{
    tree_in *c = user;
    fs_utf8_copy(c->unit, sizeof c->unit, name);
    if (!c->p->carried) /* then the unit is the carried inputs' */
        fs_utf8_copy(c->p->count_name, sizeof c->p->count_name, name);
}

static void on_facts(void *user, const char *format, const char *product, uint32_t threads,
                     uint64_t rate)
{
    tree_in *c = user;
    fs_profile_facts_set(&c->facts, format, product, threads, rate);
}

static void on_say(void *user, const char *line)
{
    fs_plan_log(((tree_in *)user)->o, line);
}

static void on_threads(void *user, const char *names)
{
    tree_in *c = user;
    snprintf(c->facts.thread_names, sizeof c->facts.thread_names, "%s", names);
}

static void on_stats(void *user, const fs_folded_stats *s)
{
    tree_in *c = user;
    c->stats = *s;
    c->has_stats = 1;
}

static void on_warn(void *user, const foldsvg_error *w)
{
    tree_in *c = user;
    fs_warn(c->o, w);
}

/* Warnings of a line input, held back while nothing drawable has been read (DRAWN clear). */
static void note_stats(foldsvg_profile *p, const foldsvg_options *o, const char *name,
                       const fs_folded_stats *s, int drawn)
{
    if (!drawn) {
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

/* The order-dependent modes need a format whose order means something: --flamechart a time
 * order of samples, --no-sort lines already sorted by their stacks (folded text only). */
static foldsvg_status check_order_modes(const fs_format *f, const foldsvg_options *o,
                                        const char *name, foldsvg_error *err)
{
    const char *mode = NULL;
    if (o->stack.flamechart && !(f->flags & FS_FORMAT_ORDERED))
        mode = "flamechart";
    else if (o->stack.no_sort && !(f->flags & FS_FORMAT_PATHS))
        mode = "no-sort";
    if (!mode)
        return FOLDSVG_OK;
    return fs_error(err, FOLDSVG_E_USAGE, name,
                    "--%s needs folded input (it depends on line order); this is %s: drop --%s",
                    mode, f->what, mode);
}

/* One input of a --facts-from file, noted as the input itself would have been (in order:
 * whether anything was drawn by then decides about held-back warnings). With --facts-out
 * as well, the run passes the inputs on. */
typedef struct carry_ctx {
    foldsvg_profile *p;
    const foldsvg_options *o;
} carry_ctx;

static void on_carried(void *user, const fs_input_note *n)
{
    carry_ctx *k = user;
    foldsvg_profile *p = k->p;
    fs_profile_facts f = *n->facts;
    snprintf(f.files, sizeof f.files, "%s", n->name);
    fs_profile_note_input(p, &f);
    fs_buf_printf(&p->carried_names, "%s%s", p->ncarried++ ? ", " : "", n->name);
    if (n->unit[0])
        fs_utf8_copy(p->count_name, sizeof p->count_name, n->unit);
    p->carried_drawn |= n->drawn;
    if (n->stats && !k->o->facts_out)
        note_stats(p, k->o, n->name, n->stats, p->carried_drawn);
    snprintf(p->last_name, sizeof p->last_name, "%s", n->name);
    if (k->o->facts_out)
        fs_facts_append(&p->facts_log, n);
}

static foldsvg_status load_carried(foldsvg_profile *p, const foldsvg_options *o, foldsvg_error *err)
{
    p->carried = 1;
    carry_ctx k = {p, o};
    FS_FORWARD_IF_ERROR(fs_facts_read(o->facts_from, on_carried, &k, &p->drops, err));
    if (fs_buf_status(&p->carried_names) || fs_buf_status(&p->facts_log))
        return fs_error(err, FOLDSVG_E_NOMEM, o->facts_from, "out of memory");
    return FOLDSVG_OK;
}

/* What one input read was, for the report, the warnings and --facts-out. A part of a run
 * (--facts-out) leaves the warnings to the run that draws. */
static void note_read(foldsvg_profile *p, const foldsvg_options *o, tree_in *c, fs_input *in,
                      int drawn)
{
    if (c->has_stats && !o->facts_out)
        note_stats(p, o, c->name, &c->stats, p->tree.total != 0);
    snprintf(c->facts.files, sizeof c->facts.files, "%s", c->name);
    c->facts.gzip = fs_input_is_gzip(in);
    fs_profile_note_input(p, &c->facts);
    if (o->facts_out) {
        fs_input_note n = {c->name, &c->facts, c->unit, c->has_stats ? &c->stats : NULL, drawn};
        fs_facts_append(&p->facts_log, &n);
    }
}

foldsvg_status fs_profile_read_input(foldsvg_profile *p, fs_input *in, const foldsvg_options *o,
                                     foldsvg_error *err)
{
    if (!o)
        o = fs_default_options();
    tree_in c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.o = o;
    c.name = fs_input_name(in);
    if (o->progress)
        fs_input_set_progress(in, o->progress, o->progress_user);
    fs_input_set_warn(in, o->warn, o->warn_user);
    if (o->stack.flamechart)
        p->has_log = 1;
    fs_consumer to = {.user = &c,
                      .path = add_path,
                      .frames = add_frames,
                      .frames_token = add_frames_token,
                      .again = add_again,
                      .count_name = on_count_name,
                      .facts = on_facts,
                      .stats = on_stats,
                      .warn = on_warn,
                      .threads = on_threads,
                      .say = on_say};
    fs_pipeline *pl = NULL;
    const fs_format *format = NULL;
    uint64_t before = p->tree.total;
    foldsvg_status st = FOLDSVG_OK;
    if (o->facts_from && !p->carried)
        st = load_carried(p, o, err);
    if (st == FOLDSVG_OK)
        st = fs_pipeline_new(&pl, &o->stack, &to, err);
    if (st == FOLDSVG_OK)
        st = fs_format_detect(in, &format, err);
    if (st == FOLDSVG_OK) {
        p->formats |= fs_format_bit(format);
        p->last_what = format->what;
        st = check_order_modes(format, o, c.name, err);
    }
    fs_input_opts io = fs_options_input(o);
    if (st == FOLDSVG_OK) {
        fs_sink *sink = fs_pipeline_begin(pl, c.name);
        fs_pipeline_symbolized(pl, (format->flags & FS_FORMAT_SYMBOLIZED) != 0);
        st = format->read(in, &io, sink, err);
    }
    if (st == FOLDSVG_OK)
        st = fs_pipeline_end(pl, err);
    if (pl)
        fs_drops_add(&p->drops, fs_pipeline_drops(pl));
    if (!p->carried) {
        snprintf(p->last_name, sizeof p->last_name, "%s", c.name);
        if (st == FOLDSVG_OK)
            note_read(p, o, &c, in, p->tree.total > before);
    }
    fs_pipeline_free(pl);
    return st;
}

foldsvg_status fs_run_tree(fs_run *r, foldsvg_profile *p, foldsvg_error *err)
{
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; st == FOLDSVG_OK && i < r->n; i++) {
        fs_input *in;
        FS_FORWARD_IF_ERROR(fs_source_open(&r->src[i], 1, &in, err));
        fs_input_set_pool(in, r->pool);
        st = fs_profile_read_input(p, in, r->o, err);
        fs_input_close(in);
    }
    return st;
}

foldsvg_status foldsvg_profile_read_file(foldsvg_profile *p, const char *path,
                                         const foldsvg_options *opts, foldsvg_error *err)
{
    if (!p)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL profile");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_source src;
    fs_source_init(&src, path, 0);
    fs_pool *pool = fs_pool_new(o->threads);
    fs_run r;
    foldsvg_status st = pool ? fs_run_init(&r, o, &src, 1, pool, err)
                             : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_plan_input in;
    if (st == FOLDSVG_OK)
        st = fs_run_look(&r, &in, 0, err);
    fs_plan plan;
    if (st == FOLDSVG_OK) {
        fs_plan_make(&plan, FS_OUT_PROFILE, &in, 1, o, 0);
        r.plan = &plan;
        st = fs_run_tree(&r, p, err);
    }
    if (pool)
        fs_run_free(&r);
    fs_source_free(&src);
    fs_pool_free(pool);
    return st;
}

foldsvg_status foldsvg_profile_read_stream(foldsvg_profile *p, FILE *f, const char *name,
                                           const foldsvg_options *opts, foldsvg_error *err)
{
    if (!p || !f)
        return fs_error(err, FOLDSVG_E_ARG, name, "NULL profile or stream");
    fs_input *in;
    FS_FORWARD_IF_ERROR(fs_input_open_stream(&in, f, name, err));
    foldsvg_status st = fs_profile_read_input(p, in, opts, err);
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
    FS_FORWARD_IF_ERROR(fs_input_open_mem(&in, data, len, name, err));
    foldsvg_status st = fs_profile_read_input(p, in, opts, err);
    fs_input_close(in);
    return st;
}

foldsvg_status foldsvg_list_threads(const char *path, const foldsvg_options *opts,
                                    foldsvg_thread_fn fn, void *user, foldsvg_error *err)
{
    if (!fn)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL callback");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_input *in;
    FS_FORWARD_IF_ERROR(fs_input_open_file(&in, path, err));
    const fs_format *format;
    foldsvg_status st = fs_format_detect(in, &format, err);
    if (st == FOLDSVG_OK && !format->list_threads)
        st = fs_error(err, FOLDSVG_E_USAGE, fs_input_name(in),
                      "--list-threads needs a profile with threads (Firefox-Profiler, pprof, "
                      "Chrome, speedscope); this input is %s, which has none",
                      format->what);
    fs_input_opts io = fs_options_input(o);
    io.ordered = 0; /* a listing is of every thread, whatever --flamechart says */
    if (st == FOLDSVG_OK)
        st = format->list_threads(in, &io, fn, user, err);
    fs_input_close(in);
    return st;
}

foldsvg_status foldsvg_list_sample_types(const char *path, const foldsvg_options *opts,
                                         foldsvg_sample_type_fn fn, void *user, foldsvg_error *err)
{
    if (!fn)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL callback");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_input *in;
    FS_FORWARD_IF_ERROR(fs_input_open_file(&in, path, err));
    const fs_format *format;
    foldsvg_status st = fs_format_detect(in, &format, err);
    if (st == FOLDSVG_OK && !format->list_sample_types)
        st = fs_error(err, FOLDSVG_E_USAGE, fs_input_name(in),
                      "--list-sample-types needs a pprof profile; this input is %s, which has "
                      "no sample types",
                      format->what);
    fs_input_opts io = fs_options_input(o);
    io.ordered = 0; /* a listing is of every thread, whatever --flamechart says */
    if (st == FOLDSVG_OK)
        st = format->list_sample_types(in, &io, fn, user, err);
    fs_input_close(in);
    return st;
}
