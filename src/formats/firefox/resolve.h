/* From summed stack indices to frames, for either shape of Firefox-Profiler document: the
 * interface a stack model implements (Gecko: formats/firefox/gecko.c; processed:
 * formats/firefox/processed.c) and what both share: resolving a stack through its prefix chain
 * (iteratively, memoized: chains may be 100k deep; a cycle is an error), the weighting, and
 * the messages about bad indices, which name the thread, table and row. Range checks happen
 * lazily, for the stacks that samples use, as the reference converter does. */
#ifndef FOLDSVG_FORMATS_FIREFOX_RESOLVE_H
#define FOLDSVG_FORMATS_FIREFOX_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/firefox/model.h"
#include "formats/sink.h"

/* A thread in document order, and whether its weights are SP1 cycles. */
typedef struct ff_tref {
    ff_thread *t;
    int sp1;
} ff_tref;

/* How a thread's sums become weights. */
typedef struct ff_weighting {
    int weight_samples; /* --weight samples: each sample row weighs 1 */
    int sp1;            /* SP1's threadCPUDelta cycles */
    int dur;            /* the sums are of samples.duration (processed before v29) */
} ff_weighting;

typedef struct ff_model ff_model;

/* What one thread's resolution works with. */
typedef struct ff_res {
    const ff_model *m;
    const char *file;
    foldsvg_error *err;
    ff_thread *t;
    size_t ti; /* the thread's number, for messages */
    const ff_table *stack, *frame, *func;
    const ff_strings *strings;
    size_t nstacks;
    int use_offset;  /* processed v66+: prefixOffset */
    uint32_t *depth; /* per stack: 0 unknown, busy on the current walk, else its depth */
    int64_t *path;
    size_t cpath;
    fs_strref *frames;
    size_t cframes;
    const struct ff_store *store; /* of the threads resolved as they closed (early.h) */
} ff_res;

struct ff_model {
    const char *shape; /* "Gecko", "processed": the facts' format is "SHAPE vVERSION" */
    double (*version)(const ff_profile *root);
    /* The threads in document order into *OUT (malloc'd). */
    foldsvg_status (*collect)(ff_profile *root, ff_tref **out, size_t *n, const char *file,
                              foldsvg_error *err);
    /* R's tables for the thread R->t, and the structural checks the reference makes for every
     * thread, selected or not. */
    foldsvg_status (*setup)(ff_res *r, const ff_profile *root);
    /* The parent of stack S (*PAR -1 for a root) and the raw name of its frame. */
    foldsvg_status (*parent)(ff_res *r, int64_t s, int64_t *par);
    foldsvg_status (*frame_name)(ff_res *r, int64_t s, fs_strref *out);
    /* Whether T's sums are of samples.duration. */
    int (*uses_duration)(const ff_thread *t, const ff_profile *root);
    /* The weight of one stack's sums (not asked under --weight samples). */
    void (*weight)(const ff_weighting *w, const ff_thread *t, const ff_acc *a, fs_weight *out);
    /* The unit of the weights (not asked under --weight samples); NULL: SP1 cycles. T may be
     * NULL (no threads). */
    const char *(*count_name)(const ff_thread *t, const ff_weighting *w);
    /* What must hold before a thread's stacks are emitted; NULL when nothing. */
    foldsvg_status (*check)(ff_res *r, const ff_weighting *w);
};

/* The weight of A's sums under W. */
void ff_weight(const ff_model *m, const ff_weighting *w, const ff_thread *t, const ff_acc *a,
               fs_weight *out);
/* Frames of stack S, root first, into R->frames; *N of them. */
foldsvg_status ff_frames_of(ff_res *r, int64_t s, size_t *n);

/* An index value that must be an integer in [0, n). */
int ff_index_ok(fs_json_value c, size_t n);
/* How a value reads in a message ("null", "12", "a string"...). */
const char *ff_value_text(fs_json_value c, char *buf, size_t n);
/* "thread T TABLE row ROW: COL V out of range (TARGET has N UNIT)". */
foldsvg_status ff_bad_index(ff_res *r, const char *table, int64_t row, const char *col,
                            fs_json_value c, const char *target, size_t n, const char *unit);
/* The parent of stack S from its prefix value C: null for a root, else a row of the table. */
foldsvg_status ff_prefix_parent(ff_res *r, int64_t s, fs_json_value c, int64_t *par);
/* The name of string SI of the string table WHAT, used by row FROM_ROW. */
foldsvg_status ff_string_at(ff_res *r, const char *what, int64_t si, int64_t from_row,
                            fs_strref *out);

#endif
