/* The SVG's style sheet, from its template (src/render/assets/flamegraph.css): the font, the
 * sizes, the frames' outline and the color scheme (--theme). */
#ifndef FOLDSVG_RENDER_SVGSTYLE_H
#define FOLDSVG_RENDER_SVGSTYLE_H

#include "foldsvg.h"
#include "render/svgopts.h"
#include "util/buf.h"

/* The style of an SVG drawn with O under the ids PREFIX-..., FONTSIZE px labels, background
 * BG, appended to CSS; FOLDSVG_E_NOMEM when memory ran out. */
foldsvg_status fs_svg_style(fs_buf *css, const fs_svg_opts *o, const char *prefix,
                            unsigned fontsize, const fs_background *bg);

#endif
