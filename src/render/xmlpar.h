/* Markup for a long run of sibling items written on two cores: items [0, n) in chunks, the
 * even chunks by the caller straight into its writer, the odd ones by a second thread with
 * a writer of its own into memory, copied into the caller's writer in order. The bytes are
 * the ones one writer would have written: an item's markup must not depend on the writer's
 * state (no indenting) nor on the items written before it, except through what the item
 * function itself carries from item to item (it sees every index, see SKIP). */
#ifndef FOLDSVG_RENDER_XMLPAR_H
#define FOLDSVG_RENDER_XMLPAR_H

#include <stddef.h>

#include "render/xmlw.h"

typedef struct fs_xmlpar {
    size_t n, chunk;
    /* Writes items [FROM, TO) with USER's writer, after items [its last TO, FROM) went
     * elsewhere (to catch up on any state they carry); nonzero stops the run. */
    int (*write)(void *user, size_t from, size_t to);
    void *user;        /* the caller's: its writer is OUT */
    void *worker_user; /* the second thread's: its writer is *WORKER_X, made here */
    fs_xmlw *worker_x;
} fs_xmlpar;

/* Writes every item into OUT. 0: done (a failure of either side is in OUT's state); -1: no
 * second thread could be started, nothing was written. */
int fs_xmlpar_run(fs_xmlw *out, const fs_xmlpar *p);

#endif
