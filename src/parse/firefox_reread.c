/* Second reads of arrays the Firefox-Profiler reader has already parsed once. Processed
 * profiles keep samples.stack and samples.weight (or duration) as separate arrays, in any
 * key order, paired index by index; Gecko sample rows may come before the schema that
 * says which cell is the stack. Instead of keeping such an array in memory until its
 * partner is known (memory growing with samples), the reader notes where the array lies
 * in the decoded text and reads it again, element by element, with a second yajl parser:
 * from the input opened again (a regular file or memory; gzip is decoded again from the
 * start, but the one second reader moves forward through the document, so usually one
 * extra pass is decoded in all), or from a temporary file holding the array's raw text when
 * the input cannot be read twice (standard input, a pipe; then disk, not memory, grows
 * with the samples). A cursor holds at most the values of one fed block. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "parse/firefox_internal.h"
#include "parse/input.h"
#include "util/error.h"

enum {
    FF_RR_CHUNK = 1 << 16, /* bytes read from the second input at a time */
    FF_CUR_FEED = 1 << 14  /* bytes handed to a cursor's parser at a time (bounds its queue) */
};

struct ff_reread {
    fs_input *main;            /* opened again from this, or */
    const unsigned char *text; /* a sub-profile's text */
    size_t text_len;
    uint64_t base; /* decoded offset of the main input when its parse began */
    fs_input *in;  /* the second reader, opened on first use */
    int owns_only; /* IN is a spool's stream: read once from its start, never reopened */
    unsigned char *buf;
    size_t len;   /* bytes in buf */
    uint64_t off; /* decoded offset of buf[0] */
};

void ff_region_reset(ff_region *r)
{
    if (r->spool)
        fclose(r->spool);
    memset(r, 0, sizeof *r);
}

static ff_reread *rr_alloc(void)
{
    ff_reread *r = calloc(1, sizeof *r);
    return r;
}

ff_reread *ff_reread_new(struct fs_input *in, uint64_t base, const char *text, size_t len)
{
    ff_reread *r = rr_alloc();
    if (!r)
        return NULL;
    r->main = in;
    r->base = base;
    r->text = (const unsigned char *)text;
    r->text_len = len;
    return r;
}

void ff_reread_free(ff_reread *r)
{
    if (!r)
        return;
    fs_input_close(r->in);
    free(r->buf);
    free(r);
}

/* Decoded bytes at offset POS (relative to the parse's start): *P and *N, 0 at the end. */
static foldsvg_status rr_at(ff_reread *r, uint64_t pos, const unsigned char **p, size_t *n,
                            const char *file, foldsvg_error *err)
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
    if (r->in && pos >= r->off && pos < r->off + r->len) {
        *p = r->buf + (pos - r->off);
        *n = (size_t)(r->off + r->len - pos);
        return FOLDSVG_OK;
    }
    foldsvg_status st;
    if (!r->buf && !(r->buf = malloc(FF_RR_CHUNK)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
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
    size_t got = 0;
    if ((st = fs_input_read(r->in, r->buf, FF_RR_CHUNK, &got, err)))
        return st;
    r->len = got;
    if (r->off == pos && got) {
        *p = r->buf;
        *n = got;
    }
    return FOLDSVG_OK;
}

/* ---------------------------------------------------------------- cursors */

struct ff_cursor {
    yajl_handle h;
    ff_reread *rr;
    ff_reread *own; /* a spool's reader */
    uint64_t pos;   /* next offset to feed */
    int rows;       /* elements are rows; their cells are returned, then FF_ROWEND */
    int done, oom;
    size_t depth; /* containers open, the array itself included */
    ff_cell *q;
    size_t qh, qn, qcap;
    const char *file;
};

static int cur_push(ff_cursor *c, uint8_t tag, const ff_cell *v)
{
    if (c->qh + c->qn == c->qcap) {
        if (c->qh) { /* values were taken from the front: reuse that room first */
            memmove(c->q, c->q + c->qh, c->qn * sizeof *c->q);
            c->qh = 0;
        } else {
            size_t nc = c->qcap ? c->qcap * 2 : 1024;
            ff_cell *nq = realloc(c->q, nc * sizeof *nq);
            if (!nq) {
                c->oom = 1;
                return 0;
            }
            c->q = nq;
            c->qcap = nc;
        }
    }
    ff_cell *d = &c->q[c->qh + c->qn++];
    if (v)
        *d = *v;
    else
        d->v.i = 0;
    d->tag = tag;
    return 1;
}

/* A scalar counts at the depth of the cells: the array's elements, or a row's cells.
 * Anything deeper lies inside a container that was already returned as FF_OTHER. */
static int cur_scalar(ff_cursor *c, ff_cell v)
{
    if (c->depth != (size_t)(c->rows ? 2 : 1))
        return 1;
    return cur_push(c, v.tag, &v);
}

static int cur_null(void *ctx)
{
    ff_cell v = {.tag = FF_NULL};
    return cur_scalar(ctx, v);
}

static int cur_bool(void *ctx, int b)
{
    ff_cell v = {.tag = FF_BOOL};
    v.v.i = b;
    return cur_scalar(ctx, v);
}

static int cur_number(void *ctx, const char *s, size_t n)
{
    return cur_scalar(ctx, ff_number(s, n));
}

static int cur_string(void *ctx, const unsigned char *s, size_t n)
{
    (void)s;
    (void)n;
    ff_cell v = {.tag = FF_STR};
    return cur_scalar(ctx, v);
}

static int cur_start(void *ctx)
{
    ff_cursor *c = ctx;
    if (c->depth == (size_t)(c->rows ? 2 : 1) && !cur_push(c, FF_OTHER, NULL))
        return 0;
    c->depth++;
    return 1;
}

static int cur_end(void *ctx)
{
    ff_cursor *c = ctx;
    c->depth--;
    if (c->rows && c->depth == 1 && !cur_push(c, FF_ROWEND, NULL))
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

foldsvg_status ff_cursor_open(ff_cursor **out, ff_reread *rr, const ff_region *reg, int rows,
                              const char *file, foldsvg_error *err)
{
    *out = NULL;
    ff_cursor *c = calloc(1, sizeof *c);
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
    ff_cursor_close(c);
    return st;
}

void ff_cursor_close(ff_cursor *c)
{
    if (!c)
        return;
    if (c->h)
        yajl_free(c->h);
    ff_reread_free(c->own);
    free(c->q);
    free(c);
}

int ff_cursor_next(ff_cursor *c, ff_cell *out, foldsvg_error *err)
{
    while (c->qn == 0) {
        if (c->done)
            return 0;
        const unsigned char *p = NULL;
        size_t n = 0;
        if (rr_at(c->rr, c->pos, &p, &n, c->file, err))
            return -1;
        if (n == 0) {
            fs_error(err, FOLDSVG_E_IO, c->file,
                     "the input ended early when read again (did it change?)");
            return -1;
        }
        if (n > FF_CUR_FEED)
            n = FF_CUR_FEED;
        yajl_status ys = yajl_parse(c->h, p, n);
        c->pos += n;
        if (c->oom) {
            fs_error(err, FOLDSVG_E_NOMEM, c->file, "out of memory");
            return -1;
        }
        if (ys != yajl_status_ok && !c->done) {
            fs_error(err, FOLDSVG_E_IO, c->file,
                     "the input is not the same when read again (did it change?)");
            return -1;
        }
    }
    *out = c->q[c->qh++];
    c->qn--;
    if (c->qn == 0)
        c->qh = 0;
    return 1;
}
