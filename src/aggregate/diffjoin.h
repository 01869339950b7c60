/* The two sides of a diff become one differential sequence: BEFORE's and AFTER's stacks, each
 * side in byte order and each stack once, are merge-joined into (stack, before, after) in
 * byte order, every stack of either side once; what inferno-diff-folded writes, sorted. Each
 * side comes through a relay (aggregate/relay.h) from a thread of its own: its reader, the
 * streaming check of its order, or its sorter. Memory: the two relays' buffers. */
#ifndef FOLDSVG_AGGREGATE_DIFFJOIN_H
#define FOLDSVG_AGGREGATE_DIFFJOIN_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/relay.h"
#include "foldsvg.h"

/* inferno-diff-folded's --normalize for one stack: BEFORE scaled by AFTER's total over
 * BEFORE's, in doubles and truncated (`(first as f64 * total2 as f64 / total1 as f64) as
 * usize`: NaN is 0, too large is the largest), when the totals differ; else BEFORE. */
uint64_t fs_diff_normalize(uint64_t before, uint64_t total_before, uint64_t total_after);

/* One stack of the joined sequence: BEFORE 0 when only AFTER has it, AFTER 0 when only
 * BEFORE has it, never both 0. STACK lives for the call. A status other than OK stops the
 * join and is returned. */
typedef foldsvg_status (*fs_diff_fn)(void *user, const char *stack, size_t len, uint64_t before,
                                     uint64_t after);

typedef struct fs_diff_join_stats {
    size_t unique, only_before, only_after; /* joined stacks; those of one side only */
} fs_diff_join_stats;

/* Joins what BEFORE and AFTER emit (counts only; each side's stacks strictly increasing)
 * into FN. Both sides are primed (their first stack taken, or their end seen) before FN is
 * first called, and PRIMED (when not NULL) is called then: what a side's producer set before
 * its first stack (its total, when it read everything first) can be looked at there. The
 * first failure of a side or of FN is returned; the relays are left to the caller. */
foldsvg_status fs_diff_join(fs_relay *before, fs_relay *after, void (*primed)(void *user),
                            fs_diff_fn fn, void *user, fs_diff_join_stats *stats);

#endif
