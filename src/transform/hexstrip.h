/* inferno-diff-folded's --strip-hex: every "0x" followed by hexadecimal digits becomes
 * "0x...", so that stacks that differ only in the addresses in their names (JIT code, stripped
 * binaries) match. A step of the stack pipeline (transform/pipeline.h), right after reading. */
#ifndef FOLDSVG_TRANSFORM_HEXSTRIP_H
#define FOLDSVG_TRANSFORM_HEXSTRIP_H

#include <stddef.h>

#include "foldsvg.h"
#include "util/buf.h"

/* Whether S[0..n) holds an address to strip ("0x" and at least one hex digit). */
int fs_hex_strippable(const char *s, size_t n);

/* Appends S[0..n) to OUT with its addresses stripped: each "0x" keeps its place, the hex
 * digits after it become "..."; a "0x" without digits stays as it is. FOLDSVG_E_NOMEM. */
foldsvg_status fs_hex_strip(fs_buf *out, const char *s, size_t n);

#endif
