/* A byte string that is not NUL-terminated: a frame name, a piece of a line. */
#ifndef FOLDSVG_UTIL_STRREF_H
#define FOLDSVG_UTIL_STRREF_H

#include <stddef.h>

typedef struct fs_strref {
    const char *ptr; /* not NUL-terminated */
    size_t len;
} fs_strref;

#endif
