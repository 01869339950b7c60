/* GHC's profiling reports (`+RTS -p` writes PROGRAM.prof; -P adds ticks and bytes): the cost
 * centre tree folded as inferno-collapse-ghcprof 0.12.8 folds it.
 *
 * The tree starts after its header ("COST CENTRE MODULE SRC no. entries %time %alloc %time
 * %alloc", ticks and bytes after them with -P) and a line, and ends at a blank line. Each
 * line is a cost centre, indented one space a level; it is a stack of "MODULE.NAME" frames
 * weighing its individual cost: %time in tenths of a percent (--time, the default), ticks
 * (--ticks) or bytes allocated (--bytes). Equal stacks (from other threads) are summed. A
 * line out of shape is an error naming it. Read as a stream: memory holds one stack. */
#ifndef FOLDSVG_FORMATS_GHCPROF_GHCPROF_H
#define FOLDSVG_FORMATS_GHCPROF_GHCPROF_H

#include <stddef.h>

#include "formats/reader.h"

/* A line whose first ten words are the header's. */
int fs_ghcprof_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_ghcprof_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                               foldsvg_error *err);

#endif
