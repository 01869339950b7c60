/* Writing text tables to a stream: sticky failures (write freely, look once at the end),
 * Markdown code spans that survive any name, and a yajl generator over the same stream. The
 * --top tables (analysis/tables.c) and the delta tables of a diff (analysis/deltatables.c) are
 * written with these. */
#ifndef FOLDSVG_ANALYSIS_TEXTOUT_H
#define FOLDSVG_ANALYSIS_TEXTOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>

#include "foldsvg.h"
#include "util/buf.h"
#include "util/error.h"

typedef struct fs_textout {
    FILE *f;
    int failed; /* a write failed: nothing more is written */
    int errnum; /* why */
} fs_textout;

void fs_text_put(fs_textout *o, const char *s, size_t n);
void fs_text_puts(fs_textout *o, const char *s);
void fs_text_printf(fs_textout *o, const char *fmt, ...) FS_PRINTF(2, 3);
/* Flushes the stream; FOLDSVG_E_IO "write failed: REASON" (no file: the caller knows which)
 * when that or any write before failed. */
foldsvg_status fs_text_finish(fs_textout *o, foldsvg_error *err);
/* A Markdown code span holding S[0..n) (a backtick fence longer than any run inside, '|'
 * escaped for GitHub's table cells). */
void fs_text_md_code(fs_textout *o, const char *s, size_t n);
/* The same outside a table ('|' as it is: a backslash would show in a code span). */
void fs_text_md_code_inline(fs_textout *o, const char *s, size_t n);
/* S[0..n) appended to OUT, shortened to about MAX bytes (0: as it is) by leaving out its
 * middle ("start…end", cut between whole UTF-8 characters), so that a name fits a table
 * cell and a report its size limit. FOLDSVG_E_NOMEM. */
foldsvg_status fs_text_elide(const char *s, size_t n, size_t max, fs_buf *out);

/* A yajl generator that remembers its first failure, so the writers call it freely and
 * look once at the end. */
typedef struct fs_jsonout {
    yajl_gen g;
    int failed;
    fs_buf scratch; /* names made valid UTF-8 (yajl escapes the rest) */
} fs_jsonout;

/* A beautified generator ("  " indents) printing to O. FOLDSVG_E_NOMEM. */
foldsvg_status fs_json_begin(fs_jsonout *j, fs_textout *o);
/* Frees the generator; FOLDSVG_E_NOMEM when something failed on the way. */
foldsvg_status fs_json_end(fs_jsonout *j);
void fs_json_check(fs_jsonout *j, yajl_gen_status st);
void fs_json_str(fs_jsonout *j, const char *s, size_t n);
void fs_json_key(fs_jsonout *j, const char *k);
void fs_json_num(fs_jsonout *j, const char *num, size_t n);
void fs_json_u64(fs_jsonout *j, uint64_t v);
/* A number with at most four decimals, trailing zeros dropped ("12.5", "3"). */
void fs_json_real(fs_jsonout *j, double v);
/* A frame name, made valid UTF-8 first. */
void fs_json_name(fs_jsonout *j, const char *s, size_t n);

/* What a caller writes around a set of tables (the summary: its input line, its findings):
 * HEAD before them and TAIL after them, in the tables' format; J is the JSON generator (keys
 * go inside the tables' object) or NULL for text and Markdown. */
typedef struct fs_text_hook {
    void (*head)(void *user, fs_textout *o, fs_jsonout *j);
    void (*tail)(void *user, fs_textout *o, fs_jsonout *j);
    void *user;
    size_t max_name; /* Markdown: the tables' names shortened to this (fs_text_elide; 0: not) */
} fs_text_hook;

#endif
