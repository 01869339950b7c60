#include "util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void fs_buf_free(fs_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

foldsvg_status fs_buf_reserve(fs_buf *b, size_t extra)
{
    if (b->failed)
        return FOLDSVG_E_NOMEM;
    if (extra < b->cap - b->len) /* room for EXTRA and the NUL: nearly always */
        return FOLDSVG_OK;
    if (extra > SIZE_MAX - b->len - 1 ||
        fs_grow(&b->data, &b->cap, b->len + extra + 1, 1, 64) != FOLDSVG_OK) {
        b->failed = 1;
        return FOLDSVG_E_NOMEM;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_buf_append(fs_buf *b, const void *data, size_t n)
{
    if (fs_buf_reserve(b, n) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return FOLDSVG_OK;
}

foldsvg_status fs_buf_puts(fs_buf *b, const char *s)
{
    return fs_buf_append(b, s, strlen(s));
}

foldsvg_status fs_buf_printf(fs_buf *b, const char *fmt, ...)
{
    if (b->failed)
        return FOLDSVG_E_NOMEM;
    va_list ap;
    /* One pass when the text fits in the spare room, which is nearly always. */
    if (b->cap > b->len + 1) {
        va_start(ap, fmt);
        int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return FOLDSVG_OK;
        }
        b->data[b->len] = '\0';
    }
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return FOLDSVG_E_NOMEM;
    }
    if (fs_buf_reserve(b, (size_t)n) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return FOLDSVG_OK;
}
