#include "formats/vsprof/vsprof.h"

#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"
#include "util/error.h"

static const char header[] =
    "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,Elapsed Exclusive Time %,"
    "Avg Elapsed Inclusive Time,Avg Elapsed Exclusive Time,Module Name,";

typedef struct reader {
    fs_input *in;
    foldsvg_error *err;
    fs_buf frames; /* "a;b;c" */
    size_t *ends;
    uint64_t *calls;
    size_t n, cap;
    fs_stack_table table;
} reader;

static foldsvg_status nomem(reader *r)
{
    return fs_error(r->err, FOLDSVG_E_NOMEM, fs_input_name(r->in), "out of memory");
}

static foldsvg_status bad(reader *r, uint64_t line, const char *what)
{
    return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), line, 0,
                            "not a line of a Visual Studio call tree CSV: %s", what);
}

/* inferno's get_next_number: a leading ',' skipped, then a number, quoted past 999 with
 * thousands separators (',', '.' or ' ', one kind), up to the next ','. 1 with *V and the
 * rest after it in *P, or 0. */
static int next_number(const char **p, const char *end, uint64_t *v)
{
    const char *s = *p;
    if (s < end && *s == ',')
        s++;
    const char *num, *num_end, *rest;
    if (s < end && *s == '"') {
        num = s + 1;
        num_end = num < end ? memchr(num, '"', (size_t)(end - num)) : NULL;
        if (!num_end)
            return 0;
        rest = num_end + 1;
        if (rest < end && *rest == ',')
            rest++;
    } else {
        num = s;
        num_end = s < end ? memchr(s, ',', (size_t)(end - s)) : NULL;
        if (num_end) {
            rest = num_end + 1;
        } else {
            num_end = end;
            rest = end;
        }
    }
    uint64_t n = 0;
    int initial = 1, group = 0;
    char sep = 0;
    for (const char *c = num; c < num_end; c++) {
        if (*c >= '0' && *c <= '9') {
            if (group > 2)
                return 0;
            n = n * 10 + (uint64_t)(*c - '0');
            group++;
        } else if (*c == ',' || *c == '.' || *c == ' ') {
            if ((!initial && group < 3) || (sep && sep != *c))
                return 0;
            sep = *c;
            initial = 0;
            group = 0;
        } else {
            return 0;
        }
    }
    *v = n;
    *p = rest;
    return 1;
}

static void pop(reader *r)
{
    r->n--;
    r->frames.len = r->n ? r->ends[r->n - 1] : 0;
}

static foldsvg_status write_stack(reader *r, uint64_t line)
{
    if (r->n == 0 || r->calls[r->n - 1] == 0)
        return FOLDSVG_OK;
    if (fs_stack_table_put(&r->table, r->frames.data, r->frames.len, r->calls[r->n - 1], 1, line))
        return nomem(r);
    return FOLDSVG_OK;
}

static foldsvg_status push(reader *r, const char *name, size_t len, uint64_t calls)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        size_t *e = realloc(r->ends, cap * sizeof *e);
        if (!e)
            return nomem(r);
        r->ends = e;
        uint64_t *c = realloc(r->calls, cap * sizeof *c);
        if (!c)
            return nomem(r);
        r->calls = c;
        r->cap = cap;
    }
    if (r->n)
        fs_buf_append(&r->frames, ";", 1);
    fs_buf_append(&r->frames, name, len);
    if (fs_buf_status(&r->frames) != FOLDSVG_OK)
        return nomem(r);
    r->ends[r->n] = r->frames.len;
    r->calls[r->n++] = calls;
    return FOLDSVG_OK;
}

static foldsvg_status on_line(reader *r, const char *line, size_t len, uint64_t lineno)
{
    const char *p = line, *end = line + len;
    uint64_t depth, calls;
    if (!next_number(&p, end, &depth))
        return bad(r, lineno, "its level is not a whole number");
    if (p == end)
        return bad(r, lineno, "no function name");
    if (*p != '"')
        return bad(r, lineno, "its function name is not quoted");
    const char *name = p + 1, *close = memchr(name, '"', (size_t)(end - name));
    if (!close)
        return bad(r, lineno, "its function name is not quoted");
    p = close + 1;
    if (!next_number(&p, end, &calls))
        return bad(r, lineno, "its number of calls is not a whole number");
    size_t nlen = (size_t)(close - name);
    uint64_t prev = r->n;
    if (prev < depth) {
        if (prev + 1 != depth)
            return bad(r, lineno, "it skips a level");
    } else if (prev == depth) {
        FS_FORWARD_IF_ERROR(write_stack(r, lineno));
        if (r->n)
            pop(r);
    } else {
        /* the calls of the callees are not the caller's own */
        uint64_t prev_calls = 0;
        for (uint64_t i = 0; i < prev - depth + 1; i++) {
            if (prev_calls != r->calls[r->n - 1])
                FS_FORWARD_IF_ERROR(write_stack(r, lineno));
            prev_calls = r->calls[r->n - 1];
            pop(r);
            if (r->n == 0)
                break;
            if (prev_calls < r->calls[r->n - 1])
                r->calls[r->n - 1] -= prev_calls;
        }
    }
    return push(r, name, nlen, calls);
}

static int is_header(const char *line, size_t len)
{
    fs_rtrim(&line, &len);
    while (len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
        line += 3;
        len -= 3;
    }
    return len >= sizeof header - 1 && memcmp(line, header, sizeof header - 1) == 0;
}

static foldsvg_status read_all(reader *r, fs_lines *l, fs_sink *sink)
{
    const char *line;
    size_t len;
    int got;
    FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
    if (!got)
        return fs_error(r->err, FOLDSVG_E_NO_DATA, fs_input_name(r->in),
                        "no valid stacks, nothing to draw: the input is empty");
    if (!is_header(line, len))
        return fs_error_at_line(r->err, FOLDSVG_E_PARSE, fs_input_name(r->in), 1, 0,
                                "not the header of a Visual Studio call tree CSV (\"%.40s...\")",
                                header);
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            break;
        fs_rtrim_end(&line, &len);
        if (len > 0)
            FS_FORWARD_IF_ERROR(on_line(r, line, len, l->lineno));
    }
    FS_FORWARD_IF_ERROR(write_stack(r, l->lineno));
    fs_buf scratch = {0};
    foldsvg_status st = fs_stack_table_emit(&r->table, sink, &scratch, r->err);
    fs_buf_free(&scratch);
    return st;
}

foldsvg_status fs_vsprof_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err)
{
    (void)opts;
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.err = err;
    fs_stack_table_init(&r.table);
    fs_collapse_facts(sink, "Visual Studio CSV", "calls");
    fs_lines l;
    fs_lines_init(&l, in);
    foldsvg_status st = read_all(&r, &l, sink);
    fs_lines_free(&l);
    fs_stack_table_free(&r.table);
    fs_buf_free(&r.frames);
    free(r.ends);
    free(r.calls);
    return st;
}

int fs_vsprof_detect(const unsigned char *head, size_t len, int complete)
{
    const char *p = (const char *)head, *nl = memchr(p, '\n', len);
    if (!nl && !complete && len < sizeof header + 16)
        return -1;
    return is_header(p, nl ? (size_t)(nl - p) : len);
}
