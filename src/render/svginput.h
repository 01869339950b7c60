/* What the SVG writer (render/svg.h) is given, in a header of its own: the state its files
 * share (render/svgctx.h) holds it, and render/svg.c, which includes that, is the writer. */
#ifndef FOLDSVG_RENDER_SVGINPUT_H
#define FOLDSVG_RENDER_SVGINPUT_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/tree.h"
#include "frames/merge.h"
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

#endif
