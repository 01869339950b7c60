/* Where every occurrence of one byte lies in a string. A folded stack has a ';' every 20 or
 * 30 bytes: a memchr call per frame costs more in calls than in scanning, so this looks at 16
 * bytes a step (8 without SSE2) and reads the positions off a bit mask. */
#ifndef FOLDSVG_UTIL_BYTEPOS_H
#define FOLDSVG_UTIL_BYTEPOS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "foldsvg.h"
#include "util/grow.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The positions I < N (plus BASE) of every S[I] == C, in order, into OUT, which has room
 * for N; returns how many. */
static inline size_t fs_byte_positions(const char *s, size_t n, unsigned char c, uint32_t *out,
                                       uint32_t base)
{
    size_t k = 0, i = 0;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8((char)c);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, want));
        while (m) {
            out[k++] = base + (uint32_t)(i + (size_t)__builtin_ctz(m));
            m &= m - 1;
        }
    }
#endif
    for (; i < n; i++)
        if ((unsigned char)s[i] == c)
            out[k++] = base + (uint32_t)i;
    return k;
}

enum { FS_BYTEPOS_PIECE = 1024 };

/* The same appended to the array *OUT (*N used of *CAP), which grows in pieces: with the
 * bytes found, not the bytes looked at. FOLDSVG_E_NOMEM leaves *N as it was. */
static inline foldsvg_status fs_byte_positions_add(const char *s, size_t n, unsigned char c,
                                                   uint32_t base, uint32_t **out, size_t *cap,
                                                   size_t *nout)
{
    size_t had = *nout;
    for (size_t at = 0, piece; at < n; at += piece) {
        piece = n - at < FS_BYTEPOS_PIECE ? n - at : FS_BYTEPOS_PIECE;
        if (*nout + piece > *cap &&
            fs_grow(out, cap, *nout + piece, sizeof **out, FS_BYTEPOS_PIECE) != FOLDSVG_OK) {
            *nout = had;
            return FOLDSVG_E_NOMEM;
        }
        *nout += fs_byte_positions(s + at, piece, c, *out + *nout, base + (uint32_t)at);
    }
    return FOLDSVG_OK;
}

#endif
