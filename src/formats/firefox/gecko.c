#include "formats/firefox/gecko.h"

#include <stdlib.h>

#include "util/error.h"
#include "util/grow.h"

static double version(const ff_profile *root)
{
    return root->version;
}

typedef struct ff_walk {
    ff_profile *p;
    int sp1;
} ff_walk;

/* Depth first: a profile's threads, then its string sub-profiles, then its processes, each
 * in array order; SP1 weighting is inherited until a profile names its product. */
static foldsvg_status walk(ff_profile *root, ff_tref **v, size_t *n, size_t *cap)
{
    ff_walk *todo = NULL;
    size_t nt = 0, ct = 0;
    foldsvg_status st = FS_GROW(todo, ct, 1, 16);
    if (st == FOLDSVG_OK)
        todo[nt++] = (ff_walk){root, 0};
    while (st == FOLDSVG_OK && nt) {
        ff_walk w = todo[--nt];
        int sp1 = w.p->product_set ? w.p->product_sp1 : w.sp1;
        for (ff_thread *t = w.p->threads; t && st == FOLDSVG_OK; t = t->next)
            if ((st = fs_grow(v, cap, *n + 1, sizeof **v, 16)) == FOLDSVG_OK)
                (*v)[(*n)++] = (ff_tref){t, sp1};
        size_t subs = w.p->nproc + w.p->nstr;
        if (st == FOLDSVG_OK && (st = FS_GROW(todo, ct, nt + subs, 16)) == FOLDSVG_OK) {
            for (size_t i = w.p->nproc; i-- > 0;)
                todo[nt++] = (ff_walk){w.p->proc_subs[i], sp1};
            for (size_t i = w.p->nstr; i-- > 0;)
                todo[nt++] = (ff_walk){w.p->str_subs[i], sp1};
        }
    }
    free(todo);
    return st;
}

static foldsvg_status collect(ff_profile *root, ff_tref **out, size_t *n, const char *file,
                              foldsvg_error *err)
{
    ff_tref *v = NULL;
    size_t cap = 0;
    *n = 0;
    foldsvg_status st = walk(root, &v, n, &cap);
    if (st) {
        free(v);
        *n = 0;
        v = NULL;
        st = fs_error(err, st, file, "out of memory");
    }
    *out = v;
    return st;
}

static foldsvg_status setup(ff_res *r, const ff_profile *root)
{
    (void)root;
    ff_thread *t = r->t;
    if (!t->tab->strings.present)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file, "thread %zu has no stringTable", r->ti);
    const char *names[2] = {"frameTable", "stackTable"};
    const ff_table *tabs[2] = {&t->tab->frame, &t->tab->stack};
    for (int i = 0; i < 2; i++)
        if (!tabs[i]->present || !tabs[i]->has_schema || !tabs[i]->has_data)
            return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                            "thread %zu: %s is missing or has no schema and data", r->ti, names[i]);
    if (t->tab->frame.schema[FF_C_LOCATION] == -1)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: the frameTable schema has no location column", r->ti);
    if (t->tab->stack.schema[FF_C_PREFIX] == -1 || t->tab->stack.schema[FF_C_FRAME] == -1)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu: the stackTable schema lacks prefix or frame", r->ti);
    if (t->has_samples && !t->tab->samples.has_schema)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file, "thread %zu: samples has no schema",
                        r->ti);
    r->stack = &t->tab->stack;
    r->frame = &t->tab->frame;
    r->strings = &t->tab->strings;
    r->nstacks = ff_table_rows(&t->tab->stack);
    return FOLDSVG_OK;
}

static foldsvg_status parent(ff_res *r, int64_t s, int64_t *par)
{
    return ff_prefix_parent(r, s, ff_table_cell(r->stack, (size_t)s, FF_C_PREFIX), par);
}

/* stackTable.frame -> frameTable.location -> stringTable */
static foldsvg_status name(ff_res *r, int64_t s, fs_strref *out)
{
    fs_json_value f = ff_table_cell(r->stack, (size_t)s, FF_C_FRAME);
    size_t nf = ff_table_rows(r->frame);
    if (!ff_index_ok(f, nf))
        return ff_bad_index(r, "stackTable", s, "frame", f, "frameTable", nf, "rows");
    fs_json_value loc = ff_table_cell(r->frame, (size_t)f.v.i, FF_C_LOCATION);
    if (!ff_index_ok(loc, r->strings->n))
        return ff_bad_index(r, "frameTable", f.v.i, "location", loc, "stringTable", r->strings->n,
                            "strings");
    return ff_string_at(r, "stringTable", loc.v.i, f.v.i, out);
}

static int uses_duration(const ff_thread *t, const ff_profile *root)
{
    (void)t;
    (void)root;
    return 0;
}

/* SP1: the summed threadCPUDelta, a missing or null cell counting 1; else a sample row is 1. */
static void weight(const ff_weighting *w, const ff_thread *t, const ff_acc *a, fs_weight *out)
{
    (void)t;
    if (w->sp1)
        *out = (fs_weight){a->wint + (int64_t)a->cpu_null, a->fhi, a->flo};
    else
        *out = (fs_weight){(int64_t)a->n, 0, 0};
}

static const char *count_name(const ff_thread *t, const ff_weighting *w)
{
    (void)t;
    return w->sp1 ? NULL : "samples";
}

static foldsvg_status check(ff_res *r, const ff_weighting *w)
{
    if (w->sp1 && !w->weight_samples && r->t->cpu_bad_row)
        return fs_error(r->err, FOLDSVG_E_PARSE, r->file,
                        "thread %zu samples row %llu: threadCPUDelta (the SP1 weight) is not a "
                        "number or its sum overflows",
                        r->ti, (unsigned long long)(r->t->cpu_bad_row - 1));
    return FOLDSVG_OK;
}

const ff_model ff_gecko_model = {
    "Gecko", version, collect, setup, parent, name, uses_duration, weight, count_name, check,
};
