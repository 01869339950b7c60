/* Which threads of a profile --thread picks. Each value is a thread index (digits: what
 * --list-threads shows first), a regular expression between slashes (/^Worker/: PCRE2,
 * matched anywhere in the thread's name unless anchored), or else a name, matched exactly.
 * Several values pick their union; none picks every thread. */
#ifndef FOLDSVG_FORMATS_THREADSEL_H
#define FOLDSVG_FORMATS_THREADSEL_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/strlist.h"

typedef struct fs_threadsel fs_threadsel;

/* Whether VALUE is a valid --thread value: FOLDSVG_E_USAGE with PCRE2's message for a bad
 * expression, or for an index too large. */
foldsvg_status fs_threadsel_check(const char *value, foldsvg_error *err);

/* *OUT: the selection of VALUES (checked as above). FOLDSVG_E_USAGE, FOLDSVG_E_NOMEM. */
foldsvg_status fs_threadsel_new(fs_threadsel **out, const fs_strlist *values, foldsvg_error *err);
void fs_threadsel_free(fs_threadsel *s);

/* Whether the selection picks only some threads (a value was given). */
int fs_threadsel_some(const fs_threadsel *s);
/* Whether thread INDEX named NAME (NULL: unnamed) is picked: 1 or 0, and each value that
 * picks it is marked as used; -1 when PCRE2 ran out of memory, -2 when a match hit one of
 * its limits (util/regex.h), so whether it picks the thread is unknown. */
int fs_threadsel_picks(fs_threadsel *s, size_t index, const char *name);
/* After -2: the limit, in words, and (*VALUE) the value as given whose match hit it. */
const char *fs_threadsel_limit(const fs_threadsel *s, const char **value);
/* The first value that picked no thread (as the user wrote it), or NULL; *INDEX gets its
 * index when it is one, else -1. */
const char *fs_threadsel_unused(const fs_threadsel *s, long *index);

/* The whole selection over a profile's N threads, NAMES[i] each (NULL: unnamed; WITH[i]: it
 * has samples, NULL: all have), for the readers of profiles with threads: *PICKED gets N
 * bytes, 1 for a picked thread (NULL when every thread is, no value given), to free().
 * A value that picks no thread is FOLDSVG_E_USAGE naming the threads there are (FILE names
 * the input); a PCRE2 limit FOLDSVG_E_LIMIT. With ONE (--flamechart, which draws one
 * thread's samples in their order), more than one picked thread with samples is
 * FOLDSVG_E_USAGE naming them, and *PICKED keeps only the one with samples. */
foldsvg_status fs_threadsel_pick(fs_threadsel *s, size_t n, const char *const *names,
                                 const uint8_t *with, int one, uint8_t **picked, const char *file,
                                 foldsvg_error *err);

#endif
