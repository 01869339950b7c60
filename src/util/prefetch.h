/* Asking for memory a few steps before it is read: for loops over strings that lie anywhere
 * (a sorted chunk's stacks, in the order of their bytes, not of their addresses). */
#ifndef FOLDSVG_UTIL_PREFETCH_H
#define FOLDSVG_UTIL_PREFETCH_H

#if defined(__GNUC__)
#define FS_PREFETCH(p) __builtin_prefetch(p)
#else
#define FS_PREFETCH(p) ((void)(p))
#endif

#include <stddef.h>

/* Every cache line of P[0..n), at most the first MAX bytes: a stack is read whole (compared,
 * copied) and a line at a time the misses would come one after the other. */
static inline void fs_prefetch_span(const void *p, size_t n, size_t max)
{
    const char *c = p;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i += 64)
        FS_PREFETCH(c + i);
    if (n)
        FS_PREFETCH(c + n - 1);
}

#endif
