/* The object behind foldsvg_diff, for the writers of its outputs (api/diffreport.c). */
#ifndef FOLDSVG_API_DIFF_H
#define FOLDSVG_API_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "api/profile.h"
#include "foldsvg.h"

/* What a side was, for reports. */
typedef struct fs_diff_summary {
    char name[1024];
    uint64_t total; /* as read, before normalization */
    size_t unique;
    fs_profile_facts facts;
} fs_diff_summary;

struct foldsvg_diff {
    foldsvg_profile *p; /* the differential profile (BEFORE normalized); its count name is
                           the sides' unit (AFTER's when they differ) */
    /* When NORMALIZED: every stack of the join with BEFORE as read (those normalization
     * takes to 0 0 too), and BEFORE's scale, total(AFTER) / total(BEFORE). P draws what
     * inferno draws, each stack's BEFORE scaled and truncated; the tables, findings and
     * thresholds sum RAW's counts and scale the sums, so that no stack rounds away. */
    foldsvg_profile *raw;
    long double scale;
    fs_diff_summary side[2];
    int normalized;                         /* "normalize" was set (and the totals differed) */
    size_t unique, only_before, only_after; /* stacks of the join */
};

/* The tree that D's numbers (tables, findings, thresholds) are summed from, and BEFORE's
 * scale there (*SCALE: 0 when BEFORE is as read). */
static inline const fs_tree *fs_diff_numbers(const foldsvg_diff *d, long double *scale)
{
    *scale = d->raw ? d->scale : 0;
    return d->raw ? &d->raw->tree : &d->p->tree;
}

#endif
