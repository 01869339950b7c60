/* The delta tables of a diff or a differential profile on a stream (api/diffreport.c and
 * api/report.c write --top through these). */
#ifndef FOLDSVG_API_DELTATOP_H
#define FOLDSVG_API_DELTATOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/delta.h"
#include "analysis/deltatables.h"
#include "api/profile.h"
#include "foldsvg.h"

/* A side's divisor: its own option (--per-before, --per-after), else --per. */
uint64_t fs_delta_per(uint64_t side, uint64_t per);
/* Rows per table: --top, else 25. */
size_t fs_delta_top_rows(const foldsvg_options *o);

/* Rows per table of a summary: --top, else 5 (the guide's top five). */
size_t fs_summary_rows(const foldsvg_options *o);

/* The tables of DELTAS for SIDES to OUT, in O's format and rows; UNIT the count name. */
foldsvg_status fs_write_delta_tables(const fs_deltas *deltas, const fs_delta_sides *sides,
                                     const char *unit, const foldsvg_options *o, FILE *out,
                                     foldsvg_error *err);

/* The summary of the change of T (a diff's numbers, BEFORE times SCALE: api/diff.h) to OUT:
 * DELTAS' tables and the findings. */
foldsvg_status fs_write_delta_summary(const fs_tree *t, long double scale, const fs_deltas *deltas,
                                      const fs_delta_sides *sides, const char *unit,
                                      const foldsvg_options *o, FILE *out, foldsvg_error *err);

/* --top (SUMMARY: --summary) of a profile read from differential input (STACK BEFORE AFTER
 * lines): the delta tables of its two columns (api/report.c writes these in place of the
 * plain tables). */
foldsvg_status fs_profile_write_delta_top(const foldsvg_profile *p, FILE *out,
                                          const foldsvg_options *o, int summary,
                                          foldsvg_error *err);

#endif
