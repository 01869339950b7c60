#include "render/theme.h"

#include <stddef.h>

const char *const fs_theme_names[] = {"auto", "light", "dark", NULL};

static fs_theme valid(int theme)
{
    return theme == FS_THEME_LIGHT || theme == FS_THEME_DARK ? (fs_theme)theme : FS_THEME_AUTO;
}

const char *fs_theme_name(int theme)
{
    return fs_theme_names[valid(theme)];
}

const char *fs_theme_dark_media(int theme)
{
    static const char *const media[] = {"@media (prefers-color-scheme: dark)", "", "@media all"};
    return media[valid(theme)];
}

const char *fs_theme_color_scheme(int theme)
{
    static const char *const scheme[] = {"light dark", "light", "dark"};
    return scheme[valid(theme)];
}
