/* Findings: what stands out in a profile, computed by rules that are data (one table in
 * findings.c: an id, what the rule measures, its thresholds, PCRE2 name patterns and its
 * wording), as SP1's profiling guide reads a profile: cost in callees, bottlenecks, memory
 * copies, precompiles, hashing or curve code computed in software, setup churn. Applied to a
 * differential tree, the same rules explain the change (AFTER - BEFORE, per iteration).
 * Cost: a pass over the names per pattern, one walk of the tree, a sort of at most a few
 * entries per node: linear in the distinct stacks (and names). */
#ifndef FOLDSVG_ANALYSIS_FINDINGS_H
#define FOLDSVG_ANALYSIS_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/tree.h"
#include "analysis/tables.h"
#include "foldsvg.h"
#include "util/arena.h"
#include "util/buf.h"

/* The rules, in the order findings are listed (and their ids in fs_rule_ids). */
enum {
    FS_RULE_CALLEES,
    FS_RULE_BOTTLENECK,
    FS_RULE_MEMORY_COPY,
    FS_RULE_PRECOMPILE,
    FS_RULE_SOFTWARE_FALLBACK,
    FS_RULE_SETUP,
    FS_RULE_COUNT
};

/* "callees", "bottleneck", ..., NULL: the values of --summary-threshold RULE=PCT. */
extern const char *const fs_rule_ids[];
/* Each rule's threshold (a percent of the total) unless --summary-threshold sets it. */
double fs_rule_threshold(const fs_thresholds *th, int rule);

/* A function (or a caller, callee, syscall a finding names) and its two counts: BEFORE is 0
 * outside a diff. Names point into the findings' arena. */
typedef struct fs_finding_item {
    const char *name;
    size_t len;
    uint64_t before, after;
} fs_finding_item;

enum { FS_FINDING_RELATED = 3 };

typedef struct fs_finding {
    int rule;             /* FS_RULE_* */
    const void *row;      /* the rule's row (its wording) */
    fs_finding_item fn;   /* the function, with the rule's measure (self or inclusive) */
    fs_finding_item self; /* its self time (callees, precompile) */
    fs_finding_item base; /* precompile: the time of its callers at the call sites */
    int flagged;          /* precompile: its self time is large next to that */
    fs_finding_item related[FS_FINDING_RELATED];
    size_t nrelated;
} fs_finding;

typedef struct fs_findings {
    int diff; /* the values are changes: AFTER / PER_AFTER - BEFORE / PER_BEFORE */
    uint64_t total_before, total_after;
    uint64_t per_before, per_after; /* 1: not divided */
    long double scale;              /* BEFORE's counts times this (--normalize); 0: 1 */
    fs_finding *v;
    size_t n;
    fs_arena names;
} fs_findings;

/* The findings of T (DIFF: of its change, BEFORE being t->before) with thresholds TH. Names
 * are copied: T may go. FOLDSVG_E_NOMEM. */
foldsvg_status fs_findings_compute(const fs_tree *t, int diff, uint64_t per_before,
                                   uint64_t per_after, const fs_thresholds *th, fs_findings *out);
/* The findings of T's change with BEFORE's counts times SCALE (0: as they are): a diff
 * normalized exactly (api/diff.h). */
foldsvg_status fs_findings_compute_scaled(const fs_tree *t, long double scale, uint64_t per_before,
                                          uint64_t per_after, const fs_thresholds *th,
                                          fs_findings *out);
/* The same with the nodes' own sums per name already made (fs_tree_function_sums with
 * COUNTS NULL), as the tables of the same profile need them too. */
foldsvg_status fs_findings_from_sums(const fs_tree *t, int diff, uint64_t per_before,
                                     uint64_t per_after, const fs_thresholds *th,
                                     const uint64_t *self, const uint64_t *incl, fs_findings *out);
void fs_findings_free(fs_findings *f);

/* What a reader is shown of F: its sentences ranked by the time they concern (ties in F's
 * order), at most FS_FINDINGS_SHOWN before "more", and the precompile findings apart (a
 * table of their own). SAID and PRE are F->n long (freed by the caller). */
enum { FS_FINDINGS_SHOWN = 8 };
foldsvg_status fs_findings_split(const fs_findings *f, const fs_finding ***said, size_t *nsaid,
                                 const fs_finding ***pre, size_t *npre);

/* An item's value: its count per iteration, or in a diff its change. */
long double fs_finding_value(const fs_findings *fs, const fs_finding_item *it);
/* The value in percent of the total (a diff's: of BEFORE's total, per iteration). */
double fs_finding_share(const fs_findings *fs, const fs_finding_item *it);
/* The rule id of F ("callees", ...). */
const char *fs_finding_rule(const fs_finding *f);
/* What a software-fallback finding's family computes ("keccak"); "" for other rules. */
const char *fs_finding_family(const fs_finding *f);

/* A finding's sentence as pieces, for each format to write in its own way: plain words,
 * names (to escape, code spans in Markdown) and code (`cargo tree`). */
typedef enum fs_word_kind { FS_WORD_TEXT, FS_WORD_NAME, FS_WORD_CODE } fs_word_kind;
typedef void (*fs_word_fn)(void *user, fs_word_kind kind, const char *s, size_t n);
void fs_finding_words(const fs_findings *fs, const fs_finding *f, const char *unit, fs_word_fn fn,
                      void *user);
/* The same as one plain string in OUT (names as they are, code in backticks): JSON's
 * "detail". */
foldsvg_status fs_finding_detail(const fs_findings *fs, const fs_finding *f, const char *unit,
                                 fs_buf *out);

/* What the summary says when no rule fired. */
#define FS_NO_RULE "no rule fired (see --summary-threshold)"

#endif
