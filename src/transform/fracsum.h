/* Weights with fractions, summed per folded stack before they are rounded, as Firefox
 * profiles ask: equal stacks of different threads or stack ids meet only after sanitizing,
 * and the fractions of all of them count together. The stack pipeline (transform/pipeline.c)
 * keeps one per input. */
#ifndef FOLDSVG_TRANSFORM_FRACSUM_H
#define FOLDSVG_TRANSFORM_FRACSUM_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "formats/sink.h"

typedef struct fs_fracsum_entry fs_fracsum_entry;

/* All zero: empty. */
typedef struct fs_fracsum {
    fs_fracsum_entry *e;
    size_t cap, n;
    char *buf; /* the key being built */
    size_t bcap;
    fs_strref *frames; /* for flushing */
    size_t frames_cap;
} fs_fracsum;

/* Adds W to the stack FRAMES[0..n) (raw names, sanitized here; n == 0: "[unknown]").
 * FOLDSVG_E_OVERFLOW, FOLDSVG_E_NOMEM, with ERR naming FILE. */
foldsvg_status fs_fracsum_add(fs_fracsum *m, const fs_strref *frames, size_t n, const fs_weight *w,
                              const char *file, foldsvg_error *err);

typedef foldsvg_status (*fs_fracsum_fn)(void *user, const fs_strref *frames, size_t n,
                                        uint64_t count, foldsvg_error *err);

/* Rounds every sum half up and passes each stack with a non-zero count to FN (sanitized
 * frames, root first; n == 0 for "[unknown]"), then empties M. FOLDSVG_E_PARSE when a sum is
 * not a count (negative, or past 2^63). */
foldsvg_status fs_fracsum_flush(fs_fracsum *m, fs_fracsum_fn fn, void *user, const char *file,
                                foldsvg_error *err);
void fs_fracsum_free(fs_fracsum *m);

#endif
