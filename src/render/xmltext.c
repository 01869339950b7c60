#include "render/xmltext.h"

#include <stdint.h>

#include "util/utf8.h"

/* XML 1.0 Char: tab, newline, carriage return, and everything from U+0020 on but the
 * surrogates (never decoded) and the two non-characters U+FFFE and U+FFFF. */
static int xml_char(uint32_t cp)
{
    if (cp < 0x20)
        return cp == 0x09 || cp == 0x0a || cp == 0x0d;
    return cp != 0xfffe && cp != 0xffff;
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
        size_t l = fs_utf8_decode(s + i, n - i, &cp);
        if (!l || !xml_char(cp))
            return 0;
        i += l;
    }
    return 1;
}

foldsvg_status fs_xml_clean(fs_buf *out, const char *s, size_t n)
{
    return fs_utf8_clean(out, s, n, xml_char);
}
