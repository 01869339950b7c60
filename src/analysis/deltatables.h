/* The delta tables of a diff (analysis/delta.h) as text, Markdown (for a pull request comment or
 * $GITHUB_STEP_SUMMARY) and JSON; the HTML report (render/diffreport.c) formats its cells
 * with the same functions. */
#ifndef FOLDSVG_ANALYSIS_DELTATABLES_H
#define FOLDSVG_ANALYSIS_DELTATABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/delta.h"
#include "foldsvg.h"

/* The two inputs, for the heading lines. */
typedef struct fs_delta_sides {
    const char *name[2];            /* BEFORE's and AFTER's input */
    uint64_t total[2];              /* as read, before normalization */
    size_t unique[2];               /* their distinct stacks */
    size_t only_before, only_after; /* stacks of one side only */
    int normalized;                 /* BEFORE's counts were scaled to AFTER's total */
} fs_delta_sides;

/* The cells, with ',' separators when SEP (BUF: at least 64 bytes). A side's count per
 * iteration; the signed delta ("+1,200", "-3.50", "0"); the change in percent of BEFORE
 * ("+12.50%", or "new" when BEFORE is 0). */
void fs_delta_format_count(uint64_t count, uint64_t per, int sep, char *buf);
/* R's BEFORE as it is compared (scaled: two decimals). */
void fs_delta_format_before(const fs_delta_row *r, uint64_t per_before, int sep, char *buf);
void fs_delta_format_delta(const fs_delta_row *r, uint64_t per_before, uint64_t per_after, int sep,
                           char *buf);
void fs_delta_format_change(const fs_delta_row *r, uint64_t per_before, char *buf);
/* The delta as a JSON number: exact when both sides are divided alike. */
struct fs_jsonout;
void fs_delta_json(struct fs_jsonout *j, const fs_delta_row *r, uint64_t per_before,
                   uint64_t per_after);
/* R's BEFORE as a JSON number, as fs_delta_format_before writes it. */
void fs_delta_json_before(struct fs_jsonout *j, const fs_delta_row *r, uint64_t per_before);

/* A row's four cells as the tables show them (with separators). */
typedef struct fs_delta_cells {
    char before[64], after[64], delta[64], change[64];
} fs_delta_cells;
void fs_delta_format_row(const fs_delta_row *r, const fs_deltas *d, fs_delta_cells *out);

/* The totals as a row (no name). */
fs_delta_row fs_delta_totals(const fs_deltas *d);

/* Writes the heading lines and the top TOP rows (0: all) of each table in FORMAT
 * (foldsvg_top_format). COUNTNAME is the unit. */
foldsvg_status fs_deltas_write(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                               int format, const char *countname, FILE *out, foldsvg_error *err);

/* The same with H's head and tail around the tables (analysis/textout.h). */
struct fs_text_hook;
foldsvg_status fs_deltas_write_hooked(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                                      int format, const char *countname,
                                      const struct fs_text_hook *h, FILE *out, foldsvg_error *err);

/* The JSON object of the tables (and H's keys) as a value of J, which O's text hooks get. */
struct fs_textout;
void fs_deltas_json(struct fs_jsonout *j, struct fs_textout *o, const fs_deltas *d,
                    const fs_delta_sides *s, size_t top, const char *unit,
                    const struct fs_text_hook *h);

#endif
