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

int fs_write_all(int fd, const void *p, size_t len)
{
    const unsigned char *b = p;
    while (len) {
        ssize_t w = write(fd, b, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        b += w;
        len -= (size_t)w;
    }
    return 0;
}

int fs_read_all(int fd, void *p, size_t len, uint64_t offset)
{
    unsigned char *b = p;
    while (len) {
        ssize_t r = pread(fd, b, len, (off_t)offset);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO;
            return -1;
        }
        b += r;
        len -= (size_t)r;
        offset += (uint64_t)r;
    }
    return 0;
}
