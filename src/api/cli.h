/* What the command line (src/cli) uses besides the public API: its own options, which are
 * rows of the one option table too (stage "cli": -o, --format, -q...), and the warnings about
 * options that do nothing for what it writes. Not installed: no caller of the library needs
 * them. */
#ifndef FOLDSVG_API_CLI_H
#define FOLDSVG_API_CLI_H

#include <stddef.h>

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

#endif
