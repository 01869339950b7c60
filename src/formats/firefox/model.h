/* The model of a Firefox-Profiler document as the reader keeps it: string tables, tables
 * captured in both the Gecko ({schema, data}) and the processed ({column: [...]}) shape (which
 * one a document uses is known only at its end), per-stack sample sums (memory follows
 * distinct stacks, not samples), threads and the tree of (sub-)profiles. Filled by the yajl
 * callbacks (formats/firefox/sax.c, formats/firefox/roles.c, formats/firefox/samples.c); read
 * by the stack models (formats/firefox/gecko.c, formats/firefox/processed.c). */
#ifndef FOLDSVG_FORMATS_FIREFOX_MODEL_H
#define FOLDSVG_FORMATS_FIREFOX_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "foldsvg.h"
#include "formats/json/json.h"
#include "formats/json/reread.h"
#include "util/prefetch.h"

/* Column names the reader looks up, in schemas (Gecko) or as column arrays (processed). */
enum {
    FF_C_PREFIX,
    FF_C_FRAME,
    FF_C_PREFIXOFFSET,
    FF_C_LOCATION,
    FF_C_FUNC,
    FF_C_NAME,
    FF_C_STACK,
    FF_C_CPU, /* threadCPUDelta */
    FF_C_WEIGHT,
    FF_C_DURATION,
    FF_NCOLS
};
int ff_column_id(const char *name, size_t len); /* -1 if not wanted */
extern const char *const ff_column_names[FF_NCOLS];

/* The values of a table's data (Gecko) or of one column (processed). */
typedef struct ff_cells {
    fs_json_value *a;
    size_t n, cap;
} ff_cells;

/* A string table: all strings back to back, plus start offsets. Entries that were not
 * JSON strings are kept (so indices stay right) and flagged; using one is an error. */
typedef struct ff_strings {
    char *buf;
    size_t len, cap;
    uint64_t *off; /* n + 1 entries; bit 63 of off[i] flags "not a string" */
    size_t n, ncap;
    int present;
} ff_strings;
#define FF_NOTSTR (UINT64_C(1) << 63)

/* One column array of a processed table ({column: [...]}). A table keeps only the columns
 * the stack models read (formats/firefox/roles.c chooses), in a small array allocated with the
 * first: a profile may have tens of thousands of threads, each with its own tables, and
 * what a thread costs beyond its data must stay small. */
typedef struct ff_column {
    int id; /* FF_C_* */
    ff_cells cells;
} ff_column;

/* A Gecko table ({schema, data}) or a processed one ({length, column: [...]}); which one
 * is decided once the whole document is known, so both shapes are captured. */
typedef struct ff_table {
    uint8_t present;
    uint8_t has_schema;
    uint8_t has_data;
    uint8_t has_length;
    /* Gecko rows: when the schema came first only the wanted columns are kept (NKEEP cells
     * per row, in the order of keep[], which holds FF_C_* ids); otherwise every cell, with
     * row starts. */
    uint8_t compact;
    uint8_t nkeep;
    uint8_t keep[FF_NCOLS];
    int64_t schema[FF_NCOLS]; /* cell index of each wanted column, -1 if absent */
    ff_cells cells;
    size_t *rowstart; /* compact == 0: nrows + 1 entries */
    size_t nrows, rcap;
    ff_column *cols; /* processed columns, in the order they came */
    uint8_t ncols;
    uint8_t curcol; /* the one being read */
    int64_t length;
} ff_table;

/* Whether processed column COL (FF_C_*) was given, and its cells (none when not). */
int ff_table_has_col(const ff_table *t, int col);
const ff_cells *ff_table_col(const ff_table *t, int col);
/* Begins processed column COL (a repeated key: the last one counts); appends to the column
 * begun last (columns do not nest). Each FOLDSVG_E_NOMEM. */
foldsvg_status ff_table_col_begin(ff_table *t, int col);
foldsvg_status ff_table_col_push(ff_table *t, fs_json_value v);

/* Cell COL (FF_C_*) of Gecko row R; a missing cell (short row, no such column) is null. */
fs_json_value ff_table_cell(const ff_table *t, size_t r, int col);
size_t ff_table_rows(const ff_table *t);

/* Per-stack sums of one thread's samples. Key -1 is the null stack. */
typedef struct ff_acc {
    int64_t key;
    uint64_t first_row; /* for messages */
    uint64_t n;         /* sample rows */
    uint64_t cpu_null;  /* Gecko rows whose threadCPUDelta cell is null or missing */
    int64_t wint;       /* integral part of the summed weights */
    double fhi, flo;    /* fractional part, compensated (Neumaier) sum */
} ff_acc;

typedef struct ff_agg {
    ff_acc *slots;
    size_t cap, count;
    ff_acc *last; /* consecutive samples often share their stack */
} ff_agg;

/* A thread's samples in their order (--flamechart: formats/firefox/order.h fills them): one
 * accumulator per run of consecutive samples with the same stack. */
typedef struct ff_runs {
    ff_acc *a;   /* per run: key = the stack index (-1 null), first_row, n and the sums */
    ff_acc *dur; /* the durations' sums per run (processed before v29); NULL when none */
    size_t n, cap;
    size_t from; /* the first run of the samples object being read */
    size_t at;   /* pairing a later column: the run of the sample it is at */
} ff_runs;
void ff_runs_free(ff_runs *r);

/* *OUT: the slot for KEY, created empty when new. FOLDSVG_E_NOMEM. */
foldsvg_status ff_agg_get(ff_agg *g, int64_t key, uint64_t row, ff_acc **out);
/* The slot for KEY, or NULL when there is none (nothing is created). */
const ff_acc *ff_agg_find(const ff_agg *g, int64_t key);
static inline size_t ff_agg_hash(int64_t k)
{
    uint64_t x = (uint64_t)k * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(x ^ (x >> 29));
}
/* Asks the cache for the slot where ff_agg_get (KEY) will look first: a table of thousands
 * of stacks is out of the cache by the time the next sample of a stack comes, the parse
 * having streamed megabytes in between, and a sample row closes a few yajl tokens after its
 * stack cell. */
#if defined(__GNUC__)
/* GCC takes a function that only prefetches for one without effects and drops its calls:
 * inlined first, the prefetch stays. */
#define FF_INLINE_ALWAYS __attribute__((always_inline)) inline
#else
#define FF_INLINE_ALWAYS inline
#endif
static FF_INLINE_ALWAYS void ff_agg_prefetch(const ff_agg *g, int64_t key)
{
    if (g->cap) {
        const char *slot = (const char *)&g->slots[ff_agg_hash(key) & (g->cap - 1)];
        FS_PREFETCH(slot);
        FS_PREFETCH(slot + sizeof(ff_acc) - 1);
    }
}
void ff_agg_free(ff_agg *g);
/* Adds a weight (a JSON number); FOLDSVG_E_OVERFLOW when the sum would pass 63 bits (the
 * sum unchanged). */
foldsvg_status ff_acc_add(ff_acc *a, const fs_json_value *w);
/* Whether W added to SUM stays within int64. */
static inline int ff_int_add_ok(int64_t sum, int64_t w)
{
    return w >= 0 ? sum <= INT64_MAX - w : sum >= INT64_MIN - w;
}

/* The processed sample columns, in the order of ff_thread.pseen[]. */
enum { FF_P_STACK, FF_P_WEIGHT, FF_P_DUR, FF_NP };

/* What a thread needs while it is read, and until its stacks are resolved: its tables and
 * the state of its samples object. Gecko threads whose stacks are resolved as their object
 * closes (formats/firefox/early.h) give it back then: a profile may have hundreds of
 * thousands of threads that fold to a few stacks. */
typedef struct ff_tables {
    ff_strings strings;
    ff_table stack, frame, func;
    ff_table samples; /* schema and buffered rows when the data came before the schema */
    /* Processed columns of the samples object being read. Nothing is kept per sample:
     * stacks are summed as they stream; the second of two arrays to pair is paired with
     * a second read of the first (a cursor), and problems wait for the object's end. */
    int has_stack_col;
    uint8_t pseen[FF_NP]; /* an array for the column came in this samples object */
    uint64_t pn[FF_NP];   /* its entries */
    fs_json_region preg[FF_NP];
    uint64_t wprob;      /* first weight entry that is not a number or overflows, +1 */
    int wprob_overflow;  /* ...and which of the two */
    int64_t wprob_stack; /* the stack whose sum overflowed */
    uint64_t dbad;       /* first duration entry that is not a number (or overflows), +1 */
    /* Gecko rows before their schema: read again when the samples object ends */
    fs_json_region rows_reg;
    /* processed */
    ff_agg agg_dur; /* before v29: stack + duration (used if no weight) */
    int has_weight_array, has_duration_array;
    int weight_null_seen;
    char *weight_type;
} ff_tables;

typedef struct ff_thread {
    struct ff_thread *next;
    char *name, *process;
    uint64_t offset; /* where the thread object starts, for messages */
    ff_tables *tab;  /* NULL once the stacks are resolved (NODES) */
    /* samples */
    int has_samples;
    uint64_t rows;
    ff_agg agg;           /* from the Gecko data, or processed stack (+ weight) */
    uint64_t cpu_bad_row; /* first row whose threadCPUDelta is not a number, +1 */
    /* resolved (TAB NULL): AGG is dense (agg.cap entries), NODES[k] the stack of
     * agg.slots[k] in the profile's stack store (formats/firefox/early.h) */
    uint32_t *nodes;
    /* the samples in their order (--flamechart only, formats/firefox/order.h); else NULL */
    ff_runs *runs;
} ff_thread;

typedef struct ff_profile ff_profile;
struct ff_profile {
    ff_profile *parent;
    ff_profile *next_pending;
    int has_meta_key, meta_is_object;
    int product_set, product_sp1;
    char product[64]; /* meta.product, for reports (cut to fit) */
    int ppv_is_number;
    double ppv;
    double version;
    int has_threads_key;
    size_t nthread_entries;
    int first_thread_has_string_array;
    ff_thread *threads, *threads_tail;
    ff_profile **str_subs; /* sub-profiles stored as strings in threads[] */
    size_t nstr, cstr;
    ff_profile **proc_subs; /* processes[], objects or strings, in array order */
    size_t nproc, cproc;
    ff_profile *wrapped; /* the value of a top-level "profile" key */
    /* processed v56+/v60+ shared tables */
    ff_strings shared_strings;
    ff_table shared_stack, shared_frame, shared_func;
    /* a sub-profile still waiting as JSON text */
    char *json;
    size_t json_len;
    uint64_t json_offset; /* where its string ends in the parent text */
    char origin[160];     /* e.g. "threads[1] (JSON string)", for messages */
    int ordered;          /* the top profile: keep each thread's samples in order */
    /* What says, before the document ends, that it is Gecko (formats/firefox/early.h) */
    int is_top;             /* the document's own profile (not a "profile" it wraps) */
    int meta_done;          /* its meta object closed */
    int first_thread_done;  /* threads[0] closed */
    int resolved_early;     /* a thread's stacks were resolved as its object closed */
    struct ff_store *store; /* the top profile: the stacks of threads resolved early (its
                               reader frees it, formats/firefox/firefox.c) */
};

/* Sub-profiles found as JSON strings wait here until the current text is done, so nesting
 * in the data never becomes recursion on the C stack. */
typedef struct ff_queue {
    ff_profile *head, *tail;
} ff_queue;

ff_profile *ff_profile_new(ff_profile *parent);
void ff_profile_free(ff_profile *p); /* the whole tree, iteratively */
ff_thread *ff_thread_new(ff_profile *p);
/* Appends SUB to the list *V. FOLDSVG_E_NOMEM. */
foldsvg_status ff_profile_add_sub(ff_profile ***v, size_t *n, size_t *cap, ff_profile *sub);

/* Appends a string-table entry (IS_STRING 0: a value that is not a string, kept so that the
 * indices stay right). FOLDSVG_E_NOMEM. */
foldsvg_status ff_strings_push(ff_strings *s, const char *str, size_t len, int is_string);
/* String I: 1 and (ptr, len) when it exists and is a string; 0 out of range; -1 not a
 * string. */
int ff_strings_get(const ff_strings *s, int64_t i, const char **ptr, size_t *len);
void ff_strings_free(ff_strings *s);

/* Each FOLDSVG_E_NOMEM when out of memory. */
foldsvg_status ff_cells_push(ff_cells *c, fs_json_value v);
void ff_table_init(ff_table *t);
void ff_table_free(ff_table *t);
/* Begins a Gecko row. */
foldsvg_status ff_table_row_begin(ff_table *t);
/* Stores cell K of the row being read. */
foldsvg_status ff_table_row_cell(ff_table *t, size_t k, fs_json_value v);
void ff_table_row_end(ff_table *t);
/* Called when "data" begins: rows are kept compact if the schema is already known. */
void ff_table_data_begin(ff_table *t, const int *wanted, int nwanted);

/* A thread object ended: its tables give back what doubling left unused (nothing is added
 * to a thread after its object closes). */
void ff_thread_trim(ff_thread *t);
/* Gives back T's tables (T->tab NULL after). */
void ff_thread_tables_free(ff_thread *t);

#endif
