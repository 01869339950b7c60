/* A map from 64-bit keys to 32-bit values: ids that a format gives its records (pprof's
 * location and function ids, V8's node ids) to the records' indexes, and pairs packed in 64
 * bits (a trie's parent and child) to nodes. Open addressing with linear probing, at most
 * half full: 16 to 32 bytes a key. */
#ifndef FOLDSVG_UTIL_U64MAP_H
#define FOLDSVG_UTIL_U64MAP_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/hash.h"

#define FS_U64MAP_NONE UINT32_MAX

typedef struct fs_u64map_slot {
    uint64_t key;
    uint32_t value; /* FS_U64MAP_NONE: empty */
} fs_u64map_slot;

typedef struct fs_u64map {
    fs_u64map_slot *slots;
    size_t mask, n;
} fs_u64map;

void fs_u64map_init(fs_u64map *m);
void fs_u64map_free(fs_u64map *m);

/* KEY's value, or FS_U64MAP_NONE. */
static inline uint32_t fs_u64map_get(const fs_u64map *m, uint64_t key)
{
    if (!m->slots)
        return FS_U64MAP_NONE;
    for (size_t i = (size_t)fs_mix64(key) & m->mask;; i = (i + 1) & m->mask) {
        const fs_u64map_slot *s = &m->slots[i];
        if (s->value == FS_U64MAP_NONE || s->key == key)
            return s->value;
    }
}

/* Insert-or-find: *VALUE gets KEY's value, VALUE's own when it was absent (*ADDED 1; may be
 * NULL). VALUE must not be FS_U64MAP_NONE. FOLDSVG_E_NOMEM leaves the map as it was. */
foldsvg_status fs_u64map_put(fs_u64map *m, uint64_t key, uint32_t *value, int *added);

#endif
