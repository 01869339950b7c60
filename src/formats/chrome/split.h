/* A Chrome trace's sample ids and time deltas read on the thread that reads ahead
 * (formats/json/json.h's fs_json_split): in a block, the job finds each "samples":[ and
 * "timeDeltas":[ array and takes its plain integers after the first, up to the last one a
 * comma follows; the parse, once yajl has read the first and says the array is a CPU
 * profile's (formats/chrome/sax.c), appends them as its own callbacks would and skips their
 * bytes. A trace is mostly these arrays, so the two threads share its parse. */
#ifndef FOLDSVG_FORMATS_CHROME_SPLIT_H
#define FOLDSVG_FORMATS_CHROME_SPLIT_H

#include <stdint.h>

#include "formats/json/json.h"

typedef struct cr_split cr_split;

/* The hooks for one parse; NULL when off (cr_split_mode) or out of memory. */
cr_split *cr_split_new(void);
void cr_split_free(cr_split *s);
const fs_json_split *cr_split_hooks(const cr_split *s);

/* For tests: 0 as usual, 1 off, 2 the job on every block, where the parse waits too. */
void cr_split_mode(int mode);
/* Values taken from the job by every parse so far (for tests). */
uint64_t cr_split_taken(void);

#endif
