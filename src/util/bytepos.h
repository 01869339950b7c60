/* Where every occurrence of one byte lies in a string. A folded stack has a ';' every 20 or
 * 30 bytes: a memchr call per frame costs more in calls than in scanning, so this looks at 64
 * bytes a step (with SSE2; one at a time without) and reads the positions off a bit mask. */
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

/* The bits set in M. */
static inline unsigned fs_popcount64_(uint64_t m)
{
#if defined(__GNUC__) && defined(__POPCNT__)
    return (unsigned)__builtin_popcountll(m);
#else
    m -= (m >> 1) & 0x5555555555555555ULL;
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (unsigned)((m * 0x0101010101010101ULL) >> 56);
#endif
}

/* The positions I < N (plus BASE) of every S[I] == C, in order, into OUT, which has room
 * for N; returns how many. 64 bytes a step: the positions of a step's mask are written 8 at
 * a time without a test each (the ones past its count are written over by the next step's),
 * so a step costs about the same whether it holds 0, 1 or 3 of them. */
static inline size_t fs_byte_positions(const char *s, size_t n, unsigned char c, uint32_t *out,
                                       uint32_t base)
{
    size_t k = 0, i = 0;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8((char)c);
    /* K <= I before a step (at most one position a byte): its 8 writes stay below I + 8 <= N */
    for (; i + 64 <= n; i += 64) {
        const __m128i *p = (const __m128i *)(const void *)(s + i);
        uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p), want));
        uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 1), want));
        uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 2), want));
        uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 3), want));
        uint64_t m = m0 | m1 << 16 | m2 << 32 | m3 << 48;
        unsigned cnt = fs_popcount64_(m);
        uint32_t at = base + (uint32_t)i;
        uint32_t *o = out + k;
        k += cnt;
        for (;;) {
            /* the top bit keeps ctz defined once M is spent; those writes are past the count */
            for (int j = 0; j < 8; j++) {
                o[j] = at + (uint32_t)__builtin_ctzll(m | 0x8000000000000000ULL);
                m &= m - 1;
            }
            if (cnt <= 8)
                break;
            o += 8;
            cnt -= 8;
        }
    }
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

/* The bits J < 64 set where S[I + J] == C, for I + J < LEN (I <= LEN): for a caller that walks
 * the positions of a string 64 bytes at a time without storing them. Reads within S[0..LEN)
 * only: the last bytes of a string of 64 or more come from the 64 that end it, so that no
 * step is shorter. */
static inline uint64_t fs_byte_mask(const char *s, size_t len, size_t i, unsigned char c)
{
    size_t n = len - i;
#if defined(__SSE2__)
    if (n >= 64 || (len >= 64 && n > 0)) {
        const __m128i want = _mm_set1_epi8((char)c);
        const __m128i *p = (const __m128i *)(const void *)(s + (n >= 64 ? i : len - 64));
        uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p), want));
        uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 1), want));
        uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 2), want));
        uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 3), want));
        uint64_t m = m0 | m1 << 16 | m2 << 32 | m3 << 48;
        return n >= 64 ? m : m >> (64 - n);
    }
#endif
    uint64_t m = 0;
    for (size_t j = 0; j < n && j < 64; j++)
        m |= (uint64_t)((unsigned char)s[i + j] == c) << j;
    return m;
}

/* The lowest bit set in M, which is not 0. */
static inline unsigned fs_ctz64(uint64_t m)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(m);
#else
    unsigned k = 0;
    for (; !(m & 1); m >>= 1)
        k++;
    return k;
#endif
}

/* Just past the last S[I] == C with I < N; 0 when there is none. A frame's start seen from
 * inside it: 16 bytes a step backwards. */
static inline size_t fs_byte_after_last(const char *s, size_t n, unsigned char c)
{
    size_t i = n;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8((char)c);
    for (; i >= 16; i -= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i - 16));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, want));
        if (m)
            return i - 16 + (size_t)(32 - __builtin_clz(m));
    }
#endif
    while (i > 0 && (unsigned char)s[i - 1] != c)
        i--;
    return i;
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
