/* Writing outputs to files, for api/convert.c (which draws without a profile). */
#ifndef FOLDSVG_API_WRITE_H
#define FOLDSVG_API_WRITE_H

#include "api/output.h"
#include "foldsvg.h"
#include "render/svg.h"

/* Writes the SVG of IN (a frame list or a tree) to PATH with the usual output rules
 * (temporary file renamed on success; "-" is standard output). */
foldsvg_status fs_write_svg_frames(const fs_svg_input *in, const foldsvg_options *o,
                                   const char *path, foldsvg_error *err);

/* Writes folded text ("STACK [BEFORE ]COUNT" lines) from PRODUCE to PATH, with the same
 * output rules. */
foldsvg_status fs_write_folded(const char *path, fs_folded_producer produce, void *user,
                               foldsvg_error *err);

#endif
