#include "formats/folded/folded.h"

#include <stdlib.h>
#include <string.h>

#include "util/batches.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/utf8.h"

/* A count: digits, optionally '.' and more digits; must fit in 64 bits. Returns 0 on
 * success. */
static int parse_count(const char *s, size_t n, uint64_t *out, int *fractional)
{
    size_t i = 0;
    uint64_t v = 0;
    if (n == 0 || s[0] < '0' || s[0] > '9')
        return -1;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    int frac = 0;
    if (i < n) {
        if (s[i] != '.')
            return -1;
        for (i++; i < n; i++) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            if (s[i] != '0')
                frac = 1;
        }
    }
    *out = v;
    if (frac)
        *fractional = 1;
    return 0;
}

/* fs_utf8_trim_start and _end, without the call for the common end: a byte of printable
 * ASCII is no white space and no part of one. */
static inline int plain_ascii(char c)
{
    return (unsigned char)c > 0x20 && (unsigned char)c < 0x7f;
}

static inline size_t trim_start(const char *s, size_t n)
{
    return n > 0 && plain_ascii(s[0]) ? 0 : fs_utf8_trim_start(s, n);
}

static inline size_t trim_end(const char *s, size_t n)
{
    return n > 0 && plain_ascii(s[n - 1]) ? n : fs_utf8_trim_end(s, n);
}

static const char *last_space(const char *s, size_t n)
{
    while (n > 0) {
        if (s[n - 1] == ' ')
            return s + n - 1;
        n--;
    }
    return NULL;
}

int fs_folded_parse_line(const char *line, size_t len, fs_folded_line *out, int *fractional)
{
    /* the line's ends lose Unicode White_Space, as inferno's str::trim */
    size_t lead = trim_start(line, len);
    line += lead;
    len = trim_end(line, len - lead);
    if (len == 0 || (len >= 2 && line[0] == '#' && line[1] == ' '))
        return 0;
    const char *sp = last_space(line, len);
    if (!sp)
        return -1;
    int frac = 0;
    uint64_t count;
    if (parse_count(sp + 1, (size_t)(line + len - sp - 1), &count, &frac) != 0)
        return -1;
    size_t slen = (size_t)(sp - line);
    slen = trim_end(line, slen);
    out->is_diff = 0;
    out->before = 0;
    /* Differential input: the stack itself ends in " <count>". Only the trailing run of
     * digits and dots is looked at, so ordinary lines cost nothing here. */
    size_t tok = slen;
    while (tok > 0 && ((line[tok - 1] >= '0' && line[tok - 1] <= '9') || line[tok - 1] == '.'))
        tok--;
    const char *sp2 = tok > 0 && tok < slen && line[tok - 1] == ' ' ? line + tok - 1 : NULL;
    uint64_t first;
    int frac2 = 0;
    if (sp2 && parse_count(sp2 + 1, (size_t)(line + slen - sp2 - 1), &first, &frac2) == 0) {
        out->is_diff = 1;
        out->before = first;
        frac |= frac2;
        slen = (size_t)(sp2 - line);
        slen = trim_end(line, slen);
    }
    if (slen == 0)
        return -1;
    out->stack = line;
    out->len = slen;
    out->count = count;
    if (frac)
        *fractional = 1;
    return 1;
}

foldsvg_status fs_folded_take(int r, fs_folded_line *fl, int frac, uint64_t lineno, fs_sink *sink,
                              fs_folded_stats *stats, foldsvg_error *err)
{
    stats->lines++;
    if (r < 0) {
        if (stats->invalid++ == 0)
            stats->first_invalid = lineno;
        return FOLDSVG_OK;
    }
    if (r == 0)
        return FOLDSVG_OK;
    if (frac && stats->fractional++ == 0)
        stats->first_fractional = lineno;
    stats->valid++;
    fl->lineno = lineno;
    return sink->line(sink, fl, err);
}

/* ---- reading: blocks of lines, each parsed by the task that read it ------------------------- */

enum { BLOCK = 1 << 20 };

/* One line as the block's reader parsed it. */
typedef struct rec {
    uint32_t off, len; /* the stack, in the block's bytes (a block stays below 4 GiB) */
    uint64_t count, before;
    signed char verdict; /* fs_folded_parse_line's */
    unsigned char is_diff, frac;
} rec;

typedef struct block {
    char *data;
    size_t cap, len;
    rec *recs;
    size_t nrec, rcap;
    foldsvg_error err; /* the fill's failure, after the lines */
    uint64_t done;     /* the raw bytes read once it was filled, for progress */
} block;

typedef struct reader {
    fs_input *in;
    block b[2];
    fs_buf carry; /* the incomplete last line of the block before */
    uint64_t lines;
    int eof;
} reader;

static foldsvg_status record(block *b, size_t start, size_t end)
{
    FS_FORWARD_IF_ERROR(FS_GROW(b->recs, b->rcap, b->nrec + 1, 4096));
    fs_folded_line fl;
    int frac = 0;
    int r = fs_folded_parse_line(b->data + start, end - start, &fl, &frac);
    rec *x = &b->recs[b->nrec++];
    *x = (rec){.verdict = (signed char)r, .frac = (unsigned char)frac};
    if (r > 0) {
        x->off = (uint32_t)(fl.stack - b->data);
        x->len = (uint32_t)fl.len;
        x->count = fl.count;
        x->before = fl.before;
        x->is_diff = (unsigned char)fl.is_diff;
    }
    return FOLDSVG_OK;
}

/* Reads the next block: the line carried over, then a block's worth of bytes or more (a line
 * longer than that, up to the limit), its lines parsed; an incomplete last line is carried
 * to the next one, but at the end, which ends it. */
static foldsvg_status fill(void *user, void *batch)
{
    reader *r = user;
    block *b = batch;
    b->len = b->nrec = 0;
    const char *name = fs_input_name(r->in);
    if (r->carry.len > b->cap && fs_resize(&b->data, r->carry.len, 1) == FOLDSVG_OK)
        b->cap = r->carry.len;
    if (r->carry.len > b->cap || fs_buf_status(&r->carry))
        return fs_error(&b->err, FOLDSVG_E_NOMEM, name, "out of memory");
    if (r->carry.len) /* memcpy from no buffer is undefined, even of 0 bytes */
        memcpy(b->data, r->carry.data, r->carry.len);
    b->len = r->carry.len;
    fs_buf_clear(&r->carry);
    size_t scan = b->len; /* (the carried line holds no line end) */
    size_t start = 0;     /* of the first line not recorded */
    while (!r->eof && (b->len < BLOCK || start == 0)) {
        if (b->len == b->cap) {
            /* a line longer than the block: grow up to the documented limit */
            if (b->cap >= FS_MAX_LINE)
                return fs_error_at_line(&b->err, FOLDSVG_E_LIMIT, name, r->lines + 1, 0,
                                        "line longer than %zu bytes; is this a folded-stack "
                                        "file?",
                                        (size_t)FS_MAX_LINE);
            if (fs_resize(&b->data, b->cap * 2, 1) != FOLDSVG_OK)
                return fs_error(&b->err, FOLDSVG_E_NOMEM, name, "out of memory");
            b->cap *= 2;
        }
        size_t got, room = b->cap - b->len < BLOCK ? b->cap - b->len : BLOCK;
        FS_FORWARD_IF_ERROR(fs_input_read(r->in, b->data + b->len, room, &got, &b->err));
        r->eof = got == 0;
        b->len += got;
        const char *nl;
        while ((nl = memchr(b->data + scan, '\n', b->len - scan)) != NULL) {
            size_t end = (size_t)(nl - b->data);
            if (record(b, start, end) != FOLDSVG_OK)
                return fs_error(&b->err, FOLDSVG_E_NOMEM, name, "out of memory");
            r->lines++;
            start = scan = end + 1;
        }
        scan = b->len;
    }
    if (r->eof && start < b->len) { /* the end of a file ends its last line */
        if (record(b, start, b->len) != FOLDSVG_OK)
            return fs_error(&b->err, FOLDSVG_E_NOMEM, name, "out of memory");
        r->lines++;
        start = b->len;
    }
    fs_buf_append(&r->carry, b->data + start, b->len - start);
    b->done = fs_input_raw_consumed(r->in);
    return r->eof ? FS_STOP : FOLDSVG_OK;
}

static void reader_free(reader *r)
{
    for (int i = 0; i < 2; i++) {
        free(r->b[i].data);
        free(r->b[i].recs);
    }
    fs_buf_free(&r->carry);
}

foldsvg_status fs_folded_read(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                              foldsvg_error *err)
{
    reader r = {.in = in, .lines = stats->lines}; /* a part goes on from the part before */
    for (int i = 0; i < 2; i++) {
        r.b[i].cap = BLOCK;
        if (!(r.b[i].data = malloc(BLOCK))) {
            reader_free(&r);
            return fs_error(err, FOLDSVG_E_NOMEM, fs_input_name(in), "out of memory");
        }
    }
    /* read ahead on the input's pool unless it is one block anyway */
    uint64_t size = fs_input_raw_size(in);
    fs_pool *pool = size == 0 || size > BLOCK ? fs_input_pool(in) : NULL;
    fs_batches bs;
    fs_input_hold_warnings(in); /* given on this thread once the reading is over */
    fs_batches_start(&bs, pool, fill, &r, &r.b[0], &r.b[1]);
    uint64_t lineno = stats->lines;
    foldsvg_status st;
    for (;;) {
        void *got;
        foldsvg_status fst = fs_batches_next(&bs, &got);
        const block *b = got;
        st = FOLDSVG_OK;
        if (b) /* its bytes are read, whatever its lines make the sink do */
            fs_input_give_progress(in, b->done, lineno + b->nrec);
        for (size_t i = 0; b && st == FOLDSVG_OK && i < b->nrec; i++) {
            const rec *x = &b->recs[i];
            fs_folded_line fl = {.stack = b->data + x->off,
                                 .len = x->len,
                                 .count = x->count,
                                 .before = x->before,
                                 .is_diff = x->is_diff};
            st = fs_folded_take(x->verdict, &fl, x->frac, ++lineno, sink, stats, err);
        }
        if (st)
            break;
        if (fst != FOLDSVG_OK && fst != FS_STOP) {
            if (err)
                *err = b->err;
            st = fst;
            break;
        }
        if (fst == FS_STOP)
            break;
    }
    fs_batches_stop(&bs);
    fs_input_release_warnings(in);
    reader_free(&r);
    return st;
}

int fs_folded_detect(const unsigned char *head, size_t len, int complete)
{
    /* Folded text when its first stack line is one and most lines of the head are: anything
     * else (another tool's text, a report, an SVG) is not drawn as if it were. A line the
     * head cuts short (past its room) is not judged. */
    const char *p = (const char *)head, *end = p + len;
    uint64_t valid = 0, invalid = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !complete)
            return valid + invalid ? (invalid > valid ? 0 : 1) : -1;
        if (!nl && len >= FS_INPUT_PEEK_MAX)
            break;
        const char *e = nl ? nl : end;
        fs_folded_line l;
        int frac = 0;
        int r = fs_folded_parse_line(p, (size_t)(e - p), &l, &frac);
        if (r < 0 && valid + invalid == 0)
            return 0;
        valid += r > 0;
        invalid += r < 0;
        p = nl ? nl + 1 : end;
    }
    return invalid > valid ? 0 : 1;
}
