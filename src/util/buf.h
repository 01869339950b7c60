/* A growable byte buffer, always NUL-terminated after a successful append. */
#ifndef FOLDSVG_UTIL_BUF_H
#define FOLDSVG_UTIL_BUF_H

#include <stddef.h>

typedef struct fs_buf {
    char *data;
    size_t len, cap;
} fs_buf;

void fs_buf_free(fs_buf *b);
/* Each returns 0, or -1 when out of memory (the buffer is unchanged then). */
int fs_buf_reserve(fs_buf *b, size_t extra);
int fs_buf_append(fs_buf *b, const void *data, size_t n);
int fs_buf_puts(fs_buf *b, const char *s);
int fs_buf_printf(fs_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void fs_buf_clear(fs_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

#endif
