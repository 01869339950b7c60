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

/* The hooks for a parse (fs_json.split); NULL when off (cr_split_mode). */
const fs_json_split *cr_split_hooks(void);

/* For tests: 0 as usual, 1 off, 2 the job on every block, where the parse waits too. */
void cr_split_mode(int mode);
/* Values taken from the job by every parse so far (for tests). */
uint64_t cr_split_taken(void);

#endif
