/* A list of strings owned by the list: the values of a repeatable option. */
#ifndef FOLDSVG_UTIL_STRLIST_H
#define FOLDSVG_UTIL_STRLIST_H

#include <stddef.h>

#include "foldsvg.h"

typedef struct fs_strlist {
    char **v;
    size_t n, cap;
} fs_strlist;

/* Appends a copy of S. FOLDSVG_E_NOMEM (the list unchanged). */
foldsvg_status fs_strlist_push(fs_strlist *l, const char *s);
/* DST becomes a deep copy of SRC (DST's old contents are not freed). FOLDSVG_E_NOMEM: DST
 * holds what was copied so far, to be freed. */
foldsvg_status fs_strlist_copy(fs_strlist *dst, const fs_strlist *src);
void fs_strlist_free(fs_strlist *l);
/* Whether an entry equals S[0..len) (byte for byte). */
int fs_strlist_has(const fs_strlist *l, const char *s, size_t len);

#endif
