/* Records of one fixed size sorted within a memory budget, for data that grows with an input's
 * events rather than with its stacks (trace events written out of time order): the records
 * are held until the budget is full, then sorted and written to a temporary file as a run;
 * reading merges the runs. Records that fit the budget are sorted in memory and never touch
 * the disk; where the disk takes no more (no temporary file can be made, or it is full) the
 * rest stay in memory. */
#ifndef FOLDSVG_UTIL_RECSORT_H
#define FOLDSVG_UTIL_RECSORT_H

#include <stddef.h>

#include "foldsvg.h"

typedef struct fs_recsort fs_recsort;

/* A total order of records: records it calls equal may come out in any order. */
typedef int (*fs_recsort_cmp)(const void *a, const void *b);

/* A sorter of records of SIZE bytes in order CMP, in about BUDGET bytes (at least 16 records'
 * worth: the buffer that fills, then the runs' read buffers). NULL: no memory. */
fs_recsort *fs_recsort_new(size_t size, size_t budget, fs_recsort_cmp cmp);
void fs_recsort_free(fs_recsort *s);

/* Adds a copy of REC (before fs_recsort_finish). FOLDSVG_E_NOMEM. */
foldsvg_status fs_recsort_add(fs_recsort *s, const void *rec);

/* Ends the adding and begins the reading, in order. FOLDSVG_E_NOMEM, or FOLDSVG_E_IO with
 * errno set when a run cannot be read back. */
foldsvg_status fs_recsort_finish(fs_recsort *s);

/* The next record in order into *REC (NULL after the last), valid until the next call.
 * FOLDSVG_E_IO with errno set when a run cannot be read. */
foldsvg_status fs_recsort_next(fs_recsort *s, const void **rec);

/* The runs written to the temporary file so far (0: the records are all in memory). */
size_t fs_recsort_runs(const fs_recsort *s);

#endif
