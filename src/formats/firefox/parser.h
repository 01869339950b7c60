/* The state of the streaming Firefox-Profiler reader while yajl runs, shared by its yajl
 * callbacks (formats/firefox/sax.c), what they say each value means (formats/firefox/roles.c)
 * and the sample sums they feed (formats/firefox/samples.c).
 * Types only. */
#ifndef FOLDSVG_FORMATS_FIREFOX_PARSER_H
#define FOLDSVG_FORMATS_FIREFOX_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "formats/firefox/model.h"
#include "formats/json/json.h"
#include "formats/json/reread.h"

typedef struct ff_frame ff_frame; /* one open container (formats/firefox/roles.h) */
typedef struct ff_split ff_split; /* sample rows parsed ahead (formats/firefox/split.h) */

/* ff_parser.hot: the innermost open container is a Gecko samples data array whose schema is
 * known (and nothing is being skipped), or one of its rows; else none of these. */
enum { FF_HOT_NONE, FF_HOT_SDATA, FF_HOT_SROW };

typedef struct ff_parser {
    fs_json j; /* the parse: offsets, failures, capture */
    ff_frame *st;
    size_t depth, cap;
    size_t skip; /* containers open inside a skipped value */
    ff_profile *root;
    ff_queue *q;
    /* Fast sample rows (Gecko, schema known): 10M of them in a large profile, so a row has
     * no frame of its own and its cells are looked at by the column only. */
    uint8_t hot;       /* FF_HOT_*: where the parse is, as the hot callbacks need it */
    uint8_t hot_saved; /* HOT when a skipped value began, again once it ends */
    int64_t srow_k;    /* cells seen in the open sample row */
    int64_t scol_stack, scol_cpu;
    fs_json_value row_stack, row_cpu;
    ff_thread *sthr;      /* the thread whose sample rows these are */
    ff_split *split;      /* or NULL */
    uint64_t split_where; /* what the reading thread was told (formats/firefox/split.c) */
    uint64_t split_rows;  /* sthr->rows before the row that may end where rows parsed ahead begin */
    /* second reads */
    const char *file;
    fs_json_reread *rr;
    int can_reread;      /* else arrays that may be read again are copied to a spool */
    fs_json_cursor *cur; /* the array the column being read is paired with */
    int cur_k;           /* its FF_P_* */
    int ordered;         /* the samples are kept in order too (formats/firefox/order.h) */
} ff_parser;

#endif
