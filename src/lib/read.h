/* Shared pieces of the readers in src/lib. */
#ifndef FOLDSVG_LIB_READ_H
#define FOLDSVG_LIB_READ_H

#include "foldsvg.h"
#include "parse/folded.h"
#include "parse/input.h"

/* Reads an open input into P (what foldsvg_profile_read_* do after opening it). */
foldsvg_status fs_profile_read_input(foldsvg_profile *p, fs_input *in, const foldsvg_options *o,
                                     foldsvg_error *err);

/* The end-of-input warnings of a folded text: skipped lines, fractional counts. */
void fs_warn_folded_stats(const foldsvg_options *o, const char *name, const fs_folded_stats *s);

/* The error for an input with nothing to draw, naming NAME and, when it had invalid lines
 * (S non-NULL with S->invalid), the first of them. */
foldsvg_status fs_no_data_error(foldsvg_error *err, const char *name, const fs_folded_stats *s);

/* The error for a stack that could not be added (ST: overflow, out of memory...) at LINE
 * of NAME (0: no line). */
foldsvg_status fs_stack_error(foldsvg_error *err, foldsvg_status st, const char *name,
                              uint64_t line);

/* The message of an unsorted line under --no-sort. */
foldsvg_status fs_unsorted_error(foldsvg_error *err, const char *name, uint64_t line,
                                 uint64_t prev_line);

#endif
