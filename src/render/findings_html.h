/* The findings as the HTML report's "What stands out" (render/report.c puts it at the top of
 * a section). */
#ifndef FOLDSVG_RENDER_FINDINGS_HTML_H
#define FOLDSVG_RENDER_FINDINGS_HTML_H

#include "analysis/findings.h"
#include "render/xmlw.h"

/* With VIEWS (the section embeds its stacks) the functions named are buttons that open their
 * callers and callees, as the tables' names are. */
void fs_findings_write_html(fs_xmlw *c, const fs_findings *f, const char *unit, int views);

#endif
