/* An upper bound of every frame's total in fixed memory, so that an unsorted input of many
 * distinct stacks can be summed without the tails no one draws. A first reading adds each
 * stack's count to a counter per hash of each of its prefixes that ends a frame; two prefixes
 * that share a counter only make it larger, and a prefix is no wider than the one it
 * extends, so a prefix's bound is the least counter on its path. A second reading cuts each
 * stack just past its first frame whose bound is below what can be drawn: that frame's
 * total and everything before it are kept, only frames at least as narrow are lost.
 *
 * Only the bytes of a prefix are hashed for it (four words of each frame: its last 16 bytes,
 * its first 8 and 8 from its middle; its length and the prefix's), so the bound holds
 * whatever the names; names that differ only elsewhere share counters, which makes the
 * bounds looser, never wrong. */
#ifndef FOLDSVG_AGGREGATE_SKETCH_H
#define FOLDSVG_AGGREGATE_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

typedef struct fs_sketch {
    uint32_t *counters; /* saturating: UINT32_MAX bounds nothing */
    size_t mask;
    unsigned shift;
} fs_sketch;

/* An empty sketch of 2^BITS counters, 4 bytes each (0: the default, 2^18; at most 30; fewer
 * for tests, where more prefixes share each). FOLDSVG_E_NOMEM. */
foldsvg_status fs_sketch_init(fs_sketch *k, unsigned bits);
void fs_sketch_free(fs_sketch *k);

/* Adds COUNT to every prefix of STACK that ends a frame, and to STACK. */
void fs_sketch_add(fs_sketch *k, const char *stack, size_t len, uint64_t count);
/* Adds FROM's counters to TO's (a part of the input read on another thread). */
void fs_sketch_join(fs_sketch *to, const fs_sketch *from);
/* The length STACK is cut to: through the ';' after its first frame whose bound is below
 * BELOW (a count that cannot be drawn), LEN when there is none or that frame is the last. */
size_t fs_sketch_cut(const fs_sketch *k, const char *stack, size_t len, uint64_t below);

#endif
