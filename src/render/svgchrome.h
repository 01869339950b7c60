/* What the SVG writer (render/svg.c) draws around the frames: the document's prolog, the root
 * <svg> and its attributes, title, notes, gradient, style and script, the background, the
 * texts of the user interface and a differential graph's legend. */
#ifndef FOLDSVG_RENDER_SVGCHROME_H
#define FOLDSVG_RENDER_SVGCHROME_H

#include "render/svgctx.h"

/* Writes the document up to its frames, the root <svg> left open for them. */
void fs_svg_write_chrome(svg_ctx *c);

#endif
