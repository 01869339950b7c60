/* The merge of the sorter's sorted sources (aggregate/sorter.h): runs in its temporary file
 * and chunks sorted in memory, into one sequence in byte order. */
#ifndef FOLDSVG_AGGREGATE_RUNMERGE_H
#define FOLDSVG_AGGREGATE_RUNMERGE_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/chunk.h"
#include "aggregate/relay.h"
#include "aggregate/runs.h"
#include "foldsvg.h"

/* Sorted entries of a chunk in memory, a source of a merge. */
typedef struct memsrc {
    const chunk *c;
    const uint32_t *order;
    uint32_t base, n;
} memsrc;

/* Where a merge's stacks go: FN takes each, cut short below a count of CUT_BELOW
 * (fs_sorter_finish). */
typedef struct sink {
    fs_sorted_fn fn;
    void *user;
    uint64_t cut_below;
} sink;

/* Merges the NRUN runs RUNS of FILE and the sorted chunks MEM[0..nmem), passing each stack
 * to OUT. A loser tree of the K sources (internal nodes 1..K-1, source i the leaf K + i):
 * each node keeps the source that lost there and the bytes it shares with the one that won.
 * Those of the nodes on the winner's path are shares with the winner itself, and the
 * winner's successor in its source comes with its share with the winner (a run stores it):
 * so a new winner is found by comparing shares, and stacks in sorted order, which share
 * hundreds of bytes, are compared only past them. BUDGET: a chunk's (the runs' windows take
 * at most two of it). */
foldsvg_status fs_runmerge(const fs_runfile *file, const fs_run *runs, size_t nrun, size_t budget,
                           const memsrc *mem, size_t nmem, const sink *out);

#endif
