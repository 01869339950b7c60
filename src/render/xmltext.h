/* Making arbitrary bytes safe for XML 1.0 text and attributes: invalid UTF-8 and the
 * characters XML forbids become U+FFFD; escaping of <>&"' is left to the writer. */
#ifndef FOLDSVG_RENDER_XMLTEXT_H
#define FOLDSVG_RENDER_XMLTEXT_H

#include <stddef.h>

#include "util/buf.h"

/* Whether S[0..n) can be written as is (valid UTF-8, only XML Chars, no NUL). */
int fs_xml_is_clean(const char *s, size_t n);
/* Appends the cleaned form of S[0..n) to OUT. FOLDSVG_E_NOMEM (OUT failed). */
foldsvg_status fs_xml_clean(fs_buf *out, const char *s, size_t n);

#endif
