/* inferno's merge: stacks in order become frames (start/end in count units). Frames come
 * out in the order they close, which is the order inferno writes them. */
#ifndef FOLDSVG_FRAMES_MERGE_H
#define FOLDSVG_FRAMES_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/tree.h"
#include "foldsvg.h"

typedef struct fs_frame {
    uint32_t node; /* tree node (FS_NONE for frames not from a tree) */
    uint32_t name; /* interned name id; depth 0 is the root ("all") */
    uint32_t depth;
    uint64_t start, end;
    int64_t delta; /* differential: after - before of the line that opened it (self) */
    int64_t incl;  /* differential: after - before of every line under it (inclusive) */
    int has_delta;
} fs_frame;

typedef int (*fs_frame_fn)(void *user, const fs_frame *f);

/* The input order of an order-dependent render (--flamechart): one entry per run of lines
 * (or samples) with the same stack. */
typedef struct fs_order_log {
    uint32_t *leaf;
    uint64_t *count;
    uint64_t *before; /* NULL until a differential line is logged */
    uint8_t *is_diff;
    size_t n, cap;
} fs_order_log;

void fs_order_log_free(fs_order_log *log);
foldsvg_status fs_order_log_add(fs_order_log *log, uint32_t leaf, uint64_t count, uint64_t before,
                                int is_diff);

/* Generates the frames of TREE: in the byte order of the stacks, or, with LOG, in the
 * reverse order of the logged lines (inferno's flamechart). FN's non-zero return stops
 * the walk and is returned; *ST reports allocation failures. */
int fs_generate_frames(const fs_tree *tree, const fs_order_log *log, fs_frame_fn fn, void *user,
                       foldsvg_status *st);

/* after - before, saturated to the int64 range. */
int64_t fs_delta(uint64_t after, uint64_t before);
/* A + B, saturated to the int64 range. */
static inline int64_t fs_delta_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < -INT64_MAX - b)
        return -INT64_MAX;
    return a + b;
}
/* |D|, exact for every int64_t. */
static inline uint64_t fs_delta_abs(int64_t d)
{
    return d < 0 ? (uint64_t)(-(d + 1)) + 1 : (uint64_t)d;
}

#endif
