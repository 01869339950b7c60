#include "render/svgstyle.h"

#include <stdio.h>
#include <string.h>

#include "render/assets.h"
#include "render/template.h"
#include "render/theme.h"

static int is_generic_font(const char *f)
{
    static const char *const generic[] = {"serif",   "sans-serif", "monospace",
                                          "cursive", "fantasy",    "system-ui"};
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (strcmp(f, generic[i]) == 0)
            return 1;
    return 0;
}

/* a CSS font family: a generic one as it is, another quoted */
static void font_family(fs_buf *family, const char *font)
{
    if (is_generic_font(font)) {
        fs_buf_puts(family, font);
        return;
    }
    fs_buf_puts(family, "\"");
    for (const char *p = font; *p; p++) {
        if (*p == '"' || *p == '\\')
            fs_buf_puts(family, "\\");
        fs_buf_append(family, p, 1);
    }
    fs_buf_puts(family, "\"");
}

foldsvg_status fs_svg_style(fs_buf *css, const fs_svg_opts *o, const char *prefix,
                            unsigned fontsize, const fs_background *bg)
{
    fs_buf family = {0};
    font_family(&family, o->fonttype ? o->fonttype : "monospace");
    char size[16], title_size[16], stroke[32] = "", ui[32];
    snprintf(size, sizeof size, "%u", fontsize);
    snprintf(title_size, sizeof title_size, "%u", fontsize + 5);
    if (o->stroke_set)
        snprintf(stroke, sizeof stroke, "rgb(%u,%u,%u)", o->strokecolor.r, o->strokecolor.g,
                 o->strokecolor.b);
    snprintf(ui, sizeof ui, "rgb(%u,%u,%u)", o->uicolor.r, o->uicolor.g, o->uicolor.b);
    int theme = o->theme;
    const fs_template_var vars[] = {
        {"p", prefix},
        {"font", fs_buf_str(&family)},
        {"size", size},
        {"title_size", title_size},
        {"stroke", stroke},
        {"dark", theme == FS_THEME_LIGHT ? "" : "1"},
        {"root", theme == FS_THEME_AUTO ? ":root" : ""},
        {"scheme", fs_theme_color_scheme(theme)},
        {"top", bg->top},
        {"bottom", bg->bottom},
        {"ui", ui},
    };
    fs_template_expand(css, (const char *)fs_asset_flamegraph_css, fs_asset_flamegraph_css_len,
                       vars, sizeof vars / sizeof vars[0]);
    foldsvg_status st = family.failed || css->failed ? FOLDSVG_E_NOMEM : FOLDSVG_OK;
    fs_buf_free(&family);
    return st;
}
