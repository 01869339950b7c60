/* Instruments' Time Profiler tables as `xctrace export` writes them (`xctrace export --input
 * X.trace --xpath '/trace-toc/run[@number="1"]/data/table[@schema="time-profile"]'`): folded
 * as inferno-collapse-xctrace 0.12.8 folds them.
 *
 * The XML is read as a stream with libxml2's reader (xmlTextReader). Each <row> of a <node>
 * under <trace-query-result> is one sample of its <backtrace> (frames leaf first; a backtrace
 * or frame given before is referred to by ref="ID"), weighing 1; the frames' names finish
 * their Rust demangling. A reference to an unknown id, an id given twice, a tag out of place
 * or XML that is not well formed is an error. Memory follows the distinct frames and
 * backtraces. */
#ifndef FOLDSVG_FORMATS_XCTRACE_XCTRACE_H
#define FOLDSVG_FORMATS_XCTRACE_XCTRACE_H

#include <stddef.h>

#include "formats/reader.h"

/* An XML declaration and a <trace-query-result> element. */
int fs_xctrace_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_xctrace_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                               foldsvg_error *err);

#endif
