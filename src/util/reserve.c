#define _GNU_SOURCE /* fallocate, FALLOC_FL_KEEP_SIZE */
#include "util/reserve.h"

#include <fcntl.h>

#if defined(__linux__) && defined(FALLOC_FL_KEEP_SIZE)
int fs_file_reserve(int fd, uint64_t from, uint64_t len)
{
    /* not posix_fallocate: where the file system lacks it, glibc writes zeros instead */
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)len) == 0 ? 0 : -1;
}
#else
int fs_file_reserve(int fd, uint64_t from, uint64_t len)
{
    (void)fd;
    (void)from;
    (void)len;
    return -1;
}
#endif
