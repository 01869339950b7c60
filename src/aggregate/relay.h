/* Handing a sequence of stacks from one thread to another: the k-way merge of the sorter's
 * runs on a second core while this one takes its output (the streaming merge and the
 * frames it keeps), so that neither waits for the other's whole work; and the two sides of a
 * diff, each read on a thread of its own, taken in step by the merge-join of the two
 * (aggregate/diffjoin.h). */
#ifndef FOLDSVG_AGGREGATE_RELAY_H
#define FOLDSVG_AGGREGATE_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

/* Takes one stack of a sequence in byte order (the sorter's output); equal stacks may come
 * more than once (from different runs), each with its part of the counts. SHARED: where the
 * stack first differs from the one before it in the sequence (or the shorter one's length),
 * as the sorter's merge found it; SIZE_MAX when not known (and for the first). */
typedef foldsvg_status (*fs_sorted_fn)(void *user, const char *stack, size_t len, size_t shared,
                                       uint64_t count, uint64_t before, int is_diff);

/* Emits stacks through EMIT (with EMIT_USER); a status other than OK from EMIT means stop
 * and return it. */
typedef foldsvg_status (*fs_relay_producer)(void *user, fs_sorted_fn emit, void *emit_user);

/* Runs PRODUCE on a second thread and passes what it emits, in order, to FN on this one.
 * Returns the first failure of either (the other is stopped). Without a second thread
 * (none can be started) PRODUCE runs here, straight into FN. */
foldsvg_status fs_relay_run(fs_relay_producer produce, void *produce_user, fs_sorted_fn fn,
                            void *fn_user);

typedef struct fs_relay_item {
    /* the stack's bytes from FROM on (LEN - FROM of them), valid until the next fs_relay_next
     * or fs_relay_end; FROM is 0 but for fs_relay_run_split, where the bytes a stack shares
     * with the one before it are not handed over again: there FROM is SHARED (0 for the
     * first, or when SHARED is SIZE_MAX) */
    const char *stack;
    size_t from;
    size_t len, shared; /* fs_sorted_fn's */
    uint64_t count, before;
    int is_diff;
    /* fs_relay_run_split: where STACK's ';' lie from SHARED on (all of them when SHARED is
     * SIZE_MAX), in order, as fs_stream_add_split takes them; else NULL */
    const uint32_t *semis;
    size_t nsemis;
    /* the next stack's SHARED (where it first differs from this one), SIZE_MAX when not
     * known; CUT: LEN is not the stack's length but NEXT_SHARED + 1 (or FROM + 1, when
     * more), its bytes after left out (fs_sorter_finish_split's CUT_BELOW) */
    size_t next_shared;
    int cut;
} fs_relay_item;

typedef foldsvg_status (*fs_relay_item_fn)(void *user, const fs_relay_item *it);

/* A stack given by its bytes from FROM on (IT->stack, IT->len - IT->from of them): FROM is
 * SHARED (0 when SHARED is SIZE_MAX), and the bytes before are the stack before's. SEMIS is
 * NULL. */
typedef fs_relay_item_fn fs_tail_fn;
typedef foldsvg_status (*fs_relay_tail_producer)(void *user, fs_tail_fn emit, void *emit_user);

/* fs_relay_run whose second thread may also find the ';' of each stack past the bytes it
 * shares with the one before (the consumer's merge splits stacks into frames there, and
 * would look for them itself): it does while the consumer is the slower of the two, so
 * that the work goes to the thread with time to spare. SEMIS is NULL for the stacks it
 * left to the consumer, and for all without a second thread. */
foldsvg_status fs_relay_run_split(fs_relay_tail_producer produce, void *produce_user,
                                  fs_relay_item_fn fn, void *fn_user);

/* The same, taken one stack at a time: fs_relay_next pulls what PRODUCE emits. */
typedef struct fs_relay fs_relay;

/* Starts PRODUCE on a second thread. Without one (none can be started) PRODUCE runs here and
 * now, everything it emits kept in memory. FOLDSVG_E_NOMEM. */
foldsvg_status fs_relay_start(fs_relay **out, fs_relay_producer produce, void *produce_user);
/* The next stack into *IT; *DONE at the end. A failure of the producer ends the sequence
 * (with *DONE set) once the batches it handed over are taken: stacks it emitted into the
 * batch it was filling do not come. */
foldsvg_status fs_relay_next(fs_relay *r, fs_relay_item *it, int *done);
/* Stops the producer if it is still running (its EMIT returns FS_STOP), waits for it and
 * frees R. Returns the producer's failure, if it had one before it was stopped. NULL is
 * fine. */
foldsvg_status fs_relay_end(fs_relay *r);

#endif
