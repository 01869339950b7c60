/* The messages about inputs that several entry points give (one wording each). */
#ifndef FOLDSVG_API_DIAG_H
#define FOLDSVG_API_DIAG_H

#include "foldsvg.h"
#include "formats/sink.h"
#include "transform/pipeline.h"

/* The end-of-input warnings of a folded text: skipped lines, fractional counts. */
void fs_warn_folded_stats(const foldsvg_options *o, const char *name, const fs_folded_stats *s);

/* The error for inputs with nothing to draw. When options of O dropped stacks (D), it names
 * them, how many stacks each dropped and the input D names; else NAME and what it held: S,
 * the line statistics of folded text (NULL for a profile), naming the first invalid line. */
foldsvg_status fs_no_data_error(foldsvg_error *err, const char *name, const fs_folded_stats *s,
                                const fs_drops *d, const foldsvg_options *o);

/* Fills D->what (steps not already named) with how O spells each step's option, for a run
 * that draws with other options (api/facts.h). */
void fs_drops_name_steps(fs_drops *d, const foldsvg_options *o);

/* Whether nothing to draw is no error when the output is folded text: the input was empty
 * (no line at all; S, its line statistics, NULL for a profile) and no option dropped a stack
 * (D). Folded text of an empty input is empty, as inferno's collapsers write it, so that a
 * pipeline of nothing stays quiet; every other input without a stack to draw is an error for
 * every output: a profile without samples, only comments, invalid or zero-count lines. */
int fs_no_data_is_empty(const fs_folded_stats *s, const fs_drops *d);

/* The error for the profile P with nothing to draw (its total is 0) in FORMAT, by the rule
 * above; FOLDSVG_OK when fs_no_data_is_empty. */
foldsvg_status fs_profile_no_data(const foldsvg_profile *p, foldsvg_format format,
                                  const foldsvg_options *o, foldsvg_error *err);

/* The options about input formats against the inputs read into P
 * (fs_options_check_inputs). */
foldsvg_status fs_profile_check_inputs(const foldsvg_profile *p, const foldsvg_options *o,
                                       foldsvg_error *err);

/* The error for a sorter whose runs came back out of order (NAME: the input, may be NULL). */
foldsvg_status fs_sorted_runs_error(foldsvg_error *err, const char *name);

/* The error for a stack that could not be added (ST: overflow, out of memory...) at LINE
 * of NAME (0: no line). */
foldsvg_status fs_stack_error(foldsvg_error *err, foldsvg_status st, const char *name,
                              uint64_t line);

#endif
