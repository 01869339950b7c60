#include "render/jsonstr.h"

#include <stdint.h>

#include "util/utf8.h"

static void json_u16(fs_buf *b, unsigned v)
{
    fs_buf_printf(b, "\\u%04x", v & 0xffffu);
}

static int plain(unsigned c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

void fs_json_string(fs_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    fs_buf_puts(b, "\"");
    for (size_t i = 0; i < n;) {
        size_t run = 0;
        while (i + run < n && plain(s[i + run]))
            run++;
        if (run) {
            fs_buf_append(b, (const char *)s + i, run);
            i += run;
            continue;
        }
        unsigned c = s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            fs_buf_append(b, esc, 2);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = fs_utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            cp = 0xfffd;
            len = 1;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            json_u16(b, 0xd800u + (cp >> 10));
            json_u16(b, 0xdc00u + (cp & 0x3ffu));
        } else {
            json_u16(b, cp);
        }
        i += len;
    }
    fs_buf_puts(b, "\"");
}
