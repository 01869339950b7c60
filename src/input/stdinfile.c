#include "input/stdinfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

void fs_stdin_file_probe(fs_stdin_file *f)
{
    memset(f, 0, sizeof *f);
    f->ok = fstat(fileno(stdin), &f->id) == 0 && S_ISREG(f->id.st_mode) &&
            (f->start = ftello(stdin)) >= 0;
}

foldsvg_status fs_stdin_file_rewind(const fs_stdin_file *f, foldsvg_error *err)
{
    struct stat now;
    clearerr(stdin);
    if (fstat(fileno(stdin), &now) != 0 || now.st_size != f->id.st_size ||
        now.st_mtime != f->id.st_mtime)
        return fs_error(err, FOLDSVG_E_IO, "<stdin>",
                        "the input changed while it was read (it is read twice in places)");
    if (fseeko(stdin, f->start, SEEK_SET) != 0)
        return fs_error(err, FOLDSVG_E_IO, "<stdin>", "cannot read standard input again: %s",
                        strerror(errno));
    return FOLDSVG_OK;
}

const char *fs_stdin_file_path(void)
{
#if defined(__linux__)
    return "/proc/self/fd/0";
#else
    return NULL;
#endif
}
