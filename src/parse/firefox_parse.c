/* Runs yajl over a Firefox-Profiler text, the input or a sub-profile's string, chunk by
 * chunk, and turns what stopped it (a callback's failure, bad JSON, a limit) into one
 * message with the byte offset. The callbacks are in firefox_sax.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "parse/firefox_sax.h"
#include "parse/input.h"
#include "util/error.h"

typedef struct ff_feed {
    fs_input *in;              /* the input, or */
    const unsigned char *text; /* a sub-profile's text */
    size_t text_len, text_pos;
} ff_feed;

enum { FF_CHUNK = 1 << 18 };

static void *yalloc_malloc(void *ctx, size_t sz)
{
    ff_parser *p = ctx;
    if (sz > p->yalloc_max)
        p->yalloc_max = sz;
    return malloc(sz);
}

static void *yalloc_realloc(void *ctx, void *ptr, size_t sz)
{
    ff_parser *p = ctx;
    if (sz > p->yalloc_max)
        p->yalloc_max = sz;
    return realloc(ptr, sz);
}

static void yalloc_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static foldsvg_status run(ff_parser *p, ff_feed *feed, const char *file, const char *origin,
                          uint64_t origin_offset, foldsvg_error *err)
{
    yajl_alloc_funcs af = {yalloc_malloc, yalloc_realloc, yalloc_free, p};
    yajl_handle h = yajl_alloc(&ff_callbacks, &af, p);
    unsigned char *buf = feed->in ? malloc(FF_CHUNK) : NULL;
    if (!h || (feed->in && !buf)) {
        if (h)
            yajl_free(h);
        free(buf);
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    }
    foldsvg_status st = FOLDSVG_OK;
    uint64_t base = 0;
    p->h = h;
    p->origin_offset = origin ? origin_offset : 0;
    yajl_status ys = yajl_status_ok;
    const unsigned char *chunk = NULL;
    size_t got = 0;
    for (;;) {
        if (feed->in) {
            st = fs_input_read(feed->in, buf, FF_CHUNK, &got, err);
            if (st)
                goto out;
            chunk = buf;
        } else {
            chunk = feed->text + feed->text_pos;
            got = feed->text_len - feed->text_pos;
            feed->text_pos += got;
        }
        if (got == 0)
            break;
        p->base = base;
        p->chunk = chunk;
        ys = yajl_parse(h, chunk, got);
        if (ys != yajl_status_ok)
            break;
        if (p->spool_out && !ff_spool_flush(p, base + got)) {
            st = fs_error_at_offset(err, p->ecode, file, base + got, "%s", p->emsg);
            goto out;
        }
        base += got;
        if (p->yalloc_max > FF_MAX_TOKEN) {
            /* A block grows by at most a chunk per call: it is caught below 2x the limit. */
            st = fs_error_at_offset(err, FOLDSVG_E_LIMIT, file, base,
                                    "a JSON string, number or nesting longer than %zu bytes "
                                    "ends past here; is this a Firefox profile?",
                                    FF_MAX_TOKEN);
            goto out;
        }
    }
    if (ys == yajl_status_ok) {
        chunk = NULL;
        got = 0;
        ys = yajl_complete_parse(h);
    }
    if (ys != yajl_status_ok) {
        uint64_t off = base + (chunk ? yajl_get_bytes_consumed(h) : 0);
        char what[640];
        foldsvg_status code = FOLDSVG_E_PARSE;
        if (ys == yajl_status_client_canceled) {
            code = p->ecode ? p->ecode : FOLDSVG_E_PARSE;
            snprintf(what, sizeof what, "%s", p->emsg);
        } else if (!chunk) {
            snprintf(what, sizeof what, "unexpected end of JSON (the text stops inside a value)");
        } else {
            unsigned char *m = yajl_get_error(h, 0, NULL, 0);
            snprintf(what, sizeof what, "invalid JSON: %s", m ? (const char *)m : "syntax error");
            if (m)
                yajl_free_error(h, m);
        }
        if (origin)
            st = fs_error_at_offset(err, code, file, origin_offset,
                                    "in the sub-profile %s, at its byte %llu: %s", origin,
                                    (unsigned long long)off, what);
        else
            st = fs_error_at_offset(err, code, file, off, "%s", what);
    }
out:
    yajl_free(h);
    free(buf);
    return st;
}

static void parser_init(ff_parser *p, ff_profile *root, ff_queue *q, const char *file)
{
    memset(p, 0, sizeof *p);
    p->root = root;
    p->q = q;
    p->scol_stack = p->scol_cpu = -1;
    p->file = file;
}

static void parser_free(ff_parser *p)
{
    ff_cursor_close(p->cur);
    ff_reread_free(p->rr);
    free(p->st);
}

foldsvg_status ff_parse_input(struct fs_input *in, ff_profile *root, ff_queue *q,
                              foldsvg_error *err)
{
    ff_parser p;
    const char *file = fs_input_name(in);
    parser_init(&p, root, q, file);
    p.can_reread = fs_input_can_reopen(in);
    if (!(p.rr = ff_reread_new(in, fs_input_offset(in), NULL, 0)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    ff_feed feed = {.in = in};
    foldsvg_status st = run(&p, &feed, file, NULL, 0, err);
    parser_free(&p);
    return st;
}

foldsvg_status ff_parse_sub(ff_profile *sub, ff_queue *q, const char *file, foldsvg_error *err)
{
    ff_parser p;
    parser_init(&p, sub, q, file);
    p.can_reread = 1;
    if (!(p.rr = ff_reread_new(NULL, 0, sub->json, sub->json_len)))
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    ff_feed feed = {.text = (const unsigned char *)sub->json, .text_len = sub->json_len};
    foldsvg_status st = run(&p, &feed, file, sub->origin, sub->json_offset, err);
    parser_free(&p);
    free(sub->json);
    sub->json = NULL;
    sub->json_len = 0;
    return st;
}
