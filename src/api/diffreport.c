/* The outputs of a diff object: SVG and folded text (the differential profile, drawn as any
 * profile is), the delta tables (--top), and the diff report (an HTML report section, alone
 * on its page or among others). */
#include <stdlib.h>
#include <string.h>

#include "analysis/delta.h"
#include "analysis/deltatables.h"
#include "aggregate/diffjoin.h"
#include "analysis/findings.h"
#include "api/deltatop.h"
#include "api/diff.h"
#include "api/options.h"
#include "api/output.h"
#include "api/report.h"
#include "render/diffreport.h"
#include "render/svg.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/numfmt.h"

const char *fs_diff_unit(const foldsvg_diff *d, const foldsvg_options *o)
{
    return o->countname ? o->countname : d->p->count_name;
}

foldsvg_status fs_diff_check_data(const foldsvg_diff *d, foldsvg_error *err)
{
    if (!d)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL diff");
    if (d->p->tree.total == 0)
        return fs_error(err, FOLDSVG_E_NO_DATA, NULL,
                        "the diff holds nothing to draw: read or compare two profiles first");
    return FOLDSVG_OK;
}

foldsvg_status fs_diff_deltas(const foldsvg_diff *d, const foldsvg_options *o, fs_deltas *out,
                              foldsvg_error *err)
{
    const fs_report_opts *r = &o->report;
    long double scale;
    const fs_tree *t = fs_diff_numbers(d, &scale);
    if (fs_deltas_compute(t, scale, fs_delta_per(r->per_before, r->per),
                          fs_delta_per(r->per_after, r->per), out) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    return FOLDSVG_OK;
}

fs_delta_sides fs_diff_sides(const foldsvg_diff *d)
{
    fs_delta_sides s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < 2; i++) {
        s.name[i] = d->side[i].name;
        s.total[i] = d->side[i].total;
        s.unique[i] = d->side[i].unique;
    }
    s.only_before = d->only_before;
    s.only_after = d->only_after;
    s.normalized = d->normalized;
    return s;
}

foldsvg_status foldsvg_diff_write_top(const foldsvg_diff *d, FILE *out, const foldsvg_options *opts,
                                      foldsvg_error *err)
{
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    if (!out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_deltas deltas;
    FS_FORWARD_IF_ERROR(fs_diff_deltas(d, o, &deltas, err));
    fs_delta_sides sides = fs_diff_sides(d);
    foldsvg_status st = fs_write_delta_tables(&deltas, &sides, fs_diff_unit(d, o), o, out, err);
    fs_deltas_free(&deltas);
    return st;
}

/* ---- the report section ------------------------------------------------------------------ */

static void format_of(const fs_profile_facts *f, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", f->format[0] ? f->format : "?", f->gzip ? " (gzip)" : "");
}

/* The rows of the facts table. */
static foldsvg_status add_facts(fs_diff_section *s, const foldsvg_diff *d, const char *unit)
{
    const fs_diff_summary *b = &d->side[0], *a = &d->side[1];
    char vb[600], va[600], ch[160];
    FS_FORWARD_IF_ERROR(fs_diff_section_fact(s, "File", b->name, a->name, ""));
    format_of(&b->facts, vb, sizeof vb);
    format_of(&a->facts, va, sizeof va);
    FS_FORWARD_IF_ERROR(fs_diff_section_fact(s, "Format", vb, va, ""));
    if (b->facts.product[0] || a->facts.product[0])
        FS_FORWARD_IF_ERROR(
            fs_diff_section_fact(s, "Product", b->facts.product, a->facts.product, ""));
    if (b->facts.threads || a->facts.threads) {
        fs_profile_threads_text(&b->facts, vb, sizeof vb);
        fs_profile_threads_text(&a->facts, va, sizeof va);
        FS_FORWARD_IF_ERROR(fs_diff_section_fact(s, "Threads", vb, va, ""));
    }
    /* the totals as read; the change of the totals as read */
    fs_delta_row tot = {"", 0, b->total, a->total, (long double)a->total - (long double)b->total,
                        0};
    char dl[64], pc[64];
    fs_delta_format_delta(&tot, 1, 1, 1, dl);
    fs_delta_format_change(&tot, 1, pc);
    snprintf(ch, sizeof ch, "%s (%s)", dl, pc);
    fs_format_thousands(b->total, vb);
    fs_format_thousands(a->total, va);
    char label[96];
    snprintf(label, sizeof label, "Total %.60s", unit);
    FS_FORWARD_IF_ERROR(fs_diff_section_fact(s, label, vb, va, ch));
    fs_format_thousands((uint64_t)b->unique, vb);
    fs_format_thousands((uint64_t)a->unique, va);
    char ob[32], oa[32];
    fs_format_thousands((uint64_t)d->only_before, ob);
    fs_format_thousands((uint64_t)d->only_after, oa);
    snprintf(ch, sizeof ch, "%s only before, %s only after", ob, oa);
    return fs_diff_section_fact(s, "Unique stacks", vb, va, ch);
}

static foldsvg_status fill_diff(fs_diff_section *s, const foldsvg_diff *d, const foldsvg_options *o,
                                foldsvg_error *err)
{
    fs_deltas full;
    FS_FORWARD_IF_ERROR(fs_diff_deltas(d, o, &full, err));
    foldsvg_status st = fs_diff_section_cut(s, &full, fs_delta_top_rows(o));
    fs_deltas_free(&full);
    s->sides = fs_diff_sides(d);
    s->negate = o->svg.negate;
    s->inclusive = o->svg.diff_inclusive;
    for (int i = 0; st == FOLDSVG_OK && i < 2; i++) {
        s->side_name[i] = strdup(d->side[i].name);
        s->sides.name[i] = s->side_name[i];
        if (!s->side_name[i])
            st = FOLDSVG_E_NOMEM;
    }
    if (st == FOLDSVG_OK && !(s->countname = strdup(fs_diff_unit(d, o))))
        st = FOLDSVG_E_NOMEM;
    if (st == FOLDSVG_OK)
        st = add_facts(s, d, s->countname);
    return st ? fs_error(err, st, NULL, "out of memory") : FOLDSVG_OK;
}

/* The findings of the change, from the diff's numbers (api/diff.h). */
static foldsvg_status diff_findings(fs_report_section *s, const foldsvg_diff *d,
                                    const foldsvg_options *o, foldsvg_error *err)
{
    const fs_report_opts *r = &o->report;
    long double scale;
    const fs_tree *t = fs_diff_numbers(d, &scale);
    if (fs_findings_compute_scaled(t, scale, fs_delta_per(r->per_before, r->per),
                                   fs_delta_per(r->per_after, r->per), &r->thresholds,
                                   &s->findings) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    s->has_findings = 1;
    return FOLDSVG_OK;
}

typedef struct diff_section_args {
    const foldsvg_diff *d;
    const char *heading;
} diff_section_args;

static foldsvg_status make_diff_section(fs_report_section *s, const void *what,
                                        const foldsvg_options *o, fs_palettemap *map,
                                        foldsvg_error *err)
{
    const diff_section_args *a = what;
    memset(s, 0, sizeof *s);
    FS_FORWARD_IF_ERROR(fs_diff_check_data(a->d, err));
    /* in the report, the graph says it is differential (a standalone SVG keeps inferno's
     * title, frame for frame; its legend says what the colors mean) */
    foldsvg_options titled = *o;
    char title[64];
    if (!titled.svg.title) {
        snprintf(title, sizeof title, "Differential %s",
                 o->svg.inverted ? "Icicle Graph" : "Flame Graph");
        titled.svg.title = title;
    }
    FS_FORWARD_IF_ERROR(fs_report_section_svg(s, a->d->p, &titled, map, err));
    s->per = o->report.per;
    s->countname = strdup(fs_diff_unit(a->d, o));
    s->heading = a->heading ? strdup(a->heading) : NULL;
    s->diff = calloc(1, sizeof *s->diff);
    foldsvg_status st = s->countname && (!a->heading || s->heading) && s->diff
                            ? fill_diff(s->diff, a->d, o, err)
                            : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st == FOLDSVG_OK)
        st = diff_findings(s, a->d, o, err);
    if (st)
        fs_report_section_free(s);
    return st;
}

foldsvg_status foldsvg_report_add_diff(foldsvg_report *r, const foldsvg_diff *d,
                                       const char *heading, foldsvg_error *err)
{
    if (!r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL report");
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    diff_section_args a = {d, heading};
    return fs_report_add_section(r, make_diff_section, &a, err);
}

/* ---- writing ----------------------------------------------------------------------------- */

/* The page of D alone, headed "BEFORE → AFTER". */
static foldsvg_status diff_page(const foldsvg_diff *d, const foldsvg_options *o,
                                foldsvg_report **out, foldsvg_error *err)
{
    *out = foldsvg_report_new(o);
    if (!*out)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_buf heading = {0};
    fs_buf_printf(&heading, "%s \u2192 %s", d->side[0].name, d->side[1].name);
    foldsvg_status st = fs_buf_status(&heading);
    if (st == FOLDSVG_OK)
        st = foldsvg_report_add_diff(*out, d, heading.data, err);
    else
        fs_error(err, st, NULL, "out of memory");
    fs_buf_free(&heading);
    if (st) {
        foldsvg_report_free(*out);
        *out = NULL;
    }
    return st;
}

/* Folded text of a normalized diff: every stack of the join, each BEFORE scaled and truncated
 * as inferno-diff-folded writes it (those taken to 0 0 too), from the counts as read. */
typedef struct raw_lines {
    const foldsvg_diff *d;
    foldsvg_stack_fn line;
    void *line_user;
} raw_lines;

static int raw_line(void *user, const char *path, size_t len, uint64_t count, uint64_t before,
                    int has_before)
{
    const raw_lines *k = user;
    (void)has_before;
    before = fs_diff_normalize(before, k->d->side[0].total, k->d->side[1].total);
    return k->line(k->line_user, path, len, count, before, 1);
}

static foldsvg_status produce_raw(void *user, foldsvg_stack_fn line, void *line_user)
{
    raw_lines *k = user;
    k->line = line;
    k->line_user = line_user;
    return foldsvg_profile_foreach(k->d->raw, raw_line, k);
}

/* The job of drawing D in FORMAT (SVG or folded text) into OUT's destination. */
static foldsvg_status output_diff(const foldsvg_diff *d, foldsvg_format format,
                                  const foldsvg_options *opts, const char *path, FILE *out,
                                  foldsvg_error *err)
{
    const foldsvg_options *o = opts;
    fs_profile_job job = {d->p, format, o, NULL};
    raw_lines k = {d, NULL, NULL};
    fs_folded_job lines = {produce_raw, &k};
    fs_output_fn fn = fs_output_profile;
    const void *what = &job;
    if (format == FOLDSVG_FORMAT_FOLDED && d->raw) {
        fn = fs_output_folded;
        what = &lines;
    }
    return out ? fs_output_stream(fn, what, o, out, err) : fs_output_file(fn, what, o, path, err);
}

foldsvg_status foldsvg_diff_write(const foldsvg_diff *d, const char *path, foldsvg_format format,
                                  const foldsvg_options *opts, foldsvg_error *err)
{
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    const foldsvg_options *o = opts ? opts : fs_default_options();
    if (format == FOLDSVG_FORMAT_AUTO)
        format = foldsvg_format_for_path(path);
    FS_FORWARD_IF_ERROR(fs_outputs_check(path, format, o, err));
    FS_FORWARD_IF_ERROR(fs_diff_check_format(format, path, err));
    if (format == FOLDSVG_FORMAT_HTML) {
        foldsvg_report *r;
        FS_FORWARD_IF_ERROR(diff_page(d, o, &r, err));
        foldsvg_status st = foldsvg_report_write(r, path, err);
        foldsvg_report_free(r);
        return st;
    }
    return output_diff(d, format, o, path, NULL, err);
}

foldsvg_status foldsvg_diff_render(const foldsvg_diff *d, foldsvg_format format,
                                   const foldsvg_options *opts, FILE *out, foldsvg_error *err)
{
    FS_FORWARD_IF_ERROR(fs_diff_check_data(d, err));
    if (!out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    if (format == FOLDSVG_FORMAT_AUTO)
        format = FOLDSVG_FORMAT_SVG;
    FS_FORWARD_IF_ERROR(fs_format_check(format, err));
    FS_FORWARD_IF_ERROR(fs_diff_check_format(format, NULL, err));
    if (format == FOLDSVG_FORMAT_HTML) {
        foldsvg_report *r;
        FS_FORWARD_IF_ERROR(diff_page(d, o, &r, err));
        foldsvg_status st = foldsvg_report_render(r, out, err);
        foldsvg_report_free(r);
        return st;
    }
    return output_diff(d, format, o, NULL, out, err);
}
