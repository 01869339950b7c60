/* Disk space given to a file ahead of its writes. A run file of the sorter (aggregate/runs.h) is
 * written once, in order, and never past its end by much: ext4 (delayed allocation) then
 * reserves blocks page by page as each write comes, and the writes of the shuffled bench
 * row's 89 MB took about 1.45x the system time of writes into space already given (94 MB in
 * 1 MiB writes, 18 against 12.5 ms, 5 alternating runs on the Zen 4 EPYC). The file's size
 * is left as it is. */
#ifndef FOLDSVG_UTIL_RESERVE_H
#define FOLDSVG_UTIL_RESERVE_H

#include <stdint.h>

/* Gives FD's bytes [FROM, FROM + LEN) disk space without changing its size. 0 when done; -1
 * when the system or the file system cannot (the writes then take what they need as they
 * come) or the disk lacks the space (the writes then fail as they would have). */
int fs_file_reserve(int fd, uint64_t from, uint64_t len);

#endif
