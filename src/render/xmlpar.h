/* Markup for a long run of sibling items written on two cores: items [0, n) in chunks, each
 * chunk by whichever of two writers into memory is free (one on the caller's thread, one a
 * task of the pool), copied into the caller's writer in order. The bytes are the ones one
 * writer would have written: an item's markup must not depend on the writer's state (no
 * indenting) nor on the items written before it, except through what the item function
 * itself carries from item to item (each writer's chunks come in increasing order; it sees
 * every index, see WRITE). */
#ifndef FOLDSVG_RENDER_XMLPAR_H
#define FOLDSVG_RENDER_XMLPAR_H

#include <stddef.h>

#include "render/xmlw.h"
#include "util/pool.h"

typedef struct fs_xmlpar {
    size_t n, chunk;
    /* Writes items [FROM, TO) with USER's writer, after items [its last TO, FROM) went
     * elsewhere (to catch up on any state they carry); nonzero stops the run. */
    int (*write)(void *user, size_t from, size_t to);
    /* The two writers' users: USER[I]'s writer is *X[I], made here; 0 writes on the
     * caller's thread, 1 on the second. */
    void *user[2];
    fs_xmlw *x[2];
} fs_xmlpar;

/* Writes every item into OUT. 0: done (a failure of either side is in OUT's state); -1: the
 * pool has one thread (or no writer could be made), nothing was written. */
int fs_xmlpar_run(fs_xmlw *out, const fs_xmlpar *p, fs_pool *pool);

#endif
