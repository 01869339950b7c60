/* A sequence of fixed-size values appended in order and read back once, in order, for arrays
 * that grow with an input's samples but must be held until what they belong to is known (a
 * trace event's CPU profile, whose samples may come before the event's name): the latest
 * values in memory, at most FS_SPOOL_HELD of them, the earlier ones in a temporary file
 * (where none can be made, $TMPDIR unusable, all of them in memory). */
#ifndef FOLDSVG_UTIL_SPOOL_H
#define FOLDSVG_UTIL_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

enum { FS_SPOOL_HELD = 1 << 16 };

typedef struct fs_spool {
    size_t size;      /* bytes a value */
    unsigned char *v; /* the values in memory, after those in the file */
    size_t n, cap;
    size_t limit;        /* of them at most: FS_SPOOL_HELD, unbounded without a file */
    int fd;              /* the file, -1 until the first write */
    uint64_t written;    /* values in the file */
    uint64_t read;       /* of those, read back */
    unsigned char *back; /* the block read back */
    int done;            /* the values in memory were handed out */
} fs_spool;

void fs_spool_init(fs_spool *s, size_t size);
void fs_spool_free(fs_spool *s);
/* Empties S for another sequence (its memory kept, its file dropped). */
void fs_spool_clear(fs_spool *s);

/* Appends the N values at V. FOLDSVG_E_NOMEM. */
foldsvg_status fs_spool_add(fs_spool *s, const void *v, size_t n);

/* The values appended since the last clear. */
static inline uint64_t fs_spool_count(const fs_spool *s)
{
    return s->written + s->n;
}

/* The next values in order: *N of them at *V (valid until the next call), 0 after the last.
 * FOLDSVG_E_NOMEM, or FOLDSVG_E_IO with errno set. */
foldsvg_status fs_spool_next(fs_spool *s, const void **v, size_t *n);

#endif
