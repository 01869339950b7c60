/* Frame colors and backgrounds, bit-compatible with inferno-flamegraph 0.12
 * (docs/inferno-compat.md, "Colors" and "Palette formulas"). */
#ifndef FOLDSVG_RENDER_COLORS_H
#define FOLDSVG_RENDER_COLORS_H

#include <stddef.h>
#include <stdint.h>

typedef struct fs_rgb {
    uint8_t r, g, b;
} fs_rgb;

typedef enum fs_palette {
    FS_PAL_HOT = 0,
    FS_PAL_MEM,
    FS_PAL_IO,
    FS_PAL_RED,
    FS_PAL_GREEN,
    FS_PAL_BLUE,
    FS_PAL_AQUA,
    FS_PAL_YELLOW,
    FS_PAL_PURPLE,
    FS_PAL_ORANGE,
    /* multi-hue palettes: pick one of the basic palettes above from the name */
    FS_PAL_WAKEUP,
    FS_PAL_JAVA,
    FS_PAL_JS,
    FS_PAL_PERL,
    FS_PAL_PYTHON,
    FS_PAL_RUST
} fs_palette;

/* inferno's -c/--colors names, NULL-terminated, in the order --help lists them. */
extern const char *const fs_palette_names[];
/* One of fs_palette_names. 0 on success, -1 when unknown. */
int fs_palette_from_name(const char *name, fs_palette *out);
/* The canonical name of a palette. */
const char *fs_palette_name(fs_palette p);

/* The flamegraph.pl name hash of inferno's --hash (32-bit float arithmetic, backtick
 * restarts), over BYTES[0..n) forwards, or backwards when REVERSED is non-zero. */
float fs_namehash(const unsigned char *bytes, size_t n, int reversed);

/* --deterministic: v[0..2] from 64-bit FNV-1a of the name. */
void fs_fnv_values(const unsigned char *bytes, size_t n, float v[3]);

/* The default generator: XorShift64 seeded with 1234, one per render. */
typedef struct fs_xorshift {
    uint64_t state;
} fs_xorshift;
void fs_xorshift_init(fs_xorshift *x);
float fs_xorshift_next(fs_xorshift *x);

/* The basic palette a (multi-hue) palette uses for NAME (raw, with annotations). */
fs_palette fs_palette_resolve(fs_palette p, const unsigned char *name, size_t n);
/* Color of a basic palette (hot ... orange) for the three values. */
fs_rgb fs_palette_rgb(fs_palette basic, float v1, float v2, float v3);

/* Differential scale: 0 -> (250,250,250); positive (255,c,c); negative (c,c,255); NEGATE
 * swaps the hues. MAX is max |delta| (at least 1). */
fs_rgb fs_diff_rgb(int64_t delta, uint64_t max, int negate);
/* --colordiffusion color of a frame WIDTH_PERCENT wide (0..100). */
fs_rgb fs_diffusion_rgb(double width_percent);

/* Background gradient. */
typedef enum fs_bg_kind {
    FS_BG_YELLOW,
    FS_BG_BLUE,
    FS_BG_GREEN,
    FS_BG_GREY,
    FS_BG_FLAT
} fs_bg_kind;
typedef struct fs_background {
    char top[8];    /* "#rrggbb" (lowercase), stop at 5% */
    char bottom[8]; /* stop at 95% */
} fs_background;
/* The default background of a palette (hot and most: yellow; io, wakeup: blue; mem: green;
 * single-hue palettes: grey). */
fs_background fs_background_for_palette(fs_palette p);
/* The named backgrounds of --bgcolors, NULL-terminated, in fs_bg_kind's order. */
extern const char *const fs_background_names[];
/* --bgcolors VALUE: "yellow", "blue", "green", "grey" or "#rrggbb" (any case, written
 * lowercase, both stops that color). 0 on success, -1 when invalid. */
int fs_background_parse(const char *value, fs_background *out);

/* A color value for --uicolor/--search-color/--stroke-color: "#rrggbb" (exactly 6 hex
 * digits). 0 on success, -1 when invalid. */
int fs_rgb_parse_hex(const char *value, fs_rgb *out);

#endif
