#include "formats/firefox/order.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

static int is_number(fs_json_value c)
{
    return c.tag == FS_JSON_INT || c.tag == FS_JSON_NUM;
}

static ff_runs *runs_of(ff_thread *t)
{
    if (!t->runs)
        t->runs = calloc(1, sizeof *t->runs);
    return t->runs;
}

/* Room for one more run in both arrays (they share CAP). */
static foldsvg_status grow(ff_runs *r)
{
    if (r->n < r->cap)
        return FOLDSVG_OK;
    size_t cap = fs_grow_cap(r->cap, r->n + 1, 4, sizeof *r->a); /* a thread may have one run */
    if (!cap)
        return FOLDSVG_E_NOMEM;
    FS_FORWARD_IF_ERROR(fs_resize(&r->a, cap, sizeof *r->a));
    if (r->dur)
        FS_FORWARD_IF_ERROR(fs_resize(&r->dur, cap, sizeof *r->dur));
    r->cap = cap;
    return FOLDSVG_OK;
}

foldsvg_status ff_order_stack(ff_thread *t, int64_t key, uint64_t i)
{
    ff_runs *r = runs_of(t);
    if (!r)
        return FOLDSVG_E_NOMEM;
    if (r->n > r->from && r->a[r->n - 1].key == key) {
        r->a[r->n - 1].n++;
        return FOLDSVG_OK;
    }
    FS_FORWARD_IF_ERROR(grow(r));
    ff_acc *a = &r->a[r->n];
    memset(a, 0, sizeof *a);
    a->key = key;
    a->first_row = i;
    a->n = 1;
    if (r->dur) {
        memset(&r->dur[r->n], 0, sizeof *r->dur);
        r->dur[r->n].key = key;
        r->dur[r->n].first_row = i;
    }
    r->n++;
    return FOLDSVG_OK;
}

void ff_order_cpu(ff_thread *t, fs_json_value cpu)
{
    ff_runs *r = t->runs;
    if (!r || !r->n)
        return;
    ff_acc *a = &r->a[r->n - 1];
    /* a cell that is not a number is the per-stack sums' error to report */
    if (cpu.tag == FS_JSON_NULL)
        a->cpu_null++;
    else if (is_number(cpu))
        (void)ff_acc_add(a, &cpu);
}

/* The run that holds sample I, found from the last one asked for (samples come in order). */
static ff_acc *run_at(ff_runs *r, uint64_t i, ff_acc *runs)
{
    if (r->at < r->from)
        r->at = r->from;
    while (r->at < r->n && i >= r->a[r->at].first_row + r->a[r->at].n)
        r->at++;
    return r->at < r->n && i >= r->a[r->at].first_row ? &runs[r->at] : NULL;
}

void ff_order_weight(ff_thread *t, uint64_t i, fs_json_value w)
{
    ff_runs *r = t->runs;
    ff_acc *a = r ? run_at(r, i, r->a) : NULL;
    if (a && is_number(w))
        (void)ff_acc_add(a, &w);
}

foldsvg_status ff_order_duration(ff_thread *t, uint64_t i, fs_json_value d)
{
    ff_runs *r = t->runs;
    if (!r)
        return FOLDSVG_OK;
    if (!r->dur && r->cap) {
        r->dur = calloc(r->cap, sizeof *r->dur);
        if (!r->dur)
            return FOLDSVG_E_NOMEM;
        for (size_t k = 0; k < r->n; k++) {
            r->dur[k].key = r->a[k].key;
            r->dur[k].first_row = r->a[k].first_row;
        }
    }
    ff_acc *a = r->dur ? run_at(r, i, r->dur) : NULL;
    if (a) {
        a->n++;
        if (is_number(d))
            (void)ff_acc_add(a, &d);
    }
    return FOLDSVG_OK;
}

void ff_order_samples_begin(ff_thread *t)
{
    if (t->runs)
        t->runs->from = t->runs->at = t->runs->n;
}

void ff_order_column_begin(ff_thread *t)
{
    if (t->runs)
        t->runs->at = t->runs->from;
}
