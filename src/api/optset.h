/* The option set behind the opaque foldsvg_options: each layer's settings struct, which the
 * option table's rows (api/optrow.c) write into directly. Nothing below src/api sees this
 * header: parse/ takes its fs_input_opts, transform/ its fs_stack_opts, render/ its fs_svg_opts
 * and fs_report_opts. */
#ifndef FOLDSVG_API_OPTSET_H
#define FOLDSVG_API_OPTSET_H

#include <stddef.h>

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

#endif
