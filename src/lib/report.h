/* The HTML report of one profile, for lib/write.c (the HTML format of the public render and
 * write functions); the --top tables and the several-section reports are public API. */
#ifndef FOLDSVG_LIB_REPORT_H
#define FOLDSVG_LIB_REPORT_H

#include <libxml/xmlIO.h>

#include "foldsvg.h"

/* Writes the report of P to OUT and closes OUT. */
foldsvg_status fs_report_render_profile(const foldsvg_profile *p, const foldsvg_options *o,
                                        xmlOutputBufferPtr out, foldsvg_error *err);

#endif
