/* The stack pipeline's settings. */
#ifndef FOLDSVG_FOLD_PIPELINE_H
#define FOLDSVG_FOLD_PIPELINE_H

#include "util/strlist.h"

/* What the stack options say (the table rows of stages "input" and "stack" in
 * src/lib/options.c write here; nothing else does). */
typedef struct fs_stack_opts {
    int reverse;                        /* --reverse */
    fs_strlist base;                    /* --base SYM... */
    fs_strlist strip;                   /* --strip RE..., in order */
    int strip_rust_hash;                /* --strip-rust-hash, before the --strip patterns */
    fs_strlist include, exclude, focus; /* --include, --exclude, --focus RE... */
    int collapse_recursion;             /* --collapse-recursion */
    int no_sort;                        /* --no-sort: check the input's order */
    int flamechart;                     /* --flamechart: keep the input's order */
} fs_stack_opts;

#endif
