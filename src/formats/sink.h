/* The reader -> pipeline boundary. Readers (formats/registry.h) know formats; what is behind the
 * sink (the stack pipeline, transform/pipeline.h) knows sanitizing, transforms, order rules and
 * aggregation. A reader hands over each stack once, in one of three shapes:
 *  - stack(): frames, root first, with raw names (structured inputs; the pipeline sanitizes
 *    them by the Miden rules) and an integer count;
 *  - line(): a whole folded path "a;b;c" with its counts, taken as it is (folded text: the
 *    streaming merge and the sorter take the path whole, without splitting it);
 *  - weight(): frames with a weight that has a fraction, for formats whose fractional
 *    weights are summed per stack before rounding (Firefox profiles); the pipeline sums and
 *    rounds them at the input's end.
 * and may say what the input is (count_name, facts), what it skipped (warn) and, at its end,
 * what its lines were (stats). Every callback but stack() may be NULL: a reader then leaves that
 * out. */
#ifndef FOLDSVG_FORMATS_SINK_H
#define FOLDSVG_FORMATS_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "util/strmap.h"
#include "util/strref.h"

/* One valid line of folded text (inferno's rules, formats/folded/folded.c). */
typedef struct fs_folded_line {
    const char *stack; /* not NUL-terminated; never empty */
    size_t len;
    uint64_t count;  /* the (last) count, fraction dropped */
    uint64_t before; /* differential lines: the first count */
    int is_diff;
    uint64_t lineno; /* 1-based, in the current input */
} fs_folded_line;

/* What a line-oriented input held, for the end-of-input warnings. */
typedef struct fs_folded_stats {
    uint64_t lines, valid, invalid, first_invalid, fractional, first_fractional;
} fs_folded_stats;

/* A weight with a fraction: WHOLE + HI + LO, the fraction a compensated (Neumaier) sum. */
typedef struct fs_weight {
    int64_t whole;
    double hi, lo;
} fs_weight;

typedef struct fs_sink fs_sink;
struct fs_sink {
    /* One stack of frame names, root first, raw (not yet sanitized), with its weight.
     * N == 0 means an empty/null stack ("[unknown]"). COUNT may be 0 (dropped by the
     * sink). Returns FOLDSVG_OK or an error already written to ERR. */
    foldsvg_status (*stack)(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                            foldsvg_error *err);
    /* The unit of the weights when it is not cycles ("samples", "ms", "bytes"); may be
     * called once per input. */
    void (*count_name)(fs_sink *self, const char *name);
    /* What the input is, for reports: FORMAT ("folded", "Gecko v24", "processed v49"),
     * PRODUCT (meta.product, "" when absent), the threads read, and RATE, the weight of one
     * sample when all samples weigh the same (SP1's cycles per sample), else 0. Called once
     * per input before the stacks. */
    void (*facts)(fs_sink *self, const char *format, const char *product, uint32_t threads,
                  uint64_t rate);
    /* One valid folded line (see above). */
    foldsvg_status (*line)(fs_sink *self, const fs_folded_line *l, foldsvg_error *err);
    /* The input's line statistics, once at its end (after a successful read). */
    void (*stats)(fs_sink *self, const fs_folded_stats *s);
    /* One stack (as for stack()) with a fractional weight W. */
    foldsvg_status (*weight)(fs_sink *self, const fs_strref *frames, size_t n, const fs_weight *w,
                             foldsvg_error *err);
    /* Something odd that the reader skipped or chose (malformed lines, one event of
     * several): W names the input and the place; it lives only for the call. */
    void (*warn)(fs_sink *self, const foldsvg_error *w);
    /* The threads read, named for reports ("GeckoMain (0), DOM Worker (3)": name and
     * index); called after facts() by readers of profiles with threads. */
    void (*threads)(fs_sink *self, const char *names);
    /* A choice of how the input is read, made while reading it (read again, sorted on disk),
     * for --verbose's plan: one line naming the input; it lives only for the call. */
    void (*say)(fs_sink *self, const char *line);
    /* Reading in parts at once (formats/folded/split.c), for a sink whose lines may come in
     * any order (it sums them): fork() makes a sink for lines from later in the input,
     * taken on another thread while this one takes the lines before them, sharing nothing
     * with it (NULL: not now). join() then adds what PART took as if its lines had come
     * now, numbered from LINES_BEFORE + 1, and sets *JOINED; a part that cannot stand for
     * its lines (it gave up: its line() returned FS_STOP) is not joined, and its lines are
     * read again into this sink. Returns what line() would. drop() frees PART, joined or
     * not. All three or none may be set. */
    fs_sink *(*fork)(fs_sink *self);
    foldsvg_status (*join)(fs_sink *self, fs_sink *part, uint64_t lines_before, int *joined,
                           foldsvg_error *err);
    void (*drop)(fs_sink *self, fs_sink *part);
    /* For a reader that gives the same few stacks many times (a profile's samples in order,
     * --flamechart) and can name each by a KEY (equal keys, equal frames, within one
     * input): again() is stack() for a stack given before under KEY, which spares the
     * reader resolving its frames and the sink handling them again. *KNOWN is clear when
     * the sink cannot take it so (nothing was done): the reader then calls keyed(), which
     * is stack() that the sink may remember under KEY. Both or neither are set. */
    foldsvg_status (*again)(fs_sink *self, uint64_t key, uint64_t count, int *known,
                            foldsvg_error *err);
    foldsvg_status (*keyed)(fs_sink *self, uint64_t key, const fs_strref *frames, size_t n,
                            uint64_t count, foldsvg_error *err);
    /* stack() for a reader that hands over stacks in an order where each shares most of its
     * frames with the one before (a trie's, depth first): the first SAME frames are those of
     * the stack handed over last by shared(), the same names, which the sink need not look
     * at again. NULL: the reader calls stack(). */
    foldsvg_status (*shared)(fs_sink *self, const fs_strref *frames, size_t n, size_t same,
                             uint64_t count, foldsvg_error *err);
};

#endif
