#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

/* Small first sizes: most maps (palette map, nameattr) hold a handful of keys, and the big
 * ones double their way up in a few steps. */
enum { FIRST_SLOTS = 16, FIRST_ENTRIES = 8 };

void fs_strmap_init(fs_strmap *m, fs_strmap_keys mode)
{
    memset(m, 0, sizeof *m);
    fs_arena_init(&m->arena);
    m->mode = mode;
}

void fs_strmap_free(fs_strmap *m)
{
    fs_strmap_keys mode = m->mode;
    free((void *)m->keys); /* and the hashes and lengths with them */
    free(m->values);
    free(m->slots);
    fs_arena_free(&m->arena);
    fs_strmap_init(m, mode);
}

void fs_strmap_clear(fs_strmap *m)
{
    if (m->slots)
        memset(m->slots, 0, (m->mask + 1) * sizeof *m->slots);
    m->n = 0;
    fs_arena_reset(&m->arena);
}

static foldsvg_status grow_slots(fs_strmap *m)
{
    size_t cap = m->slots ? (m->mask + 1) * 2 : FIRST_SLOTS;
    if (cap > SIZE_MAX / sizeof *m->slots)
        return FOLDSVG_E_NOMEM;
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return FOLDSVG_E_NOMEM;
    int stored = cap - 1 <= UINT32_MAX;
    for (uint32_t k = 0; k < m->n; k++) {
        uint64_t h = stored ? m->hashes[k] : fs_strmap_hash(m->keys[k], m->lens[k]);
        size_t i = (size_t)h & (cap - 1);
        while (slots[i])
            i = (i + 1) & (cap - 1);
        slots[i] = k + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->mask = cap - 1;
    return FOLDSVG_OK;
}

/* Keys, hashes and lengths share one block: one allocation a doubling instead of three
 * leaves the heap less of the freed, already touched, smaller copies behind. Values are
 * grown on their own, as most maps have none. */
static foldsvg_status grow_entries(fs_strmap *m)
{
    uint32_t cap = m->cap ? (m->cap > UINT32_MAX / 2 ? UINT32_MAX : m->cap * 2) : FIRST_ENTRIES;
    size_t per = sizeof *m->keys + sizeof *m->hashes + sizeof *m->lens;
    /* Only a 32-bit size_t can overflow here. */
    size_t max = SIZE_MAX / per;
    if (cap > max)
        return FOLDSVG_E_NOMEM;
    const char **keys = malloc((size_t)cap * per);
    if (!keys)
        return FOLDSVG_E_NOMEM;
    if (m->values) {
        uint32_t *values = realloc(m->values, (size_t)cap * sizeof *values);
        if (!values) {
            free((void *)keys);
            return FOLDSVG_E_NOMEM;
        }
        m->values = values;
    }
    uint32_t *hashes = (uint32_t *)(keys + cap);
    uint32_t *lens = hashes + cap;
    if (m->n) {
        memcpy((void *)keys, (const void *)m->keys, m->n * sizeof *keys);
        memcpy(hashes, m->hashes, m->n * sizeof *hashes);
        memcpy(lens, m->lens, m->n * sizeof *lens);
    }
    free((void *)m->keys);
    m->keys = keys;
    m->hashes = hashes;
    m->lens = lens;
    m->cap = cap;
    return FOLDSVG_OK;
}

/* The values array, all 0, for the first value that is not. */
static int alloc_values(fs_strmap *m)
{
    m->values = calloc(m->cap ? m->cap : 1, sizeof *m->values);
    return m->values ? 0 : -1;
}

foldsvg_status fs_strmap_set_value(fs_strmap *m, uint32_t i, uint32_t value)
{
    if (!m->values && (value == 0 || alloc_values(m) != 0))
        return value == 0 ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    m->values[i] = value;
    return FOLDSVG_OK;
}

foldsvg_status fs_strmap_add_(fs_strmap *m, const void *key, size_t len, uint64_t h, size_t slot,
                              uint32_t value, uint32_t *index)
{
    /* Slot values are index + 1, and FS_STRMAP_NONE is no index. */
    if (m->n == UINT32_MAX - 1)
        return FOLDSVG_E_LIMIT;
    if (m->n == m->cap && grow_entries(m) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    if (value != 0 && !m->values && alloc_values(m) != 0)
        return FOLDSVG_E_NOMEM;
    /* Grow before inserting, so a failed copy below leaves the slots as they were. */
    int regrow = !m->slots || ((size_t)m->n + 1) * 2 > m->mask + 1;
    if (regrow && grow_slots(m) != FOLDSVG_OK)
        return FOLDSVG_E_NOMEM;
    const char *stored = key;
    if (m->mode == FS_STRMAP_OWNED && !(stored = fs_arena_strndup(&m->arena, key, len)))
        return FOLDSVG_E_NOMEM;
    if (regrow) {
        /* KEY is absent: the first empty slot from its home is where it goes. */
        for (slot = (size_t)h & m->mask; m->slots[slot]; slot = (slot + 1) & m->mask)
            ;
    }
    uint32_t i = m->n++;
    m->keys[i] = stored;
    m->lens[i] = (uint32_t)len;
    if (m->values)
        m->values[i] = value;
    m->hashes[i] = (uint32_t)h;
    m->slots[slot] = i + 1;
    *index = i;
    return FOLDSVG_OK;
}
