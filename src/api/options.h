/* The option set behind the opaque foldsvg_options (values already validated), and the one
 * option table (src/api/options.c) that fills it: every option of the command line is one
 * row there (name, short form, type, field, bounds or values, --help group and text, stage),
 * and everything else (foldsvg_options_set, free and clone, --help, --list-options, the
 * stage tests below) is derived from the rows.
 *
 * Each layer reads its own settings struct, which lives here and which the rows write into
 * directly: parse/ the input options, fold/ the stack options, render/ the SVG and report
 * options. Nothing below src/api sees this header. */
#ifndef FOLDSVG_API_OPTIONS_H
#define FOLDSVG_API_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/tables.h"
#include "foldsvg.h"
#include "formats/registry.h"
#include "render/svg.h"
#include "transform/pipeline.h"

struct foldsvg_options {
    fs_input_opts input;   /* parse/: --thread, --weight */
    fs_stack_opts stack;   /* fold/: --reverse, --base, filters, --no-sort, --flamechart */
    fs_svg_opts svg;       /* render/: the SVG */
    fs_report_opts report; /* render/: --top, --top-format, --per */
    /* what src/api itself does with */
    char *countname;        /* NULL: the profile's unit ("cycles" by default) */
    int palette_set;        /* --colors was given (it conflicts with --colordiffusion) */
    int cp;                 /* --cp: colors kept in the palette map */
    char *palette_map_path; /* where --cp reads and writes; NULL: "palette.map" */
    char *nameattr;         /* --nameattr FILE */
    size_t sort_buffer;     /* bytes for sorting unsorted folded text (--sort-buffer) */
    unsigned threads;       /* --threads; 0: FOLDSVG_THREADS, else the cores (util/pool.h) */
    char *facts_out;        /* --facts-out FILE: this run folds a part (api/facts.h) */
    char *facts_from;       /* --facts-from FILE: the inputs the parts were folded from */
    int diff_normalize;     /* --normalize: a diff's BEFORE scaled to AFTER's total */
    fs_strlist fail_if;     /* --fail-if EXPR: a diff's thresholds (analysis/gate.h) */
    double fail_min_share;  /* --fail-min-share PCT: their floor for functions */

    foldsvg_warning_fn warn;
    void *warn_user;
    foldsvg_progress_fn progress;
    void *progress_user;
    foldsvg_log_fn log; /* --verbose: the plan of each run (api/plan.h) */
    void *log_user;
};

/* The stage of the command line's own rows in the table (api/cli.h). */
#define FS_STAGE_CLI 4

/* Emits a warning through the handler, if any. */
void fs_warn(const foldsvg_options *o, const foldsvg_error *w);

/* Defaults shared by foldsvg_options_new and the NULL-options case. */
const foldsvg_options *fs_default_options(void);

/* The options about one input format (--thread, the perf options...) against the inputs
 * read: FORMATS has bit K set when an input of fs_formats[K] was read (0: none was, nothing
 * to check). An option set that applies to none of them is FOLDSVG_E_USAGE naming INPUT (one
 * of the inputs) and WHAT it is (its format's "what"). */
foldsvg_status fs_options_check_inputs(const foldsvg_options *o, unsigned formats,
                                       const char *input, const char *what, foldsvg_error *err);

#endif
