/* The first position where two byte strings differ. */
#ifndef FOLDSVG_UTIL_MISMATCH_H
#define FOLDSVG_UTIL_MISMATCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first I < M with A[I] != B[I], or M when A and B agree on their first M bytes.
 * Compares 8 bytes at a time: stacks next to each other in sorted order share hundreds. */
static inline size_t fs_mismatch(const char *a, const char *b, size_t m)
{
    size_t i = 0;
    while (i + 8 <= m) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            break;
        i += 8;
    }
    while (i < m && a[i] == b[i])
        i++;
    return i;
}

#endif
