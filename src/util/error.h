/* Filling foldsvg_error: every failure goes through here so messages stay one line. */
#ifndef FOLDSVG_UTIL_ERROR_H
#define FOLDSVG_UTIL_ERROR_H

#include "foldsvg.h"

#if defined(__GNUC__)
#define FS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FS_PRINTF(a, b)
#endif

/* The private stop value: a callback returns it to end a read or a walk early, and the one
 * that asked for the stop (and knows why) turns it back into FOLDSVG_OK or a decision. It
 * lies outside the public enum's range and never leaves the library. */
#define FS_STOP ((foldsvg_status)0x100)

/* One-line propagation (zstd's FORWARD_IF_ERROR): evaluates EXPR, a foldsvg_status, and
 * returns it from the calling function unless it is FOLDSVG_OK. */
#define FS_FORWARD_IF_ERROR(expr)                                                                  \
    do {                                                                                           \
        foldsvg_status fs_forward_ = (expr);                                                       \
        if (fs_forward_ != FOLDSVG_OK)                                                             \
            return fs_forward_;                                                                    \
    } while (0)

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
