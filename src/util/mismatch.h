/* The first position where two byte strings differ, and their byte order. */
#ifndef FOLDSVG_UTIL_MISMATCH_H
#define FOLDSVG_UTIL_MISMATCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first I < M with A[I] != B[I], or M when A and B agree on their first M bytes.
 * Stacks next to each other in sorted order share hundreds of bytes: 32 a step (one branch
 * for two 16-byte compares), then 8, the differing byte of a word read off its XOR. */
static inline size_t fs_mismatch(const char *a, const char *b, size_t m)
{
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 32 <= m; i += 32) {
        __m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + i)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(b + i)));
        __m128i e1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + i + 16)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(b + i + 16)));
        unsigned d = (unsigned)_mm_movemask_epi8(_mm_and_si128(e0, e1));
        if (d != 0xffffu) {
            unsigned d0 = (unsigned)_mm_movemask_epi8(e0) ^ 0xffffu;
            return d0 ? i + (size_t)__builtin_ctz(d0)
                      : i + 16 + (size_t)__builtin_ctz((unsigned)_mm_movemask_epi8(e1) ^ 0xffffu);
        }
    }
#endif
    for (; i + 8 <= m; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            return i + (size_t)__builtin_ctzll(x ^ y) / 8;
#else
            break;
#endif
        }
    }
    while (i < m && a[i] == b[i])
        i++;
    return i;
}

/* memcmp-like comparison of A[0..alen) and B[0..blen) in that order (a prefix sorts before
 * its extensions): the order of inferno's sorted input lines. */
static inline int fs_strcmp_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c)
        return c;
    return (alen > blen) - (alen < blen);
}

#endif
