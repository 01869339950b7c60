/* Handing a sequence of stacks from one thread to another: the k-way merge of the sorter's
 * runs on a second core while this one takes its output (the streaming merge and the
 * frames it keeps), so that neither waits for the other's whole work. */
#ifndef FOLDSVG_FOLD_RELAY_H
#define FOLDSVG_FOLD_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

/* Takes one stack of a sequence in byte order (the sorter's output); equal stacks may come
 * more than once (from different runs), each with its part of the counts. */
typedef foldsvg_status (*fs_sorted_fn)(void *user, const char *stack, size_t len, uint64_t count,
                                       uint64_t before, int is_diff);

/* Emits stacks through EMIT (with EMIT_USER); a status other than OK from EMIT means stop
 * and return it. */
typedef foldsvg_status (*fs_relay_producer)(void *user, fs_sorted_fn emit, void *emit_user);

/* Runs PRODUCE on a second thread and passes what it emits, in order, to FN on this one.
 * Returns the first failure of either (the other is stopped). Without a second thread
 * (none can be started) PRODUCE runs here, straight into FN. */
foldsvg_status fs_relay_run(fs_relay_producer produce, void *produce_user, fs_sorted_fn fn,
                            void *fn_user);

#endif
