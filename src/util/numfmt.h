/* Number formatting for the SVG hot loop: the same text as printf's "%.Nf" and "%llu"
 * without its cost (printf formats doubles through multi-precision arithmetic). */
#ifndef FOLDSVG_UTIL_NUMFMT_H
#define FOLDSVG_UTIL_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Writes X with DECIMALS (0..6) decimals exactly as snprintf("%.*f") does (correct
 * rounding of the exact binary value, ties to even); returns the length. BUF needs 48
 * bytes. */
size_t fs_fmt_fixed(char *buf, double x, int decimals);
/* Writes N in decimal; returns the length. BUF needs 21 bytes. */
size_t fs_fmt_u64(char *buf, uint64_t n);

/* The count unit UNIT as it reads after the number N in prose: for N == 1 the singular of a
 * known plural unit ("cycles" -> "cycle", "page-faults" -> "page-fault"), else UNIT as it
 * is. Other names (event names with modifiers such as "cycles:u", abbreviations such as
 * "ms") are names, never changed. */
const char *fs_unit_for_count(const char *unit, uint64_t n);
/* The room for a count unit wherever one is kept (as foldsvg_convert_stats.count_name): a
 * perf event's name with its modifiers fits whole; a longer one is cut between characters
 * (fs_utf8_copy). */
enum { FS_UNIT_SIZE = 256 };

/* Formats N with ',' thousands separators into BUF (at least 27 bytes); returns the length. */
size_t fs_format_thousands(uint64_t n, char *buf);

#endif
