/* What the readers of other collapsers' inputs share (DTrace, macOS sample, VTune and Visual
 * Studio CSV, GHC .prof, xctrace XML: formats/<name>/): each folds its input as
 * inferno-collapse-<name> 0.12.8 folds it, so they read text the way Rust reads it there:
 *  - lines split at '\n' and decoded as String::from_utf8_lossy decodes them (one U+FFFD per
 *    maximal ill-formed subsequence);
 *  - Unicode White_Space trimmed (util/utf8.h), integers and floats by Rust's FromStr;
 *  - a stack given as the folded line inferno writes ("a;b;c COUNT"), read back by the folded
 *    text rules (sink->line), so that foldsvg reading the input draws what inferno's
 *    collapser piped into a flamegraph would, and its folded output is that collapser's;
 *  - Rust symbols that the profiler demangled only halfway finished as inferno finishes them
 *    (fix_partially_demangled_rust_symbol). */
#ifndef FOLDSVG_FORMATS_COLLAPSE_H
#define FOLDSVG_FORMATS_COLLAPSE_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/sink.h"
#include "input/input.h"
#include "util/buf.h"
#include "util/strmap.h"

/* The options of inferno's other collapsers (rows of stage "input" in src/api/optrow.c). */
typedef struct fs_collapse_opts {
    int includeoffset;                  /* DTrace: frames keep their offsets, but the leaf */
    int no_modules;                     /* macOS sample, VTune: functions without their modules */
    int ghc_time, ghc_ticks, ghc_bytes; /* GHC .prof: the column weighed (default %time) */
} fs_collapse_opts;

/* ---- lines ---------------------------------------------------------------------------- */

typedef struct fs_lines {
    fs_input *in;
    char *buf;
    size_t cap, len, start, scan;
    uint64_t lineno; /* of the line last given */
    int eof;
    fs_buf lossy;
} fs_lines;

void fs_lines_init(fs_lines *l, fs_input *in);
void fs_lines_free(fs_lines *l);
/* The next line of L, without its '\n', decoded lossily (*LINE valid until the next call):
 * *GOT 1, or 0 at the input's end. FOLDSVG_E_LIMIT for a line over 64 MiB, what the input
 * returned, FOLDSVG_E_NOMEM. */
foldsvg_status fs_lines_next(fs_lines *l, const char **line, size_t *len, int *got,
                             foldsvg_error *err);

/* ---- Rust's ways ---------------------------------------------------------------------- */

/* S[0..n) as from_utf8_lossy gives it: S itself when it is well-formed, else a copy in OUT
 * with the replacements. NULL when out of memory. */
const char *fs_lossy(const char *s, size_t *n, fs_buf *out);

/* S[0..n) without White_Space at its ends (str::trim, trim_start, trim_end). */
void fs_rtrim(const char **s, size_t *n);
void fs_rtrim_start(const char **s, size_t *n);
void fs_rtrim_end(const char **s, size_t *n);

/* u64::from_str: an optional '+', then one or more ASCII digits, no overflow. 1 or 0. */
int fs_rust_u64(const char *s, size_t n, uint64_t *v);
/* f64::from_str: an optional sign, then digits with an optional '.' (one digit at least) and
 * exponent, or inf, infinity, nan in any case. 1 or 0. */
int fs_rust_f64(const char *s, size_t n, double *v);
/* `X as u64` for a double: NaN and negatives 0, past the range UINT64_MAX. */
uint64_t fs_rust_as_u64(double d);

/* inferno's fix_partially_demangled_rust_symbol: a symbol ending in "h" and 16 hex digits
 * loses them (and a "::" before them), a leading "_$" its '_', ".." becomes "::" and the
 * escapes $LT$, $u20$ ... are decoded, up to the first it does not know (the rest is kept).
 * 1 with the result in OUT, 0 when SYM is left as it is, -1 when out of memory. */
int fs_rust_fix(const char *sym, size_t n, fs_buf *out);

/* ---- stacks --------------------------------------------------------------------------- */

/* Gives SINK the folded line "STACK COUNT" (STACK as inferno joins it, ';' between frames)
 * as folded text reads it; LINENO names the input line it came from. A line folded text
 * would not take (an empty stack) is left out. SCRATCH is working memory. */
foldsvg_status fs_collapse_emit(fs_sink *sink, const char *stack, size_t len, uint64_t count,
                                uint64_t lineno, fs_buf *scratch, foldsvg_error *err);

/* Stacks and their counts, for collapsers whose stacks must all be known before one is given
 * (inferno's Occurrences: insert replaces a count, insert_or_add adds to it). Memory follows
 * the distinct stacks. */
typedef struct fs_stack_table {
    fs_strmap map; /* owned keys */
    uint64_t *counts;
    uint64_t *lines; /* where each was last set */
    size_t cap;
} fs_stack_table;

void fs_stack_table_init(fs_stack_table *t);
void fs_stack_table_free(fs_stack_table *t);
/* Sets (REPLACE) or adds to the count of STACK. FOLDSVG_E_NOMEM. */
foldsvg_status fs_stack_table_put(fs_stack_table *t, const char *stack, size_t len, uint64_t count,
                                  int replace, uint64_t lineno);
/* Every stack to SINK (fs_collapse_emit), in the order they were first put. */
foldsvg_status fs_stack_table_emit(const fs_stack_table *t, fs_sink *sink, fs_buf *scratch,
                                   foldsvg_error *err);

/* The sink's facts and unit, when it takes them. */
void fs_collapse_facts(fs_sink *sink, const char *format, const char *unit);

#endif
