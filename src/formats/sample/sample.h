/* macOS `sample` reports (`sample PID -file out.txt`, Activity Monitor's "Sample Process"):
 * the call graph folded as inferno-collapse-sample 0.12.8 folds it.
 *
 * The call graph runs from "Call graph:" to "Total number in stack"; each line of it, after
 * four spaces, is indented two characters (' ', '+', '|', ':', '!') a level and reads
 * "COUNT function  (in module) + offset  [address]". Each leaf is a stack of the thread
 * line and the functions ("module`function", or without the module under --no-modules),
 * weighing the leaf's count; leaves waiting in the kernel (__psynch_cvwait, kevent, read,
 * ...) are left out, and a stack met again takes the later count. A line out of shape is an
 * error naming it. Memory follows the distinct stacks. */
#ifndef FOLDSVG_FORMATS_SAMPLE_SAMPLE_H
#define FOLDSVG_FORMATS_SAMPLE_SAMPLE_H

#include <stddef.h>

#include "formats/reader.h"

/* A line starting "Call graph:" and, after it, one starting "Total number in stack". */
int fs_sample_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_sample_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err);

#endif
