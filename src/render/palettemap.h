/* The --cp palette map: frame name -> color, kept in a file across renders so a function
 * keeps its color (inferno's PaletteMap, docs/inferno-compat.md "Colors").
 *
 * File format, as inferno reads it: one `NAME->rgb(R,G,B)` per line. A line is split on
 * every "->" and must give exactly two parts, so a name that itself holds "->" never
 * loads back (inferno behaves the same; such names are still written by save). The NAME
 * part is taken byte for byte (not trimmed); the color part may carry surrounding
 * whitespace, and so may each channel, which is a decimal 0..255 (an optional '+' is
 * accepted, as Rust's u8 parser does). Lines that do not fit are dropped silently; a later
 * line for the same name wins. "\n" and "\r\n" end lines. The root frame is stored with an
 * empty name: `->rgb(...)`. */
#ifndef FOLDSVG_RENDER_PALETTEMAP_H
#define FOLDSVG_RENDER_PALETTEMAP_H

#include <stddef.h>

#include "foldsvg.h"
#include "render/colors.h"

typedef struct fs_palettemap fs_palettemap;

/* An empty map, or NULL when out of memory. */
fs_palettemap *fs_palettemap_new(void);
/* NULL is fine. */
void fs_palettemap_free(fs_palettemap *m);

/* Adds the lines of the file PATH to the map. A file that does not exist leaves the map as
 * it is (FOLDSVG_OK); one that cannot be opened or read is FOLDSVG_E_IO (err->file = PATH). */
foldsvg_status fs_palettemap_load(fs_palettemap *m, const char *path, foldsvg_error *err);
/* The same for the text DATA[0..len); FOLDSVG_E_NOMEM is its only failure. */
foldsvg_status fs_palettemap_parse(fs_palettemap *m, const char *data, size_t len,
                                   foldsvg_error *err);

/* 1 and *OUT (when non-NULL) set when NAME[0..len) is mapped, else 0. */
int fs_palettemap_get(const fs_palettemap *m, const char *name, size_t len, fs_rgb *out);
/* Maps NAME[0..len) (any bytes) to RGB, replacing an earlier color. FOLDSVG_E_NOMEM on
 * failure (the map is unchanged). */
foldsvg_status fs_palettemap_put(fs_palettemap *m, const char *name, size_t len, fs_rgb rgb);
/* How many names are mapped. */
size_t fs_palettemap_size(const fs_palettemap *m);

/* Rewrites PATH with every entry, sorted by the bytes of the name, one
 * `NAME->rgb(R,G,B)\n` each. The text goes to a temporary file beside PATH that is then
 * renamed over it (an existing file's permission bits are kept; a symlink at PATH is
 * replaced, not followed), so a failure leaves the old file intact: FOLDSVG_E_IO (err->file =
 * PATH), FOLDSVG_E_NOMEM. */
foldsvg_status fs_palettemap_save(const fs_palettemap *m, const char *path, foldsvg_error *err);

#endif
