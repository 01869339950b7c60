#include "formats/xctrace/xctrace.h"

#include <libxml/xmlreader.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"
#include "util/error.h"

/* The tags that matter, in the only order they nest. */
typedef enum tag { T_NONE, T_RESULT, T_NODE, T_ROW, T_BACKTRACE, T_FRAME } tag;

static const char *const tag_names[] = {"",    "trace-query-result", "node",
                                        "row", "backtrace",          "frame"};

typedef struct reader {
    fs_input *in;
    foldsvg_error *err;
    foldsvg_status io; /* what the input's read returned, when it failed */
    char xml_error[256];
    int xml_line;

    tag stack[8];
    size_t depth;
    uint32_t row_backtrace; /* FS_STRMAP_NONE: the row has none yet */

    /* frames: id (8 bytes) -> entry; names[entry] in NAMES */
    fs_strmap frame_ids;
    fs_buf names;
    size_t *name_ends;
    size_t nframes, frames_cap;
    /* backtraces: id -> entry; their frames (entries, leaf first) in FRAMES_OF */
    fs_strmap bt_ids;
    uint32_t *frames_of;
    size_t nframes_of, frames_of_cap;
    size_t *bt_start, *bt_len;
    uint64_t *bt_count;
    size_t nbt, bt_cap;
    /* the backtrace being read */
    uint64_t pending_bt;
    size_t pending_start;
    /* the frame being read */
    uint64_t pending_frame;
    fs_buf pending_name, fixed;
} reader;

static foldsvg_status nomem(reader *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, fs_input_name(r->in), "out of memory");
}

static foldsvg_status bad(reader *r, xmlTextReaderPtr x, const char *fmt, ...) FS_PRINTF(3, 4);

static foldsvg_status bad(reader *r, xmlTextReaderPtr x, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in),
                            (uint64_t)xmlTextReaderGetParserLineNumber(x), 0,
                            "not an xctrace export: %s", msg);
}

static int read_cb(void *ctx, char *buf, int len)
{
    reader *r = ctx;
    size_t got;
    foldsvg_error ignored;
    foldsvg_status st = fs_input_read(r->in, buf, (size_t)len, &got, r->err ? r->err : &ignored);
    if (st != FOLDSVG_OK) {
        r->io = st;
        return -1;
    }
    return (int)got;
}

static int close_cb(void *ctx)
{
    (void)ctx;
    return 0;
}

#if LIBXML_VERSION >= 21200
static void on_xml_error(void *ctx, const xmlError *e)
#else
static void on_xml_error(void *ctx, xmlErrorPtr e)
#endif
{
    reader *r = ctx;
    if (r->xml_error[0] || !e || e->level < XML_ERR_ERROR)
        return;
    snprintf(r->xml_error, sizeof r->xml_error, "%s", e->message ? e->message : "malformed XML");
    size_t n = strlen(r->xml_error);
    while (n > 0 && (r->xml_error[n - 1] == '\n' || r->xml_error[n - 1] == ' '))
        r->xml_error[--n] = '\0';
    r->xml_line = e->line;
}

/* The u64 of attribute NAME: 1 and *V, 0 when absent, -1 when not a number. */
static int attr_u64(xmlTextReaderPtr x, const char *name, uint64_t *v)
{
    xmlChar *a = xmlTextReaderGetAttribute(x, (const xmlChar *)name);
    if (!a)
        return 0;
    int ok = fs_rust_u64((const char *)a, strlen((const char *)a), v);
    xmlFree(a);
    return ok ? 1 : -1;
}

static foldsvg_status need_u64(reader *r, xmlTextReaderPtr x, const char *name, uint64_t *v)
{
    int k = attr_u64(x, name, v);
    if (k > 0)
        return FOLDSVG_OK;
    return bad(r, x, "a <%s> %s", (const char *)xmlTextReaderConstName(x),
               k == 0 ? "without its id" : "whose id is not a number");
}

static foldsvg_status frame_start(reader *r, xmlTextReaderPtr x)
{
    FS_FORWARD_IF_ERROR(need_u64(r, x, "id", &r->pending_frame));
    xmlChar *name = xmlTextReaderGetAttribute(x, (const xmlChar *)"name");
    if (!name)
        return bad(r, x, "a <frame> without its name (symbol)");
    fs_buf_clear(&r->pending_name);
    fs_buf_puts(&r->pending_name, (const char *)name);
    xmlFree(name);
    return fs_buf_status(&r->pending_name) ? nomem(r) : FOLDSVG_OK;
}

static foldsvg_status push_frame_of(reader *r, uint32_t entry)
{
    if (r->nframes_of == r->frames_of_cap) {
        size_t cap = r->frames_of_cap ? r->frames_of_cap * 2 : 1024;
        uint32_t *f = realloc(r->frames_of, cap * sizeof *f);
        if (!f)
            return nomem(r);
        r->frames_of = f;
        r->frames_of_cap = cap;
    }
    r->frames_of[r->nframes_of++] = entry;
    return FOLDSVG_OK;
}

/* The frame read (id and name pending) is known from now on, and one of the backtrace's. */
static foldsvg_status frame_end(reader *r, xmlTextReaderPtr x)
{
    uint64_t id = r->pending_frame;
    uint32_t entry;
    int added;
    if (fs_strmap_put(&r->frame_ids, &id, sizeof id, 0, &entry, &added))
        return nomem(r);
    if (!added)
        return bad(r, x, "a <%s> id given twice (%llu)", "frame", (unsigned long long)id);
    if (r->nframes == r->frames_cap) {
        size_t cap = r->frames_cap ? r->frames_cap * 2 : 1024;
        size_t *e = realloc(r->name_ends, cap * sizeof *e);
        if (!e)
            return nomem(r);
        r->name_ends = e;
        r->frames_cap = cap;
    }
    const char *name = r->pending_name.data ? r->pending_name.data : "";
    size_t n = r->pending_name.len;
    int k = fs_rust_fix(name, n, &r->fixed);
    if (k < 0)
        return nomem(r);
    if (k) {
        name = r->fixed.data;
        n = r->fixed.len;
    }
    if (fs_buf_append(&r->names, name, n))
        return nomem(r);
    r->name_ends[r->nframes++] = r->names.len;
    return push_frame_of(r, entry);
}

/* A backtrace's end: its frames are FRAMES_OF[pending_start..]. */
static foldsvg_status backtrace_end(reader *r, xmlTextReaderPtr x)
{
    uint64_t id = r->pending_bt;
    uint32_t entry;
    int added;
    if (fs_strmap_put(&r->bt_ids, &id, sizeof id, 0, &entry, &added))
        return nomem(r);
    if (!added)
        return bad(r, x, "a <%s> id given twice (%llu)", "backtrace", (unsigned long long)id);
    if (r->nbt == r->bt_cap) {
        size_t cap = r->bt_cap ? r->bt_cap * 2 : 1024;
        size_t *s = realloc(r->bt_start, cap * sizeof *s);
        if (s)
            r->bt_start = s;
        size_t *l = realloc(r->bt_len, cap * sizeof *l);
        if (l)
            r->bt_len = l;
        uint64_t *c = realloc(r->bt_count, cap * sizeof *c);
        if (c)
            r->bt_count = c;
        if (!s || !l || !c)
            return nomem(r);
        r->bt_cap = cap;
    }
    r->bt_start[r->nbt] = r->pending_start;
    r->bt_len[r->nbt] = r->nframes_of - r->pending_start;
    r->bt_count[r->nbt++] = 0;
    r->row_backtrace = entry;
    return FOLDSVG_OK;
}

static foldsvg_status on_start(reader *r, xmlTextReaderPtr x, const char *name)
{
    tag top = r->depth ? r->stack[r->depth - 1] : T_NONE;
    tag next = T_NONE;
    if (top == T_NONE && strcmp(name, "trace-query-result") == 0) {
        next = T_RESULT;
    } else if (top == T_RESULT && strcmp(name, "node") == 0) {
        next = T_NODE;
    } else if (top == T_NODE && strcmp(name, "row") == 0) {
        next = T_ROW;
        r->row_backtrace = FS_STRMAP_NONE;
    } else if (top == T_ROW && strcmp(name, "backtrace") == 0) {
        FS_FORWARD_IF_ERROR(need_u64(r, x, "id", &r->pending_bt));
        r->pending_start = r->nframes_of;
        next = T_BACKTRACE;
    } else if (top == T_BACKTRACE && strcmp(name, "frame") == 0) {
        FS_FORWARD_IF_ERROR(frame_start(r, x));
        next = T_FRAME;
    }
    if (next != T_NONE)
        r->stack[r->depth++] = next;
    return FOLDSVG_OK;
}

/* *DONE when the <trace-query-result> ended. */
static foldsvg_status on_end(reader *r, xmlTextReaderPtr x, const char *name, int *done)
{
    tag t = T_NONE;
    for (int k = T_RESULT; k <= T_FRAME; k++)
        if (strcmp(name, tag_names[k]) == 0)
            t = (tag)k;
    if (t == T_NONE)
        return FOLDSVG_OK;
    if (r->depth == 0 || r->stack[r->depth - 1] != t)
        return bad(r, x, "a </%s> out of place", name);
    r->depth--;
    switch (t) {
    case T_RESULT:
        *done = 1;
        return FOLDSVG_OK;
    case T_ROW:
        if (r->row_backtrace != FS_STRMAP_NONE)
            r->bt_count[r->row_backtrace]++;
        return FOLDSVG_OK;
    case T_BACKTRACE:
        return backtrace_end(r, x);
    case T_FRAME:
        return frame_end(r, x);
    default:
        return FOLDSVG_OK;
    }
}

static foldsvg_status on_empty(reader *r, xmlTextReaderPtr x, const char *name)
{
    tag top = r->depth ? r->stack[r->depth - 1] : T_NONE;
    uint64_t ref;
    if (top == T_ROW && strcmp(name, "backtrace") == 0) {
        if (attr_u64(x, "ref", &ref) > 0) {
            uint32_t e = fs_strmap_find(&r->bt_ids, &ref, sizeof ref);
            if (e == FS_STRMAP_NONE)
                return bad(r, x, "a <%s> ref to an id not given before (%llu)", "backtrace",
                           (unsigned long long)ref);
            r->row_backtrace = e;
            return FOLDSVG_OK;
        }
        FS_FORWARD_IF_ERROR(need_u64(r, x, "id", &r->pending_bt));
        r->pending_start = r->nframes_of;
        return backtrace_end(r, x);
    }
    if (top == T_BACKTRACE && strcmp(name, "frame") == 0) {
        if (attr_u64(x, "ref", &ref) > 0) {
            uint32_t e = fs_strmap_find(&r->frame_ids, &ref, sizeof ref);
            if (e == FS_STRMAP_NONE)
                return bad(r, x, "a <%s> ref to an id not given before (%llu)", "frame",
                           (unsigned long long)ref);
            return push_frame_of(r, e);
        }
        FS_FORWARD_IF_ERROR(frame_start(r, x));
        return frame_end(r, x);
    }
    return FOLDSVG_OK;
}

/* Every backtrace sampled, root first, as the folded line inferno writes. */
static foldsvg_status emit(reader *r, fs_sink *sink)
{
    fs_buf stack = {0}, scratch = {0};
    foldsvg_status st = FOLDSVG_OK;
    for (size_t b = 0; b < r->nbt && st == FOLDSVG_OK; b++) {
        if (!r->bt_count[b])
            continue;
        fs_buf_clear(&stack);
        for (size_t i = r->bt_len[b]; i-- > 0;) {
            uint32_t f = r->frames_of[r->bt_start[b] + i];
            size_t start = f ? r->name_ends[f - 1] : 0;
            if (i + 1 < r->bt_len[b])
                fs_buf_append(&stack, ";", 1);
            fs_buf_append(&stack, r->names.data + start, r->name_ends[f] - start);
        }
        if (fs_buf_status(&stack))
            st = nomem(r);
        else
            st = fs_collapse_emit(sink, stack.data ? stack.data : "", stack.len, r->bt_count[b], 0,
                                  &scratch, r->err);
    }
    fs_buf_free(&stack);
    fs_buf_free(&scratch);
    return st;
}

static foldsvg_status read_xml(reader *r, xmlTextReaderPtr x, fs_sink *sink)
{
    int done = 0;
    while (!done) {
        int k = xmlTextReaderRead(x);
        if (r->io != FOLDSVG_OK)
            return r->io;
        if (k < 0 || r->xml_error[0])
            return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in),
                                    (uint64_t)(r->xml_line > 0 ? r->xml_line : 0), 0,
                                    "not well-formed XML: %s",
                                    r->xml_error[0] ? r->xml_error : "malformed XML");
        if (k == 0)
            return fs_error(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in),
                            "the xctrace export ends before its </trace-query-result>");
        int type = xmlTextReaderNodeType(x);
        const char *name = (const char *)xmlTextReaderConstName(x);
        if (!name)
            continue;
        if (type == XML_READER_TYPE_ELEMENT) {
            if (xmlTextReaderIsEmptyElement(x))
                FS_FORWARD_IF_ERROR(on_empty(r, x, name));
            else
                FS_FORWARD_IF_ERROR(on_start(r, x, name));
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            FS_FORWARD_IF_ERROR(on_end(r, x, name, &done));
        }
    }
    return emit(r, sink);
}

foldsvg_status fs_xctrace_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                               foldsvg_error *err)
{
    (void)opts;
    reader *r = calloc(1, sizeof *r);
    if (!r)
        return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
    r->in = in;
    r->err = err;
    fs_strmap_init(&r->frame_ids, FS_STRMAP_OWNED);
    fs_strmap_init(&r->bt_ids, FS_STRMAP_OWNED);
    fs_collapse_facts(sink, "xctrace XML", "samples");
    /* the input is UTF-8 by now (input/input.h decodes it): no external entities, no DTD, no
     * network */
    xmlTextReaderPtr x =
        xmlReaderForIO(read_cb, close_cb, r, NULL, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOWARNING);
    foldsvg_status st;
    if (!x) {
        st = nomem(r);
    } else {
        xmlTextReaderSetStructuredErrorHandler(x, on_xml_error, r);
        st = read_xml(r, x, sink);
        xmlFreeTextReader(x);
    }
    fs_strmap_free(&r->frame_ids);
    fs_strmap_free(&r->bt_ids);
    fs_buf_free(&r->names);
    fs_buf_free(&r->pending_name);
    fs_buf_free(&r->fixed);
    free(r->name_ends);
    free(r->frames_of);
    free(r->bt_start);
    free(r->bt_len);
    free(r->bt_count);
    free(r);
    return st;
}

static const char *find(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    for (; (size_t)(end - p) >= n; p++)
        if (memcmp(p, w, n) == 0)
            return p;
    return NULL;
}

int fs_xctrace_detect(const unsigned char *head, size_t len, int complete)
{
    const char *p = (const char *)head, *end = p + len;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if ((size_t)(end - p) < 5)
        return complete || memcmp(p, "<?xml", (size_t)(end - p)) != 0 ? 0 : -1;
    if (memcmp(p, "<?xml", 5) != 0)
        return 0;
    if (find(p, end, "<trace-query-result"))
        return 1;
    /* the element comes first after the declaration: give up once the head holds more */
    return complete || len >= 4096 ? 0 : -1;
}
