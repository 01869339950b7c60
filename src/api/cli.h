/* What the command line (src/cli) uses besides the public API: its own options, which are
 * rows of the one option table too (stage "cli": -o, --format, -q...), and the warnings about
 * options that do nothing for what it writes. Not installed: no caller of the library needs
 * them. */
#ifndef FOLDSVG_API_CLI_H
#define FOLDSVG_API_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "foldsvg.h"

/* The command line's options (cli.stage), by their job in src/cli/main.c. */
typedef enum fs_cli_option {
    FS_CLI_NONE = -1, /* a library option */
    FS_CLI_OUTPUT,
    FS_CLI_FORMAT,
    FS_CLI_QUIET,
    FS_CLI_VERBOSE,
    FS_CLI_HELP,
    FS_CLI_VERSION,
    FS_CLI_LIST_OPTIONS,
    FS_CLI_LIST_THREADS,
    FS_CLI_LIST_SAMPLE_TYPES,
    FS_CLI_SUMMARY,
    FS_CLI_SECTIONS,
    FS_CLI_DIFF,
    FS_CLI_COUNT
} fs_cli_option;

/* One row of the whole table, in --help order: a library option's description (its stage
 * one of the library's) or a command-line option's (STAGE_NAME "cli", CLI its job). */
typedef struct fs_cli_row {
    foldsvg_option_desc d;
    fs_cli_option cli;
} fs_cli_row;

size_t fs_cli_row_count(void);
void fs_cli_row_info(size_t index, fs_cli_row *out);

/* What a run writes (bits), for fs_cli_warn_unused. */
enum {
    FS_WRITES_GRAPH = 1,  /* a flamegraph: an SVG, or the one in an HTML report */
    FS_WRITES_TABLES = 2, /* tables: those of --top, or an HTML report's */
    FS_WRITES_TOP = 4     /* the tables the "top" option prints */
};

/* Warns, through O's warning handler, about every option set in O that does nothing for a
 * run that writes WRITES (FS_WRITES_* bits; 0: folded text only): drawing options without
 * a flamegraph, table options without tables, an option that needs another one (docs/cli.md,
 * "Options that do nothing"). Options about inputs are checked as the inputs are read: one
 * that applies to none of them is FOLDSVG_E_USAGE from the call that writes. */
void fs_cli_warn_unused(const foldsvg_options *o, unsigned writes);

/* D's delta tables (SUMMARY: its summary, as foldsvg_diff_write_summary writes it) to OUT,
 * then D measured against O's thresholds as foldsvg_diff_check measures it, from one
 * computation of the tables. A failed write names "<stdout>". */
foldsvg_status fs_cli_diff_print(const foldsvg_diff *d, FILE *out, const foldsvg_options *o,
                                 int summary, foldsvg_threshold_fn fn, void *user, size_t *broken,
                                 foldsvg_error *err);
/* Whether one of O's thresholds (--fail-if) is about functions, which the diff's tables
 * give: when none is, the totals of the streamed diff (foldsvg_diff_convert's stats) are all
 * it measures, and the command line keeps the streamed route. */
int fs_cli_gate_needs_functions(const foldsvg_options *o);
/* O's thresholds (every one about the total) measured on the totals BEFORE and AFTER, as
 * foldsvg_diff_check measures a diff's, UNIT the count's name (O's --countname wins). */
foldsvg_status fs_cli_gate_totals(const foldsvg_options *o, uint64_t before, uint64_t after,
                                  const char *unit, foldsvg_threshold_fn fn, void *user,
                                  size_t *broken, foldsvg_error *err);

#endif
