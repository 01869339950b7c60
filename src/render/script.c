/* The <script> of the SVG: a settings block and our own interactive code
 * (src/render/assets/flamegraph.js), wrapped so that nothing lands on the page's globals:
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
#include "util/buf.h"
#include "util/utf8.h"

static void json_u16(fs_buf *b, unsigned v)
{
    fs_buf_printf(b, "\\u%04x", v & 0xffffu);
}

/* A JSON string; invalid UTF-8 bytes become U+FFFD. */
static void json_string(fs_buf *b, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    size_t n = strlen((const char *)s);
    fs_buf_puts(b, "\"");
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&') {
            fs_buf_append(b, (const char *)s + i, 1);
            i++;
            continue;
        }
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            fs_buf_append(b, esc, 2);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = fs_utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            cp = 0xfffd;
            len = 1;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            json_u16(b, 0xd800u + (cp >> 10));
            json_u16(b, 0xdc00u + (cp & 0x3ffu));
        } else {
            json_u16(b, cp);
        }
        i += len;
    }
    fs_buf_puts(b, "\"");
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
    json_string(&b, s->id_prefix && *s->id_prefix ? s->id_prefix : "fg");
    fs_buf_puts(&b, ", \"nametype\": ");
    json_string(&b, s->nametype ? s->nametype : "Function:");
    fs_buf_puts(&b, ", \"countname\": ");
    json_string(&b, s->countname ? s->countname : "cycles");
    fs_buf_printf(&b, ", \"fontsize\": %d, \"fontwidth\": ", s->fontsize > 0 ? s->fontsize : 12);
    json_number(&b, s->fontwidth > 0 ? s->fontwidth : 0.59, 0.59);
    fs_buf_printf(&b, ", \"xpad\": %d, \"inverted\": %s, \"searchcolor\": ", s->xpad,
                  s->inverted ? "true" : "false");
    json_string(&b, s->searchcolor ? s->searchcolor : "rgb(230,0,230)");
    fs_buf_printf(&b, ", \"fluid\": %s, \"width\": %d, \"truncate_text_right\": %s",
                  s->fluid ? "true" : "false", s->width, s->truncate_text_right ? "true" : "false");
    fs_buf_printf(&b, ", \"total\": %" PRIu64 ", \"factor\": ", s->total);
    json_number(&b, s->factor, 1.0);
    if (s->theme) {
        fs_buf_puts(&b, ", \"theme\": ");
        json_string(&b, s->theme);
    }
    fs_buf_puts(&b, "};\n");
    if (with_code) {
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
