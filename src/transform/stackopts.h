/* The stack pipeline's settings (transform/pipeline.h), apart so that its stages (the filters)
 * take them without seeing the pipeline. */
#ifndef FOLDSVG_TRANSFORM_STACKOPTS_H
#define FOLDSVG_TRANSFORM_STACKOPTS_H

#include "util/strlist.h"

/* What the stack options say (the option table's rows of stages "input" and "stack" write
 * here, src/api/optrow.c; nothing else does). */
typedef struct fs_stack_opts {
    int strip_hex;       /* --strip-hex: "0x1f" in names becomes "0x..." */
    int reverse;         /* --reverse */
    fs_strlist base;     /* --base SYM... */
    fs_strlist strip;    /* --strip RE..., in order */
    int strip_rust_hash; /* --strip-rust-hash, before the --strip patterns */
    int keep_rust_hash;  /* --keep-rust-hash: symbolized inputs keep them too (else dropped) */
    fs_strlist include, exclude, focus; /* --include, --exclude, --focus RE... */
    int collapse_recursion;             /* --collapse-recursion */
    int no_sort;                        /* --no-sort: check the input's order */
    int flamechart;                     /* --flamechart: the input's order is kept (no --base) */
} fs_stack_opts;

/* The step of the pipeline that dropped a stack (FS_DROP_NONE: none, the stack goes on), so
 * that "nothing to draw" can name the options responsible (transform/pipeline.h counts them). */
typedef enum fs_drop {
    FS_DROP_NONE,
    FS_DROP_ZERO,    /* its count is 0 */
    FS_DROP_INCLUDE, /* no frame matches --include */
    FS_DROP_EXCLUDE, /* a frame matches --exclude */
    FS_DROP_FOCUS,   /* no frame matches --focus */
    FS_DROP_BASE,    /* no frame but the outermost is named by --base */
    FS_DROP_N
} fs_drop;

#endif
