/* Second reads of JSON arrays. Processed profiles keep samples.stack and samples.weight (or
 * duration) as separate arrays, in any key order, paired index by index; Gecko sample rows
 * may come before the schema that says which cell is the stack. Instead of keeping such an
 * array in memory until its partner is known (memory growing with samples), the reader notes
 * where the array lies in the decoded text and reads it again, element by element, with a
 * second yajl parser: from the input opened again (a regular file or memory; gzip is decoded
 * again from the start, but the one second reader moves forward through the document, so
 * usually one extra pass is decoded in all), or from a temporary file holding the array's
 * raw text when the input cannot be read twice. */
#include "formats/json/reread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/tmpfile.h"

enum {
    FS_JSON_RR_CHUNK = 1 << 16, /* bytes read from the second input at a time */
    FS_JSON_CUR_FEED =
        1 << 14 /* bytes handed to a cursor's parser at a time, about (bounds its queue) */
};

struct fs_json_reread {
    fs_input *main;            /* opened again from this, or */
    const unsigned char *text; /* a sub-profile's text */
    size_t text_len;
    uint64_t base; /* decoded offset of the main input when its parse began */
    fs_input *in;  /* the second reader, opened on first use */
    int owns_only; /* IN is a spool's stream: read once from its start, never reopened */
    unsigned char *buf;
    size_t cap;
    size_t len;   /* bytes in buf */
    uint64_t off; /* decoded offset of buf[0] */
};

void fs_json_region_reset(fs_json_region *r)
{
    if (r->spool)
        fclose(r->spool);
    memset(r, 0, sizeof *r);
}

foldsvg_status fs_json_region_begin(fs_json *j, fs_json_region *r, int spool, int can_reread)
{
    fs_json_region_reset(r);
    r->present = 1;
    r->off = fs_json_offset(j) - 1;
    if (spool && !can_reread) {
        if (!(r->spool = fs_tmpfile()))
            return fs_json_fail(j, FOLDSVG_E_IO, "cannot create a temporary file: %s",
                                strerror(errno));
        fs_json_capture_begin(j, r->spool, r->off);
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_json_region_end(fs_json *j, fs_json_region *r)
{
    if (!j->capture || j->capture != r->spool)
        return FOLDSVG_OK;
    return fs_json_capture_end(j);
}

static fs_json_reread *rr_alloc(void)
{
    return calloc(1, sizeof(fs_json_reread));
}

fs_json_reread *fs_json_reread_new(fs_input *in, uint64_t base, const char *text, size_t len)
{
    fs_json_reread *r = rr_alloc();
    if (!r)
        return NULL;
    r->main = in;
    r->base = base;
    r->text = (const unsigned char *)text;
    r->text_len = len;
    return r;
}

void fs_json_reread_free(fs_json_reread *r)
{
    if (!r)
        return;
    fs_input_close(r->in);
    free(r->buf);
    free(r);
}

/* Decoded bytes at offset POS (relative to the parse's start): *P and *N, 0 at the end; at
 * least WANT of them unless the input ends first (a cursor asks for more than a chunk only
 * for a token longer than that, which the buffer then holds whole). */
static foldsvg_status rr_at(fs_json_reread *r, uint64_t pos, size_t want, const unsigned char **p,
                            size_t *n, const char *file, foldsvg_error *err)
{
    *n = 0;
    if (r->text) {
        if (pos < r->text_len) {
            *p = r->text + pos;
            *n = r->text_len - (size_t)pos;
        }
        return FOLDSVG_OK;
    }
    pos += r->base;
    foldsvg_status st;
    if (r->in && pos >= r->off && pos < r->off + r->len) {
        size_t have = (size_t)(r->off + r->len - pos);
        if (have >= want) {
            *p = r->buf + (pos - r->off);
            *n = have;
            return FOLDSVG_OK;
        }
        memmove(r->buf, r->buf + (pos - r->off), have); /* and read on after it */
        r->off = pos;
        r->len = have;
    } else {
        if (r->in && !r->owns_only && pos < fs_input_offset(r->in)) {
            /* Behind the second reader (not in document order): start it again. */
            fs_input_close(r->in);
            r->in = NULL;
        }
        if (!r->in) {
            if (!r->main)
                return fs_error(err, FOLDSVG_E_ARG, file, "no input to read again");
            if ((st = fs_input_reopen(r->main, &r->in, err)))
                return st;
        }
        if (pos > fs_input_offset(r->in) && (st = fs_input_seek(r->in, pos, err)))
            return st;
        r->len = 0;
        r->off = fs_input_offset(r->in);
    }
    if (FS_GROW(r->buf, r->cap, want > FS_JSON_RR_CHUNK ? want : FS_JSON_RR_CHUNK,
                FS_JSON_RR_CHUNK) != FOLDSVG_OK)
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    for (size_t got = 1; r->len < want && got; r->len += got)
        if ((st = fs_input_read(r->in, r->buf + r->len, r->cap - r->len, &got, err)))
            return st;
    if (r->off == pos && r->len) {
        *p = r->buf;
        *n = r->len;
    }
    return FOLDSVG_OK;
}

/* ---------------------------------------------------------------- cursors */

struct fs_json_cursor {
    yajl_handle h;
    fs_json_reread *rr;
    fs_json_reread *own; /* a spool's reader */
    uint64_t pos;        /* next offset to feed */
    int rows;            /* elements are rows; their cells are returned, then FS_JSON_ROWEND */
    int done, oom;
    size_t depth; /* containers open, the array itself included */
    fs_json_value *q;
    size_t qh, qn, qcap;
    const char *file;
};

static int cur_push(fs_json_cursor *c, uint8_t tag, const fs_json_value *v)
{
    if (c->qh + c->qn == c->qcap) {
        if (c->qh) { /* values were taken from the front: reuse that room first */
            memmove(c->q, c->q + c->qh, c->qn * sizeof *c->q);
            c->qh = 0;
        } else if (FS_GROW(c->q, c->qcap, c->qcap + 1, 1024) != FOLDSVG_OK) {
            c->oom = 1;
            return 0;
        }
    }
    fs_json_value *d = &c->q[c->qh + c->qn++];
    if (v)
        *d = *v;
    else
        d->v.i = 0;
    d->tag = tag;
    return 1;
}

/* A scalar counts at the depth of the cells: the array's elements, or a row's cells.
 * Anything deeper lies inside a container that was already returned as FS_JSON_OTHER. */
static int cur_scalar(fs_json_cursor *c, fs_json_value v)
{
    if (c->depth != (size_t)(c->rows ? 2 : 1))
        return 1;
    return cur_push(c, v.tag, &v);
}

static int cur_null(void *ctx)
{
    fs_json_value v = {.tag = FS_JSON_NULL};
    return cur_scalar(ctx, v);
}

static int cur_bool(void *ctx, int b)
{
    fs_json_value v = {.tag = FS_JSON_BOOL};
    v.v.i = b;
    return cur_scalar(ctx, v);
}

static int cur_number(void *ctx, const char *s, size_t n)
{
    return cur_scalar(ctx, fs_json_number(s, n));
}

static int cur_string(void *ctx, const unsigned char *s, size_t n)
{
    (void)s;
    (void)n;
    fs_json_value v = {.tag = FS_JSON_STR};
    return cur_scalar(ctx, v);
}

static int cur_start(void *ctx)
{
    fs_json_cursor *c = ctx;
    if (c->depth == (size_t)(c->rows ? 2 : 1) && !cur_push(c, FS_JSON_OTHER, NULL))
        return 0;
    c->depth++;
    return 1;
}

static int cur_end(void *ctx)
{
    fs_json_cursor *c = ctx;
    c->depth--;
    if (c->rows && c->depth == 1 && !cur_push(c, FS_JSON_ROWEND, NULL))
        return 0;
    if (c->depth == 0) {
        c->done = 1;
        return 0; /* the array is over: stop before the rest of the document */
    }
    return 1;
}

static int cur_map_key(void *ctx, const unsigned char *k, size_t n)
{
    (void)ctx;
    (void)k;
    (void)n;
    return 1;
}

static const yajl_callbacks cur_callbacks = {cur_null,   cur_bool,   NULL,      NULL,
                                             cur_number, cur_string, cur_start, cur_map_key,
                                             cur_end,    cur_start,  cur_end};

foldsvg_status fs_json_cursor_open(fs_json_cursor **out, fs_json_reread *rr,
                                   const fs_json_region *reg, int rows, const char *file,
                                   foldsvg_error *err)
{
    *out = NULL;
    fs_json_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    c->rows = rows;
    c->file = file;
    c->rr = rr;
    c->pos = reg->off;
    foldsvg_status st = FOLDSVG_OK;
    if (reg->spool) {
        /* The raw text of the array alone, from the start of the file. */
        fs_input *in = NULL;
        if (fflush(reg->spool) != 0 || fseek(reg->spool, 0, SEEK_SET) != 0) {
            st = fs_error(err, FOLDSVG_E_IO, file, "temporary file: %s", strerror(errno));
            goto fail;
        }
        if ((st = fs_input_open_stream(&in, reg->spool, file, err)))
            goto fail;
        if (!(c->own = rr_alloc())) {
            fs_input_close(in);
            goto nomem;
        }
        c->own->in = in;
        c->own->owns_only = 1;
        c->rr = c->own;
        c->pos = 0;
    }
    if (!(c->h = yajl_alloc(&cur_callbacks, NULL, c)))
        goto nomem;
    *out = c;
    return FOLDSVG_OK;
nomem:
    st = fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
fail:
    fs_json_cursor_close(c);
    return st;
}

void fs_json_cursor_close(fs_json_cursor *c)
{
    if (!c)
        return;
    if (c->h)
        yajl_free(c->h);
    fs_json_reread_free(c->own);
    free(c->q);
    free(c);
}

/* Where the next feed of the N bytes at P (the cursor's position, never inside a token) may
 * end: after the last structural character outside a string within the first
 * FS_JSON_CUR_FEED bytes, or, when a token runs past them, after the first one behind it.
 * yajl keeps a token cut by the end of a feed and scans it again from its start with every
 * further feed, which made long strings quadratic; fed whole, each token is scanned once.
 * 0 when the N bytes hold no such place (a token longer than N: more bytes are needed).
 * *SCAN and *STR carry the scan over calls for the same position with more bytes. */
static size_t cur_cut(const unsigned char *p, size_t n, size_t *scan, int *str)
{
    size_t cut = 0, i = *scan;
    int in = *str & 1, esc = *str >> 1;
    for (; i < n && !(cut && i >= FS_JSON_CUR_FEED); i++) {
        unsigned char ch = p[i];
        if (in) {
            if (esc)
                esc = 0;
            else if (ch == '\\')
                esc = 1;
            else if (ch == '"')
                in = 0;
        } else if (ch == '"') {
            in = 1;
        } else if (ch == ',' || ch == ']' || ch == '}' || ch == '[' || ch == '{' || ch == ':') {
            cut = i + 1;
        }
    }
    *scan = i;
    *str = in | esc << 1;
    return cut;
}

foldsvg_status fs_json_cursor_next(fs_json_cursor *c, fs_json_value *out, int *got,
                                   foldsvg_error *err)
{
    *got = 0;
    while (c->qn == 0) {
        if (c->done)
            return FOLDSVG_OK;
        const unsigned char *p = NULL;
        size_t n = 0, want = FS_JSON_CUR_FEED, scan = 0, cut = 0;
        int str = 0;
        for (;;) {
            FS_FORWARD_IF_ERROR(rr_at(c->rr, c->pos, want, &p, &n, c->file, err));
            if (n == 0)
                return fs_error(err, FOLDSVG_E_IO, c->file,
                                "the input ended early when read again (did it change?)");
            if ((cut = cur_cut(p, n, &scan, &str)) || n < want)
                break; /* a place to stop, or the input's end */
            want = n * 2;
        }
        if (cut)
            n = cut;
        yajl_status ys = yajl_parse(c->h, p, n);
        c->pos += n;
        if (c->oom)
            return fs_error(err, FOLDSVG_E_NOMEM, c->file, "out of memory");
        if (ys != yajl_status_ok && !c->done)
            return fs_error(err, FOLDSVG_E_IO, c->file,
                            "the input is not the same when read again (did it change?)");
    }
    *out = c->q[c->qh++];
    c->qn--;
    if (c->qn == 0)
        c->qh = 0;
    *got = 1;
    return FOLDSVG_OK;
}
