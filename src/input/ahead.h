/* Decoded bytes of an input read ahead on a second thread, in blocks: that thread reads
 * (and gunzips, and decodes UTF-16) while the caller parses the block before, so reading
 * and parsing run on two cores. The input must not be used otherwise until fs_ahead_stop. */
#ifndef FOLDSVG_INPUT_AHEAD_H
#define FOLDSVG_INPUT_AHEAD_H

#include <stddef.h>

#include "foldsvg.h"
#include "input/input.h"

typedef struct fs_ahead fs_ahead;

/* Work the reading thread may do on a block before the caller gets it, when the caller is
 * behind (a full block already waits for it): what it finds goes to the block's SLOT, one
 * per block of the ring, made by SLOT_NEW (NULL: no memory; the job then never runs) and
 * freed by SLOT_FREE. RUN gets the block's bytes; it must not fail (it finds nothing). */
typedef struct fs_ahead_job {
    void *ctx;
    void *(*slot_new)(void *ctx);
    void (*slot_free)(void *ctx, void *slot);
    void (*run)(void *ctx, void *slot, const unsigned char *data, size_t n);
} fs_ahead_job;

/* Whether reading IN ahead is worth a thread: more than a few blocks of BLOCK bytes (or a
 * size not known). */
int fs_ahead_worth(const fs_input *in, size_t block);
/* Starts reading IN ahead in blocks of BLOCK bytes, JOB (when not NULL; copied) run on some
 * of them; NULL when no thread could be started (read IN directly then). */
fs_ahead *fs_ahead_start(fs_input *in, size_t block, const fs_ahead_job *job);
/* The next block, fs_input_read's contract: *N = 0 at the end; errors (a failed read, a
 * corrupt gzip stream) come after the bytes before them. *P stays valid until the next
 * call, and so does *SLOT (when SLOT is not NULL): the job's findings on the block, or NULL
 * when it did not run on it. */
foldsvg_status fs_ahead_next(fs_ahead *a, const unsigned char **p, size_t *n, void **slot,
                             foldsvg_error *err);
/* Stops the thread (when still reading) and frees A; IN is then wherever the thread
 * stopped. NULL is ignored. */
void fs_ahead_stop(fs_ahead *a);

#endif
