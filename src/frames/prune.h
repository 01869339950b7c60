/* The one pruning rule (--minwidth): a frame narrower than MINWIDTH percent of the total is
 * not drawn. The SVG writer applies it against the final total; the streaming merge
 * (frames/stream.c) against the running total, which only grows, so a frame it drops could
 * never have been drawn. Both compute the limit the same way, so they agree to the bit. */
#ifndef FOLDSVG_FRAMES_PRUNE_H
#define FOLDSVG_FRAMES_PRUNE_H

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

/* The least count not pruned at TOTAL, when MINWIDTH prunes anything: frames of fewer
 * counts are never drawn (0 when nothing is pruned, UINT64_MAX when every frame is). */
static inline uint64_t fs_prune_least_kept(double minwidth, uint64_t total)
{
    double limit = total ? fs_prune_limit(minwidth, total) : 0;
    if (!(limit > 0))
        return 0;
    if (limit >= 18446744073709549568.0) /* the largest double below 2^64 */
        return UINT64_MAX;
    uint64_t c = (uint64_t)limit; /* no more than LIMIT: the least count not pruned is C or C+1 */
    while (fs_pruned(c, limit))
        c++;
    return c;
}

#endif
