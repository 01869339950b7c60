/* One side of a diff (api/diff.c): an input, read as planned for a side (api/plan.h, api/run.h),
 * or a profile, whose stacks come out in byte order, each distinct stack once with its summed
 * count, to be merge-joined with the other side's (aggregate/diffjoin.h). The side is a relay
 * producer (aggregate/relay.h), a task of the pool. Sorted folded text streams through as it
 * is read; a side found unsorted on the way stops (UNSORTED set) and is read again sorted when
 * the caller starts the join over. The side keeps what the user is told (warnings, facts) for
 * the caller's thread; progress goes through a lock shared by both sides. */
#ifndef FOLDSVG_API_DIFFSIDE_H
#define FOLDSVG_API_DIFFSIDE_H

#include <pthread.h>
#include <stdint.h>

#include "aggregate/relay.h"
#include "api/plan.h"
#include "api/profile.h"
#include "api/run.h"
#include "foldsvg.h"
#include "formats/sink.h"
#include "input/source.h"
#include "util/buf.h"
#include "util/pool.h"

/* Progress of both sides, one call at a time. */
typedef struct fs_side_progress {
    pthread_mutex_t mu;
    foldsvg_progress_fn fn;
    void *user;
} fs_side_progress;

enum { FS_SIDE_WARNINGS = 8 };

typedef struct fs_diff_side {
    /* set by fs_diff_side_init */
    foldsvg_options o; /* the caller's, warnings and progress through the side */
    const foldsvg_options *caller;
    const foldsvg_profile *profile; /* the caller's, or the one the input was read into */
    fs_source src;
    int has_src;
    fs_pool *pool;
    fs_side_progress *progress; /* may be NULL */
    /* set by the caller before the first run */
    int check; /* the join needs the total before the first stack, or cannot start over */
    /* what the last run found */
    char name[1024]; /* for messages: the path, "<stdin>", or the caller's label */
    uint64_t total;  /* the summed counts of the stacks that passed the pipeline */
    /* TOTAL, set before the first stack is emitted when it is known then (the input was
     * read before: a check, a sorter, a profile); 0 while streaming in one reading. The
     * join reads it on its thread once the side's first stack came (aggregate/diffjoin.h). */
    uint64_t known_total;
    size_t unique; /* distinct stacks emitted */
    int unsorted;  /* a streamed run stopped: the input is not sorted */
    fs_folded_stats stats;
    int has_stats;
    fs_drops drops; /* what the stack pipeline dropped, in the last reading */
    fs_profile_facts facts;
    char count_name[FS_UNIT_SIZE]; /* the input's unit, "" when it said none */
    foldsvg_error err;             /* the run's failure */
    foldsvg_error warnings[FS_SIDE_WARNINGS];
    size_t nwarnings;
    /* private */
    fs_plan plan;
    int planned;
    fs_run run;
    int have_run;
    foldsvg_profile *owned; /* the input read into a profile */
    int checking;           /* this reading only checks the order and sums */
    fs_buf prev;            /* the previous stack, its summed count pending */
    uint64_t pending;
    int have_prev;
    fs_sorted_fn emit;
    void *emit_user;
} fs_diff_side;

/* A side reading PATH, or taking P's stacks (PATH NULL; NAME labels it), its tasks on POOL.
 * DUP: the other side is standard input too. O outlives S. */
void fs_diff_side_init(fs_diff_side *s, const char *path, int dup, const foldsvg_profile *p,
                       const char *name, const foldsvg_options *o, fs_pool *pool,
                       fs_side_progress *progress);
void fs_diff_side_free(fs_diff_side *s);

/* The relay producer (USER: the side): one run, everything it emits in byte order, each
 * stack once. Its failure is in S->err too. A side with nothing to draw fails
 * (FOLDSVG_E_NO_DATA naming the input). */
foldsvg_status fs_diff_side_produce(void *user, fs_sorted_fn emit, void *emit_user);

/* The warnings of the last run, to the caller's options' handler (on the caller's thread). */
void fs_diff_side_warn(const fs_diff_side *s);
/* A warning when the two sides of a diff count different units (cycles before, samples
 * after): their difference mixes them. Sides that name none (folded text) say nothing. */
void fs_diff_sides_warn_units(const fs_diff_side *before, const fs_diff_side *after);

#endif
