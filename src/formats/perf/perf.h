/* The reader of raw `perf script` output: the collapse step of inferno-collapse-perf 0.12
 * (and FlameGraph's stackcollapse-perf.pl) built in.
 *
 * A record is an event header line ("comm pid/tid [cpu] time: period event:"), its stack
 * frames, leaf first, one per line ("addr symbol+off (module)"), and a blank line. Each
 * record of the chosen event becomes one stack: the command name (with -pid or -pid/tid)
 * as its root, then the frames, root first, named as inferno names them (perf_name.h).
 * A record weighs its period when perf printed one, else 1. Header lines ("# ...", from
 * `perf script --header`) are skipped. Records without frames are dropped, as inferno
 * drops them. The text is read as a stream: memory holds one record, never the input. */
#ifndef FOLDSVG_FORMATS_PERF_PERF_H
#define FOLDSVG_FORMATS_PERF_PERF_H

#include <stddef.h>

#include "foldsvg.h"
#include "formats/sink.h"
#include "input/input.h"
#include "util/strlist.h"

typedef struct fs_perf_opts {
    int pid;    /* the root is "comm-PID" */
    int tid;    /* the root is "comm-PID/TID" (wins over pid) */
    int kernel; /* _[k] after kernel frames */
    int jit;    /* _[j] after JIT frames */
    int all;    /* kernel and jit */
    int addrs;  /* "[module <addr>]" for frames without a symbol */
    /* Only records of this event; NULL or "" means the first event the input names.
     * "cycles" matches "cycles:u" and "cycles:ppp" (inferno's rule); a name with a ':'
     * ("sched:sched_switch") must match the event field whole. */
    const char *event_filter;
    /* Frames above (callers of) a frame with one of these names are left out. */
    fs_strlist skip_after;
} fs_perf_opts;

/* Whether HEAD, the first bytes of an input (after gzip), is perf script output: its first
 * line that is neither blank nor a '#' header is an event header as perf writes it. 1 yes,
 * 0 no; -1 when that line is cut short by LEN and more may come (COMPLETE clear): the
 * caller reads further ahead and asks again (formats/reader.h). A line cut short when
 * COMPLETE is judged as far as it goes. Folded text, JSON and empty input are not perf
 * script output. */
int fs_perf_detect(const unsigned char *head, size_t len, int complete);

/* Reads IN to its end, giving the sink one stack() per record of the chosen event (frames
 * root first, names raw: ';' is left to the sink's sanitizing) and, at the end, once,
 * count_name(): "samples", or the event's name when the records carried periods; facts()
 * says "perf script" first. Malformed lines (neither an event header nor a frame where one
 * is expected) are skipped with one warning (sink->warn) naming the first. PO NULL means the
 * defaults. Errors: FOLDSVG_E_NO_DATA when records were read but none of the chosen event (the
 * message lists the events seen), FOLDSVG_E_LIMIT for a line over 64 MiB, what the input
 * or the sink returned, FOLDSVG_E_NOMEM. */
foldsvg_status fs_perf_read(fs_input *in, const fs_perf_opts *po, fs_sink *sink,
                            foldsvg_error *err);

#endif
