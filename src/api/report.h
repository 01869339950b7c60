/* The HTML report of one profile, for api/write.c (the HTML format of the public render and
 * write functions), and the making of sections, for api/diffreport.c; the --top tables and
 * the several-section reports are public API. */
#ifndef FOLDSVG_API_REPORT_H
#define FOLDSVG_API_REPORT_H

#include <libxml/xmlIO.h>

#include "foldsvg.h"
#include "render/palettemap.h"
#include "render/report.h"

/* Writes the report of P to OUT and closes OUT. */
foldsvg_status fs_report_render_profile(const foldsvg_profile *p, const foldsvg_options *o,
                                        xmlOutputBufferPtr out, foldsvg_error *err);

/* The SVG of P for a report section (rendered with O), from its root element on. MAP: the
 * report's --cp palette map, which the drawing reads and adds to (saved with the report), or
 * NULL (the map is loaded, and saved at once). */
foldsvg_status fs_report_section_svg(fs_report_section *s, const foldsvg_profile *p,
                                     const foldsvg_options *o, fs_palettemap *map,
                                     foldsvg_error *err);

/* S's findings ("What stands out") from T (DIFF: of its change) with O's thresholds. */
foldsvg_status fs_report_section_findings(fs_report_section *s, const fs_tree *t, int diff,
                                          const foldsvg_options *o, foldsvg_error *err);

/* Fills S (zeroed first) from WHAT with O, whose SVG id prefix suits the section's place,
 * drawing with the report's palette MAP (fs_report_section_svg). */
typedef foldsvg_status (*fs_section_maker)(fs_report_section *s, const void *what,
                                           const foldsvg_options *o, fs_palettemap *map,
                                           foldsvg_error *err);
/* A section made by MAKE, appended to R. */
foldsvg_status fs_report_add_section(foldsvg_report *r, fs_section_maker make, const void *what,
                                     foldsvg_error *err);

#endif
