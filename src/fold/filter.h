/* Stack filters and name transforms with PCRE2 (--strip, --strip-rust-hash, --include,
 * --exclude, --focus, --collapse-recursion), in the order of the pipeline in
 * docs/cli.md. */
#ifndef FOLDSVG_FOLD_FILTER_H
#define FOLDSVG_FOLD_FILTER_H

#include <stddef.h>

#include "fold/stackopts.h"
#include "foldsvg.h"
#include "util/strref.h"

typedef struct fs_filter fs_filter;

/* Compiles PATTERN as given to --FLAG ("strip", "include", "exclude", "focus") to check it:
 * FOLDSVG_E_USAGE naming the flag, quoting the pattern, with PCRE2's message and offset. */
foldsvg_status fs_filter_check_pattern(const char *flag, const char *pattern, foldsvg_error *err);

/* Compiles the filters set in OPTS. *OUT is NULL when none is set. */
foldsvg_status fs_filter_new(fs_filter **out, const fs_stack_opts *opts, foldsvg_error *err);
void fs_filter_free(fs_filter *f);

/* Applies the filters to FRAMES[0..*n) (root first) in place. Names rewritten by --strip
 * point into memory owned by F, valid until the next call. Frames whose name becomes empty
 * are removed (*n may become 0: the caller records "[unknown]"). *DROP says whether the
 * stack stays (FS_DROP_NONE) or which filter dropped it. FOLDSVG_E_NOMEM. F NULL keeps every
 * stack as it is. */
foldsvg_status fs_filter_apply(fs_filter *f, fs_strref *frames, size_t *n, fs_drop *drop);

#endif
