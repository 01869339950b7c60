/* The Miden rules for frame names coming from structured inputs (Firefox-Profiler JSON, perf
 * script output) and the recording API: ';' becomes ':', newline and carriage return become
 * a space, and Unicode White_Space at either end of a name goes (what the folded reader trims
 * from a line: util/utf8.h). Folded text cannot carry a name's whitespace at the ends of
 * a line (its lines are trimmed, the count's separator takes what precedes it), so a name
 * means the same wherever it stands and folded output reads back to the same profile. A
 * stack whose names are all empty is an empty stack ("[unknown]"). */
#ifndef FOLDSVG_TRANSFORM_SANITIZE_H
#define FOLDSVG_TRANSFORM_SANITIZE_H

#include <stddef.h>

#include "foldsvg.h"
#include "util/buf.h"
#include "util/strref.h"

/* Writes SRC[0..n) sanitized to DST (room for n bytes; DST may equal SRC); returns its
 * length. */
size_t fs_sanitize_name(char *dst, const char *src, size_t n);

/* OUT[0..n) gets IN's names sanitized: those that only lose whitespace at their ends point
 * into IN, those with characters to replace are copied into SCRATCH (emptied first; nearly
 * all names need nothing and stay where they are). *KEPT is N, or 0 when every name is empty
 * (the stack is "[unknown]"). FOLDSVG_E_NOMEM. */
foldsvg_status fs_sanitize_frames(fs_strref *out, const fs_strref *in, size_t n, fs_buf *scratch,
                                  size_t *kept);

/* The name of an empty stack. */
#define FS_UNKNOWN_FRAME "[unknown]"

#endif
