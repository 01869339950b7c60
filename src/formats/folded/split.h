/* Folded text read in two parts at once, for a sink that sums its lines whatever their order
 * (fs_sink.fork): a second thread reads the second half of a plain file, from a line start,
 * through an input of its own into a part the sink forked off, while the calling thread reads
 * the first half into the sink; the part is then joined as if its lines had come after the
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
#include "formats/sink.h"
#include "input/input.h"

/* How the second half is read on the calling thread when the part cannot stand for it:
 * fs_folded_read's contract. */
typedef foldsvg_status (*fs_folded_part_fn)(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                            foldsvg_error *err);

/* Inputs smaller than this are read in one part: a second thread would not pay. */
#define FS_SPLIT_MIN ((uint64_t)8 << 20)

/* fs_folded_read's contract, IN read in two parts when SINK forks, IN can be split
 * (fs_input_can_split) and holds FS_SPLIT_MIN bytes or more; the second half read again by
 * READ when needed. *RAN is 0 when it was not: nothing was read then. */
foldsvg_status fs_folded_read_split(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                                    fs_folded_part_fn read, int *ran, foldsvg_error *err);

#endif
