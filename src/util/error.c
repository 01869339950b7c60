#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void fs_error_clear(foldsvg_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

static foldsvg_status fill(foldsvg_error *err, foldsvg_status code, const char *file,
                           const char *fmt, va_list ap)
{
    if (!err)
        return code;
    memset(err, 0, sizeof *err);
    err->code = code;
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    one_line(err->file);
    one_line(err->message);
    return code;
}

foldsvg_status fs_error(foldsvg_error *err, foldsvg_status code, const char *file, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, file, fmt, ap);
    va_end(ap);
    return code;
}

foldsvg_status fs_error_at_line(foldsvg_error *err, foldsvg_status code, const char *file,
                                uint64_t line, uint64_t column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, file, fmt, ap);
    va_end(ap);
    if (err) {
        err->line = line;
        err->column = column;
    }
    return code;
}

foldsvg_status fs_error_at_offset(foldsvg_error *err, foldsvg_status code, const char *file,
                                  uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, file, fmt, ap);
    va_end(ap);
    if (err) {
        err->offset = offset;
        err->has_offset = 1;
    }
    return code;
}

const char *foldsvg_status_name(foldsvg_status s)
{
    switch (s) {
    case FOLDSVG_OK:
        return "ok";
    case FOLDSVG_E_USAGE:
        return "usage error";
    case FOLDSVG_E_NO_DATA:
        return "no data";
    case FOLDSVG_E_PARSE:
        return "parse error";
    case FOLDSVG_E_UNSORTED:
        return "unsorted input";
    case FOLDSVG_E_OVERFLOW:
        return "count overflow";
    case FOLDSVG_E_IO:
        return "I/O error";
    case FOLDSVG_E_NOMEM:
        return "out of memory";
    case FOLDSVG_E_LIMIT:
        return "limit exceeded";
    case FOLDSVG_E_ARG:
        return "invalid argument";
    }
    return "unknown error";
}

size_t foldsvg_error_format(const foldsvg_error *e, char *buf, size_t size)
{
    char where[96] = "";
    if (!e)
        return (size_t)snprintf(buf, size, "%s", "unknown error");
    if (e->has_offset)
        snprintf(where, sizeof where, " byte %llu:", (unsigned long long)e->offset);
    else if (e->line && e->column)
        snprintf(where, sizeof where, "%llu:%llu:", (unsigned long long)e->line,
                 (unsigned long long)e->column);
    else if (e->line)
        snprintf(where, sizeof where, "%llu:", (unsigned long long)e->line);
    int n;
    if (e->file[0] && where[0])
        n = snprintf(buf, size, "%s:%s %s", e->file, where, e->message);
    else if (e->file[0])
        n = snprintf(buf, size, "%s: %s", e->file, e->message);
    else
        n = snprintf(buf, size, "%s", e->message);
    return n < 0 ? 0 : (size_t)n;
}
