/* The whole option set: made at the table's defaults, copied, freed, its handlers, and the
 * options checked against each other. */
#include "api/options.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gate.h"
#include "api/optrow.h"
#include "util/error.h"
#include "util/strlist.h"

void fs_warn(const foldsvg_options *o, const foldsvg_error *w)
{
    if (o && o->warn)
        o->warn(o->warn_user, w);
}

/* The defaults, made once from the rows' (as foldsvg_options_set would set them, not noted
 * as given). */
static foldsvg_options defaults;
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void make_defaults(void)
{
    size_t nrows;
    const opt_row *rows = fs_opt_rows(&nrows);
    for (size_t i = 0; i < nrows; i++) {
        const opt_row *r = &rows[i];
        if (r->default_value && r->type != T_CLI && r->type != T_LIST && r->type != T_STRING &&
            fs_opt_set_value(&defaults, r, r->default_value, NULL) == FOLDSVG_OK && r->set_off)
            *(int *)(void *)((char *)&defaults + r->set_off - 1) = 0;
    }
}

const foldsvg_options *fs_default_options(void)
{
    pthread_once(&defaults_once, make_defaults);
    return &defaults;
}

fs_input_opts fs_options_input(const foldsvg_options *o)
{
    fs_input_opts io = o->input;
    io.ordered = o->stack.flamechart;
    io.sort_buffer = o->sort_buffer ? o->sort_buffer : fs_default_options()->sort_buffer;
    return io;
}

foldsvg_options *foldsvg_options_new(void)
{
    foldsvg_options *o = malloc(sizeof *o);
    if (o)
        *o = *fs_default_options();
    return o;
}

void foldsvg_options_free(foldsvg_options *o)
{
    size_t nrows;
    const opt_row *rows = fs_opt_rows(&nrows);
    if (!o)
        return;
    for (size_t i = 0; i < nrows; i++) {
        if (rows[i].type == T_STRING)
            free(*(char **)fs_opt_field(o, &rows[i]));
        else if (rows[i].type == T_LIST)
            fs_strlist_free(fs_opt_field(o, &rows[i]));
    }
    free(o);
}

foldsvg_options *foldsvg_options_clone(const foldsvg_options *src)
{
    size_t nrows;
    const opt_row *rows = fs_opt_rows(&nrows);
    foldsvg_options *o = malloc(sizeof *o);
    if (!o)
        return NULL;
    *o = *src;
    /* First every owned value is detached, so that a failure halfway frees only copies. */
    for (size_t i = 0; i < nrows; i++) {
        if (rows[i].type == T_STRING)
            *(char **)fs_opt_field(o, &rows[i]) = NULL;
        else if (rows[i].type == T_LIST)
            memset(fs_opt_field(o, &rows[i]), 0, sizeof(fs_strlist));
    }
    int bad = 0;
    for (size_t i = 0; i < nrows && !bad; i++) {
        const opt_row *r = &rows[i];
        if (r->type == T_STRING) {
            const char *s = *(char *const *)fs_opt_cfield(src, r);
            if (s && !(*(char **)fs_opt_field(o, r) = strdup(s)))
                bad = 1;
        } else if (r->type == T_LIST) {
            bad = fs_strlist_copy(fs_opt_field(o, r), fs_opt_cfield(src, r)) != FOLDSVG_OK;
        }
    }
    if (bad) {
        foldsvg_options_free(o);
        return NULL;
    }
    return o;
}

void foldsvg_options_set_warning_handler(foldsvg_options *o, foldsvg_warning_fn fn, void *user)
{
    if (!o)
        return;
    o->warn = fn;
    o->warn_user = user;
}

void foldsvg_options_set_progress_handler(foldsvg_options *o, foldsvg_progress_fn fn, void *user)
{
    if (!o)
        return;
    o->progress = fn;
    o->progress_user = user;
}

void foldsvg_options_set_log_handler(foldsvg_options *o, foldsvg_log_fn fn, void *user)
{
    if (!o)
        return;
    o->log = fn;
    o->log_user = user;
}

#define OFF(f) offsetof(foldsvg_options, f)

foldsvg_status foldsvg_options_check(const foldsvg_options *o, foldsvg_error *err)
{
    if (!o)
        return FOLDSVG_OK;
    static const struct {
        size_t a, b;
        const char *na, *nb;
    } conflicts[] = {
        {OFF(stack.reverse), OFF(stack.no_sort), "reverse", "no-sort"},
        {OFF(stack.flamechart), OFF(stack.no_sort), "flamechart", "no-sort"},
        {OFF(stack.reverse), OFF(stack.flamechart), "reverse", "flamechart"},
        {OFF(svg.hash), OFF(svg.deterministic), "hash", "deterministic"},
        {OFF(svg.colordiffusion), OFF(palette_set), "colordiffusion", "colors"},
    };
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++) {
        int a = *(const int *)(const void *)((const char *)o + conflicts[i].a);
        int b = *(const int *)(const void *)((const char *)o + conflicts[i].b);
        if (a && b)
            return fs_error(err, FOLDSVG_E_USAGE, NULL,
                            "--%s cannot be used with --%s: drop one of them", conflicts[i].na,
                            conflicts[i].nb);
    }
    fs_gate_rule rule;
    for (size_t i = 0; o->diff_normalize && i < o->fail_if.n; i++)
        if (fs_gate_parse(o->fail_if.v[i], "fail-if", &rule, NULL) == FOLDSVG_OK &&
            rule.measure == FS_GATE_TOTAL)
            return fs_error(err, FOLDSVG_E_USAGE, NULL,
                            "--fail-if '%.200s' cannot be used with --normalize, which makes the "
                            "totals equal: drop one of them",
                            o->fail_if.v[i]);
    return FOLDSVG_OK;
}
