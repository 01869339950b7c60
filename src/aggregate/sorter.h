/* Sorting the stacks of an unsorted input, so that the streaming merge (frames/stream.h) can
 * take them as if they had come sorted. Equal stacks are summed as they arrive, in a chunk
 * held in memory; a chunk that outgrows its budget is sorted and written to a temporary
 * file as a run, and the runs are merged at the end. Memory stays within the budget
 * whatever the input; the disk holds the distinct stacks of the spilled chunks, compressed
 * by their shared prefixes. An input with few distinct stacks never touches the disk. */
#ifndef FOLDSVG_AGGREGATE_SORTER_H
#define FOLDSVG_AGGREGATE_SORTER_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/relay.h"
#include "foldsvg.h"
#include "util/pool.h"

typedef struct fs_sorter fs_sorter;

/* BUDGET: bytes of memory for a chunk (0: the default, 8 MiB); two chunks may be held at
 * once, one filling while a task of POOL writes the other. FANIN: most runs merged at once
 * (0: the default); more runs are merged in rounds. */
foldsvg_status fs_sorter_new(fs_sorter **out, size_t budget, unsigned fanin, fs_pool *pool);
void fs_sorter_free(fs_sorter *s);

/* FOLDSVG_E_OVERFLOW when the stack's counts would pass 2^64-1 (nothing added),
 * FS_STOP (fs_sorter_stop_before_spill),
 * FOLDSVG_E_LIMIT for a stack of 4 GiB or more, FOLDSVG_E_NOMEM, FOLDSVG_E_IO when a run
 * cannot be written (no temporary file, a full disk). */
foldsvg_status fs_sorter_add(fs_sorter *s, const char *stack, size_t len, uint64_t count,
                             uint64_t before, int is_diff);
/* The same with the stack's fs_strmap_hash known. */
foldsvg_status fs_sorter_add_hashed(fs_sorter *s, const char *stack, size_t len, uint64_t hash,
                                    uint64_t count, uint64_t before, int is_diff);

/* Passes every stack to FN in order (the runs merged by a task of the pool while FN's thread
 * takes them), then the sorter is spent. A status other than OK from FN stops and is
 * returned. Each comes with what it shares with the one before (SHARED), and one whose count
 * is below CUT_BELOW (0: none), not differential, is cut one byte past the bytes it shares
 * with either neighbour: its frames past there are its own, as wide as its count, and most
 * stacks of a large input have hundreds of such bytes that no one draws. */
foldsvg_status fs_sorter_finish(fs_sorter *s, uint64_t cut_below, fs_sorted_fn fn, void *user);

/* Empties a sorter that never spilled for stacks anew, keeping the memory its chunk has
 * used (new memory costs a page fault a page); fs_sorter_stop_before_spill is undone.
 * FOLDSVG_E_ARG for one that spilled. */
foldsvg_status fs_sorter_reset(fs_sorter *s);
/* Bytes written to the temporary file so far, merge rounds included. */
uint64_t fs_sorter_spilled(fs_sorter *s);
/* Whether the last chunk was sorted in two halves at once (for tests; after finishing). */
int fs_sorter_sorted_in_halves(const fs_sorter *s);
/* STOP: fs_sorter_add and fs_sorter_add_hashed return FS_STOP instead of writing the first
 * run (the stack that filled the chunk was added), or as soon as the first quarter of a
 * chunk shows so few repeated stacks that the distinct ones will not fit: for a caller that
 * may have a cheaper way to deal with stacks that outgrow the memory (aggregate/sketch.h). Call
 * before the first stack; called with 0 after an FS_STOP, the sorter goes on (and spills at
 * the next stack if its chunk is full). */
void fs_sorter_stop_before_spill(fs_sorter *s, int stop);
/* What cutting the stacks of the chunk being filled could save, in bytes a stack (0 when it
 * is empty): each one's bytes past the frame in which it first differs from both of its
 * neighbours in order (that frame is kept, aggregate/sketch.h). A stack that differs only in its
 * last frame saves nothing. Sorts the chunk to see (a copy of its order, freed). */
size_t fs_sorter_savable(fs_sorter *s);
/* Runs written so far (for tests and statistics). */
size_t fs_sorter_runs(fs_sorter *s);
/* Whether the temporary file is open (for tests). */
int fs_sorter_file_open(fs_sorter *s);
/* Chunks the adding thread sorted itself while the task was still busy with the one before
 * (for tests and statistics). */
size_t fs_sorter_sorted_here(fs_sorter *s);
/* Runs whose writing stopped when the input ended, their chunk merged from memory (for
 * tests and statistics; after fs_sorter_finish). */
size_t fs_sorter_writes_stopped(fs_sorter *s);

#endif
