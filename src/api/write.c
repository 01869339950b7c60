/* The public entry points that draw a profile (SVG, folded text, the HTML report) to
 * streams, memory and files: they pick the format and hand the drawing to api/output.c,
 * the HTML report to api/report.c. */
#include <libxml/xmlIO.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/diag.h"
#include "api/facts.h"
#include "api/options.h"
#include "api/output.h"
#include "api/profile.h"
#include "api/report.h"
#include "api/speedscope.h"
#include "api/write.h"
#include "util/error.h"
#include "util/pending.h"

int foldsvg_remove_pending_outputs(void)
{
    return fs_pending_remove_all();
}

foldsvg_format foldsvg_format_for_path(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return FOLDSVG_FORMAT_SVG;
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return FOLDSVG_FORMAT_FOLDED;
    if (strcasecmp(dot, ".svg") == 0)
        return FOLDSVG_FORMAT_SVG;
    if (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0)
        return FOLDSVG_FORMAT_HTML;
    /* NAME.speedscope.json, as speedscope and py-spy name its files */
    size_t n = strlen(path);
    if (n >= 16 && strcasecmp(path + n - 16, ".speedscope.json") == 0 &&
        (!slash || path + n - 16 > slash))
        return FOLDSVG_FORMAT_SPEEDSCOPE;
    return FOLDSVG_FORMAT_FOLDED;
}

/* A profile in any format: the HTML report, or what api/output.c draws. */
static foldsvg_status draw(const void *job, fs_out *out, fs_palettemap **pmap, foldsvg_error *err)
{
    const fs_profile_job *j = job;
    /* here, not in every drawing: a report's sections are checked as a whole */
    FS_FORWARD_IF_ERROR(fs_profile_check_inputs(j->p, j->o, err));
    if (j->format == FOLDSVG_FORMAT_SPEEDSCOPE) {
        *pmap = NULL;
        FS_FORWARD_IF_ERROR(fs_output_precheck(j->p, j->format, j->o, err));
        return fs_output_speedscope(j->p, j->o, out, err);
    }
    if (j->format != FOLDSVG_FORMAT_HTML)
        return fs_output_profile(job, out, pmap, err);
    *pmap = NULL;
    FS_FORWARD_IF_ERROR(fs_output_precheck(j->p, j->format, j->o, err));
    xmlOutputBufferPtr xb = fs_out_xml(out);
    if (!xb)
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the HTML output");
    foldsvg_status st = fs_report_render_profile(j->p, j->o, xb, err);
    if (st == FOLDSVG_OK && out->failed)
        st = fs_error(err, FOLDSVG_E_IO, NULL, "write failed");
    return st;
}

foldsvg_status foldsvg_profile_render(const foldsvg_profile *p, foldsvg_format format,
                                      const foldsvg_options *opts, FILE *out, foldsvg_error *err)
{
    if (!p || !out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL profile or stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_profile_job j = {p, format == FOLDSVG_FORMAT_AUTO ? FOLDSVG_FORMAT_SVG : format, o};
    return fs_output_stream(draw, &j, o, out, err);
}

foldsvg_status foldsvg_profile_render_mem(const foldsvg_profile *p, foldsvg_format format,
                                          const foldsvg_options *opts, char **out, size_t *len,
                                          foldsvg_error *err)
{
    if (!p || !out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL profile or output pointer");
    *out = NULL;
    if (len)
        *len = 0;
    const foldsvg_options *o = opts ? opts : fs_default_options();
    fs_profile_job j = {p, format == FOLDSVG_FORMAT_AUTO ? FOLDSVG_FORMAT_SVG : format, o};
    return fs_output_mem(draw, &j, o, out, len, err);
}

foldsvg_status foldsvg_profile_write_as(const foldsvg_profile *p, const char *path,
                                        foldsvg_format format, const foldsvg_options *opts,
                                        foldsvg_error *err)
{
    if (!p)
        return fs_error(err, FOLDSVG_E_ARG, path, "NULL profile");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    if (format == FOLDSVG_FORMAT_AUTO)
        format = foldsvg_format_for_path(path);
    /* What can fail early fails before any file is created. */
    if (o->facts_out && format != FOLDSVG_FORMAT_FOLDED)
        return fs_facts_out_usage(err);
    FS_FORWARD_IF_ERROR(fs_profile_check_inputs(p, o, err));
    FS_FORWARD_IF_ERROR(fs_output_precheck(p, format, o, err));
    fs_profile_job j = {p, format, o};
    if (!o->facts_out)
        return fs_output_file(draw, &j, o, path, err);
    fs_outfile facts;
    FS_FORWARD_IF_ERROR(fs_facts_write(&facts, o->facts_out, &p->facts_log, &p->drops, o, err));
    return fs_facts_end(&facts, fs_output_file(draw, &j, o, path, err), err);
}

foldsvg_status foldsvg_profile_write(const foldsvg_profile *p, const char *path,
                                     const foldsvg_options *opts, foldsvg_error *err)
{
    return foldsvg_profile_write_as(p, path, FOLDSVG_FORMAT_AUTO, opts, err);
}

foldsvg_status fs_write_svg_frames(const fs_svg_input *in, const foldsvg_options *o,
                                   const char *path, foldsvg_error *err)
{
    if (in->tree->total == 0)
        return fs_error(err, FOLDSVG_E_NO_DATA, NULL, "no stacks to draw (the total count is 0)");
    fs_frames_job j = {in, o};
    return fs_output_file(fs_output_frames, &j, o, path, err);
}

foldsvg_status fs_write_folded(const char *path, fs_folded_producer produce, void *user,
                               foldsvg_error *err)
{
    fs_folded_job j = {produce, user};
    return fs_output_file(fs_output_folded, &j, fs_default_options(), path, err);
}
