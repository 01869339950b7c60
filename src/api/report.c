/* Reports: the --top tables and the HTML report (one profile, or several in sections). */
#include <libxml/xmlIO.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "analysis/summary.h"
#include "analysis/tables.h"
#include "api/deltatop.h"
#include "api/diag.h"
#include "api/options.h"
#include "api/output.h"
#include "api/profile.h"
#include "api/report.h"
#include "render/report.h"
#include "render/stackdata.h"
#include "render/svg.h"
#include "render/xmlw.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/numfmt.h"

/* Rows per table when "top" is not set. */
#define FS_REPORT_DEFAULT_TOP 25

static size_t top_rows(const foldsvg_options *o)
{
    return o->report.top ? o->report.top : FS_REPORT_DEFAULT_TOP;
}

static const char *unit_of(const foldsvg_profile *p, const foldsvg_options *o)
{
    return o->countname ? o->countname : p->count_name;
}

/* A report without sections (each profile added says why it has nothing to draw). */
static foldsvg_status no_sections(foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NO_DATA, NULL, "the report has no sections: nothing to write");
}

foldsvg_status foldsvg_profile_write_top(const foldsvg_profile *p, FILE *out,
                                         const foldsvg_options *opts, foldsvg_error *err)
{
    if (!p || !out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL profile or stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    FS_FORWARD_IF_ERROR(fs_profile_check_inputs(p, o, err));
    if (p->tree.total == 0)
        return fs_profile_no_data(p, FOLDSVG_FORMAT_SVG, o, err);
    if (p->tree.has_diff) /* two counts a line: what changed, not only the second */
        return fs_profile_write_delta_top(p, out, o, 0, err);
    fs_tables tb;
    if (fs_tables_compute(&p->tree, top_rows(o), &tb) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    foldsvg_status st =
        fs_tables_write(&tb, o->report.top_format, o->report.per, unit_of(p, o), out, err);
    fs_tables_free(&tb);
    return st;
}

/* The tables (ROWS each) and the findings of a single profile T, from one pass of sums. */
static foldsvg_status tables_and_findings(const fs_tree *t, const foldsvg_options *o, size_t rows,
                                          fs_tables *tb, fs_findings *f)
{
    size_t nn = t->nnames ? t->nnames : 1;
    uint64_t *sums = calloc(2 * nn, sizeof *sums);
    foldsvg_status st = sums ? fs_tree_function_sums(t, NULL, sums, sums + nn) : FOLDSVG_E_NOMEM;
    if (st == FOLDSVG_OK)
        st = fs_tables_from_sums(t, sums, sums + nn, rows, tb);
    if (st == FOLDSVG_OK) {
        st = fs_findings_from_sums(t, 0, 0, o->report.per, &o->report.thresholds, sums, sums + nn,
                                   f);
        if (st)
            fs_tables_free(tb);
    }
    free(sums);
    return st;
}

/* The inputs a profile was read from, for the summary's first line. */
static const char *input_of(const foldsvg_profile *p)
{
    if (p->carried)
        return p->ncarried ? fs_buf_str(&p->carried_names) : "<stdin>";
    return p->facts.files[0] ? p->facts.files : "<stdin>";
}

/* The path of the one Firefox-Profiler or SP1 trace read, for `samply load`; NULL when the
 * profile is not one such file. */
static const char *trace_of(const foldsvg_profile *p)
{
    const fs_profile_facts *f = &p->facts;
    if (p->carried || f->ninputs != 1 || !f->files[0] || strcmp(f->files, "-") == 0 ||
        strcmp(f->files, "<stdin>") == 0)
        return NULL;
    if (strncmp(f->format, "Gecko", 5) == 0 || strncmp(f->format, "processed", 9) == 0)
        return f->files;
    return NULL;
}

foldsvg_status foldsvg_profile_write_summary(const foldsvg_profile *p, FILE *out,
                                             const foldsvg_options *opts, foldsvg_error *err)
{
    if (!p || !out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL profile or stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    FS_FORWARD_IF_ERROR(fs_profile_check_inputs(p, o, err));
    if (p->tree.total == 0)
        return fs_profile_no_data(p, FOLDSVG_FORMAT_SVG, o, err);
    if (p->tree.has_diff)
        return fs_profile_write_delta_top(p, out, o, 1, err);
    fs_tables tb;
    fs_findings f;
    if (tables_and_findings(&p->tree, o, fs_summary_rows(o), &tb, &f) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    fs_summary_facts sf = {p->facts.rate, p->facts.interval_ms, trace_of(p)};
    foldsvg_status st = fs_summary_write(&tb, &f, input_of(p), &sf, o->report.top_format,
                                         o->report.per, unit_of(p, o), out, err);
    fs_findings_free(&f);
    fs_tables_free(&tb);
    return st;
}

foldsvg_status fs_report_section_findings(fs_report_section *s, const fs_tree *t, int diff,
                                          const foldsvg_options *o, foldsvg_error *err)
{
    const fs_report_opts *r = &o->report;
    uint64_t pb = diff ? fs_delta_per(r->per_before, r->per) : 0;
    uint64_t pa = diff ? fs_delta_per(r->per_after, r->per) : r->per;
    if (fs_findings_compute(t, diff, pb, pa, &r->thresholds, &s->findings) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    s->has_findings = 1;
    return FOLDSVG_OK;
}

/* ---- sections ----------------------------------------------------------------------------- */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static foldsvg_status add_fact(fs_report_section *s, const char *label, const char *value)
{
    char *l = dup_str(label), *v = dup_str(value);
    if (!l || !v || FS_GROW(s->facts, s->facts_cap, s->nfacts + 1, 8) != FOLDSVG_OK) {
        free(l);
        free(v);
        return FOLDSVG_E_NOMEM;
    }
    s->facts[s->nfacts++] = (fs_report_fact){l, v};
    return FOLDSVG_OK;
}

/* The "File" fact: the names given, or those the profile recorded or carried. */
static foldsvg_status add_files(fs_report_section *s, const foldsvg_profile *p,
                                const char *const *inputs, size_t ninputs)
{
    const fs_profile_facts *f = &p->facts;
    if (p->carried) /* the inputs read were parts of these */
        return p->ncarried
                   ? add_fact(s, p->ncarried > 1 ? "Files" : "File", fs_buf_str(&p->carried_names))
                   : FOLDSVG_OK;
    if (!ninputs)
        return f->files[0] ? add_fact(s, f->ninputs > 1 ? "Files" : "File", f->files) : FOLDSVG_OK;
    fs_buf files = {0};
    for (size_t i = 0; i < ninputs; i++) {
        const char *name = inputs[i] && strcmp(inputs[i], "-") ? inputs[i] : "<stdin>";
        fs_buf_printf(&files, "%s%s", i ? ", " : "", name);
    }
    foldsvg_status st = fs_buf_status(&files);
    if (st == FOLDSVG_OK)
        st = add_fact(s, ninputs > 1 ? "Files" : "File", files.data);
    fs_buf_free(&files);
    return st;
}

static foldsvg_status add_facts(fs_report_section *s, const foldsvg_profile *p,
                                const char *const *inputs, size_t ninputs)
{
    const fs_profile_facts *f = &p->facts;
    char v[600];
    FS_FORWARD_IF_ERROR(add_files(s, p, inputs, ninputs));
    if (f->format[0]) {
        snprintf(v, sizeof v, "%s%s", f->format, f->gzip ? " (gzip)" : "");
        FS_FORWARD_IF_ERROR(add_fact(s, "Format", v));
    }
    if (f->product[0])
        FS_FORWARD_IF_ERROR(add_fact(s, "Product", f->product));
    if (f->threads) {
        fs_profile_threads_text(f, v, sizeof v);
        FS_FORWARD_IF_ERROR(add_fact(s, f->threads == 1 ? "Thread" : "Threads", v));
    }
    char n[32];
    if (f->rate) {
        fs_format_thousands(f->rate, n);
        if (f->rate == 1)
            snprintf(v, sizeof v, "1 sample every cycle");
        else
            snprintf(v, sizeof v, "1 sample every %s cycles", n);
        FS_FORWARD_IF_ERROR(add_fact(s, "Sample rate", v));
    } else if (f->interval_ms > 0) {
        snprintf(v, sizeof v, "every %g ms", f->interval_ms);
        FS_FORWARD_IF_ERROR(add_fact(s, "Sample interval", v));
    }
    fs_format_thousands(p->tree.total, n);
    char label[64];
    snprintf(label, sizeof label, "Total %.40s", s->countname);
    FS_FORWARD_IF_ERROR(add_fact(s, label, n));
    fs_format_thousands((uint64_t)p->tree.unique, n);
    return add_fact(s, "Unique stacks", n);
}

/* The tables' names copied into one block, so a section outlives its profile. */
static foldsvg_status copy_rows(fs_report_section *s)
{
    fs_tables *tb = &s->tables;
    size_t bytes = 1;
    for (size_t i = 0; i < tb->nself; i++)
        bytes += tb->self[i].len;
    for (size_t i = 0; i < tb->nincl; i++)
        bytes += tb->incl[i].len;
    s->names = malloc(bytes);
    if (!s->names)
        return FOLDSVG_E_NOMEM;
    size_t off = 0;
    for (int k = 0; k < 2; k++) {
        fs_top_row *rows = k ? tb->incl : tb->self;
        size_t n = k ? tb->nincl : tb->nself;
        for (size_t i = 0; i < n; i++) {
            if (rows[i].len)
                memcpy(s->names + off, rows[i].name, rows[i].len);
            rows[i].name = s->names + off;
            off += rows[i].len;
        }
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_report_section_svg(fs_report_section *s, const foldsvg_profile *p,
                                     const foldsvg_options *o, fs_palettemap *map,
                                     foldsvg_error *err)
{
    char *svg = NULL;
    size_t len = 0;
    foldsvg_options in_report = *o; /* the SVG's script draws the views in a report */
    in_report.svg.views = 1;
    fs_profile_job job = {p, FOLDSVG_FORMAT_SVG, &in_report, map};
    FS_FORWARD_IF_ERROR(fs_output_mem(fs_output_profile, &job, &in_report, &svg, &len, err));
    /* Inline SVG in HTML takes no XML declaration or DOCTYPE: start at the root element. */
    const char *root = strstr(svg, "<svg");
    if (!root) {
        foldsvg_free(svg);
        return fs_error(err, FOLDSVG_E_IO, NULL, "the rendered SVG has no <svg> element");
    }
    s->svg_len = len - (size_t)(root - svg);
    memmove(svg, root, s->svg_len + 1);
    s->svg = svg;
    return FOLDSVG_OK;
}

/* The views' data (render/stackdata.h), which only the script uses: the diff report has
 * none (its graph's counts are the after side's, its colors the deltas; views of one side
 * would read as the difference). */
static foldsvg_status add_stacks(fs_report_section *s, const foldsvg_profile *p,
                                 const foldsvg_options *o)
{
    if (o->svg.no_javascript)
        return FOLDSVG_OK;
    fs_buf stacks = {0};
    if (fs_stackdata_json(&stacks, &p->tree, &o->svg) != FOLDSVG_OK) {
        fs_buf_free(&stacks);
        return FOLDSVG_E_NOMEM;
    }
    s->stacks = stacks.data;
    s->stacks_len = stacks.len;
    return FOLDSVG_OK;
}

/* Fills S from P: the SVG (rendered with O, whose id prefix the caller chose), the views'
 * stacks, the tables and the facts. */
static foldsvg_status make_section(fs_report_section *s, const foldsvg_profile *p,
                                   const char *heading, const char *const *inputs, size_t ninputs,
                                   const foldsvg_options *o, fs_palettemap *map, foldsvg_error *err)
{
    memset(s, 0, sizeof *s);
    if (p->tree.total == 0)
        return fs_profile_no_data(p, FOLDSVG_FORMAT_HTML, o, err);
    FS_FORWARD_IF_ERROR(fs_report_section_svg(s, p, o, map, err));
    s->per = o->report.per;
    s->countname = dup_str(unit_of(p, o));
    s->heading = heading ? dup_str(heading) : NULL;
    foldsvg_status st = FOLDSVG_E_NOMEM;
    int both = !p->tree.has_diff; /* a differential input's findings are of its change */
    if (s->countname && (!heading || s->heading) && add_stacks(s, p, o) == FOLDSVG_OK &&
        (both ? tables_and_findings(&p->tree, o, top_rows(o), &s->tables, &s->findings)
              : fs_tables_compute(&p->tree, top_rows(o), &s->tables)) == FOLDSVG_OK) {
        s->has_findings = both;
        if (copy_rows(s) == FOLDSVG_OK && add_facts(s, p, inputs, ninputs) == FOLDSVG_OK &&
            (both || fs_report_section_findings(s, &p->tree, 1, o, NULL) == FOLDSVG_OK))
            st = FOLDSVG_OK;
    }
    if (st) {
        fs_report_section_free(s);
        return fs_error(err, st, NULL, "out of memory");
    }
    return FOLDSVG_OK;
}

static const char *page_title(const foldsvg_options *o)
{
    return o->svg.title ? o->svg.title : "Profile report";
}

foldsvg_status fs_report_render_profile(const foldsvg_profile *p, const foldsvg_options *o,
                                        xmlOutputBufferPtr out, foldsvg_error *err)
{
    fs_report_section s;
    foldsvg_status st = make_section(&s, p, NULL, NULL, 0, o, NULL, err);
    if (st) {
        xmlOutputBufferClose(out);
        return st;
    }
    st = fs_report_write_html(&s, 1, page_title(o), o->svg.theme, out, err);
    fs_report_section_free(&s);
    return st;
}

/* ---- several profiles in one report --------------------------------------------------------- */

struct foldsvg_report {
    foldsvg_options *opts;
    fs_report_section *secs;
    size_t n, cap;
    unsigned formats; /* of the sections' inputs, for the input options */
    /* --cp: the palette map every section draws with, loaded with the first and saved once
     * the page is in place (so that a page that fails, or that is refused for naming the
     * map's file, leaves the map as it was) */
    fs_palettemap *pmap;
    char last_name[1024];
    const char *last_what;
};

foldsvg_report *foldsvg_report_new(const foldsvg_options *opts)
{
    foldsvg_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->opts = foldsvg_options_clone(opts ? opts : fs_default_options());
    if (!r->opts) {
        free(r);
        return NULL;
    }
    return r;
}

void foldsvg_report_free(foldsvg_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        fs_report_section_free(&r->secs[i]);
    free(r->secs);
    fs_palettemap_free(r->pmap);
    foldsvg_options_free(r->opts);
    free(r);
}

size_t foldsvg_report_sections(const foldsvg_report *r)
{
    return r ? r->n : 0;
}

foldsvg_status fs_report_add_section(foldsvg_report *r, fs_section_maker make, const void *what,
                                     foldsvg_error *err)
{
    if (FS_GROW(r->secs, r->cap, r->n + 1, 4) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (r->opts->cp && !r->pmap) {
        if (!(r->pmap = fs_palettemap_new()))
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        foldsvg_status st = fs_palettemap_load(r->pmap, fs_palette_map_path(r->opts), err);
        if (st) {
            fs_palettemap_free(r->pmap);
            r->pmap = NULL;
            return st;
        }
    }
    /* Every SVG on the page needs its own ids. The first keeps the usual prefix (the
     * user's, or the content hash); later ones get a suffix no content hash can have. */
    foldsvg_options *o = r->opts;
    char *saved = o->svg.id_prefix;
    char prefix[96];
    if (r->n > 0) {
        snprintf(prefix, sizeof prefix, "%s-s%zu", saved ? saved : "fg", r->n + 1);
        o->svg.id_prefix = prefix;
    }
    foldsvg_status st = make(&r->secs[r->n], what, o, r->pmap, err);
    o->svg.id_prefix = saved;
    if (st)
        return st;
    r->n++;
    return FOLDSVG_OK;
}

typedef struct profile_section {
    const foldsvg_profile *p;
    const char *heading;
    const char *const *inputs;
    size_t ninputs;
} profile_section;

static foldsvg_status make_profile_section(fs_report_section *s, const void *what,
                                           const foldsvg_options *o, fs_palettemap *map,
                                           foldsvg_error *err)
{
    const profile_section *ps = what;
    return make_section(s, ps->p, ps->heading, ps->inputs, ps->ninputs, o, map, err);
}

foldsvg_status foldsvg_report_add(foldsvg_report *r, const foldsvg_profile *p, const char *heading,
                                  const char *const *inputs, size_t ninputs, foldsvg_error *err)
{
    if (!r || !p || (!inputs && ninputs))
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL report, profile or inputs");
    profile_section ps = {p, heading, inputs, ninputs};
    FS_FORWARD_IF_ERROR(fs_report_add_section(r, make_profile_section, &ps, err));
    r->formats |= p->formats;
    if (p->last_what) {
        snprintf(r->last_name, sizeof r->last_name, "%s", p->last_name);
        r->last_what = p->last_what;
    }
    return FOLDSVG_OK;
}

/* The page into OUT (whose failures the callers report). */
static foldsvg_status render_report(const foldsvg_report *r, fs_out *out, foldsvg_error *err)
{
    xmlOutputBufferPtr xb = fs_out_xml(out);
    if (!xb)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the HTML output");
    return fs_report_write_html(r->secs, r->n, page_title(r->opts), r->opts->svg.theme, xb, err);
}

static foldsvg_status draw_report(const void *job, fs_out *out, fs_palettemap **pmap,
                                  foldsvg_error *err)
{
    *pmap = NULL;
    return render_report(job, out, err);
}

foldsvg_status foldsvg_report_render(const foldsvg_report *r, FILE *out, foldsvg_error *err)
{
    if (!r || !out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL report or stream");
    FS_FORWARD_IF_ERROR(
        fs_options_check_inputs(r->opts, r->formats, r->last_name, r->last_what, err));
    if (r->n == 0)
        return no_sections(err);
    FS_FORWARD_IF_ERROR(fs_output_stream(draw_report, r, r->opts, out, err));
    return r->pmap ? fs_palettemap_save(r->pmap, fs_palette_map_path(r->opts), err) : FOLDSVG_OK;
}

foldsvg_status foldsvg_report_write(const foldsvg_report *r, const char *path, foldsvg_error *err)
{
    if (!r)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL report");
    FS_FORWARD_IF_ERROR(fs_outputs_check(path, FOLDSVG_FORMAT_HTML, r->opts, err));
    FS_FORWARD_IF_ERROR(
        fs_options_check_inputs(r->opts, r->formats, r->last_name, r->last_what, err));
    if (r->n == 0)
        return no_sections(err);
    FS_FORWARD_IF_ERROR(fs_output_file(draw_report, r, r->opts, path, err));
    return r->pmap ? fs_palettemap_save(r->pmap, fs_palette_map_path(r->opts), err) : FOLDSVG_OK;
}
