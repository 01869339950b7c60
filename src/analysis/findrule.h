/* One row of the findings' rule table: findings.c holds the table and finds with it,
 * findingwords.c says what a finding found. */
#ifndef FOLDSVG_ANALYSIS_FINDRULE_H
#define FOLDSVG_ANALYSIS_FINDRULE_H

#include <stddef.h>

/* One row of the table. Shares are percents of the total (a diff's: of BEFORE's total), so
 * the defaults hold for any unit and size; RATIOS are percents of the finding's own value. */
enum { G_NONE, G_SELF, G_INCL };

typedef struct rule_row {
    int rule;
    double threshold;          /* the rule's default threshold (--summary-threshold RULE=PCT) */
    const char *match;         /* the names the rule looks at (NULL: every function) */
    const char *unless;        /* names it leaves alone although MATCH matches */
    const char *hint;          /* '|'-separated words (caseless) a name must hold for MATCH to be
                                  tried: most names are never matched */
    int gate;                  /* G_SELF, G_INCL: names under the threshold are not tried */
    const char *family;        /* software-fallback: what is computed, in words */
    const char *syscall;       /* software-fallback: the precompiles that compute it */
    const char *syscall_shown; /* ... as the wording names them */
    double self_max;           /* callees: self time below this share */
    double related_min;        /* a callee is named when it holds this ratio of the function */
    double related_cover;      /* memory-copy: callers named until they hold this ratio */
    double pass_through;       /* callees: a function whose heaviest callee, itself a candidate,
                                  holds this ratio is a level of the callee's chain: the
                                  deepest level speaks for the chain */
    double spine;              /* bottleneck, setup: a function holding this share or more
                                  (inclusive) is on the program's root path (main, a
                                  runtime's entry): no advice */
    size_t max;                /* findings of the rule at most */
    int general;               /* yields to a finding of another rule on the same function */
    const char *say;           /* the wording of a finding, and of a change (a diff) */
    const char *say_change;
} rule_row;

#endif
