/* Writing outputs, for the library's own entry points. */
#ifndef FOLDSVG_LIB_WRITE_H
#define FOLDSVG_LIB_WRITE_H

#include "foldsvg.h"
#include "render/svg.h"

/* Writes the SVG of IN (a frame list or a tree) to PATH with the usual output rules
 * (temporary file renamed on success; "-" is standard output). */
foldsvg_status fs_write_svg_frames(const fs_svg_input *in, const foldsvg_options *o,
                                   const char *path, foldsvg_error *err);

/* Calls LINE (with LINE_USER) once per distinct stack, in order; a non-zero return from LINE
 * means the output failed: stop. */
typedef foldsvg_status (*fs_folded_producer)(void *user, foldsvg_stack_fn line, void *line_user);

/* Writes folded text ("STACK [BEFORE ]COUNT" lines) from PRODUCE to PATH, with the same
 * output rules. */
foldsvg_status fs_write_folded(const char *path, fs_folded_producer produce, void *user,
                               foldsvg_error *err);

#endif
