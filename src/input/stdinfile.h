/* Standard input that is a regular file (`foldsvg < in.folded`) can be read again from where
 * it started by seeking back there, without the copy a pipe needs for a second reading. */
#ifndef FOLDSVG_INPUT_STDINFILE_H
#define FOLDSVG_INPUT_STDINFILE_H

#include <sys/stat.h>
#include <sys/types.h>

#include "foldsvg.h"

typedef struct fs_stdin_file {
    int ok; /* standard input is a regular file, at START */
    off_t start;
    struct stat id; /* as it was then: one that changed since is not read again */
} fs_stdin_file;

/* F->ok when standard input, not read from yet, is a regular file that can seek. */
void fs_stdin_file_probe(fs_stdin_file *f);
/* Standard input back at F->start for another reading: FOLDSVG_E_IO (in ERR) when the file's
 * size or time changed since the probe or it cannot seek. */
foldsvg_status fs_stdin_file_rewind(const fs_stdin_file *f, foldsvg_error *err);

/* A path that opens standard input's file anew, with an offset of its own (for reading it
 * in parts at once): "/proc/self/fd/0" on Linux, NULL where there is none. */
const char *fs_stdin_file_path(void);

#endif
