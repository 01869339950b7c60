/* Making arbitrary bytes safe for XML 1.0 text and attributes: invalid UTF-8 and the
 * characters XML forbids become U+FFFD; escaping of <>&"' is left to the writer. */
#ifndef FOLDSVG_RENDER_XMLTEXT_H
#define FOLDSVG_RENDER_XMLTEXT_H

#include <stddef.h>

#include "util/buf.h"

/* Whether S[0..n) can be written as is (valid UTF-8, only XML Chars, no NUL). */
int fs_xml_is_clean(const char *s, size_t n);
/* Appends the cleaned form of S[0..n) to OUT. Returns 0 or -1 (out of memory). */
int fs_xml_clean(fs_buf *out, const char *s, size_t n);
/* Number of UTF-8 code points of a cleaned string of N bytes. */
size_t fs_utf8_chars(const char *s, size_t n);
/* Byte length of the first K code points of a cleaned string. */
size_t fs_utf8_prefix(const char *s, size_t n, size_t k);

#endif
