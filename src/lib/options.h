/* The option set behind the opaque foldsvg_options (values already validated). */
#ifndef FOLDSVG_LIB_OPTIONS_H
#define FOLDSVG_LIB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "render/colors.h"

struct foldsvg_options {
    char *title;     /* NULL: the default for the mode */
    char *subtitle;  /* NULL: none */
    char *countname; /* NULL: the profile's unit ("cycles" by default) */
    char *nametype;
    char *notes;
    fs_palette palette;
    int palette_set;
    fs_background bg;
    int bg_set;
    int hash, deterministic, cp, colordiffusion;
    fs_rgb uicolor, searchcolor, strokecolor;
    int stroke_set;
    char *fonttype;
    unsigned fontsize;
    double fontwidth;
    unsigned frameheight; /* --height */
    unsigned width;       /* 0: fluid (static 1200) */
    double minwidth;
    int inverted, truncate_text_right, reverse, flamechart, no_sort, negate;
    double factor;
    char **base;
    size_t nbase;
    char *nameattr;
    char *palette_map_path; /* where --cp reads and writes: "palette.map" */
    int pretty_xml, no_javascript;
    char *id_prefix;
    size_t sort_buffer; /* bytes for sorting unsorted folded text; 0: the default */
    long thread;        /* -1: all */
    int weight_samples;

    /* perf script input (inferno-collapse-perf's options) */
    int perf_pid, perf_tid, perf_kernel, perf_jit, perf_addrs;
    char *event_filter; /* NULL: the first event of the input */
    char **skip_after;
    size_t nskip_after;

    /* Filters (PCRE2), applied in the order of the pipeline in cli.md. */
    char **strip, **include, **exclude, **focus;
    size_t nstrip, ninclude, nexclude, nfocus;
    int strip_rust_hash, collapse_recursion;

    /* Reports */
    size_t top;     /* rows per table; 0 = the report's default */
    int top_format; /* foldsvg_top_format */
    uint64_t per;   /* --per K: table counts divided by K (0 or 1 = off) */

    foldsvg_warning_fn warn;
    void *warn_user;
    foldsvg_progress_fn progress;
    void *progress_user;
};

/* Emits a warning through the handler, if any. */
void fs_warn(const foldsvg_options *o, const foldsvg_error *w);

/* Defaults shared by foldsvg_options_new and the NULL-options case. */
const foldsvg_options *fs_default_options(void);

#endif
