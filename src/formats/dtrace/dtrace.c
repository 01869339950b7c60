#include "formats/dtrace/dtrace.h"

#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"
#include "util/error.h"

typedef struct reader {
    fs_input *in;
    fs_sink *sink;
    foldsvg_error *err;
    int includeoffset;
    fs_buf lines;  /* the stack's lines' frames, leaf first, each "a;b_[i]" */
    size_t *ends;  /* of each line's frames in LINES */
    size_t n, cap; /* lines */
    fs_buf fixed, stack, scratch;
    uint64_t stack_line; /* where the stack began */
} reader;

static foldsvg_status nomem(reader *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, fs_input_name(r->in), "out of memory");
}

/* FlameGraph's uncpp: after the first "::", cut at the last '(' or '<'. */
static size_t uncpp(const char *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (p[i] == ':' && p[i + 1] == ':') {
            for (size_t j = n; j > i + 2; j--)
                if (p[j - 1] == '(' || p[j - 1] == '<')
                    return j - 1;
            return n;
        }
    }
    return n;
}

typedef struct marks {
    int inlines, cpp, semicolon;
    size_t offset; /* of the last '+', or the length */
} marks;

static marks remove_offset(const char *p, size_t n)
{
    /* the bytes that mark something: most bytes of a frame are none of them */
    static const unsigned char marker[256] = {['>'] = 1, [':'] = 1, [';'] = 1, ['+'] = 1};
    marks m = {0, 0, 0, n};
    for (size_t i = 0; i < n; i++) {
        if (!marker[(unsigned char)p[i]])
            continue;
        if (p[i] == '>' && i > 0 && p[i - 1] == '-')
            m.inlines = 1;
        else if (p[i] == ':' && i > 0 && p[i - 1] == ':')
            m.cpp = 1;
        else if (p[i] == ';')
            m.semicolon = 1;
        else if (p[i] == '+')
            m.offset = i;
    }
    return m;
}

/* inferno's fix_rust_symbol: the function after "module`" demangled the rest of the way.
 * *OUT, *N: the frame, in R->fixed when it changed. Returns -1 when out of memory. */
static int fix_rust(reader *r, const char **out, size_t *n)
{
    const char *f = *out, *tick = memchr(f, '`', *n);
    if (!tick)
        return 0;
    const char *func = tick + 1, *end = f + *n;
    size_t pname = (size_t)(tick - f);
    if (r->includeoffset) {
        const char *plus = NULL;
        for (const char *q = end; q > func; q--)
            if (q[-1] == '+') {
                plus = q - 1;
                break;
            }
        if (plus) {
            const char *fn = func;
            size_t fl = (size_t)(plus - func);
            fs_rtrim_end(&fn, &fl);
            int k = fs_rust_fix(fn, fl, &r->scratch);
            if (k <= 0)
                return k;
            fs_buf_clear(&r->fixed);
            fs_buf_append(&r->fixed, f, pname + 1);
            fs_buf_append(&r->fixed, r->scratch.data, r->scratch.len);
            fs_buf_append(&r->fixed, plus, (size_t)(end - plus));
            goto done;
        }
    }
    {
        const char *fn = func;
        size_t fl = (size_t)(end - func);
        fs_rtrim_end(&fn, &fl);
        int k = fs_rust_fix(fn, fl, &r->scratch);
        if (k <= 0)
            return k;
        fs_buf_clear(&r->fixed);
        fs_buf_append(&r->fixed, f, pname + 1);
        fs_buf_append(&r->fixed, r->scratch.data, r->scratch.len);
    }
done:
    if (fs_buf_status(&r->fixed) != FOLDSVG_OK)
        return -1;
    *out = r->fixed.data;
    *n = r->fixed.len;
    return 1;
}

/* One part of a frame, as inferno writes it: ';' as ':' when the line had one; an inlined
 * frame's parts lose their leading 'L's (Java's class prefix). */
static void add_part(fs_buf *b, const char *p, size_t n, int semicolon, int split, int inlined)
{
    while (split && n > 0 && *p == 'L') {
        p++;
        n--;
    }
    size_t at = b->len;
    fs_buf_append(b, p, n);
    if (semicolon && fs_buf_status(b) == FOLDSVG_OK)
        for (size_t i = at; i < b->len; i++)
            if (b->data[i] == ';')
                b->data[i] = ':';
    if (inlined)
        fs_buf_append(b, "_[i]", 4);
}

static foldsvg_status on_stack_line(reader *r, const char *line, size_t len)
{
    marks m = r->includeoffset ? (marks){1, 1, 1, len} : remove_offset(line, len);
    const char *f = line;
    size_t n = m.offset;
    if (m.cpp)
        n = uncpp(f, n);
    if (n == 0) {
        f = "-";
        n = 1;
    } else if (fix_rust(r, &f, &n) < 0) {
        return nomem(r);
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        size_t *e = realloc(r->ends, cap * sizeof *e);
        if (!e)
            return nomem(r);
        r->ends = e;
        r->cap = cap;
    }
    fs_buf *b = &r->lines;
    if (m.inlines) {
        const char *p = f, *end = f + n;
        int inlined = 0;
        for (;;) {
            const char *arrow = NULL;
            for (const char *q = p; q + 1 < end; q++)
                if (q[0] == '-' && q[1] == '>') {
                    arrow = q;
                    break;
                }
            if (inlined)
                fs_buf_append(b, ";", 1);
            add_part(b, p, (size_t)((arrow ? arrow : end) - p), m.semicolon, 1, inlined);
            inlined = 1;
            if (!arrow)
                break;
            p = arrow + 2;
        }
    } else {
        add_part(b, f, n, m.semicolon, 0, 0);
    }
    if (fs_buf_status(b) != FOLDSVG_OK)
        return nomem(r);
    r->ends[r->n++] = b->len;
    return FOLDSVG_OK;
}

static foldsvg_status on_stack_end(reader *r, uint64_t count)
{
    fs_buf *s = &r->stack;
    fs_buf_clear(s);
    for (size_t i = r->n; i-- > 0;) {
        size_t start = i ? r->ends[i - 1] : 0, len = r->ends[i] - start;
        const char *p = r->lines.data + start;
        if (i == 0 && r->includeoffset) {
            /* the leaf loses its offset: its last part, up to its last '+' */
            size_t last = 0;
            for (size_t k = 0; k < len; k++)
                if (p[k] == ';')
                    last = k + 1;
            len = last + remove_offset(p + last, len - last).offset;
        }
        if (i + 1 < r->n)
            fs_buf_append(s, ";", 1);
        fs_buf_append(s, p, len);
    }
    if (fs_buf_status(s) != FOLDSVG_OK)
        return nomem(r);
    foldsvg_status st = FOLDSVG_OK;
    if (r->n > 0)
        st = fs_collapse_emit(r->sink, s->data, s->len, count, r->stack_line, &r->scratch, r->err);
    fs_buf_clear(&r->lines);
    r->n = 0;
    return st;
}

static foldsvg_status read_all(reader *r, fs_lines *l)
{
    const char *line;
    size_t len;
    int got;
    /* the header, up to the first blank line */
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            return FOLDSVG_OK;
        fs_rtrim(&line, &len);
        if (len == 0)
            break;
    }
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            break;
        fs_rtrim(&line, &len);
        uint64_t count;
        if (len == 0)
            continue;
        if (fs_rust_u64(line, len, &count)) {
            FS_FORWARD_IF_ERROR(on_stack_end(r, count));
        } else {
            if (r->n == 0)
                r->stack_line = l->lineno;
            FS_FORWARD_IF_ERROR(on_stack_line(r, line, len));
        }
    }
    if (r->n > 0)
        return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), r->stack_line, 0,
                                "the input ends in the middle of a stack (its frames from this "
                                "line on have no count line after them)");
    return FOLDSVG_OK;
}

foldsvg_status fs_dtrace_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.sink = sink;
    r.err = err;
    r.includeoffset = opts && opts->collapse.includeoffset;
    fs_collapse_facts(sink, "DTrace stacks", "samples");
    fs_lines l;
    fs_lines_init(&l, in);
    foldsvg_status st = read_all(&r, &l);
    fs_lines_free(&l);
    fs_buf_free(&r.lines);
    fs_buf_free(&r.fixed);
    fs_buf_free(&r.stack);
    fs_buf_free(&r.scratch);
    free(r.ends);
    return st;
}

static int is_hex_address(const char *p, size_t n)
{
    if (n < 3 || p[0] != '0' || p[1] != 'x' || n - 2 > 16)
        return 0;
    for (size_t i = 2; i < n; i++) {
        char c = p[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return 0;
    }
    return 1;
}

int fs_dtrace_detect(const unsigned char *head, size_t len, int complete)
{
    const char *p = (const char *)head, *end = p + len;
    int blank = 0, frames = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !complete)
            return -1;
        const char *e = nl ? nl : end;
        const char *s = p;
        size_t n = (size_t)(e - p);
        fs_rtrim(&s, &n);
        uint64_t count;
        if (n == 0)
            blank = 1;
        else if (blank && fs_rust_u64(s, n, &count))
            return frames;
        else if (blank && (memchr(s, '`', n) || is_hex_address(s, n)))
            frames = 1;
        else if (blank)
            return 0;
        p = nl ? nl + 1 : end;
    }
    return complete ? 0 : -1;
}
