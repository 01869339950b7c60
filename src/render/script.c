/* The <script> of the SVG: a settings block and our own interactive code (joined from
 * src/render/assets/js/ at build time, with the callers and callees views for an HTML report's
 * SVGs), wrapped so that nothing lands on the page's globals:
 *
 *     (function () {
 *     "use strict";
 *     var settings = {"id": "P", "nametype": "Function:", ...};
 *     ...code...            (left out with --no-javascript)
 *     })();
 *
 * Strings are written as JSON with every byte above 0x7e, '<', '>' and '&' escaped as \uXXXX,
 * so the text is plain ASCII, valid whatever bytes the options held, and can never close the
 * CDATA section (or an HTML parser's foreign content) early. */
#include "render/script.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/assets.h"
#include "render/jsonstr.h"
#include "util/buf.h"

static void json_cstr(fs_buf *b, const char *s)
{
    fs_json_string(b, s, strlen(s));
}

static void json_number(fs_buf *b, double v, double fallback)
{
    fs_buf_printf(b, "%.15g", isfinite(v) ? v : fallback);
}

int fs_script_write_root_attributes(xmlTextWriterPtr w, const fs_script_settings *s)
{
    /* The script finds its root through document.currentScript and starts on the root's
     * own load event: no onload attribute and no global hook are needed. */
    (void)w;
    (void)s;
    return 0;
}

int fs_script_write(xmlTextWriterPtr w, const fs_script_settings *s, int with_code)
{
    fs_buf b = {0};
    fs_buf_puts(&b, "\n(function () {\n\"use strict\";\nvar settings = {");
    fs_buf_puts(&b, "\"id\": ");
    json_cstr(&b, s->id_prefix && *s->id_prefix ? s->id_prefix : "fg");
    fs_buf_puts(&b, ", \"nametype\": ");
    json_cstr(&b, s->nametype ? s->nametype : "Function:");
    fs_buf_puts(&b, ", \"countname\": ");
    json_cstr(&b, s->countname ? s->countname : "cycles");
    fs_buf_printf(&b, ", \"fontsize\": %d, \"fontwidth\": ", s->fontsize > 0 ? s->fontsize : 12);
    json_number(&b, s->fontwidth > 0 ? s->fontwidth : 0.59, 0.59);
    fs_buf_printf(&b, ", \"xpad\": %d, \"inverted\": %s, \"searchcolor\": ", s->xpad,
                  s->inverted ? "true" : "false");
    json_cstr(&b, s->searchcolor ? s->searchcolor : "rgb(230,0,230)");
    fs_buf_printf(&b, ", \"fluid\": %s, \"width\": %d, \"truncate_text_right\": %s",
                  s->fluid ? "true" : "false", s->width, s->truncate_text_right ? "true" : "false");
    fs_buf_printf(&b, ", \"total\": %" PRIu64 ", \"factor\": ", s->total);
    json_number(&b, s->factor, 1.0);
    fs_buf_puts(&b, ", \"minwidth\": ");
    json_number(&b, s->minwidth, 0.01);
    if (s->chart)
        fs_buf_puts(&b, ", \"chart\": true");
    if (s->theme) {
        fs_buf_puts(&b, ", \"theme\": ");
        json_cstr(&b, s->theme);
    }
    fs_buf_puts(&b, "};\n");
    if (with_code) {
        if (s->views)
            fs_buf_append(&b, (const char *)fs_asset_flamegraph_views_js,
                          fs_asset_flamegraph_views_js_len);
        else
            fs_buf_append(&b, (const char *)fs_asset_flamegraph_js, fs_asset_flamegraph_js_len);
        if (b.len && b.data[b.len - 1] != '\n') {
            fs_buf_puts(&b, "\n");
        }
    }
    fs_buf_puts(&b, "})();\n");
    if (b.failed || strstr(b.data, "]]>") != NULL) {
        fs_buf_free(&b);
        return -1;
    }
    int rc = xmlTextWriterWriteCDATA(w, (const xmlChar *)b.data);
    fs_buf_free(&b);
    return rc < 0 ? -1 : rc;
}
