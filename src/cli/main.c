/* foldsvg: the command line. Options become library calls; nothing here knows formats.
 * Exit codes: 0 done (warnings allowed), 1 input or output failure, 2 usage error, 3 a
 * --fail-if threshold broken. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/cli.h"
#include "cli/guard.h"
#include "cli/term.h"
#include "foldsvg.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_BROKEN = 3 };

typedef struct cli_state {
    foldsvg_options *opts;
    const char **inputs;
    size_t ninputs;
    const char *output; /* NULL: standard output */
    foldsvg_format format;
    int flag[FS_CLI_COUNT]; /* the command's own flags given, by fs_cli_option */
    int top;                /* --top given: tables on standard output */
    const char *countname;  /* --countname, which the summary line speaks too */
    int facts_out, facts_from;
    const char *diff_only; /* an option that needs --diff, as spelled; NULL: none given */
    int gate;              /* --fail-if given: the diff's verdict decides the exit code */
} cli_state;

/* --help: these lines around the option table (foldsvg_option_info), which gives the rest. */
static const char usage_head[] =
    "Usage: foldsvg [OPTIONS] [INPUT...] [-o OUTPUT]\n"
    "       foldsvg --diff BEFORE AFTER [OPTIONS] [-o OUTPUT]\n"
    "       foldsvg --diff BEFORE_DIR AFTER_DIR [OPTIONS] [-o REPORT.html]\n"
    "Turn a profile (folded stacks, perf script output, Firefox-Profiler JSON, pprof,\n"
    "Chrome and V8, speedscope, inferno's collapser inputs; plain or gzip) into an SVG\n"
    "flamegraph, an HTML report, folded text or a speedscope file.\n"
    "With no INPUT, or INPUT '-', read standard input. Options and inputs mix freely.\n";
static const char usage_tail[] =
    "Exit status: 0 done (warnings allowed), 1 input or output failure, 2 usage error,\n"
    "3 a --fail-if threshold broken.\n"
    "See foldsvg(1) for details and examples.\n";

enum { HELP_COLUMN = 28, HELP_WIDTH = 90 };

/* The exit code once what went to standard output is flushed: a failed write (a closed
 * stdout, a full disk) is one line, as every failure. */
static int stdout_done(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "foldsvg: <stdout>: write failed: %s\n", strerror(errno ? errno : EIO));
    return EXIT_INPUT;
}

/* The words of D->values, the default marked, wrapped at HELP_WIDTH. */
static void print_values(const foldsvg_option_desc *d)
{
    size_t col = HELP_COLUMN;
    for (size_t i = 0; d->values[i]; i++) {
        char word[64];
        int last = d->values[i + 1] == NULL;
        int is_default = d->default_value && strcmp(d->values[i], d->default_value) == 0;
        int n = snprintf(word, sizeof word, "%s%s%s", d->values[i], is_default ? " (default)" : "",
                         last ? "" : ",");
        if (i > 0 && col + 1 + (size_t)n > HELP_WIDTH) {
            printf("\n%*s", HELP_COLUMN, "");
            col = HELP_COLUMN;
        } else if (i > 0) {
            putchar(' ');
            col++;
        }
        fputs(word, stdout);
        col += (size_t)n;
    }
}

/* One option: "  -c, --colors PALETTE" in the left column, its help lines in the right. */
static void print_option(const foldsvg_option_desc *d)
{
    char left[64];
    const char *sep = d->metavar ? " " : "", *meta = d->metavar ? d->metavar : "";
    int n = d->short_name
                ? snprintf(left, sizeof left, "  -%c, --%s%s%s", d->short_name, d->name, sep, meta)
                : snprintf(left, sizeof left, "      --%s%s%s", d->name, sep, meta);
    printf("%s%*s", left, n < HELP_COLUMN ? HELP_COLUMN - n : 2, "");
    for (const char *h = d->help; *h;) {
        const char *nl = strchr(h, '\n');
        size_t len = nl ? (size_t)(nl - h) : strlen(h);
        if (len == 8 && strncmp(h, "{values}", 8) == 0 && d->values)
            print_values(d);
        else
            fwrite(h, 1, len, stdout);
        /* the table's default, said once there (a list of words marks it in the list) */
        if (!nl && d->default_value && !d->values)
            printf(" (default %s)", d->default_value);
        putchar('\n');
        if (!nl)
            break;
        h = nl + 1;
        printf("%*s", HELP_COLUMN, "");
    }
}

static int print_help(void)
{
    fputs(usage_head, stdout);
    const char *group = NULL;
    for (size_t i = 0; i < fs_cli_row_count(); i++) {
        fs_cli_row row;
        fs_cli_row_info(i, &row);
        const foldsvg_option_desc *d = &row.d;
        if (!d->help)
            continue;
        if (!group || strcmp(group, d->group) != 0) {
            printf("\n%s:\n", d->group_title);
            group = d->group;
        }
        print_option(d);
    }
    fputs("\n", stdout);
    fputs(usage_tail, stdout);
    return stdout_done();
}

/* --list-options: the table as TSV, for front-ends that route options by stage. */
static int print_options(void)
{
    for (size_t i = 0; i < fs_cli_row_count(); i++) {
        fs_cli_row row;
        fs_cli_row_info(i, &row);
        const foldsvg_option_desc *d = &row.d;
        char s[2] = {d->short_name, 0};
        printf("%s\t%s\t%d\t%s\t%s\n", d->name, s, d->takes_value, d->stage_name, d->group);
    }
    return stdout_done();
}

/* WHAT is "unknown option", "missing value for option", ...; ARG is the word at fault.
 * Returns the exit code, so callers can `return usage(...)`. */
static int usage(const char *what, const char *arg)
{
    fprintf(stderr, "foldsvg: %s ", what);
    cli_put_escaped(stderr, arg);
    fputs(" (see foldsvg --help)\n", stderr);
    return EXIT_USAGE;
}

static int report(const foldsvg_error *err, foldsvg_status st)
{
    cli_clear_progress();
    char line[2048];
    foldsvg_error_format(err, line, sizeof line);
    cli_say(line);
    return st == FOLDSVG_E_USAGE ? EXIT_USAGE : EXIT_INPUT;
}

/* --verbose: the plan of the run, a line each. */
static void on_log(void *user, const char *line)
{
    (void)user;
    cli_clear_progress();
    cli_say(line);
}

static void on_warning(void *user, const foldsvg_error *w)
{
    const cli_state *s = user;
    if (s->flag[FS_CLI_QUIET])
        return;
    cli_clear_progress();
    char line[2048];
    foldsvg_error_format(w, line, sizeof line);
    fputs("foldsvg: warning: ", stderr);
    cli_put_escaped(stderr, line);
    fputc('\n', stderr);
}

/* USER: the input's name (a const char *), printed first when several are listed; or NULL. */
static void print_thread(void *user, size_t index, const char *name, const char *process,
                         uint64_t samples, double weight)
{
    /* names escaped: a tab or a newline in one would make rows of its own */
    if (user) {
        cli_put_escaped(stdout, *(const char **)user);
        putchar('\t');
    }
    printf("%zu\t", index);
    cli_put_escaped(stdout, name);
    putchar('\t');
    cli_put_escaped(stdout, process);
    /* Weights are whole numbers except for fractional (e.g. tracing-ms) profiles. */
    if (weight == (double)(uint64_t)weight)
        printf("\t%llu\t%llu\n", (unsigned long long)samples, (unsigned long long)weight);
    else
        printf("\t%llu\t%.6g\n", (unsigned long long)samples, weight);
}

/* USER as print_thread's. */
static void print_sample_type(void *user, size_t index, const char *type, const char *unit,
                              int64_t total)
{
    if (user)
        printf("%s\t", *(const char **)user);
    printf("%zu\t%s\t%s\t%lld\n", index, type, unit, (long long)total);
}

/* The command's own option ROW (stage "cli" in the table) with VALUE: 0, or the exit code
 * of a usage error (reported). */
static int cli_option(cli_state *s, const fs_cli_row *row, const char *value)
{
    if (row->cli == FS_CLI_OUTPUT && s->output) {
        fprintf(stderr,
                "foldsvg: -o given twice ('%s', then '%s'): foldsvg writes one output; drop one "
                "(see foldsvg --help)\n",
                s->output, value);
        return EXIT_USAGE;
    }
    if (row->cli == FS_CLI_OUTPUT)
        s->output = value;
    if (row->cli == FS_CLI_FORMAT && foldsvg_format_from_name(value, &s->format) != FOLDSVG_OK) {
        fprintf(stderr, "foldsvg: invalid value '%s' for --format: expected", value);
        for (size_t i = 0; row->d.values[i]; i++)
            fprintf(stderr, "%s %s",
                    i == 0                 ? ""
                    : row->d.values[i + 1] ? ","
                                           : " or",
                    row->d.values[i]);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    s->flag[row->cli] = 1;
    return 0;
}

/* The table's row for the long NAME, or for the short C when NAME is NULL. */
static int find_option(const char *name, char c, fs_cli_row *out)
{
    for (size_t i = 0; i < fs_cli_row_count(); i++) {
        fs_cli_row_info(i, out);
        if (name ? strcmp(out->d.name, name) == 0 : out->d.short_name == c)
            return 1;
    }
    return 0;
}

/* ROW's option with VALUE (as SPELLED): 0, or the exit code of a usage error (reported). */
static int apply(cli_state *s, const fs_cli_row *row, const char *value, const char *spelled)
{
    if (row->cli != FS_CLI_NONE)
        return cli_option(s, row, value);
    foldsvg_option key = row->d.key;
    if (key == FOLDSVG_OPT_TOP)
        s->top = 1;
    if (key == FOLDSVG_OPT_COUNTNAME)
        s->countname = value;
    s->facts_out |= key == FOLDSVG_OPT_FACTS_OUT;
    s->facts_from |= key == FOLDSVG_OPT_FACTS_FROM;
    if (!s->diff_only && (key == FOLDSVG_OPT_NORMALIZE || key == FOLDSVG_OPT_PER_BEFORE ||
                          key == FOLDSVG_OPT_PER_AFTER || key == FOLDSVG_OPT_FAIL_IF ||
                          key == FOLDSVG_OPT_FAIL_MIN_SHARE))
        s->diff_only = spelled;
    s->gate |= key == FOLDSVG_OPT_FAIL_IF;
    foldsvg_error err;
    foldsvg_status st = foldsvg_options_set(s->opts, row->d.name, value, &err);
    return st ? report(&err, st) : 0;
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
        }
        fs_cli_row row;
        if (!(a[1] == '-' ? find_option(name, 0, &row)
                          : a[2] == '\0' && find_option(NULL, a[1], &row))) {
            fs_guard_unknown_option(a);
            return EXIT_USAGE;
        }
        int takes = row.d.takes_value;
        if (takes && !inline_value) {
            if (i + 1 >= argc)
                return usage("missing value for option", a);
            value = argv[++i];
            if (fs_guard_value(a, row.d.name, value))
                return EXIT_USAGE;
        } else if (!takes && inline_value) {
            return usage("no value allowed for option", a);
        }
        int rc = apply(s, &row, value, a);
        if (rc)
            return rc;
    }
    return 0;
}

/* --top or --summary: tables on standard output. */
static int prints(const cli_state *s)
{
    return s->top || s->flag[FS_CLI_SUMMARY];
}

/* What the run writes, in FORMAT (FS_WRITES_* bits; 0: folded text only). */
static unsigned writes_of(const cli_state *s, foldsvg_format format)
{
    unsigned w = 0;
    if (!prints(s) || s->output)
        /* a speedscope file is drawn by speedscope: --flamechart keeps its order */
        w = format == FOLDSVG_FORMAT_HTML ? FS_WRITES_GRAPH | FS_WRITES_TABLES
            : format == FOLDSVG_FORMAT_SVG || format == FOLDSVG_FORMAT_SPEEDSCOPE ? FS_WRITES_GRAPH
                                                                                  : 0;
    if (s->gate) /* the thresholds are measured on the tables' numbers (--per divides them) */
        w |= FS_WRITES_TABLES;
    return prints(s) ? w | FS_WRITES_TABLES | FS_WRITES_TOP : w;
}

/* The unit the run wrote: --countname, else the one the inputs named (READ). */
static const char *count_name_of(const cli_state *s, const char *read)
{
    return s->countname ? s->countname : read;
}

/* The line that says what was drawn (AFTER: of a diff), whole however long the unit. */
static void print_summary(const cli_state *s, uint64_t total, const uint64_t *after,
                          const char *count_name, size_t unique)
{
    cli_clear_progress();
    if (s->flag[FS_CLI_QUIET])
        return;
    char small[256], *line = small;
    for (size_t size = sizeof small;;) {
        size_t n = after ? foldsvg_diff_summary(line, size, total, *after, count_name, unique)
                         : foldsvg_summary(line, size, total, count_name, unique);
        if (n < size || line != small || !(line = malloc(size = n + 1)))
            break;
    }
    fprintf(stderr, "foldsvg: %s\n", line ? line : small);
    if (line != small)
        free(line);
}

/* --sections: each input read into its own profile and added to the report as it comes. */
/* A failure that names no file happened making OUTPUT (out of memory building the page,
 * writing the tables): it names that, as every failure names a file. */
static void name_output(foldsvg_error *err, foldsvg_status st, const char *output)
{
    if (st && st != FOLDSVG_E_USAGE && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", strcmp(output, "-") ? output : "<stdout>");
}

static int write_sections(cli_state *s, const char *output)
{
    foldsvg_error err;
    foldsvg_report *r = foldsvg_report_new(s->opts);
    if (!r) {
        fprintf(stderr, "foldsvg: %s: out of memory\n", output);
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
    name_output(&err, st, output);
    return st ? report(&err, st) : 0;
}

/* A threshold that broke: one line, always (it is why the run exits 3). */
static void on_threshold(void *user, const char *pair, const char *threshold, int broken,
                         const char *measured)
{
    (void)user;
    if (!broken)
        return;
    cli_clear_progress();
    fputs("foldsvg: ", stderr);
    if (pair) {
        cli_put_escaped(stderr, pair);
        fputs(": ", stderr);
    }
    fputs("threshold broken: ", stderr);
    cli_put_escaped(stderr, threshold);
    fputs(": ", stderr);
    cli_put_escaped(stderr, measured);
    fputc('\n', stderr);
}

static int is_dir(const char *path)
{
    struct stat sb;
    return strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* --diff BEFORE_DIR AFTER_DIR: the pairs of files of the same name; the summary on standard
 * output, the HTML report of every pair to -o. */
static int run_diff_dirs(cli_state *s, const char *output, foldsvg_format format)
{
    if (s->output && format != FOLDSVG_FORMAT_HTML) {
        fprintf(stderr,
                "foldsvg: --diff of two directories writes an HTML report (-o NAME.html) "
                "and the summary (--summary, --top): not %s (see foldsvg --help)\n",
                output);
        return EXIT_USAGE;
    }
    foldsvg_error err;
    foldsvg_dirs_stats ds;
    foldsvg_status st =
        foldsvg_diff_dirs(s->inputs[0], s->inputs[1], s->output ? output : NULL,
                          prints(s) ? stdout : NULL, s->opts, on_threshold, NULL, &ds, &err);
    if (st)
        return report(&err, st);
    cli_clear_progress();
    if (!s->flag[FS_CLI_QUIET])
        fprintf(stderr,
                "foldsvg: %zu pair%s compared, %zu failed; %zu only before, %zu only after\n",
                ds.pairs, ds.pairs == 1 ? "" : "s", ds.failed, ds.only_before, ds.only_after);
    int rc = prints(s) ? stdout_done() : 0;
    return rc ? rc : ds.failed ? EXIT_BROKEN : 0;
}

/* --diff BEFORE AFTER: straight to SVG or folded text; through a diff object for a report,
 * the delta tables or the thresholds. */
static int run_diff(cli_state *s, const char *output, foldsvg_format format)
{
    if (s->flag[FS_CLI_SECTIONS]) {
        fprintf(stderr, "foldsvg: --diff cannot be used with --sections (a diff report shows "
                        "both inputs): drop one of them (see foldsvg --help)\n");
        return EXIT_USAGE;
    }
    int dirs = is_dir(s->inputs[0]) + is_dir(s->inputs[1]);
    fs_cli_warn_unused(s->opts,
                       writes_of(s, dirs == 2 && !s->output ? FOLDSVG_FORMAT_FOLDED : format));
    if (dirs == 2) /* one directory beside a file is a side that cannot be read (exit 1) */
        return run_diff_dirs(s, output, format);
    foldsvg_error err;
    foldsvg_status st;
    /* thresholds on the totals only keep the streamed route: its totals are all they need */
    if (!prints(s) && format != FOLDSVG_FORMAT_HTML &&
        !(s->gate && fs_cli_gate_needs_functions(s->opts))) {
        foldsvg_convert_stats cs;
        size_t broken = 0;
        st = foldsvg_diff_convert(s->inputs[0], s->inputs[1], output, format, s->opts, &cs, &err);
        if (st == FOLDSVG_OK && s->gate)
            st = fs_cli_gate_totals(s->opts, cs.total_before, cs.total, cs.count_name, on_threshold,
                                    NULL, &broken, &err);
        if (st)
            return report(&err, st);
        print_summary(s, cs.total_before, &cs.total, cs.count_name, (size_t)cs.unique_stacks);
        return broken ? EXIT_BROKEN : 0;
    }
    foldsvg_diff *d = foldsvg_diff_new();
    if (!d) {
        fprintf(stderr, "foldsvg: out of memory\n");
        return EXIT_INPUT;
    }
    st = foldsvg_diff_read(d, s->inputs[0], s->inputs[1], s->opts, &err);
    if (st == FOLDSVG_OK && (!prints(s) || s->output)) {
        st = foldsvg_diff_write(d, output, s->format, s->opts, &err);
        name_output(&err, st, output);
    }
    size_t broken = 0; /* after the outputs: a failed job keeps its artifacts */
    if (st == FOLDSVG_OK && prints(s)) {
        st = fs_cli_diff_print(d, stdout, s->opts, s->flag[FS_CLI_SUMMARY], on_threshold, NULL,
                               &broken, &err);
        name_output(&err, st, "-");
    } else if (st == FOLDSVG_OK)
        st = foldsvg_diff_check(d, s->opts, on_threshold, NULL, &broken, &err);
    uint64_t after = foldsvg_diff_total(d, FOLDSVG_AFTER);
    if (st == FOLDSVG_OK)
        print_summary(s, foldsvg_diff_total(d, FOLDSVG_BEFORE), &after,
                      count_name_of(s, foldsvg_profile_count_name(foldsvg_diff_profile(d))),
                      foldsvg_profile_unique_stacks(foldsvg_diff_profile(d)));
    foldsvg_diff_free(d);
    return st ? report(&err, st) : broken ? EXIT_BROKEN : 0;
}

/* Everything after parsing; returns the exit code. */
static int run(cli_state *s, foldsvg_profile *p)
{
    if (s->flag[FS_CLI_HELP])
        return print_help();
    if (s->flag[FS_CLI_LIST_OPTIONS])
        return print_options();
    if (s->flag[FS_CLI_VERSION]) {
        printf("foldsvg %s\n", foldsvg_version());
        return stdout_done();
    }
    foldsvg_options_set_warning_handler(s->opts, on_warning, s);
    if (s->flag[FS_CLI_VERBOSE] && !s->flag[FS_CLI_QUIET])
        foldsvg_options_set_log_handler(s->opts, on_log, s);
    if (!s->flag[FS_CLI_QUIET] && isatty(STDERR_FILENO)) {
        cli_progress_start();
        foldsvg_options_set_progress_handler(s->opts, cli_on_progress, NULL);
    }
    foldsvg_error err;
    foldsvg_status st = foldsvg_options_check(s->opts, &err);
    if (st)
        return report(&err, st);
    if (s->flag[FS_CLI_DIFF] && s->ninputs != 2) {
        fprintf(stderr,
                "foldsvg: --diff takes two inputs, BEFORE and AFTER; %zu given (see "
                "foldsvg --help)\n",
                s->ninputs);
        return EXIT_USAGE;
    }
    if (!s->format && fs_guard_output_name(s->output))
        return EXIT_USAGE;
    if (s->ninputs == 0)
        s->inputs[s->ninputs++] = "-";
    int list_threads = s->flag[FS_CLI_LIST_THREADS];
    if ((list_threads || s->flag[FS_CLI_LIST_SAMPLE_TYPES]) &&
        (s->output || s->format || prints(s) || s->flag[FS_CLI_SECTIONS] ||
         (list_threads && s->flag[FS_CLI_LIST_SAMPLE_TYPES]))) {
        fprintf(stderr,
                "foldsvg: --%s prints the %s and writes nothing else: drop -o, --format, "
                "--top, --summary, --sections%s (see foldsvg --help)\n",
                list_threads ? "list-threads" : "list-sample-types",
                list_threads ? "threads" : "sample types",
                list_threads ? " and --list-sample-types" : " and --list-threads");
        return EXIT_USAGE;
    }
    if (s->flag[FS_CLI_LIST_SAMPLE_TYPES]) {
        for (size_t i = 0; i < s->ninputs; i++) {
            const char *file = strcmp(s->inputs[i], "-") ? s->inputs[i] : "<stdin>";
            st = foldsvg_list_sample_types(s->inputs[i], s->opts, print_sample_type,
                                           s->ninputs > 1 ? &file : NULL, &err);
            if (st)
                return report(&err, st);
        }
        return stdout_done();
    }
    if (list_threads) {
        if (!s->flag[FS_CLI_QUIET]) /* the columns of print_thread */
            printf("%sindex\tname\tprocess\tsamples\tweight\n", s->ninputs > 1 ? "input\t" : "");
        for (size_t i = 0; i < s->ninputs; i++) {
            const char *file = strcmp(s->inputs[i], "-") ? s->inputs[i] : "<stdin>";
            st = foldsvg_list_threads(s->inputs[i], s->opts, print_thread,
                                      s->ninputs > 1 ? &file : NULL, &err);
            if (st)
                return report(&err, st);
        }
        return stdout_done();
    }
    const char *output = s->output ? s->output : "-";
    foldsvg_format format = s->format ? s->format : foldsvg_format_for_path(output);
    if (prints(s) && strcmp(output, "-") == 0 && (s->output || s->format)) {
        fprintf(stderr,
                "foldsvg: --%s prints on standard output: write the other output to a file "
                "(-o FILE) (see foldsvg --help)\n",
                s->flag[FS_CLI_SUMMARY] ? "summary" : "top");
        return EXIT_USAGE;
    }
    if (s->diff_only && !s->flag[FS_CLI_DIFF]) {
        fprintf(stderr, "foldsvg: %s needs --diff BEFORE AFTER (see foldsvg --help)\n",
                s->diff_only);
        return EXIT_USAGE;
    }
    if (strcmp(output, "-") == 0 && !prints(s) &&
        (format == FOLDSVG_FORMAT_SVG || format == FOLDSVG_FORMAT_HTML) &&
        fs_guard_terminal_output(format == FOLDSVG_FORMAT_SVG ? "SVG" : "HTML"))
        return EXIT_USAGE;
    for (size_t i = 0; i < s->ninputs; i++)
        if (strcmp(s->inputs[i], "-") == 0)
            fs_guard_terminal_input(s->flag[FS_CLI_QUIET]);
    if (s->flag[FS_CLI_DIFF])
        return run_diff(s, output, format);
    if (s->flag[FS_CLI_SECTIONS] && (format != FOLDSVG_FORMAT_HTML || prints(s))) {
        fprintf(stderr, "foldsvg: --sections needs an HTML report (-o NAME.html or --format html) "
                        "and no --top or --summary (see foldsvg --help)\n");
        return EXIT_USAGE;
    }
    if ((s->facts_out && format != FOLDSVG_FORMAT_FOLDED) ||
        (s->facts_from && s->flag[FS_CLI_SECTIONS])) {
        fprintf(stderr, "foldsvg: %s (see foldsvg --help)\n",
                s->facts_out ? "--facts-out goes with folded output (-o NAME.folded)"
                             : "--facts-from draws one profile of all inputs, not --sections");
        return EXIT_USAGE;
    }
    fs_cli_warn_unused(s->opts, writes_of(s, format));
    if (s->flag[FS_CLI_SECTIONS])
        return write_sections(s, output);
    if (!prints(s) && format != FOLDSVG_FORMAT_HTML) {
        /* the library picks the cheapest way (sorted files are streamed) */
        /* the summary's statistics cost a little (a large unsorted input's distinct stacks
         * are counted on their own): asked for only when printed */
        foldsvg_convert_stats cs;
        st = foldsvg_convert(s->inputs, s->ninputs, output, format, s->opts,
                             s->flag[FS_CLI_QUIET] ? NULL : &cs, &err);
        if (st)
            return report(&err, st);
        print_summary(s, cs.total, NULL, cs.count_name, (size_t)cs.unique_stacks);
        return 0;
    }
    for (size_t i = 0; i < s->ninputs; i++) {
        st = foldsvg_profile_read_file(p, s->inputs[i], s->opts, &err);
        if (st)
            return report(&err, st);
    }
    int write_output = !prints(s) || s->output;
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
        name_output(&err, st, output);
    } else if (write_output) {
        st = foldsvg_profile_write_as(p, output, s->format, s->opts, &err);
    }
    if (st)
        return report(&err, st);
    if (prints(s)) {
        st = s->flag[FS_CLI_SUMMARY] ? foldsvg_profile_write_summary(p, stdout, s->opts, &err)
                                     : foldsvg_profile_write_top(p, stdout, s->opts, &err);
        name_output(&err, st, "-");
        if (st)
            return report(&err, st);
    }
    print_summary(s, foldsvg_profile_total(p), NULL,
                  count_name_of(s, foldsvg_profile_count_name(p)),
                  foldsvg_profile_unique_stacks(p));
    return 0;
}

/* A signal that ends the run: the temporary files of the outputs being written go (the
 * library keeps the list; this is all it needs from a handler), the progress line is
 * cleared, and the signal takes its default course once the handler returns (SA_RESETHAND;
 * it is blocked until then), so the exit status still says what happened. */
static void on_fatal_signal(int sig)
{
    int e = errno;
    foldsvg_remove_pending_outputs();
    if (cli_progress_visible) {
        ssize_t r = write(STDERR_FILENO, "\r\033[K", 4);
        (void)r;
    }
    raise(sig);
    errno = e;
}

/* The CLI's signal dispositions (foldsvg(1), SIGNALS). Signals ignored when foldsvg started
 * stay ignored (nohup, background jobs of scripts). SIGXFSZ (past `ulimit -f`) is ignored:
 * the write then fails with EFBIG, and the run ends as for any failed write, with one line
 * and no file left. */
static void install_signal_handlers(void)
{
    static const int fatal[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
        struct sigaction old, sa;
        if (sigaction(fatal[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigfillset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(fatal[i], &sa, NULL);
    }
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGXFSZ, &ign, NULL);
}

int main(int argc, char **argv)
{
    install_signal_handlers();
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
