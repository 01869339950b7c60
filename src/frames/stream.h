/* Merging stacks that arrive already sorted (what stack collapsers write), without a
 * tree: frames come out as inferno's merge makes them, and only those that can still be
 * drawn are kept. A frame narrower than minwidth percent of the running total will be
 * narrower than that of the final total too, so memory grows with the frames drawn, not
 * with the input. */
#ifndef FOLDSVG_FRAMES_STREAM_H
#define FOLDSVG_FRAMES_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/tree.h"
#include "foldsvg.h"
#include "frames/merge.h"
#include "util/buf.h"

typedef struct fs_stream_open {
    size_t off, len; /* the name, in prev */
    uint64_t start;
    int64_t delta, incl; /* incl: of the stacks under it so far */
    int has_delta;
    size_t stack; /* the stack whose leaf it is (its delta's), or SIZE_MAX */
    size_t first; /* the first stack under it */
} fs_stream_open;

/* fs_stream_defer_deltas: a kept frame's stacks, so that its deltas can be made again */
typedef struct fs_stream_span {
    size_t leaf;        /* the stack whose leaf it is, or SIZE_MAX */
    size_t first, last; /* the stacks under it */
} fs_stream_span;

typedef struct fs_stream {
    fs_tree names;        /* only its name table is used: names of kept frames */
    double minwidth;      /* percent, as --minwidth */
    uint64_t final_total; /* when known in advance (sorted input): prune against it */
    double limit;         /* frames narrower than this are pruned... */
    uint64_t limit_t;     /* ...at this total */
    fs_buf prev;          /* the stack taken last */
    /* The stack added last, held until the next one shows where they first differ (or the
     * end comes): its frames past there are its own, as wide as its count */
    fs_buf held;
    size_t held_shared; /* where it first differs from PREV (SIZE_MAX: PREV is none) */
    uint64_t held_count, held_before;
    int held_diff, have_held;
    fs_stream_open *open;
    size_t depth, open_cap; /* open[0] is the root */
    uint64_t t;             /* running total */
    /* The current stack: its frames start at open[opened_from]; its summed counts (all
     * lines) and first counts (differential lines) give the leaf's delta, as in the tree. */
    size_t opened_from;
    uint64_t leaf_count, leaf_before;
    int leaf_diff;
    /* The largest |delta| of any frame, pruned ones included: the color scale of a
     * differential graph is set by every stack, drawn or not (inferno's). */
    uint64_t delta_max;
    size_t unique;
    fs_frame *kept;
    size_t nkept, kept_cap, compact_at;
    /* kept[0..interned) name the table's names; the name of a later one is the offset in
     * PENDING of its length (4 bytes) and bytes: it is interned at the next compaction only
     * if it is still wide enough then (most are not, early on), or at the end */
    size_t interned;
    fs_buf pending;
    /* fs_stream_defer_deltas: every stack's counts, and the stack of each kept frame, so
     * that the deltas can be made again once BEFORE's scale is known */
    int defer;
    uint64_t *stack_before, *stack_after;
    size_t nstacks, stacks_cap;
    fs_stream_span *kept_stack; /* parallel to kept */
    size_t kept_stack_cap;
    uint32_t *scan; /* the new frames' ';' */
    size_t nscan, scan_cap;
    int any_order; /* fs_stream_any_order: a flame chart's stacks, in the input's order */
} fs_stream;

foldsvg_status fs_stream_init(fs_stream *s, double minwidth);
void fs_stream_free(fs_stream *s);

/* Adds one stack. *OUT_OF_ORDER is set (and nothing changes) when STACK sorts before the
 * previous one: the input is not sorted. A stack may come cut short past the frame where it
 * first differs from both of its neighbours and one byte more, when its count is below
 * fs_stream_cut_below: its own frames past there are too narrow to draw. */
foldsvg_status fs_stream_add(fs_stream *s, const char *stack, size_t len, uint64_t count,
                             uint64_t before, int is_diff, int *out_of_order);
/* The count below which a stack's own frames are too narrow to draw at the final total (0
 * when that is not known, or for a stream whose stacks' frames all count). */
uint64_t fs_stream_cut_below(const fs_stream *s);
/* Closes every open frame. The kept frames are then s->kept[0..nkept) (only those the
 * final total leaves wide enough to draw), names in s->names, total s->t (also in
 * s->names.total). */
foldsvg_status fs_stream_finish(fs_stream *s);

/* Takes the stacks in any order, as a flame chart draws them (none is out of order): the
 * frames of consecutive stacks merge where the stacks agree, as in sorted input. Call before
 * the first stack; then fs_stream_mirror after fs_stream_finish. */
void fs_stream_any_order(fs_stream *s);
/* After fs_stream_finish on a stream in any order: the kept frames as inferno draws a flame
 * chart, which takes the stacks last to first (the last at the left): each frame's x range
 * mirrored within the total, and the frames in the order that drawing closes them (by their
 * new end, then shallowest first). */
void fs_stream_mirror(fs_stream *s);

/* Keeps every stack's two counts (16 bytes a distinct stack) and which stack each kept frame
 * takes its delta from, for fs_stream_rescale: a diff's BEFORE normalized once both totals
 * are known, without reading the inputs twice. Call before the first stack. Only for a
 * positive minwidth: a stack whose counts both become 0 must leave no frame, and only
 * frames of width 0, which a positive minwidth prunes, can be its own. */
void fs_stream_defer_deltas(fs_stream *s);
/* After fs_stream_finish: every delta (and delta_max) made again with each stack's BEFORE
 * taken through SCALE, the inclusive ones too. Returns the stacks that keep a count on either
 * side. The stacks' counts are running sums afterwards (read them before). */
size_t fs_stream_rescale(fs_stream *s, uint64_t (*scale)(void *user, uint64_t before), void *user);

#endif
