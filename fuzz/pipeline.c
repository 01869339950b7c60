/* Fuzz target: the whole pipeline, input bytes to SVG, with the SVG checked to be
 * well-formed XML by libxml2's parser. Byte 0 and byte 1 pick rendering options; with bit 6
 * of byte 0 the first input line becomes the title and the second the notes (hostile text
 * in the SVG's header). The rest is the input: folded text, JSON, or gzip of either. */
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "foldsvg.h"
#include "fuzz.h"

static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void set(foldsvg_options *o, int *ok, const char *name, const char *value)
{
    if (foldsvg_options_set(o, name, value, NULL) != FOLDSVG_OK)
        *ok = 0;
}

/* The next line of [*p, end) as a new string (NULs end it early, as a C string would). */
static char *take_line(const char **p, const char *end)
{
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    const char *le = nl ? nl : end;
    size_t n = (size_t)(le - *p);
    if (n > 512)
        n = 512;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, *p, n);
        s[n] = '\0';
    }
    *p = nl ? nl + 1 : end;
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        xmlInitParser();
        xmlSetGenericErrorFunc(NULL, quiet);
        init = 1;
    }
    if (size < 2)
        return 0;
    uint8_t f0 = data[0], f1 = data[1];
    const char *p = (const char *)data + 2, *end = (const char *)data + size;
    foldsvg_options *o = foldsvg_options_new();
    if (!o)
        return 0;
    int ok = 1;
    if (f0 & 1)
        set(o, &ok, "inverted", NULL);
    if (f0 & 2)
        set(o, &ok, "flamechart", NULL);
    if (f0 & 4)
        set(o, &ok, "reverse", NULL);
    if (f0 & 8)
        set(o, &ok, "hash", NULL);
    if (f0 & 16)
        set(o, &ok, "minwidth", "0");
    if (f0 & 32)
        set(o, &ok, "negate", NULL);
    if (f0 & 64) {
        char *title = take_line(&p, end);
        char *notes = take_line(&p, end);
        if (title && notes) {
            set(o, &ok, "title", title);
            set(o, &ok, "notes", notes);
            set(o, &ok, "subtitle", notes);
        }
        free(title);
        free(notes);
    }
    if (f0 & 128)
        set(o, &ok, "pretty-xml", NULL);
    static const char *const palettes[8] = {"hot",  "mem", "io",     "java",
                                            "perl", "js",  "python", "rust"};
    set(o, &ok, "colors", palettes[f1 & 7]);
    if (f1 & 8)
        set(o, &ok, "no-javascript", NULL);
    if (f1 & 16)
        set(o, &ok, "weight", "samples");
    if (f1 & 32)
        set(o, &ok, "thread", "0");
    if (f1 & 64)
        set(o, &ok, "countname", "samples");
    if (f1 & 128)
        set(o, &ok, "truncate-text-right", NULL);
    if (ok && foldsvg_options_check(o, NULL) == FOLDSVG_OK) {
        foldsvg_profile *prof = foldsvg_profile_new();
        foldsvg_error err;
        if (prof && foldsvg_profile_read_buffer(prof, p, (size_t)(end - p), "fuzz", o, &err) ==
                        FOLDSVG_OK) {
            char *svg = NULL;
            size_t len = 0;
            foldsvg_status st =
                foldsvg_profile_render_mem(prof, FOLDSVG_FORMAT_SVG, o, &svg, &len, &err);
            if (st == FOLDSVG_OK) {
                FUZZ_CHECK(svg != NULL && len > 0 && len < (size_t)INT32_MAX);
                xmlDocPtr doc = xmlReadMemory(svg, (int)len, "fuzz.svg", NULL,
                                              XML_PARSE_HUGE | XML_PARSE_NONET | XML_PARSE_NOERROR |
                                                  XML_PARSE_NOWARNING);
                if (!doc) {
                    const xmlError *e = xmlGetLastError();
                    fprintf(stderr, "not well-formed XML: line %d: %s", e ? e->line : 0,
                            e && e->message ? e->message : "?\n");
                }
                FUZZ_CHECK(doc != NULL);
                xmlNodePtr root = xmlDocGetRootElement(doc);
                FUZZ_CHECK(root && strcmp((const char *)root->name, "svg") == 0);
                xmlFreeDoc(doc);
            } else {
                /* usage: an option about another input format (thread, weight) */
                FUZZ_CHECK((st == FOLDSVG_E_NO_DATA || st == FOLDSVG_E_USAGE) &&
                           strchr(err.message, '\n') == NULL);
            }
            foldsvg_free(svg);
        } else if (prof) {
            FUZZ_CHECK(strchr(err.message, '\n') == NULL);
        }
        foldsvg_profile_free(prof);
    }
    foldsvg_options_free(o);
    return 0;
}
