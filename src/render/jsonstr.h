/* JSON string literals that are safe wherever the page puts them: inside an SVG's CDATA
 * section (the script's settings) or an HTML <script> element (the report's stack data).
 * Every byte above 0x7e and '<', '>', '&' is written as \uXXXX (invalid UTF-8 as U+FFFD), so
 * the text is plain ASCII and can never close the section or the element early. */
#ifndef FOLDSVG_RENDER_JSONSTR_H
#define FOLDSVG_RENDER_JSONSTR_H

#include <stddef.h>

#include "util/buf.h"

/* Appends S[0..n) to B as a quoted JSON string. */
void fs_json_string(fs_buf *b, const char *s, size_t n);

#endif
