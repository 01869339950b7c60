/* A set of 64-bit values that says whether each added one is new: for counting distinct
 * things by a hash of them where keeping the things would cost what the counting is meant to
 * save (a flame chart's distinct stacks, counted as it streams by). Open addressing with
 * linear probing, between a quarter and half full: 16 to 32 bytes a value. */
#ifndef FOLDSVG_UTIL_U64SET_H
#define FOLDSVG_UTIL_U64SET_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

typedef struct fs_u64set {
    uint64_t *slots; /* 0 = empty; the value 0 itself is HAS_ZERO */
    size_t mask, n;
    int has_zero;
} fs_u64set;

void fs_u64set_init(fs_u64set *s);
void fs_u64set_free(fs_u64set *s);
/* Adds V; *ADDED (may be NULL) tells whether it was new. FOLDSVG_E_NOMEM leaves the set as it
 * was. */
foldsvg_status fs_u64set_add(fs_u64set *s, uint64_t v, int *added);

/* Adds every value of FROM to TO (sets filled on two threads). FOLDSVG_E_NOMEM (TO then
 * holds some of them). */
foldsvg_status fs_u64set_add_all(fs_u64set *to, const fs_u64set *from);

static inline size_t fs_u64set_size(const fs_u64set *s)
{
    return s->n;
}

#endif
