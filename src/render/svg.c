#include "render/svg.h"

#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotation.h"
#include "frames/prune.h"
#include "render/colors.h"
#include "render/svgchrome.h"
#include "render/svgctx.h"
#include "render/svgname.h"
#include "render/xmlpar.h"
#include "render/xmltext.h"
#include "render/xmlw.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/numfmt.h"
#include "util/utf8.h"

/* Frames written on two cores: from this many on, in chunks of FRAME_CHUNK (four of them in
 * memory at a time: render/xmlpar.c). */
enum { PARALLEL_FRAMES = 2048, FRAME_CHUNK = 512 };

static void attr_pct(svg_ctx *c, const char *name, double v)
{
    char buf[56];
    size_t n = fs_fmt_fixed(buf, v, 4);
    buf[n] = '%';
    buf[n + 1] = '\0';
    fs_xmlw_attr_rawlen(&c->x, name, buf, n + 1);
}

static void attr_u64(svg_ctx *c, const char *name, uint64_t v)
{
    char buf[24];
    fs_xmlw_attr_rawlen(&c->x, name, buf, fs_fmt_u64(buf, v));
}

static void attr_rgb(svg_ctx *c, const char *name, fs_rgb rgb)
{
    char buf[24] = "rgb(";
    size_t n = 4;
    n += fs_fmt_u64(buf + n, rgb.r);
    buf[n++] = ',';
    n += fs_fmt_u64(buf + n, rgb.g);
    buf[n++] = ',';
    n += fs_fmt_u64(buf + n, rgb.b);
    buf[n++] = ')';
    buf[n] = '\0';
    fs_xmlw_attr_rawlen(&c->x, name, buf, n);
}

/* A name's color from the palette: the palette map's when it has one, else from the name's
 * hash (--hash, --deterministic) or from RNG (the default; NULL: --deterministic's values). */
static fs_rgb name_rgb(const fs_svg_opts *o, const fs_palettemap *pm, fs_xorshift *rng,
                       const char *name, size_t n)
{
    fs_rgb rgb;
    if (pm && fs_palettemap_get(pm, name, n, &rgb))
        return rgb;
    float v[3];
    if (o->hash) {
        v[0] = fs_namehash((const unsigned char *)name, n, 0);
        v[1] = v[2] = fs_namehash((const unsigned char *)name, n, 1);
    } else if (o->deterministic || !rng) {
        fs_fnv_values((const unsigned char *)name, n, v);
    } else {
        v[0] = fs_xorshift_next(rng);
        v[1] = fs_xorshift_next(rng);
        v[2] = fs_xorshift_next(rng);
    }
    fs_palette basic = fs_palette_resolve(o->palette, (const unsigned char *)name, n);
    return fs_palette_rgb(basic, v[0], v[1], v[2]);
}

static int separator_rgb(const char *name, size_t n, fs_rgb *rgb)
{
    if (n == 2 && name[0] == '-' && name[1] == '-')
        *rgb = (fs_rgb){160, 160, 160};
    else if (n == 1 && name[0] == '-')
        *rgb = (fs_rgb){200, 200, 200};
    else
        return 0;
    return 1;
}

fs_rgb fs_svg_name_rgb(const fs_svg_opts *o, const fs_palettemap *pm, const char *name, size_t n)
{
    fs_rgb rgb;
    return separator_rgb(name, n, &rgb) ? rgb : name_rgb(o, pm, NULL, name, n);
}

/* The change a differential frame shows (color and tooltip): its self change, or with
 * --diff-color inclusive the change of all under it. */
static int64_t frame_delta(const svg_ctx *c, const fs_frame *f)
{
    return c->o->diff_inclusive ? f->incl : f->delta;
}

/* The colors that depend on the frame alone (no palette, no random draw): 1 with *RGB set.
 * The parallel writer replays the draws of the frames the other writer drew from it. */
static int fixed_color(const svg_ctx *c, const fs_frame *f, const char *name, size_t n,
                       double width_pct, fs_rgb *rgb)
{
    const fs_svg_opts *o = c->o;
    if (separator_rgb(name, n, rgb))
        return 1;
    if (o->colordiffusion)
        *rgb = fs_diffusion_rgb(width_pct);
    else if (f->has_delta)
        *rgb = fs_diff_rgb(frame_delta(c, f), c->delta_max, o->negate);
    else
        return 0;
    return 1;
}

static fs_rgb frame_color(svg_ctx *c, const fs_frame *f, const fs_svgname *e, const char *name,
                          size_t n, double width_pct)
{
    const fs_svg_opts *o = c->o;
    fs_rgb rgb;
    if (fixed_color(c, f, name, n, width_pct, &rgb))
        return rgb;
    if (e->has_rgb)
        return e->rgb;
    fs_palettemap *pm = c->in->palette_map;
    if (pm && fs_palettemap_get(pm, name, n, &rgb))
        return rgb;
    if (!pm) { /* random: the draws, and the name's basic palette */
        float v1 = fs_xorshift_next(&c->rng), v2 = fs_xorshift_next(&c->rng);
        return fs_palette_rgb((fs_palette)e->basic, v1, v2, fs_xorshift_next(&c->rng));
    }
    rgb = name_rgb(o, NULL, &c->rng, name, n);
    if (fs_palettemap_put(pm, name, n, rgb) != FOLDSVG_OK)
        c->x.st = FOLDSVG_E_NOMEM;
    return rgb;
}

static fs_strref frame_name(const svg_ctx *c, const fs_frame *f)
{
    fs_strref r = {c->tree->name_ptr[f->name], c->tree->name_len[f->name]};
    return r;
}

static int pruned(const svg_ctx *c, const fs_frame *f)
{
    return fs_pruned(f->end - f->start, c->min_units);
}

/* The name's entry, filled on its first drawn frame. */
static int fill_name(svg_ctx *c, const fs_frame *f, fs_strref nm)
{
    fs_svgname *e = &c->names->e[f->name];
    if (e->filled)
        return 0;
    if (fs_svgnames_fill(c->names, f->name, nm.ptr, fs_deannotated_len(nm.ptr, nm.len)) !=
        FOLDSVG_OK)
        return 1;
    e->hash = fs_hash_bytes(nm.ptr, nm.len);
    e->basic = (uint8_t)fs_palette_resolve(c->o->palette, (const unsigned char *)nm.ptr, nm.len);
    if (!c->in->palette_map && (c->o->hash || c->o->deterministic)) {
        e->rgb = name_rgb(c->o, NULL, NULL, nm.ptr, nm.len);
        e->has_rgb = 1;
    }
    return 0;
}

/* Pass 1: how deep the drawn graph is, how many frames, the largest delta, a hash of the
 * content for the default id prefix, and each drawn name's entry. */
static int measure_frame(void *user, const fs_frame *f)
{
    svg_ctx *c = user;
    int drawn = !pruned(c, f);
    /* the self scale counts pruned frames too (inferno's); the inclusive one the drawn ones,
     * which every route has (the streamed one keeps no other) */
    if (f->has_delta && (drawn || !c->o->diff_inclusive)) {
        uint64_t a = fs_delta_abs(frame_delta(c, f));
        if (a > c->delta_max)
            c->delta_max = a;
    }
    if (!drawn)
        return 0;
    c->any_delta |= f->has_delta; /* a drawn one: every route draws the same frames */
    if (f->depth > c->depthmax)
        c->depthmax = f->depth;
    c->nframes++;
    fs_strref nm = frame_name(c, f);
    if (fill_name(c, f, nm))
        return 1;
    c->content_hash =
        fs_mix64(c->content_hash ^ c->names->e[f->name].hash ^ (f->start * 31 + f->end));
    return 0;
}

static uint64_t scaled_count(uint64_t units, double factor)
{
    if (factor == 1.0)
        return units;
    double v = round((double)units * factor);
    if (!(v < 18446744073709551616.0))
        return UINT64_MAX;
    return v <= 0 ? 0 : (uint64_t)v;
}

static char *put(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* The tooltip as the writer writes it: NAME is the name escaped already (its entry), the
 * unit too (c->unit), the rest is digits and punctuation ( ,.%;+-) that need no escaping. */
static void build_tooltip(svg_ctx *c, const fs_frame *f, const char *name, size_t n)
{
    const fs_svg_opts *o = c->o;
    char num[32], pnum[48] = "100";
    uint64_t shown = scaled_count(f->end - f->start, o->factor);
    size_t num_len = fs_format_thousands(shown, num), pnum_len = 3;
    if (f->depth == 0) {
        name = "all";
        n = 3;
    } else {
        double pct = 100.0 * (double)shown / ((double)c->total * o->factor);
        pnum_len = fs_fmt_fixed(pnum, pct, 2);
    }
    fs_buf *t = &c->tip;
    fs_buf_clear(t);
    if (fs_buf_reserve(t, n + num_len + c->unit.len + pnum_len + 8) != FOLDSVG_OK) {
        c->x.st = FOLDSVG_E_NOMEM;
        return;
    }
    char *p = put(t->data, name, n);
    p = put(p, " (", 2);
    p = put(p, num, num_len);
    p = put(p, " ", 1);
    p = put(p, c->unit.data, c->unit.len);
    p = put(p, ", ", 2);
    p = put(p, pnum, pnum_len);
    p = put(p, "%", 1);
    t->len = (size_t)(p - t->data);
    t->data[t->len] = '\0';
    int64_t delta = frame_delta(c, f);
    if (f->depth != 0 && f->has_delta) {
        if (delta == 0) {
            fs_buf_puts(t, "; 0.00%");
        } else {
            double d = 100.0 * (double)delta / ((double)c->total * o->factor);
            fs_buf_printf(t, "; %+.2f%%", o->negate ? -d : d);
        }
    }
    fs_buf_append(t, ")", 1);
    if (t->failed)
        c->x.st = FOLDSVG_E_NOMEM;
}

/* The label's text into *TEXT, N bytes: escaped (RAW set: write it as it is) or cleaned (the
 * writer escapes it); N 0: none. E is the name's entry, SHOWN its displayed length. */
static size_t build_label(svg_ctx *c, const fs_svgname *e, const char *name, size_t shown,
                          double width_pct, const char **text, int *raw)
{
    double per_char = 100.0 * c->fs * c->o->fontwidth / c->W;
    double fit = floor(width_pct / per_char);
    const char *esc = fs_svgname_text(c->names, e, name);
    *text = "";
    *raw = 1;
    if (fit < 3)
        return 0;
    if ((double)shown < fit) {
        *text = esc;
        return e->len;
    }
    fs_buf *l = &c->label;
    fs_buf_clear(l);
    const char *clean = esc;
    size_t clean_len = e->len;
    if (!e->plain) { /* a prefix of escaped text may cut an entity: cut the cleaned text */
        fs_buf_clear(&c->name);
        fs_xml_clean(&c->name, name, shown);
        clean = fs_buf_str(&c->name);
        clean_len = c->name.len;
        *raw = 0;
    }
    size_t keep = fs_utf8_prefix(clean, clean_len, (size_t)fit - 2);
    fs_buf_append(l, clean, keep);
    fs_buf_append(l, "..", 2);
    if (l->failed || c->name.failed)
        c->x.st = FOLDSVG_E_NOMEM;
    *text = fs_buf_str(l);
    return l->len;
}

/* A frame is a <g>, or with a --nameattr link an <a> in its place; the attributes were
 * checked when the file was read (render/nameattr.c), so each is written once, well-formed. */
static void start_container(svg_ctx *c, const fs_nameattr *na)
{
    fs_xmlw_start(&c->x, na && fs_nameattr_value(na, "xlink:href") ? "a" : "g");
    for (size_t i = 0; na && i < na->nattrs; i++)
        attr_bytes(c, na->attrs[i].key, na->attrs[i].value);
}

/* Pass 2: one <g> per drawn frame. */
static int write_frame(void *user, const fs_frame *f)
{
    svg_ctx *c = user;
    if (pruned(c, f))
        return 0;
    fs_strref raw = frame_name(c, f);
    const fs_svgname *e = &c->names->e[f->name];

    double x1 = (double)f->start * c->k;
    double x2 = (double)f->end * c->k;
    double width = x2 - x1;
    unsigned y1, y2; /* drawn ahead, not inverted: only y2 - y1 is right */
    if (c->o->inverted) {
        y1 = c->ypad1 + f->depth * c->fh;
        y2 = c->ypad1 + (f->depth + 1) * c->fh - 1;
    } else {
        y1 = c->H - c->ypad2 - (f->depth + 1) * c->fh + 1;
        y2 = c->H - c->ypad2 - f->depth * c->fh;
    }
    fs_rgb rgb = frame_color(c, f, e, raw.ptr, raw.len, width);
    const char *label = "";
    size_t label_len = 0;
    int label_raw = 1;
    if (f->depth != 0)
        label_len = build_label(c, e, raw.ptr, fs_deannotated_len(raw.ptr, raw.len), width, &label,
                                &label_raw);

    const fs_nameattr *na =
        c->in->nameattrs ? fs_nameattr_get(c->in->nameattrs, raw.ptr, raw.len) : NULL;
    start_container(c, na);
    fs_xmlw_start(&c->x, "title");
    if (na && na->title) {
        text_bytes(c, na->title, strlen(na->title));
    } else {
        build_tooltip(c, f, fs_svgname_text(c->names, e, raw.ptr), e->len);
        fs_xmlw_raw(&c->x, c->tip.data, c->tip.len); /* escaped: see build_tooltip */
    }
    fs_xmlw_end(&c->x);
    fs_xmlw_start(&c->x, "rect");
    /* The hot loop: numbers are formatted by hand (same text as printf, see numfmt.h). */
    attr_pct(c, "x", x1);
    attr_u64(c, "y", y1);
    attr_pct(c, "width", width);
    attr_u64(c, "height", y2 - y1);
    attr_rgb(c, "fill", rgb);
    attr_u64(c, "fg:x", f->start);
    attr_u64(c, "fg:w", f->end - f->start);
    fs_xmlw_end(&c->x);
    /* An empty label is an empty <text> (inferno's shape) only without the script: the script
     * makes a frame's <text> when it first labels it, its y from the rect's (most frames of a
     * big graph never get one, and each element costs the browser its parse, style and
     * layout). */
    if (label_len || c->o->no_javascript) {
        fs_xmlw_start(&c->x, "text");
        attr_pct(c, "x", x1 + 300.0 / c->W);
        char num[48];
        size_t num_len = fs_fmt_fixed(num, 3.0 + (y1 + y2) / 2.0, 2);
        fs_xmlw_attr_rawlen(&c->x, "y", num, num_len);
        if (label_raw) /* the name's escaped text, or a prefix of it that escapes nothing */
            fs_xmlw_raw(&c->x, label, label_len);
        else
            fs_xmlw_text(&c->x, label);
        fs_xmlw_end(&c->x);
    }
    fs_xmlw_end(&c->x);
    return c->x.failed || c->x.st ? 1 : 0;
}

/* The random colors of frames [FROM, TO) written by the other part's writer: the draws
 * they took. */
static void skip_frames(svg_ctx *c, size_t from, size_t to)
{
    if (c->o->hash || c->o->deterministic)
        return;
    for (size_t i = from; i < to; i++) {
        const fs_frame *f = &c->in->frames[i];
        fs_strref nm = frame_name(c, f);
        fs_rgb rgb;
        if (pruned(c, f) || fixed_color(c, f, nm.ptr, nm.len, 0, &rgb))
            continue;
        for (int k = 0; k < 3; k++)
            (void)fs_xorshift_next(&c->rng);
    }
}

static int write_part(void *user, size_t from, size_t to)
{
    svg_ctx *c = user;
    skip_frames(c, c->next_frame, from);
    for (size_t i = from; i < to; i++)
        if (write_frame(c, &c->in->frames[i]))
            return 1;
    c->next_frame = to;
    return 0;
}

/* The frames of a frame array on two cores (render/xmlpar.h): the same bytes. Not with a
 * palette map, which each frame may change, nor indented (the second writer's markup would
 * not be). 0: not done, nothing written. */
static int write_frames_parallel(svg_ctx *c)
{
    if (!c->in->frames || c->in->palette_map || c->o->pretty_xml ||
        c->in->nframes < PARALLEL_FRAMES)
        return 0;
    svg_ctx part[2] = {*c, *c};
    for (int i = 0; i < 2; i++) {
        memset(&part[i].name, 0, sizeof part[i].name);
        memset(&part[i].label, 0, sizeof part[i].label);
        memset(&part[i].tip, 0, sizeof part[i].tip);
        part[i].next_frame = 0;
    }
    fs_xmlpar p = {
        c->in->nframes, FRAME_CHUNK, write_part, {&part[0], &part[1]}, {&part[0].x, &part[1].x}};
    int rc = fs_xmlpar_run(&c->x, &p, c->in->pool);
    for (int i = 0; i < 2; i++) {
        fs_buf_free(&part[i].name);
        fs_buf_free(&part[i].label);
        fs_buf_free(&part[i].tip);
    }
    return rc == 0;
}

/* Runs FN over the frames in output order, from whichever source the input has. */
static int each_frame(const svg_ctx *c, fs_frame_fn fn, void *user, foldsvg_status *st)
{
    *st = FOLDSVG_OK;
    if (!c->in->frames)
        return fs_generate_frames(c->tree, c->in->log, fn, user, st);
    for (size_t i = 0; i < c->in->nframes; i++) {
        int rc = fn(user, &c->in->frames[i]);
        if (rc)
            return rc;
    }
    return 0;
}

static void write_document(svg_ctx *c)
{
    fs_svg_write_chrome(c); /* render/svgchrome.c: all but the frames */
    fs_xmlw_start(&c->x, "svg");
    id_attr(c, "frames");
    fs_xmlw_attr(&c->x, "x", "10");
    fs_xmlw_attrf(&c->x, "width", "%u", c->W - 20);
    fs_xmlw_attrf(&c->x, "total_samples", "%llu", (unsigned long long)c->total);
    foldsvg_status gst = FOLDSVG_OK;
    if (!write_frames_parallel(c))
        each_frame(c, write_frame, c, &gst);
    if (gst && !c->x.st)
        c->x.st = gst;
    fs_xmlw_end(&c->x);
    fs_xmlw_end(&c->x);
    fs_xmlw_check(&c->x, xmlTextWriterEndDocument(c->x.w));
}

/* C set up for IN's frames, TOTAL units in all, their names' entries in NAMES (made here);
 * the measures of pass 1 left at 0. */
static foldsvg_status ctx_init(svg_ctx *c, const fs_svg_input *in, uint64_t total,
                               fs_svgnames *names)
{
    const fs_svg_opts *o = in->opts;
    memset(c, 0, sizeof *c);
    c->in = in;
    c->o = o;
    c->tree = in->tree;
    c->total = total;
    c->k = 100.0 / (double)c->total;
    c->min_units = fs_prune_limit(o->minwidth, c->total);
    c->W = o->width ? o->width : 1200;
    c->fs = o->fontsize;
    c->fh = o->frameheight;
    fs_xorshift_init(&c->rng);
    c->bg = o->bg_set ? o->bg : fs_background_for_palette(o->palette);
    unsigned sub = o->subtitle ? 2 * c->fs : 0;
    c->ypad1 = (o->inverted ? 4 * c->fs + 4 : 3 * c->fs) + sub;
    c->ypad2 = o->inverted ? c->fs + 10 : 2 * c->fs + 10;
    c->names = names;
    foldsvg_status st = fs_svgnames_init(names, in->tree->nnames);
    if (st == FOLDSVG_OK)
        st = fs_xml_escape_text(&c->unit, &c->name, in->countname, strlen(in->countname));
    return st;
}

static void ctx_free(svg_ctx *c)
{
    fs_buf_free(&c->unit);
    fs_buf_free(&c->name);
    fs_buf_free(&c->label);
    fs_buf_free(&c->tip);
}

foldsvg_status fs_render_svg(const fs_svg_input *in, xmlOutputBufferPtr out, foldsvg_error *err)
{
    const fs_svg_opts *o = in->opts;
    svg_ctx c;
    fs_svgnames names;
    memset(&names, 0, sizeof names);
    if (in->tree->total == 0) {
        xmlOutputBufferClose(out);
        return fs_error(err, FOLDSVG_E_NO_DATA, NULL, "no stacks to draw (the total count is 0)");
    }
    foldsvg_status st = ctx_init(&c, in, in->tree->total, &names);
    if (st == FOLDSVG_OK && each_frame(&c, measure_frame, &c, &st) && st == FOLDSVG_OK)
        st = FOLDSVG_E_NOMEM; /* a name's entry */
    if (st) {
        fs_svgnames_free(&names);
        ctx_free(&c);
        xmlOutputBufferClose(out);
        return fs_error(err, st, NULL, "out of memory while laying out frames");
    }
    /* the self scale counts the pruned frames too (inferno's); the inclusive one is that of
     * the frames drawn (a pruned frame's change is in those above it) */
    if (in->frames && in->delta_max > c.delta_max && !o->diff_inclusive)
        c.delta_max = in->delta_max;
    if (c.delta_max == 0)
        c.delta_max = 1;
    c.H = (c.depthmax + 1) * c.fh + c.ypad1 + c.ypad2;
    if (o->id_prefix)
        snprintf(c.prefix, sizeof c.prefix, "%s", o->id_prefix);
    else /* the theme too: a light and a dark copy of one graph share a page, not styles */
        snprintf(c.prefix, sizeof c.prefix, "fg%08llx",
                 (unsigned long long)(fs_mix64(c.content_hash ^ c.total ^ (uint64_t)o->theme) &
                                      0xffffffffULL));

    st = fs_xmlw_begin(&c.x, out, "XML", err);
    if (st == FOLDSVG_OK) {
        write_document(&c);
        st = fs_xmlw_finish(&c.x, "the SVG", err);
    }
    fs_svgnames_free(&names);
    ctx_free(&c);
    return st;
}
