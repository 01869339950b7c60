/* The last stacks of a folded input held back a while, in sorted order: for a step that may
 * put a stack out of the input's order (--collapse-recursion makes "a;a;c" of the sorted
 * input "a;c" after "a;b"), so that it takes its place among those just before it and a
 * consumer that needs sorted stacks (the stream engine) still gets them. The window is
 * bounded in bytes; a stack that sorts before everything it holds goes first, out of order. */
#ifndef FOLDSVG_TRANSFORM_WINDOW_H
#define FOLDSVG_TRANSFORM_WINDOW_H

#include <stddef.h>

#include "foldsvg.h"
#include "formats/sink.h"

/* Where stacks leave the window: a consumer's path(). */
typedef foldsvg_status (*fs_window_out)(void *user, const fs_folded_line *l, foldsvg_error *err);

typedef struct fs_window_line {
    size_t chunk, off, len; /* the stack's bytes: CHUNK counts every chunk ever made */
    uint64_t count, before, lineno;
    int is_diff;
} fs_window_line;

typedef struct fs_window_chunk {
    char *data;
    size_t used, cap;
    size_t live; /* stacks held in it */
} fs_window_chunk;

typedef struct fs_window {
    fs_window_chunk *chunks; /* chunks[0] is chunk number first_chunk */
    size_t nchunks, chunks_cap, first_chunk;
    fs_window_line *v; /* v[head..n): the stacks held, in order */
    size_t head, n, cap;
    size_t held;  /* their bytes */
    size_t limit; /* past this many, the first leaves */
    fs_window_out out;
    void *user;
    int tail_put;     /* the last stack put went after every stack held */
    const char *last; /* the copy of the last stack put: its chunk stays until the next put */
} fs_window;

void fs_window_init(fs_window *w, size_t limit, fs_window_out out, void *user);
void fs_window_free(fs_window *w);
/* Forgets the stacks held (a new input, or a reading stopped). */
void fs_window_clear(fs_window *w);
/* Holds L (copied) in its place; stacks leave while the window is too full. AFTER_TAIL: the
 * caller knows L does not sort before the last stack held (the one put last, when tail_put
 * says so: sorted input), which spares comparing them. Returns what OUT returned, or
 * FOLDSVG_E_NOMEM. */
foldsvg_status fs_window_put(fs_window *w, const fs_folded_line *l, int after_tail,
                             foldsvg_error *err);
/* Every stack held leaves, in order (the input's end). */
foldsvg_status fs_window_flush(fs_window *w, foldsvg_error *err);

#endif
