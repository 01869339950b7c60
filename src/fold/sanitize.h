/* The Miden rules for frame names coming from structured inputs and the recording API. */
#ifndef FOLDSVG_FOLD_SANITIZE_H
#define FOLDSVG_FOLD_SANITIZE_H

#include <stddef.h>

#include "foldsvg.h"
#include "util/buf.h"
#include "util/strref.h"

/* Copies SRC[0..n) to DST (room for n bytes) with ';' -> ':' and '\n', '\r' -> ' '.
 * Returns 1 when anything changed. DST may equal SRC. */
int fs_sanitize_name(char *dst, const char *src, size_t n);
/* Whether SRC[0..n) needs sanitizing at all (lets callers skip the copy). */
int fs_name_needs_sanitize(const char *src, size_t n);

/* OUT[0..n) gets IN's names, those that need it sanitized into SCRATCH (emptied first;
 * nearly all names need nothing and stay where they are). FOLDSVG_E_NOMEM. */
foldsvg_status fs_sanitize_frames(fs_strref *out, const fs_strref *in, size_t n, fs_buf *scratch);

/* The name of an empty stack. */
#define FS_UNKNOWN_FRAME "[unknown]"

#endif
