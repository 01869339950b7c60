/* The hottest functions of a profile by self time (the leaf of each stack) and by inclusive
 * time (every distinct function of a stack, once per stack even when it recurs), and their
 * text, Markdown and JSON forms. Names are the profile's folded (sanitized) names. */
#ifndef FOLDSVG_ANALYSIS_TABLES_H
#define FOLDSVG_ANALYSIS_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate/tree.h"
#include "foldsvg.h"

/* --summary-threshold RULE=PCT (analysis/findings.h): PCT[rule] stands when SET has bit rule;
 * the others keep the rule's default. */
typedef struct fs_thresholds {
    double pct[8];
    unsigned set;
} fs_thresholds;

/* What the report options say (rows of stage "report" in src/api/optrow.c write here). */
typedef struct fs_report_opts {
    size_t top;                     /* rows per table; 0: the caller's default */
    int top_format;                 /* foldsvg_top_format */
    uint64_t per;                   /* --per K: counts divided by K (0 or 1: off) */
    uint64_t per_before, per_after; /* a diff's sides: --per-before, --per-after (0: per) */
    fs_thresholds thresholds;       /* the findings' (--summary, the HTML report) */
} fs_report_opts;

typedef struct fs_top_row {
    const char *name; /* not NUL-terminated; points into the tree (or a copy's arena) */
    size_t len;
    uint64_t count;
} fs_top_row;

typedef struct fs_tables {
    uint64_t total;
    size_t unique;
    fs_top_row *self, *incl;       /* descending count, ties by name bytes */
    size_t nself, nincl;           /* rows kept: at most the limit */
    size_t self_funcs, incl_funcs; /* distinct functions with a non-zero count */
} fs_tables;

/* Fills OUT with the top LIMIT rows of each table (0: all). Rows point into T, which must
 * outlive OUT. FOLDSVG_E_NOMEM. */
foldsvg_status fs_tables_compute(const fs_tree *t, size_t limit, fs_tables *out);
/* The same from the sums fs_tree_function_sums gave (SELF, INCL per name), for a caller that
 * needs them for more (the findings). */
foldsvg_status fs_tables_from_sums(const fs_tree *t, const uint64_t *self, const uint64_t *incl,
                                   size_t limit, fs_tables *out);
void fs_tables_free(fs_tables *tb);

/* Count formatting shared by every writer: COUNT / PER (PER 0 or 1: the count itself) with
 * ',' thousands separators when SEP, two decimals when divided. BUF: at least 48 bytes. */
void fs_tables_format_count(uint64_t count, uint64_t per, int sep, char *buf);
/* WHOLE.CENTS (CENTS up to 100: 100 carries into WHOLE) as fs_tables_format_count writes a
 * divided count. */
void fs_tables_format_cents(uint64_t whole, uint64_t cents, int sep, char *buf);
/* COUNT / PER as a JSON number (fs_tables_format_count without separators). */
struct fs_jsonout;
void fs_tables_json_count(struct fs_jsonout *j, uint64_t count, uint64_t per);
/* COUNT as a percent of TOTAL (0 when TOTAL is 0). */
double fs_tables_percent(uint64_t count, uint64_t total);

/* Writes the tables in FORMAT (foldsvg_top_format). COUNTNAME is the unit ("cycles"). */
foldsvg_status fs_tables_write(const fs_tables *tb, int format, uint64_t per, const char *countname,
                               FILE *out, foldsvg_error *err);

/* The same with H's head and tail around the tables (analysis/textout.h). */
struct fs_text_hook;
foldsvg_status fs_tables_write_hooked(const fs_tables *tb, int format, uint64_t per,
                                      const char *countname, const struct fs_text_hook *h,
                                      FILE *out, foldsvg_error *err);

#endif
