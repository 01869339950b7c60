#include "render/xmltext.h"

#include <stdint.h>

/* Decodes one UTF-8 sequence at S (N bytes left). Returns its length and the code point,
 * or 0 when the bytes there are not valid UTF-8 or not an XML Char. */
static size_t decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    uint32_t v;
    size_t len;
    if (c < 0x80) {
        *cp = c;
        return (c >= 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) ? 1 : 0;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        v = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        v = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    /* overlong forms, surrogates, beyond U+10FFFF, and the two non-characters XML
     * excludes */
    if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
        (v >= 0xd800 && v <= 0xdfff) || v == 0xfffe || v == 0xffff)
        return 0;
    *cp = v;
    return len;
}

int fs_xml_is_clean(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        if (s[i] >= 0x20 && s[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t l = decode(s + i, n - i, &cp);
        if (!l)
            return 0;
        i += l;
    }
    return 1;
}

int fs_xml_clean(fs_buf *out, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    static const char replacement[] = "\xef\xbf\xbd";
    if (fs_buf_reserve(out, n) != 0)
        return -1;
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        uint32_t cp;
        size_t l;
        while (run < n && (l = decode(s + run, n - run, &cp)) != 0)
            run += l;
        if (fs_buf_append(out, s + i, run - i) != 0)
            return -1;
        if (run < n) {
            if (fs_buf_append(out, replacement, 3) != 0)
                return -1;
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
