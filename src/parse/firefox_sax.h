/* The state of the streaming Firefox-Profiler reader, shared by its parts: firefox_sax.c
 * (the yajl callbacks), firefox_samples.c (sample sums and second reads) and firefox_parse.c
 * (driving yajl over a text). */
#ifndef FOLDSVG_PARSE_FIREFOX_SAX_H
#define FOLDSVG_PARSE_FIREFOX_SAX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yajl/yajl_parse.h>

#include "parse/firefox_internal.h"
#include "util/error.h"

/* Resource limits (docs/limits.md). Containers the reader follows (profiles, threads,
 * tables) are a few levels deep in real profiles; only processes[] nests, so a deeper
 * document is an attack or garbage, not a profile. Skipped values may nest deeper: yajl
 * tracks those itself, in one block that the token limit below bounds as well. */
#define FF_MAX_DEPTH 10000
/* yajl keeps a token (string, number) that spans input chunks in one growing block and
 * does not survive a failed allocation; a 10 GB string would otherwise take all memory.
 * Its blocks are measured (yalloc_*) and a larger one stops the parse after the chunk. */
#define FF_MAX_TOKEN ((size_t)256 << 20)

typedef struct ff_frame ff_frame;

typedef struct ff_parser {
    ff_frame *st;
    size_t depth, cap;
    size_t skip; /* containers open inside a skipped value */
    ff_profile *root;
    ff_queue *q;
    /* fast sample rows (Gecko, schema known) */
    int srow;       /* the innermost open container is a sample row (and no skip) */
    int64_t srow_k; /* cells seen in that row */
    int64_t scol_stack, scol_cpu;
    ff_cell row_stack, row_cpu;
    /* a failure found in a callback, reported with the offset once yajl stops */
    yajl_handle h;
    uint64_t base;          /* decoded bytes before the chunk yajl is parsing */
    uint64_t origin_offset; /* a sub-profile's place in its parent text, or 0 */
    foldsvg_status ecode;
    char emsg[640];
    size_t yalloc_max; /* the largest block yajl asked for */
    /* second reads */
    const char *file;
    ff_reread *rr;
    int can_reread;             /* else arrays that may be read again are copied to a spool */
    ff_cursor *cur;             /* the array the column being read is paired with */
    int cur_k;                  /* its FF_P_* */
    const unsigned char *chunk; /* the block yajl is parsing */
    FILE *spool_out;            /* the spool taking the raw text from cap_pos on */
    uint64_t cap_pos;
} ff_parser;

/* firefox_sax.c. A failure is kept in P (reported with the offset once yajl stops);
 * both return 0, so that a callback can return them. */
int ff_fail(ff_parser *p, foldsvg_status code, const char *fmt, ...) FS_PRINTF(3, 4);
int ff_nomem(ff_parser *p);
extern const yajl_callbacks ff_callbacks;

/* firefox_samples.c */
int ff_sample_row(ff_parser *p, ff_thread *t, ff_cell stack, ff_cell cpu, uint64_t row);
int ff_spool_flush(ff_parser *p, uint64_t to);
int ff_region_begin(ff_parser *p, ff_region *r, int spool);
int ff_region_end(ff_parser *p, ff_region *r);
int ff_column_cell(ff_parser *p, ff_thread *t, int col, uint64_t i, ff_cell c);
int ff_column_begin(ff_parser *p, ff_thread *t, int col);
int ff_column_end(ff_parser *p, ff_thread *t, int col);
void ff_samples_reset(ff_thread *t);
int ff_samples_end(ff_parser *p, ff_thread *t);

#endif
