/* The pprof reader: profile.proto (google/pprof), as Go's runtime, gperftools, pprof-rs,
 * Node's @datadog/pprof, the Pyroscope agents, Parca, Cloud Profiler, RISC Zero's zkVM and
 * the Cairo profilers write it, plain or gzip (undone before, by the input layer).
 *
 * The message is unpacked whole with protobuf-c (the code protoc-c generates at build time
 * from formats/pprof/profile.proto), into an arena freed at the end; the samples are then
 * summed per distinct stack (its location ids, and the --tag-root values), so that what is
 * kept besides the unpacked tables follows the distinct stacks. Each stack goes to the sink
 * once: its locations root first (a sample lists them leaf first), each location's inlined
 * lines expanded as frames, the innermost last; a function named as the string table
 * names it (its system name when it has no name), a location without lines as its address.
 *
 * The value is one of the sample types: --sample-type NAME (or its index), else the
 * profile's default_sample_type, else the last one (pprof's choice). The unit said is the
 * sample type's ("nanoseconds", "bytes"; for "count", the type's own name: "samples",
 * "cycles", "alloc_objects"). Labels: --tag-root KEY roots each stack at "KEY=VALUE"
 * (repeatable, the first outermost), as pprof's -tagroot; the values of the profile's
 * thread label (the first of thread_name, "thread name", thread, thread_id, "thread id",
 * tid, goroutine that it uses) are its threads, which --thread selects and --list-threads
 * lists. */
#ifndef FOLDSVG_FORMATS_PPROF_PPROF_H
#define FOLDSVG_FORMATS_PPROF_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/sink.h"
#include "input/input.h"

#include "formats/pprof/opts.h"
#include "formats/reader.h"

/* The registry's entry points (formats/registry.c). Errors: FOLDSVG_E_PARSE for a protobuf
 * that is not a Profile (truncated or corrupt: the byte offset and the field), for tables
 * that do not hold together (a sample's location that no location has, a string index past
 * the table: the element named); FOLDSVG_E_USAGE for a --sample-type or --thread that picks
 * nothing. */
foldsvg_status fs_pprof_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                             foldsvg_error *err);
foldsvg_status fs_pprof_list_threads(fs_input *in, const fs_input_opts *opts, foldsvg_thread_fn fn,
                                     void *user, foldsvg_error *err);
/* Calls FN once per sample type, in order, with its total over the samples. */
foldsvg_status fs_pprof_list_sample_types(fs_input *in, const fs_input_opts *opts,
                                          foldsvg_sample_type_fn fn, void *user,
                                          foldsvg_error *err);

#endif
