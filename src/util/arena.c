#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FS_ARENA_BLOCK = 1 << 20 };

struct fs_arena_block {
    fs_arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

void fs_arena_init(fs_arena *a)
{
    a->head = NULL;
    a->spare = NULL;
    a->used_total = 0;
}

static void free_blocks(fs_arena_block *b)
{
    while (b) {
        fs_arena_block *next = b->next;
        free(b);
        b = next;
    }
}

void fs_arena_free(fs_arena *a)
{
    free_blocks(a->head);
    free_blocks(a->spare);
    fs_arena_init(a);
}

void fs_arena_reset(fs_arena *a)
{
    fs_arena_block *b = a->head;
    while (b) {
        fs_arena_block *next = b->next;
        if (b->cap == FS_ARENA_BLOCK) {
            b->next = a->spare;
            a->spare = b;
        } else {
            free(b); /* oversized: a one-off */
        }
        b = next;
    }
    a->head = NULL;
    a->used_total = 0;
}

static void *alloc_aligned(fs_arena *a, size_t n, size_t align)
{
    if (n > SIZE_MAX / 2)
        return NULL;
    fs_arena_block *b = a->head;
    size_t pad = b ? (align - (b->used & (align - 1))) & (align - 1) : 0;
    if (!b || b->cap - b->used < n + pad) {
        /* Oversized requests get a block of their own behind the current one, so the
         * space left in the current block is not wasted. */
        size_t cap = n > FS_ARENA_BLOCK / 4 ? n : FS_ARENA_BLOCK;
        if (cap > SIZE_MAX - sizeof(fs_arena_block))
            return NULL;
        fs_arena_block *nb;
        if (cap == FS_ARENA_BLOCK && a->spare) {
            nb = a->spare;
            a->spare = nb->next;
        } else if (!(nb = malloc(sizeof(fs_arena_block) + cap))) {
            return NULL;
        }
        nb->used = 0;
        nb->cap = cap;
        if (b && cap != FS_ARENA_BLOCK) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
        pad = 0;
    }
    void *p = (char *)b->data + b->used + pad;
    b->used += n + pad;
    a->used_total += n;
    return p;
}

void *fs_arena_alloc(fs_arena *a, size_t n)
{
    return alloc_aligned(a, n, sizeof(max_align_t));
}

char *fs_arena_strndup(fs_arena *a, const char *s, size_t n)
{
    char *p = alloc_aligned(a, n + 1, 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}
