/* Streaming reader for Firefox-Profiler JSON (the Gecko format written by the SP1 zkVM
 * profiler and others, and the "processed" format of samply / profiler.firefox.com).
 *
 * The JSON is read with yajl's callback API and never held as a tree: samples are summed
 * per (thread, stack index) as they stream by, so memory grows with the distinct stacks,
 * frames and strings, not with the number of samples. Key order is free (SP1 writes the
 * string table after the samples). See docs/firefox-profiles.md for the format rules. */
#ifndef FOLDSVG_FORMATS_FIREFOX_FIREFOX_H
#define FOLDSVG_FORMATS_FIREFOX_FIREFOX_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/reader.h"
#include "formats/sink.h"
#include "input/input.h"

/* The registry's entry points (formats/registry.c). Detection: the first byte that is not
 * whitespace is '{'.
 *
 * Reading gives the sink one stack() call per distinct (thread, stack), root first, names
 * raw; a null stack gives n == 0. When a weight of the selection has a fraction, every stack
 * comes through weight() instead, to be summed per folded stack and rounded at the end.
 * count_name() is called once before the stacks unless the weights are SP1 cycles, facts()
 * once. OPTS->threads selects threads (formats/threadsel.h; none: all merged), OPTS->weight_samples
 * weighs each sample 1. With OPTS->ordered (--flamechart) the stacks come instead as the runs
 * of one thread's samples in their order, one stack() each (FOLDSVG_E_USAGE naming them when
 * several selected threads have samples). Errors: FOLDSVG_E_PARSE for malformed JSON or tables (the
 * message names the byte offset in the decoded JSON text, or the thread, table and row),
 * FOLDSVG_E_USAGE when a --thread value picks no thread, FOLDSVG_E_OVERFLOW, FOLDSVG_E_NOMEM, or
 * what the input or the sink returned. On error the sink may have received part of the stacks.
 *
 * Listing calls FN once per thread in document order (INDEX what --thread takes), every
 * thread whatever OPTS->thread says; NAME and PROCESS are never NULL ("" when absent) and
 * live only for the call; SAMPLES counts sample rows, WEIGHT sums their weights as the
 * weighting gives them. */
int fs_firefox_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_firefox_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                               foldsvg_error *err);
foldsvg_status fs_firefox_list_threads(fs_input *in, const fs_input_opts *opts,
                                       foldsvg_thread_fn fn, void *user, foldsvg_error *err);

#endif
