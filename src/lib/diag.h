/* The messages about inputs that several entry points give (one wording each). */
#ifndef FOLDSVG_LIB_DIAG_H
#define FOLDSVG_LIB_DIAG_H

#include "foldsvg.h"
#include "parse/sink.h"

/* The end-of-input warnings of a folded text: skipped lines, fractional counts. */
void fs_warn_folded_stats(const foldsvg_options *o, const char *name, const fs_folded_stats *s);

/* The error for an input with nothing to draw, naming NAME and, when it had invalid lines
 * (S non-NULL with S->invalid), the first of them. */
foldsvg_status fs_no_data_error(foldsvg_error *err, const char *name, const fs_folded_stats *s);

/* The error for an input (NAME, may be NULL) whose every stack the filters dropped. */
foldsvg_status fs_filtered_out_error(foldsvg_error *err, const char *name);

/* The error for a sorter whose runs came back out of order (NAME: the input, may be NULL). */
foldsvg_status fs_sorted_runs_error(foldsvg_error *err, const char *name);

/* The error for a stack that could not be added (ST: overflow, out of memory...) at LINE
 * of NAME (0: no line). */
foldsvg_status fs_stack_error(foldsvg_error *err, foldsvg_status st, const char *name,
                              uint64_t line);

#endif
