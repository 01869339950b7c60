/* Stack filters and name transforms with PCRE2 (--strip, --strip-rust-hash, --include,
 * --exclude, --focus, --collapse-recursion), in the order of the pipeline in
 * docs/cli.md. */
#ifndef FOLDSVG_TRANSFORM_FILTER_H
#define FOLDSVG_TRANSFORM_FILTER_H

#include <stddef.h>

#include "foldsvg.h"
#include "transform/stackopts.h"
#include "util/strref.h"

typedef struct fs_filter fs_filter;

/* Compiles PATTERN as given to --FLAG ("strip", "include", "exclude", "focus") to check it:
 * FOLDSVG_E_USAGE naming the flag, quoting the pattern, with PCRE2's message and offset. */
foldsvg_status fs_filter_check_pattern(const char *flag, const char *pattern, foldsvg_error *err);

/* Compiles the filters set in OPTS. *OUT is NULL when none is set. */
foldsvg_status fs_filter_new(fs_filter **out, const fs_stack_opts *opts, foldsvg_error *err);
void fs_filter_free(fs_filter *f);

/* Applies the filters to FRAMES[0..*n) (root first) in place. SAME: how many of the first
 * frames are those of the stack of the last call (sorted folded lines share most), whose
 * names are not looked at again; 0 when unknown. Names rewritten by --strip
 * point into memory owned by F, valid until the next call. Frames whose name becomes empty
 * are removed (*n may become 0: the caller records "[unknown]"). *DROP says whether the
 * stack stays (FS_DROP_NONE) or which filter dropped it. FOLDSVG_E_NOMEM; FOLDSVG_E_LIMIT
 * when what becomes of the stack depends on a match that hit one of PCRE2's limits
 * (fs_filter_message says which pattern, on which frame). F NULL keeps every stack as it
 * is. */
foldsvg_status fs_filter_apply(fs_filter *f, fs_strref *frames, size_t *n, size_t same,
                               fs_drop *drop);
/* Whether fs_filter_screen can tell the stacks F leaves as they are: its patterns (none of
 * --include or --focus) have conditions a byte test checks. */
int fs_filter_screens(const fs_filter *f);
/* For S[0..len), frames joined by ';' (the first whole): where the first frame that a
 * pattern of F may match starts, SIZE_MAX when there is none (--collapse-recursion is the
 * caller's to check). Not called when fs_filter_screens says no. */
size_t fs_filter_screen(const fs_filter *f, const char *s, size_t len);
/* Why the last fs_filter_apply returned FOLDSVG_E_LIMIT: one line. A limit hit on a name
 * whose verdict decided nothing is no error, but a limit hit on too many distinct names is
 * (the run would take names x limit). */
const char *fs_filter_message(const fs_filter *f);
/* Limits hit since the last call on names that decided nothing: 1 with one line into BUF
 * (the pattern, how many names, the first), 0 when there were none. */
int fs_filter_warning(fs_filter *f, char *buf, size_t size);

#endif
