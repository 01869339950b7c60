/* The state of the streaming Firefox-Profiler reader while yajl runs, shared by its yajl
 * callbacks (parse/firefox_sax.c) and the sample sums they feed (parse/firefox_samples.c).
 * Types only. */
#ifndef FOLDSVG_PARSE_FIREFOX_PARSER_H
#define FOLDSVG_PARSE_FIREFOX_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "parse/firefox_model.h"
#include "parse/json.h"
#include "parse/jsonreread.h"

typedef struct ff_frame ff_frame; /* one open container (parse/firefox_sax.c) */

typedef struct ff_parser {
    fs_json j; /* the parse: offsets, failures, capture */
    ff_frame *st;
    size_t depth, cap;
    size_t skip; /* containers open inside a skipped value */
    ff_profile *root;
    ff_queue *q;
    /* fast sample rows (Gecko, schema known) */
    int srow;       /* the innermost open container is a sample row (and no skip) */
    int64_t srow_k; /* cells seen in that row */
    int64_t scol_stack, scol_cpu;
    fs_json_value row_stack, row_cpu;
    /* second reads */
    const char *file;
    fs_json_reread *rr;
    int can_reread;      /* else arrays that may be read again are copied to a spool */
    fs_json_cursor *cur; /* the array the column being read is paired with */
    int cur_k;           /* its FF_P_* */
    int ordered;         /* the samples are kept in order too (parse/firefox_order.h) */
} ff_parser;

#endif
