/* Sorting byte strings in byte order (unsigned bytes, a prefix before its extensions), the
 * order of inferno's sorted input lines. */
#ifndef FOLDSVG_AGGREGATE_STRSORT_H
#define FOLDSVG_AGGREGATE_STRSORT_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/mismatch.h"

/* ORDER[0..n) gets the indexes of KEYS/LENS in sorted order. Equal strings keep no
 * particular order. LCP[0..n) gets each one's share with the one before it: the
 * bytes they have in common from the start (0 for the first), which the sort finds on the
 * way (the writer of a sorted run needs them, and would otherwise read those bytes again).
 * FOLDSVG_E_NOMEM when the scratch space cannot be had. */
foldsvg_status fs_strsort(const char *const *keys, const uint32_t *lens, uint32_t *order,
                          uint32_t *lcp, size_t n);

#endif
