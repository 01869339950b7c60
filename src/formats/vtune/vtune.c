#include "formats/vtune/vtune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/collapse.h"
#include "util/error.h"

static const char header[] = "Function Stack,CPU Time:Self,Module";

typedef struct reader {
    fs_input *in;
    foldsvg_error *err;
    int no_modules;
    fs_buf frames; /* "a;b;c" */
    size_t *ends;
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
                            "not a line of a VTune top-down CSV: %s", what);
}

static const char *find(const char *p, const char *end, const char *w, size_t wn)
{
    for (; (size_t)(end - p) >= wn; p++)
        if (memcmp(p, w, wn) == 0)
            return p;
    return NULL;
}

static foldsvg_status on_line(reader *r, const char *line, size_t len, uint64_t lineno)
{
    size_t spaces = 0;
    while (spaces < len && line[spaces] == ' ')
        spaces++;
    size_t prev = r->n, depth = spaces + 1;
    if (depth <= prev) {
        for (size_t i = 0; i <= prev - depth; i++) {
            r->n--;
            r->frames.len = r->n ? r->ends[r->n - 1] : 0;
        }
    } else if (depth > prev + 1) {
        return bad(r, lineno, "it skips an indentation level");
    }
    const char *p = line + spaces, *end = line + len;
    const char *func = p, *rest;
    size_t flen;
    if (p < end && *p == '"') {
        /* quoted: the name runs to the first "\"," */
        func = p + 1;
        const char *q = find(func, end, "\",", 2);
        if (!q)
            return bad(r, lineno, "no CPU time after the function");
        flen = (size_t)(q - func);
        rest = q + 2;
    } else {
        const char *q = memchr(p, ',', (size_t)(end - p));
        if (!q)
            return bad(r, lineno, "no CPU time after the function");
        flen = (size_t)(q - p);
        rest = q + 1;
    }
    const char *comma = memchr(rest, ',', (size_t)(end - rest));
    const char *time = rest;
    size_t tlen = (size_t)((comma ? comma : end) - rest);
    const char *module = "";
    size_t mlen = 0;
    if (!r->no_modules) {
        if (!comma)
            return bad(r, lineno, "no module after the CPU time");
        module = comma + 1;
        mlen = (size_t)(end - module);
    }
    double seconds;
    if (!fs_rust_f64(time, tlen, &seconds))
        return bad(r, lineno, "its CPU Time:Self is not a number");
    uint64_t ms = fs_rust_as_u64(round(seconds * 1000.0));
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
    if (ms > 0 && fs_stack_table_put(&r->table, r->frames.data, r->frames.len, ms, 1, lineno))
        return nomem(r);
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
                            "no valid stacks, nothing to draw: no line \"%s\" starts the call "
                            "tree",
                            header);
        if (len >= sizeof header - 1 && memcmp(line, header, sizeof header - 1) == 0)
            break;
    }
    for (;;) {
        FS_FORWARD_IF_ERROR(fs_lines_next(l, &line, &len, &got, r->err));
        if (!got)
            break;
        fs_rtrim_end(&line, &len);
        if (len > 0)
            FS_FORWARD_IF_ERROR(on_line(r, line, len, l->lineno));
    }
    fs_buf scratch = {0};
    foldsvg_status st = fs_stack_table_emit(&r->table, sink, &scratch, r->err);
    fs_buf_free(&scratch);
    return st;
}

foldsvg_status fs_vtune_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                             foldsvg_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.err = err;
    r.no_modules = opts && opts->collapse.no_modules;
    fs_stack_table_init(&r.table);
    fs_collapse_facts(sink, "VTune CSV", "ms");
    fs_lines l;
    fs_lines_init(&l, in);
    foldsvg_status st = read_all(&r, &l, sink);
    fs_lines_free(&l);
    fs_stack_table_free(&r.table);
    fs_buf_free(&r.frames);
    free(r.ends);
    return st;
}

int fs_vtune_detect(const unsigned char *head, size_t len, int complete)
{
    const char *p = (const char *)head, *end = p + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if ((size_t)(e - p) >= sizeof header - 1 && memcmp(p, header, sizeof header - 1) == 0)
            return 1;
        p = nl ? nl + 1 : end;
    }
    return complete ? 0 : -1;
}
