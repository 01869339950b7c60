#include "analysis/gate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deltatables.h"
#include "analysis/tables.h"
#include "analysis/textout.h"
#include "util/error.h"
#include "util/utf8.h"

/* ---- parsing ------------------------------------------------------------------------------ */

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

static foldsvg_status bad(foldsvg_error *err, const char *option, const char *expr, const char *why)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL,
                    "invalid value '%.200s' for --%s: %s; expected MEASURE OP LIMIT, as "
                    "'total > +2%%' or 'self[memcpy] > +1%%' (MEASURE total, self, inclusive, "
                    "self[NAME], inclusive[NAME] or new; OP >, >=, < or <=; LIMIT a count, or a "
                    "percent of before's total)",
                    expr, option, why);
}

/* [FROM, TO) of S as a number: digits, then optionally '.' and digits, after an optional
 * sign. */
static int parse_limit(const char *s, size_t from, size_t to, long double *out)
{
    char num[64];
    size_t i = from, n = to - from;
    if (n == 0 || n >= sizeof num)
        return -1;
    if (s[i] == '+' || s[i] == '-')
        i++;
    size_t digits = 0, dots = 0;
    for (size_t k = i; k < to; k++) {
        if (isdigit((unsigned char)s[k]))
            digits++;
        else if (s[k] == '.' && digits && dots++ == 0)
            continue;
        else
            return -1;
    }
    if (!digits || s[to - 1] == '.')
        return -1;
    memcpy(num, s + from, n);
    num[n] = '\0';
    errno = 0;
    char *end;
    long double x = strtold(num, &end);
    if (errno || *end || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

foldsvg_status fs_gate_parse(const char *expr, const char *option, fs_gate_rule *out,
                             foldsvg_error *err)
{
    memset(out, 0, sizeof *out);
    size_t b = 0, e = strlen(expr);
    while (b < e && blank(expr[b]))
        b++;
    while (e > b && blank(expr[e - 1]))
        e--;
    /* from the right: a name may hold anything, operators included (operator>=) */
    size_t le = e;
    if (le > b && expr[le - 1] == '%') {
        out->percent = 1;
        le--;
    }
    size_t ls = le;
    while (ls > b && (isdigit((unsigned char)expr[ls - 1]) || expr[ls - 1] == '.'))
        ls--;
    if (ls > b && (expr[ls - 1] == '+' || expr[ls - 1] == '-'))
        ls--;
    if (parse_limit(expr, ls, le, &out->limit) != 0)
        return bad(err, option, expr, "it does not end with a LIMIT");
    size_t oe = ls;
    while (oe > b && blank(expr[oe - 1]))
        oe--;
    size_t os = oe;
    int eq = os > b && expr[os - 1] == '=';
    os -= eq;
    if (os == b || (expr[os - 1] != '>' && expr[os - 1] != '<'))
        return bad(err, option, expr, "no OP before the LIMIT");
    os--;
    int gt = expr[os] == '>';
    out->op = gt ? (eq ? FS_GATE_GE : FS_GATE_GT) : (eq ? FS_GATE_LE : FS_GATE_LT);
    size_t me = os;
    while (me > b && blank(expr[me - 1]))
        me--;
    size_t we = b;
    while (we < me && islower((unsigned char)expr[we]))
        we++;
    static const struct {
        const char *word;
        fs_gate_measure m;
    } words[] = {{"total", FS_GATE_TOTAL},
                 {"self", FS_GATE_SELF},
                 {"inclusive", FS_GATE_INCL},
                 {"new", FS_GATE_NEW}};
    size_t k = 0, nw = sizeof words / sizeof words[0];
    while (k < nw && (strlen(words[k].word) != we - b || memcmp(words[k].word, expr + b, we - b)))
        k++;
    if (k == nw)
        return bad(err, option, expr, we > b ? "unknown MEASURE" : "no MEASURE");
    out->measure = words[k].m;
    if (we < me) {
        int named = out->measure == FS_GATE_SELF || out->measure == FS_GATE_INCL;
        if (!named || expr[we] != '[' || expr[me - 1] != ']' || me - we < 3)
            return bad(err, option, expr,
                       named ? "a function is named in brackets, as self[memcpy]"
                             : "only self and inclusive name a function");
        out->name = expr + we + 1;
        out->len = me - we - 2;
    }
    if (out->measure == FS_GATE_NEW && !gt)
        return bad(err, option, expr, "new takes > or >= (new functions above a LIMIT)");
    return FOLDSVG_OK;
}

/* ---- measuring ---------------------------------------------------------------------------- */

static int breaks(const fs_gate_rule *r, long double x)
{
    switch (r->op) {
    case FS_GATE_GT:
        return x > r->limit;
    case FS_GATE_GE:
        return x >= r->limit;
    case FS_GATE_LT:
        return x < r->limit;
    case FS_GATE_LE:
        return x <= r->limit;
    }
    return 0;
}

/* BEFORE's total per iteration, as the changes are compared with it. */
static long double base_of(const fs_deltas *d)
{
    fs_delta_row tot = fs_delta_totals(d);
    return fs_delta_before(&tot, d->per_before);
}

static long double share_of(long double value, long double base)
{
    if (base > 0)
        return 100.0L * value / base;
    return value > 0 ? HUGE_VALL : value < 0 ? -HUGE_VALL : 0;
}

/* Whether R holds at least MIN percent of its side's total on one side. */
static int above_floor(const fs_delta_row *r, const fs_deltas *d, double min)
{
    if (min <= 0)
        return 1;
    long double b = d->total_before ? 100.0L * r->before / d->total_before : 0;
    long double a = d->total_after ? 100.0L * r->after / d->total_after : 0;
    return b >= min || a >= min;
}

static int same_name(const fs_delta_row *r, const char *name, size_t len)
{
    return r->len == len && (len == 0 || memcmp(r->name, name, len) == 0);
}

static void measure(fs_gate_result *g, const fs_deltas *d, double min)
{
    const fs_gate_rule *r = &g->rule;
    long double base = base_of(d);
    if (r->measure == FS_GATE_TOTAL) {
        g->row = fs_delta_totals(d);
        g->measured = 1;
    } else if (r->name) {
        const fs_delta_table *t = r->measure == FS_GATE_SELF ? &d->self : &d->incl;
        size_t i = 0;
        while (i < t->n && !same_name(&t->rows[i], r->name, r->len))
            i++;
        g->row = i < t->n ? t->rows[i] : (fs_delta_row){r->name, r->len, 0, 0, 0, d->scale};
        g->measured = 1;
    } else {
        const fs_delta_table *t = r->measure == FS_GATE_SELF ? &d->self : &d->incl;
        int largest = r->op == FS_GATE_GT || r->op == FS_GATE_GE;
        for (size_t i = 0; i < t->n; i++) {
            const fs_delta_row *x = &t->rows[i];
            if ((r->measure == FS_GATE_NEW && x->before != 0) || !above_floor(x, d, min))
                continue;
            /* the rows are ranked by |delta|: the first extreme found is the heaviest name */
            if (!g->measured || (largest ? x->delta > g->row.delta : x->delta < g->row.delta))
                g->row = *x;
            g->measured = 1;
        }
    }
    g->value = g->row.delta;
    g->share = share_of(g->value, base);
    g->broken = g->measured && breaks(r, r->percent ? g->share : g->value);
}

foldsvg_status fs_gate_eval(const fs_deltas *d, const char *const *exprs, size_t n,
                            double min_share, fs_gate *out, foldsvg_error *err)
{
    memset(out, 0, sizeof *out);
    out->min_share = min_share;
    if (n == 0)
        return FOLDSVG_OK;
    out->v = calloc(n, sizeof *out->v);
    if (!out->v)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        fs_gate_result *g = &out->v[i];
        g->expr = exprs[i];
        foldsvg_status st = fs_gate_parse(exprs[i], "fail-if", &g->rule, err);
        if (st) {
            fs_gate_free(out);
            return st;
        }
        g->min_share = min_share;
        measure(g, d, min_share);
        out->broken += g->broken;
        out->n++;
    }
    return FOLDSVG_OK;
}

void fs_gate_free(fs_gate *g)
{
    free(g->v);
    memset(g, 0, sizeof *g);
}

/* ---- wording ------------------------------------------------------------------------------ */

/* A non-negative amount: whole with separators, else two decimals. */
static void format_amount(long double x, char *buf)
{
    if (!(x < 18446744073709551615.0L))
        x = 18446744073709551615.0L;
    uint64_t whole = (uint64_t)x;
    if ((long double)whole == x)
        fs_delta_format_count(whole, 1, 1, buf);
    else
        fs_tables_format_cents(whole, (uint64_t)roundl((x - (long double)whole) * 100.0L), 1, buf);
}

foldsvg_status fs_gate_describe(const fs_gate_result *r, const fs_deltas *d, const char *unit,
                                size_t names, int with_name, fs_buf *out)
{
    const fs_gate_rule *rule = &r->rule;
    if (!r->measured) {
        if (rule->measure == FS_GATE_NEW)
            fs_buf_printf(out, "no new function");
        else
            fs_buf_printf(out, "no function");
        if (r->min_share > 0)
            fs_buf_printf(out, " holds --fail-min-share's %g%% of a side's total", r->min_share);
        return fs_buf_status(out);
    }
    if (rule->measure != FS_GATE_TOTAL && with_name) {
        FS_FORWARD_IF_ERROR(fs_text_elide(r->row.name, r->row.len, names, out));
        fs_buf_append(out, ": ", 2);
    }
    char delta[64], before[64], after[64];
    fs_delta_format_delta(&r->row, d->per_before, d->per_after, 1, delta);
    fs_delta_format_before(&r->row, d->per_before, 1, before);
    fs_delta_format_count(r->row.after, d->per_after, 1, after);
    const char *per = d->per_before > 1 || d->per_after > 1 ? " per iteration" : "";
    const char *of = rule->measure == FS_GATE_TOTAL ? "" : " of before's total";
    if (isinf(r->share))
        fs_buf_printf(out, "%s %s%s (before's total is 0; %s -> %s)", delta, unit, per, before,
                      after);
    else
        fs_buf_printf(out, "%+.2Lf%%%s (%s %s%s; %s -> %s)", r->share, of, delta, unit, per, before,
                      after);
    if (r->broken) {
        long double x = rule->percent ? r->share : r->value;
        long double over = fabsl(x - rule->limit);
        const char *side = rule->op == FS_GATE_GT || rule->op == FS_GATE_GE ? "over" : "under";
        if (rule->percent && !isinf(r->share))
            fs_buf_printf(out, ", %.2Lf point%s %s", over, over == 1 ? "" : "s", side);
        else if (!rule->percent) {
            char num[64];
            format_amount(over, num);
            fs_buf_printf(out, ", %s %s %s", num, unit, side);
        }
    }
    return fs_buf_status(out);
}
