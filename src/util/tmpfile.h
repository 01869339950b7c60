/* Temporary files for data that does not fit in memory: created in $TMPDIR (else /tmp) and
 * unlinked at once, so nothing is left behind whatever happens to the process. */
#ifndef FOLDSVG_UTIL_TMPFILE_H
#define FOLDSVG_UTIL_TMPFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A descriptor open for reading and writing, or -1 (errno set). */
int fs_tmpfd(void);
/* The same as a stream ("w+b"), or NULL. */
FILE *fs_tmpfile(void);

/* Writes LEN bytes at P to FD whole: 0, or -1 with errno set (a part may have been written). */
int fs_write_all(int fd, const void *p, size_t len);
/* Reads LEN bytes at OFFSET of FD into P whole: 0, or -1 with errno set (EIO: the file ends
 * before). */
int fs_read_all(int fd, void *p, size_t len, uint64_t offset);

#endif
