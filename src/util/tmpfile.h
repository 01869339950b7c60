/* Temporary files for data that does not fit in memory: created in $TMPDIR (else /tmp) and
 * unlinked at once, so nothing is left behind whatever happens to the process. */
#ifndef FOLDSVG_UTIL_TMPFILE_H
#define FOLDSVG_UTIL_TMPFILE_H

#include <stdio.h>

/* A descriptor open for reading and writing, or -1 (errno set). */
int fs_tmpfd(void);
/* The same as a stream ("w+b"), or NULL. */
FILE *fs_tmpfile(void);

#endif
