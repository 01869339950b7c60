#include "formats/ghcprof/ghcprof.h"

#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"
#include "util/error.h"
#include "util/utf8.h"

static const char *const header[] = {"COST",    "CENTRE", "MODULE", "SRC",   "no.",
                                     "entries", "%time",  "%alloc", "%time", "%alloc"};
enum { NHEADER = sizeof header / sizeof header[0] };

typedef enum source { S_TIME, S_TICKS, S_BYTES } source;

typedef struct reader {
    fs_input *in;
    foldsvg_error *err;
    source src;
    size_t module_col, source_col; /* in characters, as inferno takes its byte offsets */
    fs_buf frames;                 /* "a;b;c" */
    size_t *ends;
    size_t n, cap;
    fs_buf scratch;
} reader;

static foldsvg_status nomem(reader *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, fs_input_name(r->in), "out of memory");
}

/* The length of the code point at S (well-formed: lines are decoded) and whether it is
 * White_Space. */
static size_t char_at(const char *s, size_t n, int *space)
{
    unsigned char c = (unsigned char)s[0];
    if (c < 0x80) {
        *space = c == ' ' || (c >= '\t' && c <= '\r');
        return 1;
    }
    uint32_t cp;
    size_t k = fs_utf8_decode((const unsigned char *)s, n, &cp);
    if (k == 0) {
        *space = 0;
        return 1;
    }
    *space = fs_utf8_is_space(cp);
    return k;
}

/* The words of LINE split at White_Space: whether the first ten are the header's. */
static int is_header(const char *line, size_t len)
{
    size_t i = 0;
    for (size_t w = 0; w < NHEADER; w++) {
        int space = 1;
        size_t k;
        while (i < len && (k = char_at(line + i, len - i, &space)) && space)
            i += k;
        size_t start = i;
        while (i < len && (k = char_at(line + i, len - i, &space)) && !space)
            i += k;
        size_t wl = i - start;
        if (wl == 0 || wl != strlen(header[w]) || memcmp(line + start, header[w], wl) != 0)
            return 0;
    }
    return 1;
}

static size_t find(const char *s, size_t n, const char *w)
{
    size_t wn = strlen(w);
    for (size_t i = 0; i + wn <= n; i++)
        if (memcmp(s + i, w, wn) == 0)
            return i;
    return SIZE_MAX;
}

/* inferno's string_range: the word at or after character COL of LINE. */
static void word_at(const char *line, size_t len, size_t col, const char **w, size_t *wn)
{
    size_t i = 0;
    int space;
    for (size_t c = 0; c < col && i < len; c++)
        i += char_at(line + i, len - i, &space);
    size_t k;
    while (i < len && (k = char_at(line + i, len - i, &space)) && space)
        i += k;
    size_t start = i;
    while (i < len && (k = char_at(line + i, len - i, &space)) && !space)
        i += k;
    *w = line + start;
    *wn = i - start;
}

/* Where a column right-aligned under NAME starts: just after the header word before it. */
static foldsvg_status column_before(reader *r, const char *line, size_t len, const char *name,
                                    uint64_t lineno, size_t *col)
{
    size_t at = find(line, len, name);
    if (at == SIZE_MAX)
        return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), lineno, 0,
                                "this GHC .prof has no '%s' column (--%s needs a profile made "
                                "with +RTS -P)",
                                name, name);
    size_t end = fs_utf8_trim_end(line, at);
    if (end == 0)
        return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), lineno, 0,
                                "no column before '%s' in this GHC .prof", name);
    *col = fs_utf8_chars(line, end);
    return FOLDSVG_OK;
}

static foldsvg_status on_line(reader *r, fs_sink *sink, const char *line, size_t len,
                              uint64_t lineno)
{
    size_t depth = 0;
    while (depth < len && line[depth] == ' ')
        depth++;
    if (depth < r->n) {
        r->n = depth;
        r->frames.len = r->n ? r->ends[r->n - 1] : 0;
    } else if (depth != r->n) {
        return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), lineno, 0,
                                "not a line of a GHC .prof cost centre tree: it skips an "
                                "indentation level");
    }
    const char *cost, *func, *module;
    size_t clen, flen, mlen;
    word_at(line, len, r->source_col, &cost, &clen);
    double v;
    if (!fs_rust_f64(cost, clen, &v))
        return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), lineno, 0,
                                "not a line of a GHC .prof cost centre tree: its cost \"%.*s\" "
                                "is not a number",
                                (int)(clen > 40 ? 40 : clen), cost);
    word_at(line, len, 0, &func, &flen);
    word_at(line, len, r->module_col, &module, &mlen);
    uint64_t count = fs_rust_as_u64(r->src == S_TIME ? v * 10.0 : v);
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        size_t *e = realloc(r->ends, cap * sizeof *e);
        if (!e)
            return nomem(r);
        r->ends = e;
        r->cap = cap;
    }
    if (r->n)
        fs_buf_append(&r->frames, ";", 1);
    fs_buf_append(&r->frames, module, mlen);
    fs_buf_append(&r->frames, ".", 1);
    fs_buf_append(&r->frames, func, flen);
    if (fs_buf_status(&r->frames) != FOLDSVG_OK)
        return nomem(r);
    r->ends[r->n++] = r->frames.len;
    return fs_collapse_emit(sink, r->frames.data, r->frames.len, count, lineno, &r->scratch,
                            r->err);
}

static foldsvg_status read_all(reader *r, fs_lines *l, fs_sink *sink)
{
    const char *line;
    size_t len;
    int got;
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            return fs_error(r->err, FOLDSVG_E_NO_DATA, fs_input_name(r->in),
                            "no valid stacks, nothing to draw: this GHC .prof has no cost "
                            "centre tree (no line \"COST CENTRE MODULE SRC no. entries "
                            "...\")");
        if (!is_header(line, len))
            continue;
        size_t m = find(line, len, "MODULE");
        r->module_col = m == SIZE_MAX ? 0 : fs_utf8_chars(line, m);
        if (r->src == S_TIME)
            r->source_col = fs_utf8_chars(line, find(line, len, "%time"));
        else
            FS_FORWARD_IF_ERROR(column_before(r, line, len, r->src == S_TICKS ? "ticks" : "bytes",
                                              l->lineno, &r->source_col));
        break;
    }
    FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            break;
        fs_rtrim_end(&line, &len);
        if (len == 0)
            break;
        FS_FORWARD_IF_ERROR(on_line(r, sink, line, len, l->lineno));
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_ghcprof_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                               foldsvg_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.err = err;
    const fs_collapse_opts *o = opts ? &opts->collapse : NULL;
    if (o && o->ghc_time + o->ghc_ticks + o->ghc_bytes > 1)
        return fs_error(err, FOLDSVG_E_USAGE, fs_input_name(in),
                        "--time, --ticks and --bytes choose the column weighed: give one");
    r.src = o && o->ghc_ticks ? S_TICKS : o && o->ghc_bytes ? S_BYTES : S_TIME;
    static const char *const units[] = {"permille", "ticks", "bytes"};
    fs_collapse_facts(sink, "GHC .prof", units[r.src]);
    fs_lines l;
    fs_lines_init(&l, in);
    foldsvg_status st = read_all(&r, &l, sink);
    fs_lines_free(&l);
    fs_buf_free(&r.frames);
    fs_buf_free(&r.scratch);
    free(r.ends);
    return st;
}

int fs_ghcprof_detect(const unsigned char *head, size_t len, int complete)
{
    const char *p = (const char *)head, *end = p + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !complete)
            return -1;
        const char *e = nl ? nl : end;
        if (is_header(p, (size_t)(e - p)))
            return 1;
        p = nl ? nl + 1 : end;
    }
    return complete ? 0 : -1;
}
