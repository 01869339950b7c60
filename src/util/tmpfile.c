#include "util/tmpfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fs_tmpfd(void)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir);
    char *path = malloc(n + sizeof "/foldsvg.XXXXXX");
    if (!path) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(path, dir, n);
    memcpy(path + n, "/foldsvg.XXXXXX", sizeof "/foldsvg.XXXXXX");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    free(path);
    return fd;
}

FILE *fs_tmpfile(void)
{
    int fd = fs_tmpfd();
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w+b");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}
