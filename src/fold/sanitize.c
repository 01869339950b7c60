#include "fold/sanitize.h"

#include <string.h>

#include "util/error.h"

int fs_name_needs_sanitize(const char *src, size_t n)
{
    /* three memchr (vectorized) beat one loop over three tests: names are long (Rust
     * symbols) and a flame chart sanitizes its stacks once per change of stack */
    return n && (memchr(src, ';', n) || memchr(src, '\n', n) || memchr(src, '\r', n));
}

int fs_sanitize_name(char *dst, const char *src, size_t n)
{
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == ';') {
            c = ':';
            changed = 1;
        } else if (c == '\n' || c == '\r') {
            c = ' ';
            changed = 1;
        }
        dst[i] = c;
    }
    return changed;
}

foldsvg_status fs_sanitize_frames(fs_strref *out, const fs_strref *in, size_t n, fs_buf *scratch)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += in[i].len;
    fs_buf_clear(scratch);
    FS_FORWARD_IF_ERROR(fs_buf_reserve(scratch, total));
    for (size_t i = 0; i < n; i++) {
        out[i] = in[i];
        if (fs_name_needs_sanitize(in[i].ptr, in[i].len)) {
            char *dst = scratch->data + scratch->len;
            fs_sanitize_name(dst, in[i].ptr, in[i].len);
            scratch->len += in[i].len;
            out[i].ptr = dst;
        }
    }
    return FOLDSVG_OK;
}
