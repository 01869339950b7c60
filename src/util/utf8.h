/* The one UTF-8 decoder. Well-formed means RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF. Every writer that must emit valid text (XML, JSON, the script's
 * settings) decodes with it and replaces what it rejects the same way: one U+FFFD per byte
 * that does not start an accepted sequence. */
#ifndef FOLDSVG_UTIL_UTF8_H
#define FOLDSVG_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* U+FFFD as UTF-8. */
#define FS_UTF8_REPLACEMENT "\xef\xbf\xbd"

/* Decodes the sequence at S (N > 0 bytes left): its length (1-4) and *CP, or 0 when the
 * bytes there are not well-formed UTF-8 (a truncated sequence included). */
size_t fs_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Which code points a writer accepts (1) or replaces (0), asked only for those outside
 * printable ASCII (0x20-0x7e, always accepted); NULL accepts every well-formed one. */
typedef int (*fs_utf8_accept_fn)(uint32_t cp);

/* Appends S[0..n) to OUT with every byte that does not start a well-formed, accepted
 * sequence replaced by U+FFFD. FOLDSVG_E_NOMEM (OUT failed). */
foldsvg_status fs_utf8_clean(fs_buf *out, const char *s, size_t n, fs_utf8_accept_fn accept);

/* Writes C as UTF-8 into B (room for 4 bytes); returns its length. */
size_t fs_utf8_put(unsigned char *b, uint32_t c);

/* Code points of a well-formed string of N bytes. */
size_t fs_utf8_chars(const char *s, size_t n);
/* Bytes of the first K code points of a well-formed string of N bytes. */
size_t fs_utf8_prefix(const char *s, size_t n, size_t k);

/* Unicode White_Space (what Rust's str::trim, and so inferno, trims). */
int fs_utf8_is_space(uint32_t cp);
/* How many bytes of White_Space start S[0..n), and S's length without the White_Space that
 * ends it: the one trim of lines and names (ASCII first; other bytes are decoded only when
 * an end is not ASCII). A byte that is not well-formed UTF-8 is not whitespace. */
size_t fs_utf8_trim_start(const char *s, size_t n);
size_t fs_utf8_trim_end(const char *s, size_t n);

/* SRC copied into DST (SIZE bytes, NUL-terminated); a SRC that does not fit is cut before
 * the character the cut would split. */
void fs_utf8_copy(char *dst, size_t size, const char *src);

/* Text for a terminal (messages, tables, listings): nothing in a name may move the cursor,
 * set a title or erase the screen. The bytes of control characters (C0, DEL and C1, whose
 * CSI U+009B a terminal acts on as ESC [) and bytes that are not well-formed UTF-8 are
 * written \xNN; the rest, other UTF-8 included, as it is. With KEEP_NEWLINE a newline stays.
 * fs_utf8_term_span: the length of the leading part of S[0..n) that needs no escape. */
size_t fs_utf8_term_span(const char *s, size_t n, int keep_newline);
/* Appends S[0..n) escaped so to OUT. FOLDSVG_E_NOMEM (OUT failed). */
foldsvg_status fs_utf8_term_escape(fs_buf *out, const char *s, size_t n, int keep_newline);

#endif
