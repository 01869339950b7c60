/* The parts of an HTML report section that show a diff (render/report.c writes the rest of
 * the page and calls these in place of the single profile's facts and tables): the facts of
 * both inputs side by side, the delta tables, the functions found on one side only, and a
 * note on how to read them. src/api/diffreport.c prepares the section. */
#ifndef FOLDSVG_RENDER_DIFFREPORT_H
#define FOLDSVG_RENDER_DIFFREPORT_H

#include <stddef.h>

#include "analysis/delta.h"
#include "analysis/deltatables.h"
#include "foldsvg.h"
#include "render/xmlw.h"

/* One row of the facts table: LABEL, BEFORE's value, AFTER's, and the change ("" for none). */
typedef struct fs_diff_fact {
    char *label, *before, *after, *change;
} fs_diff_fact;

typedef struct fs_diff_section {
    fs_deltas deltas;              /* the top rows of each table; names in NAMES */
    size_t self_funcs, incl_funcs; /* the functions of each table before the cut */
    fs_delta_table only_after;     /* functions AFTER has and BEFORE has not (inclusive) */
    fs_delta_table only_before;    /* and the other way round */
    char *names;
    fs_delta_sides sides; /* its names point at SIDE_NAME */
    char *side_name[2];
    fs_diff_fact *facts;
    size_t nfacts, facts_cap;
    char *countname;
    int negate;    /* --negate: red means shrank */
    int inclusive; /* --diff-color inclusive: frames colored by the change under them */
} fs_diff_section;

/* S's tables from FULL (every row, ranked): the first TOP rows of each, and of the
 * functions of one side only; names are copied, so FULL's tree may go. FOLDSVG_E_NOMEM. */
foldsvg_status fs_diff_section_cut(fs_diff_section *s, const fs_deltas *full, size_t top);
/* A facts row (the strings are copied). FOLDSVG_E_NOMEM. */
foldsvg_status fs_diff_section_fact(fs_diff_section *s, const char *label, const char *before,
                                    const char *after, const char *change);
void fs_diff_section_free(fs_diff_section *s);

void fs_diff_write_facts(fs_xmlw *c, const fs_diff_section *s);
void fs_diff_write_tables(fs_xmlw *c, const fs_diff_section *s);
void fs_diff_write_note(fs_xmlw *c, const fs_diff_section *s);

#endif
