/* The samples of the Firefox-Profiler reader, summed as they stream (formats/firefox/samples.c),
 * for its yajl callbacks (formats/firefox/sax.c). Each returns FOLDSVG_OK or a failure already
 * recorded in P->j. */
#ifndef FOLDSVG_FORMATS_FIREFOX_SAMPLES_H
#define FOLDSVG_FORMATS_FIREFOX_SAMPLES_H

#include <stdint.h>

#include "formats/firefox/parser.h"

/* A Gecko sample row of thread T closed: STACK and CPU are its stack and threadCPUDelta
 * cells (null when absent). */
foldsvg_status ff_sample_row(ff_parser *p, ff_thread *t, fs_json_value stack, fs_json_value cpu,
                             uint64_t row);

/* N Gecko sample rows of T in a row, all of stack KEY, whose threadCPUDelta cells are whole and
 * sum to W, checked to fit (rows parsed ahead, formats/firefox/split.c): what N calls of
 * ff_sample_row would add. */
foldsvg_status ff_sample_run(ff_parser *p, ff_thread *t, int64_t key, uint64_t n, int64_t w);

/* The open sample row's stack cell was read, an integer KEY: when the stack is not the last row's,
 * its accumulator is fetched into the cache while yajl reads the rest of the row. */
static FF_INLINE_ALWAYS void ff_sample_stack_seen(const ff_parser *p, int64_t key)
{
    const ff_acc *a = p->sthr->agg.last;
    if (a && a->key != key)
        ff_agg_prefetch(&p->sthr->agg, key);
}

/* The sample row just closed (P->row_stack, P->row_cpu) of thread T, when it is the common
 * case, done here (1; else 0: ff_sample_row then): the stack of the row before (its
 * accumulator, and in the ordered mode its run, are the last ones) and a whole
 * threadCPUDelta that fits. */
static inline int ff_sample_row_quick(ff_parser *p, ff_thread *t)
{
    ff_acc *a = t->agg.last;
    if (!a || p->row_stack.tag != FS_JSON_INT || p->row_cpu.tag != FS_JSON_INT)
        return 0;
    int64_t key = p->row_stack.v.i, w = p->row_cpu.v.i;
    if (a->key != key || key < 0 || !ff_int_add_ok(a->wint, w))
        return 0;
    if (p->ordered) {
        const ff_runs *r = t->runs;
        ff_acc *run = r && r->n > r->from ? &r->a[r->n - 1] : NULL;
        if (!run || run->key != key || !ff_int_add_ok(run->wint, w))
            return 0;
        run->n++;
        run->wint += w;
    }
    a->n++;
    a->wint += w;
    t->rows++;
    return 1;
}

/* A processed samples column (FF_C_STACK, FF_C_WEIGHT or FF_C_DURATION) of thread T: it
 * begins (its '[' was just parsed; it is paired with an earlier one when it needs it), entry
 * I of it, its end. */
foldsvg_status ff_column_begin(ff_parser *p, ff_thread *t, int col);
foldsvg_status ff_column_cell(ff_parser *p, ff_thread *t, int col, uint64_t i, fs_json_value c);
foldsvg_status ff_column_end(ff_parser *p, ff_thread *t, int col);

/* A samples object of T begins (forgetting an earlier one's columns), and ends: rows that came
 * before their schema are summed now, and what the pairing of columns found is reported. */
void ff_samples_reset(ff_thread *t);
foldsvg_status ff_samples_end(ff_parser *p, ff_thread *t);

#endif
