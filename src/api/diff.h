/* The object behind foldsvg_diff, for the writers of its outputs (api/diffreport.c). */
#ifndef FOLDSVG_API_DIFF_H
#define FOLDSVG_API_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "api/optset.h"
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
/* (inline: the diff's SVG route and its report both use it, and one calls the other) */
static inline void fs_diff_set_titles(foldsvg_options *o, const char *unit, fs_diff_titles *t)
{
    if (!o->svg.title) {
        snprintf(t->title, sizeof t->title, "Differential %s",
                 o->svg.inverted ? "Icicle Graph" : "Flame Graph");
        o->svg.title = t->title;
    }
    if (!o->svg.subtitle) {
        const char *grew = o->svg.negate ? "blue" : "red", *shrank = o->svg.negate ? "red" : "blue";
        if (o->svg.colordiffusion)
            snprintf(t->legend, sizeof t->legend, "widths: AFTER's %.40s; colors: share of AFTER",
                     unit);
        else
            snprintf(t->legend, sizeof t->legend,
                     "widths: AFTER's %.40s; %s: self %.40s grew, %s: shrank (AFTER - BEFORE)",
                     unit, grew, unit, shrank);
        o->svg.subtitle = t->legend;
    }
}

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
