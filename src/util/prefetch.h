/* Asking for memory a few steps before it is read: for loops over strings that lie anywhere
 * (a sorted chunk's stacks, in the order of their bytes, not of their addresses). */
#ifndef FOLDSVG_UTIL_PREFETCH_H
#define FOLDSVG_UTIL_PREFETCH_H

#if defined(__GNUC__)
#define FS_PREFETCH(p) __builtin_prefetch(p)
#else
#define FS_PREFETCH(p) ((void)(p))
#endif

#endif
