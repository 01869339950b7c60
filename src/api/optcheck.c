/* What is set against the run: options that do nothing for what a run writes (warnings,
 * api/cli.h) and options about a format none of the inputs has (usage errors). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api/cli.h"
#include "api/options.h"
#include "api/optrow.h"
#include "formats/registry.h"
#include "util/error.h"
#include "util/strlist.h"

/* Whether the row's option is set to other than its default. */
static int row_set(const foldsvg_options *o, const opt_row *r)
{
    if (r->type == T_CLI)
        return 0;
    if (r->type == T_LIST)
        return ((const fs_strlist *)fs_opt_cfield(o, r))->n > 0;
    return memcmp(fs_opt_cfield(o, r), fs_opt_cfield(fs_default_options(), r), r->size) != 0;
}

/* The outputs the row's option is about (FS_WRITES_* bits, or W_ANY). */
static unsigned row_writes(const opt_row *r)
{
    if (r->writes)
        return r->writes;
    if (r->stage == FOLDSVG_STAGE_RENDER)
        return FS_WRITES_GRAPH;
    if (r->stage == FOLDSVG_STAGE_REPORT)
        return FS_WRITES_TABLES;
    return W_ANY;
}

static void warn_unused(const foldsvg_options *o, const char *fmt, ...) FS_PRINTF(2, 3);
static void warn_unused(const foldsvg_options *o, const char *fmt, ...)
{
    foldsvg_error w;
    memset(&w, 0, sizeof w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w.message, sizeof w.message, fmt, ap);
    va_end(ap);
    fs_warn(o, &w);
}

void fs_cli_warn_unused(const foldsvg_options *o, unsigned writes)
{
    if (!o || !o->warn)
        return;
    const char *written =
        writes & FS_WRITES_TABLES ? "only tables are written" : "only folded text is written";
    size_t nrows;
    const opt_row *rows = fs_opt_rows(&nrows);
    for (size_t i = 0; i < nrows; i++) {
        const opt_row *r = &rows[i];
        if (!row_set(o, r))
            continue;
        unsigned about = row_writes(r);
        const opt_row *needed = r->needs ? fs_opt_find(r->needs) : NULL;
        if (needed && !row_set(o, needed))
            warn_unused(o, "--%s does nothing without --%s", r->name, needed->name);
        else if (about == FS_WRITES_GRAPH && !(writes & about))
            warn_unused(o, "--%s does nothing here: it is about the flamegraph, and %s", r->name,
                        written);
        else if (about == FS_WRITES_TABLES && !(writes & about))
            warn_unused(o,
                        "--%s does nothing here: it is about the tables (--top, the HTML "
                        "report), and none are written",
                        r->name);
        else if (about == FS_WRITES_TOP && !(writes & about))
            warn_unused(o,
                        "--%s does nothing without --top or --summary (it is the format of "
                        "their tables)",
                        r->name);
    }
    /* inferno's rule, which foldsvg keeps: the order-keeping modes take stacks whole */
    if (o->stack.base.n && (o->stack.flamechart || o->stack.no_sort))
        warn_unused(o, "--base does nothing with --%s (inferno ignores it there too)",
                    o->stack.flamechart ? "flamechart" : "no-sort");
}

foldsvg_status fs_options_check_inputs(const foldsvg_options *o, unsigned formats,
                                       const char *input, const char *what, foldsvg_error *err)
{
    if (!formats)
        return FOLDSVG_OK; /* nothing was read through a reader */
    /* A part of a run (--facts-out) reads a group of the inputs, which may lack the format an
     * option is for while the whole run's inputs have it. */
    if (o->facts_out)
        return FOLDSVG_OK;
    size_t nrows;
    const opt_row *rows = fs_opt_rows(&nrows);
    for (size_t i = 0; i < nrows; i++) {
        const opt_row *r = &rows[i];
        const char *reads = fs_opt_reads(r);
        if (!reads || !row_set(o, r))
            continue;
        /* the formats it applies to, by name ("A, B or C"); one of them read is enough */
        char applies[256] = "";
        int read_one = 0;
        size_t words = 0, word = 0;
        for (const char *w = reads; *w; w += strcspn(w, " "), w += *w == ' ')
            words++;
        for (const char *w = reads; *w; word++) {
            size_t n = strcspn(w, " ");
            size_t k = 0;
            while (fs_formats[k] &&
                   (strlen(fs_formats[k]->name) != n || strncmp(fs_formats[k]->name, w, n) != 0))
                k++;
            if (fs_formats[k] && (formats & (1u << k)))
                read_one = 1;
            size_t at = strlen(applies);
            snprintf(applies + at, sizeof applies - at, "%s%s",
                     word == 0           ? ""
                     : word + 1 == words ? " or "
                                         : ", ",
                     fs_formats[k] ? fs_formats[k]->what : reads);
            w += n;
            w += *w == ' ';
        }
        if (read_one)
            continue;
        int one_kind = (formats & (formats - 1)) == 0;
        return fs_error(err, FOLDSVG_E_USAGE, input,
                        "--%s does nothing: it applies to %s, and %s %s%s; drop --%s", r->name,
                        applies, one_kind ? "this is" : "no input is one (this is", what,
                        one_kind ? "" : ")", r->name);
    }
    return FOLDSVG_OK;
}
