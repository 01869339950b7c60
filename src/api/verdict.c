/* The verdict of a diff: its thresholds (--fail-if, analysis/gate.h) measured for a CI job to
 * exit by, and the summary a pull request carries (--diff --summary, analysis/verdict.h),
 * from the same numbers as the delta tables. */
#include <stdlib.h>
#include <string.h>

#include "analysis/delta.h"
#include "analysis/gate.h"
#include "analysis/verdict.h"
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
    fs_gate g;
    foldsvg_status st = fs_gate_eval(&deltas, (const char *const *)o->fail_if.v, o->fail_if.n,
                                     o->fail_min_share, &g, err);
    fs_buf line = {0};
    const char *unit = fs_diff_unit(d, o);
    for (size_t i = 0; st == FOLDSVG_OK && i < g.n; i++) {
        fs_buf_clear(&line);
        if (fs_gate_describe(&g.v[i], &deltas, unit, MESSAGE_NAME, 1, &line) != FOLDSVG_OK)
            st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        else if (fn)
            fn(user, pair, g.v[i].expr, g.v[i].broken, line.data ? line.data : "");
    }
    if (st == FOLDSVG_OK && broken)
        *broken = g.broken;
    fs_buf_free(&line);
    fs_gate_free(&g); /* empty when fs_gate_eval failed */
    fs_deltas_free(&deltas);
    return st;
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
