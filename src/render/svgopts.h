/* The options of the SVG writer, in a header of their own: its style sheet (svgstyle.c)
 * needs them and not the writer. */
#ifndef FOLDSVG_RENDER_SVGOPTS_H
#define FOLDSVG_RENDER_SVGOPTS_H

#include "render/colors.h"

/* What the render options say (rows of stage "render" in src/api/optrow.c write here). */
typedef struct fs_svg_opts {
    char *title;    /* NULL: the default for the mode */
    char *subtitle; /* NULL: none */
    char *nametype; /* NULL: "Function:" */
    char *notes;
    fs_palette palette;
    fs_background bg;
    int bg_set;
    int hash, deterministic, colordiffusion, negate;
    int diff_inclusive; /* --diff-color inclusive: frames colored by their inclusive change */
    fs_rgb uicolor, searchcolor, strokecolor;
    int stroke_set;
    char *fonttype; /* NULL: monospace */
    unsigned fontsize;
    double fontwidth;
    unsigned frameheight; /* --height */
    unsigned width;       /* 0: fluid (static 1200) */
    double minwidth;      /* percent (frames/prune.h) */
    int inverted, truncate_text_right;
    double factor;
    int pretty_xml, no_javascript;
    char *id_prefix; /* NULL: a hash of the content */
    int theme;       /* fs_theme (render/theme.h) */
    int views;       /* not an option: set for an HTML report's SVGs, whose script draws the
                      * callers and callees views */
} fs_svg_opts;

#endif
