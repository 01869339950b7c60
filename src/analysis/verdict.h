/* The summary of a diff as a pull request carries it (--diff --summary): the verdict first
 * (passed or failed by the thresholds, analysis/gate.h, with the totals and their change),
 * the thresholds with what they measured, the delta tables (analysis/deltatables.h), the
 * functions new in AFTER and gone from BEFORE, and the findings of the change
 * (analysis/findings.h); as text, Markdown or JSON. Markdown keeps within a size (GitHub's
 * comment limit) whatever the input: rows, names and sections are cut down, in that order,
 * until it fits, and the report says so. */
#ifndef FOLDSVG_ANALYSIS_VERDICT_H
#define FOLDSVG_ANALYSIS_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/deltatables.h"
#include "analysis/findings.h"
#include "analysis/gate.h"
#include "foldsvg.h"

/* GitHub's limit on a comment is 65,536 characters; a byte is at most a character. */
#define FS_COMMENT_LIMIT 65000

typedef struct fs_verdict_in {
    const fs_deltas *d;
    const fs_delta_sides *sides;
    const fs_findings *f;
    const fs_gate *gate; /* NULL or none: no thresholds were set */
    size_t top;          /* rows per table (and of new and gone functions) */
    int format;          /* foldsvg_top_format */
    const char *unit;
} fs_verdict_in;

/* Writes IN's summary to OUT; Markdown within LIMIT bytes (0: no limit). */
foldsvg_status fs_verdict_write(const fs_verdict_in *in, size_t limit, FILE *out,
                                foldsvg_error *err);

/* The same JSON object as a value of J (inside a caller's document). */
struct fs_jsonout;
void fs_verdict_json(const fs_verdict_in *in, struct fs_jsonout *j);

/* The verdict of G as a word: "failed" (a threshold broke), "passed" or "none" (no
 * thresholds). */
const char *fs_verdict_word(const fs_gate *g);

#endif
