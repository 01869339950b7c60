/* inferno-collapse-perf's names for the frames of one stack line: symbol offsets cut,
 * partially demangled Rust symbols finished, argument lists dropped (Go methods and C++
 * anonymous namespaces kept), Java's class 'L' dropped, "[unknown]" symbols named by
 * their module, Java inlining ("a->b") split, and the _[k] _[j] _[i] annotations.
 * The names are raw otherwise: ';' is left for the sink's sanitizing, which turns it into
 * ':' as inferno does. */
#ifndef FOLDSVG_FORMATS_PERF_NAME_H
#define FOLDSVG_FORMATS_PERF_NAME_H

#include <stddef.h>

#include "formats/perf/line.h"
#include "util/buf.h"

typedef struct fs_perf_name_opts {
    int kernel;                    /* _[k] after kernel frames */
    int jit;                       /* _[j] after JIT frames (perf map files, jitdump .so) */
    int addrs;                     /* [module <pc>] for "[unknown]" symbols */
    int java;                      /* the command is "java": class names lose their 'L' */
    const char *const *skip_after; /* names above which frames are dropped */
    size_t nskip_after;
} fs_perf_name_opts;

/* One stack's frames, leaf first, as the lines come: frame i is
 * names.data[i ? ends[i-1] : 0 .. ends[i]). */
typedef struct fs_perf_frames {
    fs_buf names;
    size_t *ends;
    size_t n, cap;
} fs_perf_frames;

void fs_perf_frames_clear(fs_perf_frames *f);
void fs_perf_frames_free(fs_perf_frames *f);

/* Appends the frames of FL (none for a symbol in parentheses, which the Perl skips as a
 * process name) to OUT, leaf first. *CUT is set when a frame matched skip_after: the
 * frames above it (later lines) are to be dropped. SCRATCH is working memory. Returns 0,
 * or -1 when out of memory. */
int fs_perf_add_frames(const fs_perf_frame_line *fl, const fs_perf_name_opts *o,
                       fs_perf_frames *out, fs_buf *scratch, int *cut);

/* A legacy-mangled Rust symbol that perf demangled only halfway
 * ("gc::GcBox$LT$T$GT$::new::h0123456789abcdef"): the escapes decoded, the hash dropped,
 * written to OUT (cleared first). Returns 1 when SYM was one, 0 when it is left as it
 * is, -1 when out of memory. */
int fs_perf_fix_rust_symbol(const char *sym, size_t n, fs_buf *out);

#endif
