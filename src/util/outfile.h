/* The one atomic-output module: files that never end up partial. A regular (or new) target
 * is written to a temporary file beside it (same directory, so the rename is atomic) and
 * renamed over it only on success; a failure leaves the old file as it was.
 *
 * Permissions: the temporary file is created with open(O_CREAT | O_EXCL, 0666), so the
 * kernel applies the process umask exactly as for any new file, and an existing target's
 * permission bits are copied to it (fchmod). Nothing here reads or sets the umask: umask()
 * is process-wide, and calling it to read the value (umask(0); umask(old)) races with every
 * other thread creating files meanwhile; the library is used from several threads.
 *
 * A target that is a symbolic link is not replaced by a file: the file the link names (at
 * the end of the chain; a dangling link names the file to create) is written, atomically
 * beside itself, as the shell's '>' and inferno write through links.
 *
 * Signals: while it exists, every temporary file is registered (util/pending.h), so that
 * the application's signal handler can remove it (foldsvg_remove_pending_outputs); the
 * library installs no handler itself. */
#ifndef FOLDSVG_UTIL_OUTFILE_H
#define FOLDSVG_UTIL_OUTFILE_H

#include <stdint.h>
#include <stdio.h>

#include "foldsvg.h"

/* The temporary file of one atomic replacement. */
typedef struct fs_atomic {
    int fd;       /* -1 when none is open */
    char *target; /* the file written: PATH with its links followed */
    char *tmp;
    struct fs_pending_slot *pending; /* TMP's registration, NULL when none */
} fs_atomic;

/* Creates the temporary file for PATH (named ".NAME.XXXXXX" beside it, or beside the file
 * the link PATH names). -1 with errno set (the struct is then empty). */
int fs_atomic_open(fs_atomic *a, const char *path);
/* Closes the file (unless the caller's stream already did: A->fd = -1) and renames it over
 * the target. -1 with errno set, the temporary file removed. */
int fs_atomic_commit(fs_atomic *a);
/* Removes the temporary file (closing it unless A->fd is -1). */
void fs_atomic_abort(fs_atomic *a);

/* An output stream: standard output, a device or FIFO written in place, or an atomic
 * replacement. */
typedef struct fs_outfile {
    FILE *f;
    char *path;       /* NULL for standard output */
    fs_atomic atomic; /* atomic.tmp NULL when writing in place */
    int is_stdout;
    int reserved; /* fs_outfile_reserve gave the file space ahead */
} fs_outfile;

/* PATH "-" (or NULL) is standard output. Errors name PATH. */
foldsvg_status fs_outfile_open(fs_outfile *o, const char *path, foldsvg_error *err);
/* Gives an output that is a new file disk space for about BYTES ahead of its writes
 * (util/reserve.h), where the system can: ext4 then allocates no blocks page by page, and a
 * rename over an existing file no longer starts their allocation (4 MB written and renamed in
 * 1.7 instead of 2.7 ms). What is not written is given back at fs_outfile_commit. */
void fs_outfile_reserve(fs_outfile *o, uint64_t bytes);
/* Flushes, closes and renames into place. On failure the target is untouched. */
foldsvg_status fs_outfile_commit(fs_outfile *o, foldsvg_error *err);
/* Drops everything written (removes the temporary file). */
void fs_outfile_abort(fs_outfile *o);

/* Whether writing A and writing B reach one file ("-" is standard output), however they are
 * spelled: through links, /dev/stdout and /dev/fd/N, a relative or an absolute name, a file
 * that exists or one to create. Two outputs there would leave one of them, or both mixed. A
 * character device (/dev/null, a terminal) is no one file. */
int fs_outfile_same(const char *a, const char *b);

#endif
