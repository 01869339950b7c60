/* The summary (--summary): SP1's profiling guide's report of a profile, computed. The input,
 * the total (per iteration with --per), the top self and inclusive tables (analysis/tables.h;
 * of a diff, its delta tables) and the findings (analysis/findings.h), as text, Markdown or
 * JSON (docs/summary.md documents the JSON); (render/findings_html.h writes
 * them as the HTML report's "What stands out"). */
#ifndef FOLDSVG_ANALYSIS_SUMMARY_H
#define FOLDSVG_ANALYSIS_SUMMARY_H

#include <stdio.h>

#include "analysis/deltatables.h"
#include "analysis/findings.h"
#include "analysis/tables.h"
#include "foldsvg.h"
#include "util/buf.h"

/* What the summary tells about the run beside its tables: its sample rate (RATE units per
 * sample, SP1's cycles; 0 unknown) or interval (INTERVAL_MS; 0 unknown), and the path of a
 * Firefox-Profiler or SP1 trace to open with samply (NULL: none). */
typedef struct fs_summary_facts {
    uint64_t rate;
    double interval_ms;
    const char *samply_path;
} fs_summary_facts;

/* The summary of one profile: INPUT names it ("a.folded, b.folded"), UNIT is the count
 * name, TB the tables (their rows: --top, 5 by default), SF its facts (NULL: none). */
foldsvg_status fs_summary_write(const fs_tables *tb, const fs_findings *f, const char *input,
                                const fs_summary_facts *sf, int format, uint64_t per,
                                const char *unit, FILE *out, foldsvg_error *err);

/* One paragraph of interpretation built from the findings F of a profile (not a diff): where
 * the time goes structurally and the most actionable target, in UNIT, into OUT (check
 * fs_buf_status). Names as they are (text). */
void fs_summary_paragraph(const fs_findings *f, const char *unit, fs_buf *out);

/* The summary of a diff: its delta tables (top TOP rows) and the findings of the change. */
foldsvg_status fs_summary_write_diff(const fs_deltas *d, const fs_delta_sides *sides, size_t top,
                                     const fs_findings *f, int format, const char *unit, FILE *out,
                                     foldsvg_error *err);

/* The findings as the summary writes them after its tables: "What stands out" (of a diff:
 * "What explains the change") in FORMAT's text or Markdown (names shortened to MAX_NAME
 * bytes, 0: whole) to O, or JSON's "findings" key and array to J (when not NULL). */
struct fs_textout;
struct fs_jsonout;
void fs_summary_findings(const fs_findings *f, const char *unit, int format, size_t max_name,
                         struct fs_textout *o, struct fs_jsonout *j);

#endif
