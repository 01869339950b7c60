/* The SVG flamegraph writer (libxml2 xmlTextWriter writes every byte). */
#ifndef FOLDSVG_RENDER_SVG_H
#define FOLDSVG_RENDER_SVG_H

#include <libxml/xmlIO.h>

#include "foldsvg.h"
#include "render/colors.h"
#include "render/palettemap.h"
#include "render/svginput.h"
#include "render/svgopts.h"

/* Writes the SVG to OUT and closes it (also on failure). FOLDSVG_E_NO_DATA when the total is 0. */
foldsvg_status fs_render_svg(const fs_svg_input *in, xmlOutputBufferPtr out, foldsvg_error *err);

/* The color of frames named NAME[0..n) (raw, annotation included) where it may depend on the
 * name alone (the report's views): the palette map's (PM, may be NULL), else the palette's
 * by the name's hash, --deterministic's values when the options ask for no hash. */
fs_rgb fs_svg_name_rgb(const fs_svg_opts *o, const fs_palettemap *pm, const char *name, size_t n);

#endif
