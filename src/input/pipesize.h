/* A pipe read from is given a larger buffer where the system allows it. With the default
 * 64 KiB, a fast writer (cat, zcat, a collapse script) and foldsvg take turns every 64 KiB,
 * each waking the other: `cat sorted.folded | foldsvg` took 1.8x the time it takes with
 * 1 MiB. Anything but a pipe is left as it is. */
#ifndef FOLDSVG_INPUT_PIPESIZE_H
#define FOLDSVG_INPUT_PIPESIZE_H

#include <stddef.h>

enum { FS_PIPE_WANT = 1 << 20 };

/* When FD is a pipe whose buffer is smaller than FS_PIPE_WANT, asks for that much, or for
 * the system's limit (/proc/sys/fs/pipe-max-size) when it is lower; a refusal (the user's
 * share of pipe memory spent) leaves the pipe as it was. Returns the pipe's buffer size
 * afterwards, or 0 when FD is no pipe or the system cannot tell. */
size_t fs_pipe_widen(int fd);

#endif
