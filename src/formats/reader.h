/* The reader interface: what every input format provides (one fs_format each, listed in
 * the registry, formats/registry.h). A reader turns a decoded byte stream (input/input.h: gzip
 * is already undone) into stacks for a sink (formats/sink.h) and knows nothing of what happens
 * to them. */
#ifndef FOLDSVG_FORMATS_READER_H
#define FOLDSVG_FORMATS_READER_H

#include <stddef.h>

#include "foldsvg.h"
#include "formats/collapse.h"
#include "formats/perf/perf.h"
#include "formats/pprof/opts.h"
#include "formats/sink.h"
#include "input/input.h"
#include "util/strlist.h"

/* What the input options say (rows of stage "input" in src/api/optrow.c write here), for
 * every reader. */
typedef struct fs_input_opts {
    fs_strlist threads;  /* Firefox: the --thread values (formats/threadsel.h); none: all merged */
    int weight_samples;  /* Firefox: --weight samples: each sample weighs 1 */
    int ordered;         /* the stacks in the input's order, one thread (--flamechart; set by
                          * lib from the stack options, not an option of its own) */
    fs_perf_opts perf;   /* perf script output: inferno-collapse-perf's options */
    fs_pprof_opts pprof; /* pprof: --sample-type, --tag-root */
    fs_collapse_opts collapse; /* the other inferno collapsers' options */
    /* bytes for sorting what grows with an input's events (trace events out of time order),
     * beyond which it spills to $TMPDIR: --sort-buffer, set by the API (0: the least) */
    size_t sort_buffer;
} fs_input_opts;

enum {
    /* The order of the input's lines means something (a time order): --flamechart and
     * --no-sort apply; for other formats they are a usage error. */
    FS_FORMAT_ORDERED = 1,
    /* Stacks arrive as whole folded paths (sink->line), so the input can be merged as it
     * streams or sorted without building a tree (api/convert.c). */
    FS_FORMAT_PATHS = 2,
    /* A format foldsvg does not read (formats/foreign.h): detecting it is the error its read
     * gives, which names what the input is. */
    FS_FORMAT_FOREIGN = 4,
    /* Its names come from a symbolizer (Firefox JSON, pprof, ...), not from a line a person or
     * inferno's collapsers wrote: Rust symbol hashes are dropped by default
     * (transform/pipeline.h, fs_pipeline_symbolized; --keep-rust-hash keeps them). */
    FS_FORMAT_SYMBOLIZED = 8
};

typedef struct fs_format {
    const char *name; /* "folded", "firefox", "perf" */
    const char *what; /* for messages: "folded text", "a Firefox-Profiler profile" */
    unsigned flags;   /* FS_FORMAT_* */
    /* Whether the input that starts with HEAD[0..len) (decoded, at most FS_INPUT_PEEK_MAX
     * bytes) is this format: 1 yes, 0 no, -1 cannot tell yet (more bytes are read ahead and
     * it is asked again; never when COMPLETE, which says that no more will come). */
    int (*detect)(const unsigned char *head, size_t len, int complete);
    /* Reads the whole input into SINK. Errors name the input and the place. */
    foldsvg_status (*read)(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                           foldsvg_error *err);
    /* Calls FN once per thread of the input, in order; NULL for formats without threads. */
    foldsvg_status (*list_threads)(fs_input *in, const fs_input_opts *opts, foldsvg_thread_fn fn,
                                   void *user, foldsvg_error *err);
    /* Calls FN once per sample type of the input (pprof); NULL for formats without them. */
    foldsvg_status (*list_sample_types)(fs_input *in, const fs_input_opts *opts,
                                        foldsvg_sample_type_fn fn, void *user, foldsvg_error *err);
} fs_format;

#endif
