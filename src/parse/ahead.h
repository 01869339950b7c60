/* Decoded bytes of an input read ahead on a second thread, in blocks: that thread reads
 * (and gunzips, and decodes UTF-16) while the caller parses the block before, so reading
 * and parsing run on two cores. The input must not be used otherwise until fs_ahead_stop. */
#ifndef FOLDSVG_PARSE_AHEAD_H
#define FOLDSVG_PARSE_AHEAD_H

#include <stddef.h>

#include "foldsvg.h"
#include "parse/input.h"

typedef struct fs_ahead fs_ahead;

/* Whether reading IN ahead is worth a thread: more than a few blocks of BLOCK bytes (or a
 * size not known), and no progress function (it runs where the reads happen: on the
 * caller's thread). */
int fs_ahead_worth(const fs_input *in, size_t block);
/* Starts reading IN ahead in blocks of BLOCK bytes; NULL when no thread could be started
 * (read IN directly then). */
fs_ahead *fs_ahead_start(fs_input *in, size_t block);
/* The next block, fs_input_read's contract: *N = 0 at the end; errors (a failed read, a
 * corrupt gzip stream) come after the bytes before them. *P stays valid until the next
 * call. */
foldsvg_status fs_ahead_next(fs_ahead *a, const unsigned char **p, size_t *n, foldsvg_error *err);
/* Stops the thread (when still reading) and frees A; IN is then wherever the thread
 * stopped. NULL is ignored. */
void fs_ahead_stop(fs_ahead *a);

#endif
