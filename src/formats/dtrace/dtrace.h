/* DTrace stack aggregations (`dtrace -n 'profile-997 { @[ustack()] = count(); }'`, and
 * FlameGraph's example): folded as inferno-collapse-dtrace 0.12.8 folds them.
 *
 * The header (up to the first blank line) is skipped; then each stack is its frames, leaf
 * first, one a line ("module`function+0x12"), and a line holding only its count. A frame
 * loses its offset (unless --includeoffset: then only the leaf does), a C++ name its argument
 * list, a Rust name the hash DTrace leaves; Java's inlined "a->b" frames are split and marked
 * _[i]. Read as a stream: memory holds one stack. */
#ifndef FOLDSVG_FORMATS_DTRACE_DTRACE_H
#define FOLDSVG_FORMATS_DTRACE_DTRACE_H

#include <stddef.h>

#include "formats/reader.h"

/* After a blank line, a line with a backtick or a hex address, ..., then a count. */
int fs_dtrace_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_dtrace_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err);

#endif
