/* The command line's guards against silent surprises (guard.h). */
#include "cli/guard.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api/cli.h"

/* The edit distance of A and B (insertions, deletions, substitutions, and swaps of two
 * neighbours: "--sumary", "--sumamry"), or a large number past 63 characters. */
static size_t distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAX || lb >= MAX)
        return MAX;
    size_t d[MAX + 1][MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

/* The long name of the table nearest to NAME (no dashes, no "=VALUE"), or NULL: within a
 * third of its length, or NAME the start of exactly one option. */
static const char *nearest(const char *name)
{
    const char *best = NULL, *prefixed = NULL;
    size_t best_d = (size_t)-1, len = strlen(name);
    int prefixes = 0;
    for (size_t i = 0; i < fs_cli_row_count(); i++) {
        fs_cli_row row;
        fs_cli_row_info(i, &row);
        size_t d = distance(name, row.d.name);
        if (d < best_d) {
            best_d = d;
            best = row.d.name;
        }
        if (len >= 3 && strncmp(row.d.name, name, len) == 0) {
            prefixes++;
            prefixed = row.d.name;
        }
    }
    if (best && best_d <= (strlen(best) + 2) / 3)
        return best;
    return prefixes == 1 ? prefixed : NULL;
}

void fs_guard_unknown_option(const char *arg)
{
    char name[64];
    const char *s = arg + strspn(arg, "-");
    size_t n = strcspn(s, "=");
    const char *near = NULL;
    if (arg[1] == '-' && n < sizeof name) {
        memcpy(name, s, n);
        name[n] = '\0';
        near = nearest(name);
    }
    if (near)
        fprintf(stderr, "foldsvg: unknown option %s: did you mean --%s? (see foldsvg --help)\n",
                arg, near);
    else
        fprintf(stderr, "foldsvg: unknown option %s (see foldsvg --help)\n", arg);
}

/* Whether WORD is one of the table's options, as written on a command line. */
static int is_option(const char *word)
{
    if (word[0] != '-' || word[1] == '\0')
        return 0;
    for (size_t i = 0; i < fs_cli_row_count(); i++) {
        fs_cli_row row;
        fs_cli_row_info(i, &row);
        if (word[1] != '-') {
            if (row.d.short_name && word[1] == row.d.short_name && word[2] == '\0')
                return 1;
            continue;
        }
        size_t n = strlen(row.d.name);
        if (strncmp(word + 2, row.d.name, n) == 0 && (word[2 + n] == '\0' || word[2 + n] == '='))
            return 1;
    }
    return 0;
}

int fs_guard_value(const char *option, const char *long_name, const char *value)
{
    if (!is_option(value))
        return 0;
    fprintf(stderr,
            "foldsvg: %s takes a value, and '%s' is an option: was the value left out? (to give "
            "'%s' as the value, write --%s=%s) (see foldsvg --help)\n",
            option, value, value, long_name, value);
    return 1;
}

/* The extensions of the names foldsvg writes by name (docs/cli.md, Outputs): the SVG, the
 * report, and folded text (a name without one is folded text too). */
static const char *const written[] = {"svg",       "html", "htm", "folded",
                                      "collapsed", "txt",  "out", NULL};

int fs_guard_output_name(const char *output)
{
    if (!output || strcmp(output, "-") == 0)
        return 0;
    const char *slash = strrchr(output, '/');
    char base[1024]; /* the name without a ".gz": written through gzip, whatever the format */
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : output);
    size_t n = strlen(base);
    if (n > 3 && strcasecmp(base + n - 3, ".gz") == 0)
        base[n -= 3] = '\0';
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        return 0;
    if (n > 16 && strcasecmp(base + n - 16, ".speedscope.json") == 0)
        return 0; /* a speedscope file */
    for (size_t i = 0; written[i]; i++)
        if (strcasecmp(dot + 1, written[i]) == 0)
            return 0;
    fprintf(stderr,
            "foldsvg: -o %s: foldsvg does not write %s files; it writes .svg (the flamegraph), "
            ".html (the report), .speedscope.json (a speedscope file) and folded text (.folded, "
            ".txt, or a name without an extension); --format svg|html|folded|speedscope writes "
            "one under any name (see foldsvg --help)\n",
            output, dot + 1);
    return 1;
}

int fs_guard_terminal_output(const char *format_name)
{
    if (!isatty(STDOUT_FILENO))
        return 0;
    fprintf(stderr,
            "foldsvg: not writing %s to a terminal: name a file (-o out.%s) or redirect standard "
            "output (see foldsvg --help)\n",
            format_name, strcmp(format_name, "SVG") == 0 ? "svg" : "html");
    return 1;
}

void fs_guard_terminal_input(int quiet)
{
    if (quiet || !isatty(STDIN_FILENO))
        return;
    fprintf(stderr, "foldsvg: reading a profile from standard input (a terminal): paste folded "
                    "stacks and end with Ctrl-D, or name an input file (foldsvg --help)\n");
}
