/* The SVG flamegraph writer (libxml2 xmlTextWriter writes every byte). */
#ifndef FOLDSVG_RENDER_SVG_H
#define FOLDSVG_RENDER_SVG_H

#include <libxml/xmlIO.h>

#include "aggregate/tree.h"
#include "foldsvg.h"
#include "frames/merge.h"
#include "render/colors.h"
#include "render/nameattr.h"
#include "render/palettemap.h"

/* What the render options say (rows of stage "render" in src/api/options.c write here). */
typedef struct fs_svg_opts {
    char *title;    /* NULL: the default for the mode */
    char *subtitle; /* NULL: none */
    char *nametype; /* NULL: "Function:" */
    char *notes;
    fs_palette palette;
    fs_background bg;
    int bg_set;
    int hash, deterministic, colordiffusion, negate;
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

/* Frames drawn ahead of the document, as they come (fs_svg_pre_add), while the frames after
 * them are still being merged on another core: the document then takes their markup with
 * each y put in, which the graph's depth, known last, decides. */
typedef struct fs_svg_pre fs_svg_pre;

typedef struct fs_svg_input {
    /* The frames come from TREE (merged in stack order, or in LOG's order for
     * flamechart), or, when FRAMES is set, from that list (in output order; names are ids
     * in TREE's name table, and TREE->total is the total). */
    const fs_tree *tree;
    const fs_order_log *log; /* flamechart (the default title says so): this order; else NULL */
    int chart;               /* FRAMES are a flame chart's (the default title says so) */
    const fs_frame *frames;
    size_t nframes;
    /* With FRAMES: the largest |delta| of every frame merged, pruned ones included (the
     * list holds only the frames drawn, but the color scale counts them all); 0: none. */
    uint64_t delta_max;
    const fs_svg_opts *opts;
    const char *countname;            /* resolved unit */
    fs_palettemap *palette_map;       /* --cp: looked up and extended; NULL otherwise */
    const fs_nameattr_map *nameattrs; /* --nameattr; NULL otherwise */
    /* the first of FRAMES drawn ahead by PRE (with TREE, OPTS and COUNTNAME as here), and
     * the document draws the rest; NULL otherwise */
    fs_svg_pre *pre;
} fs_svg_input;

/* Whether frames can be drawn ahead under O: not indented (the document's indent is not
 * known ahead). Nor with a palette map or name attributes, which the output loads (the
 * caller's to leave out). */
int fs_svg_pre_usable(const fs_svg_opts *o);
/* A drawer of frames named in TREE (which may grow meanwhile) under O, of TOTAL units in all
 * (TREE's total is not set yet). FOLDSVG_E_NOMEM. */
foldsvg_status fs_svg_pre_new(fs_svg_pre **out, const fs_tree *tree, const fs_svg_opts *o,
                              const char *countname, uint64_t total);
/* The next frames in output order, F[0..n). FS_STOP: it takes no more (it holds as much
 * markup as it may: the document draws the rest); FOLDSVG_E_NOMEM; FOLDSVG_E_ARG for a
 * differential frame, whose color needs every frame's delta first (drawing ahead is then
 * given up). */
foldsvg_status fs_svg_pre_add(fs_svg_pre *p, const fs_frame *f, size_t n);
void fs_svg_pre_free(fs_svg_pre *p);
/* The markup it may hold, in bytes (16 MiB unless set; for tests). */
void fs_svg_pre_limit(fs_svg_pre *p, size_t max);

/* Writes the SVG to OUT and closes it (also on failure). FOLDSVG_E_NO_DATA when the total is 0. */
foldsvg_status fs_render_svg(const fs_svg_input *in, xmlOutputBufferPtr out, foldsvg_error *err);

/* The color of frames named NAME[0..n) (raw, annotation included) where it may depend on the
 * name alone (the report's views): the palette map's (PM, may be NULL), else the palette's
 * by the name's hash, --deterministic's values when the options ask for no hash. */
fs_rgb fs_svg_name_rgb(const fs_svg_opts *o, const fs_palettemap *pm, const char *name, size_t n);

#endif
