/* --theme: the color scheme of the SVG and of the HTML report. auto follows the reader's
 * system (prefers-color-scheme); light and dark hold whatever the system or the page around
 * an inline SVG says. */
#ifndef FOLDSVG_RENDER_THEME_H
#define FOLDSVG_RENDER_THEME_H

typedef enum fs_theme { FS_THEME_AUTO, FS_THEME_LIGHT, FS_THEME_DARK } fs_theme;

/* "auto", "light", "dark", NULL: the option's values, in fs_theme order. */
extern const char *const fs_theme_names[];

/* The name of THEME ("auto" for a value out of range). */
const char *fs_theme_name(int theme);
/* The at-rule the dark styles sit in: "@media (prefers-color-scheme: dark)" for auto,
 * "@media all" for dark, "" for light (no dark styles). */
const char *fs_theme_dark_media(int theme);
/* The value of CSS color-scheme: "light dark", "light" or "dark". */
const char *fs_theme_color_scheme(int theme);

#endif
