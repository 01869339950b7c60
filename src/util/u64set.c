#include "util/u64set.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

enum { FIRST_SLOTS = 1024 };

void fs_u64set_init(fs_u64set *s)
{
    memset(s, 0, sizeof *s);
}

void fs_u64set_free(fs_u64set *s)
{
    free(s->slots);
    fs_u64set_init(s);
}

/* The values are hashes already, but a caller's may be anything: the slot comes from the
 * value mixed, so that values differing only in their high bits do not collide. */
static size_t slot_of(uint64_t v, size_t mask)
{
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    return (size_t)v & mask;
}

static size_t probe(const uint64_t *slots, size_t mask, uint64_t v)
{
    size_t i = slot_of(v, mask);
    while (slots[i] != 0 && slots[i] != v)
        i = (i + 1) & mask;
    return i;
}

static foldsvg_status grow(fs_u64set *s)
{
    size_t cap = s->slots ? (s->mask + 1) * 2 : FIRST_SLOTS;
    if (cap > SIZE_MAX / sizeof *s->slots)
        return FOLDSVG_E_NOMEM;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return FOLDSVG_E_NOMEM;
    for (size_t i = 0; s->slots && i <= s->mask; i++)
        if (s->slots[i])
            slots[probe(slots, cap - 1, s->slots[i])] = s->slots[i];
    free(s->slots);
    s->slots = slots;
    s->mask = cap - 1;
    return FOLDSVG_OK;
}

foldsvg_status fs_u64set_add(fs_u64set *s, uint64_t v, int *added)
{
    int is_new;
    if (v == 0) {
        is_new = !s->has_zero;
        s->has_zero = 1;
    } else {
        if ((!s->slots || (s->n + 1) * 2 > s->mask + 1) && grow(s) != FOLDSVG_OK)
            return FOLDSVG_E_NOMEM;
        size_t i = probe(s->slots, s->mask, v);
        is_new = s->slots[i] == 0;
        s->slots[i] = v;
    }
    s->n += (size_t)is_new;
    if (added)
        *added = is_new;
    return FOLDSVG_OK;
}

foldsvg_status fs_u64set_add_all(fs_u64set *to, const fs_u64set *from)
{
    if (from->has_zero)
        FS_FORWARD_IF_ERROR(fs_u64set_add(to, 0, NULL));
    for (size_t i = 0; from->slots && i <= from->mask; i++)
        if (from->slots[i])
            FS_FORWARD_IF_ERROR(fs_u64set_add(to, from->slots[i], NULL));
    return FOLDSVG_OK;
}
