#include "analysis/delta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long double fs_delta_scaled(uint64_t count, uint64_t per)
{
    return per > 1 ? (long double)count / (long double)per : (long double)count;
}

long double fs_delta_before(const fs_delta_row *r, uint64_t per_before)
{
    long double b = fs_delta_scaled(r->before, per_before);
    return r->scale > 0 ? b * r->scale : b;
}

double fs_delta_percent(const fs_delta_row *r, uint64_t per_before, int *is_new)
{
    long double b = fs_delta_before(r, per_before);
    *is_new = r->before == 0 || b == 0;
    if (*is_new)
        return 0.0;
    return (double)(r->delta * 100.0L / b);
}

static int name_cmp(const fs_delta_row *x, const fs_delta_row *y)
{
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->name, y->name, n) : 0;
    if (c)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

static int row_cmp(const void *a, const void *b)
{
    const fs_delta_row *x = a, *y = b;
    long double dx = fabsl(x->delta), dy = fabsl(y->delta);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return name_cmp(x, y);
}

/* A table of the names with a count on either side. */
static foldsvg_status make_table(const fs_tree *t, const uint64_t *before, const uint64_t *after,
                                 long double scale, uint64_t per_before, uint64_t per_after,
                                 fs_delta_table *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < t->nnames; i++)
        k += before[i] != 0 || after[i] != 0;
    out->rows = malloc((k ? k : 1) * sizeof *out->rows);
    if (!out->rows)
        return FOLDSVG_E_NOMEM;
    k = 0;
    for (uint32_t i = 0; i < t->nnames; i++) {
        if (!before[i] && !after[i])
            continue;
        out->only_before += after[i] == 0;
        out->only_after += before[i] == 0;
        fs_delta_row r = {t->name_ptr[i], t->name_len[i], before[i], after[i], 0, scale};
        r.delta = fs_delta_scaled(after[i], per_after) - fs_delta_before(&r, per_before);
        out->rows[k++] = r;
    }
    out->n = k;
    qsort(out->rows, k, sizeof *out->rows, row_cmp);
    return FOLDSVG_OK;
}

foldsvg_status fs_deltas_compute(const fs_tree *t, long double scale, uint64_t per_before,
                                 uint64_t per_after, fs_deltas *out)
{
    memset(out, 0, sizeof *out);
    out->scale = scale == 1 ? 0 : scale;
    out->total_before = t->total_before;
    out->total_after = t->total;
    out->per_before = per_before > 1 ? per_before : 1;
    out->per_after = per_after > 1 ? per_after : 1;
    out->unique = t->unique;
    size_t nn = t->nnames ? t->nnames : 1;
    uint64_t *sums = calloc(4 * nn, sizeof *sums);
    uint64_t *self_b = sums, *incl_b = sums + nn, *self_a = sums + 2 * nn, *incl_a = sums + 3 * nn;
    foldsvg_status st = sums ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    if (st == FOLDSVG_OK)
        st = fs_tree_function_sums(t, NULL, self_a, incl_a);
    if (st == FOLDSVG_OK && t->before)
        st = fs_tree_function_sums(t, t->before, self_b, incl_b);
    if (st == FOLDSVG_OK)
        st = make_table(t, self_b, self_a, out->scale, out->per_before, out->per_after, &out->self);
    if (st == FOLDSVG_OK)
        st = make_table(t, incl_b, incl_a, out->scale, out->per_before, out->per_after, &out->incl);
    free(sums);
    if (st)
        fs_deltas_free(out);
    return st;
}

void fs_deltas_free(fs_deltas *d)
{
    free(d->self.rows);
    free(d->incl.rows);
    memset(&d->self, 0, sizeof d->self);
    memset(&d->incl, 0, sizeof d->incl);
}
