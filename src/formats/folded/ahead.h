/* Folded text read ahead on a second thread: that thread reads the input (undoing gzip),
 * finds the line boundaries and parses each line's counts while the calling thread hands
 * the lines to the sink, so reading and merging run on two cores. The sink is only ever
 * called on the calling thread, in input order, as fs_folded_read calls it. */
#ifndef FOLDSVG_FORMATS_FOLDED_AHEAD_H
#define FOLDSVG_FORMATS_FOLDED_AHEAD_H

#include <stddef.h>

#include "foldsvg.h"
#include "formats/reader.h"
#include "formats/sink.h"
#include "input/input.h"

/* fs_folded_read's contract, with blocks of BLOCK bytes (they grow for a longer line). The
 * reader thread's errors (a failed read, a corrupt gzip stream, a line too long) are
 * returned after every line before them went to the sink. *RAN is 0 when no thread could be
 * started: nothing was read then. */
foldsvg_status fs_folded_read_ahead(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                    size_t block, int *ran, foldsvg_error *err);

/* The registry's entry point (formats/registry.c): every valid line to sink->line, then the
 * statistics to sink->stats; in two halves at once when the sink forks and the input can be
 * split (formats/folded/split.h), else read ahead on a second thread unless the input is one
 * block anyway. */
foldsvg_status fs_folded_read_input(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                    foldsvg_error *err);

#endif
