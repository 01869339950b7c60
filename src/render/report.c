#include "render/report.h"

#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "render/assets.h"
#include "render/xmltext.h"
#include "util/buf.h"
#include "util/error.h"

#define XC(s) ((const xmlChar *)(s))

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
    fs_tables_free(&s->tables);
    free(s->names);
    free(s->countname);
    memset(s, 0, sizeof *s);
}

typedef struct html_ctx {
    xmlTextWriterPtr w;
    int failed;
    int nomem;
    fs_buf clean;
} html_ctx;

static void check(html_ctx *c, int rc)
{
    if (rc < 0)
        c->failed = 1;
}

/* Input bytes made safe for XML (and so for HTML): invalid UTF-8 and forbidden characters
 * become U+FFFD. The result lives until the next call. */
static const char *clean(html_ctx *c, const char *s, size_t n)
{
    fs_buf_clear(&c->clean);
    if (fs_xml_clean(&c->clean, s, n) != 0 || fs_buf_append(&c->clean, "", 0) != 0) {
        c->nomem = 1;
        return "";
    }
    return c->clean.data ? c->clean.data : "";
}

static void start(html_ctx *c, const char *name)
{
    check(c, xmlTextWriterStartElement(c->w, XC(name)));
}

/* Always the long form: HTML reads "<div/>" as an open tag. */
static void end(html_ctx *c)
{
    check(c, xmlTextWriterFullEndElement(c->w));
}

static void attr(html_ctx *c, const char *name, const char *value)
{
    check(c, xmlTextWriterWriteAttribute(c->w, XC(name), XC(value)));
}

static void text(html_ctx *c, const char *s)
{
    check(c, xmlTextWriterWriteString(c->w, XC(s)));
}

static void text_bytes(html_ctx *c, const char *s, size_t n)
{
    text(c, clean(c, s, n));
}

static void raw(html_ctx *c, const char *s, size_t n)
{
    if (n > 0x7fffffff) {
        c->failed = 1;
        return;
    }
    check(c, xmlTextWriterWriteRawLen(c->w, XC(s), (int)n));
}

static void nl(html_ctx *c)
{
    raw(c, "\n", 1);
}

/* An element with only text in it. */
static void element(html_ctx *c, const char *name, const char *klass, const char *s)
{
    start(c, name);
    if (klass)
        attr(c, "class", klass);
    text(c, s);
    end(c);
}

/* inferno's annotations (_[k] and the like) are not part of the name the flamegraph
 * shows and searches. */
static size_t deannotated_len(const char *s, size_t n)
{
    if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
        (s[n - 2] == 'k' || s[n - 2] == 'w' || s[n - 2] == 'i' || s[n - 2] == 'j'))
        return n - 4;
    return n;
}

static void write_facts(html_ctx *c, const fs_report_section *s)
{
    start(c, "dl");
    attr(c, "class", "fs-facts");
    for (size_t i = 0; i < s->nfacts; i++) {
        start(c, "div");
        element(c, "dt", NULL, s->facts[i].label);
        start(c, "dd");
        text_bytes(c, s->facts[i].value, strlen(s->facts[i].value));
        end(c);
        end(c);
    }
    end(c);
    nl(c);
}

static void write_table(html_ctx *c, const fs_report_section *s, const char *kind,
                        const char *title, const fs_top_row *rows, size_t n, size_t funcs)
{
    const fs_tables *tb = &s->tables;
    start(c, "table");
    attr(c, "class", "fs-top");
    attr(c, "data-kind", kind);
    start(c, "caption");
    text(c, title);
    char note[96];
    snprintf(note, sizeof note, "top %zu of %zu function%s", n, funcs, funcs == 1 ? "" : "s");
    text(c, " ");
    element(c, "span", NULL, note);
    end(c);
    start(c, "thead");
    start(c, "tr");
    start(c, "th");
    attr(c, "scope", "col");
    attr(c, "class", "num");
    text_bytes(c, s->countname, strlen(s->countname));
    if (s->per > 1)
        text(c, " per iteration");
    end(c);
    start(c, "th");
    attr(c, "scope", "col");
    attr(c, "class", "num");
    text(c, "%");
    end(c);
    start(c, "th");
    attr(c, "scope", "col");
    text(c, "function");
    end(c);
    end(c);
    end(c);
    start(c, "tbody");
    char num[48], pct[32], bar[48];
    for (size_t i = 0; i < n; i++) {
        fs_tables_format_count(rows[i].count, s->per, 1, num);
        double p = fs_tables_percent(rows[i].count, tb->total);
        snprintf(pct, sizeof pct, "%.2f%%", p);
        snprintf(bar, sizeof bar, "--pct:%.2f%%", p);
        nl(c);
        start(c, "tr");
        element(c, "td", "num", num);
        start(c, "td");
        attr(c, "class", "num pct");
        attr(c, "style", bar);
        text(c, pct);
        end(c);
        start(c, "td");
        attr(c, "class", "fn");
        start(c, "button");
        attr(c, "type", "button");
        attr(c, "class", "fs-fn");
        attr(c, "data-fn", clean(c, rows[i].name, deannotated_len(rows[i].name, rows[i].len)));
        attr(c, "title", "Highlight in the flamegraph (click again to clear)");
        text_bytes(c, rows[i].name, rows[i].len);
        end(c);
        end(c);
        end(c);
    }
    end(c);
    end(c);
    nl(c);
}

static void write_section(html_ctx *c, const fs_report_section *s, size_t index)
{
    char id[48];
    snprintf(id, sizeof id, "fs-section-%zu", index + 1);
    nl(c);
    start(c, "section");
    attr(c, "class", "fs-section");
    attr(c, "id", id);
    nl(c);
    if (s->heading) {
        start(c, "h2");
        text_bytes(c, s->heading, strlen(s->heading));
        end(c);
        nl(c);
    }
    write_facts(c, s);
    start(c, "div");
    attr(c, "class", "fs-graph");
    nl(c);
    raw(c, s->svg, s->svg_len);
    end(c);
    nl(c);
    start(c, "div");
    attr(c, "class", "fs-tables");
    nl(c);
    write_table(c, s, "self", "Self time", s->tables.self, s->tables.nself, s->tables.self_funcs);
    write_table(c, s, "inclusive", "Inclusive time", s->tables.incl, s->tables.nincl,
                s->tables.incl_funcs);
    end(c);
    nl(c);
    start(c, "p");
    attr(c, "class", "fs-note");
    text(c, "Self time: the function is the leaf of the stack. Inclusive time: the function is "
            "anywhere on the stack, counted once per stack. Click a function to highlight it in "
            "the flamegraph.");
    if (s->per > 1) {
        char per[96];
        snprintf(per, sizeof per, " Counts are divided by %llu (--per): cost per iteration.",
                 (unsigned long long)s->per);
        text(c, per);
    }
    end(c);
    nl(c);
    end(c);
    nl(c);
}

foldsvg_status fs_report_write_html(const fs_report_section *secs, size_t n, const char *title,
                                    xmlOutputBufferPtr out, foldsvg_error *err)
{
    html_ctx c;
    memset(&c, 0, sizeof c);
    c.w = xmlNewTextWriter(out);
    if (!c.w) {
        xmlOutputBufferClose(out);
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the HTML writer");
    }
    const char *t = title ? title : "Profile report";
    check(&c, xmlTextWriterWriteDTD(c.w, XC("html"), NULL, NULL, NULL));
    nl(&c);
    start(&c, "html");
    attr(&c, "lang", "en");
    nl(&c);
    start(&c, "head");
    nl(&c);
    start(&c, "meta");
    attr(&c, "charset", "utf-8");
    check(&c, xmlTextWriterEndElement(c.w));
    nl(&c);
    start(&c, "meta");
    attr(&c, "name", "viewport");
    attr(&c, "content", "width=device-width, initial-scale=1");
    check(&c, xmlTextWriterEndElement(c.w));
    nl(&c);
    start(&c, "meta");
    attr(&c, "name", "color-scheme");
    attr(&c, "content", "light dark");
    check(&c, xmlTextWriterEndElement(c.w));
    nl(&c);
    start(&c, "meta");
    attr(&c, "name", "generator");
    attr(&c, "content", "foldsvg");
    check(&c, xmlTextWriterEndElement(c.w));
    nl(&c);
    start(&c, "title");
    text_bytes(&c, t, strlen(t));
    end(&c);
    nl(&c);
    /* The assets are ours and never hold "</style" or "</script", so they go in raw. */
    start(&c, "style");
    nl(&c);
    raw(&c, (const char *)fs_asset_report_css, fs_asset_report_css_len);
    end(&c);
    nl(&c);
    end(&c);
    nl(&c);
    start(&c, "body");
    nl(&c);
    start(&c, "header");
    start(&c, "h1");
    text_bytes(&c, t, strlen(t));
    end(&c);
    end(&c);
    nl(&c);
    start(&c, "main");
    for (size_t i = 0; i < n; i++)
        write_section(&c, &secs[i], i);
    end(&c);
    nl(&c);
    start(&c, "script");
    nl(&c);
    raw(&c, (const char *)fs_asset_report_js, fs_asset_report_js_len);
    end(&c);
    nl(&c);
    end(&c);
    nl(&c);
    end(&c);
    nl(&c);
    check(&c, xmlTextWriterFlush(c.w));
    if (out->error)
        c.failed = 1;
    xmlFreeTextWriter(c.w); /* closes OUT as well */
    fs_buf_free(&c.clean);
    if (c.nomem)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory while writing the report");
    if (c.failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "writing the report failed");
    return FOLDSVG_OK;
}
