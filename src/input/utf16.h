/* UTF-16 text (a byte-order mark said so) to UTF-8, as a stream: chunks of any size in,
 * UTF-8 out, nothing lost at chunk edges. Unpaired surrogates become U+FFFD, as does an odd
 * byte at the end. */
#ifndef FOLDSVG_INPUT_UTF16_H
#define FOLDSVG_INPUT_UTF16_H

#include <stddef.h>
#include <stdint.h>

typedef struct fs_utf16 {
    int big_endian;
    uint32_t high;         /* a high surrogate waiting for its pair; 0: none */
    unsigned char pend[4]; /* a character that did not fit the last output */
    size_t pend_len, pend_pos;
} fs_utf16;

/* Converts IN[0..n) into OUT[0..cap): returns the UTF-8 bytes written and sets *USED to the
 * input bytes consumed (an odd last byte is left for the next call). AT_END says that no
 * input follows IN: what is left then becomes U+FFFD. */
size_t fs_utf16_to_utf8(fs_utf16 *d, const unsigned char *in, size_t n, size_t *used,
                        unsigned char *out, size_t cap, int at_end);

/* Whether the decoder still holds output (call again with no input to get it). */
int fs_utf16_pending(const fs_utf16 *d);

#endif
