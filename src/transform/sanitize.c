#include "transform/sanitize.h"

#include <string.h>

#include "util/error.h"
#include "util/utf8.h"

/* S[0..*n) without whitespace at either end, as the folded reader trims a line
 * (formats/folded/folded.c): its start, and *N its new length. */
static const char *trim(const char *s, size_t *n)
{
    size_t lead = fs_utf8_trim_start(s, *n);
    *n = fs_utf8_trim_end(s + lead, *n - lead);
    return s + lead;
}

static int needs_replace(const char *s, size_t n)
{
    /* three memchr (vectorized) beat one loop over three tests: names are long (Rust
     * symbols) and a flame chart sanitizes its stacks once per change of stack */
    return n && (memchr(s, ';', n) || memchr(s, '\n', n) || memchr(s, '\r', n));
}

static void replace(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        dst[i] = c == ';' ? ':' : c == '\n' || c == '\r' ? ' ' : c;
    }
}

size_t fs_sanitize_name(char *dst, const char *src, size_t n)
{
    src = trim(src, &n);
    memmove(dst, src, n);
    replace(dst, dst, n);
    return n;
}

foldsvg_status fs_sanitize_frames(fs_strref *out, const fs_strref *in, size_t n, fs_buf *scratch,
                                  size_t *kept)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += in[i].len;
    fs_buf_clear(scratch);
    FS_FORWARD_IF_ERROR(fs_buf_reserve(scratch, total));
    size_t nonempty = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = in[i].len;
        const char *s = trim(in[i].ptr, &len);
        out[i] = (fs_strref){s, len};
        nonempty += len > 0;
        if (needs_replace(s, len)) {
            char *dst = scratch->data + scratch->len;
            replace(dst, s, len);
            scratch->len += len;
            out[i].ptr = dst;
        }
    }
    *kept = nonempty ? n : 0;
    return FOLDSVG_OK;
}
