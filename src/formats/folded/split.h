/* Folded text read in two parts at once, for a sink that sums its lines whatever their order
 * (fs_sink.fork): a task of the input's pool reads the second half of a plain file, from a line
 * start, through an input of its own into a part the sink forked off, while the calling thread
 * reads the first half into the sink; the part is then joined as if its lines had come after the
 * first half's. Each core then does all of the work on its half (reading, line ends, counts,
 * summing) and no line crosses from one core to the other, which a reader thread handing
 * lines to the caller's cannot avoid. Whenever the part cannot stand for its lines (it gave
 * up: too many distinct stacks; its thread failed, and its error might not be the input's
 * first), the calling thread reads the second half itself, so results, messages and
 * warnings are those of one reading from start to end. */
#ifndef FOLDSVG_FORMATS_FOLDED_SPLIT_H
#define FOLDSVG_FORMATS_FOLDED_SPLIT_H

#include <stdint.h>

#include "foldsvg.h"
#include "formats/reader.h"
#include "formats/sink.h"
#include "input/input.h"

/* Inputs smaller than this are read in one part: a second thread would not pay. */
#define FS_SPLIT_MIN ((uint64_t)8 << 20)

/* fs_folded_read's contract, IN read in two parts when SINK forks, IN's pool has a second
 * thread, IN can be split (fs_input_can_split) and holds FS_SPLIT_MIN bytes or more; else in
 * one. */
foldsvg_status fs_folded_read_split(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                    foldsvg_error *err);

/* The registry's reading of folded text (formats/registry.c): every valid line to sink->line
 * (in two halves at once where it can), then the statistics to sink->stats. */
foldsvg_status fs_folded_read_input(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                    foldsvg_error *err);

#endif
