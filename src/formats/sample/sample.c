#include "formats/sample/sample.h"

#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"
#include "util/error.h"

static const char start_line[] = "Call graph:";
static const char end_line[] = "Total number in stack";

/* Leaves of threads that wait: left out, as inferno leaves them out. */
static const char *const ignored[] = {
    "__psynch_cvwait",    "__select", "__semwait_signal", "__ulock_wait", "__wait4",
    "__workq_kernreturn", "kevent",   "mach_msg_trap",    "read",         "semaphore_wait_trap",
};

typedef struct reader {
    fs_input *in;
    foldsvg_error *err;
    int no_modules;
    fs_buf frames; /* the stack so far, "a;b;c" */
    size_t *ends;  /* of each frame in FRAMES */
    size_t n, cap;
    uint64_t samples;
    fs_stack_table table;
    fs_buf fixed, frame;
} reader;

static foldsvg_status nomem(reader *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, fs_input_name(r->in), "out of memory");
}

static foldsvg_status bad(reader *r, uint64_t line, const char *what)
{
    return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), line, 0,
                            "not a line of a macOS sample call graph: %s", what);
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static foldsvg_status write_stack(reader *r, uint64_t line)
{
    if (r->n == 0)
        return FOLDSVG_OK;
    size_t start = r->n > 1 ? r->ends[r->n - 2] + 1 : 0;
    const char *leaf = r->frames.data + start;
    size_t leaf_len = r->ends[r->n - 1] - start;
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        if (ends_with(leaf, leaf_len, ignored[i]))
            return FOLDSVG_OK;
    if (fs_stack_table_put(&r->table, r->frames.data, r->frames.len, r->samples, 1, line))
        return nomem(r);
    return FOLDSVG_OK;
}

static void pop(reader *r)
{
    if (r->n == 0)
        return;
    r->n--;
    r->frames.len = r->n ? r->ends[r->n - 1] : 0;
}

static int indent_char(char c)
{
    return c == ' ' || c == '+' || c == '|' || c == ':' || c == '!';
}

/* "COUNT func  (in module) + 1  [0x...]": the count, the function (up to its first '('),
 * the module (after the last "(in ", up to ')'; no ".dylib"). */
static foldsvg_status on_line(reader *r, const char *line, size_t len, uint64_t lineno)
{
    size_t k = 4;
    while (k < len && indent_char(line[k]))
        k++;
    if (k == len)
        return bad(r, lineno, "it holds indentation only");
    size_t indent = k - 4;
    if (indent % 2)
        return bad(r, lineno, "an odd number of indentation characters");
    size_t prev = r->n, depth = indent / 2 + 1;
    if (depth <= prev) {
        FS_FORWARD_IF_ERROR(write_stack(r, lineno));
        for (size_t i = 0; i <= prev - depth; i++)
            pop(r);
    } else if (depth > prev + 1) {
        return bad(r, lineno, "it skips an indentation level");
    }
    const char *p = line + k;
    size_t n = len - k;
    fs_rtrim_start(&p, &n);
    const char *sp = memchr(p, ' ', n);
    if (!sp)
        return bad(r, lineno, "no function after the count");
    const char *time = p;
    size_t tlen = (size_t)(sp - p);
    fs_rtrim_end(&time, &tlen);
    const char *rest = sp + 1, *end = p + n;
    const char *paren = memchr(rest, '(', (size_t)(end - rest));
    const char *func = rest;
    size_t flen = (size_t)((paren ? paren : end) - rest);
    fs_rtrim_end(&func, &flen);
    const char *module = "";
    size_t mlen = 0;
    if (!r->no_modules) {
        const char *after = rest;
        for (const char *q = end; q - rest >= 4; q--)
            if (memcmp(q - 4, "(in ", 4) == 0) {
                after = q;
                break;
            }
        const char *close = memchr(after, ')', (size_t)(end - after));
        if (close) {
            module = after;
            mlen = (size_t)(close - after);
        }
        if (ends_with(module, mlen, ".dylib"))
            mlen -= 6;
    }
    uint64_t samples;
    if (!fs_rust_u64(time, tlen, &samples))
        return bad(r, lineno, "its count is not a whole number");
    r->samples = samples;
    int fixed = fs_rust_fix(func, flen, &r->fixed);
    if (fixed < 0)
        return nomem(r);
    if (fixed) {
        func = r->fixed.data;
        flen = r->fixed.len;
    }
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
    if (mlen) {
        fs_buf_append(&r->frames, module, mlen);
        fs_buf_append(&r->frames, "`", 1);
    }
    fs_buf_append(&r->frames, func, flen);
    if (fs_buf_status(&r->frames) != FOLDSVG_OK)
        return nomem(r);
    r->ends[r->n++] = r->frames.len;
    return FOLDSVG_OK;
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
                            "no valid stacks, nothing to draw: this macOS sample report has no "
                            "call graph (no line \"%s\")",
                            start_line);
        if (len >= sizeof start_line - 1 && memcmp(line, start_line, sizeof start_line - 1) == 0)
            break;
    }
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), l->lineno, 0,
                                    "the macOS sample report ends inside its call graph (no "
                                    "line \"%s\" after it)",
                                    end_line);
        fs_rtrim_end(&line, &len);
        if (len == 0)
            continue;
        if (len >= 4 && memcmp(line, "    ", 4) == 0) {
            FS_FORWARD_IF_ERROR(on_line(r, line, len, l->lineno));
        } else if (len >= sizeof end_line - 1 && memcmp(line, end_line, sizeof end_line - 1) == 0) {
            FS_FORWARD_IF_ERROR(write_stack(r, l->lineno));
            break;
        } else {
            return bad(r, l->lineno, "it does not start with four spaces");
        }
    }
    fs_buf scratch = {0};
    foldsvg_status st = fs_stack_table_emit(&r->table, sink, &scratch, r->err);
    fs_buf_free(&scratch);
    return st;
}

foldsvg_status fs_sample_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.err = err;
    r.no_modules = opts && opts->collapse.no_modules;
    fs_stack_table_init(&r.table);
    fs_collapse_facts(sink, "macOS sample", "samples");
    fs_lines l;
    fs_lines_init(&l, in);
    foldsvg_status st = read_all(&r, &l, sink);
    fs_lines_free(&l);
    fs_stack_table_free(&r.table);
    fs_buf_free(&r.frames);
    fs_buf_free(&r.fixed);
    fs_buf_free(&r.frame);
    free(r.ends);
    return st;
}

int fs_sample_detect(const unsigned char *head, size_t len, int complete)
{
    static const char analysis[] = "Analysis of sampling ";
    const char *p = (const char *)head, *end = p + len;
    if (len >= sizeof analysis - 1 && memcmp(p, analysis, sizeof analysis - 1) == 0)
        return 1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if ((size_t)(e - p) >= sizeof start_line - 1 &&
            memcmp(p, start_line, sizeof start_line - 1) == 0)
            return 1;
        p = nl ? nl + 1 : end;
    }
    return complete ? 0 : -1;
}
