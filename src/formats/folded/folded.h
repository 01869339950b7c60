/* The folded-stack text reader (inferno's line rules, docs/inferno-compat.md). */
#ifndef FOLDSVG_FORMATS_FOLDED_FOLDED_H
#define FOLDSVG_FORMATS_FOLDED_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/sink.h"
#include "input/input.h"

/* Longest accepted line; longer ones are a clear FOLDSVG_E_LIMIT error rather than an
 * out-of-memory kill. */
#define FS_MAX_LINE ((size_t)1 << 30)

/* Parses one line (without its newline). Returns 1 valid, 0 skipped silently (blank or
 * "# " comment), -1 invalid. *FRACTIONAL is set when a count had a non-zero fraction. */
int fs_folded_parse_line(const char *line, size_t len, fs_folded_line *out, int *fractional);

/* One line's verdict R (fs_folded_parse_line's) counted in STATS and, when valid, FL given
 * to SINK->line as line LINENO. */
foldsvg_status fs_folded_take(int r, fs_folded_line *fl, int frac, uint64_t lineno, fs_sink *sink,
                              fs_folded_stats *stats, foldsvg_error *err);

/* Reads every line of IN into SINK->line (a non-OK status from it stops the read and is
 * returned, ERR filled by it). STATS (required) counts what was seen, for the warnings;
 * lines are numbered on from its count (a part of the input after another). The next block
 * is read and its lines parsed on the input's pool (input/input.h) while the caller's thread
 * hands the block before to the sink, which is only ever called on the caller's thread, in
 * input order. */
foldsvg_status fs_folded_read(fs_input *in, fs_sink *sink, fs_folded_stats *stats,
                              foldsvg_error *err);

/* The registry's detection (formats/registry.c): folded text is an input whose first line
 * that is neither blank nor a comment is a valid folded line, and most of whose first lines
 * (those the head holds) are; an input without such a line (empty) is folded text too. Its
 * reading is fs_folded_read_input (formats/folded/split.h). */
int fs_folded_detect(const unsigned char *head, size_t len, int complete);

#endif
