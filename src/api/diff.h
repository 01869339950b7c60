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
    fs_diff_summary side[2];
    int normalized;                         /* "normalize" was set (and the totals differed) */
    size_t unique, only_before, only_after; /* stacks of the join */
};

/* The titles of a diff's graph in O (a copy of the caller's options): "Differential Flame
 * Graph" and a legend saying what its widths and colors are, in UNIT, unless the caller set
 * their own. The texts live in T. Differential folded input keeps inferno's titles: only
 * foldsvg's own diffs (--diff, foldsvg_diff_*) get these. */
typedef struct fs_diff_titles {
    char title[64];
    char legend[192];
} fs_diff_titles;
void fs_diff_set_titles(foldsvg_options *o, const char *unit, fs_diff_titles *t);

#endif
