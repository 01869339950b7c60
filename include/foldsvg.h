/*
 * foldsvg: profiles (folded stacks, Firefox-Profiler JSON) to SVG flamegraphs.
 *
 * The library never prints and never exits. Every fallible function returns a
 * foldsvg_status (FOLDSVG_OK == 0) and, when given a non-NULL foldsvg_error, fills it
 * with the code, the place (file, line, column or byte offset) and a one-line message.
 *
 * Two ways of use share one object, foldsvg_profile:
 *  - recording: a VM or tool records (stack, count) pairs; equal stacks are summed and the
 *    profile is written as SVG or folded text (foldsvg_profile_record_stack/_path, _write);
 *  - reading: foldsvg_profile_read_file() parses an input (folded text, Firefox-Profiler
 *    JSON, gzip of either), applying the stack transforms set in the options. The
 *    order-dependent inferno modes (flamechart, no-sort) are options of the read: with
 *    "flamechart" the profile also keeps the input order, with "no-sort" the read checks it.
 *
 * Memory of a profile grows with its distinct stack prefixes, not with the input size.
 * Thread safety: distinct objects may be used from distinct threads; one object must not
 * be used from two threads at once. A call may use helper threads of its own (reading ahead,
 * sorting, writing on a second core); they end before it returns.
 */
#ifndef FOLDSVG_H
#define FOLDSVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define FOLDSVG_API __attribute__((visibility("default")))
#else
#define FOLDSVG_API
#endif

#define FOLDSVG_VERSION_MAJOR 0
#define FOLDSVG_VERSION_MINOR 2
#define FOLDSVG_VERSION_PATCH 0

/* The library's version string, e.g. "0.2.0". */
FOLDSVG_API const char *foldsvg_version(void);

typedef enum foldsvg_status {
    FOLDSVG_OK = 0,
    FOLDSVG_E_USAGE,    /* unknown option, bad option value, conflicting options */
    FOLDSVG_E_NO_DATA,  /* nothing valid to draw (no valid line, total 0) */
    FOLDSVG_E_PARSE,    /* malformed input: bad JSON, bad table index, truncated gzip... */
    FOLDSVG_E_UNSORTED, /* "no-sort" was set and the input is not sorted */
    FOLDSVG_E_OVERFLOW, /* a count or total does not fit in 64 bits */
    FOLDSVG_E_IO,       /* a file could not be opened, read or written */
    FOLDSVG_E_NOMEM,    /* out of memory */
    FOLDSVG_E_LIMIT,    /* a documented resource limit was hit (e.g. line length) */
    FOLDSVG_E_ARG       /* API misuse: NULL where an object is required, and the like */
} foldsvg_status;

/* Where and why something failed (or, passed to a warning handler, what was odd).
 * Fields that do not apply are 0 / empty. */
typedef struct foldsvg_error {
    foldsvg_status code;
    char file[1024]; /* input or output path; "<stdin>" for standard input */
    uint64_t line;   /* 1-based line of a text input, 0 when not known */
    uint64_t column; /* 1-based column, 0 when not known */
    uint64_t offset; /* byte offset (JSON: in the text after gzip) when has_offset */
    int has_offset;
    char message[768]; /* what was wrong and, where known, what to do */
} foldsvg_error;

/* A short, static name of a status ("usage error", "parse error", ...). */
FOLDSVG_API const char *foldsvg_status_name(foldsvg_status s);

/* Writes the error as one line, "FILE:LINE:COL: MESSAGE" (parts that are unknown are left
 * out; a byte offset is written "FILE: byte N: MESSAGE"), NUL-terminated and truncated to
 * size. Returns the length the full line would have (like snprintf). */
FOLDSVG_API size_t foldsvg_error_format(const foldsvg_error *e, char *buf, size_t size);

/* Frees memory the library returned to the caller (foldsvg_profile_render_mem). */
FOLDSVG_API void foldsvg_free(void *ptr);

/* ---------------------------------------------------------------------------------------
 * Options: every setting the library has, as the command line names them. Each has its
 * default, its bounds and its --help text in one table (foldsvg_option_info).
 * ------------------------------------------------------------------------------------- */

typedef struct foldsvg_options foldsvg_options;

/* A new option set, each option at its default (foldsvg_option_desc.default_value). NULL
 * when out of memory. */
FOLDSVG_API foldsvg_options *foldsvg_options_new(void);
/* A deep copy, or NULL when out of memory. */
FOLDSVG_API foldsvg_options *foldsvg_options_clone(const foldsvg_options *o);
/* NULL is fine. */
FOLDSVG_API void foldsvg_options_free(foldsvg_options *o);

/* Sets the option NAME (a long command-line name without the dashes: "title", "colors",
 * "hash", "minwidth", "base", ...) to VALUE, as the command line writes it. Flags take VALUE
 * NULL. Options that repeat on the command line ("base") accumulate. The value is validated
 * here: an unknown name, a missing or unexpected value, or a bad value gives FOLDSVG_E_USAGE
 * with a message that names the option. The string is copied. */
FOLDSVG_API foldsvg_status foldsvg_options_set(foldsvg_options *o, const char *name,
                                               const char *value, foldsvg_error *err);

/* The options as keys, for the typed setters. A key keeps its number across versions. */
typedef enum foldsvg_option {
    FOLDSVG_OPT_REVERSE = 0,
    FOLDSVG_OPT_BASE = 1,
    FOLDSVG_OPT_NO_SORT = 2,
    FOLDSVG_OPT_SORT_BUFFER = 3,
    FOLDSVG_OPT_THREADS = 4,
    FOLDSVG_OPT_FLAMECHART = 5,
    FOLDSVG_OPT_ID_PREFIX = 6,
    FOLDSVG_OPT_PRETTY_XML = 7,
    FOLDSVG_OPT_NO_JAVASCRIPT = 8,
    FOLDSVG_OPT_TITLE = 9,
    FOLDSVG_OPT_SUBTITLE = 10,
    FOLDSVG_OPT_COUNTNAME = 11,
    FOLDSVG_OPT_NAMETYPE = 12,
    FOLDSVG_OPT_NOTES = 13,
    FOLDSVG_OPT_WIDTH = 14,
    FOLDSVG_OPT_HEIGHT = 15,
    FOLDSVG_OPT_MINWIDTH = 16,
    FOLDSVG_OPT_FONTTYPE = 17,
    FOLDSVG_OPT_FONTSIZE = 18,
    FOLDSVG_OPT_FONTWIDTH = 19,
    FOLDSVG_OPT_INVERTED = 20,
    FOLDSVG_OPT_TRUNCATE_TEXT_RIGHT = 21,
    FOLDSVG_OPT_FACTOR = 22,
    FOLDSVG_OPT_NAMEATTR = 23,
    FOLDSVG_OPT_COLORS = 24,
    FOLDSVG_OPT_BGCOLORS = 25,
    FOLDSVG_OPT_THEME = 26,
    FOLDSVG_OPT_HASH = 27,
    FOLDSVG_OPT_DETERMINISTIC = 28,
    FOLDSVG_OPT_CP = 29,
    FOLDSVG_OPT_PALETTE_MAP = 30,
    FOLDSVG_OPT_COLORDIFFUSION = 31,
    FOLDSVG_OPT_NEGATE = 32,
    FOLDSVG_OPT_UICOLOR = 33,
    FOLDSVG_OPT_SEARCH_COLOR = 34,
    FOLDSVG_OPT_STROKE_COLOR = 35,
    FOLDSVG_OPT_STRIP = 36,
    FOLDSVG_OPT_STRIP_RUST_HASH = 37,
    FOLDSVG_OPT_INCLUDE = 38,
    FOLDSVG_OPT_EXCLUDE = 39,
    FOLDSVG_OPT_FOCUS = 40,
    FOLDSVG_OPT_COLLAPSE_RECURSION = 41,
    FOLDSVG_OPT_THREAD = 42,
    FOLDSVG_OPT_WEIGHT = 43,
    FOLDSVG_OPT_PID = 44,
    FOLDSVG_OPT_TID = 45,
    FOLDSVG_OPT_KERNEL = 46,
    FOLDSVG_OPT_JIT = 47,
    FOLDSVG_OPT_ALL = 48,
    FOLDSVG_OPT_ADDRS = 49,
    FOLDSVG_OPT_EVENT_FILTER = 50,
    FOLDSVG_OPT_SKIP_AFTER = 51,
    FOLDSVG_OPT_INCLUDEOFFSET = 52,
    FOLDSVG_OPT_NO_MODULES = 53,
    FOLDSVG_OPT_TIME = 54,
    FOLDSVG_OPT_TICKS = 55,
    FOLDSVG_OPT_BYTES = 56,
    FOLDSVG_OPT_TOP = 57,
    FOLDSVG_OPT_TOP_FORMAT = 58,
    FOLDSVG_OPT_PER = 59,
    FOLDSVG_OPT_SUMMARY_THRESHOLD = 60,
    FOLDSVG_OPT_FACTS_OUT = 61,
    FOLDSVG_OPT_FACTS_FROM = 62,
    FOLDSVG_OPT_NORMALIZE = 63,
    FOLDSVG_OPT_STRIP_HEX = 64,
    FOLDSVG_OPT_PER_BEFORE = 65,
    FOLDSVG_OPT_PER_AFTER = 66,
    FOLDSVG_OPT_SAMPLE_TYPE = 67,
    FOLDSVG_OPT_TAG_ROOT = 68,
    FOLDSVG_OPT_FAIL_IF = 69,
    FOLDSVG_OPT_FAIL_MIN_SHARE = 70,
    FOLDSVG_OPT_KEEP_RUST_HASH = 71,
    FOLDSVG_OPT_DIFF_COLOR = 72,
} foldsvg_option;

/* Typed setters (zstd's way). _int: a flag (0 clears it, 1 sets it), a whole number within
 * its bounds (foldsvg_option_bounds), a size in bytes, or an option of a list of words by
 * the word's index (foldsvg_option_desc.values). _real: a number with a fraction. _text:
 * any option, its value as the command line writes it (a list option: one more value).
 * FOLDSVG_E_USAGE naming the option when the key does not take that type or the value is
 * out of bounds; FOLDSVG_E_ARG for an unknown key. */
FOLDSVG_API foldsvg_status foldsvg_options_set_int(foldsvg_options *o, foldsvg_option key,
                                                   int64_t value, foldsvg_error *err);
FOLDSVG_API foldsvg_status foldsvg_options_set_real(foldsvg_options *o, foldsvg_option key,
                                                    double value, foldsvg_error *err);
FOLDSVG_API foldsvg_status foldsvg_options_set_text(foldsvg_options *o, foldsvg_option key,
                                                    const char *value, foldsvg_error *err);
/* The least and the greatest value KEY takes through the typed setters (a flag 0 and 1, a
 * list of words 0 and its last index). FOLDSVG_E_ARG for a key of text values. */
FOLDSVG_API foldsvg_status foldsvg_option_bounds(foldsvg_option key, double *min, double *max);

/* 1 when the option NAME takes a value, 0 when it is a flag, -1 when it is unknown. */
FOLDSVG_API int foldsvg_option_takes_value(const char *name);

/* The option table: every option as data, in --help order, with what it changes. Front-ends
 * build their help, completion and option routing from it. */
typedef enum foldsvg_option_stage {
    FOLDSVG_STAGE_INPUT = 0, /* how inputs are read and in what order (--thread, --no-sort) */
    FOLDSVG_STAGE_STACK,     /* what is done to each stack (--reverse, --base, the filters) */
    FOLDSVG_STAGE_RENDER,    /* the picture (--title, --colors, --minwidth...) */
    FOLDSVG_STAGE_REPORT     /* the tables (--top, --top-format, --per) */
} foldsvg_option_stage;

typedef struct foldsvg_option_desc {
    foldsvg_option key;
    const char *name; /* the long name, without the dashes */
    char short_name;  /* the one-letter form, or 0 */
    int takes_value;  /* 1: --NAME VALUE, 0: a flag */
    int repeatable;   /* 1: every value counts (--base, the filters); else the last */
    foldsvg_option_stage stage;
    const char *stage_name;  /* "input", "stack", "render" or "report" */
    const char *group;       /* its --help section as a word: "input", "output", "layout", ... */
    const char *group_title; /* the section's heading in --help ("Layout and text") */
    const char *metavar;     /* the value's name in --help ("FILE"); NULL for flags */
    /* The --help text, lines separated by '\n'; NULL for an option --help leaves out. The
     * word "{values}" stands for VALUES listed, the default marked "(default)". */
    const char *help;
    /* The words of an option that takes one of a list (NULL-terminated), or NULL. Some also
     * take other forms (--bgcolors #rrggbb). */
    const char *const *values;
    /* The default as the command line would write it ("0.01", "hot", "16M"), or NULL: none
     * (a flag off, no text, nothing chosen). The one place the default is said. */
    const char *default_value;
} foldsvg_option_desc;

/* How many options the table has; foldsvg_option_info fills OUT with the INDEX-th
 * (FOLDSVG_E_ARG past the end). Strings are static. */
FOLDSVG_API size_t foldsvg_option_count(void);
FOLDSVG_API foldsvg_status foldsvg_option_info(size_t index, foldsvg_option_desc *out);

/* Checks the options against each other (e.g. "reverse" with "no-sort", "hash" with
 * "deterministic"): FOLDSVG_E_USAGE naming both, or FOLDSVG_OK. */
FOLDSVG_API foldsvg_status foldsvg_options_check(const foldsvg_options *o, foldsvg_error *err);

/* Warnings (skipped invalid lines, fractional counts, unknown nameattr keys) go to this
 * handler, one call each; without a handler they are dropped. The foldsvg_error passed
 * lives only for the call. */
typedef void (*foldsvg_warning_fn)(void *user, const foldsvg_error *warning);
FOLDSVG_API void foldsvg_options_set_warning_handler(foldsvg_options *o, foldsvg_warning_fn fn,
                                                     void *user);

/* Progress while inputs are read: FN gets the input's name, the bytes read so far, its size
 * (0 when unknown, e.g. a pipe) and the lines read so far (0 for profiles). It is called
 * when a reading starts (0 bytes) and then often (every read block); the caller decides what
 * to show and when. An input can be read more than once (folded text found unsorted on the
 * way, each side of --normalize): each reading starts again from 0 bytes. */
typedef void (*foldsvg_progress_fn)(void *user, const char *input, uint64_t bytes_done,
                                    uint64_t bytes_total, uint64_t lines);
FOLDSVG_API void foldsvg_options_set_progress_handler(foldsvg_options *o, foldsvg_progress_fn fn,
                                                      void *user);

/* Lines about how a run reads its inputs and why (its plan: the engine that aggregates the
 * stacks, how often the inputs are read, the threads, the memory; and where that changes),
 * one call each, as the command line's --verbose prints them. Without a handler they are
 * dropped. The text lives only for the call. */
typedef void (*foldsvg_log_fn)(void *user, const char *line);
FOLDSVG_API void foldsvg_options_set_log_handler(foldsvg_options *o, foldsvg_log_fn fn, void *user);

/* ---------------------------------------------------------------------------------------
 * Profiles
 * ------------------------------------------------------------------------------------- */

typedef struct foldsvg_profile foldsvg_profile;

/* An empty profile, or NULL when out of memory. */
FOLDSVG_API foldsvg_profile *foldsvg_profile_new(void);
/* NULL is fine. */
FOLDSVG_API void foldsvg_profile_free(foldsvg_profile *p);

/* Records CYCLES against the stack FRAMES[0] (root) .. FRAMES[NFRAMES-1] (leaf). Each
 * name is sanitized by the Miden rules (';' -> ':', '\n' and '\r' -> ' ', whitespace at
 * either end trimmed); no frames, or only empty names, records "[unknown]"; CYCLES == 0
 * records nothing. Names are copied. FOLDSVG_E_OVERFLOW (nothing recorded) when a count or
 * the total would pass 2^64-1; FOLDSVG_E_ARG when p is NULL or frames is NULL with nframes
 * > 0. */
FOLDSVG_API foldsvg_status foldsvg_profile_record_stack(foldsvg_profile *p,
                                                        const char *const *frames, size_t nframes,
                                                        uint64_t cycles);

/* Records CYCLES against an already formatted folded path ("a;b;c"), taken as is (split
 * on ';', not sanitized). An empty path records "[unknown]". Errors as above. */
FOLDSVG_API foldsvg_status foldsvg_profile_record_path(foldsvg_profile *p, const char *path,
                                                       uint64_t cycles);

/* Records a differential sample: BEFORE and AFTER counts of one path (inferno's
 * two-count lines). Frame widths use AFTER; colors and tooltips show AFTER - BEFORE. */
FOLDSVG_API foldsvg_status foldsvg_profile_record_diff(foldsvg_profile *p, const char *path,
                                                       uint64_t before, uint64_t after);

/* The sum of all recorded counts (the AFTER counts of differential samples). */
FOLDSVG_API uint64_t foldsvg_profile_total(const foldsvg_profile *p);
/* How many distinct stacks have a non-zero count. */
FOLDSVG_API size_t foldsvg_profile_unique_stacks(const foldsvg_profile *p);
/* The summed count of PATH ("a;b;c"), 0 if absent. */
FOLDSVG_API uint64_t foldsvg_profile_count(const foldsvg_profile *p, const char *path);

/* Calls FN for every distinct stack in the byte order of its path (what folded output
 * writes). PATH is not NUL-terminated and lives only for the call. HAS_BEFORE is non-zero
 * when the stack was recorded as differential; BEFORE is then its summed first count. A
 * non-zero return from FN stops the walk early (still FOLDSVG_OK). */
typedef int (*foldsvg_stack_fn)(void *user, const char *path, size_t len, uint64_t count,
                                uint64_t before, int has_before);
FOLDSVG_API foldsvg_status foldsvg_profile_foreach(const foldsvg_profile *p, foldsvg_stack_fn fn,
                                                   void *user);

/* Reads PATH (NULL or "-": standard input) into the profile, detecting the kind from the
 * content: gzip is undone, '{' starts Firefox-Profiler JSON, anything else is folded text.
 * The stack transforms of OPTS (reverse, base, filters) are applied per stack; with
 * "flamechart" the input order is kept for rendering; with "no-sort" an unsorted input is
 * FOLDSVG_E_UNSORTED. Several reads append (folded text: each file's end ends a line).
 * OPTS may be NULL (defaults). Warnings go to the options' handler. */
FOLDSVG_API foldsvg_status foldsvg_profile_read_file(foldsvg_profile *p, const char *path,
                                                     const foldsvg_options *opts,
                                                     foldsvg_error *err);
/* The same for a stream (NAME is used in messages) and for a memory buffer. A path or stream
 * that is a pipe is asked for a 1 MiB buffer (the system's limit when lower), so that a fast
 * writer does not wait on it every 64 KiB. */
FOLDSVG_API foldsvg_status foldsvg_profile_read_stream(foldsvg_profile *p, FILE *in,
                                                       const char *name,
                                                       const foldsvg_options *opts,
                                                       foldsvg_error *err);
FOLDSVG_API foldsvg_status foldsvg_profile_read_buffer(foldsvg_profile *p, const void *data,
                                                       size_t len, const char *name,
                                                       const foldsvg_options *opts,
                                                       foldsvg_error *err);

/* The count name that suits the profile's weights when none is set ("cycles" unless a
 * profile said otherwise: "samples", "ms", "bytes"). */
FOLDSVG_API const char *foldsvg_profile_count_name(const foldsvg_profile *p);

typedef enum foldsvg_format {
    FOLDSVG_FORMAT_AUTO = 0, /* by the output name: .svg -> SVG, .html/.htm -> HTML,
                              * .speedscope.json -> speedscope, else folded */
    FOLDSVG_FORMAT_SVG,
    FOLDSVG_FORMAT_FOLDED,
    FOLDSVG_FORMAT_HTML,
    FOLDSVG_FORMAT_SPEEDSCOPE /* speedscope's file format: one sampled profile, the stacks
                               * with their counts (the runs in order with "flamechart") */
} foldsvg_format;

/* The format that the file name PATH selects (AUTO rules above; NULL or "-" -> SVG). */
FOLDSVG_API foldsvg_format foldsvg_format_for_path(const char *path);
/* The format NAME names ("svg", "folded", "html": the values of the option "format" in the
 * option table), into *OUT; FOLDSVG_E_USAGE for another name. */
FOLDSVG_API foldsvg_status foldsvg_format_from_name(const char *name, foldsvg_format *out);

/* Renders to a stream. FOLDSVG_E_NO_DATA when the total is 0. */
FOLDSVG_API foldsvg_status foldsvg_profile_render(const foldsvg_profile *p, foldsvg_format format,
                                                  const foldsvg_options *opts, FILE *out,
                                                  foldsvg_error *err);
/* Renders into a new buffer (*OUT, *LEN; NUL-terminated; free with foldsvg_free). */
FOLDSVG_API foldsvg_status foldsvg_profile_render_mem(const foldsvg_profile *p,
                                                      foldsvg_format format,
                                                      const foldsvg_options *opts, char **out,
                                                      size_t *len, foldsvg_error *err);

/* Writes the profile to PATH: SVG when PATH ends in ".svg" (any case), folded text sorted by
 * path otherwise (".html" or ".htm", any case: the HTML report; ".speedscope.json": a
 * speedscope file). A regular
 * target is written to a temporary file beside it and renamed on success (keeping an
 * existing file's permissions); a failed write leaves no file and an existing one
 * untouched. A symbolic link is followed: the file it names is written (atomically, beside
 * that file), the link stays. "-" writes to standard output. OPTS NULL = defaults; ERR may
 * be NULL. */
FOLDSVG_API foldsvg_status foldsvg_profile_write(const foldsvg_profile *p, const char *path,
                                                 const foldsvg_options *opts, foldsvg_error *err);
/* The same with an explicit format (FOLDSVG_FORMAT_AUTO = by name). */
FOLDSVG_API foldsvg_status foldsvg_profile_write_as(const foldsvg_profile *p, const char *path,
                                                    foldsvg_format format,
                                                    const foldsvg_options *opts,
                                                    foldsvg_error *err);

/* Removes the hidden temporary files of the outputs being written at this moment (by any
 * thread: files written by path, the palette map), so that a program stopped by a signal
 * leaves none behind; their targets stay as they were. Returns how many it removed.
 * Async-signal-safe: call it from your handler of SIGINT, SIGTERM, SIGHUP... The library
 * installs no signal handler and changes no disposition (the foldsvg command does, see
 * foldsvg(1)). A write cut short this way fails if the program goes on. SIGKILL cannot be
 * caught: then the file stays. */
FOLDSVG_API int foldsvg_remove_pending_outputs(void);

/* What foldsvg_convert and foldsvg_diff_convert did. */
typedef struct foldsvg_convert_stats {
    uint64_t total;         /* the summed count (of a diff: AFTER's) */
    uint64_t total_before;  /* of a diff: BEFORE's as read */
    uint64_t unique_stacks; /* distinct stacks (of a diff: of either side) */
    char count_name[256];   /* the unit written in the output */
} foldsvg_convert_stats;

/* The summary line the command prints after a run (without "foldsvg: " and the newline):
 * "1,037,807 cycles across 13 unique stacks"; after a count of 1 a known plural unit is
 * singular: "1 cycle across 1 unique stack" (docs/cli.md, "Messages"). Writes at most SIZE
 * bytes, NUL-terminated, and returns the length of the whole text (as snprintf). */
FOLDSVG_API size_t foldsvg_summary(char *buf, size_t size, uint64_t total, const char *count_name,
                                   size_t unique_stacks);
/* The same for --diff: "72,980,237 cycles before, 73,000,000 after, across 13 unique
 * stacks" (the unit agrees with BEFORE's count). */
FOLDSVG_API size_t foldsvg_diff_summary(char *buf, size_t size, uint64_t before, uint64_t after,
                                        const char *count_name, size_t unique_stacks);
/* TEXT (a name from an input: a thread, a file, an event) as a terminal may show it: the
 * bytes of control characters (C0, DEL, C1) and bytes that are not UTF-8 written \xNN, so
 * that no name moves the cursor, sets a title or splits a line. The summary lines above and
 * the text tables are escaped so already. As snprintf: at most SIZE bytes, NUL-terminated;
 * returns the whole length. */
FOLDSVG_API size_t foldsvg_terminal_text(char *buf, size_t size, const char *text);

/* Reads INPUTS (NULL or "-": standard input; no inputs: standard input) and writes OUTPUT
 * ("-" or NULL: standard output) in FORMAT (AUTO: by OUTPUT's name), as the command line
 * does, the cheapest way the inputs and the output allow: folded text to SVG is merged as it
 * is read when sorted (memory of the frames drawn), else summed and sorted within the
 * "sort-buffer" option's bytes (spilling to $TMPDIR beyond them; an input may then be read
 * again); everything else goes through a profile. The options' log handler hears how, and
 * why. Output rules and errors as foldsvg_profile_write_as; STATS may be NULL. */
FOLDSVG_API foldsvg_status foldsvg_convert(const char *const *inputs, size_t ninputs,
                                           const char *output, foldsvg_format format,
                                           const foldsvg_options *opts,
                                           foldsvg_convert_stats *stats, foldsvg_error *err);

/* ---------------------------------------------------------------------------------------
 * Reports
 * ------------------------------------------------------------------------------------- */

typedef enum foldsvg_top_format {
    FOLDSVG_TOP_TEXT = 0,
    FOLDSVG_TOP_MARKDOWN,
    FOLDSVG_TOP_JSON
} foldsvg_top_format;

/* Writes the total, the number of unique stacks, and the self-time and inclusive-time
 * tables of the hottest functions to OUT, in the options' "top-format" with "top" rows
 * each (counts divided by "per" when set). FOLDSVG_E_NO_DATA when the total is 0. */
FOLDSVG_API foldsvg_status foldsvg_profile_write_top(const foldsvg_profile *p, FILE *out,
                                                     const foldsvg_options *opts,
                                                     foldsvg_error *err);

/* The summary (the command line's --summary; docs/summary.md): the input (the files read),
 * the total, the "top" (default 5) self and inclusive rows, and the findings, each a line
 * with the numbers behind it, by the rules callees, bottleneck, memory-copy, precompile,
 * software-fallback and setup ("summary-threshold" sets their thresholds), in the options'
 * "top-format". A profile of differential input gets the summary of its change.
 * FOLDSVG_E_NO_DATA when the total is 0. */
FOLDSVG_API foldsvg_status foldsvg_profile_write_summary(const foldsvg_profile *p, FILE *out,
                                                         const foldsvg_options *opts,
                                                         foldsvg_error *err);

/* ---------------------------------------------------------------------------------------
 * Profile threads (Firefox-Profiler inputs)
 * ------------------------------------------------------------------------------------- */

/* One thread of a profile: INDEX in document order, its NAME and PROCESS ("" when absent),
 * its sample rows and their summed weight. Strings live only for the call. The "thread"
 * option (repeatable: foldsvg_options_set once per value) picks threads by INDEX (digits),
 * by NAME, or by "/REGEX/" on the name. */
typedef void (*foldsvg_thread_fn)(void *user, size_t index, const char *name, const char *process,
                                  uint64_t samples, double weight);

/* Reads the profile PATH (NULL or "-": standard input) and calls FN once per thread, in
 * order. A folded-text input is FOLDSVG_E_USAGE (it has no threads). */
FOLDSVG_API foldsvg_status foldsvg_list_threads(const char *path, const foldsvg_options *opts,
                                                foldsvg_thread_fn fn, void *user,
                                                foldsvg_error *err);

/* One sample type of a pprof profile: INDEX (what the "sample-type" option takes, as does
 * TYPE), TYPE and UNIT as the profile names them ("cpu", "nanoseconds"), and the TOTAL of its
 * values over the samples. Strings live only for the call. */
typedef void (*foldsvg_sample_type_fn)(void *user, size_t index, const char *type, const char *unit,
                                       int64_t total);

/* Reads the pprof profile PATH (NULL or "-": standard input) and calls FN once per sample
 * type, in order. An input of another format is FOLDSVG_E_USAGE (it has no sample types). */
FOLDSVG_API foldsvg_status foldsvg_list_sample_types(const char *path, const foldsvg_options *opts,
                                                     foldsvg_sample_type_fn fn, void *user,
                                                     foldsvg_error *err);

/* ---------------------------------------------------------------------------------------
 * HTML reports of several profiles (one section each)
 *
 * foldsvg_profile_write/_render with FOLDSVG_FORMAT_HTML writes the report of one profile.
 * To show several profiles side by side without merging them, add each to a report:
 *     foldsvg_report *r = foldsvg_report_new(opts);
 *     foldsvg_report_add(r, profile_a, "a.json", (const char *[]){"a.json"}, 1, &err);
 *     foldsvg_report_add(r, profile_b, "b.json", (const char *[]){"b.json"}, 1, &err);
 *     foldsvg_report_write(r, "report.html", &err);
 * ------------------------------------------------------------------------------------- */

typedef struct foldsvg_report foldsvg_report;

/* An empty report using a copy of OPTS (NULL: defaults) for every section: the SVG's options,
 * "top" rows per table (25 when unset), "per", and "title" as the page title ("Profile
 * report" when unset). NULL when out of memory. */
FOLDSVG_API foldsvg_report *foldsvg_report_new(const foldsvg_options *opts);
/* NULL is fine. */
FOLDSVG_API void foldsvg_report_free(foldsvg_report *r);

/* Adds a section for P: HEADING (NULL: none) over the input facts, the flamegraph and the
 * tables. INPUTS[0..NINPUTS) are the names of the files read into P, shown as its "File"
 * fact ("-" shows as "<stdin>"); with NINPUTS 0 the names the profile recorded are shown.
 * Everything is rendered now: P may be changed or freed afterwards. Sections after the
 * first get their own SVG id prefix (the first one's, or "fg", followed by "-sN").
 * FOLDSVG_E_NO_DATA when P's total is 0. */
FOLDSVG_API foldsvg_status foldsvg_report_add(foldsvg_report *r, const foldsvg_profile *p,
                                              const char *heading, const char *const *inputs,
                                              size_t ninputs, foldsvg_error *err);
/* How many sections were added. */
FOLDSVG_API size_t foldsvg_report_sections(const foldsvg_report *r);

/* Writes the page to OUT, or to PATH like foldsvg_profile_write (atomically; "-" is standard
 * output). FOLDSVG_E_NO_DATA when no section was added. */
FOLDSVG_API foldsvg_status foldsvg_report_render(const foldsvg_report *r, FILE *out,
                                                 foldsvg_error *err);
FOLDSVG_API foldsvg_status foldsvg_report_write(const foldsvg_report *r, const char *path,
                                                foldsvg_error *err);

/* ---------------------------------------------------------------------------------------
 * Differential profiles: how AFTER differs from BEFORE
 *
 * The two sides are matched stack by stack as inferno-diff-folded matches them: a stack's
 * BEFORE count is the first, its AFTER count the second (0 when a side lacks it); with the
 * option "normalize" each BEFORE count is scaled by total(AFTER) / total(BEFORE) and
 * truncated, when the totals differ. The difference is drawn as inferno-flamegraph draws
 * inferno-diff-folded's output: frames as wide as AFTER, red where the stack grew, blue where
 * it shrank ("negate" swaps them). Both sides pass the same stack transforms (the options of
 * stage "stack", "strip-hex" among them) before they are matched.
 *
 *     foldsvg_diff *d = foldsvg_diff_new();
 *     if (foldsvg_diff_read(d, "before.folded", "after.folded", opts, &err) == FOLDSVG_OK)
 *         foldsvg_diff_write(d, "diff.html", FOLDSVG_FORMAT_AUTO, opts, &err);
 *     foldsvg_diff_free(d);
 * ------------------------------------------------------------------------------------- */

typedef struct foldsvg_diff foldsvg_diff;

typedef enum foldsvg_side { FOLDSVG_BEFORE = 0, FOLDSVG_AFTER = 1 } foldsvg_side;

/* An empty diff, or NULL when out of memory. */
FOLDSVG_API foldsvg_diff *foldsvg_diff_new(void);
/* NULL is fine. */
FOLDSVG_API void foldsvg_diff_free(foldsvg_diff *d);

/* Reads BEFORE and AFTER (any input foldsvg_profile_read_file reads; "-" is standard input,
 * for one side at most) with OPTS (NULL: defaults), replacing what D held. The two are read
 * at once, on two threads; memory holds the prefix tree of the stacks of both. A side that
 * cannot be read, or has nothing to draw, is an error naming that file. Warnings go to the
 * options' handler (on this thread, after the reading). */
FOLDSVG_API foldsvg_status foldsvg_diff_read(foldsvg_diff *d, const char *before, const char *after,
                                             const foldsvg_options *opts, foldsvg_error *err);
/* The difference of two profiles (recorded or read; their stacks as they are: the stack
 * transforms applied when they were read), replacing what D held; "normalize" applies. */
FOLDSVG_API foldsvg_status foldsvg_diff_compare(foldsvg_diff *d, const foldsvg_profile *before,
                                                const foldsvg_profile *after,
                                                const foldsvg_options *opts, foldsvg_error *err);

/* The differential profile: one two-count stack per stack of either side (BEFORE after
 * normalization), what foldsvg_profile_foreach walks and the writers draw. Owned by D. */
FOLDSVG_API const foldsvg_profile *foldsvg_diff_profile(const foldsvg_diff *d);
/* A side's total as read (before normalization), and its distinct stacks. */
FOLDSVG_API uint64_t foldsvg_diff_total(const foldsvg_diff *d, foldsvg_side side);
FOLDSVG_API size_t foldsvg_diff_unique_stacks(const foldsvg_diff *d, foldsvg_side side);

/* Writes the difference to PATH ("-": standard output) in FORMAT (AUTO: by PATH's name):
 * the differential SVG, folded text ("STACK BEFORE AFTER" lines, sorted by stack), or the
 * diff report (HTML: the flamegraph, the delta tables, the facts of both inputs, the
 * functions found on one side only). Output rules as foldsvg_profile_write. */
FOLDSVG_API foldsvg_status foldsvg_diff_write(const foldsvg_diff *d, const char *path,
                                              foldsvg_format format, const foldsvg_options *opts,
                                              foldsvg_error *err);
/* The same to a stream. */
FOLDSVG_API foldsvg_status foldsvg_diff_render(const foldsvg_diff *d, foldsvg_format format,
                                               const foldsvg_options *opts, FILE *out,
                                               foldsvg_error *err);
/* Writes the delta tables to OUT in the options' "top-format" with "top" rows each: per
 * function, self and inclusive BEFORE, AFTER, DELTA = AFTER - BEFORE and the change in
 * percent of BEFORE, ranked by |DELTA| (ties by name); BEFORE divided by "per-before" (else
 * "per"), AFTER by "per-after" (else "per"). */
FOLDSVG_API foldsvg_status foldsvg_diff_write_top(const foldsvg_diff *d, FILE *out,
                                                  const foldsvg_options *opts, foldsvg_error *err);
/* The summary of the change (--diff --summary): the delta tables ("top" rows, default 5)
 * and the same rules as foldsvg_profile_write_summary applied to AFTER - BEFORE. */
FOLDSVG_API foldsvg_status foldsvg_diff_write_summary(const foldsvg_diff *d, FILE *out,
                                                      const foldsvg_options *opts,
                                                      foldsvg_error *err);
/* One threshold (the option "fail-if") measured on a diff: PAIR names the pair of files it
 * was measured on (foldsvg_diff_dirs), NULL for one diff; THRESHOLD as it was given; BROKEN
 * whether the change breaks it; MEASURED what was measured, one line ("memcpy: +7.20% of
 * before's total (+7,200 cycles; 800 -> 8,000), 2.20 points over"). Strings live only for
 * the call. */
typedef void (*foldsvg_threshold_fn)(void *user, const char *pair, const char *threshold,
                                     int broken, const char *measured);
/* Measures D against the options' thresholds ("fail-if", repeatable: MEASURE OP LIMIT as
 * docs/cli.md says, "total > +2%", "self[memcpy] > +1%"; "fail-min-share" their floor), from
 * the numbers of its delta tables: FN (may be NULL) once per threshold, in order; *BROKEN
 * (may be NULL) how many broke. No thresholds: no call, 0. A CI job fails when *BROKEN > 0
 * (the command line exits 3). */
FOLDSVG_API foldsvg_status foldsvg_diff_check(const foldsvg_diff *d, const foldsvg_options *opts,
                                              foldsvg_threshold_fn fn, void *user, size_t *broken,
                                              foldsvg_error *err);
/* What foldsvg_diff_dirs found. */
typedef struct foldsvg_dirs_stats {
    size_t pairs;                   /* files of the same name in both directories, compared */
    size_t failed;                  /* pairs that broke a threshold */
    size_t only_before, only_after; /* files in one directory only: reported, not compared */
} foldsvg_dirs_stats;

/* Many benchmarks at once: pairs the regular files directly in BEFORE_DIR and AFTER_DIR
 * (links followed, hidden ones left out) by name, and compares each pair as foldsvg_diff_read
 * does, in byte order of the names, measuring it against the options' thresholds (FN as for
 * foldsvg_diff_check, PAIR the file's name). A file in one directory only is a warning (the
 * options' handler) and a line of the summary, not an error; no pair at all is
 * FOLDSVG_E_NO_DATA. REPORT (NULL: none) gets an HTML report with one diff section per pair
 * (as foldsvg_report_write writes), SUMMARY (NULL: none) the summary in the options'
 * "top-format": the verdict over all pairs and a line per file, then each pair's summary as
 * foldsvg_diff_write_summary writes it (Markdown: the whole within GitHub's comment limit;
 * JSON: {"pairs": [{"name", "verdict", "summary"}], "only_before", "only_after", "failed",
 * "verdict"}). A pair that cannot be read stops the run with its error. One pair's diff is in
 * memory at a time. */
FOLDSVG_API foldsvg_status foldsvg_diff_dirs(const char *before_dir, const char *after_dir,
                                             const char *report, FILE *summary,
                                             const foldsvg_options *opts, foldsvg_threshold_fn fn,
                                             void *user, foldsvg_dirs_stats *stats,
                                             foldsvg_error *err);
/* Adds the diff report of D as a section of R (embedded as every section is). */
FOLDSVG_API foldsvg_status foldsvg_report_add_diff(foldsvg_report *r, const foldsvg_diff *d,
                                                   const char *heading, foldsvg_error *err);

/* Reads BEFORE and AFTER and writes OUTPUT in FORMAT (AUTO: by OUTPUT's name) the cheapest
 * way, as the command line's --diff does: to SVG or folded text, each side streams through
 * as it is read when it is sorted folded text (each on its own thread, merge-joined in step,
 * memory for the frames drawn), else through a sorter within the "sort-buffer" option's
 * bytes (spilling to $TMPDIR); nothing builds a prefix tree. Folded output holds every stack
 * of either side, "STACK 0 0" included (a stack that normalization took to 0), as
 * inferno-diff-folded writes it. HTML output goes through foldsvg_diff_read. STATS (may be
 * NULL): AFTER's total, the stacks of the difference. */
FOLDSVG_API foldsvg_status foldsvg_diff_convert(const char *before, const char *after,
                                                const char *output, foldsvg_format format,
                                                const foldsvg_options *opts,
                                                foldsvg_convert_stats *stats, foldsvg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* FOLDSVG_H */
