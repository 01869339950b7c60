/* The one pruning rule (--minwidth): a frame narrower than MINWIDTH percent of the total is
 * not drawn. The SVG writer applies it against the final total; the streaming merge
 * (fold/stream.c) against the running total, which only grows, so a frame it drops could
 * never have been drawn. Both compute the limit the same way, so they agree to the bit. */
#ifndef FOLDSVG_FOLD_PRUNE_H
#define FOLDSVG_FOLD_PRUNE_H

#include <stdint.h>

/* The width, in count units, below which frames are pruned at TOTAL (> 0). */
static inline double fs_prune_limit(double minwidth, uint64_t total)
{
    return minwidth / (100.0 / (double)total);
}

/* Whether a frame WIDTH units wide is pruned under LIMIT (fs_prune_limit). */
static inline int fs_pruned(uint64_t width, double limit)
{
    return (double)width < limit;
}

#endif
