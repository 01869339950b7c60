#include "formats/firefox/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

const char *const ff_column_names[FF_NCOLS] = {
    "prefix", "frame", "prefixOffset",   "location", "func",
    "name",   "stack", "threadCPUDelta", "weight",   "duration"};

int ff_column_id(const char *name, size_t len)
{
    for (int i = 0; i < FF_NCOLS; i++)
        if (strlen(ff_column_names[i]) == len && memcmp(ff_column_names[i], name, len) == 0)
            return i;
    return -1;
}

foldsvg_status ff_cells_push(ff_cells *c, fs_json_value v)
{
    FS_FORWARD_IF_ERROR(FS_GROW(c->a, c->cap, c->n + 1, 16));
    c->a[c->n++] = v;
    return FOLDSVG_OK;
}

/* ---------------------------------------------------------------- strings */

foldsvg_status ff_strings_push(ff_strings *s, const char *str, size_t len, int is_string)
{
    FS_FORWARD_IF_ERROR(FS_GROW(s->off, s->ncap, s->n + 2, 16));
    FS_FORWARD_IF_ERROR(FS_GROW(s->buf, s->cap, s->len + len, 16));
    if (len)
        memcpy(s->buf + s->len, str, len);
    if (s->n == 0)
        s->off[0] = 0;
    s->off[s->n] |= is_string ? 0 : FF_NOTSTR;
    s->len += len;
    s->off[s->n + 1] = s->len;
    s->n++;
    return FOLDSVG_OK;
}

int ff_strings_get(const ff_strings *s, int64_t i, const char **ptr, size_t *len)
{
    if (i < 0 || (uint64_t)i >= s->n)
        return 0;
    if (s->off[i] & FF_NOTSTR)
        return -1;
    uint64_t a = s->off[i], b = s->off[i + 1] & ~FF_NOTSTR;
    *ptr = s->buf ? s->buf + a : "";
    *len = (size_t)(b - a);
    return 1;
}

static void strings_trim(ff_strings *s)
{
    fs_trim(&s->buf, &s->cap, s->len, 1);
    fs_trim(&s->off, &s->ncap, s->n ? s->n + 1 : 0, sizeof *s->off);
}

void ff_strings_free(ff_strings *s)
{
    free(s->buf);
    free(s->off);
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- tables */

void ff_table_init(ff_table *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < FF_NCOLS; i++)
        t->schema[i] = -1;
}

void ff_table_free(ff_table *t)
{
    free(t->cells.a);
    free(t->rowstart);
    for (size_t i = 0; i < t->ncols; i++)
        free(t->cols[i].cells.a);
    free(t->cols);
    ff_table_init(t);
}

static void table_trim(ff_table *t)
{
    fs_trim(&t->cells.a, &t->cells.cap, t->cells.n, sizeof *t->cells.a);
    fs_trim(&t->rowstart, &t->rcap, t->compact || !t->nrows ? 0 : t->nrows + 1,
            sizeof *t->rowstart);
    for (size_t i = 0; i < t->ncols; i++) {
        ff_cells *c = &t->cols[i].cells;
        fs_trim(&c->a, &c->cap, c->n, sizeof *c->a);
    }
}

static const ff_column *find_col(const ff_table *t, int col)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (t->cols[i].id == col)
            return &t->cols[i];
    return NULL;
}

int ff_table_has_col(const ff_table *t, int col)
{
    return find_col(t, col) != NULL;
}

const ff_cells *ff_table_col(const ff_table *t, int col)
{
    static const ff_cells none = {NULL, 0, 0};
    const ff_column *c = find_col(t, col);
    return c ? &c->cells : &none;
}

foldsvg_status ff_table_col_begin(ff_table *t, int col)
{
    const ff_column *c = find_col(t, col);
    if (!c) {
        /* Grown one by one: a table has a few columns (ids are distinct, so at most
         * FF_NCOLS). */
        FS_FORWARD_IF_ERROR(fs_resize(&t->cols, t->ncols + 1u, sizeof *t->cols));
        t->cols[t->ncols] = (ff_column){col, {NULL, 0, 0}};
        c = &t->cols[t->ncols++];
    }
    t->curcol = (uint8_t)(c - t->cols);
    t->cols[t->curcol].cells.n = 0;
    return FOLDSVG_OK;
}

foldsvg_status ff_table_col_push(ff_table *t, fs_json_value v)
{
    return ff_cells_push(&t->cols[t->curcol].cells, v);
}

void ff_table_data_begin(ff_table *t, const int *wanted, int nwanted)
{
    t->has_data = 1;
    /* A second "data" key would be odd; the last one wins, as in a JSON object. */
    t->cells.n = 0;
    t->nrows = 0;
    t->compact = t->has_schema && t->cells.n == 0;
    t->nkeep = 0;
    if (t->compact)
        for (int i = 0; i < nwanted; i++)
            t->keep[t->nkeep++] = (uint8_t)wanted[i];
}

foldsvg_status ff_table_row_begin(ff_table *t)
{
    if (t->compact) {
        fs_json_value nul = {.tag = FS_JSON_NULL};
        for (int i = 0; i < t->nkeep; i++)
            FS_FORWARD_IF_ERROR(ff_cells_push(&t->cells, nul));
        return FOLDSVG_OK;
    }
    FS_FORWARD_IF_ERROR(FS_GROW(t->rowstart, t->rcap, t->nrows + 2, 16));
    t->rowstart[t->nrows] = t->cells.n;
    return FOLDSVG_OK;
}

foldsvg_status ff_table_row_cell(ff_table *t, size_t k, fs_json_value v)
{
    if (t->compact) {
        fs_json_value *row = t->cells.a + t->cells.n - (size_t)t->nkeep;
        for (int i = 0; i < t->nkeep; i++)
            if (t->schema[t->keep[i]] == (int64_t)k)
                row[i] = v;
        return FOLDSVG_OK;
    }
    return ff_cells_push(&t->cells, v);
}

void ff_table_row_end(ff_table *t)
{
    t->nrows++;
    if (!t->compact)
        t->rowstart[t->nrows] = t->cells.n;
}

size_t ff_table_rows(const ff_table *t)
{
    return t->nrows;
}

fs_json_value ff_table_cell(const ff_table *t, size_t r, int col)
{
    fs_json_value nul = {.tag = FS_JSON_NULL};
    int64_t k = t->schema[col];
    if (k < 0 || r >= t->nrows)
        return nul;
    if (t->compact) {
        for (int i = 0; i < t->nkeep; i++)
            if (t->keep[i] == col)
                return t->cells.a[r * (size_t)t->nkeep + (size_t)i];
        return nul;
    }
    size_t a = t->rowstart[r], b = t->rowstart[r + 1];
    if ((uint64_t)k >= b - a)
        return nul;
    return t->cells.a[a + (size_t)k];
}

/* ---------------------------------------------------------------- sample sums */

#define FF_EMPTY INT64_MIN

foldsvg_status ff_agg_get(ff_agg *g, int64_t key, uint64_t row, ff_acc **out)
{
    if (g->last && g->last->key == key) {
        *out = g->last;
        return FOLDSVG_OK;
    }
    if ((g->count + 1) * 4 > g->cap * 3) {
        size_t nc = g->cap ? g->cap * 2 : 4;
        ff_acc *ns = malloc(nc * sizeof *ns);
        if (!ns)
            return FOLDSVG_E_NOMEM;
        for (size_t i = 0; i < nc; i++)
            ns[i].key = FF_EMPTY;
        for (size_t i = 0; i < g->cap; i++) {
            if (g->slots[i].key == FF_EMPTY)
                continue;
            size_t h = ff_agg_hash(g->slots[i].key) & (nc - 1);
            while (ns[h].key != FF_EMPTY)
                h = (h + 1) & (nc - 1);
            ns[h] = g->slots[i];
        }
        free(g->slots);
        g->slots = ns;
        g->cap = nc;
    }
    size_t h = ff_agg_hash(key) & (g->cap - 1);
    while (g->slots[h].key != FF_EMPTY && g->slots[h].key != key)
        h = (h + 1) & (g->cap - 1);
    ff_acc *a = &g->slots[h];
    if (a->key == FF_EMPTY) {
        memset(a, 0, sizeof *a);
        a->key = key;
        a->first_row = row;
        g->count++;
    }
    g->last = a;
    *out = a;
    return FOLDSVG_OK;
}

const ff_acc *ff_agg_find(const ff_agg *g, int64_t key)
{
    if (!g->cap)
        return NULL;
    size_t h = ff_agg_hash(key) & (g->cap - 1);
    while (g->slots[h].key != FF_EMPTY && g->slots[h].key != key)
        h = (h + 1) & (g->cap - 1);
    return g->slots[h].key == key ? &g->slots[h] : NULL;
}

void ff_runs_free(ff_runs *r)
{
    if (!r)
        return;
    free(r->a);
    free(r->dur);
    free(r);
}

void ff_agg_free(ff_agg *g)
{
    free(g->slots);
    memset(g, 0, sizeof *g);
}

foldsvg_status ff_acc_add(ff_acc *a, const fs_json_value *w)
{
    if (w->tag == FS_JSON_INT) {
        int64_t v = w->v.i;
        if (!ff_int_add_ok(a->wint, v))
            return FOLDSVG_E_OVERFLOW;
        a->wint += v;
        return FOLDSVG_OK;
    }
    double d = w->v.d;
    if (!isfinite(d) || d >= 9.2e18 || d <= -9.2e18)
        return FOLDSVG_E_OVERFLOW;
    double ip = floor(d);
    double fr = d - ip; /* exact: both parts of a double are doubles */
    int64_t v = (int64_t)ip;
    if (!ff_int_add_ok(a->wint, v))
        return FOLDSVG_E_OVERFLOW;
    a->wint += v;
    if (fr != 0.0) {
        /* Neumaier: the error of each addition is kept in flo, so the half-up rounding at
         * the end sees the sum far more exactly than a plain double sum would. */
        double t = a->fhi + fr;
        if (fabs(a->fhi) >= fr)
            a->flo += (a->fhi - t) + fr;
        else
            a->flo += (fr - t) + a->fhi;
        a->fhi = t;
    }
    return FOLDSVG_OK;
}

/* ---------------------------------------------------------------- profiles */

ff_profile *ff_profile_new(ff_profile *parent)
{
    ff_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->parent = parent;
    ff_table_init(&p->shared_stack);
    ff_table_init(&p->shared_frame);
    ff_table_init(&p->shared_func);
    return p;
}

ff_thread *ff_thread_new(ff_profile *p)
{
    ff_thread *t = calloc(1, sizeof *t);
    if (t && !(t->tab = calloc(1, sizeof *t->tab))) {
        free(t);
        t = NULL;
    }
    if (!t)
        return NULL;
    ff_table_init(&t->tab->stack);
    ff_table_init(&t->tab->frame);
    ff_table_init(&t->tab->func);
    ff_table_init(&t->tab->samples);
    if (p->threads_tail)
        p->threads_tail->next = t;
    else
        p->threads = t;
    p->threads_tail = t;
    return t;
}

void ff_thread_trim(ff_thread *t)
{
    if (!t->tab)
        return;
    strings_trim(&t->tab->strings);
    table_trim(&t->tab->stack);
    table_trim(&t->tab->frame);
    table_trim(&t->tab->func);
    table_trim(&t->tab->samples);
}

foldsvg_status ff_profile_add_sub(ff_profile ***v, size_t *n, size_t *cap, ff_profile *sub)
{
    FS_FORWARD_IF_ERROR(fs_grow(v, cap, *n + 1, sizeof **v, 16));
    (*v)[(*n)++] = sub;
    return FOLDSVG_OK;
}

void ff_thread_tables_free(ff_thread *t)
{
    if (!t->tab)
        return;
    ff_strings_free(&t->tab->strings);
    ff_table_free(&t->tab->stack);
    ff_table_free(&t->tab->frame);
    ff_table_free(&t->tab->func);
    ff_table_free(&t->tab->samples);
    for (int i = 0; i < FF_NP; i++)
        fs_json_region_reset(&t->tab->preg[i]);
    fs_json_region_reset(&t->tab->rows_reg);
    ff_agg_free(&t->tab->agg_dur);
    free(t->tab->weight_type);
    free(t->tab);
    t->tab = NULL;
}

static void thread_free(ff_thread *t)
{
    free(t->name);
    free(t->process);
    ff_thread_tables_free(t);
    ff_agg_free(&t->agg);
    free(t->nodes);
    ff_runs_free(t->runs);
    free(t);
}

void ff_profile_free(ff_profile *root)
{
    /* Sub-profiles nest as deep as the data says: free through an explicit list. */
    ff_profile **todo = NULL;
    size_t n = 0, cap = 0;
    ff_profile *p = root;
    while (p) {
        foldsvg_status st = FOLDSVG_OK;
        for (size_t i = 0; i < p->nstr && !st; i++)
            st = ff_profile_add_sub(&todo, &n, &cap, p->str_subs[i]);
        for (size_t i = 0; i < p->nproc && !st; i++)
            st = ff_profile_add_sub(&todo, &n, &cap, p->proc_subs[i]);
        if (!st && p->wrapped)
            st = ff_profile_add_sub(&todo, &n, &cap, p->wrapped);
        /* Out of memory here only leaks; freeing must not fail. */
        for (ff_thread *t = p->threads, *nx; t; t = nx) {
            nx = t->next;
            thread_free(t);
        }
        ff_strings_free(&p->shared_strings);
        ff_table_free(&p->shared_stack);
        ff_table_free(&p->shared_frame);
        ff_table_free(&p->shared_func);
        free(p->str_subs);
        free(p->proc_subs);
        free(p->json);
        free(p);
        p = n ? todo[--n] : NULL;
    }
    free(todo);
}
