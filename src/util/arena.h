/* A bump allocator: the frame tree and interned names live and die together, so one
 * free releases them all and no per-node malloc is paid. */
#ifndef FOLDSVG_UTIL_ARENA_H
#define FOLDSVG_UTIL_ARENA_H

#include <stddef.h>

typedef struct fs_arena_block fs_arena_block;
typedef struct fs_arena {
    fs_arena_block *head;
    fs_arena_block *spare; /* blocks kept by fs_arena_reset, used before new ones */
    size_t used_total;     /* bytes handed out, for statistics */
} fs_arena;

void fs_arena_init(fs_arena *a);
void fs_arena_free(fs_arena *a);
/* Forgets every allocation but keeps the memory for the next ones: refilling reuses pages
 * already touched instead of faulting in fresh ones. */
void fs_arena_reset(fs_arena *a);
/* N bytes aligned for any type, or NULL when out of memory. */
void *fs_arena_alloc(fs_arena *a, size_t n);
/* A copy of S[0..n) followed by a NUL, or NULL when out of memory. */
char *fs_arena_strndup(fs_arena *a, const char *s, size_t n);

#endif
