/* One side of a diff (api/diff.c): an input, or a profile, whose stacks come out of the stack
 * pipeline in byte order, each distinct stack once with its summed count, to be merge-joined
 * with the other side's (aggregate/diffjoin.h). The side runs as a relay producer
 * (aggregate/relay.h), on a thread of its own, in one of three modes, as single inputs take their
 * routes (api/convert.c):
 *  - STREAM: sorted folded text streams through as it is read, its order checked on the way
 *    (memory: the previous stack). An input that turns out unsorted stops the side with
 *    UNSORTED set: the caller reads it again in SORT mode. With CHECK_FIRST the input is
 *    read once before, to check its order and sum its total (a caller that needs the total
 *    before the join, or cannot start its output again, asks for that);
 *  - SORT: everything else (unsorted folded text, profiles, perf script) goes through a
 *    sorter (aggregate/sorter.h) within SORT_BUDGET bytes, spilling to $TMPDIR;
 *  - PROFILE: a profile's prefix tree, walked in order (a profile given by the caller, or
 *    the input read into one when the sorter cannot spill).
 * The side collects what the user is told (warnings, facts) to hand it over on the caller's
 * thread afterwards; progress goes through a lock shared by both sides. */
#ifndef FOLDSVG_API_DIFFSIDE_H
#define FOLDSVG_API_DIFFSIDE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate/relay.h"
#include "aggregate/sorter.h"
#include "api/profile.h"
#include "foldsvg.h"
#include "formats/sink.h"
#include "input/input.h"
#include "input/stdinfile.h"
#include "util/buf.h"

typedef enum fs_side_mode { FS_SIDE_STREAM, FS_SIDE_SORT, FS_SIDE_PROFILE } fs_side_mode;

/* Progress of both sides, one call at a time. */
typedef struct fs_side_progress {
    pthread_mutex_t mu;
    foldsvg_progress_fn fn;
    void *user;
} fs_side_progress;

enum { FS_SIDE_WARNINGS = 8 };

typedef struct fs_diff_side {
    /* set by fs_diff_side_init, then by the caller between runs */
    const foldsvg_options *o;
    const char *path;               /* the input ("-": standard input); NULL for PROFILE */
    const foldsvg_profile *profile; /* the caller's profile, or the one the input went to */
    fs_side_mode mode;
    int check_first;
    size_t sort_budget;
    fs_side_progress *progress; /* may be NULL */
    /* what the last run found */
    char name[1024]; /* for messages: the path, "<stdin>", or the caller's label */
    uint64_t total;  /* the summed counts of the stacks that passed the pipeline */
    /* TOTAL, set before the first stack is emitted when it is known then (the input was
     * read before: a check pass, a sorter, a profile); 0 while streaming in one pass. The
     * join reads it on its thread once the side's first stack came (aggregate/diffjoin.h). */
    uint64_t known_total;
    size_t unique; /* distinct stacks emitted */
    int unsorted;  /* a STREAM run stopped: the input is not sorted */
    fs_folded_stats stats;
    int has_stats;
    fs_drops drops; /* what the stack pipeline dropped, in the last reading */
    fs_profile_facts facts;
    char count_name[64]; /* the input's unit, "" when it said none */
    foldsvg_error err;   /* the run's failure */
    foldsvg_error warnings[FS_SIDE_WARNINGS];
    size_t nwarnings;
    /* private */
    int once;                 /* standard input, a pipe: it can be read only once */
    fs_stdin_file stdin_file; /* standard input that is a regular file: read again from here */
    FILE *spool;              /* the copy of such an input, for a second read */
    int read_once;            /* it was read once, into the spool */
    foldsvg_profile *owned;   /* the input read into a profile */
    fs_sorter *sorter;
    int pass;    /* what the consumer does with a stack (diffside.c) */
    fs_buf prev; /* the previous stack, its summed count pending */
    uint64_t pending;
    int have_prev;
    fs_sorted_fn emit;
    void *emit_user;
} fs_diff_side;

/* Whether PATH can be read only once (standard input, a pipe, a device): read again from a
 * copy. */
int fs_diff_read_once(const char *path);

/* A side reading PATH, or taking P's stacks (PATH NULL; NAME labels it). O outlives S. */
void fs_diff_side_init(fs_diff_side *s, const char *path, const foldsvg_profile *p,
                       const char *name, const foldsvg_options *o, size_t sort_budget,
                       fs_side_progress *progress);
void fs_diff_side_free(fs_diff_side *s);

/* The relay producer (USER: the side): one run in S->mode, everything it emits in byte
 * order, each stack once. Its failure is in S->err too. A side with nothing to draw fails
 * (FOLDSVG_E_NO_DATA naming the input). */
foldsvg_status fs_diff_side_produce(void *user, fs_sorted_fn emit, void *emit_user);

/* The warnings of the last run, to O's handler (on the caller's thread). */
void fs_diff_side_warn(const fs_diff_side *s);

#endif
