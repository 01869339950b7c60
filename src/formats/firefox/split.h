/* Gecko sample rows parsed on the thread that reads ahead, while the parse's thread works
 * through the blocks before (formats/json/json.h's fs_json_split): that thread looks in a block for
 * a boundary between two rows ("]" "," "["), parses the rows from there on with a yajl of
 * its own, and keeps runs of the same stack with their threadCPUDelta sums. The parse,
 * arriving at the boundary inside a samples data array with the same columns, adds the runs
 * as its row callbacks would have added those rows, and goes on after the last of them; a
 * row the runs cannot stand for (a cell that is not a short integer, a container, the end of
 * the array) ends them, and the parse reads it itself, with the messages and offsets it
 * always gives. */
#ifndef FOLDSVG_FORMATS_FIREFOX_SPLIT_H
#define FOLDSVG_FORMATS_FIREFOX_SPLIT_H

#include "formats/firefox/parser.h"
#include "formats/json/json.h"

typedef struct ff_split ff_split;

/* NULL when out of memory or disabled (the rows are then all parsed by the parse's thread). */
ff_split *ff_split_new(void);
void ff_split_free(ff_split *s);
const fs_json_split *ff_split_hooks(const ff_split *s);

/* Rows taken from the reading thread by every parse so far (for tests). */
uint64_t ff_split_taken_rows(void);
/* For tests: MODE 1 makes ff_split_new return NULL (no rows parsed ahead); 2 has the rows of
 * every block parsed ahead, by whichever thread reads it; 0 as in a run. */
void ff_split_mode(int mode);

/* P's hot state changed: tells the reading thread whether it is in sample rows, and their
 * columns. */
void ff_split_where(ff_parser *p);

#endif
