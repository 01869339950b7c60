/* A map from byte strings (any bytes, NULs included) to uint32_t values: the one hash table
 * for names, paths and the like, so each user keeps only what its values mean.
 *
 * Open addressing with linear probing over a power-of-two slot array kept at most half
 * full, so probes stay short. Entries are numbered densely in insertion order (nothing is
 * ever removed), which is also the iteration order: a user that needs ids 0, 1, 2... takes
 * the entry index as the id. Each entry keeps its key's hash, so growing never reads key
 * bytes again: its low 32 bits, all that places a key in a table of up to 2^32 slots (only a
 * map of over 2^31 keys hashes them again), so an interning map costs 4 bytes a name more
 * than a plain array of names.
 *
 * The entries are parallel arrays rather than structs: a lookup reads only the length and
 * the key pointer of the entries it probes, and those stay dense in the cache; the hash is
 * only read on growth, and a value only on a hit. Values start at 0 and their array is only
 * allocated for the first other value, so a map used for ids (the entry index) pays
 * nothing for them. */
#ifndef FOLDSVG_UTIL_STRMAP_H
#define FOLDSVG_UTIL_STRMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "foldsvg.h"
#include "util/arena.h"
#include "util/hash.h"

#define FS_STRMAP_NONE UINT32_MAX

typedef enum fs_strmap_keys {
    /* Keys are copied into the map's arena (followed by a NUL, not counted in their length):
     * for keys read from a buffer that is reused. */
    FS_STRMAP_OWNED,
    /* Keys are stored as given: the caller keeps them alive and unchanged as long as the
     * map, which saves the copy when they live in memory of their own anyway. */
    FS_STRMAP_BORROWED
} fs_strmap_keys;

typedef struct fs_strmap {
    /* Entry I: keys[I], lens[I], values[I], hashes[I]. KEYS is the block that also holds
     * HASHES and LENS. */
    const char **keys;
    uint32_t *lens;
    uint32_t *values; /* NULL while every value is 0 */
    uint32_t *hashes; /* low 32 bits */
    uint32_t n, cap;
    uint32_t *slots; /* entry index + 1, 0 = empty; NULL until the first insertion */
    size_t mask;     /* number of slots - 1 */
    fs_arena arena;  /* owned key bytes */
    fs_strmap_keys mode;
} fs_strmap;

/* An empty map; allocates nothing. */
void fs_strmap_init(fs_strmap *m, fs_strmap_keys mode);
/* Releases everything and leaves an empty map of the same mode, ready for reuse. */
void fs_strmap_free(fs_strmap *m);
/* Empties the map but keeps its memory (tables, owned key space) for the next keys. */
void fs_strmap_clear(fs_strmap *m);

static inline uint32_t fs_strmap_size(const fs_strmap *m)
{
    return m->n;
}

/* Entry I (I < size), the I-th inserted. A key pointer stays valid as long as the map (owned)
 * or the caller's bytes (borrowed). */
static inline const char *fs_strmap_key(const fs_strmap *m, uint32_t i)
{
    return m->keys[i];
}

static inline uint32_t fs_strmap_key_len(const fs_strmap *m, uint32_t i)
{
    return m->lens[i];
}

static inline uint32_t fs_strmap_value(const fs_strmap *m, uint32_t i)
{
    return m->values ? m->values[i] : 0;
}

/* FOLDSVG_E_NOMEM (the value unchanged) when the first value other than 0 finds no memory
 * for the values. */
foldsvg_status fs_strmap_set_value(fs_strmap *m, uint32_t i, uint32_t value);

/* The keys and their lengths as arrays indexed by entry, for a user that hands out entry
 * indexes as ids and lets others read the names by id. Valid until the next insertion. */
static inline const char **fs_strmap_key_array(const fs_strmap *m)
{
    return m->keys;
}

static inline uint32_t *fs_strmap_len_array(const fs_strmap *m)
{
    return m->lens;
}

/* The hash the map uses for KEY[0..len): a caller that looks a key up and may insert it
 * later hashes it once and passes it to the _hashed variants. */
static inline uint64_t fs_strmap_hash(const void *key, size_t len)
{
    return fs_hash_fast(key ? key : "", len);
}

/* The slot holding KEY, or the empty slot where it would go. Needs slots. Inline with find
 * and put, so that a hit (by far the common case when interning) costs the hash and a probe
 * or two, without a call. */
static inline size_t fs_strmap_probe_(const fs_strmap *m, const void *key, size_t len, uint64_t h)
{
    size_t i = (size_t)h & m->mask;
    for (uint32_t s; (s = m->slots[i]) != 0; i = (i + 1) & m->mask) {
        if (m->lens[s - 1] == len && memcmp(m->keys[s - 1], key, len) == 0)
            return i;
    }
    return i;
}

/* fs_strmap_put for a key known to be absent, with its hash and its empty slot (any value
 * when the map has no slots yet): out of line, as it is rare and calls out. */
foldsvg_status fs_strmap_add_(fs_strmap *m, const void *key, size_t len, uint64_t h, size_t slot,
                              uint32_t value, uint32_t *index);

/* The index of KEY[0..len)'s entry, or FS_STRMAP_NONE. KEY may be NULL when LEN is 0. */
static inline uint32_t fs_strmap_find_hashed(const fs_strmap *m, const void *key, size_t len,
                                             uint64_t h)
{
    if (!m->slots || len > UINT32_MAX)
        return FS_STRMAP_NONE;
    uint32_t s = m->slots[fs_strmap_probe_(m, key ? key : "", len, h)];
    return s ? s - 1 : FS_STRMAP_NONE;
}

/* The plain variants refuse an over-long key before hashing it. */
static inline uint32_t fs_strmap_find(const fs_strmap *m, const void *key, size_t len)
{
    if (len > UINT32_MAX)
        return FS_STRMAP_NONE;
    return fs_strmap_find_hashed(m, key, len, fs_strmap_hash(key, len));
}

/* Insert-or-find: *INDEX gets KEY's entry, added with VALUE when absent (then *ADDED = 1,
 * else 0; ADDED may be NULL). An existing entry keeps its value. FOLDSVG_E_LIMIT when the
 * key is 4 GiB or more or the map holds 2^32-1 keys, FOLDSVG_E_NOMEM; the map is unchanged
 * on failure. */
static inline foldsvg_status fs_strmap_put_hashed(fs_strmap *m, const void *key, size_t len,
                                                  uint64_t h, uint32_t value, uint32_t *index,
                                                  int *added)
{
    if (len > UINT32_MAX)
        return FOLDSVG_E_LIMIT;
    if (!key)
        key = "";
    size_t i = 0;
    if (m->slots) {
        i = fs_strmap_probe_(m, key, len, h);
        if (m->slots[i]) {
            *index = m->slots[i] - 1;
            if (added)
                *added = 0;
            return FOLDSVG_OK;
        }
    }
    foldsvg_status st = fs_strmap_add_(m, key, len, h, i, value, index);
    if (added)
        *added = st == FOLDSVG_OK;
    return st;
}

static inline foldsvg_status fs_strmap_put(fs_strmap *m, const void *key, size_t len,
                                           uint32_t value, uint32_t *index, int *added)
{
    if (len > UINT32_MAX)
        return FOLDSVG_E_LIMIT;
    return fs_strmap_put_hashed(m, key, len, fs_strmap_hash(key, len), value, index, added);
}

#endif
