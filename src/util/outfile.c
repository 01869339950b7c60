#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

static void reset(fs_outfile *o)
{
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

foldsvg_status fs_outfile_open(fs_outfile *o, const char *path, foldsvg_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = 1;
        return FOLDSVG_OK;
    }
    o->target = strdup(path);
    if (!o->target)
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory");
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        reset(o);
        return fs_error(err, FOLDSVG_E_IO, path, "cannot write output: it is a directory");
    }
    if (exists && !S_ISREG(sb.st_mode)) {
        /* A FIFO, /dev/stdout, a terminal: nothing to rename over, write in place. */
        o->f = fopen(path, "wb");
        if (!o->f) {
            int e = errno;
            reset(o);
            return fs_error(err, FOLDSVG_E_IO, path, "cannot open output: %s", strerror(e));
        }
        return FOLDSVG_OK;
    }
    size_t n = strlen(path);
    o->tmp = malloc(n + 32);
    if (!o->tmp) {
        reset(o);
        return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory");
    }
    /* Beside the target (same directory, so rename is atomic), hidden, recognisable. */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    snprintf(o->tmp, n + 32, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        reset(o);
        return fs_error(err, FOLDSVG_E_IO, path, "cannot create output file: %s%s", strerror(e),
                        e == ENOENT ? " (does the directory exist?)" : "");
    }
    mode_t mode;
    if (exists) {
        mode = sb.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        /* Not fatal: the file is still correct, only its permissions are mkstemp's. */
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        reset(o);
        return fs_error(err, FOLDSVG_E_IO, path, "cannot open output: %s", strerror(e));
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_outfile_commit(fs_outfile *o, foldsvg_error *err)
{
    const char *name = o->is_stdout ? "<stdout>" : o->target;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (o->is_stdout) {
        reset(o);
        if (bad)
            return fs_error(err, FOLDSVG_E_IO, name, "write failed: %s", strerror(e));
        return FOLDSVG_OK;
    }
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->target) != 0) {
        bad = 1;
        e = errno;
    }
    foldsvg_status st = FOLDSVG_OK;
    if (bad) {
        if (o->tmp)
            unlink(o->tmp);
        st = fs_error(err, FOLDSVG_E_IO, name, "write failed: %s", strerror(e));
    }
    reset(o);
    return st;
}

void fs_outfile_abort(fs_outfile *o)
{
    if (o->f && !o->is_stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    reset(o);
}
