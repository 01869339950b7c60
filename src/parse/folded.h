/* The folded-stack text reader (inferno's line rules, ../shared/docs/inferno-compat.md). */
#ifndef FOLDSVG_PARSE_FOLDED_H
#define FOLDSVG_PARSE_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "parse/input.h"

/* Longest accepted line; longer ones are a clear FOLDSVG_E_LIMIT error rather than an
 * out-of-memory kill. */
#define FS_MAX_LINE ((size_t)1 << 30)

typedef struct fs_folded_line {
    const char *stack; /* not NUL-terminated; never empty */
    size_t len;
    uint64_t count;  /* the (last) count, fraction dropped */
    uint64_t before; /* differential lines: the first count */
    int is_diff;
    uint64_t lineno; /* 1-based, in the current file */
} fs_folded_line;

/* Called per valid line; a non-OK status stops the read and is returned (ERR filled by
 * the callback). */
typedef foldsvg_status (*fs_folded_fn)(void *user, const fs_folded_line *line, foldsvg_error *err);

typedef struct fs_folded_stats {
    uint64_t lines, valid, invalid, first_invalid, fractional, first_fractional;
} fs_folded_stats;

/* Parses one line (without its newline). Returns 1 valid, 0 skipped silently (blank or
 * "# " comment), -1 invalid. *FRACTIONAL is set when a count had a non-zero fraction. */
int fs_folded_parse_line(const char *line, size_t len, fs_folded_line *out, int *fractional);

/* Reads every line of IN. STATS (required) counts what was seen, for the warnings. */
foldsvg_status fs_folded_read(fs_input *in, fs_folded_fn fn, void *user, fs_folded_stats *stats,
                              foldsvg_error *err);

#endif
