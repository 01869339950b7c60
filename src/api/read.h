/* Reading an open input into a profile, for the entry points in src/api. */
#ifndef FOLDSVG_API_READ_H
#define FOLDSVG_API_READ_H

#include "foldsvg.h"
#include "input/input.h"

/* Reads an open input into P (what foldsvg_profile_read_* do after opening it). */
foldsvg_status fs_profile_read_input(foldsvg_profile *p, fs_input *in, const foldsvg_options *o,
                                     foldsvg_error *err);

#endif
