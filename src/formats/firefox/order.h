/* The samples of a thread in their order, for --flamechart (the reader's ordered mode): one
 * entry per run of consecutive samples with the same stack index, each an accumulator like
 * those of the per-stack sums, so that the thread's weighting applies to a run as it does to
 * a stack (ff_weight). The runs are the model's (ff_runs, formats/firefox/model.h); memory
 * grows with the number of stack changes (56 bytes each, 112 with durations), never with
 * the samples of a run.
 *
 * The yajl callbacks (formats/firefox/samples.c) report each sample to the hooks below as they
 * sum it: a Gecko row, or the processed columns, where a sample's stack and its weight (or
 * duration) may come in either order: the one read later is paired with the runs in sample
 * order. */
#ifndef FOLDSVG_FORMATS_FIREFOX_ORDER_H
#define FOLDSVG_FORMATS_FIREFOX_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/firefox/model.h"

/* Each FOLDSVG_E_NOMEM or FOLDSVG_OK. A sample (row or stack cell) I of thread T with stack
 * KEY: it extends the last run or starts one. */
foldsvg_status ff_order_stack(ff_thread *t, int64_t key, uint64_t i);
/* Gecko: the row's threadCPUDelta cell CPU, added as the per-stack sums add it. */
void ff_order_cpu(ff_thread *t, fs_json_value cpu);
/* Processed: the weight W of sample I (whose stack came first, or just now). */
void ff_order_weight(ff_thread *t, uint64_t i, fs_json_value w);
/* Processed: the duration D of sample I. */
foldsvg_status ff_order_duration(ff_thread *t, uint64_t i, fs_json_value d);
/* A samples object (or one of its columns) begins: pairing starts at its first run. */
void ff_order_samples_begin(ff_thread *t);
void ff_order_column_begin(ff_thread *t);

#endif
