/* Samples of the Firefox-Profiler reader, summed into per-stack accumulators as their
 * rows close, so nothing here grows with the number of samples: arrays that must be paired
 * with a later one (processed stack and weight columns, Gecko rows before their schema) are
 * read a second time instead of being kept (firefox_reread.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "parse/firefox_sax.h"
#include "util/tmpfile.h"

/* ---------------------------------------------------------------- sample rows */

/* A sample's stack cell as an index (-1: null, no stack); 0 when it is neither. */
static int stack_key(ff_cell c, int64_t *key)
{
    if (c.tag == FF_NULL)
        *key = -1;
    else if (c.tag == FF_INT && c.v.i >= 0)
        *key = c.v.i;
    else
        return 0;
    return 1;
}

int ff_sample_row(ff_parser *p, ff_thread *t, ff_cell stack, ff_cell cpu, uint64_t row)
{
    int64_t key;
    if (!stack_key(stack, &key))
        return ff_fail(p, FOLDSVG_E_PARSE,
                       "samples row %llu: the stack cell is not a stack index or null",
                       (unsigned long long)row);
    ff_acc *a = ff_agg_get(&t->agg, key, row);
    if (!a)
        return ff_nomem(p);
    a->n++;
    t->rows++;
    if (cpu.tag == FF_NULL)
        a->cpu_null++;
    else if ((cpu.tag != FF_INT && cpu.tag != FF_NUM) || !ff_acc_add(a, &cpu)) {
        /* Only an error if the weights are SP1 cycles, known at the end. */
        if (!t->cpu_bad_row)
            t->cpu_bad_row = row + 1;
    }
    return 1;
}

/* ---------------------------------------------------------------- second reads */

static uint64_t here(ff_parser *p)
{
    return p->base + yajl_get_bytes_consumed(p->h);
}

/* Raw text of the captured array from cap_pos up to decoded offset TO (in this block). */
int ff_spool_flush(ff_parser *p, uint64_t to)
{
    size_t from = (size_t)(p->cap_pos - p->base), n = (size_t)(to - p->cap_pos);
    if (n && fwrite(p->chunk + from, 1, n, p->spool_out) != n)
        return ff_fail(p, FOLDSVG_E_IO, "cannot write a temporary file: %s", strerror(errno));
    p->cap_pos = to;
    return 1;
}

/* An array that may be read again begins (its '[' was just parsed). SPOOL: it may really
 * be needed, so an input that cannot be read twice copies its text to a temporary file:
 * disk then grows with the samples, memory does not. */
int ff_region_begin(ff_parser *p, ff_region *r, int spool)
{
    ff_region_reset(r);
    r->present = 1;
    r->off = here(p) - 1;
    if (spool && !p->can_reread) {
        if (!(r->spool = fs_tmpfile()))
            return ff_fail(p, FOLDSVG_E_IO, "cannot create a temporary file: %s", strerror(errno));
        p->spool_out = r->spool;
        p->cap_pos = r->off;
    }
    return 1;
}

int ff_region_end(ff_parser *p, ff_region *r)
{
    if (!p->spool_out || p->spool_out != r->spool)
        return 1;
    int ok = ff_spool_flush(p, here(p));
    p->spool_out = NULL;
    return ok;
}

static int cursor_open(ff_parser *p, const ff_region *r, int rows, ff_cursor **out)
{
    foldsvg_error e;
    if (ff_cursor_open(out, p->rr, r, rows, p->file, &e))
        return ff_fail(p, e.code, "%s", e.message);
    return 1;
}

/* The next cell of cursor C: 1, 0 at its end, -1 on failure (already reported). */
static int cursor_next(ff_parser *p, ff_cursor *c, ff_cell *v)
{
    foldsvg_error e;
    int r = ff_cursor_next(c, v, &e);
    if (r < 0)
        ff_fail(p, e.code, "%s", e.message);
    return r;
}

/* Gecko rows that came before their schema, read again now that it is known. */
static int replay_rows(ff_parser *p, ff_thread *t)
{
    ff_table *s = &t->samples;
    if (s->schema[FF_C_STACK] == -1)
        return ff_fail(p, FOLDSVG_E_PARSE, "samples: the schema has no stack column");
    ff_cursor *c;
    if (!cursor_open(p, &t->rows_reg, 1, &c))
        return 0;
    int64_t ks = s->schema[FF_C_STACK], kc = s->schema[FF_C_CPU], k = 0;
    ff_cell nul = {.tag = FF_NULL}, stack = nul, cpu = nul, v;
    uint64_t row = 0;
    int r = 0, ok = 1;
    while (ok && (r = cursor_next(p, c, &v)) > 0) {
        if (v.tag == FF_ROWEND) {
            ok = ff_sample_row(p, t, stack, cpu, row++);
            stack = cpu = nul;
            k = 0;
        } else {
            if (k == ks)
                stack = v;
            else if (k == kc)
                cpu = v;
            k++;
        }
    }
    ff_cursor_close(c);
    return ok && r == 0;
}

static int is_number(ff_cell c)
{
    return c.tag == FF_INT || c.tag == FF_NUM;
}

/* The first problem with a weight, by index, as a walk in index order would meet it. */
static void weight_problem(ff_thread *t, uint64_t i, int overflow, int64_t stack)
{
    if (t->wprob && t->wprob <= i + 1)
        return;
    t->wprob = i + 1;
    t->wprob_overflow = overflow;
    t->wprob_stack = stack;
}

static void add_weight(ff_thread *t, ff_acc *a, ff_cell w, uint64_t i)
{
    if (!is_number(w))
        weight_problem(t, i, 0, a->key);
    else if (!ff_acc_add(a, &w))
        weight_problem(t, i, 1, a->key);
}

static int add_duration(ff_parser *p, ff_thread *t, int64_t key, ff_cell d, uint64_t i)
{
    ff_acc *a = ff_agg_get(&t->agg_dur, key, i);
    if (!a)
        return ff_nomem(p);
    a->n++;
    if ((!is_number(d) || !ff_acc_add(a, &d)) && !t->dbad)
        t->dbad = i + 1;
    return 1;
}

/* Entry I of a processed samples column. */
int ff_column_cell(ff_parser *p, ff_thread *t, int col, uint64_t i, ff_cell c)
{
    int k = col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
    t->pn[k]++;
    ff_cell pc;
    int got = 0;
    if (p->cur && (got = cursor_next(p, p->cur, &pc)) < 0)
        return 0;
    if (k == FF_P_STACK) {
        int64_t key;
        if (!stack_key(c, &key))
            return ff_fail(p, FOLDSVG_E_PARSE, "samples.stack[%llu] is not a stack index or null",
                           (unsigned long long)i);
        ff_acc *a = ff_agg_get(&t->agg, key, i);
        if (!a)
            return ff_nomem(p);
        a->n++;
        t->rows++;
        if (!got)
            return 1;
        if (p->cur_k == FF_P_WEIGHT) {
            add_weight(t, a, pc, i);
            return 1;
        }
        return add_duration(p, t, key, pc, i);
    }
    if (k == FF_P_WEIGHT && !is_number(c))
        weight_problem(t, i, 0, -1);
    if (!got)
        return 1;
    /* The stack array was checked on its first read: anything else means it changed. */
    if (pc.tag != FF_NULL && !(pc.tag == FF_INT && pc.v.i >= 0))
        return ff_fail(p, FOLDSVG_E_IO, "samples.stack[%llu] is not the same when read again",
                       (unsigned long long)i);
    int64_t key = pc.tag == FF_NULL ? -1 : pc.v.i;
    if (k == FF_P_WEIGHT) {
        ff_acc *a = ff_agg_get(&t->agg, key, i); /* there since the stack array */
        if (!a)
            return ff_nomem(p);
        add_weight(t, a, c, i);
        return 1;
    }
    return add_duration(p, t, key, c, i);
}

/* A processed samples column begins: pair it with an earlier one when it needs it. */
int ff_column_begin(ff_parser *p, ff_thread *t, int col)
{
    int k = col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
    if (t->pseen[k])
        return ff_fail(p, FOLDSVG_E_PARSE, "samples has more than one \"%s\" array",
                       ff_column_names[col]);
    t->pseen[k] = 1;
    t->pn[k] = 0;
    if (k == FF_P_STACK)
        t->has_stack_col = 1;
    else if (k == FF_P_WEIGHT)
        t->has_weight_array = 1;
    else
        t->has_duration_array = 1;
    /* The weights decide when they exist; durations only without them. So the stack is
     * needed again unless the weights came first, and the weights or durations when the
     * stack has not come yet (durations: nor weights). */
    int pw = t->pseen[FF_P_WEIGHT] && k != FF_P_WEIGHT;
    int later = k == FF_P_STACK ? !pw : !t->pseen[FF_P_STACK] && (k == FF_P_WEIGHT || !pw);
    if (!ff_region_begin(p, &t->preg[k], later))
        return 0;
    int partner = -1;
    if (k == FF_P_STACK)
        partner = pw ? FF_P_WEIGHT : t->pseen[FF_P_DUR] ? FF_P_DUR : -1;
    else if (t->pseen[FF_P_STACK] && (k == FF_P_WEIGHT || !pw))
        partner = FF_P_STACK;
    if (partner >= 0 && !cursor_open(p, &t->preg[partner], 0, &p->cur))
        return 0;
    p->cur_k = partner;
    return 1;
}

int ff_column_end(ff_parser *p, ff_thread *t, int col)
{
    int k = col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
    ff_cursor_close(p->cur);
    p->cur = NULL;
    return ff_region_end(p, &t->preg[k]);
}

void ff_samples_reset(ff_thread *t)
{
    for (int k = 0; k < FF_NP; k++) {
        t->pseen[k] = 0;
        t->pn[k] = 0;
        ff_region_reset(&t->preg[k]);
    }
    t->wprob = 0;
    t->dbad = 0;
    ff_region_reset(&t->rows_reg);
}

/* The samples object ended: sum the rows that came before their schema, and report what
 * the pairing of processed columns found. */
int ff_samples_end(ff_parser *p, ff_thread *t)
{
    int ok = 1;
    if (t->rows_reg.present)
        ok = replay_rows(p, t);
    if (ok && t->pseen[FF_P_STACK]) {
        uint64_t ns = t->pn[FF_P_STACK];
        if (t->pseen[FF_P_WEIGHT]) {
            if (t->pn[FF_P_WEIGHT] != ns)
                ok = ff_fail(p, FOLDSVG_E_PARSE,
                             "samples.weight has %llu entries but samples.stack %llu",
                             (unsigned long long)t->pn[FF_P_WEIGHT], (unsigned long long)ns);
            else if (t->wprob && !t->wprob_overflow)
                ok = ff_fail(p, FOLDSVG_E_PARSE, "samples.weight[%llu] is not a number",
                             (unsigned long long)(t->wprob - 1));
            else if (t->wprob)
                ok = ff_fail(p, FOLDSVG_E_OVERFLOW,
                             "samples.weight: the weights of stack %lld overflow 64 bits",
                             (long long)t->wprob_stack);
        } else if (t->pseen[FF_P_DUR]) {
            /* Durations of another length are ignored, as if they were not there. */
            if (t->pn[FF_P_DUR] != ns)
                ff_agg_free(&t->agg_dur);
            else if (t->dbad)
                ok = ff_fail(p, FOLDSVG_E_PARSE, "samples.duration[%llu] is not a number",
                             (unsigned long long)(t->dbad - 1));
        }
    }
    ff_samples_reset(t);
    return ok;
}
