/* The option table (curl's and zstd's way): one row per option of the command line. A row
 * says where the value goes (a field of foldsvg_options, which holds each layer's settings
 * struct), how it is parsed and bounded, its default, and how --help shows it. The setters
 * (api/optvalue.c), the whole set (api/options.c), the checks (api/optcheck.c) and the
 * public table (foldsvg_option_info) walk the rows. Adding an option is adding a row (and its
 * field, and its key at the end of foldsvg_option). */
#include "api/optrow.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analysis/findings.h"
#include "analysis/gate.h"
#include "api/cli.h"
#include "api/optset.h"
#include "formats/threadsel.h"
#include "render/colors.h"
#include "render/theme.h"
#include "transform/filter.h"
#include "util/error.h"
#include "util/pool.h"

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
    [G_PROFILES] = {"profiles",
                    "Profiles with threads (Firefox-Profiler, pprof labels, Chrome, speedscope)",
                    "firefox pprof chrome speedscope"},
    [G_PERF] = {"perf",
                "perf script output (read as is: the collapse step built in, as "
                "inferno-collapse-perf)",
                "perf"},
    [G_PPROF] = {"pprof", "pprof (profile.proto, plain or gzip)", "pprof"},
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

static const char *const top_formats[] = {"text", "markdown", "json", NULL};
static const char *const weights[] = {"auto", "samples", NULL};
static const char *const diff_colors[] = {"self", "inclusive", NULL};
/* foldsvg_format's names, from FOLDSVG_FORMAT_SVG on */
static const char *const out_formats[] = {"svg", "folded", "html", "speedscope", NULL};

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
     .help = "memory for sorting unsorted folded text (and trace events\n"
             "out of time order) before it spills to $TMPDIR (K, M, G\n"
             "suffixes; for the two sides of --diff together)",
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
             "FILE.speedscope.json: a speedscope file; FILE.folded, .txt,\n"
             ".collapsed, .out or no extension: folded text (other\n"
             "extensions are refused); '-': stdout SVG (not to a terminal)"},
    {"format", 0, CLI(FS_CLI_FORMAT), G_OUTPUT, .metavar = "FMT", .values = out_formats,
     .help = "svg, folded, html or speedscope, overriding the name of -o"},
    {"id-prefix", 0, T_STRING, RENDER, G_OUTPUT, FIELD(svg.id_prefix), .metavar = "P",
     .check = fs_opt_check_id_prefix,
     .expected = "a letter followed by letters, digits, '_' or '-'",
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
     .help = "per-function attributes (title, href, class, ...); a\n"
             "nameattr file is code: its onclick and href=javascript: run",
     .key = FOLDSVG_OPT_NAMEATTR},

    {"colors", 'c', T_PALETTE, RENDER, G_COLORS, FIELD(svg.palette), SET(palette_set),
     .values = fs_palette_names, .default_value = "hot", .metavar = "PALETTE", .help = "{values}",
     .key = FOLDSVG_OPT_COLORS},
    {"bgcolors", 0, T_BACKGROUND, RENDER, G_COLORS, FIELD(svg.bg), SET(svg.bg_set),
     .values = fs_background_names, .expected = "yellow, blue, green, grey or #rrggbb",
     .metavar = "COLOR", .help = "yellow, blue, green, grey or #rrggbb",
     .key = FOLDSVG_OPT_BGCOLORS},
    {"theme", 0, T_ENUM, RENDER, G_COLORS, FIELD(svg.theme), .values = fs_theme_names,
     .default_value = "auto", .metavar = "auto|light|dark",
     .help = "color scheme of the SVG and the report: the page's or\n"
             "the system's (auto, the default), light or dark",
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

    {"strip", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.strip), .check = fs_opt_check_pattern,
     .metavar = "RE", .help = "delete every match of RE in frame names (repeatable, in order)",
     .key = FOLDSVG_OPT_STRIP},
    {"strip-rust-hash", 0, T_FLAG, STACK, G_FILTERS, FIELD(stack.strip_rust_hash),
     .help = "drop Rust symbol hashes (::h<16 hex>, v0 crate[hash]); first\n"
             "(the default for profiles a symbolizer named: Firefox JSON,\n"
             "pprof, Chrome)",
     .key = FOLDSVG_OPT_STRIP_RUST_HASH},
    {"keep-rust-hash", 0, T_FLAG, STACK, G_FILTERS, FIELD(stack.keep_rust_hash),
     .help = "keep the Rust symbol hashes of symbolized profiles",
     .key = FOLDSVG_OPT_KEEP_RUST_HASH},
    {"include", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.include), .check = fs_opt_check_pattern,
     .metavar = "RE", .help = "keep only stacks with a frame matching RE (repeatable: any)",
     .key = FOLDSVG_OPT_INCLUDE},
    {"exclude", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.exclude), .check = fs_opt_check_pattern,
     .metavar = "RE", .help = "drop stacks with a frame matching RE (repeatable: any)",
     .key = FOLDSVG_OPT_EXCLUDE},
    {"focus", 0, T_LIST, STACK, G_FILTERS, FIELD(stack.focus), .check = fs_opt_check_pattern,
     .metavar = "RE", .help = "re-root each stack at its outermost frame matching RE",
     .key = FOLDSVG_OPT_FOCUS},
    {"collapse-recursion", 0, T_FLAG, STACK, G_FILTERS, FIELD(stack.collapse_recursion),
     .help = "merge directly recursive frames (a;a;b -> a;b)",
     .key = FOLDSVG_OPT_COLLAPSE_RECURSION},

    {"thread", 0, T_LIST, IN, G_PROFILES, FIELD(input.threads), .check = fs_opt_check_thread,
     .metavar = "T",
     .help = "only thread T: its index, its name, or /REGEX/ matching names\n"
             "(repeatable: their union; default: all threads merged)",
     .key = FOLDSVG_OPT_THREAD},
    {"list-threads", 0, CLI(FS_CLI_LIST_THREADS), G_PROFILES,
     .help = "list the threads (INDEX NAME PROCESS SAMPLES WEIGHT), exit"},
    {"weight", 0, T_ENUM, IN, G_PROFILES, FIELD(input.weight_samples), .values = weights,
     .reads = "firefox", .default_value = "auto", .metavar = "auto|samples",
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
     .check = fs_opt_check_nonempty, .expected = "an event's name (cycles, cpu-clock:u), not empty",
     .help = "only samples of EVENT (default: the first event named)",
     .key = FOLDSVG_OPT_EVENT_FILTER},
    {"skip-after", 0, T_LIST, IN, G_PERF, FIELD(input.perf.skip_after), .metavar = "FUNC",
     .help = "leave out the callers of frames named FUNC (repeatable)",
     .key = FOLDSVG_OPT_SKIP_AFTER},

    {"sample-type", 0, T_STRING, IN, G_PPROF, FIELD(input.pprof.sample_type), .metavar = "TYPE",
     .help = "the sample type whose values are the weights: its name (cpu,\n"
             "alloc_space, inuse_objects, ...) or index (default: the\n"
             "profile's default_sample_type, else the last)",
     .key = FOLDSVG_OPT_SAMPLE_TYPE},
    {"tag-root", 0, T_LIST, IN, G_PPROF, FIELD(input.pprof.tag_root), .metavar = "KEY",
     .help = "root each stack at KEY=VALUE of the samples' label KEY\n"
             "(repeatable, the first outermost; pprof -tagroot)",
     .key = FOLDSVG_OPT_TAG_ROOT},
    {"list-sample-types", 0, CLI(FS_CLI_LIST_SAMPLE_TYPES), G_PPROF,
     .help = "list the sample types (INDEX TYPE UNIT TOTAL), exit"},

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
    {"diff-color", 0, T_ENUM, RENDER, G_DIFF, FIELD(svg.diff_inclusive), .values = diff_colors,
     .default_value = "self", .metavar = "self|inclusive",
     .help = "what a frame's color measures: the change of its own time (self,\n"
             "as inferno) or of all under it (inclusive: a subsystem's path)",
     .key = FOLDSVG_OPT_DIFF_COLOR},
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
    {"fail-if", 0, T_LIST, REPORT, G_DIFF, FIELD(fail_if), .metavar = "EXPR",
     .check = fs_opt_check_gate, .writes = W_ANY,
     .help = "exit 3 when the change breaks EXPR (repeatable): MEASURE OP\n"
             "LIMIT, MEASURE total, self, inclusive, self[NAME],\n"
             "inclusive[NAME] or new, OP >, >=, < or <=, LIMIT a count\n"
             "or a percent of before's total: 'total > +2%', 'self > +5%'",
     .key = FOLDSVG_OPT_FAIL_IF},
    {"fail-min-share", 0, T_REAL, REPORT, G_DIFF, FIELD(fail_min_share),
     .flags = F_MIN_INCLUSIVE | F_PERCENT, .dmin = 0, .dmax = 100, .metavar = "PCT",
     .expected = "a percent from 0 to 100", .needs = "fail-if", .writes = W_ANY,
     .help = "--fail-if's self, inclusive and new leave out the functions\n"
             "under PCT% of their side's total on both sides",
     .default_value = "0", .key = FOLDSVG_OPT_FAIL_MIN_SHARE},
};

#define NROWS (sizeof rows / sizeof rows[0])

const opt_row *fs_opt_rows(size_t *n)
{
    *n = NROWS;
    return rows;
}

const char *fs_opt_reads(const opt_row *r)
{
    return r->reads ? r->reads : groups[r->group].reads;
}

const opt_row *fs_opt_find(const char *name)
{
    for (size_t i = 0; i < NROWS; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

int fs_opt_takes_value(const opt_row *r)
{
    return r->type == T_CLI ? r->metavar != NULL : r->type != T_FLAG;
}

static void describe(const opt_row *r, foldsvg_option_desc *out)
{
    *out = (foldsvg_option_desc){
        .key = (foldsvg_option)(r->key < 0 ? 0 : r->key),
        .name = r->name,
        .short_name = r->short_name,
        .takes_value = fs_opt_takes_value(r),
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
    const opt_row *r = name ? fs_opt_find(name) : NULL;
    if (!r || r->type == T_CLI)
        return -1;
    return fs_opt_takes_value(r);
}

/* An empty value would silently mean no value (--event-filter '': no filter). */
foldsvg_status fs_opt_check_nonempty(const char *name, const char *v, foldsvg_error *err)
{
    (void)name;
    (void)err;
    return v[0] ? FOLDSVG_OK : FOLDSVG_E_USAGE;
}

foldsvg_status fs_opt_check_id_prefix(const char *name, const char *v, foldsvg_error *err)
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
foldsvg_status fs_opt_check_pattern(const char *name, const char *v, foldsvg_error *err)
{
    return fs_filter_check_pattern(name, v, err);
}

/* An index, a name or /REGEX/ (formats/threadsel.h); the message says what is wrong. */
foldsvg_status fs_opt_check_thread(const char *name, const char *v, foldsvg_error *err)
{
    (void)name;
    return fs_threadsel_check(v, err);
}

/* A threshold of a diff (analysis/gate.h); the message says what is wrong. */
foldsvg_status fs_opt_check_gate(const char *name, const char *v, foldsvg_error *err)
{
    fs_gate_rule rule;
    return fs_gate_parse(v, name, &rule, err);
}
