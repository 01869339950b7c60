/* The delta tables on standard output (--top of a diff, and of a differential input), as the
 * report options say. */
#include "api/deltatop.h"

#include <string.h>

#include "analysis/findings.h"
#include "analysis/summary.h"
#include "analysis/verdict.h"
#include "api/options.h"
#include "util/buf.h"
#include "util/error.h"

/* Rows per table when "top" is not set (as the reports of one profile). */
#define FS_DIFF_DEFAULT_TOP 25

uint64_t fs_delta_per(uint64_t side, uint64_t per)
{
    return side ? side : per;
}

size_t fs_delta_top_rows(const foldsvg_options *o)
{
    return o->report.top ? o->report.top : FS_DIFF_DEFAULT_TOP;
}

size_t fs_summary_rows(const foldsvg_options *o)
{
    return o->report.top ? o->report.top : 5;
}

foldsvg_status fs_write_delta_summary(const fs_tree *t, long double scale, const fs_deltas *deltas,
                                      const fs_delta_sides *sides, const char *unit,
                                      const foldsvg_options *o, FILE *out, foldsvg_error *err)
{
    fs_gate gate;
    FS_FORWARD_IF_ERROR(fs_gate_eval(deltas, (const char *const *)o->fail_if.v, o->fail_if.n,
                                     o->fail_min_share, &gate, err));
    fs_findings f;
    if (fs_findings_compute_scaled(t, scale, deltas->per_before, deltas->per_after,
                                   &o->report.thresholds, &f) != FOLDSVG_OK) {
        fs_gate_free(&gate);
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    }
    int format = o->report.top_format;
    fs_verdict_in in = {deltas, sides, &f, &gate, fs_summary_rows(o), format, unit};
    foldsvg_status st =
        fs_verdict_write(&in, format == FOLDSVG_TOP_MARKDOWN ? FS_COMMENT_LIMIT : 0, out, err);
    fs_findings_free(&f);
    fs_gate_free(&gate);
    return st;
}

foldsvg_status fs_write_delta_tables(const fs_deltas *deltas, const fs_delta_sides *sides,
                                     const char *unit, const foldsvg_options *o, FILE *out,
                                     foldsvg_error *err)
{
    return fs_deltas_write(deltas, sides, fs_delta_top_rows(o), o->report.top_format, unit, out,
                           err);
}

foldsvg_status fs_profile_write_delta_top(const foldsvg_profile *p, FILE *out,
                                          const foldsvg_options *o, int summary, foldsvg_error *err)
{
    const fs_tree *t = &p->tree;
    fs_delta_sides sides;
    memset(&sides, 0, sizeof sides);
    /* the sides are the input's two columns: each stack's first counts and its last */
    for (uint32_t i = 1; i < t->nnodes; i++) {
        uint64_t b = t->before ? t->before[i] : 0, a = t->nodes[i].count;
        sides.unique[0] += b != 0;
        sides.unique[1] += a != 0;
        sides.only_before += b != 0 && a == 0;
        sides.only_after += a != 0 && b == 0;
    }
    sides.total[0] = t->total_before;
    sides.total[1] = t->total;
    fs_buf names[2] = {{0}, {0}};
    const char *file = p->facts.files[0] ? p->facts.files : "the input";
    fs_buf_printf(&names[0], "%s, first counts", file);
    fs_buf_printf(&names[1], "%s, second counts", file);
    foldsvg_status st = fs_buf_status(&names[0]) ? FOLDSVG_E_NOMEM : fs_buf_status(&names[1]);
    const fs_report_opts *r = &o->report;
    fs_deltas deltas;
    if (st == FOLDSVG_OK)
        st = fs_deltas_compute(t, 0, fs_delta_per(r->per_before, r->per),
                               fs_delta_per(r->per_after, r->per), &deltas);
    if (st) {
        fs_buf_free(&names[0]);
        fs_buf_free(&names[1]);
        return fs_error(err, st, NULL, "out of memory");
    }
    sides.name[0] = names[0].data;
    sides.name[1] = names[1].data;
    const char *unit = o->countname ? o->countname : p->count_name;
    st = summary ? fs_write_delta_summary(t, 0, &deltas, &sides, unit, o, out, err)
                 : fs_write_delta_tables(&deltas, &sides, unit, o, out, err);
    fs_deltas_free(&deltas);
    fs_buf_free(&names[0]);
    fs_buf_free(&names[1]);
    return st;
}
