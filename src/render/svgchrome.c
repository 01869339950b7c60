/* What the SVG draws around its frames (render/svgchrome.h). */
#include "render/svgchrome.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <string.h>

#include "render/script.h"
#include "render/svgstyle.h"
#include "render/theme.h"
#include "render/xmltext.h"
#include "util/numfmt.h"
#include "util/utf8.h"

#define FS_XC(s) ((const xmlChar *)(s))

static void write_notes(svg_ctx *c)
{
    fs_buf clean = {0}, safe = {0};
    const char *notes = c->o->notes ? c->o->notes : "";
    fs_xml_clean(&clean, notes, strlen(notes));
    /* "--" may not appear inside a comment, nor may it end with '-'. */
    fs_buf_puts(&safe, "NOTES: ");
    for (size_t i = 0; i < clean.len; i++) {
        fs_buf_append(&safe, &clean.data[i], 1);
        if (clean.data[i] == '-' && (i + 1 == clean.len || clean.data[i + 1] == '-'))
            fs_buf_puts(&safe, " ");
    }
    if (clean.failed || safe.failed)
        c->x.st = FOLDSVG_E_NOMEM;
    else
        fs_xmlw_check(&c->x, xmlTextWriterWriteComment(c->x.w, FS_XC(safe.data)));
    fs_buf_free(&clean);
    fs_buf_free(&safe);
}

/* The style (render/svgstyle.c). */
static void write_style(svg_ctx *c)
{
    fs_buf css = {0};
    if (fs_svg_style(&css, c->o, c->prefix, c->fs, &c->bg) != FOLDSVG_OK) {
        c->x.st = FOLDSVG_E_NOMEM;
    } else {
        fs_xmlw_start(&c->x, "style");
        fs_xmlw_attr(&c->x, "type", "text/css");
        text_bytes(c, css.data, css.len);
        fs_xmlw_end(&c->x);
    }
    fs_buf_free(&css);
}

static void ui_text(svg_ctx *c, const char *id, const char *klass, int fill, const char *x,
                    unsigned y, const char *content)
{
    fs_xmlw_start(&c->x, "text");
    id_attr(c, id);
    if (klass)
        fs_xmlw_attr(&c->x, "class", klass);
    if (fill)
        fs_xmlw_attrf(&c->x, "fill", "rgb(%u,%u,%u)", c->o->uicolor.r, c->o->uicolor.g,
                      c->o->uicolor.b);
    fs_xmlw_attr(&c->x, "x", x);
    fs_xmlw_attrf(&c->x, "y", "%u", y);
    text_bytes(c, content, strlen(content));
    fs_xmlw_end(&c->x);
}

/* A differential graph says what its colors mean, in the title's row left of Search:
 * "■ grew ■ shrank, by self cycles". It takes no room of its own (the frames lie where
 * inferno puts them), so it is left out where it would run into the title (the widths are
 * the labels' estimate). */
static void write_legend(svg_ctx *c, const char *title)
{
    const fs_svg_opts *o = c->o;
    if (!c->any_delta || o->colordiffusion)
        return;
    const char *unit = c->in->countname ? c->in->countname : "samples";
    double em = o->fontwidth, end = c->W - 10 - 7.0 * c->fs;
    double legend_w = (double)(fs_utf8_chars(unit, strlen(unit)) + 34) * c->fs * em;
    double title_w = (double)fs_utf8_chars(title, strlen(title)) * (c->fs + 5) * em;
    if (end - legend_w < c->W / 2.0 + title_w / 2 + c->fs)
        return;
    fs_rgb more = fs_diff_rgb(1, 1, o->negate), less = fs_diff_rgb(-1, 1, o->negate);
    fs_xmlw_start(&c->x, "text");
    id_attr(c, "legend");
    fs_xmlw_attrf(&c->x, "fill", "rgb(%u,%u,%u)", o->uicolor.r, o->uicolor.g, o->uicolor.b);
    fs_xmlw_attrf(&c->x, "x", "%u", c->W - 10 - 7 * c->fs);
    fs_xmlw_attrf(&c->x, "y", "%u", 2 * c->fs);
    fs_xmlw_attr(&c->x, "text-anchor", "end");
    const fs_rgb *swatch[] = {&more, &less};
    const char *word[] = {" grew ", " shrank, by "};
    for (int i = 0; i < 2; i++) {
        fs_xmlw_start(&c->x, "tspan");
        fs_xmlw_attrf(&c->x, "fill", "rgb(%u,%u,%u)", swatch[i]->r, swatch[i]->g, swatch[i]->b);
        text_bytes(c, "\xE2\x96\xA0", 3); /* U+25A0, a black square */
        fs_xmlw_end(&c->x);
        text_bytes(c, word[i], strlen(word[i]));
    }
    const char *by = o->diff_inclusive ? "inclusive " : "self ";
    text_bytes(c, by, strlen(by));
    text_bytes(c, unit, strlen(unit));
    fs_xmlw_end(&c->x);
}

static const char *default_title(const fs_svg_opts *o, int chart)
{
    if (o->title)
        return o->title;
    if (chart)
        return "Flame Chart";
    if (o->inverted)
        return "Icicle Graph";
    return "Flame Graph";
}

void fs_svg_write_chrome(svg_ctx *c)
{
    const fs_svg_opts *o = c->o;
    xmlTextWriterPtr w = c->x.w;
    if (o->pretty_xml) {
        fs_xmlw_check(&c->x, xmlTextWriterSetIndent(w, 1));
        fs_xmlw_check(&c->x, xmlTextWriterSetIndentString(w, FS_XC("    ")));
    }
    fs_xmlw_check(&c->x, xmlTextWriterStartDocument(w, "1.0", NULL, "no"));
    fs_xmlw_check(&c->x, xmlTextWriterWriteDTD(
                             w, FS_XC("svg"), FS_XC("-//W3C//DTD SVG 1.1//EN"),
                             FS_XC("http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"), NULL));
    const char *title = default_title(o, c->in->log || c->in->chart);
    char num[32];
    fs_format_thousands(c->total, num);

    fs_xmlw_start(&c->x, "svg");
    fs_xmlw_attr(&c->x, "version", "1.1");
    fs_xmlw_attrf(&c->x, "width", "%u", c->W);
    fs_xmlw_attrf(&c->x, "height", "%u", c->H);
    fs_xmlw_attrf(&c->x, "viewBox", "0 0 %u %u", c->W, c->H);
    fs_xmlw_attr(&c->x, "xmlns", "http://www.w3.org/2000/svg");
    fs_xmlw_attr(&c->x, "xmlns:xlink", "http://www.w3.org/1999/xlink");
    fs_xmlw_attr(&c->x, "xmlns:fg", "http://github.com/jonhoo/inferno");
    id_attr(c, "root");
    fs_xmlw_attr(&c->x, "role", "img");
    {
        fs_buf label = {0};
        if (fs_buf_printf(&label, "%s: %s %s in %zu frames", title, num, c->in->countname,
                          c->nframes) != 0)
            c->x.st = FOLDSVG_E_NOMEM;
        else
            attr_bytes(c, "aria-label", label.data);
        fs_buf_free(&label);
    }

    fs_script_settings ss = {
        .id_prefix = c->prefix,
        .nametype = o->nametype ? o->nametype : "Function:",
        .countname = c->in->countname,
        .fontsize = (int)c->fs,
        .fontwidth = o->fontwidth,
        .xpad = 10,
        .inverted = o->inverted,
        .searchcolor = NULL,
        .fluid = o->width == 0,
        .width = (int)c->W,
        .truncate_text_right = o->truncate_text_right,
        .total = c->total,
        .factor = o->factor,
        .minwidth = o->minwidth,
        .theme = o->theme == FS_THEME_AUTO ? NULL : fs_theme_name(o->theme),
        .views = o->views,
        .chart = c->in->log || c->in->chart,
    };
    char search_rgb[32];
    snprintf(search_rgb, sizeof search_rgb, "rgb(%u,%u,%u)", o->searchcolor.r, o->searchcolor.g,
             o->searchcolor.b);
    ss.searchcolor = search_rgb;
    fs_xmlw_check(&c->x, fs_script_write_root_attributes(w, &ss));

    fs_xmlw_start(&c->x, "title");
    text_bytes(c, title, strlen(title));
    fs_xmlw_end(&c->x);
    fs_xmlw_check(
        &c->x,
        xmlTextWriterWriteComment(
            w, FS_XC("Flame graph stack visualization, drawn by foldsvg " FOLDSVG_VERSION_STRING
                     ". Click a frame to zoom, Search to highlight.")));
    write_notes(c);

    fs_xmlw_start(&c->x, "defs");
    fs_xmlw_start(&c->x, "linearGradient");
    id_attr(c, "background");
    fs_xmlw_attr(&c->x, "y1", "0");
    fs_xmlw_attr(&c->x, "y2", "1");
    fs_xmlw_attr(&c->x, "x1", "0");
    fs_xmlw_attr(&c->x, "x2", "0");
    fs_xmlw_start(&c->x, "stop");
    fs_xmlw_attr(&c->x, "stop-color", c->bg.top);
    fs_xmlw_attr(&c->x, "offset", "5%");
    fs_xmlw_end(&c->x);
    fs_xmlw_start(&c->x, "stop");
    fs_xmlw_attr(&c->x, "stop-color", c->bg.bottom);
    fs_xmlw_attr(&c->x, "offset", "95%");
    fs_xmlw_end(&c->x);
    fs_xmlw_end(&c->x);
    fs_xmlw_end(&c->x);

    write_style(c);

    fs_xmlw_start(&c->x, "script");
    fs_xmlw_attr(&c->x, "type", "text/ecmascript");
    fs_xmlw_check(&c->x, fs_script_write(w, &ss, !o->no_javascript));
    fs_xmlw_end(&c->x);

    fs_xmlw_start(&c->x, "rect");
    id_attr(c, "bg");
    fs_xmlw_attr(&c->x, "x", "0");
    fs_xmlw_attr(&c->x, "y", "0");
    fs_xmlw_attr(&c->x, "width", "100%");
    fs_xmlw_attr(&c->x, "height", "100%");
    fs_xmlw_attrf(&c->x, "fill", "url(#%s-background)", c->prefix);
    fs_xmlw_end(&c->x);

    unsigned fs = c->fs;
    ui_text(c, "title", NULL, 1, "50.0000%", 2 * fs, title);
    if (o->subtitle)
        ui_text(c, "subtitle", NULL, 0, "50.0000%", 4 * fs, o->subtitle);
    unsigned detail_y = o->inverted ? c->ypad1 - fs : c->H - c->ypad2 / 2;
    ui_text(c, "details", NULL, 1, "10", detail_y, " ");
    ui_text(c, "unzoom", "hide", 1, "10", 2 * fs, "Reset Zoom");
    char right[16];
    snprintf(right, sizeof right, "%u", c->W - 10);
    ui_text(c, "search", NULL, 1, right, 2 * fs, "Search");
    ui_text(c, "matched", NULL, 1, right, detail_y, " ");
    write_legend(c, title);
}
