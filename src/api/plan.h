/* The plan of a run, said aloud: before anything is read, how the inputs will be read and
 * their stacks aggregated, decided here from what is known then (the output, the options,
 * each input's format, compression and whether it can be read again), and changed only at the
 * points fs_plan_revise names. Every decision and every change is one line to the options'
 * log handler (--verbose), with its reason. Conversions, profiles and each side of a diff are
 * planned here alike (api/run.h carries a plan out). */
#ifndef FOLDSVG_API_PLAN_H
#define FOLDSVG_API_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "api/options.h"
#include "foldsvg.h"
#include "formats/reader.h"

/* How the stacks are aggregated: the one interface api/run.c drives, three ways. */
typedef enum fs_engine {
    /* sorted folded text, merged into frames as it is read (frames/stream.h): memory of the
     * frames that can be drawn, one reading; what stack collapsers write */
    FS_ENGINE_STREAM,
    /* folded text in any order, summed and sorted within the sort buffer, spilled to
     * temporary files beyond it (aggregate/sorter.h): memory bounded whatever the input */
    FS_ENGINE_SORT,
    /* a prefix tree of the stacks (aggregate/tree.h): profiles, reports, tables, and inputs
     * whose stacks come as frames (structured formats) */
    FS_ENGINE_TREE
} fs_engine;

typedef enum fs_plan_output {
    FS_OUT_SVG,     /* a flamegraph */
    FS_OUT_FOLDED,  /* folded text, sorted */
    FS_OUT_PROFILE, /* a profile: the API's object, reports and tables */
    FS_OUT_SIDE     /* one side of a diff: its stacks in byte order, each once */
} fs_plan_output;

/* What is known of an input before it is read. */
typedef struct fs_plan_input {
    const char *name;
    const fs_format *format;
    int gzip;
    int again;       /* it can be read again (a file, a copy of a pipe) */
    int stdin_twice; /* standard input named a second time */
} fs_plan_input;

typedef struct fs_plan {
    fs_engine engine;
    /* SORT to SVG: a sorter that would spill has each stack cut past its first frame too
     * narrow to draw, bounded by a sketch (aggregate/sketch.h) that costs two more readings
     * (when that saves enough: api/run.c asks the sorter) */
    int cut;
    int again; /* every input can be read again (else: a second reading means a tree) */
    int check; /* SIDE: read once to check the order and sum the total, then again */
    unsigned threads;
    size_t chunk; /* bytes of a sorter's chunk (two are held at most) */
    const foldsvg_options *o;
} fs_plan;

/* Plans the reading of inputs IN[0..n) for OUT under O. CHECK: a side whose join must know
 * its total before its first stack, or cannot start over (api/diff.c). */
void fs_plan_make(fs_plan *p, fs_plan_output out, const fs_plan_input *in, size_t n,
                  const foldsvg_options *o, int check);

/* The points where a plan changes, each said with where it happened. */
typedef enum fs_plan_event {
    FS_PLAN_UNSORTED, /* STREAM: a stack sorted before the one before it -> SORT, read again */
    FS_PLAN_FULL_CUT, /* SORT: the sorter is full, cutting pays -> a sketch, two readings */
    FS_PLAN_FULL,     /* SORT: the sorter is full -> it spills to temporary files */
    FS_PLAN_NO_SPILL, /* SORT: no temporary file could be written -> TREE, read again */
    FS_PLAN_CHANGED,  /* the cut: an input changed between readings -> whole stacks again */
    FS_PLAN_ONCE      /* STREAM: an input that cannot be read twice -> TREE from here */
} fs_plan_event;

/* Changes P for EV, met in INPUT (NULL: none) at LINE (0: not known), and says so. */
void fs_plan_revise(fs_plan *p, fs_plan_event ev, const char *input, uint64_t line);

/* A line to the log handler, "plan: " before it (printf's format). */
void fs_plan_say(const fs_plan *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* LINE to O's log handler, "plan: " before it: a change a reader makes as it reads
 * (formats/sink.h say). */
void fs_plan_log(const foldsvg_options *o, const char *line);

#endif
