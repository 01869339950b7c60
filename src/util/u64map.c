#include "util/u64map.h"

#include <stdlib.h>

void fs_u64map_init(fs_u64map *m)
{
    m->slots = NULL;
    m->mask = 0;
    m->n = 0;
}

void fs_u64map_free(fs_u64map *m)
{
    free(m->slots);
    fs_u64map_init(m);
}

static foldsvg_status grow(fs_u64map *m)
{
    size_t cap = m->slots ? (m->mask + 1) * 2 : 64;
    if (cap > SIZE_MAX / sizeof(fs_u64map_slot))
        return FOLDSVG_E_NOMEM;
    fs_u64map_slot *s = malloc(cap * sizeof *s);
    if (!s)
        return FOLDSVG_E_NOMEM;
    for (size_t i = 0; i < cap; i++)
        s[i].value = FS_U64MAP_NONE;
    for (size_t i = 0; m->slots && i <= m->mask; i++) {
        if (m->slots[i].value == FS_U64MAP_NONE)
            continue;
        size_t j = (size_t)fs_mix64(m->slots[i].key) & (cap - 1);
        while (s[j].value != FS_U64MAP_NONE)
            j = (j + 1) & (cap - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->mask = cap - 1;
    return FOLDSVG_OK;
}

foldsvg_status fs_u64map_put(fs_u64map *m, uint64_t key, uint32_t *value, int *added)
{
    if (added)
        *added = 0;
    if ((!m->slots || (m->n + 1) * 2 > m->mask + 1) && grow(m) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    size_t i = (size_t)fs_mix64(key) & m->mask;
    for (;; i = (i + 1) & m->mask) {
        fs_u64map_slot *s = &m->slots[i];
        if (s->value == FS_U64MAP_NONE) {
            s->key = key;
            s->value = *value;
            m->n++;
            if (added)
                *added = 1;
            return FOLDSVG_OK;
        }
        if (s->key == key) {
            *value = s->value;
            return FOLDSVG_OK;
        }
    }
}
