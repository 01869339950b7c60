/* Streaming reader for Firefox-Profiler JSON (the Gecko format written by the SP1 zkVM
 * profiler and others, and the "processed" format of samply / profiler.firefox.com).
 *
 * The JSON is read with yajl's callback API and never held as a tree: samples are summed
 * per (thread, stack index) as they stream by, so memory grows with the distinct stacks,
 * frames and strings, not with the number of samples. Key order is free (SP1 writes the
 * string table after the samples). See docs/firefox-profiles.md for the format rules. */
#ifndef FOLDSVG_PARSE_FIREFOX_H
#define FOLDSVG_PARSE_FIREFOX_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "parse/input.h"
#include "parse/sink.h"

typedef struct fs_firefox_opts {
    /* Only the thread with this index (document order, from 0); -1 merges all threads. */
    long thread;
    /* --weight samples: every sample weighs 1, whatever the profile says. */
    int weight_samples;
    /* --list-threads: called once per thread in document order, after the whole input was
     * read and before any stack reaches the sink. NAME and PROCESS are never NULL ("" when
     * absent) and live only for the call. SAMPLES counts sample rows, WEIGHT sums their
     * weights (as the selected weighting gives them). NULL-able. */
    void (*thread_cb)(void *ud, size_t index, const char *name, const char *process,
                      uint64_t samples, double weight);
    void *thread_ud;
} fs_firefox_opts;

/* Reads the whole profile from IN (already gunzipped by the input) and gives the sink one
 * stack() call per distinct (thread, stack), root first, names raw; a null stack gives
 * n == 0. count_name() is called once before the stacks unless the weights are SP1 cycles.
 * OPTS NULL means all threads, automatic weights, no listing.
 * Errors: FOLDSVG_E_PARSE for malformed JSON or tables (message names the byte offset in
 * the decoded JSON text, or the thread, table and row), FOLDSVG_E_USAGE when opts->thread
 * is out of range, FOLDSVG_E_OVERFLOW, FOLDSVG_E_NOMEM, or what the input or the sink
 * returned. On error the sink may have received part of the stacks. */
foldsvg_status fs_firefox_read(fs_input *in, const fs_firefox_opts *opts, fs_sink *sink,
                               foldsvg_error *err);

#endif
