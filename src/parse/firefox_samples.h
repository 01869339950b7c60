/* The samples of the Firefox-Profiler reader, summed as they stream (parse/firefox_samples.c),
 * for its yajl callbacks (parse/firefox_sax.c). Each returns FOLDSVG_OK or a failure already
 * recorded in P->j. */
#ifndef FOLDSVG_PARSE_FIREFOX_SAMPLES_H
#define FOLDSVG_PARSE_FIREFOX_SAMPLES_H

#include <stdint.h>

#include "parse/firefox_parser.h"

/* A Gecko sample row of thread T closed: STACK and CPU are its stack and threadCPUDelta
 * cells (null when absent). */
foldsvg_status ff_sample_row(ff_parser *p, ff_thread *t, fs_json_value stack, fs_json_value cpu,
                             uint64_t row);

/* A processed samples column (FF_C_STACK, FF_C_WEIGHT or FF_C_DURATION) of thread T: it
 * begins (its '[' was just parsed; it is paired with an earlier one when it needs it), entry
 * I of it, its end. */
foldsvg_status ff_column_begin(ff_parser *p, ff_thread *t, int col);
foldsvg_status ff_column_cell(ff_parser *p, ff_thread *t, int col, uint64_t i, fs_json_value c);
foldsvg_status ff_column_end(ff_parser *p, ff_thread *t, int col);

/* A samples object of T begins (forgetting an earlier one's columns), and ends: rows that came
 * before their schema are summed now, and what the pairing of columns found is reported. */
void ff_samples_reset(ff_thread *t);
foldsvg_status ff_samples_end(ff_parser *p, ff_thread *t);

#endif
