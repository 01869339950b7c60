/* The sorter's chunks (aggregate/sorter.c): the distinct stacks of a part of the input, their
 * counts summed, sorted in memory, and read in that order when they are written as a run or
 * merged (aggregate/runmerge.c). */
#ifndef FOLDSVG_AGGREGATE_CHUNK_H
#define FOLDSVG_AGGREGATE_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "util/prefetch.h"
#include "util/strmap.h"

typedef struct counts {
    uint64_t count, before;
    int is_diff;
} counts;

enum { PREFETCH = 4 }; /* stacks read ahead (prefetch_ahead) */

/* The distinct stacks of one chunk and their summed counts, by map entry. */
typedef struct chunk {
    fs_strmap map;
    counts *c;
    size_t cap;
    uint64_t lines; /* added since it was last emptied */
    /* sorted (sort_chunk): the entries in order, then each stack's share with the one
     * before it */
    uint32_t *order;  /* kept in memory for the final merge */
    uint32_t *sorted; /* sorted by the thread that filled it, handed over to be written */
} chunk;

/* Before stack ORDER[I] of N is read in order: the stacks lie anywhere in the chunk, filled
 * on another core, and their bytes past the share with the one before are read (copied,
 * compared): the entries of those a few steps ahead are asked for, then those bytes (the
 * first line only, and the misses came one after the other: writing a run took about 1.2x
 * the time). */
static inline void prefetch_ahead(const fs_strmap *m, const uint32_t *order, uint32_t base,
                                  uint32_t i, uint32_t n)
{
    if (i + 4 * PREFETCH < n)
        FS_PREFETCH(&fs_strmap_key_array(m)[base + order[i + 4 * PREFETCH]]);
    if (i + PREFETCH < n) {
        uint32_t f = base + order[i + PREFETCH], from = order[n + i + PREFETCH];
        fs_prefetch_span(fs_strmap_key(m, f) + from, fs_strmap_key_len(m, f) - from, 1024);
    }
}

#endif
