#include "util/utf8.h"

#include <string.h>

size_t fs_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    uint32_t v, min;
    size_t len;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2, v = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, v = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

/* The length of the accepted sequence at S, 0 when it is to be replaced. Printable ASCII,
 * nearly all text, is accepted without a call. */
static size_t accepted(const unsigned char *s, size_t n, fs_utf8_accept_fn accept)
{
    if (s[0] >= 0x20 && s[0] < 0x7f)
        return 1;
    uint32_t cp;
    size_t l = fs_utf8_decode(s, n, &cp);
    return l && (!accept || accept(cp)) ? l : 0;
}

foldsvg_status fs_utf8_clean(fs_buf *out, const char *str, size_t n, fs_utf8_accept_fn accept)
{
    const unsigned char *s = (const unsigned char *)str;
    fs_buf_reserve(out, n);
    size_t i = 0;
    while (i < n) {
        /* Runs of accepted text are copied at once; nearly all text is one run. */
        size_t run = i, l;
        while (run < n && (l = accepted(s + run, n - run, accept)) != 0)
            run += l;
        fs_buf_append(out, s + i, run - i);
        if (run < n) {
            fs_buf_append(out, FS_UTF8_REPLACEMENT, 3);
            run++;
        }
        i = run;
    }
    return fs_buf_append(out, "", 0);
}

size_t fs_utf8_chars(const char *str, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)str[i] & 0xc0) != 0x80)
            k++;
    return k;
}

size_t fs_utf8_prefix(const char *str, size_t n, size_t k)
{
    size_t i = 0;
    while (i < n) {
        if (((unsigned char)str[i] & 0xc0) != 0x80) {
            if (k == 0)
                break;
            k--;
        }
        i++;
    }
    return i;
}

size_t fs_utf8_put(unsigned char *b, uint32_t c)
{
    if (c < 0x80) {
        b[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        b[0] = (unsigned char)(0xC0 | (c >> 6));
        b[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (c >> 12));
        b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | (c >> 18));
    b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    b[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

int fs_utf8_is_space(uint32_t cp)
{
    return (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 || cp == 0xa0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
           cp == 0x205f || cp == 0x3000;
}

/* The bytes of the White_Space code point that starts S (N > 0 bytes), or ends it; 0: none. */
static size_t space_at(const unsigned char *u, size_t n)
{
    uint32_t cp;
    if (u[0] < 0x80)
        return fs_utf8_is_space(u[0]);
    size_t k = fs_utf8_decode(u, n, &cp);
    return k && fs_utf8_is_space(cp) ? k : 0;
}

static size_t space_before(const unsigned char *u, size_t n)
{
    if (u[n - 1] < 0x80)
        return fs_utf8_is_space(u[n - 1]);
    /* the lead byte of the last sequence: at most three continuation bytes back */
    for (size_t k = 2; k <= 4 && k <= n; k++) {
        if ((u[n - k] & 0xc0) != 0x80) {
            uint32_t cp;
            return fs_utf8_decode(u + n - k, k, &cp) == k && fs_utf8_is_space(cp) ? k : 0;
        }
    }
    return 0;
}

size_t fs_utf8_trim_start(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    /* the indentation of most lines, without decoding: spaces eight at a time (DTrace and
     * perf indent every frame line deeply) */
    while (n - i >= 8 && memcmp(u + i, "        ", 8) == 0)
        i += 8;
    while (i < n && (u[i] == ' ' || u[i] == '\t'))
        i++;
    for (size_t k; i < n && (k = space_at(u + i, n - i)); i += k)
        ;
    return i;
}

size_t fs_utf8_trim_end(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n > 0 && u[n - 1] > ' ' && u[n - 1] < 0x80)
        return n; /* most lines */
    for (size_t k; n > 0 && (k = space_before(u, n)); n -= k)
        ;
    return n;
}

/* A code point a terminal acts on: C0 controls, DEL and the C1 controls (CSI is U+009B). */
static int is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

size_t fs_utf8_term_span(const char *str, size_t n, int keep_newline)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        if (s[i] >= 0x20 && s[i] < 0x7f) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t l = fs_utf8_decode(s + i, n - i, &cp);
        if (!l || (is_control(cp) && !(keep_newline && cp == '\n')))
            break;
        i += l;
    }
    return i;
}

foldsvg_status fs_utf8_term_escape(fs_buf *out, const char *s, size_t n, int keep_newline)
{
    size_t i = 0;
    while (i < n) {
        size_t run = fs_utf8_term_span(s + i, n - i, keep_newline);
        fs_buf_append(out, s + i, run);
        i += run;
        if (i < n)
            fs_buf_printf(out, "\\x%02x", (unsigned char)s[i++]);
    }
    return fs_buf_status(out);
}

void fs_utf8_copy(char *dst, size_t size, const char *src)
{
    if (!size)
        return;
    size_t n = strlen(src);
    if (n >= size) {
        n = size - 1;
        size_t k = n; /* the start of the character the cut falls in */
        while (k > 0 && ((unsigned char)src[k] & 0xc0) == 0x80)
            k--;
        uint32_t cp;
        size_t l = fs_utf8_decode((const unsigned char *)src + k, strlen(src + k), &cp);
        if (l && k + l > n)
            n = k;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}
