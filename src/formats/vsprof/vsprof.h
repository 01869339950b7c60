/* Visual Studio's profiler call trees as CSV (the "CallTreeSummary" report, as VSPerfReport
 * /summary:calltree writes it): folded as inferno-collapse-vsprof 0.12.8 folds them.
 *
 * After the header "Level,Function Name,Number of Calls,...", each line is a function at its
 * level with its number of calls ("1,234" quoted past 999). A leaf is a stack weighing its
 * calls; a caller weighs the calls its callees do not account for. A stack met again takes
 * the later weight. A line out of shape is an error naming it. Memory follows the distinct
 * stacks. */
#ifndef FOLDSVG_FORMATS_VSPROF_VSPROF_H
#define FOLDSVG_FORMATS_VSPROF_VSPROF_H

#include <stddef.h>

#include "formats/reader.h"

/* The first line is the header (after a byte-order mark). */
int fs_vsprof_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_vsprof_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err);

#endif
