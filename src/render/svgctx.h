/* The state of the SVG writer (render/svg.c) while it writes one document, shared with what it
 * draws around the frames (render/svgchrome.c), and the small writes both make. */
#ifndef FOLDSVG_RENDER_SVGCTX_H
#define FOLDSVG_RENDER_SVGCTX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aggregate/tree.h"
#include "render/colors.h"
#include "render/svginput.h"
#include "render/svgname.h"
#include "render/svgopts.h"
#include "render/xmlw.h"
#include "util/buf.h"

/* Everything the per-frame callbacks need. */
typedef struct svg_ctx {
    const fs_svg_input *in;
    const fs_svg_opts *o;
    const fs_tree *tree;
    fs_xmlw x;

    uint64_t total;
    double k;         /* 100 / total: percent per count unit */
    double min_units; /* frames narrower than this many units are pruned */
    uint32_t depthmax;
    size_t nframes;
    uint64_t delta_max;
    int any_delta; /* a differential graph: it has a legend */
    uint64_t content_hash;

    unsigned W, fs, fh;
    unsigned H, ypad1, ypad2;
    char prefix[80];
    fs_xorshift rng;
    fs_background bg;

    /* each drawn name's text and color, made in pass 1 (shared by the two writers: only
     * read while frames are written) */
    fs_svgnames *names;
    fs_buf unit;             /* the count unit, cleaned and escaped as the names are */
    fs_buf name, label, tip; /* scratch */
    size_t next_frame;       /* written in parts: where this part's writer is */
} svg_ctx;

/* User-supplied bytes as text, cleaned. Empty text writes nothing, so that an element left
 * empty stays <name/>. */
static inline void text_bytes(svg_ctx *c, const char *s, size_t n)
{
    if (n)
        fs_xmlw_text_clean(&c->x, s, n);
}

static inline void attr_bytes(svg_ctx *c, const char *name, const char *s)
{
    fs_xmlw_attr_clean(&c->x, name, s, strlen(s));
}

static inline void id_attr(svg_ctx *c, const char *name)
{
    fs_xmlw_attrf(&c->x, "id", "%s-%s", c->prefix, name);
}

#endif
