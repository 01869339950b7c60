#include "input/utf16.h"

#include "util/utf8.h"

enum { REPLACEMENT = 0xFFFD };

/* Queues C for the output. */
static void queue(fs_utf16 *d, uint32_t c)
{
    d->pend_len = fs_utf8_put(d->pend, c);
    d->pend_pos = 0;
}

int fs_utf16_pending(const fs_utf16 *d)
{
    return d->pend_pos < d->pend_len;
}

size_t fs_utf16_to_utf8(fs_utf16 *d, const unsigned char *in, size_t n, size_t *used,
                        unsigned char *out, size_t cap, int at_end)
{
    size_t o = 0, i = 0;
    for (;;) {
        while (d->pend_pos < d->pend_len && o < cap)
            out[o++] = d->pend[d->pend_pos++];
        if (o == cap || d->pend_pos < d->pend_len)
            break;
        if (n - i < 2) {
            if (!at_end)
                break;
            /* the end: an odd byte and a lone high surrogate are each one U+FFFD */
            if (i < n) {
                i = n;
                queue(d, REPLACEMENT);
            } else if (d->high) {
                d->high = 0;
                queue(d, REPLACEMENT);
            } else {
                break;
            }
            continue;
        }
        if (!d->high) {
            /* the common case, ASCII: straight through */
            size_t zero = d->big_endian ? 0 : 1;
            while (n - i >= 2 && o < cap && in[i + zero] == 0 && in[i + 1 - zero] < 0x80) {
                out[o++] = in[i + 1 - zero];
                i += 2;
            }
            if (n - i < 2 || o == cap)
                continue;
        }
        uint32_t u =
            d->big_endian ? (uint32_t)in[i] << 8 | in[i + 1] : (uint32_t)in[i + 1] << 8 | in[i];
        if (d->high) {
            uint32_t high = d->high;
            d->high = 0;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                i += 2;
                queue(d, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
            } else {
                queue(d, REPLACEMENT); /* U is read again, on its own */
            }
            continue;
        }
        i += 2;
        if (u >= 0xD800 && u <= 0xDBFF)
            d->high = u;
        else
            queue(d, u >= 0xDC00 && u <= 0xDFFF ? REPLACEMENT : u);
    }
    *used = i;
    return o;
}
