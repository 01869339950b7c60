#include "util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fs_buf_free(fs_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int fs_buf_reserve(fs_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        return -1;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *d = realloc(b->data, cap);
    if (!d)
        return -1;
    b->data = d;
    b->cap = cap;
    return 0;
}

int fs_buf_append(fs_buf *b, const void *data, size_t n)
{
    if (fs_buf_reserve(b, n) != 0)
        return -1;
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int fs_buf_puts(fs_buf *b, const char *s)
{
    return fs_buf_append(b, s, strlen(s));
}

int fs_buf_printf(fs_buf *b, const char *fmt, ...)
{
    va_list ap;
    /* One pass when the text fits in the spare room, which is nearly always. */
    if (b->cap > b->len + 1) {
        va_start(ap, fmt);
        int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return 0;
        }
        b->data[b->len] = '\0';
    }
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || fs_buf_reserve(b, (size_t)n) != 0)
        return -1;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}
