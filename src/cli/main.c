/* foldsvg: the command line. Options become library calls; nothing here knows formats.
 * Exit codes: 0 done (warnings allowed), 1 input or output failure, 2 usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "foldsvg.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

typedef struct cli_state {
    foldsvg_options *opts;
    const char **inputs;
    size_t ninputs;
    const char *output; /* NULL: standard output */
    foldsvg_format format;
    int quiet, verbose;
    int help, version, list_threads;
    int top;      /* --top given: tables on standard output */
    int sections; /* --sections: one report section per input */
} cli_state;

/* One string per topic: a single literal would pass C's portable length limit. */
static const char *const usage_text[] = {
    "Usage: foldsvg [OPTIONS] [INPUT...] [-o OUTPUT]\n"
    "Turn folded stacks, perf script output or Firefox-Profiler JSON (plain or gzip) into an\n"
    "SVG flamegraph.\n"
    "With no INPUT, or INPUT '-', read standard input. Options and inputs mix freely.\n"
    "\n",
    "Input:\n"
    "      --reverse             reverse each stack's frame order before merging\n"
    "      --base SYM            re-root stacks at the deepest frame named SYM (repeatable)\n"
    "      --no-sort             input is already sorted; check it instead of sorting\n"
    "      --sort-buffer SIZE    memory for sorting unsorted folded text before it spills to\n"
    "                            $TMPDIR (K, M, G suffixes; default 64M)\n"
    "      --flamechart          keep input order (a flame chart over time); title Flame Chart\n"
    "\n",
    "Output:\n"
    "  -o, --output FILE         FILE.svg: SVG; FILE.html: HTML report (flamegraph and tables);\n"
    "                            any other name: folded text; '-': stdout SVG\n"
    "      --format FMT          svg, folded or html, overriding the name of -o\n"
    "      --id-prefix P         prefix of the SVG's element ids (default: a content hash)\n"
    "      --pretty-xml          indent the SVG\n"
    "      --no-javascript       leave the interactive script out\n"
    "  -q, --quiet               no warnings, no summary line\n"
    "  -v, --verbose             accepted for inferno's sake; adds no messages yet\n"
    "  -h, --help                this help\n"
    "  -V, --version             the version\n"
    "\n",
    "Layout and text:\n"
    "      --title TEXT          title (default Flame Graph, Icicle Graph, Flame Chart)\n"
    "      --subtitle TEXT       second title line\n"
    "      --countname NAME      the count unit in tooltips (default: cycles; perf: samples,\n"
    "                            or the event when samples carry periods)\n"
    "      --nametype TEXT       the label before names in the details line (Function:)\n"
    "      --notes TEXT          notes stored in a comment\n"
    "      --width N             image width in pixels (default 1200, fluid)\n"
    "      --height N            frame height in pixels (default 16)\n"
    "      --minwidth PCT        omit frames narrower than PCT percent (default 0.01)\n"
    "      --fonttype FONT       font family (default monospace)\n"
    "      --fontsize N          font size (default 12)\n"
    "      --fontwidth X         character width in ems of the labels written in the file\n"
    "                            (default 0.59; the script measures the font it draws)\n"
    "  -i, --inverted            icicle graph (root at the top)\n"
    "      --truncate-text-right the script cuts long labels at the end (name..), not at\n"
    "                            the start (..name, the default, as inferno)\n"
    "      --factor X            multiply counts by X in tooltips\n"
    "      --nameattr FILE       per-function attributes (title, href, class, ...)\n"
    "\n",
    "Colors:\n"
    "  -c, --colors PALETTE      hot (default), mem, io, wakeup, java, js, perl, python, rust,\n"
    "                            red, green, blue, aqua, yellow, purple, orange\n"
    "      --bgcolors COLOR      yellow, blue, green, grey or #rrggbb\n"
    "      --hash                colors from a hash of the name\n"
    "      --deterministic       colors from a stable hash of the whole name\n"
    "      --cp                  keep colors consistent across runs in ./palette.map\n"
    "      --palette-map FILE    the palette map --cp reads and rewrites (default palette.map)\n"
    "      --colordiffusion      color by width (wider is redder)\n"
    "      --negate              swap differential colors\n"
    "      --uicolor #RRGGBB     text color of the controls\n"
    "      --search-color #RRGGBB  color of search matches\n"
    "      --stroke-color #RRGGBB  outline of frames\n"
    "\n",
    "Filters (PCRE2 regular expressions, applied in this order):\n"
    "      --strip RE            delete every match of RE in frame names (repeatable, in order)\n"
    "      --strip-rust-hash     drop Rust symbol hashes (::h<16 hex>, v0 crate[hash]); first\n"
    "      --include RE          keep only stacks with a frame matching RE (repeatable: any)\n"
    "      --exclude RE          drop stacks with a frame matching RE (repeatable: any)\n"
    "      --focus RE            re-root each stack at its outermost frame matching RE\n"
    "      --collapse-recursion  merge directly recursive frames (a;a;b -> a;b)\n"
    "\n",
    "Profiles (Firefox-Profiler JSON):\n"
    "      --thread N            only thread N (default: all threads merged)\n"
    "      --list-threads        list the threads (INDEX NAME PROCESS SAMPLES WEIGHT), exit\n"
    "      --weight auto|samples weigh samples by the profile (SP1 cycles) or 1 each\n"
    "\n",
    "perf script output (read as is: the collapse step built in, as inferno-collapse-perf):\n"
    "      --pid                 root each stack at its process (COMMAND-PID)\n"
    "      --tid                 root each stack at its thread (COMMAND-PID/TID)\n"
    "      --kernel              mark kernel frames _[k]\n"
    "      --jit                 mark JIT frames (/tmp/perf-PID.map, jitted-*.so) _[j]\n"
    "      --all                 --kernel and --jit\n"
    "      --addrs               frames without a symbol: [MODULE <ADDRESS>]\n"
    "      --event-filter EVENT  only samples of EVENT (default: the first event named)\n"
    "      --skip-after FUNC     leave out the callers of frames named FUNC (repeatable)\n"
    "\n",
    "Reports:\n"
    "      --top N               print the N hottest functions by self and inclusive time to\n"
    "                            stdout (nothing else unless -o FILE); in HTML, rows per table\n"
    "      --top-format FMT      text (default), markdown or json\n"
    "      --per K               divide the tables' counts by K (cost per iteration)\n"
    "      --sections            HTML report: one section per INPUT instead of one merged\n"
    "                            profile\n"
    "\n",
    "Exit status: 0 done (warnings allowed), 1 input or output failure, 2 usage error.\n"
    "See foldsvg(1) for details and examples.\n",
};

/* WHAT is "unknown option", "missing value for option", ...; ARG is the word at fault.
 * Returns the exit code, so callers can `return usage(...)`. */
static int usage(const char *what, const char *arg)
{
    fprintf(stderr, "foldsvg: %s %s (see foldsvg --help)\n", what, arg);
    return EXIT_USAGE;
}

static void clear_progress(void);

static int report(const foldsvg_error *err, foldsvg_status st)
{
    clear_progress();
    char line[2048];
    foldsvg_error_format(err, line, sizeof line);
    fprintf(stderr, "foldsvg: %s\n", line);
    return st == FOLDSVG_E_USAGE ? EXIT_USAGE : EXIT_INPUT;
}

/* Progress on a terminal: after a second, at most five updates a second, on one line
 * that the next message or the end clears. */
typedef struct progress_state {
    struct timespec start, last;
    int shown;
} progress_state;

static progress_state progress;

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void clear_progress(void)
{
    if (progress.shown) {
        fputs("\r\033[K", stderr);
        progress.shown = 0;
    }
}

static void human_bytes(uint64_t n, char *buf, size_t size)
{
    if (n >= (uint64_t)1 << 30)
        snprintf(buf, size, "%.1f GB", (double)n / 1e9);
    else
        snprintf(buf, size, "%.0f MB", (double)n / 1e6);
}

static void on_progress(void *user, const char *input, uint64_t done, uint64_t total,
                        uint64_t lines)
{
    (void)user;
    double elapsed = seconds_since(&progress.start);
    if (elapsed < 1.0 || (progress.shown && seconds_since(&progress.last) < 0.2))
        return;
    clock_gettime(CLOCK_MONOTONIC, &progress.last);
    char d[32], t[64] = "";
    human_bytes(done, d, sizeof d);
    if (total) {
        char tt[24];
        human_bytes(total, tt, sizeof tt);
        snprintf(t, sizeof t, " of %s (%.0f%%)", tt, 100.0 * (double)done / (double)total);
    }
    fprintf(stderr, "\r\033[Kfoldsvg: %s: %s%s, %.0f MB/s", input, d, t,
            (double)done / 1e6 / elapsed);
    if (lines)
        fprintf(stderr, ", %llu lines", (unsigned long long)lines);
    progress.shown = 1;
}

static void on_warning(void *user, const foldsvg_error *w)
{
    const cli_state *s = user;
    if (s->quiet)
        return;
    clear_progress();
    char line[2048];
    foldsvg_error_format(w, line, sizeof line);
    fprintf(stderr, "foldsvg: warning: %s\n", line);
}

static void print_thread(void *user, size_t index, const char *name, const char *process,
                         uint64_t samples, double weight)
{
    (void)user;
    /* Weights are whole numbers except for fractional (e.g. tracing-ms) profiles. */
    if (weight == (double)(uint64_t)weight)
        printf("%zu\t%s\t%s\t%llu\t%llu\n", index, name, process, (unsigned long long)samples,
               (unsigned long long)weight);
    else
        printf("%zu\t%s\t%s\t%llu\t%.6g\n", index, name, process, (unsigned long long)samples,
               weight);
}

static int parse_format(const char *v, foldsvg_format *out)
{
    if (strcmp(v, "svg") == 0)
        *out = FOLDSVG_FORMAT_SVG;
    else if (strcmp(v, "folded") == 0)
        *out = FOLDSVG_FORMAT_FOLDED;
    else if (strcmp(v, "html") == 0)
        *out = FOLDSVG_FORMAT_HTML;
    else
        return -1;
    return 0;
}

/* Options of the command itself, not of the library. Returns 1 when NAME was one, -1 when
 * its value is bad (reported). */
static int cli_option(cli_state *s, const char *name, const char *value)
{
    if (strcmp(name, "output") == 0) {
        s->output = value;
    } else if (strcmp(name, "format") == 0) {
        if (parse_format(value, &s->format) != 0) {
            fprintf(stderr,
                    "foldsvg: invalid value '%s' for --format: expected svg, folded or html\n",
                    value);
            return -1;
        }
    } else if (strcmp(name, "quiet") == 0)
        s->quiet = 1;
    else if (strcmp(name, "verbose") == 0)
        s->verbose = 1;
    else if (strcmp(name, "help") == 0)
        s->help = 1;
    else if (strcmp(name, "version") == 0)
        s->version = 1;
    else if (strcmp(name, "list-threads") == 0)
        s->list_threads = 1;
    else if (strcmp(name, "sections") == 0)
        s->sections = 1;
    else
        return 0;
    return 1;
}

static int cli_takes_value(const char *name)
{
    if (strcmp(name, "output") == 0 || strcmp(name, "format") == 0)
        return 1;
    if (strcmp(name, "quiet") == 0 || strcmp(name, "verbose") == 0 || strcmp(name, "help") == 0 ||
        strcmp(name, "version") == 0 || strcmp(name, "list-threads") == 0 ||
        strcmp(name, "sections") == 0)
        return 0;
    return foldsvg_option_takes_value(name);
}

static const char *short_name(char c)
{
    switch (c) {
    case 'o':
        return "output";
    case 'c':
        return "colors";
    case 'i':
        return "inverted";
    case 'q':
        return "quiet";
    case 'v':
        return "verbose";
    case 'h':
        return "help";
    case 'V':
        return "version";
    default:
        return NULL;
    }
}

/* Returns 0 or the exit code of a usage error (reported). */
static int apply(cli_state *s, const char *name, const char *value, const char *spelled)
{
    int r = cli_option(s, name, value);
    if (r)
        return r < 0 ? EXIT_USAGE : 0;
    if (strcmp(name, "top") == 0)
        s->top = 1;
    foldsvg_error err;
    foldsvg_status st = foldsvg_options_set(s->opts, name, value, &err);
    if (st == FOLDSVG_OK)
        return 0;
    if (st == FOLDSVG_E_USAGE && strncmp(err.message, "unknown option", 14) == 0)
        return usage("unknown option", spelled);
    return report(&err, st);
}

/* Returns 0 or the exit code of a usage error (reported). */
static int parse_args(cli_state *s, int argc, char **argv)
{
    int only_inputs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_inputs || a[0] != '-' || strcmp(a, "-") == 0) {
            s->inputs[s->ninputs++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_inputs = 1;
            continue;
        }
        char name[64];
        const char *value = NULL;
        int inline_value = 0;
        if (a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (n >= sizeof name)
                return usage("unknown option", a);
            memcpy(name, a + 2, n);
            name[n] = '\0';
            if (eq) {
                value = eq + 1;
                inline_value = 1;
            }
        } else {
            const char *longname = a[2] == '\0' ? short_name(a[1]) : NULL;
            if (!longname)
                return usage("unknown option", a);
            snprintf(name, sizeof name, "%s", longname);
        }
        int takes = cli_takes_value(name);
        if (takes < 0)
            return usage("unknown option", a);
        if (takes && !inline_value) {
            if (i + 1 >= argc)
                return usage("missing value for option", a);
            value = argv[++i];
        } else if (!takes && inline_value) {
            return usage("no value allowed for option", a);
        }
        int rc = apply(s, name, value, a);
        if (rc)
            return rc;
    }
    return 0;
}

/* --sections: each input read into its own profile and added to the report as it comes. */
static int write_sections(cli_state *s, const char *output)
{
    foldsvg_error err;
    foldsvg_report *r = foldsvg_report_new(s->opts);
    if (!r) {
        fprintf(stderr, "foldsvg: out of memory\n");
        return EXIT_INPUT;
    }
    foldsvg_status st = FOLDSVG_OK;
    for (size_t i = 0; i < s->ninputs && st == FOLDSVG_OK; i++) {
        foldsvg_profile *p = foldsvg_profile_new();
        if (!p) {
            foldsvg_report_free(r);
            fprintf(stderr, "foldsvg: out of memory\n");
            return EXIT_INPUT;
        }
        const char *name = strcmp(s->inputs[i], "-") ? s->inputs[i] : "<stdin>";
        st = foldsvg_profile_read_file(p, s->inputs[i], s->opts, &err);
        if (st == FOLDSVG_OK)
            st = foldsvg_report_add(r, p, name, &s->inputs[i], 1, &err);
        foldsvg_profile_free(p);
    }
    if (st == FOLDSVG_OK)
        st = foldsvg_report_write(r, output, &err);
    foldsvg_report_free(r);
    return st ? report(&err, st) : 0;
}

/* Everything after parsing; returns the exit code. */
static int run(cli_state *s, foldsvg_profile *p)
{
    if (s->help) {
        for (size_t i = 0; i < sizeof usage_text / sizeof usage_text[0]; i++)
            fputs(usage_text[i], stdout);
        return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
    }
    if (s->version) {
        printf("foldsvg %s\n", foldsvg_version());
        return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
    }
    foldsvg_options_set_warning_handler(s->opts, on_warning, s);
    if (!s->quiet && isatty(STDERR_FILENO)) {
        clock_gettime(CLOCK_MONOTONIC, &progress.start);
        foldsvg_options_set_progress_handler(s->opts, on_progress, NULL);
    }
    foldsvg_error err;
    foldsvg_status st = foldsvg_options_check(s->opts, &err);
    if (st)
        return report(&err, st);
    if (s->ninputs == 0)
        s->inputs[s->ninputs++] = "-";
    if (s->list_threads) {
        for (size_t i = 0; i < s->ninputs; i++) {
            st = foldsvg_list_threads(s->inputs[i], s->opts, print_thread, NULL, &err);
            if (st)
                return report(&err, st);
        }
        return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
    }
    const char *output = s->output ? s->output : "-";
    foldsvg_format format = s->format ? s->format : foldsvg_format_for_path(output);
    if (s->top && strcmp(output, "-") == 0 && (s->output || s->format)) {
        fprintf(stderr, "foldsvg: --top prints the tables on standard output: write the other "
                        "output to a file (-o FILE) (see foldsvg --help)\n");
        return EXIT_USAGE;
    }
    if (s->sections && (format != FOLDSVG_FORMAT_HTML || s->top)) {
        fprintf(stderr, "foldsvg: --sections needs an HTML report (-o NAME.html or --format html) "
                        "and no --top (see foldsvg --help)\n");
        return EXIT_USAGE;
    }
    if (s->sections)
        return write_sections(s, output);
    if (!s->top && format != FOLDSVG_FORMAT_HTML) {
        /* the library picks the cheapest way (sorted files are streamed) */
        foldsvg_convert_stats cs;
        st = foldsvg_convert(s->inputs, s->ninputs, output, format, s->opts, &cs, &err);
        if (st)
            return report(&err, st);
        clear_progress();
        if (!s->quiet)
            fprintf(stderr, "foldsvg: %llu %s across %zu unique stacks\n",
                    (unsigned long long)cs.total, cs.count_name, cs.unique_stacks);
        return 0;
    }
    for (size_t i = 0; i < s->ninputs; i++) {
        st = foldsvg_profile_read_file(p, s->inputs[i], s->opts, &err);
        if (st)
            return report(&err, st);
    }
    int write_output = !s->top || s->output;
    if (write_output && format == FOLDSVG_FORMAT_HTML) {
        /* through a report, so that the page can name the inputs */
        foldsvg_report *r = foldsvg_report_new(s->opts);
        if (!r) {
            fprintf(stderr, "foldsvg: out of memory\n");
            return EXIT_INPUT;
        }
        st = foldsvg_report_add(r, p, NULL, s->inputs, s->ninputs, &err);
        if (st == FOLDSVG_OK)
            st = foldsvg_report_write(r, output, &err);
        foldsvg_report_free(r);
    } else if (write_output) {
        st = foldsvg_profile_write_as(p, output, s->format, s->opts, &err);
    }
    if (st)
        return report(&err, st);
    if (s->top) {
        st = foldsvg_profile_write_top(p, stdout, s->opts, &err);
        if (st)
            return report(&err, st);
    }
    clear_progress();
    if (!s->quiet)
        fprintf(stderr, "foldsvg: %llu %s across %zu unique stacks\n",
                (unsigned long long)foldsvg_profile_total(p), foldsvg_profile_count_name(p),
                foldsvg_profile_unique_stacks(p));
    return 0;
}

int main(int argc, char **argv)
{
    cli_state s;
    memset(&s, 0, sizeof s);
    s.opts = foldsvg_options_new();
    s.inputs = calloc((size_t)argc + 1, sizeof *s.inputs);
    foldsvg_profile *p = foldsvg_profile_new();
    int rc;
    if (!s.opts || !s.inputs || !p) {
        fprintf(stderr, "foldsvg: out of memory\n");
        rc = EXIT_INPUT;
    } else {
        rc = parse_args(&s, argc, argv);
        if (rc == 0)
            rc = run(&s, p);
    }
    foldsvg_profile_free(p);
    foldsvg_options_free(s.opts);
    free(s.inputs);
    return rc;
}
