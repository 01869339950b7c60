/* The JSON layer of the readers of JSON inputs (Firefox profiles): yajl's callback parser
 * run over a text chunk by chunk, never a document tree; the resource limits; one message,
 * with the byte offset, for whatever stopped it (bad JSON, a limit, a callback's failure);
 * and the scalar values the readers keep. Second reads of arrays are in formats/json/reread.h.
 * What the values mean is the reader's (formats/firefox/roles.c). */
#ifndef FOLDSVG_FORMATS_JSON_JSON_H
#define FOLDSVG_FORMATS_JSON_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yajl/yajl_parse.h>

#include "foldsvg.h"
#include "input/ahead.h"
#include "input/input.h"
#include "util/error.h"

/* Resource limits (docs/limits.md). Containers a reader follows are a few levels deep in
 * real documents, so a reader stops past this many (the Firefox reader: only processes[]
 * nests); skipped values may nest deeper, which yajl tracks itself, in one block that the
 * token limit below bounds as well. */
#define FS_JSON_MAX_DEPTH 10000
/* yajl keeps a token (string, number) that spans input chunks in one growing block and does
 * not survive a failed allocation; a 10 GB string would otherwise take all memory. Its
 * blocks are measured and a larger one stops the parse after the chunk. */
#define FS_JSON_MAX_TOKEN ((size_t)256 << 20)

/* One scalar JSON value as far as a reader cares. Integers keep their JSON spelling apart
 * from floats: an index must be written as an integer (1.0 is not a stack id). */
typedef enum fs_json_tag {
    FS_JSON_NULL,
    FS_JSON_INT,
    FS_JSON_NUM,
    FS_JSON_STR,
    FS_JSON_BOOL,
    FS_JSON_OTHER, /* an array or object, where a scalar was expected */
    FS_JSON_ROWEND /* only from a cursor over rows (formats/json/reread.h): a row's end */
} fs_json_tag;

typedef struct fs_json_value {
    union {
        int64_t i;
        double d;
    } v;
    uint8_t tag;
} fs_json_value;

/* A yajl number text as a value (FS_JSON_INT when written as an integer that fits). */
fs_json_value fs_json_number(const char *s, size_t len);

/* Whether S[0..len) is 1 to 18 digits, a non-negative integer that fits (*V; then what
 * fs_json_number makes of it): inline for the large arrays of a profile, 10M sample rows. */
static inline int fs_json_small_uint(const char *s, size_t len, int64_t *v)
{
    if (len - 1 >= 18)
        return 0;
    uint64_t x = 0;
    for (size_t k = 0; k < len; k++) {
        unsigned d = (unsigned)(unsigned char)s[k] - '0';
        if (d > 9)
            return 0;
        x = x * 10 + d;
    }
    *v = (int64_t)x;
    return 1;
}

/* A reader's stand-in for yajl over parts of the text, on the thread that reads ahead (the
 * Firefox reader's sample rows: formats/firefox/split.h; a Chrome trace's samples and time
 * deltas: formats/chrome/split.h). JOB runs on some blocks before the parse gets them and may
 * find in one some ranges [from, to), in order, whose values it took itself, each from just
 * after a token (at from - 1) to just after another. The parse then checks, with the
 * callbacks' context CTX, that yajl is where a range may begin, and the range's findings
 * take the place of its bytes, which yajl never sees. */
typedef struct fs_json_split {
    fs_ahead_job job;
    /* Range I of the block whose job findings are SLOT: 1 and 1 <= *from <= *to (each range
     * after the one before), or 0 (no range I, nor after it). */
    int (*range)(const void *slot, size_t i, size_t *from, size_t *to);
    /* yajl has parsed the block up to from - 1 of range I: whether it may be where the range
     * begins; the byte at from - 1 is parsed next, then TAKE says. */
    int (*before)(void *ctx, const void *slot, size_t i);
    /* 1: the findings were taken (yajl goes on at TO); 0: they cannot be (yajl goes on at
     * FROM); -1: a failure recorded with fs_json_fail. */
    int (*take)(void *ctx, const void *slot, size_t i);
} fs_json_split;

/* A parse in progress: what callbacks may ask and tell. */
typedef struct fs_json {
    yajl_handle h;
    uint64_t base;              /* decoded bytes before the chunk yajl is parsing */
    const unsigned char *chunk; /* that chunk */
    uint64_t origin_offset;     /* a sub-text's place in its parent text, or 0 */
    foldsvg_status ecode;       /* a callback's failure, reported once yajl stops */
    char emsg[640];
    size_t yalloc_max; /* the largest block yajl asked for */
    FILE *capture;     /* the raw text from cap_pos on is copied here */
    uint64_t cap_pos;
    const fs_json_split *split; /* set by the reader before fs_json_parse, or NULL */
    /* A reader that adds 1 to EVENTS in its callbacks (at least once in every value's, a
     * number in an array excepted when its array's start counted) sets COUNTS_EVENTS: a
     * chunk in which none came holds a token from its start to its end. The parse then
     * goes back to chunks of the usual size once a long token has ended. */
    uint64_t events;
    int counts_events;
    uint64_t copied; /* bytes gathered from the blocks read ahead into larger chunks (tests) */
} fs_json;

/* For callbacks: records a failure (the first one counts) and returns CODE; the callback
 * then returns 0 to stop yajl. */
foldsvg_status fs_json_fail(fs_json *j, foldsvg_status code, const char *fmt, ...) FS_PRINTF(3, 4);
foldsvg_status fs_json_nomem(fs_json *j);
/* The decoded offset of the parse position (just after the last token). */
uint64_t fs_json_offset(const fs_json *j);

/* The raw text from decoded offset FROM on is copied to F, as it is parsed, until
 * fs_json_capture_end (which copies what is left up to the parse position). */
void fs_json_capture_begin(fs_json *j, FILE *f, uint64_t from);
foldsvg_status fs_json_capture_end(fs_json *j);

/* Parses IN (or, when IN is NULL, TEXT[0..len)) with CALLBACKS and their CTX. FILE names the
 * input in messages; ORIGIN, when not NULL, says the text is a sub-document of it (e.g.
 * "threads[1] (JSON string)") found at byte ORIGIN_OFFSET. */
foldsvg_status fs_json_parse(fs_json *j, const yajl_callbacks *callbacks, void *ctx, fs_input *in,
                             const char *text, size_t len, const char *file, const char *origin,
                             uint64_t origin_offset, foldsvg_error *err);

#endif
