/* The verdict of a diff: its thresholds (--fail-if, analysis/gate.h) measured for a CI job to
 * exit by, and the summary a pull request carries (--diff --summary, analysis/verdict.h),
 * from the same numbers as the delta tables. */
#include <stdlib.h>
#include <string.h>

#include "analysis/delta.h"
#include "analysis/gate.h"
#include "analysis/verdict.h"
#include "api/cli.h"
#include "api/deltatop.h"
#include "api/diff.h"
#include "api/options.h"
#include "util/buf.h"
#include "util/error.h"

/* Names in a message line: a table cell's worth. */
enum { MESSAGE_NAME = 200 };

foldsvg_status fs_diff_parts_make(const foldsvg_diff *d, const foldsvg_options *o, fs_diff_parts *p,
                                  foldsvg_error *err)
{
    memset(p, 0, sizeof *p);
    FS_FORWARD_IF_ERROR(fs_diff_deltas(d, o, &p->deltas, err));
    foldsvg_status st = fs_gate_eval(&p->deltas, (const char *const *)o->fail_if.v, o->fail_if.n,
                                     o->fail_min_share, &p->gate, err);
    long double scale;
    const fs_tree *t = fs_diff_numbers(d, &scale);
    if (st == FOLDSVG_OK &&
        fs_findings_compute_scaled(t, scale, p->deltas.per_before, p->deltas.per_after,
                                   &o->report.thresholds, &p->findings) != FOLDSVG_OK)
        st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st) {
        fs_gate_free(&p->gate);
        fs_deltas_free(&p->deltas);
        return st;
    }
    p->sides = fs_diff_sides(d);
    p->in = (fs_verdict_in){&p->deltas,        &p->sides,          &p->findings,
                            &p->gate,          fs_summary_rows(o), o->report.top_format,
                            fs_diff_unit(d, o)};
    return FOLDSVG_OK;
}

void fs_diff_parts_free(fs_diff_parts *p)
{
    fs_findings_free(&p->findings);
    fs_gate_free(&p->gate);
    fs_deltas_free(&p->deltas);
}

foldsvg_status foldsvg_diff_write_summary(const foldsvg_diff *d, FILE *out,
                                          const foldsvg_options *opts, foldsvg_error *err)
{
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    if (!out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_diff_parts p;
    FS_FORWARD_IF_ERROR(fs_diff_parts_make(d, o, &p, err));
    size_t limit = p.in.format == FOLDSVG_TOP_MARKDOWN ? FS_COMMENT_LIMIT : 0;
    foldsvg_status st = fs_verdict_write(&p.in, limit, out, err);
    fs_diff_parts_free(&p);
    return st;
}

/* DELTAS measured against O's thresholds, FN called once per threshold with PAIR. */
static foldsvg_status gate_report(const fs_deltas *deltas, const foldsvg_options *o,
                                  const char *unit, const char *pair, foldsvg_threshold_fn fn,
                                  void *user, size_t *broken, foldsvg_error *err)
{
    fs_gate g;
    FS_FORWARD_IF_ERROR(fs_gate_eval(deltas, (const char *const *)o->fail_if.v, o->fail_if.n,
                                     o->fail_min_share, &g, err));
    foldsvg_status st = FOLDSVG_OK;
    fs_buf line = {0};
    for (size_t i = 0; st == FOLDSVG_OK && i < g.n; i++) {
        fs_buf_clear(&line);
        if (fs_gate_describe(&g.v[i], deltas, unit, MESSAGE_NAME, 1, &line) != FOLDSVG_OK)
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        else if (fn)
            fn(user, pair, g.v[i].expr, g.v[i].broken, line.data ? line.data : "");
    }
    if (st == FOLDSVG_OK && broken)
        *broken = g.broken;
    fs_buf_free(&line);
    fs_gate_free(&g);
    return st;
}

foldsvg_status fs_diff_gate_report(const foldsvg_diff *d, const foldsvg_options *o,
                                   const char *pair, foldsvg_threshold_fn fn, void *user,
                                   size_t *broken, foldsvg_error *err)
{
    if (broken)
        *broken = 0;
    if (o->fail_if.n == 0)
        return FOLDSVG_OK;
    fs_deltas deltas;
    FS_FORWARD_IF_ERROR(fs_diff_deltas(d, o, &deltas, err));
    foldsvg_status st = gate_report(&deltas, o, fs_diff_unit(d, o), pair, fn, user, broken, err);
    fs_deltas_free(&deltas);
    return st;
}

foldsvg_status fs_cli_diff_print(const foldsvg_diff *d, FILE *out, const foldsvg_options *o,
                                 int summary, foldsvg_threshold_fn fn, void *user, size_t *broken,
                                 foldsvg_error *err)
{
    if (broken)
        *broken = 0;
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    fs_deltas deltas;
    FS_FORWARD_IF_ERROR(fs_diff_deltas(d, o, &deltas, err));
    fs_delta_sides sides = fs_diff_sides(d);
    const char *unit = fs_diff_unit(d, o);
    long double scale;
    const fs_tree *t = fs_diff_numbers(d, &scale);
    foldsvg_status st = summary
                            ? fs_write_delta_summary(t, scale, &deltas, &sides, unit, o, out, err)
                            : fs_write_delta_tables(&deltas, &sides, unit, o, out, err);
    if (st) {
        if (err && !err->file[0])
            snprintf(err->file, sizeof err->file, "<stdout>");
    } else if (o->fail_if.n) {
        st = gate_report(&deltas, o, unit, NULL, fn, user, broken, err);
    }
    fs_deltas_free(&deltas);
    return st;
}

int fs_cli_gate_needs_functions(const foldsvg_options *o)
{
    fs_gate_rule rule;
    for (size_t i = 0; i < o->fail_if.n; i++)
        if (fs_gate_parse(o->fail_if.v[i], "fail-if", &rule, NULL) != FOLDSVG_OK ||
            rule.measure != FS_GATE_TOTAL)
            return 1;
    return 0;
}

foldsvg_status fs_cli_gate_totals(const foldsvg_options *o, uint64_t before, uint64_t after,
                                  const char *unit, foldsvg_threshold_fn fn, void *user,
                                  size_t *broken, foldsvg_error *err)
{
    if (broken)
        *broken = 0;
    const fs_report_opts *r = &o->report;
    fs_deltas deltas;
    memset(&deltas, 0, sizeof deltas);
    deltas.total_before = before;
    deltas.total_after = after;
    deltas.per_before = fs_delta_per(r->per_before, r->per);
    deltas.per_after = fs_delta_per(r->per_after, r->per);
    return gate_report(&deltas, o, o->countname ? o->countname : unit, NULL, fn, user, broken, err);
}

foldsvg_status foldsvg_diff_check(const foldsvg_diff *d, const foldsvg_options *opts,
                                  foldsvg_threshold_fn fn, void *user, size_t *broken,
                                  foldsvg_error *err)
{
    if (broken)
        *broken = 0;
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    const foldsvg_options *o = opts ? opts : fs_default_options();
    return fs_diff_gate_report(d, o, NULL, fn, user, broken, err);
}
