/* Output files that never end up partial: a regular (or new) target is written to a
 * temporary file beside it and renamed over it only on success. */
#ifndef FOLDSVG_UTIL_OUTFILE_H
#define FOLDSVG_UTIL_OUTFILE_H

#include <stdio.h>

#include "foldsvg.h"

typedef struct fs_outfile {
    FILE *f;
    char *target;
    char *tmp; /* NULL when writing directly (stdout, a FIFO, a device) */
    int is_stdout;
} fs_outfile;

/* PATH "-" (or NULL) is standard output. Errors name PATH. */
foldsvg_status fs_outfile_open(fs_outfile *o, const char *path, foldsvg_error *err);
/* Flushes, closes and renames into place. On failure the target is untouched. */
foldsvg_status fs_outfile_commit(fs_outfile *o, foldsvg_error *err);
/* Drops everything written (removes the temporary file). */
void fs_outfile_abort(fs_outfile *o);

#endif
