/* The option table (curl's and zstd's way): one row per option of the command line. A row
 * says where the value goes (a field of foldsvg_options, which holds each layer's settings
 * struct), how it is parsed and bounded, and how --help shows it. The setters are generic by
 * type; free, clone, the stage tests and the public table (foldsvg_option_info) walk the
 * rows. Adding an option is adding a row (and its field). */
#include "api/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "api/cli.h"
#include "formats/threadsel.h"
#include "render/colors.h"
#include "render/theme.h"
#include "transform/filter.h"
#include "util/buf.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/pool.h"

void fs_warn(const foldsvg_options *o, const foldsvg_error *w)
{
    if (o && o->warn)
        o->warn(o->warn_user, w);
}

/* ---- the table ---------------------------------------------------------------------------- */

typedef enum opt_type {
    T_FLAG,       /* int, set to 1 */
    T_STRING,     /* char *, a copy; CHECK may refuse the value */
    T_UINT,       /* a decimal in [UMIN, UMAX], stored as CTYPE */
    T_REAL,       /* a finite double above DMIN (F_MIN_INCLUSIVE: at least DMIN) */
    T_ENUM,       /* one of VALUES, stored as its index (int) */
    T_LIST,       /* fs_strlist, every value appended; CHECK may refuse one */
    T_SIZE,       /* SIZE[K|M|G] (binary units, as sort -S), at least 1K, size_t */
    T_COLOR,      /* #rrggbb, fs_rgb */
    T_PALETTE,    /* one of fs_palette_names, fs_palette */
    T_BACKGROUND, /* one of fs_background_names or #rrggbb, fs_background */
    T_THRESHOLD,  /* KEY=PCT, KEY one of VALUES, PCT in [DMIN, DMAX]: fs_thresholds */
    T_CLI         /* the command line's own: not stored, foldsvg_options_set refuses it */
} opt_type;

typedef enum c_type { C_UNSIGNED, C_SIZE, C_U64, C_LONG } c_type;

enum { F_MIN_INCLUSIVE = 1 };

typedef enum opt_group {
    G_INPUT,
    G_OUTPUT,
    G_LAYOUT,
    G_COLORS,
    G_FILTERS,
    G_PROFILES,
    G_PERF,
    G_DTRACE,
    G_MODULES,
    G_GHC,
    G_REPORTS,
    G_DIFF
} opt_group;

/* A group's READS: the input formats (fs_format.name, separated by spaces) its options apply
 * to, when they apply to some only. */
static const struct {
    const char *word, *title, *reads;
} groups[] = {
    [G_INPUT] = {"input", "Input"},
    [G_OUTPUT] = {"output", "Output"},
    [G_LAYOUT] = {"layout", "Layout and text"},
    [G_COLORS] = {"colors", "Colors"},
    [G_FILTERS] = {"filters", "Filters (PCRE2 regular expressions, applied in this order)"},
    [G_PROFILES] = {"profiles", "Profiles (Firefox-Profiler JSON)", "firefox"},
    [G_PERF] = {"perf",
                "perf script output (read as is: the collapse step built in, as "
                "inferno-collapse-perf)",
                "perf"},
    [G_DTRACE] = {"dtrace", "DTrace stack aggregations (as inferno-collapse-dtrace)", "dtrace"},
    [G_MODULES] = {"modules",
                   "macOS sample reports and VTune CSV (as inferno-collapse-sample and -vtune)",
                   "sample vtune"},
    [G_GHC] = {"ghc", "GHC .prof reports (as inferno-collapse-ghcprof; one of these)", "ghcprof"},
    [G_REPORTS] = {"reports", "Reports"},
    [G_DIFF] = {"diff", "Differential profiles (foldsvg --diff BEFORE AFTER)"},
};

static const char *const stage_names[] = {
    [FOLDSVG_STAGE_INPUT] = "input",
    [FOLDSVG_STAGE_STACK] = "stack",
    [FOLDSVG_STAGE_RENDER] = "render",
    [FOLDSVG_STAGE_REPORT] = "report",
    [FS_STAGE_CLI] = "cli",
};

typedef foldsvg_status (*opt_check)(const char *name, const char *value, foldsvg_error *err);

typedef struct opt_row {
    const char *name;
    char short_name;
    uint8_t type, stage, group;
    uint8_t ctype, flags;
    size_t off, size; /* the field */
    size_t set_off;   /* + 1: an int set to 1 when the option is given; 0: none */
    uint64_t umin, umax;
    double dmin;
    const char *const *values;
    const char *default_value;
    const char *expected; /* the end of "invalid value 'V' for --NAME: expected ..." */
    opt_check check;
    const char *metavar, *help;
    double dmax;       /* T_REAL: at most this, when above dmin */
    unsigned writes;   /* does something only for these outputs (W_*); 0: by its stage */
    const char *needs; /* does something only when this other option is set too */
    int key;           /* foldsvg_option; -1 for the command line's own (CLI_ID says which) */
    int cli_id;        /* fs_cli_option */
} opt_row;

/* What an option is about, when not its stage's: FS_WRITES_* bits, or W_ANY. */
enum { W_ANY = 0x100 };

static foldsvg_status check_id_prefix(const char *name, const char *v, foldsvg_error *err);
static foldsvg_status check_pattern(const char *name, const char *v, foldsvg_error *err);
static foldsvg_status check_thread(const char *name, const char *v, foldsvg_error *err);

static const char *const top_formats[] = {"text", "markdown", "json", NULL};
static const char *const weights[] = {"auto", "samples", NULL};
/* foldsvg_format's names, from FOLDSVG_FORMAT_SVG on */
static const char *const out_formats[] = {"svg", "folded", "html", NULL};

#define FIELD(f) .off = offsetof(foldsvg_options, f), .size = sizeof(((foldsvg_options *)0)->f)
#define SET(f) .set_off = offsetof(foldsvg_options, f) + 1
#define IN .stage = FOLDSVG_STAGE_INPUT
#define STACK .stage = FOLDSVG_STAGE_STACK
#define RENDER .stage = FOLDSVG_STAGE_RENDER
#define REPORT .stage = FOLDSVG_STAGE_REPORT
#define CLI(id) .key = -1, .cli_id = (id), .type = T_CLI, .stage = FS_STAGE_CLI
#define WHOLE(lo, hi, c) .type = T_UINT, .umin = (lo), .umax = (hi), .ctype = (c)
#define POSITIVE_INT WHOLE(1, 1000000, C_UNSIGNED), .expected = "a whole number from 1 to 1000000"
#define ABOVE_0 .type = T_REAL, .dmin = 0, .expected = "a number above 0"
#define COLOR .type = T_COLOR, .expected = "a color #rrggbb", .metavar = "#RRGGBB"

/* In --help order. */
static const opt_row rows[] = {
    {"reverse", 0, T_FLAG, STACK, G_INPUT, FIELD(stack.reverse),
     .help = "reverse each stack's frame order before merging", .key = FOLDSVG_OPT_REVERSE},
    {"base", 0, T_LIST, STACK, G_INPUT, FIELD(stack.base), .metavar = "SYM",
     .help = "re-root stacks at the deepest frame named SYM (repeatable)", .key = FOLDSVG_OPT_BASE},
    {"no-sort", 0, T_FLAG, IN, G_INPUT, FIELD(stack.no_sort),
     .help = "input is already sorted; check it instead of sorting", .key = FOLDSVG_OPT_NO_SORT},
    {"sort-buffer", 0, T_SIZE, IN, G_INPUT, FIELD(sort_buffer), .metavar = "SIZE",
     .expected = "a size of 1K or more, as 64M or 2G",
     .help = "memory for sorting unsorted folded text before it spills to\n"
             "$TMPDIR (K, M, G suffixes; for the two sides of --diff\n"
             "together)",
     .default_value = "16M", .key = FOLDSVG_OPT_SORT_BUFFER},
    {"threads", 0, WHOLE(1, FS_POOL_MAX, C_UNSIGNED), IN, G_INPUT, FIELD(threads), .metavar = "N",
     .expected = "a whole number from 1 to 256",
     .help = "threads to use (default: $FOLDSVG_THREADS, else the cores, at\n"
             "most 8); 1 does everything on one, with the same output",
     .key = FOLDSVG_OPT_THREADS},
    {"flamechart", 0, T_FLAG, IN, G_INPUT, FIELD(stack.flamechart), .writes = FS_WRITES_GRAPH,
     .help = "keep input order (a flame chart over time); title Flame Chart",
     .key = FOLDSVG_OPT_FLAMECHART},

    {"output", 'o', CLI(FS_CLI_OUTPUT), G_OUTPUT, .metavar = "FILE",
     .help = "FILE.svg: SVG; FILE.html: HTML report (flamegraph and tables);\n"
             "any other name: folded text; '-': stdout SVG"},
    {"format", 0, CLI(FS_CLI_FORMAT), G_OUTPUT, .metavar = "FMT", .values = out_formats,
     .help = "svg, folded or html, overriding the name of -o"},
    {"id-prefix", 0, T_STRING, RENDER, G_OUTPUT, FIELD(svg.id_prefix), .metavar = "P",
     .check = check_id_prefix, .expected = "a letter followed by letters, digits, '_' or '-'",
     .help = "prefix of the SVG's element ids (default: a content hash)",
     .key = FOLDSVG_OPT_ID_PREFIX},
    {"pretty-xml", 0, T_FLAG, RENDER, G_OUTPUT, FIELD(svg.pretty_xml), .help = "indent the SVG",
     .key = FOLDSVG_OPT_PRETTY_XML},
    {"no-javascript", 0, T_FLAG, RENDER, G_OUTPUT, FIELD(svg.no_javascript),
     .help = "leave the interactive script out", .key = FOLDSVG_OPT_NO_JAVASCRIPT},
    {"quiet", 'q', CLI(FS_CLI_QUIET), G_OUTPUT, .help = "no warnings, no summary line"},
    {"verbose", 'v', CLI(FS_CLI_VERBOSE), G_OUTPUT,
     .help = "say on stderr how the inputs are read and why (the plan)"},
    {"help", 'h', CLI(FS_CLI_HELP), G_OUTPUT, .help = "this help"},
    {"version", 'V', CLI(FS_CLI_VERSION), G_OUTPUT, .help = "the version"},
    {"list-options", 0, CLI(FS_CLI_LIST_OPTIONS), G_OUTPUT,
     .help = "list the options (NAME SHORT TAKES_VALUE STAGE GROUP), exit"},

    {"title", 0, T_STRING, RENDER, G_LAYOUT, FIELD(svg.title), .metavar = "TEXT",
     .help = "title (default Flame Graph, Icicle Graph, Flame Chart)", .key = FOLDSVG_OPT_TITLE},
    {"subtitle", 0, T_STRING, RENDER, G_LAYOUT, FIELD(svg.subtitle), .metavar = "TEXT",
     .help = "second title line", .key = FOLDSVG_OPT_SUBTITLE},
    {"countname", 0, T_STRING, RENDER, G_LAYOUT, FIELD(countname), .metavar = "NAME",
     .writes = W_ANY,
     .help = "the count unit in tooltips (default: cycles; perf: samples,\n"
             "or the event when samples carry periods)",
     .key = FOLDSVG_OPT_COUNTNAME},
    {"nametype", 0, T_STRING, RENDER, G_LAYOUT, FIELD(svg.nametype), .metavar = "TEXT",
     .help = "the label before names in the details line (Function:)", .key = FOLDSVG_OPT_NAMETYPE},
    {"notes", 0, T_STRING, RENDER, G_LAYOUT, FIELD(svg.notes), .metavar = "TEXT",
     .help = "notes stored in a comment", .key = FOLDSVG_OPT_NOTES},
    {"width", 0, POSITIVE_INT, RENDER, G_LAYOUT, FIELD(svg.width), .metavar = "N",
     .help = "image width in pixels (default 1200, fluid)", .key = FOLDSVG_OPT_WIDTH},
    {"height", 0, POSITIVE_INT, RENDER, G_LAYOUT, FIELD(svg.frameheight), .metavar = "N",
     .help = "frame height in pixels", .default_value = "16", .key = FOLDSVG_OPT_HEIGHT},
    {"minwidth", 0, T_REAL, RENDER, G_LAYOUT, FIELD(svg.minwidth), .dmin = 0, .dmax = 100,
     .flags = F_MIN_INCLUSIVE, .expected = "a percentage from 0 to 100", .metavar = "PCT",
     .help = "omit frames narrower than PCT percent", .default_value = "0.01",
     .key = FOLDSVG_OPT_MINWIDTH},
    {"fonttype", 0, T_STRING, RENDER, G_LAYOUT, FIELD(svg.fonttype), .metavar = "FONT",
     .help = "font family (default monospace)", .key = FOLDSVG_OPT_FONTTYPE},
    {"fontsize", 0, POSITIVE_INT, RENDER, G_LAYOUT, FIELD(svg.fontsize), .metavar = "N",
     .help = "font size", .default_value = "12", .key = FOLDSVG_OPT_FONTSIZE},
    {"fontwidth", 0, ABOVE_0, RENDER, G_LAYOUT, FIELD(svg.fontwidth), .metavar = "X",
     .help = "character width in ems of the labels written in the file\n"
             "(the script measures the font it draws)",
     .default_value = "0.59", .key = FOLDSVG_OPT_FONTWIDTH},
    {"inverted", 'i', T_FLAG, RENDER, G_LAYOUT, FIELD(svg.inverted),
     .help = "icicle graph (root at the top)", .key = FOLDSVG_OPT_INVERTED},
    {"truncate-text-right", 0, T_FLAG, RENDER, G_LAYOUT, FIELD(svg.truncate_text_right),
     .help = "the script cuts long labels at the end (name..), not at\n"
             "the start (..name, the default, as inferno)",
     .key = FOLDSVG_OPT_TRUNCATE_TEXT_RIGHT},
    {"factor", 0, ABOVE_0, RENDER, G_LAYOUT, FIELD(svg.factor), .metavar = "X",
     .help = "multiply counts by X in tooltips", .default_value = "1", .key = FOLDSVG_OPT_FACTOR},
    {"nameattr", 0, T_STRING, RENDER, G_LAYOUT, FIELD(nameattr), .metavar = "FILE",
     .help = "per-function attributes (title, href, class, ...)", .key = FOLDSVG_OPT_NAMEATTR},

    {"colors", 'c', T_PALETTE, RENDER, G_COLORS, FIELD(svg.palette), SET(palette_set),
     .values = fs_palette_names, .default_value = "hot", .metavar = "PALETTE", .help = "{values}",
     .key = FOLDSVG_OPT_COLORS},
    {"bgcolors", 0, T_BACKGROUND, RENDER, G_COLORS, FIELD(svg.bg), SET(svg.bg_set),
     .values = fs_background_names, .expected = "yellow, blue, green, grey or #rrggbb",
     .metavar = "COLOR", .help = "yellow, blue, green, grey or #rrggbb",
     .key = FOLDSVG_OPT_BGCOLORS},
    {"theme", 0, T_ENUM, RENDER, G_COLORS, FIELD(svg.theme), .values = fs_theme_names,
     .default_value = "auto", .metavar = "auto|light|dark",
     .help = "color scheme of the SVG and the report: the system's\n"
             "(auto, the default), light or dark",
     .key = FOLDSVG_OPT_THEME},
    {"hash", 0, T_FLAG, RENDER, G_COLORS, FIELD(svg.hash), .help = "colors from a hash of the name",
     .key = FOLDSVG_OPT_HASH},
    {"deterministic", 0, T_FLAG, RENDER, G_COLORS, FIELD(svg.deterministic),
     .help = "colors from a stable hash of the whole name", .key = FOLDSVG_OPT_DETERMINISTIC},
    {"cp", 0, T_FLAG, RENDER, G_COLORS, FIELD(cp),
     .help = "keep colors consistent across runs in ./palette.map", .key = FOLDSVG_OPT_CP},
    {"palette-map", 0, T_STRING, RENDER, G_COLORS, FIELD(palette_map_path), .metavar = "FILE",
     .needs = "cp", .help = "the palette map --cp reads and rewrites (default palette.map)",
     .key = FOLDSVG_OPT_PALETTE_MAP},
    {"colordiffusion", 0, T_FLAG, RENDER, G_COLORS, FIELD(svg.colordiffusion),
     .help = "color by width (wider is redder)", .key = FOLDSVG_OPT_COLORDIFFUSION},
    {"negate", 0, T_FLAG, RENDER, G_COLORS, FIELD(svg.negate), .help = "swap differential colors",
     .key = FOLDSVG_OPT_NEGATE},
    {"uicolor", 0, COLOR, RENDER, G_COLORS, FIELD(svg.uicolor),
     .help = "text color of the controls", .default_value = "#000000", .key = FOLDSVG_OPT_UICOLOR},
    {"search-color", 0, COLOR, RENDER, G_COLORS, FIELD(svg.searchcolor),
     .help = "color of search matches", .default_value = "#e600e6",
     .key = FOLDSVG_OPT_SEARCH_COLOR},
    {"stroke-color", 0, COLOR, RENDER, G_COLORS, FIELD(svg.strokecolor), SET(svg.stroke_set),
     .help = "outline of frames", .key = FOLDSVG_OPT_STROKE_COLOR},

    {"strip", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.strip), .check = check_pattern,
     .metavar = "RE", .help = "delete every match of RE in frame names (repeatable, in order)",
     .key = FOLDSVG_OPT_STRIP},
    {"strip-rust-hash", 0, T_FLAG, STACK, G_FILTERS, FIELD(stack.strip_rust_hash),
     .help = "drop Rust symbol hashes (::h<16 hex>, v0 crate[hash]); first\n"
             "(the default for profiles a symbolizer named: Firefox JSON)",
     .key = FOLDSVG_OPT_STRIP_RUST_HASH},
    {"keep-rust-hash", 0, T_FLAG, STACK, G_FILTERS, FIELD(stack.keep_rust_hash),
     .help = "keep the Rust symbol hashes of symbolized profiles",
     .key = FOLDSVG_OPT_KEEP_RUST_HASH},
    {"include", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.include), .check = check_pattern,
     .metavar = "RE", .help = "keep only stacks with a frame matching RE (repeatable: any)",
     .key = FOLDSVG_OPT_INCLUDE},
    {"exclude", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.exclude), .check = check_pattern,
     .metavar = "RE", .help = "drop stacks with a frame matching RE (repeatable: any)",
     .key = FOLDSVG_OPT_EXCLUDE},
    {"focus", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.focus), .check = check_pattern,
     .metavar = "RE", .help = "re-root each stack at its outermost frame matching RE",
     .key = FOLDSVG_OPT_FOCUS},
    {"collapse-recursion", 0, T_FLAG, STACK, G_FILTERS, FIELD(stack.collapse_recursion),
     .help = "merge directly recursive frames (a;a;b -> a;b)",
     .key = FOLDSVG_OPT_COLLAPSE_RECURSION},

    {"thread", 0, T_LIST, IN, G_PROFILES, FIELD(input.threads), .check = check_thread,
     .metavar = "T",
     .help = "only thread T: its index, its name, or /REGEX/ matching names\n"
             "(repeatable: their union; default: all threads merged)",
     .key = FOLDSVG_OPT_THREAD},
    {"list-threads", 0, CLI(FS_CLI_LIST_THREADS), G_PROFILES,
     .help = "list the threads (INDEX NAME PROCESS SAMPLES WEIGHT), exit"},
    {"weight", 0, T_ENUM, IN, G_PROFILES, FIELD(input.weight_samples), .values = weights,
     .default_value = "auto", .metavar = "auto|samples",
     .help = "weigh samples by the profile (SP1 cycles) or 1 each", .key = FOLDSVG_OPT_WEIGHT},

    {"pid", 0, T_FLAG, IN, G_PERF, FIELD(input.perf.pid),
     .help = "root each stack at its process (COMMAND-PID)", .key = FOLDSVG_OPT_PID},
    {"tid", 0, T_FLAG, IN, G_PERF, FIELD(input.perf.tid),
     .help = "root each stack at its thread (COMMAND-PID/TID)", .key = FOLDSVG_OPT_TID},
    {"kernel", 0, T_FLAG, IN, G_PERF, FIELD(input.perf.kernel), .help = "mark kernel frames _[k]",
     .key = FOLDSVG_OPT_KERNEL},
    {"jit", 0, T_FLAG, IN, G_PERF, FIELD(input.perf.jit),
     .help = "mark JIT frames (/tmp/perf-PID.map, jitted-*.so) _[j]", .key = FOLDSVG_OPT_JIT},
    {"all", 0, T_FLAG, IN, G_PERF, FIELD(input.perf.all), .help = "--kernel and --jit",
     .key = FOLDSVG_OPT_ALL},
    {"addrs", 0, T_FLAG, IN, G_PERF, FIELD(input.perf.addrs),
     .help = "frames without a symbol: [MODULE <ADDRESS>]", .key = FOLDSVG_OPT_ADDRS},
    {"event-filter", 0, T_STRING, IN, G_PERF, FIELD(input.perf.event_filter), .metavar = "EVENT",
     .help = "only samples of EVENT (default: the first event named)",
     .key = FOLDSVG_OPT_EVENT_FILTER},
    {"skip-after", 0, T_LIST, IN, G_PERF, FIELD(input.perf.skip_after), .metavar = "FUNC",
     .help = "leave out the callers of frames named FUNC (repeatable)",
     .key = FOLDSVG_OPT_SKIP_AFTER},

    {"includeoffset", 0, T_FLAG, IN, G_DTRACE, FIELD(input.collapse.includeoffset),
     .help = "keep the frames' offsets (+0x12), but the leaf's", .key = FOLDSVG_OPT_INCLUDEOFFSET},
    {"no-modules", 0, T_FLAG, IN, G_MODULES, FIELD(input.collapse.no_modules),
     .help = "functions without their modules (not module`function)",
     .key = FOLDSVG_OPT_NO_MODULES},
    {"time", 0, T_FLAG, IN, G_GHC, FIELD(input.collapse.ghc_time),
     .help = "weigh cost centres by their own %time, in tenths (default)", .key = FOLDSVG_OPT_TIME},
    {"ticks", 0, T_FLAG, IN, G_GHC, FIELD(input.collapse.ghc_ticks),
     .help = "by their own ticks (a profile made with +RTS -P)", .key = FOLDSVG_OPT_TICKS},
    {"bytes", 0, T_FLAG, IN, G_GHC, FIELD(input.collapse.ghc_bytes),
     .help = "by the bytes they allocated (+RTS -P)", .key = FOLDSVG_OPT_BYTES},

    {"top", 0, WHOLE(1, 1000000000, C_SIZE), REPORT, G_REPORTS, FIELD(report.top), .writes = W_ANY,
     .expected = "a number of rows, 1 or more", .metavar = "N",
     .help = "print the N hottest functions by self and inclusive time to\n"
             "stdout (nothing else unless -o FILE); in HTML, rows per table",
     .key = FOLDSVG_OPT_TOP},
    {"top-format", 0, T_ENUM, REPORT, G_REPORTS, FIELD(report.top_format), .values = top_formats,
     .writes = FS_WRITES_TOP, .default_value = "text", .metavar = "FMT",
     .help = "text (default), markdown or json", .key = FOLDSVG_OPT_TOP_FORMAT},
    {"per", 0, WHOLE(1, UINT64_MAX, C_U64), REPORT, G_REPORTS, FIELD(report.per),
     .expected = "a whole number, 1 or more", .metavar = "K",
     .help = "divide the tables' counts by K (cost per iteration)", .key = FOLDSVG_OPT_PER},
    {"summary", 0, CLI(FS_CLI_SUMMARY), G_REPORTS,
     .help = "print the summary to stdout (input, total, top self and\n"
             "inclusive rows, what stands out: one line per finding);\n"
             "--top N rows (default 5), --top-format, --per apply"},
    {"summary-threshold", 0, T_THRESHOLD, REPORT, G_REPORTS, FIELD(report.thresholds),
     .values = fs_rule_ids, .dmin = 0, .dmax = 100, .metavar = "RULE=PCT",
     .help = "the threshold of a finding's rule, percent of the total\n"
             "(repeatable; defaults: callees=20 bottleneck=5\n"
             "memory-copy=1 precompile=50 software-fallback=5 setup=10)",
     .key = FOLDSVG_OPT_SUMMARY_THRESHOLD},
    {"sections", 0, CLI(FS_CLI_SECTIONS), G_REPORTS,
     .help = "HTML report: one section per INPUT instead of one merged\nprofile"},
    {"facts-out", 0, T_STRING, REPORT, G_REPORTS, FIELD(facts_out), .writes = W_ANY,
     .metavar = "FILE",
     .help = "a part of a bigger run: folded output, and each input's facts\n"
             "and line counts in FILE for --facts-from (no warnings about\n"
             "skipped lines, no error for nothing to draw: that run says it)",
     .key = FOLDSVG_OPT_FACTS_OUT},
    {"facts-from", 0, T_STRING, REPORT, G_REPORTS, FIELD(facts_from), .writes = W_ANY,
     .metavar = "FILE",
     .help = "draw parts folded with --facts-out: the report's facts, the\n"
             "unit, warnings and errors are those of the inputs in FILE",
     .key = FOLDSVG_OPT_FACTS_FROM},

    {"diff", 0, CLI(FS_CLI_DIFF), G_DIFF,
     .help = "draw how AFTER differs from BEFORE (the two inputs): widths\n"
             "by AFTER, red grew, blue shrank; tables of the change"},
    {"normalize", 0, T_FLAG, STACK, G_DIFF, FIELD(diff_normalize),
     .help = "scale BEFORE's counts to AFTER's total (each stack's,\ntruncated)",
     .key = FOLDSVG_OPT_NORMALIZE},
    {"strip-hex", 0, T_FLAG, STACK, G_DIFF, FIELD(stack.strip_hex),
     .help = "write hex addresses in names (0x7f3a...) as 0x... so that\nstacks match",
     .key = FOLDSVG_OPT_STRIP_HEX},
    {"per-before", 0, WHOLE(1, UINT64_MAX, C_U64), REPORT, G_DIFF, FIELD(report.per_before),
     .expected = "a whole number, 1 or more", .metavar = "K",
     .help = "divide BEFORE's counts in the tables by K (default --per)",
     .key = FOLDSVG_OPT_PER_BEFORE},
    {"per-after", 0, WHOLE(1, UINT64_MAX, C_U64), REPORT, G_DIFF, FIELD(report.per_after),
     .expected = "a whole number, 1 or more", .metavar = "K",
     .help = "divide AFTER's counts in the tables by K (default --per)",
     .key = FOLDSVG_OPT_PER_AFTER},
};

#define NROWS (sizeof rows / sizeof rows[0])

static const opt_row *find(const char *name)
{
    for (size_t i = 0; i < NROWS; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

static int takes_value(const opt_row *r)
{
    return r->type == T_CLI ? r->metavar != NULL : r->type != T_FLAG;
}

static void *field(foldsvg_options *o, const opt_row *r)
{
    return (char *)o + r->off;
}

static const void *cfield(const foldsvg_options *o, const opt_row *r)
{
    return (const char *)o + r->off;
}

static void describe(const opt_row *r, foldsvg_option_desc *out)
{
    *out = (foldsvg_option_desc){
        .key = (foldsvg_option)(r->key < 0 ? 0 : r->key),
        .name = r->name,
        .short_name = r->short_name,
        .takes_value = takes_value(r),
        .repeatable = r->type == T_LIST,
        .stage = (foldsvg_option_stage)r->stage,
        .stage_name = stage_names[r->stage],
        .group = groups[r->group].word,
        .group_title = groups[r->group].title,
        .metavar = r->metavar,
        .help = r->help,
        .values = r->values,
        .default_value = r->default_value,
    };
}

/* The library's options are the rows that are not the command line's. */
size_t foldsvg_option_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NROWS; i++)
        n += rows[i].type != T_CLI;
    return n;
}

foldsvg_status foldsvg_option_info(size_t index, foldsvg_option_desc *out)
{
    if (!out)
        return FOLDSVG_E_ARG;
    for (size_t i = 0; i < NROWS; i++) {
        if (rows[i].type == T_CLI)
            continue;
        if (index-- == 0) {
            describe(&rows[i], out);
            return FOLDSVG_OK;
        }
    }
    return FOLDSVG_E_ARG;
}

foldsvg_status foldsvg_format_from_name(const char *name, foldsvg_format *out)
{
    for (size_t i = 0; name && out_formats[i]; i++) {
        if (strcmp(out_formats[i], name) == 0) {
            *out = (foldsvg_format)(FOLDSVG_FORMAT_SVG + i);
            return FOLDSVG_OK;
        }
    }
    return FOLDSVG_E_USAGE;
}

size_t fs_cli_row_count(void)
{
    return NROWS;
}

void fs_cli_row_info(size_t index, fs_cli_row *out)
{
    describe(&rows[index], &out->d);
    out->cli = rows[index].type == T_CLI ? (fs_cli_option)rows[index].cli_id : FS_CLI_NONE;
}

int foldsvg_option_takes_value(const char *name)
{
    const opt_row *r = name ? find(name) : NULL;
    if (!r || r->type == T_CLI)
        return -1;
    return takes_value(r);
}

/* ---- values ------------------------------------------------------------------------------ */

static foldsvg_status bad_value(foldsvg_error *err, const char *name, const char *v,
                                const char *expected)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL, "invalid value '%s' for --%s: expected %s", v, name,
                    expected);
}

static foldsvg_status nomem(foldsvg_error *err)
{
    return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
}

static int cmp_words(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "one of a, b, c": VALUES sorted, for a list too long to read in its own order. */
static foldsvg_status bad_word(foldsvg_error *err, const opt_row *r, const char *v)
{
    const char *sorted[64];
    size_t n = 0;
    while (r->values[n] && n < sizeof sorted / sizeof sorted[0]) {
        sorted[n] = r->values[n];
        n++;
    }
    qsort(sorted, n, sizeof *sorted, cmp_words);
    char list[1024] = "one of ";
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", sorted[i]);
    }
    return bad_value(err, r->name, v, list);
}

/* "a, b or c": VALUES in their order. */
static foldsvg_status bad_choice(foldsvg_error *err, const opt_row *r, const char *v)
{
    char list[512] = "";
    for (size_t i = 0; r->values[i]; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s",
                 i == 0             ? ""
                 : r->values[i + 1] ? ", "
                                    : " or ",
                 r->values[i]);
    }
    return bad_value(err, r->name, v, list);
}

/* "KEY=PCT, KEY one of a, b, c and PCT from 0 to 100". */
static foldsvg_status bad_keyed(foldsvg_error *err, const opt_row *r, const char *v)
{
    char list[512] = "";
    for (size_t i = 0; r->values[i]; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", r->values[i]);
    }
    char expected[700];
    snprintf(expected, sizeof expected, "%s: RULE one of %s, PCT from %g to %g", r->metavar, list,
             r->dmin, r->dmax);
    return bad_value(err, r->name, v, expected);
}

static int parse_double(const char *v, double *out)
{
    if (!v || !*v || isspace((unsigned char)v[0]))
        return -1;
    errno = 0;
    char *end;
    double x = strtod(v, &end);
    if (errno || *end || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

/* SIZE[K|M|G] (binary units), as sort -S. */
static int parse_size(const char *v, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = isdigit((unsigned char)v[0]) ? strtoull(v, &end, 10) : 0;
    unsigned shift = 0;
    if (x > 0 && errno == 0) {
        if (*end == 'K' || *end == 'k')
            shift = 10;
        else if (*end == 'M' || *end == 'm')
            shift = 20;
        else if (*end == 'G' || *end == 'g')
            shift = 30;
        end += shift != 0;
    }
    if (x == 0 || errno || *end || x > (SIZE_MAX >> shift) || (x << shift) < 1024)
        return -1;
    *out = (size_t)(x << shift);
    return 0;
}

static void store_uint(void *f, c_type t, uint64_t x)
{
    switch (t) {
    case C_UNSIGNED:
        *(unsigned *)f = (unsigned)x;
        break;
    case C_SIZE:
        *(size_t *)f = (size_t)x;
        break;
    case C_U64:
        *(uint64_t *)f = x;
        break;
    case C_LONG:
        *(long *)f = (long)x;
        break;
    }
}

static foldsvg_status check_id_prefix(const char *name, const char *v, foldsvg_error *err)
{
    (void)name;
    (void)err;
    /* The prefix becomes part of XML ids and CSS selectors: keep it to characters that
     * need no escaping in either. */
    int ok = isalpha((unsigned char)v[0]) && strlen(v) <= 64;
    for (const char *p = v; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_' || *p == '-';
    return ok ? FOLDSVG_OK : FOLDSVG_E_USAGE;
}

/* Patterns are compiled here once to reject bad ones early (exit 2, nothing written); the
 * message is PCRE2's. */
static foldsvg_status check_pattern(const char *name, const char *v, foldsvg_error *err)
{
    return fs_filter_check_pattern(name, v, err);
}

/* An index, a name or /REGEX/ (formats/threadsel.h); the message says what is wrong. */
static foldsvg_status check_thread(const char *name, const char *v, foldsvg_error *err)
{
    (void)name;
    return fs_threadsel_check(v, err);
}

/* The generic setter: parses V by the row's type into its field (and notes that it was given,
 * where the row says so). */
static foldsvg_status set_value(foldsvg_options *o, const opt_row *r, const char *v,
                                foldsvg_error *err)
{
    void *f = field(o, r);
    if (r->check) {
        foldsvg_status st = r->check(r->name, v, err);
        if (st)
            return r->expected ? bad_value(err, r->name, v, r->expected) : st;
    }
    switch ((opt_type)r->type) {
    case T_FLAG:
        *(int *)f = 1;
        break;
    case T_STRING: {
        char *copy = strdup(v);
        if (!copy)
            return nomem(err);
        free(*(char **)f);
        *(char **)f = copy;
        break;
    }
    case T_UINT: {
        uint64_t x;
        if (fs_parse_decimal(v, r->umax, &x) != 0 || x < r->umin)
            return bad_value(err, r->name, v, r->expected);
        store_uint(f, (c_type)r->ctype, x);
        break;
    }
    case T_REAL: {
        double x;
        int ok = parse_double(v, &x) == 0 &&
                 ((r->flags & F_MIN_INCLUSIVE) ? x >= r->dmin : x > r->dmin) &&
                 (r->dmax <= r->dmin || x <= r->dmax);
        if (!ok)
            return bad_value(err, r->name, v, r->expected);
        *(double *)f = x;
        break;
    }
    case T_ENUM: {
        size_t i = 0;
        while (r->values[i] && strcmp(r->values[i], v) != 0)
            i++;
        if (!r->values[i])
            return bad_choice(err, r, v);
        *(int *)f = (int)i;
        break;
    }
    case T_LIST:
        if (fs_strlist_push(f, v) != FOLDSVG_OK)
            return nomem(err);
        break;
    case T_SIZE:
        if (parse_size(v, f) != 0)
            return bad_value(err, r->name, v, r->expected);
        break;
    case T_COLOR:
        if (fs_rgb_parse_hex(v, f) != 0)
            return bad_value(err, r->name, v, r->expected);
        break;
    case T_PALETTE:
        if (fs_palette_from_name(v, f) != 0)
            return bad_word(err, r, v);
        break;
    case T_BACKGROUND:
        if (fs_background_parse(v, f) != 0)
            return bad_value(err, r->name, v, r->expected);
        break;
    case T_THRESHOLD: {
        const char *eq = strchr(v, '=');
        size_t i = 0, klen = eq ? (size_t)(eq - v) : 0;
        while (eq && r->values[i] &&
               (strlen(r->values[i]) != klen || strncmp(r->values[i], v, klen) != 0))
            i++;
        double x;
        if (!eq || !r->values[i] || parse_double(eq + 1, &x) != 0 || x < r->dmin || x > r->dmax)
            return bad_keyed(err, r, v);
        fs_thresholds *t = f;
        t->pct[i] = x;
        t->set |= 1u << i;
        break;
    }
    case T_CLI:
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "unknown option --%s", r->name);
    }
    if (r->set_off)
        *(int *)(void *)((char *)o + r->set_off - 1) = 1;
    return FOLDSVG_OK;
}

foldsvg_status foldsvg_options_set(foldsvg_options *o, const char *name, const char *value,
                                   foldsvg_error *err)
{
    if (!o || !name)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set: NULL argument");
    const opt_row *r = find(name);
    if (!r || r->type == T_CLI)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "unknown option --%s", name);
    if (takes_value(r) && !value)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "option --%s needs a value", name);
    if (!takes_value(r) && value)
        return fs_error(err, FOLDSVG_E_USAGE, NULL, "option --%s takes no value", name);
    return set_value(o, r, value, err);
}

/* Whether the row's option is set to other than its default. */
static int row_set(const foldsvg_options *o, const opt_row *r)
{
    if (r->type == T_CLI)
        return 0;
    if (r->type == T_LIST)
        return ((const fs_strlist *)cfield(o, r))->n > 0;
    return memcmp(cfield(o, r), cfield(fs_default_options(), r), r->size) != 0;
}

/* The outputs the row's option is about (FS_WRITES_* bits, or W_ANY). */
static unsigned row_writes(const opt_row *r)
{
    if (r->writes)
        return r->writes;
    if (r->stage == FOLDSVG_STAGE_RENDER)
        return FS_WRITES_GRAPH;
    if (r->stage == FOLDSVG_STAGE_REPORT)
        return FS_WRITES_TABLES;
    return W_ANY;
}

static void warn_unused(const foldsvg_options *o, const char *fmt, ...) FS_PRINTF(2, 3);
static void warn_unused(const foldsvg_options *o, const char *fmt, ...)
{
    foldsvg_error w;
    memset(&w, 0, sizeof w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w.message, sizeof w.message, fmt, ap);
    va_end(ap);
    fs_warn(o, &w);
}

void fs_cli_warn_unused(const foldsvg_options *o, unsigned writes)
{
    if (!o || !o->warn)
        return;
    const char *written =
        writes & FS_WRITES_TABLES ? "only tables are written" : "only folded text is written";
    for (size_t i = 0; i < NROWS; i++) {
        const opt_row *r = &rows[i];
        if (!row_set(o, r))
            continue;
        unsigned about = row_writes(r);
        const opt_row *needed = r->needs ? find(r->needs) : NULL;
        if (needed && !row_set(o, needed))
            warn_unused(o, "--%s does nothing without --%s", r->name, needed->name);
        else if (about == FS_WRITES_GRAPH && !(writes & about))
            warn_unused(o, "--%s does nothing here: it is about the flamegraph, and %s", r->name,
                        written);
        else if (about == FS_WRITES_TABLES && !(writes & about))
            warn_unused(o,
                        "--%s does nothing here: it is about the tables (--top, the HTML "
                        "report), and none are written",
                        r->name);
        else if (about == FS_WRITES_TOP && !(writes & about))
            warn_unused(o,
                        "--%s does nothing without --top or --summary (it is the format of "
                        "their tables)",
                        r->name);
    }
    /* inferno's rule, which foldsvg keeps: the order-keeping modes take stacks whole */
    if (o->stack.base.n && (o->stack.flamechart || o->stack.no_sort))
        warn_unused(o, "--base does nothing with --%s (inferno ignores it there too)",
                    o->stack.flamechart ? "flamechart" : "no-sort");
}

foldsvg_status fs_options_check_inputs(const foldsvg_options *o, unsigned formats,
                                       const char *input, const char *what, foldsvg_error *err)
{
    if (!formats)
        return FOLDSVG_OK; /* nothing was read through a reader */
    /* A part of a run (--facts-out) reads a group of the inputs, which may lack the format an
     * option is for while the whole run's inputs have it. */
    if (o->facts_out)
        return FOLDSVG_OK;
    for (size_t i = 0; i < NROWS; i++) {
        const opt_row *r = &rows[i];
        const char *reads = groups[r->group].reads;
        if (!reads || !row_set(o, r))
            continue;
        /* the formats it applies to, by name; one of them read is enough */
        char applies[256] = "";
        int read_one = 0;
        for (const char *w = reads; *w;) {
            size_t n = strcspn(w, " ");
            size_t k = 0;
            while (fs_formats[k] &&
                   (strlen(fs_formats[k]->name) != n || strncmp(fs_formats[k]->name, w, n) != 0))
                k++;
            if (fs_formats[k] && (formats & (1u << k)))
                read_one = 1;
            size_t at = strlen(applies);
            snprintf(applies + at, sizeof applies - at, "%s%s", at ? " or " : "",
                     fs_formats[k] ? fs_formats[k]->what : reads);
            w += n;
            w += *w == ' ';
        }
        if (read_one)
            continue;
        int one_kind = (formats & (formats - 1)) == 0;
        return fs_error(err, FOLDSVG_E_USAGE, input,
                        "--%s does nothing: it applies to %s, and %s %s%s; drop --%s", r->name,
                        applies, one_kind ? "this is" : "no input is one (this is", what,
                        one_kind ? "" : ")", r->name);
    }
    return FOLDSVG_OK;
}

/* ---- the whole set ----------------------------------------------------------------------- */

/* The defaults, made once from the rows' (as foldsvg_options_set would set them, not noted
 * as given). */
static foldsvg_options defaults;
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void make_defaults(void)
{
    for (size_t i = 0; i < NROWS; i++) {
        const opt_row *r = &rows[i];
        if (r->default_value && r->type != T_CLI && r->type != T_LIST && r->type != T_STRING &&
            set_value(&defaults, r, r->default_value, NULL) == FOLDSVG_OK && r->set_off)
            *(int *)(void *)((char *)&defaults + r->set_off - 1) = 0;
    }
}

const foldsvg_options *fs_default_options(void)
{
    pthread_once(&defaults_once, make_defaults);
    return &defaults;
}

foldsvg_options *foldsvg_options_new(void)
{
    foldsvg_options *o = malloc(sizeof *o);
    if (o)
        *o = *fs_default_options();
    return o;
}

void foldsvg_options_free(foldsvg_options *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < NROWS; i++) {
        if (rows[i].type == T_STRING)
            free(*(char **)field(o, &rows[i]));
        else if (rows[i].type == T_LIST)
            fs_strlist_free(field(o, &rows[i]));
    }
    free(o);
}

foldsvg_options *foldsvg_options_clone(const foldsvg_options *src)
{
    foldsvg_options *o = malloc(sizeof *o);
    if (!o)
        return NULL;
    *o = *src;
    /* First every owned value is detached, so that a failure halfway frees only copies. */
    for (size_t i = 0; i < NROWS; i++) {
        if (rows[i].type == T_STRING)
            *(char **)field(o, &rows[i]) = NULL;
        else if (rows[i].type == T_LIST)
            memset(field(o, &rows[i]), 0, sizeof(fs_strlist));
    }
    int bad = 0;
    for (size_t i = 0; i < NROWS && !bad; i++) {
        const opt_row *r = &rows[i];
        if (r->type == T_STRING) {
            const char *s = *(char *const *)cfield(src, r);
            if (s && !(*(char **)field(o, r) = strdup(s)))
                bad = 1;
        } else if (r->type == T_LIST) {
            bad = fs_strlist_copy(field(o, r), cfield(src, r)) != FOLDSVG_OK;
        }
    }
    if (bad) {
        foldsvg_options_free(o);
        return NULL;
    }
    return o;
}

void foldsvg_options_set_warning_handler(foldsvg_options *o, foldsvg_warning_fn fn, void *user)
{
    if (!o)
        return;
    o->warn = fn;
    o->warn_user = user;
}

void foldsvg_options_set_progress_handler(foldsvg_options *o, foldsvg_progress_fn fn, void *user)
{
    if (!o)
        return;
    o->progress = fn;
    o->progress_user = user;
}

void foldsvg_options_set_log_handler(foldsvg_options *o, foldsvg_log_fn fn, void *user)
{
    if (!o)
        return;
    o->log = fn;
    o->log_user = user;
}

/* ---- typed setters -------------------------------------------------------------------- */

static const opt_row *by_key(foldsvg_option key)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].key == (int)key && rows[i].type != T_CLI)
            return &rows[i];
    return NULL;
}

static foldsvg_status wrong_type(foldsvg_error *err, const opt_row *r, const char *takes)
{
    return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s does not take %s", r->name, takes);
}

foldsvg_status foldsvg_option_bounds(foldsvg_option key, double *min, double *max)
{
    const opt_row *r = by_key(key);
    if (!r || !min || !max)
        return FOLDSVG_E_ARG;
    size_t n = 0;
    switch ((opt_type)r->type) {
    case T_FLAG:
        *min = 0, *max = 1;
        return FOLDSVG_OK;
    case T_UINT:
        *min = (double)r->umin, *max = (double)r->umax;
        return FOLDSVG_OK;
    case T_REAL:
        *min = r->dmin, *max = r->dmax > r->dmin ? r->dmax : HUGE_VAL;
        return FOLDSVG_OK;
    case T_SIZE:
        *min = 1024, *max = (double)SIZE_MAX;
        return FOLDSVG_OK;
    case T_ENUM:
    case T_PALETTE:
        while (r->values[n])
            n++;
        *min = 0, *max = (double)n - 1;
        return FOLDSVG_OK;
    default:
        return FOLDSVG_E_ARG;
    }
}

foldsvg_status foldsvg_options_set_int(foldsvg_options *o, foldsvg_option key, int64_t value,
                                       foldsvg_error *err)
{
    const opt_row *r = by_key(key);
    if (!o || !r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set_int: no such option");
    char text[32];
    switch ((opt_type)r->type) {
    case T_FLAG:
        if (value != 0 && value != 1)
            return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s is a flag: 0 or 1, not %lld", r->name,
                            (long long)value);
        *(int *)field(o, r) = (int)value;
        return FOLDSVG_OK;
    case T_ENUM:
    case T_PALETTE: {
        double lo, hi;
        foldsvg_option_bounds(key, &lo, &hi);
        if (value < 0 || (double)value > hi)
            return fs_error(err, FOLDSVG_E_USAGE, NULL, "--%s takes 0 to %.0f, not %lld", r->name,
                            hi, (long long)value);
        return set_value(o, r, r->values[value], err);
    }
    case T_UINT:
    case T_SIZE:
        if (value < 0)
            return bad_value(err, r->name, "a negative number", r->expected);
        snprintf(text, sizeof text, "%lld", (long long)value);
        return set_value(o, r, text, err);
    default:
        return wrong_type(err, r, "a whole number");
    }
}

foldsvg_status foldsvg_options_set_real(foldsvg_options *o, foldsvg_option key, double value,
                                        foldsvg_error *err)
{
    const opt_row *r = by_key(key);
    if (!o || !r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set_real: no such option");
    if (r->type != T_REAL)
        return wrong_type(err, r, "a number with a fraction");
    char text[64];
    snprintf(text, sizeof text, "%.17g", value);
    return set_value(o, r, text, err);
}

foldsvg_status foldsvg_options_set_text(foldsvg_options *o, foldsvg_option key, const char *value,
                                        foldsvg_error *err)
{
    const opt_row *r = by_key(key);
    if (!o || !r)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "foldsvg_options_set_text: no such option");
    return foldsvg_options_set(o, r->name, value, err);
}

#define OFF(f) offsetof(foldsvg_options, f)

foldsvg_status foldsvg_options_check(const foldsvg_options *o, foldsvg_error *err)
{
    if (!o)
        return FOLDSVG_OK;
    static const struct {
        size_t a, b;
        const char *na, *nb;
    } conflicts[] = {
        {OFF(stack.reverse), OFF(stack.no_sort), "reverse", "no-sort"},
        {OFF(stack.flamechart), OFF(stack.no_sort), "flamechart", "no-sort"},
        {OFF(stack.reverse), OFF(stack.flamechart), "reverse", "flamechart"},
        {OFF(svg.hash), OFF(svg.deterministic), "hash", "deterministic"},
        {OFF(svg.colordiffusion), OFF(palette_set), "colordiffusion", "colors"},
    };
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++) {
        int a = *(const int *)(const void *)((const char *)o + conflicts[i].a);
        int b = *(const int *)(const void *)((const char *)o + conflicts[i].b);
        if (a && b)
            return fs_error(err, FOLDSVG_E_USAGE, NULL,
                            "--%s cannot be used with --%s: drop one of them", conflicts[i].na,
                            conflicts[i].nb);
    }
    return FOLDSVG_OK;
}
