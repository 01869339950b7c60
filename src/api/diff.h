/* The object behind foldsvg_diff, for the writers of its outputs (api/diffreport.c) and its
 * verdict (api/verdict.c, api/diffdirs.c). */
#ifndef FOLDSVG_API_DIFF_H
#define FOLDSVG_API_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "api/optset.h"
#include "analysis/deltatables.h"
#include "analysis/findings.h"
#include "analysis/gate.h"
#include "analysis/verdict.h"
#include "api/profile.h"
#include "foldsvg.h"
#include "util/error.h"

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

/* What the tables name D's sides, and the unit they speak (O's --countname, else D's). */
fs_delta_sides fs_diff_sides(const foldsvg_diff *d);
const char *fs_diff_unit(const foldsvg_diff *d, const foldsvg_options *o);

/* The summary of D (--diff --summary) made of its parts, by O's options: IN points into
 * the others and into D (api/verdict.c). */
typedef struct fs_diff_parts {
    fs_deltas deltas;
    fs_delta_sides sides;
    fs_findings findings;
    fs_gate gate;
    fs_verdict_in in;
} fs_diff_parts;
foldsvg_status fs_diff_parts_make(const foldsvg_diff *d, const foldsvg_options *o, fs_diff_parts *p,
                                  foldsvg_error *err);
void fs_diff_parts_free(fs_diff_parts *p);
/* D's delta tables, every row, by O's report options (the sides' divisors), from its numbers.
 * FOLDSVG_E_NOMEM. */
foldsvg_status fs_diff_deltas(const foldsvg_diff *d, const foldsvg_options *o,
                              struct fs_deltas *out, foldsvg_error *err);
/* D measured against O's thresholds (api/verdict.c), FN called once per threshold with PAIR. */
foldsvg_status fs_diff_gate_report(const foldsvg_diff *d, const foldsvg_options *o,
                                   const char *pair, foldsvg_threshold_fn fn, void *user,
                                   size_t *broken, foldsvg_error *err);
/* FOLDSVG_E_ARG for no diff, FOLDSVG_E_NO_DATA for one that holds nothing yet. */
foldsvg_status fs_diff_check_data(const foldsvg_diff *d, foldsvg_error *err);

/* FOLDSVG_E_USAGE when a diff cannot be written as FORMAT (a speedscope file: speedscope has
 * no differential profiles), naming OUTPUT. */
static inline foldsvg_status fs_diff_check_format(foldsvg_format format, const char *output,
                                                  foldsvg_error *err)
{
    if (format != FOLDSVG_FORMAT_SPEEDSCOPE)
        return FOLDSVG_OK;
    return fs_error(err, FOLDSVG_E_USAGE, output && strcmp(output, "-") ? output : NULL,
                    "a diff is drawn as SVG, HTML or folded text, not as a speedscope file "
                    "(speedscope has no differential profiles): choose another -o or --format");
}

#endif
