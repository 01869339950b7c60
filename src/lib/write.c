/* Rendering a profile (SVG, folded text) to streams, memory and files. */
#include <libxml/xmlIO.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/options.h"
#include "lib/profile.h"
#include "render/nameattr.h"
#include "render/palettemap.h"
#include "render/report.h"
#include "render/svg.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/outfile.h"
#include "lib/write.h"
#include "lib/read.h"

/* Where rendered bytes go: a stream or a growing buffer. */
typedef struct sink_out {
    FILE *f;
    fs_buf *mem;
    int failed;
} sink_out;

static int out_write(sink_out *s, const char *data, size_t n)
{
    if (s->failed)
        return -1;
    if (s->mem ? fs_buf_append(s->mem, data, n) != 0 : fwrite(data, 1, n, s->f) != n) {
        s->failed = 1;
        return -1;
    }
    return 0;
}

static int xml_write_cb(void *ctx, const char *data, int len)
{
    return out_write(ctx, data, (size_t)len) == 0 ? len : -1;
}

static int xml_close_cb(void *ctx)
{
    (void)ctx;
    return 0;
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
    return FOLDSVG_FORMAT_FOLDED;
}

typedef struct folded_ctx {
    sink_out *out;
    fs_buf line;
} folded_ctx;

static int folded_line(void *user, const char *path, size_t len, uint64_t count, uint64_t before,
                       int has_before)
{
    folded_ctx *c = user;
    fs_buf_clear(&c->line);
    fs_buf_append(&c->line, path, len);
    if (has_before)
        fs_buf_printf(&c->line, " %llu", (unsigned long long)before);
    fs_buf_printf(&c->line, " %llu\n", (unsigned long long)count);
    if (c->line.failed || out_write(c->out, c->line.data, c->line.len) != 0) {
        c->out->failed = 1;
        return 1;
    }
    return 0;
}

static const char *palette_map_path(const foldsvg_options *o)
{
    return o->palette_map_path ? o->palette_map_path : "palette.map";
}

/* What makes a render fail before it writes anything. */
static foldsvg_status precheck(const foldsvg_profile *p, foldsvg_format format,
                               const foldsvg_options *o, foldsvg_error *err)
{
    if (p->tree.total == 0 && (o->stack.include.n || o->stack.exclude.n || o->stack.focus.n))
        return fs_error(err, FOLDSVG_E_NO_DATA, p->last_name[0] ? p->last_name : NULL,
                        "every stack was filtered out: nothing to draw (check the --include, "
                        "--exclude and --focus patterns)");
    if (p->tree.total == 0 && p->pending_name[0])
        return fs_no_data_error(err, p->pending_name, &p->pending);
    if (p->tree.total == 0 && p->last_name[0])
        return fs_no_data_error(err, p->last_name, NULL);
    if (p->tree.total == 0)
        return fs_error(err, FOLDSVG_E_NO_DATA, NULL, "no stacks were recorded: nothing to draw");
    if (format != FOLDSVG_FORMAT_FOLDED && o->stack.flamechart && !p->has_log)
        return fs_error(err, FOLDSVG_E_USAGE, NULL,
                        "--flamechart needs the input order: read the input with the flamechart "
                        "option set");
    return FOLDSVG_OK;
}

/* Renders IN (its palette map and name attributes are loaded here from the options) as
 * SVG into OUT. *PMAP gets the --cp map to save once the output is in place. */
static foldsvg_status render_svg(const fs_svg_input *base, const foldsvg_options *o, sink_out *out,
                                 fs_palettemap **pmap, foldsvg_error *err)
{
    fs_svg_input in = *base;
    *pmap = NULL;
    if (o->cp) {
        in.palette_map = fs_palettemap_new();
        if (!in.palette_map)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        foldsvg_status st = fs_palettemap_load(in.palette_map, palette_map_path(o), err);
        if (st) {
            fs_palettemap_free(in.palette_map);
            return st;
        }
    }
    fs_nameattr_map *attrs = NULL;
    if (o->nameattr) {
        attrs = fs_nameattr_new();
        foldsvg_status st = attrs ? fs_nameattr_load(attrs, o->nameattr, o->warn, o->warn_user, err)
                                  : fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
        if (st) {
            fs_nameattr_free(attrs);
            fs_palettemap_free(in.palette_map);
            return st;
        }
        in.nameattrs = attrs;
    }
    xmlOutputBufferPtr xb = xmlOutputBufferCreateIO(xml_write_cb, xml_close_cb, out, NULL);
    if (!xb) {
        fs_nameattr_free(attrs);
        fs_palettemap_free(in.palette_map);
        return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the XML output");
    }
    foldsvg_status st = fs_render_svg(&in, xb, err);
    fs_nameattr_free(attrs);
    if (st == FOLDSVG_OK && out->failed)
        st = fs_error(err, FOLDSVG_E_IO, NULL, "write failed");
    if (st)
        fs_palettemap_free(in.palette_map);
    else
        *pmap = in.palette_map;
    return st;
}

/* Renders into OUT. *PMAP gets the --cp map to save once the output is in place. */
static foldsvg_status render_to(const foldsvg_profile *p, foldsvg_format format,
                                const foldsvg_options *o, sink_out *out, fs_palettemap **pmap,
                                foldsvg_error *err)
{
    *pmap = NULL;
    foldsvg_status pre = precheck(p, format, o, err);
    if (pre)
        return pre;
    if (format == FOLDSVG_FORMAT_FOLDED) {
        folded_ctx c = {out, {0}};
        foldsvg_status st = foldsvg_profile_foreach(p, folded_line, &c);
        fs_buf_free(&c.line);
        if (st)
            return fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
        return out->failed ? fs_error(err, FOLDSVG_E_IO, NULL, "write failed") : FOLDSVG_OK;
    }
    if (format == FOLDSVG_FORMAT_HTML) {
        xmlOutputBufferPtr xb = xmlOutputBufferCreateIO(xml_write_cb, xml_close_cb, out, NULL);
        if (!xb)
            return fs_error(err, FOLDSVG_E_NOMEM, NULL, "cannot create the HTML output");
        foldsvg_status st = fs_report_render_profile(p, o, xb, err);
        if (st == FOLDSVG_OK && out->failed)
            st = fs_error(err, FOLDSVG_E_IO, NULL, "write failed");
        return st;
    }
    fs_svg_input in = {
        .tree = &p->tree,
        .log = o->stack.flamechart ? &p->log : NULL,
        .opts = &o->svg,
        .countname = o->countname ? o->countname : p->count_name,
    };
    return render_svg(&in, o, out, pmap, err);
}

static foldsvg_status save_palette(fs_palettemap *pmap, const foldsvg_options *o,
                                   foldsvg_error *err)
{
    if (!pmap)
        return FOLDSVG_OK;
    foldsvg_status st = fs_palettemap_save(pmap, palette_map_path(o), err);
    fs_palettemap_free(pmap);
    return st;
}

foldsvg_status foldsvg_profile_render(const foldsvg_profile *p, foldsvg_format format,
                                      const foldsvg_options *opts, FILE *out, foldsvg_error *err)
{
    if (!p || !out)
        return fs_error(err, FOLDSVG_E_ARG, NULL, "NULL profile or stream");
    const foldsvg_options *o = opts ? opts : fs_default_options();
    if (format == FOLDSVG_FORMAT_AUTO)
        format = FOLDSVG_FORMAT_SVG;
    sink_out s = {out, NULL, 0};
    fs_palettemap *pmap;
    foldsvg_status st = render_to(p, format, o, &s, &pmap, err);
    if (st == FOLDSVG_OK && fflush(out) != 0)
        st = fs_error(err, FOLDSVG_E_IO, NULL, "write failed");
    if (st) {
        fs_palettemap_free(pmap);
        return st;
    }
    return save_palette(pmap, o, err);
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
    if (format == FOLDSVG_FORMAT_AUTO)
        format = FOLDSVG_FORMAT_SVG;
    fs_buf mem = {0};
    sink_out s = {NULL, &mem, 0};
    fs_palettemap *pmap;
    foldsvg_status st = render_to(p, format, o, &s, &pmap, err);
    if (st == FOLDSVG_OK && fs_buf_append(&mem, "", 0) != 0)
        st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st) {
        fs_buf_free(&mem);
        return st;
    }
    *out = mem.data;
    if (len)
        *len = mem.len;
    return save_palette(pmap, o, err);
}

static void name_output(foldsvg_error *err, const char *path)
{
    if (err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", path && strcmp(path, "-") ? path : "<stdout>");
}

/* Renders through FN into PATH: a temporary file renamed on success (see outfile.h), then
 * the --cp palette map is saved. */
typedef foldsvg_status (*render_fn)(const void *ctx, sink_out *out, fs_palettemap **pmap,
                                    foldsvg_error *err);

static foldsvg_status write_with(const char *path, const foldsvg_options *o, render_fn fn,
                                 const void *ctx, foldsvg_error *err)
{
    fs_outfile f;
    foldsvg_status st = fs_outfile_open(&f, path, err);
    if (st)
        return st;
    sink_out s = {f.f, NULL, 0};
    fs_palettemap *pmap;
    st = fn(ctx, &s, &pmap, err);
    if (st) {
        fs_outfile_abort(&f);
        name_output(err, path);
        return st;
    }
    st = fs_outfile_commit(&f, err);
    if (st) {
        fs_palettemap_free(pmap);
        return st;
    }
    return save_palette(pmap, o, err);
}

typedef struct profile_job {
    const foldsvg_profile *p;
    foldsvg_format format;
    const foldsvg_options *o;
} profile_job;

static foldsvg_status render_profile_job(const void *ctx, sink_out *out, fs_palettemap **pmap,
                                         foldsvg_error *err)
{
    const profile_job *j = ctx;
    return render_to(j->p, j->format, j->o, out, pmap, err);
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
    foldsvg_status st = precheck(p, format, o, err);
    if (st)
        return st;
    profile_job j = {p, format, o};
    return write_with(path, o, render_profile_job, &j, err);
}

typedef struct frames_job {
    const fs_svg_input *in;
    const foldsvg_options *o;
} frames_job;

static foldsvg_status render_frames_job(const void *ctx, sink_out *out, fs_palettemap **pmap,
                                        foldsvg_error *err)
{
    const frames_job *j = ctx;
    return render_svg(j->in, j->o, out, pmap, err);
}

foldsvg_status fs_write_svg_frames(const fs_svg_input *in, const foldsvg_options *o,
                                   const char *path, foldsvg_error *err)
{
    if (in->tree->total == 0)
        return fs_error(err, FOLDSVG_E_NO_DATA, NULL,
                        "no valid stacks in the input: nothing to draw (lines look like "
                        "'frame;frame;... COUNT')");
    frames_job j = {in, o};
    return write_with(path, o, render_frames_job, &j, err);
}

typedef struct folded_job {
    fs_folded_producer produce;
    void *user;
} folded_job;

static foldsvg_status render_folded_job(const void *ctx, sink_out *out, fs_palettemap **pmap,
                                        foldsvg_error *err)
{
    const folded_job *j = ctx;
    *pmap = NULL;
    folded_ctx c = {out, {0}};
    foldsvg_status st = j->produce(j->user, folded_line, &c);
    fs_buf_free(&c.line);
    if (out->failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "write failed");
    return st ? fs_error(err, st, NULL, "%s", foldsvg_status_name(st)) : FOLDSVG_OK;
}

foldsvg_status fs_write_folded(const char *path, fs_folded_producer produce, void *user,
                               foldsvg_error *err)
{
    folded_job j = {produce, user};
    return write_with(path, fs_default_options(), render_folded_job, &j, err);
}

foldsvg_status foldsvg_profile_write(const foldsvg_profile *p, const char *path,
                                     const foldsvg_options *opts, foldsvg_error *err)
{
    return foldsvg_profile_write_as(p, path, FOLDSVG_FORMAT_AUTO, opts, err);
}
