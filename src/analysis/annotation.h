/* inferno's frame annotations: a name may end in _[k] (kernel), _[w] (waker), _[i] (inlined)
 * or _[j] (JIT). They choose colors (render/colors.c) but are not part of the name that the
 * flamegraph shows and searches, nor of the report's links to it. */
#ifndef FOLDSVG_ANALYSIS_ANNOTATION_H
#define FOLDSVG_ANALYSIS_ANNOTATION_H

#include <stddef.h>

/* The length of NAME[0..n) without its annotation. */
static inline size_t fs_deannotated_len(const char *s, size_t n)
{
    if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
        (s[n - 2] == 'k' || s[n - 2] == 'w' || s[n - 2] == 'i' || s[n - 2] == 'j'))
        return n - 4;
    return n;
}

#endif
