/* What src/api shares about an option set: the warning path, the defaults and the check of
 * the options about one input format against the inputs read. The set itself is
 * api/optset.h; the table that fills it, api/optrow.c; reading values, api/optvalue.c;
 * checks across options, api/optcheck.c. Nothing below src/api sees this header. */
#ifndef FOLDSVG_API_OPTIONS_H
#define FOLDSVG_API_OPTIONS_H

#include "api/optset.h"
#include "foldsvg.h"

/* Emits a warning through the handler, if any. */
void fs_warn(const foldsvg_options *o, const foldsvg_error *w);

/* Defaults shared by foldsvg_options_new and the NULL-options case. */
const foldsvg_options *fs_default_options(void);

/* What a format's reader is given: the input options, with --flamechart's order and the
 * sort buffer (its default when unset). */
fs_input_opts fs_options_input(const foldsvg_options *o);

/* The options about one input format (--thread, the perf options...) against the inputs
 * read: FORMATS has bit K set when an input of fs_formats[K] was read (0: none was, nothing
 * to check). An option set that applies to none of them is FOLDSVG_E_USAGE naming INPUT (one
 * of the inputs) and WHAT it is (its format's "what"). */
foldsvg_status fs_options_check_inputs(const foldsvg_options *o, unsigned formats,
                                       const char *input, const char *what, foldsvg_error *err);

#endif
