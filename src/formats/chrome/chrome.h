/* The Chrome/V8 reader: V8 CPU profiles (.cpuprofile, as node --cpu-prof, DevTools "Save
 * profile" and VS Code write them: nodes, samples and timeDeltas; and the older tree form,
 * head with children, samples and timestamps), Chrome DevTools Performance traces (a JSON
 * array of trace events or {"traceEvents": [...]}) with their CPU profiles in Profile and
 * ProfileChunk events (or a whole one in a CpuProfile event), and trace events without
 * them: B/E and X duration events (Perfetto, Hermes and many tracers), or samples over a
 * stackFrames table. The stacks and weights are those speedscope's importers compute
 * (chrome.ts, trace-event.ts): time in microseconds, each sample's run lasting until the
 * next different sample, each B/E/X stack the time it was on top.
 *
 * The text is read as a stream (yajl, formats/json/json.h): memory follows the distinct
 * nodes and stacks and one event at a time, never the samples (a .cpuprofile's samples and
 * deltas are read again, side by side, from where they lie). B/E/X events are kept per
 * thread, a few words each, as speedscope orders them by time before it reads them.
 *
 * Threads: each CPU profile (in the order their Profile events come), or each (pid, tid) of
 * the trace events (in pid, tid order); named by the trace's thread_name metadata.
 * --thread selects them, --list-threads lists them, --flamechart draws one in time order. */
#ifndef FOLDSVG_FORMATS_CHROME_CHROME_H
#define FOLDSVG_FORMATS_CHROME_CHROME_H

#include <stddef.h>

#include "formats/reader.h"

int fs_chrome_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_chrome_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                              foldsvg_error *err);
foldsvg_status fs_chrome_list_threads(fs_input *in, const fs_input_opts *opts, foldsvg_thread_fn fn,
                                      void *user, foldsvg_error *err);

#endif
