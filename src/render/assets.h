/* Byte arrays generated from src/render/assets/ by cmake/embed.cmake (NUL-terminated): the
 * styles as they are, the scripts joined from assets/js/ and stripped (cmake/jsbundle.c). */
#ifndef FOLDSVG_RENDER_ASSETS_H
#define FOLDSVG_RENDER_ASSETS_H

#include <stddef.h>

/* the SVG's script (src/render/script.c): a standalone SVG's, and an HTML report's SVGs'
 * (the callers and callees views too); the SVG's style template (src/render/svg.c) */
extern const unsigned char fs_asset_flamegraph_js[];
extern const size_t fs_asset_flamegraph_js_len;
extern const unsigned char fs_asset_flamegraph_views_js[];
extern const size_t fs_asset_flamegraph_views_js_len;
extern const unsigned char fs_asset_flamegraph_css[];
extern const size_t fs_asset_flamegraph_css_len;
/* the HTML report's style and script (src/render/report.c) */
extern const unsigned char fs_asset_report_css[];
extern const size_t fs_asset_report_css_len;
extern const unsigned char fs_asset_report_js[];
extern const size_t fs_asset_report_js_len;
/* the rules of a diff's sections (src/render/report.c adds them when a section is one) */
extern const unsigned char fs_asset_diffreport_css[];
extern const size_t fs_asset_diffreport_css_len;

#endif
