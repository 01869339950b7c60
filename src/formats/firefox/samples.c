/* Samples of the Firefox-Profiler reader, summed into per-stack accumulators as their
 * rows close, so nothing here grows with the number of samples: arrays that must be paired
 * with a later one (processed stack and weight columns, Gecko rows before their schema) are
 * read a second time instead of being kept (formats/json/reread.h). Failures are recorded in
 * the parse (fs_json_fail) and returned. */
#include "formats/firefox/samples.h"

#include <string.h>

#include "formats/firefox/order.h"

/* A sample's stack cell as an index (-1: null, no stack); 0 when it is neither. */
static int stack_key(fs_json_value c, int64_t *key)
{
    if (c.tag == FS_JSON_NULL)
        *key = -1;
    else if (c.tag == FS_JSON_INT && c.v.i >= 0)
        *key = c.v.i;
    else
        return 0;
    return 1;
}

static int is_number(fs_json_value c)
{
    return c.tag == FS_JSON_INT || c.tag == FS_JSON_NUM;
}

/* The accumulator of KEY in G. */
static foldsvg_status acc(ff_parser *p, ff_agg *g, int64_t key, uint64_t row, ff_acc **a)
{
    return ff_agg_get(g, key, row, a) == FOLDSVG_OK ? FOLDSVG_OK : fs_json_nomem(&p->j);
}

/* The ordered mode's bookkeeping: only an allocation can fail. */
static foldsvg_status ordered(ff_parser *p, foldsvg_status st)
{
    return st == FOLDSVG_OK ? FOLDSVG_OK : fs_json_nomem(&p->j);
}

/* ---------------------------------------------------------------- sample rows */

foldsvg_status ff_sample_row(ff_parser *p, ff_thread *t, fs_json_value stack, fs_json_value cpu,
                             uint64_t row)
{
    int64_t key;
    if (!stack_key(stack, &key))
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE,
                            "samples row %llu: the stack cell is not a stack index or null",
                            (unsigned long long)row);
    ff_acc *a;
    FS_FORWARD_IF_ERROR(acc(p, &t->agg, key, row, &a));
    if (p->ordered) {
        FS_FORWARD_IF_ERROR(ordered(p, ff_order_stack(t, key, row)));
        ff_order_cpu(t, cpu);
    }
    a->n++;
    t->rows++;
    if (cpu.tag == FS_JSON_NULL)
        a->cpu_null++;
    else if (!is_number(cpu) || ff_acc_add(a, &cpu) != FOLDSVG_OK) {
        /* Only an error if the weights are SP1 cycles, known at the end. */
        if (!t->cpu_bad_row)
            t->cpu_bad_row = row + 1;
    }
    return FOLDSVG_OK;
}

foldsvg_status ff_sample_run(ff_parser *p, ff_thread *t, int64_t key, uint64_t n, int64_t w)
{
    ff_acc *a;
    FS_FORWARD_IF_ERROR(acc(p, &t->agg, key, t->rows, &a));
    if (p->ordered) {
        FS_FORWARD_IF_ERROR(ordered(p, ff_order_stack(t, key, t->rows)));
        ff_acc *run = &t->runs->a[t->runs->n - 1];
        run->n += n - 1;
        run->wint += w;
    }
    a->n += n;
    a->wint += w;
    t->rows += n;
    return FOLDSVG_OK;
}

/* ---------------------------------------------------------------- second reads */

static foldsvg_status cursor_open(ff_parser *p, const fs_json_region *r, int rows,
                                  fs_json_cursor **out)
{
    foldsvg_error e;
    if (fs_json_cursor_open(out, p->rr, r, rows, p->file, &e) != FOLDSVG_OK)
        return fs_json_fail(&p->j, e.code, "%s", e.message);
    return FOLDSVG_OK;
}

/* The next value of cursor C: *GOT 1 and *V, or 0 at its end. */
static foldsvg_status cursor_next(ff_parser *p, fs_json_cursor *c, fs_json_value *v, int *got)
{
    foldsvg_error e;
    if (fs_json_cursor_next(c, v, got, &e) != FOLDSVG_OK)
        return fs_json_fail(&p->j, e.code, "%s", e.message);
    return FOLDSVG_OK;
}

/* Gecko rows that came before their schema, read again now that it is known. */
static foldsvg_status replay_rows(ff_parser *p, ff_thread *t)
{
    ff_table *s = &t->tab->samples;
    if (s->schema[FF_C_STACK] == -1)
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "samples: the schema has no stack column");
    fs_json_cursor *c;
    FS_FORWARD_IF_ERROR(cursor_open(p, &t->tab->rows_reg, 1, &c));
    int64_t ks = s->schema[FF_C_STACK], kc = s->schema[FF_C_CPU], k = 0;
    fs_json_value nul = {.tag = FS_JSON_NULL}, stack = nul, cpu = nul, v;
    uint64_t row = 0;
    int got = 1;
    foldsvg_status st = FOLDSVG_OK;
    while (st == FOLDSVG_OK && (st = cursor_next(p, c, &v, &got)) == FOLDSVG_OK && got) {
        if (v.tag == FS_JSON_ROWEND) {
            st = ff_sample_row(p, t, stack, cpu, row++);
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
    fs_json_cursor_close(c);
    return st;
}

/* The first problem with a weight, by index, as a walk in index order would meet it. */
static void weight_problem(ff_thread *t, uint64_t i, int overflow, int64_t stack)
{
    if (t->tab->wprob && t->tab->wprob <= i + 1)
        return;
    t->tab->wprob = i + 1;
    t->tab->wprob_overflow = overflow;
    t->tab->wprob_stack = stack;
}

static void add_weight(ff_parser *p, ff_thread *t, ff_acc *a, fs_json_value w, uint64_t i)
{
    if (p->ordered)
        ff_order_weight(t, i, w);
    if (!is_number(w))
        weight_problem(t, i, 0, a->key);
    else if (ff_acc_add(a, &w) != FOLDSVG_OK)
        weight_problem(t, i, 1, a->key);
}

static foldsvg_status add_duration(ff_parser *p, ff_thread *t, int64_t key, fs_json_value d,
                                   uint64_t i)
{
    ff_acc *a;
    FS_FORWARD_IF_ERROR(acc(p, &t->tab->agg_dur, key, i, &a));
    if (p->ordered)
        FS_FORWARD_IF_ERROR(ordered(p, ff_order_duration(t, i, d)));
    a->n++;
    if ((!is_number(d) || ff_acc_add(a, &d) != FOLDSVG_OK) && !t->tab->dbad)
        t->tab->dbad = i + 1;
    return FOLDSVG_OK;
}

static int column_kind(int col)
{
    return col == FF_C_STACK ? FF_P_STACK : col == FF_C_WEIGHT ? FF_P_WEIGHT : FF_P_DUR;
}

foldsvg_status ff_column_cell(ff_parser *p, ff_thread *t, int col, uint64_t i, fs_json_value c)
{
    int k = column_kind(col);
    t->tab->pn[k]++;
    fs_json_value pc;
    int got = 0;
    if (p->cur)
        FS_FORWARD_IF_ERROR(cursor_next(p, p->cur, &pc, &got));
    if (k == FF_P_STACK) {
        int64_t key;
        if (!stack_key(c, &key))
            return fs_json_fail(&p->j, FOLDSVG_E_PARSE,
                                "samples.stack[%llu] is not a stack index or null",
                                (unsigned long long)i);
        ff_acc *a;
        FS_FORWARD_IF_ERROR(acc(p, &t->agg, key, i, &a));
        if (p->ordered)
            FS_FORWARD_IF_ERROR(ordered(p, ff_order_stack(t, key, i)));
        a->n++;
        t->rows++;
        if (!got)
            return FOLDSVG_OK;
        if (p->cur_k == FF_P_WEIGHT) {
            add_weight(p, t, a, pc, i);
            return FOLDSVG_OK;
        }
        return add_duration(p, t, key, pc, i);
    }
    if (k == FF_P_WEIGHT && !is_number(c))
        weight_problem(t, i, 0, -1);
    if (!got)
        return FOLDSVG_OK;
    /* The stack array was checked on its first read: anything else means it changed. */
    if (pc.tag != FS_JSON_NULL && !(pc.tag == FS_JSON_INT && pc.v.i >= 0))
        return fs_json_fail(&p->j, FOLDSVG_E_IO,
                            "samples.stack[%llu] is not the same when read again",
                            (unsigned long long)i);
    int64_t key = pc.tag == FS_JSON_NULL ? -1 : pc.v.i;
    if (k == FF_P_WEIGHT) {
        ff_acc *a;
        FS_FORWARD_IF_ERROR(acc(p, &t->agg, key, i, &a)); /* there since the stack array */
        add_weight(p, t, a, c, i);
        return FOLDSVG_OK;
    }
    return add_duration(p, t, key, c, i);
}

foldsvg_status ff_column_begin(ff_parser *p, ff_thread *t, int col)
{
    int k = column_kind(col);
    if (t->tab->pseen[k])
        return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "samples has more than one \"%s\" array",
                            ff_column_names[col]);
    t->tab->pseen[k] = 1;
    t->tab->pn[k] = 0;
    ff_order_column_begin(t);
    if (k == FF_P_STACK)
        t->tab->has_stack_col = 1;
    else if (k == FF_P_WEIGHT)
        t->tab->has_weight_array = 1;
    else
        t->tab->has_duration_array = 1;
    /* The weights decide when they exist; durations only without them. So the stack is
     * needed again unless the weights came first, and the weights or durations when the
     * stack has not come yet (durations: nor weights). */
    int pw = t->tab->pseen[FF_P_WEIGHT] && k != FF_P_WEIGHT;
    int later = k == FF_P_STACK ? !pw : !t->tab->pseen[FF_P_STACK] && (k == FF_P_WEIGHT || !pw);
    FS_FORWARD_IF_ERROR(fs_json_region_begin(&p->j, &t->tab->preg[k], later, p->can_reread));
    int partner = -1;
    if (k == FF_P_STACK)
        partner = pw ? FF_P_WEIGHT : t->tab->pseen[FF_P_DUR] ? FF_P_DUR : -1;
    else if (t->tab->pseen[FF_P_STACK] && (k == FF_P_WEIGHT || !pw))
        partner = FF_P_STACK;
    if (partner >= 0)
        FS_FORWARD_IF_ERROR(cursor_open(p, &t->tab->preg[partner], 0, &p->cur));
    p->cur_k = partner;
    return FOLDSVG_OK;
}

foldsvg_status ff_column_end(ff_parser *p, ff_thread *t, int col)
{
    fs_json_cursor_close(p->cur);
    p->cur = NULL;
    return fs_json_region_end(&p->j, &t->tab->preg[column_kind(col)]);
}

void ff_samples_reset(ff_thread *t)
{
    ff_order_samples_begin(t);
    for (int k = 0; k < FF_NP; k++) {
        t->tab->pseen[k] = 0;
        t->tab->pn[k] = 0;
        fs_json_region_reset(&t->tab->preg[k]);
    }
    t->tab->wprob = 0;
    t->tab->dbad = 0;
    fs_json_region_reset(&t->tab->rows_reg);
}

/* What pairing the processed columns found, reported now that the samples object is
 * whole. */
static foldsvg_status check_columns(ff_parser *p, ff_thread *t)
{
    uint64_t ns = t->tab->pn[FF_P_STACK];
    if (t->tab->pseen[FF_P_WEIGHT]) {
        if (t->tab->pn[FF_P_WEIGHT] != ns)
            return fs_json_fail(
                &p->j, FOLDSVG_E_PARSE, "samples.weight has %llu entries but samples.stack %llu",
                (unsigned long long)t->tab->pn[FF_P_WEIGHT], (unsigned long long)ns);
        if (t->tab->wprob && !t->tab->wprob_overflow)
            return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "samples.weight[%llu] is not a number",
                                (unsigned long long)(t->tab->wprob - 1));
        if (t->tab->wprob)
            return fs_json_fail(&p->j, FOLDSVG_E_OVERFLOW,
                                "samples.weight: the weights of stack %lld overflow 64 bits",
                                (long long)t->tab->wprob_stack);
    } else if (t->tab->pseen[FF_P_DUR]) {
        /* Durations of another length are ignored, as if they were not there. */
        if (t->tab->pn[FF_P_DUR] != ns)
            ff_agg_free(&t->tab->agg_dur);
        else if (t->tab->dbad)
            return fs_json_fail(&p->j, FOLDSVG_E_PARSE, "samples.duration[%llu] is not a number",
                                (unsigned long long)(t->tab->dbad - 1));
    }
    return FOLDSVG_OK;
}

foldsvg_status ff_samples_end(ff_parser *p, ff_thread *t)
{
    foldsvg_status st = FOLDSVG_OK;
    if (t->tab->rows_reg.present)
        st = replay_rows(p, t);
    if (st == FOLDSVG_OK && t->tab->pseen[FF_P_STACK])
        st = check_columns(p, t);
    ff_samples_reset(t);
    return st;
}
