#include "formats/firefox/processed.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

static double version(const ff_profile *root)
{
    return root->ppv;
}

/* The threads as they come: sub-profiles are a Gecko matter. */
static foldsvg_status collect(ff_profile *root, ff_tref **out, size_t *n, const char *file,
                              foldsvg_error *err)
{
    *out = NULL;
    *n = 0;
    if (root->nstr)
        return fs_error(err, FOLDSVG_E_PARSE, file,
                        "processed profile: a threads[] entry is a JSON string, not a thread");
    size_t cap = 0;
    for (ff_thread *t = root->threads; t; t = t->next) {
        if (FS_GROW(*out, cap, *n + 1, 16) != FOLDSVG_OK) {
            free(*out);
            *out = NULL;
            *n = 0;
            return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
        }
        (*out)[(*n)++] = (ff_tref){t, 0};
    }
    return FOLDSVG_OK;
}

/* The thread's own table, else the profile's shared one, else NULL. */
static const ff_table *own_or_shared(const ff_table *own, const ff_table *shared)
{
    return own->present ? own : shared->present ? shared : NULL;
}

static foldsvg_status setup(ff_res *r, const ff_profile *root)
{
    ff_thread *t = r->t;
    r->stack = own_or_shared(&t->tab->stack, &root->shared_stack);
    r->frame = own_or_shared(&t->tab->frame, &root->shared_frame);
    r->func = own_or_shared(&t->tab->func, &root->shared_func);
    r->strings = t->tab->strings.present        ? &t->tab->strings
                 : root->shared_strings.present ? &root->shared_strings
                                                : NULL;
    const char *missing = !r->stack     ? "stackTable"
                          : !r->frame   ? "frameTable"
                          : !r->func    ? "funcTable"
                          : !r->strings ? "stringArray"
                                        : NULL;
    if (missing)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: no %s in the thread or in shared", r->ti, missing);
    if (!ff_table_has_col(r->stack, FF_C_FRAME) || !ff_table_has_col(r->frame, FF_C_FUNC) ||
        !ff_table_has_col(r->func, FF_C_NAME))
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: stackTable.frame, frameTable.func or funcTable.name is "
                        "missing",
                        r->ti);
    r->use_offset = ff_table_has_col(r->stack, FF_C_PREFIXOFFSET);
    if (!r->use_offset && !ff_table_has_col(r->stack, FF_C_PREFIX))
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: stackTable has neither prefix nor prefixOffset", r->ti);
    r->nstacks = ff_table_col(r->stack, FF_C_FRAME)->n;
    if (r->stack->has_length && (r->stack->length < 0 || (uint64_t)r->stack->length != r->nstacks))
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: stackTable.length %lld differs from its frame column (%zu "
                        "entries)",
                        r->ti, (long long)r->stack->length, r->nstacks);
    return FOLDSVG_OK;
}

/* Entry I of a column, null past its end. */
static fs_json_value col_cell(const ff_table *t, int col, int64_t i)
{
    fs_json_value nul = {.tag = FS_JSON_NULL};
    const ff_cells *c = ff_table_col(t, col);
    if (i < 0 || (uint64_t)i >= c->n)
        return nul;
    return c->a[i];
}

/* stackTable.prefix, or (v66+) prefixOffset: how many rows back the parent is, 0 for none. */
static foldsvg_status parent(ff_res *r, int64_t s, int64_t *par)
{
    fs_json_value c;
    if (r->use_offset) {
        c = col_cell(r->stack, FF_C_PREFIXOFFSET, s);
        if (c.tag == FS_JSON_INT && c.v.i == 0) {
            *par = -1;
            return FOLDSVG_OK;
        }
        if (c.tag == FS_JSON_INT && c.v.i > 0 && c.v.i <= s) {
            *par = s - c.v.i;
            return FOLDSVG_OK;
        }
        char b[48];
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu stackTable row %lld: prefixOffset %s points outside the "
                        "table (it has %zu rows)",
                        r->ti, (long long)s, ff_value_text(c, b, sizeof b), r->nstacks);
    }
    return ff_prefix_parent(r, s, col_cell(r->stack, FF_C_PREFIX, s), par);
}

/* stackTable.frame -> frameTable.func -> funcTable.name -> stringArray */
static foldsvg_status name(ff_res *r, int64_t s, fs_strref *out)
{
    fs_json_value f = col_cell(r->stack, FF_C_FRAME, s);
    size_t nf = ff_table_col(r->frame, FF_C_FUNC)->n;
    if (!ff_index_ok(f, nf))
        return ff_bad_index(r, "stackTable", s, "frame", f, "frameTable.func", nf, "entries");
    fs_json_value fn = col_cell(r->frame, FF_C_FUNC, f.v.i);
    size_t nfn = ff_table_col(r->func, FF_C_NAME)->n;
    if (!ff_index_ok(fn, nfn))
        return ff_bad_index(r, "frameTable", f.v.i, "func", fn, "funcTable.name", nfn, "entries");
    fs_json_value nm = col_cell(r->func, FF_C_NAME, fn.v.i);
    if (!ff_index_ok(nm, r->strings->n))
        return ff_bad_index(r, "funcTable", fn.v.i, "name", nm, "stringArray", r->strings->n,
                            "strings");
    return ff_string_at(r, "stringArray", nm.v.i, fn.v.i, out);
}

/* Before v29 a profile without weights may time its samples with durations. */
static int uses_duration(const ff_thread *t, const ff_profile *root)
{
    double v = root->ppv_is_number ? root->ppv : 0;
    return !t->tab->has_weight_array && t->tab->has_duration_array && v < 29;
}

/* samples.weight (or the durations, summed the same way), else a sample row is 1. */
static void weight(const ff_weighting *w, const ff_thread *t, const ff_acc *a, fs_weight *out)
{
    if (t->tab->has_weight_array || w->dur)
        *out = (fs_weight){a->wint, a->fhi, a->flo};
    else
        *out = (fs_weight){(int64_t)a->n, 0, 0};
}

/* By samples.weightType. */
static const char *count_name(const ff_thread *t, const ff_weighting *w)
{
    (void)w;
    const char *wt = t ? t->tab->weight_type : NULL;
    if (wt && strcmp(wt, "tracing-ms") == 0)
        return "ms";
    if (wt && strcmp(wt, "bytes") == 0)
        return "bytes";
    return "samples";
}

const ff_model ff_processed_model = {
    "processed", version, collect, setup, parent, name, uses_duration, weight, count_name, NULL,
};
