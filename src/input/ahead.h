/* Decoded bytes of an input read ahead, in blocks: a task of the input's pool reads (and
 * gunzips, and decodes UTF-16) the next block while the caller parses the one before, so
 * reading and parsing run on two cores; without a pool each block is read as it is asked
 * for. The input must not be used otherwise until fs_ahead_stop. */
#ifndef FOLDSVG_INPUT_AHEAD_H
#define FOLDSVG_INPUT_AHEAD_H

#include <stddef.h>

#include "foldsvg.h"
#include "input/input.h"

typedef struct fs_ahead fs_ahead;

/* Work the task that reads a block may do on it, on another thread, while the caller is still
 * busy with the block before: what it finds goes to the block's SLOT, one per block, made by
 * SLOT_NEW (NULL: no memory; the job then never runs) and freed by SLOT_FREE. RUN gets the block's
 * bytes; it must not fail (it finds nothing). */
typedef struct fs_ahead_job {
    int always; /* it runs on every block, where the caller waits too (for tests) */
    int cheap;  /* it costs little beside the caller's parse of a block: it may run on every
                 * block, else the caller parses the first of each batch itself */
    void *ctx;
    void *(*slot_new)(void *ctx);
    void (*slot_free)(void *ctx, void *slot);
    void (*run)(void *ctx, void *slot, const unsigned char *data, size_t n);
} fs_ahead_job;

/* Starts reading IN ahead in blocks of BLOCK bytes (on the input's pool when it holds more
 * than a few blocks), JOB (when not NULL; copied) run on those the caller is not waiting
 * for yet; with a job the blocks are a quarter of BLOCK, read a BLOCK at a time. NULL when
 * out of memory. */
fs_ahead *fs_ahead_start(fs_input *in, size_t block, const fs_ahead_job *job);
/* The next block, fs_input_read's contract: *N = 0 at the end; errors (a failed read, a
 * corrupt gzip stream) come after the bytes before them. *P stays valid until the next
 * call, and so does *SLOT (when SLOT is not NULL): the job's findings on the block, or NULL
 * when it did not run on it. */
foldsvg_status fs_ahead_next(fs_ahead *a, const unsigned char **p, size_t *n, void **slot,
                             foldsvg_error *err);
/* Waits for a block being read and frees A; IN is then wherever the reading stopped. NULL
 * is ignored. */
void fs_ahead_stop(fs_ahead *a);

#endif
