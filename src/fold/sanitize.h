/* The Miden rules for frame names coming from structured inputs and the recording API. */
#ifndef FOLDSVG_FOLD_SANITIZE_H
#define FOLDSVG_FOLD_SANITIZE_H

#include <stddef.h>

/* Copies SRC[0..n) to DST (room for n bytes) with ';' -> ':' and '\n', '\r' -> ' '.
 * Returns 1 when anything changed. DST may equal SRC. */
int fs_sanitize_name(char *dst, const char *src, size_t n);
/* Whether SRC[0..n) needs sanitizing at all (lets callers skip the copy). */
int fs_name_needs_sanitize(const char *src, size_t n);

#define FS_UNKNOWN_FRAME "[unknown]"

#endif
