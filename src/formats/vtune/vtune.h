/* Intel VTune top-down call trees as CSV (`vtune -report top-down -call-stack-mode all
 * -column="CPU Time:Self,Module" -report-out out.csv -format csv -csv-delimiter comma`):
 * folded as inferno-collapse-vtune 0.12.8 folds them.
 *
 * After the header "Function Stack,CPU Time:Self,Module", each line is a function, indented
 * one space a level (quoted when its name holds a comma), its own CPU time in seconds and its
 * module. Each function with time of its own is a stack ("module`function", or without the
 * module under --no-modules) weighing that time in whole milliseconds; a stack met again
 * takes the later time. A line out of shape is an error naming it. Memory follows the
 * distinct stacks. */
#ifndef FOLDSVG_FORMATS_VTUNE_VTUNE_H
#define FOLDSVG_FORMATS_VTUNE_VTUNE_H

#include <stddef.h>

#include "formats/reader.h"

/* A line starting with the header. */
int fs_vtune_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_vtune_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                             foldsvg_error *err);

#endif
