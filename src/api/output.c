#include "api/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "api/diag.h"
#include "api/options.h"
#include "api/profile.h"
#include "render/nameattr.h"
#include "render/xmlw.h"
#include "util/error.h"
#include "util/outfile.h"

/* DATA[0..n) through S's gzip stream into its file (FLUSH: Z_NO_FLUSH, or Z_FINISH at the
 * end). 0, or -1 with errno set. */
static int gz_write(fs_out *s, const char *data, size_t n, int flush)
{
    unsigned char chunk[1 << 14];
    z_stream *z = s->gz;
    z->next_in = (unsigned char *)(uintptr_t)data;
    do {
        uInt take = n > (1u << 30) ? 1u << 30 : (uInt)n;
        z->avail_in = take;
        n -= take;
        int zf = n ? Z_NO_FLUSH : flush, r;
        do {
            z->next_out = chunk;
            z->avail_out = sizeof chunk;
            r = deflate(z, zf);
            if (r == Z_STREAM_ERROR) {
                errno = ENOMEM;
                return -1;
            }
            size_t have = sizeof chunk - z->avail_out;
            if (have && fwrite(chunk, 1, have, s->f) != have)
                return -1;
        } while (z->avail_out == 0 || (zf == Z_FINISH && r != Z_STREAM_END));
    } while (n);
    return 0;
}

/* FOLDSVG_E_IO once a write failed (sticky: the output is broken). */
foldsvg_status fs_out_write(fs_out *s, const char *data, size_t n)
{
    if (s->failed)
        return FOLDSVG_E_IO;
    errno = 0;
    int bad = s->mem  ? fs_buf_append(s->mem, data, n) != FOLDSVG_OK
              : s->gz ? gz_write(s, data, n, Z_NO_FLUSH) != 0
                      : fwrite(data, 1, n, s->f) != n;
    if (bad) {
        s->failed = 1;
        s->errnum = s->mem ? ENOMEM : errno ? errno : EIO;
        return FOLDSVG_E_IO;
    }
    return FOLDSVG_OK;
}

foldsvg_status fs_out_failure(const fs_out *out, foldsvg_status st, const char *name,
                              foldsvg_error *err)
{
    if (out->failed && out->errnum == ENOMEM)
        return fs_error(err, FOLDSVG_E_NOMEM, name, "out of memory");
    if (out->failed)
        return fs_error(err, FOLDSVG_E_IO, name, "write failed: %s", strerror(out->errnum));
    if (err && name && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", name);
    return st;
}

static int xml_write_cb(void *ctx, const char *data, int len)
{
    return fs_out_write(ctx, data, (size_t)len) == FOLDSVG_OK ? len : -1;
}

static int xml_close_cb(void *ctx)
{
    (void)ctx;
    return 0;
}

xmlOutputBufferPtr fs_out_xml(fs_out *out)
{
    return xmlOutputBufferCreateIO(xml_write_cb, xml_close_cb, out, NULL);
}

static const char *palette_map_path(const foldsvg_options *o)
{
    return o->palette_map_path ? o->palette_map_path : "palette.map";
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

/* ---- destinations ------------------------------------------------------------------------ */

foldsvg_status fs_output_stream(fs_output_fn fn, const void *job, const foldsvg_options *o, FILE *f,
                                foldsvg_error *err)
{
    fs_out s = {f, NULL, 0, 0, NULL, NULL};
    fs_palettemap *pmap = NULL;
    fs_xml_quiet q;
    fs_xml_quiet_begin(&q);
    foldsvg_status st = fn(job, &s, &pmap, err);
    fs_xml_quiet_end(&q);
    if (st == FOLDSVG_OK && fflush(f) != 0) {
        s.failed = 1;
        s.errnum = errno;
    }
    if (st || s.failed) {
        fs_palettemap_free(pmap);
        return fs_out_failure(&s, st, NULL, err);
    }
    return save_palette(pmap, o, err);
}

foldsvg_status fs_output_mem(fs_output_fn fn, const void *job, const foldsvg_options *o, char **out,
                             size_t *len, foldsvg_error *err)
{
    fs_buf mem = {0};
    fs_out s = {NULL, &mem, 0, 0, NULL, NULL};
    fs_palettemap *pmap = NULL;
    fs_xml_quiet q;
    fs_xml_quiet_begin(&q);
    foldsvg_status st = fn(job, &s, &pmap, err);
    fs_xml_quiet_end(&q);
    if (st)
        st = fs_out_failure(&s, st, NULL, err);
    if (st == FOLDSVG_OK && fs_buf_append(&mem, "", 0) != FOLDSVG_OK)
        st = fs_error(err, FOLDSVG_E_NOMEM, NULL, "out of memory");
    if (st) {
        fs_palettemap_free(pmap);
        fs_buf_free(&mem);
        return st;
    }
    *out = mem.data;
    if (len)
        *len = mem.len;
    return save_palette(pmap, o, err);
}

foldsvg_status fs_output_file(fs_output_fn fn, const void *job, const foldsvg_options *o,
                              const char *path, foldsvg_error *err)
{
    fs_outfile f;
    FS_FORWARD_IF_ERROR(fs_outfile_open(&f, path, err));
    fs_out s = {f.f, NULL, 0, 0, &f, NULL};
    z_stream z;
    size_t plen = path ? strlen(path) : 0;
    if (!f.is_stdout && plen > 3 && strcmp(path + plen - 3, ".gz") == 0) {
        memset(&z, 0, sizeof z);
        /* 15 + 16: a gzip wrapper, whose header deflateInit2 leaves without name or time */
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            fs_outfile_abort(&f);
            return fs_error(err, FOLDSVG_E_NOMEM, path, "out of memory");
        }
        s.gz = &z;
    }
    fs_palettemap *pmap = NULL;
    fs_xml_quiet q;
    fs_xml_quiet_begin(&q);
    foldsvg_status st = fn(job, &s, &pmap, err);
    fs_xml_quiet_end(&q);
    if (st == FOLDSVG_OK && !s.failed && s.gz && (errno = 0, gz_write(&s, "", 0, Z_FINISH)) != 0) {
        s.failed = 1;
        s.errnum = errno ? errno : EIO;
    }
    if (s.gz)
        deflateEnd(&z);
    if (st || s.failed) {
        fs_outfile_abort(&f);
        fs_palettemap_free(pmap);
        return fs_out_failure(&s, st, path && strcmp(path, "-") ? path : "<stdout>", err);
    }
    st = fs_outfile_commit(&f, err);
    if (st) {
        fs_palettemap_free(pmap);
        return st;
    }
    return save_palette(pmap, o, err);
}

/* ---- jobs -------------------------------------------------------------------------------- */

foldsvg_status fs_output_precheck(const foldsvg_profile *p, foldsvg_format format,
                                  const foldsvg_options *o, foldsvg_error *err)
{
    /* a part of a run (--facts-out): whether there is anything at all, the whole run says */
    if (p->tree.total == 0 && format == FOLDSVG_FORMAT_FOLDED && o->facts_out)
        return FOLDSVG_OK;
    if (p->tree.total == 0)
        return fs_profile_no_data(p, format, o, err);
    if (format != FOLDSVG_FORMAT_FOLDED && o->stack.flamechart && !p->has_log)
        return fs_error(err, FOLDSVG_E_USAGE, NULL,
                        "--flamechart needs the input order: read the input with the flamechart "
                        "option set");
    return FOLDSVG_OK;
}

/* Draws IN (its palette map and name attributes are loaded here from the options) as SVG. */
static foldsvg_status draw_svg(const fs_svg_input *base, const foldsvg_options *o, fs_out *out,
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
    xmlOutputBufferPtr xb = fs_out_xml(out);
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

typedef struct folded_ctx {
    fs_out *out;
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
    if (c->line.failed || fs_out_write(c->out, c->line.data, c->line.len) != FOLDSVG_OK) {
        c->out->failed = 1;
        return 1;
    }
    return 0;
}

foldsvg_status fs_output_profile(const void *job, fs_out *out, fs_palettemap **pmap,
                                 foldsvg_error *err)
{
    const fs_profile_job *j = job;
    const foldsvg_profile *p = j->p;
    const foldsvg_options *o = j->o;
    *pmap = NULL;
    FS_FORWARD_IF_ERROR(fs_output_precheck(p, j->format, o, err));
    if (j->format == FOLDSVG_FORMAT_FOLDED) {
        folded_ctx c = {out, {0}};
        foldsvg_status st = foldsvg_profile_foreach(p, folded_line, &c);
        fs_buf_free(&c.line);
        if (st)
            return fs_error(err, st, NULL, "%s", foldsvg_status_name(st));
        return out->failed ? fs_error(err, FOLDSVG_E_IO, NULL, "write failed") : FOLDSVG_OK;
    }
    fs_svg_input in = {
        .tree = &p->tree,
        .log = o->stack.flamechart ? &p->log : NULL,
        .opts = &o->svg,
        .countname = o->countname ? o->countname : p->count_name,
    };
    return draw_svg(&in, o, out, pmap, err);
}

foldsvg_status fs_output_frames(const void *job, fs_out *out, fs_palettemap **pmap,
                                foldsvg_error *err)
{
    const fs_frames_job *j = job;
    /* 172 to 208 bytes a frame, and the document's head and script (a profile's drawing
     * knows its frames only as it lays them out: its file gets no space ahead) */
    if (out->file)
        fs_outfile_reserve(out->file, (uint64_t)j->in->nframes * 200 + ((uint64_t)64 << 10));
    return draw_svg(j->in, j->o, out, pmap, err);
}

foldsvg_status fs_output_folded(const void *job, fs_out *out, fs_palettemap **pmap,
                                foldsvg_error *err)
{
    const fs_folded_job *j = job;
    *pmap = NULL;
    folded_ctx c = {out, {0}};
    foldsvg_status st = j->produce(j->user, folded_line, &c);
    fs_buf_free(&c.line);
    if (out->failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "write failed");
    return st ? fs_error(err, st, NULL, "%s", foldsvg_status_name(st)) : FOLDSVG_OK;
}
