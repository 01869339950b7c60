/* A plan (api/plan.h) carried out: the inputs read, as often as the plan asks, through the
 * stack pipeline (transform/pipeline.h) into the plan's engine, the plan revised where it
 * says. The engines give their stacks in byte order, each distinct stack once (STREAM as they
 * are read, SORT once sorted), to the caller's PUT; a tree is read into a profile. One path
 * for conversions (api/convert.c), profiles (api/read.c) and the sides of a diff
 * (api/diffside.c). */
#ifndef FOLDSVG_API_RUN_H
#define FOLDSVG_API_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/relay.h"
#include "aggregate/sketch.h"
#include "aggregate/sorter.h"
#include "api/plan.h"
#include "api/profile.h"
#include "foldsvg.h"
#include "formats/sink.h"
#include "input/source.h"
#include "transform/pipeline.h"
#include "util/numfmt.h"
#include "util/pool.h"
#include "util/u64set.h"

/* A stack in byte order to the caller; FOLDSVG_E_UNSORTED when it sorts before the one
 * before it (the engine was STREAM: the input is not sorted). Equal stacks may come one
 * after the other (from a sorter's runs): the caller sums them. */
typedef foldsvg_status (*fs_run_put_fn)(void *user, const char *stack, size_t len, uint64_t count,
                                        uint64_t before, int is_diff);

typedef struct fs_run {
    /* the caller's */
    const foldsvg_options *o; /* warnings and progress go to its handlers */
    fs_plan *plan;
    fs_source *src;
    const fs_format **format; /* each source's, as fs_run_look found it */
    size_t n;
    fs_pool *pool;
    fs_run_put_fn put;
    void *put_user;
    /* Empties what PUT filled, for a STREAM reading that turned out unsorted; NULL: that
     * cannot be, the run stops instead (UNSORTED set) */
    foldsvg_status (*reset)(void *user);
    /* what the last reading found */
    uint64_t total, total_before;
    unsigned formats;        /* fs_format_bit of each format read */
    const char *what;        /* the last one's, for messages */
    fs_folded_stats *stats;  /* per input */
    uint8_t *lined;          /* per input: it has lines (STATS is about them) */
    fs_profile_facts *facts; /* per input */
    uint8_t *drawn;          /* per input: it added stacks */
    char unit[FS_UNIT_SIZE]; /* the count unit an input named, "" for none */
    fs_drops drops;
    size_t unique; /* distinct stacks, when the engine counts them (cut, chart) */
    unsigned readings;
    uint64_t unsorted; /* STREAM without RESET: the line out of order that stopped the run */
    /* private */
    fs_pipeline *pl;
    fs_sorter *sorter;
    int sketching;
    fs_sketch sketch;
    uint64_t cut_below, sketch_total;
    fs_u64set distinct;
    int count_distinct;
    size_t input;
    const char *name;
    uint64_t prev_line;
} fs_run;

/* R for the sources SRC[0..n) under O (may outlive nothing but R), its stacks to PUT. */
foldsvg_status fs_run_init(fs_run *r, const foldsvg_options *o, fs_source *src, size_t n,
                           fs_pool *pool, foldsvg_error *err);
void fs_run_free(fs_run *r);

/* Looks at every source before it is read (its format: formats/registry.h) and fills the
 * plan's inputs; COPY: a second reading may come (output to SVG, folded text, a diff side). */
foldsvg_status fs_run_look(fs_run *r, fs_plan_input *in, int copy, foldsvg_error *err);

/* Reads every source into the plan's engine until the plan settles: STREAM and SORT gave or
 * hold their stacks; TREE (planned, or come to: a sorter that cannot spill) is left to
 * fs_run_tree (api/read.h). COUNT_DISTINCT: the distinct stacks are counted (UNIQUE) where no
 * engine counts them (a cut). */
foldsvg_status fs_run_read(fs_run *r, int count_distinct, foldsvg_error *err);
/* SORT: the sorted stacks to PUT, those below CUT_BELOW (0: none) cut short past what can be
 * drawn (fs_sorter_finish). */
foldsvg_status fs_run_finish(fs_run *r, uint64_t cut_below, foldsvg_error *err);

/* The first input with invalid lines, else the last: the one "nothing to draw" names. */
size_t fs_run_blamed(const fs_run *r);

#endif
