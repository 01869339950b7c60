/* The stacks of a profile as the HTML report embeds them for its views (the callers and
 * callees of a function, computed in the page by the SVG's script: assets/js/views/stacks.js,
 * stacksOfData). One JSON object per section, written once, compactly: the profile's prefix
 * tree, not a second SVG:
 *
 *     {"total": T, "names": [...], "colors": "rrggbb...", "nodes": [d, n, c, ...]}
 *
 * NAMES are the function names as the flamegraph shows them (annotation dropped, cleaned for
 * XML as the tables' links are), distinct and in byte order, so that an index order is the
 * name order; COLORS holds six hex digits per name (fs_svg_name_rgb); NODES lists the tree in
 * pre-order, three numbers a node: its depth (1 below the root), its name's index and the
 * count of the stacks that end there. Subtrees that hold no count are left out. */
#ifndef FOLDSVG_RENDER_STACKDATA_H
#define FOLDSVG_RENDER_STACKDATA_H

#include "aggregate/tree.h"
#include "foldsvg.h"
#include "render/svg.h"
#include "util/buf.h"

/* Appends the JSON of T's stacks to OUT, colored by O's palette. FOLDSVG_E_NOMEM. */
foldsvg_status fs_stackdata_json(fs_buf *out, const fs_tree *t, const fs_svg_opts *o);

#endif
