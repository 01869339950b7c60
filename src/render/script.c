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

typedef struct sbuf {
    char *data;
    size_t len, cap;
    int failed;
} sbuf;

static void sb_reserve(sbuf *b, size_t extra)
{
    if (b->failed) {
        return;
    }
    if (b->len + extra + 1 <= b->cap) {
        return;
    }
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra + 1) {
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return;
    }
    b->data = p;
    b->cap = cap;
}

static void sb_add(sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    if (b->failed) {
        return;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        b->failed = 1;
        return;
    }
    sb_add(b, tmp, (size_t)n);
}

static void sb_u16(sbuf *b, unsigned v)
{
    sb_printf(b, "\\u%04x", v & 0xffffu);
}

/* Decodes one UTF-8 sequence at s[0..n); returns its length, or 0 when invalid. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        len = 2, v = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, v = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
        return 0;
    }
    *cp = v;
    return len;
}

/* A JSON string; invalid UTF-8 bytes become U+FFFD. */
static void sb_json_string(sbuf *b, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    size_t n = strlen((const char *)s);
    sb_puts(b, "\"");
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&') {
            sb_add(b, (const char *)s + i, 1);
            i++;
            continue;
        }
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            sb_add(b, esc, 2);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            cp = 0xfffd;
            len = 1;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            sb_u16(b, 0xd800u + (cp >> 10));
            sb_u16(b, 0xdc00u + (cp & 0x3ffu));
        } else {
            sb_u16(b, cp);
        }
        i += len;
    }
    sb_puts(b, "\"");
}

static void sb_json_number(sbuf *b, double v, double fallback)
{
    sb_printf(b, "%.15g", isfinite(v) ? v : fallback);
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
    sbuf b = {0};
    sb_puts(&b, "\n(function () {\n\"use strict\";\nvar settings = {");
    sb_puts(&b, "\"id\": ");
    sb_json_string(&b, s->id_prefix && *s->id_prefix ? s->id_prefix : "fg");
    sb_puts(&b, ", \"nametype\": ");
    sb_json_string(&b, s->nametype ? s->nametype : "Function:");
    sb_puts(&b, ", \"countname\": ");
    sb_json_string(&b, s->countname ? s->countname : "cycles");
    sb_printf(&b, ", \"fontsize\": %d, \"fontwidth\": ", s->fontsize > 0 ? s->fontsize : 12);
    sb_json_number(&b, s->fontwidth > 0 ? s->fontwidth : 0.59, 0.59);
    sb_printf(&b, ", \"xpad\": %d, \"inverted\": %s, \"searchcolor\": ", s->xpad,
              s->inverted ? "true" : "false");
    sb_json_string(&b, s->searchcolor ? s->searchcolor : "rgb(230,0,230)");
    sb_printf(&b, ", \"fluid\": %s, \"width\": %d, \"truncate_text_right\": %s",
              s->fluid ? "true" : "false", s->width, s->truncate_text_right ? "true" : "false");
    sb_printf(&b, ", \"total\": %" PRIu64 ", \"factor\": ", s->total);
    sb_json_number(&b, s->factor, 1.0);
    sb_puts(&b, "};\n");
    if (with_code) {
        sb_add(&b, (const char *)fs_asset_flamegraph_js, fs_asset_flamegraph_js_len);
        if (b.len && b.data[b.len - 1] != '\n') {
            sb_puts(&b, "\n");
        }
    }
    sb_puts(&b, "})();\n");
    if (b.failed || strstr(b.data, "]]>") != NULL) {
        free(b.data);
        return -1;
    }
    int rc = xmlTextWriterWriteCDATA(w, (const xmlChar *)b.data);
    free(b.data);
    return rc < 0 ? -1 : rc;
}
