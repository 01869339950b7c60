#include "util/strlist.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

foldsvg_status fs_strlist_push(fs_strlist *l, const char *s)
{
    char *copy = strdup(s);
    if (!copy || FS_GROW(l->v, l->cap, l->n + 1, 4) != FOLDSVG_OK) {
        free(copy);
        return FOLDSVG_E_NOMEM;
    }
    l->v[l->n++] = copy;
    return FOLDSVG_OK;
}

foldsvg_status fs_strlist_copy(fs_strlist *dst, const fs_strlist *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->n; i++)
        FS_FORWARD_IF_ERROR(fs_strlist_push(dst, src->v[i]));
    return FOLDSVG_OK;
}

void fs_strlist_free(fs_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

int fs_strlist_has(const fs_strlist *l, const char *s, size_t len)
{
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->v[i]) == len && memcmp(l->v[i], s, len) == 0)
            return 1;
    return 0;
}
