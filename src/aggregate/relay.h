/* Handing a sequence of stacks from a producer to a consumer: the k-way merge of the sorter's
 * runs while the frames are made of its output, and each side of a diff while the two are
 * merge-joined (aggregate/diffjoin.h). The producer is a task of the pool (util/pool.h) that
 * emits every stack in one call; on a worker it waits while the consumer has a few batches
 * to take. When no worker took it, fs_relay_run's consumer runs it, taking each stack as it
 * is emitted; fs_relay_next's runs it first, everything it emits kept in memory. The same
 * sequence every way. */
#ifndef FOLDSVG_AGGREGATE_RELAY_H
#define FOLDSVG_AGGREGATE_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/pool.h"

/* Takes one stack of a sequence in byte order (the sorter's output); equal stacks may come
 * more than once (from different runs), each with its part of the counts. SHARED: where the
 * stack first differs from the one before it in the sequence (or the shorter one's length),
 * as the producer found it; SIZE_MAX when not known (and for the first). */
typedef foldsvg_status (*fs_sorted_fn)(void *user, const char *stack, size_t len, size_t shared,
                                       uint64_t count, uint64_t before, int is_diff);

/* Emits stacks through EMIT (with EMIT_USER); a status other than OK from EMIT means stop
 * and return it. */
typedef foldsvg_status (*fs_relay_producer)(void *user, fs_sorted_fn emit, void *emit_user);

/* Runs PRODUCE on POOL and passes what it emits, in order, to FN on this thread. Returns the
 * first failure of either (the other is stopped). */
foldsvg_status fs_relay_run(fs_pool *pool, fs_relay_producer produce, void *produce_user,
                            fs_sorted_fn fn, void *fn_user);

typedef struct fs_relay_item {
    const char *stack; /* valid until the next fs_relay_next or fs_relay_end */
    size_t len, shared;
    uint64_t count, before;
    int is_diff;
} fs_relay_item;

/* The same, taken one stack at a time: fs_relay_next pulls what PRODUCE emits. */
typedef struct fs_relay fs_relay;

/* Starts PRODUCE on POOL. FOLDSVG_E_NOMEM. */
foldsvg_status fs_relay_start(fs_relay **out, fs_pool *pool, fs_relay_producer produce,
                              void *produce_user);
/* The next stack into *IT; *DONE at the end. A failure of the producer ends the sequence
 * (with *DONE set) once the batches it handed over are taken: stacks it emitted into the
 * batch it was filling do not come. */
foldsvg_status fs_relay_next(fs_relay *r, fs_relay_item *it, int *done);
/* Stops the producer if it is still running (its EMIT returns FS_STOP), waits for it and
 * frees R. Returns the producer's failure, if it had one before it was stopped. NULL is
 * fine. */
foldsvg_status fs_relay_end(fs_relay *r);

#endif
