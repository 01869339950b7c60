/* What the SVG writes for each distinct frame name, made once per name before any frame is
 * written (a big graph draws few names many times: 88k frames of a few thousand names),
 * then only read, by both writers of render/xmlpar.h at once. */
#ifndef FOLDSVG_RENDER_SVGNAME_H
#define FOLDSVG_RENDER_SVGNAME_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"
#include "render/colors.h"
#include "util/buf.h"

typedef struct fs_svgname {
    uint64_t hash; /* fs_hash_bytes of the raw name */
    uint32_t off;  /* with OWN, the text is in the table's arena from here */
    uint32_t len;
    fs_rgb rgb;
    uint8_t basic; /* the palette's basic palette for the name (fs_palette_resolve) */
    uint8_t filled;
    /* the text is the cleaned name itself (nothing escaped): any prefix of it is valid,
     * escaped text too */
    uint8_t plain;
    uint8_t own;     /* the text differs from the name's bytes: a copy in the arena */
    uint8_t has_rgb; /* RGB is the name's color (colors that depend on the name alone) */
} fs_svgname;

typedef struct fs_svgnames {
    fs_svgname *e; /* one a name id, NULL when the table has none */
    uint32_t n;    /* entries */
    fs_buf arena, scratch;
} fs_svgnames;

/* A table for name ids [0, n). FOLDSVG_E_NOMEM. */
foldsvg_status fs_svgnames_init(fs_svgnames *t, uint32_t n);
void fs_svgnames_free(fs_svgnames *t);

/* Fills entry ID's text (not the colors or the hash) for the name S[0..n): S cleaned
 * (render/xmltext.h) and escaped for XML text by libxml2's own escaper,
 * xmlEncodeSpecialChars, which xmlTextWriterWriteString runs on text: the bytes it would
 * write for it. A name that is clean and has none of the five bytes it escapes (<>&" and CR)
 * is its own text, and is not copied. FOLDSVG_E_NOMEM. */
foldsvg_status fs_svgnames_fill(fs_svgnames *t, uint32_t id, const char *s, size_t n);

/* The text of entry E, filled from the name S (which must still be there). */
static inline const char *fs_svgname_text(const fs_svgnames *t, const fs_svgname *e, const char *s)
{
    return e->own ? t->arena.data + e->off : s;
}

/* Appends S[0..n) cleaned and escaped as fs_svgnames_fill does to OUT, using SCRATCH.
 * FOLDSVG_E_NOMEM. */
foldsvg_status fs_xml_escape_text(fs_buf *out, fs_buf *scratch, const char *s, size_t n);

#endif
