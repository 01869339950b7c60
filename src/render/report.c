#include "render/report.h"

#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotation.h"
#include "analysis/summary.h"
#include "render/assets.h"
#include "render/findings_html.h"
#include "render/svg.h"
#include "render/template.h"
#include "render/theme.h"
#include "render/xmlw.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/numfmt.h"

void fs_report_section_free(fs_report_section *s)
{
    if (!s)
        return;
    free(s->heading);
    for (size_t i = 0; i < s->nfacts; i++) {
        free(s->facts[i].label);
        free(s->facts[i].value);
    }
    free(s->facts);
    free(s->svg);
    free(s->stacks);
    fs_tables_free(&s->tables);
    free(s->names);
    free(s->countname);
    fs_diff_section_free(s->diff);
    free(s->diff);
    if (s->has_findings)
        fs_findings_free(&s->findings);
    memset(s, 0, sizeof *s);
}

static void nl(fs_xmlw *c)
{
    fs_xmlw_raw(c, "\n", 1);
}

/* An element with only text in it (cleaned: labels carry user text such as --countname). */
static void element(fs_xmlw *c, const char *name, const char *klass, const char *s)
{
    fs_xmlw_start(c, name);
    if (klass)
        fs_xmlw_attr(c, "class", klass);
    fs_xmlw_text_clean(c, s, strlen(s));
    fs_xmlw_end_full(c);
}

static void write_facts(fs_xmlw *c, const fs_report_section *s)
{
    fs_xmlw_start(c, "dl");
    fs_xmlw_attr(c, "class", "fs-facts");
    for (size_t i = 0; i < s->nfacts; i++) {
        fs_xmlw_start(c, "div");
        element(c, "dt", NULL, s->facts[i].label);
        fs_xmlw_start(c, "dd");
        fs_xmlw_text_clean(c, s->facts[i].value, strlen(s->facts[i].value));
        fs_xmlw_end_full(c);
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    nl(c);
}

static void write_table(fs_xmlw *c, const fs_report_section *s, const char *kind, const char *title,
                        const fs_top_row *rows, size_t n, size_t funcs)
{
    const fs_tables *tb = &s->tables;
    fs_xmlw_start(c, "table");
    fs_xmlw_attr(c, "class", "fs-top");
    fs_xmlw_attr(c, "data-kind", kind);
    fs_xmlw_start(c, "caption");
    fs_xmlw_text(c, title);
    char note[96];
    char shown[32], all[32];
    fs_format_thousands((uint64_t)n, shown);
    fs_format_thousands((uint64_t)funcs, all);
    snprintf(note, sizeof note, "top %s of %s function%s", shown, all, funcs == 1 ? "" : "s");
    fs_xmlw_text(c, " ");
    element(c, "span", NULL, note);
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "thead");
    fs_xmlw_start(c, "tr");
    fs_xmlw_start(c, "th");
    fs_xmlw_attr(c, "scope", "col");
    fs_xmlw_attr(c, "class", "num");
    fs_xmlw_text_clean(c, s->countname, strlen(s->countname));
    if (s->per > 1)
        fs_xmlw_text(c, " per iteration");
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "th");
    fs_xmlw_attr(c, "scope", "col");
    fs_xmlw_attr(c, "class", "num");
    fs_xmlw_text(c, "%");
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "th");
    fs_xmlw_attr(c, "scope", "col");
    fs_xmlw_text(c, "function");
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    fs_xmlw_start(c, "tbody");
    char num[48], pct[32], bar[48];
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, s->per, 1, num);
        double p = fs_tables_percent(rows[i].count, tb->total);
        snprintf(pct, sizeof pct, "%.2f%%", p);
        snprintf(bar, sizeof bar, "--pct:%.2f%%", p);
        nl(c);
        fs_xmlw_start(c, "tr");
        element(c, "td", "num", num);
        fs_xmlw_start(c, "td");
        fs_xmlw_attr(c, "class", "num pct");
        fs_xmlw_attr(c, "style", bar);
        fs_xmlw_text(c, pct);
        fs_xmlw_end_full(c);
        fs_xmlw_start(c, "td");
        fs_xmlw_attr(c, "class", "fn");
        fs_xmlw_start(c, "button");
        fs_xmlw_attr(c, "type", "button");
        fs_xmlw_attr(c, "class", "fs-fn");
        fs_xmlw_attr(c, "data-fn",
                     fs_xmlw_clean(c, rows[i].name, fs_deannotated_len(rows[i].name, rows[i].len)));
        if (s->stacks) /* no stacks (--no-javascript): no views to promise */
            fs_xmlw_attr(c, "title", "Its callers and callees (click again to close)");
        fs_xmlw_text_clean(c, rows[i].name, rows[i].len);
        fs_xmlw_end_full(c);
        fs_xmlw_end_full(c);
        fs_xmlw_end_full(c);
    }
    fs_xmlw_end_full(c);
    fs_xmlw_end_full(c);
    nl(c);
}

static void write_section(fs_xmlw *c, const fs_report_section *s, size_t index)
{
    char id[48];
    snprintf(id, sizeof id, "fs-section-%zu", index + 1);
    nl(c);
    fs_xmlw_start(c, "section");
    fs_xmlw_attr(c, "class", "fs-section");
    fs_xmlw_attr(c, "id", id);
    nl(c);
    if (s->heading) {
        fs_xmlw_start(c, "h2");
        fs_xmlw_text_clean(c, s->heading, strlen(s->heading));
        fs_xmlw_end_full(c);
        nl(c);
    }
    /* the facts and the graph first (the first screen), then what stands out */
    if (s->diff)
        fs_diff_write_facts(c, s->diff);
    else
        write_facts(c, s);
    fs_xmlw_start(c, "div");
    fs_xmlw_attr(c, "class", "fs-graph");
    nl(c);
    fs_xmlw_raw(c, s->svg, s->svg_len);
    fs_xmlw_end_full(c);
    nl(c);
    if (s->stacks) {
        /* JSON that escapes every '<' (render/jsonstr.h): it cannot end the element */
        fs_xmlw_start(c, "script");
        fs_xmlw_attr(c, "type", "application/json");
        fs_xmlw_attr(c, "class", "fs-stacks");
        fs_xmlw_raw(c, s->stacks, s->stacks_len);
        fs_xmlw_end_full(c);
        nl(c);
    }
    if (s->has_findings)
        fs_findings_write_html(c, &s->findings, s->countname, s->stacks != NULL);
    if (s->diff) {
        fs_diff_write_tables(c, s->diff);
        fs_xmlw_start(c, "p");
        fs_xmlw_attr(c, "class", "fs-note");
        fs_diff_write_note(c, s->diff);
        fs_xmlw_end_full(c);
        nl(c);
        fs_xmlw_end_full(c);
        nl(c);
        return;
    }
    fs_xmlw_start(c, "div");
    fs_xmlw_attr(c, "class", "fs-tables");
    nl(c);
    write_table(c, s, "self", "Self time", s->tables.self, s->tables.nself, s->tables.self_funcs);
    write_table(c, s, "inclusive", "Inclusive time", s->tables.incl, s->tables.nincl,
                s->tables.incl_funcs);
    fs_xmlw_end_full(c);
    nl(c);
    fs_xmlw_start(c, "p");
    fs_xmlw_attr(c, "class", "fs-note");
    fs_xmlw_text(c, "Self time: the function is the leaf of the stack. Inclusive time: the "
                    "function is anywhere on the stack, counted once per stack.");
    /* the views need the stacks, which --no-javascript leaves out */
    if (s->stacks)
        fs_xmlw_text(c, " Click a function (or Shift+click a frame) to see its callers and "
                        "callees.");
    if (s->per > 1) {
        char per[96], k[32];
        fs_format_thousands(s->per, k);
        snprintf(per, sizeof per, " Counts are divided by %s (--per): cost per iteration.", k);
        fs_xmlw_text(c, per);
    }
    fs_xmlw_end_full(c);
    nl(c);
    fs_xmlw_end_full(c);
    nl(c);
}

/* The style, from its template (src/render/assets/report.css), for THEME. */
static void write_style(fs_xmlw *c, int theme)
{
    const fs_template_var vars[] = {
        {"scheme", fs_theme_color_scheme(theme)},
        {"dark", fs_theme_dark_media(theme)},
    };
    fs_buf css = {0};
    if (fs_template_expand(&css, (const char *)fs_asset_report_css, fs_asset_report_css_len, vars,
                           sizeof vars / sizeof vars[0]) != FOLDSVG_OK)
        c->st = FOLDSVG_E_NOMEM;
    else
        fs_xmlw_raw(c, css.data, css.len);
    fs_buf_free(&css);
}

foldsvg_status fs_report_write_html(const fs_report_section *secs, size_t n, const char *title,
                                    int theme, xmlOutputBufferPtr out, foldsvg_error *err)
{
    fs_xmlw c;
    FS_FORWARD_IF_ERROR(fs_xmlw_begin(&c, out, "HTML", err));
    const char *t = title ? title : "Profile report";
    fs_xmlw_check(&c, xmlTextWriterWriteDTD(c.w, FS_XC("html"), NULL, NULL, NULL));
    nl(&c);
    fs_xmlw_start(&c, "html");
    fs_xmlw_attr(&c, "lang", "en");
    nl(&c);
    fs_xmlw_start(&c, "head");
    nl(&c);
    fs_xmlw_start(&c, "meta");
    fs_xmlw_attr(&c, "charset", "utf-8");
    fs_xmlw_end(&c);
    nl(&c);
    fs_xmlw_start(&c, "meta");
    fs_xmlw_attr(&c, "name", "viewport");
    fs_xmlw_attr(&c, "content", "width=device-width, initial-scale=1");
    fs_xmlw_end(&c);
    nl(&c);
    fs_xmlw_start(&c, "meta");
    fs_xmlw_attr(&c, "name", "color-scheme");
    fs_xmlw_attr(&c, "content", fs_theme_color_scheme(theme));
    fs_xmlw_end(&c);
    nl(&c);
    fs_xmlw_start(&c, "meta");
    fs_xmlw_attr(&c, "name", "generator");
    fs_xmlw_attr(&c, "content", "foldsvg");
    fs_xmlw_end(&c);
    nl(&c);
    fs_xmlw_start(&c, "title");
    fs_xmlw_text_clean(&c, t, strlen(t));
    fs_xmlw_end_full(&c);
    nl(&c);
    /* The assets are ours and never hold "</style" or "</script", so they go in raw. */
    fs_xmlw_start(&c, "style");
    nl(&c);
    write_style(&c, theme);
    for (size_t i = 0; i < n; i++) {
        if (secs[i].diff) { /* the diff sections' own rules, once */
            fs_xmlw_raw(&c, (const char *)fs_asset_diffreport_css, fs_asset_diffreport_css_len);
            break;
        }
    }
    fs_xmlw_end_full(&c);
    nl(&c);
    fs_xmlw_end_full(&c);
    nl(&c);
    fs_xmlw_start(&c, "body");
    nl(&c);
    fs_xmlw_start(&c, "header");
    fs_xmlw_start(&c, "h1");
    fs_xmlw_text_clean(&c, t, strlen(t));
    fs_xmlw_end_full(&c);
    fs_xmlw_end_full(&c);
    nl(&c);
    fs_xmlw_start(&c, "main");
    for (size_t i = 0; i < n; i++)
        write_section(&c, &secs[i], i);
    fs_xmlw_end_full(&c);
    nl(&c);
    fs_xmlw_start(&c, "script");
    nl(&c);
    fs_xmlw_raw(&c, (const char *)fs_asset_report_js, fs_asset_report_js_len);
    fs_xmlw_end_full(&c);
    nl(&c);
    fs_xmlw_end_full(&c);
    nl(&c);
    fs_xmlw_end_full(&c);
    nl(&c);
    return fs_xmlw_finish(&c, "the report", err);
}
