/* Equal stacks summed for a part of an input read on a thread of its own (formats/folded/split.c):
 * the part's lines go into a table of their own, handed to the route's aggregate once the
 * part is joined. An input that sums well (few distinct stacks, repeated) fits a small table;
 * one that does not makes the tally give up early, and the part is read again where its
 * lines would have gone: the budget bounds the memory and the work lost. */
#ifndef FOLDSVG_AGGREGATE_TALLY_H
#define FOLDSVG_AGGREGATE_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/strmap.h"

typedef struct fs_tally_sum {
    uint64_t count, before, hash;
    uint64_t line; /* of the stack's first line, in the part */
    int is_diff;
} fs_tally_sum;

typedef struct fs_tally {
    fs_strmap map; /* stacks, in the order first seen: entry I's sums are sums[I] */
    fs_tally_sum *sums;
    size_t cap;
    uint64_t total, total_before; /* of every line taken */
    size_t bytes, budget;
    int gave_up;                 /* it holds nothing then, and takes nothing more */
    uint32_t window, window_new; /* lines since the last look at the rate of new stacks */
} fs_tally;

/* A tally holding at most about BUDGET bytes. */
void fs_tally_init(fs_tally *t, size_t budget);
void fs_tally_free(fs_tally *t);
/* Adds a stack (HASH its fs_strmap_hash) seen on line LINE. FS_STOP when the tally gives
 * up (and frees what it held): the stack would pass the budget; or, once a quarter of it is
 * used, nine lines in ten of the last FS_TALLY_WINDOW were new stacks (drawn alike, the
 * distinct stacks would then take ten times what it holds: more than the budget, and early
 * is cheaper); or a total would pass 2^64-1 (its line then gets the error where it is read
 * again). FOLDSVG_E_NOMEM. */
#define FS_TALLY_WINDOW 4096
foldsvg_status fs_tally_add(fs_tally *t, const char *stack, size_t len, uint64_t hash,
                            uint64_t count, uint64_t before, int is_diff, uint64_t line);

#endif
