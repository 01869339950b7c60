#include "formats/json/json.h"

#include "input/ahead.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* yajl's lexer keeps a token cut by the end of a chunk and scans it again from its start with
 * every further chunk, so a string spanning k chunks costs k^2/2 chunks of scanning (a 64 MB
 * string took 6 s). The chunk therefore grows, doubling, to the largest block yajl holds (its
 * buffer of the pending token among them): a long token then spans a few chunks of growing
 * size whose rescans sum to a small multiple of its length. Up to FS_JSON_CHUNK_MAX, so that
 * even a token at the limit is scanned a bounded number of times. Once the token has ended
 * (known when the reader counts its callbacks: fs_json.events), the chunks are the usual
 * ones again, the blocks read ahead parsed where they are instead of copied. */
enum { FS_JSON_CHUNK = 1 << 18 };
#define FS_JSON_CHUNK_MAX (FS_JSON_MAX_TOKEN / 4)

fs_json_value fs_json_number(const char *s, size_t len)
{
    fs_json_value c;
    size_t i = 0;
    int neg = 0;
    if (i < len && s[i] == '-') {
        neg = 1;
        i++;
    }
    uint64_t v = 0;
    int ok = i < len && len - i <= 18; /* 18 digits always fit in int64 */
    for (size_t k = i; ok && k < len; k++) {
        unsigned d = (unsigned)(unsigned char)s[k] - '0';
        if (d > 9)
            ok = 0;
        else
            v = v * 10 + d;
    }
    if (ok) {
        c.tag = FS_JSON_INT;
        c.v.i = neg ? -(int64_t)v : (int64_t)v;
        return c;
    }
    /* Floats, exponents and very long integers: strtod wants a terminated copy. */
    char tmp[64];
    char *buf = tmp;
    if (len >= sizeof tmp) {
        buf = malloc(len + 1);
        if (!buf) {
            c.tag = FS_JSON_NUM;
            c.v.d = (double)NAN;
            return c;
        }
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    c.tag = FS_JSON_NUM;
    c.v.d = strtod(buf, NULL);
    if (strpbrk(buf, ".eE") == NULL) {
        /* An integer too long for the fast path is still an integer when it fits. */
        errno = 0;
        long long ll = strtoll(buf, NULL, 10);
        if (errno == 0) {
            c.tag = FS_JSON_INT;
            c.v.i = (int64_t)ll;
        }
    }
    if (buf != tmp)
        free(buf);
    return c;
}

foldsvg_status fs_json_fail(fs_json *j, foldsvg_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->emsg, sizeof j->emsg, fmt, ap);
    va_end(ap);
    j->ecode = code;
    return code;
}

foldsvg_status fs_json_nomem(fs_json *j)
{
    /* a limit may already have said why */
    return j->ecode ? j->ecode : fs_json_fail(j, FOLDSVG_E_NOMEM, "out of memory");
}

uint64_t fs_json_offset(const fs_json *j)
{
    return j->base + yajl_get_bytes_consumed(j->h);
}

void fs_json_capture_begin(fs_json *j, FILE *f, uint64_t from)
{
    j->capture = f;
    j->cap_pos = from;
}

/* The captured raw text from cap_pos up to decoded offset TO (within the current chunk). */
static foldsvg_status capture_to(fs_json *j, uint64_t to)
{
    size_t from = (size_t)(j->cap_pos - j->base), n = (size_t)(to - j->cap_pos);
    if (n && fwrite(j->chunk + from, 1, n, j->capture) != n)
        return fs_json_fail(j, FOLDSVG_E_IO, "cannot write a temporary file: %s", strerror(errno));
    j->cap_pos = to;
    return FOLDSVG_OK;
}

foldsvg_status fs_json_capture_end(fs_json *j)
{
    foldsvg_status st = capture_to(j, fs_json_offset(j));
    j->capture = NULL;
    return st;
}

static void *yalloc_malloc(void *ctx, size_t sz)
{
    fs_json *j = ctx;
    if (sz > j->yalloc_max)
        j->yalloc_max = sz;
    return malloc(sz);
}

static void *yalloc_realloc(void *ctx, void *ptr, size_t sz)
{
    fs_json *j = ctx;
    if (sz > j->yalloc_max)
        j->yalloc_max = sz;
    return realloc(ptr, sz);
}

static void yalloc_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

/* What stopped yajl, as one message at its offset. */
static foldsvg_status stopped(fs_json *j, yajl_status ys, const unsigned char *chunk, uint64_t base,
                              const char *file, const char *origin, uint64_t origin_offset,
                              foldsvg_error *err)
{
    uint64_t off = base + (chunk ? yajl_get_bytes_consumed(j->h) : 0);
    char what[640];
    foldsvg_status code = FOLDSVG_E_PARSE;
    if (ys == yajl_status_client_canceled) {
        code = j->ecode ? j->ecode : FOLDSVG_E_PARSE;
        snprintf(what, sizeof what, "%s", j->emsg);
    } else if (!chunk) {
        snprintf(what, sizeof what, "unexpected end of JSON (the text stops inside a value)");
    } else {
        unsigned char *m = yajl_get_error(j->h, 0, NULL, 0);
        snprintf(what, sizeof what, "invalid JSON: %s", m ? (const char *)m : "syntax error");
        if (m)
            yajl_free_error(j->h, m);
    }
    if (origin)
        return fs_error_at_offset(err, code, file, origin_offset,
                                  "in the sub-profile %s, at its byte %llu: %s", origin,
                                  (unsigned long long)off, what);
    return fs_error_at_offset(err, code, file, off, "%s", what);
}

/* yajl over CHUNK[a, b), whose byte 0 is the text's byte BASE; the capture follows it. A
 * failed capture is *CST (recorded in J). */
static yajl_status piece(fs_json *j, const unsigned char *chunk, size_t a, size_t b, uint64_t base,
                         foldsvg_status *cst)
{
    j->base = base + a;
    j->chunk = chunk + a;
    yajl_status ys = a < b ? yajl_parse(j->h, chunk + a, b - a) : yajl_status_ok;
    if (ys == yajl_status_ok && j->capture)
        *cst = capture_to(j, base + b);
    return ys;
}

/* yajl over CHUNK[0, n) (the text from BASE on); when the job that read it ahead found
 * ranges of it (SLOT), a range's findings stand in for its bytes if the parse is where the
 * range begins (formats/json/json.h). *FAILED: the reader's TAKE failed (recorded in J). */
static yajl_status parse_chunk(fs_json *j, void *ctx, const unsigned char *chunk, size_t n,
                               uint64_t base, const void *slot, foldsvg_status *cst, int *failed)
{
    const fs_json_split *sp = j->split;
    size_t at = 0, from, to;
    yajl_status ys = yajl_status_ok;
    for (size_t i = 0; slot && sp && sp->range(slot, i, &from, &to); i++) {
        if (j->capture || from <= at || from > to || to > n)
            break;
        ys = piece(j, chunk, at, from - 1, base, cst);
        at = from - 1;
        if (ys != yajl_status_ok || *cst)
            return ys;
        if (j->capture || !sp->before(ctx, slot, i))
            continue;
        ys = piece(j, chunk, from - 1, from, base, cst);
        at = from;
        if (ys != yajl_status_ok || *cst)
            return ys;
        int t = sp->take(ctx, slot, i);
        if (t < 0) {
            *failed = 1;
            return ys;
        }
        if (t > 0)
            at = to;
    }
    return piece(j, chunk, at, n, base, cst);
}

foldsvg_status fs_json_parse(fs_json *j, const yajl_callbacks *callbacks, void *ctx, fs_input *in,
                             const char *text, size_t len, const char *file, const char *origin,
                             uint64_t origin_offset, foldsvg_error *err)
{
    yajl_alloc_funcs af = {yalloc_malloc, yalloc_realloc, yalloc_free, j};
    yajl_handle h = yajl_alloc(callbacks, &af, ctx);
    size_t bufcap = FS_JSON_CHUNK;
    unsigned char *buf = in ? malloc(bufcap) : NULL;
    if (!h || (in && !buf)) {
        if (h)
            yajl_free(h);
        free(buf);
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    }
    foldsvg_status st = FOLDSVG_OK;
    uint64_t base = 0;
    size_t pos = 0;
    /* reading (and inflating) on another core while this one parses */
    fs_ahead *ahead =
        in ? fs_ahead_start(in, FS_JSON_CHUNK, j->split ? &j->split->job : NULL) : NULL;
    if (in && !ahead) {
        yajl_free(h);
        free(buf);
        return fs_error(err, FOLDSVG_E_NOMEM, file, "out of memory");
    }
    j->h = h;
    j->origin_offset = origin ? origin_offset : 0;
    yajl_status ys = yajl_status_ok;
    const unsigned char *chunk = NULL;
    size_t got = 0;
    const unsigned char *rest = NULL; /* of the last block read ahead, not parsed yet */
    size_t rest_n = 0;
    size_t want = bufcap; /* the chunk size the last chunk called for */
    for (;;) {
        void *slot = NULL;
        if (in && !j->counts_events && j->yalloc_max > bufcap)
            want = bufcap * 2;
        if (want > FS_JSON_CHUNK_MAX)
            want = FS_JSON_CHUNK_MAX;
        if (in && want != bufcap) {
            size_t nc = want;
            while (want > bufcap && nc < j->yalloc_max && nc < FS_JSON_CHUNK_MAX)
                nc *= 2;
            unsigned char *nb = realloc(buf, nc);
            if (!nb) {
                st = fs_error_at_offset(err, FOLDSVG_E_NOMEM, file, base, "out of memory");
                goto out;
            }
            buf = nb;
            bufcap = want = nc;
        }
        if (ahead && bufcap == FS_JSON_CHUNK && rest_n) {
            /* back from long tokens: what is left of the last block, in place */
            chunk = rest;
            got = rest_n;
            rest_n = 0;
        } else if (ahead && bufcap == FS_JSON_CHUNK) {
            st = fs_ahead_next(ahead, &chunk, &got, &slot, err);
            if (st)
                goto out;
        } else if (ahead) {
            /* A long token: whole chunks as large as it (yajl rescans what it holds of a
             * token on every call), gathered from the blocks read ahead. */
            got = 0;
            while (got < bufcap) {
                if (!rest_n) {
                    if ((st = fs_ahead_next(ahead, &rest, &rest_n, NULL, err)))
                        goto out;
                    if (!rest_n)
                        break;
                }
                size_t n = rest_n < bufcap - got ? rest_n : bufcap - got;
                memcpy(buf + got, rest, n);
                got += n;
                rest += n;
                rest_n -= n;
            }
            j->copied += got;
            chunk = buf;
        } else {
            chunk = (const unsigned char *)text + pos;
            got = len - pos;
            pos += got;
        }
        if (got == 0)
            break;
        foldsvg_status cst = FOLDSVG_OK;
        int failed = 0;
        uint64_t events = j->events;
        size_t ymax = j->yalloc_max;
        ys = parse_chunk(j, ctx, chunk, got, base, slot, &cst, &failed);
        if (j->counts_events) {
            /* Larger chunks while a token spans them: one held a token from its start to
             * its end, or yajl's block for it grew past the chunk; the usual ones again
             * once one ended in a chunk. */
            int held = j->events == events;
            if (bufcap == FS_JSON_CHUNK &&
                ((held && got == bufcap) || (j->yalloc_max > ymax && j->yalloc_max > bufcap)))
                want = bufcap * 2;
            else if (bufcap > FS_JSON_CHUNK && !held)
                want = FS_JSON_CHUNK;
            else if (bufcap > FS_JSON_CHUNK && j->yalloc_max > bufcap)
                want = bufcap * 2;
        }
        if (failed) {
            st = fs_error_at_offset(err, j->ecode, file, fs_json_offset(j), "%s", j->emsg);
            goto out;
        }
        if (ys != yajl_status_ok) {
            /* the piece yajl stopped in */
            chunk = j->chunk;
            base = j->base;
            break;
        }
        if (cst) {
            st = fs_error_at_offset(err, j->ecode, file, base + got, "%s", j->emsg);
            goto out;
        }
        base += got;
        if (j->yalloc_max > FS_JSON_MAX_TOKEN) {
            /* A block grows by at most a chunk per call: it is caught below 2x the limit. */
            st = fs_error_at_offset(err, FOLDSVG_E_LIMIT, file, base,
                                    "a JSON string, number or nesting longer than %zu bytes "
                                    "ends past here; is this a Firefox profile?",
                                    FS_JSON_MAX_TOKEN);
            goto out;
        }
    }
    if (ys == yajl_status_ok) {
        chunk = NULL;
        got = 0;
        ys = yajl_complete_parse(h);
    }
    if (ys != yajl_status_ok)
        st = stopped(j, ys, chunk, base, file, origin, origin_offset, err);
out:
    fs_ahead_stop(ahead);
    yajl_free(h);
    j->h = NULL;
    free(buf);
    return st;
}
