#define _GNU_SOURCE /* F_GETPIPE_SZ, F_SETPIPE_SZ */
#include "input/pipesize.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#if defined(F_GETPIPE_SZ) && defined(F_SETPIPE_SZ)
/* The system's bound for an unprivileged process, or 0 when it cannot be read. */
static long pipe_max(void)
{
    FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");
    long max = 0;
    if (f) {
        if (fscanf(f, "%ld", &max) != 1)
            max = 0;
        fclose(f);
    }
    return max;
}

size_t fs_pipe_widen(int fd)
{
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISFIFO(sb.st_mode))
        return 0;
    int now = fcntl(fd, F_GETPIPE_SZ);
    if (now < 0)
        return 0;
    if (now < FS_PIPE_WANT) {
        long want = FS_PIPE_WANT, max = pipe_max();
        if (max > 0 && max < want)
            want = max;
        if (want > now && fcntl(fd, F_SETPIPE_SZ, (int)want) >= 0)
            now = fcntl(fd, F_GETPIPE_SZ);
    }
    return now > 0 ? (size_t)now : 0;
}
#else
size_t fs_pipe_widen(int fd)
{
    (void)fd;
    return 0;
}
#endif
