/* The one growable byte buffer (curl's dynbuf): appends never need checking one by one. The
 * first allocation failure makes the buffer "failed" for good (until fs_buf_free): later
 * appends do nothing and report it again, so a writer appends freely and checks once, with
 * fs_buf_status, at the end. While not failed the text is NUL-terminated after DATA[LEN]. */
#ifndef FOLDSVG_UTIL_BUF_H
#define FOLDSVG_UTIL_BUF_H

#include <stddef.h>

#include "foldsvg.h"

typedef struct fs_buf {
    char *data;
    size_t len, cap;
    int failed; /* an append ran out of memory: the contents are incomplete */
} fs_buf;

/* Releases the memory and clears the failure: an empty buffer again. */
void fs_buf_free(fs_buf *b);
/* Each returns FOLDSVG_OK, or FOLDSVG_E_NOMEM when the buffer failed (now or before). */
foldsvg_status fs_buf_reserve(fs_buf *b, size_t extra);
foldsvg_status fs_buf_append(fs_buf *b, const void *data, size_t n);
foldsvg_status fs_buf_puts(fs_buf *b, const char *s);
foldsvg_status fs_buf_printf(fs_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* FOLDSVG_E_NOMEM once any append failed. */
static inline foldsvg_status fs_buf_status(const fs_buf *b)
{
    return b->failed ? FOLDSVG_E_NOMEM : FOLDSVG_OK;
}

/* Empties the buffer, keeping its memory (and a failure: what it held was incomplete). */
static inline void fs_buf_clear(fs_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

/* The text, "" when nothing was ever appended. */
static inline const char *fs_buf_str(const fs_buf *b)
{
    return b->data ? b->data : "";
}

#endif
