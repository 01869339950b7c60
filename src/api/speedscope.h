/* The speedscope output (api/speedscope.c): a profile as speedscope's file format. */
#ifndef FOLDSVG_API_SPEEDSCOPE_H
#define FOLDSVG_API_SPEEDSCOPE_H

#include "api/output.h"
#include "foldsvg.h"

/* Writes P to OUT as one sampled speedscope profile (O's count name and --flamechart). */
foldsvg_status fs_output_speedscope(const foldsvg_profile *p, const foldsvg_options *o, fs_out *out,
                                    foldsvg_error *err);

#endif
