/* What changed between the two sides of a differential profile, per function: self time (the
 * function is the leaf of the stack) and inclusive time (anywhere on the stack, once per
 * stack), BEFORE and AFTER, and DELTA = AFTER - BEFORE, each side divided by its own
 * iteration count (per-iteration cost). Every function of either side has a row, ranked by
 * |DELTA|, ties by name: the delta tables (analysis/deltatables.h) print the top, and rules
 * that explain a change (issue 23's findings) can read them all. */
#ifndef FOLDSVG_ANALYSIS_DELTA_H
#define FOLDSVG_ANALYSIS_DELTA_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/tree.h"
#include "foldsvg.h"

typedef struct fs_delta_row {
    const char *name; /* not NUL-terminated; points into the tree */
    size_t len;
    uint64_t before, after; /* counts, not divided */
    long double delta;      /* after / per_after - before * scale / per_before */
    /* BEFORE's counts are multiplied by this before they are compared: --normalize, applied
     * exactly to the sums (0: 1, not scaled) */
    long double scale;
} fs_delta_row;

typedef struct fs_delta_table {
    fs_delta_row *rows; /* every function with a count on either side, ranked */
    size_t n;
    size_t only_before, only_after; /* rows with a count on one side only */
} fs_delta_table;

typedef struct fs_deltas {
    uint64_t total_before, total_after; /* the tree's (BEFORE as it is there) */
    uint64_t per_before, per_after;     /* 1 when counts are not divided */
    long double scale;                  /* BEFORE's scale (fs_delta_row.scale; 0: none) */
    size_t unique;                      /* the tree's stacks */
    fs_delta_table self, incl;
} fs_deltas;

/* The deltas of the differential tree T (a tree without first counts has BEFORE 0
 * throughout), BEFORE's counts multiplied by SCALE (0 or 1: as they are; --normalize gives
 * total(AFTER) / total(BEFORE) and a tree of the counts as read, so that the sums are scaled
 * exactly, not each stack rounded). PER_BEFORE, PER_AFTER: 0 or 1 for none. Rows point into
 * T, which must outlive OUT. FOLDSVG_E_NOMEM. */
foldsvg_status fs_deltas_compute(const fs_tree *t, long double scale, uint64_t per_before,
                                 uint64_t per_after, fs_deltas *out);
void fs_deltas_free(fs_deltas *d);

/* The change in percent of BEFORE (per iteration); 0 when BEFORE is 0 (a new function:
 * *NEW set). */
double fs_delta_percent(const fs_delta_row *r, uint64_t per_before, int *is_new);

/* A side's count per iteration: COUNT / PER as a long double. */
long double fs_delta_scaled(uint64_t count, uint64_t per);
/* R's BEFORE as it is compared: its count times its scale, per iteration. */
long double fs_delta_before(const fs_delta_row *r, uint64_t per_before);

#endif
