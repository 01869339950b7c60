/* Thresholds on a diff's numbers (--fail-if) and their verdict: the regression gate of a CI
 * job. A threshold is MEASURE OP LIMIT:
 *
 *   MEASURE  total                the change of the total
 *            self, inclusive      the change of any one function's self or inclusive time
 *                                 (the largest for > and >=, the smallest for < and <=)
 *            self[NAME]           the change of the function NAME (its whole name)
 *            inclusive[NAME]
 *            new                  any function absent before, by its inclusive time after
 *   OP       >  >=  <  <=         the threshold breaks when the measure compares so
 *   LIMIT    [+|-]NUMBER          a count (per iteration when the sides are divided)
 *            [+|-]NUMBER%         a percent of BEFORE's total (per iteration)
 *
 * Every measure is read from the delta tables (analysis/delta.h), so the verdict, the tables
 * and the report agree. A floor (--fail-min-share) leaves out of the function measures (self,
 * inclusive, new) the functions under that share of their side's total on both sides. */
#ifndef FOLDSVG_ANALYSIS_GATE_H
#define FOLDSVG_ANALYSIS_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/delta.h"
#include "foldsvg.h"
#include "util/buf.h"

typedef enum fs_gate_measure {
    FS_GATE_TOTAL,
    FS_GATE_SELF,
    FS_GATE_INCL,
    FS_GATE_NEW
} fs_gate_measure;

typedef enum fs_gate_op { FS_GATE_GT, FS_GATE_GE, FS_GATE_LT, FS_GATE_LE } fs_gate_op;

typedef struct fs_gate_rule {
    fs_gate_measure measure;
    const char *name; /* self[NAME], inclusive[NAME]: points into the expression; else NULL */
    size_t len;
    fs_gate_op op;
    long double limit; /* a count, or a percent when PERCENT */
    int percent;
} fs_gate_rule;

/* Parses EXPR into OUT (names point into EXPR). FOLDSVG_E_USAGE saying what is wrong, for
 * the option OPTION ("fail-if"). */
foldsvg_status fs_gate_parse(const char *expr, const char *option, fs_gate_rule *out,
                             foldsvg_error *err);

/* One threshold measured. */
typedef struct fs_gate_result {
    const char *expr; /* as given */
    fs_gate_rule rule;
    int broken;
    int measured;      /* a function was measured (total: always; self, inclusive and new: one
                          passed the floor; NAME: always, 0 when it is on neither side) */
    fs_delta_row row;  /* what was measured: the totals, or the function's row */
    long double value; /* its change per iteration */
    long double share; /* the change in percent of BEFORE's total (per iteration) */
    double min_share;  /* the floor it was measured with */
} fs_gate_result;

typedef struct fs_gate {
    fs_gate_result *v;
    size_t n, broken;
    double min_share; /* the floor, percent */
} fs_gate;

/* Measures D against the thresholds EXPRS[0..n) (each parsed again) with the floor MIN_SHARE
 * (percent of a side's total). Rows point into D's tree. FOLDSVG_E_USAGE for a bad
 * expression, FOLDSVG_E_NOMEM. */
foldsvg_status fs_gate_eval(const fs_deltas *d, const char *const *exprs, size_t n,
                            double min_share, fs_gate *out, foldsvg_error *err);
void fs_gate_free(fs_gate *g);

/* What R measured, one line in OUT (appended): "memcpy: +7.20% of before's total (+7,200
 * cycles; 800 -> 8,000), 2.20 points over", the excess only when broken; the function's name
 * only WITH_NAME, shortened to NAMES bytes (fs_text_elide; 0: whole). */
foldsvg_status fs_gate_describe(const fs_gate_result *r, const fs_deltas *d, const char *unit,
                                size_t names, int with_name, fs_buf *out);

#endif
