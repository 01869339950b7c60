#include "transform/hexstrip.h"

#include <string.h>

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The next "0x" in S[0..n), or NULL. */
static const char *find_0x(const char *s, size_t n)
{
    while (n >= 2) {
        const char *z = memchr(s, '0', n - 1);
        if (!z)
            return NULL;
        if (z[1] == 'x')
            return z;
        n -= (size_t)(z + 1 - s);
        s = z + 1;
    }
    return NULL;
}

int fs_hex_strippable(const char *s, size_t n)
{
    const char *end = s + n;
    for (const char *z; (z = find_0x(s, (size_t)(end - s))) != NULL; s = z + 2)
        if (z + 2 < end && is_hex((unsigned char)z[2]))
            return 1;
    return 0;
}

foldsvg_status fs_hex_strip(fs_buf *out, const char *s, size_t n)
{
    const char *end = s + n;
    const char *z;
    while ((z = find_0x(s, (size_t)(end - s))) != NULL) {
        const char *d = z + 2;
        while (d < end && is_hex((unsigned char)*d))
            d++;
        fs_buf_append(out, s, (size_t)(z + 2 - s));
        if (d > z + 2)
            fs_buf_append(out, "...", 3);
        s = d;
    }
    fs_buf_append(out, s, (size_t)(end - s));
    return fs_buf_status(out);
}
