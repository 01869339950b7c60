/* Filling foldsvg_error: every failure goes through here so messages stay one line. */
#ifndef FOLDSVG_UTIL_ERROR_H
#define FOLDSVG_UTIL_ERROR_H

#include "foldsvg.h"

#if defined(__GNUC__)
#define FS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FS_PRINTF(a, b)
#endif

/* Clears *err (when non-NULL). */
void fs_error_clear(foldsvg_error *err);
/* Sets code, file (may be NULL) and a printf-style message; line/column/offset are left 0.
 * Control characters in the message become spaces so the message stays one line.
 * Returns CODE, so callers can `return fs_error(...)`. */
foldsvg_status fs_error(foldsvg_error *err, foldsvg_status code, const char *file, const char *fmt,
                        ...) FS_PRINTF(4, 5);
/* The same with a line (and column, 0 if unknown). */
foldsvg_status fs_error_at_line(foldsvg_error *err, foldsvg_status code, const char *file,
                                uint64_t line, uint64_t column, const char *fmt, ...)
    FS_PRINTF(6, 7);
/* The same with a byte offset. */
foldsvg_status fs_error_at_offset(foldsvg_error *err, foldsvg_status code, const char *file,
                                  uint64_t offset, const char *fmt, ...) FS_PRINTF(5, 6);

#endif
