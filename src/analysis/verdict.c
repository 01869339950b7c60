#include "analysis/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/summary.h"
#include "analysis/textout.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/numfmt.h"

/* How much a report shows. Markdown over its limit is written again at the next level. */
typedef struct level {
    size_t rows;       /* per delta table at most; 0: no tables */
    size_t names;      /* bytes of a name shown (fs_text_elide) */
    size_t others;     /* new and vanished functions listed at most */
    int findings;      /* the findings are listed */
    size_t thresholds; /* thresholds listed at most, the broken first */
} level;

#define ALL SIZE_MAX

/* Each table row takes 20 bytes at least: more than 3,000 cannot fit 65,000. */
static const level levels[] = {
    {3000, 100, 25, 1, ALL}, {1000, 100, 25, 1, ALL}, {300, 100, 25, 1, ALL}, {100, 80, 25, 1, ALL},
    {50, 80, 10, 1, ALL},    {25, 80, 10, 1, ALL},    {10, 60, 5, 1, ALL},    {5, 40, 3, 0, 200},
    {0, 40, 0, 0, 50},       {0, 40, 0, 0, 0},
};
#define NLEVELS (sizeof levels / sizeof levels[0])
static const level whole = {ALL, 0, ALL, 1, ALL};

typedef struct ctx {
    const fs_verdict_in *in;
    level lv;
    int cut; /* a level past the first: the report says what it left out */
    size_t limit;
    fs_buf scratch;
} ctx;

const char *fs_verdict_word(const fs_gate *g)
{
    if (!g || g->n == 0)
        return "none";
    return g->broken ? "failed" : "passed";
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static void nomem(fs_textout *o)
{
    o->failed = 1;
    o->errnum = ENOMEM;
}

/* NAME shortened to the level's bytes, as a Markdown code span (CELL: in a table). */
static void md_name(ctx *c, fs_textout *o, const char *name, size_t n, int cell)
{
    fs_buf_clear(&c->scratch);
    if (fs_text_elide(name, n, c->lv.names, &c->scratch) != FOLDSVG_OK) {
        nomem(o);
        return;
    }
    const char *s = c->scratch.data ? c->scratch.data : "";
    if (cell)
        fs_text_md_code(o, s, c->scratch.len);
    else
        fs_text_md_code_inline(o, s, c->scratch.len);
}

/* ---- the verdict line ------------------------------------------------------------------- */

static void verdict_line(ctx *c, fs_textout *o)
{
    const fs_verdict_in *in = c->in;
    const fs_deltas *d = in->d;
    const fs_gate *g = in->gate;
    int md = in->format == FOLDSVG_TOP_MARKDOWN;
    size_t n = g ? g->n : 0, broken = g ? g->broken : 0;
    fs_delta_row tot = fs_delta_totals(d);
    fs_delta_cells x;
    fs_delta_format_row(&tot, d, &x);
    const char *per = d->per_before > 1 || d->per_after > 1 ? " per iteration" : "";
    const char *arrow = md ? "\u2192" : "->";
    if (md)
        fs_text_puts(o, n == 0   ? "### foldsvg: "
                        : broken ? "### \u274c foldsvg: "
                                 : "### \u2705 foldsvg: ");
    else
        fs_text_puts(o, "Verdict: ");
    if (n == 0)
        fs_text_puts(o, "no thresholds set");
    else if (broken)
        fs_text_printf(o, "failed, %zu of %zu threshold%s broken", broken, n, n == 1 ? "" : "s");
    else
        fs_text_printf(o, "passed, %s%zu threshold%s hold%s", n == 1 ? "" : "all ", n,
                       n == 1 ? "" : "s", n == 1 ? "s" : "");
    fs_text_printf(o, "%s %s %s %s %s%s (%s, %s)\n", md ? " \u00b7" : ";", x.before, arrow, x.after,
                   in->unit, per, x.delta, x.change);
}

/* ---- thresholds ----------------------------------------------------------------------- */

/* The thresholds listed at this level: all in order, or the broken first. */
static size_t listed(const ctx *c, size_t *order)
{
    const fs_gate *g = c->in->gate;
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < g->n; i++)
            if (c->lv.thresholds == ALL ? pass == 0 : (pass == 0) == (g->v[i].broken != 0))
                order[k++] = i;
    return min_size(k, c->lv.thresholds);
}

static void text_thresholds(ctx *c, fs_textout *o, const size_t *order, size_t shown)
{
    const fs_gate *g = c->in->gate;
    fs_text_printf(o, "\nThresholds (%zu of %zu broken):\n", g->broken, g->n);
    for (size_t k = 0; k < shown; k++) {
        const fs_gate_result *r = &g->v[order[k]];
        fs_buf_clear(&c->scratch);
        if (fs_gate_describe(r, c->in->d, c->in->unit, 0, 1, &c->scratch) != FOLDSVG_OK) {
            nomem(o);
            return;
        }
        fs_text_printf(o, "- %s: %s: ", r->broken ? "broken" : "holds", r->expr);
        fs_text_put(o, c->scratch.data, c->scratch.len);
        fs_text_puts(o, "\n");
    }
}

static void md_thresholds(ctx *c, fs_textout *o, const size_t *order, size_t shown)
{
    const fs_gate *g = c->in->gate;
    fs_text_puts(o, "\n| | Threshold | Measured |\n|:---:|:---|:---|\n");
    fs_buf numbers = {0};
    for (size_t k = 0; k < shown && !o->failed; k++) {
        const fs_gate_result *r = &g->v[order[k]];
        fs_text_printf(o, "| %s | ", r->broken ? "\u274c" : "\u2705");
        md_name(c, o, r->expr, strlen(r->expr), 1);
        fs_text_puts(o, " | ");
        if (r->measured && r->rule.measure != FS_GATE_TOTAL) {
            md_name(c, o, r->row.name, r->row.len, 1);
            fs_text_puts(o, ": ");
        }
        fs_buf_clear(&numbers);
        if (fs_gate_describe(r, c->in->d, c->in->unit, 0, 0, &numbers) != FOLDSVG_OK)
            nomem(o);
        else
            fs_text_put(o, numbers.data, numbers.len);
        fs_text_puts(o, " |\n");
    }
    fs_buf_free(&numbers);
}

static void thresholds(ctx *c, fs_textout *o)
{
    const fs_gate *g = c->in->gate;
    if (!g || g->n == 0 || c->lv.thresholds == 0) {
        if (g && g->n)
            fs_text_printf(o,
                           "\n%s%zu thresholds, %zu broken: each is a line of the job's log "
                           "(foldsvg's standard error).%s\n",
                           c->in->format == FOLDSVG_TOP_MARKDOWN ? "*" : "", g->n, g->broken,
                           c->in->format == FOLDSVG_TOP_MARKDOWN ? "*" : "");
        return;
    }
    size_t *order = malloc(g->n * sizeof *order);
    if (!order) {
        nomem(o);
        return;
    }
    size_t shown = listed(c, order);
    if (c->in->format == FOLDSVG_TOP_MARKDOWN)
        md_thresholds(c, o, order, shown);
    else
        text_thresholds(c, o, order, shown);
    if (shown < g->n) {
        size_t broken_left = 0;
        for (size_t k = shown; k < g->n; k++)
            broken_left += g->v[order[k]].broken != 0;
        fs_text_printf(o, "%s... and %zu more (%zu broken)\n",
                       c->in->format == FOLDSVG_TOP_MARKDOWN ? "\n" : "", g->n - shown,
                       broken_left);
    }
    free(order);
}

/* ---- new and vanished functions ------------------------------------------------------- */

static void others(ctx *c, fs_textout *o, int vanished)
{
    const fs_deltas *d = c->in->d;
    const fs_delta_table *t = &d->incl;
    size_t all = vanished ? t->only_before : t->only_after;
    size_t most = min_size(c->lv.others, c->in->top);
    int md = c->in->format == FOLDSVG_TOP_MARKDOWN;
    if (all == 0 || most == 0)
        return;
    const char *what = vanished ? "Vanished" : "New";
    size_t shown = min_size(all, most);
    if (md)
        fs_text_printf(o, "\n| %s | %s (%zu of %zu) |\n|---:|:---|\n",
                       vanished ? "Before" : "After", what, shown, all);
    else
        fs_text_printf(o, "\n%s functions: %zu of %zu\n", what, shown, all);
    size_t k = 0;
    for (size_t i = 0; i < t->n && k < shown && !o->failed; i++) {
        const fs_delta_row *r = &t->rows[i];
        if (vanished ? r->after != 0 : r->before != 0)
            continue;
        char num[64];
        if (vanished)
            fs_delta_format_before(r, d->per_before, 1, num);
        else
            fs_delta_format_count(r->after, d->per_after, 1, num);
        if (md) {
            fs_text_printf(o, "| %s | ", num);
            md_name(c, o, r->name, r->len, 1);
            fs_text_puts(o, " |\n");
        } else {
            fs_text_printf(o, "%12s  ", num);
            fs_text_put(o, r->name, r->len);
            fs_text_puts(o, "\n");
        }
        k++;
    }
}

static void new_and_vanished(ctx *c, fs_textout *o)
{
    const fs_delta_table *t = &c->in->d->incl;
    if (min_size(c->lv.others, c->in->top) == 0)
        return;
    if (c->in->format == FOLDSVG_TOP_MARKDOWN)
        fs_text_puts(o, "\n### New and vanished functions (inclusive time)\n");
    else
        fs_text_puts(o, "\nNew and vanished functions (inclusive time):");
    if (t->only_after == 0 && t->only_before == 0) {
        fs_text_puts(o, c->in->format == FOLDSVG_TOP_MARKDOWN
                            ? "\nNone: every function is on both sides.\n"
                            : " none: every function is on both sides.\n");
        return;
    }
    if (c->in->format != FOLDSVG_TOP_MARKDOWN)
        fs_text_puts(o, "\n");
    others(c, o, 0);
    others(c, o, 1);
}

/* ---- JSON ----------------------------------------------------------------------------- */

static void json_thresholds(ctx *c, fs_jsonout *j)
{
    const fs_gate *g = c->in->gate;
    const fs_deltas *d = c->in->d;
    fs_json_key(j, "verdict");
    const char *word = fs_verdict_word(g);
    fs_json_str(j, word, strlen(word));
    fs_json_key(j, "thresholds");
    fs_json_check(j, yajl_gen_array_open(j->g));
    for (size_t i = 0; g && i < g->n && !j->failed; i++) {
        const fs_gate_result *r = &g->v[i];
        fs_json_check(j, yajl_gen_map_open(j->g));
        fs_json_key(j, "threshold");
        fs_json_name(j, r->expr, strlen(r->expr));
        fs_json_key(j, "broken");
        fs_json_check(j, yajl_gen_bool(j->g, r->broken));
        fs_json_key(j, "function");
        if (r->measured && r->rule.measure != FS_GATE_TOTAL)
            fs_json_name(j, r->row.name, r->row.len);
        else
            fs_json_check(j, yajl_gen_null(j->g));
        fs_json_key(j, "before");
        fs_delta_json_before(j, &r->row, d->per_before);
        fs_json_key(j, "after");
        fs_tables_json_count(j, r->row.after, d->per_after);
        fs_json_key(j, "delta");
        fs_delta_json(j, &r->row, d->per_before, d->per_after);
        fs_json_key(j, "percent"); /* of BEFORE's total */
        if (r->measured && isfinite(r->share))
            fs_json_real(j, (double)r->share);
        else
            fs_json_check(j, yajl_gen_null(j->g));
        fs_json_check(j, yajl_gen_map_close(j->g));
    }
    fs_json_check(j, yajl_gen_array_close(j->g));
}

static void json_others(ctx *c, fs_jsonout *j, int vanished)
{
    const fs_deltas *d = c->in->d;
    const fs_delta_table *t = &d->incl;
    fs_json_key(j, vanished ? "vanished" : "new");
    fs_json_check(j, yajl_gen_array_open(j->g));
    size_t k = 0;
    for (size_t i = 0; i < t->n && k < c->in->top && !j->failed; i++) {
        const fs_delta_row *r = &t->rows[i];
        if (vanished ? r->after != 0 : r->before != 0)
            continue;
        fs_json_check(j, yajl_gen_map_open(j->g));
        fs_json_key(j, "name");
        fs_json_name(j, r->name, r->len);
        fs_json_key(j, vanished ? "before" : "after");
        if (vanished)
            fs_delta_json_before(j, r, d->per_before);
        else
            fs_tables_json_count(j, r->after, d->per_after);
        fs_json_check(j, yajl_gen_map_close(j->g));
        k++;
    }
    fs_json_check(j, yajl_gen_array_close(j->g));
}

/* ---- around the tables ---------------------------------------------------------------- */

static void head(void *user, fs_textout *o, fs_jsonout *j)
{
    ctx *c = user;
    if (j) {
        json_thresholds(c, j);
        return;
    }
    verdict_line(c, o);
    thresholds(c, o);
    fs_text_puts(o, "\n");
}

static void tail(void *user, fs_textout *o, fs_jsonout *j)
{
    ctx *c = user;
    const fs_verdict_in *in = c->in;
    if (j) {
        json_others(c, j, 0);
        json_others(c, j, 1);
        fs_summary_findings(in->f, in->unit, in->format, 0, o, j);
        return;
    }
    new_and_vanished(c, o);
    if (c->lv.findings)
        fs_summary_findings(in->f, in->unit, in->format, c->lv.names, o, NULL);
    if (!c->cut)
        return;
    fs_text_printf(o, "\n*Cut down to fit a comment of %zu characters:", c->limit);
    if (c->lv.rows)
        fs_text_printf(o, " %zu rows a table, names of %zu characters at most%s", c->lv.rows,
                       c->lv.names, c->lv.findings ? "" : ", no findings");
    else
        fs_text_puts(o, " the verdict only");
    fs_text_puts(o, "; `--top-format text` and the diff report (`-o diff.html`) have it all.*\n");
}

static foldsvg_status render(ctx *c, FILE *out, foldsvg_error *err)
{
    const fs_verdict_in *in = c->in;
    fs_text_hook h = {head, tail, c, c->lv.names};
    if (c->lv.rows)
        return fs_deltas_write_hooked(in->d, in->sides, min_size(c->lv.rows, in->top), in->format,
                                      in->unit, &h, out, err);
    fs_textout o = {out, 0, 0};
    head(c, &o, NULL);
    tail(c, &o, NULL);
    return fs_text_finish(&o, err);
}

void fs_verdict_json(const fs_verdict_in *in, fs_jsonout *j)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.lv = whole;
    fs_text_hook h = {head, tail, &c, 0};
    fs_deltas_json(j, NULL, in->d, in->sides, in->top, in->unit, &h);
    fs_buf_free(&c.scratch);
}

foldsvg_status fs_verdict_write(const fs_verdict_in *in, size_t limit, FILE *out,
                                foldsvg_error *err)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.limit = limit;
    if (in->format != FOLDSVG_TOP_MARKDOWN || limit == 0) {
        c.lv = whole;
        foldsvg_status st = render(&c, out, err);
        fs_buf_free(&c.scratch);
        return st;
    }
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < NLEVELS; i++) {
        c.lv = levels[i];
        c.cut = i > 0;
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m) {
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
            break;
        }
        st = render(&c, m, err);
        if (fclose(m) != 0 && st == FOLDSVG_OK)
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        if (st == FOLDSVG_OK && (len <= limit || i + 1 == NLEVELS)) {
            fs_textout o = {out, 0, 0};
            fs_text_put(&o, buf, len);
            st = fs_text_finish(&o, err);
            free(buf);
            break;
        }
        free(buf);
        if (st)
            break;
    }
    fs_buf_free(&c.scratch);
    return st;
}
