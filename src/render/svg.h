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
#include "render/svgopts.h"
#include "util/pool.h"

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
    fs_pool *pool; /* a long list of FRAMES is written on two cores where it has two */
} fs_svg_input;

/* Writes the SVG to OUT and closes it (also on failure). FOLDSVG_E_NO_DATA when the total is 0. */
foldsvg_status fs_render_svg(const fs_svg_input *in, xmlOutputBufferPtr out, foldsvg_error *err);

/* The color of frames named NAME[0..n) (raw, annotation included) where it may depend on the
 * name alone (the report's views): the palette map's (PM, may be NULL), else the palette's
 * by the name's hash, --deterministic's values when the options ask for no hash. */
fs_rgb fs_svg_name_rgb(const fs_svg_opts *o, const fs_palettemap *pm, const char *name, size_t n);

#endif
