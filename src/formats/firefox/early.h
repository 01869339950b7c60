/* Gecko threads resolved as their object closes: a thread's summed stacks become nodes of
 * one store of stacks for the whole document (frame names and stacks interned once), and
 * its tables are given back, so that memory follows the distinct stacks (and each thread's
 * name and sums), not the threads: a profile of 320,000 one-sample threads that share one
 * stack keeps one stack.
 *
 * Only when nothing left in the document can make it other than Gecko: the top profile's
 * meta has closed without a preprocessedProfileVersion, its threads[0] has closed without a
 * stringArray, and the samples are not kept in order (--flamechart). A thread that does not
 * resolve cleanly (a missing table, an index out of range, a cycle, no memory) is kept as
 * it is, for the reader to report at the end as it always has. */
#ifndef FOLDSVG_FORMATS_FIREFOX_EARLY_H
#define FOLDSVG_FORMATS_FIREFOX_EARLY_H

#include <stddef.h>
#include <stdint.h>

#include "formats/firefox/model.h"
#include "util/strref.h"

typedef struct ff_store ff_store;

#define FF_NO_NODE UINT32_MAX /* the null stack: no frames */

/* T (of profile P) has just closed: resolved into the top profile's store when the document
 * is known to be Gecko (T->tab NULL then). Never fails: what does not resolve stays. */
void ff_early_resolve(ff_profile *p, ff_thread *t, const char *file);
/* The frames of NODE, root first, into *FRAMES (grown, *CAP entries); *N of them. The names
 * live as long as the store. FOLDSVG_E_NOMEM. */
foldsvg_status ff_store_frames(const ff_store *s, uint32_t node, fs_strref **frames, size_t *cap,
                               size_t *n);
void ff_store_free(ff_store *s);

#endif
