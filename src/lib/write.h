/* Writing outputs, for the library's own entry points. */
#ifndef FOLDSVG_LIB_WRITE_H
#define FOLDSVG_LIB_WRITE_H

#include "foldsvg.h"
#include "render/svg.h"

/* Writes the SVG of IN (a frame list or a tree) to PATH with the usual output rules
 * (temporary file renamed on success; "-" is standard output). */
foldsvg_status fs_write_svg_frames(const fs_svg_input *in, const char *path, foldsvg_error *err);

#endif
