/* The HTML report: one self-contained page with, per section, the input facts, the inline
 * interactive SVG and the self/inclusive tables. Sections are prepared (SVG rendered, tables
 * computed and copied) by src/api/report.c; this module only writes the page. */
#ifndef FOLDSVG_RENDER_REPORT_H
#define FOLDSVG_RENDER_REPORT_H

#include <libxml/xmlIO.h>
#include <stddef.h>

#include "analysis/findings.h"
#include "analysis/tables.h"
#include "foldsvg.h"
#include "render/diffreport.h"

typedef struct fs_report_fact {
    char *label, *value;
} fs_report_fact;

typedef struct fs_report_section {
    char *heading; /* NULL: none (the page title says it all) */
    fs_report_fact *facts;
    size_t nfacts, facts_cap;
    char *svg; /* the SVG from its root element on (no XML declaration, no DOCTYPE) */
    size_t svg_len;
    char *stacks; /* the stacks for the views (render/stackdata.h); NULL: none (no script) */
    size_t stacks_len;
    fs_tables tables; /* rows point into NAMES */
    char *names;
    char *countname;
    uint64_t per;
    fs_diff_section *diff; /* a diff's section: its facts and tables instead (NULL: none) */
    fs_findings findings;  /* "What stands out", at the top of the section */
    int has_findings;
} fs_report_section;

void fs_report_section_free(fs_report_section *s);

/* Writes the page (TITLE: its title; THEME: an fs_theme, render/theme.h) to OUT and closes
 * OUT, also on failure. */
foldsvg_status fs_report_write_html(const fs_report_section *secs, size_t n, const char *title,
                                    int theme, xmlOutputBufferPtr out, foldsvg_error *err);

#endif
