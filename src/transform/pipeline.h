/* The stack pipeline: every stack of every input passes here once, whatever reads it and
 * whatever takes it, in this order (docs/cli.md "The stack pipeline"):
 *
 *   --no-sort check (folded lines: each valid line's stack against the previous one's)
 *   -> zero-count rule (a stack without weight is dropped)
 *   -> Miden sanitizing (stacks from structured inputs, transform/sanitize.h)
 *   -> an empty stack becomes "[unknown]"
 *   -> --strip-hex (transform/hexstrip.h)
 *   -> --reverse -> --strip, --include/--exclude, --focus, --collapse-recursion
 * (transform/filter.h)
 *   -> --base
 *   -> the consumer: a prefix tree, the streaming merge, a sorter.
 *
 * Fractional weights (sink->weight) are summed per sanitized stack and enter the pipeline
 * after sanitizing, rounded, at the input's end (transform/fracsum.h). A folded line that no
 * transform touches is passed on whole (consumer->path); otherwise frames are.
 *
 * A pipeline is a value built once per run from the stack options, with no globals: several
 * may run side by side (two inputs into two consumers). */
#ifndef FOLDSVG_TRANSFORM_PIPELINE_H
#define FOLDSVG_TRANSFORM_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/sink.h"
#include "transform/stackopts.h"

/* Where the stacks that come through go. Each callback returns FOLDSVG_OK, an error it wrote
 * to ERR (naming the input and line), or FS_STOP to end the read early. */
typedef struct fs_consumer {
    void *user;
    /* A folded line as the reader gave it, when no transform applies. NULL: the pipeline
     * splits it and calls frames. */
    foldsvg_status (*path)(void *user, const fs_folded_line *l, foldsvg_error *err);
    /* A stack, root first, never empty, with its counts (BEFORE and IS_DIFF: differential
     * folded lines; LINENO: 0 when the input has no lines). NULL: the pipeline joins the
     * frames with ';' and calls path. */
    foldsvg_status (*frames)(void *user, const fs_strref *frames, size_t n, uint64_t count,
                             uint64_t before, int is_diff, uint64_t lineno, foldsvg_error *err);
    /* What the reader says about the input (formats/sink.h); each may be NULL. */
    void (*count_name)(void *user, const char *name);
    void (*facts)(void *user, const char *format, const char *product, uint32_t threads,
                  uint64_t rate);
    void (*stats)(void *user, const fs_folded_stats *s);
    void (*warn)(void *user, const foldsvg_error *w);
    void (*threads)(void *user, const char *names);
    void (*say)(void *user, const char *line);
    /* Parts of an input read on other threads (fs_sink.fork), for a consumer that sums its
     * stacks whatever their order: fork() a part of its own (NULL: not now), part_path()
     * is path() for it (on the part's thread), join() and drop() as fs_sink's. All or none
     * may be set; the pipeline forks only when nothing but the zero-count rule applies. */
    /* frames() that also names the stack it made of them by a TOKEN, and again() for
     * that stack once more with COUNT: for readers that give the same stacks many times
     * (fs_sink.again). Both or neither may be set. */
    foldsvg_status (*frames_token)(void *user, const fs_strref *frames, size_t n, uint64_t count,
                                   uint32_t *token, foldsvg_error *err);
    foldsvg_status (*again)(void *user, uint32_t token, uint64_t count, foldsvg_error *err);
    void *(*fork)(void *user);
    foldsvg_status (*part_path)(void *part, const fs_folded_line *l, foldsvg_error *err);
    foldsvg_status (*join)(void *user, void *part, uint64_t lines_before, int *joined,
                           foldsvg_error *err);
    void (*drop)(void *user, void *part);
} fs_consumer;

typedef struct fs_pipeline fs_pipeline;

/* The stacks a pipeline dropped, by the step that dropped them (n[FS_DROP_NONE] unused), and
 * the input named when nothing is left: the first one an option dropped a stack from, else
 * the first with a zero count. */
typedef struct fs_drops {
    uint64_t n[FS_DROP_N];
    char input[1024];
    int by_option; /* INPUT is one an option dropped from */
    /* How a step's option was spelled ("--include 'x'") where the options in hand are not
     * the ones that dropped (a part of a run, api/facts.h); "" otherwise. */
    char what[FS_DROP_N][256];
} fs_drops;

/* Adds the drops FROM to TO (inputs read by pipelines of their own). */
void fs_drops_add(fs_drops *to, const fs_drops *from);
/* Whether an option (not the zero-count rule) dropped a stack. */
int fs_drops_by_option(const fs_drops *d);

/* A pipeline for the options O (which must outlive it) into TO (copied). The filters are
 * compiled here: a bad pattern is FOLDSVG_E_USAGE. */
foldsvg_status fs_pipeline_new(fs_pipeline **out, const fs_stack_opts *o, const fs_consumer *to,
                               foldsvg_error *err);
void fs_pipeline_free(fs_pipeline *pl);

/* Whether stacks are rewritten (strip-hex, reverse, base, filters): folded lines are then
 * split. */
int fs_pipeline_rewrites(const fs_pipeline *pl);

/* A new input named NAME (for messages; copied): the sink its reader feeds. */
fs_sink *fs_pipeline_begin(fs_pipeline *pl, const char *name);
/* Whether the input just begun was named by a symbolizer (FS_FORMAT_SYMBOLIZED): its Rust
 * symbol hashes are then dropped, unless --keep-rust-hash (--strip-rust-hash drops them from
 * every input). Call after fs_pipeline_begin, before its first stack. */
void fs_pipeline_symbolized(fs_pipeline *pl, int yes);
/* The input ended well: fractional sums are rounded and passed on. */
foldsvg_status fs_pipeline_end(fs_pipeline *pl, foldsvg_error *err);

/* What PL dropped since it was made or since the last reset (a route's second pass). */
const fs_drops *fs_pipeline_drops(const fs_pipeline *pl);
void fs_pipeline_reset_drops(fs_pipeline *pl);

/* The message of an unsorted line under --no-sort: LINE of NAME sorts before PREV_LINE. */
foldsvg_status fs_unsorted_error(foldsvg_error *err, const char *name, uint64_t line,
                                 uint64_t prev_line);

#endif
